/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: links, the RC connections of the kernel's RDMA stack that
 * join this driver to the hcclthread drivers of other hosts
 * (Documentation/clusters.rst).
 *
 * A host takes part in a cluster when the module parameter cluster_addr
 * names one of its IPv4 addresses on an RDMA device (a RoCE NIC, or
 * soft-RoCE over an Ethernet one): the driver listens there with rdma_cm
 * and connects to the drivers of other hosts on demand. A link carries
 * control messages (SEND/RECV of HCCLT_MSG_BYTES each) in both
 * directions; what rides on them is defined below, and each is handled
 * by the object it names (groups: hcclt_group.c).
 */
#ifndef HCCLT_LINK_H
#define HCCLT_LINK_H

#include <linux/completion.h>
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/sizes.h>
#include <linux/types.h>

struct hcclt_link;

/**
 * struct hcclt_host - where a host's driver listens.
 * @addr: IPv4 address, network order; 0 for none.
 * @port: TCP-space port of rdma_cm, network order.
 */
struct hcclt_host {
	__be32 addr;
	__be16 port;
};

/*
 * Wire format: little-endian, fixed size, explicit padding. Version 3:
 * XMAP names a registered range (@reg), MEMQ lists them.
 */
#define HCCLT_LINK_MAGIC	0x544c4348	/* "HCLT" */
#define HCCLT_LINK_VERSION	3
#define HCCLT_MSG_BYTES		512

/**
 * struct hcclt_link_hello - private data of a connection request.
 * @magic: HCCLT_LINK_MAGIC.
 * @version: HCCLT_LINK_VERSION.
 * @pad: zero.
 * @port: the port the requester listens on, network order (its address
 *	is the connection's source address).
 * @pad2: zero.
 */
struct hcclt_link_hello {
	__le32 magic;
	__le16 version;
	__le16 pad;
	__be16 port;
	__be16 pad2;
};

/* Message types (struct hcclt_msg_hdr.type). */
#define HCCLT_MSG_JOIN		1	/* struct hcclt_msg_join */
#define HCCLT_MSG_REFUSE	2	/* struct hcclt_msg_refuse */
#define HCCLT_MSG_TABLE		3	/* struct hcclt_msg_table */
#define HCCLT_MSG_FAIL		4	/* struct hcclt_msg_group */
#define HCCLT_MSG_LEAVE		5	/* struct hcclt_msg_join */
#define HCCLT_MSG_BEAT		6	/* no body: the link is alive */
/* Channels between hosts (hcclt_channel.c). */
#define HCCLT_MSG_CHAN_OFFER	10	/* struct hcclt_msg_offer */
#define HCCLT_MSG_CHAN_ACCEPT	11	/* struct hcclt_msg_chan */
#define HCCLT_MSG_CHAN_REJECT	12	/* struct hcclt_msg_chan */
#define HCCLT_MSG_CHAN_BREAK	13	/* struct hcclt_msg_chan */
#define HCCLT_MSG_RECORD	14	/* struct hcclt_msg_record */
/* Data between hosts (hcclt_xfer.c). */
#define HCCLT_MSG_XMAP		20	/* struct hcclt_msg_xmap */
#define HCCLT_MSG_XDONE		21	/* struct hcclt_msg_xdone */
#define HCCLT_MSG_BUFQ		22	/* struct hcclt_msg_bufq */
#define HCCLT_MSG_REPLY		23	/* struct hcclt_msg_reply */
#define HCCLT_MSG_MEMQ		24	/* struct hcclt_msg_memq */

/**
 * struct hcclt_msg_hdr - head of every message.
 * @magic: HCCLT_LINK_MAGIC.
 * @type: HCCLT_MSG_*.
 * @version: HCCLT_LINK_VERSION.
 * @len: bytes of the body that follows.
 * @pad: zero.
 */
struct hcclt_msg_hdr {
	__le32 magic;
	__le16 type;
	__le16 version;
	__le32 len;
	__le32 pad;
};

/**
 * struct hcclt_msg_group - names a group; FAIL: the group failed.
 * @key: the group's secret key, the only name a group has between hosts.
 */
struct hcclt_msg_group {
	u8 key[16];
};

/**
 * struct hcclt_msg_join - a rank of another host joins the group of the
 * receiving host (JOIN), or gives up waiting for it (LEAVE).
 * @key: the group's key.
 * @rank: the rank.
 * @nranks: the group's rank count, as the joiner was told.
 * @device: the card of the rank, on its host.
 * @flags: LEAVE: HCCLT_MSG_LEAVE_FAIL or zero; JOIN: zero.
 */
struct hcclt_msg_join {
	u8 key[16];
	__le32 rank;
	__le32 nranks;
	__le32 device;
	__le32 flags;
};

/* The rank gave up (timeout, killed): the group fails. */
#define HCCLT_MSG_LEAVE_FAIL	0x1

/**
 * struct hcclt_msg_refuse - a JOIN was refused.
 * @key: the key the JOIN named.
 * @rank: its rank.
 * @err: why, a positive errno value (ENOENT: no group has that key).
 */
struct hcclt_msg_refuse {
	u8 key[16];
	__le32 rank;
	__le32 err;
};

/**
 * struct hcclt_msg_rank - where one rank of a complete group is.
 * @addr: the cluster address of its host (network order).
 * @port: the port of its host (network order).
 * @pad: zero.
 * @device: its card on that host.
 */
struct hcclt_msg_rank {
	__be32 addr;
	__be16 port;
	__le16 pad;
	__le32 device;
};

/* Entries of one TABLE message. */
#define HCCLT_MSG_TABLE_RANKS	28

/**
 * struct hcclt_msg_table - the group is complete: where ranks @first to
 * @first + @count - 1 are. A complete group's table takes
 * DIV_ROUND_UP(@nranks, HCCLT_MSG_TABLE_RANKS) messages, in rank order.
 * @key: the group's key.
 * @nranks: its rank count.
 * @first: rank of @ranks[0].
 * @count: entries used.
 * @pad: zero.
 * @ranks: the entries.
 */
struct hcclt_msg_table {
	u8 key[16];
	__le32 nranks;
	__le32 first;
	__le32 count;
	__le32 pad;
	struct hcclt_msg_rank ranks[HCCLT_MSG_TABLE_RANKS];
};

/**
 * struct hcclt_msg_offer - a rank offers a channel to a rank of the
 * receiving host (HcclChannelAcquire on both sides).
 * @key: the group's key.
 * @family: engine family (CPU 0, AICPU 1).
 * @protocol: HCCLT_PROTOCOL_*.
 * @from: the offering rank.
 * @to: the rank it is offered to.
 * @notify_num: notifies per side.
 * @token: the offering side's channel, as the sender names it.
 * @cookie: that channel's secret: every later message to it carries it.
 * @pad: zero.
 */
struct hcclt_msg_offer {
	u8 key[16];
	__le32 family;
	__le32 protocol;
	__le32 from;
	__le32 to;
	__le32 notify_num;
	__le32 token;
	__le32 cookie;
	__le32 pad;
};

/**
 * struct hcclt_msg_chan - ACCEPT: the receiver's pending offer @dst met the
 * sender's channel @src; REJECT: it cannot (@err); BREAK: the sender's
 * channel @src is gone (its rank left, or its call gave up), @dst unused.
 * @dst: the receiver's channel token (ACCEPT, REJECT).
 * @src: the sender's channel token.
 * @err: REJECT: why, a positive errno value; zero otherwise.
 * @dst_cookie: ACCEPT, REJECT: the receiver's channel's cookie (from its
 *	OFFER); a message with another is dropped.
 * @src_cookie: the sender's channel's cookie (BREAK: checked against the
 *	one its OFFER or ACCEPT gave).
 * @pad: zero.
 */
struct hcclt_msg_chan {
	__le32 dst;
	__le32 src;
	__le32 err;
	__le32 dst_cookie;
	__le32 src_cookie;
	__le32 pad;
};

/**
 * struct hcclt_msg_record - records into notify @idx of the receiver's
 * channel @dst (a record task of the sender's side ran).
 * @dst: the receiver's channel token.
 * @idx: the notify index.
 * @count: records, 1 or 2 (two back to back: one may be consumed by a
 *	parked wait, the second sets the flag; more are no more).
 * @cookie: the receiver's channel's cookie; a record with another is
 *	dropped.
 */
struct hcclt_msg_record {
	__le32 dst;
	__le32 idx;
	__le32 count;
	__le32 cookie;
};

/**
 * struct hcclt_msg_xmap - the sender's data task needs a range of the
 * receiver's channel peer's HCCL buffer, or of a range it registered:
 * map it for one RDMA operation of the sender (answered by REPLY with the
 * range's address and rkey).
 * @dst: the receiver's channel token.
 * @cookie: its cookie.
 * @id: the sender's request (echoed in REPLY, named by XDONE).
 * @op: HCCLT_TASK_WRITE (the sender writes the range), HCCLT_TASK_READ
 *	(it reads it) or HCCLT_TASK_WRITE_REDUCE (it writes a staging
 *	range that XDONE reduces into the buffer).
 * @offset: of the range in the receiver's HCCL buffer, or in @reg.
 * @len: bytes, at most HCCLT_XFER_CHUNK.
 * @dtype: of a reduce, HCCLT_DTYPE_*.
 * @rop: of a reduce, HCCLT_REDUCE_*.
 * @flags: HCCLT_XMAP_SATURATE or zero.
 * @reg: the id of a range the receiver's channel peer registered (MEMQ),
 *	or 0 for its HCCL buffer.
 * @pad: zero.
 */
struct hcclt_msg_xmap {
	__le32 dst;
	__le32 cookie;
	__le32 id;
	__le32 op;
	__le64 offset;
	__le32 len;
	__le32 dtype;
	__le32 rop;
	__le32 flags;
	__le32 reg;
	__le32 pad;
};

/*
 * Bytes one XMAP maps at most: 257 pages at most, unaligned, within the
 * 512 pages a fast-reg MR of soft-RoCE may have. A data task to another
 * host moves in such chunks, one after the other.
 */
#define HCCLT_XFER_CHUNK	SZ_1M
/* Chunks a host has in flight on one link at most (its data tasks'). */
#define HCCLT_XFER_WINDOW	8
/* Ranges a host keeps mapped for the peer of one link at most. */
#define HCCLT_XFER_MAPS		(2 * HCCLT_XFER_WINDOW)

/* The reduce saturates float results (the sender's stream's mode). */
#define HCCLT_XMAP_SATURATE	0x1

/**
 * struct hcclt_msg_xdone - the sender is done with mapping @id: its
 * operation completed (@err zero: a staging range is reduced now) or
 * failed or was dropped (@err a positive errno: nothing is reduced).
 * @id: the XMAP's @id.
 * @err: zero or a positive errno.
 */
struct hcclt_msg_xdone {
	__le32 id;
	__le32 err;
};

/**
 * struct hcclt_msg_bufq - the size of the receiver's channel peer's HCCL
 * buffer, made with @size if it has none yet (answered by REPLY).
 * @dst: the receiver's channel token.
 * @cookie: its cookie.
 * @id: the sender's request.
 * @pad: zero.
 * @size: bytes to make the buffer with.
 */
struct hcclt_msg_bufq {
	__le32 dst;
	__le32 cookie;
	__le32 id;
	__le32 pad;
	__le64 size;
};

/**
 * struct hcclt_msg_memq - the next range the receiver's channel peer has
 * registered after @after (answered by REPLY followed by struct
 * hcclt_msg_mem).
 * @dst: the receiver's channel token.
 * @cookie: its cookie.
 * @id: the sender's request.
 * @after: a range's id; 0 for the first.
 */
struct hcclt_msg_memq {
	__le32 dst;
	__le32 cookie;
	__le32 id;
	__le32 after;
};

/* Bytes of a registered range's tag, NUL included (the uAPI's). */
#define HCCLT_MSG_TAG_BYTES	256

/**
 * struct hcclt_msg_mem - what follows a REPLY to MEMQ: one registered
 * range, the one with the lowest id above the MEMQ's @after.
 * @reg: its id; 0 when there is none (the list ended).
 * @pad: zero.
 * @size: its bytes.
 * @tag: its tag, NUL-terminated.
 */
struct hcclt_msg_mem {
	__le32 reg;
	__le32 pad;
	__le64 size;
	char tag[HCCLT_MSG_TAG_BYTES];
};

/**
 * struct hcclt_msg_reply - the answer to the request @id of the receiver
 * (XMAP, BUFQ, MEMQ; MEMQ's is followed by struct hcclt_msg_mem).
 * @id: the request.
 * @err: zero or a positive errno.
 * @rkey: XMAP: the rkey of the range; BUFQ, MEMQ: zero.
 * @pad: zero.
 * @addr: XMAP: the range's address for that rkey; BUFQ: the buffer's
 *	size; MEMQ: zero.
 */
struct hcclt_msg_reply {
	__le32 id;
	__le32 err;
	__le32 rkey;
	__le32 pad;
	__le64 addr;
};

/**
 * struct hcclt_link_req - a request of this host waiting for its REPLY
 * (hcclt_link_req_start(), hcclt_link_req_wait()).
 * @done: completed by the REPLY, or by the link going down.
 * @err: 0, the REPLY's error, or -ECONNRESET (the link went down).
 * @reply: the REPLY, when @err is 0.
 * @tail: where what follows the REPLY goes (MEMQ's), or NULL; set by
 *	the caller before hcclt_link_req_start() (a REPLY may come as soon
 *	as the request is entered, if its peer guesses the id).
 * @tail_len: bytes of @tail; bytes the REPLY had beyond them are
 *	dropped, those it lacked are zero.
 */
struct hcclt_link_req {
	struct completion done;
	int err;
	struct hcclt_msg_reply reply;
	void *tail;
	size_t tail_len;
};

struct hcclt_notify;
struct ib_mr;
struct sg_table;
struct xarray;

#if IS_ENABLED(CONFIG_INFINIBAND) && IS_ENABLED(CONFIG_INFINIBAND_ADDR_TRANS)
#define HCCLT_HAS_CLUSTER 1
#endif

#ifdef HCCLT_HAS_CLUSTER
int hcclt_link_init(void);
void hcclt_link_fini(void);
const struct hcclt_host *hcclt_cluster_self(void);
struct hcclt_link *hcclt_link_get(const struct hcclt_host *to,
				  ktime_t deadline);
struct hcclt_link *hcclt_link_ref(struct hcclt_link *link);
void hcclt_link_put(struct hcclt_link *link);
const struct hcclt_host *hcclt_link_peer(const struct hcclt_link *link);
int hcclt_link_send(struct hcclt_link *link, u16 type, const void *body,
		    size_t len);
void hcclt_link_record(struct hcclt_notify *n);
int hcclt_link_req_start(struct hcclt_link *link, struct hcclt_link_req *req,
			 u32 *id);
int hcclt_link_req_wait(struct hcclt_link *link, struct hcclt_link_req *req,
			u32 id);
void hcclt_link_req_drop(struct hcclt_link *link, u32 id);
int hcclt_link_rdma(struct hcclt_link *link, struct sg_table *sgt,
		    u64 raddr, u32 rkey, bool read);
struct ib_mr *hcclt_link_mr_reg(struct hcclt_link *link, struct sg_table *sgt,
				u32 npages, bool writable);
void hcclt_link_mr_dereg(struct hcclt_link *link, struct ib_mr *mr,
			 struct sg_table *sgt, bool writable);
struct xarray *hcclt_link_maps(struct hcclt_link *link);
void hcclt_link_abort(struct hcclt_link *link);
void hcclt_link_xfer_begin(struct hcclt_link *link);
void hcclt_link_xfer_end(struct hcclt_link *link);
#else
/* A kernel without the RDMA stack: this host is never in a cluster. */
static inline int hcclt_link_init(void)
{
	return 0;
}

static inline void hcclt_link_fini(void)
{
}

static inline const struct hcclt_host *hcclt_cluster_self(void)
{
	return NULL;
}

static inline struct hcclt_link *hcclt_link_get(const struct hcclt_host *to,
						ktime_t deadline)
{
	return ERR_PTR(-EOPNOTSUPP);
}

static inline struct hcclt_link *hcclt_link_ref(struct hcclt_link *link)
{
	return link;
}

static inline void hcclt_link_put(struct hcclt_link *link)
{
}

static inline const struct hcclt_host *
hcclt_link_peer(const struct hcclt_link *link)
{
	return NULL;
}

static inline int hcclt_link_send(struct hcclt_link *link, u16 type,
				  const void *body, size_t len)
{
	return -ENOTCONN;
}

static inline void hcclt_link_record(struct hcclt_notify *n)
{
}
#endif

/* Called by the link layer (hcclt_group.c). */
void hcclt_group_msg(struct hcclt_link *link, u16 type, const void *body,
		     size_t len);
void hcclt_group_link_down(struct hcclt_link *link);
void hcclt_channel_msg(struct hcclt_link *link, u16 type, const void *body,
		       size_t len);
void hcclt_channel_link_down(struct hcclt_link *link);
void hcclt_xfer_msg(struct hcclt_link *link, u16 type, const void *body,
		    size_t len);
void hcclt_xfer_link_drained(struct hcclt_link *link);
bool hcclt_xfer_maps_overdue(struct hcclt_link *link);

#endif /* HCCLT_LINK_H */
