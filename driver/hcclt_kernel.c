// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: kernel-launch tasks, the simulated AI CPU
 * (HCCLT_TASK_KERNEL_LAUNCH, DRM_IOCTL_HCCLT_KERNEL_DONE).
 *
 * The AI CPU of a simulated card is a worker thread of the process that
 * launched the kernel. A launch is a task on a stream like any other: when
 * the executor reaches it (under the device's sched_lock) the stream goes
 * to HCCLT_STREAM_LAUNCHING (nothing else of it runs) and a DRM event
 * (struct drm_hcclt_event_launch) goes to the submitting file; its worker
 * reads it from the file (read()/poll() of the DRM fd), runs the function
 * and answers with KERNEL_DONE, which completes the task and lets the
 * stream go on (a non-zero status fails the stream with -EIO). A launch
 * with a timeout arms the stream's timer, whose expiry fails the stream
 * with -ETIME; a late KERNEL_DONE then finds nothing (-ESRCH).
 *
 * An event once sent cannot be taken back: the worker may have read it
 * already, with others, while it ran an earlier kernel. So the worker
 * asks before it runs a launch (KERNEL_DONE with HCCLT_KERNEL_DONE_START),
 * and that answer, under sched_lock, is the one the stream's state gives:
 * a launch whose stream failed or dropped it, which a STREAM_SYNC reports,
 * is -ESRCH and is never started afterwards.
 *
 * The event is allocated, and the file's event space reserved, when the
 * task is queued (hcclt_launch_prepare()), so the executor never
 * allocates. A launch dropped before it ran (the stream cancelled, its
 * thread or file gone, the device unplugged) still sends its event, with
 * HCCLT_LAUNCH_CANCELLED, so that the worker can free what the cookie
 * names; on a closed file the DRM core just frees it.
 *
 * Locks: the event goes out under sched_lock; drm_send_event() takes the
 * DRM device's event_lock, a leaf.
 */

#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "hcclt_drv.h"

/**
 * struct hcclt_launch - the pending event of one launch task.
 * @base: the DRM core's pending event.
 * @ev: what the worker reads.
 */
struct hcclt_launch {
	struct drm_pending_event base;
	struct drm_hcclt_event_launch ev;
};

/**
 * hcclt_launch_prepare - make the event of a launch task.
 * @df: the submitting file, which gets the event.
 * @cookie: the task's cookie (userspace's, never dereferenced).
 * @handle: the SUBMIT's handle, which KERNEL_DONE names.
 * @out: the launch.
 *
 * Return: 0, -EBUSY (the file's event space is full: too many launches
 * queued and not yet read), -ENOMEM.
 */
int hcclt_launch_prepare(struct drm_file *df, u64 cookie, u64 handle,
			 struct hcclt_launch **out)
{
	struct hcclt_launch *l;
	int ret;

	l = kzalloc(sizeof(*l), GFP_KERNEL_ACCOUNT);
	if (!l)
		return -ENOMEM;
	l->ev.base.type = DRM_HCCLT_EVENT_LAUNCH;
	l->ev.base.length = sizeof(l->ev);
	l->ev.cookie = cookie;
	l->ev.handle = handle;
	ret = drm_event_reserve_init(df->minor->dev, df, &l->base,
				     &l->ev.base);
	if (ret) {
		kfree(l);
		return ret == -ENOMEM ? -EBUSY : ret;
	}
	*out = l;
	return 0;
}

/**
 * hcclt_launch_free - drop a launch that was never queued.
 * @dev: the DRM device of its file.
 * @l: the launch.
 */
void hcclt_launch_free(struct drm_device *dev, struct hcclt_launch *l)
{
	drm_event_cancel_free(dev, &l->base);
}

/**
 * hcclt_launch_send - hand a launch to the worker, or tell it the launch
 * was dropped.
 * @dev: the DRM device of its file.
 * @l: the launch; sent, then owned by the DRM core.
 * @seqno: the task's stream seqno, for KERNEL_DONE.
 * @cancelled: the task was dropped before it ran.
 */
void hcclt_launch_send(struct drm_device *dev, struct hcclt_launch *l,
		       u64 seqno, bool cancelled)
{
	l->ev.seqno = seqno;
	l->ev.flags = cancelled ? HCCLT_LAUNCH_CANCELLED : 0;
	drm_send_event(dev, &l->base);
}

/**
 * hcclt_kernel_done_ioctl - DRM_IOCTL_HCCLT_KERNEL_DONE.
 * @drm: the device.
 * @data: struct drm_hcclt_kernel_done.
 * @df: the calling file.
 *
 * Return: 0 or a negative errno (see the uAPI header).
 */
int hcclt_kernel_done_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df)
{
	struct drm_hcclt_kernel_done *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_thread *thread;
	struct hcclt_stream *s;
	int ret;

	if ((args->flags & ~HCCLT_KERNEL_DONE_START) || args->pad ||
	    ((args->flags & HCCLT_KERNEL_DONE_START) && args->status))
		return -EINVAL;
	if (hcclt_id_kind(args->handle) == HCCLT_ID_KIND_THREAD) {
		thread = hcclt_thread_lookup(file, args->handle);
		if (!thread)
			return -ENOENT;
		s = thread->stream;
		kref_get(&s->ref);
		hcclt_thread_put(thread);
	} else {
		s = hcclt_stream_lookup(file, args->handle);
		if (!s)
			return -ENOENT;
	}
	if (args->flags & HCCLT_KERNEL_DONE_START)
		ret = hcclt_sched_launch_start(s, args->seqno);
	else
		ret = hcclt_sched_launch_done(s, args->seqno, args->status);
	hcclt_stream_put(s);
	return ret;
}
