// SPDX-License-Identifier: MIT
/*
 * hcclt-bench-launch: the round trip of an empty AICPU kernel
 * (aclrtLaunchKernelWithConfig then aclrtSynchronizeStream), against the
 * round trip of a task the device runs without the AI CPU (an 8-byte
 * aclrtMemcpyAsync, then the same synchronize), timed in alternating
 * blocks in the same run. The first launch, which starts an AI CPU core,
 * is timed on its own. Prints Markdown rows (stdout, and appended to
 * -o FILE). Never part of make check.
 *
 *   hcclt-bench-launch [-o FILE.md] [-n ROUNDS]
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"

#define MAX_ROUNDS	4096

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static aclError launch(aclrtFuncHandle f, aclrtStream st)
{
	aclrtArgsHandle args;
	aclrtParamHandle ph;
	uint64_t word = 0;
	aclError r;

	r = aclrtKernelArgsInit(f, &args);
	if (!r)
		r = aclrtKernelArgsAppend(args, &word, sizeof(word), &ph);
	if (!r)
		r = aclrtKernelArgsFinalize(args);
	if (!r)
		r = aclrtLaunchKernelWithConfig(f, 1, st, NULL, args, NULL);
	if (!r)
		r = aclrtSynchronizeStream(st);
	return r;
}

static aclError copy(void *dst, const void *src, aclrtStream st)
{
	aclError r = aclrtMemcpyAsync(dst, 8, src, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, st);

	return r ? r : aclrtSynchronizeStream(st);
}

int main(int argc, char **argv)
{
	static double tl[MAX_ROUNDS], tc[MAX_ROUNDS];
	char exe[PATH_MAX], json[PATH_MAX + 64], *slash;
	const char *out = NULL;
	int rounds = 200, c, i, j;
	aclrtBinHandle bin;
	aclrtFuncHandle f;
	aclrtStream st;
	double t0, first, ml, mc;
	void *a, *b;
	ssize_t n;
	FILE *o;

	while ((c = getopt(argc, argv, "o:n:")) != -1) {
		if (c == 'o')
			out = optarg;
		else if (c == 'n')
			rounds = atoi(optarg);
		else
			return 2;
	}
	if (rounds < 10 || rounds > MAX_ROUNDS)
		rounds = 200;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(json, sizeof(json), "%s/aicpu-bench/bench_kernel.json", exe);
	if (aclrtSetDevice(0) || aclrtCreateStream(&st) ||
	    aclrtMalloc(&a, 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc(&b, 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtBinaryLoadFromFile(json, NULL, &bin) ||
	    aclrtBinaryGetFunction(bin, "HcclBenchEmptyKernel", &f)) {
		fprintf(stderr, "hcclt-bench-launch: setup failed (%s)\n", json);
		return 1;
	}
	t0 = now_us();
	if (launch(f, st)) {
		fprintf(stderr, "hcclt-bench-launch: the first launch failed\n");
		return 1;
	}
	first = now_us() - t0;
	/* Blocks of 10 of each, alternating: the host's noise hits both. */
	for (i = 0; i < rounds; i += 10) {
		for (j = i; j < i + 10; j++) {
			t0 = now_us();
			if (copy(b, a, st))
				return 1;
			tc[j] = now_us() - t0;
		}
		for (j = i; j < i + 10; j++) {
			t0 = now_us();
			if (launch(f, st))
				return 1;
			tl[j] = now_us() - t0;
		}
	}
	rounds -= rounds % 10;
	ml = median(tl, rounds);
	mc = median(tc, rounds);
	o = out ? fopen(out, "a") : NULL;
	for (i = 0; i < 2; i++) {
		FILE *f2 = i ? o : stdout;

		if (!f2)
			continue;
		fprintf(f2, "\n### AICPU kernel launch (%d rounds, median)\n\n", rounds);
		fprintf(f2, "| Row | Measured | Baseline | Ratio |\n|---|---|---|---|\n");
		fprintf(f2, "| empty kernel: launch to synchronize | %.0f us | 8-byte memcpy task %.0f us | %.2fx |\n",
			ml, mc, mc > 0 ? ml / mc : 0);
		fprintf(f2, "| the first launch (starts an AI CPU core) | %.0f us | | info |\n", first);
	}
	if (o)
		fclose(o);
	aclrtBinaryUnLoad(bin);
	aclrtFree(a);
	aclrtFree(b);
	aclrtDestroyStream(st);
	return 0;
}
