/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the device, and the object model, locks and lifetimes of
 * the driver. Each object has a header of its own (hcclt_file.h,
 * hcclt_comm.h, hcclt_thread.h, hcclt_stream.h, hcclt_notify.h, ...), all
 * included here.
 *
 * Object model (one DRM device per NPU):
 *
 *   hcclt_device
 *     +- hcclt_file (one per open file)
 *          +- comms   (id -> hcclt_comm)
 *          |    +- threads (primaries, each owns or wraps one stream and
 *          |       owns its notifies; exported views hang off views[])
 *          +- streams (id -> hcclt_stream, created and thread-owned ones)
 *          +- threads (id -> hcclt_thread, primaries and views)
 *
 * Locks, outer to inner, with what each protects and its context. They
 * nest only as the list after them says, never the other way round.
 *
 *   hdev->files_lock (mutex): hdev->files and hdev->file_serial. Held
 *	only to add, remove or find one file (hcclt_file_next()); no other
 *	lock of the driver is taken under it, nor is it taken under one.
 *   hcclt_attach_lock (module mutex, hcclt_drv.c): every file's alias
 *	(its setting) and attached count (DRM_IOCTL_HCCLT_FILE_ATTACH and
 *	postclose).
 *   file->lock (mutex): publication of the file's communicators
 *	(comm->live) and the destruction of its communicators, streams and
 *	channels, against the INFO and debugfs walks of the file and
 *	postclose.
 *   comm->lock (mutex): the communicator's threads, quota counters, @dead,
 *	HCCL buffer, registered memory (entries of @memregs, their count
 *	and tags), and the views[] and notify growth of its threads.
 *   mem->peer_lock (rw_semaphore, one per memory object; hcclt_mem.c):
 *	the object's revoked flag and its list of peer dma-bufs. Held for
 *	reading by the faults of the peers' mappings and by the copy engine
 *	around each chunk of a peer's copy (with no driver lock), for
 *	writing by the revocation and while a dma-buf enters or leaves the
 *	list. Sleeps and allocates under it; never taken under a spinlock
 *	or by memory reclaim (the driver has no shrinker).
 *   hcclt_chan_lock (module mutex, hcclt_channel.c): the channel offer
 *	table, every channel's state, peer, broken flag and waitqueue, and
 *	every communicator's chan_seq and chan_gone.
 *   hcclt_groups_lock (module mutex, hcclt_group.c): the group registry
 *	(list, key table, serial), every group's fields, and every file's
 *	groups and groups_pending.
 *   hcclt_links_lock (module mutex, hcclt_link.c): the list of links to
 *	other hosts and the list of connects in progress; nothing is taken
 *	under it.
 *   link->lock (spinlock_t, softirq-safe; hcclt_link.c): a link's state
 *	and send credits, held around ib_post_send(); a leaf.
 *   link->xslots (semaphore, HCCLT_XFER_WINDOW; hcclt_link.c): chunks of
 *	data tasks to the link's host in flight; held by a transfer's work
 *	(hcclt_xfer.c) across one chunk (its XMAP round trip, RDMA operation
 *	and XDONE), with no other lock.
 *   link->qp_sem (rw_semaphore; hcclt_link.c): read by an RDMA operation
 *	from its post to the destruction of its context (under xslots);
 *	written by the teardown, once the QP is drained, before it destroys
 *	the QP. Takes link->lock inside.
 *   xa_lock of link->reqs (hcclt_link.c): the requests waiting for a
 *	REPLY; held while a REPLY or the teardown completes one; a leaf.
 *   stream->fence_lock (mutex): held by a SUBMIT that makes an out-fence
 *	from taking its sequence number to queueing it (fences of a stream
 *	queue and signal in order).
 *   hdev->sched_lock (spinlock_t, spin_lock_bh(); plain spin_lock() in the
 *	stream timers, which run in softirq context): every stream's task
 *	queue and the state marked "sched_lock" in struct hcclt_stream,
 *	every notify's @set, @dead and waiters, every event's state, every
 *	thread's @dead, the runlist, hdev->streams, @unplugged and the copy
 *	engine's queues. Nothing sleeps under it; what one holder does is
 *	bounded (hcclt_sched.c).
 *   hdev->xrec_lock (spinlock_t; plain spin_lock() under a sched_lock,
 *	spin_lock_bh() otherwise): @xrecs, @xrec_stopped and every notify's
 *	xnode and xcount (cross-device records handed over, hcclt_sched.c).
 *   hdev->pool_lock (spinlock_t, process context): the device pools'
 *	streams_used, notifies_used, events_used and mem_used.
 *   sim slot locks (spinlock_t, one per slot kind, process context;
 *	hcclt_sim.c): the backend's slot bitmaps.
 *   fence locks (spinlock_t): an out-fence's own lock (struct hcclt_fence,
 *	the dma_fence core's state); an in-fence's lock is its driver's.
 *	The gate of a batch's in-fences (hcclt_syncobj.c) has no lock of its
 *	own: its state is under sched_lock, and its fence callback, which
 *	runs under the in-fence's lock, only queues the gate's work.
 *   xa_lock of an xarray (plain xa_lock(), process context): of a file's
 *	id tables also @seq (hcclt_ids.c); of file->events also
 *	file->event_next; of comm->channels, file->acl_notifies and
 *	file->events, the lookups that take a reference; of comm->memregs
 *	(registered memory, hcclt_memreg.c) the lookup of a peer's SUBMIT
 *	and its reference.
 *   rhashtable bucket locks (the channel offers, the groups, the
 *	accounts of hcclt_limits.c): taken inside the rhashtable calls only.
 *
 * Nestings the driver does (each chain read outer -> inner):
 *   file->lock -> comm->lock -> sched_lock (thread and stream teardown,
 *	the INFO and debugfs walks)
 *   file->lock -> hcclt_chan_lock (a communicator's teardown,
 *	hcclt_channel_comm_gone()) -> hcclt_groups_lock (an offer checks
 *	that its peer's rank is alive, hcclt_group_rank_alive())
 *   file->lock -> hcclt_groups_lock (hcclt_group_comm_gone())
 *   hcclt_groups_lock -> link->lock (messages to other hosts sent under
 *	it, hcclt_group.c); a link's receive work and teardown take
 *	hcclt_groups_lock and hcclt_chan_lock with nothing held
 *   hcclt_chan_lock -> link->lock (channel messages to other hosts,
 *	hcclt_channel.c)
 *   sched_lock -> link->lock (a record into a channel of another host
 *	queued by the executor, hcclt_link_record())
 *   hcclt_chan_lock -> xrec_lock of a device (a record from another host
 *	handed to its notify's device, hcclt_xrec_remote())
 *   file->lock -> sched_lock (hcclt_file_destroy_streams())
 *   comm->lock -> pool_lock, comm->lock -> sim slot lock (THREAD_ACQUIRE
 *	and its undo, the HCCL buffer)
 *   hcclt_chan_lock -> sched_lock of one device at a time -> that
 *	device's xrec_lock (a channel's notifies killed,
 *	hcclt_sched_notify_kill())
 *   stream->fence_lock -> sched_lock of its device, and then, with that
 *	dropped, of the devices it handed records to (hcclt_xrec_kick())
 *   sched_lock -> xrec_lock of its own device or of another
 *	(hcclt_xrecord(): device A's sched_lock -> device B's xrec_lock).
 *	Two devices' sched_locks are never nested.
 *   sched_lock -> fence lock (out-fences signalled; in-fence callbacks
 *	added and removed by the gate)
 *   sched_lock -> the DRM device's event_lock (drm_send_event() of a
 *	kernel launch, hcclt_kernel.c)
 *   any of the above -> an xa_lock (ids made and removed under
 *	comm->lock and file->lock, channels entered under hcclt_chan_lock)
 *	or an rhashtable bucket
 *	lock; both are leaves, as are pool_lock, the sim slot locks,
 *	xrec_lock and files_lock. The accounts of hcclt_limits.c take no
 *	lock (atomic counters).
 *   file->lock -> mem->peer_lock -> i_mmap_rwsem (a communicator's
 *	teardown revokes its HCCL buffer, hcclt_mem_revoke(), and, after
 *	taking them off comm->memregs under comm->lock, its registered
 *	ranges, hcclt_mem_flag_revoke(); MEM_UNREG does the latter with no
 *	other lock held);
 *	mmap_lock -> mem->peer_lock -> the shmem helper's lock, the
 *	object's dma_resv lock (its pages_lock before 6.2) (a fault of a
 *	peer's mapping, hcclt_peer_fault())
 *   DRM's file->table_lock is taken alone, for the fdinfo memory keys
 *	(hcclt_mem_show_fdinfo()).
 *
 * RCU: the file's id tables are read under rcu_read_lock() (lookups,
 * hcclt_thread_get()), communicators, threads and streams are freed after
 * a grace period (hcclt_obj_free()); the per-process and per-user
 * entries of hcclt_limits.c are looked up under RCU and freed with
 * kfree_rcu(); out-fences are freed
 * with call_rcu() (dma_fence readers). drm_dev_enter() (SRCU) brackets
 * every backend call and every hand-off to another device.
 *
 * Nothing runs in hard interrupt context: no hrtimer callback of the
 * driver's own (STREAM_SYNC's timeout is the core's hrtimer sleeper), no
 * raw_spinlock_t, no interrupts or preemption disabled around a lock, and
 * the sync busy-wait (hcclt_sync_spin()) runs preemptible. On PREEMPT_RT
 * the spinlocks become sleeping locks and the timers run in the ktimers
 * thread, which is all right for every lock above (make check runs the
 * tests on Debian's 6.1 PREEMPT_RT kernel).
 *
 * Lifetime: the file's id tables hold one reference on every object they
 * name. A lookup loads the entry under RCU, checks that the object is
 * published (hcclt_obj_publish()) and has the id asked for (the index is
 * reused), and takes a reference with kref_get_unless_zero();
 * communicators, threads and streams are freed after an RCU grace period
 * (hcclt_obj_free()), so what the load found stays valid memory until the
 * read section ends. An object pins what it uses (a stream its DRM
 * device, a thread its communicator and stream). Queued tasks hold
 * references on the notifies they name, so a record into a destroyed
 * thread's notify touches only a dead notify, never freed memory.
 */
#ifndef _HCCLT_DRV_H_
#define _HCCLT_DRV_H_

#include <linux/atomic.h>
#include <linux/container_of.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>

#include "hcclthread_accel.h"
#include "hcclt_channel.h"
#include "hcclt_comm.h"
#include "hcclt_copy.h"
#include "hcclt_debugfs.h"
#include "hcclt_event.h"
#include "hcclt_fdinfo.h"
#include "hcclt_file.h"
#include "hcclt_group.h"
#include "hcclt_hw.h"
#include "hcclt_ids.h"
#include "hcclt_info.h"
#include "hcclt_kernel.h"
#include "hcclt_limits.h"
#include "hcclt_link.h"
#include "hcclt_mem.h"
#include "hcclt_notify.h"
#include "hcclt_obj.h"
#include "hcclt_pool.h"
#include "hcclt_reduce.h"
#include "hcclt_stream.h"
#include "hcclt_syncobj.h"
#include "hcclt_thread.h"
#include "hcclt_xfer.h"

#define HCCLT_MAX_DEVICES	16

struct dentry;
struct hcclt_copy;

/**
 * struct hcclt_device - one (simulated) NPU.
 * @drm: the DRM device; hcclt_device is embedded (devm_drm_dev_alloc()).
 * @index: device number (platform device id).
 * @hw: backend ops; immutable after probe.
 * @hw_priv: backend state.
 * @pool_lock: protects @streams_used, @notifies_used, @events_used and
 *	@mem_used.
 * @streams_total: size of the stream pool; immutable after probe.
 * @notifies_total: size of the notify pool; immutable after probe.
 * @streams_used: stream slots in use.
 * @notifies_used: notify slots in use.
 * @events_used: events in use (HCCLT_MAX_EVENTS; hcclt_event.c).
 * @mem_total: device memory capacity in bytes; immutable after probe.
 * @mem_used: bytes of it held by memory objects (hcclt_mem.c).
 * @files_lock: protects @files and @file_serial. Held only to add,
 *	remove or find one file (hcclt_file_next()), never across a walk of
 *	a file's objects.
 * @files: every open hcclt_file of the device, in @serial order.
 * @file_serial: the serial of the last file opened; written under
 *	@files_lock, READ_ONCE() elsewhere.
 * @nfiles: open files (for QUERY without the lock).
 * @ncomms: live communicators, all files.
 * @sched_lock: the scheduler lock. Protects, for every stream of the
 *	device, its task queue and everything marked "sched_lock" in
 *	struct hcclt_stream; every notify's @set and @dead; every thread's
 *	@dead; @runlist, @streams and @unplugged.
 * @runlist: streams that have a runnable task at the head of their queue.
 * @streams: every stream of the device (for unplug).
 * @unplugged: set once on removal; no work is queued afterwards.
 * @wq: the device's scheduler workqueue.
 * @xfer_wq: the workqueue of its data tasks to other hosts
 *	(hcclt_xfer.c), which sleep in network round trips.
 * @run_work: runs @runlist when the submitter's inline budget ran out.
 * @copy_clients: the copy engine's clients with copies queued, in the
 *	order they are served (struct hcclt_copyq; hcclt_copy.c);
 *	sched_lock.
 * @copy_work: the copy engine, on @wq.
 * @copy_running: the copy the engine runs a chunk of, or NULL; sched_lock.
 * @copy_chunks: chunks the copy engine ran (debugfs); sched_lock.
 * @sync_spun: STREAM_SYNC calls that found the stream busy and saw it
 *	finish while busy-waiting (hcclt_sync_spin()); for debugfs.
 * @sync_slept: STREAM_SYNC calls that found the stream busy and did not
 *	see it finish while spinning: they went on to wait (and slept unless
 *	it finished first or a signal was pending); for debugfs.
 * @xrec_lock: protects @xrecs, @xrec_stopped and the xnode and xcount of
 *	every notify of the device; a leaf lock (taken under any device's
 *	sched_lock, never the other way round; hcclt_sched.c), with
 *	spin_lock_bh() where no sched_lock is held.
 * @xrecs: notifies of this device that another device's executor recorded
 *	(channel records), to be set by @xrec_work.
 * @xrec_stopped: unplugged: no more hand-offs.
 * @xrec_work: sets the notifies on @xrecs under this device's sched_lock.
 * @xdirect: the context running this device's runlist now (a SUBMIT, or a
 *	direct hand-off) applies the hand-offs it makes itself, once it has
 *	dropped sched_lock, instead of queueing the peers' @xrec_work;
 *	sched_lock.
 * @xkick: bit i: device @xkick_dev[i] has hand-offs from a direct context
 *	of this device to apply (atomic bitops; set under sched_lock, taken
 *	with xchg() by that context).
 * @xkick_dev: the devices of @xkick's bits; written under sched_lock
 *	(WRITE_ONCE(), then smp_mb__before_atomic() before the bit is set),
 *	read by the context that took the bit with xchg(), which may be
 *	another SUBMIT on the device, not holding sched_lock.
 * @debugfs: the state file in the DRM device's debugfs directory.
 */
struct hcclt_device {
	struct drm_device drm;
	unsigned int index;
	const struct hcclt_hw_ops *hw;
	void *hw_priv;

	/* protects streams_used, notifies_used, events_used, mem_used */
	spinlock_t pool_lock;
	u32 streams_total;
	u32 notifies_total;
	u32 streams_used;
	u32 notifies_used;
	u32 events_used;
	u64 mem_total;
	u64 mem_used;

	/* protects files, file_serial */
	struct mutex files_lock;
	struct list_head files;
	u64 file_serial;
	atomic_t nfiles;
	atomic_t ncomms;

	/* the scheduler lock, see @sched_lock above */
	spinlock_t sched_lock;
	struct list_head runlist;
	struct list_head streams;
	bool unplugged;
	struct workqueue_struct *wq;
	struct workqueue_struct *xfer_wq;
	struct work_struct run_work;
	struct list_head copy_clients;
	struct work_struct copy_work;
	struct hcclt_copy *copy_running;
	u64 copy_chunks;

	atomic_long_t sync_spun;
	atomic_long_t sync_slept;
	struct dentry *debugfs;

	/* protects xrecs, xrec_stopped, notifies' xnode and xcount */
	spinlock_t xrec_lock;
	struct list_head xrecs;
	bool xrec_stopped;
	struct work_struct xrec_work;
	bool xdirect;
	unsigned long xkick;
	struct hcclt_device *xkick_dev[HCCLT_MAX_DEVICES];
};

static inline struct hcclt_device *to_hcclt_dev(struct drm_device *drm)
{
	return container_of(drm, struct hcclt_device, drm);
}

/*
 * Backend access (struct hcclt_hw_ops). Each call is inside
 * drm_dev_enter(): allocations and submits fail with -ENODEV once the
 * device is unplugged, and frees, which must still happen then (a file
 * closed after the device went), tell the backend the device is gone.
 * Callers need no drm_dev_enter() of their own for the backend's sake.
 */
static inline int hcclt_hw_stream_slot_alloc(struct hcclt_device *hdev,
					     u32 *slot)
{
	int idx, ret;

	if (!drm_dev_enter(&hdev->drm, &idx))
		return -ENODEV;
	ret = hdev->hw->stream_slot_alloc(hdev, slot);
	drm_dev_exit(idx);
	return ret;
}

static inline void hcclt_hw_stream_slot_free(struct hcclt_device *hdev,
					     u32 slot)
{
	int idx;
	bool present = drm_dev_enter(&hdev->drm, &idx);

	hdev->hw->stream_slot_free(hdev, slot, present);
	if (present)
		drm_dev_exit(idx);
}

static inline int hcclt_hw_notify_slot_alloc(struct hcclt_device *hdev,
					     u32 *slot)
{
	int idx, ret;

	if (!drm_dev_enter(&hdev->drm, &idx))
		return -ENODEV;
	ret = hdev->hw->notify_slot_alloc(hdev, slot);
	drm_dev_exit(idx);
	return ret;
}

static inline void hcclt_hw_notify_slot_free(struct hcclt_device *hdev,
					     u32 slot)
{
	int idx;
	bool present = drm_dev_enter(&hdev->drm, &idx);

	hdev->hw->notify_slot_free(hdev, slot, present);
	if (present)
		drm_dev_exit(idx);
}

/*
 * Hand @s's new tasks to the backend (sched_lock held): true if it runs
 * them, false for the software executor. A removed device runs nothing
 * (its streams are dead before it is marked unplugged, see
 * hcclt_sched_unplug(), so no caller gets here then).
 */
static inline bool hcclt_hw_submit(struct hcclt_device *hdev,
				   struct hcclt_stream *s)
{
	bool taken = false;
	int idx;

	if (!hdev->hw->submit || !drm_dev_enter(&hdev->drm, &idx))
		return false;
	taken = hdev->hw->submit(hdev, s);
	drm_dev_exit(idx);
	return taken;
}

/**
 * hcclt_ktime_left - the time from now until @deadline, not below zero.
 * @deadline: an absolute CLOCK_MONOTONIC time.
 *
 * For the hrtimer waits (wait_event_interruptible_hrtimeout()), which take
 * a relative time and would not wake at all for a negative one
 * (ktime_add_safe() saturates it).
 *
 * Return: @deadline minus now, or 0 once it passed.
 */
static inline ktime_t hcclt_ktime_left(ktime_t deadline)
{
	return max_t(ktime_t, ktime_sub(deadline, ktime_get()), 0);
}

/* hcclt_drv.c */
extern unsigned int hcclt_sim_streams;
extern unsigned int hcclt_sim_notifies;

u32 hcclt_device_server(u32 index);
u32 hcclt_cluster_protocol(void);

/* hcclt_sched.c */
int hcclt_sched_init(struct hcclt_device *hdev);
void hcclt_sched_unplug(struct hcclt_device *hdev);

#endif /* _HCCLT_DRV_H_ */
