// SPDX-License-Identifier: MIT
/*
 * hcclthread.h: usage numbers and completion fds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

HCCLT_EXPORT aclError hccltGetDeviceCount(uint32_t *count)
{
	if (!count)
		return ACL_ERROR_INVALID_PARAM;
	*count = (uint32_t)hcclt_device_count();
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError hccltGetDeviceUsage(int32_t deviceId, hccltDeviceUsage *u)
{
	struct drm_hcclt_query q;
	int fd, ret;

	if (!u)
		return ACL_ERROR_INVALID_PARAM;
	fd = hcclt_device_open(deviceId);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd);
	memset(&q, 0, sizeof(q));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q);
	if (ret)
		return ret == -ENOMEM ? ACL_ERROR_BAD_ALLOC :
		       ret == -ENODEV ? ACL_ERROR_RT_NO_DEVICE : ACL_ERROR_RT_INTERNAL_ERROR;
	memset(u, 0, sizeof(*u));
	snprintf(u->node, sizeof(u->node), "%s", hcclt_device_node(deviceId));
	u->uapiMajor = q.uapi_major;
	u->uapiMinor = q.uapi_minor;
	u->maxThreadsPerComm = q.max_threads_per_comm;
	u->maxNotifiesPerComm = q.max_notifies_per_comm;
	u->streamsTotal = q.streams_total;
	u->streamsUsed = q.streams_used;
	u->notifiesTotal = q.notifies_total;
	u->notifiesUsed = q.notifies_used;
	u->comms = q.comms;
	u->files = q.files;
	u->engines = q.engines;
	u->streamEngines = q.stream_engines;
	u->features = q.features;
	return ACL_SUCCESS;
}

HCCLT_EXPORT HcclResult hccltCommGetUsage(HcclComm comm, hccltCommUsage *u)
{
	struct drm_hcclt_comm_info *ci;
	struct drm_hcclt_thread_info *ti;
	struct hcclt_comm *c;
	uint32_t nc, nt, i;
	int fd, ret, partial;

	if (!comm || !u)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	ret = hcclt_info_fetch(fd, &ci, &nc, &ti, &nt, &partial);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_INFO, ret);
	memset(u, 0, sizeof(*u));
	u->deviceId = c->dev;
	u->threadsMax = hcclt_device_quota(c->dev)->max_threads;
	u->notifiesMax = hcclt_device_quota(c->dev)->max_notifies;
	/*
	 * More entries than INFO fills: a comm not listed may still exist, and
	 * views not listed cannot be counted. Say so (HCCL_E_INTERNAL).
	 */
	if (partial & HCCLT_INFO_PARTIAL_THREADS) {
		free(ci);
		free(ti);
		return hcclt_map_errno(HCCLT_OP_INFO, -E2BIG);
	}
	ret = partial & HCCLT_INFO_PARTIAL_COMMS ? -E2BIG : -ENOENT;
	for (i = 0; i < nc; i++) {
		if (ci[i].comm_id != c->id)
			continue;
		u->threadsUsed = ci[i].threads_used;
		u->notifiesUsed = ci[i].notifies_used;
		u->threadCount = ci[i].thread_count;
		ret = 0;
	}
	for (i = 0; i < nt; i++)
		if (ti[i].comm_id == c->id && (ti[i].flags & HCCLT_THREAD_VIEW))
			u->exportedCount++;
	free(ci);
	free(ti);
	return hcclt_map_errno(HCCLT_OP_INFO, ret);
}

HCCLT_EXPORT HcclResult hccltThreadGetInfo(ThreadHandle thread, hccltThreadInfo *info)
{
	struct drm_hcclt_thread_info ti;
	uint64_t id;
	int dev, fd, ret;

	if (!thread || !info)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &dev, &id))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	ret = hcclt_info_find_thread(fd, id, &ti);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_INFO, ret);
	memset(info, 0, sizeof(*info));
	info->deviceId = dev;
	info->engine = (CommEngine)ti.engine;
	info->notifyNum = ti.notify_num;
	info->queueDepth = ti.queue_depth;
	info->state = (hccltThreadState)ti.state;
	info->waitNotify = ti.wait_notify;
	info->wrapped = !!(ti.flags & HCCLT_THREAD_WRAPPED);
	info->exported = !!(ti.flags & HCCLT_THREAD_VIEW);
	return HCCL_SUCCESS;
}

/* sync_file fd for everything queued on @handle so far, or -errno. */
static int fence_fd(int fd, uint64_t handle, int *out)
{
	struct drm_hcclt_submit sub;
	struct drm_hcclt_query q;
	int ret;

	memset(&q, 0, sizeof(q));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q);
	if (ret)
		return ret;
	if (!(q.features & HCCLT_FEATURE_FENCE_OUT))
		return -EINVAL;
	memset(&sub, 0, sizeof(sub));
	sub.handle = handle;
	sub.task_size = sizeof(struct drm_hcclt_task);
	sub.flags = HCCLT_SUBMIT_FENCE_OUT;
	sub.fence_fd = -1;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &sub);
	if (ret)
		return ret;
	*out = sub.fence_fd;
	return 0;
}

HCCLT_EXPORT aclError hccltStreamGetCompletionFd(aclrtStream stream, int *out)
{
	struct hcclt_stream *s;
	int fd;

	if (!stream || !out)
		return ACL_ERROR_INVALID_PARAM;
	s = hcclt_stream_get(stream);
	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	return hcclt_map_errno(HCCLT_OP_STREAM_FENCE, fence_fd(fd, s->id, out));
}

HCCLT_EXPORT HcclResult hccltThreadGetCompletionFd(ThreadHandle thread, int *out)
{
	uint64_t id;
	int dev, fd;

	if (!thread || !out)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &dev, &id))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	return hcclt_map_errno(HCCLT_OP_THREAD_FENCE, fence_fd(fd, id, out));
}

HCCLT_EXPORT aclError hccltThreadSynchronize(ThreadHandle thread, int32_t timeout)
{
	uint64_t id;
	int dev, fd;

	if (timeout < -1)
		return ACL_ERROR_INVALID_PARAM;
	if (hcclt_handle_parse(thread, &dev, &id))
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (hcclt_idle_check(dev, id))
		return ACL_SUCCESS;
	return hcclt_map_errno(HCCLT_OP_STREAM_SYNC,
			       hcclt_stream_sync(fd, id, timeout));
}
