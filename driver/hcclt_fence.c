// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: out-fences of SUBMIT (sync_file, drm_syncobj). Each stream
 * has a fence context; a SUBMIT that makes a fence takes its sequence
 * number under the stream's fence_lock and holds it until the fence is
 * queued, so that a stream's fences signal in sequence order. The
 * executor signals them, under sched_lock, when the last task they cover
 * is done.
 */

#include <linux/dma-fence.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "hcclt_sched.h"

static const char *hcclt_fence_driver_name(struct dma_fence *fence)
{
	return "hcclthread";
}

static const char *hcclt_fence_timeline_name(struct dma_fence *fence)
{
	return "stream";
}

/*
 * A sync_file can outlive every DRM file and the device: each fence holds a
 * reference on the module, so that its ops (module code) stay loaded until
 * the last fence is gone. The reference is dropped in an RCU callback, not
 * in the release: code that runs after its own module_put() may be unloaded
 * under it, and hcclt_exit()'s rcu_barrier() waits until this callback has
 * returned. The RCU grace period is the one dma_fence_free() would wait
 * for (readers may still hold the fence under rcu_read_lock()).
 */
static void hcclt_fence_free_rcu(struct rcu_head *rcu)
{
	struct dma_fence *fence = container_of(rcu, struct dma_fence, rcu);

	kfree(container_of(fence, struct hcclt_fence, base));
	module_put(THIS_MODULE);
}

static void hcclt_fence_release(struct dma_fence *fence)
{
	call_rcu(&fence->rcu, hcclt_fence_free_rcu);
}

static const struct dma_fence_ops hcclt_fence_ops = {
	.use_64bit_seqno = true,
	.get_driver_name = hcclt_fence_driver_name,
	.get_timeline_name = hcclt_fence_timeline_name,
	.release = hcclt_fence_release,
};

/**
 * hcclt_fence_new - a new out-fence of @s with its next sequence number.
 * @s: the stream; the caller holds s->fence_lock until the fence is queued
 *	(or dropped).
 *
 * The fence holds a reference on the module until it is freed.
 *
 * Return: the fence (one reference), or NULL.
 */
struct hcclt_fence *hcclt_fence_new(struct hcclt_stream *s)
{
	struct hcclt_fence *f;

	lockdep_assert_held(&s->fence_lock);
	f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	if (!f)
		return NULL;
	spin_lock_init(&f->lock);
	INIT_LIST_HEAD(&f->node);
	dma_fence_init(&f->base, &hcclt_fence_ops, &f->lock, s->fence_ctx,
		       ++s->fence_seqno);
	__module_get(THIS_MODULE);
	return f;
}

/*
 * Signal @f, whose tasks are done: with the error of the last failed task
 * if that is one of them (for a fence of no task, the task before it).
 */
void hcclt_fence_done(struct hcclt_stream *s, struct hcclt_fence *f)
{
	if (s->fail_seqno && s->fail_seqno >= f->first)
		dma_fence_set_error(&f->base, s->fail_err);
	dma_fence_signal(&f->base);
}

void hcclt_signal_fences(struct hcclt_stream *s)
{
	struct hcclt_fence *f, *tmp;

	list_for_each_entry_safe(f, tmp, &s->fences, node) {
		if (f->last > s->done_seqno)
			break;
		list_del_init(&f->node);
		s->nfences--;
		hcclt_fence_done(s, f);
		dma_fence_put(&f->base);
	}
}
