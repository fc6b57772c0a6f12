/* SPDX-License-Identifier: MIT */
/*
 * The example custom operators: what an application calls. Each is queued
 * on @stream like any stream work and completes in stream order; a rank
 * calls an operator with the same stream every time (its first call binds
 * the stream to the operator's resources).
 *
 * ExampleSend/ExampleRecv: @bytes of device memory from this rank to
 *	@destRank, which calls ExampleRecv with this rank as @srcRank.
 * ExampleAllGather: every rank's @bytes of @sendBuf, in rank order, into
 *	every rank's @recvBuf (rank count * @bytes); a rank's @bytes may be
 *	at most its HCCL buffer's size divided by the rank count.
 * ExampleHierAllGather: the same result, hierarchically: a ring on each
 *	server, then an exchange between servers (the rank graph's two
 *	layers); ranks numbered server by server, as many on each server.
 *	HCCL_E_NOT_SUPPORT for another layout.
 *
 * Return HCCL_E_PTR for NULL pointers, HCCL_E_PARA for a bad rank or
 * size, and what the HCCL/ACL calls beneath returned otherwise.
 */
#ifndef EXAMPLE_OPS_H_
#define EXAMPLE_OPS_H_

#include <stdint.h>

#include "acl/acl_rt.h"
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

HcclResult ExampleSend(void *sendBuf, uint64_t bytes, uint32_t destRank,
		       HcclComm comm, aclrtStream stream);
HcclResult ExampleRecv(void *recvBuf, uint64_t bytes, uint32_t srcRank,
		       HcclComm comm, aclrtStream stream);
HcclResult ExampleAllGather(void *sendBuf, void *recvBuf, uint64_t bytes,
			    HcclComm comm, aclrtStream stream);
HcclResult ExampleHierAllGather(void *sendBuf, void *recvBuf, uint64_t bytes,
				HcclComm comm, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* EXAMPLE_OPS_H_ */
