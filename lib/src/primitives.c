// SPDX-License-Identifier: MIT
/*
 * Notify record and wait: one DRM_IOCTL_HCCLT_SUBMIT with a task on the
 * stack (hcclt_submit_one(), which the other one-task calls share), and no
 * allocation (except on the error path of a record, to tell
 * an index out of range from an engine mismatch). What the submit says
 * about its stream goes to idle.c, under its lock.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "hccl/hcomm_primitives.h"

/*
 * The kernel says -EINVAL both for a notify index out of range (HCCL_E_PTR)
 * and for handles of different engines (HCCL_E_PARA); ask it which. A
 * thread's engine never changes, its notify count may grow meanwhile
 * (HcclThreadAcquireWithStream): with equal engines the index was the
 * reason, whatever the count says now.
 */
static int32_t record_einval(int fd, uint64_t src, uint64_t dst, uint32_t idx)
{
	struct drm_hcclt_thread_info si, di;
	int ret;

	ret = hcclt_info_find_thread(fd, dst, &di);
	if (!ret)
		ret = hcclt_info_find_thread(fd, src, &si);
	/* Not among the threads INFO lists: cannot tell which. */
	if (ret == -E2BIG)
		return HCCL_E_INTERNAL;
	if (ret)
		return HCCL_E_PTR;
	if (si.engine == di.engine || idx >= di.notify_num)
		return HCCL_E_PTR;
	return HCCL_E_PARA;
}

/*
 * Queue one task on thread or stream @id of device @dev through @fd, and
 * tell idle.c what the submit said about the stream; in batch mode, keep
 * it for HcommBatchModeEnd(). 0 or a negative errno.
 */
int hcclt_submit_one(int fd, int dev, uint64_t id,
		     const struct drm_hcclt_task *task)
{
	struct drm_hcclt_submit sub;
	uint64_t epoch;
	int ret;

	ret = hcclt_batch_add(fd, dev, id, task);
	if (ret)
		return ret < 0 ? ret : 0;
	memset(&sub, 0, sizeof(sub));
	sub.handle = id;
	sub.tasks_ptr = (uintptr_t)task;
	sub.task_count = 1;
	sub.task_size = sizeof(*task);
	sub.fence_fd = -1;
	epoch = hcclt_idle_epoch();
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &sub);
	if (!ret)
		hcclt_idle_note(dev, id, &sub, epoch);
	return ret;
}

int hcclt_submit_many(int fd, int dev, uint64_t id,
		      const struct drm_hcclt_task *tasks, uint32_t n)
{
	struct drm_hcclt_submit sub;
	uint64_t epoch;
	uint32_t i;
	int ret;

	if (n == 1)
		return hcclt_submit_one(fd, dev, id, tasks);
	for (i = 0; i < n; i++) {
		ret = hcclt_batch_add(fd, dev, id, &tasks[i]);
		if (ret <= 0)
			break;
	}
	/* In batch mode: kept (the first add says whether it is on). */
	if (i == n)
		return 0;
	if (ret < 0)
		return ret;
	memset(&sub, 0, sizeof(sub));
	sub.handle = id;
	sub.tasks_ptr = (uintptr_t)tasks;
	sub.task_count = n;
	sub.task_size = sizeof(*tasks);
	sub.fence_fd = -1;
	epoch = hcclt_idle_epoch();
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &sub);
	if (!ret)
		hcclt_idle_note(dev, id, &sub, epoch);
	return ret;
}

HCCLT_EXPORT int32_t HcommThreadNotifyRecordOnThread(ThreadHandle thread, ThreadHandle dstThread,
						     uint32_t dstNotifyIdx)
{
	struct drm_hcclt_task task;
	uint64_t sid, did;
	int sdev, ddev, fd, ret;

	if (!thread || !dstThread)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &sdev, &sid) ||
	    hcclt_handle_parse(dstThread, &ddev, &did))
		return HCCL_E_PTR;
	if (sdev != ddev)
		return HCCL_E_PARA;
	fd = hcclt_device_fd_fast(sdev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&task, 0, sizeof(task));
	task.op = HCCLT_TASK_NOTIFY_RECORD;
	task.notify_idx = dstNotifyIdx;
	task.dst_thread = did;
	ret = hcclt_submit_one(fd, sdev, sid, &task);
	if (!ret)
		return HCCL_SUCCESS;
	if (ret == -EINVAL)
		return record_einval(fd, sid, did, dstNotifyIdx);
	return hcclt_map_errno(HCCLT_OP_RECORD, ret);
}

HCCLT_EXPORT int32_t HcommThreadNotifyWaitOnThread(ThreadHandle thread, uint32_t notifyIdx,
						   uint32_t timeOut)
{
	struct drm_hcclt_task task;
	uint64_t id;
	int dev, fd, ret;

	if (!thread)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &dev, &id))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&task, 0, sizeof(task));
	task.op = HCCLT_TASK_NOTIFY_WAIT;
	task.notify_idx = notifyIdx;
	task.timeout_s = timeOut;
	ret = hcclt_submit_one(fd, dev, id, &task);
	return hcclt_map_errno(HCCLT_OP_WAIT, ret);
}
