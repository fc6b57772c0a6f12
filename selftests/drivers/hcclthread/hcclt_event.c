// SPDX-License-Identifier: GPL-2.0
/*
 * Events and ACL notifies (uAPI 1.4, HCCLT_FEATURE_EVENTS):
 * EVENT_CREATE/DESTROY/WAIT, NOTIFY_CREATE/DESTROY and the four tasks.
 * Every validation errno; a stream waiting for an event's record on
 * another stream, records before and after, several waiters, timestamps;
 * the device's event pool (65,536) and notify pool exhausted and back at
 * their start after a close; an ACL notify recorded and waited on
 * threads and stream ids, destroyed under a parked wait; INFO of both
 * kinds of wait.
 */
#include <sys/wait.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

static int ev_create(int fd, __u64 *id)
{
	struct drm_hcclt_event_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_CREATE, &c);
	if (!ret && id)
		*id = c.event_id;
	return ret;
}

static int ev_destroy(int fd, __u64 id)
{
	struct drm_hcclt_event_destroy d;

	memset(&d, 0, sizeof(d));
	d.event_id = id;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_DESTROY, &d);
}

/* EVENT_WAIT: 0 with the status and time filled in, or -errno. */
static int ev_wait(int fd, __u64 id, int timeout_ms, __u32 *status, __u64 *ts)
{
	struct drm_hcclt_event_wait w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.event_id = id;
	w.timeout_ms = timeout_ms;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_WAIT, &w);
	if (!ret) {
		if (status)
			*status = w.status;
		if (ts)
			*ts = w.timestamp_ns;
	}
	return ret;
}

static int nt_destroy(int fd, __u32 id)
{
	struct drm_hcclt_notify_destroy d;

	memset(&d, 0, sizeof(d));
	d.notify_id = id;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_NOTIFY_DESTROY, &d);
}

static struct drm_hcclt_task etask(__u32 op, __u64 event)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = op;
	t.dst_thread = event;
	return t;
}

static struct drm_hcclt_task ntask(__u32 op, __u32 id, __u32 timeout_s)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = op;
	t.notify_idx = id;
	t.timeout_s = timeout_s;
	return t;
}

FIXTURE(ev) {
	int fd;
	__u64 comm, th[3];
	struct drm_hcclt_query q0;
};

FIXTURE_SETUP(ev)
{
	self->fd = hcclt_open();
	if (self->fd < 0)
		SKIP(return, "no hcclthread device");
	ASSERT_EQ(0, hcclt_query(self->fd, &self->q0));
	if (!(self->q0.features & HCCLT_FEATURE_EVENTS))
		SKIP(return, "driver without events");
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU, 3, 1,
				   self->th));
}

FIXTURE_TEARDOWN(ev)
{
	/* Pools back at their start: the notify pool by QUERY. */
	if (self->fd >= 0)
		EXPECT_EQ(0, hcclt_close_wait_pools(self->fd, &self->q0));
}

/* One negative test per validation of the ioctls and the tasks. */
TEST_F(ev, einval)
{
	struct drm_hcclt_event_create c;
	struct drm_hcclt_event_destroy d;
	struct drm_hcclt_event_wait w;
	struct drm_hcclt_notify_create nc;
	struct drm_hcclt_notify_destroy nd;
	struct drm_hcclt_task t;
	__u64 e;
	__u32 n;

	memset(&c, 0, sizeof(c));
	c.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_EVENT_CREATE, &c));
	memset(&c, 0, sizeof(c));
	c.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_EVENT_CREATE, &c));
	ASSERT_EQ(0, ev_create(self->fd, &e));
	EXPECT_NE(0, e);
	memset(&d, 0, sizeof(d));
	d.event_id = e;
	d.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_EVENT_DESTROY, &d));
	d.flags = 0;
	d.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_EVENT_DESTROY, &d));
	EXPECT_EQ(-ENOENT, ev_destroy(self->fd, e + 1));
	EXPECT_EQ(-ENOENT, ev_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, ev_destroy(self->fd, ~0ULL));
	memset(&w, 0, sizeof(w));
	w.event_id = e;
	w.timeout_ms = -2;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_EVENT_WAIT, &w));
	w.timeout_ms = 0;
	w.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_EVENT_WAIT, &w));
	w.flags = 0;
	w.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_EVENT_WAIT, &w));
	EXPECT_EQ(-ENOENT, ev_wait(self->fd, e + 1, 0, NULL, NULL));
	/* Tasks. */
	t = etask(HCCLT_TASK_EVENT_RECORD, e + 1);
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->th[0], &t, 1));
	t = etask(HCCLT_TASK_EVENT_WAIT, e);
	t.notify_idx = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->th[0], &t, 1));
	t = etask(HCCLT_TASK_EVENT_RECORD, e);
	t.timeout_s = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->th[0], &t, 1));
	t = etask(HCCLT_TASK_EVENT_RECORD, e);
	t.len = 4;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->th[0], &t, 1));
	EXPECT_EQ(0, ev_destroy(self->fd, e));
	EXPECT_EQ(-ENOENT, ev_destroy(self->fd, e));
	t = etask(HCCLT_TASK_EVENT_WAIT, e);
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->th[0], &t, 1));

	memset(&nc, 0, sizeof(nc));
	nc.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_NOTIFY_CREATE, &nc));
	ASSERT_EQ(0, hcclt_acl_notify_create(self->fd, &n));
	EXPECT_GT(self->q0.notifies_total, n);
	memset(&nd, 0, sizeof(nd));
	nd.notify_id = n;
	nd.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_NOTIFY_DESTROY, &nd));
	EXPECT_EQ(-ENOENT, nt_destroy(self->fd, n + 1));
	t = ntask(HCCLT_TASK_ACL_NOTIFY_RECORD, n, 1);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->th[0], &t, 1));
	t = ntask(HCCLT_TASK_ACL_NOTIFY_WAIT, n, 0);
	t.dst_thread = self->th[0];
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->th[0], &t, 1));
	t = ntask(HCCLT_TASK_ACL_NOTIFY_WAIT, n, 0);
	t.src_handle = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->th[0], &t, 1));
	t = ntask(HCCLT_TASK_ACL_NOTIFY_RECORD, n + 1, 0);
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->th[0], &t, 1));
	EXPECT_EQ(0, nt_destroy(self->fd, n));
	EXPECT_EQ(-ENOENT, nt_destroy(self->fd, n));
	t = ntask(HCCLT_TASK_ACL_NOTIFY_RECORD, n, 0);
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->th[0], &t, 1));
}

/*
 * A stream waits for an event recorded on another stream behind a parked
 * wait: it waits exactly until the record runs; EVENT_WAIT says not ready,
 * then complete with the record's time; a wait queued when nothing was
 * recorded passes at once; a later record gets a later time.
 */
TEST_F(ev, record_and_wait_across_streams)
{
	struct drm_hcclt_task t[2];
	struct drm_hcclt_thread_info ti;
	__u64 e, s, ts0, ts1, ts2;
	__s64 before, after;
	__u32 st;

	ASSERT_EQ(0, ev_create(self->fd, &e));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	/* Never recorded: complete, no time; a wait task passes at once. */
	ASSERT_EQ(0, ev_wait(self->fd, e, 0, &st, &ts0));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, st);
	EXPECT_EQ(0, ts0);
	t[0] = etask(HCCLT_TASK_EVENT_WAIT, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, s, t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 5000));

	/* th0: wait for its notify 0, then record e. */
	t[0] = hcclt_wait(0, 0);
	t[1] = etask(HCCLT_TASK_EVENT_RECORD, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[0], t, 2));
	/* th1 (and the stream s) wait for e, then th1 records th2's notify. */
	t[0] = etask(HCCLT_TASK_EVENT_WAIT, e);
	t[1] = hcclt_rec(self->th[2], 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], t, 2));
	ASSERT_EQ(0, hcclt_submit(self->fd, s, t, 1));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->th[1], 200));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, s, 0));
	ASSERT_EQ(0, ev_wait(self->fd, e, 100, &st, NULL));
	EXPECT_EQ(HCCLT_EVENT_NOT_READY, st);
	ASSERT_EQ(0, hcclt_thread_info(self->fd, self->th[1], &ti));
	EXPECT_EQ(HCCLT_STATE_PARKED, ti.state);
	/* Release th0: its record runs, both waiters go on. */
	before = hcclt_now_ns();
	ASSERT_EQ(0, hcclt_record(self->fd, self->th[2], self->th[0], 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[1], 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 5000));
	after = hcclt_now_ns();
	ASSERT_EQ(0, ev_wait(self->fd, e, -1, &st, &ts1));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, st);
	EXPECT_LE(before, (__s64)ts1);
	EXPECT_GE(after, (__s64)ts1);
	/* th1's record reached th2. */
	t[0] = hcclt_wait(0, 1);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[2], t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[2], 5000));
	/* Again: a later time. */
	t[0] = etask(HCCLT_TASK_EVENT_RECORD, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, s, t, 1));
	ASSERT_EQ(0, ev_wait(self->fd, e, -1, &st, &ts2));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, st);
	EXPECT_LT(ts1, ts2);
	/* Destroyed with a record queued behind a wait: the record still runs. */
	t[0] = hcclt_wait(0, 0);
	t[1] = etask(HCCLT_TASK_EVENT_RECORD, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[0], t, 2));
	t[0] = etask(HCCLT_TASK_EVENT_WAIT, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], t, 1));
	EXPECT_EQ(0, ev_destroy(self->fd, e));
	ASSERT_EQ(0, hcclt_record(self->fd, self->th[2], self->th[0], 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[1], 5000));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
}

/*
 * EVENT_WAIT with a timeout returns when the record runs, not after: well
 * before its timeout (see HCCLT_SLOW_MS).
 */
TEST_F_TIMEOUT(ev, wait_ioctl_wakes_on_record, 180)
{
	struct drm_hcclt_task t[2];
	__u64 e;
	__u32 st;
	pid_t pid;
	int status;
	__s64 t0;

	ASSERT_EQ(0, ev_create(self->fd, &e));
	t[0] = hcclt_wait(0, 0);
	t[1] = etask(HCCLT_TASK_EVENT_RECORD, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[0], t, 2));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		hcclt_msleep(300);
		_exit(hcclt_record(self->fd, self->th[1], self->th[0], 0) ? 1 : 0);
	}
	t0 = hcclt_now_ns();
	ASSERT_EQ(0, ev_wait(self->fd, e, 4 * HCCLT_SLOW_MS, &st, NULL));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, st);
	EXPECT_GT(1000000LL * HCCLT_SLOW_MS, hcclt_now_ns() - t0);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/*
 * A record dropped before it ran (its stream destroyed while parked before
 * it) completes the event as failed: EVENT_WAIT says so at once, the wait
 * task it releases fails its stream with the dropping stream's error, and
 * so does one queued later; a record that runs completes it again.
 */
TEST_F_TIMEOUT(ev, dropped_record_fails_the_event, 180)
{
	struct drm_hcclt_task t[2];
	__u64 e, s, s2, ts;
	__u32 n, st;
	__s64 t0;

	ASSERT_EQ(0, ev_create(self->fd, &e));
	ASSERT_EQ(0, hcclt_acl_notify_create(self->fd, &n));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s2));
	/* s2: wait for an ACL notify nobody records, then record e. */
	t[0] = ntask(HCCLT_TASK_ACL_NOTIFY_WAIT, n, 0);
	t[1] = etask(HCCLT_TASK_EVENT_RECORD, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, s2, t, 2));
	/* th1 waits for e, then records th2's notify 0. */
	t[0] = etask(HCCLT_TASK_EVENT_WAIT, e);
	t[1] = hcclt_rec(self->th[2], 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], t, 2));
	ASSERT_EQ(0, ev_wait(self->fd, e, 100, &st, NULL));
	EXPECT_EQ(HCCLT_EVENT_NOT_READY, st);
	/* The record is dropped: everything waiting for it ends at once. */
	t0 = hcclt_now_ns();
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, s2));
	ASSERT_EQ(0, ev_wait(self->fd, e, 4 * HCCLT_SLOW_MS, &st, &ts));
	EXPECT_EQ(HCCLT_EVENT_FAILED, st);
	EXPECT_EQ(0, ts);
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->th[1], 4 * HCCLT_SLOW_MS));
	EXPECT_GT(1000000LL * HCCLT_SLOW_MS, hcclt_now_ns() - t0);
	/* th1's record into th2 was dropped too: th2's wait fails for it. */
	t[0] = hcclt_wait(0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[2], t, 1));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->th[2], 5000));
	/* A wait queued now fails too, once; the stream goes on after. */
	t[0] = etask(HCCLT_TASK_EVENT_WAIT, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], t, 1));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->th[1], 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[1], 5000));
	/* A record that runs completes it again. */
	t[0] = etask(HCCLT_TASK_EVENT_RECORD, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, s, t, 1));
	ASSERT_EQ(0, ev_wait(self->fd, e, -1, &st, &ts));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, st);
	EXPECT_NE(0, ts);
	t[0] = etask(HCCLT_TASK_EVENT_WAIT, e);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[1], 5000));
	EXPECT_EQ(0, nt_destroy(self->fd, n));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
}

/* The device's event pool: 65,536, then -ENOSPC; a close gives all back. */
TEST_F_TIMEOUT(ev, event_pool, 300)
{
	int fd2 = hcclt_open(), i, ret = 0;
	__u64 e, last = 0;

	ASSERT_LE(0, fd2);
	for (i = 0; i < HCCLT_MAX_EVENTS && !ret; i++)
		ret = ev_create(fd2, &last);
	ASSERT_EQ(0, ret) TH_LOG("event %d", i);
	EXPECT_EQ(-ENOSPC, ev_create(self->fd, &e));
	EXPECT_EQ(0, ev_destroy(fd2, last));
	EXPECT_EQ(0, ev_create(self->fd, &e));
	EXPECT_EQ(-ENOSPC, ev_create(fd2, NULL));
	close(fd2);
	EXPECT_EQ(0, ev_create(self->fd, NULL));
	EXPECT_EQ(0, ev_destroy(self->fd, e));
}

/*
 * ACL notifies: from the device's notify pool; recorded and waited on by
 * thread and stream ids (a binary flag, as a thread's); a wait parked on
 * one that is destroyed fails -ECANCELED; INFO names both kinds of wait.
 */
TEST_F(ev, acl_notifies)
{
	struct drm_hcclt_thread_info ti;
	struct drm_hcclt_query q;
	struct drm_hcclt_task t;
	__u64 s;
	__u32 a, b;

	ASSERT_EQ(0, hcclt_acl_notify_create(self->fd, &a));
	ASSERT_EQ(0, hcclt_acl_notify_create(self->fd, &b));
	EXPECT_NE(a, b);
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.notifies_used + 3 + 2, q.notifies_used);
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	/* Recorded before the wait: the wait consumes it. */
	t = ntask(HCCLT_TASK_ACL_NOTIFY_RECORD, a, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, s, &t, 1));
	t = ntask(HCCLT_TASK_ACL_NOTIFY_WAIT, a, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[0], &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[0], 5000));
	/* Consumed: the next wait parks until a record. */
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[0], &t, 1));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->th[0], 200));
	t = ntask(HCCLT_TASK_ACL_NOTIFY_RECORD, a, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[0], 5000));
	/* A timeout in seconds, as thread notifies. */
	t = ntask(HCCLT_TASK_ACL_NOTIFY_WAIT, b, 1);
	ASSERT_EQ(0, hcclt_submit(self->fd, s, &t, 1));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, s, 10000));
	/* Destroyed under a parked wait. */
	t = ntask(HCCLT_TASK_ACL_NOTIFY_WAIT, b, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], &t, 1));
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->th[1], HCCLT_STATE_PARKED,
				      &ti, 5000));
	EXPECT_EQ(0, nt_destroy(self->fd, b));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->th[1], 5000));
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.notifies_used + 3 + 1, q.notifies_used);
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
	/* a stays: the close gives it back (teardown checks the pool). */
}

/* INFO_ARRAY reports a stream parked on an event or an ACL notify. */
TEST_F(ev, info_names_the_wait)
{
	struct drm_hcclt_thread_info ti;
	struct drm_hcclt_info_thread e[16];
	struct drm_hcclt_info_array a;
	struct drm_hcclt_task t[2];
	__u64 ev, s;
	__u32 n;
	int i, seen = 0;

	ASSERT_EQ(0, ev_create(self->fd, &ev));
	ASSERT_EQ(0, hcclt_acl_notify_create(self->fd, &n));
	t[0] = hcclt_wait(0, 0);
	t[1] = etask(HCCLT_TASK_EVENT_RECORD, ev);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[0], t, 2));
	t[0] = etask(HCCLT_TASK_EVENT_WAIT, ev);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], t, 1));
	t[0] = ntask(HCCLT_TASK_ACL_NOTIFY_WAIT, n, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[2], t, 1));
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->th[2], HCCLT_STATE_PARKED,
				      &ti, 5000));
	memset(&a, 0, sizeof(a));
	a.scope = HCCLT_INFO_SCOPE_FILE;
	a.type = HCCLT_INFO_TYPE_THREADS;
	a.element_size = sizeof(e[0]);
	a.num_element = 16;
	a.buffer = (__u64)(uintptr_t)e;
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_INFO_ARRAY, &a));
	for (i = 0; i < (int)a.num_element; i++) {
		if (e[i].thread.thread_id == self->th[1]) {
			EXPECT_EQ(HCCLT_WAIT_EVENT, e[i].wait.kind);
			EXPECT_EQ(ev, e[i].wait.owner_id);
			seen++;
		}
		if (e[i].thread.thread_id == self->th[2]) {
			EXPECT_EQ(HCCLT_WAIT_ACL_NOTIFY, e[i].wait.kind);
			EXPECT_EQ(n, e[i].wait.notify_idx);
			seen++;
		}
	}
	EXPECT_EQ(2, seen);
	/* Release all through a stream id: the ACL record and th0's. */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	t[0] = ntask(HCCLT_TASK_ACL_NOTIFY_RECORD, n, 0);
	t[1] = hcclt_rec(self->th[0], 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, s, t, 2));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[1], 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[2], 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 5000));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
}

TEST_HARNESS_MAIN
