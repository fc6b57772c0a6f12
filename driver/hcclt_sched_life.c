// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the executor's side of objects coming and going
 * (hcclt_sched.c): streams set up, cancelled and torn down, threads and
 * notifies killed, a gate woken, the state INFO and debugfs report, and
 * the device's scheduler set up and unplugged.
 */

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "hcclt_sched.h"

/* ---- stream and thread lifetime ---- */

void hcclt_sched_stream_init(struct hcclt_stream *s)
{
	struct hcclt_device *hdev = s->hdev;

	INIT_LIST_HEAD(&s->tasks);
	INIT_LIST_HEAD(&s->run_node);
	INIT_LIST_HEAD(&s->park_node);
	INIT_LIST_HEAD(&s->fences);
	init_waitqueue_head(&s->wq);
	timer_setup(&s->timer, hcclt_stream_timeout, 0);
	timer_setup(&s->fence_timer, hcclt_fence_expire, 0);
	mutex_init(&s->fence_lock);
	/* Not published yet: its first state needs no transition. */
	s->state = HCCLT_STREAM_IDLE;

	spin_lock_bh(&hdev->sched_lock);
	list_add_tail(&s->dev_node, &hdev->streams);
	/*
	 * Its file's parameters as they are now, under the lock that
	 * hcclt_sched_file_params() changes them and walks the list in.
	 */
	if (s->file) {
		s->saturate = s->file->saturate;
		if (s->file->fail_stop)
			s->fail_mode = HCCLT_FAILURE_STOP;
	}
	if (hdev->unplugged)
		hcclt_stream_set_state(s, HCCLT_STREAM_DEAD);
	spin_unlock_bh(&hdev->sched_lock);
}

/**
 * hcclt_sched_set_fail_mode - set the failure mode of a stream.
 * @s: the stream.
 * @mode: HCCLT_FAILURE_* (checked by the caller).
 *
 * Return: 0, or -EBUSY when @s is in HCCLT_FAILURE_STOP and @mode is
 * another mode (a stream never leaves it).
 */
int hcclt_sched_set_fail_mode(struct hcclt_stream *s, u8 mode)
{
	struct hcclt_device *hdev = s->hdev;
	int ret = 0;

	spin_lock_bh(&hdev->sched_lock);
	if (s->fail_mode == HCCLT_FAILURE_STOP && mode != HCCLT_FAILURE_STOP)
		ret = -EBUSY;
	else
		s->fail_mode = mode;
	spin_unlock_bh(&hdev->sched_lock);
	return ret;
}

/**
 * hcclt_sched_file_params - change a file's stream parameters.
 * @file: the file (its ioctl).
 * @stop: put every stream of @file, and every one it makes later, in
 *	HCCLT_FAILURE_STOP.
 * @saturate: 0 or 1, the saturation of the streams @file makes from now
 *	on; -1 leaves it.
 *
 * O(streams of the device) under sched_lock, for @stop; bounded by the
 * device's stream pool.
 */
void hcclt_sched_file_params(struct hcclt_file *file, bool stop,
			     int saturate)
{
	struct hcclt_device *hdev = file->hdev;
	struct hcclt_stream *s;

	spin_lock_bh(&hdev->sched_lock);
	if (saturate >= 0)
		file->saturate = saturate;
	if (stop && !file->fail_stop) {
		file->fail_stop = true;
		list_for_each_entry(s, &hdev->streams, dev_node)
			if (s->file == file)
				s->fail_mode = HCCLT_FAILURE_STOP;
	}
	spin_unlock_bh(&hdev->sched_lock);
}

/* Last reference gone: nothing can queue on @s any more. */
void hcclt_sched_stream_fini(struct hcclt_stream *s)
{
	struct hcclt_device *hdev = s->hdev;

	spin_lock_bh(&hdev->sched_lock);
	hcclt_stream_kill(s, -ECANCELED);
	list_del(&s->dev_node);
	spin_unlock_bh(&hdev->sched_lock);
	/* The flush above may have kept a batch. */
	kfree(s->spare);
	s->spare = NULL;
	/* The timers cannot be re-armed now; wait for a running callback. */
	timer_delete_sync(&s->timer);
	timer_delete_sync(&s->fence_timer);
	WARN_ON(!list_empty(&s->fences));
	mutex_destroy(&s->fence_lock);
}

/*
 * Cancel the tasks queued on @s and, if @kill, make it dead (sched_lock
 * held). The error first: see hcclt_sched_task_done().
 */
static void hcclt_stream_cancel_locked(struct hcclt_stream *s, bool kill)
{
	bool queued = !list_empty(&s->tasks);

	if (queued)
		WRITE_ONCE(s->error, -ECANCELED);
	if (kill)
		hcclt_stream_kill(s, -ECANCELED);
	else if (queued)
		hcclt_stream_flush(s, -ECANCELED);
}

/**
 * hcclt_sched_stream_cancel - cancel the work queued on a stream.
 * @s: the stream.
 * @kill: also mark it dead (no more tasks; sync returns at once).
 *
 * Queued tasks are dropped with -ECANCELED, a parked wait is released,
 * out-fences signal with -ECANCELED, and the next sync (or a sync already
 * waiting) reports -ECANCELED. Never blocks.
 */
void hcclt_sched_stream_cancel(struct hcclt_stream *s, bool kill)
{
	struct hcclt_device *hdev = s->hdev;

	spin_lock_bh(&hdev->sched_lock);
	hcclt_stream_cancel_locked(s, kill);
	spin_unlock_bh(&hdev->sched_lock);
	wake_up_all(&s->wq);
}

/**
 * hcclt_sched_thread_kill - a thread and its views die with their
 * communicator.
 * @p: the primary thread.
 *
 * Its notifies go dead (later records into them are no-ops), its stream is
 * killed if it owns it, and the work queued on its stream is cancelled
 * either way. Caller holds the communicator's lock.
 */
void hcclt_sched_thread_kill(struct hcclt_thread *p)
{
	struct hcclt_stream *s = p->stream;
	struct hcclt_device *hdev = s->hdev;
	struct hcclt_notify *n;
	int e;
	u32 i;

	lockdep_assert_held(&p->comm->lock);
	spin_lock_bh(&hdev->sched_lock);
	p->dead = true;
	for (e = 0; e < HCCLT_ENGINE_COUNT; e++)
		if (p->views[e])
			p->views[e]->dead = true;
	for (i = 0; i < p->notify_num; i++) {
		n = p->notifies[i];
		n->dead = true;
		n->set = false;
		hcclt_notify_release_all(hdev, n);
	}
	hcclt_stream_cancel_locked(s, !s->created);
	hcclt_run_kick_locked(hdev, HCCLT_INLINE_BUDGET);
	spin_unlock_bh(&hdev->sched_lock);
	wake_up_all(&s->wq);
}

/**
 * hcclt_sched_gate_wake - a gate's callback fired, or it was disarmed.
 * @s: the stream it was armed for.
 * @g: the gate.
 *
 * If @s is still parked on @g, it goes back on the runlist, where the
 * gate task looks at the fences again. Called by the gate's work
 * (hcclt_syncobj.c), which then drops the armed references.
 */
void hcclt_sched_gate_wake(struct hcclt_stream *s, struct hcclt_gate *g)
{
	struct hcclt_device *hdev = s->hdev;

	spin_lock_bh(&hdev->sched_lock);
	hcclt_gate_unarmed(g);
	if (s->state == HCCLT_STREAM_WAIT_GATE && s->parked_gate == g) {
		s->parked_gate = NULL;
		hcclt_stream_settle(hdev, s);
		hcclt_run_kick_locked(hdev, HCCLT_INLINE_BUDGET);
	}
	spin_unlock_bh(&hdev->sched_lock);
}

/**
 * hcclt_sched_notify_kill - a channel notify goes dead.
 * @n: the notify.
 * @err: what waits on it fail with: -ECONNRESET (the channel's peer is
 *	gone: a record it made before stays and is consumed by one wait) or
 *	-ECANCELED (its own side is gone: the flag is cleared).
 *
 * A wait parked on it fails at once; later records into it are no-ops.
 * Takes the notify's device's sched_lock (no other sched_lock held).
 */
void hcclt_sched_notify_kill(struct hcclt_notify *n, int err)
{
	struct hcclt_device *hdev = n->hdev;
	u32 count = 0;

	spin_lock_bh(&hdev->sched_lock);
	if (err == -ECONNRESET) {
		/*
		 * Records the peer made before it went, still on their way
		 * (hcclt_xrecord()), land first. The xrec_work may have taken
		 * the notify off xrecs already; it looks at it only under
		 * sched_lock, after this.
		 */
		spin_lock(&hdev->xrec_lock);
		count = n->xcount;
		n->xcount = 0;
		if (count)
			list_del_init(&n->xnode);
		spin_unlock(&hdev->xrec_lock);
		if (count)
			hcclt_notify_record(hdev, n);
		if (count > 1)
			hcclt_notify_record(hdev, n);
	}
	n->dead = true;
	n->err = err;
	if (err != -ECONNRESET)
		n->set = false;
	hcclt_notify_release_all(hdev, n);
	hcclt_run_kick_locked(hdev, HCCLT_INLINE_BUDGET);
	spin_unlock_bh(&hdev->sched_lock);
	/* The hand-off's reference; the caller holds one more. */
	if (count)
		hcclt_notify_put(n);
}

/**
 * hcclt_sched_notify_pending - may a wait on @n still succeed?
 * @n: a channel notify of this side.
 *
 * Takes the notify's device's sched_lock.
 *
 * Return: false once @n is dead and holds no record (the peer went with
 * nothing recorded, or a wait consumed what it recorded), else true.
 */
bool hcclt_sched_notify_pending(struct hcclt_notify *n)
{
	bool pending;

	spin_lock_bh(&n->hdev->sched_lock);
	pending = !n->dead || n->set;
	spin_unlock_bh(&n->hdev->sched_lock);
	return pending;
}

/**
 * hcclt_sched_stream_state - what a stream is doing, for INFO and debugfs.
 * @s: the stream.
 * @wait_notify: set to the index of the notify it is parked on (else 0).
 * @depth: set to the number of tasks pending.
 * @wi: if not NULL, filled in with the parked wait (zeroed if none); pids
 *	as the calling process sees them.
 *
 * Return: enum drm_hcclt_thread_state.
 */
u32 hcclt_sched_stream_state(struct hcclt_stream *s, u32 *wait_notify,
			     u32 *depth, struct drm_hcclt_wait_info *wi)
{
	struct hcclt_notify *n;
	u32 state;

	if (wi)
		memset(wi, 0, sizeof(*wi));
	spin_lock_bh(&s->hdev->sched_lock);
	*depth = s->depth;
	*wait_notify = 0;
	n = s->parked;
	if (s->state == HCCLT_STREAM_WAIT_GATE) {
		state = HCCLT_STATE_PARKED;
		if (wi) {
			wi->since_ns = s->park_ns;
			wi->kind = HCCLT_WAIT_FENCES;
		}
	} else if (s->state == HCCLT_STREAM_WAIT_EVENT) {
		state = HCCLT_STATE_PARKED;
		if (wi) {
			wi->since_ns = s->park_ns;
			wi->owner_id = s->parked_ev->id;
			wi->kind = HCCLT_WAIT_EVENT;
		}
	} else if (s->state == HCCLT_STREAM_WAIT_NOTIFY) {
		state = HCCLT_STATE_PARKED;
		*wait_notify = n->idx;
		if (wi) {
			wi->since_ns = s->park_ns;
			wi->owner_id = n->owner_id;
			wi->notify_idx = n->idx;
			wi->timeout_s = s->park_timeout;
			wi->kind = n->chan ? HCCLT_WAIT_CHANNEL :
				   n->acl ? HCCLT_WAIT_ACL_NOTIFY :
					    HCCLT_WAIT_THREAD;
			if (atomic_read(&n->records))
				wi->flags |= HCCLT_WAIT_RECORD_QUEUED;
			if (n->chan) {
				wi->rank = n->rank;
				wi->peer_rank = n->peer;
				wi->peer_device = n->peer_dev;
				wi->peer_pid = n->peer_pid ?
					       pid_vnr(n->peer_pid) : 0;
			}
		}
	} else if (s->error) {
		state = HCCLT_STATE_ERROR;
	} else if (s->depth) {
		state = HCCLT_STATE_RUNNING;
	} else {
		state = HCCLT_STATE_IDLE;
	}
	spin_unlock_bh(&s->hdev->sched_lock);
	return state;
}

/* ---- device ---- */

int hcclt_sched_init(struct hcclt_device *hdev)
{
	spin_lock_init(&hdev->sched_lock);
	INIT_LIST_HEAD(&hdev->runlist);
	INIT_LIST_HEAD(&hdev->streams);
	INIT_WORK(&hdev->run_work, hcclt_run_work);
	spin_lock_init(&hdev->xrec_lock);
	INIT_LIST_HEAD(&hdev->xrecs);
	INIT_WORK(&hdev->xrec_work, hcclt_xrec_work);
	hcclt_copy_dev_init(hdev);
	/*
	 * Normal priority: the work done here (copies above all) is the
	 * users', and competes with their processes as theirs would.
	 */
	hdev->wq = alloc_workqueue("hcclt%u", WQ_UNBOUND, 0, hdev->index);
	if (!hdev->wq)
		return -ENOMEM;
	/*
	 * Data tasks to other hosts (hcclt_xfer.c) sleep in network round
	 * trips: a workqueue of their own, so that they never hold up the
	 * executor and the copy engine of @wq.
	 */
	hdev->xfer_wq = alloc_workqueue("hcclt%u_xfer", WQ_UNBOUND, 0,
					hdev->index);
	if (!hdev->xfer_wq) {
		destroy_workqueue(hdev->wq);
		hdev->wq = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * hcclt_sched_unplug - the device is gone.
 * @hdev: the device.
 *
 * Kills every stream (sync waiters return -ENODEV), stops the timers'
 * effects and the workqueue. Called after drm_dev_unplug(), so no ioctl
 * can queue anything any more.
 */
void hcclt_sched_unplug(struct hcclt_device *hdev)
{
	struct hcclt_notify *n;
	struct hcclt_stream *s;

	spin_lock_bh(&hdev->sched_lock);
	hdev->unplugged = true;
	list_for_each_entry(s, &hdev->streams, dev_node) {
		hcclt_stream_kill(s, -ENODEV);
		wake_up_all(&s->wq);
	}
	spin_unlock_bh(&hdev->sched_lock);

	spin_lock_bh(&hdev->xrec_lock);
	hdev->xrec_stopped = true;
	spin_unlock_bh(&hdev->xrec_lock);
	cancel_work_sync(&hdev->xrec_work);
	/*
	 * Records never handed over: drop their references. Under
	 * xrec_lock, one at a time: a peer's teardown may take one off the
	 * list meanwhile (hcclt_sched_notify_kill()), and the put may free
	 * the notify, which takes no lock of this device.
	 */
	spin_lock_bh(&hdev->xrec_lock);
	while ((n = list_first_entry_or_null(&hdev->xrecs, struct hcclt_notify,
					     xnode))) {
		list_del_init(&n->xnode);
		n->xcount = 0;
		spin_unlock_bh(&hdev->xrec_lock);
		hcclt_notify_put(n);
		spin_lock_bh(&hdev->xrec_lock);
	}
	spin_unlock_bh(&hdev->xrec_lock);
	cancel_work_sync(&hdev->run_work);
	/* Transfers end by completing tasks, which may queue on @wq. */
	destroy_workqueue(hdev->xfer_wq);
	hdev->xfer_wq = NULL;
	destroy_workqueue(hdev->wq);
	hdev->wq = NULL;
}
