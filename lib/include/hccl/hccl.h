/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl.h - HCCL on one host: the communicator calls of
 * hccl/hccl_comm.h (this header includes it, as CANN's does).
 */
#ifndef HCCL_H_
#define HCCL_H_

#include <stdint.h>
#include "hccl/hccl_types.h"
#include "hccl/hccl_comm.h"

#endif /* HCCL_H_ */
