// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: cross-device records applied on the notify's own device.
 * The executor of device A hands a record of device B's notify over with
 * hcclt_xrecord() (hcclt_sched.c, whose header has the lock order); B's
 * xrec_work, or the context that ran A's runlist (hcclt_xrec_kick()),
 * sets it here under B's sched_lock.
 */

#include <linux/bitops.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <drm/drm_drv.h>

#include "hcclt_sched.h"
#include "hcclt_trace.h"

/*
 * Set the notifies of @hdev other devices recorded into, and run what they
 * release within @budget. @direct: the records this makes in turn go to
 * @hdev->xkick for the caller's hcclt_xrec_kick(). No sched_lock held.
 */
static void hcclt_xrec_apply(struct hcclt_device *hdev, int budget,
			     bool direct)
{
	struct hcclt_notify *n, *tmp;
	LIST_HEAD(list);
	u32 count;

	spin_lock_bh(&hdev->sched_lock);
	spin_lock(&hdev->xrec_lock);
	list_splice_init(&hdev->xrecs, &list);
	spin_unlock(&hdev->xrec_lock);
	list_for_each_entry_safe(n, tmp, &list, xnode) {
		/* From here on a new record queues it again. */
		spin_lock(&hdev->xrec_lock);
		list_del_init(&n->xnode);
		count = n->xcount;
		n->xcount = 0;
		spin_unlock(&hdev->xrec_lock);
		/*
		 * Back to back, two records are all that count: the first
		 * may be consumed by a parked wait, the second sets the flag,
		 * any more find it set.
		 */
		trace_hcclt_channel_record(hdev->index, n->owner_id, n->idx,
					   n->rank, n->peer, count);
		hcclt_notify_record(hdev, n);
		if (count > 1)
			hcclt_notify_record(hdev, n);
		/* The hand-off's reference. */
		hcclt_notify_put(n);
	}
	hdev->xdirect = direct;
	hcclt_run_kick_locked(hdev, budget);
	hdev->xdirect = false;
	spin_unlock_bh(&hdev->sched_lock);
}

/**
 * hcclt_xrec_remote - records into @n came from another host.
 * @n: a channel notify of this host.
 * @count: records (two back to back are all that count).
 *
 * Handed over as a record of another device is (hcclt_xrecord()), to
 * @n's device's xrec_work. Process context, no sched_lock held; the
 * caller holds a reference on @n.
 */
void hcclt_xrec_remote(struct hcclt_notify *n, u32 count)
{
	struct hcclt_device *b = n->hdev;

	spin_lock_bh(&b->xrec_lock);
	if (!b->xrec_stopped && count) {
		if (!n->xcount) {
			kref_get(&n->ref);
			list_add_tail(&n->xnode, &b->xrecs);
			queue_work(b->wq, &b->xrec_work);
		}
		n->xcount += count;
	}
	spin_unlock_bh(&b->xrec_lock);
}

void hcclt_xrec_work(struct work_struct *work)
{
	hcclt_xrec_apply(container_of(work, struct hcclt_device, xrec_work),
			 HCCLT_WORK_BUDGET, false);
}

/* Hand-offs a direct context follows itself before it queues the rest. */
#define HCCLT_XREC_HOPS		4

/*
 * Apply the hand-offs a direct run of @a made (and those the application
 * makes in turn, HCCLT_XREC_HOPS deep; the rest go to the devices'
 * workers). Process context, no sched_lock held, inside drm_dev_enter()
 * of @a: each other device is entered too, so that its unplug (which
 * drains its hand-offs) waits for this.
 */
void hcclt_xrec_kick(struct hcclt_device *a)
{
	struct hcclt_device *devs[HCCLT_MAX_DEVICES], *b;
	unsigned long pending = 0, more;
	int hops = 0, i, idx;

	/* Fully ordered: a bit seen here has its xkick_dev[] entry set. */
	more = xchg(&a->xkick, 0);
	for_each_set_bit(i, &more, HCCLT_MAX_DEVICES)
		devs[i] = READ_ONCE(a->xkick_dev[i]);
	pending = more;
	while (pending) {
		i = __ffs(pending);
		pending &= ~BIT(i);
		b = devs[i];
		/* @a is entered already: a record back to it needs no more. */
		if (b != a && !drm_dev_enter(&b->drm, &idx))
			continue;	/* unplugged: it drains them */
		if (hops++ < HCCLT_XREC_HOPS) {
			hcclt_xrec_apply(b, HCCLT_INLINE_BUDGET, true);
			more = xchg(&b->xkick, 0);
			for_each_set_bit(i, &more, HCCLT_MAX_DEVICES)
				devs[i] = READ_ONCE(b->xkick_dev[i]);
			pending |= more;
		} else {
			queue_work(b->wq, &b->xrec_work);
		}
		if (b != a)
			drm_dev_exit(idx);
	}
}
