// SPDX-License-Identifier: MIT
/*
 * hcclt-colltest: HCCL's collectives (libhccl.so) against references
 * computed on the host, on the simulated server (run in the VM).
 *
 *   hcclt-colltest [-r RANKS,...] [-m threads|procs|both] [-q] [-c CASE]
 *
 * For each rank count (default 1,2,3,5,8, at most the devices there are)
 * and each mode (ranks as threads of one process with HcclCommInitAll, or
 * as processes with HcclCommInitRootInfo), every rank runs the same list
 * of cases; a case checks its rank's results element by element and the
 * TAP line is "ok" when every rank's are right. Each case covers data
 * types x reduce ops x counts {0, 1, ranks - 1, 4097, 1 Mi + 3} (the
 * largest for a few types), in place and not, roots 0 and last. -q: the
 * quick set (the debug kernels): counts {0, 1, ranks - 1, 4097}. -c: only
 * the cases whose name contains CASE.
 *
 * The values are small integers (exact in every float type, so every
 * order of reduction gives the same bits) except in the "rounding" case,
 * which sums FP16/BF16/FP32 fractions and allows the rounding of each of
 * the n - 1 additions (half an ulp each, in the type's precision).
 *
 * HCCL_BUFFSIZE=1 (MB) is set for the ranks: operations larger than a
 * region take several rounds (mesh) or passes (ring). The AllReduce,
 * ReduceScatter and AllGather cases also run with each algorithm forced
 * (HCCLT_COLL_ALGO=mesh, ring), quick counts, on 3 ranks (or the one rank
 * count -r gives), as threads; the automatic choice takes the ring from
 * 64 KiB and the mesh below, so both run on every rank count anyway.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "tap.h"

#define MAX_RANKS	16
#define MAX_CASES	32
#define WHY_LEN		160
#define BIG		((1ULL << 20) + 3)

static int quick;
static const char *only;	/* -c: the cases whose name has this in it */

/* Results, shared with the rank processes: [rank][case]. */
struct board {
	int ok[MAX_RANKS][MAX_CASES];
	char why[MAX_RANKS][MAX_CASES][WHY_LEN];
	double enter[MAX_RANKS], leave[MAX_RANKS];
};

struct rk {
	uint32_t rank, n;
	HcclComm comm;
	aclrtStream st;
	struct board *b;
	int ci;			/* current case */
	const char *algo;
};

/* ---- values ---- */

static uint32_t esize(HcclDataType t)
{
	switch (t) {
	case HCCL_DATA_TYPE_INT8:
	case HCCL_DATA_TYPE_UINT8:
		return 1;
	case HCCL_DATA_TYPE_INT16:
	case HCCL_DATA_TYPE_UINT16:
	case HCCL_DATA_TYPE_FP16:
	case HCCL_DATA_TYPE_BFP16:
		return 2;
	case HCCL_DATA_TYPE_INT32:
	case HCCL_DATA_TYPE_UINT32:
	case HCCL_DATA_TYPE_FP32:
		return 4;
	default:
		return 8;
	}
}

static const char *dtname(HcclDataType t)
{
	static const char *const n[] = { "int8", "int16", "int32", "fp16", "fp32", "int64",
					 "uint64", "uint8", "uint16", "uint32", "fp64",
					 "bf16" };

	return (uint32_t)t < 12 ? n[t] : "?";
}

static const char *opname(HcclReduceOp o)
{
	static const char *const n[] = { "sum", "prod", "max", "min" };

	return (uint32_t)o < 4 ? n[o] : "?";
}

static int is_unsigned(HcclDataType t)
{
	return t == HCCL_DATA_TYPE_UINT8 || t == HCCL_DATA_TYPE_UINT16 ||
	       t == HCCL_DATA_TYPE_UINT32 || t == HCCL_DATA_TYPE_UINT64;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/* Rank @r's element @i of case @seed: a small integer. */
static int64_t val(uint32_t r, uint64_t i, uint64_t seed, HcclDataType t, HcclReduceOp op)
{
	static const int64_t prod_s[4] = { 1, -1, 2, -2 }, prod_u[4] = { 1, 2, 1, 3 };
	uint64_t h = mix(seed * 0x9e3779b97f4a7c15ULL + (uint64_t)r * 0x100000001b3ULL + i);

	if (op == HCCL_REDUCE_PROD)
		return (is_unsigned(t) ? prod_u : prod_s)[h % 4];
	return is_unsigned(t) ? (int64_t)(h % 9) : (int64_t)(h % 9) - 4;
}

static uint16_t f32_to_f16(float f)
{
	uint32_t x;
	uint32_t sign, exp, man;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000;
	exp = (x >> 23) & 0xff;
	man = x & 0x7fffff;
	if (exp == 0)
		return (uint16_t)sign;
	/* Small integers and the test's fractions only: normal, rounded to nearest even. */
	exp = exp - 127 + 15;
	man = man + 0xfff + ((man >> 13) & 1);
	if (man & 0x800000) {
		man = 0;
		exp++;
	}
	return (uint16_t)(sign | (exp << 10) | (man >> 13));
}

static float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, x;
	float f;

	if (!exp && !man) {
		x = sign;
	} else {
		x = sign | ((exp - 15 + 127) << 23) | (man << 13);
	}
	memcpy(&f, &x, 4);
	return f;
}

static uint16_t f32_to_bf16(float f)
{
	uint32_t x;

	memcpy(&x, &f, 4);
	x += 0x7fff + ((x >> 16) & 1);
	return (uint16_t)(x >> 16);
}

static float bf16_to_f32(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;

	memcpy(&f, &x, 4);
	return f;
}

/* Store @v (integer, or @d for floats) as element @i of type @t at @p. */
static void store(HcclDataType t, void *p, uint64_t i, int64_t v, double d, int use_d)
{
	double x = use_d ? d : (double)v;

	switch (t) {
	case HCCL_DATA_TYPE_INT8:
	case HCCL_DATA_TYPE_UINT8:
		((uint8_t *)p)[i] = (uint8_t)v;
		break;
	case HCCL_DATA_TYPE_INT16:
	case HCCL_DATA_TYPE_UINT16:
		((uint16_t *)p)[i] = (uint16_t)v;
		break;
	case HCCL_DATA_TYPE_INT32:
	case HCCL_DATA_TYPE_UINT32:
		((uint32_t *)p)[i] = (uint32_t)v;
		break;
	case HCCL_DATA_TYPE_INT64:
	case HCCL_DATA_TYPE_UINT64:
		((uint64_t *)p)[i] = (uint64_t)v;
		break;
	case HCCL_DATA_TYPE_FP16:
		((uint16_t *)p)[i] = f32_to_f16((float)x);
		break;
	case HCCL_DATA_TYPE_BFP16:
		((uint16_t *)p)[i] = f32_to_bf16((float)x);
		break;
	case HCCL_DATA_TYPE_FP32:
		((float *)p)[i] = (float)x;
		break;
	default:
		((double *)p)[i] = x;
	}
}

static double load_f(HcclDataType t, const void *p, uint64_t i)
{
	switch (t) {
	case HCCL_DATA_TYPE_FP16:
		return f16_to_f32(((const uint16_t *)p)[i]);
	case HCCL_DATA_TYPE_BFP16:
		return bf16_to_f32(((const uint16_t *)p)[i]);
	case HCCL_DATA_TYPE_FP32:
		return ((const float *)p)[i];
	default:
		return ((const double *)p)[i];
	}
}

static int64_t fold(HcclReduceOp op, int64_t a, int64_t b)
{
	switch (op) {
	case HCCL_REDUCE_SUM:
		return a + b;
	case HCCL_REDUCE_PROD:
		return a * b;
	case HCCL_REDUCE_MAX:
		return a > b ? a : b;
	default:
		return a < b ? a : b;
	}
}

/* The reduction of element @i over all ranks (exact: small integers). */
static int64_t ref_reduce(struct rk *k, uint64_t i, uint64_t seed, HcclDataType t,
			  HcclReduceOp op)
{
	int64_t acc = val(0, i, seed, t, op);
	uint32_t r;

	for (r = 1; r < k->n; r++)
		acc = fold(op, acc, val(r, i, seed, t, op));
	return acc;
}

/* ---- device buffers ---- */

static void *dev_alloc(uint64_t bytes)
{
	void *p = NULL;

	if (aclrtMalloc(&p, bytes ? bytes : 1, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
		return NULL;
	return p;
}

/* @count elements of rank @r's values of case @seed, at device @d. */
static int dev_fill(void *d, uint64_t count, uint32_t r, uint64_t seed, HcclDataType t,
		    HcclReduceOp op)
{
	uint64_t es = esize(t), i;
	void *h = malloc(count * es + 1);
	int ret;

	if (!h)
		return -1;
	for (i = 0; i < count; i++)
		store(t, h, i, val(r, i, seed, t, op), 0, 0);
	ret = count ? aclrtMemcpy(d, count * es, h, count * es, ACL_MEMCPY_HOST_TO_DEVICE) : 0;
	free(h);
	return ret;
}

static void *dev_read(const void *d, uint64_t bytes)
{
	void *h = malloc(bytes + 1);

	if (h && bytes && aclrtMemcpy(h, bytes, d, bytes, ACL_MEMCPY_DEVICE_TO_HOST)) {
		free(h);
		return NULL;
	}
	return h;
}

__attribute__((format(printf, 2, 3)))
static int fail(struct rk *k, const char *fmt, ...)
{
	char *w = k->b->why[k->rank][k->ci];
	va_list ap;

	if (!w[0]) {
		va_start(ap, fmt);
		vsnprintf(w, WHY_LEN, fmt, ap);
		va_end(ap);
	}
	return 0;
}

static int sync_ok(struct rk *k, HcclResult ret, const char *what)
{
	aclError e;

	if (ret != HCCL_SUCCESS)
		return fail(k, "%s: HcclResult %d", what, (int)ret);
	e = aclrtSynchronizeStream(k->st);
	if (e != ACL_SUCCESS)
		return fail(k, "%s: synchronize %d", what, (int)e);
	return 1;
}

/*
 * Compare @count elements at device @d with @want(i) (an integer); @what
 * names the call for the failure message.
 */
static int check(struct rk *k, const void *d, uint64_t count, HcclDataType t,
		 int64_t (*want)(struct rk *, uint64_t, void *), void *arg, const char *what)
{
	uint64_t es = esize(t), i;
	unsigned char *h = dev_read(d, count * es), e[8];
	int ok = 1;

	if (!h)
		return fail(k, "%s: read back", what);
	for (i = 0; i < count && ok; i++) {
		store(t, e, 0, want(k, i, arg), 0, 0);
		if (memcmp(h + i * es, e, es)) {
			ok = fail(k, "%s: element %llu wrong", what, (unsigned long long)i);
		}
	}
	free(h);
	return ok;
}

static const HcclDataType red_types[] = {
	HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_INT64,
	HCCL_DATA_TYPE_UINT64, HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_FP64,
	HCCL_DATA_TYPE_BFP16,
};

static const HcclDataType any_types[] = {
	HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_UINT8, HCCL_DATA_TYPE_INT16, HCCL_DATA_TYPE_UINT16,
	HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_INT64, HCCL_DATA_TYPE_UINT64,
	HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_FP64, HCCL_DATA_TYPE_BFP16,
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The counts of a case: 0, 1, n - 1, 4097 (and BIG with @big). */
static uint32_t counts(struct rk *k, uint64_t *c, int big)
{
	uint32_t m = 0;

	c[m++] = 0;
	c[m++] = 1;
	if (k->n > 2)
		c[m++] = k->n - 1;
	c[m++] = 4097;
	if (big && !quick)
		c[m++] = BIG;
	return m;
}

/* ---- cases ---- */

struct redarg {
	uint64_t seed, base;
	HcclDataType t;
	HcclReduceOp op;
};

static int64_t want_red(struct rk *k, uint64_t i, void *a)
{
	struct redarg *r = a;

	return ref_reduce(k, r->base + i, r->seed, r->t, r->op);
}

static int one_allreduce(struct rk *k, HcclDataType t, HcclReduceOp op, uint64_t count,
			 int inplace, uint64_t seed)
{
	uint64_t bytes = count * esize(t);
	void *s = dev_alloc(bytes), *d = inplace ? s : dev_alloc(bytes);
	struct redarg a = { seed, 0, t, op };
	char what[96];
	int ok;

	snprintf(what, sizeof(what), "AllReduce %s %s count %llu%s", dtname(t), opname(op),
		 (unsigned long long)count, inplace ? " in place" : "");
	ok = s && d && !dev_fill(s, count, k->rank, seed, t, op);
	ok = ok && sync_ok(k, HcclAllReduce(s, d, count, t, op, k->comm, k->st), what);
	ok = ok && check(k, d, count, t, want_red, &a, what);
	aclrtFree(s);
	if (!inplace)
		aclrtFree(d);
	return ok;
}

static int case_allreduce(struct rk *k)
{
	uint64_t c[5];
	uint32_t m = counts(k, c, 0), i, j, o;
	int ok = 1;

	for (i = 0; i < N(red_types); i++)
		for (o = 0; o < 4; o++)
			for (j = 0; j < m; j++)
				ok &= one_allreduce(k, red_types[i], (HcclReduceOp)o, c[j], 0,
						    i * 100 + o * 10 + j);
	ok &= one_allreduce(k, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, 4097, 1, 7);
	if (!quick) {
		ok &= one_allreduce(k, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, BIG, 0, 8);
		ok &= one_allreduce(k, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_MAX, BIG, 1, 9);
	}
	return ok;
}

static int one_reduce_scatter(struct rk *k, HcclDataType t, HcclReduceOp op, uint64_t count,
			      int inplace, uint64_t seed)
{
	uint64_t es = esize(t);
	void *s = dev_alloc(count * es * k->n), *d = inplace ? s : dev_alloc(count * es);
	struct redarg a = { seed, k->rank * count, t, op };
	char what[96];
	int ok;

	snprintf(what, sizeof(what), "ReduceScatter %s %s count %llu%s", dtname(t), opname(op),
		 (unsigned long long)count, inplace ? " in place" : "");
	ok = s && d && !dev_fill(s, count * k->n, k->rank, seed, t, op);
	ok = ok && sync_ok(k, HcclReduceScatter(s, d, count, t, op, k->comm, k->st), what);
	ok = ok && check(k, d, count, t, want_red, &a, what);
	aclrtFree(s);
	if (!inplace)
		aclrtFree(d);
	return ok;
}

static int case_reduce_scatter(struct rk *k)
{
	uint64_t c[5];
	uint32_t m = counts(k, c, 0), i, j, o;
	int ok = 1;

	for (i = 0; i < N(red_types); i++)
		for (o = 0; o < 4; o++)
			for (j = 0; j < m; j++)
				ok &= one_reduce_scatter(k, red_types[i], (HcclReduceOp)o, c[j],
							 0, 1000 + i * 100 + o * 10 + j);
	ok &= one_reduce_scatter(k, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, 4097, 1, 1007);
	if (!quick)
		ok &= one_reduce_scatter(k, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM, BIG, 0, 1008);
	return ok;
}

struct gatharg {
	uint64_t seed, count;
	HcclDataType t;
	const uint64_t *displs, *cnts;	/* V: per rank */
};

/* AllGather's element i: rank i / count's element i % count. */
static int64_t want_gather(struct rk *k, uint64_t i, void *a)
{
	struct gatharg *g = a;

	(void)k;
	return val((uint32_t)(i / g->count), i % g->count, g->seed, g->t, HCCL_REDUCE_SUM);
}

static int one_allgather(struct rk *k, HcclDataType t, uint64_t count, int inplace,
			 uint64_t seed)
{
	uint64_t es = esize(t);
	void *d = dev_alloc(count * es * k->n);
	void *s = inplace ? (d ? (char *)d + k->rank * count * es : NULL) : dev_alloc(count * es);
	struct gatharg g = { seed, count, t, NULL, NULL };
	char what[96];
	int ok;

	snprintf(what, sizeof(what), "AllGather %s count %llu%s", dtname(t),
		 (unsigned long long)count, inplace ? " in place" : "");
	ok = s && d && !dev_fill(s, count, k->rank, seed, t, HCCL_REDUCE_SUM);
	ok = ok && sync_ok(k, HcclAllGather(s, d, count, t, k->comm, k->st), what);
	ok = ok && (!count || check(k, d, count * k->n, t, want_gather, &g, what));
	if (!inplace)
		aclrtFree(s);
	aclrtFree(d);
	return ok;
}

static int case_allgather(struct rk *k)
{
	uint64_t c[5];
	uint32_t m = counts(k, c, 0), i, j;
	int ok = 1;

	for (i = 0; i < N(any_types); i++)
		for (j = 0; j < m; j++)
			ok &= one_allgather(k, any_types[i], c[j], 0, 2000 + i * 10 + j);
	ok &= one_allgather(k, HCCL_DATA_TYPE_FP32, 4097, 1, 2100);
	if (!quick)
		ok &= one_allgather(k, HCCL_DATA_TYPE_INT8, BIG, 0, 2101);
	return ok;
}

static int64_t want_bcast(struct rk *k, uint64_t i, void *a)
{
	struct gatharg *g = a;

	(void)k;
	return val((uint32_t)g->count, i, g->seed, g->t, HCCL_REDUCE_SUM);
}

static int case_broadcast(struct rk *k)
{
	uint64_t c[5];
	uint32_t m = counts(k, c, 1), i, j, root;
	int ok = 1;

	for (i = 0; i < N(any_types); i++)
		for (j = 0; j < m; j++)
			for (root = 0; root < k->n; root += k->n > 1 ? k->n - 1 : 1) {
				HcclDataType t = any_types[i];
				uint64_t seed = 3000 + i * 100 + j * 10 + root;
				void *b;
				/* count holds the root for want_bcast. */
				struct gatharg g = { seed, root, t, NULL, NULL };
				char what[96];

				if (c[j] == BIG && t != HCCL_DATA_TYPE_INT8)
					continue;
				b = dev_alloc(c[j] * esize(t));
				snprintf(what, sizeof(what), "Broadcast %s count %llu root %u",
					 dtname(t), (unsigned long long)c[j], root);
				ok &= b && !dev_fill(b, c[j], k->rank == root ? root : 999, seed,
						     t, HCCL_REDUCE_SUM) &&
				      sync_ok(k, HcclBroadcast(b, c[j], t, root, k->comm, k->st),
					      what) &&
				      check(k, b, c[j], t, want_bcast, &g, what);
				aclrtFree(b);
			}
	return ok;
}

static int case_reduce(struct rk *k)
{
	uint64_t c[5];
	uint32_t m = counts(k, c, 0), i, j, o, root;
	int ok = 1;

	for (i = 0; i < N(red_types); i++)
		for (o = 0; o < 4; o++)
			for (j = 0; j < m; j++)
				for (root = 0; root < k->n; root += k->n > 1 ? k->n - 1 : 1) {
					HcclDataType t = red_types[i];
					uint64_t seed = 4000 + i * 100 + o * 10 + j, es = esize(t);
					struct redarg a = { seed, 0, t, (HcclReduceOp)o };
					void *s = dev_alloc(c[j] * es), *d = dev_alloc(c[j] * es);
					char what[96];
					int r;

					snprintf(what, sizeof(what), "Reduce %s %s count %llu root %u",
						 dtname(t), opname(a.op), (unsigned long long)c[j],
						 root);
					r = s && d && !dev_fill(s, c[j], k->rank, seed, t, a.op) &&
					    sync_ok(k, HcclReduce(s, d, c[j], t, a.op, root, k->comm,
								  k->st), what);
					if (r && k->rank == root)
						r = check(k, d, c[j], t, want_red, &a, what);
					ok &= r;
					aclrtFree(s);
					aclrtFree(d);
				}
	return ok;
}

static int case_scatter(struct rk *k)
{
	uint64_t c[5];
	uint32_t m = counts(k, c, 0), j, root;
	const HcclDataType ts[] = { HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_FP32, HCCL_DATA_TYPE_FP64 };
	uint32_t i;
	int ok = 1;

	for (i = 0; i < N(ts); i++)
		for (j = 0; j < m; j++)
			for (root = 0; root < k->n; root += k->n > 1 ? k->n - 1 : 1) {
				HcclDataType t = ts[i];
				uint64_t seed = 5000 + i * 100 + j * 10 + root, es = esize(t);
				/* Root's element q * count + i: rank q's block. */
				struct gatharg g = { seed, 0, t, NULL, NULL };
				void *s = dev_alloc(c[j] * es * k->n), *d = dev_alloc(c[j] * es);
				char what[96];
				uint64_t x;
				unsigned char *h;
				int r;

				snprintf(what, sizeof(what), "Scatter %s count %llu root %u",
					 dtname(t), (unsigned long long)c[j], root);
				r = s && d &&
				    !dev_fill(s, c[j] * k->n, root, seed, t, HCCL_REDUCE_SUM) &&
				    sync_ok(k, HcclScatter(s, d, c[j], t, root, k->comm, k->st),
					    what);
				if (r && c[j]) {
					h = dev_read(d, c[j] * es);
					for (x = 0; h && x < c[j] && r; x++) {
						unsigned char e[8];

						store(t, e, 0,
						      val(root, k->rank * c[j] + x, seed, t,
							  HCCL_REDUCE_SUM), 0, 0);
						if (memcmp(h + x * es, e, es))
							r = fail(k, "%s: element %llu wrong", what,
								 (unsigned long long)x);
					}
					r &= !!h;
					free(h);
				}
				(void)g;
				ok &= r;
				aclrtFree(s);
				aclrtFree(d);
			}
	return ok;
}

/* Rank q's block for rank r of an all-to-all: its elements r * count .. */
static int case_alltoall(struct rk *k)
{
	uint64_t c[5];
	uint32_t m = counts(k, c, 0), j, i;
	const HcclDataType ts[] = { HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_FP16,
				    HCCL_DATA_TYPE_UINT32, HCCL_DATA_TYPE_FP64 };
	int ok = 1;

	for (i = 0; i < N(ts); i++)
		for (j = 0; j < m + (quick ? 0 : 1); j++) {
			HcclDataType t = ts[i];
			uint64_t cnt = j < m ? c[j] : (t == HCCL_DATA_TYPE_INT8 ? BIG / 8 : 0);
			uint64_t seed = 6000 + i * 10 + j, es = esize(t), x;
			int inplace = j == 2;
			void *s = dev_alloc(cnt * es * k->n);
			void *d = inplace ? s : dev_alloc(cnt * es * k->n);
			unsigned char *h;
			char what[96];
			uint32_t q;
			int r;

			if (j == m && !cnt)
				continue;
			snprintf(what, sizeof(what), "AlltoAll %s count %llu%s", dtname(t),
				 (unsigned long long)cnt, inplace ? " in place" : "");
			r = s && d && !dev_fill(s, cnt * k->n, k->rank, seed, t, HCCL_REDUCE_SUM) &&
			    sync_ok(k, HcclAlltoAll(s, cnt, t, d, cnt, t, k->comm, k->st), what);
			if (r && cnt) {
				h = dev_read(d, cnt * es * k->n);
				for (q = 0; h && q < k->n && r; q++)
					for (x = 0; x < cnt && r; x++) {
						unsigned char e[8];

						store(t, e, 0, val(q, k->rank * cnt + x, seed, t,
								   HCCL_REDUCE_SUM), 0, 0);
						if (memcmp(h + (q * cnt + x) * es, e, es))
							r = fail(k, "%s: block %u element %llu", what,
								 q, (unsigned long long)x);
					}
				r &= !!h;
				free(h);
			}
			ok &= r;
			aclrtFree(s);
			if (!inplace)
				aclrtFree(d);
		}
	return ok;
}

/* Elements rank a sends rank b in the V cases (some zero). */
static uint64_t vcount(uint32_t a, uint32_t b, uint64_t scale)
{
	uint64_t h = mix(a * 131 + b * 7 + scale);

	return h % 4 == 0 ? 0 : (h % 97) * scale + (h % 5);
}

/*
 * Counts and displacements of rank @me's sends (@recv 0) or receives (@recv
 * 1) in the V cases; AlltoAllV leaves gaps between the blocks (q elements
 * before send block q, 2q before receive block q), AlltoAllVC packs them.
 * Returns the buffer's length.
 */
static uint64_t vlayout(uint32_t me, uint32_t n, uint64_t scale, int vc, int recv, uint64_t *c,
			uint64_t *d)
{
	uint64_t tot = 0;
	uint32_t q;

	for (q = 0; q < n; q++) {
		c[q] = recv ? vcount(q, me, scale) : vcount(me, q, scale);
		d[q] = tot + (vc ? 0 : (recv ? 2 * q : q));
		tot = d[q] + c[q];
	}
	return tot;
}

static int case_alltoallv(struct rk *k, int vc)
{
	const uint64_t scales[] = { 1, 61 };
	uint64_t sc[MAX_RANKS], sd[MAX_RANKS], rc[MAX_RANKS], rd[MAX_RANKS];
	uint64_t mat[MAX_RANKS * MAX_RANKS], stot, rtot, x, es = 4, seed;
	HcclDataType t = HCCL_DATA_TYPE_INT32;
	uint32_t q, si;
	int ok = 1;

	for (si = 0; si < N(scales); si++) {
		void *s, *d;
		unsigned char *h;
		char what[96];
		int r;

		seed = 7000 + si + vc * 10;
		stot = vlayout(k->rank, k->n, scales[si], vc, 0, sc, sd);
		rtot = vlayout(k->rank, k->n, scales[si], vc, 1, rc, rd);
		for (q = 0; q < k->n * k->n; q++)
			mat[q] = vcount(q / k->n, q % k->n, scales[si]);
		s = dev_alloc(stot * es);
		d = dev_alloc(rtot * es);
		/* Element x of the send buffer: value of (rank, x). */
		r = s && d && !dev_fill(s, stot, k->rank, seed, t, HCCL_REDUCE_SUM) &&
		    !dev_fill(d, rtot, 99, seed, t, HCCL_REDUCE_SUM);
		snprintf(what, sizeof(what), "AlltoAllV%s int32 scale %llu", vc ? "C" : "",
			 (unsigned long long)scales[si]);
		if (r)
			r = sync_ok(k, vc ? HcclAlltoAllVC(s, mat, t, d, t, k->comm, k->st) :
					    HcclAlltoAllV(s, sc, sd, t, d, rc, rd, t, k->comm,
							  k->st), what);
		if (r) {
			h = dev_read(d, rtot * es);
			for (q = 0; h && q < k->n && r; q++) {
				/* Rank q's send displacement for us. */
				uint64_t qc[MAX_RANKS], qds[MAX_RANKS], qd;

				vlayout(q, k->n, scales[si], vc, 0, qc, qds);
				qd = qds[k->rank];
				for (x = 0; x < rc[q] && r; x++) {
					int32_t e = (int32_t)val(q, qd + x, seed, t, HCCL_REDUCE_SUM);

					if (memcmp(h + (rd[q] + x) * es, &e, 4))
						r = fail(k, "%s: from rank %u element %llu", what, q,
							 (unsigned long long)x);
				}
				/* The gap after block q keeps its old value. */
				if (!vc && q + 1 < k->n && rd[q] + rc[q] < rd[q + 1]) {
					int32_t e = (int32_t)val(99, rd[q] + rc[q], seed, t,
								 HCCL_REDUCE_SUM);

					if (memcmp(h + (rd[q] + rc[q]) * es, &e, 4))
						r = fail(k, "%s: gap after rank %u written", what, q);
				}
			}
			r &= !!h;
			free(h);
		}
		ok &= r;
		aclrtFree(s);
		aclrtFree(d);
	}
	return ok;
}

static int case_alltoallv_plain(struct rk *k)
{
	return case_alltoallv(k, 0);
}

static int case_alltoallvc(struct rk *k)
{
	return case_alltoallv(k, 1);
}

static int64_t want_gatherv(struct rk *k, uint64_t i, void *a)
{
	struct gatharg *g = a;
	uint32_t q;

	for (q = 0; q < k->n; q++)
		if (i >= g->displs[q] && i < g->displs[q] + g->cnts[q])
			return val(q, i - g->displs[q], g->seed, g->t, HCCL_REDUCE_SUM);
	/* A gap: the filler. */
	return val(99, i, g->seed, g->t, HCCL_REDUCE_SUM);
}

static int case_allgatherv(struct rk *k)
{
	const uint64_t scales[] = { 1, 53 };
	uint64_t cnt[MAX_RANKS], dis[MAX_RANKS], tot, seed;
	HcclDataType t = HCCL_DATA_TYPE_FP32;
	uint32_t q, si;
	int ok = 1;

	for (si = 0; si < N(scales); si++) {
		struct gatharg g;
		void *s, *d;
		char what[96];
		int r;

		seed = 8000 + si;
		tot = 0;
		for (q = 0; q < k->n; q++) {
			cnt[q] = vcount(q, q, scales[si]);
			dis[q] = tot + 3;
			tot = dis[q] + cnt[q];
		}
		g = (struct gatharg){ seed, 0, t, dis, cnt };
		s = dev_alloc(cnt[k->rank] * 4);
		d = dev_alloc(tot * 4);
		snprintf(what, sizeof(what), "AllGatherV fp32 scale %llu",
			 (unsigned long long)scales[si]);
		r = s && d && !dev_fill(s, cnt[k->rank], k->rank, seed, t, HCCL_REDUCE_SUM) &&
		    !dev_fill(d, tot, 99, seed, t, HCCL_REDUCE_SUM) &&
		    sync_ok(k, HcclAllGatherV(s, cnt[k->rank], d, cnt, dis, t, k->comm, k->st),
			    what) &&
		    check(k, d, tot, t, want_gatherv, &g, what);
		ok &= r;
		aclrtFree(s);
		aclrtFree(d);
	}
	return ok;
}

static int case_reduce_scatter_v(struct rk *k)
{
	const HcclDataType ts[] = { HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT16,
				    HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_INT64,
				    HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32,
				    HCCL_DATA_TYPE_BFP16 };
	const HcclReduceOp ops[] = { HCCL_REDUCE_SUM, HCCL_REDUCE_MAX, HCCL_REDUCE_MIN };
	uint64_t cnt[MAX_RANKS], dis[MAX_RANKS], tot;
	uint32_t q, i, o;
	int ok = 1;

	for (i = 0; i < N(ts); i++)
		for (o = 0; o < N(ops); o++) {
			HcclDataType t = ts[i];
			uint64_t seed = 9000 + i * 10 + o, es = esize(t);
			struct redarg a;
			void *s, *d;
			char what[96];
			int r;

			tot = 0;
			for (q = 0; q < k->n; q++) {
				cnt[q] = vcount(q, q, 17);
				dis[q] = tot + 1;
				tot = dis[q] + cnt[q];
			}
			a = (struct redarg){ seed, dis[k->rank], t, ops[o] };
			s = dev_alloc(tot * es);
			d = dev_alloc(cnt[k->rank] * es);
			snprintf(what, sizeof(what), "ReduceScatterV %s %s", dtname(t),
				 opname(ops[o]));
			r = s && d && !dev_fill(s, tot, k->rank, seed, t, ops[o]) &&
			    sync_ok(k, HcclReduceScatterV(s, cnt, dis, d, cnt[k->rank], t, ops[o],
							  k->comm, k->st), what) &&
			    check(k, d, cnt[k->rank], t, want_red, &a, what);
			ok &= r;
			aclrtFree(s);
			aclrtFree(d);
		}
	return ok;
}

/* Pairs (0, 1), (2, 3), ...: the even rank sends first, the odd receives first. */
static int case_send_recv(struct rk *k)
{
	const uint64_t cs[] = { 1, 4097, BIG };
	uint32_t peer = k->rank ^ 1, i;
	int ok = 1;

	if (peer >= k->n)
		return 1;
	for (i = 0; i < N(cs) - (quick ? 1 : 0); i++) {
		HcclDataType t = HCCL_DATA_TYPE_INT8;
		uint64_t seed = 10000 + i;
		struct gatharg g = { seed, peer, t, NULL, NULL };
		void *s = dev_alloc(cs[i]), *d = dev_alloc(cs[i]);
		char what[96];
		HcclResult a, b;
		int r;

		snprintf(what, sizeof(what), "Send/Recv int8 count %llu with rank %u",
			 (unsigned long long)cs[i], peer);
		r = s && d && !dev_fill(s, cs[i], k->rank, seed, t, HCCL_REDUCE_SUM);
		if (r) {
			if (k->rank % 2 == 0) {
				a = HcclSend(s, cs[i], t, peer, k->comm, k->st);
				b = HcclRecv(d, cs[i], t, peer, k->comm, k->st);
			} else {
				a = HcclRecv(d, cs[i], t, peer, k->comm, k->st);
				b = HcclSend(s, cs[i], t, peer, k->comm, k->st);
			}
			r = sync_ok(k, a != HCCL_SUCCESS ? a : b, what) &&
			    check(k, d, cs[i], t, want_bcast, &g, what);
		}
		ok &= r;
		aclrtFree(s);
		aclrtFree(d);
	}
	return ok;
}

/* A ring both ways at once, two items per neighbour (matched in order). */
static int case_batch(struct rk *k)
{
	uint32_t right = (k->rank + 1) % k->n, left = (k->rank + k->n - 1) % k->n;
	const uint64_t c1 = 300000, c2 = 5;
	HcclDataType t = HCCL_DATA_TYPE_UINT16;
	void *s1 = dev_alloc(c1 * 2), *s2 = dev_alloc(c2 * 2);
	void *d1 = dev_alloc(c1 * 2), *d2 = dev_alloc(c2 * 2);
	struct gatharg g1 = { 11000, left, t, NULL, NULL }, g2 = { 11001, left, t, NULL, NULL };
	HcclSendRecvItem it[4];
	int ok;

	ok = s1 && s2 && d1 && d2 && !dev_fill(s1, c1, k->rank, 11000, t, HCCL_REDUCE_SUM) &&
	     !dev_fill(s2, c2, k->rank, 11001, t, HCCL_REDUCE_SUM);
	it[0] = (HcclSendRecvItem){ HCCL_RECV, d1, c1, t, left };
	it[1] = (HcclSendRecvItem){ HCCL_SEND, s1, c1, t, right };
	it[2] = (HcclSendRecvItem){ HCCL_SEND, s2, c2, t, right };
	it[3] = (HcclSendRecvItem){ HCCL_RECV, d2, c2, t, left };
	ok = ok && sync_ok(k, HcclBatchSendRecv(it, 4, k->comm, k->st), "BatchSendRecv ring") &&
	     check(k, d1, c1, t, want_bcast, &g1, "BatchSendRecv first item") &&
	     check(k, d2, c2, t, want_bcast, &g2, "BatchSendRecv second item");
	aclrtFree(s1);
	aclrtFree(s2);
	aclrtFree(d1);
	aclrtFree(d2);
	return ok;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Nobody leaves the barrier before the last one (who comes 50 ms late) arrives. */
static int case_barrier(struct rk *k)
{
	uint32_t q;
	int ok;

	if (k->rank == k->n - 1)
		usleep(50000);
	k->b->enter[k->rank] = now();
	ok = sync_ok(k, HcclBarrier(k->comm, k->st), "Barrier");
	k->b->leave[k->rank] = now();
	/* Everyone has left once we have: check after a second barrier. */
	ok = ok && sync_ok(k, HcclBarrier(k->comm, k->st), "second Barrier");
	for (q = 0; ok && q < k->n; q++)
		if (k->b->leave[k->rank] < k->b->enter[q])
			ok = fail(k, "left the barrier before rank %u arrived", q);
	return ok;
}

/* FP16/BF16/FP32 sums of fractions: within n - 1 roundings of the exact sum. */
static int case_rounding(struct rk *k)
{
	const HcclDataType ts[] = { HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_BFP16,
				    HCCL_DATA_TYPE_FP32 };
	const double ulp[] = { 1.0 / 1024, 1.0 / 128, 1.0 / 8388608 };
	const uint64_t count = 4097;
	uint32_t i, r;
	uint64_t x;
	int ok = 1;

	for (i = 0; i < N(ts); i++) {
		HcclDataType t = ts[i];
		uint64_t es = esize(t);
		unsigned char *h = malloc(count * es);
		void *s = dev_alloc(count * es), *d = dev_alloc(count * es);
		char what[64];
		int rr;

		snprintf(what, sizeof(what), "AllReduce %s sum of fractions", dtname(t));
		for (x = 0; h && x < count; x++)
			store(t, h, x, 0, (double)(mix(k->rank * 7919 + x) % 1000) / 997.0, 1);
		rr = h && s && d &&
		     !aclrtMemcpy(s, count * es, h, count * es, ACL_MEMCPY_HOST_TO_DEVICE) &&
		     sync_ok(k, HcclAllReduce(s, d, count, t, HCCL_REDUCE_SUM, k->comm, k->st),
			     what);
		free(h);
		h = rr ? dev_read(d, count * es) : NULL;
		for (x = 0; h && x < count && rr; x++) {
			double exact = 0, got = load_f(t, h, x), tol;
			unsigned char one[8];

			for (r = 0; r < k->n; r++) {
				/* Each operand as the type holds it. */
				store(t, one, 0, 0, (double)(mix(r * 7919 + x) % 1000) / 997.0, 1);
				exact += load_f(t, one, 0);
			}
			/* Each addition rounds by at most half an ulp of its result. */
			tol = (k->n - 1) * 0.5 * ulp[i] * (exact > 1 ? exact * 2 : 2) + 1e-12;
			if (fabs(got - exact) > tol)
				rr = fail(k, "%s: element %llu: %.9g, exact %.9g", what,
					  (unsigned long long)x, got, exact);
		}
		ok &= rr && (h || !rr);
		free(h);
		aclrtFree(s);
		aclrtFree(d);
	}
	return ok;
}

/* Argument checks, in CANN's order (need a live communicator). */
static int case_checks(struct rk *k)
{
	void *b = dev_alloc(64);
	int ok = 1;

#define EXPECT(call, code)							\
	do {									\
		HcclResult r_ = (call);						\
		if (r_ != (code))						\
			ok = fail(k, "%s -> %d, want %d", #call, (int)r_, (int)(code)); \
	} while (0)
	EXPECT(HcclAllReduce(b, b, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, NULL, k->st),
	       HCCL_E_PTR);
	EXPECT(HcclAllReduce(b, b, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k->comm, NULL),
	       HCCL_E_PTR);
	EXPECT(HcclAllReduce(NULL, NULL, 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k->comm, k->st),
	       HCCL_SUCCESS);
	EXPECT(HcclAllReduce(NULL, b, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k->comm, k->st),
	       HCCL_E_PTR);
	EXPECT(HcclAllReduce(b, b, 1, HCCL_DATA_TYPE_UINT8, HCCL_REDUCE_SUM, k->comm, k->st),
	       HCCL_E_NOT_SUPPORT);
	EXPECT(HcclAllReduce(b, b, 1, HCCL_DATA_TYPE_INT128, HCCL_REDUCE_SUM, k->comm, k->st),
	       HCCL_E_NOT_SUPPORT);
	EXPECT(HcclAllReduce(b, b, 1, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_RESERVED, k->comm, k->st),
	       HCCL_E_NOT_SUPPORT);
	EXPECT(HcclAllReduce(b, b, UINT64_MAX / 2, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, k->comm,
			     k->st), HCCL_E_PARA);
	EXPECT(HcclBroadcast(b, 1, HCCL_DATA_TYPE_INT8, k->n, k->comm, k->st), HCCL_E_PARA);
	EXPECT(HcclReduce(b, b, 1, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM, k->n, k->comm, k->st),
	       HCCL_E_PARA);
	EXPECT(HcclScatter(b, b, 1, HCCL_DATA_TYPE_INT8, k->n, k->comm, k->st), HCCL_E_PARA);
	EXPECT(HcclSend(b, 1, HCCL_DATA_TYPE_INT8, k->rank, k->comm, k->st), HCCL_E_PARA);
	EXPECT(HcclRecv(b, 1, HCCL_DATA_TYPE_INT8, k->n, k->comm, k->st), HCCL_E_PARA);
	EXPECT(HcclAlltoAll(b, 1, HCCL_DATA_TYPE_INT8, b, 2, HCCL_DATA_TYPE_INT8, k->comm, k->st),
	       HCCL_E_PARA);
	EXPECT(HcclAlltoAll(b, 1, HCCL_DATA_TYPE_INT8, b, 1, HCCL_DATA_TYPE_UINT8, k->comm,
			    k->st), HCCL_E_PARA);
	EXPECT(HcclAlltoAllV(b, NULL, b, HCCL_DATA_TYPE_INT8, b, b, b, HCCL_DATA_TYPE_INT8,
			     k->comm, k->st), HCCL_E_PTR);
	EXPECT(HcclAllGatherV(b, 1, b, NULL, b, HCCL_DATA_TYPE_INT8, k->comm, k->st), HCCL_E_PTR);
	EXPECT(HcclReduceScatterV(b, b, b, b, 1, HCCL_DATA_TYPE_UINT64, HCCL_REDUCE_SUM, k->comm,
				  k->st), HCCL_E_NOT_SUPPORT);
	EXPECT(HcclReduceScatterV(b, b, b, b, 1, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_PROD, k->comm,
				  k->st), HCCL_E_NOT_SUPPORT);
	EXPECT(HcclBatchSendRecv(NULL, 1, k->comm, k->st), HCCL_E_PTR);
	EXPECT(HcclBatchSendRecv((HcclSendRecvItem *)b, 0, k->comm, k->st), HCCL_SUCCESS);
	{
		HcclSendRecvItem it = { HCCL_SEND_RECV_RESERVED, b, 1, HCCL_DATA_TYPE_INT8, 0 };

		EXPECT(HcclBatchSendRecv(&it, 1, k->comm, k->st), HCCL_E_PARA);
		it = (HcclSendRecvItem){ HCCL_SEND, b, 1, HCCL_DATA_TYPE_INT8, k->n };
		EXPECT(HcclBatchSendRecv(&it, 1, k->comm, k->st), HCCL_E_PARA);
		it = (HcclSendRecvItem){ HCCL_SEND, b, 1, HCCL_DATA_TYPE_RESERVED, 0 };
		EXPECT(HcclBatchSendRecv(&it, 1, k->comm, k->st), HCCL_E_NOT_SUPPORT);
	}
	EXPECT(HcclBarrier(NULL, k->st), HCCL_E_PTR);
#undef EXPECT
	ok &= sync_ok(k, HCCL_SUCCESS, "nothing queued by the refused calls");
	aclrtFree(b);
	return ok;
}

struct kase {
	const char *name;
	int (*fn)(struct rk *k);
	int per_algo;		/* run once per algorithm */
};

static const struct kase cases[] = {
	{ "argument checks", case_checks, 0 },
	{ "AllReduce", case_allreduce, 1 },
	{ "ReduceScatter", case_reduce_scatter, 1 },
	{ "AllGather", case_allgather, 1 },
	{ "Broadcast", case_broadcast, 0 },
	{ "Reduce", case_reduce, 0 },
	{ "Scatter", case_scatter, 0 },
	{ "AlltoAll", case_alltoall, 0 },
	{ "AlltoAllV", case_alltoallv_plain, 0 },
	{ "AlltoAllVC", case_alltoallvc, 0 },
	{ "AllGatherV", case_allgatherv, 0 },
	{ "ReduceScatterV", case_reduce_scatter_v, 0 },
	{ "Send/Recv", case_send_recv, 0 },
	{ "BatchSendRecv", case_batch, 0 },
	{ "Barrier", case_barrier, 0 },
	{ "FP16/BF16/FP32 rounding", case_rounding, 0 },
};

/* ---- ranks ---- */

/* The cases this run takes part in: all, or (@algo set) the per-algorithm ones. */
static int selected(const struct kase *c, const char *algo)
{
	if (only && !strstr(c->name, only))
		return 0;
	return !algo || c->per_algo;
}

static void rank_run(struct rk *k)
{
	uint32_t i;

	for (i = 0; i < N(cases); i++) {
		if (!selected(&cases[i], k->algo))
			continue;
		k->ci = (int)i;
		k->b->ok[k->rank][i] = cases[i].fn(k);
		/* Keep the ranks in step even when a case failed half-way. */
		HcclBarrier(k->comm, k->st);
		aclrtSynchronizeStream(k->st);
	}
}

static void *thread_main(void *arg)
{
	struct rk *k = arg;

	aclrtSetDevice((int32_t)k->rank);
	if (aclrtCreateStream(&k->st) != ACL_SUCCESS) {
		fail(k, "aclrtCreateStream");
		return NULL;
	}
	rank_run(k);
	aclrtDestroyStream(k->st);
	return NULL;
}

static int run_threads(uint32_t n, struct board *b, const char *algo)
{
	int32_t devs[MAX_RANKS];
	HcclComm comms[MAX_RANKS];
	pthread_t th[MAX_RANKS];
	struct rk ks[MAX_RANKS];
	uint32_t i;

	for (i = 0; i < n; i++)
		devs[i] = (int32_t)i;
	if (HcclCommInitAll(n, devs, comms) != HCCL_SUCCESS)
		return -1;
	for (i = 0; i < n; i++) {
		ks[i] = (struct rk){ i, n, comms[i], NULL, b, 0, algo };
		pthread_create(&th[i], NULL, thread_main, &ks[i]);
	}
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < n; i++)
		HcclCommDestroy(comms[i]);
	return 0;
}

/* What rank 0 hands the other rank processes. */
struct rootbox {
	HcclRootInfo root;
	int state;		/* 0 not yet, 1 ready, -1 failed */
};

static int run_procs(uint32_t n, struct board *b, const char *algo)
{
	struct rootbox *box = mmap(NULL, sizeof(*box), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid[MAX_RANKS];
	int st, bad = 0;
	uint32_t i;

	if (box == MAP_FAILED)
		return -1;
	memset(box, 0, sizeof(*box));
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			struct rk k = { i, n, NULL, NULL, b, 0, algo };

			if (aclrtSetDevice((int32_t)i) != ACL_SUCCESS)
				_exit(2);
			/* Rank 0 makes the group: it lives as long as rank 0's process. */
			if (!i) {
				int ok = HcclGetRootInfo(&box->root) == HCCL_SUCCESS;

				__atomic_store_n(&box->state, ok ? 1 : -1, __ATOMIC_RELEASE);
				if (!ok)
					_exit(3);
			}
			while (!__atomic_load_n(&box->state, __ATOMIC_ACQUIRE))
				usleep(1000);
			if (box->state < 0 ||
			    HcclCommInitRootInfo(n, &box->root, i, &k.comm) != HCCL_SUCCESS ||
			    aclrtCreateStream(&k.st) != ACL_SUCCESS)
				_exit(4);
			rank_run(&k);
			aclrtDestroyStream(k.st);
			HcclCommDestroy(k.comm);
			_exit(0);
		}
	}
	for (i = 0; i < n; i++) {
		waitpid(pid[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = 1;
	}
	munmap(box, sizeof(*box));
	return bad ? -1 : 0;
}

/*
 * A rank killed in the middle of an AllReduce: the others' synchronize
 * fails, within 2 s of the kill (the driver fails the channels of a
 * process that is gone), not at the 60 s notify timeout.
 */
struct killbox {
	HcclRootInfo root;
	int state;		/* rank 0: 1 root info ready, -1 failed */
	int queued;		/* ranks whose AllReduce is queued */
	double killed;		/* when the victim was killed */
	double took[MAX_RANKS];	/* from the kill to the synchronize's return */
	int failed[MAX_RANKS];	/* the synchronize failed */
};

static void test_killed(uint32_t n)
{
	struct killbox *box = mmap(NULL, sizeof(*box), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	uint64_t count = 4 << 20;
	pid_t pid[MAX_RANKS];
	uint32_t i, victim = n - 1;
	int st, ok = 1;

	if (box == MAP_FAILED) {
		tap_ok(0, "rank killed: mmap");
		return;
	}
	memset(box, 0, sizeof(*box));
	for (i = 0; i < n; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			HcclComm comm;
			aclrtStream st2;
			void *b;

			if (aclrtSetDevice((int32_t)i) != ACL_SUCCESS)
				_exit(2);
			if (!i)
				__atomic_store_n(&box->state,
						 HcclGetRootInfo(&box->root) == HCCL_SUCCESS ? 1 : -1,
						 __ATOMIC_RELEASE);
			while (!__atomic_load_n(&box->state, __ATOMIC_ACQUIRE))
				usleep(1000);
			if (box->state < 0 || HcclCommInitRootInfo(n, &box->root, i, &comm) ||
			    aclrtCreateStream(&st2) || !(b = dev_alloc(count * 4)))
				_exit(3);
			/* Channels first: the AllReduce is then only waiting for data. */
			if (HcclBarrier(comm, st2) || aclrtSynchronizeStream(st2))
				_exit(4);
			if (HcclAllReduce(b, b, count, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm,
					  st2))
				_exit(5);
			__atomic_add_fetch(&box->queued, 1, __ATOMIC_SEQ_CST);
			if (i == victim)
				pause();
			box->failed[i] = aclrtSynchronizeStream(st2) != ACL_SUCCESS;
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			box->took[i] = now() - box->killed;
			_exit(0);
		}
	}
	while (__atomic_load_n(&box->queued, __ATOMIC_SEQ_CST) < (int)n)
		usleep(1000);
	usleep(200000);
	box->killed = now();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	kill(pid[victim], SIGKILL);
	for (i = 0; i < n; i++) {
		waitpid(pid[i], &st, 0);
		if (i == victim)
			continue;
		if (!WIFEXITED(st) || WEXITSTATUS(st) || !box->failed[i] || box->took[i] > 2.0) {
			printf("# rank %u: exit %d, synchronize %s after %.3f s\n", i,
			       WIFEXITED(st) ? WEXITSTATUS(st) : -1,
			       box->failed[i] ? "failed" : "succeeded", box->took[i]);
			ok = 0;
		}
	}
	tap_ok(ok, "rank %u of %u killed during an AllReduce: the others fail within 2 s",
	       victim, n);
	munmap(box, sizeof(*box));
}

/*
 * AlltoAllV as a communicator's first operation, rank 2 with nothing to
 * send or receive: it returns at once and then waits for the others
 * outside HCCL. Ranks 0 and 1 must not wait for a channel to rank 2
 * (before the fix they did, until HCCL_CONNECT_TIMEOUT).
 */
struct idlebox {
	HcclRootInfo root;
	int state, done;
	int ok[3];
};

static void test_alltoallv_idle_rank(void)
{
	struct idlebox *box = mmap(NULL, sizeof(*box), PROT_READ | PROT_WRITE,
				   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid_t pid[3];
	uint32_t i;
	int st, ok = 1;

	if (box == MAP_FAILED) {
		tap_ok(0, "AlltoAllV idle rank: mmap");
		return;
	}
	memset(box, 0, sizeof(*box));
	for (i = 0; i < 3; i++) {
		pid[i] = fork();
		if (!pid[i]) {
			uint64_t sc[3] = { 0 }, sd[3] = { 0 }, rc[3] = { 0 }, rd[3] = { 0 };
			HcclComm comm;
			aclrtStream st2;
			void *s = NULL, *d = NULL;
			HcclResult r;

			/* A wait for rank 2's channel would fail in 10 s, not hang. */
			setenv("HCCL_CONNECT_TIMEOUT", "10", 1);
			if (aclrtSetDevice((int32_t)i) != ACL_SUCCESS)
				_exit(2);
			if (!i)
				__atomic_store_n(&box->state,
						 HcclGetRootInfo(&box->root) == HCCL_SUCCESS ? 1 : -1,
						 __ATOMIC_RELEASE);
			while (!__atomic_load_n(&box->state, __ATOMIC_ACQUIRE))
				usleep(1000);
			if (box->state < 0 || HcclCommInitRootInfo(3, &box->root, i, &comm) ||
			    aclrtCreateStream(&st2))
				_exit(3);
			if (i < 2) {
				/* 0 and 1 swap 1000 int32; 2 takes no part. */
				sc[1 - i] = rc[1 - i] = 1000;
				s = dev_alloc(4000);
				d = dev_alloc(4000);
			}
			r = HcclAlltoAllV(s, sc, sd, HCCL_DATA_TYPE_INT32, d, rc, rd,
					  HCCL_DATA_TYPE_INT32, comm, st2);
			box->ok[i] = r == HCCL_SUCCESS && aclrtSynchronizeStream(st2) == ACL_SUCCESS;
			if (i < 2)
				__atomic_add_fetch(&box->done, 1, __ATOMIC_SEQ_CST);
			else
				while (__atomic_load_n(&box->done, __ATOMIC_SEQ_CST) < 2)
					usleep(1000);
			HcclCommDestroy(comm);
			_exit(0);
		}
	}
	for (i = 0; i < 3; i++) {
		waitpid(pid[i], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) || !box->ok[i]) {
			printf("# rank %u: exit %d, AlltoAllV %s\n", i,
			       WIFEXITED(st) ? WEXITSTATUS(st) : -1, box->ok[i] ? "ok" : "failed");
			ok = 0;
		}
	}
	tap_ok(ok, "AlltoAllV first, a rank with nothing to exchange returns and nobody waits for it");
	munmap(box, sizeof(*box));
}

static void report(uint32_t n, const char *mode, const char *algo, struct board *b, int ret)
{
	uint32_t i, r;

	for (i = 0; i < N(cases); i++) {
		int ok = !ret;

		if (!selected(&cases[i], algo))
			continue;
		for (r = 0; r < n; r++) {
			if (!b->ok[r][i]) {
				if (ok)
					printf("# rank %u: %s\n", r,
					       b->why[r][i][0] ? b->why[r][i] : "did not finish");
				ok = 0;
			}
		}
		tap_ok(ok, "%s, %u rank%s as %s%s%s", cases[i].name, n, n == 1 ? "" : "s", mode,
		       algo ? ", algorithm " : "", algo ? algo : "");
	}
}

static void run(uint32_t n, int procs, const char *algo)
{
	struct board *b = mmap(NULL, sizeof(*b), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int ret;

	if (b == MAP_FAILED) {
		tap_ok(0, "mmap");
		return;
	}
	memset(b, 0, sizeof(*b));
	if (algo)
		setenv("HCCLT_COLL_ALGO", algo, 1);
	else
		unsetenv("HCCLT_COLL_ALGO");
	ret = procs ? run_procs(n, b, algo) : run_threads(n, b, algo);
	if (ret)
		printf("# %u ranks as %s: a rank did not start or finish\n", n,
		       procs ? "processes" : "threads");
	report(n, procs ? "processes" : "threads", algo, b, ret);
	munmap(b, sizeof(*b));
}

int main(int argc, char **argv)
{
	uint32_t ranks[8] = { 1, 2, 3, 5, 8 }, nr = 5, i, ndev = 0;
	int opt, threads = 1, procs = 1;
	char *s, *tok;

	while ((opt = getopt(argc, argv, "r:m:qc:")) != -1) {
		switch (opt) {
		case 'r':
			nr = 0;
			s = optarg;
			while ((tok = strsep(&s, ",")) && nr < 8)
				ranks[nr++] = (uint32_t)strtoul(tok, NULL, 10);
			break;
		case 'm':
			threads = !strcmp(optarg, "threads") || !strcmp(optarg, "both");
			procs = !strcmp(optarg, "procs") || !strcmp(optarg, "both");
			break;
		case 'q':
			quick = 1;
			break;
		case 'c':
			only = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-r RANKS,...] [-m threads|procs|both] [-q] [-c CASE]\n",
				argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	setenv("HCCL_BUFFSIZE", "1", 1);
	/* A lost rank must not hold the others for half an hour. */
	setenv("HCCL_EXEC_TIMEOUT", "60", 1);
	/* The device count, from a child: this process opens no device itself. */
	{
		pid_t p = fork();
		int st;

		if (!p) {
			uint32_t c = 0;

			aclrtGetDeviceCount(&c);
			_exit((int)(c > 100 ? 100 : c));
		}
		waitpid(p, &st, 0);
		ndev = WIFEXITED(st) ? (uint32_t)WEXITSTATUS(st) : 0;
	}
	if (!ndev) {
		printf("1..0 # SKIP no hcclthread device\n");
		return 4;
	}
	for (i = 0; i < nr; i++) {
		if (ranks[i] > ndev || ranks[i] > MAX_RANKS || !ranks[i]) {
			tap_skip("%u ranks: %u devices", ranks[i], ndev);
			continue;
		}
		if (threads) {
			run(ranks[i], 0, NULL);
			if (ranks[i] == 3 || (nr == 1 && ranks[i] > 1)) {
				int q = quick;

				/* Quick counts: the automatic runs take both at any size. */
				quick = 1;
				run(ranks[i], 0, "mesh");
				run(ranks[i], 0, "ring");
				quick = q;
			}
		}
		if (procs)
			run(ranks[i], 1, NULL);
	}
	if (procs && !only && ndev >= 2)
		test_killed(ndev < 3 ? ndev : 3);
	if (procs && !only && ndev >= 3)
		test_alltoallv_idle_rank();
	return tap_done();
}
