// SPDX-License-Identifier: MIT
/*
 * hcclt-groups-bench: does another user's pile of groups slow a victim
 * down? (issue 29, item 5)
 *
 *   hcclt-groups-bench [-n GROUPS] [-s SAMPLES] [-u UID]
 *
 * The victim, a process of uid UID (default 60004; the device node is
 * made world-openable for the run when needed), times GROUP_CREATE on an
 * open file and close() of a file holding one pending group, on an idle
 * host and while another process (this one, uid 0) holds GROUPS pending
 * groups (default 20,000, over as many files as the 256-pending limit of
 * a file asks). Idle and loaded phases alternate (idle, loaded, idle,
 * loaded) so that both see the same machine; the medians of the pooled
 * samples and their ratio are printed. Target: loaded <= 1.2x idle.
 * No assertion: exit 0 when every call succeeded, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hcclt_dev.h"
#include "hcclthread_accel.h"

#define PER_FILE	250

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_dbl);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int group_create(int fd)
{
	struct drm_hcclt_group_create g;

	memset(&g, 0, sizeof(g));
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g);
}

/*
 * The victim: @n GROUP_CREATE samples (a fresh file every PER_FILE) and
 * @n close() samples, written to @out as 2 x @n doubles (ns).
 */
static int victim(const char *path, uid_t uid, int n, int out)
{
	double *v = calloc(2 * n, sizeof(*v)), t;
	int i, fd = -1;

	if (!v)
		return 1;
	if (!getuid() && (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
		return 2;
	for (i = 0; i < n; i++) {
		if (i % PER_FILE == 0) {
			if (fd >= 0)
				close(fd);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				return 3;
		}
		t = now_ns();
		if (group_create(fd))
			return 4;
		v[i] = now_ns() - t;
	}
	close(fd);
	for (i = 0; i < n; i++) {
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0 || group_create(fd))
			return 5;
		t = now_ns();
		close(fd);
		v[n + i] = now_ns() - t;
	}
	if (write(out, v, 2 * n * sizeof(*v)) != (ssize_t)(2 * n * sizeof(*v)))
		return 6;
	free(v);
	return 0;
}

/* One victim run; its samples appended to @create and @close. */
static int run_victim(const char *path, uid_t uid, int n, double *create,
		      double *closing)
{
	double *v = calloc(2 * n, sizeof(*v));
	size_t want = 2 * n * sizeof(*v), got = 0;
	int p[2], st;
	ssize_t r;
	pid_t pid;

	if (!v || pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		close(p[0]);
		_exit(victim(path, uid, n, p[1]));
	}
	close(p[1]);
	while (got < want && (r = read(p[0], (char *)v + got, want - got)) > 0)
		got += r;
	close(p[0]);
	waitpid(pid, &st, 0);
	if (got != want || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "victim failed (status %d)\n", st);
		free(v);
		return -1;
	}
	memcpy(create, v, n * sizeof(*v));
	memcpy(closing, v + n, n * sizeof(*v));
	free(v);
	return 0;
}

int main(int argc, char **argv)
{
	int groups = 20000, samples = 200, nfiles, i, j, opt, ret = 0;
	double *c[2], *x[2], mc[2], mx[2];
	char paths[16][PATH_MAX];
	uid_t uid = 60004;
	mode_t mode = 0;
	struct stat st;
	int *fds;

	while ((opt = getopt(argc, argv, "n:s:u:")) != -1) {
		switch (opt) {
		case 'n':
			groups = atoi(optarg);
			break;
		case 's':
			samples = atoi(optarg);
			break;
		case 'u':
			uid = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: %s [-n GROUPS] [-s SAMPLES] [-u UID]\n",
				argv[0]);
			return 2;
		}
	}
	if (hcclt_dev_list(paths, 16) < 1) {
		fprintf(stderr, "no hcclthread device\n");
		return 3;
	}
	if (!getuid() && !stat(paths[0], &st)) {
		mode = st.st_mode & 07777;
		chmod(paths[0], 0666);
	}
	nfiles = (groups + PER_FILE - 1) / PER_FILE;
	fds = calloc(nfiles, sizeof(*fds));
	for (i = 0; i < 2; i++) {
		c[i] = calloc(2 * samples, sizeof(double));
		x[i] = calloc(2 * samples, sizeof(double));
	}
	if (!fds || !c[0] || !c[1] || !x[0] || !x[1])
		return 1;

	for (j = 0; j < 2 && !ret; j++) {
		/* idle */
		ret = run_victim(paths[0], uid, samples, c[0] + j * samples,
				 x[0] + j * samples);
		/* loaded: another user's pending groups */
		for (i = 0; i < groups && !ret; i++) {
			if (i % PER_FILE == 0) {
				fds[i / PER_FILE] = open(paths[0],
							 O_RDWR | O_CLOEXEC);
				if (fds[i / PER_FILE] < 0)
					ret = -errno;
			}
			if (!ret)
				ret = group_create(fds[i / PER_FILE]);
		}
		if (ret) {
			fprintf(stderr, "attacker: group %d: %s\n", i,
				strerror(-ret));
			break;
		}
		ret = run_victim(paths[0], uid, samples, c[1] + j * samples,
				 x[1] + j * samples);
		for (i = 0; i < nfiles; i++)
			close(fds[i]);
	}
	if (mode)
		chmod(paths[0], mode);
	if (ret)
		return 1;
	for (i = 0; i < 2; i++) {
		mc[i] = median(c[i], 2 * samples);
		mx[i] = median(x[i], 2 * samples);
	}
	printf("victim (uid %u) with %d pending groups of another user vs an idle host, %d samples each:\n",
	       uid, groups, 2 * samples);
	printf("  GROUP_CREATE  idle %8.1f us  loaded %8.1f us  ratio %.2fx\n",
	       mc[0] / 1e3, mc[1] / 1e3, mc[1] / mc[0]);
	printf("  close()       idle %8.1f us  loaded %8.1f us  ratio %.2fx\n",
	       mx[0] / 1e3, mx[1] / 1e3, mx[1] / mx[0]);
	return 0;
}
