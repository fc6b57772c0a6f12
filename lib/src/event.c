// SPDX-License-Identifier: MIT
/*
 * ACL events and notifies (aclrtCreateEvent ... aclrtEventElapsedTime,
 * aclrtCreateNotify ... aclrtGetNotifyId, HcommAclrtNotify*OnThread): the
 * kernel's events and ACL notifies of this process's device file
 * (DRM_IOCTL_HCCLT_EVENT_* and _NOTIFY_*, the EVENT and ACL_NOTIFY tasks).
 * An aclrtEvent or aclrtNotify points to a struct like a stream's, reused
 * the same way (objects.c), so that a stale handle is refused.
 */
#include <errno.h>
#include <string.h>

#include "internal.h"
#include "hccl/hcomm_primitives.h"

/* What an aclrtEvent or aclrtNotify points to: the layout of a stream. */
typedef struct hcclt_stream hcclt_aclobj;

static hcclt_aclobj *aclobj_get(void *h, uint32_t magic)
{
	hcclt_aclobj *o = h;

	/* Pairs with the release store that made it. */
	if (!o || atomic_load_explicit(&o->magic, memory_order_acquire) != magic)
		return NULL;
	if (o->gen != hcclt_gen()) {
		hcclt_debug("ACL object %p belongs to the parent process "
			    "(used after fork)", h);
		return NULL;
	}
	return o;
}

/* Make an object of the current device with the ioctl @req's id in *@id. */
static aclError aclobj_new(void **out, uint32_t magic, unsigned long req, void *arg,
			   enum hcclt_op op, uint64_t (*id_of)(const void *arg))
{
	int32_t dev = hcclt_current_device();
	hcclt_aclobj *o;
	int fd, ret;

	if (dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	fd = hcclt_device_open(dev);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd);
	o = hcclt_obj_alloc();
	if (!o)
		return ACL_ERROR_BAD_ALLOC;
	ret = hcclt_ioctl(fd, req, arg);
	if (ret) {
		hcclt_obj_free(o);
		return hcclt_map_errno(op, ret);
	}
	o->gen = hcclt_gen();
	o->dev = dev;
	o->id = id_of(arg);
	atomic_store_explicit(&o->magic, magic, memory_order_release);
	*out = o;
	return ACL_SUCCESS;
}

static uint64_t event_id_of(const void *arg)
{
	return ((const struct drm_hcclt_event_create *)arg)->event_id;
}

static uint64_t notify_id_of(const void *arg)
{
	return ((const struct drm_hcclt_notify_create *)arg)->notify_id;
}

HCCLT_EXPORT aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)
{
	struct drm_hcclt_event_create c;

	if (!event || (flag & ~(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE |
				ACL_EVENT_CAPTURE_STREAM_PROGRESS)))
		return ACL_ERROR_INVALID_PARAM;
	memset(&c, 0, sizeof(c));
	return aclobj_new(event, HCCLT_EVENT_MAGIC, DRM_IOCTL_HCCLT_EVENT_CREATE, &c,
			  HCCLT_OP_EVENT_CREATE, event_id_of);
}

HCCLT_EXPORT aclError aclrtCreateEvent(aclrtEvent *event)
{
	return aclrtCreateEventWithFlag(event, ACL_EVENT_SYNC);
}

HCCLT_EXPORT aclError aclrtDestroyEvent(aclrtEvent event)
{
	struct drm_hcclt_event_destroy d;
	hcclt_aclobj *o;
	int fd, ret;

	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	o = aclobj_get(event, HCCLT_EVENT_MAGIC);
	/* Of two destroys of one handle, only one goes on. */
	if (!o || !hcclt_obj_claim(&o->magic, HCCLT_EVENT_MAGIC))
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(o->dev);
	memset(&d, 0, sizeof(d));
	d.event_id = o->id;
	ret = fd < 0 ? -ENOENT : hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_DESTROY, &d);
	hcclt_obj_free(o);
	return hcclt_map_errno(HCCLT_OP_EVENT, ret);
}

/* Queue one task @t on @stream, which must be of @o's device. */
static aclError stream_task(hcclt_aclobj *o, aclrtStream stream, struct drm_hcclt_task *t)
{
	struct hcclt_stream *s = hcclt_stream_get(stream);
	int fd;

	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (s->dev != o->dev)
		return ACL_ERROR_INVALID_PARAM;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	return hcclt_map_errno(HCCLT_OP_EVENT, hcclt_submit_one(fd, s->dev, s->id, t));
}

static aclError event_task(aclrtEvent event, aclrtStream stream, uint32_t op)
{
	struct drm_hcclt_task t;
	hcclt_aclobj *o;

	if (!event || !stream)
		return ACL_ERROR_INVALID_PARAM;
	o = aclobj_get(event, HCCLT_EVENT_MAGIC);
	if (!o)
		return ACL_ERROR_RT_INVALID_HANDLE;
	memset(&t, 0, sizeof(t));
	t.op = op;
	t.dst_thread = o->id;
	return stream_task(o, stream, &t);
}

HCCLT_EXPORT aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)
{
	return event_task(event, stream, HCCLT_TASK_EVENT_RECORD);
}

HCCLT_EXPORT aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)
{
	return event_task(event, stream, HCCLT_TASK_EVENT_WAIT);
}

HCCLT_EXPORT aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)
{
	struct drm_hcclt_task t;
	struct hcclt_stream *s;
	hcclt_aclobj *o;
	int fd;

	if (!event || !stream)
		return ACL_ERROR_INVALID_PARAM;
	o = aclobj_get(event, HCCLT_EVENT_MAGIC);
	if (!o)
		return ACL_ERROR_RT_INVALID_HANDLE;
	s = hcclt_stream_get(stream);
	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (s->dev != o->dev)
		return ACL_ERROR_INVALID_PARAM;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	memset(&t, 0, sizeof(t));
	t.op = HCCLT_TASK_EVENT_RESET;
	t.dst_thread = o->id;
	return hcclt_map_errno(HCCLT_OP_EVENT_RESET, hcclt_submit_one(fd, s->dev, s->id, &t));
}

/* EVENT_WAIT on @event for up to @timeout_ms: its status and time. */
static aclError event_wait(aclrtEvent event, int32_t timeout_ms, uint32_t *status,
			   uint64_t *ts)
{
	struct drm_hcclt_event_wait w;
	hcclt_aclobj *o;
	int fd, ret;

	if (!event)
		return ACL_ERROR_INVALID_PARAM;
	o = aclobj_get(event, HCCLT_EVENT_MAGIC);
	if (!o)
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(o->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	memset(&w, 0, sizeof(w));
	w.event_id = o->id;
	w.timeout_ms = timeout_ms;
	do {
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_WAIT, &w);
	} while (ret == -EINTR && timeout_ms < 0);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_EVENT, ret);
	*status = w.status;
	*ts = w.timestamp_ns;
	/* Its latest record was dropped: its stream failed or went away. */
	return w.status == HCCLT_EVENT_FAILED ? ACL_ERROR_RT_STREAM_ABORT : ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	uint32_t status;
	uint64_t ts;

	return event_wait(event, -1, &status, &ts);
}

HCCLT_EXPORT aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	uint32_t st;
	uint64_t ts;
	aclError ret;

	if (!status)
		return ACL_ERROR_INVALID_PARAM;
	ret = event_wait(event, 0, &st, &ts);
	if (ret == ACL_SUCCESS)
		*status = st == HCCLT_EVENT_COMPLETE ? ACL_EVENT_RECORDED_STATUS_COMPLETE :
						       ACL_EVENT_RECORDED_STATUS_NOT_READY;
	return ret;
}

HCCLT_EXPORT aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent,
					    aclrtEvent endEvent)
{
	uint32_t s0, s1;
	uint64_t t0, t1;
	aclError ret;

	if (!ms || !startEvent || !endEvent)
		return ACL_ERROR_INVALID_PARAM;
	ret = event_wait(startEvent, 0, &s0, &t0);
	if (ret == ACL_SUCCESS)
		ret = event_wait(endEvent, 0, &s1, &t1);
	if (ret != ACL_SUCCESS)
		return ret;
	if (s0 != HCCLT_EVENT_COMPLETE || s1 != HCCLT_EVENT_COMPLETE)
		return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
	if (!t0 || !t1)
		return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
	*ms = (float)((double)((int64_t)(t1 - t0)) / 1e6);
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp)
{
	uint64_t t;
	uint32_t st;
	aclError ret;

	/* ACL's order (event.cpp:217-218): the output first. */
	if (!timestamp || !event)
		return ACL_ERROR_INVALID_PARAM;
	ret = event_wait(event, 0, &st, &t);
	if (ret != ACL_SUCCESS)
		return ret;
	if (st != HCCLT_EVENT_COMPLETE)
		return ACL_ERROR_RT_EVENT_NOT_COMPLETE;
	if (!t)
		return ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID;
	*timestamp = t / 1000;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtCreateNotify(aclrtNotify *notify, uint64_t flag)
{
	struct drm_hcclt_notify_create c;

	if (!notify || (flag & ~(uint64_t)ACL_NOTIFY_DEVICE_USE_ONLY))
		return ACL_ERROR_INVALID_PARAM;
	memset(&c, 0, sizeof(c));
	return aclobj_new(notify, HCCLT_NOTIFY_MAGIC, DRM_IOCTL_HCCLT_NOTIFY_CREATE, &c,
			  HCCLT_OP_NOTIFY_CREATE, notify_id_of);
}

HCCLT_EXPORT aclError aclrtDestroyNotify(aclrtNotify notify)
{
	struct drm_hcclt_notify_destroy d;
	hcclt_aclobj *o;
	int fd, ret;

	if (!notify)
		return ACL_ERROR_INVALID_PARAM;
	o = aclobj_get(notify, HCCLT_NOTIFY_MAGIC);
	if (!o || !hcclt_obj_claim(&o->magic, HCCLT_NOTIFY_MAGIC))
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(o->dev);
	memset(&d, 0, sizeof(d));
	d.notify_id = (uint32_t)o->id;
	ret = fd < 0 ? -ENOENT : hcclt_ioctl(fd, DRM_IOCTL_HCCLT_NOTIFY_DESTROY, &d);
	hcclt_obj_free(o);
	return hcclt_map_errno(HCCLT_OP_EVENT, ret);
}

static aclError notify_task(aclrtNotify notify, aclrtStream stream, uint32_t op,
			    uint32_t timeout_s)
{
	struct drm_hcclt_task t;
	hcclt_aclobj *o;

	if (!notify || !stream)
		return ACL_ERROR_INVALID_PARAM;
	o = aclobj_get(notify, HCCLT_NOTIFY_MAGIC);
	if (!o)
		return ACL_ERROR_RT_INVALID_HANDLE;
	memset(&t, 0, sizeof(t));
	t.op = op;
	t.notify_idx = (uint32_t)o->id;
	t.timeout_s = timeout_s;
	return stream_task(o, stream, &t);
}

HCCLT_EXPORT aclError aclrtRecordNotify(aclrtNotify notify, aclrtStream stream)
{
	return notify_task(notify, stream, HCCLT_TASK_ACL_NOTIFY_RECORD, 0);
}

HCCLT_EXPORT aclError aclrtWaitAndResetNotify(aclrtNotify notify, aclrtStream stream,
					      uint32_t timeout)
{
	/* Milliseconds, rounded up to the kernel's seconds. */
	return notify_task(notify, stream, HCCLT_TASK_ACL_NOTIFY_WAIT,
			   timeout / 1000 + !!(timeout % 1000));
}

HCCLT_EXPORT aclError aclrtGetNotifyId(aclrtNotify notify, uint32_t *notifyId)
{
	hcclt_aclobj *o;

	if (!notify || !notifyId)
		return ACL_ERROR_INVALID_PARAM;
	o = aclobj_get(notify, HCCLT_NOTIFY_MAGIC);
	if (!o)
		return ACL_ERROR_RT_INVALID_HANDLE;
	*notifyId = (uint32_t)o->id;
	return ACL_SUCCESS;
}

/* An ACL notify task on @thread's stream: the kernel checks the id. */
static int32_t acl_notify_on_thread(ThreadHandle thread, uint64_t id, uint32_t op,
				    uint32_t timeout_s)
{
	struct drm_hcclt_task t;
	uint64_t tid;
	int dev, fd;

	if (!thread || hcclt_handle_parse(thread, &dev, &tid))
		return HCCL_E_PTR;
	if (id > UINT32_MAX)
		return HCCL_E_PARA;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&t, 0, sizeof(t));
	t.op = op;
	t.notify_idx = (uint32_t)id;
	t.timeout_s = timeout_s;
	return hcclt_map_errno(HCCLT_OP_ACL_NOTIFY_TASK, hcclt_submit_one(fd, dev, tid, &t));
}

HCCLT_EXPORT int32_t HcommAclrtNotifyRecordOnThread(ThreadHandle thread, uint64_t dstNotifyId)
{
	return acl_notify_on_thread(thread, dstNotifyId, HCCLT_TASK_ACL_NOTIFY_RECORD, 0);
}

HCCLT_EXPORT int32_t HcommAclrtNotifyWaitOnThread(ThreadHandle thread, uint64_t notifyId,
						  uint32_t timeOut)
{
	return acl_notify_on_thread(thread, notifyId, HCCLT_TASK_ACL_NOTIFY_WAIT, timeOut);
}
