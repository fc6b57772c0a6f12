// SPDX-License-Identifier: GPL-2.0
/*
 * hcclthread execution selftests: notify record/wait on streams, binary
 * notify semantics, timeouts, synchronize, batch validation (one test per
 * documented error), queue depth, fences, cancellation and process death.
 *
 * Written against uapi/drm/hcclthread_accel.h only (raw ioctls).
 */
#define _GNU_SOURCE
#include <linux/sync_file.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

FIXTURE(exec) {
	int fd;
	struct drm_hcclt_query q0;
	__u64 comm;
	__u64 a, b;	/* CPU threads, 2 notifies each */
	__u64 z;	/* CPU thread without notifies */
	__u64 k;	/* AICPU thread, 2 notifies */
};

FIXTURE_SETUP(exec)
{
	__u64 th[2];

	self->fd = hcclt_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, hcclt_query(self->fd, &self->q0));
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU, 2, 2,
				   th));
	self->a = th[0];
	self->b = th[1];
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU, 1, 0,
				   &self->z));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_AICPU, 1,
				   2, &self->k));
}

FIXTURE_TEARDOWN(exec)
{
	close(self->fd);
}

static int depth_of(int fd, __u64 t)
{
	struct drm_hcclt_thread_info ti;

	if (hcclt_thread_info(fd, t, &ti))
		return -1;
	return ti.queue_depth;
}

static int submit_raw(int fd, __u64 handle, const void *tasks, __u32 n,
		      __u32 size, __u32 flags)
{
	struct drm_hcclt_submit s;

	memset(&s, 0, sizeof(s));
	s.handle = handle;
	s.tasks_ptr = (__u64)(uintptr_t)tasks;
	s.task_count = n;
	s.task_size = size;
	s.flags = flags;
	s.fence_fd = -1;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &s);
}

/* Submit @n tasks; the whole argument comes back in @out. */
static int submit_out(int fd, __u64 handle, const struct drm_hcclt_task *t,
		      __u32 n, struct drm_hcclt_submit *out)
{
	memset(out, 0, sizeof(*out));
	out->handle = handle;
	out->tasks_ptr = (__u64)(uintptr_t)t;
	out->task_count = n;
	out->task_size = sizeof(*t);
	out->fence_fd = -1;
	/* out-only fields: whatever comes in is overwritten */
	out->stream_id = ~0ULL;
	out->status = ~0U;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, out);
}

/* ------------------------------------------------------------------ */
/* Record / wait                                                      */

TEST_F(exec, record_then_wait)
{
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
	EXPECT_EQ(0, depth_of(self->fd, self->b));
}

TEST_F(exec, wait_then_record)
{
	struct drm_hcclt_thread_info ti;

	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 1, 0));
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->b, HCCLT_STATE_PARKED,
				      &ti, 5000));
	EXPECT_EQ(1, ti.wait_notify);
	EXPECT_EQ(1, ti.queue_depth);
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 0));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
	ASSERT_EQ(0, hcclt_thread_info(self->fd, self->b, &ti));
	EXPECT_EQ(HCCLT_STATE_IDLE, ti.state);
	EXPECT_EQ(0, ti.queue_depth);
}

TEST_F(exec, record_to_self)
{
	struct drm_hcclt_task t[2] = { hcclt_rec(self->a, 1), hcclt_wait(1, 0) };

	ASSERT_EQ(0, hcclt_submit(self->fd, self->a, t, 2));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
}

TEST_F(exec, binary_two_records_release_one_wait)
{
	struct drm_hcclt_task r[2] = { hcclt_rec(self->b, 0),
				       hcclt_rec(self->b, 0) };

	ASSERT_EQ(0, hcclt_submit(self->fd, self->a, r, 2));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	/* the first wait consumed the flag; the second blocks */
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 300));
	EXPECT_EQ(1, depth_of(self->fd, self->b));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F(exec, notifies_are_independent)
{
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 1));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 200));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
	/* notify 1 is still set */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 1, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F(exec, tasks_of_a_stream_run_in_order)
{
	struct drm_hcclt_task t[2] = { hcclt_wait(0, 0), hcclt_rec(self->b, 0) };

	/* b waits on a record that a queues behind a's own wait */
	ASSERT_EQ(0, hcclt_submit(self->fd, self->a, t, 2));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 200));
	EXPECT_EQ(2, depth_of(self->fd, self->a));
	/* streams run concurrently: the parked a does not block z */
	ASSERT_EQ(0, hcclt_record(self->fd, self->z, self->a, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->z, 5000));
	ASSERT_EQ(0, hcclt_record(self->fd, self->z, self->a, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F(exec, seqno_counts_tasks)
{
	struct drm_hcclt_task t[3] = { hcclt_rec(self->b, 0),
		hcclt_rec(self->b, 1), hcclt_rec(self->b, 0) };
	__u64 s1 = 0, s2 = 0;

	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->a, t, 3, 0, NULL, &s1));
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->a, t, 2, 0, NULL, &s2));
	EXPECT_EQ(s1 + 2, s2);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
}

struct pp_arg {
	int fd;
	__u64 me, peer;
	int first;	/* records first, then waits */
	int rounds;
	int err;
	int done;
};

static void *pingpong(void *p)
{
	struct pp_arg *a = p;
	struct drm_hcclt_task t[2];
	int i, ret;

	if (a->first) {
		t[0] = hcclt_rec(a->peer, 0);
		t[1] = hcclt_wait(0, 0);
	} else {
		t[0] = hcclt_wait(0, 0);
		t[1] = hcclt_rec(a->peer, 0);
	}
	for (i = 0; i < a->rounds; i++) {
		ret = hcclt_submit(a->fd, a->me, t, 2);
		if (!ret)
			ret = hcclt_sync(a->fd, a->me, 20000);
		if (ret) {
			a->err = ret;
			break;
		}
		a->done++;
	}
	return NULL;
}

TEST_F_TIMEOUT(exec, pingpong_1000_rounds, 300)
{
	const char *env = getenv("HCCLT_PINGPONG_ROUNDS");
	int rounds = env ? atoi(env) : 1000;
	struct pp_arg x = { self->fd, self->a, self->b, 1, rounds, 0, 0 };
	struct pp_arg y = { self->fd, self->b, self->a, 0, rounds, 0, 0 };
	long long t0 = hcclt_now_ms();
	pthread_t px, py;

	ASSERT_EQ(0, pthread_create(&px, NULL, pingpong, &x));
	ASSERT_EQ(0, pthread_create(&py, NULL, pingpong, &y));
	pthread_join(px, NULL);
	pthread_join(py, NULL);
	EXPECT_EQ(0, x.err);
	EXPECT_EQ(0, y.err);
	EXPECT_EQ(rounds, x.done);
	EXPECT_EQ(rounds, y.done);
	TH_LOG("%d rounds in %lld ms", rounds, hcclt_now_ms() - t0);
	EXPECT_EQ(0, depth_of(self->fd, self->a));
	EXPECT_EQ(0, depth_of(self->fd, self->b));
}

/* ------------------------------------------------------------------ */
/* Timeouts and synchronize                                           */

TEST_F_TIMEOUT(exec, wait_timeout_reported_once, 60)
{
	struct drm_hcclt_task t[2] = { hcclt_wait(0, 1), hcclt_rec(self->a, 0) };
	struct drm_hcclt_thread_info ti;
	long long t0;

	ASSERT_EQ(0, hcclt_waitq(self->fd, self->a, 0, 0));
	t0 = hcclt_now_ms();
	ASSERT_EQ(0, hcclt_submit(self->fd, self->b, t, 2));
	/* the failed stream is in the error state until the next sync */
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->b, HCCLT_STATE_ERROR,
				      &ti, 10000)) {
		TH_LOG("state %u", ti.state);
	}
	EXPECT_LE(800, hcclt_now_ms() - t0);
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->b, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
	ASSERT_EQ(0, hcclt_thread_info(self->fd, self->b, &ti));
	EXPECT_EQ(HCCLT_STATE_IDLE, ti.state);
	EXPECT_EQ(0, ti.queue_depth);
	/*
	 * The record queued behind the failed wait was dropped: a's wait,
	 * which only that record would have released, fails in its place
	 * with its error (uAPI 1.4), once.
	 */
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->a, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 200));
	/* b is usable again */
	ASSERT_EQ(0, hcclt_record(self->fd, self->b, self->a, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F_TIMEOUT(exec, sync_blocks_until_wait_times_out, 60)
{
	long long t0;

	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 1));
	t0 = hcclt_now_ms();
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->b, -1));
	EXPECT_LE(800, hcclt_now_ms() - t0);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, -1));
}

TEST_F(exec, wait_with_timeout_satisfied_in_time)
{
	/* A timeout no host is slow enough to reach before the record. */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, HCCLT_SLOW_MS / 1000));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 10000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 0));
}

TEST_F(exec, sync_timeout_100ms_then_success)
{
	long long t0;

	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	t0 = hcclt_now_ms();
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 100));
	/* a jiffy early and TCG clock skew are tolerated */
	EXPECT_LE(80, hcclt_now_ms() - t0);
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 0));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F(exec, sync_idle_and_by_stream_id)
{
	struct drm_hcclt_thread_info ti;

	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, -1));
	ASSERT_EQ(0, hcclt_thread_info(self->fd, self->b, &ti));
	/* the owned stream's id works for sync too */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, ti.stream_id, 50));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, ti.stream_id, 5000));
}

static int sync_raw(int fd, __u64 h, __s32 tmo, __u32 flags, __s32 *left)
{
	struct drm_hcclt_stream_sync s;
	int ret;

	memset(&s, 0, sizeof(s));
	s.handle = h;
	s.timeout_ms = tmo;
	s.flags = flags;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_SYNC, &s);
	if (left)
		*left = s.timeout_ms;
	return ret;
}

TEST_F(exec, sync_flags_einval)
{
	EXPECT_EQ(-EINVAL, sync_raw(self->fd, self->a, 0, 2, NULL));
	EXPECT_EQ(-EINVAL, sync_raw(self->fd, self->a, 0, 0x80000000U, NULL));
}

TEST_F(exec, sync_timeout_below_minus_one_einval)
{
	EXPECT_EQ(-EINVAL, sync_raw(self->fd, self->a, -2, 0, NULL));
	EXPECT_EQ(-EINVAL, sync_raw(self->fd, self->a, INT_MIN, 0, NULL));
}

TEST_F(exec, sync_unknown_handle_enoent)
{
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, 0, 0));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd,
				      HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD), 0));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, self->comm, 0));
}

static void on_alarm(int sig)
{
	(void)sig;
}

TEST_F(exec, sync_interrupted_updates_timeout)
{
	struct sigaction sa;
	__s32 left = 0;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: we see -EINTR */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	alarm(1);
	ret = sync_raw(self->fd, self->b, 20000, 0, &left);
	alarm(0);
	EXPECT_EQ(-EINTR, ret);
	EXPECT_LT(0, left);
	EXPECT_GT(20000, left);
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

/* ---- STREAM_SYNC with an absolute deadline (HCCLT_WAIT_DEADLINE) ---- */

static int sync_abs_ex(int fd, __u64 h, __u32 flags, __s32 tmo,
		       __s64 deadline, struct drm_hcclt_stream_sync *out)
{
	struct drm_hcclt_stream_sync s;
	int ret;

	memset(&s, 0, sizeof(s));
	s.handle = h;
	s.flags = flags;
	s.timeout_ms = tmo;
	s.deadline_ns = deadline;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_SYNC, &s);
	if (out)
		*out = s;
	return ret;
}

static int sync_abs(int fd, __u64 h, __s64 deadline)
{
	return sync_abs_ex(fd, h, HCCLT_WAIT_DEADLINE, 0, deadline, NULL);
}

TEST_F(exec, sync_deadline_checks)
{
	EXPECT_NE(0, self->q0.features & HCCLT_FEATURE_WAIT_DEADLINE);
	/* With the flag, timeout_ms must be zero and the deadline >= 0. */
	EXPECT_EQ(-EINVAL, sync_abs_ex(self->fd, self->a, HCCLT_WAIT_DEADLINE,
				       5, HCCLT_DEADLINE_NONE, NULL));
	EXPECT_EQ(-EINVAL, sync_abs_ex(self->fd, self->a, HCCLT_WAIT_DEADLINE,
				       -1, HCCLT_DEADLINE_NONE, NULL));
	EXPECT_EQ(-EINVAL, sync_abs(self->fd, self->a, -1));
	EXPECT_EQ(-EINVAL, sync_abs(self->fd, self->a, INT64_MIN));
	/* Without it, the deadline field is reserved. */
	EXPECT_EQ(-EINVAL, sync_abs_ex(self->fd, self->a, 0, 0, 1, NULL));
	EXPECT_EQ(-EINVAL, sync_abs_ex(self->fd, self->a, 0, -1,
				       HCCLT_DEADLINE_NONE, NULL));
	/* Unknown bits with it. */
	EXPECT_EQ(-EINVAL, sync_abs_ex(self->fd, self->a,
				       HCCLT_WAIT_DEADLINE | 2, 0, 0, NULL));
	/* Argument checks come before the handle. */
	EXPECT_EQ(-EINVAL, sync_abs(self->fd, 0, -1));
	EXPECT_EQ(-ENOENT, sync_abs(self->fd, 0, 0));
	EXPECT_EQ(-ENOENT, sync_abs(self->fd, self->comm, HCCLT_DEADLINE_NONE));
}

/* A deadline that passes first is -ETIME; the tasks stay queued. */
TEST_F_TIMEOUT(exec, sync_deadline_passes_etime, 60)
{
	__s64 t0;

	/* Idle: 0 even with a deadline long past. */
	EXPECT_EQ(0, sync_abs(self->fd, self->b, 0));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	EXPECT_EQ(-ETIME, sync_abs(self->fd, self->b, 0));
	EXPECT_EQ(-ETIME, sync_abs(self->fd, self->b, hcclt_now_ns() - 1000000));
	t0 = hcclt_now_ns();
	EXPECT_EQ(-ETIME, sync_abs(self->fd, self->b, t0 + 200000000LL));
	EXPECT_LE(t0 + 200000000LL, hcclt_now_ns());
	EXPECT_EQ(1, depth_of(self->fd, self->b));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, sync_abs(self->fd, self->b, HCCLT_DEADLINE_NONE));
	EXPECT_EQ(0, sync_abs(self->fd, self->b, hcclt_now_ns() + 1000000000LL));
}

/* A wait task that timed out is -ETIMEDOUT with the flag, once. */
TEST_F_TIMEOUT(exec, sync_deadline_wait_task_timeout_etimedout, 60)
{
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 1));
	EXPECT_EQ(-ETIMEDOUT, sync_abs(self->fd, self->b, HCCLT_DEADLINE_NONE));
	EXPECT_EQ(0, sync_abs(self->fd, self->b, HCCLT_DEADLINE_NONE));
	/* Reported once also when the sync only looks. */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 1));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->b, -1));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 1));
	EXPECT_EQ(-ETIMEDOUT, sync_abs(self->fd, self->b,
				       hcclt_now_ns() + 30000000000LL));
	EXPECT_EQ(0, sync_abs(self->fd, self->b, 0));
}

/*
 * Interrupted: nothing is written back; restarted (SA_RESTART), the call
 * ends at the same deadline.
 */
TEST_F_TIMEOUT(exec, sync_deadline_interrupted, 60)
{
	struct drm_hcclt_stream_sync out;
	struct sigaction sa;
	__s64 deadline;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;	/* no SA_RESTART: we see -EINTR */
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	deadline = hcclt_now_ns() + 20000000000LL;
	ualarm(200000, 0);
	ret = sync_abs_ex(self->fd, self->b, HCCLT_WAIT_DEADLINE, 0, deadline,
			  &out);
	EXPECT_EQ(-EINTR, ret);
	EXPECT_EQ(deadline, out.deadline_ns);
	EXPECT_EQ(0, out.timeout_ms);
	EXPECT_EQ(HCCLT_WAIT_DEADLINE, out.flags);
	/* Restarted by the kernel: still ends at its deadline. */
	sa.sa_flags = SA_RESTART;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	deadline = hcclt_now_ns() + 1000000000LL;
	ualarm(200000, 0);
	ret = sync_abs_ex(self->fd, self->b, HCCLT_WAIT_DEADLINE, 0, deadline,
			  &out);
	EXPECT_EQ(-ETIME, ret);
	EXPECT_LE(deadline, hcclt_now_ns());
	EXPECT_EQ(deadline, out.deadline_ns);
	signal(SIGALRM, SIG_DFL);
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, sync_abs(self->fd, self->b, HCCLT_DEADLINE_NONE));
}

/* A caller built before uAPI 1.3 (16-byte struct) keeps working. */
TEST_F(exec, sync_v1_2_size)
{
	struct {
		__u64 handle;
		__s32 timeout_ms;
		__u32 flags;
	} old = { self->b, 0, 0 };
	unsigned long req = _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
				 DRM_COMMAND_BASE + DRM_HCCLT_STREAM_SYNC,
				 sizeof(old));

	EXPECT_EQ(0, hcclt_ioctl(self->fd, req, &old));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	EXPECT_EQ(-ETIMEDOUT, hcclt_ioctl(self->fd, req, &old));
	old.timeout_ms = 100;
	EXPECT_EQ(-ETIMEDOUT, hcclt_ioctl(self->fd, req, &old));
	EXPECT_EQ(0, old.timeout_ms);
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	old.timeout_ms = -1;
	EXPECT_EQ(0, hcclt_ioctl(self->fd, req, &old));
}

#define SPIN_PARAM "/sys/module/hcclthread/parameters/sync_spin_us"

static long read_long(const char *path)
{
	FILE *f = fopen(path, "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int write_long(const char *path, long v)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = fprintf(f, "%ld\n", v) < 0 ? -EIO : 0;
	if (fclose(f))
		ret = -errno;
	return ret;
}

/* Sum of "syncs waited: S spun, L slept" over the devices' debugfs. */
static int sync_counts(long *spun, long *slept)
{
	char path[300], line[128];
	int dev, found = 0;

	*spun = 0;
	*slept = 0;
	for (dev = 0; !hcclt_debugfs_state(dev, path, sizeof(path)); dev++) {
		FILE *f;

		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			long a, b;

			if (sscanf(line, "syncs waited: %ld spun, %ld slept",
				   &a, &b) == 2) {
				*spun += a;
				*slept += b;
				found = 1;
			}
		}
		fclose(f);
	}
	return found ? 0 : -1;
}

/* The first two CPUs this task may run on, or -1. */
static int two_cpus(int cpu[2])
{
	cpu_set_t set;
	int c, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (c = 0; c < CPU_SETSIZE && n < 2; c++)
		if (CPU_ISSET(c, &set))
			cpu[n++] = c;
	return n == 2 ? 0 : -1;
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

struct releaser {
	int fd;
	__u64 src, dst;
	_Atomic int ready;	/* 1: running on its CPU */
	_Atomic int go;		/* 1: the main thread is about to sync */
	int ret;
};

/* On the other CPU: once told, wait about 100 us, then record. */
static void *release_soon(void *p)
{
	struct releaser *r = p;
	struct timespec t0, t;

	atomic_store(&r->ready, 1);
	while (!atomic_load(&r->go))
		;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + t.tv_nsec - t0.tv_nsec <
	       100000);
	r->ret = hcclt_record(r->fd, r->src, r->dst, 0);
	return NULL;
}

/*
 * One parked wait released from CPU @other while the caller (pinned to
 * another CPU) syncs on it; returns the sync's result and adds to the
 * spun/slept counts it caused.
 */
static int sync_released_from(int other, int fd, __u64 a, __u64 b,
			      long *spun, long *slept)
{
	struct releaser r = { .fd = fd, .src = a, .dst = b };
	long s0, l0, s1, l1;
	pthread_attr_t attr;
	cpu_set_t set;
	pthread_t pt;
	int ret;

	if (hcclt_waitq(fd, b, 0, 0) || sync_counts(&s0, &l0))
		return -1;
	/* Never runnable on our CPU, where the sync spins only while alone. */
	CPU_ZERO(&set);
	CPU_SET(other, &set);
	if (pthread_attr_init(&attr))
		return -1;
	ret = pthread_attr_setaffinity_np(&attr, sizeof(set), &set) ||
	      pthread_create(&pt, &attr, release_soon, &r);
	pthread_attr_destroy(&attr);
	if (ret)
		return -1;
	while (!atomic_load(&r.ready))
		;
	atomic_store(&r.go, 1);
	ret = hcclt_sync(fd, b, 10000);
	pthread_join(pt, NULL);
	if (r.ret || sync_counts(&s1, &l1))
		return -1;
	*spun += s1 - s0;
	*slept += l1 - l0;
	return ret;
}

/*
 * STREAM_SYNC busy-waits up to sync_spin_us before it sleeps: with 0 it
 * always sleeps, with 1000 us a wait released from another CPU ~100 us
 * later is seen while spinning (not every time: the spin stops when
 * anything else becomes runnable on its CPU, so it is given many tries).
 */
TEST_F_TIMEOUT(exec, sync_spin_then_sleep, 240)
{
	long old = read_long(SPIN_PARAM), spun = 0, slept = 0, s, l;
	long long end;
	int cpu[2], i, ok = 1;

	if (geteuid())
		SKIP(return, "needs root (module parameter, debugfs)");
	if (access("/sys/kernel/debug", F_OK))
		SKIP(return, "debugfs not mounted");
	ASSERT_LE(0, old);
	ASSERT_EQ(0, sync_counts(&s, &l));
	if (two_cpus(cpu))
		SKIP(return, "needs 2 CPUs");
	TH_LOG("sync_spin_us was %ld (default 10)", old);
	ASSERT_EQ(0, pin_to(cpu[0]));

	ASSERT_EQ(0, write_long(SPIN_PARAM, 0));
	for (i = 0; i < 5 && ok; i++)
		ok = !sync_released_from(cpu[1], self->fd, self->a, self->b,
					 &spun, &slept);
	EXPECT_TRUE(ok);
	EXPECT_EQ(0, spun);
	EXPECT_LE(1, slept);

	spun = 0;
	slept = 0;
	ok = 1;
	EXPECT_EQ(0, write_long(SPIN_PARAM, 1000));
	/* Tries, not time: a loaded host makes each try slower. */
	end = hcclt_now_ms() + 3 * HCCLT_SLOW_MS;
	for (i = 0; i < 1000 && ok && !spun && hcclt_now_ms() < end; i++)
		ok = !sync_released_from(cpu[1], self->fd, self->a, self->b,
					 &spun, &slept);
	EXPECT_EQ(0, write_long(SPIN_PARAM, old));
	EXPECT_TRUE(ok);
	EXPECT_LE(1, spun);
	TH_LOG("sync_spin_us=1000: %ld spun, %ld slept", spun, slept);
}

/* A timed sync on a parked stream still times out with a long spin. */
TEST_F_TIMEOUT(exec, sync_spin_still_times_out, 60)
{
	long old = read_long(SPIN_PARAM);
	long long t0, dt;
	int ret;

	if (geteuid())
		SKIP(return, "needs root (module parameter)");
	ASSERT_LE(0, old);
	ASSERT_EQ(0, write_long(SPIN_PARAM, 1000));
	EXPECT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	t0 = hcclt_now_ms();
	ret = hcclt_sync(self->fd, self->b, 50);
	dt = hcclt_now_ms() - t0;
	EXPECT_EQ(0, write_long(SPIN_PARAM, old));
	EXPECT_EQ(-ETIMEDOUT, ret);
	EXPECT_LE(49, dt);
	EXPECT_GT(HCCLT_SLOW_MS, dt);
	EXPECT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

/* ------------------------------------------------------------------ */
/* Submit validation: one test per documented error                   */

/* uAPI 1.1: the stream a batch went to, and whether it is idle after. */
TEST_F_TIMEOUT(exec, submit_status_idle, 60)
{
	struct drm_hcclt_task self_rec[2] = { hcclt_rec(self->a, 0),
					      hcclt_wait(0, 0) };
	struct drm_hcclt_task w = hcclt_wait(1, 0), tw = hcclt_wait(0, 1);
	struct drm_hcclt_task r = hcclt_rec(self->a, 1);
	struct drm_hcclt_thread_info ti;
	struct drm_hcclt_submit o;
	__u64 s;

	EXPECT_TRUE(self->q0.features & HCCLT_FEATURE_SUBMIT_STATUS);
	EXPECT_LE(1, self->q0.uapi_minor);	/* 1.1 or later */
	ASSERT_EQ(0, hcclt_thread_info(self->fd, self->a, &ti));

	/* a batch that ran to its end inline */
	ASSERT_EQ(0, submit_out(self->fd, self->a, self_rec, 2, &o));
	EXPECT_EQ(HCCLT_SUBMIT_STATUS_IDLE, o.status);
	EXPECT_EQ(ti.stream_id, o.stream_id);
	EXPECT_EQ(2, o.seqno);

	/* a parked wait: not idle, and later batches are not either */
	ASSERT_EQ(0, submit_out(self->fd, self->a, &w, 1, &o));
	EXPECT_EQ(0, o.status);
	EXPECT_EQ(ti.stream_id, o.stream_id);
	ASSERT_EQ(0, submit_out(self->fd, self->a, &self_rec[0], 1, &o));
	EXPECT_EQ(0, o.status);
	/* the record from b releases a: b is idle, a completes */
	ASSERT_EQ(0, submit_out(self->fd, self->b, &r, 1, &o));
	EXPECT_EQ(HCCLT_SUBMIT_STATUS_IDLE, o.status);
	EXPECT_NE(ti.stream_id, o.stream_id);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	ASSERT_EQ(0, submit_out(self->fd, self->a, &self_rec[0], 1, &o));
	EXPECT_EQ(HCCLT_SUBMIT_STATUS_IDLE, o.status);

	/* an error STREAM_SYNC has not reported yet: not idle */
	ASSERT_EQ(0, submit_out(self->fd, self->b, &tw, 1, &o));
	EXPECT_EQ(0, o.status);
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->b, HCCLT_STATE_ERROR,
				      &ti, 10000));
	ASSERT_EQ(0, submit_out(self->fd, self->b, &r, 1, &o));
	EXPECT_EQ(0, o.status);
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->b, 5000));
	ASSERT_EQ(0, submit_out(self->fd, self->b, &r, 1, &o));
	EXPECT_EQ(HCCLT_SUBMIT_STATUS_IDLE, o.status);

	/* a record through a created stream: the stream names itself */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, submit_out(self->fd, s, &r, 1, &o));
	EXPECT_EQ(s, o.stream_id);
	EXPECT_EQ(HCCLT_SUBMIT_STATUS_IDLE, o.status);
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
}

/* The uAPI 1.0 argument (without stream_id, status, pad) still works. */
TEST_F(exec, submit_v1_0_size)
{
	struct drm_hcclt_task t[2] = { hcclt_rec(self->a, 0), hcclt_wait(0, 0) };
	const size_t v10 = offsetof(struct drm_hcclt_submit, stream_id);
	struct drm_hcclt_submit s;

	memset(&s, 0xa5, sizeof(s));
	s.handle = self->a;
	s.tasks_ptr = (__u64)(uintptr_t)t;
	s.task_count = 2;
	s.task_size = sizeof(t[0]);
	s.flags = 0;
	s.fence_fd = -1;
	ASSERT_EQ(40, v10);
	ASSERT_EQ(0, hcclt_ioctl(self->fd,
				 _IOC(_IOC_READ | _IOC_WRITE, DRM_IOCTL_BASE,
				      DRM_COMMAND_BASE + DRM_HCCLT_SUBMIT, v10),
				 &s));
	EXPECT_EQ(2, s.seqno);
	/* nothing written past the 1.0 struct */
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, s.stream_id);
	EXPECT_EQ(0xa5a5a5a5U, s.status);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
}

TEST_F(exec, submit_pad_einval)
{
	struct drm_hcclt_task t = hcclt_rec(self->b, 0);
	struct drm_hcclt_submit s;

	memset(&s, 0, sizeof(s));
	s.handle = self->a;
	s.tasks_ptr = (__u64)(uintptr_t)&t;
	s.task_count = 1;
	s.task_size = sizeof(t);
	s.fence_fd = -1;
	s.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_SUBMIT, &s));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
	s.pad = 0;
	EXPECT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_SUBMIT, &s));
}

TEST_F(exec, submit_flags_einval)
{
	struct drm_hcclt_task t = hcclt_rec(self->b, 0);

	EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, &t, 1, sizeof(t),
				      1U << 1));
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, &t, 1, sizeof(t),
				      1U << 31));
	/* flags before the handle */
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, 0, &t, 1, sizeof(t), 1U << 1));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, submit_count_above_max_einval)
{
	static struct drm_hcclt_task t[HCCLT_MAX_BATCH + 1];
	int i;

	for (i = 0; i <= HCCLT_MAX_BATCH; i++)
		t[i] = hcclt_rec(self->b, 0);
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, t, HCCLT_MAX_BATCH + 1,
				      sizeof(t[0]), 0));
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, t, ~0U, sizeof(t[0]),
				      0));
	/* count is checked before the pointer and the handle */
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, NULL, ~0U,
				      sizeof(t[0]), 0));
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, 0, t, HCCLT_MAX_BATCH + 1,
				      sizeof(t[0]), 0));
	EXPECT_EQ(0, submit_raw(self->fd, self->a, t, HCCLT_MAX_BATCH,
				sizeof(t[0]), 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 10000));
}

TEST_F(exec, submit_zero_count_einval)
{
	struct drm_hcclt_task t = hcclt_rec(self->b, 0);

	EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, &t, 0, sizeof(t), 0));
	EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, NULL, 0, sizeof(t), 0));
}

TEST_F(exec, submit_task_size_einval)
{
	static const __u32 sizes[] = { 0, 8, 16, 23, 25, 32, 4096, ~0U };
	char buf[8192] = { 0 };
	unsigned int i;

	memcpy(buf, &(struct drm_hcclt_task){ .op = HCCLT_TASK_NOTIFY_RECORD,
					      .dst_thread = self->b },
	       sizeof(struct drm_hcclt_task));
	for (i = 0; i < HCCLT_ARRAY_SIZE(sizes); i++)
		EXPECT_EQ(-EINVAL, submit_raw(self->fd, self->a, buf, 1,
					      sizes[i], 0));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, submit_unknown_handle_enoent)
{
	struct drm_hcclt_task t = hcclt_rec(self->b, 0);
	struct drm_hcclt_task w = hcclt_wait(7, 0);	/* bad index */

	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, 0, &t, 1));
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd,
					HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD),
					&t, 1));
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->comm, &t, 1));
	/* the handle is looked up before the tasks are checked */
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd,
					HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD),
					&w, 1));
}

TEST_F(exec, submit_unknown_dst_enoent)
{
	struct drm_hcclt_task t[3] = { hcclt_rec(self->b, 0),
		hcclt_rec(HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD), 0),
		hcclt_rec(self->b, 1) };
	__u64 c2, gone;

	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->a, t, 3));
	t[1].dst_thread = 0;
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->a, t, 3));
	t[1].dst_thread = self->comm;
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->a, t, 3));
	/* a thread of a destroyed communicator */
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
	ASSERT_EQ(0, hcclt_acquire(self->fd, c2, HCCLT_ENGINE_CPU, 1, 1, &gone));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c2));
	t[1].dst_thread = gone;
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->a, t, 3));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
	/* none of the good records ran */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 100));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F(exec, task_bad_op_einval)
{
	/* 3 and 4 are the channel ops (hcclt_channel.c tests them). */
	static const __u32 ops[] = { 0, 5, 0x100, ~0U };
	struct drm_hcclt_task t[3] = { hcclt_rec(self->b, 0),
		hcclt_rec(self->b, 0), hcclt_rec(self->b, 1) };
	unsigned int i;

	for (i = 0; i < HCCLT_ARRAY_SIZE(ops); i++) {
		t[1].op = ops[i];
		EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, t, 3));
	}
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, task_pad_einval)
{
	struct drm_hcclt_task t[2] = { hcclt_rec(self->b, 0), hcclt_wait(0, 0) };

	t[0].pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, t, 2));
	t[0].pad = 0;
	t[1].pad = 0x80000000U;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, t, 2));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, record_with_timeout_einval)
{
	struct drm_hcclt_task t = hcclt_rec(self->b, 0);

	t.timeout_s = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, wait_with_dst_einval)
{
	struct drm_hcclt_task t = hcclt_wait(0, 0);

	t.dst_thread = self->a;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	t.dst_thread = HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, wait_on_stream_id_einval)
{
	struct drm_hcclt_task w = hcclt_wait(0, 0);
	struct drm_hcclt_task r = hcclt_rec(self->b, 0);
	struct drm_hcclt_thread_info ti;
	__u64 s;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, s, &w, 1));
	/* also the stream id of a thread's own stream */
	ASSERT_EQ(0, hcclt_thread_info(self->fd, self->a, &ti));
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, ti.stream_id, &w, 1));
	/* records from a stream id are fine, to any engine */
	EXPECT_EQ(0, hcclt_submit(self->fd, s, &r, 1));
	r = hcclt_rec(self->k, 0);
	EXPECT_EQ(0, hcclt_submit(self->fd, s, &r, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 5000));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->k, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->k, 5000));
}

TEST_F(exec, notify_idx_out_of_range_einval)
{
	struct drm_hcclt_task t;

	t = hcclt_rec(self->b, 2);	/* b has 2 notifies */
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	t = hcclt_rec(self->b, ~0U);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	t = hcclt_rec(self->z, 0);	/* z has none */
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	/* the destination's count, not the source's */
	t = hcclt_rec(self->b, 1);
	EXPECT_EQ(0, hcclt_submit(self->fd, self->z, &t, 1));
	t = hcclt_wait(2, 0);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	t = hcclt_wait(0, 0);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->z, &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->z, 5000));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, record_engine_mismatch_einval)
{
	struct drm_hcclt_task t = hcclt_rec(self->k, 0);
	__u64 v;

	/* CPU thread a -> AICPU thread k */
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->a, &t, 1));
	t = hcclt_rec(self->a, 0);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->k, &t, 1));
	/* via k's CPU view it works */
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU, 1,
				  &self->k, &v));
	t = hcclt_rec(v, 0);
	EXPECT_EQ(0, hcclt_submit(self->fd, self->a, &t, 1));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->k, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->k, 5000));
}

TEST_F(exec, submit_efault)
{
	long pg = sysconf(_SC_PAGESIZE);
	struct drm_hcclt_task *t;
	char *map;

	EXPECT_EQ(-EFAULT, hcclt_submit(self->fd, self->a, NULL, 1));
	EXPECT_EQ(-EFAULT, hcclt_submit(self->fd, self->a,
					(void *)(uintptr_t)64, 2));
	/* first task readable, second not */
	map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(map + pg, pg));
	t = (struct drm_hcclt_task *)(map + pg) - 1;
	*t = hcclt_rec(self->b, 0);
	EXPECT_EQ(-EFAULT, hcclt_submit(self->fd, self->a, t, 2));
	EXPECT_EQ(-EFAULT, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_SUBMIT, NULL));
	munmap(map, pg);
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F(exec, batch_all_or_nothing)
{
	struct drm_hcclt_task t[4] = { hcclt_rec(self->a, 0),
		hcclt_rec(self->a, 1), hcclt_rec(self->b, 9),
		hcclt_rec(self->a, 1) };

	/* idle stream: nothing of the refused batch runs */
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->b, t, 4));
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->a, 0, 0));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->a, 100));
	/* parked stream: the queue does not grow */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	ASSERT_EQ(1, depth_of(self->fd, self->b));
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->b, t, 4));
	t[2] = hcclt_rec(HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD), 0);
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->b, t, 4));
	EXPECT_EQ(1, depth_of(self->fd, self->b));
	/* release both */
	ASSERT_EQ(0, hcclt_record(self->fd, self->z, self->a, 0));
	ASSERT_EQ(0, hcclt_record(self->fd, self->z, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F_TIMEOUT(exec, queue_full_ebusy, 120)
{
	static struct drm_hcclt_task t[HCCLT_MAX_BATCH];
	int i, left = HCCLT_MAX_QUEUE_DEPTH - 1;

	for (i = 0; i < HCCLT_MAX_BATCH; i++)
		t[i] = hcclt_rec(self->a, 1);
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	while (left > 0) {
		int n = left > HCCLT_MAX_BATCH ? HCCLT_MAX_BATCH : left;

		if (left == 200) {
			/* a batch that would overflow is refused whole */
			ASSERT_EQ(0, hcclt_submit(self->fd, self->b, t, 100));
			EXPECT_EQ(-EBUSY, hcclt_submit(self->fd, self->b, t,
						       101));
			left -= 100;
			continue;
		}
		ASSERT_EQ(0, hcclt_submit(self->fd, self->b, t, n));
		left -= n;
		if (left > 200 && left - 200 < HCCLT_MAX_BATCH) {
			ASSERT_EQ(0, hcclt_submit(self->fd, self->b, t,
						  left - 200));
			left = 200;
		}
	}
	EXPECT_EQ(HCCLT_MAX_QUEUE_DEPTH, depth_of(self->fd, self->b));
	EXPECT_EQ(-EBUSY, hcclt_submit(self->fd, self->b, t, 1));
	EXPECT_EQ(HCCLT_MAX_QUEUE_DEPTH, depth_of(self->fd, self->b));
	/* other streams are not affected */
	EXPECT_EQ(0, hcclt_submit(self->fd, self->a, t, 1));
	/* drain */
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 60000));
	EXPECT_EQ(0, depth_of(self->fd, self->b));
	EXPECT_EQ(0, hcclt_submit(self->fd, self->b, t, HCCLT_MAX_BATCH));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 60000));
}

/* ------------------------------------------------------------------ */
/* Fences                                                             */

/* Whether @fence signals within @ms (as long as hcclt_sync() would wait). */
static int fence_ready(int fence, int ms)
{
	struct pollfd p = { .fd = fence, .events = POLLIN };
	int ret = poll(&p, 1, ms >= HCCLT_SYNC_EXPECTED && ms < HCCLT_SLOW_MS ?
			      HCCLT_SLOW_MS : ms);

	if (ret < 0)
		return -errno;
	return ret == 1 && (p.revents & POLLIN);
}

TEST_F(exec, fence_poll)
{
	struct drm_hcclt_task t = hcclt_wait(0, 0);
	int fence = -1;

	if (!(self->q0.features & HCCLT_FEATURE_FENCE_OUT))
		SKIP(return, "no HCCLT_FEATURE_FENCE_OUT");
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->b, &t, 1,
				     HCCLT_SUBMIT_FENCE_OUT, &fence, NULL));
	ASSERT_LE(0, fence);
	EXPECT_EQ(0, fence_ready(fence, 0));
	EXPECT_EQ(0, fence_ready(fence, 100));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(1, fence_ready(fence, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
	close(fence);
}

TEST_F(exec, fence_without_flag_is_minus_one)
{
	struct drm_hcclt_task t = hcclt_rec(self->b, 0);
	int fence = 1234;

	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->a, &t, 1, 0, &fence,
				     NULL));
	EXPECT_EQ(-1, fence);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
}

TEST_F(exec, fence_zero_tasks)
{
	struct drm_hcclt_task t = hcclt_wait(0, 0);
	int f1 = -1, f2 = -1;

	if (!(self->q0.features & HCCLT_FEATURE_FENCE_OUT))
		SKIP(return, "no HCCLT_FEATURE_FENCE_OUT");
	/* idle stream: signalled at once */
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->b, NULL, 0,
				     HCCLT_SUBMIT_FENCE_OUT, &f1, NULL));
	ASSERT_LE(0, f1);
	EXPECT_EQ(1, fence_ready(f1, 5000));
	/* parked stream: signalled when what was queued completes */
	ASSERT_EQ(0, hcclt_submit(self->fd, self->b, &t, 1));
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->b, NULL, 0,
				     HCCLT_SUBMIT_FENCE_OUT, &f2, NULL));
	ASSERT_LE(0, f2);
	EXPECT_EQ(0, fence_ready(f2, 100));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(1, fence_ready(f2, 5000));
	close(f1);
	close(f2);
}

/* 1: signalled, 0: not yet, < 0: signalled with that error. */
static int fence_status(int fence)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fence, SYNC_IOC_FILE_INFO, &info))
		return -1000 - errno;
	return info.status;
}

/*
 * A fence of no task carries the error of the task before it, whether the
 * stream was busy when it was queued or already idle.
 */
TEST_F_TIMEOUT(exec, fence_zero_tasks_error_of_last_task, 60)
{
	struct drm_hcclt_task t = hcclt_wait(0, 1);
	int f1 = -1, f2 = -1;

	if (!(self->q0.features & HCCLT_FEATURE_FENCE_OUT))
		SKIP(return, "no HCCLT_FEATURE_FENCE_OUT");
	/* busy: queued behind a wait that times out */
	ASSERT_EQ(0, hcclt_submit(self->fd, self->b, &t, 1));
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->b, NULL, 0,
				     HCCLT_SUBMIT_FENCE_OUT, &f1, NULL));
	ASSERT_LE(0, f1);
	EXPECT_EQ(1, fence_ready(f1, HCCLT_SLOW_MS));
	EXPECT_EQ(-ETIME, fence_status(f1));
	/* idle, the last task failed: signalled at once, with its error */
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->b, NULL, 0,
				     HCCLT_SUBMIT_FENCE_OUT, &f2, NULL));
	ASSERT_LE(0, f2);
	EXPECT_EQ(-ETIME, fence_status(f2));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->b, 5000));
	close(f1);
	close(f2);
}

#define FENCE_TIMEOUT_PARAM "/sys/module/hcclthread/parameters/fence_timeout_ms"

/* Set fence_timeout_ms to @ms, the old value in @old (16 bytes). */
static int fence_timeout_set(unsigned int ms, char *old)
{
	char val[16];
	ssize_t n;
	int fd;

	fd = open(FENCE_TIMEOUT_PARAM, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, old, 15);
	close(fd);
	if (n <= 0)
		return -EIO;
	old[n] = 0;
	snprintf(val, sizeof(val), "%u", ms);
	return hcclt_write_str(FENCE_TIMEOUT_PARAM, val);
}

/*
 * Out-fences signal in bounded time (dma-buf.rst, "Indefinite DMA
 * Fences"): with fence_timeout_ms at 1 s (or its default of 60 s when it
 * cannot be set), a fence over a kernel launch
 * nobody answers, and a fence-only submit behind a wait without timeout,
 * signal with -ETIME, their streams fail (-ETIME once) and the launch may
 * no longer start. A stream with the same wait and no fence keeps waiting
 * past the fence timeout (CANN semantics).
 */
TEST_F_TIMEOUT(exec, fence_over_userspace_wait_expires, 300)
{
	struct drm_hcclt_task w = hcclt_wait(0, 0), l;
	struct drm_hcclt_event_launch ev;
	struct drm_hcclt_kernel_done d;
	int f1 = -1, f2 = -1;
	int set, wait_ms;
	long long t0;
	char old[16];
	__u64 st;

	if (!(self->q0.features & HCCLT_FEATURE_FENCE_OUT) ||
	    !(self->q0.features & HCCLT_FEATURE_KERNEL_LAUNCH))
		SKIP(return, "no HCCLT_FEATURE_FENCE_OUT or _KERNEL_LAUNCH");
	memset(old, 0, sizeof(old));
	/*
	 * Without the parameter (not root, or a driver without deadlines)
	 * the default of 60 s applies: wait past it.
	 */
	set = !fence_timeout_set(1000, old);
	wait_ms = set ? 30000 : 90000;
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &st));
	memset(&l, 0, sizeof(l));
	l.op = HCCLT_TASK_KERNEL_LAUNCH;
	l.dst_thread = 42;
	t0 = hcclt_now_ms();
	EXPECT_EQ(0, hcclt_submit_ex(self->fd, st, &l, 1,
				     HCCLT_SUBMIT_FENCE_OUT, &f1, NULL));
	EXPECT_EQ(0, hcclt_submit(self->fd, self->b, &w, 1));
	EXPECT_EQ(0, hcclt_submit_ex(self->fd, self->b, NULL, 0,
				     HCCLT_SUBMIT_FENCE_OUT, &f2, NULL));
	/* The same wait, unfenced, on another thread. */
	EXPECT_EQ(0, hcclt_submit(self->fd, self->a, &w, 1));
	TH_LOG("3 s after the submit, the launch's fence is %s",
	       fence_ready(f1, 3000) == 1 ? "signalled" : "not signalled");
	EXPECT_EQ(1, fence_ready(f1, wait_ms));
	TH_LOG("%lld ms after the submit, the launch's fence is %s",
	       hcclt_now_ms() - t0,
	       fence_status(f1) ? "signalled" : "not signalled");
	EXPECT_EQ(-ETIME, fence_status(f1));
	EXPECT_EQ(1, fence_ready(f2, wait_ms));
	EXPECT_EQ(-ETIME, fence_status(f2));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, st, 5000));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->b, 5000));
	/* The launch's event went out; it may no longer start. */
	EXPECT_EQ(sizeof(ev), read(self->fd, &ev, sizeof(ev)));
	EXPECT_EQ(42, ev.cookie);
	memset(&d, 0, sizeof(d));
	d.handle = ev.handle;
	d.seqno = ev.seqno;
	d.flags = HCCLT_KERNEL_DONE_START;
	EXPECT_EQ(-ESRCH, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d));
	/* Past the fence timeout, the unfenced wait still waits. */
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->a, 2000));
	EXPECT_EQ(0, hcclt_record(self->fd, self->b, self->a, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	if (set)
		EXPECT_EQ(0, hcclt_write_str(FENCE_TIMEOUT_PARAM, old));
	close(f1);
	close(f2);
}

/*
 * A fence-only submit queues no task, so the task depth does not bound
 * it: out-fences waiting on one stream are capped at HCCLT_MAX_QUEUE_DEPTH
 * too (-EBUSY past it), and all of them signal when the stream moves on.
 */
TEST_F_TIMEOUT(exec, fence_only_submits_bounded, 120)
{
	/* Every 512th fence is kept open (and the last), the rest closed. */
	int kept[HCCLT_MAX_QUEUE_DEPTH / 512 + 1], nkept = 0;
	int i, f = -1, ret = 0;

	if (!(self->q0.features & HCCLT_FEATURE_FENCE_OUT))
		SKIP(return, "no HCCLT_FEATURE_FENCE_OUT");
	/* b parks on its notify 0, no timeout */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	for (i = 0; i < HCCLT_MAX_QUEUE_DEPTH; i++) {
		ret = hcclt_submit_ex(self->fd, self->b, NULL, 0,
				      HCCLT_SUBMIT_FENCE_OUT, &f, NULL);
		if (ret)
			break;
		if (i % 512 == 0 || i == HCCLT_MAX_QUEUE_DEPTH - 1)
			kept[nkept++] = f;
		else
			close(f);
	}
	EXPECT_EQ(0, ret);
	ASSERT_EQ(HCCLT_MAX_QUEUE_DEPTH, i);
	f = -1;
	EXPECT_EQ(-EBUSY, hcclt_submit_ex(self->fd, self->b, NULL, 0,
					  HCCLT_SUBMIT_FENCE_OUT, &f, NULL));
	EXPECT_EQ(-1, f);
	for (i = 0; i < nkept; i++)
		EXPECT_EQ(0, fence_ready(kept[i], 0));
	/* the stream moves on: every fence signals, and the cap is free */
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
	for (i = 0; i < nkept; i++) {
		EXPECT_EQ(1, fence_ready(kept[i], 5000));
		EXPECT_EQ(1, fence_status(kept[i]));
		close(kept[i]);
	}
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->b, NULL, 0,
				     HCCLT_SUBMIT_FENCE_OUT, &f, NULL));
	EXPECT_EQ(1, fence_status(f));
	close(f);
}

TEST_F(exec, fence_emfile)
{
	struct drm_hcclt_task t = hcclt_rec(self->a, 0);
	struct rlimit old, lim;
	int fds[256], n = 0, fence = -1, ret;

	if (!(self->q0.features & HCCLT_FEATURE_FENCE_OUT))
		SKIP(return, "no HCCLT_FEATURE_FENCE_OUT");
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	ASSERT_EQ(0, getrlimit(RLIMIT_NOFILE, &old));
	lim = old;
	lim.rlim_cur = 64;
	ASSERT_EQ(0, setrlimit(RLIMIT_NOFILE, &lim));
	while (n < 256) {
		int d = dup(self->fd);

		if (d < 0)
			break;
		fds[n++] = d;
	}
	ASSERT_EQ(EMFILE, errno);
	ret = hcclt_submit_ex(self->fd, self->b, &t, 1, HCCLT_SUBMIT_FENCE_OUT,
			      &fence, NULL);
	while (n > 0)
		close(fds[--n]);
	setrlimit(RLIMIT_NOFILE, &old);
	EXPECT_EQ(-EMFILE, ret);
	/* nothing was queued */
	EXPECT_EQ(1, depth_of(self->fd, self->b));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

static char stat_state(const char *path)
{
	char buf[512], *p;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] && p[2] ? p[2] : '?';
}

static char proc_state(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	return stat_state(path);
}

/* Wait (up to HCCLT_SLOW_MS) until thread *@tidp of this process sleeps. */
static int wait_sleeping(_Atomic pid_t *tidp)
{
	long long end = hcclt_wait_end(HCCLT_SLOW_MS);
	char path[64];

	while (hcclt_now_ms() < end) {
		pid_t tid = atomic_load(tidp);

		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
		if (tid > 0 && stat_state(path) == 'S') {
			hcclt_msleep(20);
			return 0;
		}
		hcclt_msleep(5);
	}
	return -1;
}

/* ------------------------------------------------------------------ */
/* Cancellation                                                       */

struct sync_arg {
	int fd;
	__u64 h;
	int ret;
	_Atomic pid_t tid;
};

static void *sync_thread(void *p)
{
	struct sync_arg *a = p;

	atomic_store(&a->tid, (pid_t)syscall(SYS_gettid));
	a->ret = hcclt_sync(a->fd, a->h, 30000);
	return NULL;
}

TEST_F_TIMEOUT(exec, comm_destroy_wakes_sync_ecanceled, 60)
{
	struct sync_arg sa = { .fd = self->fd, .ret = 1 };
	struct drm_hcclt_task t[2] = { hcclt_wait(0, 0), hcclt_rec(self->a, 0) };
	struct drm_hcclt_query q;
	pthread_t pt;

	sa.h = self->b;
	ASSERT_EQ(0, hcclt_submit(self->fd, self->b, t, 2));
	ASSERT_EQ(0, pthread_create(&pt, NULL, sync_thread, &sa));
	/* until the sync sleeps in the kernel */
	ASSERT_EQ(0, wait_sleeping(&sa.tid));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	pthread_join(pt, NULL);
	EXPECT_EQ(-ECANCELED, sa.ret);
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, self->b, 0));
	EXPECT_EQ(0, hcclt_wait_pools(self->fd, &self->q0, &q, 5000));
}

TEST_F_TIMEOUT(exec, comm_destroy_cancels_wrapped_stream, 60)
{
	struct sync_arg sa = { .fd = self->fd, .ret = 1 };
	struct drm_hcclt_query q;
	pthread_t pt;
	__u64 s, t;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 1, &t));
	ASSERT_EQ(0, hcclt_waitq(self->fd, t, 0, 0));
	sa.h = s;	/* waits via the stream id */
	ASSERT_EQ(0, pthread_create(&pt, NULL, sync_thread, &sa));
	/* until the sync sleeps in the kernel */
	ASSERT_EQ(0, wait_sleeping(&sa.tid));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	pthread_join(pt, NULL);
	EXPECT_EQ(-ECANCELED, sa.ret);
	/* the stream survives, usable, the error was reported once */
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 1000));
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.streams_used + 1, q.streams_used);
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
}

TEST_F_TIMEOUT(exec, stream_destroy_cancels_wrapped_queue, 60)
{
	struct sync_arg sa = { .fd = self->fd, .ret = 1 };
	pthread_t pt;
	__u64 s, t;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 1, &t));
	ASSERT_EQ(0, hcclt_waitq(self->fd, t, 0, 0));
	sa.h = t;	/* waits via the wrapping thread */
	ASSERT_EQ(0, pthread_create(&pt, NULL, sync_thread, &sa));
	/* until the sync sleeps in the kernel */
	ASSERT_EQ(0, wait_sleeping(&sa.tid));
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, s));
	pthread_join(pt, NULL);
	EXPECT_EQ(-ECANCELED, sa.ret);
	/* reported once; the thread keeps the stream and still works */
	EXPECT_EQ(0, hcclt_sync(self->fd, t, 1000));
	ASSERT_EQ(0, hcclt_record(self->fd, t, t, 0));
	ASSERT_EQ(0, hcclt_waitq(self->fd, t, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, t, 5000));
}

TEST_F_TIMEOUT(exec, sync_waits_only_for_earlier_tasks, 60)
{
	struct sync_arg sa = { .fd = self->fd, .ret = 1 };
	pthread_t pt;

	sa.h = self->b;
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 0, 0));
	ASSERT_EQ(0, pthread_create(&pt, NULL, sync_thread, &sa));
	/* until the sync sleeps in the kernel */
	ASSERT_EQ(0, wait_sleeping(&sa.tid));
	/* queued after the sync started: not waited for */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->b, 1, 0));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 0));
	pthread_join(pt, NULL);
	EXPECT_EQ(0, sa.ret);
	EXPECT_EQ(1, depth_of(self->fd, self->b));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 0));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, self->b, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F_TIMEOUT(exec, fence_signalled_on_cancel_and_timeout, 60)
{
	struct drm_hcclt_task t = hcclt_wait(0, 0);
	int f1 = -1, f2 = -1;

	if (!(self->q0.features & HCCLT_FEATURE_FENCE_OUT))
		SKIP(return, "no HCCLT_FEATURE_FENCE_OUT");
	/* a wait that times out completes its batch's fence */
	t.timeout_s = 1;
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->a, &t, 1,
				     HCCLT_SUBMIT_FENCE_OUT, &f1, NULL));
	ASSERT_LE(0, f1);
	EXPECT_EQ(1, fence_ready(f1, HCCLT_SLOW_MS));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->a, 5000));
	/* cancelled work signals its fence */
	t.timeout_s = 0;
	ASSERT_EQ(0, hcclt_submit_ex(self->fd, self->b, &t, 1,
				     HCCLT_SUBMIT_FENCE_OUT, &f2, NULL));
	ASSERT_LE(0, f2);
	EXPECT_EQ(0, fence_ready(f2, 50));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_EQ(1, fence_ready(f2, 5000));
	close(f1);
	close(f2);
}

TEST_F_TIMEOUT(exec, record_to_thread_of_other_comm_then_destroyed, 60)
{
	struct drm_hcclt_task t[2] = { hcclt_wait(0, 0), hcclt_rec(0, 0) };
	__u64 c2, x;
	int ret;

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
	ASSERT_EQ(0, hcclt_acquire(self->fd, c2, HCCLT_ENGINE_CPU, 1, 1, &x));
	/* records may cross communicators of the file (same engine) */
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, x, 0));
	ASSERT_EQ(0, hcclt_waitq(self->fd, x, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, x, 5000));
	/* a queued record whose destination dies before it runs */
	t[1].dst_thread = x;
	ASSERT_EQ(0, hcclt_submit(self->fd, self->a, t, 2));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c2));
	ASSERT_EQ(0, hcclt_record(self->fd, self->b, self->a, 0));
	ret = hcclt_sync(self->fd, self->a, 5000);
	/* not specified by the uAPI: completes or is cancelled, never hangs */
	EXPECT_TRUE(ret == 0 || ret == -ECANCELED) {
		TH_LOG("sync after the destination died: %d", ret);
	}
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 5000));
	EXPECT_EQ(0, depth_of(self->fd, self->a));
}

TEST_F_TIMEOUT(exec, records_race_destination_destroy, 120)
{
	static struct drm_hcclt_task t[HCCLT_MAX_BATCH];
	int round;

	for (round = 0; round < 5; round++) {
		__u64 c2, d[8];
		int i, ret;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
		ASSERT_EQ(0, hcclt_acquire(self->fd, c2, HCCLT_ENGINE_CPU, 8, 2,
					   d));
		/* a's stream: a wait, then 2048 records to c2's threads */
		ASSERT_EQ(0, hcclt_waitq(self->fd, self->a, 0, 0));
		for (i = 0; i < HCCLT_MAX_BATCH; i++)
			t[i] = hcclt_rec(d[i % 8], i % 2);
		for (i = 0; i < 8; i++)
			ASSERT_EQ(0, hcclt_submit(self->fd, self->a, t,
						  HCCLT_MAX_BATCH));
		/* park half of c2's streams so their destroy cancels work */
		for (i = 0; i < 4; i++)
			ASSERT_EQ(0, hcclt_waitq(self->fd, d[i], 0, 0));
		/* release a, and destroy the destinations while it runs */
		ASSERT_EQ(0, hcclt_record(self->fd, self->b, self->a, 0));
		if (round % 2)
			hcclt_msleep(1);
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c2));
		ret = hcclt_sync(self->fd, self->a, 20000);
		EXPECT_TRUE(ret == 0 || ret == -ECANCELED) {
			TH_LOG("round %d: sync %d", round, ret);
		}
		EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 20000));
		EXPECT_EQ(0, depth_of(self->fd, self->a));
	}
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 5000));
}

TEST_F(exec, views_sync_wait_and_receive_records)
{
	struct drm_hcclt_thread_info ti;
	__u64 v, s;

	/* k (AICPU) seen on CPU through its view v */
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU, 1,
				  &self->k, &v));
	/* a wait submitted on the view parks k's stream, on k's notify */
	ASSERT_EQ(0, hcclt_waitq(self->fd, v, 1, 0));
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->k, HCCLT_STATE_PARKED,
				      &ti, 5000));
	EXPECT_EQ(1, ti.wait_notify);
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, v, 50));
	/* a record from a plain stream to the view releases it */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_record(self->fd, s, v, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, v, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->k, 5000));
	/* and a CPU thread's record to the view releases a wait on k */
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->k, 0, 0));
	ASSERT_EQ(0, hcclt_record(self->fd, self->a, v, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->k, 5000));
}

/* ------------------------------------------------------------------ */
/* Process death                                                      */

/*
 * Child: own file, 40 threads parked forever on 4 communicators plus one
 * extra wrapped stream; then either sync forever (@in_sync) or pause().
 */
static void parked_child(int wfd, int in_sync)
{
	__u64 th[40], c, s, t;
	int fd = hcclt_open(), i, j;

	if (fd < 0)
		_exit(10);
	for (j = 0; j < 4; j++) {
		if (hcclt_comm_create(fd, &c) ||
		    hcclt_acquire(fd, c, HCCLT_ENGINE_CPU_TS, 40, 1, th))
			_exit(11);
		for (i = 0; i < 40; i++)
			if (hcclt_waitq(fd, th[i], 0, 0))
				_exit(12);
	}
	if (hcclt_stream_create(fd, &s) ||
	    hcclt_acquire_ws(fd, c, s, HCCLT_ENGINE_CPU_TS, 2, &t) ||
	    hcclt_waitq(fd, t, 1, 0))
		_exit(13);
	if (write(wfd, "r", 1) != 1)
		_exit(14);
	if (in_sync)
		hcclt_sync(fd, th[0], -1);
	for (;;)
		pause();
}

static void kill_parked_child(struct __test_metadata *_metadata,
			      FIXTURE_DATA(exec) *self, int in_sync)
{
	const struct drm_hcclt_query *q0 = &self->q0;
	struct drm_hcclt_query q;
	int p[2], st, fd;
	long long t0;
	pid_t pid;
	char c;

	/* drop the fixture's threads: the pools then hold the child's only */
	close(self->fd);
	self->fd = hcclt_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, hcclt_wait_pools(self->fd, q0, &q, 5000));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(p[0]);
		parked_child(p[1], in_sync);
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &c, 1));
	close(p[0]);
	for (t0 = hcclt_now_ms(); hcclt_now_ms() - t0 < HCCLT_SLOW_MS &&
	     proc_state(pid) != 'S';)
		hcclt_msleep(10);
	EXPECT_EQ('S', proc_state(pid));
	fd = self->fd;
	ASSERT_EQ(0, hcclt_query(fd, &q));
	EXPECT_EQ(q0->streams_used + 161, q.streams_used);
	EXPECT_EQ(q0->notifies_used + 162, q.notifies_used);
	t0 = hcclt_now_ms();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	/* It died of the signal; a bound only against an unkillable sleep. */
	EXPECT_GT(HCCLT_SLOW_MS, hcclt_now_ms() - t0);
	ASSERT_EQ(0, hcclt_wait_pools(fd, q0, &q, 10000)) {
		TH_LOG("streams %u/%u notifies %u/%u comms %u/%u files %u/%u",
		       q.streams_used, q0->streams_used, q.notifies_used,
		       q0->notifies_used, q.comms, q0->comms, q.files,
		       q0->files);
	}
}

TEST_F_TIMEOUT(exec, sigkill_blocked_in_sync, 60)
{
	kill_parked_child(_metadata, self, 1);
}

TEST_F_TIMEOUT(exec, sigkill_parked_forever, 60)
{
	kill_parked_child(_metadata, self, 0);
}

/* ------------------------------------------------------------------ */
/* Many parked streams                                                */

TEST_F_TIMEOUT(exec, park_500_streams_then_release, 180)
{
	enum { N = 500, PER = 40 };
	static __u64 th[N + PER];
	static struct drm_hcclt_thread_info ti[N + 64];
	static struct drm_hcclt_task t[HCCLT_MAX_BATCH];
	__u32 nt = N + 64, i, parked = 0;
	struct drm_hcclt_query q;
	long long t0;
	__u64 c, s;
	int n;

	for (n = 0; n < N; n += PER) {
		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		ASSERT_EQ(0, hcclt_acquire(self->fd, c, HCCLT_ENGINE_AICPU_TS,
					   PER, 1, &th[n]));
	}
	for (n = 0; n < N; n++)
		ASSERT_EQ(0, hcclt_waitq(self->fd, th[n], 0, 0));
	/* every stream parks, without a kernel thread each */
	for (t0 = hcclt_now_ms(); hcclt_now_ms() - t0 < 2 * HCCLT_SLOW_MS;) {
		nt = N + 64;
		parked = 0;
		ASSERT_EQ(0, hcclt_info(self->fd, 0, NULL, NULL, ti, &nt));
		for (i = 0; i < nt && i < N + 64; i++)
			if (ti[i].state == HCCLT_STATE_PARKED &&
			    ti[i].wait_notify == 0)
				parked++;
		if (parked >= N)
			break;
		hcclt_msleep(20);
	}
	EXPECT_LE(N, parked);
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.streams_used + 4 + 520, q.streams_used);
	/* release all from one plain stream, in batches */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	for (n = 0; n < N; n += HCCLT_MAX_BATCH) {
		int k, m = N - n > HCCLT_MAX_BATCH ? HCCLT_MAX_BATCH : N - n;

		for (k = 0; k < m; k++)
			t[k] = hcclt_rec(th[n + k], 0);
		ASSERT_EQ(0, hcclt_submit(self->fd, s, t, m));
	}
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 30000));
	for (n = 0; n < N; n++)
		ASSERT_EQ(0, hcclt_sync(self->fd, th[n], 30000));
}

HCCLT_HARNESS_MAIN
