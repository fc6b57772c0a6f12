// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: DRM client usage statistics (/proc/<pid>/fdinfo/<fd>), as
 * Documentation/gpu/drm-usage-stats.rst specifies them.
 *
 * Every open file has one struct hcclt_usage. It outlives the file while a
 * stream of the file exists (each stream holds a reference), so that the
 * executor and a late stream release can account into it without looking
 * at the file.
 *
 * Engines: one drm-engine-<name> key per engine a thread can be acquired
 * on or exported to (cpu, cpu_ts, aicpu, aicpu_ts, ccu; not aiv). Those
 * are the execution units of an NPU that drive a thread's stream, and what
 * a user of HCCL asks for, so they are the classes a top(1)-like tool
 * should show. A task counts for the engine of the thread it was submitted
 * through, or, for a record submitted through a stream id, for the engine
 * of the thread it records into (the two engines are the same whenever
 * both exist: SUBMIT refuses records across engines).
 *
 * Busy time: an engine is busy for a file while at least one stream of the
 * file has a started, not yet completed, task of that engine: from the
 * start of the first task until the stream's queue is empty or its next
 * task is of another engine. A parked wait counts: the stream holds its
 * queue on the engine while it waits for the notify, as a GPU ring does on
 * a semaphore wait. Streams of one file busy at the same time on the same
 * engine count once (a union of intervals, not a sum), so the value never
 * grows faster than the clock and needs no drm-engine-capacity key.
 * Transitions happen under the device's sched_lock, where the clock is read
 * only when an engine of the file goes from idle to busy or back; a reader
 * takes sched_lock for a copy of a few counters.
 */

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "hcclt_compat.h"
#include "hcclt_drv.h"

/**
 * struct hcclt_usage - usage statistics of one open file.
 * @ref: held by the file and by each of its streams.
 * @hdev: the device; its sched_lock protects @active, @since and @busy_ns.
 * @threads: threads of the file's communicators (acquired and wrapping,
 *	not exported views), published and not yet destroyed.
 * @streams: streams holding a pool unit for the file (created ones and
 *	threads' own), from creation until their last reference is gone.
 * @notifies: notifies holding a pool unit for the file.
 * @active: streams of the file busy on each engine; sched_lock.
 * @since: ktime_get_ns() when @active last went from 0 to 1; sched_lock.
 * @busy_ns: busy time of each engine up to the last time its @active went
 *	to 0; sched_lock.
 * @client_id: drm-client-id on kernels without drm_file.client_id.
 * @copyq: the file's queue in the device's copy engine (hcclt_copy.c):
 *	the usage statistics are what every stream of the file holds.
 */
struct hcclt_usage {
	struct kref ref;
	struct hcclt_device *hdev;
	atomic_t threads;
	atomic_t streams;
	atomic_t notifies;
	u32 active[HCCLT_ENGINE_COUNT];
	u64 since[HCCLT_ENGINE_COUNT];
	u64 busy_ns[HCCLT_ENGINE_COUNT];
#ifndef HCCLT_DRM_SHOW_FDINFO
	u64 client_id;
#endif
	struct hcclt_copyq copyq;
};

/* Key names; NULL for an engine without threads (AIV). */
static const char *const hcclt_engine_keys[HCCLT_ENGINE_COUNT] = {
	[HCCLT_ENGINE_CPU] = "cpu",
	[HCCLT_ENGINE_CPU_TS] = "cpu_ts",
	[HCCLT_ENGINE_AICPU] = "aicpu",
	[HCCLT_ENGINE_AICPU_TS] = "aicpu_ts",
	[HCCLT_ENGINE_CCU] = "ccu",
};

/**
 * hcclt_usage_new - statistics of a new file.
 * @hdev: the file's device.
 *
 * Return: the statistics with one reference (the file's), or NULL.
 */
struct hcclt_usage *hcclt_usage_new(struct hcclt_device *hdev)
{
	struct hcclt_usage *u;
#ifndef HCCLT_DRM_SHOW_FDINFO
	/* What drm_file_alloc() does for drm_file.client_id from 6.5 on. */
	static atomic64_t hcclt_client_ids;
#endif

	u = kzalloc(sizeof(*u), GFP_KERNEL_ACCOUNT);
	if (!u)
		return NULL;
	kref_init(&u->ref);
	u->hdev = hdev;
	hcclt_copyq_init(&u->copyq);
#ifndef HCCLT_DRM_SHOW_FDINFO
	u->client_id = atomic64_inc_return(&hcclt_client_ids);
#endif
	return u;
}

/* The copy engine's queue of the file of @u. */
struct hcclt_copyq *hcclt_usage_copyq(struct hcclt_usage *u)
{
	return &u->copyq;
}

static void hcclt_usage_release(struct kref *ref)
{
	struct hcclt_usage *u = container_of(ref, struct hcclt_usage, ref);

	/* Every queued copy holds a stream, which holds @u. */
	WARN_ON(!list_empty(&u->copyq.copies));
	kfree(u);
}

void hcclt_usage_put(struct hcclt_usage *u)
{
	if (u)
		kref_put(&u->ref, hcclt_usage_release);
}

/**
 * hcclt_usage_count - count objects a file gains (positive) or loses.
 * @u: the file's statistics.
 * @threads: threads.
 * @streams: streams.
 * @notifies: notifies.
 */
void hcclt_usage_count(struct hcclt_usage *u, int threads, int streams,
		       int notifies)
{
	if (threads)
		atomic_add(threads, &u->threads);
	if (streams)
		atomic_add(streams, &u->streams);
	if (notifies)
		atomic_add(notifies, &u->notifies);
}

/**
 * hcclt_usage_stream_init - a new stream of @file accounts into its file.
 * @s: the stream, not yet visible to anyone.
 * @file: its file.
 */
void hcclt_usage_stream_init(struct hcclt_stream *s, struct hcclt_file *file)
{
	kref_get(&file->usage->ref);
	s->usage = file->usage;
	s->busy_engine = HCCLT_USAGE_IDLE;
	hcclt_usage_count(s->usage, 0, 1, 0);
}

/**
 * hcclt_usage_stream_fini - the last reference of a stream is gone.
 * @s: the stream; idle (hcclt_sched_stream_fini() flushed it).
 */
void hcclt_usage_stream_fini(struct hcclt_stream *s)
{
	WARN_ON(s->busy_engine != HCCLT_USAGE_IDLE);
	hcclt_usage_count(s->usage, 0, -1, 0);
	hcclt_usage_put(s->usage);
	s->usage = NULL;
}

/**
 * hcclt_usage_switch - a stream becomes busy on another engine, or idle.
 * @s: the stream.
 * @engine: enum drm_hcclt_engine, or HCCLT_USAGE_IDLE.
 *
 * Called through hcclt_usage_task_start() and hcclt_usage_stream_idle()
 * with the device's sched_lock held, only when @s->busy_engine changes.
 */
void hcclt_usage_switch(struct hcclt_stream *s, u8 engine)
{
	struct hcclt_usage *u = s->usage;
	u8 old = s->busy_engine;
	u64 now = 0;

	lockdep_assert_held(&s->hdev->sched_lock);
	s->busy_engine = engine;
	/* The streams of the KUnit tests have no file and no statistics. */
	if (!u)
		return;
	if (old < HCCLT_ENGINE_COUNT && !--u->active[old]) {
		now = ktime_get_ns();
		u->busy_ns[old] += now - u->since[old];
	}
	if (engine < HCCLT_ENGINE_COUNT && !u->active[engine]++)
		u->since[engine] = now ?: ktime_get_ns();
}

/* Print the hcclthread keys of @df (drm_driver.show_fdinfo). */
void hcclt_show_fdinfo(struct drm_printer *p, struct drm_file *df)
{
	struct hcclt_file *file = df->driver_priv;
	struct hcclt_usage *u = file->usage;
	u64 busy[HCCLT_ENGINE_COUNT];
	u64 now;
	int e;

	spin_lock_bh(&u->hdev->sched_lock);
	now = ktime_get_ns();
	for (e = 0; e < HCCLT_ENGINE_COUNT; e++) {
		busy[e] = u->busy_ns[e];
		if (u->active[e])
			busy[e] += now - u->since[e];
	}
	spin_unlock_bh(&u->hdev->sched_lock);

	for (e = 0; e < HCCLT_ENGINE_COUNT; e++)
		if (hcclt_engine_keys[e])
			drm_printf(p, "drm-engine-%s:\t%llu ns\n",
				   hcclt_engine_keys[e], busy[e]);
	hcclt_mem_show_fdinfo(p, df);
	drm_printf(p, "hcclthread-threads:\t%u\n", atomic_read(&u->threads));
	drm_printf(p, "hcclthread-streams:\t%u\n", atomic_read(&u->streams));
	drm_printf(p, "hcclthread-notifies:\t%u\n",
		   atomic_read(&u->notifies));
}

#ifndef HCCLT_DRM_SHOW_FDINFO
/*
 * file_operations.show_fdinfo on kernels without drm_show_fdinfo() (6.1):
 * the keys drm_show_fdinfo() prints (drm-pdev only exists for PCI
 * devices), then the driver's.
 */
void hcclt_fops_show_fdinfo(struct seq_file *m, struct file *f)
{
	struct drm_file *df = f->private_data;
	struct drm_device *drm = df->minor->dev;
	struct drm_printer p = drm_seq_file_printer(m);
	struct hcclt_file *file = df->driver_priv;
	int idx;

	if (!file || !drm_dev_enter(drm, &idx))
		return;
	drm_printf(&p, "drm-driver:\t%s\n", drm->driver->name);
	drm_printf(&p, "drm-client-id:\t%llu\n", file->usage->client_id);
	hcclt_show_fdinfo(&p, df);
	drm_dev_exit(idx);
}
#endif
