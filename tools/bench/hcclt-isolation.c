// SPDX-License-Identifier: MIT
/*
 * hcclt-isolation: what one client's copies cost everybody else (issue 29,
 * item 2). Not a test: it prints figures and ratios, no pass/fail.
 *
 *   1. a nice-0 spinner's speed alone, then while another process keeps
 *      the copy engine busy with 8 streams of 64 MiB copies (ratio);
 *   2. a process with 8 x 64 MiB copies queued (one per stream) is
 *      SIGKILLed: how long until its device memory is back and the copy
 *      engine idle, chunks run 100 ms after the kill and after that, and
 *      the spinner's speed over the second after the kill (ratio).
 *
 * The chunk counts come from the device's debugfs state ("copy engine:"
 * line); without it (older drivers) they print as "n/a".
 *
 * Usage: hcclt-isolation [-d /dev/accel/accelN -i N] [-k]
 *   -d, -i: the device node and its index (debugfs "device N"); default
 *	the first node, device 0.
 *   -k: exit right after the kill (for "rmmod right after" timings).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hcclt_dev.h"

#define MIB		(1024 * 1024ULL)
#define BIG		(64 * MIB)
#define NCOPIES		8

static const char *g_path;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* ---- the spinner: a nice-0 process counting in shared memory ---- */

static volatile uint64_t *g_spin;
static pid_t g_spinner;

static void spinner_start(void)
{
	g_spin = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (g_spin == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	g_spinner = fork();
	if (!g_spinner) {
		for (;;)
			__atomic_add_fetch(g_spin, 1, __ATOMIC_RELAXED);
	}
}

/* The spinner's time on a CPU and waiting for one, in ns (schedstat). */
static int spin_sched(unsigned long long *run, unsigned long long *wait)
{
	char p[64];
	FILE *f;
	int n;

	snprintf(p, sizeof(p), "/proc/%d/schedstat", (int)g_spinner);
	f = fopen(p, "re");
	if (!f)
		return -1;
	n = fscanf(f, "%llu %llu", run, wait);
	fclose(f);
	return n == 2 ? 0 : -1;
}

/*
 * Spinner iterations per second over @s seconds; *@share: the part of
 * the time it was runnable that it ran (the guest scheduler's view: a
 * vCPU the host does not run counts as running), or -1.
 */
static double spin_rate_share(double s, double *share)
{
	uint64_t a = __atomic_load_n(g_spin, __ATOMIC_RELAXED), b;
	unsigned long long r0, w0, r1, w1;
	double t0 = now_s(), t1;
	int ok = !spin_sched(&r0, &w0);

	sleep_s(s);
	b = __atomic_load_n(g_spin, __ATOMIC_RELAXED);
	t1 = now_s();
	ok = ok && !spin_sched(&r1, &w1) && r1 + w1 > r0 + w0;
	if (share)
		*share = ok ? (double)(r1 - r0) / (r1 - r0 + w1 - w0) : -1;
	return (b - a) / (t1 - t0);
}

static double spin_rate(double s)
{
	return spin_rate_share(s, NULL);
}

/* A second CPU-bound process: the control for the spinner's speed. */
static pid_t hog_start(void)
{
	pid_t pid = fork();

	if (!pid) {
		volatile unsigned long x = 0;

		for (;;)
			x++;
	}
	return pid;
}

/* ---- the device ---- */

static int dev_open(void)
{
	struct hcclt_dev d;

	if (hcclt_dev_open(g_path, &d))
		return -1;
	return d.fd;
}

static uint64_t mem_used(int fd)
{
	struct drm_hcclt_query q;

	memset(&q, 0, sizeof(q));
	if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q))
		return ~0ULL;
	return q.mem_used;
}

/*
 * The copy engine line of the device's debugfs state: chunks run and
 * busy; -1 if there is none. @index: the device's index.
 */
static int engine_state(int index, long long *chunks, int *busy)
{
	static const char *const dirs[] = { "/sys/kernel/debug/accel",
					    "/sys/kernel/debug/dri" };
	char p[512], line[256], st[16];
	unsigned int d;
	int dev;

	for (d = 0; d < 2; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		if (!dir)
			continue;
		while ((de = readdir(dir))) {
			FILE *f;
			int found = 0;

			snprintf(p, sizeof(p), "%s/%s/state", dirs[d],
				 de->d_name);
			f = fopen(p, "re");
			if (!f)
				continue;
			dev = -1;
			while (fgets(line, sizeof(line), f)) {
				sscanf(line, "device %d", &dev);
				if (dev == index &&
				    sscanf(line, "copy engine: %lld chunks run, %15s",
					   chunks, st) == 2) {
					*busy = !strcmp(st, "busy");
					found = 1;
					break;
				}
				if (!strncmp(line, "file ", 5))
					break;
			}
			fclose(f);
			if (found) {
				closedir(dir);
				return 0;
			}
		}
		closedir(dir);
	}
	return -1;
}

/*
 * A client: @n threads, each with one copy of BIG bytes from one unmapped
 * object into another queued; again and again if @loop.
 */
static void client(int n, int loop, int ready)
{
	struct drm_hcclt_comm_create cc;
	struct drm_hcclt_thread_acquire a;
	struct drm_hcclt_mem_create m[2];
	struct drm_hcclt_task t;
	uint64_t th[NCOPIES];
	int fd = dev_open(), i;

	memset(&cc, 0, sizeof(cc));
	if (fd < 0 || hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_CREATE, &cc))
		_exit(1);
	memset(&a, 0, sizeof(a));
	a.comm_id = cc.comm_id;
	a.engine = HCCLT_ENGINE_AICPU_TS;
	a.thread_num = n;
	a.notify_num_per_thread = 1;
	a.threads_ptr = (uintptr_t)th;
	if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE, &a))
		_exit(2);
	for (i = 0; i < 2; i++) {
		memset(&m[i], 0, sizeof(m[i]));
		m[i].size = BIG;
		if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &m[i]))
			_exit(3);
	}
	memset(&t, 0, sizeof(t));
	t.op = HCCLT_TASK_LOCAL_COPY;
	t.src_handle = m[0].handle;
	t.dst_handle = m[1].handle;
	t.len = BIG;
	do {
		for (i = 0; i < n; i++) {
			struct drm_hcclt_submit s = {
				.handle = th[i],
				.tasks_ptr = (uintptr_t)&t,
				.task_count = 1,
				.task_size = sizeof(t),
			};

			if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &s))
				_exit(4);
		}
		if (ready >= 0) {
			if (write(ready, "x", 1) != 1)
				_exit(5);
			close(ready);
			ready = -1;
		}
		for (i = 0; loop && i < n; i++) {
			struct drm_hcclt_stream_sync s = {
				.handle = th[i],
				.flags = HCCLT_WAIT_DEADLINE,
				.deadline_ns = HCCLT_DEADLINE_NONE,
			};

			if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_SYNC, &s))
				_exit(6);
		}
	} while (loop);
	pause();
	_exit(0);
}

static pid_t client_start(int loop)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		exit(1);
	pid = fork();
	if (!pid) {
		close(p[0]);
		client(NCOPIES, loop, p[1]);
	}
	close(p[1]);
	if (read(p[0], &c, 1) != 1) {
		fprintf(stderr, "client failed\n");
		exit(1);
	}
	close(p[0]);
	return pid;
}

static void kill_wait(pid_t pid)
{
	int st;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
}

static void pr_chunks(const char *what, int ok, long long v)
{
	if (ok)
		printf("  %s: %lld\n", what, v);
	else
		printf("  %s: n/a\n", what);
}

int main(int argc, char **argv)
{
	char paths[HCCLT_DEV_MAX][PATH_MAX];
	long long c0 = 0, c100 = 0, c1 = 0, cend = 0, ckill = 0;
	double base, busy, after, t0, t_mem = -1, t_idle = -1, hogged;
	double sh_base, sh_busy, sh_hog, sh_after;
	pid_t hog;
	int fd, index = 0, exit_after_kill = 0, c, has, b, n;
	uint64_t mem0;
	pid_t pid;

	while ((c = getopt(argc, argv, "d:i:k")) != -1) {
		if (c == 'd')
			g_path = optarg;
		else if (c == 'i')
			index = atoi(optarg);
		else if (c == 'k')
			exit_after_kill = 1;
		else
			return 2;
	}
	if (!g_path) {
		n = hcclt_dev_list(paths, HCCLT_DEV_MAX);
		if (n < 1) {
			fprintf(stderr, "%s\n", HCCLT_NO_DEVICE_MSG);
			return 1;
		}
		g_path = paths[0];
	}
	fd = dev_open();
	if (fd < 0)
		return 1;
	mem0 = mem_used(fd);
	spinner_start();
	sleep_s(0.3);

	/*
	 * 1. the spinner alone, next to a second CPU-bound process (in a
	 * TCG guest the vCPUs share the host's CPUs: a busy second vCPU
	 * slows the first one whatever runs on it), then during another
	 * client's copies.
	 */
	base = spin_rate_share(1.0, &sh_base);
	hog = hog_start();
	sleep_s(0.2);
	hogged = spin_rate_share(2.0, &sh_hog);
	kill_wait(hog);
	pid = client_start(1);
	sleep_s(0.2);
	busy = spin_rate_share(2.0, &sh_busy);
	kill_wait(pid);
	while (mem_used(fd) != mem0)
		sleep_s(0.01);
	sleep_s(0.3);
	base = (base + spin_rate(1.0)) / 2;
	printf("hcclt-isolation on %s (device %d)\n", g_path, index);
	printf("nice-0 spinner during another client's copies (%d streams x 64 MiB, resubmitted):\n",
	       NCOPIES);
	printf("  speed: %.1f%% of its speed alone, %.1f%% of its speed next to a second CPU-bound process (%.1f%% of alone)\n",
	       100.0 * busy / base, 100.0 * busy / hogged,
	       100.0 * hogged / base);
	printf("  share of its runnable time on a CPU (schedstat): %.1f%% (alone %.1f%%, next to a CPU-bound process %.1f%%)\n",
	       100.0 * sh_busy, 100.0 * sh_base, 100.0 * sh_hog);

	/* 2. SIGKILL with 8 x 64 MiB copies queued */
	has = !engine_state(index, &c0, &b);
	pid = client_start(0);
	/* Until the engine runs a first chunk (or 50 ms without debugfs). */
	t0 = now_s();
	while (now_s() - t0 < 5) {
		if (!has) {
			sleep_s(0.05);
			break;
		}
		if (!engine_state(index, &c1, &b) && c1 > c0)
			break;
		sleep_s(0.001);
	}
	ckill = c1 > c0 ? c1 : c0;
	kill(pid, SIGKILL);
	t0 = now_s();
	waitpid(pid, NULL, 0);
	if (exit_after_kill) {
		printf("killed the client %.1f ms ago; exiting\n",
		       (now_s() - t0) * 1e3);
		kill_wait(g_spinner);
		return 0;
	}
	{
		uint64_t a = __atomic_load_n(g_spin, __ATOMIC_RELAXED), z;
		unsigned long long r0 = 0, w0 = 0, r1 = 0, w1 = 0;
		int got100 = 0, sok = !spin_sched(&r0, &w0);

		while (now_s() - t0 < 30) {
			double t = now_s() - t0;

			if (t_mem < 0 && mem_used(fd) == mem0)
				t_mem = t;
			if (has && t_idle < 0 &&
			    !engine_state(index, &c1, &b) && !b)
				t_idle = t;
			if (has && !got100 && t >= 0.1) {
				engine_state(index, &c100, &b);
				got100 = 1;
			}
			if (t_mem >= 0 && (!has || t_idle >= 0) && t >= 1.0)
				break;
			sleep_s(0.001);
		}
		z = __atomic_load_n(g_spin, __ATOMIC_RELAXED);
		after = (z - a) / (now_s() - t0);
		sok = sok && !spin_sched(&r1, &w1) && r1 + w1 > r0 + w0;
		sh_after = sok ? (double)(r1 - r0) / (r1 - r0 + w1 - w0) : -1;
	}
	if (has) {
		sleep_s(0.1);
		engine_state(index, &cend, &b);
	}
	printf("SIGKILL of a client with %d x 64 MiB copies queued (one per stream):\n",
	       NCOPIES);
	printf("  device memory back after %.1f ms\n", t_mem * 1e3);
	if (has)
		printf("  copy engine idle after %.1f ms\n", t_idle * 1e3);
	else
		printf("  copy engine idle after: n/a\n");
	pr_chunks("chunks run from the kill to 100 ms after it", has,
		  c100 - ckill);
	pr_chunks("chunks run from 100 ms after the kill to the end", has,
		  cend - c100);
	printf("  nice-0 spinner over the first %.1f s after the kill: %.1f%% of its speed alone, on a CPU %.1f%% of its runnable time\n",
	       now_s() - t0, 100.0 * after / base, 100.0 * sh_after);
	kill_wait(g_spinner);
	close(fd);
	return 0;
}
