// SPDX-License-Identifier: MIT
/*
 * AICPU kernels for hcclt-libtest (tests/libtest.c), loaded through
 * tests/test_kernel.json. They call the library only through pointers in
 * their arguments, so that the sanitizer build of the test (the library
 * linked in statically) runs them against its own copy.
 */
#include <stdint.h>
#include <unistd.h>

#include "hccl/hcomm_primitives.h"

struct test_kernel_args {
	uint32_t ret;		/* what to return */
	uint32_t sleep_ms;	/* how long to run first */
	uint64_t *counter;	/* incremented once per run */
	/* Batch: record @b's notify 0 from @a, wait on it on @b. */
	int32_t (*start)(const char *tag);
	int32_t (*end)(const char *tag);
	int32_t (*record)(ThreadHandle, ThreadHandle, uint32_t);
	int32_t (*wait)(ThreadHandle, uint32_t, uint32_t);
	ThreadHandle a, b;
	int32_t batch_ret;
};

unsigned int HcclTestKernelCount(struct test_kernel_args *a);
unsigned int HcclTestKernelBatch(struct test_kernel_args *a);

unsigned int HcclTestKernelCount(struct test_kernel_args *a)
{
	if (a->sleep_ms)
		usleep(a->sleep_ms * 1000);
	__atomic_add_fetch(a->counter, 1, __ATOMIC_SEQ_CST);
	return a->ret;
}

/* A batch across two threads, as a custom operator's kernel opens one. */
unsigned int HcclTestKernelBatch(struct test_kernel_args *a)
{
	int32_t r = a->start("test");

	if (!r)
		r = a->record(a->a, a->b, 0);
	if (!r)
		r = a->wait(a->b, 0, 30);
	if (!r)
		r = a->record(a->b, a->a, 0);
	if (!r)
		r = a->wait(a->a, 0, 30);
	a->batch_ret = a->end("test");
	__atomic_add_fetch(a->counter, 1, __ATOMIC_SEQ_CST);
	return r || a->batch_ret;
}
