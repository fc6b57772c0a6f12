// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: DRM_IOCTL_HCCLT_SUBMIT. A batch is copied in, validated and
 * prepared whole (every task's notify, channel, memory object or launch
 * looked up and referenced), then queued on its stream under sched_lock
 * and run inline as far as the budget allows (hcclt_sched.c); its
 * in-fences (hcclt_syncobj.c) go in front of it and its out-fence
 * (hcclt_fence.c) behind it.
 */

#include <linux/dma-fence.h>
#include <linux/file.h>
#include <linux/nospec.h>
#include <linux/slab.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "hcclt_compat.h"
#include "hcclt_sched.h"
#include "hcclt_trace.h"

/*
 * Batches up to this many tasks are copied in on the stack (zeroed on every
 * call with INIT_STACK_ALL_ZERO: keep it small), larger ones into a
 * kmalloc'ed array.
 */
#define HCCLT_TASK_ONSTACK	4

static_assert(sizeof(struct drm_hcclt_task) == 64);
static_assert(offsetof(struct drm_hcclt_task, src_handle) == HCCLT_TASK_SIZE_V1);

/**
 * struct hcclt_prep - state of one submit's validation.
 * @file: the file.
 * @thread: the submitting thread, NULL for a stream handle.
 * @dst: the last record destination looked up (reference held); batches
 *	usually record into few threads.
 * @chan: the last channel looked up (reference held).
 * @df: the DRM file (GEM handles of data tasks).
 * @peer_buf: the HCCL buffer of @chan's peer, once a data task needed it
 *	(reference held).
 * @handle: the SUBMIT's handle (kernel launches report it back).
 */
struct hcclt_prep {
	struct hcclt_file *file;
	struct hcclt_thread *thread;
	struct hcclt_thread *dst;
	struct hcclt_channel *chan;
	struct drm_file *df;
	struct drm_gem_object *peer_buf;
	u64 handle;
};

/* Make the channel of id @id of the submitting thread pp->chan. */
static inline int hcclt_prep_chan(struct hcclt_prep *pp, u64 id)
{
	struct hcclt_channel *chan;

	if (pp->chan && hcclt_channel_is(pp->chan, id))
		return 0;
	chan = hcclt_channel_lookup(pp->thread->comm, id);
	if (!chan)
		return -ENOENT;
	hcclt_channel_put(pp->chan);
	pp->chan = chan;
	if (pp->peer_buf) {
		drm_gem_object_put(pp->peer_buf);
		pp->peer_buf = NULL;
	}
	return 0;
}

/* A channel task of @ut: its notify, with a reference, in @n. */
static int hcclt_task_prepare_chan(struct hcclt_prep *pp,
				   const struct drm_hcclt_task *ut,
				   struct hcclt_notify **n)
{
	struct hcclt_thread *thread = pp->thread;
	int ret;

	if (!thread ||
	    (ut->op == HCCLT_TASK_CHANNEL_RECORD && ut->timeout_s))
		return -EINVAL;
	ret = hcclt_prep_chan(pp, ut->dst_thread);
	if (ret)
		return ret;
	return hcclt_channel_task_notify(pp->chan, thread->engine, ut->op,
					 ut->notify_idx, n);
}

/* Fields of struct drm_hcclt_task that only data tasks use. */
static bool hcclt_task_has_data(const struct drm_hcclt_task *ut)
{
	return ut->src_handle || ut->dst_handle || ut->src_offset ||
	       ut->dst_offset || ut->len || ut->dtype || ut->reduce_op;
}

/*
 * The range the channel's peer registered as @id (uAPI 1.12), with a
 * reference, in @reg; -ECONNRESET when the peer is gone or has no such
 * range (any more: unregistered, as a gone peer's buffer).
 */
static int hcclt_prep_reg(struct hcclt_prep *pp, u32 id,
			  struct hcclt_memreg **reg)
{
	struct hcclt_comm *pc;

	pc = hcclt_channel_peer_comm(pp->chan);
	if (!pc)
		return -ECONNRESET;
	*reg = hcclt_memreg_get(pc, id);
	hcclt_comm_put(pc);
	return *reg ? 0 : -ECONNRESET;
}

/*
 * The object of handle @handle; on the peer side, the channel's peer
 * buffer for 0, else the object of the peer's registered range @reg.
 */
static struct drm_gem_object *hcclt_prep_obj(struct hcclt_prep *pp,
					     u32 handle, bool peer,
					     struct hcclt_memreg *reg)
{
	struct drm_gem_object *obj;

	if (!peer) {
		obj = hcclt_mem_lookup(pp->df, handle);
		return obj ?: ERR_PTR(-ENOENT);
	}
	if (reg) {
		drm_gem_object_get(reg->obj);
		return reg->obj;
	}
	if (!pp->peer_buf) {
		obj = hcclt_channel_peer_buffer(pp->chan, 0);
		if (IS_ERR(obj))
			return obj;
		pp->peer_buf = obj;
	}
	drm_gem_object_get(pp->peer_buf);
	return pp->peer_buf;
}

/*
 * A data task on the channel @pp->chan when its peer is on another host
 * (uAPI 1.16, registered ranges 1.17): its copy, moved by a transfer
 * (hcclt_xfer.c), in @c.
 * Return: -EREMOTE when it made it, -ENOLINK when the peer is on this
 * host (nothing made), or another negative errno.
 */
static int hcclt_task_prepare_remote(struct hcclt_prep *pp,
				     const struct drm_hcclt_task *ut,
				     bool from_peer, struct hcclt_copy **c)
{
	struct drm_gem_object *local;
	struct hcclt_xfer *x;
	int ret;

	/* The peer's registered range, or 0: its host checks the range. */
	x = hcclt_channel_xfer_new(pp->chan, from_peer ? ut->src_handle :
				   ut->dst_handle);
	if (!x)
		return -ENOLINK;
	if (IS_ERR(x))
		return PTR_ERR(x);
	local = hcclt_mem_lookup(pp->df, from_peer ? ut->dst_handle :
				 ut->src_handle);
	if (!local) {
		hcclt_xfer_free(x);
		return -ENOENT;
	}
	ret = hcclt_copy_prepare_remote(ut->op, local,
					from_peer ? ut->dst_offset :
					ut->src_offset,
					from_peer ? ut->src_offset :
					ut->dst_offset, ut->len, ut->dtype,
					ut->reduce_op, x, c);
	return ret ?: -EREMOTE;
}

/*
 * A data task (uAPI 1.4): check it and make its copy in @task->copy (none
 * for a zero length, which completes at once).
 */
static int hcclt_task_prepare_data(struct hcclt_prep *pp,
				   const struct drm_hcclt_task *ut,
				   struct hcclt_task *task)
{
	bool to_peer = ut->op == HCCLT_TASK_WRITE ||
		       ut->op == HCCLT_TASK_WRITE_REDUCE;
	bool from_peer = ut->op == HCCLT_TASK_READ ||
			 ut->op == HCCLT_TASK_READ_REDUCE;
	struct drm_gem_object *src, *dst;
	struct hcclt_memreg *reg = NULL;
	struct hcclt_copy *c = NULL;
	u64 soff = ut->src_offset, doff = ut->dst_offset;
	u32 rid;
	int ret;

	if (ut->notify_idx || ut->timeout_s)
		return -EINVAL;
	if (!hcclt_op_reduces(ut->op)) {
		if (ut->dtype || ut->reduce_op)
			return -EINVAL;
	} else if (!hcclt_reduce_size(ut->dtype) ||
		   !hcclt_reduce_op_known(ut->reduce_op)) {
		return -EINVAL;
	} else if (!hcclt_reduce_supported(ut->dtype)) {
		return -EOPNOTSUPP;
	}
	if (!to_peer && !from_peer) {
		if (ut->dst_thread || !ut->src_handle || !ut->dst_handle)
			return -EINVAL;
	} else {
		/* The local side needs a handle; the peer side may have one. */
		if (!pp->thread || (from_peer ? !ut->dst_handle :
				    !ut->src_handle))
			return -EINVAL;
		ret = hcclt_prep_chan(pp, ut->dst_thread);
		if (ret)
			return ret;
		/* The engine family and the peer, as channel notify tasks. */
		ret = hcclt_channel_task_check(pp->chan, pp->thread->engine);
		if (ret)
			return ret;
		/*
		 * uAPI 1.16: a peer on another host, its HCCL buffer; 1.17:
		 * or a range it registered.
		 */
		ret = hcclt_task_prepare_remote(pp, ut, from_peer, &c);
		if (ret == -EREMOTE)
			goto made;
		if (ret != -ENOLINK)
			return ret;
		/* uAPI 1.12: a range the peer registered, checked as such. */
		rid = from_peer ? ut->src_handle : ut->dst_handle;
		if (rid) {
			ret = hcclt_prep_reg(pp, rid, &reg);
			if (ret)
				return ret;
			if ((from_peer ? soff : doff) > reg->size ||
			    ut->len > reg->size - (from_peer ? soff : doff)) {
				hcclt_memreg_put(reg);
				return -ERANGE;
			}
			if (from_peer)
				soff += reg->offset;
			else
				doff += reg->offset;
		}
	}
	src = hcclt_prep_obj(pp, ut->src_handle, from_peer, reg);
	if (IS_ERR(src)) {
		hcclt_memreg_put(reg);
		return PTR_ERR(src);
	}
	dst = hcclt_prep_obj(pp, ut->dst_handle, to_peer, reg);
	if (IS_ERR(dst)) {
		drm_gem_object_put(src);
		hcclt_memreg_put(reg);
		return PTR_ERR(dst);
	}
	ret = hcclt_copy_prepare(ut->op, src, soff, dst, doff, ut->len,
				 ut->dtype, ut->reduce_op, &c);
	if (ret) {
		hcclt_memreg_put(reg);
		return ret;
	}
	if (reg)
		hcclt_copy_set_reg(c, reg);
made:
	if (!ut->len) {
		hcclt_copy_drop(pp->file->hdev, c);
		c = NULL;
	}
	task->notify = NULL;
	task->launch = NULL;
	task->copy = c;
	task->op = ut->op;
	task->engine = pp->thread ? pp->thread->engine : HCCLT_ENGINE_CPU;
	task->timeout_s = 0;
	task->started = false;
	return 0;
}

/* A kernel launch (uAPI 1.4): its event in @task->launch. */
static int hcclt_task_prepare_launch(struct hcclt_prep *pp,
				     const struct drm_hcclt_task *ut,
				     struct hcclt_task *task)
{
	int ret;

	if (ut->notify_idx || hcclt_task_has_data(ut))
		return -EINVAL;
	ret = hcclt_launch_prepare(pp->df, ut->dst_thread, pp->handle,
				   &task->launch);
	if (ret)
		return ret;
	task->notify = NULL;
	task->copy = NULL;
	task->op = ut->op;
	task->engine = pp->thread ? pp->thread->engine : HCCLT_ENGINE_AICPU;
	task->timeout_s = ut->timeout_s;
	task->started = false;
	return 0;
}

/*
 * Validate one user task and fill in @task, which then holds a notify
 * reference.
 */
static int hcclt_task_prepare(struct hcclt_prep *pp,
			      const struct drm_hcclt_task *ut,
			      struct hcclt_task *task)
{
	struct hcclt_thread *thread = pp->thread, *dst, *p;
	struct hcclt_notify *n;
	u32 num;
	int ret;

	if (ut->pad)
		return -EINVAL;
	/* Only event tasks set it (the batch may be a reused spare). */
	task->event = NULL;
	task->gate = NULL;
	switch (ut->op) {
	case HCCLT_TASK_LOCAL_COPY:
	case HCCLT_TASK_WRITE:
	case HCCLT_TASK_READ:
	case HCCLT_TASK_LOCAL_REDUCE:
	case HCCLT_TASK_WRITE_REDUCE:
	case HCCLT_TASK_READ_REDUCE:
		return hcclt_task_prepare_data(pp, ut, task);
	case HCCLT_TASK_KERNEL_LAUNCH:
		return hcclt_task_prepare_launch(pp, ut, task);
	default:
		break;
	}
	if (hcclt_task_has_data(ut))
		return -EINVAL;
	switch (ut->op) {
	case HCCLT_TASK_CHANNEL_RECORD:
	case HCCLT_TASK_CHANNEL_WAIT:
		ret = hcclt_task_prepare_chan(pp, ut, &n);
		if (ret)
			return ret;
		goto found;
	case HCCLT_TASK_NOTIFY_RECORD:
		if (ut->timeout_s)
			return -EINVAL;
		if (!pp->dst || pp->dst->id != ut->dst_thread) {
			dst = hcclt_thread_lookup(pp->file, ut->dst_thread);
			if (!dst)
				return -ENOENT;
			hcclt_thread_put(pp->dst);
			pp->dst = dst;
		}
		if (thread && pp->dst->engine != thread->engine)
			return -EINVAL;
		p = pp->dst->primary ?: pp->dst;
		break;
	case HCCLT_TASK_NOTIFY_WAIT:
		if (ut->dst_thread || !thread)
			return -EINVAL;
		p = thread->primary ?: thread;
		break;
	case HCCLT_TASK_ACL_NOTIFY_RECORD:
	case HCCLT_TASK_ACL_NOTIFY_WAIT:
		if (ut->dst_thread || (ut->timeout_s &&
				       ut->op == HCCLT_TASK_ACL_NOTIFY_RECORD))
			return -EINVAL;
		n = hcclt_acl_notify_get(pp->file, ut->notify_idx);
		if (!n)
			return -ENOENT;
		goto found;
	case HCCLT_TASK_EVENT_RECORD:
	case HCCLT_TASK_EVENT_WAIT:
	case HCCLT_TASK_EVENT_RESET:
		if (ut->notify_idx || ut->timeout_s)
			return -EINVAL;
		task->event = hcclt_event_get(pp->file, ut->dst_thread);
		if (!task->event)
			return -ENOENT;
		task->notify = NULL;
		task->copy = NULL;
		task->launch = NULL;
		task->op = ut->op;
		task->engine = thread ? thread->engine : HCCLT_ENGINE_CPU;
		task->timeout_s = 0;
		task->started = false;
		return 0;
	default:
		return -EINVAL;
	}
	/* Pairs with smp_store_release() in hcclt_thread_grow(). */
	num = smp_load_acquire(&p->notify_num);
	if (ut->notify_idx >= num)
		return -EINVAL;
	/* A user-chosen index: no speculative load past the bound. */
	n = p->notifies[array_index_nospec(ut->notify_idx, num)];
	kref_get(&n->ref);
found:
	task->notify = n;
	task->copy = NULL;
	task->launch = NULL;
	task->op = ut->op;
	/*
	 * A wait has @thread; a record through a stream id has only @dst, an
	 * ACL notify task through one neither.
	 */
	task->engine = thread ? thread->engine :
		       pp->dst ? pp->dst->engine : HCCLT_ENGINE_CPU;
	task->timeout_s = ut->timeout_s;
	task->started = false;
	return 0;
}

/* Drop what hcclt_task_prepare() gave @task (a task never queued). */
static void hcclt_task_unprepare(struct hcclt_stream *s,
				 struct hcclt_task *task)
{
	if (task->notify)
		hcclt_notify_put(task->notify);
	if (task->event)
		hcclt_event_put(task->event);
	if (task->copy)
		hcclt_copy_drop(s->hdev, task->copy);
	if (task->launch)
		hcclt_launch_free(&s->hdev->drm, task->launch);
	hcclt_gate_put(task->gate);
}

/*
 * Validate the @n tasks @ut (copied in) for @s and make the batch, after a
 * task holding the in-fences @gate if there is one (it takes a reference);
 * on error no task and no reference is kept (the batch itself may stay as
 * the stream's spare).
 */
static int hcclt_batch_prepare(struct hcclt_prep *pp, struct hcclt_stream *s,
			       const struct drm_hcclt_task *ut, u32 n,
			       struct hcclt_gate *gate,
			       struct hcclt_batch **out)
{
	u32 first = gate ? 1 : 0, total = n + first, made, i;
	struct hcclt_batch *batch;
	int ret = 0;

	batch = hcclt_batch_get(s, total);
	if (!batch)
		return -ENOMEM;
	if (gate) {
		memset(&batch->tasks[0], 0, sizeof(batch->tasks[0]));
		batch->tasks[0].op = HCCLT_TASK_IN_FENCES;
		batch->tasks[0].engine = pp->thread ? pp->thread->engine :
					 HCCLT_ENGINE_CPU;
		batch->tasks[0].gate = hcclt_gate_get(gate);
		batch->tasks[0].batch = batch;
		batch->tasks[0].last = !n;
	}
	for (made = first; made < total; made++) {
		ret = hcclt_task_prepare(pp, &ut[made - first],
					 &batch->tasks[made]);
		if (ret)
			break;
		batch->tasks[made].batch = batch;
		batch->tasks[made].last = made == total - 1;
	}
	if (ret) {
		for (i = 0; i < made; i++)
			hcclt_task_unprepare(s, &batch->tasks[i]);
		hcclt_batch_put(s, batch);
		return ret;
	}
	*out = batch;
	return 0;
}

/*
 * Queue a prepared batch (may be NULL: fence only) and an optional fence on
 * @s, then run what is runnable. On success the batch and the fence's list
 * reference belong to the stream, and @args has the batch's last seqno and
 * the stream's status. Return: 0, -ENOENT (the stream or @thread died
 * meanwhile), -EBUSY (queue full).
 */
/* Nothing for STREAM_SYNC to wait for or report? sched_lock held. */
static bool hcclt_stream_idle(struct hcclt_stream *s)
{
	return s->done_seqno == s->submit_seqno && !s->error &&
	       s->state != HCCLT_STREAM_DEAD;
}

static int hcclt_batch_queue(struct hcclt_stream *s,
			     struct hcclt_thread *thread,
			     struct hcclt_batch *batch,
			     struct hcclt_fence *fence,
			     struct drm_hcclt_submit *args)
{
	struct hcclt_device *hdev = s->hdev;
	u32 n = batch ? batch->count : 0, i;
	unsigned long kick;

	spin_lock_bh(&hdev->sched_lock);
	if (s->state == HCCLT_STREAM_DEAD || (thread && thread->dead)) {
		spin_unlock_bh(&hdev->sched_lock);
		return -ENOENT;
	}
	/* Stopped at a failed task (HCCLT_FAILURE_STOP): for good. */
	if (s->stopped) {
		spin_unlock_bh(&hdev->sched_lock);
		return -ECANCELED;
	}
	/* Fences count too: fence-only submits would add them unbounded. */
	if (n > HCCLT_MAX_QUEUE_DEPTH - s->depth ||
	    (fence && s->nfences >= HCCLT_MAX_QUEUE_DEPTH)) {
		spin_unlock_bh(&hdev->sched_lock);
		return -EBUSY;
	}
	if (n)
		trace_hcclt_submit(hdev->index, s->slot, s->id, args->handle,
				   s->submit_seqno + 1, n);
	for (i = 0; i < n; i++) {
		batch->tasks[i].seqno = s->submit_seqno + 1;
		WRITE_ONCE(s->submit_seqno, s->submit_seqno + 1);
		list_add_tail(&batch->tasks[i].node, &s->tasks);
		if (hcclt_task_records(&batch->tasks[i]))
			atomic_inc(&batch->tasks[i].notify->records);
		/*
		 * A record is the event's next; a wait waits for all so far
		 * (a reset's number is not used).
		 */
		if (batch->tasks[i].event)
			batch->tasks[i].ev_seq =
				batch->tasks[i].op == HCCLT_TASK_EVENT_RECORD ?
				++batch->tasks[i].event->recorded :
				batch->tasks[i].event->recorded;
	}
	s->depth += n;
	args->seqno = s->submit_seqno;
	if (fence) {
		fence->last = s->submit_seqno;
		fence->first = n ? s->submit_seqno - n + 1 : s->submit_seqno;
		if (s->done_seqno >= s->submit_seqno) {
			hcclt_fence_done(s, fence);
		} else {
			/* The oldest fence's deadline arms the timer. */
			fence->deadline = hcclt_fence_deadline();
			if (list_empty(&s->fences))
				mod_timer(&s->fence_timer, fence->deadline);
			dma_fence_get(&fence->base);
			list_add_tail(&fence->node, &s->fences);
			s->nfences++;
		}
	}
	if (n && !hcclt_hw_submit(hdev, s))
		hcclt_make_runnable(hdev, s);
	hdev->xdirect = true;
	hcclt_run_kick_locked(hdev, HCCLT_INLINE_BUDGET);
	hdev->xdirect = false;
	kick = READ_ONCE(hdev->xkick);
	/* What STREAM_SYNC would see now: nothing to wait for or report. */
	if (!kick && hcclt_stream_idle(s))
		args->status |= HCCLT_SUBMIT_STATUS_IDLE;
	spin_unlock_bh(&hdev->sched_lock);
	if (!kick)
		return 0;
	/* Channel records of this run: straight to the peers' waits. */
	hcclt_xrec_kick(hdev);
	spin_lock_bh(&hdev->sched_lock);
	if (hcclt_stream_idle(s))
		args->status |= HCCLT_SUBMIT_STATUS_IDLE;
	spin_unlock_bh(&hdev->sched_lock);
	return 0;
}

/*
 * SUBMIT with its @tasks copied in (@args checked), its in-fences @gate
 * and out-syncobjs @outs looked up (either may be NULL).
 */
static int hcclt_submit(struct drm_file *df, struct drm_hcclt_submit *args,
			const struct drm_hcclt_task *tasks,
			struct hcclt_gate *gate, struct hcclt_outsync *outs)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_prep pp = { .file = file, .df = file->df,
				 .handle = args->handle };
	struct sync_file *sync_file = NULL;
	struct hcclt_fence *fence = NULL;
	struct hcclt_batch *batch = NULL;
	struct hcclt_stream *s;
	u32 n = args->task_count, i;
	bool fence_out = args->flags & HCCLT_SUBMIT_FENCE_OUT;
	bool want_fence = fence_out || outs;
	bool fence_locked = false;
	int fd = -1, ret;

	if (hcclt_id_kind(args->handle) == HCCLT_ID_KIND_THREAD) {
		pp.thread = hcclt_thread_lookup(file, args->handle);
		if (!pp.thread)
			return -ENOENT;
		s = pp.thread->stream;
		kref_get(&s->ref);
	} else {
		s = hcclt_stream_lookup(file, args->handle);
		if (!s)
			return -ENOENT;
	}

	if (n || gate) {
		ret = hcclt_batch_prepare(&pp, s, tasks, n, gate, &batch);
		if (ret)
			goto out;
	}

	if (want_fence) {
		/* Until queued: fences are queued in seqno order. */
		mutex_lock(&s->fence_lock);
		fence_locked = true;
		fence = hcclt_fence_new(s);
		if (!fence) {
			ret = -ENOMEM;
			goto out;
		}
	}
	if (fence_out) {
		sync_file = sync_file_create(&fence->base);
		if (!sync_file) {
			ret = -ENOMEM;
			goto out;
		}
		fd = get_unused_fd_flags(O_CLOEXEC);
		if (fd < 0) {
			ret = fd;
			goto out;
		}
	}

	ret = hcclt_batch_queue(s, pp.thread, batch, fence, args);
	if (fence_locked)
		mutex_unlock(&s->fence_lock);
	fence_locked = false;
	if (ret)
		goto out;
	batch = NULL;
	args->stream_id = s->id;
	if (outs)
		hcclt_outsyncs_signal(outs, args->out_sync_count, &fence->base);

	if (sync_file) {
		fd_install(fd, sync_file->file);
		args->fence_fd = fd;
		fd = -1;
		sync_file = NULL;
	}
	ret = 0;
out:
	if (fence_locked)
		mutex_unlock(&s->fence_lock);
	if (fd >= 0)
		put_unused_fd(fd);
	if (sync_file)
		fput(sync_file->file);
	if (fence)
		dma_fence_put(&fence->base);
	if (batch) {
		for (i = 0; i < batch->count; i++)
			hcclt_task_unprepare(s, &batch->tasks[i]);
		hcclt_batch_put(s, batch);
	}
	if (pp.peer_buf)
		drm_gem_object_put(pp.peer_buf);
	hcclt_thread_put(pp.dst);
	hcclt_channel_put(pp.chan);
	hcclt_thread_put(pp.thread);
	hcclt_stream_put(s);
	return ret;
}

/*
 * Tasks of the 1.0 size were copied in packed at the start of @tasks:
 * spread them out to the current struct, the fields they lack zero. From
 * the last one down, so that none is overwritten before it moved.
 */
static void hcclt_tasks_widen(struct drm_hcclt_task *tasks, u32 n, u32 size)
{
	u32 i;

	if (size == sizeof(*tasks))
		return;
	for (i = n; i-- > 0;) {
		memmove(&tasks[i], (u8 *)tasks + (size_t)i * size, size);
		memset((u8 *)&tasks[i] + size, 0, sizeof(*tasks) - size);
	}
}

/*
 * The tasks are copied in before drm_dev_enter(), as ivpu's submit does: a
 * fault that userspace can stall (FUSE, userfaultfd) must not hold up
 * drm_dev_unplug(), and an ordinary copy_from_user() faults in whatever
 * pages a valid buffer lost (reclaim, COW, MADV_DONTNEED).
 */
int hcclt_submit_ioctl(struct drm_device *drm, void *data,
		       struct drm_file *df)
{
	struct drm_hcclt_submit *args = data;
	struct drm_hcclt_task onstack[HCCLT_TASK_ONSTACK], *tasks = onstack;
	struct hcclt_outsync *outs = NULL;
	struct hcclt_gate *gate = NULL;
	u32 n = args->task_count;
	int idx, ret;

	args->fence_fd = -1;
	args->stream_id = 0;
	args->status = 0;
	if ((args->flags & ~(HCCLT_SUBMIT_FENCE_OUT | HCCLT_SUBMIT_FENCE_IN)) ||
	    args->pad || args->pad2 ||
	    (args->in_fence_fd && !(args->flags & HCCLT_SUBMIT_FENCE_IN)) ||
	    args->in_sync_count > HCCLT_MAX_SYNCS ||
	    args->out_sync_count > HCCLT_MAX_SYNCS)
		return -EINVAL;
	if (n > HCCLT_MAX_BATCH ||
	    (!n && !args->flags && !args->in_sync_count &&
	     !args->out_sync_count) ||
	    (args->task_size != sizeof(struct drm_hcclt_task) &&
	     args->task_size != HCCLT_TASK_SIZE_V1))
		return -EINVAL;

	if (n > ARRAY_SIZE(onstack)) {
		tasks = kmalloc_array(n, sizeof(*tasks), GFP_KERNEL);
		if (!tasks)
			return -ENOMEM;
	}
	if (copy_from_user(tasks, u64_to_user_ptr(args->tasks_ptr),
			   n * args->task_size)) {
		ret = -EFAULT;
		goto out_free;
	}
	hcclt_tasks_widen(tasks, n, args->task_size);
	/* Syncobjs and sync_files are the DRM core's, not the device's. */
	if (args->in_sync_count || (args->flags & HCCLT_SUBMIT_FENCE_IN)) {
		ret = hcclt_gate_new(df, args, &gate);
		if (ret)
			goto out_free;
	}
	if (args->out_sync_count) {
		ret = hcclt_outsyncs_new(df, args, &outs);
		if (ret)
			goto out_free;
	}
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_free;
	}
	ret = hcclt_submit(df, args, tasks, gate, outs);
	drm_dev_exit(idx);
out_free:
	if (outs)
		hcclt_outsyncs_free(outs, args->out_sync_count);
	if (gate)
		hcclt_gate_put(gate);
	if (tasks != onstack)
		kfree(tasks);
	return ret;
}

/* KUnit tests of the static helpers above, with HCCLT_KUNIT=1 (Kbuild). */
#ifdef HCCLT_KUNIT
#include "tests/hcclt_sched_test.c"
#endif
