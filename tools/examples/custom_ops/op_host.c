// SPDX-License-Identifier: MIT
/*
 * Host half of the example custom operators (example_ops.h): what a CANN
 * custom operator's op_host does, written for this project.
 *
 * The first call of an operator on a communicator acquires its resources
 * and caches them in two engine contexts tagged with the operator's name:
 * a CPU one (host memory) for the host half, an AICPU one (device memory)
 * the kernel reads. Later calls find them with HcclEngineCtxGet.
 *
 *  - the user's stream as a CPU_TS thread with one notify, exported to
 *    AICPU_TS so that the kernel can record it when it is done;
 *  - one AICPU_TS thread with one notify that runs the operator's tasks,
 *    exported to CPU_TS so that the user's stream can record it;
 *  - the channels to the peers, with the protocol the rank graph gives
 *    for the link (the server layer's: HCCS on A2/A3, UB_CTP on a 950;
 *    between servers the cluster layer's: RoCE on A2);
 *  - this rank's HCCL buffer and the right peer's, mapped here.
 *
 * A launch records the AICPU thread from the user's stream, queues the
 * kernel on the user's stream, and makes the user's stream wait until the
 * AICPU thread records it back: the operator is one step of the stream.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_rank_graph.h"
#include "hccl/hccl_res_expt.h"
#include "example_ops.h"
#include "op_common.h"

#define TRY(call)						\
	do {							\
		HcclResult ret_ = (HcclResult)(call);		\
		if (ret_ != HCCL_SUCCESS) {			\
			fprintf(stderr, "%s:%d: %s: %d\n",	\
				__FILE__, __LINE__, #call,	\
				(int)ret_);			\
			return ret_;				\
		}						\
	} while (0)

#define TRY_ACL(call)						\
	do {							\
		aclError ret_ = (call);				\
		if (ret_ != ACL_SUCCESS) {			\
			fprintf(stderr, "%s:%d: %s: %d\n",	\
				__FILE__, __LINE__, #call,	\
				(int)ret_);			\
			return HCCL_E_RUNTIME;			\
		}						\
	} while (0)

/*
 * The folder of the kernels' JSON descriptors: $EXAMPLE_KERNEL_DIR, else
 * aicpu/ beside this program (where the examples' Makefile puts them).
 */
static int kernel_path(const char *json, char *out, size_t len)
{
	const char *dir = getenv("EXAMPLE_KERNEL_DIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (dir)
		return snprintf(out, len, "%s/%s", dir, json) >= (int)len ? -1 : 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -1;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0;
	return snprintf(out, len, "%s/aicpu/%s", exe, json) >= (int)len ? -1 : 0;
}

/* A kernel, loaded once per OS thread (as CANN's samples do). */
struct kernel {
	aclrtBinHandle bin;
	aclrtFuncHandle func;
};

static HcclResult kernel_get(struct kernel *k, const char *json, const char *name)
{
	aclrtBinaryLoadOptions opts;
	aclrtBinaryLoadOption opt;
	char path[PATH_MAX];

	if (k->func)
		return HCCL_SUCCESS;
	if (kernel_path(json, path, sizeof(path)))
		return HCCL_E_PARA;
	memset(&opt, 0, sizeof(opt));
	opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
	opt.value.cpuKernelMode = 0;
	opts.options = &opt;
	opts.numOpt = 1;
	TRY_ACL(aclrtBinaryLoadFromFile(path, &opts, &k->bin));
	if (aclrtBinaryGetFunction(k->bin, name, &k->func) != ACL_SUCCESS) {
		fprintf(stderr, "%s: no kernel %s\n", path, name);
		aclrtBinaryUnLoad(k->bin);
		k->bin = NULL;
		return HCCL_E_NOT_FOUND;
	}
	return HCCL_SUCCESS;
}

static _Thread_local struct kernel p2p_kernel, allgather_kernel, hier_kernel;

/*
 * The protocol of the link between @rank and @peer in layer @layer of the
 * rank graph; with @layer -1, the server layer's, else (ranks on two
 * servers) the cluster layer's.
 */
static HcclResult link_protocol(HcclComm comm, int layer, uint32_t rank, uint32_t peer,
				CommProtocol *proto)
{
	CommLink *links = NULL;
	uint32_t n = 0;

	TRY(HcclRankGraphGetLinks(comm, layer < 0 ? 0 : (uint32_t)layer, rank, peer, &links, &n));
	if (!n && layer < 0)
		TRY(HcclRankGraphGetLinks(comm, 1, rank, peer, &links, &n));
	if (!n) {
		fprintf(stderr, "rank graph: no link from rank %u to rank %u\n", rank, peer);
		return HCCL_E_NOT_FOUND;
	}
	*proto = links[0].linkAttr.linkProtocol;
	return HCCL_SUCCESS;
}

/*
 * Acquire the resources of operator @tag on @comm: channels to the
 * @npeers ranks of @peers (0, 1, or the right and the left neighbour),
 * each with two notifies.
 */
static HcclResult acquire(HcclComm comm, aclrtStream stream, const char *tag,
			  uint32_t rank, const uint32_t *peers, uint32_t npeers,
			  struct example_host_res *host)
{
	HcclChannelDesc desc[2];
	ChannelHandle ch[2];
	struct example_res res;
	void *dctx;
	uint32_t i;

	memset(&res, 0, sizeof(res));
	TRY(HcclEngineCtxCreate(comm, tag, COMM_ENGINE_AICPU, sizeof(res), &dctx));
	TRY(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1,
					&host->host_thread));
	TRY(HcclThreadExportToCommEngine(comm, 1, &host->host_thread,
					 COMM_ENGINE_AICPU_TS, &res.host_thread_on_aicpu));
	TRY(HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, 1, 1, &res.aicpu_thread));
	TRY(HcclThreadExportToCommEngine(comm, 1, &res.aicpu_thread,
					 COMM_ENGINE_CPU_TS, &host->aicpu_thread_on_host));
	TRY(HcclGetHcclBuffer(comm, &res.local_buf, &res.local_size));
	host->buf_size = res.local_size;
	if (npeers) {
		TRY(HcclChannelDescInit(desc, npeers));
		for (i = 0; i < npeers; i++) {
			desc[i].remoteRank = peers[i];
			desc[i].notifyNum = 2;
			TRY(link_protocol(comm, -1, rank, peers[i], &desc[i].channelProtocol));
		}
		/* All channels in one call: ranks of a ring must not wait in turn. */
		TRY(HcclChannelAcquire(comm, COMM_ENGINE_AICPU, desc, npeers, ch));
		res.right = ch[0];
		res.left = ch[npeers - 1];
		TRY(HcclChannelGetHcclBuffer(comm, res.right, &res.right_buf,
					     &res.right_size));
	}
	/* The kernel reads its resources from device memory. */
	TRY_ACL(aclrtMemcpy(dctx, sizeof(res), &res, sizeof(res), ACL_MEMCPY_HOST_TO_DEVICE));
	host->res = dctx;
	return HCCL_SUCCESS;
}

/* The operator's cached resources, acquired on first use. */
static HcclResult resources(HcclComm comm, aclrtStream stream, const char *tag,
			    uint32_t rank, const uint32_t *peers, uint32_t npeers,
			    struct example_host_res **out)
{
	struct example_host_res *host;
	uint64_t size = 0;
	void *ctx = NULL;
	HcclResult ret;

	if (HcclEngineCtxGet(comm, tag, COMM_ENGINE_CPU, &ctx, &size) == HCCL_SUCCESS &&
	    size == sizeof(*host)) {
		*out = ctx;
		return HCCL_SUCCESS;
	}
	TRY(HcclEngineCtxCreate(comm, tag, COMM_ENGINE_CPU, sizeof(*host), &ctx));
	host = ctx;
	ret = acquire(comm, stream, tag, rank, peers, npeers, host);
	if (ret != HCCL_SUCCESS) {
		/* Threads and channels go with the communicator. */
		HcclEngineCtxDestroy(comm, tag, COMM_ENGINE_AICPU);
		HcclEngineCtxDestroy(comm, tag, COMM_ENGINE_CPU);
		return ret;
	}
	*out = host;
	return HCCL_SUCCESS;
}

/* Queue the kernel on @stream between the two hand-offs. */
static HcclResult launch(struct kernel *k, const struct example_host_res *host,
			 struct example_param *p, aclrtStream stream)
{
	aclrtLaunchKernelAttr attr;
	aclrtLaunchKernelCfg cfg;
	aclrtParamHandle ph;
	aclrtArgsHandle args;

	TRY(HcommThreadNotifyRecordOnThread(host->host_thread,
					    host->aicpu_thread_on_host, 0));
	TRY_ACL(aclrtKernelArgsInit(k->func, &args));
	TRY_ACL(aclrtKernelArgsAppend(args, p, sizeof(*p), &ph));
	TRY_ACL(aclrtKernelArgsFinalize(args));
	memset(&attr, 0, sizeof(attr));
	attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
	attr.value.timeout = EXAMPLE_TIMEOUT_S;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	TRY_ACL(aclrtLaunchKernelWithConfig(k->func, 1, stream, &cfg, args, NULL));
	TRY(HcommThreadNotifyWaitOnThread(host->host_thread, 0, EXAMPLE_TIMEOUT_S));
	return HCCL_SUCCESS;
}

static HcclResult param_init(struct example_param *p, HcclComm comm, const char *tag,
			     uint32_t op)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->tag, sizeof(p->tag), "%s", tag);
	TRY(HcclGetCommName(comm, p->comm_name));
	TRY(HcclGetRankId(comm, &p->rank));
	TRY(HcclGetRankSize(comm, &p->rank_size));
	p->op = op;
	/* EXAMPLE_EAGER=1: no batch mode in the kernel (hcclt-bench-allgather). */
	p->eager = getenv("EXAMPLE_EAGER") && !strcmp(getenv("EXAMPLE_EAGER"), "1");
	return HCCL_SUCCESS;
}

static HcclResult p2p(void *buf, uint64_t bytes, uint32_t peer, HcclComm comm,
		      aclrtStream stream, uint32_t op)
{
	struct example_host_res *host;
	struct example_param p;
	/* One operator per direction: a rank may send and receive. */
	const char *tag = op == EXAMPLE_OP_SEND ? "example_send" : "example_recv";

	if (!buf || !comm || !stream)
		return HCCL_E_PTR;
	TRY(param_init(&p, comm, tag, op));
	if (peer >= p.rank_size || peer == p.rank || !bytes)
		return HCCL_E_PARA;
	TRY(kernel_get(&p2p_kernel, "example_p2p_kernel.json", "ExampleP2pAicpuKernel"));
	TRY(resources(comm, stream, tag, p.rank, &peer, 1, &host));
	if (op == EXAMPLE_OP_SEND)
		p.input = buf;
	else
		p.output = buf;
	p.bytes = bytes;
	p.res = host->res;
	return launch(&p2p_kernel, host, &p, stream);
}

HcclResult ExampleSend(void *sendBuf, uint64_t bytes, uint32_t destRank,
		       HcclComm comm, aclrtStream stream)
{
	return p2p(sendBuf, bytes, destRank, comm, stream, EXAMPLE_OP_SEND);
}

HcclResult ExampleRecv(void *recvBuf, uint64_t bytes, uint32_t srcRank,
		       HcclComm comm, aclrtStream stream)
{
	return p2p(recvBuf, bytes, srcRank, comm, stream, EXAMPLE_OP_RECV);
}

HcclResult ExampleAllGather(void *sendBuf, void *recvBuf, uint64_t bytes,
			    HcclComm comm, aclrtStream stream)
{
	struct example_host_res *host;
	struct example_param p;
	uint32_t peers[2], npeers;

	if (!sendBuf || !recvBuf || !comm || !stream)
		return HCCL_E_PTR;
	TRY(param_init(&p, comm, "example_allgather", EXAMPLE_OP_ALLGATHER));
	if (!bytes || p.rank_size > EXAMPLE_MAX_RANKS)
		return HCCL_E_PARA;
	p.input = sendBuf;
	p.output = recvBuf;
	p.bytes = bytes;
	TRY(kernel_get(&allgather_kernel, "example_allgather_kernel.json",
		       "ExampleAllGatherAicpuKernel"));
	peers[0] = (p.rank + 1) % p.rank_size;
	peers[1] = (p.rank + p.rank_size - 1) % p.rank_size;
	npeers = p.rank_size == 1 ? 0 : p.rank_size == 2 ? 1 : 2;
	TRY(resources(comm, stream, "example_allgather", p.rank, peers, npeers, &host));
	/* Every rank's slot must fit in the buffer at once. */
	if (bytes > host->buf_size / p.rank_size)
		return HCCL_E_PARA;
	p.res = host->res;
	return launch(&allgather_kernel, host, &p, stream);
}

/*
 * Where this rank is, from the rank graph: its server and place on it,
 * the servers and their (equal) rank counts. The ranks of a server must be
 * numbered together, server by server (CANN's order).
 */
static HcclResult hier_layout(HcclComm comm, uint32_t rank, uint32_t nranks,
			      struct example_hier_res *h)
{
	uint32_t *layers, nl, *sizes, ns, *ranks, nr, i;

	TRY(HcclRankGraphGetLayers(comm, &layers, &nl));
	if (nl == 1) {
		h->servers = 1;
		h->server_size = nranks;
		h->local = rank;
		return HCCL_SUCCESS;
	}
	TRY(HcclRankGraphGetInstSizeListByLayer(comm, 0, &sizes, &ns));
	if (!ns || ns > EXAMPLE_MAX_SERVERS)
		return HCCL_E_NOT_SUPPORT;
	for (i = 1; i < ns; i++)
		if (sizes[i] != sizes[0])
			return HCCL_E_NOT_SUPPORT;
	h->servers = ns;
	h->server_size = sizes[0];
	TRY(HcclRankGraphGetRanksByLayer(comm, 0, &ranks, &nr));
	if (nr != h->server_size || ranks[0] % nr)
		return HCCL_E_NOT_SUPPORT;
	for (i = 0; i < nr; i++)
		if (ranks[i] != ranks[0] + i)
			return HCCL_E_NOT_SUPPORT;
	h->server = ranks[0] / nr;
	h->local = rank - ranks[0];
	TRY(HcclRankGraphGetInstSizeListByLayer(comm, 1, &sizes, &ns));
	if (ns != 1 || sizes[0] != nranks)
		return HCCL_E_NOT_SUPPORT;
	return HCCL_SUCCESS;
}

/* The resources of the hierarchical AllGather, acquired once. */
static HcclResult hier_acquire(HcclComm comm, aclrtStream stream, const char *tag,
			       uint32_t rank, uint32_t nranks, struct example_host_res *host)
{
	HcclChannelDesc desc[2 + EXAMPLE_MAX_SERVERS];
	ChannelHandle ch[2 + EXAMPLE_MAX_SERVERS];
	uint32_t n = 0, nring, k, base, m, peer[2 + EXAMPLE_MAX_SERVERS];
	struct example_hier_res h;
	void *dctx;
	int layer[2 + EXAMPLE_MAX_SERVERS];
	uint32_t i;

	memset(&h, 0, sizeof(h));
	TRY(hier_layout(comm, rank, nranks, &h));
	TRY(HcclEngineCtxCreate(comm, tag, COMM_ENGINE_AICPU, sizeof(h), &dctx));
	TRY(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1,
					&host->host_thread));
	TRY(HcclThreadExportToCommEngine(comm, 1, &host->host_thread,
					 COMM_ENGINE_AICPU_TS, &h.ring.host_thread_on_aicpu));
	TRY(HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, 1, 1, &h.ring.aicpu_thread));
	TRY(HcclThreadExportToCommEngine(comm, 1, &h.ring.aicpu_thread,
					 COMM_ENGINE_CPU_TS, &host->aicpu_thread_on_host));
	TRY(HcclGetHcclBuffer(comm, &h.ring.local_buf, &h.ring.local_size));
	host->buf_size = h.ring.local_size;
	m = h.server_size;
	base = h.server * m;
	/* Right and left neighbours on this server, then the other servers. */
	nring = m == 1 ? 0 : m == 2 ? 1 : 2;
	for (i = 0; i < nring; i++) {
		peer[n] = base + (h.local + (i ? m - 1 : 1)) % m;
		layer[n++] = 0;
	}
	for (k = 0; k < h.servers; k++)
		if (k != h.server) {
			peer[n] = k * m + h.local;
			layer[n++] = 1;
		}
	if (n) {
		TRY(HcclChannelDescInit(desc, n));
		for (i = 0; i < n; i++) {
			desc[i].remoteRank = peer[i];
			desc[i].notifyNum = 2;
			TRY(link_protocol(comm, layer[i], rank, peer[i], &desc[i].channelProtocol));
		}
		/* One call: ranks must not wait for each other in turn. */
		TRY(HcclChannelAcquire(comm, COMM_ENGINE_AICPU, desc, n, ch));
	}
	if (nring) {
		h.ring.right = ch[0];
		h.ring.left = ch[nring - 1];
		TRY(HcclChannelGetHcclBuffer(comm, h.ring.right, &h.ring.right_buf,
					     &h.ring.right_size));
	}
	for (i = nring; i < n; i++) {
		uint64_t size;

		k = peer[i] / m;
		h.cross[k] = ch[i];
		TRY(HcclChannelGetHcclBuffer(comm, ch[i], &h.cross_buf[k], &size));
	}
	/* The kernel reads its resources from device memory. */
	TRY_ACL(aclrtMemcpy(dctx, sizeof(h), &h, sizeof(h), ACL_MEMCPY_HOST_TO_DEVICE));
	host->res = dctx;
	return HCCL_SUCCESS;
}

HcclResult ExampleHierAllGather(void *sendBuf, void *recvBuf, uint64_t bytes,
				HcclComm comm, aclrtStream stream)
{
	static const char tag[] = "example_hier_allgather";
	struct example_host_res *host;
	struct example_param p;
	uint64_t size = 0;
	void *ctx = NULL;
	HcclResult ret;

	if (!sendBuf || !recvBuf || !comm || !stream)
		return HCCL_E_PTR;
	TRY(param_init(&p, comm, tag, EXAMPLE_OP_HIER_ALLGATHER));
	if (!bytes || p.rank_size > EXAMPLE_MAX_RANKS)
		return HCCL_E_PARA;
	p.input = sendBuf;
	p.output = recvBuf;
	p.bytes = bytes;
	TRY(kernel_get(&hier_kernel, "example_hier_kernel.json",
		       "ExampleHierAllGatherAicpuKernel"));
	if (HcclEngineCtxGet(comm, tag, COMM_ENGINE_CPU, &ctx, &size) != HCCL_SUCCESS ||
	    size != sizeof(*host)) {
		TRY(HcclEngineCtxCreate(comm, tag, COMM_ENGINE_CPU, sizeof(*host), &ctx));
		ret = hier_acquire(comm, stream, tag, p.rank, p.rank_size, ctx);
		if (ret != HCCL_SUCCESS) {
			HcclEngineCtxDestroy(comm, tag, COMM_ENGINE_AICPU);
			HcclEngineCtxDestroy(comm, tag, COMM_ENGINE_CPU);
			return ret;
		}
	}
	host = ctx;
	if (bytes > host->buf_size / p.rank_size)
		return HCCL_E_PARA;
	p.res = host->res;
	return launch(&hier_kernel, host, &p, stream);
}
