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
#include "test_kernel.h"

unsigned int HcclTestKernelCount(struct test_kernel_args *a);
unsigned int HcclTestKernelBatch(struct test_kernel_args *a);
unsigned int HcclTestKernelChannel(struct test_kernel_args *a);

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

/*
 * The shape of a custom operator's kernel: wait for the peer over a
 * channel on the AICPU thread, then hand back to the host's thread.
 */
unsigned int HcclTestKernelChannel(struct test_kernel_args *a)
{
	int32_t r = a->chan_wait(a->a, a->ch, 0, 0);

	if (!r)
		r = a->record(a->a, a->b, 0);
	__atomic_add_fetch(a->counter, 1, __ATOMIC_SEQ_CST);
	return (unsigned int)r;
}
