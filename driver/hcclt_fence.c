// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: out-fences of SUBMIT (sync_file, drm_syncobj). Each stream
 * has a fence context; a SUBMIT that makes a fence takes its sequence
 * number under the stream's fence_lock and holds it until the fence is
 * queued, so that a stream's fences signal in sequence order. The
 * executor signals them, under sched_lock, when the last task they cover
 * is done.
 *
 * A fence must signal in bounded time (dma-buf.rst, "Indefinite DMA
 * Fences"), but the tasks it covers may wait on userspace without limit: a
 * kernel launch until the process answers KERNEL_DONE, a notify, channel
 * or event wait of no timeout until another stream records. So each fence
 * has a deadline, fence_timeout_ms after it was queued: the stream's
 * fence timer fires at the deadline of its oldest pending fence, and if
 * that fence has not signalled, the stream fails with -ETIME as a wait
 * that timed out does (hcclt_fence_expire()): its tasks are dropped, the
 * next STREAM_SYNC reports -ETIME, and its fences signal with -ETIME. A
 * fence therefore signals at the latest by the deadline of itself or of a
 * fence queued before it on its stream. Streams without an out-fence keep
 * waiting as long as their tasks say (CANN semantics).
 */

#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "hcclt_sched.h"

/* Bounds of the fence_timeout_ms parameter. */
#define HCCLT_FENCE_TIMEOUT_MIN_MS	1
#define HCCLT_FENCE_TIMEOUT_MAX_MS	(3600 * MSEC_PER_SEC)

static unsigned int hcclt_fence_timeout_ms = 60 * MSEC_PER_SEC;
module_param_named(fence_timeout_ms, hcclt_fence_timeout_ms, uint, 0644);
MODULE_PARM_DESC(fence_timeout_ms,
		 "Milliseconds an out-fence may stay unsignalled before its stream fails with -ETIME (1-3600000, default 60000)");

/**
 * hcclt_fence_deadline - the deadline of a fence queued now.
 *
 * Return: jiffies fence_timeout_ms from now.
 */
unsigned long hcclt_fence_deadline(void)
{
	unsigned int ms = clamp(READ_ONCE(hcclt_fence_timeout_ms),
				HCCLT_FENCE_TIMEOUT_MIN_MS,
				HCCLT_FENCE_TIMEOUT_MAX_MS);

	return jiffies + msecs_to_jiffies(ms);
}

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

/*
 * Signal the fences of @s whose tasks are done, and move the fence timer
 * to the deadline of the oldest one left. sched_lock held.
 */
void hcclt_signal_fences(struct hcclt_stream *s)
{
	struct hcclt_fence *f, *tmp;
	bool signalled = false;

	list_for_each_entry_safe(f, tmp, &s->fences, node) {
		if (f->last > s->done_seqno)
			break;
		list_del_init(&f->node);
		s->nfences--;
		hcclt_fence_done(s, f);
		dma_fence_put(&f->base);
		signalled = true;
	}
	if (!signalled)
		return;
	f = list_first_entry_or_null(&s->fences, struct hcclt_fence, node);
	if (f)
		mod_timer(&s->fence_timer, f->deadline);
	else
		timer_delete(&s->fence_timer);
}
