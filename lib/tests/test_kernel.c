// SPDX-License-Identifier: MIT
/*
 * AICPU kernels for hcclt-libtest (tests/libtest.c), loaded through
 * tests/test_kernel.json. They run on the simulated AI CPU, a process of
 * its own: they reach the application only through device memory and
 * the Hcomm calls, as on the device.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "hccl/hcomm_primitives.h"
#include "test_kernel.h"

unsigned int HcclTestKernelCount(struct test_kernel_args *a);
unsigned int HcclTestKernelBatch(struct test_kernel_args *a);
unsigned int HcclTestKernelChannel(struct test_kernel_args *a);
unsigned int HcclTestKernelBad(struct test_kernel_args *a);
unsigned int HcclTestKernelMeet(struct test_kernel_args *a);

unsigned int HcclTestKernelCount(struct test_kernel_args *a)
{
	if (a->sleep_ms)
		usleep(a->sleep_ms * 1000);
	__atomic_add_fetch(&a->counter[TK_RUNS], 1, __ATOMIC_SEQ_CST);
	return a->ret;
}

/* A batch across two threads, as a custom operator's kernel opens one. */
unsigned int HcclTestKernelBatch(struct test_kernel_args *a)
{
	int32_t r = HcommBatchModeStart("test"), e;

	if (!r)
		r = HcommThreadNotifyRecordOnThread(a->a, a->b, 0);
	if (!r)
		r = HcommThreadNotifyWaitOnThread(a->b, 0, 30);
	if (!r)
		r = HcommThreadNotifyRecordOnThread(a->b, a->a, 0);
	if (!r)
		r = HcommThreadNotifyWaitOnThread(a->a, 0, 30);
	e = HcommBatchModeEnd("test");
	__atomic_store_n(&a->counter[TK_BATCH_END], (uint64_t)(uint32_t)e, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&a->counter[TK_RUNS], 1, __ATOMIC_SEQ_CST);
	return r || e;
}

/*
 * The shape of a custom operator's kernel: wait for the peer over a
 * channel on the AICPU thread, then hand back to the host's thread.
 */
unsigned int HcclTestKernelChannel(struct test_kernel_args *a)
{
	int32_t r = HcommChannelNotifyWaitOnThread(a->a, a->ch, 0, 0);

	if (!r)
		r = HcommThreadNotifyRecordOnThread(a->a, a->b, 0);
	__atomic_add_fetch(&a->counter[TK_RUNS], 1, __ATOMIC_SEQ_CST);
	return (unsigned int)r;
}

/* The bugs a kernel has on real cards. */
unsigned int HcclTestKernelBad(struct test_kernel_args *a)
{
	volatile int zero = 0;

	switch (a->mode) {
	case TK_BAD_POKE:
		*(volatile uint64_t *)a->poke = 1;
		break;
	case TK_BAD_ABORT:
		abort();
	case TK_BAD_EXIT:
		exit(3);
	case TK_BAD_FPE:
		return (unsigned int)(100 / zero);
	case TK_BAD_HANG:
		sleep(1000);
		break;
	}
	__atomic_add_fetch(&a->counter[TK_RUNS], 1, __ATOMIC_SEQ_CST);
	return 0;
}

/*
 * Two of them on two streams: each raises its flag and waits up to 60 s
 * for the other's. Both return 0 only if they ran at the same time.
 */
unsigned int HcclTestKernelMeet(struct test_kernel_args *a)
{
	uint32_t other = a->mode == TK_MEET ? TK_MEET + 1 : TK_MEET;
	int i;

	__atomic_store_n(&a->counter[a->mode], 1, __ATOMIC_SEQ_CST);
	for (i = 0; i < 60000; i++) {
		if (__atomic_load_n(&a->counter[other], __ATOMIC_SEQ_CST))
			return 0;
		usleep(1000);
	}
	return 1;
}
