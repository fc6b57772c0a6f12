/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl.h - communicator lifecycle on one host.
 */
#ifndef HCCLTHREAD_HCCL_H_
#define HCCLTHREAD_HCCL_H_

#include <stdint.h>
#include "hccl/hccl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * HcclCommInitAll() - create one communicator per listed device.
 * @ndev: number of devices, at least 1.
 * @devices: @ndev distinct device indexes.
 * @comms: out, @ndev communicators; comms[i] lives on devices[i].
 *
 * All or nothing: on error no communicator exists and every comms[i] is
 * NULL.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PARA (@ndev 0, a device index out of range
 * or listed twice); HCCL_E_PTR (@devices or @comms NULL); HCCL_E_DRV (no
 * hcclthread device on the machine, or it cannot be opened; set
 * HCCLT_DEBUG=1 for a hint on stderr); HCCL_E_MEMORY.
 */
HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);

/**
 * HcclCommDestroy() - destroy a communicator.
 * @comm: the communicator.
 *
 * Frees every thread, exported handle and notify of @comm, and returns
 * their slots to the device pools. Tasks still queued on its threads are
 * cancelled (their synchronize returns ACL_ERROR_RT_STREAM_ABORT). Streams
 * made by aclrtCreateStream() survive.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm NULL, not a live communicator, or
 * one of the parent process after fork()).
 */
HcclResult HcclCommDestroy(HcclComm comm);

/**
 * HcclGetErrorString() - text of an HcclResult.
 * @code: the result.
 *
 * Return: a static string, never NULL ("unknown error" for numbers that
 * are not HcclResult values).
 */
const char *HcclGetErrorString(HcclResult code);

#ifdef __cplusplus
}
#endif

#endif /* HCCLTHREAD_HCCL_H_ */
