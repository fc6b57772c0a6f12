// SPDX-License-Identifier: MIT
/*
 * Channels: HcclChannelAcquire (DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE, the
 * kernel's pairwise rendezvous) with CANN's check order and codes, and the
 * channel notify record and wait (one SUBMIT each). A ChannelHandle is the
 * kernel's channel id with the device and fork generation of the process
 * in its top bits, as a ThreadHandle.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "hccl/hccl_res.h"
#include "hccl/hcomm_primitives.h"

/* hcomm's limit on descriptors per call (coll_comm_res_c_adpt.cc). */
#define CHANNEL_NUM_MAX		(1024U * 1024U)

static int protocol_known(int32_t p)
{
	/* What hcomm's descriptor unpacking lets through (version >= 1). */
	return p == COMM_PROTOCOL_HCCS || p == COMM_PROTOCOL_ROCE ||
	       p == COMM_PROTOCOL_PCIE || p == COMM_PROTOCOL_SIO ||
	       p == COMM_PROTOCOL_UBC_CTP || p == COMM_PROTOCOL_UB_MEM;
}

static int64_t deadline_ns(int32_t timeout_ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec +
	       (int64_t)timeout_ms * 1000000;
}

/* CANN's checks of the descriptors, in its order. */
static HcclResult descs_check(const struct hcclt_comm *c, CommEngine engine,
			      const HcclChannelDesc *d, uint32_t n)
{
	const char *soc = aclrtGetSocName();
	int ub = soc && !strncmp(soc, "Ascend950", 9);
	int32_t need[HCCLT_TOPO_MAX_RANKS], must;
	uint32_t i, j;
	int multi;

	for (i = 0; i < n; i++) {
		if (d[i].header.magicWord != HCCL_CHANNEL_DESC_MAGIC_WORD)
			return HCCL_E_PARA;
		if (d[i].header.version >= 1 &&
		    !protocol_known(d[i].channelProtocol))
			return HCCL_E_PARA;
	}
	/* Where the ranks are: one GROUP_INFO, not one per descriptor. */
	multi = c->nranks <= HCCLT_TOPO_MAX_RANKS && hcclt_rank_graph_protocols(c, need);
	for (i = 0; i < n; i++) {
		if (d[i].notifyNum > HCCLT_MAX_NOTIFIES_PER_CHANNEL)
			return HCCL_E_PARA;
		for (j = 0; j < i; j++)
			if (d[j].remoteRank == d[i].remoteRank &&
			    d[j].channelProtocol == d[i].channelProtocol)
				return HCCL_E_PARA;
		if (d[i].remoteRank == c->rank || d[i].remoteRank >= c->nranks)
			return HCCL_E_PARA;
		/*
		 * Between servers, the protocol of the graph's link there
		 * only (rank_graph.c): the cluster layer's, RoCE between
		 * hosts. Within a server HCCS or RoCE on A2/A3, UB_CTP on a
		 * 950 (hcomm's choice).
		 */
		must = multi ? need[d[i].remoteRank] : COMM_PROTOCOL_RESERVED;
		if (must != COMM_PROTOCOL_RESERVED ? d[i].channelProtocol != must :
		    ub ? d[i].channelProtocol != COMM_PROTOCOL_UB_CTP :
			 d[i].channelProtocol != COMM_PROTOCOL_HCCS &&
			 d[i].channelProtocol != COMM_PROTOCOL_ROCE)
			return HCCL_E_PARA;
		if (engine != COMM_ENGINE_CPU && engine != COMM_ENGINE_CPU_TS &&
		    engine != COMM_ENGINE_AICPU && engine != COMM_ENGINE_AICPU_TS)
			return HCCL_E_PARA;
	}
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclChannelAcquire(HcclComm comm, CommEngine engine,
					   const HcclChannelDesc *channelDescs,
					   uint32_t channelNum, ChannelHandle *channels)
{
	struct drm_hcclt_channel_desc kd[HCCLT_MAX_CHANNEL_DESCS];
	struct drm_hcclt_channel_acquire ca;
	struct hcclt_comm *c;
	HcclResult res;
	int32_t tmo;
	uint32_t i;
	int fd, ret;

	if (!comm || !channelDescs || !channels)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (!channelNum || channelNum > CHANNEL_NUM_MAX)
		return HCCL_E_PARA;
	res = descs_check(c, engine, channelDescs, channelNum);
	if (res)
		return res;
	/* Unique (remoteRank, protocol) below 16 ranks: at most 30 here. */
	if (channelNum > HCCLT_MAX_CHANNEL_DESCS)
		return HCCL_E_PARA;
	tmo = hcclt_connect_timeout_ms();
	if (tmo < 0)
		return HCCL_E_PARA;
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(kd, 0, sizeof(kd));
	for (i = 0; i < channelNum; i++) {
		kd[i].remote_rank = channelDescs[i].remoteRank;
		kd[i].protocol = (uint32_t)channelDescs[i].channelProtocol;
		kd[i].notify_num = channelDescs[i].notifyNum;
	}
	memset(&ca, 0, sizeof(ca));
	ca.comm_id = c->id;
	ca.engine = (uint32_t)engine;
	ca.desc_count = channelNum;
	ca.desc_size = sizeof(kd[0]);
	ca.deadline_ns = deadline_ns(tmo);
	ca.descs_ptr = (uintptr_t)kd;
	/* An absolute deadline: a restart after a signal is the same call. */
	do {
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE, &ca);
	} while (ret == -EINTR);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_CHANNEL_ACQUIRE, ret);
	for (i = 0; i < channelNum; i++)
		channels[i] = hcclt_handle_make(c->dev, kd[i].channel_id);
	return HCCL_SUCCESS;
}

/* Split a ChannelHandle as hcclt_handle_parse() splits a ThreadHandle. */
int hcclt_channel_parse(ChannelHandle h, int dev, uint64_t *id)
{
	uint64_t kid = h & HCCLT_HANDLE_ID_MASK;

	if (!kid || (h >> HCCLT_HANDLE_GEN_SHIFT) != (hcclt_gen() & 0xf) ||
	    ((kid >> HCCLT_ID_KIND_SHIFT) & 0xff) != HCCLT_ID_KIND_CHANNEL ||
	    (int)((h >> HCCLT_HANDLE_DEV_SHIFT) & 0xf) != dev)
		return -1;
	*id = kid;
	return 0;
}

static int32_t channel_task(ThreadHandle thread, ChannelHandle channel,
			    uint32_t op, uint32_t idx, uint32_t timeout)
{
	struct drm_hcclt_task task;
	uint64_t tid, cid;
	int dev, fd, ret;

	if (!thread || !channel)
		return HCCL_E_PTR;
	if (hcclt_handle_parse(thread, &dev, &tid) ||
	    hcclt_channel_parse(channel, dev, &cid))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&task, 0, sizeof(task));
	task.op = op;
	task.notify_idx = idx;
	task.dst_thread = cid;
	task.timeout_s = timeout;
	ret = hcclt_submit_one(fd, dev, tid, &task);
	return hcclt_map_errno(HCCLT_OP_CHANNEL_TASK, ret);
}

HCCLT_EXPORT int32_t HcommChannelNotifyRecordOnThread(ThreadHandle thread, ChannelHandle channel,
						      uint32_t remoteNotifyIdx)
{
	return channel_task(thread, channel, HCCLT_TASK_CHANNEL_RECORD,
			    remoteNotifyIdx, 0);
}

HCCLT_EXPORT int32_t HcommChannelNotifyWaitOnThread(ThreadHandle thread, ChannelHandle channel,
						    uint32_t localNotifyIdx, uint32_t timeout)
{
	return channel_task(thread, channel, HCCLT_TASK_CHANNEL_WAIT,
			    localNotifyIdx, timeout);
}
