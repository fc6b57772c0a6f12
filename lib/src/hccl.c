// SPDX-License-Identifier: MIT
/*
 * HCCL: communicators and thread acquisition.
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

static HcclResult comm_create(int32_t dev, struct hcclt_comm **out)
{
	struct drm_hcclt_comm_create cc;
	struct hcclt_comm *c;
	int fd, ret;

	fd = hcclt_device_open(dev);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_HCCL, fd);
	c = hcclt_obj_alloc();
	if (!c)
		return HCCL_E_MEMORY;
	memset(&cc, 0, sizeof(cc));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_CREATE, &cc);
	if (ret) {
		hcclt_obj_free(c);
		return hcclt_map_errno(HCCLT_OP_COMM_CREATE, ret);
	}
	c->gen = hcclt_gen();
	c->dev = dev;
	c->id = cc.comm_id;
	atomic_store_explicit(&c->magic, HCCLT_COMM_MAGIC, memory_order_release);
	*out = c;
	return HCCL_SUCCESS;
}

static HcclResult comm_destroy(struct hcclt_comm *c)
{
	struct drm_hcclt_comm_destroy cd;
	int fd, ret;

	/* Another thread's destroy of the same handle won. */
	if (!hcclt_obj_claim(&c->magic, HCCLT_COMM_MAGIC))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(c->dev);
	memset(&cd, 0, sizeof(cd));
	cd.comm_id = c->id;
	ret = fd < 0 ? -ENOENT : hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_DESTROY, &cd);
	hcclt_idle_forget();
	hcclt_obj_free(c);
	return hcclt_map_errno(HCCLT_OP_COMM_DESTROY, ret);
}

HCCLT_EXPORT HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms)
{
	struct hcclt_comm *c = NULL;
	HcclResult ret;
	uint32_t i, j;
	int n;

	if (!ndev)
		return HCCL_E_PARA;
	if (!devices || !comms)
		return HCCL_E_PTR;
	for (i = 0; i < ndev; i++)
		comms[i] = NULL;
	n = hcclt_device_count();
	if (!n)
		return HCCL_E_DRV;
	for (i = 0; i < ndev; i++) {
		if (devices[i] < 0 || devices[i] >= n)
			return HCCL_E_PARA;
		for (j = 0; j < i; j++)
			if (devices[j] == devices[i])
				return HCCL_E_PARA;
	}
	for (i = 0; i < ndev; i++) {
		ret = comm_create(devices[i], &c);
		if (ret != HCCL_SUCCESS) {
			while (i--) {
				comm_destroy(comms[i]);
				comms[i] = NULL;
			}
			return ret;
		}
		comms[i] = c;
	}
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclCommDestroy(HcclComm comm)
{
	struct hcclt_comm *c = hcclt_comm_get(comm);

	if (!c)
		return HCCL_E_PTR;
	return comm_destroy(c);
}

static int engine_valid(CommEngine e)
{
	return (int)e >= COMM_ENGINE_CPU && (int)e <= COMM_ENGINE_CCU;
}

HCCLT_EXPORT HcclResult HcclThreadAcquire(HcclComm comm, CommEngine engine, uint32_t threadNum,
					  uint32_t notifyNumPerThread, ThreadHandle *threads)
{
	struct drm_hcclt_thread_acquire ta;
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
	/* 4. the part of the quota that is pure arithmetic */
	if (threadNum > HCCLT_MAX_THREADS_PER_COMM ||
	    notifyNumPerThread > HCCLT_MAX_NOTIFIES_PER_COMM ||
	    (uint64_t)threadNum * notifyNumPerThread > HCCLT_MAX_NOTIFIES_PER_COMM)
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
	if (engine != COMM_ENGINE_CPU && engine != COMM_ENGINE_CPU_TS &&
	    engine != COMM_ENGINE_CCU)
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
	uint64_t in[HCCLT_MAX_THREADS_PER_COMM], out[HCCLT_MAX_THREADS_PER_COMM];
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
	if (!threadNum || threadNum > HCCLT_MAX_THREADS_PER_COMM)
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
