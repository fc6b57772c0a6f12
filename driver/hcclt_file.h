/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the state of one open file (hcclt_drv.c).
 */
#ifndef _HCCLT_FILE_H_
#define _HCCLT_FILE_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/xarray.h>
#include <drm/drm_file.h>

#include "hcclt_ids.h"

struct hcclt_acct;
struct hcclt_device;
struct drm_device;
struct hcclt_usage;
struct pid;

/**
 * struct hcclt_file - per open file state (drm_file.driver_priv).
 * @hdev: the device.
 * @pid: process that opened the file (reference held).
 * @euid: effective uid of the opener (INFO with HCCLT_INFO_SCOPE_USER).
 * @ref: held by the DRM file (until postclose) and by INFO and debugfs
 *	walks between their steps (hcclt_file_next()); the last put frees it.
 * @serial: its place in hdev->files: 1 for the device's first open, one
 *	more for each; immutable. INFO cursors name files by it.
 * @node: entry in hdev->files, protected by hdev->files_lock.
 * @lock: serialises communicator publication (comm->live) and
 *	communicator and stream destruction with the INFO and debugfs walks
 *	over this file and with postclose.
 * @comms: communicator ids.
 * @streams: stream ids (created streams and streams owned by threads).
 * @threads: thread ids (threads and exported views).
 * @usage: fdinfo statistics (hcclt_fdinfo.c); reference held.
 * @ncomms: its live communicators (QUERY without CAP_SYS_ADMIN).
 * @events: events by id (hcclt_event.c; the xarray's lock).
 * @event_next: the next event id to try (xa_alloc_cyclic(), under the
 *	events xarray's lock).
 * @acl_notifies: ACL notifies by id, their pool slot (the xarray's lock).
 * @acct: what the file, its process and its user hold of the device's
 *	pools (hcclt_limits.c); reference held; immutable.
 * @memcg: the memory cgroup of the process that opened it (reference
 *	held; immutable): what is made for the file's communicators by
 *	others (a peer's CHANNEL_BUFFER, a peer host's BUFQ) is charged
 *	there (hcclt_comm_buffer_get()).
 * @groups: the pending groups it created (hcclt_group.c), oldest first;
 *	hcclt_groups_lock.
 * @groups_pending: entries of @groups; hcclt_groups_lock.
 * @fail_stop: every stream of the file is in HCCLT_FAILURE_STOP, those
 *	made later too (DRM_IOCTL_HCCLT_SET_PARAM with handle 0); the
 *	device's sched_lock.
 * @saturate: streams the file makes from now on saturate their float
 *	reduces (HCCLT_PARAM_SATURATION); the device's sched_lock.
 * @df: the DRM file it is the state of; immutable. GEM handles in data
 *	tasks and launch events are this file's.
 * @alias: the file this one acts for (DRM_IOCTL_HCCLT_FILE_ATTACH), with
 *	a reference, or NULL; set once under hcclt_attach_lock and @lock,
 *	read with acquire (hcclt_file_of()); its DRM file is held open (its
 *	filp) as long.
 * @attached: files that act for this one; hcclt_attach_lock. A file
 *	acted for cannot act for another (no chains, no cycles).
 */
struct hcclt_file {
	struct hcclt_device *hdev;
	struct pid *pid;
	kuid_t euid;
	struct kref ref;
	u64 serial;
	struct list_head node;
	/* serialises destruction with the INFO/debugfs walks and postclose */
	struct mutex lock;
	struct hcclt_ids comms;
	struct hcclt_ids streams;
	struct hcclt_ids threads;
	struct hcclt_usage *usage;
	atomic_t ncomms;
	struct xarray events;
	u32 event_next;
	struct xarray acl_notifies;
	struct hcclt_acct *acct;
	struct mem_cgroup *memcg;
	struct list_head groups;
	u32 groups_pending;
	bool fail_stop;
	bool saturate;
	struct drm_file *df;
	struct hcclt_file *alias;
	unsigned int attached;
};

/**
 * hcclt_file_of - the file an ioctl of @df works on: the one it acts for
 * (DRM_IOCTL_HCCLT_FILE_ATTACH), else its own.
 * @df: the calling DRM file.
 *
 * Return: the file state, valid while @df is open.
 */
static inline struct hcclt_file *hcclt_file_of(struct drm_file *df)
{
	struct hcclt_file *own = df->driver_priv;
	/* Pairs with the release in hcclt_file_attach_ioctl(). */
	struct hcclt_file *alias = smp_load_acquire(&own->alias);

	return alias ?: own;
}

/* hcclt_drv.c */
struct hcclt_file *hcclt_file_next(struct hcclt_device *hdev, u64 serial);
void hcclt_file_put(struct hcclt_file *file);
int hcclt_file_attach_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df);

#endif /* _HCCLT_FILE_H_ */
