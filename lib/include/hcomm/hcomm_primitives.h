/* SPDX-License-Identifier: MIT */
/*
 * hcomm/hcomm_primitives.h - the data-plane primitives under the path CANN
 * installs them at (include/hcomm/hcomm_primitives.h; operators include it
 * so); the same header as hccl/hcomm_primitives.h and hcomm_primitives.h
 * (one include guard).
 */
#include "hccl/hcomm_primitives.h"
