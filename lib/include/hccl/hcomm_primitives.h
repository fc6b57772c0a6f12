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

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* HCOMM_PRIMITIVES_H */
