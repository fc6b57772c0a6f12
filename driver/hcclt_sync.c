// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: STREAM_SYNC (aclrtSynchronizeStream), a wait for every task
 * queued on a stream before the call, with the stream's error reported
 * once. It reads what the executor (hcclt_sched.c) publishes: done_seqno
 * with release semantics, then error and whether the stream is dead.
 */

#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/stat.h>
#include <linux/timekeeping.h>
#include <linux/wait.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "hcclt_drv.h"

/* Upper bound of the sync_spin_us parameter. */
#define HCCLT_SYNC_SPIN_MAX_US	1000

/*
 * Like i915's request busywait: a STREAM_SYNC that finds its stream busy
 * first spins this long, so that a stream another CPU releases a few
 * microseconds later is seen without a sleep and a wake-up on either side.
 */
static unsigned int hcclt_sync_spin_us = 10;
module_param_named(sync_spin_us, hcclt_sync_spin_us, uint, 0644);
MODULE_PARM_DESC(sync_spin_us,
		 "Microseconds STREAM_SYNC busy-waits before it sleeps (0-1000, 0: never, default 10)");

static bool hcclt_sync_done(struct hcclt_stream *s, u64 target)
{
	/*
	 * Pairs with the release in hcclt_sched_task_done(): s->error,
	 * which every failing path writes before it completes the task, and
	 * the DEAD state, which a destruction sets before it drops the
	 * tasks (hcclt_stream_kill()), are seen by the unlocked peek that
	 * follows (report: in the ioctl).
	 */
	return smp_load_acquire(&s->done_seqno) >= target ||
	       hcclt_stream_is_dead(s);
}

/* Busy-waiting is useful: nothing else wants this CPU, no signal. */
static bool hcclt_sync_may_spin(void)
{
	return !need_resched() && single_task_running() &&
	       !signal_pending(current);
}

/*
 * Busy-wait up to sync_spin_us for @s to reach @target. Like KVM's halt
 * polling, only while nothing else is runnable on this CPU (the task that
 * would finish the stream may be waiting for it), and not at all on a
 * single CPU; gives up at once on a pending signal. The conditions are
 * checked before the first cpu_relax(), so that a sync that may not spin
 * (the usual case when the releasing task shares its CPU) pays for no
 * PAUSE and no clock read.
 */
static bool hcclt_sync_spin(struct hcclt_stream *s, u64 target)
{
	unsigned int us = min(READ_ONCE(hcclt_sync_spin_us),
			      HCCLT_SYNC_SPIN_MAX_US);
	u64 end;

	if (!us || num_online_cpus() < 2 || !hcclt_sync_may_spin())
		return false;
	end = ktime_get_mono_fast_ns() + (u64)us * NSEC_PER_USEC;
	do {
		cpu_relax();
		if (hcclt_sync_done(s, target))
			return true;
	} while (hcclt_sync_may_spin() && ktime_get_mono_fast_ns() < end);
	return false;
}

int hcclt_stream_sync_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_stream_sync *args = data;
	struct hcclt_device *hdev = to_hcclt_dev(drm);
	bool abs = args->flags & HCCLT_WAIT_DEADLINE;
	struct hcclt_stream *s;
	ktime_t deadline = KTIME_MAX;
	s64 left;
	u64 target;
	int idx, ret = 0;

	if ((args->flags & ~HCCLT_WAIT_DEADLINE) || args->timeout_ms < -1)
		return -EINVAL;
	if (abs ? args->timeout_ms || args->deadline_ns < 0 : args->deadline_ns)
		return -EINVAL;

	/* Not entered while blocking: drm_dev_unplug() waits for entries. */
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	s = hcclt_stream_by_handle(file, args->handle);
	drm_dev_exit(idx);
	if (!s)
		return -ENOENT;

	/* Tasks queued before this call; submit_seqno only grows. */
	target = READ_ONCE(s->submit_seqno);

	if (hcclt_sync_done(s, target))
		goto report;
	/*
	 * hrtimer: the same clock, and the ms precision, of userspace;
	 * KTIME_MAX (HCCLT_DEADLINE_NONE, timeout_ms -1): no limit.
	 */
	if (abs)
		deadline = ns_to_ktime(args->deadline_ns);
	else if (args->timeout_ms > 0)
		deadline = ktime_add_ms(ktime_get(), args->timeout_ms);
	if (abs ? deadline != KTIME_MAX && ktime_after(ktime_get(), deadline) :
	    !args->timeout_ms) {
		ret = abs ? -ETIME : -ETIMEDOUT;
		goto out;
	}
	if (hcclt_sync_spin(s, target)) {
		atomic_long_inc(&hdev->sync_spun);
		goto report;
	}
	atomic_long_inc(&hdev->sync_slept);
	if (deadline == KTIME_MAX) {
		ret = wait_event_interruptible(s->wq, hcclt_sync_done(s, target));
	} else {
		/* A negative relative time would be no limit for hrtimers. */
		ret = wait_event_interruptible_hrtimeout(s->wq,
							 hcclt_sync_done(s, target),
							 hcclt_ktime_left(deadline));
		/* An absolute deadline needs no update for the restart. */
		if (ret == -ERESTARTSYS && !abs) {
			left = ktime_ms_delta(deadline, ktime_get());
			args->timeout_ms = clamp_t(s64, left, 0, INT_MAX);
		} else if (ret == -ETIME && !abs) {
			args->timeout_ms = 0;
			ret = -ETIMEDOUT;
		}
	}
	if (ret)
		goto out;
report:
	/* Unlocked peek first: the common case has nothing to report. */
	if (hcclt_stream_is_dead(s) || READ_ONCE(s->error)) {
		spin_lock_bh(&hdev->sched_lock);
		if (s->state == HCCLT_STREAM_DEAD) {
			ret = hdev->unplugged ? -ENODEV : -ECANCELED;
		} else if (s->error) {
			ret = s->error;
			WRITE_ONCE(s->error, 0);
		}
		spin_unlock_bh(&hdev->sched_lock);
		/* With deadlines, -ETIME is the caller's own (DRM's rule). */
		if (abs && ret == -ETIME)
			ret = -ETIMEDOUT;
	}
out:
	hcclt_stream_put(s);
	return ret;
}
