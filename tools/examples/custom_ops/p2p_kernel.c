// SPDX-License-Identifier: MIT
/*
 * AICPU half of the example P2P operator (ExampleSend / ExampleRecv): a
 * kernel the simulated AI CPU runs when the user's stream reaches the
 * launch. It queues the operator's tasks on its AICPU thread in batch mode
 * and returns; the tasks run after it, in stream order.
 *
 * The data goes through the sender's HCCL buffer, one slice at a time: the
 * sender stages a slice there and records DATA; the receiver waits for it,
 * reads the slice from the sender's buffer (a one-sided read over the
 * channel) and records READY, after which the sender may stage the next.
 * Each record is waited for before the next record of the same index, as
 * notifies are binary.
 */
#include <stdint.h>

#include "op_common.h"

#define TRY(call)						\
	do {							\
		int32_t ret_ = (call);				\
		if (ret_ != HCCL_SUCCESS)			\
			return ret_;				\
	} while (0)

static int32_t p2p_send(const struct example_param *p, const struct example_res *r)
{
	uint64_t off, n;

	for (off = 0; off < p->bytes; off += n) {
		n = p->bytes - off < r->local_size ? p->bytes - off : r->local_size;
		TRY(HcommLocalCopyOnThread(r->aicpu_thread, r->local_buf,
					   (const char *)p->input + off, n));
		TRY(HcommChannelNotifyRecordOnThread(r->aicpu_thread, r->right,
						     EXAMPLE_NOTIFY_DATA));
		TRY(HcommChannelNotifyWaitOnThread(r->aicpu_thread, r->right,
						   EXAMPLE_NOTIFY_READY, EXAMPLE_TIMEOUT_S));
	}
	return HCCL_SUCCESS;
}

static int32_t p2p_recv(const struct example_param *p, const struct example_res *r)
{
	uint64_t off, n;

	for (off = 0; off < p->bytes; off += n) {
		n = p->bytes - off < r->right_size ? p->bytes - off : r->right_size;
		TRY(HcommChannelNotifyWaitOnThread(r->aicpu_thread, r->right,
						   EXAMPLE_NOTIFY_DATA, EXAMPLE_TIMEOUT_S));
		TRY(HcommReadOnThread(r->aicpu_thread, r->right,
				      (char *)p->output + off, r->right_buf, n));
		TRY(HcommChannelNotifyRecordOnThread(r->aicpu_thread, r->right,
						     EXAMPLE_NOTIFY_READY));
	}
	return HCCL_SUCCESS;
}

static int32_t p2p_run(const struct example_param *p)
{
	const struct example_res *r = p->res;

	/* Start when the user's stream has reached the operator. */
	TRY(HcommThreadNotifyWaitOnThread(r->aicpu_thread, 0, EXAMPLE_TIMEOUT_S));
	if (p->op == EXAMPLE_OP_SEND)
		TRY(p2p_send(p, r));
	else if (p->op == EXAMPLE_OP_RECV)
		TRY(p2p_recv(p, r));
	else
		return HCCL_E_PARA;
	/* Hand the user's stream back. */
	return HcommThreadNotifyRecordOnThread(r->aicpu_thread,
					       r->host_thread_on_aicpu, 0);
}

/* The kernel: its name is the functionName of example_p2p_kernel.json. */
unsigned int ExampleP2pAicpuKernel(struct example_param *p);

unsigned int ExampleP2pAicpuKernel(struct example_param *p)
{
	return example_kernel(p, p2p_run);
}
