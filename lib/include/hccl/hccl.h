/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl.h - HCCL's collective operations (libhccl.so) and, through
 * hccl/hccl_comm.h, the communicator calls (libhcclthread.so). Same include
 * guard, names and signatures as CANN's hccl.h.
 *
 * Every operation is queued on @stream like any other task and returns once
 * it is queued: its errors that need the other ranks (a rank gone, a notify
 * wait timed out) come back from the next aclrtSynchronizeStream() of
 * @stream. Buffers are device memory (aclrtMalloc()) of the communicator's
 * device. All ranks of @comm must call the same operations in the same
 * order with matching arguments (counts, types, root), as in CANN.
 *
 * Checks, in this order (CANN's): @comm, @stream NULL or not live ->
 * HCCL_E_PTR; a zero count -> HCCL_SUCCESS with nothing queued; a NULL
 * buffer -> HCCL_E_PTR; a data type or reduce op the call does not take
 * -> HCCL_E_NOT_SUPPORT; a root or peer rank not in @comm -> HCCL_E_PARA;
 * a byte count that overflows uint64 -> HCCL_E_PARA. The data types each
 * call takes are listed with it; reduce ops are SUM, PROD, MAX and MIN.
 * See Documentation/collectives.rst for the algorithms.
 */
#ifndef HCCL_H_
#define HCCL_H_

#include <stdint.h>
#include "hccl/hccl_types.h"
#include "hccl/hccl_comm.h"
#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * HcclAllReduce() - every rank's @recvBuf becomes the element-wise @op of
 * all ranks' @sendBuf (@count elements; @sendBuf == @recvBuf is allowed).
 * Data types: INT8, INT16, INT32, INT64, UINT64, FP16, FP32, FP64, BFP16.
 * Every rank gets bit-identical results.
 */
HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
			 HcclReduceOp op, HcclComm comm, aclrtStream stream);

/**
 * HcclBroadcast() - @count elements of @buf on rank @root to @buf on every
 * rank. Data types: every integer type, FP16, FP32, FP64, BFP16.
 */
HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root,
			 HcclComm comm, aclrtStream stream);

/**
 * HcclReduceScatter() - @recvBuf of rank i becomes the @op of block i
 * (@recvCount elements at @sendBuf + i * @recvCount) over all ranks.
 * Data types as HcclAllReduce().
 */
HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount,
			     HcclDataType dataType, HcclReduceOp op, HcclComm comm,
			     aclrtStream stream);

/**
 * HcclReduceScatterV() - as HcclReduceScatter(), block i being
 * sendCounts[i] elements at @sendBuf + sendDispls[i] (uint64_t arrays of
 * the rank count, the same on every rank); @recvCount is this rank's
 * sendCounts entry. Data types: INT8, INT16, INT32, INT64, FP16, FP32,
 * BFP16; ops SUM, MAX, MIN (CANN's list).
 */
HcclResult HcclReduceScatterV(void *sendBuf, const void *sendCounts, const void *sendDispls,
			      void *recvBuf, uint64_t recvCount, HcclDataType dataType,
			      HcclReduceOp op, HcclComm comm, aclrtStream stream);

/**
 * HcclScatter() - block i (@recvCount elements at @sendBuf + i *
 * @recvCount) of rank @root to @recvBuf of rank i. @sendBuf is read on
 * @root only. Data types: every integer type, FP16, FP32, FP64, BFP16.
 */
HcclResult HcclScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
		       uint32_t root, HcclComm comm, aclrtStream stream);

/**
 * HcclAllGather() - @recvBuf + i * @sendCount of every rank becomes rank
 * i's @sendBuf. Data types as HcclBroadcast().
 */
HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
			 HcclComm comm, aclrtStream stream);

/**
 * HcclAllGatherV() - @recvBuf + recvDispls[i] (recvCounts[i] elements) of
 * every rank becomes rank i's @sendBuf (@sendCount == recvCounts[rank]).
 * Data types as HcclBroadcast().
 */
HcclResult HcclAllGatherV(void *sendBuf, uint64_t sendCount, void *recvBuf,
			  const void *recvCounts, const void *recvDispls, HcclDataType dataType,
			  HcclComm comm, aclrtStream stream);

/**
 * HcclSend() - @count elements of @sendBuf to rank @destRank, which
 * receives them with HcclRecv() (or a receive item of HcclBatchSendRecv()).
 * Data types as HcclBroadcast().
 */
HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank,
		    HcclComm comm, aclrtStream stream);

/** HcclRecv() - receive @count elements from rank @srcRank into @recvBuf. */
HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank,
		    HcclComm comm, aclrtStream stream);

/**
 * HcclAlltoAllVC() - rank i sends sendCountMatrix[i * n + j] elements to
 * rank j, packed in rank order in @sendBuf; rank j receives them packed
 * in rank order in @recvBuf. The n x n matrix (uint64_t) is the same on
 * every rank.
 */
HcclResult HcclAlltoAllVC(const void *sendBuf, const void *sendCountMatrix, HcclDataType sendType,
			  const void *recvBuf, HcclDataType recvType, HcclComm comm,
			  aclrtStream stream);

/**
 * HcclAlltoAllV() - sendCounts[j] elements at @sendBuf + sdispls[j] to rank
 * j; recvCounts[j] elements from rank j to @recvBuf + rdispls[j] (uint64_t
 * arrays, in elements). @sendType and @recvType must be equal.
 */
HcclResult HcclAlltoAllV(const void *sendBuf, const void *sendCounts, const void *sdispls,
			 HcclDataType sendType, const void *recvBuf, const void *recvCounts,
			 const void *rdispls, HcclDataType recvType, HcclComm comm,
			 aclrtStream stream);

/**
 * HcclAlltoAll() - block j (@sendCount elements) of @sendBuf to rank j,
 * whose block i of @recvBuf receives it (@recvCount == @sendCount,
 * @sendType == @recvType).
 */
HcclResult HcclAlltoAll(const void *sendBuf, uint64_t sendCount, HcclDataType sendType,
			const void *recvBuf, uint64_t recvCount, HcclDataType recvType,
			HcclComm comm, aclrtStream stream);

/**
 * HcclReduce() - @recvBuf of rank @root becomes the @op of all ranks'
 * @sendBuf (@recvBuf is written on @root only). Data types as
 * HcclAllReduce().
 */
HcclResult HcclReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType,
		      HcclReduceOp op, uint32_t root, HcclComm comm, aclrtStream stream);

/**
 * HcclBatchSendRecv() - the @itemNum sends and receives of @sendRecvInfo as
 * one operation: they may go both ways between two ranks without
 * deadlock. Items between the same two ranks match in order.
 */
HcclResult HcclBatchSendRecv(HcclSendRecvItem *sendRecvInfo, uint32_t itemNum, HcclComm comm,
			     aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_H_ */
