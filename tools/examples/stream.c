// SPDX-License-Identifier: MIT
/*
 * Seed example 2 of HcclThreadAcquire: wrap a host stream into a CPU_TS
 * thread, put work on it and synchronize the stream.
 */
#include <stdio.h>

#include "acl/acl_rt.h"
#include "hccl/hccl.h"
#include "hccl/hccl_res.h"
#include "hccl/hcomm_primitives.h"
#include "example_util.h"

int main(void)
{
	int32_t devices[1] = { 0 };
	HcclComm comm;

	acl_check(aclrtSetDevice(0), "aclrtSetDevice");
	hccl_check(HcclCommInitAll(1, devices, &comm), "HcclCommInitAll");

	// 申请1条host流
	aclrtStream stream;
	acl_check(aclrtCreateStream(&stream), "aclrtCreateStream");
	printf("Created a stream with aclrtCreateStream on device 0.\n");
	// 根据申请的流创建CPU_TS类型thread
	ThreadHandle cpuThread;
	hccl_check(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1, &cpuThread),
		   "HcclThreadAcquireWithStream");
	printf("Wrapped it into a CPU_TS thread with 1 notify (it does not count\n"
	       "against the 40-thread quota, its notify counts against the 64):\n");
	print_thread("cpuThread", cpuThread);
	print_comm(comm);

	ThreadHandle again;
	hccl_check(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1, &again),
		   "HcclThreadAcquireWithStream (again)");
	printf("Wrapping the same stream again returns the %s handle.\n",
	       again == cpuThread ? "same" : "A DIFFERENT (wrong!)");

	// 任务编排: the stream sets its own notify, then waits for it (1 s limit)
	hccl_check((HcclResult)HcommThreadNotifyRecordOnThread(cpuThread, cpuThread, 0),
		   "HcommThreadNotifyRecordOnThread");
	hccl_check((HcclResult)HcommThreadNotifyWaitOnThread(cpuThread, 0, 1),
		   "HcommThreadNotifyWaitOnThread");
	printf("Queued 2 tasks on the stream: record notify 0, wait for notify 0.\n");

	// 流同步
	aclError aret = aclrtSynchronizeStream(stream);
	printf("aclrtSynchronizeStream: %s (%d).\n", hccltAclErrorString(aret), aret);
	print_thread("cpuThread", cpuThread);
	print_device(0);

	hccl_check(HcclCommDestroy(comm), "HcclCommDestroy");
	acl_check(aclrtDestroyStream(stream), "aclrtDestroyStream");
	printf("Destroyed the communicator and the stream.\n");
	print_device(0);
	return aret == ACL_SUCCESS && again == cpuThread ? 0 : 1;
}
