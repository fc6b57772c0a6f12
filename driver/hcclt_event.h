/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: events and ACL notifies (hcclt_event.c).
 */
#ifndef _HCCLT_EVENT_H_
#define _HCCLT_EVENT_H_

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>
#include <linux/wait.h>

struct drm_device;
struct drm_file;
struct hcclt_device;
struct hcclt_file;
struct hcclt_notify;

/**
 * struct hcclt_event - an event (aclrtCreateEvent; hcclt_event.c).
 * @ref: held by the file's table and by every queued task naming it.
 * @hdev: the device.
 * @id: its id in its file; immutable.
 * @recorded: record tasks of it queued so far (each task's ev_seq);
 *	sched_lock.
 * @done: the highest ev_seq of a record that ran or was dropped;
 *	sched_lock.
 * @ts_ns: CLOCK_MONOTONIC time the last record that ran did; sched_lock.
 * @err: 0 if the record of @done ran, else the error its stream was
 *	flushed with (it was dropped; hcclt_event_complete()); sched_lock.
 * @waiters: streams parked on it (their park_node); sched_lock.
 * @flush_node: entry in the list of events a stream flush completed,
 *	whose waiters it releases once, at its end (hcclt_stream_flush());
 *	empty otherwise; sched_lock.
 * @wq: DRM_IOCTL_HCCLT_EVENT_WAIT callers.
 */
struct hcclt_event {
	struct kref ref;
	struct hcclt_device *hdev;
	u64 id;
	u64 recorded;
	u64 done;
	u64 ts_ns;
	int err;
	struct list_head waiters;
	struct list_head flush_node;
	wait_queue_head_t wq;
};

/* hcclt_event.c */
void hcclt_event_file_init(struct hcclt_file *file);
void hcclt_event_file_close(struct hcclt_file *file);
struct hcclt_event *hcclt_event_get(struct hcclt_file *file, u64 id);
void hcclt_event_put(struct hcclt_event *ev);
struct hcclt_notify *hcclt_acl_notify_get(struct hcclt_file *file, u32 id);
int hcclt_event_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df);
int hcclt_event_destroy_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df);
int hcclt_event_wait_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df);
int hcclt_notify_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df);
int hcclt_notify_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df);

/* hcclt_sched.c: an event's state */
u64 hcclt_sched_event_target(struct hcclt_event *ev);
bool hcclt_sched_event_done(struct hcclt_event *ev, u64 target, u64 *ts,
			    int *err);

#endif /* _HCCLT_EVENT_H_ */
