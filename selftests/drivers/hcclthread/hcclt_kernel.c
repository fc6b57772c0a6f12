// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel-launch tasks (uAPI 1.4): HCCLT_TASK_KERNEL_LAUNCH, the launch
 * event read from the DRM fd, DRM_IOCTL_HCCLT_KERNEL_DONE. Ordering with
 * the tasks around a launch, a non-zero status (-EIO once), a timeout
 * (-ETIME once, a late answer -ESRCH), a timed-out launch the worker
 * had not started that may never start (HCCLT_KERNEL_DONE_START), cancelled
 * launches announced, every
 * validation errno, and a process killed with launches queued and running.
 */
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

static struct drm_hcclt_task launch_task(__u64 cookie, __u32 timeout_s)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = HCCLT_TASK_KERNEL_LAUNCH;
	t.dst_thread = cookie;
	t.timeout_s = timeout_s;
	return t;
}

/*
 * The next launch event within @ms (0: none waiting; as long as
 * hcclt_sync() would wait), or -ETIME.
 */
static int next_event(int fd, struct drm_hcclt_event_launch *ev, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	if (poll(&p, 1, ms >= HCCLT_SYNC_EXPECTED && ms < HCCLT_SLOW_MS ?
		 HCCLT_SLOW_MS : ms) <= 0)
		return -ETIME;
	n = read(fd, ev, sizeof(*ev));
	if (n != sizeof(*ev) || ev->base.type != DRM_HCCLT_EVENT_LAUNCH ||
	    ev->base.length != sizeof(*ev))
		return -EIO;
	return 0;
}

static int done(int fd, __u64 handle, __u64 seqno, __s32 status)
{
	struct drm_hcclt_kernel_done d;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	d.seqno = seqno;
	d.status = status;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d);
}

FIXTURE(kern) {
	int fd;
	__u64 comm, thread, stream;
};

FIXTURE_SETUP(kern)
{
	struct drm_hcclt_query q;

	self->fd = hcclt_open();
	if (self->fd < 0)
		SKIP(return, "no hcclthread device");
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	if (!(q.features & HCCLT_FEATURE_KERNEL_LAUNCH))
		SKIP(return, "driver without kernel launches");
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_AICPU_TS,
				   1, 1, &self->thread));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &self->stream));
}

FIXTURE_TEARDOWN(kern)
{
	if (self->fd >= 0)
		close(self->fd);
}

/* The stream stops at a launch until KERNEL_DONE; the tasks around it run in order. */
TEST_F(kern, launch_orders_tasks)
{
	struct drm_hcclt_event_launch ev;
	struct drm_hcclt_task t[3];

	t[0] = hcclt_rec(self->thread, 0);
	t[1] = launch_task(0x1234, 0);
	t[2] = hcclt_wait(0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->thread, t, 3));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(0x1234, ev.cookie);
	EXPECT_EQ(self->thread, ev.handle);
	EXPECT_EQ(0, ev.flags);
	/* Not done: the wait behind it has not run (the record set notify 0). */
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->thread, 100));
	EXPECT_EQ(-ETIME, next_event(self->fd, &ev, 0));
	EXPECT_EQ(0, done(self->fd, ev.handle, ev.seqno, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->thread, 5000));
	/* Twice: the launch is over. */
	EXPECT_EQ(-ESRCH, done(self->fd, ev.handle, ev.seqno, 0));
}

/* Through a stream id too; launches of two streams run independently. */
TEST_F(kern, launch_on_streams)
{
	struct drm_hcclt_event_launch ev[2];
	struct drm_hcclt_task t = launch_task(1, 0);
	__u64 s2;
	int i;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s2));
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	t.dst_thread = 2;
	ASSERT_EQ(0, hcclt_submit(self->fd, s2, &t, 1));
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, next_event(self->fd, &ev[i], 5000));
	EXPECT_NE(ev[0].cookie, ev[1].cookie);
	/* Answer the second first. */
	EXPECT_EQ(0, done(self->fd, ev[1].handle, ev[1].seqno, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, ev[1].handle, 5000));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, ev[0].handle, 50));
	EXPECT_EQ(0, done(self->fd, ev[0].handle, ev[0].seqno, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, ev[0].handle, 5000));
}

/* A non-zero status fails the stream once, dropping what follows. */
TEST_F(kern, nonzero_status)
{
	struct drm_hcclt_event_launch ev;
	struct drm_hcclt_task t[2] = { launch_task(7, 0), launch_task(8, 0) };

	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, t, 2));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(7, ev.cookie);
	EXPECT_EQ(0, done(self->fd, self->stream, ev.seqno, 3));
	EXPECT_EQ(-EIO, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
	/* The second launch was dropped: announced as cancelled. */
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(8, ev.cookie);
	EXPECT_EQ(HCCLT_LAUNCH_CANCELLED, ev.flags);
	EXPECT_EQ(-ESRCH, done(self->fd, self->stream, ev.seqno, 0));
}

/* A launch not done in time fails the stream with -ETIME; late: -ESRCH. */
TEST_F_TIMEOUT(kern, timeout, 60)
{
	struct drm_hcclt_event_launch ev;
	struct drm_hcclt_task t = launch_task(9, 1);

	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->stream, HCCLT_SLOW_MS));
	EXPECT_EQ(-ESRCH, done(self->fd, self->stream, ev.seqno, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 1000));
}

static int start(int fd, __u64 handle, __u64 seqno)
{
	struct drm_hcclt_kernel_done d;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	d.seqno = seqno;
	d.flags = HCCLT_KERNEL_DONE_START;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d);
}

/*
 * A launch with a 1 s timeout on one stream behind a hung launch on
 * another, the one worker of the file busy with the hung one (its event
 * read, the second's not): the second's stream reports -ETIME; when the
 * hung launch returns and the worker gets to the second event, the driver
 * says it may not start (-ESRCH), and it cannot complete either.
 */
TEST_F_TIMEOUT(kern, timed_out_never_starts, 60)
{
	struct drm_hcclt_event_launch hung, ev;
	struct drm_hcclt_task t0 = launch_task(20, 0), t1 = launch_task(21, 1);

	ASSERT_EQ(0, hcclt_submit(self->fd, self->thread, &t0, 1));
	ASSERT_EQ(0, next_event(self->fd, &hung, 5000));
	EXPECT_EQ(20, hung.cookie);
	EXPECT_EQ(0, start(self->fd, hung.handle, hung.seqno));
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t1, 1));
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->stream, 10000));
	EXPECT_EQ(0, done(self->fd, hung.handle, hung.seqno, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->thread, 5000));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(21, ev.cookie);
	EXPECT_EQ(-ESRCH, start(self->fd, ev.handle, ev.seqno));
	EXPECT_EQ(-ESRCH, done(self->fd, ev.handle, ev.seqno, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 1000));
}

/* START of a launch that runs: 0, and the launch still waits for DONE. */
TEST_F(kern, start_then_done)
{
	struct drm_hcclt_event_launch ev;
	struct drm_hcclt_task t = launch_task(22, 0);

	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(0, start(self->fd, ev.handle, ev.seqno));
	EXPECT_EQ(0, start(self->fd, ev.handle, ev.seqno));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->stream, 50));
	EXPECT_EQ(0, done(self->fd, ev.handle, ev.seqno, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(-ESRCH, start(self->fd, ev.handle, ev.seqno));
}

/* Destroying the stream cancels a running and a queued launch. */
TEST_F(kern, destroy_cancels)
{
	struct drm_hcclt_event_launch ev;
	struct drm_hcclt_task t[2] = { launch_task(10, 0), launch_task(11, 0) };

	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, t, 2));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(0, ev.flags);
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, self->stream));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(11, ev.cookie);
	EXPECT_EQ(HCCLT_LAUNCH_CANCELLED, ev.flags);
	EXPECT_EQ(-ENOENT, done(self->fd, self->stream, ev.seqno, 0));
}

/* One negative test per validation. */
TEST_F(kern, einval)
{
	struct drm_hcclt_kernel_done d;
	struct drm_hcclt_task t;

	t = launch_task(1, 0);
	t.notify_idx = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->stream, &t, 1));
	t = launch_task(1, 0);
	t.len = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->stream, &t, 1));
	t = launch_task(1, 0);
	t.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->stream, &t, 1));
	memset(&d, 0, sizeof(d));
	d.handle = self->stream;
	d.flags = 2;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d));
	d.flags = HCCLT_KERNEL_DONE_START;
	d.status = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d));
	d.status = 0;
	d.flags = 0;
	d.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d));
	EXPECT_EQ(-ENOENT, done(self->fd, HCCLT_BOGUS_ID(HCCLT_ID_KIND_STREAM), 1, 0));
	EXPECT_EQ(-ESRCH, done(self->fd, self->stream, 1, 0));
}

/* Another file gets nothing and cannot answer. */
TEST_F(kern, other_file)
{
	struct drm_hcclt_event_launch ev;
	struct drm_hcclt_task t = launch_task(5, 0);
	int fd2 = hcclt_open();

	ASSERT_GE(fd2, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	EXPECT_EQ(-ETIME, next_event(fd2, &ev, 200));
	ASSERT_EQ(0, next_event(self->fd, &ev, 5000));
	EXPECT_EQ(-ENOENT, done(fd2, ev.handle, ev.seqno, 0));
	EXPECT_EQ(0, done(self->fd, ev.handle, ev.seqno, 0));
	close(fd2);
}

/* A process killed with launches running and queued leaves nothing. */
TEST_F_TIMEOUT(kern, sigkill_with_launches, 60)
{
	struct drm_hcclt_query q0, q;
	int p[2], st;
	pid_t pid;
	char c;

	ASSERT_EQ(0, hcclt_query(self->fd, &q0));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct drm_hcclt_task t[3] = { launch_task(1, 0), launch_task(2, 0),
					       launch_task(3, 0) };
		struct drm_hcclt_event_launch ev;
		__u64 comm, th;
		int fd = hcclt_open();

		if (fd < 0 || hcclt_comm_create(fd, &comm) ||
		    hcclt_acquire(fd, comm, HCCLT_ENGINE_AICPU, 4, 2, &th) ||
		    hcclt_submit(fd, th, t, 3) || next_event(fd, &ev, 5000))
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(p[0], &c, 1));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	close(p[0]);
	close(p[1]);
	EXPECT_EQ(0, hcclt_wait_pools(self->fd, &q0, &q, 5000));
}

TEST_HARNESS_MAIN
