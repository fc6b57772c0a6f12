// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: groups, the kernel's rendezvous for multi-rank communicators
 * (HcclGetRootInfo, HcclCommInitRootInfo).
 *
 * A group is made by GROUP_CREATE, which returns its secret key and its
 * name. Ranks join it with GROUP_JOIN from any device and any process; each
 * join waits until the group has all its ranks, then publishes the rank's
 * communicator, made in the joining file before the wait.
 *
 * Every group lives in one module-wide registry under hcclt_groups_lock,
 * which protects the registry and every field of every group: a list of
 * all groups (GROUP_INFO), an rhashtable by key (GROUP_JOIN) and, per
 * creating file, a list of its pending groups (struct hcclt_file's groups:
 * GROUP_CREATE's limit, postclose). Nothing holds the lock across work
 * that grows with the number of groups: a join finds its group by key, a
 * create counts its file's pending groups, postclose walks its own file's
 * list, a communicator's teardown clears its own rank, and GROUP_INFO's
 * walk drops the lock every HCCLT_GROUP_INFO_BATCH groups (a group it
 * stopped at is held meanwhile). Each group has its own waitqueue for its
 * ranks. A group is charged to its creator's account (hcclt_limits.c,
 * HCCLT_RES_GROUPS) from GROUP_CREATE until it is freed, which bounds the
 * groups one user, process or file can make, pending or complete.
 * A group is held by its creator's file until it completes or fails, and
 * by each joined rank (a rank waiting in GROUP_JOIN, then its
 * communicator); it is freed, under the lock, when the last holder goes.
 * Lock order: file->lock -> hcclt_groups_lock (a communicator's teardown
 * leaves its group under file->lock); inside hcclt_groups_lock only the
 * rhashtable's bucket locks, the account counters (atomic) and the sends
 * of hcclt_link.c (a link's spinlock, a leaf; a send may wait, with the
 * lock held, for the link's earlier sends to complete or flush).
 *
 * Clusters (Documentation/clusters.rst). A group may have ranks on other
 * hosts. The host whose driver made it (its root) is the only one that
 * lets ranks in: a rank of another host joins through a mirror of the
 * group on its own host (made by the first such rank there, found by the
 * same key, held by its local ranks like any group), which sends JOIN to
 * the root over a link (hcclt_link.c). The root checks the key, fills the
 * rank as remote, and when every rank is in, sends each host of a remote
 * rank the table of where all ranks are (TABLE), which completes its
 * mirror. A key the root has no group for is refused (REFUSE) and
 * nothing else is said. A group that fails on any host fails on all
 * (FAIL: a mirror tells its root, the root tells every host of its
 * remote ranks), as does a pending group whose link goes down. Remote
 * ranks hold no reference on a group; a link is held by the ranks that
 * joined through it and by a mirror (its root).
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/random.h>
#include <linux/rhashtable.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>

#include "hcclt_drv.h"

/* Most entries one GROUP_INFO call collects. */
#define HCCLT_GROUP_INFO_MAX_ENTRIES	65536

/* Groups GROUP_INFO walks per hold of hcclt_groups_lock. */
#define HCCLT_GROUP_INFO_BATCH		64

/**
 * struct hcclt_group_rank - one rank of a group.
 * @comm: its communicator (unpublished while the group is pending), or
 *	NULL if the rank has not joined, has gone, or is on another host.
 * @pid: process that joined it (reference held while @comm is set).
 * @euid: effective uid of that process (GROUP_INFO visibility).
 * @device: device index of the joining file, on the rank's host.
 * @comm_id: id of @comm in its file.
 * @remote: the rank is on another host, @host.
 * @host: the rank's host in a cluster group (this one's for local ranks).
 * @link: at the root, the link a remote rank joined through (reference
 *	held); NULL otherwise.
 */
struct hcclt_group_rank {
	struct hcclt_comm *comm;
	struct pid *pid;
	kuid_t euid;
	u32 device;
	u64 comm_id;
	bool remote;
	struct hcclt_host host;
	struct hcclt_link *link;
};

/**
 * struct hcclt_group - a communicator across its ranks.
 * @node: entry in hcclt_groups.
 * @hnode: entry in hcclt_groups_hash.
 * @pnode: entry in its creator's file->groups while pending.
 * @acct: the account it is charged to (reference held); immutable.
 * @key: the secret key; immutable.
 * @name: NUL-terminated name; immutable.
 * @creator: file that created the group, until it completes or fails
 *	(compared, never dereferenced).
 * @creator_euid: effective uid of the creator (GROUP_INFO visibility).
 * @holders: the creator (if set) plus the joined ranks.
 * @nranks: rank count, fixed by the first join; 0 before.
 * @joined: ranks joined and not gone.
 * @state: HCCLT_GROUP_*.
 * @wq: ranks waiting for the group to complete or fail.
 * @ranks: @nranks ranks, allocated by the first join; NULL before.
 * @root: of a mirror, the link to the group's root host (reference
 *	held); NULL for a group made here; immutable.
 * @err: of a failed group, what its waiting ranks return.
 *
 * Every field but @key and @name is protected by hcclt_groups_lock.
 */
struct hcclt_group {
	struct list_head node;
	struct rhash_head hnode;
	struct list_head pnode;
	struct hcclt_acct *acct;
	u8 key[HCCLT_GROUP_KEY_BYTES];
	char name[HCCLT_GROUP_NAME_BYTES];
	struct hcclt_file *creator;
	kuid_t creator_euid;
	u32 holders;
	u32 nranks;
	u32 joined;
	u32 state;
	wait_queue_head_t wq;
	struct hcclt_group_rank *ranks;
	struct hcclt_link *root;
	int err;
};

/*
 * protects the registry below, hcclt_group_serial, every group's state and
 * every file's groups and groups_pending
 */
static DEFINE_MUTEX(hcclt_groups_lock);
static LIST_HEAD(hcclt_groups);
static struct rhashtable hcclt_groups_hash;
static u64 hcclt_group_serial;

static int hcclt_group_cmp(struct rhashtable_compare_arg *arg,
			   const void *obj);

static const struct rhashtable_params hcclt_group_params = {
	.key_len = HCCLT_GROUP_KEY_BYTES,
	.key_offset = offsetof(struct hcclt_group, key),
	.head_offset = offsetof(struct hcclt_group, hnode),
	.obj_cmpfn = hcclt_group_cmp,
	.automatic_shrinking = true,
};

int hcclt_group_init(void)
{
	return rhashtable_init(&hcclt_groups_hash, &hcclt_group_params);
}

/* Every group is gone by now (every file and communicator is). */
void hcclt_group_fini(void)
{
	rhashtable_destroy(&hcclt_groups_hash);
}

/* The group left the pending state. Caller holds the lock. */
static void hcclt_group_settle(struct hcclt_group *group, u32 state)
{
	WRITE_ONCE(group->state, state);
	if (group->creator && !list_empty(&group->pnode)) {
		list_del_init(&group->pnode);
		group->creator->groups_pending--;
	}
	wake_up_all(&group->wq);
}

/* Drop one holder; free the group with the last. Caller holds the lock. */
static void hcclt_group_unhold(struct hcclt_group *group)
{
	u32 i;

	lockdep_assert_held(&hcclt_groups_lock);
	if (WARN_ON(!group->holders))
		return;
	if (--group->holders)
		return;
	list_del(&group->node);
	rhashtable_remove_fast(&hcclt_groups_hash, &group->hnode,
			       hcclt_group_params);
	hcclt_uncharge(group->acct, HCCLT_RES_GROUPS, 1);
	hcclt_acct_put(group->acct);
	for (i = 0; group->ranks && i < group->nranks; i++)
		hcclt_link_put(group->ranks[i].link);
	hcclt_link_put(group->root);
	kfree(group->ranks);
	kfree_sensitive(group);
}

/*
 * Send @body to the root of a mirror, or to each host of a remote rank of
 * a group made here (once per link). Caller holds the lock.
 */
static void hcclt_group_tell(struct hcclt_group *group, u16 type,
			     const void *body, size_t len)
{
	u32 i, j;

	lockdep_assert_held(&hcclt_groups_lock);
	if (group->root) {
		hcclt_link_send(group->root, type, body, len);
		return;
	}
	for (i = 0; group->ranks && i < group->nranks; i++) {
		struct hcclt_link *link = group->ranks[i].link;

		if (!link)
			continue;
		for (j = 0; j < i; j++)
			if (group->ranks[j].link == link)
				break;
		if (j == i)
			hcclt_link_send(link, type, body, len);
	}
}

/*
 * Fail a pending group: wake every waiting rank with @err, and tell the
 * other hosts of a cluster group. Caller holds the lock.
 */
static void hcclt_group_fail_err(struct hcclt_group *group, int err)
{
	struct hcclt_msg_group msg;

	lockdep_assert_held(&hcclt_groups_lock);
	if (group->state != HCCLT_GROUP_PENDING)
		return;
	group->err = err;
	hcclt_group_settle(group, HCCLT_GROUP_FAILED);
	memcpy(msg.key, group->key, sizeof(msg.key));
	hcclt_group_tell(group, HCCLT_MSG_FAIL, &msg, sizeof(msg));
	if (group->creator) {
		group->creator = NULL;
		hcclt_group_unhold(group);
	}
}

/* Fail a pending group: wake every waiting rank. Caller holds the lock. */
static void hcclt_group_fail(struct hcclt_group *group)
{
	hcclt_group_fail_err(group, -ECONNRESET);
}

/*
 * Every rank of a group made here is in: complete it, and send each host
 * of a remote rank the table of where the ranks are. Caller holds the
 * lock; the group may be freed on return (its creator was its last
 * holder: every rank is remote).
 */
static void hcclt_group_complete(struct hcclt_group *group)
{
	const struct hcclt_host *self = hcclt_cluster_self();
	struct hcclt_msg_table *t;
	bool remote = false;
	u32 i, j;

	lockdep_assert_held(&hcclt_groups_lock);
	hcclt_group_settle(group, HCCLT_GROUP_COMPLETE);
	for (i = 0; i < group->nranks; i++)
		remote |= group->ranks[i].remote;
	t = remote ? kmalloc(sizeof(*t), GFP_KERNEL) : NULL;
	for (i = 0; t && i < group->nranks; i += HCCLT_MSG_TABLE_RANKS) {
		memset(t, 0, sizeof(*t));
		memcpy(t->key, group->key, sizeof(t->key));
		t->nranks = cpu_to_le32(group->nranks);
		t->first = cpu_to_le32(i);
		for (j = 0; j < HCCLT_MSG_TABLE_RANKS && i + j < group->nranks;
		     j++) {
			const struct hcclt_group_rank *r = &group->ranks[i + j];
			const struct hcclt_host *h = r->remote ? &r->host : self;

			t->ranks[j].addr = h->addr;
			t->ranks[j].port = h->port;
			t->ranks[j].device = cpu_to_le32(r->device);
		}
		t->count = cpu_to_le32(j);
		hcclt_group_tell(group, HCCLT_MSG_TABLE, t, sizeof(*t));
	}
	/* Without the table the other hosts cannot complete: fail them. */
	if (remote && !t) {
		struct hcclt_msg_group msg;

		memcpy(msg.key, group->key, sizeof(msg.key));
		hcclt_group_tell(group, HCCLT_MSG_FAIL, &msg, sizeof(msg));
	}
	kfree(t);
	/* Complete: the group now lives with its communicators. */
	if (group->creator) {
		group->creator = NULL;
		hcclt_group_unhold(group);
	}
}

/* Clear a joined local rank; may free the group. Caller holds the lock. */
static void hcclt_group_rank_clear(struct hcclt_group *group, u32 rank)
{
	struct hcclt_group_rank *r = &group->ranks[rank];

	r->comm = NULL;
	put_pid(r->pid);
	r->pid = NULL;
	group->joined--;
	hcclt_group_unhold(group);
}

/*
 * Keys compared in constant time (no early exit); crypto_memneq() would
 * need CONFIG_CRYPTO.
 */
static bool hcclt_group_key_eq(const u8 *a, const u8 *b)
{
	u8 diff = 0;
	int i;

	for (i = 0; i < HCCLT_GROUP_KEY_BYTES; i++)
		diff |= READ_ONCE(a[i]) ^ READ_ONCE(b[i]);
	return !diff;
}

/* rhashtable's compare: 0 for a match. */
static int hcclt_group_cmp(struct rhashtable_compare_arg *arg,
			   const void *obj)
{
	const struct hcclt_group *group = obj;

	return !hcclt_group_key_eq(group->key, arg->key);
}

static bool hcclt_host_eq(const struct hcclt_host *a,
			  const struct hcclt_host *b)
{
	return a->addr == b->addr && a->port == b->port;
}

/* Groups leave the table under the lock, which the caller holds. */
static struct hcclt_group *hcclt_group_find(const u8 *key)
{
	lockdep_assert_held(&hcclt_groups_lock);
	return rhashtable_lookup_fast(&hcclt_groups_hash, key,
				      hcclt_group_params);
}

int hcclt_group_create_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_group_create *args = data;
	struct hcclt_group *group;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;

	group = kzalloc(sizeof(*group), GFP_KERNEL_ACCOUNT);
	if (!group)
		return -ENOMEM;
	ret = hcclt_charge(file->acct, HCCLT_RES_GROUPS, 1);
	if (ret) {
		kfree(group);
		return ret;
	}
	group->acct = hcclt_acct_get(file->acct);
	init_waitqueue_head(&group->wq);
	INIT_LIST_HEAD(&group->pnode);
	group->creator = file;
	group->creator_euid = current_euid();
	group->holders = 1;
	group->state = HCCLT_GROUP_PENDING;

	/* 2^128 keys: a collision with a live group is not worth a retry. */
	get_random_bytes(group->key, sizeof(group->key));

	mutex_lock(&hcclt_groups_lock);
	if (file->groups_pending >= HCCLT_MAX_PENDING_GROUPS)
		ret = -ENOSPC;
	else
		ret = rhashtable_insert_fast(&hcclt_groups_hash, &group->hnode,
					     hcclt_group_params);
	if (ret) {
		mutex_unlock(&hcclt_groups_lock);
		hcclt_uncharge(group->acct, HCCLT_RES_GROUPS, 1);
		hcclt_acct_put(group->acct);
		kfree_sensitive(group);
		return ret == -ENOSPC ? ret : -ENOMEM;
	}
	snprintf(group->name, sizeof(group->name), "hcclt_%d_%u_%llu",
		 task_tgid_vnr(current), file->hdev->index,
		 ++hcclt_group_serial);
	list_add_tail(&group->node, &hcclt_groups);
	list_add_tail(&group->pnode, &file->groups);
	file->groups_pending++;
	memcpy(args->key, group->key, sizeof(args->key));
	memcpy(args->name, group->name, sizeof(args->name));
	mutex_unlock(&hcclt_groups_lock);
	return 0;
}

/* Checks of GROUP_JOIN against the group; caller holds the lock. */
static int hcclt_group_join_check(struct hcclt_group *group, u32 rank,
				  u32 nranks, u32 device)
{
	u32 i;

	if (!group)
		return -ENOENT;
	if (group->state == HCCLT_GROUP_FAILED)
		return -ECONNRESET;
	if (group->state == HCCLT_GROUP_COMPLETE)
		return -EISCONN;
	if (group->ranks && group->nranks != nranks)
		return -EPROTO;
	if (!group->ranks)
		return 0;
	if (group->ranks[rank].comm || group->ranks[rank].remote)
		return -EADDRINUSE;
	for (i = 0; i < group->nranks; i++)
		if (group->ranks[i].comm && group->ranks[i].device == device)
			return -EBUSY;
	return 0;
}

/* Complete or failed; read without the lock by the waiters. */
static bool hcclt_group_settled(struct hcclt_group *group)
{
	return READ_ONCE(group->state) != HCCLT_GROUP_PENDING;
}

/*
 * A mirror of the group of @key whose root is at the other end of @root,
 * for a rank of this host that joins it; charged to @file's account.
 */
static struct hcclt_group *hcclt_group_mirror_new(struct hcclt_file *file,
						  struct hcclt_link *root)
{
	struct hcclt_group *group;

	group = kzalloc(sizeof(*group), GFP_KERNEL_ACCOUNT);
	if (!group)
		return ERR_PTR(-ENOMEM);
	if (hcclt_charge(file->acct, HCCLT_RES_GROUPS, 1)) {
		kfree(group);
		return ERR_PTR(-ENOSPC);
	}
	group->acct = hcclt_acct_get(file->acct);
	init_waitqueue_head(&group->wq);
	INIT_LIST_HEAD(&group->pnode);
	group->state = HCCLT_GROUP_PENDING;
	group->root = hcclt_link_ref(root);
	return group;
}

/* Free a mirror that was never entered in the registry. */
static void hcclt_group_mirror_discard(struct hcclt_group *group)
{
	if (!group)
		return;
	hcclt_uncharge(group->acct, HCCLT_RES_GROUPS, 1);
	hcclt_acct_put(group->acct);
	hcclt_link_put(group->root);
	kfree_sensitive(group);
}

/* The root host a GROUP_JOIN names: NULL for this one. */
static int hcclt_group_join_root(const struct drm_hcclt_group_join *args,
				 struct hcclt_host *root)
{
	const struct hcclt_host *self = hcclt_cluster_self();

	root->addr = (__force __be32)args->root_addr;
	root->port = (__force __be16)args->root_port;
	if (!root->addr)
		return 0;
	if (!root->port)
		return -EINVAL;
	if (!self)
		return -EOPNOTSUPP;
	if (root->addr == self->addr && root->port == self->port)
		root->addr = 0;
	return 0;
}

int hcclt_group_join_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_group_join *args = data;
	bool abs = args->flags & HCCLT_WAIT_DEADLINE;
	struct hcclt_group *group, *mirror = NULL;
	ktime_t deadline = KTIME_MAX;
	struct hcclt_group_rank *r, *ranks;
	struct hcclt_link *link = NULL;
	struct hcclt_msg_join msg = {};
	struct hcclt_host root;
	struct hcclt_comm *comm;
	int wret;
	int idx, ret;

	if ((args->flags & ~HCCLT_WAIT_DEADLINE) || args->pad ||
	    args->timeout_ms < -1 ||
	    !args->nranks || args->nranks > HCCLT_MAX_GROUP_RANKS)
		return -EINVAL;
	ret = hcclt_group_join_root(args, &root);
	if (ret == -EINVAL)
		return ret;
	if (abs ? args->timeout_ms || args->deadline_ns < 0 : args->deadline_ns)
		return -EINVAL;
	if (args->rank >= args->nranks)
		return -ERANGE;
	if (ret)
		return ret;
	/* KTIME_MAX (HCCLT_DEADLINE_NONE, timeout_ms -1): no limit. */
	if (abs)
		deadline = ns_to_ktime(args->deadline_ns);
	else if (args->timeout_ms >= 0)
		deadline = ktime_add_ms(ktime_get(), args->timeout_ms);

	/* A group of another host: the link to it, and a mirror if new. */
	if (root.addr) {
		link = hcclt_link_get(&root, deadline);
		if (IS_ERR(link))
			return PTR_ERR(link);
		mirror = hcclt_group_mirror_new(file, link);
		if (IS_ERR(mirror)) {
			hcclt_link_put(link);
			return PTR_ERR(mirror);
		}
	}

	/* Entered around the setup only: the wait may last long. */
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto err_link;
	}
	comm = hcclt_comm_new(file);
	drm_dev_exit(idx);
	if (IS_ERR(comm)) {
		ret = PTR_ERR(comm);
		goto err_link;
	}
	/* The ranks of the group, in case this is its first join. */
	ranks = kcalloc(args->nranks, sizeof(*ranks), GFP_KERNEL_ACCOUNT);
	if (!ranks) {
		hcclt_comm_discard(comm);
		ret = -ENOMEM;
		goto err_link;
	}

	mutex_lock(&hcclt_groups_lock);
	group = hcclt_group_find(args->key);
	ret = 0;
	if (!group && mirror) {
		/* The first rank of this host to join the remote group. */
		memcpy(mirror->key, args->key, sizeof(mirror->key));
		ret = rhashtable_insert_fast(&hcclt_groups_hash, &mirror->hnode,
					     hcclt_group_params);
		if (ret) {
			ret = -ENOMEM;
		} else {
			group = mirror;
			mirror = NULL;
			snprintf(group->name, sizeof(group->name),
				 "hcclt_%pI4_%llu", &root.addr,
				 ++hcclt_group_serial);
			list_add_tail(&group->node, &hcclt_groups);
		}
	}
	/*
	 * Found: made here (no @root) or mirrored from the same root only.
	 * A mirror just made passes every check, so none stays without a
	 * holder.
	 */
	if (!ret && group && (!group->root != !root.addr ||
			      (group->root &&
			       !hcclt_host_eq(hcclt_link_peer(group->root),
					      &root))))
		ret = -EXDEV;
	else if (!ret)
		ret = hcclt_group_join_check(group, args->rank, args->nranks,
					     file->hdev->index);
	if (ret) {
		mutex_unlock(&hcclt_groups_lock);
		kfree(ranks);
		hcclt_comm_discard(comm);
		goto err_link;
	}
	if (!group->ranks) {
		group->ranks = ranks;
		group->nranks = args->nranks;
		ranks = NULL;
	}
	r = &group->ranks[args->rank];
	r->comm = comm;
	r->pid = get_task_pid(current, PIDTYPE_TGID);
	r->euid = current_euid();
	r->device = file->hdev->index;
	r->comm_id = comm->id;
	group->holders++;
	if (group->root) {
		/* Complete when the root's table comes. */
		group->joined++;
		memcpy(msg.key, group->key, sizeof(msg.key));
		msg.rank = cpu_to_le32(args->rank);
		msg.nranks = cpu_to_le32(args->nranks);
		msg.device = cpu_to_le32(r->device);
		if (hcclt_link_send(group->root, HCCLT_MSG_JOIN, &msg,
				    sizeof(msg)))
			hcclt_group_fail(group);
	} else if (++group->joined == group->nranks) {
		hcclt_group_complete(group);
	}
	mutex_unlock(&hcclt_groups_lock);
	kfree(ranks);
	hcclt_group_mirror_discard(mirror);
	hcclt_link_put(link);

	/* The group cannot go while this rank holds it. */
	if (deadline == KTIME_MAX)
		wret = wait_event_interruptible(group->wq,
						hcclt_group_settled(group));
	else
		wret = wait_event_interruptible_hrtimeout(group->wq,
							  hcclt_group_settled(group),
							  hcclt_ktime_left(deadline));

	mutex_lock(&hcclt_groups_lock);
	if (group->state == HCCLT_GROUP_COMPLETE) {
		comm->group = group;
		comm->rank = args->rank;
		mutex_unlock(&hcclt_groups_lock);
		/*
		 * Read before publishing: from then on a COMM_DESTROY of the
		 * id (the lowest free index, easy to guess) on another thread
		 * of this file may free the communicator, and this call holds
		 * no reference on it.
		 */
		args->comm_id = comm->id;
		hcclt_comm_publish(comm);
		return 0;
	}
	if (group->state == HCCLT_GROUP_FAILED) {
		ret = group->err ?: -ECONNRESET;
	} else if (wret == -ETIME) {
		/* Giving up fails the ranks waiting for this one. */
		hcclt_group_fail(group);
		ret = abs ? -ETIME : -ETIMEDOUT;
	} else if (fatal_signal_pending(current)) {
		/* A dying rank fails the others at once. */
		hcclt_group_fail(group);
		ret = -EINTR;
	} else {
		/* Withdraw quietly: a restarted call joins again. */
		if (!abs && args->timeout_ms >= 0)
			args->timeout_ms = clamp_t(s64,
						   ktime_ms_delta(deadline,
								  ktime_get()),
						   0, INT_MAX);
		ret = -ERESTARTSYS;
		/* The root forgets the rank too. */
		if (group->root)
			hcclt_link_send(group->root, HCCLT_MSG_LEAVE, &msg,
					sizeof(msg));
	}
	hcclt_group_rank_clear(group, args->rank);
	mutex_unlock(&hcclt_groups_lock);
	hcclt_comm_discard(comm);
	return ret;

err_link:
	hcclt_group_mirror_discard(mirror);
	hcclt_link_put(link);
	return ret;
}

/**
 * hcclt_group_comm_gone - a rank's communicator is being destroyed.
 * @comm: the communicator, with a group.
 *
 * Called from its teardown, under file->lock. Frees the group with its last
 * rank.
 */
void hcclt_group_comm_gone(struct hcclt_comm *comm)
{
	struct hcclt_group *group = comm->group;

	mutex_lock(&hcclt_groups_lock);
	if (!WARN_ON(group->ranks[comm->rank].comm != comm))
		hcclt_group_rank_clear(group, comm->rank);
	mutex_unlock(&hcclt_groups_lock);
}

/* The rank count of the group of a live communicator (immutable then). */
u32 hcclt_group_nranks(const struct hcclt_group *group)
{
	return group->nranks;
}

/* The name of @group (immutable), for the log. */
const char *hcclt_group_name(const struct hcclt_group *group)
{
	return group->name;
}

/**
 * hcclt_group_rank_alive - is @rank of @group joined, with a communicator
 * whose channels are not torn down?
 * @group: the group of a live communicator of the caller.
 * @rank: a rank below its rank count.
 *
 * For the channel rendezvous (hcclt_channel.c): the caller holds
 * hcclt_chan_lock, under which comm->chan_gone is read; the rank's
 * communicator cannot finish its teardown meanwhile, as that takes
 * hcclt_chan_lock before it leaves the group.
 *
 * Return: true if the rank is there and its channels are not torn down.
 */
bool hcclt_group_rank_alive(struct hcclt_group *group, u32 rank)
{
	struct hcclt_comm *comm;
	bool alive;

	mutex_lock(&hcclt_groups_lock);
	comm = group->ranks[rank].comm;
	alive = comm && !comm->chan_gone;
	mutex_unlock(&hcclt_groups_lock);
	return alive;
}

/**
 * hcclt_group_rank_remote - is @rank of @group on another host?
 * @group: the group of a live communicator of the caller (complete).
 * @rank: a rank below its rank count.
 *
 * Return: true if the rank is on another host of the cluster.
 */
bool hcclt_group_rank_remote(struct hcclt_group *group, u32 rank)
{
	bool remote;

	mutex_lock(&hcclt_groups_lock);
	remote = group->ranks[rank].remote;
	mutex_unlock(&hcclt_groups_lock);
	return remote;
}

/**
 * hcclt_group_rank_link - the link to the host of a remote rank.
 * @group: the group of a live communicator of the caller (complete).
 * @rank: a remote rank of it (hcclt_group_rank_remote()).
 * @deadline: when a connect gives up (KTIME_MAX: never).
 *
 * The link the rank joined through (at the root), the link to the root
 * (a mirror, for the root's ranks), or one made to the rank's host (the
 * ranks of a third host). Process context, no lock held.
 *
 * Return: the link (a reference for the caller), or an ERR_PTR() of
 * hcclt_link_get().
 */
struct hcclt_link *hcclt_group_rank_link(struct hcclt_group *group, u32 rank,
					 ktime_t deadline)
{
	struct hcclt_link *link = NULL;
	struct hcclt_host host;

	mutex_lock(&hcclt_groups_lock);
	host = group->ranks[rank].host;
	if (group->ranks[rank].link)
		link = hcclt_link_ref(group->ranks[rank].link);
	else if (group->root &&
		 hcclt_host_eq(hcclt_link_peer(group->root), &host))
		link = hcclt_link_ref(group->root);
	mutex_unlock(&hcclt_groups_lock);
	return link ?: hcclt_link_get(&host, deadline);
}

/**
 * hcclt_group_find_remote - the group a channel message of another host
 * names.
 * @key: the group's key, from the message.
 * @from: where the message came from.
 * @rank: the sender's rank: a remote rank of the group on host @from.
 * @local: the receiver's rank: a rank of this host.
 *
 * For the channel rendezvous (hcclt_channel.c), which holds
 * hcclt_chan_lock: the group is only compared with its offers' groups,
 * never dereferenced by the caller.
 *
 * Return: the group, or NULL if no group of this host has @key with
 * those ranks.
 */
const struct hcclt_group *hcclt_group_find_remote(const u8 *key,
						  const struct hcclt_host *from,
						  u32 rank, u32 local)
{
	struct hcclt_group *group;

	mutex_lock(&hcclt_groups_lock);
	group = hcclt_group_find(key);
	if (group && (!group->ranks || rank >= group->nranks ||
		      local >= group->nranks ||
		      !group->ranks[rank].remote ||
		      !hcclt_host_eq(&group->ranks[rank].host, from) ||
		      !group->ranks[local].comm))
		group = NULL;
	mutex_unlock(&hcclt_groups_lock);
	return group;
}

/* The key of a live communicator's group (immutable). */
const u8 *hcclt_group_key(const struct hcclt_group *group)
{
	return group->key;
}

/**
 * hcclt_group_rank_device - the card of a rank of a complete group.
 * @group: the group of a live communicator of the caller (complete: every
 *	rank has joined, and a rank's @device stays once set).
 * @rank: a rank below its rank count.
 *
 * Return: the card number of the file that joined @rank.
 */
u32 hcclt_group_rank_device(struct hcclt_group *group, u32 rank)
{
	u32 device;

	mutex_lock(&hcclt_groups_lock);
	device = group->ranks[rank].device;
	mutex_unlock(&hcclt_groups_lock);
	return device;
}

/* Forget a remote rank of a group. Caller holds the lock. */
static void hcclt_group_remote_clear(struct hcclt_group *group, u32 rank)
{
	struct hcclt_group_rank *r = &group->ranks[rank];

	hcclt_link_put(r->link);
	r->link = NULL;
	r->remote = false;
	group->joined--;
}

/* JOIN at the root: let a rank of another host in, or refuse it. */
static void hcclt_group_msg_join(struct hcclt_link *link,
				 const struct hcclt_msg_join *m)
{
	u32 rank = le32_to_cpu(m->rank), nranks = le32_to_cpu(m->nranks);
	u32 device = le32_to_cpu(m->device);
	struct hcclt_group_rank *ranks = NULL, *r;
	struct hcclt_msg_refuse no = {};
	struct hcclt_group *group;
	int err = 0;
	u32 i;

	if (!nranks || nranks > HCCLT_MAX_GROUP_RANKS || rank >= nranks)
		err = EINVAL;
	else
		ranks = kcalloc(nranks, sizeof(*ranks), GFP_KERNEL_ACCOUNT);
	if (!err && !ranks)
		err = ENOMEM;

	mutex_lock(&hcclt_groups_lock);
	group = err ? NULL : hcclt_group_find(m->key);
	/* Only a group made here lets ranks in; a mirror is no root. */
	if (!err && (!group || group->root))
		err = ENOENT;
	if (!err)
		err = -hcclt_group_join_check(group, rank, nranks, U32_MAX);
	for (i = 0; !err && group->ranks && i < group->nranks; i++)
		if (group->ranks[i].remote && group->ranks[i].device == device &&
		    hcclt_host_eq(&group->ranks[i].host, hcclt_link_peer(link)))
			err = EBUSY;
	if (err) {
		mutex_unlock(&hcclt_groups_lock);
		kfree(ranks);
		memcpy(no.key, m->key, sizeof(no.key));
		no.rank = m->rank;
		no.err = cpu_to_le32(err);
		hcclt_link_send(link, HCCLT_MSG_REFUSE, &no, sizeof(no));
		return;
	}
	if (!group->ranks) {
		group->ranks = ranks;
		group->nranks = nranks;
		ranks = NULL;
	}
	r = &group->ranks[rank];
	r->remote = true;
	r->host = *hcclt_link_peer(link);
	r->link = hcclt_link_ref(link);
	r->device = device;
	if (++group->joined == group->nranks)
		hcclt_group_complete(group);
	mutex_unlock(&hcclt_groups_lock);
	kfree(ranks);
}

/* The mirror of @key whose root is at the other end of @link, if any. */
static struct hcclt_group *hcclt_group_mirror_find(struct hcclt_link *link,
						   const u8 *key)
{
	struct hcclt_group *group = hcclt_group_find(key);

	if (!group || !group->root ||
	    !hcclt_host_eq(hcclt_link_peer(group->root), hcclt_link_peer(link)))
		return NULL;
	return group;
}

/* TABLE at a mirror: where the ranks are; the last one completes it. */
static void hcclt_group_msg_table(struct hcclt_link *link,
				  const struct hcclt_msg_table *t)
{
	const struct hcclt_host *self = hcclt_cluster_self();
	u32 first = le32_to_cpu(t->first), count = le32_to_cpu(t->count);
	struct hcclt_group *group;
	u32 i;

	mutex_lock(&hcclt_groups_lock);
	group = hcclt_group_mirror_find(link, t->key);
	if (!group || group->state != HCCLT_GROUP_PENDING)
		goto out;
	if (le32_to_cpu(t->nranks) != group->nranks ||
	    count > HCCLT_MSG_TABLE_RANKS || first >= group->nranks ||
	    count > group->nranks - first) {
		hcclt_group_fail_err(group, -EPROTO);
		goto out;
	}
	for (i = 0; i < count; i++) {
		struct hcclt_group_rank *r = &group->ranks[first + i];
		struct hcclt_host h = {
			.addr = t->ranks[i].addr,
			.port = t->ranks[i].port,
		};

		if (hcclt_host_eq(&h, self)) {
			/* One of ours: it must still be here, on that card. */
			if (!r->comm ||
			    r->device != le32_to_cpu(t->ranks[i].device)) {
				hcclt_group_fail(group);
				goto out;
			}
			continue;
		}
		if (r->remote || r->comm) {
			hcclt_group_fail_err(group, -EPROTO);
			goto out;
		}
		r->remote = true;
		r->host = h;
		r->device = le32_to_cpu(t->ranks[i].device);
		group->joined++;
	}
	if (group->joined == group->nranks)
		hcclt_group_settle(group, HCCLT_GROUP_COMPLETE);
out:
	mutex_unlock(&hcclt_groups_lock);
}

/* REFUSE at a mirror: the root would not let a rank of ours in. */
static void hcclt_group_msg_refuse(struct hcclt_link *link,
				   const struct hcclt_msg_refuse *m)
{
	u32 err = le32_to_cpu(m->err);
	struct hcclt_group *group;

	mutex_lock(&hcclt_groups_lock);
	group = hcclt_group_mirror_find(link, m->key);
	if (group)
		hcclt_group_fail_err(group, err && err < MAX_ERRNO ?
				     -(int)err : -ECONNRESET);
	mutex_unlock(&hcclt_groups_lock);
}

/*
 * FAIL: the group failed on another host of it (its root, or the host of
 * one of its remote ranks).
 */
static void hcclt_group_msg_fail(struct hcclt_link *link,
				 const struct hcclt_msg_group *m)
{
	struct hcclt_group *group;
	u32 i;

	mutex_lock(&hcclt_groups_lock);
	group = hcclt_group_find(m->key);
	if (group && group->root) {
		if (!hcclt_group_mirror_find(link, m->key))
			group = NULL;
	} else if (group) {
		for (i = 0; group->ranks && i < group->nranks; i++)
			if (group->ranks[i].remote &&
			    hcclt_host_eq(&group->ranks[i].host,
					  hcclt_link_peer(link)))
				break;
		if (!group->ranks || i == group->nranks)
			group = NULL;
	}
	if (group)
		hcclt_group_fail(group);
	mutex_unlock(&hcclt_groups_lock);
}

/* LEAVE at the root: a rank of another host withdrew while pending. */
static void hcclt_group_msg_leave(struct hcclt_link *link,
				  const struct hcclt_msg_join *m)
{
	u32 rank = le32_to_cpu(m->rank);
	struct hcclt_group *group;

	mutex_lock(&hcclt_groups_lock);
	group = hcclt_group_find(m->key);
	if (group && !group->root && group->ranks && rank < group->nranks &&
	    group->ranks[rank].link &&
	    hcclt_host_eq(&group->ranks[rank].host, hcclt_link_peer(link))) {
		if (group->state != HCCLT_GROUP_COMPLETE)
			hcclt_group_remote_clear(group, rank);
		/* Last: it may free the group. */
		if (le32_to_cpu(m->flags) & HCCLT_MSG_LEAVE_FAIL)
			hcclt_group_fail(group);
	}
	mutex_unlock(&hcclt_groups_lock);
}

/**
 * hcclt_group_msg - a message about a group came on @link.
 * @link: the link, up.
 * @type: HCCLT_MSG_*.
 * @body: the message's body.
 * @len: its bytes.
 *
 * Called by the link's receive work (hcclt_link.c), with no lock held.
 * Anything malformed, or about a group this host does not share with the
 * sender, is dropped.
 */
void hcclt_group_msg(struct hcclt_link *link, u16 type, const void *body,
		     size_t len)
{
	switch (type) {
	case HCCLT_MSG_JOIN:
		if (len >= sizeof(struct hcclt_msg_join))
			hcclt_group_msg_join(link, body);
		break;
	case HCCLT_MSG_LEAVE:
		if (len >= sizeof(struct hcclt_msg_join))
			hcclt_group_msg_leave(link, body);
		break;
	case HCCLT_MSG_TABLE:
		if (len >= sizeof(struct hcclt_msg_table))
			hcclt_group_msg_table(link, body);
		break;
	case HCCLT_MSG_REFUSE:
		if (len >= sizeof(struct hcclt_msg_refuse))
			hcclt_group_msg_refuse(link, body);
		break;
	case HCCLT_MSG_FAIL:
		if (len >= sizeof(struct hcclt_msg_group))
			hcclt_group_msg_fail(link, body);
		break;
	default:
		pr_warn_ratelimited("hcclthread: link to %pI4: unknown message %u dropped\n",
				    &hcclt_link_peer(link)->addr, type);
		break;
	}
}

/**
 * hcclt_group_link_down - @link went down.
 * @link: the link, off the list of links.
 *
 * Fails every pending group that waits for the link's host (a mirror
 * whose root it was, a group made here with a rank that joined through
 * it), and forgets the ranks that joined through it. Walks every group
 * (a rare event); called from the link's teardown work with no lock held.
 */
void hcclt_group_link_down(struct hcclt_link *link)
{
	struct hcclt_group *group, *next;
	bool hit;
	u32 i;

	mutex_lock(&hcclt_groups_lock);
	list_for_each_entry_safe(group, next, &hcclt_groups, node) {
		hit = group->root == link;
		for (i = 0; group->ranks && i < group->nranks; i++) {
			if (group->ranks[i].link != link)
				continue;
			hit = true;
			/* A complete group's rank stays where it is. */
			if (group->state != HCCLT_GROUP_COMPLETE) {
				hcclt_group_remote_clear(group, i);
				continue;
			}
			hcclt_link_put(group->ranks[i].link);
			group->ranks[i].link = NULL;
		}
		/* Last: it may free the group. */
		if (hit)
			hcclt_group_fail(group);
	}
	mutex_unlock(&hcclt_groups_lock);
}

/**
 * hcclt_group_file_close - a file is closed: fail the groups it created
 * that are still pending.
 * @file: the file (postclose; no ioctl of it runs).
 */
void hcclt_group_file_close(struct hcclt_file *file)
{
	struct hcclt_group *group;

	mutex_lock(&hcclt_groups_lock);
	while ((group = list_first_entry_or_null(&file->groups,
						 struct hcclt_group, pnode)))
		hcclt_group_fail(group);
	mutex_unlock(&hcclt_groups_lock);
}

/*
 * A group is visible to CAP_SYS_ADMIN (as INFO's every-file view), and to
 * a caller of the euid of its creator or of one of its joined ranks.
 */
static bool hcclt_group_visible(struct hcclt_group *group, kuid_t euid,
				bool admin)
{
	u32 i;

	if (admin || (group->creator && uid_eq(group->creator_euid, euid)))
		return true;
	for (i = 0; i < group->nranks; i++)
		if (group->ranks[i].comm && uid_eq(group->ranks[i].euid, euid))
			return true;
	return false;
}

/* Has @group a rank on another host? Caller holds the lock. */
static bool hcclt_group_is_cluster(const struct hcclt_group *group)
{
	u32 i;

	if (group->root)
		return true;
	for (i = 0; group->ranks && i < group->nranks; i++)
		if (group->ranks[i].remote)
			return true;
	return false;
}

/* Copy @n entries out, with their hosts or (older callers) without. */
static int hcclt_group_info_copy(u64 uptr,
				 const struct drm_hcclt_group_rank_host *buf,
				 u32 n, bool hosts)
{
	void __user *p = u64_to_user_ptr(uptr);
	u32 i;

	if (hosts)
		return copy_to_user(p, buf, n * sizeof(*buf)) ? -EFAULT : 0;
	for (i = 0; i < n; i++)
		if (copy_to_user(p + i * sizeof(buf->info), &buf[i].info,
				 sizeof(buf->info)))
			return -EFAULT;
	return 0;
}

int hcclt_group_info_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df)
{
	struct drm_hcclt_group_info *args = data;
	bool hosts = args->flags & HCCLT_GROUP_INFO_HOSTS;
	const struct hcclt_host *self = hcclt_cluster_self();
	struct drm_hcclt_group_rank_host *buf = NULL, *e;
	kuid_t euid = current_euid();
	struct hcclt_group *group, *next;
	u32 cap, n = 0, i, batch = 0;
	int idx, ret = 0;
	bool admin, held;

	if (args->flags & ~HCCLT_GROUP_INFO_HOSTS)
		return -EINVAL;
	admin = capable(CAP_SYS_ADMIN);
	cap = min_t(u32, args->rank_count, HCCLT_GROUP_INFO_MAX_ENTRIES);
	if (cap) {
		buf = kvcalloc(cap, sizeof(*buf), GFP_KERNEL_ACCOUNT);
		if (!buf)
			return -ENOMEM;
	}

	/* Entered around the walk only: the copy out may wait for userspace. */
	if (!drm_dev_enter(drm, &idx)) {
		kvfree(buf);
		return -ENODEV;
	}
	mutex_lock(&hcclt_groups_lock);
	for (group = list_first_entry_or_null(&hcclt_groups,
					      struct hcclt_group, node);
	     group; group = next) {
		held = ++batch == HCCLT_GROUP_INFO_BATCH;
		if (held) {
			/* Held: it stays on the list while the lock is dropped. */
			batch = 0;
			group->holders++;
			mutex_unlock(&hcclt_groups_lock);
			cond_resched();
			mutex_lock(&hcclt_groups_lock);
		}
		next = list_is_last(&group->node, &hcclt_groups) ? NULL :
		       list_next_entry(group, node);
		if (held && group->holders == 1) {
			/* Only the walk holds it: no rank is left to list. */
			hcclt_group_unhold(group);
			continue;
		}
		if (held)
			group->holders--;
		if (!hcclt_group_visible(group, euid, admin))
			continue;
		for (i = 0; i < group->nranks; i++) {
			struct hcclt_group_rank *r = &group->ranks[i];

			if (!r->comm && !r->remote)
				continue;
			if (n < cap) {
				e = &buf[n];
				memcpy(e->info.name, group->name,
				       sizeof(e->info.name));
				e->info.rank = i;
				e->info.nranks = group->nranks;
				e->info.device = r->device;
				/* A remote rank: no process or id of this host. */
				e->info.pid = r->comm ? pid_vnr(r->pid) : 0;
				e->info.comm_id = r->comm ? r->comm_id : 0;
				e->info.state = group->state;
				e->info.joined = group->joined;
				e->remote = r->remote;
				if (r->remote) {
					e->host_addr = (__force u32)r->host.addr;
					e->host_port = (__force u16)r->host.port;
				} else if (self && hcclt_group_is_cluster(group)) {
					e->host_addr = (__force u32)self->addr;
					e->host_port = (__force u16)self->port;
				}
			}
			n++;
		}
	}
	mutex_unlock(&hcclt_groups_lock);
	drm_dev_exit(idx);

	if (cap && hcclt_group_info_copy(args->ranks_ptr, buf, min(n, cap),
					 hosts))
		ret = -EFAULT;
	else
		args->rank_count = n;
	kvfree(buf);
	return ret;
}
