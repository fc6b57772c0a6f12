// SPDX-License-Identifier: GPL-2.0
/*
 * Fair shares of the device pools: what one file, one process and one
 * user may hold of each device's streams, notifies, events, memory,
 * communicators, groups and channel offers (module parameters share_*_pct,
 * max_comms, max_groups, max_offers; Documentation/overview.rst, "Limits").
 *
 * Runs as root: the users are forked children that switch to another uid
 * (setresuid drops every capability) before they open the device, so that
 * their files have their credentials.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "hcclt_ranks.h"
#include "../../kselftest_harness.h"

#define PARAMS	"/sys/module/hcclthread/parameters/"
#define UID_A	60001
#define UID_B	60002

static const char *const params[] = {
	"share_file_pct", "share_proc_pct", "share_uid_pct",
	"max_comms", "max_groups", "max_offers",
};

/* What one drain took of each pool, and why it stopped. */
struct take {
	int streams, notifies, events, comms, groups;
	long long mem_mb;
	int err_streams, err_notifies, err_events, err_mem, err_comms,
	    err_groups;
};

static int set_param(const char *name, unsigned int v)
{
	char path[128], val[16];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	snprintf(val, sizeof(val), "%u", v);
	return hcclt_write_str(path, val);
}

static int get_param(const char *name, unsigned int *v)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), PARAMS "%s", name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%u", v) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

/*
 * Become @uid (no capabilities left) in a forked child. The child dies
 * with the test (the harness kills a test that runs past its time limit):
 * a drain left holding its share would fail every test after it.
 */
static int become(uid_t uid)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0))
		return -errno;
	if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		return -errno;
	return 0;
}

/* Streams and notifies: threads of fresh communicators, then ACL notifies. */
static void take_threads(int fd, struct take *t, int max_streams)
{
	__u64 comm, th[32];
	int ret = 0, n, room = 0;

	while (t->streams < max_streams) {
		if (!room) {
			ret = hcclt_comm_create(fd, &comm);
			if (ret)
				break;
			t->comms++;
			room = 32;
		}
		n = room < max_streams - t->streams ? room :
			max_streams - t->streams;
		while (n && (ret = hcclt_acquire(fd, comm, HCCLT_ENGINE_CPU,
						 n, 2, th)))
			n /= 2;
		if (ret)
			break;
		t->streams += n;
		t->notifies += 2 * n;
		room -= n;
	}
	t->err_streams = ret;
	while (!(ret = hcclt_acl_notify_create(fd, NULL)))
		t->notifies++;
	t->err_notifies = ret;
}

static void take_rest(int fd, struct take *t)
{
	struct drm_hcclt_event_create e;
	struct drm_hcclt_mem_create m;
	long long chunk = 1024;
	int ret;

	for (;;) {
		memset(&e, 0, sizeof(e));
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_CREATE, &e);
		if (ret)
			break;
		t->events++;
	}
	t->err_events = ret;
	for (;;) {
		memset(&m, 0, sizeof(m));
		m.size = chunk << 20;
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &m);
		if (!ret) {
			t->mem_mb += chunk;
			continue;
		}
		if (chunk == 1)
			break;
		chunk /= 2;
	}
	t->err_mem = ret;
}

/*
 * A child of @uid opens @path, takes what it can and writes it to @out;
 * it keeps it until killed if @hold.
 */
static pid_t drain(const char *path, uid_t uid, int max_streams, bool rest,
		   bool hold, int out)
{
	pid_t pid = fork();
	struct take t;
	int fd;

	if (pid)
		return pid;
	memset(&t, 0, sizeof(t));
	if (become(uid))
		_exit(100);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		_exit(101);
	take_threads(fd, &t, max_streams);
	if (rest)
		take_rest(fd, &t);
	if (write(out, &t, sizeof(t)) != sizeof(t))
		_exit(102);
	if (hold)
		pause();
	_exit(0);
}

FIXTURE(limits) {
	int fd;
	char path[300];
	mode_t mode;
	unsigned int saved[6];
	bool params;
	struct drm_hcclt_query q0;
};

FIXTURE_SETUP(limits)
{
	struct stat st;
	int i;

	if (geteuid())
		SKIP(return, "needs root to switch users");
	ASSERT_EQ(0, hcclt_find_device(self->path, sizeof(self->path)));
	/* Without them (a module before the shares) only the drain runs. */
	self->params = true;
	for (i = 0; i < 6; i++)
		if (get_param(params[i], &self->saved[i]))
			self->params = false;
	ASSERT_EQ(0, stat(self->path, &st));
	self->mode = st.st_mode & 07777;
	/* Other users open it with their own credentials. */
	ASSERT_EQ(0, chmod(self->path, 0666));
	self->fd = hcclt_open();
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, hcclt_query(self->fd, &self->q0));
}

FIXTURE_TEARDOWN(limits)
{
	int i;

	if (geteuid() || !self->path[0])
		return;
	for (i = 0; i < 6 && self->params; i++)
		set_param(params[i], self->saved[i]);
	chmod(self->path, self->mode);
	EXPECT_EQ(0, hcclt_close_wait_pools(self->fd, &self->q0));
}

static void reap(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

/*
 * The 190-communicator drain of issue 29 by one user leaves another its
 * share of every pool, and the first user's drain stops at its share with
 * -EDQUOT.
 */
TEST_F_TIMEOUT(limits, drain_leaves_share_to_another_user, 900)
{
	struct drm_hcclt_query q = self->q0, got;
	unsigned int share_s, share_n, share_mb;
	struct take a, b;
	pid_t pa, pb;
	int p[2];

	if (self->params) {
		ASSERT_EQ(0, set_param("share_uid_pct", 50));
		ASSERT_EQ(0, set_param("share_proc_pct", 50));
		ASSERT_EQ(0, set_param("share_file_pct", 50));
	}
	share_s = q.streams_total / 2;
	share_n = q.notifies_total / 2;
	share_mb = (q.mem_total >> 20) / 2;
	ASSERT_EQ(0, pipe(p));

	pa = drain(self->path, UID_A, 190 * 40, true, true, p[1]);
	ASSERT_GT(pa, 0);
	ASSERT_EQ(sizeof(a), read(p[0], &a, sizeof(a)));
	TH_LOG("user A: %d streams, %d notifies, %d events, %lld MiB, %d comms",
	       a.streams, a.notifies, a.events, a.mem_mb, a.comms);
	EXPECT_EQ(share_s, a.streams);
	EXPECT_EQ(-EDQUOT, a.err_streams);
	EXPECT_EQ(share_n, a.notifies);
	EXPECT_EQ(-EDQUOT, a.err_notifies);
	EXPECT_EQ(HCCLT_MAX_EVENTS / 2, a.events);
	EXPECT_EQ(-EDQUOT, a.err_events);
	EXPECT_EQ(share_mb, a.mem_mb);
	EXPECT_EQ(-EDQUOT, a.err_mem);

	pb = drain(self->path, UID_B, 190 * 40, true, true, p[1]);
	ASSERT_GT(pb, 0);
	ASSERT_EQ(sizeof(b), read(p[0], &b, sizeof(b)));
	TH_LOG("user B: %d streams, %d notifies, %d events, %lld MiB",
	       b.streams, b.notifies, b.events, b.mem_mb);
	EXPECT_EQ(share_s, b.streams);
	EXPECT_EQ(share_n, b.notifies);
	EXPECT_EQ(HCCLT_MAX_EVENTS / 2, b.events);
	EXPECT_EQ(share_mb, b.mem_mb);

	reap(pa);
	reap(pb);
	/* Every unit came back with the two processes. */
	q.files = self->q0.files;
	EXPECT_EQ(0, hcclt_wait_pools(self->fd, &q, &got, 10000));
	EXPECT_EQ(self->q0.mem_used, got.mem_used);
	close(p[0]);
	close(p[1]);
}

/*
 * A file stops at share_file_pct, a process's files together at
 * share_proc_pct, a user's processes together at share_uid_pct.
 */
TEST_F_TIMEOUT(limits, file_process_and_user_shares, 600)
{
	unsigned int total = self->q0.streams_total;
	int fd1, fd2, p[2], st;
	struct take t[3];
	pid_t pid;

	if (!self->params)
		SKIP(return, "no share parameters");
	ASSERT_EQ(0, set_param("share_file_pct", 10));
	ASSERT_EQ(0, set_param("share_proc_pct", 15));
	ASSERT_EQ(0, set_param("share_uid_pct", 20));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		memset(t, 0, sizeof(t));
		if (become(UID_A))
			_exit(100);
		fd1 = open(self->path, O_RDWR | O_CLOEXEC);
		fd2 = open(self->path, O_RDWR | O_CLOEXEC);
		if (fd1 < 0 || fd2 < 0)
			_exit(101);
		take_threads(fd1, &t[0], total);
		take_threads(fd2, &t[1], total);
		if (write(p[1], t, 2 * sizeof(t[0])) < 0)
			_exit(102);
		pause();
		_exit(0);
	}
	ASSERT_EQ(2 * sizeof(t[0]), read(p[0], t, 2 * sizeof(t[0])));
	EXPECT_EQ(total * 10 / 100, t[0].streams);
	EXPECT_EQ(-EDQUOT, t[0].err_streams);
	EXPECT_EQ(total * 15 / 100 - total * 10 / 100, t[1].streams);
	EXPECT_EQ(-EDQUOT, t[1].err_streams);
	/* Another process of the same user: what is left of the user's. */
	pid_t other = drain(self->path, UID_A, total, false, true, p[1]);

	ASSERT_GT(other, 0);
	ASSERT_EQ(sizeof(t[2]), read(p[0], &t[2], sizeof(t[2])));
	EXPECT_EQ(total * 20 / 100 - total * 15 / 100, t[2].streams);
	EXPECT_EQ(-EDQUOT, t[2].err_streams);
	reap(pid);
	reap(other);
	/* Once they are gone, the user's share is whole again. */
	pid = drain(self->path, UID_A, total, false, false, p[1]);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(sizeof(t[2]), read(p[0], &t[2], sizeof(t[2])));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(total * 10 / 100, t[2].streams);
	close(p[0]);
	close(p[1]);
}

/*
 * A file opened with CAP_SYS_ADMIN is never refused; euid 0 without it
 * is a user like any other.
 */
TEST_F_TIMEOUT(limits, cap_sys_admin_is_exempt, 600)
{
	unsigned int total = self->q0.streams_total;
	struct take t;
	int p[2], drop, st;
	pid_t pid;

	if (!self->params)
		SKIP(return, "no share parameters");
	ASSERT_EQ(0, set_param("share_file_pct", 10));
	ASSERT_EQ(0, pipe(p));
	for (drop = 1; drop >= 0; drop--) {
		pid = fork();
		ASSERT_GE(pid, 0);
		if (!pid) {
			int fd;

			memset(&t, 0, sizeof(t));
			if (drop && hcclt_set_caps(~(1U << CAP_SYS_ADMIN)))
				_exit(100);
			fd = open(self->path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				_exit(101);
			take_threads(fd, &t, total / 5);
			if (write(p[1], &t, sizeof(t)) < 0)
				_exit(102);
			_exit(0);
		}
		ASSERT_EQ(sizeof(t), read(p[0], &t, sizeof(t)));
		ASSERT_EQ(pid, waitpid(pid, &st, 0));
		if (drop) {
			EXPECT_EQ(total / 10, t.streams);
			EXPECT_EQ(-EDQUOT, t.err_streams);
		} else {
			EXPECT_EQ(total / 5, t.streams);
		}
	}
	close(p[0]);
	close(p[1]);
}

/* Communicators and groups, complete ones included, count too. */
TEST_F(limits, comms_and_groups_shares)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_group_join j;
	int p[2], st, i, ret;
	struct take t;
	pid_t pid;

	if (!self->params)
		SKIP(return, "no share parameters");
	ASSERT_EQ(0, set_param("share_file_pct", 100));
	ASSERT_EQ(0, set_param("share_proc_pct", 100));
	ASSERT_EQ(0, set_param("share_uid_pct", 50));
	ASSERT_EQ(0, set_param("max_comms", 16));
	ASSERT_EQ(0, set_param("max_groups", 8));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		__u64 comm[16];
		int fd;

		memset(&t, 0, sizeof(t));
		if (become(UID_A))
			_exit(100);
		fd = open(self->path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			_exit(101);
		while (t.comms < 16 &&
		       !(ret = hcclt_comm_create(fd, &comm[t.comms])))
			t.comms++;
		t.err_comms = ret;
		/* Destroyed ones come back (GROUP_JOIN makes one). */
		for (i = 0; i < t.comms; i++)
			if (hcclt_comm_destroy(fd, comm[i]))
				_exit(103);
		for (i = 0; i < 16; i++) {
			memset(&g, 0, sizeof(g));
			ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g);
			if (ret)
				break;
			/* A complete single-rank group, held by its comm. */
			memset(&j, 0, sizeof(j));
			memcpy(j.key, g.key, sizeof(j.key));
			j.nranks = 1;
			j.timeout_ms = 1000;
			if (t.groups % 2 &&
			    hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j))
				_exit(104);
			t.groups++;
		}
		t.err_groups = ret;
		if (write(p[1], &t, sizeof(t)) < 0)
			_exit(102);
		_exit(0);
	}
	ASSERT_EQ(sizeof(t), read(p[0], &t, sizeof(t)));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(0, WEXITSTATUS(st));
	EXPECT_EQ(8, t.comms);
	EXPECT_EQ(-EDQUOT, t.err_comms);
	EXPECT_EQ(4, t.groups);
	EXPECT_EQ(-EDQUOT, t.err_groups);
	close(p[0]);
	close(p[1]);
}

/*
 * A share lowered below what a file holds refuses more of that pool, not
 * calls that take none of it: STREAM_CREATE takes streams, no notifies.
 */
TEST_F(limits, lowered_share_refuses_only_its_pool)
{
	int to[2], from[2], res[3], i, st;
	char c = 0;
	pid_t pid;

	if (!self->params)
		SKIP(return, "no share parameters");
	ASSERT_EQ(0, pipe(to));
	ASSERT_EQ(0, pipe(from));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		__u64 s;
		int fd;

		if (become(UID_A))
			_exit(100);
		fd = open(self->path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			_exit(101);
		for (i = 0; i < 100; i++)
			if (hcclt_acl_notify_create(fd, NULL))
				_exit(102);
		if (write(from[1], &c, 1) != 1 || read(to[0], &c, 1) != 1)
			_exit(103);
		res[0] = hcclt_acl_notify_create(fd, NULL);
		res[1] = hcclt_stream_create(fd, &s);
		res[2] = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_CREATE,
				     &(struct drm_hcclt_event_create){ 0 });
		_exit(write(from[1], res, sizeof(res)) == sizeof(res) ? 0 : 104);
	}
	ASSERT_EQ(1, read(from[0], &c, 1));
	/* 1% of 8192 notifies is 81: the file holds 100. */
	ASSERT_EQ(0, set_param("share_file_pct", 1));
	ASSERT_EQ(1, write(to[1], &c, 1));
	ASSERT_EQ(sizeof(res), read(from[0], res, sizeof(res)));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_EQ(-EDQUOT, res[0]);
	EXPECT_EQ(0, res[1]);
	EXPECT_EQ(0, res[2]);
	close(to[0]);
	close(to[1]);
	close(from[0]);
	close(from[1]);
}

/*
 * The offers of a CHANNEL_ACQUIRE call count while it runs: a call with
 * more offers than the user's share is -EDQUOT, one within it runs (and
 * gives its share back when its deadline ends it).
 */
TEST_F(limits, channel_offers_share)
{
	struct drm_hcclt_channel_desc d[3];
	struct drm_hcclt_group_create g;
	mode_t mode1 = 0;
	struct rank r[2];
	struct stat st;
	int p[2], res[3], status, fd0;
	pid_t pid;

	if (!self->params)
		SKIP(return, "no share parameters");
	if (find_devices() < 2)
		SKIP(return, "needs two devices");
	ASSERT_EQ(0, stat(dev_paths[1], &st));
	mode1 = st.st_mode & 07777;
	ASSERT_EQ(0, chmod(dev_paths[0], 0666));
	ASSERT_EQ(0, chmod(dev_paths[1], 0666));
	ASSERT_EQ(0, set_param("share_uid_pct", 50));
	ASSERT_EQ(0, set_param("max_offers", 4));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		if (become(UID_A))
			_exit(100);
		fd0 = open_dev(0);
		if (fd0 < 0 || join_all(fd0, r, 2, &g))
			_exit(101);
		d[0] = desc(1, HCCLT_PROTOCOL_HCCS, 1);
		d[1] = desc(1, HCCLT_PROTOCOL_ROCE, 1);
		d[2] = desc(1, HCCLT_PROTOCOL_UB_CTP, 1);
		res[0] = chan_acquire_ex(r[0].fd, r[0].comm, HCCLT_ENGINE_CPU,
					 d, 3, now_ns() + 100000000LL);
		res[1] = chan_acquire_ex(r[0].fd, r[0].comm, HCCLT_ENGINE_CPU,
					 d, 2, now_ns() + 100000000LL);
		res[2] = chan_acquire_ex(r[0].fd, r[0].comm, HCCLT_ENGINE_CPU,
					 d, 2, now_ns() + 100000000LL);
		if (write(p[1], res, sizeof(res)) < 0)
			_exit(102);
		_exit(0);
	}
	ASSERT_EQ(sizeof(res), read(p[0], res, sizeof(res)));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	chmod(dev_paths[1], mode1);
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(-EDQUOT, res[0]);
	EXPECT_EQ(-ETIME, res[1]);
	EXPECT_EQ(-ETIME, res[2]);
	close(p[0]);
	close(p[1]);
}

HCCLT_HARNESS_MAIN
