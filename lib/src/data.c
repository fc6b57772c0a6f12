// SPDX-License-Identifier: MIT
/*
 * Data-plane copies (hcomm's HcommLocalCopyOnThread, HcommWriteOnThread,
 * HcommReadOnThread): one data task per call on the thread's stream. The
 * addresses are translated to (memory object, offset) through mem.c's
 * table of this process's mappings; an address in none of them is refused
 * here, and the kernel checks the ranges again when the task is queued.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "hccl/hcomm_primitives.h"

/*
 * Queue data task @op of @len bytes on @thread: @chan is the channel id
 * of a write or read (0 for a local copy); the peer-side address must be
 * in that channel's peer buffer, the other one in local memory.
 */
static int32_t data_task(ThreadHandle thread, ChannelHandle channel, uint32_t op,
			 void *dst, const void *src, uint64_t len)
{
	struct drm_hcclt_task task;
	uint64_t tid, cid = 0, soff, doff, schan, dchan;
	uint32_t sh, dh;
	int dev, fd;

	/* hcomm's order: the buffers, then the thread, then the channel. */
	if (!dst || !src || !thread)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &dev, &tid))
		return HCCL_E_PTR;
	if (op != HCCLT_TASK_LOCAL_COPY &&
	    (!channel || hcclt_channel_parse(channel, dev, &cid)))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	if (!len)
		return HCCL_SUCCESS;
	if (hcclt_mem_resolve(dev, src, len, &sh, &soff, &schan) ||
	    hcclt_mem_resolve(dev, dst, len, &dh, &doff, &dchan))
		return HCCL_E_PARA;
	/* The peer side in this channel's peer buffer, the other one local. */
	if ((op == HCCLT_TASK_READ ? schan != cid : schan != 0) ||
	    (op == HCCLT_TASK_WRITE ? dchan != cid : dchan != 0))
		return HCCL_E_PARA;
	memset(&task, 0, sizeof(task));
	task.op = op;
	task.dst_thread = cid;
	task.src_handle = sh;
	task.dst_handle = dh;
	task.src_offset = soff;
	task.dst_offset = doff;
	task.len = len;
	return hcclt_map_errno(HCCLT_OP_DATA_TASK,
			       hcclt_submit_one(fd, dev, tid, &task));
}

HCCLT_EXPORT int32_t HcommLocalCopyOnThread(ThreadHandle thread, void *dst, const void *src,
					    uint64_t len)
{
	return data_task(thread, 0, HCCLT_TASK_LOCAL_COPY, dst, src, len);
}

HCCLT_EXPORT int32_t HcommWriteOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
					const void *src, uint64_t len)
{
	return data_task(thread, channel, HCCLT_TASK_WRITE, dst, src, len);
}

HCCLT_EXPORT int32_t HcommReadOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
				       const void *src, uint64_t len)
{
	return data_task(thread, channel, HCCLT_TASK_READ, dst, src, len);
}
