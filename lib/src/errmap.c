// SPDX-License-Identifier: MIT
/*
 * errno -> HcclResult / aclError, and the error strings.
 *
 * THE TABLE (also in lib/README.md): every errno that an ioctl documents in
 * uapi/drm/hcclthread_accel.h, per library call. An errno not listed gives
 * HCCL_E_INTERNAL (HCCL calls) or ACL_ERROR_RT_INTERNAL_ERROR (ACL calls).
 */
#include <errno.h>
#include <stddef.h>

#include "internal.h"

struct hcclt_errmap_row {
	enum hcclt_op op;
	int err;		/* negative errno */
	int32_t code;		/* HcclResult or aclError */
};

#define R(o, e, c) { HCCLT_OP_##o, -(e), (c) }

static const struct hcclt_errmap_row errmap[] = {
	/* opening a device file, HCCL calls (HcclCommInitAll) */
	R(DEVICE_HCCL, ENOMEM, HCCL_E_MEMORY),
	R(DEVICE_HCCL, ENODEV, HCCL_E_DRV),
	R(DEVICE_HCCL, ENXIO, HCCL_E_PARA),	/* device index out of range */
	R(DEVICE_HCCL, EACCES, HCCL_E_DRV),
	R(DEVICE_HCCL, EPERM, HCCL_E_DRV),
	R(DEVICE_HCCL, ENOENT, HCCL_E_DRV),
	R(DEVICE_HCCL, EPROTO, HCCL_E_DRV),	/* uAPI major mismatch */
	/* opening a device file, ACL calls (aclrtSetDevice, ...) */
	R(DEVICE_ACL, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	R(DEVICE_ACL, ENOENT, ACL_ERROR_RT_NO_DEVICE),
	R(DEVICE_ACL, ENXIO, ACL_ERROR_RT_INVALID_DEVICEID),
	R(DEVICE_ACL, EACCES, ACL_ERROR_RT_NO_PERMISSION),
	R(DEVICE_ACL, EPERM, ACL_ERROR_RT_NO_PERMISSION),
	R(DEVICE_ACL, EPROTO, ACL_ERROR_RT_DRV_INTERNAL_ERROR),
	R(DEVICE_ACL, ENOMEM, ACL_ERROR_BAD_ALLOC),
	/* DRM_IOCTL_HCCLT_COMM_CREATE (HcclCommInitAll) */
	R(COMM_CREATE, ENOSPC, HCCL_E_RUNTIME),	/* file's id table full */
	R(COMM_CREATE, EDQUOT, HCCL_E_UNAVAIL),	/* file/process/user share */
	R(COMM_CREATE, ENOMEM, HCCL_E_MEMORY),
	R(COMM_CREATE, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_COMM_DESTROY (HcclCommDestroy) */
	R(COMM_DESTROY, ENOENT, HCCL_E_PTR),
	R(COMM_DESTROY, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_THREAD_ACQUIRE (HcclThreadAcquire) */
	R(ACQUIRE, EINVAL, HCCL_E_PARA),
	R(ACQUIRE, ENOENT, HCCL_E_PTR),
	R(ACQUIRE, EDQUOT, HCCL_E_UNAVAIL),
	R(ACQUIRE, EOPNOTSUPP, HCCL_E_PARA),
	R(ACQUIRE, ENOSPC, HCCL_E_RUNTIME),
	R(ACQUIRE, ENOMEM, HCCL_E_MEMORY),
	R(ACQUIRE, EFAULT, HCCL_E_PTR),
	R(ACQUIRE, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM */
	R(ACQUIRE_STREAM, EINVAL, HCCL_E_PARA),
	R(ACQUIRE_STREAM, ENOENT, HCCL_E_PTR),
	R(ACQUIRE_STREAM, EDQUOT, HCCL_E_UNAVAIL),
	R(ACQUIRE_STREAM, ENOSPC, HCCL_E_RUNTIME),
	R(ACQUIRE_STREAM, ENOMEM, HCCL_E_MEMORY),
	R(ACQUIRE_STREAM, EFAULT, HCCL_E_PTR),
	R(ACQUIRE_STREAM, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_THREAD_EXPORT (HcclThreadExportToCommEngine) */
	R(EXPORT, EINVAL, HCCL_E_PARA),
	R(EXPORT, EOPNOTSUPP, HCCL_E_PARA),	/* AIV */
	R(EXPORT, ENOENT, HCCL_E_PARA),	/* unknown handle */
	R(EXPORT, EFAULT, HCCL_E_PTR),
	R(EXPORT, ENOSPC, HCCL_E_RUNTIME),	/* file's id table full */
	R(EXPORT, ENOMEM, HCCL_E_MEMORY),
	R(EXPORT, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_SUBMIT, one record task */
	R(RECORD, ENOENT, HCCL_E_PTR),
	R(RECORD, EINVAL, HCCL_E_PTR),	/* index; engine mismatch: E_PARA */
	R(RECORD, EBUSY, HCCL_E_AGAIN),
	R(RECORD, ECANCELED, HCCL_E_RUNTIME),	/* stream stopped (STOP mode) */
	R(RECORD, ENOMEM, HCCL_E_MEMORY),
	R(RECORD, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_SUBMIT, one wait task */
	R(WAIT, ENOENT, HCCL_E_PTR),
	R(WAIT, EINVAL, HCCL_E_PTR),	/* index out of range */
	R(WAIT, EBUSY, HCCL_E_AGAIN),
	R(WAIT, ECANCELED, HCCL_E_RUNTIME),
	R(WAIT, ENOMEM, HCCL_E_MEMORY),
	R(WAIT, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_INFO (hccltCommGetUsage, hccltThreadGetInfo) */
	R(INFO, ENOENT, HCCL_E_PTR),
	R(INFO, ENOMEM, HCCL_E_MEMORY),
	R(INFO, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_SUBMIT with FENCE_OUT on a thread */
	R(THREAD_FENCE, ENOENT, HCCL_E_PTR),
	R(THREAD_FENCE, EINVAL, HCCL_E_NOT_SUPPORT),
	R(THREAD_FENCE, EMFILE, HCCL_E_UNAVAIL),
	R(THREAD_FENCE, ENFILE, HCCL_E_UNAVAIL),
	R(THREAD_FENCE, EBUSY, HCCL_E_AGAIN),
	R(THREAD_FENCE, ECANCELED, HCCL_E_RUNTIME),
	R(THREAD_FENCE, ENOMEM, HCCL_E_MEMORY),
	R(THREAD_FENCE, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_STREAM_CREATE (aclrtCreateStream) */
	R(STREAM_CREATE, ENOSPC, ACL_ERROR_RT_NO_STREAM_RESOURCE),
	R(STREAM_CREATE, EDQUOT, ACL_ERROR_RT_NO_STREAM_RESOURCE),	/* share */
	R(STREAM_CREATE, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(STREAM_CREATE, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	/* DRM_IOCTL_HCCLT_STREAM_DESTROY (aclrtDestroyStream) */
	R(STREAM_DESTROY, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(STREAM_DESTROY, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	/* DRM_IOCTL_HCCLT_STREAM_SYNC (aclrtSynchronizeStream[WithTimeout]) */
	/* (with HCCLT_WAIT_DEADLINE: ETIME is the deadline, ETIMEDOUT a task) */
	R(STREAM_SYNC, ETIME, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT),
	R(STREAM_SYNC, ETIMEDOUT, ACL_ERROR_RT_WAIT_TIMEOUT),
	R(STREAM_SYNC, ECANCELED, ACL_ERROR_RT_STREAM_ABORT),
	R(STREAM_SYNC, ECONNRESET, ACL_ERROR_RT_STREAM_ABORT),	/* channel peer gone */
	R(STREAM_SYNC, EIO, ACL_ERROR_RT_AICPU_EXCEPTION),	/* a kernel returned non-zero */
	R(STREAM_SYNC, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(STREAM_SYNC, EINVAL, ACL_ERROR_INVALID_PARAM),
	R(STREAM_SYNC, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(STREAM_SYNC, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	/* DRM_IOCTL_HCCLT_SUBMIT with FENCE_OUT on a stream */
	R(STREAM_FENCE, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(STREAM_FENCE, EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
	R(STREAM_FENCE, EMFILE, ACL_ERROR_RT_OVER_LIMIT),
	R(STREAM_FENCE, ENFILE, ACL_ERROR_RT_OVER_LIMIT),
	R(STREAM_FENCE, EBUSY, ACL_ERROR_RT_STREAM_TASK_FULL),
	R(STREAM_FENCE, ECANCELED, ACL_ERROR_RT_STREAM_ABORT),	/* stopped */
	R(STREAM_FENCE, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(STREAM_FENCE, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	/* DRM_IOCTL_HCCLT_GROUP_CREATE (HcclGetRootInfo) */
	R(GROUP_CREATE, ENOSPC, HCCL_E_UNAVAIL),	/* 256 groups pending */
	R(GROUP_CREATE, EDQUOT, HCCL_E_UNAVAIL),	/* groups share */
	R(GROUP_CREATE, ENOMEM, HCCL_E_MEMORY),
	R(GROUP_CREATE, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_GROUP_JOIN (HcclCommInitRootInfo[Config]) */
	R(GROUP_JOIN, EINVAL, HCCL_E_PARA),
	R(GROUP_JOIN, ERANGE, HCCL_E_PARA),
	R(GROUP_JOIN, ENOENT, HCCL_E_PARA),	/* no group has the key */
	R(GROUP_JOIN, EISCONN, HCCL_E_PARA),	/* group already complete */
	R(GROUP_JOIN, EPROTO, HCCL_E_PARA),	/* nRanks differs */
	R(GROUP_JOIN, EADDRINUSE, HCCL_E_PARA),	/* rank already joined */
	R(GROUP_JOIN, EBUSY, HCCL_E_PARA),	/* another rank on the device */
	R(GROUP_JOIN, ETIME, HCCL_E_TIMEOUT),	/* HCCLT_WAIT_DEADLINE passed */
	R(GROUP_JOIN, ECONNRESET, HCCL_E_TCP_CONNECT),	/* a rank left or died */
	R(GROUP_JOIN, ENOSPC, HCCL_E_RUNTIME),	/* file's id table full */
	R(GROUP_JOIN, EDQUOT, HCCL_E_UNAVAIL),	/* communicators share */
	R(GROUP_JOIN, ENOMEM, HCCL_E_MEMORY),
	R(GROUP_JOIN, ENODEV, HCCL_E_DRV),
	/* Clusters: the root host's driver (Documentation/clusters.rst). */
	R(GROUP_JOIN, EOPNOTSUPP, HCCL_E_NOT_SUPPORT),	/* host in no cluster */
	R(GROUP_JOIN, EHOSTUNREACH, HCCL_E_ROCE_CONNECT),
	R(GROUP_JOIN, ECONNREFUSED, HCCL_E_ROCE_CONNECT),
	R(GROUP_JOIN, ENETUNREACH, HCCL_E_ROCE_CONNECT),
	R(GROUP_JOIN, ENETDOWN, HCCL_E_ROCE_CONNECT),	/* RDMA device gone */
	R(GROUP_JOIN, ETIMEDOUT, HCCL_E_TIMEOUT),
	R(GROUP_JOIN, EXDEV, HCCL_E_PARA),	/* key of another root's group */
	R(GROUP_JOIN, EMFILE, HCCL_E_UNAVAIL),	/* links capped (max_links) */
	R(GROUP_JOIN, EINTR, HCCL_E_SYSCALL),	/* a signal while connecting */
	/* DRM_IOCTL_HCCLT_MEM_CREATE and mmap() of the object (aclrtMalloc) */
	R(MEM_CREATE, ENOBUFS, ACL_ERROR_RT_MEMORY_ALLOCATION),	/* capacity */
	R(MEM_CREATE, EDQUOT, ACL_ERROR_RT_MEMORY_ALLOCATION),	/* share */
	R(MEM_CREATE, ENOMEM, ACL_ERROR_RT_MEMORY_ALLOCATION),	/* or memcg */
	R(MEM_CREATE, EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),	/* no memory */
	R(MEM_CREATE, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	/* DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE (HcclChannelAcquire) */
	R(CHANNEL_ACQUIRE, EINVAL, HCCL_E_PARA),
	R(CHANNEL_ACQUIRE, ERANGE, HCCL_E_PARA),
	R(CHANNEL_ACQUIRE, EXDEV, HCCL_E_PARA),	/* not the cluster protocol */
	R(CHANNEL_ACQUIRE, ENOENT, HCCL_E_PTR),	/* communicator gone */
	R(CHANNEL_ACQUIRE, EFAULT, HCCL_E_PTR),
	R(CHANNEL_ACQUIRE, EBUSY, HCCL_E_AGAIN),	/* acquired by another call */
	R(CHANNEL_ACQUIRE, ENOSPC, HCCL_E_RUNTIME),	/* device notify pool */
	R(CHANNEL_ACQUIRE, EDQUOT, HCCL_E_UNAVAIL),	/* offers or notifies share */
	R(CHANNEL_ACQUIRE, ECONNRESET, HCCL_E_REMOTE),	/* the peer is gone */
	R(CHANNEL_ACQUIRE, EPROTO, HCCL_E_INTERNAL),	/* notifyNum mismatch */
	R(CHANNEL_ACQUIRE, ETIME, HCCL_E_TIMEOUT),
	R(CHANNEL_ACQUIRE, EINTR, HCCL_E_SYSCALL),
	R(CHANNEL_ACQUIRE, ENOMEM, HCCL_E_MEMORY),
	R(CHANNEL_ACQUIRE, ENODEV, HCCL_E_DRV),
	/* a rank of another host whose host is out of reach (uAPI 1.15) */
	R(CHANNEL_ACQUIRE, EHOSTUNREACH, HCCL_E_ROCE_CONNECT),
	R(CHANNEL_ACQUIRE, ECONNREFUSED, HCCL_E_ROCE_CONNECT),
	R(CHANNEL_ACQUIRE, ENETUNREACH, HCCL_E_ROCE_CONNECT),
	R(CHANNEL_ACQUIRE, ENETDOWN, HCCL_E_ROCE_CONNECT),
	R(CHANNEL_ACQUIRE, ETIMEDOUT, HCCL_E_TIMEOUT),
	R(CHANNEL_ACQUIRE, EMFILE, HCCL_E_UNAVAIL),	/* links capped (max_links) */
	/* DRM_IOCTL_HCCLT_SUBMIT of a channel record or wait */
	R(CHANNEL_TASK, ENOENT, HCCL_E_PTR),
	R(CHANNEL_TASK, EINVAL, HCCL_E_INTERNAL),	/* index, engine family */
	R(CHANNEL_TASK, ECONNRESET, HCCL_E_REMOTE),	/* the peer is gone */
	R(CHANNEL_TASK, EBUSY, HCCL_E_AGAIN),
	R(CHANNEL_TASK, ECANCELED, HCCL_E_RUNTIME),
	R(CHANNEL_TASK, ENOMEM, HCCL_E_MEMORY),
	R(CHANNEL_TASK, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_COMM_BUFFER and mmap() of it (HcclGetHcclBuffer) */
	R(COMM_BUFFER, ENOBUFS, HCCL_E_OOM),	/* device capacity */
	R(COMM_BUFFER, EDQUOT, HCCL_E_OOM),	/* memory share */
	R(COMM_BUFFER, ENOMEM, HCCL_E_MEMORY),	/* or memcg at mmap() */
	R(COMM_BUFFER, ENOENT, HCCL_E_PTR),	/* communicator gone */
	R(COMM_BUFFER, EINVAL, HCCL_E_NOT_SUPPORT),	/* driver before 1.3 */
	R(COMM_BUFFER, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_CHANNEL_BUFFER and mmap() (HcclChannelGetHcclBuffer) */
	R(CHANNEL_BUFFER, ENOENT, HCCL_E_PARA),	/* not a channel of the comm */
	R(CHANNEL_BUFFER, ECONNRESET, HCCL_E_REMOTE),	/* the peer is gone */
	R(CHANNEL_BUFFER, ENOBUFS, HCCL_E_OOM),	/* the peer's device capacity */
	R(CHANNEL_BUFFER, EDQUOT, HCCL_E_OOM),	/* the peer's memory share */
	R(CHANNEL_BUFFER, ENOMEM, HCCL_E_MEMORY),
	R(CHANNEL_BUFFER, EMFILE, HCCL_E_SYSCALL),
	R(CHANNEL_BUFFER, EINVAL, HCCL_E_NOT_SUPPORT),	/* driver before 1.4 */
	R(CHANNEL_BUFFER, EOPNOTSUPP, HCCL_E_NOT_SUPPORT),	/* another host, before 1.16 */
	R(CHANNEL_BUFFER, ETIMEDOUT, HCCL_E_TIMEOUT),	/* the peer's host did not answer */
	R(CHANNEL_BUFFER, ENODEV, HCCL_E_DRV),
	/* SUBMIT of a data task (Hcomm{LocalCopy,Write,Read}OnThread) */
	R(DATA_TASK, ENOENT, HCCL_E_PTR),	/* thread, channel or object gone */
	R(DATA_TASK, EINVAL, HCCL_E_PARA),	/* engine family; driver before 1.4 */
	R(DATA_TASK, ERANGE, HCCL_E_PARA),	/* a range outside its object */
	R(DATA_TASK, EOPNOTSUPP, HCCL_E_NOT_SUPPORT),	/* a float reduce, not x86 */
	R(DATA_TASK, ECONNRESET, HCCL_E_REMOTE),	/* the peer is gone */
	R(DATA_TASK, ENOBUFS, HCCL_E_PARA),
	R(DATA_TASK, EBUSY, HCCL_E_AGAIN),
	R(DATA_TASK, ECANCELED, HCCL_E_RUNTIME),
	R(DATA_TASK, ENOMEM, HCCL_E_MEMORY),
	R(DATA_TASK, ENODEV, HCCL_E_DRV),
	/* SUBMIT of a local copy on a stream (aclrtMemcpyAsync) */
	R(MEMCPY_ASYNC, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(MEMCPY_ASYNC, EINVAL, ACL_ERROR_INVALID_PARAM),
	R(MEMCPY_ASYNC, ERANGE, ACL_ERROR_INVALID_PARAM),
	R(MEMCPY_ASYNC, EBUSY, ACL_ERROR_RT_STREAM_TASK_FULL),
	R(MEMCPY_ASYNC, ECANCELED, ACL_ERROR_RT_STREAM_ABORT),
	R(MEMCPY_ASYNC, ENOMEM, ACL_ERROR_RT_MEMORY_ALLOCATION),
	R(MEMCPY_ASYNC, ENODEV, ACL_ERROR_RT_INVALID_HANDLE),
	/* SUBMIT of a kernel launch (aclrtLaunchKernelWithConfig) */
	R(LAUNCH, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(LAUNCH, EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),	/* driver before 1.4 */
	R(LAUNCH, EBUSY, ACL_ERROR_RT_STREAM_TASK_FULL),
	R(LAUNCH, ECANCELED, ACL_ERROR_RT_STREAM_ABORT),
	R(LAUNCH, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(LAUNCH, ENODEV, ACL_ERROR_RT_INVALID_HANDLE),
	/* The SUBMITs of HcommBatchModeEnd() */
	R(BATCH, ENOENT, HCCL_E_PTR),
	R(BATCH, EINVAL, HCCL_E_PARA),
	R(BATCH, ERANGE, HCCL_E_PARA),
	R(BATCH, ECONNRESET, HCCL_E_REMOTE),
	R(BATCH, EBUSY, HCCL_E_AGAIN),
	R(BATCH, ECANCELED, HCCL_E_RUNTIME),
	R(BATCH, ENOMEM, HCCL_E_MEMORY),
	R(BATCH, ENODEV, HCCL_E_DRV),
	/* Events and ACL notifies (event.c) */
	R(EVENT_CREATE, ENOSPC, ACL_ERROR_RT_NO_EVENT_RESOURCE),
	R(EVENT_CREATE, EDQUOT, ACL_ERROR_RT_NO_EVENT_RESOURCE),	/* share */
	R(EVENT_CREATE, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(EVENT_CREATE, EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),	/* before 1.4 */
	R(EVENT_CREATE, ENOTTY, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
	R(EVENT, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(EVENT, EBUSY, ACL_ERROR_RT_STREAM_TASK_FULL),
	R(EVENT, ECANCELED, ACL_ERROR_RT_STREAM_ABORT),
	R(EVENT, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(EVENT, EINTR, ACL_ERROR_RT_INTERNAL_ERROR),
	R(EVENT, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	R(NOTIFY_CREATE, ENOSPC, ACL_ERROR_RT_NO_NOTIFY_RESOURCE),
	R(NOTIFY_CREATE, EDQUOT, ACL_ERROR_RT_NO_NOTIFY_RESOURCE),	/* share */
	R(NOTIFY_CREATE, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(NOTIFY_CREATE, EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
	R(NOTIFY_CREATE, ENOTTY, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),
	R(ACL_NOTIFY_TASK, ENOENT, HCCL_E_PARA),	/* not a notify of this process */
	R(ACL_NOTIFY_TASK, EINVAL, HCCL_E_PARA),
	R(ACL_NOTIFY_TASK, EBUSY, HCCL_E_AGAIN),
	R(ACL_NOTIFY_TASK, ECANCELED, HCCL_E_RUNTIME),
	R(ACL_NOTIFY_TASK, ENOMEM, HCCL_E_MEMORY),
	R(ACL_NOTIFY_TASK, ENODEV, HCCL_E_DRV),
	/* SUBMIT of an event reset (aclrtResetEvent; uAPI 1.8) */
	R(EVENT_RESET, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(EVENT_RESET, EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),	/* before 1.8 */
	R(EVENT_RESET, EBUSY, ACL_ERROR_RT_STREAM_TASK_FULL),
	R(EVENT_RESET, ECANCELED, ACL_ERROR_RT_STREAM_ABORT),
	R(EVENT_RESET, ENOMEM, ACL_ERROR_BAD_ALLOC),
	R(EVENT_RESET, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	/* DRM_IOCTL_HCCLT_SET_PARAM (aclrtSetStreamFailureMode, aclrtSetDeviceSatMode) */
	R(SET_PARAM, ENOENT, ACL_ERROR_RT_INVALID_HANDLE),
	R(SET_PARAM, EBUSY, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),	/* stop mode is final */
	R(SET_PARAM, EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT),	/* driver before 1.8 */
	R(SET_PARAM, ENODEV, ACL_ERROR_RT_NO_DEVICE),
	/* DRM_IOCTL_HCCLT_OP_INFO (hccl/hccl_diag.h; diag.c handles ENOENT) */
	R(OP_INFO, EINVAL, HCCL_E_PARA),
	R(OP_INFO, ENOMEM, HCCL_E_MEMORY),
	R(OP_INFO, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_MEM_REG, _MEM_UNREG (HcclCommMemReg, ...DeregMem) */
	R(MEM_REG, EINVAL, HCCL_E_PARA),
	R(MEM_REG, ENOENT, HCCL_E_PTR),	/* the communicator gone */
	R(MEM_REG, ERANGE, HCCL_E_PARA),
	R(MEM_REG, EEXIST, HCCL_E_PARA),	/* the tag is registered */
	R(MEM_REG, ENOSPC, HCCL_E_UNAVAIL),	/* 256 ranges */
	R(MEM_REG, ENOMEM, HCCL_E_MEMORY),
	R(MEM_REG, ENODEV, HCCL_E_DRV),
	/* DRM_IOCTL_HCCLT_CHANNEL_MEMS (HcclChannelGetRemoteMems) */
	R(CHANNEL_MEMS, ENOENT, HCCL_E_PARA),	/* not a channel of the comm */
	R(CHANNEL_MEMS, ECONNRESET, HCCL_E_REMOTE),	/* the peer is gone */
	R(CHANNEL_MEMS, EINVAL, HCCL_E_NOT_SUPPORT),	/* driver before 1.13 */
	R(CHANNEL_MEMS, EFAULT, HCCL_E_PTR),
	R(CHANNEL_MEMS, ENOMEM, HCCL_E_MEMORY),
	R(CHANNEL_MEMS, ENODEV, HCCL_E_DRV),
	R(CHANNEL_MEMS, ETIMEDOUT, HCCL_E_TIMEOUT),	/* another host's: no answer */
	R(CHANNEL_MEMS, EINTR, HCCL_E_SYSCALL),	/* killed while it waited */
	R(CHANNEL_MEMS, EIO, HCCL_E_REMOTE),	/* another host broke the protocol */
	R(CHANNEL_MEMS, EBUSY, HCCL_E_AGAIN),	/* no request id left */
};

#undef R

static int op_is_acl(enum hcclt_op op)
{
	return op == HCCLT_OP_DEVICE_ACL || op == HCCLT_OP_STREAM_CREATE ||
	       op == HCCLT_OP_STREAM_DESTROY || op == HCCLT_OP_STREAM_SYNC ||
	       op == HCCLT_OP_STREAM_FENCE || op == HCCLT_OP_MEM_CREATE ||
	       op == HCCLT_OP_MEMCPY_ASYNC || op == HCCLT_OP_LAUNCH ||
	       op == HCCLT_OP_EVENT_CREATE || op == HCCLT_OP_EVENT ||
	       op == HCCLT_OP_NOTIFY_CREATE || op == HCCLT_OP_EVENT_RESET ||
	       op == HCCLT_OP_SET_PARAM;
}

int32_t hcclt_map_errno(enum hcclt_op op, int err)
{
	size_t i;

	if (!err)
		return 0;
	for (i = 0; i < sizeof(errmap) / sizeof(errmap[0]); i++)
		if (errmap[i].op == op && errmap[i].err == err)
			return errmap[i].code;
	hcclt_debug("driver call %d failed with errno %d, which it does not document",
		    (int)op, err);
	return op_is_acl(op) ? ACL_ERROR_RT_INTERNAL_ERROR : HCCL_E_INTERNAL;
}

/*
 * hcomm's texts, word for word (its table stops at HCCL_E_REMOTE; for the
 * codes after it, where hcomm's lookup would throw, the words of
 * hccl_types.h's comments), and hcomm's "unknow error" outside the enum.
 */
HCCLT_EXPORT const char *HcclGetErrorString(HcclResult code)
{
	switch (code) {
	case HCCL_SUCCESS: return "no error";
	case HCCL_E_PARA: return "parameter error";
	case HCCL_E_PTR: return "empty pointer";
	case HCCL_E_MEMORY: return "memory error";
	case HCCL_E_INTERNAL: return "internal error";
	case HCCL_E_NOT_SUPPORT: return "not support feature";
	case HCCL_E_NOT_FOUND: return "not found specific resource";
	case HCCL_E_UNAVAIL: return "resource unavailable";
	case HCCL_E_SYSCALL: return "call system interface error";
	case HCCL_E_TIMEOUT: return "timeout";
	case HCCL_E_OPEN_FILE_FAILURE: return "open file fail";
	case HCCL_E_TCP_CONNECT: return "tcp connect fail";
	case HCCL_E_ROCE_CONNECT: return "roce connect fail";
	case HCCL_E_TCP_TRANSFER: return "tcp transfer fail";
	case HCCL_E_ROCE_TRANSFER: return "roce transfer fail";
	case HCCL_E_RUNTIME: return "call runtime api fail";
	case HCCL_E_DRV: return "call driver api fail";
	case HCCL_E_PROFILING: return "call profiling api fail";
	case HCCL_E_CCE: return "call cce api fail";
	case HCCL_E_NETWORK: return "call network api fail";
	case HCCL_E_AGAIN: return "try again";
	case HCCL_E_REMOTE: return "error cqe";
	case HCCL_E_SUSPENDING: return "error communicator suspending";
	case HCCL_E_OPRETRY_FAIL: return "retry constraint";
	case HCCL_E_OOM: return "out of memory";
	case HCCL_E_IN_STATUS: return "the error information is in the status";
	case HCCL_E_RESERVED: break;
	}
	return "unknow error";
}

HCCLT_EXPORT const char *hccltAclErrorString(aclError err)
{
	switch (err) {
	case ACL_SUCCESS: return "success";
	case ACL_ERROR_INVALID_PARAM: return "invalid parameter";
	case ACL_ERROR_BAD_ALLOC: return "out of memory";
	case ACL_ERROR_INVALID_RESOURCE_HANDLE: return "invalid resource handle";
	case ACL_ERROR_RT_PARAM_INVALID: return "runtime: invalid parameter";
	case ACL_ERROR_RT_INVALID_DEVICEID: return "invalid device id";
	case ACL_ERROR_RT_CONTEXT_NULL: return "no current device (call aclrtSetDevice)";
	case ACL_ERROR_RT_INVALID_HANDLE: return "invalid handle (not a live stream of this process)";
	case ACL_ERROR_RT_WAIT_TIMEOUT: return "a notify wait on the stream timed out";
	case ACL_ERROR_RT_STREAM_ABORT: return "stream work cancelled";
	case ACL_ERROR_RT_FEATURE_NOT_SUPPORT: return "feature not supported by the driver";
	case ACL_ERROR_RT_NO_DEVICE: return "no hcclthread device (module not loaded?)";
	case ACL_ERROR_RT_NO_PERMISSION: return "no permission to open the device";
	case ACL_ERROR_RT_NO_STREAM_RESOURCE: return "device stream pool exhausted";
	case ACL_ERROR_RT_NO_NOTIFY_RESOURCE: return "device notify pool exhausted";
	case ACL_ERROR_RT_OVER_LIMIT: return "over limit";
	case ACL_ERROR_RT_INTERNAL_ERROR: return "runtime internal error";
	case ACL_ERROR_RT_STREAM_TASK_FULL: return "stream task queue full";
	case ACL_ERROR_RT_STREAM_SYNC_TIMEOUT: return "stream synchronize timed out";
	case ACL_ERROR_RT_DRV_INTERNAL_ERROR: return "driver error (uAPI version mismatch)";
	case ACL_ERROR_RT_MEMORY_ALLOCATION: return "device memory exhausted (sim_memory_mb) or over the memory cgroup's limit";
	}
	return "unknown error";
}
