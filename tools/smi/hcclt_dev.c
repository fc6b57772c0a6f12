// SPDX-License-Identifier: MIT
/* hcclt_dev: find and open hcclthread devices with raw ioctls only. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "hcclt_dev.h"

int hcclt_ioctl(int fd, unsigned long req, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, req, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

int hcclt_dev_open(const char *path, struct hcclt_dev *d)
{
	struct drm_version v;
	int ret;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	snprintf(d->path, sizeof(d->path), "%s", path);
	d->fd = open(path, O_RDWR | O_CLOEXEC);
	if (d->fd < 0)
		return -errno;
	memset(&v, 0, sizeof(v));
	v.name = d->name;
	v.name_len = sizeof(d->name) - 1;
	v.date = d->date;
	v.date_len = sizeof(d->date) - 1;
	v.desc = d->desc;
	v.desc_len = sizeof(d->desc) - 1;
	ret = hcclt_ioctl(d->fd, DRM_IOCTL_VERSION, &v);
	if (ret) {
		hcclt_dev_close(d);
		return ret == -ENOTTY ? -ENODEV : ret;
	}
	/* The kernel does not NUL-terminate; lengths are the full lengths. */
	d->name[v.name_len < sizeof(d->name) ? v.name_len : sizeof(d->name) - 1] = 0;
	d->date[v.date_len < sizeof(d->date) ? v.date_len : sizeof(d->date) - 1] = 0;
	d->desc[v.desc_len < sizeof(d->desc) ? v.desc_len : sizeof(d->desc) - 1] = 0;
	d->ver_major = v.version_major;
	d->ver_minor = v.version_minor;
	d->ver_patch = v.version_patchlevel;
	if (strcmp(d->name, HCCLT_DRIVER_NAME)) {
		hcclt_dev_close(d);
		return -ENODEV;
	}
	return 0;
}

void hcclt_dev_close(struct hcclt_dev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

static int cmp_node(const void *a, const void *b)
{
	const char *x = a, *y = b;
	size_t lx = strlen(x), ly = strlen(y);

	/* accel10 after accel9: shorter names first, then by text. */
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x, y);
}

/* Append nodes of @dir starting with @prefix that are hcclthread devices. */
static int scan_dir(const char *dir, const char *prefix,
		    char paths[][PATH_MAX], int n, int max)
{
	static char found[HCCLT_DEV_MAX][PATH_MAX];
	struct dirent *de;
	int nf = 0, i;
	DIR *dp;

	dp = opendir(dir);
	if (!dp)
		return n;
	while ((de = readdir(dp)) && nf < HCCLT_DEV_MAX) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		snprintf(found[nf++], PATH_MAX, "%s/%.200s", dir, de->d_name);
	}
	closedir(dp);
	qsort(found, nf, PATH_MAX, cmp_node);
	for (i = 0; i < nf && n < max; i++) {
		struct hcclt_dev d;
		int ret = hcclt_dev_open(found[i], &d);

		if (ret == -EACCES || ret == -EPERM)
			hcclt_dev_denied++;
		/* Remember why a node failed, unless it is simply not ours. */
		if (ret && ret != -ENODEV && !hcclt_dev_fail_err) {
			hcclt_dev_fail_err = ret;
			snprintf(hcclt_dev_fail_path, PATH_MAX, "%s", found[i]);
		}
		if (ret)
			continue;
		hcclt_dev_close(&d);
		snprintf(paths[n++], PATH_MAX, "%s", found[i]);
	}
	return n;
}

int hcclt_dev_denied;
int hcclt_dev_fail_err;
char hcclt_dev_fail_path[PATH_MAX];

int hcclt_dev_list(char paths[][PATH_MAX], int max)
{
	const char *env = getenv("HCCLT_DEVICE");
	int n = 0;

	hcclt_dev_denied = 0;
	hcclt_dev_fail_err = 0;
	hcclt_dev_fail_path[0] = 0;
	if (env && *env) {
		/* As libhcclthread reads it: a list split at ':', empties skipped. */
		while (*env && n < max) {
			size_t len = strcspn(env, ":");

			if (len)
				snprintf(paths[n++], PATH_MAX, "%.*s", (int)len, env);
			env += len;
			if (*env == ':')
				env++;
		}
		return n;
	}
	n = scan_dir("/dev/accel", "accel", paths, n, max);
	n = scan_dir("/dev/dri", "renderD", paths, n, max);
	return n;
}

const char *hcclt_engine_name(uint32_t engine)
{
	static const char *const names[] = {
		[HCCLT_ENGINE_CPU] = "CPU",
		[HCCLT_ENGINE_CPU_TS] = "CPU_TS",
		[HCCLT_ENGINE_AICPU] = "AICPU",
		[HCCLT_ENGINE_AICPU_TS] = "AICPU_TS",
		[HCCLT_ENGINE_AIV] = "AIV",
		[HCCLT_ENGINE_CCU] = "CCU",
	};

	return engine < HCCLT_ENGINE_COUNT ? names[engine] : "?";
}

const char *hcclt_state_name(uint32_t state)
{
	switch (state) {
	case HCCLT_STATE_IDLE: return "idle";
	case HCCLT_STATE_RUNNING: return "running";
	case HCCLT_STATE_PARKED: return "parked";
	case HCCLT_STATE_ERROR: return "error";
	}
	return "?";
}
