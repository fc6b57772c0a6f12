/* SPDX-License-Identifier: MIT */
/*
 * hcclthread.h - libhcclthread's own extensions: what HCCL and ACL lack.
 *
 * Devices
 *   Device id N is the N-th hcclthread device node: first the accel nodes
 *   (/sys/class/accel, /dev/accel/accelN), then the DRM render nodes
 *   (libdrm's drmGetDevices2() and /dev/dri/renderD*), each group in minor
 *   order, keeping only the nodes whose DRM_IOCTL_VERSION name is
 *   "hcclthread". HCCLT_DEVICE=/dev/x[:/dev/y...] replaces the search: the
 *   listed nodes are devices 0, 1, ... (empty entries skipped). At most
 *   HCCLT_MAX_DEVICES devices.
 *   With HCCLT_DEBUG set, failures print a one-line hint on stderr.
 *   Discovery runs once per process, at the first call that needs a
 *   device: a module loaded later is seen by processes started later.
 *
 *   Each device is opened once per process (O_CLOEXEC), on first use, and
 *   stays open until the process exits (the library is linked -z nodelete:
 *   dlclose() does not unload it); the kernel frees everything the process
 *   held when it exits or dies. A node that cannot be opened because no
 *   driver is behind it (ENXIO) counts as no device, not as a bad index.
 *
 * Threads and fork()
 *   A ThreadHandle holds the kernel's thread id in bits 55:0, the device
 *   index in bits 59:56 and the process's fork generation (mod 16) in bits
 *   63:60. In the child of fork(), the library closes the device files it
 *   inherited (the parent keeps its objects) and bumps the generation: every
 *   communicator, stream and ThreadHandle of the parent is refused in the
 *   child (HCCL_E_PTR, or ACL_ERROR_RT_INVALID_HANDLE for streams;
 *   HcclThreadExportToCommEngine() says HCCL_E_PARA for unknown handles)
 *   and never reaches the parent's kernel objects. The generation is kept
 *   mod 16: a ThreadHandle from 16 nested fork()s back passes the check and
 *   may name one of the process's own threads (never another process's).
 *   The child opens its own device files on first use and creates its own
 *   objects; the forking thread keeps its current device (aclrtSetDevice()).
 *   Only fork() through the C library is detected (pthread_atfork); a raw
 *   clone() that shares nothing is not.
 *
 * Destroyed communicators and streams
 *   An HcclComm or aclrtStream used after its destroy is refused
 *   (HCCL_E_PTR, ACL_ERROR_RT_INVALID_HANDLE): the library never frees the
 *   struct behind a handle, it keeps it dead and reuses it for a later
 *   create, oldest first. Once reused for the same kind, the old handle
 *   names the new object, as a reused pointer does in CANN.
 *
 * Thread safety
 *   Every call may be made from any thread. Record and wait allocate nothing
 *   and take one short mutex after their ioctl (what the kernel said of the
 *   stream's idleness). No lock is held across an ioctl, except the first
 *   open of a device: its open(), DRM_IOCTL_VERSION and QUERY run under the
 *   library's device lock, which fork() also takes.
 */
#ifndef HCCLTHREAD_H_
#define HCCLTHREAD_H_

#include <stdint.h>
#include "hccl/hccl_types.h"
#include "hccl/hcomm_primitives.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HCCLTHREAD_VERSION_MAJOR	1
#define HCCLTHREAD_VERSION_MINOR	0

/** HCCLT_MAX_DEVICES - most devices one process can use. */
#define HCCLT_MAX_DEVICES	16

/** hccltDeviceUsage - a device, its limits and its pools (all files). */
typedef struct {
	char node[64];			/* device node path */
	uint32_t uapiMajor;		/* driver's uAPI version */
	uint32_t uapiMinor;
	uint32_t maxThreadsPerComm;	/* the quota's threads (40 under the seed rules) */
	uint32_t maxNotifiesPerComm;	/* the quota's notifies (64 under the seed rules) */
	uint32_t streamsTotal;		/* device stream pool size */
	uint32_t streamsUsed;		/* streams in use, all processes */
	uint32_t notifiesTotal;		/* device notify pool size */
	uint32_t notifiesUsed;		/* notifies in use, all processes */
	uint32_t comms;			/* communicators alive, all processes (CAP_SYS_ADMIN),
					 * else those of this process's file of the device */
	uint32_t files;			/* open files of the device (CAP_SYS_ADMIN), else 1 */
	uint32_t engines;		/* bit N: threads acquirable on engine N */
	uint32_t streamEngines;		/* bit N: streams wrappable on engine N */
	uint64_t features;		/* HCCLT_FEATURE_* bits of the driver */
} hccltDeviceUsage;

/** hccltCommUsage - a communicator's quota use. */
typedef struct {
	int32_t deviceId;		/* device of the communicator */
	uint32_t threadsUsed;		/* threads counted against the quota */
	uint32_t threadsMax;		/* the quota (40 under the seed rules) */
	uint32_t notifiesUsed;		/* notifies counted against the quota */
	uint32_t notifiesMax;		/* the quota (64 under the seed rules) */
	uint32_t threadCount;		/* threads, wrapping ones included */
	uint32_t exportedCount;		/* exported handles */
} hccltCommUsage;

/** hccltThreadState - what a thread's stream is doing. */
typedef enum {
	HCCLT_THREAD_IDLE = 0,		/* nothing pending */
	HCCLT_THREAD_RUNNING = 1,	/* tasks pending, runnable */
	HCCLT_THREAD_PARKED = 2,	/* parked on a notify wait */
	HCCLT_THREAD_ERROR = 3		/* a task failed, next sync reports */
} hccltThreadState;

/** hccltThreadInfo - one thread handle as the kernel sees it now. */
typedef struct {
	int32_t deviceId;		/* device of the thread */
	CommEngine engine;		/* engine of this handle */
	uint32_t notifyNum;		/* notifies of the thread */
	uint32_t queueDepth;		/* tasks pending on its stream */
	hccltThreadState state;		/* state of its stream */
	uint32_t waitNotify;		/* notify waited for when PARKED */
	uint32_t wrapped;		/* 1: wraps an aclrtCreateStream stream */
	uint32_t exported;		/* 1: an exported handle (a view) */
} hccltThreadInfo;

/**
 * hccltGetDeviceCount() - number of hcclthread devices.
 * @count: out, the number (0 when the module is not loaded).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@count NULL).
 */
aclError hccltGetDeviceCount(uint32_t *count);

/**
 * hccltGetDeviceUsage() - limits and pool use of a device.
 * @deviceId: device index.
 * @usage: out.
 *
 * One DRM_IOCTL_HCCLT_QUERY; opens the device if needed.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@usage NULL);
 * ACL_ERROR_RT_NO_DEVICE; ACL_ERROR_RT_INVALID_DEVICEID; as aclrtSetDevice().
 */
aclError hccltGetDeviceUsage(int32_t deviceId, hccltDeviceUsage *usage);

/**
 * hccltCommGetUsage() - quota use of a communicator.
 * @comm: the communicator.
 * @usage: out.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm or @usage NULL, @comm not live);
 * HCCL_E_MEMORY; HCCL_E_DRV; with a driver before uAPI 1.3 (no
 * DRM_IOCTL_HCCLT_INFO_ARRAY), HCCL_E_INTERNAL when the process holds more
 * than 65,536 communicators (and @comm is not among the first), or more
 * than 65,536 threads and views, on the device: one INFO call lists no
 * more.
 */
HcclResult hccltCommGetUsage(HcclComm comm, hccltCommUsage *usage);

/**
 * hccltCommListCommMemory() - the ranges HcclCommActivateCommMemory()
 * activated on a communicator, by address.
 * @comm: the communicator.
 * @ptrs: out, the first @max starts (may be NULL when @max is 0).
 * @sizes: out, their sizes (may be NULL when @max is 0).
 * @max: entries @ptrs and @sizes have room for.
 * @count: out, how many ranges are active (may exceed @max).
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm or @count NULL, @comm not live,
 * @ptrs or @sizes NULL with @max above 0).
 */
HcclResult hccltCommListCommMemory(HcclComm comm, void **ptrs, size_t *sizes, uint32_t max,
				   uint32_t *count);

/**
 * hccltThreadGetInfo() - engine, notifies and stream state of a handle.
 * @thread: the handle.
 * @info: out.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@thread 0 or unknown, @info NULL);
 * HCCL_E_MEMORY; HCCL_E_DRV; with a driver before uAPI 1.3,
 * HCCL_E_INTERNAL when the process holds more than 65,536 threads and
 * views on the device and @thread is not among the first (one INFO call
 * lists no more).
 */
HcclResult hccltThreadGetInfo(ThreadHandle thread, hccltThreadInfo *info);

/**
 * hccltStreamGetCompletionFd() - a pollable fd for the stream's work.
 * @stream: the stream.
 * @fd: out, a sync_file file descriptor (O_CLOEXEC).
 *
 * The fd becomes readable (POLLIN) when every task queued on @stream before
 * the call has completed, so an event loop can wait for a stream with
 * poll()/epoll. The caller closes it. Errors of the stream's tasks are not
 * consumed: aclrtSynchronizeStream() still reports them.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@stream or @fd NULL);
 * ACL_ERROR_RT_INVALID_HANDLE; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (driver
 * without HCCLT_FEATURE_FENCE_OUT); ACL_ERROR_RT_OVER_LIMIT (no free fd);
 * ACL_ERROR_RT_STREAM_TASK_FULL (4096 completion fds of the stream already
 * waiting); ACL_ERROR_BAD_ALLOC; ACL_ERROR_RT_NO_DEVICE.
 */
aclError hccltStreamGetCompletionFd(aclrtStream stream, int *fd);

/**
 * hccltThreadGetCompletionFd() - a pollable fd for a thread's stream.
 * @thread: the thread.
 * @fd: out, a sync_file file descriptor (O_CLOEXEC).
 *
 * As hccltStreamGetCompletionFd(), for the stream of @thread.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@thread 0 or unknown, @fd NULL);
 * HCCL_E_NOT_SUPPORT (driver without fences); HCCL_E_UNAVAIL (no free fd);
 * HCCL_E_AGAIN (4096 completion fds of the stream already waiting);
 * HCCL_E_MEMORY; HCCL_E_DRV.
 */
HcclResult hccltThreadGetCompletionFd(ThreadHandle thread, int *fd);

/**
 * hccltThreadSynchronize() - wait for the stream of a thread.
 * @thread: the thread (any handle of it, exported ones included).
 * @timeout: milliseconds; -1 waits forever; 0 only checks.
 *
 * aclrtSynchronizeStreamWithTimeout() for threads whose stream the caller
 * has no aclrtStream for (HcclThreadAcquire() creates their streams). Like
 * aclrtSynchronizeStream(), it makes no system call when the last task
 * queued on the stream through this library left it idle (uAPI 1.1), and
 * nothing was queued or destroyed since.
 *
 * Return: as aclrtSynchronizeStreamWithTimeout(); ACL_ERROR_RT_INVALID_HANDLE
 * when @thread is 0 or not a live handle of this process.
 */
aclError hccltThreadSynchronize(ThreadHandle thread, int32_t timeout);

/**
 * hccltLocalReduceOnThread() - HcommLocalReduceOnThread() of every type and
 * op HCCL's collectives reduce.
 * @thread: the thread.
 * @dst: destination (and first operand): device memory of the thread's
 *	device, aligned to the element size.
 * @src: source: the same kinds; must not overlap @dst.
 * @count: elements; zero queues nothing.
 * @dataType: INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64,
 *	FP16, FP32, FP64 or BFP16 (HcommDataType 0 .. 11; not INT128, HIF8
 *	or the FP8 types).
 * @reduceOp: SUM, PROD, MAX or MIN.
 *
 * As HcommLocalReduceOnThread() (the same checks in the same order, the
 * same codes, batch mode too), which keeps CANN's narrower set (INT8,
 * INT16, INT32, FP16, FP32, BFP16; SUM, MAX, MIN). Integers
 * wrap around on SUM and PROD; MAX and MIN compare the INT types signed,
 * the UINT types unsigned. FP32 is computed in FP32, FP64 in FP64, FP16
 * and BFP16 in FP32 and rounded back to nearest even; a NaN operand of
 * MAX or MIN gives NaN (Documentation/uapi.rst, "reduce element types
 * and operations").
 *
 * Return: as HcommLocalReduceOnThread(): HCCL_SUCCESS; HCCL_E_PTR (@dst or
 * @src NULL, @thread 0 or not live); HCCL_E_PARA (another type or op, a
 * range not inside device memory, not aligned to the element size, or
 * overlapping); HCCL_E_NOT_SUPPORT (a floating point type on a host whose
 * kernel cannot reduce floats; a type or op beyond hcomm's set on a driver
 * without HCCLT_FEATURE_REDUCE_EXT, before uAPI 1.7); HCCL_E_AGAIN.
 */
int32_t hccltLocalReduceOnThread(ThreadHandle thread, void *dst, const void *src,
				 uint64_t count, HcommDataType dataType,
				 HcommReduceOp reduceOp);

/**
 * hccltWriteReduceOnThread() - HcommWriteReduceOnThread() of every type and
 * op hccltLocalReduceOnThread() takes.
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel.
 * @dst: an address in the peer's HCCL buffer.
 * @src: device memory of this rank.
 * @count: elements.
 * @dataType: as hccltLocalReduceOnThread().
 * @reduceOp: as hccltLocalReduceOnThread().
 *
 * Return: as hccltLocalReduceOnThread(); HCCL_E_REMOTE (the peer is gone).
 */
int32_t hccltWriteReduceOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
				 const void *src, uint64_t count, HcommDataType dataType,
				 HcommReduceOp reduceOp);

/**
 * hccltReadReduceOnThread() - HcommReadReduceOnThread() of every type and
 * op hccltLocalReduceOnThread() takes.
 * @thread: a thread of the channel's communicator and engine family.
 * @channel: the channel.
 * @dst: device memory of this rank.
 * @src: an address in the peer's HCCL buffer.
 * @count: elements.
 * @dataType: as hccltLocalReduceOnThread().
 * @reduceOp: as hccltLocalReduceOnThread().
 *
 * Return: as hccltWriteReduceOnThread().
 */
int32_t hccltReadReduceOnThread(ThreadHandle thread, ChannelHandle channel, void *dst,
				const void *src, uint64_t count, HcommDataType dataType,
				HcommReduceOp reduceOp);

/**
 * hccltAclErrorString() - text of an aclError.
 * @err: the error.
 *
 * Return: a static string, never NULL.
 */
const char *hccltAclErrorString(aclError err);

#ifdef __cplusplus
}
#endif

#endif /* HCCLTHREAD_H_ */
