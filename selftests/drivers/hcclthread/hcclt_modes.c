// SPDX-License-Identifier: GPL-2.0
/*
 * Stream parameters (uAPI 1.8): DRM_IOCTL_HCCLT_SET_PARAM's failure modes
 * (HCCLT_FAILURE_DROP, _CONTINUE, _STOP, per stream and for a whole file)
 * on every kind of failure the executor has (a wait that loses its
 * notify, a wait that times out, a launch that fails), the saturation of
 * float reduces (HCCLT_PARAM_SATURATION), and HCCLT_TASK_EVENT_RESET.
 * Every validation errno. Whether a task behind a failed one ran is read
 * from an event recorded there: HCCLT_EVENT_COMPLETE with a time when it
 * ran, HCCLT_EVENT_FAILED when it was dropped.
 */
#include <poll.h>
#include <sys/mman.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

static int set_param(int fd, __u64 handle, __u32 param, __u64 value)
{
	struct drm_hcclt_set_param a;

	memset(&a, 0, sizeof(a));
	a.handle = handle;
	a.param = param;
	a.value = value;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SET_PARAM, &a);
}

static int ev_create(int fd, __u64 *id)
{
	struct drm_hcclt_event_create c;
	int ret;

	memset(&c, 0, sizeof(c));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_CREATE, &c);
	if (!ret)
		*id = c.event_id;
	return ret;
}

/* EVENT_WAIT of timeout 0: the event's status, its time in *@ts. */
static int ev_status(int fd, __u64 id, __u64 *ts)
{
	struct drm_hcclt_event_wait w;
	int ret;

	memset(&w, 0, sizeof(w));
	w.event_id = id;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_EVENT_WAIT, &w);
	if (ret)
		return ret;
	if (ts)
		*ts = w.timestamp_ns;
	return (int)w.status;
}

static struct drm_hcclt_task task(__u32 op, __u64 dst, __u32 idx, __u32 tmo)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = op;
	t.dst_thread = dst;
	t.notify_idx = idx;
	t.timeout_s = tmo;
	return t;
}

static int nt_destroy(int fd, __u32 id)
{
	struct drm_hcclt_notify_destroy d;

	memset(&d, 0, sizeof(d));
	d.notify_id = id;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_NOTIFY_DESTROY, &d);
}

/*
 * Queue on @handle a wait on a new ACL notify, then a record of a new
 * event (*@ev), and fail the wait by destroying its notify: the wait
 * fails with -ECANCELED, the record runs or is dropped as the mode says.
 */
static int fail_then_record(int fd, __u64 handle, __u64 *ev)
{
	struct drm_hcclt_task t[2];
	__u32 n;
	int ret;

	ret = ev_create(fd, ev);
	if (!ret)
		ret = hcclt_acl_notify_create(fd, &n);
	if (ret)
		return ret;
	t[0] = task(HCCLT_TASK_ACL_NOTIFY_WAIT, 0, n, 0);
	t[1] = task(HCCLT_TASK_EVENT_RECORD, *ev, 0, 0);
	ret = hcclt_submit(fd, handle, t, 2);
	if (!ret)
		ret = nt_destroy(fd, n);
	return ret;
}

FIXTURE(mode) {
	int fd;
	__u64 stream;
	struct drm_hcclt_query q;
};

FIXTURE_SETUP(mode)
{
	self->fd = hcclt_open();
	if (self->fd < 0)
		SKIP(return, "no hcclthread device");
	ASSERT_EQ(0, hcclt_query(self->fd, &self->q));
	if (!(self->q.features & HCCLT_FEATURE_FAILURE_MODES))
		SKIP(return, "driver without stream parameters");
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &self->stream));
}

FIXTURE_TEARDOWN(mode)
{
	if (self->fd >= 0)
		EXPECT_EQ(0, hcclt_close_wait_pools(self->fd, &self->q));
}

TEST_F(mode, query)
{
	EXPECT_LE(8, self->q.uapi_minor);
	EXPECT_TRUE(self->q.features & HCCLT_FEATURE_SATURATION);
	EXPECT_TRUE(self->q.features & HCCLT_FEATURE_EVENT_RESET);
}

/* Every errno of SET_PARAM, in the order the uAPI lists them. */
TEST_F(mode, set_param_einval)
{
	struct drm_hcclt_set_param a;
	__u64 bogus = HCCLT_BOGUS_ID(HCCLT_ID_KIND_STREAM);

	memset(&a, 0, sizeof(a));
	a.handle = self->stream;
	a.param = HCCLT_PARAM_FAILURE_MODE;
	a.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_SET_PARAM, &a));
	EXPECT_EQ(-EINVAL, set_param(self->fd, self->stream, 0, 0));
	EXPECT_EQ(-EINVAL, set_param(self->fd, self->stream, 3, 0));
	EXPECT_EQ(-EINVAL, set_param(self->fd, self->stream,
				     HCCLT_PARAM_FAILURE_MODE, 3));
	EXPECT_EQ(-EINVAL, set_param(self->fd, 0, HCCLT_PARAM_FAILURE_MODE,
				     HCCLT_FAILURE_CONTINUE));
	EXPECT_EQ(-EINVAL, set_param(self->fd, 0, HCCLT_PARAM_FAILURE_MODE,
				     HCCLT_FAILURE_DROP));
	EXPECT_EQ(-EINVAL, set_param(self->fd, self->stream,
				     HCCLT_PARAM_SATURATION, 1));
	EXPECT_EQ(-EINVAL, set_param(self->fd, 0, HCCLT_PARAM_SATURATION, 2));
	EXPECT_EQ(-ENOENT, set_param(self->fd, bogus, HCCLT_PARAM_FAILURE_MODE,
				     HCCLT_FAILURE_CONTINUE));
	EXPECT_EQ(-ENOENT, set_param(self->fd,
				     HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD),
				     HCCLT_PARAM_FAILURE_MODE,
				     HCCLT_FAILURE_CONTINUE));
	/* Each valid one, for the record. */
	EXPECT_EQ(0, set_param(self->fd, self->stream, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_CONTINUE));
	EXPECT_EQ(0, set_param(self->fd, self->stream, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_DROP));
	EXPECT_EQ(0, set_param(self->fd, 0, HCCLT_PARAM_SATURATION, 1));
	EXPECT_EQ(0, set_param(self->fd, 0, HCCLT_PARAM_SATURATION, 0));
}

/* Until set, the tasks behind a failed one are dropped; later ones run. */
TEST_F(mode, drop_is_the_default)
{
	struct drm_hcclt_task t;
	__u64 ev, ev2, ts = 1;

	ASSERT_EQ(0, fail_then_record(self->fd, self->stream, &ev));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_FAILED, ev_status(self->fd, ev, &ts));
	EXPECT_EQ(0, ts);
	/* Reported once; the stream takes tasks again. */
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 0));
	ASSERT_EQ(0, ev_create(self->fd, &ev2));
	t = task(HCCLT_TASK_EVENT_RECORD, ev2, 0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev2, &ts));
	EXPECT_NE(0, ts);
}

/* CONTINUE: the failure is reported, the task behind it runs. */
TEST_F(mode, continue_runs_the_next_task)
{
	__u64 ev, ts = 0;

	ASSERT_EQ(0, set_param(self->fd, self->stream, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_CONTINUE));
	ASSERT_EQ(0, fail_then_record(self->fd, self->stream, &ev));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
	EXPECT_NE(0, ts);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 0));
}

/* CONTINUE after a wait's timeout (the timer's path). */
TEST_F_TIMEOUT(mode, continue_after_timeout, 120)
{
	struct drm_hcclt_task t[3];
	__u64 ev, ts = 0;
	__u32 n;

	ASSERT_EQ(0, set_param(self->fd, self->stream, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_CONTINUE));
	ASSERT_EQ(0, ev_create(self->fd, &ev));
	ASSERT_EQ(0, hcclt_acl_notify_create(self->fd, &n));
	t[0] = task(HCCLT_TASK_ACL_NOTIFY_WAIT, 0, n, 1);
	t[1] = task(HCCLT_TASK_EVENT_RECORD, ev, 0, 0);
	/* A second wait that times out: each failure goes on. */
	t[2] = task(HCCLT_TASK_ACL_NOTIFY_WAIT, 0, n, 1);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, t, 3));
	/* Without HCCLT_WAIT_DEADLINE a wait task's timeout is -ETIME. */
	EXPECT_EQ(-ETIME, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
	EXPECT_NE(0, ts);
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
}

/* The next launch event within @ms. */
static int next_launch(int fd, struct drm_hcclt_event_launch *ev, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (poll(&p, 1, ms) <= 0)
		return -ETIME;
	if (read(fd, ev, sizeof(*ev)) != sizeof(*ev) ||
	    ev->base.type != DRM_HCCLT_EVENT_LAUNCH)
		return -EIO;
	return 0;
}

static int launch_done(int fd, __u64 handle, __u64 seqno, __s32 status)
{
	struct drm_hcclt_kernel_done d;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	d.seqno = seqno;
	d.status = status;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d);
}

/*
 * A launch that fails (the copy engine's and the AI CPU's path): the
 * record behind it is dropped in DROP mode and runs in CONTINUE mode.
 */
TEST_F(mode, failed_launch)
{
	struct drm_hcclt_event_launch le;
	struct drm_hcclt_task t[2];
	__u64 ev, ts;
	int mode;

	if (!(self->q.features & HCCLT_FEATURE_KERNEL_LAUNCH))
		SKIP(return, "driver without kernel launches");
	for (mode = HCCLT_FAILURE_DROP; mode <= HCCLT_FAILURE_CONTINUE; mode++) {
		ASSERT_EQ(0, set_param(self->fd, self->stream,
				       HCCLT_PARAM_FAILURE_MODE, mode));
		ASSERT_EQ(0, ev_create(self->fd, &ev));
		t[0] = task(HCCLT_TASK_KERNEL_LAUNCH, 7, 0, 0);
		t[1] = task(HCCLT_TASK_EVENT_RECORD, ev, 0, 0);
		ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, t, 2));
		ASSERT_EQ(0, next_launch(self->fd, &le, HCCLT_SLOW_MS));
		EXPECT_EQ(0, launch_done(self->fd, le.handle, le.seqno, 1));
		EXPECT_EQ(-EIO, hcclt_sync(self->fd, self->stream, 5000));
		ts = 0;
		EXPECT_EQ(mode == HCCLT_FAILURE_DROP ? HCCLT_EVENT_FAILED :
			  HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
		EXPECT_EQ(mode == HCCLT_FAILURE_DROP, ts == 0);
	}
}

/* STOP: dropped as in DROP, then no task is taken; a stream stays in STOP. */
TEST_F(mode, stop_refuses_later_tasks)
{
	struct drm_hcclt_task t;
	__u64 ev, ev2;
	int fence = -1;

	ASSERT_EQ(0, set_param(self->fd, self->stream, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_STOP));
	EXPECT_EQ(-EBUSY, set_param(self->fd, self->stream,
				    HCCLT_PARAM_FAILURE_MODE,
				    HCCLT_FAILURE_CONTINUE));
	EXPECT_EQ(-EBUSY, set_param(self->fd, self->stream,
				    HCCLT_PARAM_FAILURE_MODE, HCCLT_FAILURE_DROP));
	EXPECT_EQ(0, set_param(self->fd, self->stream, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_STOP));
	/* Not stopped before a failure. */
	ASSERT_EQ(0, ev_create(self->fd, &ev2));
	t = task(HCCLT_TASK_EVENT_RECORD, ev2, 0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));

	ASSERT_EQ(0, fail_then_record(self->fd, self->stream, &ev));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_FAILED, ev_status(self->fd, ev, NULL));
	EXPECT_EQ(-ECANCELED, hcclt_submit(self->fd, self->stream, &t, 1));
	EXPECT_EQ(-ECANCELED, hcclt_submit_ex(self->fd, self->stream, NULL, 0,
					      HCCLT_SUBMIT_FENCE_OUT, &fence,
					      NULL));
	EXPECT_EQ(-1, fence);
	/* Its sync works, with nothing left to report. */
	EXPECT_EQ(0, hcclt_sync(self->fd, self->stream, 0));
	EXPECT_EQ(-EBUSY, set_param(self->fd, self->stream,
				    HCCLT_PARAM_FAILURE_MODE,
				    HCCLT_FAILURE_CONTINUE));
}

/*
 * STOP for the file (handle 0): the streams it has, its threads' and the
 * ones it makes later are all in STOP.
 */
TEST_F(mode, file_stop_covers_every_stream)
{
	__u64 comm, thread, s2, s3, ev;
	struct drm_hcclt_task t;

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, comm, HCCLT_ENGINE_CPU, 1, 1,
				   &thread));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s2));
	ASSERT_EQ(0, set_param(self->fd, s2, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_CONTINUE));
	ASSERT_EQ(0, set_param(self->fd, 0, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_STOP));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s3));
	EXPECT_EQ(-EBUSY, set_param(self->fd, self->stream,
				    HCCLT_PARAM_FAILURE_MODE,
				    HCCLT_FAILURE_CONTINUE));
	EXPECT_EQ(-EBUSY, set_param(self->fd, s2, HCCLT_PARAM_FAILURE_MODE,
				    HCCLT_FAILURE_CONTINUE));
	EXPECT_EQ(-EBUSY, set_param(self->fd, s3, HCCLT_PARAM_FAILURE_MODE,
				    HCCLT_FAILURE_DROP));
	EXPECT_EQ(-EBUSY, set_param(self->fd, thread, HCCLT_PARAM_FAILURE_MODE,
				    HCCLT_FAILURE_CONTINUE));
	/* Again: nothing changes. */
	EXPECT_EQ(0, set_param(self->fd, 0, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_STOP));
	/* A thread's stream stops at its failure; the others still run. */
	ASSERT_EQ(0, fail_then_record(self->fd, thread, &ev));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, thread, 5000));
	EXPECT_EQ(HCCLT_EVENT_FAILED, ev_status(self->fd, ev, NULL));
	t = hcclt_wait(0, 0);
	EXPECT_EQ(-ECANCELED, hcclt_submit(self->fd, thread, &t, 1));
	ASSERT_EQ(0, ev_create(self->fd, &ev));
	t = task(HCCLT_TASK_EVENT_RECORD, ev, 0, 0);
	EXPECT_EQ(0, hcclt_submit(self->fd, s3, &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, s3, 5000));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
}

/* A thread id names its stream; its exported views share it. */
TEST_F(mode, thread_handles)
{
	__u64 comm, thread, view, ev, ts = 0;

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, comm, HCCLT_ENGINE_CPU, 1, 1,
				   &thread));
	ASSERT_EQ(0, hcclt_export(self->fd, comm, HCCLT_ENGINE_CPU_TS, 1,
				  &thread, &view));
	ASSERT_EQ(0, set_param(self->fd, view, HCCLT_PARAM_FAILURE_MODE,
			       HCCLT_FAILURE_CONTINUE));
	ASSERT_EQ(0, fail_then_record(self->fd, thread, &ev));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, thread, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
	EXPECT_NE(0, ts);
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
	EXPECT_EQ(-ENOENT, set_param(self->fd, thread, HCCLT_PARAM_FAILURE_MODE,
				     HCCLT_FAILURE_CONTINUE));
}

struct mobj {
	__u32 handle;
	__u64 size;
	void *p;
};

static int mobj_new(int fd, __u64 size, struct mobj *o)
{
	struct drm_hcclt_mem_create m;
	int ret;

	memset(&m, 0, sizeof(m));
	m.size = size;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &m);
	if (ret)
		return ret;
	o->handle = m.handle;
	o->size = m.size;
	o->p = mmap(NULL, m.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)m.mmap_offset);
	return o->p == MAP_FAILED ? -errno : 0;
}

/* dst[i] = reduce_op(dst[i], src[i]) of @n elements of @dtype on @stream. */
static int reduce(int fd, __u64 stream, __u32 dtype, __u32 rop,
		  const struct mobj *dst, const struct mobj *src, __u64 bytes)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = HCCLT_TASK_LOCAL_REDUCE;
	t.src_handle = src->handle;
	t.dst_handle = dst->handle;
	t.len = bytes;
	t.dtype = dtype;
	t.reduce_op = rop;
	return hcclt_submit(fd, stream, &t, 1);
}

/*
 * Saturation: the streams a file makes after HCCLT_SATURATION_ON turn
 * infinite results into the type's largest finite value and NaN results
 * into 0, for every float type (FP64 too, with HCCLT_FEATURE_REDUCE_EXT);
 * streams made before, and after OFF, give IEEE results.
 */
TEST_F(mode, saturation)
{
	static const __u32 f32_in[][2] = {
		{ 0x7f7fffff, 0x7f7fffff },	/* max + max: +inf */
		{ 0xff7fffff, 0xff7fffff },	/* -max - max: -inf */
		{ 0x7fc00000, 0x3f800000 },	/* NaN + 1 */
		{ 0x7f800000, 0x3f800000 },	/* inf + 1 */
		{ 0x3f800000, 0x40000000 },	/* 1 + 2: 3 either way */
	};
	static const __u32 f32_sat[] = {
		0x7f7fffff, 0xff7fffff, 0, 0x7f7fffff, 0x40400000,
	};
	static const __u32 f32_ieee[] = {
		0x7f800000, 0xff800000, 0x7fc00000, 0x7f800000, 0x40400000,
	};
	static const __u16 f16_in[][2] = {
		{ 0x7bff, 0x7bff }, { 0xfbff, 0xfbff }, { 0x7e00, 0x3c00 },
		{ 0x3c00, 0x4000 },
	};
	static const __u16 f16_sat[] = { 0x7bff, 0xfbff, 0, 0x4200 };
	static const __u16 bf16_in[][2] = {
		{ 0x7f7f, 0x7f7f }, { 0xff7f, 0xff7f }, { 0x7fc0, 0x3f80 },
		{ 0x3f80, 0x4000 },
	};
	static const __u16 bf16_sat[] = { 0x7f7f, 0xff7f, 0, 0x4040 };
	static const __u64 f64_in[][2] = {
		{ 0x7fefffffffffffffULL, 0x7fefffffffffffffULL }, /* +inf */
		{ 0xffefffffffffffffULL, 0xffefffffffffffffULL }, /* -inf */
		{ 0x7ff8000000000000ULL, 0x3ff0000000000000ULL }, /* NaN + 1 */
		{ 0xfff0000000000000ULL, 0x3ff0000000000000ULL }, /* -inf + 1 */
		{ 0x3ff0000000000000ULL, 0x4000000000000000ULL }, /* 1 + 2 */
	};
	static const __u64 f64_sat[] = {
		0x7fefffffffffffffULL, 0xffefffffffffffffULL, 0,
		0xffefffffffffffffULL, 0x4008000000000000ULL,
	};
	static const __u64 f64_ieee[] = {
		0x7ff0000000000000ULL, 0xfff0000000000000ULL,
		0x7ff8000000000000ULL, 0xfff0000000000000ULL,
		0x4008000000000000ULL,
	};
	struct mobj a, b;
	__u64 before, sat, after;
	unsigned int i;

	if (!(self->q.features & HCCLT_FEATURE_SATURATION))
		SKIP(return, "driver without saturation");
	if (!(self->q.features & HCCLT_FEATURE_REDUCE))
		SKIP(return, "driver without reduces");
	ASSERT_EQ(0, mobj_new(self->fd, 4096, &a));
	ASSERT_EQ(0, mobj_new(self->fd, 4096, &b));
	before = self->stream;
	ASSERT_EQ(0, set_param(self->fd, 0, HCCLT_PARAM_SATURATION,
			       HCCLT_SATURATION_ON));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &sat));
	ASSERT_EQ(0, set_param(self->fd, 0, HCCLT_PARAM_SATURATION,
			       HCCLT_SATURATION_OFF));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &after));

	/* FP32 on the saturating stream, then on the two others. */
	for (i = 0; i < HCCLT_ARRAY_SIZE(f32_in); i++) {
		((__u32 *)a.p)[i] = f32_in[i][0];
		((__u32 *)b.p)[i] = f32_in[i][1];
	}
	ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_FP32, HCCLT_REDUCE_SUM,
			    &a, &b, 4 * HCCLT_ARRAY_SIZE(f32_in)));
	ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
	for (i = 0; i < HCCLT_ARRAY_SIZE(f32_in); i++)
		EXPECT_EQ(f32_sat[i], ((__u32 *)a.p)[i]);
	for (i = 0; i < HCCLT_ARRAY_SIZE(f32_in); i++)
		((__u32 *)a.p)[i] = f32_in[i][0];
	ASSERT_EQ(0, reduce(self->fd, before, HCCLT_DTYPE_FP32,
			    HCCLT_REDUCE_SUM, &a, &b,
			    4 * HCCLT_ARRAY_SIZE(f32_in)));
	ASSERT_EQ(0, hcclt_sync(self->fd, before, 5000));
	for (i = 0; i < HCCLT_ARRAY_SIZE(f32_in); i++)
		EXPECT_EQ(f32_ieee[i], ((__u32 *)a.p)[i]);
	for (i = 0; i < HCCLT_ARRAY_SIZE(f32_in); i++)
		((__u32 *)a.p)[i] = f32_in[i][0];
	ASSERT_EQ(0, reduce(self->fd, after, HCCLT_DTYPE_FP32,
			    HCCLT_REDUCE_SUM, &a, &b,
			    4 * HCCLT_ARRAY_SIZE(f32_in)));
	ASSERT_EQ(0, hcclt_sync(self->fd, after, 5000));
	for (i = 0; i < HCCLT_ARRAY_SIZE(f32_in); i++)
		EXPECT_EQ(f32_ieee[i], ((__u32 *)a.p)[i]);

	/* FP16 and BF16 overflow when rounded back, and MAX keeps a NaN. */
	for (i = 0; i < HCCLT_ARRAY_SIZE(f16_in); i++) {
		((__u16 *)a.p)[i] = f16_in[i][0];
		((__u16 *)b.p)[i] = f16_in[i][1];
	}
	ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_FP16, HCCLT_REDUCE_SUM,
			    &a, &b, 2 * HCCLT_ARRAY_SIZE(f16_in)));
	ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
	for (i = 0; i < HCCLT_ARRAY_SIZE(f16_in); i++)
		EXPECT_EQ(f16_sat[i], ((__u16 *)a.p)[i]);
	for (i = 0; i < HCCLT_ARRAY_SIZE(bf16_in); i++) {
		((__u16 *)a.p)[i] = bf16_in[i][0];
		((__u16 *)b.p)[i] = bf16_in[i][1];
	}
	ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_BF16, HCCLT_REDUCE_SUM,
			    &a, &b, 2 * HCCLT_ARRAY_SIZE(bf16_in)));
	ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
	for (i = 0; i < HCCLT_ARRAY_SIZE(bf16_in); i++)
		EXPECT_EQ(bf16_sat[i], ((__u16 *)a.p)[i]);
	((__u16 *)a.p)[0] = 0x7e00;	/* FP16 NaN */
	((__u16 *)b.p)[0] = 0x3c00;
	ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_FP16, HCCLT_REDUCE_MAX,
			    &a, &b, 2));
	ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
	EXPECT_EQ(0, ((__u16 *)a.p)[0]);
	/* Integers are untouched: INT32 wraps. */
	((__u32 *)a.p)[0] = 0x7fffffff;
	((__u32 *)b.p)[0] = 1;
	ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_INT32, HCCLT_REDUCE_SUM,
			    &a, &b, 4));
	ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
	EXPECT_EQ(0x80000000U, ((__u32 *)a.p)[0]);

	/* The 1.7 types: FP64 saturates to +-DBL_MAX and 0, INT64 wraps. */
	if (self->q.features & HCCLT_FEATURE_REDUCE_EXT) {
		for (i = 0; i < HCCLT_ARRAY_SIZE(f64_in); i++) {
			((__u64 *)a.p)[i] = f64_in[i][0];
			((__u64 *)b.p)[i] = f64_in[i][1];
		}
		ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_FP64,
				    HCCLT_REDUCE_SUM, &a, &b,
				    8 * HCCLT_ARRAY_SIZE(f64_in)));
		ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
		for (i = 0; i < HCCLT_ARRAY_SIZE(f64_in); i++)
			EXPECT_EQ(f64_sat[i], ((__u64 *)a.p)[i]);
		for (i = 0; i < HCCLT_ARRAY_SIZE(f64_in); i++)
			((__u64 *)a.p)[i] = f64_in[i][0];
		ASSERT_EQ(0, reduce(self->fd, after, HCCLT_DTYPE_FP64,
				    HCCLT_REDUCE_SUM, &a, &b,
				    8 * HCCLT_ARRAY_SIZE(f64_in)));
		ASSERT_EQ(0, hcclt_sync(self->fd, after, 5000));
		for (i = 0; i < HCCLT_ARRAY_SIZE(f64_in); i++)
			EXPECT_EQ(f64_ieee[i], ((__u64 *)a.p)[i]);
		/* PROD overflows too: max * 2. */
		((__u64 *)a.p)[0] = 0xffefffffffffffffULL;
		((__u64 *)b.p)[0] = 0x4000000000000000ULL;
		ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_FP64,
				    HCCLT_REDUCE_PROD, &a, &b, 8));
		ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
		EXPECT_EQ(0xffefffffffffffffULL, ((__u64 *)a.p)[0]);
		((__u64 *)a.p)[0] = 0x7fffffffffffffffULL;
		((__u64 *)b.p)[0] = 1;
		ASSERT_EQ(0, reduce(self->fd, sat, HCCLT_DTYPE_INT64,
				    HCCLT_REDUCE_SUM, &a, &b, 8));
		ASSERT_EQ(0, hcclt_sync(self->fd, sat, 5000));
		EXPECT_EQ(0x8000000000000000ULL, ((__u64 *)a.p)[0]);
	}
	munmap(a.p, a.size);
	munmap(b.p, b.size);
}

/* EVENT_RESET: the event forgets its records' time and error. */
TEST_F(mode, event_reset)
{
	struct drm_hcclt_task t;
	__u64 ev, ts = 0;

	ASSERT_EQ(0, ev_create(self->fd, &ev));
	t = task(HCCLT_TASK_EVENT_RECORD, ev, 0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
	EXPECT_NE(0, ts);
	t = task(HCCLT_TASK_EVENT_RESET, ev, 0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
	EXPECT_EQ(0, ts);
	/* A dropped record's failure goes too. */
	ASSERT_EQ(0, fail_then_record(self->fd, self->stream, &ev));
	EXPECT_EQ(-ECANCELED, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_FAILED, ev_status(self->fd, ev, NULL));
	t = task(HCCLT_TASK_EVENT_RESET, ev, 0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
	/* Recorded again after the reset: a time again. */
	t = task(HCCLT_TASK_EVENT_RECORD, ev, 0, 0);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->stream, &t, 1));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->stream, 5000));
	EXPECT_EQ(HCCLT_EVENT_COMPLETE, ev_status(self->fd, ev, &ts));
	EXPECT_NE(0, ts);
	/* Its validation. */
	t = task(HCCLT_TASK_EVENT_RESET, ev, 1, 0);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->stream, &t, 1));
	t = task(HCCLT_TASK_EVENT_RESET, ev, 0, 1);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->stream, &t, 1));
	t = task(HCCLT_TASK_EVENT_RESET, ev + 1000, 0, 0);
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->stream, &t, 1));
}

TEST_HARNESS_MAIN
