// SPDX-License-Identifier: MIT
/*
 * hcclt-bench-coll: HCCL's collectives (libhccl over libhcclthread) against
 * Open MPI's on host buffers of the same size, in the same run, one
 * process per card, launched by mpirun:
 *
 *   mpirun --allow-run-as-root --oversubscribe -n 8 hcclt-bench-coll \
 *       [-b MIN] [-e MAX] [-f FACTOR] [-o OP] [-d DTYPE] [-n ITERS]
 *       [-w WARMUP] [-c 0|1] [-t COLLS] [-T SECONDS] [-a] [-l ITERS]
 *       [-m BYTES] [-O FILE.md] [-C FILE.csv] [-H TITLE]
 *
 *   -b, -e, -f  sizes from MIN to MAX bytes, each FACTOR times the last
 *               (K, M, G suffixes: KiB, MiB, GiB); default 64M .. 64M, x2
 *   -o OP       sum (default), prod, max, min
 *   -d DTYPE    fp32 (default; float), fp16 (half), bf16, fp64 (double),
 *               int8, int16, int32, int64, uint8, uint16, uint32, uint64
 *   -n ITERS    timed iterations per size and side (default 20)
 *   -w WARMUP   untimed iterations before them (default 5)
 *   -c 0|1      check every rank's result once per size and side (default 1)
 *   -t COLLS    comma-separated: allreduce, allgather, reducescatter,
 *               alltoall (default all four)
 *   -T SECONDS  time budget per size and side: when one call (the first
 *               warm-up, after the checked call; the slowest rank's) takes
 *               longer than SECONDS / ITERS, fewer iterations run (at
 *               least 1) and fewer warm-ups; the counts are printed.
 *               0 (default): always ITERS and WARMUP.
 *   -a          enqueue the ITERS HCCL calls, then synchronize the stream
 *               once (default: synchronize after every call, as the
 *               blocking MPI call completes)
 *   -l ITERS    the 8-byte AllReduce latency of both, ITERS iterations
 *               (default 100; 0: not measured)
 *   -m BYTES    the simulated card's limit: rank 0 alone, aclrtMemcpy
 *               device to device of BYTES (default 64M; 0: not measured)
 *   -O FILE.md  append a Markdown table to FILE
 *   -C FILE.csv append one CSV line per row to FILE (a header first when
 *               the file is new)
 *   -H TITLE    the Markdown table's heading
 *
 * Sizes and bandwidths as nccl-tests define them: SIZE is AllReduce's
 * buffer, AllGather's received total, ReduceScatter's sent total and
 * AlltoAll's total per rank (each rank's chunk SIZE / ranks); algbw is
 * SIZE over the time of one call; busbw is algbw times 2(n-1)/n for
 * AllReduce and (n-1)/n for the other three; GB/s are 1e9 bytes a second.
 * The time of one call is the average over the timed iterations on each
 * rank, and the slowest rank's average is reported.
 *
 * Each rank takes the card of its rank number (aclrtSetDevice(rank)); rank
 * 0 gets the root info (HcclGetRootInfo), MPI_Bcast hands it to the
 * others, and every rank joins with HcclCommInitRootInfo. HCCL runs on
 * aclrtMalloc() buffers with one aclrtStream; Open MPI on malloc()
 * buffers with MPI_Allreduce, MPI_Allgather, MPI_Reduce_scatter_block and
 * MPI_Alltoall. Buffers are allocated for one size and side and freed
 * after it, so that the largest size needs one side's buffers only. The
 * ranks that do not take part in a step wait in an MPI_Ibarrier polled
 * every 200 us, so that they do not take the CPU from those that do.
 *
 * Exit: 0 when every measurement ran and every check passed, 1 otherwise,
 * 2 usage. Never part of make check.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"

enum coll { ALLREDUCE, ALLGATHER, REDUCESCATTER, ALLTOALL, NCOLL };
enum side { HCCL, MPI, NSIDE };
enum kind { K_INT, K_UINT, K_F16, K_BF16, K_F32, K_F64 };

static const char *const coll_name[NCOLL] = {
	"AllReduce", "AllGather", "ReduceScatter", "AlltoAll"
};
static const char *const coll_arg[NCOLL] = {
	"allreduce", "allgather", "reducescatter", "alltoall"
};

struct dtype {
	const char *name, *alias;
	HcclDataType hccl;
	enum kind kind;
	size_t size;
};

static const struct dtype dtypes[] = {
	{ "fp32", "float", HCCL_DATA_TYPE_FP32, K_F32, 4 },
	{ "fp16", "half", HCCL_DATA_TYPE_FP16, K_F16, 2 },
	{ "bf16", "bfloat16", HCCL_DATA_TYPE_BFP16, K_BF16, 2 },
	{ "fp64", "double", HCCL_DATA_TYPE_FP64, K_F64, 8 },
	{ "int8", NULL, HCCL_DATA_TYPE_INT8, K_INT, 1 },
	{ "int16", NULL, HCCL_DATA_TYPE_INT16, K_INT, 2 },
	{ "int32", NULL, HCCL_DATA_TYPE_INT32, K_INT, 4 },
	{ "int64", NULL, HCCL_DATA_TYPE_INT64, K_INT, 8 },
	{ "uint8", NULL, HCCL_DATA_TYPE_UINT8, K_UINT, 1 },
	{ "uint16", NULL, HCCL_DATA_TYPE_UINT16, K_UINT, 2 },
	{ "uint32", NULL, HCCL_DATA_TYPE_UINT32, K_UINT, 4 },
	{ "uint64", NULL, HCCL_DATA_TYPE_UINT64, K_UINT, 8 },
};

struct redop {
	const char *name;
	HcclReduceOp hccl;
};

static const struct redop redops[] = {
	{ "sum", HCCL_REDUCE_SUM },
	{ "prod", HCCL_REDUCE_PROD },
	{ "max", HCCL_REDUCE_MAX },
	{ "min", HCCL_REDUCE_MIN },
};

/* The run's settings and this rank's objects. */
static struct {
	uint64_t min, max, memcpy_bytes;
	double factor, budget;
	int iters, warmup, check, async, lat_iters;
	int colls[NCOLL];
	const struct dtype *t;
	const struct redop *op;
	const char *md, *csv, *title;
	int rank, nranks;
	HcclComm comm;
	aclrtStream stream;
	int failed; /* a measurement failed or a check found a wrong element */
} g = {
	.min = 64 << 20, .max = 64 << 20, .memcpy_bytes = 64 << 20,
	.factor = 2, .iters = 20, .warmup = 5, .check = 1, .lat_iters = 100,
};

/* One measured row: a collective at one size, both sides. */
struct row {
	enum coll coll;
	uint64_t bytes, count; /* SIZE as nccl-tests; the count of the call */
	int iters[NSIDE];
	double sec[NSIDE];  /* one call, slowest rank; < 0: not measured */
	long wrong[NSIDE];  /* elements wrong, all ranks; -1: not checked */
	char err[NSIDE][96]; /* why a side was not measured; "" when it was */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * A barrier whose waiters sleep: MPI_Barrier polls (and, oversubscribed,
 * yields), which would take the CPU from a rank that works alone, or from
 * the copy engine's kernel worker.
 */
static void quiet_barrier(void)
{
	struct timespec ts = { 0, 200 * 1000 };
	MPI_Request req;
	int done = 0;

	MPI_Ibarrier(MPI_COMM_WORLD, &req);
	for (;;) {
		MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		if (done)
			break;
		nanosleep(&ts, NULL);
	}
}

static double max_all(double v)
{
	double m;

	MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	return m;
}

static long sum_all(long v)
{
	long s;

	MPI_Allreduce(&v, &s, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	return s;
}

static int any_all(int v)
{
	int s;

	MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	return s;
}

/* ---- element values: small integers, exact in every type ---- */

static uint16_t f32_to_f16(float f)
{
	uint32_t x, sign, mant;
	int exp;

	memcpy(&x, &f, sizeof(x));
	sign = (x >> 16) & 0x8000;
	exp = (int)((x >> 23) & 0xff) - 127 + 15;
	mant = x & 0x7fffff;
	if (exp <= 0)
		return (uint16_t)sign; /* the values used here are never tiny */
	if (exp >= 31)
		return (uint16_t)(sign | 0x7c00);
	mant += 0x1000; /* round to nearest */
	if (mant & 0x800000) {
		mant = 0;
		exp++;
		if (exp >= 31)
			return (uint16_t)(sign | 0x7c00);
	}
	return (uint16_t)(sign | ((uint32_t)exp << 10) | (mant >> 13));
}

static float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f;
	uint32_t mant = h & 0x3ff, x;
	float f;

	if (exp == 0)
		return sign ? -ldexpf((float)mant, -24) : ldexpf((float)mant, -24);
	if (exp == 31)
		x = sign | 0x7f800000 | (mant << 13);
	else
		x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
	memcpy(&f, &x, sizeof(f));
	return f;
}

static void put(void *buf, size_t i, double v)
{
	float f = (float)v;
	uint32_t x;

	switch (g.t->kind) {
	case K_F32:
		((float *)buf)[i] = f;
		return;
	case K_F64:
		((double *)buf)[i] = v;
		return;
	case K_F16:
		((uint16_t *)buf)[i] = f32_to_f16(f);
		return;
	case K_BF16:
		memcpy(&x, &f, sizeof(x));
		((uint16_t *)buf)[i] = (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
		return;
	case K_INT:
	case K_UINT:
		break;
	}
	switch (g.t->size) {
	case 1:
		((uint8_t *)buf)[i] = (uint8_t)(int64_t)v;
		return;
	case 2:
		((uint16_t *)buf)[i] = (uint16_t)(int64_t)v;
		return;
	case 4:
		((uint32_t *)buf)[i] = (uint32_t)(int64_t)v;
		return;
	default:
		((uint64_t *)buf)[i] = (uint64_t)(int64_t)v;
	}
}

static double get(const void *buf, size_t i)
{
	uint32_t x;
	float f;

	switch (g.t->kind) {
	case K_F32:
		return ((const float *)buf)[i];
	case K_F64:
		return ((const double *)buf)[i];
	case K_F16:
		return f16_to_f32(((const uint16_t *)buf)[i]);
	case K_BF16:
		x = (uint32_t)((const uint16_t *)buf)[i] << 16;
		memcpy(&f, &x, sizeof(f));
		return f;
	case K_INT:
		switch (g.t->size) {
		case 1: return ((const int8_t *)buf)[i];
		case 2: return ((const int16_t *)buf)[i];
		case 4: return ((const int32_t *)buf)[i];
		default: return (double)((const int64_t *)buf)[i];
		}
	case K_UINT:
		break;
	}
	switch (g.t->size) {
	case 1: return ((const uint8_t *)buf)[i];
	case 2: return ((const uint16_t *)buf)[i];
	case 4: return ((const uint32_t *)buf)[i];
	default: return (double)((const uint64_t *)buf)[i];
	}
}

/*
 * Element @i of rank @r's send buffer: 1..5 (so a sum of 8 ranks is at
 * most 40, exact in int8 and fp16); for a product 2 on one rank and 1 on
 * the others. Periodic in @i with period 5 * ranks.
 */
static double value(int r, uint64_t i)
{
	if (g.op->hccl == HCCL_REDUCE_PROD)
		return i % (uint64_t)g.nranks == (uint64_t)r ? 2 : 1;
	return (double)(((uint64_t)r * 3 + i) % 5 + 1);
}

static double reduced(uint64_t i)
{
	double a = value(0, i), v;
	int r;

	for (r = 1; r < g.nranks; r++) {
		v = value(r, i);
		switch (g.op->hccl) {
		case HCCL_REDUCE_PROD: a *= v; break;
		case HCCL_REDUCE_MAX: a = v > a ? v : a; break;
		case HCCL_REDUCE_MIN: a = v < a ? v : a; break;
		default: a += v; break;
		}
	}
	return a;
}

/* What element @i of this rank's receive buffer must hold. */
static double expected(enum coll c, uint64_t count, uint64_t i)
{
	uint64_t j = i / count, k = i % count;

	switch (c) {
	case ALLREDUCE:
		return reduced(i);
	case ALLGATHER:
		return value((int)j, k);
	case REDUCESCATTER:
		return reduced((uint64_t)g.rank * count + i);
	default: /* ALLTOALL: block j came from rank j, its block for us */
		return value((int)j, (uint64_t)g.rank * count + k);
	}
}

/* Element counts of the send and receive buffers. */
static uint64_t send_elems(enum coll c, uint64_t count)
{
	return c == ALLREDUCE || c == ALLGATHER ? count : count * (uint64_t)g.nranks;
}

static uint64_t recv_elems(enum coll c, uint64_t count)
{
	return c == ALLREDUCE || c == REDUCESCATTER ? count : count * (uint64_t)g.nranks;
}

static double bus_factor(enum coll c)
{
	double n = g.nranks;

	return c == ALLREDUCE ? 2 * (n - 1) / n : (n - 1) / n;
}

/* Fill @n elements with this rank's values: one period, then doubled. */
static void fill_host(void *buf, uint64_t n)
{
	uint64_t period = 5 * (uint64_t)g.nranks, i, done;
	size_t tsz = g.t->size;

	for (i = 0; i < n && i < period; i++)
		put(buf, i, value(g.rank, i));
	for (done = i; done < n; done *= 2) {
		uint64_t k = done < n - done ? done : n - done;

		memcpy((char *)buf + done * tsz, buf, k * tsz);
	}
}

/*
 * Count the wrong elements among @n elements of the receive buffer, the
 * first at element @off, in @buf. The expected values are written into
 * @scratch (@cap elements) a segment at a time: within a block of the
 * receive buffer (one rank's part, or all of it) they repeat every 5 x
 * ranks elements, so one period is computed and doubled, and a segment
 * is compared with memcmp(); only a segment that differs is compared
 * element by element, to count.
 */
static long check_range(enum coll c, uint64_t count, const void *buf, uint64_t off,
			uint64_t n, void *scratch, uint64_t cap)
{
	uint64_t period = 5 * (uint64_t)g.nranks, blk, end, len, i, done;
	int blocks = c == ALLGATHER || c == ALLTOALL;
	size_t tsz = g.t->size;
	const char *p = buf;
	long wrong = 0;

	while (n) {
		/* This segment: up to the end of its block and of @scratch. */
		blk = blocks ? off / count : 0;
		end = blocks ? (blk + 1) * count : off + n;
		len = end - off < n ? end - off : n;
		len = len < cap ? len : cap;
		for (i = 0; i < len && i < period; i++)
			put(scratch, i, expected(c, count, off + i));
		for (done = i; done < len; done *= 2) {
			uint64_t k = done < len - done ? done : len - done;

			memcpy((char *)scratch + done * tsz, scratch, k * tsz);
		}
		if (memcmp(p, scratch, len * tsz)) {
			for (i = 0; i < len; i++) {
				if (get(p, i) == expected(c, count, off + i))
					continue;
				if (!wrong)
					fprintf(stderr, "rank %d: %s element %llu is %g, not %g\n",
						g.rank, coll_name[c],
						(unsigned long long)(off + i), get(p, i),
						expected(c, count, off + i));
				wrong++;
			}
		}
		p += len * tsz;
		off += len;
		n -= len;
	}
	return wrong;
}

/* Device buffers are filled and read through a staging buffer of this size. */
#define STAGE_BYTES (16u << 20)

static int fill_dev(void *dev, uint64_t n)
{
	size_t tsz = g.t->size, period = 5 * (size_t)g.nranks;
	size_t chunk = (STAGE_BYTES / tsz / period) * period, k;
	uint64_t off;
	void *stage;
	int ret = 0;

	if (chunk == 0)
		chunk = period;
	stage = malloc(chunk * tsz);
	if (!stage)
		return -1;
	fill_host(stage, chunk);
	/* Every chunk starts at a multiple of the period: the same values. */
	for (off = 0; off < n && !ret; off += k) {
		k = n - off < chunk ? (size_t)(n - off) : chunk;
		if (aclrtMemcpy((char *)dev + off * tsz, k * tsz, stage, k * tsz,
				ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
			ret = -1;
	}
	free(stage);
	return ret;
}

static long check_dev(enum coll c, uint64_t count, const void *dev, uint64_t n)
{
	size_t tsz = g.t->size, chunk = STAGE_BYTES / tsz, k;
	void *stage = malloc(STAGE_BYTES), *scratch = malloc(STAGE_BYTES);
	uint64_t off;
	long wrong = 0;

	if (!stage || !scratch) {
		free(stage);
		free(scratch);
		return (long)n;
	}
	for (off = 0; off < n; off += k) {
		k = n - off < chunk ? (size_t)(n - off) : chunk;
		if (aclrtMemcpy(stage, k * tsz, (const char *)dev + off * tsz, k * tsz,
				ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
			wrong += (long)k;
			continue;
		}
		wrong += check_range(c, count, stage, off, k, scratch, chunk);
	}
	free(stage);
	free(scratch);
	return wrong;
}

static long check_host(enum coll c, uint64_t count, const void *buf, uint64_t n)
{
	void *scratch = malloc(STAGE_BYTES);
	long wrong;

	if (!scratch)
		return (long)n;
	wrong = check_range(c, count, buf, 0, n, scratch, STAGE_BYTES / g.t->size);
	free(scratch);
	return wrong;
}

/* ---- the two sides ---- */

static MPI_Datatype mpi_type(int reduce)
{
	switch (g.t->kind) {
	case K_F32: return MPI_FLOAT;
	case K_F64: return MPI_DOUBLE;
	case K_F16:
	case K_BF16:
		/* Open MPI has no 16-bit float: moved as such, never reduced. */
		return reduce ? MPI_DATATYPE_NULL : MPI_UINT16_T;
	case K_INT:
		switch (g.t->size) {
		case 1: return MPI_INT8_T;
		case 2: return MPI_INT16_T;
		case 4: return MPI_INT32_T;
		default: return MPI_INT64_T;
		}
	case K_UINT:
		break;
	}
	switch (g.t->size) {
	case 1: return MPI_UINT8_T;
	case 2: return MPI_UINT16_T;
	case 4: return MPI_UINT32_T;
	default: return MPI_UINT64_T;
	}
}

static MPI_Op mpi_op(void)
{
	switch (g.op->hccl) {
	case HCCL_REDUCE_PROD: return MPI_PROD;
	case HCCL_REDUCE_MAX: return MPI_MAX;
	case HCCL_REDUCE_MIN: return MPI_MIN;
	default: return MPI_SUM;
	}
}

static int mpi_call(enum coll c, const void *s, void *r, uint64_t count)
{
	MPI_Datatype mt = mpi_type(c == ALLREDUCE || c == REDUCESCATTER);
	int n = (int)count;

	switch (c) {
	case ALLREDUCE:
		return MPI_Allreduce(s, r, n, mt, mpi_op(), MPI_COMM_WORLD);
	case ALLGATHER:
		return MPI_Allgather(s, n, mt, r, n, mt, MPI_COMM_WORLD);
	case REDUCESCATTER:
		return MPI_Reduce_scatter_block(s, r, n, mt, mpi_op(), MPI_COMM_WORLD);
	default:
		return MPI_Alltoall(s, n, mt, r, n, mt, MPI_COMM_WORLD);
	}
}

/* One HCCL call, queued on the stream; HCCL_SUCCESS or its error. */
static HcclResult hccl_call(enum coll c, void *s, void *r, uint64_t count)
{
	HcclDataType dt = g.t->hccl;

	switch (c) {
	case ALLREDUCE:
		return HcclAllReduce(s, r, count, dt, g.op->hccl, g.comm, g.stream);
	case ALLGATHER:
		return HcclAllGather(s, r, count, dt, g.comm, g.stream);
	case REDUCESCATTER:
		return HcclReduceScatter(s, r, count, dt, g.op->hccl, g.comm, g.stream);
	default:
		return HcclAlltoAll(s, count, dt, r, count, dt, g.comm, g.stream);
	}
}

/* Run @n calls of one side; 0, or -1 with *err set. */
static int run_calls(enum side sd, enum coll c, void *s, void *r, uint64_t count, int n,
		     const char **err)
{
	static char msg[96];
	HcclResult hr;
	aclError ar;
	int i;

	for (i = 0; i < n; i++) {
		if (sd == MPI) {
			if (mpi_call(c, s, r, count) != MPI_SUCCESS) {
				*err = "MPI error";
				return -1;
			}
			continue;
		}
		hr = hccl_call(c, s, r, count);
		if (hr != HCCL_SUCCESS) {
			snprintf(msg, sizeof(msg), "Hccl%s: %s", coll_name[c], HcclGetErrorString(hr));
			*err = msg;
			return -1;
		}
		if (!g.async || i == n - 1) {
			ar = aclrtSynchronizeStream(g.stream);
			if (ar != ACL_SUCCESS) {
				snprintf(msg, sizeof(msg), "aclrtSynchronizeStream: %d", (int)ar);
				*err = msg;
				return -1;
			}
		}
	}
	return 0;
}

/*
 * Allocate, fill, check once, warm up and time one side of a row. Every
 * rank calls it with the same arguments; it returns with all ranks agreed
 * on the outcome.
 */
static void measure(struct row *rw, enum side sd, int iters, int warmup)
{
	enum coll c = rw->coll;
	uint64_t ns = send_elems(c, rw->count), nr = recv_elems(c, rw->count);
	size_t tsz = g.t->size;
	void *s = NULL, *r = NULL;
	const char *err = NULL;
	double t0, t1, first;
	int bad = 0, k, w;

	rw->sec[sd] = -1;
	rw->wrong[sd] = -1;
	rw->iters[sd] = 0;
	if (sd == MPI && mpi_type(c == ALLREDUCE || c == REDUCESCATTER) == MPI_DATATYPE_NULL) {
		snprintf(rw->err[sd], sizeof(rw->err[sd]), "n/a: no %s in MPI", g.t->name);
		return;
	}
	if (sd == HCCL) {
		if (aclrtMalloc(&s, ns * tsz, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
		    aclrtMalloc(&r, nr * tsz, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
			err = "aclrtMalloc failed";
			bad = 1;
		} else if (fill_dev(s, ns)) {
			err = "aclrtMemcpy to the device failed";
			bad = 1;
		}
	} else {
		s = malloc(ns * tsz);
		r = malloc(nr * tsz);
		if (!s || !r) {
			err = "out of memory";
			bad = 1;
		} else {
			fill_host(s, ns);
			memset(r, 0, nr * tsz);
		}
	}
	if (any_all(bad))
		goto out;

	/*
	 * The first call, checked (-c): it also bears what is done once (a
	 * kernel loaded, a channel made), so it is not the one timed for -T.
	 */
	quiet_barrier();
	t0 = now();
	bad = run_calls(sd, c, s, r, rw->count, 1, &err) != 0;
	first = max_all(now() - t0);
	if (any_all(bad))
		goto out;
	if (g.check) {
		rw->wrong[sd] = sum_all(sd == HCCL ? check_dev(c, rw->count, r, nr) :
					check_host(c, rw->count, r, nr));
		if (rw->wrong[sd])
			g.failed = 1;
	}
	/* The first warm-up call, timed: it sets the iterations under -T. */
	if (warmup > 0) {
		quiet_barrier();
		t0 = now();
		bad = run_calls(sd, c, s, r, rw->count, 1, &err) != 0;
		first = max_all(now() - t0);
		if (any_all(bad))
			goto out;
	}
	k = iters;
	w = warmup - 1;
	if (g.budget > 0 && first * iters > g.budget) {
		k = (int)(g.budget / first);
		k = k < 1 ? 1 : k;
		w = w < k / 4 ? w : k / 4;
	}
	bad = w > 0 && run_calls(sd, c, s, r, rw->count, w, &err) != 0;
	if (any_all(bad))
		goto out;

	quiet_barrier();
	t0 = now();
	bad = run_calls(sd, c, s, r, rw->count, k, &err) != 0;
	t1 = now();
	if (any_all(bad))
		goto out;
	rw->sec[sd] = max_all((t1 - t0) / k);
	rw->iters[sd] = k;
out:
	if (any_all(err != NULL)) {
		int first_err = g.rank == 0 && err;

		/*
		 * Rank 0 names its error in the row; another rank says what went
		 * wrong on stderr only when rank 0 saw nothing wrong itself.
		 */
		MPI_Bcast(&first_err, 1, MPI_INT, 0, MPI_COMM_WORLD);
		snprintf(rw->err[sd], sizeof(rw->err[sd]), "%s",
			 err ? err : "failed on another rank");
		if (err && g.rank && !first_err)
			fprintf(stderr, "rank %d: %s %s: %s\n", g.rank, sd == HCCL ? "HCCL" : "MPI",
				coll_name[c], err);
		g.failed = 1;
	}
	if (sd == HCCL) {
		if (s)
			aclrtFree(s);
		if (r)
			aclrtFree(r);
	} else {
		free(s);
		free(r);
	}
	quiet_barrier();
}

/* ---- output ---- */

static const char *fmt_size(char *b, size_t n, uint64_t v)
{
	if (v >= (1u << 30) && !(v % (1u << 30)))
		snprintf(b, n, "%llu GiB", (unsigned long long)(v >> 30));
	else if (v >= (1u << 20) && !(v % (1u << 20)))
		snprintf(b, n, "%llu MiB", (unsigned long long)(v >> 20));
	else if (v >= 1024 && !(v % 1024))
		snprintf(b, n, "%llu KiB", (unsigned long long)(v >> 10));
	else
		snprintf(b, n, "%llu B", (unsigned long long)v);
	return b;
}

static const char *fmt_time(char *b, size_t n, double sec)
{
	if (sec < 0)
		snprintf(b, n, "-");
	else if (sec < 1e-3)
		snprintf(b, n, "%.1f us", sec * 1e6);
	else if (sec < 1)
		snprintf(b, n, "%.2f ms", sec * 1e3);
	else
		snprintf(b, n, "%.3f s", sec);
	return b;
}

static double algbw(const struct row *rw, enum side sd)
{
	return rw->sec[sd] > 0 ? (double)rw->bytes / rw->sec[sd] / 1e9 : -1;
}

static double busbw(const struct row *rw, enum side sd)
{
	return rw->sec[sd] > 0 ? algbw(rw, sd) * bus_factor(rw->coll) : -1;
}

static const char *fmt_bw(char *b, size_t n, double gbs)
{
	if (gbs < 0)
		snprintf(b, n, "-");
	else if (gbs < 0.1)
		snprintf(b, n, "%.4f", gbs);
	else
		snprintf(b, n, "%.3f", gbs);
	return b;
}

static const char *fmt_ratio(char *b, size_t n, double num, double den)
{
	if (num < 0 || den <= 0)
		snprintf(b, n, "-");
	else if (num / den < 0.095)
		snprintf(b, n, "%.2gx", num / den); /* two significant digits */
	else
		snprintf(b, n, "%.2fx", num / den);
	return b;
}

static const char *fmt_check(char *b, size_t n, const struct row *rw, enum side sd)
{
	if (rw->err[sd][0])
		snprintf(b, n, "%s", rw->err[sd]);
	else if (rw->wrong[sd] < 0)
		snprintf(b, n, "-");
	else if (rw->wrong[sd] == 0)
		snprintf(b, n, "ok");
	else
		snprintf(b, n, "%ld wrong", rw->wrong[sd]);
	return b;
}

static void print_row(const struct row *rw, double memcpy_gbs)
{
	char sz[32], t[2][32], a[2][32], bb[2][32], ro[32], rm[32], ck[2][96];
	int sd;

	for (sd = 0; sd < NSIDE; sd++) {
		fmt_time(t[sd], sizeof(t[sd]), rw->sec[sd]);
		fmt_bw(a[sd], sizeof(a[sd]), algbw(rw, sd));
		fmt_bw(bb[sd], sizeof(bb[sd]), busbw(rw, sd));
		fmt_check(ck[sd], sizeof(ck[sd]), rw, sd);
	}
	printf("%-13s %10s %12llu | %4d %10s %8s %8s %-6s | %4d %10s %8s %8s %-6s | %7s %7s\n",
	       coll_name[rw->coll], fmt_size(sz, sizeof(sz), rw->bytes),
	       (unsigned long long)rw->count, rw->iters[HCCL], t[HCCL], a[HCCL], bb[HCCL],
	       rw->err[HCCL][0] ? "-" : ck[HCCL], rw->iters[MPI], t[MPI], a[MPI], bb[MPI],
	       rw->err[MPI][0] ? "-" : ck[MPI],
	       fmt_ratio(ro, sizeof(ro), busbw(rw, HCCL), busbw(rw, MPI)),
	       fmt_ratio(rm, sizeof(rm), busbw(rw, HCCL), memcpy_gbs));
	for (sd = 0; sd < NSIDE; sd++)
		if (rw->err[sd][0])
			printf("#   %s: %s\n", sd == HCCL ? "HCCL" : "Open MPI", rw->err[sd]);
	fflush(stdout);
}

static void md_row(FILE *f, const struct row *rw, double memcpy_gbs)
{
	char sz[32], t[2][32], a[2][32], bb[2][32], ro[32], rm[32], ck[2][96];
	int sd;

	for (sd = 0; sd < NSIDE; sd++) {
		fmt_time(t[sd], sizeof(t[sd]), rw->sec[sd]);
		fmt_bw(a[sd], sizeof(a[sd]), algbw(rw, sd));
		fmt_bw(bb[sd], sizeof(bb[sd]), busbw(rw, sd));
		fmt_check(ck[sd], sizeof(ck[sd]), rw, sd);
	}
	fprintf(f, "| %s | %s | %d / %d | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |\n",
		coll_name[rw->coll], fmt_size(sz, sizeof(sz), rw->bytes), rw->iters[HCCL],
		rw->iters[MPI], t[HCCL], a[HCCL], bb[HCCL], t[MPI], a[MPI], bb[MPI],
		fmt_ratio(ro, sizeof(ro), busbw(rw, HCCL), busbw(rw, MPI)),
		fmt_ratio(rm, sizeof(rm), busbw(rw, HCCL), memcpy_gbs), ck[HCCL], ck[MPI]);
}

static void csv_row(FILE *f, const struct row *rw, const char *what, double memcpy_gbs)
{
	int sd;

	fprintf(f, "%s,%s,%llu,%llu,%s,%s,%d", coll_name[rw->coll], what,
		(unsigned long long)rw->bytes, (unsigned long long)rw->count, g.t->name,
		g.op->name, g.nranks);
	for (sd = 0; sd < NSIDE; sd++) {
		fprintf(f, ",%d", rw->iters[sd]);
		if (rw->sec[sd] > 0)
			fprintf(f, ",%.3f,%.9g,%.9g", rw->sec[sd] * 1e6, algbw(rw, sd),
				busbw(rw, sd));
		else
			fprintf(f, ",,,");
		fprintf(f, ",%ld", rw->wrong[sd]);
	}
	if (memcpy_gbs > 0)
		fprintf(f, ",%.9g\n", memcpy_gbs);
	else
		fprintf(f, ",\n");
}

/* ---- the card's limit: a device-to-device copy on rank 0 alone ---- */

struct limit {
	double sec, gbs; /* one copy; its bandwidth; < 0: not measured */
	int iters;
};

/* One copy of @n bytes: aclrtMemcpy, or on the copy engine (@engine). */
static int copy_once(void *dst, const void *src, uint64_t n, int engine)
{
	if (!engine)
		return aclrtMemcpy(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE) != ACL_SUCCESS;
	return aclrtMemcpyAsync(dst, n, src, n, ACL_MEMCPY_DEVICE_TO_DEVICE, g.stream) !=
		ACL_SUCCESS || aclrtSynchronizeStream(g.stream) != ACL_SUCCESS;
}

static void time_copies(void *dst, const void *src, int engine, struct limit *l)
{
	uint64_t n = g.memcpy_bytes;
	double t0, first;
	int i, k = g.iters, bad;

	t0 = now();
	bad = copy_once(dst, src, n, engine);
	first = now() - t0;
	if (g.budget > 0 && first * k > g.budget)
		k = (int)(g.budget / first) < 1 ? 1 : (int)(g.budget / first);
	t0 = now();
	for (i = 0; i < k && !bad; i++)
		bad = copy_once(dst, src, n, engine);
	if (bad) {
		fprintf(stderr, "rank 0: %s device to device of %llu bytes failed\n",
			engine ? "aclrtMemcpyAsync" : "aclrtMemcpy", (unsigned long long)n);
		g.failed = 1;
		return;
	}
	l->sec = (now() - t0) / k;
	l->gbs = (double)n / l->sec / 1e9;
	l->iters = k;
}

/*
 * The simulated card's limit: aclrtMemcpy device to device (the figure
 * the ratios use), and for information the same copy as a task of the
 * device's copy engine (aclrtMemcpyAsync + aclrtSynchronizeStream).
 */
static void memcpy_limit(struct limit *mc, struct limit *ce)
{
	void *a = NULL, *b = NULL;
	uint64_t n = g.memcpy_bytes;

	mc->sec = mc->gbs = ce->sec = ce->gbs = -1;
	mc->iters = ce->iters = 0;
	if (!n)
		return;
	if (g.rank == 0) {
		if (aclrtMalloc(&a, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
		    aclrtMalloc(&b, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
		    aclrtMemset(a, n, 1, n) != ACL_SUCCESS ||
		    aclrtMemset(b, n, 2, n) != ACL_SUCCESS) {
			fprintf(stderr, "rank 0: two device buffers of %llu bytes: failed\n",
				(unsigned long long)n);
			g.failed = 1;
		} else {
			time_copies(b, a, 0, mc);
			time_copies(b, a, 1, ce);
		}
		if (a)
			aclrtFree(a);
		if (b)
			aclrtFree(b);
	}
	quiet_barrier();
	MPI_Bcast(mc, sizeof(*mc), MPI_BYTE, 0, MPI_COMM_WORLD);
	MPI_Bcast(ce, sizeof(*ce), MPI_BYTE, 0, MPI_COMM_WORLD);
}

/* ---- options ---- */

static uint64_t parse_size(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	switch (*end) {
	case 'G': case 'g': v *= 1 << 30; end++; break;
	case 'M': case 'm': v *= 1 << 20; end++; break;
	case 'K': case 'k': v *= 1 << 10; end++; break;
	default: break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end || v < 0)
		return UINT64_MAX;
	return (uint64_t)v;
}

static int usage(void)
{
	if (g.rank == 0)
		fprintf(stderr,
			"usage: mpirun -n N hcclt-bench-coll [-b MIN] [-e MAX] [-f FACTOR] [-o OP]\n"
			"         [-d DTYPE] [-n ITERS] [-w WARMUP] [-c 0|1] [-t COLLS] [-T SECONDS]\n"
			"         [-a] [-l ITERS] [-m BYTES] [-O FILE.md] [-C FILE.csv] [-H TITLE]\n"
			"  (see the comment at the top of tools/bench/hcclt-bench-coll.c)\n");
	return 2;
}

static int parse(int argc, char **argv)
{
	int c, i, any = 0;
	size_t k;
	char *list, *tok, *save = NULL;

	while ((c = getopt(argc, argv, "b:e:f:o:d:n:w:c:t:T:al:m:O:C:H:h")) != -1) {
		switch (c) {
		case 'b': g.min = parse_size(optarg); break;
		case 'e': g.max = parse_size(optarg); break;
		case 'm': g.memcpy_bytes = parse_size(optarg); break;
		case 'f': g.factor = atof(optarg); break;
		case 'n': g.iters = atoi(optarg); break;
		case 'w': g.warmup = atoi(optarg); break;
		case 'c': g.check = atoi(optarg); break;
		case 'T': g.budget = atof(optarg); break;
		case 'a': g.async = 1; break;
		case 'l': g.lat_iters = atoi(optarg); break;
		case 'O': g.md = optarg; break;
		case 'C': g.csv = optarg; break;
		case 'H': g.title = optarg; break;
		case 'o':
			g.op = NULL;
			for (k = 0; k < sizeof(redops) / sizeof(redops[0]); k++)
				if (!strcmp(optarg, redops[k].name))
					g.op = &redops[k];
			if (!g.op)
				return usage();
			break;
		case 'd':
			g.t = NULL;
			for (k = 0; k < sizeof(dtypes) / sizeof(dtypes[0]); k++)
				if (!strcmp(optarg, dtypes[k].name) ||
				    (dtypes[k].alias && !strcmp(optarg, dtypes[k].alias)))
					g.t = &dtypes[k];
			if (!g.t)
				return usage();
			break;
		case 't':
			memset(g.colls, 0, sizeof(g.colls));
			list = strdup(optarg);
			if (!list)
				return usage();
			for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
				for (i = 0; i < NCOLL; i++)
					if (!strcmp(tok, coll_arg[i]))
						g.colls[i] = any = 1;
				if (!any) {
					free(list);
					return usage();
				}
				any = 0;
			}
			free(list);
			break;
		default:
			return usage();
		}
	}
	if (optind != argc || g.min == UINT64_MAX || g.max == UINT64_MAX || g.min < 1 ||
	    g.max < g.min || g.factor <= 1 || g.iters < 1 || g.warmup < 0 ||
	    g.lat_iters < 0 || g.memcpy_bytes == UINT64_MAX || g.budget < 0)
		return usage();
	return 0;
}

/* ---- main ---- */

static void md_header(FILE *f, const char *mpi_version, const struct limit *mc,
		      const struct limit *ce)
{
	char b1[32], b2[32], b3[32];
	const char *buf = getenv("HCCL_BUFFSIZE");

	fprintf(f, "\n### %s\n\n", g.title ? g.title :
		"Collectives: libhccl and Open MPI, one process per card");
	fprintf(f, "%d ranks (mpirun, one process per card), %s, %s; HCCL buffer %s MiB%s; "
		"%s; HCCL calls %s. Time of one call: the average over the timed "
		"iterations (HCCL / Open MPI counts in the iterations column), the slowest "
		"rank's. busbw as nccl-tests: AllReduce algbw x 2(n-1)/n, the others "
		"algbw x (n-1)/n; GB/s = 1e9 B/s. ours/Open MPI: the busbw ratio; "
		"ours/memcpy: HCCL busbw over the memcpy limit below.\n\n",
		g.nranks, g.t->name, g.op->name, buf ? buf : "200",
		buf ? " (HCCL_BUFFSIZE)" : " (default)", mpi_version,
		g.async ? "queued, one synchronize per loop" :
			  "each followed by aclrtSynchronizeStream");
	if (mc->gbs > 0)
		fprintf(f, "memcpy limit: aclrtMemcpy device to device of %s on rank 0 alone, "
			"%s a copy (%d iterations): %.3f GB/s; the same copy on the copy engine "
			"(aclrtMemcpyAsync, synchronized): %s, %.3f GB/s.\n\n",
			fmt_size(b1, sizeof(b1), g.memcpy_bytes), fmt_time(b2, sizeof(b2), mc->sec),
			mc->iters, mc->gbs, fmt_time(b3, sizeof(b3), ce->sec), ce->gbs);
	fprintf(f, "| collective | size | iterations | HCCL time | algbw GB/s | busbw GB/s "
		"| Open MPI time | algbw GB/s | busbw GB/s | ours/Open MPI | ours/memcpy "
		"| check (HCCL / Open MPI) |\n");
	fprintf(f, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
}

int main(int argc, char **argv)
{
	char mpi_version[MPI_MAX_LIBRARY_VERSION_STRING], b1[32], b2[32], b3[32], b4[32];
	struct row *rows = NULL, lat;
	size_t nrows = 0, cap = 0;
	struct limit mc, ce;
	double mc_gbs;
	int len, i, newcsv = 0;
	uint64_t size, per;
	HcclRootInfo root;
	HcclResult hr;
	FILE *f;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &g.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &g.nranks);
	g.t = &dtypes[0];
	g.op = &redops[0];
	for (i = 0; i < NCOLL; i++)
		g.colls[i] = 1;
	if (parse(argc, argv)) {
		MPI_Finalize();
		return 2;
	}
	MPI_Get_library_version(mpi_version, &len);
	mpi_version[strcspn(mpi_version, ",\n")] = 0;

	/* One card per rank; rank 0's root info to every rank. */
	if (aclrtSetDevice(g.rank) != ACL_SUCCESS) {
		fprintf(stderr, "rank %d: aclrtSetDevice(%d) failed (is hcclthread loaded, "
			"with a card per rank?)\n", g.rank, g.rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(&root, 0, sizeof(root));
	hr = HCCL_SUCCESS;
	if (g.rank == 0)
		hr = HcclGetRootInfo(&root);
	MPI_Bcast(&hr, sizeof(hr), MPI_BYTE, 0, MPI_COMM_WORLD);
	if (hr != HCCL_SUCCESS) {
		if (g.rank == 0)
			fprintf(stderr, "HcclGetRootInfo: %s\n", HcclGetErrorString(hr));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Bcast(&root, sizeof(root), MPI_BYTE, 0, MPI_COMM_WORLD);
	hr = HcclCommInitRootInfo((uint32_t)g.nranks, &root, (uint32_t)g.rank, &g.comm);
	if (hr != HCCL_SUCCESS) {
		fprintf(stderr, "rank %d: HcclCommInitRootInfo: %s\n", g.rank,
			HcclGetErrorString(hr));
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (aclrtCreateStream(&g.stream) != ACL_SUCCESS) {
		fprintf(stderr, "rank %d: aclrtCreateStream failed\n", g.rank);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}

	memcpy_limit(&mc, &ce);
	mc_gbs = mc.gbs;
	if (g.rank == 0) {
		printf("# hcclt-bench-coll: %d ranks, %s, %s, iterations %d (warm-up %d)%s%s, "
		       "check %s; %s\n", g.nranks, g.t->name, g.op->name, g.iters, g.warmup,
		       g.budget > 0 ? ", time budget per side " : "",
		       g.budget > 0 ? fmt_time(b1, sizeof(b1), g.budget) : "",
		       g.check ? "on" : "off", mpi_version);
		if (mc.gbs > 0)
			printf("# memcpy limit (device to device, %s, rank 0 alone): aclrtMemcpy "
			       "%s a copy, %.3f GB/s; copy engine %s, %.3f GB/s\n",
			       fmt_size(b2, sizeof(b2), g.memcpy_bytes),
			       fmt_time(b3, sizeof(b3), mc.sec), mc.gbs,
			       fmt_time(b4, sizeof(b4), ce.sec), ce.gbs);
		printf("# %-11s %10s %12s | %4s %10s %8s %8s %-6s | %4s %10s %8s %8s %-6s | %7s %7s\n",
		       "collective", "size", "count", "iter", "HCCL time", "algbw", "busbw",
		       "check", "iter", "MPI time", "algbw", "busbw", "check", "vs MPI",
		       "vs cpy");
		fflush(stdout);
	}

	for (i = 0; i < NCOLL; i++) {
		if (!g.colls[i])
			continue;
		for (size = g.min; size <= g.max;) {
			struct row rw = { .coll = (enum coll)i };
			uint64_t next;

			/* A chunked collective's size is ranks x chunk. */
			per = i == ALLREDUCE ? 1 : (uint64_t)g.nranks;
			rw.count = size / g.t->size / per;
			rw.bytes = rw.count * per * g.t->size;
			if (rw.count > 0 && rw.count <= INT32_MAX) {
				measure(&rw, HCCL, g.iters, g.warmup);
				measure(&rw, MPI, g.iters, g.warmup);
				if (g.rank == 0) {
					print_row(&rw, mc_gbs);
					if (nrows == cap) {
						cap = cap ? 2 * cap : 32;
						rows = realloc(rows, cap * sizeof(*rows));
						if (!rows)
							MPI_Abort(MPI_COMM_WORLD, 1);
					}
					rows[nrows++] = rw;
				}
			}
			next = (uint64_t)((double)size * g.factor);
			size = next > size ? next : size + 1;
		}
	}

	/* The 8-byte AllReduce: latency. */
	memset(&lat, 0, sizeof(lat));
	lat.coll = ALLREDUCE;
	lat.count = 8 / g.t->size;
	lat.bytes = lat.count * g.t->size;
	if (g.lat_iters > 0) {
		measure(&lat, HCCL, g.lat_iters, g.warmup > 10 ? g.warmup : 10);
		measure(&lat, MPI, g.lat_iters, g.warmup > 10 ? g.warmup : 10);
		if (g.rank == 0) {
			printf("# AllReduce latency, %s: HCCL %s, Open MPI %s (%s the time), "
			       "checks %s / %s\n", fmt_size(b1, sizeof(b1), lat.bytes),
			       fmt_time(b2, sizeof(b2), lat.sec[HCCL]),
			       fmt_time(b3, sizeof(b3), lat.sec[MPI]),
			       fmt_ratio(b4, sizeof(b4), lat.sec[HCCL], lat.sec[MPI]),
			       lat.err[HCCL][0] ? lat.err[HCCL] : lat.wrong[HCCL] ? "wrong" : "ok",
			       lat.err[MPI][0] ? lat.err[MPI] : lat.wrong[MPI] ? "wrong" : "ok");
		}
	}

	if (g.rank == 0 && g.md) {
		f = fopen(g.md, "a");
		if (!f) {
			fprintf(stderr, "%s: %s\n", g.md, strerror(errno));
			g.failed = 1;
		} else {
			md_header(f, mpi_version, &mc, &ce);
			for (i = 0; i < (int)nrows; i++)
				md_row(f, &rows[i], mc_gbs);
			if (g.lat_iters > 0) {
				fprintf(f, "\nAllReduce of %s (latency, %d / %d iterations): "
					"HCCL %s, Open MPI %s: ours/Open MPI %s the time; "
					"checks %s / %s.\n", fmt_size(b1, sizeof(b1), lat.bytes),
					lat.iters[HCCL], lat.iters[MPI],
					fmt_time(b2, sizeof(b2), lat.sec[HCCL]),
					fmt_time(b3, sizeof(b3), lat.sec[MPI]),
					fmt_ratio(b4, sizeof(b4), lat.sec[HCCL], lat.sec[MPI]),
					lat.err[HCCL][0] ? lat.err[HCCL] : lat.wrong[HCCL] ? "wrong" : "ok",
					lat.err[MPI][0] ? lat.err[MPI] : lat.wrong[MPI] ? "wrong" : "ok");
			}
			fclose(f);
		}
	}
	if (g.rank == 0 && g.csv) {
		newcsv = access(g.csv, F_OK) != 0;
		f = fopen(g.csv, "a");
		if (!f) {
			fprintf(stderr, "%s: %s\n", g.csv, strerror(errno));
			g.failed = 1;
		} else {
			if (newcsv)
				fprintf(f, "collective,kind,bytes,count,dtype,op,ranks,"
					"hccl_iters,hccl_us,hccl_algbw,hccl_busbw,hccl_wrong,"
					"mpi_iters,mpi_us,mpi_algbw,mpi_busbw,mpi_wrong,memcpy_gbs\n");
			for (i = 0; i < (int)nrows; i++)
				csv_row(f, &rows[i], "bandwidth", mc_gbs);
			if (g.lat_iters > 0)
				csv_row(f, &lat, "latency", mc_gbs);
			fclose(f);
		}
	}
	free(rows);

	aclrtDestroyStream(g.stream);
	HcclCommDestroy(g.comm);
	aclrtResetDevice(g.rank);
	i = any_all(g.failed);
	MPI_Finalize();
	return i ? 1 : 0;
}
