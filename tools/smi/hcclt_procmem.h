/* SPDX-License-Identifier: MIT */
/*
 * hcclt_procmem: device memory per process, from /proc/<pid>/fdinfo.
 */
#ifndef HCCLT_PROCMEM_H
#define HCCLT_PROCMEM_H

#include <stdint.h>

/** struct hcclt_procmem - one process's memory on one device. */
struct hcclt_procmem {
	int pid;
	char comm[32];		/* /proc/<pid>/comm */
	uint64_t total;		/* sum of drm-total-memory of its files */
	uint64_t resident;	/* sum of drm-resident-memory */
	uint32_t files;		/* its files of the device */
};

int hcclt_procmem_scan(const char *node, struct hcclt_procmem **out);

#endif /* HCCLT_PROCMEM_H */
