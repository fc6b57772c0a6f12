// SPDX-License-Identifier: MIT
/*
 * hcclt-bench-allgather: the example ring AllGather (custom_ops/) on every
 * card as threads of this process, timed against memcpy() in the same
 * guest, and with its kernel in batch mode against eager submission.
 * Prints Markdown rows (stdout, and appended to -o FILE).
 *
 *   hcclt-bench-allgather [-o FILE.md] [-b BYTES_PER_RANK] [-r ROUNDS]
 *
 * Algorithm bandwidth: the bytes every rank ends up with (ranks x BYTES)
 * over the time of one AllGather (launch to the last rank's synchronize,
 * the median of ROUNDS). The baseline is memcpy() of the same number of
 * bytes between two buffers of this process. Batch vs eager: the same
 * operator with EXAMPLE_EAGER=1 (every task submitted as the kernel queues
 * it); ioctls per round counted by interposing ioctl(): in this process
 * (all ranks) and, through libhcclt_count_ioctl.so preloaded into them,
 * in the AI CPU's core processes, where the kernels run. Never part of make check.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "example_ops.h"

#define MAX_RANKS 16
#define MAX_ROUNDS 64

static _Atomic unsigned long n_ioctls;
/* The AI CPU cores' count (libhcclt_count_ioctl.so), or NULL. */
static _Atomic unsigned long *n_core_ioctls;

static unsigned long ioctls_now(void)
{
	return atomic_load(&n_ioctls) + (n_core_ioctls ? atomic_load(n_core_ioctls) : 0);
}

/*
 * Have the AI CPU's processes, started after this, count their ioctls in
 * a file this process maps: they inherit the environment.
 */
static void count_cores(void)
{
	static char path[] = "/tmp/hcclt-bench-ioctls.XXXXXX";
	char exe[4096], shim[4200], *slash;
	ssize_t n;
	void *p;
	int fd;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(shim, sizeof(shim), "%s/aicpu/libhcclt_count_ioctl.so", exe);
	fd = mkstemp(path);
	if (fd < 0 || access(shim, R_OK) || ftruncate(fd, 4096)) {
		fprintf(stderr, "hcclt-bench-allgather: the AI CPU's ioctls are not counted\n");
		if (fd >= 0)
			close(fd);
		return;
	}
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return;
	n_core_ioctls = p;
	setenv("HCCLT_COUNT_IOCTL", path, 1);
	setenv("LD_PRELOAD", shim, 1);
}

/* Every ioctl of the process (libdrm's included) is counted here. */
int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	atomic_fetch_add(&n_ioctls, 1);
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_d);
	return v[n / 2];
}

struct shared {
	uint32_t nranks;
	uint64_t bytes;
	int rounds;
	HcclRootInfo root;
	pthread_barrier_t bar;
	double t[2][MAX_ROUNDS];	/* [eager][round] */
	unsigned long ioctls[2];
	int fail;
};

static void *rank_main(void *p)
{
	struct shared *sh = *(struct shared **)p;
	uint32_t rank = (uint32_t)(uintptr_t)((void **)p)[1];
	aclrtStream st = NULL;
	HcclComm comm = NULL;
	void *in = NULL, *out = NULL;
	unsigned long i0 = 0;
	int mode, k, bad = 0;
	double t0;

	if (aclrtSetDevice((int32_t)rank) ||
	    HcclCommInitRootInfo(sh->nranks, &sh->root, rank, &comm) ||
	    aclrtCreateStream(&st) ||
	    aclrtMalloc(&in, sh->bytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc(&out, sh->bytes * sh->nranks, ACL_MEM_MALLOC_HUGE_FIRST))
		bad = 1;
	/* A first round acquires the operator's resources: not timed. */
	if (!bad && (ExampleAllGather(in, out, sh->bytes, comm, st) ||
		     aclrtSynchronizeStream(st)))
		bad = 1;
	for (mode = 0; mode < 2; mode++) {
		if (rank == 0)
			setenv("EXAMPLE_EAGER", mode ? "1" : "0", 1);
		pthread_barrier_wait(&sh->bar);
		if (rank == 0)
			i0 = ioctls_now();
		for (k = 0; k < sh->rounds; k++) {
			pthread_barrier_wait(&sh->bar);
			t0 = now_s();
			if (!bad && (ExampleAllGather(in, out, sh->bytes, comm, st) ||
				     aclrtSynchronizeStream(st)))
				bad = 1;
			pthread_barrier_wait(&sh->bar);
			if (rank == 0)
				sh->t[mode][k] = now_s() - t0;
		}
		if (rank == 0)
			sh->ioctls[mode] = ioctls_now() - i0;
	}
	if (bad)
		sh->fail = 1;
	if (in)
		aclrtFree(in);
	if (out)
		aclrtFree(out);
	if (st)
		aclrtDestroyStream(st);
	if (comm)
		HcclCommDestroy(comm);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct shared sh = { .bytes = 8 << 20, .rounds = 5 };
	void *args[MAX_RANKS][2];
	pthread_t t[MAX_RANKS];
	double mc[MAX_ROUNDS], tb, te, tm, t0;
	const char *outfile = NULL;
	char *a, *b, line[1024];
	uint32_t ndev = 0, r;
	FILE *f;
	int c, k;

	count_cores();
	while ((c = getopt(argc, argv, "o:b:r:")) != -1) {
		if (c == 'o')
			outfile = optarg;
		else if (c == 'b')
			sh.bytes = strtoull(optarg, NULL, 0);
		else if (c == 'r')
			sh.rounds = atoi(optarg);
		else
			return 2;
	}
	if (!sh.bytes || sh.rounds < 1 || sh.rounds > MAX_ROUNDS)
		return 2;
	/* 2 x 32 MB: eight 8 MiB slots, the most this operator needs. */
	setenv("HCCL_BUFFSIZE", "32", 0);
	aclInit(NULL);
	if (aclrtGetDeviceCount(&ndev) || ndev < 2) {
		fprintf(stderr, "needs 2 hcclthread devices\n");
		return 3;
	}
	sh.nranks = ndev < 8 ? ndev : 8;
	aclrtSetDevice(0);
	if (HcclGetRootInfo(&sh.root))
		return 1;
	pthread_barrier_init(&sh.bar, NULL, sh.nranks);
	for (r = 0; r < sh.nranks; r++) {
		args[r][0] = &sh;
		args[r][1] = (void *)(uintptr_t)r;
		pthread_create(&t[r], NULL, rank_main, args[r]);
	}
	for (r = 0; r < sh.nranks; r++)
		pthread_join(t[r], NULL);
	if (sh.fail) {
		fprintf(stderr, "an AllGather failed\n");
		return 1;
	}
	/* The baseline: memcpy of what one AllGather delivers to a rank. */
	a = malloc(sh.bytes * sh.nranks);
	b = malloc(sh.bytes * sh.nranks);
	if (!a || !b)
		return 1;
	memset(a, 1, sh.bytes * sh.nranks);
	memset(b, 2, sh.bytes * sh.nranks);
	for (k = 0; k < sh.rounds; k++) {
		t0 = now_s();
		memcpy(b, a, sh.bytes * sh.nranks);
		mc[k] = now_s() - t0;
	}
	tm = median(mc, sh.rounds);
	tb = median(sh.t[0], sh.rounds);
	te = median(sh.t[1], sh.rounds);
	snprintf(line, sizeof(line),
		 "| AllGather, %u ranks x %llu MiB (batch mode) | %.1f ms, algbw %.2f GB/s | memcpy of %llu MiB: %.2f GB/s | %.3fx |\n"
		 "| AllGather, eager vs batch mode: time per round | %.1f ms vs %.1f ms | | %.2fx |\n"
		 "| AllGather, eager vs batch mode: ioctls per round (all ranks) | %.1f vs %.1f | | %.2fx |\n",
		 sh.nranks, (unsigned long long)(sh.bytes >> 20), tb * 1e3,
		 sh.bytes * sh.nranks / tb / 1e9,
		 (unsigned long long)((sh.bytes * sh.nranks) >> 20),
		 sh.bytes * sh.nranks / tm / 1e9, tm / tb,
		 te * 1e3, tb * 1e3, te / tb,
		 (double)sh.ioctls[1] / sh.rounds, (double)sh.ioctls[0] / sh.rounds,
		 sh.ioctls[0] ? (double)sh.ioctls[1] / sh.ioctls[0] : 0);
	fputs(line, stdout);
	if (outfile) {
		f = fopen(outfile, "a");
		if (!f)
			return 1;
		fputs(line, f);
		fclose(f);
	}
	free(a);
	free(b);
	aclFinalize();
	return 0;
}
