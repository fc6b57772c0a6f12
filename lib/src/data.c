// SPDX-License-Identifier: MIT
/*
 * Data-plane copies and reduces (hcomm's HcommLocalCopyOnThread,
 * HcommWriteOnThread, HcommReadOnThread and their Reduce variants, and
 * hcclthread.h's hcclt...ReduceOnThread, which reduce every type and op
 * HCCL's collectives do): one data task per call on the thread's stream,
 * or one per piece, in one submit, when a range runs across mappings of a
 * reservation (vmm.c). The
 * addresses are translated to (memory object, offset) through mem.c's
 * table of this process's mappings; an address in none of them is refused
 * here, and the kernel checks the ranges again when the task is queued.
 */
#include <stdlib.h>
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "hccl/hcomm_primitives.h"

static int from_peer(uint32_t op)
{
	return op == HCCLT_TASK_READ || op == HCCLT_TASK_READ_REDUCE;
}

static int to_peer(uint32_t op)
{
	return op == HCCLT_TASK_WRITE || op == HCCLT_TASK_WRITE_REDUCE;
}

/*
 * Queue data task @op of @len bytes on @thread: @channel is the channel of
 * a write or read (0 for a local copy); the peer-side address must be in
 * that channel's peer buffer, the other one in local memory. @dtype and
 * @rop: of a reduce. @need: HCCLT_FEATURE_* bits the device must have
 * (HCCL_E_NOT_SUPPORT otherwise).
 */
static int32_t data_task(ThreadHandle thread, ChannelHandle channel, uint32_t op,
			 void *dst, const void *src, uint64_t len, uint32_t dtype,
			 uint32_t rop, uint64_t need)
{
	struct hcclt_seg ssegs[HCCLT_MAX_SEGS], dsegs[HCCLT_MAX_SEGS];
	struct drm_hcclt_task one, *tasks = &one;
	uint64_t tid, cid = 0;
	int dev, fd, ns, nd, n, i, ret;

	/* hcomm's order: the buffers, then the thread, then the channel. */
	if (!dst || !src || !thread)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &dev, &tid))
		return HCCL_E_PTR;
	if (op != HCCLT_TASK_LOCAL_COPY && op != HCCLT_TASK_LOCAL_REDUCE &&
	    (!channel || hcclt_channel_parse(channel, dev, &cid)))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	if ((hcclt_device_features(dev) & need) != need)
		return HCCL_E_NOT_SUPPORT;
	/*
	 * A zero-length copy, write or read is a task, as in hcomm
	 * (aicpu_ts_primitives_c_adpt.cc:98-125, :466, :750; the driver takes
	 * len 0): it runs in its stream's order and moves nothing. Its
	 * addresses are checked as any others (faq.rst). A zero-length
	 * reduce queues nothing, as before.
	 */
	if (!len && (op == HCCLT_TASK_LOCAL_REDUCE || op == HCCLT_TASK_WRITE_REDUCE ||
		     op == HCCLT_TASK_READ_REDUCE))
		return HCCL_SUCCESS;
	ns = hcclt_mem_segments(dev, src, len, ssegs, HCCLT_MAX_SEGS);
	nd = hcclt_mem_segments(dev, dst, len, dsegs, HCCLT_MAX_SEGS);
	if (ns < 0 || nd < 0)
		return HCCL_E_PARA;
	/* The peer side in this channel's peer buffer, the other one local. */
	for (i = 0; i < ns; i++)
		if (from_peer(op) ? ssegs[i].chan != cid : ssegs[i].chan != 0)
			return HCCL_E_PARA;
	for (i = 0; i < nd; i++)
		if (to_peer(op) ? dsegs[i].chan != cid : dsegs[i].chan != 0)
			return HCCL_E_PARA;
	n = hcclt_seg_tasks(dsegs, nd, ssegs, ns, NULL);
	if (n > 1) {
		tasks = calloc((size_t)n, sizeof(*tasks));
		if (!tasks)
			return HCCL_E_MEMORY;
	}
	hcclt_seg_tasks(dsegs, nd, ssegs, ns, tasks);
	for (i = 0; i < n; i++) {
		tasks[i].op = op;
		tasks[i].dst_thread = cid;
		tasks[i].dtype = dtype;
		tasks[i].reduce_op = rop;
	}
	ret = hcclt_submit_many(fd, dev, tid, tasks, (uint32_t)n);
	if (tasks != &one)
		free(tasks);
	return hcclt_map_errno(HCCLT_OP_DATA_TASK, ret);
}

HCCLT_EXPORT int32_t HcommLocalCopyOnThread(ThreadHandle thread, void *dst, const void *src,
					    uint64_t len)
{
	return data_task(thread, 0, HCCLT_TASK_LOCAL_COPY, dst, src, len, 0, 0, 0);
}

HCCLT_EXPORT int32_t HcommWriteOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
					const void *src, uint64_t len)
{
	return data_task(thread, channel, HCCLT_TASK_WRITE, dst, src, len, 0, 0, 0);
}

HCCLT_EXPORT int32_t HcommReadOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
				       const void *src, uint64_t len)
{
	return data_task(thread, channel, HCCLT_TASK_READ, dst, src, len, 0, 0, 0);
}

_Static_assert(HCOMM_DATA_TYPE_INT8 == HCCLT_DTYPE_INT8 &&
	       HCOMM_DATA_TYPE_INT16 == HCCLT_DTYPE_INT16 &&
	       HCOMM_DATA_TYPE_INT32 == HCCLT_DTYPE_INT32 &&
	       HCOMM_DATA_TYPE_FP16 == HCCLT_DTYPE_FP16 &&
	       HCOMM_DATA_TYPE_FP32 == HCCLT_DTYPE_FP32 &&
	       HCOMM_DATA_TYPE_INT64 == HCCLT_DTYPE_INT64 &&
	       HCOMM_DATA_TYPE_UINT64 == HCCLT_DTYPE_UINT64 &&
	       HCOMM_DATA_TYPE_UINT8 == HCCLT_DTYPE_UINT8 &&
	       HCOMM_DATA_TYPE_UINT16 == HCCLT_DTYPE_UINT16 &&
	       HCOMM_DATA_TYPE_UINT32 == HCCLT_DTYPE_UINT32 &&
	       HCOMM_DATA_TYPE_FP64 == HCCLT_DTYPE_FP64 &&
	       HCOMM_DATA_TYPE_BFP16 == HCCLT_DTYPE_BF16, "dtype values");
_Static_assert(HCOMM_REDUCE_SUM == HCCLT_REDUCE_SUM &&
	       HCOMM_REDUCE_PROD == HCCLT_REDUCE_PROD &&
	       HCOMM_REDUCE_MAX == HCCLT_REDUCE_MAX &&
	       HCOMM_REDUCE_MIN == HCCLT_REDUCE_MIN, "reduce op values");

/* Element size of a reduce's @dtype; 0 for a type the driver does not reduce. */
static uint64_t reduce_size(HcommDataType dtype)
{
	switch (dtype) {
	case HCOMM_DATA_TYPE_INT8:
	case HCOMM_DATA_TYPE_UINT8:
		return 1;
	case HCOMM_DATA_TYPE_INT16:
	case HCOMM_DATA_TYPE_UINT16:
	case HCOMM_DATA_TYPE_FP16:
	case HCOMM_DATA_TYPE_BFP16:
		return 2;
	case HCOMM_DATA_TYPE_INT32:
	case HCOMM_DATA_TYPE_UINT32:
	case HCOMM_DATA_TYPE_FP32:
		return 4;
	case HCOMM_DATA_TYPE_INT64:
	case HCOMM_DATA_TYPE_UINT64:
	case HCOMM_DATA_TYPE_FP64:
		return 8;
	default:
		return 0;
	}
}

/* hcomm's own set: INT8, INT16, INT32, FP16, FP32, BFP16; SUM, MAX, MIN. */
static int hcomm_reduces(HcommDataType dtype, HcommReduceOp rop)
{
	return (dtype <= HCOMM_DATA_TYPE_FP32 || dtype == HCOMM_DATA_TYPE_BFP16) &&
	       rop != HCOMM_REDUCE_PROD;
}

/*
 * hcomm's order: the buffers, the type and op, then the thread. @ext: any
 * type and op the driver reduces (the hcclt... calls), not only hcomm's;
 * those beyond hcomm's need HCCLT_FEATURE_REDUCE_EXT (uAPI 1.7).
 */
static int32_t reduce_task(ThreadHandle thread, ChannelHandle channel, uint32_t op,
			   void *dst, const void *src, uint64_t count,
			   HcommDataType dtype, HcommReduceOp rop, int ext)
{
	uint64_t size = reduce_size(dtype);
	int narrow;

	if (!dst || !src)
		return HCCL_E_PTR;
	if (!size || (rop != HCOMM_REDUCE_SUM && rop != HCOMM_REDUCE_PROD &&
		      rop != HCOMM_REDUCE_MAX && rop != HCOMM_REDUCE_MIN) ||
	    count > UINT64_MAX / size)
		return HCCL_E_PARA;
	narrow = hcomm_reduces(dtype, rop);
	if (!narrow && !ext)
		return HCCL_E_PARA;
	/* HcommDataType and the uAPI's HCCLT_DTYPE_* share CANN's values. */
	return data_task(thread, channel, op, dst, src, count * size, (uint32_t)dtype,
			 (uint32_t)rop, narrow ? 0 : HCCLT_FEATURE_REDUCE_EXT);
}

HCCLT_EXPORT int32_t HcommLocalReduceOnThread(ThreadHandle thread, void *dst, const void *src,
					      uint64_t count, HcommDataType dataType,
					      HcommReduceOp reduceOp)
{
	return reduce_task(thread, 0, HCCLT_TASK_LOCAL_REDUCE, dst, src, count, dataType,
			   reduceOp, 0);
}

HCCLT_EXPORT int32_t HcommWriteReduceOnThread(ThreadHandle thread, ChannelHandle channel,
					      void *dst, const void *src, uint64_t count,
					      HcommDataType dataType, HcommReduceOp reduceOp)
{
	return reduce_task(thread, channel, HCCLT_TASK_WRITE_REDUCE, dst, src, count, dataType,
			   reduceOp, 0);
}

HCCLT_EXPORT int32_t HcommReadReduceOnThread(ThreadHandle thread, ChannelHandle channel,
					     void *dst, const void *src, uint64_t count,
					     HcommDataType dataType, HcommReduceOp reduceOp)
{
	return reduce_task(thread, channel, HCCLT_TASK_READ_REDUCE, dst, src, count, dataType,
			   reduceOp, 0);
}

HCCLT_EXPORT int32_t hccltLocalReduceOnThread(ThreadHandle thread, void *dst, const void *src,
					      uint64_t count, HcommDataType dataType,
					      HcommReduceOp reduceOp)
{
	return reduce_task(thread, 0, HCCLT_TASK_LOCAL_REDUCE, dst, src, count, dataType,
			   reduceOp, 1);
}

HCCLT_EXPORT int32_t hccltWriteReduceOnThread(ThreadHandle thread, ChannelHandle channel,
					      void *dst, const void *src, uint64_t count,
					      HcommDataType dataType, HcommReduceOp reduceOp)
{
	return reduce_task(thread, channel, HCCLT_TASK_WRITE_REDUCE, dst, src, count, dataType,
			   reduceOp, 1);
}

HCCLT_EXPORT int32_t hccltReadReduceOnThread(ThreadHandle thread, ChannelHandle channel,
					     void *dst, const void *src, uint64_t count,
					     HcommDataType dataType, HcommReduceOp reduceOp)
{
	return reduce_task(thread, channel, HCCLT_TASK_READ_REDUCE, dst, src, count, dataType,
			   reduceOp, 1);
}
