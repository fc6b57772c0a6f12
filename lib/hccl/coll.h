/* SPDX-License-Identifier: MIT */
/*
 * What libhccl.so (the host half of the collectives) and
 * libhccl_kernel.so (their AICPU kernel) share: the launch parameters,
 * copied into the kernel's argument block, and a communicator's
 * resources, kept in an AICPU engine context (device memory the kernel
 * reads). The shape is a CANN custom operator's (Documentation/
 * collectives.rst): resources acquired once per communicator, one kernel
 * launch per operation, the kernel queueing the operation's tasks on an
 * AICPU thread in batch mode.
 */
#ifndef HCCLT_COLL_H_
#define HCCLT_COLL_H_

#include <stdint.h>

#include "hccl/hccl_res.h"
#include "hccl/hccl_types.h"

/* Ranks of one communicator, at most (the simulated server has 16 cards). */
#define COLL_MAX_RANKS		64
/* Notify indexes of every channel: see kernel/xfer.c. */
#define COLL_NOTIFY_READY	0
#define COLL_NOTIFY_DATA	1
#define COLL_CHANNEL_NOTIFIES	2
#define COLL_TAG_LEN		64
#define COLL_NAME_LEN		128
/* HcclBatchSendRecv() items of one launch, at most. */
#define COLL_MAX_ITEMS		1024
/* The engine contexts' tags. */
#define COLL_CTX_TAG		"hcclt_collectives"

enum coll_op {
	COLL_ALLREDUCE = 1,
	COLL_BROADCAST,
	COLL_REDUCE_SCATTER,
	COLL_REDUCE_SCATTER_V,
	COLL_SCATTER,
	COLL_ALLGATHER,
	COLL_ALLGATHER_V,
	COLL_SEND,
	COLL_RECV,
	COLL_ALLTOALL,
	COLL_ALLTOALL_V,	/* also HcclAlltoAllVC, converted by the host */
	COLL_REDUCE,
	COLL_BATCH_SEND_RECV,
	COLL_BARRIER,
};

/* Algorithm families (HCCLT_COLL_ALGO=mesh|ring forces one). */
enum coll_algo {
	COLL_ALGO_AUTO = 0,
	COLL_ALGO_MESH = 1,	/* every pair at once through HCCL buffers */
	COLL_ALGO_RING = 2,	/* neighbours only, in place in HCCL buffers */
};

/*
 * A communicator's resources as the kernel sees them (an AICPU engine
 * context). @chan[i] and @peer_buf[i] are 0/NULL until a channel to rank
 * i exists; @chan[rank] is never set.
 */
struct coll_res {
	ThreadHandle thread;		/* AICPU_TS: runs every operation */
	uint32_t rank, nranks;
	void *buf;			/* this rank's HCCL buffer */
	uint64_t buf_size;
	ChannelHandle chan[COLL_MAX_RANKS];
	void *peer_buf[COLL_MAX_RANKS];
	uint64_t peer_buf_size[COLL_MAX_RANKS];
};

/* One send or receive of HcclBatchSendRecv(), as the kernel takes it. */
struct coll_item {
	void *buf;
	uint64_t bytes;
	uint32_t peer;
	uint32_t send;		/* 1: send, 0: receive */
};

/*
 * The kernel's argument block: this header, then @nvec uint64_t (the
 * counts and displacements of the V operations: see coll_vec()) or
 * @nitems struct coll_item (HcclBatchSendRecv()).
 */
struct coll_param {
	char tag[COLL_TAG_LEN];
	char comm_name[COLL_NAME_LEN];
	struct coll_res *res;
	ThreadHandle done;	/* the user's stream, as an AICPU_TS thread */
	uint32_t op;		/* enum coll_op */
	uint32_t algo;		/* enum coll_algo */
	uint32_t dtype;		/* HcclDataType */
	uint32_t rop;		/* HcclReduceOp */
	uint32_t root;		/* root, or the peer of SEND/RECV */
	uint32_t esize;		/* bytes per element */
	uint32_t timeout;	/* notify waits, seconds */
	uint32_t nvec, nitems, pad;
	uint64_t count;		/* elements (see hccl.h per operation) */
	void *send, *recv;
	/* Threshold of COLL_ALGO_AUTO: ring from this many bytes up. */
	uint64_t ring_min;
};

/*
 * The V operations' arrays after the header, in elements:
 *  ALLGATHER_V:       counts[n], displs[n]
 *  REDUCE_SCATTER_V:  counts[n], displs[n]
 *  ALLTOALL_V:        scounts[n], sdispls[n], rcounts[n], rdispls[n]
 */
static inline const uint64_t *coll_vec(const struct coll_param *p)
{
	return (const uint64_t *)(const void *)(p + 1);
}

static inline const struct coll_item *coll_items(const struct coll_param *p)
{
	return (const struct coll_item *)(const void *)(p + 1);
}

#endif /* HCCLT_COLL_H_ */
