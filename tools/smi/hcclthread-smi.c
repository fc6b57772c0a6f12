// SPDX-License-Identifier: MIT
/*
 * hcclthread-smi: status of hcclthread devices, communicators and threads.
 *
 * Uses only the unprivileged uAPI: DRM_IOCTL_VERSION, DRM_IOCTL_HCCLT_QUERY
 * and DRM_IOCTL_HCCLT_INFO_ARRAY, page by page (DRM_IOCTL_HCCLT_INFO on a
 * driver without it; scope USER: the files of the caller's uid it may
 * inspect, all with CAP_SYS_ADMIN), and, for device memory by process,
 * /proc/<pid>/fdinfo (hcclt_procmem.c).
 *
 *   hcclthread-smi [-d DEV] [--json] [--hangs] [--watch [SEC]]
 *   hcclthread-smi trace [-o out.json] -- CMD ARGS...
 *
 * Exit codes: 0 ok, 1 error, 2 usage, 3 no device found.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hcclt_dev.h"
#include "hcclt_procmem.h"
#include "../trace/hcclt_trace.h"
#include "hcclt_utf8.h"

#define EXIT_USAGE	2
#define EXIT_NODEV	3
/* --watch intervals: a tenth of a second to a day. */
#define WATCH_MIN_S	0.1
#define WATCH_MAX_S	86400.0

struct smi_devinfo {
	struct hcclt_dev dev;
	struct drm_hcclt_query q;
	struct drm_hcclt_comm_info *comms;
	struct drm_hcclt_thread_info *threads;
	/* Per thread entry: its parked wait (uAPI 1.4; zero before). */
	struct drm_hcclt_wait_info *waits;
	/*
	 * Per communicator entry: its operator (uAPI 1.11,
	 * HCCLT_INFO_TYPE_OPS; phase NONE before or when not listed).
	 */
	struct drm_hcclt_op_label *ops;
	uint32_t ncomms, nthreads;
	int err;		/* -errno of the first failed ioctl, else 0 */
	int truncated;		/* the driver returned fewer entries */
	const char *err_what;
	struct hcclt_procmem *procs;	/* device memory by process */
	int nprocs;		/* entries of procs, -errno if unread */
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: hcclthread-smi [-d DEV] [--json] [--hangs] [--watch [SEC]]\n"
		"       hcclthread-smi trace [-o OUT.json] -- CMD [ARGS...]\n"
		"\n"
		"Shows hcclthread devices (pools, limits) and the communicators and\n"
		"threads of the calling user's processes (all of them for root),\n"
		"and each device's memory by process (from /proc/PID/fdinfo).\n"
		"\n"
		"  -d, --device DEV   node path (/dev/accel/accel0) or index in the list\n"
		"  -j, --json         print JSON instead of a table\n"
		"  -H, --hangs        only the parked waits: since when, on what, and\n"
		"                     who should record it (with --json: as JSON)\n"
		"  -w, --watch [SEC]  refresh every SEC seconds (default 2; 0.1 to 86400)\n"
		"                     until ^C\n"
		"  -h, --help         this text\n"
		"  -V, --version      print the uAPI version built against\n"
		"\n"
		"Devices: $HCCLT_DEVICE (DEV[:DEV...]) if set, else /dev/accel/accel*, then\n"
		"/dev/dri/renderD* whose DRM driver is \"hcclthread\".\n"
		"Exit: 0 ok, 1 error, 2 usage, 3 no device found.\n");
}

/* Read INFO with buffers sized by a first call; retry if it grew. */
static int smi_read_info_v1(struct smi_devinfo *di)
{
	struct drm_hcclt_info info;
	int tries, ret;

	for (tries = 0; tries < 8; tries++) {
		uint32_t nc = di->ncomms, nt = di->nthreads;

		memset(&info, 0, sizeof(info));
		info.scope = HCCLT_INFO_SCOPE_USER;
		info.comm_count = nc;
		info.thread_count = nt;
		info.comms_ptr = (uintptr_t)di->comms;
		info.threads_ptr = (uintptr_t)di->threads;
		ret = hcclt_ioctl(di->dev.fd, DRM_IOCTL_HCCLT_INFO, &info);
		if (ret)
			return ret;
		if (info.comm_count <= nc && info.thread_count <= nt &&
		    (tries || (!nc && !nt && !info.comm_count &&
			       !info.thread_count))) {
			di->ncomms = info.comm_count;
			di->nthreads = info.thread_count;
			/*
			 * The driver may cap the entries it fills; ids are
			 * never zero, so a zero id ends the filled part.
			 */
			while (di->ncomms && !di->comms[di->ncomms - 1].comm_id) {
				di->ncomms--;
				di->truncated = 1;
			}
			while (di->nthreads &&
			       !di->threads[di->nthreads - 1].thread_id) {
				di->nthreads--;
				di->truncated = 1;
			}
			return 0;
		}
		/* Grow with slack: others may acquire meanwhile. */
		nc = info.comm_count + 16;
		nt = info.thread_count + 64;
		free(di->comms);
		free(di->threads);
		free(di->waits);
		di->comms = calloc(nc, sizeof(*di->comms));
		di->threads = calloc(nt, sizeof(*di->threads));
		/* INFO has no waits: all zero (not parked as far as we know). */
		di->waits = calloc(nt, sizeof(*di->waits));
		if (!di->comms || !di->threads || !di->waits)
			return -ENOMEM;
		di->ncomms = nc;
		di->nthreads = nt;
	}
	return -EAGAIN;
}

/* Entries asked for by one INFO_ARRAY call. */
#define SMI_PAGE	256u

/*
 * Every entry of @type with DRM_IOCTL_HCCLT_INFO_ARRAY, page after page,
 * into *@out (@esize bytes each), *@n of them. 0 or -errno.
 */
static int smi_info_array(int fd, uint32_t type, size_t esize, void **out,
			  uint32_t *n)
{
	struct drm_hcclt_info_array a;
	unsigned char *buf = NULL, *nb;
	size_t cap = 0, cnt = 0;
	uint64_t cursor = 0;
	int ret;

	do {
		if (cap - cnt < SMI_PAGE) {
			cap = cap ? 2 * cap : SMI_PAGE;
			nb = realloc(buf, cap * esize);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		memset(&a, 0, sizeof(a));
		a.scope = HCCLT_INFO_SCOPE_USER;
		a.type = type;
		a.element_size = (uint32_t)esize;
		a.num_element = SMI_PAGE;
		a.cursor = cursor;
		a.buffer = (uintptr_t)(buf + cnt * esize);
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO_ARRAY, &a);
		if (ret) {
			free(buf);
			return ret;
		}
		cnt += a.num_element;
		cursor = a.cursor;
	} while (cursor);
	*out = buf;
	*n = (uint32_t)cnt;
	return 0;
}

/* A communicator's key: the file holding it and its id there. */
struct smi_key {
	uint64_t file_id, comm_id;
	uint32_t index;		/* in the comms array */
};

static int smi_key_cmp(const void *a, const void *b)
{
	const struct smi_key *x = a, *y = b;

	if (x->file_id != y->file_id)
		return x->file_id < y->file_id ? -1 : 1;
	if (x->comm_id != y->comm_id)
		return x->comm_id < y->comm_id ? -1 : 1;
	return 0;
}

/* A thread entry and the index of its communicator, for sorting. */
struct smi_tsort {
	uint32_t comm, pos;
};

static int smi_tsort_cmp(const void *a, const void *b)
{
	const struct smi_tsort *x = a, *y = b;

	if (x->comm != y->comm)
		return x->comm < y->comm ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * INFO_ARRAY's lists, threads put in the order the table wants: grouped
 * by communicator, in the order of the communicators, each in the order
 * listed (a view after its thread). Threads of no listed communicator
 * (destroyed between the two lists) go last.
 */
static int smi_read_info(struct smi_devinfo *di)
{
	struct drm_hcclt_info_comm *ce;
	struct drm_hcclt_info_thread *te;
	struct smi_tsort *ts = NULL;
	struct smi_key *keys = NULL, k, *hit;
	uint32_t nc, nt, i;
	void *cv, *tv;
	int ret;

	ret = smi_info_array(di->dev.fd, HCCLT_INFO_TYPE_COMMS, sizeof(*ce),
			     &cv, &nc);
	if (ret == -EINVAL || ret == -ENOTTY)
		return smi_read_info_v1(di);
	if (ret)
		return ret;
	ret = smi_info_array(di->dev.fd, HCCLT_INFO_TYPE_THREADS, sizeof(*te),
			     &tv, &nt);
	if (ret) {
		free(cv);
		return ret;
	}
	ce = cv;
	te = tv;
	free(di->comms);
	free(di->threads);
	free(di->waits);
	di->comms = calloc(nc + 1, sizeof(*di->comms));
	di->threads = calloc(nt + 1, sizeof(*di->threads));
	di->waits = calloc(nt + 1, sizeof(*di->waits));
	keys = calloc(nc + 1, sizeof(*keys));
	ts = calloc(nt + 1, sizeof(*ts));
	if (!di->comms || !di->threads || !di->waits || !keys || !ts) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nc; i++) {
		di->comms[i] = ce[i].comm;
		keys[i].file_id = ce[i].file_id;
		keys[i].comm_id = ce[i].comm.comm_id;
		keys[i].index = i;
	}
	qsort(keys, nc, sizeof(*keys), smi_key_cmp);
	for (i = 0; i < nt; i++) {
		k.file_id = te[i].file_id;
		k.comm_id = te[i].thread.comm_id;
		hit = nc ? bsearch(&k, keys, nc, sizeof(*keys), smi_key_cmp) :
			   NULL;
		ts[i].comm = hit ? hit->index : UINT32_MAX;
		ts[i].pos = i;
	}
	qsort(ts, nt, sizeof(*ts), smi_tsort_cmp);
	for (i = 0; i < nt; i++) {
		di->threads[i] = te[ts[i].pos].thread;
		di->waits[i] = te[ts[i].pos].wait;
	}
	free(di->ops);
	di->ops = calloc(nc + 1, sizeof(*di->ops));
	if (!di->ops) {
		ret = -ENOMEM;
		goto out;
	}
	if (di->q.features & HCCLT_FEATURE_OP_INFO) {
		struct drm_hcclt_info_op *oe;
		uint32_t no;
		void *ov;

		ret = smi_info_array(di->dev.fd, HCCLT_INFO_TYPE_OPS,
				     sizeof(*oe), &ov, &no);
		if (ret)
			goto out;
		oe = ov;
		for (i = 0; i < no; i++) {
			k.file_id = oe[i].file_id;
			k.comm_id = oe[i].comm_id;
			hit = nc ? bsearch(&k, keys, nc, sizeof(*keys),
					   smi_key_cmp) : NULL;
			if (hit)
				di->ops[hit->index] = oe[i].op;
		}
		free(ov);
	}
	di->ncomms = nc;
	di->nthreads = nt;
	ret = 0;
out:
	free(keys);
	free(ts);
	free(cv);
	free(tv);
	return ret;
}

static void smi_collect(struct smi_devinfo *di, const char *path)
{
	int ret;

	memset(di, 0, sizeof(*di));
	ret = hcclt_dev_open(path, &di->dev);
	if (ret) {
		di->err = ret;
		di->err_what = ret == -ENODEV ? "not an hcclthread device" : "open";
		return;
	}
	ret = hcclt_ioctl(di->dev.fd, DRM_IOCTL_HCCLT_QUERY, &di->q);
	if (ret) {
		di->err = ret;
		di->err_what = "DRM_IOCTL_HCCLT_QUERY";
		goto out;
	}
	ret = smi_read_info(di);
	if (ret) {
		di->err = ret;
		di->err_what = "DRM_IOCTL_HCCLT_INFO_ARRAY";
	}
out:
	hcclt_dev_close(&di->dev);
	/* After the close: this process's own file is not listed. */
	if (di->q.features & HCCLT_FEATURE_MEMORY)
		di->nprocs = hcclt_procmem_scan(di->dev.path, &di->procs);
}

static void smi_free(struct smi_devinfo *di)
{
	free(di->ops);
	di->ops = NULL;
	free(di->comms);
	free(di->threads);
	free(di->waits);
	free(di->procs);
	di->comms = NULL;
	di->threads = NULL;
	di->waits = NULL;
	di->procs = NULL;
}

/*
 * Threads of comm @c: INFO lists threads grouped by communicator in the
 * order of the comms array. Comm ids are per file, so two files may use the
 * same id: take consecutive entries with the id, at most @thread_count
 * non-view threads, views following them included.
 */
static uint32_t smi_comm_threads(const struct smi_devinfo *di, uint32_t c,
				 uint32_t *pos)
{
	const struct drm_hcclt_comm_info *ci = &di->comms[c];
	uint32_t start = *pos, owned = 0, i;

	for (i = start; i < di->nthreads; i++) {
		const struct drm_hcclt_thread_info *t = &di->threads[i];

		if (t->comm_id != ci->comm_id)
			break;
		if (!(t->flags & HCCLT_THREAD_VIEW)) {
			if (owned == ci->thread_count)
				break;
			owned++;
		}
	}
	*pos = i;
	return i - start;
}

static void engines_str(uint32_t mask, char *buf, size_t len)
{
	size_t o = 0;
	uint32_t e;

	buf[0] = 0;
	for (e = 0; e < HCCLT_ENGINE_COUNT; e++) {
		if (!(mask & (1U << e)))
			continue;
		o += snprintf(buf + o, o < len ? len - o : 0, "%s%s",
			      o ? "," : "", hcclt_engine_name(e));
	}
	if (!o)
		snprintf(buf, len, "-");
}

static void state_str(const struct drm_hcclt_thread_info *t, char *buf,
		      size_t len)
{
	if (t->state == HCCLT_STATE_PARKED)
		snprintf(buf, len, "parked on notify %u", t->wait_notify);
	else
		snprintf(buf, len, "%s", hcclt_state_name(t->state));
}

static void flags_str(uint32_t flags, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s",
		 flags & HCCLT_THREAD_WRAPPED ? "wrapped" : "",
		 (flags & HCCLT_THREAD_WRAPPED) && (flags & HCCLT_THREAD_VIEW) ?
		 "," : "",
		 flags & HCCLT_THREAD_VIEW ? "view" : "");
	if (!buf[0])
		snprintf(buf, len, "-");
}

/*
 * The ranks of the groups the caller sees (GROUP_INFO), with their hosts
 * on a driver of uAPI 1.15 (zero hosts before): a calloc()ed array and its
 * count, or NULL. A driver without GROUP_INFO has none.
 */
static struct drm_hcclt_group_rank_host *group_ranks(int fd, uint32_t *count)
{
	struct drm_hcclt_group_rank_host *e = NULL;
	struct drm_hcclt_group_rank_info *old;
	struct drm_hcclt_group_info gi;
	uint32_t i, n;

	memset(&gi, 0, sizeof(gi));
	gi.flags = HCCLT_GROUP_INFO_HOSTS;
	if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi)) {
		/* Before 1.15: the entries without their hosts. */
		gi.flags = 0;
		if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi))
			return NULL;
	}
	n = gi.rank_count + 16;	/* room for ranks joining meanwhile */
	e = calloc(n, sizeof(*e));
	old = gi.flags ? NULL : calloc(n, sizeof(*old));
	if (!e || (!gi.flags && !old))
		goto fail;
	gi.rank_count = n;
	gi.ranks_ptr = gi.flags ? (uintptr_t)e : (uintptr_t)old;
	if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi))
		goto fail;
	n = gi.rank_count < n ? gi.rank_count : n;
	for (i = 0; old && i < n; i++)
		e[i].info = old[i];
	for (i = 0; i < n; i++)
		e[i].info.name[sizeof(e[i].info.name) - 1] = '\0';
	free(old);
	*count = n;
	return e;
fail:
	free(old);
	free(e);
	return NULL;
}

/* "A.B.C.D" of a network-order IPv4 address. */
static const char *host_str(uint32_t addr, char *buf, size_t len)
{
	const uint8_t *b = (const uint8_t *)&addr;

	snprintf(buf, len, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	return buf;
}

/*
 * Groups (multi-rank communicators), host-wide: one line per joined rank,
 * with its host when the group has ranks on several (a remote rank has no
 * process or communicator here). A driver without
 * DRM_IOCTL_HCCLT_GROUP_INFO prints nothing.
 */
static void print_groups(int fd)
{
	static const char *const state[] = { "pending", "complete", "failed" };
	struct drm_hcclt_group_rank_host *e;
	uint32_t i, n = 0;
	char h[20];

	e = group_ranks(fd, &n);
	if (!e)
		return;
	printf("\n%u rank%s of multi-rank communicators (%s)\n", n,
	       n == 1 ? "" : "s", geteuid() ? "this user" : "all users");
	if (n)
		printf("  %-32s %9s %-15s %6s %7s  %-18s %s\n", "GROUP", "RANK",
		       "HOST", "DEVICE", "PID", "COMM", "STATE");
	for (i = 0; i < n; i++) {
		const struct drm_hcclt_group_rank_info *r = &e[i].info;
		char rk[24];

		snprintf(rk, sizeof(rk), "%u/%u", r->rank, r->nranks);
		printf("  %-32s %9s %-15s %6u %7u  0x%-16" PRIx64 " %s (%u joined)%s\n",
		       r->name, rk,
		       e[i].host_addr ? host_str(e[i].host_addr, h, sizeof(h)) : "-",
		       r->device, r->pid, (uint64_t)r->comm_id,
		       r->state < 3 ? state[r->state] : "?", r->joined,
		       e[i].remote ? " remote" : "");
	}
	free(e);
}

/*
 * Where the peer of a channel wait is, when it is on another host: "host
 * A.B.C.D " from the groups' ranks (@e, @n), else "".
 */
static const char *peer_host(const struct drm_hcclt_group_rank_host *e,
			     uint32_t n, uint32_t pid, uint64_t comm_id,
			     uint32_t peer_rank, char *buf, size_t len)
{
	const char *name = NULL;
	char h[20];
	uint32_t i;

	for (i = 0; i < n && !name; i++)
		if (e[i].info.pid == pid && e[i].info.comm_id == comm_id)
			name = e[i].info.name;
	for (i = 0; name && i < n; i++)
		if (!strcmp(e[i].info.name, name) && e[i].info.rank == peer_rank &&
		    e[i].remote) {
			snprintf(buf, len, "host %s, ",
				 host_str(e[i].host_addr, h, sizeof(h)));
			return buf;
		}
	return "";
}

/* Device memory by process (fdinfo), MiB with one decimal. */
static void print_procs(const struct smi_devinfo *x)
{
	int i;

	if (!(x->q.features & HCCLT_FEATURE_MEMORY) || !x->nprocs)
		return;
	if (x->nprocs < 0) {
		printf("\n%s: device memory by process: %s\n", x->dev.path,
		       strerror(-x->nprocs));
		return;
	}
	printf("\n%s: device memory by process (%s)\n", x->dev.path,
	       geteuid() ? "this user's" : "all");
	printf("  %-8s %-16s %10s %10s %5s\n", "PID", "COMMAND", "TOTAL",
	       "RESIDENT", "FILES");
	for (i = 0; i < x->nprocs; i++) {
		const struct hcclt_procmem *p = &x->procs[i];

		printf("  %-8d %-16s %9.1fM %9.1fM %5u\n", p->pid, p->comm,
		       p->total / 1048576.0, p->resident / 1048576.0,
		       p->files);
	}
}

static uint64_t mono_ns(void);

/* @s made printable in place: bytes that are not UTF-8 or control -> '?'. */
static void smi_printable(char *s)
{
	unsigned char *u = (unsigned char *)s;
	size_t n = strlen(s), l;

	while (n) {
		l = hcclt_utf8_len(u, n);
		if (!l || *u < 0x20 || *u == 0x7f) {
			*u = '?';
			l = 1;
		}
		u += l;
		n -= l;
	}
}

/* CANN's HcclCMDType names, lower case; NULL for another value. */
static const char *op_type_name(uint32_t t)
{
	static const char *const names[] = {
		"invalid", "broadcast", "allreduce", "reduce", "send",
		"receive", "allgather", "reduce_scatter", "alltoallv",
		"alltoallvc", "alltoall", "gather", "scatter",
		"batch_send_recv", "batch_put", "batch_get", "allgather_v",
		"reduce_scatter_v", "batch_write",
	};

	return t < sizeof(names) / sizeof(names[0]) ? names[t] : NULL;
}

static const char *op_phase_name(uint32_t p)
{
	switch (p) {
	case HCCLT_OP_PHASE_REGISTERED: return "registered";
	case HCCLT_OP_PHASE_KERNEL: return "kernel";
	case HCCLT_OP_PHASE_REPORTED: return "reported";
	default: return "none";
	}
}

/* The OP line of a communicator whose operator was registered. */
static void print_op(const struct drm_hcclt_op_label *op, uint64_t now)
{
	const char *name = op_type_name(op->op_type);
	char tag[HCCLT_OP_TAG_LEN], kern[HCCLT_OP_KERNEL_LEN];

	if (op->phase == HCCLT_OP_PHASE_NONE)
		return;
	snprintf(tag, sizeof(tag), "%s", op->alg_tag);
	snprintf(kern, sizeof(kern), "%s", op->kernel);
	smi_printable(tag);
	smi_printable(kern);
	if (name)
		printf("    OP #%" PRIu64 " %s", (uint64_t)op->op_index, name);
	else
		printf("    OP #%" PRIu64 " type %u", (uint64_t)op->op_index,
		       op->op_type);
	printf(" count %" PRIu64 "  phase %s (%.1fs)", (uint64_t)op->data_count,
	       op_phase_name(op->phase),
	       now > op->since_ns ? (now - op->since_ns) / 1e9 : 0.0);
	if (op->stream_id)
		printf("  stream 0x%" PRIx64, (uint64_t)op->stream_id);
	printf("  tag \"%s\"", tag);
	if (kern[0])
		printf("  kernel \"%s\"", kern);
	putchar('\n');
}

static void print_table(struct smi_devinfo *di, int n)
{
	char eng[96], when[64], st[48], fl[24];
	time_t now = time(NULL);
	int d;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", localtime(&now));
	printf("hcclthread-smi (uAPI %d.%d)  %s\n\n", HCCLT_UAPI_MAJOR,
	       HCCLT_UAPI_MINOR, when);
	printf("%-20s %-18s %-5s %-13s %-13s %5s %5s  %-13s %s\n", "DEVICE",
	       "DRIVER", "UAPI", "STREAMS", "NOTIFIES", "COMMS", "FILES",
	       "MEMORY", "ENGINES");
	for (d = 0; d < n; d++) {
		struct smi_devinfo *x = &di[d];
		char drv[128], s[24], nt[24], mem[32];

		if (x->err == -ENODEV && !x->q.uapi_major) {
			printf("%-20s error: %s\n", x->dev.path, x->err_what);
			continue;
		}
		if (x->err && !x->q.uapi_major) {
			printf("%-20s error: %s: %s\n", x->dev.path,
			       x->err_what, strerror(-x->err));
			continue;
		}
		snprintf(drv, sizeof(drv), "%s %d.%d.%d", x->dev.name,
			 x->dev.ver_major, x->dev.ver_minor, x->dev.ver_patch);
		snprintf(s, sizeof(s), "%u/%u", x->q.streams_used,
			 x->q.streams_total);
		snprintf(nt, sizeof(nt), "%u/%u", x->q.notifies_used,
			 x->q.notifies_total);
		/* Device memory in MiB, one decimal (uAPI 1.2). */
		if (x->q.features & HCCLT_FEATURE_MEMORY)
			snprintf(mem, sizeof(mem), "%.1f/%lluM",
				 x->q.mem_used / 1048576.0,
				 (unsigned long long)(x->q.mem_total >> 20));
		else
			snprintf(mem, sizeof(mem), "-");
		engines_str(x->q.engines, eng, sizeof(eng));
		printf("%-20s %-18s %u.%-3u %-13s %-13s %5u %5u  %-13s %s%s\n",
		       x->dev.path, drv, x->q.uapi_major, x->q.uapi_minor, s,
		       nt, x->q.comms, x->q.files, mem, eng,
		       x->q.features & HCCLT_FEATURE_SIMULATED ?
		       " (simulated)" : "");
	}
	for (d = 0; d < n; d++)
		print_procs(&di[d]);
	for (d = 0; d < n; d++) {
		struct smi_devinfo *x = &di[d];
		uint32_t c, pos = 0;

		if (x->err) {
			if (x->q.uapi_major)
				printf("\n%s: %s: %s\n", x->dev.path,
				       x->err_what, strerror(-x->err));
			continue;
		}
		printf("\n%s: %u communicator%s of %s\n", x->dev.path,
		       x->ncomms, x->ncomms == 1 ? "" : "s",
		       geteuid() ? "this user" : "all users");
		for (c = 0; c < x->ncomms; c++) {
			const struct drm_hcclt_comm_info *ci = &x->comms[c];
			uint32_t first = pos, cnt, i;

			cnt = smi_comm_threads(x, c, &pos);
			printf("  COMM 0x%-16" PRIx64 " pid %-7u threads %u/%u"
			       "  notifies %u/%u\n", (uint64_t)ci->comm_id,
			       ci->pid, ci->threads_used,
			       x->q.max_threads_per_comm, ci->notifies_used,
			       x->q.max_notifies_per_comm);
			print_op(&x->ops[c], mono_ns());
			if (!cnt)
				continue;
			printf("    %-18s %-9s %-18s %7s %5s  %-20s %s\n",
			       "THREAD", "ENGINE", "STREAM", "NOTIFY", "QUEUE",
			       "STATE", "FLAGS");
			for (i = first; i < first + cnt; i++) {
				const struct drm_hcclt_thread_info *t =
					&x->threads[i];

				state_str(t, st, sizeof(st));
				flags_str(t->flags, fl, sizeof(fl));
				printf("    0x%-16" PRIx64 " %-9s 0x%-16" PRIx64
				       " %7u %5u  %-20s %s\n",
				       (uint64_t)t->thread_id,
				       hcclt_engine_name(t->engine),
				       (uint64_t)t->stream_id, t->notify_num,
				       t->queue_depth, st, fl);
			}
		}
		if (x->truncated)
			printf("  (list truncated by the driver)\n");
		if (pos < x->nthreads)
			printf("  (%u thread entries not matched to a "
			       "communicator)\n", x->nthreads - pos);
	}
	for (d = 0; d < n; d++) {
		struct hcclt_dev g;

		if (!di[d].q.uapi_major || hcclt_dev_open(di[d].dev.path, &g))
			continue;
		print_groups(g.fd);
		hcclt_dev_close(&g);
		break;
	}
}

/* A JSON string; bytes that are not UTF-8 (a path may hold any) as U+FFFD. */
static void json_str(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), l;

	putchar('"');
	while (n) {
		l = hcclt_utf8_len(u, n);
		if (!l) {
			fputs("\\ufffd", stdout);
			l = 1;
		} else if (*u == '"' || *u == '\\') {
			printf("\\%c", *u);
		} else if (*u < 0x20) {
			printf("\\u%04x", *u);
		} else {
			fwrite(u, 1, l, stdout);
		}
		u += l;
		n -= l;
	}
	putchar('"');
}

static void json_engines(uint32_t mask)
{
	uint32_t e;
	int first = 1;

	putchar('[');
	for (e = 0; e < HCCLT_ENGINE_COUNT; e++) {
		if (!(mask & (1U << e)))
			continue;
		printf("%s\"%s\"", first ? "" : ",", hcclt_engine_name(e));
		first = 0;
	}
	putchar(']');
}

/* CLOCK_MONOTONIC now, ns: the clock of drm_hcclt_wait_info.since_ns. */
static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double waited_s(const struct drm_hcclt_wait_info *w, uint64_t now)
{
	return now > w->since_ns ? (double)(now - w->since_ns) / 1e9 : 0.0;
}

/* What a parked wait waits on (HCCLT_WAIT_*). */
static const char *wait_kind(uint32_t kind)
{
	switch (kind) {
	case HCCLT_WAIT_CHANNEL:
		return "channel";
	case HCCLT_WAIT_EVENT:
		return "event";
	case HCCLT_WAIT_ACL_NOTIFY:
		return "acl_notify";
	case HCCLT_WAIT_FENCES:
		return "in_fences";
	default:
		return "thread";
	}
}

/* The JSON object of a parked wait (uAPI 1.4). */
static void json_wait(const struct drm_hcclt_wait_info *w, uint64_t now)
{
	printf("{\"kind\":\"%s\",\"since_ns\":%llu,\"waited_s\":%.3f,"
	       "\"owner_id\":\"0x%" PRIx64 "\",\"notify\":%u,"
	       "\"timeout_s\":%u,\"record_queued\":%s",
	       wait_kind(w->kind), (unsigned long long)w->since_ns, waited_s(w, now),
	       (uint64_t)w->owner_id, w->notify_idx, w->timeout_s,
	       w->flags & HCCLT_WAIT_RECORD_QUEUED ? "true" : "false");
	if (w->kind == HCCLT_WAIT_CHANNEL)
		printf(",\"rank\":%u,\"peer_rank\":%u,\"peer_device\":%u,"
		       "\"peer_pid\":%u", w->rank, w->peer_rank,
		       w->peer_device, w->peer_pid);
	putchar('}');
}

/* ,"op":{...} of a communicator whose operator was registered. */
static void json_op(const struct drm_hcclt_op_label *op, uint64_t now)
{
	char tag[HCCLT_OP_TAG_LEN], kern[HCCLT_OP_KERNEL_LEN];
	const char *name = op_type_name(op->op_type);

	if (op->phase == HCCLT_OP_PHASE_NONE)
		return;
	snprintf(tag, sizeof(tag), "%s", op->alg_tag);
	snprintf(kern, sizeof(kern), "%s", op->kernel);
	printf(",\"op\":{\"index\":%" PRIu64 ",\"type\":%u,\"type_name\":",
	       (uint64_t)op->op_index, op->op_type);
	json_str(name ? name : "");
	printf(",\"phase\":\"%s\",\"phase_age_ns\":%" PRIu64
	       ",\"stream_id\":\"0x%" PRIx64 "\",\"data_count\":%" PRIu64
	       ",\"reduce_op\":%u,\"data_type\":%u,\"engine\":%u,\"root\":%u"
	       ",\"alg_tag\":", op_phase_name(op->phase),
	       (uint64_t)(now > op->since_ns ? now - op->since_ns : 0),
	       (uint64_t)op->stream_id, (uint64_t)op->data_count,
	       op->reduce_op, op->data_type, op->engine, op->root);
	json_str(tag);
	printf(",\"kernel\":");
	json_str(kern);
	putchar('}');
}

static void print_json(struct smi_devinfo *di, int n)
{
	uint64_t now = mono_ns();
	int d;

	printf("{\"uapi_built\":\"%d.%d\",\"time\":%lld,\"devices\":[",
	       HCCLT_UAPI_MAJOR, HCCLT_UAPI_MINOR, (long long)time(NULL));
	for (d = 0; d < n; d++) {
		struct smi_devinfo *x = &di[d];
		const struct drm_hcclt_query *q = &x->q;
		uint32_t c, pos = 0;

		printf("%s\n {\"node\":", d ? "," : "");
		json_str(x->dev.path);
		if (x->err && !q->uapi_major) {
			printf(",\"error\":");
			json_str(strerror(-x->err));
			printf(",\"errno\":%d}", -x->err);
			continue;
		}
		printf(",\"driver\":{\"name\":");
		json_str(x->dev.name);
		printf(",\"version\":\"%d.%d.%d\",\"date\":", x->dev.ver_major,
		       x->dev.ver_minor, x->dev.ver_patch);
		json_str(x->dev.date);
		printf(",\"desc\":");
		json_str(x->dev.desc);
		printf("},\"uapi\":{\"major\":%u,\"minor\":%u}", q->uapi_major,
		       q->uapi_minor);
		printf(",\"streams\":{\"used\":%u,\"total\":%u}",
		       q->streams_used, q->streams_total);
		printf(",\"notifies\":{\"used\":%u,\"total\":%u}",
		       q->notifies_used, q->notifies_total);
		printf(",\"limits\":{\"threads_per_comm\":%u,"
		       "\"notifies_per_comm\":%u,\"max_batch\":%u,"
		       "\"max_queue_depth\":%u}", q->max_threads_per_comm,
		       q->max_notifies_per_comm, q->max_batch,
		       q->max_queue_depth);
		if (q->features & HCCLT_FEATURE_MEMORY)
			printf(",\"memory\":{\"used\":%llu,\"total\":%llu}",
			       (unsigned long long)q->mem_used,
			       (unsigned long long)q->mem_total);
		if ((q->features & HCCLT_FEATURE_MEMORY) && x->nprocs >= 0) {
			int i;

			printf(",\"processes\":[");
			for (i = 0; i < x->nprocs; i++) {
				printf("%s{\"pid\":%d,\"command\":",
				       i ? "," : "", x->procs[i].pid);
				json_str(x->procs[i].comm);
				printf(",\"total\":%llu,\"resident\":%llu,"
				       "\"files\":%u}",
				       (unsigned long long)x->procs[i].total,
				       (unsigned long long)x->procs[i].resident,
				       x->procs[i].files);
			}
			printf("]");
		}
		printf(",\"comms\":%u,\"files\":%u,\"engines\":", q->comms,
		       q->files);
		json_engines(q->engines);
		printf(",\"stream_engines\":");
		json_engines(q->stream_engines);
		printf(",\"simulated\":%s,\"fence_out\":%s",
		       q->features & HCCLT_FEATURE_SIMULATED ? "true" : "false",
		       q->features & HCCLT_FEATURE_FENCE_OUT ? "true" : "false");
		if (x->err) {
			printf(",\"error\":");
			json_str(strerror(-x->err));
			printf(",\"errno\":%d}", -x->err);
			continue;
		}
		if (x->truncated)
			printf(",\"truncated\":true");
		printf(",\"communicators\":[");
		for (c = 0; c < x->ncomms; c++) {
			const struct drm_hcclt_comm_info *ci = &x->comms[c];
			uint32_t first = pos, cnt, i;

			cnt = smi_comm_threads(x, c, &pos);
			printf("%s\n  {\"comm_id\":\"0x%" PRIx64 "\",\"pid\":%u,"
			       "\"threads_used\":%u,\"threads_max\":%u,"
			       "\"notifies_used\":%u,\"notifies_max\":%u,"
			       "\"thread_count\":%u,\"threads\":[",
			       c ? "," : "", (uint64_t)ci->comm_id, ci->pid,
			       ci->threads_used, q->max_threads_per_comm,
			       ci->notifies_used, q->max_notifies_per_comm,
			       ci->thread_count);
			for (i = first; i < first + cnt; i++) {
				const struct drm_hcclt_thread_info *t =
					&x->threads[i];

				printf("%s\n   {\"thread_id\":\"0x%" PRIx64
				       "\",\"engine\":\"%s\",\"stream_id\":"
				       "\"0x%" PRIx64 "\",\"notify_num\":%u,"
				       "\"queue_depth\":%u,\"state\":\"%s\"",
				       i != first ? "," : "",
				       (uint64_t)t->thread_id,
				       hcclt_engine_name(t->engine),
				       (uint64_t)t->stream_id, t->notify_num,
				       t->queue_depth,
				       hcclt_state_name(t->state));
				if (t->state == HCCLT_STATE_PARKED)
					printf(",\"wait_notify\":%u",
					       t->wait_notify);
				if (x->waits[i].kind != HCCLT_WAIT_NONE) {
					printf(",\"wait\":");
					json_wait(&x->waits[i], now);
				}
				printf(",\"wrapped\":%s,\"view\":%s}",
				       t->flags & HCCLT_THREAD_WRAPPED ?
				       "true" : "false",
				       t->flags & HCCLT_THREAD_VIEW ?
				       "true" : "false");
			}
			printf("]");
			json_op(&x->ops[c], now);
			printf("}");
		}
		printf("]}");
	}
	printf("]}\n");
}

/*
 * --hangs: every parked wait (views skipped: their thread has it), one
 * line each, or a JSON list. A driver before uAPI 1.4 reports none.
 */
static void print_hangs(struct smi_devinfo *di, int n, int json)
{
	struct drm_hcclt_group_rank_host *gr = NULL;
	uint64_t now = mono_ns();
	int d, first = 1, count = 0;
	uint32_t ngr = 0;
	struct hcclt_dev g;
	char ph[32];

	/* The groups' ranks: a channel's peer on another host is named by it. */
	for (d = 0; d < n && !gr; d++) {
		if (!di[d].q.uapi_major || hcclt_dev_open(di[d].dev.path, &g))
			continue;
		gr = group_ranks(g.fd, &ngr);
		hcclt_dev_close(&g);
	}

	if (json)
		printf("{\"uapi_built\":\"%d.%d\",\"time\":%lld,\"hangs\":[",
		       HCCLT_UAPI_MAJOR, HCCLT_UAPI_MINOR,
		       (long long)time(NULL));
	for (d = 0; d < n; d++) {
		struct smi_devinfo *x = &di[d];
		uint32_t c, pos = 0;

		if (x->err) {
			if (!json)
				printf("%s: %s: %s\n", x->dev.path,
				       x->err_what, strerror(-x->err));
			continue;
		}
		for (c = 0; c < x->ncomms; c++) {
			const struct drm_hcclt_comm_info *ci = &x->comms[c];
			uint32_t start = pos, cnt, i;

			cnt = smi_comm_threads(x, c, &pos);
			for (i = start; i < start + cnt; i++) {
				const struct drm_hcclt_thread_info *t =
					&x->threads[i];
				const struct drm_hcclt_wait_info *w =
					&x->waits[i];
				const char *q;

				if (t->flags & HCCLT_THREAD_VIEW ||
				    w->kind == HCCLT_WAIT_NONE)
					continue;
				count++;
				if (json) {
					printf("%s\n {\"node\":", first ? "" : ",");
					json_str(x->dev.path);
					printf(",\"pid\":%u,\"comm_id\":\"0x%" PRIx64
					       "\",\"thread_id\":\"0x%" PRIx64
					       "\",\"stream_id\":\"0x%" PRIx64
					       "\",\"wait\":", ci->pid,
					       (uint64_t)ci->comm_id,
					       (uint64_t)t->thread_id,
					       (uint64_t)t->stream_id);
					json_wait(w, now);
					putchar('}');
					first = 0;
					continue;
				}
				q = w->flags & HCCLT_WAIT_RECORD_QUEUED ?
				    "a record is queued" : "no record queued";
				if (w->kind == HCCLT_WAIT_CHANNEL) {
					/* The peer: its host, or its pid here. */
					if (!*peer_host(gr, ngr, ci->pid,
							ci->comm_id, w->peer_rank,
							ph, sizeof(ph)))
						snprintf(ph, sizeof(ph), "pid %u, ",
							 w->peer_pid);
					printf("%s: rank %u stream 0x%" PRIx64
					       " (pid %u) waits %.1f s on channel "
					       "0x%" PRIx64 " notify %u from rank "
					       "%u, %sdevice %u: %s\n",
					       x->dev.path, w->rank,
					       (uint64_t)t->stream_id, ci->pid,
					       waited_s(w, now),
					       (uint64_t)w->owner_id,
					       w->notify_idx, w->peer_rank, ph,
					       w->peer_device, q);
				} else if (w->kind != HCCLT_WAIT_THREAD) {
					printf("%s: stream 0x%" PRIx64
					       " (pid %u) waits %.1f s on %s "
					       "0x%" PRIx64 " (notify %u)\n",
					       x->dev.path,
					       (uint64_t)t->stream_id, ci->pid,
					       waited_s(w, now),
					       wait_kind(w->kind),
					       (uint64_t)w->owner_id,
					       w->notify_idx);
				} else {
					printf("%s: stream 0x%" PRIx64
					       " (pid %u) waits %.1f s on notify "
					       "%u of thread 0x%" PRIx64 ": %s\n",
					       x->dev.path,
					       (uint64_t)t->stream_id, ci->pid,
					       waited_s(w, now), w->notify_idx,
					       (uint64_t)w->owner_id, q);
				}
			}
		}
	}
	if (json)
		printf("]}\n");
	else if (!count)
		printf("no parked waits (%s)\n",
		       geteuid() ? "this user's processes" : "all processes");
	free(gr);
}

/* Resolve -d: a path is used as is; a number indexes the discovered list. */
static int pick_devices(const char *sel, char paths[][PATH_MAX])
{
	int n = hcclt_dev_list(paths, HCCLT_DEV_MAX);
	char *end;
	long idx;

	if (!sel)
		return n;
	idx = strtol(sel, &end, 10);
	if (*sel && !*end) {
		if (idx < 0 || idx >= n)
			return 0;
		if (idx)
			memmove(paths[0], paths[idx], PATH_MAX);
		return 1;
	}
	snprintf(paths[0], PATH_MAX, "%s", sel);
	return 1;
}

static int smi_once(const char *sel, int json, int hangs, int watching)
{
	static char paths[HCCLT_DEV_MAX][PATH_MAX];
	struct smi_devinfo di[HCCLT_DEV_MAX];
	int n, d, rc = 0;

	n = pick_devices(sel, paths);
	if (!n) {
		if (sel)
			fprintf(stderr, "hcclthread-smi: no device %s\n", sel);
		else if (hcclt_dev_denied)
			fprintf(stderr, "hcclthread-smi: no hcclthread device "
				"could be opened: %d device node%s refused "
				"access (permission denied): is your user in "
				"group render?\n", hcclt_dev_denied,
				hcclt_dev_denied == 1 ? "" : "s");
		else
			fprintf(stderr, "hcclthread-smi: " HCCLT_NO_DEVICE_MSG
				"\n");
		if (hcclt_dev_fail_err && hcclt_dev_fail_err != -EACCES &&
		    hcclt_dev_fail_err != -EPERM)
			fprintf(stderr, "hcclthread-smi: %s could not be "
				"opened: %s\n", hcclt_dev_fail_path,
				strerror(-hcclt_dev_fail_err));
		if (json && !watching)
			printf("{\"devices\":[],\"error\":\"no hcclthread "
			       "device found\"}\n");
		return EXIT_NODEV;
	}
	for (d = 0; d < n; d++) {
		smi_collect(&di[d], paths[d]);
		if (di[d].err)
			rc = di[d].err == -ENODEV || di[d].err == -ENOENT ?
			     EXIT_NODEV : 1;
	}
	if (hangs)
		print_hangs(di, n, json);
	else if (json)
		print_json(di, n);
	else
		print_table(di, n);
	for (d = 0; d < n; d++)
		smi_free(&di[d]);
	fflush(stdout);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "hangs", no_argument, NULL, 'H' },
		{ "watch", optional_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sel = NULL;
	double watch = 0;
	int json = 0, hangs = 0, c, rc;

	if (argc > 1 && !strcmp(argv[1], "trace"))
		return hcclt_trace_main(argc - 1, argv + 1, "hcclthread-smi trace");

	while ((c = getopt_long(argc, argv, "d:jHw::hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			sel = optarg;
			break;
		case 'j':
			json = 1;
			break;
		case 'H':
			hangs = 1;
			break;
		case 'w': {
			const char *arg = optarg;
			char *end;

			/* "--watch 5": take a following number too. */
			if (!arg && optind < argc && argv[optind][0] >= '0' &&
			    argv[optind][0] <= '9')
				arg = argv[optind++];
			watch = arg ? strtod(arg, &end) : 2.0;
			/* Not NaN, not a busy loop, not a time_t overflow. */
			if (arg && (*end || !isfinite(watch) ||
				    watch < WATCH_MIN_S || watch > WATCH_MAX_S)) {
				fprintf(stderr, "hcclthread-smi: bad --watch "
					"interval '%s'\n", arg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("hcclthread-smi uAPI %d.%d\n", HCCLT_UAPI_MAJOR,
			       HCCLT_UAPI_MINOR);
			return 0;
		default:
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "hcclthread-smi: unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!watch)
		return smi_once(sel, json, hangs, 0);
	for (;;) {
		struct timespec ts;

		/* Clear the screen on a terminal; separate frames otherwise. */
		if (!json && isatty(STDOUT_FILENO))
			printf("\033[H\033[2J");
		else if (!json)
			printf("\n");
		rc = smi_once(sel, json, hangs, 1);
		(void)rc;
		ts.tv_sec = (time_t)watch;
		ts.tv_nsec = (long)((watch - (double)ts.tv_sec) * 1e9);
		nanosleep(&ts, NULL);
	}
}
