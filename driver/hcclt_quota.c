// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the rule sets of the per-communicator quota.
 *
 * The module parameter quota_rules (read-only once loaded) chooses which
 * generation of hcomm's HcclThreadAcquire limits the driver enforces:
 *
 * - "seed" (the default): 40 threads and 64 notifies per communicator,
 *   every limit -EDQUOT, the notifies of a wrapping thread counted
 *   (Documentation/uapi.rst, "Quota rule sets", cites the seed contract);
 * - "2026-04": hcomm of April 2026, 40 threads and 640 notifies, a thread
 *   count above 40 or a notify count per thread above 640 an argument
 *   error (-EINVAL), the notifies of a wrapping thread counted;
 * - "2026-08": hcomm of August 2026, 200 threads and 65,536 notifies, a
 *   thread count above 200 and a notify count per thread of 65,536 or more
 *   argument errors, the notifies of a wrapping thread not counted.
 *
 * Documentation/uapi.rst gives each check with its hcomm source. The
 * device pools and the fair shares (hcclt_limits.c) apply under every rule
 * set: they are charged after these checks pass, whichever set is active.
 *
 * Locking: none. The rule sets are constants and the active one is chosen
 * by hcclt_quota_init() before any device exists; the checks are pure
 * functions of their arguments (the callers hold comm->lock).
 */

#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/printk.h>
#include <linux/string.h>

#include "hcclthread_accel.h"
#include "hcclt_quota.h"

static char *quota_rules = "seed";
module_param(quota_rules, charp, 0444);
MODULE_PARM_DESC(quota_rules,
		 "Per-communicator quota rules: seed (40 threads/64 notifies, default), 2026-04 (40/640), 2026-08 (200/65536)");

const struct hcclt_quota_rules hcclt_quota_sets[] = {
	{
		.name = "seed",
		.id = HCCLT_QUOTA_RULES_SEED,
		.flags = HCCLT_QUOTA_F_WRAPPED_COUNTED,
		.max_threads = HCCLT_MAX_THREADS_PER_COMM,
		.max_notifies = HCCLT_MAX_NOTIFIES_PER_COMM,
		.max_threads_per_call = HCCLT_MAX_THREADS_PER_COMM,
		.max_npt = HCCLT_MAX_NOTIFIES_PER_COMM,
		.max_wrapped = HCCLT_MAX_NOTIFIES_PER_COMM,
	},
	{
		.name = "2026-04",
		.id = HCCLT_QUOTA_RULES_2026_04,
		.flags = HCCLT_QUOTA_F_WRAPPED_COUNTED |
			 HCCLT_QUOTA_F_ARGS_EINVAL |
			 HCCLT_QUOTA_F_WRAP_CACHED_FIRST,
		.max_threads = 40,
		.max_notifies = 640,
		.max_threads_per_call = 40,
		.max_npt = 640,
		.max_wrapped = 640,
	},
	{
		.name = "2026-08",
		.id = HCCLT_QUOTA_RULES_2026_08,
		.flags = HCCLT_QUOTA_F_ARGS_EINVAL |
			 HCCLT_QUOTA_F_WRAP_CACHED_FIRST,
		.max_threads = 200,
		.max_notifies = 65536,
		.max_threads_per_call = 200,
		.max_npt = 65535,
		.max_wrapped = 65536,
	},
};

const unsigned int hcclt_quota_nsets = ARRAY_SIZE(hcclt_quota_sets);

/* The active rule set; set once by hcclt_quota_init(). */
static const struct hcclt_quota_rules *hcclt_quota_active = hcclt_quota_sets;

/**
 * hcclt_quota_init - choose the rule set named by quota_rules.
 *
 * Return: 0, or -EINVAL for a name that is no rule set.
 */
int hcclt_quota_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hcclt_quota_sets); i++) {
		if (quota_rules && sysfs_streq(quota_rules,
					       hcclt_quota_sets[i].name)) {
			hcclt_quota_active = &hcclt_quota_sets[i];
			return 0;
		}
	}
	pr_err("hcclthread: quota_rules=%s is not seed, 2026-04 or 2026-08\n",
	       quota_rules ?: "(null)");
	return -EINVAL;
}

/* The active rule set. */
const struct hcclt_quota_rules *hcclt_quota(void)
{
	return hcclt_quota_active;
}

/**
 * hcclt_quota_args - THREAD_ACQUIRE's argument checks of a rule set.
 * @r: the rule set.
 * @n: threads asked for (non-zero).
 * @npt: notifies per thread asked for.
 *
 * Only under HCCLT_QUOTA_F_ARGS_EINVAL; in hcomm's order: the notify count
 * per thread first (its API layer), then the thread count (its resource
 * manager). The seed rules leave both to hcclt_quota_check().
 *
 * Return: 0 or -EINVAL.
 */
int hcclt_quota_args(const struct hcclt_quota_rules *r, u32 n, u32 npt)
{
	if (!(r->flags & HCCLT_QUOTA_F_ARGS_EINVAL))
		return 0;
	if (npt > r->max_npt || n > r->max_threads_per_call)
		return -EINVAL;
	return 0;
}

/**
 * hcclt_quota_check - may a communicator acquire @n threads with @npt
 * notifies each?
 * @r: the rule set.
 * @threads_used: threads it holds.
 * @notifies_used: notifies it holds.
 * @n: threads wanted (non-zero).
 * @npt: notifies per thread wanted.
 *
 * Computed in 64 bits: @n * @npt cannot overflow.
 * Return: 0 or -EDQUOT.
 */
int hcclt_quota_check(const struct hcclt_quota_rules *r, u32 threads_used,
		      u32 notifies_used, u32 n, u32 npt)
{
	if (threads_used > r->max_threads ||
	    n > r->max_threads - threads_used)
		return -EDQUOT;
	if (npt > r->max_npt || notifies_used > r->max_notifies ||
	    (u64)n * npt > r->max_notifies - notifies_used)
		return -EDQUOT;
	return 0;
}

/**
 * hcclt_quota_wrap - may a wrapping thread holding @cur notifies hold
 * @want?
 * @r: the rule set.
 * @notifies_used: notifies its communicator holds (counted ones).
 * @cur: notifies the thread holds (0 for a new one).
 * @want: notifies asked for; fewer than @cur changes nothing.
 * @add: out, notifies to make.
 *
 * Under HCCLT_QUOTA_F_WRAPPED_COUNTED the added notifies are counted
 * against the communicator's; otherwise only the driver's bound
 * @r->max_wrapped applies.
 *
 * Return: 0 or -EDQUOT.
 */
int hcclt_quota_wrap(const struct hcclt_quota_rules *r, u32 notifies_used,
		     u32 cur, u32 want, u32 *add)
{
	u32 more = want > cur ? want - cur : 0;

	if (r->flags & HCCLT_QUOTA_F_WRAPPED_COUNTED) {
		if (want > r->max_notifies || notifies_used > r->max_notifies ||
		    more > r->max_notifies - notifies_used)
			return -EDQUOT;
	} else if (want > r->max_wrapped) {
		return -EDQUOT;
	}
	*add = more;
	return 0;
}
