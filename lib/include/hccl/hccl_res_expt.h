/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_res_expt.h - CANN's experimental resource calls. None is
 * implemented yet, so none is declared; the header brings the resource
 * types (hccl/hccl_res.h) that programs including it use.
 */
#ifndef HCCL_RES_EXPT_H
#define HCCL_RES_EXPT_H

#include "hccl/hccl_res.h"

#endif /* HCCL_RES_EXPT_H */
