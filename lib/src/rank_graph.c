// SPDX-License-Identifier: MIT
/*
 * The rank graph (hccl/hccl_rank_graph.h) of the simulated server: one
 * layer, every pair of ranks linked directly, HCCS on A2/A3 and UB_CTP on
 * a 950 SoC; the endpoints name the ranks' devices, which the kernel's
 * GROUP_INFO tells. Returned lists live in thread-local storage.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "hccl/hccl_rank_graph.h"

static _Thread_local uint32_t layers[1];
static _Thread_local uint32_t *rank_list;
static _Thread_local CommLink link_out;

/* The communicator of @comm, checked; NULL if it is not one. */
static struct hcclt_comm *graph_comm(HcclComm comm, uint32_t layer, HcclResult *ret)
{
	struct hcclt_comm *c = comm ? hcclt_comm_get(comm) : NULL;

	*ret = !c ? HCCL_E_PTR : layer ? HCCL_E_PARA : HCCL_SUCCESS;
	return *ret == HCCL_SUCCESS ? c : NULL;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetLayers(HcclComm comm, uint32_t **netLayers,
					       uint32_t *netLayerNum)
{
	HcclResult ret;

	if (!netLayers || !netLayerNum)
		return HCCL_E_PTR;
	if (!graph_comm(comm, 0, &ret))
		return ret;
	layers[0] = 0;
	*netLayers = layers;
	*netLayerNum = 1;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetRanksByLayer(HcclComm comm, uint32_t netLayer,
						     uint32_t **ranks, uint32_t *rankNum)
{
	struct hcclt_comm *c;
	HcclResult ret;
	uint32_t *n, i;

	if (!ranks || !rankNum)
		return HCCL_E_PTR;
	c = graph_comm(comm, netLayer, &ret);
	if (!c)
		return ret;
	n = realloc(rank_list, c->nranks * sizeof(*n));
	if (!n)
		return HCCL_E_MEMORY;
	rank_list = n;
	for (i = 0; i < c->nranks; i++)
		n[i] = i;
	*ranks = n;
	*rankNum = c->nranks;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetRankSizeByLayer(HcclComm comm, uint32_t netLayer,
							uint32_t *rankNum)
{
	struct hcclt_comm *c;
	HcclResult ret;

	if (!rankNum)
		return HCCL_E_PTR;
	c = graph_comm(comm, netLayer, &ret);
	if (!c)
		return ret;
	*rankNum = c->nranks;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetTopoTypeByLayer(HcclComm comm, uint32_t netLayer,
							CommTopo *topoType)
{
	HcclResult ret;

	if (!topoType)
		return HCCL_E_PTR;
	if (!graph_comm(comm, netLayer, &ret))
		return ret;
	*topoType = COMM_TOPO_1DMESH;
	return HCCL_SUCCESS;
}

/* The device of rank @rank of @c's group (GROUP_INFO), or -1. */
static int rank_device(const struct hcclt_comm *c, uint32_t rank)
{
	struct drm_hcclt_group_rank_info e[HCCLT_MAX_DEVICES * 4];
	struct drm_hcclt_group_info gi;
	int fd = hcclt_device_fd_fast(c->dev);
	uint32_t i;

	if (rank == c->rank)
		return c->dev;
	if (fd < 0)
		return -1;
	memset(&gi, 0, sizeof(gi));
	gi.rank_count = sizeof(e) / sizeof(e[0]);
	gi.ranks_ptr = (uintptr_t)e;
	if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi))
		return -1;
	for (i = 0; i < gi.rank_count && i < sizeof(e) / sizeof(e[0]); i++)
		if (e[i].rank == rank && !strncmp(e[i].name, c->name, sizeof(e[i].name)))
			return (int)e[i].device;
	return -1;
}

static void endpoint(EndpointDesc *d, CommProtocol proto, int dev)
{
	d->protocol = proto;
	d->commAddr.type = COMM_ADDR_TYPE_ID;
	memset(d->commAddr.raws, 0, sizeof(d->commAddr.raws));
	d->commAddr.id = (uint32_t)dev;
	d->loc.locType = ENDPOINT_LOC_TYPE_DEVICE;
	memset(d->loc.raws, 0, sizeof(d->loc.raws));
	d->loc.device.devPhyId = (uint32_t)dev;
	d->loc.device.superDevId = (uint32_t)dev;
	d->loc.device.serverIdx = 0;
	d->loc.device.superPodIdx = 0;
}

/*
 * hcomm answers per SoC (8958adbf): on a 950 SoC a rank to itself and a
 * layer the graph does not have are HCCL_E_PARA
 * (coll_comm_rank_graph_a_adpt.cc:71, rank_graph_interface.cc:330-333);
 * on A2/A3 unknown ranks, then a layer above 2, are HCCL_E_PARA, and a
 * layer or pair without a link (here: layers 1 and 2, a rank to itself)
 * has no links (rank_graph.cc:313-337).
 */
HCCLT_EXPORT HcclResult HcclRankGraphGetLinks(HcclComm comm, uint32_t netLayer, uint32_t srcRank,
					      uint32_t dstRank, CommLink **links, uint32_t *linkNum)
{
	const char *soc = aclrtGetSocName();
	int v2 = soc && !strncmp(soc, "Ascend950", 9);
	struct hcclt_comm *c;
	CommProtocol proto;
	int sdev, ddev;

	if (!comm || !links || !linkNum)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (v2 && (srcRank == dstRank || netLayer))
		return HCCL_E_PARA;
	if (srcRank >= c->nranks || dstRank >= c->nranks)
		return HCCL_E_PARA;
	if (netLayer > 2)
		return HCCL_E_PARA;
	if (netLayer || srcRank == dstRank) {
		*links = NULL;
		*linkNum = 0;
		return HCCL_SUCCESS;
	}
	sdev = rank_device(c, srcRank);
	ddev = rank_device(c, dstRank);
	if (sdev < 0 || ddev < 0)
		return HCCL_E_INTERNAL;
	proto = v2 ? COMM_PROTOCOL_UB_CTP : COMM_PROTOCOL_HCCS;
	CommLinkInit(&link_out, 1);
	endpoint(&link_out.srcEndpointDesc, proto, sdev);
	endpoint(&link_out.dstEndpointDesc, proto, ddev);
	link_out.linkAttr.linkProtocol = proto;
	link_out.linkAttr.hop = 1;
	*links = &link_out;
	*linkNum = 1;
	return HCCL_SUCCESS;
}
