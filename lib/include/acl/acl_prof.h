/* SPDX-License-Identifier: MIT */
/*
 * acl/acl_prof.h - the profiling calls of ACL that libhcclthread
 * implements (aclprofInit ... aclprofFinalize), with CANN's names, values
 * and include guard.
 *
 * What is recorded: the hcclthread tracepoints of the profiled devices
 * (every stream task's start and end, submits, acquires, wait timeouts,
 * copies), the events hcclthread-trace records (tools/trace/FORMAT), in a
 * private tracefs instance of this process between aclprofStart() and
 * aclprofStop(). aclprofStop() writes them as a Chrome/Perfetto trace JSON
 * timeline (one row per stream, one box per task, an arrow from each
 * notify record to the wait it released) to
 * <profilerResultPath>/PROF_<n>_<time>_<pid>/timeline.json, the directory
 * CANN's profiler writes a run to. The timeline shows every task of the
 * profiled devices, also other processes' (the tracepoints are the
 * device's). Recording needs tracefs: root, or a tracefs the user may
 * write. The dataTypeConfig bits choose nothing else: every switch CANN
 * accepts records the same timeline.
 */
#ifndef INC_EXTERNAL_ACL_PROF_H_
#define INC_EXTERNAL_ACL_PROF_H_

#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dataTypeConfig bits of aclprofCreateConfig() (CANN's values). */
#define ACL_PROF_ACL_API		0x0001ULL
#define ACL_PROF_TASK_TIME		0x0002ULL
#define ACL_PROF_AICORE_METRICS		0x0004ULL
#define ACL_PROF_AICPU			0x0008ULL
#define ACL_PROF_L2CACHE		0x0010ULL
#define ACL_PROF_HCCL_TRACE		0x0020ULL
#define ACL_PROF_TRAINING_TRACE		0x0040ULL
#define ACL_PROF_MSPROFTX		0x0080ULL
#define ACL_PROF_RUNTIME_API		0x0100ULL
#define ACL_PROF_GE_API_L0		0x0200ULL
#define ACL_PROF_TASK_TIME_L0		0x0800ULL
#define ACL_PROF_TASK_MEMORY		0x1000ULL
#define ACL_PROF_TASK_TIME_L2		0x2000ULL
#define ACL_PROF_OP_ATTR		0x4000ULL
#define ACL_PROF_TASK_TIME_L3		0x8000ULL
#define ACL_PROF_GE_API_L1		0x01000000ULL

#define ACL_PROF_MAX_OP_NAME_LEN	257
#define ACL_PROF_MAX_OP_TYPE_LEN	65

/* Profiling errors (CANN's values). */
#define ACL_ERROR_PROF_ALREADY_RUN		100042
#define ACL_ERROR_PROF_NOT_RUN			100043
#define ACL_ERROR_INVALID_PROFILING_CONFIG	100010
#define ACL_ERROR_PROF_MODULES_UNSUPPORTED	200007
#define ACL_ERROR_PROFILING_FAILURE		500005

/** aclprofAicoreMetrics - AI Core metrics (accepted, none are recorded). */
typedef enum {
	ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
	ACL_AICORE_PIPE_UTILIZATION = 1,
	ACL_AICORE_MEMORY_BANDWIDTH = 2,
	ACL_AICORE_L0B_AND_WIDTH = 3,
	ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
	ACL_AICORE_MEMORY_UB = 5,
	ACL_AICORE_L2_CACHE = 6,
	ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
	ACL_AICORE_MEMORY_ACCESS = 8,
	ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

/** aclprofConfig - what aclprofCreateConfig() made (opaque). */
typedef struct aclprofConfig aclprofConfig;
/** aclprofAicoreEvents - AI Core events; only NULL is accepted (opaque). */
typedef struct aclprofAicoreEvents aclprofAicoreEvents;

/**
 * aclprofInit() - set where aclprofStop() writes its timelines.
 * @profilerResultPath: a directory, absolute or relative to the current
 *	directory; made (with its parents) if missing.
 * @length: strlen(@profilerResultPath), 1 .. 4096.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (@profilerResultPath NULL
 * or not @length long, then @length out of range); ACL_ERROR_REPEAT_INITIALIZE
 * (not finalized since the last aclprofInit()); ACL_ERROR_INVALID_FILE
 * (the directory cannot be made or written).
 */
aclError aclprofInit(const char *profilerResultPath, size_t length);

/**
 * aclprofFinalize() - end profiling: stop what is still recording
 * (writing its timeline) and forget the path.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_PROF_NOT_RUN (no aclprofInit()); the
 * error of writing a timeline still recording.
 */
aclError aclprofFinalize(void);

/**
 * aclprofCreateConfig() - a profiling configuration.
 * @deviceIdList: the devices to record, @deviceNums of them, each once.
 * @deviceNums: 1 .. the number of devices (0 only with ACL_PROF_MSPROFTX,
 *	which records no device here).
 * @aicoreMetrics: any aclprofAicoreMetrics (nothing of it is recorded).
 * @aicoreEvents: NULL.
 * @dataTypeConfig: ACL_PROF_* bits (checked by aclprofStart()).
 *
 * Return: the configuration (aclprofDestroyConfig() frees it), or NULL
 * (an argument not as above, out of memory).
 */
aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
				   aclprofAicoreMetrics aicoreMetrics,
				   const aclprofAicoreEvents *aicoreEvents,
				   uint64_t dataTypeConfig);

/**
 * aclprofDestroyConfig() - free a configuration.
 * @profilerConfig: from aclprofCreateConfig(); freeing one twice is
 *	undefined, as in CANN.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (NULL).
 */
aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);

/**
 * aclprofStart() - start recording the devices of @profilerConfig.
 * @profilerConfig: the configuration.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM (NULL, a dataTypeConfig of
 * zero); ACL_ERROR_PROF_MODULES_UNSUPPORTED (a dataTypeConfig bit CANN
 * does not know); ACL_ERROR_PROF_NOT_RUN (no aclprofInit());
 * ACL_ERROR_PROF_ALREADY_RUN (a device of it is being recorded);
 * ACL_ERROR_PROFILING_FAILURE (no tracefs, no permission, no hcclthread
 * tracepoints).
 */
aclError aclprofStart(const aclprofConfig *profilerConfig);

/**
 * aclprofStop() - stop recording the devices of @profilerConfig and write
 * their timeline.
 * @profilerConfig: the configuration aclprofStart() was given (the same
 *	dataTypeConfig).
 *
 * Devices of it not being recorded are left alone, as CANN does.
 *
 * Return: ACL_SUCCESS; ACL_ERROR_INVALID_PARAM, ACL_ERROR_PROF_MODULES_UNSUPPORTED
 * (as aclprofStart()); ACL_ERROR_PROF_NOT_RUN (no aclprofInit());
 * ACL_ERROR_INVALID_PROFILING_CONFIG (another dataTypeConfig than its
 * start's); ACL_ERROR_INVALID_FILE (the timeline cannot be written);
 * ACL_ERROR_PROFILING_FAILURE (the trace cannot be read).
 */
aclError aclprofStop(const aclprofConfig *profilerConfig);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_PROF_H_ */
