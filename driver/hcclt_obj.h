/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: publication and freeing of communicators, threads and
 * streams (hcclt_obj.c).
 */
#ifndef _HCCLT_OBJ_H_
#define _HCCLT_OBJ_H_

#include <asm/barrier.h>
#include <linux/compiler.h>
#include <linux/types.h>

/**
 * hcclt_obj_publish - make an object entered by hcclt_id_reserve() visible.
 * @live: the object's live flag.
 *
 * The release store orders every write that initialised the object before
 * the flag, which lockless lookups read with hcclt_obj_live(); it is what
 * the xarray store of the object would otherwise order. Set once; the flag
 * stays set after the id is removed, when lookups no longer find it.
 */
static inline void hcclt_obj_publish(bool *live)
{
	/* Pairs with smp_load_acquire() in hcclt_obj_live(). */
	smp_store_release(live, true);
}

/* Is the object published? */
static inline bool hcclt_obj_live(const bool *live)
{
	/* Pairs with smp_store_release() in hcclt_obj_publish(). */
	return smp_load_acquire(live);
}

/* hcclt_obj.c */
enum hcclt_obj_type {
	HCCLT_OBJ_COMM,
	HCCLT_OBJ_THREAD,
	HCCLT_OBJ_STREAM,
	HCCLT_OBJ_TYPES
};

int hcclt_obj_caches_init(void);
void hcclt_obj_caches_fini(void);
bool hcclt_obj_caches_ready(void);
void *hcclt_obj_alloc(enum hcclt_obj_type type);
void hcclt_obj_free_now(enum hcclt_obj_type type, void *obj);
void hcclt_obj_free(enum hcclt_obj_type type, void *obj);

/**
 * hcclt_obj_is - is an object found under RCU the one named?
 * @live: the object's live flag.
 * @obj_id: the object's id.
 * @id: the id looked up.
 * @bits: the bits of the ids to compare.
 *
 * The caller then takes its reference with kref_get_unless_zero().
 *
 * Return: true if the object is published and its id has the @bits of @id.
 */
static inline bool hcclt_obj_is(const bool *live, const u64 *obj_id, u64 id,
				u64 bits)
{
	/* The id is set before the object is published. */
	return hcclt_obj_live(live) && !((READ_ONCE(*obj_id) ^ id) & bits);
}

#endif /* _HCCLT_OBJ_H_ */
