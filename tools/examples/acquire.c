// SPDX-License-Identifier: MIT
/*
 * Seed example 1 of HcclThreadAcquire: acquire 5 AICPU_TS threads with 2
 * notifies each ("申请5条流，每条流2个notify"), then show what the
 * communicator and the device hold.
 */
#include <stdio.h>

#include "hccl/hccl.h"
#include "hccl/hccl_res.h"
#include "example_util.h"

int main(void)
{
	int32_t devices[1] = { 0 };
	char name[32];
	int i;

	HcclComm comm;
	hccl_check(HcclCommInitAll(1, devices, &comm), "HcclCommInitAll");
	printf("Created a communicator on device 0.\n");
	print_device(0);

	CommEngine engine = COMM_ENGINE_AICPU_TS;
	ThreadHandle threads[5];
	// 申请5条流，每条流2个notify
	hccl_check(HcclThreadAcquire(comm, engine, 5, 2, threads), "HcclThreadAcquire");

	printf("Acquired 5 AICPU_TS threads with 2 notifies each; the kernel made a\n"
	       "new stream and 2 notifies for every thread:\n");
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "threads[%d]", i);
		print_thread(name, threads[i]);
	}
	print_comm(comm);
	print_device(0);

	/* The quota is the kernel's: 36 more threads would pass 40. */
	ThreadHandle more[36];
	HcclResult ret = HcclThreadAcquire(comm, engine, 36, 0, more);
	printf("Asking for 36 more threads (41 of 40): %s (%d), nothing was created.\n",
	       HcclGetErrorString(ret), (int)ret);
	print_comm(comm);

	hccl_check(HcclCommDestroy(comm), "HcclCommDestroy");
	printf("Destroyed the communicator: its threads, streams and notifies are gone.\n");
	print_device(0);
	return ret == HCCL_E_UNAVAIL ? 0 : 1;
}
