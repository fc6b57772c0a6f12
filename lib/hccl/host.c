// SPDX-License-Identifier: MIT
/*
 * The collectives' host half: a communicator's resources, acquired on its
 * first operation and kept in two engine contexts tagged COLL_CTX_TAG (so
 * that HcclCommDestroy() frees them), and the launch of one operation.
 *
 * Resources: one AICPU_TS thread that runs every operation of the
 * communicator, the HCCL buffer, and a channel (two notifies) to each
 * peer, with the protocol the rank graph gives for the link. Channels are
 * acquired when an operation first needs them: all peers for a collective,
 * the peer for HcclSend/HcclRecv, the items' peers for HcclBatchSendRecv
 * (both ends of a pair always ask for it in the same operation).
 *
 * A launch wraps the user's stream as a CPU_TS thread exported to
 * AICPU_TS, queues the kernel (libhccl_kernel.so, HcclCollAicpuKernel) on
 * the stream and then a wait on that thread's notify, which the kernel's
 * last task records: the operation is one step of the stream.
 *
 * Locks (coll_lock before a communicator's): coll_lock protects the
 * kernel's handle and the making of a communicator's contexts; struct
 * coll_host's lock its channels while they are acquired. Acquiring
 * channels waits for the peers, which may be threads of this process:
 * it must not hold coll_lock.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_rank_graph.h"
#include "hccl/hccl_res_expt.h"
#include "hccl/hcomm_primitives.h"
#include "internal.h"

/* What the host keeps per communicator (a CPU engine context). */
struct coll_host {
	pthread_mutex_t lock;	/* protects @res.chan, @res.peer_buf* */
	struct coll_res *dres;	/* the AICPU engine context */
	struct coll_res res;	/* its contents */
};

static pthread_mutex_t coll_lock = PTHREAD_MUTEX_INITIALIZER;
static aclrtFuncHandle coll_func;

void coll_debug(const char *fmt, ...)
{
	const char *d = getenv("HCCLT_DEBUG");
	va_list ap;

	if (!d || strcmp(d, "1"))
		return;
	fprintf(stderr, "libhccl: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The kernel's descriptor: $HCCLT_HCCL_KERNEL_DIR, else hccl_aicpu/ beside us. */
static int kernel_json(char *out, size_t len)
{
	const char *dir = getenv("HCCLT_HCCL_KERNEL_DIR");
	char self[PATH_MAX], *slash;
	Dl_info info;

	if (dir)
		return snprintf(out, len, "%s/hccl_kernel.json", dir) >= (int)len ? -1 : 0;
	if (!dladdr((void *)kernel_json, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, self))
		return -1;
	slash = strrchr(self, '/');
	if (!slash)
		return -1;
	*slash = 0;
	return snprintf(out, len, "%s/hccl_aicpu/hccl_kernel.json", self) >= (int)len ? -1 : 0;
}

/* Under coll_lock. */
static HcclResult kernel_load(void)
{
	aclrtBinaryLoadOptions opts;
	aclrtBinaryLoadOption opt;
	aclrtBinHandle bin;
	char path[PATH_MAX];

	if (coll_func)
		return HCCL_SUCCESS;
	if (kernel_json(path, sizeof(path))) {
		coll_debug("cannot name the kernel's descriptor");
		return HCCL_E_NOT_FOUND;
	}
	memset(&opt, 0, sizeof(opt));
	opt.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
	opts.options = &opt;
	opts.numOpt = 1;
	if (aclrtBinaryLoadFromFile(path, &opts, &bin) != ACL_SUCCESS) {
		coll_debug("%s: not loaded (HCCLT_HCCL_KERNEL_DIR names its folder)", path);
		return HCCL_E_NOT_FOUND;
	}
	if (aclrtBinaryGetFunction(bin, "HcclCollAicpuKernel", &coll_func) != ACL_SUCCESS) {
		coll_debug("%s: no HcclCollAicpuKernel", path);
		aclrtBinaryUnLoad(bin);
		return HCCL_E_NOT_FOUND;
	}
	return HCCL_SUCCESS;
}

/*
 * The protocol of the link from @rank to @peer, from the rank graph: the
 * lowest layer that links them (the server's; else, a peer on another
 * server, the superpod's or the cluster's).
 */
static HcclResult link_protocol(HcclComm comm, uint32_t rank, uint32_t peer,
				CommProtocol *proto)
{
	uint32_t *layers = NULL, nlayers = 0, i, n = 0;
	CommLink *links = NULL;
	HcclResult ret;

	ret = HcclRankGraphGetLayers(comm, &layers, &nlayers);
	for (i = 0; ret == HCCL_SUCCESS && i < nlayers && !n; i++)
		ret = HcclRankGraphGetLinks(comm, layers[i], rank, peer, &links, &n);
	if (ret != HCCL_SUCCESS)
		return ret;
	if (!n)
		return HCCL_E_NOT_FOUND;
	*proto = links[0].linkAttr.linkProtocol;
	return HCCL_SUCCESS;
}

/* Channels to the peers in @want that have none yet. Under @h->lock. */
static HcclResult channels(HcclComm comm, struct coll_host *h, const uint8_t *want)
{
	struct coll_res *r = &h->res;
	HcclChannelDesc *desc;
	ChannelHandle ch[COLL_MAX_RANKS];
	uint32_t peer[COLL_MAX_RANKS], n = 0, q, i;
	HcclResult ret;

	for (q = 0; q < r->nranks; q++)
		if (want[q] && q != r->rank && !r->chan[q])
			peer[n++] = q;
	if (!n)
		return HCCL_SUCCESS;
	desc = calloc(n, sizeof(*desc));
	if (!desc)
		return HCCL_E_MEMORY;
	ret = HcclChannelDescInit(desc, n);
	for (i = 0; i < n && ret == HCCL_SUCCESS; i++) {
		desc[i].remoteRank = peer[i];
		desc[i].notifyNum = COLL_CHANNEL_NOTIFIES;
		ret = link_protocol(comm, r->rank, peer[i], &desc[i].channelProtocol);
	}
	/* All in one call: the ranks must not wait for each other in turn. */
	if (ret == HCCL_SUCCESS)
		ret = HcclChannelAcquire(comm, COMM_ENGINE_AICPU, desc, n, ch);
	free(desc);
	for (i = 0; i < n && ret == HCCL_SUCCESS; i++) {
		r->chan[peer[i]] = ch[i];
		ret = HcclChannelGetHcclBuffer(comm, ch[i], &r->peer_buf[peer[i]],
					       &r->peer_buf_size[peer[i]]);
		/*
		 * Every rank cuts its buffer into regions of the same size:
		 * buffers of different sizes (HCCL_BUFFSIZE, hcclBufferSize
		 * set differently per rank) cannot work together.
		 */
		if (ret == HCCL_SUCCESS && r->peer_buf_size[peer[i]] != r->buf_size) {
			coll_debug("rank %u's HCCL buffer is %llu bytes, ours %llu: they must match",
				   peer[i], (unsigned long long)r->peer_buf_size[peer[i]],
				   (unsigned long long)r->buf_size);
			ret = HCCL_E_PARA;
		}
	}
	if (ret != HCCL_SUCCESS) {
		/* The channels stay with the communicator; forget them here. */
		for (i = 0; i < n; i++) {
			r->chan[peer[i]] = 0;
			r->peer_buf[peer[i]] = NULL;
		}
		return ret;
	}
	if (aclrtMemcpy(h->dres, sizeof(*r), r, sizeof(*r), ACL_MEMCPY_HOST_TO_DEVICE)) {
		/* The kernel does not see them: ask again next time. */
		for (i = 0; i < n; i++) {
			r->chan[peer[i]] = 0;
			r->peer_buf[peer[i]] = NULL;
		}
		return HCCL_E_RUNTIME;
	}
	return HCCL_SUCCESS;
}

static HcclResult create(HcclComm comm, struct coll_host *h)
{
	struct coll_res *r = &h->res;
	void *dctx;
	HcclResult ret;

	ret = HcclEngineCtxCreate(comm, COLL_CTX_TAG, COMM_ENGINE_AICPU, sizeof(*r), &dctx);
	if (ret != HCCL_SUCCESS)
		return ret;
	h->dres = dctx;
	memset(r, 0, sizeof(*r));
	pthread_mutex_init(&h->lock, NULL);
	ret = HcclGetRankId(comm, &r->rank);
	if (ret == HCCL_SUCCESS)
		ret = HcclGetRankSize(comm, &r->nranks);
	if (ret == HCCL_SUCCESS && r->nranks > COLL_MAX_RANKS)
		ret = HCCL_E_NOT_SUPPORT;
	if (ret == HCCL_SUCCESS)
		ret = HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, 1, 1, &r->thread);
	if (ret == HCCL_SUCCESS)
		ret = HcclGetHcclBuffer(comm, &r->buf, &r->buf_size);
	if (ret == HCCL_SUCCESS && r->buf_size / r->nranks < 64)
		ret = HCCL_E_MEMORY;
	if (ret == HCCL_SUCCESS &&
	    aclrtMemcpy(dctx, sizeof(*r), r, sizeof(*r), ACL_MEMCPY_HOST_TO_DEVICE))
		ret = HCCL_E_RUNTIME;
	return ret;
}

/* @comm's resources, made on first use, with channels to the peers in @want. */
static HcclResult resources(HcclComm comm, const uint8_t *want, struct coll_host **out)
{
	struct coll_host *h;
	uint64_t size = 0;
	void *ctx = NULL;
	HcclResult ret;

	pthread_mutex_lock(&coll_lock);
	ret = kernel_load();
	if (ret != HCCL_SUCCESS)
		goto out;
	if (HcclEngineCtxGet(comm, COLL_CTX_TAG, COMM_ENGINE_CPU, &ctx, &size) == HCCL_SUCCESS &&
	    size == sizeof(*h)) {
		h = ctx;
	} else {
		ret = HcclEngineCtxCreate(comm, COLL_CTX_TAG, COMM_ENGINE_CPU, sizeof(*h), &ctx);
		if (ret != HCCL_SUCCESS)
			goto out;
		h = ctx;
		ret = create(comm, h);
		if (ret != HCCL_SUCCESS) {
			/* The thread, if any, goes with the communicator. */
			HcclEngineCtxDestroy(comm, COLL_CTX_TAG, COMM_ENGINE_AICPU);
			HcclEngineCtxDestroy(comm, COLL_CTX_TAG, COMM_ENGINE_CPU);
			goto out;
		}
	}
	pthread_mutex_unlock(&coll_lock);
	pthread_mutex_lock(&h->lock);
	ret = channels(comm, h, want);
	pthread_mutex_unlock(&h->lock);
	if (ret == HCCL_SUCCESS)
		*out = h;
	return ret;
out:
	pthread_mutex_unlock(&coll_lock);
	return ret;
}

/* Seconds of a notify wait: HCCL_EXEC_TIMEOUT as CANN reads it, else 1836. */
static uint32_t exec_timeout(void)
{
	const char *s = getenv("HCCL_EXEC_TIMEOUT");
	char *end;
	unsigned long v;

	if (!s || !*s)
		return 1836;
	v = strtoul(s, &end, 10);
	if (*end || v > INT32_MAX)
		return 1836;
	return (uint32_t)v;
}

static uint32_t algo(void)
{
	const char *s = getenv("HCCLT_COLL_ALGO");

	if (s && !strcmp(s, "ring"))
		return COLL_ALGO_RING;
	if (s && !strcmp(s, "mesh"))
		return COLL_ALGO_MESH;
	return COLL_ALGO_AUTO;
}

static uint64_t ring_min(void)
{
	const char *s = getenv("HCCLT_COLL_RING_MIN");
	char *end;
	unsigned long long v;

	if (s && *s) {
		v = strtoull(s, &end, 0);
		if (!*end)
			return v;
	}
	return COLL_RING_MIN_DEFAULT;
}

HcclResult coll_launch(HcclComm comm, aclrtStream stream, struct coll_param *p,
		       const void *extra, size_t extra_len, const uint8_t *want)
{
	aclrtLaunchKernelAttr attr;
	aclrtLaunchKernelCfg cfg;
	aclrtParamHandle ph;
	aclrtArgsHandle args;
	ThreadHandle host;
	struct coll_host *h;
	unsigned char *blk;
	HcclResult ret;
	size_t len = sizeof(*p) + extra_len;

	ret = resources(comm, want, &h);
	if (ret != HCCL_SUCCESS)
		return ret;
	ret = HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1, &host);
	if (ret != HCCL_SUCCESS)
		return ret;
	ret = HcclThreadExportToCommEngine(comm, 1, &host, COMM_ENGINE_AICPU_TS, &p->done);
	if (ret != HCCL_SUCCESS)
		return ret;
	snprintf(p->tag, sizeof(p->tag), "%s", COLL_CTX_TAG);
	ret = HcclGetCommName(comm, p->comm_name);
	if (ret != HCCL_SUCCESS)
		return ret;
	p->res = h->dres;
	p->timeout = exec_timeout();
	p->algo = algo();
	p->ring_min = ring_min();
	blk = malloc(len);
	if (!blk)
		return HCCL_E_MEMORY;
	memcpy(blk, p, sizeof(*p));
	if (extra_len)
		memcpy(blk + sizeof(*p), extra, extra_len);
	if (aclrtKernelArgsInit(coll_func, &args) != ACL_SUCCESS ||
	    aclrtKernelArgsAppend(args, blk, len, &ph) != ACL_SUCCESS ||
	    aclrtKernelArgsFinalize(args) != ACL_SUCCESS) {
		free(blk);
		return HCCL_E_RUNTIME;
	}
	free(blk);
	memset(&attr, 0, sizeof(attr));
	attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
	attr.value.timeout = 120;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	if (aclrtLaunchKernelWithConfig(coll_func, 1, stream, &cfg, args, NULL) != ACL_SUCCESS)
		return HCCL_E_RUNTIME;
	return (HcclResult)HcommThreadNotifyWaitOnThread(host, 0, p->timeout);
}
