/* SPDX-License-Identifier: MIT */
/*
 * hcclt_dev: find and open hcclthread devices with raw ioctls only.
 *
 * Shared by hcclthread-smi and hcclt-bench. No libdrm needed: the guest
 * VM has only what we ship.
 */
#ifndef HCCLT_DEV_H
#define HCCLT_DEV_H

#include <limits.h>
#include <stdint.h>

#include "hcclthread_accel.h"

#define HCCLT_DEV_MAX 64

struct hcclt_dev {
	char path[PATH_MAX];
	int fd;
	int ver_major, ver_minor, ver_patch;
	char name[64];
	char date[32];
	char desc[128];
};

/*
 * Fill @paths with the nodes of hcclthread devices, in this order:
 * $HCCLT_DEVICE (alone, if set), /dev/accel/accel*, then /dev/dri/renderD*
 * whose DRM version name is "hcclthread". Returns the count (>= 0).
 */
int hcclt_dev_list(char paths[][PATH_MAX], int max);
/* Nodes the last hcclt_dev_list() could not open (EACCES/EPERM). */
extern int hcclt_dev_denied;
/* First node the last hcclt_dev_list() could not open for another reason
 * than not being an hcclthread device, and the -errno. */
extern int hcclt_dev_fail_err;
extern char hcclt_dev_fail_path[PATH_MAX];

/*
 * Open @path and read its DRM version. Returns 0, -ENODEV when the node is
 * not an hcclthread device, or another -errno from open()/ioctl().
 */
int hcclt_dev_open(const char *path, struct hcclt_dev *d);
void hcclt_dev_close(struct hcclt_dev *d);

/* ioctl() restarted on EINTR/EAGAIN, like drmIoctl(). Returns 0 or -errno. */
int hcclt_ioctl(int fd, unsigned long req, void *arg);

const char *hcclt_engine_name(uint32_t engine);
const char *hcclt_state_name(uint32_t state);

/* Message for "nothing found"; the same in every tool. */
#define HCCLT_NO_DEVICE_MSG \
	"no hcclthread device found: is the module loaded? " \
	"(modprobe drm_shmem_helper && insmod hcclthread.ko)"

#endif
