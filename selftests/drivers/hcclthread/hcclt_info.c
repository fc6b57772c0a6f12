// SPDX-License-Identifier: GPL-2.0
/*
 * DRM_IOCTL_HCCLT_INFO_ARRAY (issue 20): lists of any length read in pages
 * with a cursor and an element size, every validation, who sees whose
 * objects (CAP_SYS_ADMIN sees all; others their uid's files they may
 * inspect as /proc/<pid>/fdinfo allows), and that an INFO walk does not
 * hold up other files' open() and close() (with the info_delay_ms test
 * hook of the debug builds, which holds a walk in the middle).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/capability.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

#define HOLD_PARAM	"/sys/module/hcclthread/parameters/info_delay_ms"
#define STAGE_PARAM	"/sys/module/hcclthread/parameters/info_stage"
#define HOLD_MS		20000
#define NOBODY		65534


static int info_array(int fd, struct drm_hcclt_info_array *a)
{
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO_ARRAY, a);
}

static void array_args(struct drm_hcclt_info_array *a, __u32 scope,
		       __u32 type, void *buf, __u32 esize, __u32 n)
{
	memset(a, 0, sizeof(*a));
	a->scope = scope;
	a->type = type;
	a->buffer = (__u64)(uintptr_t)buf;
	a->element_size = esize;
	a->num_element = n;
}

/*
 * Every communicator entry of @scope, @page at a time: into @out (room for
 * @max), returns how many, or -errno. Counts the calls in *@calls.
 */
static int read_comms(int fd, __u32 scope, __u32 page,
		      struct drm_hcclt_info_comm *out, int max, int *calls)
{
	struct drm_hcclt_info_array a;
	__u64 cursor = 0;
	int n = 0, ret;

	*calls = 0;
	do {
		if (n >= max)
			return -E2BIG;
		if ((int)page > max - n)
			page = max - n;
		array_args(&a, scope, HCCLT_INFO_TYPE_COMMS, out + n,
			   sizeof(*out), page);
		a.cursor = cursor;
		ret = info_array(fd, &a);
		if (ret)
			return ret;
		if (a.num_element > page)
			return -EOVERFLOW;
		n += a.num_element;
		cursor = a.cursor;
		++*calls;
	} while (cursor);
	return n;
}

/* Is communicator @comm of process @pid in @scope's list of @fd? */
static int lists_comm(int fd, __u32 scope, pid_t pid, __u64 comm)
{
	static struct drm_hcclt_info_comm c[4096];
	int n, i, calls;

	n = read_comms(fd, scope, 64, c, HCCLT_ARRAY_SIZE(c), &calls);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		if (c[i].comm.comm_id == comm && c[i].comm.pid == (__u32)pid)
			return 1;
	return 0;
}

/* The same with the uAPI 1.0 INFO ioctl. */
static int lists_comm_v1(int fd, pid_t pid, __u64 comm)
{
	static struct drm_hcclt_comm_info c[4096];
	__u32 n = HCCLT_ARRAY_SIZE(c), i;
	int ret;

	ret = hcclt_info(fd, HCCLT_INFO_SCOPE_USER, c, &n, NULL, NULL);
	if (ret)
		return ret;
	for (i = 0; i < n && i < HCCLT_ARRAY_SIZE(c); i++)
		if (c[i].comm_id == comm && c[i].pid == (__u32)pid)
			return 1;
	return 0;
}

TEST(pages_list_every_comm_once)
{
	enum { N = 700 };
	static struct drm_hcclt_info_comm c[N + 64];
	static __u64 ids[N];
	int fd = hcclt_open(), n, i, j, calls, found;

	ASSERT_LE(0, fd);
	for (i = 0; i < N; i++)
		ASSERT_EQ(0, hcclt_comm_create(fd, &ids[i]));
	/* Pages of 7: at least N / 7 calls, every id once. */
	n = read_comms(fd, HCCLT_INFO_SCOPE_FILE, 7, c, HCCLT_ARRAY_SIZE(c),
		       &calls);
	ASSERT_EQ(N, n);
	EXPECT_LE(N / 7, calls);
	for (i = 0; i < N; i++) {
		found = 0;
		for (j = 0; j < n; j++)
			found += c[j].comm.comm_id == ids[i];
		EXPECT_EQ(1, found);
		EXPECT_NE(0, c[i].file_id);
		EXPECT_EQ(c[0].file_id, c[i].file_id);
		EXPECT_EQ((__u32)getpid(), c[i].comm.pid);
	}
	/* One call with room for all still stops at its page bound. */
	n = read_comms(fd, HCCLT_INFO_SCOPE_FILE, N + 64, c,
		       HCCLT_ARRAY_SIZE(c), &calls);
	EXPECT_EQ(N, n);
	EXPECT_LE(2, calls);
	close(fd);
}

TEST(threads_and_views_name_their_comm)
{
	struct drm_hcclt_info_thread t[64];
	struct drm_hcclt_info_array a;
	__u64 comm, th[3], view;
	int fd = hcclt_open(), i, views = 0;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, hcclt_comm_create(fd, &comm));
	ASSERT_EQ(0, hcclt_acquire(fd, comm, HCCLT_ENGINE_AICPU_TS, 3, 2, th));
	ASSERT_EQ(0, hcclt_export(fd, comm, HCCLT_ENGINE_CPU_TS, 1, th,
				  &view));
	array_args(&a, HCCLT_INFO_SCOPE_FILE, HCCLT_INFO_TYPE_THREADS, t,
		   sizeof(t[0]), HCCLT_ARRAY_SIZE(t));
	ASSERT_EQ(0, info_array(fd, &a));
	EXPECT_EQ(0, a.cursor);
	ASSERT_EQ(4, a.num_element);
	for (i = 0; i < 4; i++) {
		EXPECT_EQ(comm, t[i].thread.comm_id);
		EXPECT_NE(0, t[i].file_id);
		EXPECT_EQ(2, t[i].thread.notify_num);
		if (t[i].thread.flags & HCCLT_THREAD_VIEW) {
			EXPECT_EQ(view, t[i].thread.thread_id);
			EXPECT_EQ(HCCLT_ENGINE_CPU_TS, t[i].thread.engine);
			views++;
		}
	}
	EXPECT_EQ(1, views);
	close(fd);
}

/* A larger entry than the driver's: the tail is zeroed, the rest as usual. */
TEST(larger_element_zero_filled)
{
	unsigned char buf[3][128];
	struct drm_hcclt_info_comm *e;
	struct drm_hcclt_info_array a;
	int fd = hcclt_open(), i;
	size_t k;
	__u64 comm;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, hcclt_comm_create(fd, &comm));
	memset(buf, 0xa5, sizeof(buf));
	array_args(&a, HCCLT_INFO_SCOPE_FILE, HCCLT_INFO_TYPE_COMMS, buf,
		   sizeof(buf[0]), 3);
	ASSERT_EQ(0, info_array(fd, &a));
	ASSERT_EQ(1, a.num_element);
	e = (void *)buf[0];
	EXPECT_EQ(comm, e->comm.comm_id);
	for (k = sizeof(*e); k < sizeof(buf[0]); k++)
		if (buf[0][k])
			break;
	EXPECT_EQ(sizeof(buf[0]), k);
	/* Entries past the one written are untouched. */
	for (i = 1; i < 3; i++)
		EXPECT_EQ(0xa5, buf[i][0]);
	close(fd);
}

TEST(bad_arguments_einval)
{
	struct drm_hcclt_info_comm c[4];
	struct drm_hcclt_info_array a;
	int fd = hcclt_open(), other = hcclt_open();
	__u64 comm, cursor;

	ASSERT_LE(0, fd);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, hcclt_comm_create(fd, &comm));
	ASSERT_EQ(0, hcclt_comm_create(fd, &comm));

#define BAD(field, value) do {						\
		array_args(&a, HCCLT_INFO_SCOPE_FILE,			\
			   HCCLT_INFO_TYPE_COMMS, c, sizeof(c[0]), 4);	\
		a.field = value;					\
		EXPECT_EQ(-EINVAL, info_array(fd, &a));			\
	} while (0)
	BAD(flags, 1);
	BAD(pad, 1);
	BAD(reserved, 1);
	BAD(scope, 2);
	BAD(type, 0);
	BAD(type, 3);
	BAD(num_element, 0);
	BAD(element_size, HCCLT_INFO_COMM_SIZE_V1 - 1);
	BAD(element_size, 0);
	BAD(element_size, HCCLT_INFO_MAX_ELEMENT_SIZE + 1);
	BAD(cursor, ~0ULL);
	BAD(cursor, 1);	/* file 0: no file has it */
#undef BAD
	/* A thread entry is larger than a communicator's. */
	array_args(&a, HCCLT_INFO_SCOPE_FILE, HCCLT_INFO_TYPE_THREADS, c,
		   HCCLT_INFO_THREAD_SIZE_V1 - 1, 1);
	EXPECT_EQ(-EINVAL, info_array(fd, &a));

	/* A cursor of one file is not one of another in scope FILE. */
	array_args(&a, HCCLT_INFO_SCOPE_FILE, HCCLT_INFO_TYPE_COMMS, c,
		   sizeof(c[0]), 1);
	ASSERT_EQ(0, info_array(fd, &a));
	ASSERT_EQ(1, a.num_element);
	ASSERT_NE(0, a.cursor);
	cursor = a.cursor;
	array_args(&a, HCCLT_INFO_SCOPE_FILE, HCCLT_INFO_TYPE_COMMS, c,
		   sizeof(c[0]), 1);
	a.cursor = cursor;
	EXPECT_EQ(-EINVAL, info_array(other, &a));
	/* ... and the right file goes on with it. */
	EXPECT_EQ(0, info_array(fd, &a));

	/* Unwritable buffer. */
	array_args(&a, HCCLT_INFO_SCOPE_FILE, HCCLT_INFO_TYPE_COMMS,
		   (void *)8, sizeof(c[0]), 4);
	EXPECT_EQ(-EFAULT, info_array(fd, &a));
	close(other);
	close(fd);
}

/*
 * A refused argument is logged in the DRM_UT_DRIVER debug category
 * (drm.debug bit 0x2), as ivpu does, and not without it.
 */
TEST(validation_logged_with_drm_debug_driver)
{
	static const char param[] = "/sys/module/drm/parameters/debug";
	struct drm_hcclt_info_array a;
	char old[32] = "", line[1024];
	int fd = hcclt_open(), kmsg, pfd, hits[2] = { 0, 0 }, k;
	ssize_t n;

	ASSERT_LE(0, fd);
	if (geteuid() || access(param, W_OK))
		SKIP(return, "needs root and %s", param);
	pfd = open(param, O_RDONLY);
	ASSERT_LE(0, pfd);
	ASSERT_LT(0, read(pfd, old, sizeof(old) - 1));
	close(pfd);
	for (k = 0; k < 2; k++) {
		kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
		ASSERT_LE(0, kmsg);
		lseek(kmsg, 0, SEEK_END);
		ASSERT_EQ(0, hcclt_write_str(param, k ? "0x2" : "0"));
		array_args(&a, HCCLT_INFO_SCOPE_FILE, HCCLT_INFO_TYPE_COMMS, NULL,
			   HCCLT_INFO_COMM_SIZE_V1, 1);
		a.flags = 0x40;
		EXPECT_EQ(-EINVAL, info_array(fd, &a));
		while ((n = read(kmsg, line, sizeof(line) - 1)) > 0) {
			line[n] = 0;
			hits[k] += !!strstr(line, "INFO_ARRAY: flags 0x40");
		}
		close(kmsg);
	}
	hcclt_write_str(param, old);
	EXPECT_EQ(0, hits[0]);
	EXPECT_EQ(1, hits[1]);
	close(fd);
}

/* ---- who sees what ---- */

/*
 * Become @uid (and gid) with no capability; @dumpable as PR_SET_DUMPABLE.
 * An fd opened before stays open.
 */
static int become(uid_t uid, int dumpable)
{
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		return -errno;
	if (hcclt_set_caps(0))
		return -errno;
	return prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0) ? -errno : 0;
}

/*
 * A process of uid @uid (opening the device as that uid, with
 * CAP_DAC_OVERRIDE kept only for the open) that creates a communicator,
 * reports "pid comm" on @out and then does what @in says: 'n' non-dumpable,
 * 'd' dumpable, 'q' quit; each acknowledged with a byte on @out.
 */
static void holder(uid_t uid, int in, int out)
{
	char cmd;
	__u64 comm;
	int fd;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || setgroups(0, NULL) ||
	    setresgid(uid, uid, uid) || setresuid(uid, uid, uid) ||
	    hcclt_set_caps(1U << CAP_DAC_OVERRIDE))
		_exit(10);
	fd = hcclt_open();
	if (fd < 0 || hcclt_set_caps(0) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) ||
	    hcclt_comm_create(fd, &comm))
		_exit(11);
	dprintf(out, "%d %llu\n", getpid(), (unsigned long long)comm);
	while (read(in, &cmd, 1) == 1 && cmd != 'q') {
		prctl(PR_SET_DUMPABLE, cmd == 'd', 0, 0, 0);
		if (write(out, &cmd, 1) != 1)
			_exit(12);
	}
	_exit(0);
}

struct holder {
	pid_t pid;
	__u64 comm;
	int to, from;
};

static int start_holder(struct holder *h, uid_t uid)
{
	int a[2], b[2];
	char line[64];
	unsigned long long comm;
	ssize_t n;

	if (pipe(a) || pipe(b))
		return -errno;
	h->pid = fork();
	if (!h->pid) {
		close(a[1]);
		close(b[0]);
		holder(uid, a[0], b[1]);
	}
	close(a[0]);
	close(b[1]);
	h->to = a[1];
	h->from = b[0];
	n = read(h->from, line, sizeof(line) - 1);
	if (n <= 0)
		return -EIO;
	line[n] = 0;
	if (sscanf(line, "%*d %llu", &comm) != 1)
		return -EIO;
	h->comm = comm;
	return 0;
}

static int tell_holder(struct holder *h, char cmd)
{
	char ack;

	if (write(h->to, &cmd, 1) != 1 || read(h->from, &ack, 1) != 1)
		return -EIO;
	return ack == cmd ? 0 : -EIO;
}

static int stop_holder(struct holder *h)
{
	int st;

	if (write(h->to, "q", 1) != 1)
		kill(h->pid, SIGKILL);
	waitpid(h->pid, &st, 0);
	close(h->to);
	close(h->from);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * Run @fn in a child that first drops to @uid (not for 0) and, for uid 0,
 * drops CAP_SYS_ADMIN when @drop_admin; its exit status is what @fn
 * returned. The child inherits @fd, opened by the caller.
 */
static int as_child(uid_t uid, int drop_admin,
		    int (*fn)(int fd, const struct holder *h), int fd,
		    const struct holder *h)
{
	pid_t pid = fork();
	int st;

	if (!pid) {
		if (uid && become(uid, 1))
			_exit(100);
		if (!uid && drop_admin &&
		    hcclt_set_caps(~(1U << CAP_SYS_ADMIN)))
			_exit(101);
		_exit(fn(fd, h));
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* 1 if INFO_ARRAY and INFO both list @h's communicator, 0 if neither. */
static int sees(int fd, const struct holder *h)
{
	int a = lists_comm(fd, HCCLT_INFO_SCOPE_USER, h->pid, h->comm);
	int b = lists_comm_v1(fd, h->pid, h->comm);

	if (a < 0 || b < 0 || a != b)
		return 50 + (a < 0 ? 1 : 0) + (b < 0 ? 2 : 0) + (a != b ? 4 : 0);
	return a;
}

FIXTURE(privacy) {
	struct holder h;
	int fd;
};

FIXTURE_SETUP(privacy)
{
	if (geteuid())
		SKIP(return, "needs root to change uids");
	self->fd = hcclt_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, start_holder(&self->h, 1000));
}

FIXTURE_TEARDOWN(privacy)
{
	if (geteuid())
		return;
	EXPECT_EQ(0, stop_holder(&self->h));
	close(self->fd);
}

/* CAP_SYS_ADMIN sees every file. */
TEST_F(privacy, admin_sees_other_uid)
{
	EXPECT_EQ(1, sees(self->fd, &self->h));
}

/* euid 0 without CAP_SYS_ADMIN is not privileged. */
TEST_F(privacy, root_without_cap_sys_admin_does_not)
{
	EXPECT_EQ(0, as_child(0, 1, sees, self->fd, &self->h));
}

/* Another uid does not see it, even with a file open. */
TEST_F(privacy, other_uid_does_not)
{
	EXPECT_EQ(0, as_child(1001, 0, sees, self->fd, &self->h));
}

/* The same uid sees it while it is dumpable, as /proc/<pid>/fdinfo. */
TEST_F(privacy, same_uid_only_if_inspectable)
{
	EXPECT_EQ(1, as_child(1000, 0, sees, self->fd, &self->h));
	ASSERT_EQ(0, tell_holder(&self->h, 'n'));
	EXPECT_EQ(0, as_child(1000, 0, sees, self->fd, &self->h));
	ASSERT_EQ(0, tell_holder(&self->h, 'd'));
	EXPECT_EQ(1, as_child(1000, 0, sees, self->fd, &self->h));
}

/* Its own file, whoever opened it: scope USER always lists it. */
static int sees_own(int fd, const struct holder *h)
{
	__u64 comm;

	if (hcclt_comm_create(fd, &comm))
		return 60;
	return lists_comm(fd, HCCLT_INFO_SCOPE_USER, getppid(), comm) == 1 &&
	       lists_comm(fd, HCCLT_INFO_SCOPE_FILE, getppid(), comm) == 1 ?
	       0 : 61;
}

TEST_F(privacy, own_file_always)
{
	int fd = hcclt_open();

	ASSERT_LE(0, fd);
	/* Opened by root (this process), used by uid 1001. */
	EXPECT_EQ(0, as_child(1001, 0, sees_own, fd, &self->h));
	close(fd);
}

/*
 * QUERY's device-wide file and communicator counts are for CAP_SYS_ADMIN;
 * others get their own file's (two communicators made here) and 1.
 */
static int query_own_counts(int fd, const struct holder *h)
{
	struct drm_hcclt_query q;
	__u64 comm;

	if (hcclt_comm_create(fd, &comm) || hcclt_comm_create(fd, &comm))
		return 70;
	if (hcclt_query(fd, &q))
		return 71;
	if (q.files != 1)
		return 72;
	return q.comms == 2 ? 0 : 73;
}

TEST_F(privacy, query_counts_own_without_cap_sys_admin)
{
	struct drm_hcclt_query q;
	int fd = hcclt_open(), other = hcclt_open();

	ASSERT_LE(0, fd);
	ASSERT_LE(0, other);
	EXPECT_EQ(0, as_child(1001, 0, query_own_counts, fd, &self->h));
	EXPECT_EQ(0, as_child(0, 1, query_own_counts, other, &self->h));
	/* CAP_SYS_ADMIN: the holder's file and these three at least. */
	ASSERT_EQ(0, hcclt_query(fd, &q));
	EXPECT_LE(4, q.files);
	EXPECT_LE(5, q.comms);
	close(other);
	close(fd);
}

/*
 * debugfs: the state file is in the DRM device's own directory, and lists
 * every file, also past seq_file's first buffer (300 communicators in one
 * file, then a second file).
 */
TEST(debugfs_state_in_drm_device_dir)
{
	char path[300], line[256], want[2][64];
	int fd[2], i, k, seen[2] = { 0, 0 }, found = 0;
	__u64 comm[2];
	FILE *f;

	if (geteuid())
		SKIP(return, "needs root (debugfs)");
	if (access("/sys/kernel/debug/dri", F_OK) &&
	    access("/sys/kernel/debug/accel", F_OK))
		SKIP(return, "debugfs not mounted");
	for (k = 0; k < 2; k++) {
		fd[k] = hcclt_open();
		ASSERT_LE(0, fd[k]);
		for (i = 0; i < (k ? 1 : 300); i++)
			ASSERT_EQ(0, hcclt_comm_create(fd[k], &comm[k]));
		snprintf(want[k], sizeof(want[k]), "  comm 0x%llx ",
			 (unsigned long long)comm[k]);
	}
	/* The device the fds are on is among those found. */
	for (i = 0; !hcclt_debugfs_state(i, path, sizeof(path)); i++) {
		f = fopen(path, "re");
		ASSERT_NE(NULL, f);
		found++;
		EXPECT_NE(NULL, fgets(line, sizeof(line), f));
		EXPECT_EQ(0, strncmp(line, "device ", 7));
		while (fgets(line, sizeof(line), f))
			for (k = 0; k < 2; k++)
				seen[k] += !strncmp(line, want[k],
						    strlen(want[k]));
		fclose(f);
	}
	EXPECT_LE(1, found);
	EXPECT_LE(1, seen[0]);
	EXPECT_LE(1, seen[1]);
	EXPECT_NE(0, access("/sys/kernel/debug/hcclthread", F_OK));
	close(fd[0]);
	close(fd[1]);
}

/* ---- a walk does not hold up other files ---- */

static int read_int(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}


struct walker {
	int fd;
	int v1;
	int ret;
};

static void *walk(void *arg)
{
	static struct drm_hcclt_comm_info c[64];
	struct walker *w = arg;
	struct drm_hcclt_info_array a;
	__u32 n = HCCLT_ARRAY_SIZE(c);

	if (w->v1) {
		w->ret = hcclt_info(w->fd, HCCLT_INFO_SCOPE_USER, c, &n, NULL,
				    NULL);
	} else {
		array_args(&a, HCCLT_INFO_SCOPE_USER, HCCLT_INFO_TYPE_COMMS,
			   c, HCCLT_INFO_COMM_SIZE_V1, 1);
		w->ret = info_array(w->fd, &a);
	}
	return NULL;
}

/*
 * The walk is held (info_stage 1) in the middle of a file with many
 * communicators; another file opens and closes meanwhile. Before the fix
 * the walk held files_lock and open() waited until the hook gave up.
 */
static void open_close_during_walk(struct __test_metadata *_metadata,
				   int v1)
{
	struct walker w = { .v1 = v1 };
	int fd, other, i;
	pthread_t t;
	char ms[16];
	__u64 comm;

	if (access(HOLD_PARAM, W_OK))
		SKIP(return, "no info_delay_ms test hook (a debug build)");
	w.fd = hcclt_open();
	ASSERT_LE(0, w.fd);
	for (i = 0; i < 200; i++)
		ASSERT_EQ(0, hcclt_comm_create(w.fd, &comm));
	other = hcclt_open();
	ASSERT_LE(0, other);

	snprintf(ms, sizeof(ms), "%d", HOLD_MS);
	ASSERT_EQ(0, hcclt_write_str(HOLD_PARAM, ms));
	ASSERT_EQ(0, pthread_create(&t, NULL, walk, &w));
	for (i = 0; i < HCCLT_SLOW_MS / 10 && read_int(STAGE_PARAM) != 1; i++)
		usleep(10000);
	ASSERT_EQ(1, read_int(STAGE_PARAM));

	fd = hcclt_open();
	EXPECT_LE(0, fd);
	close(other);
	/* Still held: neither waited for the walk. */
	EXPECT_EQ(1, read_int(STAGE_PARAM));
	if (fd >= 0) {
		EXPECT_EQ(0, hcclt_comm_create(fd, &comm));
		close(fd);
	}
	EXPECT_EQ(1, read_int(STAGE_PARAM));

	ASSERT_EQ(0, hcclt_write_str(STAGE_PARAM, "2"));
	pthread_join(t, NULL);
	EXPECT_EQ(0, w.ret);
	hcclt_write_str(HOLD_PARAM, "0");
	close(w.fd);
}

TEST(open_close_not_held_by_info_array)
{
	open_close_during_walk(_metadata, 0);
}

TEST(open_close_not_held_by_info)
{
	open_close_during_walk(_metadata, 1);
}

HCCLT_HARNESS_MAIN
