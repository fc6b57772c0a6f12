// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the copy engine of the simulated NPU (data tasks:
 * HCCLT_TASK_LOCAL_COPY, HCCLT_TASK_WRITE, HCCLT_TASK_READ, and their
 * reduce variants, whose arithmetic is in hcclt_reduce.c).
 *
 * SUBMIT checks a data task's byte ranges and makes a struct hcclt_copy
 * holding references on both memory objects (hcclt_copy_prepare()); the
 * task carries it. When the executor reaches the task (under the device's
 * sched_lock) it hands the copy to the engine (hcclt_copy_start()): the
 * stream is marked busy (no other task of it runs) and the copy joins the
 * queue of its client, the file whose stream it is.
 *
 * The engine is one work item per device (hdev->copy_work) on the
 * device's workqueue, which runs at normal priority. It serves the
 * clients with copies round robin, one chunk (HCCLT_COPY_CHUNK bytes) per
 * turn, and within a client its streams' copies the same way, so that a
 * client with many or long copies delays another's by at most one chunk
 * per turn. A chunk is copied with no lock of the driver but a peer's
 * buffer's peer_lock, held for reading (see below); between chunks the
 * engine takes sched_lock and looks at the copy again: a stream flushed
 * meanwhile (cancelled, its thread or file gone, its process killed, the
 * device unplugged) has cancelled the copy (hcclt_copy_cancel()): a
 * queued copy is dropped, and the chunk running, if any, stops at its
 * next page; the copy's references go with it. A finished copy completes
 * its task under sched_lock.
 * Nothing here nests two devices' locks: the copy engine of the
 * submitting stream's device does the whole copy, also when one object
 * (a channel peer's HCCL buffer) belongs to another device.
 *
 * GEM object and stream references can only be dropped in process
 * context: a copy dropped under sched_lock is freed by a work item of its
 * own (hcclt_copy_drop()), queued on the device's workqueue, which the
 * unplug drains.
 *
 * Pages: an object's pages are those of its shmem file. The copy looks
 * them up in batches of contiguous folios already in the page cache
 * (filemap_get_folios_contig()); a page that is not (never touched, or
 * swapped out) is read with shmem_read_mapping_page_gfp(), which allocates
 * it zeroed, as a first mmap() fault would, or swaps it in. The engine
 * runs in a kworker, so such a page is charged to the memory cgroup the
 * object's creator was in (hcclt_mem_memcg(), made active around the
 * read), and an allocation over that cgroup's limit fails the copy with
 * -ENOMEM instead of invoking the OOM killer (__GFP_RETRY_MAYFAIL).
 *
 * A channel peer's HCCL buffer (the destination of a write, the source of
 * a read) is revoked when its owner's communicator is torn down
 * (hcclt_mem_revoke()): each chunk runs inside hcclt_mem_peer_begin() and
 * _end(), so a copy that reaches a revoked buffer, queued or running,
 * fails with -ECONNRESET at its next chunk, and none writes or reads the
 * buffer once the revocation has returned. A range a peer registered
 * (hcclt_memreg.c) is revoked the same way, by its own flag under the
 * same lock (hcclt_copy_set_reg()).
 */

#include <linux/highmem.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pagevec.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>

#include "hcclt_drv.h"
#include "hcclt_trace.h"

/* Bytes a copy advances by in one turn of the engine. */
#define HCCLT_COPY_CHUNK	SZ_1M

/**
 * struct hcclt_copy - one data task's copy.
 * @node: entry in its client's @copies while queued; sched_lock.
 * @work: frees a copy dropped by a flush or before it ran
 *	(hcclt_copy_free_work()).
 * @s: the stream, reference held, once the engine has the copy.
 * @seqno: the task's stream seqno, set when the engine takes it.
 * @src: source object (reference held).
 * @dst: destination object (reference held).
 * @soff: byte offset in @src.
 * @doff: byte offset in @dst.
 * @len: bytes.
 * @done: bytes copied so far; written by the engine only.
 * @op: HCCLT_TASK_LOCAL_COPY, _WRITE or _READ, or a reduce.
 * @dtype: of a reduce, HCCLT_DTYPE_*.
 * @rop: of a reduce, HCCLT_REDUCE_*.
 * @cancelled: its stream was flushed while the engine ran a chunk of it;
 *	written under sched_lock, read by that chunk between pages without
 *	it (a page more at most).
 * @saturate: a reduce of a stream made in saturation mode
 *	(HCCLT_PARAM_SATURATION): its float results saturate
 *	(hcclt_saturate()); set when the engine takes it.
 * @reg: the peer's registered range the peer side is in (reference
 *	held), or NULL for the peer's HCCL buffer and local copies; its
 *	@revoked is read under the peer object's peer_lock.
 * @xfer: of a task on a channel to another host, its transfer
 *	(hcclt_xfer.c), which moves it instead of the engine; the peer side
 *	(@dst of a write, @src of a read) is then NULL, its offset one in
 *	the peer's HCCL buffer there.
 */
struct hcclt_copy {
	struct list_head node;
	struct work_struct work;
	struct hcclt_stream *s;
	u64 seqno;
	struct drm_gem_object *src;
	struct drm_gem_object *dst;
	u64 soff;
	u64 doff;
	u64 len;
	u64 done;
	u32 op;
	u32 dtype;
	u32 rop;
	bool cancelled;
	bool saturate;
	struct hcclt_memreg *reg;
	struct hcclt_xfer *xfer;
};

static void hcclt_copy_free(struct hcclt_copy *c)
{
	if (c->s)
		hcclt_stream_put(c->s);
	drm_gem_object_put(c->src);
	drm_gem_object_put(c->dst);
	hcclt_memreg_put(c->reg);
	hcclt_xfer_free(c->xfer);
	kfree(c);
}

/**
 * hcclt_copy_set_reg - the peer side of @c is in a registered range.
 * @c: a copy of hcclt_copy_prepare() not handed to the engine yet.
 * @reg: the range, reference taken over.
 *
 * Each chunk of @c then fails with -ECONNRESET once @reg is revoked.
 */
void hcclt_copy_set_reg(struct hcclt_copy *c, struct hcclt_memreg *reg)
{
	c->reg = reg;
}

/**
 * hcclt_reduce_size - the element size of a reduce's @dtype.
 * @dtype: HCCLT_DTYPE_* (user input).
 *
 * Return: bytes, or 0 for an unknown type.
 */
u32 hcclt_reduce_size(u32 dtype)
{
	switch (dtype) {
	case HCCLT_DTYPE_INT8:
	case HCCLT_DTYPE_UINT8:
		return 1;
	case HCCLT_DTYPE_INT16:
	case HCCLT_DTYPE_UINT16:
	case HCCLT_DTYPE_FP16:
	case HCCLT_DTYPE_BF16:
		return 2;
	case HCCLT_DTYPE_INT32:
	case HCCLT_DTYPE_UINT32:
	case HCCLT_DTYPE_FP32:
		return 4;
	case HCCLT_DTYPE_INT64:
	case HCCLT_DTYPE_UINT64:
	case HCCLT_DTYPE_FP64:
		return 8;
	default:
		return 0;
	}
}

/* Is @op (user input) a reduce operation? */
bool hcclt_reduce_op_known(u32 op)
{
	return op == HCCLT_REDUCE_SUM || op == HCCLT_REDUCE_PROD ||
	       op == HCCLT_REDUCE_MAX || op == HCCLT_REDUCE_MIN;
}

/*
 * Can this kernel reduce @dtype (a known one)? Floating point needs the
 * FPU in kernel context (hcclt_reduce.c): x86 only.
 */
bool hcclt_reduce_supported(u32 dtype)
{
	bool fp = dtype == HCCLT_DTYPE_FP16 || dtype == HCCLT_DTYPE_FP32 ||
		  dtype == HCCLT_DTYPE_FP64 || dtype == HCCLT_DTYPE_BF16;

	return IS_ENABLED(CONFIG_X86) || !fp;
}

/* Is @op a reduce task? */
bool hcclt_op_reduces(u32 op)
{
	return op == HCCLT_TASK_LOCAL_REDUCE || op == HCCLT_TASK_WRITE_REDUCE ||
	       op == HCCLT_TASK_READ_REDUCE;
}

/**
 * hcclt_copy_prepare - make the copy of a data task.
 * @op: the task's op.
 * @src: source object, reference taken over (dropped on error too).
 * @soff: offset in @src.
 * @dst: destination object, reference taken over (dropped on error too).
 * @doff: offset in @dst.
 * @len: bytes.
 * @dtype: of a reduce, HCCLT_DTYPE_* (checked by the caller).
 * @rop: of a reduce, HCCLT_REDUCE_* (checked by the caller).
 * @out: the copy.
 *
 * Return: 0, -EINVAL (a reduce whose offsets or length are not whole
 * elements, or whose ranges overlap), -ERANGE (a range not inside its
 * object), -ENOMEM.
 */
int hcclt_copy_prepare(u32 op, struct drm_gem_object *src, u64 soff,
		       struct drm_gem_object *dst, u64 doff, u64 len,
		       u32 dtype, u32 rop, struct hcclt_copy **out)
{
	bool reduce = hcclt_op_reduces(op);
	u32 esize = reduce ? hcclt_reduce_size(dtype) : 1;
	struct hcclt_copy *c;
	int ret = 0;

	/* A copy may overlap (memmove), a reduce not: of INT8 neither. */
	if (soff % esize || doff % esize || len % esize ||
	    (reduce && src == dst && len && soff < doff + len &&
	     doff < soff + len))
		ret = -EINVAL;
	else if (soff > src->size || len > src->size - soff ||
		 doff > dst->size || len > dst->size - doff)
		ret = -ERANGE;
	if (ret) {
		drm_gem_object_put(src);
		drm_gem_object_put(dst);
		return ret;
	}
	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c) {
		drm_gem_object_put(src);
		drm_gem_object_put(dst);
		return -ENOMEM;
	}
	c->src = src;
	c->dst = dst;
	c->soff = soff;
	c->doff = doff;
	c->dtype = dtype;
	c->rop = rop;
	c->len = len;
	c->op = op;
	*out = c;
	return 0;
}

/**
 * hcclt_copy_prepare_remote - make the copy of a data task on a channel to
 * a rank of another host.
 * @op: HCCLT_TASK_WRITE, _READ, _WRITE_REDUCE or _READ_REDUCE.
 * @local: this side's object (source of a write, destination of a
 *	read), reference taken over (dropped on error too).
 * @loff: offset in @local.
 * @roff: offset in the peer's HCCL buffer, which its host checks.
 * @len: bytes.
 * @dtype: of a reduce, HCCLT_DTYPE_* (checked by the caller).
 * @rop: of a reduce, HCCLT_REDUCE_* (checked by the caller).
 * @x: the transfer that moves it (hcclt_channel_xfer_new()), taken over
 *	(freed on error too).
 * @out: the copy.
 *
 * Return: 0, -EINVAL (a reduce whose offsets or length are not whole
 * elements), -ERANGE (@loff and @len not inside @local, or past the end
 * of any buffer), -ENOMEM.
 */
int hcclt_copy_prepare_remote(u32 op, struct drm_gem_object *local, u64 loff,
			      u64 roff, u64 len, u32 dtype, u32 rop,
			      struct hcclt_xfer *x, struct hcclt_copy **out)
{
	u32 esize = hcclt_op_reduces(op) ? hcclt_reduce_size(dtype) : 1;
	bool write = op == HCCLT_TASK_WRITE || op == HCCLT_TASK_WRITE_REDUCE;
	struct hcclt_copy *c;
	int ret = 0;

	if (loff % esize || roff % esize || len % esize)
		ret = -EINVAL;
	else if (loff > local->size || len > local->size - loff ||
		 roff > U64_MAX - len)
		ret = -ERANGE;
	c = ret ? NULL : kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c) {
		drm_gem_object_put(local);
		hcclt_xfer_free(x);
		return ret ?: -ENOMEM;
	}
	c->src = write ? local : NULL;
	c->dst = write ? NULL : local;
	c->soff = write ? loff : roff;
	c->doff = write ? roff : loff;
	c->len = len;
	c->op = op;
	c->dtype = dtype;
	c->rop = rop;
	c->xfer = x;
	*out = c;
	return 0;
}

static void hcclt_copy_free_work(struct work_struct *work)
{
	hcclt_copy_free(container_of(work, struct hcclt_copy, work));
}

/**
 * hcclt_copy_drop - free a copy that will not run (any more).
 * @hdev: the device whose workqueue frees it (the caller may hold
 *	sched_lock; the device's workqueue is drained before it goes).
 * @c: the copy, not queued in the engine.
 */
void hcclt_copy_drop(struct hcclt_device *hdev, struct hcclt_copy *c)
{
	INIT_WORK(&c->work, hcclt_copy_free_work);
	queue_work(hdev->wq, &c->work);
}

/* Pages looked up at a time (at most a folio batch of them). */
#define HCCLT_COPY_BATCH	64

/**
 * struct hcclt_pages - a cursor over the pages of one object's shmem file.
 * @mapping: the file's mapping.
 * @memcg: the memory cgroup pages allocated here are charged to.
 * @fb: contiguous folios of the page cache, references held.
 * @hint: the folio of @fb the last lookup found.
 * @one: a page read with shmem_read_mapping_page_gfp() (reference held),
 *	or NULL.
 * @one_idx: its index.
 */
struct hcclt_pages {
	struct address_space *mapping;
	struct mem_cgroup *memcg;
	struct folio_batch fb;
	unsigned int hint;
	struct page *one;
	pgoff_t one_idx;
};

static void hcclt_pages_init(struct hcclt_pages *p, struct drm_gem_object *obj)
{
	p->mapping = obj->filp->f_mapping;
	p->memcg = hcclt_mem_memcg(obj);
	folio_batch_init(&p->fb);
	p->hint = 0;
	p->one = NULL;
}

static void hcclt_pages_fini(struct hcclt_pages *p)
{
	folio_batch_release(&p->fb);
	if (p->one)
		put_page(p->one);
}

/* Is page @idx in folio @f? */
static bool hcclt_folio_has(struct folio *f, pgoff_t idx)
{
	return idx >= f->index && idx - f->index < folio_nr_pages(f);
}

/*
 * Read page @idx of @p's file, allocating it if need be, charged to
 * @p->memcg: over its limit the allocation fails (-ENOMEM) rather than
 * calling the OOM killer from the engine's kworker.
 */
static struct page *hcclt_pages_read(struct hcclt_pages *p, pgoff_t idx)
{
	struct mem_cgroup *old = set_active_memcg(p->memcg);
	struct page *page;

	page = shmem_read_mapping_page_gfp(p->mapping, idx,
					   mapping_gfp_mask(p->mapping) |
					   __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	set_active_memcg(old);
	return page;
}

/* Page @idx of @p's file; valid until the next call or the fini. */
static struct page *hcclt_pages_get(struct hcclt_pages *p, pgoff_t idx)
{
	unsigned int n = folio_batch_count(&p->fb), i;
	struct folio *f;
	pgoff_t start;

	if (p->one && p->one_idx == idx)
		return p->one;
	for (i = 0; i < n && i < 2; i++) {
		f = p->fb.folios[(p->hint + i) % n];
		if (hcclt_folio_has(f, idx)) {
			p->hint = (p->hint + i) % n;
			return folio_page(f, idx - f->index);
		}
	}
	folio_batch_release(&p->fb);
	p->hint = 0;
	start = idx;
	if (filemap_get_folios_contig(p->mapping, &start,
				      idx + HCCLT_COPY_BATCH - 1, &p->fb)) {
		f = p->fb.folios[0];
		/* Uptodate: not a fallocated page still to be zeroed. */
		if (hcclt_folio_has(f, idx) && folio_test_uptodate(f))
			return folio_page(f, idx - f->index);
		folio_batch_release(&p->fb);
	}
	if (p->one)
		put_page(p->one);
	p->one = hcclt_pages_read(p, idx);
	if (IS_ERR(p->one)) {
		struct page *err = p->one;

		p->one = NULL;
		return err;
	}
	p->one_idx = idx;
	return p->one;
}

/*
 * Saturate the @len bytes of float results at @p (whole, aligned elements
 * of @dtype), as a stream in saturation mode has them
 * (HCCLT_PARAM_SATURATION): an infinity becomes the largest finite value
 * of its sign, a NaN becomes +0. Every float type: FP16, BF16, FP32 and
 * FP64 (uAPI 1.7). Bit patterns only: no FPU. Integer types have no such
 * values and are left alone.
 */
void hcclt_saturate(u32 dtype, void *p, size_t len)
{
	size_t i;

	switch (dtype) {
	case HCCLT_DTYPE_FP64: {
		u64 *v = p;

		for (i = 0; i < len / 8; i++) {
			u64 mag = v[i] & 0x7fffffffffffffffULL;

			if (mag == 0x7ff0000000000000ULL)
				v[i] = (v[i] & 0x8000000000000000ULL) |
				       0x7fefffffffffffffULL;
			else if (mag > 0x7ff0000000000000ULL)
				v[i] = 0;
		}
		break;
	}
	case HCCLT_DTYPE_FP32: {
		u32 *v = p;

		for (i = 0; i < len / 4; i++) {
			u32 mag = v[i] & 0x7fffffffU;

			if (mag == 0x7f800000U)
				v[i] = (v[i] & 0x80000000U) | 0x7f7fffffU;
			else if (mag > 0x7f800000U)
				v[i] = 0;
		}
		break;
	}
	case HCCLT_DTYPE_FP16:
	case HCCLT_DTYPE_BF16: {
		/* Exponent all ones: 0x7c00 for FP16, 0x7f80 for BF16. */
		u16 inf = dtype == HCCLT_DTYPE_FP16 ? 0x7c00 : 0x7f80;
		u16 max = dtype == HCCLT_DTYPE_FP16 ? 0x7bff : 0x7f7f;
		u16 *v = p;

		for (i = 0; i < len / 2; i++) {
			u16 mag = v[i] & 0x7fff;

			if (mag == inf)
				v[i] = (v[i] & 0x8000) | max;
			else if (mag > inf)
				v[i] = 0;
		}
		break;
	}
	default:
		break;
	}
}

/* The object @c reaches as a channel peer's HCCL buffer, or NULL. */
static struct drm_gem_object *hcclt_copy_peer(const struct hcclt_copy *c)
{
	switch (c->op) {
	case HCCLT_TASK_WRITE:
	case HCCLT_TASK_WRITE_REDUCE:
		return c->dst;
	case HCCLT_TASK_READ:
	case HCCLT_TASK_READ_REDUCE:
		return c->src;
	default:
		return NULL;
	}
}

/*
 * Copy the next chunk of @c, at most HCCLT_COPY_CHUNK bytes, page by page,
 * and advance @c->done; backwards when the ranges overlap in one object
 * with the destination above the source (memmove semantics: the chunks
 * then go from the end too).
 */
static int hcclt_copy_chunk(struct hcclt_copy *c)
{
	struct drm_gem_object *peer = hcclt_copy_peer(c);
	struct hcclt_pages src, dst;
	struct page *sp, *dp;
	bool reduce = hcclt_op_reduces(c->op);
	bool back = !reduce && c->src == c->dst && c->doff > c->soff &&
		    c->doff < c->soff + c->len;
	u64 done = c->done, end = min(c->len, c->done + HCCLT_COPY_CHUNK);
	u64 so, dof;
	size_t chunk;
	void *sv, *dv;
	int ret = 0;

	/* The peer's buffer stays unrevoked until the chunk ends. */
	if (peer) {
		ret = hcclt_mem_peer_begin(peer);
		if (ret)
			return ret;
		/* So does a registered range (hcclt_mem_flag_revoke()). */
		if (c->reg && READ_ONCE(c->reg->revoked)) {
			hcclt_mem_peer_end(peer);
			return -ECONNRESET;
		}
	}
	hcclt_pages_init(&src, c->src);
	hcclt_pages_init(&dst, c->dst);
	while (done < end) {
		/* Cancelled meanwhile (hcclt_copy_cancel()): stop here. */
		if (READ_ONCE(c->cancelled))
			break;
		if (back) {
			so = c->soff + c->len - done;
			dof = c->doff + c->len - done;
			chunk = min3(end - done,
				     (u64)offset_in_page(so - 1) + 1,
				     (u64)offset_in_page(dof - 1) + 1);
			so -= chunk;
			dof -= chunk;
		} else {
			so = c->soff + done;
			dof = c->doff + done;
			chunk = min3(end - done,
				     (u64)(PAGE_SIZE - offset_in_page(so)),
				     (u64)(PAGE_SIZE - offset_in_page(dof)));
		}
		sp = hcclt_pages_get(&src, so >> PAGE_SHIFT);
		if (IS_ERR(sp)) {
			ret = PTR_ERR(sp);
			break;
		}
		dp = hcclt_pages_get(&dst, dof >> PAGE_SHIFT);
		if (IS_ERR(dp)) {
			ret = PTR_ERR(dp);
			break;
		}
		sv = kmap_local_page(sp);
		dv = kmap_local_page(dp);
		/* Whole pages with copy_page(): rep movsq on x86. */
		if (reduce) {
			hcclt_reduce(c->dtype, c->rop,
				     dv + offset_in_page(dof),
				     sv + offset_in_page(so), chunk);
			if (c->saturate)
				hcclt_saturate(c->dtype,
					       dv + offset_in_page(dof), chunk);
		} else if (chunk == PAGE_SIZE && sp != dp) {
			copy_page(dv, sv);
		} else {
			memmove(dv + offset_in_page(dof),
				sv + offset_in_page(so), chunk);
		}
		kunmap_local(dv);
		kunmap_local(sv);
		set_page_dirty(dp);
		done += chunk;
		cond_resched();
	}
	hcclt_pages_fini(&src);
	hcclt_pages_fini(&dst);
	if (peer)
		hcclt_mem_peer_end(peer);
	c->done = done;
	return ret;
}

/* Queue @c last in its client's queue, the client last in the engine's. */
static void hcclt_copy_queue(struct hcclt_device *hdev, struct hcclt_copy *c)
{
	struct hcclt_copyq *q = hcclt_usage_copyq(c->s->usage);

	list_add_tail(&c->node, &q->copies);
	if (list_empty(&q->node))
		list_add_tail(&q->node, &hdev->copy_clients);
}

/*
 * The copy whose turn it is: the first of the first client's queue, taken
 * off it; the client goes last among the clients. NULL when no copy is
 * queued. sched_lock held.
 */
static struct hcclt_copy *hcclt_copy_next(struct hcclt_device *hdev)
{
	struct hcclt_copyq *q;
	struct hcclt_copy *c;

	q = list_first_entry_or_null(&hdev->copy_clients, struct hcclt_copyq,
				     node);
	if (!q)
		return NULL;
	c = list_first_entry(&q->copies, struct hcclt_copy, node);
	list_del_init(&c->node);
	list_del_init(&q->node);
	if (!list_empty(&q->copies))
		list_add_tail(&q->node, &hdev->copy_clients);
	return c;
}

/*
 * The device's copy engine: one chunk of the next copy at a time, until no
 * copy is queued. The workqueue runs one instance of it at a time.
 */
static void hcclt_copy_engine(struct work_struct *work)
{
	struct hcclt_device *hdev = container_of(work, struct hcclt_device,
						 copy_work);
	struct hcclt_stream *s;
	struct hcclt_copy *c;
	bool over;
	int err;

	for (;;) {
		spin_lock_bh(&hdev->sched_lock);
		c = hcclt_copy_next(hdev);
		hdev->copy_running = c;
		spin_unlock_bh(&hdev->sched_lock);
		if (!c)
			return;

		err = hcclt_copy_chunk(c);
		s = c->s;

		spin_lock_bh(&hdev->sched_lock);
		hdev->copy_running = NULL;
		hdev->copy_chunks++;
		over = c->cancelled || err || c->done == c->len;
		if (!over) {
			hcclt_copy_queue(hdev, c);
		} else if (!c->cancelled) {
			trace_hcclt_copy(hdev->index, s->slot, s->id, c->seqno,
					 c->op, c->len, err);
			s->copy = NULL;
			hcclt_sched_copy_done_locked(s, c->seqno, err);
		}
		spin_unlock_bh(&hdev->sched_lock);
		if (over)
			hcclt_copy_free(c);
		cond_resched();
	}
}

/**
 * hcclt_copy_start - the executor reached a data task: queue its copy.
 * @s: the stream, whose head task it is; sched_lock held.
 * @c: the copy, now the engine's.
 * @seqno: the task's seqno.
 *
 * The engine completes the task (hcclt_sched_copy_done_locked()) when the
 * copy is done, unless a flush cancels it first (hcclt_copy_cancel()).
 */
void hcclt_copy_start(struct hcclt_stream *s, struct hcclt_copy *c,
		      u64 seqno)
{
	struct hcclt_device *hdev = s->hdev;

	lockdep_assert_held(&hdev->sched_lock);
	kref_get(&s->ref);
	c->s = s;
	c->seqno = seqno;
	c->saturate = s->saturate && hcclt_op_reduces(c->op);
	s->copy = c;
	if (c->xfer) {
		struct hcclt_xfer_task t = {
			.local = c->src ?: c->dst,
			.loff = c->src ? c->soff : c->doff,
			.roff = c->src ? c->doff : c->soff,
			.len = c->len,
			.op = c->op,
			.dtype = c->dtype,
			.rop = c->rop,
			.saturate = c->saturate,
		};

		hcclt_xfer_start(c->xfer, c, &t, hdev->xfer_wq);
		return;
	}
	hcclt_copy_queue(hdev, c);
	queue_work(hdev->wq, &hdev->copy_work);
}

/**
 * hcclt_copy_cancelled - has a flush cancelled @c (hcclt_copy_cancel())?
 * @c: a copy started on a transfer to another host.
 *
 * Return: true once it has; its task is then not completed.
 */
bool hcclt_copy_cancelled(struct hcclt_copy *c)
{
	return READ_ONCE(c->cancelled);
}

/**
 * hcclt_copy_remote_end - the transfer of @c to another host ended.
 * @c: the copy (hcclt_copy_prepare_remote(), started).
 * @err: 0 or why it failed.
 *
 * Completes its task unless a flush cancelled it, then frees @c and its
 * transfer. Process context (the transfer's work), no lock held.
 */
void hcclt_copy_remote_end(struct hcclt_copy *c, int err)
{
	struct hcclt_stream *s = c->s;
	struct hcclt_device *hdev = s->hdev;

	spin_lock_bh(&hdev->sched_lock);
	if (!c->cancelled) {
		trace_hcclt_copy(hdev->index, s->slot, s->id, c->seqno, c->op,
				 c->len, err);
		s->copy = NULL;
		hcclt_sched_copy_done_locked(s, c->seqno, err);
	}
	spin_unlock_bh(&hdev->sched_lock);
	hcclt_copy_free(c);
}

/**
 * hcclt_copy_cancel - a flush drops the copy the engine has of @s.
 * @s: the stream; sched_lock held.
 *
 * A queued copy is taken off its queue and freed; one whose chunk is
 * running stops when the chunk ends and is freed by the engine. Either
 * way its task is not completed by the engine: the flush drops it.
 */
void hcclt_copy_cancel(struct hcclt_stream *s)
{
	struct hcclt_device *hdev = s->hdev;
	struct hcclt_copy *c = s->copy;
	struct hcclt_copyq *q;

	lockdep_assert_held(&hdev->sched_lock);
	if (!c)
		return;
	s->copy = NULL;
	/* A transfer's work looks at it before each chunk, and frees it. */
	if (hdev->copy_running == c || c->xfer) {
		/* The chunk running looks at it between pages. */
		WRITE_ONCE(c->cancelled, true);
		return;
	}
	q = hcclt_usage_copyq(s->usage);
	list_del_init(&c->node);
	if (list_empty(&q->copies))
		list_del_init(&q->node);
	hcclt_copy_drop(hdev, c);
}

/**
 * hcclt_copyq_init - an empty client queue of the copy engine.
 * @q: the queue (of a file's usage statistics, hcclt_fdinfo.c).
 */
void hcclt_copyq_init(struct hcclt_copyq *q)
{
	INIT_LIST_HEAD(&q->node);
	INIT_LIST_HEAD(&q->copies);
}

/**
 * hcclt_copy_dev_init - the copy engine of a device, idle.
 * @hdev: the device; its sched_lock protects the engine's state.
 */
void hcclt_copy_dev_init(struct hcclt_device *hdev)
{
	INIT_LIST_HEAD(&hdev->copy_clients);
	INIT_WORK(&hdev->copy_work, hcclt_copy_engine);
}
