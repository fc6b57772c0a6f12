/* SPDX-License-Identifier: MIT */
/*
 * acl/acl_rt.h - the part of the Ascend runtime (ACL) that libhcclthread
 * implements: devices, streams and memory. Source-compatible with CANN's acl_rt.h
 * for these calls; the error numbers are CANN's.
 *
 * Devices: device id N is the N-th hcclthread device node of the machine
 * (see hcclthread.h for discovery). The current device is per OS thread,
 * as in ACL: aclrtSetDevice() sets it for the calling thread only.
 *
 * Streams: aclrtCreateStream() creates a stream in the kernel on the calling
 * thread's current device. There is no default stream: a NULL aclrtStream is
 * ACL_ERROR_INVALID_PARAM everywhere (CANN treats NULL as its default stream
 * in some calls).
 */
#ifndef INC_EXTERNAL_ACL_ACL_RT_H_
#define INC_EXTERNAL_ACL_ACL_RT_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** aclError - result of every ACL call (ACL_SUCCESS = 0). */
typedef int aclError;

/** aclrtStream - a stream (opaque pointer). */
typedef void *aclrtStream;

#define ACL_SUCCESS				0
#define ACL_ERROR_NONE				0
#define ACL_ERROR_INVALID_PARAM			100000
#define ACL_ERROR_UNINITIALIZE			100001
#define ACL_ERROR_REPEAT_INITIALIZE		100002
#define ACL_ERROR_INVALID_FILE			100003
#define ACL_ERROR_REPEAT_FINALIZE		100037
#define ACL_ERROR_BAD_ALLOC			200000
#define ACL_ERROR_INVALID_RESOURCE_HANDLE	200005
#define ACL_ERROR_RT_PARAM_INVALID		107000
#define ACL_ERROR_RT_INVALID_DEVICEID		107001
#define ACL_ERROR_RT_CONTEXT_NULL		107002
#define ACL_ERROR_RT_INVALID_HANDLE		107017
#define ACL_ERROR_RT_WAIT_TIMEOUT		107019
#define ACL_ERROR_RT_STREAM_ABORT		107023
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT	207000
#define ACL_ERROR_RT_NO_DEVICE			207004
#define ACL_ERROR_RT_NO_PERMISSION		207006
#define ACL_ERROR_RT_NO_STREAM_RESOURCE		207008
#define ACL_ERROR_RT_NO_NOTIFY_RESOURCE		207009
#define ACL_ERROR_RT_OVER_LIMIT			207012
#define ACL_ERROR_RT_INTERNAL_ERROR		507000
#define ACL_ERROR_RT_STREAM_TASK_FULL		507002
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT	507046
#define ACL_ERROR_RT_DRV_INTERNAL_ERROR		507899

/** aclrtMemcpyKind - direction of a copy (CANN's values). */
typedef enum aclrtMemcpyKind {
	ACL_MEMCPY_HOST_TO_HOST = 0,
	ACL_MEMCPY_HOST_TO_DEVICE = 1,
	ACL_MEMCPY_DEVICE_TO_HOST = 2,
	ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
	ACL_MEMCPY_DEFAULT = 4,
	ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,
	ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,
	ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7
} aclrtMemcpyKind;

/** aclrtMemMallocPolicy - page policy of a device allocation (CANN's). */
typedef enum aclrtMemMallocPolicy {
	ACL_MEM_MALLOC_HUGE_FIRST = 0,
	ACL_MEM_MALLOC_HUGE_ONLY = 1,
	ACL_MEM_MALLOC_NORMAL_ONLY = 2,
	ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
	ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
	ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
	ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
	ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
	ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
	ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
	ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

/**
 * aclrtGetDeviceCount() - number of devices (hcclthread device nodes).
 * @count: out.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@count NULL);
 * ACL_ERROR_RT_NO_DEVICE (none: module not loaded).
 */
aclError aclrtGetDeviceCount(uint32_t *count);

/**
 * aclrtGetSocName() - the SoC of the devices.
 *
 * The driver's sim_soc module parameter: "Ascend910B1" (A2, the default),
 * "Ascend910_9391" (A3) or "Ascend950PR".
 *
 * Return: a static string, or NULL when the driver is not loaded.
 */
const char *aclrtGetSocName(void);

/**
 * aclrtGetStreamAvailableNum() - streams left on the current device.
 * @streamCount: out, free slots of the device's stream pool (all
 *	processes).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@streamCount NULL);
 * ACL_ERROR_RT_CONTEXT_NULL (no current device); ACL_ERROR_RT_NO_DEVICE.
 */
aclError aclrtGetStreamAvailableNum(uint32_t *streamCount);

/**
 * aclrtSetDevice() - make @deviceId the calling thread's current device.
 * @deviceId: device index, 0 .. number of hcclthread devices - 1.
 *
 * Opens the device (once per process) if needed.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_RT_NO_DEVICE when the machine has no
 * hcclthread device (module not loaded; set HCCLT_DEBUG=1 for a hint);
 * ACL_ERROR_RT_INVALID_DEVICEID when @deviceId is out of range;
 * ACL_ERROR_RT_NO_PERMISSION when the node cannot be opened for lack of
 * permission; ACL_ERROR_RT_DRV_INTERNAL_ERROR when the driver speaks
 * another uAPI major version.
 */
aclError aclrtSetDevice(int32_t deviceId);

/**
 * aclrtResetDevice() - release the calling thread's use of @deviceId.
 * @deviceId: device index.
 *
 * If @deviceId is the calling thread's current device, the thread has no
 * current device afterwards. Streams and communicators stay valid until
 * destroyed or until the process exits (the device file stays open; the
 * kernel frees everything when the process exits).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_RT_NO_DEVICE; ACL_ERROR_RT_INVALID_DEVICEID.
 */
aclError aclrtResetDevice(int32_t deviceId);

/**
 * aclrtGetDevice() - the calling thread's current device.
 * @deviceId: out, the device index.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM when @deviceId is NULL;
 * ACL_ERROR_RT_CONTEXT_NULL when the thread never called aclrtSetDevice()
 * (or reset its device), as in ACL.
 */
aclError aclrtGetDevice(int32_t *deviceId);

/**
 * aclrtCreateStream() - create a stream on the current device.
 * @stream: out, the new stream.
 *
 * Takes one slot of the device's stream pool.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@stream NULL);
 * ACL_ERROR_RT_CONTEXT_NULL (no current device, call aclrtSetDevice());
 * ACL_ERROR_RT_NO_STREAM_RESOURCE (device stream pool exhausted);
 * ACL_ERROR_BAD_ALLOC (out of memory); ACL_ERROR_RT_NO_DEVICE (device gone).
 */
aclError aclrtCreateStream(aclrtStream *stream);

/**
 * aclrtDestroyStream() - destroy a stream.
 * @stream: the stream.
 *
 * Tasks still queued are cancelled. Threads that wrap the stream
 * (HcclThreadAcquireWithStream()) keep it alive in the kernel until their
 * communicator is destroyed; @stream itself is freed in any case.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@stream NULL);
 * ACL_ERROR_RT_INVALID_HANDLE (not a live stream, or a stream of the parent
 * process after fork()).
 */
aclError aclrtDestroyStream(aclrtStream stream);

/**
 * aclrtSynchronizeStream() - wait until every task queued on @stream so
 * far has completed.
 * @stream: the stream.
 *
 * Same as aclrtSynchronizeStreamWithTimeout(@stream, -1).
 */
aclError aclrtSynchronizeStream(aclrtStream stream);

/**
 * aclrtSynchronizeStreamWithTimeout() - wait for @stream, bounded.
 * @stream: the stream.
 * @timeout: milliseconds; -1 waits forever; 0 only checks.
 *
 * Return: ACL_SUCCESS when everything queued completed;
 * ACL_ERROR_RT_STREAM_SYNC_TIMEOUT when @timeout passed first;
 * ACL_ERROR_RT_WAIT_TIMEOUT when a notify wait task of the stream timed out
 * since the last synchronize (reported once, the stream is usable again);
 * ACL_ERROR_RT_STREAM_ABORT when the stream's work was cancelled (its
 * communicator was destroyed); ACL_ERROR_RT_PARAM_INVALID (@timeout below
 * -1, checked first, as CANN); ACL_ERROR_INVALID_PARAM (@stream NULL);
 * ACL_ERROR_RT_INVALID_HANDLE (not a live stream);
 * ACL_ERROR_RT_NO_DEVICE (device unplugged).
 */
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

/* ---- device memory (lib/src/mem.c) ---- */

#define ACL_ERROR_RT_MEMORY_ALLOCATION		207001

/* aclrtMemcpyKind and aclrtMemMallocPolicy: above. */

/**
 * aclrtMalloc() - allocate device memory on the current device.
 * @devPtr: out, the device address.
 * @size: bytes, not zero.
 * @policy: any aclrtMemMallocPolicy value or combination; it does not change
 *	what is allocated (a simulated device has one kind of page).
 *
 * The memory is a memory object of the device mapped into this process, so
 * the device address is a pointer the process can dereference (aligned to
 * the page size; contents zeroed). It takes its page-rounded size from the
 * device's capacity (module parameter sim_memory_mb). The library's range
 * checks (aclrtMemcpy(), aclrtMemset()) use @size itself.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@devPtr NULL, @size zero or
 * too large to round up); ACL_ERROR_RT_CONTEXT_NULL (no current device);
 * ACL_ERROR_RT_MEMORY_ALLOCATION (device memory exhausted, or the pages
 * cannot be charged to the process's memory cgroup); ACL_ERROR_BAD_ALLOC
 * (out of host memory); ACL_ERROR_RT_FEATURE_NOT_SUPPORT (a driver without
 * device memory); ACL_ERROR_RT_NO_DEVICE (device gone).
 */
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);

/**
 * aclrtFree() - free memory of aclrtMalloc().
 * @devPtr: the address aclrtMalloc() returned.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@devPtr NULL, or not an
 * address aclrtMalloc() returned in this process and not yet freed; after
 * fork() the parent's allocations are not the child's).
 */
aclError aclrtFree(void *devPtr);

/**
 * aclrtMallocHost() - allocate host memory (64-byte aligned).
 * @hostPtr: out, the address.
 * @size: bytes, not zero.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@hostPtr NULL or @size
 * zero); ACL_ERROR_RT_MEMORY_ALLOCATION (out of memory).
 */
aclError aclrtMallocHost(void **hostPtr, size_t size);

/**
 * aclrtFreeHost() - free memory of aclrtMallocHost().
 * @hostPtr: the address aclrtMallocHost() returned.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@hostPtr NULL or not such
 * an address).
 */
aclError aclrtFreeHost(void *hostPtr);

/**
 * aclrtMemcpy() - copy @count bytes from @src to @dst, synchronously.
 * @dst: destination.
 * @destMax: bytes the destination may take; @count must not exceed it.
 * @src: source.
 * @count: bytes to copy (zero copies nothing).
 * @kind: ACL_MEMCPY_HOST_TO_HOST .. ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE.
 *
 * A device-side argument of @kind (the destination of HOST_TO_DEVICE and
 * HOST_TO_BUF_TO_DEVICE, the source of DEVICE_TO_HOST, both of
 * DEVICE_TO_DEVICE) must lie, all @count bytes of it, inside one live
 * aclrtMalloc() allocation of this process. Any argument that starts inside
 * an aclrtMalloc() or aclrtMallocHost() allocation must end inside it too.
 * Overlapping ranges are copied as by memmove().
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@dst or @src NULL, @kind
 * not one of the six, @count above @destMax, a range that breaks the rules
 * above).
 */
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
		     aclrtMemcpyKind kind);

/**
 * aclrtMemset() - set @count bytes of device memory to @value.
 * @devPtr: device address; all @count bytes inside one aclrtMalloc()
 *	allocation of this process.
 * @maxCount: bytes @devPtr may take; @count must not exceed it.
 * @value: the byte value (its low 8 bits).
 * @count: bytes to set.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@devPtr NULL, @count above
 * @maxCount, a range not inside one allocation, host memory).
 */
aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

/**
 * aclrtMemcpyAsync() - copy @count bytes from @src to @dst on @stream.
 * @dst: destination.
 * @destMax: bytes the destination may take; @count must not exceed it.
 * @src: source.
 * @count: bytes to copy (zero queues nothing).
 * @kind: as aclrtMemcpy().
 * @stream: the stream.
 *
 * When both ranges are device memory of @stream's device (aclrtMalloc(),
 * HCCL buffers), the copy is a task on @stream, run by the device in
 * stream order and checked by the kernel. A range in host memory cannot
 * be reached by the simulated device: then the call waits for @stream's
 * queued work (as aclrtSynchronizeStream()) and copies at once, which
 * keeps the stream order.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (as aclrtMemcpy(), @stream
 * NULL); ACL_ERROR_RT_INVALID_HANDLE (@stream not live); a stream error
 * the wait found; ACL_ERROR_RT_STREAM_TASK_FULL.
 */
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
			  aclrtMemcpyKind kind, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_RT_H_ */
