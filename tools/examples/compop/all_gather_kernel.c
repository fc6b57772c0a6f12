// SPDX-License-Identifier: MIT
/*
 * The AICPU kernel of the competition-style AllGather (all_gather_op.h):
 * 8 AICPU threads, one batch, WithNotify within a server and
 * BatchTransfer across the servers.
 */
#include <stdint.h>

#include "all_gather_op.h"

#define CHECK(call)						\
	do {							\
		int32_t ret_ = (call);				\
		if (ret_ != HCCL_SUCCESS)			\
			return ret_;				\
	} while (0)

unsigned int CompopAllGatherKernel(void *args);

/* Peer @k (0..rank_size-2) in ring order from this rank. */
static uint32_t peer_of(const struct co_args *a, uint32_t k)
{
	return (a->rank + 1 + k) % a->rank_size;
}

static int same_server(const struct co_args *a, uint32_t peer)
{
	return peer / a->server_size == a->rank / a->server_size;
}

/* This rank's input into slot rank of @peer's registered output. */
static int32_t send_to(const struct co_args *a, ThreadHandle t, uint32_t peer)
{
	const struct co_res *r = a->res;
	uint64_t off = (uint64_t)a->rank * a->bytes, done = 0, len;
	HcommBatchTransferDesc d[CO_SLICES];
	uint32_t n = a->bytes < CO_SLICES ? 1 : CO_SLICES, i;
	char *dst = (char *)r->peer_out[peer] + off;
	char *src = a->input;

	if (off + a->bytes > r->peer_size[peer])
		return HCCL_E_PARA;
	if (same_server(a, peer))
		return HcommWriteWithNotifyOnThread(t, r->ch[peer], dst, src, a->bytes, CO_DATA);
	for (i = 0; i < n; i++) {
		len = i == n - 1 ? a->bytes - done : a->bytes / n;
		if (i < n - 1) {
			d[i].transType = HCOMM_TRANSFER_TYPE_WRITE;
			d[i].transferInfo.write.dst = dst + done;
			d[i].transferInfo.write.src = src + done;
			d[i].transferInfo.write.len = len;
		} else {
			d[i].transType = HCOMM_TRANSFER_TYPE_WRITE_WITH_NOTIFY;
			d[i].transferInfo.writeWithNotify.dst = dst + done;
			d[i].transferInfo.writeWithNotify.src = src + done;
			d[i].transferInfo.writeWithNotify.len = len;
			d[i].transferInfo.writeWithNotify.notifyIdx = CO_DATA;
		}
		done += len;
	}
	return HcommBatchTransferOnThread(t, r->ch[peer], d, n);
}

/* Thread @t's share: peers k = t, t + CO_THREADS, ... */
static int32_t thread_work(const struct co_args *a, uint32_t t)
{
	const struct co_res *r = a->res;
	ThreadHandle th = r->thread[t];
	uint32_t k, p;

	for (k = t; k + 1 < a->rank_size; k += CO_THREADS)
		CHECK(HcommChannelNotifyRecordOnThread(th, r->ch[peer_of(a, k)], CO_READY));
	for (k = t; k + 1 < a->rank_size; k += CO_THREADS)
		CHECK(HcommChannelNotifyWaitOnThread(th, r->ch[peer_of(a, k)], CO_READY,
						     CO_TIMEOUT_S));
	for (k = t; k + 1 < a->rank_size; k += CO_THREADS)
		CHECK(send_to(a, th, peer_of(a, k)));
	for (k = t; k + 1 < a->rank_size; k += CO_THREADS) {
		p = peer_of(a, k);
		CHECK(HcommChannelNotifyWaitOnThread(th, r->ch[p], CO_DATA, CO_TIMEOUT_S));
	}
	return HCCL_SUCCESS;
}

static int32_t all_gather(const struct co_args *a)
{
	const struct co_res *r = a->res;
	ThreadHandle main_thread = r->thread[0];
	uint32_t t;

	if (a->rank_size > CO_MAX_RANKS || !a->server_size || a->rank >= a->rank_size)
		return HCCL_E_PARA;
	/* The user's stream reached the launch: start the other threads. */
	CHECK(HcommThreadNotifyWaitOnThread(main_thread, 0, CO_TIMEOUT_S));
	for (t = 1; t < CO_THREADS; t++)
		CHECK(HcommThreadNotifyRecordOnThread(main_thread, r->thread[t], 0));
	CHECK(HcommLocalCopyOnThread(main_thread, (char *)a->output + (uint64_t)a->rank * a->bytes,
				     a->input, a->bytes));
	for (t = 1; t < CO_THREADS; t++)
		CHECK(HcommThreadNotifyWaitOnThread(r->thread[t], 0, CO_TIMEOUT_S));
	for (t = 0; t < CO_THREADS; t++)
		CHECK(thread_work(a, t));
	/* Every thread done: then the user's stream goes on. */
	for (t = 1; t < CO_THREADS; t++)
		CHECK(HcommThreadNotifyRecordOnThread(r->thread[t], main_thread, t));
	for (t = 1; t < CO_THREADS; t++)
		CHECK(HcommThreadNotifyWaitOnThread(main_thread, t, CO_TIMEOUT_S));
	return HcommThreadNotifyRecordOnThread(main_thread, r->host_on_aicpu, 0);
}

unsigned int CompopAllGatherKernel(void *args)
{
	struct co_args *a = args;
	int32_t ret, end;

	if (HcommAcquireComm(a->comm_name) != HCCL_SUCCESS)
		return 1;
	ret = HcommBatchModeStart(a->tag);
	if (ret == HCCL_SUCCESS) {
		ret = all_gather(a);
		end = HcommBatchModeEnd(a->tag);
		if (ret == HCCL_SUCCESS)
			ret = end;
	}
	HcommReleaseComm(a->comm_name);
	return ret == HCCL_SUCCESS ? 0 : 1;
}
