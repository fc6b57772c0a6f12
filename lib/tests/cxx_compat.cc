// SPDX-License-Identifier: MIT
// CANN-style C++ use of the headers (as hcomm's own sources write it):
// compiled and linked by make check-headers, never run.
#include "hccl/hccl.h"
#include "hccl/hccl_res.h"
#include "hccl/hcomm_primitives.h"
#include "acl/acl_rt.h"
#include "hcclthread.h"

#define CHK_RET(x) do { HcclResult r_ = (x); if (r_ != HCCL_SUCCESS) return r_; } while (0)

static HcclResult LaunchKernel(HcclComm comm, aclrtStream stream)
{
	ThreadHandle thread = 0;
	ThreadHandle exported = 0;
	CHK_RET(HcclThreadAcquireWithStream(comm, CommEngine::COMM_ENGINE_CCU, stream, 0, &thread));
	CHK_RET(HcclThreadExportToCommEngine(comm, 1, &thread, CommEngine::COMM_ENGINE_AICPU_TS, &exported));
	int32_t r = HcommThreadNotifyRecordOnThread(thread, thread, 0);
	return static_cast<HcclResult>(r);
}

int main()
{
	int32_t dev = 0;
	HcclComm comm = nullptr;
	aclrtStream stream = nullptr;
	if (aclrtSetDevice(dev) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS)
		return 4;
	if (HcclCommInitAll(1, &dev, &comm) != HCCL_SUCCESS)
		return 4;
	HcclResult ret = LaunchKernel(comm, stream);
	(void)HcclGetErrorString(ret);
	return aclrtSynchronizeStream(stream) == ACL_SUCCESS ? 0 : 1;
}
