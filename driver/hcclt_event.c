// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: events and ACL notifies (aclrtCreateEvent, aclrtCreateNotify
 * and their calls; uAPI 1.4, HCCLT_FEATURE_EVENTS).
 *
 * Both belong to a file, in an xarray of the file (struct hcclt_file's
 * events and acl_notifies; the xarrays' own locks), looked up by SUBMIT
 * with a reference for the task. An event's state (records queued and
 * done, the time of the latest, the streams parked on it) is the
 * scheduler's, under the device's sched_lock (hcclt_sched.c); an ACL
 * notify is a struct hcclt_notify like a thread's, from the device's
 * notify pool, whose id is its pool slot (aclrtGetNotifyId).
 *
 * Pools: an event holds a unit of the device's event pool
 * (HCCLT_MAX_EVENTS, hdev->pool_lock), charged to its file's account
 * (hcclt_limits.c), from CREATE to DESTROY or close; its memory goes with
 * its last reference (queued tasks hold one).
 */

#include <linux/slab.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <drm/drm_file.h>

#include "hcclt_drv.h"

/* Event ids: 1..HCCLT_EVENT_ID_MAX, handed out cyclically. */
#define HCCLT_EVENT_ID_MAX	0x7fffffffU

void hcclt_event_file_init(struct hcclt_file *file)
{
	xa_init_flags(&file->events, XA_FLAGS_ALLOC1 | XA_FLAGS_ACCOUNT);
	xa_init(&file->acl_notifies);
}

static void hcclt_event_release(struct kref *ref)
{
	kfree(container_of(ref, struct hcclt_event, ref));
}

/* May be called under sched_lock: frees memory only. */
void hcclt_event_put(struct hcclt_event *ev)
{
	kref_put(&ev->ref, hcclt_event_release);
}

/* Give an event's pool unit back, and its charge to @file's account. */
static void hcclt_event_unreserve(struct hcclt_file *file)
{
	struct hcclt_device *hdev = file->hdev;

	hcclt_uncharge(file->acct, HCCLT_RES_EVENTS, 1);
	spin_lock(&hdev->pool_lock);
	if (!WARN_ON(!hdev->events_used))
		hdev->events_used--;
	spin_unlock(&hdev->pool_lock);
}

/**
 * hcclt_event_get - an event of @file by id, with a reference.
 * @file: the file.
 * @id: the id (user input).
 *
 * Return: the event or NULL.
 */
struct hcclt_event *hcclt_event_get(struct hcclt_file *file, u64 id)
{
	struct hcclt_event *ev;

	if (!id || id > HCCLT_EVENT_ID_MAX)
		return NULL;
	xa_lock(&file->events);
	ev = xa_load(&file->events, id);
	if (ev)
		kref_get(&ev->ref);
	xa_unlock(&file->events);
	return ev;
}

/**
 * hcclt_acl_notify_get - an ACL notify of @file by id, with a reference.
 * @file: the file.
 * @id: the id (user input).
 *
 * Return: the notify or NULL.
 */
struct hcclt_notify *hcclt_acl_notify_get(struct hcclt_file *file, u32 id)
{
	struct hcclt_notify *n;

	xa_lock(&file->acl_notifies);
	n = xa_load(&file->acl_notifies, id);
	if (n)
		kref_get(&n->ref);
	xa_unlock(&file->acl_notifies);
	return n;
}

int hcclt_event_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df)
{
	struct drm_hcclt_event_create *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_device *hdev = file->hdev;
	struct hcclt_event *ev;
	u32 id;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	ret = hcclt_charge(file->acct, HCCLT_RES_EVENTS, 1);
	if (ret)
		return ret;
	spin_lock(&hdev->pool_lock);
	ret = hdev->events_used < HCCLT_MAX_EVENTS ? 0 : -ENOSPC;
	if (!ret)
		hdev->events_used++;
	spin_unlock(&hdev->pool_lock);
	if (ret) {
		hcclt_uncharge(file->acct, HCCLT_RES_EVENTS, 1);
		return ret;
	}
	ev = kzalloc(sizeof(*ev), GFP_KERNEL_ACCOUNT);
	if (!ev) {
		hcclt_event_unreserve(file);
		return -ENOMEM;
	}
	kref_init(&ev->ref);
	ev->hdev = hdev;
	INIT_LIST_HEAD(&ev->waiters);
	INIT_LIST_HEAD(&ev->flush_node);
	init_waitqueue_head(&ev->wq);
	ret = xa_alloc_cyclic(&file->events, &id, ev,
			      XA_LIMIT(1, HCCLT_EVENT_ID_MAX),
			      &file->event_next, GFP_KERNEL_ACCOUNT);
	if (ret < 0) {
		kfree(ev);
		hcclt_event_unreserve(file);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	/* Not looked at by anyone before the ioctl returns the id. */
	ev->id = id;
	args->event_id = id;
	return 0;
}

int hcclt_event_destroy_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df)
{
	struct drm_hcclt_event_destroy *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_event *ev;

	if (args->flags || args->pad)
		return -EINVAL;
	if (!args->event_id || args->event_id > HCCLT_EVENT_ID_MAX)
		return -ENOENT;
	ev = xa_erase(&file->events, args->event_id);
	if (!ev)
		return -ENOENT;
	hcclt_event_unreserve(file);
	hcclt_event_put(ev);
	return 0;
}

/*
 * Not guarded by drm_dev_enter() while it sleeps: the event holds no
 * backend state. Interruptible. A record dropped before it ran (its stream
 * cancelled, failed or unplugged) completes the event as failed.
 */
int hcclt_event_wait_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df)
{
	struct drm_hcclt_event_wait *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_event *ev;
	u64 target, ts;
	long left;
	bool done;
	int err;

	if (args->flags || args->pad || args->timeout_ms < -1)
		return -EINVAL;
	ev = hcclt_event_get(file, args->event_id);
	if (!ev)
		return -ENOENT;
	target = hcclt_sched_event_target(ev);
	done = hcclt_sched_event_done(ev, target, &ts, &err);
	if (!done && args->timeout_ms) {
		left = args->timeout_ms < 0 ? MAX_SCHEDULE_TIMEOUT :
		       msecs_to_jiffies(args->timeout_ms);
		left = wait_event_interruptible_timeout(ev->wq,
							hcclt_sched_event_done(ev,
									       target,
									       &ts,
									       &err),
							left);
		if (left == -ERESTARTSYS) {
			hcclt_event_put(ev);
			return -EINTR;
		}
		done = hcclt_sched_event_done(ev, target, &ts, &err);
	}
	if (!done)
		args->status = HCCLT_EVENT_NOT_READY;
	else
		args->status = err ? HCCLT_EVENT_FAILED : HCCLT_EVENT_COMPLETE;
	args->timestamp_ns = ts;
	hcclt_event_put(ev);
	return 0;
}

int hcclt_notify_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df)
{
	struct drm_hcclt_notify_create *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_device *hdev = file->hdev;
	struct hcclt_resv resv = { .acct = file->acct, .notifies = 1 };
	struct hcclt_notify *n;
	int ret;

	args->notify_id = 0;
	if (args->flags)
		return -EINVAL;
	ret = hcclt_pool_reserve(hdev, file->acct, 0, 1);
	if (ret)
		return ret;
	n = hcclt_notify_new(hdev, 0, 0, &resv);
	if (IS_ERR(n)) {
		hcclt_pool_unreserve(hdev, file->acct, 0, 1);
		return PTR_ERR(n);
	}
	n->acl = true;
	/* Its id is its slot: the trace and INFO name it so. */
	n->idx = n->slot;
	ret = xa_insert(&file->acl_notifies, n->slot, n, GFP_KERNEL_ACCOUNT);
	if (ret) {
		hcclt_notify_drop_slot(n);
		hcclt_notify_put(n);
		return ret == -EBUSY ? -EEXIST : ret;
	}
	hcclt_usage_count(file->usage, 0, 0, 1);
	args->notify_id = n->slot;
	return 0;
}

/* Give @n back: parked waits fail, records do nothing, the slot is free. */
static void hcclt_acl_notify_drop(struct hcclt_file *file,
				  struct hcclt_notify *n)
{
	hcclt_sched_notify_kill(n, -ECANCELED);
	hcclt_notify_drop_slot(n);
	hcclt_notify_put(n);
	hcclt_usage_count(file->usage, 0, 0, -1);
}

int hcclt_notify_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df)
{
	struct drm_hcclt_notify_destroy *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_notify *n;

	if (args->flags)
		return -EINVAL;
	n = xa_erase(&file->acl_notifies, args->notify_id);
	if (!n)
		return -ENOENT;
	hcclt_acl_notify_drop(file, n);
	return 0;
}

/**
 * hcclt_event_file_close - destroy every event and ACL notify of @file.
 * @file: the file, being closed (no ioctl of it runs any more).
 */
void hcclt_event_file_close(struct hcclt_file *file)
{
	struct hcclt_notify *n;
	struct hcclt_event *ev;
	unsigned long idx;

	xa_for_each(&file->events, idx, ev) {
		xa_erase(&file->events, idx);
		hcclt_event_unreserve(file);
		hcclt_event_put(ev);
	}
	xa_destroy(&file->events);
	xa_for_each(&file->acl_notifies, idx, n) {
		xa_erase(&file->acl_notifies, idx);
		hcclt_acl_notify_drop(file, n);
	}
	xa_destroy(&file->acl_notifies);
}
