/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the device pools of streams and notifies (hcclt_pool.c).
 */
#ifndef _HCCLT_POOL_H_
#define _HCCLT_POOL_H_

#include <linux/types.h>

struct hcclt_acct;
struct hcclt_device;

/**
 * struct hcclt_resv - device pool units reserved by a call and not yet
 * taken over by an object.
 * @acct: the account they are charged to (the caller's reference).
 * @streams: stream units.
 * @notifies: notify units.
 *
 * A call reserves every unit it needs up front (hcclt_pool_reserve(), all
 * or nothing); each stream or notify it creates takes one unit over and
 * gives it back when destroyed; the call gives back what is left.
 */
struct hcclt_resv {
	struct hcclt_acct *acct;
	u32 streams;
	u32 notifies;
};

/* hcclt_pool.c */
int hcclt_pool_reserve(struct hcclt_device *hdev, struct hcclt_acct *acct,
		       u32 streams, u32 notifies);
void hcclt_pool_unreserve(struct hcclt_device *hdev, struct hcclt_acct *acct,
			  u32 streams, u32 notifies);

#endif /* _HCCLT_POOL_H_ */
