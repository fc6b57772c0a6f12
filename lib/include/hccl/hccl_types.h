/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_types.h - HCCL basic types, source-compatible with CANN's
 * hccl_types.h / hccl_res.h for the part that libhcclthread implements.
 *
 * The numbers of HcclResult and CommEngine are those of CANN hcomm; programs
 * written against CANN's headers compile unchanged against these.
 */
#ifndef HCCL_TYPES_H_
#define HCCL_TYPES_H_

#include <stddef.h>
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

/** HcclReduceOp - reduction operations (CANN's values). */
typedef enum {
	HCCL_REDUCE_SUM = 0,
	HCCL_REDUCE_PROD = 1,
	HCCL_REDUCE_MAX = 2,
	HCCL_REDUCE_MIN = 3,
	HCCL_REDUCE_RESERVED = 255
} HcclReduceOp;

/** HcclDataType - element types (CANN's values; 13 is unused). */
typedef enum {
	HCCL_DATA_TYPE_INT8 = 0,
	HCCL_DATA_TYPE_INT16 = 1,
	HCCL_DATA_TYPE_INT32 = 2,
	HCCL_DATA_TYPE_FP16 = 3,
	HCCL_DATA_TYPE_FP32 = 4,
	HCCL_DATA_TYPE_INT64 = 5,
	HCCL_DATA_TYPE_UINT64 = 6,
	HCCL_DATA_TYPE_UINT8 = 7,
	HCCL_DATA_TYPE_UINT16 = 8,
	HCCL_DATA_TYPE_UINT32 = 9,
	HCCL_DATA_TYPE_FP64 = 10,
	HCCL_DATA_TYPE_BFP16 = 11,
	HCCL_DATA_TYPE_INT128 = 12,
	HCCL_DATA_TYPE_HIF8 = 14,
	HCCL_DATA_TYPE_FP8E4M3 = 15,
	HCCL_DATA_TYPE_FP8E5M2 = 16,
	HCCL_DATA_TYPE_FP8E8M0 = 17,
	HCCL_DATA_TYPE_RESERVED = 255
} HcclDataType;

/** HcclCMDType - kinds of HCCL operations (CANN's values). */
typedef enum {
	HCCL_CMD_INVALID = 0,
	HCCL_CMD_BROADCAST = 1,
	HCCL_CMD_ALLREDUCE = 2,
	HCCL_CMD_REDUCE = 3,
	HCCL_CMD_SEND = 4,
	HCCL_CMD_RECEIVE = 5,
	HCCL_CMD_ALLGATHER = 6,
	HCCL_CMD_REDUCE_SCATTER = 7,
	HCCL_CMD_ALLTOALLV = 8,
	HCCL_CMD_ALLTOALLVC = 9,
	HCCL_CMD_ALLTOALL = 10,
	HCCL_CMD_GATHER = 11,
	HCCL_CMD_SCATTER = 12,
	HCCL_CMD_BATCH_SEND_RECV = 13,
	HCCL_CMD_BATCH_PUT = 14,
	HCCL_CMD_BATCH_GET = 15,
	HCCL_CMD_ALLGATHER_V = 16,
	HCCL_CMD_REDUCE_SCATTER_V = 17,
	HCCL_CMD_BATCH_WRITE = 18,
	HCCL_CMD_HALF_ALLTOALLV = 20,
	HCCL_CMD_ALL = 21,
	HCCL_CMD_FINALIZE = 100,
	HCCL_CMD_INTER_GROUP_SYNC = 101,
	HCCL_CMD_INIT = 102,
	HCCL_CMD_BARRIER = 103,
	HCCL_CMD_MAX = 104
} HcclCMDType;

/* Sizes and defaults, named as in CANN's hccl_types.h. */
static const uint32_t HCCL_ROOT_INFO_BYTES = 4108;
static const uint32_t COMM_NAME_MAX_LENGTH = 128;
static const uint32_t BUFFER_NAME_MAX_LENGTH = 128;
static const uint32_t UDI_MAX_LENGTH = 128;
static const uint32_t HCCL_COMM_ALGO_MAX_LENGTH = 1600;
static const uint32_t HCCL_COMM_RETRY_ENABLE_MAX_LENGTH = 50;
static const uint32_t HCCL_COMM_RETRY_PARAMS_MAX_LENGTH = 128;
static const uint32_t HCCL_COMM_CONFIG_INFO_BYTES = 24;
static const uint32_t HCCL_COMM_CONFIG_MAGIC_WORD = 0xf0f0f0f0;
static const uint32_t HCCL_COMM_CONFIG_VERSION = 10;
static const uint32_t HCCL_COMM_DEFAULT_BUFFSIZE = 200;
static const uint32_t HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET = 0xffffffff;
static const uint32_t HCCL_COMM_DEFAULT_DETERMINISTIC = 0;
static const uint32_t HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET = 0xffffffff;
static const uint32_t HCCL_COMM_DEFAULT_OP_EXPANSION_MODE = 0;
static const uint32_t HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET = 0xffffffff;
static const uint32_t HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET = 0xffffffff;
static const int32_t HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET = -1;
static const uint32_t HCCL_COMM_DEFAULT_SYM_WIN_MAX_MEM_SIZE_PER_RANK = 16;

/**
 * HcclCommConfigCapability - the HcclCommConfig options, numbered as CANN
 * numbers them. HcclGetCommConfigCapability() returns a number: an option
 * is supported when that number is greater than the option's value.
 */
typedef enum {
	HCCL_COMM_CONFIG_BUFFER_SIZE = 0,
	HCCL_COMM_CONFIG_DETERMINISTIC = 1,
	HCCL_COMM_CONFIG_COMM_NAME = 2,
	HCCL_COMM_CONFIG_OP_EXPANSION_MODE = 3,
	HCCL_COMM_CONFIG_SUPPORT_INIT_BY_ENV = 4,
	HCCL_COMM_CONFIG_WORLD_RANKID = 5,
	HCCL_COMM_CONFIG_JOBID = 6,
	HCCL_COMM_CONFIG_ACLGRAPH_ZEROCOPY_ENABLE = 7,
	HCCL_COMM_CONFIG_EXEC_TIMEOUT = 8,
	HCCL_COMM_CONFIG_ALGO = 9,
	HCCL_COMM_CONFIG_RETRY = 10,
	HCCL_COMM_CONFIG_BUFFER_NAME = 11,
	HCCL_COMM_CONFIG_RESERVED
} HcclCommConfigCapability;

/**
 * HcclRootInfo - what HcclGetRootInfo() gives the root rank to hand to the
 * others (4,108 opaque bytes, as CANN's). libhcclthread's layout: a magic
 * and a version, the group's 128-bit key, and the group's name (at most
 * 127 characters), the rest zero.
 */
typedef struct HcclRootInfoDef {
	char internal[4108];	/* HCCL_ROOT_INFO_BYTES */
} HcclRootInfo;

/**
 * HcclCommConfig - communicator options (CANN's layout, 2,240 bytes).
 * Fill it with HcclCommConfigInit() (hccl/hccl_comm.h), then set fields.
 * libhcclthread honours hcclBufferSize and hcclCommName, checks
 * hcclDeterministic as CANN does (every reduction here is deterministic
 * anyway), checks the header and the other fields CANN checks; the others
 * are accepted and kept.
 */
typedef struct HcclCommConfigDef {
	char reserved[24];		/* header: size, magic, version */
	uint32_t hcclBufferSize;	/* MB; NOT_SET = default */
	uint32_t hcclDeterministic;	/* 0 off, 1 on, 2 strict (A2 only) */
	char hcclCommName[128];		/* non-empty: the communicator's name */
	char hcclUdi[128];
	uint32_t hcclOpExpansionMode;	/* 0 default, 1 host, 2 aicpu, 3 aiv */
	uint32_t hcclRdmaTrafficClass;
	uint32_t hcclRdmaServiceLevel;
	uint32_t hcclWorldRankID;
	uint64_t hcclJobID;
	uint8_t aclGraphZeroCopyEnable;	/* 0 or 1 */
	int32_t hcclExecTimeOut;
	char hcclAlgo[1600];
	char hcclRetryEnable[50];
	char hcclRetryParams[128];
	char hcclBufferName[128];
	uint32_t hcclQos;
	uint64_t hcclSymWinMaxMemSizePerRank;
} HcclCommConfig;

#if defined(__cplusplus) && __cplusplus >= 201103L
static_assert(sizeof(HcclRootInfo) == 4108, "HcclRootInfo is CANN's size");
static_assert(sizeof(HcclCommConfig) == 2240, "HcclCommConfig is CANN's size");
static_assert(offsetof(HcclCommConfig, hcclAlgo) == 320, "CANN's layout");
static_assert(offsetof(HcclCommConfig, hcclQos) == 2228, "CANN's layout");
#elif !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(HcclRootInfo) == 4108, "HcclRootInfo is CANN's size");
_Static_assert(sizeof(HcclCommConfig) == 2240, "HcclCommConfig is CANN's size");
_Static_assert(offsetof(HcclCommConfig, hcclAlgo) == 320, "CANN's layout");
_Static_assert(offsetof(HcclCommConfig, hcclQos) == 2228, "CANN's layout");
#endif

#ifdef __cplusplus
}
#endif

#endif /* HCCL_TYPES_H_ */
