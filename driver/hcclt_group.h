/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: groups, the rendezvous of multi-rank communicators
 * (hcclt_group.c).
 */
#ifndef _HCCLT_GROUP_H_
#define _HCCLT_GROUP_H_

#include <linux/ktime.h>
#include <linux/types.h>

struct drm_device;
struct drm_file;
struct hcclt_comm;
struct hcclt_file;
struct hcclt_group;
struct hcclt_link;

int hcclt_group_init(void);
void hcclt_group_fini(void);
bool hcclt_group_rank_alive(struct hcclt_group *group, u32 rank);
bool hcclt_group_rank_remote(struct hcclt_group *group, u32 rank);
struct hcclt_link *hcclt_group_rank_link(struct hcclt_group *group, u32 rank,
					 ktime_t deadline);
struct hcclt_host;
const struct hcclt_group *hcclt_group_find_remote(const u8 *key,
						  const struct hcclt_host *from,
						  u32 rank, u32 local);
const u8 *hcclt_group_key(const struct hcclt_group *group);
u32 hcclt_group_nranks(const struct hcclt_group *group);
u32 hcclt_group_rank_device(struct hcclt_group *group, u32 rank);
const char *hcclt_group_name(const struct hcclt_group *group);
void hcclt_group_comm_gone(struct hcclt_comm *comm);
void hcclt_group_file_close(struct hcclt_file *file);
int hcclt_group_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df);
int hcclt_group_join_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);
int hcclt_group_info_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);

#endif /* _HCCLT_GROUP_H_ */
