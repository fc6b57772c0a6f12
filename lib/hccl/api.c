// SPDX-License-Identifier: MIT
/*
 * HCCL's collective operations (hccl/hccl.h): argument checks in CANN's
 * order, then one launch of the collectives' kernel (host.c).
 */
#include <string.h>

#include "hccl/hccl.h"
#include "internal.h"

/* HcclDataType sets, as CANN's header lists them per call. */
#define DT(t)		(1U << (t))
#define DT_ANY		(DT(HCCL_DATA_TYPE_INT8) | DT(HCCL_DATA_TYPE_INT16) |		\
			 DT(HCCL_DATA_TYPE_INT32) | DT(HCCL_DATA_TYPE_INT64) |		\
			 DT(HCCL_DATA_TYPE_UINT8) | DT(HCCL_DATA_TYPE_UINT16) |		\
			 DT(HCCL_DATA_TYPE_UINT32) | DT(HCCL_DATA_TYPE_UINT64) |	\
			 DT(HCCL_DATA_TYPE_FP16) | DT(HCCL_DATA_TYPE_FP32) |		\
			 DT(HCCL_DATA_TYPE_FP64) | DT(HCCL_DATA_TYPE_BFP16))
#define DT_REDUCE	(DT(HCCL_DATA_TYPE_INT8) | DT(HCCL_DATA_TYPE_INT16) |		\
			 DT(HCCL_DATA_TYPE_INT32) | DT(HCCL_DATA_TYPE_INT64) |		\
			 DT(HCCL_DATA_TYPE_UINT64) | DT(HCCL_DATA_TYPE_FP16) |		\
			 DT(HCCL_DATA_TYPE_FP32) | DT(HCCL_DATA_TYPE_FP64) |		\
			 DT(HCCL_DATA_TYPE_BFP16))
#define DT_REDUCE_V	(DT(HCCL_DATA_TYPE_INT8) | DT(HCCL_DATA_TYPE_INT16) |		\
			 DT(HCCL_DATA_TYPE_INT32) | DT(HCCL_DATA_TYPE_INT64) |		\
			 DT(HCCL_DATA_TYPE_FP16) | DT(HCCL_DATA_TYPE_FP32) |		\
			 DT(HCCL_DATA_TYPE_BFP16))
#define OP(o)		(1U << (o))
#define OP_ALL		(OP(HCCL_REDUCE_SUM) | OP(HCCL_REDUCE_PROD) | OP(HCCL_REDUCE_MAX) | \
			 OP(HCCL_REDUCE_MIN))
#define OP_V		(OP(HCCL_REDUCE_SUM) | OP(HCCL_REDUCE_MAX) | OP(HCCL_REDUCE_MIN))

#define CHECK(cond, code)			\
	do {					\
		if (cond)			\
			return code;		\
	} while (0)

static uint32_t esize(HcclDataType t)
{
	switch (t) {
	case HCCL_DATA_TYPE_INT8:
	case HCCL_DATA_TYPE_UINT8:
		return 1;
	case HCCL_DATA_TYPE_INT16:
	case HCCL_DATA_TYPE_UINT16:
	case HCCL_DATA_TYPE_FP16:
	case HCCL_DATA_TYPE_BFP16:
		return 2;
	case HCCL_DATA_TYPE_INT32:
	case HCCL_DATA_TYPE_UINT32:
	case HCCL_DATA_TYPE_FP32:
		return 4;
	default:
		return 8;
	}
}

static int dt_in(HcclDataType t, uint32_t set)
{
	return (uint32_t)t < 32 && (set >> (uint32_t)t & 1);
}

static int op_in(HcclReduceOp o, uint32_t set)
{
	return (uint32_t)o < 32 && (set >> (uint32_t)o & 1);
}

/* The parameters every operation starts from; rank and size of @comm. */
static HcclResult param(struct coll_param *p, enum coll_op op, HcclComm comm,
			HcclDataType dt, uint64_t count, uint32_t *rank, uint32_t *n)
{
	HcclResult ret;

	memset(p, 0, sizeof(*p));
	ret = HcclGetRankId(comm, rank);
	if (ret == HCCL_SUCCESS)
		ret = HcclGetRankSize(comm, n);
	if (ret != HCCL_SUCCESS)
		return ret;
	p->op = op;
	p->dtype = (uint32_t)dt;
	p->esize = esize(dt);
	p->count = count;
	/* Every byte count must fit in uint64 (and a buffer in the address space). */
	if (count > UINT64_MAX / p->esize / (*n ? *n : 1))
		return HCCL_E_PARA;
	return HCCL_SUCCESS;
}

static const uint8_t all_ranks[COLL_MAX_RANKS] = {
	[0 ... COLL_MAX_RANKS - 1] = 1,
};

HCCL_EXPORT HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count,
				     HcclDataType dataType, HcclReduceOp op, HcclComm comm,
				     aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!count, HCCL_SUCCESS);
	CHECK(!sendBuf || !recvBuf, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_REDUCE), HCCL_E_NOT_SUPPORT);
	CHECK(!op_in(op, OP_ALL), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_ALLREDUCE, comm, dataType, count, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	p.rop = (uint32_t)op;
	p.send = sendBuf;
	p.recv = recvBuf;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}

HCCL_EXPORT HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType,
				     uint32_t root, HcclComm comm, aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!count, HCCL_SUCCESS);
	CHECK(!buf, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_ANY), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_BROADCAST, comm, dataType, count, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(root >= n, HCCL_E_PARA);
	p.root = root;
	p.send = buf;
	p.recv = buf;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}

HCCL_EXPORT HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
					 HcclDataType dataType, HcclReduceOp op, HcclComm comm,
					 aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!recvCount, HCCL_SUCCESS);
	CHECK(!sendBuf || !recvBuf, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_REDUCE), HCCL_E_NOT_SUPPORT);
	CHECK(!op_in(op, OP_ALL), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_REDUCE_SCATTER, comm, dataType, recvCount, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	p.rop = (uint32_t)op;
	p.send = sendBuf;
	p.recv = recvBuf;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}

/*
 * Counts and displacements of the V operations (@n entries each, uint64_t,
 * in elements): each block must lie within a buffer of at most
 * UINT64_MAX bytes. *@total: the sum of the counts.
 */
static HcclResult vec_check(const uint64_t *counts, const uint64_t *displs, uint32_t n,
			    uint32_t es, uint64_t *total)
{
	uint32_t i;

	*total = 0;
	for (i = 0; i < n; i++) {
		if (counts[i] > UINT64_MAX / es || displs[i] > UINT64_MAX / es - counts[i])
			return HCCL_E_PARA;
		if (counts[i] > UINT64_MAX - *total)
			return HCCL_E_PARA;
		*total += counts[i];
	}
	return HCCL_SUCCESS;
}

/*
 * The @n counts and displacements of a V operation into @vec (counts,
 * then displacements), checked as vec_check() does.
 */
static HcclResult vec_load(uint64_t *vec, const void *counts, const void *displs, uint32_t n,
			   uint32_t es, uint64_t *total)
{
	if (n > COLL_MAX_RANKS)
		return HCCL_E_NOT_SUPPORT;
	memcpy(vec, counts, n * sizeof(uint64_t));
	memcpy(vec + n, displs, n * sizeof(uint64_t));
	return vec_check(vec, vec + n, n, es, total);
}

HCCL_EXPORT HcclResult HcclReduceScatterV(void *sendBuf, const void *sendCounts,
					  const void *sendDispls, void *recvBuf,
					  uint64_t recvCount, HcclDataType dataType,
					  HcclReduceOp op, HcclComm comm, aclrtStream stream)
{
	uint64_t vec[2 * COLL_MAX_RANKS], total;
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!sendCounts || !sendDispls, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_REDUCE_V), HCCL_E_NOT_SUPPORT);
	CHECK(!op_in(op, OP_V), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_REDUCE_SCATTER_V, comm, dataType, recvCount, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	ret = vec_load(vec, sendCounts, sendDispls, n, p.esize, &total);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(recvCount != vec[rank], HCCL_E_PARA);
	/* Nothing anywhere: no rank takes part. */
	CHECK(!total, HCCL_SUCCESS);
	CHECK(!sendBuf || (recvCount && !recvBuf), HCCL_E_PTR);
	p.rop = (uint32_t)op;
	p.send = sendBuf;
	p.recv = recvBuf;
	p.nvec = 2 * n;
	return coll_launch(comm, stream, &p, vec, p.nvec * sizeof(uint64_t), all_ranks);
}

HCCL_EXPORT HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
				   HcclDataType dataType, uint32_t root, HcclComm comm,
				   aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!recvCount, HCCL_SUCCESS);
	CHECK(!recvBuf, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_ANY), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_SCATTER, comm, dataType, recvCount, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(root >= n, HCCL_E_PARA);
	CHECK(rank == root && !sendBuf, HCCL_E_PTR);
	p.root = root;
	p.send = sendBuf;
	p.recv = recvBuf;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}

HCCL_EXPORT HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount,
				     HcclDataType dataType, HcclComm comm, aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!sendCount, HCCL_SUCCESS);
	CHECK(!sendBuf || !recvBuf, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_ANY), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_ALLGATHER, comm, dataType, sendCount, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	p.send = sendBuf;
	p.recv = recvBuf;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}

HCCL_EXPORT HcclResult HcclAllGatherV(void *sendBuf, uint64_t sendCount, void *recvBuf,
				      const void *recvCounts, const void *recvDispls,
				      HcclDataType dataType, HcclComm comm, aclrtStream stream)
{
	uint64_t vec[2 * COLL_MAX_RANKS], total;
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!recvCounts || !recvDispls, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_ANY), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_ALLGATHER_V, comm, dataType, sendCount, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	ret = vec_load(vec, recvCounts, recvDispls, n, p.esize, &total);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(sendCount != vec[rank], HCCL_E_PARA);
	CHECK(!total, HCCL_SUCCESS);
	CHECK((sendCount && !sendBuf) || !recvBuf, HCCL_E_PTR);
	p.send = sendBuf;
	p.recv = recvBuf;
	p.nvec = 2 * n;
	return coll_launch(comm, stream, &p, vec, p.nvec * sizeof(uint64_t), all_ranks);
}

static HcclResult p2p(enum coll_op op, void *buf, uint64_t count, HcclDataType dataType,
		      uint32_t peer, HcclComm comm, aclrtStream stream)
{
	uint8_t want[COLL_MAX_RANKS] = { 0 };
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!count, HCCL_SUCCESS);
	CHECK(!buf, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_ANY), HCCL_E_NOT_SUPPORT);
	ret = param(&p, op, comm, dataType, count, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(peer >= n || peer == rank, HCCL_E_PARA);
	p.root = peer;
	if (op == COLL_SEND)
		p.send = buf;
	else
		p.recv = buf;
	want[peer] = 1;
	return coll_launch(comm, stream, &p, NULL, 0, want);
}

HCCL_EXPORT HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType,
				uint32_t destRank, HcclComm comm, aclrtStream stream)
{
	return p2p(COLL_SEND, sendBuf, count, dataType, destRank, comm, stream);
}

HCCL_EXPORT HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType,
				uint32_t srcRank, HcclComm comm, aclrtStream stream)
{
	return p2p(COLL_RECV, recvBuf, count, dataType, srcRank, comm, stream);
}

/* AlltoAllV's arrays: scounts, sdispls, rcounts, rdispls. */
static HcclResult alltoallv(const void *sendBuf, const void *recvBuf, uint64_t *vec,
			    HcclDataType dt, HcclComm comm, aclrtStream stream, uint32_t rank,
			    uint32_t n)
{
	uint8_t want[COLL_MAX_RANKS] = { 0 };
	uint64_t stotal, rtotal;
	struct coll_param p;
	uint32_t r2, n2, q;
	HcclResult ret;

	ret = param(&p, COLL_ALLTOALL_V, comm, dt, 0, &r2, &n2);
	if (ret != HCCL_SUCCESS)
		return ret;
	ret = vec_check(vec, vec + n, n, p.esize, &stotal);
	if (ret == HCCL_SUCCESS)
		ret = vec_check(vec + 2 * n, vec + 3 * n, n, p.esize, &rtotal);
	if (ret != HCCL_SUCCESS)
		return ret;
	/* What we send ourselves is what we receive from ourselves. */
	CHECK(vec[rank] != vec[2 * n + rank], HCCL_E_PARA);
	CHECK(!stotal && !rtotal, HCCL_SUCCESS);
	CHECK((stotal && !sendBuf) || (rtotal && !recvBuf), HCCL_E_PTR);
	/*
	 * Channels to the ranks we exchange with only: a rank with nothing to
	 * do returns above, and must not be waited for. Both ends of a pair
	 * see the same counts, so both ask.
	 */
	for (q = 0; q < n; q++)
		want[q] = vec[q] || vec[2 * n + q];
	p.send = (void *)sendBuf;
	p.recv = (void *)recvBuf;
	p.nvec = 4 * n;
	return coll_launch(comm, stream, &p, vec, p.nvec * sizeof(uint64_t), want);
}

HCCL_EXPORT HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts,
				     const void *sdispls, HcclDataType sendType,
				     const void *recvBuf, const void *recvCounts,
				     const void *rdispls, HcclDataType recvType, HcclComm comm,
				     aclrtStream stream)
{
	uint64_t vec[4 * COLL_MAX_RANKS];
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!sendCounts || !sdispls || !recvCounts || !rdispls, HCCL_E_PTR);
	CHECK(!dt_in(sendType, DT_ANY) || !dt_in(recvType, DT_ANY), HCCL_E_NOT_SUPPORT);
	CHECK(sendType != recvType, HCCL_E_PARA);
	ret = HcclGetRankId(comm, &rank);
	if (ret == HCCL_SUCCESS)
		ret = HcclGetRankSize(comm, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(n > COLL_MAX_RANKS, HCCL_E_NOT_SUPPORT);
	memcpy(vec, sendCounts, n * sizeof(uint64_t));
	memcpy(vec + n, sdispls, n * sizeof(uint64_t));
	memcpy(vec + 2 * n, recvCounts, n * sizeof(uint64_t));
	memcpy(vec + 3 * n, rdispls, n * sizeof(uint64_t));
	return alltoallv(sendBuf, recvBuf, vec, sendType, comm, stream, rank, n);
}

HCCL_EXPORT HcclResult HcclAlltoAllVC(const void *sendBuf, const void *sendCountMatrix,
				      HcclDataType sendType, const void *recvBuf,
				      HcclDataType recvType, HcclComm comm, aclrtStream stream)
{
	const uint64_t *m = sendCountMatrix;
	uint64_t vec[4 * COLL_MAX_RANKS], soff = 0, roff = 0;
	uint32_t rank, n, j;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!sendCountMatrix, HCCL_E_PTR);
	CHECK(!dt_in(sendType, DT_ANY) || !dt_in(recvType, DT_ANY), HCCL_E_NOT_SUPPORT);
	CHECK(sendType != recvType, HCCL_E_PARA);
	ret = HcclGetRankId(comm, &rank);
	if (ret == HCCL_SUCCESS)
		ret = HcclGetRankSize(comm, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(n > COLL_MAX_RANKS, HCCL_E_NOT_SUPPORT);
	/* Our row sends, our column receives, each packed in rank order. */
	for (j = 0; j < n; j++) {
		vec[j] = m[(uint64_t)rank * n + j];
		vec[n + j] = soff;
		vec[2 * n + j] = m[(uint64_t)j * n + rank];
		vec[3 * n + j] = roff;
		CHECK(vec[j] > UINT64_MAX - soff || vec[2 * n + j] > UINT64_MAX - roff,
		      HCCL_E_PARA);
		soff += vec[j];
		roff += vec[2 * n + j];
	}
	return alltoallv(sendBuf, recvBuf, vec, sendType, comm, stream, rank, n);
}

HCCL_EXPORT HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount,
				    HcclDataType sendType, const void *recvBuf,
				    uint64_t recvCount, HcclDataType recvType, HcclComm comm,
				    aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!sendCount && !recvCount, HCCL_SUCCESS);
	CHECK(!sendBuf || !recvBuf, HCCL_E_PTR);
	CHECK(!dt_in(sendType, DT_ANY) || !dt_in(recvType, DT_ANY), HCCL_E_NOT_SUPPORT);
	CHECK(sendType != recvType || sendCount != recvCount, HCCL_E_PARA);
	ret = param(&p, COLL_ALLTOALL, comm, sendType, sendCount, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	p.send = (void *)sendBuf;
	p.recv = (void *)recvBuf;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}

HCCL_EXPORT HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count,
				  HcclDataType dataType, HcclReduceOp op, uint32_t root,
				  HcclComm comm, aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!count, HCCL_SUCCESS);
	CHECK(!sendBuf, HCCL_E_PTR);
	CHECK(!dt_in(dataType, DT_REDUCE), HCCL_E_NOT_SUPPORT);
	CHECK(!op_in(op, OP_ALL), HCCL_E_NOT_SUPPORT);
	ret = param(&p, COLL_REDUCE, comm, dataType, count, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	CHECK(root >= n, HCCL_E_PARA);
	CHECK(rank == root && !recvBuf, HCCL_E_PTR);
	p.rop = (uint32_t)op;
	p.root = root;
	p.send = sendBuf;
	p.recv = recvBuf;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}

HCCL_EXPORT HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum,
					 HcclComm comm, aclrtStream stream)
{
	struct coll_item items[COLL_MAX_ITEMS];
	uint8_t want[COLL_MAX_RANKS] = { 0 };
	struct coll_param p;
	uint32_t rank, n, i, k = 0;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	CHECK(!itemNum, HCCL_SUCCESS);
	CHECK(!sendRecvInfo, HCCL_E_PTR);
	CHECK(itemNum > COLL_MAX_ITEMS, HCCL_E_PARA);
	ret = param(&p, COLL_BATCH_SEND_RECV, comm, HCCL_DATA_TYPE_INT8, 0, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	for (i = 0; i < itemNum; i++) {
		const HcclSendRecvItem *it = &sendRecvInfo[i];

		CHECK(it->sendRecvType != HCCL_SEND && it->sendRecvType != HCCL_RECV,
		      HCCL_E_PARA);
		CHECK(!dt_in(it->dataType, DT_ANY), HCCL_E_NOT_SUPPORT);
		CHECK(it->remoteRank >= n, HCCL_E_PARA);
		CHECK(it->count > UINT64_MAX / esize(it->dataType), HCCL_E_PARA);
		if (!it->count)
			continue;
		CHECK(!it->buf, HCCL_E_PTR);
		items[k].buf = it->buf;
		items[k].bytes = it->count * esize(it->dataType);
		items[k].peer = it->remoteRank;
		items[k].send = it->sendRecvType == HCCL_SEND;
		want[it->remoteRank] = 1;
		k++;
	}
	CHECK(!k, HCCL_SUCCESS);
	p.nitems = k;
	return coll_launch(comm, stream, &p, items, k * sizeof(items[0]), want);
}

HCCL_EXPORT HcclResult HcclBarrier(HcclComm comm, aclrtStream stream)
{
	struct coll_param p;
	uint32_t rank, n;
	HcclResult ret;

	CHECK(!comm || !stream, HCCL_E_PTR);
	ret = param(&p, COLL_BARRIER, comm, HCCL_DATA_TYPE_INT8, 0, &rank, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	return coll_launch(comm, stream, &p, NULL, 0, all_ranks);
}
