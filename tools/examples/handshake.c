// SPDX-License-Identifier: MIT
/*
 * Seed example 3 of HcclThreadAcquire: the host/AICPU handshake. The host
 * records a notify for the AICPU thread and waits for its answer; the AICPU
 * side (played here by a second host thread using the exported handles)
 * waits for the host's signal, then signals back. The host stream is then
 * synchronized and must report success.
 */
#include <pthread.h>
#include <stdio.h>

#include "acl/acl_rt.h"
#include "hccl/hccl.h"
#include "hccl/hccl_res.h"
#include "hccl/hcomm_primitives.h"
#include "example_util.h"

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static void say(const char *side, const char *what, int32_t ret)
{
	pthread_mutex_lock(&out_lock);
	printf("  [%-5s] %-58s -> %s\n", side, what, HcclGetErrorString((HcclResult)ret));
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

struct aicpu_args {
	ThreadHandle aicpuThread;
	ThreadHandle exportedAicpuThread;
	int32_t ret;
};

/* --aicpu侧调用流程-- */
static void *aicpu_side(void *p)
{
	struct aicpu_args *a = p;
	int32_t r;

	// 等待同步信号
	uint32_t timeout = 1;
	r = HcommThreadNotifyWaitOnThread(a->aicpuThread, 0, timeout);
	say("AICPU", "queue: aicpuThread waits for its notify 0 (host's signal)", r);
	a->ret |= r;
	// 任务编排，将任务下发到aicpuThread
	// ...
	// 发送同步信号
	r = HcommThreadNotifyRecordOnThread(a->aicpuThread, a->exportedAicpuThread, 0);
	say("AICPU", "queue: aicpuThread records exportedAicpuThread notify 0", r);
	a->ret |= r;
	aclError s = hccltThreadSynchronize(a->aicpuThread, -1);
	say("AICPU", "aicpuThread's stream ran both (hccltThreadSynchronize)", s == ACL_SUCCESS ? 0 : HCCL_E_RUNTIME);
	a->ret |= s;
	return NULL;
}

int main(void)
{
	int32_t devices[1] = { 0 };
	HcclComm comm;
	pthread_t aicpu;
	struct aicpu_args args = { 0, 0, 0 };

	acl_check(aclrtSetDevice(0), "aclrtSetDevice");
	hccl_check(HcclCommInitAll(1, devices, &comm), "HcclCommInitAll");

	// --host侧调用流程--
	// 申请1条host流
	aclrtStream stream;
	acl_check(aclrtCreateStream(&stream), "aclrtCreateStream");
	// 根据申请的流创建CPU_TS类型thread
	ThreadHandle cpuThread;
	hccl_check(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1, &cpuThread),
		   "HcclThreadAcquireWithStream");
	// 创建一个AICPU_TS类型的thread
	ThreadHandle aicpuThread;
	hccl_check(HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, 1, 1, &aicpuThread), "HcclThreadAcquire");
	// 把创建的AICPU_TS类型的thread导出为CPU上可用的thread
	ThreadHandle exportedCpuThread;
	hccl_check(HcclThreadExportToCommEngine(comm, 1, &aicpuThread, COMM_ENGINE_CPU_TS, &exportedCpuThread),
		   "HcclThreadExportToCommEngine (AICPU_TS -> CPU_TS)");
	// 把创建的CPU类型的thread导出为AICPU上可用的thread
	ThreadHandle exportedAicpuThread;
	hccl_check(HcclThreadExportToCommEngine(comm, 1, &cpuThread, COMM_ENGINE_AICPU_TS, &exportedAicpuThread),
		   "HcclThreadExportToCommEngine (CPU_TS -> AICPU_TS)");

	printf("Set up: a host stream wrapped as a CPU_TS thread, an AICPU_TS thread,\n"
	       "and each exported to the other's engine (exports share the notifies):\n");
	print_thread("cpuThread", cpuThread);
	print_thread("aicpuThread", aicpuThread);
	print_thread("exportedCpuThread", exportedCpuThread);
	print_thread("exportedAicpuThread", exportedAicpuThread);
	print_comm(comm);
	printf("Handshake (record and wait only queue a task; the streams block, not the\n"
	       "callers; the synchronize at the end waits for the stream):\n");

	// 发送同步信号
	say("host", "queue: cpuThread records exportedCpuThread notify 0",
	    HcommThreadNotifyRecordOnThread(cpuThread, exportedCpuThread, 0));
	// 下发kernel，把exportedAicpuThread，aicpuThread带到aicpu侧
	args.aicpuThread = aicpuThread;
	args.exportedAicpuThread = exportedAicpuThread;
	if (pthread_create(&aicpu, NULL, aicpu_side, &args)) {
		fprintf(stderr, "pthread_create failed\n");
		return 1;
	}
	// 1 s in CANN's sample; here as long as a loaded host may take to
	// start the AICPU side's thread.
	uint32_t timeout = 60;
	// 等待同步信号
	say("host", "queue: cpuThread waits for its notify 0 (AICPU's answer)",
	    HcommThreadNotifyWaitOnThread(cpuThread, 0, timeout));
	// 流同步
	aclError ret = aclrtSynchronizeStream(stream);
	pthread_mutex_lock(&out_lock);
	printf("  [%-5s] %-58s -> %s (%d)\n", "host", "aclrtSynchronizeStream(stream): both waits were released",
	       hccltAclErrorString(ret), ret);
	pthread_mutex_unlock(&out_lock);
	pthread_join(aicpu, NULL);

	printf("%s\n", ret == ACL_SUCCESS && args.ret == 0 ?
	       "The handshake completed: both streams ran their record and wait tasks." :
	       "The handshake FAILED.");
	print_thread("cpuThread", cpuThread);
	print_thread("aicpuThread", aicpuThread);
	print_device(0);
	hccl_check(HcclCommDestroy(comm), "HcclCommDestroy");
	acl_check(aclrtDestroyStream(stream), "aclrtDestroyStream");
	return ret == ACL_SUCCESS && args.ret == 0 ? 0 : 1;
}
