// SPDX-License-Identifier: MIT
/*
 * A CANN program's includes and calls, built against a CANN-style home
 * (make -C lib check-cann-home): the collectives (libhccl), the
 * communicator and ACL calls (libhcomm, libascendcl), profiling
 * (libmsprofiler). Runs without a device: it checks only answers that
 * need none.
 */
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"

int main(void)
{
	int bad = 0;
	char b[8];

	if (HcclAllReduce(b, b, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, NULL, NULL) != HCCL_E_PTR)
		bad |= 1;
	if (HcclBarrier(NULL, NULL) != HCCL_E_PTR)
		bad |= 2;
	if (HcclGetRankSize(NULL, NULL) != HCCL_E_PTR)
		bad |= 4;
	if (strcmp(HcclGetErrorString(HCCL_SUCCESS), "no error"))
		bad |= 8;
	if (aclprofCreateConfig(NULL, 0, ACL_AICORE_NONE, NULL, 0) != NULL)
		bad |= 16;
	printf("cann_home: %s (%d)\n", bad ? "wrong answers" : "ok", bad);
	return bad ? 1 : 0;
}
