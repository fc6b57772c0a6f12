/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_types.h - HCCL basic types, source-compatible with CANN's
 * hccl_types.h / hccl_res.h for the part that libhcclthread implements.
 *
 * The numbers of HcclResult and CommEngine are those of CANN hcomm; programs
 * written against CANN's headers compile unchanged against these.
 */
#ifndef HCCLTHREAD_HCCL_TYPES_H_
#define HCCLTHREAD_HCCL_TYPES_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * HcclResult - result of every HCCL call (0 = success).
 *
 * The primitives of hccl/hcomm_primitives.h return int32_t carrying the
 * same numbers.
 */
typedef enum {
	HCCL_SUCCESS = 0,		/* success */
	HCCL_E_PARA = 1,		/* invalid parameter */
	HCCL_E_PTR = 2,			/* invalid pointer or handle */
	HCCL_E_MEMORY = 3,		/* memory allocation failed */
	HCCL_E_INTERNAL = 4,		/* internal error */
	HCCL_E_NOT_SUPPORT = 5,		/* feature not supported */
	HCCL_E_NOT_FOUND = 6,		/* resource not found */
	HCCL_E_UNAVAIL = 7,		/* resource unavailable (quota) */
	HCCL_E_SYSCALL = 8,		/* system call failed */
	HCCL_E_TIMEOUT = 9,		/* timeout */
	HCCL_E_OPEN_FILE_FAILURE = 10,	/* could not open a file */
	HCCL_E_TCP_CONNECT = 11,	/* TCP connect failed */
	HCCL_E_ROCE_CONNECT = 12,	/* RoCE connect failed */
	HCCL_E_TCP_TRANSFER = 13,	/* TCP transfer failed */
	HCCL_E_ROCE_TRANSFER = 14,	/* RoCE transfer failed */
	HCCL_E_RUNTIME = 15,		/* runtime (device resource) error */
	HCCL_E_DRV = 16,		/* driver error, no device */
	HCCL_E_PROFILING = 17,		/* profiling error */
	HCCL_E_CCE = 18,		/* CCE error */
	HCCL_E_NETWORK = 19,		/* network error */
	HCCL_E_AGAIN = 20,		/* try again */
	HCCL_E_REMOTE = 21,		/* error reported by a remote rank */
	HCCL_E_SUSPENDING = 22,		/* communicator suspending */
	HCCL_E_OPRETRY_FAIL = 23,	/* operation retry failed */
	HCCL_E_OOM = 24,		/* out of device memory */
	HCCL_E_IN_STATUS = 1041,	/* communicator in a wrong status */
	HCCL_E_RESERVED = 1042		/* reserved */
} HcclResult;

/** HcclComm - a communicator (opaque pointer). */
typedef void *HcclComm;

#ifndef THREAD_HANDLE_DEFINED
#define THREAD_HANDLE_DEFINED
/**
 * ThreadHandle - a communication thread (a stream plus its notifies).
 *
 * Opaque 64-bit value; 0 is never a valid handle. libhcclthread: the low 56
 * bits are the kernel's thread id, bits 59:56 the device index, bits 63:60
 * the fork generation of the process that obtained it (see hcclthread.h).
 */
typedef uint64_t ThreadHandle;
#endif

/** CommEngine - the engine that drives a thread's stream. */
typedef enum {
	COMM_ENGINE_RESERVED = -1,	/* reserved, never valid */
	COMM_ENGINE_CPU = 0,		/* host CPU */
	COMM_ENGINE_CPU_TS = 1,		/* host CPU via the task scheduler */
	COMM_ENGINE_AICPU = 2,		/* device AI CPU */
	COMM_ENGINE_AICPU_TS = 3,	/* device AI CPU via the task scheduler */
	COMM_ENGINE_AIV = 4,		/* AI vector core (no threads) */
	COMM_ENGINE_CCU = 5		/* collective communication unit */
} CommEngine;

#ifdef __cplusplus
}
#endif

#endif /* HCCLTHREAD_HCCL_TYPES_H_ */
