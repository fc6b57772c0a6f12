// SPDX-License-Identifier: GPL-2.0
/*
 * Data tasks (uAPI 1.4): HCCLT_TASK_LOCAL_COPY, _WRITE and _READ, and
 * DRM_IOCTL_HCCLT_CHANNEL_BUFFER. Every validation errno; ranges at the
 * first and last byte of each buffer kind, off by one either way, and
 * overflowing; data correctness across sizes and unaligned offsets,
 * overlapping copies; a queued copy keeps its objects alive; the 1.0 task
 * size; writes and reads between two ranks on two devices (threads and
 * processes), a write followed by a channel record seen by the peer's wait;
 * the peer's buffer reachable only through a channel; device memory back
 * at its start after every test and after a process dies. The copy
 * engine: pages it allocates charged to the objects' memory cgroup (an
 * HCCL buffer a peer makes to its owner's), work
 * stopped within a chunk by a flush or the owner's death, clients served
 * in turn. Revocation: a rank's communicator torn down, its peers'
 * mappings of its HCCL buffer fault SIGBUS and their data tasks on it,
 * queued or running, fail with -ECONNRESET and touch it no more; its own
 * mappings keep working. Reduces: every type and op (the 1.7 ones with
 * HCCLT_FEATURE_REDUCE_EXT) against a reference of the test's own, every
 * validation, and through channels both ways. Registered memory (uAPI
 * 1.13): every MEM_REG, MEM_UNREG and CHANNEL_MEMS errno, writes, reduces
 * and reads checked against the registered range, and its revocation by
 * unregistration, destroy and close, queued and running.
 */
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "hcclt_ranks.h"
#include "hcclt_cgroup.h"
#include "../../kselftest_harness.h"

#define MIB		(1024 * 1024ULL)

struct obj {
	__u32 handle;
	__u64 size;
	__u8 *p;
};

static int has_memreg(int fd);

/* A mapped memory object of @size bytes. */
static int obj_new(int fd, __u64 size, struct obj *o)
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

static int gem_close(int fd, __u32 handle)
{
	struct drm_gem_close c = { .handle = handle };

	return hcclt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

static void obj_free(int fd, struct obj *o)
{
	if (o->p && o->p != MAP_FAILED)
		munmap(o->p, o->size);
	if (o->handle)
		gem_close(fd, o->handle);
	memset(o, 0, sizeof(*o));
}

/* The communicator's HCCL buffer, made with @size if it has none. */
static int comm_buf(int fd, __u64 comm, __u64 size, struct obj *o)
{
	struct drm_hcclt_comm_buffer b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.comm_id = comm;
	b.size = size;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_BUFFER, &b);
	if (ret)
		return ret;
	o->handle = b.handle;
	o->size = b.size;
	o->p = mmap(NULL, b.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)b.mmap_offset);
	return o->p == MAP_FAILED ? -errno : 0;
}

static int chan_buf_ex(int fd, __u64 comm, __u64 chan, __u64 size,
		       __u32 flags, __u64 pad, struct drm_hcclt_channel_buffer *out)
{
	struct drm_hcclt_channel_buffer b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.comm_id = comm;
	b.channel_id = chan;
	b.size = size;
	b.flags = flags;
	b.pad = pad;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_CHANNEL_BUFFER, &b);
	if (out)
		*out = b;
	return ret;
}

/* The peer's buffer of @chan, mapped (no handle: o->handle stays 0). */
static int chan_buf(int fd, __u64 comm, __u64 chan, struct obj *o)
{
	struct drm_hcclt_channel_buffer b;
	int ret = chan_buf_ex(fd, comm, chan, 0, 0, 0, &b);

	if (ret)
		return ret;
	memset(o, 0, sizeof(*o));
	o->size = b.size;
	o->p = mmap(NULL, b.size, PROT_READ | PROT_WRITE, MAP_SHARED, b.fd, 0);
	close(b.fd);
	return o->p == MAP_FAILED ? -errno : 0;
}

static struct drm_hcclt_task dtask(__u32 op, __u64 chan, __u32 sh, __u64 so,
				   __u32 dh, __u64 dof, __u64 len)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = op;
	t.dst_thread = chan;
	t.src_handle = sh;
	t.src_offset = so;
	t.dst_handle = dh;
	t.dst_offset = dof;
	t.len = len;
	return t;
}

static int copy1(int fd, __u64 h, __u32 sh, __u64 so, __u32 dh, __u64 dof,
		 __u64 len)
{
	struct drm_hcclt_task t = dtask(HCCLT_TASK_LOCAL_COPY, 0, sh, so, dh,
					dof, len);

	return hcclt_submit(fd, h, &t, 1);
}

static __u8 pat(__u64 i, unsigned int seed)
{
	return (__u8)(i * 2654435761u + seed + (i >> 13));
}

static void fill(__u8 *p, __u64 n, unsigned int seed)
{
	__u64 i;

	for (i = 0; i < n; i++)
		p[i] = pat(i, seed);
}

/* Index of the first byte of @p that is not pattern @seed, or -1. */
static long long check(const __u8 *p, __u64 n, unsigned int seed)
{
	__u64 i;

	for (i = 0; i < n; i++)
		if (p[i] != pat(i, seed))
			return (long long)i;
	return -1;
}

static __u64 mem_used(int dev)
{
	struct drm_hcclt_query q;
	int fd = open_dev(dev);
	__u64 v = ~0ULL;

	if (fd >= 0 && !hcclt_query(fd, &q))
		v = q.mem_used;
	if (fd >= 0)
		close(fd);
	return v;
}

/* Until device @dev's memory in use is @want (objects go when unmapped). */
static int wait_mem(int dev, __u64 want)
{
	long long end = hcclt_wait_end(5000);

	while (mem_used(dev) != want) {
		if (hcclt_now_ms() > end)
			return -1;
		hcclt_msleep(5);
	}
	return 0;
}

FIXTURE(data) {
	int fd;
	__u64 comm, thread;
	struct obj a, b;
	__u64 mem0[MAX_DEVS];
	__u32 used0[MAX_DEVS];
};

FIXTURE_SETUP(data)
{
	struct drm_hcclt_query q;
	int i;

	if (find_devices() < 1)
		SKIP(return, "needs an hcclthread device");
	for (i = 0; i < ndevs; i++) {
		self->mem0[i] = mem_used(i);
		self->used0[i] = notifies_used(i);
	}
	self->fd = open_dev(0);
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	if (!(q.features & HCCLT_FEATURE_DATA_TASKS))
		SKIP(return, "driver without data tasks");
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_AICPU_TS,
				   1, 1, &self->thread));
	ASSERT_EQ(0, obj_new(self->fd, MIB, &self->a));
	ASSERT_EQ(0, obj_new(self->fd, MIB, &self->b));
}

FIXTURE_TEARDOWN(data)
{
	int i;

	obj_free(self->fd, &self->a);
	obj_free(self->fd, &self->b);
	if (self->fd >= 0)
		close(self->fd);
	/* Every test gives back the memory and notifies it took. */
	for (i = 0; i < ndevs; i++) {
		EXPECT_EQ(0, wait_mem(i, self->mem0[i])) TH_LOG("device %d", i);
		EXPECT_EQ(0, wait_notifies(i, self->used0[i]));
	}
}

TEST_F(data, query_reports_data_tasks)
{
	struct drm_hcclt_query q;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_LE(4, q.uapi_minor);
}

/* Sizes around page boundaries, at unaligned offsets, both directions. */
TEST_F(data, local_copy_patterns)
{
	static const __u64 sizes[] = { 1, 7, 4095, 4096, 4097, 8191, 65539,
				       MIB / 2 + 3, MIB - 4099 };
	static const __u64 offs[] = { 0, 1, 4095, 4097 };
	unsigned int i, j, seed = 1;

	for (i = 0; i < HCCLT_ARRAY_SIZE(sizes); i++) {
		for (j = 0; j < HCCLT_ARRAY_SIZE(offs); j++, seed++) {
			__u64 so = offs[j], dof = offs[(j + 1) % 4], n = sizes[i];

			if (so + n > MIB || dof + n > MIB)
				continue;
			fill(self->a.p + so, n, seed);
			memset(self->b.p, 0xee, MIB);
			ASSERT_EQ(0, copy1(self->fd, self->thread, self->a.handle,
					   so, self->b.handle, dof, n));
			ASSERT_EQ(0, hcclt_sync(self->fd, self->thread, 10000));
			ASSERT_EQ(-1, check(self->b.p + dof, n, seed))
				TH_LOG("%llu bytes from %llu to %llu",
				       (unsigned long long)n,
				       (unsigned long long)so,
				       (unsigned long long)dof);
			/* Not a byte more. */
			if (dof)
				EXPECT_EQ(0xee, self->b.p[dof - 1]);
			if (dof + n < MIB)
				EXPECT_EQ(0xee, self->b.p[dof + n]);
		}
	}
}

TEST_F_TIMEOUT(data, local_copy_64mib, 240)
{
	struct obj x = {0}, y = {0};

	ASSERT_EQ(0, obj_new(self->fd, 64 * MIB, &x));
	ASSERT_EQ(0, obj_new(self->fd, 64 * MIB + 4096, &y));
	fill(x.p, 64 * MIB, 77);
	ASSERT_EQ(0, copy1(self->fd, self->thread, x.handle, 0, y.handle, 4096,
			   64 * MIB));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->thread, 120000));
	EXPECT_EQ(-1, check(y.p + 4096, 64 * MIB, 77));
	obj_free(self->fd, &x);
	obj_free(self->fd, &y);
}

/* Overlapping ranges of one object copy as memmove() does. */
TEST_F(data, overlap_is_memmove)
{
	__u8 *ref = malloc(MIB);
	int dir;

	ASSERT_NE(NULL, ref);
	for (dir = 0; dir < 2; dir++) {
		__u64 so = dir ? 10000 : 3, dof = dir ? 3 : 10000, n = 300000;

		fill(self->a.p, MIB, 5 + dir);
		memcpy(ref, self->a.p, MIB);
		memmove(ref + dof, ref + so, n);
		ASSERT_EQ(0, copy1(self->fd, self->thread, self->a.handle, so,
				   self->a.handle, dof, n));
		ASSERT_EQ(0, hcclt_sync(self->fd, self->thread, 10000));
		EXPECT_EQ(0, memcmp(ref, self->a.p, MIB)) TH_LOG("dir %d", dir);
	}
	free(ref);
}

/* The first and last byte of an object, and one past, either side. */
TEST_F(data, bounds)
{
	__u64 sz = self->a.size;
	__u32 a = self->a.handle, b = self->b.handle;
	__u64 h = self->thread;
	struct obj buf = {0};

	EXPECT_EQ(0, copy1(self->fd, h, a, 0, b, 0, 1));
	EXPECT_EQ(0, copy1(self->fd, h, a, sz - 1, b, sz - 1, 1));
	EXPECT_EQ(0, copy1(self->fd, h, a, 0, b, 0, sz));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, sz, b, 0, 1));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, 0, b, sz, 1));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, 1, b, 0, sz));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, 0, b, 1, sz));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, 0, b, 0, sz + 1));
	/* Offset plus length wrapping around 2^64. */
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, ~0ULL - 7, b, 0, 16));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, 0, b, 16, ~0ULL - 7));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, sz + 1, b, 0, 0));
	/* The HCCL buffer is a memory object like the others. */
	ASSERT_EQ(0, comm_buf(self->fd, self->comm, 2 * MIB, &buf));
	EXPECT_EQ(0, copy1(self->fd, h, a, 0, buf.handle, buf.size - 1, 1));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, a, 0, buf.handle, buf.size, 1));
	EXPECT_EQ(-ERANGE, copy1(self->fd, h, buf.handle, buf.size - 1, a, 0, 2));
	EXPECT_EQ(0, hcclt_sync(self->fd, h, 10000));
	obj_free(self->fd, &buf);
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
}

/* One negative test per validation of a data task. */
TEST_F(data, task_einval)
{
	__u32 a = self->a.handle, b = self->b.handle;
	struct drm_hcclt_task t;
	__u64 stream;

#define TRY(field, value, err)						\
	do {								\
		t = dtask(HCCLT_TASK_LOCAL_COPY, 0, a, 0, b, 0, 64);	\
		t.field = value;					\
		EXPECT_EQ(err, hcclt_submit(self->fd, self->thread, &t, 1)) \
			TH_LOG(#field "=" #value);			\
	} while (0)
	TRY(notify_idx, 1, -EINVAL);
	TRY(timeout_s, 1, -EINVAL);
	TRY(dtype, 4, -EINVAL);
	TRY(reduce_op, 2, -EINVAL);
	TRY(dst_thread, self->thread, -EINVAL);
	TRY(pad, 1, -EINVAL);
	TRY(src_handle, 0, -EINVAL);
	TRY(dst_handle, 0, -EINVAL);
	TRY(src_handle, 0x7fff, -ENOENT);
	TRY(dst_handle, 0x7fff, -ENOENT);
	TRY(op, 11, -EINVAL);
#undef TRY
	/* A record or wait with any 1.4 field set. */
	t = hcclt_rec(self->thread, 0);
	t.len = 1;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1));
	t = hcclt_wait(0, 0);
	t.src_handle = a;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1));
	/* Writes and reads need a thread (a channel), not a stream. */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &stream));
	t = dtask(HCCLT_TASK_WRITE, 1, a, 0, 0, 0, 64);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, stream, &t, 1));
	t = dtask(HCCLT_TASK_READ, 1, 0, 0, b, 0, 64);
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, stream, &t, 1));
	/* ... and a channel id of the thread's communicator. */
	t = dtask(HCCLT_TASK_WRITE, 0x123456789ULL, a, 0, 0, 0, 64);
	EXPECT_EQ(-ENOENT, hcclt_submit(self->fd, self->thread, &t, 1));
	/* A local copy may go through a stream id (aclrtMemcpyAsync). */
	fill(self->a.p, 64, 9);
	EXPECT_EQ(0, copy1(self->fd, stream, a, 0, b, 0, 64));
	EXPECT_EQ(0, hcclt_sync(self->fd, stream, 10000));
	EXPECT_EQ(-1, check(self->b.p, 64, 9));
	/* Zero bytes: a task that completes at once, checked like others. */
	EXPECT_EQ(0, copy1(self->fd, stream, a, 0, b, 0, 0));
	EXPECT_EQ(-ENOENT, copy1(self->fd, stream, 0x7fff, 0, b, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, stream, 10000));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, stream));
}

/* The 1.0 task size still works; other sizes do not. */
TEST_F(data, task_size)
{
	struct drm_hcclt_task t[2] = { hcclt_rec(self->thread, 0),
				       hcclt_wait(0, 0) };
	__u8 packed[2 * HCCLT_TASK_SIZE_V1];
	struct drm_hcclt_submit s;

	memcpy(packed, &t[0], HCCLT_TASK_SIZE_V1);
	memcpy(packed + HCCLT_TASK_SIZE_V1, &t[1], HCCLT_TASK_SIZE_V1);
	memset(&s, 0, sizeof(s));
	s.handle = self->thread;
	s.tasks_ptr = (__u64)(uintptr_t)packed;
	s.task_count = 2;
	s.task_size = HCCLT_TASK_SIZE_V1;
	s.fence_fd = -1;
	EXPECT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_SUBMIT, &s));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->thread, 10000));
	s.task_size = 40;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_SUBMIT, &s));
	s.task_size = sizeof(t[0]) + 8;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_SUBMIT, &s));
}

/*
 * A copy queued behind a wait holds its objects: the handle closed and the
 * mapping gone, the copy still runs when the wait is released, and the
 * memory comes back after it.
 */
TEST_F(data, queued_copy_keeps_objects)
{
	struct drm_hcclt_task t[2];
	struct obj x = {0}, y = {0};
	__u64 used, stream;
	__u32 yh;

	ASSERT_EQ(0, obj_new(self->fd, 3 * 4096, &x));
	ASSERT_EQ(0, obj_new(self->fd, 3 * 4096, &y));
	fill(x.p, x.size, 31);
	t[0] = hcclt_wait(0, 0);
	t[1] = dtask(HCCLT_TASK_LOCAL_COPY, 0, x.handle, 0, y.handle, 0, x.size);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->thread, t, 2));
	used = mem_used(0);
	obj_free(self->fd, &x);	/* source gone from this file */
	yh = y.handle;
	ASSERT_EQ(0, gem_close(self->fd, yh));	/* destination: handle only */
	y.handle = 0;
	EXPECT_EQ(used, mem_used(0));
	/* Released from another stream (this one waits). */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &stream));
	ASSERT_EQ(0, hcclt_record(self->fd, stream, self->thread, 0));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->thread, 10000));
	EXPECT_EQ(-1, check(y.p, y.size, 31));
	/* The closed handle names nothing any more. */
	EXPECT_EQ(-ENOENT, copy1(self->fd, self->thread, self->a.handle, 0, yh, 0, 1));
	obj_free(self->fd, &y);
	EXPECT_EQ(0, wait_mem(0, used - 6 * 4096));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, stream));
}

/* Destroying the thread drops a copy that waits; its objects go after. */
TEST_F(data, cancelled_copy_drops_objects)
{
	struct drm_hcclt_task t[2];
	struct obj x = {0};
	__u64 used = mem_used(0);

	ASSERT_EQ(0, obj_new(self->fd, 5 * 4096, &x));
	t[0] = hcclt_wait(0, 0);
	t[1] = dtask(HCCLT_TASK_LOCAL_COPY, 0, x.handle, 0, self->a.handle, 0, 4096);
	ASSERT_EQ(0, hcclt_submit(self->fd, self->thread, t, 2));
	obj_free(self->fd, &x);
	EXPECT_EQ(used + 5 * 4096, mem_used(0));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_EQ(0, wait_mem(0, used));
}

/* Two ranks on devices 0 and 1, as threads, with one channel. */
struct pair2 {
	struct rank r[2];
	__u64 c[2];
	struct obj buf[2], peer[2], loc[2];
};

static int pair2_setup(int fd0, struct pair2 *p, __u64 bufsize)
{
	struct drm_hcclt_group_create g;
	int e1, ret, i;

	memset(p, 0, sizeof(*p));
	ret = join_all(fd0, p->r, 2, &g);
	if (ret)
		return ret;
	ret = pair(p->r, 2, 2, &p->c[0], &p->c[1], &e1);
	if (ret || e1)
		return ret ?: e1;
	for (i = 0; i < 2; i++) {
		ret = comm_buf(p->r[i].fd, p->r[i].comm, bufsize, &p->buf[i]);
		if (!ret)
			ret = obj_new(p->r[i].fd, bufsize, &p->loc[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < 2; i++) {
		ret = chan_buf(p->r[i].fd, p->r[i].comm, p->c[i], &p->peer[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static void pair2_free(struct pair2 *p)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (p->peer[i].p && p->peer[i].p != MAP_FAILED)
			munmap(p->peer[i].p, p->peer[i].size);
		if (p->r[i].fd >= 0) {
			obj_free(p->r[i].fd, &p->buf[i]);
			obj_free(p->r[i].fd, &p->loc[i]);
		}
	}
	close_all(p->r, 2);
}

/*
 * The peer's buffer through CHANNEL_BUFFER is the peer's memory: stores
 * through either mapping are seen through the other. Its checks.
 */
TEST_F(data, channel_buffer)
{
	struct drm_hcclt_channel_buffer cb;
	struct drm_hcclt_task t;
	struct pair2 p;
	__u64 other;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	EXPECT_EQ(p.buf[1].size, p.peer[0].size);
	p.buf[1].p[12345] = 0x5a;
	EXPECT_EQ(0x5a, p.peer[0].p[12345]);
	p.peer[1].p[MIB] = 0xa5;
	EXPECT_EQ(0xa5, p.buf[0].p[MIB]);
	EXPECT_EQ(-EINVAL, chan_buf_ex(p.r[0].fd, p.r[0].comm, p.c[0], 0,
				       HCCLT_CHANNEL_BUFFER_REMOTE << 1, 0, &cb));
	EXPECT_EQ(-1, cb.fd);
	/* uAPI 1.16: the flag changes nothing for a peer of this host. */
	ASSERT_EQ(0, chan_buf_ex(p.r[0].fd, p.r[0].comm, p.c[0], 0,
				 HCCLT_CHANNEL_BUFFER_REMOTE, 0, &cb));
	EXPECT_LE(0, cb.fd);
	EXPECT_EQ(p.peer[0].size, cb.size);
	close(cb.fd);
	EXPECT_EQ(-EINVAL, chan_buf_ex(p.r[0].fd, p.r[0].comm, p.c[0], 0, 0, 1, NULL));
	EXPECT_EQ(-ENOENT, chan_buf_ex(p.r[0].fd, p.r[0].comm + 1, p.c[0], 0, 0, 0, NULL));
	EXPECT_EQ(-ENOENT, chan_buf_ex(p.r[0].fd, p.r[0].comm, p.c[0] + 1, 0, 0, 0, NULL));
	/* Another communicator of the same file has no such channel. */
	ASSERT_EQ(0, hcclt_comm_create(p.r[0].fd, &other));
	EXPECT_EQ(-ENOENT, chan_buf_ex(p.r[0].fd, other, p.c[0], 0, 0, 0, NULL));
	/* The peer gone: -ECONNRESET, and writes are refused. */
	ASSERT_EQ(0, hcclt_comm_destroy(p.r[1].fd, p.r[1].comm));
	EXPECT_EQ(-ECONNRESET, chan_buf_ex(p.r[0].fd, p.r[0].comm, p.c[0], 0, 0, 0, NULL));
	t = dtask(HCCLT_TASK_WRITE, p.c[0], p.loc[0].handle, 0, 0, 0, 8);
	EXPECT_EQ(-ECONNRESET, hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
	/* The owner's mapping still holds its memory (peer_gone_revokes_*). */
	EXPECT_EQ(0x5a, p.buf[1].p[12345]);
	pair2_free(&p);
}

/* A peer without a buffer gets one of the asked size; 0 asks for none. */
TEST_F(data, channel_buffer_made_for_peer)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_channel_buffer cb;
	struct rank r[2];
	struct obj own = {0};
	__u64 c0, c1;
	int e1;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ASSERT_EQ(0, join_all(self->fd, r, 2, &g));
	ASSERT_EQ(0, pair(r, 1, 1, &c0, &c1, &e1));
	ASSERT_EQ(0, e1);
	EXPECT_EQ(-ENOBUFS, chan_buf_ex(r[0].fd, r[0].comm, c0, 0, 0, 0, NULL));
	ASSERT_EQ(0, chan_buf_ex(r[0].fd, r[0].comm, c0, 3 * MIB, 0, 0, &cb));
	EXPECT_EQ(3 * MIB, cb.size);
	close(cb.fd);
	/* The peer's own call returns that buffer, whatever it asks. */
	ASSERT_EQ(0, comm_buf(r[1].fd, r[1].comm, 5 * MIB, &own));
	EXPECT_EQ(3 * MIB, own.size);
	obj_free(r[1].fd, &own);
	close_all(r, 2);
}

/* Write and read between two ranks, every byte checked. */
TEST_F(data, write_and_read)
{
	static const __u64 sizes[] = { 1, 4097, MIB + 3 };
	struct drm_hcclt_task t;
	struct pair2 p;
	unsigned int i;
	__u64 ai;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	for (i = 0; i < HCCLT_ARRAY_SIZE(sizes); i++) {
		__u64 n = sizes[i], off = 1000 + i;

		/* Rank 0 writes its object into rank 1's buffer. */
		fill(p.loc[0].p + 5, n, 40 + i);
		t = dtask(HCCLT_TASK_WRITE, p.c[0], p.loc[0].handle, 5, 0, off, n);
		ASSERT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
		ASSERT_EQ(0, hcclt_sync(p.r[0].fd, p.r[0].thread, 10000));
		EXPECT_EQ(-1, check(p.buf[1].p + off, n, 40 + i));
		/* Rank 1 reads it back from rank 0's buffer. */
		fill(p.buf[0].p + off, n, 50 + i);
		t = dtask(HCCLT_TASK_READ, p.c[1], 0, off, p.loc[1].handle, 3, n);
		ASSERT_EQ(0, hcclt_submit(p.r[1].fd, p.r[1].thread, &t, 1));
		ASSERT_EQ(0, hcclt_sync(p.r[1].fd, p.r[1].thread, 10000));
		EXPECT_EQ(-1, check(p.loc[1].p + 3, n, 50 + i));
	}
	/* The peer's buffer bounds, and handles where the peer is meant. */
	t = dtask(HCCLT_TASK_WRITE, p.c[0], p.loc[0].handle, 0, 0,
		  p.buf[1].size - 1, 1);
	EXPECT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
	t.dst_offset = p.buf[1].size;
	EXPECT_EQ(-ERANGE, hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
	t = dtask(HCCLT_TASK_READ, p.c[1], 0, p.buf[0].size - 2, p.loc[1].handle, 0, 3);
	EXPECT_EQ(-ERANGE, hcclt_submit(p.r[1].fd, p.r[1].thread, &t, 1));
	/*
	 * A peer-side handle: before uAPI 1.13 -EINVAL; since, the id of a
	 * range the peer registered, which it did not (-ECONNRESET).
	 */
	t = dtask(HCCLT_TASK_WRITE, p.c[0], p.loc[0].handle, 0, p.loc[0].handle, 0, 1);
	EXPECT_EQ(has_memreg(p.r[0].fd) ? -ECONNRESET : -EINVAL,
		  hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
	t = dtask(HCCLT_TASK_READ, p.c[1], p.loc[1].handle, 0, p.loc[1].handle, 0, 1);
	EXPECT_EQ(has_memreg(p.r[1].fd) ? -ECONNRESET : -EINVAL,
		  hcclt_submit(p.r[1].fd, p.r[1].thread, &t, 1));
	t = dtask(HCCLT_TASK_WRITE, p.c[0], 0, 0, 0, 0, 1);
	EXPECT_EQ(-EINVAL, hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
	/* The thread must be of the channel's family (CPU here). */
	ASSERT_EQ(0, hcclt_acquire(p.r[0].fd, p.r[0].comm, HCCLT_ENGINE_AICPU,
				   1, 0, &ai));
	t = dtask(HCCLT_TASK_WRITE, p.c[0], p.loc[0].handle, 0, 0, 0, 1);
	EXPECT_EQ(-EINVAL, hcclt_submit(p.r[0].fd, ai, &t, 1));
	EXPECT_EQ(0, hcclt_sync(p.r[0].fd, p.r[0].thread, 10000));
	pair2_free(&p);
}

/*
 * Write; channel record on one thread, wait on the peer: the peer sees the
 * data as soon as its wait returns. Two processes on two devices, rounds
 * of 256 KiB, each round acknowledged back.
 */
static __attribute__((noinline)) int vis_rank(const __u8 *key, int dev,
					      int rounds)
{
	struct rank r = { .key = key, .dev = dev, .rank = dev, .nranks = 2 };
	struct obj buf = {0}, loc = {0};
	struct drm_hcclt_task t[2];
	__u64 c, n = 256 * 1024;
	int ret, k;

	ret = rank_join(&r);
	if (!ret)
		ret = chan_acquire1(r.fd, r.comm, HCCLT_ENGINE_CPU, !dev, 2,
				    now_ns() + 20000000000LL, &c);
	if (!ret)
		ret = comm_buf(r.fd, r.comm, MIB, &buf);
	if (!ret)
		ret = obj_new(r.fd, n, &loc);
	for (k = 0; !ret && k < rounds; k++) {
		if (dev == 0) {
			fill(loc.p, n, k);
			t[0] = dtask(HCCLT_TASK_WRITE, c, loc.handle, 0, 0, 0, n);
			t[1] = ctask(HCCLT_TASK_CHANNEL_RECORD, c, 0, 0);
			ret = hcclt_submit(r.fd, r.thread, t, 2);
			if (!ret)
				ret = cwait(r.fd, r.thread, c, 1, 20);
			if (!ret)
				ret = hcclt_sync(r.fd, r.thread, 30000);
		} else {
			ret = cwait(r.fd, r.thread, c, 0, 20);
			if (!ret)
				ret = hcclt_sync(r.fd, r.thread, 30000);
			if (!ret && check(buf.p, n, k) >= 0)
				ret = -EBADMSG;
			if (!ret)
				ret = crecord(r.fd, r.thread, c, 1);
		}
	}
	if (!ret)
		ret = hcclt_sync(r.fd, r.thread, 30000);
	return ret;
}

TEST_F_TIMEOUT(data, write_then_record_visible_across_processes, 300)
{
	struct drm_hcclt_group_create g;
	pid_t pid[2];
	int i, st;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	memset(&g, 0, sizeof(g));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_GE(pid[i], 0);
		if (!pid[i])
			_exit(-vis_rank(g.key, i, 200) & 0xff);
	}
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st));
		EXPECT_EQ(0, WEXITSTATUS(st)) TH_LOG("rank %d", i);
	}
}

/*
 * A process killed with a write and a read queued (and its peer's buffer
 * mapped): everything it held comes back, on both devices (teardown).
 */
TEST_F_TIMEOUT(data, sigkill_with_data_tasks_queued, 120)
{
	struct drm_hcclt_group_create g;
	int sync[2], st, i, ready = 0;
	pid_t pid[2];
	char c;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	memset(&g, 0, sizeof(g));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	ASSERT_EQ(0, pipe(sync));
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_GE(pid[i], 0);
		if (!pid[i]) {
			struct rank r = { .key = g.key, .dev = i, .rank = i,
					  .nranks = 2 };
			struct obj buf = {0}, peer = {0}, loc = {0};
			struct drm_hcclt_task t[3];
			__u64 ch;

			if (rank_join(&r) ||
			    chan_acquire1(r.fd, r.comm, HCCLT_ENGINE_CPU, !i, 1,
					  now_ns() + 20000000000LL, &ch) ||
			    comm_buf(r.fd, r.comm, MIB, &buf) ||
			    obj_new(r.fd, MIB, &loc) ||
			    chan_buf(r.fd, r.comm, ch, &peer))
				_exit(1);
			/* Parked on a notify nobody records, data behind. */
			t[0] = ctask(HCCLT_TASK_CHANNEL_WAIT, ch, 0, 0);
			t[1] = dtask(HCCLT_TASK_WRITE, ch, loc.handle, 0, 0, 0, MIB);
			t[2] = dtask(HCCLT_TASK_READ, ch, 0, 0, loc.handle, 0, MIB);
			if (hcclt_submit(r.fd, r.thread, t, 3))
				_exit(2);
			if (write(sync[1], "x", 1) != 1)
				_exit(3);
			close(sync[1]);
			pause();
			_exit(0);
		}
	}
	/* A child that fails its setup exits: EOF, not a hang. */
	close(sync[1]);
	for (i = 0; i < 2; i++)
		ready += read(sync[0], &c, 1) == 1;
	for (i = 0; i < 2; i++) {
		kill(pid[i], SIGKILL);
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFSIGNALED(st))
			TH_LOG("rank %d exited with %d before it was killed",
			       i, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	EXPECT_EQ(2, ready);
	close(sync[0]);
}

/* ---- the copy engine: charged, cancellable, fair ---- */

#define BIG	(64 * MIB)
#define NBIG	8

/*
 * The "copy engine: N chunks run, busy|idle" lines of every device's
 * debugfs state: 0 with *@chunks (their sum) and *@busy (any busy) set,
 * -1 if a device has no such line, -2 without debugfs.
 */
static int engine_state(long long *chunks, int *busy)
{
	char path[300], line[256], st[16];
	long long v;
	int dev, found;
	FILE *f;

	*chunks = 0;
	*busy = 0;
	for (dev = 0; !hcclt_debugfs_state(dev, path, sizeof(path)); dev++) {
		f = fopen(path, "re");
		if (!f)
			return -2;
		found = 0;
		while (!found && fgets(line, sizeof(line), f))
			if (sscanf(line, "copy engine: %lld chunks run, %15s",
				   &v, st) == 2) {
				*chunks += v;
				*busy |= !strcmp(st, "busy");
				found = 1;
			}
		fclose(f);
		if (!found)
			return -1;
	}
	return dev ? 0 : -2;
}

/* Chunks run so far (-1: none to read); SKIP without debugfs. */
#define ENGINE_CHUNKS(v)						\
	do {								\
		int busy_, r_ = engine_state(&(v), &busy_);		\
									\
		if (r_ == -2)						\
			SKIP(return, "needs debugfs");			\
		ASSERT_EQ(0, r_) TH_LOG("no copy engine line in debugfs"); \
	} while (0)

/* Until the engine ran more than @c0 chunks; its count, or -1. */
static long long engine_wait_started(long long c0)
{
	long long end = hcclt_now_ms() + 60000, c;
	int busy;

	while (hcclt_now_ms() < end) {
		if (engine_state(&c, &busy))
			return -1;
		if (c > c0)
			return c;
		hcclt_msleep(1);
	}
	return -1;
}

/* Until the engine is idle (generous bound); its count then, or -1. */
static long long engine_wait_idle(void)
{
	long long end = hcclt_now_ms() + 120000, c;
	int busy;

	while (hcclt_now_ms() < end) {
		if (engine_state(&c, &busy))
			return -1;
		if (!busy)
			return c;
		hcclt_msleep(1);
	}
	return -1;
}

/*
 * Two unmapped objects of BIG bytes and NBIG copies of one into the
 * other: all on @thread, or one on each of @nthreads threads.
 */
static int queue_big_copies_on(int fd, const __u64 *thread, int nthreads,
			       __u32 h[2])
{
	struct drm_hcclt_mem_create m;
	struct drm_hcclt_task t[NBIG];
	int i, ret;

	for (i = 0; i < 2; i++) {
		memset(&m, 0, sizeof(m));
		m.size = BIG;
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &m);
		if (ret)
			return ret;
		h[i] = m.handle;
	}
	for (i = 0; i < NBIG; i++)
		t[i] = dtask(HCCLT_TASK_LOCAL_COPY, 0, h[0], 0, h[1], 0, BIG);
	if (nthreads == 1)
		return hcclt_submit(fd, thread[0], t, NBIG);
	for (i = 0; i < nthreads && i < NBIG; i++) {
		ret = hcclt_submit(fd, thread[i], &t[i], 1);
		if (ret)
			return ret;
	}
	return 0;
}

static int queue_big_copies(int fd, __u64 thread, __u32 h[2])
{
	return queue_big_copies_on(fd, &thread, 1, h);
}

/*
 * A flush (the communicator destroyed) stops the copy running within a
 * chunk and drops the ones queued: far fewer chunks run than the copies
 * had, and none once the engine went idle.
 */
TEST_F_TIMEOUT(data, flush_stops_running_copy, 300)
{
	long long c0, c1, c2;
	__u32 h[2];

	ENGINE_CHUNKS(c0);
	ASSERT_EQ(0, queue_big_copies(self->fd, self->thread, h));
	ASSERT_LT(c0, engine_wait_started(c0));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	c1 = engine_wait_idle();
	ASSERT_LE(c0, c1);
	TH_LOG("%lld of %d chunks ran", c1 - c0, NBIG * (int)(BIG / MIB));
	EXPECT_GT(NBIG * (long long)(BIG / MIB), c1 - c0);
	hcclt_msleep(100);
	ENGINE_CHUNKS(c2);
	EXPECT_EQ(c1, c2);
	EXPECT_EQ(0, gem_close(self->fd, h[0]));
	EXPECT_EQ(0, gem_close(self->fd, h[1]));
}

/*
 * A process killed with copies running and queued: the engine stops
 * within a chunk, nothing of it runs afterwards, and its device memory
 * comes back (teardown).
 */
TEST_F_TIMEOUT(data, sigkill_stops_copies, 300)
{
	long long c0, c1, c2, started;
	int sync[2], st;
	pid_t pid;
	char c;

	ENGINE_CHUNKS(c0);
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		__u64 comm, thread;
		__u32 h[2];
		int fd = open_dev(0);

		if (fd < 0 || hcclt_comm_create(fd, &comm) ||
		    hcclt_acquire(fd, comm, HCCLT_ENGINE_AICPU_TS, 1, 1,
				  &thread) ||
		    queue_big_copies(fd, thread, h))
			_exit(1);
		if (write(sync[1], "x", 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	started = read(sync[0], &c, 1) == 1 ? engine_wait_started(c0) : -1;
	/* The child goes whatever happened: it holds the device. */
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st));
	ASSERT_LT(c0, started);
	c1 = engine_wait_idle();
	ASSERT_LE(c0, c1);
	TH_LOG("%lld of %d chunks ran", c1 - c0, NBIG * (int)(BIG / MIB));
	EXPECT_GT(NBIG * (long long)(BIG / MIB), c1 - c0);
	hcclt_msleep(100);
	ENGINE_CHUNKS(c2);
	EXPECT_EQ(c1, c2);
	close(sync[0]);
	close(sync[1]);
}

/*
 * Another client's copy is served in turn: it completes while this
 * file's long copies, one on each of NBIG streams, are still queued, not
 * after them (as a first come, first served engine would have it).
 */
TEST_F_TIMEOUT(data, copy_engine_serves_clients_in_turn, 300)
{
	struct drm_hcclt_thread_info ti;
	__u64 comm2, thread2, th[NBIG];
	struct obj x = {0}, y = {0};
	long long c0;
	__u32 h[2], left = 0;
	int fd2, i;

	ENGINE_CHUNKS(c0);
	fd2 = open_dev(0);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, hcclt_comm_create(fd2, &comm2));
	ASSERT_EQ(0, hcclt_acquire(fd2, comm2, HCCLT_ENGINE_AICPU_TS, 1, 1,
				   &thread2));
	ASSERT_EQ(0, obj_new(fd2, MIB, &x));
	ASSERT_EQ(0, obj_new(fd2, MIB, &y));
	fill(x.p, MIB, 5);
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_AICPU_TS,
				   NBIG, 1, th));
	ASSERT_EQ(0, queue_big_copies_on(self->fd, th, NBIG, h));
	ASSERT_LT(c0, engine_wait_started(c0));
	ASSERT_EQ(0, copy1(fd2, thread2, x.handle, 0, y.handle, 0, MIB));
	ASSERT_EQ(0, hcclt_sync(fd2, thread2, 120000));
	EXPECT_EQ(-1, check(y.p, MIB, 5));
	/* This file's copies are not all done. */
	for (i = 0; i < NBIG; i++) {
		ASSERT_EQ(0, hcclt_thread_info(self->fd, th[i], &ti));
		left += ti.queue_depth;
	}
	TH_LOG("%u of %d copies left when the other client's was done",
	       left, NBIG);
	EXPECT_LT(0, left);
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_LE(c0, engine_wait_idle());
	EXPECT_EQ(0, gem_close(self->fd, h[0]));
	EXPECT_EQ(0, gem_close(self->fd, h[1]));
	obj_free(fd2, &x);
	obj_free(fd2, &y);
	close(fd2);
}

#define CG_BYTES	(16 * MIB)

/* oom_kill of @dir's memory.events, or -1. */
static long long cg_oom_kills(const char *dir)
{
	char path[PATH_MAX], line[128];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.events", dir);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "oom_kill %lld", &v) == 1)
			break;
	fclose(f);
	return v;
}

/*
 * In cgroup @cg: copy between two unmapped objects of CG_BYTES (the copy
 * engine allocates every page of both), write memory.current's growth to
 * @out; then the same under a memory.max with room for a quarter of it,
 * which must fail with -ENOMEM. The limit is lifted through a file opened
 * before, as soon as the sync returns: at the limit, any allocation of
 * the child's (opening a file, say) would call the cgroup's OOM killer.
 */
static int cg_copy_child(const char *cg, int out)
{
	struct drm_hcclt_mem_create m[4];
	long long m0, m1, grew, cur;
	__u64 comm, thread;
	char max[32], path[PATH_MAX];
	int fd, i, ret, mfd;

	if (hcclt_cg_write(cg, "cgroup.procs", "0"))
		return 10;
	fd = hcclt_open();
	if (fd < 0 || hcclt_comm_create(fd, &comm) ||
	    hcclt_acquire(fd, comm, HCCLT_ENGINE_AICPU_TS, 1, 1, &thread))
		return 11;
	for (i = 0; i < 4; i++) {
		memset(&m[i], 0, sizeof(m[i]));
		m[i].size = CG_BYTES;
		if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &m[i]))
			return 12;
	}
	m0 = hcclt_cg_read_ll(cg, "memory.current");
	if (copy1(fd, thread, m[0].handle, 0, m[1].handle, 0, CG_BYTES) ||
	    hcclt_sync(fd, thread, 120000))
		return 13;
	m1 = hcclt_cg_read_ll(cg, "memory.current");
	if (m0 < 0 || m1 < 0)
		return 14;
	grew = m1 - m0;
	if (write(out, &grew, sizeof(grew)) != sizeof(grew))
		return 15;
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	mfd = open(path, O_WRONLY | O_CLOEXEC);
	snprintf(max, sizeof(max), "%lld", m1 + (long long)CG_BYTES / 2);
	if (mfd < 0 || hcclt_cg_write(cg, "memory.max", max))
		return 16;
	if (copy1(fd, thread, m[2].handle, 0, m[3].handle, 0, CG_BYTES))
		return 17;
	ret = hcclt_sync(fd, thread, 120000);
	if (write(mfd, "max", 3) != 3)
		return 21;
	close(mfd);
	if (!ret)
		return 18;	/* the pages went somewhere else */
	if (ret != -ENOMEM)
		return 19;
	/* What the copy charged stayed within the limit (slack: the sync). */
	cur = hcclt_cg_read_ll(cg, "memory.current");
	if (cur > strtoll(max, NULL, 10) + (long long)MIB)
		return 20;
	close(fd);
	return 0;
}

/*
 * Pages the copy engine allocates are charged to the memory cgroup of the
 * objects' creator, and its memory.max holds: a copy needing more fails
 * with -ENOMEM on its stream.
 */
TEST_F_TIMEOUT(data, copy_charged_to_memory_cgroup, 300)
{
	struct hcclt_cg cg;
	long long grew = -1;
	int status;

	if (hcclt_cg_make(&cg, "hcclt-copy"))
		SKIP(return, "%s", cg.why);
	ASSERT_EQ(0, hcclt_cg_run(&cg, cg_copy_child, &grew, &status));
	TH_LOG("memory.current grew by %lld bytes over a copy of %llu bytes between unmapped objects",
	       grew, CG_BYTES);
	/* As the mapping test: the cgroup's OOM killer also holds the limit. */
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
	    cg_oom_kills(cg.path) > 0) {
		TH_LOG("the child was OOM-killed in its cgroup at the limit");
	} else {
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
	}
	EXPECT_LE((long long)(2 * CG_BYTES), grew);
	EXPECT_EQ(0, hcclt_cg_remove(&cg));
}

/*
 * The owner of an HCCL buffer that its peer makes: rank 1 on device 1,
 * in cgroup @cg. It joins, takes a channel to rank 0 and makes no buffer
 * of its own, then writes memory.current's growth while its peer makes
 * that buffer (CHANNEL_BUFFER) and writes OWN_BYTES into it to @out; it
 * holds its communicator until the parent says so.
 */
#define OWN_BYTES	(8 * MIB)

static const __u8 *own_key;
static int own_ready[2], own_go[2];

static int own_child(const char *cg, int out)
{
	struct rank r = { .key = own_key, .dev = 1, .rank = 1, .nranks = 2 };
	long long m0, m1, grew;
	__u64 c;
	char b;

	if (hcclt_cg_write(cg, "cgroup.procs", "0"))
		return 10;
	if (rank_join(&r) || chan_acquire1(r.fd, r.comm, HCCLT_ENGINE_CPU, 0, 1,
					   now_ns() + 20000000000LL, &c))
		return 11;
	m0 = hcclt_cg_read_ll(cg, "memory.current");
	if (write(own_ready[1], "r", 1) != 1 || read(own_go[0], &b, 1) != 1)
		return 12;
	m1 = hcclt_cg_read_ll(cg, "memory.current");
	grew = m0 < 0 || m1 < 0 ? -1 : m1 - m0;
	if (write(out, &grew, sizeof(grew)) != sizeof(grew))
		return 13;
	if (read(own_go[0], &b, 1) != 1)
		return 14;
	close(r.fd);
	return 0;
}

/*
 * An HCCL buffer its peer makes (a peer's CHANNEL_BUFFER; a peer host's
 * BUFQ, clusters.rst, goes the same way) is charged to its owner, as its
 * device memory is: the pages the peer's write fills land in the owner's
 * memory cgroup, none of them in the peer's.
 */
TEST_F_TIMEOUT(data, peer_made_buffer_charged_to_owner, 120)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_channel_buffer cb;
	struct rank r = { .dev = 0, .rank = 0, .nranks = 2 };
	struct drm_hcclt_task t;
	struct hcclt_cg cg;
	struct obj loc = {0};
	long long grew = -1;
	int pfd[2], st;
	pid_t pid;
	__u64 c;
	char b;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	if (hcclt_cg_make(&cg, "hcclt-own"))
		SKIP(return, "%s", cg.why);
	memset(&g, 0, sizeof(g));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	own_key = g.key;
	r.key = g.key;
	ASSERT_EQ(0, pipe(own_ready));
	ASSERT_EQ(0, pipe(own_go));
	ASSERT_EQ(0, pipe(pfd));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		close(pfd[0]);
		_exit(own_child(cg.path, pfd[1]));
	}
	close(pfd[1]);
	ASSERT_EQ(0, rank_join(&r));
	ASSERT_EQ(0, chan_acquire1(r.fd, r.comm, HCCLT_ENGINE_CPU, 1, 1,
				   now_ns() + 20000000000LL, &c));
	ASSERT_EQ(1, read(own_ready[0], &b, 1));
	/* The owner has no buffer: this call makes it, of OWN_BYTES. */
	ASSERT_EQ(0, chan_buf_ex(r.fd, r.comm, c, OWN_BYTES, 0, 0, &cb));
	close(cb.fd);
	ASSERT_EQ(0, obj_new(r.fd, OWN_BYTES, &loc));
	memset(loc.p, 0x5a, OWN_BYTES);
	t = dtask(HCCLT_TASK_WRITE, c, loc.handle, 0, 0, 0, OWN_BYTES);
	ASSERT_EQ(0, hcclt_submit(r.fd, r.thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(r.fd, r.thread, 60000));
	ASSERT_EQ(1, write(own_go[1], "w", 1));
	EXPECT_EQ((ssize_t)sizeof(grew), read(pfd[0], &grew, sizeof(grew)));
	ASSERT_EQ(1, write(own_go[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
	TH_LOG("the owner's memory.current grew by %lld bytes over the peer's write of %llu",
	       grew, OWN_BYTES);
	EXPECT_LE((long long)OWN_BYTES, grew);
	obj_free(r.fd, &loc);
	close(r.fd);
	close(pfd[0]);
	close(own_ready[0]);
	close(own_ready[1]);
	close(own_go[0]);
	close(own_go[1]);
	EXPECT_EQ(0, hcclt_cg_remove(&cg));
}

/* The render node of vgem, an importer of dma-bufs, or -1 if none. */
static int vgem_find(void)
{
	char path[64], name[16];
	struct drm_version v;
	int i, fd;

	for (i = 128; i < 192; i++) {
		snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(&v, 0, sizeof(v));
		memset(name, 0, sizeof(name));
		v.name = name;
		v.name_len = sizeof(name) - 1;
		if (!ioctl(fd, DRM_IOCTL_VERSION, &v) && !strcmp(name, "vgem"))
			return fd;
		close(fd);
	}
	return -1;
}

/*
 * vgem's render node; loads the module if needed (tools/vm/run packs it
 * at /lib/kmods/vgem.ko; else modprobe), setting *@loaded.
 */
static int vgem_open(int *loaded)
{
	int fd = vgem_find(), mfd;

	*loaded = 0;
	if (fd >= 0)
		return fd;
	mfd = open("/lib/kmods/vgem.ko", O_RDONLY | O_CLOEXEC);
	if (mfd >= 0) {
		*loaded = !syscall(SYS_finit_module, mfd, "", 0);
		close(mfd);
	} else {
		*loaded = !system("modprobe -q vgem 2>/dev/null");
	}
	return vgem_find();
}

/*
 * A write of device 0 into the HCCL buffer of a rank on device 1, queued
 * behind a wait, holds device 1's object after every file and mapping of
 * device 1 is gone and device 1 is unbound (rmmod removes devices from the
 * highest index down): the object, freed when device 0 drops the task,
 * must still find its device (a use after free, which KASAN reports,
 * before memory objects held their DRM device). Device 1 is bound again
 * at the end.
 */
TEST(queued_write_outlives_peer_device)
{
	struct drm_hcclt_task t[2];
	char name[64];
	struct pair2 p;
	__u64 th;
	int i, fd, ret;

	if (find_devices() < 2)
		SKIP(return, "needs 2 devices");
	if (access(HCCLT_PDRV_DIR "/unbind", W_OK))
		SKIP(return, "%s/unbind: %s", HCCLT_PDRV_DIR, strerror(errno));
	fd = open_dev(0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, pair2_setup(fd, &p, MIB));
	close(fd);
	ASSERT_EQ(0, hcclt_platform_name(p.r[1].fd, name, sizeof(name)));
	/* A thread of rank 0 parked on its own notify, a write behind. */
	ASSERT_EQ(0, hcclt_acquire(p.r[0].fd, p.r[0].comm, HCCLT_ENGINE_CPU,
				   1, 1, &th));
	t[0] = hcclt_wait(0, 0);
	t[1] = dtask(HCCLT_TASK_WRITE, p.c[0], p.loc[0].handle, 0, 0, 0, MIB);
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, th, t, 2));
	/* Nothing of device 1 left but the object the write holds. */
	for (i = 0; i < 2; i++) {
		munmap(p.peer[i].p, p.peer[i].size);
		p.peer[i].p = NULL;
	}
	obj_free(p.r[1].fd, &p.buf[1]);
	obj_free(p.r[1].fd, &p.loc[1]);
	close(p.r[1].fd);
	p.r[1].fd = -1;
	ASSERT_EQ(0, hcclt_write_str(HCCLT_PDRV_DIR "/unbind", name));
	/*
	 * Released by rank 0's other thread, the write fails: rank 1's
	 * communicator went with its file, and its buffer was revoked.
	 */
	t[0] = hcclt_rec(th, 0);
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, t, 1));
	ret = hcclt_sync(p.r[0].fd, th, 30000);
	EXPECT_EQ(-ECONNRESET, ret);
	/* The last reference of the object goes with the file. */
	pair2_free(&p);
	ASSERT_EQ(0, hcclt_write_str(HCCLT_PDRV_DIR "/bind", name));
	fd = hcclt_open_named(name);
	ASSERT_LE(0, fd);
	close(fd);
}

/* ---- revocation: the peer's communicator torn down ---- */

static sigjmp_buf probe_env;

static void probe_sigbus(int sig)
{
	siglongjmp(probe_env, 1);
}

/*
 * SIGBUS if a load (@store: a store) at @p faults so, else 0. Atomic
 * accesses: the compiler keeps them.
 */
static int probe(__u8 *p, int store)
{
	struct sigaction sa, old;
	int ret;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_sigbus;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old))
		return -errno;
	if (sigsetjmp(probe_env, 1)) {
		ret = SIGBUS;
	} else {
		if (store)
			__atomic_store_n(p, 0x33, __ATOMIC_RELAXED);
		else
			(void)__atomic_load_n(p, __ATOMIC_RELAXED);
		ret = 0;
	}
	sigaction(SIGBUS, &old, NULL);
	return ret;
}

/*
 * Rank 1 destroys its communicator: rank 0's mapping of its HCCL buffer
 * faults SIGBUS, on a page it had touched (its PTE zapped) and on one it
 * had not (the fault refused), loads and stores alike, also in children
 * that inherited the mapping before and after; a dma-buf fd got before
 * cannot be mapped any more. Rank 1's own mapping keeps the memory, and
 * rank 1's mapping of rank 0's buffer, whose communicator lives, keeps
 * working.
 */
TEST_F(data, peer_gone_revokes_mapping)
{
	struct drm_hcclt_channel_buffer cb;
	int st, go[2], ready[2];
	pid_t pid, early;
	struct pair2 p;
	char c;
	__u8 *m;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	p.buf[1].p[12345] = 0x5a;
	ASSERT_EQ(0x5a, p.peer[0].p[12345]);
	ASSERT_EQ(0, probe(p.peer[0].p + 4096, 1));
	ASSERT_EQ(0, chan_buf_ex(p.r[0].fd, p.r[0].comm, p.c[0], 0, 0, 0, &cb));
	/*
	 * A child forked before the destroy, which touched the mapping (its
	 * own PTEs), probes it once the destroy has returned.
	 */
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	early = fork();
	ASSERT_LE(0, early);
	if (!early) {
		if (p.peer[0].p[12345] != 0x5a || write(ready[1], "r", 1) != 1 ||
		    read(go[0], &c, 1) != 1)
			_exit(2);
		_exit(probe(p.peer[0].p + 12345, 0) == SIGBUS ? 0 : 1);
	}
	ASSERT_EQ(1, read(ready[0], &c, 1));

	ASSERT_EQ(0, hcclt_comm_destroy(p.r[1].fd, p.r[1].comm));
	ASSERT_EQ(1, write(go[1], "g", 1));
	ASSERT_EQ(early, waitpid(early, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st))
		TH_LOG("early child: %#x", st);
	close(go[0]);
	close(go[1]);
	close(ready[0]);
	close(ready[1]);
	EXPECT_EQ(SIGBUS, probe(p.peer[0].p + 12345, 0));
	EXPECT_EQ(SIGBUS, probe(p.peer[0].p + 4096, 1));
	EXPECT_EQ(SIGBUS, probe(p.peer[0].p + MIB, 0));
	EXPECT_EQ(SIGBUS, probe(p.peer[0].p + p.peer[0].size - 1, 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(probe(p.peer[0].p + 12345, 0) == SIGBUS ? 0 : 1);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	m = mmap(NULL, cb.size, PROT_READ, MAP_SHARED, cb.fd, 0);
	EXPECT_EQ(MAP_FAILED, m);
	EXPECT_EQ(ECONNRESET, errno);
	if (m != MAP_FAILED)
		munmap(m, cb.size);
	close(cb.fd);

	/* The owner's memory, and the other direction, are untouched. */
	EXPECT_EQ(0x5a, p.buf[1].p[12345]);
	EXPECT_EQ(0x33, p.buf[1].p[4096]);
	p.buf[1].p[MIB] = 0x11;
	EXPECT_EQ(0x11, p.buf[1].p[MIB]);
	p.buf[0].p[777] = 0x66;
	EXPECT_EQ(0x66, p.peer[1].p[777]);
	pair2_free(&p);
}

/*
 * Rank 1's process dies (SIGKILL): rank 0's mapping of its HCCL buffer
 * faults SIGBUS once the dead process's file is released (bounded wait).
 */
TEST_F_TIMEOUT(data, peer_death_revokes_mapping, 120)
{
	struct drm_hcclt_group_create g;
	struct rank r = { .dev = 0, .rank = 0, .nranks = 2 };
	struct obj peer = {0};
	int sync[2], st, ret;
	long long end;
	__u64 ch;
	pid_t pid;
	char c;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	memset(&g, 0, sizeof(g));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct rank r1 = { .key = g.key, .dev = 1, .rank = 1,
				   .nranks = 2 };
		struct obj buf = {0};

		close(sync[0]);
		if (rank_join(&r1) ||
		    chan_acquire1(r1.fd, r1.comm, HCCLT_ENGINE_CPU, 0, 1,
				  now_ns() + 20000000000LL, &ch) ||
		    comm_buf(r1.fd, r1.comm, MIB, &buf))
			_exit(1);
		fill(buf.p, MIB, 3);
		if (write(sync[1], "x", 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	close(sync[1]);
	r.key = g.key;
	ret = rank_join(&r);
	if (!ret)
		ret = chan_acquire1(r.fd, r.comm, HCCLT_ENGINE_CPU, 1, 1,
				    now_ns() + 20000000000LL, &ch);
	if (!ret)
		ret = read(sync[0], &c, 1) == 1 ? 0 : -EPIPE;
	if (!ret)
		ret = chan_buf(r.fd, r.comm, ch, &peer);
	EXPECT_EQ(0, ret);
	if (!ret)
		EXPECT_EQ(-1, check(peer.p, MIB, 3));
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st));
	close(sync[0]);
	ASSERT_EQ(0, ret);

	end = hcclt_wait_end(10000);
	while (!probe(peer.p + 4096, 0) && hcclt_now_ms() < end)
		hcclt_msleep(5);
	EXPECT_EQ(SIGBUS, probe(peer.p + 4096, 0));
	EXPECT_EQ(SIGBUS, probe(peer.p + MIB - 1, 1));
	munmap(peer.p, peer.size);
	close(r.fd);
}

/*
 * A write into and a read from rank 1's HCCL buffer, queued by rank 0
 * behind waits when rank 1 destroys its communicator, fail with the
 * peer's error when released, and never run: rank 1's buffer (through
 * its own mapping) and rank 0's read destination keep their bytes.
 */
TEST_F(data, peer_gone_fails_queued_tasks)
{
	struct drm_hcclt_task t[2];
	struct pair2 p;
	__u64 th[2];
	int i;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	fill(p.loc[0].p, MIB, 7);
	fill(p.loc[0].p + MIB, MIB, 9);
	fill(p.buf[1].p, 2 * MIB, 8);
	ASSERT_EQ(0, hcclt_acquire(p.r[0].fd, p.r[0].comm, HCCLT_ENGINE_CPU,
				   2, 1, th));
	t[0] = hcclt_wait(0, 0);
	t[1] = dtask(HCCLT_TASK_WRITE, p.c[0], p.loc[0].handle, 0, 0, 0, MIB);
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, th[0], t, 2));
	t[1] = dtask(HCCLT_TASK_READ, p.c[0], 0, 0, p.loc[0].handle, MIB, MIB);
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, th[1], t, 2));

	ASSERT_EQ(0, hcclt_comm_destroy(p.r[1].fd, p.r[1].comm));
	for (i = 0; i < 2; i++) {
		t[0] = hcclt_rec(th[i], 0);
		ASSERT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, t, 1));
		EXPECT_EQ(-ECONNRESET, hcclt_sync(p.r[0].fd, th[i], 30000))
			TH_LOG("thread %d", i);
	}
	EXPECT_EQ(-1, check(p.buf[1].p, 2 * MIB, 8));
	EXPECT_EQ(-1, check(p.loc[0].p + MIB, MIB, 9));
	pair2_free(&p);
}

#define RBUF	(16 * MIB)
#define NRW	32

/*
 * Writes into rank 1's HCCL buffer running when rank 1 destroys its
 * communicator: the one running stops within a chunk and the queued ones
 * never start (-ECONNRESET), and nothing reaches the buffer after the
 * destroy returned. The writes alternate two sources, so a chunk that
 * ran afterwards would change bytes.
 */
TEST_F_TIMEOUT(data, peer_gone_stops_running_write, 300)
{
	struct drm_hcclt_task t[NRW];
	struct obj alt = {0};
	struct pair2 p;
	long long c0, c1, cd;
	__u8 *snap;
	int i;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ENGINE_CHUNKS(c0);
	snap = malloc(RBUF);
	ASSERT_NE(NULL, snap);
	ASSERT_EQ(0, pair2_setup(self->fd, &p, RBUF));
	ASSERT_EQ(0, obj_new(p.r[0].fd, RBUF, &alt));
	fill(p.loc[0].p, RBUF, 1);
	fill(alt.p, RBUF, 2);
	for (i = 0; i < NRW; i++)
		t[i] = dtask(HCCLT_TASK_WRITE, p.c[0],
			     i % 2 ? alt.handle : p.loc[0].handle, 0, 0, 0,
			     RBUF);
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, t, NRW));
	ASSERT_LT(c0, engine_wait_started(c0));

	ASSERT_EQ(0, hcclt_comm_destroy(p.r[1].fd, p.r[1].comm));
	memcpy(snap, p.buf[1].p, RBUF);
	ENGINE_CHUNKS(cd);
	/*
	 * On a host fast enough to finish every write before the destroy,
	 * nothing was left to stop: the stream then succeeded.
	 */
	EXPECT_EQ(cd - c0 < NRW * (RBUF / MIB) ? -ECONNRESET : 0,
		  hcclt_sync(p.r[0].fd, p.r[0].thread, 120000));
	c1 = engine_wait_idle();
	ASSERT_LE(c0, c1);
	TH_LOG("%lld of %d chunks ran", c1 - c0, NRW * (int)(RBUF / MIB));
	EXPECT_EQ(0, memcmp(snap, p.buf[1].p, RBUF));
	obj_free(p.r[0].fd, &alt);
	pair2_free(&p);
	free(snap);
}

/*
 * CHANNEL_BUFFER's dma-buf is for mmap() alone: another driver that
 * imports it is refused when it attaches (before uAPI 1.4's fix, 6.1
 * warned in drm_gem_map_dma_buf(): no sg table), and the mapping still
 * works afterwards.
 */
TEST_F(data, channel_buffer_refuses_importers)
{
	struct drm_hcclt_channel_buffer cb;
	struct drm_prime_handle ph;
	struct pair2 p;
	int vfd, loaded;
	__u8 *m;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	vfd = vgem_open(&loaded);
	if (vfd < 0)
		SKIP(return, "no vgem to import with");
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	ASSERT_EQ(0, chan_buf_ex(p.r[0].fd, p.r[0].comm, p.c[0], 0, 0, 0, &cb));
	memset(&ph, 0, sizeof(ph));
	ph.fd = cb.fd;
	EXPECT_EQ(-EOPNOTSUPP, hcclt_ioctl(vfd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph));
	m = mmap(NULL, cb.size, PROT_READ | PROT_WRITE, MAP_SHARED, cb.fd, 0);
	ASSERT_NE(MAP_FAILED, m);
	m[4096] = 0x77;
	EXPECT_EQ(0x77, p.buf[1].p[4096]);
	munmap(m, cb.size);
	close(cb.fd);
	close(vfd);
	pair2_free(&p);
	if (loaded)
		syscall(SYS_delete_module, "vgem", O_NONBLOCK);
}

/* ---- reduces (HCCLT_FEATURE_REDUCE, _REDUCE_EXT) ---- */

/* The 1.4 types, then those of 1.7 (HCCLT_FEATURE_REDUCE_EXT). */
static const __u32 rtypes[] = { HCCLT_DTYPE_INT8, HCCLT_DTYPE_INT16,
				HCCLT_DTYPE_INT32, HCCLT_DTYPE_FP16,
				HCCLT_DTYPE_FP32, HCCLT_DTYPE_BF16,
				HCCLT_DTYPE_INT64, HCCLT_DTYPE_UINT64,
				HCCLT_DTYPE_UINT8, HCCLT_DTYPE_UINT16,
				HCCLT_DTYPE_UINT32, HCCLT_DTYPE_FP64 };
static const __u32 rops[] = { HCCLT_REDUCE_SUM, HCCLT_REDUCE_MAX,
			      HCCLT_REDUCE_MIN, HCCLT_REDUCE_PROD };

static unsigned int esize(__u32 dt)
{
	switch (dt) {
	case HCCLT_DTYPE_INT8:
	case HCCLT_DTYPE_UINT8:
		return 1;
	case HCCLT_DTYPE_INT16:
	case HCCLT_DTYPE_UINT16:
	case HCCLT_DTYPE_FP16:
	case HCCLT_DTYPE_BF16:
		return 2;
	case HCCLT_DTYPE_INT32:
	case HCCLT_DTYPE_UINT32:
	case HCCLT_DTYPE_FP32:
		return 4;
	default:
		return 8;
	}
}

/* A type or op that came with uAPI 1.7 (HCCLT_FEATURE_REDUCE_EXT)? */
static int reduce_ext(__u32 dt, __u32 op)
{
	return op == HCCLT_REDUCE_PROD || dt == HCCLT_DTYPE_INT64 ||
	       (dt >= HCCLT_DTYPE_UINT64 && dt <= HCCLT_DTYPE_FP64);
}

static int is_signed(__u32 dt)
{
	return dt == HCCLT_DTYPE_INT8 || dt == HCCLT_DTYPE_INT16 ||
	       dt == HCCLT_DTYPE_INT32 || dt == HCCLT_DTYPE_INT64;
}

static float as_f32(__u32 u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static __u32 f32_bits(float f)
{
	__u32 u;

	memcpy(&u, &f, 4);
	return u;
}

static double as_f64(__u64 u)
{
	double f;

	memcpy(&f, &u, 8);
	return f;
}

static __u64 f64_bits(double f)
{
	__u64 u;

	memcpy(&u, &f, 8);
	return u;
}

/* FP16 through the compiler's _Float16: an oracle of its own. */
static float h2f(__u16 h)
{
	_Float16 v;

	memcpy(&v, &h, 2);
	return (float)v;
}

static __u16 f2h(float f)
{
	_Float16 v = (_Float16)f;
	__u16 h;

	memcpy(&h, &v, 2);
	return h;
}

static __u16 f2bf(float f)
{
	__u32 u = f32_bits(f);

	if ((u & 0x7fffffff) > 0x7f800000)
		return (u >> 16) | 0x40;
	return (u + 0x7fff + ((u >> 16) & 1)) >> 16;
}

static int is_float(__u32 dt)
{
	return dt == HCCLT_DTYPE_FP16 || dt == HCCLT_DTYPE_FP32 ||
	       dt == HCCLT_DTYPE_BF16 || dt == HCCLT_DTYPE_FP64;
}

/* FP16, FP32, BF16 (not FP64) as the float they are computed in. */
static float to_f(__u32 dt, __u64 b)
{
	return dt == HCCLT_DTYPE_FP32 ? as_f32((__u32)b) :
	       dt == HCCLT_DTYPE_FP16 ? h2f((__u16)b) : as_f32((__u32)b << 16);
}

static __u64 from_f(__u32 dt, float f)
{
	return dt == HCCLT_DTYPE_FP32 ? f32_bits(f) :
	       dt == HCCLT_DTYPE_FP16 ? f2h(f) : f2bf(f);
}

static int is_nan(__u32 dt, __u64 b)
{
	if (dt == HCCLT_DTYPE_FP64)
		return as_f64(b) != as_f64(b);
	return to_f(dt, b) != to_f(dt, b);
}

/* What the element @d (destination) becomes with @s: bit patterns. */
static __u64 ref(__u32 dt, __u32 op, __u64 d, __u64 s)
{
	if (dt == HCCLT_DTYPE_FP64) {
		double x = as_f64(d), y = as_f64(s);

		if (op == HCCLT_REDUCE_SUM)
			return f64_bits(x + y);
		if (op == HCCLT_REDUCE_PROD)
			return f64_bits(x * y);
		if (x != x || y != y)
			return x != x ? d : s;
		if (op == HCCLT_REDUCE_MAX)
			return y > x ? s : d;
		return y < x ? s : d;
	}
	if (is_float(dt)) {
		float x = to_f(dt, d), y = to_f(dt, s);

		if (op == HCCLT_REDUCE_SUM)
			return from_f(dt, x + y);
		if (op == HCCLT_REDUCE_PROD)
			return from_f(dt, x * y);
		if (x != x || y != y)
			return x != x ? d : s;
		if (op == HCCLT_REDUCE_MAX)
			return y > x ? s : d;
		return y < x ? s : d;
	}
	{
		unsigned int bits = esize(dt) * 8;
		__u64 mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
		int lt, gt;

		if (op == HCCLT_REDUCE_SUM)
			return (d + s) & mask;
		if (op == HCCLT_REDUCE_PROD)
			return (d * s) & mask;
		if (is_signed(dt)) {
			__s64 x = (__s64)(d << (64 - bits)) >> (64 - bits);
			__s64 y = (__s64)(s << (64 - bits)) >> (64 - bits);

			lt = y < x;
			gt = y > x;
		} else {
			lt = s < d;
			gt = s > d;
		}
		return (op == HCCLT_REDUCE_MAX ? gt : lt) ? s : d;
	}
}

static __u64 get_e(const __u8 *p, unsigned int sz)
{
	__u64 v = 0;

	memcpy(&v, p, sz);
	return v;
}

/*
 * Special values planted among the random ones, per type: element i * 8 + j
 * gets special j (@row 0: the source) or i (@row 1: the destination), so
 * that every pair meets in the first 64 elements. Floats: NaN, inf, -inf,
 * -0, the smallest subnormal, the largest finite value, 0 and a negative
 * NaN with a payload (FP16: its largest subnormal instead, BF16: 1.0);
 * integers: 0, 1, all ones, the sign bit alone and all but it, 2, and two
 * bit patterns.
 */
static void plant(__u8 *p, __u32 dt, __u64 n, int row)
{
	static const __u64 f32s[] = { 0x7fc00000, 0x7f800000, 0xff800000,
				      0x80000000, 0x00000001, 0x7f7fffff,
				      0x00000000, 0xffc00001 };
	static const __u64 f16s[] = { 0x7e00, 0x7c00, 0xfc00, 0x8000, 0x0001,
				      0x7bff, 0x0000, 0x03ff };
	static const __u64 b16s[] = { 0x7fc0, 0x7f80, 0xff80, 0x8000, 0x0001,
				      0x7f7f, 0x0000, 0x3f80 };
	static const __u64 f64s[] = { 0x7ff8000000000000, 0x7ff0000000000000,
				      0xfff0000000000000, 0x8000000000000000,
				      0x0000000000000001, 0x7fefffffffffffff,
				      0x0000000000000000, 0xfff8000000000001 };
	unsigned int sz = esize(dt), i, j;
	__u64 top = 1ULL << (sz * 8 - 1);
	const __u64 ints[] = { 0, 1, ~0ULL, top, top - 1, 2,
			       0x5555555555555555, 0xaaaaaaaaaaaaaaaa };
	const __u64 *v = ints;

	if (dt == HCCLT_DTYPE_FP32)
		v = f32s;
	else if (dt == HCCLT_DTYPE_FP16)
		v = f16s;
	else if (dt == HCCLT_DTYPE_BF16)
		v = b16s;
	else if (dt == HCCLT_DTYPE_FP64)
		v = f64s;
	/* Little endian: the low @sz bytes of each value. */
	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++)
			if ((__u64)(i * 8 + j) < n)
				memcpy(p + (i * 8 + j) * sz, &v[row ? i : j],
				       sz);
}

/*
 * Every type and op: LOCAL_REDUCE over 2 pages and a bit at element-aligned
 * offsets, random bit patterns and every pair of special values (NaN, inf,
 * -0, subnormal, max; integers' edges), checked element by element against
 * the reference above (FP16 through the compiler's _Float16; NaN results by
 * NaN-ness). The 1.7 types and PROD only with HCCLT_FEATURE_REDUCE_EXT.
 */
TEST_F(data, reduce_every_type_and_op)
{
	struct drm_hcclt_query q;
	unsigned int ti, oi, done = 0;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	if (!(q.features & HCCLT_FEATURE_REDUCE))
		SKIP(return, "driver without reduces");
	for (ti = 0; ti < HCCLT_ARRAY_SIZE(rtypes); ti++) {
		for (oi = 0; oi < HCCLT_ARRAY_SIZE(rops); oi++) {
			__u32 dt = rtypes[ti], op = rops[oi];
			unsigned int sz = esize(dt);
			__u64 so = 8 * 4, dof = 4096 - 4 * sz, n = 2 * 4096 / sz + 37;
			static __u8 old[3 * 4096];
			struct drm_hcclt_task t;
			__u64 i, bad = 0, first = ~0ULL;

			if (reduce_ext(dt, op) &&
			    !(q.features & HCCLT_FEATURE_REDUCE_EXT))
				continue;
			fill(self->a.p, 4 * 4096, 7 + ti + 3 * oi);
			fill(self->b.p, 4 * 4096, 91 + ti + 5 * oi);
			plant(self->a.p + so, dt, n, 0);
			plant(self->b.p + dof, dt, n, 1);
			memcpy(old, self->b.p + dof, n * sz);
			t = dtask(HCCLT_TASK_LOCAL_REDUCE, 0, self->a.handle, so,
				  self->b.handle, dof, n * sz);
			t.dtype = dt;
			t.reduce_op = op;
			ASSERT_EQ(0, hcclt_submit(self->fd, self->thread, &t, 1));
			ASSERT_EQ(0, hcclt_sync(self->fd, self->thread, 10000));
			for (i = 0; i < n; i++) {
				__u64 d = get_e(old + i * sz, sz);
				__u64 sv = get_e(self->a.p + so + i * sz, sz);
				__u64 got = get_e(self->b.p + dof + i * sz, sz);
				__u64 want = ref(dt, op, d, sv);

				if (is_float(dt) && is_nan(dt, want) ?
				    !is_nan(dt, got) : got != want) {
					if (!bad++)
						first = i;
				}
			}
			EXPECT_EQ(0, bad) {
				__u64 f = first;

				TH_LOG("dtype %u op %u: %llu wrong, first %llu: dst %#llx src %#llx got %#llx want %#llx",
				       dt, op, (unsigned long long)bad,
				       (unsigned long long)f,
				       (unsigned long long)get_e(old + f * sz, sz),
				       (unsigned long long)get_e(self->a.p + so + f * sz, sz),
				       (unsigned long long)get_e(self->b.p + dof + f * sz, sz),
				       (unsigned long long)ref(dt, op, get_e(old + f * sz, sz),
							       get_e(self->a.p + so + f * sz, sz)));
			}
			/* Bytes around the range untouched. */
			EXPECT_EQ(pat(dof - 1, 91 + ti + 5 * oi), self->b.p[dof - 1]);
			EXPECT_EQ(pat(dof + n * sz, 91 + ti + 5 * oi),
				  self->b.p[dof + n * sz]);
			done++;
		}
	}
	/* 6 types x 3 ops in 1.4; 12 x 4 with the 1.7 ones. */
	EXPECT_EQ(q.features & HCCLT_FEATURE_REDUCE_EXT ? 48 : 18, done);
}

/* One negative test per validation of a reduce. */
TEST_F(data, reduce_einval)
{
	__u32 a = self->a.handle, b = self->b.handle;
	struct drm_hcclt_query q;
	struct drm_hcclt_task t;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	if (!(q.features & HCCLT_FEATURE_REDUCE))
		SKIP(return, "driver without reduces");
#define TRY(field, value, err)						\
	do {								\
		t = dtask(HCCLT_TASK_LOCAL_REDUCE, 0, a, 0, b, 0, 64);	\
		t.dtype = HCCLT_DTYPE_FP32;				\
		t.field = value;					\
		EXPECT_EQ(err, hcclt_submit(self->fd, self->thread, &t, 1)) \
			TH_LOG(#field "=" #value);			\
	} while (0)
	/* The types and ops after the last known one stay unknown. */
	TRY(dtype, 12, -EINVAL);	/* INT128 */
	TRY(dtype, 13, -EINVAL);
	TRY(dtype, 14, -EINVAL);	/* HIF8 */
	TRY(dtype, 17, -EINVAL);	/* FP8E8M0 */
	TRY(dtype, 255, -EINVAL);
	TRY(dtype, ~0U, -EINVAL);
	TRY(reduce_op, 4, -EINVAL);
	TRY(reduce_op, 255, -EINVAL);
	TRY(reduce_op, ~0U, -EINVAL);
	TRY(len, 62, -EINVAL);		/* not whole FP32 elements */
	TRY(src_offset, 2, -EINVAL);	/* not aligned to them */
	TRY(dst_offset, 6, -EINVAL);
	TRY(dst_handle, a, -EINVAL);	/* overlapping ranges of one object */
	TRY(notify_idx, 1, -EINVAL);
	TRY(timeout_s, 1, -EINVAL);
	TRY(src_offset, MIB - 60, -ERANGE);
	TRY(len, 0, 0);
#undef TRY
	/* Apart in one object: fine. */
	t = dtask(HCCLT_TASK_LOCAL_REDUCE, 0, a, 0, a, 64, 64);
	t.dtype = HCCLT_DTYPE_INT32;
	EXPECT_EQ(0, hcclt_submit(self->fd, self->thread, &t, 1));
	/* One-byte elements overlap as well as wider ones; adjacent is fine. */
	t = dtask(HCCLT_TASK_LOCAL_REDUCE, 0, a, 0, a, 63, 64);
	t.dtype = HCCLT_DTYPE_INT8;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1));
	t.dst_offset = 64;
	EXPECT_EQ(0, hcclt_submit(self->fd, self->thread, &t, 1));
	/* A copy still refuses the reduce fields. */
	t = dtask(HCCLT_TASK_LOCAL_COPY, 0, a, 0, b, 0, 64);
	t.reduce_op = HCCLT_REDUCE_MAX;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->thread, 10000));
}

/*
 * The 1.7 types and PROD (HCCLT_FEATURE_REDUCE_EXT): each accepted with
 * whole, aligned elements and refused without them (offsets and a length
 * of half an element), PROD with every 1.4 type; a driver without the
 * feature refuses them all.
 */
TEST_F(data, reduce_ext_types_and_prod)
{
	static const __u32 ext[] = { HCCLT_DTYPE_INT64, HCCLT_DTYPE_UINT64,
				     HCCLT_DTYPE_UINT8, HCCLT_DTYPE_UINT16,
				     HCCLT_DTYPE_UINT32, HCCLT_DTYPE_FP64 };
	__u32 a = self->a.handle, b = self->b.handle;
	struct drm_hcclt_query q;
	struct drm_hcclt_task t;
	unsigned int i, sz;
	int ok;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	if (!(q.features & HCCLT_FEATURE_REDUCE))
		SKIP(return, "driver without reduces");
	ok = q.features & HCCLT_FEATURE_REDUCE_EXT ? 0 : -EINVAL;
	for (i = 0; i < HCCLT_ARRAY_SIZE(ext); i++) {
		sz = esize(ext[i]);
		t = dtask(HCCLT_TASK_LOCAL_REDUCE, 0, a, 8, b, 16, 128);
		t.dtype = ext[i];
		EXPECT_EQ(ok, hcclt_submit(self->fd, self->thread, &t, 1))
			TH_LOG("dtype %u", ext[i]);
		t.reduce_op = HCCLT_REDUCE_PROD;
		EXPECT_EQ(ok, hcclt_submit(self->fd, self->thread, &t, 1))
			TH_LOG("dtype %u PROD", ext[i]);
		if (sz == 1 || ok)
			continue;
		t.src_offset = 8 + sz / 2;
		EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1))
			TH_LOG("dtype %u: source offset of half an element", ext[i]);
		t.src_offset = 8;
		t.dst_offset = 16 + sz / 2;
		EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1))
			TH_LOG("dtype %u: destination offset", ext[i]);
		t.dst_offset = 16;
		t.len = 128 + sz / 2;
		EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1))
			TH_LOG("dtype %u: length", ext[i]);
	}
	for (i = 0; i < HCCLT_ARRAY_SIZE(rtypes); i++) {
		if (reduce_ext(rtypes[i], HCCLT_REDUCE_SUM))
			continue;
		t = dtask(HCCLT_TASK_LOCAL_REDUCE, 0, a, 0, b, 0, 64);
		t.dtype = rtypes[i];
		t.reduce_op = HCCLT_REDUCE_PROD;
		EXPECT_EQ(ok, hcclt_submit(self->fd, self->thread, &t, 1))
			TH_LOG("dtype %u PROD", rtypes[i]);
	}
	/* Overlapping one-byte elements of the new type, too. */
	t = dtask(HCCLT_TASK_LOCAL_REDUCE, 0, a, 0, a, 1, 64);
	t.dtype = HCCLT_DTYPE_UINT8;
	EXPECT_EQ(-EINVAL, hcclt_submit(self->fd, self->thread, &t, 1));
	EXPECT_EQ(0, hcclt_sync(self->fd, self->thread, 10000));
}

/* WRITE_REDUCE into the peer's buffer, READ_REDUCE out of it. */
TEST_F(data, write_and_read_reduce)
{
	struct drm_hcclt_query q;
	struct drm_hcclt_task t;
	struct pair2 p;
	float *d, *s;
	__s16 *di, *si;
	int i, bad = 0;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	if (!(q.features & HCCLT_FEATURE_REDUCE))
		SKIP(return, "driver without reduces");
	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	/* Rank 0 adds 5000 floats into rank 1's buffer at 4 KiB. */
	d = (float *)(p.buf[1].p + 4096);
	s = (float *)p.loc[0].p;
	for (i = 0; i < 5000; i++) {
		d[i] = (float)i * 0.5f;
		s[i] = (float)(i % 7) - 3.25f;
	}
	t = dtask(HCCLT_TASK_WRITE_REDUCE, p.c[0], p.loc[0].handle, 0, 0, 4096,
		  5000 * 4);
	t.dtype = HCCLT_DTYPE_FP32;
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(p.r[0].fd, p.r[0].thread, 10000));
	for (i = 0; i < 5000; i++)
		bad += d[i] != (float)i * 0.5f + ((float)(i % 7) - 3.25f);
	EXPECT_EQ(0, bad);
	/* Rank 1 takes the MIN of rank 0's buffer into its own object. */
	si = (__s16 *)(p.buf[0].p + 8);
	di = (__s16 *)p.loc[1].p;
	for (i = 0; i < 3000; i++) {
		si[i] = (__s16)(i * 37 - 50000);
		di[i] = (__s16)(20000 - i * 11);
	}
	t = dtask(HCCLT_TASK_READ_REDUCE, p.c[1], 0, 8, p.loc[1].handle, 0,
		  3000 * 2);
	t.dtype = HCCLT_DTYPE_INT16;
	t.reduce_op = HCCLT_REDUCE_MIN;
	ASSERT_EQ(0, hcclt_submit(p.r[1].fd, p.r[1].thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(p.r[1].fd, p.r[1].thread, 10000));
	for (bad = 0, i = 0; i < 3000; i++) {
		__s16 x = (__s16)(i * 37 - 50000), y = (__s16)(20000 - i * 11);

		bad += di[i] != (x < y ? x : y);
	}
	EXPECT_EQ(0, bad);
	pair2_free(&p);
}

/*
 * The 1.7 reduces through a channel: WRITE_REDUCE of UINT64 PROD and of
 * UINT8 MIN (odd offsets) into the peer's buffer, READ_REDUCE of FP64 MAX
 * out of it.
 */
TEST_F(data, write_and_read_reduce_ext)
{
	const __u64 k1 = 0x9e3779b97f4a7c15ULL, k2 = 0xff51afd7ed558ccdULL;
	struct drm_hcclt_query q;
	struct drm_hcclt_task t;
	struct pair2 p;
	__u64 *d64, *s64;
	double *df, *sf;
	__u8 *d8, *s8;
	int i, bad = 0;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	if (!(q.features & HCCLT_FEATURE_REDUCE_EXT))
		SKIP(return, "driver without the 1.7 reduces");
	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	/* Rank 0 multiplies 4000 UINT64 into rank 1's buffer at 8 KiB. */
	d64 = (__u64 *)(p.buf[1].p + 8192);
	s64 = (__u64 *)p.loc[0].p;
	for (i = 0; i < 4000; i++) {
		d64[i] = k1 * (__u64)(i + 1);
		s64[i] = k2 ^ (__u64)i << 17;
	}
	t = dtask(HCCLT_TASK_WRITE_REDUCE, p.c[0], p.loc[0].handle, 0, 0, 8192,
		  4000 * 8);
	t.dtype = HCCLT_DTYPE_UINT64;
	t.reduce_op = HCCLT_REDUCE_PROD;
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(p.r[0].fd, p.r[0].thread, 10000));
	for (i = 0; i < 4000; i++)
		bad += d64[i] != k1 * (__u64)(i + 1) * (k2 ^ (__u64)i << 17);
	EXPECT_EQ(0, bad);
	/* Rank 1 takes the FP64 MAX of rank 0's buffer into its object. */
	sf = (double *)(p.buf[0].p + 64);
	df = (double *)p.loc[1].p;
	for (i = 0; i < 3000; i++) {
		sf[i] = (double)i * 0.5 - 700.0;
		df[i] = 300.0 - (double)i * 0.25;
	}
	t = dtask(HCCLT_TASK_READ_REDUCE, p.c[1], 0, 64, p.loc[1].handle, 0,
		  3000 * 8);
	t.dtype = HCCLT_DTYPE_FP64;
	t.reduce_op = HCCLT_REDUCE_MAX;
	ASSERT_EQ(0, hcclt_submit(p.r[1].fd, p.r[1].thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(p.r[1].fd, p.r[1].thread, 10000));
	for (bad = 0, i = 0; i < 3000; i++) {
		double x = (double)i * 0.5 - 700.0, y = 300.0 - (double)i * 0.25;

		bad += df[i] != (x > y ? x : y);
	}
	EXPECT_EQ(0, bad);
	/* Rank 1 writes the UINT8 MIN into rank 0's buffer, odd offsets. */
	d8 = p.buf[0].p + 100001;
	s8 = p.loc[1].p + 65539;
	for (i = 0; i < 5000; i++) {
		d8[i] = (__u8)(i * 7);
		s8[i] = (__u8)(255 - i * 3);
	}
	t = dtask(HCCLT_TASK_WRITE_REDUCE, p.c[1], p.loc[1].handle, 65539, 0,
		  100001, 5000);
	t.dtype = HCCLT_DTYPE_UINT8;
	t.reduce_op = HCCLT_REDUCE_MIN;
	ASSERT_EQ(0, hcclt_submit(p.r[1].fd, p.r[1].thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(p.r[1].fd, p.r[1].thread, 10000));
	for (bad = 0, i = 0; i < 5000; i++) {
		__u8 x = (__u8)(i * 7), y = (__u8)(255 - i * 3);

		bad += d8[i] != (y < x ? y : x);
	}
	EXPECT_EQ(0, bad);
	pair2_free(&p);
}

/* ---- registered memory (uAPI 1.12, HCCLT_FEATURE_MEMREG) ---- */

static int mreg_ex(int fd, __u64 comm, __u32 handle, __u64 off, __u64 size,
		   const char *tag, __u32 flags, __u32 pad, __u32 *id)
{
	struct drm_hcclt_mem_reg r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.comm_id = comm;
	r.handle = handle;
	r.offset = off;
	r.size = size;
	r.flags = flags;
	r.pad = pad;
	if (tag)
		memcpy(r.tag, tag, strnlen(tag, sizeof(r.tag) - 1));
	else
		memset(r.tag, 'x', sizeof(r.tag));	/* not terminated */
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_REG, &r);
	if (id)
		*id = r.reg_id;
	return ret;
}

static int mreg(int fd, __u64 comm, __u32 handle, __u64 off, __u64 size,
		const char *tag, __u32 *id)
{
	return mreg_ex(fd, comm, handle, off, size, tag, 0, 0, id);
}

static int munreg_ex(int fd, __u64 comm, __u32 id, __u32 pad)
{
	struct drm_hcclt_mem_unreg u = { .comm_id = comm, .reg_id = id, .pad = pad };

	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_UNREG, &u);
}

static int cmems_ex(int fd, __u64 comm, __u64 chan, struct drm_hcclt_remote_mem *m,
		    __u32 *count, __u32 size, __u32 flags, __u32 pad)
{
	struct drm_hcclt_channel_mems c;
	int ret;

	memset(&c, 0, sizeof(c));
	c.comm_id = comm;
	c.channel_id = chan;
	c.mems_ptr = (__u64)(uintptr_t)m;
	c.count = *count;
	c.mem_size = size;
	c.flags = flags;
	c.pad = pad;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_CHANNEL_MEMS, &c);
	*count = c.count;
	return ret;
}

static int cmems(int fd, __u64 comm, __u64 chan, struct drm_hcclt_remote_mem *m,
		 __u32 *count)
{
	return cmems_ex(fd, comm, chan, m, count, sizeof(*m), 0, 0);
}

static int has_memreg(int fd)
{
	struct drm_hcclt_query q;

	return !hcclt_query(fd, &q) && (q.features & HCCLT_FEATURE_MEMREG) &&
	       q.uapi_minor >= 12;
}

/* Every validation of MEM_REG and MEM_UNREG, in the order documented. */
TEST_F(data, memreg_checks)
{
	char tag[HCCLT_MEMREG_TAG_LEN];
	__u32 id, id2, i, ids[HCCLT_MAX_MEMREGS];
	__u64 other;

	if (!has_memreg(self->fd))
		SKIP(return, "driver without registered memory");
	EXPECT_EQ(-EINVAL, mreg_ex(self->fd, self->comm, self->a.handle, 0, 8, "t", 1, 0, NULL));
	EXPECT_EQ(-EINVAL, mreg_ex(self->fd, self->comm, self->a.handle, 0, 8, "t", 0, 1, NULL));
	EXPECT_EQ(-EINVAL, mreg(self->fd, self->comm, self->a.handle, 0, 0, "t", NULL));
	EXPECT_EQ(-EINVAL, mreg(self->fd, self->comm, self->a.handle, 0, 8, "", NULL));
	EXPECT_EQ(-EINVAL, mreg(self->fd, self->comm, self->a.handle, 0, 8, NULL, NULL));
	EXPECT_EQ(-ENOENT, mreg(self->fd, self->comm + 1, self->a.handle, 0, 8, "t", NULL));
	EXPECT_EQ(-ENOENT, mreg(self->fd, self->comm, self->a.handle + 100, 0, 8, "t", NULL));
	EXPECT_EQ(-ERANGE, mreg(self->fd, self->comm, self->a.handle, MIB + 1, 0 + 1, "t", NULL));
	EXPECT_EQ(-ERANGE, mreg(self->fd, self->comm, self->a.handle, 1, MIB, "t", NULL));
	EXPECT_EQ(-ERANGE, mreg(self->fd, self->comm, self->a.handle, 8, ~0ULL - 4, "t", NULL));
	/* The last byte, and the whole object: fine; a tag at its longest. */
	memset(tag, 'a', sizeof(tag) - 1);
	tag[sizeof(tag) - 1] = 0;
	ASSERT_EQ(0, mreg(self->fd, self->comm, self->a.handle, MIB - 1, 1, tag, &id));
	EXPECT_NE(0, id);
	ASSERT_EQ(0, mreg(self->fd, self->comm, self->a.handle, 0, MIB, "whole", &id2));
	EXPECT_NE(id, id2);
	EXPECT_EQ(-EEXIST, mreg(self->fd, self->comm, self->b.handle, 0, 8, "whole", NULL));
	/* Another communicator has its own tags. */
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &other));
	EXPECT_EQ(0, mreg(self->fd, other, self->b.handle, 0, 8, "whole", NULL));
	/* Unregistration. */
	EXPECT_EQ(-EINVAL, munreg_ex(self->fd, self->comm, id, 1));
	EXPECT_EQ(-ENOENT, munreg_ex(self->fd, self->comm + 1, id, 0));
	EXPECT_EQ(-ENOENT, munreg_ex(self->fd, other, id2 + 1000, 0));
	EXPECT_EQ(-ENOENT, munreg_ex(self->fd, self->comm, 0, 0));
	EXPECT_EQ(0, munreg_ex(self->fd, self->comm, id, 0));
	EXPECT_EQ(-ENOENT, munreg_ex(self->fd, self->comm, id, 0));
	/* The tag is free again. */
	EXPECT_EQ(0, mreg(self->fd, self->comm, self->b.handle, 0, 8, tag, &id));
	EXPECT_EQ(0, munreg_ex(self->fd, self->comm, id, 0));
	EXPECT_EQ(0, munreg_ex(self->fd, self->comm, id2, 0));
	/* At most HCCLT_MAX_MEMREGS at a time. */
	for (i = 0; i < HCCLT_MAX_MEMREGS; i++) {
		snprintf(tag, sizeof(tag), "r%u", i);
		ASSERT_EQ(0, mreg(self->fd, self->comm, self->a.handle, i, 1, tag, &ids[i]));
	}
	EXPECT_EQ(-ENOSPC, mreg(self->fd, self->comm, self->a.handle, 0, 1, "more", NULL));
	EXPECT_EQ(0, munreg_ex(self->fd, self->comm, ids[7], 0));
	EXPECT_EQ(0, mreg(self->fd, self->comm, self->a.handle, 0, 1, "more", NULL));
	/* A destroyed communicator takes its ranges (and their objects') with it. */
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, other));
}

/* Two ranks: rank 1 registers part of an object of its own. */
struct regpair {
	struct pair2 p;
	struct obj mem;		/* rank 1's object, part of it registered */
	__u32 id;
};

#define REG_OFF		4096
#define REG_LEN		(64 * 1024 + 3)

static int regpair_setup(int fd0, struct regpair *rp)
{
	int ret;

	memset(rp, 0, sizeof(*rp));
	ret = pair2_setup(fd0, &rp->p, 2 * MIB);
	if (!ret)
		ret = obj_new(rp->p.r[1].fd, MIB, &rp->mem);
	if (!ret)
		ret = mreg(rp->p.r[1].fd, rp->p.r[1].comm, rp->mem.handle, REG_OFF, REG_LEN,
			   "zc-out", &rp->id);
	return ret;
}

static void regpair_free(struct regpair *rp)
{
	if (rp->p.r[1].fd >= 0)
		obj_free(rp->p.r[1].fd, &rp->mem);
	pair2_free(&rp->p);
}

/*
 * CHANNEL_MEMS lists the peer's ranges; writes and reads into one are
 * checked against the range (not the object): its first and last byte,
 * one past either end refused; the bytes land at the range's offset.
 */
TEST_F(data, memreg_write_read)
{
	struct drm_hcclt_remote_mem m[4];
	struct drm_hcclt_task t;
	struct regpair rp;
	__u32 n;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	if (!has_memreg(self->fd))
		SKIP(return, "driver without registered memory");
	ASSERT_EQ(0, regpair_setup(self->fd, &rp));
	struct pair2 *p = &rp.p;

	/* The list and its checks. */
	n = 4;
	ASSERT_EQ(0, cmems(p->r[0].fd, p->r[0].comm, p->c[0], m, &n));
	ASSERT_EQ(1, n);
	EXPECT_EQ(rp.id, m[0].reg_id);
	EXPECT_EQ(REG_LEN, m[0].size);
	EXPECT_STREQ("zc-out", m[0].tag);
	n = 0;
	EXPECT_EQ(0, cmems(p->r[0].fd, p->r[0].comm, p->c[0], NULL, &n));
	EXPECT_EQ(1, n);
	n = 4;
	EXPECT_EQ(0, cmems(p->r[1].fd, p->r[1].comm, p->c[1], m, &n));
	EXPECT_EQ(0, n);	/* rank 0 registered nothing */
	n = 4;
	EXPECT_EQ(-EINVAL, cmems_ex(p->r[0].fd, p->r[0].comm, p->c[0], m, &n, sizeof(m[0]), 1, 0));
	EXPECT_EQ(-EINVAL, cmems_ex(p->r[0].fd, p->r[0].comm, p->c[0], m, &n, sizeof(m[0]), 0, 1));
	EXPECT_EQ(-EINVAL, cmems_ex(p->r[0].fd, p->r[0].comm, p->c[0], m, &n, 8, 0, 0));
	EXPECT_EQ(-ENOENT, cmems(p->r[0].fd, p->r[0].comm + 1, p->c[0], m, &n));
	EXPECT_EQ(-ENOENT, cmems(p->r[0].fd, p->r[0].comm, p->c[0] + 1, m, &n));
	n = 4;
	EXPECT_EQ(-EFAULT, cmems(p->r[0].fd, p->r[0].comm, p->c[0],
				 (struct drm_hcclt_remote_mem *)8, &n));

	/* A write of the whole range, then at its edges. */
	fill(p->loc[0].p, REG_LEN, 61);
	memset(rp.mem.p, 0xee, MIB);
	t = dtask(HCCLT_TASK_WRITE, p->c[0], p->loc[0].handle, 0, rp.id, 0, REG_LEN);
	ASSERT_EQ(0, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(p->r[0].fd, p->r[0].thread, 10000));
	EXPECT_EQ(-1, check(rp.mem.p + REG_OFF, REG_LEN, 61));
	EXPECT_EQ(0xee, rp.mem.p[REG_OFF - 1]);
	EXPECT_EQ(0xee, rp.mem.p[REG_OFF + REG_LEN]);
	t = dtask(HCCLT_TASK_WRITE, p->c[0], p->loc[0].handle, 0, rp.id, REG_LEN - 1, 1);
	EXPECT_EQ(0, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	t.len = 2;
	EXPECT_EQ(-ERANGE, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	t.dst_offset = REG_LEN;
	t.len = 1;
	EXPECT_EQ(-ERANGE, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	t.dst_offset = ~0ULL;
	EXPECT_EQ(-ERANGE, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	/* A reduce into it, and a read from it. */
	t = dtask(HCCLT_TASK_WRITE_REDUCE, p->c[0], p->loc[0].handle, 0, rp.id, 4, 4);
	t.dtype = HCCLT_DTYPE_INT8;
	t.reduce_op = HCCLT_REDUCE_MAX;
	EXPECT_EQ(0, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	fill(rp.mem.p + REG_OFF, REG_LEN, 62);
	ASSERT_EQ(0, hcclt_sync(p->r[0].fd, p->r[0].thread, 10000));
	fill(rp.mem.p + REG_OFF, REG_LEN, 62);
	t = dtask(HCCLT_TASK_READ, p->c[0], rp.id, 0, p->loc[0].handle, 1, REG_LEN);
	ASSERT_EQ(0, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	ASSERT_EQ(0, hcclt_sync(p->r[0].fd, p->r[0].thread, 10000));
	EXPECT_EQ(-1, check(p->loc[0].p + 1, REG_LEN, 62));
	t = dtask(HCCLT_TASK_READ, p->c[0], rp.id, 1, p->loc[0].handle, 0, REG_LEN);
	EXPECT_EQ(-ERANGE, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	/* An id the peer never gave: as a gone peer. */
	t = dtask(HCCLT_TASK_WRITE, p->c[0], p->loc[0].handle, 0, rp.id + 1, 0, 1);
	EXPECT_EQ(-ECONNRESET, hcclt_submit(p->r[0].fd, p->r[0].thread, &t, 1));
	/* Rank 1's own range is not reachable from rank 1 over the channel. */
	n = 4;
	EXPECT_EQ(0, cmems(p->r[1].fd, p->r[1].comm, p->c[1], m, &n));
	EXPECT_EQ(0, n);
	regpair_free(&rp);
}

/*
 * Unregistration revokes: a new task is refused, and a queued one fails
 * with -ECONNRESET without touching the range, while the object stays
 * rank 1's. The peer's communicator destroyed and its file closed: the
 * same, and CHANNEL_MEMS says the peer is gone.
 */
TEST_F(data, memreg_revoked)
{
	struct drm_hcclt_remote_mem m[2];
	struct drm_hcclt_task t[2];
	struct regpair rp;
	int round;
	__u64 th;
	__u32 n;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	if (!has_memreg(self->fd))
		SKIP(return, "driver without registered memory");
	for (round = 0; round < 3; round++) {
		ASSERT_EQ(0, regpair_setup(self->fd, &rp));
		struct pair2 *p = &rp.p;

		ASSERT_EQ(0, hcclt_acquire(p->r[0].fd, p->r[0].comm, HCCLT_ENGINE_CPU,
					   1, 1, &th));
		fill(p->loc[0].p, REG_LEN, 70);
		fill(rp.mem.p, MIB, 71);
		/* Queued behind a wait, then the range goes. */
		t[0] = hcclt_wait(0, 0);
		t[1] = dtask(HCCLT_TASK_WRITE, p->c[0], p->loc[0].handle, 0, rp.id, 0,
			     REG_LEN);
		ASSERT_EQ(0, hcclt_submit(p->r[0].fd, th, t, 2));
		if (round == 0) {
			ASSERT_EQ(0, munreg_ex(p->r[1].fd, p->r[1].comm, rp.id, 0));
		} else if (round == 1) {
			ASSERT_EQ(0, hcclt_comm_destroy(p->r[1].fd, p->r[1].comm));
		} else {
			/* As its process dying: no mapping keeps the file. */
			munmap(rp.mem.p, rp.mem.size);
			memset(&rp.mem, 0, sizeof(rp.mem));
			munmap(p->buf[1].p, p->buf[1].size);
			munmap(p->loc[1].p, p->loc[1].size);
			memset(&p->buf[1], 0, sizeof(p->buf[1]));
			memset(&p->loc[1], 0, sizeof(p->loc[1]));
			ASSERT_EQ(0, close(p->r[1].fd));
			p->r[1].fd = -1;
		}
		t[0] = hcclt_rec(th, 0);
		ASSERT_EQ(0, hcclt_submit(p->r[0].fd, p->r[0].thread, t, 1));
		EXPECT_EQ(-ECONNRESET, hcclt_sync(p->r[0].fd, th, 30000)) TH_LOG("round %d", round);
		if (rp.mem.p)
			EXPECT_EQ(-1, check(rp.mem.p, MIB, 71)) TH_LOG("round %d", round);
		t[0] = dtask(HCCLT_TASK_WRITE, p->c[0], p->loc[0].handle, 0, rp.id, 0, 1);
		EXPECT_EQ(-ECONNRESET, hcclt_submit(p->r[0].fd, p->r[0].thread, t, 1));
		n = 2;
		if (round == 0) {
			EXPECT_EQ(0, cmems(p->r[0].fd, p->r[0].comm, p->c[0], m, &n));
			EXPECT_EQ(0, n);
		} else {
			EXPECT_EQ(-ECONNRESET, cmems(p->r[0].fd, p->r[0].comm, p->c[0], m, &n));
		}
		regpair_free(&rp);
	}
}

/*
 * Writes into a range rank 1 registered, running when rank 1 unregisters
 * it: as peer_gone_stops_running_write for an HCCL buffer, the running
 * one stops within a chunk, the queued ones never start (-ECONNRESET),
 * and nothing reaches the range after MEM_UNREG returned, while rank 1
 * keeps its object.
 */
TEST_F_TIMEOUT(data, memreg_unreg_stops_running_write, 300)
{
	struct drm_hcclt_task t[NRW];
	struct obj alt = {0}, mem = {0};
	struct pair2 p;
	long long c0, c1, cd;
	__u32 id;
	__u8 *snap;
	int i;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	if (!has_memreg(self->fd))
		SKIP(return, "driver without registered memory");
	ENGINE_CHUNKS(c0);
	snap = malloc(RBUF);
	ASSERT_NE(NULL, snap);
	ASSERT_EQ(0, pair2_setup(self->fd, &p, 2 * MIB));
	ASSERT_EQ(0, obj_new(p.r[0].fd, RBUF, &alt));
	obj_free(p.r[0].fd, &p.loc[0]);
	ASSERT_EQ(0, obj_new(p.r[0].fd, RBUF, &p.loc[0]));
	ASSERT_EQ(0, obj_new(p.r[1].fd, RBUF + MIB, &mem));
	ASSERT_EQ(0, mreg(p.r[1].fd, p.r[1].comm, mem.handle, MIB, RBUF, "big", &id));
	fill(p.loc[0].p, RBUF, 1);
	fill(alt.p, RBUF, 2);
	for (i = 0; i < NRW; i++)
		t[i] = dtask(HCCLT_TASK_WRITE, p.c[0],
			     i % 2 ? alt.handle : p.loc[0].handle, 0, id, 0, RBUF);
	ASSERT_EQ(0, hcclt_submit(p.r[0].fd, p.r[0].thread, t, NRW));
	ASSERT_LT(c0, engine_wait_started(c0));

	ASSERT_EQ(0, munreg_ex(p.r[1].fd, p.r[1].comm, id, 0));
	memcpy(snap, mem.p + MIB, RBUF);
	ENGINE_CHUNKS(cd);
	EXPECT_EQ(cd - c0 < NRW * (RBUF / MIB) ? -ECONNRESET : 0,
		  hcclt_sync(p.r[0].fd, p.r[0].thread, 120000));
	c1 = engine_wait_idle();
	ASSERT_LE(c0, c1);
	TH_LOG("%lld of %d chunks ran", c1 - c0, NRW * (int)(RBUF / MIB));
	EXPECT_EQ(0, memcmp(snap, mem.p + MIB, RBUF));
	/* Rank 1's object is its own: it still writes and reads it. */
	mem.p[0] = 0x5a;
	EXPECT_EQ(0x5a, mem.p[0]);
	obj_free(p.r[1].fd, &mem);
	obj_free(p.r[0].fd, &alt);
	pair2_free(&p);
	free(snap);
}

/*
 * Rank 1's process registers a range and dies (SIGKILL): rank 0's write
 * into it, queued behind a wait, fails with -ECONNRESET, and a new one
 * is refused, once the dead process's file is released (bounded wait).
 */
TEST_F_TIMEOUT(data, memreg_peer_death, 120)
{
	struct drm_hcclt_group_create g;
	struct drm_hcclt_remote_mem m[2];
	struct rank r = { .dev = 0, .rank = 0, .nranks = 2 };
	struct drm_hcclt_task t[2];
	struct obj src = {0};
	int sync[2], st, ret;
	long long end;
	static __u64 ch;	/* static: kept across the harness's setjmp() */
	__u64 th;
	__u32 n = 2;
	pid_t pid;
	char c;

	if (ndevs < 2)
		SKIP(return, "needs 2 devices");
	if (!has_memreg(self->fd))
		SKIP(return, "driver without registered memory");
	memset(&g, 0, sizeof(g));
	ASSERT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g));
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct rank r1 = { .key = g.key, .dev = 1, .rank = 1,
				   .nranks = 2 };
		struct obj buf = {0};
		__u64 ch1;

		close(sync[0]);
		if (rank_join(&r1) ||
		    chan_acquire1(r1.fd, r1.comm, HCCLT_ENGINE_CPU, 0, 1,
				  now_ns() + 20000000000LL, &ch1) ||
		    obj_new(r1.fd, MIB, &buf) ||
		    mreg(r1.fd, r1.comm, buf.handle, 0, MIB, "dies", NULL))
			_exit(1);
		if (write(sync[1], "x", 1) != 1)
			_exit(2);
		pause();
		_exit(0);
	}
	close(sync[1]);
	r.key = g.key;
	ret = rank_join(&r);
	if (!ret)
		ret = chan_acquire1(r.fd, r.comm, HCCLT_ENGINE_CPU, 1, 1,
				    now_ns() + 20000000000LL, &ch);
	if (!ret)
		ret = read(sync[0], &c, 1) == 1 ? 0 : -EPIPE;
	if (!ret)
		ret = cmems(r.fd, r.comm, ch, m, &n);
	if (!ret)
		ret = n == 1 ? 0 : -ENOENT;
	if (!ret)
		ret = obj_new(r.fd, MIB, &src);
	if (!ret)
		ret = hcclt_acquire(r.fd, r.comm, HCCLT_ENGINE_CPU, 1, 1, &th);
	if (!ret) {
		t[0] = hcclt_wait(0, 0);
		t[1] = dtask(HCCLT_TASK_WRITE, ch, src.handle, 0, m[0].reg_id, 0, MIB);
		ret = hcclt_submit(r.fd, th, t, 2);
	}
	EXPECT_EQ(0, ret);
	kill(pid, SIGKILL);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFSIGNALED(st));
	close(sync[0]);
	ASSERT_EQ(0, ret);

	/* The file goes soon after the process: until then, the range is live. */
	t[1] = dtask(HCCLT_TASK_WRITE, ch, src.handle, 0, m[0].reg_id, 0, 1);
	end = hcclt_wait_end(10000);
	while ((ret = hcclt_submit(r.fd, r.thread, &t[1], 1)) == 0 &&
	       hcclt_now_ms() < end)
		hcclt_msleep(5);
	EXPECT_EQ(-ECONNRESET, ret);
	n = 2;
	EXPECT_EQ(-ECONNRESET, cmems(r.fd, r.comm, ch, m, &n));
	t[0] = hcclt_rec(th, 0);
	ASSERT_EQ(0, hcclt_submit(r.fd, r.thread, t, 1));
	EXPECT_EQ(-ECONNRESET, hcclt_sync(r.fd, th, 30000));
	hcclt_sync(r.fd, r.thread, 30000);
	obj_free(r.fd, &src);
	close(r.fd);
}

TEST_HARNESS_MAIN
