/* SPDX-License-Identifier: MIT */
/*
 * The collectives' AICPU kernel (libhccl_kernel.so): what its files share.
 *
 * Every task is queued on the communicator's AICPU thread in batch mode;
 * the kernel function only builds the list and returns, the simulated
 * device runs it. A transfer from rank a to rank b always goes through b's
 * HCCL buffer and always takes the same four steps (xfer.c):
 *
 *   b: record READY on the channel to a  ("the place for you is free")
 *   a: wait READY, write (or write-reduce) into b's buffer, record DATA
 *   b: wait DATA, then read what arrived
 *
 * so the notifies of each direction of a channel alternate READY, DATA,
 * READY, ... and a record is always waited for before the next record of
 * the same notify (they are binary).
 */
#ifndef HCCLT_COLL_KERN_H_
#define HCCLT_COLL_KERN_H_

#include <stdint.h>

#include "hccl/hcomm_primitives.h"
#include "../coll.h"


#define TRY(call)						\
	do {							\
		int32_t ret_ = (call);				\
		if (ret_ != HCCL_SUCCESS)			\
			return ret_;				\
	} while (0)

/* One operation being queued. */
struct kx {
	const struct coll_param *p;
	const struct coll_res *r;
	ThreadHandle t;
	uint32_t me, n;
	uint64_t esize;
	uint64_t region;	/* bytes of one sender's region of a buffer */
};

/* A piece of memory, and a cursor over a list of them. */
struct seg {
	char *ptr;
	uint64_t len;
};

struct segs {
	const struct seg *s;
	uint32_t n;
	uint32_t i;		/* cursor: segment */
	uint64_t off;		/* cursor: offset in it */
};

/*
 * A mesh exchange: for each peer what goes to it and what comes from it,
 * in chunks of at most one region. With @reduce, every chunk received in a
 * round is reduced, in rank order, with this rank's @own chunk into the
 * @dst chunk (the lengths of own, dst and every receive list agree); else
 * each received chunk is copied to its place in the receive list.
 */
struct mesh {
	struct segs send[COLL_MAX_RANKS];
	struct segs recv[COLL_MAX_RANKS];
	int reduce;
	struct segs own, dst;
};

/* xfer.c */
int32_t kx_copy(struct kx *k, void *dst, const void *src, uint64_t len);
int32_t kx_reduce(struct kx *k, void *dst, const void *src, uint64_t len);
int32_t kx_ready(struct kx *k, uint32_t peer);
int32_t kx_wait_ready(struct kx *k, uint32_t peer);
int32_t kx_data(struct kx *k, uint32_t peer);
int32_t kx_wait_data(struct kx *k, uint32_t peer);
int32_t kx_write(struct kx *k, uint32_t peer, uint64_t off, const void *src, uint64_t len,
		 int reduce);
void segs_init(struct segs *l, const struct seg *s, uint32_t n);
int32_t mesh_run(struct kx *k, struct mesh *m);
int32_t barrier_run(struct kx *k);

/* ring.c */
int32_t ring_allreduce(struct kx *k);
int32_t ring_reduce_scatter(struct kx *k);
int32_t ring_allgather(struct kx *k);

#endif /* HCCLT_COLL_KERN_H_ */
