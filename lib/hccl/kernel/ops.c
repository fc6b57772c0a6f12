// SPDX-License-Identifier: MIT
/*
 * The collectives' AICPU kernel: HcclCollAicpuKernel() runs once per
 * operation on the device's AI CPU. It takes the communicator, opens a
 * batch, queues the operation's tasks on the communicator's AICPU thread
 * (mesh or ring, see xfer.c and ring.c), then a record of the user's
 * stream, which waits for it (host.c), and submits the batch.
 *
 * Algorithm per operation (COLL_ALGO_AUTO): AllReduce, ReduceScatter and
 * AllGather take the ring from p->ring_min bytes up (AllReduce's buffer,
 * ReduceScatter's block, AllGather's output; see
 * Documentation/collectives.rst for the measurement), the mesh below;
 * every other operation is a mesh exchange.
 */
#include <stdlib.h>
#include <string.h>

#include "hccl/hcomm_primitives.h"
#include "hcomm/hcomm_primitives_expt.h"
#include "kern.h"

static void one(struct segs *l, struct seg *s, void *ptr, uint64_t len)
{
	s->ptr = ptr;
	s->len = len;
	segs_init(l, s, 1);
}

/* Per-peer segments, one each, of an operation (storage for struct mesh). */
struct segbuf {
	struct seg send[COLL_MAX_RANKS], recv[COLL_MAX_RANKS], own, dst;
};

static int use_ring(struct kx *k, uint64_t bytes)
{
	if (k->p->algo == COLL_ALGO_RING)
		return 1;
	return k->p->algo == COLL_ALGO_AUTO && bytes >= k->p->ring_min;
}

static int32_t op_allreduce(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	uint64_t bytes = p->count * k->esize;
	uint32_t q;

	if (use_ring(k, bytes))
		return ring_allreduce(k);
	for (q = 0; q < k->n; q++) {
		one(&m->send[q], &b->send[q], p->send, bytes);
		one(&m->recv[q], &b->recv[q], p->recv, bytes);
	}
	m->reduce = 1;
	one(&m->own, &b->own, p->send, bytes);
	one(&m->dst, &b->dst, p->recv, bytes);
	return mesh_run(k, m);
}

static int32_t op_reduce_scatter(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	uint64_t block = p->count * k->esize;
	uint32_t q;

	if (use_ring(k, block))
		return ring_reduce_scatter(k);
	for (q = 0; q < k->n; q++) {
		one(&m->send[q], &b->send[q], (char *)p->send + q * block, block);
		one(&m->recv[q], &b->recv[q], p->recv, block);
	}
	m->reduce = 1;
	one(&m->own, &b->own, (char *)p->send + k->me * block, block);
	one(&m->dst, &b->dst, p->recv, block);
	return mesh_run(k, m);
}

static int32_t op_reduce_scatter_v(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	const uint64_t *counts = coll_vec(p), *displs = counts + k->n;
	uint64_t mine = counts[k->me] * k->esize;
	uint32_t q;

	for (q = 0; q < k->n; q++) {
		one(&m->send[q], &b->send[q], (char *)p->send + displs[q] * k->esize,
		    counts[q] * k->esize);
		one(&m->recv[q], &b->recv[q], p->recv, mine);
	}
	m->reduce = 1;
	one(&m->own, &b->own, (char *)p->send + displs[k->me] * k->esize, mine);
	one(&m->dst, &b->dst, p->recv, mine);
	return mesh_run(k, m);
}

static int32_t op_reduce(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	uint64_t bytes = p->count * k->esize;
	uint32_t q;

	if (k->me != p->root) {
		one(&m->send[p->root], &b->send[p->root], p->send, bytes);
		return mesh_run(k, m);
	}
	for (q = 0; q < k->n; q++)
		one(&m->recv[q], &b->recv[q], p->recv, bytes);
	m->reduce = 1;
	one(&m->own, &b->own, p->send, bytes);
	one(&m->dst, &b->dst, p->recv, bytes);
	return mesh_run(k, m);
}

static int32_t op_allgather(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	uint64_t block = p->count * k->esize;
	uint32_t q;

	if (use_ring(k, block * k->n))
		return ring_allgather(k);
	/* Ours first: in place, the others' blocks may cover our input. */
	TRY(kx_copy(k, (char *)p->recv + k->me * block, p->send, block));
	for (q = 0; q < k->n; q++) {
		one(&m->send[q], &b->send[q], (char *)p->recv + k->me * block, block);
		one(&m->recv[q], &b->recv[q], (char *)p->recv + q * block, block);
	}
	return mesh_run(k, m);
}

static int32_t op_allgather_v(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	const uint64_t *counts = coll_vec(p), *displs = counts + k->n;
	char *mine = (char *)p->recv + displs[k->me] * k->esize;
	uint32_t q;

	TRY(kx_copy(k, mine, p->send, counts[k->me] * k->esize));
	for (q = 0; q < k->n; q++) {
		one(&m->send[q], &b->send[q], mine, counts[k->me] * k->esize);
		one(&m->recv[q], &b->recv[q], (char *)p->recv + displs[q] * k->esize,
		    counts[q] * k->esize);
	}
	return mesh_run(k, m);
}

static int32_t op_broadcast(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	uint64_t bytes = p->count * k->esize;
	uint32_t q;

	if (k->me != p->root) {
		one(&m->recv[p->root], &b->recv[p->root], p->recv, bytes);
		return mesh_run(k, m);
	}
	for (q = 0; q < k->n; q++)
		one(&m->send[q], &b->send[q], p->send, bytes);
	return mesh_run(k, m);
}

static int32_t op_scatter(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	uint64_t block = p->count * k->esize;
	uint32_t q;

	if (k->me != p->root) {
		one(&m->recv[p->root], &b->recv[p->root], p->recv, block);
		return mesh_run(k, m);
	}
	for (q = 0; q < k->n; q++)
		one(&m->send[q], &b->send[q], (char *)p->send + q * block, block);
	TRY(mesh_run(k, m));
	/* After the sends: in place, our block may be where block 0 was. */
	return kx_copy(k, p->recv, (char *)p->send + k->me * block, block);
}

static int32_t op_alltoall(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	uint64_t block = p->count * k->esize;
	uint32_t q;

	for (q = 0; q < k->n; q++) {
		one(&m->send[q], &b->send[q], (char *)p->send + q * block, block);
		one(&m->recv[q], &b->recv[q], (char *)p->recv + q * block, block);
	}
	TRY(mesh_run(k, m));
	return kx_copy(k, (char *)p->recv + k->me * block, (char *)p->send + k->me * block,
		       block);
}

static int32_t op_alltoall_v(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;
	const uint64_t *sc = coll_vec(p), *sd = sc + k->n, *rc = sd + k->n, *rd = rc + k->n;
	uint64_t es = k->esize;
	uint32_t q;

	for (q = 0; q < k->n; q++) {
		one(&m->send[q], &b->send[q], (char *)p->send + sd[q] * es, sc[q] * es);
		one(&m->recv[q], &b->recv[q], (char *)p->recv + rd[q] * es, rc[q] * es);
	}
	TRY(mesh_run(k, m));
	return kx_copy(k, (char *)p->recv + rd[k->me] * es, (char *)p->send + sd[k->me] * es,
		       rc[k->me] * es);
}

static int32_t op_send_recv(struct kx *k, struct mesh *m, struct segbuf *b)
{
	const struct coll_param *p = k->p;

	if (p->op == COLL_SEND)
		one(&m->send[p->root], &b->send[p->root], p->send, p->count * k->esize);
	else
		one(&m->recv[p->root], &b->recv[p->root], p->recv, p->count * k->esize);
	return mesh_run(k, m);
}

/*
 * Items to and from each peer, in their order: the k-th chunk one rank
 * sends a peer is the k-th chunk the peer receives from it. An item to
 * ourselves is a local copy, matched in order with our receives from
 * ourselves.
 */
static int32_t op_batch(struct kx *k, struct mesh *m)
{
	const struct coll_param *p = k->p;
	const struct coll_item *it = coll_items(p);
	uint32_t ns[COLL_MAX_RANKS] = { 0 }, nr[COLL_MAX_RANKS] = { 0 };
	struct seg *s, *sp[COLL_MAX_RANKS], *rp[COLL_MAX_RANKS];
	uint32_t i, q, at = 0, self_s = 0, self_r = 0;
	int32_t ret;

	for (i = 0; i < p->nitems; i++)
		(it[i].send ? ns : nr)[it[i].peer]++;
	s = calloc(p->nitems ? p->nitems : 1, sizeof(*s));
	if (!s)
		return HCCL_E_MEMORY;
	for (q = 0; q < k->n; q++) {
		sp[q] = s + at;
		at += ns[q];
		rp[q] = s + at;
		at += nr[q];
		segs_init(&m->send[q], sp[q], ns[q]);
		segs_init(&m->recv[q], rp[q], nr[q]);
		ns[q] = nr[q] = 0;
	}
	for (i = 0; i < p->nitems; i++) {
		q = it[i].peer;
		if (it[i].send)
			sp[q][ns[q]++] = (struct seg){ it[i].buf, it[i].bytes };
		else
			rp[q][nr[q]++] = (struct seg){ it[i].buf, it[i].bytes };
	}
	ret = mesh_run(k, m);
	/* To ourselves, once the others are out: item by item, in order. */
	while (ret == HCCL_SUCCESS && self_s < ns[k->me] && self_r < nr[k->me]) {
		const struct seg *a = &sp[k->me][self_s++], *d = &rp[k->me][self_r++];

		ret = kx_copy(k, d->ptr, a->ptr, a->len < d->len ? a->len : d->len);
	}
	free(s);
	return ret;
}

static int32_t run(struct kx *k)
{
	const struct coll_param *p = k->p;
	struct segbuf *b;
	struct mesh *m;
	int32_t ret;

	if (p->op == COLL_BARRIER)
		return barrier_run(k);
	m = calloc(1, sizeof(*m));
	b = calloc(1, sizeof(*b));
	if (!m || !b) {
		free(m);
		free(b);
		return HCCL_E_MEMORY;
	}
	switch (p->op) {
	case COLL_ALLREDUCE:
		ret = op_allreduce(k, m, b);
		break;
	case COLL_REDUCE_SCATTER:
		ret = op_reduce_scatter(k, m, b);
		break;
	case COLL_REDUCE_SCATTER_V:
		ret = op_reduce_scatter_v(k, m, b);
		break;
	case COLL_REDUCE:
		ret = op_reduce(k, m, b);
		break;
	case COLL_ALLGATHER:
		ret = op_allgather(k, m, b);
		break;
	case COLL_ALLGATHER_V:
		ret = op_allgather_v(k, m, b);
		break;
	case COLL_BROADCAST:
		ret = op_broadcast(k, m, b);
		break;
	case COLL_SCATTER:
		ret = op_scatter(k, m, b);
		break;
	case COLL_ALLTOALL:
		ret = op_alltoall(k, m, b);
		break;
	case COLL_ALLTOALL_V:
		ret = op_alltoall_v(k, m, b);
		break;
	case COLL_SEND:
	case COLL_RECV:
		ret = op_send_recv(k, m, b);
		break;
	case COLL_BATCH_SEND_RECV:
		ret = op_batch(k, m);
		break;
	default:
		ret = HCCL_E_PARA;
	}
	free(m);
	free(b);
	return ret;
}

/*
 * One rank alone: the result is its own input (a reduce of one operand is
 * the operand), so only a copy, when the buffers differ.
 */
static int32_t run_alone(struct kx *k)
{
	const struct coll_param *p = k->p;
	const uint64_t *v = coll_vec(p);
	const struct coll_item *it;
	uint32_t i, j;

	switch (p->op) {
	case COLL_BARRIER:
	case COLL_BROADCAST:
		return HCCL_SUCCESS;
	case COLL_ALLGATHER_V:
		return kx_copy(k, (char *)p->recv + v[1] * k->esize, p->send, v[0] * k->esize);
	case COLL_REDUCE_SCATTER_V:
		return kx_copy(k, p->recv, (char *)p->send + v[1] * k->esize, v[0] * k->esize);
	case COLL_ALLTOALL_V:
		return kx_copy(k, (char *)p->recv + v[3] * k->esize,
			       (char *)p->send + v[1] * k->esize, v[2] * k->esize);
	case COLL_BATCH_SEND_RECV:
		it = coll_items(p);
		for (i = 0, j = 0; i < p->nitems; i++) {
			if (!it[i].send)
				continue;
			while (j < p->nitems && it[j].send)
				j++;
			if (j == p->nitems)
				break;
			TRY(kx_copy(k, it[j].buf, it[i].buf,
				    it[i].bytes < it[j].bytes ? it[i].bytes : it[j].bytes));
			j++;
		}
		return HCCL_SUCCESS;
	default:
		return kx_copy(k, p->recv, p->send, p->count * k->esize);
	}
}

unsigned int HcclCollAicpuKernel(struct coll_param *p);

__attribute__((visibility("default"))) unsigned int HcclCollAicpuKernel(struct coll_param *p)
{
	struct kx k;
	int32_t ret, end;

	memset(&k, 0, sizeof(k));
	k.p = p;
	k.r = p->res;
	k.t = k.r->thread;
	k.me = k.r->rank;
	k.n = k.r->nranks;
	k.esize = p->esize;
	/* A sender's region: a multiple of 64 bytes, so of every element size. */
	k.region = k.r->buf_size / k.n / 64 * 64;
	if (!k.region || k.n > COLL_MAX_RANKS)
		return 1;
	if (HcommAcquireComm(p->comm_name) != HCCL_SUCCESS)
		return 1;
	ret = HcommBatchModeStart(p->tag);
	if (ret == HCCL_SUCCESS) {
		ret = k.n == 1 ? run_alone(&k) : run(&k);
		if (ret == HCCL_SUCCESS)
			ret = HcommThreadNotifyRecordOnThread(k.t, p->done, 0);
		/* End submits what was queued, also after a failure. */
		end = HcommBatchModeEnd(p->tag);
		if (ret == HCCL_SUCCESS)
			ret = end;
	}
	if (HcommReleaseComm(p->comm_name) != HCCL_SUCCESS && ret == HCCL_SUCCESS)
		ret = HCCL_E_INTERNAL;
	return ret == HCCL_SUCCESS ? 0 : 1;
}
