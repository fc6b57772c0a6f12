// SPDX-License-Identifier: MIT
/*
 * hcclt_procmem: device memory per process, read where the kernel already
 * shows it: the fdinfo of every open file of the device (drm-total-memory
 * and drm-resident-memory, DRM's drm-usage-stats keys, which hcclthread
 * prints on every kernel). No ioctl: what a user may see is what
 * /proc/<pid>/fd and fdinfo let it read (its own processes; all for root).
 *
 * A file open in several processes (fork(), fd passing) has one
 * drm-client-id: it is counted once, for the first process found with it
 * (the lowest pid).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hcclt_procmem.h"

/* A memory value of fdinfo: a number and an optional KiB/MiB/GiB unit. */
static uint64_t parse_mem(const char *v)
{
	unsigned long long n;
	char *end;

	while (*v == ' ' || *v == '\t')
		v++;
	n = strtoull(v, &end, 10);
	while (*end == ' ')
		end++;
	if (!strncmp(end, "KiB", 3))
		n <<= 10;
	else if (!strncmp(end, "MiB", 3))
		n <<= 20;
	else if (!strncmp(end, "GiB", 3))
		n <<= 30;
	return n;
}

struct seen {
	uint64_t *ids;
	size_t n, cap;
};

/* 1 when @id was seen before; else remember it. -1 out of memory. */
static int seen_add(struct seen *s, uint64_t id)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->ids[i] == id)
			return 1;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		uint64_t *n = realloc(s->ids, cap * sizeof(*n));

		if (!n)
			return -1;
		s->ids = n;
		s->cap = cap;
	}
	s->ids[s->n++] = id;
	return 0;
}

/* Add fdinfo @path to @pm unless its client was seen. */
static void add_fdinfo(const char *path, struct hcclt_procmem *pm,
		       struct seen *seen)
{
	uint64_t total = 0, resident = 0, id = 0;
	int has_id = 0;
	char line[256];
	FILE *f = fopen(path, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "drm-client-id:", 14)) {
			id = strtoull(line + 14, NULL, 10);
			has_id = 1;
		} else if (!strncmp(line, "drm-total-memory:", 17)) {
			total = parse_mem(line + 17);
		} else if (!strncmp(line, "drm-resident-memory:", 20)) {
			resident = parse_mem(line + 20);
		}
	}
	fclose(f);
	if (has_id && seen_add(seen, id))
		return;
	pm->total += total;
	pm->resident += resident;
	pm->files++;
}

static void read_comm(int pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", pid);
	buf[0] = 0;
	f = fopen(path, "re");
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static int cmp_pid(const struct dirent **x, const struct dirent **y)
{
	return atoi((*x)->d_name) - atoi((*y)->d_name);
}

static int is_pid(const struct dirent *d)
{
	const char *s = d->d_name;

	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/**
 * hcclt_procmem_scan - the processes that have @node open, with the memory
 * of their files of it.
 * @node: the device node (/dev/accel/accel0).
 * @out: out, an array to free(), by pid; NULL when none.
 *
 * Processes whose /proc/<pid>/fd this user cannot read are left out.
 *
 * Return: the number of entries, or -errno (@node cannot be stat()ed,
 * /proc cannot be read, out of memory).
 */
int hcclt_procmem_scan(const char *node, struct hcclt_procmem **out)
{
	struct hcclt_procmem *v = NULL, pm;
	struct dirent **pids;
	struct seen seen = { 0 };
	struct stat dev, st;
	int np, i, n = 0, cap = 0, ret = 0;

	*out = NULL;
	if (stat(node, &dev))
		return -errno;
	np = scandir("/proc", &pids, is_pid, cmp_pid);
	if (np < 0)
		return -errno;
	for (i = 0; i < np; i++) {
		char path[300];
		struct dirent *e;
		DIR *fds;
		int pid = atoi(pids[i]->d_name);

		snprintf(path, sizeof(path), "/proc/%d/fd", pid);
		fds = opendir(path);
		if (!fds)
			continue;
		memset(&pm, 0, sizeof(pm));
		pm.pid = pid;
		while ((e = readdir(fds))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fd/%s", pid,
				 e->d_name);
			if (stat(path, &st) || !S_ISCHR(st.st_mode) ||
			    st.st_rdev != dev.st_rdev)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", pid,
				 e->d_name);
			add_fdinfo(path, &pm, &seen);
		}
		closedir(fds);
		if (!pm.files)
			continue;
		read_comm(pid, pm.comm, sizeof(pm.comm));
		if (n == cap) {
			struct hcclt_procmem *nv;

			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*nv));
			if (!nv) {
				ret = -ENOMEM;
				break;
			}
			v = nv;
		}
		v[n++] = pm;
	}
	for (i = 0; i < np; i++)
		free(pids[i]);
	free(pids);
	free(seen.ids);
	if (ret) {
		free(v);
		return ret;
	}
	*out = v;
	return n;
}
