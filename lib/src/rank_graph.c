// SPDX-License-Identifier: MIT
/*
 * The rank graph (hccl/hccl_rank_graph.h) of the simulated cluster: the
 * driver's cards split into servers (module parameter sim_servers; QUERY
 * tells the layout), a rank on the card the kernel's GROUP_INFO names.
 *
 * Layer 0 is the server: the ranks on this rank's server, every pair
 * linked directly (HCCS on A2/A3, UB_CTP on a 950). When the
 * communicator's ranks are on more than one server, layer 1 is the
 * cluster: every rank, one instance, CLOS; its links between servers are
 * RoCE on A2, HCCS on A3 (the servers are one superpod) and UB_CTP on a
 * 950. Documentation/overview.rst, "Servers", cites hcomm for each answer.
 * Returned lists live in thread-local storage.
 */
#include <errno.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>

#include "internal.h"
#include "hccl/hccl_rank_graph.h"

/* Where the ranks of a communicator are. */
struct topo {
	uint32_t nranks;
	uint32_t nservers;		/* distinct servers of its ranks */
	uint32_t my_server;
	uint32_t card[HCCLT_MAX_DEVICES * 4];	/* per rank */
	uint32_t server[HCCLT_MAX_DEVICES * 4];	/* per rank */
	uint32_t per_server;		/* cards per server, 0: one server */
};

static _Thread_local uint32_t layers[2];
static _Thread_local uint32_t *rank_list;
static _Thread_local uint32_t size_list[HCCLT_MAX_DEVICES * 4];
static _Thread_local CommLink link_out;

static int soc_950(void)
{
	const char *soc = aclrtGetSocName();

	return soc && !strncmp(soc, "Ascend950", 9);
}

static int soc_a3(void)
{
	const char *soc = aclrtGetSocName();

	return soc && !strncmp(soc, "Ascend910_93", 12);
}

/*
 * The cards and servers of @c's ranks. Without a server layout (one
 * server, or a driver before uAPI 1.14, or no device open) every rank is
 * on server 0 and no card is known (-1 in @card): asked only for links.
 */
/*
 * The ranks' cards of communicators on several servers, once learnt: the
 * driver's GROUP_INFO lists a group only while every rank's communicator
 * lives, and the layout never changes. Entries of destroyed
 * communicators are dropped (hcclt_rank_graph_comm_gone()). card_lock
 * protects cards[].
 */
#define CARD_CACHE	64

struct card_entry {
	uint64_t comm;		/* kernel id; 0: free */
	int32_t dev;
	uint32_t gen;
	uint32_t card[HCCLT_MAX_DEVICES * 4];
};

static pthread_mutex_t card_lock = PTHREAD_MUTEX_INITIALIZER;
static struct card_entry cards[CARD_CACHE];

static int cards_find(const struct hcclt_comm *c, uint32_t *card)
{
	int i, found = 0;

	pthread_mutex_lock(&card_lock);
	for (i = 0; i < CARD_CACHE && !found; i++) {
		if (cards[i].comm == c->id && cards[i].dev == c->dev &&
		    cards[i].gen == c->gen) {
			memcpy(card, cards[i].card, c->nranks * sizeof(*card));
			found = 1;
		}
	}
	pthread_mutex_unlock(&card_lock);
	return found;
}

static void cards_keep(const struct hcclt_comm *c, const uint32_t *card)
{
	int i, slot = -1;

	pthread_mutex_lock(&card_lock);
	for (i = 0; i < CARD_CACHE && slot < 0; i++)
		if (!cards[i].comm || cards[i].gen != hcclt_gen())
			slot = i;
	/* Full: the layout is asked of the driver again next time. */
	if (slot >= 0) {
		cards[slot].comm = c->id;
		cards[slot].dev = c->dev;
		cards[slot].gen = c->gen;
		memcpy(cards[slot].card, card, c->nranks * sizeof(*card));
	}
	pthread_mutex_unlock(&card_lock);
}

void hcclt_rank_graph_comm_gone(const struct hcclt_comm *c)
{
	int i;

	pthread_mutex_lock(&card_lock);
	for (i = 0; i < CARD_CACHE; i++)
		if (cards[i].comm == c->id && cards[i].dev == c->dev && cards[i].gen == c->gen)
			cards[i].comm = 0;
	pthread_mutex_unlock(&card_lock);
}

static int topo_get(const struct hcclt_comm *c, struct topo *t)
{
	struct drm_hcclt_group_rank_info e[HCCLT_MAX_DEVICES * 4];
	const struct hcclt_servers *s;
	struct drm_hcclt_group_info gi;
	int fd = hcclt_device_fd_fast(c->dev), cached;
	uint32_t i, seen = 0;

	if (c->nranks > sizeof(t->card) / sizeof(t->card[0]))
		return -E2BIG;
	memset(t, 0, sizeof(*t));
	t->nranks = c->nranks;
	t->nservers = 1;
	for (i = 0; i < c->nranks; i++)
		t->card[i] = UINT32_MAX;
	if (fd < 0)
		return 0;
	s = hcclt_device_servers(c->dev);
	t->card[c->rank] = s->card;
	if (s->servers <= 1 || !s->server_devices || c->nranks == 1)
		return 0;
	t->per_server = s->server_devices;
	cached = cards_find(c, t->card);
	if (!cached) {
		memset(&gi, 0, sizeof(gi));
		gi.rank_count = sizeof(e) / sizeof(e[0]);
		gi.ranks_ptr = (uintptr_t)e;
		if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi))
			return -EIO;
		for (i = 0; i < gi.rank_count && i < sizeof(e) / sizeof(e[0]); i++)
			if (e[i].rank < c->nranks &&
			    !strncmp(e[i].name, c->name, sizeof(e[i].name)))
				t->card[e[i].rank] = e[i].device;
	}
	for (i = 0; i < c->nranks; i++) {
		if (t->card[i] == UINT32_MAX)
			return -ENOENT;
		t->server[i] = t->card[i] / t->per_server;
		if (t->server[i] < 32)
			seen |= 1U << t->server[i];
	}
	t->my_server = t->server[c->rank];
	t->nservers = (uint32_t)__builtin_popcount(seen);
	if (!cached)
		cards_keep(c, t->card);
	return 0;
}

/* The communicator of @comm and its ranks' layout; NULL if not one. */
static struct hcclt_comm *graph_comm(HcclComm comm, struct topo *t, HcclResult *ret)
{
	struct hcclt_comm *c = comm ? hcclt_comm_get(comm) : NULL;

	*ret = HCCL_E_PTR;
	if (!c)
		return NULL;
	*ret = topo_get(c, t) ? HCCL_E_INTERNAL : HCCL_SUCCESS;
	return *ret == HCCL_SUCCESS ? c : NULL;
}

/* Is @layer a layer of the graph? Layer 1 only across servers. */
static int layer_ok(const struct topo *t, uint32_t layer)
{
	return layer == 0 || (layer == 1 && t->nservers > 1);
}

HCCLT_EXPORT HcclResult HcclRankGraphGetLayers(HcclComm comm, uint32_t **netLayers,
					       uint32_t *netLayerNum)
{
	struct topo t;
	HcclResult ret;

	if (!comm || !netLayers || !netLayerNum)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	layers[0] = 0;
	layers[1] = 1;
	*netLayers = layers;
	*netLayerNum = t.nservers > 1 ? 2 : 1;
	return HCCL_SUCCESS;
}

/*
 * The ranks of this rank's instance of @layer: its server's in layer 0,
 * every rank server by server in layer 1 (hcomm's order).
 */
static uint32_t inst_ranks(const struct topo *t, uint32_t layer, uint32_t *out)
{
	uint32_t s, i, n = 0;

	for (s = 0; s < HCCLT_MAX_DEVICES; s++) {
		if (layer == 0 && s != t->my_server)
			continue;
		for (i = 0; i < t->nranks; i++)
			if (t->server[i] == s) {
				if (out)
					out[n] = i;
				n++;
			}
	}
	return n;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetRanksByLayer(HcclComm comm, uint32_t netLayer,
						     uint32_t **ranks, uint32_t *rankNum)
{
	struct topo t;
	HcclResult ret;
	uint32_t *n;

	if (!comm || !ranks || !rankNum)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (!layer_ok(&t, netLayer))
		return HCCL_E_PARA;
	n = realloc(rank_list, t.nranks * sizeof(*n));
	if (!n)
		return HCCL_E_MEMORY;
	rank_list = n;
	*rankNum = inst_ranks(&t, netLayer, n);
	*ranks = n;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetRankSizeByLayer(HcclComm comm, uint32_t netLayer,
							uint32_t *rankNum)
{
	struct topo t;
	HcclResult ret;

	if (!comm || !rankNum)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (!layer_ok(&t, netLayer))
		return HCCL_E_PARA;
	*rankNum = inst_ranks(&t, netLayer, NULL);
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetInstSizeListByLayer(HcclComm comm, uint32_t netLayer,
							    uint32_t **instSizeList,
							    uint32_t *listSize)
{
	uint32_t s, i, n = 0, k;
	struct topo t;
	HcclResult ret;

	if (!comm || !instSizeList || !listSize)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (!layer_ok(&t, netLayer))
		return HCCL_E_PARA;
	if (netLayer == 1) {
		size_list[n++] = t.nranks;
	} else {
		/* One instance per server, in server order. */
		for (s = 0; s < HCCLT_MAX_DEVICES; s++) {
			for (i = 0, k = 0; i < t.nranks; i++)
				k += t.server[i] == s;
			if (k)
				size_list[n++] = k;
		}
	}
	*instSizeList = size_list;
	*listSize = n;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetTopoTypeByLayer(HcclComm comm, uint32_t netLayer,
							CommTopo *topoType)
{
	struct topo t;
	HcclResult ret;

	if (!comm || !topoType)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (!layer_ok(&t, netLayer))
		return HCCL_E_PARA;
	if (netLayer)
		*topoType = COMM_TOPO_CLOS;
	else
		*topoType = soc_a3() ? COMM_TOPO_910_93 : COMM_TOPO_1DMESH;
	return HCCL_SUCCESS;
}

static void endpoint(EndpointDesc *d, CommProtocol proto, const struct topo *t, uint32_t rank)
{
	uint32_t card = t->card[rank];

	d->protocol = proto;
	d->commAddr.type = COMM_ADDR_TYPE_ID;
	memset(d->commAddr.raws, 0, sizeof(d->commAddr.raws));
	d->commAddr.id = card;
	d->loc.locType = ENDPOINT_LOC_TYPE_DEVICE;
	memset(d->loc.raws, 0, sizeof(d->loc.raws));
	d->loc.device.devPhyId = t->per_server ? card % t->per_server : card;
	d->loc.device.superDevId = card;
	d->loc.device.serverIdx = t->server[rank];
	d->loc.device.superPodIdx = 0;
}

/*
 * The protocol of the link from @src to @dst in @layer, RESERVED for none
 * (hcomm: rank_graph.cc:218-263 on A2/A3; on a 950 the paths of its
 * topology, HCCL-VM's for 2 x 8 cards).
 */
static CommProtocol link_protocol(const struct topo *t, uint32_t layer, uint32_t src,
				  uint32_t dst, int v2)
{
	int same = t->server[src] == t->server[dst];

	if (v2) {
		if (layer == 0)
			return same ? COMM_PROTOCOL_UB_CTP : COMM_PROTOCOL_RESERVED;
		return COMM_PROTOCOL_UB_CTP;
	}
	if (layer == 0)
		return same && src != dst ? COMM_PROTOCOL_HCCS : COMM_PROTOCOL_RESERVED;
	if (layer == 1 && t->nservers > 1) {
		if (soc_a3())
			return src != dst ? COMM_PROTOCOL_HCCS : COMM_PROTOCOL_RESERVED;
		return same ? COMM_PROTOCOL_RESERVED : COMM_PROTOCOL_ROCE;
	}
	return COMM_PROTOCOL_RESERVED;
}

/*
 * hcomm answers per SoC (8958adbf): on a 950 SoC a rank to itself and a
 * layer the graph does not have are HCCL_E_PARA
 * (coll_comm_rank_graph_a_adpt.cc:71, rank_graph_interface.cc:330-333);
 * on A2/A3 unknown ranks, then a layer above 2, are HCCL_E_PARA, and a
 * layer or pair without a link has no links (rank_graph.cc:313-337).
 */
HCCLT_EXPORT HcclResult HcclRankGraphGetLinks(HcclComm comm, uint32_t netLayer, uint32_t srcRank,
					      uint32_t dstRank, CommLink **links, uint32_t *linkNum)
{
	int v2 = soc_950();
	struct hcclt_comm *c;
	CommProtocol proto;
	struct topo t;

	if (!comm || !links || !linkNum)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (v2 && srcRank == dstRank)
		return HCCL_E_PARA;
	if (topo_get(c, &t))
		return HCCL_E_INTERNAL;
	if (v2 && !layer_ok(&t, netLayer))
		return HCCL_E_PARA;
	if (srcRank >= c->nranks || dstRank >= c->nranks)
		return HCCL_E_PARA;
	if (netLayer > 2)
		return HCCL_E_PARA;
	proto = link_protocol(&t, netLayer, srcRank, dstRank, v2);
	if (proto == COMM_PROTOCOL_RESERVED) {
		*links = NULL;
		*linkNum = 0;
		return HCCL_SUCCESS;
	}
	if (t.card[srcRank] == UINT32_MAX || t.card[dstRank] == UINT32_MAX) {
		/* One server: the cards GROUP_INFO names. */
		struct drm_hcclt_group_rank_info e[HCCLT_MAX_DEVICES * 4];
		struct drm_hcclt_group_info gi;
		int fd = hcclt_device_fd_fast(c->dev);
		uint32_t i;

		if (fd < 0)
			return HCCL_E_INTERNAL;
		memset(&gi, 0, sizeof(gi));
		gi.rank_count = sizeof(e) / sizeof(e[0]);
		gi.ranks_ptr = (uintptr_t)e;
		if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi))
			return HCCL_E_INTERNAL;
		for (i = 0; i < gi.rank_count && i < sizeof(e) / sizeof(e[0]); i++)
			if (e[i].rank < c->nranks &&
			    !strncmp(e[i].name, c->name, sizeof(e[i].name)))
				t.card[e[i].rank] = e[i].device;
		if (t.card[srcRank] == UINT32_MAX || t.card[dstRank] == UINT32_MAX)
			return HCCL_E_INTERNAL;
	}
	CommLinkInit(&link_out, 1);
	endpoint(&link_out.srcEndpointDesc, proto, &t, srcRank);
	endpoint(&link_out.dstEndpointDesc, proto, &t, dstRank);
	link_out.linkAttr.linkProtocol = proto;
	link_out.linkAttr.hop = 1;
	*links = &link_out;
	*linkNum = 1;
	return HCCL_SUCCESS;
}

/*
 * For HcclChannelAcquire's check (channel.c): when @c's ranks span more
 * than one server, the server of each rank in @server (@c->nranks
 * entries) and the cluster layer's protocol in *@proto, and 1; 0 when
 * they are on one server (or the layout is unknown).
 */
int hcclt_rank_graph_servers(const struct hcclt_comm *c, uint32_t *server, int32_t *proto)
{
	struct topo t;

	if (topo_get(c, &t) || t.nservers <= 1)
		return 0;
	memcpy(server, t.server, t.nranks * sizeof(*server));
	*proto = soc_950() ? COMM_PROTOCOL_UB_CTP : soc_a3() ? COMM_PROTOCOL_HCCS : COMM_PROTOCOL_ROCE;
	return 1;
}
