// SPDX-License-Identifier: GPL-2.0
/*
 * Channels: CHANNEL_ACQUIRE (the pairwise rendezvous of HcclChannelAcquire)
 * and the channel record/wait tasks, between ranks of a group on different
 * simulated devices, as threads and as processes: every validation errno,
 * match and mismatch, the same id again, foreign and stale ids, the pools
 * back at their start, ring barriers of 2 and 8 ranks with no lost or
 * spurious wake, and a rank killed while its peers are parked on it or
 * wait for it in the rendezvous. Needs 2 devices; the 8-rank cases 8.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "hcclt_ranks.h"
#include "../../kselftest_harness.h"

FIXTURE(chan) {
	int fd;
	__u32 used0[MAX_DEVS];
};

FIXTURE_SETUP(chan)
{
	int i;

	if (find_devices() < 2)
		SKIP(return, "needs 2 hcclthread devices (sim_devices >= 2)");
	self->fd = open_dev(0);
	ASSERT_GE(self->fd, 0);
	for (i = 0; i < ndevs; i++)
		self->used0[i] = notifies_used(i);
}

FIXTURE_TEARDOWN(chan)
{
	int i;

	if (self->fd >= 0)
		close(self->fd);
	/* Every test leaves the pools as it found them. */
	for (i = 0; i < ndevs; i++)
		EXPECT_EQ(0, wait_notifies(i, self->used0[i]));
}

TEST_F(chan, query_reports_channels)
{
	struct drm_hcclt_query q;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_TRUE(q.features & HCCLT_FEATURE_CHANNELS);
	EXPECT_LE(3, q.uapi_minor);
}

/* Does /dev/kmsg, from @fd's position on, have a line containing @what? */
static int kmsg_count(int fd, const char *what)
{
	char buf[2048];
	int n = 0;
	ssize_t r;

	for (;;) {
		r = read(fd, buf, sizeof(buf) - 1);
		if (r < 0) {
			if (errno == EPIPE)
				continue;	/* overwritten: read on */
			break;
		}
		buf[r] = '\0';
		if (strstr(buf, what))
			n++;
	}
	return n;
}

/*
 * A channel wait that times out writes one kernel log line naming the
 * group, the rank and its device, the stream, the notify, and the rank
 * that never recorded it with its device and process.
 */
TEST_F(chan, timeout_log_line)
{
	struct drm_hcclt_group_create g;
	struct rank r[2];
	__u64 c0, c1;
	char what[400];
	int e1, kfd;

	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd < 0)
		SKIP(return, "no /dev/kmsg");
	lseek(kfd, 0, SEEK_END);
	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	ASSERT_EQ(0, pair(r, 2, 2, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	ASSERT_EQ(0, cwait(r[1].fd, r[1].thread, c1, 1, 1));
	EXPECT_EQ(-ETIME, hcclt_sync(r[1].fd, r[1].thread, 10000));
	/* Two timeouts: the line by its start, then by its end. */
	snprintf(what, sizeof(what), "group %s rank 1 (device 1) stream 0x",
		 g.name);
	EXPECT_EQ(1, kmsg_count(kfd, what));
	lseek(kfd, 0, SEEK_END);
	ASSERT_EQ(0, cwait(r[1].fd, r[1].thread, c1, 1, 1));
	EXPECT_EQ(-ETIME, hcclt_sync(r[1].fd, r[1].thread, 10000));
	snprintf(what, sizeof(what),
		 ": wait on channel 0x%llx notify 1 from rank 0 (device 0, pid %d) timed out",
		 (unsigned long long)c1, (int)getpid());
	EXPECT_EQ(1, kmsg_count(kfd, what));
	close(kfd);
	close_all(r, 2);
}

/* Every validation of CHANNEL_ACQUIRE, with nothing taken from the pool. */
TEST_F(chan, acquire_einval)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_channel_acquire a;
	struct drm_hcclt_channel_desc d[3];
	struct rank r[2];
	__u64 plain;

	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	d[0] = desc(1, HCCLT_PROTOCOL_HCCS, 1);
	memset(&a, 0, sizeof(a));
	a.comm_id = r[0].comm;
	a.desc_count = 1;
	a.desc_size = sizeof(d[0]);
	a.deadline_ns = now_ns();
	a.descs_ptr = (__u64)(uintptr_t)d;
#define TRY(field, val, err) do {					\
		struct drm_hcclt_channel_acquire b = a;			\
		b.field = val;						\
		EXPECT_EQ(err, hcclt_ioctl(r[0].fd,			\
			  DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE, &b));	\
	} while (0)
	TRY(flags, 1, -EINVAL);
	TRY(desc_count, 0, -EINVAL);
	TRY(desc_count, HCCLT_MAX_CHANNEL_DESCS + 1, -EINVAL);
	TRY(desc_size, sizeof(d[0]) - 8, -EINVAL);
	TRY(deadline_ns, -1, -EINVAL);
	TRY(engine, HCCLT_ENGINE_AIV, -EINVAL);
	TRY(engine, HCCLT_ENGINE_CCU, -EINVAL);
	TRY(engine, 99, -EINVAL);
	TRY(descs_ptr, 8, -EFAULT);
	TRY(comm_id, HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM), -ENOENT);
	TRY(comm_id, r[0].thread, -ENOENT);
	/* Another file's communicator is unknown here. */
	TRY(comm_id, r[1].comm + 1, -ENOENT);
#undef TRY
	d[0].pad = 1;
	EXPECT_EQ(-EINVAL, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1, FAR));
	d[0] = desc(1, 2, 1);	/* PCIE: not on A2/A3 */
	EXPECT_EQ(-EINVAL, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1, FAR));
	d[0] = desc(1, HCCLT_PROTOCOL_HCCS, HCCLT_MAX_NOTIFIES_PER_CHANNEL + 1);
	EXPECT_EQ(-EINVAL, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1, FAR));
	d[0] = desc(1, HCCLT_PROTOCOL_HCCS, 1);
	d[1] = desc(1, HCCLT_PROTOCOL_HCCS, 2);
	EXPECT_EQ(-EINVAL, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 2, FAR));
	d[0] = desc(0, HCCLT_PROTOCOL_HCCS, 1);
	EXPECT_EQ(-EINVAL, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1, FAR));
	d[0] = desc(2, HCCLT_PROTOCOL_HCCS, 1);
	EXPECT_EQ(-ERANGE, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1, FAR));
	/* A communicator of COMM_CREATE has one rank. */
	ASSERT_EQ(0, hcclt_comm_create(r[0].fd, &plain));
	d[0] = desc(1, HCCLT_PROTOCOL_HCCS, 1);
	EXPECT_EQ(-ERANGE, chan_acquire_ex(r[0].fd, plain, 0, d, 1, FAR));
	/* The peer never comes: -ETIME at the (past) deadline. */
	EXPECT_EQ(-ETIME, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1,
					  now_ns() + 50000000));
	EXPECT_EQ(self->used0[0], notifies_used(0));
	close_all(r, 2);
}

/*
 * (uAPI 1.14) Between servers only the cluster layer's protocol: RoCE on
 * A2 (the default SoC), checked before any wait. Needs sim_servers >= 2.
 */
TEST_F(chan, cross_server_protocol)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_channel_desc d[1];
	struct drm_hcclt_query q;
	struct rank r[MAX_DEVS];
	__u32 n, far;

	memset(&q, 0, sizeof(q));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
	ASSERT_NE(0, q.features & HCCLT_FEATURE_SERVERS);
	if (q.servers < 2 || !q.server_devices)
		SKIP(return, "needs sim_servers >= 2");
	far = q.server_devices;		/* rank on card 0 of server 1 */
	n = far + 1;
	if ((__u32)ndevs < n || n > MAX_DEVS)
		SKIP(return, "needs %u devices", n);
	ASSERT_EQ(0, join_all(self->fd, r, n, &g));
	d[0] = desc(far, HCCLT_PROTOCOL_HCCS, 1);
	EXPECT_EQ(-EXDEV, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1, FAR));
	d[0] = desc(far, HCCLT_PROTOCOL_UB_CTP, 1);
	EXPECT_EQ(-EXDEV, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1, FAR));
	/* The cluster's protocol passes the check: the peer never comes. */
	d[0] = desc(far, HCCLT_PROTOCOL_ROCE, 1);
	EXPECT_EQ(-ETIME, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1,
					  now_ns() + 50000000));
	/* Within a server HCCS stays. */
	d[0] = desc(1, HCCLT_PROTOCOL_HCCS, 1);
	EXPECT_EQ(-ETIME, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 1,
					  now_ns() + 50000000));
	close_all(r, n);
}

/* Match, the same id again, mismatch, and channel task validation. */
TEST_F(chan, rendezvous_and_tasks)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_task t;
	struct rank r[2];
	__u64 c0, c1, again, c0b, c1b, aic[1], s;
	struct drm_hcclt_channel_desc dd;
	struct acq a0, a1;
	int e1;

	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	ASSERT_EQ(0, pair(r, 3, 3, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	EXPECT_EQ(HCCLT_ID_KIND_CHANNEL, HCCLT_ID_KIND(c0));
	EXPECT_NE(0, c1);
	/* Each side's 3 notifies come from its own device's pool. */
	EXPECT_EQ(self->used0[0] + 3, notifies_used(0));
	EXPECT_EQ(self->used0[1] + 3, notifies_used(1));
	/* Again with the filled descriptor: the id is out only. */
	dd = desc(1, HCCLT_PROTOCOL_HCCS, 3);
	dd.channel_id = c0 ^ 1;
	EXPECT_EQ(0, chan_acquire_ex(r[0].fd, r[0].comm, 0, &dd, 1, now_ns()));
	EXPECT_EQ(c0, dd.channel_id);
	/* Again: the same id, no rendezvous, whatever notify_num says. */
	ASSERT_EQ(0, chan_acquire1(r[0].fd, r[0].comm, HCCLT_ENGINE_CPU_TS, 1,
				   7, now_ns(), &again));
	EXPECT_EQ(c0, again);
	EXPECT_EQ(self->used0[0] + 3, notifies_used(0));

	/* Record 0 -> 1 and wait on 1, then back. */
	ASSERT_EQ(0, crecord(r[0].fd, r[0].thread, c0, 2));
	ASSERT_EQ(0, cwait(r[1].fd, r[1].thread, c1, 2, 5));
	EXPECT_EQ(0, hcclt_sync(r[1].fd, r[1].thread, 5000));
	/* Wait first, then the record releases it. */
	ASSERT_EQ(0, cwait(r[0].fd, r[0].thread, c0, 0, 5));
	ASSERT_EQ(0, crecord(r[1].fd, r[1].thread, c1, 0));
	EXPECT_EQ(0, hcclt_sync(r[0].fd, r[0].thread, 5000));
	/* Binary and reset by the wait: one wait consumed it. */
	ASSERT_EQ(0, cwait(r[0].fd, r[0].thread, c0, 0, 1));
	EXPECT_EQ(-ETIME, hcclt_sync(r[0].fd, r[0].thread, 5000));
	EXPECT_EQ(0, hcclt_sync(r[0].fd, r[0].thread, 5000));
	/* Index 1 of rank 1 is not index 2: a record of 2 does not wake 1. */
	ASSERT_EQ(0, crecord(r[0].fd, r[0].thread, c0, 2));
	ASSERT_EQ(0, cwait(r[1].fd, r[1].thread, c1, 1, 1));
	EXPECT_EQ(-ETIME, hcclt_sync(r[1].fd, r[1].thread, 5000));

	/* Submit-time validation. */
	EXPECT_EQ(-EINVAL, crecord(r[0].fd, r[0].thread, c0, 3));
	EXPECT_EQ(-EINVAL, cwait(r[0].fd, r[0].thread, c0, 3, 0));
	t = ctask(HCCLT_TASK_CHANNEL_RECORD, c0, 0, 1);
	EXPECT_EQ(-EINVAL, hcclt_submit(r[0].fd, r[0].thread, &t, 1));
	/* Stale, foreign (the peer's id, another file) and bogus ids. */
	EXPECT_EQ(-ENOENT, crecord(r[0].fd, r[0].thread, c0 ^ (1ULL << 20), 0));
	EXPECT_EQ(-ENOENT, crecord(r[0].fd, r[0].thread,
				   HCCLT_BOGUS_ID(HCCLT_ID_KIND_CHANNEL), 0));
	if (c1 != c0) {
		EXPECT_EQ(-ENOENT, crecord(r[0].fd, r[0].thread, c1, 0));
	}
	EXPECT_EQ(-ENOENT, crecord(r[0].fd, r[0].thread, r[0].thread, 0));
	/* A thread of the other engine family. */
	ASSERT_EQ(0, hcclt_acquire(r[0].fd, r[0].comm, HCCLT_ENGINE_AICPU, 1,
				   0, aic));
	EXPECT_EQ(-EINVAL, crecord(r[0].fd, aic[0], c0, 0));
	/* A channel task needs a thread handle. */
	ASSERT_EQ(0, hcclt_stream_create(r[0].fd, &s));
	EXPECT_EQ(-EINVAL, crecord(r[0].fd, s, c0, 0));
	EXPECT_EQ(0, hcclt_stream_destroy(r[0].fd, s));

	/* A mismatch fails both sides; nothing is kept. */
	EXPECT_EQ(-EPROTO, pair_proto(r, HCCLT_PROTOCOL_ROCE, 1, 2, &c0b, &c1b,
				       &e1));
	EXPECT_EQ(-EPROTO, e1);
	/* That was the CPU family: AICPU is a new channel, with 1 each. */
	if (1) {
		acq_start(&a0, &r[0], HCCLT_ENGINE_AICPU, 1, 1);
		acq_start(&a1, &r[1], HCCLT_ENGINE_AICPU_TS, 0, 1);
		pthread_join(a0.tid, NULL);
		pthread_join(a1.tid, NULL);
		EXPECT_EQ(0, a0.ret);
		EXPECT_EQ(0, a1.ret);
		EXPECT_NE(c0, a0.d[0].channel_id);
		EXPECT_EQ(-EINVAL, crecord(r[0].fd, r[0].thread,
					   a0.d[0].channel_id, 0));
		EXPECT_EQ(0, crecord(r[0].fd, aic[0], a0.d[0].channel_id, 0));
	}
	EXPECT_EQ(self->used0[0] + 4, notifies_used(0));
	/* Destroying the communicators gives every notify back. */
	EXPECT_EQ(0, hcclt_comm_destroy(r[0].fd, r[0].comm));
	EXPECT_EQ(self->used0[0], notifies_used(0));
	/* The peer's channel is broken: refused at submit. */
	EXPECT_EQ(-ECONNRESET, crecord(r[1].fd, r[1].thread, c1, 0));
	EXPECT_EQ(-ECONNRESET, cwait(r[1].fd, r[1].thread, c1, 0, 0));
	close_all(r, 2);
}

/*
 * The ring barrier: every rank records to its right neighbour and waits on
 * its left, @rounds times. With more than 2 ranks it also records left and
 * waits right, as a one-way ring does not hold a rank back from its right
 * neighbour; and the rounds alternate between notify 0 and 1: the waits of
 * a round run one after the other, so a neighbour may record the next
 * round before the second wait of this one ran, and two records into one
 * binary notify before its wait are one (contract section 8, item 3).
 */
static int ring_run(struct rank *r, __u64 left, __u64 right, int rounds,
		    volatile int *round)
{
	struct drm_hcclt_task t[4];
	__u32 l = (r->rank + r->nranks - 1) % r->nranks;
	__u32 rt = (r->rank + 1) % r->nranks;
	__u32 n = 2;
	int i, ret;

	for (i = 1; i <= rounds; i++) {
		round[r->rank] = i;
		__sync_synchronize();
		t[0] = ctask(HCCLT_TASK_CHANNEL_RECORD, right, i & 1, 0);
		t[1] = ctask(HCCLT_TASK_CHANNEL_WAIT, left, i & 1, 30);
		if (l != rt) {
			t[1] = ctask(HCCLT_TASK_CHANNEL_RECORD, left, i & 1, 0);
			t[2] = ctask(HCCLT_TASK_CHANNEL_WAIT, left, i & 1, 30);
			t[3] = ctask(HCCLT_TASK_CHANNEL_WAIT, right, i & 1, 30);
			n = 4;
		}
		ret = hcclt_submit(r->fd, r->thread, t, n);
		if (!ret)
			ret = hcclt_sync(r->fd, r->thread, 60000);
		if (ret)
			return ret;
		__sync_synchronize();
		/* A spurious wake would let us pass before a neighbour came. */
		if (round[l] < i || round[rt] < i)
			return -EILSEQ;
	}
	return 0;
}

/* Acquire left and right in one call (one desc with 2 ranks). */
static int ring_acquire(struct rank *r, __u64 *left, __u64 *right)
{
	struct drm_hcclt_channel_desc d[2];
	__u32 l = (r->rank + r->nranks - 1) % r->nranks;
	__u32 rt = (r->rank + 1) % r->nranks;
	__u32 n = l == rt ? 1 : 2;
	int ret;

	d[0] = desc(rt, HCCLT_PROTOCOL_HCCS, 2);
	d[1] = desc(l, HCCLT_PROTOCOL_HCCS, 2);
	ret = chan_acquire_ex(r->fd, r->comm, HCCLT_ENGINE_CPU, d, n,
			      now_ns() + 30000000000LL);
	*right = d[0].channel_id;
	*left = d[n - 1].channel_id;
	return ret;
}

struct ring_arg {
	struct rank *r;
	int rounds;
	volatile int *round;
	int ret;
	pthread_t tid;
};

static void *ring_thread(void *p)
{
	struct ring_arg *a = p;
	__u64 left, right;

	a->ret = ring_acquire(a->r, &left, &right);
	if (a->ret)
		a->ret -= 1000;	/* tell the rendezvous from the rounds */
	else
		a->ret = ring_run(a->r, left, right, a->rounds, a->round);
	return NULL;
}

static void ring_threads(struct __test_metadata *_metadata, int fd0, int n,
			 int rounds)
{
	struct drm_hcclt_group_create g;
	struct ring_arg a[MAX_DEVS];
	struct rank r[MAX_DEVS];
	int round[MAX_DEVS] = { 0 }, i;

	if (ndevs < n)
		SKIP(return, "needs %d devices", n);
	ASSERT_EQ(0, join_all(fd0, r, n, &g));
	for (i = 0; i < n; i++) {
		a[i].r = &r[i];
		a[i].rounds = rounds;
		a[i].round = round;
		pthread_create(&a[i].tid, NULL, ring_thread, &a[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(a[i].tid, NULL);
		EXPECT_EQ(0, a[i].ret) TH_LOG("rank %d round %d", i, round[i]);
	}
	close_all(r, n);
}

/* Ranks as processes: each joins, acquires and runs on its own. */
static void ring_processes(struct __test_metadata *_metadata, int fd0, int n,
			   int rounds)
{
	struct drm_hcclt_group_create g;
	volatile int *round;
	pid_t pids[MAX_DEVS];
	int i, st;

	if (ndevs < n)
		SKIP(return, "needs %d devices", n);
	round = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, round);
	memset(&g, 0, sizeof(g));
	ASSERT_EQ(0, hcclt_ioctl(fd0, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		ASSERT_GE(pids[i], 0);
		if (!pids[i]) {
			struct rank r = { .key = g.key, .dev = i, .rank = i,
					  .nranks = n };
			__u64 left, right;
			int ret = rank_join(&r);

			if (!ret)
				ret = ring_acquire(&r, &left, &right);
			if (!ret)
				ret = ring_run(&r, left, right, rounds, round);
			_exit(ret ? 100 + (-ret & 0x7f) : 0);
		}
	}
	for (i = 0; i < n; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st));
		EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("rank %d", i);
	}
	munmap((void *)round, 4096);
}

TEST_F_TIMEOUT(chan, ring2_threads, 300)
{
	ring_threads(_metadata, self->fd, 2, 1000);
}

TEST_F_TIMEOUT(chan, ring8_threads, 300)
{
	ring_threads(_metadata, self->fd, 8, 1000);
}

TEST_F_TIMEOUT(chan, ring2_processes, 300)
{
	ring_processes(_metadata, self->fd, 2, 1000);
}

TEST_F_TIMEOUT(chan, ring8_processes, 300)
{
	ring_processes(_metadata, self->fd, 8, 1000);
}

/*
 * A rank that leaves after its record reached the peer: the peer's wait
 * submitted afterwards still consumes that record; the next wait, with no
 * record left, is refused at submit, as is a record to the gone peer.
 */
TEST_F(chan, leave_keeps_delivered_record)
{
	struct drm_hcclt_group_create g;
	struct rank r[2];
	__u64 c0, c1;
	int e1;

	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	ASSERT_EQ(0, pair(r, 2, 2, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	/* Two records into notify 0 (binary: one wait), one into 1. */
	ASSERT_EQ(0, crecord(r[0].fd, r[0].thread, c0, 0));
	ASSERT_EQ(0, crecord(r[0].fd, r[0].thread, c0, 0));
	ASSERT_EQ(0, crecord(r[0].fd, r[0].thread, c0, 1));
	ASSERT_EQ(0, hcclt_sync(r[0].fd, r[0].thread, 10000));
	ASSERT_EQ(0, hcclt_comm_destroy(r[0].fd, r[0].comm));
	close(r[0].fd);
	r[0].fd = -1;
	EXPECT_EQ(0, cwait(r[1].fd, r[1].thread, c1, 0, 5));
	EXPECT_EQ(0, cwait(r[1].fd, r[1].thread, c1, 1, 5));
	EXPECT_EQ(0, hcclt_sync(r[1].fd, r[1].thread, 10000));
	EXPECT_EQ(-ECONNRESET, cwait(r[1].fd, r[1].thread, c1, 0, 5));
	EXPECT_EQ(-ECONNRESET, cwait(r[1].fd, r[1].thread, c1, 1, 0));
	EXPECT_EQ(-ECONNRESET, crecord(r[1].fd, r[1].thread, c1, 0));
	EXPECT_EQ(0, hcclt_sync(r[1].fd, r[1].thread, 10000));
	close_all(r, 2);
}

/*
 * A wait queued behind a long wait when the peer leaves, its record
 * delivered: it consumes it once it runs; a second one, queued as well,
 * fails with -ECONNRESET then (reported by the sync once).
 */
TEST_F(chan, leave_keeps_record_for_queued_wait)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_task t[3];
	struct rank r[2];
	__u64 c0, c1;
	int e1;

	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	ASSERT_EQ(0, pair(r, 2, 2, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	/* Parked on notify 1, with two waits on notify 0 behind it. */
	t[0] = ctask(HCCLT_TASK_CHANNEL_WAIT, c1, 1, 0);
	t[1] = ctask(HCCLT_TASK_CHANNEL_WAIT, c1, 0, 0);
	t[2] = ctask(HCCLT_TASK_CHANNEL_WAIT, c1, 0, 0);
	ASSERT_EQ(0, hcclt_submit(r[1].fd, r[1].thread, t, 3));
	ASSERT_EQ(0, crecord(r[0].fd, r[0].thread, c0, 0));
	ASSERT_EQ(0, crecord(r[0].fd, r[0].thread, c0, 1));
	ASSERT_EQ(0, hcclt_sync(r[0].fd, r[0].thread, 10000));
	ASSERT_EQ(0, hcclt_comm_destroy(r[0].fd, r[0].comm));
	/* The first two consume the records, the third fails. */
	EXPECT_EQ(-ECONNRESET, hcclt_sync(r[1].fd, r[1].thread, 10000));
	EXPECT_EQ(0, hcclt_sync(r[1].fd, r[1].thread, 10000));
	close_all(r, 2);
}

/*
 * The ring of a custom operator that finishes and exits: 8 ranks in 8
 * processes, each records to its right neighbour and waits on its left,
 * one task a submit (as libhcclthread's HcommChannelNotify*OnThread), then
 * synchronizes, 200 rounds, and destroys its communicator, closes its file
 * and exits as soon as its last sync returns, while its right neighbour
 * may not have consumed (or even queued the wait for) its last records.
 * A one-way ring lets a rank run up to nranks - 1 rounds ahead of its
 * right neighbour, so round i uses notify i % nranks: records never fold
 * into a binary notify. Run RING_EXIT_RUNS times; every rank of every run
 * must pass.
 */
#define RING_EXIT_RUNS		20
#define RING_EXIT_ROUNDS	200

static int ring_exit_rank(struct rank *r, volatile int *round)
{
	struct drm_hcclt_channel_desc d[2];
	__u32 n = r->nranks, l = (r->rank + n - 1) % n, rt = (r->rank + 1) % n;
	__u64 left, right;
	int i, ret;

	d[0] = desc(rt, HCCLT_PROTOCOL_HCCS, n);
	d[1] = desc(l, HCCLT_PROTOCOL_HCCS, n);
	ret = chan_acquire_ex(r->fd, r->comm, HCCLT_ENGINE_CPU, d, 2,
			      now_ns() + 60000000000LL);
	if (ret)
		return ret - 1000;
	right = d[0].channel_id;
	left = d[1].channel_id;
	for (i = 1; i <= RING_EXIT_ROUNDS; i++) {
		round[r->rank] = i;
		__sync_synchronize();
		ret = crecord(r->fd, r->thread, right, i % n);
		if (ret)
			return ret - 2000;
		ret = cwait(r->fd, r->thread, left, i % n, 30);
		if (ret)
			return ret - 3000;
		ret = hcclt_sync(r->fd, r->thread, 60000);
		if (ret)
			return ret - 4000;
		__sync_synchronize();
		if (round[l] < i)
			return -EILSEQ;
	}
	ret = hcclt_comm_destroy(r->fd, r->comm);
	close(r->fd);
	return ret;
}

TEST_F_TIMEOUT(chan, ring8_exit_after_last_sync, 600)
{
	int n = 8, run, i, st, failed, runs_ok = 0;
	struct drm_hcclt_group_create g;
	volatile int *round;
	pid_t pids[8];

	if (ndevs < n)
		SKIP(return, "needs 8 devices");
	round = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, round);
	for (run = 0; run < RING_EXIT_RUNS; run++) {
		memset((void *)round, 0, 4096);
		memset(&g, 0, sizeof(g));
		ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE,
					 &g));
		for (i = 0; i < n; i++) {
			pids[i] = fork();
			ASSERT_GE(pids[i], 0);
			if (!pids[i]) {
				struct rank r = { .key = g.key, .dev = i,
						  .rank = i, .nranks = n };
				int ret = rank_join(&r);

				if (!ret)
					ret = ring_exit_rank(&r, round);
				/* Which step and errno, for the log. */
				round[64 + i] = ret;
				_exit(ret ? 1 : 0);
			}
		}
		failed = 0;
		for (i = 0; i < n; i++) {
			ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
			if (!WIFEXITED(st) || WEXITSTATUS(st)) {
				failed++;
				TH_LOG("run %d rank %d failed in round %d: %d",
				       run, i, round[i], round[64 + i]);
			}
		}
		TH_LOG("run %d: %d of %d ranks passed", run, n - failed, n);
		if (!failed)
			runs_ok++;
	}
	EXPECT_EQ(RING_EXIT_RUNS, runs_ok);
	munmap((void *)round, 4096);
}

/*
 * Rank 0 holds a channel to each of 7 peers, in its own process; the peers
 * park a wait (no timeout) on it; SIGKILL rank 0: every wait fails with
 * -ECONNRESET at once (not at the sync's timeout: well under it), once,
 * and the pools go back.
 */
TEST_F_TIMEOUT(chan, sigkill_fails_parked_peers, 300)
{
	struct drm_hcclt_group_create g;
	struct { int ready; int parked; __s64 killed; } *sh;
	long long end;
	pid_t pids[8];
	int n = 8, i, st;

	if (ndevs < n)
		SKIP(return, "needs 8 devices");
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, sh);
	memset((void *)sh, 0, sizeof(*sh));
	memset(&g, 0, sizeof(g));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	for (i = 0; i < n; i++) {
		pids[i] = fork();
		ASSERT_GE(pids[i], 0);
		if (!pids[i]) {
			struct rank r = { .key = g.key, .dev = i, .rank = i,
					  .nranks = n };
			struct drm_hcclt_channel_desc d[8];
			int ret = rank_join(&r), k;
			__s64 t;

			if (ret)
				_exit(10);
			if (i == 0) {
				for (k = 1; k < n; k++)
					d[k - 1] = desc(k, 0, 2);
				if (chan_acquire_ex(r.fd, r.comm, 0, d, n - 1,
						    FAR))
					_exit(11);
				__sync_fetch_and_add(&sh->ready, 1);
				pause();
				_exit(12);
			}
			d[0] = desc(0, 0, 2);
			if (chan_acquire_ex(r.fd, r.comm, 0, d, 1, FAR))
				_exit(13);
			if (cwait(r.fd, r.thread, d[0].channel_id, 1, 0))
				_exit(14);
			__sync_fetch_and_add(&sh->parked, 1);
			ret = hcclt_sync(r.fd, r.thread, 4 * HCCLT_SLOW_MS);
			t = now_ns() - sh->killed;
			if (ret != -ECONNRESET)
				_exit(15);
			if (t > 1000000LL * HCCLT_SLOW_MS)
				_exit(16);
			/* Reported once; new tasks refused at submit. */
			if (hcclt_sync(r.fd, r.thread, HCCLT_SLOW_MS))
				_exit(17);
			if (crecord(r.fd, r.thread, d[0].channel_id, 0) !=
			    -ECONNRESET)
				_exit(18);
			_exit(0);
		}
	}
	for (end = hcclt_wait_end(2 * HCCLT_SLOW_MS);
	     (sh->parked < n - 1 || !sh->ready) && hcclt_now_ms() < end;)
		hcclt_msleep(10);
	ASSERT_EQ(n - 1, sh->parked);
	ASSERT_EQ(1, sh->ready);
	hcclt_msleep(50);	/* let the last submit park */
	sh->killed = now_ns();
	__sync_synchronize();
	kill(pids[0], SIGKILL);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
		if (i == 0) {
			EXPECT_TRUE(WIFSIGNALED(st));
		} else {
			EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("rank %d", i);
		}
	}
	munmap((void *)sh, 4096);
}

/* A rank killed mid-rendezvous fails the peer waiting for it at once. */
TEST_F_TIMEOUT(chan, sigkill_mid_rendezvous, 60)
{
	struct drm_hcclt_group_create g;
	struct rank r[2];
	struct acq a;
	pid_t pid;
	__s64 t0;
	int st;

	if (ndevs < 3)
		SKIP(return, "needs 3 devices");
	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	/* Rank 1's file in a child that dies while rank 0 waits for it. */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		/* Waits for a channel to rank 0 that rank 0 never offers. */
		chan_acquire1(r[1].fd, r[1].comm, 0, 0, 5, FAR, NULL);
		_exit(1);
	}
	close(r[1].fd);
	r[1].fd = -1;
	hcclt_msleep(100);
	/* Rank 0 asks for another protocol: no match, it waits too. */
	memset(&a, 0, sizeof(a));
	a.r = &r[0];
	a.d[0] = desc(1, HCCLT_PROTOCOL_ROCE, 1);
	a.n = 1;
	a.deadline = FAR;
	pthread_create(&a.tid, NULL, acq_thread, &a);
	hcclt_msleep(100);
	t0 = now_ns();
	kill(pid, SIGKILL);
	pthread_join(a.tid, NULL);
	/* On the death (no deadline), not late: see HCCLT_SLOW_MS. */
	EXPECT_EQ(-ECONNRESET, a.ret);
	EXPECT_LT(now_ns() - t0, 1000000LL * HCCLT_SLOW_MS);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	/* A dead rank: refused at once. */
	EXPECT_EQ(-ECONNRESET, chan_acquire1(r[0].fd, r[0].comm, 0, 1, 1, FAR,
					     NULL));
	close_all(r, 2);
}

/* The state letter of thread @tid of this process ('?' if unknown). */
static char task_state(const char *tid)
{
	char path[300], buf[512], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%s/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

/*
 * Wait (up to HCCLT_SLOW_MS) until every other thread of this process
 * sleeps: threads started to block in an ioctl are in it.
 */
static int others_sleep(void)
{
	long long end = hcclt_wait_end(HCCLT_SLOW_MS);
	char me[16];

	snprintf(me, sizeof(me), "%d", (int)syscall(SYS_gettid));
	while (hcclt_now_ms() < end) {
		DIR *dir = opendir("/proc/self/task");
		struct dirent *de;
		int awake = 0;

		if (!dir)
			return -1;
		while ((de = readdir(dir)))
			if (de->d_name[0] != '.' && strcmp(de->d_name, me) &&
			    task_state(de->d_name) != 'S')
				awake++;
		closedir(dir);
		if (!awake)
			return 0;
		hcclt_msleep(5);
	}
	return -1;
}

/* An established pair stays when another descriptor of the call fails. */
TEST_F(chan, partial_failure_keeps_pairs)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_channel_desc d[2];
	struct rank r[3];
	struct acq a1;
	__u64 c;

	if (ndevs < 3)
		SKIP(return, "needs 3 devices");
	ASSERT_EQ(0, join_all(self->fd, r, 3, &g));
	acq_start(&a1, &r[1], 0, 0, 1);
	/* Rank 1 waits in its call before rank 0's short one begins. */
	ASSERT_EQ(0, others_sleep());
	d[0] = desc(1, 0, 1);
	d[1] = desc(2, 0, 1);	/* rank 2 never acquires */
	EXPECT_EQ(-ETIME, chan_acquire_ex(r[0].fd, r[0].comm, 0, d, 2,
					  now_ns() + 300000000));
	pthread_join(a1.tid, NULL);
	EXPECT_EQ(0, a1.ret);
	/* Rank 0 holds the pair with rank 1 only. */
	EXPECT_EQ(self->used0[0] + 1, notifies_used(0));
	ASSERT_EQ(0, chan_acquire1(r[0].fd, r[0].comm, 0, 1, 1, now_ns(), &c));
	EXPECT_EQ(0, crecord(r[0].fd, r[0].thread, c, 0));
	close_all(r, 3);
}

struct hammer {
	struct rank *r;
	__u64 chan;
	__u32 rec, wait;
	volatile int stop;
	int last;
	pthread_t tid;
};

/* Record and wait on the channel until refused. */
static void *hammer_run(void *p)
{
	struct hammer *h = p;
	struct drm_hcclt_task t[2];
	int ret = 0;

	while (!h->stop && !ret) {
		t[0] = ctask(HCCLT_TASK_CHANNEL_RECORD, h->chan, h->rec, 0);
		t[1] = ctask(HCCLT_TASK_CHANNEL_WAIT, h->chan, h->wait, 0);
		ret = hcclt_submit(h->r->fd, h->r->thread, t, 2);
		if (!ret)
			ret = hcclt_sync(h->r->fd, h->r->thread, 5000);
	}
	h->last = ret;
	return NULL;
}

/*
 * Races: records and parked waits while the peer's communicator is
 * destroyed, and an acquire while the peer dies. Each ends with the
 * channel broken or never made, nothing left (the fixture checks the
 * pools), no kernel report (the debug kernels).
 */
TEST_F_TIMEOUT(chan, races_with_destroy, 300)
{
	struct drm_hcclt_group_create g;
	struct rank r[2];
	struct hammer h, h1;
	struct acq a;
	__u64 c0, c1;
	int i, e1;

	for (i = 0; i < 30; i++) {
		ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
		ASSERT_EQ(0, pair(r, 2, 2, &c0, &c1, &e1));
		ASSERT_EQ(0, e1);
		memset(&h, 0, sizeof(h));
		h.r = &r[0];
		h.chan = c0;
		h.wait = 1;
		pthread_create(&h.tid, NULL, hammer_run, &h);
		/* Rank 1 records 1 and waits on 0: traffic both ways. */
		memset(&h1, 0, sizeof(h1));
		h1.r = &r[1];
		h1.chan = c1;
		h1.rec = 1;
		pthread_create(&h1.tid, NULL, hammer_run, &h1);
		usleep(i * 300);
		EXPECT_EQ(0, hcclt_comm_destroy(r[1].fd, r[1].comm));
		pthread_join(h.tid, NULL);
		pthread_join(h1.tid, NULL);
		/* The parked wait failed, or the next submit was refused. */
		EXPECT_EQ(-ECONNRESET, h.last) TH_LOG("round %d", i);
		close_all(r, 2);

		ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
		acq_start(&a, &r[0], HCCLT_ENGINE_CPU, 1, 3);
		if (i & 1)
			chan_acquire1(r[1].fd, r[1].comm, 0, 0, 3, now_ns() + 1000000000LL, NULL);
		usleep(i * 200);
		close(r[1].fd);
		r[1].fd = -1;
		pthread_join(a.tid, NULL);
		if (a.ret) {
			EXPECT_EQ(-ECONNRESET, a.ret) TH_LOG("round %d", i);
		} else {
			EXPECT_EQ(-ECONNRESET, crecord(r[0].fd, r[0].thread, a.d[0].channel_id, 0));
		}
		close_all(r, 2);
	}
}

/*
 * Several streams of one rank wait on the same channel notify: each record
 * releases one, oldest first, none is lost; the peer's death fails every
 * one of them at once.
 */
TEST_F_TIMEOUT(chan, many_waiters_one_notify, 120)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_thread_info ti;
	struct rank r[2];
	__u64 c0, c1, t[3];
	__s64 t0;
	int i, e1;

	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	ASSERT_EQ(0, pair(r, 1, 1, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	ASSERT_EQ(0, hcclt_acquire(r[0].fd, r[0].comm, HCCLT_ENGINE_CPU, 3, 0,
				   t));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, cwait(r[0].fd, t[i], c0, 0, 0));
		/* park in this order */
		ASSERT_EQ(0, hcclt_wait_state(r[0].fd, t[i], HCCLT_STATE_PARKED,
					      &ti, HCCLT_SLOW_MS));
	}
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-ETIMEDOUT, hcclt_sync(r[0].fd, t[i], 0));
	/* One record, one waiter: the oldest. */
	ASSERT_EQ(0, crecord(r[1].fd, r[1].thread, c1, 0));
	EXPECT_EQ(0, hcclt_sync(r[0].fd, t[0], 5000));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(r[0].fd, t[1], 100));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(r[0].fd, t[2], 0));
	ASSERT_EQ(0, crecord(r[1].fd, r[1].thread, c1, 0));
	EXPECT_EQ(0, hcclt_sync(r[0].fd, t[1], 5000));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(r[0].fd, t[2], 100));
	ASSERT_EQ(0, crecord(r[1].fd, r[1].thread, c1, 0));
	EXPECT_EQ(0, hcclt_sync(r[0].fd, t[2], 5000));

	/*
	 * Three parked again; the peer goes: all three fail at once (on the
	 * close, not late: see HCCLT_SLOW_MS).
	 */
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, cwait(r[0].fd, t[i], c0, 0, 0));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, hcclt_wait_state(r[0].fd, t[i], HCCLT_STATE_PARKED,
					      &ti, HCCLT_SLOW_MS));
	t0 = now_ns();
	close(r[1].fd);
	r[1].fd = -1;
	for (i = 0; i < 3; i++)
		EXPECT_EQ(-ECONNRESET, hcclt_sync(r[0].fd, t[i], HCCLT_SLOW_MS))
			TH_LOG("thread %d", i);
	EXPECT_GT(1000000LL * HCCLT_SLOW_MS, now_ns() - t0);
	close_all(r, 2);
}

/*
 * The hand-back of a custom operator: a host thread waits for a record
 * that a worker thread (an AICPU kernel's) makes after its channel wait.
 * The peer dies: the worker's wait fails, and with it the record it would
 * have made, so the host thread fails at once with the same error instead
 * of waiting forever. Also when the host thread starts waiting only after
 * the worker failed.
 */
TEST_F_TIMEOUT(chan, dropped_handback_fails_the_waiter, 120)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_thread_info ti;
	struct drm_hcclt_task t[2];
	struct rank r[2];
	__u64 c0, c1, th[2];
	__s64 t0;
	int e1, late;

	for (late = 0; late < 2; late++) {
		ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
		ASSERT_EQ(0, pair(r, 1, 1, &c0, &c1, &e1));
		ASSERT_EQ(0, e1);
		/* th[0]: the host's thread; th[1]: the worker's. */
		ASSERT_EQ(0, hcclt_acquire(r[0].fd, r[0].comm,
					   HCCLT_ENGINE_CPU, 2, 1, th));
		t[0] = ctask(HCCLT_TASK_CHANNEL_WAIT, c0, 0, 0);
		memset(&t[1], 0, sizeof(t[1]));
		t[1].op = HCCLT_TASK_NOTIFY_RECORD;
		t[1].dst_thread = th[0];
		t[1].notify_idx = 0;
		ASSERT_EQ(0, hcclt_submit(r[0].fd, th[1], t, 2));
		memset(&t[0], 0, sizeof(t[0]));
		t[0].op = HCCLT_TASK_NOTIFY_WAIT;
		t[0].notify_idx = 0;
		if (!late) {
			ASSERT_EQ(0, hcclt_submit(r[0].fd, th[0], t, 1));
			ASSERT_EQ(0, hcclt_wait_state(r[0].fd, th[0],
						      HCCLT_STATE_PARKED, &ti,
						      HCCLT_SLOW_MS));
		}
		t0 = now_ns();
		close(r[1].fd);
		r[1].fd = -1;
		EXPECT_EQ(-ECONNRESET, hcclt_sync(r[0].fd, th[1], HCCLT_SLOW_MS));
		if (late)
			ASSERT_EQ(0, hcclt_submit(r[0].fd, th[0], t, 1));
		/* On the close, not late: see HCCLT_SLOW_MS. */
		EXPECT_EQ(-ECONNRESET, hcclt_sync(r[0].fd, th[0], HCCLT_SLOW_MS))
			TH_LOG("late %d", late);
		EXPECT_GT(1000000LL * HCCLT_SLOW_MS, now_ns() - t0);
		/* Once: the next wait parks again. */
		ASSERT_EQ(0, hcclt_submit(r[0].fd, th[0], t, 1));
		EXPECT_EQ(-ETIMEDOUT, hcclt_sync(r[0].fd, th[0], 100));
		close_all(r, 2);
	}
}

/* The INFO_ARRAY entry of thread @id of @fd's file; 0 or -1. */
static int thread_entry(int fd, __u64 id, struct drm_hcclt_info_thread *out)
{
	struct drm_hcclt_info_thread e[64];
	struct drm_hcclt_info_array a;
	int i, found = -1;

	memset(&a, 0, sizeof(a));
	do {
		a.scope = HCCLT_INFO_SCOPE_FILE;
		a.type = HCCLT_INFO_TYPE_THREADS;
		a.element_size = sizeof(e[0]);
		a.num_element = 64;
		a.buffer = (__u64)(uintptr_t)e;
		if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO_ARRAY, &a))
			return -1;
		for (i = 0; i < (int)a.num_element; i++)
			if (e[i].thread.thread_id == id) {
				*out = e[i];
				found = 0;
			}
	} while (a.cursor);
	return found;
}

/*
 * Hang forensics: INFO_ARRAY reports every parked wait with since when,
 * on which notify, and who should record it (for a channel: the peer rank,
 * its device and process, and whether a record of it is queued there).
 */
TEST_F(chan, info_reports_parked_waits)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_info_thread e;
	struct drm_hcclt_task t[2];
	struct rank r[2];
	__u64 c0, c1, th[2];
	__s64 t0;
	int e1;

	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	ASSERT_EQ(0, pair(r, 2, 2, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	ASSERT_EQ(0, thread_entry(r[1].fd, r[1].thread, &e));
	EXPECT_EQ(HCCLT_STATE_IDLE, e.thread.state);
	EXPECT_EQ(HCCLT_WAIT_NONE, e.wait.kind);
	EXPECT_EQ(0, e.wait.since_ns);

	t0 = now_ns();
	ASSERT_EQ(0, cwait(r[1].fd, r[1].thread, c1, 1, 30));
	ASSERT_EQ(0, thread_entry(r[1].fd, r[1].thread, &e));
	EXPECT_EQ(HCCLT_STATE_PARKED, e.thread.state);
	EXPECT_EQ(HCCLT_WAIT_CHANNEL, e.wait.kind);
	EXPECT_EQ(c1, e.wait.owner_id);
	EXPECT_EQ(1, e.wait.notify_idx);
	EXPECT_EQ(30, e.wait.timeout_s);
	EXPECT_EQ(1, e.wait.rank);
	EXPECT_EQ(0, e.wait.peer_rank);
	EXPECT_EQ(0, e.wait.peer_device);
	EXPECT_EQ(getpid(), (pid_t)e.wait.peer_pid);
	EXPECT_EQ(0, e.wait.flags);
	EXPECT_LE(t0, (__s64)e.wait.since_ns);
	EXPECT_GE(now_ns(), (__s64)e.wait.since_ns);

	/* Rank 0 queues the record behind a wait of its own: queued. */
	ASSERT_EQ(0, hcclt_acquire(r[0].fd, r[0].comm, HCCLT_ENGINE_CPU, 2, 1,
				   th));
	memset(t, 0, sizeof(t));
	t[0].op = HCCLT_TASK_NOTIFY_WAIT;
	t[1] = ctask(HCCLT_TASK_CHANNEL_RECORD, c0, 1, 0);
	ASSERT_EQ(0, hcclt_submit(r[0].fd, th[0], t, 2));
	ASSERT_EQ(0, thread_entry(r[1].fd, r[1].thread, &e));
	EXPECT_EQ(HCCLT_WAIT_RECORD_QUEUED, e.wait.flags);
	/* Rank 0's own wait: on its thread's notify 0, nothing queued. */
	ASSERT_EQ(0, thread_entry(r[0].fd, th[0], &e));
	EXPECT_EQ(HCCLT_STATE_PARKED, e.thread.state);
	EXPECT_EQ(HCCLT_WAIT_THREAD, e.wait.kind);
	EXPECT_EQ(th[0], e.wait.owner_id);
	EXPECT_EQ(0, e.wait.notify_idx);
	EXPECT_EQ(0, e.wait.timeout_s);
	EXPECT_EQ(0, e.wait.flags);
	EXPECT_EQ(0, e.wait.peer_pid);
	/* Released: rank 0 runs its record, rank 1 its wait. */
	memset(t, 0, sizeof(t));
	t[0].op = HCCLT_TASK_NOTIFY_RECORD;
	t[0].dst_thread = th[0];
	ASSERT_EQ(0, hcclt_submit(r[0].fd, th[1], t, 1));
	EXPECT_EQ(0, hcclt_sync(r[0].fd, th[0], 5000));
	EXPECT_EQ(0, hcclt_sync(r[1].fd, r[1].thread, 5000));
	ASSERT_EQ(0, thread_entry(r[1].fd, r[1].thread, &e));
	EXPECT_EQ(HCCLT_WAIT_NONE, e.wait.kind);
	close_all(r, 2);
}

/* The hcclthread-notifies of @fd's fdinfo, or -1. */
static long fdinfo_notifies(int fd)
{
	char path[64], line[256];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "hcclthread-notifies: %ld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * Channel notifies are the file's in fdinfo, as thread notifies are: the
 * files' sum is what QUERY says the device uses, while the channel lives,
 * after its peer went, and after it went.
 */
TEST_F(chan, fdinfo_counts_channel_notifies)
{
	struct drm_hcclt_group_create g;
	struct rank r[2];
	__u64 c0, c1;
	int e1, k;

	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	for (k = 0; k < 2; k++)
		EXPECT_EQ(0, fdinfo_notifies(r[k].fd));
	ASSERT_EQ(0, pair(r, 5, 5, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	for (k = 0; k < 2; k++) {
		EXPECT_EQ(5, fdinfo_notifies(r[k].fd));
		EXPECT_EQ(notifies_used(k) - self->used0[k],
			  fdinfo_notifies(r[k].fd));
	}
	ASSERT_EQ(0, hcclt_comm_destroy(r[1].fd, r[1].comm));
	EXPECT_EQ(0, fdinfo_notifies(r[1].fd));
	EXPECT_EQ(0, wait_notifies(1, self->used0[1]));
	EXPECT_EQ(notifies_used(0) - self->used0[0], fdinfo_notifies(r[0].fd));
	ASSERT_EQ(0, hcclt_comm_destroy(r[0].fd, r[0].comm));
	EXPECT_EQ(0, fdinfo_notifies(r[0].fd));
	close_all(r, 2);
}

/* Record into channel @chan of rank @r until stopped; any odd errno kept. */
struct prober {
	struct rank *r;
	__u64 chan;
	volatile int stop;
	int bad;
	volatile unsigned long hits;
	pthread_t tid;
};

static void *prober_run(void *p)
{
	struct prober *pr = p;
	int ret;

	while (!pr->stop) {
		ret = crecord(pr->r->fd, pr->r->thread, pr->chan, 0);
		if (!ret)
			pr->hits++;
		else if (ret != -ENOENT)
			pr->bad = ret;
	}
	return NULL;
}

/*
 * A channel is found by SUBMIT only once it is fully linked: records that
 * name the id a new channel will get, sent while the rendezvous links it,
 * are refused (-ENOENT) or reach the peer, never a half-made channel
 * (before the fix, a kernel NULL dereference on the peer's notify).
 */
TEST_F_TIMEOUT(chan, records_race_the_link, 300)
{
	struct drm_hcclt_group_create g;
	struct prober p0, p1;
	struct rank r[2];
	__u64 c0, c1, id0 = 0, id1 = 0;
	long long end;
	int i, e1;

	for (i = 0; i < 40; i++) {
		ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
		memset(&p0, 0, sizeof(p0));
		memset(&p1, 0, sizeof(p1));
		p0.r = &r[0];
		p0.chan = id0;
		p1.r = &r[1];
		p1.chan = id1;
		if (i) {
			pthread_create(&p0.tid, NULL, prober_run, &p0);
			pthread_create(&p1.tid, NULL, prober_run, &p1);
		}
		ASSERT_EQ(0, pair(r, 1, 1, &c0, &c1, &e1));
		ASSERT_EQ(0, e1);
		if (i) {
			/* Until a probe reaches the channel, however slow. */
			end = hcclt_wait_end(HCCLT_SLOW_MS);
			while (!(p0.hits + p1.hits) && hcclt_now_ms() < end)
				usleep(1000);
			p0.stop = 1;
			p1.stop = 1;
			pthread_join(p0.tid, NULL);
			pthread_join(p1.tid, NULL);
			EXPECT_EQ(0, p0.bad) TH_LOG("round %d", i);
			EXPECT_EQ(0, p1.bad) TH_LOG("round %d", i);
			/* The probes aimed at the id the channel got. */
			ASSERT_EQ(id0, c0);
			ASSERT_EQ(id1, c1);
			EXPECT_LT(0, p0.hits + p1.hits);
		}
		id0 = c0;
		id1 = c1;
		close_all(r, 2);
	}
}

HCCLT_HARNESS_MAIN
