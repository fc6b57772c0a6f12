/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hcclthread kselftests: a child process in a memory cgroup of its own
 * (cgroup v2), for the tests of what is charged to the caller's memory
 * cgroup (hcclt_core: kernel objects, hcclt_mem: device memory pages).
 */
#ifndef HCCLT_CGROUP_H
#define HCCLT_CGROUP_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hcclt_common.h"

static inline int hcclt_cg_write(const char *dir, const char *file,
				 const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return hcclt_write_str(path, val);
}

static inline long long hcclt_cg_read_ll(const char *dir, const char *file)
{
	char path[PATH_MAX], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

/* Where cgroup2 is mounted (its root), or "" when it is not. */
static inline void hcclt_cg2_root(char *root, size_t len)
{
	char line[1024], mnt[512], type[64];
	FILE *f = fopen("/proc/self/mountinfo", "re");

	root[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		const char *dash = strstr(line, " - ");

		/* id parent major:minor root mount-point ... - type ... */
		if (!dash || sscanf(line, "%*s %*s %*s %*s %511s", mnt) != 1 ||
		    sscanf(dash + 3, "%63s", type) != 1)
			continue;
		if (!strcmp(type, "cgroup2")) {
			snprintf(root, len, "%s", mnt);
			break;
		}
	}
	fclose(f);
}

/**
 * struct hcclt_cg - a memory cgroup made for one test.
 * @root: the cgroup2 root.
 * @path: the test's cgroup below it.
 * @mnt: where cgroup2 was mounted for the test, if it was not.
 * @mounted: @mnt holds a mount to undo.
 * @why: why there is no cgroup (hcclt_cg_make() failed): the skip reason.
 */
struct hcclt_cg {
	char root[512];
	char path[600];
	char mnt[32];
	int mounted;
	char why[160];
};

static inline void hcclt_cg_unmount(struct hcclt_cg *c)
{
	if (c->mounted) {
		umount(c->mnt);
		rmdir(c->mnt);
		c->mounted = 0;
	}
}

/*
 * Make the cgroup <root>/<name>-<pid> with the memory controller, mounting
 * cgroup2 if needed. Return: 0, or -1 with @c->why set (skip the test).
 */
static inline int hcclt_cg_make(struct hcclt_cg *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	hcclt_cg2_root(c->root, sizeof(c->root));
	if (!c->root[0]) {
		snprintf(c->mnt, sizeof(c->mnt), "/tmp/hcclt-cg2.XXXXXX");
		if (!mkdtemp(c->mnt)) {
			snprintf(c->why, sizeof(c->why), "mkdtemp: %s",
				 strerror(errno));
			return -1;
		}
		if (mount("none", c->mnt, "cgroup2", 0, NULL)) {
			snprintf(c->why, sizeof(c->why), "no cgroup2: %s",
				 strerror(errno));
			rmdir(c->mnt);
			return -1;
		}
		c->mounted = 1;
		snprintf(c->root, sizeof(c->root), "%s", c->mnt);
	}
	/* Idempotent; without the controller, memory.current is missing. */
	hcclt_cg_write(c->root, "cgroup.subtree_control", "+memory");
	snprintf(c->path, sizeof(c->path), "%s/%s-%d", c->root, name,
		 (int)getpid());
	if (mkdir(c->path, 0755) ||
	    hcclt_cg_read_ll(c->path, "memory.current") < 0) {
		rmdir(c->path);
		hcclt_cg_unmount(c);
		snprintf(c->why, sizeof(c->why),
			 "no memory controller under %.120s", c->root);
		return -1;
	}
	return 0;
}

/*
 * Run @child(@c->path, fd) in a child process (the child moves itself into
 * the cgroup); it writes one long long to fd, read into *@val; its exit
 * status goes to *@status. The child dies with its parent. Return: 0, or -errno of pipe/fork/waitpid.
 */
static inline int hcclt_cg_run(struct hcclt_cg *c,
			       int (*child)(const char *cg, int out),
			       long long *val, int *status)
{
	int pfd[2];
	pid_t pid;

	if (pipe(pfd))
		return -errno;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid) {
		/* Gone with the test if the harness kills it (time limit). */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		close(pfd[0]);
		_exit(child(c->path, pfd[1]));
	}
	close(pfd[1]);
	if (read(pfd[0], val, sizeof(*val)) != sizeof(*val))
		*val = -1;
	close(pfd[0]);
	if (waitpid(pid, status, 0) != pid)
		return -errno;
	return 0;
}

/* Remove the (empty) cgroup and undo the mount. Return: rmdir()'s 0/-1. */
static inline int hcclt_cg_remove(struct hcclt_cg *c)
{
	int ret = rmdir(c->path);

	hcclt_cg_unmount(c);
	return ret;
}

#endif /* HCCLT_CGROUP_H */
