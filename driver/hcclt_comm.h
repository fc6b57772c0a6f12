/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: communicators (hcclt_comm.c).
 */
#ifndef _HCCLT_COMM_H_
#define _HCCLT_COMM_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct drm_device;
struct drm_file;
struct drm_gem_object;

#include "hcclthread_accel.h"
#include "hcclt_quota.h"

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct hcclt_file;
struct hcclt_group;

/**
 * struct hcclt_comm - a communicator.
 * @ref: held by the file's id table, by its threads and by lookups.
 * @rcu: frees it after a grace period (lookups read it under RCU).
 * @id: id in file->comms.
 * @live: published, see hcclt_obj_publish().
 * @file: the file; immutable, valid while the communicator is alive.
 * @lock: protects @threads, @threads_used, @notifies_used, @thread_count,
 *	@dead, @buf, @op, @op_seq, and the views[] and notify growth of its
 *	threads. Held across
 *	quota check, creation and commit, which makes acquire all-or-nothing
 *	under concurrency.
 * @threads: primaries, acquired and wrapping.
 * @threads_used: threads counted against the active rule set's thread
 *	quota (hcclt_quota.c).
 * @notifies_used: notifies counted against its notify quota.
 * @thread_count: primaries, wrapping ones included.
 * @dead: destroyed; every call on it fails with -ENOENT.
 * @group: the group the communicator is a rank of (hcclt_group.c), or
 *	NULL for one made by COMM_CREATE; set before publication, immutable.
 * @rank: its rank in @group; immutable.
 * @channels: channel index -> struct hcclt_channel (hcclt_channel.c),
 *	established channels only; entries are added under hcclt_chan_lock
 *	while @chan_gone is clear.
 * @chan_seq: sequence number of the next channel id; hcclt_chan_lock.
 * @chan_gone: torn down: no channel is added any more; hcclt_chan_lock.
 * @buf: its HCCL buffer (a memory object, reference held), made on first
 *	use by DRM_IOCTL_HCCLT_COMM_BUFFER, NULL before and once torn down;
 *	protected by @lock.
 * @op: the operator it runs or ran last (DRM_IOCTL_HCCLT_OP_INFO,
 *	hcclt_op.c); protected by @lock.
 * @op_seq: operators registered on it so far; protected by @lock.
 * @memregs: id -> struct hcclt_memreg, its registered memory
 *	(hcclt_memreg.c); entries added and removed under @lock, looked up
 *	with a reference under the xarray's lock.
 * @memreg_next: the next id xa_alloc_cyclic() tries; @lock.
 * @memreg_count: entries of @memregs; @lock.
 */
struct hcclt_comm {
	struct kref ref;
	struct rcu_head rcu;
	u64 id;
	bool live;
	struct hcclt_file *file;
	/* threads, quota counters, dead, buf, op, views[], notify growth */
	struct mutex lock;
	struct list_head threads;
	u32 threads_used;
	u32 notifies_used;
	u32 thread_count;
	bool dead;
	struct hcclt_group *group;
	u32 rank;
	struct xarray channels;
	u32 chan_seq;
	bool chan_gone;
	struct drm_gem_object *buf;
	struct drm_hcclt_op_label op;
	u64 op_seq;
	struct xarray memregs;
	u32 memreg_next;
	u32 memreg_count;
};

/**
 * struct hcclt_memreg - a range registered with a communicator
 * (hcclt_memreg.c).
 * @ref: references: the communicator's table, each task that names it.
 * @gone: entry on hcclt_memreg_comm_gone()'s list.
 * @obj: the memory object (reference held until the last reference).
 * @offset: byte offset of the range in @obj.
 * @size: bytes of the range.
 * @id: its id in the communicator's @memregs.
 * @revoked: unregistered or its communicator torn down; set once, under
 *	@obj's peer_lock held for writing, read under it held for reading
 *	(hcclt_mem_flag_revoke(), hcclt_mem_peer_begin()).
 * @tag: its tag, NUL-terminated.
 */
struct hcclt_memreg {
	struct kref ref;
	struct list_head gone;
	struct drm_gem_object *obj;
	u64 offset;
	u64 size;
	u32 id;
	bool revoked;
	char tag[HCCLT_MEMREG_TAG_LEN];
};

/* hcclt_memreg.c */
struct hcclt_memreg *hcclt_memreg_get(struct hcclt_comm *comm, u32 id);
struct hcclt_memreg *hcclt_memreg_next(struct hcclt_comm *comm, u32 after);
void hcclt_memreg_put(struct hcclt_memreg *reg);
void hcclt_memreg_comm_gone(struct hcclt_comm *comm);
int hcclt_mem_reg_ioctl(struct drm_device *drm, void *data,
			struct drm_file *df);
int hcclt_mem_unreg_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *df);
int hcclt_channel_mems_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df);

/* hcclt_comm.c */
struct hcclt_comm *hcclt_comm_lookup(struct hcclt_file *file, u64 id);
void hcclt_comm_put(struct hcclt_comm *comm);
void hcclt_file_destroy_comms(struct hcclt_file *file);
struct hcclt_comm *hcclt_comm_new(struct hcclt_file *file);
void hcclt_comm_discard(struct hcclt_comm *comm);
void hcclt_comm_publish(struct hcclt_comm *comm);

int hcclt_comm_create_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);
int hcclt_comm_destroy_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df);

/* hcclt_op.c */
int hcclt_op_info_ioctl(struct drm_device *drm, void *data,
			struct drm_file *df);
void hcclt_info_op(struct drm_hcclt_info_op *oi, struct hcclt_comm *comm);

#endif /* _HCCLT_COMM_H_ */
