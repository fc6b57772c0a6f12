/* SPDX-License-Identifier: MIT */
/*
 * A competition-style AllGather (our own code, written from the API the
 * way CANN's 2026 HCCL operator competition submissions are written):
 * what its host half (all_gather_host.c) and its AICPU kernel
 * (all_gather_kernel.c) share. Built as a third party builds it: against
 * a CANN-style home (make -C lib install-cann), -I include, -L lib64,
 * CANN's library names; see Documentation/custom-operators.rst, "A
 * competition-style operator".
 *
 * Resources, per communicator, on the operator's first call:
 *  - the user's stream wrapped into a CPU_TS thread with 1 notify, and
 *    CO_THREADS AICPU_TS threads with CO_NOTIFIES notifies each: 65
 *    notifies, more than the seed quota's 64 (HCCL_E_UNAVAIL there),
 *    within hcomm 2026-08's (quota_rules=2026-08);
 *  - the output buffer registered (HcclCommMemReg) under the operator's
 *    tag; a channel to every peer (2 notifies: READY, DATA) and the
 *    peer's registered output (HcclChannelGetRemoteMems).
 *
 * The kernel: thread 0 waits for the user's stream and starts threads
 * 1..7 (thread notify 0); the peers, in ring order from this rank, are
 * dealt to the threads round robin; each thread handshakes READY with its
 * peers, writes this rank's input into slot rank of each peer's output
 * (within the server one HcommWriteWithNotifyOnThread, across the servers
 * one HcommBatchTransferOnThread of CO_SLICES slices whose last one
 * notifies), waits for its peers' DATA and reports to thread 0 (thread
 * notify t); thread 0 then records the user's stream. Everything it
 * dereferences is device memory: the argument block and the AICPU engine
 * context.
 */
#ifndef ALL_GATHER_OP_H_
#define ALL_GATHER_OP_H_

#include <stdint.h>

#include "hccl/hccl_res.h"
#include "hccl/hccl_types.h"
#include "hcomm/hcomm_primitives.h"

#define CO_TAG		"CompopAllGather"
#define CO_THREADS	8
#define CO_NOTIFIES	8
#define CO_MAX_RANKS	32
#define CO_SLICES	4
#define CO_READY	0
#define CO_DATA		1
#define CO_TIMEOUT_S	120

/* The operator's resources on one rank: its AICPU engine context. */
struct co_res {
	ThreadHandle thread[CO_THREADS];	/* AICPU_TS; 0 is the main one */
	ThreadHandle host_on_aicpu;		/* the user's stream, as AICPU_TS */
	ChannelHandle ch[CO_MAX_RANKS];		/* by peer rank; 0: none */
	void *peer_out[CO_MAX_RANKS];		/* the peer's registered output */
	uint64_t peer_size[CO_MAX_RANKS];
};

/* The kernel's argument block. */
struct co_args {
	char tag[64];
	char comm_name[128];
	uint32_t rank, rank_size, server_size, pad;
	void *input;		/* device memory */
	void *output;		/* device memory, registered */
	uint64_t bytes;		/* per rank */
	struct co_res *res;	/* device memory */
};

#endif /* ALL_GATHER_OP_H_ */
