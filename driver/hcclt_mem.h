/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: device memory objects and the communicators' HCCL
 * buffers (hcclt_mem.c).
 */
#ifndef _HCCLT_MEM_H_
#define _HCCLT_MEM_H_

#include <linux/stddef.h>
#include <linux/types.h>

struct dma_buf;
struct drm_device;
struct drm_file;
struct drm_gem_object;
struct drm_printer;
struct hcclt_comm;
struct hcclt_device;
struct mem_cgroup;

int hcclt_mem_check_params(void);
struct drm_gem_object *hcclt_mem_lookup(struct drm_file *df, u32 handle);
struct mem_cgroup *hcclt_mem_memcg(struct drm_gem_object *obj);
void hcclt_mem_dev_init(struct hcclt_device *hdev);
struct drm_gem_object *hcclt_mem_create_object(struct drm_device *drm,
					       size_t size);
int hcclt_mem_create_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);
int hcclt_comm_buffer_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);
void hcclt_comm_buffer_drop(struct hcclt_comm *comm);

struct dma_buf *hcclt_mem_export(struct drm_gem_object *obj);
void hcclt_mem_revoke(struct drm_gem_object *obj);
void hcclt_mem_flag_revoke(struct drm_gem_object *obj, bool *flag);
int hcclt_mem_peer_begin(struct drm_gem_object *obj);
void hcclt_mem_peer_end(struct drm_gem_object *obj);
struct drm_gem_object *hcclt_comm_buffer_get(struct hcclt_comm *comm,
					     u64 size);
void hcclt_mem_query(struct hcclt_device *hdev, u64 *total, u64 *used);
void hcclt_mem_show_fdinfo(struct drm_printer *p, struct drm_file *df);

#endif /* _HCCLT_MEM_H_ */
