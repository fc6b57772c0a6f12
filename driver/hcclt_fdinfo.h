/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the fdinfo statistics of a file (hcclt_fdinfo.c).
 */
#ifndef _HCCLT_FDINFO_H_
#define _HCCLT_FDINFO_H_

#include <linux/compiler.h>
#include <linux/types.h>

#include "hcclt_stream.h"

struct drm_file;
struct drm_printer;
struct hcclt_copyq;
struct hcclt_device;
struct hcclt_file;
struct hcclt_usage;

#define HCCLT_USAGE_IDLE	0xff

struct hcclt_usage *hcclt_usage_new(struct hcclt_device *hdev);
struct hcclt_copyq *hcclt_usage_copyq(struct hcclt_usage *u);
void hcclt_usage_put(struct hcclt_usage *u);
void hcclt_usage_count(struct hcclt_usage *u, int threads, int streams,
		       int notifies);
void hcclt_usage_stream_init(struct hcclt_stream *s, struct hcclt_file *file);
void hcclt_usage_stream_fini(struct hcclt_stream *s);
void hcclt_usage_switch(struct hcclt_stream *s, u8 engine);
void hcclt_show_fdinfo(struct drm_printer *p, struct drm_file *df);

/* The executor starts @task of @s (sched_lock held). */
static inline void hcclt_usage_task_start(struct hcclt_stream *s,
					  const struct hcclt_task *task)
{
	if (unlikely(s->busy_engine != task->engine))
		hcclt_usage_switch(s, task->engine);
}

/* A task of @s completed; @s has no task left (sched_lock held). */
static inline void hcclt_usage_stream_idle(struct hcclt_stream *s)
{
	if (s->busy_engine != HCCLT_USAGE_IDLE)
		hcclt_usage_switch(s, HCCLT_USAGE_IDLE);
}

#endif /* _HCCLT_FDINFO_H_ */
