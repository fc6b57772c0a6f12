/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the INFO and INFO_ARRAY ioctls (hcclt_info.c).
 */
#ifndef _HCCLT_INFO_H_
#define _HCCLT_INFO_H_

#include <linux/types.h>

#include "hcclthread_accel.h"

struct drm_device;
struct drm_file;
struct drm_hcclt_wait_info;
struct hcclt_comm;
struct hcclt_file;
struct hcclt_thread;

bool hcclt_file_visible(const struct hcclt_file *self,
			struct hcclt_file *file, bool admin);
void hcclt_info_comm(struct drm_hcclt_comm_info *ci, struct hcclt_comm *comm);
struct drm_hcclt_wait_info;
void hcclt_info_thread(struct drm_hcclt_thread_info *ti,
		       struct drm_hcclt_wait_info *wi, struct hcclt_thread *t);
int hcclt_info_ioctl(struct drm_device *drm, void *data, struct drm_file *df);
int hcclt_info_array_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);

#endif /* _HCCLT_INFO_H_ */
