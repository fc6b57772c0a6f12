/* SPDX-License-Identifier: MIT */
/*
 * The argument block of the test kernels (test_kernel.c), shared with
 * hcclt-libtest (libtest.c), which fills it in. Everything a kernel
 * dereferences is device memory, as on the device: the simulated AI CPU
 * runs kernels in a process of its own that has nothing else.
 */
#ifndef HCCLT_TEST_KERNEL_H
#define HCCLT_TEST_KERNEL_H

#include <stdint.h>

#include "hccl/hcomm_primitives.h"

/* What HcclTestKernelBad does. */
enum test_kernel_bad {
	TK_BAD_POKE = 0,	/* write *poke (a host pointer: it faults) */
	TK_BAD_ABORT = 1,	/* abort() */
	TK_BAD_EXIT = 2,	/* exit(3) */
	TK_BAD_FPE = 3,		/* an integer division by zero */
	TK_BAD_HANG = 4,	/* sleep 1000 s, then count */
};

/* The device words the kernels write (counter[]). */
enum test_kernel_word {
	TK_RUNS = 0,		/* incremented once per run */
	TK_BATCH_END = 1,	/* HcommBatchModeEnd's result */
	TK_MEET = 2,		/* HcclTestKernelMeet's flags: 2 and 3 */
	TK_WORDS = 4,
};

struct test_kernel_args {
	uint32_t ret;		/* what to return */
	uint32_t sleep_ms;	/* how long to run first */
	uint64_t *counter;	/* TK_WORDS words of device memory */
	/* Batch: record @b's notify 0 from @a, wait on it on @b. */
	ThreadHandle a, b;
	/* Channel: wait on @ch's notify 0 on @a, then record @b's notify 0. */
	ChannelHandle ch;
	/* Bad: what goes wrong; Meet: its flag (2 or 3), the other's. */
	uint32_t mode;
	uint32_t pad;
	uint64_t *poke;		/* Bad, TK_BAD_POKE: where it writes */
};

#endif /* HCCLT_TEST_KERNEL_H */
