/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_res.h - communication resources of a communicator: threads
 * and its HCCL buffer.
 *
 * A thread is a stream plus notifies, owned by a communicator. The kernel
 * driver enforces the per-communicator quota: at most 40 threads and 64
 * notifies under its default rules, or hcomm's later limits when the
 * host's administrator chose them (module parameter quota_rules: 40/640 of
 * hcomm 2026-04, 200/65,536 of hcomm 2026-08; hccltGetDeviceUsage() and
 * hccltCommGetUsage() tell the active ones), counted over every call and
 * every engine, also when several threads or processes acquire at once. Threads live until their
 * communicator is destroyed; callers never free them.
 */
#ifndef HCCL_RES_H
#define HCCL_RES_H

#include <stdint.h>
#include <string.h>
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
 * 3. @threadNum 0 -> HCCL_E_PARA; under the 2026-04 and 2026-08 rules also
 *    @notifyNumPerThread above 640 (2026-04) or 65,535 (2026-08), and
 *    @threadNum above 40 (2026-04) or 200 (2026-08) -> HCCL_E_PARA;
 * 4. quota: more threads than the communicator has left (40, or 200 under
 *    the 2026-08 rules), more notifies than it has left (64, 640 or
 *    65,536), or @notifyNumPerThread above 64 (seed rules) ->
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
 * not count against the thread quota; its notifies count against the notify
 * quota under the seed (64) and 2026-04 (640) rules, not under the 2026-08
 * rules.
 *
 * Checks, in this order: @comm, @stream or @thread NULL -> HCCL_E_PTR;
 * @engine not CPU, CPU_TS or CCU (seed rules; under the later ones only
 * @engine outside CPU..CCU here, and a host engine is asked for only when
 * the stream is not wrapped yet) -> HCCL_E_PARA; @stream not a live stream
 * of this process -> HCCL_E_PTR; @stream on another device than @comm ->
 * HCCL_E_PARA; notify quota -> HCCL_E_UNAVAIL; device notify pool
 * exhausted -> HCCL_E_RUNTIME.
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

/* EndpointDescInit() - CANN's initialiser of an EndpointDesc array. */
static inline HcclResult EndpointDescInit(EndpointDesc *endpointDesc, uint32_t descNum)
{
	uint32_t i;

	if (!endpointDesc)
		return HCCL_E_PTR;
	for (i = 0; i < descNum; i++) {
		memset(&endpointDesc[i], 0xFF, sizeof(EndpointDesc));
		endpointDesc[i].protocol = COMM_PROTOCOL_RESERVED;
		endpointDesc[i].commAddr.type = COMM_ADDR_TYPE_RESERVED;
		endpointDesc[i].loc.locType = ENDPOINT_LOC_TYPE_RESERVED;
	}
	return HCCL_SUCCESS;
}

/**
 * HcclChannelDescInit() - initialise @descNum channel descriptors as CANN's
 * inline function does: every byte 0xFF, then the header (version 1, magic
 * 0x0f0f0f0f, size sizeof(HcclChannelDesc)), remoteRank ~0, protocol
 * RESERVED, notifyNum 0, no memory handles, both endpoints reserved.
 * Return: HCCL_SUCCESS, HCCL_E_PTR when @channelDesc is NULL.
 */
static inline HcclResult HcclChannelDescInit(HcclChannelDesc *channelDesc, uint32_t descNum)
{
	uint32_t i;

	if (!channelDesc)
		return HCCL_E_PTR;
	for (i = 0; i < descNum; i++) {
		HcclChannelDesc *d = &channelDesc[i];

		memset(d, 0xFF, sizeof(*d));
		d->header.version = HCCL_CHANNEL_DESC_VERSION;
		d->header.magicWord = HCCL_CHANNEL_DESC_MAGIC_WORD;
		d->header.size = sizeof(*d);
		d->header.reserved = 0;
		d->remoteRank = ~0U;
		d->channelProtocol = COMM_PROTOCOL_RESERVED;
		d->notifyNum = 0;
		d->memHandles = NULL;
		d->memHandleNum = 0;
		(void)EndpointDescInit(&d->localEndpoint, 1);
		(void)EndpointDescInit(&d->remoteEndpoint, 1);
	}
	return HCCL_SUCCESS;
}

/**
 * HcclChannelAcquire() - acquire channels to other ranks of a communicator.
 * @comm: communicator of a group (HcclCommInitRootInfo()).
 * @engine: COMM_ENGINE_CPU or CPU_TS (one family), AICPU or AICPU_TS (the
 *	other): a channel serves threads of its engine's family.
 * @channelDescs: @channelNum descriptors (HcclChannelDescInit(), then
 *	remoteRank, channelProtocol, notifyNum set).
 * @channelNum: number of descriptors.
 * @channels: out, @channelNum handles.
 *
 * A pairwise rendezvous in the kernel: both ranks acquire the channel (same
 * engine family and protocol; the same notifyNum, else both fail with
 * HCCL_E_INTERNAL). All descriptors of the call are offered at once, so
 * that ranks acquiring their left and right neighbours do not deadlock.
 * Bounded by HCCL_CONNECT_TIMEOUT (seconds, default 120). Acquiring an
 * existing (engine family, remoteRank, protocol) again returns the same
 * handle. Each side's notifies come from its own device's pool and do not
 * count against the communicator's 64 thread notifies. When another
 * descriptor fails, pairs already established stay (a retry returns them).
 *
 * Checks, in this order: @comm, @channelDescs or @channels NULL (or @comm
 * not live) -> HCCL_E_PTR; @channelNum 0 or above 1048576 -> HCCL_E_PARA;
 * per descriptor, a bad magic word or an unknown protocol -> HCCL_E_PARA;
 * then per descriptor notifyNum above 64, a (remoteRank, channelProtocol)
 * repeated, remoteRank the caller's rank, remoteRank >= the rank count,
 * protocol not HCCS or ROCE, @engine not CPU, CPU_TS, AICPU or AICPU_TS ->
 * HCCL_E_PARA. Then: HCCL_CONNECT_TIMEOUT not a number of seconds ->
 * HCCL_E_PARA; the peer gone -> HCCL_E_REMOTE; notifyNum mismatch ->
 * HCCL_E_INTERNAL; timeout -> HCCL_E_TIMEOUT; device notify pool exhausted
 * -> HCCL_E_RUNTIME; HCCL_E_MEMORY; HCCL_E_DRV.
 *
 * Return: HCCL_SUCCESS or the error above.
 */
HcclResult HcclChannelAcquire(HcclComm comm, CommEngine engine, const HcclChannelDesc *channelDescs,
			      uint32_t channelNum, ChannelHandle *channels);
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

/**
 * HcclChannelGetHcclBuffer() - the HCCL buffer of @channel's peer rank,
 * mapped into this process.
 * @comm: the communicator of @channel.
 * @channel: a channel of @comm (HcclChannelAcquire()).
 * @buffer: out, the peer's buffer's address in this process.
 * @size: out, its size in bytes.
 *
 * The peer's buffer is device memory of the peer's device; this process
 * may store to it and load from it, and HcommWriteOnThread() and
 * HcommReadOnThread() name addresses in it. The mapping is made on the
 * first call for (@comm, @channel) and removed by HcclCommDestroy(@comm).
 * A peer that never asked for its buffer gets one of this communicator's
 * size (HcclGetHcclBuffer()). Only a channel's peer buffer is reachable
 * this way; nothing else of another rank.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (a NULL argument, @comm not live,
 * @channel 0 or not a channel of @comm); HCCL_E_REMOTE (the peer is gone);
 * HCCL_E_OOM (the peer's device cannot hold its buffer); HCCL_E_MEMORY;
 * HCCL_E_DRV.
 */
HcclResult HcclChannelGetHcclBuffer(HcclComm comm, ChannelHandle channel, void **buffer,
				    uint64_t *size);

/**
 * HcclEngineCtxCreate() - make the engine context (@comm, @ctxTag, @engine):
 * @size bytes, zeroed; host memory for CPU, CPU_TS and CCU, device memory
 * of @comm's device for AICPU, AICPU_TS and AIV (what kernels read).
 * @ctxTag: NULL is ""; at most 255 bytes.
 * @ctx: out, its address.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm or @ctx NULL, not a live
 * communicator); HCCL_E_PARA (@size 0, tag too long, engine unknown, the
 * context exists); HCCL_E_MEMORY.
 */
HcclResult HcclEngineCtxCreate(HcclComm comm, const char *ctxTag, CommEngine engine,
			       uint64_t size, void **ctx);

/**
 * HcclEngineCtxGet() - the context (@comm, @ctxTag, @engine) and its size.
 * Return: HCCL_SUCCESS; HCCL_E_PTR (a NULL pointer, not a communicator);
 * HCCL_E_PARA (tag too long); no such context: HCCL_E_NOT_FOUND on an
 * Ascend950 SoC, HCCL_E_PARA on A2/A3 (hcomm's codes per SoC).
 */
HcclResult HcclEngineCtxGet(HcclComm comm, const char *ctxTag, CommEngine engine, void **ctx,
			    uint64_t *size);

/**
 * HcclEngineCtxCopy() - copy @size bytes of @srcCtx (host memory) to
 * @dstCtxOffset of the context. The range is checked on every SoC
 * (hcomm checks it on a 950 only).
 * Return: HCCL_SUCCESS; HCCL_E_PTR; HCCL_E_PARA (@size 0, @dstCtxOffset +
 * @size past its end); no such context: HCCL_E_NOT_FOUND on an Ascend950
 * SoC, HCCL_E_PARA on A2/A3.
 */
HcclResult HcclEngineCtxCopy(HcclComm comm, CommEngine engine, const char *ctxTag,
			     const void *srcCtx, uint64_t size, uint64_t dstCtxOffset);

/**
 * HcclEngineCtxDestroy() - free the context; HcclCommDestroy() frees the
 * ones left.
 * Return: HCCL_SUCCESS; HCCL_E_PTR; HCCL_E_PARA (no such context).
 */
HcclResult HcclEngineCtxDestroy(HcclComm comm, const char *ctxTag, CommEngine engine);

/*
 * Longest tag of an engine context or registered memory, NUL excluded
 * (hcomm 8958adbf include/hccl/hccl_res.h:25: a const uint32_t; a static
 * one here, so that C can include it in several files).
 */
static const uint32_t HCCL_RES_TAG_MAX_LEN = 255;

/**
 * HcclCommMemReg() - register memory with @comm under @memTag, so that
 * the ranks @comm has channels to can write into it and read from it
 * (HcclChannelGetRemoteMems() on their side).
 * @comm: the communicator.
 * @memTag: the range's name in @comm, 1 to HCCL_RES_TAG_MAX_LEN bytes;
 *	unique in @comm.
 * @mem: the range: COMM_MEM_TYPE_DEVICE, device memory of @comm's device
 *	(aclrtMalloc(), an HCCL buffer, an engine context of an AICPU
 *	engine), inside one allocation.
 * @memHandle: out, the registration.
 *
 * The range is a kernel object of @comm: a peer's WRITE or READ into it
 * is checked against the range, and the peers lose it (their tasks on it
 * fail with HCCL_E_REMOTE) at HcclCommDeregMem(), HcclCommDestroy() or
 * this process's death.
 *
 * Checks, in hcomm's order (comm_mem_c_adpt.cc:30-63): @comm NULL, @memTag
 * NULL -> HCCL_E_PTR; @memTag empty or too long -> HCCL_E_PARA; @mem NULL,
 * @memHandle NULL -> HCCL_E_PTR; @mem->type neither DEVICE nor HOST ->
 * HCCL_E_PARA; @mem->addr NULL -> HCCL_E_PTR; @mem->size 0 -> HCCL_E_PARA.
 * Then: @comm not a live communicator -> HCCL_E_PTR; COMM_MEM_TYPE_HOST
 * -> HCCL_E_NOT_SUPPORT (ours: peers reach device memory only); the range
 * not inside one device allocation of @comm's device -> HCCL_E_PARA;
 * @memTag registered on @comm already -> HCCL_E_PARA (hcomm's 950
 * communicator, comm_mems.cc:114-120); 256 ranges registered ->
 * HCCL_E_UNAVAIL; HCCL_E_MEMORY.
 */
HcclResult HcclCommMemReg(HcclComm comm, const char *memTag, const CommMem *mem,
			  HcclMemHandle *memHandle);

/**
 * HcclCommDeregMem() - end the registration @memHandle of @memTag.
 *
 * hcomm defines it (comm_mem_c_adpt.cc:96-128) but does not declare it
 * in an installed header; it is declared here with its signature.
 * Checks (hcomm's): @comm or @memHandle NULL -> HCCL_E_PTR; @memTag NULL
 * or empty -> HCCL_E_PARA; a @memHandle not registered under @memTag:
 * HCCL_SUCCESS (hcomm: a warning, success).
 */
HcclResult HcclCommDeregMem(HcclComm comm, const char *memTag, const void *memHandle);

/**
 * HcclChannelGetRemoteMems() - the ranges @channel's peer registered.
 * @comm: the communicator of @channel.
 * @channel: a channel of @comm.
 * @memNum: out, how many.
 * @remoteMems: out, an array of @memNum ranges, addresses in this process
 *	that HcommWriteOnThread() and friends name on @channel; NULL when
 *	@memNum is 0.
 * @memTags: out, their tags, as the peer registered them.
 *
 * The arrays belong to @comm and stay valid until the next call for
 * @channel or HcclCommDestroy(). The addresses are reserved in the device
 * window (the AI CPU's too) but not mapped: data tasks name them, loads
 * and stores fault (see Documentation/channels.rst).
 *
 * Checks: @comm, @remoteMems, @memTags, @memNum NULL -> HCCL_E_PTR (hcomm,
 * channel_c_adpt.cc:131-136); @comm not live -> HCCL_E_PTR; @channel not a
 * channel of @comm -> HCCL_E_PARA; the peer gone -> HCCL_E_REMOTE;
 * HCCL_E_MEMORY.
 */
HcclResult HcclChannelGetRemoteMems(HcclComm comm, ChannelHandle channel, uint32_t *memNum,
				    CommMem **remoteMems, char ***memTags);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_RES_H */
