// SPDX-License-Identifier: GPL-2.0
/*
 * Groups: GROUP_CREATE, GROUP_JOIN, GROUP_INFO (multi-rank communicators,
 * the kernel's rendezvous of HcclCommInitRootInfo). Ranks as threads and
 * as processes on the simulated devices, every error of the join, the
 * timeout, a rank killed while the others wait, signals, and nothing left
 * behind. Needs 2 devices; the 2..8-rank cases need that many.
 */
#include <arpa/inet.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#include "hcclt_ranks.h"
#include "../../kselftest_harness.h"


static int group_create(int fd, struct drm_hcclt_group_create *g)
{
	memset(g, 0, sizeof(*g));
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_CREATE, g);
}

static int group_join(int fd, const __u8 *key, __u32 rank, __u32 nranks,
		      int timeout_ms, __u64 *comm)
{
	struct drm_hcclt_group_join j;
	int ret;

	memset(&j, 0, sizeof(j));
	memcpy(j.key, key, sizeof(j.key));
	j.rank = rank;
	j.nranks = nranks;
	j.timeout_ms = timeout_ms;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j);
	if (!ret && comm)
		*comm = j.comm_id;
	return ret;
}

/* Ranks listed by GROUP_INFO for the group @name (all if NULL). */
static int group_ranks(int fd, const char *name,
		       struct drm_hcclt_group_rank_info *out, int max)
{
	struct drm_hcclt_group_rank_info e[256];
	struct drm_hcclt_group_info a;
	__u32 i;
	int n = 0;

	memset(&a, 0, sizeof(a));
	a.rank_count = 256;
	a.ranks_ptr = (__u64)(uintptr_t)e;
	if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &a))
		return -1;
	for (i = 0; i < a.rank_count && i < 256; i++) {
		if (name && strcmp(e[i].name, name))
			continue;
		if (out && n < max)
			out[n] = e[i];
		n++;
	}
	return n;
}

static __u32 comms_of(int fd)
{
	struct drm_hcclt_query q;

	return hcclt_query(fd, &q) ? ~0U : q.comms;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One rank joined by a thread on device @dev. */
struct rank_arg {
	const __u8 *key;
	int dev;
	__u32 rank, nranks;
	int timeout_ms;
	int hold;		/* keep the fd open; the caller closes it */
	int fd;
	int ret;
	__u64 comm;
	pthread_t tid;
};

static void *rank_thread(void *p)
{
	struct rank_arg *a = p;

	a->fd = open_dev(a->dev);
	if (a->fd < 0) {
		a->ret = -errno;
		return NULL;
	}
	a->ret = group_join(a->fd, a->key, a->rank, a->nranks, a->timeout_ms,
			    &a->comm);
	if (!a->hold) {
		close(a->fd);
		a->fd = -1;
	}
	return NULL;
}

static void start_rank(struct rank_arg *a, const __u8 *key, int dev,
		       __u32 rank, __u32 nranks, int timeout_ms, int hold)
{
	memset(a, 0, sizeof(*a));
	a->key = key;
	a->dev = dev;
	a->rank = rank;
	a->nranks = nranks;
	a->timeout_ms = timeout_ms;
	a->hold = hold;
	a->fd = -1;
	pthread_create(&a->tid, NULL, rank_thread, a);
}

/* Wait until @n ranks of group @name have joined (GROUP_INFO). */
static int wait_joined(int fd, const char *name, int n)
{
	double end = now_s() + HCCLT_SLOW_MS / 1000;

	while (now_s() < end) {
		if (group_ranks(fd, name, NULL, 0) >= n)
			return 0;
		usleep(2000);
	}
	return -1;
}

FIXTURE(group) {
	int fd;
	__u32 comms0;
};

FIXTURE_SETUP(group)
{
	if (find_devices() < 2)
		SKIP(return, "needs 2 hcclthread devices (sim_devices >= 2)");
	self->fd = open_dev(0);
	ASSERT_GE(self->fd, 0);
	self->comms0 = comms_of(self->fd);
}

FIXTURE_TEARDOWN(group)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(group, create_key_and_name)
{
	struct drm_hcclt_group_create a, b;
	static const __u8 zero[HCCLT_GROUP_KEY_BYTES];

	ASSERT_EQ(0, group_create(self->fd, &a));
	ASSERT_EQ(0, group_create(self->fd, &b));
	EXPECT_NE(0, memcmp(a.key, zero, sizeof(zero)));
	EXPECT_NE(0, memcmp(a.key, b.key, sizeof(a.key)));
	EXPECT_LT(strnlen(a.name, sizeof(a.name)), sizeof(a.name));
	EXPECT_GT(strlen(a.name), 0);
	EXPECT_NE(0, strcmp(a.name, b.name));
	/* Not listed before a rank joined; no key is ever listed. */
	EXPECT_EQ(0, group_ranks(self->fd, a.name, NULL, 0));
}

TEST_F(group, create_flags_pad_einval)
{
	struct drm_hcclt_group_create g;

	memset(&g, 0, sizeof(g));
	g.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	memset(&g, 0, sizeof(g));
	g.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
}

TEST_F(group, create_pending_limit)
{
	struct drm_hcclt_group_create g;
	int fd = open_dev(0), i;

	ASSERT_GE(fd, 0);
	for (i = 0; i < HCCLT_MAX_PENDING_GROUPS; i++)
		ASSERT_EQ(0, group_create(fd, &g));
	EXPECT_EQ(-ENOSPC, group_create(fd, &g));
	/* Another file has its own count; closing frees them all. */
	EXPECT_EQ(0, group_create(self->fd, &g));
	close(fd);
	fd = open_dev(0);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, group_create(fd, &g));
	close(fd);
}

static void *churn_groups(void *arg)
{
	volatile int *stop = arg;
	struct drm_hcclt_group_create g;
	int fd, i;

	while (!*stop) {
		fd = open_dev(0);
		if (fd < 0)
			break;
		for (i = 0; i < 200; i++)
			group_create(fd, &g);
		close(fd);
	}
	return NULL;
}

/*
 * GROUP_INFO walks every group in batches, dropping the registry's lock
 * between them: with hundreds of pending groups made and freed meanwhile
 * (their files closed), it still lists exactly the ranks that are there.
 */
TEST_F(group, info_walk_while_groups_come_and_go)
{
	struct drm_hcclt_group_create g, p;
	volatile int stop = 0;
	pthread_t tid;
	int i, fd = open_dev(0);

	ASSERT_GE(fd, 0);
	for (i = 0; i < 250; i++)
		ASSERT_EQ(0, group_create(fd, &p));
	ASSERT_EQ(0, group_create(self->fd, &g));
	ASSERT_EQ(0, group_join(self->fd, g.key, 0, 1, 1000, NULL));
	ASSERT_EQ(0, pthread_create(&tid, NULL, churn_groups, (void *)&stop));
	for (i = 0; i < 200; i++)
		ASSERT_EQ(1, group_ranks(self->fd, g.name, NULL, 0));
	stop = 1;
	pthread_join(tid, NULL);
	close(fd);
	EXPECT_EQ(1, group_ranks(self->fd, g.name, NULL, 0));
}

TEST_F(group, join_checks)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_join j;
	__u8 bad[HCCLT_GROUP_KEY_BYTES];

	ASSERT_EQ(0, group_create(self->fd, &g));
	memset(&j, 0, sizeof(j));
	memcpy(j.key, g.key, sizeof(j.key));
	j.nranks = 2;
	j.flags = 2;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j));
	j.flags = 0;
	j.timeout_ms = -2;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j));
	EXPECT_EQ(-EINVAL, group_join(self->fd, g.key, 0, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, group_join(self->fd, g.key, 0,
				      HCCLT_MAX_GROUP_RANKS + 1, 0, NULL));
	/* rank >= nranks is checked before the key. */
	memset(bad, 0x5a, sizeof(bad));
	EXPECT_EQ(-ERANGE, group_join(self->fd, bad, 2, 2, 0, NULL));
	EXPECT_EQ(-ERANGE, group_join(self->fd, g.key, 2, 2, 0, NULL));
	EXPECT_EQ(-ENOENT, group_join(self->fd, bad, 0, 2, 0, NULL));
	/* Nothing was made by the failed joins. */
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

/*
 * uAPI 1.15: GROUP_INFO with HCCLT_GROUP_INFO_HOSTS: the same ranks, in
 * the larger entries, with no host for a group of this host only.
 */
TEST_F(group, info_hosts)
{
	struct drm_hcclt_group_rank_host e[64];
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_info a;
	__u64 comm;
	__u32 i, n;
	int found = 0;

	ASSERT_EQ(0, group_create(self->fd, &g));
	ASSERT_EQ(0, group_join(self->fd, g.key, 0, 1, 0, &comm));
	memset(&a, 0, sizeof(a));
	memset(e, 0xff, sizeof(e));
	a.flags = HCCLT_GROUP_INFO_HOSTS;
	a.rank_count = 64;
	a.ranks_ptr = (uintptr_t)e;
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_INFO, &a));
	n = a.rank_count < 64 ? a.rank_count : 64;
	for (i = 0; i < n; i++) {
		if (strcmp(e[i].info.name, g.name))
			continue;
		found++;
		EXPECT_EQ(0, e[i].info.rank);
		EXPECT_EQ(1, e[i].info.nranks);
		EXPECT_EQ(comm, e[i].info.comm_id);
		EXPECT_EQ(0, e[i].host_addr);
		EXPECT_EQ(0, e[i].host_port);
		EXPECT_EQ(0, e[i].remote);
	}
	EXPECT_EQ(1, found);
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
}

/* uAPI 1.15: the root host of GROUP_JOIN (clusters). */
TEST_F(group, join_root_checks)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_join j;
	struct drm_hcclt_query q;

	memset(&q, 0, sizeof(q));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
	ASSERT_EQ(0, group_create(self->fd, &g));
	memset(&j, 0, sizeof(j));
	memcpy(j.key, g.key, sizeof(j.key));
	j.nranks = 2;
	j.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j));
	/* An address without a port. */
	j.pad = 0;
	j.root_addr = htonl(0x0a000063);
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j));
	/* Another host, and this one in no cluster (the default load). */
	if (!q.cluster_addr) {
		j.root_port = htons(60000);
		j.timeout_ms = 0;
		EXPECT_EQ(-EOPNOTSUPP,
			  hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j));
	}
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

TEST_F(group, one_rank)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_rank_info e;
	__u64 comm, th;

	ASSERT_EQ(0, group_create(self->fd, &g));
	ASSERT_EQ(0, group_join(self->fd, g.key, 0, 1, 0, &comm));
	EXPECT_EQ(HCCLT_ID_KIND_COMM, HCCLT_ID_KIND(comm));
	EXPECT_EQ(self->comms0 + 1, comms_of(self->fd));
	/* A communicator like any other. */
	EXPECT_EQ(0, hcclt_acquire(self->fd, comm, HCCLT_ENGINE_CPU, 1, 1, &th));
	ASSERT_EQ(1, group_ranks(self->fd, g.name, &e, 1));
	EXPECT_EQ(0, e.rank);
	EXPECT_EQ(1, e.nranks);
	EXPECT_EQ(0, e.device);
	EXPECT_EQ(getpid(), e.pid);
	EXPECT_EQ(comm, e.comm_id);
	EXPECT_EQ(HCCLT_GROUP_COMPLETE, e.state);
	EXPECT_EQ(1, e.joined);
	/* Complete: nobody else gets in. */
	EXPECT_EQ(-EISCONN, group_join(self->fd, g.key, 0, 1, 0, NULL));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
	EXPECT_EQ(self->comms0, comms_of(self->fd));
	/* The last rank gone, the group is gone: its key is unknown. */
	EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
	EXPECT_EQ(-ENOENT, group_join(self->fd, g.key, 0, 1, 0, NULL));
}

/* 2..8 ranks as threads of this process, one per device. */
TEST_F_TIMEOUT(group, ranks_as_threads, 120)
{
	struct drm_hcclt_group_rank_info e[MAX_DEVS];
	struct rank_arg r[MAX_DEVS];
	struct drm_hcclt_group_create g;
	int n, i, max = ndevs < 8 ? ndevs : 8;

	for (n = 2; n <= max; n++) {
		ASSERT_EQ(0, group_create(self->fd, &g));
		for (i = n - 1; i >= 0; i--)
			start_rank(&r[i], g.key, i, i, n, HCCLT_SLOW_MS, 1);
		for (i = 0; i < n; i++) {
			pthread_join(r[i].tid, NULL);
			EXPECT_EQ(0, r[i].ret);
		}
		ASSERT_EQ(n, group_ranks(self->fd, g.name, e, MAX_DEVS));
		for (i = 0; i < n; i++) {
			EXPECT_EQ(i, e[i].rank);
			EXPECT_EQ(n, e[i].nranks);
			EXPECT_EQ(i, e[i].device);
			EXPECT_EQ(r[i].comm, e[i].comm_id);
			EXPECT_EQ(HCCLT_GROUP_COMPLETE, e[i].state);
		}
		for (i = 0; i < n; i++) {
			EXPECT_EQ(0, hcclt_comm_destroy(r[i].fd, r[i].comm));
			close(r[i].fd);
		}
		EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
	}
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

/* 2..8 ranks as processes: children that got the key through fork. */
TEST_F_TIMEOUT(group, ranks_as_processes, 120)
{
	struct drm_hcclt_group_create g;
	int n, i, st, max = ndevs < 8 ? ndevs : 8;
	pid_t pids[MAX_DEVS];

	for (n = 2; n <= max; n++) {
		ASSERT_EQ(0, group_create(self->fd, &g));
		for (i = 0; i < n; i++) {
			pids[i] = fork();
			ASSERT_GE(pids[i], 0);
			if (!pids[i]) {
				int fd = open_dev(i), ret;
				__u64 comm;

				if (fd < 0)
					_exit(100);
				ret = group_join(fd, g.key, i, n, HCCLT_SLOW_MS, &comm);
				if (ret)
					_exit(-ret);
				/* Still listed while the others finish. */
				if (group_ranks(fd, g.name, NULL, 0) < 1)
					_exit(101);
				_exit(0);
			}
		}
		for (i = 0; i < n; i++) {
			ASSERT_EQ(pids[i], waitpid(pids[i], &st, 0));
			EXPECT_TRUE(WIFEXITED(st));
			EXPECT_EQ(0, WEXITSTATUS(st));
		}
		/* Their files closed: communicators and group gone. */
		EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
	}
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

TEST_F(group, join_conflicts)
{
	struct drm_hcclt_group_create g;
	struct rank_arg r0, r2;
	int fd1, fd2;
	__u64 comm;

	if (ndevs < 3)
		SKIP(return, "needs 3 devices");
	fd1 = open_dev(1);
	fd2 = open_dev(2);
	ASSERT_GE(fd1, 0);
	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, group_create(self->fd, &g));
	start_rank(&r0, g.key, 0, 0, 3, HCCLT_SLOW_MS, 1);
	ASSERT_EQ(0, wait_joined(self->fd, g.name, 1));
	EXPECT_EQ(-EPROTO, group_join(fd1, g.key, 1, 4, 0, NULL));
	EXPECT_EQ(-EADDRINUSE, group_join(fd1, g.key, 0, 3, 0, NULL));
	/* Rank 1 on rank 0's device. */
	EXPECT_EQ(-EBUSY, group_join(self->fd, g.key, 1, 3, 0, NULL));
	/* None of these hurt the group: complete it. */
	start_rank(&r2, g.key, 2, 2, 3, HCCLT_SLOW_MS, 1);
	ASSERT_EQ(0, group_join(fd1, g.key, 1, 3, HCCLT_SLOW_MS, &comm));
	pthread_join(r0.tid, NULL);
	pthread_join(r2.tid, NULL);
	EXPECT_EQ(0, r0.ret);
	EXPECT_EQ(0, r2.ret);
	EXPECT_EQ(3, group_ranks(self->fd, g.name, NULL, 0));
	close(r0.fd);
	close(r2.fd);
	close(fd1);
	close(fd2);
	EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
}

TEST_F(group, timeout_fails_group)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_join j;
	struct rank_arg r1;
	double t0;

	ASSERT_EQ(0, group_create(self->fd, &g));
	/* Rank 1 waits without limit; rank 0 gives up after 200 ms. */
	start_rank(&r1, g.key, 1, 1, 3, -1, 0);
	ASSERT_EQ(0, wait_joined(self->fd, g.name, 1));
	memset(&j, 0, sizeof(j));
	memcpy(j.key, g.key, sizeof(j.key));
	j.rank = 0;
	j.nranks = 3;
	j.timeout_ms = 200;
	t0 = now_s();
	EXPECT_EQ(-ETIMEDOUT, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j));
	EXPECT_GE(now_s() - t0, 0.19);
	pthread_join(r1.tid, NULL);
	/* On the event, not late: see HCCLT_SLOW_MS. */
	EXPECT_EQ(-ECONNRESET, r1.ret);
	EXPECT_LT(now_s() - t0, HCCLT_SLOW_MS / 1000);
	EXPECT_EQ(self->comms0, comms_of(self->fd));
	/* The group is gone with its last waiter. */
	EXPECT_EQ(-ENOENT, group_join(self->fd, g.key, 2, 3, 0, NULL));
}

TEST_F(group, zero_timeout)
{
	struct drm_hcclt_group_create g;

	ASSERT_EQ(0, group_create(self->fd, &g));
	EXPECT_EQ(-ETIMEDOUT, group_join(self->fd, g.key, 0, 2, 0, NULL));
	/* A failed group is forgotten with its last waiting rank. */
	EXPECT_EQ(-ENOENT, group_join(self->fd, g.key, 0, 2, 0, NULL));
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

/* A rank SIGKILLed while others wait fails them at once. */
TEST_F_TIMEOUT(group, sigkill_during_rendezvous, 60)
{
	struct drm_hcclt_group_create g;
	struct rank_arg r1;
	double t0;
	pid_t pid;
	int st;

	if (ndevs < 3)
		SKIP(return, "needs 3 devices");
	ASSERT_EQ(0, group_create(self->fd, &g));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int fd = open_dev(2);

		group_join(fd, g.key, 2, 3, -1, NULL);
		_exit(1);
	}
	start_rank(&r1, g.key, 1, 1, 3, -1, 0);
	ASSERT_EQ(0, wait_joined(self->fd, g.name, 2));
	t0 = now_s();
	kill(pid, SIGKILL);
	pthread_join(r1.tid, NULL);
	/* On the event, not late: see HCCLT_SLOW_MS. */
	EXPECT_EQ(-ECONNRESET, r1.ret);
	EXPECT_LT(now_s() - t0, HCCLT_SLOW_MS / 1000);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st));
	EXPECT_EQ(-ENOENT, group_join(self->fd, g.key, 0, 3, 0, NULL));
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

/* Closing the creator's file before the group completes fails it. */
TEST_F(group, creator_close_fails_group)
{
	struct drm_hcclt_group_create g;
	struct rank_arg r1;
	int fd = open_dev(0);

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, group_create(fd, &g));
	start_rank(&r1, g.key, 1, 1, 2, -1, 0);
	ASSERT_EQ(0, wait_joined(self->fd, g.name, 1));
	close(fd);
	pthread_join(r1.tid, NULL);
	EXPECT_EQ(-ECONNRESET, r1.ret);
	EXPECT_EQ(-ENOENT, group_join(self->fd, g.key, 0, 2, 0, NULL));
}

/* Once complete, the group no longer needs its creator. */
TEST_F(group, creator_close_after_complete)
{
	struct drm_hcclt_group_create g;
	struct rank_arg r1;
	int fd = open_dev(0);
	__u64 comm;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, group_create(fd, &g));
	start_rank(&r1, g.key, 1, 1, 2, HCCLT_SLOW_MS, 1);
	ASSERT_EQ(0, group_join(self->fd, g.key, 0, 2, HCCLT_SLOW_MS, &comm));
	pthread_join(r1.tid, NULL);
	ASSERT_EQ(0, r1.ret);
	close(fd);
	EXPECT_EQ(2, group_ranks(self->fd, g.name, NULL, 0));
	close(r1.fd);
	EXPECT_EQ(1, group_ranks(self->fd, g.name, NULL, 0));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
	EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A signal withdraws the rank quietly; joining again works. */
TEST_F(group, signal_withdraws_quietly)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_join j;
	struct sigaction sa;
	struct rank_arg r1;
	__u64 comm;

	ASSERT_EQ(0, group_create(self->fd, &g));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: see -EINTR */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	memset(&j, 0, sizeof(j));
	memcpy(j.key, g.key, sizeof(j.key));
	j.nranks = 2;
	j.timeout_ms = 4 * HCCLT_SLOW_MS;
	ualarm(100000, 0);
	EXPECT_EQ(-EINTR, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j));
	EXPECT_LT(j.timeout_ms, 4 * HCCLT_SLOW_MS);
	EXPECT_GT(j.timeout_ms, 3 * HCCLT_SLOW_MS);
	signal(SIGALRM, SIG_DFL);
	/* Not joined any more, the group not failed. */
	EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
	EXPECT_EQ(self->comms0, comms_of(self->fd));
	start_rank(&r1, g.key, 1, 1, 2, HCCLT_SLOW_MS, 0);
	EXPECT_EQ(0, group_join(self->fd, g.key, 0, 2, HCCLT_SLOW_MS, &comm));
	pthread_join(r1.tid, NULL);
	EXPECT_EQ(0, r1.ret);
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
}

/* Two groups rendezvous at once on the same devices. */
TEST_F(group, two_groups_at_once)
{
	struct drm_hcclt_group_create a, b;
	struct rank_arg r[4];
	int i;

	ASSERT_EQ(0, group_create(self->fd, &a));
	ASSERT_EQ(0, group_create(self->fd, &b));
	start_rank(&r[0], a.key, 0, 0, 2, HCCLT_SLOW_MS, 0);
	start_rank(&r[1], b.key, 1, 0, 2, HCCLT_SLOW_MS, 0);
	start_rank(&r[2], b.key, 0, 1, 2, HCCLT_SLOW_MS, 0);
	start_rank(&r[3], a.key, 1, 1, 2, HCCLT_SLOW_MS, 0);
	for (i = 0; i < 4; i++) {
		pthread_join(r[i].tid, NULL);
		EXPECT_EQ(0, r[i].ret);
	}
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

/* 100 groups made and destroyed: pools and lists back to the start. */
TEST_F_TIMEOUT(group, hundred_groups, 120)
{
	struct drm_hcclt_query q0, q1;
	struct drm_hcclt_group_create g;
	struct rank_arg r1;
	int i, before;
	__u64 comm, th;

	before = group_ranks(self->fd, NULL, NULL, 0);
	ASSERT_EQ(0, hcclt_query(self->fd, &q0));
	for (i = 0; i < 100; i++) {
		ASSERT_EQ(0, group_create(self->fd, &g));
		start_rank(&r1, g.key, 1, 1, 2, HCCLT_SLOW_MS, 0);
		ASSERT_EQ(0, group_join(self->fd, g.key, 0, 2, HCCLT_SLOW_MS, &comm));
		ASSERT_EQ(0, hcclt_acquire(self->fd, comm, HCCLT_ENGINE_CPU,
					   2, 3, &th));
		pthread_join(r1.tid, NULL);
		ASSERT_EQ(0, r1.ret);
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, comm));
	}
	ASSERT_EQ(0, hcclt_query(self->fd, &q1));
	EXPECT_EQ(q0.comms, q1.comms);
	EXPECT_EQ(q0.streams_used, q1.streams_used);
	EXPECT_EQ(q0.notifies_used, q1.notifies_used);
	EXPECT_EQ(before, group_ranks(self->fd, NULL, NULL, 0));
}

/* Another user neither sees the group nor gets in without its key. */
TEST_F(group, unprivileged_cannot_see_or_join)
{
	struct drm_hcclt_group_create g;
	struct rank_arg r0;
	pid_t pid;
	int st;

	if (geteuid())
		SKIP(return, "needs root to switch users");
	ASSERT_EQ(0, group_create(self->fd, &g));
	start_rank(&r0, g.key, 0, 0, 2, 4 * HCCLT_SLOW_MS, 0);
	ASSERT_EQ(0, wait_joined(self->fd, g.name, 1));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		__u8 guess[HCCLT_GROUP_KEY_BYTES];
		int fd = open_dev(1), k;

		if (fd < 0 || setgid(65534) || setuid(65534))
			_exit(100);
		if (group_ranks(fd, NULL, NULL, 0) != 0)
			_exit(1);
		for (k = 0; k < 64; k++) {
			memset(guess, k, sizeof(guess));
			if (group_join(fd, guess, 1, 2, 0, NULL) != -ENOENT)
				_exit(2);
		}
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	/* With the key, it is a rank like any other. */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int fd = open_dev(1);

		if (fd < 0 || setgid(65534) || setuid(65534))
			_exit(100);
		_exit(group_join(fd, g.key, 1, 2, HCCLT_SLOW_MS, NULL) ? 3 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
	pthread_join(r0.tid, NULL);
	EXPECT_EQ(0, r0.ret);
}

/*
 * A caller with CAP_SYS_ADMIN sees every group; euid 0 without it sees
 * only the groups of its own euid (none of another user's).
 */
TEST_F(group, info_all_groups_needs_cap_sys_admin)
{
	struct drm_hcclt_group_create g;
	pid_t holder, pid;
	int p[2], st, drop;

	if (geteuid())
		SKIP(return, "needs root to switch users");
	ASSERT_EQ(0, pipe(p));
	holder = fork();
	ASSERT_GE(holder, 0);
	if (!holder) {
		/* Another user's group: its rank 0 joins and waits for 1. */
		int fd = open_dev(0);

		close(p[0]);
		if (fd < 0 || setgid(65534) || setuid(65534) ||
		    group_create(fd, &g) ||
		    write(p[1], &g, sizeof(g)) != sizeof(g))
			_exit(100);
		_exit(group_join(fd, g.key, 0, 2, 4 * HCCLT_SLOW_MS, NULL) == -ETIMEDOUT ?
		      0 : 101);
	}
	close(p[1]);
	ASSERT_EQ(sizeof(g), read(p[0], &g, sizeof(g)));
	close(p[0]);
	ASSERT_EQ(0, wait_joined(self->fd, g.name, 1));
	for (drop = 0; drop < 2; drop++) {
		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			if (drop && hcclt_set_caps(~(1U << CAP_SYS_ADMIN)))
				_exit(100);
			_exit(group_ranks(self->fd, g.name, NULL, 0));
		}
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		ASSERT_TRUE(WIFEXITED(st));
		EXPECT_EQ(drop ? 0 : 1, WEXITSTATUS(st)) TH_LOG("%s",
			drop ? "euid 0 without CAP_SYS_ADMIN" : "CAP_SYS_ADMIN");
	}
	kill(holder, SIGKILL);
	ASSERT_EQ(holder, waitpid(holder, &st, 0));
}

TEST_F(group, info_flags_einval)
{
	struct drm_hcclt_group_info a;

	memset(&a, 0, sizeof(a));
	/* uAPI 1.15: HCCLT_GROUP_INFO_HOSTS is the one flag. */
	a.flags = 2;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_INFO, &a));
	a.flags = 0x80000000 | HCCLT_GROUP_INFO_HOSTS;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_INFO, &a));
	a.flags = 0;
	a.rank_count = 1;
	a.ranks_ptr = 8;
	/* Nothing to copy is no fault; make one rank exist first. */
	{
		struct drm_hcclt_group_create g;
		__u64 comm;

		ASSERT_EQ(0, group_create(self->fd, &g));
		ASSERT_EQ(0, group_join(self->fd, g.key, 0, 1, 0, &comm));
		EXPECT_EQ(-EFAULT, hcclt_ioctl(self->fd,
					       DRM_IOCTL_HCCLT_GROUP_INFO, &a));
		EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
	}
}

/* ---- GROUP_JOIN with an absolute deadline (HCCLT_WAIT_DEADLINE) ---- */

static int join_abs_ex(int fd, const __u8 *key, __u32 rank, __u32 nranks,
		       __u32 flags, __s32 tmo, __s64 deadline,
		       struct drm_hcclt_group_join *out)
{
	struct drm_hcclt_group_join j;
	int ret;

	memset(&j, 0, sizeof(j));
	memcpy(j.key, key, sizeof(j.key));
	j.rank = rank;
	j.nranks = nranks;
	j.flags = flags;
	j.timeout_ms = tmo;
	j.deadline_ns = deadline;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j);
	if (out)
		*out = j;
	return ret;
}

static int join_abs(int fd, const __u8 *key, __u32 rank, __u32 nranks,
		    __s64 deadline, __u64 *comm)
{
	struct drm_hcclt_group_join j;
	int ret;

	ret = join_abs_ex(fd, key, rank, nranks, HCCLT_WAIT_DEADLINE, 0,
			  deadline, &j);
	if (!ret && comm)
		*comm = j.comm_id;
	return ret;
}

TEST_F(group, join_deadline_checks)
{
	struct drm_hcclt_group_create g;

	ASSERT_EQ(0, group_create(self->fd, &g));
	EXPECT_EQ(-EINVAL, join_abs_ex(self->fd, g.key, 0, 2,
				       HCCLT_WAIT_DEADLINE, 5,
				       HCCLT_DEADLINE_NONE, NULL));
	EXPECT_EQ(-EINVAL, join_abs_ex(self->fd, g.key, 0, 2,
				       HCCLT_WAIT_DEADLINE, -1,
				       HCCLT_DEADLINE_NONE, NULL));
	EXPECT_EQ(-EINVAL, join_abs(self->fd, g.key, 0, 2, -1, NULL));
	EXPECT_EQ(-EINVAL, join_abs_ex(self->fd, g.key, 0, 2, 0, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, join_abs_ex(self->fd, g.key, 0, 2,
				       HCCLT_WAIT_DEADLINE | 4, 0, 0, NULL));
	/* Checked before the rank. */
	EXPECT_EQ(-EINVAL, join_abs(self->fd, g.key, 5, 2, -1, NULL));
	EXPECT_EQ(-ERANGE, join_abs(self->fd, g.key, 5, 2, 0, NULL));
	EXPECT_EQ(self->comms0, comms_of(self->fd));
	/* Nothing joined, the group is not failed. */
	EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
	EXPECT_EQ(-ETIME, join_abs(self->fd, g.key, 0, 2, 0, NULL));
}

/* A deadline passed before every rank joined: -ETIME, the group fails. */
TEST_F_TIMEOUT(group, join_deadline_etime, 60)
{
	struct drm_hcclt_group_create g;
	struct rank_arg r1;
	__u64 comm;
	__s64 deadline;

	ASSERT_EQ(0, group_create(self->fd, &g));
	start_rank(&r1, g.key, 1, 1, 3, -1, 0);
	ASSERT_EQ(0, wait_joined(self->fd, g.name, 1));
	deadline = hcclt_now_ns() + 200000000LL;
	EXPECT_EQ(-ETIME, join_abs(self->fd, g.key, 0, 3, deadline, NULL));
	EXPECT_LE(deadline, hcclt_now_ns());
	pthread_join(r1.tid, NULL);
	EXPECT_EQ(-ECONNRESET, r1.ret);
	EXPECT_EQ(self->comms0, comms_of(self->fd));
	EXPECT_EQ(-ENOENT, join_abs(self->fd, g.key, 2, 3, 0, NULL));

	/* A deadline already passed only looks: alone, the group fails. */
	ASSERT_EQ(0, group_create(self->fd, &g));
	EXPECT_EQ(-ETIME, join_abs(self->fd, g.key, 0, 2, 0, NULL));
	EXPECT_EQ(-ENOENT, join_abs(self->fd, g.key, 0, 2, 0, NULL));

	/* HCCLT_DEADLINE_NONE waits for the other rank. */
	ASSERT_EQ(0, group_create(self->fd, &g));
	start_rank(&r1, g.key, 1, 1, 2, HCCLT_SLOW_MS, 0);
	EXPECT_EQ(0, join_abs(self->fd, g.key, 0, 2, HCCLT_DEADLINE_NONE,
			      &comm));
	pthread_join(r1.tid, NULL);
	EXPECT_EQ(0, r1.ret);
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
	EXPECT_EQ(self->comms0, comms_of(self->fd));
}

/* Interrupted: withdraws quietly, nothing written back. */
TEST_F(group, join_deadline_interrupted)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_join out;
	struct sigaction sa;
	__s64 deadline;

	ASSERT_EQ(0, group_create(self->fd, &g));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: see -EINTR */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	deadline = hcclt_now_ns() + 20000000000LL;
	ualarm(100000, 0);
	EXPECT_EQ(-EINTR, join_abs_ex(self->fd, g.key, 0, 2,
				      HCCLT_WAIT_DEADLINE, 0, deadline, &out));
	signal(SIGALRM, SIG_DFL);
	EXPECT_EQ(deadline, out.deadline_ns);
	EXPECT_EQ(0, out.timeout_ms);
	EXPECT_EQ(0, group_ranks(self->fd, g.name, NULL, 0));
	EXPECT_EQ(self->comms0, comms_of(self->fd));
	/* Restarted by the kernel (SA_RESTART): ends at the same deadline. */
	sa.sa_flags = SA_RESTART;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	deadline = hcclt_now_ns() + 600000000LL;
	ualarm(100000, 0);
	EXPECT_EQ(-ETIME, join_abs(self->fd, g.key, 0, 2, deadline, NULL));
	EXPECT_LE(deadline, hcclt_now_ns());
	signal(SIGALRM, SIG_DFL);
}

/* A caller built before uAPI 1.3 (40-byte struct) keeps working. */
TEST_F(group, join_v1_2_size)
{
	struct drm_hcclt_group_create g;
	struct {
		__u8 key[HCCLT_GROUP_KEY_BYTES];
		__u32 rank, nranks;
		__s32 timeout_ms;
		__u32 flags;
		__u64 comm_id;
	} old;
	unsigned long req = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
				 DRM_COMMAND_BASE + DRM_HCCLT_GROUP_JOIN,
				 sizeof(old));

	ASSERT_EQ(0, group_create(self->fd, &g));
	memset(&old, 0, sizeof(old));
	memcpy(old.key, g.key, sizeof(old.key));
	old.nranks = 2;
	EXPECT_EQ(-ETIMEDOUT, hcclt_ioctl(self->fd, req, &old));
	ASSERT_EQ(0, group_create(self->fd, &g));
	memcpy(old.key, g.key, sizeof(old.key));
	old.nranks = 1;
	old.timeout_ms = -1;
	EXPECT_EQ(0, hcclt_ioctl(self->fd, req, &old));
	EXPECT_NE(0, old.comm_id);
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, old.comm_id));
}

/* Failed joins of one file, while COMM_DESTROY guesses their ids. */
struct churn {
	int fd;
	volatile int stop;
	volatile unsigned long joins;
	unsigned long destroys;
	int bad;
	__u64 base;
};

static void *churn_join(void *p)
{
	struct churn *c = p;
	__u8 key[sizeof(((struct drm_hcclt_group_join *)0)->key)];
	int ret;

	memset(key, 0x5a, sizeof(key));
	while (!c->stop) {
		ret = group_join(c->fd, key, 0, 2, 0, NULL);
		if (ret != -ENOENT)
			c->bad = ret;
		c->joins++;
	}
	return NULL;
}

/*
 * A communicator made by a join that then fails leaves its file's table
 * under the file's lock: COMM_DESTROY aimed at its id (guessed from the
 * file's own ids) never finds it, and another file's communicators, made
 * and destroyed meanwhile from the same cache, are never touched.
 */
TEST_F_TIMEOUT(group, failed_join_races_destroy, 120)
{
	struct churn c = { 0 };
	pthread_t tid;
	__u64 id, mine;
	__s64 end;
	int fd2, k, ret;

	fd2 = open_dev(0);
	ASSERT_LE(0, fd2);
	c.fd = self->fd;
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c.base));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c.base));
	pthread_create(&tid, NULL, churn_join, &c);
	/* 2 s of racing, and until a join failed, however slow the host. */
	end = now_ns() + 2000000000LL;
	while (now_ns() < end ||
	       (!c.joins && now_ns() < end + 1000000LL * HCCLT_SLOW_MS)) {
		ASSERT_EQ(0, hcclt_comm_create(fd2, &mine));
		for (k = 1; k < 64; k++) {
			/* The next sequence numbers at the lowest indexes. */
			id = c.base + ((__u64)k << 20);
			ret = hcclt_comm_destroy(self->fd, id);
			if (ret != -ENOENT)
				c.bad = ret ? ret : 1;
			c.destroys++;
		}
		/* The other file's communicator is still its own. */
		ASSERT_EQ(0, hcclt_comm_destroy(fd2, mine));
	}
	c.stop = 1;
	pthread_join(tid, NULL);
	EXPECT_EQ(0, c.bad);
	EXPECT_LT(0, c.joins);
	EXPECT_EQ(self->comms0, comms_of(self->fd));
	close(fd2);
}

TEST_HARNESS_MAIN
