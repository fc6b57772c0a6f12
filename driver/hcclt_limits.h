/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: what one file, one process and one user may hold of each
 * device pool (hcclt_limits.c).
 */
#ifndef _HCCLT_LIMITS_H_
#define _HCCLT_LIMITS_H_

#include <linux/types.h>

struct hcclt_device;

/* The pools a share is taken of. */
enum hcclt_res {
	HCCLT_RES_STREAMS,
	HCCLT_RES_NOTIFIES,
	HCCLT_RES_EVENTS,
	HCCLT_RES_MEMORY,	/* bytes */
	HCCLT_RES_COMMS,
	HCCLT_RES_GROUPS,
	HCCLT_RES_OFFERS,	/* channel offers of calls in progress */
	HCCLT_RES_COUNT
};

struct hcclt_acct;

int hcclt_limits_init(void);
void hcclt_limits_fini(void);
bool hcclt_limits_ready(void);
struct hcclt_acct *hcclt_acct_new(struct hcclt_device *hdev);
struct hcclt_acct *hcclt_acct_get(struct hcclt_acct *acct);
void hcclt_acct_put(struct hcclt_acct *acct);
int hcclt_charge(struct hcclt_acct *acct, enum hcclt_res res, u64 n);
void hcclt_uncharge(struct hcclt_acct *acct, enum hcclt_res res, u64 n);

#endif /* _HCCLT_LIMITS_H_ */
