// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: a SUBMIT's in-fences and out-syncobjs (uAPI 1.5).
 *
 * In-fences (a sync_file, drm_syncobj points) become a gate: an internal
 * task at the head of the batch that the executor (hcclt_sched.c) passes
 * only once every fence has signalled. While one has not, the stream parks
 * on the gate and a callback on that fence brings it back. The callback
 * may run in any context, with the fence's lock held, so it only queues
 * the gate's work item; the work takes the device's sched_lock and makes
 * the stream runnable. While a callback is armed the gate holds a
 * reference on itself and on its stream; whoever disarms it (the work, or
 * a flush that removed the callback and queues the work) drops them in the
 * work, outside sched_lock. The work runs on this module's own workqueue,
 * which module unload drains.
 *
 * Lock order: sched_lock -> a fence's lock (dma_fence_add_callback() and
 * dma_fence_remove_callback() under sched_lock, as the out-fences are
 * signalled under it); the callback takes no lock of the driver.
 *
 * Out-syncobjs are looked up, and timeline chain nodes allocated, before
 * the batch is queued, so that nothing can fail after it.
 */

#include <linux/dma-fence.h>
#include <linux/dma-fence-chain.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>
#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>

#include "hcclt_drv.h"

/**
 * struct hcclt_gate - the in-fences of one batch.
 * @ref: held by its task, and by an armed callback.
 * @cb: the callback on @fences[@next] while armed.
 * @work: makes @s runnable again (hcclt_gate_work()).
 * @s: the stream while a callback is armed or its work pending (a
 *	reference held); sched_lock.
 * @count: number of @fences.
 * @next: the first fence not seen signalled yet; sched_lock.
 * @fences: the fences (references held).
 */
struct hcclt_gate {
	struct kref ref;
	struct dma_fence_cb cb;
	struct work_struct work;
	struct hcclt_stream *s;
	u32 count;
	u32 next;
	struct dma_fence *fences[] __counted_by(count);
};

/**
 * struct hcclt_outsync - a syncobj point a batch's out-fence goes to.
 * @obj: the syncobj (reference held).
 * @chain: for a timeline point, its chain node (allocated up front).
 * @point: the point, 0 for the syncobj's fence.
 */
struct hcclt_outsync {
	struct drm_syncobj *obj;
	struct dma_fence_chain *chain;
	u64 point;
};

static struct workqueue_struct *hcclt_gate_wq;

static void hcclt_gate_work(struct work_struct *work);

static void hcclt_gate_release(struct kref *ref)
{
	struct hcclt_gate *g = container_of(ref, struct hcclt_gate, ref);
	u32 i;

	for (i = 0; i < g->count; i++)
		dma_fence_put(g->fences[i]);
	kfree(g);
}

/* Another reference on @g (for its task). */
struct hcclt_gate *hcclt_gate_get(struct hcclt_gate *g)
{
	kref_get(&g->ref);
	return g;
}

/**
 * hcclt_gate_put - drop a reference on a gate.
 * @g: the gate, or NULL.
 *
 * Frees memory only; fine under sched_lock.
 */
void hcclt_gate_put(struct hcclt_gate *g)
{
	if (g)
		kref_put(&g->ref, hcclt_gate_release);
}

/* Copy in @n (at most HCCLT_MAX_SYNCS) syncs; kfree() them. */
static struct drm_hcclt_sync *hcclt_copy_syncs(u64 uptr, u32 n)
{
	struct drm_hcclt_sync *syncs;
	u32 i;

	syncs = kmalloc_array(n, sizeof(*syncs), GFP_KERNEL);
	if (!syncs)
		return ERR_PTR(-ENOMEM);
	if (copy_from_user(syncs, u64_to_user_ptr(uptr), n * sizeof(*syncs))) {
		kfree(syncs);
		return ERR_PTR(-EFAULT);
	}
	for (i = 0; i < n; i++) {
		if (syncs[i].flags) {
			kfree(syncs);
			return ERR_PTR(-EINVAL);
		}
	}
	return syncs;
}

/**
 * hcclt_gate_new - collect a submit's in-fences.
 * @df: the submitting file (its syncobj handles).
 * @args: the submit, checked for its counts and flags.
 * @out: set to the gate, or NULL when the submit has no in-fence.
 *
 * Return: 0, -EFAULT, -EINVAL (a bad sync_file or syncobj point, non-zero
 * flags), -ENOENT (an unknown syncobj handle) or -ENOMEM.
 */
int hcclt_gate_new(struct drm_file *df, const struct drm_hcclt_submit *args,
		   struct hcclt_gate **out)
{
	bool fd_in = args->flags & HCCLT_SUBMIT_FENCE_IN;
	u32 n = args->in_sync_count, count = n + fd_in, i;
	struct drm_hcclt_sync *syncs = NULL;
	struct hcclt_gate *g;
	int ret;

	*out = NULL;
	if (!count)
		return 0;
	if (n) {
		syncs = hcclt_copy_syncs(args->in_syncs_ptr, n);
		if (IS_ERR(syncs))
			return PTR_ERR(syncs);
	}
	g = kzalloc(struct_size(g, fences, count), GFP_KERNEL_ACCOUNT);
	if (!g) {
		kfree(syncs);
		return -ENOMEM;
	}
	kref_init(&g->ref);
	INIT_WORK(&g->work, hcclt_gate_work);
	g->count = count;
	for (i = 0; i < n; i++) {
		ret = drm_syncobj_find_fence(df, syncs[i].handle,
					     syncs[i].point, 0,
					     &g->fences[i]);
		if (ret)
			goto err;
	}
	if (fd_in) {
		g->fences[n] = sync_file_get_fence(args->in_fence_fd);
		if (!g->fences[n]) {
			ret = -EINVAL;
			goto err;
		}
	}
	kfree(syncs);
	*out = g;
	return 0;

err:
	/* The fences not found are NULL (kzalloc); dma_fence_put() skips them. */
	kfree(syncs);
	hcclt_gate_put(g);
	return ret;
}

/* Any context, the fence's lock held: hand over to the work. */
static void hcclt_gate_cb(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct hcclt_gate *g = container_of(cb, struct hcclt_gate, cb);

	queue_work(hcclt_gate_wq, &g->work);
}

/*
 * The callback fired, or the gate was disarmed: if the stream is still
 * parked on this gate, make it runnable (hcclt_sched_gate_wake(), which
 * takes @g->s under sched_lock); then drop the armed references. @g->s
 * was set under sched_lock before anything could queue this work.
 */
static void hcclt_gate_work(struct work_struct *work)
{
	struct hcclt_gate *g = container_of(work, struct hcclt_gate, work);
	struct hcclt_stream *s = READ_ONCE(g->s);

	hcclt_sched_gate_wake(s, g);
	hcclt_stream_put(s);
	hcclt_gate_put(g);
}

/**
 * hcclt_gate_step - the executor reached @g at the head of @s.
 * @s: the stream (sched_lock held).
 * @g: the gate.
 * @err: set to the error of a fence that signalled with one, else 0.
 *
 * Return: true when @s must park on @g (a callback is armed), false when
 * every fence has signalled (or one failed: @err).
 */
bool hcclt_gate_step(struct hcclt_stream *s, struct hcclt_gate *g, int *err)
{
	struct dma_fence *f;

	*err = 0;
	while (g->next < g->count) {
		f = g->fences[g->next];
		if (dma_fence_is_signaled(f)) {
			*err = f->error;
			if (*err)
				return false;
			g->next++;
			continue;
		}
		/*
		 * A stream whose last reference went is being released: its
		 * release flushes it, which needs no callback.
		 */
		if (!kref_get_unless_zero(&s->ref))
			return true;
		kref_get(&g->ref);
		g->s = s;
		/*
		 * Signalled meanwhile: the work brings the stream back, as
		 * the callback would have (no put here: it could be the
		 * stream's last, under sched_lock).
		 */
		if (dma_fence_add_callback(f, &g->cb, hcclt_gate_cb))
			queue_work(hcclt_gate_wq, &g->work);
		return true;
	}
	return false;
}

/**
 * hcclt_gate_disarm - @s, parked on @g, is flushed (sched_lock held).
 * @g: the gate.
 *
 * Removes the callback if it has not run; its references then go in the
 * work, outside sched_lock. If it ran, its work is queued already.
 */
void hcclt_gate_disarm(struct hcclt_gate *g)
{
	if (g->s && dma_fence_remove_callback(g->fences[g->next], &g->cb))
		queue_work(hcclt_gate_wq, &g->work);
}

/* @g's work has run: the gate is not armed any more (sched_lock held). */
void hcclt_gate_unarmed(struct hcclt_gate *g)
{
	g->s = NULL;
}

/**
 * hcclt_outsyncs_new - look up a submit's out-syncobjs.
 * @df: the submitting file.
 * @args: the submit.
 * @out: set to the array (hcclt_outsyncs_free()), or NULL if none.
 *
 * Return: 0, -EFAULT, -EINVAL (non-zero flags), -ENOENT or -ENOMEM.
 */
int hcclt_outsyncs_new(struct drm_file *df,
		       const struct drm_hcclt_submit *args,
		       struct hcclt_outsync **out)
{
	u32 n = args->out_sync_count, i;
	struct drm_hcclt_sync *syncs;
	struct hcclt_outsync *o;
	int ret = 0;

	*out = NULL;
	if (!n)
		return 0;
	syncs = hcclt_copy_syncs(args->out_syncs_ptr, n);
	if (IS_ERR(syncs))
		return PTR_ERR(syncs);
	o = kcalloc(n, sizeof(*o), GFP_KERNEL_ACCOUNT);
	if (!o) {
		kfree(syncs);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		o[i].point = syncs[i].point;
		o[i].obj = drm_syncobj_find(df, syncs[i].handle);
		if (!o[i].obj) {
			ret = -ENOENT;
			goto err;
		}
		if (o[i].point) {
			o[i].chain = dma_fence_chain_alloc();
			if (!o[i].chain) {
				ret = -ENOMEM;
				goto err;
			}
		}
	}
	kfree(syncs);
	*out = o;
	return 0;

err:
	kfree(syncs);
	hcclt_outsyncs_free(o, n);
	return ret;
}

/**
 * hcclt_outsyncs_signal - give @fence to the out-syncobjs.
 * @o: from hcclt_outsyncs_new().
 * @n: their number.
 * @fence: the batch's out-fence.
 *
 * Cannot fail; the chain nodes are used up (hcclt_outsyncs_free() still
 * drops the syncobjs).
 */
void hcclt_outsyncs_signal(struct hcclt_outsync *o, u32 n,
			   struct dma_fence *fence)
{
	u32 i;

	for (i = 0; i < n; i++) {
		if (o[i].point) {
			drm_syncobj_add_point(o[i].obj, o[i].chain, fence,
					      o[i].point);
			o[i].chain = NULL;
		} else {
			drm_syncobj_replace_fence(o[i].obj, fence);
		}
	}
}

/**
 * hcclt_outsyncs_free - drop what hcclt_outsyncs_new() took.
 * @o: the array, or NULL.
 * @n: its length.
 */
void hcclt_outsyncs_free(struct hcclt_outsync *o, u32 n)
{
	u32 i;

	if (!o)
		return;
	for (i = 0; i < n; i++) {
		dma_fence_chain_free(o[i].chain);
		if (o[i].obj)
			drm_syncobj_put(o[i].obj);
	}
	kfree(o);
}

/**
 * hcclt_syncobj_init - make the gates' workqueue (module load).
 *
 * Return: 0 or -ENOMEM.
 */
int hcclt_syncobj_init(void)
{
	hcclt_gate_wq = alloc_workqueue("hcclt_gate", WQ_HIGHPRI, 0);
	return hcclt_gate_wq ? 0 : -ENOMEM;
}

/* Module unload: every stream is gone; drain the last works. */
void hcclt_syncobj_fini(void)
{
	destroy_workqueue(hcclt_gate_wq);
}
