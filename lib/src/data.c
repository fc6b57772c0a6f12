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
#include <stddef.h>
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

/* Tasks of one submission, built by the calls below (data_build()). */
struct tvec {
	struct drm_hcclt_task one;	/* no allocation for a single task */
	struct drm_hcclt_task *t;
	uint32_t n, cap;
	int dev;
	uint64_t tid;
};

static void tvec_init(struct tvec *v)
{
	memset(v, 0, sizeof(*v));
	v->t = &v->one;
	v->cap = 1;
	v->dev = -1;
}

static void tvec_free(struct tvec *v)
{
	if (v->t != &v->one)
		free(v->t);
}

/* Room for @more tasks; 0 or HCCL_E_MEMORY. */
static int32_t tvec_room(struct tvec *v, uint32_t more)
{
	struct drm_hcclt_task *t;
	uint32_t cap = v->cap;

	if (v->n + more <= cap)
		return 0;
	if (more > UINT32_MAX / 2 - v->n)
		return HCCL_E_MEMORY;
	while (cap < v->n + more)
		cap *= 2;
	t = calloc(cap, sizeof(*t));
	if (!t)
		return HCCL_E_MEMORY;
	memcpy(t, v->t, v->n * sizeof(*t));
	tvec_free(v);
	v->t = t;
	v->cap = cap;
	return 0;
}

/*
 * The thread and channel of a call: device, thread id and channel id (0
 * for none); hcomm's order: the thread, then the channel. @need:
 * HCCLT_FEATURE_* bits the device must have (HCCL_E_NOT_SUPPORT
 * otherwise). 0 or the HcclResult.
 */
static int32_t data_handles(ThreadHandle thread, ChannelHandle channel, int local,
			    uint64_t need, int *dev, uint64_t *tid, uint64_t *cid)
{
	if (!thread || hcclt_handle_parse(thread, dev, tid))
		return HCCL_E_PTR;
	*cid = 0;
	if (!local && (!channel || hcclt_channel_parse(channel, *dev, cid)))
		return HCCL_E_PTR;
	if (hcclt_device_fd_fast(*dev) < 0)
		return HCCL_E_PTR;
	if ((hcclt_device_features(*dev) & need) != need)
		return HCCL_E_NOT_SUPPORT;
	return 0;
}

/*
 * Append to @v the task(s) of data op @op of @len bytes on @thread:
 * @channel is the channel of a write or read (0 for a local copy); the
 * peer-side address must be in that channel's peer buffer or in a range
 * the peer registered (HcclChannelGetRemoteMems()), the other one in local
 * memory; one task per piece when a range runs across mappings of a
 * reservation. @dtype and @rop: of a reduce. 0 or the HcclResult.
 */
static int32_t data_build(struct tvec *v, ThreadHandle thread, ChannelHandle channel,
			  uint32_t op, void *dst, const void *src, uint64_t len, uint32_t dtype,
			  uint32_t rop, uint64_t need)
{
	struct hcclt_seg ssegs[HCCLT_MAX_SEGS], dsegs[HCCLT_MAX_SEGS];
	int local = op == HCCLT_TASK_LOCAL_COPY || op == HCCLT_TASK_LOCAL_REDUCE;
	uint64_t tid, cid;
	int dev, ns, nd, n, i;
	int32_t ret;

	/* hcomm's order: the buffers, then the thread, then the channel. */
	if (!dst || !src)
		return HCCL_E_PTR;
	ret = data_handles(thread, channel, local, need, &dev, &tid, &cid);
	if (ret)
		return ret;
	if (v->dev >= 0 && (v->dev != dev || v->tid != tid))
		return HCCL_E_PARA;	/* one submission, one thread */
	v->dev = dev;
	v->tid = tid;
	/*
	 * A zero-length copy, write or read is a task, as in hcomm
	 * (aicpu_ts_primitives_c_adpt.cc:98-125, :466, :750; the driver takes
	 * len 0): it runs in its stream's order and moves nothing. Its
	 * addresses are checked as any others (faq.rst). A zero-length
	 * reduce queues nothing, as before.
	 */
	if (!len && (op == HCCLT_TASK_LOCAL_REDUCE || op == HCCLT_TASK_WRITE_REDUCE ||
		     op == HCCLT_TASK_READ_REDUCE))
		return 0;
	ns = hcclt_mem_segments(dev, src, len, ssegs, HCCLT_MAX_SEGS);
	nd = hcclt_mem_segments(dev, dst, len, dsegs, HCCLT_MAX_SEGS);
	if (ns < 0 || nd < 0)
		return HCCL_E_PARA;
	/* The peer side on this channel (its buffer or a range), the other local. */
	for (i = 0; i < ns; i++)
		if (from_peer(op) ? ssegs[i].chan != cid : ssegs[i].chan != 0)
			return HCCL_E_PARA;
	for (i = 0; i < nd; i++)
		if (to_peer(op) ? dsegs[i].chan != cid : dsegs[i].chan != 0)
			return HCCL_E_PARA;
	n = hcclt_seg_tasks(dsegs, nd, ssegs, ns, NULL);
	ret = tvec_room(v, (uint32_t)n);
	if (ret)
		return ret;
	hcclt_seg_tasks(dsegs, nd, ssegs, ns, v->t + v->n);
	for (i = 0; i < n; i++) {
		v->t[v->n + i].op = op;
		v->t[v->n + i].dst_thread = cid;
		v->t[v->n + i].dtype = dtype;
		v->t[v->n + i].reduce_op = rop;
	}
	v->n += (uint32_t)n;
	return 0;
}

/*
 * Append a record of the peer's notify @idx on @channel to @v (the
 * thread as the tasks before it). 0 or the HcclResult.
 */
static int32_t record_build(struct tvec *v, ThreadHandle thread, ChannelHandle channel,
			    uint32_t idx)
{
	struct drm_hcclt_task *t;
	uint64_t tid, cid;
	int32_t ret;
	int dev;

	ret = data_handles(thread, channel, 0, 0, &dev, &tid, &cid);
	if (ret)
		return ret;
	if (v->dev >= 0 && (v->dev != dev || v->tid != tid))
		return HCCL_E_PARA;
	/* hcomm: a channel notify index out of range is E_INTERNAL. */
	if (idx >= HCCLT_MAX_NOTIFIES_PER_CHANNEL)
		return HCCL_E_INTERNAL;
	v->dev = dev;
	v->tid = tid;
	ret = tvec_room(v, 1);
	if (ret)
		return ret;
	t = &v->t[v->n++];
	memset(t, 0, sizeof(*t));
	t->op = HCCLT_TASK_CHANNEL_RECORD;
	t->dst_thread = cid;
	t->notify_idx = idx;
	return 0;
}

/* Submit @v in one SUBMIT (or keep it, in batch mode); the HcclResult. */
static int32_t tvec_submit(struct tvec *v)
{
	int fd, ret;

	if (!v->n)
		return HCCL_SUCCESS;
	fd = hcclt_device_fd_fast(v->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	ret = hcclt_submit_many(fd, v->dev, v->tid, v->t, v->n);
	return hcclt_map_errno(HCCLT_OP_DATA_TASK, ret);
}

/* Queue data task @op (see data_build()). */
static int32_t data_task(ThreadHandle thread, ChannelHandle channel, uint32_t op,
			 void *dst, const void *src, uint64_t len, uint32_t dtype,
			 uint32_t rop, uint64_t need)
{
	struct tvec v;
	int32_t ret;

	tvec_init(&v);
	ret = data_build(&v, thread, channel, op, dst, src, len, dtype, rop, need);
	if (!ret)
		ret = tvec_submit(&v);
	tvec_free(&v);
	return ret;
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
static int32_t reduce_build(struct tvec *v, ThreadHandle thread, ChannelHandle channel,
			    uint32_t op, void *dst, const void *src, uint64_t count,
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
	return data_build(v, thread, channel, op, dst, src, count * size, (uint32_t)dtype,
			  (uint32_t)rop, narrow ? 0 : HCCLT_FEATURE_REDUCE_EXT);
}

static int32_t reduce_task(ThreadHandle thread, ChannelHandle channel, uint32_t op,
			   void *dst, const void *src, uint64_t count,
			   HcommDataType dtype, HcommReduceOp rop, int ext)
{
	struct tvec v;
	int32_t ret;

	tvec_init(&v);
	ret = reduce_build(&v, thread, channel, op, dst, src, count, dtype, rop, ext);
	if (!ret)
		ret = tvec_submit(&v);
	tvec_free(&v);
	return ret;
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

/*
 * hcomm's kernel-side transfers of 8958adbf include/hcomm_primitives.h:
 * a write and the peer's notify record (...WithNotify, :247-281), a batch
 * of transfers on one channel (:384-394) and a channel fence (:536-542).
 * A transfer and its record are tasks of one submission (all or none
 * queued, or kept together in batch mode), in stream order: the copy
 * engine finishes a data task before the stream's next task runs, so the
 * record reaches the peer only after the data is in its memory.
 */
HCCLT_EXPORT int32_t HcommWriteWithNotifyOnThread(ThreadHandle thread, ChannelHandle channel,
						  void *dst, const void *src, uint64_t len,
						  uint32_t remoteNotifyIdx)
{
	struct tvec v;
	int32_t ret;

	tvec_init(&v);
	ret = data_build(&v, thread, channel, HCCLT_TASK_WRITE, dst, src, len, 0, 0, 0);
	if (!ret)
		ret = record_build(&v, thread, channel, remoteNotifyIdx);
	if (!ret)
		ret = tvec_submit(&v);
	tvec_free(&v);
	return ret;
}

HCCLT_EXPORT int32_t HcommWriteReduceWithNotifyOnThread(ThreadHandle thread,
							ChannelHandle channel, void *dst,
							const void *src, uint64_t count,
							HcommDataType dataType,
							HcommReduceOp reduceOp,
							uint32_t remoteNotifyIdx)
{
	struct tvec v;
	int32_t ret;

	tvec_init(&v);
	ret = reduce_build(&v, thread, channel, HCCLT_TASK_WRITE_REDUCE, dst, src, count,
			   dataType, reduceOp, 0);
	if (!ret)
		ret = record_build(&v, thread, channel, remoteNotifyIdx);
	if (!ret)
		ret = tvec_submit(&v);
	tvec_free(&v);
	return ret;
}

_Static_assert(sizeof(HcommBatchTransferDesc) == 64, "CANN's size");
_Static_assert(offsetof(HcommBatchTransferDesc, transferInfo) == 8, "CANN's layout");

/* Append transfer @d of a batch to @v. */
static int32_t batch_one(struct tvec *v, ThreadHandle thread, ChannelHandle channel,
			 const HcommBatchTransferDesc *d)
{
	int32_t ret;

	switch (d->transType) {
	case HCOMM_TRANSFER_TYPE_WRITE:
		return data_build(v, thread, channel, HCCLT_TASK_WRITE, d->transferInfo.write.dst,
				  d->transferInfo.write.src, d->transferInfo.write.len, 0, 0, 0);
	case HCOMM_TRANSFER_TYPE_READ:
		return data_build(v, thread, channel, HCCLT_TASK_READ, d->transferInfo.read.dst,
				  d->transferInfo.read.src, d->transferInfo.read.len, 0, 0, 0);
	case HCOMM_TRANSFER_TYPE_WRITE_REDUCE:
	case HCOMM_TRANSFER_TYPE_READ_REDUCE:
		return reduce_build(v, thread, channel,
				    d->transType == HCOMM_TRANSFER_TYPE_WRITE_REDUCE ?
				    HCCLT_TASK_WRITE_REDUCE : HCCLT_TASK_READ_REDUCE,
				    d->transferInfo.reduce.dst, d->transferInfo.reduce.src,
				    d->transferInfo.reduce.count, d->transferInfo.reduce.dataType,
				    d->transferInfo.reduce.reduceOp, 0);
	case HCOMM_TRANSFER_TYPE_WRITE_WITH_NOTIFY:
		ret = data_build(v, thread, channel, HCCLT_TASK_WRITE,
				 d->transferInfo.writeWithNotify.dst,
				 d->transferInfo.writeWithNotify.src,
				 d->transferInfo.writeWithNotify.len, 0, 0, 0);
		return ret ? ret : record_build(v, thread, channel,
						d->transferInfo.writeWithNotify.notifyIdx);
	case HCOMM_TRANSFER_TYPE_WRITE_REDUCE_WITH_NOTIFY:
		ret = reduce_build(v, thread, channel, HCCLT_TASK_WRITE_REDUCE,
				   d->transferInfo.writeReduceWithNotify.dst,
				   d->transferInfo.writeReduceWithNotify.src,
				   d->transferInfo.writeReduceWithNotify.count,
				   d->transferInfo.writeReduceWithNotify.dataType,
				   d->transferInfo.writeReduceWithNotify.reduceOp, 0);
		return ret ? ret : record_build(v, thread, channel,
						d->transferInfo.writeReduceWithNotify.notifyIdx);
	case HCOMM_TRANSFER_TYPE_NOTIFY_RECORD:
		return record_build(v, thread, channel, d->transferInfo.notifyRecord.notifyIdx);
	default:
		return HCCL_E_PARA;
	}
}

HCCLT_EXPORT int32_t HcommBatchTransferOnThread(ThreadHandle thread, ChannelHandle channel,
						const HcommBatchTransferDesc *transferDescs,
						uint32_t transferDescNum)
{
	struct tvec v;
	int32_t ret = 0;
	uint32_t i;

	/* hcomm's order (aicpu_ts_primitives_c_adpt.cc:884-891). */
	if (!transferDescs)
		return HCCL_E_PTR;
	if (!transferDescNum) {
		uint64_t tid, cid;
		int dev;

		ret = data_handles(thread, channel, 0, 0, &dev, &tid, &cid);
		return ret ? ret : HCCL_E_PARA;
	}
	tvec_init(&v);
	for (i = 0; i < transferDescNum && !ret; i++)
		ret = batch_one(&v, thread, channel, &transferDescs[i]);
	if (!ret)
		ret = tvec_submit(&v);
	tvec_free(&v);
	return ret;
}

HCCLT_EXPORT int32_t HcommChannelFenceOnThread(ThreadHandle thread, ChannelHandle channel)
{
	uint64_t tid, cid;
	int dev;

	/* Stream order is the fence (see above): check, queue nothing. */
	return data_handles(thread, channel, 0, 0, &dev, &tid, &cid);
}
