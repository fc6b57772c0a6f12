// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: data tasks between hosts (Documentation/clusters.rst,
 * "Data"), carried by the kernel's RDMA stack on the link to the peer's
 * host.
 *
 * A WRITE, READ or reduce task on a channel to a rank of another host
 * moves in chunks of at most HCCLT_XFER_CHUNK bytes, one after the other.
 * For each, the side whose task it is (the initiator) asks the owner of
 * the peer's HCCL buffer to map the range it needs (XMAP); the owner
 * checks the range against its buffer, registers exactly those pages with
 * a fast-reg MR of its side of the link, and answers with the range's
 * address and rkey (REPLY). The initiator then RDMA WRITEs or READs it
 * (hcclt_link_rdma(), which returns once the operation completed: a
 * WRITE's data is placed) and says so (XDONE), upon which the owner
 * deregisters the MR. No range is ever mapped but for one operation of
 * the one peer that asked, and the rkey is valid on that link alone.
 *
 * Reduce variants reduce at the receiver, as HCCL over RoCE does: a
 * WRITE_REDUCE's chunk is written into staging pages the owner maps
 * instead, and the owner reduces them into its buffer when XDONE comes
 * (on its receive work, before any later message of the link is handled:
 * a RECORD that follows the task finds the data reduced); a
 * READ_REDUCE's chunk is read into staging pages of the initiator, which
 * reduces them into its object.
 *
 * The initiator's side runs in a work item of the stream's device
 * (hcclt_xfer_work()), started by the executor like a copy of the copy
 * engine (hcclt_copy_start()), and completes the task when the last chunk
 * is done (hcclt_copy_remote_end()). A flush that cancels it stops it
 * before its next chunk; the chunk in flight finishes first, so that no
 * page is freed under the NIC. A link that goes down fails its requests
 * (-ECONNRESET) and flushes its RDMA operations; the owner's mapped
 * ranges are deregistered once its QP is drained.
 *
 * Pages: the owner's buffer pages are pinned (page references) from XMAP
 * to XDONE; its buffer may be revoked meanwhile (its communicator torn
 * down): an XMAP of a revoked buffer is refused, and a chunk already
 * mapped still lands in its pages, which no one else gets until the
 * references go.
 *
 * Locks: none of its own. The owner's map table (hcclt_link_maps()) is
 * written by the link's receive work alone and by the teardown once that
 * is drained; its xa_lock guards each access, and the beat's walk
 * (hcclt_xfer_maps_overdue()), since the receive work frees an entry
 * once it has erased it.
 */

#include <linux/highmem.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/scatterlist.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <drm/drm_gem.h>

#include "hcclt_drv.h"
#include "hcclt_xfer.h"

/*
 * How long a range of this host may stay mapped for one operation of a
 * peer host: an operation completes or fails its QP within its retries
 * (seconds), so a peer that sends no XDONE by then is broken or hostile,
 * and its link goes down (hcclt_xfer_maps_overdue()), which unmaps all.
 */
static unsigned int xfer_map_ms = 30000;
module_param(xfer_map_ms, uint, 0644);
MODULE_PARM_DESC(xfer_map_ms,
		 "milliseconds a range stays mapped for another host's operation at most; past it the link goes down (default 30000)");

/**
 * struct hcclt_xpages - pages one RDMA operation reaches.
 * @pages: the pages (a reference held on each).
 * @n: how many.
 * @sgt: the range within them.
 */
struct hcclt_xpages {
	struct page **pages;
	u32 n;
	struct sg_table sgt;
};

/*
 * The end of filling @p: @got of its pages were had (@ret 0 if all), then
 * the table of @len bytes from @off in the first; everything given back
 * on failure.
 */
static int hcclt_xpages_done(struct hcclt_xpages *p, u32 got, int ret,
			     u32 off, u32 len)
{
	p->n = got;
	if (!ret)
		ret = sg_alloc_table_from_pages(&p->sgt, p->pages, p->n, off,
						len, GFP_KERNEL);
	if (ret) {
		while (p->n)
			put_page(p->pages[--p->n]);
		kvfree(p->pages);
		p->pages = NULL;
	}
	return ret;
}

/* @p's @len bytes at @off of @obj: its shmem pages, read in if need be. */
static int hcclt_xpages_obj(struct hcclt_xpages *p, struct drm_gem_object *obj,
			    u64 off, u32 len)
{
	struct address_space *mapping = obj->filp->f_mapping;
	struct mem_cgroup *old;
	struct page *page = NULL;
	pgoff_t first = off >> PAGE_SHIFT;
	u32 i;

	p->n = DIV_ROUND_UP(offset_in_page(off) + len, PAGE_SIZE);
	p->pages = kvcalloc(p->n, sizeof(*p->pages), GFP_KERNEL);
	if (!p->pages)
		return -ENOMEM;
	/* Charged to the object's creator, never the OOM killer's. */
	old = set_active_memcg(hcclt_mem_memcg(obj));
	for (i = 0; i < p->n; i++) {
		page = shmem_read_mapping_page_gfp(mapping, first + i,
						   mapping_gfp_mask(mapping) |
						   __GFP_RETRY_MAYFAIL |
						   __GFP_NOWARN);
		if (IS_ERR(page))
			break;
		p->pages[i] = page;
	}
	set_active_memcg(old);
	return hcclt_xpages_done(p, i, i < p->n ? PTR_ERR(page) : 0,
				 offset_in_page(off), len);
}

/*
 * @p: @len bytes of staging pages of its own, zeroed (a peer that writes
 * less than it mapped must reduce zeros, never stale memory), charged to
 * @memcg (the creator of the object they stage for).
 */
static int hcclt_xpages_stage(struct hcclt_xpages *p, u32 len,
			      struct mem_cgroup *memcg)
{
	struct mem_cgroup *old;
	u32 i;

	p->n = DIV_ROUND_UP(len, PAGE_SIZE);
	p->pages = kvcalloc(p->n, sizeof(*p->pages), GFP_KERNEL);
	if (!p->pages)
		return -ENOMEM;
	old = set_active_memcg(memcg);
	for (i = 0; i < p->n; i++) {
		p->pages[i] = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
		if (!p->pages[i])
			break;
	}
	set_active_memcg(old);
	return hcclt_xpages_done(p, i, i < p->n ? -ENOMEM : 0, 0, len);
}

/* Give back @p's pages, marked dirty when @dirty (they were written). */
static void hcclt_xpages_put(struct hcclt_xpages *p, bool dirty)
{
	u32 i;

	if (!p->pages)
		return;
	sg_free_table(&p->sgt);
	for (i = 0; i < p->n; i++) {
		if (dirty)
			set_page_dirty_lock(p->pages[i]);
		put_page(p->pages[i]);
	}
	kvfree(p->pages);
	p->pages = NULL;
}

/*
 * Reduce @len bytes of @stage (from its start) into @dst, whose range
 * starts at byte @doff of its first page.
 */
static void hcclt_xpages_reduce(struct hcclt_xpages *dst, u32 doff,
				struct hcclt_xpages *stage, u32 len,
				u32 dtype, u32 rop, bool saturate)
{
	u32 done = 0, d, sp, n;
	void *dv, *sv;

	while (done < len) {
		d = doff + done;
		sp = done;
		n = min3(len - done, (u32)(PAGE_SIZE - offset_in_page(d)),
			 (u32)(PAGE_SIZE - offset_in_page(sp)));
		dv = kmap_local_page(dst->pages[d >> PAGE_SHIFT]);
		sv = kmap_local_page(stage->pages[sp >> PAGE_SHIFT]);
		hcclt_reduce(dtype, rop, dv + offset_in_page(d),
			     sv + offset_in_page(sp), n);
		if (saturate)
			hcclt_saturate(dtype, dv + offset_in_page(d), n);
		kunmap_local(sv);
		kunmap_local(dv);
		done += n;
		cond_resched();
	}
}

/* ---- the owner's side ---------------------------------------------------- */

/**
 * struct hcclt_xmap - a range of this host's HCCL buffer, or of a range
 * registered with a communicator, the peer of a link may reach for one
 * operation.
 * @obj: the buffer, or the registration's object (reference held).
 * @reg: the registration, or NULL (reference held).
 * @off: the range's offset in @obj.
 * @len: its bytes.
 * @op: HCCLT_TASK_WRITE, _READ or _WRITE_REDUCE (the peer's view).
 * @dtype: of a reduce.
 * @rop: of a reduce.
 * @saturate: of a reduce.
 * @buf: the buffer's pages of the range.
 * @stage: a WRITE_REDUCE's staging pages, which the MR covers instead.
 * @mr: the registration.
 * @mapped: when it was mapped (jiffies).
 */
struct hcclt_xmap {
	struct drm_gem_object *obj;
	struct hcclt_memreg *reg;
	u64 off;
	u32 len;
	u32 op;
	u32 dtype;
	u32 rop;
	bool saturate;
	struct hcclt_xpages buf;
	struct hcclt_xpages stage;
	struct ib_mr *mr;
	unsigned long mapped;
};

static bool hcclt_xmap_writable(const struct hcclt_xmap *m)
{
	return m->op != HCCLT_TASK_READ;
}

static struct sg_table *hcclt_xmap_sgt(struct hcclt_xmap *m)
{
	return m->op == HCCLT_TASK_WRITE_REDUCE ? &m->stage.sgt : &m->buf.sgt;
}

/*
 * hcclt_mem_peer_begin() of @m's object, which fails once @m's buffer is
 * revoked or its registration (hcclt_mem_flag_revoke(), as the copy
 * engine's hcclt_copy.c).
 */
static int hcclt_xmap_begin(const struct hcclt_xmap *m)
{
	int ret = hcclt_mem_peer_begin(m->obj);

	if (!ret && m->reg && READ_ONCE(m->reg->revoked)) {
		hcclt_mem_peer_end(m->obj);
		ret = -ECONNRESET;
	}
	return ret;
}

/* Free @m; with @reduce, reduce its staging pages into the buffer first. */
static void hcclt_xmap_free(struct hcclt_link *link, struct hcclt_xmap *m,
			    bool reduce)
{
	if (m->mr)
		hcclt_link_mr_dereg(link, m->mr, hcclt_xmap_sgt(m),
				    hcclt_xmap_writable(m));
	/* A revoked range takes no more data (hcclt_mem_revoke()). */
	if (reduce && m->op == HCCLT_TASK_WRITE_REDUCE &&
	    !hcclt_xmap_begin(m)) {
		hcclt_xpages_reduce(&m->buf, offset_in_page(m->off), &m->stage,
				    m->len, m->dtype, m->rop, m->saturate);
		hcclt_mem_peer_end(m->obj);
	}
	hcclt_xpages_put(&m->stage, false);
	hcclt_xpages_put(&m->buf, m->op != HCCLT_TASK_READ);
	hcclt_memreg_put(m->reg);
	drm_gem_object_put(m->obj);
	kfree(m);
}

/* Is @m's request well formed? */
static int hcclt_xmap_check(const struct hcclt_msg_xmap *m)
{
	u32 op = le32_to_cpu(m->op), len = le32_to_cpu(m->len);
	u32 dtype = le32_to_cpu(m->dtype), rop = le32_to_cpu(m->rop);
	u32 esize;

	if (!len || len > HCCLT_XFER_CHUNK || m->pad ||
	    le32_to_cpu(m->flags) & ~HCCLT_XMAP_SATURATE)
		return -EINVAL;
	if (op == HCCLT_TASK_WRITE || op == HCCLT_TASK_READ)
		return dtype || rop ? -EINVAL : 0;
	if (op != HCCLT_TASK_WRITE_REDUCE)
		return -EINVAL;
	/* The offset is checked once it is one in the object. */
	esize = hcclt_reduce_size(dtype);
	if (!esize || !hcclt_reduce_op_known(rop) || len % esize)
		return -EINVAL;
	return hcclt_reduce_supported(dtype) ? 0 : -EOPNOTSUPP;
}

/*
 * Map @m's range of @x's buffer or registration for the peer of @link:
 * the range is checked against the registration's bounds, or the
 * buffer's.
 */
static int hcclt_xmap_make(struct hcclt_link *link, struct hcclt_xmap *x,
			   const struct hcclt_msg_xmap *m)
{
	u64 base = x->reg ? x->reg->offset : 0;
	u64 size = x->reg ? x->reg->size : x->obj->size;
	int ret;

	x->off = le64_to_cpu(m->offset);
	x->len = le32_to_cpu(m->len);
	x->op = le32_to_cpu(m->op);
	x->dtype = le32_to_cpu(m->dtype);
	x->rop = le32_to_cpu(m->rop);
	x->saturate = le32_to_cpu(m->flags) & HCCLT_XMAP_SATURATE;
	if (x->off > size || x->len > size - x->off)
		return -ERANGE;
	x->off += base;
	/* Whole elements of the object, as on one host (hcclt_copy.c). */
	if (x->op == HCCLT_TASK_WRITE_REDUCE &&
	    x->off % hcclt_reduce_size(x->dtype))
		return -EINVAL;
	ret = hcclt_xmap_begin(x);
	if (ret)
		return ret;
	ret = hcclt_xpages_obj(&x->buf, x->obj, x->off, x->len);
	hcclt_mem_peer_end(x->obj);
	if (ret)
		return ret;
	if (x->op == HCCLT_TASK_WRITE_REDUCE) {
		ret = hcclt_xpages_stage(&x->stage, x->len,
					 hcclt_mem_memcg(x->obj));
		if (ret)
			return ret;
	}
	x->mr = hcclt_link_mr_reg(link, hcclt_xmap_sgt(x),
				  x->op == HCCLT_TASK_WRITE_REDUCE ? x->stage.n :
				  x->buf.n, hcclt_xmap_writable(x));
	if (IS_ERR(x->mr)) {
		ret = PTR_ERR(x->mr);
		x->mr = NULL;
	}
	return ret;
}

/*
 * The object @m names in @comm into @x: the HCCL buffer, or the object of
 * the registration @m->reg.
 */
static int hcclt_xmap_target(struct hcclt_xmap *x, struct hcclt_comm *comm,
			     const struct hcclt_msg_xmap *m)
{
	struct drm_gem_object *obj;

	if (m->reg) {
		x->reg = hcclt_memreg_get(comm, le32_to_cpu(m->reg));
		if (!x->reg)
			return -ECONNRESET;	/* unregistered */
		drm_gem_object_get(x->reg->obj);
		x->obj = x->reg->obj;
		return 0;
	}
	obj = hcclt_comm_buffer_get(comm, 0);
	if (IS_ERR(obj))
		return PTR_ERR(obj) == -ENOENT ? -ECONNRESET : PTR_ERR(obj);
	x->obj = obj;
	return 0;
}

/* XMAP: map the range, answer with it. */
static void hcclt_xfer_msg_xmap(struct hcclt_link *link,
				const struct hcclt_msg_xmap *m)
{
	struct xarray *maps = hcclt_link_maps(link);
	struct hcclt_msg_reply r = { .id = m->id };
	struct hcclt_comm *comm;
	struct hcclt_xmap *x = NULL;
	unsigned long idx;
	int ret, n = 0;

	ret = hcclt_xmap_check(m);
	if (ret)
		goto out;
	xa_for_each(maps, idx, x)
		n++;
	/* Only this work enters ranges: an id in use stays so. */
	x = xa_load(maps, le32_to_cpu(m->id));
	if (n >= HCCLT_XFER_MAPS || x) {
		x = NULL;
		ret = -EBUSY;
		goto out;
	}
	comm = hcclt_channel_xfer_comm(link, le32_to_cpu(m->dst),
				       le32_to_cpu(m->cookie));
	if (!comm) {
		ret = -ECONNRESET;
		goto out;
	}
	x = kzalloc(sizeof(*x), GFP_KERNEL);
	ret = x ? hcclt_xmap_target(x, comm, m) : -ENOMEM;
	hcclt_comm_put(comm);
	if (!ret)
		ret = hcclt_xmap_make(link, x, m);
	if (!ret) {
		x->mapped = jiffies;
		ret = xa_insert(maps, le32_to_cpu(m->id), x, GFP_KERNEL);
	}
	if (!ret) {
		r.rkey = cpu_to_le32(x->mr->rkey);
		r.addr = cpu_to_le64(x->mr->iova);
		x = NULL;
	}
out:
	if (x)
		hcclt_xmap_free(link, x, false);
	r.err = cpu_to_le32(-ret);
	hcclt_link_send(link, HCCLT_MSG_REPLY, &r, sizeof(r));
}

/* BUFQ: the size of the buffer, made if need be. */
static void hcclt_xfer_msg_bufq(struct hcclt_link *link,
				const struct hcclt_msg_bufq *m)
{
	struct hcclt_msg_reply r = { .id = m->id };
	struct drm_gem_object *obj;
	struct hcclt_comm *comm;
	int ret = 0;

	comm = hcclt_channel_xfer_comm(link, le32_to_cpu(m->dst),
				       le32_to_cpu(m->cookie));
	if (!comm) {
		ret = -ECONNRESET;
	} else {
		obj = hcclt_comm_buffer_get(comm, le64_to_cpu(m->size));
		hcclt_comm_put(comm);
		if (IS_ERR(obj)) {
			ret = PTR_ERR(obj) == -ENOENT ? -ECONNRESET :
			      PTR_ERR(obj);
		} else {
			r.addr = cpu_to_le64(obj->size);
			drm_gem_object_put(obj);
		}
	}
	r.err = cpu_to_le32(-ret);
	hcclt_link_send(link, HCCLT_MSG_REPLY, &r, sizeof(r));
}

/* A REPLY and the registered range a MEMQ asked for. */
struct hcclt_xfer_memr {
	struct hcclt_msg_reply r;
	struct hcclt_msg_mem e;
};

static_assert(sizeof(struct hcclt_xfer_memr) + sizeof(struct hcclt_msg_hdr) <=
	      HCCLT_MSG_BYTES);
static_assert(HCCLT_MSG_TAG_BYTES == HCCLT_MEMREG_TAG_LEN);

/* MEMQ: the next registered range, or none. */
static void hcclt_xfer_msg_memq(struct hcclt_link *link,
				const struct hcclt_msg_memq *m)
{
	struct hcclt_xfer_memr a = { .r.id = m->id };
	struct hcclt_memreg *reg;
	struct hcclt_comm *comm;

	comm = hcclt_channel_xfer_comm(link, le32_to_cpu(m->dst),
				       le32_to_cpu(m->cookie));
	if (!comm) {
		a.r.err = cpu_to_le32(ECONNRESET);
	} else {
		reg = hcclt_memreg_next(comm, le32_to_cpu(m->after));
		hcclt_comm_put(comm);
		if (reg) {
			a.e.reg = cpu_to_le32(reg->id);
			a.e.size = cpu_to_le64(reg->size);
			strscpy(a.e.tag, reg->tag, sizeof(a.e.tag));
			hcclt_memreg_put(reg);
		}
	}
	hcclt_link_send(link, HCCLT_MSG_REPLY, &a, sizeof(a));
}

/**
 * hcclt_xfer_msg - a message about data came on @link.
 * @link: the link, up.
 * @type: HCCLT_MSG_XMAP, _XDONE, _BUFQ or _MEMQ.
 * @body: its body.
 * @len: its bytes.
 *
 * The link's receive work, no lock held: messages of the link are
 * handled one at a time, in order.
 */
void hcclt_xfer_msg(struct hcclt_link *link, u16 type, const void *body,
		    size_t len)
{
	const struct hcclt_msg_xdone *d = body;
	struct hcclt_xmap *x;

	switch (type) {
	case HCCLT_MSG_XMAP:
		if (len >= sizeof(struct hcclt_msg_xmap))
			hcclt_xfer_msg_xmap(link, body);
		break;
	case HCCLT_MSG_XDONE:
		if (len < sizeof(*d))
			break;
		x = xa_erase(hcclt_link_maps(link), le32_to_cpu(d->id));
		if (x)
			hcclt_xmap_free(link, x, !d->err);
		break;
	case HCCLT_MSG_BUFQ:
		if (len >= sizeof(struct hcclt_msg_bufq))
			hcclt_xfer_msg_bufq(link, body);
		break;
	case HCCLT_MSG_MEMQ:
		if (len >= sizeof(struct hcclt_msg_memq))
			hcclt_xfer_msg_memq(link, body);
		break;
	default:
		pr_warn_ratelimited("hcclthread: link to %pI4: unknown message %u dropped\n",
				    &hcclt_link_peer(link)->addr, type);
		break;
	}
}

/**
 * hcclt_xfer_maps_overdue - has a range stayed mapped for the peer of
 * @link past xfer_map_ms? Then the link should go down.
 * @link: the link, up.
 *
 * Process context (the link's beat).
 *
 * Return: true when one has.
 */
bool hcclt_xfer_maps_overdue(struct hcclt_link *link)
{
	unsigned long limit = msecs_to_jiffies(READ_ONCE(xfer_map_ms));
	struct xarray *maps = hcclt_link_maps(link);
	struct hcclt_xmap *x;
	unsigned long idx;
	bool overdue = false;

	/* Under the lock: the receive work frees an entry once erased. */
	xa_lock(maps);
	xa_for_each(maps, idx, x) {
		if (time_after(jiffies, x->mapped + limit)) {
			overdue = true;
			break;
		}
	}
	xa_unlock(maps);
	return overdue;
}

/**
 * hcclt_xfer_link_drained - @link's QP is drained: no operation of the
 * peer reaches this host's ranges any more; unmap them all.
 * @link: the link, going down.
 */
void hcclt_xfer_link_drained(struct hcclt_link *link)
{
	struct xarray *maps = hcclt_link_maps(link);
	struct hcclt_xmap *x;
	unsigned long idx;

	xa_for_each(maps, idx, x) {
		xa_erase(maps, idx);
		hcclt_xmap_free(link, x, false);
	}
}

/* ---- the initiator's side ------------------------------------------------ */

/**
 * struct hcclt_xfer - a data task on a channel to another host.
 * @work: runs it (hcclt_xfer_work()).
 * @link: the channel's link (reference held).
 * @rtoken: the peer side's channel token.
 * @rcookie: its cookie.
 * @rreg: the id of the peer's registered range the task reaches, or 0
 *	for its HCCL buffer.
 * @c: the task's copy, once started.
 * @t: what it moves, once started.
 */
struct hcclt_xfer {
	struct work_struct work;
	struct hcclt_link *link;
	u32 rtoken;
	u32 rcookie;
	u32 rreg;
	struct hcclt_copy *c;
	struct hcclt_xfer_task t;
};

/**
 * hcclt_xfer_new - a data task's transfer on a channel to another host.
 * @link: the channel's link.
 * @rtoken: the other side's channel token.
 * @rcookie: its cookie.
 * @rreg: the id of the range of the other side the task reaches (one it
 *	registered, hcclt_xfer_mems()), or 0 for its HCCL buffer.
 *
 * Return: the transfer, or ERR_PTR(-ENOMEM).
 */
struct hcclt_xfer *hcclt_xfer_new(struct hcclt_link *link, u32 rtoken,
				  u32 rcookie, u32 rreg)
{
	struct hcclt_xfer *x = kzalloc(sizeof(*x), GFP_KERNEL_ACCOUNT);

	if (!x)
		return ERR_PTR(-ENOMEM);
	x->link = hcclt_link_ref(link);
	x->rtoken = rtoken;
	x->rcookie = rcookie;
	x->rreg = rreg;
	return x;
}

/**
 * hcclt_xfer_free - free a transfer that is not running.
 * @x: the transfer, or NULL.
 */
void hcclt_xfer_free(struct hcclt_xfer *x)
{
	if (!x)
		return;
	hcclt_link_put(x->link);
	kfree(x);
}

/* The chunk of @x at @done, of @n bytes: map, move, unmap. */
static int hcclt_xfer_chunk(struct hcclt_xfer *x, u64 done, u32 n)
{
	const struct hcclt_xfer_task *t = &x->t;
	bool read = t->op == HCCLT_TASK_READ || t->op == HCCLT_TASK_READ_REDUCE;
	bool stage = t->op == HCCLT_TASK_READ_REDUCE;
	struct hcclt_xpages local = {}, tmp = {};
	struct hcclt_msg_xmap m = {};
	struct hcclt_msg_xdone d = {};
	struct hcclt_link_req req = {};
	u32 id;
	int ret;

	ret = hcclt_xpages_obj(&local, t->local, t->loff + done, n);
	if (!ret && stage)
		ret = hcclt_xpages_stage(&tmp, n, hcclt_mem_memcg(t->local));
	if (ret)
		goto out;
	ret = hcclt_link_req_start(x->link, &req, &id);
	if (ret)
		goto out;
	m.dst = cpu_to_le32(x->rtoken);
	m.cookie = cpu_to_le32(x->rcookie);
	m.id = cpu_to_le32(id);
	m.op = cpu_to_le32(read ? HCCLT_TASK_READ : t->op);
	m.offset = cpu_to_le64(t->roff + done);
	m.len = cpu_to_le32(n);
	m.reg = cpu_to_le32(x->rreg);
	if (t->op == HCCLT_TASK_WRITE_REDUCE) {
		m.dtype = cpu_to_le32(t->dtype);
		m.rop = cpu_to_le32(t->rop);
		m.flags = cpu_to_le32(t->saturate ? HCCLT_XMAP_SATURATE : 0);
	}
	ret = hcclt_link_send(x->link, HCCLT_MSG_XMAP, &m, sizeof(m));
	if (ret) {
		hcclt_link_req_drop(x->link, id);
		goto out;
	}
	ret = hcclt_link_req_wait(x->link, &req, id);
	if (ret == -ETIMEDOUT) {
		/* It may have been mapped: the owner unmaps it on XDONE. */
		d.id = m.id;
		d.err = cpu_to_le32(ETIMEDOUT);
		if (hcclt_link_send(x->link, HCCLT_MSG_XDONE, &d, sizeof(d)))
			hcclt_link_abort(x->link);
	}
	if (ret) {
		hcclt_link_req_drop(x->link, id);
		goto out;
	}
	ret = hcclt_link_rdma(x->link, stage ? &tmp.sgt : &local.sgt,
			      le64_to_cpu(req.reply.addr),
			      le32_to_cpu(req.reply.rkey), read);
	d.id = m.id;
	d.err = cpu_to_le32(-ret);
	/*
	 * After the operation, in order: a WRITE_REDUCE is reduced first.
	 * An XDONE that cannot go leaves the range mapped under an id this
	 * host no longer holds: the link goes down, which unmaps it.
	 */
	if (hcclt_link_send(x->link, HCCLT_MSG_XDONE, &d, sizeof(d)))
		hcclt_link_abort(x->link);
	/* The owner unmaps it before it handles the id again. */
	hcclt_link_req_drop(x->link, id);
	if (!ret && stage)
		hcclt_xpages_reduce(&local, offset_in_page(t->loff + done), &tmp,
				    n, t->dtype, t->rop, t->saturate);
out:
	hcclt_xpages_put(&tmp, false);
	hcclt_xpages_put(&local, read && !ret);
	return ret;
}

static void hcclt_xfer_work(struct work_struct *work)
{
	struct hcclt_xfer *x = container_of(work, struct hcclt_xfer, work);
	u64 done = 0;
	u32 n;
	int err = 0;

	while (!err && done < x->t.len) {
		/* A flushed stream's task: nothing more of it runs. */
		if (hcclt_copy_cancelled(x->c))
			break;
		n = min_t(u64, x->t.len - done, HCCLT_XFER_CHUNK);
		hcclt_link_xfer_begin(x->link);
		/* Flushed while it waited for a slot: nothing more runs. */
		if (!hcclt_copy_cancelled(x->c))
			err = hcclt_xfer_chunk(x, done, n);
		hcclt_link_xfer_end(x->link);
		done += n;
	}
	/* Completes the task unless cancelled; frees the copy and @x. */
	hcclt_copy_remote_end(x->c, err);
}

/**
 * hcclt_xfer_start - the executor reached the task of @x: run it.
 * @x: the transfer (hcclt_xfer_new()), now @c's until it ends.
 * @c: the task's copy, which completes the task when @x ends
 *	(hcclt_copy_remote_end()).
 * @t: what it moves.
 * @wq: the workqueue of the stream's device, which its unplug drains.
 *
 * Called under the device's sched_lock.
 */
void hcclt_xfer_start(struct hcclt_xfer *x, struct hcclt_copy *c,
		      const struct hcclt_xfer_task *t,
		      struct workqueue_struct *wq)
{
	x->c = c;
	x->t = *t;
	INIT_WORK(&x->work, hcclt_xfer_work);
	queue_work(wq, &x->work);
}

/**
 * hcclt_xfer_buffer - the size of the HCCL buffer of a channel's peer on
 * another host, made with @size there if it has none yet.
 * @link: the channel's link.
 * @rtoken: the peer side's channel token.
 * @rcookie: its cookie.
 * @size: bytes to make it with; 0 not to.
 * @out: its size.
 *
 * Sleeps for a round trip on the link.
 *
 * Return: 0, -ECONNRESET (the peer is gone, or the link), -ENOBUFS,
 * -EDQUOT, -ENOMEM (the peer's device or account), -ETIMEDOUT.
 */
int hcclt_xfer_buffer(struct hcclt_link *link, u32 rtoken, u32 rcookie,
		      u64 size, u64 *out)
{
	struct hcclt_msg_bufq m = {};
	struct hcclt_link_req req = {};
	u32 id;
	int ret;

	ret = hcclt_link_req_start(link, &req, &id);
	if (ret)
		return ret;
	m.dst = cpu_to_le32(rtoken);
	m.cookie = cpu_to_le32(rcookie);
	m.id = cpu_to_le32(id);
	m.size = cpu_to_le64(size);
	ret = hcclt_link_send(link, HCCLT_MSG_BUFQ, &m, sizeof(m));
	if (ret) {
		hcclt_link_req_drop(link, id);
		return ret;
	}
	ret = hcclt_link_req_wait(link, &req, id);
	hcclt_link_req_drop(link, id);
	if (!ret)
		*out = le64_to_cpu(req.reply.addr);
	return ret;
}

/**
 * hcclt_xfer_mems - the ranges a channel's peer on another host has
 * registered, one round trip (MEMQ) each, in id order.
 * @link: the channel's link.
 * @rtoken: the peer side's channel token.
 * @rcookie: its cookie.
 * @out: where the first @cap go.
 * @cap: entries of @out.
 * @n: out, how many there are (at most HCCLT_MAX_MEMREGS: no peer has
 *	more).
 *
 * Ranges registered or unregistered meanwhile may or may not be listed.
 * Sleeps for the round trips.
 *
 * Return: 0, -ECONNRESET (the peer is gone, or the link), -EIO (the peer
 * broke the protocol), -ETIMEDOUT, -EINTR, -EBUSY and -ENOMEM (no
 * request id for it).
 */
int hcclt_xfer_mems(struct hcclt_link *link, u32 rtoken, u32 rcookie,
		    struct drm_hcclt_remote_mem *out, u32 cap, u32 *n)
{
	struct hcclt_msg_memq m = {};
	struct hcclt_link_req req = {};
	struct hcclt_msg_mem e;
	u32 id, after = 0;
	int ret;

	*n = 0;
	m.dst = cpu_to_le32(rtoken);
	m.cookie = cpu_to_le32(rcookie);
	req.tail = &e;
	req.tail_len = sizeof(e);
	for (;;) {
		memset(&e, 0, sizeof(e));
		ret = hcclt_link_req_start(link, &req, &id);
		if (ret)
			return ret;
		m.id = cpu_to_le32(id);
		m.after = cpu_to_le32(after);
		ret = hcclt_link_send(link, HCCLT_MSG_MEMQ, &m, sizeof(m));
		if (!ret)
			ret = hcclt_link_req_wait(link, &req, id);
		hcclt_link_req_drop(link, id);
		/* Down between the two (-ENOTCONN): as a link that went. */
		if (ret)
			return ret == -ENOTCONN ? -ECONNRESET : ret;
		/* The end; or as many as a peer has, some made meanwhile. */
		if (!e.reg || *n == HCCLT_MAX_MEMREGS)
			return 0;
		/* Ids only go up. */
		if (le32_to_cpu(e.reg) <= after)
			return -EIO;
		after = le32_to_cpu(e.reg);
		if (*n < cap) {
			out[*n].reg_id = after;
			out[*n].pad = 0;
			out[*n].size = le64_to_cpu(e.size);
			strscpy_pad(out[*n].tag, e.tag, sizeof(out[*n].tag));
		}
		(*n)++;
	}
}
