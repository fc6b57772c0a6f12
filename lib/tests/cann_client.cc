// SPDX-License-Identifier: MIT
// A client written the way CANN's custom-operator samples write their host
// side (C++14, CANN's include lines, one std::thread per device, rank ==
// device). make check-installed compiles and links it against the
// *installed* headers and library; it runs in the VM as
// hcclt-cann-client (exit 0: every rank joined and was destroyed).
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_types.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_res.h"
#include "hccl/hccl_res_expt.h"
#include "hcomm_primitives.h"
#include "hccl/hcomm_primitives.h"
#include "hcomm/hcomm_primitives.h"
#include "hccl/hccl_diag.h"

#define ACLCHECK(ret)                                                              \
    do {                                                                           \
        if ((ret) != ACL_SUCCESS) {                                                \
            printf("acl interface return err %s:%d, retcode: %d\n", __FILE__,      \
                   __LINE__, static_cast<int>(ret));                               \
            return 1;                                                              \
        }                                                                          \
    } while (0)

#define HCCLCHECK(ret)                                                             \
    do {                                                                           \
        if ((ret) != HCCL_SUCCESS) {                                               \
            printf("hccl interface return err %s:%d, retcode: %d\n", __FILE__,     \
                   __LINE__, static_cast<int>(ret));                               \
            return 1;                                                              \
        }                                                                          \
    } while (0)

static_assert(sizeof(HcclRootInfo) == 4108, "HcclRootInfo");
static_assert(sizeof(HcclCommConfig) == 2240, "HcclCommConfig");
static_assert(sizeof(HcclChannelDesc) == 496, "HcclChannelDesc");

struct ThreadContext {
    HcclRootInfo *rootInfo;
    int32_t device;
    uint32_t devCount;
};

static int Sample(ThreadContext *ctx)
{
    ACLCHECK(aclrtSetDevice(ctx->device));
    HcclComm hcclComm = nullptr;
    HcclCommConfig config;
    HcclCommConfigInit(&config);
    // CANN's documented test for a config option (HcclGetCommConfigCapability.md).
    bool isSupportBufferSize = HcclGetCommConfigCapability() > HCCL_COMM_CONFIG_BUFFER_SIZE;
    if (!isSupportBufferSize) {
        printf("hcclBufferSize is not supported\n");
        return 1;
    }
    config.hcclBufferSize = 200;
    HCCLCHECK(HcclCommInitRootInfoConfig(ctx->devCount, ctx->rootInfo, ctx->device, &config, &hcclComm));
    uint32_t rankId = 0;
    uint32_t rankSize = 0;
    char commName[COMM_NAME_MAX_LENGTH] = {0};
    HCCLCHECK(HcclGetRankId(hcclComm, &rankId));
    HCCLCHECK(HcclGetRankSize(hcclComm, &rankSize));
    HCCLCHECK(HcclGetCommName(hcclComm, commName));
    aclrtStream stream = nullptr;
    ACLCHECK(aclrtCreateStream(&stream));
    ThreadHandle thread = 0;
    HCCLCHECK(HcclThreadAcquire(hcclComm, COMM_ENGINE_AICPU_TS, 1, 0, &thread));
    // The host half of a competition-style operator: its DFX op info.
    HcclDfxOpInfo dfxInfo{};
    dfxInfo.opType = static_cast<uint32_t>(HcclCMDType::HCCL_CMD_ALLGATHER);
    dfxInfo.cpuTsThread = 0;
    std::snprintf(dfxInfo.algTag, sizeof(dfxInfo.algTag), "%s", "hccl_custom_allgather");
    HCCLCHECK(HcclDfxRegOpInfoByCommId(commName, reinterpret_cast<void *>(&dfxInfo)));
    uint64_t beginTime = HcommGetProfilingSysCycleTime();
    HCCLCHECK(HcclProfilingReportOp(hcclComm, beginTime));
    HcclChannelDesc desc;
    memset(&desc, 0, sizeof(desc));
    desc.remoteRank = (rankId + 1) % rankSize;
    desc.channelProtocol = COMM_PROTOCOL_HCCS;
    desc.notifyNum = 2;
    printf("rank %u/%u on device %d: %s\n", rankId, rankSize, ctx->device, commName);
    ACLCHECK(aclrtSynchronizeStream(stream));
    ACLCHECK(aclrtDestroyStream(stream));
    HCCLCHECK(HcclCommDestroy(hcclComm));
    ACLCHECK(aclrtResetDevice(ctx->device));
    return 0;
}

int main()
{
    aclError ret = aclInit(nullptr);
    if (ret != ACL_SUCCESS && ret != ACL_ERROR_REPEAT_INITIALIZE) {
        return 1;
    }
    uint32_t devCount = 0;
    ACLCHECK(aclrtGetDeviceCount(&devCount));
    const char *socName = aclrtGetSocName();
    printf("found %u devices, soc %s\n", devCount, socName != nullptr ? socName : "unknown");
    ACLCHECK(aclrtSetDevice(0));
    HcclRootInfo rootInfo;
    HCCLCHECK(HcclGetRootInfo(&rootInfo));

    std::vector<ThreadContext> ctx(devCount);
    std::vector<int> results(devCount, 1);
    std::vector<std::thread> threads;
    for (uint32_t i = 0; i < devCount; i++) {
        ctx[i] = ThreadContext{&rootInfo, static_cast<int32_t>(i), devCount};
        threads.emplace_back([&ctx, &results, i]() { results[i] = Sample(&ctx[i]); });
    }
    int failed = 0;
    for (uint32_t i = 0; i < devCount; i++) {
        threads[i].join();
        failed |= results[i];
    }
    (void)aclFinalize();
    return failed;
}
