// SPDX-License-Identifier: MIT
/*
 * N ranks of one communicator on the simulated N-card server, as threads
 * of this process (--threads, the default) or as processes (--processes).
 * Rank 0's process asks for the root info; the ranks get it through memory
 * (threads) or a pipe (processes), join on their own device, and print
 * their rank id, size and the communicator's name.
 *
 *   hcclt-example-ranks [--threads|--processes] [N]   (N: default all devices)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "example_util.h"

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

struct rank_arg {
	const HcclRootInfo *root;
	uint32_t rank, nranks;
	int ret;
};

/* One rank: its device is its rank number, as in CANN's samples. */
static int run_rank(const HcclRootInfo *root, uint32_t rank, uint32_t nranks)
{
	HcclComm comm = NULL;
	uint32_t id = 0, size = 0;
	char name[128];
	HcclResult r;

	if (aclrtSetDevice((int32_t)rank) != ACL_SUCCESS)
		return 1;
	r = HcclCommInitRootInfo(nranks, root, rank, &comm);
	if (r != HCCL_SUCCESS) {
		fprintf(stderr, "rank %u: HcclCommInitRootInfo: %s\n", rank, HcclGetErrorString(r));
		return 1;
	}
	HcclGetRankId(comm, &id);
	HcclGetRankSize(comm, &size);
	HcclGetCommName(comm, name);
	pthread_mutex_lock(&out_lock);
	printf("  rank %u of %u on device %u (pid %d): communicator \"%s\"\n",
	       id, size, rank, (int)getpid(), name);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	r = HcclCommDestroy(comm);
	aclrtResetDevice((int32_t)rank);
	return r != HCCL_SUCCESS;
}

static void *rank_thread(void *p)
{
	struct rank_arg *a = p;

	a->ret = run_rank(a->root, a->rank, a->nranks);
	return NULL;
}

int main(int argc, char **argv)
{
	int processes = 0, fail = 0, i, p[2];
	uint32_t ndev = 0, n = 0, r;
	HcclRootInfo root;
	const char *soc;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--processes"))
			processes = 1;
		else if (!strcmp(argv[i], "--threads"))
			processes = 0;
		else
			n = (uint32_t)atoi(argv[i]);
	}
	aclInit(NULL);
	acl_check(aclrtGetDeviceCount(&ndev), "aclrtGetDeviceCount");
	if (!n || n > ndev)
		n = ndev;
	soc = aclrtGetSocName();
	printf("%u ranks as %s on a %u-card %s server\n", n,
	       processes ? "processes" : "threads", ndev, soc ? soc : "?");
	acl_check(aclrtSetDevice(0), "aclrtSetDevice(0)");
	hccl_check(HcclGetRootInfo(&root), "HcclGetRootInfo");

	if (!processes) {
		struct rank_arg a[16];
		pthread_t t[16];

		for (r = 0; r < n; r++) {
			a[r].root = &root;
			a[r].rank = r;
			a[r].nranks = n;
			pthread_create(&t[r], NULL, rank_thread, &a[r]);
		}
		for (r = 0; r < n; r++) {
			pthread_join(t[r], NULL);
			fail |= a[r].ret;
		}
	} else {
		pid_t pid[16];
		int st;

		if (pipe(p))
			return 1;
		for (r = 0; r < n; r++) {
			pid[r] = fork();
			if (!pid[r]) {
				HcclRootInfo mine;

				if (read(p[0], &mine, sizeof(mine)) != (ssize_t)sizeof(mine))
					_exit(1);
				_exit(run_rank(&mine, r, n));
			}
		}
		/* The root info travels through the pipe, one copy per rank. */
		for (r = 0; r < n; r++)
			if (write(p[1], &root, sizeof(root)) != (ssize_t)sizeof(root))
				fail = 1;
		for (r = 0; r < n; r++) {
			waitpid(pid[r], &st, 0);
			fail |= !WIFEXITED(st) || WEXITSTATUS(st);
		}
	}
	aclFinalize();
	printf("%s\n", fail ? "FAILED" : "all ranks joined, named and destroyed");
	return fail;
}
