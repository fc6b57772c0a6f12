// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the copy engine of the simulated NPU (data tasks:
 * HCCLT_TASK_LOCAL_COPY, HCCLT_TASK_WRITE, HCCLT_TASK_READ, and their
 * reduce variants, whose arithmetic is in hcclt_reduce.c).
 *
 * SUBMIT checks a data task's byte ranges and makes a struct hcclt_copy
 * holding references on both memory objects (hcclt_copy_prepare()); the
 * task carries it. When the executor reaches the task (under the device's
 * sched_lock) it hands the copy to the engine: the stream is marked busy
 * (no other task of it runs) and the copy's work item is queued on the
 * device's workqueue (hcclt_copy_start()). The work item copies without
 * any lock, page by page through the objects' shmem mappings, then takes
 * sched_lock and completes the task if it is still the stream's head
 * (hcclt_copy_work()). A stream flushed meanwhile (cancelled, its thread
 * gone, the device unplugged) no longer has the task: the result is
 * dropped. Nothing here nests two devices' locks: the copy engine of the
 * submitting stream's device does the whole copy, also when one object
 * (a channel peer's HCCL buffer) belongs to another device.
 *
 * The objects stay alive until the copy is freed, after the task completed
 * or was dropped: GEM object references can only be dropped in process
 * context, so a copy dropped under sched_lock is freed by its work item
 * (hcclt_copy_drop()).
 *
 * Pages: an object's pages are those of its shmem file. The copy looks
 * them up in batches of contiguous folios already in the page cache
 * (filemap_get_folios_contig()); a page that is not (never touched, or
 * swapped out) is read with shmem_read_mapping_page(), which allocates it
 * zeroed, as a first mmap() fault would, or swaps it in. Batching took a
 * 64 MiB copy from 225 ms to 131 ms in a TCG guest (two page-cache
 * lookups and reference round trips per 4 KiB were 40% of the time).
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pagevec.h>
#include <linux/sched.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <drm/drm_gem.h>

#include "hcclt_drv.h"
#include "hcclt_trace.h"

/**
 * struct hcclt_copy - one data task's copy.
 * @work: runs the copy (hcclt_copy_work()), or frees a copy dropped
 *	before it ran (hcclt_copy_free_work()).
 * @s: the stream, reference held, while the engine has the copy.
 * @seqno: the task's stream seqno, set when the engine takes it.
 * @src: source object (reference held).
 * @dst: destination object (reference held).
 * @soff: byte offset in @src.
 * @doff: byte offset in @dst.
 * @len: bytes.
 * @op: HCCLT_TASK_LOCAL_COPY, _WRITE or _READ, or a reduce.
 * @dtype: of a reduce, HCCLT_DTYPE_*.
 * @rop: of a reduce, HCCLT_REDUCE_*.
 */
struct hcclt_copy {
	struct work_struct work;
	struct hcclt_stream *s;
	u64 seqno;
	struct drm_gem_object *src;
	struct drm_gem_object *dst;
	u64 soff;
	u64 doff;
	u64 len;
	u32 op;
	u32 dtype;
	u32 rop;
};

static void hcclt_copy_free(struct hcclt_copy *c)
{
	drm_gem_object_put(c->src);
	drm_gem_object_put(c->dst);
	kfree(c);
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
		return 1;
	case HCCLT_DTYPE_INT16:
	case HCCLT_DTYPE_FP16:
	case HCCLT_DTYPE_BF16:
		return 2;
	case HCCLT_DTYPE_INT32:
	case HCCLT_DTYPE_FP32:
		return 4;
	default:
		return 0;
	}
}

/*
 * Can this kernel reduce @dtype? Floats need the FPU in kernel context
 * (hcclt_reduce.c): x86 only.
 */
bool hcclt_reduce_supported(u32 dtype)
{
	return IS_ENABLED(CONFIG_X86) || dtype == HCCLT_DTYPE_INT8 ||
	       dtype == HCCLT_DTYPE_INT16 || dtype == HCCLT_DTYPE_INT32;
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
	u32 esize = hcclt_op_reduces(op) ? hcclt_reduce_size(dtype) : 1;
	struct hcclt_copy *c;
	int ret = 0;

	if (soff % esize || doff % esize || len % esize ||
	    (esize > 1 && src == dst && len && soff < doff + len &&
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

static void hcclt_copy_free_work(struct work_struct *work)
{
	hcclt_copy_free(container_of(work, struct hcclt_copy, work));
}

/**
 * hcclt_copy_drop - free the copy of a task that will not run.
 * @hdev: the device whose workqueue frees it (the caller may hold
 *	sched_lock; the device's workqueue is drained before it goes).
 * @c: the copy.
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
 * @fb: contiguous folios of the page cache, references held.
 * @hint: the folio of @fb the last lookup found.
 * @one: a page read with shmem_read_mapping_page() (reference held), or
 *	NULL.
 * @one_idx: its index.
 */
struct hcclt_pages {
	struct address_space *mapping;
	struct folio_batch fb;
	unsigned int hint;
	struct page *one;
	pgoff_t one_idx;
};

static void hcclt_pages_init(struct hcclt_pages *p, struct drm_gem_object *obj)
{
	p->mapping = obj->filp->f_mapping;
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
	p->one = shmem_read_mapping_page(p->mapping, idx);
	if (IS_ERR(p->one)) {
		struct page *err = p->one;

		p->one = NULL;
		return err;
	}
	p->one_idx = idx;
	return p->one;
}

/*
 * Copy @c->len bytes, page by page; backwards when the ranges overlap in
 * one object with the destination above the source (memmove semantics).
 */
static int hcclt_copy_bytes(struct hcclt_copy *c)
{
	struct hcclt_pages src, dst;
	struct page *sp, *dp;
	bool reduce = hcclt_op_reduces(c->op);
	bool back = !reduce && c->src == c->dst && c->doff > c->soff &&
		    c->doff < c->soff + c->len;
	u64 done = 0, so, dof;
	size_t chunk;
	void *sv, *dv;
	int ret = 0;

	hcclt_pages_init(&src, c->src);
	hcclt_pages_init(&dst, c->dst);
	while (done < c->len) {
		if (back) {
			so = c->soff + c->len - done;
			dof = c->doff + c->len - done;
			chunk = min3(c->len - done,
				     (u64)offset_in_page(so - 1) + 1,
				     (u64)offset_in_page(dof - 1) + 1);
			so -= chunk;
			dof -= chunk;
		} else {
			so = c->soff + done;
			dof = c->doff + done;
			chunk = min3(c->len - done,
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
		/*
		 * Whole pages with copy_page() (rep movsq on x86): in a TCG
		 * guest a 64 MiB copy took 131 ms with memmove() (rep movsb)
		 * and 29 ms with it.
		 */
		if (reduce)
			hcclt_reduce(c->dtype, c->rop,
				     dv + offset_in_page(dof),
				     sv + offset_in_page(so), chunk);
		else if (chunk == PAGE_SIZE && sp != dp)
			copy_page(dv, sv);
		else
			memmove(dv + offset_in_page(dof),
				sv + offset_in_page(so), chunk);
		kunmap_local(dv);
		kunmap_local(sv);
		set_page_dirty(dp);
		done += chunk;
		cond_resched();
	}
	hcclt_pages_fini(&src);
	hcclt_pages_fini(&dst);
	return ret;
}

static void hcclt_copy_work(struct work_struct *work)
{
	struct hcclt_copy *c = container_of(work, struct hcclt_copy, work);
	struct hcclt_stream *s = c->s;
	int err;

	/*
	 * A stream flushed between hcclt_copy_start() and here no longer
	 * has the task, and a STREAM_SYNC may have reported it dropped: the
	 * copy must not start.
	 */
	err = hcclt_sched_copy_live(s, c->seqno) ? hcclt_copy_bytes(c) :
						   -ECANCELED;
	trace_hcclt_copy(s->hdev->index, s->slot, s->id, c->seqno, c->op,
			 c->len, err);
	hcclt_sched_copy_done(s, c->seqno, err);
	hcclt_stream_put(s);
	hcclt_copy_free(c);
}

/**
 * hcclt_copy_start - the executor reached a data task: run its copy.
 * @s: the stream, whose head task it is; sched_lock held.
 * @c: the copy, now the engine's.
 * @seqno: the task's seqno.
 *
 * hcclt_sched_copy_done() completes the task when the copy is done.
 */
void hcclt_copy_start(struct hcclt_stream *s, struct hcclt_copy *c,
		      u64 seqno)
{
	lockdep_assert_held(&s->hdev->sched_lock);
	kref_get(&s->ref);
	c->s = s;
	c->seqno = seqno;
	INIT_WORK(&c->work, hcclt_copy_work);
	queue_work(s->hdev->wq, &c->work);
}
