/* SPDX-License-Identifier: MIT */
/*
 * What the host half and the AICPU half of the example operators share:
 * the launch parameters (copied into the kernel's argument block) and the
 * resources the host half acquires once per communicator and keeps in an
 * AICPU engine context (device memory the kernel reads).
 *
 * The layout is the one a CANN custom operator uses: a parameter struct
 * passed by value to the kernel, a resource struct in an engine context
 * tagged with the operator's name, and two threads that hand control
 * between the user's stream and the AICPU thread running the operator.
 */
#ifndef EXAMPLE_OP_COMMON_H_
#define EXAMPLE_OP_COMMON_H_

#include <stdint.h>

#include "acl/acl_rt.h"
#include "hccl/hccl_res.h"
#include "hccl/hccl_types.h"
#include "hccl/hcomm_primitives.h"

/* Notify indexes of a channel, and of the hand-off threads. */
#define EXAMPLE_NOTIFY_READY	0	/* the peer may go ahead */
#define EXAMPLE_NOTIFY_DATA	1	/* the data is where it should be */
/* Wait timeout of every notify wait, seconds. */
#define EXAMPLE_TIMEOUT_S	120
#define EXAMPLE_TAG_LEN		64
#define EXAMPLE_COMM_NAME_LEN	128
/* Ranks of one AllGather, at most (one channel to each neighbour). */
#define EXAMPLE_MAX_RANKS	32

/*
 * Resources of an operator on one rank, in its AICPU engine context.
 * @aicpu_thread runs the operator; @host_thread_on_aicpu is the user's
 * stream as a thread of the AICPU_TS engine, for the final record.
 */
struct example_res {
	ThreadHandle aicpu_thread;
	ThreadHandle host_thread_on_aicpu;
	/* P2P: the channel to the peer; AllGather: to the left and right. */
	ChannelHandle left, right;
	/* This rank's HCCL buffer, and the right (P2P: the) peer's. */
	void *local_buf;
	uint64_t local_size;
	void *right_buf;
	uint64_t right_size;
};

/* Servers of one hierarchical AllGather, at most. */
#define EXAMPLE_MAX_SERVERS	16

/*
 * Resources of the hierarchical AllGather (ExampleHierAllGather): @ring
 * as the ring AllGather's, its left and right neighbours on this rank's
 * server; @cross[k] the channel to the rank of the same place on server k
 * (none for this rank's own server) and @cross_buf[k] its HCCL buffer.
 * Ranks are numbered server by server: server k has ranks k *
 * @server_size .. (k + 1) * @server_size - 1.
 */
struct example_hier_res {
	struct example_res ring;
	uint32_t server, servers;	/* this rank's, and how many */
	uint32_t local, server_size;	/* its place on its server, ranks per server */
	ChannelHandle cross[EXAMPLE_MAX_SERVERS];
	void *cross_buf[EXAMPLE_MAX_SERVERS];
};

/* What the host half keeps for itself (a CPU engine context). */
struct example_host_res {
	ThreadHandle host_thread;		/* the user's stream, CPU_TS */
	ThreadHandle aicpu_thread_on_host;	/* aicpu_thread, as CPU_TS */
	struct example_res *res;		/* the AICPU engine context */
	uint64_t buf_size;			/* this rank's HCCL buffer */
};

enum example_op {
	EXAMPLE_OP_SEND = 1,
	EXAMPLE_OP_RECV = 2,
	EXAMPLE_OP_ALLGATHER = 3,
	EXAMPLE_OP_HIER_ALLGATHER = 4,
};

/* The kernel's argument block. */
struct example_param {
	char tag[EXAMPLE_TAG_LEN];
	char comm_name[EXAMPLE_COMM_NAME_LEN];
	uint32_t op;		/* enum example_op */
	uint32_t rank, rank_size;
	uint32_t eager;		/* submit each task at once, no batch mode */
	void *input;
	void *output;
	uint64_t bytes;		/* per rank */
	struct example_res *res;	/* hierarchical: a struct example_hier_res */
};

/*
 * The frame of an example kernel: acquire the communicator, open a batch,
 * queue the operator's tasks (@run), submit them, release. 0 on success.
 * With @p->eager (the benchmark's comparison) every task is submitted as
 * it is queued.
 */
static inline unsigned int example_kernel(struct example_param *p,
					  int32_t (*run)(const struct example_param *))
{
	int32_t ret, end;

	if (HcommAcquireComm(p->comm_name) != HCCL_SUCCESS)
		return 1;
	if (p->eager) {
		ret = run(p);
	} else if ((ret = HcommBatchModeStart(p->tag)) == HCCL_SUCCESS) {
		ret = run(p);
		/* End submits what was queued, also after a failure. */
		end = HcommBatchModeEnd(p->tag);
		if (ret == HCCL_SUCCESS)
			ret = end;
	}
	if (HcommReleaseComm(p->comm_name) != HCCL_SUCCESS && ret == HCCL_SUCCESS)
		ret = HCCL_E_INTERNAL;
	return ret == HCCL_SUCCESS ? 0 : 1;
}

#endif /* EXAMPLE_OP_COMMON_H_ */
