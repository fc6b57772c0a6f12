// SPDX-License-Identifier: MIT
/*
 * AICPU half of the example hierarchical AllGather
 * (ExampleHierAllGather), for ranks on several servers: first a ring
 * AllGather among the ranks of each server (the server layer's links),
 * then an exchange between servers (the cluster layer's links): each rank
 * writes its server's gathered block into the same place of the buffer of
 * the rank at its own place on every other server. Ranks are numbered
 * server by server (CANN's order), so a server's block is contiguous.
 *
 * Every rank holds rank_size slots of `bytes` in its HCCL buffer; slot i
 * ends up with rank i's input; finally all slots are copied out.
 *
 * Flow control, per channel index (binary notifies):
 *
 *   ring: as the ring AllGather (allgather_kernel.c), over the server's
 *         ranks and their slots;
 *   cross channel to server k: READY at the start ("my slots of your
 *         server are free", after the previous operation's copy-out, in
 *         stream order), then wait for k's READY, write, record DATA, and
 *         wait for k's DATA before the copy-out.
 *
 * The ring writes only slots of its own server and the exchange only
 * slots of the writer's server, so the two never write the same slot.
 */
#include <stdint.h>

#include "op_common.h"

#define TRY(call)						\
	do {							\
		int32_t ret_ = (call);				\
		if (ret_ != HCCL_SUCCESS)			\
			return ret_;				\
	} while (0)

/* The ring over this server's ranks; their slots start at @base. */
static int32_t server_ring(const struct example_param *p, const struct example_hier_res *h)
{
	const struct example_res *r = &h->ring;
	uint32_t n = h->server_size, base = h->server * n, s, slot;
	char *buf = r->local_buf, *right = r->right_buf;

	TRY(HcommChannelNotifyRecordOnThread(r->aicpu_thread, r->left, EXAMPLE_NOTIFY_READY));
	for (s = 0; s + 1 < n; s++) {
		slot = base + (h->local + n - s) % n;
		TRY(HcommChannelNotifyWaitOnThread(r->aicpu_thread, r->right,
						   EXAMPLE_NOTIFY_READY, EXAMPLE_TIMEOUT_S));
		TRY(HcommWriteOnThread(r->aicpu_thread, r->right, right + slot * p->bytes,
				       buf + slot * p->bytes, p->bytes));
		TRY(HcommChannelNotifyRecordOnThread(r->aicpu_thread, r->right,
						     EXAMPLE_NOTIFY_DATA));
		TRY(HcommChannelNotifyWaitOnThread(r->aicpu_thread, r->left,
						   EXAMPLE_NOTIFY_DATA, EXAMPLE_TIMEOUT_S));
		if (s + 2 < n)
			TRY(HcommChannelNotifyRecordOnThread(r->aicpu_thread, r->left,
							     EXAMPLE_NOTIFY_READY));
	}
	return HCCL_SUCCESS;
}

/* The exchange of this server's block with every other server. */
static int32_t exchange(const struct example_param *p, const struct example_hier_res *h)
{
	ThreadHandle t = h->ring.aicpu_thread;
	uint64_t block = (uint64_t)h->server_size * p->bytes;
	uint64_t off = h->server * block;
	char *buf = h->ring.local_buf;
	uint32_t k;

	for (k = 0; k < h->servers; k++)
		if (k != h->server)
			TRY(HcommChannelNotifyRecordOnThread(t, h->cross[k], EXAMPLE_NOTIFY_READY));
	for (k = 0; k < h->servers; k++) {
		if (k == h->server)
			continue;
		TRY(HcommChannelNotifyWaitOnThread(t, h->cross[k], EXAMPLE_NOTIFY_READY,
						   EXAMPLE_TIMEOUT_S));
		TRY(HcommWriteOnThread(t, h->cross[k], (char *)h->cross_buf[k] + off, buf + off,
				       block));
		TRY(HcommChannelNotifyRecordOnThread(t, h->cross[k], EXAMPLE_NOTIFY_DATA));
	}
	for (k = 0; k < h->servers; k++)
		if (k != h->server)
			TRY(HcommChannelNotifyWaitOnThread(t, h->cross[k], EXAMPLE_NOTIFY_DATA,
							   EXAMPLE_TIMEOUT_S));
	return HCCL_SUCCESS;
}

static int32_t hier_run(const struct example_param *p)
{
	const struct example_hier_res *h = (const struct example_hier_res *)p->res;
	const struct example_res *r = &h->ring;

	if (p->op != EXAMPLE_OP_HIER_ALLGATHER)
		return HCCL_E_PARA;
	TRY(HcommThreadNotifyWaitOnThread(r->aicpu_thread, 0, EXAMPLE_TIMEOUT_S));
	TRY(HcommLocalCopyOnThread(r->aicpu_thread, (char *)r->local_buf + p->rank * p->bytes,
				   p->input, p->bytes));
	if (h->server_size > 1)
		TRY(server_ring(p, h));
	if (h->servers > 1)
		TRY(exchange(p, h));
	TRY(HcommLocalCopyOnThread(r->aicpu_thread, p->output, r->local_buf,
				   (uint64_t)p->rank_size * p->bytes));
	return HcommThreadNotifyRecordOnThread(r->aicpu_thread, r->host_thread_on_aicpu, 0);
}

unsigned int ExampleHierAllGatherAicpuKernel(struct example_param *p);

unsigned int ExampleHierAllGatherAicpuKernel(struct example_param *p)
{
	return example_kernel(p, hier_run);
}
