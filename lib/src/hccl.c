// SPDX-License-Identifier: MIT
/*
 * HCCL: thread acquisition (communicators: group.c).
 *
 * Pure argument checks are done here, in the order of hcomm-semantics.md;
 * everything that needs state is left to the kernel, which re-checks all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "hccl/hccl.h"
#include "hccl/hccl_res.h"

static int engine_valid(CommEngine e)
{
	return (int)e >= COMM_ENGINE_CPU && (int)e <= COMM_ENGINE_CCU;
}

/*
 * The kernel refuses AIV (-EOPNOTSUPP) before it looks at the quota; HCCL
 * checks the quota first (step 4 before 5): a call on AIV that the
 * communicator's quota refuses too is HCCL_E_UNAVAIL. Asked only on that
 * error path.
 */
static HcclResult aiv_refused(int fd, const struct hcclt_comm *c, uint32_t n,
			      uint32_t npt)
{
	const struct hcclt_quota *qt = hcclt_device_quota(c->dev);
	struct drm_hcclt_comm_info *ci;
	struct drm_hcclt_thread_info *ti;
	HcclResult r = HCCL_E_PARA;
	uint32_t nc, nt, i;
	int partial;

	if (hcclt_info_fetch(fd, &ci, &nc, &ti, &nt, &partial))
		return HCCL_E_PARA;
	for (i = 0; i < nc; i++) {
		if (ci[i].comm_id != c->id)
			continue;
		if (ci[i].threads_used > qt->max_threads ||
		    n > qt->max_threads - ci[i].threads_used ||
		    ci[i].notifies_used > qt->max_notifies ||
		    (uint64_t)n * npt > qt->max_notifies - ci[i].notifies_used)
			r = HCCL_E_UNAVAIL;
		break;
	}
	free(ci);
	free(ti);
	return r;
}

HCCLT_EXPORT HcclResult HcclThreadAcquire(HcclComm comm, CommEngine engine, uint32_t threadNum,
					  uint32_t notifyNumPerThread, ThreadHandle *threads)
{
	struct drm_hcclt_thread_acquire ta;
	const struct hcclt_quota *qt;
	struct hcclt_comm *c;
	uint32_t i;
	int fd, ret;

	/* 1. pointers */
	if (!comm || !threads)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	/* 2. engine range, 3. thread count */
	if (!engine_valid(engine) || !threadNum)
		return HCCL_E_PARA;
	/* The quota's rule set is the driver's (QUERY, read at open). */
	qt = hcclt_device_quota(c->dev);
	/* hcomm 2026-04 and later: oversize counts are argument errors */
	if ((qt->flags & HCCLT_QUOTA_F_ARGS_EINVAL) &&
	    (notifyNumPerThread > qt->max_npt || threadNum > qt->max_per_call))
		return HCCL_E_PARA;
	/* 4. the part of the quota that is pure arithmetic */
	if (threadNum > qt->max_threads || notifyNumPerThread > qt->max_npt ||
	    (uint64_t)threadNum * notifyNumPerThread > qt->max_notifies)
		return HCCL_E_UNAVAIL;
	/* the rest of 4., then 5. (AIV) and 6. (pools): the kernel */
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&ta, 0, sizeof(ta));
	ta.comm_id = c->id;
	ta.engine = (uint32_t)engine;
	ta.thread_num = threadNum;
	ta.notify_num_per_thread = notifyNumPerThread;
	ta.threads_ptr = (uintptr_t)threads;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE, &ta);
	if (ret == -EOPNOTSUPP)
		return aiv_refused(fd, c, threadNum, notifyNumPerThread);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_ACQUIRE, ret);
	for (i = 0; i < threadNum; i++)
		threads[i] = hcclt_handle_make(c->dev, threads[i]);
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclThreadAcquireWithStream(HcclComm comm, CommEngine engine,
						    aclrtStream stream, uint32_t notifyNum,
						    ThreadHandle *thread)
{
	struct drm_hcclt_thread_acquire_with_stream tas;
	struct hcclt_stream *s;
	struct hcclt_comm *c;
	int fd, ret;

	if (!comm || !stream || !thread)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	/*
	 * The seed rules want a host engine first; hcomm 2026-04 and later
	 * check the range only and return a stream's existing thread before
	 * they ask for a host engine (the kernel does that part).
	 */
	if (!engine_valid(engine) ||
	    (!(hcclt_device_quota(c->dev)->flags & HCCLT_QUOTA_F_WRAP_CACHED_FIRST) &&
	     engine != COMM_ENGINE_CPU && engine != COMM_ENGINE_CPU_TS &&
	     engine != COMM_ENGINE_CCU))
		return HCCL_E_PARA;
	s = hcclt_stream_get(stream);
	if (!s)
		return HCCL_E_PTR;
	if (s->dev != c->dev)
		return HCCL_E_PARA;
	/* an engine conflict (-EINVAL) precedes the quota: the kernel */
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&tas, 0, sizeof(tas));
	tas.comm_id = c->id;
	tas.stream_id = s->id;
	tas.engine = (uint32_t)engine;
	tas.notify_num = notifyNum;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM, &tas);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_ACQUIRE_STREAM, ret);
	*thread = hcclt_handle_make(c->dev, tas.thread_id);
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclThreadExportToCommEngine(HcclComm comm, uint32_t threadNum,
						     const ThreadHandle *threads,
						     CommEngine dstCommEngine,
						     ThreadHandle *exportedThreads)
{
	uint64_t in[HCCLT_MAX_EXPORT_THREADS], out[HCCLT_MAX_EXPORT_THREADS];
	struct drm_hcclt_thread_export te;
	struct hcclt_comm *c;
	uint32_t i;
	int fd, ret, dev;

	if (!comm || !threads || !exportedThreads)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (!engine_valid(dstCommEngine) || dstCommEngine == COMM_ENGINE_AIV)
		return HCCL_E_PARA;
	if (!threadNum || threadNum > HCCLT_MAX_EXPORT_THREADS)
		return HCCL_E_PARA;
	for (i = 0; i < threadNum; i++) {
		if (hcclt_handle_parse(threads[i], &dev, &in[i]) || dev != c->dev)
			return HCCL_E_PARA;
	}
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&te, 0, sizeof(te));
	te.comm_id = c->id;
	te.dst_engine = (uint32_t)dstCommEngine;
	te.thread_num = threadNum;
	te.threads_ptr = (uintptr_t)in;
	te.exported_ptr = (uintptr_t)out;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_EXPORT, &te);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_EXPORT, ret);
	for (i = 0; i < threadNum; i++)
		exportedThreads[i] = hcclt_handle_make(c->dev, out[i]);
	return HCCL_SUCCESS;
}
