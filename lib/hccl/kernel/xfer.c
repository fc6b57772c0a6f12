// SPDX-License-Identifier: MIT
/*
 * The collectives' building blocks (see kern.h for the transfer protocol):
 * tasks on the AICPU thread, and the mesh exchange every non-ring
 * algorithm is made of.
 *
 * Mesh exchange: each rank's HCCL buffer is cut into one region per
 * sender (region q receives from rank q), so a rank receives from all its
 * peers at once. The exchange goes in rounds; in round k every pair moves
 * the k-th chunk (at most a region) of its send list:
 *
 *   1. record READY to every peer that sends us a chunk this round;
 *   2. to every peer we send a chunk: wait its READY, write, record DATA;
 *   3. wait DATA from every peer that sent us one, then copy (or reduce)
 *      the chunks out of our regions.
 *
 * Steps 1 never wait, so every rank gets through round k once all have
 * got through round k - 1: the exchange cannot deadlock, whatever the
 * sizes per pair (a pair with nothing left just takes no part).
 */
#include <string.h>

#include "hccl/hcomm_primitives.h"
#include "hcclthread.h"
#include "kern.h"

int32_t kx_copy(struct kx *k, void *dst, const void *src, uint64_t len)
{
	if (!len || dst == src)
		return HCCL_SUCCESS;
	return HcommLocalCopyOnThread(k->t, dst, src, len);
}

/* dst = dst (op) src, @len bytes. */
int32_t kx_reduce(struct kx *k, void *dst, const void *src, uint64_t len)
{
	if (!len)
		return HCCL_SUCCESS;
	return hccltLocalReduceOnThread(k->t, dst, src, len / k->esize,
					(HcommDataType)k->p->dtype,
					(HcommReduceOp)k->p->rop);
}

int32_t kx_ready(struct kx *k, uint32_t peer)
{
	return HcommChannelNotifyRecordOnThread(k->t, k->r->chan[peer], COLL_NOTIFY_READY);
}

int32_t kx_wait_ready(struct kx *k, uint32_t peer)
{
	return HcommChannelNotifyWaitOnThread(k->t, k->r->chan[peer], COLL_NOTIFY_READY,
					      k->p->timeout);
}

int32_t kx_data(struct kx *k, uint32_t peer)
{
	return HcommChannelNotifyRecordOnThread(k->t, k->r->chan[peer], COLL_NOTIFY_DATA);
}

int32_t kx_wait_data(struct kx *k, uint32_t peer)
{
	return HcommChannelNotifyWaitOnThread(k->t, k->r->chan[peer], COLL_NOTIFY_DATA,
					      k->p->timeout);
}

/* Write (@reduce: write-reduce) @len bytes to offset @off of @peer's buffer. */
int32_t kx_write(struct kx *k, uint32_t peer, uint64_t off, const void *src, uint64_t len,
		 int reduce)
{
	char *dst = (char *)k->r->peer_buf[peer] + off;

	if (!len)
		return HCCL_SUCCESS;
	if (reduce)
		return hccltWriteReduceOnThread(k->t, k->r->chan[peer], dst, src,
						len / k->esize, (HcommDataType)k->p->dtype,
						(HcommReduceOp)k->p->rop);
	return HcommWriteOnThread(k->t, k->r->chan[peer], dst, src, len);
}

void segs_init(struct segs *l, const struct seg *s, uint32_t n)
{
	l->s = s;
	l->n = n;
	l->i = 0;
	l->off = 0;
}

/* The next chunk of @l, at most @max bytes; 0 when @l is done. */
static int segs_next(struct segs *l, uint64_t max, struct seg *out)
{
	while (l->i < l->n && l->off == l->s[l->i].len) {
		l->i++;
		l->off = 0;
	}
	if (l->i == l->n)
		return 0;
	out->ptr = l->s[l->i].ptr + l->off;
	out->len = l->s[l->i].len - l->off;
	if (out->len > max)
		out->len = max;
	l->off += out->len;
	return 1;
}

/*
 * Reduce this round's chunks into @dst, in rank order so that every rank
 * reducing the same data gets the same bits: dst = x0, dst op= x1, ...
 * Rank q's chunk is in our region q, ours in @own. Reduced in place
 * (@own is @dst), our chunk is first put in our own region, which nobody
 * writes to, so that copying x0 into @dst does not lose it.
 */
static int32_t mesh_reduce(struct kx *k, const struct seg *own, const struct seg *dst)
{
	char *buf = k->r->buf;
	const char *mine = own->ptr, *x;
	uint32_t q;

	if (k->me && dst->ptr == own->ptr) {
		TRY(kx_copy(k, buf + k->me * k->region, own->ptr, own->len));
		mine = buf + k->me * k->region;
	}
	x = k->me ? buf : mine;
	TRY(kx_copy(k, dst->ptr, x, dst->len));
	for (q = 1; q < k->n; q++) {
		x = q == k->me ? mine : buf + q * k->region;
		TRY(kx_reduce(k, dst->ptr, x, dst->len));
	}
	return HCCL_SUCCESS;
}

int32_t mesh_run(struct kx *k, struct mesh *m)
{
	struct seg sc[COLL_MAX_RANKS], rc[COLL_MAX_RANKS], own, dst;
	uint8_t hs[COLL_MAX_RANKS], hr[COLL_MAX_RANKS];
	uint32_t i, q;
	int any, red;

	for (;;) {
		any = 0;
		for (q = 0; q < k->n; q++) {
			hs[q] = q != k->me && segs_next(&m->send[q], k->region, &sc[q]);
			hr[q] = q != k->me && segs_next(&m->recv[q], k->region, &rc[q]);
			any |= hs[q] | hr[q];
		}
		red = m->reduce && segs_next(&m->own, k->region, &own) &&
		      segs_next(&m->dst, k->region, &dst);
		if (!any && !red)
			return HCCL_SUCCESS;
		for (q = 0; q < k->n; q++)
			if (hr[q])
				TRY(kx_ready(k, q));
		/* Start with the next rank: not everybody at rank 0 at once. */
		for (i = 1; i < k->n; i++) {
			q = (k->me + i) % k->n;
			if (!hs[q])
				continue;
			TRY(kx_wait_ready(k, q));
			TRY(kx_write(k, q, (uint64_t)k->me * k->region, sc[q].ptr, sc[q].len, 0));
			TRY(kx_data(k, q));
		}
		for (q = 0; q < k->n; q++) {
			if (!hr[q])
				continue;
			TRY(kx_wait_data(k, q));
			if (!m->reduce)
				TRY(kx_copy(k, rc[q].ptr, (char *)k->r->buf + q * k->region,
					    rc[q].len));
		}
		if (red)
			TRY(mesh_reduce(k, &own, &dst));
	}
}

/*
 * Every rank records READY to every peer, waits for all of theirs, then
 * the same with DATA: nobody leaves before everybody has arrived, and
 * both notifies of every direction are waited for (the next operation
 * finds them clear).
 */
int32_t barrier_run(struct kx *k)
{
	uint32_t i, q;

	for (i = 1; i < k->n; i++)
		TRY(kx_ready(k, (k->me + i) % k->n));
	for (i = 1; i < k->n; i++)
		TRY(kx_wait_ready(k, (k->me + i) % k->n));
	for (i = 1; i < k->n; i++)
		TRY(kx_data(k, (k->me + i) % k->n));
	for (q = 0; q < k->n; q++)
		if (q != k->me)
			TRY(kx_wait_data(k, q));
	return HCCL_SUCCESS;
}
