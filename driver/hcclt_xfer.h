/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: data tasks between hosts (hcclt_xfer.c), RDMA READs and
 * WRITEs on the link to the peer's host.
 */
#ifndef _HCCLT_XFER_H_
#define _HCCLT_XFER_H_

#include <linux/errno.h>
#include <linux/types.h>

#include "hcclt_link.h"

struct drm_gem_object;
struct drm_hcclt_remote_mem;
struct hcclt_copy;
struct hcclt_xfer;

/**
 * struct hcclt_xfer_task - what a data task to another host moves.
 * @local: this side's object (reference held by the task's copy).
 * @loff: byte offset in @local.
 * @roff: byte offset in the peer's HCCL buffer.
 * @len: bytes.
 * @op: HCCLT_TASK_WRITE, _READ, _WRITE_REDUCE or _READ_REDUCE.
 * @dtype: of a reduce, HCCLT_DTYPE_*.
 * @rop: of a reduce, HCCLT_REDUCE_*.
 * @saturate: a reduce saturates float results.
 */
struct hcclt_xfer_task {
	struct drm_gem_object *local;
	u64 loff;
	u64 roff;
	u64 len;
	u32 op;
	u32 dtype;
	u32 rop;
	bool saturate;
};

#ifdef HCCLT_HAS_CLUSTER
struct hcclt_xfer *hcclt_xfer_new(struct hcclt_link *link, u32 rtoken,
				  u32 rcookie, u32 rreg);
void hcclt_xfer_free(struct hcclt_xfer *x);
void hcclt_xfer_start(struct hcclt_xfer *x, struct hcclt_copy *c,
		      const struct hcclt_xfer_task *t,
		      struct workqueue_struct *wq);
int hcclt_xfer_buffer(struct hcclt_link *link, u32 rtoken, u32 rcookie,
		      u64 size, u64 *out);
int hcclt_xfer_mems(struct hcclt_link *link, u32 rtoken, u32 rcookie,
		    struct drm_hcclt_remote_mem *out, u32 cap, u32 *n);
#else
/* No links: no channel to another host, no data task to one. */
static inline struct hcclt_xfer *hcclt_xfer_new(struct hcclt_link *link,
						u32 rtoken, u32 rcookie,
						u32 rreg)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline void hcclt_xfer_free(struct hcclt_xfer *x)
{
}

static inline void hcclt_xfer_start(struct hcclt_xfer *x,
				    struct hcclt_copy *c,
				    const struct hcclt_xfer_task *t,
				    struct workqueue_struct *wq)
{
}

static inline int hcclt_xfer_buffer(struct hcclt_link *link, u32 rtoken,
				    u32 rcookie, u64 size, u64 *out)
{
	return -EOPNOTSUPP;
}

static inline int hcclt_xfer_mems(struct hcclt_link *link, u32 rtoken,
				  u32 rcookie,
				  struct drm_hcclt_remote_mem *out, u32 cap,
				  u32 *n)
{
	return -EOPNOTSUPP;
}
#endif

#endif /* _HCCLT_XFER_H_ */
