// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: streams (aclrtCreateStream / aclrtDestroyStream) and stream
 * ids.
 *
 * A stream is either created by DRM_IOCTL_HCCLT_STREAM_CREATE (owned by the
 * file's id table, may be wrapped by threads of communicators) or owned by
 * the thread that acquired it. Both kinds have an id so that STREAM_SYNC and
 * INFO can name them: a created stream's is its entry in file->streams, a
 * thread's own stream's is derived from the thread's id (HCCLT_ID_OWNED)
 * and found through the thread. Only created streams can be destroyed or
 * wrapped by id. The pool slot is returned when the last reference goes.
 */

#include <linux/delay.h>
#include <linux/dma-fence.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "hcclt_drv.h"

#ifdef HCCLT_TEST_HOOKS
/*
 * Test hook (debug builds only), for selftests' hcclt_lookup_race. When
 * lookup_delay_ms is set, the next stream lookup by a created stream's id
 * clears it and steps through lookup_stage with the test: after its xarray
 * load it sets the stage to 1 and waits (busy, in the RCU read section)
 * for the test to set 2; after its reference and RCU unlock it sets 3 and
 * waits (sleeping) for 4; then it sets 0 and goes on. Each wait gives up
 * after lookup_delay_ms.
 */
static unsigned int hcclt_lookup_delay_ms;
module_param_named(lookup_delay_ms, hcclt_lookup_delay_ms, uint, 0644);
MODULE_PARM_DESC(lookup_delay_ms,
		 "test hook: hold the next stream lookup up to this many ms (debug)");
static unsigned int hcclt_lookup_stage;
module_param_named(lookup_stage, hcclt_lookup_stage, uint, 0644);
MODULE_PARM_DESC(lookup_stage, "test hook: where the held lookup is (debug)");

static unsigned int hcclt_lookup_delay_take(void)
{
	return xchg(&hcclt_lookup_delay_ms, 0);
}

/* Set the stage to @at, wait up to @ms for the test to set @at + 1. */
static void hcclt_lookup_delay(unsigned int ms, unsigned int at, bool atomic)
{
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	if (!ms)
		return;
	WRITE_ONCE(hcclt_lookup_stage, at);
	while (time_before(jiffies, end) &&
	       READ_ONCE(hcclt_lookup_stage) == at) {
		if (atomic)
			mdelay(1);
		else
			usleep_range(1000, 2000);
	}
	if (at == 3)
		WRITE_ONCE(hcclt_lookup_stage, 0);
}
#else
static inline unsigned int hcclt_lookup_delay_take(void)
{
	return 0;
}

static inline void hcclt_lookup_delay(unsigned int ms, unsigned int at,
				      bool atomic) {}
#endif

/*
 * A stream holds a reference on its DRM device, so that its release, which
 * gives its slot and pool unit back to the device, never runs on a freed
 * device, whoever drops the last reference and when.
 */
void hcclt_stream_release(struct kref *ref)
{
	struct hcclt_stream *stream = container_of(ref, struct hcclt_stream,
						   ref);
	struct hcclt_device *hdev = stream->hdev;

	hcclt_sched_stream_fini(stream);
	hcclt_usage_stream_fini(stream);
	hcclt_hw_stream_slot_free(hdev, stream->slot);
	hcclt_pool_unreserve(hdev, stream->acct, 1, 0);
	hcclt_acct_put(stream->acct);
	hcclt_obj_free(HCCLT_OBJ_STREAM, stream);
	drm_dev_put(&hdev->drm);
}

/**
 * hcclt_stream_new - make a stream from a reserved pool unit.
 * @file: the file.
 * @owner: id of the thread that will own it, 0 for STREAM_CREATE.
 * @resv: the caller's reservation; the stream takes one stream unit.
 *
 * A created stream is in file->streams but not yet live
 * (hcclt_obj_publish()); to undo, the caller removes the id and puts the
 * stream, which gives the unit back to the pool. A thread's stream has no
 * entry: its id is derived from @owner and lookups go through the thread.
 *
 * Return: the stream with one reference, or an ERR_PTR (@resv unchanged).
 */
struct hcclt_stream *hcclt_stream_new(struct hcclt_file *file, u64 owner,
				      struct hcclt_resv *resv)
{
	struct hcclt_device *hdev = file->hdev;
	struct hcclt_stream *stream;
	int ret;

	if (WARN_ON(!resv->streams))
		return ERR_PTR(-ENOSPC);
	stream = hcclt_obj_alloc(HCCLT_OBJ_STREAM);
	if (!stream)
		return ERR_PTR(-ENOMEM);
	stream->hdev = hdev;
	stream->file = file;
	stream->created = !owner;
	ret = hcclt_hw_stream_slot_alloc(hdev, &stream->slot);
	if (ret)
		goto err_free;
	if (owner)
		stream->id = hcclt_owned_stream_id(owner);
	else
		ret = hcclt_id_reserve(&file->streams, HCCLT_ID_KIND_STREAM,
				       stream, &stream->id);
	if (ret)
		goto err_slot;
	stream->fence_ctx = dma_fence_context_alloc(1);
	hcclt_usage_stream_init(stream, file);
	hcclt_sched_stream_init(stream);
	drm_dev_get(&hdev->drm);
	kref_init(&stream->ref);
	stream->acct = hcclt_acct_get(resv->acct);
	resv->streams--;
	return stream;

err_slot:
	hcclt_hw_stream_slot_free(hdev, stream->slot);
err_free:
	hcclt_obj_free_now(HCCLT_OBJ_STREAM, stream);
	return ERR_PTR(ret);
}

/* The stream owned by a thread, by its id (a thread of this file). */
static struct hcclt_stream *hcclt_owned_stream_lookup(struct hcclt_file *file,
						      u64 id)
{
	struct hcclt_stream *stream = NULL;
	struct hcclt_thread *thread;

	if (hcclt_id_kind(id) != HCCLT_ID_KIND_STREAM || (id >> 56))
		return NULL;
	/* The thread's id, but for the kind and the top sequence bit. */
	thread = hcclt_thread_lookup_owner(file, id);
	if (!thread)
		return NULL;
	if (thread->stream->id == id) {
		stream = thread->stream;
		kref_get(&stream->ref);
	}
	hcclt_thread_put(thread);
	return stream;
}

/**
 * hcclt_stream_lookup - find a stream (created or thread-owned) by id.
 * @file: the file.
 * @id: stream id.
 *
 * Return: the stream with a reference held, or NULL.
 */
struct hcclt_stream *hcclt_stream_lookup(struct hcclt_file *file, u64 id)
{
	struct hcclt_stream *stream;
	unsigned int delay;

	if (id & HCCLT_ID_OWNED)
		return hcclt_owned_stream_lookup(file, id);

	rcu_read_lock();
	stream = hcclt_id_peek(&file->streams, HCCLT_ID_KIND_STREAM, id);
	delay = hcclt_lookup_delay_take();
	hcclt_lookup_delay(delay, 1, true);
	if (stream && (!hcclt_obj_is(&stream->live, &stream->id, id, ~0ULL) ||
		       !kref_get_unless_zero(&stream->ref)))
		stream = NULL;
	rcu_read_unlock();
	hcclt_lookup_delay(delay, 3, false);
	return stream;
}

/**
 * hcclt_stream_by_handle - the stream of a stream id or of a thread id.
 * @file: the file.
 * @handle: stream id or thread id (views included).
 *
 * Return: the stream with a reference held, or NULL.
 */
struct hcclt_stream *hcclt_stream_by_handle(struct hcclt_file *file,
					    u64 handle)
{
	struct hcclt_stream *stream;
	struct hcclt_thread *thread;

	if (hcclt_id_kind(handle) == HCCLT_ID_KIND_STREAM)
		return hcclt_stream_lookup(file, handle);

	thread = hcclt_thread_lookup(file, handle);
	if (!thread)
		return NULL;
	stream = thread->stream;
	kref_get(&stream->ref);
	hcclt_thread_put(thread);
	return stream;
}

int hcclt_stream_create_ioctl(struct drm_device *drm, void *data,
			      struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_stream_create *args = data;
	struct hcclt_resv resv = { .acct = file->acct, .streams = 1 };
	struct hcclt_stream *stream;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;

	ret = hcclt_pool_reserve(file->hdev, file->acct, 1, 0);
	if (ret)
		return ret;
	stream = hcclt_stream_new(file, 0, &resv);
	if (IS_ERR(stream)) {
		hcclt_pool_unreserve(file->hdev, file->acct, resv.streams, 0);
		return PTR_ERR(stream);
	}

	args->stream_id = stream->id;
	hcclt_obj_publish(&stream->live);
	return 0;
}

/*
 * DRM_IOCTL_HCCLT_SET_PARAM (uAPI 1.8): a stream's failure mode, or its
 * file's stream parameters (struct drm_hcclt_set_param).
 */
int hcclt_set_param_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_set_param *args = data;
	struct hcclt_stream *stream;
	int ret;

	if (args->flags)
		return -EINVAL;
	switch (args->param) {
	case HCCLT_PARAM_SATURATION:
		if (args->handle || args->value > HCCLT_SATURATION_ON)
			return -EINVAL;
		hcclt_sched_file_params(file, false, (int)args->value);
		return 0;
	case HCCLT_PARAM_FAILURE_MODE:
		if (args->value > HCCLT_FAILURE_STOP)
			return -EINVAL;
		if (!args->handle) {
			if (args->value != HCCLT_FAILURE_STOP)
				return -EINVAL;
			hcclt_sched_file_params(file, true, -1);
			return 0;
		}
		stream = hcclt_stream_by_handle(file, args->handle);
		if (!stream)
			return -ENOENT;
		ret = hcclt_sched_set_fail_mode(stream, (u8)args->value);
		hcclt_stream_put(stream);
		return ret;
	default:
		return -EINVAL;
	}
}

/*
 * Take a created stream out of the id table; only one caller wins. Return
 * the table's reference, or NULL.
 */
static struct hcclt_stream *hcclt_stream_unpublish(struct hcclt_file *file,
						   u64 id)
{
	struct hcclt_stream *stream;
	void *old = NULL;

	stream = hcclt_stream_lookup(file, id);
	if (!stream)
		return NULL;
	if (stream->created)
		old = xa_cmpxchg(&file->streams.xa, hcclt_id_index(id), stream,
				 NULL, 0);
	hcclt_stream_put(stream);
	return old == stream ? stream : NULL;
}

int hcclt_stream_destroy_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_stream_destroy *args = data;
	struct hcclt_stream *stream;

	if (args->flags || args->pad)
		return -EINVAL;

	/* file->lock: the INFO and debugfs walks see the table stable. */
	mutex_lock(&file->lock);
	stream = hcclt_stream_unpublish(file, args->stream_id);
	if (stream) {
		hcclt_sched_stream_cancel(stream, false);
		hcclt_stream_put(stream);
	}
	mutex_unlock(&file->lock);
	return stream ? 0 : -ENOENT;
}

/*
 * postclose, after the communicators are gone: only created streams are
 * left in the table.
 */
void hcclt_file_destroy_streams(struct hcclt_file *file)
{
	struct hcclt_stream *stream;
	unsigned long idx;

	mutex_lock(&file->lock);
	xa_for_each(&file->streams.xa, idx, stream) {
		xa_erase(&file->streams.xa, idx);
		hcclt_sched_stream_cancel(stream, true);
		hcclt_stream_put(stream);
	}
	mutex_unlock(&file->lock);
}
