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

/** aclrtEvent - an event (opaque pointer). */
typedef void *aclrtEvent;

/** aclrtNotify - an ACL notify (opaque pointer). */
typedef void *aclrtNotify;

/** aclrtContext - a context: a device of the calling thread (opaque pointer). */
typedef void *aclrtContext;

/** aclrtStreamStatus - aclrtStreamQuery()'s answer (CANN's values). */
typedef enum aclrtStreamStatus {
	ACL_STREAM_STATUS_COMPLETE = 0,
	ACL_STREAM_STATUS_NOT_READY = 1,
	ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

/**
 * aclrtDrvMemHandle - a physical memory handle (opaque pointer; CANN's
 * aclrtMallocPhysical() makes them, which libhcclthread does not have).
 * Only HcclCommActivateCommMemory() takes one here.
 */
typedef void *aclrtDrvMemHandle;

/* aclrtCreateEventWithFlag() flags (CANN's values). */
#define ACL_EVENT_SYNC				0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS	0x00000002U
#define ACL_EVENT_TIME_LINE			0x00000008U

/* aclrtCreateNotify() flags (CANN's values). */
#define ACL_NOTIFY_DEFAULT			0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY		0x00000001U

/* aclrtSetStreamFailureMode() modes (CANN's values). */
#define ACL_CONTINUE_ON_FAILURE			0x00000000U
#define ACL_STOP_ON_FAILURE			0x00000001U

/** aclrtEventRecordedStatus - aclrtQueryEventStatus()'s answer. */
typedef enum aclrtEventRecordedStatus {
	ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
	ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

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
#define ACL_ERROR_RT_STREAM_CONTEXT		107003
#define ACL_ERROR_RT_INVALID_MEMORY_TYPE	107016
#define ACL_ERROR_RT_INVALID_HANDLE		107017
#define ACL_ERROR_RT_WAIT_TIMEOUT		107019
#define ACL_ERROR_RT_STREAM_ABORT		107023
#define ACL_ERROR_RT_FEATURE_NOT_SUPPORT	207000
#define ACL_ERROR_RT_NO_DEVICE			207004
#define ACL_ERROR_RT_NO_PERMISSION		207006
#define ACL_ERROR_RT_NO_STREAM_RESOURCE		207008
#define ACL_ERROR_RT_NO_EVENT_RESOURCE		207007
#define ACL_ERROR_RT_NO_NOTIFY_RESOURCE		207009
#define ACL_ERROR_RT_OVER_LIMIT			207012
#define ACL_ERROR_RT_INTERNAL_ERROR		507000
#define ACL_ERROR_RT_STREAM_TASK_FULL		507002
#define ACL_ERROR_RT_STREAM_SYNC_TIMEOUT	507046
#define ACL_ERROR_RT_DRV_INTERNAL_ERROR		507899
#define ACL_ERROR_RT_AICPU_EXCEPTION		507018
#define ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID	107006
#define ACL_ERROR_RT_EVENT_NOT_COMPLETE		507006

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

/** aclrtMemAttr - a kind of memory, for aclrtGetMemInfo() (CANN's values). */
typedef enum aclrtMemAttr {
	ACL_DDR_MEM,
	ACL_HBM_MEM,
	ACL_DDR_MEM_HUGE,
	ACL_DDR_MEM_NORMAL,
	ACL_HBM_MEM_HUGE,
	ACL_HBM_MEM_NORMAL,
	ACL_DDR_MEM_P2P_HUGE,
	ACL_DDR_MEM_P2P_NORMAL,
	ACL_HBM_MEM_P2P_HUGE,
	ACL_HBM_MEM_P2P_NORMAL,
	ACL_HBM_MEM_HUGE1G,
	ACL_HBM_MEM_P2P_HUGE1G,
	ACL_MEM_NORMAL,
	ACL_MEM_HUGE,
	ACL_MEM_HUGE1G,
	ACL_MEM_P2P_NORMAL,
	ACL_MEM_P2P_HUGE,
	ACL_MEM_P2P_HUGE1G
} aclrtMemAttr;

/** aclrtFloatOverflowMode - float results on overflow (CANN's values). */
typedef enum aclrtFloatOverflowMode {
	ACL_RT_OVERFLOW_MODE_SATURATION = 0,
	ACL_RT_OVERFLOW_MODE_INFNAN,
	ACL_RT_OVERFLOW_MODE_UNDEF
} aclrtFloatOverflowMode;

/** aclrtMemLocationType - where physical memory is (CANN's values). */
typedef enum aclrtMemLocationType {
	ACL_MEM_LOCATION_TYPE_HOST = 0,
	ACL_MEM_LOCATION_TYPE_DEVICE,
	ACL_MEM_LOCATION_TYPE_UNREGISTERED,
	ACL_MEM_LOCATION_TYPE_MANAGED,
	ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4
} aclrtMemLocationType;

/** aclrtMemLocation - a device (@id: its index) or the host. */
typedef struct aclrtMemLocation {
	uint32_t id;
	aclrtMemLocationType type;
} aclrtMemLocation;

typedef enum aclrtMemAllocationType {
	ACL_MEM_ALLOCATION_TYPE_PINNED = 0
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
	ACL_MEM_HANDLE_TYPE_NONE = 0,
	ACL_MEM_HANDLE_TYPE_POSIX = 2
} aclrtMemHandleType;

/** aclrtPhysicalMemProp - what aclrtMallocPhysical() allocates (CANN's). */
typedef struct aclrtPhysicalMemProp {
	aclrtMemHandleType handleType;
	aclrtMemAllocationType allocationType;
	aclrtMemAttr memAttr;
	aclrtMemLocation location;
	uint64_t reserve;
} aclrtPhysicalMemProp;

typedef enum aclrtMemGranularityOptions {
	ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM,
	ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED,
	ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF
} aclrtMemGranularityOptions;

/** aclrtDrvMemHandle - physical memory of aclrtMallocPhysical() (opaque). */
typedef void *aclrtDrvMemHandle;

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
 * aclrtResetDeviceForce() - reset @deviceId whatever the number of
 * aclrtSetDevice() calls on it. aclrtSetDevice() is not counted here, so
 * this does what aclrtResetDevice() does, with its checks and codes.
 * @deviceId: device index.
 */
aclError aclrtResetDeviceForce(int32_t deviceId);

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
 * aclrtSetDeviceSatMode() - how the float results of the reduces of
 * streams made from now on overflow.
 * @mode: ACL_RT_OVERFLOW_MODE_INFNAN (IEEE 754: infinities and NaNs, the
 *	default) or ACL_RT_OVERFLOW_MODE_SATURATION (an infinite result
 *	becomes the largest finite value of its sign, a NaN result 0).
 *
 * As CANN: the process's mode, which devices opened later take, and the
 * calling thread's current device's, if it has one; streams made before
 * keep theirs. The mode is the kernel's, per device file
 * (HCCLT_PARAM_SATURATION), and applies to the FP16, FP32, BF16 and FP64
 * results of every reduce task of the streams made afterwards
 * (aclrtCreateStream(), HcclThreadAcquire()); integer results, copies and
 * reduces already queued are not affected.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_RT_PARAM_INVALID (@mode not one of the
 * two, checked first); ACL_ERROR_RT_FEATURE_NOT_SUPPORT (saturation on an
 * Ascend950 SoC, which has only ACL_RT_OVERFLOW_MODE_INFNAN, or on a
 * driver without it); a device error.
 */
aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode);

/**
 * aclrtGetDeviceSatMode() - the process's mode of aclrtSetDeviceSatMode().
 * @mode: out.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@mode NULL).
 */
aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode);

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
 * aclrtDestroyStreamForce() - destroy a stream without waiting for its
 * tasks: the tasks still queued are cancelled (what aclrtDestroyStream()
 * does here too). Checks and codes of aclrtDestroyStream().
 * @stream: the stream.
 */
aclError aclrtDestroyStreamForce(aclrtStream stream);

/**
 * aclrtStreamQuery() - has every task queued on @stream so far completed?
 * @stream: the stream.
 * @status: out, ACL_STREAM_STATUS_COMPLETE or ACL_STREAM_STATUS_NOT_READY.
 *
 * Does not wait. A failure of the stream not yet reported is reported
 * here, once, as aclrtSynchronizeStream() would (and then not by it).
 *
 * Return, checks in CANN's order: ACL_ERROR_INVALID_PARAM (@status NULL,
 * then @stream NULL: CANN's default stream, which this library does not
 * have); ACL_ERROR_RT_INVALID_HANDLE (not a live stream); the stream's
 * failure (ACL_ERROR_RT_WAIT_TIMEOUT, ACL_ERROR_RT_STREAM_ABORT, ...).
 */
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status);

/**
 * aclrtCreateContext() - a context on @deviceId, which becomes the calling
 * thread's current context (and @deviceId its current device).
 * @context: out.
 * @deviceId: device index.
 *
 * A context is a device binding of threads here: streams, events and
 * communicators made while it is current are the device's, and outlive
 * the context (CANN destroys a context's streams with it).
 *
 * Return: ACL_ERROR_INVALID_PARAM (@context NULL, checked first); the
 * codes of aclrtSetDevice() for @deviceId (ACL_ERROR_RT_INVALID_DEVICEID,
 * ACL_ERROR_RT_NO_DEVICE, ...); ACL_ERROR_BAD_ALLOC.
 */
aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId);

/**
 * aclrtDestroyContext() - destroy a context of aclrtCreateContext(). A
 * thread whose current context it is has no current context (nor device)
 * afterwards.
 * @context: the context.
 *
 * Return: ACL_ERROR_INVALID_PARAM (@context NULL); ACL_ERROR_RT_CONTEXT_NULL
 * (a device's default context, which cannot be destroyed, or not a live
 * context, as CANN's runtime answers both).
 */
aclError aclrtDestroyContext(aclrtContext context);

/**
 * aclrtSetCurrentContext() - make @context the calling thread's current
 * context and its device the thread's current device.
 * @context: a context of aclrtCreateContext() or a device's default
 *	context (aclrtGetCurrentContext() after aclrtSetDevice()).
 *
 * Return: ACL_ERROR_INVALID_PARAM (@context NULL); ACL_ERROR_RT_PARAM_INVALID
 * (not a live context: CANN's runtime's check).
 */
aclError aclrtSetCurrentContext(aclrtContext context);

/**
 * aclrtGetCurrentContext() - the calling thread's current context: the
 * last one set or created on it, else the default context of its current
 * device (aclrtSetDevice()).
 * @context: out.
 *
 * Return: ACL_ERROR_INVALID_PARAM (@context NULL); ACL_ERROR_RT_CONTEXT_NULL
 * (no context and no current device).
 */
aclError aclrtGetCurrentContext(aclrtContext *context);

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

/**
 * aclrtSetStreamFailureMode() - what @stream does after a task fails.
 * @stream: a stream of the calling thread's current device.
 * @mode: ACL_CONTINUE_ON_FAILURE (the task fails, the next one runs) or
 *	ACL_STOP_ON_FAILURE (the tasks behind the failed one are dropped and
 *	the stream takes no new task: ACL_ERROR_RT_STREAM_ABORT); only bit
 *	0 is looked at, as CANN does.
 *
 * A failure is reported once by the next synchronize in either mode. A
 * stream whose mode was never set drops the tasks queued behind a failed
 * one and takes new ones (the driver's HCCLT_FAILURE_DROP), which is
 * neither of CANN's modes (CANN's default is continue). On an Ascend910
 * SoC (A2, A3) stopping one stream stops every stream of the device in
 * this process, those made later and the HCCL threads' too, as CANN
 * documents for those devices. A stream never leaves stop mode.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (@stream NULL:
 * CANN's default stream; continue asked of a stream in stop mode; a
 * driver without failure modes); ACL_ERROR_RT_CONTEXT_NULL (no current
 * device); ACL_ERROR_RT_INVALID_HANDLE (not a live stream);
 * ACL_ERROR_RT_STREAM_CONTEXT (a stream of another device).
 */
aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);

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

/**
 * aclrtGetMemInfo() - free and total device memory of the current device.
 * @attr: the kind of memory: every HBM kind (ACL_HBM_MEM*, ACL_MEM_*)
 *	reports the device's memory (module parameter sim_memory_mb), the
 *	DDR kinds 0 and 0 (an Ascend910's device memory is all HBM).
 * @free: out, bytes not held by any memory object, of all processes.
 * @total: out, the device's capacity in bytes.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@free or @total NULL,
 * checked first); ACL_ERROR_RT_INVALID_MEMORY_TYPE (@attr not an
 * aclrtMemAttr); ACL_ERROR_RT_CONTEXT_NULL (no current device); a device
 * error.
 */
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total);

/* ---- virtual memory (lib/src/vmm.c) ---- */

/**
 * aclrtMemGetAllocationGranularity() - the granularity of physical memory.
 * @prop: as for aclrtMallocPhysical().
 * @option: ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM or _RECOMMENDED.
 * @granularity: out: 2 MiB for ACL_HBM_MEM_HUGE and ACL_HBM_MEM_NORMAL
 *	(allocated as huge pages, as CANN does), 1 GiB for
 *	ACL_HBM_MEM_HUGE1G; both options give the same.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@prop or @granularity
 * NULL, a @prop->memAttr other than the three); ACL_ERROR_RT_INVALID_DEVICEID
 * (@prop->location a device that does not exist);
 * ACL_ERROR_RT_FEATURE_NOT_SUPPORT (host memory; ACL_HBM_MEM_HUGE1G on an
 * Ascend950); ACL_ERROR_RT_PARAM_INVALID (another @option).
 */
aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
					  aclrtMemGranularityOptions option,
					  size_t *granularity);

/**
 * aclrtReserveMemAddress() - reserve a range of addresses for
 * aclrtMapMem().
 * @virPtr: out, its start.
 * @size: bytes, not zero.
 * @alignment: 0 (the 2 MiB granularity; CANN's only value) or a power of
 *	two of at least the page size, the start's alignment.
 * @expectPtr: NULL, or the start wanted: 1 GiB aligned and not in use.
 * @flags: 0 (normal pages) or 1 (huge pages); the same either way here.
 *
 * The range is an inaccessible (PROT_NONE) anonymous mapping of this
 * process: an access faults until memory is mapped there. A fork() child
 * has none of the parent's reservations, mappings or physical memory.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@virPtr NULL, @size zero,
 * @flags neither 0 nor 1, in this order); ACL_ERROR_RT_PARAM_INVALID
 * (@alignment or @expectPtr not as above); ACL_ERROR_RT_MEMORY_ALLOCATION
 * (@expectPtr's range is in use, or no address space is left).
 */
aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment,
				void *expectPtr, uint64_t flags);

/**
 * aclrtReleaseMemAddress() - give a reservation back.
 * @virPtr: its start.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@virPtr NULL);
 * ACL_ERROR_RT_PARAM_INVALID (not the start of a reservation of this
 * process, or memory is still mapped in it: unmap it first, as CANN asks).
 */
aclError aclrtReleaseMemAddress(void *virPtr);

/**
 * aclrtMallocPhysical() - allocate device memory to map with aclrtMapMem().
 * @handle: out, the memory.
 * @size: bytes, not zero; rounded up to the granularity
 *	(aclrtMemGetAllocationGranularity()).
 * @prop: handleType ACL_MEM_HANDLE_TYPE_NONE, allocationType
 *	ACL_MEM_ALLOCATION_TYPE_PINNED, memAttr ACL_HBM_MEM_HUGE,
 *	ACL_HBM_MEM_NORMAL or ACL_HBM_MEM_HUGE1G, location the device
 *	(ACL_MEM_LOCATION_TYPE_DEVICE and its index).
 * @flags: 0.
 *
 * A memory object of the device (as aclrtMalloc()'s), not mapped
 * anywhere yet; it takes its rounded size from the device's capacity.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@handle or @prop NULL,
 * @size zero, @flags non-zero, another handle type, allocation type or
 * memAttr, an unregistered location, in CANN's order);
 * ACL_ERROR_RT_INVALID_DEVICEID; ACL_ERROR_RT_FEATURE_NOT_SUPPORT (host
 * memory; ACL_HBM_MEM_HUGE1G on an Ascend950; a driver without device
 * memory); ACL_ERROR_RT_MEMORY_ALLOCATION (device memory exhausted, or
 * the size does not round); ACL_ERROR_BAD_ALLOC; a device error.
 */
aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
			     const aclrtPhysicalMemProp *prop, uint64_t flags);

/**
 * aclrtFreePhysical() - free memory of aclrtMallocPhysical().
 * @handle: the memory.
 *
 * The handle is dead at once. Memory still mapped (aclrtMapMem()) stays
 * mapped and usable, and is given back to the device when its last
 * mapping is unmapped (aclrtUnmapMem(), or the process exits), as CANN
 * documents.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@handle NULL);
 * ACL_ERROR_RT_INVALID_HANDLE (not live memory of this process).
 */
aclError aclrtFreePhysical(aclrtDrvMemHandle handle);

/**
 * aclrtMapMem() - map physical memory at reserved addresses.
 * @virPtr: where: inside a reservation, aligned to the granularity; the
 *	range must not overlap another mapping. One reservation maps
 *	memory of one device at a time.
 * @size: the physical memory's size (as aclrtMallocPhysical() rounded it).
 * @offset: 0.
 * @handle: the memory.
 * @flags: 0.
 *
 * The object is mapped there (MAP_FIXED over the reservation): the
 * addresses are then device memory of its device for every call that
 * takes device addresses (aclrtMemcpy(), aclrtMemcpyAsync(),
 * aclrtMemset(), HcommLocalCopyOnThread() and the other data tasks), and
 * a range may run across adjacent mappings of one reservation, at most
 * 64 of them (data tasks are then split at the mappings; more is
 * ACL_ERROR_INVALID_PARAM or HCCL_E_PARA). A memory may be mapped at
 * several places.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@virPtr or @handle NULL,
 * @size zero, @flags non-zero, in this order); ACL_ERROR_RT_INVALID_HANDLE
 * (not live memory of this process); ACL_ERROR_RT_PARAM_INVALID (@offset
 * non-zero, @size not the memory's, a range not as above);
 * ACL_ERROR_RT_MEMORY_ALLOCATION (the mapping failed: the process's
 * memory cgroup).
 */
aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle,
		     uint64_t flags);

/**
 * aclrtUnmapMem() - unmap what aclrtMapMem() mapped at @virPtr.
 * @virPtr: the start of the mapping.
 *
 * The addresses are inaccessible again (PROT_NONE), still reserved. Data
 * tasks already queued on them keep their memory until they completed.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@virPtr NULL);
 * ACL_ERROR_RT_PARAM_INVALID (not the start of a mapping).
 */
aclError aclrtUnmapMem(void *virPtr);

/* ---- AICPU kernels (CANN's types and values) ---- */

typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;

typedef enum aclrtBinaryLoadOptionType {
	ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1,
	ACL_RT_BINARY_LOAD_OPT_LAZY_MAGIC = 2,
	ACL_RT_BINARY_LOAD_OPT_MAGIC = 2,
	ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3,
} aclrtBinaryLoadOptionType;

typedef union aclrtBinaryLoadOptionValue {
	uint32_t isLazyLoad;
	uint32_t magic;
	int32_t cpuKernelMode;
	uint32_t rsv[4];
} aclrtBinaryLoadOptionValue;

typedef struct {
	aclrtBinaryLoadOptionType type;
	aclrtBinaryLoadOptionValue value;
} aclrtBinaryLoadOption;

typedef struct aclrtBinaryLoadOptions {
	aclrtBinaryLoadOption *options;
	size_t numOpt;
} aclrtBinaryLoadOptions;

typedef enum aclrtLaunchKernelAttrId {
	ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1,
	ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2,
	ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3,
	ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4,
	ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5,
	ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6,
	ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7,
	ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8,
	ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9,
} aclrtLaunchKernelAttrId;

typedef struct {
	uint32_t timeoutLow;
	uint32_t timeoutHigh;
} aclrtTimeoutUs;

typedef enum {
	ACL_RT_ENGINE_TYPE_AIC = 0,
	ACL_RT_ENGINE_TYPE_AIV,
} aclrtEngineType;

typedef union aclrtLaunchKernelAttrValue {
	uint8_t schemMode;
	uint32_t dynUBufSize;
	aclrtEngineType engineType;
	uint32_t blockDimOffset;
	uint8_t isBlockTaskPrefetch;
	uint8_t isDataDump;
	uint16_t timeout;		/* seconds */
	aclrtTimeoutUs timeoutUs;	/* microseconds */
	uint8_t enableProfiling;
	uint32_t rsv[4];
} aclrtLaunchKernelAttrValue;

typedef struct aclrtLaunchKernelAttr {
	aclrtLaunchKernelAttrId id;
	aclrtLaunchKernelAttrValue value;
} aclrtLaunchKernelAttr;

typedef struct aclrtLaunchKernelCfg {
	aclrtLaunchKernelAttr *attrs;
	size_t numAttrs;
} aclrtLaunchKernelCfg;

/**
 * aclrtBinaryLoadFromFile() - load the AICPU kernels a CANN kernel
 * descriptor names.
 * @binPath: the JSON descriptor: an object whose members (one per kernel)
 *	each have "opInfo": {"kernelSo": "<file>.so", "functionName": ...}.
 * @options: may be NULL; ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE and the
 *	lazy-load options are accepted (every load is immediate here).
 * @binHandle: out, the loaded binary.
 *
 * The shared objects are compiled for this host and loaded with dlopen():
 * each is looked up beside the JSON file, then in ../kernel/ relative to
 * it, then by its name on the loader's path (LD_LIBRARY_PATH, ...). With
 * HCCLT_DEBUG=1 every failure says what was tried.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@binPath or @binHandle
 * NULL, an unknown option); ACL_ERROR_INVALID_FILE (no such file, not a
 * descriptor, a kernel without kernelSo or functionName, a shared object
 * that cannot be loaded); ACL_ERROR_BAD_ALLOC.
 */
aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
				 aclrtBinHandle *binHandle);

/**
 * aclrtBinaryGetFunction() - a kernel of a loaded binary, by the name of
 * its descriptor entry or by its functionName.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (a NULL argument, not a
 * loaded binary, no entry of that name, or its shared object has no such
 * symbol).
 */
aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
				aclrtFuncHandle *funcHandle);

/**
 * aclrtBinaryUnLoad() - unload a binary; its functions and argument
 * handles become invalid. Kernels it launched that have not run yet must
 * have completed (synchronize their streams first).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (not a loaded binary).
 */
aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle);

/**
 * aclrtKernelArgsInit() - start the argument block of a launch of
 * @funcHandle. aclrtKernelArgsAppend() appends parameters by value,
 * aclrtKernelArgsAppendPlaceHolder() a pointer slot whose buffer
 * aclrtKernelArgsGetPlaceHolderBuffer() allocates, aclrtKernelArgsFinalize()
 * ends it. The kernel function gets a pointer to the block. A successful
 * aclrtLaunchKernelWithConfig() consumes the handle (copying the block):
 * a launch needs a new one.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (a NULL argument, a stale
 * handle, appending after Finalize, a block above 64 KiB);
 * ACL_ERROR_BAD_ALLOC.
 */
aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle);
aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
			       aclrtParamHandle *paramHandle);
aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
					  aclrtParamHandle *paramHandle);
aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
					     aclrtParamHandle paramHandle, size_t dataSize,
					     void **bufferAddr);
aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle);

/**
 * aclrtLaunchKernelWithConfig() - queue a run of @funcHandle on @stream.
 * @funcHandle: the kernel (aclrtBinaryGetFunction()).
 * @numBlocks: how many times the simulated AI CPU runs it, one after the
 *	other, with the same arguments (at least 1).
 * @stream: the stream.
 * @cfg: may be NULL; ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT (seconds) or
 *	_TIMEOUT_US (rounded up to seconds) bound the run; other attributes
 *	are accepted and have no effect here.
 * @argsHandle: the finalized argument block.
 * @reserve: NULL.
 *
 * The launch is a task on @stream, ordered like any other: when the stream
 * reaches it, the AI CPU worker of this process for @stream's device runs
 * the function (kernels of one device run one at a time), and the stream
 * goes on when it returns. A non-zero return makes the next
 * aclrtSynchronizeStream() fail with ACL_ERROR_RT_AICPU_EXCEPTION, a run
 * longer than the timeout with ACL_ERROR_RT_WAIT_TIMEOUT, the code of any
 * timed-out task (the tasks after it are dropped, as for a failed wait).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (a NULL handle, @numBlocks
 * 0, args not finalized or of another function, @reserve non-NULL, both
 * timeouts given); ACL_ERROR_RT_INVALID_HANDLE (@stream not live);
 * ACL_ERROR_RT_STREAM_TASK_FULL; ACL_ERROR_BAD_ALLOC.
 */
aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
				     aclrtStream stream, aclrtLaunchKernelCfg *cfg,
				     aclrtArgsHandle argsHandle, void *reserve);

/**
 * aclrtCreateEvent() - create an event on the current device (an
 * ACL_EVENT_SYNC event).
 * @event: set to the event.
 *
 * Events come from the device's pool of 65,536.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@event NULL);
 * ACL_ERROR_RT_CONTEXT_NULL (no aclrtSetDevice()); ACL_ERROR_RT_NO_EVENT_RESOURCE
 * (the pool is empty); ACL_ERROR_BAD_ALLOC.
 */
aclError aclrtCreateEvent(aclrtEvent *event);

/**
 * aclrtCreateEventWithFlag() - aclrtCreateEvent() with CANN's flags.
 * @event: set to the event.
 * @flag: ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ACL_EVENT_CAPTURE_STREAM_PROGRESS
 *	or a combination (every event here can be synchronized and timed).
 *
 * Return: as aclrtCreateEvent(); ACL_ERROR_INVALID_PARAM for other bits.
 */
aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag);

/**
 * aclrtDestroyEvent() - destroy an event; tasks already queued with it
 * still run.
 * @event: the event.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (NULL);
 * ACL_ERROR_RT_INVALID_HANDLE (not a live event of this process).
 */
aclError aclrtDestroyEvent(aclrtEvent event);

/**
 * aclrtRecordEvent() - queue a record of @event on @stream: when the stream
 * reaches it, the event completes that record and takes the time.
 * @event: the event.
 * @stream: a stream of the event's device.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (NULL, another device's
 * stream); ACL_ERROR_RT_INVALID_HANDLE; ACL_ERROR_RT_STREAM_TASK_FULL.
 */
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);

/**
 * aclrtStreamWaitEvent() - queue on @stream a wait for every record of
 * @event queued so far (none: it passes at once).
 * @stream: the stream.
 * @event: the event.
 *
 * Return: as aclrtRecordEvent().
 */
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);

/**
 * aclrtResetEvent() - queue on @stream a reset of @event: when the stream
 * reaches it, the event forgets its completed records, their time and
 * their failure (HCCLT_TASK_EVENT_RESET).
 * @event: the event.
 * @stream: a stream of the event's device (no default stream).
 *
 * Afterwards the event is as aclrtCreateEvent() made it:
 * aclrtEventElapsedTime() reports ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
 * until a later record, aclrtSynchronizeEvent() succeeds, and, with no
 * record queued, aclrtQueryEventStatus() says complete (as for an event
 * never recorded here; CANN says not ready for both). As CANN asks, make
 * sure the records to forget have run (the streams that record it
 * synchronized) before the reset runs.
 *
 * Return: as aclrtRecordEvent(); ACL_ERROR_RT_FEATURE_NOT_SUPPORT (a driver
 * without event resets).
 */
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream);

/**
 * aclrtSynchronizeEvent() - wait until every record of @event queued so far
 * has run.
 * @event: the event.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM; ACL_ERROR_RT_INVALID_HANDLE;
 * ACL_ERROR_RT_STREAM_ABORT when its latest record was dropped instead of
 * run (its stream failed or was destroyed).
 */
aclError aclrtSynchronizeEvent(aclrtEvent event);

/**
 * aclrtQueryEventStatus() - has every record of @event queued so far run?
 * @event: the event.
 * @status: set to ACL_EVENT_RECORDED_STATUS_COMPLETE or _NOT_READY.
 *
 * Return: as aclrtSynchronizeEvent().
 */
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);

/**
 * aclrtEventElapsedTime() - milliseconds between the latest completed
 * records of two events (device-side times).
 * @ms: set to the time, in ms.
 * @startEvent: the start.
 * @endEvent: the end.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (NULL);
 * ACL_ERROR_RT_INVALID_HANDLE; ACL_ERROR_RT_EVENT_NOT_COMPLETE (a record of
 * either is still queued); ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID (either was
 * never recorded); ACL_ERROR_RT_STREAM_ABORT (the latest record of either
 * was dropped).
 */
aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

/**
 * aclrtEventGetTimestamp() - when the latest completed record of @event ran,
 * in microseconds of CLOCK_MONOTONIC (CANN: microseconds since the device
 * started).
 * @event: the event.
 * @timestamp: out.
 *
 * Return, checks in CANN's order: ACL_ERROR_INVALID_PARAM (@timestamp
 * NULL, then @event NULL); ACL_ERROR_RT_INVALID_HANDLE (not a live
 * event); ACL_ERROR_RT_EVENT_NOT_COMPLETE (a record queued has not run);
 * ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID (never recorded, or reset since);
 * ACL_ERROR_RT_STREAM_ABORT (its latest record was dropped).
 */
aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp);

/**
 * aclrtCreateNotify() - create an ACL notify on the current device.
 * @notify: set to the notify.
 * @flag: ACL_NOTIFY_DEFAULT or ACL_NOTIFY_DEVICE_USE_ONLY.
 *
 * A binary flag from the device's notify pool (the one threads and
 * channels take theirs from).
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM; ACL_ERROR_RT_CONTEXT_NULL;
 * ACL_ERROR_RT_NO_NOTIFY_RESOURCE (the pool is empty); ACL_ERROR_BAD_ALLOC.
 */
aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag);

/**
 * aclrtDestroyNotify() - destroy an ACL notify: waits parked on it fail.
 * @notify: the notify.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM; ACL_ERROR_RT_INVALID_HANDLE.
 */
aclError aclrtDestroyNotify(aclrtNotify notify);

/**
 * aclrtRecordNotify() - queue on @stream a record of @notify.
 * @notify: the notify.
 * @stream: a stream of its device.
 *
 * Return: as aclrtRecordEvent().
 */
aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream);

/**
 * aclrtWaitAndResetNotify() - queue on @stream a wait on @notify, which
 * then resets it.
 * @notify: the notify.
 * @stream: a stream of its device.
 * @timeout: ms, rounded up to whole seconds; 0 waits as long as it takes.
 *	A wait that times out fails the stream (ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
 *	from its next synchronize).
 *
 * Return: as aclrtRecordEvent().
 */
aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream, uint32_t timeout);

/**
 * aclrtGetNotifyId() - the id of @notify, for HcommAclrtNotifyRecordOnThread()
 * and HcommAclrtNotifyWaitOnThread() of this process.
 * @notify: the notify.
 * @notifyId: set to its id.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM; ACL_ERROR_RT_INVALID_HANDLE.
 */
aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_RT_H_ */
