/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_diag.h - an operator's diagnostics: the DFX op info a host half
 * registers on its communicator and the profiling reports of its launches,
 * as CANN installs the header (hcomm's pkg_inc/hccl/hccl_diag.h; names,
 * signatures, values and the 504-byte HcclDfxOpInfo layout are CANN's, the
 * text is ours). What each call does here: Documentation/custom-operators.rst,
 * "Diagnostics".
 */
#ifndef HCCL_DIAG_H
#define HCCL_DIAG_H

#include <stddef.h>
#include <stdint.h>
#include "hccl/hccl_types.h"
#include "hcomm/hcomm_res_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Bytes of HcclDfxOpInfo's algTag, NUL included. CANN: a C++ constant
 * (const u32); an enumerator here, so that C can size an array with it.
 */
enum { HCOMM_ALG_TAG_LENGTH = 288 };

/*
 * In C++ the members start with CANN's default values (root, the notify
 * fields ~0U, engine COMM_ENGINE_RESERVED, the rest 0), as CANN's header
 * gives them; in C the caller sets every member it uses.
 */
#ifdef __cplusplus
#define HCCL_DIAG_INIT_(v) = v
#else
#define HCCL_DIAG_INIT_(v)
#endif

/**
 * HcclDfxOpInfo - what an operator tells HcclDfxRegOpInfoByCommId() about
 * the call it is making: its type (HcclCMDType), reduce op, data type and
 * count, root, algorithm tag, engine and host thread (the thread the host
 * waits for the AI CPU on). Not versioned by header here: header is
 * neither read nor written.
 */
struct HcclDfxOpInfo {
	CommAbiHeader header;
	uint64_t beginTime HCCL_DIAG_INIT_(0);	/* out: set by registration */
	uint64_t endTime HCCL_DIAG_INIT_(0);
	uint32_t opMode HCCL_DIAG_INIT_(0);
	uint32_t opType HCCL_DIAG_INIT_(0);
	uint32_t reduceOp HCCL_DIAG_INIT_(0);
	uint32_t dataType HCCL_DIAG_INIT_(0);
	uint32_t outputType HCCL_DIAG_INIT_(0);
	uint64_t dataCount HCCL_DIAG_INIT_(0);
	uint32_t root HCCL_DIAG_INIT_(~0U);
	char algTag[HCOMM_ALG_TAG_LENGTH];
	CommEngine engine HCCL_DIAG_INIT_(COMM_ENGINE_RESERVED);
	uint64_t cpuTsThread HCCL_DIAG_INIT_(0);	/* a ThreadHandle, or 0 */
	uint32_t cpuWaitAicpuNotifyIdx HCCL_DIAG_INIT_(~0U);
	uint32_t cpuWaitAicpuNotifyId HCCL_DIAG_INIT_(~0U);
	uint64_t inputMemAddr HCCL_DIAG_INIT_(0);
	uint64_t inputMemSize HCCL_DIAG_INIT_(0);
	uint64_t outputMemAddr HCCL_DIAG_INIT_(0);
	uint64_t outputMemSize HCCL_DIAG_INIT_(0);
	int8_t reserve[96];
};
#ifndef __cplusplus
typedef struct HcclDfxOpInfo HcclDfxOpInfo;
#endif

#undef HCCL_DIAG_INIT_

/**
 * HcclDfxRegOpInfoByCommId() - the operator the communicator named @commId
 * (HcclGetCommName(), on the calling thread's current device) runs now.
 * @hcclDfxOpInfo: a struct HcclDfxOpInfo; its beginTime is set to
 *	HcommGetProfilingSysCycleTime().
 *
 * The driver keeps it as the communicator's label (hcclthread-smi shows
 * it, the tracepoint hcclt_op records it). Checks in CANN's order: @commId
 * NULL HCCL_E_PTR; no current device HCCL_E_RUNTIME; no communicator of
 * that name HCCL_E_NOT_FOUND; @hcclDfxOpInfo NULL HCCL_E_PTR; a non-zero
 * cpuTsThread that is not a thread of that communicator HCCL_E_PTR (ours).
 * Every SoC registers (CANN's A2 returns at once, A3 says
 * HCCL_E_NOT_SUPPORT: Documentation/faq.rst). A driver before uAPI 1.11
 * succeeds without a label.
 */
extern HcclResult HcclDfxRegOpInfoByCommId(char *commId, void *hcclDfxOpInfo);

/**
 * HcclProfilingReportOp() - the operator registered last on @comm was
 * issued, from @beginTime (HcommGetProfilingSysCycleTime()) to now: a box
 * of the aclprof timeline, phase "reported" in hcclthread-smi.
 *
 * @comm NULL HCCL_E_PTR; not a live communicator HCCL_E_PTR; nothing
 * registered on it HCCL_SUCCESS and nothing reported (CANN's skip);
 * @beginTime after now HCCL_E_PARA (ours: CANN does not look).
 */
extern HcclResult HcclProfilingReportOp(HcclComm comm, uint64_t beginTime);

/**
 * HcclReportAicpuKernel() - a kernel named @kernelName of the registered
 * operator was launched from @beginTime to now (a box of the timeline; the
 * name shows in hcclthread-smi, its first 63 bytes). Checks: @comm NULL
 * HCCL_E_PTR; @kernelName NULL HCCL_E_PTR; then as HcclProfilingReportOp().
 */
extern HcclResult HcclReportAicpuKernel(HcclComm comm, uint64_t beginTime, char *kernelName);

/**
 * HcclReportAivKernel() - an AIV kernel of the registered operator ran from
 * @beginTime to now. @comm NULL HCCL_E_PTR; not a live communicator
 * HCCL_E_PTR; a SoC other than Ascend950 HCCL_E_NOT_SUPPORT (CANN: only
 * its 950 communicator reports AIV kernels); then as
 * HcclProfilingReportOp(), reported under the kernel name "aiv".
 */
extern HcclResult HcclReportAivKernel(HcclComm comm, uint64_t beginTime);

/**
 * HcommGetProfilingSysCycleTime() - the profiler's clock: CLOCK_MONOTONIC
 * in nanoseconds (the clock of the driver's labels and reports); 0 if it
 * cannot be read.
 */
extern uint64_t HcommGetProfilingSysCycleTime(void);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_DIAG_H */
