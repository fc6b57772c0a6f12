// SPDX-License-Identifier: MIT
/*
 * The example custom operators on N ranks of the simulated cards, one
 * rank per card, as threads of this process or as processes: P2P (pairs
 * of ranks, one sends, the other receives), the ring AllGather and the
 * hierarchical AllGather (a ring per server, then an exchange between
 * servers: module parameter sim_servers). Every output byte is checked
 * against what its source rank sent.
 *
 *   hcclt-example-custom-ops [--threads|--processes] [--op p2p|allgather|hier|all]
 *                            [--ranks N] [--bytes B] [--rounds R] [--p2p-xor X]
 *                            [--root-info FILE [--first-rank F] [--local-ranks L]
 *                             [--first-device D]]
 *
 * Defaults: threads, P2P and the ring AllGather, every card, 1 MiB per rank, 2 rounds, HCCL
 * buffers of 2 x 32 MB (HCCL_BUFFSIZE=32 unless set). P2P pairs rank r
 * with rank r XOR X (X a power of two, default 1; 8 on 16 ranks of two
 * hosts pairs each rank with one of the other host), the lower one
 * sending. With --root-info, this process runs ranks F .. F + L - 1 of
 * the N, the others run elsewhere: other processes or hosts
 * (../example_launch.h).
 * Exit status 0 when every rank saw every byte right.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_rank_graph.h"
#include "hccl/hccl_res.h"
#include "example_ops.h"
#include "../example_launch.h"

#define MAX_RANKS 16

struct opts {
	struct launch l;
	int p2p, allgather, hier, rounds;
	uint32_t nranks, p2p_xor;
	uint64_t bytes;
};

/* Which ranks run here, on which cards. */
static const struct launch *launch;

static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;

static uint8_t pattern(uint32_t rank, uint64_t i, int round)
{
	return (uint8_t)(rank * 131u + i * 7u + (uint64_t)round * 29u + (i >> 12));
}

static void say(uint32_t rank, const char *fmt, const char *what, unsigned long long a,
		unsigned long long b)
{
	pthread_mutex_lock(&out_lock);
	printf("  rank %u (device %d, pid %d): ", rank, (int)launch_device(launch, rank),
	       (int)getpid());
	printf(fmt, what, a, b);
	putchar('\n');
	fflush(stdout);
	pthread_mutex_unlock(&out_lock);
}

/* The first byte of @got that differs from rank @src's round @round, or -1. */
static long long first_bad(const uint8_t *got, uint64_t n, uint32_t src, int round)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (got[i] != pattern(src, i, round))
			return (long long)i;
	return -1;
}

struct rank_ctx {
	const struct opts *o;
	uint32_t rank;
	HcclComm comm;
	aclrtStream stream;
	void *in, *out;		/* device memory */
	uint8_t *host;		/* host staging, nranks * bytes */
};

static int fill_input(struct rank_ctx *c, int round)
{
	uint64_t i;

	for (i = 0; i < c->o->bytes; i++)
		c->host[i] = pattern(c->rank, i, round);
	return aclrtMemcpy(c->in, c->o->bytes, c->host, c->o->bytes,
			   ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS;
}

static int run_p2p(struct rank_ctx *c, int round)
{
	const struct opts *o = c->o;
	uint32_t peer = c->rank ^ o->p2p_xor;
	int sender = c->rank < peer;
	long long bad;
	HcclResult r;
	aclError e;

	if (peer >= o->nranks)
		return 0;	/* the odd one out of an odd rank count */
	if (fill_input(c, round))
		return 1;
	if (sender)
		r = ExampleSend(c->in, o->bytes, peer, c->comm, c->stream);
	else
		r = ExampleRecv(c->out, o->bytes, peer, c->comm, c->stream);
	e = r == HCCL_SUCCESS ? aclrtSynchronizeStream(c->stream) : ACL_SUCCESS;
	if (r != HCCL_SUCCESS || e != ACL_SUCCESS) {
		say(c->rank, "%s failed: HCCL %llu, stream %llu", "p2p", (unsigned long long)r,
		    (unsigned long long)e);
		return 1;
	}
	if (sender)
		return 0;
	if (aclrtMemcpy(c->host, o->bytes, c->out, o->bytes,
			ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
		return 1;
	bad = first_bad(c->host, o->bytes, peer, round);
	if (bad >= 0) {
		say(c->rank, "%s: byte %llu from rank %llu is wrong", "recv",
		    (unsigned long long)bad, peer);
		return 1;
	}
	if (round == o->rounds - 1)
		say(c->rank, "%s %llu bytes from rank %llu: every byte correct",
		    "received", (unsigned long long)o->bytes, peer);
	return 0;
}

static int run_allgather(struct rank_ctx *c, int round, int hier)
{
	const struct opts *o = c->o;
	uint64_t total = o->bytes * o->nranks;
	long long bad;
	uint32_t src;
	HcclResult r;
	aclError e;

	if (fill_input(c, round))
		return 1;
	r = hier ? ExampleHierAllGather(c->in, c->out, o->bytes, c->comm, c->stream) :
		   ExampleAllGather(c->in, c->out, o->bytes, c->comm, c->stream);
	e = r == HCCL_SUCCESS ? aclrtSynchronizeStream(c->stream) : ACL_SUCCESS;
	if (r != HCCL_SUCCESS || e != ACL_SUCCESS) {
		say(c->rank, "%s failed: HCCL %llu, stream %llu",
		    hier ? "hierarchical allgather" : "allgather",
		    (unsigned long long)r, (unsigned long long)e);
		return 1;
	}
	if (aclrtMemcpy(c->host, total, c->out, total, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS)
		return 1;
	for (src = 0; src < o->nranks; src++) {
		bad = first_bad(c->host + src * o->bytes, o->bytes, src, round);
		if (bad >= 0) {
			say(c->rank, "%s: byte %llu of rank %llu's slot is wrong",
			    hier ? "hierarchical allgather" : "allgather",
			    (unsigned long long)bad, src);
			return 1;
		}
	}
	if (round == o->rounds - 1)
		say(c->rank, "%s: %llu ranks x %llu bytes, every byte correct",
		    hier ? "hierarchical allgather" : "allgather",
		    o->nranks, (unsigned long long)o->bytes);
	return 0;
}

/*
 * A channel to the last rank (another server) over the server layer's
 * protocol, where it differs from the cluster layer's, is refused before
 * any rendezvous: HCCL_E_PARA. 0 when it is (or the check does not apply).
 */
static int cross_check(HcclComm comm, uint32_t rank, uint32_t nranks)
{
	CommLink *links;
	HcclChannelDesc d;
	ChannelHandle ch;
	CommProtocol inner, outer;
	uint32_t nl;
	HcclResult r;

	if (HcclRankGraphGetLinks(comm, 0, rank, rank + 1, &links, &nl) != HCCL_SUCCESS || !nl)
		return 1;
	inner = links[0].linkAttr.linkProtocol;
	if (HcclRankGraphGetLinks(comm, 1, rank, nranks - 1, &links, &nl) != HCCL_SUCCESS || !nl)
		return 1;
	outer = links[0].linkAttr.linkProtocol;
	if (inner == outer)
		return 0;
	if (HcclChannelDescInit(&d, 1) != HCCL_SUCCESS)
		return 1;
	d.remoteRank = nranks - 1;
	d.channelProtocol = inner;
	d.notifyNum = 1;
	r = HcclChannelAcquire(comm, COMM_ENGINE_AICPU, &d, 1, &ch);
	say(rank, "%sa channel to rank %llu over the server layer's protocol: HcclResult %llu",
	    "", nranks - 1, (unsigned long long)r);
	return r != HCCL_E_PARA;
}

/*
 * What the rank graph says about this rank (the hierarchical AllGather's
 * view): its layers, the instance sizes of each, and the protocol of its
 * link to the last rank. 0 when every call succeeded.
 */
static int show_graph(HcclComm comm, uint32_t rank, uint32_t nranks)
{
	uint32_t *layers, nl, *sizes, ns, l, i, nlinks;
	CommLink *links;
	char line[256];
	int len;

	if (HcclRankGraphGetLayers(comm, &layers, &nl) != HCCL_SUCCESS)
		return 1;
	len = snprintf(line, sizeof(line), "rank graph: %u layer%s;", nl, nl == 1 ? "" : "s");
	for (l = 0; l < nl; l++) {
		if (HcclRankGraphGetInstSizeListByLayer(comm, l, &sizes, &ns) != HCCL_SUCCESS)
			return 1;
		len += snprintf(line + len, sizeof(line) - len, " layer %u sizes [", l);
		for (i = 0; i < ns && len < 200; i++)
			len += snprintf(line + len, sizeof(line) - len, "%s%u", i ? "," : "", sizes[i]);
		len += snprintf(line + len, sizeof(line) - len, "]");
		if (rank != nranks - 1 &&
		    HcclRankGraphGetLinks(comm, l, rank, nranks - 1, &links, &nlinks) == HCCL_SUCCESS)
			len += snprintf(line + len, sizeof(line) - len, " link to rank %u: %s",
					nranks - 1, !nlinks ? "none" :
					links[0].linkAttr.linkProtocol == COMM_PROTOCOL_ROCE ? "RoCE" :
					links[0].linkAttr.linkProtocol == COMM_PROTOCOL_HCCS ? "HCCS" :
					links[0].linkAttr.linkProtocol == COMM_PROTOCOL_UB_CTP ? "UB_CTP" :
					"other");
	}
	say(rank, "%s", line, 0, 0);
	return nl > 1 ? cross_check(comm, rank, nranks) : 0;
}

static int run_rank(const void *arg, const HcclRootInfo *root, uint32_t rank)
{
	const struct opts *o = arg;
	struct rank_ctx c = { .o = o, .rank = rank };
	int32_t dev = launch_device(&o->l, rank);
	uint64_t total = o->bytes * o->nranks;
	int fail = 0, round;
	HcclResult r;

	if (aclrtSetDevice(dev) != ACL_SUCCESS)
		return 1;
	r = HcclCommInitRootInfo(o->nranks, root, rank, &c.comm);
	if (r != HCCL_SUCCESS) {
		fprintf(stderr, "rank %u: HcclCommInitRootInfo: %s\n", rank, HcclGetErrorString(r));
		return 1;
	}
	c.host = malloc(total);
	if (!c.host || aclrtCreateStream(&c.stream) != ACL_SUCCESS ||
	    aclrtMalloc(&c.in, o->bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
	    aclrtMalloc(&c.out, total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
		fprintf(stderr, "rank %u: cannot allocate\n", rank);
		fail = 1;
	}
	if (!fail && o->hier && rank == 0)
		fail |= show_graph(c.comm, rank, o->nranks);
	for (round = 0; !fail && round < o->rounds; round++) {
		if (o->p2p)
			fail |= run_p2p(&c, round);
		if (o->allgather && !fail)
			fail |= run_allgather(&c, round, 0);
		if (o->hier && !fail)
			fail |= run_allgather(&c, round, 1);
	}
	if (c.in)
		aclrtFree(c.in);
	if (c.out)
		aclrtFree(c.out);
	if (c.stream)
		aclrtDestroyStream(c.stream);
	free(c.host);
	fail |= HcclCommDestroy(c.comm) != HCCL_SUCCESS;
	aclrtResetDevice(dev);
	return fail;
}

static int usage(void)
{
	fprintf(stderr, "usage: hcclt-example-custom-ops [--op p2p|allgather|hier|all] "
		"[--bytes B] [--rounds R] [--p2p-xor X]\n    " LAUNCH_USAGE "\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct opts o = { .p2p = 1, .allgather = 1, .rounds = 2, .bytes = 1 << 20, .p2p_xor = 1 };
	uint32_t ndev = 0;
	HcclRootInfo root;
	const char *soc;
	int fail = 0, i;

	for (i = 1; i < argc; i++) {
		if (launch_opt(&o.l, argc, argv, &i))
			continue;
		if (!strcmp(argv[i], "--op") && i + 1 < argc) {
			i++;
			o.p2p = !strcmp(argv[i], "p2p") || !strcmp(argv[i], "all");
			o.allgather = !strcmp(argv[i], "allgather") || !strcmp(argv[i], "all");
			o.hier = !strcmp(argv[i], "hier") || !strcmp(argv[i], "all");
			if (!o.p2p && !o.allgather && !o.hier)
				return usage();
		} else if (!strcmp(argv[i], "--p2p-xor") && i + 1 < argc) {
			o.p2p_xor = (uint32_t)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--bytes") && i + 1 < argc) {
			o.bytes = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			o.rounds = atoi(argv[++i]);
		} else {
			return usage();
		}
	}
	if (o.l.bad || !o.bytes || o.rounds < 1 || !o.p2p_xor || (o.p2p_xor & (o.p2p_xor - 1)))
		return usage();
	/*
	 * The simulated cards' memory is this machine's: a mapped HCCL buffer
	 * takes its pages (2 x 200 MB per rank by default, 3.2 GB for 8
	 * ranks). 2 x 32 MB is plenty here, unless the caller chose.
	 */
	setenv("HCCL_BUFFSIZE", "32", 0);
	aclInit(NULL);
	if (aclrtGetDeviceCount(&ndev) != ACL_SUCCESS || !ndev) {
		fprintf(stderr, "no hcclthread device\n");
		return 4;
	}
	if (launch_setup(&o.l, ndev, MAX_RANKS))
		return usage();
	o.nranks = o.l.nranks;
	launch = &o.l;
	soc = aclrtGetSocName();
	printf("custom operators (%s) on %u ranks%s as %s, %s, %llu bytes per rank, %d rounds\n",
	       o.p2p && o.allgather && o.hier ? "P2P, ring AllGather, hierarchical AllGather" :
	       o.p2p && o.allgather ? "P2P and ring AllGather" :
	       o.p2p ? "P2P" : o.allgather ? "ring AllGather" : "hierarchical AllGather", o.nranks,
	       launch_part(&o.l), o.l.processes ? "processes" : "threads", soc ? soc : "?",
	       (unsigned long long)o.bytes, o.rounds);
	fflush(stdout);
	if (launch_root_info(&o.l, &root))
		return 1;
	fail = launch_ranks(&o.l, run_rank, &o, &root);
	aclFinalize();
	printf("%s\n", fail ? "FAILED" : "every rank got every byte right");
	return fail;
}
