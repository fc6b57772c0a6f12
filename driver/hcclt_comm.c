// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: communicators, the per-communicator quota, and threads
 * (HcclThreadAcquire, HcclThreadAcquireWithStream,
 * HcclThreadExportToCommEngine).
 *
 * Every call that changes a communicator holds comm->lock from its quota
 * check to its commit, reserves device pool units up front, creates its
 * objects unpublished (in the id tables but not live, invisible to
 * lookups), copies ids to userspace, and only then publishes and counts
 * them. Any failure, also of the write of the ids (done with no lock held,
 * see "output ids" below), undoes everything: no counter moves.
 */

#include <linux/nospec.h>
#include <linux/pid.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "hcclt_drv.h"
#include "hcclt_trace.h"

/* ---- notifies ---- */

void hcclt_notify_release(struct kref *ref)
{
	struct hcclt_notify *n = container_of(ref, struct hcclt_notify, ref);

	put_pid(n->peer_pid);
	hcclt_link_put(n->rlink);
	kfree(n->group);
	kfree(n);
}

/*
 * A proxy of notify @idx of a channel's peer on another host, whose
 * records go over @link (a reference is taken): no slot, no pool unit.
 */
struct hcclt_notify *hcclt_notify_proxy_new(struct hcclt_device *hdev,
					    struct hcclt_link *link, u32 idx)
{
	struct hcclt_notify *notify;

	notify = kzalloc(sizeof(*notify), GFP_KERNEL_ACCOUNT);
	if (!notify)
		return NULL;
	kref_init(&notify->ref);
	INIT_LIST_HEAD(&notify->xnode);
	INIT_LIST_HEAD(&notify->waiters);
	notify->hdev = hdev;
	notify->idx = idx;
	notify->chan = true;
	notify->rlink = hcclt_link_ref(link);
	return notify;
}

/* A new notify taking one notify unit of @resv. */
struct hcclt_notify *hcclt_notify_new(struct hcclt_device *hdev,
				      u64 owner_id, u32 idx,
				      struct hcclt_resv *resv)
{
	struct hcclt_notify *notify;
	int ret;

	if (WARN_ON(!resv->notifies))
		return ERR_PTR(-ENOSPC);
	notify = kzalloc(sizeof(*notify), GFP_KERNEL_ACCOUNT);
	if (!notify)
		return ERR_PTR(-ENOMEM);
	kref_init(&notify->ref);
	INIT_LIST_HEAD(&notify->xnode);
	INIT_LIST_HEAD(&notify->waiters);
	notify->hdev = hdev;
	notify->owner_id = owner_id;
	notify->idx = idx;
	ret = hcclt_hw_notify_slot_alloc(hdev, &notify->slot);
	if (ret) {
		kfree(notify);
		return ERR_PTR(ret);
	}
	notify->acct = hcclt_acct_get(resv->acct);
	resv->notifies--;
	return notify;
}

/* Give the notify's slot and pool unit back; it is never used again. */
void hcclt_notify_drop_slot(struct hcclt_notify *notify)
{
	struct hcclt_device *hdev = notify->hdev;

	hcclt_hw_notify_slot_free(hdev, notify->slot);
	hcclt_pool_unreserve(hdev, notify->acct, 0, 1);
	hcclt_acct_put(notify->acct);
	notify->acct = NULL;
}

/* ---- threads ---- */

/* A notify block of @cap entries, or NULL. */
static struct hcclt_notify_block *hcclt_notify_block_new(u32 cap)
{
	struct hcclt_notify_block *blk;

	blk = kvzalloc(struct_size(blk, n, cap), GFP_KERNEL_ACCOUNT);
	return blk;
}

/* Free @blk and every block it replaced. */
static void hcclt_notify_blocks_free(struct hcclt_notify_block *blk)
{
	struct hcclt_notify_block *prev;

	for (; blk; blk = prev) {
		prev = blk->prev;
		kvfree(blk);
	}
}

void hcclt_thread_release(struct kref *ref)
{
	struct hcclt_thread *thread = container_of(ref, struct hcclt_thread,
						   ref);
	u32 i;

	if (thread->primary) {
		hcclt_thread_put(thread->primary);
	} else {
		for (i = 0; i < thread->notify_num; i++)
			hcclt_notify_put(thread->notifies[i]);
	}
	hcclt_stream_put(thread->stream);
	hcclt_comm_put(thread->comm);
	hcclt_notify_blocks_free(thread->notify_blk);
	hcclt_obj_free(HCCLT_OBJ_THREAD, thread);
}

/**
 * hcclt_thread_lookup_owner - find the thread a stream id was derived from.
 * @file: the file.
 * @stream_id: id of a thread's own stream (HCCLT_ID_OWNED set).
 *
 * The caller checks that the thread's stream has @stream_id: a view or a
 * wrapping thread can be found here too.
 *
 * Return: the thread with a reference held, or NULL.
 */
struct hcclt_thread *hcclt_thread_lookup_owner(struct hcclt_file *file,
					       u64 stream_id)
{
	/* The thread's id but for the kind and the top sequence bit. */
	return hcclt_thread_get(file, stream_id, HCCLT_ID_OWNED - 1);
}

/*
 * An unpublished thread (id reserved) of @comm with room for @cap notifies;
 * no stream yet.
 */
static struct hcclt_thread *hcclt_thread_new(struct hcclt_comm *comm,
					     u32 engine, u32 flags, u32 cap)
{
	struct hcclt_thread *thread;
	int ret;

	thread = hcclt_obj_alloc(HCCLT_OBJ_THREAD);
	if (!thread)
		return ERR_PTR(-ENOMEM);
	thread->notifies = thread->notify_inline;
	if (cap > ARRAY_SIZE(thread->notify_inline)) {
		thread->notify_blk = hcclt_notify_block_new(cap);
		if (!thread->notify_blk) {
			ret = -ENOMEM;
			goto err_free;
		}
		thread->notifies = thread->notify_blk->n;
	}
	thread->notify_cap = cap;
	thread->file = comm->file;
	INIT_LIST_HEAD(&thread->node);
	thread->engine = engine;
	thread->flags = flags;
	ret = hcclt_id_reserve(&comm->file->threads, HCCLT_ID_KIND_THREAD,
			       thread, &thread->id);
	if (ret)
		goto err_free;
	kref_init(&thread->ref);
	kref_get(&comm->ref);
	thread->comm = comm;
	return thread;

err_free:
	hcclt_notify_blocks_free(thread->notify_blk);
	hcclt_obj_free_now(HCCLT_OBJ_THREAD, thread);
	return ERR_PTR(ret);
}

/*
 * Grow a primary's notifies to @want, taking units from @resv. Caller holds
 * comm->lock. On failure the thread is as before.
 *
 * Only a wrapping thread grows past its @notify_cap: it starts with the
 * inline entries (most wrap with 0 to 2 notifies) and moves to a block of
 * twice its entries (at least @want, at most the rule set's bound for a
 * wrapping thread), published before the count that makes the new entries
 * usable. A submit that read the old count may still read the old array
 * below it: its entries stay as they were, and the old array (inline, or a
 * block chained to the new one) lives as long as the thread.
 */
static int hcclt_thread_grow(struct hcclt_thread *thread, u32 want,
			     struct hcclt_resv *resv)
{
	const struct hcclt_quota_rules *r = hcclt_quota();
	struct hcclt_device *hdev = thread->comm->file->hdev;
	struct hcclt_notify **arr = thread->notifies;
	struct hcclt_notify_block *blk = NULL;
	struct hcclt_notify *notify;
	u32 cur = thread->notify_num;
	u32 bound, cap, i;

	if (want > thread->notify_cap) {
		bound = r->flags & HCCLT_QUOTA_F_WRAPPED_COUNTED ?
			r->max_notifies : r->max_wrapped;
		if (WARN_ON(!(thread->flags & HCCLT_THREAD_WRAPPED) ||
			    want > bound))
			return -EDQUOT;
		cap = clamp_t(u64, 2ULL * thread->notify_cap, want, bound);
		blk = hcclt_notify_block_new(cap);
		if (!blk)
			return -ENOMEM;
		memcpy(blk->n, thread->notifies, cur * sizeof(*blk->n));
		arr = blk->n;
	}
	for (i = cur; i < want; i++) {
		notify = hcclt_notify_new(hdev, thread->id, i, resv);
		if (IS_ERR(notify))
			goto undo;
		arr[i] = notify;
	}
	if (blk) {
		blk->prev = thread->notify_blk;
		thread->notify_blk = blk;
		/* Pairs with the acquire of notify_num by its readers. */
		smp_store_release(&thread->notifies, arr);
		thread->notify_cap = cap;
	}
	/* Publish the pointers before the count that makes them usable. */
	smp_store_release(&thread->notify_num, want);
	hcclt_usage_count(thread->comm->file->usage, 0, 0, want - cur);
	return 0;

undo:
	while (i-- > cur) {
		hcclt_notify_drop_slot(arr[i]);
		hcclt_notify_put(arr[i]);
		arr[i] = NULL;
	}
	kvfree(blk);
	return PTR_ERR(notify);
}

/*
 * Undo a thread that was never published: nothing uses it but the caller. For
 * a primary its notifies' units go back to the pool; its (owned) stream's
 * unit goes back with the last stream reference.
 */
static void hcclt_thread_discard(struct hcclt_thread *thread)
{
	struct hcclt_file *file = thread->comm->file;
	u32 i;

	hcclt_id_remove(&file->threads, thread->id);
	if (!thread->primary) {
		for (i = 0; i < thread->notify_num; i++)
			hcclt_notify_drop_slot(thread->notifies[i]);
		hcclt_usage_count(file->usage, 0, 0, -(int)thread->notify_num);
	}
	hcclt_thread_put(thread);
}

/*
 * Make a created thread (and so its own stream, found through it) visible
 * to lookups.
 */
static void hcclt_thread_publish(struct hcclt_thread *thread)
{
	if (!thread->primary)
		hcclt_usage_count(thread->file->usage, 1, 0, 0);
	hcclt_obj_publish(&thread->live);
}

/*
 * Destroy a published primary and its views. Caller holds comm->lock; the
 * thread is unlinked from comm->threads by the caller.
 */
static void hcclt_thread_kill(struct hcclt_thread *thread)
{
	struct hcclt_file *file = thread->comm->file;
	struct hcclt_thread *view;
	int e;
	u32 i;

	for (e = 0; e < HCCLT_ENGINE_COUNT; e++)
		if (thread->views[e])
			hcclt_id_remove(&file->threads, thread->views[e]->id);
	hcclt_id_remove(&file->threads, thread->id);

	/* Mark everything dead and cancel the stream's queued work. */
	hcclt_sched_thread_kill(thread);

	for (i = 0; i < thread->notify_num; i++)
		hcclt_notify_drop_slot(thread->notifies[i]);
	hcclt_usage_count(file->usage, -1, 0, -(int)thread->notify_num);

	for (e = 0; e < HCCLT_ENGINE_COUNT; e++) {
		view = thread->views[e];
		thread->views[e] = NULL;
		hcclt_thread_put(view);
	}
	hcclt_thread_put(thread);
}

/* ---- communicators ---- */

static void hcclt_comm_release(struct kref *ref)
{
	struct hcclt_comm *comm = container_of(ref, struct hcclt_comm, ref);

	mutex_destroy(&comm->lock);
	xa_destroy(&comm->memregs);
	hcclt_obj_free(HCCLT_OBJ_COMM, comm);
}

void hcclt_comm_put(struct hcclt_comm *comm)
{
	if (comm)
		kref_put(&comm->ref, hcclt_comm_release);
}

/**
 * hcclt_comm_lookup - find a communicator by id.
 * @file: the file.
 * @id: communicator id.
 *
 * Return: the communicator with a reference held, or NULL.
 */
struct hcclt_comm *hcclt_comm_lookup(struct hcclt_file *file, u64 id)
{
	struct hcclt_comm *comm;

	rcu_read_lock();
	comm = hcclt_id_peek(&file->comms, HCCLT_ID_KIND_COMM, id);
	if (comm && (!hcclt_obj_is(&comm->live, &comm->id, id, ~0ULL) ||
		     !kref_get_unless_zero(&comm->ref)))
		comm = NULL;
	rcu_read_unlock();
	return comm;
}

/**
 * hcclt_comm_new - an unpublished communicator of @file (id reserved,
 * invisible to lookups until hcclt_comm_publish()).
 * @file: the file.
 *
 * It is charged to the file's account (hcclt_limits.c) until it is
 * discarded or torn down.
 *
 * Return: the communicator or an ERR_PTR(); undo with hcclt_comm_discard().
 */
struct hcclt_comm *hcclt_comm_new(struct hcclt_file *file)
{
	struct hcclt_comm *comm;
	int ret;

	ret = hcclt_charge(file->acct, HCCLT_RES_COMMS, 1);
	if (ret)
		return ERR_PTR(ret);
	comm = hcclt_obj_alloc(HCCLT_OBJ_COMM);
	if (!comm) {
		hcclt_uncharge(file->acct, HCCLT_RES_COMMS, 1);
		return ERR_PTR(-ENOMEM);
	}
	mutex_init(&comm->lock);
	INIT_LIST_HEAD(&comm->threads);
	xa_init_flags(&comm->memregs, XA_FLAGS_ALLOC1);
	hcclt_channel_comm_init(comm);
	comm->file = file;
	ret = hcclt_id_reserve(&file->comms, HCCLT_ID_KIND_COMM, comm,
			       &comm->id);
	if (ret) {
		mutex_destroy(&comm->lock);
		hcclt_obj_free_now(HCCLT_OBJ_COMM, comm);
		hcclt_uncharge(file->acct, HCCLT_RES_COMMS, 1);
		return ERR_PTR(ret);
	}
	kref_init(&comm->ref);
	return comm;
}

/*
 * Undo hcclt_comm_new() of a communicator never published. It leaves the
 * table under file->lock, as every communicator does: COMM_DESTROY and the
 * INFO walks rely on that to find only live objects of their own file.
 */
void hcclt_comm_discard(struct hcclt_comm *comm)
{
	struct hcclt_file *file = comm->file;

	mutex_lock(&file->lock);
	hcclt_id_remove(&file->comms, comm->id);
	mutex_unlock(&file->lock);
	hcclt_uncharge(file->acct, HCCLT_RES_COMMS, 1);
	hcclt_comm_put(comm);
}

/*
 * Make a communicator of hcclt_comm_new() visible. Once published, a
 * COMM_DESTROY of another thread may free it.
 */
void hcclt_comm_publish(struct hcclt_comm *comm)
{
	struct hcclt_file *file = comm->file;

	mutex_lock(&file->lock);
	hcclt_obj_publish(&comm->live);
	atomic_inc(&file->hdev->ncomms);
	atomic_inc(&file->ncomms);
	mutex_unlock(&file->lock);
}

int hcclt_comm_create_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_comm_create *args = data;
	struct hcclt_comm *comm;

	if (args->flags || args->pad) {
		drm_dbg_driver(drm, "COMM_CREATE: flags %#x pad %#x\n",
			       args->flags, args->pad);
		return -EINVAL;
	}

	comm = hcclt_comm_new(file);
	if (IS_ERR(comm))
		return PTR_ERR(comm);
	args->comm_id = comm->id;
	hcclt_comm_publish(comm);
	return 0;
}

/* Destroy every thread of a communicator already removed from its table. */
static void hcclt_comm_teardown(struct hcclt_comm *comm)
{
	struct hcclt_thread *thread, *tmp;

	mutex_lock(&comm->lock);
	comm->dead = true;
	list_for_each_entry_safe(thread, tmp, &comm->threads, node) {
		list_del_init(&thread->node);
		hcclt_thread_kill(thread);
	}
	comm->threads_used = 0;
	comm->notifies_used = 0;
	comm->thread_count = 0;
	mutex_unlock(&comm->lock);
	hcclt_comm_buffer_drop(comm);
	hcclt_memreg_comm_gone(comm);
	if (comm->group) {
		/* Channels first: they look the rank up in its group. */
		hcclt_channel_comm_gone(comm);
		hcclt_group_comm_gone(comm);
	}
	atomic_dec(&comm->file->hdev->ncomms);
	atomic_dec(&comm->file->ncomms);
	hcclt_uncharge(comm->file->acct, HCCLT_RES_COMMS, 1);
}

int hcclt_comm_destroy_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_comm_destroy *args = data;
	struct hcclt_comm *comm;
	void *old;

	if (args->flags || args->pad) {
		drm_dbg_driver(drm, "COMM_DESTROY: flags %#x pad %#x\n",
			       args->flags, args->pad);
		return -EINVAL;
	}

	mutex_lock(&file->lock);
	comm = hcclt_id_peek(&file->comms, HCCLT_ID_KIND_COMM, args->comm_id);
	if (!comm || !comm->live || comm->id != args->comm_id) {
		mutex_unlock(&file->lock);
		return -ENOENT;
	}
	old = xa_erase(&file->comms.xa, hcclt_id_index(comm->id));
	WARN_ON(old != comm);
	hcclt_comm_teardown(comm);
	mutex_unlock(&file->lock);

	hcclt_comm_put(comm);
	return 0;
}

/* postclose: destroy every communicator of the file. */
void hcclt_file_destroy_comms(struct hcclt_file *file)
{
	struct hcclt_comm *comm;
	unsigned long idx;

	mutex_lock(&file->lock);
	xa_for_each(&file->comms.xa, idx, comm) {
		xa_erase(&file->comms.xa, idx);
		hcclt_comm_teardown(comm);
		hcclt_comm_put(comm);
	}
	mutex_unlock(&file->lock);
}

/* ---- output ids ---- */

/*
 * THREAD_ACQUIRE and THREAD_EXPORT write the new ids to userspace with no
 * lock held and outside drm_dev_enter(): a fault that userspace can stall
 * (a FUSE mapping, userfaultfd) must hold neither comm->lock, which INFO,
 * debugfs and the file's close wait for, nor drm_dev_unplug(). The write
 * is an ordinary copy_to_user(): a valid buffer whose pages are gone
 * (reclaim, COW, MADV_DONTNEED) is faulted in and the call succeeds.
 *
 * ACQUIRE runs in three steps: under comm->lock it checks, counts the
 * quota and creates its threads unpublished (invisible to lookups); with
 * no lock it writes their ids; under comm->lock again it publishes them,
 * or, when the write failed, the device went away or the communicator was
 * destroyed meanwhile, discards them and gives the quota back.
 */

/**
 * struct hcclt_acquire - one THREAD_ACQUIRE between its steps.
 * @comm: the communicator (reference held).
 * @made: the new, unpublished threads, linked by their node.
 * @resv: pool units reserved and not yet used.
 * @ids: the new threads' ids, in the order of @made (allocated, @n
 *	entries; the rule set's thread count per call is too many for the
 *	stack).
 * @n: threads made.
 * @npt: notifies per thread.
 */
struct hcclt_acquire {
	struct hcclt_comm *comm;
	struct list_head made;
	struct hcclt_resv resv;
	u64 *ids;
	u32 n;
	u32 npt;
};

/* Discard @acq's threads and give their pool units back; comm->lock held. */
static void hcclt_acquire_undo(struct hcclt_file *file,
			       struct hcclt_acquire *acq)
{
	struct hcclt_thread *thread, *tmp;

	list_for_each_entry_safe(thread, tmp, &acq->made, node) {
		list_del_init(&thread->node);
		hcclt_thread_discard(thread);
	}
	hcclt_pool_unreserve(file->hdev, file->acct, acq->resv.streams,
			     acq->resv.notifies);
}

/*
 * Step one: check, count the quota, create the threads unpublished.
 * Return: 0 with @acq filled in, or an error with nothing changed.
 */
static int hcclt_thread_acquire_prepare(struct hcclt_file *file,
					struct drm_hcclt_thread_acquire *args,
					struct hcclt_acquire *acq)
{
	const struct hcclt_quota_rules *r = hcclt_quota();
	struct hcclt_device *hdev = file->hdev;
	struct hcclt_comm *comm = acq->comm;
	struct hcclt_thread *thread;
	struct hcclt_stream *stream;
	u32 n = args->thread_num, npt = args->notify_num_per_thread, i;
	int ret;

	if (args->engine >= HCCLT_ENGINE_COUNT || !n) {
		drm_dbg_driver(&hdev->drm, "ACQUIRE: engine %u thread_num %u\n",
			       args->engine, n);
		return -EINVAL;
	}
	/* The rule set's argument checks (none under the seed rules). */
	ret = hcclt_quota_args(r, n, npt);
	if (ret) {
		drm_dbg_driver(&hdev->drm,
			       "ACQUIRE: thread_num %u notify_num_per_thread %u (%s rules)\n",
			       n, npt, r->name);
		return ret;
	}
	/* An argument check: before the quota, which is state. */
	if (args->engine == HCCLT_ENGINE_AIV) {
		drm_dbg_driver(&hdev->drm, "ACQUIRE: engine AIV\n");
		return -EOPNOTSUPP;
	}
	/* Checked against the quota first: n is bounded here. */
	if (hcclt_quota_check(r, 0, 0, n, npt))
		return -EDQUOT;
	acq->ids = kvmalloc_array(n, sizeof(*acq->ids), GFP_KERNEL_ACCOUNT);
	if (!acq->ids)
		return -ENOMEM;

	mutex_lock(&comm->lock);
	if (comm->dead) {
		ret = -ENOENT;
		goto out_unlock;
	}
	ret = hcclt_quota_check(r, comm->threads_used, comm->notifies_used, n,
				npt);
	if (ret)
		goto out_unlock;
	ret = hcclt_pool_reserve(hdev, file->acct, n, n * npt);
	if (ret)
		goto out_unlock;
	acq->resv.acct = file->acct;
	acq->resv.streams = n;
	acq->resv.notifies = n * npt;

	for (i = 0; i < n; i++) {
		thread = hcclt_thread_new(comm, args->engine, 0, npt);
		if (IS_ERR(thread)) {
			ret = PTR_ERR(thread);
			goto out_undo;
		}
		list_add_tail(&thread->node, &acq->made);
		acq->ids[i] = thread->id;
		stream = hcclt_stream_new(file, thread->id, &acq->resv);
		if (IS_ERR(stream)) {
			ret = PTR_ERR(stream);
			goto out_undo;
		}
		thread->stream = stream;
		ret = hcclt_thread_grow(thread, npt, &acq->resv);
		if (ret)
			goto out_undo;
	}
	/* Counted now, so that concurrent calls see the quota taken. */
	comm->threads_used += n;
	comm->notifies_used += n * npt;
	acq->n = n;
	acq->npt = npt;
	mutex_unlock(&comm->lock);
	return 0;

out_undo:
	hcclt_acquire_undo(file, acq);
out_unlock:
	mutex_unlock(&comm->lock);
	return ret;
}

/*
 * Step three: publish @acq's threads, or (@ret non-zero, or the
 * communicator died meanwhile) undo step one. Return: the call's result.
 */
static int hcclt_thread_acquire_finish(struct hcclt_file *file,
				       struct hcclt_acquire *acq, u32 engine,
				       int ret)
{
	struct hcclt_comm *comm = acq->comm;
	struct hcclt_thread *thread;

	mutex_lock(&comm->lock);
	if (!ret && comm->dead)
		ret = -ENOENT;
	if (ret) {
		/* A destroyed communicator's counters are already zero. */
		if (!comm->dead) {
			comm->threads_used -= acq->n;
			comm->notifies_used -= acq->n * acq->npt;
		}
		hcclt_acquire_undo(file, acq);
		mutex_unlock(&comm->lock);
		return ret;
	}
	list_for_each_entry(thread, &acq->made, node) {
		hcclt_thread_publish(thread);
		trace_hcclt_acquire(file->hdev->index, comm->id, thread->id,
				    thread->stream->id, engine, acq->npt, 0);
	}
	list_splice_tail_init(&acq->made, &comm->threads);
	comm->thread_count += acq->n;
	mutex_unlock(&comm->lock);
	return 0;
}

/* ---- HcclThreadAcquire ---- */

int hcclt_thread_acquire_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_thread_acquire *args = data;
	struct hcclt_acquire acq = { .made = LIST_HEAD_INIT(acq.made) };
	int idx, ret;

	if (args->flags) {
		drm_dbg_driver(drm, "ACQUIRE: flags %#x\n", args->flags);
		return -EINVAL;
	}
	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;
	acq.comm = hcclt_comm_lookup(file, args->comm_id);
	ret = acq.comm ? hcclt_thread_acquire_prepare(file, args, &acq) :
			 -ENOENT;
	drm_dev_exit(idx);
	if (ret)
		goto out_put;

	/* No lock held, nothing entered: this may fault and wait. */
	if (copy_to_user(u64_to_user_ptr(args->threads_ptr), acq.ids,
			 acq.n * sizeof(*acq.ids)))
		ret = -EFAULT;

	if (!drm_dev_enter(drm, &idx)) {
		ret = hcclt_thread_acquire_finish(file, &acq, args->engine,
						  -ENODEV);
		goto out_put;
	}
	ret = hcclt_thread_acquire_finish(file, &acq, args->engine, ret);
	drm_dev_exit(idx);
out_put:
	kvfree(acq.ids);
	hcclt_comm_put(acq.comm);
	return ret;
}

/* ---- HcclThreadAcquireWithStream ---- */

int hcclt_thread_acquire_with_stream_ioctl(struct drm_device *drm,
					   void *data, struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_device *hdev = file->hdev;
	struct drm_hcclt_thread_acquire_with_stream *args = data;
	const struct hcclt_quota_rules *r = hcclt_quota();
	struct hcclt_thread *thread = NULL, *t;
	struct hcclt_resv resv = {};
	struct hcclt_stream *stream = NULL;
	struct hcclt_comm *comm;
	bool fresh = false, host;
	u32 add;
	int ret;

	if (args->flags || args->pad) {
		drm_dbg_driver(drm, "ACQUIRE_WITH_STREAM: flags %#x pad %#x\n",
			       args->flags, args->pad);
		return -EINVAL;
	}
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	stream = hcclt_stream_lookup(file, args->stream_id);
	if (!stream || !stream->created) {
		ret = -ENOENT;
		goto out_put;
	}
	/*
	 * A host engine is needed for a new thread only; the rule sets of
	 * HCCLT_QUOTA_F_WRAP_CACHED_FIRST return the existing one first.
	 */
	host = args->engine < HCCLT_ENGINE_COUNT &&
	       (BIT(args->engine) & HCCLT_STREAM_ENGINES);
	if (args->engine >= HCCLT_ENGINE_COUNT ||
	    (!host && !(r->flags & HCCLT_QUOTA_F_WRAP_CACHED_FIRST))) {
		drm_dbg_driver(drm, "ACQUIRE_WITH_STREAM: engine %u\n",
			       args->engine);
		ret = -EINVAL;
		goto out_put;
	}

	mutex_lock(&comm->lock);
	if (comm->dead) {
		ret = -ENOENT;
		goto out_unlock;
	}
	list_for_each_entry(t, &comm->threads, node) {
		if ((t->flags & HCCLT_THREAD_WRAPPED) && t->stream == stream) {
			thread = t;
			break;
		}
	}
	if (!thread && !host) {
		drm_dbg_driver(drm, "ACQUIRE_WITH_STREAM: engine %u\n",
			       args->engine);
		ret = -EINVAL;
		goto out_unlock;
	}
	/* Another engine gets the existing thread (as hcomm). */
	ret = hcclt_quota_wrap(r, comm->notifies_used,
			       thread ? thread->notify_num : 0, args->notify_num,
			       &add);
	if (ret)
		goto out_unlock;
	if (add) {
		ret = hcclt_pool_reserve(hdev, file->acct, 0, add);
		if (ret)
			goto out_unlock;
		resv.acct = file->acct;
		resv.notifies = add;
	}

	if (!thread) {
		/* Inline notifies first: hcclt_thread_grow() moves it on. */
		thread = hcclt_thread_new(comm, args->engine,
					  HCCLT_THREAD_WRAPPED,
					  HCCLT_THREAD_INLINE_NOTIFIES);
		if (IS_ERR(thread)) {
			ret = PTR_ERR(thread);
			thread = NULL;
			goto out_unresv;
		}
		kref_get(&stream->ref);
		thread->stream = stream;
		fresh = true;
	}
	if (add) {
		ret = hcclt_thread_grow(thread, args->notify_num, &resv);
		if (ret)
			goto out_unresv;
	}

	if (fresh) {
		hcclt_thread_publish(thread);
		list_add_tail(&thread->node, &comm->threads);
		comm->thread_count++;
	}
	if (r->flags & HCCLT_QUOTA_F_WRAPPED_COUNTED)
		comm->notifies_used += add;
	args->thread_id = thread->id;
	trace_hcclt_acquire(hdev->index, comm->id, thread->id, stream->id,
			    args->engine, thread->notify_num, 1);
	ret = 0;
	goto out_unlock;

out_unresv:
	if (fresh)
		hcclt_thread_discard(thread);
	hcclt_pool_unreserve(hdev, file->acct, 0, resv.notifies);
out_unlock:
	mutex_unlock(&comm->lock);
out_put:
	hcclt_stream_put(stream);
	hcclt_comm_put(comm);
	return ret;
}

/* ---- HcclThreadExportToCommEngine ---- */

/*
 * Export the @n threads named in @in to engine @dst under comm->lock; their
 * ids go to @ids. Views are published at once: a failing write of the ids
 * afterwards leaves them (they count against nothing, and exporting again
 * returns them). Return: 0, or an error with nothing changed.
 */
static int hcclt_thread_export_locked(struct hcclt_file *file,
				      struct hcclt_comm *comm, const u64 *in,
				      u32 n, u32 dst, u64 *ids)
{
	struct hcclt_thread *fresh[HCCLT_MAX_EXPORT_THREADS];
	struct hcclt_thread *t, *p, *v;
	u32 i, nfresh = 0;
	int ret;

	mutex_lock(&comm->lock);
	if (comm->dead) {
		ret = -ENOENT;
		goto out_unlock;
	}
	for (i = 0; i < n; i++) {
		t = hcclt_thread_lookup(file, in[i]);
		if (!t || t->comm != comm) {
			hcclt_thread_put(t);
			ret = -ENOENT;
			goto out_undo;
		}
		p = t->primary ?: t;
		hcclt_thread_put(t);
		if (p->engine == dst) {
			ids[i] = p->id;
		} else if (p->views[dst]) {
			ids[i] = p->views[dst]->id;
		} else {
			v = hcclt_thread_new(comm, dst, HCCLT_THREAD_VIEW |
					     (p->flags & HCCLT_THREAD_WRAPPED),
					     0);
			if (IS_ERR(v)) {
				ret = PTR_ERR(v);
				goto out_undo;
			}
			kref_get(&p->ref);
			v->primary = p;
			kref_get(&p->stream->ref);
			v->stream = p->stream;
			p->views[dst] = v;
			fresh[nfresh++] = v;
			ids[i] = v->id;
		}
	}

	for (i = 0; i < nfresh; i++)
		hcclt_thread_publish(fresh[i]);
	ret = 0;
	goto out_unlock;

out_undo:
	for (i = 0; i < nfresh; i++) {
		fresh[i]->primary->views[dst] = NULL;
		hcclt_thread_discard(fresh[i]);
	}
out_unlock:
	mutex_unlock(&comm->lock);
	return ret;
}

int hcclt_thread_export_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_thread_export *args = data;
	u64 in[HCCLT_MAX_EXPORT_THREADS], ids[HCCLT_MAX_EXPORT_THREADS];
	struct hcclt_comm *comm;
	u32 n = args->thread_num, dst = args->dst_engine;
	int idx, ret;

	if (args->flags || args->pad) {
		drm_dbg_driver(drm, "EXPORT: flags %#x pad %#x\n", args->flags,
			       args->pad);
		return -EINVAL;
	}
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	if (dst >= HCCLT_ENGINE_COUNT || !n ||
	    n > HCCLT_MAX_EXPORT_THREADS) {
		drm_dbg_driver(drm, "EXPORT: dst_engine %u thread_num %u\n",
			       dst, n);
		ret = -EINVAL;
		goto out_put;
	}
	/* As ACQUIRE: no thread is ever on AIV. */
	if (dst == HCCLT_ENGINE_AIV) {
		drm_dbg_driver(drm, "EXPORT: engine AIV\n");
		ret = -EOPNOTSUPP;
		goto out_put;
	}
	dst = array_index_nospec(dst, HCCLT_ENGINE_COUNT);
	/* User memory is touched only outside the section: see acquire. */
	if (copy_from_user(in, u64_to_user_ptr(args->threads_ptr),
			   n * sizeof(*in))) {
		ret = -EFAULT;
		goto out_put;
	}
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out_put;
	}
	ret = hcclt_thread_export_locked(file, comm, in, n, dst, ids);
	drm_dev_exit(idx);
	if (!ret && copy_to_user(u64_to_user_ptr(args->exported_ptr), ids,
				 n * sizeof(*ids)))
		ret = -EFAULT;
	/* Unplugged while the write waited: the file is dead. */
	if (!ret && drm_dev_is_unplugged(drm))
		ret = -ENODEV;
out_put:
	hcclt_comm_put(comm);
	return ret;
}
