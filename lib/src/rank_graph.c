// SPDX-License-Identifier: MIT
/*
 * The rank graph (hccl/hccl_rank_graph.h) of the simulated cluster: the
 * driver's cards split into servers (module parameter sim_servers; QUERY
 * tells the layout), hosts joined into a cluster (module parameter
 * cluster_addr), a rank on the host and card the kernel's GROUP_INFO
 * names.
 *
 * Layer 0 is the server: the ranks on this rank's server, every pair
 * linked directly (HCCS on A2/A3, UB_CTP on a 950). When the
 * communicator's ranks are on more than one server, layer 1 is the
 * cluster: on A2 every rank, one instance, its links between servers
 * RoCE; on A3 and a 950 the superpod (supernode), its links HCCS or
 * UB_CTP. Each host is a superpod of its own: on A3 and a 950, ranks on
 * more than one host add layer 2, every rank, its links between hosts
 * RoCE. Documentation/overview.rst, "Servers", cites hcomm for each
 * answer. Returned lists live in thread-local storage.
 */
#include <errno.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "hccl/hccl_rank_graph.h"

static _Thread_local uint32_t layers[3];
static _Thread_local uint32_t *rank_list;
static _Thread_local uint32_t size_list[HCCLT_TOPO_MAX_RANKS];
static _Thread_local CommLink link_out;

static enum hcclt_topo_soc topo_soc(void)
{
	const char *soc = aclrtGetSocName();

	if (soc && !strncmp(soc, "Ascend950", 9))
		return HCCLT_TOPO_950;
	if (soc && !strncmp(soc, "Ascend910_93", 12))
		return HCCLT_TOPO_A3;
	return HCCLT_TOPO_A2;
}

/*
 * From @t's cards and hosts: each rank's host in order of its lowest rank
 * (pod), its server (the host's servers numbered after those of the hosts
 * before it, a card on server card / per_server of its host), and the
 * layers. Every host of a cluster has the same server layout (this
 * host's: per_server, host_servers), which is what lets every rank of
 * every host number the servers alike. -ERANGE: a card past that layout.
 */
int hcclt_topo_place(struct hcclt_topo *t)
{
	uint32_t hs = t->host_servers ? t->host_servers : 1, i, j, local;

	t->npods = 0;
	t->nservers = 0;
	for (i = 0; i < t->nranks; i++) {
		for (j = 0; j < i && t->host[j] != t->host[i]; j++)
			;
		t->pod[i] = j < i ? t->pod[j] : t->npods++;
		local = 0;
		if (t->per_server && hs > 1 && t->card[i] != UINT32_MAX)
			local = t->card[i] / t->per_server;
		if (local >= hs)
			return -ERANGE;
		t->server[i] = t->pod[i] * hs + local;
		for (j = 0; j < i && t->server[j] != t->server[i]; j++)
			;
		t->nservers += j == i;
	}
	t->nlayers = 1 + (t->nservers > 1);
	if (t->soc != HCCLT_TOPO_A2 && t->npods > 1)
		t->nlayers++;
	return 0;
}

/*
 * The instance of @layer rank @i is in: its server in layer 0, its
 * superpod in layer 1 on A3 and a 950, the whole cluster otherwise.
 */
static uint32_t inst_of(const struct hcclt_topo *t, uint32_t layer, uint32_t i)
{
	if (layer == 0)
		return t->server[i];
	if (layer == 1 && t->soc != HCCLT_TOPO_A2)
		return t->pod[i];
	return 0;
}

/* The highest server number of @t's ranks. */
static uint32_t max_server(const struct hcclt_topo *t)
{
	uint32_t i, m = 0;

	for (i = 0; i < t->nranks; i++)
		if (t->server[i] > m)
			m = t->server[i];
	return m;
}

/*
 * The ranks of @t->rank's instance of @layer, server by server (hcomm's
 * order), into @ranks when not NULL; their count.
 */
uint32_t hcclt_topo_inst(const struct hcclt_topo *t, uint32_t layer, uint32_t *ranks)
{
	uint32_t me = inst_of(t, layer, t->rank), top = max_server(t), s, i, n = 0;

	for (s = 0; s <= top; s++) {
		for (i = 0; i < t->nranks; i++) {
			if (t->server[i] != s || inst_of(t, layer, i) != me)
				continue;
			if (ranks)
				ranks[n] = i;
			n++;
		}
	}
	return n;
}

/*
 * The sizes of the instances of @layer in their order (servers, then
 * superpods, by number) into @sizes; their count.
 */
uint32_t hcclt_topo_sizes(const struct hcclt_topo *t, uint32_t layer, uint32_t *sizes)
{
	uint32_t top = max_server(t), k, i, c, n = 0;

	for (k = 0; k <= top; k++) {
		for (i = 0, c = 0; i < t->nranks; i++)
			c += inst_of(t, layer, i) == k;
		if (c)
			sizes[n++] = c;
	}
	return n;
}

/* The protocol between servers of one superpod: the cluster layer's. */
static int32_t pod_protocol(const struct hcclt_topo *t)
{
	if (t->soc == HCCLT_TOPO_950)
		return COMM_PROTOCOL_UB_CTP;
	return t->soc == HCCLT_TOPO_A3 ? COMM_PROTOCOL_HCCS : COMM_PROTOCOL_ROCE;
}

/*
 * The protocol of the link from @src to @dst in @layer, RESERVED for none
 * (hcomm: rank_graph.cc:218-263 on A2/A3; on a 950 the paths of its
 * topology, HCCL-VM's for 2 x 8 cards, and its scale-out between
 * supernodes: overview.rst, "Servers").
 */
int32_t hcclt_topo_link(const struct hcclt_topo *t, uint32_t layer, uint32_t src, uint32_t dst)
{
	int same_server = t->server[src] == t->server[dst];
	int same_pod = t->pod[src] == t->pod[dst];

	if (layer >= t->nlayers)
		return COMM_PROTOCOL_RESERVED;
	if (layer == 0) {
		if (!same_server || src == dst)
			return COMM_PROTOCOL_RESERVED;
		return t->soc == HCCLT_TOPO_950 ? COMM_PROTOCOL_UB_CTP : COMM_PROTOCOL_HCCS;
	}
	if (layer == 2)
		return same_pod ? COMM_PROTOCOL_RESERVED : COMM_PROTOCOL_ROCE;
	/* Layer 1: A2's cluster; A3's and the 950's superpod. */
	if (t->soc == HCCLT_TOPO_A2)
		return same_server ? COMM_PROTOCOL_RESERVED : COMM_PROTOCOL_ROCE;
	return same_pod && src != dst ? pod_protocol(t) : COMM_PROTOCOL_RESERVED;
}

/*
 * The protocol a channel from @t->rank to @dst must take, RESERVED when
 * the SoC's own choice is free (the same server): RoCE to another host,
 * the superpod's protocol to another server of this one.
 */
int32_t hcclt_topo_need(const struct hcclt_topo *t, uint32_t dst)
{
	if (t->pod[dst] != t->pod[t->rank])
		return COMM_PROTOCOL_ROCE;
	if (t->server[dst] != t->server[t->rank])
		return pod_protocol(t);
	return COMM_PROTOCOL_RESERVED;
}

/*
 * The ranks' cards and hosts of communicators on several servers or
 * hosts, once learnt: the driver's GROUP_INFO lists a group only while
 * every rank's communicator lives, and the layout never changes. Entries
 * of destroyed communicators are dropped (hcclt_rank_graph_comm_gone()).
 * card_lock protects cards[].
 */
#define CARD_CACHE	64

struct card_entry {
	uint64_t comm;		/* kernel id; 0: free */
	int32_t dev;
	uint32_t gen;
	uint32_t card[HCCLT_TOPO_MAX_RANKS];
	uint64_t host[HCCLT_TOPO_MAX_RANKS];
};

static pthread_mutex_t card_lock = PTHREAD_MUTEX_INITIALIZER;
static struct card_entry cards[CARD_CACHE];

static int cards_find(const struct hcclt_comm *c, struct hcclt_topo *t)
{
	int i, found = 0;

	pthread_mutex_lock(&card_lock);
	for (i = 0; i < CARD_CACHE && !found; i++) {
		if (cards[i].comm == c->id && cards[i].dev == c->dev &&
		    cards[i].gen == c->gen) {
			memcpy(t->card, cards[i].card, c->nranks * sizeof(t->card[0]));
			memcpy(t->host, cards[i].host, c->nranks * sizeof(t->host[0]));
			found = 1;
		}
	}
	pthread_mutex_unlock(&card_lock);
	return found;
}

static void cards_keep(const struct hcclt_comm *c, const struct hcclt_topo *t)
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
		memcpy(cards[slot].card, t->card, c->nranks * sizeof(t->card[0]));
		memcpy(cards[slot].host, t->host, c->nranks * sizeof(t->host[0]));
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

/*
 * The cards and hosts of @c's ranks as GROUP_INFO lists them (with their
 * hosts since uAPI 1.15, HCCLT_GROUP_INFO_HOSTS; without before): 0 when
 * every rank was found, -ENOENT when some are not listed (a rank's
 * communicator is gone), else an error.
 */
static int group_places(const struct hcclt_comm *c, int fd, struct hcclt_topo *t)
{
	struct drm_hcclt_group_rank_host *e;
	struct drm_hcclt_group_info gi;
	const char *name = c->name;
	uint32_t i, n, found = 0;
	pid_t pid = getpid();
	int hosts = 1, ret;

	memset(&gi, 0, sizeof(gi));
	gi.flags = HCCLT_GROUP_INFO_HOSTS;
	if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi)) {
		hosts = 0;
		gi.flags = 0;
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi);
		if (ret)
			return ret;
	}
	n = gi.rank_count + 16;	/* room for ranks joining meanwhile */
	e = calloc(n, sizeof(*e));
	if (!e)
		return -ENOMEM;
	gi.rank_count = n;
	gi.ranks_ptr = (uintptr_t)e;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi);
	if (ret) {
		free(e);
		return ret;
	}
	n = gi.rank_count < n ? gi.rank_count : n;
	if (!hosts) {
		/* Entries of the old size: spread them out, last first. */
		const struct drm_hcclt_group_rank_info *old = (const void *)e;

		for (i = n; i-- > 0;) {
			struct drm_hcclt_group_rank_info r = old[i];

			memset(&e[i], 0, sizeof(e[i]));
			e[i].info = r;
		}
	}
	for (i = 0; i < c->nranks; i++) {
		t->card[i] = UINT32_MAX;
		t->host[i] = 0;
	}
	/*
	 * The group's name here: this rank's entry names it (a mirror of
	 * another host's group has a name of its own), else the
	 * communicator's.
	 */
	for (i = 0; i < n; i++) {
		e[i].info.name[sizeof(e[i].info.name) - 1] = '\0';
		if (e[i].info.pid == (uint32_t)pid && e[i].info.comm_id == c->id &&
		    e[i].info.rank == c->rank && !e[i].remote)
			name = e[i].info.name;
	}
	for (i = 0; i < n; i++) {
		const struct drm_hcclt_group_rank_info *r = &e[i].info;

		if (r->rank >= c->nranks || strncmp(r->name, name, sizeof(r->name)) ||
		    t->card[r->rank] != UINT32_MAX)
			continue;
		t->card[r->rank] = r->device;
		t->host[r->rank] = (uint64_t)e[i].host_addr << 16 | e[i].host_port;
		found++;
	}
	free(e);
	return found == c->nranks ? 0 : -ENOENT;
}

/*
 * Where @c's ranks are. A driver on one server and in no cluster (or
 * before uAPI 1.14, or no device open) puts every rank on server 0 of
 * this host without asking GROUP_INFO: the cards are unknown (-1 in
 * @t->card) but for this rank's.
 */
static int topo_get(const struct hcclt_comm *c, struct hcclt_topo *t)
{
	const struct hcclt_servers *s;
	int fd = hcclt_device_fd_fast(c->dev), cached, ret;
	uint32_t i;

	if (c->nranks > HCCLT_TOPO_MAX_RANKS || c->rank >= c->nranks)
		return -E2BIG;
	t->nranks = c->nranks;
	t->rank = c->rank;
	t->soc = topo_soc();
	t->per_server = 0;
	t->host_servers = 1;
	for (i = 0; i < c->nranks; i++) {
		t->card[i] = UINT32_MAX;
		t->host[i] = 0;
	}
	if (fd >= 0) {
		s = hcclt_device_servers(c->dev);
		t->card[c->rank] = s->card;
		if (s->servers > 1 && s->server_devices) {
			t->per_server = s->server_devices;
			t->host_servers = s->servers;
		}
		if (c->nranks > 1 && (t->per_server || s->cluster_addr)) {
			cached = cards_find(c, t);
			if (!cached) {
				ret = group_places(c, fd, t);
				/* One server, in a cluster: a lost peer changes nothing. */
				if (ret == -ENOENT && !t->per_server) {
					for (i = 0; i < c->nranks; i++) {
						t->card[i] = i == c->rank ? s->card : UINT32_MAX;
						t->host[i] = 0;
					}
				} else if (ret) {
					return ret;
				} else {
					cards_keep(c, t);
				}
			}
		}
	}
	return hcclt_topo_place(t);
}

/*
 * Right after @c's ranks met: learn where they are while GROUP_INFO lists
 * them all, for later questions (the rank graph, channel checks).
 */
void hcclt_rank_graph_learn(const struct hcclt_comm *c)
{
	const struct hcclt_servers *s = hcclt_device_servers(c->dev);
	struct hcclt_topo *t;

	if (c->nranks <= 1 || (s->servers <= 1 && !s->cluster_addr))
		return;
	t = malloc(sizeof(*t));
	if (t) {
		topo_get(c, t);
		free(t);
	}
}

/* The communicator of @comm and its ranks' layout; NULL if not one. */
static struct hcclt_comm *graph_comm(HcclComm comm, struct hcclt_topo *t, HcclResult *ret)
{
	struct hcclt_comm *c = comm ? hcclt_comm_get(comm) : NULL;

	*ret = HCCL_E_PTR;
	if (!c)
		return NULL;
	*ret = topo_get(c, t) ? HCCL_E_INTERNAL : HCCL_SUCCESS;
	return *ret == HCCL_SUCCESS ? c : NULL;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetLayers(HcclComm comm, uint32_t **netLayers,
					       uint32_t *netLayerNum)
{
	struct hcclt_topo t;
	HcclResult ret;

	if (!comm || !netLayers || !netLayerNum)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	layers[0] = 0;
	layers[1] = 1;
	layers[2] = 2;
	*netLayers = layers;
	*netLayerNum = t.nlayers;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetRanksByLayer(HcclComm comm, uint32_t netLayer,
						     uint32_t **ranks, uint32_t *rankNum)
{
	struct hcclt_topo t;
	HcclResult ret;
	uint32_t *n;

	if (!comm || !ranks || !rankNum)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (netLayer >= t.nlayers)
		return HCCL_E_PARA;
	n = realloc(rank_list, t.nranks * sizeof(*n));
	if (!n)
		return HCCL_E_MEMORY;
	rank_list = n;
	*rankNum = hcclt_topo_inst(&t, netLayer, n);
	*ranks = n;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetRankSizeByLayer(HcclComm comm, uint32_t netLayer,
							uint32_t *rankNum)
{
	struct hcclt_topo t;
	HcclResult ret;

	if (!comm || !rankNum)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (netLayer >= t.nlayers)
		return HCCL_E_PARA;
	*rankNum = hcclt_topo_inst(&t, netLayer, NULL);
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetInstSizeListByLayer(HcclComm comm, uint32_t netLayer,
							    uint32_t **instSizeList,
							    uint32_t *listSize)
{
	struct hcclt_topo t;
	HcclResult ret;

	if (!comm || !instSizeList || !listSize)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (netLayer >= t.nlayers)
		return HCCL_E_PARA;
	*listSize = hcclt_topo_sizes(&t, netLayer, size_list);
	*instSizeList = size_list;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclRankGraphGetTopoTypeByLayer(HcclComm comm, uint32_t netLayer,
							CommTopo *topoType)
{
	struct hcclt_topo t;
	HcclResult ret;

	if (!comm || !topoType)
		return HCCL_E_PTR;
	if (!graph_comm(comm, &t, &ret))
		return ret;
	if (netLayer >= t.nlayers)
		return HCCL_E_PARA;
	if (netLayer)
		*topoType = COMM_TOPO_CLOS;
	else
		*topoType = t.soc == HCCLT_TOPO_A3 ? COMM_TOPO_910_93 : COMM_TOPO_1DMESH;
	return HCCL_SUCCESS;
}

/*
 * One end of a link: the card, its place on its server, its server and
 * superpod (host); addressed by its host's cluster address on a RoCE link
 * between hosts (the simulated cards of a host share its address:
 * clusters.rst), by its number otherwise.
 */
static void endpoint(EndpointDesc *d, CommProtocol proto, const struct hcclt_topo *t,
		     uint32_t rank)
{
	uint32_t card = t->card[rank];

	d->protocol = proto;
	memset(d->commAddr.raws, 0, sizeof(d->commAddr.raws));
	if (proto == COMM_PROTOCOL_ROCE && t->host[rank]) {
		d->commAddr.type = COMM_ADDR_TYPE_IP_V4;
		d->commAddr.addr.s_addr = (uint32_t)(t->host[rank] >> 16);
	} else {
		d->commAddr.type = COMM_ADDR_TYPE_ID;
		d->commAddr.id = card;
	}
	d->loc.locType = ENDPOINT_LOC_TYPE_DEVICE;
	memset(d->loc.raws, 0, sizeof(d->loc.raws));
	d->loc.device.devPhyId = t->per_server ? card % t->per_server : card;
	d->loc.device.superDevId = card;
	d->loc.device.serverIdx = t->server[rank];
	d->loc.device.superPodIdx = t->pod[rank];
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
	struct hcclt_comm *c;
	struct hcclt_topo t;
	CommProtocol proto;
	int v2, fd;

	if (!comm || !links || !linkNum)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	v2 = topo_soc() == HCCLT_TOPO_950;
	if (v2 && srcRank == dstRank)
		return HCCL_E_PARA;
	if (topo_get(c, &t))
		return HCCL_E_INTERNAL;
	if (v2 && netLayer >= t.nlayers)
		return HCCL_E_PARA;
	if (srcRank >= c->nranks || dstRank >= c->nranks)
		return HCCL_E_PARA;
	if (netLayer > 2)
		return HCCL_E_PARA;
	proto = (CommProtocol)hcclt_topo_link(&t, netLayer, srcRank, dstRank);
	if (proto == COMM_PROTOCOL_RESERVED) {
		*links = NULL;
		*linkNum = 0;
		return HCCL_SUCCESS;
	}
	if (t.card[srcRank] == UINT32_MAX || t.card[dstRank] == UINT32_MAX) {
		/* One server: the cards GROUP_INFO names. */
		fd = hcclt_device_fd_fast(c->dev);
		if (fd < 0 || group_places(c, fd, &t) || hcclt_topo_place(&t))
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
 * than one server, the protocol a channel to each rank must take in
 * @need (@c->nranks entries, COMM_PROTOCOL_RESERVED: the SoC's own
 * choice), and 1; 0 when they are on one server (or the layout is
 * unknown).
 */
int hcclt_rank_graph_protocols(const struct hcclt_comm *c, int32_t *need)
{
	struct hcclt_topo t;
	uint32_t i;

	if (topo_get(c, &t) || t.nservers <= 1)
		return 0;
	for (i = 0; i < t.nranks; i++)
		need[i] = hcclt_topo_need(&t, i);
	return 1;
}
