// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the device pools of streams and notifies, which every call
 * reserves from up front, all or nothing (struct hcclt_resv).
 */

#include <linux/bug.h>
#include <linux/error-injection.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>

#include "hcclt_drv.h"

/**
 * hcclt_pool_reserve - take @streams and @notifies from the device pools.
 * @hdev: the device.
 * @streams: stream slots wanted.
 * @notifies: notify slots wanted.
 *
 * Both or neither.
 *
 * Return: 0 or -ENOSPC.
 */
int hcclt_pool_reserve(struct hcclt_device *hdev, u32 streams, u32 notifies)
{
	int ret = -ENOSPC;

	spin_lock(&hdev->pool_lock);
	if (streams <= hdev->streams_total - hdev->streams_used &&
	    notifies <= hdev->notifies_total - hdev->notifies_used) {
		hdev->streams_used += streams;
		hdev->notifies_used += notifies;
		ret = 0;
	}
	spin_unlock(&hdev->pool_lock);
	return ret;
}

/* fail_function (hcclt_failfunc.sh): an exhausted pool, -ENOSPC. */
ALLOW_ERROR_INJECTION(hcclt_pool_reserve, ERRNO);

void hcclt_pool_unreserve(struct hcclt_device *hdev, u32 streams, u32 notifies)
{
	spin_lock(&hdev->pool_lock);
	if (WARN_ON(streams > hdev->streams_used ||
		    notifies > hdev->notifies_used)) {
		streams = min(streams, hdev->streams_used);
		notifies = min(notifies, hdev->notifies_used);
	}
	hdev->streams_used -= streams;
	hdev->notifies_used -= notifies;
	spin_unlock(&hdev->pool_lock);
}
