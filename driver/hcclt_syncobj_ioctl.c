// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the DRM core's syncobj ioctls with a handle array
 * (SYNCOBJ_WAIT, _TIMELINE_WAIT, _RESET, _SIGNAL, _TIMELINE_SIGNAL and
 * _QUERY), served by the driver.
 *
 * The core's handlers size kernel allocations by count_handles without a
 * bound, and a filter in front of drm_ioctl() cannot bound it: drm_ioctl()
 * copies the argument again, after the filter read it. These ioctls are
 * therefore answered here, from one kernel copy of the argument, with the
 * core's exported syncobj and dma_fence helpers; drm_ioctl() never sees
 * them on an hcclthread node. The count is 1..HCCLT_MAX_SYNCOBJ_HANDLES;
 * flags, pad and errnos are the core's.
 *
 * Waiting for a point that has no fence yet (WAIT_FOR_SUBMIT,
 * WAIT_AVAILABLE): the core's list of waiters on a syncobj is not
 * exported, so the wait looks the point up again every
 * HCCLT_SOBJ_POLL_MS (at least one jiffy), within the caller's timeout,
 * while it sleeps interruptibly or waits on the fences it has.
 *
 * No lock of the driver is taken; the syncobj helpers take the syncobj's
 * own lock, and the waits sleep with none held.
 */

#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_syncobj.h>
#include <drm/drm_utils.h>

#include "hcclt_drv.h"

/* How often a wait for a fence not yet submitted looks again. */
#define HCCLT_SOBJ_POLL_MS	1

#ifdef DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE
#define HCCLT_SOBJ_DEADLINE	DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE
#else
#define HCCLT_SOBJ_DEADLINE	0
#endif

#define HCCLT_SOBJ_WAIT_FLAGS	(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL | \
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT | \
				 HCCLT_SOBJ_DEADLINE)
#define HCCLT_SOBJ_TWAIT_FLAGS	(HCCLT_SOBJ_WAIT_FLAGS | \
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE)
#define HCCLT_SOBJ_LATE		(DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT | \
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE)

/* The kernel copy of one call's argument. */
union hcclt_sobj_arg {
	struct drm_syncobj_wait wait;
	struct drm_syncobj_timeline_wait twait;
	struct drm_syncobj_array array;
	struct drm_syncobj_timeline_array tarray;
};

/**
 * struct hcclt_sobj_wait - one WAIT or TIMELINE_WAIT call.
 * @objs: the syncobjs (references held).
 * @points: the point waited for in each, 0 for its fence.
 * @fences: the fence of each point once it exists (references held).
 * @any: room for the fences one dma_fence_wait_any_timeout() waits on.
 * @count: number of entries of each array.
 * @flags: DRM_SYNCOBJ_WAIT_FLAGS_*.
 * @deadline: the WAIT_DEADLINE deadline, 0 for none.
 */
struct hcclt_sobj_wait {
	struct drm_syncobj **objs;
	u64 *points;
	struct dma_fence **fences;
	struct dma_fence **any;
	u32 count;
	u32 flags;
	ktime_t deadline;
};

/* Which member of the argument union @nr takes, or 0 for none of ours. */
static size_t hcclt_sobj_arg_size(unsigned int nr)
{
	switch (nr) {
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT):
		return sizeof(struct drm_syncobj_wait);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
		return sizeof(struct drm_syncobj_timeline_wait);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		return sizeof(struct drm_syncobj_array);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_QUERY):
		return sizeof(struct drm_syncobj_timeline_array);
	default:
		return 0;
	}
}

/**
 * hcclt_sobj_ioctl_nr() - whether the driver serves a core ioctl number.
 * @nr: DRM_IOCTL_NR() of the command.
 *
 * Return: true for the six syncobj ioctls with a handle array.
 */
bool hcclt_sobj_ioctl_nr(unsigned int nr)
{
	return hcclt_sobj_arg_size(nr) != 0;
}

static void hcclt_sobj_put_all(struct drm_syncobj **objs, u32 count)
{
	u32 i;

	for (i = 0; i < count; i++)
		drm_syncobj_put(objs[i]);
	kfree(objs);
}

/*
 * The syncobjs of @count handles at @uptr (@count already bounded by
 * HCCLT_MAX_SYNCOBJ_HANDLES): -EFAULT, -ENOMEM, or -ENOENT when a handle
 * names no syncobj of @df.
 */
static int hcclt_sobj_lookup(struct drm_file *df, u64 uptr, u32 count,
			     struct drm_syncobj ***out)
{
	struct drm_syncobj **objs;
	u32 *handles;
	u32 i;
	int ret = 0;

	handles = kmalloc_array(count, sizeof(*handles), GFP_KERNEL);
	objs = kmalloc_array(count, sizeof(*objs), GFP_KERNEL);
	if (!handles || !objs) {
		ret = -ENOMEM;
		goto out;
	}
	if (copy_from_user(handles, u64_to_user_ptr(uptr),
			   array_size(count, sizeof(*handles)))) {
		ret = -EFAULT;
		goto out;
	}
	for (i = 0; i < count; i++) {
		objs[i] = drm_syncobj_find(df, handles[i]);
		if (!objs[i]) {
			hcclt_sobj_put_all(objs, i);
			objs = NULL;
			ret = -ENOENT;
			goto out;
		}
	}
	*out = objs;
	objs = NULL;
out:
	kfree(handles);
	kfree(objs);
	return ret;
}

/* @count points from @uptr, or zeros for a NULL pointer. */
static u64 *hcclt_sobj_points(u64 uptr, u32 count, int *err)
{
	u64 *points = kcalloc(count, sizeof(*points), GFP_KERNEL);

	*err = 0;
	if (!points) {
		*err = -ENOMEM;
	} else if (uptr && copy_from_user(points, u64_to_user_ptr(uptr),
					  array_size(count, sizeof(*points)))) {
		kfree(points);
		points = NULL;
		*err = -EFAULT;
	}
	return points;
}

/*
 * The fence of @point in @obj (its current fence for 0), a reference the
 * caller drops, or NULL while that point has not been submitted. A point
 * that its timeline has signalled and dropped from the chain is the
 * signalled stub.
 */
static struct dma_fence *hcclt_sobj_point_fence(struct drm_syncobj *obj,
						u64 point)
{
	struct dma_fence *f = drm_syncobj_fence_get(obj);

	if (!f)
		return NULL;
	if (dma_fence_chain_find_seqno(&f, point)) {
		dma_fence_put(f);
		return NULL;
	}
	return f ?: dma_fence_get_stub();
}

/*
 * Look up the fences of the points that had none. Without WAIT_FOR_SUBMIT
 * or WAIT_AVAILABLE every point must have one: -EINVAL otherwise, as the
 * core answers.
 */
static int hcclt_sobj_fill(struct hcclt_sobj_wait *w)
{
	u32 i;

	for (i = 0; i < w->count; i++) {
		if (w->fences[i])
			continue;
		w->fences[i] = hcclt_sobj_point_fence(w->objs[i], w->points[i]);
		if (!w->fences[i]) {
			if (!(w->flags & HCCLT_SOBJ_LATE))
				return -EINVAL;
			continue;
		}
#ifdef DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE
		if (w->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE)
			dma_fence_set_deadline(w->fences[i], w->deadline);
#endif
	}
	return 0;
}

/* Entry @i is done: its point exists (WAIT_AVAILABLE) or has signalled. */
static bool hcclt_sobj_done(struct hcclt_sobj_wait *w, u32 i)
{
	if (!w->fences[i])
		return false;
	return (w->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE) ||
	       dma_fence_is_signaled(w->fences[i]);
}

/*
 * Sleep up to @slice jiffies for one of the entries not done to progress:
 * on its fence (WAIT_ALL: the first such fence, as all must signal),
 * or, with no fence to wait on, plain sleep until the next look-up.
 * Return: the jiffies used, or -ERESTARTSYS (or a fence's own wait error).
 */
static long hcclt_sobj_sleep(struct hcclt_sobj_wait *w, long slice)
{
	bool all = w->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	u32 i, n = 0;
	long left;

	for (i = 0; i < w->count; i++) {
		if (!w->fences[i] || hcclt_sobj_done(w, i))
			continue;
		w->any[n++] = w->fences[i];
		if (all)
			break;
	}
	if (n == 1)
		left = dma_fence_wait_timeout(w->any[0], true, slice);
	else if (n)
		left = dma_fence_wait_any_timeout(w->any, n, true, slice,
						  NULL);
	else
		left = schedule_timeout_interruptible(slice);
	if (left < 0)
		return left;
	if (signal_pending(current))
		return -ERESTARTSYS;
	return slice - min(left, slice);
}

/*
 * Wait as the core does: until every entry (WAIT_ALL) or one is done, or
 * @timeout jiffies passed (-ETIME), or a signal came (-ERESTARTSYS).
 * *@first is the first entry done: with WAIT_ALL, the first one done
 * before the wait began (~0 when none was), as the core reports it.
 */
static int hcclt_sobj_wait_entries(struct hcclt_sobj_wait *w, long timeout,
				   u32 *first)
{
	bool all = w->flags & DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	long poll = max_t(long, msecs_to_jiffies(HCCLT_SOBJ_POLL_MS), 1);
	bool started = false;
	int ret;

	for (;;) {
		u32 i, done = 0, missing = 0, found = ~0U;
		long used;

		ret = hcclt_sobj_fill(w);
		if (ret)
			return ret;
		for (i = 0; i < w->count; i++) {
			missing += !w->fences[i];
			if (!hcclt_sobj_done(w, i))
				continue;
			if (!done++)
				found = i;
		}
		if (!started || !all)
			*first = found;
		started = true;
		if (done == w->count || (done && !all))
			return 0;
		if (!timeout)
			return -ETIME;
		if (signal_pending(current))
			return -ERESTARTSYS;
		used = hcclt_sobj_sleep(w, missing ? min(timeout, poll) :
					timeout);
		if (used < 0)
			return used;
		timeout -= min(used, timeout);
	}
}

/*
 * WAIT and TIMELINE_WAIT: @upoints 0 for WAIT (the syncobjs' fences).
 * *@first as hcclt_sobj_wait_entries() has it, on success.
 */
static int hcclt_sobj_wait(struct drm_file *df, u64 uhandles, u64 upoints,
			   u32 count, u32 flags, s64 timeout_nsec,
			   u64 deadline_nsec, u32 *first)
{
	struct hcclt_sobj_wait w = {
		.count = count,
		.flags = flags,
		.deadline = ns_to_ktime(deadline_nsec),
	};
	long timeout;
	u32 i;
	int ret;

	ret = hcclt_sobj_lookup(df, uhandles, count, &w.objs);
	if (ret)
		return ret;
	w.points = hcclt_sobj_points(upoints, count, &ret);
	if (!w.points)
		goto out_objs;
	w.fences = kcalloc(count, sizeof(*w.fences), GFP_KERNEL);
	w.any = kcalloc(count, sizeof(*w.any), GFP_KERNEL);
	if (!w.fences || !w.any) {
		ret = -ENOMEM;
		goto out;
	}
	timeout = drm_timeout_abs_to_jiffies(timeout_nsec);
	ret = hcclt_sobj_wait_entries(&w, timeout, first);
out:
	if (w.fences)
		for (i = 0; i < count; i++)
			dma_fence_put(w.fences[i]);
	kfree(w.any);
	kfree(w.fences);
	kfree(w.points);
out_objs:
	hcclt_sobj_put_all(w.objs, count);
	return ret;
}

/* RESET (@signal false) and SIGNAL. */
static int hcclt_sobj_reset_signal(struct drm_file *df,
				   struct drm_syncobj_array *a, bool signal)
{
	struct drm_syncobj **objs;
	u32 i;
	int ret;

	ret = hcclt_sobj_lookup(df, a->handles, a->count_handles, &objs);
	if (ret)
		return ret;
	for (i = 0; i < a->count_handles; i++) {
		struct dma_fence *f = NULL;

		if (signal) {
			f = dma_fence_allocate_private_stub(ktime_get());
			if (!f) {
				ret = -ENOMEM;
				break;
			}
		}
		drm_syncobj_replace_fence(objs[i], f);
		dma_fence_put(f);
	}
	hcclt_sobj_put_all(objs, a->count_handles);
	return ret;
}

/*
 * TIMELINE_SIGNAL: a signalled fence added at each point, as a chain node
 * (also for point 0, as the core does). The nodes are allocated first, so
 * that either every point is added or none.
 */
static int hcclt_sobj_timeline_signal(struct drm_file *df,
				      struct drm_syncobj_timeline_array *a)
{
	struct dma_fence_chain **chains = NULL;
	struct drm_syncobj **objs;
	u32 i, n = a->count_handles;
	u64 *points;
	int ret;

	ret = hcclt_sobj_lookup(df, a->handles, n, &objs);
	if (ret)
		return ret;
	points = hcclt_sobj_points(a->points, n, &ret);
	if (points)
		chains = kcalloc(n, sizeof(*chains), GFP_KERNEL);
	if (points && !chains)
		ret = -ENOMEM;
	for (i = 0; chains && i < n; i++) {
		chains[i] = dma_fence_chain_alloc();
		if (!chains[i]) {
			ret = -ENOMEM;
			break;
		}
	}
	for (i = 0; !ret && i < n; i++) {
		struct dma_fence *stub = dma_fence_get_stub();

		drm_syncobj_add_point(objs[i], chains[i], stub, points[i]);
		chains[i] = NULL;
		dma_fence_put(stub);
	}
	for (i = 0; chains && i < n; i++)
		dma_fence_chain_free(chains[i]);
	kfree(chains);
	kfree(points);
	hcclt_sobj_put_all(objs, n);
	return ret;
}

/*
 * The point a timeline has reached: walking its chain from @head drops
 * the nodes that signalled, so the walk ends at the oldest node still
 * there. Its point when it signalled, else the point before it.
 */
static u64 hcclt_sobj_reached(struct dma_fence *head)
{
	struct dma_fence *oldest = dma_fence_get(head);
	struct dma_fence *node;
	u64 point;

	dma_fence_chain_for_each(node, head) {
		/* Another timeline's node: points out of order. */
		if (node->context != head->context) {
			dma_fence_put(node);
			break;
		}
		dma_fence_put(oldest);
		oldest = dma_fence_get(node);
	}
	if (dma_fence_is_signaled(oldest))
		point = oldest->seqno;
	else
		point = to_dma_fence_chain(oldest)->prev_seqno;
	dma_fence_put(oldest);
	return point;
}

/* QUERY: each syncobj's signalled (or LAST_SUBMITTED) timeline point. */
static int hcclt_sobj_query(struct drm_file *df,
			    struct drm_syncobj_timeline_array *a)
{
	u64 __user *upoints = u64_to_user_ptr(a->points);
	struct drm_syncobj **objs;
	u32 i;
	int ret;

	ret = hcclt_sobj_lookup(df, a->handles, a->count_handles, &objs);
	if (ret)
		return ret;
	for (i = 0; i < a->count_handles; i++) {
		struct dma_fence *f = drm_syncobj_fence_get(objs[i]);
		u64 point;

		if (!to_dma_fence_chain(f))
			point = 0;
		else if (a->flags & DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
			point = f->seqno;
		else
			point = hcclt_sobj_reached(f);
		dma_fence_put(f);
		if (put_user(point, &upoints[i])) {
			ret = -EFAULT;
			break;
		}
	}
	hcclt_sobj_put_all(objs, a->count_handles);
	return ret;
}

/* The count check every one of the six makes; 1 for a WAIT's empty call. */
static int hcclt_sobj_count(unsigned int nr, u32 count)
{
	if (count > HCCLT_MAX_SYNCOBJ_HANDLES)
		return -EINVAL;
	if (count)
		return 0;
	/* Nothing to wait for is success, as the newer core has it. */
	if (nr == DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT) ||
	    nr == DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT))
		return 1;
	return -EINVAL;
}

static int hcclt_sobj_serve(struct drm_file *df, unsigned int nr,
			    union hcclt_sobj_arg *u)
{
	struct drm_syncobj_timeline_wait *tw = &u->twait;
	struct drm_syncobj_wait *w = &u->wait;
	u64 deadline = 0;
	int ret;

	switch (nr) {
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_WAIT):
		if (w->flags & ~HCCLT_SOBJ_WAIT_FLAGS)
			return -EINVAL;
		ret = hcclt_sobj_count(nr, w->count_handles);
		if (ret)
			return ret < 0 ? ret : 0;
#ifdef DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE
		deadline = w->deadline_nsec;
#endif
		return hcclt_sobj_wait(df, w->handles, 0, w->count_handles,
				       w->flags, w->timeout_nsec, deadline,
				       &w->first_signaled);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT):
		if (tw->flags & ~HCCLT_SOBJ_TWAIT_FLAGS)
			return -EINVAL;
		ret = hcclt_sobj_count(nr, tw->count_handles);
		if (ret)
			return ret < 0 ? ret : 0;
#ifdef DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE
		deadline = tw->deadline_nsec;
#endif
		return hcclt_sobj_wait(df, tw->handles, tw->points,
				       tw->count_handles, tw->flags,
				       tw->timeout_nsec, deadline,
				       &tw->first_signaled);
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_RESET):
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL):
		if (u->array.pad)
			return -EINVAL;
		ret = hcclt_sobj_count(nr, u->array.count_handles);
		return ret ?: hcclt_sobj_reset_signal(df, &u->array,
				nr == DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_SIGNAL));
	case DRM_IOCTL_NR(DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL):
		if (u->tarray.flags)
			return -EINVAL;
		ret = hcclt_sobj_count(nr, u->tarray.count_handles);
		return ret ?: hcclt_sobj_timeline_signal(df, &u->tarray);
	default:
		if (u->tarray.flags & ~DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED)
			return -EINVAL;
		ret = hcclt_sobj_count(nr, u->tarray.count_handles);
		return ret ?: hcclt_sobj_query(df, &u->tarray);
	}
}

/**
 * hcclt_sobj_ioctl() - serve a syncobj ioctl with a handle array.
 * @df: the caller's DRM file.
 * @cmd: the command, one for which hcclt_sobj_ioctl_nr() holds.
 * @argp: its argument.
 *
 * The argument is copied in once, as drm_ioctl() does it: the command's
 * size and direction decide how much, up to the kernel's struct, the rest
 * zeroed; and copied back out after the call, whatever it returned.
 *
 * Return: 0 or a negative errno, as the DRM core answers the call, and
 * -EINVAL for more than HCCLT_MAX_SYNCOBJ_HANDLES handles.
 */
long hcclt_sobj_ioctl(struct drm_file *df, unsigned int cmd,
		      void __user *argp)
{
	unsigned int nr = DRM_IOCTL_NR(cmd);
	size_t size = hcclt_sobj_arg_size(nr);
	size_t in = (cmd & IOC_IN) ? min_t(size_t, _IOC_SIZE(cmd), size) : 0;
	size_t out = (cmd & IOC_OUT) ? min_t(size_t, _IOC_SIZE(cmd), size) : 0;
	union hcclt_sobj_arg u = {};
	int ret;

	if (drm_dev_is_unplugged(df->minor->dev))
		return -ENODEV;
	if (copy_from_user(&u, argp, in))
		return -EFAULT;
	ret = hcclt_sobj_serve(df, nr, &u);
	if (copy_to_user(argp, &u, out))
		ret = -EFAULT;
	return ret;
}
