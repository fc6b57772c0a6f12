/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: kernel launches, run by the AI CPU worker
 * (hcclt_kernel.c).
 */
#ifndef _HCCLT_KERNEL_H_
#define _HCCLT_KERNEL_H_

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct hcclt_launch;
struct hcclt_stream;

int hcclt_launch_prepare(struct drm_file *df, u64 cookie, u64 handle,
			 struct hcclt_launch **out);
void hcclt_launch_free(struct drm_device *dev, struct hcclt_launch *l);
void hcclt_launch_send(struct drm_device *dev, struct hcclt_launch *l,
		       u64 seqno, bool cancelled);
int hcclt_sched_launch_done(struct hcclt_stream *s, u64 seqno, s32 status);
int hcclt_sched_launch_start(struct hcclt_stream *s, u64 seqno);
int hcclt_kernel_done_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);

#endif /* _HCCLT_KERNEL_H_ */
