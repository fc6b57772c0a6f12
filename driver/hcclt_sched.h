/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: what the executor (hcclt_sched.c, with its timers in
 * hcclt_sched_timer.c, the cross-device records it hands over in
 * hcclt_sched_xrec.c and the objects' lifetimes and unplug in
 * hcclt_sched_life.c), SUBMIT (hcclt_submit.c) and the out-fences
 * (hcclt_fence.c) share. Private to those files; the rest of the driver
 * uses hcclt_drv.h.
 */
#ifndef _HCCLT_SCHED_H_
#define _HCCLT_SCHED_H_

#include <linux/dma-fence.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "hcclt_drv.h"

/* Tasks run inline by one submit before the rest goes to the workqueue. */
#define HCCLT_INLINE_BUDGET	(2 * HCCLT_MAX_BATCH)

/**
 * struct hcclt_fence - out-fence of one submit.
 * @base: the fence; seqno is the last stream seqno it covers.
 * @lock: the fence's lock.
 * @first: first stream seqno it covers; a failure at or after it is the
 *	fence's error.
 * @last: last stream seqno it covers: it signals once that task is done.
 * @deadline: jiffies by which it must have signalled (fence_timeout_ms
 *	after it was queued): then its stream fails (hcclt_fence_expire());
 *	set before it is queued, immutable.
 * @node: entry in stream->fences; sched_lock.
 */
struct hcclt_fence {
	struct dma_fence base;
	/* the fence's lock (dma_fence core state) */
	spinlock_t lock;
	u64 first;
	u64 last;
	unsigned long deadline;
	struct list_head node;
};

/* Does @task record a notify (counted in its @records while queued)? */
static inline bool hcclt_task_records(const struct hcclt_task *task)
{
	return task->notify && (task->op == HCCLT_TASK_NOTIFY_RECORD ||
				task->op == HCCLT_TASK_CHANNEL_RECORD ||
				task->op == HCCLT_TASK_ACL_NOTIFY_RECORD);
}

/* The stream state machine (hcclt_sched.c); enum hcclt_stream_state. */
bool hcclt_stream_state_allowed(enum hcclt_stream_state from,
				enum hcclt_stream_state to);
void hcclt_stream_set_state(struct hcclt_stream *s,
			    enum hcclt_stream_state to);

/*
 * @s holds the executor no longer (it ran, its wait ended, the copy
 * engine or the AI CPU gave its head task back): put it on @hdev's
 * runlist if it has tasks, else make it idle (sched_lock held).
 */
static inline void hcclt_stream_settle(struct hcclt_device *hdev,
				       struct hcclt_stream *s)
{
	if (list_empty(&s->tasks)) {
		hcclt_stream_set_state(s, HCCLT_STREAM_IDLE);
		return;
	}
	list_add_tail(&s->run_node, &hdev->runlist);
	hcclt_stream_set_state(s, HCCLT_STREAM_READY);
}

/* Put @s on @hdev's runlist if it is idle and has tasks (sched_lock held). */
static inline void hcclt_make_runnable(struct hcclt_device *hdev,
				       struct hcclt_stream *s)
{
	if (s->state == HCCLT_STREAM_IDLE && !list_empty(&s->tasks))
		hcclt_stream_settle(hdev, s);
}

/*
 * Tasks run by one pass of a work item (run_work, xrec_work) under
 * sched_lock before it requeues itself, as many as a SUBMIT runs inline:
 * other work of the device's queue, and other devices' hand-offs, get
 * their turn between passes.
 */
#define HCCLT_WORK_BUDGET	HCCLT_INLINE_BUDGET

/* What hcclt_sched.c shares with hcclt_sched_*.c; sched_lock held. */
void hcclt_stream_flush(struct hcclt_stream *s, int err);
void hcclt_stream_kill(struct hcclt_stream *s, int err);
bool hcclt_stream_fail(struct hcclt_stream *s, int err);
void hcclt_stream_fail_head(struct hcclt_stream *s, int err);
void hcclt_notify_record(struct hcclt_device *hdev, struct hcclt_notify *n);
void hcclt_notify_release_all(struct hcclt_device *hdev,
			      struct hcclt_notify *n);
void hcclt_chan_wait_log(struct hcclt_stream *s, struct hcclt_notify *n,
			 const char *why);

/* Work items (hcclt_sched.c, hcclt_sched_xrec.c), timers (_timer.c). */
void hcclt_run_work(struct work_struct *work);
void hcclt_xrec_work(struct work_struct *work);
void hcclt_stream_timeout(struct timer_list *timer);
void hcclt_fence_expire(struct timer_list *timer);

static inline void hcclt_stream_wake(struct hcclt_stream *s)
{
	if (wq_has_sleeper(&s->wq))
		wake_up_all(&s->wq);
}

/* hcclt_fence.c */
struct hcclt_fence *hcclt_fence_new(struct hcclt_stream *s);
void hcclt_fence_done(struct hcclt_stream *s, struct hcclt_fence *f);
void hcclt_signal_fences(struct hcclt_stream *s);
unsigned long hcclt_fence_deadline(void);

/* hcclt_sched.c, sched_lock held unless said otherwise */
struct hcclt_batch *hcclt_batch_get(struct hcclt_stream *s, u32 n);
void hcclt_batch_put(struct hcclt_stream *s, struct hcclt_batch *batch);
void hcclt_run_kick_locked(struct hcclt_device *hdev, int budget);
void hcclt_xrec_kick(struct hcclt_device *a);	/* no sched_lock held */

#endif /* _HCCLT_SCHED_H_ */
