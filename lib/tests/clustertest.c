// SPDX-License-Identifier: MIT
/*
 * hcclt-clustertest: communicators across two hosts (two guests of
 * tools/vm/run-pair), their ranks meeting through the drivers' RDMA links
 * (Documentation/clusters.rst).
 *
 *   hcclt-clustertest root PORT	(on the root host, ranks 0 .. N-1)
 *   hcclt-clustertest join ADDR:PORT	(on the other host, ranks N .. 2N-1)
 *   hcclt-clustertest root PORT -b ROUNDS, join ADDR:PORT -b ROUNDS
 *
 * With -b (make bench): one rank per host on card 0, one channel, ROUNDS
 * ping-pongs of channel notifies queued at once; prints the round trip
 * ("channel notify round trip: U us") and runs none of the cases.
 *
 * N is the number of cards of the host (aclrtGetDeviceCount), one rank per
 * card, as threads. The root info travels as applications send theirs
 * (over MPI or a TCP store): the root serves it on TCP PORT, the joiner
 * reads it, once per case. Cases, each a TAP line on both hosts:
 *   1. the joiner's driver is refused a key no group has (HCCL_E_PARA,
 *      at once), and learns nothing else;
 *   2. 2N ranks form one communicator: every rank gets HCCL_SUCCESS, its
 *      rank and the size 2N; then each rank acquires a channel (RoCE, 2
 *      notifies) to its counterpart on the other host (rank r and r + N),
 *      the pairs ping-pong ROUNDS times over channel notifies, and the
 *      joiner's ranks destroy their communicators while the root's wait
 *      on them: those waits fail (ACL_ERROR_RT_STREAM_ABORT) within 5 s
 *      (15 s on the debug kernels, see break_limit());
 *   3. a rank of the joiner gives up (a 1 s timeout): the root's ranks
 *      waiting for the others fail within 10 s, with the code of a rank
 *      that left (HCCL_E_TCP_CONNECT);
 *   4. the joiner's host goes away (its eth0 down, 2 s after its rank
 *      joined: nothing says goodbye): the ranks of both hosts fail
 *      (HCCL_E_TCP_CONNECT) when their link's QP gives up, within 15 s.
 *      This case is last: the joiner's network stays down.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <acl/acl.h>
#include <hccl/hccl.h>
#include <hccl/hccl_res.h>
#include <hccl/hcomm_primitives.h>
#include <hcclthread.h>

#include "tap.h"

#define MAX_CARDS	64
#define ROUNDS		20

struct rank_arg {
	pthread_t tid;
	int32_t dev;
	uint32_t rank, nranks;
	const HcclRootInfo *root;
	HcclResult ret;
	uint32_t got_rank, got_size;
	double secs;
	int chan;	/* the channel case (2) after the join */
	int is_root;	/* a rank of the root host */
	int chan_ret;	/* 0, or the step of the channel case that failed */
	double pp_secs, break_secs;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Case 2's bound on the breaks, in seconds. It spans the joiner's 2 s
 * sleep, its ranks' teardown, the BREAK messages and, on rank 0, a run of
 * hcclthread-smi. On the debug kernels (KASAN, lockdep, release
 * *-hccltdbg) under TCG, with the host's other core busy, that took 5.15 s
 * (make check's pair-debug-6.12): 15 s there. A lost BREAK still fails
 * the case: the wait would then end at the synchronize's 30 s timeout.
 */
static double break_limit(void)
{
	struct utsname u;

	if (!uname(&u) && strstr(u.release, "-hccltdbg"))
		return 15;
	return 5;
}

/* Does hcclthread-smi --hangs name the host of rank @peer's side? */
static int hangs_name_host(uint32_t peer)
{
	char line[512], want[48];
	int found = 0;
	FILE *f;

	usleep(300000);	/* the wait parks */
	snprintf(want, sizeof(want), "from rank %u, host ", peer);
	f = popen("hcclthread-smi --hangs 2>&1", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, want)) {
			found = 1;
			printf("# %s", line);
		}
	}
	pclose(f);
	return found;
}

/* Case 2's channel part, on rank @a's communicator; 0 or the failed step. */
static int chan_case(struct rank_arg *a, HcclComm comm)
{
	uint32_t n = a->nranks / 2, k;
	HcclChannelDesc d;
	ChannelHandle ch;
	ThreadHandle th;
	aclError e;
	double t0;

	if (HcclThreadAcquire(comm, COMM_ENGINE_CPU, 1, 0, &th) != HCCL_SUCCESS)
		return 1;
	HcclChannelDescInit(&d, 1);
	d.remoteRank = a->rank < n ? a->rank + n : a->rank - n;
	d.channelProtocol = COMM_PROTOCOL_ROCE;
	d.notifyNum = 2;
	if (HcclChannelAcquire(comm, COMM_ENGINE_CPU, &d, 1, &ch) != HCCL_SUCCESS)
		return 2;
	t0 = now_s();
	for (k = 0; k < ROUNDS; k++) {
		if (a->is_root) {
			if (HcommChannelNotifyRecordOnThread(th, ch, 0) != HCCL_SUCCESS ||
			    HcommChannelNotifyWaitOnThread(th, ch, 1, 30) != HCCL_SUCCESS)
				return 3;
		} else {
			if (HcommChannelNotifyWaitOnThread(th, ch, 0, 30) != HCCL_SUCCESS ||
			    HcommChannelNotifyRecordOnThread(th, ch, 1) != HCCL_SUCCESS)
				return 3;
		}
	}
	if (hccltThreadSynchronize(th, 60000) != ACL_SUCCESS)
		return 4;
	a->pp_secs = now_s() - t0;
	if (!a->is_root) {
		/* The root's ranks park on notify 0, which nobody records. */
		sleep(2);
		return 0;
	}
	if (HcommChannelNotifyWaitOnThread(th, ch, 0, 0) != HCCL_SUCCESS)
		return 5;
	t0 = now_s();
	/* Rank 0: hcclthread-smi --hangs names the waits' peers by host. */
	if (!a->rank && !hangs_name_host(a->nranks / 2))
		return 7;
	e = hccltThreadSynchronize(th, 30000);
	a->break_secs = now_s() - t0;
	return e == ACL_ERROR_RT_STREAM_ABORT ? 0 : 6;
}

static void *rank_main(void *p)
{
	struct rank_arg *a = p;
	HcclComm comm = NULL;
	double t0 = now_s();

	if (aclrtSetDevice(a->dev) != ACL_SUCCESS) {
		a->ret = HCCL_E_RUNTIME;
		return NULL;
	}
	a->ret = HcclCommInitRootInfo(a->nranks, a->root, a->rank, &comm);
	a->secs = now_s() - t0;
	if (a->ret == HCCL_SUCCESS) {
		HcclGetRankId(comm, &a->got_rank);
		HcclGetRankSize(comm, &a->got_size);
		if (a->chan)
			a->chan_ret = chan_case(a, comm);
		HcclCommDestroy(comm);
	}
	aclrtResetDevice(a->dev);
	return NULL;
}

/* Serve @root to one reader on the listening socket @ls. */
static int serve(int ls, const HcclRootInfo *root)
{
	int fd = accept(ls, NULL, NULL);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, root, sizeof(*root));
	close(fd);
	return n == (ssize_t)sizeof(*root) ? 0 : -1;
}

/* Read a root info from ADDR:PORT, retrying for up to 120 s. */
static int fetch(const struct sockaddr_in *sa, HcclRootInfo *root)
{
	double end = now_s() + 120;
	size_t got;
	ssize_t n;
	int fd;

	for (;;) {
		fd = socket(AF_INET, SOCK_STREAM, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (const struct sockaddr *)sa, sizeof(*sa)))
			break;
		close(fd);
		if (now_s() > end)
			return -1;
		usleep(100000);
	}
	for (got = 0; got < sizeof(*root); got += (size_t)n) {
		n = read(fd, (char *)root + got, sizeof(*root) - got);
		if (n <= 0) {
			close(fd);
			return -1;
		}
	}
	close(fd);
	return 0;
}

/* Run ranks @base .. @base + @n - 1 of @nranks, one per card; join them. */
static void run_ranks(struct rank_arg *a, uint32_t n, uint32_t base,
		      uint32_t nranks, const HcclRootInfo *root, int chan)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].dev = (int32_t)i;
		a[i].rank = base + i;
		a[i].nranks = nranks;
		a[i].root = root;
		a[i].chan = chan;
		a[i].is_root = !base;
		pthread_create(&a[i].tid, NULL, rank_main, &a[i]);
	}
	for (i = 0; i < n; i++)
		pthread_join(a[i].tid, NULL);
}

/*
 * Cases 3 and 4 at the root: serve a new root info, run the root's ranks,
 * which must all fail as ranks that left (HCCL_E_TCP_CONNECT); @worst is
 * the longest wait. Returns whether they did.
 */
static int root_ranks_fail(struct rank_arg *a, uint32_t n, int ls, double *worst)
{
	HcclRootInfo root;
	int ok;
	uint32_t i;

	ok = HcclGetRootInfo(&root) == HCCL_SUCCESS && !serve(ls, &root);
	run_ranks(a, n, 0, 2 * n, &root, 0);
	*worst = 0;
	for (i = 0; i < n; i++) {
		if (a[i].ret != HCCL_E_TCP_CONNECT)
			ok = 0;
		if (a[i].secs > *worst)
			*worst = a[i].secs;
	}
	return ok;
}

static int usage(void)
{
	fprintf(stderr, "usage: hcclt-clustertest root PORT | join ADDR:PORT [-b ROUNDS]\n");
	return 2;
}

/* -b: the channel notify round trip between the two hosts' card 0. */
static int bench(int is_root, int ls, const struct sockaddr_in *sa, int rounds)
{
	uint32_t k, rank = is_root ? 0 : 1;
	HcclComm comm = NULL;
	HcclChannelDesc d;
	HcclRootInfo root;
	ChannelHandle ch;
	ThreadHandle th;
	double t0 = 0, t1;

	aclrtSetDevice(0);
	if (is_root ? HcclGetRootInfo(&root) != HCCL_SUCCESS || serve(ls, &root) :
		      fetch(sa, &root)) {
		fprintf(stderr, "bench: no root info\n");
		return 1;
	}
	if (HcclCommInitRootInfo(2, &root, rank, &comm) != HCCL_SUCCESS ||
	    HcclThreadAcquire(comm, COMM_ENGINE_CPU, 1, 0, &th) != HCCL_SUCCESS) {
		fprintf(stderr, "bench: no communicator or thread\n");
		return 1;
	}
	HcclChannelDescInit(&d, 1);
	d.remoteRank = 1 - rank;
	d.channelProtocol = COMM_PROTOCOL_ROCE;
	d.notifyNum = 2;
	if (HcclChannelAcquire(comm, COMM_ENGINE_CPU, &d, 1, &ch) != HCCL_SUCCESS) {
		fprintf(stderr, "bench: no channel\n");
		return 1;
	}
	/* One round first: both sides are there before the clock starts. */
	for (k = 0; k < (uint32_t)rounds + 1; k++) {
		if (k == 1) {
			if (hccltThreadSynchronize(th, 60000) != ACL_SUCCESS)
				return 1;
			t0 = now_s();
		}
		if (is_root) {
			HcommChannelNotifyRecordOnThread(th, ch, 0);
			HcommChannelNotifyWaitOnThread(th, ch, 1, 60);
		} else {
			HcommChannelNotifyWaitOnThread(th, ch, 0, 60);
			HcommChannelNotifyRecordOnThread(th, ch, 1);
		}
	}
	if (hccltThreadSynchronize(th, 600000) != ACL_SUCCESS) {
		fprintf(stderr, "bench: the ping-pong failed\n");
		return 1;
	}
	t1 = now_s();
	printf("channel notify round trip: %.1f us (%d rounds in %.3f s)\n",
	       (t1 - t0) * 1e6 / rounds, rounds, t1 - t0);
	HcclCommDestroy(comm);
	aclrtResetDevice(0);
	return 0;
}

int main(int argc, char **argv)
{
	struct rank_arg a[MAX_CARDS];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	HcclRootInfo root, bad;
	uint32_t n, i, cards;
	int is_root, ls = -1, ok, one = 1;
	double worst;
	char *colon;

	int rounds = 0;

	if (argc == 5 && !strcmp(argv[3], "-b"))
		rounds = atoi(argv[4]);
	else if (argc != 3)
		return usage();
	if (argc == 5 && rounds < 1)
		return usage();
	is_root = !strcmp(argv[1], "root");
	if (!is_root && strcmp(argv[1], "join"))
		return usage();
	colon = strrchr(argv[2], ':');
	if (is_root) {
		sa.sin_port = htons((uint16_t)atoi(argv[2]));
	} else {
		if (!colon)
			return usage();
		*colon = '\0';
		if (inet_pton(AF_INET, argv[2], &sa.sin_addr) != 1)
			return usage();
		sa.sin_port = htons((uint16_t)atoi(colon + 1));
	}
	if (aclInit(NULL) != ACL_SUCCESS || aclrtGetDeviceCount(&cards) != ACL_SUCCESS ||
	    !cards) {
		printf("Bail out! no device\n");
		return 1;
	}
	n = cards < MAX_CARDS ? cards : MAX_CARDS;
	if (rounds) {
		if (is_root) {
			ls = socket(AF_INET, SOCK_STREAM, 0);
			setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
			if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) ||
			    listen(ls, 4))
				return 1;
		}
		return bench(is_root, ls, &sa, rounds);
	}
	printf("1..4\n# %s: %u ranks here, %u in all\n", argv[1], n, 2 * n);
	fflush(stdout);

	if (is_root) {
		ls = socket(AF_INET, SOCK_STREAM, 0);
		setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (ls < 0 || bind(ls, (struct sockaddr *)&sa, sizeof(sa)) ||
		    listen(ls, 4)) {
			printf("Bail out! cannot listen on port %s\n", argv[2]);
			return 1;
		}
	}

	/* 1: a key nobody made is refused by the root host's driver. */
	if (is_root) {
		aclrtSetDevice(0);
		ok = HcclGetRootInfo(&root) == HCCL_SUCCESS && !serve(ls, &root);
		tap_ok(ok, "root: the joiner's wrong key was served (its refusal is checked there)");
	} else {
		HcclComm comm = NULL;
		HcclResult r;
		double t0;

		ok = !fetch(&sa, &root);
		bad = root;
		/* The key follows the magic and version (lib/src/group.c). */
		for (i = 8; i < 24; i++)
			bad.internal[i] ^= 0x5a;
		aclrtSetDevice(0);
		t0 = now_s();
		r = ok ? HcclCommInitRootInfo(2 * n, &bad, n, &comm) : HCCL_E_INTERNAL;
		tap_ok(ok && r == HCCL_E_PARA && now_s() - t0 < 10,
		       "a wrong key is refused by the root host (HcclCommInitRootInfo: %d, %.2f s)",
		       (int)r, now_s() - t0);
		aclrtResetDevice(0);
	}

	/* 2: one communicator of 2N ranks on two hosts. */
	if (is_root) {
		ok = HcclGetRootInfo(&root) == HCCL_SUCCESS && !serve(ls, &root);
		run_ranks(a, n, 0, 2 * n, &root, 1);
	} else {
		ok = !fetch(&sa, &root);
		run_ranks(a, n, n, 2 * n, &root, 1);
	}
	worst = 0;
	for (i = 0; i < n; i++) {
		if (a[i].ret != HCCL_SUCCESS || a[i].got_rank != a[i].rank ||
		    a[i].got_size != 2 * n || a[i].chan_ret) {
			printf("# rank %u: %d, rank %u, size %u, channel step %d\n",
			       a[i].rank, (int)a[i].ret, a[i].got_rank, a[i].got_size,
			       a[i].chan_ret);
			ok = 0;
		}
		if (a[i].break_secs > worst)
			worst = a[i].break_secs;
	}
	printf("# channel ping-pong: %d round trips of 8 pairs at once in %.3f s (rank %u)\n",
	       ROUNDS, a[0].pp_secs, a[0].rank);
	tap_ok(ok && worst < break_limit(),
	       "%u ranks on two hosts form one communicator; channels between the hosts ping-pong; a peer that goes breaks them (%.2f s)",
	       2 * n, worst);

	/* 3: a rank of the joiner gives up: the root's ranks fail at once. */
	if (is_root) {
		ok = root_ranks_fail(a, n, ls, &worst);
		tap_ok(ok && worst < 10,
		       "a rank of the other host that gave up fails the root's ranks (%d, %.2f s)",
		       (int)a[0].ret, worst);
	} else {
		ok = !fetch(&sa, &root);
		setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
		run_ranks(a, 1, n, 2 * n, &root, 0);
		tap_ok(ok && a[0].ret == HCCL_E_TIMEOUT,
		       "a rank that waits past its timeout gives up (%d)", (int)a[0].ret);
	}
	/* 4: the other host goes away while the ranks wait. */
	if (is_root) {
		ok = root_ranks_fail(a, n, ls, &worst);
		tap_ok(ok && worst < 20,
		       "the other host gone: the root's waiting ranks fail (%d, %.2f s after they joined)",
		       (int)a[0].ret, worst);
	} else {
		double t0;

		ok = !fetch(&sa, &root);
		unsetenv("HCCL_CONNECT_TIMEOUT");
		memset(&a[0], 0, sizeof(a[0]));
		a[0].rank = n;
		a[0].nranks = 2 * n;
		a[0].root = &root;
		pthread_create(&a[0].tid, NULL, rank_main, &a[0]);
		sleep(2);
		t0 = now_s();
		if (system("ip link set eth0 down"))
			ok = 0;
		pthread_join(a[0].tid, NULL);
		/* Waiting (the link fails), or still connecting (6.1: seen). */
		tap_ok(ok && (a[0].ret == HCCL_E_TCP_CONNECT ||
			      a[0].ret == HCCL_E_ROCE_CONNECT) && now_s() - t0 < 15,
		       "this host's network gone: its waiting rank fails (%d, %.2f s after, %.2f s in all)",
		       (int)a[0].ret, now_s() - t0, a[0].secs);
	}
	if (ls >= 0)
		close(ls);
	return tap_done();
}
