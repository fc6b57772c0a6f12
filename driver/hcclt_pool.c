// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the device pools of streams and notifies, which every call
 * reserves from up front, all or nothing (struct hcclt_resv), within the
 * shares of the calling file, process and user (hcclt_limits.c).
 */

#include <linux/bug.h>
#include <linux/error-injection.h>
#include <linux/minmax.h>
#include <linux/spinlock.h>

#include "hcclt_drv.h"

/**
 * hcclt_pool_reserve - take @streams and @notifies from the device pools.
 * @hdev: the device.
 * @acct: the account of the file they are for (hcclt_limits.c).
 * @streams: stream slots wanted.
 * @notifies: notify slots wanted.
 *
 * Both or neither: charged to @acct within its shares, then taken from
 * the pools.
 *
 * Return: 0, -EDQUOT (a share of @acct) or -ENOSPC (a pool).
 */
int hcclt_pool_reserve(struct hcclt_device *hdev, struct hcclt_acct *acct,
		       u32 streams, u32 notifies)
{
	int ret;

	ret = hcclt_charge(acct, HCCLT_RES_STREAMS, streams);
	if (ret)
		return ret;
	ret = hcclt_charge(acct, HCCLT_RES_NOTIFIES, notifies);
	if (ret) {
		hcclt_uncharge(acct, HCCLT_RES_STREAMS, streams);
		return ret;
	}

	ret = -ENOSPC;
	spin_lock(&hdev->pool_lock);
	if (streams <= hdev->streams_total - hdev->streams_used &&
	    notifies <= hdev->notifies_total - hdev->notifies_used) {
		hdev->streams_used += streams;
		hdev->notifies_used += notifies;
		ret = 0;
	}
	spin_unlock(&hdev->pool_lock);
	if (ret) {
		hcclt_uncharge(acct, HCCLT_RES_STREAMS, streams);
		hcclt_uncharge(acct, HCCLT_RES_NOTIFIES, notifies);
	}
	return ret;
}

/* fail_function (hcclt_failfunc.sh): an exhausted pool, -ENOSPC. */
ALLOW_ERROR_INJECTION(hcclt_pool_reserve, ERRNO);

/* Give back what hcclt_pool_reserve() took for @acct. */
void hcclt_pool_unreserve(struct hcclt_device *hdev, struct hcclt_acct *acct,
			  u32 streams, u32 notifies)
{
	hcclt_uncharge(acct, HCCLT_RES_STREAMS, streams);
	hcclt_uncharge(acct, HCCLT_RES_NOTIFIES, notifies);
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
