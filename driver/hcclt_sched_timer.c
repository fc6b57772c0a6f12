// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the executor's timers (hcclt_sched.c): a parked wait's or a
 * kernel launch's timeout, and an out-fence's deadline. Both run in
 * softirq context and take sched_lock with spin_lock().
 */

#include <linux/jiffies.h>
#include <linux/list.h>
#include <linux/pid.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

#include "hcclt_compat.h"
#include "hcclt_sched.h"
#include "hcclt_trace.h"

void hcclt_stream_timeout(struct timer_list *timer)
{
	struct hcclt_stream *s = timer_container_of(s, timer, timer);
	struct hcclt_device *hdev = s->hdev;
	struct hcclt_task *task;
	struct hcclt_notify *n;

	spin_lock(&hdev->sched_lock);
	if (s->state == HCCLT_STREAM_LAUNCHING && s->timed &&
	    time_after_eq(jiffies, s->deadline)) {
		task = list_first_entry(&s->tasks, struct hcclt_task, node);
		trace_hcclt_wait_timeout(hdev->index, s->slot, s->id,
					 task->seqno, task->op, 0, 0, 0,
					 hdev->index, -ETIME);
		pr_info_ratelimited("hcclthread: device %u stream 0x%llx: kernel launch %llu did not return within %u s\n",
				    hdev->index, s->id, task->seqno,
				    task->timeout_s);
		hcclt_stream_fail_head(s, -ETIME);
	} else if (s->state == HCCLT_STREAM_WAIT_NOTIFY && s->timed &&
		   time_after_eq(jiffies, s->deadline)) {
		task = list_first_entry(&s->tasks, struct hcclt_task, node);
		n = task->notify;
		trace_hcclt_wait_timeout(hdev->index, s->slot, s->id,
					 task->seqno, task->op, n->owner_id,
					 n->idx, n->slot, n->hdev->index, -ETIME);
		if (task->op == HCCLT_TASK_CHANNEL_WAIT)
			hcclt_chan_wait_log(s, n, "timed out");
		hcclt_stream_fail_head(s, -ETIME);
	} else if ((s->state == HCCLT_STREAM_WAIT_NOTIFY ||
		    s->state == HCCLT_STREAM_LAUNCHING) && s->timed) {
		/* The timer wheel capped a very long timeout: re-arm. */
		mod_timer(&s->timer, s->deadline);
	}
	spin_unlock(&hdev->sched_lock);
}

/*
 * The fence timer: the oldest pending out-fence of @s has not signalled by
 * its deadline (hcclt_fence.c). The stream fails as on a wait timeout in
 * HCCLT_FAILURE_DROP mode, whatever its mode (a watchdog, not a task's
 * failure): every queued task is dropped (a launch the worker has not started never
 * starts, hcclt_sched_launch_start()), the fences signal with -ETIME and
 * the next STREAM_SYNC reports it.
 */
void hcclt_fence_expire(struct timer_list *timer)
{
	struct hcclt_stream *s = timer_container_of(s, timer, fence_timer);
	struct hcclt_device *hdev = s->hdev;
	struct hcclt_fence *f;

	spin_lock(&hdev->sched_lock);
	f = list_first_entry_or_null(&s->fences, struct hcclt_fence, node);
	if (f && time_after_eq(jiffies, f->deadline)) {
		pr_info_ratelimited("hcclthread: device %u stream 0x%llx: out-fence %llu not signalled by its deadline (fence_timeout_ms), the stream fails\n",
				    hdev->index, s->id, f->base.seqno);
		WRITE_ONCE(s->error, -ETIME);
		hcclt_stream_flush(s, -ETIME);
		hcclt_stream_wake(s);
	} else if (f) {
		/* The timer wheel fired early (its granularity): re-arm. */
		mod_timer(&s->fence_timer, f->deadline);
	}
	spin_unlock(&hdev->sched_lock);
}
