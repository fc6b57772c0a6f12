// SPDX-License-Identifier: GPL-2.0
/*
 * Seeded, bounded ioctl fuzzer of hcclthread.
 *
 *   hcclt_fuzz [SEED [CALLS [THREADS]]]
 *   env: HCCLT_FUZZ_SEED, HCCLT_FUZZ_CALLS (default 20000),
 *        HCCLT_FUZZ_THREADS (default 4),
 *        HCCLT_FUZZ_FAIL=1: the worker and closer threads set their
 *        /proc/thread-self/make-it-fail, so that a configured fault
 *        injector (failslab with task-filter, see hcclt_failslab.sh) fails
 *        kernel allocations of their calls only
 *
 * THREADS workers issue CALLS ioctls in total on the device: the driver's
 * ioctl numbers and the numbers just outside, with right and wrong sizes
 * and directions, random and boundary field values, live and stale ids
 * (of this and of earlier files), the DRM core syncobj ioctls with a
 * handle array with counts at and around HCCLT_MAX_SYNCOBJ_HANDLES and
 * 2^32 - 1, bad user pointers (NULL, unmapped,
 * read-only, kernel, non-canonical, unaligned, straddling a guard page);
 * meanwhile another thread replaces the open file with a new one (dup3
 * onto the same fd number, so the old file is closed under the workers). A watchdog
 * interrupts long synchronize calls with a signal, and fails the run when
 * a call does not return.
 *
 * Fails on any errno outside the documented set of the ioctl, and when the
 * device pools are not back at their initial values at the end. Kernel log
 * reports are caught by the caller (the VM runner fails on them).
 *
 * The seed fixes each worker's sequence of calls; the interleaving of the
 * threads is not reproducible.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/mman.h>

#include "hcclt_common.h"
#include "../../kselftest.h"

#define SCRATCH_SIZE	(1 << 20)
#define MAX_WORKERS	16
#define ID_RING		1024
#define DRM_BASE	DRM_COMMAND_BASE
#define NR_DRIVER	(DRM_HCCLT_INFO + 1)
/*
 * Every driver ioctl; the groups (GROUP_CREATE..GROUP_INFO) and device
 * memory (MEM_CREATE) get raw arguments only, their own kselftests
 * (hcclt_group, hcclt_mem) cover them.
 */
#define NR_KNOWN	(DRM_HCCLT_MEM_CREATE + 1)

static _Atomic int dev_fd = -1;
static atomic_bool stop;
static atomic_long calls_left;
static atomic_long calls_done;
static atomic_long bad_errnos;
static atomic_long succeeded[NR_DRIVER];
static atomic_long reopens;
static atomic_long fences;

/* ids seen, per kind (0: unknown kind): live, stale, of older files */
static pthread_mutex_t ids_lock = PTHREAD_MUTEX_INITIALIZER;
static __u64 ids[4][ID_RING];
static unsigned int nids[4];

static long pagesz;
static char *ro_page;		/* mapped read-only */
static char *unmapped;		/* an address with nothing mapped */

struct worker {
	pthread_t tid;
	int idx;
	__u64 rng;
	char *scratch;			/* SCRATCH_SIZE, guard page after */
	_Atomic long long call_start;	/* ms, 0 when not in an ioctl */
	atomic_bool interruptible;	/* the current call may get EINTR */
	__u64 last_comm;		/* of the last successful acquire */
	__u64 last_threads[4];
	unsigned int nlast;
};

static struct worker workers[MAX_WORKERS];
static int nworkers;

static __u64 rnd(struct worker *w)
{
	/* xorshift64* */
	w->rng ^= w->rng >> 12;
	w->rng ^= w->rng << 25;
	w->rng ^= w->rng >> 27;
	return w->rng * 0x2545F4914F6CDD1DULL;
}

static __u32 below(struct worker *w, __u32 n)
{
	return n ? (__u32)(rnd(w) % n) : 0;
}

static unsigned int kind_of(__u64 id)
{
	unsigned int k = HCCLT_ID_KIND(id);

	return k <= HCCLT_ID_KIND_THREAD ? k : 0;
}

static void add_id(__u64 id)
{
	unsigned int k = kind_of(id);

	if (!id)
		return;
	pthread_mutex_lock(&ids_lock);
	ids[k][nids[k]++ % ID_RING] = id;
	pthread_mutex_unlock(&ids_lock);
}

/* An id of @kind seen before; recent ones (likely alive) more often. */
static __u64 pick_id(struct worker *w, unsigned int kind)
{
	unsigned int n;
	__u64 id = 0;

	pthread_mutex_lock(&ids_lock);
	n = nids[kind];
	if (n) {
		unsigned int span = n < ID_RING ? n : ID_RING;

		if (below(w, 2) && span > 16)
			span = 16;
		id = ids[kind][(n - 1 - below(w, span)) % ID_RING];
	}
	pthread_mutex_unlock(&ids_lock);
	return id;
}

static __u32 v32(struct worker *w)
{
	static const __u32 edge[] = { 0, 1, 2, 3, 4, 5, 6, 7, 39, 40, 41, 63,
		64, 65, 255, 256, 257, 4095, 4096, 4097, 0x7fffffff,
		0x80000000, 0xfffffffe, 0xffffffff };

	switch (below(w, 4)) {
	case 0:
		return edge[below(w, HCCLT_ARRAY_SIZE(edge))];
	case 1:
		return (__u32)rnd(w);
	default:
		return below(w, 70);
	}
}

/* mostly zero: flags/pad fields */
static __u32 vflag(struct worker *w)
{
	return below(w, 8) ? 0 : v32(w);
}

/* A value for an id field that wants an id of @kind. */
static __u64 vid(struct worker *w, unsigned int kind)
{
	__u64 id = pick_id(w, kind);

	switch (below(w, 16)) {
	case 0:
		return 0;
	case 1:
		return rnd(w);
	case 2:
		return id | ((__u64)(1 + below(w, 255)) << 56);	/* tagged */
	case 3:
		return pick_id(w, 1 + below(w, 3));	/* any kind */
	case 4:
		return id + 1;
	case 5:
		return pick_id(w, 0);
	default:
		return id;
	}
}

static __u64 vthread(struct worker *w)
{
	if (w->nlast && below(w, 2))
		return w->last_threads[below(w, w->nlast)];
	return vid(w, HCCLT_ID_KIND_THREAD);
}

/* A user pointer for @len bytes: mostly good, sometimes very bad. */
static __u64 vptr(struct worker *w, size_t len)
{
	size_t off;

	switch (below(w, 12)) {
	case 0:
		return 0;
	case 1:
		return (__u64)(uintptr_t)unmapped + below(w, pagesz);
	case 2:
		return (__u64)(uintptr_t)ro_page + 8 * below(w, 8);
	case 3:
		return 0xffffffff81000000ULL + 8 * below(w, 4096);
	case 4:
		return 0x8000000000000000ULL;
	case 5:	/* straddles the guard page */
		off = SCRATCH_SIZE - (len ? below(w, len) + 1 : 1);
		return (__u64)(uintptr_t)(w->scratch + off);
	case 6:	/* unaligned */
		off = below(w, SCRATCH_SIZE / 2) | 1;
		return (__u64)(uintptr_t)(w->scratch + off);
	default:
		off = below(w, SCRATCH_SIZE / 2) & ~7UL;
		return (__u64)(uintptr_t)(w->scratch + off);
	}
}

static void fill_random(struct worker *w, void *p, size_t len)
{
	unsigned char *c = p;
	size_t i;

	for (i = 0; i < len; i++)
		c[i] = (unsigned char)rnd(w);
}

/* Where the ioctl's own argument goes. */
static void *arg_place(struct worker *w, size_t len, int *bad)
{
	*bad = 1;
	switch (below(w, 24)) {
	case 0:
		return NULL;
	case 1:
		return unmapped;
	case 2:
		return ro_page;
	case 3:
		return w->scratch + SCRATCH_SIZE - (len > 1 ? below(w, len) + 1 : 1);
	default:
		*bad = 0;
		return w->scratch + SCRATCH_SIZE / 2 +
		       (below(w, 64) ? below(w, 4096) * 8 : below(w, 32768) | 1);
	}
}

/*
 * Documented errnos per ioctl nr; -EFAULT, -ENOMEM and -ENODEV hold for
 * every ioctl (uAPI header), and for the DRM core's own argument copy.
 */
static int errno_ok(unsigned int nr, int type_ok, int err, int intr)
{
	if (err == ENODEV || err == EFAULT || err == ENOMEM)
		return 1;
	if (err == EBADF)	/* not expected: the fd number stays valid */
		return 0;
	if (!type_ok)
		return err == ENOTTY;
	if (nr < DRM_BASE) /* core DRM ioctl just below the driver's range */
		return err == EINVAL || err == EACCES || err == EPERM ||
		       err == ENOTTY || err == EOPNOTSUPP;
	/* Device memory (hcclt_mem): reached by raw calls only. */
	if (nr == DRM_BASE + DRM_HCCLT_MEM_CREATE)
		return err == EINVAL || err == ENOBUFS || err == ENOMEM;
	/* HCCL buffers: random ids name no communicator. */
	if (nr == DRM_BASE + DRM_HCCLT_COMM_BUFFER)
		return err == EINVAL || err == ENOENT;
	/* Peer buffers and launch answers (uAPI 1.4): random ids, seqnos. */
	if (nr == DRM_BASE + DRM_HCCLT_CHANNEL_BUFFER)
		return err == EINVAL || err == ENOENT;
	if (nr == DRM_BASE + DRM_HCCLT_KERNEL_DONE)
		return err == EINVAL || err == ENOENT || err == ESRCH;
	/* Events and ACL notifies (uAPI 1.4): random ids name none. */
	if (nr == DRM_BASE + DRM_HCCLT_EVENT_CREATE ||
	    nr == DRM_BASE + DRM_HCCLT_NOTIFY_CREATE)
		return err == EINVAL || err == ENOSPC;
	if (nr == DRM_BASE + DRM_HCCLT_EVENT_DESTROY ||
	    nr == DRM_BASE + DRM_HCCLT_NOTIFY_DESTROY)
		return err == EINVAL || err == ENOENT;
	if (nr == DRM_BASE + DRM_HCCLT_EVENT_WAIT)
		return err == EINVAL || err == ENOENT || err == EINTR;
	/* Registered memory (uAPI 1.12): random ids name none. */
	if (nr == DRM_BASE + DRM_HCCLT_MEM_REG)
		return err == EINVAL || err == ENOENT || err == ERANGE ||
		       err == EEXIST || err == ENOSPC;
	if (nr == DRM_BASE + DRM_HCCLT_MEM_UNREG)
		return err == EINVAL || err == ENOENT;
	if (nr == DRM_BASE + DRM_HCCLT_CHANNEL_MEMS)
		return err == EINVAL || err == ENOENT || err == ECONNRESET;
	if (nr >= DRM_BASE + NR_KNOWN)
		return err == EINVAL || err == ENOTTY;
	if (intr && err == EINTR && nr == DRM_BASE + DRM_HCCLT_STREAM_SYNC)
		return 1;
	switch (nr - DRM_BASE) {
	case DRM_HCCLT_QUERY:
	case DRM_HCCLT_INFO:
		return err == EINVAL;
	case DRM_HCCLT_COMM_CREATE:
		return err == EINVAL || err == ENOSPC || err == ENOMEM;
	case DRM_HCCLT_COMM_DESTROY:
	case DRM_HCCLT_STREAM_DESTROY:
		return err == EINVAL || err == ENOENT;
	case DRM_HCCLT_STREAM_CREATE:
		return err == EINVAL || err == ENOSPC || err == ENOMEM;
	case DRM_HCCLT_THREAD_ACQUIRE:
		return err == EINVAL || err == ENOENT || err == EDQUOT ||
		       err == EOPNOTSUPP || err == ENOSPC || err == ENOMEM;
	case DRM_HCCLT_THREAD_ACQUIRE_WITH_STREAM:
		return err == EINVAL || err == ENOENT || err == EDQUOT ||
		       err == ENOSPC || err == ENOMEM;
	case DRM_HCCLT_THREAD_EXPORT:
		return err == EINVAL || err == ENOENT || err == ENOSPC ||
		       err == ENOMEM || err == EOPNOTSUPP;
	case DRM_HCCLT_SUBMIT:
		/* ECONNRESET, ERANGE, ENOBUFS: channel and data tasks (1.3, 1.4) */
		return err == EINVAL || err == ENOENT || err == EBUSY ||
		       err == ENOMEM || err == EMFILE || err == ECONNRESET ||
		       err == ERANGE || err == ENOBUFS;
	case DRM_HCCLT_STREAM_SYNC:
		return err == EINVAL || err == ENOENT || err == ETIMEDOUT ||
		       err == ETIME || err == ECANCELED;
	case DRM_HCCLT_GROUP_CREATE:
		return err == EINVAL || err == ENOSPC;
	case DRM_HCCLT_GROUP_JOIN:
		/* random keys: no group is ever found, so nothing blocks */
		return err == EINVAL || err == ERANGE || err == ENOENT ||
		       err == ENOSPC;
	case DRM_HCCLT_GROUP_INFO:
		return err == EINVAL;
	}
	return 0;
}

static const char *const names[NR_DRIVER] = {
	"QUERY", "COMM_CREATE", "COMM_DESTROY", "STREAM_CREATE",
	"STREAM_DESTROY", "THREAD_ACQUIRE", "THREAD_ACQUIRE_WITH_STREAM",
	"THREAD_EXPORT", "SUBMIT", "STREAM_SYNC", "INFO",
};

static const unsigned long cmds[NR_DRIVER] = {
	DRM_IOCTL_HCCLT_QUERY, DRM_IOCTL_HCCLT_COMM_CREATE,
	DRM_IOCTL_HCCLT_COMM_DESTROY, DRM_IOCTL_HCCLT_STREAM_CREATE,
	DRM_IOCTL_HCCLT_STREAM_DESTROY, DRM_IOCTL_HCCLT_THREAD_ACQUIRE,
	DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM,
	DRM_IOCTL_HCCLT_THREAD_EXPORT, DRM_IOCTL_HCCLT_SUBMIT,
	DRM_IOCTL_HCCLT_STREAM_SYNC, DRM_IOCTL_HCCLT_INFO,
};

static int do_ioctl(struct worker *w, unsigned long cmd, void *arg, int intr)
{
	int fd = atomic_load(&dev_fd), ret;

	atomic_store(&w->interruptible, intr);
	atomic_store(&w->call_start, hcclt_now_ms());
	ret = ioctl(fd, cmd, arg) ? errno : 0;
	atomic_store(&w->call_start, 0);
	atomic_store(&w->interruptible, 0);
	return ret;
}

static void fill_tasks(struct worker *w, struct drm_hcclt_task *t, __u32 n,
		       __u64 self)
{
	__u32 i;

	for (i = 0; i < n; i++) {
		memset(&t[i], 0, sizeof(t[i]));
		t[i].op = below(w, 10) ? 1 + below(w, 2) : v32(w);
		t[i].notify_idx = below(w, 4) ? below(w, 2) : v32(w);
		/* records to the submitting thread itself pass the checks */
		if (t[i].op == HCCLT_TASK_NOTIFY_RECORD)
			t[i].dst_thread = below(w, 2) ? self : vthread(w);
		else if (!below(w, 10))
			t[i].dst_thread = vthread(w);
		if (t[i].op == HCCLT_TASK_NOTIFY_WAIT)
			t[i].timeout_s = below(w, 3) ? below(w, 2) : v32(w) % 3;
		t[i].pad = vflag(w);
	}
}

/* One structured call of driver ioctl @nr. */
static void structured(struct worker *w, unsigned int nr)
{
	union {
		struct drm_hcclt_query q;
		struct drm_hcclt_comm_create cc;
		struct drm_hcclt_comm_destroy cd;
		struct drm_hcclt_stream_create sc;
		struct drm_hcclt_stream_destroy sd;
		struct drm_hcclt_thread_acquire ta;
		struct drm_hcclt_thread_acquire_with_stream ws;
		struct drm_hcclt_thread_export te;
		struct drm_hcclt_submit sub;
		struct drm_hcclt_stream_sync ss;
		struct drm_hcclt_info in;
		char raw[256];
	} u;
	unsigned long cmd = cmds[nr];
	size_t size = _IOC_SIZE(cmd);
	__u64 out_ptr = 0;
	__u32 out_n = 0;
	int bad, err, intr = 0;
	char *arg;

	memset(&u, 0, sizeof(u));
	switch (nr) {
	case DRM_HCCLT_QUERY:
		u.q.flags = vflag(w);
		u.q.pad = vflag(w);
		break;
	case DRM_HCCLT_COMM_CREATE:
		u.cc.flags = vflag(w);
		u.cc.pad = vflag(w);
		break;
	case DRM_HCCLT_COMM_DESTROY:
		/* do not destroy too eagerly: keep objects around */
		u.cd.comm_id = below(w, 3) ? rnd(w) | 1ULL << 63 :
			       vid(w, HCCLT_ID_KIND_COMM);
		u.cd.flags = vflag(w);
		u.cd.pad = vflag(w);
		break;
	case DRM_HCCLT_STREAM_CREATE:
		u.sc.flags = vflag(w);
		u.sc.pad = vflag(w);
		break;
	case DRM_HCCLT_STREAM_DESTROY:
		u.sd.stream_id = below(w, 2) ? vid(w, HCCLT_ID_KIND_STREAM) :
			       rnd(w);
		u.sd.flags = vflag(w);
		u.sd.pad = vflag(w);
		break;
	case DRM_HCCLT_THREAD_ACQUIRE:
		u.ta.comm_id = vid(w, HCCLT_ID_KIND_COMM);
		u.ta.engine = below(w, 4) ? below(w, 7) : v32(w);
		u.ta.thread_num = below(w, 4) ? 1 + below(w, 4) : v32(w);
		u.ta.notify_num_per_thread = below(w, 4) ? below(w, 4) : v32(w);
		u.ta.flags = vflag(w);
		u.ta.threads_ptr = vptr(w, 8 * (size_t)(u.ta.thread_num & 63));
		out_ptr = u.ta.threads_ptr;
		out_n = u.ta.thread_num;
		break;
	case DRM_HCCLT_THREAD_ACQUIRE_WITH_STREAM:
		u.ws.comm_id = w->nlast && below(w, 2) ? w->last_comm :
			       vid(w, HCCLT_ID_KIND_COMM);
		u.ws.stream_id = vid(w, HCCLT_ID_KIND_STREAM);
		u.ws.engine = below(w, 4) ? below(w, 7) : v32(w);
		u.ws.notify_num = below(w, 4) ? below(w, 4) : v32(w);
		u.ws.flags = vflag(w);
		u.ws.pad = vflag(w);
		break;
	case DRM_HCCLT_THREAD_EXPORT: {
		__u64 *in = (__u64 *)(w->scratch + 8 * below(w, 1024));
		__u32 i;

		if (w->nlast && !below(w, 4)) {
			/*
			 * Well-formed: a thread of the last acquire to a
			 * valid engine. Otherwise a successful export is
			 * rare, and under fault injection sometimes absent.
			 */
			i = below(w, HCCLT_ENGINE_COUNT - 1);
			u.te.dst_engine = i >= HCCLT_ENGINE_AIV ? i + 1 : i;
			u.te.comm_id = w->last_comm;
			u.te.thread_num = 1;
			in[0] = w->last_threads[below(w, w->nlast)];
			u.te.threads_ptr = (__u64)(uintptr_t)in;
			u.te.exported_ptr = (__u64)(uintptr_t)(in + 64);
			out_ptr = u.te.exported_ptr;
			out_n = 1;
			break;
		}
		u.te.comm_id = w->nlast && below(w, 4) ? w->last_comm :
			       vid(w, HCCLT_ID_KIND_COMM);
		u.te.dst_engine = below(w, 4) ? below(w, 7) : v32(w);
		u.te.thread_num = below(w, 4) ? 1 + below(w, 2) : v32(w);
		for (i = 0; i < 41; i++)
			in[i] = below(w, 8) && w->nlast ?
				w->last_threads[below(w, w->nlast)] :
				vthread(w);
		u.te.threads_ptr = below(w, 6) ? (__u64)(uintptr_t)in :
				   vptr(w, 8 * (size_t)(u.te.thread_num & 63));
		u.te.exported_ptr = vptr(w, 8 * (size_t)(u.te.thread_num & 63));
		u.te.flags = vflag(w);
		u.te.pad = vflag(w);
		out_ptr = u.te.exported_ptr;
		out_n = u.te.thread_num;
		break;
	}
	case DRM_HCCLT_SUBMIT: {
		__u32 n = below(w, 8) ? 1 + below(w, 2) : v32(w);
		struct drm_hcclt_task *t = (struct drm_hcclt_task *)
			(w->scratch + 8 * below(w, 4096));

		u.sub.handle = below(w, 5) ? vthread(w) :
			       vid(w, HCCLT_ID_KIND_STREAM);
		fill_tasks(w, t, n < 300 ? n : 300, u.sub.handle);
		u.sub.tasks_ptr = below(w, 6) ? (__u64)(uintptr_t)t :
				  vptr(w, 24 * (size_t)(n & 511));
		u.sub.task_count = n;
		u.sub.task_size = below(w, 10) ? sizeof(*t) : v32(w);
		u.sub.flags = below(w, 4) ? 0 : below(w, 6) ? 1 : v32(w);
		u.sub.fence_fd = (__s32)v32(w);
		u.sub.seqno = rnd(w);
		break;
	}
	case DRM_HCCLT_STREAM_SYNC:
		u.ss.handle = below(w, 3) ? vthread(w) :
			       vid(w, HCCLT_ID_KIND_STREAM);
		u.ss.timeout_ms = below(w, 4) ? (__s32)below(w, 20) :
				  below(w, 2) ? -1 : (__s32)v32(w);
		u.ss.flags = vflag(w);
		intr = 1;
		break;
	case DRM_HCCLT_INFO:
		u.in.scope = below(w, 6) ? below(w, 2) : v32(w);
		u.in.flags = vflag(w);
		u.in.comm_count = below(w, 4) ? below(w, 64) : v32(w);
		u.in.thread_count = below(w, 4) ? below(w, 256) : v32(w);
		u.in.comms_ptr = vptr(w, 24 * (size_t)(u.in.comm_count & 1023));
		u.in.threads_ptr = vptr(w, 48 * (size_t)(u.in.thread_count & 1023));
		break;
	}

	/* sometimes a short or long struct, or the wrong direction */
	if (!below(w, 16)) {
		size_t nsize = below(w, 2) ? size - below(w, (__u32)size + 1) :
				size + below(w, 64);

		cmd = _IOC(below(w, 4), DRM_IOCTL_BASE, DRM_BASE + nr, nsize);
		size = nsize;
	}
	arg = arg_place(w, size, &bad);
	if (!bad)
		memcpy(arg, &u, size < sizeof(u) ? size : sizeof(u));
	err = do_ioctl(w, cmd, arg, intr);
	atomic_fetch_add(&calls_done, 1);
	if (err) {
		if (!errno_ok(DRM_BASE + nr, 1, err, intr)) {
			atomic_fetch_add(&bad_errnos, 1);
			printf("# FAIL %s (cmd %#lx) -> errno %d (%s), not documented\n",
			       names[nr], cmd, err, strerror(err));
		}
		return;
	}
	atomic_fetch_add(&succeeded[nr], 1);
	if (bad || cmd != cmds[nr])
		return;
	memcpy(&u, arg, size);
	switch (nr) {
	case DRM_HCCLT_COMM_CREATE:
		add_id(u.cc.comm_id);
		break;
	case DRM_HCCLT_STREAM_CREATE:
		add_id(u.sc.stream_id);
		break;
	case DRM_HCCLT_THREAD_ACQUIRE_WITH_STREAM:
		add_id(u.ws.thread_id);
		break;
	case DRM_HCCLT_SUBMIT:
		if ((u.sub.flags & HCCLT_SUBMIT_FENCE_OUT) && u.sub.fence_fd >= 0) {
			atomic_fetch_add(&fences, 1);
			close(u.sub.fence_fd);
		}
		break;
	case DRM_HCCLT_THREAD_ACQUIRE:
	case DRM_HCCLT_THREAD_EXPORT:
		if (out_n <= 40 && out_ptr >= (__u64)(uintptr_t)w->scratch &&
		    out_ptr + 8 * out_n <= (__u64)(uintptr_t)w->scratch +
		    SCRATCH_SIZE) {
			__u64 *p = (__u64 *)(uintptr_t)out_ptr, id;
			__u32 i;

			for (i = 0; i < out_n; i++) {
				memcpy(&id, (char *)(p + i), sizeof(id));
				add_id(id);
				if (i < 4)
					w->last_threads[i] = id;
			}
			if (nr == DRM_HCCLT_THREAD_ACQUIRE && out_n) {
				w->last_comm = u.ta.comm_id;
				w->nlast = out_n < 4 ? out_n : 4;
			}
		}
		break;
	}
}

/* One call with a crafted ioctl number and random bytes. */
static void raw(struct worker *w)
{
	unsigned int nr, type = DRM_IOCTL_BASE, dir = below(w, 4);
	size_t size;
	unsigned long cmd;
	char *arg;
	int bad, err, intr;

	switch (below(w, 8)) {
	case 0:
		nr = DRM_BASE - 1 - below(w, 2);	/* 0x3e, 0x3f */
		break;
	case 1:
		nr = DRM_BASE + NR_KNOWN + below(w, 6);
		break;
	case 2:
		nr = DRM_BASE + below(w, DRM_COMMAND_END - DRM_BASE);
		break;
	default:
		nr = DRM_BASE + below(w, NR_KNOWN);
	}
	if (!below(w, 32))
		type = (unsigned int)below(w, 256);
	size = below(w, 8) ? below(w, 128) : below(w, 1 << 14);
	cmd = _IOC(dir, type, nr, size);
	arg = arg_place(w, size, &bad);
	if (!bad) {
		fill_random(w, arg, size);
		/* no fence fds we could not see and close */
		if (nr == DRM_BASE + DRM_HCCLT_SUBMIT && size > 24)
			arg[24] &= ~HCCLT_SUBMIT_FENCE_OUT;
	}
	intr = nr == DRM_BASE + DRM_HCCLT_STREAM_SYNC;
	err = do_ioctl(w, cmd, arg, intr);
	atomic_fetch_add(&calls_done, 1);
	if (err && !errno_ok(nr, type == DRM_IOCTL_BASE, err, intr)) {
		atomic_fetch_add(&bad_errnos, 1);
		printf("# FAIL raw cmd %#lx (nr %#x size %zu) -> errno %d (%s), not documented\n",
		       cmd, nr, size, err, strerror(err));
	}
	if (!err && nr >= DRM_BASE && nr < DRM_BASE + NR_DRIVER &&
	    type == DRM_IOCTL_BASE)
		atomic_fetch_add(&succeeded[nr - DRM_BASE], 1);
}

/*
 * A DRM core syncobj ioctl with a handle array, on the file's syncobj
 * handles (random, mostly invalid: -ENOENT) with a count of 0, 1,
 * HCCLT_MAX_SYNCOBJ_HANDLES, one more or 2^32 - 1, or a random one, and
 * never-blocking waits. A count above the limit must be -EINVAL (the
 * driver refuses it before the DRM core sizes allocations by it), unless
 * the argument itself was unreadable (-EFAULT).
 */
static void syncobj_call(struct worker *w)
{
	static const __u32 counts[] = {
		0, 1, HCCLT_MAX_SYNCOBJ_HANDLES, HCCLT_MAX_SYNCOBJ_HANDLES + 1,
		0xffffffffU
	};
	static const unsigned long sync_cmds[] = {
		DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
		DRM_IOCTL_SYNCOBJ_RESET, DRM_IOCTL_SYNCOBJ_SIGNAL,
		DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, DRM_IOCTL_SYNCOBJ_QUERY,
	};
	unsigned int k = below(w, HCCLT_ARRAY_SIZE(sync_cmds));
	unsigned long cmd = sync_cmds[k];
	__u32 count = below(w, 4) ? counts[below(w, HCCLT_ARRAY_SIZE(counts))]
				  : v32(w);
	size_t len = (count < HCCLT_MAX_SYNCOBJ_HANDLES ?
		      count : HCCLT_MAX_SYNCOBJ_HANDLES) * sizeof(__u64);
	union {
		struct drm_syncobj_wait wait;
		struct drm_syncobj_timeline_wait twait;
		struct drm_syncobj_array array;
		struct drm_syncobj_timeline_array tarray;
	} *a;
	int bad, err;

	a = arg_place(w, sizeof(*a), &bad);
	if (!bad) {
		memset(a, 0, sizeof(*a));
		switch (k) {
		case 0:
			a->wait.handles = vptr(w, len);
			a->wait.count_handles = count;
			a->wait.flags = vflag(w);
			break;
		case 1:
			a->twait.handles = vptr(w, len);
			a->twait.points = vptr(w, len);
			a->twait.count_handles = count;
			a->twait.flags = vflag(w);
			break;
		case 2:
		case 3:
			a->array.handles = vptr(w, len);
			a->array.count_handles = count;
			break;
		default:
			a->tarray.handles = vptr(w, len);
			a->tarray.points = vptr(w, len);
			a->tarray.count_handles = count;
			a->tarray.flags = vflag(w);
		}
	}
	err = do_ioctl(w, cmd, a, 0);
	atomic_fetch_add(&calls_done, 1);
	/*
	 * A bad pointer: drm_ioctl() allocates the argument's copy before
	 * it copies (-ENOMEM under failslab comes first).
	 */
	if (bad ? err == 0 || err == EFAULT || err == EINVAL || err == ENOMEM :
	    count > HCCLT_MAX_SYNCOBJ_HANDLES ? err == EINVAL :
	    err == 0 || err == EINVAL || err == ENOENT || err == ETIME ||
	    err == EFAULT || err == ENOMEM || err == EOPNOTSUPP ||
	    err == ENODEV)
		return;
	atomic_fetch_add(&bad_errnos, 1);
	printf("# FAIL syncobj cmd %#lx with %u handles%s -> errno %d (%s), not documented\n",
	       cmd, count, bad ? " (bad argument pointer)" : "", err,
	       strerror(err));
}

static int fail_mode;

/* Opt this thread in to fault injection (task-filter). */
static void make_it_fail(void)
{
	int fd;

	if (!fail_mode)
		return;
	fd = open("/proc/thread-self/make-it-fail", O_WRONLY);
	if (fd < 0 || write(fd, "1", 1) != 1)
		printf("# make-it-fail: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
}

static void *worker_main(void *p)
{
	struct worker *w = p;

	make_it_fail();
	while (!atomic_load(&stop) && atomic_fetch_sub(&calls_left, 1) > 0) {
		unsigned int r = below(w, 100);

		if (r < 3)
			syncobj_call(w);
		else if (r < 15)
			raw(w);
		else if (r < 25)	/* keep a supply of objects */
			structured(w, below(w, 3) ? DRM_HCCLT_COMM_CREATE :
					  DRM_HCCLT_STREAM_CREATE);
		else
			structured(w, below(w, NR_DRIVER));
	}
	return NULL;
}

static void *closer_main(void *p)
{
	struct worker *w = p;

	make_it_fail();
	while (!atomic_load(&stop)) {
		int nfd, old;

		hcclt_msleep(5 + below(w, 60));
		nfd = hcclt_open();
		if (nfd < 0)
			continue;
		/*
		 * Replace the file behind the workers' fd number in one step:
		 * close() then open() would let the number be reused by a
		 * fence fd of another worker in between.
		 */
		old = atomic_load(&dev_fd);
		if (dup3(nfd, old, O_CLOEXEC) < 0)
			printf("# dup3: %s\n", strerror(errno));
		close(nfd);
		atomic_fetch_add(&reopens, 1);
	}
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void *watchdog_main(void *p)
{
	(void)p;
	while (!atomic_load(&stop)) {
		long long now = hcclt_now_ms();
		int i;

		for (i = 0; i < nworkers; i++) {
			long long t = atomic_load(&workers[i].call_start);

			if (!t || now - t < 150)
				continue;
			if (atomic_load(&workers[i].interruptible))
				pthread_kill(workers[i].tid, SIGUSR1);
			if (now - t > 2 * HCCLT_SLOW_MS) {
				printf("# FAIL worker %d: ioctl stuck for %lld ms\n",
				       i, now - t);
				fflush(stdout);
				_exit(KSFT_FAIL);
			}
		}
		hcclt_msleep(50);
	}
	return NULL;
}

static unsigned long long env_or(const char *name, const char *arg,
				 unsigned long long def)
{
	const char *s = arg ? arg : getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

int main(int argc, char **argv)
{
	struct drm_hcclt_query q0, q;
	unsigned long long seed, ncalls;
	struct worker closer = { 0 };
	pthread_t ct, wt;
	struct sigaction sa;
	int fd, i, pools_ok, reached;
	long total_ok = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	fd = hcclt_open();
	if (fd < 0)
		ksft_exit_skip("no hcclthread device (%s)\n", strerror(-fd));
	if (hcclt_query(fd, &q0))
		ksft_exit_fail_msg("QUERY failed: %s\n", strerror(errno));

	seed = env_or("HCCLT_FUZZ_SEED", argc > 1 ? argv[1] : NULL,
		      (unsigned long long)time(NULL) ^ ((unsigned long long)getpid() << 32));
	ncalls = env_or("HCCLT_FUZZ_CALLS", argc > 2 ? argv[2] : NULL, 20000);
	nworkers = (int)env_or("HCCLT_FUZZ_THREADS", argc > 3 ? argv[3] : NULL, 4);
	fail_mode = (int)env_or("HCCLT_FUZZ_FAIL", NULL, 0);
	if (nworkers < 1 || nworkers > MAX_WORKERS)
		nworkers = 4;
	ksft_set_plan(3);
	ksft_print_msg("seed %llu, %llu calls, %d threads%s (rerun: %s %llu %llu %d)\n",
		       seed, ncalls, nworkers,
		       fail_mode ? ", fault injection" : "", argv[0], seed,
		       ncalls, nworkers);

	pagesz = sysconf(_SC_PAGESIZE);
	ro_page = mmap(NULL, pagesz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	unmapped = mmap(NULL, pagesz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (ro_page == MAP_FAILED || unmapped == MAP_FAILED)
		ksft_exit_fail_msg("mmap\n");
	munmap(unmapped, pagesz);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;	/* no SA_RESTART */
	sigaction(SIGUSR1, &sa, NULL);

	atomic_store(&dev_fd, fd);
	atomic_store(&calls_left, (long)ncalls);
	for (i = 0; i < nworkers; i++) {
		struct worker *w = &workers[i];
		char *m = mmap(NULL, SCRATCH_SIZE + pagesz,
			       PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			ksft_exit_fail_msg("mmap scratch\n");
		mprotect(m + SCRATCH_SIZE, pagesz, PROT_NONE);
		w->scratch = m;
		w->idx = i;
		w->rng = (seed + 0x9E3779B97F4A7C15ULL * (i + 1)) | 1;
	}
	closer.rng = (seed ^ 0xC105E7ULL) | 1;
	for (i = 0; i < nworkers; i++)
		pthread_create(&workers[i].tid, NULL, worker_main, &workers[i]);
	pthread_create(&ct, NULL, closer_main, &closer);
	pthread_create(&wt, NULL, watchdog_main, NULL);
	for (i = 0; i < nworkers; i++)
		pthread_join(workers[i].tid, NULL);
	atomic_store(&stop, 1);
	pthread_join(ct, NULL);
	pthread_join(wt, NULL);
	close(atomic_load(&dev_fd));

	for (i = 0; i < NR_DRIVER; i++) {
		long n = atomic_load(&succeeded[i]);

		total_ok += n;
		ksft_print_msg("  %-28s %6ld succeeded\n", names[i], n);
	}
	ksft_print_msg("%ld calls, %ld succeeded, %ld reopens, %ld fences, %ld undocumented errnos\n",
		       atomic_load(&calls_done), total_ok,
		       atomic_load(&reopens), atomic_load(&fences),
		       atomic_load(&bad_errnos));

	ksft_test_result(atomic_load(&bad_errnos) == 0,
			 "only documented errnos (seed %llu)\n", seed);
	/*
	 * A fuzzer that never gets past validation tests nothing. Under
	 * fault injection a SUBMIT, which needs a thread of an acquire that
	 * succeeded and tasks that pass every check, may never succeed
	 * (seen once on debug 6.1: 24 acquires, 0 submits, 2026-12-07): it
	 * is reported, not required, there.
	 */
	reached = 1;
	for (i = 0; i < NR_DRIVER; i++)
		if (i != DRM_HCCLT_COMM_DESTROY &&
		    i != DRM_HCCLT_STREAM_DESTROY &&
		    atomic_load(&succeeded[i]) == 0 && ncalls >= 5000) {
			ksft_print_msg("no successful %s\n", names[i]);
			if (!(fail_mode && i == DRM_HCCLT_SUBMIT))
				reached = 0;
		}
	ksft_test_result(reached, "calls reached the driver's object code\n");

	fd = hcclt_open();
	pools_ok = fd >= 0 && hcclt_wait_pools(fd, &q0, &q, 10000) == 0;
	if (!pools_ok && fd >= 0)
		ksft_print_msg("pools after: streams %u/%u notifies %u/%u comms %u/%u files %u/%u\n",
			       q.streams_used, q0.streams_used, q.notifies_used,
			       q0.notifies_used, q.comms, q0.comms, q.files,
			       q0.files);
	ksft_test_result(pools_ok, "device pools back at their initial values\n");
	if (fd >= 0)
		close(fd);
	ksft_finished();
	return 0;
}
