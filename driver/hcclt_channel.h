/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: channels, kernel-owned cross-rank notifies
 * (hcclt_channel.c).
 */
#ifndef _HCCLT_CHANNEL_H_
#define _HCCLT_CHANNEL_H_

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct drm_gem_object;
struct drm_hcclt_remote_mem;
struct hcclt_channel;
struct hcclt_comm;
struct hcclt_link;
struct hcclt_notify;
struct hcclt_xfer;

int hcclt_channel_init(void);
void hcclt_channel_fini(void);
void hcclt_channel_comm_init(struct hcclt_comm *comm);
void hcclt_channel_comm_gone(struct hcclt_comm *comm);
struct hcclt_channel *hcclt_channel_lookup(struct hcclt_comm *comm, u64 id);
void hcclt_channel_put(struct hcclt_channel *chan);
struct hcclt_comm *hcclt_channel_peer_comm(struct hcclt_channel *chan);
bool hcclt_channel_is(const struct hcclt_channel *chan, u64 id);
int hcclt_channel_task_notify(struct hcclt_channel *chan, u32 engine,
			      u32 op, u32 idx, struct hcclt_notify **out);
int hcclt_channel_task_check(struct hcclt_channel *chan, u32 engine);
struct hcclt_xfer *hcclt_channel_xfer_new(struct hcclt_channel *chan,
					  u32 rreg);
int hcclt_channel_remote_mems(struct hcclt_channel *chan,
			      struct drm_hcclt_remote_mem *out, u32 cap,
			      u32 *n);
struct hcclt_comm *hcclt_channel_xfer_comm(struct hcclt_link *link, u32 token,
					   u32 cookie);
struct drm_gem_object *hcclt_channel_peer_buffer(struct hcclt_channel *chan,
						 u64 size);
int hcclt_channel_buffer_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df);
int hcclt_channel_acquire_ioctl(struct drm_device *drm, void *data,
				struct drm_file *df);

#endif /* _HCCLT_CHANNEL_H_ */
