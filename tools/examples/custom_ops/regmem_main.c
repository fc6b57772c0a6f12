// SPDX-License-Identifier: MIT
/*
 * hcclt-example-regmem-ops: the registered-memory operators of
 * regmem_ops.h (host half here, kernels in regmem_kernel.c) on N ranks,
 * as threads or processes, every output byte checked; and, with
 * --op neg, the refusals around registered memory on two ranks.
 *
 *   hcclt-example-regmem-ops [--threads|--processes]
 *       [--op zcag|pingpong|scatter|neg|all] [--ranks N] [--bytes B]
 *       [--rounds R] [--iters I]
 *       [--root-info FILE [--first-rank F] [--local-ranks L] [--first-device D]]
 *
 * Defaults: threads, all, every card (at most 32), 256 KiB per rank, 2
 * rounds, 16 ping-pong iterations. The rank count is a parameter: the
 * operators take any; the ping-pong pairs ranks 2k and 2k+1. With
 * --root-info, this process runs ranks F .. F + L - 1 of the N, the
 * others run elsewhere: other processes or hosts (../example_launch.h);
 * --op neg (two ranks of its own) is then left out.
 * Exit status 0 when every check passed.
 *
 * The host half of each operator, on its first call on a communicator:
 * engine contexts tagged with its name (CPU for itself, AICPU for the
 * kernel), the user's stream as a CPU_TS thread and one AICPU_TS thread
 * (each exported to the other engine), the output buffer registered with
 * HcclCommMemReg under the operator's tag, channels to its peers (the
 * rank graph's protocol, 2 notifies), and each peer's registered output,
 * from HcclChannelGetRemoteMems (polled until the peer has registered:
 * ranks register independently), copied into the AICPU context. An
 * operator's output buffer is the one of its first call (a third-party
 * operator would re-register; these tests reuse theirs).
 */
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
#include "hccl/hccl_rank_graph.h"
#include "regmem_ops.h"
#include "../example_launch.h"

#define TRY(call)							\
	do {								\
		int32_t ret_ = (int32_t)(call);				\
		if (ret_ != 0) {					\
			fprintf(stderr, "%s:%d: %s: %d\n", __FILE__,	\
				__LINE__, #call, (int)ret_);		\
			return ret_;					\
		}							\
	} while (0)

/* ---- the host half ---- */

struct rm_host {
	ThreadHandle host_thread;	/* the user's stream, CPU_TS */
	ThreadHandle aicpu_on_host;	/* res->thread, as CPU_TS */
	struct rm_res *res;		/* the AICPU engine context */
	void *reg_addr;
	HcclMemHandle reg;
};

struct kernel {
	aclrtBinHandle bin;
	aclrtFuncHandle func[4];	/* by enum rm_op */
};

static _Thread_local struct kernel kern;
static const char *const kernel_names[] = {
	[RM_OP_ZC_ALLGATHER] = "RegmemZcAllGatherKernel",
	[RM_OP_PINGPONG] = "RegmemPingPongKernel",
	[RM_OP_SCATTER] = "RegmemScatterKernel",
};

static int32_t kernel_get(uint32_t op, aclrtFuncHandle *f)
{
	const char *dir = getenv("EXAMPLE_KERNEL_DIR");
	char exe[PATH_MAX], path[PATH_MAX + 64], *slash;
	ssize_t n;

	if (!kern.bin) {
		if (dir) {
			snprintf(path, sizeof(path), "%s/example_regmem_kernel.json", dir);
		} else {
			n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
			if (n <= 0)
				return HCCL_E_PARA;
			exe[n] = 0;
			slash = strrchr(exe, '/');
			if (slash)
				*slash = 0;
			snprintf(path, sizeof(path), "%s/aicpu/example_regmem_kernel.json", exe);
		}
		TRY(aclrtBinaryLoadFromFile(path, NULL, &kern.bin));
	}
	if (!kern.func[op])
		TRY(aclrtBinaryGetFunction(kern.bin, kernel_names[op], &kern.func[op]));
	*f = kern.func[op];
	return 0;
}

static int32_t link_protocol(HcclComm comm, uint32_t rank, uint32_t peer, CommProtocol *proto)
{
	CommLink *links = NULL;
	uint32_t n = 0;

	/* This server's layer, else the one across servers (or hosts). */
	TRY(HcclRankGraphGetLinks(comm, 0, rank, peer, &links, &n));
	if (!n)
		TRY(HcclRankGraphGetLinks(comm, 1, rank, peer, &links, &n));
	if (!n)
		return HCCL_E_NOT_FOUND;
	*proto = links[0].linkAttr.linkProtocol;
	return 0;
}

/* The peer's range registered under @tag on @ch, waiting for it to appear. */
static int32_t peer_range(HcclComm comm, ChannelHandle ch, const char *tag, void **addr,
			  uint64_t *size)
{
	struct timespec ts = { 0, 1000000 };
	CommMem *mems;
	char **tags;
	uint32_t n, i, tries;

	for (tries = 0; tries < 60000; tries++) {
		TRY(HcclChannelGetRemoteMems(comm, ch, &n, &mems, &tags));
		for (i = 0; i < n; i++) {
			if (!strcmp(tags[i], tag) && mems[i].type == COMM_MEM_TYPE_DEVICE) {
				*addr = mems[i].addr;
				*size = mems[i].size;
				return 0;
			}
		}
		nanosleep(&ts, NULL);
	}
	return HCCL_E_TIMEOUT;
}

static int32_t acquire(HcclComm comm, aclrtStream stream, const char *tag, uint32_t rank,
		       const uint32_t *peers, uint32_t npeers, void *out, uint64_t out_size,
		       struct rm_host *h)
{
	HcclChannelDesc desc[RM_MAX_RANKS];
	ChannelHandle ch[RM_MAX_RANKS];
	struct rm_res res;
	CommMem m;
	void *dctx;
	uint32_t i;

	memset(&res, 0, sizeof(res));
	TRY(HcclEngineCtxCreate(comm, tag, COMM_ENGINE_AICPU, sizeof(res), &dctx));
	TRY(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, stream, 1, &h->host_thread));
	TRY(HcclThreadExportToCommEngine(comm, 1, &h->host_thread, COMM_ENGINE_AICPU_TS,
					 &res.host_on_aicpu));
	TRY(HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, 1, 1, &res.thread));
	TRY(HcclThreadExportToCommEngine(comm, 1, &res.thread, COMM_ENGINE_CPU_TS,
					 &h->aicpu_on_host));
	m.type = COMM_MEM_TYPE_DEVICE;
	m.addr = out;
	m.size = out_size;
	TRY(HcclCommMemReg(comm, tag, &m, &h->reg));
	h->reg_addr = out;
	if (npeers) {
		TRY(HcclChannelDescInit(desc, npeers));
		for (i = 0; i < npeers; i++) {
			desc[i].remoteRank = peers[i];
			desc[i].notifyNum = 2;
			TRY(link_protocol(comm, rank, peers[i], &desc[i].channelProtocol));
		}
		TRY(HcclChannelAcquire(comm, COMM_ENGINE_AICPU, desc, npeers, ch));
		for (i = 0; i < npeers; i++) {
			res.ch[peers[i]] = ch[i];
			TRY(peer_range(comm, ch[i], tag, &res.peer_mem[peers[i]],
				       &res.peer_size[peers[i]]));
		}
	}
	TRY(aclrtMemcpy(dctx, sizeof(res), &res, sizeof(res), ACL_MEMCPY_HOST_TO_DEVICE));
	h->res = dctx;
	return 0;
}

/* Run operator @op on @stream: the resources on first use, then a launch. */
static int32_t rm_call(uint32_t op, const char *tag, struct rm_param *p, const uint32_t *peers,
		       uint32_t npeers, uint64_t out_size, HcclComm comm, aclrtStream stream)
{
	aclrtLaunchKernelAttr attr;
	aclrtLaunchKernelCfg cfg;
	aclrtParamHandle ph;
	aclrtArgsHandle args;
	aclrtFuncHandle f;
	struct rm_host *h;
	uint64_t size = 0;
	void *ctx = NULL;

	snprintf(p->tag, sizeof(p->tag), "%s", tag);
	TRY(HcclGetCommName(comm, p->comm_name));
	p->op = op;
	TRY(kernel_get(op, &f));
	if (HcclEngineCtxGet(comm, tag, COMM_ENGINE_CPU, &ctx, &size) != HCCL_SUCCESS) {
		TRY(HcclEngineCtxCreate(comm, tag, COMM_ENGINE_CPU, sizeof(*h), &ctx));
		TRY(acquire(comm, stream, tag, p->rank, peers, npeers, p->output, out_size, ctx));
	}
	h = ctx;
	if (h->reg_addr != p->output)
		return HCCL_E_PARA;	/* see the top of the file */
	p->res = h->res;
	TRY(HcommThreadNotifyRecordOnThread(h->host_thread, h->aicpu_on_host, 0));
	TRY(aclrtKernelArgsInit(f, &args));
	TRY(aclrtKernelArgsAppend(args, p, sizeof(*p), &ph));
	TRY(aclrtKernelArgsFinalize(args));
	memset(&attr, 0, sizeof(attr));
	attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
	attr.value.timeout = RM_TIMEOUT_S;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	TRY(aclrtLaunchKernelWithConfig(f, 1, stream, &cfg, args, NULL));
	TRY(HcommThreadNotifyWaitOnThread(h->host_thread, 0, RM_TIMEOUT_S));
	return 0;
}

/* ---- the test ---- */

struct opts {
	struct launch l;
	int zcag, pingpong, scatter, neg, rounds;
	uint32_t nranks, iters;
	uint64_t bytes;
};

struct rank_ctx {
	const struct opts *o;
	uint32_t rank;
	HcclComm comm;
	aclrtStream stream;
	void *in, *out, *ones, *pp, *sc;	/* device memory */
	uint8_t *host;
};

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static uint8_t pattern(uint32_t rank, uint64_t i, int round)
{
	return (uint8_t)(rank * 151u + i * 13u + (uint64_t)round * 31u + (i >> 10));
}

static int fail_at(const struct rank_ctx *c, const char *what, uint64_t i, long long got,
		   long long want)
{
	pthread_mutex_lock(&out_lock);
	printf("  rank %u: %s: byte %llu is %lld, not %lld\n", c->rank, what,
	       (unsigned long long)i, got, want);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
	return 1;
}

static void say(const struct rank_ctx *c, const char *what)
{
	pthread_mutex_lock(&out_lock);
	printf("  rank %u: %s: %u ranks x %llu bytes, every byte correct\n", c->rank, what,
	       c->o->nranks, (unsigned long long)c->o->bytes);
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

static int put_input(struct rank_ctx *c, uint64_t n, int round)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		c->host[i] = pattern(c->rank, i, round);
	return aclrtMemcpy(c->in, n, c->host, n, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS;
}

static int get(struct rank_ctx *c, void *dev, uint64_t n)
{
	return aclrtMemcpy(c->host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS;
}

static int sync_stream(struct rank_ctx *c, const char *what, int32_t ret)
{
	if (ret == 0)
		ret = aclrtSynchronizeStream(c->stream);
	if (ret != 0) {
		pthread_mutex_lock(&out_lock);
		printf("  rank %u: %s failed: %d\n", c->rank, what, (int)ret);
		pthread_mutex_unlock(&out_lock);
		return 1;
	}
	return 0;
}

static int run_zcag(struct rank_ctx *c, int round)
{
	uint32_t n = c->o->nranks, peers[RM_MAX_RANKS], np = 0, i;
	uint64_t b = c->o->bytes, j;
	struct rm_param p;

	for (i = 0; i < n; i++)
		if (i != c->rank)
			peers[np++] = i;
	if (put_input(c, b, round))
		return 1;
	memset(&p, 0, sizeof(p));
	p.rank = c->rank;
	p.rank_size = n;
	p.input = c->in;
	p.output = c->out;
	p.bytes = b;
	if (sync_stream(c, "zero-copy allgather",
			rm_call(RM_OP_ZC_ALLGATHER, "rm_zc_allgather", &p, peers, np, n * b,
				c->comm, c->stream)) ||
	    get(c, c->out, n * b))
		return 1;
	for (i = 0; i < n; i++)
		for (j = 0; j < b; j++)
			if (c->host[i * b + j] != pattern(i, j, round))
				return fail_at(c, "zero-copy allgather", i * b + j,
					       c->host[i * b + j], pattern(i, j, round));
	if (round == c->o->rounds - 1)
		say(c, "zero-copy allgather");
	return 0;
}

static int run_pingpong(struct rank_ctx *c, int round)
{
	uint32_t peer = c->rank ^ 1u, pinger = c->rank & ~1u;
	uint64_t b = c->o->bytes & ~3ULL, j;
	struct rm_param p;
	int32_t want, got;

	if (put_input(c, b, round))
		return 1;
	memset(&p, 0, sizeof(p));
	p.rank = c->rank;
	p.rank_size = c->o->nranks;
	p.iters = c->o->iters;
	p.input = c->in;
	p.output = c->pp;
	p.ones = c->ones;
	p.bytes = b;
	if (sync_stream(c, "withnotify ping-pong",
			rm_call(RM_OP_PINGPONG, "rm_pingpong", &p, &peer,
				peer < c->o->nranks, b, c->comm, c->stream)))
		return 1;
	if (peer >= c->o->nranks)
		return 0;
	if (get(c, c->pp, b))
		return 1;
	/* The pinger's input, plus one per pong it got (the ponger: one less). */
	for (j = 0; j < b; j += 4) {
		uint8_t w[4];

		w[0] = pattern(pinger, j, round);
		w[1] = pattern(pinger, j + 1, round);
		w[2] = pattern(pinger, j + 2, round);
		w[3] = pattern(pinger, j + 3, round);
		memcpy(&want, w, 4);
		want = (int32_t)((uint32_t)want + c->o->iters - (c->rank & 1u));
		memcpy(&got, c->host + j, 4);
		if (got != want)
			return fail_at(c, "withnotify ping-pong", j, got, want);
	}
	if (round == c->o->rounds - 1)
		say(c, "withnotify ping-pong");
	return 0;
}

static int run_scatter(struct rank_ctx *c, int round)
{
	uint32_t n = c->o->nranks, peers[RM_MAX_RANKS], np = 0, i;
	uint64_t b = c->o->bytes, j;
	struct rm_param p;

	if (!c->rank)
		for (i = 1; i < n; i++)
			peers[np++] = i;
	else
		peers[np++] = 0;
	if (put_input(c, n * b, round))
		return 1;
	memset(&p, 0, sizeof(p));
	p.rank = c->rank;
	p.rank_size = n;
	p.input = c->in;
	p.output = c->sc;
	p.bytes = b;
	if (sync_stream(c, "batchtransfer scatter",
			rm_call(RM_OP_SCATTER, "rm_scatter", &p, peers, np, b, c->comm,
				c->stream)) ||
	    get(c, c->sc, b))
		return 1;
	for (j = 0; j < b; j++)
		if (c->host[j] != pattern(0, c->rank * b + j, round))
			return fail_at(c, "batchtransfer scatter", j, c->host[j],
				       pattern(0, c->rank * b + j, round));
	if (round == c->o->rounds - 1)
		say(c, "batchtransfer scatter");
	return 0;
}

static int run_rank(const void *arg, const HcclRootInfo *root, uint32_t rank)
{
	const struct opts *o = arg;
	struct rank_ctx c = { .o = o, .rank = rank };
	int32_t dev = launch_device(&o->l, rank);
	uint64_t total = o->bytes * o->nranks, j;
	int32_t *ones;
	int fail = 0, round;

	if (aclrtSetDevice(dev) != ACL_SUCCESS ||
	    HcclCommInitRootInfo(o->nranks, root, rank, &c.comm) != HCCL_SUCCESS) {
		fprintf(stderr, "rank %u: cannot join\n", rank);
		return 1;
	}
	c.host = malloc(total);
	ones = malloc(o->bytes);
	if (!c.host || !ones || aclrtCreateStream(&c.stream) != ACL_SUCCESS ||
	    aclrtMalloc(&c.in, total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&c.out, total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&c.pp, o->bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&c.sc, o->bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&c.ones, o->bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		fprintf(stderr, "rank %u: cannot allocate\n", rank);
		fail = 1;
	}
	for (j = 0; !fail && j < o->bytes / 4; j++)
		ones[j] = 1;
	if (!fail && aclrtMemcpy(c.ones, o->bytes, ones, o->bytes,
				 ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
		fail = 1;
	for (round = 0; !fail && round < o->rounds; round++) {
		if (o->zcag)
			fail |= run_zcag(&c, round);
		if (o->pingpong && !fail)
			fail |= run_pingpong(&c, round);
		if (o->scatter && !fail)
			fail |= run_scatter(&c, round);
	}
	free(ones);
	free(c.host);
	/* The registrations go with the communicator. */
	fail |= HcclCommDestroy(c.comm) != HCCL_SUCCESS;
	aclrtFree(c.in);
	aclrtFree(c.out);
	aclrtFree(c.pp);
	aclrtFree(c.sc);
	aclrtFree(c.ones);
	if (c.stream)
		aclrtDestroyStream(c.stream);
	aclrtResetDevice(dev);
	return fail;
}

/* ---- --op neg: the refusals, on two ranks (threads) ---- */

static pthread_barrier_t neg_bar;
static int neg_fail;
static void *neg_addr;

#define NEG_EXPECT(rank, call, want)						\
	do {									\
		int32_t got_ = (int32_t)(call);					\
		if (got_ != (int32_t)(want)) {					\
			printf("  rank %u: %s: %d, not %d (%s)\n", rank, #call,	\
			       (int)got_, (int)(want), #want);			\
			__atomic_store_n(&neg_fail, 1, __ATOMIC_RELAXED);	\
		}								\
	} while (0)

struct neg_arg {
	const HcclRootInfo *root;
	uint32_t rank;
};

static void *neg_rank(void *arg)
{
	const struct neg_arg *a = arg;
	char longtag[300];
	uint32_t r = a->rank, n;
	HcclChannelDesc d;
	ChannelHandle ch = 0;
	ThreadHandle t = 0;
	HcclMemHandle h = NULL, h2 = NULL;
	aclrtStream s = NULL;
	HcclComm comm = NULL;
	CommMem m, *mems;
	char **tags;
	void *buf = NULL, *hostbuf = malloc(4096);
	uint8_t v[16];

	if (aclrtSetDevice((int32_t)r) != ACL_SUCCESS ||
	    HcclCommInitRootInfo(2, a->root, r, &comm) != HCCL_SUCCESS ||
	    aclrtCreateStream(&s) != ACL_SUCCESS ||
	    aclrtMalloc(&buf, 65536, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, s, 1, &t) != HCCL_SUCCESS) {
		printf("  rank %u: setup failed\n", r);
		neg_fail = 1;
		return NULL;
	}
	HcclChannelDescInit(&d, 1);
	d.remoteRank = r ^ 1u;
	d.notifyNum = 1;
	link_protocol(comm, r, r ^ 1u, &d.channelProtocol);
	NEG_EXPECT(r, HcclChannelAcquire(comm, COMM_ENGINE_CPU_TS, &d, 1, &ch), HCCL_SUCCESS);
	m.type = COMM_MEM_TYPE_DEVICE;
	m.addr = (char *)buf + 4096;
	m.size = 8192;
	if (r == 1) {
		/* hcomm's checks and order, then ours. */
		memset(longtag, 'x', sizeof(longtag));
		longtag[256] = 0;
		NEG_EXPECT(r, HcclCommMemReg(NULL, "t", &m, &h), HCCL_E_PTR);
		NEG_EXPECT(r, HcclCommMemReg(comm, NULL, &m, &h), HCCL_E_PTR);
		NEG_EXPECT(r, HcclCommMemReg(comm, "", &m, &h), HCCL_E_PARA);
		NEG_EXPECT(r, HcclCommMemReg(comm, longtag, &m, &h), HCCL_E_PARA);
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", NULL, &h), HCCL_E_PTR);
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", &m, NULL), HCCL_E_PTR);
		m.type = (CommMemType)7;
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", &m, &h), HCCL_E_PARA);
		m.type = COMM_MEM_TYPE_HOST;
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", &m, &h), HCCL_E_NOT_SUPPORT);
		m.type = COMM_MEM_TYPE_DEVICE;
		m.addr = NULL;
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", &m, &h), HCCL_E_PTR);
		m.addr = hostbuf;
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", &m, &h), HCCL_E_PARA);
		m.addr = (char *)buf + 65536 - 4096;
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", &m, &h), HCCL_E_PARA);	/* past its end */
		m.addr = (char *)buf + 4096;
		m.size = 0;
		NEG_EXPECT(r, HcclCommMemReg(comm, "t", &m, &h), HCCL_E_PARA);
		m.size = 8192;
		longtag[255] = 0;
		NEG_EXPECT(r, HcclCommMemReg(comm, longtag, &m, &h2), HCCL_SUCCESS);
		NEG_EXPECT(r, HcclCommMemReg(comm, longtag, &m, &h), HCCL_E_PARA);	/* the tag twice */
		NEG_EXPECT(r, HcclCommDeregMem(comm, longtag, h2), HCCL_SUCCESS);
		NEG_EXPECT(r, HcclCommDeregMem(comm, NULL, h2), HCCL_E_PARA);
		NEG_EXPECT(r, HcclCommDeregMem(NULL, "neg", h2), HCCL_E_PTR);
		NEG_EXPECT(r, HcclCommMemReg(comm, "neg", &m, &h), HCCL_SUCCESS);
		aclrtMemset(buf, 65536, 0x11, 65536);
	}
	pthread_barrier_wait(&neg_bar);
	if (r == 0) {
		NEG_EXPECT(r, HcclChannelGetRemoteMems(comm, ch, &n, NULL, &tags), HCCL_E_PTR);
		NEG_EXPECT(r, HcclChannelGetRemoteMems(comm, ch + 1, &n, &mems, &tags),
			   HCCL_E_PARA);
		NEG_EXPECT(r, HcclChannelGetRemoteMems(comm, ch, &n, &mems, &tags), HCCL_SUCCESS);
		if (n != 1 || mems[0].size != 8192 || strcmp(tags[0], "neg")) {
			printf("  rank 0: GetRemoteMems: %u ranges\n", n);
			neg_fail = 1;
			n = 0;
		}
		neg_addr = n ? mems[0].addr : NULL;
		aclrtMemset(buf, 65536, 0x22, 65536);
		if (neg_addr) {
			/* Inside: fine; one byte past either end: refused. */
			NEG_EXPECT(r, HcommWriteOnThread(t, ch, neg_addr, buf, 8192), HCCL_SUCCESS);
			NEG_EXPECT(r, HcommWriteOnThread(t, ch, (char *)neg_addr + 1, buf, 8192),
				   HCCL_E_PARA);
			NEG_EXPECT(r, HcommWriteOnThread(t, ch, (char *)neg_addr - 1, buf, 2),
				   HCCL_E_PARA);
			NEG_EXPECT(r, HcommReadOnThread(t, ch, buf, (char *)neg_addr + 8191, 2),
				   HCCL_E_PARA);
			/* Not memory of this process: no aclrtMemcpy into it. */
			NEG_EXPECT(r, aclrtMemcpy(neg_addr, 16, v, 16, ACL_MEMCPY_HOST_TO_DEVICE),
				   ACL_ERROR_INVALID_PARAM);
			NEG_EXPECT(r, HcommChannelFenceOnThread(t, ch), HCCL_SUCCESS);
			NEG_EXPECT(r, HcommChannelFenceOnThread(t, 0), HCCL_E_PTR);
			NEG_EXPECT(r, HcommWriteWithNotifyOnThread(t, ch, neg_addr, buf, 16, 64),
				   HCCL_E_INTERNAL);
			NEG_EXPECT(r, HcommBatchTransferOnThread(t, ch, NULL, 1), HCCL_E_PTR);
			NEG_EXPECT(r, HcommBatchTransferOnThread(t, ch, (HcommBatchTransferDesc *)buf,
								 0), HCCL_E_PARA);
			NEG_EXPECT(r, aclrtSynchronizeStream(s), ACL_SUCCESS);
		}
	}
	pthread_barrier_wait(&neg_bar);
	if (r == 1) {
		/* Rank 0's bytes in the range, and nothing outside it. */
		NEG_EXPECT(r, aclrtMemcpy(v, 16, (char *)buf + 4095, 16,
					  ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
		if (v[0] != 0x11 || v[1] != 0x22 || v[15] != 0x22) {
			printf("  rank 1: the write landed wrong: %#x %#x\n", v[0], v[1]);
			neg_fail = 1;
		}
		NEG_EXPECT(r, aclrtMemcpy(v, 16, (char *)buf + 4096 + 8192 - 8, 16,
					  ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
		if (v[7] != 0x22 || v[8] != 0x11) {
			printf("  rank 1: the write's end is wrong\n");
			neg_fail = 1;
		}
		NEG_EXPECT(r, HcclCommDeregMem(comm, "neg", h), HCCL_SUCCESS);
		NEG_EXPECT(r, HcclCommDeregMem(comm, "neg", h), HCCL_SUCCESS);	/* not bound */
	}
	pthread_barrier_wait(&neg_bar);
	if (r == 0 && neg_addr) {
		/* Unregistered: the write fails as to a gone peer. */
		NEG_EXPECT(r, HcommWriteOnThread(t, ch, neg_addr, buf, 16), HCCL_E_REMOTE);
		NEG_EXPECT(r, HcclChannelGetRemoteMems(comm, ch, &n, &mems, &tags), HCCL_SUCCESS);
		NEG_EXPECT(r, n, 0);
	}
	pthread_barrier_wait(&neg_bar);
	if (r == 1) {
		NEG_EXPECT(r, HcclCommMemReg(comm, "neg2", &m, &h), HCCL_SUCCESS);
		NEG_EXPECT(r, HcclCommDestroy(comm), HCCL_SUCCESS);	/* as its death */
		comm = NULL;
	}
	pthread_barrier_wait(&neg_bar);
	if (r == 0 && neg_addr) {
		NEG_EXPECT(r, HcommWriteOnThread(t, ch, neg_addr, buf, 16), HCCL_E_REMOTE);
		NEG_EXPECT(r, HcclChannelGetRemoteMems(comm, ch, &n, &mems, &tags), HCCL_E_REMOTE);
	}
	if (comm)
		HcclCommDestroy(comm);
	aclrtFree(buf);
	aclrtDestroyStream(s);
	aclrtResetDevice((int32_t)r);
	free(hostbuf);
	return NULL;
}

static int run_neg(const HcclRootInfo *root)
{
	struct neg_arg a[2] = { { root, 0 }, { root, 1 } };
	pthread_t t[2];
	int i;

	pthread_barrier_init(&neg_bar, NULL, 2);
	for (i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, neg_rank, &a[i]);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&neg_bar);
	printf("  refusals: %s\n", neg_fail ? "FAILED" : "every one as documented");
	return neg_fail;
}

static int usage(void)
{
	fprintf(stderr, "usage: hcclt-example-regmem-ops [--op zcag|pingpong|scatter|neg|all] "
		"[--bytes B] [--rounds R] [--iters I]\n    " LAUNCH_USAGE "\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct opts o = { .zcag = 1, .pingpong = 1, .scatter = 1, .neg = 1, .rounds = 2,
			  .iters = 16, .bytes = 256 << 10 };
	uint32_t ndev = 0;
	HcclRootInfo root;
	int fail = 0, i, ops = 0;

	for (i = 1; i < argc; i++) {
		if (launch_opt(&o.l, argc, argv, &i))
			continue;
		if (!strcmp(argv[i], "--op") && i + 1 < argc) {
			const char *w = argv[++i];

			if (!ops++)
				o.zcag = o.pingpong = o.scatter = o.neg = 0;
			o.zcag |= !strcmp(w, "zcag") || !strcmp(w, "all");
			o.pingpong |= !strcmp(w, "pingpong") || !strcmp(w, "all");
			o.scatter |= !strcmp(w, "scatter") || !strcmp(w, "all");
			o.neg |= !strcmp(w, "neg") || !strcmp(w, "all");
			if (!o.zcag && !o.pingpong && !o.scatter && !o.neg)
				return usage();
		} else if (!strcmp(argv[i], "--bytes") && i + 1 < argc) {
			o.bytes = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			o.rounds = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--iters") && i + 1 < argc) {
			o.iters = (uint32_t)strtoul(argv[++i], NULL, 0);
		} else {
			return usage();
		}
	}
	if (o.l.bad || o.bytes < 8 || o.rounds < 1)
		return usage();
	if (o.l.root_file && o.neg) {
		if (ops && !o.zcag && !o.pingpong && !o.scatter)
			return usage();
		o.neg = 0;	/* two ranks of its own, on this host */
	}
	setenv("HCCL_BUFFSIZE", "8", 0);
	aclInit(NULL);
	if (aclrtGetDeviceCount(&ndev) != ACL_SUCCESS || !ndev) {
		fprintf(stderr, "no hcclthread device\n");
		return 4;
	}
	if (launch_setup(&o.l, ndev, RM_MAX_RANKS))
		return usage();
	o.nranks = o.l.nranks;
	printf("registered-memory operators (%s%s%s%s) on %u ranks%s as %s, %llu bytes per rank, "
	       "%d rounds\n", o.zcag ? "zero-copy allgather " : "",
	       o.pingpong ? "withnotify ping-pong " : "", o.scatter ? "batchtransfer scatter " : "",
	       o.neg ? "refusals" : "", o.nranks, launch_part(&o.l),
	       o.l.processes ? "processes" : "threads",
	       (unsigned long long)o.bytes, o.rounds);
	fflush(stdout);
	if (launch_root_info(&o.l, &root))
		return 1;
	if (o.zcag || o.pingpong || o.scatter)
		fail = launch_ranks(&o.l, run_rank, &o, &root);
	if (o.neg && !fail && o.nranks >= 2) {
		if (HcclGetRootInfo(&root) != HCCL_SUCCESS)
			return 1;
		fail |= run_neg(&root);
	}
	aclFinalize();
	printf("%s\n", fail ? "FAILED" : "every check passed");
	return fail;
}
