/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: core objects.
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
 *   file->lock (mutex): publication of the file's communicators
 *	(comm->live) and the destruction of its communicators, streams and
 *	channels, against the INFO and debugfs walks of the file and
 *	postclose.
 *   comm->lock (mutex): the communicator's threads, quota counters, @dead,
 *	HCCL buffer, and the views[] and notify growth of its threads.
 *   hcclt_chan_lock (module mutex, hcclt_channel.c): the channel offer
 *	table, every channel's state, peer, broken flag and waitqueue, and
 *	every communicator's chan_seq and chan_gone.
 *   hcclt_groups_lock (module mutex, hcclt_group.c): the group registry
 *	(list, key table, serial), every group's fields, and every file's
 *	groups and groups_pending.
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
 *	file->events, the lookups that take a reference.
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

#include <asm/barrier.h>
#include <linux/bits.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <drm/drm_device.h>
#include <drm/drm_drv.h>

#include "hcclthread_accel.h"
#include "hcclt_hw.h"
#include "hcclt_limits.h"

#define HCCLT_MAX_DEVICES	16

/*
 * The op of the task that holds a batch's in-fences (hcclt_syncobj.c); an
 * internal one, never in a struct drm_hcclt_task. Tracepoints show it as
 * "in_fences".
 */
#define HCCLT_TASK_IN_FENCES	64

/* Notifies a thread holds without a separate array. */
#define HCCLT_THREAD_INLINE_NOTIFIES	2

/* Engines a created stream can be wrapped on (QUERY reports the same). */
#define HCCLT_STREAM_ENGINES	(BIT(HCCLT_ENGINE_CPU) | \
				 BIT(HCCLT_ENGINE_CPU_TS) | \
				 BIT(HCCLT_ENGINE_CCU))
/*
 * Id layout: bits 63:56 zero, 55:48 kind (uAPI), 47:20 sequence number,
 * 19:0 index in the file's table of that kind.
 */
#define HCCLT_ID_KIND_MASK	0xffULL
#define HCCLT_ID_SEQ_SHIFT	20
#define HCCLT_ID_SEQ_MASK	0x0fffffffU
#define HCCLT_ID_INDEX_MASK	0x000fffffU
/*
 * A stream id with bit 47 set names the stream a thread owns: it has no
 * entry of its own in file->streams but is the id of its thread with kind
 * STREAM and the top sequence bit set (hcclt_owned_stream_id()). Streams in
 * file->streams (created ones) get 27-bit sequence numbers.
 */
#define HCCLT_ID_OWNED		BIT_ULL(47)

struct dentry;
struct drm_file;
struct drm_gem_object;
struct hcclt_comm;
struct hcclt_group;

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
 * struct hcclt_ids - one id namespace of a file.
 * @xa: index -> object (XA_FLAGS_ALLOC, lowest free index first). An
 *	object is entered when its id is made and is invisible to lookups
 *	and walks until it is live (hcclt_obj_publish()).
 * @seq: sequence number of the next id (its low 28 bits go into the id, 27
 *	for a stream);
 *	protected by the xa_lock of @xa.
 * @max: highest index; HCCLT_ID_INDEX_MASK (KUnit tests use less).
 */
struct hcclt_ids {
	struct xarray xa;
	u32 seq;
	u32 max;
};

/**
 * struct hcclt_file - per open file state (drm_file.driver_priv).
 * @hdev: the device.
 * @pid: process that opened the file (reference held).
 * @euid: effective uid of the opener (INFO with HCCLT_INFO_SCOPE_USER).
 * @ref: held by the DRM file (until postclose) and by INFO and debugfs
 *	walks between their steps (hcclt_file_next()); the last put frees it.
 * @serial: its place in hdev->files: 1 for the device's first open, one
 *	more for each; immutable. INFO cursors name files by it.
 * @node: entry in hdev->files, protected by hdev->files_lock.
 * @lock: serialises communicator publication (comm->live) and
 *	communicator and stream destruction with the INFO and debugfs walks
 *	over this file and with postclose.
 * @comms: communicator ids.
 * @streams: stream ids (created streams and streams owned by threads).
 * @threads: thread ids (threads and exported views).
 * @usage: fdinfo statistics (hcclt_fdinfo.c); reference held.
 * @ncomms: its live communicators (QUERY without CAP_SYS_ADMIN).
 * @events: events by id (hcclt_event.c; the xarray's lock).
 * @event_next: the next event id to try (xa_alloc_cyclic(), under the
 *	events xarray's lock).
 * @acl_notifies: ACL notifies by id, their pool slot (the xarray's lock).
 * @acct: what the file, its process and its user hold of the device's
 *	pools (hcclt_limits.c); reference held; immutable.
 * @groups: the pending groups it created (hcclt_group.c), oldest first;
 *	hcclt_groups_lock.
 * @groups_pending: entries of @groups; hcclt_groups_lock.
 */
struct hcclt_file {
	struct hcclt_device *hdev;
	struct pid *pid;
	kuid_t euid;
	struct kref ref;
	u64 serial;
	struct list_head node;
	/* serialises destruction with the INFO/debugfs walks and postclose */
	struct mutex lock;
	struct hcclt_ids comms;
	struct hcclt_ids streams;
	struct hcclt_ids threads;
	struct hcclt_usage *usage;
	atomic_t ncomms;
	struct xarray events;
	u32 event_next;
	struct xarray acl_notifies;
	struct hcclt_acct *acct;
	struct list_head groups;
	u32 groups_pending;
};

/**
 * struct hcclt_event - an event (aclrtCreateEvent; hcclt_event.c).
 * @ref: held by the file's table and by every queued task naming it.
 * @hdev: the device.
 * @id: its id in its file; immutable.
 * @recorded: record tasks of it queued so far (each task's ev_seq);
 *	sched_lock.
 * @done: the highest ev_seq of a record that ran or was dropped;
 *	sched_lock.
 * @ts_ns: CLOCK_MONOTONIC time the last record that ran did; sched_lock.
 * @err: 0 if the record of @done ran, else the error its stream was
 *	flushed with (it was dropped; hcclt_event_complete()); sched_lock.
 * @waiters: streams parked on it (their park_node); sched_lock.
 * @flush_node: entry in the list of events a stream flush completed,
 *	whose waiters it releases once, at its end (hcclt_stream_flush());
 *	empty otherwise; sched_lock.
 * @wq: DRM_IOCTL_HCCLT_EVENT_WAIT callers.
 */
struct hcclt_event {
	struct kref ref;
	struct hcclt_device *hdev;
	u64 id;
	u64 recorded;
	u64 done;
	u64 ts_ns;
	int err;
	struct list_head waiters;
	struct list_head flush_node;
	wait_queue_head_t wq;
};

/**
 * struct hcclt_notify - a binary notify flag.
 * @ref: held by the owning thread and by every queued task naming it.
 * @hdev: the device.
 * @owner_id: id of the thread owning it (for tracing).
 * @idx: index within the owning thread.
 * @slot: backend slot; valid until @dead.
 * @set: the flag; sched_lock.
 * @dead: its thread is gone; records are no-ops; sched_lock.
 * @waiters: the streams parked on this notify, oldest first (their
 *	park_node); sched_lock. A thread notify has at most its own stream
 *	here, a channel notify any stream of its side's communicator.
 * @err: what a wait on it fails with once @dead: 0 for -ECANCELED, or
 *	-ECONNRESET for a channel notify whose peer is gone; sched_lock.
 * @xnode: entry in the xrecs list of @hdev while @xcount is non-zero
 *	(records handed over from another device, hcclt_sched.c);
 *	hdev->xrec_lock.
 * @xcount: records handed over and not applied yet; hdev->xrec_lock.
 * @lost: records into it dropped because their stream failed, each of
 *	which fails one wait in its place; sched_lock.
 * @lost_err: the error those waits fail with; sched_lock.
 * @lost_by: id of the stream whose failure dropped the last of them (for
 *	the log); sched_lock.
 * @records: record tasks naming it queued on any stream and not done yet
 *	(INFO's HCCLT_WAIT_RECORD_QUEUED); atomic, changed under the
 *	recording stream's sched_lock.
 * @peer_dev: of a channel notify, the device index of the peer's side;
 *	set before the channel is published, then immutable.
 * @peer_pid: of a channel notify, the process of the peer's file
 *	(reference held); as @peer_dev.
 * @group: of a channel notify, the name of its group (for the log);
 *	as @peer_dev.
 * @rank: of a channel notify, the rank of its side; immutable.
 * @peer: of a channel notify, the peer's rank (who records it); immutable.
 * @chan: a channel notify (@owner_id is then the channel id, set when
 *	the channel is established); immutable.
 * @acl: an ACL notify (hcclt_event.c; @idx is its id); immutable.
 * @acct: the account its pool unit is charged to (reference held) until
 *	hcclt_notify_drop_slot().
 */
struct hcclt_notify {
	struct kref ref;
	struct hcclt_device *hdev;
	u64 owner_id;
	u32 idx;
	u32 slot;
	bool set;
	bool dead;
	struct list_head waiters;
	int err;
	struct list_head xnode;
	u32 xcount;
	u32 lost;
	int lost_err;
	u64 lost_by;
	atomic_t records;
	u32 peer_dev;
	struct pid *peer_pid;
	char *group;
	u32 rank;
	u32 peer;
	bool chan;
	bool acl;
	struct hcclt_acct *acct;
};

struct hcclt_batch;
struct hcclt_copy;
struct hcclt_gate;
struct hcclt_launch;

/**
 * struct hcclt_copyq - one client's queue in its device's copy engine
 *	(hcclt_copy.c): the copies of the streams of one file, in the order
 *	they get their turns.
 * @node: entry in hdev->copy_clients while @copies is not empty;
 *	sched_lock.
 * @copies: the client's copies waiting for their turn; sched_lock.
 */
struct hcclt_copyq {
	struct list_head node;
	struct list_head copies;
};

/**
 * struct hcclt_task - one queued stream task.
 * @node: entry in stream->tasks (sched_lock).
 * @seqno: stream sequence number.
 * @notify: the notify set (record) or waited for (wait); reference held.
 * @event: event tasks: the event (hcclt_event.c); reference held; NULL
 *	for other tasks.
 * @ev_seq: event tasks: the record's number, or the records a wait waits
 *	for; set when queued (sched_lock).
 * @batch: the submission the task belongs to; given back (freed or kept
 *	as the stream's spare) with its last task.
 * @timeout_s: wait timeout in seconds, 0 = none.
 * @op: enum drm_hcclt_task_op.
 * @engine: the engine the task counts for in fdinfo (hcclt_fdinfo.c).
 * @started: the task_start tracepoint fired; sched_lock.
 * @last: last task of @batch.
 * @copy: data tasks: the copy (hcclt_copy.c) until the executor hands it
 *	to the copy engine; NULL for other tasks.
 * @launch: kernel launches: the event (hcclt_kernel.c) until the executor
 *	sends it; NULL for other tasks.
 * @gate: HCCLT_TASK_IN_FENCES: the batch's in-fences (hcclt_syncobj.c;
 *	reference held); NULL for other tasks.
 */
struct hcclt_task {
	struct list_head node;
	u64 seqno;
	struct hcclt_notify *notify;
	struct hcclt_event *event;
	u64 ev_seq;
	struct hcclt_copy *copy;
	struct hcclt_launch *launch;
	struct hcclt_gate *gate;
	struct hcclt_batch *batch;
	u32 timeout_s;
	u8 op;
	u8 engine;
	bool started;
	bool last;
};

/*
 * A stream keeps one completed batch with room for at most this many tasks
 * (a slab object of at most 256 bytes) for its next submit that fits.
 */
#define HCCLT_SPARE_MAX_TASKS	5

/**
 * struct hcclt_batch - the tasks of one DRM_IOCTL_HCCLT_SUBMIT, in one
 * allocation. Tasks of a stream complete in order, so the batch is freed,
 * or kept as the stream's @spare, when its last task completes.
 * @count: number of @tasks.
 * @room: number of tasks the allocation holds (its kmalloc bucket), at
 *	least @count.
 * @tasks: the tasks.
 */
struct hcclt_batch {
	u32 count;
	u32 room;
	struct hcclt_task tasks[] __counted_by(count);
};

/**
 * struct hcclt_stream - a stream (task queue) of the device.
 * @ref: held by the file's id table (until destroyed), by each thread
 *	running on it, and temporarily by ioctls. The pool slot is given back
 *	when the last reference goes.
 * @rcu: frees it after a grace period (lookups read it under RCU).
 * @hdev: the device (a DRM device reference held).
 * @id: id in file->streams (created), or hcclt_owned_stream_id() of its
 *	thread; immutable.
 * @live: published, see hcclt_obj_publish() (created streams; a thread's
 *	own stream is found through its thread).
 * @file: the file whose table names it or whose thread owns it; never
 *	dereferenced; immutable.
 * @slot: backend stream slot.
 * @created: created by DRM_IOCTL_HCCLT_STREAM_CREATE (else owned by the
 *	thread that acquired it); immutable.
 * @fence_ctx: dma_fence context of the stream's out-fences; immutable.
 * @fence_lock: held by a SUBMIT that makes an out-fence, from taking
 *	its sequence number to queueing it, so that the fences of the stream
 *	are queued, and signal, in sequence order.
 * @fence_seqno: the last out-fence's sequence number; @fence_lock.
 * @tasks: queued tasks, head first; sched_lock.
 * @depth: number of @tasks; sched_lock.
 * @nfences: entries on @fences, at most HCCLT_MAX_QUEUE_DEPTH (fence-only
 *	submits add fences but no tasks); sched_lock.
 * @submit_seqno: seqno of the last queued task; sched_lock (written),
 *	READ_ONCE elsewhere.
 * @done_seqno: seqno of the last completed task; sched_lock (written with
 *	smp_store_release()), smp_load_acquire() in sync's wait condition.
 * @fail_seqno: seqno of the last task that failed or was dropped;
 *	sched_lock.
 * @fail_err: the error of that task (fence error); sched_lock.
 * @error: error the next sync reports (-ETIME, -ECANCELED), 0 if none;
 *	sched_lock (written with WRITE_ONCE(): sync peeks without it).
 * @dead: destroyed (owner gone or device unplugged): no more tasks, sync
 *	waiters return at once; sched_lock (written with WRITE_ONCE(): sync's
 *	wait condition reads it without it).
 * @on_runlist: linked on hdev->runlist; sched_lock.
 * @parked: notify the head wait task waits for, or NULL; sched_lock.
 * @parked_ev: event the head wait task waits for, or NULL; sched_lock.
 * @parked_gate: in-fences the head task waits for, or NULL; sched_lock.
 * @park_node: entry in @parked's or @parked_ev's waiters; sched_lock.
 * @park_ns: CLOCK_MONOTONIC time @parked was set (INFO); sched_lock.
 * @park_timeout: the parked wait's timeout in seconds (0: none);
 *	sched_lock.
 * @deadline: jiffies when the parked wait times out, if @timed; sched_lock.
 * @timed: the parked wait has a timeout; sched_lock.
 * @copying: the head task is a data task the copy engine has; the stream
 *	runs nothing else until hcclt_sched_copy_done_locked(); sched_lock.
 * @copy: while @copying, the copy the engine has (hcclt_copy_cancel());
 *	sched_lock.
 * @launching: the head task is a kernel launch the AI CPU worker runs;
 *	the stream runs nothing else until hcclt_sched_launch_done() or its
 *	timeout; sched_lock.
 * @run_node: entry in hdev->runlist; sched_lock.
 * @dev_node: entry in hdev->streams; sched_lock.
 * @fences: pending out-fences, oldest first; sched_lock.
 * @timer: fires when the parked wait times out.
 * @fence_timer: fires at the deadline of the oldest of @fences (armed by
 *	SUBMIT and hcclt_signal_fences() under sched_lock).
 * @wq: sync waiters.
 * @spare: a completed batch of at most HCCLT_SPARE_MAX_TASKS room kept
 *	for the next submit that fits, or NULL; taken with xchg(), given back
 *	with cmpxchg(), freed by hcclt_sched_stream_fini(). Saves an
 *	allocation and a free per submit.
 * @usage: the fdinfo statistics of @file (reference held).
 * @busy_engine: the engine the stream is busy on, HCCLT_USAGE_IDLE if none;
 *	sched_lock.
 * @acct: the account its pool unit is charged to (reference held);
 *	immutable.
 */
struct hcclt_stream {
	struct kref ref;
	struct rcu_head rcu;
	struct hcclt_device *hdev;
	u64 id;
	bool live;
	struct hcclt_file *file;
	u32 slot;
	bool created;
	u64 fence_ctx;
	/* orders out-fences: see @fence_lock above */
	struct mutex fence_lock;
	u64 fence_seqno;

	struct list_head tasks;
	u32 depth;
	u32 nfences;
	u64 submit_seqno;
	u64 done_seqno;
	u64 fail_seqno;
	int fail_err;
	int error;
	bool dead;
	bool on_runlist;
	struct hcclt_notify *parked;
	struct hcclt_event *parked_ev;
	struct hcclt_gate *parked_gate;
	struct list_head park_node;
	u64 park_ns;
	u32 park_timeout;
	unsigned long deadline;
	bool timed;
	bool copying;
	struct hcclt_copy *copy;
	bool launching;
	struct list_head run_node;
	struct list_head dev_node;
	struct list_head fences;
	struct timer_list timer;
	struct timer_list fence_timer;
	wait_queue_head_t wq;
	struct hcclt_batch *spare;
	struct hcclt_usage *usage;
	u8 busy_engine;
	struct hcclt_acct *acct;
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
 *	entries until it grows past them, then HCCLT_MAX_NOTIFIES_PER_COMM
 *	(hcclt_thread_grow(); comm->lock).
 * @views: exported views by engine (primaries); comm->lock.
 * @node: entry in comm->threads (primaries); comm->lock.
 * @notifies: @notify_cap entries, @notify_inline or allocated: the
 *	notifies (primaries); entries below @notify_num are immutable once
 *	published. A wrapping thread moves it, once, from @notify_inline to
 *	an allocated array (smp_store_release() before @notify_num).
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
	struct hcclt_notify *notify_inline[HCCLT_THREAD_INLINE_NOTIFIES];
};

/**
 * struct hcclt_comm - a communicator.
 * @ref: held by the file's id table, by its threads and by lookups.
 * @rcu: frees it after a grace period (lookups read it under RCU).
 * @id: id in file->comms.
 * @live: published, see hcclt_obj_publish().
 * @file: the file; immutable, valid while the communicator is alive.
 * @lock: protects @threads, @threads_used, @notifies_used, @thread_count,
 *	@dead, @buf, and the views[] and notify growth of its threads. Held across
 *	quota check, creation and commit, which makes acquire all-or-nothing
 *	under concurrency.
 * @threads: primaries, acquired and wrapping.
 * @threads_used: threads counted against HCCLT_MAX_THREADS_PER_COMM.
 * @notifies_used: notifies counted against HCCLT_MAX_NOTIFIES_PER_COMM.
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
 */
struct hcclt_comm {
	struct kref ref;
	struct rcu_head rcu;
	u64 id;
	bool live;
	struct hcclt_file *file;
	/* protects threads, quota counters, dead, buf, views[], notify growth */
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
};

/**
 * struct hcclt_resv - device pool units reserved by a call and not yet
 * taken over by an object.
 * @acct: the account they are charged to (the caller's reference).
 * @streams: stream units.
 * @notifies: notify units.
 *
 * A call reserves every unit it needs up front (hcclt_pool_reserve(), all
 * or nothing); each stream or notify it creates takes one unit over and
 * gives it back when destroyed; the call gives back what is left.
 */
struct hcclt_resv {
	struct hcclt_acct *acct;
	u32 streams;
	u32 notifies;
};

/**
 * hcclt_quota_check - may a communicator acquire @n threads with @npt
 * notifies each?
 * @threads_used: threads it holds.
 * @notifies_used: notifies it holds.
 * @n: threads wanted (non-zero).
 * @npt: notifies per thread wanted.
 *
 * @n is checked first, so @n * @npt <= 40 * 64 cannot overflow.
 * Return: 0 or -EDQUOT.
 */
static inline int hcclt_quota_check(u32 threads_used, u32 notifies_used,
				    u32 n, u32 npt)
{
	if (n > HCCLT_MAX_THREADS_PER_COMM - threads_used ||
	    npt > HCCLT_MAX_NOTIFIES_PER_COMM ||
	    n * npt > HCCLT_MAX_NOTIFIES_PER_COMM - notifies_used)
		return -EDQUOT;
	return 0;
}

static inline u32 hcclt_id_kind(u64 id)
{
	return (id >> HCCLT_ID_KIND_SHIFT) & HCCLT_ID_KIND_MASK;
}

/* The id of the stream owned by the thread @thread_id. */
static inline u64 hcclt_owned_stream_id(u64 thread_id)
{
	return ((u64)HCCLT_ID_KIND_STREAM << HCCLT_ID_KIND_SHIFT) |
	       HCCLT_ID_OWNED | (thread_id & (HCCLT_ID_OWNED - 1));
}

/* The index of an id in its table. */
static inline u32 hcclt_id_index(u64 id)
{
	return id & HCCLT_ID_INDEX_MASK;
}

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

/* hcclt_ids.c */
void hcclt_ids_init(struct hcclt_ids *ids, u32 max);
int hcclt_id_reserve(struct hcclt_ids *ids, u32 kind, void *obj, u64 *id);
void hcclt_id_remove(struct hcclt_ids *ids, u64 id);
void *hcclt_id_peek(struct hcclt_ids *ids, u32 kind, u64 id);

/* hcclt_pool.c */
int hcclt_pool_reserve(struct hcclt_device *hdev, struct hcclt_acct *acct,
		       u32 streams, u32 notifies);
void hcclt_pool_unreserve(struct hcclt_device *hdev, struct hcclt_acct *acct,
			  u32 streams, u32 notifies);

/* hcclt_drv.c */
extern unsigned int hcclt_sim_streams;
extern unsigned int hcclt_sim_notifies;
struct hcclt_file *hcclt_file_next(struct hcclt_device *hdev, u64 serial);
void hcclt_file_put(struct hcclt_file *file);

/* hcclt_info.c */
bool hcclt_file_visible(const struct hcclt_file *self,
			struct hcclt_file *file, bool admin);
void hcclt_info_comm(struct drm_hcclt_comm_info *ci, struct hcclt_comm *comm);
struct drm_hcclt_wait_info;
void hcclt_info_thread(struct drm_hcclt_thread_info *ti,
		       struct drm_hcclt_wait_info *wi, struct hcclt_thread *t);
int hcclt_info_ioctl(struct drm_device *drm, void *data, struct drm_file *df);
int hcclt_info_array_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);

/* hcclt_stream.c */
struct hcclt_stream *hcclt_stream_new(struct hcclt_file *file, u64 owner,
				      struct hcclt_resv *resv);
void hcclt_stream_release(struct kref *ref);

/* Drop a reference to @stream (may be NULL); the last one frees it. */
static inline void hcclt_stream_put(struct hcclt_stream *stream)
{
	if (stream)
		kref_put(&stream->ref, hcclt_stream_release);
}

struct hcclt_stream *hcclt_stream_lookup(struct hcclt_file *file, u64 id);
struct hcclt_stream *hcclt_stream_by_handle(struct hcclt_file *file,
					    u64 handle);
void hcclt_file_destroy_streams(struct hcclt_file *file);
int hcclt_stream_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df);
int hcclt_stream_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df);

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
struct hcclt_comm *hcclt_comm_lookup(struct hcclt_file *file, u64 id);
void hcclt_comm_put(struct hcclt_comm *comm);
void hcclt_file_destroy_comms(struct hcclt_file *file);
struct hcclt_comm *hcclt_comm_new(struct hcclt_file *file);
void hcclt_comm_discard(struct hcclt_comm *comm);
void hcclt_comm_publish(struct hcclt_comm *comm);
void hcclt_notify_release(struct kref *ref);

/* Drop a reference to @notify; the last one frees it. */
static inline void hcclt_notify_put(struct hcclt_notify *notify)
{
	kref_put(&notify->ref, hcclt_notify_release);
}

struct hcclt_notify *hcclt_notify_new(struct hcclt_device *hdev,
				      u64 owner_id, u32 idx,
				      struct hcclt_resv *resv);
void hcclt_notify_drop_slot(struct hcclt_notify *notify);
int hcclt_comm_create_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);
int hcclt_comm_destroy_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df);
int hcclt_thread_acquire_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df);
int hcclt_thread_acquire_with_stream_ioctl(struct drm_device *drm,
					   void *data, struct drm_file *df);
int hcclt_thread_export_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df);

/* hcclt_sched.c */
int hcclt_sched_init(struct hcclt_device *hdev);
void hcclt_sched_unplug(struct hcclt_device *hdev);
void hcclt_sched_stream_init(struct hcclt_stream *stream);
void hcclt_sched_stream_fini(struct hcclt_stream *stream);
void hcclt_sched_stream_cancel(struct hcclt_stream *stream, bool kill);
void hcclt_sched_thread_kill(struct hcclt_thread *thread);
void hcclt_sched_task_done(struct hcclt_stream *stream, int err);
void hcclt_sched_notify_kill(struct hcclt_notify *n, int err);
bool hcclt_sched_notify_pending(struct hcclt_notify *n);
u32 hcclt_sched_stream_state(struct hcclt_stream *stream, u32 *wait_notify,
			     u32 *depth, struct drm_hcclt_wait_info *wi);

/* hcclt_submit.c */
int hcclt_submit_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *df);

/* hcclt_sync.c */
int hcclt_stream_sync_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);

/* hcclt_syncobj_ioctl.c */
bool hcclt_sobj_ioctl_nr(unsigned int nr);
long hcclt_sobj_ioctl(struct drm_file *df, unsigned int cmd,
		      void __user *argp);

/* hcclt_syncobj.c */
struct dma_fence;
struct hcclt_outsync;
int hcclt_syncobj_init(void);
void hcclt_syncobj_fini(void);
int hcclt_gate_new(struct drm_file *df, const struct drm_hcclt_submit *args,
		   struct hcclt_gate **out);
struct hcclt_gate *hcclt_gate_get(struct hcclt_gate *g);
void hcclt_gate_put(struct hcclt_gate *g);
bool hcclt_gate_step(struct hcclt_stream *s, struct hcclt_gate *g, int *err);
void hcclt_gate_disarm(struct hcclt_gate *g);
void hcclt_gate_unarmed(struct hcclt_gate *g);
void hcclt_sched_gate_wake(struct hcclt_stream *s, struct hcclt_gate *g);
int hcclt_outsyncs_new(struct drm_file *df,
		       const struct drm_hcclt_submit *args,
		       struct hcclt_outsync **out);
void hcclt_outsyncs_signal(struct hcclt_outsync *o, u32 n,
			   struct dma_fence *fence);
void hcclt_outsyncs_free(struct hcclt_outsync *o, u32 n);

/* hcclt_channel.c */
int hcclt_channel_init(void);
void hcclt_channel_fini(void);
struct hcclt_channel;
void hcclt_channel_comm_init(struct hcclt_comm *comm);
void hcclt_channel_comm_gone(struct hcclt_comm *comm);
struct hcclt_channel *hcclt_channel_lookup(struct hcclt_comm *comm, u64 id);
void hcclt_channel_put(struct hcclt_channel *chan);
bool hcclt_channel_is(const struct hcclt_channel *chan, u64 id);
int hcclt_channel_task_notify(struct hcclt_channel *chan, u32 engine,
			      u32 op, u32 idx, struct hcclt_notify **out);
int hcclt_channel_task_check(struct hcclt_channel *chan, u32 engine);
struct drm_gem_object *hcclt_channel_peer_buffer(struct hcclt_channel *chan,
						 u64 size);
int hcclt_channel_buffer_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df);
int hcclt_channel_acquire_ioctl(struct drm_device *drm, void *data,
				struct drm_file *df);

/* hcclt_group.c */
int hcclt_group_init(void);
void hcclt_group_fini(void);
bool hcclt_group_rank_alive(struct hcclt_group *group, u32 rank);
u32 hcclt_group_nranks(const struct hcclt_group *group);
const char *hcclt_group_name(const struct hcclt_group *group);
void hcclt_group_comm_gone(struct hcclt_comm *comm);
void hcclt_group_file_close(struct hcclt_file *file);
int hcclt_group_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df);
int hcclt_group_join_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);
int hcclt_group_info_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);

/* hcclt_fdinfo.c */
#define HCCLT_USAGE_IDLE	0xff
struct drm_printer;
struct hcclt_usage;
struct hcclt_usage *hcclt_usage_new(struct hcclt_device *hdev);
struct hcclt_copyq *hcclt_usage_copyq(struct hcclt_usage *u);
void hcclt_usage_put(struct hcclt_usage *u);
void hcclt_usage_count(struct hcclt_usage *u, int threads, int streams,
		       int notifies);
void hcclt_usage_stream_init(struct hcclt_stream *s, struct hcclt_file *file);
void hcclt_usage_stream_fini(struct hcclt_stream *s);
void hcclt_usage_switch(struct hcclt_stream *s, u8 engine);
void hcclt_show_fdinfo(struct drm_printer *p, struct drm_file *df);

/* The executor starts @task of @s (sched_lock held). */
static inline void hcclt_usage_task_start(struct hcclt_stream *s,
					  const struct hcclt_task *task)
{
	if (unlikely(s->busy_engine != task->engine))
		hcclt_usage_switch(s, task->engine);
}

/* A task of @s completed; @s has no task left (sched_lock held). */
static inline void hcclt_usage_stream_idle(struct hcclt_stream *s)
{
	if (s->busy_engine != HCCLT_USAGE_IDLE)
		hcclt_usage_switch(s, HCCLT_USAGE_IDLE);
}

/* hcclt_debugfs.c */
void hcclt_debugfs_dev_init(struct hcclt_device *hdev);
void hcclt_debugfs_dev_fini(struct hcclt_device *hdev);

/* hcclt_mem.c */
/* hcclt_copy.c */
u32 hcclt_reduce_size(u32 dtype);
bool hcclt_reduce_supported(u32 dtype);
bool hcclt_op_reduces(u32 op);
void hcclt_reduce(u32 dtype, u32 op, void *dst, const void *src, size_t len);
int hcclt_copy_prepare(u32 op, struct drm_gem_object *src, u64 soff,
		       struct drm_gem_object *dst, u64 doff, u64 len,
		       u32 dtype, u32 rop, struct hcclt_copy **out);
void hcclt_copy_drop(struct hcclt_device *hdev, struct hcclt_copy *c);
void hcclt_copy_start(struct hcclt_stream *s, struct hcclt_copy *c,
		      u64 seqno);
void hcclt_sched_copy_done_locked(struct hcclt_stream *s, u64 seqno, int err);
void hcclt_copy_cancel(struct hcclt_stream *s);
void hcclt_copy_dev_init(struct hcclt_device *hdev);
void hcclt_copyq_init(struct hcclt_copyq *q);

/* hcclt_kernel.c */
int hcclt_launch_prepare(struct drm_file *df, u64 cookie, u64 handle,
			 struct hcclt_launch **out);
void hcclt_launch_free(struct drm_device *dev, struct hcclt_launch *l);
void hcclt_launch_send(struct drm_device *dev, struct hcclt_launch *l,
		       u64 seqno, bool cancelled);
int hcclt_sched_launch_done(struct hcclt_stream *s, u64 seqno, s32 status);
int hcclt_sched_launch_start(struct hcclt_stream *s, u64 seqno);
int hcclt_kernel_done_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);

int hcclt_mem_check_params(void);
struct drm_gem_object *hcclt_mem_lookup(struct drm_file *df, u32 handle);
struct mem_cgroup *hcclt_mem_memcg(struct drm_gem_object *obj);
void hcclt_mem_dev_init(struct hcclt_device *hdev);
struct drm_gem_object *hcclt_mem_create_object(struct drm_device *drm,
					       size_t size);
int hcclt_mem_create_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);
int hcclt_comm_buffer_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);
void hcclt_comm_buffer_drop(struct hcclt_comm *comm);
void hcclt_event_file_init(struct hcclt_file *file);
void hcclt_event_file_close(struct hcclt_file *file);
struct hcclt_event *hcclt_event_get(struct hcclt_file *file, u64 id);
void hcclt_event_put(struct hcclt_event *ev);
struct hcclt_notify *hcclt_acl_notify_get(struct hcclt_file *file, u32 id);
int hcclt_event_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df);
int hcclt_event_destroy_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df);
int hcclt_event_wait_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);
int hcclt_notify_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df);
int hcclt_notify_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df);
u64 hcclt_sched_event_target(struct hcclt_event *ev);
bool hcclt_sched_event_done(struct hcclt_event *ev, u64 target, u64 *ts,
			    int *err);
struct dma_buf;
struct dma_buf *hcclt_mem_export(struct drm_gem_object *obj);
struct drm_gem_object *hcclt_comm_buffer_get(struct hcclt_comm *comm,
					     u64 size);
void hcclt_mem_query(struct hcclt_device *hdev, u64 *total, u64 *used);
void hcclt_mem_show_fdinfo(struct drm_printer *p, struct drm_file *df);

#endif /* _HCCLT_DRV_H_ */
