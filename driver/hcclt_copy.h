/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the copy engine of data tasks (hcclt_copy.c).
 */
#ifndef _HCCLT_COPY_H_
#define _HCCLT_COPY_H_

#include <linux/list.h>
#include <linux/types.h>

struct drm_gem_object;
struct hcclt_copy;
struct hcclt_memreg;
struct hcclt_device;
struct hcclt_stream;
struct hcclt_xfer;

/**
 * struct hcclt_copyq - one client's queue in its device's copy engine
 *	(hcclt_copy.c): the copies of the streams of one file, in the order
 *	they get their turns.
 * @node: entry in hdev->copy_clients while @copies is not empty;
 *	sched_lock.
 * @copies: the client's copies waiting for their turn; sched_lock.
 */
struct hcclt_copyq {
	struct list_head node;
	struct list_head copies;
};

int hcclt_copy_prepare(u32 op, struct drm_gem_object *src, u64 soff,
		       struct drm_gem_object *dst, u64 doff, u64 len,
		       u32 dtype, u32 rop, struct hcclt_copy **out);
int hcclt_copy_prepare_remote(u32 op, struct drm_gem_object *local, u64 loff,
			      u64 roff, u64 len, u32 dtype, u32 rop,
			      struct hcclt_xfer *x, struct hcclt_copy **out);
void hcclt_copy_drop(struct hcclt_device *hdev, struct hcclt_copy *c);
bool hcclt_copy_cancelled(struct hcclt_copy *c);
void hcclt_copy_remote_end(struct hcclt_copy *c, int err);
void hcclt_copy_set_reg(struct hcclt_copy *c, struct hcclt_memreg *reg);
void hcclt_copy_start(struct hcclt_stream *s, struct hcclt_copy *c,
		      u64 seqno);
void hcclt_sched_copy_done_locked(struct hcclt_stream *s, u64 seqno, int err);
void hcclt_copy_cancel(struct hcclt_stream *s);
void hcclt_copy_dev_init(struct hcclt_device *hdev);
void hcclt_copyq_init(struct hcclt_copyq *q);

#endif /* _HCCLT_COPY_H_ */
