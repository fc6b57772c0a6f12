/* SPDX-License-Identifier: MIT */
/*
 * hcomm_primitives.h - CANN's current place of the data-plane primitives;
 * the same header as hccl/hcomm_primitives.h (one include guard).
 */
#include "hccl/hcomm_primitives.h"
