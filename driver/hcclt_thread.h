/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: threads and their exported views (hcclt_comm.c).
 */
#ifndef _HCCLT_THREAD_H_
#define _HCCLT_THREAD_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "hcclthread_accel.h"
#include "hcclt_file.h"
#include "hcclt_ids.h"
#include "hcclt_obj.h"

struct drm_device;
struct drm_file;
struct hcclt_comm;
struct hcclt_notify;
struct hcclt_stream;

/* Notifies a thread holds without a separate array. */
#define HCCLT_THREAD_INLINE_NOTIFIES	2

/**
 * struct hcclt_notify_block - an allocated notify array of a thread.
 * @prev: the array it replaced (a wrapping thread's earlier one), kept
 *	until the thread is freed: a submit that read the old count may still
 *	read it; NULL for the first.
 * @n: the entries.
 */
struct hcclt_notify_block {
	struct hcclt_notify_block *prev;
	struct hcclt_notify *n[];
};

/**
 * struct hcclt_thread - a thread (stream + notifies) or an exported view.
 * @ref: held by the file's id table and by lookups; a view holds one on
 *	its primary.
 * @rcu: frees it after a grace period (lookups read it under RCU).
 * @id: id in file->threads.
 * @live: published, see hcclt_obj_publish().
 * @file: the file of its communicator; immutable.
 * @comm: the communicator (reference held).
 * @primary: for a view, the thread it views (reference held); NULL for a
 *	thread.
 * @stream: the stream it runs on (reference held); a view uses its
 *	primary's.
 * @engine: enum drm_hcclt_engine; immutable.
 * @flags: HCCLT_THREAD_* bits; immutable.
 * @dead: destroyed with its communicator; sched_lock.
 * @notify_num: notifies of the thread (primaries); written under comm->lock
 *	with smp_store_release() after @notifies, read with smp_load_acquire().
 * @notify_cap: entries of @notifies: the notify count of an acquired
 *	thread (immutable), 0 for a view; for a wrapping one the inline
 *	entries until it grows past them, then those of its latest block
 *	(hcclt_thread_grow(); comm->lock).
 * @views: exported views by engine (primaries); comm->lock.
 * @node: entry in comm->threads (primaries); comm->lock.
 * @notifies: @notify_cap entries, @notify_inline or @notify_blk's: the
 *	notifies (primaries); entries below @notify_num are immutable once
 *	published. A wrapping thread that grows past @notify_cap moves it to
 *	a larger block (smp_store_release() before @notify_num); the arrays
 *	it leaves stay until the thread is freed.
 * @notify_blk: the latest allocated array, or NULL (inline); comm->lock.
 * @notify_inline: room for small @notify_cap.
 */
struct hcclt_thread {
	struct kref ref;
	struct rcu_head rcu;
	u64 id;
	bool live;
	struct hcclt_file *file;
	struct hcclt_comm *comm;
	struct hcclt_thread *primary;
	struct hcclt_stream *stream;
	u32 engine;
	u32 flags;
	bool dead;
	u32 notify_num;
	u32 notify_cap;
	struct hcclt_thread *views[HCCLT_ENGINE_COUNT];
	struct list_head node;
	struct hcclt_notify **notifies;
	struct hcclt_notify_block *notify_blk;
	struct hcclt_notify *notify_inline[HCCLT_THREAD_INLINE_NOTIFIES];
};

/* hcclt_comm.c */
void hcclt_thread_release(struct kref *ref);

/* Drop a reference to @thread (may be NULL); the last one frees it. */
static inline void hcclt_thread_put(struct hcclt_thread *thread)
{
	if (thread)
		kref_put(&thread->ref, hcclt_thread_release);
}

/* The live thread at the index of @id whose id has the @bits of @id. */
static inline struct hcclt_thread *hcclt_thread_get(struct hcclt_file *file,
						    u64 id, u64 bits)
{
	struct hcclt_thread *thread;

	rcu_read_lock();
	thread = xa_load(&file->threads.xa, hcclt_id_index(id));
	if (thread && (!hcclt_obj_is(&thread->live, &thread->id, id, bits) ||
		       !kref_get_unless_zero(&thread->ref)))
		thread = NULL;
	rcu_read_unlock();
	return thread;
}

/**
 * hcclt_thread_lookup - find a thread or view by id.
 * @file: the file.
 * @id: thread id.
 *
 * Return: the thread with a reference held, or NULL.
 */
static inline struct hcclt_thread *hcclt_thread_lookup(struct hcclt_file *file,
						       u64 id)
{
	if (hcclt_id_kind(id) != HCCLT_ID_KIND_THREAD || (id >> 56))
		return NULL;
	return hcclt_thread_get(file, id, ~0ULL);
}

struct hcclt_thread *hcclt_thread_lookup_owner(struct hcclt_file *file,
					       u64 stream_id);

int hcclt_thread_acquire_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df);
int hcclt_thread_acquire_with_stream_ioctl(struct drm_device *drm,
					   void *data, struct drm_file *df);
int hcclt_thread_export_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df);

/* hcclt_sched.c */
void hcclt_sched_thread_kill(struct hcclt_thread *thread);

#endif /* _HCCLT_THREAD_H_ */
