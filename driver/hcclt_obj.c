// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the caches of communicators, threads and streams.
 *
 * The three are named by ids and found by lockless lookups (an xarray load
 * under RCU, then kref_get_unless_zero()). Their caches are
 * SLAB_TYPESAFE_BY_RCU: a freed object goes back to its cache at once, and
 * its memory stays an object of the same type until a grace period has
 * passed. With kfree_rcu() instead, every object freed waited for a grace
 * period, and at the rate of an acquire loop (a communicator, a thread and
 * a stream per round) the slab pages under the thousands of objects in
 * flight were allocated, zeroed and freed again all the time: about a
 * sixth of an acquire.
 *
 * The price is the lookup protocol. A pointer found under RCU may name an
 * object that was freed and allocated again, here or in another file (whose
 * ids are the same as this file's), so a lookup takes its reference first
 * and checks identity after, with hcclt_obj_found(): live, the id looked
 * up, and the file looked in. It drops the reference if the object is not
 * what it was looking for. For that:
 *
 * - the reference count is zero from the slab constructor until
 *   hcclt_obj_ref_init(), and the allocation path (hcclt_obj_alloc()) never
 *   rewrites it, so a stale lookup cannot take a reference on an object
 *   being set up;
 * - hcclt_obj_ref_init() comes after every step that may fail and free the
 *   object directly; from then on only its release function frees it;
 * - the live flag is cleared before the count becomes non-zero, and the id
 *   and file are set before the flag is (hcclt_obj_publish()).
 *
 * A stale lookup may so hold a reference for a moment on an object it then
 * rejects, also on one still being set up; if the object's owner drops its
 * reference meanwhile (a failed create), the release, and the return of
 * the object's pool unit, happens in the lookup's put instead.
 */

#include <linux/slab.h>
#include <linux/string.h>

#include "hcclt_drv.h"

struct kmem_cache *hcclt_comm_cache;
struct kmem_cache *hcclt_thread_cache;
struct kmem_cache *hcclt_stream_cache;

/* Once per object, when its slab is allocated: the count starts at 0. */
static void hcclt_comm_ctor(void *obj)
{
	memset(obj, 0, sizeof(struct hcclt_comm));
}

static void hcclt_thread_ctor(void *obj)
{
	memset(obj, 0, sizeof(struct hcclt_thread));
}

static void hcclt_stream_ctor(void *obj)
{
	memset(obj, 0, sizeof(struct hcclt_stream));
}

/**
 * hcclt_obj_alloc - allocate an object from its cache.
 * @cache: hcclt_comm_cache, hcclt_thread_cache or hcclt_stream_cache.
 * @gfp: allocation flags.
 *
 * Zeroes the object but for its reference count (its first member), which
 * is zero already and may be read by stale lookups; the caller gives the
 * object its first reference with hcclt_obj_ref_init().
 *
 * Return: the object, or NULL.
 */
void *hcclt_obj_alloc(struct kmem_cache *cache, gfp_t gfp)
{
	void *obj = kmem_cache_alloc(cache, gfp);

	BUILD_BUG_ON(offsetof(struct hcclt_comm, ref) ||
		     offsetof(struct hcclt_thread, ref) ||
		     offsetof(struct hcclt_stream, ref));
	if (obj)
		memset(obj + sizeof(struct kref), 0,
		       kmem_cache_size(cache) - sizeof(struct kref));
	return obj;
}

/**
 * hcclt_obj_caches_init - create the object caches (module load).
 *
 * Return: 0 or -ENOMEM.
 */
int hcclt_obj_caches_init(void)
{
	hcclt_comm_cache = kmem_cache_create("hcclt_comm",
					     sizeof(struct hcclt_comm), 0,
					     SLAB_TYPESAFE_BY_RCU |
					     SLAB_ACCOUNT,
					     hcclt_comm_ctor);
	hcclt_thread_cache = kmem_cache_create("hcclt_thread",
					       sizeof(struct hcclt_thread), 0,
					       SLAB_TYPESAFE_BY_RCU |
					       SLAB_ACCOUNT,
					       hcclt_thread_ctor);
	hcclt_stream_cache = kmem_cache_create("hcclt_stream",
					       sizeof(struct hcclt_stream), 0,
					       SLAB_TYPESAFE_BY_RCU |
					       SLAB_ACCOUNT,
					       hcclt_stream_ctor);
	if (!hcclt_comm_cache || !hcclt_thread_cache || !hcclt_stream_cache) {
		hcclt_obj_caches_fini();
		return -ENOMEM;
	}
	return 0;
}

/**
 * hcclt_obj_caches_fini - destroy the object caches (module unload).
 *
 * Every object must be gone: the slab allocator reports any left.
 */
void hcclt_obj_caches_fini(void)
{
	kmem_cache_destroy(hcclt_stream_cache);
	kmem_cache_destroy(hcclt_thread_cache);
	kmem_cache_destroy(hcclt_comm_cache);
	hcclt_stream_cache = NULL;
	hcclt_thread_cache = NULL;
	hcclt_comm_cache = NULL;
}
