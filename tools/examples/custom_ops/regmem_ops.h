/* SPDX-License-Identifier: MIT */
/*
 * Three operators written the way third-party CANN operators use
 * registered memory (hcclt-example-regmem-ops, our own code), shared by
 * their host half (regmem_main.c) and their AICPU kernels
 * (regmem_kernel.c):
 *
 *  - a zero-copy AllGather: every rank registers its output buffer
 *    (HcclCommMemReg) and writes its input straight into every peer's
 *    output (HcommWriteWithNotifyOnThread into the range
 *    HcclChannelGetRemoteMems gave), a mesh with no staging copy;
 *  - a WithNotify ping-pong: rank pairs (2k, 2k+1) bounce a buffer @iters
 *    times; the pinger writes it with HcommWriteWithNotifyOnThread, the
 *    ponger adds one to every INT32 of it on the way back with
 *    HcommWriteReduceWithNotifyOnThread, so data that arrived after its
 *    notify would show in the count;
 *  - a BatchTransfer scatter: rank 0 sends chunk r of its input to rank r
 *    with one HcommBatchTransferOnThread per peer (a WRITE of the first
 *    half, a WRITE_WITH_NOTIFY of the second), into the peer's registered
 *    output.
 *
 * Every operator starts with a READY handshake on each of its channels
 * (notify 0), so that no rank writes into a peer's memory before the
 * peer's previous call has ended (its host checked the result), and
 * signals data with notify 1. The kernels dereference nothing but device
 * memory: the argument block and the resources in an AICPU engine
 * context; the peers' ranges are addresses for the Hcomm calls only.
 */
#ifndef REGMEM_OPS_H_
#define REGMEM_OPS_H_

#include <stdint.h>

#include "acl/acl_rt.h"
#include "hccl/hccl_res.h"
#include "hccl/hccl_types.h"
#include "hcomm/hcomm_primitives.h"

#define RM_MAX_RANKS	32
#define RM_READY	0
#define RM_DATA		1
#define RM_TIMEOUT_S	120

enum rm_op {
	RM_OP_ZC_ALLGATHER = 1,
	RM_OP_PINGPONG = 2,
	RM_OP_SCATTER = 3,
};

/* An operator's resources on one rank, in its AICPU engine context. */
struct rm_res {
	ThreadHandle thread;		/* AICPU_TS, runs the operator */
	ThreadHandle host_on_aicpu;	/* the user's stream, as AICPU_TS */
	ChannelHandle ch[RM_MAX_RANKS];	/* by peer rank; 0: none */
	void *peer_mem[RM_MAX_RANKS];	/* the peer's registered range */
	uint64_t peer_size[RM_MAX_RANKS];
};

/* The kernel's argument block. */
struct rm_param {
	char tag[64];
	char comm_name[128];
	uint32_t op, rank, rank_size, iters;
	void *input;		/* device memory */
	void *output;		/* device memory, registered */
	void *ones;		/* ping-pong: INT32 ones, bytes long */
	uint64_t bytes;
	struct rm_res *res;
};

#endif /* REGMEM_OPS_H_ */
