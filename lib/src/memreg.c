// SPDX-License-Identifier: MIT
/*
 * Registered memory (hcomm's HcclCommMemReg, HcclCommDeregMem,
 * HcclChannelGetRemoteMems; uAPI 1.13, HCCLT_FEATURE_MEMREG).
 *
 * A registration is a kernel object of the communicator
 * (DRM_IOCTL_HCCLT_MEM_REG): a range of one memory object of this process,
 * with its tag. Every rank the communicator has a channel to sees it
 * (DRM_IOCTL_HCCLT_CHANNEL_MEMS) and may write into it and read from it;
 * the kernel checks each such task against the range and revokes the
 * range when it is unregistered or its communicator goes.
 *
 * Here: @regs lists this process's registrations (the HcclMemHandle is a
 * pointer to one, checked against the list before use), and @remotes the
 * answers of HcclChannelGetRemoteMems, whose arrays the caller keeps
 * until the next call for that channel or HcclCommDestroy(). A peer's
 * range is reserved in the device window (mem.c's ALLOC_PEER_REG) at the
 * first answer that names it, and keeps its address for the
 * communicator's life. Both lists name their communicator by struct,
 * kernel id and fork generation, as commmem.c does.
 *
 * Lock order: memreg_lock, then mem.c's table_lock.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "hccl/hccl_res.h"

struct lreg {
	struct lreg *next;
	const struct hcclt_comm *comm;
	uint64_t comm_id;
	uint32_t gen;
	uint32_t reg_id;
	char tag[HCCLT_MEMREG_TAG_LEN];
};

struct remote {
	struct remote *next;
	const struct hcclt_comm *comm;
	uint64_t comm_id;
	uint32_t gen;
	uint64_t chan;
	uint32_t n;
	CommMem *mems;
	char **tags;		/* n pointers into @tagbuf */
	char *tagbuf;
};

/* protects regs and remotes */
static pthread_mutex_t memreg_lock = PTHREAD_MUTEX_INITIALIZER;
static struct lreg *regs;
static struct remote *remotes;

static int lreg_of(const struct lreg *r, const struct hcclt_comm *c)
{
	return r->comm == c && r->comm_id == c->id && r->gen == c->gen;
}

HCCLT_EXPORT HcclResult HcclCommMemReg(HcclComm comm, const char *memTag, const CommMem *mem,
				       HcclMemHandle *memHandle)
{
	struct drm_hcclt_mem_reg mr;
	struct hcclt_seg seg;
	struct hcclt_comm *c;
	struct lreg *r;
	size_t tlen;
	int fd, err;

	/* hcomm's order, comm_mem_c_adpt.cc:30-63. */
	if (!comm || !memTag)
		return HCCL_E_PTR;
	tlen = strlen(memTag);
	if (!tlen || tlen > HCCL_RES_TAG_MAX_LEN)
		return HCCL_E_PARA;
	if (!mem || !memHandle)
		return HCCL_E_PTR;
	if (mem->type != COMM_MEM_TYPE_DEVICE && mem->type != COMM_MEM_TYPE_HOST)
		return HCCL_E_PARA;
	if (!mem->addr)
		return HCCL_E_PTR;
	if (!mem->size)
		return HCCL_E_PARA;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (mem->type == COMM_MEM_TYPE_HOST)
		return HCCL_E_NOT_SUPPORT;
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	if (!(hcclt_device_features(c->dev) & HCCLT_FEATURE_MEMREG))
		return HCCL_E_NOT_SUPPORT;
	/* One object of this device, not a peer's: one piece with a handle. */
	if (hcclt_mem_segments(c->dev, mem->addr, mem->size, &seg, 1) != 1 || !seg.handle ||
	    seg.chan)
		return HCCL_E_PARA;
	r = calloc(1, sizeof(*r));
	if (!r)
		return HCCL_E_MEMORY;
	memset(&mr, 0, sizeof(mr));
	mr.comm_id = c->id;
	mr.handle = seg.handle;
	mr.offset = seg.off;
	mr.size = mem->size;
	memcpy(mr.tag, memTag, tlen);
	err = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_REG, &mr);
	if (err) {
		free(r);
		return hcclt_map_errno(HCCLT_OP_MEM_REG, err);
	}
	r->comm = c;
	r->comm_id = c->id;
	r->gen = c->gen;
	r->reg_id = mr.reg_id;
	memcpy(r->tag, memTag, tlen);
	pthread_mutex_lock(&memreg_lock);
	r->next = regs;
	regs = r;
	pthread_mutex_unlock(&memreg_lock);
	*memHandle = r;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclCommDeregMem(HcclComm comm, const char *memTag,
					 const void *memHandle)
{
	struct drm_hcclt_mem_unreg mu;
	struct lreg **pp, *r;
	struct hcclt_comm *c;
	int fd, err;

	/* hcomm's order and codes, comm_mem_c_adpt.cc:96-101. */
	if (!comm || !memHandle)
		return HCCL_E_PTR;
	if (!memTag || !*memTag)
		return HCCL_E_PARA;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	pthread_mutex_lock(&memreg_lock);
	for (pp = &regs; (r = *pp); pp = &r->next)
		if (r == memHandle && lreg_of(r, c) && !strcmp(r->tag, memTag))
			break;
	if (r)
		*pp = r->next;
	pthread_mutex_unlock(&memreg_lock);
	/* hcomm: a handle not bound under the tag is a warning, success. */
	if (!r)
		return HCCL_SUCCESS;
	fd = hcclt_device_fd_fast(c->dev);
	err = -ENODEV;
	if (fd >= 0) {
		memset(&mu, 0, sizeof(mu));
		mu.comm_id = c->id;
		mu.reg_id = r->reg_id;
		err = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_UNREG, &mu);
	}
	free(r);
	/* -ENOENT: the communicator went meanwhile, and the range with it. */
	return !err || err == -ENOENT ? HCCL_SUCCESS : hcclt_map_errno(HCCLT_OP_MEM_REG, err);
}

static void remote_free(struct remote *x)
{
	free(x->mems);
	free(x->tags);
	free(x->tagbuf);
	free(x);
}

HCCLT_EXPORT HcclResult HcclChannelGetRemoteMems(HcclComm comm, ChannelHandle channel,
						 uint32_t *memNum, CommMem **remoteMems,
						 char ***memTags)
{
	struct drm_hcclt_remote_mem *rm = NULL;
	struct drm_hcclt_channel_mems cm;
	struct remote *x = NULL, **pp, *old;
	struct hcclt_comm *c;
	uint64_t cid;
	uint32_t i, cap = 16;
	int fd, err;

	/* hcomm's order, channel_c_adpt.cc:131-136. */
	if (!comm || !remoteMems || !memTags || !memNum)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (hcclt_channel_parse(channel, c->dev, &cid))
		return HCCL_E_PARA;
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	if (!(hcclt_device_features(c->dev) & HCCLT_FEATURE_MEMREG))
		return HCCL_E_NOT_SUPPORT;
	for (;;) {
		free(rm);
		rm = calloc(cap, sizeof(*rm));
		if (!rm)
			return HCCL_E_MEMORY;
		memset(&cm, 0, sizeof(cm));
		cm.comm_id = c->id;
		cm.channel_id = cid;
		cm.mems_ptr = (uintptr_t)rm;
		cm.count = cap;
		cm.mem_size = sizeof(*rm);
		err = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_CHANNEL_MEMS, &cm);
		if (err) {
			free(rm);
			return hcclt_map_errno(HCCLT_OP_CHANNEL_MEMS, err);
		}
		if (cm.count <= cap)
			break;
		cap = cm.count;	/* registered meanwhile: again, with room */
	}
	x = calloc(1, sizeof(*x));
	if (!x)
		goto nomem;
	x->comm = c;
	x->comm_id = c->id;
	x->gen = c->gen;
	x->chan = cid;
	x->n = cm.count;
	if (x->n) {
		x->mems = calloc(x->n, sizeof(*x->mems));
		x->tags = calloc(x->n, sizeof(*x->tags));
		x->tagbuf = calloc(x->n, HCCLT_MEMREG_TAG_LEN);
		if (!x->mems || !x->tags || !x->tagbuf)
			goto nomem;
	}
	for (i = 0; i < x->n; i++) {
		x->mems[i].type = COMM_MEM_TYPE_DEVICE;
		x->mems[i].size = rm[i].size;
		x->mems[i].addr = hcclt_mem_peer_reg(c, cid, rm[i].reg_id, rm[i].size);
		if (!x->mems[i].addr)
			goto nomem;
		x->tags[i] = x->tagbuf + (size_t)i * HCCLT_MEMREG_TAG_LEN;
		memcpy(x->tags[i], rm[i].tag, HCCLT_MEMREG_TAG_LEN - 1);
	}
	free(rm);
	/* The answer before for this channel goes: its arrays are invalid now. */
	pthread_mutex_lock(&memreg_lock);
	for (pp = &remotes; (old = *pp); pp = &old->next)
		if (old->comm == c && old->comm_id == c->id && old->gen == c->gen &&
		    old->chan == cid)
			break;
	if (old)
		*pp = old->next;
	x->next = remotes;
	remotes = x;
	pthread_mutex_unlock(&memreg_lock);
	if (old)
		remote_free(old);
	*memNum = x->n;
	*remoteMems = x->n ? x->mems : NULL;
	*memTags = x->n ? x->tags : NULL;
	return HCCL_SUCCESS;
nomem:
	free(rm);
	if (x)
		remote_free(x);
	return HCCL_E_MEMORY;
}

/*
 * @c is being destroyed: forget its registrations (the kernel revokes
 * them with the communicator) and its answers.
 */
void hcclt_memreg_comm_gone(const struct hcclt_comm *c)
{
	struct lreg **pp, *r, *rgone = NULL;
	struct remote **qq, *x, *xgone = NULL;

	pthread_mutex_lock(&memreg_lock);
	for (pp = &regs; (r = *pp);) {
		if (lreg_of(r, c)) {
			*pp = r->next;
			r->next = rgone;
			rgone = r;
		} else {
			pp = &r->next;
		}
	}
	for (qq = &remotes; (x = *qq);) {
		if (x->comm == c && x->comm_id == c->id && x->gen == c->gen) {
			*qq = x->next;
			x->next = xgone;
			xgone = x;
		} else {
			qq = &x->next;
		}
	}
	pthread_mutex_unlock(&memreg_lock);
	while ((r = rgone)) {
		rgone = r->next;
		free(r);
	}
	while ((x = xgone)) {
		xgone = x->next;
		remote_free(x);
	}
}
