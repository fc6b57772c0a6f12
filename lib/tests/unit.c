// SPDX-License-Identifier: MIT
/*
 * Host unit tests of libhcclthread: every check that needs no kernel, the
 * check order, the error strings, the errno mapping table, handle encoding
 * and fork() detection. Run with HCCLT_DEVICE naming two nodes that do not
 * exist (make test does), so that nothing can reach a real device.
 *
 * Output: TAP. Exit 0 when all pass, 1 otherwise.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xf86drm.h>

#include "internal.h"
#include "hccl/hccl_res.h"
#include "hccl/hcomm_primitives.h"
#include "acl/acl_prof.h"
#include "hccl/hccl_diag.h"
#include "hccl/hccl_rank_graph.h"
#include "tap.h"

#define SENTINEL 0x5a5a5a5a5a5a5a5aULL

static struct hcclt_comm fake_comm(int dev)
{
	struct hcclt_comm c = {
		.magic = HCCLT_COMM_MAGIC, .gen = hcclt_gen(), .dev = dev,
		.id = ((uint64_t)HCCLT_ID_KIND_COMM << HCCLT_ID_KIND_SHIFT) | 1,
	};
	return c;
}

static struct hcclt_stream fake_stream(int dev)
{
	struct hcclt_stream s = {
		.magic = HCCLT_STREAM_MAGIC, .gen = hcclt_gen(), .dev = dev,
		.id = ((uint64_t)HCCLT_ID_KIND_STREAM << HCCLT_ID_KIND_SHIFT) | 1,
	};
	return s;
}

static ThreadHandle fake_thread(int dev, uint64_t n)
{
	return hcclt_handle_make(dev, ((uint64_t)HCCLT_ID_KIND_THREAD << HCCLT_ID_KIND_SHIFT) | n);
}

static int all_sentinel(const ThreadHandle *h, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (h[i] != SENTINEL)
			return 0;
	return 1;
}

static void fill(ThreadHandle *h, int n)
{
	int i;

	for (i = 0; i < n; i++)
		h[i] = SENTINEL;
}

static void test_strings(void)
{
	static const int vals[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
				    16, 17, 18, 19, 20, 21, 22, 23, 24, 1041, 1042 };
	static const int acl[] = { ACL_SUCCESS, ACL_ERROR_INVALID_PARAM, ACL_ERROR_BAD_ALLOC,
		ACL_ERROR_RT_INVALID_DEVICEID, ACL_ERROR_RT_CONTEXT_NULL,
		ACL_ERROR_RT_INVALID_HANDLE, ACL_ERROR_RT_WAIT_TIMEOUT,
		ACL_ERROR_RT_STREAM_ABORT, ACL_ERROR_RT_NO_DEVICE,
		ACL_ERROR_RT_NO_STREAM_RESOURCE, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
		ACL_ERROR_RT_INTERNAL_ERROR };
	size_t i, j;
	int ok = 1, distinct = 1;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		const char *s = HcclGetErrorString((HcclResult)vals[i]);

		if (!s || !*s || (!strcmp(s, "unknow error") && vals[i] != 1042))
			ok = 0;
		for (j = 0; j < i; j++)
			if (!strcmp(s, HcclGetErrorString((HcclResult)vals[j])))
				distinct = 0;
	}
	tap_ok(ok, "HcclGetErrorString has a text for the 26 HcclResult values below HCCL_E_RESERVED");
	tap_ok(distinct, "HcclGetErrorString texts are distinct");
	tap_ok(!strcmp(HcclGetErrorString(HCCL_SUCCESS), "no error") &&
	       !strcmp(HcclGetErrorString(HCCL_E_PARA), "parameter error") &&
	       !strcmp(HcclGetErrorString(HCCL_E_REMOTE), "error cqe"),
	       "HcclGetErrorString: hcomm's texts (no error, parameter error, error cqe)");
	tap_ok(!strcmp(HcclGetErrorString((HcclResult)25), "unknow error") &&
	       !strcmp(HcclGetErrorString((HcclResult)-1), "unknow error") &&
	       !strcmp(HcclGetErrorString((HcclResult)1043), "unknow error") &&
	       !strcmp(HcclGetErrorString(HCCL_E_RESERVED), "unknow error"),
	       "HcclGetErrorString of 25, -1, 1042, 1043 is hcomm's \"unknow error\"");
	ok = 1;
	for (i = 0; i < sizeof(acl) / sizeof(acl[0]); i++)
		if (!strcmp(hccltAclErrorString(acl[i]), "unknown error"))
			ok = 0;
	tap_ok(ok && !strcmp(hccltAclErrorString(12345), "unknown error"),
	       "hccltAclErrorString knows the ACL codes the library returns");
}

static void test_values(void)
{
	TAP_EQ(HCCL_E_UNAVAIL, 7, "HCCL_E_UNAVAIL is 7");
	TAP_EQ(HCCL_E_RUNTIME, 15, "HCCL_E_RUNTIME is 15");
	TAP_EQ(HCCL_E_IN_STATUS, 1041, "HCCL_E_IN_STATUS is 1041");
	TAP_EQ(COMM_ENGINE_RESERVED, -1, "COMM_ENGINE_RESERVED is -1");
	TAP_EQ(COMM_ENGINE_CCU, 5, "COMM_ENGINE_CCU is 5");
	TAP_EQ(COMM_ENGINE_CPU_TS, HCCLT_ENGINE_CPU_TS, "CommEngine numbers equal the uAPI's");
	TAP_EQ(COMM_ENGINE_AIV, HCCLT_ENGINE_AIV, "COMM_ENGINE_AIV equals HCCLT_ENGINE_AIV");
	TAP_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, 207008, "ACL_ERROR_RT_NO_STREAM_RESOURCE is 207008");
	TAP_EQ(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT is 507046");
	TAP_EQ(sizeof(ThreadHandle), 8, "ThreadHandle is 64-bit");
}

static void test_errmap(void)
{
	static const struct { enum hcclt_op op; int err; int32_t want; const char *what; } rows[] = {
		{ HCCLT_OP_ACQUIRE, 0, HCCL_SUCCESS, "acquire 0 -> HCCL_SUCCESS" },
		{ HCCLT_OP_ACQUIRE, -EDQUOT, HCCL_E_UNAVAIL, "acquire -EDQUOT (quota) -> HCCL_E_UNAVAIL" },
		{ HCCLT_OP_ACQUIRE, -ENOSPC, HCCL_E_RUNTIME, "acquire -ENOSPC (pool) -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_ACQUIRE, -EOPNOTSUPP, HCCL_E_PARA, "acquire -EOPNOTSUPP (AIV) -> HCCL_E_PARA" },
		{ HCCLT_OP_ACQUIRE, -EINVAL, HCCL_E_PARA, "acquire -EINVAL -> HCCL_E_PARA" },
		{ HCCLT_OP_ACQUIRE, -ENOENT, HCCL_E_PTR, "acquire -ENOENT (comm) -> HCCL_E_PTR" },
		{ HCCLT_OP_ACQUIRE, -ENOMEM, HCCL_E_MEMORY, "acquire -ENOMEM -> HCCL_E_MEMORY" },
		{ HCCLT_OP_ACQUIRE, -ENODEV, HCCL_E_DRV, "acquire -ENODEV (unplugged) -> HCCL_E_DRV" },
		{ HCCLT_OP_ACQUIRE, -EXDEV, HCCL_E_INTERNAL, "acquire undocumented errno -> HCCL_E_INTERNAL" },
		{ HCCLT_OP_ACQUIRE_STREAM, -EDQUOT, HCCL_E_UNAVAIL, "with-stream -EDQUOT -> HCCL_E_UNAVAIL" },
		{ HCCLT_OP_COMM_CREATE, -EDQUOT, HCCL_E_UNAVAIL, "comm create -EDQUOT (share) -> HCCL_E_UNAVAIL" },
		{ HCCLT_OP_GROUP_CREATE, -EDQUOT, HCCL_E_UNAVAIL, "group create -EDQUOT (share) -> HCCL_E_UNAVAIL" },
		{ HCCLT_OP_STREAM_CREATE, -EDQUOT, ACL_ERROR_RT_NO_STREAM_RESOURCE, "stream create -EDQUOT (share) -> NO_STREAM_RESOURCE" },
		{ HCCLT_OP_MEM_CREATE, -EDQUOT, ACL_ERROR_RT_MEMORY_ALLOCATION, "mem create -EDQUOT (share) -> MEMORY_ALLOCATION" },
		{ HCCLT_OP_COMM_BUFFER, -EDQUOT, HCCL_E_OOM, "comm buffer -EDQUOT (share) -> HCCL_E_OOM" },
		{ HCCLT_OP_ACQUIRE_STREAM, -ENOSPC, HCCL_E_RUNTIME, "with-stream -ENOSPC -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_ACQUIRE_STREAM, -EINVAL, HCCL_E_PARA, "with-stream -EINVAL (engine conflict) -> HCCL_E_PARA" },
		{ HCCLT_OP_ACQUIRE_STREAM, -ENOENT, HCCL_E_PTR, "with-stream -ENOENT (stream) -> HCCL_E_PTR" },
		{ HCCLT_OP_EXPORT, -ENOENT, HCCL_E_PARA, "export -ENOENT (unknown handle) -> HCCL_E_PARA" },
		{ HCCLT_OP_EXPORT, -EINVAL, HCCL_E_PARA, "export -EINVAL -> HCCL_E_PARA" },
		{ HCCLT_OP_EXPORT, -EOPNOTSUPP, HCCL_E_PARA, "export -EOPNOTSUPP (AIV) -> HCCL_E_PARA" },
		{ HCCLT_OP_RECORD, -ENOENT, HCCL_E_PTR, "record -ENOENT -> HCCL_E_PTR" },
		{ HCCLT_OP_RECORD, -EINVAL, HCCL_E_PTR, "record -EINVAL (index) -> HCCL_E_PTR" },
		{ HCCLT_OP_RECORD, -EBUSY, HCCL_E_AGAIN, "record -EBUSY (queue full) -> HCCL_E_AGAIN" },
		{ HCCLT_OP_WAIT, -EINVAL, HCCL_E_PTR, "wait -EINVAL (index) -> HCCL_E_PTR" },
		{ HCCLT_OP_WAIT, -EBUSY, HCCL_E_AGAIN, "wait -EBUSY -> HCCL_E_AGAIN" },
		{ HCCLT_OP_WAIT, -ENODEV, HCCL_E_DRV, "wait -ENODEV -> HCCL_E_DRV" },
		{ HCCLT_OP_COMM_DESTROY, -ENOENT, HCCL_E_PTR, "comm destroy -ENOENT -> HCCL_E_PTR" },
		{ HCCLT_OP_COMM_CREATE, -ENOMEM, HCCL_E_MEMORY, "comm create -ENOMEM -> HCCL_E_MEMORY" },
		{ HCCLT_OP_COMM_CREATE, -ENOSPC, HCCL_E_RUNTIME, "comm create -ENOSPC (id table full) -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_EXPORT, -ENOSPC, HCCL_E_RUNTIME, "export -ENOSPC (id table full) -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_DEVICE_HCCL, -ENOENT, HCCL_E_DRV, "HCCL device open -ENOENT -> HCCL_E_DRV" },
		{ HCCLT_OP_DEVICE_HCCL, -EACCES, HCCL_E_DRV, "HCCL device open -EACCES -> HCCL_E_DRV" },
		{ HCCLT_OP_DEVICE_ACL, -ENODEV, ACL_ERROR_RT_NO_DEVICE, "ACL device open -ENODEV -> ACL_ERROR_RT_NO_DEVICE" },
		{ HCCLT_OP_DEVICE_ACL, -ENXIO, ACL_ERROR_RT_INVALID_DEVICEID, "ACL device index out of range -> ACL_ERROR_RT_INVALID_DEVICEID" },
		{ HCCLT_OP_DEVICE_ACL, -EACCES, ACL_ERROR_RT_NO_PERMISSION, "ACL device open -EACCES -> ACL_ERROR_RT_NO_PERMISSION" },
		{ HCCLT_OP_DEVICE_ACL, -EPROTO, ACL_ERROR_RT_DRV_INTERNAL_ERROR, "QUERY refused -> ACL_ERROR_RT_DRV_INTERNAL_ERROR" },
		{ HCCLT_OP_STREAM_CREATE, -ENOSPC, ACL_ERROR_RT_NO_STREAM_RESOURCE, "stream create -ENOSPC -> ACL_ERROR_RT_NO_STREAM_RESOURCE" },
		{ HCCLT_OP_STREAM_CREATE, -ENOMEM, ACL_ERROR_BAD_ALLOC, "stream create -ENOMEM -> ACL_ERROR_BAD_ALLOC" },
		{ HCCLT_OP_STREAM_DESTROY, -ENOENT, ACL_ERROR_RT_INVALID_HANDLE, "stream destroy -ENOENT -> ACL_ERROR_RT_INVALID_HANDLE" },
		{ HCCLT_OP_MEM_CREATE, -ENOBUFS, ACL_ERROR_RT_MEMORY_ALLOCATION, "mem create -ENOBUFS (capacity) -> ACL_ERROR_RT_MEMORY_ALLOCATION" },
		{ HCCLT_OP_MEM_CREATE, -ENOMEM, ACL_ERROR_RT_MEMORY_ALLOCATION, "mem create/mmap -ENOMEM -> ACL_ERROR_RT_MEMORY_ALLOCATION" },
		{ HCCLT_OP_MEM_CREATE, -EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "mem create -EINVAL (old driver) -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT" },
		{ HCCLT_OP_MEM_CREATE, -ENODEV, ACL_ERROR_RT_NO_DEVICE, "mem create -ENODEV -> ACL_ERROR_RT_NO_DEVICE" },
		{ HCCLT_OP_MEM_CREATE, -EXDEV, ACL_ERROR_RT_INTERNAL_ERROR, "mem create undocumented errno -> ACL_ERROR_RT_INTERNAL_ERROR" },
		{ HCCLT_OP_COMM_BUFFER, -ENOBUFS, HCCL_E_OOM, "comm buffer -ENOBUFS (capacity) -> HCCL_E_OOM" },
		{ HCCLT_OP_COMM_BUFFER, -ENOMEM, HCCL_E_MEMORY, "comm buffer/mmap -ENOMEM -> HCCL_E_MEMORY" },
		{ HCCLT_OP_COMM_BUFFER, -ENOENT, HCCL_E_PTR, "comm buffer -ENOENT -> HCCL_E_PTR" },
		{ HCCLT_OP_COMM_BUFFER, -EINVAL, HCCL_E_NOT_SUPPORT, "comm buffer -EINVAL (old driver) -> HCCL_E_NOT_SUPPORT" },
		{ HCCLT_OP_COMM_BUFFER, -ENODEV, HCCL_E_DRV, "comm buffer -ENODEV -> HCCL_E_DRV" },
		{ HCCLT_OP_COMM_BUFFER, -EXDEV, HCCL_E_INTERNAL, "comm buffer undocumented errno -> HCCL_E_INTERNAL" },
		{ HCCLT_OP_GROUP_JOIN, -ETIME, HCCL_E_TIMEOUT, "group join -ETIME (deadline passed) -> HCCL_E_TIMEOUT" },
		{ HCCLT_OP_STREAM_SYNC, 0, ACL_SUCCESS, "sync 0 -> ACL_SUCCESS" },
		{ HCCLT_OP_STREAM_SYNC, -ETIME, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "sync -ETIME (deadline passed) -> ACL_ERROR_RT_STREAM_SYNC_TIMEOUT" },
		{ HCCLT_OP_STREAM_SYNC, -ETIMEDOUT, ACL_ERROR_RT_WAIT_TIMEOUT, "sync -ETIMEDOUT (wait task timed out) -> ACL_ERROR_RT_WAIT_TIMEOUT" },
		{ HCCLT_OP_STREAM_SYNC, -ECANCELED, ACL_ERROR_RT_STREAM_ABORT, "sync -ECANCELED -> ACL_ERROR_RT_STREAM_ABORT" },
		{ HCCLT_OP_STREAM_SYNC, -ENODEV, ACL_ERROR_RT_NO_DEVICE, "sync -ENODEV -> ACL_ERROR_RT_NO_DEVICE" },
		{ HCCLT_OP_STREAM_SYNC, -ENOENT, ACL_ERROR_RT_INVALID_HANDLE, "sync -ENOENT -> ACL_ERROR_RT_INVALID_HANDLE" },
		{ HCCLT_OP_STREAM_SYNC, -EXDEV, ACL_ERROR_RT_INTERNAL_ERROR, "sync undocumented errno -> ACL_ERROR_RT_INTERNAL_ERROR" },
		{ HCCLT_OP_STREAM_FENCE, -EMFILE, ACL_ERROR_RT_OVER_LIMIT, "stream fence -EMFILE -> ACL_ERROR_RT_OVER_LIMIT" },
		{ HCCLT_OP_STREAM_FENCE, -EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "stream fence unsupported -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT" },
		{ HCCLT_OP_THREAD_FENCE, -EMFILE, HCCL_E_UNAVAIL, "thread fence -EMFILE -> HCCL_E_UNAVAIL" },
		{ HCCLT_OP_INFO, -ENOENT, HCCL_E_PTR, "info -ENOENT -> HCCL_E_PTR" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TAP_EQ(hcclt_map_errno(rows[i].op, rows[i].err), rows[i].want, "errno map: %s", rows[i].what);
}

static void test_handles(void)
{
	uint64_t kid = ((uint64_t)HCCLT_ID_KIND_THREAD << HCCLT_ID_KIND_SHIFT) | 0x1234;
	uint64_t id;
	int dev, ok = 1, d;

	for (d = 0; d < HCCLT_MAX_DEVICES; d++) {
		ThreadHandle h = hcclt_handle_make(d, kid);

		if (hcclt_handle_parse(h, &dev, &id) || dev != d || id != kid)
			ok = 0;
	}
	tap_ok(ok, "handle encode/decode round trip on devices 0..15");
	tap_ok(hcclt_handle_make(0, kid) == kid, "device 0 handle of generation 0 is the kernel id");
	tap_ok(hcclt_handle_make(3, kid) >> 56 == 3, "device index sits in bits 59:56");
	tap_ok(hcclt_handle_parse(0, &dev, &id) != 0, "handle 0 is refused");
	tap_ok(hcclt_handle_parse(((uint64_t)HCCLT_ID_KIND_STREAM << HCCLT_ID_KIND_SHIFT) | 7,
				  &dev, &id) != 0, "a stream id is not a thread handle");
	tap_ok(hcclt_handle_parse(kid | (UINT64_C(1) << 60), &dev, &id) != 0,
	       "a handle of another fork generation is refused");
}

static void test_acquire_checks(void)
{
	struct hcclt_comm c = fake_comm(0), bad = fake_comm(0);
	ThreadHandle th[41];

	bad.magic = 0x12345678;
	fill(th, 41);
	TAP_EQ(HcclThreadAcquire(NULL, COMM_ENGINE_CPU, 1, 1, th), HCCL_E_PTR, "acquire: comm NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 1, 1, NULL), HCCL_E_PTR, "acquire: threads NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadAcquire(&bad, COMM_ENGINE_CPU, 1, 1, th), HCCL_E_PTR, "acquire: garbage comm (bad magic) -> HCCL_E_PTR");
	TAP_EQ(HcclThreadAcquire(NULL, (CommEngine)9, 0, 99, th), HCCL_E_PTR, "acquire order: NULL comm before engine, count, quota");
	TAP_EQ(HcclThreadAcquire(&c, (CommEngine)9, 0, 99, NULL), HCCL_E_PTR, "acquire order: NULL threads before engine, count, quota");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_RESERVED, 1, 1, th), HCCL_E_PARA, "acquire: COMM_ENGINE_RESERVED -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquire(&c, (CommEngine)6, 1, 1, th), HCCL_E_PARA, "acquire: engine 6 -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquire(&c, (CommEngine)-7, 1, 1, th), HCCL_E_PARA, "acquire: engine -7 -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 0, 1, th), HCCL_E_PARA, "acquire: threadNum 0 -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquire(&c, (CommEngine)6, 41, 65, th), HCCL_E_PARA, "acquire order: engine before quota");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 0, 65, th), HCCL_E_PARA, "acquire order: threadNum 0 before quota");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 41, 0, th), HCCL_E_UNAVAIL, "acquire: threadNum 41 -> HCCL_E_UNAVAIL");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 1, 65, th), HCCL_E_UNAVAIL, "acquire: notifyNumPerThread 65 -> HCCL_E_UNAVAIL");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 8, 9, th), HCCL_E_UNAVAIL, "acquire: 8 x 9 notifies = 72 -> HCCL_E_UNAVAIL");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 2, 0x80000000u, th), HCCL_E_UNAVAIL, "acquire: 2 x 2^31 notifies (u32 overflow) -> HCCL_E_UNAVAIL");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_AIV, 41, 0, th), HCCL_E_UNAVAIL, "acquire order: quota before AIV");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_AIV, 1, 0, th), HCCL_E_PTR,
	       "acquire: AIV with a valid quota is left to the kernel (device not open here -> HCCL_E_PTR, not HCCL_E_PARA)");
	TAP_EQ(HcclThreadAcquire(&c, COMM_ENGINE_CPU, 8, 8, th), HCCL_E_PTR, "acquire: 8 x 8 = 64 passes the library checks");
	tap_ok(all_sentinel(th, 41), "acquire: the threads array is untouched by failed calls");
}

static void test_with_stream_checks(void)
{
	struct hcclt_comm c = fake_comm(0);
	struct hcclt_stream s = fake_stream(0), s1 = fake_stream(1), bad = fake_stream(0);
	ThreadHandle t = SENTINEL;

	bad.magic = 0;
	TAP_EQ(HcclThreadAcquireWithStream(NULL, COMM_ENGINE_CPU_TS, &s, 1, &t), HCCL_E_PTR, "with-stream: comm NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_CPU_TS, NULL, 1, &t), HCCL_E_PTR, "with-stream: stream NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_CPU_TS, &s, 1, NULL), HCCL_E_PTR, "with-stream: thread NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_AICPU, &s, 1, &t), HCCL_E_PARA, "with-stream: AICPU -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_AICPU_TS, &s, 1, &t), HCCL_E_PARA, "with-stream: AICPU_TS -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_AIV, &s, 1, &t), HCCL_E_PARA, "with-stream: AIV -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_RESERVED, &s, 1, &t), HCCL_E_PARA, "with-stream: RESERVED -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquireWithStream(&c, (CommEngine)6, &s, 1, &t), HCCL_E_PARA, "with-stream: engine 6 -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquireWithStream(NULL, COMM_ENGINE_AIV, &s, 1, &t), HCCL_E_PTR, "with-stream order: NULL before engine");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_CPU_TS, &bad, 1, &t), HCCL_E_PTR, "with-stream: garbage stream -> HCCL_E_PTR");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_CPU, &s1, 1, &t), HCCL_E_PARA, "with-stream: stream of another device -> HCCL_E_PARA");
	TAP_EQ(HcclThreadAcquireWithStream(&c, COMM_ENGINE_CCU, &s, 65, &t), HCCL_E_PTR,
	       "with-stream: notify quota is left to the kernel (its engine check comes first)");
	tap_ok(t == SENTINEL, "with-stream: *thread untouched by failed calls");
}

static void test_export_checks(void)
{
	struct hcclt_comm c = fake_comm(0);
	ThreadHandle in[41], out[41];
	int i;

	for (i = 0; i < 41; i++)
		in[i] = fake_thread(0, (uint64_t)i + 1);
	fill(out, 41);
	TAP_EQ(HcclThreadExportToCommEngine(NULL, 1, in, COMM_ENGINE_CPU_TS, out), HCCL_E_PTR, "export: comm NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 1, NULL, COMM_ENGINE_CPU_TS, out), HCCL_E_PTR, "export: threads NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 1, in, COMM_ENGINE_CPU_TS, NULL), HCCL_E_PTR, "export: exportedThreads NULL -> HCCL_E_PTR");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 1, in, COMM_ENGINE_AIV, out), HCCL_E_PARA, "export: dst AIV -> HCCL_E_PARA");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 1, in, COMM_ENGINE_RESERVED, out), HCCL_E_PARA, "export: dst RESERVED -> HCCL_E_PARA");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 1, in, (CommEngine)6, out), HCCL_E_PARA, "export: dst 6 -> HCCL_E_PARA");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 0, in, COMM_ENGINE_CPU_TS, out), HCCL_E_PARA, "export: threadNum 0 -> HCCL_E_PARA");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 41, in, COMM_ENGINE_CPU_TS, out), HCCL_E_PARA, "export: threadNum 41 -> HCCL_E_PARA");
	TAP_EQ(HcclThreadExportToCommEngine(&c, 0, in, COMM_ENGINE_CPU_TS, NULL), HCCL_E_PTR, "export order: NULL before threadNum");
	TAP_EQ(HcclThreadExportToCommEngine(NULL, 0, in, COMM_ENGINE_AIV, out), HCCL_E_PTR, "export order: NULL before engine");
	in[3] = 0;
	TAP_EQ(HcclThreadExportToCommEngine(&c, 5, in, COMM_ENGINE_CPU_TS, out), HCCL_E_PARA, "export: handle 0 in the list -> HCCL_E_PARA");
	in[3] = fake_thread(1, 4);
	TAP_EQ(HcclThreadExportToCommEngine(&c, 5, in, COMM_ENGINE_CPU_TS, out), HCCL_E_PARA, "export: handle of another device -> HCCL_E_PARA");
	in[3] = ((uint64_t)HCCLT_ID_KIND_COMM << HCCLT_ID_KIND_SHIFT) | 4;
	TAP_EQ(HcclThreadExportToCommEngine(&c, 5, in, COMM_ENGINE_CPU_TS, out), HCCL_E_PARA, "export: a non-thread id -> HCCL_E_PARA");
	in[3] = fake_thread(0, 4);
	TAP_EQ(HcclThreadExportToCommEngine(&c, 40, in, COMM_ENGINE_CPU_TS, out), HCCL_E_PTR,
	       "export: 40 valid-looking handles pass the library checks (device not open -> HCCL_E_PTR)");
	tap_ok(all_sentinel(out, 41), "export: exportedThreads untouched by failed calls");
}

static void test_primitive_checks(void)
{
	ThreadHandle a = fake_thread(0, 1), b = fake_thread(0, 2), d1 = fake_thread(1, 3);

	TAP_EQ(HcommThreadNotifyRecordOnThread(0, b, 0), HCCL_E_PTR, "record: thread 0 -> HCCL_E_PTR");
	TAP_EQ(HcommThreadNotifyRecordOnThread(a, 0, 0), HCCL_E_PTR, "record: dstThread 0 -> HCCL_E_PTR");
	TAP_EQ(HcommThreadNotifyRecordOnThread(a, d1, 0), HCCL_E_PARA, "record: handles of two devices -> HCCL_E_PARA");
	TAP_EQ(HcommThreadNotifyRecordOnThread(a, b | (UINT64_C(5) << 60), 0), HCCL_E_PTR, "record: foreign-generation dst -> HCCL_E_PTR");
	TAP_EQ(HcommThreadNotifyRecordOnThread(a, (uint64_t)HCCLT_ID_KIND_STREAM << HCCLT_ID_KIND_SHIFT | 1, 0),
	       HCCL_E_PTR, "record: a stream id as dst -> HCCL_E_PTR");
	TAP_EQ(HcommThreadNotifyRecordOnThread(a, b, 0), HCCL_E_PTR, "record: valid-looking handles on an unopened device -> HCCL_E_PTR");
	TAP_EQ(HcommThreadNotifyWaitOnThread(0, 0, 1), HCCL_E_PTR, "wait: thread 0 -> HCCL_E_PTR");
	TAP_EQ(HcommThreadNotifyWaitOnThread(0xffffffffffffffffULL, 0, 1), HCCL_E_PTR, "wait: all-ones handle -> HCCL_E_PTR");
	TAP_EQ(HcommThreadNotifyWaitOnThread(a, 0, 1), HCCL_E_PTR, "wait: handle on an unopened device -> HCCL_E_PTR");
}

/*
 * The reduces' checks before the device (hcomm's order: buffers E_PTR,
 * type and op E_PARA, then the thread and channel E_PTR): hcomm's calls
 * take INT8, INT16, INT32, FP16, FP32, BFP16 with SUM, MAX, MIN only; the
 * hcclt... ones every type 0 .. 11 with SUM, PROD, MAX, MIN.
 */
static void test_reduce_checks(void)
{
	ThreadHandle a = fake_thread(0, 1);
	ChannelHandle ch = hcclt_handle_make(0, ((uint64_t)HCCLT_ID_KIND_CHANNEL <<
						 HCCLT_ID_KIND_SHIFT) | 5);
	static const int bad_types[] = { 12, 13, 14, 15, 16, 17, 18, 255, -1 };
	static const int bad_ops[] = { 4, 5, 255, -1 };
	uint64_t buf[4];
	int t, o, narrow, ok_h = 1, ok_x = 1;
	unsigned int i;

#define LR(f, th, d, s, n, t, o) f##LocalReduceOnThread(th, d, s, n, (HcommDataType)(t), \
							(HcommReduceOp)(o))
#define WR(f, th, c, d, s, n, t, o) f##WriteReduceOnThread(th, c, d, s, n, (HcommDataType)(t), \
							   (HcommReduceOp)(o))
#define RR(f, th, c, d, s, n, t, o) f##ReadReduceOnThread(th, c, d, s, n, (HcommDataType)(t), \
							  (HcommReduceOp)(o))
	/* Every type and op: past the type checks (thread 0 -> E_PTR) or not. */
	for (t = 0; t < 12; t++) {
		for (o = 0; o < 4; o++) {
			narrow = (t <= 4 || t == 11) && o != 1;
			ok_h &= LR(Hcomm, 0, buf, buf + 2, 1, t, o) == (narrow ? HCCL_E_PTR : HCCL_E_PARA);
			ok_h &= WR(Hcomm, 0, ch, buf, buf + 2, 1, t, o) == (narrow ? HCCL_E_PTR : HCCL_E_PARA);
			ok_h &= RR(Hcomm, 0, ch, buf, buf + 2, 1, t, o) == (narrow ? HCCL_E_PTR : HCCL_E_PARA);
			ok_x &= LR(hcclt, 0, buf, buf + 2, 1, t, o) == HCCL_E_PTR;
			ok_x &= WR(hcclt, 0, ch, buf, buf + 2, 1, t, o) == HCCL_E_PTR;
			ok_x &= RR(hcclt, 0, ch, buf, buf + 2, 1, t, o) == HCCL_E_PTR;
		}
	}
	tap_ok(ok_h, "Hcomm*ReduceOnThread: hcomm's 6 types x 3 ops pass the type checks, "
	       "INT64..FP64 and PROD are HCCL_E_PARA");
	tap_ok(ok_x, "hcclt*ReduceOnThread: all 12 types x 4 ops pass the type checks");
	for (ok_x = 1, i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++) {
		ok_x &= LR(hcclt, a, buf, buf + 2, 1, bad_types[i], HCOMM_REDUCE_SUM) == HCCL_E_PARA;
		ok_x &= WR(hcclt, a, ch, buf, buf + 2, 1, bad_types[i], HCOMM_REDUCE_SUM) == HCCL_E_PARA;
		ok_x &= RR(hcclt, a, ch, buf, buf + 2, 1, bad_types[i], HCOMM_REDUCE_SUM) == HCCL_E_PARA;
	}
	tap_ok(ok_x, "hcclt*ReduceOnThread: types 12 (INT128) .. 18, 255, -1 -> HCCL_E_PARA");
	for (ok_x = 1, i = 0; i < sizeof(bad_ops) / sizeof(bad_ops[0]); i++) {
		ok_x &= LR(hcclt, a, buf, buf + 2, 1, HCOMM_DATA_TYPE_INT64, bad_ops[i]) == HCCL_E_PARA;
		ok_x &= WR(hcclt, a, ch, buf, buf + 2, 1, HCOMM_DATA_TYPE_INT64, bad_ops[i]) == HCCL_E_PARA;
		ok_x &= RR(hcclt, a, ch, buf, buf + 2, 1, HCOMM_DATA_TYPE_INT64, bad_ops[i]) == HCCL_E_PARA;
	}
	tap_ok(ok_x, "hcclt*ReduceOnThread: ops 4, 5, 255, -1 -> HCCL_E_PARA");
	TAP_EQ(LR(hcclt, a, NULL, buf, 1, 99, 99), HCCL_E_PTR,
	       "hcclt LocalReduce: dst NULL -> HCCL_E_PTR (before the type)");
	TAP_EQ(LR(hcclt, a, buf, NULL, 1, 99, 99), HCCL_E_PTR,
	       "hcclt LocalReduce: src NULL -> HCCL_E_PTR");
	TAP_EQ(WR(hcclt, a, ch, NULL, buf, 1, HCOMM_DATA_TYPE_FP64, HCOMM_REDUCE_PROD), HCCL_E_PTR,
	       "hcclt WriteReduce: dst NULL -> HCCL_E_PTR");
	TAP_EQ(RR(hcclt, a, ch, buf, NULL, 1, HCOMM_DATA_TYPE_FP64, HCOMM_REDUCE_PROD), HCCL_E_PTR,
	       "hcclt ReadReduce: src NULL -> HCCL_E_PTR");
	TAP_EQ(LR(hcclt, 0, buf, buf, UINT64_MAX / 8 + 1, HCOMM_DATA_TYPE_UINT64, HCOMM_REDUCE_SUM),
	       HCCL_E_PARA, "hcclt LocalReduce: UINT64 count * 8 past 2^64 -> HCCL_E_PARA (before the thread)");
	TAP_EQ(LR(hcclt, 0, buf, buf, UINT64_MAX / 8, HCOMM_DATA_TYPE_FP64, HCOMM_REDUCE_SUM),
	       HCCL_E_PTR, "hcclt LocalReduce: FP64 count * 8 below 2^64 passes, thread 0 -> HCCL_E_PTR");
	TAP_EQ(LR(hcclt, 0, buf, buf, UINT64_MAX, HCOMM_DATA_TYPE_UINT8, HCOMM_REDUCE_MIN),
	       HCCL_E_PTR, "hcclt LocalReduce: UINT8 count 2^64 - 1 passes, thread 0 -> HCCL_E_PTR");
	TAP_EQ(LR(hcclt, a | (UINT64_C(5) << 60), buf, buf + 2, 1, HCOMM_DATA_TYPE_UINT16,
		  HCOMM_REDUCE_MAX), HCCL_E_PTR, "hcclt LocalReduce: foreign-generation thread -> HCCL_E_PTR");
	TAP_EQ(LR(hcclt, a, buf, buf + 2, 0, HCOMM_DATA_TYPE_UINT32, HCOMM_REDUCE_PROD), HCCL_E_PTR,
	       "hcclt LocalReduce: a thread on an unopened device -> HCCL_E_PTR (also for count 0)");
	TAP_EQ(WR(hcclt, a, 0, buf, buf + 2, 1, HCOMM_DATA_TYPE_INT64, HCOMM_REDUCE_SUM), HCCL_E_PTR,
	       "hcclt WriteReduce: channel 0 -> HCCL_E_PTR");
	TAP_EQ(RR(hcclt, a, a, buf, buf + 2, 1, HCOMM_DATA_TYPE_INT64, HCOMM_REDUCE_SUM), HCCL_E_PTR,
	       "hcclt ReadReduce: a thread handle as channel -> HCCL_E_PTR");
	TAP_EQ(LR(Hcomm, 0, buf, buf + 2, 1, HCOMM_DATA_TYPE_UINT8, HCOMM_REDUCE_SUM), HCCL_E_PARA,
	       "HcommLocalReduce: UINT8 still HCCL_E_PARA (before the thread)");
	TAP_EQ(LR(Hcomm, 0, buf, buf + 2, 1, HCOMM_DATA_TYPE_FP32, HCOMM_REDUCE_PROD), HCCL_E_PARA,
	       "HcommLocalReduce: PROD still HCCL_E_PARA");
#undef LR
#undef WR
#undef RR
}

static void test_channel_checks(void)
{
	struct hcclt_comm c = fake_comm(0), bad = fake_comm(0);
	HcclChannelDesc d[3], *p;
	ChannelHandle ch[3];
	unsigned char *b;
	ThreadHandle th = hcclt_handle_make(0, ((uint64_t)HCCLT_ID_KIND_THREAD <<
						 HCCLT_ID_KIND_SHIFT) | 5);
	ChannelHandle cth = hcclt_handle_make(0, ((uint64_t)HCCLT_ID_KIND_CHANNEL <<
						  HCCLT_ID_KIND_SHIFT) | 5);
	size_t i;
	int ok = 1;

	c.rank = 1;
	c.nranks = 4;
	bad.magic = 0x12345678;
	/* HcclChannelDescInit: CANN's fill. */
	TAP_EQ(HcclChannelDescInit(NULL, 1), HCCL_E_PTR, "HcclChannelDescInit(NULL) -> HCCL_E_PTR");
	TAP_EQ(HcclChannelDescInit(d, 3), HCCL_SUCCESS, "HcclChannelDescInit");
	tap_ok(sizeof(HcclChannelDesc) == 496, "HcclChannelDesc is 496 bytes");
	tap_ok(d[2].header.version == 1 && d[2].header.magicWord == 0x0f0f0f0fU &&
	       d[2].header.size == 496 && d[2].header.reserved == 0,
	       "desc init: header version 1, magic 0x0f0f0f0f, size 496");
	tap_ok(d[1].remoteRank == ~0U && d[1].channelProtocol == COMM_PROTOCOL_RESERVED &&
	       d[1].notifyNum == 0 && !d[1].memHandles && !d[1].memHandleNum,
	       "desc init: remoteRank ~0, protocol RESERVED, no notifies or memory");
	tap_ok(d[0].localEndpoint.protocol == COMM_PROTOCOL_RESERVED &&
	       d[0].remoteEndpoint.loc.locType == ENDPOINT_LOC_TYPE_RESERVED &&
	       d[0].localEndpoint.commAddr.type == COMM_ADDR_TYPE_RESERVED,
	       "desc init: both endpoints reserved");
	b = (unsigned char *)&d[0];
	for (i = offsetof(HcclChannelDesc, roceAttr); i < sizeof(d[0]); i++)
		if (b[i] != 0xFF)
			ok = 0;
	tap_ok(ok && d[0].roceAttr.queueNum == 0xFFFFFFFFU && d[0].roceAttr.tc == 0xFF,
	       "desc init: the rest (roceAttr, padding) is 0xFF");

	HcclChannelDescInit(d, 3);
	for (i = 0; i < 3; i++) {
		d[i].remoteRank = (uint32_t)(i + 2) % 4;	/* 2, 3, 0 */
		d[i].channelProtocol = COMM_PROTOCOL_HCCS;
		d[i].notifyNum = 2;
	}
	/* 1. pointers, then the count */
	TAP_EQ(HcclChannelAcquire(NULL, COMM_ENGINE_CPU, d, 1, ch), HCCL_E_PTR, "channel: comm NULL -> HCCL_E_PTR");
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, NULL, 1, ch), HCCL_E_PTR, "channel: descs NULL -> HCCL_E_PTR");
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 1, NULL), HCCL_E_PTR, "channel: channels NULL -> HCCL_E_PTR");
	TAP_EQ(HcclChannelAcquire(&bad, COMM_ENGINE_CPU, d, 1, ch), HCCL_E_PTR, "channel: garbage comm -> HCCL_E_PTR");
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_AIV, d, 0, ch), HCCL_E_PARA, "channel: count 0 -> HCCL_E_PARA");
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 1024 * 1024 + 1, ch), HCCL_E_PARA,
	       "channel: count above 1048576 -> HCCL_E_PARA");
	/* 2. every descriptor's magic and protocol before any 3. check */
	d[2].header.magicWord = 0;
	d[0].notifyNum = 65;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA, "channel: bad magic -> HCCL_E_PARA");
	d[2].header.magicWord = HCCL_CHANNEL_DESC_MAGIC_WORD;
	d[0].notifyNum = 2;
	d[1].channelProtocol = COMM_PROTOCOL_UBC_TP;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA, "channel: UBC_TP -> HCCL_E_PARA");
	d[1].channelProtocol = COMM_PROTOCOL_RESERVED;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA, "channel: RESERVED protocol -> HCCL_E_PARA");
	d[1].channelProtocol = COMM_PROTOCOL_HCCS;
	/* 3. per descriptor: notifyNum, duplicate, self, range, protocol, engine */
	p = &d[0];
	p->notifyNum = 65;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA, "channel: notifyNum 65 -> HCCL_E_PARA");
	p->notifyNum = 64;
	d[1].remoteRank = 2;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA,
	       "channel: duplicate (remoteRank, protocol) -> HCCL_E_PARA");
	d[1].channelProtocol = COMM_PROTOCOL_ROCE;
	d[2].remoteRank = 1;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA, "channel: remoteRank == myRank -> HCCL_E_PARA");
	d[2].remoteRank = 4;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA, "channel: remoteRank >= rankSize -> HCCL_E_PARA");
	d[2].remoteRank = 0;
	d[2].channelProtocol = COMM_PROTOCOL_PCIE;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CPU, d, 3, ch), HCCL_E_PARA, "channel: PCIE (not on A2/A3) -> HCCL_E_PARA");
	d[2].channelProtocol = COMM_PROTOCOL_HCCS;
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_CCU, d, 3, ch), HCCL_E_PARA, "channel: engine CCU -> HCCL_E_PARA");
	TAP_EQ(HcclChannelAcquire(&c, COMM_ENGINE_AIV, d, 3, ch), HCCL_E_PARA, "channel: engine AIV -> HCCL_E_PARA");
	TAP_EQ(HcclChannelAcquire(&c, (CommEngine)9, d, 3, ch), HCCL_E_PARA, "channel: engine 9 -> HCCL_E_PARA");

	/* the primitives: handles before anything else */
	TAP_EQ(HcommChannelNotifyRecordOnThread(0, cth, 0), HCCL_E_PTR, "channel record: thread 0 -> HCCL_E_PTR");
	TAP_EQ(HcommChannelNotifyRecordOnThread(th, 0, 0), HCCL_E_PTR, "channel record: channel 0 -> HCCL_E_PTR");
	TAP_EQ(HcommChannelNotifyRecordOnThread(th, th, 0), HCCL_E_PTR, "channel record: a thread handle as channel -> HCCL_E_PTR");
	TAP_EQ(HcommChannelNotifyRecordOnThread(th, hcclt_handle_make(1, cth), 0), HCCL_E_PTR,
	       "channel record: channel of another device -> HCCL_E_PTR");
	TAP_EQ(HcommChannelNotifyWaitOnThread(0, cth, 0, 0), HCCL_E_PTR, "channel wait: thread 0 -> HCCL_E_PTR");
	TAP_EQ(HcommChannelNotifyWaitOnThread(th, 0, 0, 0), HCCL_E_PTR, "channel wait: channel 0 -> HCCL_E_PTR");
	TAP_EQ(HcommChannelNotifyWaitOnThread(th, cth | (UINT64_C(1) << 60), 0, 0), HCCL_E_PTR,
	       "channel wait: channel of another fork generation -> HCCL_E_PTR");

	/* the errno table */
	TAP_EQ(hcclt_map_errno(HCCLT_OP_CHANNEL_ACQUIRE, -EPROTO), HCCL_E_INTERNAL, "acquire EPROTO (mismatch) -> HCCL_E_INTERNAL");
	TAP_EQ(hcclt_map_errno(HCCLT_OP_CHANNEL_ACQUIRE, -ECONNRESET), HCCL_E_REMOTE, "acquire ECONNRESET -> HCCL_E_REMOTE");
	TAP_EQ(hcclt_map_errno(HCCLT_OP_CHANNEL_ACQUIRE, -ETIME), HCCL_E_TIMEOUT, "acquire ETIME -> HCCL_E_TIMEOUT");
	TAP_EQ(hcclt_map_errno(HCCLT_OP_CHANNEL_TASK, -EINVAL), HCCL_E_INTERNAL, "channel task EINVAL (index) -> HCCL_E_INTERNAL");
	TAP_EQ(hcclt_map_errno(HCCLT_OP_CHANNEL_TASK, -ECONNRESET), HCCL_E_REMOTE, "channel task ECONNRESET -> HCCL_E_REMOTE");
	TAP_EQ(hcclt_map_errno(HCCLT_OP_STREAM_SYNC, -ECONNRESET), ACL_ERROR_RT_STREAM_ABORT,
	       "sync ECONNRESET (peer gone) -> ACL_ERROR_RT_STREAM_ABORT");
}

static void test_acl_checks(void)
{
	struct hcclt_stream bad = fake_stream(0);
	aclrtStream st = NULL;
	int32_t dev = 77;
	uint32_t n = 0;

	bad.magic = 1;
	TAP_EQ(hccltGetDeviceCount(&n), ACL_SUCCESS, "hccltGetDeviceCount succeeds");
	TAP_EQ(n, 2, "HCCLT_DEVICE=a:b gives two devices");
	TAP_EQ(hccltGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "hccltGetDeviceCount(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDevice(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice without aclrtSetDevice -> ACL_ERROR_RT_CONTEXT_NULL");
	TAP_EQ(dev, 77, "aclrtGetDevice leaves *deviceId alone on error");
	TAP_EQ(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice(2) of 2 devices -> ACL_ERROR_RT_INVALID_DEVICEID");
	TAP_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice(-1) -> ACL_ERROR_RT_INVALID_DEVICEID");
	TAP_EQ(aclrtSetDevice(0), ACL_ERROR_RT_NO_DEVICE, "aclrtSetDevice on a missing node -> ACL_ERROR_RT_NO_DEVICE");
	TAP_EQ(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, "a failed aclrtSetDevice sets no current device");
	TAP_EQ(aclrtResetDevice(9), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDevice(9) -> ACL_ERROR_RT_INVALID_DEVICEID");
	TAP_EQ(aclrtResetDevice(1), ACL_SUCCESS, "aclrtResetDevice of a valid index -> ACL_SUCCESS");
	TAP_EQ(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateStream(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtCreateStream(&st), ACL_ERROR_RT_CONTEXT_NULL, "aclrtCreateStream without a device -> ACL_ERROR_RT_CONTEXT_NULL");
	tap_ok(st == NULL, "aclrtCreateStream leaves *stream alone on error");
	TAP_EQ(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtDestroyStream(&bad), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStream(garbage) -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtSynchronizeStream(NULL), ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream(NULL) -> ACL_ERROR_INVALID_PARAM (no default stream)");
	TAP_EQ(aclrtSynchronizeStream(&bad), ACL_ERROR_RT_INVALID_HANDLE, "aclrtSynchronizeStream(garbage) -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(&bad, -2), ACL_ERROR_RT_PARAM_INVALID, "sync timeout -2 -> ACL_ERROR_RT_PARAM_INVALID (before the handle, as CANN)");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(NULL, -2), ACL_ERROR_RT_PARAM_INVALID, "sync timeout -2 -> ACL_ERROR_RT_PARAM_INVALID (before the stream)");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(NULL, -1), ACL_ERROR_INVALID_PARAM, "sync of NULL -> ACL_ERROR_INVALID_PARAM");
}

static void test_comm_checks(void)
{
	HcclComm comms[3] = { (HcclComm)1, (HcclComm)1, (HcclComm)1 };
	int32_t devs[3] = { 0, 1, 0 };
	struct hcclt_comm bad = fake_comm(0);

	bad.magic = 7;
	TAP_EQ(HcclCommInitAll(0, devs, comms), HCCL_E_PARA, "HcclCommInitAll(ndev 0) -> HCCL_E_PARA");
	TAP_EQ(HcclCommInitAll(1, NULL, comms), HCCL_E_PTR, "HcclCommInitAll(devices NULL) -> HCCL_E_PTR");
	TAP_EQ(HcclCommInitAll(1, devs, NULL), HCCL_E_PTR, "HcclCommInitAll(comms NULL) -> HCCL_E_PTR");
	TAP_EQ(HcclCommInitAll(3, devs, comms), HCCL_E_PARA, "HcclCommInitAll with a device listed twice -> HCCL_E_PARA");
	tap_ok(!comms[0] && !comms[1] && !comms[2], "HcclCommInitAll sets every comms[i] to NULL on error");
	devs[1] = 2;
	TAP_EQ(HcclCommInitAll(2, devs, comms), HCCL_E_PARA, "HcclCommInitAll with device 2 of 2 -> HCCL_E_PARA");
	TAP_EQ(HcclCommInitAll(1, devs, comms), HCCL_E_DRV, "HcclCommInitAll on a missing node -> HCCL_E_DRV");
	TAP_EQ(HcclCommDestroy(NULL), HCCL_SUCCESS, "HcclCommDestroy(NULL) -> HCCL_SUCCESS (as CANN)");
	TAP_EQ(HcclCommDestroy(&bad), HCCL_E_PTR, "HcclCommDestroy(garbage) -> HCCL_E_PTR");
}

static void test_ext_checks(void)
{
	struct hcclt_comm c = fake_comm(0);
	hccltThreadInfo ti;
	hccltCommUsage cu;
	int fd = -5;

	TAP_EQ(hccltGetDeviceUsage(0, NULL), ACL_ERROR_INVALID_PARAM, "hccltGetDeviceUsage(usage NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(hccltCommGetUsage(NULL, &cu), HCCL_E_PTR, "hccltCommGetUsage(NULL) -> HCCL_E_PTR");
	TAP_EQ(hccltCommGetUsage(&c, NULL), HCCL_E_PTR, "hccltCommGetUsage(usage NULL) -> HCCL_E_PTR");
	TAP_EQ(hccltThreadGetInfo(0, &ti), HCCL_E_PTR, "hccltThreadGetInfo(0) -> HCCL_E_PTR");
	TAP_EQ(hccltStreamGetCompletionFd(NULL, &fd), ACL_ERROR_INVALID_PARAM, "hccltStreamGetCompletionFd(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(hccltThreadGetCompletionFd(0, &fd), HCCL_E_PTR, "hccltThreadGetCompletionFd(0) -> HCCL_E_PTR");
	TAP_EQ(fd, -5, "failed completion-fd calls leave *fd alone");
}

/* The parent's objects and handles are refused in a fork() child. */
static void test_fork(void)
{
	struct hcclt_comm c = fake_comm(0);
	struct hcclt_stream s = fake_stream(0);
	ThreadHandle h = fake_thread(0, 9), th;
	uint64_t id;
	int dev, status, bits;
	pid_t pid;

	tap_ok(hcclt_comm_get(&c) && hcclt_stream_get(&s) && !hcclt_handle_parse(h, &dev, &id),
	       "parent: its own objects are valid before fork");
	pid = fork();
	if (pid == 0) {
		bits = 0;
		if (HcclThreadAcquire(&c, COMM_ENGINE_CPU, 1, 0, &th) != HCCL_E_PTR)
			bits |= 1;
		if (aclrtSynchronizeStream(&s) != ACL_ERROR_RT_INVALID_HANDLE)
			bits |= 2;
		if (HcommThreadNotifyWaitOnThread(h, 0, 0) != HCCL_E_PTR || !hcclt_handle_parse(h, &dev, &id))
			bits |= 4;
		if (HcclCommDestroy(&c) != HCCL_E_PTR || aclrtDestroyStream(&s) != ACL_ERROR_RT_INVALID_HANDLE)
			bits |= 8;
		/* the child's own new handles are fine */
		if (hcclt_handle_parse(fake_thread(0, 9), &dev, &id))
			bits |= 16;
		_exit(bits);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		tap_ok(0, "fork child ran");
		return;
	}
	bits = WEXITSTATUS(status);
	tap_ok(!(bits & 1), "fork child: parent's communicator -> HCCL_E_PTR");
	tap_ok(!(bits & 2), "fork child: parent's stream -> ACL_ERROR_RT_INVALID_HANDLE");
	tap_ok(!(bits & 4), "fork child: parent's thread handle -> HCCL_E_PTR");
	tap_ok(!(bits & 8), "fork child: destroying parent's objects is refused");
	tap_ok(!(bits & 16), "fork child: handles made in the child are valid");
	tap_ok(hcclt_comm_get(&c) && hcclt_stream_get(&s) && !hcclt_handle_parse(h, &dev, &id),
	       "parent: its objects are still valid after the fork");
}

/* idle.c: when a sync may skip its ioctl. */
static struct drm_hcclt_submit fake_submit(uint64_t stream, uint64_t seqno,
					   int idle)
{
	struct drm_hcclt_submit sub;

	memset(&sub, 0, sizeof(sub));
	sub.stream_id = stream;
	sub.seqno = seqno;
	sub.status = idle ? HCCLT_SUBMIT_STATUS_IDLE : 0;
	return sub;
}

static void test_idle(void)
{
	uint64_t st = ((uint64_t)HCCLT_ID_KIND_STREAM << HCCLT_ID_KIND_SHIFT) |
		      (UINT64_C(1) << 47) | 5;
	uint64_t th = ((uint64_t)HCCLT_ID_KIND_THREAD << HCCLT_ID_KIND_SHIFT) | 5;
	uint64_t view = th + 1, other = 0, ep;
	struct drm_hcclt_submit sub;
	pid_t pid;
	int i, status;

	tap_ok(!hcclt_idle_check(0, th) && !hcclt_idle_check(0, st),
	       "idle: nothing known at first");
	sub = fake_submit(0, 2, 1);	/* a uAPI 1.0 driver says nothing */
	hcclt_idle_note(0, th, &sub, hcclt_idle_epoch());
	tap_ok(!hcclt_idle_check(0, th), "idle: a 1.0 driver's submit is not used");

	sub = fake_submit(st, 2, 0);
	hcclt_idle_note(0, th, &sub, hcclt_idle_epoch());
	tap_ok(!hcclt_idle_check(0, th), "idle: a submit that left work: sync");
	sub = fake_submit(st, 3, 1);
	hcclt_idle_note(0, th, &sub, hcclt_idle_epoch());
	tap_ok(hcclt_idle_check(0, th) && hcclt_idle_check(0, st),
	       "idle: the last submit left it idle: skip, by thread or stream id");
	tap_ok(!hcclt_idle_check(1, th) && !hcclt_idle_check(0, view),
	       "idle: another device or an unknown handle: sync");

	/* a view of the same stream queues more: its primary syncs too */
	sub = fake_submit(st, 4, 0);
	hcclt_idle_note(0, view, &sub, hcclt_idle_epoch());
	tap_ok(!hcclt_idle_check(0, th) && !hcclt_idle_check(0, view),
	       "idle: a later submit through another handle: sync");
	/* an IDLE seen earlier, noted late, says nothing about seqno 4 */
	sub = fake_submit(st, 3, 1);
	hcclt_idle_note(0, th, &sub, hcclt_idle_epoch());
	tap_ok(!hcclt_idle_check(0, th), "idle: an older IDLE noted late: sync");
	sub = fake_submit(st, 5, 1);
	hcclt_idle_note(0, view, &sub, hcclt_idle_epoch());
	tap_ok(hcclt_idle_check(0, th), "idle: idle after the newest: skip");

	/* destroying anything forgets; a submit from before is dropped */
	ep = hcclt_idle_epoch();
	hcclt_idle_forget();
	tap_ok(!hcclt_idle_check(0, th), "idle: forgotten after a destroy");
	sub = fake_submit(st, 6, 1);
	hcclt_idle_note(0, th, &sub, ep);
	tap_ok(!hcclt_idle_check(0, th),
	       "idle: an IDLE from a submit that began before a destroy is not used");
	/* ... but its queued work is: a parked wait begun before a destroy */
	hcclt_idle_forget();
	ep = hcclt_idle_epoch();
	hcclt_idle_forget();
	sub = fake_submit(st, 8, 0);
	hcclt_idle_note(0, view, &sub, ep);
	sub = fake_submit(st, 7, 1);
	hcclt_idle_note(0, th, &sub, hcclt_idle_epoch());
	tap_ok(!hcclt_idle_check(0, th),
	       "idle: work queued by a submit begun before a destroy still counts");
	hcclt_idle_forget();

	/* a stream whose slot is taken is not tracked (never evicts) */
	hcclt_idle_note(0, th, &sub, hcclt_idle_epoch());
	for (i = 6; i < 100000 && !other; i++) {
		uint64_t cand = st + (uint64_t)i;
		struct drm_hcclt_submit probe = fake_submit(cand, 1, 1);

		hcclt_idle_note(0, cand, &probe, hcclt_idle_epoch());
		if (!hcclt_idle_check(0, cand))
			other = cand;
	}
	tap_ok(other && hcclt_idle_check(0, th),
	       "idle: a colliding stream is not tracked, the tracked one stays");

	/* the child of a fork knows nothing of the parent's streams */
	pid = fork();
	if (pid == 0)
		_exit(hcclt_idle_check(0, th));
	tap_ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0, "idle: nothing known in a fork child");
	hcclt_idle_forget();
}

/* With no device at all: HCCL_E_DRV / ACL_ERROR_RT_NO_DEVICE and a hint. */
static int nodev_child(void)
{
	HcclComm comm;
	int32_t d = 0;
	uint32_t n = 1;

	hccltGetDeviceCount(&n);
	if (n)
		return 100;	/* a real device here: cannot test */
	return (HcclCommInitAll(1, &d, &comm) != HCCL_E_DRV) |
	       (aclrtSetDevice(0) != ACL_ERROR_RT_NO_DEVICE) << 1;
}

static void test_nodev(const char *self)
{
	int pfd[2], status, bits;
	char buf[4096];
	ssize_t len = 0, r;
	pid_t pid;

	if (pipe(pfd)) {
		tap_ok(0, "pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], 2);
		close(pfd[0]);
		unsetenv("HCCLT_DEVICE");
		setenv("HCCLT_DEBUG", "1", 1);
		execl(self, self, "--nodev", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	while (len < (ssize_t)sizeof(buf) - 1 && (r = read(pfd[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += r;
	buf[len] = 0;
	close(pfd[0]);
	waitpid(pid, &status, 0);
	bits = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	if (bits == 100) {
		tap_skip("no-device behaviour: this machine has an hcclthread device");
		return;
	}
	tap_ok(!(bits & 1) && bits < 4, "no device: HcclCommInitAll -> HCCL_E_DRV");
	tap_ok(!(bits & 2) && bits < 4, "no device: aclrtSetDevice -> ACL_ERROR_RT_NO_DEVICE");
	/* "hcclthread: [monotonic time pid] " first. */
	tap_ok(!strncmp(buf, "hcclthread: [", 13) &&
	       strstr(buf, "] no hcclthread device found") != NULL,
	       "no device + HCCLT_DEBUG: one-line hint on stderr");
}

/*
 * Discovery's one libdrm call, replaced here (the archive's reference binds
 * to the executable's definition): it finds nothing, and it takes 300 ms
 * while slow_discovery is set, so that a test can fork() in the middle.
 */
static atomic_int slow_discovery, in_discovery;

int drmGetDevices2(uint32_t flags, drmDevicePtr devices[], int max_devices)
{
	(void)flags;
	(void)devices;
	(void)max_devices;
	if (atomic_load(&slow_discovery)) {
		atomic_store(&in_discovery, 1);
		usleep(300000);
	}
	return 0;
}

static void *discover_thread(void *arg)
{
	(void)arg;
	hcclt_device_count();
	return NULL;
}

/*
 * Child: fork() while another thread runs discovery. The grandchild runs
 * discovery again (pthread_once restarts there), then forks: with the fork
 * handlers registered a second time by that run, its fork() took dev_lock
 * twice and hung. Exit 0 when the grandchild's fork() returned.
 */
static int forkdisc_child(void)
{
	pthread_t t;
	int status;
	pid_t pid;

	atomic_store(&slow_discovery, 1);
	if (pthread_create(&t, NULL, discover_thread, NULL))
		return 2;
	while (!atomic_load(&in_discovery))
		usleep(1000);
	pid = fork();
	if (pid == 0) {
		atomic_store(&slow_discovery, 0);
		alarm(120);
		hcclt_device_count();
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			_exit(3);
		_exit(0);
	}
	if (pid < 0)
		return 2;
	waitpid(pid, &status, 0);
	pthread_join(t, NULL);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 4;
}

static void test_fork_in_discovery(const char *self)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		unsetenv("HCCLT_DEVICE");
		execl(self, self, "--forkdisc", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	TAP_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "fork() during discovery: the child discovers again and its own fork() does not hang");
}

/*
 * Child: a node that open() answers with ENXIO (here a socket) is a device
 * that is not there, not a bad device index.
 */
static int enxio_child(void)
{
	HcclComm comm;
	int32_t d = 0;

	return (HcclCommInitAll(1, &d, &comm) != HCCL_E_DRV) |
	       (aclrtSetDevice(0) != ACL_ERROR_RT_NO_DEVICE) << 1;
}

static void test_enxio(const char *self)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sfd, status;
	pid_t pid;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "/tmp/hcclt-unit-%d.sock",
		 (int)getpid());
	unlink(sa.sun_path);
	sfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (sfd < 0 || bind(sfd, (struct sockaddr *)&sa, sizeof(sa))) {
		tap_ok(0, "make a socket node for the ENXIO test");
		if (sfd >= 0)
			close(sfd);
		return;
	}
	pid = fork();
	if (pid == 0) {
		setenv("HCCLT_DEVICE", sa.sun_path, 1);
		execl(self, self, "--enxio", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	close(sfd);
	unlink(sa.sun_path);
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	tap_ok(status < 4 && !(status & 1),
	       "node open() says ENXIO: HcclCommInitAll -> HCCL_E_DRV");
	tap_ok(status < 4 && !(status & 2),
	       "node open() says ENXIO: aclrtSetDevice(0) -> ACL_ERROR_RT_NO_DEVICE, not an invalid device id");
}

/*
 * Destroyed communicator and stream structs stay the library's: dead, then
 * reused oldest first, never freed (a stale handle reads no freed memory).
 */
static void test_obj_reuse(void)
{
	struct hcclt_comm *a = hcclt_obj_alloc(), *c;
	struct hcclt_stream *b = hcclt_obj_alloc(), *d;

	if (!a || !b) {
		tap_ok(0, "allocate two objects");
		return;
	}
	a->gen = hcclt_gen();
	atomic_store(&a->magic, HCCLT_COMM_MAGIC);
	b->gen = hcclt_gen();
	atomic_store(&b->magic, HCCLT_STREAM_MAGIC);
	tap_ok(hcclt_comm_get(a) == a && hcclt_stream_get(b) == b,
	       "made comm and stream are live");
	hcclt_obj_free(a);
	hcclt_obj_free(b);
	tap_ok(!hcclt_comm_get(a) && !hcclt_stream_get(b),
	       "given back: both handles refused");
	TAP_EQ(HcclCommDestroy(a), HCCL_E_PTR, "HcclCommDestroy of a destroyed comm -> HCCL_E_PTR");
	TAP_EQ(aclrtDestroyStream(b), ACL_ERROR_RT_INVALID_HANDLE,
	       "aclrtDestroyStream of a destroyed stream -> ACL_ERROR_RT_INVALID_HANDLE");
	c = hcclt_obj_alloc();
	d = hcclt_obj_alloc();
	tap_ok((void *)c == (void *)a && (void *)d == (void *)b,
	       "the next creates reuse them, oldest first");
	tap_ok(!hcclt_comm_get(c) && !hcclt_stream_get((aclrtStream)c),
	       "a reused struct is refused until its maker publishes it");
	hcclt_obj_free(c);
	hcclt_obj_free(d);
}

/*
 * Of two destroys of one handle only one may give the struct back (queued
 * twice, the next two creates would share it): each destroy first claims
 * the live magic, and only one claim succeeds. (The race itself, two
 * threads between the lookup and the give-back, is too narrow to hit on
 * purpose.)
 */
static void test_destroy_claim(void)
{
	struct hcclt_comm *c = hcclt_obj_alloc();
	int claims;

	atomic_store(&c->magic, HCCLT_COMM_MAGIC);
	claims = hcclt_obj_claim(&c->magic, HCCLT_COMM_MAGIC);
	TAP_EQ(atomic_load(&c->magic), HCCLT_DEAD_MAGIC, "a claimed comm is dead at once");
	claims += hcclt_obj_claim(&c->magic, HCCLT_COMM_MAGIC);
	TAP_EQ(claims, 1, "a live handle is claimed for its destroy once");
	TAP_EQ(hcclt_obj_claim(&c->magic, HCCLT_STREAM_MAGIC), 0,
	       "a comm cannot be claimed as a stream");
	hcclt_obj_free(c);
}

/* Holds reuse_lock for 200 ms, as a create or destroy would for less. */
static atomic_int lock_held;

static void *hold_reuse_lock(void *arg)
{
	(void)arg;
	hcclt_obj_atfork_prepare();
	atomic_store(&lock_held, 1);
	usleep(200000);
	hcclt_obj_atfork_release();
	return NULL;
}

/*
 * fork() while another thread is inside a create or destroy: the child's
 * own creates must not find the reuse queue's lock held forever.
 */
static void test_fork_reuse_lock(void)
{
	pthread_t t;
	int status;
	pid_t pid;

	if (pthread_create(&t, NULL, hold_reuse_lock, NULL)) {
		tap_ok(0, "start a thread");
		return;
	}
	while (!atomic_load(&lock_held))
		usleep(1000);
	pid = fork();
	if (pid == 0) {
		alarm(120);
		hcclt_obj_free(hcclt_obj_alloc());
		_exit(0);
	}
	waitpid(pid, &status, 0);
	pthread_join(t, NULL);
	TAP_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 0,
	       "fork() while another thread holds the reuse queue: the child can create");
}

/* Child: exit with the number of devices HCCLT_DEVICE lists. */
static int devcount_child(void)
{
	uint32_t n = 0;

	return hccltGetDeviceCount(&n) == ACL_SUCCESS ? (int)n : 100;
}

/*
 * HCCLT_DEVICE numbering: empty entries are skipped, an entry too long for
 * a node path still takes its number (hcclthread-smi numbers it the same).
 */
static void test_device_list(const char *self)
{
	char env[256];
	int status;
	pid_t pid;

	snprintf(env, sizeof(env), "/nonexistent/a::/nonexistent/%0100d:/nonexistent/b:", 0);
	pid = fork();
	if (pid == 0) {
		setenv("HCCLT_DEVICE", env, 1);
		execl(self, self, "--devcount", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	TAP_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 3,
	       "HCCLT_DEVICE a::<100-byte path>:b: -> 3 devices (empties skipped, a long entry keeps its number)");
}

/* Multi-rank calls without a device: the current device is checked first. */
static void test_group_checks(void)
{
	struct hcclt_comm good = fake_comm(0), bad = fake_comm(0);
	HcclRootInfo root;
	HcclCommConfig cfg;
	HcclComm comm = NULL;
	char name[128];
	uint32_t v = 77;

	bad.magic = 7;
	good.rank = 3;
	good.nranks = 8;
	strcpy(good.name, "hcclt_1_0_1");
	TAP_EQ(HcclGetRootInfo(&root), HCCL_E_RUNTIME, "HcclGetRootInfo without a device -> HCCL_E_RUNTIME");
	TAP_EQ(HcclGetRootInfo(NULL), HCCL_E_RUNTIME, "HcclGetRootInfo(NULL) without a device: the device first");
	TAP_EQ(HcclCommInitRootInfo(0, NULL, 0, NULL), HCCL_E_RUNTIME,
	       "HcclCommInitRootInfo without a device -> HCCL_E_RUNTIME before the arguments");
	TAP_EQ(HcclCommInitRootInfoConfig(0, NULL, 0, NULL, NULL), HCCL_E_RUNTIME,
	       "HcclCommInitRootInfoConfig without a device -> HCCL_E_RUNTIME");
	TAP_EQ(HcclGetRankSize(NULL, &v), HCCL_E_PTR, "HcclGetRankSize(NULL comm) -> HCCL_E_PTR");
	TAP_EQ(HcclGetRankSize(&good, NULL), HCCL_E_PTR, "HcclGetRankSize(NULL out) -> HCCL_E_PTR");
	TAP_EQ(HcclGetRankSize(&bad, &v), HCCL_E_PTR, "HcclGetRankSize(garbage) -> HCCL_E_PTR");
	TAP_EQ(HcclGetRankSize(&good, &v), HCCL_SUCCESS, "HcclGetRankSize");
	TAP_EQ(v, 8, "HcclGetRankSize gives the group's size");
	TAP_EQ(HcclGetRankId(NULL, &v), HCCL_E_PTR, "HcclGetRankId(NULL comm) -> HCCL_E_PTR");
	TAP_EQ(HcclGetRankId(&good, NULL), HCCL_E_PTR, "HcclGetRankId(NULL out) -> HCCL_E_PTR");
	TAP_EQ(HcclGetRankId(&bad, &v), HCCL_E_PTR, "HcclGetRankId(garbage) -> HCCL_E_PTR");
	TAP_EQ(HcclGetRankId(&good, &v), HCCL_SUCCESS, "HcclGetRankId");
	TAP_EQ(v, 3, "HcclGetRankId gives the rank");
	TAP_EQ(HcclGetCommName(NULL, name), HCCL_E_PTR, "HcclGetCommName(NULL comm) -> HCCL_E_PTR");
	TAP_EQ(HcclGetCommName(&good, NULL), HCCL_E_PTR, "HcclGetCommName(NULL out) -> HCCL_E_PTR");
	TAP_EQ(HcclGetCommName(&bad, name), HCCL_E_PTR, "HcclGetCommName(garbage) -> HCCL_E_PTR");
	TAP_EQ(HcclGetCommName(&good, name), HCCL_SUCCESS, "HcclGetCommName");
	tap_ok(!strcmp(name, "hcclt_1_0_1"), "HcclGetCommName copies the name");
	memset(&cfg, 0x5a, sizeof(cfg));
	HcclCommConfigInit(&cfg);
	HcclCommConfigInit(NULL);
	tap_ok(*(size_t *)(void *)cfg.reserved == sizeof(cfg) && sizeof(cfg) == 2240,
	       "HcclCommConfigInit: header size 2240");
	tap_ok(*(uint32_t *)(void *)(cfg.reserved + 8) == 0xf0f0f0f0U &&
	       *(uint32_t *)(void *)(cfg.reserved + 12) == 10,
	       "HcclCommConfigInit: magic 0xf0f0f0f0, version 10");
	tap_ok(cfg.hcclBufferSize == 0xffffffffU && cfg.hcclCommName[0] == '\0' &&
	       cfg.hcclExecTimeOut == -1 && cfg.aclGraphZeroCopyEnable == 0 &&
	       cfg.hcclSymWinMaxMemSizePerRank == 16,
	       "HcclCommConfigInit: fields not set");
	tap_ok(comm == NULL, "nothing made");
}

static void test_config_capability(void)
{
	TAP_EQ(HcclGetCommConfigCapability(), HCCL_COMM_CONFIG_OP_EXPANSION_MODE,
	       "HcclGetCommConfigCapability: buffer size, deterministic and name (3)");
	tap_ok(HcclGetCommConfigCapability() > HCCL_COMM_CONFIG_COMM_NAME &&
	       !(HcclGetCommConfigCapability() > HCCL_COMM_CONFIG_OP_EXPANSION_MODE),
	       "... CANN's test: > HCCL_COMM_CONFIG_COMM_NAME, not > OP_EXPANSION_MODE");
}

/* HcclCommActivateCommMemory and co.: the checks that need no device memory. */
static void test_commmem_checks(void)
{
	struct hcclt_comm good = fake_comm(0), bad = fake_comm(0);
	void *ptrs[2];
	size_t sizes[2];
	uint32_t n = 9;
	char host[64];

	bad.magic = 7;
	/* CANN checks comm, virPtr, handle. */
	TAP_EQ(HcclCommActivateCommMemory(NULL, host, 8, 0, host, 0), HCCL_E_PTR, "Activate(comm NULL) -> HCCL_E_PTR");
	TAP_EQ(HcclCommActivateCommMemory(&bad, host, 8, 0, host, 0), HCCL_E_PTR, "Activate(garbage comm) -> HCCL_E_PTR");
	TAP_EQ(HcclCommActivateCommMemory(&good, NULL, 0, 1, NULL, 1), HCCL_E_PTR, "Activate(virPtr NULL) -> HCCL_E_PTR first");
	TAP_EQ(HcclCommActivateCommMemory(&good, host, 0, 1, NULL, 1), HCCL_E_PTR, "Activate(handle NULL) -> HCCL_E_PTR before the sizes");
	TAP_EQ(HcclCommActivateCommMemory(&good, host, 0, 0, host, 0), HCCL_E_PARA, "Activate(size 0) -> HCCL_E_PARA");
	TAP_EQ(HcclCommActivateCommMemory(&good, host, 8, 1, host, 0), HCCL_E_PARA, "Activate(offset 1) -> HCCL_E_PARA");
	TAP_EQ(HcclCommActivateCommMemory(&good, host, 8, 0, host, 1), HCCL_E_PARA, "Activate(flags 1) -> HCCL_E_PARA");
	TAP_EQ(HcclCommActivateCommMemory(&good, host, 8, 0, host, 0), HCCL_E_PARA,
	       "Activate(host memory) -> HCCL_E_PARA: device memory of the communicator only");
	TAP_EQ(HcclCommActivateCommMemory(&good, (void *)(UINTPTR_MAX - 3), 8, 0, host, 0), HCCL_E_PARA,
	       "Activate(a range past the address space) -> HCCL_E_PARA");
	TAP_EQ(HcclCommDeactivateCommMemory(NULL, host), HCCL_E_PTR, "Deactivate(comm NULL) -> HCCL_E_PTR");
	TAP_EQ(HcclCommDeactivateCommMemory(&good, NULL), HCCL_E_PTR, "Deactivate(virPtr NULL) -> HCCL_E_PTR");
	TAP_EQ(HcclCommDeactivateCommMemory(&bad, host), HCCL_E_PTR, "Deactivate(garbage comm) -> HCCL_E_PTR");
	TAP_EQ(HcclCommDeactivateCommMemory(&good, host), HCCL_E_PARA, "Deactivate(never activated) -> HCCL_E_PARA");
	TAP_EQ(hccltCommListCommMemory(&good, ptrs, sizes, 2, NULL), HCCL_E_PTR, "hccltCommListCommMemory(count NULL) -> HCCL_E_PTR");
	TAP_EQ(hccltCommListCommMemory(&good, NULL, sizes, 2, &n), HCCL_E_PTR, "hccltCommListCommMemory(ptrs NULL, max 2) -> HCCL_E_PTR");
	TAP_EQ(hccltCommListCommMemory(&bad, ptrs, sizes, 2, &n), HCCL_E_PTR, "hccltCommListCommMemory(garbage) -> HCCL_E_PTR");
	TAP_EQ(hccltCommListCommMemory(&good, NULL, NULL, 0, &n), HCCL_SUCCESS, "hccltCommListCommMemory(max 0)");
	TAP_EQ(n, 0, "... nothing activated");
}

/* ---- rank tables (ranktable.c), without a device ---------------------- */

static void test_sha256(void)
{
	static const struct {
		const char *in;
		const char *hex;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	uint8_t d[32];
	char hex[65];
	char *a;
	size_t i;
	int k;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hcclt_sha256(v[i].in, strlen(v[i].in), d);
		for (k = 0; k < 32; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		tap_ok(!strcmp(hex, v[i].hex), "SHA-256 of a %zu-byte message (FIPS 180-4 example)",
		       strlen(v[i].in));
	}
	a = malloc(1000000);
	if (a) {
		memset(a, 'a', 1000000);
		hcclt_sha256(a, 1000000, d);
		for (k = 0; k < 32; k++)
			snprintf(hex + 2 * k, 3, "%02x", d[k]);
		tap_ok(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
		       "SHA-256 of a million 'a'");
		free(a);
	}
}

static char rt_dir[64];

/* Write @text (with ' for ") to @name in rt_dir; the path (static). */
static const char *rt_file(const char *name, const char *text)
{
	static char path[128];
	FILE *f;
	const char *p;

	snprintf(path, sizeof(path), "%s/%s", rt_dir, name);
	f = fopen(path, "w");
	if (!f)
		return path;
	for (p = text; *p; p++)
		fputc(*p == '\'' ? '"' : *p, f);
	fclose(f);
	return path;
}

/* Load @path (no wait for "completed"); then check for @rank on @dev of 8. */
static HcclResult rt_path(const char *path, uint32_t rank, int32_t dev, struct hcclt_ranktable *out)
{
	struct hcclt_ranktable rt;
	HcclResult r;

	r = hcclt_ranktable_load(path, hcclt_deadline_ns(0), &rt);
	if (r != HCCL_SUCCESS)
		return r;
	r = hcclt_ranktable_check(&rt, rank, dev, 8);
	if (out && r == HCCL_SUCCESS)
		*out = rt;
	else
		hcclt_ranktable_free(&rt);
	return r;
}

static HcclResult rt_text(const char *text, uint32_t rank, int32_t dev)
{
	return rt_path(rt_file("t.json", text), rank, dev, NULL);
}

/* One server's table around a device list (its entries in ' quotes). */
#define RT1(devs) "{'status':'completed','version':'1.0','server_count':'1'," \
	"'server_list':[{'server_id':'node_0','device':[" devs "]}]}"
#define RT12(devs, more) "{'status':'completed','version':'1.2','server_count':'1'," \
	"'server_list':[{'server_id':'node_0','device':[" devs "]}]" more "}"
#define D(dev, rank) "{'device_id':'" dev "','rank_id':'" rank "'}"

/* Loading: every failure is HCCL_E_INTERNAL, as CANN's API returns it. */
static void test_ranktable_load(void)
{
	struct hcclt_ranktable rt, rt2;
	char longpath[4200];
	uint8_t d[32];
	FILE *f;
	char buf[512];
	size_t n;
	double t0;

	TAP_EQ(rt_path("", 0, 0, NULL), HCCL_E_INTERNAL, "rank table: empty path -> HCCL_E_INTERNAL");
	memset(longpath, 'a', sizeof(longpath));
	longpath[0] = '/';
	strcpy(longpath + 4096 - 5, ".json");
	TAP_EQ(rt_path(longpath, 0, 0, NULL), HCCL_E_INTERNAL, "rank table: a 4,096-byte path -> HCCL_E_INTERNAL");
	TAP_EQ(rt_path("/nonexistent/r.json", 0, 0, NULL), HCCL_E_INTERNAL,
	       "rank table: missing file -> HCCL_E_INTERNAL");
	rt_file("t.txt", RT1(D("0", "0")));
	snprintf(buf, sizeof(buf), "%s/t.txt", rt_dir);
	TAP_EQ(rt_path(buf, 0, 0, NULL), HCCL_E_INTERNAL, "rank table: not a .json path -> HCCL_E_INTERNAL");
	snprintf(buf, sizeof(buf), "%s/dir.json", rt_dir);
	mkdir(buf, 0700);
	TAP_EQ(rt_path(buf, 0, 0, NULL), HCCL_E_INTERNAL, "rank table: a directory -> HCCL_E_INTERNAL");
	TAP_EQ(rt_path("tests/ranktable/truncated.json", 0, 0, NULL), HCCL_E_INTERNAL,
	       "rank table: truncated JSON (sample file) -> HCCL_E_INTERNAL");
	TAP_EQ(rt_path("tests/ranktable/comments.json", 0, 0, NULL), HCCL_E_INTERNAL,
	       "rank table: // comments, as in CANN's annotated samples -> HCCL_E_INTERNAL");
	TAP_EQ(rt_text(RT1(D("0", "0")) "}", 0, 0), HCCL_E_INTERNAL,
	       "rank table: characters after the object -> HCCL_E_INTERNAL");
	TAP_EQ(rt_text(RT1(D("0", "0")) " \n\t\n", 0, 0), HCCL_SUCCESS,
	       "rank table: white space after the object is fine");
	TAP_EQ(rt_text("['status','completed']", 0, 0), HCCL_E_INTERNAL,
	       "rank table: a JSON array -> HCCL_E_INTERNAL");
	TAP_EQ(rt_text("{'version':'1.0','server_list':[]}", 0, 0), HCCL_E_INTERNAL,
	       "rank table: no status -> HCCL_E_INTERNAL (CANN reads it first)");
	TAP_EQ(rt_text("{'status':1,'version':'1.0'}", 0, 0), HCCL_E_INTERNAL,
	       "rank table: status not a string -> HCCL_E_INTERNAL");
	{
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		t0 = ts.tv_sec + ts.tv_nsec / 1e9;
		TAP_EQ(hcclt_ranktable_load("tests/ranktable/initializing.json",
					    hcclt_deadline_ns(1200), &rt), HCCL_E_INTERNAL,
		       "rank table: status 'initializing' until the deadline -> HCCL_E_INTERNAL");
		clock_gettime(CLOCK_MONOTONIC, &ts);
		t0 = ts.tv_sec + ts.tv_nsec / 1e9 - t0;
		tap_ok(t0 >= 1.1 && t0 < 5, "... read again every second until the deadline (%.2f s)", t0);
	}
	/* The identity: the SHA-256 of the file's bytes. */
	TAP_EQ(hcclt_ranktable_load("tests/ranktable/server8_v1.0.json", hcclt_deadline_ns(0), &rt),
	       HCCL_SUCCESS, "rank table: the 8-card sample loads");
	{
		char *all = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&all, &len);

		f = fopen("tests/ranktable/server8_v1.0.json", "r");
		while (f && m && (n = fread(buf, 1, sizeof(buf), f)) > 0)
			fwrite(buf, 1, n, m);
		if (f)
			fclose(f);
		if (m)
			fclose(m);
		hcclt_sha256(all, len, d);
		tap_ok(all && !memcmp(d, rt.digest, 32), "rank table: its identity is the SHA-256 of its %zu bytes", len);
		free(all);
	}
	hcclt_ranktable_free(&rt);
	hcclt_ranktable_load(rt_file("a.json", RT1(D("0", "0") "," D("1", "1"))), hcclt_deadline_ns(0), &rt);
	hcclt_ranktable_load(rt_file("b.json", RT1(D("0", "0") "," D("1", "1"))), hcclt_deadline_ns(0), &rt2);
	tap_ok(!memcmp(rt.digest, rt2.digest, 32), "rank table: the same bytes under another name: the same identity");
	hcclt_ranktable_free(&rt2);
	hcclt_ranktable_load(rt_file("b.json", RT1(D("0", "0") ", " D("1", "1"))), hcclt_deadline_ns(0), &rt2);
	tap_ok(memcmp(rt.digest, rt2.digest, 32) != 0, "rank table: one more space: another identity");
	hcclt_ranktable_free(&rt2);
	hcclt_ranktable_free(&rt);
}

/* Checking: CANN's order and codes. */
static void test_ranktable_check(void)
{
	struct hcclt_ranktable rt;
	char big[256];

	TAP_EQ(rt_path("tests/ranktable/server8_v1.0.json", 5, 5, &rt), HCCL_SUCCESS,
	       "rank table 1.0, 8 cards (sample): rank 5 on device 5");
	tap_ok(rt.nranks == 8 && rt.dev[0] == 0 && rt.dev[7] == 7, "... 8 ranks, rank r on device r");
	hcclt_ranktable_free(&rt);
	TAP_EQ(rt_path("tests/ranktable/server4_v1.2.json", 0, 3, &rt), HCCL_SUCCESS,
	       "rank table 1.2 with super_pod_list (sample): rank 0 on device 3");
	tap_ok(rt.nranks == 4 && rt.dev[0] == 3 && rt.dev[3] == 0, "... 4 ranks, by rank_id, not by listing");
	hcclt_ranktable_free(&rt);
	TAP_EQ(rt_path("tests/ranktable/numbers.json", 0, 0, NULL), HCCL_E_PARA,
	       "numbers instead of strings (sample) -> HCCL_E_PARA, as CANN");
	TAP_EQ(rt_path("tests/ranktable/two_servers_v1.0.json", 0, 0, NULL), HCCL_E_NOT_SUPPORT,
	       "two servers (sample, CANN's A2 example) -> HCCL_E_NOT_SUPPORT, not yet");
	TAP_EQ(rt_text(RT1(D("0", "0") "," D("1", "1")), 1, 0), HCCL_E_UNAVAIL,
	       "rank 1 is on device 1, the current device is 0 -> HCCL_E_UNAVAIL (CANN)");
	/* version */
	TAP_EQ(rt_text("{'status':'completed','server_list':[]}", 0, 0), HCCL_E_NOT_SUPPORT,
	       "no version (the older format) -> HCCL_E_NOT_SUPPORT");
	TAP_EQ(rt_text("{'status':'completed','version':1.0}", 0, 0), HCCL_E_PARA,
	       "version not a string -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.1','server_list':[]}", 0, 0), HCCL_E_NOT_SUPPORT,
	       "version 1.1 (heterogeneous) -> HCCL_E_NOT_SUPPORT, as CANN does for unknown ones");
	/* server_list, server_count */
	TAP_EQ(rt_text("{'status':'completed','version':'1.0'}", 0, 0), HCCL_E_NOT_FOUND,
	       "no server_list -> HCCL_E_NOT_FOUND (CANN's code)");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[]}", 0, 0), HCCL_E_PARA,
	       "empty server_list -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':{}}", 0, 0), HCCL_E_PARA,
	       "server_list an object -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_count':'2',"
		       "'server_list':[{'server_id':'a','device':[" D("0", "0") "]}]}", 0, 0), HCCL_E_PARA,
	       "server_count 2, one server -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_count':'x',"
		       "'server_list':[{'server_id':'a','device':[" D("0", "0") "]}]}", 0, 0), HCCL_E_PARA,
	       "server_count not a number -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0',"
		       "'server_list':[{'server_id':'a','device':[" D("0", "0") "]}]}", 0, 0), HCCL_SUCCESS,
	       "no server_count: server_list's length (CANN)");
	/* servers */
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'device':[" D("0", "0") "]}]}", 0, 0),
	       HCCL_E_NOT_FOUND, "a server without server_id -> HCCL_E_NOT_FOUND");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'server_id':'','device':[" D("0", "0") "]}]}", 0, 0),
	       HCCL_E_PARA, "an empty server_id -> HCCL_E_PARA");
	snprintf(big, sizeof(big), "{'status':'completed','version':'1.0','server_list':[{'server_id':'%065d',"
		 "'device':[" D("0", "0") "]}]}", 0);
	TAP_EQ(rt_text(big, 0, 0), HCCL_E_PARA, "a 65-character server_id -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'server_id':'a','host_ip':'10.0.0.1',"
		       "'device':[" D("0", "0") "]},{'server_id':'a','device':[" D("1", "1") "]}]}", 0, 0), HCCL_E_PARA,
	       "a server_id twice -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'server_id':'a','host_ip':'10.0.0',"
		       "'device':[" D("0", "0") "]}]}", 0, 0), HCCL_E_PARA, "host_ip not an address -> HCCL_E_PARA");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'server_id':'a'}]}", 0, 0),
	       HCCL_E_NOT_FOUND, "a server without device -> HCCL_E_NOT_FOUND");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'server_id':'a','device':[]}]}", 0, 0),
	       HCCL_E_PARA, "an empty device list -> HCCL_E_PARA");
	/* devices */
	TAP_EQ(rt_text(RT1("{'device_id':'0'}"), 0, 0), HCCL_E_NOT_FOUND, "a device without rank_id -> HCCL_E_NOT_FOUND");
	TAP_EQ(rt_text(RT1("{'rank_id':'0'}"), 0, 0), HCCL_E_NOT_FOUND, "a device without device_id -> HCCL_E_NOT_FOUND");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':0}"), 0, 0), HCCL_E_PARA, "rank_id a number -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1(D("8", "0")), 0, 0), HCCL_E_PARA, "device_id 8 on a machine of 8 cards -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1(D("-1", "0")), 0, 0), HCCL_E_PARA, "device_id -1 -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1(D("0", "0") "," D("0", "1")), 0, 0), HCCL_E_PARA,
	       "device_id 0 twice on the server -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':'0','device_ip':'192.168.1'}"), 0, 0), HCCL_E_PARA,
	       "device_ip not an address -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':'0','device_ip':'10.0.0.1'},"
			   "{'device_id':'1','rank_id':'1','device_ip':'10.0.0.1'}"), 0, 0), HCCL_E_PARA,
	       "a device_ip twice -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':'0','device_ip':'10.0.0.1,fe80::1'},"
			   "{'device_id':'1','rank_id':'1','device_ip':'10.0.0.2'}"), 0, 0), HCCL_E_PARA,
	       "two addresses on one rank, one on another -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':'0','device_ip':'10.0.0.1,fe80::1'},"
			   "{'device_id':'1','rank_id':'1','device_ip':'10.0.0.2,fe80::2'}"), 0, 0), HCCL_SUCCESS,
	       "two addresses (v4 and v6) on each rank");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':'0','device_port':'0'}"), 0, 0), HCCL_E_PARA,
	       "device_port 0 (reserved) -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':'0','host_port':'65536'}"), 0, 0), HCCL_E_PARA,
	       "host_port 65536 -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1("{'device_id':'0','rank_id':'x'}"), 0, 0), HCCL_E_PARA, "rank_id 'x' -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT12("{'device_id':'0','rank_id':'0','super_device_id':'s'}", ""), 0, 0), HCCL_E_PARA,
	       "1.2: super_device_id not a number -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT12(D("0", "0"), ",'super_pod_list':[{'super_pod_id':'0','server_list':[{'server_id':'x'}]}]"),
		       0, 0), HCCL_E_NOT_FOUND, "1.2: super_pod_list names a server not in server_list -> HCCL_E_NOT_FOUND");
	TAP_EQ(rt_text(RT12(D("0", "0"), ",'super_pod_list':[{'super_pod_id':'0'}]"), 0, 0), HCCL_E_NOT_FOUND,
	       "1.2: a super pod without server_list -> HCCL_E_NOT_FOUND");
	/* servers */
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'server_id':'a','device':[" D("0", "0") "]},"
		       "{'server_id':'b','device':[" D("0", "1") "]}]}", 0, 0), HCCL_E_PARA,
	       "two servers without device_ip -> HCCL_E_PARA (CANN needs addresses there)");
	/* ranks, in CANN's order */
	TAP_EQ(rt_text(RT1(D("0", "0") "," D("1", "1")), 2, 0), HCCL_E_PARA, "rank 2 of a 2-rank table -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1(D("0", "0") "," D("1", "2")), 1, 1), HCCL_E_UNAVAIL,
	       "rank 1 where the sorted table has rank_id 2 -> HCCL_E_UNAVAIL (CANN)");
	TAP_EQ(rt_text(RT1(D("0", "0") "," D("1", "2")), 0, 0), HCCL_E_PARA,
	       "rank_id 0 and 2: not dense -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1(D("0", "0") "," D("1", "0")), 0, 0), HCCL_E_PARA,
	       "rank_id 0 twice -> HCCL_E_PARA");
	TAP_EQ(rt_text(RT1(D("0", "0") "," D("1", "2")), 0, 1), HCCL_E_UNAVAIL,
	       "the wrong device comes before the density check (HCCL_E_UNAVAIL)");
	TAP_EQ(rt_text("{'status':'completed','version':'1.0','server_list':[{'server_id':'a','device':[{'device_id':'0','rank_id':'0','device_ip':'1.1.1.1'}]},"
		       "{'server_id':'b','device':[{'device_id':'0','rank_id':'0','device_ip':'1.1.1.2'}]}]}", 0, 0),
	       HCCL_E_NOT_SUPPORT, "two servers come before the ranks (HCCL_E_NOT_SUPPORT)");
	TAP_EQ(rt_text(RT1(D("1", "1") "," D("0", "0")), 0, 0), HCCL_SUCCESS, "ranks in any order in the file");
}

/* HcclCommInitClusterInfo[Config] without a device: the device first. */
static void test_cluster_checks(void)
{
	HcclComm c = NULL;

	TAP_EQ(HcclCommInitClusterInfo(NULL, 0, NULL), HCCL_E_RUNTIME,
	       "HcclCommInitClusterInfo without a device -> HCCL_E_RUNTIME before the arguments");
	TAP_EQ(HcclCommInitClusterInfoConfig(NULL, 0, NULL, NULL), HCCL_E_RUNTIME,
	       "HcclCommInitClusterInfoConfig without a device -> HCCL_E_RUNTIME");
	TAP_EQ(HcclCommInitClusterInfo("tests/ranktable/server8_v1.0.json", 0, &c), HCCL_E_RUNTIME,
	       "HcclCommInitClusterInfo of a good table without a device -> HCCL_E_RUNTIME");
	tap_ok(c == NULL, "no communicator");
}

/* The config's checks CANN makes (hcclt_config_load). */
static void test_config_load(void)
{
	HcclCommConfig cfg;
	uint64_t bs = 0;
	const char *nm = NULL;

	HcclCommConfigInit(&cfg);
	cfg.hcclDeterministic = 1;
	TAP_EQ(hcclt_config_load(&cfg, &bs, &nm), HCCL_SUCCESS, "config: hcclDeterministic 1");
	cfg.hcclDeterministic = 3;
	TAP_EQ(hcclt_config_load(&cfg, &bs, &nm), HCCL_E_PARA, "config: hcclDeterministic 3 -> HCCL_E_PARA (CANN)");
	cfg.hcclDeterministic = 2;
	TAP_EQ(hcclt_config_load(&cfg, &bs, &nm), HCCL_E_PARA,
	       "config: hcclDeterministic 2 (strict) on an A3 (sim_soc Ascend910_9391) -> HCCL_E_PARA (CANN: A2 only)");
}

static void test_ranktable(void)
{
	char tmpl[] = "/tmp/hcclt-unit-rt.XXXXXX";
	char cmd[128];

	if (!mkdtemp(tmpl)) {
		tap_ok(0, "mkdtemp for the rank tables");
		return;
	}
	snprintf(rt_dir, sizeof(rt_dir), "%s", tmpl);
	test_sha256();
	test_ranktable_load();
	test_ranktable_check();
	test_cluster_checks();
	test_config_load();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", rt_dir);
	if (system(cmd))
		printf("# could not remove %s\n", rt_dir);
}

static void test_acl_init(void)
{
	uint32_t n = 0;
	const char *soc;

	TAP_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize before aclInit -> ACL_ERROR_REPEAT_FINALIZE");
	TAP_EQ(aclInit("/nonexistent/acl.json"), ACL_ERROR_INVALID_FILE, "aclInit of a missing file -> ACL_ERROR_INVALID_FILE");
	TAP_EQ(aclInit(NULL), ACL_SUCCESS, "aclInit(NULL)");
	TAP_EQ(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "aclInit again -> ACL_ERROR_REPEAT_INITIALIZE");
	TAP_EQ(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "and again");
	TAP_EQ(aclFinalize(), ACL_SUCCESS, "one aclFinalize undoes them all");
	TAP_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, "aclFinalize again -> ACL_ERROR_REPEAT_FINALIZE");
	TAP_EQ(aclInit(NULL), ACL_SUCCESS, "aclInit after aclFinalize");
	TAP_EQ(aclFinalize(), ACL_SUCCESS, "aclFinalize");
	TAP_EQ(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS, "aclrtGetDeviceCount");
	TAP_EQ(n, 2, "aclrtGetDeviceCount: the two nodes of HCCLT_DEVICE");
	TAP_EQ(aclrtGetStreamAvailableNum(NULL), ACL_ERROR_INVALID_PARAM,
	       "aclrtGetStreamAvailableNum(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtGetStreamAvailableNum(&n), ACL_ERROR_RT_CONTEXT_NULL,
	       "aclrtGetStreamAvailableNum without a device -> ACL_ERROR_RT_CONTEXT_NULL");
	soc = aclrtGetSocName();
	tap_ok(soc && !strcmp(soc, "Ascend910_9391"), "aclrtGetSocName reads the driver's sim_soc");
}

/* ---- issue 30 item 4: memory info, modes, virtual memory, profiling ---- */

static void test_new_values(void)
{
	TAP_EQ(ACL_CONTINUE_ON_FAILURE, 0, "ACL_CONTINUE_ON_FAILURE is 0");
	TAP_EQ(ACL_STOP_ON_FAILURE, 1, "ACL_STOP_ON_FAILURE is 1");
	TAP_EQ(ACL_ERROR_RT_STREAM_CONTEXT, 107003, "ACL_ERROR_RT_STREAM_CONTEXT is 107003");
	TAP_EQ(ACL_ERROR_RT_INVALID_MEMORY_TYPE, 107016, "ACL_ERROR_RT_INVALID_MEMORY_TYPE is 107016");
	TAP_EQ(ACL_HBM_MEM_HUGE, 4, "ACL_HBM_MEM_HUGE is 4");
	TAP_EQ(ACL_HBM_MEM_HUGE1G, 10, "ACL_HBM_MEM_HUGE1G is 10");
	TAP_EQ(ACL_HBM_MEM_P2P_HUGE1G, 11, "ACL_HBM_MEM_P2P_HUGE1G is 11");
	TAP_EQ(ACL_MEM_P2P_HUGE1G, 17, "ACL_MEM_P2P_HUGE1G is 17");
	TAP_EQ(ACL_RT_OVERFLOW_MODE_INFNAN, 1, "ACL_RT_OVERFLOW_MODE_INFNAN is 1");
	TAP_EQ(ACL_RT_OVERFLOW_MODE_UNDEF, 2, "ACL_RT_OVERFLOW_MODE_UNDEF is 2");
	TAP_EQ(ACL_MEM_LOCATION_TYPE_HOST_NUMA, 4, "ACL_MEM_LOCATION_TYPE_HOST_NUMA is 4");
	TAP_EQ(ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, 0xFFFF, "ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF is 0xFFFF");
	TAP_EQ(offsetof(aclrtPhysicalMemProp, location), 12, "aclrtPhysicalMemProp.location at 12");
	TAP_EQ(offsetof(aclrtPhysicalMemProp, reserve), 24, "aclrtPhysicalMemProp.reserve at 24");
	TAP_EQ(sizeof(aclrtPhysicalMemProp), 32, "aclrtPhysicalMemProp is 32 bytes");
	TAP_EQ(ACL_PROF_HCCL_TRACE, 0x20, "ACL_PROF_HCCL_TRACE is 0x20");
	TAP_EQ(ACL_PROF_GE_API_L1, 0x01000000, "ACL_PROF_GE_API_L1 is 0x01000000");
	TAP_EQ(ACL_AICORE_NONE, 0xFF, "ACL_AICORE_NONE is 0xFF");
	TAP_EQ(ACL_ERROR_PROF_NOT_RUN, 100043, "ACL_ERROR_PROF_NOT_RUN is 100043");
	TAP_EQ(ACL_ERROR_PROFILING_FAILURE, 500005, "ACL_ERROR_PROFILING_FAILURE is 500005");
}

static void test_new_errmap(void)
{
	static const struct { enum hcclt_op op; int err; int32_t want; const char *what; } rows[] = {
		{ HCCLT_OP_SET_PARAM, -EBUSY, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "set param -EBUSY (stop is final) -> FEATURE_NOT_SUPPORT" },
		{ HCCLT_OP_SET_PARAM, -EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "set param -EINVAL (driver before 1.8) -> FEATURE_NOT_SUPPORT" },
		{ HCCLT_OP_SET_PARAM, -ENOENT, ACL_ERROR_RT_INVALID_HANDLE, "set param -ENOENT -> INVALID_HANDLE" },
		{ HCCLT_OP_SET_PARAM, -EXDEV, ACL_ERROR_RT_INTERNAL_ERROR, "set param undocumented errno -> ACL_ERROR_RT_INTERNAL_ERROR" },
		{ HCCLT_OP_EVENT_RESET, -EINVAL, ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "event reset -EINVAL (driver before 1.8) -> FEATURE_NOT_SUPPORT" },
		{ HCCLT_OP_EVENT_RESET, -ECANCELED, ACL_ERROR_RT_STREAM_ABORT, "event reset on a stopped stream -> STREAM_ABORT" },
		{ HCCLT_OP_EVENT, -ECANCELED, ACL_ERROR_RT_STREAM_ABORT, "event task on a stopped stream -> STREAM_ABORT" },
		{ HCCLT_OP_MEMCPY_ASYNC, -ECANCELED, ACL_ERROR_RT_STREAM_ABORT, "memcpy async on a stopped stream -> STREAM_ABORT" },
		{ HCCLT_OP_LAUNCH, -ECANCELED, ACL_ERROR_RT_STREAM_ABORT, "launch on a stopped stream -> STREAM_ABORT" },
		{ HCCLT_OP_STREAM_FENCE, -ECANCELED, ACL_ERROR_RT_STREAM_ABORT, "stream fence on a stopped stream -> STREAM_ABORT" },
		{ HCCLT_OP_RECORD, -ECANCELED, HCCL_E_RUNTIME, "record on a stopped stream -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_WAIT, -ECANCELED, HCCL_E_RUNTIME, "wait on a stopped stream -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_DATA_TASK, -ECANCELED, HCCL_E_RUNTIME, "data task on a stopped stream -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_MEM_REG, -EEXIST, HCCL_E_PARA, "mem reg: the tag registered -> HCCL_E_PARA" },
		{ HCCLT_OP_MEM_REG, -ENOSPC, HCCL_E_UNAVAIL, "mem reg: 256 ranges -> HCCL_E_UNAVAIL" },
		{ HCCLT_OP_MEM_REG, -ERANGE, HCCL_E_PARA, "mem reg: outside the object -> HCCL_E_PARA" },
		{ HCCLT_OP_CHANNEL_MEMS, -ECONNRESET, HCCL_E_REMOTE, "channel mems: peer gone -> HCCL_E_REMOTE" },
		{ HCCLT_OP_CHANNEL_MEMS, -ENOENT, HCCL_E_PARA, "channel mems: not a channel -> HCCL_E_PARA" },
		{ HCCLT_OP_CHANNEL_TASK, -ECANCELED, HCCL_E_RUNTIME, "channel task on a stopped stream -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_BATCH, -ECANCELED, HCCL_E_RUNTIME, "batch on a stopped stream -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_ACL_NOTIFY_TASK, -ECANCELED, HCCL_E_RUNTIME, "ACL notify task on a stopped stream -> HCCL_E_RUNTIME" },
		{ HCCLT_OP_THREAD_FENCE, -ECANCELED, HCCL_E_RUNTIME, "thread fence on a stopped stream -> HCCL_E_RUNTIME" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		TAP_EQ(hcclt_map_errno(rows[i].op, rows[i].err), rows[i].want, "errno map: %s", rows[i].what);
}

/* A live-looking event struct (the layout of a stream, event magic). */
static struct hcclt_stream fake_event(int dev)
{
	struct hcclt_stream e = fake_stream(dev);

	e.magic = HCCLT_EVENT_MAGIC;
	return e;
}

/* hccl/hccl_diag.h: CANN's layout, and the checks made before the device. */
static void test_diag_checks(void)
{
	struct hcclt_comm c = fake_comm(0), bad = fake_comm(0);
	struct HcclDfxOpInfo info;
	uint64_t t0, t1;

	bad.magic = 1;
	TAP_EQ(sizeof(struct HcclDfxOpInfo), 504, "HcclDfxOpInfo: CANN's 504 bytes");
	TAP_EQ(offsetof(struct HcclDfxOpInfo, algTag), 68, "HcclDfxOpInfo.algTag at 68");
	TAP_EQ(offsetof(struct HcclDfxOpInfo, engine), 356, "HcclDfxOpInfo.engine at 356");
	TAP_EQ(offsetof(struct HcclDfxOpInfo, outputMemSize), 400, "HcclDfxOpInfo.outputMemSize at 400");
	TAP_EQ(HCOMM_ALG_TAG_LENGTH, 288, "HCOMM_ALG_TAG_LENGTH 288");
	t0 = HcommGetProfilingSysCycleTime();
	t1 = HcommGetProfilingSysCycleTime();
	tap_ok(t0 && t1 >= t0, "HcommGetProfilingSysCycleTime: a monotonic clock");
	memset(&info, 0, sizeof(info));
	TAP_EQ(HcclDfxRegOpInfoByCommId(NULL, &info), HCCL_E_PTR, "RegOpInfo: commId NULL -> HCCL_E_PTR");
	TAP_EQ(HcclDfxRegOpInfoByCommId((char *)"c", &info), HCCL_E_RUNTIME,
	       "RegOpInfo: no current device -> HCCL_E_RUNTIME");
	TAP_EQ(HcclDfxRegOpInfoByCommId(NULL, NULL), HCCL_E_PTR, "RegOpInfo order: commId first");
	TAP_EQ(HcclProfilingReportOp(NULL, 0), HCCL_E_PTR, "ReportOp: comm NULL -> HCCL_E_PTR");
	TAP_EQ(HcclProfilingReportOp(&bad, 0), HCCL_E_PTR, "ReportOp: not a communicator -> HCCL_E_PTR");
	TAP_EQ(HcclReportAicpuKernel(NULL, 0, (char *)"k"), HCCL_E_PTR, "ReportAicpuKernel: comm NULL");
	TAP_EQ(HcclReportAicpuKernel(&c, 0, NULL), HCCL_E_PTR, "ReportAicpuKernel: name NULL");
	TAP_EQ(HcclReportAicpuKernel(&bad, 0, (char *)"k"), HCCL_E_PTR, "ReportAicpuKernel: not a communicator");
	TAP_EQ(HcclReportAivKernel(NULL, 0), HCCL_E_PTR, "ReportAivKernel: comm NULL");
	TAP_EQ(HcclReportAivKernel(&bad, 0), HCCL_E_PTR, "ReportAivKernel: not a communicator");
}

/* hcomm fidelity on A2/A3 (the host's SoC file names none: not a 950). */
static void test_fidelity_a2(void)
{
	struct hcclt_comm c = fake_comm(0);
	CommLink *links = (CommLink *)&c;
	char src[64] = "";
	uint32_t nl = 7;
	uint64_t sz;
	void *p;

	c.nranks = 2;
	TAP_EQ(HcclEngineCtxGet(&c, "none", COMM_ENGINE_CPU, &p, &sz), HCCL_E_PARA,
	       "A2: HcclEngineCtxGet of none -> HCCL_E_PARA");
	TAP_EQ(HcclEngineCtxCopy(&c, COMM_ENGINE_CPU, "none", src, 1, 0), HCCL_E_PARA,
	       "A2: HcclEngineCtxCopy to none -> HCCL_E_PARA");
	TAP_EQ(HcclEngineCtxCreate(&c, "t", COMM_ENGINE_CPU, 16, &p), HCCL_SUCCESS, "A2: a CPU context of 16 bytes");
	TAP_EQ(HcclEngineCtxCopy(&c, COMM_ENGINE_CPU, "t", src, 17, 0), HCCL_E_PARA,
	       "HcclEngineCtxCopy past the end -> HCCL_E_PARA (our check on A2/A3, hcomm's on 950)");
	TAP_EQ(HcclEngineCtxCopy(&c, COMM_ENGINE_CPU, "t", src, 1, UINT64_MAX), HCCL_E_PARA,
	       "HcclEngineCtxCopy: an offset that wraps -> HCCL_E_PARA");
	TAP_EQ(HcclEngineCtxCopy(&c, COMM_ENGINE_CPU, "t", src, 16, 0), HCCL_SUCCESS, "HcclEngineCtxCopy of 16");
	TAP_EQ(HcclEngineCtxDestroy(&c, "t", COMM_ENGINE_CPU), HCCL_SUCCESS, "destroy it");
	TAP_EQ(HcclRankGraphGetLinks(&c, 1, 0, 1, &links, &nl), HCCL_SUCCESS, "A2: links in layer 1");
	tap_ok(nl == 0 && !links, "A2: none (no second server)");
	TAP_EQ(HcclRankGraphGetLinks(&c, 3, 0, 1, &links, &nl), HCCL_E_PARA, "A2: layer 3 -> HCCL_E_PARA");
	TAP_EQ(HcclRankGraphGetLinks(&c, 3, 0, 2, &links, &nl), HCCL_E_PARA, "A2: rank 2 of 2 -> HCCL_E_PARA");
	nl = 7;
	TAP_EQ(HcclRankGraphGetLinks(&c, 0, 1, 1, &links, &nl), HCCL_SUCCESS, "A2: a rank to itself");
	TAP_EQ(nl, 0, "A2: no links");
	{
		uint32_t *sizes = NULL, ns = 7;

		TAP_EQ(HcclRankGraphGetInstSizeListByLayer(NULL, 0, &sizes, &ns), HCCL_E_PTR,
		       "InstSizeListByLayer: comm NULL");
		TAP_EQ(HcclRankGraphGetInstSizeListByLayer(&c, 0, NULL, &ns), HCCL_E_PTR,
		       "InstSizeListByLayer: list NULL");
		TAP_EQ(HcclRankGraphGetInstSizeListByLayer(&c, 0, &sizes, NULL), HCCL_E_PTR,
		       "InstSizeListByLayer: size NULL");
		TAP_EQ(HcclRankGraphGetInstSizeListByLayer(&c, 1, &sizes, &ns), HCCL_E_PARA,
		       "InstSizeListByLayer: no layer 1 on one server -> HCCL_E_PARA");
		TAP_EQ(HcclRankGraphGetInstSizeListByLayer(&c, 0, &sizes, &ns), HCCL_SUCCESS,
		       "InstSizeListByLayer: layer 0");
		tap_ok(ns == 1 && sizes && sizes[0] == 2, "one server of 2 ranks: [2]");
	}
}

/*
 * A layout of @nranks ranks as GROUP_INFO tells it: rank i on host
 * @host_of(i) (1 or 2: two cluster addresses) and card @card_of(i); asked
 * by @rank. Hosts with @host_servers servers of @per_server cards.
 */
static void topo_make(struct hcclt_topo *t, enum hcclt_topo_soc soc, uint32_t nranks,
		      uint32_t rank, uint32_t per_server, uint32_t host_servers,
		      uint32_t (*host_of)(uint32_t), uint32_t (*card_of)(uint32_t))
{
	uint32_t i;

	memset(t, 0, sizeof(*t));
	t->nranks = nranks;
	t->rank = rank;
	t->soc = soc;
	t->per_server = per_server;
	t->host_servers = host_servers;
	for (i = 0; i < nranks; i++) {
		/* 10.0.0.N:60000, network order, as the driver gives it. */
		t->host[i] = host_of ? (uint64_t)(0x0000000aU | host_of(i) << 24) << 16 | 0x60ea : 0;
		t->card[i] = card_of(i);
	}
}

static uint32_t half_host(uint32_t i) { return i < 8 ? 1 : 2; }
static uint32_t odd_host(uint32_t i) { return i % 2 ? 1 : 2; }
static uint32_t half_card(uint32_t i) { return i % 8; }
static uint32_t odd_card(uint32_t i) { return i / 2; }
static uint32_t quarter_host(uint32_t i) { return i < 16 ? 1 : 2; }
static uint32_t quarter_card(uint32_t i) { return i % 16; }
static uint32_t upper_card(uint32_t i) { return (i + 8) % 16; }

/* Are @n entries of @a i * @step + @first for i = 0 .. @n - 1? */
static int seq(const uint32_t *a, uint32_t n, uint32_t want, uint32_t first, uint32_t step)
{
	uint32_t i;

	if (n != want)
		return 0;
	for (i = 0; i < n; i++)
		if (a[i] != first + i * step)
			return 0;
	return 1;
}

/* The rank graph across hosts (rank_graph.c), from layouts alone. */
static void test_topo_hosts(void)
{
	static const enum hcclt_topo_soc socs[] = { HCCLT_TOPO_A2, HCCLT_TOPO_A3, HCCLT_TOPO_950 };
	static const char *const soc_name[] = { "A2", "A3", "950" };
	static const int32_t pod_proto[] = { COMM_PROTOCOL_ROCE, COMM_PROTOCOL_HCCS,
					     COMM_PROTOCOL_UB_CTP };
	uint32_t r[HCCLT_TOPO_MAX_RANKS], r2[HCCLT_TOPO_MAX_RANKS], sz[HCCLT_TOPO_MAX_RANKS];
	struct hcclt_topo t;
	uint32_t k, n, n2;

	/* 2 hosts x 8 ranks, asked by rank 3 and by rank 12. */
	for (k = 0; k < 3; k++) {
		const char *sn = soc_name[k];
		uint32_t top = socs[k] == HCCLT_TOPO_A2 ? 1 : 2;

		topo_make(&t, socs[k], 16, 3, 0, 1, half_host, half_card);
		TAP_EQ(hcclt_topo_place(&t), 0, "%s, 2 hosts x 8: placed", sn);
		TAP_EQ(t.nlayers, top + 1, "%s, 2 hosts x 8: %u layers", sn, top + 1);
		tap_ok(t.nservers == 2 && t.npods == 2, "%s: 2 servers, 2 hosts", sn);
		n = hcclt_topo_inst(&t, 0, r);
		tap_ok(seq(r, n, 8, 0, 1), "%s: rank 3's layer 0 is ranks 0-7", sn);
		n = hcclt_topo_sizes(&t, 0, sz);
		tap_ok(n == 2 && sz[0] == 8 && sz[1] == 8, "%s: layer 0 sizes [8,8]", sn);
		n = hcclt_topo_inst(&t, top, r);
		tap_ok(seq(r, n, 16, 0, 1), "%s: layer %u is every rank, in rank order", sn, top);
		n = hcclt_topo_sizes(&t, top, sz);
		tap_ok(n == 1 && sz[0] == 16, "%s: layer %u sizes [16]", sn, top);
		TAP_EQ(hcclt_topo_link(&t, top, 3, 12), COMM_PROTOCOL_ROCE,
		       "%s: 3 -> 12 (other host) in layer %u: RoCE", sn, top);
		TAP_EQ(hcclt_topo_link(&t, top, 3, 4), COMM_PROTOCOL_RESERVED,
		       "%s: 3 -> 4 (same server) in layer %u: none", sn, top);
		TAP_EQ(hcclt_topo_link(&t, 0, 3, 12), COMM_PROTOCOL_RESERVED,
		       "%s: 3 -> 12 in layer 0: none", sn);
		TAP_EQ(hcclt_topo_link(&t, 0, 3, 4),
		       socs[k] == HCCLT_TOPO_950 ? COMM_PROTOCOL_UB_CTP : COMM_PROTOCOL_HCCS,
		       "%s: 3 -> 4 in layer 0: the server's protocol", sn);
		TAP_EQ(hcclt_topo_need(&t, 12), COMM_PROTOCOL_ROCE,
		       "%s: a channel to the other host takes RoCE", sn);
		TAP_EQ(hcclt_topo_need(&t, 4), COMM_PROTOCOL_RESERVED,
		       "%s: a channel within the server takes the SoC's choice", sn);
		if (top == 2) {
			/* A superpod per host: hcomm's A3 layer 1 (rank_graph.cc:1047-1063). */
			n = hcclt_topo_inst(&t, 1, r);
			tap_ok(seq(r, n, 8, 0, 1), "%s: layer 1 is the host's superpod, ranks 0-7", sn);
			n = hcclt_topo_sizes(&t, 1, sz);
			tap_ok(n == 2 && sz[0] == 8 && sz[1] == 8, "%s: layer 1 sizes [8,8]", sn);
			TAP_EQ(hcclt_topo_link(&t, 1, 3, 12), COMM_PROTOCOL_RESERVED,
			       "%s: 3 -> 12 in layer 1: none (another superpod)", sn);
			TAP_EQ(hcclt_topo_link(&t, 1, 3, 4), pod_proto[k],
			       "%s: 3 -> 4 in layer 1: the superpod's protocol", sn);
		}
		n = hcclt_topo_inst(&t, top, r);
		topo_make(&t, socs[k], 16, 12, 0, 1, half_host, half_card);
		TAP_EQ(hcclt_topo_place(&t), 0, "%s: placed for rank 12", sn);
		n2 = hcclt_topo_inst(&t, top, r2);
		tap_ok(n == n2 && !memcmp(r, r2, n * sizeof(*r)),
		       "%s: rank 12's top layer in the same order as rank 3's", sn);
		n = hcclt_topo_inst(&t, 0, r);
		tap_ok(seq(r, n, 8, 8, 1), "%s: rank 12's layer 0 is ranks 8-15", sn);
		tap_ok(t.server[12] == 1 && t.server[3] == 0 && t.pod[12] == 1,
		       "%s: the host of rank 0 is server 0 on both", sn);
	}

	/* Hosts taking turns: rank 0's host first, each host's ranks in order. */
	topo_make(&t, HCCLT_TOPO_A2, 16, 5, 0, 1, odd_host, odd_card);
	TAP_EQ(hcclt_topo_place(&t), 0, "A2, ranks alternating between 2 hosts: placed");
	n = hcclt_topo_inst(&t, 0, r);
	tap_ok(seq(r, n, 8, 1, 2), "rank 5's layer 0 is the odd ranks");
	n = hcclt_topo_inst(&t, 1, r);
	tap_ok(n == 16 && seq(r, 8, 8, 0, 2) && seq(r + 8, 8, 8, 1, 2),
	       "layer 1: the even ranks' server (rank 0's) first, then the odd ranks'");
	TAP_EQ(hcclt_topo_link(&t, 1, 5, 6), COMM_PROTOCOL_ROCE, "5 -> 6: RoCE in layer 1");
	TAP_EQ(t.server[5], 1, "rank 5's serverIdx is 1");

	/* 2 hosts x 2 servers x 8 (sim_servers=2 on each). */
	topo_make(&t, HCCLT_TOPO_A3, 32, 9, 8, 2, quarter_host, quarter_card);
	TAP_EQ(hcclt_topo_place(&t), 0, "A3, 2 hosts x 2 servers x 8: placed");
	tap_ok(t.nlayers == 3 && t.nservers == 4 && t.npods == 2, "3 layers, 4 servers, 2 hosts");
	n = hcclt_topo_inst(&t, 0, r);
	tap_ok(seq(r, n, 8, 8, 1), "rank 9's layer 0 is ranks 8-15");
	n = hcclt_topo_inst(&t, 1, r);
	tap_ok(seq(r, n, 16, 0, 1), "rank 9's layer 1 is its host's 16 ranks");
	n = hcclt_topo_sizes(&t, 0, sz);
	tap_ok(n == 4 && sz[0] == 8 && sz[3] == 8, "layer 0 sizes [8,8,8,8]");
	TAP_EQ(hcclt_topo_need(&t, 3), COMM_PROTOCOL_HCCS, "9 -> 3 (other server, same host): HCCS");
	TAP_EQ(hcclt_topo_need(&t, 20), COMM_PROTOCOL_ROCE, "9 -> 20 (other host): RoCE");
	TAP_EQ(hcclt_topo_link(&t, 2, 9, 3), COMM_PROTOCOL_RESERVED, "9 -> 3 in layer 2: none");
	TAP_EQ(t.server[20], 2, "rank 20 (card 4 of the second host) is on server 2");

	/* One host, sim_servers=2: servers keep their numbers (card / 8). */
	topo_make(&t, HCCLT_TOPO_A2, 16, 0, 8, 2, NULL, upper_card);
	TAP_EQ(hcclt_topo_place(&t), 0, "A2, one host, ranks 0-7 on server 1: placed");
	tap_ok(t.nlayers == 2 && t.npods == 1 && t.server[0] == 1 && t.server[8] == 0,
	       "2 layers, one host, rank 0 on server 1, rank 8 on server 0");
	n = hcclt_topo_inst(&t, 1, r);
	tap_ok(n == 16 && seq(r, 8, 8, 8, 1) && seq(r + 8, 8, 8, 0, 1),
	       "layer 1 server by server: 8-15 (server 0), then 0-7");
	TAP_EQ(hcclt_topo_need(&t, 8), COMM_PROTOCOL_ROCE, "0 -> 8: the cluster layer's RoCE");

	/* A card past this host's layout cannot be placed. */
	topo_make(&t, HCCLT_TOPO_A2, 16, 0, 8, 2, half_host, half_card);
	t.card[9] = 16;
	TAP_EQ(hcclt_topo_place(&t), -ERANGE, "a remote card past this host's layout: -ERANGE");
}

/* The runtime samples' calls: the checks made before any device. */
static void test_runtime_checks(void)
{
	struct hcclt_stream bad = fake_stream(0);
	aclrtStreamStatus st;
	aclrtContext ctx;
	uint64_t ts;

	bad.magic = 1;
	TAP_EQ(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext(NULL)");
	TAP_EQ(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext(NULL)");
	TAP_EQ(aclrtDestroyContext(&bad), ACL_ERROR_RT_CONTEXT_NULL, "aclrtDestroyContext: not a context");
	TAP_EQ(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext(NULL)");
	TAP_EQ(aclrtSetCurrentContext(&bad), ACL_ERROR_RT_PARAM_INVALID, "aclrtSetCurrentContext: not a context");
	TAP_EQ(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext(NULL)");
	TAP_EQ(aclrtGetCurrentContext(&ctx), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no device");
	TAP_EQ(aclrtStreamQuery(NULL, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status first");
	TAP_EQ(aclrtStreamQuery(NULL, &st), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: stream NULL");
	TAP_EQ(aclrtStreamQuery(&bad, &st), ACL_ERROR_RT_INVALID_HANDLE, "aclrtStreamQuery: not a stream");
	TAP_EQ(aclrtEventGetTimestamp(&bad, NULL), ACL_ERROR_INVALID_PARAM, "aclrtEventGetTimestamp: timestamp first");
	TAP_EQ(aclrtEventGetTimestamp(NULL, &ts), ACL_ERROR_INVALID_PARAM, "aclrtEventGetTimestamp: event NULL");
	TAP_EQ(aclrtEventGetTimestamp(&bad, &ts), ACL_ERROR_RT_INVALID_HANDLE, "aclrtEventGetTimestamp: not an event");
	TAP_EQ(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamForce(NULL)");
	TAP_EQ(aclrtDestroyStreamForce(&bad), ACL_ERROR_RT_INVALID_HANDLE, "aclrtDestroyStreamForce: not a stream");
}

static void test_mode_checks(void)
{
	struct hcclt_stream s0 = fake_stream(0), s1 = fake_stream(1), bad = fake_stream(0);
	struct hcclt_stream e0 = fake_event(0), ebad = fake_event(0);
	aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
	size_t fr = 7, tot = 7;

	bad.magic = 1;
	ebad.magic = 1;
	/* aclrtGetMemInfo: ACL's NULL checks, the runtime's type, the context. */
	TAP_EQ(aclrtGetMemInfo(ACL_HBM_MEM, NULL, &tot), ACL_ERROR_INVALID_PARAM, "meminfo: free NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &fr, NULL), ACL_ERROR_INVALID_PARAM, "meminfo: total NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtGetMemInfo((aclrtMemAttr)99, NULL, &tot), ACL_ERROR_INVALID_PARAM, "meminfo order: NULL before the type");
	TAP_EQ(aclrtGetMemInfo((aclrtMemAttr)18, &fr, &tot), ACL_ERROR_RT_INVALID_MEMORY_TYPE, "meminfo: attr 18 -> ACL_ERROR_RT_INVALID_MEMORY_TYPE");
	TAP_EQ(aclrtGetMemInfo((aclrtMemAttr)-1, &fr, &tot), ACL_ERROR_RT_INVALID_MEMORY_TYPE, "meminfo: attr -1 -> ACL_ERROR_RT_INVALID_MEMORY_TYPE");
	TAP_EQ(aclrtGetMemInfo((aclrtMemAttr)99, &fr, &tot), ACL_ERROR_RT_INVALID_MEMORY_TYPE, "meminfo order: the type before the context");
	TAP_EQ(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &fr, &tot), ACL_ERROR_RT_CONTEXT_NULL, "meminfo: no current device -> ACL_ERROR_RT_CONTEXT_NULL");
	TAP_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &fr, &tot), ACL_ERROR_RT_CONTEXT_NULL, "meminfo: DDR, no current device -> ACL_ERROR_RT_CONTEXT_NULL");
	tap_ok(fr == 7 && tot == 7, "meminfo: free and total untouched on error");

	/* aclrtResetEvent: NULLs, then the handles, then the devices. */
	TAP_EQ(aclrtResetEvent(NULL, &s0), ACL_ERROR_INVALID_PARAM, "reset event: event NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtResetEvent(&e0, NULL), ACL_ERROR_INVALID_PARAM, "reset event: stream NULL (no default stream) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtResetEvent(&ebad, &s0), ACL_ERROR_RT_INVALID_HANDLE, "reset event: garbage event -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtResetEvent(&s0, &s0), ACL_ERROR_RT_INVALID_HANDLE, "reset event: a stream as the event -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtResetEvent(&e0, &bad), ACL_ERROR_RT_INVALID_HANDLE, "reset event: garbage stream -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtResetEvent(&e0, &s1), ACL_ERROR_INVALID_PARAM, "reset event: stream of another device -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtResetEvent(&e0, &s0), ACL_ERROR_RT_INVALID_HANDLE, "reset event: device not open -> ACL_ERROR_RT_INVALID_HANDLE");

	/* aclrtSetStreamFailureMode: the default stream, then the context. */
	TAP_EQ(aclrtSetStreamFailureMode(NULL, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
	       "failure mode: NULL (CANN's default stream) -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	TAP_EQ(aclrtSetStreamFailureMode(NULL, 77), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "failure mode: NULL before the mode");
	TAP_EQ(aclrtSetStreamFailureMode(&bad, ACL_CONTINUE_ON_FAILURE), ACL_ERROR_RT_CONTEXT_NULL,
	       "failure mode: no current device -> ACL_ERROR_RT_CONTEXT_NULL (before the handle, as CANN)");
	TAP_EQ(aclrtSetStreamFailureMode(&s0, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_CONTEXT_NULL,
	       "failure mode: a stream without a current device -> ACL_ERROR_RT_CONTEXT_NULL");

	/* aclrtSetDeviceSatMode / aclrtGetDeviceSatMode (SoC Ascend910_9391 here). */
	TAP_EQ(aclrtGetDeviceSatMode(NULL), ACL_ERROR_INVALID_PARAM, "sat mode get: NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtGetDeviceSatMode(&m), ACL_SUCCESS, "sat mode get succeeds");
	TAP_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN, "sat mode: the default is ACL_RT_OVERFLOW_MODE_INFNAN");
	TAP_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_UNDEF), ACL_ERROR_RT_PARAM_INVALID, "sat mode set: UNDEF -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtSetDeviceSatMode((aclrtFloatOverflowMode)-1), ACL_ERROR_RT_PARAM_INVALID, "sat mode set: -1 -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_SUCCESS,
	       "sat mode set: saturation without a current device is the process's (CANN)");
	aclrtGetDeviceSatMode(&m);
	TAP_EQ(m, ACL_RT_OVERFLOW_MODE_SATURATION, "sat mode get: what was set");
	TAP_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS, "sat mode set: back to Inf/NaN");
	aclrtGetDeviceSatMode(&m);
	TAP_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN, "sat mode get: Inf/NaN again");
}

/* On an Ascend950 (a SoC file of its own): no saturation, no 1 GiB pages. */
static int soc950_child(void)
{
	aclrtPhysicalMemProp prop = { ACL_MEM_HANDLE_TYPE_NONE, ACL_MEM_ALLOCATION_TYPE_PINNED,
				      ACL_HBM_MEM_HUGE1G, { 0, ACL_MEM_LOCATION_TYPE_DEVICE }, 0 };
	struct hcclt_comm c = fake_comm(0);
	aclrtDrvMemHandle h = NULL;
	CommLink *links;
	uint32_t nl;
	uint64_t sz;
	size_t g = 0;
	char src[8] = "";
	void *p;

	c.nranks = 2;
	return (aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION) !=
		ACL_ERROR_RT_FEATURE_NOT_SUPPORT) |
	       (aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN) != ACL_SUCCESS) << 1 |
	       (aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g) !=
		ACL_ERROR_RT_FEATURE_NOT_SUPPORT) << 2 |
	       (aclrtMallocPhysical(&h, 1, &prop, 0) != ACL_ERROR_RT_FEATURE_NOT_SUPPORT) << 3 |
	       (HcclEngineCtxGet(&c, "none", COMM_ENGINE_CPU, &p, &sz) != HCCL_E_NOT_FOUND) << 4 |
	       (HcclEngineCtxCopy(&c, COMM_ENGINE_CPU, "none", src, 1, 0) != HCCL_E_NOT_FOUND) << 5 |
	       (HcclRankGraphGetLinks(&c, 0, 1, 1, &links, &nl) != HCCL_E_PARA) << 6 |
	       (HcclRankGraphGetLinks(&c, 1, 0, 1, &links, &nl) != HCCL_E_PARA) << 7;
}

static void test_soc950(const char *self, const char *dir)
{
	char path[4200];
	int status;
	pid_t pid;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sim_soc_950", dir);
	f = fopen(path, "w");
	if (!f) {
		tap_ok(0, "Ascend950 SoC file");
		return;
	}
	fputs("Ascend950PR\n", f);
	fclose(f);
	pid = fork();
	if (pid == 0) {
		setenv("HCCLT_SOC_PARAM", path, 1);
		execl(self, self, "--soc950", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	/* A status of 255: the child died. */
	tap_ok(!(status & 1) && status < 255, "Ascend950: saturation -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	tap_ok(!(status & 2) && status < 255, "Ascend950: Inf/NaN -> ACL_SUCCESS");
	tap_ok(!(status & 4) && status < 255, "Ascend950: granularity of 1 GiB pages -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	tap_ok(!(status & 8) && status < 255, "Ascend950: 1 GiB physical memory -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	tap_ok(!(status & 16) && status < 255, "Ascend950: HcclEngineCtxGet of none -> HCCL_E_NOT_FOUND");
	tap_ok(!(status & 32) && status < 255, "Ascend950: HcclEngineCtxCopy to none -> HCCL_E_NOT_FOUND");
	tap_ok(!(status & 64) && status < 255, "Ascend950: HcclRankGraphGetLinks of a rank to itself -> HCCL_E_PARA");
	tap_ok(!(status & 128) && status < 255, "Ascend950: HcclRankGraphGetLinks in layer 1 -> HCCL_E_PARA");
	unlink(path);
}

static void test_vmm_checks(void)
{
	aclrtPhysicalMemProp good = { ACL_MEM_HANDLE_TYPE_NONE, ACL_MEM_ALLOCATION_TYPE_PINNED,
				      ACL_HBM_MEM_HUGE, { 0, ACL_MEM_LOCATION_TYPE_DEVICE }, 0 };
	aclrtPhysicalMemProp p;
	struct hcclt_stream bad = fake_stream(0);
	aclrtDrvMemHandle h = (aclrtDrvMemHandle)0x1;
	void *v = NULL, *v2 = NULL;
	size_t g = 0;
	char x;

	bad.magic = 1;
	/* Granularity. */
	TAP_EQ(aclrtMemGetAllocationGranularity(NULL, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
	       ACL_ERROR_INVALID_PARAM, "granularity: prop NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMemGetAllocationGranularity(&good, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, NULL),
	       ACL_ERROR_INVALID_PARAM, "granularity: granularity NULL -> ACL_ERROR_INVALID_PARAM");
	p = good;
	p.memAttr = ACL_HBM_MEM;
	TAP_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
	       ACL_ERROR_INVALID_PARAM, "granularity: ACL_HBM_MEM -> ACL_ERROR_INVALID_PARAM");
	p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	TAP_EQ(aclrtMemGetAllocationGranularity(&p, (aclrtMemGranularityOptions)7, &g),
	       ACL_ERROR_INVALID_PARAM, "granularity order: memAttr before location and option");
	p = good;
	p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	TAP_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
	       ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "granularity: host memory -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	p = good;
	p.location.id = 2;
	TAP_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
	       ACL_ERROR_RT_INVALID_DEVICEID, "granularity: device 2 of 2 -> ACL_ERROR_RT_INVALID_DEVICEID");
	TAP_EQ(aclrtMemGetAllocationGranularity(&good, (aclrtMemGranularityOptions)7, &g),
	       ACL_ERROR_RT_PARAM_INVALID, "granularity: option 7 -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtMemGetAllocationGranularity(&good, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &g),
	       ACL_ERROR_RT_PARAM_INVALID, "granularity: UNDEF -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtMemGetAllocationGranularity(&good, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
	       ACL_SUCCESS, "granularity: huge pages");
	TAP_EQ(g, 2 << 20, "granularity: huge pages: 2 MiB");
	p = good;
	p.memAttr = ACL_HBM_MEM_NORMAL;
	g = 0;
	aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &g);
	TAP_EQ(g, 2 << 20, "granularity: normal pages are huge ones: 2 MiB, recommended too");
	p.memAttr = ACL_HBM_MEM_HUGE1G;
	g = 0;
	TAP_EQ(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
	       ACL_SUCCESS, "granularity: 1 GiB pages on an Ascend910");
	TAP_EQ(g, 1 << 30, "granularity: 1 GiB pages: 1 GiB");

	/* aclrtMallocPhysical: ACL's checks in its order, then the runtime's. */
	TAP_EQ(aclrtMallocPhysical(NULL, 1, &good, 0), ACL_ERROR_INVALID_PARAM, "malloc physical: handle NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMallocPhysical(&h, 1, NULL, 0), ACL_ERROR_INVALID_PARAM, "malloc physical: prop NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMallocPhysical(&h, 0, &good, 0), ACL_ERROR_INVALID_PARAM, "malloc physical: size 0 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMallocPhysical(&h, 1, &good, 1), ACL_ERROR_INVALID_PARAM, "malloc physical: flags 1 -> ACL_ERROR_INVALID_PARAM");
	p = good;
	p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
	TAP_EQ(aclrtMallocPhysical(&h, 1, &p, 0), ACL_ERROR_INVALID_PARAM, "malloc physical: POSIX handle type -> ACL_ERROR_INVALID_PARAM");
	p = good;
	p.allocationType = (aclrtMemAllocationType)1;
	TAP_EQ(aclrtMallocPhysical(&h, 1, &p, 0), ACL_ERROR_INVALID_PARAM, "malloc physical: allocation type 1 -> ACL_ERROR_INVALID_PARAM");
	p = good;
	p.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
	TAP_EQ(aclrtMallocPhysical(&h, 1, &p, 0), ACL_ERROR_INVALID_PARAM, "malloc physical: unregistered location -> ACL_ERROR_INVALID_PARAM");
	p = good;
	p.memAttr = ACL_DDR_MEM_HUGE;
	TAP_EQ(aclrtMallocPhysical(&h, 1, &p, 0), ACL_ERROR_INVALID_PARAM, "malloc physical: ACL_DDR_MEM_HUGE -> ACL_ERROR_INVALID_PARAM");
	p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	TAP_EQ(aclrtMallocPhysical(&h, 1, &p, 0), ACL_ERROR_INVALID_PARAM, "malloc physical order: memAttr before location");
	TAP_EQ(aclrtMallocPhysical(&h, 0, &p, 1), ACL_ERROR_INVALID_PARAM, "malloc physical order: size before the rest");
	p = good;
	p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	TAP_EQ(aclrtMallocPhysical(&h, 1, &p, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "malloc physical: host memory -> ACL_ERROR_RT_FEATURE_NOT_SUPPORT");
	p = good;
	p.location.id = 2;
	TAP_EQ(aclrtMallocPhysical(&h, 1, &p, 0), ACL_ERROR_RT_INVALID_DEVICEID, "malloc physical: device 2 of 2 -> ACL_ERROR_RT_INVALID_DEVICEID");
	TAP_EQ(aclrtMallocPhysical(&h, SIZE_MAX, &good, 0), ACL_ERROR_RT_MEMORY_ALLOCATION,
	       "malloc physical: a size that does not round -> ACL_ERROR_RT_MEMORY_ALLOCATION");
	TAP_EQ(aclrtMallocPhysical(&h, 1, &good, 0), ACL_ERROR_RT_NO_DEVICE, "malloc physical: missing node -> ACL_ERROR_RT_NO_DEVICE");
	tap_ok(h == (aclrtDrvMemHandle)0x1, "malloc physical: *handle untouched on error");

	/* aclrtFreePhysical, aclrtMapMem, aclrtUnmapMem. */
	TAP_EQ(aclrtFreePhysical(NULL), ACL_ERROR_INVALID_PARAM, "free physical: NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtFreePhysical(&bad), ACL_ERROR_RT_INVALID_HANDLE, "free physical: garbage -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtMapMem(NULL, 1, 0, &bad, 0), ACL_ERROR_INVALID_PARAM, "map: virPtr NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMapMem(&x, 1, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "map: handle NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMapMem(&x, 0, 0, &bad, 0), ACL_ERROR_INVALID_PARAM, "map: size 0 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMapMem(&x, 1, 0, &bad, 1), ACL_ERROR_INVALID_PARAM, "map: flags 1 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMapMem(&x, 0, 5, &bad, 1), ACL_ERROR_INVALID_PARAM, "map order: ACL's checks before the offset and handle");
	TAP_EQ(aclrtMapMem(&x, 1, 5, &bad, 0), ACL_ERROR_RT_INVALID_HANDLE, "map: garbage handle -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtUnmapMem(NULL), ACL_ERROR_INVALID_PARAM, "unmap: NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtUnmapMem(&x), ACL_ERROR_RT_PARAM_INVALID, "unmap: not a mapping -> ACL_ERROR_RT_PARAM_INVALID");

	/* Reservations need no device. */
	TAP_EQ(aclrtReserveMemAddress(NULL, 1, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "reserve: virPtr NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtReserveMemAddress(&v, 0, 0, NULL, 0), ACL_ERROR_INVALID_PARAM, "reserve: size 0 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtReserveMemAddress(&v, 1, 0, NULL, 2), ACL_ERROR_INVALID_PARAM, "reserve: flags 2 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtReserveMemAddress(&v, 0, 3, &x, 2), ACL_ERROR_INVALID_PARAM, "reserve order: size before flags, alignment, expectPtr");
	TAP_EQ(aclrtReserveMemAddress(&v, 1, 3, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "reserve: alignment 3 -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtReserveMemAddress(&v, 1, 512, NULL, 0), ACL_ERROR_RT_PARAM_INVALID, "reserve: alignment below the page -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtReserveMemAddress(&v, 1, 0, (void *)((uintptr_t)1 << 29), 0), ACL_ERROR_RT_PARAM_INVALID,
	       "reserve: expectPtr not 1 GiB aligned -> ACL_ERROR_RT_PARAM_INVALID");
	tap_ok(v == NULL, "reserve: *virPtr untouched on error");
	TAP_EQ(aclrtReserveMemAddress(&v, 5 << 20, 0, NULL, 1), ACL_SUCCESS, "reserve: 5 MiB");
	tap_ok(v && !((uintptr_t)v % (2 << 20)), "reserve: 2 MiB aligned by default");
	TAP_EQ(aclrtReserveMemAddress(&v2, (size_t)3 << 30, (size_t)1 << 30, NULL, 0), ACL_SUCCESS, "reserve: 3 GiB, 1 GiB aligned");
	tap_ok(v2 && !((uintptr_t)v2 % (1 << 30)), "reserve: 1 GiB aligned as asked");
	TAP_EQ(aclrtReserveMemAddress(&v, 1, 0, v2, 0), ACL_ERROR_RT_MEMORY_ALLOCATION,
	       "reserve: expectPtr in use -> ACL_ERROR_RT_MEMORY_ALLOCATION");
	TAP_EQ(aclrtReleaseMemAddress(NULL), ACL_ERROR_INVALID_PARAM, "release: NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtReleaseMemAddress((char *)v2 + 4096), ACL_ERROR_RT_PARAM_INVALID, "release: not a reservation's start -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtReleaseMemAddress(v2), ACL_SUCCESS, "release: 3 GiB");
	TAP_EQ(aclrtReleaseMemAddress(v2), ACL_ERROR_RT_PARAM_INVALID, "release: twice -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtReserveMemAddress(&v2, 1, 0, v2, 0), ACL_SUCCESS, "reserve: at expectPtr, free again");
	TAP_EQ(aclrtMemcpy(v, 16, &x, 1, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "memcpy: reserved, unmapped addresses are not device memory");
	TAP_EQ(aclrtReleaseMemAddress(v2), ACL_SUCCESS, "release: the one at expectPtr");
	TAP_EQ(aclrtReleaseMemAddress(v), ACL_SUCCESS, "release: 5 MiB");
}

/*
 * The table's side of mappings (mem.c): entries that follow each other in
 * a reservation make one device range, split into pieces for data tasks.
 * Host memory stands in for the mapped objects.
 */
static void test_vmap_table(void)
{
	unsigned char *buf = aligned_alloc(4096, 3 * 4096), src[6000];
	struct hcclt_seg d[HCCLT_MAX_SEGS], s[HCCLT_MAX_SEGS];
	struct drm_hcclt_task t[8];
	uintptr_t b = (uintptr_t)buf;
	int n, i, ok;

	if (!buf) {
		tap_ok(0, "vmap table: memory");
		return;
	}
	memset(buf, 0, 3 * 4096);
	TAP_EQ(hcclt_mem_vmap_add(b, 4096, 0, 11, 0, b), 0, "vmap table: a first mapping");
	TAP_EQ(hcclt_mem_vmap_add(b + 4096, 4096, 0, 12, 0, b), 0, "vmap table: the next, same reservation");
	/* The third follows the second but in another reservation. */
	TAP_EQ(hcclt_mem_vmap_add(b + 8192, 4096, 0, 13, 0, b + 8192), 0, "vmap table: a third, another reservation");
	n = hcclt_mem_segments(0, buf + 4000, 200, d, HCCLT_MAX_SEGS);
	TAP_EQ(n, 2, "vmap table: a range across two mappings is two pieces");
	tap_ok(n == 2 && d[0].handle == 11 && d[0].off == 4000 && d[0].len == 96 &&
	       d[1].handle == 12 && d[1].off == 0 && d[1].len == 104 && !d[0].chan,
	       "vmap table: the pieces' objects, offsets and lengths");
	TAP_EQ(hcclt_mem_segments(0, buf + 8000, 300, d, HCCLT_MAX_SEGS), -1,
	       "vmap table: no range across two reservations");
	TAP_EQ(hcclt_mem_segments(1, buf + 10, 10, d, HCCLT_MAX_SEGS), -1, "vmap table: not memory of another device");
	TAP_EQ(hcclt_mem_segments(0, buf + 4000, 200, d, 1), -2, "vmap table: more pieces than allowed -> -2");
	TAP_EQ(hcclt_mem_segments(0, buf + 100, 100, d, HCCLT_MAX_SEGS), 1, "vmap table: inside one mapping, one piece");
	/* A copy cut where either side's pieces end. */
	n = hcclt_mem_segments(0, buf + 4000, 4192, d, HCCLT_MAX_SEGS);
	i = hcclt_mem_segments(0, buf + 100, 4192, s, HCCLT_MAX_SEGS);
	TAP_EQ(n, 2, "vmap table: destination in two pieces");
	TAP_EQ(i, 2, "vmap table: source in two pieces");
	TAP_EQ(hcclt_seg_tasks(d, n, s, i, NULL), 3, "vmap table: three tasks where the pieces end");
	hcclt_seg_tasks(d, n, s, i, t);
	tap_ok(t[0].dst_handle == 11 && t[0].dst_offset == 4000 && t[0].src_handle == 11 &&
	       t[0].src_offset == 100 && t[0].len == 96 &&
	       t[1].dst_handle == 12 && t[1].dst_offset == 0 && t[1].src_offset == 196 &&
	       t[1].len == 3900 && t[2].src_handle == 12 && t[2].src_offset == 0 &&
	       t[2].dst_offset == 3900 && t[2].len == 196,
	       "vmap table: the tasks' handles, offsets and lengths");
	/* aclrtMemcpy and aclrtMemset take the joined range. */
	for (i = 0; i < (int)sizeof(src); i++)
		src[i] = (unsigned char)(i * 7);
	TAP_EQ(aclrtMemcpy(buf + 2000, 6000, src, 6000, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS,
	       "vmap table: aclrtMemcpy across two mappings");
	ok = !memcmp(buf + 2000, src, 6000);
	tap_ok(ok, "vmap table: every byte copied");
	TAP_EQ(aclrtMemcpy(buf + 4000, 5000, src, 5000, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "vmap table: aclrtMemcpy into the next reservation -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMemset(buf + 4090, 20, 0xab, 20), ACL_SUCCESS, "vmap table: aclrtMemset across two mappings");
	tap_ok(buf[4090] == 0xab && buf[4109] == 0xab, "vmap table: set on both sides");
	TAP_EQ(aclrtFree(buf + 4096), ACL_ERROR_INVALID_PARAM, "vmap table: aclrtFree refuses a mapping");
	TAP_EQ(hcclt_mem_vmap_del(b + 4096), 0, "vmap table: the middle mapping out");
	TAP_EQ(hcclt_mem_segments(0, buf + 4000, 200, d, HCCLT_MAX_SEGS), -1, "vmap table: no range across a hole");
	TAP_EQ(hcclt_mem_vmap_del(b + 4096), -ENOENT, "vmap table: out twice -> -ENOENT");
	hcclt_mem_vmap_del(b);
	hcclt_mem_vmap_del(b + 8192);
	free(buf);
}

/* aclprof*: the checks of each call, in CANN's order, with no device. */
static void test_prof_checks(const char *dir)
{
	uint32_t devs[3] = { 0, 1, 0 }, d65[65] = { 0 };
	char path[4200], bad[4200];
	aclprofConfig *c, *tx, *zero, *unk;
	struct stat sb;

	memset(bad, 'a', sizeof(bad) - 1);
	bad[sizeof(bad) - 1] = '\0';
	TAP_EQ(aclprofInit(NULL, 0), ACL_ERROR_INVALID_PARAM, "prof init: NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclprofInit("abc", 2), ACL_ERROR_INVALID_PARAM, "prof init: length not strlen -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclprofInit("", 0), ACL_ERROR_INVALID_PARAM, "prof init: length 0 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclprofInit(bad, strlen(bad)), ACL_ERROR_INVALID_PARAM, "prof init: 4199 bytes -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN, "prof finalize before init -> ACL_ERROR_PROF_NOT_RUN");
	tap_ok(aclprofCreateConfig(NULL, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL,
	       "prof config: device list NULL -> NULL");
	tap_ok(aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, (const aclprofAicoreEvents *)devs,
				   ACL_PROF_TASK_TIME) == NULL, "prof config: aicoreEvents not NULL -> NULL");
	tap_ok(aclprofCreateConfig(d65, 65, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL,
	       "prof config: 65 devices -> NULL");
	tap_ok(aclprofCreateConfig(devs, 3, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL,
	       "prof config: 3 devices of 2 -> NULL");
	devs[2] = 2;
	tap_ok(aclprofCreateConfig(&devs[2], 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL,
	       "prof config: device 2 of 2 -> NULL");
	devs[1] = 0;
	tap_ok(aclprofCreateConfig(devs, 2, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL,
	       "prof config: a device twice -> NULL");
	devs[1] = 1;
	tap_ok(aclprofCreateConfig(devs, 0, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME) == NULL,
	       "prof config: no device without ACL_PROF_MSPROFTX -> NULL");
	tx = aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, ACL_PROF_MSPROFTX);
	tap_ok(tx != NULL, "prof config: no device with ACL_PROF_MSPROFTX");
	c = aclprofCreateConfig(devs, 2, ACL_AICORE_PIPE_UTILIZATION, NULL,
				ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS |
				ACL_PROF_AICPU | ACL_PROF_HCCL_TRACE | ACL_PROF_MSPROFTX |
				ACL_PROF_RUNTIME_API);
	tap_ok(c != NULL, "prof config: devices 0 and 1, HCCL Test's switches");
	zero = aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, 0);
	unk = aclprofCreateConfig(devs, 1, ACL_AICORE_NONE, NULL, 0x400);
	TAP_EQ(aclprofStart(NULL), ACL_ERROR_INVALID_PARAM, "prof start: NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclprofStart(zero), ACL_ERROR_INVALID_PARAM, "prof start: dataTypeConfig 0 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclprofStart(unk), ACL_ERROR_PROF_MODULES_UNSUPPORTED, "prof start: unknown switch 0x400 -> ACL_ERROR_PROF_MODULES_UNSUPPORTED");
	TAP_EQ(aclprofStart(c), ACL_ERROR_PROF_NOT_RUN, "prof start before init -> ACL_ERROR_PROF_NOT_RUN");
	TAP_EQ(aclprofStop(c), ACL_ERROR_PROF_NOT_RUN, "prof stop before init -> ACL_ERROR_PROF_NOT_RUN");
	TAP_EQ(aclprofStop(zero), ACL_ERROR_INVALID_PARAM, "prof stop order: the config before the state");
	snprintf(path, sizeof(path), "%s/prof/a/b", dir);
	TAP_EQ(aclprofInit(path, strlen(path)), ACL_SUCCESS, "prof init: a directory made with its parents");
	tap_ok(!stat(path, &sb) && S_ISDIR(sb.st_mode), "prof init: the directory exists");
	TAP_EQ(aclprofInit(path, strlen(path)), ACL_ERROR_REPEAT_INITIALIZE, "prof init twice -> ACL_ERROR_REPEAT_INITIALIZE");
	TAP_EQ(aclprofStart(tx), ACL_SUCCESS, "prof start: no device (msproftx) records nothing");
	TAP_EQ(aclprofStop(tx), ACL_SUCCESS, "prof stop: no device");
	/* No hcclthread tracepoints on the host: a device cannot be recorded. */
	TAP_EQ(aclprofStart(c), ACL_ERROR_PROFILING_FAILURE, "prof start: no hcclthread tracepoints -> ACL_ERROR_PROFILING_FAILURE");
	TAP_EQ(aclprofStop(c), ACL_SUCCESS, "prof stop: nothing recorded on its devices");
	TAP_EQ(aclprofFinalize(), ACL_SUCCESS, "prof finalize");
	TAP_EQ(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN, "prof finalize twice -> ACL_ERROR_PROF_NOT_RUN");
	TAP_EQ(aclprofInit("/proc/version/x", strlen("/proc/version/x")), ACL_ERROR_INVALID_FILE,
	       "prof init: a path that cannot be a directory -> ACL_ERROR_INVALID_FILE");
	TAP_EQ(aclprofDestroyConfig(NULL), ACL_ERROR_INVALID_PARAM, "prof config destroy: NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclprofDestroyConfig(c), ACL_SUCCESS, "prof config destroy");
	aclprofDestroyConfig(tx);
	aclprofDestroyConfig(zero);
	aclprofDestroyConfig(unk);
}

int main(int argc, char **argv)
{
	char dir[1024], cmd[1100];
	const char *tmp;

	if (argc > 1 && !strcmp(argv[1], "--nodev"))
		return nodev_child();
	if (argc > 1 && !strcmp(argv[1], "--devcount"))
		return devcount_child();
	if (argc > 1 && !strcmp(argv[1], "--forkdisc"))
		return forkdisc_child();
	if (argc > 1 && !strcmp(argv[1], "--enxio"))
		return enxio_child();
	if (argc > 1 && !strcmp(argv[1], "--soc950"))
		return soc950_child();
	test_values();
	test_strings();
	test_errmap();
	test_handles();
	test_acquire_checks();
	test_with_stream_checks();
	test_export_checks();
	test_primitive_checks();
	test_reduce_checks();
	test_channel_checks();
	test_acl_checks();
	test_comm_checks();
	test_group_checks();
	test_config_capability();
	test_ranktable();
	test_commmem_checks();
	test_acl_init();
	test_ext_checks();
	test_fork();
	test_idle();
	test_nodev("/proc/self/exe");
	test_device_list("/proc/self/exe");
	test_obj_reuse();
	test_destroy_claim();
	test_fork_reuse_lock();
	test_fork_in_discovery("/proc/self/exe");
	test_enxio("/proc/self/exe");
	test_new_values();
	test_new_errmap();
	test_mode_checks();
	test_diag_checks();
	test_runtime_checks();
	test_fidelity_a2();
	test_topo_hosts();
	test_vmm_checks();
	test_vmap_table();
	tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/hcclt-unit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(dir)) {
		test_soc950("/proc/self/exe", dir);
		test_prof_checks(dir);
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			printf("# could not remove %s\n", dir);
	} else {
		tap_ok(0, "a temporary directory");
	}
	return tap_done();
}
