/* SPDX-License-Identifier: MIT */
/*
 * The argument block of the test kernels (test_kernel.c), shared with
 * hcclt-libtest (libtest.c), which fills it in.
 */
#ifndef HCCLT_TEST_KERNEL_H
#define HCCLT_TEST_KERNEL_H

#include <stdint.h>

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
	/* Channel: wait on @ch's notify 0 on @a, then record @b's notify 0. */
	int32_t (*chan_wait)(ThreadHandle, ChannelHandle, uint32_t, uint32_t);
	ChannelHandle ch;
};

#endif /* HCCLT_TEST_KERNEL_H */
