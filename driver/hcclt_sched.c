// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: stream task queues, the notify state machine and the
 * software executor of the simulated NPU (SUBMIT: hcclt_submit.c,
 * STREAM_SYNC: hcclt_sync.c, out-fences: hcclt_fence.c, in-fences:
 * hcclt_syncobj.c; the executor's timers: hcclt_sched_timer.c,
 * cross-device records applied: hcclt_sched_xrec.c, streams, threads and
 * notifies coming and going, and unplug: hcclt_sched_life.c).
 *
 * Execution is event driven; there is no kernel thread per stream. A
 * stream with a runnable task at the head of its queue is on the device's
 * runlist. A wait that finds its notify clear parks the stream on the
 * notify (on notify->waiters, oldest first) and takes it off the
 * runlist; a record releases the oldest waiter, or sets the notify.
 * Runnable streams are executed inline by the submitting ioctl,
 * iteratively and within a task budget (no
 * recursion); whatever is left when the budget runs out is executed by
 * the device's workqueue. A parked wait with a timeout arms the stream's
 * timer; when it fires (softirq) the wait fails with -ETIME, and the next
 * sync reports -ETIME once. What a failed task does to the tasks queued
 * behind it is the stream's failure mode, in one place:
 * hcclt_stream_fail() (dropped by default).
 *
 * All state here is protected by hdev->sched_lock (see hcclt_drv.h); each
 * task costs O(1) under it, but for an event record, which walks the
 * streams parked on its event (streams of the event's file), so one
 * device-wide lock keeps the notify state machine simple and still lets
 * many streams make progress.
 *
 * What one holder of sched_lock does is bounded, since it runs with BH
 * off and others' streams wait for it: a SUBMIT runs the device's runlist,
 * which holds other clients' streams too, for at most HCCLT_INLINE_BUDGET
 * tasks, and the hand-offs it made on at most HCCLT_XREC_HOPS other
 * devices, each for HCCLT_INLINE_BUDGET tasks (hcclt_xrec_kick()); the
 * work items run HCCLT_WORK_BUDGET tasks a pass and requeue themselves for
 * the rest; a flush (the wait timer in softirq, a cancel) is
 * O(queue depth + parked streams) (hcclt_stream_flush()).
 *
 * Cross-device records (channel records, whose notify belongs to the peer
 * rank's device) are handed over in one place, hcclt_xrecord(). Lock
 * order: device A's sched_lock -> device B's xrec_lock, a leaf lock; B's
 * xrec_work then takes B's sched_lock with no other sched_lock held. Two
 * devices' sched_locks are never nested. A SUBMIT applies the hand-offs
 * its own run made itself, after dropping A's sched_lock
 * (hcclt_xrec_kick()), and so does that application for the hand-offs it
 * makes in turn, a few hops deep: a record reaches the peer's wait without
 * a worker's wake-up in between (Documentation/performance.rst, "The
 * channel ping-pong across processes"). The hand-off holds a reference on
 * the notify until B has set it; a notify holds its device, which lives
 * until the module is unloaded (no file, hence no task, is left then).
 */

#include <linux/dma-fence.h>
#include <linux/file.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "hcclt_compat.h"
#include "hcclt_sched.h"

#define CREATE_TRACE_POINTS
#include "hcclt_trace.h"

/* ---- batches ---- */

/* Keep @batch as the stream's spare if it is small and there is none. */
void hcclt_batch_put(struct hcclt_stream *s, struct hcclt_batch *batch)
{
	if (batch->room > HCCLT_SPARE_MAX_TASKS ||
	    cmpxchg(&s->spare, NULL, batch))
		kfree(batch);
}

/* A batch of @n tasks: the stream's spare if it has room, else a new one. */
struct hcclt_batch *hcclt_batch_get(struct hcclt_stream *s, u32 n)
{
	struct hcclt_batch *batch = NULL;
	size_t size;

	if (n <= HCCLT_SPARE_MAX_TASKS) {
		batch = xchg(&s->spare, NULL);
		if (batch && batch->room < n) {
			hcclt_batch_put(s, batch);
			batch = NULL;
		}
	}
	if (!batch) {
		/* Ask for the whole bucket: the room is then really ours. */
		size = kmalloc_size_roundup(struct_size(batch, tasks, n));
		batch = kmalloc(size, GFP_KERNEL_ACCOUNT);
		if (!batch)
			return NULL;
		batch->room = (size - sizeof(*batch)) / sizeof(batch->tasks[0]);
	}
	batch->count = n;
	return batch;
}

/* ---- the stream state machine (sched_lock held) ---- */

#define HCCLT_TO(state)	BIT(HCCLT_STREAM_##state)

/*
 * The moves each state may make (enum hcclt_stream_state), with what makes
 * them; Documentation/overview.rst ("Stream states") has the same table.
 * A flush (a failed or timed-out task, a cancel) takes a stream from any
 * state but IDLE, RUNNING and DEAD to IDLE, and from RUNNING when the
 * task that fails is its own; a destruction (hcclt_stream_kill()) takes
 * it to DEAD from any state but DEAD and RUNNING, which no other holder
 * of sched_lock sees.
 */
static const u16 hcclt_stream_next[HCCLT_STREAM_STATES] = {
	/* SUBMIT queued tasks; destroyed */
	[HCCLT_STREAM_IDLE] = HCCLT_TO(READY) | HCCLT_TO(DEAD),
	/* the executor took it off the runlist; flushed; destroyed */
	[HCCLT_STREAM_READY] = HCCLT_TO(RUNNING) | HCCLT_TO(IDLE) |
			       HCCLT_TO(DEAD),
	/*
	 * budget spent (READY), queue emptied or flushed (IDLE), or its
	 * head task holds it
	 */
	[HCCLT_STREAM_RUNNING] = HCCLT_TO(READY) | HCCLT_TO(IDLE) |
				 HCCLT_TO(WAIT_NOTIFY) | HCCLT_TO(WAIT_EVENT) |
				 HCCLT_TO(WAIT_GATE) | HCCLT_TO(COPYING) |
				 HCCLT_TO(LAUNCHING),
	/*
	 * the wait, copy or launch ended (READY; IDLE when that completed
	 * the last task queued), flushed (IDLE), destroyed
	 */
	[HCCLT_STREAM_WAIT_NOTIFY] = HCCLT_TO(READY) | HCCLT_TO(IDLE) |
				     HCCLT_TO(DEAD),
	[HCCLT_STREAM_WAIT_EVENT] = HCCLT_TO(READY) | HCCLT_TO(IDLE) |
				    HCCLT_TO(DEAD),
	[HCCLT_STREAM_WAIT_GATE] = HCCLT_TO(READY) | HCCLT_TO(IDLE) |
				   HCCLT_TO(DEAD),
	[HCCLT_STREAM_COPYING] = HCCLT_TO(READY) | HCCLT_TO(IDLE) |
				 HCCLT_TO(DEAD),
	[HCCLT_STREAM_LAUNCHING] = HCCLT_TO(READY) | HCCLT_TO(IDLE) |
				   HCCLT_TO(DEAD),
	/* final */
	[HCCLT_STREAM_DEAD] = 0,
};

#undef HCCLT_TO

/**
 * hcclt_stream_state_allowed - may a stream move from @from to @to?
 * @from: its state.
 * @to: the state it would move to.
 *
 * A pure function of the table above (a state never moves to itself).
 *
 * Return: true when the move is in the table.
 */
bool hcclt_stream_state_allowed(enum hcclt_stream_state from,
				enum hcclt_stream_state to)
{
	if (from >= HCCLT_STREAM_STATES || to >= HCCLT_STREAM_STATES)
		return false;
	return hcclt_stream_next[from] & BIT(to);
}

/**
 * hcclt_stream_set_state - move @s to state @to.
 * @s: the stream; its device's sched_lock held.
 * @to: the new state.
 *
 * The one place a stream's state changes. A move the table does not allow
 * is a bug of the executor and warns once; the stream moves all the same,
 * since the caller has already moved what goes with the state (the
 * runlist entry, the wait, the copy) and the state must say where that is.
 * Written with WRITE_ONCE(): STREAM_SYNC reads it without the lock
 * (hcclt_stream_is_dead()).
 */
void hcclt_stream_set_state(struct hcclt_stream *s,
			    enum hcclt_stream_state to)
{
	lockdep_assert_held(&s->hdev->sched_lock);
	WARN_ON_ONCE(!hcclt_stream_state_allowed(s->state, to));
	WRITE_ONCE(s->state, to);
}

/* ---- executor core (sched_lock held) ---- */

/* Inline: with tracing off, only the tracepoints' static branches remain. */
static __always_inline void hcclt_trace_task(struct hcclt_stream *s,
					     struct hcclt_task *task,
					     bool start, int err)
{
	struct hcclt_notify *n = task->notify;
	/* A data task has no notify. */
	u64 owner = n ? n->owner_id : 0;
	u32 idx = n ? n->idx : 0, slot = n ? n->slot : 0;
	u32 ndev = n ? n->hdev->index : s->hdev->index;

	if (start)
		trace_hcclt_task_start(s->hdev->index, s->slot, s->id,
				       task->seqno, task->op, owner, idx,
				       slot, ndev, 0);
	else
		trace_hcclt_task_complete(s->hdev->index, s->slot, s->id,
					  task->seqno, task->op, owner, idx,
					  slot, ndev, err);
}

/**
 * hcclt_sched_task_done - complete the task at the head of @s.
 * @s: the stream.
 * @err: 0, or why the task failed or was dropped.
 *
 * Called by the software executor, and by a hardware backend that took
 * the tasks over (struct hcclt_hw_ops.submit), with hdev->sched_lock held.
 */
void hcclt_sched_task_done(struct hcclt_stream *s, int err)
{
	struct hcclt_task *task;

	lockdep_assert_held(&s->hdev->sched_lock);
	task = list_first_entry_or_null(&s->tasks, struct hcclt_task, node);
	if (WARN_ON(!task))
		return;
	list_del(&task->node);
	if (!--s->depth)
		hcclt_usage_stream_idle(s);
	/*
	 * Pairs with the acquire in hcclt_sync_done(): a STREAM_SYNC that
	 * sees this seqno done then reads s->error without sched_lock. So
	 * every path that fails a task writes s->error before it completes
	 * the task here, and a sync never returns 0 for a failed task and
	 * leaves its error to the next, unrelated sync.
	 */
	smp_store_release(&s->done_seqno, task->seqno);
	if (err) {
		s->fail_seqno = task->seqno;
		s->fail_err = err;
	}
	hcclt_trace_task(s, task, false, err);
	if (hcclt_task_records(task))
		atomic_dec(&task->notify->records);
	if (task->notify)
		hcclt_notify_put(task->notify);
	/* Frees memory only: fine under sched_lock. */
	if (task->event)
		hcclt_event_put(task->event);
	if (task->gate)
		hcclt_gate_put(task->gate);
	/* A data task dropped before the copy engine had it. */
	if (task->copy)
		hcclt_copy_drop(s->hdev, task->copy);
	/* A launch dropped before it ran: the worker frees its cookie. */
	if (task->launch)
		hcclt_launch_send(&s->hdev->drm, task->launch, task->seqno, true);
	if (task->last)
		hcclt_batch_put(s, task->batch);
	if (!list_empty(&s->fences))
		hcclt_signal_fences(s);
}

/* The timeout of the notify wait or the launch of @s is not wanted now. */
static inline void hcclt_stream_untime(struct hcclt_stream *s)
{
	if (s->timed) {
		s->timed = false;
		timer_delete(&s->timer);
	}
}

/*
 * Undo the wait @s is parked in, if it is in one: take it off its notify's
 * or event's waiters, or disarm its gate. Its state is the caller's to set.
 */
static inline void hcclt_stream_unpark(struct hcclt_stream *s)
{
	switch (s->state) {
	case HCCLT_STREAM_WAIT_GATE:
		hcclt_gate_disarm(s->parked_gate);
		s->parked_gate = NULL;
		break;
	case HCCLT_STREAM_WAIT_EVENT:
		list_del_init(&s->park_node);
		s->parked_ev = NULL;
		break;
	case HCCLT_STREAM_WAIT_NOTIFY:
		list_del_init(&s->park_node);
		s->parked = NULL;
		hcclt_stream_untime(s);
		break;
	default:
		break;
	}
}

/* The wait @s is parked in ended: it runs again (or is idle). */
static inline void hcclt_stream_resume(struct hcclt_device *hdev,
				       struct hcclt_stream *s)
{
	hcclt_stream_unpark(s);
	hcclt_stream_settle(hdev, s);
}

/*
 * Undo what goes with the state of @s (its runlist entry, its wait, the
 * copy or the launch it has out) and move it to @to, HCCLT_STREAM_IDLE or
 * HCCLT_STREAM_DEAD. A dead stream stays dead.
 */
static void hcclt_stream_stop(struct hcclt_stream *s,
			      enum hcclt_stream_state to)
{
	switch (s->state) {
	case HCCLT_STREAM_DEAD:
		return;
	case HCCLT_STREAM_READY:
		list_del_init(&s->run_node);
		break;
	case HCCLT_STREAM_COPYING:
		/* The copy engine drops a copy in flight (hcclt_copy_cancel()). */
		hcclt_copy_cancel(s);
		break;
	case HCCLT_STREAM_LAUNCHING:
		/* So does a launch running (hcclt_sched_launch_done()). */
		hcclt_stream_untime(s);
		break;
	default:
		hcclt_stream_unpark(s);
		break;
	}
	if (s->state != to)
		hcclt_stream_set_state(s, to);
}

/*
 * Record @seq of @ev completed, with @err if its stream dropped it (failed,
 * cancelled or unplugged) instead of running it: unless a later record
 * completed first, the event is complete, failed when @err. Return: true
 * when it is; its waiters are then released by hcclt_event_release().
 * O(1).
 */
static bool hcclt_event_mark(struct hcclt_event *ev, u64 seq, int err)
{
	if (seq <= ev->done)
		return false;
	if (!err)
		ev->ts_ns = ktime_get_ns();
	ev->err = err;
	ev->done = seq;
	return true;
}

/*
 * Release the streams and EVENT_WAIT callers waiting for records of @ev up
 * to ev->done (a failed record fails the waits it releases,
 * hcclt_event_step()). O(streams parked on @ev), which are streams of the
 * event's file, each parked on one event at most.
 */
static void hcclt_event_release(struct hcclt_device *hdev,
				struct hcclt_event *ev)
{
	struct hcclt_stream *w, *tmp;
	struct hcclt_task *head;
	bool released = false;

	list_for_each_entry_safe(w, tmp, &ev->waiters, park_node) {
		head = list_first_entry(&w->tasks, struct hcclt_task, node);
		if (head->ev_seq <= ev->done) {
			hcclt_stream_resume(hdev, w);
			released = true;
		}
	}
	/* Flushes (the timer, cancel) do not run the runlist. */
	if (released && ev->err && !hdev->unplugged)
		queue_work(hdev->wq, &hdev->run_work);
	if (wq_has_sleeper(&ev->wq))
		wake_up_all(&ev->wq);
}

static void hcclt_event_complete(struct hcclt_device *hdev,
				 struct hcclt_event *ev, u64 seq, int err)
{
	if (hcclt_event_mark(ev, seq, err))
		hcclt_event_release(hdev, ev);
}

/*
 * A record into @n (a notify of @s's device) is dropped because @s failed
 * with @err: the wait it would have released fails in its place, the
 * oldest parked one now, or else the next one to run. Without that, a
 * stream waiting for work handed to another stream (a kernel's AICPU
 * thread, say) would hang until its own timeout when that work failed.
 */
static void hcclt_notify_lose(struct hcclt_stream *s, struct hcclt_notify *n,
			      int err)
{
	struct hcclt_stream *w;

	if (n->dead || n->hdev != s->hdev)
		return;
	n->lost++;
	n->lost_err = err;
	n->lost_by = s->id;
	w = list_first_entry_or_null(&n->waiters, struct hcclt_stream,
				     park_node);
	if (w) {
		hcclt_stream_resume(s->hdev, w);
		/* Some callers (the timer, cancel) do not run the runlist. */
		if (!s->hdev->unplugged)
			queue_work(s->hdev->wq, &s->hdev->run_work);
	}
}

/*
 * Move @s to @to (hcclt_stream_stop()), then drop every queued task of it
 * with @err. Dead before its tasks are dropped: a STREAM_SYNC that sees
 * them done (acquire of done_seqno) sees it dead.
 *
 * Bounded: it runs in softirq (the wait timer) with sched_lock held, so
 * each dropped task costs O(1), and the waiters of an event whose records
 * it drops are released once, at the end, not once per record: the whole
 * flush is O(queue depth + streams parked on those events), at most
 * HCCLT_MAX_QUEUE_DEPTH plus the device's streams.
 */
static void hcclt_stream_drop(struct hcclt_stream *s,
			      enum hcclt_stream_state to, int err)
{
	struct hcclt_event *ev, *etmp;
	struct hcclt_task *task;
	LIST_HEAD(events);

	hcclt_stream_stop(s, to);
	while ((task = list_first_entry_or_null(&s->tasks, struct hcclt_task,
						node))) {
		if (err && task->notify &&
		    (task->op == HCCLT_TASK_NOTIFY_RECORD ||
		     task->op == HCCLT_TASK_ACL_NOTIFY_RECORD))
			hcclt_notify_lose(s, task->notify, err);
		ev = task->event;
		if (task->op == HCCLT_TASK_EVENT_RECORD &&
		    hcclt_event_mark(ev, task->ev_seq, err ?: -ECANCELED) &&
		    list_empty(&ev->flush_node)) {
			/* The task's reference goes with it. */
			kref_get(&ev->ref);
			list_add_tail(&ev->flush_node, &events);
		}
		hcclt_sched_task_done(s, err);
	}
	list_for_each_entry_safe(ev, etmp, &events, flush_node) {
		list_del_init(&ev->flush_node);
		hcclt_event_release(s->hdev, ev);
		/* Frees memory only: fine under sched_lock. */
		hcclt_event_put(ev);
	}
}

/* Drop every queued task of @s with @err; it is idle then (or dead). */
void hcclt_stream_flush(struct hcclt_stream *s, int err)
{
	hcclt_stream_drop(s, HCCLT_STREAM_IDLE, err);
}

/*
 * @s is destroyed (its owner is gone or the device unplugged): it goes
 * dead, and every queued task is dropped with @err.
 */
void hcclt_stream_kill(struct hcclt_stream *s, int err)
{
	hcclt_stream_drop(s, HCCLT_STREAM_DEAD, err);
}

/**
 * hcclt_stream_fail - the head task of @s failed with @err.
 * @s: the stream, RUNNING (its executor's run), or holding the executor
 *	no longer for the task (the copy engine or the AI CPU gave it back
 *	failed, its wait or launch timed out: hcclt_stream_fail_head()).
 * @err: the error the next STREAM_SYNC reports.
 *
 * As the stream's failure mode says (struct drm_hcclt_set_param): in
 * HCCLT_FAILURE_CONTINUE only the task completes, with @err, and @s stays
 * as it was (the caller lets it run on); else every queued task is
 * dropped with @err and @s is idle, and in HCCLT_FAILURE_STOP stopped.
 * s->error is written first: see hcclt_sched_task_done().
 *
 * Return: true when @s went on (HCCLT_FAILURE_CONTINUE).
 */
bool hcclt_stream_fail(struct hcclt_stream *s, int err)
{
	WRITE_ONCE(s->error, err);
	if (s->fail_mode == HCCLT_FAILURE_CONTINUE) {
		hcclt_sched_task_done(s, err);
		return true;
	}
	hcclt_stream_flush(s, err);
	if (s->fail_mode == HCCLT_FAILURE_STOP)
		s->stopped = true;
	return false;
}

/*
 * The head task of @s, parked on a notify or running as a launch, failed
 * with @err outside the executor's run (its timeout, in softirq): as
 * hcclt_stream_fail(); a stream that goes on is put on the runlist, which
 * the device's workqueue runs.
 */
void hcclt_stream_fail_head(struct hcclt_stream *s, int err)
{
	struct hcclt_device *hdev = s->hdev;

	if (s->fail_mode == HCCLT_FAILURE_CONTINUE) {
		/* Out of its wait, or of the launch's timeout, first. */
		if (s->state == HCCLT_STREAM_LAUNCHING)
			hcclt_stream_untime(s);
		else
			hcclt_stream_unpark(s);
	}
	if (hcclt_stream_fail(s, err)) {
		hcclt_stream_settle(hdev, s);
		if (!hdev->unplugged)
			queue_work(hdev->wq, &hdev->run_work);
	}
	hcclt_stream_wake(s);
}

/*
 * Record a notify: the oldest wait parked on it, if any, consumes the
 * record at once, as hardware does (set and reset are one step), and its
 * stream is made runnable; else the notify is set. A second record before
 * the waiter's stream ran is thus never folded into the first.
 */
void hcclt_notify_record(struct hcclt_device *hdev, struct hcclt_notify *n)
{
	struct hcclt_stream *waiter;

	if (n->dead)
		return;
	waiter = list_first_entry_or_null(&n->waiters, struct hcclt_stream,
					  park_node);
	if (waiter) {
		hcclt_stream_unpark(waiter);
		hcclt_sched_task_done(waiter, 0);
		hcclt_stream_wake(waiter);
		hcclt_stream_settle(hdev, waiter);
	} else {
		n->set = true;
	}
}

/*
 * @n went dead: every stream parked on it runs again, to find it dead and
 * fail its wait (hcclt_stream_exec()).
 */
void hcclt_notify_release_all(struct hcclt_device *hdev,
			      struct hcclt_notify *n)
{
	struct hcclt_stream *w, *tmp;

	list_for_each_entry_safe(w, tmp, &n->waiters, park_node)
		hcclt_stream_resume(hdev, w);
}

/*
 * A record, run by another device's executor under that device's
 * sched_lock, of @n, a notify of device B: count it on B's xrecs for B's
 * xrec_work, which holds a reference on @n while it is queued.
 */
static void hcclt_xrecord(struct hcclt_device *a, struct hcclt_notify *n)
{
	struct hcclt_device *b = n->hdev;

	spin_lock(&b->xrec_lock);
	if (!b->xrec_stopped && !n->xcount++) {
		kref_get(&n->ref);
		list_add_tail(&n->xnode, &b->xrecs);
		if (a->xdirect) {
			/*
			 * Applied by hcclt_xrec_kick() of this context, or of
			 * any SUBMIT on @a that takes the bit first, without
			 * sched_lock.
			 */
			WRITE_ONCE(a->xkick_dev[b->index], b);
			/*
			 * The device before the bit (set_bit() orders
			 * nothing); pairs with the full barrier of xchg() in
			 * hcclt_xrec_kick().
			 */
			smp_mb__before_atomic();
			set_bit(b->index, &a->xkick);
		} else {
			queue_work(b->wq, &b->xrec_work);
		}
	}
	spin_unlock(&b->xrec_lock);
}

/*
 * One rate-limited line for a channel wait that failed: the stream, the
 * notify and the rank that should have recorded it.
 */
void hcclt_chan_wait_log(struct hcclt_stream *s, struct hcclt_notify *n,
			 const char *why)
{
	pr_info_ratelimited("hcclthread: group %s rank %u (device %u) stream 0x%llx: wait on channel 0x%llx notify %u from rank %u (device %u, pid %d) %s\n",
			    n->group ?: "?", n->rank, s->hdev->index, s->id,
			    n->owner_id, n->idx, n->peer, n->peer_dev,
			    n->peer_pid ? pid_nr(n->peer_pid) : 0, why);
}

/*
 * The head task of @s is an event task: a record completes the event's
 * record and releases the streams waiting for it; a reset makes the event
 * forget its completed records (their time and error; streams parked on
 * it wait on for the records they wait for); a wait completes if the
 * records it waits for ran, else parks @s on the event. Return: true when
 * parked.
 */
static bool hcclt_event_step(struct hcclt_device *hdev, struct hcclt_stream *s,
			     struct hcclt_task *task)
{
	struct hcclt_event *ev = task->event;

	if (task->op == HCCLT_TASK_EVENT_RESET) {
		ev->ts_ns = 0;
		ev->err = 0;
		hcclt_sched_task_done(s, 0);
		return false;
	}
	if (task->op == HCCLT_TASK_EVENT_RECORD) {
		/* Before the task, and its reference on @ev, is done. */
		hcclt_event_complete(hdev, ev, task->ev_seq, 0);
		hcclt_sched_task_done(s, 0);
		return false;
	}
	if (task->ev_seq <= ev->done) {
		if (ev->err) {
			pr_info_ratelimited("hcclthread: device %u stream 0x%llx: wait on event 0x%llx failed (%d): its record was dropped\n",
					    hdev->index, s->id, ev->id, ev->err);
			hcclt_stream_fail(s, ev->err);
		} else {
			hcclt_sched_task_done(s, 0);
		}
		return false;
	}
	s->parked_ev = ev;
	s->park_ns = ktime_get_ns();
	s->park_timeout = 0;
	list_add_tail(&s->park_node, &ev->waiters);
	hcclt_stream_set_state(s, HCCLT_STREAM_WAIT_EVENT);
	return true;
}

/**
 * hcclt_sched_event_target - the records an event wait made now waits for.
 * @ev: the event.
 *
 * Return: the number of records of @ev queued so far.
 */
u64 hcclt_sched_event_target(struct hcclt_event *ev)
{
	u64 target;

	spin_lock_bh(&ev->hdev->sched_lock);
	target = ev->recorded;
	spin_unlock_bh(&ev->hdev->sched_lock);
	return target;
}

/**
 * hcclt_sched_event_done - have @ev's records up to @target run?
 * @ev: the event.
 * @target: from hcclt_sched_event_target().
 * @ts: set to the time of its latest completed record (0: none).
 * @err: set to the error of its latest completed record: 0 when it ran,
 *	else the error of the stream that dropped it.
 *
 * Return: true when they have.
 */
bool hcclt_sched_event_done(struct hcclt_event *ev, u64 target, u64 *ts,
			    int *err)
{
	bool done;

	spin_lock_bh(&ev->hdev->sched_lock);
	done = ev->done >= target;
	*ts = ev->ts_ns;
	*err = ev->err;
	spin_unlock_bh(&ev->hdev->sched_lock);
	return done;
}

/*
 * Run tasks of @s (RUNNING) until it parks, empties or @budget runs out; it
 * is then in the state its head task holds it in, IDLE when flushed, or
 * still RUNNING for hcclt_run_locked() to settle.
 */
static int hcclt_stream_run(struct hcclt_device *hdev, struct hcclt_stream *s,
			    int budget)
{
	struct hcclt_task *task;
	struct hcclt_notify *n;
	bool progress = false;

	while (budget > 0 && s->state == HCCLT_STREAM_RUNNING) {
		task = list_first_entry_or_null(&s->tasks, struct hcclt_task,
						node);
		if (!task)
			break;
		n = task->notify;
		if (!task->started) {
			task->started = true;
			hcclt_usage_task_start(s, task);
			hcclt_trace_task(s, task, true, 0);
		}
		budget--;
		if (task->gate) {
			int err;

			if (hcclt_gate_step(s, task->gate, &err)) {
				s->parked_gate = task->gate;
				s->park_ns = ktime_get_ns();
				s->park_timeout = 0;
				hcclt_stream_set_state(s,
						       HCCLT_STREAM_WAIT_GATE);
				break;
			}
			if (err)
				hcclt_stream_fail(s, err);
			else
				hcclt_sched_task_done(s, 0);
			progress = true;
			continue;
		}
		if (task->copy) {
			struct hcclt_copy *c = task->copy;

			/* The engine has it now; the stream waits for it. */
			task->copy = NULL;
			hcclt_stream_set_state(s, HCCLT_STREAM_COPYING);
			hcclt_copy_start(s, c, task->seqno);
			progress = true;
			break;
		}
		if (task->launch) {
			struct hcclt_launch *l = task->launch;

			/* The worker has it now; the stream waits for it. */
			task->launch = NULL;
			hcclt_stream_set_state(s, HCCLT_STREAM_LAUNCHING);
			if (task->timeout_s) {
				s->timed = true;
				s->deadline = jiffies +
					(unsigned long)task->timeout_s * HZ;
				mod_timer(&s->timer, s->deadline);
			}
			hcclt_launch_send(&hdev->drm, l, task->seqno, false);
			progress = true;
			break;
		}
		if (task->event) {
			if (hcclt_event_step(hdev, s, task))
				break;	/* parked on the event */
		} else if (!n) {
			/* An empty data task. */
			hcclt_sched_task_done(s, 0);
		} else if (task->op == HCCLT_TASK_NOTIFY_RECORD ||
			   task->op == HCCLT_TASK_CHANNEL_RECORD ||
			   task->op == HCCLT_TASK_ACL_NOTIFY_RECORD) {
			if (unlikely(n->rlink))
				hcclt_link_record(n);
			else if (likely(n->hdev == hdev))
				hcclt_notify_record(hdev, n);
			else
				hcclt_xrecord(hdev, n);
			hcclt_sched_task_done(s, 0);
		} else if (n->set) {
			n->set = false;
			hcclt_sched_task_done(s, 0);
		} else if (n->lost) {
			int err = n->lost_err;

			n->lost--;
			pr_info_ratelimited("hcclthread: device %u stream 0x%llx: wait on notify %u of 0x%llx failed (%d): stream 0x%llx, which was to record it, failed first\n",
					    hdev->index, s->id, n->idx,
					    n->owner_id, err, n->lost_by);
			hcclt_stream_fail(s, err);
		} else if (n->dead) {
			int err = n->err ?: -ECANCELED;

			if (err == -ECONNRESET)
				hcclt_chan_wait_log(s, n, "its peer is gone");
			hcclt_stream_fail(s, err);
		} else {
			s->parked = n;
			s->park_ns = ktime_get_ns();
			s->park_timeout = task->timeout_s;
			list_add_tail(&s->park_node, &n->waiters);
			if (task->timeout_s) {
				s->timed = true;
				s->deadline = jiffies +
					(unsigned long)task->timeout_s * HZ;
				mod_timer(&s->timer, s->deadline);
			}
			hcclt_stream_set_state(s, HCCLT_STREAM_WAIT_NOTIFY);
			break;
		}
		progress = true;
	}
	if (progress)
		hcclt_stream_wake(s);
	return budget;
}

/* Run the runlist; return true when runnable streams are left. */
static bool hcclt_run_locked(struct hcclt_device *hdev, int budget)
{
	struct hcclt_stream *s;

	while (budget > 0 && !list_empty(&hdev->runlist)) {
		s = list_first_entry(&hdev->runlist, struct hcclt_stream,
				     run_node);
		list_del_init(&s->run_node);
		hcclt_stream_set_state(s, HCCLT_STREAM_RUNNING);
		budget = hcclt_stream_run(hdev, s, budget);
		if (s->state == HCCLT_STREAM_RUNNING)
			hcclt_stream_settle(hdev, s);
	}
	return !list_empty(&hdev->runlist);
}

void hcclt_run_kick_locked(struct hcclt_device *hdev, int budget)
{
	if (hcclt_run_locked(hdev, budget) && !hdev->unplugged)
		queue_work(hdev->wq, &hdev->run_work);
}

void hcclt_run_work(struct work_struct *work)
{
	struct hcclt_device *hdev = container_of(work, struct hcclt_device,
						 run_work);

	spin_lock_bh(&hdev->sched_lock);
	hcclt_run_kick_locked(hdev, HCCLT_WORK_BUDGET);
	spin_unlock_bh(&hdev->sched_lock);
}

/* ---- completion of a task the copy engine or the AI CPU had ---- */

/* Is task @seqno the head of @s? sched_lock held. */
static bool hcclt_head_is(struct hcclt_stream *s, u64 seqno)
{
	struct hcclt_task *task;

	task = list_first_entry_or_null(&s->tasks, struct hcclt_task, node);
	return task && task->seqno == seqno;
}

/*
 * The head task of @s (COPYING or LAUNCHING), which the copy engine or the
 * AI CPU had, is done: complete it (@err fails the stream as a timed-out
 * wait does) and run what follows. sched_lock held.
 */
static void hcclt_head_done(struct hcclt_stream *s, int err)
{
	if (!err) {
		hcclt_sched_task_done(s, 0);
		hcclt_stream_settle(s->hdev, s);
	} else if (hcclt_stream_fail(s, err)) {
		hcclt_stream_settle(s->hdev, s);
	}
	hcclt_stream_wake(s);
	hcclt_run_kick_locked(s->hdev, HCCLT_INLINE_BUDGET);
}

/**
 * hcclt_sched_copy_done_locked - the copy engine finished a data task.
 * @s: the stream; sched_lock held.
 * @seqno: the task's seqno.
 * @err: 0, or why the copy failed (the stream then fails as on a wait
 *	timeout: the tasks behind it are dropped, the next sync reports it).
 *
 * The task is completed if it is still the head of @s; a stream flushed
 * meanwhile cancelled the copy (hcclt_copy_cancel()) and no longer has it.
 */
void hcclt_sched_copy_done_locked(struct hcclt_stream *s, u64 seqno, int err)
{
	lockdep_assert_held(&s->hdev->sched_lock);
	if (s->state == HCCLT_STREAM_COPYING && hcclt_head_is(s, seqno))
		hcclt_head_done(s, err);
}

/**
 * hcclt_sched_launch_done - the AI CPU worker ran a launch
 * (DRM_IOCTL_HCCLT_KERNEL_DONE).
 * @s: the stream.
 * @seqno: the launch task's seqno.
 * @status: what the kernel function returned; non-zero fails the stream
 *	with -EIO (the tasks behind it are dropped, the next sync reports it).
 *
 * Return: 0, or -ESRCH when the launch is not running on @s (it timed out,
 * was cancelled, or was reported already).
 */
int hcclt_sched_launch_done(struct hcclt_stream *s, u64 seqno, s32 status)
{
	int ret = -ESRCH;

	spin_lock_bh(&s->hdev->sched_lock);
	if (s->state == HCCLT_STREAM_LAUNCHING && hcclt_head_is(s, seqno)) {
		hcclt_stream_untime(s);
		hcclt_head_done(s, status ? -EIO : 0);
		ret = 0;
	}
	spin_unlock_bh(&s->hdev->sched_lock);
	return ret;
}

/**
 * hcclt_sched_launch_start - may the AI CPU worker run a launch
 * (DRM_IOCTL_HCCLT_KERNEL_DONE with HCCLT_KERNEL_DONE_START)?
 * @s: the stream.
 * @seqno: the launch task's seqno.
 *
 * A stream that failed or dropped the launch (its timeout, a cancel, an
 * unplug) left HCCLT_STREAM_LAUNCHING and removed the task under sched_lock,
 * before any STREAM_SYNC could report it; so once reported, the answer is
 * -ESRCH and the worker never starts the launch.
 *
 * Return: 0 when the launch is the running task of @s, else -ESRCH.
 */
int hcclt_sched_launch_start(struct hcclt_stream *s, u64 seqno)
{
	int ret;

	spin_lock_bh(&s->hdev->sched_lock);
	ret = s->state == HCCLT_STREAM_LAUNCHING && hcclt_head_is(s, seqno) ?
	      0 : -ESRCH;
	spin_unlock_bh(&s->hdev->sched_lock);
	return ret;
}

