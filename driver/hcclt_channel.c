// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: channels, kernel-owned cross-rank notifies
 * (HcclChannelAcquire, HcommChannelNotify{Record,Wait}OnThread).
 *
 * A channel is one side of a link between two ranks of a group: this
 * object, owned by its rank's communicator (comm->channels, ids of kind
 * HCCLT_ID_KIND_CHANNEL), with the notifies of its side taken from its
 * own device's pool, and references on the notifies of the peer's side,
 * which its records set (on the peer's device: hcclt_sched.c hands such a
 * record over to that device).
 *
 * CHANNEL_ACQUIRE is a pairwise rendezvous. Every descriptor of a call
 * becomes a channel object with its notifies and is offered in the
 * module-wide offer table, an rhashtable keyed by (group, engine family,
 * protocol, offering rank, remote rank): an offer looks up the peer's
 * matching offer by key and establishes both at once (both enter their
 * communicators' tables), or fails both on a notify count mismatch. The
 * call then waits, on a waitqueue of its own that settling any of its
 * offers wakes, until all its offers are settled; whatever is still
 * pending at its deadline, or on a signal, is withdrawn. Established pairs
 * stay established when another offer of the call fails; failed and
 * withdrawn ones give their notifies back. The offers of a call are
 * charged to its file's account (hcclt_limits.c, HCCLT_RES_OFFERS) while
 * the call runs, which bounds the table per user.
 *
 * When a communicator is torn down, hcclt_channel_comm_gone() fails the
 * offers of and to its rank (looked up by key: at most 2 families x 3
 * protocols x the group's ranks), and breaks every channel it has: the peer's
 * side is marked broken (new channel tasks on it are refused) and the
 * peer's notifies fail the waits parked on them with -ECONNRESET; its own
 * notifies go dead and back to its pool.
 *
 * hcclt_chan_lock (a mutex) protects the offer table, every channel's
 * @state, @err, @peer, @broken (written) and @wq, and every communicator's
 * @chan_seq and @chan_gone, and is held while channels enter a table.
 * Nothing under it grows with the number of offers or channels of other
 * communicators.
 * Channels to a rank of another host (Documentation/clusters.rst) have no
 * peer object here: each side offers over the link to the other host
 * (OFFER, with its channel's token, an id of hcclt_chan_tokens), and a
 * side whose pending offer meets the other's OFFER establishes and
 * answers ACCEPT, which establishes the other side (both OFFERs may
 * cross: each side then establishes on the other's). The peer's notifies
 * are proxies (hcclt_notify_proxy_new()) whose records go over the link
 * (hcclt_link_record()) as RECORD, which the receiver hands to its
 * notify's device as a record of another device. A side that goes (its
 * rank, its call giving up) sends BREAK; a link that goes down breaks
 * every channel over it. Data tasks on such channels are RDMA READs and
 * WRITEs of the link into ranges of the peer's HCCL buffer that its host
 * maps for each (hcclt_xfer.c), or of ranges the peer registered, which
 * its host lists (hcclt_channel_remote_mems()) and checks.
 *
 * Lock order: file->lock -> hcclt_chan_lock -> hcclt_groups_lock, and
 * hcclt_chan_lock -> hdev->sched_lock (of one device at a time) ->
 * hdev->xrec_lock. Notifies are made and given back (hdev->pool_lock)
 * with hcclt_chan_lock dropped. A table's xa_lock is a leaf.
 */

#include <linux/dma-buf.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/rhashtable.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "hcclt_drv.h"

/* enum hcclt_chan_state */
#define HCCLT_CHAN_NEW		0 /* made by a call, not offered */
#define HCCLT_CHAN_PENDING	1 /* on the offer list */
#define HCCLT_CHAN_ESTABLISHED	2 /* linked, in its communicator's table */
#define HCCLT_CHAN_FAILED	3 /* @err says why */

/* The two engine families of channels (multirank.md). */
#define HCCLT_FAMILY_CPU	0
#define HCCLT_FAMILY_AICPU	1

/**
 * struct hcclt_offer_key - what an offer is found by.
 * @group: the group of the offering communicator.
 * @family: HCCLT_FAMILY_*.
 * @protocol: HCCLT_PROTOCOL_*.
 * @from: the offering rank.
 * @to: the rank it is offered to.
 */
struct hcclt_offer_key {
	const struct hcclt_group *group;
	u32 family;
	u32 protocol;
	u32 from;
	u32 to;
};

/**
 * struct hcclt_channel - one side of a channel.
 * @ref: held by its communicator's table, by the acquiring call until it
 *	returns, and by lookups (SUBMIT).
 * @id: id in @comm->channels, once established; immutable then.
 * @comm: the communicator (reference held).
 * @hdev: its device.
 * @family: HCCLT_FAMILY_*; immutable.
 * @remote: the peer's rank; immutable.
 * @protocol: HCCLT_PROTOCOL_*; immutable.
 * @notify_num: notifies per side; immutable.
 * @state: HCCLT_CHAN_*; hcclt_chan_lock (READ_ONCE() by the waiting call).
 * @err: why it failed; hcclt_chan_lock.
 * @peer: the peer's side while both are established; hcclt_chan_lock.
 * @broken: the peer is gone; written under hcclt_chan_lock, READ_ONCE()
 *	by SUBMIT.
 * @okey: its key in the offer table; immutable.
 * @ohash: entry in the offer table while pending; hcclt_chan_lock.
 * @wq: the waitqueue of the call that offered it, woken when it settles,
 *	until that call returns; NULL otherwise; hcclt_chan_lock.
 * @onode: entry on hcclt_channel_comm_gone()'s list of channels to drop.
 * @rnotifies: the peer's @notify_num notifies (references held), set once
 *	established, immutable then.
 * @notifies: this side's @notify_num notifies; immutable.
 * @rlink: of a channel to another host, the link to it (reference held);
 *	NULL otherwise; immutable.
 * @token: of such a channel, its id in hcclt_chan_tokens, which the
 *	other host names it by; immutable.
 * @rtoken: the other side's token, once established; hcclt_chan_lock.
 * @cookie: of a channel to another host, a random secret every message
 *	to it must carry (tokens are ids, easy to guess); immutable.
 * @rcookie: the other side's cookie, from its OFFER or ACCEPT;
 *	hcclt_chan_lock.
 * @live: such a channel is established and in its communicator's table
 *	(its notifies valid); hcclt_chan_lock.
 */
struct hcclt_channel {
	struct kref ref;
	u64 id;
	struct hcclt_comm *comm;
	struct hcclt_device *hdev;
	u32 family;
	u32 remote;
	u32 protocol;
	u32 notify_num;
	u32 state;
	int err;
	struct hcclt_channel *peer;
	bool broken;
	struct hcclt_offer_key okey;
	struct rhash_head ohash;
	wait_queue_head_t *wq;
	struct list_head onode;
	struct hcclt_notify **rnotifies;
	struct hcclt_link *rlink;
	u32 token;
	u32 rtoken;
	u32 cookie;
	u32 rcookie;
	bool live;
	struct hcclt_notify *notifies[] __counted_by(notify_num);
};

/* protects the offer table and channel link state, see above */
static DEFINE_MUTEX(hcclt_chan_lock);
static struct rhashtable hcclt_chan_offers;
/*
 * Channels to other hosts by token (no reference: a channel leaves it in
 * its release; lookups take one with kref_get_unless_zero() under the
 * xarray's lock).
 */
static DEFINE_XARRAY_ALLOC1(hcclt_chan_tokens);
/*
 * The next token to try: tokens go round (xa_alloc_cyclic()), so that a
 * late message for a channel that is gone does not reach a new one.
 */
static u32 hcclt_chan_token_next_id;

static const struct rhashtable_params hcclt_offer_params = {
	.key_len = sizeof(struct hcclt_offer_key),
	.key_offset = offsetof(struct hcclt_channel, okey),
	.head_offset = offsetof(struct hcclt_channel, ohash),
	.automatic_shrinking = true,
};

/* The protocols a channel can have (hcclt_channel_descs_check()). */
static const u32 hcclt_chan_protocols[] = {
	HCCLT_PROTOCOL_HCCS, HCCLT_PROTOCOL_ROCE, HCCLT_PROTOCOL_UB_CTP,
};

int hcclt_channel_init(void)
{
	return rhashtable_init(&hcclt_chan_offers, &hcclt_offer_params);
}

/* No call runs any more: the table is empty. */
void hcclt_channel_fini(void)
{
	rhashtable_destroy(&hcclt_chan_offers);
}

/* The pending offer of this key; hcclt_chan_lock held. */
static struct hcclt_channel *hcclt_offer_find(const struct hcclt_group *group,
					      u32 family, u32 protocol,
					      u32 from, u32 to)
{
	const struct hcclt_offer_key key = {
		.group = group, .family = family, .protocol = protocol,
		.from = from, .to = to,
	};

	lockdep_assert_held(&hcclt_chan_lock);
	return rhashtable_lookup_fast(&hcclt_chan_offers, &key,
				      hcclt_offer_params);
}

static int hcclt_engine_family(u32 engine)
{
	switch (engine) {
	case HCCLT_ENGINE_CPU:
	case HCCLT_ENGINE_CPU_TS:
		return HCCLT_FAMILY_CPU;
	case HCCLT_ENGINE_AICPU:
	case HCCLT_ENGINE_AICPU_TS:
		return HCCLT_FAMILY_AICPU;
	default:
		return -EINVAL;
	}
}

void hcclt_channel_comm_init(struct hcclt_comm *comm)
{
	xa_init_flags(&comm->channels, XA_FLAGS_ALLOC);
}

static void hcclt_channel_release(struct kref *ref)
{
	struct hcclt_channel *c = container_of(ref, struct hcclt_channel, ref);
	u32 i;

	if (c->token)
		xa_erase(&hcclt_chan_tokens, c->token);
	hcclt_link_put(c->rlink);
	for (i = 0; i < c->notify_num; i++)
		if (c->rnotifies[i])
			hcclt_notify_put(c->rnotifies[i]);
	kfree(c->rnotifies);
	hcclt_comm_put(c->comm);
	kfree(c);
}

void hcclt_channel_put(struct hcclt_channel *chan)
{
	if (chan)
		kref_put(&chan->ref, hcclt_channel_release);
}

/*
 * Give this side's notifies back to the pool: waits still parked on them
 * fail with @err, records into them become no-ops. Once per channel.
 */
static void hcclt_channel_drop_notifies(struct hcclt_channel *c, int err)
{
	u32 i;

	for (i = 0; i < c->notify_num; i++) {
		if (err)
			hcclt_sched_notify_kill(c->notifies[i], err);
		hcclt_notify_drop_slot(c->notifies[i]);
		hcclt_notify_put(c->notifies[i]);
	}
	hcclt_usage_count(c->comm->file->usage, 0, 0, -(int)c->notify_num);
}

/*
 * A new channel for @d with its notifies, taking them from @resv; NULL on
 * no memory (or an ERR_PTR() of the backend).
 */
/*
 * The link and the peer's proxy notifies of @c, a new channel to a rank
 * of another host. Connects to that host if need be, until @deadline.
 */
static int hcclt_channel_new_remote(struct hcclt_channel *c, ktime_t deadline)
{
	struct hcclt_link *link;
	u32 i;
	int ret;

	link = hcclt_group_rank_link(c->comm->group, c->remote, deadline);
	if (IS_ERR(link))
		return PTR_ERR(link);
	c->rlink = link;
	c->cookie = get_random_u32();
	for (i = 0; i < c->notify_num; i++) {
		c->rnotifies[i] = hcclt_notify_proxy_new(c->hdev, link, i);
		if (!c->rnotifies[i])
			return -ENOMEM;
	}
	ret = xa_alloc_cyclic(&hcclt_chan_tokens, &c->token, c, xa_limit_32b,
			      &hcclt_chan_token_next_id, GFP_KERNEL_ACCOUNT);
	if (ret < 0)
		return ret == -EBUSY ? -ENOSPC : ret;
	return 0;
}

static struct hcclt_channel *
hcclt_channel_new(struct hcclt_comm *comm, u32 family,
		  const struct drm_hcclt_channel_desc *d,
		  struct hcclt_resv *resv, ktime_t deadline)
{
	struct hcclt_device *hdev = comm->file->hdev;
	struct hcclt_channel *c;
	struct hcclt_notify *n;
	int err;
	u32 i;

	c = kzalloc(struct_size(c, notifies, d->notify_num),
		    GFP_KERNEL_ACCOUNT);
	if (!c)
		return ERR_PTR(-ENOMEM);
	c->rnotifies = kcalloc(d->notify_num, sizeof(*c->rnotifies),
			       GFP_KERNEL_ACCOUNT);
	if (d->notify_num && !c->rnotifies) {
		kfree(c);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&c->ref);
	kref_get(&comm->ref);
	c->comm = comm;
	c->hdev = hdev;
	c->family = family;
	c->remote = d->remote_rank;
	c->protocol = d->protocol;
	c->notify_num = d->notify_num;
	c->state = HCCLT_CHAN_NEW;
	c->okey.group = comm->group;
	c->okey.family = family;
	c->okey.protocol = d->protocol;
	c->okey.from = comm->rank;
	c->okey.to = d->remote_rank;
	INIT_LIST_HEAD(&c->onode);
	for (i = 0; i < d->notify_num; i++) {
		n = hcclt_notify_new(hdev, 0, i, resv);
		if (IS_ERR(n)) {
			err = PTR_ERR(n);
			goto unwind;
		}
		n->chan = true;
		n->rank = comm->rank;
		n->peer = d->remote_rank;
		c->notifies[i] = n;
		n->group = kstrdup(hcclt_group_name(comm->group),
				   GFP_KERNEL_ACCOUNT);
		if (!n->group) {
			err = -ENOMEM;
			i++;
			goto unwind;
		}
	}
	/* The file's fdinfo counts them until hcclt_channel_drop_notifies(). */
	hcclt_usage_count(comm->file->usage, 0, 0, d->notify_num);
	if (hcclt_group_rank_remote(comm->group, c->remote)) {
		err = hcclt_channel_new_remote(c, deadline);
		if (err) {
			hcclt_channel_drop_notifies(c, 0);
			hcclt_channel_put(c);
			return ERR_PTR(err);
		}
	}
	return c;

unwind:
	while (i--) {
		hcclt_notify_drop_slot(c->notifies[i]);
		hcclt_notify_put(c->notifies[i]);
	}
	hcclt_channel_put(c);
	return ERR_PTR(err);
}

/* The established channel of @comm with this key; hcclt_chan_lock held. */
static struct hcclt_channel *hcclt_channel_find(struct hcclt_comm *comm,
						u32 family, u32 remote,
						u32 protocol)
{
	struct hcclt_channel *c;
	unsigned long idx;

	lockdep_assert_held(&hcclt_chan_lock);
	xa_for_each(&comm->channels, idx, c)
		if (c->family == family && c->remote == remote &&
		    c->protocol == protocol)
			return c;
	return NULL;
}

/*
 * @c (pending or new) leaves the offer table with @state; its call wakes.
 * hcclt_chan_lock held.
 */
static void hcclt_channel_settle(struct hcclt_channel *c, u32 state)
{
	if (c->state == HCCLT_CHAN_PENDING)
		rhashtable_remove_fast(&hcclt_chan_offers, &c->ohash,
				       hcclt_offer_params);
	WRITE_ONCE(c->state, state);
	if (c->wq)
		wake_up(c->wq);
}

/*
 * Settle @c (pending or new) as failed; hcclt_chan_lock held. A channel
 * to another host that was offered tells it (the other side may have
 * established on its offer).
 */
static void hcclt_channel_fail(struct hcclt_channel *c, int err)
{
	struct hcclt_msg_chan m = {};

	if (c->rlink && c->state == HCCLT_CHAN_PENDING && err != -EPROTO) {
		m.src = cpu_to_le32(c->token);
		m.src_cookie = cpu_to_le32(c->cookie);
		hcclt_link_send(c->rlink, HCCLT_MSG_CHAN_BREAK, &m, sizeof(m));
	}
	c->err = err;
	hcclt_channel_settle(c, HCCLT_CHAN_FAILED);
}

/*
 * Reserve @c's index in its communicator's table and give it its id;
 * hcclt_chan_lock held. The entry stays NULL to lookups until
 * hcclt_channel_publish(): SUBMIT must never find a half-linked channel.
 */
static int hcclt_channel_reserve(struct hcclt_channel *c)
{
	struct hcclt_comm *comm = c->comm;
	u32 idx, seq, i;
	int ret;

	ret = xa_alloc(&comm->channels, &idx, NULL,
		       XA_LIMIT(0, HCCLT_ID_INDEX_MASK), GFP_KERNEL_ACCOUNT);
	if (ret)
		return ret == -EBUSY ? -ENOSPC : ret;
	seq = comm->chan_seq++ & HCCLT_ID_SEQ_MASK;
	c->id = ((u64)HCCLT_ID_KIND_CHANNEL << HCCLT_ID_KIND_SHIFT) |
		((u64)seq << HCCLT_ID_SEQ_SHIFT) | idx;
	/* For tracing and the log: no task names them before this. */
	for (i = 0; i < c->notify_num; i++)
		c->notifies[i]->owner_id = c->id;
	return 0;
}

/*
 * Make the fully linked @c visible to lookups, with the table's reference.
 * The slot is reserved, so the store allocates nothing and cannot fail;
 * xa_store() under the xarray lock orders every field before the pointer.
 */
static void hcclt_channel_publish(struct hcclt_channel *c)
{
	kref_get(&c->ref);
	WARN_ON(xa_is_err(xa_store(&c->comm->channels, hcclt_id_index(c->id),
				   c, GFP_KERNEL_ACCOUNT)));
}

/* Link @a and @b, both pending or new; hcclt_chan_lock held. */
static int hcclt_channel_link(struct hcclt_channel *a, struct hcclt_channel *b)
{
	u32 i;
	int ret;

	ret = hcclt_channel_reserve(a);
	if (ret)
		return ret;
	ret = hcclt_channel_reserve(b);
	if (ret) {
		xa_release(&a->comm->channels, hcclt_id_index(a->id));
		return ret;
	}
	for (i = 0; i < a->notify_num; i++) {
		kref_get(&b->notifies[i]->ref);
		a->rnotifies[i] = b->notifies[i];
		kref_get(&a->notifies[i]->ref);
		b->rnotifies[i] = a->notifies[i];
		/* Who records them, for INFO (hcclt_sched_stream_state()). */
		a->notifies[i]->peer_dev = b->hdev->index;
		a->notifies[i]->peer_pid = get_pid(b->comm->file->pid);
		b->notifies[i]->peer_dev = a->hdev->index;
		b->notifies[i]->peer_pid = get_pid(a->comm->file->pid);
	}
	a->peer = b;
	b->peer = a;
	hcclt_channel_settle(a, HCCLT_CHAN_ESTABLISHED);
	hcclt_channel_settle(b, HCCLT_CHAN_ESTABLISHED);
	hcclt_channel_publish(a);
	hcclt_channel_publish(b);
	return 0;
}

/*
 * Establish @c, a pending channel to another host, with the other side's
 * channel @rtoken of cookie @rcookie; hcclt_chan_lock held.
 */
static int hcclt_channel_establish_remote(struct hcclt_channel *c, u32 rtoken,
					  u32 rcookie)
{
	u32 i;
	int ret;

	ret = hcclt_channel_reserve(c);
	if (ret)
		return ret;
	c->rtoken = rtoken;
	c->rcookie = rcookie;
	for (i = 0; i < c->notify_num; i++) {
		c->rnotifies[i]->rtoken = rtoken;
		c->rnotifies[i]->rcookie = rcookie;
		c->rnotifies[i]->rank = c->remote;
		/* The peer's card, on its host (hcclthread-smi names it). */
		c->notifies[i]->peer_dev =
			hcclt_group_rank_device(c->comm->group, c->remote);
	}
	hcclt_channel_settle(c, HCCLT_CHAN_ESTABLISHED);
	c->live = true;
	hcclt_channel_publish(c);
	return 0;
}

/* Offer @c, to a rank of another host, over its link; hcclt_chan_lock held. */
static void hcclt_channel_offer_remote(struct hcclt_comm *comm,
				       struct hcclt_channel *c)
{
	struct hcclt_msg_offer m = {};
	int ret;

	if (hcclt_offer_find(comm->group, c->family, c->protocol, comm->rank,
			     c->remote)) {
		hcclt_channel_fail(c, -EBUSY);
		return;
	}
	ret = rhashtable_insert_fast(&hcclt_chan_offers, &c->ohash,
				     hcclt_offer_params);
	if (ret) {
		hcclt_channel_fail(c, -ENOMEM);
		return;
	}
	WRITE_ONCE(c->state, HCCLT_CHAN_PENDING);
	memcpy(m.key, hcclt_group_key(comm->group), sizeof(m.key));
	m.family = cpu_to_le32(c->family);
	m.protocol = cpu_to_le32(c->protocol);
	m.from = cpu_to_le32(comm->rank);
	m.to = cpu_to_le32(c->remote);
	m.notify_num = cpu_to_le32(c->notify_num);
	m.token = cpu_to_le32(c->token);
	m.cookie = cpu_to_le32(c->cookie);
	if (hcclt_link_send(c->rlink, HCCLT_MSG_CHAN_OFFER, &m, sizeof(m)))
		hcclt_channel_fail(c, -ECONNRESET);
}

/*
 * Offer @c of @comm: establish it with the peer's matching offer, fail it,
 * or enter it in the offer table. hcclt_chan_lock held.
 */
static void hcclt_channel_offer(struct hcclt_comm *comm,
				struct hcclt_channel *c)
{
	struct hcclt_channel *match;
	int ret;

	if (c->rlink) {
		hcclt_channel_offer_remote(comm, c);
		return;
	}

	if (hcclt_offer_find(comm->group, c->family, c->protocol, comm->rank,
			     c->remote)) {
		/* Another call of this rank acquires it now. */
		hcclt_channel_fail(c, -EBUSY);
		return;
	}
	match = hcclt_offer_find(comm->group, c->family, c->protocol,
				 c->remote, comm->rank);
	if (!hcclt_group_rank_alive(comm->group, c->remote)) {
		hcclt_channel_fail(c, -ECONNRESET);
		return;
	}
	if (!match) {
		ret = rhashtable_insert_fast(&hcclt_chan_offers, &c->ohash,
					     hcclt_offer_params);
		if (ret)
			hcclt_channel_fail(c, -ENOMEM);
		else
			WRITE_ONCE(c->state, HCCLT_CHAN_PENDING);
		return;
	}
	if (match->notify_num != c->notify_num) {
		hcclt_channel_fail(match, -EPROTO);
		hcclt_channel_fail(c, -EPROTO);
		return;
	}
	ret = hcclt_channel_link(c, match);
	if (ret) {
		hcclt_channel_fail(match, ret);
		hcclt_channel_fail(c, ret);
	}
}

/* Are all @n channels of a call settled? Read without the lock. */
static bool hcclt_channels_settled(struct hcclt_channel **chans, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (chans[i] && READ_ONCE(chans[i]->state) == HCCLT_CHAN_PENDING)
			return false;
	return true;
}

/* Checks of the descriptors against the communicator (before any wait). */
static int hcclt_channel_descs_check(struct hcclt_comm *comm,
				     const struct drm_hcclt_channel_desc *d,
				     u32 n)
{
	u32 nranks = comm->group ? hcclt_group_nranks(comm->group) : 1;
	u32 rank = comm->group ? comm->rank : 0;
	u32 i, j;

	for (i = 0; i < n; i++) {
		if (d[i].pad ||
		    (d[i].protocol != HCCLT_PROTOCOL_HCCS &&
		     d[i].protocol != HCCLT_PROTOCOL_ROCE &&
		     d[i].protocol != HCCLT_PROTOCOL_UB_CTP) ||
		    d[i].notify_num > HCCLT_MAX_NOTIFIES_PER_CHANNEL)
			return -EINVAL;
		for (j = 0; j < i; j++)
			if (d[j].remote_rank == d[i].remote_rank &&
			    d[j].protocol == d[i].protocol)
				return -EINVAL;
		if (d[i].remote_rank == rank)
			return -EINVAL;
		if (d[i].remote_rank >= nranks)
			return -ERANGE;
		if (!comm->group)
			continue;
		/* Between hosts (superpods of their own) only RoCE. */
		if (hcclt_group_rank_remote(comm->group, d[i].remote_rank)) {
			if (d[i].protocol != HCCLT_PROTOCOL_ROCE)
				return -EXDEV;
			continue;
		}
		/* Between servers only the cluster layer's protocol. */
		if (d[i].protocol != hcclt_cluster_protocol() &&
		    hcclt_device_server(hcclt_group_rank_device(comm->group,
								d[i].remote_rank)) !=
		    hcclt_device_server(comm->file->hdev->index))
			return -EXDEV;
	}
	return 0;
}

/* The wait of a call for its offers, on its @wq; 0 when settled. */
static int hcclt_channels_wait(struct hcclt_channel **chans, u32 n,
			       s64 deadline_ns, wait_queue_head_t *wq)
{
	ktime_t left;
	long ret;

	if (hcclt_channels_settled(chans, n))
		return 0;
	left = ktime_sub(ns_to_ktime(deadline_ns), ktime_get());
	if (left <= 0)
		return -ETIME;
	ret = wait_event_interruptible_hrtimeout(*wq,
						 hcclt_channels_settled(chans, n),
						 left);
	return ret;
}

/*
 * Make, offer and wait for the channels of @d not established yet; fill
 * in the ids. Return: 0 or the error of the first descriptor that failed.
 */
static int hcclt_channel_acquire(struct drm_device *drm, struct hcclt_comm *comm,
				 u32 family, struct drm_hcclt_channel_desc *d,
				 u32 n, s64 deadline_ns)
{
	DECLARE_WAIT_QUEUE_HEAD_ONSTACK(wq);
	struct hcclt_device *hdev = comm->file->hdev;
	struct hcclt_acct *acct = comm->file->acct;
	struct hcclt_resv resv = {};
	struct hcclt_channel **chans, *c, *o;
	int ret = 0, wret, idx;
	u32 i, want = 0, offers = 0, charged = 0;

	chans = kcalloc(n, sizeof(*chans), GFP_KERNEL);
	if (!chans)
		return -ENOMEM;
	if (!drm_dev_enter(drm, &idx)) {
		kfree(chans);
		return -ENODEV;
	}

	mutex_lock(&hcclt_chan_lock);
	for (i = 0; i < n; i++) {
		c = hcclt_channel_find(comm, family, d[i].remote_rank,
				       d[i].protocol);
		if (c) {
			d[i].channel_id = c->id;
		} else {
			want += d[i].notify_num;
			offers++;
		}
	}
	mutex_unlock(&hcclt_chan_lock);

	ret = hcclt_charge(acct, HCCLT_RES_OFFERS, offers);
	if (ret)
		goto out_exit;
	charged = offers;
	ret = hcclt_pool_reserve(hdev, acct, 0, want);
	if (ret)
		goto out_exit;
	resv.acct = acct;
	resv.notifies = want;
	for (i = 0; i < n; i++) {
		if (d[i].channel_id)
			continue;
		c = hcclt_channel_new(comm, family, &d[i], &resv,
				      ns_to_ktime(deadline_ns));
		if (IS_ERR(c)) {
			ret = PTR_ERR(c);
			goto out_exit;
		}
		chans[i] = c;
	}

	mutex_lock(&hcclt_chan_lock);
	for (i = 0; i < n; i++) {
		c = chans[i];
		if (!c)
			continue;
		if (comm->chan_gone) {
			hcclt_channel_fail(c, -ENOENT);
			continue;
		}
		/* Established by another call meanwhile: use that one. */
		o = hcclt_channel_find(comm, family, c->remote, c->protocol);
		if (o) {
			d[i].channel_id = o->id;
			hcclt_channel_fail(c, -EAGAIN);
			continue;
		}
		c->wq = &wq;
		hcclt_channel_offer(comm, c);
	}
	mutex_unlock(&hcclt_chan_lock);
	drm_dev_exit(idx);

	wret = hcclt_channels_wait(chans, n, deadline_ns, &wq);

	mutex_lock(&hcclt_chan_lock);
	for (i = 0; i < n; i++) {
		c = chans[i];
		if (!c)
			continue;
		if (c->state == HCCLT_CHAN_PENDING)
			hcclt_channel_fail(c, wret ?: -ETIME);
		/* Settled: nobody wakes @wq after the lock is dropped. */
		c->wq = NULL;
		if (c->state == HCCLT_CHAN_ESTABLISHED)
			d[i].channel_id = c->id;
		else if (c->err != -EAGAIN && !ret)
			ret = c->err;
	}
	mutex_unlock(&hcclt_chan_lock);
	goto out_free;

out_exit:
	drm_dev_exit(idx);
out_free:
	for (i = 0; i < n; i++) {
		c = chans[i];
		if (!c)
			continue;
		/* Not established: nobody else saw its notifies. */
		if (c->state != HCCLT_CHAN_ESTABLISHED)
			hcclt_channel_drop_notifies(c, 0);
		hcclt_channel_put(c);
	}
	hcclt_pool_unreserve(hdev, acct, 0, resv.notifies);
	hcclt_uncharge(acct, HCCLT_RES_OFFERS, charged);
	kfree(chans);
	return ret;
}

int hcclt_channel_acquire_ioctl(struct drm_device *drm, void *data,
				struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_channel_acquire *args = data;
	struct drm_hcclt_channel_desc *d;
	struct hcclt_comm *comm;
	u32 n = args->desc_count, i;
	int family, ret;

	family = hcclt_engine_family(args->engine);
	if (args->flags || !n || n > HCCLT_MAX_CHANNEL_DESCS ||
	    args->desc_size != sizeof(*d) || args->deadline_ns < 0 ||
	    family < 0)
		return -EINVAL;

	d = kmalloc_array(n, sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	if (copy_from_user(d, u64_to_user_ptr(args->descs_ptr),
			   n * sizeof(*d))) {
		ret = -EFAULT;
		goto out;
	}
	/* Out only: a retry may pass the array of an earlier call. */
	for (i = 0; i < n; i++)
		d[i].channel_id = 0;
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm) {
		ret = -ENOENT;
		goto out;
	}
	ret = hcclt_channel_descs_check(comm, d, n);
	if (!ret)
		ret = hcclt_channel_acquire(drm, comm, family, d, n,
					    args->deadline_ns);
	hcclt_comm_put(comm);
	if (ret)
		goto out;
	for (i = 0; i < n; i++)
		if (put_user(d[i].channel_id,
			     &((struct drm_hcclt_channel_desc __user *)
			       u64_to_user_ptr(args->descs_ptr))[i].channel_id)) {
			ret = -EFAULT;
			break;
		}
out:
	kfree(d);
	return ret;
}

/**
 * hcclt_channel_lookup - find a channel of a communicator by id.
 * @comm: the communicator.
 * @id: the channel id.
 *
 * Return: the channel with a reference held, or NULL (unknown, stale, or
 * another communicator's).
 */
struct hcclt_channel *hcclt_channel_lookup(struct hcclt_comm *comm, u64 id)
{
	struct hcclt_channel *c;

	if (hcclt_id_kind(id) != HCCLT_ID_KIND_CHANNEL || (id >> 56))
		return NULL;
	xa_lock(&comm->channels);
	c = xa_load(&comm->channels, hcclt_id_index(id));
	if (c && c->id == id)
		kref_get(&c->ref);
	else
		c = NULL;
	xa_unlock(&comm->channels);
	return c;
}

/* Is @chan the channel of id @id? */
bool hcclt_channel_is(const struct hcclt_channel *chan, u64 id)
{
	return chan->id == id;
}

/**
 * hcclt_channel_task_notify - the notify a channel task of SUBMIT names.
 * @chan: the channel.
 * @engine: the engine of the submitting thread.
 * @op: HCCLT_TASK_CHANNEL_RECORD or HCCLT_TASK_CHANNEL_WAIT.
 * @idx: the notify index (user input).
 * @out: the notify, with a reference for the task.
 *
 * Return: 0, -EINVAL (engine family, index), -ECONNRESET (peer gone; for
 * a wait: and no record of it left on the notify).
 */
int hcclt_channel_task_notify(struct hcclt_channel *chan, u32 engine,
			      u32 op, u32 idx, struct hcclt_notify **out)
{
	struct hcclt_notify *n;

	if (hcclt_engine_family(engine) != (int)chan->family ||
	    idx >= chan->notify_num)
		return -EINVAL;
	idx = array_index_nospec(idx, chan->notify_num);
	n = op == HCCLT_TASK_CHANNEL_RECORD ? chan->rnotifies[idx] :
					      chan->notifies[idx];
	/*
	 * The peer is gone: nothing can be recorded to it, but a record it
	 * made before it went may still be on this side's notify (or on its
	 * way there, until hcclt_sched_notify_kill() lands it). A wait is
	 * queued unless the notify is dead with no record left: it then
	 * consumes the record when it runs, or fails with -ECONNRESET if an
	 * earlier wait took it.
	 */
	if (READ_ONCE(chan->broken) &&
	    (op != HCCLT_TASK_CHANNEL_WAIT || !hcclt_sched_notify_pending(n)))
		return -ECONNRESET;
	/* Lookups only find linked channels; this is defence in depth. */
	if (WARN_ON_ONCE(!n))
		return -ECONNRESET;
	kref_get(&n->ref);
	*out = n;
	return 0;
}

/**
 * hcclt_channel_task_check - may a thread of @engine queue a data task on
 * @chan?
 * @chan: the channel.
 * @engine: the engine of the submitting thread.
 *
 * Return: 0, -EINVAL (another engine family), -ECONNRESET (peer gone).
 */
int hcclt_channel_task_check(struct hcclt_channel *chan, u32 engine)
{
	if (hcclt_engine_family(engine) != (int)chan->family)
		return -EINVAL;
	return READ_ONCE(chan->broken) ? -ECONNRESET : 0;
}

/*
 * The link of @chan, a channel to another host, with a reference, and its
 * peer side's token and cookie; NULL when the peer is gone.
 */
static struct hcclt_link *hcclt_channel_remote(struct hcclt_channel *chan,
					       u32 *rtoken, u32 *rcookie)
{
	struct hcclt_link *link = NULL;

	mutex_lock(&hcclt_chan_lock);
	if (chan->live && !chan->broken) {
		link = hcclt_link_ref(chan->rlink);
		*rtoken = chan->rtoken;
		*rcookie = chan->rcookie;
	}
	mutex_unlock(&hcclt_chan_lock);
	return link;
}

/**
 * hcclt_channel_xfer_new - a transfer for a data task on a channel to a
 * rank of another host (hcclt_xfer.c).
 * @chan: the channel.
 * @rreg: the id of the range the peer registered that the task reaches
 *	(hcclt_channel_remote_mems()), or 0 for the peer's HCCL buffer.
 *
 * Return: the transfer, NULL when @chan is to a rank of this host,
 * ERR_PTR(-ECONNRESET) when the peer is gone, ERR_PTR(-ENOMEM).
 */
struct hcclt_xfer *hcclt_channel_xfer_new(struct hcclt_channel *chan,
					  u32 rreg)
{
	struct hcclt_link *link;
	struct hcclt_xfer *x;
	u32 rtoken, rcookie;

	if (!chan->rlink)
		return NULL;
	link = hcclt_channel_remote(chan, &rtoken, &rcookie);
	if (!link)
		return ERR_PTR(-ECONNRESET);
	x = hcclt_xfer_new(link, rtoken, rcookie, rreg);
	hcclt_link_put(link);
	return x;
}

/**
 * hcclt_channel_remote_mems - the ranges a channel's peer on another host
 * has registered (hcclt_xfer_mems()).
 * @chan: the channel.
 * @out: where the first @cap go.
 * @cap: entries of @out.
 * @n: out, how many there are.
 *
 * Return: 0, -ENOLINK (the peer is on this host), or an error of
 * hcclt_xfer_mems().
 */
int hcclt_channel_remote_mems(struct hcclt_channel *chan,
			      struct drm_hcclt_remote_mem *out, u32 cap,
			      u32 *n)
{
	struct hcclt_link *link;
	u32 rtoken, rcookie;
	int ret;

	if (!chan->rlink)
		return -ENOLINK;
	link = hcclt_channel_remote(chan, &rtoken, &rcookie);
	if (!link)
		return -ECONNRESET;
	ret = hcclt_xfer_mems(link, rtoken, rcookie, out, cap, n);
	hcclt_link_put(link);
	return ret;
}

/* The peer's buffer size on another host, made with @size if none yet. */
static int hcclt_channel_remote_buffer(struct hcclt_channel *chan, u64 size,
				       u64 *out)
{
	struct hcclt_link *link;
	u32 rtoken, rcookie;
	int ret;

	link = hcclt_channel_remote(chan, &rtoken, &rcookie);
	if (!link)
		return -ECONNRESET;
	ret = hcclt_xfer_buffer(link, rtoken, rcookie, size, out);
	hcclt_link_put(link);
	return ret;
}

/**
 * hcclt_channel_peer_buffer - the HCCL buffer of a channel's peer.
 * @chan: the channel.
 * @size: bytes to make it with if the peer has none yet; 0 not to.
 *
 * Return: the buffer with a reference held, ERR_PTR(-ECONNRESET) when the
 * peer is gone, ERR_PTR(-ENOBUFS) when it has no buffer (and @size is 0,
 * or above the capacity its device has left), ERR_PTR(-ENOMEM). Takes
 * hcclt_chan_lock, then (not nested) the peer communicator's lock.
 */
struct drm_gem_object *hcclt_channel_peer_buffer(struct hcclt_channel *chan,
						 u64 size)
{
	struct drm_gem_object *obj;
	struct hcclt_comm *pc = NULL;

	if (chan->rlink)
		return ERR_PTR(-EOPNOTSUPP);
	mutex_lock(&hcclt_chan_lock);
	if (chan->peer) {
		pc = chan->peer->comm;
		kref_get(&pc->ref);
	}
	mutex_unlock(&hcclt_chan_lock);
	if (!pc)
		return ERR_PTR(-ECONNRESET);
	obj = hcclt_comm_buffer_get(pc, size);
	hcclt_comm_put(pc);
	if (obj == ERR_PTR(-ENOENT))
		return ERR_PTR(-ECONNRESET);
	return obj;
}

/**
 * hcclt_channel_peer_comm - the communicator of a channel's peer.
 * @chan: the channel.
 *
 * Return: the communicator with a reference held, or NULL when the peer
 * is gone. Takes hcclt_chan_lock.
 */
struct hcclt_comm *hcclt_channel_peer_comm(struct hcclt_channel *chan)
{
	struct hcclt_comm *pc = NULL;

	mutex_lock(&hcclt_chan_lock);
	if (chan->peer) {
		pc = chan->peer->comm;
		kref_get(&pc->ref);
	}
	mutex_unlock(&hcclt_chan_lock);
	return pc;
}

/**
 * hcclt_channel_buffer_ioctl - DRM_IOCTL_HCCLT_CHANNEL_BUFFER.
 * @drm: the device.
 * @data: struct drm_hcclt_channel_buffer.
 * @df: the calling file.
 *
 * Exports the peer's HCCL buffer, made with @size on its device if it has
 * none yet, as a dma-buf (hcclt_mem_export(); the dma-buf holds the
 * object and its device), whose mmap() maps the buffer's pages until the
 * peer's communicator is torn down (hcclt_mem_revoke()). Memory
 * objects are shmem: no backend access, no drm_dev_enter() needed.
 *
 * Return: 0 or a negative errno (see the uAPI header).
 */
int hcclt_channel_buffer_ioctl(struct drm_device *drm, void *data,
			       struct drm_file *df)
{
	struct drm_hcclt_channel_buffer *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_gem_object *obj;
	struct hcclt_channel *chan;
	struct hcclt_comm *comm;
	struct dma_buf *buf;
	int fd, ret;

	args->fd = -1;
	if ((args->flags & ~HCCLT_CHANNEL_BUFFER_REMOTE) || args->pad)
		return -EINVAL;
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	chan = hcclt_channel_lookup(comm, args->channel_id);
	hcclt_comm_put(comm);
	if (!chan)
		return -ENOENT;
	/* uAPI 1.16: the size of a buffer on another host, no dma-buf. */
	if (chan->rlink && (args->flags & HCCLT_CHANNEL_BUFFER_REMOTE)) {
		ret = hcclt_channel_remote_buffer(chan, args->size,
						  &args->size);
		hcclt_channel_put(chan);
		return ret;
	}
	obj = hcclt_channel_peer_buffer(chan, args->size);
	hcclt_channel_put(chan);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	buf = hcclt_mem_export(obj);
	if (IS_ERR(buf)) {
		drm_gem_object_put(obj);
		return PTR_ERR(buf);
	}
	/* The dma-buf has its own reference now. */
	args->size = obj->size;
	drm_gem_object_put(obj);
	fd = dma_buf_fd(buf, O_CLOEXEC);
	if (fd < 0) {
		dma_buf_put(buf);
		return fd;
	}
	args->fd = fd;
	return 0;
}

/**
 * hcclt_channel_comm_gone - a rank's communicator is being torn down.
 * @comm: the communicator, with a group, still in it.
 *
 * Fails the offers of the rank and those made to it, breaks every channel
 * of it (the peers' waits on them fail with -ECONNRESET) and gives its own
 * notifies back. Called under file->lock, before the rank leaves its
 * group.
 */
void hcclt_channel_comm_gone(struct hcclt_comm *comm)
{
	u32 nranks = hcclt_group_nranks(comm->group);
	struct hcclt_channel *c, *tmp, *peer;
	unsigned long idx;
	LIST_HEAD(gone);
	u32 i, f, p, r;

	mutex_lock(&hcclt_chan_lock);
	comm->chan_gone = true;
	for (f = HCCLT_FAMILY_CPU; f <= HCCLT_FAMILY_AICPU; f++) {
		for (p = 0; p < ARRAY_SIZE(hcclt_chan_protocols); p++) {
			for (r = 0; r < nranks; r++) {
				c = hcclt_offer_find(comm->group, f,
						     hcclt_chan_protocols[p],
						     comm->rank, r);
				if (c)
					hcclt_channel_fail(c, -ENOENT);
				c = hcclt_offer_find(comm->group, f,
						     hcclt_chan_protocols[p],
						     r, comm->rank);
				if (c)
					hcclt_channel_fail(c, -ECONNRESET);
			}
		}
	}
	xa_for_each(&comm->channels, idx, c) {
		xa_erase(&comm->channels, idx);
		list_add_tail(&c->onode, &gone);
		if (c->rlink) {
			struct hcclt_msg_chan m = {};

			/* The other host's side breaks. */
			c->live = false;
			m.src = cpu_to_le32(c->token);
			m.src_cookie = cpu_to_le32(c->cookie);
			hcclt_link_send(c->rlink, HCCLT_MSG_CHAN_BREAK, &m,
					sizeof(m));
			continue;
		}
		peer = c->peer;
		if (!peer)
			continue;
		c->peer = NULL;
		peer->peer = NULL;
		WRITE_ONCE(peer->broken, true);
		for (i = 0; i < peer->notify_num; i++)
			hcclt_sched_notify_kill(peer->notifies[i], -ECONNRESET);
	}
	mutex_unlock(&hcclt_chan_lock);

	list_for_each_entry_safe(c, tmp, &gone, onode) {
		list_del_init(&c->onode);
		hcclt_channel_drop_notifies(c, -ECANCELED);
		hcclt_channel_put(c);
	}
	xa_destroy(&comm->channels);
}

/* ---- channels between hosts: messages of hcclt_link.c ---- */

/*
 * The next channel to another host at or after token *@idx for which
 * @match holds, with a reference; NULL when none is left.
 */
static struct hcclt_channel *
hcclt_chan_token_next(unsigned long *idx,
		      bool (*match)(const struct hcclt_channel *c,
				    const void *arg),
		      const void *arg)
{
	struct hcclt_channel *c;

	xa_lock(&hcclt_chan_tokens);
	xa_for_each_start(&hcclt_chan_tokens, *idx, c, *idx) {
		if (match(c, arg) && kref_get_unless_zero(&c->ref))
			break;
	}
	xa_unlock(&hcclt_chan_tokens);
	return c;
}

/* The channel of token @token over a link to @from, with a reference. */
static struct hcclt_channel *hcclt_chan_token_get(u32 token,
						  const struct hcclt_host *from)
{
	const struct hcclt_host *h;
	struct hcclt_channel *c;

	xa_lock(&hcclt_chan_tokens);
	c = xa_load(&hcclt_chan_tokens, token);
	if (c) {
		h = hcclt_link_peer(c->rlink);
		if (h->addr != from->addr || h->port != from->port ||
		    !kref_get_unless_zero(&c->ref))
			c = NULL;
	}
	xa_unlock(&hcclt_chan_tokens);
	return c;
}

/**
 * hcclt_channel_xfer_comm - the communicator whose HCCL buffer a data
 * message of another host is about.
 * @link: the link it came on.
 * @token: the channel it names.
 * @cookie: the cookie it carries.
 *
 * Return: the communicator of the channel @token, with a reference, when
 * that channel is live, over a link to the sender's host, and @cookie is
 * its cookie; NULL otherwise. Takes hcclt_chan_lock.
 */
struct hcclt_comm *hcclt_channel_xfer_comm(struct hcclt_link *link, u32 token,
					   u32 cookie)
{
	struct hcclt_comm *comm = NULL;
	struct hcclt_channel *c;

	c = hcclt_chan_token_get(token, hcclt_link_peer(link));
	if (!c)
		return NULL;
	mutex_lock(&hcclt_chan_lock);
	if (c->live && !c->broken && cookie == c->cookie) {
		comm = c->comm;
		kref_get(&comm->ref);
	}
	mutex_unlock(&hcclt_chan_lock);
	hcclt_channel_put(c);
	return comm;
}

/* A live channel loses its peer: its waits fail; hcclt_chan_lock held. */
static void hcclt_channel_break(struct hcclt_channel *c)
{
	u32 i;

	if (c->state == HCCLT_CHAN_PENDING) {
		hcclt_channel_fail(c, -ECONNRESET);
		return;
	}
	if (!c->live || c->broken)
		return;
	WRITE_ONCE(c->broken, true);
	for (i = 0; i < c->notify_num; i++)
		hcclt_sched_notify_kill(c->notifies[i], -ECONNRESET);
}

/* OFFER: meet this host's pending offer, if it has one yet. */
static void hcclt_channel_msg_offer(struct hcclt_link *link,
				    const struct hcclt_msg_offer *m)
{
	const struct hcclt_host *from = hcclt_link_peer(link);
	u32 rank = le32_to_cpu(m->from), local = le32_to_cpu(m->to);
	struct hcclt_msg_chan r = {};
	const struct hcclt_group *group;
	struct hcclt_channel *c;
	int err;

	mutex_lock(&hcclt_chan_lock);
	group = hcclt_group_find_remote(m->key, from, rank, local);
	c = group ? hcclt_offer_find(group, le32_to_cpu(m->family),
				     le32_to_cpu(m->protocol), local, rank) :
		    NULL;
	/* None yet: this side's own OFFER will find the other's pending. */
	if (!c || !c->rlink) {
		mutex_unlock(&hcclt_chan_lock);
		return;
	}
	r.dst = m->token;
	r.src = cpu_to_le32(c->token);
	r.dst_cookie = m->cookie;
	r.src_cookie = cpu_to_le32(c->cookie);
	if (le32_to_cpu(m->notify_num) != c->notify_num) {
		err = -EPROTO;
		hcclt_channel_fail(c, err);
	} else {
		err = hcclt_channel_establish_remote(c, le32_to_cpu(m->token),
						     le32_to_cpu(m->cookie));
		if (err)
			hcclt_channel_fail(c, err);
	}
	r.err = cpu_to_le32(-err);
	/* On the channel's link: its RECORDs and BREAK come after, in order. */
	hcclt_link_send(c->rlink, err ? HCCLT_MSG_CHAN_REJECT :
			HCCLT_MSG_CHAN_ACCEPT, &r, sizeof(r));
	mutex_unlock(&hcclt_chan_lock);
}

/* ACCEPT or REJECT of this side's offer. */
static void hcclt_channel_msg_answer(struct hcclt_link *link, u16 type,
				     const struct hcclt_msg_chan *m)
{
	struct hcclt_channel *c;
	struct hcclt_msg_chan b = {};
	u32 err = le32_to_cpu(m->err);
	int ret;

	c = hcclt_chan_token_get(le32_to_cpu(m->dst), hcclt_link_peer(link));
	if (!c)
		return;
	mutex_lock(&hcclt_chan_lock);
	if (c->state == HCCLT_CHAN_PENDING &&
	    le32_to_cpu(m->dst_cookie) == c->cookie) {
		if (type == HCCLT_MSG_CHAN_REJECT) {
			hcclt_channel_fail(c, err && err < MAX_ERRNO ?
					   -(int)err : -ECONNRESET);
		} else {
			ret = hcclt_channel_establish_remote(c,
							     le32_to_cpu(m->src),
							     le32_to_cpu(m->src_cookie));
			if (ret) {
				/* The other side established: it breaks. */
				b.src = cpu_to_le32(c->token);
				b.src_cookie = cpu_to_le32(c->cookie);
				hcclt_link_send(c->rlink, HCCLT_MSG_CHAN_BREAK,
						&b, sizeof(b));
				hcclt_channel_fail(c, ret);
			}
		}
	}
	mutex_unlock(&hcclt_chan_lock);
	hcclt_channel_put(c);
}

struct hcclt_chan_from {
	const struct hcclt_host *host;
	u32 rtoken;
	u32 rcookie;
	const struct hcclt_link *link;
};

static bool hcclt_chan_is_peer(const struct hcclt_channel *c, const void *arg)
{
	const struct hcclt_chan_from *f = arg;
	const struct hcclt_host *h = hcclt_link_peer(c->rlink);

	if (f->link)
		return c->rlink == f->link;
	return h->addr == f->host->addr && h->port == f->host->port &&
	       c->rtoken == f->rtoken && c->rcookie == f->rcookie;
}

/*
 * Break this host's channels that match @f: those whose other side is
 * channel @f->rtoken of @f->host (BREAK), or every channel over
 * @f->link.
 */
static void hcclt_channel_break_all(const struct hcclt_chan_from *f)
{
	unsigned long idx = 0;
	struct hcclt_channel *c;

	while ((c = hcclt_chan_token_next(&idx, hcclt_chan_is_peer, f))) {
		mutex_lock(&hcclt_chan_lock);
		/* An offer that never met the other side is not broken by it. */
		if (f->link || c->state != HCCLT_CHAN_PENDING)
			hcclt_channel_break(c);
		mutex_unlock(&hcclt_chan_lock);
		hcclt_channel_put(c);
		idx++;
	}
}

/* RECORD: the other side recorded into this side's notify. */
static void hcclt_channel_msg_record(struct hcclt_link *link,
				     const struct hcclt_msg_record *m)
{
	u32 idx = le32_to_cpu(m->idx), count = le32_to_cpu(m->count);
	struct hcclt_channel *c;

	c = hcclt_chan_token_get(le32_to_cpu(m->dst), hcclt_link_peer(link));
	if (!c)
		return;
	/* Live: in its communicator's table, its notifies valid. */
	mutex_lock(&hcclt_chan_lock);
	if (c->live && idx < c->notify_num &&
	    le32_to_cpu(m->cookie) == c->cookie)
		hcclt_xrec_remote(c->notifies[array_index_nospec(idx,
								 c->notify_num)],
				  min(count, 2U));
	mutex_unlock(&hcclt_chan_lock);
	hcclt_channel_put(c);
}

/**
 * hcclt_channel_msg - a message about a channel came on @link.
 * @link: the link, up.
 * @type: HCCLT_MSG_CHAN_* or HCCLT_MSG_RECORD.
 * @body: the message's body.
 * @len: its bytes.
 *
 * Called by the link's receive work, with no lock held. A message about
 * a channel or group this host does not share with the sender is
 * dropped.
 */
void hcclt_channel_msg(struct hcclt_link *link, u16 type, const void *body,
		       size_t len)
{
	struct hcclt_chan_from f = { .host = hcclt_link_peer(link) };

	switch (type) {
	case HCCLT_MSG_CHAN_OFFER:
		if (len >= sizeof(struct hcclt_msg_offer))
			hcclt_channel_msg_offer(link, body);
		break;
	case HCCLT_MSG_CHAN_ACCEPT:
	case HCCLT_MSG_CHAN_REJECT:
		if (len >= sizeof(struct hcclt_msg_chan))
			hcclt_channel_msg_answer(link, type, body);
		break;
	case HCCLT_MSG_CHAN_BREAK:
		if (len >= sizeof(struct hcclt_msg_chan)) {
			const struct hcclt_msg_chan *b = body;

			f.rtoken = le32_to_cpu(b->src);
			f.rcookie = le32_to_cpu(b->src_cookie);
			hcclt_channel_break_all(&f);
		}
		break;
	case HCCLT_MSG_RECORD:
		if (len >= sizeof(struct hcclt_msg_record))
			hcclt_channel_msg_record(link, body);
		break;
	default:
		pr_warn_ratelimited("hcclthread: link to %pI4: unknown message %u dropped\n",
				    &f.host->addr, type);
		break;
	}
}

/**
 * hcclt_channel_link_down - @link went down: break every channel over it.
 * @link: the link, off the list of links.
 *
 * Pending offers over it fail with -ECONNRESET, established channels
 * break (their waits fail with -ECONNRESET), as when a peer on this host
 * goes. Called from the link's teardown work with no lock held.
 */
void hcclt_channel_link_down(struct hcclt_link *link)
{
	struct hcclt_chan_from f = { .link = link };

	hcclt_channel_break_all(&f);
}
