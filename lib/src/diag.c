// SPDX-License-Identifier: MIT
/*
 * An operator's diagnostics (hccl/hccl_diag.h): the DFX op info of
 * HcclDfxRegOpInfoByCommId() and the profiling reports. Each is one
 * DRM_IOCTL_HCCLT_OP_INFO: the operator becomes its communicator's label
 * in the kernel (hcclthread-smi of any process shows it) and a hit of the
 * tracepoint hcclt_op (the aclprof timeline and hcclthread-trace draw the
 * reports as boxes). CANN's sources: hcomm's cpu_primitives_c_adpt.cc
 * (Documentation/custom-operators.rst, "Diagnostics").
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "hccl/hccl_diag.h"

_Static_assert(sizeof(struct HcclDfxOpInfo) == 504, "CANN's HcclDfxOpInfo is 504 bytes");
_Static_assert(offsetof(struct HcclDfxOpInfo, algTag) == 68, "algTag at 68");
_Static_assert(offsetof(struct HcclDfxOpInfo, cpuTsThread) == 360, "cpuTsThread at 360");
_Static_assert(offsetof(struct HcclDfxOpInfo, reserve) == 408, "reserve at 408");
_Static_assert(HCOMM_ALG_TAG_LENGTH == HCCLT_OP_TAG_LEN, "tag lengths");

HCCLT_EXPORT uint64_t HcommGetProfilingSysCycleTime(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * One OP_INFO on device @dev: 0, -ENOENT (no such communicator or thread,
 * or nothing registered), another negative errno, or 1 when the driver
 * has no OP_INFO (before uAPI 1.11).
 */
static int op_info(int dev, struct drm_hcclt_op_info *oi)
{
	int fd = hcclt_device_open(dev);

	if (fd < 0)
		return fd;
	if (!(hcclt_device_features(dev) & HCCLT_FEATURE_OP_INFO))
		return 1;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_OP_INFO, oi);
}

HCCLT_EXPORT HcclResult HcclDfxRegOpInfoByCommId(char *commId, void *hcclDfxOpInfo)
{
	struct HcclDfxOpInfo *info = hcclDfxOpInfo;
	struct drm_hcclt_op_info oi;
	int32_t dev = hcclt_current_device();
	uint64_t id, tid = 0;
	int tdev, ret;

	if (!commId)
		return HCCL_E_PTR;
	if (dev < 0)
		return HCCL_E_RUNTIME;
	id = hcclt_name_comm_id(dev, commId);
	if (!id)
		return HCCL_E_NOT_FOUND;
	if (!info)
		return HCCL_E_PTR;
	if (info->cpuTsThread &&
	    (hcclt_handle_parse(info->cpuTsThread, &tdev, &tid) || tdev != dev))
		return HCCL_E_PTR;
	info->beginTime = HcommGetProfilingSysCycleTime();

	memset(&oi, 0, sizeof(oi));
	oi.comm_id = id;
	oi.thread_id = tid;
	oi.phase = HCCLT_OP_PHASE_REGISTERED;
	oi.op_type = info->opType;
	oi.reduce_op = info->reduceOp;
	oi.data_type = info->dataType;
	oi.data_count = info->dataCount;
	oi.engine = (uint32_t)info->engine;
	oi.root = info->root;
	/* CANN's tag is a string of at most 287 bytes; ours is cut there. */
	memcpy(oi.alg_tag, info->algTag, sizeof(oi.alg_tag) - 1);
	ret = op_info(dev, &oi);
	if (ret > 0)
		return HCCL_SUCCESS;
	if (ret == -ENOENT)
		return tid ? HCCL_E_PTR : HCCL_E_NOT_FOUND;
	return hcclt_map_errno(HCCLT_OP_OP_INFO, ret);
}

/* A kernel or issue report on @comm: @kernel NULL for the issue. */
static HcclResult report(HcclComm comm, uint64_t beginTime, const char *kernel)
{
	struct hcclt_comm *c = hcclt_comm_get(comm);
	struct drm_hcclt_op_info oi;
	int ret;

	if (!c)
		return HCCL_E_PTR;
	memset(&oi, 0, sizeof(oi));
	oi.comm_id = c->id;
	oi.begin_ns = beginTime;
	if (kernel) {
		oi.phase = HCCLT_OP_PHASE_KERNEL;
		strncpy(oi.kernel, kernel, sizeof(oi.kernel) - 1);
	} else {
		oi.phase = HCCLT_OP_PHASE_REPORTED;
	}
	ret = op_info(c->dev, &oi);
	/* Nothing registered: CANN skips the report and succeeds. */
	if (ret > 0 || ret == -ENOENT)
		return HCCL_SUCCESS;
	return hcclt_map_errno(HCCLT_OP_OP_INFO, ret);
}

HCCLT_EXPORT HcclResult HcclProfilingReportOp(HcclComm comm, uint64_t beginTime)
{
	if (!comm)
		return HCCL_E_PTR;
	return report(comm, beginTime, NULL);
}

HCCLT_EXPORT HcclResult HcclReportAicpuKernel(HcclComm comm, uint64_t beginTime, char *kernelName)
{
	if (!comm || !kernelName)
		return HCCL_E_PTR;
	return report(comm, beginTime, kernelName);
}

HCCLT_EXPORT HcclResult HcclReportAivKernel(HcclComm comm, uint64_t beginTime)
{
	const char *soc;

	if (!comm)
		return HCCL_E_PTR;
	if (!hcclt_comm_get(comm))
		return HCCL_E_PTR;
	soc = aclrtGetSocName();
	if (!soc || strncmp(soc, "Ascend950", 9))
		return HCCL_E_NOT_SUPPORT;
	return report(comm, beginTime, "aiv");
}
