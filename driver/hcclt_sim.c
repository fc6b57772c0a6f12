// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the simulated NPU backend.
 *
 * Stream and notify slots come from two IDAs sized by the sim_streams and
 * sim_notifies module parameters. Tasks are executed by the software
 * executor of hcclt_sched.c (the submit hook declines them).
 */

#include <linux/idr.h>
#include <linux/slab.h>

#include "hcclt_drv.h"

/**
 * struct hcclt_sim - simulated NPU state.
 * @stream_slots: allocated stream slots (IDA has its own lock).
 * @notify_slots: allocated notify slots (IDA has its own lock).
 */
struct hcclt_sim {
	struct ida stream_slots;
	struct ida notify_slots;
};

static int hcclt_sim_dev_init(struct hcclt_device *hdev)
{
	struct hcclt_sim *sim;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	ida_init(&sim->stream_slots);
	ida_init(&sim->notify_slots);
	hdev->hw_priv = sim;
	hdev->streams_total = hcclt_sim_streams;
	hdev->notifies_total = hcclt_sim_notifies;
	return 0;
}

static void hcclt_sim_dev_fini(struct hcclt_device *hdev)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	WARN_ON(!ida_is_empty(&sim->stream_slots));
	WARN_ON(!ida_is_empty(&sim->notify_slots));
	ida_destroy(&sim->stream_slots);
	ida_destroy(&sim->notify_slots);
	kfree(sim);
	hdev->hw_priv = NULL;
}

static int hcclt_sim_slot_alloc(struct ida *ida, u32 total, u32 *slot)
{
	int ret;

	if (!total)
		return -ENOSPC;
	ret = ida_alloc_max(ida, total - 1, GFP_KERNEL);
	if (ret < 0)
		return ret;
	*slot = ret;
	return 0;
}

static int hcclt_sim_stream_slot_alloc(struct hcclt_device *hdev, u32 *slot)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	return hcclt_sim_slot_alloc(&sim->stream_slots, hdev->streams_total,
				    slot);
}

static void hcclt_sim_stream_slot_free(struct hcclt_device *hdev, u32 slot)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	ida_free(&sim->stream_slots, slot);
}

static int hcclt_sim_notify_slot_alloc(struct hcclt_device *hdev, u32 *slot)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	return hcclt_sim_slot_alloc(&sim->notify_slots, hdev->notifies_total,
				    slot);
}

static void hcclt_sim_notify_slot_free(struct hcclt_device *hdev, u32 slot)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	ida_free(&sim->notify_slots, slot);
}

static bool hcclt_sim_submit(struct hcclt_device *hdev,
			     struct hcclt_stream *stream)
{
	/* The software executor is the simulated task scheduler. */
	return false;
}

const struct hcclt_hw_ops hcclt_sim_ops = {
	.name = "simulated",
	.features = HCCLT_FEATURE_SIMULATED,
	.dev_init = hcclt_sim_dev_init,
	.dev_fini = hcclt_sim_dev_fini,
	.stream_slot_alloc = hcclt_sim_stream_slot_alloc,
	.stream_slot_free = hcclt_sim_stream_slot_free,
	.notify_slot_alloc = hcclt_sim_notify_slot_alloc,
	.notify_slot_free = hcclt_sim_notify_slot_free,
	.submit = hcclt_sim_submit,
};
