/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: DRM syncobjs: a submit's in-fences and out-syncobjs
 * (hcclt_syncobj.c) and the syncobj ioctls (hcclt_syncobj_ioctl.c).
 */
#ifndef _HCCLT_SYNCOBJ_H_
#define _HCCLT_SYNCOBJ_H_

#include <linux/compiler_types.h>
#include <linux/types.h>

#include "hcclthread_accel.h"

struct dma_fence;
struct drm_file;
struct hcclt_gate;
struct hcclt_outsync;
struct hcclt_stream;

/* hcclt_syncobj_ioctl.c */
bool hcclt_sobj_ioctl_nr(unsigned int nr);
long hcclt_sobj_ioctl(struct drm_file *df, unsigned int cmd,
		      void __user *argp);

/* hcclt_syncobj.c */
int hcclt_syncobj_init(void);
void hcclt_syncobj_fini(void);
int hcclt_gate_new(struct drm_file *df, const struct drm_hcclt_submit *args,
		   struct hcclt_gate **out);
struct hcclt_gate *hcclt_gate_get(struct hcclt_gate *g);
void hcclt_gate_put(struct hcclt_gate *g);
bool hcclt_gate_step(struct hcclt_stream *s, struct hcclt_gate *g, int *err);
void hcclt_gate_disarm(struct hcclt_gate *g);
void hcclt_gate_unarmed(struct hcclt_gate *g);
void hcclt_sched_gate_wake(struct hcclt_stream *s, struct hcclt_gate *g);
int hcclt_outsyncs_new(struct drm_file *df,
		       const struct drm_hcclt_submit *args,
		       struct hcclt_outsync **out);
void hcclt_outsyncs_signal(struct hcclt_outsync *o, u32 n,
			   struct dma_fence *fence);
void hcclt_outsyncs_free(struct hcclt_outsync *o, u32 n);

#endif /* _HCCLT_SYNCOBJ_H_ */
