/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the hardware backend contract.
 *
 * The core (communicators, quota, ids, task queues) never touches hardware;
 * everything device-specific sits behind struct hcclt_hw_ops, which the
 * core calls only through the hcclt_hw_*() wrappers of hcclt_drv.h: each
 * call is inside drm_dev_enter(), or told that the device is gone. The simulated
 * NPU (hcclt_sim.c) is the only backend today. A real backend provides its
 * own ops table and is selected in hcclt_probe(); no communicator, stream or
 * scheduler code changes.
 */
#ifndef _HCCLT_HW_H_
#define _HCCLT_HW_H_

#include <linux/types.h>

struct hcclt_device;
struct hcclt_stream;

/**
 * struct hcclt_hw_ops - what a backend provides.
 * @name: backend name, shown in debugfs.
 * @features: HCCLT_FEATURE_* bits the backend adds to DRM_IOCTL_HCCLT_QUERY
 *	(e.g. HCCLT_FEATURE_SIMULATED).
 * @dev_init: called once in probe before the DRM device is registered.
 *	Sets hdev->streams_total and hdev->notifies_total and may allocate
 *	backend state in hdev->hw_priv. May sleep. Returns 0 or -errno.
 * @dev_fini: called once when the DRM device is released, after every
 *	object of the device is gone and no callback can run any more. May
 *	sleep. The device may have been removed long before (unplug).
 * @stream_slot_alloc: pick a hardware stream slot for a new stream, store
 *	it in *@slot. Process context, may sleep. 0 or -errno (-ENOMEM).
 *	Called inside drm_dev_enter() only: never after unplug.
 * @stream_slot_free: give a stream slot back. Process context; the stream
 *	has no queued task and is not running. Called for every slot, also
 *	after unplug (a file closed after the device was removed): @present
 *	is true inside drm_dev_enter(), and false once the device is gone,
 *	when the backend updates its own bookkeeping only and must not touch
 *	the device (no MMIO, no firmware message).
 * @notify_slot_alloc: as @stream_slot_alloc, for a notify.
 * @notify_slot_free: as @stream_slot_free, for a notify. The notify will
 *	never be recorded or waited on by the hardware again.
 * @submit: tasks were appended to @stream's queue. Called with
 *	hdev->sched_lock held (must not sleep), inside drm_dev_enter() only.
 *	Returns false, or is NULL, to have the software executor of
 *	hcclt_sched.c run them (the simulated NPU leaves it NULL). Returning
 *	true (the backend executes the tasks itself and reports each, in
 *	order, with hcclt_sched_task_done() under sched_lock) is reserved:
 *	hcclt_sched_task_done() completes tasks and fences but does not yet
 *	put the stream in its error state, drop the tasks behind a failed one
 *	or wake synchronize waiters, and enum hcclt_stream_state has no state
 *	for a stream whose tasks the hardware has; a hardware backend must
 *	add that to hcclt_sched.c first (Documentation/backend.rst).
 *
 * Pool accounting (how many stream and notify slots are in use, -ENOSPC)
 * is done by the core before any slot callback is called, against the
 * totals the backend wrote to hdev->streams_total / notifies_total in
 * @dev_init. The slot callbacks therefore only pick which hardware slot
 * backs an object; they are never asked for more slots than the totals.
 */
struct hcclt_hw_ops {
	const char *name;
	u64 features;
	int (*dev_init)(struct hcclt_device *hdev);
	void (*dev_fini)(struct hcclt_device *hdev);
	int (*stream_slot_alloc)(struct hcclt_device *hdev, u32 *slot);
	void (*stream_slot_free)(struct hcclt_device *hdev, u32 slot,
				 bool present);
	int (*notify_slot_alloc)(struct hcclt_device *hdev, u32 *slot);
	void (*notify_slot_free)(struct hcclt_device *hdev, u32 slot,
				 bool present);
	bool (*submit)(struct hcclt_device *hdev, struct hcclt_stream *stream);
};

extern const struct hcclt_hw_ops hcclt_sim_ops;

#endif /* _HCCLT_HW_H_ */
