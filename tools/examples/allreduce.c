// SPDX-License-Identifier: MIT
/*
 * hcclt-example-allreduce: an AllReduce on every card, in the style of
 * the HCCL documentation's collective examples: one communicator of all
 * devices (HcclCommInitAll), one thread per rank that sets its device,
 * makes a stream, fills its input, calls HcclAllReduce and synchronises.
 * Prints each rank's check and the time and bus bandwidth (nccl-tests'
 * definition: 2 (n - 1) / n x bytes / time) of the average of @iters
 * AllReduces after one to warm up.
 *
 *   hcclt-example-allreduce [-c COUNT] [-n ITERS]    (COUNT fp32, default 16 Mi = 64 MiB)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "example_util.h"

#define MAX_DEV 16

struct rank {
	uint32_t id, n, iters;
	uint64_t count;
	HcclComm comm;
	double seconds;
	int ok;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *rank_main(void *arg)
{
	struct rank *r = arg;
	uint64_t bytes = r->count * sizeof(float), i;
	float *host = malloc(bytes), want = 0;
	aclrtStream stream;
	void *send, *recv;
	uint32_t k;
	double t0;

	acl_check(aclrtSetDevice((int32_t)r->id), "aclrtSetDevice");
	acl_check(aclrtCreateStream(&stream), "aclrtCreateStream");
	acl_check(aclrtMalloc(&send, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
	acl_check(aclrtMalloc(&recv, bytes, ACL_MEM_MALLOC_HUGE_FIRST), "aclrtMalloc");
	if (!host)
		exit(1);
	/* Rank i contributes i + 1 everywhere: the sum is n (n + 1) / 2. */
	for (i = 0; i < r->count; i++)
		host[i] = (float)(r->id + 1);
	acl_check(aclrtMemcpy(send, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE), "aclrtMemcpy");
	hccl_check(HcclAllReduce(send, recv, r->count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM,
				 r->comm, stream), "HcclAllReduce");
	acl_check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
	t0 = now();
	for (k = 0; k < r->iters; k++)
		hccl_check(HcclAllReduce(send, recv, r->count, HCCL_DATA_TYPE_FP32,
					 HCCL_REDUCE_SUM, r->comm, stream), "HcclAllReduce");
	acl_check(aclrtSynchronizeStream(stream), "aclrtSynchronizeStream");
	r->seconds = (now() - t0) / r->iters;
	acl_check(aclrtMemcpy(host, bytes, recv, bytes, ACL_MEMCPY_DEVICE_TO_HOST), "aclrtMemcpy");
	want = (float)r->n * (float)(r->n + 1) / 2;
	r->ok = 1;
	for (i = 0; i < r->count; i++)
		if (host[i] != want)
			r->ok = 0;
	free(host);
	aclrtFree(send);
	aclrtFree(recv);
	aclrtDestroyStream(stream);
	return NULL;
}

int main(int argc, char **argv)
{
	struct rank ranks[MAX_DEV];
	pthread_t th[MAX_DEV];
	int32_t devs[MAX_DEV];
	HcclComm comms[MAX_DEV];
	uint64_t count = 16ULL << 20;
	uint32_t n = 0, iters = 5, i;
	double worst = 0, algbw, busbw;
	int opt, ok = 1;

	while ((opt = getopt(argc, argv, "c:n:")) != -1) {
		if (opt == 'c')
			count = strtoull(optarg, NULL, 0);
		else if (opt == 'n')
			iters = (uint32_t)strtoul(optarg, NULL, 0);
		else {
			fprintf(stderr, "usage: %s [-c COUNT] [-n ITERS]\n", argv[0]);
			return 2;
		}
	}
	if (!count || !iters)
		return 2;
	acl_check(aclInit(NULL), "aclInit");
	acl_check(aclrtGetDeviceCount(&n), "aclrtGetDeviceCount");
	if (n > MAX_DEV)
		n = MAX_DEV;
	for (i = 0; i < n; i++)
		devs[i] = (int32_t)i;
	hccl_check(HcclCommInitAll(n, devs, comms), "HcclCommInitAll");
	for (i = 0; i < n; i++) {
		ranks[i] = (struct rank){ i, n, iters, count, comms[i], 0, 0 };
		pthread_create(&th[i], NULL, rank_main, &ranks[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], NULL);
		printf("rank %u on device %u: %s\n", i, i, ranks[i].ok ? "correct" : "WRONG");
		ok &= ranks[i].ok;
		if (ranks[i].seconds > worst)
			worst = ranks[i].seconds;
		HcclCommDestroy(comms[i]);
	}
	algbw = (double)count * sizeof(float) / worst / 1e9;
	busbw = n > 1 ? algbw * 2 * (n - 1) / n : algbw;
	printf("AllReduce of %llu fp32 (%.1f MiB) on %u cards: %.2f ms, algbw %.3f GB/s, "
	       "busbw %.3f GB/s\n", (unsigned long long)count,
	       (double)count * sizeof(float) / (1 << 20), n, worst * 1e3, algbw, busbw);
	aclFinalize();
	return ok ? 0 : 1;
}
