// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: links to the drivers of other hosts, RC connections of the
 * kernel's RDMA stack (rdma_cm and verbs), modelled on net/9p/trans_rdma.c.
 *
 * The module parameter cluster_addr ("A.B.C.D" or "A.B.C.D:PORT", port
 * HCCLT_CLUSTER_PORT by default) turns clusters on: at load the driver
 * binds an rdma_cm listener there (the load fails if no RDMA device has
 * that address). A link is made on demand by hcclt_link_get(), which
 * connects to another host's listener, or by that listener accepting a
 * connection; either way it is one RC QP with its own protection domain
 * and two completion queues (receives polled in a work item, as their
 * handlers sleep; sends in softirq context, where their buffers are
 * freed). Links stay up once made and are shared by everything that
 * talks to that host; a host may have two (both sides connected at once),
 * either of which carries any message.
 *
 * Messages are SENDs of at most HCCLT_MSG_BYTES into one of the
 * HCCLT_LINK_RECVS receive buffers of the peer, reposted as soon as the
 * message was handled; a sender that finds none posted is held back by
 * the RNR retries of the QP (rnr_retry_count 7: no limit), never failed.
 * hcclt_link_send() never waits: it queues the message on the link's
 * outbox, which the link's send work posts, in order, as send credits
 * (HCCLT_LINK_SENDS in flight) allow; callers may hold the driver's
 * module mutexes.
 * A link that fails (disconnect, a completion error, the RDMA device
 * removed) goes down for good: it leaves the list, the objects that use
 * it are told (hcclt_group_link_down()), and its QP, queues and id are
 * destroyed by a work item; the struct itself goes with its last
 * reference.
 *
 * Links are capped: max_links in all (module parameter),
 * HCCLT_LINKS_PER_HOST per peer address, HCCLT_LINK_CONNECTS_PER_USER
 * connects in progress per user; a connect's link is charged to the
 * memory cgroup of the user whose call makes it.
 *
 * Locks: hcclt_links_lock (mutex) protects the list of links and that of
 * connects in progress, and is held to find or enter one; nothing else
 * is taken under it. link->lock
 * (spinlock, softirq-safe) protects a link's @state, send credits, outbox
 * and record queue, and is held around ib_post_send(), so that no send is
 * posted once the link is down; it is a leaf. Handlers of received
 * messages run in the receive queue's work item with no lock of this file
 * held and may take the driver's module mutexes (never for long: nothing
 * under them waits for a link); the teardown, which waits for that work
 * item (ib_drain_qp(), ib_free_cq()), runs in a work item of its own with
 * no lock held, and tells the groups and channels only once the QP is
 * drained (no message is handled after that).
 */

#include <linux/inet.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/rwsem.h>
#include <linux/scatterlist.h>
#include <linux/semaphore.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/rw.h>

#include "hcclt_drv.h"

/* Default port of the listener (HCCL's own host port range starts at 60000). */
#define HCCLT_CLUSTER_PORT	60000
/*
 * Receive buffers posted per link; sends in flight per link. The queues
 * have one entry more, for ib_drain_qp()'s own work request. Receives are
 * three times the peer's sends: a receive work that sleeps (an XMAP waits
 * for its registration) should not leave the peer's SENDs without a
 * buffer (each RNR retry costs the peer a retry delay).
 */
#define HCCLT_LINK_RECVS	96
#define HCCLT_LINK_SENDS	32
/*
 * RDMA READs and WRITEs of data tasks (hcclt_link_rdma()) in flight per
 * link, each of at most HCCLT_XFER_CHUNK bytes (one work request per
 * HCCLT_LINK_SGE pages). The send queue has room for all of them besides
 * the messages.
 */
#define HCCLT_LINK_RDMA		HCCLT_XFER_WINDOW
#define HCCLT_LINK_SGE		32
/* Pages of one RDMA operation at most (a chunk, unaligned). */
#define HCCLT_LINK_OP_PAGES	(HCCLT_XFER_CHUNK / PAGE_SIZE + 1)
/* Address and route resolution, each (rdma_cm's own timeouts). */
#define HCCLT_LINK_RESOLVE_MS	2000
/*
 * Links to or from one host address at most: two crossing connects make
 * two, and a peer that takes more (a local user of that host posing as
 * its driver, say) takes no more than that.
 */
#define HCCLT_LINKS_PER_HOST	4
/*
 * Connects one user may have in progress at once: a host that does not
 * answer holds one until its deadline, and the user's next ones, beyond
 * this, fail at once instead of taking the slots of max_links from others.
 */
#define HCCLT_LINK_CONNECTS_PER_USER	4
/*
 * Local ACK timeout of the QP, 4.096 us * 2^N: 2^16 * 4.096 us = 268 ms,
 * times the 7 retries of the connection: a host gone is seen within
 * about 2 s. 6.1's rxe retransmits on a slow (emulated) CPU when it is
 * left at its default of 14 (67 ms).
 */
#define HCCLT_LINK_ACK_TIMEOUT	16
/*
 * A link with nothing to say sends a BEAT this often, so that a host that
 * is gone (no disconnect: its power, its network) fails the QP, and the
 * link, within the retry bound above even when nothing else is sent.
 */
#define HCCLT_LINK_BEAT		(HZ / 2)
/*
 * Beats in a row with sends in flight, none completed and no message
 * received after which the peer is taken for gone: 3 s of silence, seen
 * 3 to 3.5 s after the peer went (the first beat after it may still see
 * progress). The QP's own retries should fail the sends first, but a
 * passive side's QP may have been given no ACK timeout (measured with rxe
 * on 6.12: none failed in 120 s): this bounds it.
 */
#define HCCLT_LINK_SILENT	6

static char *cluster_addr = "";
module_param(cluster_addr, charp, 0444);
MODULE_PARM_DESC(cluster_addr,
		 "IPv4[:port] on an RDMA device at which this host's driver meets those of other hosts (empty: no cluster)");

/*
 * Links at most, both ways, connecting ones included (each holds a QP, a
 * PD, two CQs and about 70 KB of buffers): a connect beyond it fails with
 * -EMFILE, a connection request beyond it is rejected.
 */
static unsigned int max_links = 64;
module_param(max_links, uint, 0644);
MODULE_PARM_DESC(max_links,
		 "links to other hosts' drivers at most, both ways (default 64)");

/* enum hcclt_link_state */
#define HCCLT_LINK_CONNECTING	0
#define HCCLT_LINK_UP		1
#define HCCLT_LINK_DOWN		2

/**
 * struct hcclt_rx - one receive buffer of a link.
 * @cqe: its completion.
 * @link: the link.
 * @dma: DMA address of @buf.
 * @buf: the message.
 */
struct hcclt_rx {
	struct ib_cqe cqe;
	struct hcclt_link *link;
	u64 dma;
	/* DMA target: a cache line of its own (non-coherent platforms). */
	u8 buf[HCCLT_MSG_BYTES] ____cacheline_aligned;
};

/**
 * struct hcclt_tx - one message being sent.
 * @node: entry in the link's @outbox until posted; link->lock.
 * @cqe: its completion.
 * @link: the link (alive until the QP is drained, which waits for this).
 * @dma: DMA address of @buf.
 * @len: bytes of @buf sent.
 * @buf: the message.
 */
struct hcclt_tx {
	struct list_head node;
	struct ib_cqe cqe;
	struct hcclt_link *link;
	u64 dma;
	u32 len;
	u8 buf[HCCLT_MSG_BYTES];
};

/**
 * struct hcclt_link - an RC connection to another host's driver.
 * @ref: held by the list while the link is on it, by each user
 *	(hcclt_link_get(), hcclt_link_ref()), and by a connect in progress.
 * @node: entry in hcclt_links; hcclt_links_lock.
 * @peer: where the other host's driver listens; set before the link is
 *	listed, immutable then.
 * @id: the rdma_cm id; destroyed by the teardown.
 * @pd: protection domain of @id's device.
 * @rcq: receive completion queue (IB_POLL_WORKQUEUE).
 * @scq: send completion queue (IB_POLL_SOFTIRQ).
 * @rx: the HCCLT_LINK_RECVS receive buffers.
 * @lock: @state and @sq_free; a leaf.
 * @state: HCCLT_LINK_*.
 * @sq_free: sends that may still be posted.
 * @sq_done: sends completed, ever.
 * @rx_done: messages received, ever (the receive work).
 * @beat_done: @sq_done + @rx_done at the last beat (the beat's own).
 * @beat_silent: beats in a row that found sends in flight and none done
 *	since the last (the beat's own).
 * @outbox: messages to post (struct hcclt_tx); @lock.
 * @send_work: posts them (hcclt_link_send_work()).
 * @cm_done: a step of an outgoing connect has ended (@cm_err).
 * @cm_err: how it ended: 0, or a negative errno.
 * @down_work: tears the link down (hcclt_link_down_work()).
 * @beat: sends BEAT every HCCLT_LINK_BEAT while the link is up.
 * @recs: proxy notifies of channels to the peer with records to send
 *	(their xnode, counted in their xcount); @lock.
 * @rec_work: sends them (hcclt_link_rec_work()).
 * @reqs: this host's requests waiting for their REPLY (struct
 *	hcclt_link_req), by id; its own lock.
 * @req_next: the next id of @reqs (xa_alloc_cyclic()); @reqs' lock.
 * @maps: ranges of this host the peer may reach, by the id of the
 *	peer's XMAP (hcclt_xfer.c); written by the receive work only.
 * @xslots: chunks of data tasks this host may still have in flight on
 *	the link (HCCLT_XFER_WINDOW; hcclt_link_xfer_begin()).
 * @reg_qp: a QP of @pd that only registers memory (hcclt_link_mr_reg()),
 *	made by the first registration: see hcclt_link_reg_qp().
 * @qp_sem: held for reading by hcclt_link_rdma() from its post to the
 *	destruction of its context; the teardown takes it for writing, once
 *	drained, before it destroys the QP.
 * @accepted: made by the listener; immutable.
 * @connecting: an outgoing connect waits for its steps (@cm_done); set
 *	and cleared by hcclt_link_connect().
 * @cnode: entry in hcclt_connects while hcclt_link_connect() runs;
 *	hcclt_links_lock.
 * @uid: the user whose call connects it; immutable.
 * @connect_err: how its connect ended (0: up), once @connect_over.
 * @connect_over: its connect ended (smp_store_release() after
 *	@connect_err; hcclt_connects_wq is woken).
 * @down_queued: the teardown was queued; @lock.
 * @listed: on hcclt_links; hcclt_links_lock.
 */
struct hcclt_link {
	struct kref ref;
	struct list_head node;
	struct hcclt_host peer;
	struct rdma_cm_id *id;
	struct ib_pd *pd;
	struct ib_cq *rcq;
	struct ib_cq *scq;
	struct hcclt_rx *rx;
	spinlock_t lock;	/* @state, @sq_free */
	u32 state;
	u32 sq_free;
	u64 sq_done;
	u64 rx_done;
	u64 beat_done;
	u32 beat_silent;
	struct list_head outbox;
	struct work_struct send_work;
	struct completion cm_done;
	int cm_err;
	struct work_struct down_work;
	struct delayed_work beat;
	struct list_head recs;
	struct work_struct rec_work;
	struct xarray reqs;
	u32 req_next;
	struct xarray maps;
	struct semaphore xslots;
	struct ib_qp *reg_qp;
	struct rw_semaphore qp_sem;
	bool accepted;
	bool connecting;
	bool down_queued;
	bool listed;
	struct list_head cnode;
	kuid_t uid;
	int connect_err;
	bool connect_over;
};

/* protects hcclt_links, hcclt_connects, every link's node, cnode, listed */
static DEFINE_MUTEX(hcclt_links_lock);
static LIST_HEAD(hcclt_links);
/* Outgoing connects in progress (HCCLT_LINK_CONNECTS_PER_USER). */
static LIST_HEAD(hcclt_connects);
/* Woken when a connect ends (hcclt_link_get() waits for one per host). */
static DECLARE_WAIT_QUEUE_HEAD(hcclt_connects_wq);
/* Links that exist, from their allocation to their release (max_links). */
static atomic_t hcclt_nlinks = ATOMIC_INIT(0);
static struct hcclt_host hcclt_self;
static struct rdma_cm_id *hcclt_listener;
static struct workqueue_struct *hcclt_link_wq;

const struct hcclt_host *hcclt_cluster_self(void)
{
	return hcclt_self.addr ? &hcclt_self : NULL;
}

const struct hcclt_host *hcclt_link_peer(const struct hcclt_link *link)
{
	return &link->peer;
}

static void hcclt_link_release(struct kref *ref)
{
	struct hcclt_link *link = container_of(ref, struct hcclt_link, ref);

	xa_destroy(&link->reqs);
	xa_destroy(&link->maps);
	kfree(link->rx);
	kfree(link);
	atomic_dec(&hcclt_nlinks);
}

struct hcclt_link *hcclt_link_ref(struct hcclt_link *link)
{
	kref_get(&link->ref);
	return link;
}

void hcclt_link_put(struct hcclt_link *link)
{
	if (link)
		kref_put(&link->ref, hcclt_link_release);
}

static void hcclt_link_fail(struct hcclt_link *link);
static void hcclt_link_reply(struct hcclt_link *link, const void *body,
			     size_t len);
static void hcclt_link_reqs_fail(struct hcclt_link *link);
static int hcclt_link_up(struct hcclt_link *link);
static void hcclt_link_rec_work(struct work_struct *work);
static void hcclt_link_send_work(struct work_struct *work);

static void hcclt_link_beat(struct work_struct *work)
{
	struct hcclt_link *link = container_of(to_delayed_work(work),
					       struct hcclt_link, beat);
	bool silent, busy;
	u64 progress;

	/*
	 * Silent: sends in flight, and neither one of them completed nor a
	 * message came since the last beat. A send may wait behind an RDMA
	 * operation of megabytes on a slow link; the peer's own beats and
	 * messages still show it is there.
	 */
	spin_lock_bh(&link->lock);
	progress = link->sq_done + READ_ONCE(link->rx_done);
	if (link->sq_free < HCCLT_LINK_SENDS && progress == link->beat_done)
		link->beat_silent++;
	else
		link->beat_silent = 0;
	link->beat_done = progress;
	silent = link->beat_silent >= HCCLT_LINK_SILENT;
	spin_unlock_bh(&link->lock);
	if (silent) {
		pr_warn("hcclthread: link to %pI4: no answer for %d s\n",
			&link->peer.addr, HCCLT_LINK_SILENT * HCCLT_LINK_BEAT / HZ);
		hcclt_link_fail(link);
		return;
	}
	/* A peer that keeps a range mapped past its deadline loses them all. */
	if (hcclt_xfer_maps_overdue(link)) {
		pr_warn("hcclthread: link to %pI4: a range mapped for it past xfer_map_ms: link down\n",
			&link->peer.addr);
		hcclt_link_fail(link);
		return;
	}
	/*
	 * Sends in flight or queued already tell whether the peer is there.
	 * A link that is down takes no more beats.
	 */
	spin_lock_bh(&link->lock);
	busy = !link->sq_free || !list_empty(&link->outbox);
	spin_unlock_bh(&link->lock);
	if (busy || hcclt_link_send(link, HCCLT_MSG_BEAT, NULL, 0) != -ENOTCONN)
		queue_delayed_work(hcclt_link_wq, &link->beat, HCCLT_LINK_BEAT);
}

/**
 * hcclt_link_record - a record task into a channel notify of another host
 * ran: hand it to the link.
 * @n: the channel's proxy of the peer's notify (@n->rlink, @n->rtoken).
 *
 * Called by the executor under a device's sched_lock: the record joins
 * the link's queue, counted as records handed to another device are
 * (two back to back are all that count), and the link's work sends it.
 * Records of one link are sent in the order their notifies were first
 * queued. A link that is down drops it: its channels are broken.
 */
void hcclt_link_record(struct hcclt_notify *n)
{
	struct hcclt_link *link = n->rlink;
	unsigned long flags;

	spin_lock_irqsave(&link->lock, flags);
	if (link->state == HCCLT_LINK_UP) {
		if (!n->xcount) {
			kref_get(&n->ref);
			list_add_tail(&n->xnode, &link->recs);
			queue_work(hcclt_link_wq, &link->rec_work);
		}
		/* Two back to back are all that count. */
		if (n->xcount < 2)
			n->xcount++;
	}
	spin_unlock_irqrestore(&link->lock, flags);
}

/* Take the next queued record of @link; NULL when none. */
static struct hcclt_notify *hcclt_link_rec_next(struct hcclt_link *link,
						u32 *count)
{
	struct hcclt_notify *n;

	spin_lock_bh(&link->lock);
	n = list_first_entry_or_null(&link->recs, struct hcclt_notify, xnode);
	if (n) {
		list_del_init(&n->xnode);
		*count = n->xcount;
		n->xcount = 0;
	}
	spin_unlock_bh(&link->lock);
	return n;
}

static void hcclt_link_rec_work(struct work_struct *work)
{
	struct hcclt_link *link = container_of(work, struct hcclt_link,
					       rec_work);
	struct hcclt_msg_record m = {};
	struct hcclt_notify *n;
	u32 count;

	while ((n = hcclt_link_rec_next(link, &count))) {
		m.dst = cpu_to_le32(n->rtoken);
		m.cookie = cpu_to_le32(n->rcookie);
		m.idx = cpu_to_le32(n->idx);
		m.count = cpu_to_le32(count);
		hcclt_link_send(link, HCCLT_MSG_RECORD, &m, sizeof(m));
		hcclt_notify_put(n);
	}
}

/**
 * hcclt_link_req_start - enter a request that waits for its REPLY.
 * @link: the link its message goes on.
 * @req: the request, on the caller's stack until hcclt_link_req_wait().
 * @id: out, the id its message carries.
 *
 * Return: 0, -ECONNRESET (the link is down), -ENOMEM, -EBUSY.
 */
int hcclt_link_req_start(struct hcclt_link *link, struct hcclt_link_req *req,
			 u32 *id)
{
	int ret;

	init_completion(&req->done);
	req->err = 0;
	/* Cyclic: a late REPLY never meets a new request of its id. */
	ret = xa_alloc_cyclic(&link->reqs, id, req, xa_limit_31b,
			      &link->req_next, GFP_KERNEL);
	if (ret < 0)
		return ret;
	ret = 0;
	/* After the entry: the teardown fails it, or it sees the link down. */
	spin_lock_bh(&link->lock);
	if (link->state != HCCLT_LINK_UP)
		ret = -ECONNRESET;
	spin_unlock_bh(&link->lock);
	if (ret)
		xa_erase(&link->reqs, *id);
	return ret;
}

/* A REPLY came to one of this side's requests. Receive work. */
static void hcclt_link_reply(struct hcclt_link *link, const void *body,
			     size_t len)
{
	const struct hcclt_msg_reply *m = body;
	struct hcclt_link_req *req;
	u32 err;

	if (len < sizeof(*m))
		return;
	err = le32_to_cpu(m->err);
	/* Only what an owner answers (hcclt_xfer.c) reaches users. */
	switch (err) {
	case 0:
	case ERANGE:
	case EINVAL:
	case EOPNOTSUPP:
	case ECONNRESET:
	case ENOBUFS:
	case EDQUOT:
	case ENOMEM:
	case EBUSY:
		break;
	default:
		err = EIO;
		break;
	}
	/* Under the lock: the waiter erases it before it returns. */
	xa_lock(&link->reqs);
	req = xa_load(&link->reqs, le32_to_cpu(m->id));
	if (req && !completion_done(&req->done)) {
		req->err = -(int)err;
		req->reply = *m;
		if (req->tail) {
			memset(req->tail, 0, req->tail_len);
			memcpy(req->tail, m + 1,
			       min(req->tail_len, len - sizeof(*m)));
		}
		complete(&req->done);
	}
	xa_unlock(&link->reqs);
}

/* The link went down: its requests waiting for a REPLY fail. */
static void hcclt_link_reqs_fail(struct hcclt_link *link)
{
	struct hcclt_link_req *req;
	unsigned long id;

	xa_lock(&link->reqs);
	xa_for_each(&link->reqs, id, req) {
		if (!completion_done(&req->done)) {
			req->err = -ECONNRESET;
			complete(&req->done);
		}
	}
	xa_unlock(&link->reqs);
}

/* A request's REPLY may take this long (the peer allocates memory). */
#define HCCLT_LINK_REPLY_TIMEOUT	(30 * HZ)

/**
 * hcclt_link_req_wait - wait for the REPLY of a request.
 * @link: its link.
 * @req: the request (hcclt_link_req_start()).
 * @id: its id.
 *
 * Waits for the REPLY, the link going down, or HCCLT_LINK_REPLY_TIMEOUT.
 * The request keeps its id until hcclt_link_req_drop(): one that names a
 * range the peer mapped (XMAP) is dropped once its XDONE is sent, so that
 * no other request of the link takes the id while the range is mapped.
 *
 * Return: 0 (@req->reply holds the answer), the REPLY's error (an errno
 * of hcclt_xfer.c's, anything else -EIO), -ECONNRESET (the link went
 * down), -ETIMEDOUT, -EINTR (the caller was killed).
 */
int hcclt_link_req_wait(struct hcclt_link *link, struct hcclt_link_req *req,
			u32 id)
{
	long left;

	/* Killable: an ioctl's caller (a kworker never is killed). */
	left = wait_for_completion_killable_timeout(&req->done,
						    HCCLT_LINK_REPLY_TIMEOUT);
	/* Under the lock: a late REPLY finds it completed, or not at all. */
	xa_lock(&link->reqs);
	if (left <= 0)
		complete(&req->done);
	xa_unlock(&link->reqs);
	if (left < 0)
		return -EINTR;
	return left ? req->err : -ETIMEDOUT;
}

/**
 * hcclt_link_req_drop - forget a request: its id may be taken again.
 * @link: its link.
 * @id: its id.
 */
void hcclt_link_req_drop(struct hcclt_link *link, u32 id)
{
	xa_erase(&link->reqs, id);
}

/**
 * struct hcclt_link_wait - a signaled work request that a caller sleeps on
 * (an RDMA operation's last, a registration).
 * @cqe: its completion.
 * @done: completed by it.
 * @status: its status.
 */
struct hcclt_link_wait {
	struct ib_cqe cqe;
	struct completion done;
	enum ib_wc_status status;
};

static void hcclt_link_wait_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct hcclt_link_wait *w = container_of(wc->wr_cqe,
						 struct hcclt_link_wait, cqe);

	w->status = wc->status;
	complete(&w->done);
}

static void hcclt_link_wait_init(struct hcclt_link_wait *w)
{
	w->cqe.done = hcclt_link_wait_done;
	init_completion(&w->done);
	w->status = IB_WC_SUCCESS;
}

/**
 * hcclt_link_rdma - move data between local pages and a range of the peer.
 * @link: the link.
 * @sgt: the local pages (not DMA-mapped: this maps them).
 * @raddr: the peer's address of its range.
 * @rkey: the rkey the peer registered the range with for this link.
 * @read: RDMA READ the range into @sgt; else RDMA WRITE @sgt to it.
 *
 * Sleeps until the operation completed: a WRITE's data is then placed in
 * the peer's memory (RC), a READ's in @sgt. At most HCCLT_LINK_RDMA
 * callers at once (hcclt_xfer.c's window). Process context, no lock held.
 *
 * Return: 0, -ECONNRESET (the link is or went down; a failed operation
 * takes it down), -ENOMEM or another errno of rdma_rw_ctx_init().
 */
int hcclt_link_rdma(struct hcclt_link *link, struct sg_table *sgt,
		    u64 raddr, u32 rkey, bool read)
{
	enum dma_data_direction dir = read ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
	struct hcclt_link_wait w;
	struct rdma_rw_ctx ctx = {};
	u32 port;
	int ret;

	hcclt_link_wait_init(&w);
	down_read(&link->qp_sem);
	if (READ_ONCE(link->state) != HCCLT_LINK_UP) {
		up_read(&link->qp_sem);
		return -ECONNRESET;
	}
	port = link->id->port_num;
	ret = rdma_rw_ctx_init(&ctx, link->id->qp, port, sgt->sgl,
			       sgt->orig_nents, 0, raddr, rkey, dir);
	if (ret < 0) {
		up_read(&link->qp_sem);
		return ret;
	}
	spin_lock_bh(&link->lock);
	ret = link->state == HCCLT_LINK_UP ?
	      rdma_rw_ctx_post(&ctx, link->id->qp, port, &w.cqe, NULL) :
	      -ECONNRESET;
	spin_unlock_bh(&link->lock);
	if (!ret) {
		/* Always completes: the teardown drains the QP first. */
		wait_for_completion(&w.done);
		if (w.status != IB_WC_SUCCESS) {
			if (w.status != IB_WC_WR_FLUSH_ERR)
				pr_warn_ratelimited("hcclthread: link to %pI4: RDMA %s failed: %s\n",
						    &link->peer.addr,
						    read ? "READ" : "WRITE",
						    ib_wc_status_msg(w.status));
			hcclt_link_fail(link);
			ret = -ECONNRESET;
		}
	} else if (ret != -ECONNRESET) {
		pr_warn_ratelimited("hcclthread: link to %pI4: cannot post an RDMA %s (%d)\n",
				    &link->peer.addr, read ? "READ" : "WRITE", ret);
		hcclt_link_fail(link);
	}
	rdma_rw_ctx_destroy(&ctx, link->id->qp, port, sgt->sgl,
			    sgt->orig_nents, dir);
	up_read(&link->qp_sem);
	return ret;
}

/*
 * The QP of @link's registrations, made on first use (receive work, the
 * only caller, so never twice): an RC QP of the link's PD in RTS, with
 * the link's path but its own QP number as its destination and no remote
 * access (no peer's request is served on it), on which nothing but
 * REG_MR work requests is ever posted, so it never sends a packet and
 * never retries. On the link's
 * own QP, a retry (an RNR NAK, an ACK timeout) makes rxe run the send
 * queue again from its first unacknowledged request, local requests that
 * already ran included (req_retry() and req_next_wqe() of 6.1 and 6.12's
 * rxe_req.c do not skip them): a REG_MR run twice finds its MR valid
 * ("not free") and fails the QP, and the link with it
 * (Documentation/two-guests.rst). An MR of the PD serves every QP of it.
 */
static struct ib_qp *hcclt_link_reg_qp(struct hcclt_link *link)
{
	struct ib_qp_init_attr init = {};
	struct ib_qp_attr attr = {};
	struct ib_qp *qp;
	int mask, ret;

	if (link->reg_qp)
		return link->reg_qp;
	/* iWARP's QPs go to RTS with their connection only: the link's own. */
	if (rdma_protocol_iwarp(link->id->device, link->id->port_num)) {
		link->reg_qp = link->id->qp;
		return link->reg_qp;
	}
	init.cap.max_send_wr = HCCLT_XFER_MAPS + 1;
	init.cap.max_recv_wr = 1;
	init.cap.max_send_sge = 1;
	init.cap.max_recv_sge = 1;
	init.sq_sig_type = IB_SIGNAL_REQ_WR;
	init.qp_type = IB_QPT_RC;
	init.port_num = link->id->port_num;
	init.send_cq = link->scq;
	init.recv_cq = link->rcq;
	qp = ib_create_qp(link->pd, &init);
	if (IS_ERR(qp))
		return qp;
	/* The link's own attributes, but for the destination: itself. */
	attr.qp_state = IB_QPS_INIT;
	ret = rdma_init_qp_attr(link->id, &attr, &mask);
	if (!ret) {
		attr.qp_access_flags = 0;
		ret = ib_modify_qp(qp, &attr, mask | IB_QP_ACCESS_FLAGS);
	}
	if (!ret) {
		attr.qp_state = IB_QPS_RTR;
		ret = rdma_init_qp_attr(link->id, &attr, &mask);
	}
	if (!ret) {
		attr.dest_qp_num = qp->qp_num;
		ret = ib_modify_qp(qp, &attr, mask);
	}
	if (!ret) {
		attr.qp_state = IB_QPS_RTS;
		ret = rdma_init_qp_attr(link->id, &attr, &mask);
	}
	if (!ret)
		ret = ib_modify_qp(qp, &attr, mask);
	if (ret) {
		ib_destroy_qp(qp);
		return ERR_PTR(ret);
	}
	link->reg_qp = qp;
	return qp;
}

/**
 * hcclt_link_mr_reg - let the peer of @link reach pages of this host.
 * @link: the link; the rkey is valid on it alone (its own PD).
 * @sgt: the pages.
 * @npages: how many, at most HCCLT_XFER_CHUNK / PAGE_SIZE + 1 (an entry
 *	of @sgt may have several).
 * @writable: the peer may write them (else only read).
 *
 * Maps @sgt for the link's device and registers it with a fast-reg MR
 * of its own, posted on the link's registration QP (hcclt_link_reg_qp()),
 * and waits for the registration to complete: the MR may be deregistered as soon as this
 * returns (a peer's XDONE may follow its XMAP at once), and a message
 * sent after it reaches the peer with the registration in effect. The
 * wait always ends: a QP in error completes the request (flushed).
 * Receive work only (hcclt_xfer.c): it is not run concurrently with the
 * teardown, which drains it first.
 *
 * Return: the MR (its rkey and iova for the peer), or an ERR_PTR().
 */
struct ib_mr *hcclt_link_mr_reg(struct hcclt_link *link, struct sg_table *sgt,
				u32 npages, bool writable)
{
	enum dma_data_direction dir = writable ? DMA_FROM_DEVICE :
				      DMA_TO_DEVICE;
	struct ib_device *dev = link->id->device;
	struct hcclt_link_wait reg;
	struct ib_reg_wr wr = {};
	struct ib_qp *qp;
	struct ib_mr *mr;
	int n, ret;

	hcclt_link_wait_init(&reg);
	qp = hcclt_link_reg_qp(link);
	if (IS_ERR(qp)) {
		pr_warn_ratelimited("hcclthread: link to %pI4: no registration QP (%ld)\n",
				    &link->peer.addr, PTR_ERR(qp));
		return ERR_CAST(qp);
	}
	ret = ib_dma_map_sgtable_attrs(dev, sgt, dir, 0);
	if (ret)
		return ERR_PTR(ret);
	mr = ib_alloc_mr(link->pd, IB_MR_TYPE_MEM_REG, npages);
	if (IS_ERR(mr)) {
		ib_dma_unmap_sgtable_attrs(dev, sgt, dir, 0);
		return mr;
	}
	n = ib_map_mr_sg(mr, sgt->sgl, sgt->nents, NULL, PAGE_SIZE);
	if (n != sgt->nents) {
		ret = n < 0 ? n : -EINVAL;
		goto err;
	}
	/*
	 * The address the peer gets (REPLY): random above the offset in the
	 * first page (which the device keeps), as xprtrdma's frwr_map() does,
	 * and never the pages' DMA address, a kernel address on rxe.
	 */
	mr->iova = (u64)get_random_u32() << 32 | (mr->iova & ~PAGE_MASK);
	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
	wr.wr.opcode = IB_WR_REG_MR;
	wr.wr.wr_cqe = &reg.cqe;
	wr.wr.send_flags = IB_SEND_SIGNALED;
	wr.mr = mr;
	wr.key = mr->rkey;
	wr.access = IB_ACCESS_LOCAL_WRITE | (writable ? IB_ACCESS_REMOTE_WRITE :
					     IB_ACCESS_REMOTE_READ);
	spin_lock_bh(&link->lock);
	ret = link->state == HCCLT_LINK_UP ?
	      ib_post_send(qp, &wr.wr, NULL) : -ECONNRESET;
	spin_unlock_bh(&link->lock);
	if (ret)
		goto err;
	/* Always completes: the teardown drains that QP too. */
	wait_for_completion(&reg.done);
	if (reg.status == IB_WC_SUCCESS)
		return mr;
	if (reg.status != IB_WC_WR_FLUSH_ERR)
		pr_warn_ratelimited("hcclthread: link to %pI4: memory registration failed: %s\n",
				    &link->peer.addr, ib_wc_status_msg(reg.status));
	hcclt_link_fail(link);
	ret = -ECONNRESET;
err:
	ib_dereg_mr(mr);
	ib_dma_unmap_sgtable_attrs(dev, sgt, dir, 0);
	return ERR_PTR(ret);
}

/**
 * hcclt_link_mr_dereg - the peer may no longer reach pages of this host.
 * @link: the link of hcclt_link_mr_reg().
 * @mr: what it returned.
 * @sgt: its pages.
 * @writable: as given to it.
 *
 * Receive work or the teardown (once drained), as hcclt_link_mr_reg().
 */
void hcclt_link_mr_dereg(struct hcclt_link *link, struct ib_mr *mr,
			 struct sg_table *sgt, bool writable)
{
	ib_dereg_mr(mr);
	ib_dma_unmap_sgtable_attrs(link->id->device, sgt,
				   writable ? DMA_FROM_DEVICE : DMA_TO_DEVICE,
				   0);
}

/**
 * hcclt_link_abort - take a link down: a message it must carry could not
 * be sent.
 * @link: the link.
 */
void hcclt_link_abort(struct hcclt_link *link)
{
	pr_warn_ratelimited("hcclthread: link to %pI4: a message could not be queued\n",
			    &link->peer.addr);
	hcclt_link_fail(link);
}

/**
 * hcclt_link_xfer_begin - take one of the HCCLT_XFER_WINDOW chunks a host
 * may have in flight on @link, waiting for one if need be.
 * @link: the link.
 *
 * A chunk's XMAP, RDMA operation and XDONE go between this and
 * hcclt_link_xfer_end(), which bounds the link's RDMA operations
 * (HCCLT_LINK_RDMA) and the ranges its peer maps for this host. Each
 * waits a bounded time (hcclt_link_req_wait(), hcclt_link_rdma()).
 */
void hcclt_link_xfer_begin(struct hcclt_link *link)
{
	down(&link->xslots);
}

/**
 * hcclt_link_xfer_end - give back what hcclt_link_xfer_begin() took.
 * @link: the link.
 */
void hcclt_link_xfer_end(struct hcclt_link *link)
{
	up(&link->xslots);
}

/**
 * hcclt_link_maps - the table of ranges of this host the peer of @link
 * may reach (hcclt_xfer.c keeps it).
 * @link: the link.
 *
 * Return: the table.
 */
struct xarray *hcclt_link_maps(struct hcclt_link *link)
{
	return &link->maps;
}

/*
 * A new link, counted against max_links until its release: @gfp charges
 * it to the memory cgroup of the user whose call connects it
 * (GFP_KERNEL_ACCOUNT), or to none for one the listener accepts.
 */
static struct hcclt_link *hcclt_link_alloc(gfp_t gfp)
{
	struct hcclt_link *link;

	if (atomic_inc_return(&hcclt_nlinks) > READ_ONCE(max_links)) {
		atomic_dec(&hcclt_nlinks);
		return ERR_PTR(-EMFILE);
	}
	link = kzalloc(sizeof(*link), gfp);
	if (link)
		link->rx = kcalloc(HCCLT_LINK_RECVS, sizeof(*link->rx), gfp);
	if (!link || !link->rx) {
		kfree(link);
		atomic_dec(&hcclt_nlinks);
		return ERR_PTR(-ENOMEM);
	}
	kref_init(&link->ref);
	INIT_LIST_HEAD(&link->node);
	INIT_LIST_HEAD(&link->cnode);
	spin_lock_init(&link->lock);
	INIT_LIST_HEAD(&link->outbox);
	INIT_WORK(&link->send_work, hcclt_link_send_work);
	init_completion(&link->cm_done);
	INIT_DELAYED_WORK(&link->beat, hcclt_link_beat);
	INIT_LIST_HEAD(&link->recs);
	INIT_WORK(&link->rec_work, hcclt_link_rec_work);
	xa_init_flags(&link->reqs, XA_FLAGS_ALLOC1);
	xa_init(&link->maps);
	sema_init(&link->xslots, HCCLT_XFER_WINDOW);
	init_rwsem(&link->qp_sem);
	link->state = HCCLT_LINK_CONNECTING;
	link->sq_free = HCCLT_LINK_SENDS;
	return link;
}

/*
 * The link fails: no send is posted from now on, and its teardown is
 * queued (once). An outgoing link that is still connecting is cleaned up
 * by its connect (hcclt_link_connect()) instead. Any context.
 */
static void hcclt_link_fail(struct hcclt_link *link)
{
	unsigned long flags;
	u32 old;

	bool queue;

	spin_lock_irqsave(&link->lock, flags);
	old = link->state;
	link->state = HCCLT_LINK_DOWN;
	queue = old == HCCLT_LINK_UP ||
		(old == HCCLT_LINK_CONNECTING && link->accepted);
	if (queue)
		link->down_queued = true;
	spin_unlock_irqrestore(&link->lock, flags);
	if (queue)
		queue_work(hcclt_link_wq, &link->down_work);
}

static int hcclt_rx_post(struct hcclt_rx *rx)
{
	struct ib_recv_wr wr = {};
	struct ib_sge sge;

	sge.addr = rx->dma;
	sge.length = HCCLT_MSG_BYTES;
	sge.lkey = rx->link->pd->local_dma_lkey;
	wr.wr_cqe = &rx->cqe;
	wr.sg_list = &sge;
	wr.num_sge = 1;
	return ib_post_recv(rx->link->id->qp, &wr, NULL);
}

/* A message arrived: check its head, hand it on, give the buffer back. */
static void hcclt_rx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct hcclt_rx *rx = container_of(wc->wr_cqe, struct hcclt_rx, cqe);
	struct hcclt_link *link = rx->link;
	struct ib_device *dev = link->id->device;
	struct hcclt_msg_hdr *hdr = (void *)rx->buf;
	u32 len;

	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_warn_ratelimited("hcclthread: link to %pI4: receive failed: %s\n",
					    &link->peer.addr,
					    ib_wc_status_msg(wc->status));
		hcclt_link_fail(link);
		return;
	}
	ib_dma_sync_single_for_cpu(dev, rx->dma, HCCLT_MSG_BYTES,
				   DMA_FROM_DEVICE);
	/* Only this work writes it; the beat reads it. */
	WRITE_ONCE(link->rx_done, link->rx_done + 1);
	/*
	 * The requester sends only once it is established: a message may
	 * reach an accepted link before its own ESTABLISHED event, and its
	 * answer must not be dropped.
	 */
	if (link->accepted && READ_ONCE(link->state) == HCCLT_LINK_CONNECTING)
		hcclt_link_up(link);
	len = le32_to_cpu(hdr->len);
	/* A link going down handles nothing more: its users were told. */
	if (READ_ONCE(link->state) != HCCLT_LINK_UP) {
		/* dropped */
	} else if (wc->byte_len < sizeof(*hdr) ||
	    le32_to_cpu(hdr->magic) != HCCLT_LINK_MAGIC ||
	    le16_to_cpu(hdr->version) != HCCLT_LINK_VERSION ||
	    len > wc->byte_len - sizeof(*hdr)) {
		pr_warn_ratelimited("hcclthread: link to %pI4: malformed message dropped\n",
				    &link->peer.addr);
	} else if (le16_to_cpu(hdr->type) == HCCLT_MSG_REPLY) {
		hcclt_link_reply(link, hdr + 1, len);
	} else if (le16_to_cpu(hdr->type) >= HCCLT_MSG_XMAP) {
		hcclt_xfer_msg(link, le16_to_cpu(hdr->type), hdr + 1, len);
	} else if (le16_to_cpu(hdr->type) >= HCCLT_MSG_CHAN_OFFER) {
		hcclt_channel_msg(link, le16_to_cpu(hdr->type), hdr + 1, len);
	} else if (le16_to_cpu(hdr->type) != HCCLT_MSG_BEAT) {
		hcclt_group_msg(link, le16_to_cpu(hdr->type), hdr + 1, len);
	}
	ib_dma_sync_single_for_device(dev, rx->dma, HCCLT_MSG_BYTES,
				      DMA_FROM_DEVICE);
	if (hcclt_rx_post(rx))
		hcclt_link_fail(link);
}

static void hcclt_tx_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct hcclt_tx *tx = container_of(wc->wr_cqe, struct hcclt_tx, cqe);
	struct hcclt_link *link = tx->link;
	unsigned long flags;
	bool more;

	ib_dma_unmap_single(link->id->device, tx->dma, tx->len, DMA_TO_DEVICE);
	if (wc->status != IB_WC_SUCCESS) {
		if (wc->status != IB_WC_WR_FLUSH_ERR)
			pr_warn_ratelimited("hcclthread: link to %pI4: send failed: %s\n",
					    &link->peer.addr,
					    ib_wc_status_msg(wc->status));
		hcclt_link_fail(link);
	}
	spin_lock_irqsave(&link->lock, flags);
	link->sq_free++;
	link->sq_done++;
	more = !list_empty(&link->outbox);
	spin_unlock_irqrestore(&link->lock, flags);
	if (more)
		queue_work(hcclt_link_wq, &link->send_work);
	kfree(tx);
}

/* Free messages never posted (the link is down). */
static void hcclt_tx_drop(struct list_head *list)
{
	struct hcclt_tx *tx, *tmp;

	list_for_each_entry_safe(tx, tmp, list, node) {
		list_del(&tx->node);
		kfree(tx);
	}
}

/* Post the outbox, in order, as send credits allow. */
static void hcclt_link_send_work(struct work_struct *work)
{
	struct hcclt_link *link = container_of(work, struct hcclt_link,
					       send_work);
	struct ib_send_wr wr = {};
	struct hcclt_tx *tx;
	struct ib_sge sge;
	LIST_HEAD(drop);
	int ret = 0;

	spin_lock_bh(&link->lock);
	while (link->state == HCCLT_LINK_UP && link->sq_free &&
	       (tx = list_first_entry_or_null(&link->outbox, struct hcclt_tx,
					      node))) {
		tx->dma = ib_dma_map_single(link->id->device, tx->buf, tx->len,
					    DMA_TO_DEVICE);
		if (ib_dma_mapping_error(link->id->device, tx->dma)) {
			ret = -ENOMEM;
			break;
		}
		sge.addr = tx->dma;
		sge.length = tx->len;
		sge.lkey = link->pd->local_dma_lkey;
		wr.wr_cqe = &tx->cqe;
		wr.sg_list = &sge;
		wr.num_sge = 1;
		wr.opcode = IB_WR_SEND;
		wr.send_flags = IB_SEND_SIGNALED;
		ret = ib_post_send(link->id->qp, &wr, NULL);
		if (ret) {
			ib_dma_unmap_single(link->id->device, tx->dma, tx->len,
					    DMA_TO_DEVICE);
			break;
		}
		list_del(&tx->node);
		link->sq_free--;
	}
	if (link->state != HCCLT_LINK_UP)
		list_splice_init(&link->outbox, &drop);
	spin_unlock_bh(&link->lock);
	hcclt_tx_drop(&drop);
	if (ret) {
		pr_warn_ratelimited("hcclthread: link to %pI4: cannot post a send (%d)\n",
				    &link->peer.addr, ret);
		hcclt_link_fail(link);
		queue_work(hcclt_link_wq, &link->send_work);
	}
}

/**
 * hcclt_link_send - send one message on a link.
 * @link: the link.
 * @type: HCCLT_MSG_*.
 * @body: the message's body.
 * @len: its bytes, at most HCCLT_MSG_BYTES less the head.
 *
 * Queues the message on the link's outbox (the send work posts it);
 * never waits. Process context (it allocates), any lock of the driver's
 * but a spinlock held. Messages of one link arrive in the order they
 * were sent; a message of a link that goes down is dropped.
 *
 * Return: 0, -ENOTCONN when the link is down, -ENOMEM.
 */
int hcclt_link_send(struct hcclt_link *link, u16 type, const void *body,
		    size_t len)
{
	struct hcclt_msg_hdr *hdr;
	struct hcclt_tx *tx;

	if (WARN_ON(len > HCCLT_MSG_BYTES - sizeof(*hdr)))
		return -EINVAL;
	tx = kzalloc(sizeof(*tx), GFP_KERNEL);
	if (!tx)
		return -ENOMEM;
	hdr = (void *)tx->buf;
	hdr->magic = cpu_to_le32(HCCLT_LINK_MAGIC);
	hdr->type = cpu_to_le16(type);
	hdr->version = cpu_to_le16(HCCLT_LINK_VERSION);
	hdr->len = cpu_to_le32(len);
	if (len)
		memcpy(hdr + 1, body, len);
	tx->link = link;
	tx->len = sizeof(*hdr) + len;
	tx->cqe.done = hcclt_tx_done;

	spin_lock_bh(&link->lock);
	if (link->state != HCCLT_LINK_UP) {
		spin_unlock_bh(&link->lock);
		kfree(tx);
		return -ENOTCONN;
	}
	list_add_tail(&tx->node, &link->outbox);
	spin_unlock_bh(&link->lock);
	queue_work(hcclt_link_wq, &link->send_work);
	return 0;
}

/*
 * Frees what hcclt_link_setup() made, the id excepted: the QP drained
 * first (every completion handled), the queues before the buffers their
 * handlers use.
 */
static void hcclt_link_free_qp(struct hcclt_link *link)
{
	struct ib_device *dev = link->id->device;
	int i;

	/* Before the link's QP, which it may be (iWARP). */
	if (link->reg_qp && link->reg_qp != link->id->qp) {
		ib_drain_qp(link->reg_qp);
		ib_destroy_qp(link->reg_qp);
	}
	link->reg_qp = NULL;
	if (link->id->qp) {
		ib_drain_qp(link->id->qp);
		rdma_destroy_qp(link->id);
	}
	if (link->rcq)
		ib_free_cq(link->rcq);
	if (link->scq)
		ib_free_cq(link->scq);
	for (i = 0; i < HCCLT_LINK_RECVS; i++) {
		if (link->rx[i].dma)
			ib_dma_unmap_single(dev, link->rx[i].dma,
					    HCCLT_MSG_BYTES, DMA_FROM_DEVICE);
		link->rx[i].dma = 0;
	}
	if (link->pd)
		ib_dealloc_pd(link->pd);
	link->rcq = NULL;
	link->scq = NULL;
	link->pd = NULL;
}

/* Allocate a completion queue of @link into @cq; NULL there on failure. */
static int hcclt_link_cq(struct hcclt_link *link, struct ib_cq **cq, int n,
			 enum ib_poll_context poll)
{
	*cq = ib_alloc_cq_any(link->id->device, link, n, poll);
	if (IS_ERR(*cq)) {
		int ret = PTR_ERR(*cq);

		*cq = NULL;
		return ret;
	}
	return 0;
}

/* The QP, its queues and posted receives of a link whose id has a device. */
static int hcclt_link_setup(struct hcclt_link *link)
{
	struct ib_device *dev = link->id->device;
	struct ib_qp_init_attr attr = {};
	u32 sge;
	int i, ret;

	link->pd = ib_alloc_pd(dev, 0);
	if (IS_ERR(link->pd)) {
		ret = PTR_ERR(link->pd);
		link->pd = NULL;
		return ret;
	}
	/*
	 * The send queue: the messages, the HCCLT_LINK_RDMA operations of
	 * as many work requests as the device's SGE limits make of a chunk
	 * (rdma_rw splits by them; a READ by the smaller), and the drain's
	 * request; rdma_rw_init_qp() adds up to 3 per operation for devices
	 * that register MRs for them. A QP in error completes every request,
	 * signaled or not: the send CQ has an entry for each, and for each of
	 * the registration QP's (hcclt_link_reg_qp(): the registrations and
	 * its drain's), and the receive CQ for every receive of both QPs.
	 */
	sge = min3(dev->attrs.max_send_sge, HCCLT_LINK_SGE,
		   dev->attrs.max_sge_rd ?: HCCLT_LINK_SGE);
	attr.cap.max_send_wr = HCCLT_LINK_SENDS + 1 + HCCLT_LINK_RDMA *
			       DIV_ROUND_UP(HCCLT_LINK_OP_PAGES, sge);
	ret = hcclt_link_cq(link, &link->rcq, HCCLT_LINK_RECVS + 1 + 2,
			    IB_POLL_WORKQUEUE);
	if (!ret)
		ret = hcclt_link_cq(link, &link->scq, attr.cap.max_send_wr +
				    3 * HCCLT_LINK_RDMA +
				    HCCLT_XFER_MAPS + 1, IB_POLL_SOFTIRQ);
	if (ret)
		goto err;
	attr.cap.max_recv_wr = HCCLT_LINK_RECVS + 1;
	attr.cap.max_send_sge = sge;
	/* Devices that need an MR for RDMA READ (iWARP) take them here. */
	attr.cap.max_rdma_ctxs = HCCLT_LINK_RDMA;
	attr.port_num = link->id->port_num;
	attr.cap.max_recv_sge = 1;
	attr.sq_sig_type = IB_SIGNAL_REQ_WR;
	attr.qp_type = IB_QPT_RC;
	attr.send_cq = link->scq;
	attr.recv_cq = link->rcq;
	ret = rdma_create_qp(link->id, link->pd, &attr);
	if (ret)
		goto err;
	for (i = 0; i < HCCLT_LINK_RECVS; i++) {
		struct hcclt_rx *rx = &link->rx[i];

		rx->link = link;
		rx->cqe.done = hcclt_rx_done;
		rx->dma = ib_dma_map_single(dev, rx->buf, HCCLT_MSG_BYTES,
					    DMA_FROM_DEVICE);
		if (ib_dma_mapping_error(dev, rx->dma)) {
			rx->dma = 0;
			ret = -ENOMEM;
			goto err;
		}
		ret = hcclt_rx_post(rx);
		if (ret)
			goto err;
	}
	return 0;
err:
	hcclt_link_free_qp(link);
	return ret;
}

/*
 * The teardown of a listed link, queued once by hcclt_link_fail(): an
 * outgoing link that was up, or an accepted one.
 */
static void hcclt_link_down_work(struct work_struct *work)
{
	struct hcclt_link *link = container_of(work, struct hcclt_link,
					       down_work);
	bool listed;

	mutex_lock(&hcclt_links_lock);
	listed = link->listed;
	if (listed) {
		list_del_init(&link->node);
		link->listed = false;
	}
	mutex_unlock(&hcclt_links_lock);
	pr_info("hcclthread: link to %pI4:%u down\n", &link->peer.addr,
		ntohs(link->peer.port));
	cancel_delayed_work_sync(&link->beat);
	/*
	 * Down: nothing is queued or handled any more. Every completion is
	 * handled once the QP is drained; then the users are told.
	 */
	rdma_disconnect(link->id);
	hcclt_link_reqs_fail(link);
	if (link->id->qp)
		ib_drain_qp(link->id->qp);
	/* No RDMA operation is in flight now: give back what they used. */
	hcclt_xfer_link_drained(link);
	down_write(&link->qp_sem);
	up_write(&link->qp_sem);
	cancel_work_sync(&link->send_work);
	hcclt_link_send_work(&link->send_work);
	cancel_work_sync(&link->rec_work);
	hcclt_link_rec_work(&link->rec_work);
	hcclt_group_link_down(link);
	hcclt_channel_link_down(link);
	hcclt_link_free_qp(link);
	rdma_destroy_id(link->id);
	link->id = NULL;
	if (listed)
		hcclt_link_put(link);
}

/*
 * Enter a link into the list, before it can come up: hcclt_link_get()
 * skips it until it has. -EMFILE when its host has HCCLT_LINKS_PER_HOST
 * listed already.
 */
static int hcclt_link_list(struct hcclt_link *link)
{
	struct hcclt_link *l;
	u32 n = 0;

	mutex_lock(&hcclt_links_lock);
	list_for_each_entry(l, &hcclt_links, node)
		n += l->peer.addr == link->peer.addr;
	if (n >= HCCLT_LINKS_PER_HOST) {
		mutex_unlock(&hcclt_links_lock);
		return -EMFILE;
	}
	hcclt_link_ref(link);
	link->listed = true;
	list_add_tail(&link->node, &hcclt_links);
	mutex_unlock(&hcclt_links_lock);
	return 0;
}

/* The connect of @link ended with @err (0: up): its waiters are told. */
static void hcclt_link_connects_leave(struct hcclt_link *link, int err)
{
	mutex_lock(&hcclt_links_lock);
	list_del_init(&link->cnode);
	mutex_unlock(&hcclt_links_lock);
	link->connect_err = err;
	/* Pairs with hcclt_link_connect_wait(): @connect_err is seen first. */
	smp_store_release(&link->connect_over, true);
	wake_up_all(&hcclt_connects_wq);
}

/* Take a link that never came up off the list. */
static void hcclt_link_unlist(struct hcclt_link *link)
{
	bool listed;

	mutex_lock(&hcclt_links_lock);
	listed = link->listed;
	if (listed) {
		list_del_init(&link->node);
		link->listed = false;
	}
	mutex_unlock(&hcclt_links_lock);
	if (listed)
		hcclt_link_put(link);
}

static int hcclt_link_up(struct hcclt_link *link)
{
	unsigned long flags;
	int ret = 0;

	spin_lock_irqsave(&link->lock, flags);
	if (link->state == HCCLT_LINK_CONNECTING)
		link->state = HCCLT_LINK_UP;
	else
		ret = -ECONNRESET;
	spin_unlock_irqrestore(&link->lock, flags);
	if (!ret)
		queue_delayed_work(hcclt_link_wq, &link->beat, HCCLT_LINK_BEAT);
	return ret;
}

/* Events of an established link, of either side. */
static int hcclt_link_event(struct hcclt_link *link, struct rdma_cm_event *ev)
{
	switch (ev->event) {
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		hcclt_link_fail(link);
		break;
	default:
		break;
	}
	return 0;
}

/* Events of an outgoing connect: each step completes @cm_done. */
static int hcclt_link_cm_client(struct rdma_cm_id *id,
				struct rdma_cm_event *ev)
{
	struct hcclt_link *link = id->context;
	int err = 0;

	if (!READ_ONCE(link->connecting) || completion_done(&link->cm_done))
		return hcclt_link_event(link, ev);
	switch (ev->event) {
	case RDMA_CM_EVENT_ADDR_RESOLVED:
	case RDMA_CM_EVENT_ROUTE_RESOLVED:
		break;
	case RDMA_CM_EVENT_ESTABLISHED:
		err = hcclt_link_up(link);
		break;
	case RDMA_CM_EVENT_REJECTED:
		err = -ECONNREFUSED;
		break;
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_ADDR_ERROR:
	case RDMA_CM_EVENT_ROUTE_ERROR:
		err = -EHOSTUNREACH;
		break;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_DISCONNECTED:
	case RDMA_CM_EVENT_DEVICE_REMOVAL:
	case RDMA_CM_EVENT_ADDR_CHANGE:
		err = -ECONNRESET;
		break;
	default:
		return 0;
	}
	link->cm_err = err;
	complete(&link->cm_done);
	return 0;
}

/* Wait for the next step of a connect; -ETIMEDOUT at @deadline. */
static int hcclt_link_wait(struct hcclt_link *link, ktime_t deadline)
{
	long left = MAX_SCHEDULE_TIMEOUT;
	long ret;

	if (deadline != KTIME_MAX)
		left = nsecs_to_jiffies(max_t(s64, 0,
					      ktime_to_ns(ktime_sub(deadline,
								    ktime_get()))));
	ret = wait_for_completion_interruptible_timeout(&link->cm_done, left);
	if (ret < 0)
		return ret;
	if (!ret)
		return -ETIMEDOUT;
	reinit_completion(&link->cm_done);
	return link->cm_err;
}

/*
 * A new link to @to for a connect of the calling user, entered into
 * hcclt_connects: -EMFILE when the user has HCCLT_LINK_CONNECTS_PER_USER
 * in progress (or max_links exist). Caller holds hcclt_links_lock.
 */
static struct hcclt_link *hcclt_link_connect_new(const struct hcclt_host *to)
{
	struct hcclt_link *link, *l;
	u32 n = 0;

	lockdep_assert_held(&hcclt_links_lock);
	list_for_each_entry(l, &hcclt_connects, cnode)
		n += uid_eq(l->uid, current_uid());
	if (n >= HCCLT_LINK_CONNECTS_PER_USER)
		return ERR_PTR(-EMFILE);
	link = hcclt_link_alloc(GFP_KERNEL_ACCOUNT);
	if (IS_ERR(link))
		return link;
	link->peer = *to;
	link->uid = current_uid();
	link->connecting = true;
	INIT_WORK(&link->down_work, hcclt_link_down_work);
	list_add_tail(&link->cnode, &hcclt_connects);
	return link;
}

/*
 * Connect @link (hcclt_link_connect_new(), reference handed over) to its
 * peer; the returned link is up and listed, one reference ours.
 */
static struct hcclt_link *hcclt_link_connect(struct hcclt_link *link,
					     ktime_t deadline)
{
	const struct hcclt_host *to = &link->peer;
	struct sockaddr_in src = {}, dst = {};
	struct rdma_conn_param param = {};
	struct hcclt_link_hello hello = {};
	struct rdma_cm_id *id;
	bool queued;
	int ret;

	id = rdma_create_id(&init_net, hcclt_link_cm_client, link,
			    RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id)) {
		hcclt_link_connects_leave(link, PTR_ERR(id));
		hcclt_link_put(link);
		return ERR_CAST(id);
	}
	link->id = id;
	src.sin_family = AF_INET;
	src.sin_addr.s_addr = hcclt_self.addr;
	dst.sin_family = AF_INET;
	dst.sin_addr.s_addr = to->addr;
	dst.sin_port = to->port;
	ret = rdma_resolve_addr(id, (struct sockaddr *)&src,
				(struct sockaddr *)&dst, HCCLT_LINK_RESOLVE_MS);
	if (!ret)
		ret = hcclt_link_wait(link, deadline);
	if (!ret)
		ret = rdma_resolve_route(id, HCCLT_LINK_RESOLVE_MS);
	if (!ret)
		ret = hcclt_link_wait(link, deadline);
	if (!ret)
		ret = rdma_set_ack_timeout(id, HCCLT_LINK_ACK_TIMEOUT);
	if (!ret)
		ret = hcclt_link_setup(link);
	if (ret) {
		WRITE_ONCE(link->connecting, false);
		goto err;
	}
	hello.magic = cpu_to_le32(HCCLT_LINK_MAGIC);
	hello.version = cpu_to_le16(HCCLT_LINK_VERSION);
	hello.port = hcclt_self.port;
	param.private_data = &hello;
	param.private_data_len = sizeof(hello);
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	/* RDMA READs in flight each way (hcclt_link_rdma()). */
	param.initiator_depth = min_t(u32, HCCLT_LINK_RDMA,
				      id->device->attrs.max_qp_init_rd_atom);
	param.responder_resources = min_t(u32, HCCLT_LINK_RDMA,
					  id->device->attrs.max_qp_rd_atom);
	/* Listed first, so that a teardown after it came up finds it. */
	ret = hcclt_link_list(link);
	if (!ret)
		ret = rdma_connect(id, &param);
	if (!ret)
		ret = hcclt_link_wait(link, deadline);
	queued = false;
	if (ret) {
		/*
		 * Up after all (the wait was interrupted): use it. Down after
		 * it was up: its teardown owns it. Never up: still ours.
		 */
		spin_lock_bh(&link->lock);
		if (link->state == HCCLT_LINK_UP)
			ret = 0;
		link->state = ret ? HCCLT_LINK_DOWN : link->state;
		queued = link->down_queued;
		spin_unlock_bh(&link->lock);
	}
	WRITE_ONCE(link->connecting, false);
	if (ret == -ERESTARTSYS)
		ret = -EINTR;
	if (ret && queued) {
		hcclt_link_connects_leave(link, ret);
		hcclt_link_put(link);
		return ERR_PTR(ret);
	}
	if (ret) {
		hcclt_link_unlist(link);
		hcclt_link_free_qp(link);
		goto err;
	}
	hcclt_link_connects_leave(link, 0);
	pr_info("hcclthread: link to %pI4:%u up\n", &to->addr, ntohs(to->port));
	return link;
err:
	if (ret == -ERESTARTSYS)
		ret = -EINTR;
	/* Waits for the handler: no event of @id reaches @link after this. */
	rdma_destroy_id(id);
	link->id = NULL;
	hcclt_link_connects_leave(link, ret);
	hcclt_link_put(link);
	return ERR_PTR(ret);
}

static bool hcclt_link_connect_over(struct hcclt_link *link)
{
	/* Pairs with hcclt_link_connects_leave(): then @connect_err is set. */
	return smp_load_acquire(&link->connect_over);
}

/*
 * Wait for the connect of @link (a reference held, handed over) to end,
 * until @deadline: the link if it came up, else its connect's error, or
 * -EAGAIN when that error was its caller's own (a signal, its deadline)
 * and says nothing of the host: the waiter then tries again.
 */
static struct hcclt_link *hcclt_link_connect_wait(struct hcclt_link *link,
						  ktime_t deadline)
{
	long left = MAX_SCHEDULE_TIMEOUT, r;
	int err;

	if (deadline != KTIME_MAX)
		left = nsecs_to_jiffies(max_t(s64, 0,
					      ktime_to_ns(ktime_sub(deadline,
								    ktime_get()))));
	r = wait_event_interruptible_timeout(hcclt_connects_wq,
					     hcclt_link_connect_over(link),
					     left);
	err = r < 0 ? -EINTR : !r ? -ETIMEDOUT : link->connect_err;
	if (r > 0 && (err == -EINTR || err == -ETIMEDOUT))
		err = -EAGAIN;
	/* Up, unless it went down since (its users are told). */
	if (!err && READ_ONCE(link->state) != HCCLT_LINK_UP)
		err = -ECONNRESET;
	if (!err)
		return link;
	hcclt_link_put(link);
	return ERR_PTR(err);
}

/**
 * hcclt_link_get - a link to the driver listening at @to.
 * @to: the other host.
 * @deadline: CLOCK_MONOTONIC time at which a connect gives up, or
 *	KTIME_MAX.
 *
 * Returns a link already up, or connects. Process context; the connect is
 * interruptible.
 *
 * Return: the link (a reference for the caller), or -EOPNOTSUPP (this host
 * is in no cluster), -ENETDOWN (its RDMA device is gone), -EINVAL (@to is
 * this host), -EMFILE (max_links links exist, HCCLT_LINKS_PER_HOST to
 * @to's address, or HCCLT_LINK_CONNECTS_PER_USER connects of the calling
 * user are in progress), -EHOSTUNREACH, -ECONNREFUSED, -ECONNRESET,
 * -ETIMEDOUT, -EINTR, -ENOMEM.
 */
struct hcclt_link *hcclt_link_get(const struct hcclt_host *to,
				  ktime_t deadline)
{
	struct hcclt_link *link;

	if (!hcclt_link_wq)
		return ERR_PTR(-EOPNOTSUPP);
	if (!READ_ONCE(hcclt_listener))
		return ERR_PTR(-ENETDOWN);
	if (!to->addr || (to->addr == hcclt_self.addr &&
			  to->port == hcclt_self.port))
		return ERR_PTR(-EINVAL);
again:
	mutex_lock(&hcclt_links_lock);
	list_for_each_entry(link, &hcclt_links, node) {
		if (link->peer.addr == to->addr &&
		    link->peer.port == to->port &&
		    READ_ONCE(link->state) == HCCLT_LINK_UP) {
			hcclt_link_ref(link);
			mutex_unlock(&hcclt_links_lock);
			return link;
		}
	}
	/*
	 * One connect per host at a time: the callers that find one in
	 * progress share its outcome (a host that does not answer is tried
	 * once, and the ranks of a host that do not wait for each other
	 * make one link, not one each).
	 */
	list_for_each_entry(link, &hcclt_connects, cnode) {
		if (link->peer.addr == to->addr &&
		    link->peer.port == to->port) {
			hcclt_link_ref(link);
			mutex_unlock(&hcclt_links_lock);
			link = hcclt_link_connect_wait(link, deadline);
			if (link == ERR_PTR(-EAGAIN))
				goto again;
			return link;
		}
	}
	link = hcclt_link_connect_new(to);
	mutex_unlock(&hcclt_links_lock);
	if (IS_ERR(link))
		return link;
	/* The other host may connect meanwhile: it then has two links. */
	return hcclt_link_connect(link, deadline);
}

/*
 * A connection request to the listener, on its new id: accept it as a
 * link, or return non-zero, which makes rdma_cm reject and destroy it.
 */
static int hcclt_link_accept(struct rdma_cm_id *id, struct rdma_cm_event *ev)
{
	const struct hcclt_link_hello *hello = ev->param.conn.private_data;
	struct sockaddr_in *from = (void *)&id->route.addr.dst_addr;
	struct rdma_conn_param param = {};
	struct hcclt_link *link;
	int ret;

	if (ev->param.conn.private_data_len < sizeof(*hello) ||
	    le32_to_cpu(hello->magic) != HCCLT_LINK_MAGIC ||
	    le16_to_cpu(hello->version) != HCCLT_LINK_VERSION ||
	    from->sin_family != AF_INET)
		return -EPROTO;
	link = hcclt_link_alloc(GFP_KERNEL);
	if (IS_ERR(link))
		return PTR_ERR(link);
	link->peer.addr = from->sin_addr.s_addr;
	link->peer.port = hello->port;
	link->id = id;
	link->accepted = true;
	INIT_WORK(&link->down_work, hcclt_link_down_work);
	/* Both sides' QPs give up on a silent peer within the same bound. */
	ret = rdma_set_ack_timeout(id, HCCLT_LINK_ACK_TIMEOUT);
	if (!ret)
		ret = hcclt_link_setup(link);
	if (ret)
		goto err_qp;
	id->context = link;
	param.retry_count = 7;
	param.rnr_retry_count = 7;
	/* The requester's READs, and ours, as both devices allow. */
	param.initiator_depth = min3(HCCLT_LINK_RDMA,
				     (u32)ev->param.conn.responder_resources,
				     (u32)id->device->attrs.max_qp_init_rd_atom);
	param.responder_resources = min3(HCCLT_LINK_RDMA,
					 (u32)ev->param.conn.initiator_depth,
					 (u32)id->device->attrs.max_qp_rd_atom);
	/* Listed first, so that a teardown queued once it is up finds it. */
	ret = hcclt_link_list(link);
	if (ret)
		goto err_qp;
	ret = rdma_accept(id, &param);
	if (!ret) {
		/*
		 * The list's reference keeps it now (and its users' theirs);
		 * its teardown destroys @id (hcclt_link_fail()) before it
		 * drops that one, so no event of @id outlives it.
		 */
		hcclt_link_put(link);
		return 0;
	}
	hcclt_link_unlist(link);
err_qp:
	/* Down first: the flushed receives must not queue a teardown. */
	spin_lock_bh(&link->lock);
	link->state = HCCLT_LINK_DOWN;
	spin_unlock_bh(&link->lock);
	hcclt_link_free_qp(link);
	id->context = NULL;
	link->id = NULL;
	hcclt_link_put(link);
	return ret;
}

/*
 * Events of the listener and of the links it accepted (whose context is
 * their link; the listener's is NULL, which new ids inherit).
 */
static int hcclt_link_cm_server(struct rdma_cm_id *id,
				struct rdma_cm_event *ev)
{
	struct hcclt_link *link = id->context;

	if (!link) {
		if (ev->event == RDMA_CM_EVENT_CONNECT_REQUEST)
			return hcclt_link_accept(id, ev);
		/*
		 * The device goes: so does the listener (rdma_cm destroys an
		 * id whose handler returns non-zero), or the removal waits
		 * for it.
		 */
		if (ev->event == RDMA_CM_EVENT_DEVICE_REMOVAL &&
		    cmpxchg(&hcclt_listener, id, NULL) == id) {
			pr_warn("hcclthread: the RDMA device of cluster_addr is gone: no new links\n");
			return 1;
		}
		return 0;
	}
	switch (ev->event) {
	case RDMA_CM_EVENT_ESTABLISHED:
		if (!hcclt_link_up(link))
			pr_info("hcclthread: link from %pI4:%u up\n",
				&link->peer.addr, ntohs(link->peer.port));
		return 0;
	case RDMA_CM_EVENT_CONNECT_ERROR:
	case RDMA_CM_EVENT_UNREACHABLE:
	case RDMA_CM_EVENT_REJECTED:
		hcclt_link_fail(link);
		return 0;
	default:
		return hcclt_link_event(link, ev);
	}
}

static int hcclt_link_parse(const char *s, struct hcclt_host *h)
{
	const char *end;
	u16 port = HCCLT_CLUSTER_PORT;

	if (!in4_pton(s, -1, (u8 *)&h->addr, ':', &end))
		return -EINVAL;
	if (*end == ':' && kstrtou16(end + 1, 10, &port))
		return -EINVAL;
	if (!h->addr || !port)
		return -EINVAL;
	h->port = htons(port);
	return 0;
}

/* Bind the listener at cluster_addr, if set. */
int hcclt_link_init(void)
{
	struct sockaddr_in sin = {};
	struct rdma_cm_id *id;
	int ret;

	if (!cluster_addr || !*cluster_addr)
		return 0;
	if (hcclt_link_parse(cluster_addr, &hcclt_self)) {
		pr_err("hcclthread: cluster_addr=%s: not IPv4[:port]\n",
		       cluster_addr);
		return -EINVAL;
	}
	hcclt_link_wq = alloc_workqueue("hcclt_link", WQ_UNBOUND, 0);
	if (!hcclt_link_wq)
		return -ENOMEM;
	id = rdma_create_id(&init_net, hcclt_link_cm_server, NULL,
			    RDMA_PS_TCP, IB_QPT_RC);
	if (IS_ERR(id)) {
		ret = PTR_ERR(id);
		goto err_wq;
	}
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = hcclt_self.addr;
	sin.sin_port = hcclt_self.port;
	ret = rdma_bind_addr(id, (struct sockaddr *)&sin);
	if (!ret)
		ret = rdma_listen(id, 64);
	if (ret) {
		pr_err("hcclthread: cluster_addr=%s: no RDMA device listens there (%d)\n",
		       cluster_addr, ret);
		rdma_destroy_id(id);
		goto err_wq;
	}
	hcclt_listener = id;
	pr_info("hcclthread: cluster: listening at %pI4:%u (%s)\n",
		&hcclt_self.addr, ntohs(hcclt_self.port), id->device ?
		dev_name(&id->device->dev) : "?");
	return 0;
err_wq:
	destroy_workqueue(hcclt_link_wq);
	hcclt_link_wq = NULL;
	hcclt_self.addr = 0;
	return ret;
}

/* Module exit: no file, communicator or group is left. */
void hcclt_link_fini(void)
{
	struct hcclt_link *link;
	struct rdma_cm_id *id;

	if (!hcclt_link_wq)
		return;
	/* No new link after this (it waits for the listener's handlers). */
	id = xchg(&hcclt_listener, NULL);
	if (id)
		rdma_destroy_id(id);
	mutex_lock(&hcclt_links_lock);
	list_for_each_entry(link, &hcclt_links, node)
		hcclt_link_fail(link);
	mutex_unlock(&hcclt_links_lock);
	/* Every listed link now has its teardown queued: wait for them. */
	destroy_workqueue(hcclt_link_wq);
	hcclt_link_wq = NULL;
	WARN_ON(!list_empty(&hcclt_links));
}
