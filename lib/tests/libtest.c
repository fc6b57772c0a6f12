// SPDX-License-Identifier: MIT
/*
 * hcclt-libtest: libhcclthread against the real hcclthread module.
 *
 * Every public call through the library, the hcomm-semantics.md cases
 * (quota 40/64 cumulative and all-or-nothing, AIV after the quota, same
 * stream same handle, larger notify count, export caching, record/wait
 * handshake, binary notifies, sync timeout codes), 16 threads acquiring at
 * once on one communicator with exact totals, completion fds, teardown with
 * parked waits, fork() and device pool exhaustion when the pool is small.
 *
 * TAP on stdout. Exit 0 all passed, 1 a test failed, 4 no device (skip).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "hccl/hccl.h"
#include "hccl/hccl_res.h"
#include "hccl/hccl_rank_graph.h"
#include "hcomm/hcomm_primitives_expt.h"
#include "hccl/hcomm_primitives.h"
#include "acl/acl.h"
#include "acl/acl_prof.h"
#include "hccl/hccl_comm.h"
#include "hccl/hccl_diag.h"
#include "hcomm/hcomm_primitives.h"
#include "hcclthread.h"
#include "hcclthread_accel.h"
#include "tap.h"

#define CHECK_HCCL(call, want, ...) TAP_EQ((call), (want), __VA_ARGS__)

/*
 * Allocation counter: the executable's malloc family interposes on every
 * shared object's, libhcclthread.so included (not under ASan, which owns
 * malloc itself).
 */
#if defined(__SANITIZE_ADDRESS__)
#define COUNT_ALLOCS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COUNT_ALLOCS 0
#endif
#endif
#ifndef COUNT_ALLOCS
#define COUNT_ALLOCS 1
#endif

static _Thread_local unsigned long allocs;

#if COUNT_ALLOCS
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t size);

void *malloc(size_t size)
{
	allocs++;
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	allocs++;
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	allocs++;
	return __libc_realloc(p, size);
}
#endif

/*
 * STREAM_SYNC counter: the executable's ioctl (exported with
 * --export-dynamic-symbol) interposes on libdrm's, and makes the system
 * call itself.
 */
static _Atomic unsigned long sync_ioctls;

int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == DRM_IOCTL_HCCLT_STREAM_SYNC)
		sync_ioctls++;
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

static hccltDeviceUsage dev0;

static volatile sig_atomic_t ticks;

static void on_tick(int sig)
{
	(void)sig;
	ticks++;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static HcclComm new_comm(void)
{
	HcclComm c = NULL;
	int32_t d = 0;

	if (HcclCommInitAll(1, &d, &c) != HCCL_SUCCESS)
		return NULL;
	return c;
}

static hccltCommUsage usage(HcclComm c)
{
	hccltCommUsage u;

	memset(&u, 0xff, sizeof(u));
	hccltCommGetUsage(c, &u);
	return u;
}

static hccltDeviceUsage devusage(void)
{
	hccltDeviceUsage u;

	memset(&u, 0, sizeof(u));
	hccltGetDeviceUsage(0, &u);
	return u;
}

static int distinct(const ThreadHandle *h, int n)
{
	int i, j;

	for (i = 0; i < n; i++) {
		if (!h[i])
			return 0;
		for (j = 0; j < i; j++)
			if (h[i] == h[j])
				return 0;
	}
	return 1;
}

/* ---- quota rule sets (module parameter quota_rules) ---------------------- */

/* QUERY of device 0 as the driver answers it (set by test_devices()). */
static struct drm_hcclt_query quota;

static void quota_query(struct drm_hcclt_query *q)
{
	int fd;

	memset(q, 0, sizeof(*q));
	fd = open(dev0.node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	if (ioctl(fd, DRM_IOCTL_HCCLT_QUERY, q))
		memset(q, 0, sizeof(*q));
	close(fd);
}

/* The active rule set: the seed's on a driver without the feature. */
static uint32_t rules_id(void)
{
	return quota.features & HCCLT_FEATURE_QUOTA_RULES ? quota.quota_rules : HCCLT_QUOTA_RULES_SEED;
}

static const char *rules_name(void)
{
	switch (rules_id()) {
	case HCCLT_QUOTA_RULES_SEED:
		return "seed";
	case HCCLT_QUOTA_RULES_2026_04:
		return "2026-04";
	case HCCLT_QUOTA_RULES_2026_08:
		return "2026-08";
	}
	return "unknown";
}

static uint32_t rules_threads(void)
{
	return rules_id() == HCCLT_QUOTA_RULES_2026_08 ? 200 : 40;
}

static uint32_t rules_notifies(void)
{
	switch (rules_id()) {
	case HCCLT_QUOTA_RULES_2026_04:
		return 640;
	case HCCLT_QUOTA_RULES_2026_08:
		return 65536;
	}
	return 64;
}

/* ---- devices ------------------------------------------------------------ */

static void *other_thread_getdevice(void *arg)
{
	int32_t d = -1;

	*(aclError *)arg = aclrtGetDevice(&d);
	return NULL;
}

static void test_devices(void)
{
	pthread_t t;
	aclError other = 0;
	int32_t d = -1;

	TAP_EQ(hccltGetDeviceUsage(0, &dev0), ACL_SUCCESS, "hccltGetDeviceUsage(0)");
	TAP_EQ(dev0.uapiMajor, 1, "driver uAPI major is 1 (%s)", dev0.node);
	quota_query(&quota);
	TAP_EQ(dev0.maxThreadsPerComm, rules_threads(), "device reports %u threads per communicator (%s rules)",
	       rules_threads(), rules_name());
	TAP_EQ(dev0.maxNotifiesPerComm, rules_notifies(), "device reports %u notifies per communicator (%s rules)",
	       rules_notifies(), rules_name());
	tap_ok(!(dev0.engines & (1u << COMM_ENGINE_AIV)) && (dev0.engines & (1u << COMM_ENGINE_AICPU_TS)),
	       "engines: AICPU_TS yes, AIV no (0x%x)", dev0.engines);
	TAP_EQ(dev0.streamEngines, (1u << COMM_ENGINE_CPU) | (1u << COMM_ENGINE_CPU_TS) | (1u << COMM_ENGINE_CCU),
	       "stream-wrapping engines are CPU, CPU_TS, CCU");
	TAP_EQ(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice before aclrtSetDevice -> ACL_ERROR_RT_CONTEXT_NULL");
	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "aclrtSetDevice(0)");
	TAP_EQ(aclrtGetDevice(&d), ACL_SUCCESS, "aclrtGetDevice");
	TAP_EQ(d, 0, "current device is 0");
	pthread_create(&t, NULL, other_thread_getdevice, &other);
	pthread_join(t, NULL);
	TAP_EQ(other, ACL_ERROR_RT_CONTEXT_NULL, "the current device is per thread");
	TAP_EQ(aclrtResetDevice(0), ACL_SUCCESS, "aclrtResetDevice(0)");
	TAP_EQ(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL, "no current device after aclrtResetDevice");
	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "aclrtSetDevice(0) again");
	TAP_EQ(aclrtSetDevice(HCCLT_MAX_DEVICES), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtSetDevice(16) -> ACL_ERROR_RT_INVALID_DEVICEID");
}

/* ---- acquire and quota -------------------------------------------------- */

static void test_acquire(void)
{
	ThreadHandle th[41];
	hccltDeviceUsage before = devusage(), after;
	hccltThreadInfo ti;
	hccltCommUsage u;
	HcclComm c = new_comm(), c2;

	tap_ok(c != NULL, "HcclCommInitAll(1, {0})");
	if (!c)
		return;
	TAP_EQ(devusage().comms, before.comms + 1, "the device counts one more communicator");
	u = usage(c);
	tap_ok(u.threadsUsed == 0 && u.notifiesUsed == 0 && u.threadsMax == 40 && u.notifiesMax == 64,
	       "new communicator: 0/40 threads, 0/64 notifies");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_AICPU_TS, 5, 2, th), HCCL_SUCCESS, "acquire 5 AICPU_TS threads x 2 notifies");
	tap_ok(distinct(th, 5), "5 distinct non-zero handles");
	u = usage(c);
	tap_ok(u.threadsUsed == 5 && u.notifiesUsed == 10, "usage 5/40 threads, 10/64 notifies (got %u, %u)",
	       u.threadsUsed, u.notifiesUsed);
	after = devusage();
	TAP_EQ(after.streamsUsed - before.streamsUsed, 5, "device stream pool: +5");
	TAP_EQ(after.notifiesUsed - before.notifiesUsed, 10, "device notify pool: +10");
	CHECK_HCCL(hccltThreadGetInfo(th[0], &ti), HCCL_SUCCESS, "hccltThreadGetInfo");
	tap_ok(ti.engine == COMM_ENGINE_AICPU_TS && ti.notifyNum == 2 && !ti.wrapped && !ti.exported &&
	       ti.state == HCCLT_THREAD_IDLE && ti.queueDepth == 0,
	       "thread info: AICPU_TS, 2 notifies, idle, own stream");

	/* cumulative thread quota, shared by all engines */
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU, 30, 1, th), HCCL_SUCCESS, "acquire 30 more CPU threads (35/40)");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CCU, 6, 0, th), HCCL_E_UNAVAIL, "6 more threads (41/40) -> HCCL_E_UNAVAIL");
	u = usage(c);
	tap_ok(u.threadsUsed == 35 && u.notifiesUsed == 40, "refused call changed no counter (35, 40)");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CCU, 5, 4, th), HCCL_SUCCESS, "5 CCU threads x 4 notifies: exactly 40/40 and 60/64");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 0, th), HCCL_E_UNAVAIL, "41st thread -> HCCL_E_UNAVAIL");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_AIV, 1, 0, th), HCCL_E_UNAVAIL, "AIV on a full communicator -> HCCL_E_UNAVAIL (quota first)");
	u = usage(c);
	tap_ok(u.threadsUsed == 40 && u.notifiesUsed == 60, "usage 40/40, 60/64");
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "HcclCommDestroy");
	after = devusage();
	tap_ok(after.streamsUsed == before.streamsUsed && after.notifiesUsed == before.notifiesUsed &&
	       after.comms == before.comms, "device pools back to their values after destroy");

	/* notify quota */
	c2 = new_comm();
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_AICPU, 1, 64, th), HCCL_SUCCESS, "1 thread x 64 notifies");
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_AICPU, 1, 1, th), HCCL_E_UNAVAIL, "65th notify -> HCCL_E_UNAVAIL");
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_AICPU, 39, 0, th), HCCL_SUCCESS, "39 threads with 0 notifies still fit");
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_AIV, 1, 0, th), HCCL_E_UNAVAIL, "AIV beyond the quota -> HCCL_E_UNAVAIL");
	u = usage(c2);
	tap_ok(u.threadsUsed == 40 && u.notifiesUsed == 64, "usage exactly 40/40, 64/64");
	HcclCommDestroy(c2);

	c2 = new_comm();
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_AIV, 1, 1, th), HCCL_E_PARA, "AIV within the quota -> HCCL_E_PARA");
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 40, 2, th), HCCL_E_UNAVAIL, "40 x 2 notifies -> HCCL_E_UNAVAIL");
	u = usage(c2);
	tap_ok(u.threadsUsed == 0 && u.notifiesUsed == 0, "refused AIV and quota calls changed nothing");
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 40, 0, th), HCCL_SUCCESS, "40 threads in one call");
	tap_ok(distinct(th, 40), "40 distinct handles");
	HcclCommDestroy(c2);
}

/* ---- 16 threads at once -------------------------------------------------- */

struct racer {
	HcclComm comm;
	pthread_barrier_t *bar;
	uint32_t tnum, nnum;
	int ok, unavail, other;
	ThreadHandle got[40];
};

static void *race(void *arg)
{
	struct racer *r = arg;
	ThreadHandle th[4];
	HcclResult ret;
	uint32_t i;

	pthread_barrier_wait(r->bar);
	for (;;) {
		ret = HcclThreadAcquire(r->comm, (CommEngine)(r->ok % 2 ? COMM_ENGINE_CPU : COMM_ENGINE_AICPU_TS),
					r->tnum, r->nnum, th);
		if (ret == HCCL_SUCCESS) {
			for (i = 0; i < r->tnum; i++)
				r->got[r->ok * r->tnum + i] = th[i];
			r->ok++;
		} else if (ret == HCCL_E_UNAVAIL) {
			if (++r->unavail >= 3)
				break;
		} else {
			r->other++;
			break;
		}
	}
	return NULL;
}

static void race_round(uint32_t tnum, uint32_t nnum, int want_calls)
{
	struct racer r[16];
	pthread_barrier_t bar;
	pthread_t t[16];
	ThreadHandle all[64];
	int i, j, calls = 0, other = 0, n = 0;
	hccltCommUsage u;
	HcclComm c = new_comm();

	pthread_barrier_init(&bar, NULL, 16);
	for (i = 0; i < 16; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].comm = c;
		r[i].bar = &bar;
		r[i].tnum = tnum;
		r[i].nnum = nnum;
		pthread_create(&t[i], NULL, race, &r[i]);
	}
	for (i = 0; i < 16; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	for (i = 0; i < 16; i++) {
		calls += r[i].ok;
		other += r[i].other;
		for (j = 0; j < r[i].ok * (int)tnum && n < 64; j++)
			all[n++] = r[i].got[j];
	}
	u = usage(c);
	TAP_EQ(other, 0, "16 threads x acquire(%u, %u): no error but HCCL_E_UNAVAIL", tnum, nnum);
	TAP_EQ(calls, want_calls, "16 threads x acquire(%u, %u): exactly %d calls succeed", tnum, nnum, want_calls);
	tap_ok(u.threadsUsed == (uint32_t)want_calls * tnum && u.notifiesUsed == (uint32_t)want_calls * tnum * nnum,
	       "16 threads x acquire(%u, %u): usage %u threads, %u notifies (want %u, %u)", tnum, nnum,
	       u.threadsUsed, u.notifiesUsed, want_calls * tnum, want_calls * tnum * nnum);
	tap_ok(distinct(all, n), "16 threads x acquire(%u, %u): all %d handles distinct", tnum, nnum, n);
	HcclCommDestroy(c);
}

/*
 * A child without CAP_SYS_ADMIN (whose files the shares refuse) fills its
 * file's share of the notify pool (50% of 8192) with communicators of the
 * rule set's largest acquire; the next one is refused with HCCL_E_UNAVAIL
 * (-EDQUOT of the share), under every rule set.
 */
static void quota_share_child(void)
{
	uint32_t per = rules_notifies() < 4096 ? rules_notifies() : 4096, k = 4096 / per, i;
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { { ~(1u << CAP_SYS_ADMIN), ~(1u << CAP_SYS_ADMIN), 0 },
					       { ~0u, ~0u, 0 } };
	int status = 0, bits = 0;
	ThreadHandle t;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (syscall(SYS_capget, &h, d) || (d[0].effective &= ~(1u << CAP_SYS_ADMIN),
						  d[0].permitted &= ~(1u << CAP_SYS_ADMIN),
						  syscall(SYS_capset, &h, d)))
			_exit(8);
		aclrtSetDevice(0);
		for (i = 0; i < k; i++)
			if (HcclThreadAcquire(new_comm(), COMM_ENGINE_CPU, 1, per, &t) != HCCL_SUCCESS)
				bits |= 1;
		if (HcclThreadAcquire(new_comm(), COMM_ENGINE_CPU, 1, per, &t) != HCCL_E_UNAVAIL)
			bits |= 2;
		_exit(bits);
	}
	waitpid(pid, &status, 0);
	bits = WIFEXITED(status) ? WEXITSTATUS(status) : 16;
	tap_ok(!(bits & ~3), "%s rules, share case: the child ran without CAP_SYS_ADMIN (status %d)", rules_name(),
	       bits);
	tap_ok(!(bits & 1), "%s rules: %u communicators x %u notifies fill the file's share (4096)", rules_name(), k,
	       per);
	tap_ok(!(bits & 2), "%s rules: one more -> HCCL_E_UNAVAIL (the share, under every rule set)", rules_name());
}

/*
 * The active quota rule set, as an operator written for it sees it: 1
 * wrapped-stream notify plus 8 threads x 8 notifies (65), the thread
 * limit, the argument limits and their codes, wrapped notifies counted or
 * not, and the fair shares, which apply under every rule set.
 */
static void test_quota_rules(void)
{
	uint32_t id = rules_id(), want, grown;
	ThreadHandle *th, w = 0, x = 0, y = 0;
	aclrtStream s = NULL, s2 = NULL;
	hccltDeviceUsage before = devusage(), after;
	hccltThreadInfo ti;
	hccltCommUsage u;
	HcclComm c, c2;

	printf("# quota rules: %s\n", rules_name());
	tap_ok(quota.features & HCCLT_FEATURE_QUOTA_RULES, "QUERY has HCCLT_FEATURE_QUOTA_RULES (uAPI 1.%u)",
	       quota.uapi_minor);
	tap_ok(quota.uapi_minor >= 10, "uAPI minor is at least 10 (%u)", quota.uapi_minor);
	want = id == HCCLT_QUOTA_RULES_SEED ? HCCLT_QUOTA_F_WRAPPED_COUNTED :
	       id == HCCLT_QUOTA_RULES_2026_04 ? HCCLT_QUOTA_F_WRAPPED_COUNTED | HCCLT_QUOTA_F_ARGS_EINVAL |
						 HCCLT_QUOTA_F_WRAP_CACHED_FIRST :
	       HCCLT_QUOTA_F_ARGS_EINVAL | HCCLT_QUOTA_F_WRAP_CACHED_FIRST;
	TAP_EQ(quota.quota_flags, want, "%s rules: quota flags", rules_name());
	TAP_EQ(quota.max_threads_per_call, rules_threads(), "%s rules: threads per call", rules_name());
	TAP_EQ(quota.max_notifies_per_thread,
	       id == HCCLT_QUOTA_RULES_2026_08 ? 65535u : rules_notifies(), "%s rules: notifies per thread",
	       rules_name());
	th = calloc(rules_threads() + 1, sizeof(*th));
	if (!th)
		return;

	/* 1 wrapped-stream notify + 8 threads x 8 notifies = 65 */
	c = new_comm();
	TAP_EQ(aclrtCreateStream(&s), ACL_SUCCESS, "aclrtCreateStream");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 1, &w), HCCL_SUCCESS,
		   "%s rules: wrap a stream with 1 notify", rules_name());
	if (id == HCCLT_QUOTA_RULES_SEED) {
		CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_AICPU_TS, 8, 8, th), HCCL_E_UNAVAIL,
			   "seed rules: 1 wrapped notify + 8 x 8 = 65 -> HCCL_E_UNAVAIL, as always");
		u = usage(c);
		tap_ok(u.threadsUsed == 0 && u.notifiesUsed == 1 && u.notifiesMax == 64,
		       "seed rules: nothing counted but the wrapped notify (%u, %u/%u)", u.threadsUsed,
		       u.notifiesUsed, u.notifiesMax);
	} else {
		CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_AICPU_TS, 8, 8, th), HCCL_SUCCESS,
			   "%s rules: 1 wrapped notify + 8 x 8 = 65 fits", rules_name());
		u = usage(c);
		TAP_EQ(u.notifiesUsed, id == HCCLT_QUOTA_RULES_2026_04 ? 65u : 64u,
		       "%s rules: notifies counted (the wrapped one %s)", rules_name(),
		       id == HCCLT_QUOTA_RULES_2026_04 ? "too" : "not");
		TAP_EQ(u.notifiesMax, rules_notifies(), "hccltCommGetUsage: the rule set's notify quota");
		TAP_EQ(u.threadsMax, rules_threads(), "hccltCommGetUsage: the rule set's thread quota");
	}
	/* a wrapped stream's existing thread with another engine */
	if (id == HCCLT_QUOTA_RULES_SEED) {
		CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_AICPU_TS, s, 1, &x), HCCL_E_PARA,
			   "seed rules: AICPU_TS on a wrapped stream -> HCCL_E_PARA (engine first)");
	} else {
		CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_AICPU_TS, s, 1, &x), HCCL_SUCCESS,
			   "%s rules: AICPU_TS on a wrapped stream -> its thread (cached first, as hcomm)",
			   rules_name());
		TAP_EQ(x, w, "... the same handle");
	}
	TAP_EQ(aclrtCreateStream(&s2), ACL_SUCCESS, "second stream");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_AICPU_TS, s2, 1, &y), HCCL_E_PARA,
		   "%s rules: AICPU_TS on a new stream -> HCCL_E_PARA", rules_name());
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_RESERVED, s, 1, &y), HCCL_E_PARA,
		   "%s rules: an engine out of range -> HCCL_E_PARA", rules_name());
	/* a wrapped thread grows past its inline notifies, and they work */
	grown = id == HCCLT_QUOTA_RULES_SEED ? 2 : 40;
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, grown, &x), HCCL_SUCCESS,
		   "%s rules: grow the wrapped thread to %u notifies", rules_name(), grown);
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, grown + 3, &x), HCCL_SUCCESS,
		   "%s rules: and to %u", rules_name(), grown + 3);
	hccltThreadGetInfo(w, &ti);
	TAP_EQ(ti.notifyNum, grown + 3, "wrapped thread's notify count");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(w, w, ti.notifyNum - 1), HCCL_SUCCESS,
		   "record its last notify");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(w, ti.notifyNum - 1, 5), HCCL_SUCCESS, "wait for it");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "the stream completes");
	u = usage(c);
	if (id == HCCLT_QUOTA_RULES_2026_08)
		TAP_EQ(u.notifiesUsed, 64u, "2026-08 rules: the grown wrapped thread still counts nothing");
	HcclCommDestroy(c);

	/* the thread limit and the argument limits */
	c2 = new_comm();
	switch (id) {
	case HCCLT_QUOTA_RULES_SEED:
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 41, 0, th), HCCL_E_UNAVAIL,
			   "seed rules: 41 threads -> HCCL_E_UNAVAIL");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 65, th), HCCL_E_UNAVAIL,
			   "seed rules: 65 notifies per thread -> HCCL_E_UNAVAIL");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 65536, th), HCCL_E_UNAVAIL,
			   "seed rules: 65536 notifies per thread -> HCCL_E_UNAVAIL");
		break;
	case HCCLT_QUOTA_RULES_2026_04:
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 41, 0, th), HCCL_E_PARA,
			   "2026-04 rules: 41 threads -> HCCL_E_PARA (resource manager's limit)");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 641, th), HCCL_E_PARA,
			   "2026-04 rules: 641 notifies per thread -> HCCL_E_PARA");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 640, th), HCCL_SUCCESS,
			   "2026-04 rules: 1 thread x 640 notifies");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 1, th), HCCL_E_UNAVAIL,
			   "2026-04 rules: the 641st notify -> HCCL_E_UNAVAIL");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 39, 0, th), HCCL_SUCCESS,
			   "2026-04 rules: 39 more threads (40/40)");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 0, th), HCCL_E_UNAVAIL,
			   "2026-04 rules: the 41st thread -> HCCL_E_UNAVAIL");
		break;
	case HCCLT_QUOTA_RULES_2026_08:
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 201, 0, th), HCCL_E_PARA,
			   "2026-08 rules: 201 threads -> HCCL_E_PARA");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 65536, th), HCCL_E_PARA,
			   "2026-08 rules: notifyNumPerThread 65536 -> HCCL_E_PARA");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 65, th), HCCL_SUCCESS,
			   "2026-08 rules: 65 notifies per thread (HcclThreadAcquire has no 64 cap)");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 199, 0, th), HCCL_SUCCESS,
			   "2026-08 rules: 199 more threads (200/200)");
		tap_ok(distinct(th, 199), "199 distinct handles");
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 0, th), HCCL_E_UNAVAIL,
			   "2026-08 rules: the 201st thread -> HCCL_E_UNAVAIL");
		u = usage(c2);
		tap_ok(u.threadsUsed == 200 && u.notifiesUsed == 65, "2026-08 rules: 200/200 threads, 65 notifies");
		HcclCommDestroy(c2);
		c2 = new_comm();
		CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 200, 0, th), HCCL_SUCCESS,
			   "2026-08 rules: 200 threads in one call");
		break;
	}
	HcclCommDestroy(c2);

	/* the fair shares apply under every rule set (50% of 8192 notifies) */
	if (before.notifiesTotal == 8192 && before.notifiesUsed == 0)
		quota_share_child();
	else
		tap_skip("fair share case: the device's notify pool is not 8192 and unused");
	TAP_EQ(aclrtDestroyStream(s), ACL_SUCCESS, "aclrtDestroyStream");
	TAP_EQ(aclrtDestroyStream(s2), ACL_SUCCESS, "aclrtDestroyStream second");
	after = devusage();
	tap_ok(after.streamsUsed == before.streamsUsed && after.notifiesUsed == before.notifiesUsed,
	       "%s rules: device pools back (%u streams, %u notifies)", rules_name(), after.streamsUsed,
	       after.notifiesUsed);
	free(th);
}

static void test_race(void)
{
	int rep;

	for (rep = 0; rep < 3; rep++) {
		race_round(1, 1, 40);	/* thread quota binds */
		race_round(2, 3, 10);	/* notify quota binds: 10 x 6 = 60 */
		race_round(3, 0, 13);	/* 13 x 3 = 39, the 14th would be 42 */
	}
}

/* ---- with stream, export ------------------------------------------------ */

static void test_with_stream_export(void)
{
	ThreadHandle h1 = 0, h2 = 0, a = 0, e1 = 0, e2 = 0, back = 0, other = 0, x = 0;
	aclrtStream s = NULL, s2 = NULL;
	hccltThreadInfo ti;
	hccltCommUsage u;
	HcclComm c = new_comm(), c2 = new_comm();

	TAP_EQ(aclrtCreateStream(&s), ACL_SUCCESS, "aclrtCreateStream");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 1, &h1), HCCL_SUCCESS, "HcclThreadAcquireWithStream CPU_TS, 1 notify");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 1, &h2), HCCL_SUCCESS, "same stream again");
	tap_ok(h1 && h1 == h2, "same stream gives the same handle");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 3, &h2), HCCL_SUCCESS, "same stream, 3 notifies");
	hccltThreadGetInfo(h1, &ti);
	tap_ok(h2 == h1 && ti.notifyNum == 3 && ti.wrapped, "same handle, now 3 notifies, wrapped");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 2, &h2), HCCL_SUCCESS, "same stream, 2 notifies");
	hccltThreadGetInfo(h1, &ti);
	tap_ok(h2 == h1 && ti.notifyNum == 3, "a smaller count changes nothing");
	u = usage(c);
	tap_ok(u.threadsUsed == 0 && u.notifiesUsed == 3 && u.threadCount == 1,
	       "wrapped stream: 0 threads against the quota, 3 notifies do count");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CCU, s, 1, &x), HCCL_SUCCESS, "same stream, another engine -> HCCL_SUCCESS (as hcomm)");
	tap_ok(x == h1, "... the existing handle");
	/* The seed rules check the engine first (test_quota_rules: the later ones). */
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_AICPU_TS, s, 1, &x), HCCL_E_PARA,
		   "AICPU_TS on a wrapped stream -> HCCL_E_PARA under the seed rules");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, (CommEngine)9, s, 1, &x), HCCL_E_PARA,
		   "engine 9 on a wrapped stream -> HCCL_E_PARA");
	TAP_EQ(aclrtCreateStream(&s2), ACL_SUCCESS, "a stream no thread wraps");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_AICPU_TS, s2, 1, &x), HCCL_E_PARA,
		   "AICPU_TS on a stream not wrapped -> HCCL_E_PARA");
	CHECK_HCCL(HcclThreadAcquireWithStream(c2, COMM_ENGINE_AICPU_TS, s, 1, &x), HCCL_E_PARA,
		   "AICPU_TS on a stream wrapped by another communicator -> HCCL_E_PARA");
	aclrtDestroyStream(s2);
	s2 = NULL;
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_AICPU, 1, 61, &x), HCCL_SUCCESS, "61 more notifies (64/64)");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 4, &x), HCCL_E_UNAVAIL,
		   "growing a wrapped thread beyond 64 notifies -> HCCL_E_UNAVAIL");
	TAP_EQ(aclrtCreateStream(&s2), ACL_SUCCESS, "second stream");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU, s2, 1, &x), HCCL_E_UNAVAIL,
		   "wrapping with notifies on a full communicator -> HCCL_E_UNAVAIL");
	CHECK_HCCL(HcclThreadAcquireWithStream(c2, COMM_ENGINE_CPU, s, 1, &other), HCCL_SUCCESS,
		   "the same stream wrapped on another communicator");
	tap_ok(other != h1, "another communicator gets its own handle");

	/* export */
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_AICPU_TS, 1, 1, &a), HCCL_SUCCESS, "AICPU_TS thread");
	CHECK_HCCL(HcclThreadExportToCommEngine(c2, 1, &a, COMM_ENGINE_CPU_TS, &e1), HCCL_SUCCESS, "export AICPU_TS -> CPU_TS");
	CHECK_HCCL(HcclThreadExportToCommEngine(c2, 1, &a, COMM_ENGINE_CPU_TS, &e2), HCCL_SUCCESS, "export again");
	tap_ok(e1 && e1 == e2 && e1 != a, "export is cached: same new handle");
	hccltThreadGetInfo(e1, &ti);
	tap_ok(ti.engine == COMM_ENGINE_CPU_TS && ti.notifyNum == 1 && ti.exported, "exported handle: CPU_TS, 1 notify, a view");
	CHECK_HCCL(HcclThreadExportToCommEngine(c2, 1, &e1, COMM_ENGINE_AICPU_TS, &back), HCCL_SUCCESS, "export the view back to AICPU_TS");
	tap_ok(back == a, "exporting back to the thread's own engine gives the thread");
	u = usage(c2);
	tap_ok(u.threadsUsed == 1 && u.notifiesUsed == 2 && u.exportedCount >= 1, "exports do not count against the quota");
	CHECK_HCCL(HcclThreadExportToCommEngine(c2, 1, &a, COMM_ENGINE_AIV, &x), HCCL_E_PARA, "export to AIV -> HCCL_E_PARA");
	CHECK_HCCL(HcclThreadExportToCommEngine(c2, 1, &h1, COMM_ENGINE_CPU, &x), HCCL_E_PARA,
		   "export of another communicator's handle -> HCCL_E_PARA");
	CHECK_HCCL(HcclThreadExportToCommEngine(c2, 41, &a, COMM_ENGINE_CPU, &x), HCCL_E_PARA, "export threadNum 41 -> HCCL_E_PARA");

	HcclCommDestroy(c);
	CHECK_HCCL(HcclCommDestroy(c2), HCCL_SUCCESS, "HcclCommDestroy");
	TAP_EQ(aclrtDestroyStream(s), ACL_SUCCESS, "aclrtDestroyStream");
	TAP_EQ(aclrtDestroyStream(s2), ACL_SUCCESS, "aclrtDestroyStream second");
	/* Stale handles: refused, and (under ASan) no read of freed memory. */
	CHECK_HCCL(HcclCommDestroy(c2), HCCL_E_PTR, "HcclCommDestroy of a destroyed communicator -> HCCL_E_PTR");
	CHECK_HCCL(HcclThreadAcquire(c2, COMM_ENGINE_CPU, 1, 1, &x), HCCL_E_PTR,
		   "HcclThreadAcquire on a destroyed communicator -> HCCL_E_PTR");
	TAP_EQ(aclrtDestroyStream(s2), ACL_ERROR_RT_INVALID_HANDLE,
	       "aclrtDestroyStream of a destroyed stream -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE,
	       "aclrtSynchronizeStream of a destroyed stream -> ACL_ERROR_RT_INVALID_HANDLE");
}

/* ---- record / wait -------------------------------------------------------- */

struct aicpu_side {
	ThreadHandle aicpu, exported_aicpu;
	int32_t wait_ret, record_ret;
	aclError sync_ret;
};

static void *aicpu_main(void *arg)
{
	struct aicpu_side *a = arg;

	a->wait_ret = HcommThreadNotifyWaitOnThread(a->aicpu, 0, 5);
	a->record_ret = HcommThreadNotifyRecordOnThread(a->aicpu, a->exported_aicpu, 0);
	a->sync_ret = hccltThreadSynchronize(a->aicpu, -1);
	return NULL;
}

static void test_record_wait(void)
{
	ThreadHandle cpu = 0, aicpu = 0, exp_cpu = 0, exp_aicpu = 0;
	struct aicpu_side side;
	aclrtStream s = NULL;
	pthread_t t;
	hccltThreadInfo ti;
	int fd = -1, i, pr;
	struct pollfd pfd;
	double t0, dt;
	HcclComm c = new_comm();

	aclrtCreateStream(&s);
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 1, &cpu), HCCL_SUCCESS, "handshake: CPU_TS thread on a stream");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_AICPU_TS, 1, 1, &aicpu), HCCL_SUCCESS, "handshake: AICPU_TS thread");
	CHECK_HCCL(HcclThreadExportToCommEngine(c, 1, &aicpu, COMM_ENGINE_CPU_TS, &exp_cpu), HCCL_SUCCESS, "handshake: export AICPU_TS -> CPU_TS");
	CHECK_HCCL(HcclThreadExportToCommEngine(c, 1, &cpu, COMM_ENGINE_AICPU_TS, &exp_aicpu), HCCL_SUCCESS, "handshake: export CPU_TS -> AICPU_TS");

	/* errors first */
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(cpu, exp_cpu, 1), HCCL_E_PTR, "record: index 1 of a 1-notify thread -> HCCL_E_PTR");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(cpu, aicpu, 0), HCCL_E_PARA, "record: CPU_TS -> AICPU_TS handle (engine mismatch) -> HCCL_E_PARA");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu, 1, 1), HCCL_E_PTR, "wait: index 1 of a 1-notify thread -> HCCL_E_PTR");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu | 0x0000ffffffffULL, 0, 1), HCCL_E_PTR, "wait: unknown handle -> HCCL_E_PTR");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "refused tasks queued nothing: sync succeeds");

	/* the seed's handshake */
	memset(&side, 0, sizeof(side));
	side.aicpu = aicpu;
	side.exported_aicpu = exp_aicpu;
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(cpu, exp_cpu, 0), HCCL_SUCCESS, "host: record on cpuThread -> exportedCpuThread");
	pthread_create(&t, NULL, aicpu_main, &side);
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu, 0, 60), HCCL_SUCCESS, "host: wait on cpuThread");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "host: aclrtSynchronizeStream == ACL_SUCCESS after the handshake");
	pthread_join(t, NULL);
	tap_ok(side.wait_ret == HCCL_SUCCESS && side.record_ret == HCCL_SUCCESS && side.sync_ret == ACL_SUCCESS,
	       "AICPU side (second host thread): wait, record, sync all succeed");

	/* record and wait allocate nothing */
	if (COUNT_ALLOCS) {
		unsigned long before = allocs;
		int bad = 0, k;

		for (k = 0; k < 100; k++) {
			bad |= HcommThreadNotifyRecordOnThread(cpu, cpu, 0);
			bad |= HcommThreadNotifyWaitOnThread(cpu, 0, 5);
		}
		bad |= aclrtSynchronizeStream(s);
		TAP_EQ(bad, 0, "100 record/wait pairs on one stream");
		TAP_EQ(allocs - before, 0, "record, wait and synchronize made no allocation");
		before = allocs;
		(void)HcommThreadNotifyRecordOnThread(cpu, cpu, 7);
		tap_ok(allocs - before > 0, "(the counter works: the error path that asks the kernel allocates)");
	} else {
		tap_skip("allocation counting (not under ASan)");
	}

	/* binary notify: two records release one wait */
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(aicpu, exp_aicpu, 0), HCCL_SUCCESS, "record 1");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(aicpu, exp_aicpu, 0), HCCL_SUCCESS, "record 2");
	TAP_EQ(hccltThreadSynchronize(aicpu, -1), ACL_SUCCESS, "records done");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu, 0, 1), HCCL_SUCCESS, "wait 1");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu, 0, 1), HCCL_SUCCESS, "wait 2 (1 s timeout)");
	t0 = now_ms();
	TAP_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_WAIT_TIMEOUT, "two records released one wait: sync -> ACL_ERROR_RT_WAIT_TIMEOUT");
	dt = now_ms() - t0;
	tap_ok(dt > 500 && dt < 60000, "the timed-out wait took about 1 s (%.0f ms)", dt);
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "the timeout is reported once, then sync succeeds");

	/* sync timeout on a blocked stream, then release */
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu, 0, 0), HCCL_SUCCESS, "wait without timeout");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "sync 100 ms on a blocked stream -> ACL_ERROR_RT_STREAM_SYNC_TIMEOUT");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "sync 0 ms (poll) on a blocked stream -> ACL_ERROR_RT_STREAM_SYNC_TIMEOUT");
	/*
	 * Signals every 20 ms (SA_RESTART): drmIoctl restarts the sync with
	 * the same absolute deadline, so it ends after its 400 ms, not never.
	 */
	{
		struct itimerval it = { { 0, 20000 }, { 0, 20000 } }, off;
		struct sigaction sa, old;

		memset(&sa, 0, sizeof(sa));
		memset(&off, 0, sizeof(off));
		sa.sa_handler = on_tick;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGALRM, &sa, &old);
		ticks = 0;
		setitimer(ITIMER_REAL, &it, NULL);
		t0 = now_ms();
		TAP_EQ(aclrtSynchronizeStreamWithTimeout(s, 400), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
		       "sync 400 ms under a signal every 20 ms -> ACL_ERROR_RT_STREAM_SYNC_TIMEOUT");
		dt = now_ms() - t0;
		setitimer(ITIMER_REAL, &off, NULL);
		sigaction(SIGALRM, &old, NULL);
		/* One restart shows it; how many signals land depends on the host. */
		tap_ok(dt >= 399 && dt < 20000 && ticks >= 1,
		       "it ended at its deadline (%.0f ms, %d signals)", dt, (int)ticks);
	}
	hccltThreadGetInfo(cpu, &ti);
	tap_ok(ti.state == HCCLT_THREAD_PARKED && ti.waitNotify == 0 && ti.queueDepth >= 1,
	       "thread info: parked on notify 0 (state %d, depth %u)", ti.state, ti.queueDepth);
	TAP_EQ(hccltStreamGetCompletionFd(s, &fd), ACL_SUCCESS, "hccltStreamGetCompletionFd");
	pfd.fd = fd;
	pfd.events = POLLIN;
	pr = poll(&pfd, 1, 0);
	TAP_EQ(pr, 0, "completion fd not readable while the stream is blocked");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(aicpu, exp_aicpu, 0), HCCL_SUCCESS, "record releases it");
	pr = poll(&pfd, 1, 10000);
	tap_ok(pr == 1 && (pfd.revents & POLLIN), "completion fd readable after the record");
	if (fd >= 0)
		close(fd);
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_SUCCESS, "sync succeeds after the record");
	fd = -1;
	CHECK_HCCL(hccltThreadGetCompletionFd(aicpu, &fd), HCCL_SUCCESS, "hccltThreadGetCompletionFd");
	pfd.fd = fd;
	tap_ok(poll(&pfd, 1, 10000) == 1, "idle thread's completion fd is readable");
	if (fd >= 0)
		close(fd);

	/* queue depth bound */
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu, 0, 0), HCCL_SUCCESS, "blocking wait");
	for (i = 1; i < (int)4096; i++)
		if (HcommThreadNotifyRecordOnThread(cpu, exp_cpu, 0) != HCCL_SUCCESS)
			break;
	TAP_EQ(i, 4096, "4096 tasks queue on one stream");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(cpu, exp_cpu, 0), HCCL_E_AGAIN, "task 4097 -> HCCL_E_AGAIN (queue full)");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(aicpu, exp_aicpu, 0), HCCL_SUCCESS, "release");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s, 60000), ACL_SUCCESS, "the 4096 tasks complete");

	/* teardown with a parked wait */
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(cpu, 0, 0), HCCL_SUCCESS, "park the stream forever");
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy the communicator with a parked wait");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_ERROR_RT_STREAM_ABORT, "sync -> ACL_ERROR_RT_STREAM_ABORT (cancelled)");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_SUCCESS, "then the stream is usable again");
	aclrtDestroyStream(s);
}

/* ---- fork ------------------------------------------------------------------ */

static void test_fork(void)
{
	ThreadHandle th[2] = { 0, 0 }, x, many[40];
	HcclComm c = new_comm(), cc = NULL;
	int status, bits;
	int32_t d = 0;
	pid_t pid;

	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU, 2, 1, th), HCCL_SUCCESS, "parent: 2 threads before fork");
	pid = fork();
	if (pid == 0) {
		bits = 0;
		if (HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 0, &x) != HCCL_E_PTR)
			bits |= 1;
		if (HcommThreadNotifyWaitOnThread(th[0], 0, 1) != HCCL_E_PTR)
			bits |= 2;
		if (HcclCommInitAll(1, &d, &cc) != HCCL_SUCCESS ||
		    HcclThreadAcquire(cc, COMM_ENGINE_CPU, 40, 1, many) != HCCL_SUCCESS ||
		    HcclThreadAcquire(cc, COMM_ENGINE_CPU, 1, 0, &x) != HCCL_E_UNAVAIL)
			bits |= 4;
		_exit(bits);
	}
	waitpid(pid, &status, 0);
	bits = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	tap_ok(!(bits & 1) && bits != 255, "fork child: parent's communicator -> HCCL_E_PTR");
	tap_ok(!(bits & 2) && bits != 255, "fork child: parent's thread handle -> HCCL_E_PTR");
	tap_ok(!(bits & 4) && bits != 255, "fork child: its own communicator works");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 0, &x), HCCL_SUCCESS, "parent's communicator still works after the child exited");
	tap_ok(usage(c).threadsUsed == 3, "parent's usage is its own (3 threads)");
	HcclCommDestroy(c);
}

/* ---- device pools ------------------------------------------------------------ */

static void test_pools(void)
{
	hccltDeviceUsage u = devusage(), v;
	aclrtStream s[256];
	HcclComm c[64];
	ThreadHandle th[4];
	uint32_t free_streams = u.streamsTotal - u.streamsUsed;
	int n = 0, nc = 0, i;
	aclError ret = ACL_SUCCESS;
	HcclResult hr = HCCL_SUCCESS;

	while (n < 256 && (ret = aclrtCreateStream(&s[n])) == ACL_SUCCESS)
		n++;
	TAP_EQ(ret, ACL_ERROR_RT_NO_STREAM_RESOURCE, "stream pool exhausted -> ACL_ERROR_RT_NO_STREAM_RESOURCE");
	TAP_EQ(n, free_streams, "exactly the free streams were created (%u)", free_streams);
	c[nc++] = new_comm();
	CHECK_HCCL(HcclThreadAcquire(c[0], COMM_ENGINE_CPU, 1, 0, th), HCCL_E_RUNTIME, "acquire with no stream left -> HCCL_E_RUNTIME");
	for (i = 0; i < n; i++)
		aclrtDestroyStream(s[i]);
	while (nc < 64 && hr == HCCL_SUCCESS) {
		hr = HcclThreadAcquire(c[nc - 1], COMM_ENGINE_CPU, 1, 32, th);
		if (hr == HCCL_SUCCESS && usage(c[nc - 1]).notifiesUsed == 64)
			c[nc++] = new_comm();
	}
	TAP_EQ(hr, HCCL_E_RUNTIME, "notify pool exhausted -> HCCL_E_RUNTIME (not HCCL_E_UNAVAIL)");
	for (i = 0; i < nc; i++)
		HcclCommDestroy(c[i]);
	v = devusage();
	tap_ok(v.streamsUsed == u.streamsUsed && v.notifiesUsed == u.notifiesUsed, "pools back to %u/%u streams, %u/%u notifies",
	       v.streamsUsed, v.streamsTotal, v.notifiesUsed, v.notifiesTotal);
}

/* ---- ping-pong from several user threads at once --------------------------- */

#define PP_PAIRS 4
#define PP_ROUNDS 250

struct pp_side {
	ThreadHandle self, peer;	/* peer: the other's handle, same engine */
	aclrtStream stream;
	int first, errors;
	pthread_barrier_t *bar;
};

static void *pp_main(void *arg)
{
	struct pp_side *p = arg;
	int i;

	pthread_barrier_wait(p->bar);
	for (i = 0; i < PP_ROUNDS; i++) {
		if (p->first && HcommThreadNotifyRecordOnThread(p->self, p->peer, 0) != HCCL_SUCCESS)
			p->errors++;
		if (HcommThreadNotifyWaitOnThread(p->self, 0, 30) != HCCL_SUCCESS)
			p->errors++;
		if (!p->first && HcommThreadNotifyRecordOnThread(p->self, p->peer, 0) != HCCL_SUCCESS)
			p->errors++;
		if (aclrtSynchronizeStream(p->stream) != ACL_SUCCESS)
			p->errors++;
	}
	return NULL;
}

static void test_pingpong(void)
{
	struct pp_side side[2 * PP_PAIRS];
	pthread_t t[2 * PP_PAIRS];
	pthread_barrier_t bar;
	HcclComm c = new_comm();
	int i, errors = 0;
	double t0, dt;

	pthread_barrier_init(&bar, NULL, 2 * PP_PAIRS);
	for (i = 0; i < 2 * PP_PAIRS; i++) {
		memset(&side[i], 0, sizeof(side[i]));
		aclrtCreateStream(&side[i].stream);
		if (HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, side[i].stream, 1, &side[i].self))
			errors++;
		side[i].first = !(i & 1);
		side[i].bar = &bar;
	}
	for (i = 0; i < 2 * PP_PAIRS; i++)
		side[i].peer = side[i ^ 1].self;
	t0 = now_ms();
	for (i = 0; i < 2 * PP_PAIRS; i++)
		pthread_create(&t[i], NULL, pp_main, &side[i]);
	for (i = 0; i < 2 * PP_PAIRS; i++) {
		pthread_join(t[i], NULL);
		errors += side[i].errors;
	}
	dt = now_ms() - t0;
	pthread_barrier_destroy(&bar);
	TAP_EQ(errors, 0, "%d pairs of user threads x %d ping-pong rounds (record, wait, sync): no error "
	       "(%.1f us per round trip)", PP_PAIRS, PP_ROUNDS, dt * 1000.0 / PP_ROUNDS);
	HcclCommDestroy(c);
	for (i = 0; i < 2 * PP_PAIRS; i++)
		aclrtDestroyStream(side[i].stream);
}

/* ---- syncs of streams known to be idle (uAPI 1.1) ------------------------------ */

static void test_sync_skip(void)
{
	ThreadHandle th[2] = { 0, 0 }, w = 0;
	HcclComm c = new_comm();
	aclrtStream s = NULL;
	unsigned long n;

	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU_TS, 2, 1, th), HCCL_SUCCESS, "sync skip: two threads");
	/* a records into itself, then waits: both ran inline */
	HcommThreadNotifyRecordOnThread(th[0], th[0], 0);
	HcommThreadNotifyWaitOnThread(th[0], 0, 0);
	n = sync_ioctls;
	TAP_EQ(hccltThreadSynchronize(th[0], -1), ACL_SUCCESS, "sync skip: sync after an idle submit");
	TAP_EQ(sync_ioctls - n, 0, "sync skip: ... made no STREAM_SYNC ioctl");

	/* a wait left parked: the kernel answers, and times out */
	HcommThreadNotifyWaitOnThread(th[0], 0, 0);
	n = sync_ioctls;
	TAP_EQ(hccltThreadSynchronize(th[0], 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
	       "sync skip: a parked wait -> ACL_ERROR_RT_STREAM_SYNC_TIMEOUT");
	TAP_EQ(sync_ioctls - n, 1, "sync skip: ... through the kernel");
	/* b's record releases it; b is idle, a was last seen busy */
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(th[1], th[0], 0), HCCL_SUCCESS, "sync skip: b records into a");
	n = sync_ioctls;
	TAP_EQ(hccltThreadSynchronize(th[1], -1), ACL_SUCCESS, "sync skip: b");
	TAP_EQ(hccltThreadSynchronize(th[0], 5000), ACL_SUCCESS, "sync skip: a");
	TAP_EQ(sync_ioctls - n, 1, "sync skip: only a's sync made an ioctl");

	/* a stream wrapped by a thread: aclrtSynchronizeStream skips too */
	aclrtCreateStream(&s);
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s, 1, &w), HCCL_SUCCESS,
		   "sync skip: a thread on a created stream");
	HcommThreadNotifyRecordOnThread(w, w, 0);
	HcommThreadNotifyWaitOnThread(w, 0, 0);
	n = sync_ioctls;
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "sync skip: aclrtSynchronizeStream");
	TAP_EQ(sync_ioctls - n, 0, "sync skip: ... made no ioctl");

	/* destroyed: the sync of a stale handle fails, through the kernel */
	HcclCommDestroy(c);
	n = sync_ioctls;
	TAP_EQ(hccltThreadSynchronize(th[1], -1), ACL_ERROR_RT_INVALID_HANDLE,
	       "sync skip: after HcclCommDestroy, a stale handle -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(sync_ioctls - n, 1, "sync skip: ... through the kernel");
	aclrtDestroyStream(s);
}

/* ---- two devices ------------------------------------------------------------- */

static void test_multidev(uint32_t n)
{
	HcclComm comms[2] = { NULL, NULL };
	int32_t devs[2] = { 0, 1 };
	ThreadHandle a = 0, b = 0, x = 0;
	aclrtStream s1 = NULL;
	hccltDeviceUsage u1;
	int32_t d = -1;

	if (n < 2) {
		tap_skip("two devices (load with sim_devices=2)");
		return;
	}
	CHECK_HCCL(HcclCommInitAll(2, devs, comms), HCCL_SUCCESS, "HcclCommInitAll(2, {0, 1})");
	TAP_EQ(hccltGetDeviceUsage(1, &u1), ACL_SUCCESS, "device 1 usage (%s)", u1.node);
	tap_ok(strcmp(u1.node, dev0.node) != 0, "devices 0 and 1 are different nodes");
	CHECK_HCCL(HcclThreadAcquire(comms[0], COMM_ENGINE_CPU, 1, 1, &a), HCCL_SUCCESS, "thread on device 0");
	CHECK_HCCL(HcclThreadAcquire(comms[1], COMM_ENGINE_CPU, 1, 1, &b), HCCL_SUCCESS, "thread on device 1");
	tap_ok((a >> 56 & 0xf) == 0 && (b >> 56 & 0xf) == 1, "handles carry their device index");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(a, b, 0), HCCL_E_PARA, "record across devices -> HCCL_E_PARA");
	CHECK_HCCL(HcclThreadExportToCommEngine(comms[0], 1, &b, COMM_ENGINE_CPU_TS, &x), HCCL_E_PARA,
		   "export of a device-1 handle via a device-0 communicator -> HCCL_E_PARA");
	TAP_EQ(aclrtSetDevice(1), ACL_SUCCESS, "aclrtSetDevice(1)");
	aclrtGetDevice(&d);
	TAP_EQ(d, 1, "current device 1");
	TAP_EQ(aclrtCreateStream(&s1), ACL_SUCCESS, "stream on device 1");
	CHECK_HCCL(HcclThreadAcquireWithStream(comms[0], COMM_ENGINE_CPU_TS, s1, 1, &x), HCCL_E_PARA,
		   "wrapping a device-1 stream on a device-0 communicator -> HCCL_E_PARA");
	CHECK_HCCL(HcclThreadAcquireWithStream(comms[1], COMM_ENGINE_CPU_TS, s1, 1, &x), HCCL_SUCCESS,
		   "wrapping it on the device-1 communicator");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(x, x, 0), HCCL_SUCCESS, "record on device 1");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(x, 0, 5), HCCL_SUCCESS, "wait on device 1");
	TAP_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS, "sync on device 1");
	HcclCommDestroy(comms[0]);
	HcclCommDestroy(comms[1]);
	aclrtDestroyStream(s1);
	aclrtSetDevice(0);
}

/* ---- the first open of a device, from 16 threads at once -------------------- */

struct opener {
	pthread_barrier_t *bar;
	int bad;
};

static void *open_main(void *arg)
{
	struct opener *o = arg;
	ThreadHandle t;
	HcclComm c = NULL;
	int32_t d = 0;

	pthread_barrier_wait(o->bar);
	if (HcclCommInitAll(1, &d, &c) != HCCL_SUCCESS ||
	    HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 1, &t) != HCCL_SUCCESS ||
	    HcommThreadNotifyRecordOnThread(t, t, 0) != HCCL_SUCCESS ||
	    HcommThreadNotifyWaitOnThread(t, 0, 5) != HCCL_SUCCESS ||
	    hccltThreadSynchronize(t, -1) != ACL_SUCCESS ||
	    HcclCommDestroy(c) != HCCL_SUCCESS)
		o->bad = 1;
	return NULL;
}

static void test_open_race(void)
{
	uint32_t files = devusage().files;
	int status, rc;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		/* The child closed the inherited file: the threads race to open. */
		struct opener o[16];
		pthread_barrier_t bar;
		pthread_t t[16];
		int i, bad = 0;

		pthread_barrier_init(&bar, NULL, 16);
		for (i = 0; i < 16; i++) {
			o[i].bar = &bar;
			o[i].bad = 0;
			pthread_create(&t[i], NULL, open_main, &o[i]);
		}
		for (i = 0; i < 16; i++) {
			pthread_join(t[i], NULL);
			bad |= o[i].bad;
		}
		if (bad)
			_exit(200);
		_exit((int)devusage().files);
	}
	waitpid(pid, &status, 0);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	tap_ok(rc != 200 && rc != 255, "16 threads opening the device at once: every call succeeds");
	TAP_EQ(rc, files + 1, "one process opens one file per device, however many threads race");
	TAP_EQ(devusage().files, files, "the child's file is gone with the child");
}

/* ---- a wrapped stream outlives aclrtDestroyStream ---------------------------- */

static void test_wrapped_destroy(void)
{
	hccltDeviceUsage before = devusage(), mid, after;
	HcclComm c = new_comm();
	aclrtStream s = NULL;
	ThreadHandle t = 0;

	aclrtCreateStream(&s);
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU, s, 1, &t), HCCL_SUCCESS, "wrap a stream");
	TAP_EQ(aclrtDestroyStream(s), ACL_SUCCESS, "aclrtDestroyStream of a wrapped stream");
	mid = devusage();
	TAP_EQ(mid.streamsUsed, before.streamsUsed + 1, "the wrapping thread keeps the stream's pool slot");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(t, t, 0), HCCL_SUCCESS, "record on the thread after the stream's destroy");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(t, 0, 5), HCCL_SUCCESS, "wait on it");
	TAP_EQ(hccltThreadSynchronize(t, 10000), ACL_SUCCESS, "the thread's stream still runs");
	HcclCommDestroy(c);
	after = devusage();
	tap_ok(after.streamsUsed == before.streamsUsed && after.notifiesUsed == before.notifiesUsed,
	       "destroying the communicator returns the slot");
	TAP_EQ(hccltThreadSynchronize(t, 0), ACL_ERROR_RT_INVALID_HANDLE, "the thread handle is dead with its communicator");
}

/* ---- random handles and arguments: only documented results ------------------- */

static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

/* A handle that is sometimes valid, sometimes almost valid, sometimes junk. */
static ThreadHandle rnd_handle(const ThreadHandle *valid, int nvalid)
{
	ThreadHandle h = valid[rnd() % nvalid];

	switch (rnd() % 6) {
	case 0: return h;
	case 1: return h + 1 + rnd() % 64;			/* near id */
	case 2: return h ^ (UINT64_C(1) << (rnd() % 64));	/* one bit off */
	case 3: return (h & ~UINT64_C(0xffffffffffff)) | (rnd() & 0xffff); /* same kind */
	case 4: return rnd();
	default: return 0;
	}
}

/*
 * Is the test group @name in HCCLT_LIBTEST_SKIP (a comma-separated list)?
 * make check skips the costly ones where they add no coverage (a second
 * module load, a KASAN kernel; Documentation/selftests.rst).
 */
static int skipped(const char *name)
{
	const char *l = getenv("HCCLT_LIBTEST_SKIP");
	size_t n = strlen(name);

	while (l && *l) {
		if (!strncmp(l, name, n) && (l[n] == ',' || !l[n]))
			return 1;
		l = strchr(l, ',');
		if (l)
			l++;
	}
	return 0;
}

/*
 * One INFO call lists at most 65,536 communicators; the library reads
 * INFO_ARRAY's pages instead, so a usage query for one beyond them finds
 * it (with a driver before uAPI 1.3 it says it cannot tell,
 * HCCL_E_INTERNAL, instead of calling a live communicator unknown).
 */
static void test_info_cap(void)
{
	enum { N = 65536 + 4 };
	HcclComm *c;
	hccltCommUsage u;
	int i, made = 0, bad = 0;
	int32_t d = 0;

	if (skipped("info_cap")) {
		tap_skip("info cap: %d communicators (HCCLT_LIBTEST_SKIP)", N);
		return;
	}
	c = calloc(N, sizeof(*c));
	if (!c) {
		tap_ok(0, "info cap: allocate");
		return;
	}
	for (i = 0; i < N; i++) {
		if (HcclCommInitAll(1, &d, &c[i]) != HCCL_SUCCESS)
			break;
		made++;
	}
	TAP_EQ(made, N, "info cap: %d communicators created", N);
	if (made == N) {
		CHECK_HCCL(hccltCommGetUsage(c[0], &u), HCCL_SUCCESS,
			   "info cap: usage of the first communicator");
		CHECK_HCCL(hccltCommGetUsage(c[N - 1], &u), HCCL_SUCCESS,
			   "info cap: usage of one past 65,536 (paged INFO_ARRAY)");
	}
	for (i = 0; i < made; i++)
		bad += HcclCommDestroy(c[i]) != HCCL_SUCCESS;
	TAP_EQ(bad, 0, "info cap: all destroyed");
	free(c);
}

static void test_fuzz(void)
{
	hccltDeviceUsage before = devusage(), after;
	ThreadHandle valid[8], out[40], in[40];
	int bad = 0, i, k, calls = 20000;
	HcclComm c = new_comm();
	aclrtStream s = NULL;
	int32_t r;

	if (getenv("HCCLT_FUZZ_SEED"))
		rnd_state = strtoull(getenv("HCCLT_FUZZ_SEED"), NULL, 0) | 1;
	if (getenv("HCCLT_FUZZ_CALLS"))
		calls = atoi(getenv("HCCLT_FUZZ_CALLS"));
	printf("# fuzz seed 0x%llx, %d calls (HCCLT_FUZZ_SEED, HCCLT_FUZZ_CALLS)\n",
	       (unsigned long long)rnd_state, calls);
	aclrtCreateStream(&s);
	HcclThreadAcquire(c, COMM_ENGINE_CPU_TS, 2, 2, valid);
	HcclThreadAcquire(c, COMM_ENGINE_AICPU_TS, 2, 1, valid + 2);
	HcclThreadExportToCommEngine(c, 2, valid + 2, COMM_ENGINE_CPU_TS, valid + 4);
	HcclThreadAcquireWithStream(c, COMM_ENGINE_CCU, s, 3, valid + 6);
	HcclThreadExportToCommEngine(c, 1, valid + 6, COMM_ENGINE_AICPU, valid + 7);
	for (i = 0; i < calls && !bad; i++) {
		switch (rnd() % 5) {
		case 0:
			r = HcommThreadNotifyRecordOnThread(rnd_handle(valid, 8), rnd_handle(valid, 8),
							    (uint32_t)(rnd() % 5));
			bad = r != HCCL_SUCCESS && r != HCCL_E_PTR && r != HCCL_E_PARA && r != HCCL_E_AGAIN;
			break;
		case 1:
			/* waits with a 1 s limit: a stream never blocks long */
			r = HcommThreadNotifyWaitOnThread(rnd_handle(valid, 8), (uint32_t)(rnd() % 5), 1);
			bad = r != HCCL_SUCCESS && r != HCCL_E_PTR && r != HCCL_E_AGAIN;
			break;
		case 2:
			k = 1 + (int)(rnd() % 40);
			for (int j = 0; j < k; j++)
				in[j] = rnd_handle(valid, 8);
			r = HcclThreadExportToCommEngine(c, (uint32_t)k, in, (CommEngine)((int)(rnd() % 8) - 1), out);
			bad = r != HCCL_SUCCESS && r != HCCL_E_PARA;
			break;
		case 3:
			r = HcclThreadAcquire(c, (CommEngine)((int)(rnd() % 8) - 1), (uint32_t)(rnd() % 3),
					      (uint32_t)(rnd() % 3), out);
			bad = r != HCCL_SUCCESS && r != HCCL_E_PARA && r != HCCL_E_UNAVAIL;
			break;
		default:
			r = hccltThreadSynchronize(rnd_handle(valid, 8), 0);
			bad = r != ACL_SUCCESS && r != ACL_ERROR_RT_INVALID_HANDLE &&
			      r != ACL_ERROR_RT_STREAM_SYNC_TIMEOUT && r != ACL_ERROR_RT_WAIT_TIMEOUT;
			break;
		}
		if (bad)
			printf("#   call %d returned %d\n", i, (int)r);
	}
	TAP_EQ(bad, 0, "%d random calls with near-valid and junk handles: only documented results", i);
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy the fuzzed communicator");
	aclrtSynchronizeStreamWithTimeout(s, 10000);
	aclrtSynchronizeStreamWithTimeout(s, 10000);
	TAP_EQ(aclrtDestroyStream(s), ACL_SUCCESS, "destroy the fuzzed stream");
	after = devusage();
	tap_ok(after.streamsUsed == before.streamsUsed && after.notifiesUsed == before.notifiesUsed,
	       "pools back after the fuzz (%u streams, %u notifies)", after.streamsUsed, after.notifiesUsed);
}

/* ---- multi-rank communicators (groups) --------------------------------------- */

struct rank_job {
	const HcclRootInfo *root;
	int32_t dev;
	uint32_t rank, nranks;
	HcclResult ret;
	HcclComm comm;
	uint32_t got_rank, got_size;
	char name[128];
	uint64_t buf_mb;	/* hcclBufferSize, if not 0 */
};

static void *rank_job_run(void *p)
{
	struct rank_job *j = p;

	if (aclrtSetDevice(j->dev) != ACL_SUCCESS) {
		j->ret = HCCL_E_DRV;
		return NULL;
	}
	if (j->buf_mb) {
		HcclCommConfig cfg;

		HcclCommConfigInit(&cfg);
		cfg.hcclBufferSize = (uint32_t)j->buf_mb;
		j->ret = HcclCommInitRootInfoConfig(j->nranks, j->root, j->rank, &cfg, &j->comm);
	} else {
		j->ret = HcclCommInitRootInfo(j->nranks, j->root, j->rank, &j->comm);
	}
	if (j->ret == HCCL_SUCCESS) {
		HcclGetRankId(j->comm, &j->got_rank);
		HcclGetRankSize(j->comm, &j->got_size);
		HcclGetCommName(j->comm, j->name);
	}
	return NULL;
}

static void test_ranks_checks(void)
{
	HcclRootInfo root, junk;
	HcclCommConfig cfg;
	HcclComm c = NULL;
	char name[128];
	uint32_t v;

	aclrtSetDevice(0);
	CHECK_HCCL(HcclGetRootInfo(NULL), HCCL_E_PTR, "HcclGetRootInfo(NULL) -> HCCL_E_PTR");
	CHECK_HCCL(HcclGetRootInfo(&root), HCCL_SUCCESS, "HcclGetRootInfo");
	memset(&junk, 0, sizeof(junk));
	CHECK_HCCL(HcclCommInitRootInfo(0, NULL, 0, NULL), HCCL_E_PARA, "InitRootInfo: nRanks 0 -> HCCL_E_PARA first");
	CHECK_HCCL(HcclCommInitRootInfo(2, NULL, 2, NULL), HCCL_E_PARA, "InitRootInfo: rank >= nRanks -> HCCL_E_PARA before pointers");
	CHECK_HCCL(HcclCommInitRootInfo(2, NULL, 0, NULL), HCCL_E_PTR, "InitRootInfo: comm NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclCommInitRootInfo(2, NULL, 0, &c), HCCL_E_PTR, "InitRootInfo: rootInfo NULL -> HCCL_E_PTR");
	setenv("HCCL_CONNECT_TIMEOUT", "12x", 1);
	CHECK_HCCL(HcclCommInitRootInfo(1, &root, 0, &c), HCCL_E_PARA, "HCCL_CONNECT_TIMEOUT=12x -> HCCL_E_PARA");
	setenv("HCCL_CONNECT_TIMEOUT", "0", 1);
	CHECK_HCCL(HcclCommInitRootInfo(1, &root, 0, &c), HCCL_E_PARA, "HCCL_CONNECT_TIMEOUT=0 -> HCCL_E_PARA");
	unsetenv("HCCL_CONNECT_TIMEOUT");
	CHECK_HCCL(HcclCommInitRootInfo(1, &junk, 0, &c), HCCL_E_PARA, "InitRootInfo: a root info that is not one -> HCCL_E_PARA");
	CHECK_HCCL(HcclCommInitRootInfo(17, &root, 0, &c), HCCL_E_PARA, "InitRootInfo: 17 ranks -> HCCL_E_PARA");
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, NULL, &c), HCCL_E_PARA, "InitRootInfoConfig: config NULL -> HCCL_E_PARA");
	HcclCommConfigInit(&cfg);
	cfg.reserved[8] = 0;
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &c), HCCL_E_PARA, "InitRootInfoConfig: bad magic -> HCCL_E_PARA");
	HcclCommConfigInit(&cfg);
	cfg.hcclBufferSize = 0;
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &c), HCCL_E_PARA, "InitRootInfoConfig: hcclBufferSize 0 -> HCCL_E_PARA");
	HcclCommConfigInit(&cfg);
	cfg.hcclDeterministic = 3;
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &c), HCCL_E_PARA, "InitRootInfoConfig: hcclDeterministic 3 -> HCCL_E_PARA");
	HcclCommConfigInit(&cfg);
	cfg.aclGraphZeroCopyEnable = 2;
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &c), HCCL_E_PARA, "InitRootInfoConfig: aclGraphZeroCopyEnable 2 -> HCCL_E_PARA");
	HcclCommConfigInit(&cfg);
	memset(cfg.hcclCommName, 'x', sizeof(cfg.hcclCommName));
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &c), HCCL_E_PARA, "InitRootInfoConfig: a 128-character name -> HCCL_E_PARA");
	tap_ok(c == NULL, "no communicator after the failed calls");
	HcclCommConfigInit(&cfg);
	cfg.hcclBufferSize = 64;
	strcpy(cfg.hcclCommName, "my_comm");
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &c), HCCL_SUCCESS, "InitRootInfoConfig: one rank, named");
	CHECK_HCCL(HcclGetCommName(c, name), HCCL_SUCCESS, "HcclGetCommName");
	tap_ok(!strcmp(name, "my_comm"), "the config's hcclCommName is the name (%s)", name);
	CHECK_HCCL(HcclGetRankSize(c, &v), HCCL_SUCCESS, "HcclGetRankSize");
	TAP_EQ(v, 1, "one rank");
	CHECK_HCCL(HcclCommInitRootInfo(1, &root, 0, &c), HCCL_E_PARA, "joining a complete group -> HCCL_E_PARA");
	{
		HcclRootInfo other;
		HcclComm c2 = NULL;

		HcclGetRootInfo(&other);
		CHECK_HCCL(HcclCommInitRootInfoConfig(1, &other, 0, &cfg, &c2), HCCL_E_PARA,
			   "another communicator named my_comm on the device -> HCCL_E_PARA (as CANN)");
		aclrtSetDevice(1);
		CHECK_HCCL(HcclCommInitRootInfoConfig(1, &other, 0, &cfg, &c2), HCCL_SUCCESS,
			   "the same name on another device");
		HcclCommDestroy(c2);
		aclrtSetDevice(0);
	}
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy it");
	{
		HcclRootInfo again;
		HcclComm c3 = NULL;

		HcclGetRootInfo(&again);
		CHECK_HCCL(HcclCommInitRootInfoConfig(1, &again, 0, &cfg, &c3), HCCL_SUCCESS,
			   "the name is free again after HcclCommDestroy");
		HcclCommDestroy(c3);
	}
	CHECK_HCCL(HcclCommDestroy(NULL), HCCL_SUCCESS, "HcclCommDestroy(NULL) -> HCCL_SUCCESS");
	CHECK_HCCL(HcclCommInitRootInfo(1, &root, 0, &c), HCCL_E_PARA, "the group is gone with its last rank -> HCCL_E_PARA");
	/* A rank alone times out. */
	CHECK_HCCL(HcclGetRootInfo(&root), HCCL_SUCCESS, "HcclGetRootInfo");
	setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
	{
		double t0 = now_ms();

		CHECK_HCCL(HcclCommInitRootInfo(2, &root, 0, &c), HCCL_E_TIMEOUT,
			   "HCCL_CONNECT_TIMEOUT=1, one rank of two -> HCCL_E_TIMEOUT");
		tap_ok(now_ms() - t0 >= 990, "after the timeout (%.0f ms)", now_ms() - t0);
	}
	unsetenv("HCCL_CONNECT_TIMEOUT");
}

static void test_ranks_threads(uint32_t ndev)
{
	uint32_t n = ndev < 8 ? ndev : 8, i;
	struct rank_job j[8];
	pthread_t tid[8];
	HcclRootInfo root;
	int bad = 0;

	aclrtSetDevice(0);
	CHECK_HCCL(HcclGetRootInfo(&root), HCCL_SUCCESS, "HcclGetRootInfo for %u ranks", n);
	for (i = 0; i < n; i++) {
		memset(&j[i], 0, sizeof(j[i]));
		j[i].root = &root;
		j[i].dev = (int32_t)i;
		j[i].rank = n - 1 - i;	/* rank numbers need not follow devices */
		j[i].nranks = n;
		pthread_create(&tid[i], NULL, rank_job_run, &j[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(tid[i], NULL);
		bad += j[i].ret != HCCL_SUCCESS || j[i].got_rank != n - 1 - i ||
		       j[i].got_size != n || strcmp(j[i].name, j[0].name);
	}
	TAP_EQ(bad, 0, "%u ranks as threads: each its rank, the size, one name (%s)", n, j[0].name);
	for (i = 0; i < n; i++)
		HcclCommDestroy(j[i].comm);
}

/*
 * Wait (up to 120 s) until GROUP_INFO shows rank @rank of @nranks of this
 * process joined and waiting for the others: a thread started to join is
 * in the rendezvous, however slow the host. 0 or -1.
 */
static int wait_rank_pending(uint32_t rank, uint32_t nranks)
{
	struct drm_hcclt_group_rank_info e[64];
	int fd = open(dev0.node, O_RDWR | O_CLOEXEC), ret = -1;
	double end = now_ms() + 120000;

	if (fd < 0)
		return -1;
	while (ret && now_ms() < end) {
		struct drm_hcclt_group_info gi;
		uint32_t k;

		memset(&gi, 0, sizeof(gi));
		gi.rank_count = 64;
		gi.ranks_ptr = (uintptr_t)e;
		if (ioctl(fd, DRM_IOCTL_HCCLT_GROUP_INFO, &gi))
			break;
		for (k = 0; k < gi.rank_count && k < 64; k++)
			if (e[k].pid == (uint32_t)getpid() && e[k].rank == rank &&
			    e[k].nranks == nranks && e[k].state == HCCLT_GROUP_PENDING)
				ret = 0;
		if (ret)
			usleep(2000);
	}
	close(fd);
	return ret;
}

static void test_ranks_conflicts(void)
{
	struct rank_job j0;
	HcclRootInfo root;
	pthread_t tid;
	HcclComm c = NULL;

	aclrtSetDevice(0);
	HcclGetRootInfo(&root);
	memset(&j0, 0, sizeof(j0));
	j0.root = &root;
	j0.dev = 0;
	j0.nranks = 2;
	pthread_create(&tid, NULL, rank_job_run, &j0);
	TAP_EQ(wait_rank_pending(0, 2), 0, "rank 0 (another thread) waits in the rendezvous");
	/* This thread is on device 0 too. */
	CHECK_HCCL(HcclCommInitRootInfo(2, &root, 1, &c), HCCL_E_PARA, "a second rank on one device -> HCCL_E_PARA");
	aclrtSetDevice(1);
	CHECK_HCCL(HcclCommInitRootInfo(3, &root, 1, &c), HCCL_E_PARA, "a different nRanks -> HCCL_E_PARA");
	CHECK_HCCL(HcclCommInitRootInfo(2, &root, 1, &c), HCCL_SUCCESS, "the right rank completes the group");
	pthread_join(tid, NULL);
	CHECK_HCCL(j0.ret, HCCL_SUCCESS, "rank 0 returns with it");
	HcclCommDestroy(c);
	HcclCommDestroy(j0.comm);
	aclrtSetDevice(0);
}

/* Two processes get the root info through a pipe. */
static void test_ranks_processes(void)
{
	HcclRootInfo root;
	int p[2], st, ok = 1;
	pid_t pid[2];
	int r;

	aclrtSetDevice(0);
	HcclGetRootInfo(&root);
	if (pipe(p)) {
		tap_ok(0, "pipe");
		return;
	}
	for (r = 0; r < 2; r++) {
		pid[r] = fork();
		if (!pid[r]) {
			HcclRootInfo mine;
			HcclComm c = NULL;
			uint32_t id = 9, size = 9;

			if (read(p[0], &mine, sizeof(mine)) != (ssize_t)sizeof(mine))
				_exit(10);
			if (aclrtSetDevice(r + 1) != ACL_SUCCESS)
				_exit(11);
			if (HcclCommInitRootInfo(2, &mine, (uint32_t)r, &c) != HCCL_SUCCESS)
				_exit(12);
			HcclGetRankId(c, &id);
			HcclGetRankSize(c, &size);
			_exit(id == (uint32_t)r && size == 2 ? 0 : 13);
		}
	}
	for (r = 0; r < 2; r++)
		if (write(p[1], &root, sizeof(root)) != (ssize_t)sizeof(root))
			ok = 0;
	for (r = 0; r < 2; r++) {
		waitpid(pid[r], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			ok = 0;
	}
	close(p[0]);
	close(p[1]);
	tap_ok(ok, "2 ranks as processes, root info through a pipe");
}

static void test_init_all_group(uint32_t ndev)
{
	uint32_t n = ndev < 8 ? ndev : 8, i, id, size;
	int32_t devs[8];
	HcclComm c[8];
	char name[128], name0[128];
	int bad = 0;

	for (i = 0; i < n; i++)
		devs[i] = (int32_t)(n - 1 - i);
	CHECK_HCCL(HcclCommInitAll(n, devs, c), HCCL_SUCCESS, "HcclCommInitAll on %u devices", n);
	HcclGetCommName(c[0], name0);
	for (i = 0; i < n; i++) {
		HcclGetRankId(c[i], &id);
		HcclGetRankSize(c[i], &size);
		HcclGetCommName(c[i], name);
		bad += id != i || size != n || strcmp(name, name0);
	}
	TAP_EQ(bad, 0, "HcclCommInitAll: one communicator, comms[i] is rank i of %u", n);
	for (i = 0; i < n; i++)
		HcclCommDestroy(c[i]);
}

static void test_acl_basics(uint32_t ndev)
{
	uint32_t count = 0, before = 0, after = 0;
	aclrtStream s = NULL;
	const char *soc = aclrtGetSocName();
	char want[64] = "";
	FILE *f = fopen("/sys/module/hcclthread/parameters/sim_soc", "r");

	if (f) {
		if (fgets(want, sizeof(want), f))
			want[strcspn(want, "\n")] = '\0';
		fclose(f);
	}
	tap_ok(soc && !strcmp(soc, want), "aclrtGetSocName is the driver's sim_soc (%s)", soc ? soc : "NULL");
	TAP_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS, "aclrtGetDeviceCount");
	TAP_EQ(count, ndev, "aclrtGetDeviceCount counts the devices");
	aclrtSetDevice(0);
	TAP_EQ(aclrtGetStreamAvailableNum(&before), ACL_SUCCESS, "aclrtGetStreamAvailableNum");
	aclrtCreateStream(&s);
	aclrtGetStreamAvailableNum(&after);
	TAP_EQ(after, before - 1, "a created stream takes one of them");
	aclrtDestroyStream(s);
	TAP_EQ(aclInit(NULL), ACL_SUCCESS, "aclInit");
	TAP_EQ(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE, "aclInit again -> ACL_ERROR_REPEAT_INITIALIZE");
	TAP_EQ(aclFinalize(), ACL_SUCCESS, "aclFinalize");
}

/* One rank's HcclChannelAcquire, in its own thread (the rendezvous blocks). */
struct chan_job {
	HcclComm comm;
	int32_t dev;
	uint32_t remote, notify_num;
	HcclResult ret;
	ChannelHandle ch;
};

static void *chan_job_run(void *p)
{
	struct chan_job *j = p;
	HcclChannelDesc d;

	aclrtSetDevice(j->dev);
	HcclChannelDescInit(&d, 1);
	d.remoteRank = j->remote;
	d.channelProtocol = COMM_PROTOCOL_HCCS;
	d.notifyNum = j->notify_num;
	j->ret = HcclChannelAcquire(j->comm, COMM_ENGINE_CPU, &d, 1, &j->ch);
	return NULL;
}

/* Two ranks, one channel: acquire, record/wait, codes, a rank destroyed. */
static void test_channels(void)
{
	struct rank_job r[2];
	struct chan_job c[2];
	pthread_t tid[2];
	HcclRootInfo root;
	ThreadHandle th[2];
	ChannelHandle again;
	HcclChannelDesc d;
	uint32_t i;

	aclrtSetDevice(0);
	CHECK_HCCL(HcclGetRootInfo(&root), HCCL_SUCCESS, "channels: HcclGetRootInfo");
	for (i = 0; i < 2; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].root = &root;
		r[i].dev = (int32_t)i;
		r[i].rank = i;
		r[i].nranks = 2;
		pthread_create(&tid[i], NULL, rank_job_run, &r[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	TAP_EQ(r[0].ret | r[1].ret, HCCL_SUCCESS, "channels: two ranks");
	for (i = 0; i < 2; i++) {
		aclrtSetDevice((int32_t)i);
		CHECK_HCCL(HcclThreadAcquire(r[i].comm, COMM_ENGINE_CPU, 1, 0, &th[i]), HCCL_SUCCESS,
			   "channels: a thread on rank %u", i);
		c[i].comm = r[i].comm;
		c[i].dev = (int32_t)i;
		c[i].remote = 1 - i;
		c[i].notify_num = 2;
		pthread_create(&tid[i], NULL, chan_job_run, &c[i]);
	}
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	TAP_EQ(c[0].ret, HCCL_SUCCESS, "HcclChannelAcquire on rank 0");
	TAP_EQ(c[1].ret, HCCL_SUCCESS, "HcclChannelAcquire on rank 1");
	aclrtSetDevice(0);
	HcclChannelDescInit(&d, 1);
	d.remoteRank = 1;
	d.channelProtocol = COMM_PROTOCOL_HCCS;
	d.notifyNum = 9;
	CHECK_HCCL(HcclChannelAcquire(r[0].comm, COMM_ENGINE_CPU_TS, &d, 1, &again), HCCL_SUCCESS,
		   "acquiring it again (CPU_TS, other notifyNum): no rendezvous");
	tap_ok(again == c[0].ch, "the same handle again");
	/* A mismatch fails both sides with HCCL_E_INTERNAL (ROCE: a new channel). */
	c[0].notify_num = 1;
	c[1].notify_num = 2;
	c[0].ret = c[1].ret = HCCL_SUCCESS;
	{
		struct chan_job m[2] = { c[0], c[1] };

		for (i = 0; i < 2; i++)
			pthread_create(&tid[i], NULL, chan_job_run, &m[i]);
		for (i = 0; i < 2; i++)
			pthread_join(tid[i], NULL);
		/* HCCS exists: both get it back; the mismatch needs a new key. */
		TAP_EQ(m[0].ret | m[1].ret, HCCL_SUCCESS, "existing channel returned whatever notifyNum says");
	}
	CHECK_HCCL(HcommChannelNotifyRecordOnThread(th[0], c[0].ch, 1), HCCL_SUCCESS, "channel record 0 -> 1");
	CHECK_HCCL(HcommChannelNotifyWaitOnThread(th[1], c[1].ch, 1, 10), HCCL_SUCCESS, "channel wait on rank 1");
	TAP_EQ(hccltThreadSynchronize(th[1], 10000), ACL_SUCCESS, "the wait is released by the record");
	CHECK_HCCL(HcommChannelNotifyRecordOnThread(th[0], c[0].ch, 2), HCCL_E_INTERNAL,
		   "channel index out of range -> HCCL_E_INTERNAL (hcomm's code)");
	CHECK_HCCL(HcommChannelNotifyRecordOnThread(th[0], c[1].ch, 0), HCCL_E_PTR,
		   "the peer's handle -> HCCL_E_PTR");
	/* Rank 1 parks, rank 0 goes: the wait fails at once, once. */
	CHECK_HCCL(HcommChannelNotifyWaitOnThread(th[1], c[1].ch, 0, 0), HCCL_SUCCESS, "rank 1 parks (no timeout)");
	CHECK_HCCL(HcclCommDestroy(r[0].comm), HCCL_SUCCESS, "rank 0 destroys its communicator");
	TAP_EQ(hccltThreadSynchronize(th[1], 5000), ACL_ERROR_RT_STREAM_ABORT,
	       "the parked wait fails: ACL_ERROR_RT_STREAM_ABORT");
	TAP_EQ(hccltThreadSynchronize(th[1], 5000), ACL_SUCCESS, "reported once");
	CHECK_HCCL(HcommChannelNotifyRecordOnThread(th[1], c[1].ch, 0), HCCL_E_REMOTE,
		   "a record on the broken channel -> HCCL_E_REMOTE");
	aclrtSetDevice(1);
	d.remoteRank = 0;
	CHECK_HCCL(HcclChannelAcquire(r[1].comm, COMM_ENGINE_CPU, &d, 1, &again), HCCL_SUCCESS,
		   "the broken channel is still the rank's (same key)");
	d.channelProtocol = COMM_PROTOCOL_ROCE;
	CHECK_HCCL(HcclChannelAcquire(r[1].comm, COMM_ENGINE_CPU, &d, 1, &again), HCCL_E_REMOTE,
		   "a new channel to the gone rank -> HCCL_E_REMOTE");
	HcclCommDestroy(r[1].comm);
	aclrtSetDevice(0);
}

/* ---- communicators from rank tables -------------------------------------- */

/*
 * Write a one-server rank table of @n ranks to @path, rank r on devs[r]
 * (CANN's format; device_ip as CANN's samples have them). 0 or -1.
 */
static int rt_write(const char *path, uint32_t n, const int32_t *devs, const char *status)
{
	FILE *f = fopen(path, "w");
	uint32_t r;

	if (!f)
		return -1;
	fprintf(f, "{\n    \"status\": \"%s\",\n    \"version\": \"1.0\",\n"
		"    \"server_count\": \"1\",\n    \"server_list\": [\n        {\n"
		"            \"server_id\": \"node_0\",\n            \"device\": [\n", status);
	for (r = 0; r < n; r++)
		fprintf(f, "                {\"device_id\": \"%d\", \"device_ip\": \"192.168.1.%u\", "
			"\"rank_id\": \"%u\"}%s\n", devs[r], 8 + r, r, r + 1 < n ? "," : "");
	fprintf(f, "            ]\n        }\n    ]\n}\n");
	return fclose(f) ? -1 : 0;
}

/* A table's path in /tmp, unique to this process and @tag. */
static const char *rt_path(char *buf, size_t len, const char *tag)
{
	snprintf(buf, len, "/tmp/hcclt-libtest-%d-%s.json", (int)getpid(), tag);
	return buf;
}

/* One rank's HcclCommInitClusterInfo[Config], in its own thread. */
struct cl_job {
	const char *path;
	int32_t dev;
	uint32_t rank;
	HcclCommConfig *cfg;
	HcclResult ret;
	HcclComm comm;
	uint32_t got_rank, got_size;
	char name[128];
};

static void *cl_job_run(void *p)
{
	struct cl_job *j = p;

	j->comm = NULL;
	if (aclrtSetDevice(j->dev) != ACL_SUCCESS) {
		j->ret = HCCL_E_DRV;
		return NULL;
	}
	j->ret = j->cfg ? HcclCommInitClusterInfoConfig(j->path, j->rank, j->cfg, &j->comm) :
			  HcclCommInitClusterInfo(j->path, j->rank, &j->comm);
	if (j->ret == HCCL_SUCCESS) {
		HcclGetRankId(j->comm, &j->got_rank);
		HcclGetRankSize(j->comm, &j->got_size);
		HcclGetCommName(j->comm, j->name);
	}
	return NULL;
}

/* Start @n ranks of @path as threads, rank r on devs[r]; join them. */
static void cl_run(struct cl_job *j, uint32_t n, const char *path, const int32_t *devs,
		   HcclCommConfig *cfg)
{
	pthread_t tid[16];
	uint32_t r;

	for (r = 0; r < n; r++) {
		memset(&j[r], 0, sizeof(j[r]));
		j[r].path = path;
		j[r].dev = devs[r];
		j[r].rank = r;
		j[r].cfg = cfg;
	}
	/* The highest rank first: the others wait for rank 0's socket. */
	for (r = n; r-- > 0;)
		pthread_create(&tid[r], NULL, cl_job_run, &j[r]);
	for (r = 0; r < n; r++)
		pthread_join(tid[r], NULL);
}

/*
 * A channel between two ranks of one communicator works: a thread and a
 * channel on each (threads: the rendezvous blocks), a record on @a
 * released by a wait on @b. 0, or which step failed.
 */
static int cl_channel(HcclComm a, int32_t adev, uint32_t arank, HcclComm b, int32_t bdev,
		      uint32_t brank)
{
	struct chan_job c[2];
	ThreadHandle th[2];
	pthread_t tid[2];
	int i;

	memset(c, 0, sizeof(c));
	c[0].comm = a;
	c[0].dev = adev;
	c[0].remote = brank;
	c[1].comm = b;
	c[1].dev = bdev;
	c[1].remote = arank;
	for (i = 0; i < 2; i++) {
		c[i].notify_num = 1;
		if (HcclThreadAcquire(c[i].comm, COMM_ENGINE_CPU, 1, 0, &th[i]) != HCCL_SUCCESS)
			return 1;
	}
	for (i = 0; i < 2; i++)
		pthread_create(&tid[i], NULL, chan_job_run, &c[i]);
	for (i = 0; i < 2; i++)
		pthread_join(tid[i], NULL);
	if (c[0].ret != HCCL_SUCCESS || c[1].ret != HCCL_SUCCESS)
		return 2;
	if (HcommChannelNotifyRecordOnThread(th[0], c[0].ch, 0) != HCCL_SUCCESS ||
	    HcommChannelNotifyWaitOnThread(th[1], c[1].ch, 0, 10) != HCCL_SUCCESS)
		return 3;
	if (hccltThreadSynchronize(th[1], 10000) != ACL_SUCCESS ||
	    hccltThreadSynchronize(th[0], 10000) != ACL_SUCCESS)
		return 4;
	return 0;
}

/* The checks of HcclCommInitClusterInfo[Config] with a device, in CANN's order. */
/*
 * The rank-table rendezvous is an abstract AF_UNIX socket: a kernel
 * without CONFIG_UNIX (our debug kernels' configs) cannot run it.
 */
static int have_af_unix(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static void test_cluster_checks(void)
{
	char path[128], bad[128], init[128], two[128];
	const char *soc = aclrtGetSocName();
	int32_t devs[2] = { 0, 1 }, one = 1;
	HcclCommConfig cfg;
	HcclComm c = NULL, c2 = NULL;
	HcclRootInfo root;
	char name[128];
	uint32_t v;
	double t0;

	rt_path(path, sizeof(path), "one");
	rt_path(bad, sizeof(bad), "bad");
	rt_path(init, sizeof(init), "init");
	rt_path(two, sizeof(two), "two");
	rt_write(path, 1, devs, "completed");
	rt_write(init, 1, devs, "initializing");
	rt_write(two, 2, devs, "completed");
	rt_write(bad, 1, &one, "completed");
	aclrtSetDevice(0);
	CHECK_HCCL(HcclCommInitClusterInfo(NULL, 0, NULL), HCCL_E_PTR, "InitClusterInfo: clusterInfo NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclCommInitClusterInfo(path, 0, NULL), HCCL_E_PTR, "InitClusterInfo: comm NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 0, NULL, NULL), HCCL_E_PTR,
		   "InitClusterInfoConfig: comm NULL -> HCCL_E_PTR before config");
	CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 0, NULL, &c), HCCL_E_PTR,
		   "InitClusterInfoConfig: config NULL -> HCCL_E_PTR (CANN's CHK_SMART_PTR_NULL)");
	setenv("HCCL_CONNECT_TIMEOUT", "x", 1);
	CHECK_HCCL(HcclCommInitClusterInfo("/nonexistent.json", 0, &c), HCCL_E_PARA,
		   "InitClusterInfo: HCCL_CONNECT_TIMEOUT=x -> HCCL_E_PARA before the file");
	unsetenv("HCCL_CONNECT_TIMEOUT");
	HcclCommConfigInit(&cfg);
	cfg.reserved[8] = 0;
	CHECK_HCCL(HcclCommInitClusterInfoConfig("/nonexistent.json", 0, &cfg, &c), HCCL_E_PARA,
		   "InitClusterInfoConfig: bad magic -> HCCL_E_PARA before the file");
	HcclCommConfigInit(&cfg);
	cfg.hcclDeterministic = 3;
	CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 0, &cfg, &c), HCCL_E_PARA,
		   "InitClusterInfoConfig: hcclDeterministic 3 -> HCCL_E_PARA");
	cfg.hcclDeterministic = 2;
	if (soc && !strncmp(soc, "Ascend910B", 10)) {
		CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 0, &cfg, &c), HCCL_SUCCESS,
			   "InitClusterInfoConfig: hcclDeterministic 2 (strict) on an A2 (%s)", soc);
		HcclCommDestroy(c);
		c = NULL;
	} else {
		CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 0, &cfg, &c), HCCL_E_PARA,
			   "InitClusterInfoConfig: hcclDeterministic 2 (strict) on %s, not an A2 -> HCCL_E_PARA",
			   soc ? soc : "?");
	}
	CHECK_HCCL(HcclCommInitClusterInfo("/nonexistent.json", 0, &c), HCCL_E_INTERNAL,
		   "InitClusterInfo: missing file -> HCCL_E_INTERNAL");
	setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
	t0 = now_ms();
	CHECK_HCCL(HcclCommInitClusterInfo(init, 0, &c), HCCL_E_INTERNAL,
		   "InitClusterInfo: status 'initializing' for HCCL_CONNECT_TIMEOUT=1 -> HCCL_E_INTERNAL");
	tap_ok(now_ms() - t0 >= 990, "... after the timeout (%.0f ms)", now_ms() - t0);
	unsetenv("HCCL_CONNECT_TIMEOUT");
	CHECK_HCCL(HcclCommInitClusterInfo(bad, 0, &c), HCCL_E_UNAVAIL,
		   "InitClusterInfo: the table puts rank 0 on device 1, the current is 0 -> HCCL_E_UNAVAIL");
	CHECK_HCCL(HcclCommInitClusterInfo(two, 2, &c), HCCL_E_PARA, "InitClusterInfo: rank 2 of 2 -> HCCL_E_PARA");
	tap_ok(c == NULL, "no communicator after the failed calls");
	/* One rank. */
	CHECK_HCCL(HcclCommInitClusterInfo(path, 0, &c), HCCL_SUCCESS, "InitClusterInfo: a one-rank table");
	HcclGetCommName(c, name);
	tap_ok(!strcmp(name, "hccl_world_group"), "its name is CANN's hccl_world_group (%s)", name);
	CHECK_HCCL(HcclGetRankSize(c, &v), HCCL_SUCCESS, "HcclGetRankSize");
	TAP_EQ(v, 1, "one rank");
	CHECK_HCCL(HcclCommInitClusterInfo(path, 0, &c2), HCCL_E_UNAVAIL,
		   "a second rank-table communicator on the device -> HCCL_E_UNAVAIL (CANN: multiple initialization)");
	HcclCommConfigInit(&cfg);
	strcpy(cfg.hcclCommName, "rt_named");
	CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 0, &cfg, &c2), HCCL_E_UNAVAIL,
		   "... with another name too");
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy it");
	CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 0, &cfg, &c), HCCL_SUCCESS,
		   "InitClusterInfoConfig again after the destroy, named");
	HcclGetCommName(c, name);
	tap_ok(!strcmp(name, "rt_named"), "the config's name (%s)", name);
	HcclCommDestroy(c);
	c = NULL;
	/* CANN: a communicator of that name on the device -> E_PARA. */
	HcclGetRootInfo(&root);
	HcclCommConfigInit(&cfg);
	strcpy(cfg.hcclCommName, "hccl_world_group");
	CHECK_HCCL(HcclCommInitRootInfoConfig(1, &root, 0, &cfg, &c2), HCCL_SUCCESS,
		   "a root-info communicator named hccl_world_group");
	CHECK_HCCL(HcclCommInitClusterInfo(path, 0, &c), HCCL_E_PARA,
		   "InitClusterInfo with hccl_world_group taken on the device -> HCCL_E_PARA");
	HcclCommDestroy(c2);
	/* A rank alone times out; so does a rank whose rank 0 never comes. */
	if (!have_af_unix()) {
		tap_skip("rendezvous timeouts: no AF_UNIX sockets in this kernel (CONFIG_UNIX)");
		goto out;
	}
	setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
	t0 = now_ms();
	CHECK_HCCL(HcclCommInitClusterInfo(two, 0, &c), HCCL_E_TIMEOUT,
		   "rank 0 of 2 alone, HCCL_CONNECT_TIMEOUT=1 -> HCCL_E_TIMEOUT");
	tap_ok(now_ms() - t0 >= 990, "... after the timeout (%.0f ms)", now_ms() - t0);
	aclrtSetDevice(1);
	t0 = now_ms();
	CHECK_HCCL(HcclCommInitClusterInfo(two, 1, &c), HCCL_E_TIMEOUT,
		   "rank 1 of 2 without rank 0 -> HCCL_E_TIMEOUT");
	tap_ok(now_ms() - t0 >= 990, "... after the timeout (%.0f ms)", now_ms() - t0);
	unsetenv("HCCL_CONNECT_TIMEOUT");
	aclrtSetDevice(0);
	tap_ok(c == NULL, "no communicator");
out:
	unlink(path);
	unlink(bad);
	unlink(init);
	unlink(two);
}

/* HcclCommActivateCommMemory and co. on a one-rank communicator. */
static void test_comm_memory(void)
{
	char path[128];
	int32_t dev0_ = 0;
	unsigned char *a = NULL, *b = NULL, *other = NULL, *buf = NULL;
	void *ptrs[4];
	size_t sizes[4];
	uint64_t bsz = 0;
	uint32_t n = 0;
	HcclComm c = NULL;
	int h;

	rt_path(path, sizeof(path), "mem");
	rt_write(path, 1, &dev0_, "completed");
	aclrtSetDevice(1);
	aclrtMalloc((void **)&other, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtSetDevice(0);
	aclrtMalloc((void **)&a, 65536, ACL_MEM_MALLOC_HUGE_FIRST);
	aclrtMalloc((void **)&b, 4096, ACL_MEM_MALLOC_HUGE_FIRST);
	CHECK_HCCL(HcclCommInitClusterInfo(path, 0, &c), HCCL_SUCCESS, "comm memory: a one-rank communicator");
	if (!a || !b || !other || !c) {
		tap_ok(0, "comm memory: allocations");
		goto out;
	}
	HcclGetHcclBuffer(c, (void **)&buf, &bsz);
	CHECK_HCCL(HcclCommActivateCommMemory(c, a, 4096, 0, &h, 0), HCCL_SUCCESS,
		   "HcclCommActivateCommMemory: the first 4 KiB of a device allocation");
	CHECK_HCCL(HcclCommActivateCommMemory(c, a + 8192, 8192, 0, &h, 0), HCCL_SUCCESS,
		   "... and 8 KiB further on in it");
	CHECK_HCCL(HcclCommActivateCommMemory(c, b, 4096, 0, &h, 0), HCCL_SUCCESS, "... and another allocation whole");
	CHECK_HCCL(hccltCommListCommMemory(c, ptrs, sizes, 4, &n), HCCL_SUCCESS, "hccltCommListCommMemory");
	TAP_EQ(n, 3, "three ranges active");
	tap_ok(n == 3 && (ptrs[0] < ptrs[1]) && (ptrs[1] < ptrs[2]), "listed by address");
	CHECK_HCCL(HcclCommActivateCommMemory(c, a + 4095, 2, 0, &h, 0), HCCL_E_PARA,
		   "a range overlapping an active one by a byte -> HCCL_E_PARA (CANN)");
	CHECK_HCCL(HcclCommActivateCommMemory(c, a + 60000, 8192, 0, &h, 0), HCCL_E_PARA,
		   "a range past the end of the allocation -> HCCL_E_PARA");
	CHECK_HCCL(HcclCommActivateCommMemory(c, other, 4096, 0, &h, 0), HCCL_E_PARA,
		   "memory of device 1 on a device-0 communicator -> HCCL_E_PARA");
	if (buf)
		CHECK_HCCL(HcclCommActivateCommMemory(c, buf, 4096, 0, &h, 0), HCCL_E_PARA,
			   "the communicator's HCCL buffer -> HCCL_E_PARA (user memory only)");
	CHECK_HCCL(HcclCommDeactivateCommMemory(c, a + 8193), HCCL_E_PARA,
		   "HcclCommDeactivateCommMemory inside a range -> HCCL_E_PARA (whole ranges, as CANN)");
	CHECK_HCCL(HcclCommDeactivateCommMemory(c, a + 8192), HCCL_SUCCESS, "HcclCommDeactivateCommMemory");
	CHECK_HCCL(HcclCommDeactivateCommMemory(c, a + 8192), HCCL_E_PARA, "... once");
	CHECK_HCCL(HcclCommActivateCommMemory(c, a + 4096, 61440, 0, &h, 0), HCCL_SUCCESS,
		   "the rest of the allocation, now free");
	TAP_EQ(aclrtFree(b), ACL_SUCCESS, "aclrtFree of an active range");
	b = NULL;
	hccltCommListCommMemory(c, ptrs, sizes, 4, &n);
	tap_ok(n == 2 && ptrs[0] == a && sizes[0] == 4096 && ptrs[1] == a + 4096 && sizes[1] == 61440,
	       "the freed memory is no longer active (%u ranges)", n);
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy the communicator with two active ranges");
	CHECK_HCCL(hccltCommListCommMemory(c, ptrs, sizes, 4, &n), HCCL_E_PTR, "its list is gone with it");
	c = NULL;
	CHECK_HCCL(HcclCommInitClusterInfo(path, 0, &c), HCCL_SUCCESS, "a new communicator of the same table");
	hccltCommListCommMemory(c, ptrs, sizes, 4, &n);
	TAP_EQ(n, 0, "it has nothing active");
	CHECK_HCCL(HcclCommActivateCommMemory(c, a, 65536, 0, &h, 0), HCCL_SUCCESS,
		   "the memory can be activated on it, whole");
out:
	HcclCommDestroy(c);
	aclrtFree(a);
	aclrtFree(b);
	aclrtSetDevice(1);
	aclrtFree(other);
	aclrtSetDevice(0);
	unlink(path);
}

/* @n ranks as threads: ids, size, one name, a channel between two ranks. */
static void test_cluster_threads(uint32_t n)
{
	struct cl_job j[16];
	int32_t devs[16] = { 0 };
	char path[128], tag[16];
	uint32_t r;
	int bad = 0;

	snprintf(tag, sizeof(tag), "thr%u", n);
	rt_path(path, sizeof(path), tag);
	for (r = 0; r < n; r++)
		devs[r] = (int32_t)(n - 1 - r);	/* rank r on device n-1-r */
	rt_write(path, n, devs, "completed");
	cl_run(j, n, path, devs, NULL);
	for (r = 0; r < n; r++)
		bad += j[r].ret != HCCL_SUCCESS || j[r].got_rank != r || j[r].got_size != n ||
		       strcmp(j[r].name, "hccl_world_group");
	TAP_EQ(bad, 0, "a %u-rank table as threads: each its rank, the size, hccl_world_group", n);
	if (!bad)
		TAP_EQ(cl_channel(j[0].comm, devs[0], 0, j[n - 1].comm, devs[n - 1], n - 1), 0,
		       "a channel between ranks 0 and %u: record on one, wait on the other", n - 1);
	for (r = 0; r < n; r++)
		HcclCommDestroy(j[r].comm);
	/* Again, the same file: a new group (rank 0's socket went with its call). */
	cl_run(j, n, path, devs, NULL);
	for (r = 0, bad = 0; r < n; r++)
		bad += j[r].ret != HCCL_SUCCESS;
	TAP_EQ(bad, 0, "the same table again after the destroys: a new communicator");
	for (r = 0; r < n; r++)
		HcclCommDestroy(j[r].comm);
	unlink(path);
}

/* Rank 0 twice at once, the other ranks' checks, fork() while rank 0 serves. */
static void test_cluster_conflicts(void)
{
	struct cl_job j[2];
	int32_t devs[2] = { 0, 1 };
	char path[128];
	HcclCommConfig cfg;
	HcclComm c = NULL;
	pthread_t tid;
	pid_t pid;
	int st, p[2];
	char got;

	rt_path(path, sizeof(path), "conf");
	rt_write(path, 2, devs, "completed");
	memset(j, 0, sizeof(j));
	j[0].path = path;
	j[0].dev = 0;
	pthread_create(&tid, NULL, cl_job_run, &j[0]);
	TAP_EQ(wait_rank_pending(0, 2), 0, "rank 0 of a table waits in the rendezvous (another thread)");
	/* Device 1: its own world slot; rank 0 of the same table again. */
	aclrtSetDevice(1);
	CHECK_HCCL(HcclCommInitClusterInfo(path, 0, &c), HCCL_E_UNAVAIL,
		   "rank 0 again from device 1: the table puts it on device 0 -> HCCL_E_UNAVAIL");
	/*
	 * A fork() child while rank 0 serves: it must not keep the socket
	 * (checked below). Meanwhile it tries rank 0 of the table itself:
	 * the device is right, but rank 0 already listens.
	 */
	if (pipe(p)) {
		tap_ok(0, "pipe");
		p[0] = p[1] = -1;
	}
	pid = fork();
	if (!pid) {
		HcclComm cc = NULL;
		char code;

		setenv("HCCL_CONNECT_TIMEOUT", "1", 1);
		code = aclrtSetDevice(0) ? 2 : (char)HcclCommInitClusterInfo(path, 0, &cc);
		if (write(p[1], &code, 1) != 1)
			_exit(3);
		usleep(3000000);
		_exit(0);
	}
	if (read(p[0], &got, 1) != 1)
		got = -1;
	TAP_EQ(got, HCCL_E_PARA, "rank 0 of the same table in another process on device 0 -> HCCL_E_PARA");
	close(p[0]);
	close(p[1]);
	HcclCommConfigInit(&cfg);
	cfg.hcclBufferSize = 8;
	CHECK_HCCL(HcclCommInitClusterInfoConfig(path, 1, &cfg, &c), HCCL_SUCCESS,
		   "rank 1 (config: 8 MB buffer) completes the group");
	pthread_join(tid, NULL);
	CHECK_HCCL(j[0].ret, HCCL_SUCCESS, "rank 0 returns with it");
	HcclCommDestroy(c);
	HcclCommDestroy(j[0].comm);
	/* The child still lives: rank 0 of the table must be able to listen again. */
	cl_run(j, 2, path, devs, NULL);
	TAP_EQ(j[0].ret | j[1].ret, HCCL_SUCCESS,
	       "the same table again while a child forked during the last one lives");
	HcclCommDestroy(j[0].comm);
	HcclCommDestroy(j[1].comm);
	waitpid(pid, &st, 0);
	aclrtSetDevice(0);
	unlink(path);
}

/* @n ranks as processes, rank r on device n-1-r; ranks 0 and 1 open a channel. */
static void test_cluster_processes(uint32_t n)
{
	int32_t devs[16] = { 0 };
	pid_t pid[16];
	char path[128], tag[16];
	uint32_t r;
	int st, bad = 0;

	snprintf(tag, sizeof(tag), "proc%u", n);
	rt_path(path, sizeof(path), tag);
	for (r = 0; r < n; r++)
		devs[r] = (int32_t)(n - 1 - r);
	rt_write(path, n, devs, "completed");
	for (r = 0; r < n; r++) {
		pid[r] = fork();
		if (!pid[r]) {
			struct chan_job cj;
			HcclComm c = NULL;
			ThreadHandle th;
			uint32_t id = 99, size = 99;
			char name[128] = "";

			if (aclrtSetDevice(devs[r]) != ACL_SUCCESS)
				_exit(10);
			if (HcclCommInitClusterInfo(path, r, &c) != HCCL_SUCCESS)
				_exit(11);
			HcclGetRankId(c, &id);
			HcclGetRankSize(c, &size);
			HcclGetCommName(c, name);
			if (id != r || size != n || strcmp(name, "hccl_world_group"))
				_exit(12);
			if (r < 2) {
				/* Ranks 0 and 1: a channel, rank 0 records, rank 1 waits. */
				memset(&cj, 0, sizeof(cj));
				cj.comm = c;
				cj.dev = devs[r];
				cj.remote = 1 - r;
				cj.notify_num = 1;
				if (HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 0, &th) != HCCL_SUCCESS)
					_exit(13);
				chan_job_run(&cj);
				if (cj.ret != HCCL_SUCCESS)
					_exit(14);
				if (r == 0 && HcommChannelNotifyRecordOnThread(th, cj.ch, 0) != HCCL_SUCCESS)
					_exit(15);
				if (r == 1 && HcommChannelNotifyWaitOnThread(th, cj.ch, 0, 10) != HCCL_SUCCESS)
					_exit(16);
				if (hccltThreadSynchronize(th, 10000) != ACL_SUCCESS)
					_exit(17);
			}
			_exit(HcclCommDestroy(c) == HCCL_SUCCESS ? 0 : 18);
		}
	}
	for (r = 0; r < n; r++) {
		waitpid(pid[r], &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("#   rank %u: %s %d\n", r, WIFEXITED(st) ? "exit" : "signal",
			       WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
			bad++;
		}
	}
	TAP_EQ(bad, 0, "a %u-rank table as processes: ids, size, name; a channel between ranks 0 and 1", n);
	unlink(path);
}

static void test_cluster(uint32_t ndev)
{
	uint32_t n = ndev < 8 ? ndev : 8;

	if (skipped("cluster")) {
		tap_skip("rank tables (HCCLT_LIBTEST_SKIP)");
		return;
	}
	test_cluster_checks();
	test_comm_memory();
	if (!have_af_unix()) {
		tap_skip("rank-table rendezvous: no AF_UNIX sockets in this kernel (CONFIG_UNIX)");
		return;
	}
	test_cluster_threads(2);
	if (n > 2)
		test_cluster_threads(n);
	test_cluster_conflicts();
	test_cluster_processes(2);
	if (n > 2)
		test_cluster_processes(n);
}

static unsigned char pat(size_t i, unsigned int seed)
{
	return (unsigned char)((i * 131 + seed * 7 + (i >> 8)) ^ (i >> 16));
}

/*
 * ---- hccltLocal/Write/ReadReduceOnThread: every type and op ------------
 *
 * The host's reference, written apart from the driver's: integers in 64
 * bits; FP32 and FP64 in the host's float and double; FP16 and BFP16
 * widened by their definition and rounded to nearest even by scaling into
 * a double, whose value is exact, and rounding that to an integer.
 */
static const char *const rtype_names[] = { "INT8", "INT16", "INT32", "FP16", "FP32", "INT64",
					   "UINT64", "UINT8", "UINT16", "UINT32", "FP64", "BFP16" };
static const char *const rop_names[] = { "SUM", "PROD", "MAX", "MIN" };

static unsigned int rsize(uint32_t t)
{
	static const unsigned char sz[] = { 1, 2, 4, 2, 4, 8, 8, 1, 2, 4, 8, 2 };

	return sz[t];
}

/* A double of the value 2^e, -1022 <= e <= 1023. */
static double pow2(int e)
{
	uint64_t b = (uint64_t)(e + 1023) << 52;
	double d;

	memcpy(&d, &b, 8);
	return d;
}

static uint64_t dbits(double d)
{
	uint64_t b;

	memcpy(&b, &d, 8);
	return b;
}

static uint32_t fbits(float f)
{
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

/* Round @v (>= 0, below 2^53) to an integer, ties to even. */
static uint64_t rne(double v)
{
	uint64_t q = (uint64_t)v;
	double r = v - (double)q;

	if (r > 0.5 || (r == 0.5 && (q & 1)))
		q++;
	return q;
}

/* FP16 (@mbits 10, @bias 15) and BFP16 (7, 127): bits to value. */
static double nwiden(uint32_t b, int mbits, int bias)
{
	uint32_t e = (b >> mbits) & ((2u << (bias > 15 ? 7 : 4)) - 1);
	uint32_t m = b & ((1u << mbits) - 1);
	double v;

	if (e == (uint32_t)(2 * bias + 1))
		v = m ? 0.0 / 0.0 : 1.0 / 0.0;
	else if (e)
		v = (double)((1u << mbits) | m) * pow2((int)e - bias - mbits);
	else
		v = (double)m * pow2(1 - bias - mbits);
	return b >> (mbits + (bias > 15 ? 8 : 5)) ? -v : v;
}

/* A float's value to FP16 or BFP16 bits, to nearest, ties to even. */
static uint32_t nround(float f, int mbits, int bias)
{
	uint32_t sign = (fbits(f) >> 31) << (mbits + (bias > 15 ? 8 : 5));
	uint32_t einf = 2 * bias + 1;
	double a = f < 0 ? -(double)f : (double)f;
	int e;
	uint64_t q;

	if (f != f)
		return sign | einf << mbits | 1u << (mbits - 1);
	if (a == 0)
		return sign;
	e = (int)((dbits(a) >> 52) & 0x7ff) - 1023;
	if (e < 1 - bias)	/* subnormal (or rounding up to the smallest normal) */
		return sign | (uint32_t)rne(a * pow2(mbits - 1 + bias));
	if (e + bias < (int)einf) {	/* else too large or inf */
		q = rne(a * pow2(mbits - e));
		if (q == 2u << mbits) {
			q >>= 1;
			e++;
		}
	}
	if (e + bias >= (int)einf)
		return sign | einf << mbits;
	return sign | (uint32_t)(e + bias) << mbits | (uint32_t)(q - (1u << mbits));
}

static int rfloat(uint32_t t)
{
	return t == HCOMM_DATA_TYPE_FP16 || t == HCOMM_DATA_TYPE_FP32 ||
	       t == HCOMM_DATA_TYPE_FP64 || t == HCOMM_DATA_TYPE_BFP16;
}

static double rvalue(uint32_t t, uint64_t b)
{
	float f;
	double d;

	switch (t) {
	case HCOMM_DATA_TYPE_FP16:
		return nwiden((uint32_t)b, 10, 15);
	case HCOMM_DATA_TYPE_BFP16:
		return nwiden((uint32_t)b, 7, 127);
	case HCOMM_DATA_TYPE_FP32:
		memcpy(&f, &b, 4);
		return f;
	default:
		memcpy(&d, &b, 8);
		return d;
	}
}

static int rnan(uint32_t t, uint64_t b)
{
	double v = rvalue(t, b);

	return v != v;
}

/* What element @d becomes with @s. */
static uint64_t rref(uint32_t t, uint32_t op, uint64_t d, uint64_t s)
{
	unsigned int bits = rsize(t) * 8;
	uint64_t mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;

	if (rfloat(t)) {
		double x = rvalue(t, d), y = rvalue(t, s);
		volatile float r;

		if (op == HCOMM_REDUCE_MAX || op == HCOMM_REDUCE_MIN) {
			if (x != x || y != y)
				return x != x ? d : s;
			return (op == HCOMM_REDUCE_MAX ? y > x : y < x) ? s : d;
		}
		if (t == HCOMM_DATA_TYPE_FP64)
			return dbits(op == HCOMM_REDUCE_SUM ? x + y : x * y);
		/* FP16, BFP16 and FP32 are exact in a float: computed there. */
		r = op == HCOMM_REDUCE_SUM ? (float)x + (float)y : (float)x * (float)y;
		if (t == HCOMM_DATA_TYPE_FP32)
			return fbits(r);
		return t == HCOMM_DATA_TYPE_FP16 ? nround(r, 10, 15) : nround(r, 7, 127);
	}
	if (op == HCOMM_REDUCE_SUM)
		return (d + s) & mask;
	if (op == HCOMM_REDUCE_PROD)
		return (d * s) & mask;
	if (t == HCOMM_DATA_TYPE_INT8 || t == HCOMM_DATA_TYPE_INT16 ||
	    t == HCOMM_DATA_TYPE_INT32 || t == HCOMM_DATA_TYPE_INT64) {
		int64_t x = (int64_t)(d << (64 - bits)) >> (64 - bits);
		int64_t y = (int64_t)(s << (64 - bits)) >> (64 - bits);

		return (op == HCOMM_REDUCE_MAX ? y > x : y < x) ? s : d;
	}
	return (op == HCOMM_REDUCE_MAX ? s > d : s < d) ? s : d;
}

static uint64_t rget(const void *p, uint32_t t, size_t i)
{
	uint64_t v = 0;

	memcpy(&v, (const unsigned char *)p + i * rsize(t), rsize(t));
	return v;
}

static void rput(void *p, uint32_t t, size_t i, uint64_t v)
{
	memcpy((unsigned char *)p + i * rsize(t), &v, rsize(t));
}

/*
 * @n elements of type @t for seed @seed: even ones small whole or half
 * numbers (floats) or small integers, odd ones random bits; the first 8
 * of a float type inf, -inf, NaN, -0, the smallest subnormal and the
 * largest value, in an order that differs by seed.
 */
static void rfill(void *p, uint32_t t, size_t n, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + 1, v;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x;
		if (!(i & 1)) {
			int k = (int)(x % 41) - 20;

			switch (t) {
			case HCOMM_DATA_TYPE_FP16:
				v = nround((float)k * 0.5f, 10, 15);
				break;
			case HCOMM_DATA_TYPE_BFP16:
				v = nround((float)k * 0.5f, 7, 127);
				break;
			case HCOMM_DATA_TYPE_FP32:
				v = fbits((float)k * 0.5f);
				break;
			case HCOMM_DATA_TYPE_FP64:
				v = dbits((double)k * 0.5);
				break;
			default:
				v = (uint64_t)(int64_t)k;
				break;
			}
		}
		rput(p, t, i, v);
	}
	if (rfloat(t) && n >= 8) {
		static const uint64_t sp[4][6] = {
			{ 0x7c00, 0xfc00, 0x7e00, 0x8000, 0x0001, 0x7bff },	/* FP16 */
			{ 0x7f800000, 0xff800000, 0x7fc00000, 0x80000000, 1, 0x7f7fffff },
			{ 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
			  0x8000000000000000, 1, 0x7fefffffffffffff },
			{ 0x7f80, 0xff80, 0x7fc0, 0x8000, 0x0001, 0x7f7f },	/* BFP16 */
		};
		int row = t == HCOMM_DATA_TYPE_FP16 ? 0 : t == HCOMM_DATA_TYPE_FP32 ? 1 :
			  t == HCOMM_DATA_TYPE_FP64 ? 2 : 3;

		for (i = 0; i < 6; i++)
			rput(p, t, (i * 3 + seed) % 8, sp[row][i]);
	}
}

/* Elements of @got that are not the reference of @d, @s; -1 when none. */
static long rcheck(const void *got, const void *d, const void *s, uint32_t t, uint32_t op,
		   size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t w = rref(t, op, rget(d, t, i), rget(s, t, i)), g = rget(got, t, i);

		if (rfloat(t) && rnan(t, w) ? !rnan(t, g) : g != w) {
			printf("#   %s %s element %zu: %#llx, %#llx gave %#llx, want %#llx\n",
			       rtype_names[t], rop_names[op], i, (unsigned long long)rget(d, t, i),
			       (unsigned long long)rget(s, t, i), (unsigned long long)g,
			       (unsigned long long)w);
			return (long)i;
		}
	}
	return -1;
}

/*
 * Every type 0 .. 11 and op: a local reduce, a write reduce into the
 * peer's buffer and a read reduce out of it, checked against the host's
 * reference; then a batch of them. @th: a thread of rank 1 (the current
 * device), @ch its channel to rank 0, @loc rank 1's device memory (at
 * least 256 KiB), @peer its mapping of rank 0's HCCL buffer and @own rank
 * 0's own mapping of it (at least 2 MiB).
 */
static void test_reduce_ext(ThreadHandle th, ChannelHandle ch, unsigned char *loc,
			    unsigned char *peer, unsigned char *own)
{
	enum { N = 1001 };
	static unsigned char d0[N * 8], s0[N * 8], d1[3000 * 2], s1[3000 * 2];
	unsigned char *ld = loc + 131072, *ls = loc + 196608;
	uint32_t t, op;
	int32_t r1, r2, r3, rb;
	long bad;

	for (t = 0; t < 12; t++) {
		for (op = 0; op < 4; op++) {
			size_t len = (size_t)N * rsize(t);
			uint64_t seed = t * 4 + op;

			/* Local. */
			rfill(ld, t, N, seed);
			rfill(ls, t, N, seed + 100);
			memcpy(d0, ld, len);
			memcpy(s0, ls, len);
			r1 = hccltLocalReduceOnThread(th, ld, ls, N, (HcommDataType)t,
						      (HcommReduceOp)op);
			TAP_EQ(hccltThreadSynchronize(th, 10000), ACL_SUCCESS,
			       "hcclt reduce %s %s: synchronized", rtype_names[t], rop_names[op]);
			bad = rcheck(ld, d0, s0, t, op, N);
			/* Write into the peer's buffer at 1 MiB. */
			rfill(own + 1048576, t, N, seed + 200);
			rfill(ls, t, N, seed + 300);
			memcpy(d0, own + 1048576, len);
			memcpy(s0, ls, len);
			r2 = hccltWriteReduceOnThread(th, ch, peer + 1048576, ls, N,
						      (HcommDataType)t, (HcommReduceOp)op);
			hccltThreadSynchronize(th, 10000);
			if (bad < 0)
				bad = rcheck(own + 1048576, d0, s0, t, op, N);
			/* Read out of it, at 1.5 MiB. */
			rfill(ld, t, N, seed + 400);
			rfill(own + 1572864, t, N, seed + 500);
			memcpy(d0, ld, len);
			memcpy(s0, own + 1572864, len);
			r3 = hccltReadReduceOnThread(th, ch, ld, peer + 1572864, N,
						     (HcommDataType)t, (HcommReduceOp)op);
			hccltThreadSynchronize(th, 10000);
			if (bad < 0)
				bad = rcheck(ld, d0, s0, t, op, N);
			tap_ok(!r1 && !r2 && !r3 && bad < 0,
			       "hcclt reduce %s %s: local, write and read of %d elements match the host's reference",
			       rtype_names[t], rop_names[op], N);
			if (r1 || r2 || r3)
				printf("#   codes %d %d %d\n", r1, r2, r3);
		}
	}

	/* Batch mode: kept until End, then run; the kernel's checks at End. */
	CHECK_HCCL(HcommBatchModeStart("reduce"), HCCL_SUCCESS, "hcclt reduce batch: Start");
	rfill(ld, HCOMM_DATA_TYPE_FP64, 4000, 7);
	rfill(ls, HCOMM_DATA_TYPE_FP64, 4000, 8);
	memcpy(d0, ld, N * 8);
	memcpy(s0, ls, N * 8);
	memcpy(d1, ld + N * 8, sizeof(d1));
	memcpy(s1, ls + N * 8, sizeof(s1));
	r1 = hccltLocalReduceOnThread(th, ld, ls, N, HCOMM_DATA_TYPE_FP64, HCOMM_REDUCE_PROD);
	r2 = hccltLocalReduceOnThread(th, ld + N * 8, ls + N * 8, 3000, HCOMM_DATA_TYPE_UINT16,
				      HCOMM_REDUCE_MAX);
	TAP_EQ(r1 | r2, HCCL_SUCCESS, "hcclt reduce batch: FP64 PROD and UINT16 MAX kept");
	TAP_EQ(hccltThreadSynchronize(th, 200), ACL_SUCCESS, "hcclt reduce batch: nothing queued yet");
	tap_ok(!memcmp(d0, ld, N * 8), "hcclt reduce batch: the destination untouched before End");
	CHECK_HCCL(HcommBatchModeEnd("reduce"), HCCL_SUCCESS, "hcclt reduce batch: End");
	TAP_EQ(hccltThreadSynchronize(th, 10000), ACL_SUCCESS, "hcclt reduce batch: synchronized");
	bad = rcheck(ld, d0, s0, HCOMM_DATA_TYPE_FP64, HCOMM_REDUCE_PROD, N);
	if (bad < 0)
		bad = rcheck(ld + N * 8, d1, s1, HCOMM_DATA_TYPE_UINT16, HCOMM_REDUCE_MAX, 3000);
	tap_ok(bad < 0, "hcclt reduce batch: FP64 PROD and UINT16 MAX, every element");
	CHECK_HCCL(HcommBatchModeStart(NULL), HCCL_SUCCESS, "hcclt reduce batch: Start");
	rb = hccltLocalReduceOnThread(th, ld + 4, ls, 16, HCOMM_DATA_TYPE_INT64, HCOMM_REDUCE_SUM);
	CHECK_HCCL(rb, HCCL_SUCCESS, "hcclt reduce batch: INT64 at an address not 8-aligned: kept");
	CHECK_HCCL(HcommBatchModeEnd(NULL), HCCL_E_PARA,
		   "hcclt reduce batch: the kernel refuses it at End -> HCCL_E_PARA");
	TAP_EQ(hccltThreadSynchronize(th, 10000), ACL_SUCCESS, "hcclt reduce batch: nothing failed on the stream");
	/* The same call unbatched, and hcomm's own calls keep their set. */
	CHECK_HCCL(hccltLocalReduceOnThread(th, ld + 4, ls, 16, HCOMM_DATA_TYPE_INT64, HCOMM_REDUCE_SUM),
		   HCCL_E_PARA, "hcclt LocalReduce: INT64 at an address not 8-aligned -> HCCL_E_PARA");
	CHECK_HCCL(HcommLocalReduceOnThread(th, ld, ls, 16, HCOMM_DATA_TYPE_UINT64, HCOMM_REDUCE_SUM),
		   HCCL_E_PARA, "HcommLocalReduce: UINT64 on a 1.7 driver still -> HCCL_E_PARA");
	CHECK_HCCL(HcommWriteReduceOnThread(th, ch, peer + 1048576, ls, 16, HCOMM_DATA_TYPE_INT32,
					    HCOMM_REDUCE_PROD),
		   HCCL_E_PARA, "HcommWriteReduce: PROD on a 1.7 driver still -> HCCL_E_PARA");
	CHECK_HCCL(hccltLocalReduceOnThread(th, ld, ld + 8, 2, HCOMM_DATA_TYPE_UINT64, HCOMM_REDUCE_MIN),
		   HCCL_E_PARA, "hcclt LocalReduce: overlapping UINT64 ranges -> HCCL_E_PARA");
	CHECK_HCCL(hccltReadReduceOnThread(th, ch, ld, loc, 16, HCOMM_DATA_TYPE_FP64, HCOMM_REDUCE_SUM),
		   HCCL_E_PARA, "hcclt ReadReduce: src not in the peer's buffer -> HCCL_E_PARA");
}

/* ---- AICPU kernels, batch mode, engine contexts, the rank graph ------- */

#include "test_kernel.h"

static char kdir[PATH_MAX + 16];

static const char *kpath(const char *json)
{
	static char p[PATH_MAX + 80];

	snprintf(p, sizeof(p), "%s/%s", kdir, json);
	return p;
}

/* Launch @f with @a on @st, finalized, with a timeout of @tmo s (0 none). */
static aclError launch(aclrtFuncHandle f, uint32_t blocks, aclrtStream st,
		       struct test_kernel_args *a, uint16_t tmo)
{
	aclrtLaunchKernelAttr attr;
	aclrtLaunchKernelCfg cfg = { &attr, tmo ? 1 : 0 };
	aclrtParamHandle ph;
	aclrtArgsHandle args;
	aclError r;

	memset(&attr, 0, sizeof(attr));
	attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
	attr.value.timeout = tmo;
	r = aclrtKernelArgsInit(f, &args);
	if (!r)
		r = aclrtKernelArgsAppend(args, a, sizeof(*a), &ph);
	if (!r)
		r = aclrtKernelArgsFinalize(args);
	if (!r)
		r = aclrtLaunchKernelWithConfig(f, blocks, st, &cfg, args, NULL);
	return r;
}

/*
 * A kernel waits on a channel whose peer process is then SIGKILLed, and
 * the host's stream waits for the kernel's hand-back: the stream fails at
 * once (ACL_ERROR_RT_STREAM_ABORT at once, the kernel log names
 * the rank), not at a timeout, and works again after. Needs 2 devices.
 */
static void test_kernel_peer_killed(aclrtFuncHandle chk)
{
	uint64_t *counter = NULL;
	struct test_kernel_args a;
	HcclRootInfo root;
	HcclComm comm;
	HcclChannelDesc d;
	ChannelHandle ch;
	ThreadHandle host, host_ai, ai;
	aclrtStream st;
	struct timespec t0, t1;
	int pfd[2], st_child;
	pid_t pid;
	char c;
	double ms;

	aclrtSetDevice(0);
	CHECK_HCCL(HcclGetRootInfo(&root), HCCL_SUCCESS, "peer killed: HcclGetRootInfo");
	if (pipe(pfd))
		return;
	pid = fork();
	if (!pid) {
		/* Rank 1 on device 1: join, acquire the channel, then hang. */
		close(pfd[0]);
		if (aclrtSetDevice(1) ||
		    HcclCommInitRootInfo(2, &root, 1, &comm) != HCCL_SUCCESS)
			_exit(1);
		HcclChannelDescInit(&d, 1);
		d.remoteRank = 0;
		d.channelProtocol = COMM_PROTOCOL_HCCS;
		d.notifyNum = 1;
		if (HcclChannelAcquire(comm, COMM_ENGINE_AICPU_TS, &d, 1, &ch) != HCCL_SUCCESS)
			_exit(2);
		if (write(pfd[1], "r", 1) != 1)
			_exit(3);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	CHECK_HCCL(HcclCommInitRootInfo(2, &root, 0, &comm), HCCL_SUCCESS, "peer killed: rank 0 joins");
	HcclChannelDescInit(&d, 1);
	d.remoteRank = 1;
	d.channelProtocol = COMM_PROTOCOL_HCCS;
	d.notifyNum = 1;
	CHECK_HCCL(HcclChannelAcquire(comm, COMM_ENGINE_AICPU_TS, &d, 1, &ch), HCCL_SUCCESS,
		   "peer killed: the channel to rank 1 (another process)");
	TAP_EQ(read(pfd[0], &c, 1), 1, "peer killed: rank 1 is ready");
	TAP_EQ(aclrtCreateStream(&st), ACL_SUCCESS, "peer killed: the host's stream");
	CHECK_HCCL(HcclThreadAcquireWithStream(comm, COMM_ENGINE_CPU_TS, st, 1, &host), HCCL_SUCCESS,
		   "peer killed: a thread on it");
	CHECK_HCCL(HcclThreadExportToCommEngine(comm, 1, &host, COMM_ENGINE_AICPU_TS, &host_ai),
		   HCCL_SUCCESS, "peer killed: the host's thread, for the kernel");
	CHECK_HCCL(HcclThreadAcquire(comm, COMM_ENGINE_AICPU_TS, 1, 1, &ai), HCCL_SUCCESS,
		   "peer killed: the kernel's thread");
	TAP_EQ(aclrtMalloc((void **)&counter, TK_WORDS * 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS,
	       "peer killed: the kernel's words, device memory");
	memset(counter, 0, TK_WORDS * 8);
	memset(&a, 0, sizeof(a));
	a.counter = counter;
	a.a = ai;
	a.b = host_ai;
	a.ch = ch;
	TAP_EQ(launch(chk, 1, st, &a, 60), ACL_SUCCESS, "peer killed: launch the kernel");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(host, 0, 60), HCCL_SUCCESS,
		   "peer killed: the host waits for the hand-back (60 s timeout)");
	while (!__atomic_load_n(&counter[TK_RUNS], __ATOMIC_SEQ_CST))
		usleep(1000);
	usleep(100000);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	kill(pid, SIGKILL);
	TAP_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_STREAM_ABORT,
	       "peer killed: the host's stream fails -> ACL_ERROR_RT_STREAM_ABORT");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	/* A bound any host meets, well under the 60 s timeouts it must beat. */
	tap_ok(ms < 30000, "peer killed: at once, not at the timeout (%.0f ms)", ms);
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "peer killed: reported once");
	waitpid(pid, &st_child, 0);
	tap_ok(WIFSIGNALED(st_child), "peer killed: rank 1 died of the signal");
	close(pfd[0]);
	aclrtDestroyStream(st);
	aclrtFree(counter);
	HcclCommDestroy(comm);
}

/*
 * ACL events and notifies: codes, a stream waiting for another's event,
 * the status before and after, the elapsed time between two records, ACL
 * notifies on streams and on threads (by aclrtGetNotifyId()), a destroyed
 * handle refused.
 */
/* aclrtGetCurrentContext on a thread that never set a device. */
static void *ctx_fresh_thread(void *arg)
{
	aclrtContext *out = arg;

	return (void *)(intptr_t)aclrtGetCurrentContext(out);
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * The runtime samples' calls (issue 32): contexts, aclrtStreamQuery,
 * aclrtEventGetTimestamp, aclrtDestroyStreamForce, aclrtResetDeviceForce.
 */
static void test_runtime_calls(uint32_t ndev)
{
	int32_t other = ndev > 1 ? 1 : 0, d = -1;
	aclrtContext d0, c1, cur, fresh = NULL;
	aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
	aclrtStream s, s2;
	aclrtEvent e, e2;
	aclrtNotify n;
	uint64_t ts = 0, t0, t1;
	pthread_t pt;
	void *rv = NULL;

	/* Contexts. */
	pthread_create(&pt, NULL, ctx_fresh_thread, &fresh);
	pthread_join(pt, &rv);
	TAP_EQ((intptr_t)rv, ACL_ERROR_RT_CONTEXT_NULL,
	       "aclrtGetCurrentContext on a thread without a device -> ACL_ERROR_RT_CONTEXT_NULL");
	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "ctx: device 0");
	TAP_EQ(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext(NULL)");
	TAP_EQ(aclrtGetCurrentContext(&d0), ACL_SUCCESS, "aclrtGetCurrentContext: device 0's default");
	TAP_EQ(aclrtDestroyContext(d0), ACL_ERROR_RT_CONTEXT_NULL,
	       "aclrtDestroyContext of a default context -> ACL_ERROR_RT_CONTEXT_NULL");
	TAP_EQ(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateContext(NULL)");
	TAP_EQ(aclrtCreateContext(&c1, 99), ACL_ERROR_RT_INVALID_DEVICEID,
	       "aclrtCreateContext on device 99 -> ACL_ERROR_RT_INVALID_DEVICEID");
	TAP_EQ(aclrtCreateContext(&c1, other), ACL_SUCCESS, "aclrtCreateContext on device %d", other);
	TAP_EQ(aclrtGetCurrentContext(&cur), ACL_SUCCESS, "aclrtGetCurrentContext");
	tap_ok(cur == c1 && c1 != d0, "the created context is current");
	TAP_EQ(aclrtGetDevice(&d), ACL_SUCCESS, "aclrtGetDevice");
	TAP_EQ(d, other, "its device is current");
	TAP_EQ(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtSetCurrentContext(NULL)");
	TAP_EQ(aclrtSetCurrentContext(d0), ACL_SUCCESS, "aclrtSetCurrentContext(device 0's default)");
	aclrtGetDevice(&d);
	TAP_EQ(d, 0, "device 0 current again");
	TAP_EQ(aclrtSetCurrentContext(c1), ACL_SUCCESS, "aclrtSetCurrentContext(created)");
	aclrtGetDevice(&d);
	TAP_EQ(d, other, "its device current again");
	TAP_EQ(aclrtCreateStream(&s), ACL_SUCCESS, "a stream in the created context");
	TAP_EQ(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyContext(NULL)");
	TAP_EQ(aclrtDestroyContext(c1), ACL_SUCCESS, "aclrtDestroyContext");
	TAP_EQ(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL,
	       "the destroyed current context leaves the thread without one");
	TAP_EQ(aclrtDestroyContext(c1), ACL_ERROR_RT_CONTEXT_NULL, "destroyed twice -> ACL_ERROR_RT_CONTEXT_NULL");
	TAP_EQ(aclrtSetCurrentContext(c1), ACL_ERROR_RT_PARAM_INVALID,
	       "aclrtSetCurrentContext of a destroyed context -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "its stream outlives it");
	TAP_EQ(aclrtDestroyStream(s), ACL_SUCCESS, "and is destroyed on its own");

	/* aclrtStreamQuery, aclrtEventGetTimestamp. */
	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "query: device 0");
	TAP_EQ(aclrtCreateStream(&s), ACL_SUCCESS, "query: stream");
	TAP_EQ(aclrtCreateStream(&s2), ACL_SUCCESS, "query: second stream");
	TAP_EQ(aclrtCreateEvent(&e), ACL_SUCCESS, "query: event");
	TAP_EQ(aclrtCreateEvent(&e2), ACL_SUCCESS, "query: second event");
	TAP_EQ(aclrtCreateNotify(&n, 0), ACL_SUCCESS, "query: notify");
	TAP_EQ(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: status NULL");
	TAP_EQ(aclrtStreamQuery(NULL, &st), ACL_ERROR_INVALID_PARAM, "aclrtStreamQuery: stream NULL");
	TAP_EQ(aclrtStreamQuery((aclrtStream)&st, &st), ACL_ERROR_RT_INVALID_HANDLE,
	       "aclrtStreamQuery: not a stream -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS, "aclrtStreamQuery of an empty stream");
	TAP_EQ(st, ACL_STREAM_STATUS_COMPLETE, "complete");
	TAP_EQ(aclrtEventGetTimestamp(e, NULL), ACL_ERROR_INVALID_PARAM, "aclrtEventGetTimestamp: timestamp NULL");
	TAP_EQ(aclrtEventGetTimestamp(NULL, &ts), ACL_ERROR_INVALID_PARAM, "aclrtEventGetTimestamp: event NULL");
	TAP_EQ(aclrtEventGetTimestamp(e, &ts), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
	       "aclrtEventGetTimestamp of an event never recorded -> ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID");
	t0 = mono_us();
	TAP_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS, "record the event");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "its stream ran");
	t1 = mono_us();
	TAP_EQ(aclrtEventGetTimestamp(e, &ts), ACL_SUCCESS, "aclrtEventGetTimestamp");
	tap_ok(ts >= t0 && ts <= t1, "the record's time in microseconds of CLOCK_MONOTONIC");
	/* A wait no one records yet: the stream is not ready, its event not complete. */
	TAP_EQ(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS, "the stream waits for the notify");
	TAP_EQ(aclrtRecordEvent(e2, s), ACL_SUCCESS, "and then records an event");
	TAP_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS, "aclrtStreamQuery of a waiting stream");
	TAP_EQ(st, ACL_STREAM_STATUS_NOT_READY, "not ready");
	TAP_EQ(aclrtEventGetTimestamp(e2, &ts), ACL_ERROR_RT_EVENT_NOT_COMPLETE,
	       "aclrtEventGetTimestamp of a record not run -> ACL_ERROR_RT_EVENT_NOT_COMPLETE");
	TAP_EQ(aclrtRecordNotify(n, s2), ACL_SUCCESS, "another stream records the notify");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "the wait was released");
	TAP_EQ(aclrtStreamQuery(s, &st), ACL_SUCCESS, "aclrtStreamQuery");
	TAP_EQ(st, ACL_STREAM_STATUS_COMPLETE, "complete again");

	/* aclrtDestroyStreamForce: what is queued is cancelled. */
	TAP_EQ(aclrtWaitAndResetNotify(n, s, 0), ACL_SUCCESS, "force: a wait no one records");
	TAP_EQ(aclrtRecordEvent(e2, s), ACL_SUCCESS, "force: an event behind it");
	TAP_EQ(aclrtDestroyStreamForce(NULL), ACL_ERROR_INVALID_PARAM, "aclrtDestroyStreamForce(NULL)");
	TAP_EQ(aclrtDestroyStreamForce(s), ACL_SUCCESS, "aclrtDestroyStreamForce of a stream that waits");
	TAP_EQ(aclrtSynchronizeEvent(e2), ACL_ERROR_RT_STREAM_ABORT, "its queued record was dropped");
	TAP_EQ(aclrtDestroyStreamForce(s), ACL_ERROR_RT_INVALID_HANDLE, "destroyed twice -> ACL_ERROR_RT_INVALID_HANDLE");
	aclrtDestroyEvent(e);
	aclrtDestroyEvent(e2);
	aclrtDestroyNotify(n);
	aclrtDestroyStream(s2);

	/* aclrtResetDeviceForce */
	TAP_EQ(aclrtResetDeviceForce(99), ACL_ERROR_RT_INVALID_DEVICEID, "aclrtResetDeviceForce(99)");
	TAP_EQ(aclrtResetDeviceForce(0), ACL_SUCCESS, "aclrtResetDeviceForce(0)");
	TAP_EQ(aclrtGetDevice(&d), ACL_ERROR_RT_CONTEXT_NULL, "no current device afterwards");
	TAP_EQ(aclrtGetCurrentContext(&cur), ACL_ERROR_RT_CONTEXT_NULL, "nor context");
	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "device 0 again");
}

static void test_events(void)
{
	aclrtEvent e0, e1, bad = NULL;
	aclrtNotify n;
	aclrtStream s0, s1;
	aclrtEventRecordedStatus st;
	HcclComm c = new_comm();
	ThreadHandle th[2], held;
	uint32_t id;
	float ms = -1;

	aclrtSetDevice(0);
	TAP_EQ(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM, "aclrtCreateEvent(NULL)");
	TAP_EQ(aclrtCreateEventWithFlag(&e0, 0x100), ACL_ERROR_INVALID_PARAM,
	       "aclrtCreateEventWithFlag: an unknown flag");
	TAP_EQ(aclrtCreateEvent(&e0), ACL_SUCCESS, "aclrtCreateEvent");
	TAP_EQ(aclrtCreateEventWithFlag(&e1, ACL_EVENT_TIME_LINE | ACL_EVENT_SYNC), ACL_SUCCESS,
	       "aclrtCreateEventWithFlag(TIME_LINE | SYNC)");
	TAP_EQ(aclrtCreateStream(&s0), ACL_SUCCESS, "events: stream 0");
	TAP_EQ(aclrtCreateStream(&s1), ACL_SUCCESS, "events: stream 1");
	TAP_EQ(aclrtEventElapsedTime(&ms, e0, e1), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
	       "elapsed time of events never recorded -> ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID");
	TAP_EQ(aclrtQueryEventStatus(e0, NULL), ACL_ERROR_INVALID_PARAM, "query: status NULL");
	/* s0 holds behind a thread wait, then records e0; s1 waits for it. */
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, s0, 1, &held), HCCL_SUCCESS,
		   "events: a thread on stream 0");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU_TS, 2, 1, th), HCCL_SUCCESS,
		   "events: two threads");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(held, 0, 30), HCCL_SUCCESS, "stream 0 waits");
	TAP_EQ(aclrtRecordEvent(e0, s0), ACL_SUCCESS, "aclrtRecordEvent on stream 0");
	TAP_EQ(aclrtStreamWaitEvent(s1, e0), ACL_SUCCESS, "aclrtStreamWaitEvent on stream 1");
	TAP_EQ(aclrtRecordEvent(e1, s1), ACL_SUCCESS, "stream 1 records e1 after its wait");
	TAP_EQ(aclrtQueryEventStatus(e1, &st), ACL_SUCCESS, "query e1");
	TAP_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY, "e1 not ready: stream 1 waits for e0");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s1, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
	       "stream 1 is held by the event wait");
	TAP_EQ(aclrtEventElapsedTime(&ms, e0, e1), ACL_ERROR_RT_EVENT_NOT_COMPLETE,
	       "elapsed time while a record is queued -> ACL_ERROR_RT_EVENT_NOT_COMPLETE");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(th[1], held, 0), HCCL_SUCCESS,
		   "release stream 0");
	TAP_EQ(aclrtSynchronizeEvent(e1), ACL_SUCCESS, "aclrtSynchronizeEvent(e1)");
	TAP_EQ(aclrtQueryEventStatus(e0, &st), ACL_SUCCESS, "query e0");
	TAP_EQ(st, ACL_EVENT_RECORDED_STATUS_COMPLETE, "e0 complete");
	TAP_EQ(aclrtEventElapsedTime(NULL, e0, e1), ACL_ERROR_INVALID_PARAM, "elapsed: ms NULL");
	TAP_EQ(aclrtEventElapsedTime(&ms, e0, e1), ACL_SUCCESS, "aclrtEventElapsedTime");
	tap_ok(ms >= 0 && ms < 60000, "e0 to e1: %.3f ms, not negative", ms);
	/* Two records 50 ms apart on one stream. */
	TAP_EQ(aclrtRecordEvent(e0, s0), ACL_SUCCESS, "record e0");
	TAP_EQ(aclrtSynchronizeStream(s0), ACL_SUCCESS, "synchronized");
	usleep(50000);
	TAP_EQ(aclrtRecordEvent(e1, s0), ACL_SUCCESS, "record e1 50 ms later");
	TAP_EQ(aclrtSynchronizeEvent(e1), ACL_SUCCESS, "synchronized e1");
	TAP_EQ(aclrtEventElapsedTime(&ms, e0, e1), ACL_SUCCESS, "elapsed time");
	tap_ok(ms >= 45 && ms < 60000, "elapsed %.3f ms >= 45", ms);

	/* ACL notifies. */
	TAP_EQ(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify(NULL)");
	TAP_EQ(aclrtCreateNotify(&n, 2), ACL_ERROR_INVALID_PARAM, "aclrtCreateNotify: a bad flag");
	TAP_EQ(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_SUCCESS, "aclrtCreateNotify");
	TAP_EQ(aclrtGetNotifyId(n, NULL), ACL_ERROR_INVALID_PARAM, "aclrtGetNotifyId: NULL");
	TAP_EQ(aclrtGetNotifyId(n, &id), ACL_SUCCESS, "aclrtGetNotifyId");
	TAP_EQ(aclrtWaitAndResetNotify(n, s1, 30000), ACL_SUCCESS, "stream 1 waits on it");
	TAP_EQ(aclrtSynchronizeStreamWithTimeout(s1, 100), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
	       "stream 1 parked");
	TAP_EQ(aclrtRecordNotify(n, s0), ACL_SUCCESS, "stream 0 records it");
	TAP_EQ(aclrtSynchronizeStream(s1), ACL_SUCCESS, "stream 1 released");
	CHECK_HCCL(HcommAclrtNotifyWaitOnThread(th[0], id, 30), HCCL_SUCCESS,
		   "HcommAclrtNotifyWaitOnThread by id");
	CHECK_HCCL(HcommAclrtNotifyRecordOnThread(th[1], id), HCCL_SUCCESS,
		   "HcommAclrtNotifyRecordOnThread by id");
	TAP_EQ(hccltThreadSynchronize(th[0], 10000), ACL_SUCCESS, "the thread's wait returned");
	CHECK_HCCL(HcommAclrtNotifyRecordOnThread(th[1], id + 1), HCCL_E_PARA,
		   "HcommAclrtNotifyRecordOnThread: an id of no notify -> HCCL_E_PARA");
	CHECK_HCCL(HcommAclrtNotifyRecordOnThread(0, id), HCCL_E_PTR, "... thread 0 -> HCCL_E_PTR");
	TAP_EQ(aclrtDestroyNotify(n), ACL_SUCCESS, "aclrtDestroyNotify");
	TAP_EQ(aclrtDestroyNotify(n), ACL_ERROR_RT_INVALID_HANDLE, "destroyed twice");
	TAP_EQ(aclrtRecordNotify(n, s0), ACL_ERROR_RT_INVALID_HANDLE, "a destroyed notify");
	TAP_EQ(aclrtDestroyEvent(e0), ACL_SUCCESS, "aclrtDestroyEvent");
	TAP_EQ(aclrtDestroyEvent(e0), ACL_ERROR_RT_INVALID_HANDLE, "destroyed twice");
	TAP_EQ(aclrtRecordEvent(e0, s0), ACL_ERROR_RT_INVALID_HANDLE, "a destroyed event");
	TAP_EQ(aclrtRecordEvent(bad, s0), ACL_ERROR_INVALID_PARAM, "event NULL");
	/* A record dropped with its stream fails the event at once. */
	{
		aclrtStream s2;
		aclrtNotify n2;

		TAP_EQ(aclrtCreateStream(&s2), ACL_SUCCESS, "events: stream 2");
		TAP_EQ(aclrtCreateNotify(&n2, ACL_NOTIFY_DEFAULT), ACL_SUCCESS,
		       "a notify nobody records");
		TAP_EQ(aclrtWaitAndResetNotify(n2, s2, 0), ACL_SUCCESS, "stream 2 waits on it");
		TAP_EQ(aclrtRecordEvent(e1, s2), ACL_SUCCESS, "then records e1");
		TAP_EQ(aclrtQueryEventStatus(e1, &st), ACL_SUCCESS, "query e1");
		TAP_EQ(st, ACL_EVENT_RECORDED_STATUS_NOT_READY, "e1 not ready");
		TAP_EQ(aclrtDestroyStream(s2), ACL_SUCCESS, "destroy stream 2 with its record queued");
		TAP_EQ(aclrtSynchronizeEvent(e1), ACL_ERROR_RT_STREAM_ABORT,
		       "aclrtSynchronizeEvent of a dropped record -> ACL_ERROR_RT_STREAM_ABORT");
		TAP_EQ(aclrtRecordEvent(e1, s1), ACL_SUCCESS, "record e1 again");
		TAP_EQ(aclrtSynchronizeEvent(e1), ACL_SUCCESS, "a record that runs completes it");
		TAP_EQ(aclrtDestroyNotify(n2), ACL_SUCCESS, "destroy the notify");
	}
	TAP_EQ(aclrtDestroyEvent(e1), ACL_SUCCESS, "destroy e1");
	HcclCommDestroy(c);
	aclrtDestroyStream(s0);
	aclrtDestroyStream(s1);
}

/*
 * The simulated AI CPU is not the application (issue 31): a kernel sees
 * device memory only, its crash fails its stream instead of the
 * application, and kernels of two streams run at once.
 */
static void test_kernel_faults(aclrtBinHandle bin, aclrtStream st, uint64_t *counter)
{
	static const struct {
		uint32_t mode;
		const char *what;
	} bad[] = {
		{ TK_BAD_POKE, "writes through a host pointer (the application's heap)" },
		{ TK_BAD_ABORT, "calls abort()" },
		{ TK_BAD_EXIT, "calls exit(3)" },
		{ TK_BAD_FPE, "divides by zero" },
	};
	struct test_kernel_args a, b;
	aclrtFuncHandle badf, meet;
	uint64_t *host = malloc(64);
	aclrtStream st2;
	size_t i;

	TAP_EQ(aclrtBinaryGetFunction(bin, "BadKernel", &badf), ACL_SUCCESS, "the faulting kernel");
	TAP_EQ(aclrtBinaryGetFunction(bin, "MeetKernel", &meet), ACL_SUCCESS, "the meeting kernel");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&a, 0, sizeof(a));
		a.counter = counter;
		a.mode = bad[i].mode;
		a.poke = host;
		host[0] = 0;
		counter[TK_RUNS] = 0;
		TAP_EQ(launch(badf, 1, st, &a, 0), ACL_SUCCESS, "a kernel that %s", bad[i].what);
		TAP_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_AICPU_EXCEPTION,
		       "-> ACL_ERROR_RT_AICPU_EXCEPTION on its stream; the application lives");
		tap_ok(!host[0] && !counter[TK_RUNS], "nothing after the fault happened");
		TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "reported once");
		memset(&b, 0, sizeof(b));
		b.counter = counter;
		b.mode = 99;
		TAP_EQ(launch(badf, 1, st, &b, 0), ACL_SUCCESS, "the next kernel (a new core)");
		TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "runs");
		TAP_EQ(counter[TK_RUNS], 1, "and counted");
	}
	free(host);

	/* Kernels that only finish if they run at the same time. */
	TAP_EQ(aclrtCreateStream(&st2), ACL_SUCCESS, "cores: a second stream");
	counter[TK_MEET] = counter[TK_MEET + 1] = 0;
	memset(&a, 0, sizeof(a));
	a.counter = counter;
	a.mode = TK_MEET;
	b = a;
	b.mode = TK_MEET + 1;
	TAP_EQ(launch(meet, 1, st, &a, 0), ACL_SUCCESS, "cores: a kernel waiting for another's flag");
	TAP_EQ(launch(meet, 1, st2, &b, 0), ACL_SUCCESS, "cores: the other, on another stream");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "cores: the first saw the second's flag");
	TAP_EQ(aclrtSynchronizeStream(st2), ACL_SUCCESS, "cores: and the second the first's");
	/* On one stream they stay in order: the first waits for nothing. */
	counter[TK_MEET] = counter[TK_MEET + 1] = 0;
	counter[TK_MEET + 1] = 1;
	TAP_EQ(launch(meet, 1, st, &a, 0), ACL_SUCCESS, "one stream: a kernel");
	TAP_EQ(launch(badf, 1, st, &(struct test_kernel_args){ .counter = counter, .mode = 99 }, 0),
	       ACL_SUCCESS, "one stream: a second kernel after it");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "one stream: both ran, in order");
	TAP_EQ(aclrtDestroyStream(st2), ACL_SUCCESS, "cores: destroy the second stream");
}
/* Core processes of the AI CPU alive on this machine. */
static int aicpu_cores_alive(void)
{
	char path[300], comm[32];
	struct dirent *d;
	int n = 0;
	DIR *dir = opendir("/proc");
	FILE *f;

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/comm", d->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) && !strncmp(comm, "hcclt-aicpu", 11))
			n++;
		fclose(f);
	}
	closedir(dir);
	return n;
}

/*
 * SIGKILL of an application whose kernel never returns: its AI CPU core
 * dies with it and every resource comes back (issue 31, item 6).
 */
static void test_kernel_app_killed(aclrtBinHandle bin)
{
	hccltDeviceUsage before = devusage(), now;
	int pfd[2], st, i, cores, base = aicpu_cores_alive();
	pid_t pid;
	char c;

	if (pipe(pfd))
		return;
	pid = fork();
	if (!pid) {
		struct test_kernel_args a;
		aclrtFuncHandle badf;
		aclrtStream s;
		uint64_t *w;

		close(pfd[0]);
		if (aclrtSetDevice(0) || aclrtCreateStream(&s) ||
		    aclrtMalloc((void **)&w, TK_WORDS * 8, ACL_MEM_MALLOC_HUGE_FIRST) ||
		    aclrtBinaryGetFunction(bin, "BadKernel", &badf))
			_exit(1);
		memset(&a, 0, sizeof(a));
		a.counter = w;
		a.mode = TK_BAD_HANG;
		if (launch(badf, 1, s, &a, 0))
			_exit(2);
		if (write(pfd[1], "r", 1) != 1)
			_exit(3);
		pause();
		_exit(0);
	}
	close(pfd[1]);
	TAP_EQ(read(pfd[0], &c, 1), 1, "app killed: it launched a kernel that never returns");
	/* The core has started and runs it (HCCLT_SLOW_MS-style wait). */
	for (i = 0; i < 300 && aicpu_cores_alive() <= base; i++)
		usleep(100000);
	cores = aicpu_cores_alive();
	tap_ok(cores > base, "app killed: its AI CPU core runs (%d cores on the machine, %d ours)",
	       cores, base);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st), "app killed: SIGKILL");
	for (i = 0; i < 300; i++) {
		now = devusage();
		if (now.streamsUsed == before.streamsUsed && now.files == before.files &&
		    aicpu_cores_alive() == base)
			break;
		usleep(100000);
	}
	TAP_EQ(aicpu_cores_alive(), base, "app killed: its core is gone");
	tap_ok(now.streamsUsed == before.streamsUsed && now.files == before.files,
	       "app killed: its files and streams are gone (%d.%d s)", i / 10, i % 10);
	close(pfd[0]);
}

static void test_kernels(void)
{
	uint64_t *counter = NULL;
	struct test_kernel_args a;
	aclrtBinHandle bin, bin2;
	aclrtFuncHandle cnt, bat, f;
	aclrtArgsHandle args;
	aclrtParamHandle ph, ph2;
	aclrtLaunchKernelAttr attr[2];
	aclrtLaunchKernelCfg cfg;
	aclrtStream st;
	HcclComm c = new_comm();
	ThreadHandle th[2];
	void *buf;
	char exe[PATH_MAX], *slash;
	ssize_t n;
	uint64_t late;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	snprintf(kdir, sizeof(kdir), "%s/aicpu-test", exe);
	aclrtSetDevice(0);

	TAP_EQ(aclrtBinaryLoadFromFile(NULL, NULL, &bin), ACL_ERROR_INVALID_PARAM, "load: path NULL");
	TAP_EQ(aclrtBinaryLoadFromFile(kpath("test_kernel.json"), NULL, NULL), ACL_ERROR_INVALID_PARAM,
	       "load: handle NULL");
	TAP_EQ(aclrtBinaryLoadFromFile(kpath("no_such.json"), NULL, &bin), ACL_ERROR_INVALID_FILE,
	       "load: no such file -> ACL_ERROR_INVALID_FILE");
	TAP_EQ(aclrtBinaryLoadFromFile(kpath("test_kernel_bad.json"), NULL, &bin), ACL_ERROR_INVALID_FILE,
	       "load: not JSON -> ACL_ERROR_INVALID_FILE");
	TAP_EQ(aclrtBinaryLoadFromFile(kpath("test_kernel_noso.json"), NULL, &bin), ACL_ERROR_INVALID_FILE,
	       "load: an entry without kernelSo -> ACL_ERROR_INVALID_FILE");
	TAP_EQ(aclrtBinaryLoadFromFile(kpath("test_kernel_missing.json"), NULL, &bin),
	       ACL_ERROR_INVALID_FILE, "load: a shared object nowhere to be found -> ACL_ERROR_INVALID_FILE");
	{
		aclrtBinaryLoadOption o = { 99, { 0 } };
		aclrtBinaryLoadOptions os = { &o, 1 };

		TAP_EQ(aclrtBinaryLoadFromFile(kpath("test_kernel.json"), &os, &bin),
		       ACL_ERROR_INVALID_PARAM, "load: an unknown option");
		o.type = ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE;
		TAP_EQ(aclrtBinaryLoadFromFile(kpath("test_kernel.json"), &os, &bin), ACL_SUCCESS,
		       "load: the descriptor, CPU kernel mode (as CANN's samples)");
	}
	TAP_EQ(aclrtBinaryLoadFromFile(kpath("test_kernel.json"), NULL, &bin2), ACL_SUCCESS, "load it twice");
	TAP_EQ(aclrtBinaryUnLoad(bin2), ACL_SUCCESS, "unload the second");
	TAP_EQ(aclrtBinaryUnLoad(bin2), ACL_ERROR_INVALID_PARAM, "unload twice -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtBinaryGetFunction(bin, "HcclTestKernelCount", &cnt), ACL_SUCCESS, "a function by entry name");
	TAP_EQ(aclrtBinaryGetFunction(bin, "HcclTestKernelBatch", &bat), ACL_SUCCESS,
	       "a function by its functionName");
	TAP_EQ(aclrtBinaryGetFunction(bin, "Nope", &f), ACL_ERROR_INVALID_PARAM, "an unknown function");
	TAP_EQ(aclrtBinaryGetFunction(bin, "NoSuchSymbol", &f), ACL_ERROR_INVALID_PARAM,
	       "an entry whose symbol is not in the shared object");

	TAP_EQ(aclrtCreateStream(&st), ACL_SUCCESS, "kernels: a stream");
	TAP_EQ(aclrtMalloc((void **)&counter, TK_WORDS * 8, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS,
	       "kernels: the words they write, device memory");
	memset(counter, 0, TK_WORDS * 8);
	memset(&a, 0, sizeof(a));
	a.counter = counter;
	TAP_EQ(launch(cnt, 3, st, &a, 0), ACL_SUCCESS, "launch a kernel, 3 blocks");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "the stream waits for it");
	TAP_EQ(counter[TK_RUNS], 3, "it ran 3 times before the synchronize returned");
	a.ret = 5;
	TAP_EQ(launch(cnt, 1, st, &a, 0), ACL_SUCCESS, "a kernel that returns 5");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_AICPU_EXCEPTION, "-> ACL_ERROR_RT_AICPU_EXCEPTION");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "once");
	a.ret = 0;
	a.sleep_ms = 2500;
	late = __atomic_load_n(&counter[TK_RUNS], __ATOMIC_SEQ_CST);
	TAP_EQ(launch(cnt, 1, st, &a, 1), ACL_SUCCESS, "a kernel of 2.5 s with a 1 s timeout");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_ERROR_RT_WAIT_TIMEOUT, "-> ACL_ERROR_RT_WAIT_TIMEOUT");
	a.sleep_ms = 0;
	/* Its core is stopped: it never gets to count, however long we wait. */
	usleep(3500000);
	TAP_EQ(__atomic_load_n(&counter[TK_RUNS], __ATOMIC_SEQ_CST), late,
	       "the timed-out kernel was stopped: it never counted (3.5 s later)");
	TAP_EQ(launch(cnt, 1, st, &a, 0), ACL_SUCCESS, "a kernel after it");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "runs (a new core)");
	TAP_EQ(counter[TK_RUNS], late + 1, "and counted");
	{
		/*
		 * A kernel that does not return holds one AI CPU core, not the
		 * device: a kernel on a second stream runs meanwhile.
		 */
		struct test_kernel_args b;
		aclrtStream st2;

		b = a;
		a.sleep_ms = 5000;
		late = counter[TK_RUNS];
		TAP_EQ(aclrtCreateStream(&st2), ACL_SUCCESS, "beside a long kernel: a second stream");
		TAP_EQ(launch(cnt, 1, st, &a, 0), ACL_SUCCESS, "a 5 s kernel without a timeout");
		TAP_EQ(launch(cnt, 1, st2, &b, 2), ACL_SUCCESS, "beside it, a kernel with a 2 s timeout");
		TAP_EQ(aclrtSynchronizeStream(st2), ACL_SUCCESS,
		       "it runs on another core, within its timeout");
		TAP_EQ(__atomic_load_n(&counter[TK_RUNS], __ATOMIC_SEQ_CST), late + 1,
		       "only it has counted so far");
		TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "the 5 s kernel returns");
		TAP_EQ(counter[TK_RUNS], late + 2, "and counted");
		TAP_EQ(aclrtDestroyStream(st2), ACL_SUCCESS, "destroy the second stream");
		a.sleep_ms = 0;
	}

	/* Argument blocks. */
	TAP_EQ(aclrtKernelArgsInit(NULL, &args), ACL_ERROR_INVALID_PARAM, "args: function NULL");
	TAP_EQ(aclrtKernelArgsInit(cnt, &args), ACL_SUCCESS, "args: init");
	TAP_EQ(aclrtKernelArgsAppend(args, &a, 0, &ph), ACL_ERROR_INVALID_PARAM, "args: size 0");
	TAP_EQ(aclrtKernelArgsAppend(args, &a, sizeof(a), &ph), ACL_SUCCESS, "args: append");
	TAP_EQ(aclrtKernelArgsAppendPlaceHolder(args, &ph2), ACL_SUCCESS, "args: a placeholder");
	TAP_EQ(aclrtKernelArgsGetPlaceHolderBuffer(args, ph2, 64, &buf), ACL_SUCCESS,
	       "args: its buffer");
	TAP_EQ(aclrtLaunchKernelWithConfig(cnt, 1, st, NULL, args, NULL), ACL_ERROR_INVALID_PARAM,
	       "launch before Finalize -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS, "args: finalize");
	TAP_EQ(aclrtKernelArgsAppend(args, &a, 4, &ph), ACL_ERROR_INVALID_PARAM, "append after Finalize");
	TAP_EQ(aclrtLaunchKernelWithConfig(bat, 1, st, NULL, args, NULL), ACL_ERROR_INVALID_PARAM,
	       "args of another function");
	TAP_EQ(aclrtLaunchKernelWithConfig(cnt, 0, st, NULL, args, NULL), ACL_ERROR_INVALID_PARAM,
	       "0 blocks");
	TAP_EQ(aclrtLaunchKernelWithConfig(cnt, 1, NULL, NULL, args, NULL), ACL_ERROR_INVALID_PARAM,
	       "stream NULL");
	memset(attr, 0, sizeof(attr));
	attr[0].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT;
	attr[1].id = ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US;
	cfg.attrs = attr;
	cfg.numAttrs = 2;
	TAP_EQ(aclrtLaunchKernelWithConfig(cnt, 1, st, &cfg, args, NULL), ACL_ERROR_INVALID_PARAM,
	       "both timeouts -> ACL_ERROR_INVALID_PARAM (CANN's rule)");
	counter[TK_RUNS] = 0;
	TAP_EQ(aclrtLaunchKernelWithConfig(cnt, 1, st, NULL, args, NULL), ACL_SUCCESS, "launch");
	TAP_EQ(aclrtLaunchKernelWithConfig(cnt, 1, st, NULL, args, NULL), ACL_ERROR_INVALID_PARAM,
	       "the same args again: consumed -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "synchronized");
	TAP_EQ(counter[TK_RUNS], 1, "ran once");

	/* Batch mode, on the host and in a kernel. */
	CHECK_HCCL(HcommBatchModeEnd("x"), HCCL_SUCCESS, "batch: End without Start -> HCCL_SUCCESS (hcomm)");
	CHECK_HCCL(HcommBatchModeStart("x"), HCCL_SUCCESS, "batch: Start");
	CHECK_HCCL(HcommBatchModeStart("x"), HCCL_SUCCESS, "batch: Start again -> HCCL_SUCCESS (hcomm)");
	CHECK_HCCL(HcommBatchModeEnd("x"), HCCL_SUCCESS, "batch: End (nothing queued)");
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_AICPU_TS, 2, 1, th), HCCL_SUCCESS, "batch: two threads");
	CHECK_HCCL(HcommBatchModeStart(NULL), HCCL_SUCCESS, "batch: Start (NULL tag)");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(th[1], 0, 30), HCCL_SUCCESS, "batch: a wait, kept");
	TAP_EQ(hccltThreadSynchronize(th[1], 200), ACL_SUCCESS, "nothing reached the device before End");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(th[0], th[1], 0), HCCL_SUCCESS, "batch: a record, kept");
	CHECK_HCCL(HcommBatchModeEnd(""), HCCL_SUCCESS, "batch: End (\"\" is NULL)");
	TAP_EQ(hccltThreadSynchronize(th[1], 5000), ACL_SUCCESS, "after End: the record released the wait");
	CHECK_HCCL(HcommBatchModeStart(NULL), HCCL_SUCCESS, "batch: Start");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(th[0], th[1], 0), HCCL_SUCCESS, "batch: kept");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(th[1], 0, 30), HCCL_SUCCESS, "batch: kept");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(th[1], 0, 30), HCCL_SUCCESS, "batch: kept");
	CHECK_HCCL(HcommBatchModeEnd(NULL), HCCL_SUCCESS, "batch: End");
	TAP_EQ(hccltThreadSynchronize(th[1], 300), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
	       "the second wait has no record: still parked");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(th[0], th[1], 0), HCCL_SUCCESS, "release it");
	TAP_EQ(hccltThreadSynchronize(th[1], 5000), ACL_SUCCESS, "done");
	/* Nested Start: one batch, under the last tag; another tag's End submits nothing. */
	CHECK_HCCL(HcommBatchModeStart("outer"), HCCL_SUCCESS, "batch: Start outer");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(th[1], 0, 30), HCCL_SUCCESS, "batch: a wait, kept");
	CHECK_HCCL(HcommBatchModeStart("inner"), HCCL_SUCCESS, "batch: Start inner, nested");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(th[0], th[1], 0), HCCL_SUCCESS, "batch: a record, kept");
	CHECK_HCCL(HcommBatchModeEnd("outer"), HCCL_SUCCESS, "batch: End of another tag -> HCCL_SUCCESS");
	TAP_EQ(hccltThreadSynchronize(th[1], 200), ACL_SUCCESS,
	       "batch: End of another tag submitted nothing (the stream is idle)");
	CHECK_HCCL(HcommBatchModeEnd("inner"), HCCL_SUCCESS, "batch: End inner submits the batch");
	TAP_EQ(hccltThreadSynchronize(th[1], 5000), ACL_SUCCESS, "batch: the wait and its record ran");
	memset(&a, 0, sizeof(a));
	a.counter = counter;
	a.a = th[0];
	a.b = th[1];
	counter[TK_RUNS] = 0;
	counter[TK_BATCH_END] = 99;
	TAP_EQ(launch(bat, 1, st, &a, 30), ACL_SUCCESS, "a kernel whose batch spans two threads");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "it returned 0");
	TAP_EQ(hccltThreadSynchronize(th[0], 5000) | hccltThreadSynchronize(th[1], 5000), ACL_SUCCESS,
	       "both threads ran their part");
	TAP_EQ(counter[TK_RUNS], 1, "the kernel ran");
	TAP_EQ(counter[TK_BATCH_END], 0, "its HcommBatchModeEnd returned 0");
	test_kernel_faults(bin, st, counter);
	{
		/*
		 * Memory a core has mapped comes back when the application
		 * frees it: the core drops its mapping first.
		 */
		size_t free0 = 0, free1 = 0, total = 0;
		void *big = NULL;

		aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total);
		TAP_EQ(aclrtMalloc(&big, 64 << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS,
		       "freed memory: 64 MiB of device memory");
		memset(&a, 0, sizeof(a));
		a.counter = counter;
		TAP_EQ(launch(cnt, 1, st, &a, 0), ACL_SUCCESS, "freed memory: a kernel (its core maps it)");
		TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "freed memory: the kernel ran");
		TAP_EQ(aclrtFree(big), ACL_SUCCESS, "freed memory: aclrtFree");
		aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total);
		tap_ok(free1 == free0, "freed memory: all of it is free again at once (%zu of %zu)",
		       free1, free0);
	}
	test_kernel_app_killed(bin);
	{
		/*
		 * No AI CPU program (HCCLT_AICPU names nothing): each launch
		 * fails its stream, the second as the first (it used to hang).
		 */
		pid_t pid = fork();
		int wst = 0;

		if (!pid) {
			aclrtStream s2;
			uint64_t *w;
			int r1, r2;

			alarm(120);
			setenv("HCCLT_AICPU", "/nonexistent/hcclt-aicpu", 1);
			if (aclrtSetDevice(0) || aclrtCreateStream(&s2) ||
			    aclrtMalloc((void **)&w, TK_WORDS * 8, ACL_MEM_MALLOC_HUGE_FIRST))
				_exit(10);
			memset(&a, 0, sizeof(a));
			a.counter = w;
			if (launch(cnt, 1, s2, &a, 0))
				_exit(11);
			r1 = aclrtSynchronizeStream(s2);
			if (launch(cnt, 1, s2, &a, 0))
				_exit(12);
			r2 = aclrtSynchronizeStream(s2);
			_exit(r1 == ACL_ERROR_RT_AICPU_EXCEPTION && r2 == ACL_ERROR_RT_AICPU_EXCEPTION ?
			      0 : 13);
		}
		waitpid(pid, &wst, 0);
		tap_ok(WIFEXITED(wst) && !WEXITSTATUS(wst),
		       "no AI CPU program: two launches each fail their stream (status 0x%x)", wst);
	}
	aclrtDestroyStream(st);
	aclrtFree(counter);
	{
		aclrtFuncHandle chk;
		uint32_t ndev = 0;

		TAP_EQ(aclrtBinaryGetFunction(bin, "ChannelKernel", &chk), ACL_SUCCESS,
		       "the channel kernel");
		aclrtGetDeviceCount(&ndev);
		if (ndev >= 2)
			test_kernel_peer_killed(chk);
		else
			tap_skip("a kernel's channel peer killed (needs 2 devices)");
		aclrtSetDevice(0);
	}
	TAP_EQ(aclrtBinaryUnLoad(bin), ACL_SUCCESS, "unload");
	TAP_EQ(aclrtBinaryGetFunction(bin, "HcclTestKernelCount", &f), ACL_ERROR_INVALID_PARAM,
	       "an unloaded binary -> ACL_ERROR_INVALID_PARAM");

	/* HcommAcquireComm */
	{
		char name[128];

		HcclGetCommName(c, name);
		CHECK_HCCL(HcommAcquireComm(NULL), HCCL_E_PTR, "HcommAcquireComm(NULL) -> HCCL_E_PTR");
		CHECK_HCCL(HcommAcquireComm("no such comm"), HCCL_E_PTR, "an unknown name -> HCCL_E_PTR");
		CHECK_HCCL(HcommAcquireComm(name), HCCL_SUCCESS, "this device's communicator");
		CHECK_HCCL(HcommReleaseComm(name), HCCL_SUCCESS, "HcommReleaseComm");
		CHECK_HCCL(HcommThreadSynchronize(th[0]), HCCL_SUCCESS, "HcommThreadSynchronize (A2: at once)");
		CHECK_HCCL(HcommThreadSynchronize(0), HCCL_E_PTR, "HcommThreadSynchronize(0)");
		CHECK_HCCL(HcommThreadJoin(th[0], 1), HCCL_E_NOT_SUPPORT, "HcommThreadJoin on A2 -> not supported");
	}

	/* Engine contexts. */
	{
		void *hctx, *dctx, *p;
		uint64_t sz;
		char big[300];
		unsigned char data[64];

		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = 0;
		memset(data, 0x5a, sizeof(data));
		CHECK_HCCL(HcclEngineCtxCreate(NULL, "t", COMM_ENGINE_CPU, 8, &hctx), HCCL_E_PTR, "ctx: comm NULL");
		CHECK_HCCL(HcclEngineCtxCreate(c, "t", COMM_ENGINE_CPU, 8, NULL), HCCL_E_PTR, "ctx: ctx NULL");
		CHECK_HCCL(HcclEngineCtxCreate(c, "t", COMM_ENGINE_CPU, 0, &hctx), HCCL_E_PARA, "ctx: size 0");
		CHECK_HCCL(HcclEngineCtxCreate(c, big, COMM_ENGINE_CPU, 8, &hctx), HCCL_E_PARA, "ctx: tag > 255");
		CHECK_HCCL(HcclEngineCtxCreate(c, "t", (CommEngine)9, 8, &hctx), HCCL_E_PARA, "ctx: engine 9");
		CHECK_HCCL(HcclEngineCtxCreate(c, "t", COMM_ENGINE_CPU, 64, &hctx), HCCL_SUCCESS, "ctx: CPU");
		CHECK_HCCL(HcclEngineCtxCreate(c, "t", COMM_ENGINE_CPU, 64, &p), HCCL_E_PARA, "ctx: exists");
		CHECK_HCCL(HcclEngineCtxCreate(c, "t", COMM_ENGINE_AICPU, 64, &dctx), HCCL_SUCCESS,
			   "ctx: AICPU (same tag, other engine)");
		CHECK_HCCL(HcclEngineCtxGet(c, "t", COMM_ENGINE_AICPU, &p, &sz), HCCL_SUCCESS, "ctx: get");
		tap_ok(p == dctx && sz == 64, "ctx: the same block and size");
		CHECK_HCCL(HcclEngineCtxGet(c, "u", COMM_ENGINE_AICPU, &p, &sz), HCCL_E_PARA, "ctx: get missing");
		CHECK_HCCL(HcclEngineCtxGet(c, "t", COMM_ENGINE_AICPU, &p, NULL), HCCL_E_PTR, "ctx: size NULL");
		CHECK_HCCL(HcclEngineCtxCopy(c, COMM_ENGINE_AICPU, "t", data, 64, 0), HCCL_SUCCESS, "ctx: copy");
		tap_ok(((unsigned char *)dctx)[63] == 0x5a, "ctx: copied");
		CHECK_HCCL(HcclEngineCtxCopy(c, COMM_ENGINE_AICPU, "t", data, 8, 57), HCCL_E_PARA,
			   "ctx: offset + size past the end -> HCCL_E_PARA (hcomm does not check)");
		CHECK_HCCL(HcclEngineCtxCopy(c, COMM_ENGINE_AICPU, "t", data, 0, 0), HCCL_E_PARA, "ctx: copy 0");
		CHECK_HCCL(HcclEngineCtxCopy(c, COMM_ENGINE_AICPU, "t", NULL, 8, 0), HCCL_E_PTR, "ctx: src NULL");
		CHECK_HCCL(HcommLocalCopyOnThread(th[0], dctx, data, 8), HCCL_E_PARA,
			   "an AICPU context is device memory (host source refused)");
		CHECK_HCCL(HcclEngineCtxDestroy(c, "t", COMM_ENGINE_CPU), HCCL_SUCCESS, "ctx: destroy");
		CHECK_HCCL(HcclEngineCtxDestroy(c, "t", COMM_ENGINE_CPU), HCCL_E_PARA, "ctx: destroy again");
		/* The AICPU one goes with the communicator. */
	}

	/* The rank graph of a one-rank communicator. */
	{
		uint32_t *l, nl, *rk, nr;
		CommTopo topo;
		CommLink *links;

		CHECK_HCCL(HcclRankGraphGetLayers(c, &l, &nl), HCCL_SUCCESS, "rank graph: layers");
		tap_ok(nl == 1 && l[0] == 0, "one layer, 0");
		CHECK_HCCL(HcclRankGraphGetRanksByLayer(c, 0, &rk, &nr), HCCL_SUCCESS, "ranks of layer 0");
		tap_ok(nr == 1 && rk[0] == 0, "rank 0 alone");
		CHECK_HCCL(HcclRankGraphGetRankSizeByLayer(c, 1, &nr), HCCL_E_PARA, "layer 1 -> HCCL_E_PARA");
		CHECK_HCCL(HcclRankGraphGetTopoTypeByLayer(c, 0, &topo), HCCL_SUCCESS, "topology");
		TAP_EQ(topo, COMM_TOPO_1DMESH, "a mesh");
		CHECK_HCCL(HcclRankGraphGetLinks(c, 0, 0, 0, &links, &nl), HCCL_SUCCESS, "links to itself");
		TAP_EQ(nl, 0, "none");
		CHECK_HCCL(HcclRankGraphGetLinks(c, 0, 0, 1, &links, &nl), HCCL_E_PARA, "rank 1 of 1 -> HCCL_E_PARA");
		nl = 7;
		CHECK_HCCL(HcclRankGraphGetLinks(c, 2, 0, 0, &links, &nl), HCCL_SUCCESS,
			   "A2: links in layer 2 (hcomm: layers 0-2 exist)");
		tap_ok(nl == 0 && !links, "none");
		CHECK_HCCL(HcclRankGraphGetLinks(c, 3, 0, 0, &links, &nl), HCCL_E_PARA, "A2: layer 3 -> HCCL_E_PARA");
		CHECK_HCCL(HcclRankGraphGetLinks(NULL, 0, 0, 0, &links, &nl), HCCL_E_PTR, "comm NULL");
	}
	HcclCommDestroy(c);
}

/* The rank graph between two ranks: one link, HCCS, naming the devices. */
static void test_rank_graph2(HcclComm c0)
{
	CommLink *links;
	uint32_t n = 0;

	CHECK_HCCL(HcclRankGraphGetLinks(c0, 0, 0, 1, &links, &n), HCCL_SUCCESS, "rank graph: 0 -> 1");
	tap_ok(n == 1 && links[0].linkAttr.linkProtocol == COMM_PROTOCOL_HCCS &&
	       links[0].header.magicWord == COMM_LINK_MAGIC_WORD &&
	       links[0].srcEndpointDesc.loc.device.devPhyId == 0 &&
	       links[0].dstEndpointDesc.loc.device.devPhyId == 1,
	       "one HCCS link from device 0 to device 1");
}

/*
 * Data tasks through the library: HcommLocalCopy/Write/ReadOnThread,
 * HcclChannelGetHcclBuffer and aclrtMemcpyAsync, their codes and data.
 */
static void test_data(void)
{
	struct rank_job r[2];
	struct chan_job c[2];
	pthread_t tid[2];
	HcclRootInfo root;
	ThreadHandle th[2], ai;
	unsigned char *buf[2], *peer[2], *loc[2], *host;
	void *p2;
	uint64_t bsz[2], psz[2], sz2;
	aclrtStream st;
	size_t n = 300000, i;
	uint32_t k;
	int bad;

	aclrtSetDevice(0);
	CHECK_HCCL(HcclGetRootInfo(&root), HCCL_SUCCESS, "data: HcclGetRootInfo");
	for (k = 0; k < 2; k++) {
		memset(&r[k], 0, sizeof(r[k]));
		r[k].root = &root;
		r[k].dev = (int32_t)k;
		r[k].rank = k;
		r[k].nranks = 2;
		pthread_create(&tid[k], NULL, rank_job_run, &r[k]);
	}
	for (k = 0; k < 2; k++)
		pthread_join(tid[k], NULL);
	TAP_EQ(r[0].ret | r[1].ret, HCCL_SUCCESS, "data: two ranks");
	for (k = 0; k < 2; k++) {
		aclrtSetDevice((int32_t)k);
		CHECK_HCCL(HcclThreadAcquire(r[k].comm, COMM_ENGINE_CPU, 1, 0, &th[k]),
			   HCCL_SUCCESS, "data: a thread on rank %u", k);
		CHECK_HCCL(HcclGetHcclBuffer(r[k].comm, (void **)&buf[k], &bsz[k]), HCCL_SUCCESS,
			   "data: rank %u's HCCL buffer", k);
		TAP_EQ(aclrtMalloc((void **)&loc[k], n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS,
		       "data: rank %u's device memory", k);
		c[k].comm = r[k].comm;
		c[k].dev = (int32_t)k;
		c[k].remote = 1 - k;
		c[k].notify_num = 1;
		pthread_create(&tid[k], NULL, chan_job_run, &c[k]);
	}
	for (k = 0; k < 2; k++)
		pthread_join(tid[k], NULL);
	TAP_EQ(c[0].ret | c[1].ret, HCCL_SUCCESS, "data: the channel");
	aclrtSetDevice(0);
	test_rank_graph2(r[0].comm);
	CHECK_HCCL(HcclChannelGetHcclBuffer(NULL, c[0].ch, &p2, &sz2), HCCL_E_PTR,
		   "HcclChannelGetHcclBuffer: comm NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclChannelGetHcclBuffer(r[0].comm, 0, &p2, &sz2), HCCL_E_PTR,
		   "HcclChannelGetHcclBuffer: channel 0 -> HCCL_E_PTR");
	CHECK_HCCL(HcclChannelGetHcclBuffer(r[0].comm, c[0].ch, NULL, &sz2), HCCL_E_PTR,
		   "HcclChannelGetHcclBuffer: buffer NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclChannelGetHcclBuffer(r[0].comm, c[0].ch, &p2, NULL), HCCL_E_PTR,
		   "HcclChannelGetHcclBuffer: size NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclChannelGetHcclBuffer(r[0].comm, th[0], &p2, &sz2), HCCL_E_PARA,
		   "HcclChannelGetHcclBuffer: a thread handle -> HCCL_E_PARA");
	for (k = 0; k < 2; k++)
		CHECK_HCCL(HcclChannelGetHcclBuffer(r[k].comm, c[k].ch, (void **)&peer[k], &psz[k]),
			   HCCL_SUCCESS, "HcclChannelGetHcclBuffer on rank %u", k);
	CHECK_HCCL(HcclChannelGetHcclBuffer(r[0].comm, c[0].ch, &p2, &sz2), HCCL_SUCCESS,
		   "HcclChannelGetHcclBuffer again");
	tap_ok(p2 == peer[0] && sz2 == psz[0] && sz2 == bsz[1], "the same mapping, the peer's size");
	buf[1][77] = 0x3c;
	tap_ok(peer[0][77] == 0x3c, "rank 1's store is seen through rank 0's mapping of it");

	/* Local copy. */
	for (i = 0; i < n; i++)
		loc[0][i] = pat(i, 3);
	CHECK_HCCL(HcommLocalCopyOnThread(th[0], NULL, loc[0], n), HCCL_E_PTR, "LocalCopy: dst NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0], NULL, n), HCCL_E_PTR, "LocalCopy: src NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcommLocalCopyOnThread(0, buf[0], loc[0], n), HCCL_E_PTR, "LocalCopy: thread 0 -> HCCL_E_PTR");
	host = malloc(n);
	CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0], host, n), HCCL_E_PARA,
		   "LocalCopy: host memory -> HCCL_E_PARA");
	CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0], loc[0] + 1, n), HCCL_E_PARA,
		   "LocalCopy: one byte past the allocation -> HCCL_E_PARA");
	CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0], loc[1], n), HCCL_E_PARA,
		   "LocalCopy: another device's memory -> HCCL_E_PARA");
	CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0], loc[0], 0), HCCL_SUCCESS, "LocalCopy: 0 bytes");
	CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0] + 5, loc[0], n), HCCL_SUCCESS, "LocalCopy");
	TAP_EQ(hccltThreadSynchronize(th[0], 10000), ACL_SUCCESS, "LocalCopy: synchronized");
	for (bad = 0, i = 0; i < n; i++)
		bad |= buf[0][5 + i] != pat(i, 3);
	tap_ok(!bad, "LocalCopy: every byte");
	{
		/* Zero bytes: a task (hcomm's), in stream order, addresses checked. */
		hccltThreadInfo ti;
		aclrtNotify zn;
		aclrtStream zs;
		uint32_t zid = 0;

		aclrtSetDevice(0);
		TAP_EQ(aclrtCreateNotify(&zn, 0), ACL_SUCCESS, "len 0: a notify");
		TAP_EQ(aclrtCreateStream(&zs), ACL_SUCCESS, "len 0: a stream");
		aclrtGetNotifyId(zn, &zid);
		CHECK_HCCL(HcommAclrtNotifyWaitOnThread(th[0], zid, 30), HCCL_SUCCESS, "len 0: the thread waits");
		CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0], loc[0], 0), HCCL_SUCCESS, "len 0: LocalCopy");
		CHECK_HCCL(HcommWriteOnThread(th[0], c[0].ch, peer[0], loc[0], 0), HCCL_SUCCESS, "len 0: Write");
		CHECK_HCCL(HcommReadOnThread(th[0], c[0].ch, loc[0], peer[0], 0), HCCL_SUCCESS, "len 0: Read");
		CHECK_HCCL(HcommLocalCopyOnThread(th[0], buf[0], host, 0), HCCL_E_PARA,
			   "len 0: host memory -> HCCL_E_PARA (checked as any length)");
		memset(&ti, 0, sizeof(ti));
		CHECK_HCCL(hccltThreadGetInfo(th[0], &ti), HCCL_SUCCESS, "len 0: thread info");
		TAP_EQ(ti.queueDepth, 4, "len 0: three tasks queued behind the wait (hcomm queues them)");
		TAP_EQ(aclrtRecordNotify(zn, zs), ACL_SUCCESS, "len 0: release the wait");
		TAP_EQ(hccltThreadSynchronize(th[0], 10000), ACL_SUCCESS, "len 0: they ran, nothing failed");
		aclrtDestroyStream(zs);
		aclrtDestroyNotify(zn);
	}

	/* Write into the peer's buffer, read it back. */
	CHECK_HCCL(HcommWriteOnThread(th[0], c[0].ch, buf[0], loc[0], n), HCCL_E_PARA,
		   "Write: dst not in the channel's peer buffer -> HCCL_E_PARA");
	CHECK_HCCL(HcommWriteOnThread(th[0], 0, peer[0], loc[0], n), HCCL_E_PTR, "Write: channel 0 -> HCCL_E_PTR");
	CHECK_HCCL(HcommWriteOnThread(th[0], c[0].ch, peer[0] + psz[0] - n + 1, loc[0], n), HCCL_E_PARA,
		   "Write: one byte past the peer's buffer -> HCCL_E_PARA");
	CHECK_HCCL(HcommWriteOnThread(th[0], c[0].ch, peer[0] + 9, loc[0], n), HCCL_SUCCESS, "Write");
	CHECK_HCCL(HcommChannelNotifyRecordOnThread(th[0], c[0].ch, 0), HCCL_SUCCESS, "Write; record");
	aclrtSetDevice(1);
	CHECK_HCCL(HcommChannelNotifyWaitOnThread(th[1], c[1].ch, 0, 10), HCCL_SUCCESS, "the peer waits");
	TAP_EQ(hccltThreadSynchronize(th[1], 10000), ACL_SUCCESS, "the wait returned");
	for (bad = 0, i = 0; i < n; i++)
		bad |= buf[1][9 + i] != pat(i, 3);
	tap_ok(!bad, "Write: every byte is in the peer's buffer when its wait returns");
	CHECK_HCCL(HcommReadOnThread(th[1], c[1].ch, loc[1], buf[1], n), HCCL_E_PARA,
		   "Read: src not in the peer's buffer -> HCCL_E_PARA");
	CHECK_HCCL(HcommReadOnThread(th[1], c[1].ch, loc[1], peer[1] + 5, n), HCCL_SUCCESS, "Read");
	TAP_EQ(hccltThreadSynchronize(th[1], 10000), ACL_SUCCESS, "Read: synchronized");
	for (bad = 0, i = 0; i < n; i++)
		bad |= loc[1][i] != pat(i, 3);
	tap_ok(!bad, "Read: every byte");

	/* Reduces: codes, then a sum, a max into the peer, a bf16 sum back. */
	{
		float *fd = (float *)loc[1], *fs = (float *)(loc[1] + 65536);
		int32_t *id = (int32_t *)(buf[0] + 4096), *is = (int32_t *)loc[1];
		uint16_t *bd = (uint16_t *)(loc[1] + 131072);
		uint16_t *bs = (uint16_t *)(buf[0] + 65536);
		uint32_t j;

		CHECK_HCCL(HcommLocalReduceOnThread(th[1], NULL, fs, 8, HCOMM_DATA_TYPE_FP32,
						    HCOMM_REDUCE_SUM), HCCL_E_PTR,
			   "LocalReduce: dst NULL -> HCCL_E_PTR");
		CHECK_HCCL(HcommLocalReduceOnThread(th[1], fd, fs, 8, HCOMM_DATA_TYPE_INT64,
						    HCOMM_REDUCE_SUM), HCCL_E_PARA,
			   "LocalReduce: INT64 -> HCCL_E_PARA");
		CHECK_HCCL(HcommLocalReduceOnThread(th[1], fd, fs, 8, HCOMM_DATA_TYPE_FP32,
						    HCOMM_REDUCE_PROD), HCCL_E_PARA,
			   "LocalReduce: PROD -> HCCL_E_PARA");
		CHECK_HCCL(HcommLocalReduceOnThread(0, fd, fs, 8, HCOMM_DATA_TYPE_FP32,
						    HCOMM_REDUCE_SUM), HCCL_E_PTR,
			   "LocalReduce: thread 0 -> HCCL_E_PTR (after the type checks)");
		CHECK_HCCL(HcommLocalReduceOnThread(th[1], loc[1] + 2, fs, 8, HCOMM_DATA_TYPE_FP32,
						    HCOMM_REDUCE_SUM), HCCL_E_PARA,
			   "LocalReduce: dst not aligned to the element -> HCCL_E_PARA");
		CHECK_HCCL(HcommLocalReduceOnThread(th[1], fd, fd + 4, 8, HCOMM_DATA_TYPE_FP32,
						    HCOMM_REDUCE_SUM), HCCL_E_PARA,
			   "LocalReduce: overlapping ranges -> HCCL_E_PARA");
		for (j = 0; j < 10000; j++) {
			fd[j] = (float)j;
			fs[j] = 0.25f * (float)j;
		}
		CHECK_HCCL(HcommLocalReduceOnThread(th[1], fd, fs, 10000, HCOMM_DATA_TYPE_FP32,
						    HCOMM_REDUCE_SUM), HCCL_SUCCESS, "LocalReduce FP32 SUM");
		TAP_EQ(hccltThreadSynchronize(th[1], 10000), ACL_SUCCESS, "LocalReduce: synchronized");
		for (bad = 0, j = 0; j < 10000; j++)
			bad |= fd[j] != 1.25f * (float)j;
		tap_ok(!bad, "LocalReduce FP32 SUM: every element");
		/* Rank 1 writes MAX into rank 0's buffer. */
		for (j = 0; j < 3000; j++) {
			id[j] = (int32_t)(j * 7) - 10000;
			is[j] = 5000 - (int32_t)j * 3;
		}
		CHECK_HCCL(HcommWriteReduceOnThread(th[1], c[1].ch, peer[1] + 4096, is, 3000,
						    HCOMM_DATA_TYPE_INT32, HCOMM_REDUCE_MAX),
			   HCCL_SUCCESS, "WriteReduce INT32 MAX into the peer's buffer");
		TAP_EQ(hccltThreadSynchronize(th[1], 10000), ACL_SUCCESS, "WriteReduce: synchronized");
		for (bad = 0, j = 0; j < 3000; j++) {
			int32_t x = (int32_t)(j * 7) - 10000, y = 5000 - (int32_t)j * 3;

			bad |= id[j] != (x > y ? x : y);
		}
		tap_ok(!bad, "WriteReduce INT32 MAX: every element in the peer's buffer");
		/* And reads BFP16 SUM back: 1.0 + 2.0 = 3.0 (0x3f80 + 0x4000 = 0x4040). */
		for (j = 0; j < 2000; j++) {
			bd[j] = 0x3f80;
			bs[j] = 0x4000;
		}
		CHECK_HCCL(HcommReadReduceOnThread(th[1], c[1].ch, bd, peer[1] + 65536, 2000,
						   HCOMM_DATA_TYPE_BFP16, HCOMM_REDUCE_SUM),
			   HCCL_SUCCESS, "ReadReduce BFP16 SUM from the peer's buffer");
		TAP_EQ(hccltThreadSynchronize(th[1], 10000), ACL_SUCCESS, "ReadReduce: synchronized");
		for (bad = 0, j = 0; j < 2000; j++)
			bad |= bd[j] != 0x4040;
		tap_ok(!bad, "ReadReduce BFP16 SUM: every element");
	}
	if (psz[1] >= 2 * 1048576 && n >= 262144)
		test_reduce_ext(th[1], c[1].ch, loc[1], peer[1], buf[0]);
	else
		tap_skip("hcclt reduces: a 2 MiB HCCL buffer and 256 KiB of memory");
	aclrtSetDevice(0);
	CHECK_HCCL(HcclThreadAcquire(r[0].comm, COMM_ENGINE_AICPU, 1, 0, &ai), HCCL_SUCCESS,
		   "data: an AICPU thread");
	CHECK_HCCL(HcommWriteOnThread(ai, c[0].ch, peer[0], loc[0], 8), HCCL_E_PARA,
		   "Write: a thread of another engine family -> HCCL_E_PARA");

	/* aclrtMemcpyAsync: device to device on the stream, host by a sync. */
	TAP_EQ(aclrtCreateStream(&st), ACL_SUCCESS, "memcpy async: a stream");
	TAP_EQ(aclrtMemcpyAsync(buf[0], n, loc[0], n, ACL_MEMCPY_DEVICE_TO_DEVICE, NULL),
	       ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync: stream NULL -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMemcpyAsync(buf[0], n - 1, loc[0], n, ACL_MEMCPY_DEVICE_TO_DEVICE, st),
	       ACL_ERROR_INVALID_PARAM, "aclrtMemcpyAsync: count above destMax -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMemcpyAsync(buf[0], n, loc[0], n, 9, st), ACL_ERROR_INVALID_PARAM,
	       "aclrtMemcpyAsync: unknown kind -> ACL_ERROR_INVALID_PARAM");
	for (i = 0; i < n; i++)
		loc[0][i] = pat(i, 8);
	TAP_EQ(aclrtMemcpyAsync(buf[0], n, loc[0], n, ACL_MEMCPY_DEVICE_TO_DEVICE, st), ACL_SUCCESS,
	       "aclrtMemcpyAsync device to device");
	TAP_EQ(aclrtMemcpyAsync(host, n, buf[0], n, ACL_MEMCPY_DEVICE_TO_HOST, st), ACL_SUCCESS,
	       "aclrtMemcpyAsync device to host, after it");
	for (bad = 0, i = 0; i < n; i++)
		bad |= host[i] != pat(i, 8);
	tap_ok(!bad, "aclrtMemcpyAsync: the host copy saw the device copy before it");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "memcpy async: synchronized");
	aclrtDestroyStream(st);

	/* The peer gone. */
	aclrtSetDevice(1);
	CHECK_HCCL(HcclCommDestroy(r[1].comm), HCCL_SUCCESS, "data: rank 1 destroys its communicator");
	aclrtSetDevice(0);
	CHECK_HCCL(HcommWriteOnThread(th[0], c[0].ch, peer[0], loc[0], 8), HCCL_E_REMOTE,
		   "Write to a gone peer -> HCCL_E_REMOTE");
	free(host);
	aclrtFree(loc[0]);
	aclrtSetDevice(1);
	aclrtFree(loc[1]);
	aclrtSetDevice(0);
	HcclCommDestroy(r[0].comm);
}

/*
 * Ranks configured with different HCCL buffer sizes: the first to ask for
 * a buffer (here rank 0, through the channel, for rank 1) decides its
 * size, and rank 1 is then told the size that exists, never more.
 */
static void test_data_buffer_sizes(void)
{
	struct rank_job r[2];
	struct chan_job c[2];
	pthread_t tid[2];
	HcclRootInfo root;
	unsigned char *own, *peer;
	uint64_t osz = 0, psz = 0;
	uint32_t k;

	aclrtSetDevice(0);
	CHECK_HCCL(HcclGetRootInfo(&root), HCCL_SUCCESS, "buffer sizes: HcclGetRootInfo");
	for (k = 0; k < 2; k++) {
		memset(&r[k], 0, sizeof(r[k]));
		r[k].root = &root;
		r[k].dev = (int32_t)k;
		r[k].rank = k;
		r[k].nranks = 2;
		r[k].buf_mb = k ? 3 : 1;
		pthread_create(&tid[k], NULL, rank_job_run, &r[k]);
	}
	for (k = 0; k < 2; k++)
		pthread_join(tid[k], NULL);
	TAP_EQ(r[0].ret | r[1].ret, HCCL_SUCCESS, "buffer sizes: 1 MB and 3 MB ranks");
	for (k = 0; k < 2; k++) {
		memset(&c[k], 0, sizeof(c[k]));
		c[k].comm = r[k].comm;
		c[k].dev = (int32_t)k;
		c[k].remote = 1 - k;
		c[k].notify_num = 1;
		pthread_create(&tid[k], NULL, chan_job_run, &c[k]);
	}
	for (k = 0; k < 2; k++)
		pthread_join(tid[k], NULL);
	TAP_EQ(c[0].ret | c[1].ret, HCCL_SUCCESS, "buffer sizes: the channel");
	aclrtSetDevice(0);
	CHECK_HCCL(HcclChannelGetHcclBuffer(r[0].comm, c[0].ch, (void **)&peer, &psz), HCCL_SUCCESS,
		   "buffer sizes: rank 0 maps rank 1's buffer first");
	TAP_EQ(psz, 2ULL << 20, "buffer sizes: made with rank 0's size (both halves)");
	aclrtSetDevice(1);
	CHECK_HCCL(HcclGetHcclBuffer(r[1].comm, (void **)&own, &osz), HCCL_SUCCESS,
		   "buffer sizes: rank 1's own buffer");
	TAP_EQ(osz, psz, "buffer sizes: rank 1 is told the size that exists");
	own[osz - 1] = 0x42;	/* the last byte it was told of is mapped */
	tap_ok(peer[psz - 1] == 0x42, "buffer sizes: the last byte is shared");
	CHECK_HCCL(HcclCommDestroy(r[1].comm), HCCL_SUCCESS, "buffer sizes: rank 1 goes");
	aclrtSetDevice(0);
	CHECK_HCCL(HcclCommDestroy(r[0].comm), HCCL_SUCCESS, "buffer sizes: rank 0 goes");
}

static void test_ranks(uint32_t ndev)
{
	test_acl_basics(ndev);
	test_ranks_checks();
	if (ndev < 2) {
		tap_skip("multi-rank communicators (load with sim_devices >= 2)");
		return;
	}
	test_ranks_threads(ndev);
	test_ranks_conflicts();
	test_channels();
	test_data();
	test_data_buffer_sizes();
	if (ndev >= 3)
		test_ranks_processes();
	test_init_all_group(ndev);
	test_cluster(ndev);
}

/* ---- HCCL buffers ------------------------------------------------------- */

/* Device 0's memory capacity and use (QUERY on its node), 0 on failure. */
static int mem_query(uint64_t *total, uint64_t *used)
{
	struct drm_hcclt_query q;
	int fd = open(dev0.node, O_RDWR | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	memset(&q, 0, sizeof(q));
	ret = ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q);
	close(fd);
	*total = q.mem_total;
	*used = q.mem_used;
	return ret;
}

static uint64_t mem_used_now(void)
{
	uint64_t t = 0, u = ~0ULL;

	mem_query(&t, &u);
	return u;
}

/* A one-rank communicator on device 0, with @config if not NULL. */
static HcclResult one_rank(const HcclCommConfig *config, HcclComm *c)
{
	HcclRootInfo root;
	HcclResult r;

	*c = NULL;
	aclrtSetDevice(0);
	r = HcclGetRootInfo(&root);
	if (r != HCCL_SUCCESS)
		return r;
	return config ? HcclCommInitRootInfoConfig(1, &root, 0, config, c) :
			HcclCommInitRootInfo(1, &root, 0, c);
}

/* The buffer of @c has @want bytes, is writable end to end, stays put. */
static int buffer_ok(HcclComm c, uint64_t want)
{
	unsigned char *p = NULL, *p2 = NULL, h[64];
	uint64_t sz = 0, sz2 = 0;

	if (HcclGetHcclBuffer(c, (void **)&p, &sz) != HCCL_SUCCESS || !p)
		return -1;
	if (sz != want)
		return -2;
	p[0] = 1;
	p[sz - 1] = 2;
	if (HcclGetHcclBuffer(c, (void **)&p2, &sz2) != HCCL_SUCCESS ||
	    p2 != p || sz2 != sz || p2[0] != 1 || p2[sz - 1] != 2)
		return -3;
	/* Device memory for aclrtMemcpy, up to its last byte and no further. */
	memset(h, 0x5c, sizeof(h));
	if (aclrtMemcpy(p + sz - sizeof(h), sizeof(h), h, sizeof(h),
			ACL_MEMCPY_HOST_TO_DEVICE) || p[sz - 1] != 0x5c)
		return -4;
	if (aclrtMemcpy(p + sz - sizeof(h) + 1, sizeof(h), h, sizeof(h),
			ACL_MEMCPY_HOST_TO_DEVICE) != ACL_ERROR_INVALID_PARAM)
		return -5;
	/* Owned by the communicator. */
	if (aclrtFree(p) != ACL_ERROR_INVALID_PARAM)
		return -6;
	return 0;
}

static void test_hccl_buffer(void)
{
	uint64_t total = 0, used0 = 0, sz = 0;
	HcclCommConfig cfg;
	HcclComm c = NULL, dead;
	void *p = NULL;
	int i, bad;

	if (mem_query(&total, &used0) || !(dev0.features & HCCLT_FEATURE_COMM_BUFFER)) {
		tap_skip("HCCL buffers: driver without HCCLT_FEATURE_COMM_BUFFER");
		return;
	}
	unsetenv("HCCL_BUFFSIZE");
	CHECK_HCCL(one_rank(NULL, &c), HCCL_SUCCESS, "a one-rank communicator");
	CHECK_HCCL(HcclGetHcclBuffer(NULL, &p, &sz), HCCL_E_PTR, "HcclGetHcclBuffer: comm NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclGetHcclBuffer(c, NULL, &sz), HCCL_E_PTR, "HcclGetHcclBuffer: buffer NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclGetHcclBuffer(c, &p, NULL), HCCL_E_PTR, "HcclGetHcclBuffer: size NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclGetHcclBuffer((HcclComm)&cfg, &p, &sz), HCCL_E_PTR,
		   "HcclGetHcclBuffer: not a communicator -> HCCL_E_PTR");
	if (total - used0 >= (512ULL << 20)) {
		TAP_EQ(buffer_ok(c, 400ULL << 20), 0,
		       "default: a writable 400 MiB buffer (2 x HCCL_BUFFSIZE's 200 MB), the same twice");
		TAP_EQ(mem_used_now(), used0 + (400ULL << 20), "it is taken from the device's capacity");
	} else {
		CHECK_HCCL(HcclGetHcclBuffer(c, &p, &sz), HCCL_E_OOM,
			   "default 400 MiB above the device's capacity (%llu MiB) -> HCCL_E_OOM",
			   (unsigned long long)(total >> 20));
		TAP_EQ(mem_used_now(), used0, "nothing taken");
	}
	dead = c;
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy it");
	TAP_EQ(mem_used_now(), used0, "the buffer went with its communicator");
	CHECK_HCCL(HcclGetHcclBuffer(dead, &p, &sz), HCCL_E_PTR, "a destroyed communicator -> HCCL_E_PTR");

	/* hcclBufferSize of the config, in MB; over HCCL_BUFFSIZE. */
	setenv("HCCL_BUFFSIZE", "5", 1);
	HcclCommConfigInit(&cfg);
	cfg.hcclBufferSize = 3;
	CHECK_HCCL(one_rank(&cfg, &c), HCCL_SUCCESS, "config hcclBufferSize 3, HCCL_BUFFSIZE=5");
	TAP_EQ(buffer_ok(c, 6ULL << 20), 0, "a writable 6 MiB buffer (config over env)");
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy it");
	HcclCommConfigInit(&cfg);
	CHECK_HCCL(one_rank(&cfg, &c), HCCL_SUCCESS, "config without hcclBufferSize, HCCL_BUFFSIZE=5");
	TAP_EQ(buffer_ok(c, 10ULL << 20), 0, "a writable 10 MiB buffer (env)");
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy it");
	setenv("HCCL_BUFFSIZE", "1", 1);
	CHECK_HCCL(one_rank(NULL, &c), HCCL_SUCCESS, "HCCL_BUFFSIZE=1");
	TAP_EQ(buffer_ok(c, 2ULL << 20), 0, "a writable 2 MiB buffer");
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy it");
	setenv("HCCL_BUFFSIZE", "0", 1);
	CHECK_HCCL(one_rank(NULL, &c), HCCL_E_PARA, "HCCL_BUFFSIZE=0 -> HCCL_E_PARA");
	setenv("HCCL_BUFFSIZE", "12x", 1);
	CHECK_HCCL(one_rank(NULL, &c), HCCL_E_PARA, "HCCL_BUFFSIZE=12x -> HCCL_E_PARA");
	setenv("HCCL_BUFFSIZE", "-1", 1);
	CHECK_HCCL(one_rank(NULL, &c), HCCL_E_PARA, "HCCL_BUFFSIZE=-1 -> HCCL_E_PARA");
	setenv("HCCL_BUFFSIZE", "4294967296", 1);
	CHECK_HCCL(one_rank(NULL, &c), HCCL_E_PARA, "HCCL_BUFFSIZE=2^32 -> HCCL_E_PARA");
	unsetenv("HCCL_BUFFSIZE");

	/* Above the capacity: HCCL_E_OOM, the communicator stays usable. */
	HcclCommConfigInit(&cfg);
	cfg.hcclBufferSize = (uint32_t)((total >> 21) + 1);
	CHECK_HCCL(one_rank(&cfg, &c), HCCL_SUCCESS, "config hcclBufferSize %u MB", cfg.hcclBufferSize);
	CHECK_HCCL(HcclGetHcclBuffer(c, &p, &sz), HCCL_E_OOM, "twice that above the device's capacity -> HCCL_E_OOM");
	CHECK_HCCL(HcclGetHcclBuffer(c, &p, &sz), HCCL_E_OOM, "again -> HCCL_E_OOM");
	CHECK_HCCL(HcclCommDestroy(c), HCCL_SUCCESS, "destroy it");

	/* Made and freed many times: a third of the capacity each. */
	bad = 0;
	HcclCommConfigInit(&cfg);
	cfg.hcclBufferSize = (uint32_t)((total - used0) / 3 >> 21);
	if (cfg.hcclBufferSize > 64)
		cfg.hcclBufferSize = 64;
	for (i = 0; i < 8; i++) {
		if (one_rank(&cfg, &c) != HCCL_SUCCESS ||
		    HcclGetHcclBuffer(c, &p, &sz) != HCCL_SUCCESS ||
		    HcclCommDestroy(c) != HCCL_SUCCESS)
			bad++;
	}
	TAP_EQ(bad, 0, "8 communicators made a %u MiB buffer each, one after another", 2 * cfg.hcclBufferSize);
	TAP_EQ(mem_used_now(), used0, "the device's memory use is back at its start");
}

/* ---- device memory ------------------------------------------------------ */

static void *malloc_no_device(void *arg)
{
	void *p = NULL;

	*(aclError *)arg = aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST);
	return NULL;
}

/* H2D at @off of A, D2D to @off2 of B, D2H back: every byte, nothing else. */
static int roundtrip(unsigned char *a, unsigned char *b, unsigned char *h,
		     unsigned char *back, size_t n, size_t off, size_t off2,
		     size_t devsize, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		h[i] = pat(i, seed);
	memset(a, 0xee, devsize);
	memset(b, 0xdd, devsize);
	if (aclrtMemcpy(a + off, devsize - off, h, n, ACL_MEMCPY_HOST_TO_DEVICE) ||
	    aclrtMemcpy(b + off2, devsize - off2, a + off, n, ACL_MEMCPY_DEVICE_TO_DEVICE) ||
	    aclrtMemcpy(back, n, b + off2, n, ACL_MEMCPY_DEVICE_TO_HOST))
		return -1;
	if (memcmp(back, h, n))
		return -2;
	/* The bytes around the copies are untouched. */
	if ((off && a[off - 1] != 0xee) || (off + n < devsize && a[off + n] != 0xee) ||
	    (off2 && b[off2 - 1] != 0xdd) || (off2 + n < devsize && b[off2 + n] != 0xdd))
		return -3;
	/* Memset of the copy, one byte in from each end. */
	if (n > 2) {
		if (aclrtMemset(b + off2 + 1, n - 2, 0x1a5, n - 2))
			return -4;
		if (b[off2] != h[0] || b[off2 + n - 1] != h[n - 1])
			return -5;
		for (i = 1; i < n - 1; i++)
			if (b[off2 + i] != 0xa5)
				return -6;
	}
	return 0;
}

static void *alloc_churn(void *arg)
{
	int i, *bad = arg;

	aclrtSetDevice(0);
	for (i = 0; i < 100; i++) {
		unsigned char *p = NULL;

		if (aclrtMalloc((void **)&p, 100 + (size_t)i, ACL_MEM_MALLOC_NORMAL_ONLY)) {
			(*bad)++;
			continue;
		}
		memset(p, i, 100 + (size_t)i);
		if (aclrtMemset(p, 100 + (size_t)i, i + 1, 100 + (size_t)i) || p[99 + i] != (unsigned char)(i + 1))
			(*bad)++;
		if (aclrtFree(p))
			(*bad)++;
	}
	return NULL;
}

static void test_memory(void)
{
	static const size_t sizes[] = { 1, 2, 3, 7, 63, 64, 65, 4095, 4096, 4097,
					65537, (1u << 20) + 3, (3u << 20) + 5 };
	static const size_t offs[] = { 0, 1, 3, 61 };
	static const int policies[] = {
		ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY,
		ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_HUGE_ONLY_P2P,
		ACL_MEM_MALLOC_NORMAL_ONLY_P2P, ACL_MEM_MALLOC_HUGE1G_ONLY,
		ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
		ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
		ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_LOW_BAND_WIDTH,
		ACL_MEM_ACCESS_USER_SPACE_READONLY,
	};
	const size_t devsize = (4u << 20) + 128;
	unsigned char *a = NULL, *b = NULL, *h = NULL, *back = NULL, *p = NULL;
	unsigned char stack[64];
	void *many[256];
	aclError other = 0;
	pthread_t t[4];
	int i, nmany, bad, status;
	size_t si, oi;
	pthread_t th;
	pid_t pid;

	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "memory: aclrtSetDevice(0)");
	/* aclrtMalloc's checks. */
	TAP_EQ(aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
	       "aclrtMalloc(NULL) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMalloc((void **)&p, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
	       "aclrtMalloc(size 0) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMalloc((void **)&p, SIZE_MAX - 63, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM,
	       "aclrtMalloc(SIZE_MAX - 63: rounding would wrap) -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMalloc((void **)&p, SIZE_MAX - 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
	       "aclrtMalloc(SIZE_MAX - 64) -> ACL_ERROR_RT_MEMORY_ALLOCATION (above the capacity)");
	pthread_create(&th, NULL, malloc_no_device, &other);
	pthread_join(th, NULL);
	TAP_EQ(other, ACL_ERROR_RT_CONTEXT_NULL, "aclrtMalloc on a thread without a device -> ACL_ERROR_RT_CONTEXT_NULL");
	bad = 0;
	for (i = 0; i < (int)(sizeof(policies) / sizeof(policies[0])); i++) {
		p = NULL;
		if (aclrtMalloc((void **)&p, 100, (aclrtMemMallocPolicy)policies[i]) || !p ||
		    ((uintptr_t)p & 63) || aclrtFree(p))
			bad++;
	}
	TAP_EQ(bad, 0, "every CANN policy (and combination) is accepted; addresses 64-byte aligned");

	TAP_EQ(aclrtMalloc((void **)&a, devsize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS, "aclrtMalloc A (4 MiB + 128)");
	TAP_EQ(aclrtMalloc((void **)&b, devsize, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS, "aclrtMalloc B (4 MiB + 128)");
	TAP_EQ(aclrtMallocHost((void **)&h, devsize), ACL_SUCCESS, "aclrtMallocHost");
	back = malloc(devsize);
	if (!a || !b || !h || !back) {
		tap_ok(0, "memory: buffers");
		return;
	}
	tap_ok(a[0] == 0 && a[devsize - 1] == 0, "device memory starts zeroed and is dereferenceable");
	tap_ok(((uintptr_t)h & 63) == 0, "aclrtMallocHost is 64-byte aligned");

	/* Data: sizes 1 B .. 3 MiB at unaligned offsets. */
	bad = 0;
	for (si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
		for (oi = 0; oi < sizeof(offs) / sizeof(offs[0]); oi++) {
			int r = roundtrip(a, b, h, back, sizes[si], offs[oi],
					  offs[(oi + 1) % 4] * 3, devsize, (unsigned int)(si * 4 + oi));

			if (r) {
				if (bad++ < 4)
					printf("#   size %zu offset %zu: %d\n", sizes[si], offs[oi], r);
			}
		}
	TAP_EQ(bad, 0, "H2D, D2D, D2H and Memset: %zu sizes x %zu offsets, every byte right, neighbours untouched",
	       sizeof(sizes) / sizeof(sizes[0]), sizeof(offs) / sizeof(offs[0]));
	/* Overlapping copy inside one allocation. */
	for (i = 0; i < 256; i++)
		a[i] = (unsigned char)i;
	TAP_EQ(aclrtMemcpy(a + 1, 255, a, 255, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS, "overlapping D2D");
	tap_ok(a[1] == 0 && a[255] == 254, "overlapping ranges copy as memmove");
	/* The other kinds. */
	TAP_EQ(aclrtMemcpy(a, devsize, h, 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_SUCCESS, "HOST_TO_BUF_TO_DEVICE");
	TAP_EQ(aclrtMemcpy(back, devsize, h, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS, "HOST_TO_HOST");
	TAP_EQ(aclrtMemcpy(a, devsize, back, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS, "DEFAULT host -> device");
	TAP_EQ(aclrtMemcpy(back, devsize, b, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS, "DEFAULT device -> host");
	TAP_EQ(aclrtMemcpy(b, 64, a, 0, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS, "count 0 copies nothing");

	/* aclrtMemcpy's checks. */
	TAP_EQ(aclrtMemcpy(NULL, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "Memcpy dst NULL");
	TAP_EQ(aclrtMemcpy(a, 64, NULL, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "Memcpy src NULL");
	TAP_EQ(aclrtMemcpy(a, 64, b, 64, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "Memcpy kind 6 -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMemcpy(a, 64, b, 64, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "Memcpy kind 7");
	TAP_EQ(aclrtMemcpy(a, 64, b, 64, (aclrtMemcpyKind)8), ACL_ERROR_INVALID_PARAM, "Memcpy kind 8");
	TAP_EQ(aclrtMemcpy(a, 64, b, 64, (aclrtMemcpyKind)-1), ACL_ERROR_INVALID_PARAM, "Memcpy kind -1");
	TAP_EQ(aclrtMemcpy(a, 63, b, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "Memcpy count > destMax");
	TAP_EQ(aclrtMemcpy(back, 64, h, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "H2D to host memory -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMemcpy(back, 64, stack, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
	       "D2H from host memory -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtMemcpy(a, 64, h, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "D2D from aclrtMallocHost memory -> ACL_ERROR_INVALID_PARAM");
	/* The last byte of an allocation, and one past it. */
	TAP_EQ(aclrtMemcpy(a + devsize - 64, 64, b, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS,
	       "D2D ending at the last byte of the destination");
	TAP_EQ(aclrtMemcpy(a + devsize - 63, 64, b, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "D2D one byte past the end of the destination (inside the mapped page)");
	TAP_EQ(aclrtMemcpy(a, 64, b + devsize - 64, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS,
	       "D2D from the last bytes of the source");
	TAP_EQ(aclrtMemcpy(a, 65, b + devsize - 64, 65, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "D2D reading one byte past the source");
	TAP_EQ(aclrtMemcpy(a + devsize, 1, b, 1, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "D2D to the byte just past the allocation");
	TAP_EQ(aclrtMemcpy(a, 64, b, SIZE_MAX, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "count SIZE_MAX");
	TAP_EQ(aclrtMemcpy(back, SIZE_MAX, b + 8, SIZE_MAX - 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM,
	       "a length that wraps the address space");
	TAP_EQ(aclrtMemcpy(back, devsize + 1, h, devsize + 1, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM,
	       "H2H reading one byte past an aclrtMallocHost block");
	TAP_EQ(aclrtMemcpy(h, devsize, back, devsize, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS,
	       "H2H filling an aclrtMallocHost block exactly");
	TAP_EQ(aclrtMemcpy(a, devsize + 1, back, devsize + 1, ACL_MEMCPY_DEFAULT), ACL_ERROR_INVALID_PARAM,
	       "DEFAULT: a device range one byte too long");

	/* aclrtMemset's checks. */
	TAP_EQ(aclrtMemset(NULL, 64, 0, 64), ACL_ERROR_INVALID_PARAM, "Memset NULL");
	TAP_EQ(aclrtMemset(a, 63, 0, 64), ACL_ERROR_INVALID_PARAM, "Memset count > maxCount");
	TAP_EQ(aclrtMemset(back, 64, 0, 64), ACL_ERROR_INVALID_PARAM, "Memset of host memory");
	TAP_EQ(aclrtMemset(h, 64, 0, 64), ACL_ERROR_INVALID_PARAM, "Memset of aclrtMallocHost memory");
	TAP_EQ(aclrtMemset(a + 1, devsize - 1, 7, devsize - 1), ACL_SUCCESS, "Memset to the last byte");
	TAP_EQ(aclrtMemset(a + 1, devsize, 7, devsize), ACL_ERROR_INVALID_PARAM, "Memset one byte past the end");
	tap_ok(a[devsize - 1] == 7, "Memset wrote the last byte");

	/* Free's checks. */
	TAP_EQ(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFree(NULL)");
	TAP_EQ(aclrtFree(a + 1), ACL_ERROR_INVALID_PARAM, "aclrtFree of an interior address");
	TAP_EQ(aclrtFree(h), ACL_ERROR_INVALID_PARAM, "aclrtFree of aclrtMallocHost memory");
	TAP_EQ(aclrtFree(stack), ACL_ERROR_INVALID_PARAM, "aclrtFree of the stack");
	TAP_EQ(aclrtFreeHost(a), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost of device memory");
	TAP_EQ(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost(NULL)");
	TAP_EQ(aclrtFreeHost(back), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost of malloc() memory");
	TAP_EQ(aclrtMallocHost(NULL, 64), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost(NULL)");
	TAP_EQ(aclrtMallocHost((void **)&p, 0), ACL_ERROR_INVALID_PARAM, "aclrtMallocHost(size 0)");

	/* fork(): the child has none of the parent's device memory. */
	fflush(stdout);
	pid = fork();
	if (!pid) {
		unsigned char *c = NULL;
		int rc = 0;

		if (aclrtMemset(a, 64, 1, 64) != ACL_ERROR_INVALID_PARAM)
			rc |= 1;
		if (aclrtFree(a) != ACL_ERROR_INVALID_PARAM)
			rc |= 2;
		if (aclrtSetDevice(0) || aclrtMalloc((void **)&c, 4096, ACL_MEM_MALLOC_HUGE_FIRST) ||
		    aclrtMemset(c, 4096, 3, 4096) || c[4095] != 3 || aclrtFree(c))
			rc |= 4;
		/* The host block is the child's copy. */
		if (aclrtFreeHost(h))
			rc |= 8;
		_exit(rc);
	}
	waitpid(pid, &status, 0);
	TAP_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : 100, 0,
	       "fork(): the parent's device memory is neither mapped nor freeable in the child; the child allocates its own");
	tap_ok(a[devsize - 1] == 7, "the parent's device memory is intact after the child exited");

	TAP_EQ(aclrtFree(a), ACL_SUCCESS, "aclrtFree A");
	TAP_EQ(aclrtFree(a), ACL_ERROR_INVALID_PARAM, "aclrtFree A again -> ACL_ERROR_INVALID_PARAM");
	TAP_EQ(aclrtFree(b), ACL_SUCCESS, "aclrtFree B");
	TAP_EQ(aclrtFreeHost(h), ACL_SUCCESS, "aclrtFreeHost");
	TAP_EQ(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM, "aclrtFreeHost again -> ACL_ERROR_INVALID_PARAM");
	free(back);

	/* Threads allocating and freeing at once. */
	bad = 0;
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, alloc_churn, &bad);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	TAP_EQ(bad, 0, "4 threads x 100 aclrtMalloc/Memset/Free at once");

	/* Exhaust the device's capacity in 1 MiB steps, then give it back. */
	for (nmany = 0; nmany < 256; nmany++) {
		aclError r = aclrtMalloc(&many[nmany], 1u << 20, ACL_MEM_MALLOC_HUGE_FIRST);

		if (r != ACL_SUCCESS) {
			TAP_EQ(r, ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "device capacity exhausted after %d MiB -> ACL_ERROR_RT_MEMORY_ALLOCATION", nmany);
			break;
		}
	}
	if (nmany == 256)
		tap_skip("device capacity above 256 MiB (sim_memory_mb): not exhausted");
	else
		tap_ok(nmany > 0, "the capacity ran out (%d MiB)", nmany);
	bad = 0;
	for (i = 0; i < nmany; i++)
		bad += aclrtFree(many[i]) != ACL_SUCCESS;
	TAP_EQ(bad, 0, "every block freed");
	p = NULL;
	TAP_EQ(aclrtMalloc((void **)&p, (size_t)nmany << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS,
	       "the whole capacity is back: one block of %d MiB", nmany);
	TAP_EQ(aclrtFree(p), ACL_SUCCESS, "free it");
}

/* ---- issue 30 item 4: memory info, virtual memory, modes, profiling ---- */

static void test_meminfo(void)
{
	uint64_t total = 0, used = 0;
	size_t fr = 0, tot = 0, fr2 = 0, tot2 = 0;
	void *p = NULL;

	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "meminfo: aclrtSetDevice(0)");
	mem_query(&total, &used);
	TAP_EQ(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot), ACL_SUCCESS, "aclrtGetMemInfo(ACL_HBM_MEM)");
	TAP_EQ(tot, total, "meminfo: total is the device's capacity (QUERY mem_total)");
	TAP_EQ(fr, total - used, "meminfo: free is the capacity no object holds");
	TAP_EQ(aclrtMalloc(&p, (4u << 20) + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS,
	       "meminfo: aclrtMalloc 4 MiB + 1");
	TAP_EQ(aclrtGetMemInfo(ACL_MEM_P2P_HUGE, &fr2, &tot2), ACL_SUCCESS, "aclrtGetMemInfo(ACL_MEM_P2P_HUGE)");
	TAP_EQ(tot2, tot, "meminfo: every HBM kind is the device's memory");
	TAP_EQ(fr - fr2, (4u << 20) + 4096, "meminfo: the allocation, page-rounded, is no longer free");
	aclrtFree(p);
	TAP_EQ(aclrtGetMemInfo(ACL_HBM_MEM_NORMAL, &fr2, &tot2), ACL_SUCCESS, "aclrtGetMemInfo(ACL_HBM_MEM_NORMAL)");
	TAP_EQ(fr2, fr, "meminfo: free again after aclrtFree");
	TAP_EQ(aclrtGetMemInfo(ACL_DDR_MEM, &fr2, &tot2), ACL_SUCCESS, "aclrtGetMemInfo(ACL_DDR_MEM)");
	tap_ok(fr2 == 0 && tot2 == 0, "meminfo: no DDR device memory: 0 and 0 (as CANN on an Ascend910)");
}

/* Pattern byte @i of seed @s. */
static unsigned char pat8(size_t i, unsigned int s)
{
	return (unsigned char)((i * 131u + s * 7u) ^ (i >> 9));
}

static aclrtPhysicalMemProp hbm_prop(uint32_t dev)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = ACL_HBM_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = dev;
	return p;
}

static void test_vmm(uint32_t ndev)
{
	aclrtPhysicalMemProp prop = hbm_prop(0);
	aclrtDrvMemHandle p1 = NULL, p2 = NULL, p3 = NULL;
	size_t g = 0, fr0 = 0, fr = 0, tot = 0, n, i;
	unsigned char *v = NULL, *loc = NULL, *host = NULL;
	HcclComm c = NULL;
	ThreadHandle th;
	aclrtStream st;
	int32_t *iv, *il;
	int bad, status;
	pid_t pid;

	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "vmm: aclrtSetDevice(0)");
	TAP_EQ(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g),
	       ACL_SUCCESS, "aclrtMemGetAllocationGranularity");
	TAP_EQ(g, 2u << 20, "vmm: granularity 2 MiB");
	aclrtGetMemInfo(ACL_HBM_MEM, &fr0, &tot);
	TAP_EQ(aclrtReserveMemAddress((void **)&v, 4 * g, 0, NULL, 0), ACL_SUCCESS,
	       "aclrtReserveMemAddress: four granules");
	TAP_EQ(aclrtMallocPhysical(&p1, g, &prop, 0), ACL_SUCCESS, "aclrtMallocPhysical: one granule");
	TAP_EQ(aclrtMallocPhysical(&p2, g + 1, &prop, 0), ACL_SUCCESS, "aclrtMallocPhysical: a granule + 1 (two)");
	aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot);
	TAP_EQ(fr0 - fr, 3 * g, "vmm: physical memory is taken from the device when made");
	if (!v || !p1 || !p2) {
		tap_ok(0, "vmm: setup");
		return;
	}
	/* aclrtMapMem's range checks. */
	TAP_EQ(aclrtMapMem(v, g, 1, p1, 0), ACL_ERROR_RT_PARAM_INVALID, "map: offset 1 -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtMapMem(v, 2 * g, 0, p1, 0), ACL_ERROR_RT_PARAM_INVALID, "map: another size than the memory's");
	TAP_EQ(aclrtMapMem(v + g, g + 1, 0, p2, 0), ACL_ERROR_RT_PARAM_INVALID, "map: the size asked, not the rounded one");
	TAP_EQ(aclrtMapMem(v + 4096, g, 0, p1, 0), ACL_ERROR_RT_PARAM_INVALID, "map: not at the granularity");
	TAP_EQ(aclrtMapMem(v + 3 * g, 2 * g, 0, p2, 0), ACL_ERROR_RT_PARAM_INVALID, "map: past the reservation's end");
	TAP_EQ(aclrtMapMem(&status, g, 0, p1, 0), ACL_ERROR_RT_PARAM_INVALID, "map: not in a reservation");
	TAP_EQ(aclrtMapMem(v, g, 0, p1, 0), ACL_SUCCESS, "aclrtMapMem: the first granule");
	TAP_EQ(aclrtMapMem(v, g, 0, p1, 0), ACL_ERROR_RT_PARAM_INVALID, "map: over a mapping");
	TAP_EQ(aclrtMapMem(v + g, 2 * g, 0, p2, 0), ACL_SUCCESS, "aclrtMapMem: the next two, other memory");
	tap_ok(v[0] == 0 && v[3 * g - 1] == 0, "vmm: mapped memory starts zeroed and is dereferenceable");
	v[g - 1] = 0x11;
	v[g] = 0x22;

	/* aclrtMemcpy and aclrtMemset across the two mappings. */
	n = g + 12345;
	host = malloc(n);
	TAP_EQ(aclrtMalloc((void **)&loc, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS, "vmm: device buffer");
	if (!host || !loc) {
		tap_ok(0, "vmm: buffers");
		return;
	}
	for (i = 0; i < n; i++)
		host[i] = pat8(i, 1);
	TAP_EQ(aclrtMemcpy(v + g - 777, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS,
	       "aclrtMemcpy H2D across two mappings");
	bad = memcmp(v + g - 777, host, n) != 0;
	tap_ok(!bad, "vmm: every byte there");
	TAP_EQ(aclrtMemset(v + g - 10, 20, 0x7e, 20), ACL_SUCCESS, "aclrtMemset across two mappings");
	tap_ok(v[g - 10] == 0x7e && v[g + 9] == 0x7e && v[g + 10] == pat8(787, 1),
	       "vmm: set on both sides, no further");
	TAP_EQ(aclrtMemcpy(v + 3 * g - 10, 20, host, 20, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "aclrtMemcpy past the last mapping -> ACL_ERROR_INVALID_PARAM");

	/* Data tasks: aclrtMemcpyAsync and a thread's copy and reduce, split. */
	TAP_EQ(aclrtCreateStream(&st), ACL_SUCCESS, "vmm: a stream");
	for (i = 0; i < n; i++)
		loc[i] = pat8(i, 2);
	TAP_EQ(aclrtMemcpyAsync(v + g - 5000, n, loc, n, ACL_MEMCPY_DEVICE_TO_DEVICE, st), ACL_SUCCESS,
	       "aclrtMemcpyAsync D2D into two mappings");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "vmm: the copy tasks ran");
	bad = 0;
	for (i = 0; i < n; i++)
		bad += v[g - 5000 + i] != pat8(i, 2);
	TAP_EQ(bad, 0, "vmm: every byte copied by the device, across the mappings");
	c = new_comm();
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 0, &th), HCCL_SUCCESS, "vmm: a thread");
	memset(loc, 0, n);
	CHECK_HCCL(HcommLocalCopyOnThread(th, loc, v + g - 5000, n), HCCL_SUCCESS,
		   "HcommLocalCopyOnThread from two mappings");
	TAP_EQ(hccltThreadSynchronize(th, -1), ACL_SUCCESS, "vmm: the thread's copy ran");
	bad = 0;
	for (i = 0; i < n; i++)
		bad += loc[i] != pat8(i, 2);
	TAP_EQ(bad, 0, "vmm: copied back whole");
	iv = (int32_t *)(v + g - 4096);
	il = (int32_t *)loc;
	for (i = 0; i < 4096; i++) {
		iv[i] = (int32_t)i;
		il[i] = (int32_t)(3 * i);
	}
	CHECK_HCCL(HcommLocalReduceOnThread(th, iv, il, 4096, HCOMM_DATA_TYPE_INT32, HCOMM_REDUCE_SUM),
		   HCCL_SUCCESS, "HcommLocalReduceOnThread into two mappings");
	TAP_EQ(hccltThreadSynchronize(th, -1), ACL_SUCCESS, "vmm: the reduces ran");
	bad = 0;
	for (i = 0; i < 4096; i++)
		bad += iv[i] != (int32_t)(4 * i);
	TAP_EQ(bad, 0, "vmm: every element reduced, across the mappings");

	/* aclrtFreePhysical of mapped memory: freed at its last unmap (CANN). */
	TAP_EQ(aclrtFreePhysical(p1), ACL_SUCCESS, "aclrtFreePhysical of mapped memory");
	TAP_EQ(aclrtFreePhysical(p1), ACL_ERROR_RT_INVALID_HANDLE, "aclrtFreePhysical twice -> ACL_ERROR_RT_INVALID_HANDLE");
	TAP_EQ(aclrtMapMem(v + 3 * g, g, 0, p1, 0), ACL_ERROR_RT_INVALID_HANDLE, "map of freed memory -> ACL_ERROR_RT_INVALID_HANDLE");
	aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot);
	TAP_EQ(fr0 - fr, 3 * g + n + 4096 - (n % 4096 ? n % 4096 : 4096), "vmm: freed but mapped: still held");
	v[5] = 0x5a;
	tap_ok(v[5] == 0x5a, "vmm: freed but mapped: still readable and writable");
	memset(loc, 0x33, 64);
	TAP_EQ(aclrtMemcpyAsync(v, 64, loc, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, st), ACL_SUCCESS,
	       "vmm: a data task on freed, mapped memory");
	TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "vmm: it ran");
	tap_ok(v[0] == 0x33 && v[63] == 0x33, "vmm: and wrote there");
	TAP_EQ(aclrtReleaseMemAddress(v), ACL_ERROR_RT_PARAM_INVALID,
	       "aclrtReleaseMemAddress with memory mapped -> ACL_ERROR_RT_PARAM_INVALID");
	TAP_EQ(aclrtUnmapMem(v + 1), ACL_ERROR_RT_PARAM_INVALID, "unmap: not a mapping's start");
	TAP_EQ(aclrtUnmapMem(v), ACL_SUCCESS, "aclrtUnmapMem of freed memory");
	aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot);
	TAP_EQ(fr0 - fr, 2 * g + n + 4096 - (n % 4096 ? n % 4096 : 4096), "vmm: its last unmap gave it back");
	TAP_EQ(aclrtMemcpy(v, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM,
	       "aclrtMemcpy to unmapped addresses -> ACL_ERROR_INVALID_PARAM");
	CHECK_HCCL(HcommLocalCopyOnThread(th, loc, v, 16), HCCL_E_PARA,
		   "a data task on unmapped addresses -> HCCL_E_PARA");
	/* The same memory at two places. */
	TAP_EQ(aclrtMapMem(v, 2 * g, 0, p2, 0), ACL_ERROR_RT_PARAM_INVALID, "map: overlapping its other mapping");
	TAP_EQ(aclrtMallocPhysical(&p3, g, &prop, 0), ACL_SUCCESS, "vmm: more memory");
	TAP_EQ(aclrtMapMem(v + 3 * g, g, 0, p3, 0), ACL_SUCCESS, "vmm: mapped after the others");
	v[3 * g] = 0x44;
	TAP_EQ(aclrtMemcpy(v + 3 * g - 1, 2, host, 2, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS,
	       "aclrtMemcpy across the second and third mappings");
	if (ndev > 1) {
		aclrtPhysicalMemProp prop1 = hbm_prop(1);
		aclrtDrvMemHandle q = NULL;
		unsigned char *w = NULL;

		TAP_EQ(aclrtMallocPhysical(&q, g, &prop1, 0), ACL_SUCCESS, "vmm: memory of device 1");
		TAP_EQ(aclrtMapMem(v, g, 0, q, 0), ACL_ERROR_RT_PARAM_INVALID,
		       "map: two devices' memory in one reservation -> ACL_ERROR_RT_PARAM_INVALID");
		TAP_EQ(aclrtReserveMemAddress((void **)&w, g, 0, NULL, 0), ACL_SUCCESS, "vmm: another reservation");
		TAP_EQ(aclrtMapMem(w, g, 0, q, 0), ACL_SUCCESS, "vmm: device 1's memory there");
		TAP_EQ(aclrtMemcpy(w, g, v + g, g, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS,
		       "aclrtMemcpy between two devices' mappings");
		TAP_EQ(aclrtMemcpyAsync(w, 64, v + g, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, st), ACL_SUCCESS,
		       "aclrtMemcpyAsync across devices: the host copies after the stream");
		TAP_EQ(aclrtSynchronizeStream(st), ACL_SUCCESS, "vmm: synchronized");
		TAP_EQ(aclrtUnmapMem(w), ACL_SUCCESS, "vmm: unmap device 1's");
		TAP_EQ(aclrtFreePhysical(q), ACL_SUCCESS, "vmm: free device 1's");
		TAP_EQ(aclrtReleaseMemAddress(w), ACL_SUCCESS, "vmm: release its reservation");
	}

	/* A fork() child has none of it. */
	pid = fork();
	if (pid == 0)
		_exit((aclrtFreePhysical(p2) != ACL_ERROR_RT_INVALID_HANDLE) |
		      (aclrtUnmapMem(v + g) != ACL_ERROR_RT_PARAM_INVALID) << 1 |
		      (aclrtReleaseMemAddress(v) != ACL_ERROR_RT_PARAM_INVALID) << 2);
	status = -1;
	waitpid(pid, &status, 0);
	TAP_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : 255, 0,
	       "vmm: a fork() child has none of the parent's memory, mappings or reservations");

	TAP_EQ(aclrtUnmapMem(v + g), ACL_SUCCESS, "vmm: unmap the second");
	TAP_EQ(aclrtUnmapMem(v + 3 * g), ACL_SUCCESS, "vmm: unmap the third");
	TAP_EQ(aclrtFreePhysical(p2), ACL_SUCCESS, "vmm: free the second");
	TAP_EQ(aclrtFreePhysical(p3), ACL_SUCCESS, "vmm: free the third");
	TAP_EQ(aclrtReleaseMemAddress(v), ACL_SUCCESS, "aclrtReleaseMemAddress");
	aclrtFree(loc);
	free(host);
	aclrtDestroyStream(st);
	HcclCommDestroy(c);
	aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot);
	TAP_EQ(fr, fr0, "vmm: all the device memory is back");
}

/*
 * On @s: a wait on an ACL notify nobody records, then a record of @ev;
 * the notify is destroyed, which fails the wait. Returns the notify's
 * destroy's result.
 */
static aclError fail_then_record(aclrtStream s, aclrtEvent ev)
{
	aclrtNotify n;
	aclError r;

	r = aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT);
	if (!r)
		r = aclrtWaitAndResetNotify(n, s, 0);
	if (!r)
		r = aclrtRecordEvent(ev, s);
	if (!r)
		r = aclrtDestroyNotify(n);
	return r;
}

/* In a child: stop mode, on an Ascend910 for every stream of the device. */
static int stop_child(void)
{
	aclrtStream a, b;
	aclrtEvent ev;
	HcclComm c;
	ThreadHandle th;
	int bits = 0;

	if (aclrtSetDevice(0) || aclrtCreateStream(&a) || aclrtCreateStream(&b) ||
	    aclrtCreateEvent(&ev))
		return 64;
	bits |= (aclrtSetStreamFailureMode(a, 3) != ACL_SUCCESS) << 0;	/* bit 0: stop */
	bits |= (aclrtSetStreamFailureMode(a, ACL_CONTINUE_ON_FAILURE) !=
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT) << 1;
	/* Ascend910B1: the device's other streams stop too. */
	bits |= (aclrtSetStreamFailureMode(b, ACL_CONTINUE_ON_FAILURE) !=
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT) << 2;
	bits |= (aclrtSetStreamFailureMode(a, ACL_STOP_ON_FAILURE) != ACL_SUCCESS) << 3;
	bits |= (fail_then_record(a, ev) != ACL_SUCCESS) << 4;
	bits |= (aclrtSynchronizeStream(a) != ACL_ERROR_RT_STREAM_ABORT) << 5;
	bits |= (aclrtRecordEvent(ev, a) != ACL_ERROR_RT_STREAM_ABORT) << 6;
	c = new_comm();
	if (!c || HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 1, &th))
		return 64 | bits;
	/* A thread's stream made later is in stop mode as well. */
	if (HcommThreadNotifyWaitOnThread(th, 0, 1) ||
	    hccltThreadSynchronize(th, -1) == ACL_SUCCESS ||
	    HcommThreadNotifyRecordOnThread(th, th, 0) != HCCL_E_RUNTIME)
		bits |= 1 << 7;
	return bits;
}

static void test_failure_modes(uint32_t ndev)
{
	aclrtEventRecordedStatus es;
	aclrtStream s, d;
	aclrtEvent ev;
	int status;
	pid_t pid;

	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "modes: aclrtSetDevice(0)");
	TAP_EQ(aclrtCreateStream(&s), ACL_SUCCESS, "modes: a stream");
	TAP_EQ(aclrtCreateStream(&d), ACL_SUCCESS, "modes: a stream left in the default mode");
	TAP_EQ(aclrtCreateEvent(&ev), ACL_SUCCESS, "modes: an event");
	/* The default: the record behind the failed wait is dropped. */
	TAP_EQ(fail_then_record(d, ev), ACL_SUCCESS, "modes: default stream: a wait that fails, a record behind it");
	TAP_EQ(aclrtSynchronizeStream(d), ACL_ERROR_RT_STREAM_ABORT, "modes: default stream: the failure is reported");
	TAP_EQ(aclrtQueryEventStatus(ev, &es), ACL_ERROR_RT_STREAM_ABORT, "modes: default stream: the record was dropped");
	TAP_EQ(aclrtSynchronizeStream(d), ACL_SUCCESS, "modes: default stream: reported once");
	/* Continue: the record behind it runs. */
	TAP_EQ(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_SUCCESS,
	       "aclrtSetStreamFailureMode(ACL_CONTINUE_ON_FAILURE)");
	TAP_EQ(aclrtSetStreamFailureMode(s, 2), ACL_SUCCESS, "modes: mode 2 is continue (bit 0 only)");
	TAP_EQ(fail_then_record(s, ev), ACL_SUCCESS, "modes: continue: a wait that fails, a record behind it");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, "modes: continue: the failure is reported");
	TAP_EQ(aclrtQueryEventStatus(ev, &es), ACL_SUCCESS, "modes: continue: the record ran");
	TAP_EQ(es, ACL_EVENT_RECORDED_STATUS_COMPLETE, "modes: continue: the event is complete");
	TAP_EQ(aclrtRecordEvent(ev, s), ACL_SUCCESS, "modes: continue: the stream takes tasks");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "modes: continue: and runs them");
	if (ndev > 1) {
		aclrtStream s1;

		TAP_EQ(aclrtSetDevice(1), ACL_SUCCESS, "modes: device 1");
		TAP_EQ(aclrtCreateStream(&s1), ACL_SUCCESS, "modes: a stream of device 1");
		TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "modes: back on device 0");
		TAP_EQ(aclrtSetStreamFailureMode(s1, ACL_STOP_ON_FAILURE), ACL_ERROR_RT_STREAM_CONTEXT,
		       "aclrtSetStreamFailureMode: another device's stream -> ACL_ERROR_RT_STREAM_CONTEXT");
		aclrtDestroyStream(s1);
	}
	/* Stop, in a child: on this SoC it stops every stream of the device. */
	pid = fork();
	if (pid == 0)
		_exit(stop_child());
	status = -1;
	waitpid(pid, &status, 0);
	status = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	TAP_EQ(status, 0, "modes: stop (bits: 0 set, 1 no way back, 2 the device's other streams, "
	       "3 set again, 4-6 a failure stops the stream, 7 a thread's stream made later)");
	aclrtDestroyEvent(ev);
	aclrtDestroyStream(s);
	aclrtDestroyStream(d);
}

/* FP16 65504 + 65504 through a thread made now: its result's bits. */
static int fp16_overflow(HcclComm c, uint16_t *a, uint16_t *b, uint16_t *out)
{
	ThreadHandle th;

	if (HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 0, &th))
		return -1;
	a[0] = 0x7bff;
	b[0] = 0x7bff;
	a[1] = 0x7e00;		/* NaN */
	b[1] = 0x3c00;
	if (HcommLocalReduceOnThread(th, a, b, 2, HCOMM_DATA_TYPE_FP16, HCOMM_REDUCE_SUM) ||
	    hccltThreadSynchronize(th, -1))
		return -2;
	out[0] = a[0];
	out[1] = a[1];
	return 0;
}

/* A child whose first device open is after aclrtSetDeviceSatMode(). */
static int sat_child(void)
{
	uint16_t *a = NULL, *b = NULL, out[2] = { 0, 0 };
	HcclComm c;

	if (aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION))
		return 1;
	/* The device file opens now: it takes the process's mode. */
	c = new_comm();
	if (!c || aclrtSetDevice(0) ||
	    aclrtMalloc((void **)&a, 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtMalloc((void **)&b, 64, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    fp16_overflow(c, a, b, out))
		return 2;
	return out[0] == 0x7bff && out[1] == 0 ? 0 : 3;
}

static void test_sat_mode(void)
{
	uint16_t *a = NULL, *b = NULL, out[2];
	aclrtFloatOverflowMode m = ACL_RT_OVERFLOW_MODE_UNDEF;
	HcclComm c;
	ThreadHandle before;
	int status;
	pid_t pid;

	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "sat: aclrtSetDevice(0)");
	TAP_EQ(aclrtGetDeviceSatMode(&m), ACL_SUCCESS, "aclrtGetDeviceSatMode");
	TAP_EQ(m, ACL_RT_OVERFLOW_MODE_INFNAN, "sat: Inf/NaN by default");
	c = new_comm();
	TAP_EQ(aclrtMalloc((void **)&a, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS, "sat: buffer a");
	TAP_EQ(aclrtMalloc((void **)&b, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS, "sat: buffer b");
	if (!c || !a || !b)
		return;
	TAP_EQ(fp16_overflow(c, a, b, out), 0, "sat: FP16 sum on an Inf/NaN thread");
	tap_ok(out[0] == 0x7c00 && (out[1] & 0x7c00) == 0x7c00 && (out[1] & 0x3ff),
	       "sat: Inf/NaN: 65504 + 65504 is +Inf, NaN + 1 is NaN (0x%04x 0x%04x)", out[0], out[1]);
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU, 1, 0, &before), HCCL_SUCCESS,
		   "sat: a thread made before the mode changes");
	TAP_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION), ACL_SUCCESS,
	       "aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION)");
	aclrtGetDeviceSatMode(&m);
	TAP_EQ(m, ACL_RT_OVERFLOW_MODE_SATURATION, "sat: reported");
	TAP_EQ(fp16_overflow(c, a, b, out), 0, "sat: FP16 sum on a thread made afterwards");
	tap_ok(out[0] == 0x7bff && out[1] == 0,
	       "sat: saturation: +Inf becomes 65504, NaN becomes 0 (0x%04x 0x%04x)", out[0], out[1]);
	a[0] = 0x7bff;
	b[0] = 0x7bff;
	CHECK_HCCL(HcommLocalReduceOnThread(before, a, b, 1, HCOMM_DATA_TYPE_FP16, HCOMM_REDUCE_SUM),
		   HCCL_SUCCESS, "sat: a sum on the thread made before");
	TAP_EQ(hccltThreadSynchronize(before, -1), ACL_SUCCESS, "sat: it ran");
	TAP_EQ(a[0], 0x7c00, "sat: streams made before keep Inf/NaN");
	TAP_EQ(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN), ACL_SUCCESS, "sat: back to Inf/NaN");
	TAP_EQ(fp16_overflow(c, a, b, out), 0, "sat: FP16 sum on a thread made then");
	TAP_EQ(out[0], 0x7c00, "sat: Inf again");
	pid = fork();
	if (pid == 0)
		_exit(sat_child());
	status = -1;
	waitpid(pid, &status, 0);
	TAP_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : 255, 0,
	       "sat: a device opened after aclrtSetDeviceSatMode takes the process's mode");
	aclrtFree(a);
	aclrtFree(b);
	HcclCommDestroy(c);
}

static void test_reset_event(uint32_t ndev)
{
	aclrtEventRecordedStatus es;
	aclrtStream s;
	aclrtEvent e;
	float ms = -1;

	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "reset event: aclrtSetDevice(0)");
	TAP_EQ(aclrtCreateStream(&s), ACL_SUCCESS, "reset event: a stream");
	TAP_EQ(aclrtCreateEvent(&e), ACL_SUCCESS, "reset event: an event");
	TAP_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS, "reset event: recorded");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "reset event: the record ran");
	TAP_EQ(aclrtEventElapsedTime(&ms, e, e), ACL_SUCCESS, "reset event: it has a time");
	TAP_EQ(aclrtResetEvent(e, s), ACL_SUCCESS, "aclrtResetEvent");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "reset event: the reset ran");
	TAP_EQ(aclrtEventElapsedTime(&ms, e, e), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
	       "reset event: no time any more -> ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID");
	TAP_EQ(aclrtQueryEventStatus(e, &es), ACL_SUCCESS, "reset event: query");
	TAP_EQ(es, ACL_EVENT_RECORDED_STATUS_COMPLETE, "reset event: complete, as never recorded");
	TAP_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS, "reset event: synchronize returns");
	/* A dropped record's failure is forgotten too. */
	TAP_EQ(fail_then_record(s, e), ACL_SUCCESS, "reset event: a record dropped");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT, "reset event: its stream failed");
	TAP_EQ(aclrtSynchronizeEvent(e), ACL_ERROR_RT_STREAM_ABORT, "reset event: the event failed");
	TAP_EQ(aclrtResetEvent(e, s), ACL_SUCCESS, "reset event: reset");
	TAP_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS, "reset event: ran");
	TAP_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS, "reset event: the failure is gone");
	TAP_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS, "reset event: recorded again");
	TAP_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS, "reset event: synchronized");
	TAP_EQ(aclrtEventElapsedTime(&ms, e, e), ACL_SUCCESS, "reset event: a time again");
	if (ndev > 1) {
		aclrtStream s1;

		aclrtSetDevice(1);
		TAP_EQ(aclrtCreateStream(&s1), ACL_SUCCESS, "reset event: a stream of device 1");
		TAP_EQ(aclrtResetEvent(e, s1), ACL_ERROR_INVALID_PARAM,
		       "aclrtResetEvent: another device's stream -> ACL_ERROR_INVALID_PARAM");
		aclrtDestroyStream(s1);
		aclrtSetDevice(0);
	}
	TAP_EQ(aclrtDestroyEvent(e), ACL_SUCCESS, "reset event: destroyed");
	TAP_EQ(aclrtResetEvent(e, s), ACL_ERROR_RT_INVALID_HANDLE, "aclrtResetEvent of a destroyed event");
	aclrtDestroyStream(s);
}

/* The file's contents, NUL-terminated (malloc'ed), or NULL. */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap ? 2 * cap : 65536);

			if (!nb)
				break;
			buf = nb;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/* The one PROF_* run directory under @dir: its timeline.json, or "". */
static void find_timeline(const char *dir, char *out, size_t len)
{
	char cmd[600];
	FILE *f;

	out[0] = '\0';
	snprintf(cmd, sizeof(cmd), "ls -d %s/PROF_*/timeline.json 2>/dev/null", dir);
	f = popen(cmd, "r");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	pclose(f);
}

/* Leave a recording behind (no aclprofStop), as a crashed process does. */
static int prof_crash_child(const char *dir)
{
	uint32_t d = 0;
	aclprofConfig *cfg;

	if (aclprofInit(dir, strlen(dir)))
		return 1;
	cfg = aclprofCreateConfig(&d, 1, ACL_AICORE_NONE, NULL, ACL_PROF_TASK_TIME);
	if (!cfg || aclprofStart(cfg))
		return 2;
	return 0;
}

/*
 * hccl/hccl_diag.h: an operator's DFX op info is its communicator's label
 * in the driver, which hcclthread-smi of another process shows; the
 * reports need a registration first, as CANN's.
 */
static void test_diag(void)
{
	struct HcclDfxOpInfo info;
	char name[128], cmd[900], *out;
	uint64_t t0, t1;
	ThreadHandle th;
	aclrtStream st;
	HcclComm c;
	int status;

	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "diag: device 0");
	c = new_comm();
	tap_ok(c != NULL, "diag: a communicator");
	if (!c)
		return;
	HcclGetCommName(c, name);
	t0 = HcommGetProfilingSysCycleTime();
	tap_ok(t0 > 0, "HcommGetProfilingSysCycleTime: a time");
	TAP_EQ(aclrtCreateStream(&st), ACL_SUCCESS, "diag: the user's stream");
	CHECK_HCCL(HcclThreadAcquireWithStream(c, COMM_ENGINE_CPU_TS, st, 1, &th), HCCL_SUCCESS,
		   "diag: wrapped as the host thread");
	/* Reports before any registration: CANN's skip, success. */
	CHECK_HCCL(HcclProfilingReportOp(c, t0), HCCL_SUCCESS, "ReportOp with nothing registered: skipped");
	CHECK_HCCL(HcclReportAicpuKernel(c, t0, (char *)"k"), HCCL_SUCCESS,
		   "ReportAicpuKernel with nothing registered: skipped");
	memset(&info, 0, sizeof(info));
	info.opType = HCCL_CMD_ALLGATHER;
	info.dataType = HCCL_DATA_TYPE_FP32;
	info.dataCount = 4096;
	info.root = ~0U;
	info.engine = COMM_ENGINE_AICPU_TS;
	info.cpuTsThread = th;
	snprintf(info.algTag, sizeof(info.algTag), "libtest_allgather_ring");
	CHECK_HCCL(HcclDfxRegOpInfoByCommId(NULL, &info), HCCL_E_PTR, "RegOpInfo: commId NULL -> HCCL_E_PTR");
	CHECK_HCCL(HcclDfxRegOpInfoByCommId((char *)"no such comm", &info), HCCL_E_NOT_FOUND,
		   "RegOpInfo: an unknown name -> HCCL_E_NOT_FOUND");
	CHECK_HCCL(HcclDfxRegOpInfoByCommId(name, NULL), HCCL_E_PTR, "RegOpInfo: info NULL -> HCCL_E_PTR");
	info.cpuTsThread = 12345;
	CHECK_HCCL(HcclDfxRegOpInfoByCommId(name, &info), HCCL_E_PTR,
		   "RegOpInfo: a cpuTsThread that is no thread -> HCCL_E_PTR");
	info.cpuTsThread = th;
	CHECK_HCCL(HcclDfxRegOpInfoByCommId(name, &info), HCCL_SUCCESS, "RegOpInfo: registered");
	tap_ok(info.beginTime >= t0 && info.beginTime <= HcommGetProfilingSysCycleTime(),
	       "RegOpInfo: beginTime set to the profiling clock");
	CHECK_HCCL(HcclReportAicpuKernel(NULL, t0, (char *)"k"), HCCL_E_PTR, "ReportAicpuKernel: comm NULL");
	CHECK_HCCL(HcclReportAicpuKernel(c, t0, NULL), HCCL_E_PTR, "ReportAicpuKernel: name NULL");
	CHECK_HCCL(HcclReportAicpuKernel(c, info.beginTime, (char *)"LibtestAllGatherKernel"), HCCL_SUCCESS,
		   "ReportAicpuKernel");
	CHECK_HCCL(HcclReportAivKernel(NULL, t0), HCCL_E_PTR, "ReportAivKernel: comm NULL");
	CHECK_HCCL(HcclReportAivKernel(c, t0), HCCL_E_NOT_SUPPORT, "ReportAivKernel on A2 -> HCCL_E_NOT_SUPPORT");
	/* hcclthread-smi, another process, shows the label. */
	snprintf(cmd, sizeof(cmd), "[ -x /opt/hcclt/bin/hcclthread-smi ] || exit 77; "
		 "/opt/hcclt/bin/hcclthread-smi > /tmp/hcclt-libtest-smi.txt && "
		 "/opt/hcclt/bin/hcclthread-smi --json > /tmp/hcclt-libtest-smi.json");
	status = system(cmd);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77) {
		tap_skip("diag: hcclthread-smi not installed");
	} else {
		out = slurp("/tmp/hcclt-libtest-smi.txt");
		tap_ok(out && strstr(out, "OP #1 allgather count 4096  phase kernel") &&
		       strstr(out, "tag \"libtest_allgather_ring\"") &&
		       strstr(out, "kernel \"LibtestAllGatherKernel\""),
		       "hcclthread-smi shows the operator, its phase, tag and kernel");
		if (out && !strstr(out, "OP #1"))
			printf("# %s\n", out);
		free(out);
		out = slurp("/tmp/hcclt-libtest-smi.json");
		tap_ok(out && strstr(out, "\"op\":{\"index\":1,\"type\":6,\"type_name\":\"allgather\","
					   "\"phase\":\"kernel\"") &&
		       strstr(out, "\"alg_tag\":\"libtest_allgather_ring\""),
		       "hcclthread-smi --json shows it");
		free(out);
	}
	t1 = HcommGetProfilingSysCycleTime();
	CHECK_HCCL(HcclProfilingReportOp(NULL, t1), HCCL_E_PTR, "ReportOp: comm NULL");
	CHECK_HCCL(HcclProfilingReportOp(c, t1 + 3600ull * 1000000000ull), HCCL_E_PARA,
		   "ReportOp: a begin after now -> HCCL_E_PARA");
	CHECK_HCCL(HcclProfilingReportOp(c, info.beginTime), HCCL_SUCCESS, "ReportOp");
	if (!system("/opt/hcclt/bin/hcclthread-smi > /tmp/hcclt-libtest-smi.txt 2>&1")) {
		out = slurp("/tmp/hcclt-libtest-smi.txt");
		tap_ok(out && strstr(out, "phase reported"), "hcclthread-smi: phase reported");
		free(out);
	}
	info.opType = HCCL_CMD_BROADCAST;
	info.cpuTsThread = 0;
	CHECK_HCCL(HcclDfxRegOpInfoByCommId(name, &info), HCCL_SUCCESS, "RegOpInfo: the next operator");
	HcclCommDestroy(c);
	CHECK_HCCL(HcclDfxRegOpInfoByCommId(name, &info), HCCL_E_NOT_FOUND,
		   "RegOpInfo: a destroyed communicator's name -> HCCL_E_NOT_FOUND");
	CHECK_HCCL(HcclProfilingReportOp(c, t1), HCCL_E_PTR, "ReportOp: a destroyed communicator");
	aclrtDestroyStream(st);
	unlink("/tmp/hcclt-libtest-smi.txt");
	unlink("/tmp/hcclt-libtest-smi.json");
}

static void test_prof(uint32_t ndev)
{
	static const char dir[] = "/tmp/hcclt-libtest-prof";
	uint64_t sw = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS |
		      ACL_PROF_AICPU | ACL_PROF_HCCL_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API;
	char file[700], cmd[800], inst[128];
	aclprofConfig *cfg, *other;
	uint32_t devs[2] = { 0, 1 };
	ThreadHandle th[2];
	HcclComm c;
	char *json;
	int status;
	pid_t pid;

	if (access("/sys/kernel/tracing/events/hcclthread", F_OK)) {
		tap_skip("aclprof: no hcclthread tracepoints in /sys/kernel/tracing");
		return;
	}
	if (system("rm -rf /tmp/hcclt-libtest-prof"))
		printf("# could not clean %s\n", dir);
	/* HCCL Test's sequence: init, a config of its device, start, stop, finalize. */
	TAP_EQ(aclprofInit(dir, strlen(dir)), ACL_SUCCESS, "aclprofInit");
	cfg = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, sw);
	other = aclprofCreateConfig(devs, 1, ACL_AICORE_PIPE_UTILIZATION, NULL, ACL_PROF_TASK_TIME);
	tap_ok(cfg && other, "aclprofCreateConfig: device 0, HCCL Test's switches");
	/* A recording some process left behind is removed by the next start. */
	pid = fork();
	if (pid == 0)
		_exit(prof_crash_child(dir));
	status = -1;
	waitpid(pid, &status, 0);
	snprintf(inst, sizeof(inst), "/sys/kernel/tracing/instances/hcclthread-aclprof-%d-0", (int)pid);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status) && !access(inst, F_OK),
	       "aclprof: a process that died recording left its tracefs instance");
	TAP_EQ(aclprofStart(cfg), ACL_SUCCESS, "aclprofStart");
	tap_ok(access(inst, F_OK) != 0, "aclprof: aclprofStart removed the dead process's instance");
	TAP_EQ(aclprofStart(cfg), ACL_ERROR_PROF_ALREADY_RUN, "aclprofStart of a device recording -> ACL_ERROR_PROF_ALREADY_RUN");
	/* Work to record: a record/wait handshake and a copy on device 0. */
	TAP_EQ(aclrtSetDevice(0), ACL_SUCCESS, "aclprof: device 0");
	c = new_comm();
	CHECK_HCCL(HcclThreadAcquire(c, COMM_ENGINE_CPU, 2, 1, th), HCCL_SUCCESS, "aclprof: two threads");
	CHECK_HCCL(HcommThreadNotifyWaitOnThread(th[0], 0, 30), HCCL_SUCCESS, "aclprof: thread 0 waits");
	CHECK_HCCL(HcommThreadNotifyRecordOnThread(th[1], th[0], 0), HCCL_SUCCESS, "aclprof: thread 1 records it");
	TAP_EQ(hccltThreadSynchronize(th[0], -1), ACL_SUCCESS, "aclprof: the handshake ran");
	{
		/* An operator's reports (hccl/hccl_diag.h) land in the timeline. */
		struct HcclDfxOpInfo info;
		char name[128];
		uint64_t t0 = HcommGetProfilingSysCycleTime();

		memset(&info, 0, sizeof(info));
		info.opType = HCCL_CMD_ALLREDUCE;
		snprintf(info.algTag, sizeof(info.algTag), "prof_tag");
		HcclGetCommName(c, name);
		CHECK_HCCL(HcclDfxRegOpInfoByCommId(name, &info), HCCL_SUCCESS, "aclprof: an operator registered");
		CHECK_HCCL(HcclReportAicpuKernel(c, t0, (char *)"ProfKernel"), HCCL_SUCCESS,
			   "aclprof: its kernel reported");
		CHECK_HCCL(HcclProfilingReportOp(c, t0), HCCL_SUCCESS, "aclprof: its issue reported");
	}
	if (ndev > 1) {
		/* Device 1's tasks are not device 0's timeline. */
		aclrtStream s1;
		aclrtEvent e1;

		aclrtSetDevice(1);
		if (!aclrtCreateStream(&s1) && !aclrtCreateEvent(&e1)) {
			aclrtRecordEvent(e1, s1);
			aclrtSynchronizeStream(s1);
			aclrtDestroyEvent(e1);
			aclrtDestroyStream(s1);
		}
		aclrtSetDevice(0);
	}
	TAP_EQ(aclprofStop(other), ACL_ERROR_INVALID_PROFILING_CONFIG,
	       "aclprofStop with another dataTypeConfig -> ACL_ERROR_INVALID_PROFILING_CONFIG");
	TAP_EQ(aclprofStop(cfg), ACL_SUCCESS, "aclprofStop");
	find_timeline(dir, file, sizeof(file));
	tap_ok(file[0] != '\0', "aclprof: %s/PROF_*/timeline.json written", dir);
	json = file[0] ? slurp(file) : NULL;
	tap_ok(json && strstr(json, "\"traceEvents\"") && strstr(json, "libhcclthread aclprof"),
	       "aclprof: a Chrome/Perfetto trace of this library");
	tap_ok(json && strstr(json, "\"name\":\"record\"") && strstr(json, "\"name\":\"wait\"") &&
	       strstr(json, "\"ph\":\"s\"") && strstr(json, "\"ph\":\"f\""),
	       "aclprof: the record and the wait, and the arrow between them");
	tap_ok(json && !strstr(json, "\"args\":{\"dev\":1,"), "aclprof: only device 0's tasks");
	tap_ok(json && strstr(json, "\"name\":\"register #1 prof_tag\"") &&
	       strstr(json, "\"name\":\"kernel ProfKernel\",\"cat\":\"op\",\"pid\":3") &&
	       strstr(json, "\"name\":\"op #1 prof_tag\",\"cat\":\"op\",\"pid\":3"),
	       "aclprof: the operator's registration, kernel and issue reports on its communicator's row");
	free(json);
	snprintf(cmd, sizeof(cmd), "[ -x /opt/hcclt/bin/hcclt-trace-check ] || exit 77; "
		 "/opt/hcclt/bin/hcclt-trace-check '%s' >/dev/null", file);
	status = system(cmd);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		tap_skip("aclprof: hcclt-trace-check not installed");
	else
		tap_ok(WIFEXITED(status) && !WEXITSTATUS(status), "aclprof: hcclt-trace-check accepts the timeline");
	snprintf(inst, sizeof(inst), "/sys/kernel/tracing/instances/hcclthread-aclprof-%d-0", (int)getpid());
	tap_ok(access(inst, F_OK) != 0, "aclprof: aclprofStop removed its tracefs instance");
	/* A start left running: aclprofFinalize stops it and writes it. */
	TAP_EQ(aclprofStart(cfg), ACL_SUCCESS, "aclprofStart again");
	TAP_EQ(aclprofFinalize(), ACL_SUCCESS, "aclprofFinalize with a recording running");
	snprintf(cmd, sizeof(cmd), "[ $(ls -d %s/PROF_*/timeline.json | wc -l) = 2 ]", dir);
	tap_ok(system(cmd) == 0, "aclprof: aclprofFinalize wrote the second timeline");
	TAP_EQ(aclprofStart(cfg), ACL_ERROR_PROF_NOT_RUN, "aclprofStart after aclprofFinalize -> ACL_ERROR_PROF_NOT_RUN");
	TAP_EQ(aclprofDestroyConfig(cfg), ACL_SUCCESS, "aclprofDestroyConfig");
	aclprofDestroyConfig(other);
	HcclCommDestroy(c);
	if (system("rm -rf /tmp/hcclt-libtest-prof"))
		printf("# could not remove %s\n", dir);
}

int main(void)
{
	hccltDeviceUsage end;
	uint32_t n = 0;
	int small;

	hccltGetDeviceCount(&n);
	if (!n) {
		printf("1..0 # SKIP no hcclthread device (module not loaded?)\n");
		return 4;
	}
	printf("# %u hcclthread device(s)\n", n);
	test_devices();
	if (rules_id() != HCCLT_QUOTA_RULES_SEED) {
		/* A later rule set (quota_rules=): its own tests only. */
		test_quota_rules();
		end = devusage();
		tap_ok(end.streamsUsed == dev0.streamsUsed && end.notifiesUsed == dev0.notifiesUsed &&
		       end.comms == dev0.comms, "at the end the device pools are back at their start values");
		return tap_done();
	}
	test_memory();
	test_meminfo();
	test_vmm(n);
	test_hccl_buffer();
	/*
	 * The full run needs about 100 streams and 200 notifies; a module
	 * loaded with small pools (sim_streams=32 sim_notifies=64) runs the
	 * pool exhaustion tests instead.
	 */
	small = dev0.streamsTotal - dev0.streamsUsed <= 200 ||
		dev0.notifiesTotal - dev0.notifiesUsed <= 2000;
	if (small) {
		printf("# small device pools (%u streams, %u notifies): pool tests only\n",
		       dev0.streamsTotal, dev0.notifiesTotal);
		test_pools();
	} else {
		test_acquire();
		test_quota_rules();
		test_race();
		test_with_stream_export();
		test_record_wait();
		test_fork();
		test_wrapped_destroy();
		test_pingpong();
		test_sync_skip();
		test_open_race();
		test_info_cap();
		test_fuzz();
		test_multidev(n);
		test_ranks(n);
		test_kernels();
		test_events();
		test_runtime_calls(n);
		test_reset_event(n);
		test_failure_modes(n);
		test_sat_mode();
		test_diag();
		test_prof(n);
		tap_skip("device pool exhaustion (load with sim_streams=32 sim_notifies=64)");
	}
	end = devusage();
	tap_ok(end.streamsUsed == dev0.streamsUsed && end.notifiesUsed == dev0.notifiesUsed && end.comms == dev0.comms,
	       "at the end the device pools are back at their start values (%u streams, %u notifies, %u comms)",
	       end.streamsUsed, end.notifiesUsed, end.comms);
	return tap_done();
}
