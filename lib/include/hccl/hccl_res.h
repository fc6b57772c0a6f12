/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_res.h - communication resources of a communicator: threads
 * and its HCCL buffer.
 *
 * A thread is a stream plus notifies, owned by a communicator. The kernel
 * driver enforces the per-communicator quota: at most 40 threads and 64
 * notifies, counted over every call and every engine, also when several
 * threads or processes acquire at once. Threads live until their
 * communicator is destroyed; callers never free them.
 */
#ifndef HCCL_RES_H
#define HCCL_RES_H

#include <stdint.h>
#include "hccl/hccl_types.h"
#include "acl/acl_rt.h"
#include "hcomm/hcomm_res_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * HcclThreadAcquire() - acquire threads on a communicator.
 * @comm: communicator (HcclCommInitAll()).
 * @engine: engine of the threads. CPU, CPU_TS and CCU give host-scheduled
 *	threads, AICPU and AICPU_TS device-scheduled ones; AIV has none.
 * @threadNum: number of threads, at least 1.
 * @notifyNumPerThread: notifies of each thread, may be 0.
 * @threads: out, @threadNum handles.
 *
 * Each thread gets a new stream and its own notifies from the device pools.
 * All or nothing: on any error no thread is created and no counter moves.
 *
 * Checks, in this order:
 * 1. @comm or @threads NULL (or @comm not a live communicator of this
 *    process) -> HCCL_E_PTR;
 * 2. @engine outside COMM_ENGINE_CPU..COMM_ENGINE_CCU -> HCCL_E_PARA;
 * 3. @threadNum 0 -> HCCL_E_PARA;
 * 4. quota: more threads than the communicator has left of 40, more notifies
 *    than it has left of 64, or @notifyNumPerThread above 64 ->
 *    HCCL_E_UNAVAIL;
 * 5. COMM_ENGINE_AIV -> HCCL_E_PARA;
 * 6. device stream or notify pool exhausted -> HCCL_E_RUNTIME.
 * Also HCCL_E_MEMORY (kernel out of memory), HCCL_E_DRV (device gone).
 *
 * Return: HCCL_SUCCESS or the error above.
 */
HcclResult HcclThreadAcquire(HcclComm comm, CommEngine engine, uint32_t threadNum,
			     uint32_t notifyNumPerThread, ThreadHandle *threads);

/**
 * HcclThreadAcquireWithStream() - wrap an existing stream into a thread.
 * @comm: communicator.
 * @engine: COMM_ENGINE_CPU, COMM_ENGINE_CPU_TS or COMM_ENGINE_CCU.
 * @stream: stream from aclrtCreateStream() on the communicator's device;
 *	the thread does not take ownership of it.
 * @notifyNum: notifies the thread has at least.
 * @thread: out, the thread handle.
 *
 * The same stream given again on the same communicator returns the same
 * handle, also with another @engine (as hcomm; the thread keeps its first
 * engine); a larger @notifyNum adds notifies to it. The wrapped stream does
 * not count against the 40-thread quota, its notifies do count against the
 * 64-notify quota.
 *
 * Checks, in this order: @comm, @stream or @thread NULL -> HCCL_E_PTR;
 * @engine not CPU, CPU_TS or CCU -> HCCL_E_PARA; @stream not a live stream of
 * this process -> HCCL_E_PTR; @stream on another device than @comm ->
 * HCCL_E_PARA; notify quota
 * -> HCCL_E_UNAVAIL; device notify pool exhausted -> HCCL_E_RUNTIME.
 *
 * Return: HCCL_SUCCESS or the error above.
 */
HcclResult HcclThreadAcquireWithStream(HcclComm comm, CommEngine engine, aclrtStream stream,
				       uint32_t notifyNum, ThreadHandle *thread);

/**
 * HcclThreadExportToCommEngine() - make threads usable on another engine.
 * @comm: communicator of the threads.
 * @threadNum: number of handles, 1..40.
 * @threads: the handles to export.
 * @dstCommEngine: engine of the exported handles (not AIV).
 * @exportedThreads: out, @threadNum handles valid on @dstCommEngine.
 *
 * An exported handle shares the stream and the notifies of the original.
 * Exporting the same thread to the same engine again returns the same
 * handle. Exports do not count against the quota. All or nothing.
 *
 * Checks, in this order: @comm, @threads or @exportedThreads NULL ->
 * HCCL_E_PTR; @dstCommEngine invalid or AIV -> HCCL_E_PARA; @threadNum 0 or
 * above 40 -> HCCL_E_PARA; a handle the communicator does not know ->
 * HCCL_E_PARA.
 *
 * Return: HCCL_SUCCESS or the error above.
 */
HcclResult HcclThreadExportToCommEngine(HcclComm comm, uint32_t threadNum,
					const ThreadHandle *threads, CommEngine dstCommEngine,
					ThreadHandle *exportedThreads);

/**
 * HcclGetHcclBuffer() - the communicator's HCCL buffer.
 * @comm: communicator (HcclCommInitRootInfo(), HcclCommInitAll()).
 * @buffer: out, its address in this process (device memory, mapped).
 * @size: out, its size in bytes.
 *
 * The buffer is made on the first call and every later call returns the
 * same one. Its size is twice the configured buffer size, as CANN's (an
 * input and an output half): HcclCommConfig's hcclBufferSize, else the
 * HCCL_BUFFSIZE environment variable, in MB, default 200 (400 MB in all).
 * It is device memory of the communicator's device, taken from the
 * device's capacity, owned by the communicator: not to be freed
 * (aclrtFree() refuses it); HcclCommDestroy() frees it. aclrtMemcpy() and
 * aclrtMemset() take it as device memory.
 *
 * Checks, in this order: @buffer, @comm or @size NULL (or @comm not a live
 * communicator of this process) -> HCCL_E_PTR. Then HCCL_E_OOM when the
 * device's memory capacity cannot hold it, HCCL_E_MEMORY when the kernel
 * or the memory cgroup cannot, HCCL_E_DRV (device gone).
 *
 * Return: HCCL_SUCCESS or the error above.
 */
HcclResult HcclGetHcclBuffer(HcclComm comm, void **buffer, uint64_t *size);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_RES_H */
