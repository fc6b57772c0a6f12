// SPDX-License-Identifier: MIT
/*
 * Ring algorithms, for large messages: each rank talks to its right
 * neighbour (sends) and its left one (receives) only, and the data stays
 * in the HCCL buffers between the steps, so that a step moves 1/n of the
 * message and nothing is copied twice.
 *
 * The message goes in passes of at most one HCCL buffer; a pass is cut
 * into n segments (the last ones shorter, or empty, when the count does
 * not divide). Reduce-scatter: in step s rank r write-reduces segment
 * r - s - 1 into the same segment of its right neighbour's buffer, where
 * the neighbour's own copy of it is; after n - 1 steps rank r holds
 * segment r reduced over all ranks. All-gather: in step s rank r writes
 * segment r - s (complete) over its right neighbour's copy. Each step is
 * one transfer of kern.h's protocol with each neighbour; an empty segment
 * is skipped by both of its ends.
 */
#include "kern.h"

struct ring {
	uint64_t off[COLL_MAX_RANKS];	/* segment i at buf + off[i] */
	uint64_t len[COLL_MAX_RANKS];
};

static uint32_t mod(struct kx *k, int64_t i)
{
	int64_t n = k->n;

	return (uint32_t)(((i % n) + n) % n);
}

/* One step: send segment @s right (write-reduce with @reduce), receive @r from the left. */
static int32_t ring_step(struct kx *k, const struct ring *g, uint32_t s, uint32_t r, int reduce)
{
	uint32_t right = mod(k, (int64_t)k->me + 1), left = mod(k, (int64_t)k->me - 1);
	const char *buf = k->r->buf;

	if (g->len[r])
		TRY(kx_ready(k, left));
	if (g->len[s]) {
		TRY(kx_wait_ready(k, right));
		TRY(kx_write(k, right, g->off[s], buf + g->off[s], g->len[s], reduce));
		TRY(kx_data(k, right));
	}
	if (g->len[r])
		TRY(kx_wait_data(k, left));
	return HCCL_SUCCESS;
}

/* After it, this rank's segment me holds the reduction over all ranks. */
static int32_t ring_rs(struct kx *k, const struct ring *g)
{
	uint32_t s;

	for (s = 0; s + 1 < k->n; s++)
		TRY(ring_step(k, g, mod(k, (int64_t)k->me - s - 1),
			      mod(k, (int64_t)k->me - s - 2), 1));
	return HCCL_SUCCESS;
}

/* From each rank's segment me, every segment everywhere. */
static int32_t ring_ag(struct kx *k, const struct ring *g)
{
	uint32_t s;

	for (s = 0; s + 1 < k->n; s++)
		TRY(ring_step(k, g, mod(k, (int64_t)k->me - s),
			      mod(k, (int64_t)k->me - s - 1), 0));
	return HCCL_SUCCESS;
}

/* Segments of a pass of @elems elements, packed from offset 0. */
static void ring_cut(struct kx *k, struct ring *g, uint64_t elems)
{
	uint64_t per = (elems + k->n - 1) / k->n, lo, hi;
	uint32_t i;

	for (i = 0; i < k->n; i++) {
		lo = i * per < elems ? i * per : elems;
		hi = (i + 1) * per < elems ? (i + 1) * per : elems;
		g->off[i] = lo * k->esize;
		g->len[i] = (hi - lo) * k->esize;
	}
}

int32_t ring_allreduce(struct kx *k)
{
	const struct coll_param *p = k->p;
	uint64_t max = k->region / k->esize * k->n, done, elems;
	char *buf = k->r->buf;
	struct ring g;

	for (done = 0; done < p->count; done += elems) {
		elems = p->count - done < max ? p->count - done : max;
		ring_cut(k, &g, elems);
		TRY(kx_copy(k, buf, (char *)p->send + done * k->esize, elems * k->esize));
		TRY(ring_rs(k, &g));
		TRY(ring_ag(k, &g));
		TRY(kx_copy(k, (char *)p->recv + done * k->esize, buf, elems * k->esize));
	}
	return HCCL_SUCCESS;
}

/* Segments of equal length @len, segment i at i * @len. */
static void ring_even(struct kx *k, struct ring *g, uint64_t len)
{
	uint32_t i;

	for (i = 0; i < k->n; i++) {
		g->off[i] = i * len;
		g->len[i] = len;
	}
}

int32_t ring_reduce_scatter(struct kx *k)
{
	const struct coll_param *p = k->p;
	uint64_t block = p->count * k->esize, done, len;
	char *buf = k->r->buf;
	struct ring g;
	uint32_t q;

	for (done = 0; done < block; done += len) {
		len = block - done < k->region ? block - done : k->region;
		ring_even(k, &g, len);
		for (q = 0; q < k->n; q++)
			TRY(kx_copy(k, buf + g.off[q], (char *)p->send + q * block + done, len));
		TRY(ring_rs(k, &g));
		TRY(kx_copy(k, (char *)p->recv + done, buf + g.off[k->me], len));
	}
	return HCCL_SUCCESS;
}

int32_t ring_allgather(struct kx *k)
{
	const struct coll_param *p = k->p;
	uint64_t block = p->count * k->esize, done, len;
	char *buf = k->r->buf;
	struct ring g;
	uint32_t q;

	for (done = 0; done < block; done += len) {
		len = block - done < k->region ? block - done : k->region;
		ring_even(k, &g, len);
		TRY(kx_copy(k, buf + g.off[k->me], (char *)p->send + done, len));
		TRY(ring_ag(k, &g));
		if (len == block) {
			TRY(kx_copy(k, p->recv, buf, block * k->n));
			continue;
		}
		for (q = 0; q < k->n; q++)
			TRY(kx_copy(k, (char *)p->recv + q * block + done, buf + g.off[q], len));
	}
	return HCCL_SUCCESS;
}
