/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared helpers of the hcclthread selftests: device discovery and thin
 * wrappers around the raw ioctls of uapi/drm/hcclthread_accel.h.
 *
 * Every wrapper returns 0 or -errno; none of them retries on EINTR, so the
 * tests see exactly what the kernel returned.
 */
#ifndef HCCLT_COMMON_H
#define HCCLT_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/types.h>

/*
 * The tests include the kernel tree's include/uapi/drm directly (no
 * "make headers_install"), where drm.h still carries __user.
 */
#ifndef __user
#define __user
#endif
#include "hcclthread_accel.h"
#include <linux/capability.h>

#define HCCLT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define HCCLT_ID_KIND(id)	(((id) >> HCCLT_ID_KIND_SHIFT) & 0xff)
#define HCCLT_ID_TAG_MASK	(0xffULL << 56)

/* An id no file ever hands out: right kind bits, absurd serial. */
#define HCCLT_BOGUS_ID(kind) \
	(((__u64)(kind) << HCCLT_ID_KIND_SHIFT) | 0xfffffffff0ULL)

static inline int hcclt_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? -errno : 0;
}

/* 1 if fd is a DRM node driven by hcclthread. */
static inline int hcclt_is_ours(int fd)
{
	char name[64] = "";
	struct drm_version v;

	memset(&v, 0, sizeof(v));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	if (ioctl(fd, DRM_IOCTL_VERSION, &v))
		return 0;
	name[sizeof(name) - 1] = '\0';
	return strcmp(name, HCCLT_DRIVER_NAME) == 0;
}

/*
 * Path of the device under test: $HCCLT_DEVICE, else the first
 * /dev/accel/accel* then /dev/dri/renderD* whose driver is hcclthread.
 * Returns 0 and fills @path, or -ENODEV.
 */
static inline int hcclt_find_device(char *path, size_t len)
{
	static const char *const dirs[] = { "/dev/accel", "/dev/dri" };
	static const char *const pfx[] = { "accel", "renderD" };
	const char *env = getenv("HCCLT_DEVICE");
	unsigned int d;

	if (env && *env) {
		snprintf(path, len, "%s", env);
		return 0;
	}
	for (d = 0; d < HCCLT_ARRAY_SIZE(dirs); d++) {
		size_t pl = strlen(pfx[d]);
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;
		int best = -1;

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			char p[300];
			int n, fd, ok;

			if (strncmp(de->d_name, pfx[d], pl))
				continue;
			n = atoi(de->d_name + pl);
			if (best >= 0 && n >= best)
				continue;
			snprintf(p, sizeof(p), "%s/%s", dirs[d], de->d_name);
			fd = open(p, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			ok = hcclt_is_ours(fd);
			close(fd);
			if (ok)
				best = n;
		}
		closedir(dir);
		if (best >= 0) {
			snprintf(path, len, "%s/%s%d", dirs[d], pfx[d], best);
			return 0;
		}
	}
	return -ENODEV;
}

/* Number of hcclthread nodes (accel nodes, else render nodes). */
static inline int hcclt_count_devices(void)
{
	static const char *const dirs[] = { "/dev/accel", "/dev/dri" };
	static const char *const pfx[] = { "accel", "renderD" };
	unsigned int d;

	for (d = 0; d < HCCLT_ARRAY_SIZE(dirs); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;
		int count = 0;

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			char p[300];
			int fd;

			if (strncmp(de->d_name, pfx[d], strlen(pfx[d])))
				continue;
			snprintf(p, sizeof(p), "%s/%s", dirs[d], de->d_name);
			fd = open(p, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			count += hcclt_is_ours(fd);
			close(fd);
		}
		closedir(dir);
		if (count)
			return count;
	}
	return 0;
}

/* Open the device under test; -errno on failure (-ENODEV: none found). */
static inline int hcclt_open(void)
{
	char path[300];
	int fd, ret;

	ret = hcclt_find_device(path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (!hcclt_is_ours(fd)) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

static inline int hcclt_query(int fd, struct drm_hcclt_query *q)
{
	memset(q, 0, sizeof(*q));
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, q);
}

static inline int hcclt_comm_create(int fd, __u64 *comm)
{
	struct drm_hcclt_comm_create a;
	int ret;

	memset(&a, 0, sizeof(a));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_CREATE, &a);
	if (!ret)
		*comm = a.comm_id;
	return ret;
}

static inline int hcclt_comm_destroy(int fd, __u64 comm)
{
	struct drm_hcclt_comm_destroy a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_DESTROY, &a);
}

static inline int hcclt_stream_create(int fd, __u64 *stream)
{
	struct drm_hcclt_stream_create a;
	int ret;

	memset(&a, 0, sizeof(a));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_CREATE, &a);
	if (!ret)
		*stream = a.stream_id;
	return ret;
}

static inline int hcclt_stream_destroy(int fd, __u64 stream)
{
	struct drm_hcclt_stream_destroy a;

	memset(&a, 0, sizeof(a));
	a.stream_id = stream;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_DESTROY, &a);
}

static inline int hcclt_acquire(int fd, __u64 comm, __u32 engine, __u32 num,
				__u32 notifies, __u64 *threads)
{
	struct drm_hcclt_thread_acquire a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.engine = engine;
	a.thread_num = num;
	a.notify_num_per_thread = notifies;
	a.threads_ptr = (__u64)(uintptr_t)threads;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE, &a);
}

static inline int hcclt_acquire_ws(int fd, __u64 comm, __u64 stream,
				   __u32 engine, __u32 notifies, __u64 *thread)
{
	struct drm_hcclt_thread_acquire_with_stream a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.stream_id = stream;
	a.engine = engine;
	a.notify_num = notifies;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM, &a);
	if (!ret && thread)
		*thread = a.thread_id;
	return ret;
}

static inline int hcclt_export(int fd, __u64 comm, __u32 dst_engine,
			       __u32 num, const __u64 *threads, __u64 *out)
{
	struct drm_hcclt_thread_export a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.dst_engine = dst_engine;
	a.thread_num = num;
	a.threads_ptr = (__u64)(uintptr_t)threads;
	a.exported_ptr = (__u64)(uintptr_t)out;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_EXPORT, &a);
}

static inline struct drm_hcclt_task hcclt_rec(__u64 dst, __u32 idx)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = HCCLT_TASK_NOTIFY_RECORD;
	t.notify_idx = idx;
	t.dst_thread = dst;
	return t;
}

static inline struct drm_hcclt_task hcclt_wait(__u32 idx, __u32 timeout_s)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = HCCLT_TASK_NOTIFY_WAIT;
	t.notify_idx = idx;
	t.timeout_s = timeout_s;
	return t;
}

/* Submit @n tasks on @handle; @fence (may be NULL) gets the fence fd. */
static inline int hcclt_submit_ex(int fd, __u64 handle,
				  const struct drm_hcclt_task *tasks, __u32 n,
				  __u32 flags, int *fence, __u64 *seqno)
{
	struct drm_hcclt_submit a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	a.tasks_ptr = (__u64)(uintptr_t)tasks;
	a.task_count = n;
	a.task_size = sizeof(struct drm_hcclt_task);
	a.flags = flags;
	a.fence_fd = -1;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &a);
	if (fence)
		*fence = a.fence_fd;
	if (seqno)
		*seqno = a.seqno;
	return ret;
}

static inline int hcclt_submit(int fd, __u64 handle,
			       const struct drm_hcclt_task *tasks, __u32 n)
{
	return hcclt_submit_ex(fd, handle, tasks, n, 0, NULL, NULL);
}

static inline int hcclt_record(int fd, __u64 src, __u64 dst, __u32 idx)
{
	struct drm_hcclt_task t = hcclt_rec(dst, idx);

	return hcclt_submit(fd, src, &t, 1);
}

static inline int hcclt_waitq(int fd, __u64 thread, __u32 idx, __u32 tmo_s)
{
	struct drm_hcclt_task t = hcclt_wait(idx, tmo_s);

	return hcclt_submit(fd, thread, &t, 1);
}

/*
 * Timing in tests (Documentation/selftests.rst): a test never requires
 * something to happen within less than HCCLT_SLOW_MS of wall-clock time.
 * What takes microseconds on a fast host takes seconds on a loaded one
 * running a debug kernel under TCG. Waits for a condition poll up to
 * HCCLT_SLOW_MS and fail only if it never holds; a test that something
 * happens "at once" (on an event, not at a timeout) gives the timeout it
 * must beat more than HCCLT_SLOW_MS and checks the result, not the time.
 */
#define HCCLT_SLOW_MS	30000

/*
 * A sync of @timeout_ms (-1: no limit). One of HCCLT_SYNC_EXPECTED ms or
 * more waits for something the test expects to happen: it is given at
 * least HCCLT_SLOW_MS. A test that the sync itself times out gives it
 * less (it returns -ETIMEDOUT after exactly that).
 */
#define HCCLT_SYNC_EXPECTED	5000

static inline int hcclt_sync(int fd, __u64 handle, int timeout_ms)
{
	struct drm_hcclt_stream_sync a;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	a.timeout_ms = timeout_ms >= HCCLT_SYNC_EXPECTED &&
		       timeout_ms < HCCLT_SLOW_MS ? HCCLT_SLOW_MS : timeout_ms;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_SYNC, &a);
}

/* INFO of the calling file; arrays may be NULL with zero counts. */
static inline int hcclt_info(int fd, __u32 scope,
			     struct drm_hcclt_comm_info *comms, __u32 *ncomms,
			     struct drm_hcclt_thread_info *threads,
			     __u32 *nthreads)
{
	struct drm_hcclt_info a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.scope = scope;
	a.comm_count = ncomms ? *ncomms : 0;
	a.thread_count = nthreads ? *nthreads : 0;
	a.comms_ptr = (__u64)(uintptr_t)comms;
	a.threads_ptr = (__u64)(uintptr_t)threads;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO, &a);
	if (!ret) {
		if (ncomms)
			*ncomms = a.comm_count;
		if (nthreads)
			*nthreads = a.thread_count;
	}
	return ret;
}

/* Quota counters of @comm in this file; -ENOENT if INFO does not list it. */
static inline int hcclt_comm_usage(int fd, __u64 comm, __u32 *threads_used,
				   __u32 *notifies_used, __u32 *thread_count)
{
	struct drm_hcclt_comm_info ci[256];
	__u32 n = HCCLT_ARRAY_SIZE(ci), i;
	int ret;

	ret = hcclt_info(fd, HCCLT_INFO_SCOPE_FILE, ci, &n, NULL, NULL);
	if (ret)
		return ret;
	if (n > HCCLT_ARRAY_SIZE(ci))
		n = HCCLT_ARRAY_SIZE(ci);
	for (i = 0; i < n; i++) {
		if (ci[i].comm_id != comm)
			continue;
		if (threads_used)
			*threads_used = ci[i].threads_used;
		if (notifies_used)
			*notifies_used = ci[i].notifies_used;
		if (thread_count)
			*thread_count = ci[i].thread_count;
		return 0;
	}
	return -ENOENT;
}

/* INFO entry of @thread in this file; -ENOENT if not listed. */
static inline int hcclt_thread_info(int fd, __u64 thread,
				    struct drm_hcclt_thread_info *out)
{
	static __thread struct drm_hcclt_thread_info ti[2048];
	__u32 n = HCCLT_ARRAY_SIZE(ti), i;
	int ret;

	ret = hcclt_info(fd, HCCLT_INFO_SCOPE_FILE, NULL, NULL, ti, &n);
	if (ret)
		return ret;
	if (n > HCCLT_ARRAY_SIZE(ti))
		n = HCCLT_ARRAY_SIZE(ti);
	for (i = 0; i < n; i++) {
		if (ti[i].thread_id == thread) {
			*out = ti[i];
			return 0;
		}
	}
	return -ENOENT;
}

static inline long long hcclt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* CLOCK_MONOTONIC in ns: the clock of the uAPI's absolute deadlines. */
static inline __s64 hcclt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__s64)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * The end of a wait for a condition: @ms from now, but never less than
 * HCCLT_SLOW_MS (the wait returns as soon as the condition holds).
 */
static inline long long hcclt_wait_end(int ms)
{
	return hcclt_now_ms() + (ms > HCCLT_SLOW_MS ? ms : HCCLT_SLOW_MS);
}

static inline void hcclt_msleep(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Wait (up to @ms, at least HCCLT_SLOW_MS) until the device pools and
 * object counts equal @want. Teardown may finish asynchronously after
 * close(), so poll. Returns 0 when they match; otherwise fills @got with
 * the last reading and returns -1.
 */
static inline int hcclt_wait_pools(int fd, const struct drm_hcclt_query *want,
				   struct drm_hcclt_query *got, int ms)
{
	long long end = hcclt_wait_end(ms);

	for (;;) {
		if (hcclt_query(fd, got))
			return -1;
		if (got->streams_used == want->streams_used &&
		    got->notifies_used == want->notifies_used &&
		    got->comms == want->comms && got->files == want->files)
			return 0;
		if (hcclt_now_ms() > end)
			return -1;
		hcclt_msleep(10);
	}
}

/*
 * Wait (up to @ms, at least HCCLT_SLOW_MS) until @thread's stream reaches
 * @state; returns 0 or -1 with @ti holding the last reading.
 */
static inline int hcclt_wait_state(int fd, __u64 thread, __u32 state,
				   struct drm_hcclt_thread_info *ti, int ms)
{
	long long end = hcclt_wait_end(ms);

	for (;;) {
		if (hcclt_thread_info(fd, thread, ti))
			return -1;
		if (ti->state == state)
			return 0;
		if (hcclt_now_ms() > end)
			return -1;
		hcclt_msleep(5);
	}
}

/*
 * Path of the debugfs state file of the @n-th hcclthread device found
 * (0, 1, ...): "state" in a DRM device's debugfs directory whose "name"
 * file names the driver (/sys/kernel/debug/accel/<unique>/ on kernels with
 * accel nodes, /sys/kernel/debug/dri/<render minor>/ on 6.1). Returns 0 or
 * -ENOENT.
 */
static inline int hcclt_debugfs_state(int n, char *path, size_t len)
{
	static const char *const dirs[] = {
		"/sys/kernel/debug/accel", "/sys/kernel/debug/dri",
	};
	unsigned int d;

	for (d = 0; d < HCCLT_ARRAY_SIZE(dirs); d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			char p[300], name[128] = "";
			FILE *f;

			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s/name", dirs[d], de->d_name);
			f = fopen(p, "re");
			if (!f)
				continue;
			if (!fgets(name, sizeof(name), f))
				name[0] = '\0';
			fclose(f);
			snprintf(p, sizeof(p), "%s/%s/state", dirs[d], de->d_name);
			if (strncmp(name, HCCLT_DRIVER_NAME " ",
				    strlen(HCCLT_DRIVER_NAME) + 1) ||
			    access(p, R_OK) || n--)
				continue;
			snprintf(path, len, "%s", p);
			closedir(dir);
			return 0;
		}
		closedir(dir);
	}
	return -ENOENT;
}

/*
 * main() for the harness programs: exit 4 (KSFT_SKIP) with a TAP plan of
 * zero when no hcclthread device can be opened, else run the tests.
 */
#define HCCLT_HARNESS_MAIN						\
	int main(int argc, char **argv)					\
	{								\
		int fd = hcclt_open();					\
									\
		if (fd < 0) {						\
			printf("TAP version 13\n");			\
			printf("1..0 # SKIP no hcclthread device (%s)\n", \
			       strerror(-fd));				\
			return 4;					\
		}							\
		close(fd);						\
		return test_harness_run(argc, argv);			\
	}

/* DRM_IOCTL_HCCLT_NOTIFY_CREATE: an ACL notify; its id in *@id. */
static inline int hcclt_acl_notify_create(int fd, __u32 *id)
{
	struct drm_hcclt_notify_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_NOTIFY_CREATE, &c);
	if (!ret && id)
		*id = c.notify_id;
	return ret;
}

/* The hcclthread platform driver (bind, unbind). */
#define HCCLT_PDRV_DIR	"/sys/bus/platform/drivers/hcclthread"

static inline int hcclt_write_str(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* The platform device ("hcclthread.N") behind the node open in @fd. */
static inline int hcclt_platform_name(int fd, char *name, size_t len)
{
	char link[PATH_MAX], *real, *base;
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	real = realpath(link, NULL);
	if (!real)
		return -errno;
	base = strrchr(real, '/');
	snprintf(name, len, "%s", base ? base + 1 : real);
	free(real);
	return strncmp(name, "hcclthread.", 11) ? -ENODEV : 0;
}

/*
 * Open the node of the hcclthread device whose platform device is @name
 * (hcclt_platform_name()), waiting for it up to HCCLT_SLOW_MS: a device
 * bound again may come back under another minor (its old one stays taken
 * until the unbound device's last reference goes). The fd or -ENODEV.
 */
static inline int hcclt_open_named(const char *name)
{
	static const char *const dirs[] = { "/dev/accel", "/dev/dri" };
	static const char *const pfx[] = { "accel", "renderD" };
	long long end = hcclt_wait_end(0);
	char p[300], got[64];
	unsigned int d;

	do {
		for (d = 0; d < HCCLT_ARRAY_SIZE(dirs); d++) {
			DIR *dir = opendir(dirs[d]);
			struct dirent *de;
			int fd;

			while (dir && (de = readdir(dir))) {
				if (strncmp(de->d_name, pfx[d], strlen(pfx[d])))
					continue;
				snprintf(p, sizeof(p), "%s/%s", dirs[d],
					 de->d_name);
				fd = open(p, O_RDWR | O_CLOEXEC);
				if (fd < 0)
					continue;
				if (!hcclt_platform_name(fd, got, sizeof(got)) &&
				    !strcmp(got, name)) {
					closedir(dir);
					return fd;
				}
				close(fd);
			}
			if (dir)
				closedir(dir);
		}
		hcclt_msleep(10);
	} while (hcclt_now_ms() < end);
	return -ENODEV;
}

/*
 * A fixture's teardown: close @fd, the test's file, and wait (up to
 * HCCLT_SLOW_MS) for the pools to be back at @q0 (another open file's
 * QUERY). 0 or -errno.
 */
static inline int hcclt_close_wait_pools(int fd,
					 const struct drm_hcclt_query *q0)
{
	struct drm_hcclt_query q;
	int ret;

	close(fd);
	fd = hcclt_open();
	if (fd < 0)
		return fd;
	ret = hcclt_wait_pools(fd, q0, &q, 5000);
	close(fd);
	return ret;
}

/* Open the first two hcclthread nodes of different devices: how many. */
static inline int hcclt_open_two(int fd[2], char name[2][64])
{
	static const char *const nodes[] = {
		"/dev/accel/accel%d", "/dev/dri/renderD%d",
	};
	static const int base[] = { 0, 128 };
	char path[64];
	int got = 0;
	unsigned int d;
	int i;

	for (d = 0; d < 2 && got < 2; d++) {
		for (i = 0; i < 16 && got < 2; i++) {
			snprintf(path, sizeof(path), nodes[d], base[d] + i);
			fd[got] = open(path, O_RDWR | O_CLOEXEC);
			if (fd[got] < 0)
				continue;
			if (!hcclt_is_ours(fd[got]) ||
			    hcclt_platform_name(fd[got], name[got], 64) ||
			    (got && !strcmp(name[0], name[1]))) {
				close(fd[got]);
				continue;
			}
			got++;
		}
	}
	return got;
}

/*
 * Set this process's effective and permitted capability sets to @caps (the
 * low 32 capabilities; the others, and the inheritable set, are dropped).
 */
static inline int hcclt_set_caps(__u32 caps)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { caps, caps, 0 }, { 0, 0, 0 } };

	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

#endif /* HCCLT_COMMON_H */
