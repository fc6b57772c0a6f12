// SPDX-License-Identifier: MIT
/*
 * AICPU half of the example ring AllGather (ExampleAllGather). Every rank
 * holds rank_size slots of `bytes` in its HCCL buffer; slot i ends up with
 * rank i's input. A rank copies its input into its own slot, then, in
 * rank_size - 1 steps, writes the slot it received last (its own at first)
 * into the same slot of its right neighbour's buffer and waits for its
 * left neighbour to do the same to it. Finally it copies all slots to the
 * output.
 *
 * Flow control, per channel index (notifies are binary: a record is
 * waited for before the next record of the same index):
 *
 *   to the left:  READY once at the start ("my buffer is free"), then
 *                 READY after each slot received but the last;
 *   to the right: DATA after each slot written, only after the right
 *                 neighbour's READY.
 *
 * The READY at the start is recorded after the previous operation's
 * copy-out (same thread, stream order), so a fast neighbour never
 * overwrites a slot that is still being read. Slots larger than the
 * buffer allows are refused by the host half.
 */
#include <stdint.h>

#include "op_common.h"

#define TRY(call)						\
	do {							\
		int32_t ret_ = (call);				\
		if (ret_ != HCCL_SUCCESS)			\
			return ret_;				\
	} while (0)

static int32_t ring(const struct example_param *p, const struct example_res *r)
{
	uint32_t n = p->rank_size, s, slot;
	char *buf = r->local_buf, *right = r->right_buf;

	TRY(HcommLocalCopyOnThread(r->aicpu_thread, buf + p->rank * p->bytes,
				   p->input, p->bytes));
	TRY(HcommChannelNotifyRecordOnThread(r->aicpu_thread, r->left,
					     EXAMPLE_NOTIFY_READY));
	for (s = 0; s + 1 < n; s++) {
		slot = (p->rank + n - s) % n;
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
	return HcommLocalCopyOnThread(r->aicpu_thread, p->output, buf,
				      (uint64_t)n * p->bytes);
}

static int32_t allgather_run(const struct example_param *p)
{
	const struct example_res *r = p->res;

	if (p->op != EXAMPLE_OP_ALLGATHER)
		return HCCL_E_PARA;
	TRY(HcommThreadNotifyWaitOnThread(r->aicpu_thread, 0, EXAMPLE_TIMEOUT_S));
	if (p->rank_size == 1)
		TRY(HcommLocalCopyOnThread(r->aicpu_thread, p->output, p->input, p->bytes));
	else
		TRY(ring(p, r));
	return HcommThreadNotifyRecordOnThread(r->aicpu_thread,
					       r->host_thread_on_aicpu, 0);
}

unsigned int ExampleAllGatherAicpuKernel(struct example_param *p);

unsigned int ExampleAllGatherAicpuKernel(struct example_param *p)
{
	return example_kernel(p, allgather_run);
}
