/* SPDX-License-Identifier: MIT */
/* libhccl.so's own declarations (host half of the collectives). */
#ifndef HCCLT_HCCL_INTERNAL_H_
#define HCCLT_HCCL_INTERNAL_H_

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_rt.h"
#include "coll.h"

#define HCCL_EXPORT __attribute__((visibility("default")))

/*
 * COLL_ALGO_AUTO's threshold: from this many bytes (of the whole message:
 * AllReduce's buffer, AllGather's output, ReduceScatter's block) up,
 * the ring; HCCLT_COLL_RING_MIN overrides it.
 */
#define COLL_RING_MIN_DEFAULT	(64ULL << 10)

void coll_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Queue operation @p on @stream: the kernel gets @p followed by
 * @extra_len bytes of @extra; channels to every rank with @want[rank] set
 * are acquired first. Fills @p's tag, name, resources, thread and tunables.
 */
HcclResult coll_launch(HcclComm comm, aclrtStream stream, struct coll_param *p,
		       const void *extra, size_t extra_len, const uint8_t *want);

#endif /* HCCLT_HCCL_INTERNAL_H_ */
