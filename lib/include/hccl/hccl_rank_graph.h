/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_rank_graph.h - the rank graph of a communicator, as CANN's
 * header declares it (types, values, CommLinkInit()).
 *
 * Layer 0 is the server: the ranks on this rank's simulated server (module
 * parameters sim_servers, sim_devices), every pair linked directly, HCCS
 * on an A2/A3 SoC and UB_CTP on a 950 SoC (module parameter sim_soc).
 * When the ranks are on more than one server, layer 1 is the cluster:
 * every rank, server by server, one CLOS instance; its links between
 * servers are RoCE on A2, HCCS on A3 (the servers are one superpod) and
 * UB_CTP on a 950. Endpoints are the cards: device locations, the card's
 * number within its server as physical id, its server as serverIdx.
 *
 * Lists these functions return are the library's, not to be freed: valid
 * until the calling thread calls the same function again (CANN promises
 * less: until the next call on the communicator).
 */
#ifndef HCCL_RANK_GRAPH_H
#define HCCL_RANK_GRAPH_H

#include <stdint.h>
#include <string.h>
#include "securec.h"
#include "hccl_res.h"

#ifdef __cplusplus
extern "C" {
#endif

/** CommTopo - how the ranks of a layer are connected. */
typedef enum {
	COMM_TOPO_RESERVED = -1,
	COMM_TOPO_CLOS = 0,
	COMM_TOPO_1DMESH = 1,
	COMM_TOPO_910_93 = 2,
	COMM_TOPO_310P = 3,
	COMM_TOPO_A2AXSERVER = 4,
	COMM_TOPO_CUSTOM = 5
} CommTopo;

#define COMM_LINK_MAGIC_WORD	0x0f0e0f0fU
#define COMM_LINK_VERSION	1U

/** CommLink - a link between two ranks (CANN's layout, 432 bytes). */
typedef struct {
	CommAbiHeader header;
	EndpointDesc srcEndpointDesc;
	EndpointDesc dstEndpointDesc;
	union {
		uint8_t raws[128];
		struct {
			CommProtocol linkProtocol;
			uint8_t hop;
		};
	} linkAttr;
} CommLink;

/* CommLinkInit() - CANN's initialiser of @linkNum links: 0xFF, then the
 * header, reserved endpoints, protocol RESERVED, one hop. */
static inline HcclResult CommLinkInit(CommLink *commLink, uint32_t linkNum)
{
	uint32_t i;

	if (!commLink)
		return HCCL_E_PTR;
	for (i = 0; i < linkNum; i++, commLink++) {
		(void)memset_s(commLink, sizeof(CommLink), 0xFF, sizeof(CommLink));
		commLink->header.version = COMM_LINK_VERSION;
		commLink->header.magicWord = COMM_LINK_MAGIC_WORD;
		commLink->header.size = sizeof(CommLink);
		commLink->header.reserved = 0;
		if (EndpointDescInit(&commLink->srcEndpointDesc, 1) != HCCL_SUCCESS ||
		    EndpointDescInit(&commLink->dstEndpointDesc, 1) != HCCL_SUCCESS)
			return HCCL_E_INTERNAL;
		commLink->linkAttr.linkProtocol = COMM_PROTOCOL_RESERVED;
		commLink->linkAttr.hop = 1;
	}
	return HCCL_SUCCESS;
}

/**
 * HcclRankGraphGetLayers() - the network layers of @comm: [0], or [0, 1]
 * when its ranks are on more than one server.
 * Return: HCCL_SUCCESS; HCCL_E_PTR (a NULL argument, not a communicator).
 */
HcclResult HcclRankGraphGetLayers(HcclComm comm, uint32_t **netLayers, uint32_t *netLayerNum);

/**
 * HcclRankGraphGetRanksByLayer() - the ranks of this rank's instance of
 * layer @netLayer: those of its server in layer 0, all ranks (server by
 * server) in layer 1.
 * Return: HCCL_SUCCESS; HCCL_E_PTR; HCCL_E_PARA (no such layer).
 */
HcclResult HcclRankGraphGetRanksByLayer(HcclComm comm, uint32_t netLayer, uint32_t **ranks,
					uint32_t *rankNum);

/**
 * HcclRankGraphGetRankSizeByLayer() - how many ranks this rank's instance
 * of layer @netLayer has.
 * Return: HCCL_SUCCESS; HCCL_E_PTR; HCCL_E_PARA (no such layer).
 */
HcclResult HcclRankGraphGetRankSizeByLayer(HcclComm comm, uint32_t netLayer, uint32_t *rankNum);

/**
 * HcclRankGraphGetInstSizeListByLayer() - the instances of layer
 * @netLayer and their sizes: one per server in layer 0 (in server order,
 * [8, 8] for 2 x 8 cards), one of all ranks in layer 1 ([16]).
 * Return: HCCL_SUCCESS; HCCL_E_PTR; HCCL_E_PARA (no such layer).
 */
HcclResult HcclRankGraphGetInstSizeListByLayer(HcclComm comm, uint32_t netLayer,
					       uint32_t **instSizeList, uint32_t *listSize);

/**
 * HcclRankGraphGetTopoTypeByLayer() - layer 0: COMM_TOPO_1DMESH (every
 * card linked to every other; COMM_TOPO_910_93 on A3); layer 1:
 * COMM_TOPO_CLOS.
 * Return: HCCL_SUCCESS; HCCL_E_PTR; HCCL_E_PARA (no such layer).
 */
HcclResult HcclRankGraphGetTopoTypeByLayer(HcclComm comm, uint32_t netLayer, CommTopo *topoType);

/**
 * HcclRankGraphGetLinks() - the links from @srcRank to @dstRank in layer
 * @netLayer: one link whose endpoints are the two ranks' cards. Layer 0:
 * HCCS (UB_CTP on a 950) within a server, none between servers. Layer 1:
 * between servers RoCE on A2, HCCS on A3, UB_CTP on a 950; within a
 * server none on A2, HCCS on A3, UB_CTP on a 950.
 *
 * As hcomm, per SoC: on a 950, a rank to itself, then a layer the graph
 * does not have, are HCCL_E_PARA; on A2/A3, a rank not below the rank
 * count, then a layer above 2, are HCCL_E_PARA, and a layer or pair
 * without a link (layer 2, a rank to itself) has none (*@linkNum 0,
 * *@links NULL).
 * Return: HCCL_SUCCESS; HCCL_E_PTR (a NULL argument, not a communicator);
 * HCCL_E_PARA; HCCL_E_INTERNAL.
 */
HcclResult HcclRankGraphGetLinks(HcclComm comm, uint32_t netLayer, uint32_t srcRank,
				 uint32_t dstRank, CommLink **links, uint32_t *linkNum);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_RANK_GRAPH_H */
