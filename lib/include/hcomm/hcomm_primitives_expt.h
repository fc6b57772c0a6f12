/* SPDX-License-Identifier: MIT */
/*
 * hcomm's experimental data-plane calls (pkg_inc/hcomm/hcomm_primitives_expt.h
 * in CANN), as libhcclthread implements them.
 */
#ifndef HCOMM_PRIMITIVES_EXPT_H
#define HCOMM_PRIMITIVES_EXPT_H

#include <stdint.h>
#include "hccl/hcomm_primitives.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * HcommThreadJoin() - wait until the work queued on @thread has run.
 * @thread: the thread.
 * @timeoutSec: seconds to wait at most; 0 waits without limit.
 *
 * As hcomm: on a 950 SoC only (sim_soc=Ascend950PR); HCCL_E_NOT_SUPPORT on
 * A2/A3. The wait reports (and clears) a failed task's error as
 * HCCL_E_INTERNAL.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (not a thread); HCCL_E_NOT_SUPPORT;
 * HCCL_E_TIMEOUT; HCCL_E_INTERNAL.
 */
int32_t HcommThreadJoin(ThreadHandle thread, uint32_t timeoutSec);

#ifdef __cplusplus
}
#endif

#endif /* HCOMM_PRIMITIVES_EXPT_H */
