// SPDX-License-Identifier: MIT
/*
 * What AICPU kernels call besides the data plane (hcomm's device-side
 * API): HcommAcquireComm/HcommReleaseComm, HcommBatchModeStart/End,
 * HcommThreadSynchronize, HcommThreadJoin. They work on any OS thread;
 * kernels run on a device's AI CPU worker (kernel.c).
 *
 * Batch mode is per OS thread, as hcomm's launch context: between Start
 * and End every task the thread queues (hcclt_submit_one()) is kept in a
 * list per (device, handle) and End submits each list with as few SUBMITs
 * as the driver's batch limit allows, in the order the handles were first
 * used. Checks that need the kernel (ranges, ids) then fail at End.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "hccl/hcomm_primitives.h"
#include "hcomm/hcomm_primitives_expt.h"

struct batch_q {
	int fd, dev;
	uint64_t id;
	struct drm_hcclt_task *tasks;
	uint32_t n, cap;
};

struct batch {
	int active;
	char tag[256];
	struct batch_q *qs;
	uint32_t nqs, capqs;
};

static _Thread_local struct batch cur;

int hcclt_batch_add(int fd, int dev, uint64_t id, const struct drm_hcclt_task *task)
{
	struct batch_q *q = NULL;
	uint32_t i;

	if (!cur.active)
		return 0;
	for (i = 0; i < cur.nqs; i++)
		if (cur.qs[i].dev == dev && cur.qs[i].id == id)
			q = &cur.qs[i];
	if (!q) {
		if (cur.nqs == cur.capqs) {
			uint32_t cap = cur.capqs ? 2 * cur.capqs : 8;
			struct batch_q *n = realloc(cur.qs, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			cur.qs = n;
			cur.capqs = cap;
		}
		q = &cur.qs[cur.nqs++];
		memset(q, 0, sizeof(*q));
		q->fd = fd;
		q->dev = dev;
		q->id = id;
	}
	if (q->n == q->cap) {
		uint32_t cap = q->cap ? 2 * q->cap : 16;
		struct drm_hcclt_task *n = realloc(q->tasks, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		q->tasks = n;
		q->cap = cap;
	}
	q->tasks[q->n++] = *task;
	return 1;
}

static const char *tag_of(const char *tag)
{
	return tag ? tag : "";
}

/*
 * As hcomm's launch context (src/base_comm/primitives/launch_context.cc
 * 8958adbf, SetLaunchMode), Start only sets the mode: a Start while a
 * batch is open goes on with it under the new tag (:136-139), and the
 * tasks kept so far stay kept.
 */
HCCLT_EXPORT int32_t HcommBatchModeStart(const char *batchTag)
{
	const char *tag = tag_of(batchTag);

	if (strlen(tag) >= sizeof(cur.tag))
		return HCCL_E_PARA;
	strcpy(cur.tag, tag);
	cur.active = 1;
	return HCCL_SUCCESS;
}

/* Submit @q's tasks; 0 or the first negative errno. */
static int batch_submit(struct batch_q *q)
{
	struct drm_hcclt_submit sub;
	uint64_t epoch;
	uint32_t done, n;
	int ret = 0;

	for (done = 0; done < q->n && !ret; done += n) {
		n = q->n - done;
		if (n > HCCLT_MAX_BATCH)
			n = HCCLT_MAX_BATCH;
		memset(&sub, 0, sizeof(sub));
		sub.handle = q->id;
		sub.tasks_ptr = (uintptr_t)&q->tasks[done];
		sub.task_count = n;
		sub.task_size = sizeof(q->tasks[0]);
		sub.fence_fd = -1;
		epoch = hcclt_idle_epoch();
		ret = hcclt_ioctl(q->fd, DRM_IOCTL_HCCLT_SUBMIT, &sub);
		if (!ret)
			hcclt_idle_note(q->dev, q->id, &sub, epoch);
	}
	return ret;
}

/*
 * End sets the eager mode and launches what was kept under its tag
 * (launch_context.cc:162-164, HandleEagerMode :23-41): without a Start it
 * launches nothing and succeeds; with another tag than the batch's it
 * launches nothing either, and the batch's tasks stay kept until an End
 * of their tag (faq.rst: the tasks queued meanwhile run before them).
 */
HCCLT_EXPORT int32_t HcommBatchModeEnd(const char *batchTag)
{
	int ret = 0, r;
	uint32_t i;

	cur.active = 0;
	if (!cur.nqs || strcmp(cur.tag, tag_of(batchTag)))
		return HCCL_SUCCESS;
	for (i = 0; i < cur.nqs; i++) {
		r = batch_submit(&cur.qs[i]);
		if (r && !ret)
			ret = r;
		free(cur.qs[i].tasks);
	}
	cur.nqs = 0;
	return hcclt_map_errno(HCCLT_OP_BATCH, ret);
}

/*
 * The communicator of name @commId on the calling thread's device (a
 * kernel's worker has the device of its launch).
 */
HCCLT_EXPORT int32_t HcommAcquireComm(const char *commId)
{
	int32_t dev = hcclt_current_device();

	if (!commId)
		return HCCL_E_PTR;
	if (dev < 0 || !hcclt_name_exists(dev, commId))
		return HCCL_E_PTR;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT int32_t HcommReleaseComm(const char *commId)
{
	return commId ? HCCL_SUCCESS : HCCL_E_PTR;
}

/*
 * On A2/A3 hcomm's HcommThreadSynchronize returns at once (it is not a
 * completion wait there); so does this one, for a valid thread.
 */
HCCLT_EXPORT int32_t HcommThreadSynchronize(ThreadHandle thread)
{
	uint64_t id;
	int dev;

	if (!thread)
		return HCCL_E_PTR;
	return hcclt_handle_parse(thread, &dev, &id) ? HCCL_E_PTR : HCCL_SUCCESS;
}

/*
 * HcommThreadJoin waits for the thread's queued work on a 950 SoC (as
 * hcomm's A5 path) and is HCCL_E_NOT_SUPPORT on A2/A3.
 */
HCCLT_EXPORT int32_t HcommThreadJoin(ThreadHandle thread, uint32_t timeoutSec)
{
	const char *soc = aclrtGetSocName();
	uint64_t id;
	int dev, fd, ret;

	if (!thread)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &dev, &id))
		return HCCL_E_PTR;
	if (!soc || strncmp(soc, "Ascend950", 9))
		return HCCL_E_NOT_SUPPORT;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	ret = hcclt_stream_sync(fd, id, timeoutSec ? (int32_t)(timeoutSec > 2000000 ?
							      2000000000 : timeoutSec * 1000) : -1);
	if (ret == -ETIMEDOUT || ret == -ETIME)
		return HCCL_E_TIMEOUT;
	return ret ? HCCL_E_INTERNAL : HCCL_SUCCESS;
}
