// SPDX-License-Identifier: MIT
/*
 * hcclt-example-compop: the competition-style AllGather (all_gather_op.h,
 * built against a CANN-style home) on N ranks, as threads or processes,
 * every output byte of every rank checked, every round.
 *
 *   hcclt-example-compop [--threads|--processes] [--ranks N] [--bytes B]
 *       [--rounds R] [--expect-unavail]
 *       [--root-info FILE [--first-rank F] [--local-ranks L] [--first-device D]]
 *
 * Defaults: threads, every card (at most 32), 64 KiB per rank, 2 rounds.
 * With --root-info, this process runs ranks F .. F + L - 1 of the N, the
 * others run elsewhere: other processes or hosts (../example_launch.h).
 * --expect-unavail: the seed quota (the default rules): the operator's
 * first call must fail with HCCL_E_UNAVAIL on every rank (its 8 AICPU
 * threads x 8 notifies after the wrapped stream's 1: 65 > 64), and the
 * quota must still be 40 threads / 64 notifies to the unit: 7 x 9 more
 * notifies fit (64), 1 x 1 does not; 33 threads without notifies fit (40
 * acquired threads: a wrapped stream counts its notifies only), one more
 * does not. Its ranks (threads only) destroy their communicators together
 * (those of this process, the first one first):
 * see lib/src/rank_graph.c's topo_get() (a rank graph query fails once a
 * peer's communicator is gone). Exit status 0 when every check passed, 4 no device.
 */
#define _POSIX_C_SOURCE 200809L

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_rank_graph.h"
#include "hccl/hccl_res.h"
#include "all_gather_op.h"
#include "../example_launch.h"

struct opts {
	struct launch l;
	int rounds, expect_unavail;
	uint32_t nranks;
	uint64_t bytes;
};

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t done_bar;

static void say(uint32_t rank, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(uint32_t rank, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&out_lock);
	printf("  rank %u: ", rank);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

static uint8_t pattern(uint32_t rank, uint64_t i, int round)
{
	return (uint8_t)(rank * 97u + i * 7u + (uint64_t)round * 53u + (i >> 9) + 1);
}

/* The seed quota, to the unit, after the operator's refused first call. */
static int quota_edges(uint32_t rank, HcclComm comm, aclrtStream stream)
{
	ThreadHandle t[40], host;
	struct {
		uint32_t n, npt;
		HcclResult want;
	} steps[] = {
		{ 7, 9, HCCL_SUCCESS },		/* 1 + 63 = 64 notifies, 8 threads */
		{ 1, 1, HCCL_E_UNAVAIL },	/* the 65th notify */
		{ 32 + 1, 0, HCCL_SUCCESS },	/* 40 threads acquired */
		{ 1, 0, HCCL_E_UNAVAIL },	/* the 41st */
	};
	HcclResult got;
	unsigned int i;

	/* The operator's wrapped stream (1 notify) is still there. */
	got = HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1, &host);
	if (got != HCCL_SUCCESS) {
		say(rank, "the wrapped stream: %d", (int)got);
		return 1;
	}
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		got = HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, steps[i].n, steps[i].npt, t);
		if (got != steps[i].want) {
			say(rank, "HcclThreadAcquire(AICPU_TS, %u, %u): %d, not %d (the seed quota)",
			    steps[i].n, steps[i].npt, (int)got, (int)steps[i].want);
			return 1;
		}
	}
	return 0;
}

static int run_rank(const void *arg, const HcclRootInfo *root, uint32_t rank)
{
	const struct opts *o = arg;
	int32_t dev = launch_device(&o->l, rank);
	uint64_t b = o->bytes, total = b * o->nranks, j;
	void *in = NULL, *out = NULL;
	aclrtStream stream = NULL;
	HcclComm comm = NULL;
	HcclResult ret;
	uint32_t i;
	uint8_t *host;
	int fail = 0, round;

	if (aclrtSetDevice(dev) != ACL_SUCCESS ||
	    HcclCommInitRootInfo(o->nranks, root, rank, &comm) != HCCL_SUCCESS) {
		say(rank, "cannot join the communicator");
		return 1;
	}
	host = malloc(total);
	if (!host || aclrtCreateStream(&stream) != ACL_SUCCESS ||
	    aclrtMalloc(&in, b, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&out, total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		say(rank, "cannot allocate");
		fail = 1;
	}
	for (round = 0; !fail && round < o->rounds; round++) {
		for (j = 0; j < b; j++)
			host[j] = pattern(rank, j, round);
		if (aclrtMemcpy(in, b, host, b, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS ||
		    aclrtMemset(out, total, 0, total) != ACL_SUCCESS) {
			fail = 1;
			break;
		}
		ret = HcclAllGather(in, out, b, HCCL_DATA_TYPE_INT8, comm, stream);
		if (o->expect_unavail) {
			if (ret != HCCL_E_UNAVAIL) {
				say(rank, "8 x 8 notifies + a wrapped stream: %d, not HCCL_E_UNAVAIL (%d)",
				    (int)ret, (int)HCCL_E_UNAVAIL);
				fail = 1;
			} else {
				fail = quota_edges(rank, comm, stream);
			}
			if (!fail)
				say(rank, "8 x 8 + 1 refused with HCCL_E_UNAVAIL; 40 threads / 64 notifies to the unit");
			break;
		}
		if (ret == HCCL_SUCCESS)
			ret = (HcclResult)aclrtSynchronizeStream(stream);
		if (ret != HCCL_SUCCESS) {
			say(rank, "round %d: the AllGather failed: %d", round, (int)ret);
			fail = 1;
			break;
		}
		if (aclrtMemcpy(host, total, out, total, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
			fail = 1;
			break;
		}
		for (i = 0; !fail && i < o->nranks; i++)
			for (j = 0; j < b; j++)
				if (host[i * b + j] != pattern(i, j, round)) {
					say(rank, "byte %llu of rank %u's slot is %u, not %u (round %d)",
					    (unsigned long long)j, i, host[i * b + j],
					    pattern(i, j, round), round);
					fail = 1;
					break;
				}
		if (!fail && round == o->rounds - 1)
			say(rank, "AllGather of %u ranks x %llu bytes, %d rounds: every byte correct",
			    o->nranks, (unsigned long long)b, o->rounds);
	}
	free(host);
	if (!o->l.processes) {
		uint32_t *sizes = NULL, n = 0, first = o->l.first;

		/*
		 * The first rank here destroys its communicator first: the
		 * others' rank graph still answers (it once asked the driver
		 * for a group that needs every rank alive).
		 */
		pthread_barrier_wait(&done_bar);
		if (rank == first)
			fail |= HcclCommDestroy(comm) != HCCL_SUCCESS;
		pthread_barrier_wait(&done_bar);
		if (rank != first && HcclRankGraphGetInstSizeListByLayer(comm, 0, &sizes, &n) !=
			    HCCL_SUCCESS) {
			say(rank, "the rank graph after rank %u destroyed its communicator failed",
			    first);
			fail = 1;
		}
		if (rank != first)
			fail |= HcclCommDestroy(comm) != HCCL_SUCCESS;
	} else {
		fail |= HcclCommDestroy(comm) != HCCL_SUCCESS;
	}
	aclrtFree(in);
	aclrtFree(out);
	if (stream)
		aclrtDestroyStream(stream);
	aclrtResetDevice(dev);
	return fail;
}

static int usage(void)
{
	fprintf(stderr, "usage: hcclt-example-compop [--bytes B] [--rounds R] "
		"[--expect-unavail]\n    " LAUNCH_USAGE "\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct opts o = { .rounds = 2, .bytes = 64 << 10 };
	uint32_t ndev = 0;
	HcclRootInfo root;
	int fail = 0, i;

	for (i = 1; i < argc; i++) {
		if (launch_opt(&o.l, argc, argv, &i))
			continue;
		if (!strcmp(argv[i], "--expect-unavail"))
			o.expect_unavail = 1;
		else if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
			o.bytes = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--rounds") && i + 1 < argc)
			o.rounds = atoi(argv[++i]);
		else
			return usage();
	}
	if (o.l.bad || !o.bytes || o.rounds < 1 || (o.expect_unavail && o.l.processes))
		return usage();
	aclInit(NULL);
	if (aclrtGetDeviceCount(&ndev) != ACL_SUCCESS || !ndev) {
		fprintf(stderr, "no hcclthread device\n");
		return 4;
	}
	if (launch_setup(&o.l, ndev, CO_MAX_RANKS))
		return usage();
	o.nranks = o.l.nranks;
	printf("competition-style AllGather (%u AICPU threads x %u notifies + a wrapped stream) on "
	       "%u ranks%s as %s, %llu bytes per rank, %d rounds%s\n", CO_THREADS, CO_NOTIFIES,
	       o.nranks, launch_part(&o.l), o.l.processes ? "processes" : "threads",
	       (unsigned long long)o.bytes,
	       o.rounds, o.expect_unavail ? ": expecting HCCL_E_UNAVAIL (seed quota)" : "");
	fflush(stdout);
	if (launch_root_info(&o.l, &root))
		return 1;
	pthread_barrier_init(&done_bar, NULL, o.l.nlocal);
	fail = launch_ranks(&o.l, run_rank, &o, &root);
	pthread_barrier_destroy(&done_bar);
	aclFinalize();
	printf("%s\n", fail ? "FAILED" : "every check passed");
	return fail;
}
