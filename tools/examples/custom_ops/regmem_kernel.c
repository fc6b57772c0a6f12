// SPDX-License-Identifier: MIT
/*
 * AICPU kernels of the registered-memory operators (regmem_ops.h): a
 * zero-copy AllGather, a WithNotify ping-pong and a BatchTransfer
 * scatter. Each runs in batch mode on its AICPU thread: wait for the
 * user's stream, the READY handshake with every peer, the operator's
 * transfers, then the record back to the user's stream.
 */
#include <stdint.h>

#include "regmem_ops.h"

#define TRY(call)						\
	do {							\
		int32_t ret_ = (call);				\
		if (ret_ != HCCL_SUCCESS)			\
			return ret_;				\
	} while (0)

/* Record READY to every peer @p names a channel of, then wait for theirs. */
static int32_t handshake(const struct rm_param *p, const struct rm_res *r)
{
	uint32_t i;

	for (i = 0; i < p->rank_size; i++)
		if (r->ch[i])
			TRY(HcommChannelNotifyRecordOnThread(r->thread, r->ch[i], RM_READY));
	for (i = 0; i < p->rank_size; i++)
		if (r->ch[i])
			TRY(HcommChannelNotifyWaitOnThread(r->thread, r->ch[i], RM_READY,
							   RM_TIMEOUT_S));
	return HCCL_SUCCESS;
}

/* Every rank's input into slot rank of every rank's output, in place. */
static int32_t zc_allgather(const struct rm_param *p, const struct rm_res *r)
{
	uint64_t off = (uint64_t)p->rank * p->bytes;
	uint32_t i;

	TRY(HcommLocalCopyOnThread(r->thread, (char *)p->output + off, p->input, p->bytes));
	for (i = 0; i < p->rank_size; i++)
		if (r->ch[i])
			TRY(HcommWriteWithNotifyOnThread(r->thread, r->ch[i],
							 (char *)r->peer_mem[i] + off, p->input,
							 p->bytes, RM_DATA));
	for (i = 0; i < p->rank_size; i++)
		if (r->ch[i])
			TRY(HcommChannelNotifyWaitOnThread(r->thread, r->ch[i], RM_DATA,
							   RM_TIMEOUT_S));
	return HCCL_SUCCESS;
}

/* Ranks 2k and 2k+1 bounce the output @p->iters times (see regmem_ops.h). */
static int32_t pingpong(const struct rm_param *p, const struct rm_res *r)
{
	uint32_t peer = p->rank ^ 1u, i;
	ChannelHandle ch;

	if (peer >= p->rank_size)
		return HCCL_SUCCESS;	/* the odd one out */
	ch = r->ch[peer];
	if (!(p->rank & 1u))
		TRY(HcommLocalCopyOnThread(r->thread, p->output, p->input, p->bytes));
	for (i = 0; i < p->iters; i++) {
		if (!(p->rank & 1u)) {
			TRY(HcommWriteWithNotifyOnThread(r->thread, ch, r->peer_mem[peer],
							 p->output, p->bytes, RM_DATA));
			TRY(HcommChannelNotifyWaitOnThread(r->thread, ch, RM_DATA,
							   RM_TIMEOUT_S));
		} else {
			TRY(HcommChannelNotifyWaitOnThread(r->thread, ch, RM_DATA,
							   RM_TIMEOUT_S));
			TRY(HcommWriteReduceWithNotifyOnThread(r->thread, ch, r->peer_mem[peer],
							       p->ones, p->bytes / 4,
							       HCOMM_DATA_TYPE_INT32,
							       HCOMM_REDUCE_SUM, RM_DATA));
		}
	}
	return HCCL_SUCCESS;
}

/* Rank 0's chunk r into rank r's output: one batch of two per peer. */
static int32_t scatter(const struct rm_param *p, const struct rm_res *r)
{
	HcommBatchTransferDesc d[2];
	uint64_t half = p->bytes / 2;
	const char *src;
	uint32_t i;

	if (p->rank) {
		TRY(HcommChannelNotifyWaitOnThread(r->thread, r->ch[0], RM_DATA, RM_TIMEOUT_S));
		return HCCL_SUCCESS;
	}
	TRY(HcommLocalCopyOnThread(r->thread, p->output, p->input, p->bytes));
	for (i = 1; i < p->rank_size; i++) {
		src = (const char *)p->input + (uint64_t)i * p->bytes;
		d[0].transType = HCOMM_TRANSFER_TYPE_WRITE;
		d[0].transferInfo.write.dst = r->peer_mem[i];
		d[0].transferInfo.write.src = (void *)src;
		d[0].transferInfo.write.len = half;
		d[1].transType = HCOMM_TRANSFER_TYPE_WRITE_WITH_NOTIFY;
		d[1].transferInfo.writeWithNotify.dst = (char *)r->peer_mem[i] + half;
		d[1].transferInfo.writeWithNotify.src = (void *)(src + half);
		d[1].transferInfo.writeWithNotify.len = p->bytes - half;
		d[1].transferInfo.writeWithNotify.notifyIdx = RM_DATA;
		TRY(HcommBatchTransferOnThread(r->thread, r->ch[i], d, 2));
	}
	return HCCL_SUCCESS;
}

static unsigned int run(struct rm_param *p, uint32_t op)
{
	const struct rm_res *r = p->res;
	int32_t ret, end;

	if (p->op != op || HcommAcquireComm(p->comm_name) != HCCL_SUCCESS)
		return 1;
	ret = HcommBatchModeStart(p->tag);
	if (ret == HCCL_SUCCESS) {
		ret = HcommThreadNotifyWaitOnThread(r->thread, 0, RM_TIMEOUT_S);
		if (ret == HCCL_SUCCESS)
			ret = handshake(p, r);
		if (ret == HCCL_SUCCESS)
			ret = op == RM_OP_ZC_ALLGATHER ? zc_allgather(p, r) :
			      op == RM_OP_PINGPONG ? pingpong(p, r) : scatter(p, r);
		if (ret == HCCL_SUCCESS)
			ret = HcommThreadNotifyRecordOnThread(r->thread, r->host_on_aicpu, 0);
		end = HcommBatchModeEnd(p->tag);
		if (ret == HCCL_SUCCESS)
			ret = end;
	}
	HcommReleaseComm(p->comm_name);
	return ret == HCCL_SUCCESS ? 0 : 1;
}

unsigned int RegmemZcAllGatherKernel(struct rm_param *p);
unsigned int RegmemPingPongKernel(struct rm_param *p);
unsigned int RegmemScatterKernel(struct rm_param *p);

unsigned int RegmemZcAllGatherKernel(struct rm_param *p)
{
	return run(p, RM_OP_ZC_ALLGATHER);
}

unsigned int RegmemPingPongKernel(struct rm_param *p)
{
	return run(p, RM_OP_PINGPONG);
}

unsigned int RegmemScatterKernel(struct rm_param *p)
{
	return run(p, RM_OP_SCATTER);
}
