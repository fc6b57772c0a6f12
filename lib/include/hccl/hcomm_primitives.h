/* SPDX-License-Identifier: MIT */
/*
 * hccl/hcomm_primitives.h - notify record and wait on threads.
 *
 * Both calls only queue a task on the thread's stream and return: the
 * stream blocks, never the caller. They allocate nothing and make one ioctl,
 * after which they take a short mutex (to note whether the stream was left
 * idle); they are safe to call from any thread. Only a record that the
 * kernel refuses as invalid costs more: the library then asks the kernel
 * (DRM_IOCTL_HCCLT_INFO, with an allocation) whether the index or the
 * engines were wrong.
 *
 * A notify is a binary flag: a record sets it, a wait that finds it set
 * resets it and lets the stream move on. Two records before a wait release
 * one wait.
 *
 * The return value is an HcclResult number (int32_t, as in CANN).
 */
#ifndef HCOMM_PRIMITIVES_H
#define HCOMM_PRIMITIVES_H

#include <stdint.h>
#include "hccl/hccl_types.h"
#include "hcomm/hcomm_res_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

/** HcommReduceOp - reduction operations (CANN's values, as HcclReduceOp). */
typedef enum {
	HCOMM_REDUCE_SUM = 0,
	HCOMM_REDUCE_PROD = 1,
	HCOMM_REDUCE_MAX = 2,
	HCOMM_REDUCE_MIN = 3,
	HCOMM_REDUCE_RESERVED = 255
} HcommReduceOp;

/** HcommDataType - element types (CANN's values, as HcclDataType). */
typedef enum {
	HCOMM_DATA_TYPE_INT8 = 0,
	HCOMM_DATA_TYPE_INT16 = 1,
	HCOMM_DATA_TYPE_INT32 = 2,
	HCOMM_DATA_TYPE_FP16 = 3,
	HCOMM_DATA_TYPE_FP32 = 4,
	HCOMM_DATA_TYPE_INT64 = 5,
	HCOMM_DATA_TYPE_UINT64 = 6,
	HCOMM_DATA_TYPE_UINT8 = 7,
	HCOMM_DATA_TYPE_UINT16 = 8,
	HCOMM_DATA_TYPE_UINT32 = 9,
	HCOMM_DATA_TYPE_FP64 = 10,
	HCOMM_DATA_TYPE_BFP16 = 11,
	HCOMM_DATA_TYPE_INT128 = 12,
	HCOMM_DATA_TYPE_HIF8 = 14,
	HCOMM_DATA_TYPE_FP8E4M3 = 15,
	HCOMM_DATA_TYPE_FP8E5M2 = 16,
	HCOMM_DATA_TYPE_FP8E8M0 = 17,
	HCOMM_DATA_TYPE_RESERVED = 255
} HcommDataType;

/**
 * HcommThreadNotifyRecordOnThread() - queue "set notify" on a stream.
 * @thread: thread whose stream runs the task.
 * @dstThread: thread owning the notify; must be a handle of the same engine
 *	as @thread (use HcclThreadExportToCommEngine() to get one).
 * @dstNotifyIdx: index of the notify, below @dstThread's notify count.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR when @thread or @dstThread is 0 or not a
 * live handle of this process, or @dstNotifyIdx is out of range;
 * HCCL_E_PARA when the two handles are of different engines or devices;
 * HCCL_E_AGAIN when the stream's queue is full (4096 pending tasks);
 * HCCL_E_MEMORY; HCCL_E_DRV (device gone).
 */
int32_t HcommThreadNotifyRecordOnThread(ThreadHandle thread, ThreadHandle dstThread,
					uint32_t dstNotifyIdx);

/**
 * HcommThreadNotifyWaitOnThread() - queue "wait for notify" on a stream.
 * @thread: thread whose stream waits, and whose notify it waits for.
 * @notifyIdx: index of the notify, below @thread's notify count.
 * @timeOut: seconds, 0 = no limit. A wait that times out is reported by the
 *	next synchronize of the stream (ACL_ERROR_RT_WAIT_TIMEOUT), and the
 *	tasks queued after it on the stream are dropped.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR when @thread is 0 or not a live handle of
 * this process, or @notifyIdx is out of range; HCCL_E_AGAIN (queue full);
 * HCCL_E_MEMORY; HCCL_E_DRV.
 */
int32_t HcommThreadNotifyWaitOnThread(ThreadHandle thread, uint32_t notifyIdx, uint32_t timeOut);

/**
 * HcommChannelNotifyRecordOnThread() - queue, on @thread's stream, a record
 * of the peer's notify @remoteNotifyIdx of @channel (the notify the peer's
 * HcommChannelNotifyWaitOnThread() of that index waits on).
 * @thread: thread of the channel's communicator, of the channel's engine
 *	family.
 * @channel: handle from HcclChannelAcquire().
 * @remoteNotifyIdx: index below the channel's notifyNum.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR when @thread or @channel is 0 or not a
 * live handle of this process and communicator; HCCL_E_INTERNAL when the
 * index is out of range or the thread is of another engine family (as
 * hcomm's index check); HCCL_E_REMOTE when the peer rank is gone;
 * HCCL_E_AGAIN (queue full); HCCL_E_MEMORY; HCCL_E_DRV.
 */
int32_t HcommChannelNotifyRecordOnThread(ThreadHandle thread, ChannelHandle channel,
					 uint32_t remoteNotifyIdx);

/**
 * HcommChannelNotifyWaitOnThread() - queue, on @thread's stream, a wait on
 * this side's notify @localNotifyIdx of @channel, then reset it.
 * @thread: as for HcommChannelNotifyRecordOnThread().
 * @channel: handle from HcclChannelAcquire().
 * @localNotifyIdx: index below the channel's notifyNum.
 * @timeout: seconds, 0 = no limit. A timeout is reported by the next
 *	synchronize of the stream (ACL_ERROR_RT_WAIT_TIMEOUT); a peer rank
 *	that dies fails the wait at once (ACL_ERROR_RT_STREAM_ABORT from that
 *	synchronize, once).
 *
 * Return: as HcommChannelNotifyRecordOnThread().
 */
int32_t HcommChannelNotifyWaitOnThread(ThreadHandle thread, ChannelHandle channel,
				       uint32_t localNotifyIdx, uint32_t timeout);

/**
 * HcommLocalCopyOnThread() - queue a copy of @len bytes from @src to @dst
 * on @thread's stream.
 * @thread: the thread (any engine; a stream wrapped by
 *	HcclThreadAcquireWithStream included).
 * @dst: destination: device memory of the thread's device (aclrtMalloc(),
 *	the communicator's HCCL buffer).
 * @src: source, the same kinds.
 * @len: bytes; zero queues a task that moves nothing (hcomm does), whose
 *	addresses are checked as any.
 *
 * Asynchronous: the copy runs when the stream reaches it (the simulated
 * device's copy engine), in stream order. Both ranges must lie inside one
 * allocation each; the kernel checks them again when the task is queued.
 * Overlapping ranges are copied as by memmove().
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@dst or @src NULL, @thread 0 or not a
 * live thread); HCCL_E_PARA (a range not inside device memory of the
 * thread's device); HCCL_E_AGAIN (the stream's queue is full).
 */
int32_t HcommLocalCopyOnThread(ThreadHandle thread, void *dst, const void *src, uint64_t len);

/**
 * HcommWriteOnThread() - queue a one-sided write of @len bytes from local
 * @src to @dst in the HCCL buffer of @channel's peer.
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel (HcclChannelAcquire()).
 * @dst: an address in the peer's HCCL buffer as HcclChannelGetHcclBuffer()
 *	mapped it.
 * @src: device memory of this rank.
 * @len: bytes; zero queues a task that moves nothing (hcomm does), whose
 *	addresses are checked as any.
 *
 * A channel record queued after it on the same thread releases the peer's
 * wait only after the data is in the peer's buffer.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@dst or @src NULL, @thread or @channel
 * 0 or not live); HCCL_E_PARA (@dst not inside @channel's peer buffer, @src
 * not inside local device memory, another engine family); HCCL_E_REMOTE
 * (the peer is gone); HCCL_E_AGAIN.
 */
int32_t HcommWriteOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
			   const void *src, uint64_t len);

/**
 * HcommReadOnThread() - queue a one-sided read of @len bytes from @src in
 * the HCCL buffer of @channel's peer into local @dst.
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel.
 * @dst: device memory of this rank.
 * @src: an address in the peer's HCCL buffer (HcclChannelGetHcclBuffer()).
 * @len: bytes; zero queues a task that moves nothing (hcomm does), whose
 *	addresses are checked as any.
 *
 * Return: as HcommWriteOnThread(), with @src and @dst swapped.
 */
int32_t HcommReadOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
			  const void *src, uint64_t len);

/**
 * HcommAclrtNotifyRecordOnThread() - queue on @thread's stream a record of
 * the ACL notify @dstNotifyId (aclrtGetNotifyId()).
 * @thread: the thread.
 * @dstNotifyId: an ACL notify of this process on the thread's device.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@thread 0 or not live); HCCL_E_PARA
 * (not an ACL notify of this process on that device); HCCL_E_AGAIN.
 */
int32_t HcommAclrtNotifyRecordOnThread(ThreadHandle thread, uint64_t dstNotifyId);

/**
 * HcommAclrtNotifyWaitOnThread() - queue on @thread's stream a wait on the
 * ACL notify @notifyId, which then resets it.
 * @thread: the thread.
 * @notifyId: as HcommAclrtNotifyRecordOnThread().
 * @timeOut: seconds; 0 waits as long as it takes.
 *
 * Return: as HcommAclrtNotifyRecordOnThread().
 */
int32_t HcommAclrtNotifyWaitOnThread(ThreadHandle thread, uint64_t notifyId, uint32_t timeOut);

/**
 * HcommLocalReduceOnThread() - queue, on @thread's stream, @count elements
 * of @dst becoming @reduceOp of themselves and those of @src.
 * @thread: the thread.
 * @dst: destination (and first operand): device memory of the thread's
 *	device, aligned to the element size.
 * @src: source: the same kinds; must not overlap @dst.
 * @count: elements; zero queues nothing.
 * @dataType: INT8, INT16, INT32, FP16, FP32 or BFP16 (hcclthread.h's
 *	hccltLocalReduceOnThread() takes every type and PROD).
 * @reduceOp: SUM, MAX or MIN.
 *
 * Integers wrap around on SUM; floats are computed in FP32 (FP16 and
 * BFP16 rounded back to nearest even); a NaN operand of MAX or MIN gives
 * NaN.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@dst or @src NULL, @thread 0 or not
 * live); HCCL_E_PARA (another type or op, a range not inside device
 * memory, not aligned to the element size, or overlapping);
 * HCCL_E_NOT_SUPPORT (a float type on a host whose kernel cannot reduce
 * floats); HCCL_E_AGAIN.
 */
int32_t HcommLocalReduceOnThread(ThreadHandle thread, void *dst, const void *src,
				 uint64_t count, HcommDataType dataType,
				 HcommReduceOp reduceOp);

/**
 * HcommWriteReduceOnThread() - HcommWriteOnThread(), reducing into the
 * peer's buffer as HcommLocalReduceOnThread() does (@count elements).
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel.
 * @dst: an address in the peer's HCCL buffer.
 * @src: device memory of this rank.
 * @count: elements.
 * @dataType: as HcommLocalReduceOnThread().
 * @reduceOp: as HcommLocalReduceOnThread().
 *
 * Return: as HcommLocalReduceOnThread(); HCCL_E_REMOTE (the peer is gone).
 */
int32_t HcommWriteReduceOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
				 const void *src, uint64_t count, HcommDataType dataType,
				 HcommReduceOp reduceOp);

/**
 * HcommReadReduceOnThread() - HcommReadOnThread(), reducing into local
 * @dst as HcommLocalReduceOnThread() does (@count elements).
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel.
 * @dst: device memory of this rank.
 * @src: an address in the peer's HCCL buffer.
 * @count: elements.
 * @dataType: as HcommLocalReduceOnThread().
 * @reduceOp: as HcommLocalReduceOnThread().
 *
 * Return: as HcommWriteReduceOnThread().
 */
int32_t HcommReadReduceOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
				const void *src, uint64_t count, HcommDataType dataType,
				HcommReduceOp reduceOp);

/**
 * HcommWriteWithNotifyOnThread() - HcommWriteOnThread() and then
 * HcommChannelNotifyRecordOnThread(@remoteNotifyIdx) on @channel, in one
 * submission: both or neither are queued, and the peer's wait on that
 * notify is released only after the data is in its memory.
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel.
 * @dst: an address in the peer's HCCL buffer or in a range it registered
 *	(HcclChannelGetRemoteMems()).
 * @src: device memory of this rank.
 * @len: bytes.
 * @remoteNotifyIdx: the peer's notify, below the channel's notify count.
 *
 * hcomm (8958adbf include/hcomm_primitives.h:247-262, "experimental", "A5
 * mainly") supports it on a 950's channels; here every SoC does.
 *
 * Return: as HcommWriteOnThread(); HCCL_E_INTERNAL (@remoteNotifyIdx 64 or
 * above, as HcommChannelNotifyRecordOnThread()); HCCL_E_PARA (an index
 * below 64 but not below the channel's notify count: the kernel refuses
 * the submission, and which task it refused is not told apart).
 */
int32_t HcommWriteWithNotifyOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
				     const void *src, uint64_t len, uint32_t remoteNotifyIdx);

/**
 * HcommWriteReduceWithNotifyOnThread() - HcommWriteReduceOnThread() and
 * then the peer's notify @remoteNotifyIdx, as HcommWriteWithNotifyOnThread().
 *
 * Return: as HcommWriteReduceOnThread() and HcommWriteWithNotifyOnThread().
 */
int32_t HcommWriteReduceWithNotifyOnThread(ThreadHandle thread, ChannelHandle channel,
					   void *dst, const void *src, uint64_t count,
					   HcommDataType dataType, HcommReduceOp reduceOp,
					   uint32_t remoteNotifyIdx);

/** HcommTransferType - a HcommBatchTransferDesc's kind (hcomm :77-86). */
typedef enum {
	HCOMM_TRANSFER_TYPE_INVALID = -1,
	HCOMM_TRANSFER_TYPE_WRITE = 0,
	HCOMM_TRANSFER_TYPE_WRITE_REDUCE = 1,
	HCOMM_TRANSFER_TYPE_WRITE_WITH_NOTIFY = 2,
	HCOMM_TRANSFER_TYPE_WRITE_REDUCE_WITH_NOTIFY = 3,
	HCOMM_TRANSFER_TYPE_READ = 4,
	HCOMM_TRANSFER_TYPE_READ_REDUCE = 5,
	HCOMM_TRANSFER_TYPE_NOTIFY_RECORD = 6,
} HcommTransferType;

/**
 * HcommBatchTransferDesc - one transfer of HcommBatchTransferOnThread()
 * (hcomm :88-131; 64 bytes: the type, 4 reserved bytes, a 56-byte union).
 */
typedef struct {
	HcommTransferType transType;
	uint8_t reserved[4];
	union {
		uint8_t raws[56];
		struct {
			uint64_t len;
			void *dst;
			void *src;
		} write;
		struct {
			uint64_t len;
			void *dst;
			void *src;
		} read;
		struct {
			uint64_t count;
			void *dst;
			void *src;
			HcommReduceOp reduceOp;
			HcommDataType dataType;
		} reduce;
		struct {
			uint32_t notifyIdx;
		} notifyRecord;
		struct {
			uint64_t len;
			void *dst;
			void *src;
			uint32_t notifyIdx;
		} writeWithNotify;
		struct {
			uint64_t count;
			void *dst;
			void *src;
			HcommReduceOp reduceOp;
			HcommDataType dataType;
			uint32_t notifyIdx;
		} writeReduceWithNotify;
	} transferInfo;
} HcommBatchTransferDesc;

/**
 * HcommBatchTransferOnThread() - queue @transferDescNum transfers on
 * @channel, in their order, in one submission: all or none are queued.
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel.
 * @transferDescs: the transfers; WRITE_REDUCE and READ_REDUCE take
 *	transferInfo.reduce, the others the member of their name.
 * @transferDescNum: how many.
 *
 * Checks, hcomm's first (8958adbf aicpu_ts_primitives_c_adpt.cc:884-891):
 * @transferDescs NULL -> HCCL_E_PTR; @thread or @channel not a live handle
 * -> HCCL_E_PTR; @transferDescNum 0 -> HCCL_E_PARA; then each transfer as
 * its single call, in order: an unknown transType, a bad type or op, an
 * address outside the peer's buffer and registered ranges -> HCCL_E_PARA.
 *
 * Return: HCCL_SUCCESS or the first code above; the single calls' other
 * codes.
 */
int32_t HcommBatchTransferOnThread(ThreadHandle thread, ChannelHandle channel,
				   const HcommBatchTransferDesc *transferDescs,
				   uint32_t transferDescNum);

/**
 * HcommChannelFenceOnThread() - order @channel's writes and reads queued
 * on @thread before this call before those queued after it.
 *
 * Every data task of a stream completes before the stream's next task
 * starts (the copy engine runs them in stream order), so the order
 * already holds: the call checks its arguments and queues nothing.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@thread or @channel 0 or not a live
 * handle of this process).
 */
int32_t HcommChannelFenceOnThread(ThreadHandle thread, ChannelHandle channel);

/**
 * HcommBatchModeStart() - keep the tasks this OS thread queues from now
 * on (on any thread handle) until HcommBatchModeEnd() with the same tag.
 * @batchTag: the batch's name; NULL is "".
 *
 * As hcomm, it only sets the mode: a Start while a batch is open goes on
 * with that batch (its kept tasks stay kept) under the new tag.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PARA (the tag is 256 bytes or longer).
 */
int32_t HcommBatchModeStart(const char *batchTag);

/**
 * HcommBatchModeEnd() - submit every task kept since HcommBatchModeStart():
 * one submission per stream (more only past the driver's batch limit).
 * @batchTag: the tag Start was given.
 *
 * Checks the kernel makes (ranges, ids, a gone peer) fail here, with the
 * codes of the calls that queued the tasks; the other streams' tasks are
 * submitted anyway.
 *
 * As hcomm, it ends batch mode and launches what was kept under its tag:
 * without a Start, or with another tag than the batch's, it submits
 * nothing and succeeds (the batch's tasks then stay kept until an End of
 * its tag, while the calls made meanwhile run at once).
 *
 * Return: HCCL_SUCCESS; the code of the first failed submission.
 */
int32_t HcommBatchModeEnd(const char *batchTag);

/**
 * HcommAcquireComm() - before a kernel's data-plane calls: check that
 * this process has a communicator named @commId on the calling thread's
 * device (an AICPU kernel runs with the device of its launch).
 * HcommReleaseComm() ends that (nothing to release here).
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@commId NULL, no such communicator).
 */
int32_t HcommAcquireComm(const char *commId);
int32_t HcommReleaseComm(const char *commId);

/**
 * HcommThreadSynchronize() - as hcomm on A2/A3: returns at once (it is
 * not a completion wait); HCCL_E_PTR for a handle that is not a thread.
 */
int32_t HcommThreadSynchronize(ThreadHandle thread);

#ifdef __cplusplus
}
#endif

#endif /* HCOMM_PRIMITIVES_H */
