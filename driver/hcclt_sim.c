// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the simulated NPU backend.
 *
 * Stream and notify slots come from two bitmaps sized by the sim_streams and
 * sim_notifies module parameters, searched next-fit from the last slot
 * handed out (one short bit search and no allocation per slot: acquire
 * takes two slots). Tasks are executed by the software executor of
 * hcclt_sched.c (no submit hook).
 */

#include <linux/bitmap.h>
#include <linux/error-injection.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "hcclt_drv.h"

/**
 * struct hcclt_sim_slots - one kind of slot of the simulated NPU.
 * @lock: protects @map, @used and @next.
 * @map: allocated slots.
 * @total: slots in @map; immutable.
 * @used: allocated slots; @lock.
 * @next: where the next search starts; @lock.
 */
struct hcclt_sim_slots {
	/* protects map, used and next */
	spinlock_t lock;
	unsigned long *map;
	u32 total;
	u32 used;
	u32 next;
};

/**
 * struct hcclt_sim - simulated NPU state.
 * @stream_slots: stream slots.
 * @notify_slots: notify slots.
 */
struct hcclt_sim {
	struct hcclt_sim_slots stream_slots;
	struct hcclt_sim_slots notify_slots;
};

static int hcclt_sim_slots_init(struct hcclt_sim_slots *sl, u32 total)
{
	spin_lock_init(&sl->lock);
	sl->total = total;
	/* Up to 128 KiB (sim_notifies=1048576): vmalloc'd when that large. */
	sl->map = kvcalloc(BITS_TO_LONGS(total), sizeof(long), GFP_KERNEL);
	return sl->map ? 0 : -ENOMEM;
}

static void hcclt_sim_slots_fini(struct hcclt_sim_slots *sl)
{
	WARN_ON(sl->used);
	kvfree(sl->map);
	sl->map = NULL;
}

/* Process context (see struct hcclt_hw_ops): a plain spinlock. */
static int hcclt_sim_slot_alloc(struct hcclt_sim_slots *sl, u32 *slot)
{
	unsigned long bit;

	spin_lock(&sl->lock);
	if (sl->used == sl->total) {
		spin_unlock(&sl->lock);
		return -ENOSPC;
	}
	bit = find_next_zero_bit(sl->map, sl->total, sl->next);
	if (bit >= sl->total)
		bit = find_first_zero_bit(sl->map, sl->total);
	__set_bit(bit, sl->map);
	sl->used++;
	sl->next = bit + 1 < sl->total ? bit + 1 : 0;
	spin_unlock(&sl->lock);
	*slot = bit;
	return 0;
}

static void hcclt_sim_slot_free(struct hcclt_sim_slots *sl, u32 slot)
{
	spin_lock(&sl->lock);
	if (!WARN_ON(slot >= sl->total || !test_bit(slot, sl->map))) {
		__clear_bit(slot, sl->map);
		sl->used--;
	}
	spin_unlock(&sl->lock);
}

static int hcclt_sim_dev_init(struct hcclt_device *hdev)
{
	struct hcclt_sim *sim;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;
	if (hcclt_sim_slots_init(&sim->stream_slots, hcclt_sim_streams) ||
	    hcclt_sim_slots_init(&sim->notify_slots, hcclt_sim_notifies)) {
		kvfree(sim->stream_slots.map);
		kvfree(sim->notify_slots.map);
		kfree(sim);
		return -ENOMEM;
	}
	hdev->hw_priv = sim;
	hdev->streams_total = hcclt_sim_streams;
	hdev->notifies_total = hcclt_sim_notifies;
	return 0;
}

static void hcclt_sim_dev_fini(struct hcclt_device *hdev)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	hcclt_sim_slots_fini(&sim->stream_slots);
	hcclt_sim_slots_fini(&sim->notify_slots);
	kfree(sim);
	hdev->hw_priv = NULL;
}

/*
 * The slot allocators can be made to fail with fail_function
 * (hcclt_failfunc.sh): a backend out of slots although the pool said
 * there was room, which only a hardware backend can really do.
 */
static noinline int hcclt_sim_stream_slot_alloc(struct hcclt_device *hdev,
						u32 *slot)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	return hcclt_sim_slot_alloc(&sim->stream_slots, slot);
}

ALLOW_ERROR_INJECTION(hcclt_sim_stream_slot_alloc, ERRNO);

/* Bookkeeping only: the same whether the device is @present or not. */
static void hcclt_sim_stream_slot_free(struct hcclt_device *hdev, u32 slot,
				       bool present)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	hcclt_sim_slot_free(&sim->stream_slots, slot);
}

static noinline int hcclt_sim_notify_slot_alloc(struct hcclt_device *hdev,
						u32 *slot)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	return hcclt_sim_slot_alloc(&sim->notify_slots, slot);
}

ALLOW_ERROR_INJECTION(hcclt_sim_notify_slot_alloc, ERRNO);

static void hcclt_sim_notify_slot_free(struct hcclt_device *hdev, u32 slot,
				       bool present)
{
	struct hcclt_sim *sim = hdev->hw_priv;

	hcclt_sim_slot_free(&sim->notify_slots, slot);
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
	/* No .submit: the software executor is the simulated scheduler. */
};
