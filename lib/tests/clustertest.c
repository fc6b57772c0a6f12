// SPDX-License-Identifier: MIT
/*
 * hcclt-clustertest: communicators across two hosts (two guests of
 * tools/vm/run-pair), their ranks meeting through the drivers' RDMA links
 * (Documentation/clusters.rst).
 *
 *   hcclt-clustertest root PORT	(on the root host, ranks 0 .. N-1)
 *   hcclt-clustertest join ADDR:PORT	(on the other host, ranks N .. 2N-1)
 *   hcclt-clustertest root PORT -b ROUNDS, join ADDR:PORT -b ROUNDS
 *   hcclt-clustertest root PORT -k, join ADDR:PORT -k	(case 7 alone)
 *   hcclt-clustertest root PORT -m, join ADDR:PORT -m	(map_main())
 *
 * With -b (make bench): one rank per host on card 0, one channel, ROUNDS
 * ping-pongs of channel notifies queued at once; prints the round trip
 * ("channel notify round trip: U us"), then the joiner's card WRITEs 64
 * MiB into the root's HCCL buffer ("write 64 MiB: B MB/s", printed by the
 * joiner), and runs none of the cases. With -a ITERS (make bench): the 2N
 * ranks run ITERS AllReduces of 8 MiB (float32, sum) after one; rank N
 * prints the bus bandwidth ("allreduce 8 MiB: busbw B MB/s").
 *
 * N is the number of cards of the host (aclrtGetDeviceCount), one rank per
 * card, as threads. The root info travels as applications send theirs
 * (over MPI or a TCP store): the root serves it on TCP PORT, the joiner
 * reads it, once per case. Cases, each a TAP line on both hosts:
 *   1. the joiner's driver is refused a key no group has (HCCL_E_PARA,
 *      at once), and learns nothing else;
 *   2. 2N ranks form one communicator: every rank gets HCCL_SUCCESS, its
 *      rank and the size 2N; its rank graph has the cluster layer across
 *      the hosts (graph_case()); then each rank acquires a channel (the
 *      graph's RoCE link, 2 notifies) to its counterpart on the other host
 *      (rank r and r + N), the pairs ping-pong ROUNDS times over channel
 *      notifies, move data both ways (data_case(): WRITE, READ,
 *      WRITE_REDUCE, READ_REDUCE between the HCCL buffers, RDMA between
 *      the drivers, every byte checked), list, read, write and reduce
 *      into ranges the joiner's rank N registered and fail a write into
 *      one unregistered (reg_case(), rank 0), and the joiner's ranks destroy
 *      their communicators while the root's wait
 *      on them: those waits fail (ACL_ERROR_RT_STREAM_ABORT) within 5 s
 *      (15 s on the debug kernels, see break_limit());
 *   3. 2N ranks run HCCL's collectives of libhccl (coll_case():
 *      HcclAllReduce, HcclAllGather, HcclBroadcast, HcclReduceScatter,
 *      int32 sum), every element checked: the ring crosses the hosts
 *      twice, by the data tasks of channels between them;
 *   4. a rank of the joiner gives up (a 1 s timeout): the root's ranks
 *      waiting for the others fail within 10 s, with the code of a rank
 *      that left (HCCL_E_TCP_CONNECT);
 *   5. the joiner's 8 ranks run in a process of their own
 *      (hcclt-clustertest kill-child FILE FD), AllReduces with the root's
 *      until the joiner kills it (SIGKILL, 2 s after its first AllReduce
 *      is done) and tells
 *      the root: the root's ranks' AllReduce fails within 1.5 s of hearing
 *      it (target 1 s: the driver of the killed process's host breaks its
 *      channels as the process's files close; 5 s on the debug kernels,
 *      see kill_limit());
 *   6. the joiner's host goes away (its eth0 down, 2 s after its rank
 *      joined: nothing says goodbye): the ranks of both hosts fail
 *      (HCCL_E_TCP_CONNECT) when their link's QP gives up, within 15 s.
 *      This case is last: the joiner's network stays down.
 *
 * Case 7 runs alone (-k on both hosts), in a guest pair whose joiner is
 * killed by the host (tools/vm/run-pair --kill-b-on LINE; make check runs
 * it after cases 1-6 and the joiner's checkpoint, tools/vm/guest/
 * hcclt-pair-smoke): the 2N ranks run AllReduces as in case 5; 2 s after
 * the joiner's third is done, the joiner prints KILL_LINE, on which the
 * host SIGKILLs its whole QEMU: nothing of the joiner's host says goodbye
 * (no process exits, no driver breaks a channel, no QP is torn down). The
 * root's ranks must fail (ACL_ERROR_RT_STREAM_ABORT) within
 * 5 s of the kill, the joiner's driver found gone by the link's beats
 * (Documentation/clusters.rst, "Failure of a link"). The root cannot see
 * the host's clock: once all its ranks failed it writes FAILED_LINE to
 * the console, whose arrival the host times against the kill
 * (tools/vm/run-pair --kill-b-on; tools/check.sh checks the 5 s). Its own
 * check is looser (host_kill_limit()), on an upper bound it can measure
 * alone, explained at kill_loop().
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <acl/acl.h>
#include <hccl/hccl.h>
#include <hccl/hccl_rank_graph.h>
#include <hccl/hccl_res.h>
#include <hccl/hcomm_primitives.h>
#include <hccl/hccl_comm.h>
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
	double pp_secs, break_secs, data_secs;
	uint32_t layers;	/* of its rank graph */
	int coll;	/* the collectives case (3) after the join */
	int coll_ret;	/* 0, or the step of it that failed */
	int ar_iters;	/* -a: the AllReduce bench's iterations instead */
	int kill;	/* case 5: AllReduces until one fails */
	double t_fail;	/* when it failed (now_s()) */
	double t_alive;	/* case 7: the other host was alive after this */
	double t_last_ok;	/* when its last good AllReduce ended */
	int fail_code;	/* how: the call's or its stream's code */
	uint32_t loops;	/* AllReduces done before */
	double coll_secs;
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
static int debug_kernel(void)
{
	struct utsname u;

	return !uname(&u) && strstr(u.release, "-hccltdbg");
}

static double break_limit(void)
{
	return debug_kernel() ? 15 : 5;
}

/*
 * Case 5's bound on the root's failure after it heard of the kill: the
 * target is 1 s; 1.5 s on Debian's kernels for TCG's jitter, 5 s on the
 * debug kernels (KASAN, lockdep under TCG, several times slower).
 */
static double kill_limit(void)
{
	return debug_kernel() ? 5 : 1.5;
}

/*
 * Case 7's bound on the root's own upper bound of its failure after the
 * other host's QEMU was killed (see kill_loop()): the failure comes 3-3.5 s
 * after the kill (3 s of the link's silent beats), which the host checks
 * against 5 s; the root's bound adds up to two AllReduces (0.3-0.6 s
 * each under TCG), so its check is looser: 8 s. On the debug kernels an
 * AllReduce of the 16 ranks took up to 6 s on a busy host, and the bound
 * 21.3 s (the host's clock: 8.3 s): 40 s there.
 */
static double host_kill_limit(void)
{
	return debug_kernel() ? 40 : 8;
}

/*
 * Case 7's lines for the host: the joiner prints KILL_LINE, alone, when it
 * may be killed; the root writes FAILED_LINE to the console once all its
 * ranks failed.
 */
#define KILL_LINE	"hcclt-pair: kill this guest now"
#define FAILED_LINE	"hcclt-pair: the root's ranks all failed"

/* Case 7 at the root: its ranks that failed, and how many are all. */
static uint32_t kill_failed, kill_all;

/*
 * @line to the console, past whatever captures stdout (the guest script's
 * run() does), for the host to time; to stdout when there is no console.
 */
static void tell_host(const char *line)
{
	FILE *f = fopen("/dev/console", "w");

	fprintf(f ? f : stdout, "%s\n", line);
	if (f)
		fclose(f);
	else
		fflush(stdout);
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

/* Bytes of the data part: two RDMA chunks and a few, at odd offsets. */
#define DATA_LEN	((1u << 20) + 4108)
#define DATA_OFF_W	4100u			/* written by the root's rank */
#define DATA_OFF_R	(8u << 20)		/* read by the joiner's */
#define DATA_OFF_S	(16u << 20)		/* reduced into by the joiner's */
#define DATA_COUNT	(65536 + 3)		/* int32 elements reduced */
#define DATA_RR		1024			/* int32 elements read-reduced */

static uint8_t pat_w(uint32_t i, uint32_t r)
{
	return (uint8_t)(i * 7 + r);
}

static uint8_t pat_r(uint32_t i, uint32_t r)
{
	return (uint8_t)(i * 13 + r + 1);
}

/* @len bytes of device memory at @dev into host memory at @host. */
static int d2h(void *host, const void *dev, size_t len)
{
	return aclrtMemcpy(host, len, dev, len, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS;
}

static int h2d(void *dev, const void *host, size_t len)
{
	return aclrtMemcpy(dev, len, host, len, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS;
}

/*
 * Case 2's data part, between rank r (root host) and r + N over channel
 * @ch (notifies 0 and 1 free): the root's rank WRITEs into the joiner's
 * buffer and fills its own; the joiner's checks the write, READs the
 * root's buffer and WRITE_REDUCEs (int32 sum) into it; the root's checks
 * that and READ_REDUCEs the joiner's buffer. Every check of the bytes
 * themselves. 0 or the failed step (20 and up).
 */
static int data_case(struct rank_arg *a, HcclComm comm, ThreadHandle th, ChannelHandle ch)
{
	uint32_t r = a->is_root ? a->rank : a->rank - a->nranks / 2, i;
	void *mine, *peer, *dev = NULL;
	uint64_t msize, psize;
	uint8_t *h = malloc(DATA_LEN);
	int32_t *v = malloc(DATA_COUNT * sizeof(int32_t));
	int ret = 0;

	if (!h || !v)
		return 20;
	if (HcclGetHcclBuffer(comm, &mine, &msize) != HCCL_SUCCESS) {
		ret = 21;
		goto out;
	}
	ret = HcclChannelGetHcclBuffer(comm, ch, &peer, &psize);
	if (ret != HCCL_SUCCESS) {
		printf("# rank %u: HcclChannelGetHcclBuffer: %d\n", a->rank, ret);
		ret = 36;
		goto out;
	}
	if (psize < DATA_OFF_S + DATA_COUNT * sizeof(int32_t) || psize != msize) {
		printf("# rank %u: peer buffer %llu bytes, own %llu\n", a->rank,
		       (unsigned long long)psize, (unsigned long long)msize);
		ret = 37;
		goto out;
	}
	if (aclrtMalloc(&dev, DATA_LEN, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		ret = 22;
		goto out;
	}
	if (a->is_root) {
		for (i = 0; i < DATA_LEN; i++)
			h[i] = pat_w(i, r);
		if (h2d(dev, h, DATA_LEN)) {
			ret = 23;
			goto out;
		}
		for (i = 0; i < DATA_LEN; i++)
			h[i] = pat_r(i, r);
		for (i = 0; i < DATA_COUNT; i++)
			v[i] = (int32_t)(i + r);
		if (h2d((char *)mine + DATA_OFF_R, h, DATA_LEN) ||
		    h2d((char *)mine + DATA_OFF_S, v, DATA_COUNT * sizeof(int32_t))) {
			ret = 24;
			goto out;
		}
		/* The record follows the write: the data is there first. */
		ret = HcommWriteOnThread(th, ch, (char *)peer + DATA_OFF_W, dev, DATA_LEN);
		if (!ret)
			ret = HcommChannelNotifyRecordOnThread(th, ch, 0);
		if (!ret)
			ret = HcommChannelNotifyWaitOnThread(th, ch, 1, 60);
		if (!ret)
			ret = hccltThreadSynchronize(th, 120000);
		if (ret) {
			printf("# rank %u: write, record, wait: %d\n", a->rank, ret);
			ret = 25;
			goto out;
		}
		if (d2h(v, (char *)mine + DATA_OFF_S, DATA_COUNT * sizeof(int32_t))) {
			ret = 26;
			goto out;
		}
		for (i = 0; i < DATA_COUNT; i++)
			if (v[i] != (int32_t)(4 * i + r)) {
				ret = 27;
				goto out;
			}
		/* READ_REDUCE of the joiner's written bytes, as int32. */
		for (i = 0; i < DATA_RR; i++)
			v[i] = 5;
		if (h2d(dev, v, DATA_RR * sizeof(int32_t)) ||
		    HcommReadReduceOnThread(th, ch, dev, (char *)peer + DATA_OFF_W, DATA_RR,
					    HCOMM_DATA_TYPE_INT32, HCOMM_REDUCE_SUM) != HCCL_SUCCESS ||
		    hccltThreadSynchronize(th, 60000) != ACL_SUCCESS ||
		    d2h(v, dev, DATA_RR * sizeof(int32_t))) {
			ret = 28;
			goto out;
		}
		for (i = 0; i < DATA_LEN; i++)
			h[i] = pat_w(i, r);
		for (i = 0; i < DATA_RR; i++) {
			int32_t w;

			memcpy(&w, h + 4 * i, sizeof(w));
			if (v[i] != (int32_t)((uint32_t)w + 5u)) {
				ret = 29;
				goto out;
			}
		}
		/* The joiner's rank waits for this before it goes. */
		if (HcommChannelNotifyRecordOnThread(th, ch, 0) != HCCL_SUCCESS ||
		    hccltThreadSynchronize(th, 60000) != ACL_SUCCESS)
			ret = 30;
		goto out;
	}
	if (HcommChannelNotifyWaitOnThread(th, ch, 0, 60) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 120000) != ACL_SUCCESS || d2h(h, (char *)mine + DATA_OFF_W, DATA_LEN)) {
		ret = 31;
		goto out;
	}
	for (i = 0; i < DATA_LEN; i++)
		if (h[i] != pat_w(i, r)) {
			ret = 32;
			goto out;
		}
	if (HcommReadOnThread(th, ch, dev, (char *)peer + DATA_OFF_R, DATA_LEN) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 120000) != ACL_SUCCESS || d2h(h, dev, DATA_LEN)) {
		ret = 33;
		goto out;
	}
	for (i = 0; i < DATA_LEN; i++)
		if (h[i] != pat_r(i, r)) {
			ret = 34;
			goto out;
		}
	for (i = 0; i < DATA_COUNT; i++)
		v[i] = (int32_t)(3 * i);
	if (h2d(dev, v, DATA_COUNT * sizeof(int32_t)) ||
	    HcommWriteReduceOnThread(th, ch, (char *)peer + DATA_OFF_S, dev, DATA_COUNT,
				     HCOMM_DATA_TYPE_INT32, HCOMM_REDUCE_SUM) != HCCL_SUCCESS ||
	    HcommChannelNotifyRecordOnThread(th, ch, 1) != HCCL_SUCCESS ||
	    HcommChannelNotifyWaitOnThread(th, ch, 0, 60) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 120000) != ACL_SUCCESS)
		ret = 35;
out:
	if (dev)
		aclrtFree(dev);
	free(h);
	free(v);
	return ret;
}

/*
 * Case 2's registered ranges, on the pair of rank 0: the joiner's rank
 * registers two ranges
 * (HcclCommMemReg): "ct-a", REG_LEN bytes at REG_BASE of an allocation
 * (neither aligned to a page: the owner's bounds are the range's, not
 * the object's), and "ct-b", a small one of another allocation. The
 * root's rank lists them (HcclChannelGetRemoteMems: tags and sizes, over
 * the link), READs all of "ct-a" (two RDMA chunks), WRITEs REG_W bytes
 * into it at REG_OFF_W and WRITE_REDUCEs REG_S int32 at REG_OFF_S; the
 * joiner's checks both in its memory. Then the joiner unregisters "ct-b":
 * the root's WRITE into it fails when it runs (its host finds no such
 * range), on a thread of its own, and a new listing has "ct-a" alone.
 * Notifies: the joiner records 1 three times (the last once it has
 * unregistered everything), the root records 0 twice. 0 or the failed
 * step (40 and up).
 */
#define REG_OBJ		(3u << 19)
#define REG_BASE	4100u
#define REG_LEN		((1u << 20) + 12)	/* a READ of two chunks */
#define REG_OFF_W	5u
#define REG_W		((128u << 10) + 100)
#define REG_OFF_S	(REG_LEN - 4000)	/* REG_BASE + it: whole int32 */
#define REG_S		1000u

static uint8_t pat_m(uint32_t i, uint32_t r)
{
	return (uint8_t)(i * 11 + r + 3);
}

static int reg_root(struct rank_arg *a, HcclComm comm, ThreadHandle th, ChannelHandle ch,
		    uint8_t *h, void *dev, uint32_t r)
{
	CommMem *mems = NULL;
	char **tags = NULL;
	ThreadHandle th2;
	uint32_t n = 0, i;
	int32_t v[REG_S];
	char *ra;
	int ret;

	if (HcommChannelNotifyWaitOnThread(th, ch, 1, 60) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 60000) != ACL_SUCCESS)
		return 40;
	ret = HcclChannelGetRemoteMems(comm, ch, &n, &mems, &tags);
	if (ret != HCCL_SUCCESS || n != 2 || strcmp(tags[0], "ct-a") || strcmp(tags[1], "ct-b") ||
	    mems[0].size != REG_LEN || mems[1].size != 8192) {
		printf("# rank %u: HcclChannelGetRemoteMems: %d, %u ranges\n", a->rank, ret, n);
		return 41;
	}
	ra = mems[0].addr;
	if (HcommReadOnThread(th, ch, dev, ra, REG_LEN) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 120000) != ACL_SUCCESS || d2h(h, dev, REG_LEN))
		return 42;
	for (i = 0; i < REG_LEN; i++)
		if (h[i] != pat_m(REG_BASE + i, r)) {
			printf("# rank %u: byte %u of ct-a read: %u, not %u\n", a->rank, i, h[i],
			       pat_m(REG_BASE + i, r));
			return 43;
		}
	for (i = 0; i < REG_W; i++)
		h[i] = pat_w(i, r);
	for (i = 0; i < REG_S; i++)
		v[i] = (int32_t)(i * 5 + 1);
	if (h2d(dev, h, REG_W) || h2d((char *)dev + REG_W, v, sizeof(v)))
		return 44;
	ret = HcommWriteOnThread(th, ch, ra + REG_OFF_W, dev, REG_W);
	if (!ret)
		ret = HcommWriteReduceOnThread(th, ch, ra + REG_OFF_S, (char *)dev + REG_W, REG_S,
					       HCOMM_DATA_TYPE_INT32, HCOMM_REDUCE_SUM);
	/* One byte past the range: refused before it runs. */
	if (!ret && HcommWriteOnThread(th, ch, ra + REG_LEN - 10, dev, 11) != HCCL_E_PARA)
		ret = 45;
	if (!ret)
		ret = HcommChannelNotifyRecordOnThread(th, ch, 0);
	if (!ret)
		ret = HcommChannelNotifyWaitOnThread(th, ch, 1, 60);
	if (!ret)
		ret = hccltThreadSynchronize(th, 120000);
	if (ret) {
		printf("# rank %u: write, reduce into ct-a: %d\n", a->rank, ret);
		return ret == 45 ? 45 : 46;
	}
	/* "ct-b" is gone: the write fails where it runs, at its owner. */
	if (HcclThreadAcquire(comm, COMM_ENGINE_CPU, 1, 0, &th2) != HCCL_SUCCESS)
		return 47;
	ret = HcommWriteOnThread(th2, ch, mems[1].addr, dev, 100);
	if (ret == HCCL_SUCCESS && hccltThreadSynchronize(th2, 60000) == ACL_SUCCESS) {
		printf("# rank %u: a write into an unregistered range succeeded\n", a->rank);
		return 48;
	}
	ret = HcclChannelGetRemoteMems(comm, ch, &n, &mems, &tags);
	if (ret != HCCL_SUCCESS || n != 1 || strcmp(tags[0], "ct-a"))
		return 49;
	/* The joiner's rank is done with its ranges when it records. */
	if (HcommChannelNotifyRecordOnThread(th, ch, 0) != HCCL_SUCCESS ||
	    HcommChannelNotifyWaitOnThread(th, ch, 1, 120) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 180000) != ACL_SUCCESS)
		return 50;
	return 0;
}

static int reg_joiner(struct rank_arg *a, HcclComm comm, ThreadHandle th, ChannelHandle ch,
		      uint8_t *h, uint32_t r)
{
	void *obj = NULL, *objb = NULL, *ha = NULL, *hb = NULL;
	CommMem ma = { COMM_MEM_TYPE_DEVICE, NULL, REG_LEN };
	CommMem mb = { COMM_MEM_TYPE_DEVICE, NULL, 8192 };
	int32_t v[REG_S], w;
	uint32_t i;
	int ret = 0;

	if (aclrtMalloc(&obj, REG_OBJ, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&objb, 8192, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		ret = 51;
		goto out;
	}
	for (i = 0; i < REG_OBJ; i++)
		h[i] = pat_m(i, r);
	ma.addr = (char *)obj + REG_BASE;
	mb.addr = objb;
	if (h2d(obj, h, REG_OBJ) || HcclCommMemReg(comm, "ct-a", &ma, &ha) != HCCL_SUCCESS ||
	    HcclCommMemReg(comm, "ct-b", &mb, &hb) != HCCL_SUCCESS) {
		ret = 52;
		goto out;
	}
	if (HcommChannelNotifyRecordOnThread(th, ch, 1) != HCCL_SUCCESS ||
	    HcommChannelNotifyWaitOnThread(th, ch, 0, 120) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 180000) != ACL_SUCCESS || d2h(h, obj, REG_OBJ)) {
		ret = 53;
		goto out;
	}
	/* The write, the reduce, and not one byte around the range. */
	for (i = 0; i < REG_OBJ; i++) {
		uint32_t k = i - REG_BASE;
		uint8_t want = pat_m(i, r);

		if (i >= REG_BASE && k >= REG_OFF_W && k < REG_OFF_W + REG_W)
			want = pat_w(k - REG_OFF_W, r);
		if (i >= REG_BASE && k >= REG_OFF_S && k < REG_OFF_S + sizeof(v))
			continue;
		if (h[i] != want) {
			printf("# rank %u: byte %u of the registered object: %u, not %u\n",
			       a->rank, i, h[i], want);
			ret = 54;
			goto out;
		}
	}
	memcpy(v, h + REG_BASE + REG_OFF_S, sizeof(v));
	for (i = 0; i < REG_S; i++) {
		uint8_t b[4];
		uint32_t j;

		for (j = 0; j < 4; j++)
			b[j] = pat_m(REG_BASE + REG_OFF_S + 4 * i + j, r);
		memcpy(&w, b, sizeof(w));
		if (v[i] != (int32_t)((uint32_t)w + i * 5 + 1)) {
			ret = 55;
			goto out;
		}
	}
	if (HcclCommDeregMem(comm, "ct-b", hb) != HCCL_SUCCESS) {
		ret = 56;
		goto out;
	}
	hb = NULL;
	if (HcommChannelNotifyRecordOnThread(th, ch, 1) != HCCL_SUCCESS ||
	    HcommChannelNotifyWaitOnThread(th, ch, 0, 120) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 180000) != ACL_SUCCESS) {
		ret = 57;
		goto out;
	}
	/* Done: the root's rank goes on to the break case after this. */
	if (HcclCommDeregMem(comm, "ct-a", ha) != HCCL_SUCCESS) {
		ret = 58;
		goto out;
	}
	ha = NULL;
	if (HcommChannelNotifyRecordOnThread(th, ch, 1) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 60000) != ACL_SUCCESS)
		ret = 60;
out:
	if (hb)
		HcclCommDeregMem(comm, "ct-b", hb);
	if (ha && HcclCommDeregMem(comm, "ct-a", ha) != HCCL_SUCCESS && !ret)
		ret = 58;
	if (obj)
		aclrtFree(obj);
	if (objb)
		aclrtFree(objb);
	return ret;
}

static int reg_case(struct rank_arg *a, HcclComm comm, ThreadHandle th, ChannelHandle ch)
{
	uint32_t r = a->is_root ? a->rank : a->rank - a->nranks / 2;
	uint8_t *h;
	void *dev = NULL;
	int ret;

	/* One pair: data_case() has all 8 at once already. */
	if (r)
		return 0;
	h = malloc(REG_OBJ);
	if (!h)
		return 59;
	if (a->is_root) {
		ret = 59;
		if (aclrtMalloc(&dev, REG_LEN + REG_S * sizeof(int32_t),
				ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS)
			ret = reg_root(a, comm, th, ch, h, dev, r);
		if (dev)
			aclrtFree(dev);
	} else {
		ret = reg_joiner(a, comm, th, ch, h, r);
	}
	free(h);
	return ret;
}

/* Does @e name a card of the host of @ip ("10.0.0.x") on server @server? */
static int endpoint_is(const EndpointDesc *e, const char *ip, uint32_t server)
{
	struct in_addr want;

	inet_pton(AF_INET, ip, &want);
	return e->protocol == COMM_PROTOCOL_ROCE && e->commAddr.type == COMM_ADDR_TYPE_IP_V4 &&
	       e->commAddr.addr.s_addr == want.s_addr &&
	       e->loc.locType == ENDPOINT_LOC_TYPE_DEVICE && e->loc.device.serverIdx == server;
}

/*
 * Case 2's rank graph, on rank @a's communicator: layer 0 this host's N
 * ranks, the top layer every rank in rank order (the root host's server
 * first, on both hosts: each checks the same list), sizes [N, N] in layer
 * 0, a RoCE link to the other host's counterpart with both hosts'
 * addresses, none to a rank of this host there. A2 has 2 layers, A3 and
 * a 950 3 (a superpod per host, hcomm's A3 graph). The link's descriptors
 * go into @d. 0 or the failed step (10-19).
 */
static int graph_case(struct rank_arg *a, HcclComm comm, HcclChannelDesc *d)
{
	const char *soc = aclrtGetSocName();
	uint32_t n = a->nranks / 2, base = a->is_root ? 0 : n, peer, mate;
	uint32_t top = soc && (!strncmp(soc, "Ascend910_93", 12) ||
			       !strncmp(soc, "Ascend950", 9)) ? 2 : 1;
	uint32_t *layers = NULL, nl = 0, *ranks = NULL, nr = 0, *sizes = NULL, ns = 0, i;
	CommLink *links = NULL;
	HcclChannelDesc bad;
	ChannelHandle ch;

	peer = a->rank < n ? a->rank + n : a->rank - n;
	mate = base + (a->rank - base + 1) % n;
	if (HcclRankGraphGetLayers(comm, &layers, &nl) != HCCL_SUCCESS)
		return 10;
	a->layers = nl;
	if (nl != top + 1)
		return 10;
	if (HcclRankGraphGetRanksByLayer(comm, 0, &ranks, &nr) != HCCL_SUCCESS || nr != n)
		return 11;
	for (i = 0; i < n; i++)
		if (ranks[i] != base + i)
			return 11;
	if (HcclRankGraphGetRanksByLayer(comm, top, &ranks, &nr) != HCCL_SUCCESS ||
	    nr != a->nranks)
		return 12;
	for (i = 0; i < a->nranks; i++)
		if (ranks[i] != i)
			return 12;
	if (HcclRankGraphGetInstSizeListByLayer(comm, 0, &sizes, &ns) != HCCL_SUCCESS ||
	    ns != 2 || sizes[0] != n || sizes[1] != n)
		return 13;
	if (HcclRankGraphGetInstSizeListByLayer(comm, top, &sizes, &ns) != HCCL_SUCCESS ||
	    ns != 1 || sizes[0] != a->nranks)
		return 14;
	if (HcclRankGraphGetLinks(comm, top, a->rank, mate, &links, &nl) != HCCL_SUCCESS || nl)
		return 15;
	if (HcclRankGraphGetLinks(comm, top, a->rank, peer, &links, &nl) != HCCL_SUCCESS ||
	    nl != 1 || links[0].linkAttr.linkProtocol != COMM_PROTOCOL_ROCE)
		return 16;
	if (!endpoint_is(&links[0].srcEndpointDesc, a->is_root ? "10.0.0.1" : "10.0.0.2",
			 a->is_root ? 0 : 1) ||
	    !endpoint_is(&links[0].dstEndpointDesc, a->is_root ? "10.0.0.2" : "10.0.0.1",
			 a->is_root ? 1 : 0))
		return 17;
	HcclChannelDescInit(d, 1);
	d->remoteRank = peer;
	d->channelProtocol = links[0].linkAttr.linkProtocol;
	d->localEndpoint = links[0].srcEndpointDesc;
	d->remoteEndpoint = links[0].dstEndpointDesc;
	d->notifyNum = 2;
	/* Another protocol to the other host: refused before any rendezvous. */
	bad = *d;
	bad.channelProtocol = COMM_PROTOCOL_HCCS;
	if (HcclChannelAcquire(comm, COMM_ENGINE_CPU, &bad, 1, &ch) != HCCL_E_PARA)
		return 18;
	return 0;
}

/* Case 2's channel part, on rank @a's communicator; 0 or the failed step. */
static int chan_case(struct rank_arg *a, HcclComm comm)
{
	uint32_t k;
	HcclChannelDesc d;
	ChannelHandle ch;
	ThreadHandle th;
	aclError e;
	double t0;
	int ret;

	ret = graph_case(a, comm, &d);
	if (ret)
		return ret;
	if (HcclThreadAcquire(comm, COMM_ENGINE_CPU, 1, 0, &th) != HCCL_SUCCESS)
		return 1;
	/* The graph's link to the other host: its protocol and endpoints. */
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
	t0 = now_s();
	k = (uint32_t)data_case(a, comm, th, ch);
	if (!k)
		k = (uint32_t)reg_case(a, comm, th, ch);
	if (k)
		return (int)k;
	a->data_secs = now_s() - t0;
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

/* Elements of the collectives case. */
#define COLL_COUNT	(64 * 1024)	/* AllReduce, Broadcast: int32 */
#define COLL_PART	4096		/* AllGather, ReduceScatter: per rank */
#define COLL_ROOT	3		/* Broadcast's root */

static int coll_sync(aclrtStream st, HcclResult ret)
{
	aclError e;

	if (ret != HCCL_SUCCESS) {
		printf("# collective: %d\n", (int)ret);
		return 1;
	}
	e = aclrtSynchronizeStream(st);
	if (e != ACL_SUCCESS)
		printf("# collective's stream: %d\n", (int)e);
	return e != ACL_SUCCESS;
}

static int ar_bench(struct rank_arg *a, HcclComm comm);

/*
 * Case 3 on rank @a's communicator of 2N ranks on two hosts: HCCL's
 * collectives of libhccl (AllReduce, AllGather, Broadcast, ReduceScatter;
 * int32, sum), every element checked. 0 or the failed step (40 and up).
 */
static int coll_case(struct rank_arg *a, HcclComm comm)
{
	uint32_t r = a->rank, n = a->nranks, i, k, sum = n * (n - 1) / 2;
	size_t big = (size_t)COLL_PART * n;
	int32_t *h = malloc((COLL_COUNT > big ? COLL_COUNT : big) * sizeof(int32_t));
	void *in = NULL, *out = NULL;
	aclrtStream st = NULL;
	double t0 = now_s();
	int ret = 0;

	if (!h || aclrtCreateStream(&st) != ACL_SUCCESS ||
	    aclrtMalloc(&in, COLL_COUNT * sizeof(int32_t) + big * sizeof(int32_t),
			ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&out, COLL_COUNT * sizeof(int32_t) + big * sizeof(int32_t),
			ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		ret = 40;
		goto out;
	}
	/* AllReduce: in[i] = r + i, so out[i] = n * i + sum. */
	for (i = 0; i < COLL_COUNT; i++)
		h[i] = (int32_t)(r + i);
	if (h2d(in, h, COLL_COUNT * sizeof(int32_t)) ||
	    coll_sync(st, HcclAllReduce(in, out, COLL_COUNT, HCCL_DATA_TYPE_INT32,
					HCCL_REDUCE_SUM, comm, st)) ||
	    d2h(h, out, COLL_COUNT * sizeof(int32_t))) {
		ret = 41;
		goto out;
	}
	for (i = 0; i < COLL_COUNT; i++)
		if (h[i] != (int32_t)(n * i + sum)) {
			ret = 42;
			goto out;
		}
	/* AllGather: rank k's part is k * 1000000 + i. */
	for (i = 0; i < COLL_PART; i++)
		h[i] = (int32_t)(r * 1000000 + i);
	if (h2d(in, h, COLL_PART * sizeof(int32_t)) ||
	    coll_sync(st, HcclAllGather(in, out, COLL_PART, HCCL_DATA_TYPE_INT32, comm, st)) ||
	    d2h(h, out, big * sizeof(int32_t))) {
		ret = 43;
		goto out;
	}
	for (k = 0; k < n; k++)
		for (i = 0; i < COLL_PART; i++)
			if (h[k * COLL_PART + i] != (int32_t)(k * 1000000 + i)) {
				ret = 44;
				goto out;
			}
	/* Broadcast from COLL_ROOT: its values, 7 * i + 1. */
	for (i = 0; i < COLL_COUNT; i++)
		h[i] = r == COLL_ROOT ? (int32_t)(7 * i + 1) : -1;
	if (h2d(in, h, COLL_COUNT * sizeof(int32_t)) ||
	    coll_sync(st, HcclBroadcast(in, COLL_COUNT, HCCL_DATA_TYPE_INT32, COLL_ROOT,
					comm, st)) ||
	    d2h(h, in, COLL_COUNT * sizeof(int32_t))) {
		ret = 45;
		goto out;
	}
	for (i = 0; i < COLL_COUNT; i++)
		if (h[i] != (int32_t)(7 * i + 1)) {
			ret = 46;
			goto out;
		}
	/* ReduceScatter: in[j] = r + j; block r of the sum is out. */
	for (i = 0; i < big; i++)
		h[i] = (int32_t)(r + i);
	if (h2d(in, h, big * sizeof(int32_t)) ||
	    coll_sync(st, HcclReduceScatter(in, out, COLL_PART, HCCL_DATA_TYPE_INT32,
					    HCCL_REDUCE_SUM, comm, st)) ||
	    d2h(h, out, COLL_PART * sizeof(int32_t))) {
		ret = 47;
		goto out;
	}
	for (i = 0; i < COLL_PART; i++)
		if (h[i] != (int32_t)(n * (r * COLL_PART + i) + sum)) {
			ret = 48;
			goto out;
		}
	a->coll_secs = now_s() - t0;
out:
	if (in)
		aclrtFree(in);
	if (out)
		aclrtFree(out);
	if (st)
		aclrtDestroyStream(st);
	free(h);
	return ret;
}

/* Elements of case 5's AllReduces (int32). */
#define KILL_COUNT	(16 * 1024)

/*
 * The joiner's pipe to what kills it: a byte once rank N's
 * kill_ready_loops-th AllReduce is done (case 5: the first; case 7: the
 * third, so that every rank of the root has 2 good ones to measure from).
 */
static int kill_ready_fd = -1;
static uint32_t kill_ready_loops = 1;

/*
 * Cases 5 and 7 on rank @a: AllReduces of KILL_COUNT int32 until one fails
 * (the other host's ranks are killed mid-way); when and how in @a. The
 * killed ranks run it too, until they die.
 *
 * Case 7's measure. The root's rank cannot know when the host killed the
 * other guest, only a time when that guest was still alive: @a->t_alive,
 * the start of the AllReduce before its last good one. Its last good
 * AllReduce (k) needed every rank of the other host to contribute to k,
 * which each did only after its own k - 1 completed, which needed this
 * rank's input to k - 1, given after k - 1 started here. So the kill came
 * after t_alive, and t_fail - t_alive is an upper bound of the time from
 * the kill to this rank's failure, whatever the collective's algorithm,
 * larger than it by up to two AllReduces (small ones: KILL_COUNT).
 * t_fail - t_last_ok is the closer figure, an upper bound only if the kill
 * came after the last good AllReduce ended here (it comes between two
 * AllReduces or in one, as a rule after it): reported, not checked.
 */
static void kill_loop(struct rank_arg *a, HcclComm comm)
{
	void *in = NULL, *out = NULL;
	aclrtStream st = NULL;
	HcclResult r;
	aclError e = ACL_SUCCESS;
	double t0, prev = 0;

	if (aclrtCreateStream(&st) != ACL_SUCCESS ||
	    aclrtMalloc(&in, KILL_COUNT * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&out, KILL_COUNT * 4, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		a->fail_code = -1;
		goto out;
	}
	for (a->loops = 0; a->loops < 100000; a->loops++) {
		t0 = now_s();
		r = HcclAllReduce(in, out, KILL_COUNT, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM,
				  comm, st);
		if (r == HCCL_SUCCESS)
			e = aclrtSynchronizeStream(st);
		if (r != HCCL_SUCCESS || e != ACL_SUCCESS) {
			a->t_fail = now_s();
			a->fail_code = r != HCCL_SUCCESS ? (int)r : (int)e;
			if (kill_all &&
			    __atomic_add_fetch(&kill_failed, 1, __ATOMIC_SEQ_CST) == kill_all)
				tell_host(FAILED_LINE);
			break;
		}
		a->t_last_ok = now_s();
		a->t_alive = prev;
		prev = t0;
		/* The joiner: its channels are up, it may be killed now. */
		if (a->loops + 1 == kill_ready_loops && kill_ready_fd >= 0 &&
		    a->rank == a->nranks / 2 &&
		    write(kill_ready_fd, "r", 1) != 1)
			break;
	}
out:
	if (in)
		aclrtFree(in);
	if (out)
		aclrtFree(out);
	if (st)
		aclrtDestroyStream(st);
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
		if (a->coll)
			a->coll_ret = a->ar_iters ? ar_bench(a, comm) : coll_case(a, comm);
		if (a->kill)
			kill_loop(a, comm);
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

/* A socket listening on @sa (the root's port), or -1. */
static int listen_on(const struct sockaddr_in *sa)
{
	int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (ls < 0)
		return -1;
	setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(ls, (const struct sockaddr *)sa, sizeof(*sa)) || listen(ls, 4)) {
		close(ls);
		return -1;
	}
	return ls;
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

/* What the ranks of start_ranks() do after they joined. */
#define DO_CHAN		0x1	/* case 2 */
#define DO_COLL		0x2	/* case 3, or with @ar_iters the bench */
#define DO_KILL		0x4	/* case 5 */

/*
 * Start ranks @base .. @base + @n - 1 of @nranks, one thread per card,
 * doing @what (DO_*) once joined; -a's iterations in @ar.
 */
static void start_ranks(struct rank_arg *a, uint32_t n, uint32_t base,
			uint32_t nranks, const HcclRootInfo *root, int what, int ar)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].dev = (int32_t)i;
		a[i].rank = base + i;
		a[i].nranks = nranks;
		a[i].root = root;
		a[i].chan = !!(what & DO_CHAN);
		a[i].coll = !!(what & DO_COLL);
		a[i].kill = !!(what & DO_KILL);
		a[i].ar_iters = ar;
		a[i].is_root = !base;
		pthread_create(&a[i].tid, NULL, rank_main, &a[i]);
	}
}

static void join_ranks(struct rank_arg *a, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		pthread_join(a[i].tid, NULL);
}

/* start_ranks(), then join them. */
static void run_ranks_coll(struct rank_arg *a, uint32_t n, uint32_t base,
			   uint32_t nranks, const HcclRootInfo *root, int chan,
			   int coll)
{
	start_ranks(a, n, base, nranks, root, (chan ? DO_CHAN : 0) | (coll ? DO_COLL : 0), 0);
	join_ranks(a, n);
}

/*
 * hcclt-clustertest kill-child FILE FD: case 5's process on the joiner's
 * host, ranks N .. 2N-1 of the root info in FILE, AllReduces until it is
 * killed; a byte on FD once the first is done.
 */
static int kill_child(const char *file, uint32_t n, int fd)
{
	struct rank_arg a[MAX_CARDS];
	HcclRootInfo root;
	FILE *f = fopen(file, "r");

	kill_ready_fd = fd;
	if (!f || fread(&root, sizeof(root), 1, f) != 1)
		return 1;
	fclose(f);
	start_ranks(a, n, n, 2 * n, &root, DO_KILL, 0);
	join_ranks(a, n);
	return 0;
}

/* When a byte comes on @ls (the other host's "killed"): now_s(), or 0. */
static double kill_heard(int ls)
{
	struct timeval tv = { .tv_sec = 120 };
	char c;
	int fd;

	setsockopt(ls, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	fd = accept(ls, NULL, NULL);
	if (fd < 0)
		return 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (read(fd, &c, 1) != 1) {
		close(fd);
		return 0;
	}
	close(fd);
	return now_s();
}

/* Tell the root (@sa) that the process is killed. */
static int kill_tell(const struct sockaddr_in *sa)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	int ok;

	if (fd < 0)
		return -1;
	ok = !connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) && write(fd, "k", 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Cases 5 and 7 on the joiner: wait (5 min at most) for the byte rank N
 * writes on @fd once its kill_ready_loops-th AllReduce is done, then 2 s
 * more: the channels all up, the ranks mid-operator. 0 when the byte
 * came.
 */
static int kill_wait_ready(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;
	int ret = fd < 0 || poll(&pfd, 1, 300000) != 1 || read(fd, &c, 1) != 1;

	sleep(2);
	return ret;
}

/*
 * Cases 5 and 7 at the root: join the @n ranks of kill_loop(); did each
 * fail (with @code, or any code when 0) after its AllReduces? @late: the
 * longest time from @since (case 5: the kill heard) or, when @since is 0,
 * from the rank's own t_alive (case 7), to its failure.
 */
static int kill_results(struct rank_arg *a, uint32_t n, double since, int code, double *late)
{
	uint32_t i;
	double from;
	int ok = 1;

	*late = -1;
	for (i = 0; i < n; i++) {
		pthread_join(a[i].tid, NULL);
		from = since ? since : a[i].t_alive;
		if (a[i].ret != HCCL_SUCCESS || !a[i].fail_code || !a[i].t_fail || !from ||
		    (code && a[i].fail_code != code)) {
			printf("# rank %u: %d, failed with %d after %u AllReduces\n",
			       a[i].rank, (int)a[i].ret, a[i].fail_code, a[i].loops);
			ok = 0;
		} else if (a[i].t_fail - from > *late) {
			*late = a[i].t_fail - from;
		}
	}
	return ok;
}

static void run_ranks(struct rank_arg *a, uint32_t n, uint32_t base,
		      uint32_t nranks, const HcclRootInfo *root, int chan)
{
	run_ranks_coll(a, n, base, nranks, root, chan, 0);
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
	fprintf(stderr, "usage: hcclt-clustertest root PORT | join ADDR:PORT [-b ROUNDS | -a ITERS | -k | -m]\n");
	return 2;
}

/* Bytes of the bench's WRITE, as ib_write_bw's -s (pair-bench). */
#define BENCH_WRITE	(64u << 20)
#define BENCH_WRITES	2

/*
 * The bench's WRITE of BENCH_WRITE bytes from the joiner's card 0 into the
 * HCCL buffer of the root's (the joiner's host writes make bench's rows), BENCH_WRITES times after one to warm up;
 * prints its bandwidth ("write 64 MiB: B MB/s, T ms", MB = 2^20 as
 * perftest's). 0 or 1.
 */
static int bench_write(int is_root, HcclComm comm, ThreadHandle th, ChannelHandle ch)
{
	void *peer, *src = NULL;
	uint64_t psize;
	double t0 = 0, t1;
	int k;

	if (HcclChannelGetHcclBuffer(comm, ch, &peer, &psize) != HCCL_SUCCESS ||
	    psize < BENCH_WRITE) {
		fprintf(stderr, "bench: no peer buffer of 64 MiB\n");
		return 1;
	}
	if (is_root) {
		/* Until the joiner is done with this side's buffer. */
		if (HcommChannelNotifyWaitOnThread(th, ch, 0, 600) != HCCL_SUCCESS ||
		    hccltThreadSynchronize(th, 700000) != ACL_SUCCESS) {
			fprintf(stderr, "bench: the writes failed on the other side\n");
			return 1;
		}
		return 0;
	}
	if (aclrtMalloc(&src, BENCH_WRITE, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMemset(src, BENCH_WRITE, 0x5a, BENCH_WRITE) != ACL_SUCCESS)
		return 1;
	for (k = 0; k <= BENCH_WRITES; k++) {
		if (HcommWriteOnThread(th, ch, peer, src, BENCH_WRITE) != HCCL_SUCCESS ||
		    hccltThreadSynchronize(th, 600000) != ACL_SUCCESS) {
			fprintf(stderr, "bench: a write failed\n");
			aclrtFree(src);
			return 1;
		}
		if (!k)
			t0 = now_s();
	}
	t1 = now_s();
	printf("write 64 MiB: %.2f MB/s, %.0f ms per write (%d in %.3f s)\n",
	       BENCH_WRITES * 64.0 / (t1 - t0), (t1 - t0) * 1e3 / BENCH_WRITES,
	       BENCH_WRITES, t1 - t0);
	aclrtFree(src);
	if (HcommChannelNotifyRecordOnThread(th, ch, 0) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(th, 60000) != ACL_SUCCESS)
		return 1;
	return 0;
}

/* Bytes of the bench's AllReduce (float32, sum), and its iterations. */
#define BENCH_AR	(8u << 20)

/*
 * The bench's AllReduce on rank @a of 2N: one to warm up, then
 * @a->ar_iters, timed on each rank; the joiner's first rank (N) prints
 * the bus bandwidth
 * ("allreduce 8 MiB: busbw B MB/s, algbw A MB/s, T ms"; busbw = size x
 * 2(n-1)/n / time, as HCCL's test tool and nccl-tests report it). 0 or
 * the failed step.
 */
static int ar_bench(struct rank_arg *a, HcclComm comm)
{
	uint32_t count = BENCH_AR / sizeof(float), k;
	void *in = NULL, *out = NULL;
	aclrtStream st = NULL;
	double t0 = 0, t;
	int ret = 0;

	if (aclrtCreateStream(&st) != ACL_SUCCESS ||
	    aclrtMalloc(&in, BENCH_AR, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&out, BENCH_AR, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMemset(in, BENCH_AR, 0, BENCH_AR) != ACL_SUCCESS) {
		ret = 50;
		goto out;
	}
	for (k = 0; k <= (uint32_t)a->ar_iters; k++) {
		if (coll_sync(st, HcclAllReduce(in, out, count, HCCL_DATA_TYPE_FP32,
						HCCL_REDUCE_SUM, comm, st))) {
			ret = 51;
			goto out;
		}
		if (!k)
			t0 = now_s();
	}
	t = (now_s() - t0) / a->ar_iters;
	a->coll_secs = t;
	if (a->rank == a->nranks / 2)
		printf("allreduce 8 MiB: busbw %.2f MB/s, algbw %.2f MB/s, %.0f ms (%u ranks, %d iterations)\n",
		       8.0 * 2 * (a->nranks - 1) / a->nranks / t, 8.0 / t, t * 1e3,
		       a->nranks, a->ar_iters);
out:
	if (in)
		aclrtFree(in);
	if (out)
		aclrtFree(out);
	if (st)
		aclrtDestroyStream(st);
	return ret;
}

/*
 * -b: the channel notify round trip between the two hosts' card 0, then
 * the 64 MiB WRITE between them.
 */
/*
 * One rank per host on card 0 (rank 0 the root's), a CPU thread and a
 * channel of 2 notifies between them. 0 or 1 (said on stderr).
 */
static int one_pair(int is_root, int ls, const struct sockaddr_in *sa, HcclComm *comm,
		    ThreadHandle *th, ChannelHandle *ch)
{
	uint32_t rank = is_root ? 0 : 1;
	HcclChannelDesc d;
	HcclRootInfo root;

	aclrtSetDevice(0);
	if (is_root ? HcclGetRootInfo(&root) != HCCL_SUCCESS || serve(ls, &root) :
		      fetch(sa, &root)) {
		fprintf(stderr, "no root info\n");
		return 1;
	}
	if (HcclCommInitRootInfo(2, &root, rank, comm) != HCCL_SUCCESS ||
	    HcclThreadAcquire(*comm, COMM_ENGINE_CPU, 1, 0, th) != HCCL_SUCCESS) {
		fprintf(stderr, "no communicator or thread\n");
		return 1;
	}
	HcclChannelDescInit(&d, 1);
	d.remoteRank = 1 - rank;
	d.channelProtocol = COMM_PROTOCOL_ROCE;
	d.notifyNum = 2;
	if (HcclChannelAcquire(*comm, COMM_ENGINE_CPU, &d, 1, ch) != HCCL_SUCCESS) {
		fprintf(stderr, "no channel\n");
		return 1;
	}
	return 0;
}

static int bench(int is_root, int ls, const struct sockaddr_in *sa, int rounds)
{
	HcclComm comm = NULL;
	ChannelHandle ch;
	ThreadHandle th;
	double t0 = 0, t1;
	uint32_t k;

	if (one_pair(is_root, ls, sa, &comm, &th, &ch))
		return 1;
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
	if (bench_write(is_root, comm, th, ch))
		return 1;
	HcclCommDestroy(comm);
	aclrtResetDevice(0);
	return 0;
}

#define MAP_PARAM	"/sys/module/hcclthread/parameters/xfer_map_ms"
#define MAP_WRITE	(8u << 20)	/* 8 chunks: as many in flight */

/* Read @path's value into @buf and write @val there; 0 or -1. */
static int param_swap(const char *path, char *buf, size_t len, const char *val)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(buf, (int)len, f);

	if (f)
		fclose(f);
	f = ok ? fopen(path, "w") : NULL;
	ok = f && fputs(val, f) >= 0;
	if (f && fclose(f))
		ok = 0;
	return ok ? 0 : -1;
}

/*
 * -m: a peer host that keeps a range of this host mapped past the
 * driver's xfer_map_ms loses its link (Documentation/clusters.rst,
 * "Security model"); one TAP line on each host. One rank per host, one
 * channel (one_pair()). The root's driver gets xfer_map_ms 1: every
 * range it maps for the joiner outlives it, as one would whose XDONE
 * never came. The root records notify 0 and waits on notify 1, which
 * the joiner never records; the joiner waits for notify 0, then WRITEs
 * MAP_WRITE bytes into the root's buffer again and again. The root's
 * beat finds a range past its deadline and takes the link down: the
 * joiner's write and the root's wait both fail, within 20 s (60 s on the
 * debug kernels). The root then puts xfer_map_ms back.
 */
static int map_main(int is_root, int ls, const struct sockaddr_in *sa)
{
	double limit = debug_kernel() ? 60 : 20, t0, secs;
	char old[32] = "", cur[32];
	HcclComm comm = NULL;
	void *peer, *src = NULL;
	ChannelHandle ch;
	ThreadHandle th;
	uint64_t psize;
	aclError e = ACL_SUCCESS;
	int ok, writes = 0;

	printf("1..1\n");
	fflush(stdout);
	ok = !one_pair(is_root, ls, sa, &comm, &th, &ch);
	if (is_root) {
		ok = ok && !param_swap(MAP_PARAM, old, sizeof(old), "1");
		ok = ok && HcommChannelNotifyRecordOnThread(th, ch, 0) == HCCL_SUCCESS &&
		     HcommChannelNotifyWaitOnThread(th, ch, 1, 120) == HCCL_SUCCESS;
		t0 = now_s();
		if (ok)
			e = hccltThreadSynchronize(th, 150000);
		secs = now_s() - t0;
		if (old[0] && param_swap(MAP_PARAM, cur, sizeof(cur), old))
			ok = 0;
		return tap_ok(ok && e == ACL_ERROR_RT_STREAM_ABORT && secs < limit,
			      "a peer host that keeps ranges of this one mapped past xfer_map_ms loses its link: the wait on it fails (%d, %.2f s)",
			      (int)e, secs), tap_done();
	}
	ok = ok && HcclChannelGetHcclBuffer(comm, ch, &peer, &psize) == HCCL_SUCCESS &&
	     psize >= MAP_WRITE &&
	     aclrtMalloc(&src, MAP_WRITE, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
	     HcommChannelNotifyWaitOnThread(th, ch, 0, 120) == HCCL_SUCCESS &&
	     hccltThreadSynchronize(th, 150000) == ACL_SUCCESS;
	t0 = now_s();
	while (ok && e == ACL_SUCCESS && now_s() - t0 < limit) {
		if (HcommWriteOnThread(th, ch, peer, src, MAP_WRITE) != HCCL_SUCCESS)
			break;
		e = hccltThreadSynchronize(th, 150000);
		writes++;
	}
	secs = now_s() - t0;
	if (src)
		aclrtFree(src);
	return tap_ok(ok && e != ACL_SUCCESS && secs < limit,
		      "its ranges held past the other host's xfer_map_ms, this host loses the link: a write fails (%d, write %d, %.2f s)",
		      (int)e, writes, secs), tap_done();
}

/* -a ITERS: the AllReduce bench on the 2N ranks of both hosts. */
static int ar_main(struct rank_arg *a, uint32_t n, int is_root,
		   const struct sockaddr_in *sa, int iters)
{
	HcclRootInfo root;
	int ls = -1, ok = 1;
	uint32_t i;

	if (is_root) {
		ls = listen_on(sa);
		/* The root info names this host's card 0. */
		if (ls < 0 || aclrtSetDevice(0) != ACL_SUCCESS ||
		    HcclGetRootInfo(&root) != HCCL_SUCCESS || serve(ls, &root)) {
			fprintf(stderr, "bench: no root info\n");
			return 1;
		}
	} else if (fetch(sa, &root)) {
		fprintf(stderr, "bench: no root info\n");
		return 1;
	}
	start_ranks(a, n, is_root ? 0 : n, 2 * n, &root, DO_COLL, iters);
	join_ranks(a, n);
	for (i = 0; i < n; i++) {
		if (a[i].ret != HCCL_SUCCESS || a[i].coll_ret) {
			fprintf(stderr, "bench: rank %u: %d, step %d\n", a[i].rank,
				(int)a[i].ret, a[i].coll_ret);
			ok = 0;
		}
	}
	if (ls >= 0) {
		close(ls);
		aclrtResetDevice(0);
	}
	return !ok;
}

/*
 * -k: case 7 alone (see the top). The root checks its ranks' failures (a
 * TAP line). The joiner prints KILL_LINE once its ranks are mid-operator
 * and is killed (by the host): it prints "# " comments only, with the
 * console as its stdout (a pipe would hold KILL_LINE back), and returns 1
 * when it lives on, saying why.
 */
static int host_kill_main(struct rank_arg *a, uint32_t n, int is_root,
			  const struct sockaddr_in *sa)
{
	int ls = -1, ok, ready[2] = { -1, -1 };
	double late, closer = -1;
	HcclRootInfo root;
	uint32_t i;

	if (is_root)
		printf("1..1\n");
	printf("# %s: %u ranks here, %u in all; case 7: the joiner's host killed\n",
	       is_root ? "root" : "join", n, 2 * n);
	fflush(stdout);
	if (is_root) {
		ls = listen_on(sa);
		/* The root info names this host's card 0. */
		ok = ls >= 0 && aclrtSetDevice(0) == ACL_SUCCESS &&
		     HcclGetRootInfo(&root) == HCCL_SUCCESS && !serve(ls, &root);
		if (ls >= 0)
			close(ls);
		if (!ok)
			return tap_ok(0, "the root info served"), tap_done();
		kill_all = n;
		start_ranks(a, n, 0, 2 * n, &root, DO_KILL, 0);
		ok = kill_results(a, n, 0, ACL_ERROR_RT_STREAM_ABORT, &late);
		for (i = 0; i < n; i++)
			if (a[i].t_fail - a[i].t_last_ok > closer)
				closer = a[i].t_fail - a[i].t_last_ok;
		printf("# the root's ranks ran %u AllReduces before the kill (rank 0); the last good one ended at most %.2f s before a rank failed\n",
		       a[0].loops, closer);
		tap_ok(ok && late < host_kill_limit(),
		       "the other host's QEMU killed mid-AllReduce: the root's ranks fail (%d), at most %.2f s after the kill by their own bound (limit %.0f s)",
		       a[0].fail_code, late, host_kill_limit());
		aclrtResetDevice(0);
		return tap_done();
	}
	if (fetch(sa, &root) || pipe(ready)) {
		printf("# no root info\n");
		return 1;
	}
	kill_ready_fd = ready[1];
	kill_ready_loops = 3;
	start_ranks(a, n, n, 2 * n, &root, DO_KILL, 0);
	if (!kill_wait_ready(ready[0])) {
		/* A line of its own: tools/vm/run --kill-on matches it whole. */
		printf("%s\n", KILL_LINE);
		fflush(stdout);
		/* The host kills the guest in milliseconds: never in 60 s. */
		sleep(60);
	}
	printf("# not killed on the line \"%s\" (rank %u: %d after %u AllReduces)\n",
	       KILL_LINE, a[0].rank, a[0].fail_code, a[0].loops);
	return 1;
}

int main(int argc, char **argv)
{
	struct rank_arg a[MAX_CARDS];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	HcclRootInfo root, bad;
	uint32_t n, i, cards;
	int is_root, ls = -1, ok;
	double worst;
	char *colon;

	int rounds = 0, ar = 0, kill_mode = 0, host_kill = 0, map = 0;

	/*
	 * 24 MiB HCCL buffers (2 x 12 MB): mapping one pins its pages, and a
	 * guest has 8 ranks in 768 MB. data_case() needs 16.25 MiB; the
	 * bench's 64 MiB WRITE (one rank per host) 80 MiB.
	 */
	setenv("HCCL_BUFFSIZE", "12", 1);
	if (argc == 5 && !strcmp(argv[3], "-b")) {
		rounds = atoi(argv[4]);
		setenv("HCCL_BUFFSIZE", "40", 1);
		if (rounds < 1)
			return usage();
	} else if (argc == 5 && !strcmp(argv[3], "-a")) {
		ar = atoi(argv[4]);
		if (ar < 1)
			return usage();
	} else if (argc == 4 && !strcmp(argv[1], "kill-child")) {
		kill_mode = 1;
	} else if (argc == 4 && !strcmp(argv[3], "-k")) {
		host_kill = 1;
	} else if (argc == 4 && !strcmp(argv[3], "-m")) {
		map = 1;
	} else if (argc != 3) {
		return usage();
	}
	is_root = !strcmp(argv[1], "root");
	if (!is_root && !kill_mode && strcmp(argv[1], "join"))
		return usage();
	colon = strrchr(argv[2], ':');
	if (kill_mode) {
		/* Case 5's child: the root info is in the file argv[2]. */
	} else if (is_root) {
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
			ls = listen_on(&sa);
			if (ls < 0)
				return 1;
		}
		return bench(is_root, ls, &sa, rounds);
	}
	if (ar)
		return ar_main(a, n, is_root, &sa, ar);
	if (kill_mode)
		return kill_child(argv[2], n, atoi(argv[3]));
	if (host_kill)
		return host_kill_main(a, n, is_root, &sa);
	if (map) {
		if (is_root) {
			ls = listen_on(&sa);
			if (ls < 0)
				return 1;
		}
		return map_main(is_root, ls, &sa);
	}
	printf("1..6\n# %s: %u ranks here, %u in all\n", argv[1], n, 2 * n);
	fflush(stdout);

	if (is_root) {
		ls = listen_on(&sa);
		if (ls < 0) {
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
	printf("# data: WRITE, READ, WRITE_REDUCE and READ_REDUCE of %u pairs in %.3f s (rank %u)\n",
	       n, a[0].data_secs, a[0].rank);
	printf("# rank graph of rank %u on %s: %u layers\n", a[0].rank,
	       aclrtGetSocName() ? aclrtGetSocName() : "?", a[0].layers);
	tap_ok(ok && worst < break_limit(),
	       "%u ranks on two hosts form one communicator; channels between the hosts ping-pong and move data (RDMA, checked); a peer that goes breaks them (%.2f s)",
	       2 * n, worst);

	/* 3: HCCL's collectives on the 2N ranks of the two hosts. */
	if (is_root) {
		ok = HcclGetRootInfo(&root) == HCCL_SUCCESS && !serve(ls, &root);
		run_ranks_coll(a, n, 0, 2 * n, &root, 0, 1);
	} else {
		ok = !fetch(&sa, &root);
		run_ranks_coll(a, n, n, 2 * n, &root, 0, 1);
	}
	for (i = 0; i < n; i++) {
		if (a[i].ret != HCCL_SUCCESS || a[i].coll_ret) {
			printf("# rank %u: %d, collectives step %d\n", a[i].rank,
			       (int)a[i].ret, a[i].coll_ret);
			ok = 0;
		}
	}
	tap_ok(ok, "HcclAllReduce, HcclAllGather, HcclBroadcast and HcclReduceScatter on %u ranks of two hosts, every element checked (%.2f s)",
	       2 * n, a[0].coll_secs);

	/* 4: a rank of the joiner gives up: the root's ranks fail at once. */
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
	/* 5: the joiner's ranks' process is killed mid-operator (SIGKILL). */
	if (is_root) {
		double heard, late;

		ok = HcclGetRootInfo(&root) == HCCL_SUCCESS && !serve(ls, &root);
		start_ranks(a, n, 0, 2 * n, &root, DO_KILL, 0);
		heard = kill_heard(ls);
		if (!kill_results(a, n, heard, 0, &late))
			ok = 0;
		printf("# the root's ranks ran %u AllReduces before the kill\n", a[0].loops);
		tap_ok(ok && heard && a[0].loops && late < kill_limit(),
		       "the other host's ranks killed mid-operator: the root's ranks fail %.2f s after the kill (%d)",
		       late, a[0].fail_code);
	} else {
		char file[] = "/tmp/hcclt-root-XXXXXX";
		int fd = mkstemp(file), status = 0, ready[2] = { -1, -1 };
		pid_t pid = -1;
		char nb[16];

		unsetenv("HCCL_CONNECT_TIMEOUT");	/* case 4's */
		ok = !fetch(&sa, &root) && fd >= 0 &&
		     write(fd, &root, sizeof(root)) == (ssize_t)sizeof(root);
		if (fd >= 0)
			close(fd);
		if (ok && pipe(ready))
			ok = 0;
		snprintf(nb, sizeof(nb), "%d", ready[1]);
		if (ok)
			pid = fork();
		if (!pid) {
			close(ready[0]);
			execl("/proc/self/exe", argv[0], "kill-child", file, nb, (char *)NULL);
			_exit(127);
		}
		if (ready[1] >= 0)
			close(ready[1]);
		/*
		 * Its ranks join and run AllReduces with the root's: killed 2 s
		 * after its first is done, its channels all up (mid-operator).
		 */
		if (kill_wait_ready(ready[0]))
			ok = 0;
		if (ready[0] >= 0)
			close(ready[0]);
		if (pid < 0 || kill(pid, SIGKILL) || waitpid(pid, &status, 0) != pid ||
		    !WIFSIGNALED(status) || kill_tell(&sa))
			ok = 0;
		unlink(file);
		tap_ok(ok, "this host's ranks' process killed mid-operator (SIGKILL), the root told");
	}

	/* 6: the other host goes away while the ranks wait. */
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
