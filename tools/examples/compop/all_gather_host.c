// SPDX-License-Identifier: MIT
/*
 * The host half of the competition-style AllGather (all_gather_op.h). As
 * the competition submissions do, it defines HCCL's own entry point,
 * HcclAllGather() as hccl/hccl.h declares it, and is linked into the
 * application without libhccl. Per communicator, on its first call, it
 * takes its resources (see all_gather_op.h); every call registers the op
 * with HcclDfxRegOpInfoByCommId, records the AICPU main thread from the
 * user's stream, launches the kernel on the user's stream, makes the
 * stream wait for the kernel's record back, and reports the op and the
 * kernel to the profiler. The send and receive buffers must be those of
 * the first call on the communicator (the peers keep the registered
 * range); a call with others is HCCL_E_PARA.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_diag.h"
#include "hccl/hccl_rank_graph.h"
#include "all_gather_op.h"

#define CHECK(call)							\
	do {								\
		int32_t ret_ = (int32_t)(call);				\
		if (ret_ != 0) {					\
			fprintf(stderr, "CompopAllGather: %s:%d: %s: %d\n", \
				__FILE__, __LINE__, #call, (int)ret_);	\
			return (HcclResult)ret_;			\
		}							\
	} while (0)

/* What the host half keeps per communicator: its CPU engine context. */
struct co_host {
	HcclResult setup;		/* the first call's resources: their result */
	ThreadHandle host_thread;	/* the user's stream, CPU_TS */
	ThreadHandle main_on_host;	/* the AICPU main thread, as CPU_TS */
	struct co_res *res;		/* the AICPU engine context */
	void *input, *output;
	uint32_t server_size;
	HcclMemHandle reg;
};

static pthread_once_t kernel_once = PTHREAD_ONCE_INIT;
static aclrtFuncHandle kernel_func;
static int32_t kernel_ret = ACL_ERROR_INVALID_PARAM;

/* The kernel's descriptor: $COMPOP_KERNEL_DIR, else aicpu/ beside the program. */
static void kernel_load(void)
{
	const char *dir = getenv("COMPOP_KERNEL_DIR");
	char exe[PATH_MAX], path[PATH_MAX + 64], *slash;
	aclrtBinHandle bin;
	ssize_t n;

	if (dir) {
		snprintf(path, sizeof(path), "%s/compop_kernel.json", dir);
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return;
		exe[n] = 0;
		slash = strrchr(exe, '/');
		if (slash)
			*slash = 0;
		snprintf(path, sizeof(path), "%s/aicpu/compop_kernel.json", exe);
	}
	kernel_ret = aclrtBinaryLoadFromFile(path, NULL, &bin);
	if (kernel_ret == ACL_SUCCESS)
		kernel_ret = aclrtBinaryGetFunction(bin, "CompopAllGatherKernel", &kernel_func);
	if (kernel_ret != ACL_SUCCESS)
		fprintf(stderr, "CompopAllGather: cannot load %s: %d\n", path, (int)kernel_ret);
}

static uint64_t type_size(HcclDataType t)
{
	switch (t) {
	case HCCL_DATA_TYPE_INT8:
	case HCCL_DATA_TYPE_UINT8:
		return 1;
	case HCCL_DATA_TYPE_INT16:
	case HCCL_DATA_TYPE_UINT16:
	case HCCL_DATA_TYPE_FP16:
	case HCCL_DATA_TYPE_BFP16:
		return 2;
	case HCCL_DATA_TYPE_INT32:
	case HCCL_DATA_TYPE_UINT32:
	case HCCL_DATA_TYPE_FP32:
		return 4;
	case HCCL_DATA_TYPE_INT64:
	case HCCL_DATA_TYPE_UINT64:
	case HCCL_DATA_TYPE_FP64:
		return 8;
	default:
		return 0;
	}
}

/* The link's protocol: layer 0 (the server), else layer 1 (the cluster). */
static HcclResult link_protocol(HcclComm comm, uint32_t rank, uint32_t peer, CommProtocol *proto)
{
	uint32_t *layers, nlayers, i, n;
	CommLink *links;

	CHECK(HcclRankGraphGetLayers(comm, &layers, &nlayers));
	for (i = 0; i < nlayers; i++) {
		n = 0;
		CHECK(HcclRankGraphGetLinks(comm, layers[i], rank, peer, &links, &n));
		if (n) {
			*proto = links[0].linkAttr.linkProtocol;
			return HCCL_SUCCESS;
		}
	}
	return HCCL_E_NOT_FOUND;
}

/* The peer's range registered under CO_TAG: it registers when it gets here. */
static HcclResult peer_output(HcclComm comm, ChannelHandle ch, void **addr, uint64_t *size)
{
	struct timespec ts = { 0, 1000000 };
	uint32_t n, i, tries;
	CommMem *mems;
	char **tags;

	for (tries = 0; tries < CO_TIMEOUT_S * 1000u; tries++) {
		CHECK(HcclChannelGetRemoteMems(comm, ch, &n, &mems, &tags));
		for (i = 0; i < n; i++) {
			if (!strcmp(tags[i], CO_TAG) && mems[i].type == COMM_MEM_TYPE_DEVICE) {
				*addr = mems[i].addr;
				*size = mems[i].size;
				return HCCL_SUCCESS;
			}
		}
		nanosleep(&ts, NULL);
	}
	return HCCL_E_TIMEOUT;
}

static HcclResult setup(HcclComm comm, aclrtStream stream, void *input, void *output,
			uint64_t out_size, uint32_t rank, uint32_t nranks, struct co_host *h)
{
	HcclChannelDesc desc[CO_MAX_RANKS];
	ChannelHandle ch[CO_MAX_RANKS];
	uint32_t *sizes, nsizes, i, np = 0, peers[CO_MAX_RANKS];
	struct co_res res;
	CommMem mem;
	void *dctx;

	memset(&res, 0, sizeof(res));
	CHECK(HcclRankGraphGetInstSizeListByLayer(comm, 0, &sizes, &nsizes));
	if (!nsizes)
		return HCCL_E_NOT_SUPPORT;
	for (i = 1; i < nsizes; i++)
		if (sizes[i] != sizes[0])
			return HCCL_E_NOT_SUPPORT;	/* servers of one size only */
	h->server_size = sizes[0];
	CHECK(HcclEngineCtxCreate(comm, CO_TAG, COMM_ENGINE_AICPU, sizeof(res), &dctx));
	/* 1 + 8 x 8 = 65 notifies: HCCL_E_UNAVAIL under the seed's 64. */
	CHECK(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1, &h->host_thread));
	CHECK(HcclThreadExportToCommEngine(comm, 1, &h->host_thread, COMM_ENGINE_AICPU_TS,
					   &res.host_on_aicpu));
	CHECK(HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, CO_THREADS, CO_NOTIFIES, res.thread));
	CHECK(HcclThreadExportToCommEngine(comm, 1, &res.thread[0], COMM_ENGINE_CPU_TS,
					   &h->main_on_host));
	mem.type = COMM_MEM_TYPE_DEVICE;
	mem.addr = output;
	mem.size = out_size;
	CHECK(HcclCommMemReg(comm, CO_TAG, &mem, &h->reg));
	h->input = input;
	h->output = output;
	for (i = 0; i < nranks; i++)
		if (i != rank)
			peers[np++] = i;
	if (np) {
		CHECK(HcclChannelDescInit(desc, np));
		for (i = 0; i < np; i++) {
			desc[i].remoteRank = peers[i];
			desc[i].notifyNum = 2;
			CHECK(link_protocol(comm, rank, peers[i], &desc[i].channelProtocol));
		}
		/* All at once: the peers take theirs in any order. */
		CHECK(HcclChannelAcquire(comm, COMM_ENGINE_AICPU, desc, np, ch));
		for (i = 0; i < np; i++) {
			res.ch[peers[i]] = ch[i];
			CHECK(peer_output(comm, ch[i], &res.peer_out[peers[i]],
					  &res.peer_size[peers[i]]));
		}
	}
	CHECK(aclrtMemcpy(dctx, sizeof(res), &res, sizeof(res), ACL_MEMCPY_HOST_TO_DEVICE));
	h->res = dctx;
	return HCCL_SUCCESS;
}

HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
			 HcclComm comm, aclrtStream stream)
{
	uint64_t elem = type_size(dataType), size = 0, begin;
	char comm_name[128], kname[] = "CompopAllGatherKernel";
	aclrtLaunchKernelAttr attr;
	aclrtLaunchKernelCfg cfg;
	aclrtParamHandle ph;
	aclrtArgsHandle args;
	uint32_t rank, nranks;
	HcclDfxOpInfo info;
	struct co_args a;
	struct co_host *h;
	void *ctx = NULL;

	if (!sendBuf || !recvBuf || !comm || !stream)
		return HCCL_E_PTR;
	if (!elem || !sendCount)
		return HCCL_E_PARA;
	CHECK(HcclGetRankId(comm, &rank));
	CHECK(HcclGetRankSize(comm, &nranks));
	CHECK(HcclGetCommName(comm, comm_name));
	if (nranks > CO_MAX_RANKS)
		return HCCL_E_NOT_SUPPORT;
	pthread_once(&kernel_once, kernel_load);
	CHECK(kernel_ret);
	if (HcclEngineCtxGet(comm, CO_TAG, COMM_ENGINE_CPU, &ctx, &size) != HCCL_SUCCESS) {
		CHECK(HcclEngineCtxCreate(comm, CO_TAG, COMM_ENGINE_CPU, sizeof(*h), &ctx));
		h = ctx;
		h->setup = setup(comm, stream, sendBuf, recvBuf, sendCount * elem * nranks, rank,
				 nranks, h);
	}
	h = ctx;
	if (h->setup != HCCL_SUCCESS)
		return h->setup;
	if (h->input != sendBuf || h->output != recvBuf)
		return HCCL_E_PARA;

	memset(&info, 0, sizeof(info));
	info.opType = HCCL_CMD_ALLGATHER;
	info.dataType = dataType;
	info.dataCount = sendCount;
	info.root = ~0U;
	snprintf(info.algTag, sizeof(info.algTag), "%s_mesh_%ut", CO_TAG, (unsigned int)CO_THREADS);
	info.engine = COMM_ENGINE_AICPU_TS;
	info.cpuTsThread = h->host_thread;
	info.cpuWaitAicpuNotifyIdx = 0;
	info.cpuWaitAicpuNotifyId = ~0U;
	info.inputMemAddr = (uint64_t)(uintptr_t)sendBuf;
	info.inputMemSize = sendCount * elem;
	info.outputMemAddr = (uint64_t)(uintptr_t)recvBuf;
	info.outputMemSize = sendCount * elem * nranks;
	CHECK(HcclDfxRegOpInfoByCommId(comm_name, &info));
	begin = HcommGetProfilingSysCycleTime();

	memset(&a, 0, sizeof(a));
	snprintf(a.tag, sizeof(a.tag), "%s", CO_TAG);
	memcpy(a.comm_name, comm_name, sizeof(a.comm_name));
	a.rank = rank;
	a.rank_size = nranks;
	a.server_size = h->server_size;
	a.input = sendBuf;
	a.output = recvBuf;
	a.bytes = sendCount * elem;
	a.res = h->res;
	CHECK(HcommThreadNotifyRecordOnThread(h->host_thread, h->main_on_host, 0));
	CHECK(aclrtKernelArgsInit(kernel_func, &args));
	CHECK(aclrtKernelArgsAppend(args, &a, sizeof(a), &ph));
	CHECK(aclrtKernelArgsFinalize(args));
	memset(&attr, 0, sizeof(attr));
	attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
	attr.value.timeout = CO_TIMEOUT_S;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	CHECK(aclrtLaunchKernelWithConfig(kernel_func, 1, stream, &cfg, args, NULL));
	CHECK(HcclReportAicpuKernel(comm, begin, kname));
	CHECK(HcommThreadNotifyWaitOnThread(h->host_thread, 0, CO_TIMEOUT_S));
	CHECK(HcclProfilingReportOp(comm, begin));
	return HCCL_SUCCESS;
}
