/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: streams, their tasks and batches (hcclt_stream.c,
 * hcclt_submit.c, hcclt_sync.c; executed by hcclt_sched.c).
 */
#ifndef _HCCLT_STREAM_H_
#define _HCCLT_STREAM_H_

#include <linux/bits.h>
#include <linux/compiler.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/wait.h>

#include "hcclthread_accel.h"

struct drm_device;
struct drm_file;
struct drm_hcclt_wait_info;
struct hcclt_acct;
struct hcclt_copy;
struct hcclt_device;
struct hcclt_event;
struct hcclt_file;
struct hcclt_gate;
struct hcclt_launch;
struct hcclt_notify;
struct hcclt_resv;
struct hcclt_usage;

/* Engines a created stream can be wrapped on (QUERY reports the same). */
#define HCCLT_STREAM_ENGINES	(BIT(HCCLT_ENGINE_CPU) | \
				 BIT(HCCLT_ENGINE_CPU_TS) | \
				 BIT(HCCLT_ENGINE_CCU))

/*
 * The op of the task that holds a batch's in-fences (hcclt_syncobj.c); an
 * internal one, never in a struct drm_hcclt_task. Tracepoints show it as
 * "in_fences".
 */
#define HCCLT_TASK_IN_FENCES	64

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
 * enum hcclt_stream_state - what a stream's executor is doing.
 * @HCCLT_STREAM_IDLE: nothing: no task is queued, or, while sched_lock is
 *	held, SUBMIT has just queued some and puts it on the runlist before
 *	it drops the lock.
 * @HCCLT_STREAM_READY: its head task can run: it is on hdev->runlist.
 * @HCCLT_STREAM_RUNNING: the executor runs its tasks (hcclt_stream_run());
 *	only while sched_lock is held.
 * @HCCLT_STREAM_WAIT_NOTIFY: its head wait task waits for a record of
 *	@parked (parked on the notify's waiters, maybe with a timeout).
 * @HCCLT_STREAM_WAIT_EVENT: its head wait task waits for records of
 *	@parked_ev (parked on the event's waiters).
 * @HCCLT_STREAM_WAIT_GATE: its head task waits for the in-fences of
 *	@parked_gate (a fence callback armed).
 * @HCCLT_STREAM_COPYING: its head task is a data task the copy engine has
 *	(@copy); hcclt_sched_copy_done_locked() completes it.
 * @HCCLT_STREAM_LAUNCHING: its head task is a kernel launch the AI CPU
 *	worker runs (maybe with a timeout); hcclt_sched_launch_done()
 *	completes it.
 * @HCCLT_STREAM_DEAD: destroyed (owner gone or device unplugged): no
 *	task is queued or will be, sync waiters return at once. Final.
 * @HCCLT_STREAM_STATES: the number of states.
 *
 * Every change goes through hcclt_stream_set_state(), which checks it
 * against the transitions hcclt_stream_state_allowed() lists
 * (hcclt_sched.c; Documentation/overview.rst, "Stream states").
 */
enum hcclt_stream_state {
	HCCLT_STREAM_IDLE,
	HCCLT_STREAM_READY,
	HCCLT_STREAM_RUNNING,
	HCCLT_STREAM_WAIT_NOTIFY,
	HCCLT_STREAM_WAIT_EVENT,
	HCCLT_STREAM_WAIT_GATE,
	HCCLT_STREAM_COPYING,
	HCCLT_STREAM_LAUNCHING,
	HCCLT_STREAM_DEAD,
	HCCLT_STREAM_STATES
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
 * @file: the file whose table names it or whose thread owns it; immutable.
 *	Dereferenced only by hcclt_sched_stream_init(), in the ioctl of that
 *	file that makes the stream; else only compared.
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
 * @fail_mode: HCCLT_FAILURE_*: what a failed task does to the stream
 *	(hcclt_stream_fail()); DROP until DRM_IOCTL_HCCLT_SET_PARAM, STOP
 *	for good once set, also by its file's; sched_lock.
 * @stopped: in HCCLT_FAILURE_STOP, a task failed: SUBMIT refuses the
 *	stream from now on; sched_lock.
 * @saturate: float reduce results saturate (HCCLT_PARAM_SATURATION of its
 *	file when it was made); immutable once made.
 * @state: enum hcclt_stream_state; IDLE when hcclt_sched_stream_init()
 *	sets it up, then changed by hcclt_stream_set_state() only, under
 *	sched_lock (written with WRITE_ONCE(): sync's wait condition reads
 *	it without it, hcclt_stream_is_dead()).
 * @parked: in HCCLT_STREAM_WAIT_NOTIFY, the notify the head wait task
 *	waits for, else NULL; sched_lock.
 * @parked_ev: in HCCLT_STREAM_WAIT_EVENT, the event the head wait task
 *	waits for, else NULL; sched_lock.
 * @parked_gate: in HCCLT_STREAM_WAIT_GATE, the in-fences the head task
 *	waits for, else NULL; sched_lock.
 * @park_node: in HCCLT_STREAM_WAIT_NOTIFY or _WAIT_EVENT, the entry in
 *	@parked's or @parked_ev's waiters; sched_lock.
 * @park_ns: CLOCK_MONOTONIC time the stream began its wait (INFO);
 *	sched_lock.
 * @park_timeout: the notify wait's timeout in seconds (0: none);
 *	sched_lock.
 * @deadline: jiffies when the notify wait or the launch times out, if
 *	@timed; sched_lock.
 * @timed: in HCCLT_STREAM_WAIT_NOTIFY or _LAUNCHING, the wait has a
 *	timeout and @timer is armed for @deadline; sched_lock.
 * @copy: in HCCLT_STREAM_COPYING, the copy the engine has (NULL once the
 *	engine finished it; hcclt_copy_cancel()); sched_lock.
 * @run_node: in HCCLT_STREAM_READY, the entry in hdev->runlist;
 *	sched_lock.
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
	u8 fail_mode;
	bool stopped;
	bool saturate;
	enum hcclt_stream_state state;
	struct hcclt_notify *parked;
	struct hcclt_event *parked_ev;
	struct hcclt_gate *parked_gate;
	struct list_head park_node;
	u64 park_ns;
	u32 park_timeout;
	unsigned long deadline;
	bool timed;
	struct hcclt_copy *copy;
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
 * hcclt_stream_is_dead - has @s been destroyed?
 * @s: the stream.
 *
 * Without sched_lock a hint, except after an acquire of
 * @s->done_seqno: a stream is marked dead before its tasks are dropped.
 *
 * Return: true when @s is in HCCLT_STREAM_DEAD.
 */
static inline bool hcclt_stream_is_dead(const struct hcclt_stream *s)
{
	return READ_ONCE(s->state) == HCCLT_STREAM_DEAD;
}

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

int hcclt_set_param_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *df);

/* hcclt_sched.c */
void hcclt_sched_stream_init(struct hcclt_stream *stream);
int hcclt_sched_set_fail_mode(struct hcclt_stream *s, u8 mode);
void hcclt_sched_file_params(struct hcclt_file *file, bool stop,
			     int saturate);
void hcclt_sched_stream_fini(struct hcclt_stream *stream);
void hcclt_sched_stream_cancel(struct hcclt_stream *stream, bool kill);
void hcclt_sched_task_done(struct hcclt_stream *stream, int err);
u32 hcclt_sched_stream_state(struct hcclt_stream *stream, u32 *wait_notify,
			     u32 *depth, struct drm_hcclt_wait_info *wi);

/* hcclt_submit.c */
int hcclt_submit_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *df);

/* hcclt_sync.c */
int hcclt_stream_sync_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);

#endif /* _HCCLT_STREAM_H_ */
