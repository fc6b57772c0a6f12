// SPDX-License-Identifier: GPL-2.0
/*
 * hcclthread fdinfo selftests: /proc/<pid>/fdinfo/<fd> of the device read
 * the way Documentation/gpu/drm-usage-stats.rst tells a client to read it
 * (one "key: value" per line, keys without whitespace, whitespace after
 * the colon ignored, numbers with their unit), of this process and of a
 * child: the driver name, one client id per open file (the same through
 * dup() and fork()), the engine busy time that grows while a stream has
 * work and stops when it has none, the device memory the file's handles
 * name (total and resident), and the driver's object counts.
 *
 * Written against uapi/drm/hcclthread_accel.h and the fdinfo keys of
 * Documentation/uapi.rst only.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <inttypes.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

#define FI_MAX_KEYS	64

struct fdinfo {
	int n;
	char key[FI_MAX_KEYS][64];
	char val[FI_MAX_KEYS][128];
};

/* The engines with threads, by enum drm_hcclt_engine, and their keys. */
static const char *const engine_key[HCCLT_ENGINE_COUNT] = {
	[HCCLT_ENGINE_CPU] = "drm-engine-cpu",
	[HCCLT_ENGINE_CPU_TS] = "drm-engine-cpu_ts",
	[HCCLT_ENGINE_AICPU] = "drm-engine-aicpu",
	[HCCLT_ENGINE_AICPU_TS] = "drm-engine-aicpu_ts",
	[HCCLT_ENGINE_CCU] = "drm-engine-ccu",
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Read and split /proc/@pid/fdinfo/@fd. Returns 0, or -1 with a message
 * if a line breaks the file format of drm-usage-stats.rst.
 */
static int fdinfo_read(pid_t pid, int fd, struct fdinfo *fi)
{
	char path[64], line[256];
	FILE *f;
	int ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", (int)pid, fd);
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "# %s: %s\n", path, strerror(errno));
		return -1;
	}
	fi->n = 0;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *v, *k;
		size_t len = strlen(line);

		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (!colon || colon == line || fi->n == FI_MAX_KEYS) {
			fprintf(stderr, "# %s: bad line '%s'\n", path, line);
			ret = -1;
			break;
		}
		*colon = '\0';
		for (k = line; *k; k++) {
			if (isspace((unsigned char)*k)) {
				fprintf(stderr, "# %s: whitespace in key '%s'\n",
					path, line);
				ret = -1;
			}
		}
		for (v = colon + 1; *v == ' ' || *v == '\t'; v++)
			;
		snprintf(fi->key[fi->n], sizeof(fi->key[0]), "%s", line);
		snprintf(fi->val[fi->n], sizeof(fi->val[0]), "%s", v);
		fi->n++;
	}
	fclose(f);
	return ret;
}

/* The value of @key, NULL if absent (or -1 in *@count times seen). */
static const char *fdinfo_get(const struct fdinfo *fi, const char *key,
			      int *count)
{
	const char *v = NULL;
	int i, c = 0;

	for (i = 0; i < fi->n; i++) {
		if (!strcmp(fi->key[i], key)) {
			v = fi->val[i];
			c++;
		}
	}
	if (count)
		*count = c;
	return v;
}

/*
 * The <uint> value of @key with @unit (NULL: none): "123" or "123 ns".
 * Returns 0, or -1 if the key is absent, repeated or malformed.
 */
static int fdinfo_uint(const struct fdinfo *fi, const char *key,
		       const char *unit, __u64 *out)
{
	const char *v;
	char *end;
	int count;

	v = fdinfo_get(fi, key, &count);
	if (!v || count != 1 || !isdigit((unsigned char)*v)) {
		fprintf(stderr, "# %s: %s\n", key, v ? v : "(absent)");
		return -1;
	}
	errno = 0;
	*out = strtoull(v, &end, 10);
	if (errno)
		return -1;
	if (unit) {
		if (*end != ' ' || strcmp(end + 1, unit)) {
			fprintf(stderr, "# %s: '%s' not in %s\n", key, v, unit);
			return -1;
		}
	} else if (*end) {
		fprintf(stderr, "# %s: '%s' not a bare number\n", key, v);
		return -1;
	}
	return 0;
}

/*
 * A memory key of @fi in bytes: "<uint>", "<uint> KiB" or "<uint> MiB".
 * Returns 0, or -1 if absent, repeated or malformed.
 */
static int fdinfo_bytes(const struct fdinfo *fi, const char *key, __u64 *out)
{
	const char *v;
	char *end;
	int count;

	v = fdinfo_get(fi, key, &count);
	if (!v || count != 1 || !isdigit((unsigned char)*v)) {
		fprintf(stderr, "# %s: %s\n", key, v ? v : "(absent)");
		return -1;
	}
	errno = 0;
	*out = strtoull(v, &end, 10);
	if (errno)
		return -1;
	if (!strcmp(end, " KiB")) {
		*out <<= 10;
	} else if (!strcmp(end, " MiB")) {
		*out <<= 20;
	} else if (*end) {
		fprintf(stderr, "# %s: '%s' has no known unit\n", key, v);
		return -1;
	}
	return 0;
}

struct memkeys {
	__u64 total, resident;
};

static int read_mem(pid_t pid, int fd, struct memkeys *m)
{
	struct fdinfo fi;

	if (fdinfo_read(pid, fd, &fi))
		return -1;
	if (fdinfo_bytes(&fi, "drm-total-memory", &m->total) ||
	    fdinfo_bytes(&fi, "drm-resident-memory", &m->resident))
		return -1;
	return 0;
}

#define ASSERT_MEM(pid, fd, t, r) do {					\
	struct memkeys _m;						\
	ASSERT_EQ(0, read_mem(pid, fd, &_m));				\
	EXPECT_EQ(t, _m.total);						\
	EXPECT_EQ(r, _m.resident);					\
} while (0)

/* Busy ns of every engine with threads (0 for AIV). */
static int read_busy(pid_t pid, int fd, __u64 busy[HCCLT_ENGINE_COUNT])
{
	struct fdinfo fi;
	int e;

	if (fdinfo_read(pid, fd, &fi))
		return -1;
	for (e = 0; e < HCCLT_ENGINE_COUNT; e++) {
		busy[e] = 0;
		if (engine_key[e] && fdinfo_uint(&fi, engine_key[e], "ns",
						 &busy[e]))
			return -1;
	}
	return 0;
}

static int read_id(pid_t pid, int fd, __u64 *id)
{
	struct fdinfo fi;

	if (fdinfo_read(pid, fd, &fi))
		return -1;
	return fdinfo_uint(&fi, "drm-client-id", NULL, id);
}

struct counts {
	__u64 threads, streams, notifies;
};

static int read_counts(pid_t pid, int fd, struct counts *c)
{
	struct fdinfo fi;

	if (fdinfo_read(pid, fd, &fi))
		return -1;
	if (fdinfo_uint(&fi, "hcclthread-threads", NULL, &c->threads) ||
	    fdinfo_uint(&fi, "hcclthread-streams", NULL, &c->streams) ||
	    fdinfo_uint(&fi, "hcclthread-notifies", NULL, &c->notifies))
		return -1;
	return 0;
}

#define ASSERT_COUNTS(pid, fd, t, s, n) do {				\
	struct counts _c;						\
	ASSERT_EQ(0, read_counts(pid, fd, &_c));			\
	EXPECT_EQ(t, _c.threads);					\
	EXPECT_EQ(s, _c.streams);					\
	EXPECT_EQ(n, _c.notifies);					\
} while (0)

/*
 * The pool units the device has in use beyond @q0 are the file's (the
 * test is the device's only user).
 */
#define ASSERT_POOLS(fd, q0) do {					\
	const struct drm_hcclt_query *_q0 = (q0);			\
	struct drm_hcclt_query _q;					\
	struct counts _c;						\
	int _fd = (fd);							\
	ASSERT_EQ(0, hcclt_query(_fd, &_q));				\
	ASSERT_EQ(0, read_counts(getpid(), _fd, &_c));			\
	EXPECT_EQ(_q.streams_used - _q0->streams_used, _c.streams);	\
	EXPECT_EQ(_q.notifies_used - _q0->notifies_used, _c.notifies);	\
} while (0)

/* The keys, their types and units, on a fresh file. */
TEST(keys)
{
	static const char *const generic[] = { "pos", "flags", "mnt_id",
					       "ino" };
	struct fdinfo fi;
	const char *v;
	__u64 x;
	int fd, i, e, count;
	unsigned int g;

	fd = hcclt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, fdinfo_read(getpid(), fd, &fi));

	v = fdinfo_get(&fi, "drm-driver", &count);
	ASSERT_NE(NULL, v);
	EXPECT_EQ(1, count);
	EXPECT_STREQ(HCCLT_DRIVER_NAME, v);
	EXPECT_EQ(0, fdinfo_uint(&fi, "drm-client-id", NULL, &x));
	for (e = 0; e < HCCLT_ENGINE_COUNT; e++) {
		if (!engine_key[e])
			continue;
		EXPECT_EQ(0, fdinfo_uint(&fi, engine_key[e], "ns", &x));
		EXPECT_EQ(0, x);
	}
	EXPECT_EQ(0, fdinfo_uint(&fi, "hcclthread-threads", NULL, &x));
	EXPECT_EQ(0, x);
	EXPECT_EQ(0, fdinfo_uint(&fi, "hcclthread-streams", NULL, &x));
	EXPECT_EQ(0, x);
	EXPECT_EQ(0, fdinfo_uint(&fi, "hcclthread-notifies", NULL, &x));
	EXPECT_EQ(0, x);
	EXPECT_EQ(0, fdinfo_bytes(&fi, "drm-total-memory", &x));
	EXPECT_EQ(0, x);
	EXPECT_EQ(0, fdinfo_bytes(&fi, "drm-resident-memory", &x));
	EXPECT_EQ(0, x);

	/*
	 * The VFS's keys are there, no other drm- or hcclthread- key: no
	 * engine without threads (AIV), no cycles, capacity or PCI keys
	 * (Documentation/uapi.rst says why).
	 */
	for (g = 0; g < HCCLT_ARRAY_SIZE(generic); g++)
		EXPECT_NE(NULL, fdinfo_get(&fi, generic[g], NULL));
	for (i = 0; i < fi.n; i++) {
		const char *k = fi.key[i];
		int known = strncmp(k, "drm-", 4) && strncmp(k, "hcclthread-", 11);

		if (!strcmp(k, "drm-driver") || !strcmp(k, "drm-client-id") ||
		    !strcmp(k, "drm-total-memory") ||
		    !strcmp(k, "drm-resident-memory"))
			known = 1;
		for (e = 0; e < HCCLT_ENGINE_COUNT; e++)
			if (engine_key[e] && !strcmp(k, engine_key[e]))
				known = 1;
		if (!strncmp(k, "hcclthread-", 11))
			known = !strcmp(k, "hcclthread-threads") ||
				!strcmp(k, "hcclthread-streams") ||
				!strcmp(k, "hcclthread-notifies");
		if (!known)
			fprintf(stderr, "# unexpected key '%s'\n", k);
		EXPECT_TRUE(known);
	}
	close(fd);
}

/* One client id per open file: the same through dup(), not across open(). */
TEST(client_id)
{
	__u64 id1, id2, id3, again;
	int fd1, fd2, fd3;

	fd1 = hcclt_open();
	ASSERT_LE(0, fd1);
	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	fd3 = dup(fd1);
	ASSERT_LE(0, fd3);
	ASSERT_EQ(0, read_id(getpid(), fd1, &id1));
	ASSERT_EQ(0, read_id(getpid(), fd2, &id2));
	ASSERT_EQ(0, read_id(getpid(), fd3, &id3));
	EXPECT_NE(id1, id2);
	EXPECT_EQ(id1, id3);
	/* Stable for the life of the file. */
	ASSERT_EQ(0, read_id(getpid(), fd1, &again));
	EXPECT_EQ(id1, again);
	close(fd3);
	close(fd2);
	/* A file opened after another was closed gets a new id. */
	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, read_id(getpid(), fd2, &again));
	EXPECT_NE(id1, again);
	EXPECT_NE(id2, again);
	close(fd2);
	close(fd1);
}

/* Object counts follow acquire, export, wrap and destroy. */
TEST(counts)
{
	__u64 comm, th[2], views[2], s, w;
	struct drm_hcclt_query q0;
	pid_t me = getpid();
	int fd;

	fd = hcclt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, hcclt_query(fd, &q0));
	ASSERT_EQ(0, hcclt_comm_create(fd, &comm));
	ASSERT_COUNTS(me, fd, 0, 0, 0);
	ASSERT_EQ(0, hcclt_acquire(fd, comm, HCCLT_ENGINE_AICPU, 2, 3, th));
	ASSERT_COUNTS(me, fd, 2, 2, 6);
	/* A refused acquire changes nothing. */
	ASSERT_EQ(-EDQUOT, hcclt_acquire(fd, comm, HCCLT_ENGINE_AICPU, 1, 64,
					 th));
	ASSERT_COUNTS(me, fd, 2, 2, 6);
	ASSERT_POOLS(fd, &q0);
	/* Views are not threads of their own. */
	ASSERT_EQ(0, hcclt_export(fd, comm, HCCLT_ENGINE_CPU_TS, 2, th, views));
	ASSERT_COUNTS(me, fd, 2, 2, 6);
	ASSERT_EQ(0, hcclt_stream_create(fd, &s));
	ASSERT_COUNTS(me, fd, 2, 3, 6);
	ASSERT_EQ(0, hcclt_acquire_ws(fd, comm, s, HCCLT_ENGINE_CPU, 2, &w));
	ASSERT_COUNTS(me, fd, 3, 3, 8);
	/* Wrapping again grows the thread's notifies. */
	ASSERT_EQ(0, hcclt_acquire_ws(fd, comm, s, HCCLT_ENGINE_CPU, 4, &w));
	ASSERT_COUNTS(me, fd, 3, 3, 10);
	ASSERT_POOLS(fd, &q0);
	ASSERT_EQ(0, hcclt_comm_destroy(fd, comm));
	ASSERT_COUNTS(me, fd, 0, 1, 0);
	ASSERT_POOLS(fd, &q0);
	ASSERT_EQ(0, hcclt_stream_destroy(fd, s));
	ASSERT_COUNTS(me, fd, 0, 0, 0);
	close(fd);
}

static int mem_create(int fd, __u64 size, struct drm_hcclt_mem_create *m)
{
	memset(m, 0, sizeof(*m));
	m->size = size;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, m);
}

static int gem_close(int fd, __u32 handle)
{
	struct drm_gem_close c;

	memset(&c, 0, sizeof(c));
	c.handle = handle;
	return hcclt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

/*
 * Device memory: the total of the objects the file has handles to grows
 * by an object's (page-rounded) size at MEM_CREATE; the resident size once
 * its pages exist (mapped and touched); both drop when the handle goes,
 * even while a mapping keeps the object. Other files do not see it.
 */
TEST(memory)
{
	const __u64 a_size = (3ULL << 20) + 4096, b_size = 8192;
	struct drm_hcclt_mem_create a, b;
	pid_t me = getpid();
	int fd, other;
	__u64 i;
	char *p;

	fd = hcclt_open();
	ASSERT_LE(0, fd);
	other = hcclt_open();
	ASSERT_LE(0, other);
	ASSERT_MEM(me, fd, 0, 0);

	/* A size that is not a whole page counts rounded up. */
	ASSERT_EQ(0, mem_create(fd, a_size - 100, &a));
	ASSERT_EQ(a_size, a.size);
	ASSERT_MEM(me, fd, a_size, 0);
	ASSERT_EQ(0, mem_create(fd, b_size, &b));
	ASSERT_MEM(me, fd, a_size + b_size, 0);
	ASSERT_MEM(me, other, 0, 0);

	p = mmap(NULL, a_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)a.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < a_size; i += 4096)
		p[i] = (char)i;
	ASSERT_MEM(me, fd, a_size + b_size, a_size);
	ASSERT_MEM(me, other, 0, 0);

	/* The handle goes, the mapping stays: no longer the file's. */
	ASSERT_EQ(0, gem_close(fd, a.handle));
	ASSERT_MEM(me, fd, b_size, 0);
	ASSERT_EQ(0, munmap(p, a_size));
	ASSERT_MEM(me, fd, b_size, 0);

	/* Mapped, then unmapped with the handle kept: pages go at munmap. */
	p = mmap(NULL, b_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)b.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 1;
	ASSERT_MEM(me, fd, b_size, b_size);
	ASSERT_EQ(0, munmap(p, b_size));
	ASSERT_MEM(me, fd, b_size, 0);
	ASSERT_EQ(0, gem_close(fd, b.handle));
	ASSERT_MEM(me, fd, 0, 0);
	close(other);
	close(fd);
}

/*
 * An HCCL buffer (COMM_BUFFER) counts like any object while the file has
 * a handle of it; the communicator's own reference is not the file's.
 */
TEST(memory_comm_buffer)
{
	struct drm_hcclt_comm_buffer cb;
	pid_t me = getpid();
	__u64 comm;
	char *p;
	int fd;

	fd = hcclt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, hcclt_comm_create(fd, &comm));
	memset(&cb, 0, sizeof(cb));
	cb.comm_id = comm;
	cb.size = 5 * 4096;
	ASSERT_EQ(0, hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_BUFFER, &cb));
	ASSERT_MEM(me, fd, 5 * 4096, 0);
	p = mmap(NULL, cb.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 (off_t)cb.mmap_offset);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 1;
	ASSERT_MEM(me, fd, 5 * 4096, 5 * 4096);
	ASSERT_EQ(0, munmap(p, cb.size));
	ASSERT_EQ(0, gem_close(fd, cb.handle));
	ASSERT_MEM(me, fd, 0, 0);
	ASSERT_EQ(0, hcclt_comm_destroy(fd, comm));
	close(fd);
}

FIXTURE(busy) {
	int fd, other;
	__u64 comm, th[3], s;
};

FIXTURE_SETUP(busy)
{
	self->fd = hcclt_open();
	ASSERT_LE(0, self->fd);
	self->other = hcclt_open();
	ASSERT_LE(0, self->other);
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_AICPU,
				   3, 1, self->th));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &self->s));
}

FIXTURE_TEARDOWN(busy)
{
	close(self->other);
	close(self->fd);
}

static void expect_idle_engines(struct __test_metadata *_metadata,
				const __u64 *busy, int except)
{
	int e;

	for (e = 0; e < HCCLT_ENGINE_COUNT; e++)
		if (e != except)
			EXPECT_EQ(0, busy[e]);
}

/*
 * A parked wait keeps its engine busy: the time grows by at least the
 * time slept between two reads; once the wait is released and the stream
 * is empty it stops.
 */
TEST_F(busy, grows_while_parked_stops_when_done)
{
	__u64 b0[HCCLT_ENGINE_COUNT], b1[HCCLT_ENGINE_COUNT];
	__u64 b2[HCCLT_ENGINE_COUNT], b3[HCCLT_ENGINE_COUNT];
	__u64 b4[HCCLT_ENGINE_COUNT], o[HCCLT_ENGINE_COUNT];
	const int a = HCCLT_ENGINE_AICPU;
	struct drm_hcclt_thread_info ti;
	__u64 t0;

	ASSERT_EQ(0, read_busy(getpid(), self->fd, b0));
	expect_idle_engines(_metadata, b0, -1);
	t0 = now_ns();
	ASSERT_EQ(0, hcclt_waitq(self->fd, self->th[0], 0, 0));
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->th[0],
				      HCCLT_STATE_PARKED, &ti, 5000));
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b1));
	hcclt_msleep(100);
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b2));
	EXPECT_LE(100000000ULL, b2[a] - b1[a]);
	/* Never more than the time since the wait was queued. */
	EXPECT_GE(now_ns() - t0, b2[a]);
	expect_idle_engines(_metadata, b2, a);
	/* Another file of the same process did nothing. */
	ASSERT_EQ(0, read_busy(getpid(), self->other, o));
	expect_idle_engines(_metadata, o, -1);

	/* A record through the stream id releases it. */
	ASSERT_EQ(0, hcclt_record(self->fd, self->s, self->th[0], 0));
	ASSERT_EQ(0, hcclt_sync(self->fd, self->th[0], 5000));
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b3));
	EXPECT_LE(b2[a], b3[a]);
	hcclt_msleep(100);
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b4));
	EXPECT_EQ(b3[a], b4[a]);
	expect_idle_engines(_metadata, b4, a);
}

/* Streams busy at the same time on one engine count once. */
TEST_F(busy, concurrent_streams_count_once)
{
	__u64 b1[HCCLT_ENGINE_COUNT], b2[HCCLT_ENGINE_COUNT];
	const int a = HCCLT_ENGINE_AICPU;
	struct drm_hcclt_thread_info ti;
	__u64 t1, t2;
	int i;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, hcclt_waitq(self->fd, self->th[i], 0, 0));
		ASSERT_EQ(0, hcclt_wait_state(self->fd, self->th[i],
					      HCCLT_STATE_PARKED, &ti, 5000));
	}
	t1 = now_ns();
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b1));
	hcclt_msleep(100);
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b2));
	t2 = now_ns();
	EXPECT_LE(100000000ULL, b2[a] - b1[a]);
	EXPECT_GE(t2 - t1, b2[a] - b1[a]);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, hcclt_record(self->fd, self->s, self->th[i], 0));
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, hcclt_sync(self->fd, self->th[i], 5000));
}

/* Work cancelled by destroying its communicator stops counting. */
TEST_F(busy, stops_when_cancelled)
{
	__u64 b1[HCCLT_ENGINE_COUNT], b2[HCCLT_ENGINE_COUNT];
	__u64 b3[HCCLT_ENGINE_COUNT];
	const int a = HCCLT_ENGINE_AICPU;
	struct drm_hcclt_thread_info ti;

	ASSERT_EQ(0, hcclt_waitq(self->fd, self->th[1], 0, 0));
	ASSERT_EQ(0, hcclt_wait_state(self->fd, self->th[1],
				      HCCLT_STATE_PARKED, &ti, 5000));
	hcclt_msleep(20);
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b1));
	EXPECT_LT(0, b1[a]);
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b2));
	hcclt_msleep(50);
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b3));
	EXPECT_LE(b1[a], b2[a]);
	EXPECT_EQ(b2[a], b3[a]);
}

/* A timed-out wait was busy until it timed out, then stops. */
TEST_F(busy, stops_at_wait_timeout)
{
	__u64 b1[HCCLT_ENGINE_COUNT], b2[HCCLT_ENGINE_COUNT];
	const int a = HCCLT_ENGINE_AICPU;

	ASSERT_EQ(0, hcclt_waitq(self->fd, self->th[2], 0, 1));
	ASSERT_EQ(-ETIME, hcclt_sync(self->fd, self->th[2], HCCLT_SLOW_MS));
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b1));
	EXPECT_LE(1000000000ULL - 20000000ULL, b1[a]);
	hcclt_msleep(50);
	ASSERT_EQ(0, read_busy(getpid(), self->fd, b2));
	EXPECT_EQ(b1[a], b2[a]);
}

static int read_full(int fd, void *buf, size_t len)
{
	return read(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

static int write_full(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

/*
 * The child: opens the device, holds threads and a parked wait, and
 * answers the parent's steps through two pipes. Exit status 0 when every
 * step worked.
 */
static int child(int in, int out, int inherited)
{
	__u64 comm, th[3], s, w;
	char step;
	int fd;

	fd = hcclt_open();
	if (fd < 0 || fd == inherited)
		return 1;
	if (hcclt_comm_create(fd, &comm) ||
	    hcclt_acquire(fd, comm, HCCLT_ENGINE_CCU, 3, 2, th) ||
	    hcclt_stream_create(fd, &s) ||
	    hcclt_acquire_ws(fd, comm, s, HCCLT_ENGINE_CCU, 1, &w) ||
	    hcclt_waitq(fd, th[0], 0, 0))
		return 2;
	if (write_full(out, &fd, sizeof(fd)))
		return 3;
	/* 'r': release the wait, then report. */
	if (read_full(in, &step, 1) || step != 'r')
		return 4;
	if (hcclt_record(fd, w, th[0], 0) || hcclt_sync(fd, th[0], 5000))
		return 5;
	if (write_full(out, &fd, sizeof(fd)))
		return 6;
	/* 'x': exit (closing everything). */
	if (read_full(in, &step, 1) || step != 'x')
		return 7;
	return 0;
}

/*
 * Another process's fdinfo, as a monitoring tool reads it: its own file,
 * its objects, its busy time; a file inherited across fork() keeps its
 * client id.
 */
TEST(other_process)
{
	__u64 id_mine, id_inh, id_child, b1[HCCLT_ENGINE_COUNT];
	__u64 b2[HCCLT_ENGINE_COUNT], b3[HCCLT_ENGINE_COUNT];
	__u64 b4[HCCLT_ENGINE_COUNT];
	const int c = HCCLT_ENGINE_CCU;
	int to_child[2], from_child[2], fd, cfd, status;
	struct fdinfo fi;
	pid_t pid;
	char step;

	fd = hcclt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, read_id(getpid(), fd, &id_mine));
	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(from_child));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(to_child[1]);
		close(from_child[0]);
		_exit(child(to_child[0], from_child[1], fd));
	}
	close(to_child[0]);
	close(from_child[1]);

	ASSERT_EQ(0, read_full(from_child[0], &cfd, sizeof(cfd)));
	/* The inherited file: the same struct file, the same client. */
	ASSERT_EQ(0, read_id(pid, fd, &id_inh));
	EXPECT_EQ(id_mine, id_inh);
	ASSERT_EQ(0, fdinfo_read(pid, cfd, &fi));
	ASSERT_NE(NULL, fdinfo_get(&fi, "drm-driver", NULL));
	EXPECT_STREQ(HCCLT_DRIVER_NAME, fdinfo_get(&fi, "drm-driver", NULL));
	ASSERT_EQ(0, fdinfo_uint(&fi, "drm-client-id", NULL, &id_child));
	EXPECT_NE(id_mine, id_child);
	ASSERT_COUNTS(pid, cfd, 4, 4, 7);
	ASSERT_COUNTS(getpid(), fd, 0, 0, 0);

	/* The child's wait is parked: its CCU time grows. */
	ASSERT_EQ(0, read_busy(pid, cfd, b1));
	hcclt_msleep(100);
	ASSERT_EQ(0, read_busy(pid, cfd, b2));
	EXPECT_LE(100000000ULL, b2[c] - b1[c]);
	expect_idle_engines(_metadata, b2, c);

	step = 'r';
	ASSERT_EQ(0, write_full(to_child[1], &step, 1));
	ASSERT_EQ(0, read_full(from_child[0], &cfd, sizeof(cfd)));
	ASSERT_EQ(0, read_busy(pid, cfd, b3));
	hcclt_msleep(100);
	ASSERT_EQ(0, read_busy(pid, cfd, b4));
	EXPECT_EQ(b3[c], b4[c]);
	EXPECT_LE(b2[c], b3[c]);

	step = 'x';
	ASSERT_EQ(0, write_full(to_child[1], &step, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(to_child[1]);
	close(from_child[0]);
	close(fd);
}

HCCLT_HARNESS_MAIN
