// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: fair shares of the device pools.
 *
 * The per-communicator quota (hcclt_quota.c: 40 threads and 64 notifies
 * under the default rules) bounds one communicator, not what one user
 * holds, under every rule set: a user with many communicators
 * could take every stream, notify, event and byte of a device. Every unit
 * a file takes of a device pool (streams, notifies, events, device memory)
 * and every communicator, group and channel offer it makes is therefore
 * also charged to three accounts: the file's own, its process's (the
 * opener's thread group) and its user's (the opener's effective uid), each
 * with its own counters per device. A charge fails with -EDQUOT when it
 * would take an account above its share of the device's pool:
 * share_file_pct, share_proc_pct and share_uid_pct percent of the pool
 * (streams, notifies, events, memory), or of max_comms, max_groups and
 * max_offers. A file opened with CAP_SYS_ADMIN (in the initial user
 * namespace, with the credentials the file was opened with) is counted but
 * never refused.
 *
 * A charge adds to the three counters in turn and takes back what it added
 * when one goes above its limit, without a lock: concurrent charges of one
 * account near its limit may fail although one of them would fit, never
 * take it above the limit. The device pool itself is checked after the
 * shares, by the caller (hcclt_pool.c, hcclt_event.c, hcclt_mem.c).
 *
 * Lifetime: struct hcclt_acct is the file's account. It is made at open,
 * referenced by the file and by every object holding a charge (a stream, a
 * notify, a memory object, a group), and gives its process and user
 * accounts back with its last reference, which may be dropped in any
 * context but hard interrupt. The process and user accounts (struct
 * hcclt_owner) are found by key in two rhashtables, the process by its
 * struct pid (whose number may be reused while a reference is held), the
 * user by its kuid; lookups run under RCU and take a reference with
 * refcount_inc_not_zero(). The last put removes the account from its table
 * and frees it after a grace period; a lookup that finds one whose count
 * already dropped to zero replaces it in the table with a new one.
 */

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/error-injection.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/user_namespace.h>

#include "hcclt_drv.h"
#include "hcclt_limits.h"

static unsigned int share_file_pct = 50;
module_param(share_file_pct, uint, 0644);
MODULE_PARM_DESC(share_file_pct,
		 "Percent of each device pool one open file may hold (0-100, default 50)");

static unsigned int share_proc_pct = 50;
module_param(share_proc_pct, uint, 0644);
MODULE_PARM_DESC(share_proc_pct,
		 "Percent of each device pool one process may hold (0-100, default 50)");

static unsigned int share_uid_pct = 50;
module_param(share_uid_pct, uint, 0644);
MODULE_PARM_DESC(share_uid_pct,
		 "Percent of each device pool one user (euid) may hold (0-100, default 50)");

static unsigned int max_comms = 4096;
module_param(max_comms, uint, 0644);
MODULE_PARM_DESC(max_comms,
		 "Communicators per device the shares are taken of (default 4096)");

static unsigned int max_groups = 4096;
module_param(max_groups, uint, 0644);
MODULE_PARM_DESC(max_groups,
		 "Groups per device the shares are taken of (default 4096)");

static unsigned int max_offers = 4096;
module_param(max_offers, uint, 0644);
MODULE_PARM_DESC(max_offers,
		 "Pending channel offers per device the shares are taken of (default 4096)");

/**
 * struct hcclt_owner - the account of a process or a user.
 * @node: entry in its table.
 * @key: the struct pid of a process, the kuid of a user.
 * @pid: a process's struct pid (reference held: its address is the key,
 *	which must not be reused while the account lives); NULL for a user.
 * @ref: held by every file account of it.
 * @rcu: frees it after a grace period (lookups read it under RCU).
 * @used: what it holds, per device and pool; atomic.
 */
struct hcclt_owner {
	struct rhash_head node;
	unsigned long key;
	struct pid *pid;
	refcount_t ref;
	struct rcu_head rcu;
	atomic64_t used[HCCLT_MAX_DEVICES][HCCLT_RES_COUNT];
};

/**
 * struct hcclt_acct - the account of one open file.
 * @ref: held by the file and by every object holding a charge of it.
 * @dev: the device index; immutable.
 * @exempt: opened with CAP_SYS_ADMIN: never refused; immutable.
 * @pool: the sizes of the device's pools (streams, notifies, events,
 *	memory); immutable.
 * @used: what the file holds; atomic.
 * @proc: its process's account (reference held); immutable.
 * @user: its user's account (reference held); immutable.
 */
struct hcclt_acct {
	struct kref ref;
	unsigned int dev;
	bool exempt;
	u64 pool[HCCLT_RES_MEMORY + 1];
	atomic64_t used[HCCLT_RES_COUNT];
	struct hcclt_owner *proc;
	struct hcclt_owner *user;
};

static const struct rhashtable_params hcclt_owner_params = {
	.key_len = sizeof(unsigned long),
	.key_offset = offsetof(struct hcclt_owner, key),
	.head_offset = offsetof(struct hcclt_owner, node),
	.automatic_shrinking = true,
};

static struct rhashtable hcclt_procs;
static struct rhashtable hcclt_users;
/* The tables exist (set and cleared by module init/exit and KUnit only). */
static bool hcclt_limits_up;

int hcclt_limits_init(void)
{
	int ret;

	ret = rhashtable_init(&hcclt_procs, &hcclt_owner_params);
	if (ret)
		return ret;
	ret = rhashtable_init(&hcclt_users, &hcclt_owner_params);
	if (ret) {
		rhashtable_destroy(&hcclt_procs);
		return ret;
	}
	hcclt_limits_up = true;
	return 0;
}

/* Are the tables there (KUnit suites may run before the module's init)? */
bool hcclt_limits_ready(void)
{
	return hcclt_limits_up;
}

/* Every file account is gone by now: the tables are empty. */
void hcclt_limits_fini(void)
{
	hcclt_limits_up = false;
	rhashtable_destroy(&hcclt_users);
	rhashtable_destroy(&hcclt_procs);
}

static void hcclt_owner_put(struct rhashtable *table, struct hcclt_owner *o)
{
	if (!refcount_dec_and_test(&o->ref))
		return;
	/* -ENOENT: a lookup has replaced it already. */
	rhashtable_remove_fast(table, &o->node, hcclt_owner_params);
	put_pid(o->pid);
	kfree_rcu(o, rcu);
}

/*
 * The account of @key in @table, made if there is none (holding @pid, if
 * any); NULL on -ENOMEM.
 */
static struct hcclt_owner *hcclt_owner_get(struct rhashtable *table,
					   unsigned long key, struct pid *pid)
{
	struct hcclt_owner *o, *fresh;

	rcu_read_lock();
	o = rhashtable_lookup(table, &key, hcclt_owner_params);
	if (o && refcount_inc_not_zero(&o->ref)) {
		rcu_read_unlock();
		return o;
	}
	rcu_read_unlock();

	fresh = kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!fresh)
		return NULL;
	fresh->key = key;
	fresh->pid = get_pid(pid);
	refcount_set(&fresh->ref, 1);
	for (;;) {
		rcu_read_lock();
		o = rhashtable_lookup_get_insert_fast(table, &fresh->node,
						      hcclt_owner_params);
		if (!o) {
			rcu_read_unlock();
			return fresh;
		}
		if (IS_ERR(o) || refcount_inc_not_zero(&o->ref)) {
			rcu_read_unlock();
			put_pid(fresh->pid);
			kfree(fresh);
			return IS_ERR(o) ? NULL : o;
		}
		/* Its last reference went: take its place (or retry). */
		if (!rhashtable_replace_fast(table, &o->node, &fresh->node,
					     hcclt_owner_params)) {
			rcu_read_unlock();
			return fresh;
		}
		rcu_read_unlock();
	}
}

/**
 * hcclt_acct_new - the account of a file being opened.
 * @hdev: its device.
 *
 * Called by the opener (drm_driver.open), whose credentials are the ones
 * the file is opened with (its f_cred, which never change): they decide
 * the user and the exemption of every charge of the file.
 *
 * Return: the account with one reference, or NULL (no memory).
 */
struct hcclt_acct *hcclt_acct_new(struct hcclt_device *hdev)
{
	struct hcclt_acct *acct;
	struct pid *tgid;
	int i;

	acct = kzalloc(sizeof(*acct), GFP_KERNEL_ACCOUNT);
	if (!acct)
		return NULL;
	kref_init(&acct->ref);
	acct->dev = hdev->index;
	acct->exempt = ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN);
	acct->pool[HCCLT_RES_STREAMS] = hdev->streams_total;
	acct->pool[HCCLT_RES_NOTIFIES] = hdev->notifies_total;
	acct->pool[HCCLT_RES_EVENTS] = HCCLT_MAX_EVENTS;
	acct->pool[HCCLT_RES_MEMORY] = hdev->mem_total;
	for (i = 0; i < HCCLT_RES_COUNT; i++)
		atomic64_set(&acct->used[i], 0);

	tgid = get_task_pid(current, PIDTYPE_TGID);
	acct->proc = hcclt_owner_get(&hcclt_procs, (unsigned long)tgid, tgid);
	put_pid(tgid);
	acct->user = hcclt_owner_get(&hcclt_users, __kuid_val(current_euid()),
				     NULL);
	if (!acct->proc || !acct->user) {
		if (acct->proc)
			hcclt_owner_put(&hcclt_procs, acct->proc);
		if (acct->user)
			hcclt_owner_put(&hcclt_users, acct->user);
		kfree(acct);
		return NULL;
	}
	return acct;
}

struct hcclt_acct *hcclt_acct_get(struct hcclt_acct *acct)
{
	kref_get(&acct->ref);
	return acct;
}

static void hcclt_acct_release(struct kref *ref)
{
	struct hcclt_acct *acct = container_of(ref, struct hcclt_acct, ref);
	int i;

	for (i = 0; i < HCCLT_RES_COUNT; i++)
		WARN_ON(atomic64_read(&acct->used[i]));
	hcclt_owner_put(&hcclt_procs, acct->proc);
	hcclt_owner_put(&hcclt_users, acct->user);
	kfree(acct);
}

/* Drop a reference to @acct (may be NULL). */
void hcclt_acct_put(struct hcclt_acct *acct)
{
	if (acct)
		kref_put(&acct->ref, hcclt_acct_release);
}

/* The size of the pool @res of @acct's device. */
static u64 hcclt_acct_pool(const struct hcclt_acct *acct, enum hcclt_res res)
{
	switch (res) {
	case HCCLT_RES_COMMS:
		return READ_ONCE(max_comms);
	case HCCLT_RES_GROUPS:
		return READ_ONCE(max_groups);
	case HCCLT_RES_OFFERS:
		return READ_ONCE(max_offers);
	default:
		return acct->pool[res];
	}
}

/* @pct percent of @pool (at most all of it). */
static u64 hcclt_share(u64 pool, unsigned int pct)
{
	return div_u64(pool * min(pct, 100U), 100);
}

/**
 * hcclt_charge - charge @n units of @res to a file, its process and user.
 * @acct: the file's account.
 * @res: the pool.
 * @n: units (bytes for memory).
 *
 * Return: 0, or -EDQUOT when the file, its process or its user would hold
 * more than its share (nothing charged then).
 */
int hcclt_charge(struct hcclt_acct *acct, enum hcclt_res res, u64 n)
{
	atomic64_t *used[3] = {
		&acct->used[res],
		&acct->proc->used[acct->dev][res],
		&acct->user->used[acct->dev][res],
	};
	const unsigned int pct[3] = {
		READ_ONCE(share_file_pct),
		READ_ONCE(share_proc_pct),
		READ_ONCE(share_uid_pct),
	};
	u64 pool = hcclt_acct_pool(acct, res);
	int i;

	/* Nothing asked: never refused, also above a share lowered since. */
	if (!n)
		return 0;
	for (i = 0; i < ARRAY_SIZE(used); i++) {
		if ((u64)atomic64_add_return(n, used[i]) <=
		    hcclt_share(pool, pct[i]) || acct->exempt)
			continue;
		do
			atomic64_sub(n, used[i]);
		while (i--);
		return -EDQUOT;
	}
	return 0;
}

/* fail_function (hcclt_failfunc.sh): a share used up, -EDQUOT. */
ALLOW_ERROR_INJECTION(hcclt_charge, ERRNO);

/* Give back @n units of @res charged by hcclt_charge(). */
void hcclt_uncharge(struct hcclt_acct *acct, enum hcclt_res res, u64 n)
{
	WARN_ON(atomic64_sub_return(n, &acct->used[res]) < 0);
	WARN_ON(atomic64_sub_return(n, &acct->proc->used[acct->dev][res]) < 0);
	WARN_ON(atomic64_sub_return(n, &acct->user->used[acct->dev][res]) < 0);
}
