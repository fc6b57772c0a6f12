// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the caches of communicators, threads and streams.
 *
 * The three are named by ids and found by lookups that load the table entry
 * under RCU and take a reference with kref_get_unless_zero() (hcclt_drv.h).
 * So each is freed only after an RCU grace period (hcclt_obj_free()).
 * Their own caches, rather than kmalloc, keep each object at its own size
 * (a thread is 440 bytes here, 667 or more from kmalloc buckets) and keep
 * an acquire loop's objects in slabs of their own.
 */

#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "hcclt_drv.h"

static struct kmem_cache *hcclt_caches[HCCLT_OBJ_TYPES];

static const struct {
	const char *name;
	size_t size;
} hcclt_obj_types[HCCLT_OBJ_TYPES] = {
	[HCCLT_OBJ_COMM] = { "hcclt_comm", sizeof(struct hcclt_comm) },
	[HCCLT_OBJ_THREAD] = { "hcclt_thread", sizeof(struct hcclt_thread) },
	[HCCLT_OBJ_STREAM] = { "hcclt_stream", sizeof(struct hcclt_stream) },
};

/**
 * hcclt_obj_alloc - a zeroed object of @type.
 * @type: HCCLT_OBJ_*.
 *
 * Return: the object, or NULL.
 */
void *hcclt_obj_alloc(enum hcclt_obj_type type)
{
	return kmem_cache_zalloc(hcclt_caches[type], GFP_KERNEL_ACCOUNT);
}

/* An object never published: no lookup can have seen it. */
void hcclt_obj_free_now(enum hcclt_obj_type type, void *obj)
{
	kmem_cache_free(hcclt_caches[type], obj);
}

#define HCCLT_OBJ_RCU_FREE(type, ctype)					\
static void hcclt_##ctype##_free_rcu(struct rcu_head *rcu)		\
{									\
	kmem_cache_free(hcclt_caches[type],				\
			container_of(rcu, struct hcclt_##ctype, rcu));	\
}

HCCLT_OBJ_RCU_FREE(HCCLT_OBJ_COMM, comm)
HCCLT_OBJ_RCU_FREE(HCCLT_OBJ_THREAD, thread)
HCCLT_OBJ_RCU_FREE(HCCLT_OBJ_STREAM, stream)

/**
 * hcclt_obj_free - free @obj of @type once lookups cannot see it.
 * @type: HCCLT_OBJ_*.
 * @obj: the object; its id is out of every table.
 *
 * After an RCU grace period: a lookup may still read it. hcclt_exit()'s
 * rcu_barrier() waits for the callbacks before the caches go.
 */
void hcclt_obj_free(enum hcclt_obj_type type, void *obj)
{
	switch (type) {
	case HCCLT_OBJ_COMM:
		call_rcu(&((struct hcclt_comm *)obj)->rcu, hcclt_comm_free_rcu);
		break;
	case HCCLT_OBJ_THREAD:
		call_rcu(&((struct hcclt_thread *)obj)->rcu,
			 hcclt_thread_free_rcu);
		break;
	case HCCLT_OBJ_STREAM:
		call_rcu(&((struct hcclt_stream *)obj)->rcu,
			 hcclt_stream_free_rcu);
		break;
	default:
		WARN_ON(1);
	}
}

/**
 * hcclt_obj_caches_init - create the object caches (module load).
 *
 * Return: 0 or -ENOMEM.
 */
int hcclt_obj_caches_init(void)
{
	int i;

	for (i = 0; i < HCCLT_OBJ_TYPES; i++) {
		hcclt_caches[i] = kmem_cache_create(hcclt_obj_types[i].name,
						    hcclt_obj_types[i].size, 0,
						    SLAB_ACCOUNT, NULL);
		if (!hcclt_caches[i]) {
			hcclt_obj_caches_fini();
			return -ENOMEM;
		}
	}
	return 0;
}

/* Are the caches there (KUnit suites may run before the module's init)? */
bool hcclt_obj_caches_ready(void)
{
	return hcclt_caches[HCCLT_OBJ_TYPES - 1];
}

/**
 * hcclt_obj_caches_fini - destroy the object caches (module unload).
 *
 * Call after rcu_barrier(): every object must be gone; the slab allocator
 * reports any left.
 */
void hcclt_obj_caches_fini(void)
{
	int i;

	for (i = 0; i < HCCLT_OBJ_TYPES; i++) {
		kmem_cache_destroy(hcclt_caches[i]);
		hcclt_caches[i] = NULL;
	}
}
