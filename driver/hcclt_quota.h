/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the rule sets of the per-communicator quota (hcclt_quota.c).
 */
#ifndef _HCCLT_QUOTA_H_
#define _HCCLT_QUOTA_H_

#include <linux/types.h>

/**
 * struct hcclt_quota_rules - one rule set of the per-communicator quota.
 * @name: its value of the module parameter quota_rules.
 * @id: HCCLT_QUOTA_RULES_*.
 * @flags: HCCLT_QUOTA_F_*.
 * @max_threads: threads of a communicator (wrapping ones not counted).
 * @max_notifies: notifies of a communicator.
 * @max_threads_per_call: largest thread count of one THREAD_ACQUIRE.
 * @max_npt: largest notify count per thread of THREAD_ACQUIRE.
 * @max_wrapped: largest notify count of a wrapping thread when its
 *	notifies are not counted (a bound of the driver's, above every
 *	device pool: the pool refuses first).
 *
 * Every rule set is a constant; the active one is chosen at module load
 * and never changes while the module is loaded.
 */
struct hcclt_quota_rules {
	const char *name;
	u32 id;
	u32 flags;
	u32 max_threads;
	u32 max_notifies;
	u32 max_threads_per_call;
	u32 max_npt;
	u32 max_wrapped;
};

extern const struct hcclt_quota_rules hcclt_quota_sets[];
extern const unsigned int hcclt_quota_nsets;

int hcclt_quota_init(void);
const struct hcclt_quota_rules *hcclt_quota(void);
int hcclt_quota_args(const struct hcclt_quota_rules *r, u32 n, u32 npt);
int hcclt_quota_check(const struct hcclt_quota_rules *r, u32 threads_used,
		      u32 notifies_used, u32 n, u32 npt);
int hcclt_quota_wrap(const struct hcclt_quota_rules *r, u32 notifies_used,
		     u32 cur, u32 want, u32 *add);

#endif /* _HCCLT_QUOTA_H_ */
