// SPDX-License-Identifier: GPL-2.0
/*
 * SUBMIT's in-fences and out-syncobjs (uAPI 1.5, HCCLT_FEATURE_SYNCOBJ):
 * a batch waits for drm_syncobj points (binary and timeline) and sync_files
 * before it runs, the stream parks meanwhile (INFO names the wait), an
 * in-fence's error fails the batch, out-syncobjs get the out-fence, and
 * the out-fences of a stream have growing sequence numbers.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sys/stat.h>
#include "hcclt_common.h"
#include "../../kselftest_harness.h"

static int sobj_create(int fd, __u32 *h)
{
	struct drm_syncobj_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = hcclt_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &c);
	*h = c.handle;
	return ret;
}

static int sobj_destroy(int fd, __u32 h)
{
	struct drm_syncobj_destroy d;

	memset(&d, 0, sizeof(d));
	d.handle = h;
	return hcclt_ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

/* Wait up to @ms for @h at @point (0: binary); 0 or -errno. */
static int sobj_wait(int fd, __u32 h, __u64 point, int ms)
{
	struct drm_syncobj_timeline_wait w;

	memset(&w, 0, sizeof(w));
	w.handles = (__u64)(uintptr_t)&h;
	w.points = (__u64)(uintptr_t)&point;
	w.count_handles = 1;
	w.timeout_nsec = (__s64)(hcclt_now_ms() + ms) * 1000000;
	return hcclt_ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
}

struct sub {
	const struct drm_hcclt_task *tasks;
	__u32 n;
	__u32 flags;
	int in_fd;
	struct drm_hcclt_sync in[2], out[2];
	__u32 nin, nout;
	__u32 pad2;
};

static int submit(int fd, __u64 handle, struct sub *x, int *fence_fd)
{
	struct drm_hcclt_submit a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	a.tasks_ptr = (__u64)(uintptr_t)x->tasks;
	a.task_count = x->n;
	a.task_size = sizeof(struct drm_hcclt_task);
	a.flags = x->flags;
	a.in_fence_fd = x->in_fd;
	a.in_syncs_ptr = (__u64)(uintptr_t)x->in;
	a.in_sync_count = x->nin;
	a.out_syncs_ptr = (__u64)(uintptr_t)x->out;
	a.out_sync_count = x->nout;
	a.pad2 = x->pad2;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &a);
	if (fence_fd)
		*fence_fd = a.fence_fd;
	return ret;
}

static struct drm_hcclt_task nwait(__u32 id)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = HCCLT_TASK_ACL_NOTIFY_WAIT;
	t.notify_idx = id;
	return t;
}

static struct drm_hcclt_task nrec(__u32 id)
{
	struct drm_hcclt_task t = nwait(id);

	t.op = HCCLT_TASK_ACL_NOTIFY_RECORD;
	return t;
}

FIXTURE(so) {
	int fd;
	__u64 comm, th[2], a, b;
	__u32 n;	/* an ACL notify: stream a waits on it */
	struct drm_hcclt_query q0;
};

FIXTURE_SETUP(so)
{
	self->fd = hcclt_open();
	if (self->fd < 0)
		SKIP(return, "no hcclthread device");
	ASSERT_EQ(0, hcclt_query(self->fd, &self->q0));
	if (!(self->q0.features & HCCLT_FEATURE_SYNCOBJ))
		SKIP(return, "driver without syncobj support");
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU, 2, 1,
				   self->th));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &self->a));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &self->b));
	ASSERT_EQ(0, hcclt_acl_notify_create(self->fd, &self->n));
}

FIXTURE_TEARDOWN(so)
{
	/* Pools back at their start: the notify pool by QUERY. */
	if (self->fd >= 0)
		EXPECT_EQ(0, hcclt_close_wait_pools(self->fd, &self->q0));
}

/* One negative test per validation. */
TEST_F(so, einval)
{
	struct drm_hcclt_task t = nrec(self->n);
	struct sub x = { .tasks = &t, .n = 1 };
	__u32 h;
	int pfd[2];

	ASSERT_EQ(0, sobj_create(self->fd, &h));
	x.flags = 0x4;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.flags = 0;
	x.in_fd = 3;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.in_fd = 0;
	x.nin = HCCLT_MAX_SYNCS + 1;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.nin = 0;
	x.nout = HCCLT_MAX_SYNCS + 1;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.nout = 1;
	x.out[0].handle = h;
	x.out[0].flags = 1;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.out[0].flags = 0;
	x.out[0].handle = h + 100;
	EXPECT_EQ(-ENOENT, submit(self->fd, self->a, &x, NULL));
	x.nout = 0;
	/* A binary syncobj that has no fence yet. */
	x.nin = 1;
	x.in[0].handle = h;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.in[0].handle = h + 100;
	EXPECT_EQ(-ENOENT, submit(self->fd, self->a, &x, NULL));
	x.in[0].handle = h;
	x.in[0].flags = 2;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.nin = 0;
	/* Not a sync_file. */
	ASSERT_EQ(0, pipe(pfd));
	x.flags = HCCLT_SUBMIT_FENCE_IN;
	x.in_fd = pfd[0];
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.in_fd = -1;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	close(pfd[0]);
	close(pfd[1]);
	x.flags = 0;
	x.in_fd = 0;
	x.pad2 = 1;
	EXPECT_EQ(-EINVAL, submit(self->fd, self->a, &x, NULL));
	x.pad2 = 0;
	/* Nothing of it was queued: stream a is idle. */
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 1000));
	EXPECT_EQ(0, sobj_destroy(self->fd, h));
}

/*
 * Stream a waits on a notify, then its batch signals a binary syncobj and
 * a timeline point; stream b's batches wait for each and stay parked (INFO
 * says on in-fences) until a runs; the out-syncobjs signal then.
 */
TEST_F(so, syncobj_orders_streams)
{
	struct drm_hcclt_task t[2], r = nrec(self->n), w = nwait(self->n);
	struct sub xa = { .tasks = t, .n = 1, .nout = 2 };
	struct sub xb = { .tasks = t + 1, .n = 1, .nin = 1 };
	struct drm_hcclt_thread_info ti;
	__u32 bin, tl;
	__s64 t0;

	ASSERT_EQ(0, sobj_create(self->fd, &bin));
	ASSERT_EQ(0, sobj_create(self->fd, &tl));
	t[0] = w;
	xa.out[0].handle = bin;
	xa.out[1].handle = tl;
	xa.out[1].point = 5;
	ASSERT_EQ(0, submit(self->fd, self->a, &xa, NULL));
	EXPECT_EQ(-ETIME, sobj_wait(self->fd, bin, 0, 100));
	EXPECT_EQ(-ETIME, sobj_wait(self->fd, tl, 5, 100));
	/* Thread 0 waits for the binary one, then records thread 1. */
	t[1] = hcclt_rec(self->th[1], 0);
	xb.in[0].handle = bin;
	ASSERT_EQ(0, submit(self->fd, self->th[0], &xb, NULL));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->th[0], 200));
	ASSERT_EQ(0, hcclt_thread_info(self->fd, self->th[0], &ti));
	EXPECT_EQ(HCCLT_STATE_PARKED, ti.state);
	/* Thread 1 waits for the timeline point, then for thread 0. */
	t[1] = hcclt_wait(0, 0);
	xb.in[0].handle = tl;
	xb.in[0].point = 5;
	ASSERT_EQ(0, submit(self->fd, self->th[1], &xb, NULL));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->th[1], 200));
	/* Release a from stream b: everything runs, in order. */
	t0 = hcclt_now_ms();
	xa.tasks = &r;
	xa.nout = 0;
	ASSERT_EQ(0, submit(self->fd, self->b, &xa, NULL));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[0], HCCLT_SLOW_MS));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[1], HCCLT_SLOW_MS));
	/* Released by the signal, not late: see HCCLT_SLOW_MS. */
	EXPECT_GT(HCCLT_SLOW_MS, hcclt_now_ms() - t0);
	EXPECT_EQ(0, sobj_wait(self->fd, bin, 0, 1000));
	EXPECT_EQ(0, sobj_wait(self->fd, tl, 5, 1000));
	EXPECT_EQ(0, sobj_destroy(self->fd, bin));
	EXPECT_EQ(0, sobj_destroy(self->fd, tl));
}

/* A sync_file from another stream's FENCE_OUT, and a barrier of no task. */
TEST_F(so, sync_file_in)
{
	struct drm_hcclt_task w = nwait(self->n), r = nrec(self->n);
	struct sub xa = { .tasks = &w, .n = 1, .flags = HCCLT_SUBMIT_FENCE_OUT };
	struct sub xb = { .flags = HCCLT_SUBMIT_FENCE_IN };
	struct sub xr = { .tasks = &r, .n = 1 };
	int f = -1;

	ASSERT_EQ(0, submit(self->fd, self->a, &xa, &f));
	ASSERT_LE(0, f);
	/* No task: stream b only waits for the fence. */
	xb.in_fd = f;
	ASSERT_EQ(0, submit(self->fd, self->b, &xb, NULL));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->b, 200));
	ASSERT_EQ(0, submit(self->fd, self->th[0], &xr, NULL));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->b, 10000));
	close(f);
}

/* An in-fence that signals with an error fails the batch, once. */
TEST_F(so, failed_in_fence_fails_the_batch)
{
	struct drm_hcclt_task w = nwait(self->n), t = hcclt_rec(self->th[1], 0);
	struct sub xa = { .tasks = &w, .n = 1, .nout = 1 };
	struct sub xb = { .tasks = &t, .n = 1, .nin = 1 };
	__u32 h;

	ASSERT_EQ(0, sobj_create(self->fd, &h));
	xa.out[0].handle = h;
	ASSERT_EQ(0, submit(self->fd, self->a, &xa, NULL));
	xb.in[0].handle = h;
	ASSERT_EQ(0, submit(self->fd, self->th[0], &xb, NULL));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(self->fd, self->th[0], 100));
	/* Destroying stream a cancels its wait: its fence fails. */
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, self->a));
	self->a = 0;
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->th[0], 10000));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->th[0], 1000));
	/* Its record was dropped: thread 1's notify is not set. */
	t = hcclt_wait(0, 1);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->th[1], &t, 1));
	EXPECT_NE(0, hcclt_sync(self->fd, self->th[1], 5000));
	EXPECT_EQ(0, sobj_destroy(self->fd, h));
}

/*
 * A stream parked on an in-fence is destroyed, then the fence signals; and
 * a file is closed with a stream parked on a fence of another file.
 */
TEST_F(so, destroyed_while_parked)
{
	struct drm_hcclt_task w = nwait(self->n), r = nrec(self->n);
	struct sub xa = { .tasks = &w, .n = 1, .flags = HCCLT_SUBMIT_FENCE_OUT };
	struct sub xb = { .flags = HCCLT_SUBMIT_FENCE_IN };
	struct sub xr = { .tasks = &r, .n = 1 };
	__u64 c, s2;
	int f = -1, fd2;

	ASSERT_EQ(0, submit(self->fd, self->a, &xa, &f));
	xb.in_fd = f;
	ASSERT_EQ(0, submit(self->fd, self->b, &xb, NULL));
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, self->b));
	self->b = 0;
	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, hcclt_stream_create(fd2, &s2));
	ASSERT_EQ(0, submit(fd2, s2, &xb, NULL));
	ASSERT_EQ(0, hcclt_comm_create(fd2, &c));
	close(fd2);
	ASSERT_EQ(0, submit(self->fd, self->th[0], &xr, NULL));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 10000));
	close(f);
}

/*
 * The out-fences of a stream have one context and growing sequence
 * numbers, also fence-only ones (the dma_fence_init tracepoint).
 */
TEST_F(so, fence_seqnos_grow)
{
	static const char *const roots[] = { "/sys/kernel/tracing",
					     "/sys/kernel/debug/tracing" };
	struct sub x = { .flags = HCCLT_SUBMIT_FENCE_OUT };
	unsigned long long ctx[3], seq[3];
	char path[256], line[512];
	const char *root = NULL;
	unsigned int i, got = 0;
	FILE *fp;
	int f;

	for (i = 0; i < HCCLT_ARRAY_SIZE(roots) && !root; i++) {
		snprintf(path, sizeof(path),
			 "%s/events/dma_fence/dma_fence_init/enable", roots[i]);
		if (!access(path, W_OK))
			root = roots[i];
	}
	if (!root)
		SKIP(return, "no dma_fence tracepoints (tracefs, root)");
	snprintf(path, sizeof(path), "%s/trace", root);
	fp = fopen(path, "w");
	ASSERT_NE(NULL, fp);
	fclose(fp);
	snprintf(path, sizeof(path),
		 "%s/events/dma_fence/dma_fence_init/enable", root);
	fp = fopen(path, "w");
	ASSERT_NE(NULL, fp);
	fputs("1", fp);
	fclose(fp);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, submit(self->fd, self->a, &x, &f));
		close(f);
	}
	fp = fopen(path, "w");
	ASSERT_NE(NULL, fp);
	fputs("0", fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/trace", root);
	fp = fopen(path, "r");
	ASSERT_NE(NULL, fp);
	while (fgets(line, sizeof(line), fp) && got < 3) {
		char *p = strstr(line, "driver=hcclthread");

		if (p && sscanf(strstr(p, "context="), "context=%llu seqno=%llu",
				&ctx[got], &seq[got]) == 2)
			got++;
	}
	fclose(fp);
	ASSERT_EQ(3, got);
	EXPECT_EQ(ctx[0], ctx[1]);
	EXPECT_EQ(ctx[1], ctx[2]);
	EXPECT_LT(0, seq[0]);
	EXPECT_EQ(seq[0] + 1, seq[1]);
	EXPECT_EQ(seq[1] + 1, seq[2]);
}

/*
 * Unbinding a device while its streams wait for in-fences, one of another
 * device (its callback is removed; the fence signals later) and one of
 * the same device (flushed in the same unplug), is clean: the waits end
 * with -ENODEV, the other device goes on, and the device binds again.
 * The kernel log (KASAN, lockdep, kmemleak on the debug kernels) is what
 * the VM runner checks. Root and two devices; skips otherwise.
 */
TEST(unplug_while_gated)
{
	struct drm_hcclt_task w, r;
	struct sub xy = { .tasks = &w, .n = 1, .flags = HCCLT_SUBMIT_FENCE_OUT };
	struct sub xg = { .flags = HCCLT_SUBMIT_FENCE_IN };
	struct drm_hcclt_query q;
	__u64 y, y2, a1, a2, a3;
	__u32 ny, nx;
	char name[2][64];
	int fd[2], fy, fx;

	if (access(HCCLT_PDRV_DIR "/unbind", W_OK))
		SKIP(return, "%s/unbind: %s", HCCLT_PDRV_DIR, strerror(errno));
	if (hcclt_open_two(fd, name) < 2)
		SKIP(return, "two hcclthread devices needed");
	ASSERT_EQ(0, hcclt_query(fd[0], &q));
	if (!(q.features & HCCLT_FEATURE_SYNCOBJ))
		SKIP(return, "driver without syncobj support");
	/* Device B: a stream held by a notify nobody records yet. */
	ASSERT_EQ(0, hcclt_acl_notify_create(fd[1], &ny));
	ASSERT_EQ(0, hcclt_stream_create(fd[1], &y));
	ASSERT_EQ(0, hcclt_stream_create(fd[1], &y2));
	w = nwait(ny);
	ASSERT_EQ(0, submit(fd[1], y, &xy, &fy));
	/* Device A: one stream waits for B's fence, one for A's own. */
	ASSERT_EQ(0, hcclt_acl_notify_create(fd[0], &nx));
	ASSERT_EQ(0, hcclt_stream_create(fd[0], &a1));
	ASSERT_EQ(0, hcclt_stream_create(fd[0], &a2));
	ASSERT_EQ(0, hcclt_stream_create(fd[0], &a3));
	xg.in_fd = fy;
	ASSERT_EQ(0, submit(fd[0], a1, &xg, NULL));
	w = nwait(nx);
	ASSERT_EQ(0, submit(fd[0], a2, &xy, &fx));
	xg.in_fd = fx;
	ASSERT_EQ(0, submit(fd[0], a3, &xg, NULL));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(fd[0], a1, 100));
	EXPECT_EQ(-ETIMEDOUT, hcclt_sync(fd[0], a3, 100));

	ASSERT_EQ(0, hcclt_write_str(HCCLT_PDRV_DIR "/unbind", name[0]));
	EXPECT_EQ(-ENODEV, hcclt_sync(fd[0], a1, 1000));
	/* B's fence signals after A is gone. */
	r = nrec(ny);
	xy.tasks = &r;
	xy.flags = 0;
	ASSERT_EQ(0, submit(fd[1], y2, &xy, NULL));
	EXPECT_EQ(0, hcclt_sync(fd[1], y, 10000));
	close(fd[0]);
	close(fx);
	close(fy);
	close(fd[1]);
	EXPECT_EQ(0, hcclt_write_str(HCCLT_PDRV_DIR "/bind", name[0]));
}

/*
 * The DRM core's syncobj ioctls with a handle array, which the driver
 * serves itself (hcclt_syncobj_ioctl.c): their answers and errnos.
 */
static long long abs_ns(int ms)
{
	return (hcclt_now_ms() + ms) * 1000000;
}

static int cwait(int fd, const __u32 *h, __u32 n, __u32 flags, int ms,
		 __u32 *first)
{
	struct drm_syncobj_wait w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.handles = (__u64)(uintptr_t)h;
	w.count_handles = n;
	w.flags = flags;
	w.timeout_nsec = ms < 0 ? 0 : abs_ns(ms);
	w.first_signaled = 0xdead;
	ret = hcclt_ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &w);
	if (first)
		*first = w.first_signaled;
	return ret;
}

static int ctwait(int fd, const __u32 *h, const __u64 *p, __u32 n,
		  __u32 flags, int ms, __u32 *first)
{
	struct drm_syncobj_timeline_wait w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.handles = (__u64)(uintptr_t)h;
	w.points = (__u64)(uintptr_t)p;
	w.count_handles = n;
	w.flags = flags;
	w.timeout_nsec = ms < 0 ? 0 : abs_ns(ms);
	w.first_signaled = 0xdead;
	ret = hcclt_ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &w);
	if (first)
		*first = w.first_signaled;
	return ret;
}

static int carray(int fd, unsigned long cmd, const __u32 *h, __u32 n,
		  __u32 pad)
{
	struct drm_syncobj_array a;

	memset(&a, 0, sizeof(a));
	a.handles = (__u64)(uintptr_t)h;
	a.count_handles = n;
	a.pad = pad;
	return hcclt_ioctl(fd, cmd, &a);
}

static int ctarray(int fd, unsigned long cmd, const __u32 *h, __u64 *p,
		   __u32 n, __u32 flags)
{
	struct drm_syncobj_timeline_array a;

	memset(&a, 0, sizeof(a));
	a.handles = (__u64)(uintptr_t)h;
	a.points = (__u64)(uintptr_t)p;
	a.count_handles = n;
	a.flags = flags;
	return hcclt_ioctl(fd, cmd, &a);
}

/* Validation: one negative call per check, the core's errnos. */
TEST_F(so, core_array_einval)
{
	__u32 h[2], bad[2];
	__u64 p[2] = { 1, 1 };

	ASSERT_EQ(0, sobj_create(self->fd, &h[0]));
	ASSERT_EQ(0, sobj_create(self->fd, &h[1]));
	bad[0] = h[0];
	bad[1] = h[1] + 100;
	EXPECT_EQ(0, carray(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, h, 2, 0));
	/* Flags and pad. */
	EXPECT_EQ(-EINVAL, cwait(self->fd, h, 1, 0x80, -1, NULL));
	EXPECT_EQ(-EINVAL, cwait(self->fd, h, 1,
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, -1,
				 NULL));
	EXPECT_EQ(-EINVAL, ctwait(self->fd, h, p, 1, 0x80, -1, NULL));
	EXPECT_EQ(-EINVAL, carray(self->fd, DRM_IOCTL_SYNCOBJ_RESET, h, 1, 1));
	EXPECT_EQ(-EINVAL, carray(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, h, 1, 1));
	EXPECT_EQ(-EINVAL, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
				   h, p, 1, 1));
	EXPECT_EQ(-EINVAL, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, p, 1,
				   2));
	/* Counts: 0 waits for nothing; the others need a handle. */
	EXPECT_EQ(0, cwait(self->fd, h, 0, 0, -1, NULL));
	EXPECT_EQ(0, ctwait(self->fd, h, p, 0, 0, -1, NULL));
	EXPECT_EQ(-EINVAL, carray(self->fd, DRM_IOCTL_SYNCOBJ_RESET, h, 0, 0));
	EXPECT_EQ(-EINVAL, carray(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, h, 0, 0));
	EXPECT_EQ(-EINVAL, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
				   h, p, 0, 0));
	EXPECT_EQ(-EINVAL, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, p, 0,
				   0));
	EXPECT_EQ(-EINVAL, cwait(self->fd, h, HCCLT_MAX_SYNCOBJ_HANDLES + 1, 0,
				 -1, NULL));
	EXPECT_EQ(-EINVAL, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, p,
				   HCCLT_MAX_SYNCOBJ_HANDLES + 1, 0));
	/* A handle that names nothing; unreadable arrays. */
	EXPECT_EQ(-ENOENT, cwait(self->fd, bad, 2, 0, -1, NULL));
	EXPECT_EQ(-ENOENT, ctwait(self->fd, bad, p, 2, 0, -1, NULL));
	EXPECT_EQ(-ENOENT, carray(self->fd, DRM_IOCTL_SYNCOBJ_RESET, bad, 2,
				  0));
	EXPECT_EQ(-ENOENT, carray(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, bad, 2,
				  0));
	EXPECT_EQ(-ENOENT, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
				   bad, p, 2, 0));
	EXPECT_EQ(-ENOENT, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, bad, p,
				   2, 0));
	EXPECT_EQ(-EFAULT, cwait(self->fd, (__u32 *)8, 1, 0, -1, NULL));
	EXPECT_EQ(-EFAULT, ctwait(self->fd, h, (__u64 *)8, 1, 0, -1, NULL));
	EXPECT_EQ(-EFAULT, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
				   h, (__u64 *)8, 1, 0));
	EXPECT_EQ(-EFAULT, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h,
				   (__u64 *)8, 1, 0));
	/* A wait for a fence that is not there, without WAIT_FOR_SUBMIT. */
	EXPECT_EQ(0, carray(self->fd, DRM_IOCTL_SYNCOBJ_RESET, h, 1, 0));
	EXPECT_EQ(-EINVAL, cwait(self->fd, h, 1, 0, 1000, NULL));
	p[0] = 5;
	EXPECT_EQ(-EINVAL, ctwait(self->fd, &h[1], p, 1, 0, 1000, NULL));
	EXPECT_EQ(0, sobj_destroy(self->fd, h[0]));
	EXPECT_EQ(0, sobj_destroy(self->fd, h[1]));
}

/*
 * Binary syncobjs: SIGNAL, RESET, WAIT with and without WAIT_ALL on a
 * batch's real out-fence, first_signaled, and a poll (timeout 0).
 */
TEST_F(so, core_binary_wait)
{
	struct drm_hcclt_task w = nwait(self->n), r = nrec(self->n);
	struct sub x = { .tasks = &w, .n = 1, .nout = 1 };
	struct sub y = { .tasks = &r, .n = 1 };
	__u32 h[2], first;
	__u64 p[2] = { 0, 0 };

	ASSERT_EQ(0, sobj_create(self->fd, &h[0]));
	ASSERT_EQ(0, sobj_create(self->fd, &h[1]));
	/* h[0] gets the fence of a batch parked on the notify. */
	x.out[0].handle = h[0];
	ASSERT_EQ(0, submit(self->fd, self->a, &x, NULL));
	ASSERT_EQ(0, carray(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &h[1], 1, 0));
	EXPECT_EQ(-ETIME, cwait(self->fd, h, 1, 0, -1, NULL));
	EXPECT_EQ(-ETIME, cwait(self->fd, h, 1, 0, 100, NULL));
	EXPECT_EQ(-ETIME, ctwait(self->fd, h, p, 1, 0, 100, NULL));
	EXPECT_EQ(-ETIME, cwait(self->fd, h, 2,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, 100, NULL));
	EXPECT_EQ(0, cwait(self->fd, h, 2, 0, 100, &first));
	EXPECT_EQ(1, first);
	EXPECT_EQ(0, ctwait(self->fd, h, p, 2, 0, -1, &first));
	EXPECT_EQ(1, first);
	/* The batch runs: the fence signals, the waits return. */
	ASSERT_EQ(0, submit(self->fd, self->b, &y, NULL));
	EXPECT_EQ(0, cwait(self->fd, h, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL,
			   10000, NULL));
	EXPECT_EQ(0, cwait(self->fd, h, 1, 0, 10000, &first));
	EXPECT_EQ(0, first);
	EXPECT_EQ(0, ctwait(self->fd, h, p, 1, 0, -1, &first));
	EXPECT_EQ(0, first);
	/* RESET takes the fence away; SIGNAL gives a signalled one. */
	EXPECT_EQ(0, carray(self->fd, DRM_IOCTL_SYNCOBJ_RESET, h, 2, 0));
	EXPECT_EQ(-EINVAL, cwait(self->fd, h, 1, 0, -1, NULL));
	EXPECT_EQ(-ETIME, cwait(self->fd, h, 2,
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 50,
				NULL));
	EXPECT_EQ(0, carray(self->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, h, 2, 0));
	EXPECT_EQ(0, cwait(self->fd, h, 2, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, -1,
			   NULL));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 10000));
	EXPECT_EQ(0, sobj_destroy(self->fd, h[0]));
	EXPECT_EQ(0, sobj_destroy(self->fd, h[1]));
}

struct late_signal {
	int fd;
	__u32 h;
	__u64 point;
	int ms;
};

/* Signal a point (0: the binary syncobj) after a delay. */
static void *late_signal(void *arg)
{
	struct late_signal *l = arg;

	hcclt_msleep(l->ms);
	if (l->point)
		ctarray(l->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, &l->h,
			&l->point, 1, 0);
	else
		carray(l->fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &l->h, 1, 0);
	return NULL;
}

/*
 * Timelines: TIMELINE_SIGNAL, QUERY with and without LAST_SUBMITTED,
 * TIMELINE_WAIT on signalled and future points, WAIT_AVAILABLE, and
 * WAIT_FOR_SUBMIT for a point (and a binary fence) that another thread
 * signals while the call waits.
 */
TEST_F(so, core_timeline)
{
	struct drm_hcclt_task w = nwait(self->n), r = nrec(self->n);
	struct sub x = { .tasks = &w, .n = 1, .nout = 1 };
	struct sub y = { .tasks = &r, .n = 1 };
	struct late_signal l;
	__u32 h[2], first;
	__u64 p[2], q[2];
	pthread_t th;

	ASSERT_EQ(0, sobj_create(self->fd, &h[0]));
	ASSERT_EQ(0, sobj_create(self->fd, &h[1]));
	p[0] = 3;
	p[1] = 7;
	ASSERT_EQ(0, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL, h, p,
			     2, 0));
	EXPECT_EQ(0, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, q, 2, 0));
	EXPECT_EQ(3, q[0]);
	EXPECT_EQ(7, q[1]);
	/* Point 5 of h[0] comes from a batch parked on the notify. */
	x.out[0].handle = h[0];
	x.out[0].point = 5;
	ASSERT_EQ(0, submit(self->fd, self->a, &x, NULL));
	EXPECT_EQ(0, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, q, 2, 0));
	EXPECT_EQ(3, q[0]);
	EXPECT_EQ(0, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, q, 2,
			     DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED));
	EXPECT_EQ(5, q[0]);
	EXPECT_EQ(7, q[1]);
	p[0] = 2;
	EXPECT_EQ(0, ctwait(self->fd, h, p, 1, 0, -1, NULL));
	p[0] = 5;
	EXPECT_EQ(-ETIME, ctwait(self->fd, h, p, 1, 0, 100, NULL));
	EXPECT_EQ(0, ctwait(self->fd, h, p, 1,
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, -1, NULL));
	EXPECT_EQ(0, ctwait(self->fd, h, p, 2, 0, -1, &first));
	EXPECT_EQ(1, first);
	/* Point 9 is not submitted: -EINVAL, or wait for it. */
	p[0] = 9;
	EXPECT_EQ(-EINVAL, ctwait(self->fd, h, p, 1, 0, 100, NULL));
	EXPECT_EQ(-ETIME, ctwait(self->fd, h, p, 1,
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE, 50,
				 NULL));
	EXPECT_EQ(-ETIME, ctwait(self->fd, h, p, 1,
				 DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 50,
				 NULL));
	/* The batch runs; point 5 signals, then 3..5 are reached. */
	ASSERT_EQ(0, submit(self->fd, self->b, &y, NULL));
	p[0] = 5;
	EXPECT_EQ(0, ctwait(self->fd, h, p, 2,
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, 10000, &first));
	EXPECT_EQ(0, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, q, 1, 0));
	EXPECT_EQ(5, q[0]);
	/* Another thread submits point 9 while the call waits for it. */
	l.fd = self->fd;
	l.h = h[0];
	l.point = 9;
	l.ms = 200;
	ASSERT_EQ(0, pthread_create(&th, NULL, late_signal, &l));
	p[0] = 9;
	EXPECT_EQ(0, ctwait(self->fd, h, p, 1,
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT |
			    DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, 30000, NULL));
	pthread_join(th, NULL);
	EXPECT_EQ(0, ctarray(self->fd, DRM_IOCTL_SYNCOBJ_QUERY, h, q, 1, 0));
	EXPECT_EQ(9, q[0]);
	/* And a binary fence, with WAIT (binary) and WAIT_FOR_SUBMIT. */
	ASSERT_EQ(0, carray(self->fd, DRM_IOCTL_SYNCOBJ_RESET, &h[1], 1, 0));
	l.h = h[1];
	l.point = 0;
	ASSERT_EQ(0, pthread_create(&th, NULL, late_signal, &l));
	EXPECT_EQ(0, cwait(self->fd, &h[1], 1,
			   DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, 30000,
			   &first));
	EXPECT_EQ(0, first);
	pthread_join(th, NULL);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->a, 10000));
	EXPECT_EQ(0, sobj_destroy(self->fd, h[0]));
	EXPECT_EQ(0, sobj_destroy(self->fd, h[1]));
}

TEST_HARNESS_MAIN
