// SPDX-License-Identifier: GPL-2.0
/*
 * hcclthread core selftests: query, communicators, streams, thread acquire
 * (with its exact check order and the 40-thread / 64-notify quota), acquire
 * with stream, export, id rules, concurrency and teardown.
 *
 * Written against uapi/drm/hcclthread_accel.h only (raw ioctls).
 */
#define _GNU_SOURCE
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "hcclt_common.h"
#include "hcclt_cgroup.h"
#include "../../kselftest_harness.h"

#define ENG_BIT(e)	(1U << (e))
#define ALL_ENGINES	(ENG_BIT(HCCLT_ENGINE_CPU) | ENG_BIT(HCCLT_ENGINE_CPU_TS) | \
			 ENG_BIT(HCCLT_ENGINE_AICPU) | \
			 ENG_BIT(HCCLT_ENGINE_AICPU_TS) | ENG_BIT(HCCLT_ENGINE_CCU))
#define STREAM_ENGINES	(ENG_BIT(HCCLT_ENGINE_CPU) | ENG_BIT(HCCLT_ENGINE_CPU_TS) | \
			 ENG_BIT(HCCLT_ENGINE_CCU))

FIXTURE(core) {
	int fd;
	struct drm_hcclt_query q0;	/* device state with the fixture's comm */
	__u64 comm;
};

FIXTURE_SETUP(core)
{
	self->fd = hcclt_open();
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_query(self->fd, &self->q0));
}

FIXTURE_TEARDOWN(core)
{
	close(self->fd);
}

/* Counters of the fixture's comm must equal (t, n). */
#define EXPECT_USAGE(fd, comm, t, n) do {				\
	__u32 _t = ~0U, _n = ~0U;					\
	EXPECT_EQ(0, hcclt_comm_usage(fd, comm, &_t, &_n, NULL));	\
	EXPECT_EQ((__u32)(t), _t);					\
	EXPECT_EQ((__u32)(n), _n);					\
} while (0)

/* Device pools must equal the initial reading plus (ds, dn). */
#define EXPECT_POOLS(fd, q0, ds, dn) do {				\
	struct drm_hcclt_query _q;					\
	ASSERT_EQ(0, hcclt_query(fd, &_q));				\
	EXPECT_EQ((q0).streams_used + (ds), _q.streams_used);		\
	EXPECT_EQ((q0).notifies_used + (dn), _q.notifies_used);	\
} while (0)

/* ------------------------------------------------------------------ */
/* QUERY                                                              */

TEST_F(core, query_fields)
{
	struct drm_hcclt_query q;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(0, q.flags);
	EXPECT_EQ(0, q.pad);
	EXPECT_EQ(HCCLT_UAPI_MAJOR, q.uapi_major);
	EXPECT_EQ(HCCLT_UAPI_MINOR, q.uapi_minor);
	EXPECT_EQ(40, q.max_threads_per_comm);
	EXPECT_EQ(64, q.max_notifies_per_comm);
	EXPECT_LT(0, q.streams_total);
	EXPECT_LE(q.streams_used, q.streams_total);
	EXPECT_LT(0, q.notifies_total);
	EXPECT_LE(q.notifies_used, q.notifies_total);
	EXPECT_EQ(ALL_ENGINES, q.engines);
	EXPECT_EQ(STREAM_ENGINES, q.stream_engines);
	EXPECT_EQ(HCCLT_MAX_BATCH, q.max_batch);
	EXPECT_EQ(HCCLT_MAX_QUEUE_DEPTH, q.max_queue_depth);
	EXPECT_LE(1, q.comms);
	EXPECT_LE(1, q.files);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_SIMULATED);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_SUBMIT_STATUS);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_MEMORY);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_CHANNELS);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_INFO_ARRAY);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_COMM_BUFFER);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_WAIT_DEADLINE);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_DATA_TASKS);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_KERNEL_LAUNCH);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_REDUCE);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_EVENTS);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_SYNCOBJ);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_PEER_REVOKE);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_REDUCE_EXT);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_FAILURE_MODES);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_SATURATION);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_EVENT_RESET);
	/* uAPI 1.9: the AI CPU's cores, 6 at the default load. */
	EXPECT_NE(0, q.features & HCCLT_FEATURE_AICPU_CORES);
	EXPECT_EQ(6, q.aicpu_cores);
	/* uAPI 1.11 and 1.12. */
	EXPECT_NE(0, q.features & HCCLT_FEATURE_OP_INFO);
	EXPECT_NE(0, q.features & HCCLT_FEATURE_FILE_ATTACH);
	/* uAPI 1.10: the quota's rule set; the seed's at the default load. */
	EXPECT_NE(0, q.features & HCCLT_FEATURE_QUOTA_RULES);
	EXPECT_EQ(0, q.pad2);
	EXPECT_EQ(HCCLT_QUOTA_RULES_SEED, q.quota_rules);
	EXPECT_EQ(HCCLT_QUOTA_F_WRAPPED_COUNTED, q.quota_flags);
	EXPECT_EQ(40, q.max_threads_per_call);
	EXPECT_EQ(64, q.max_notifies_per_thread);
	/* uAPI 1.13: registered memory. */
	EXPECT_NE(0, q.features & HCCLT_FEATURE_MEMREG);
	/* uAPI 1.14: one server of every card at the default load. */
	EXPECT_NE(0, q.features & HCCLT_FEATURE_SERVERS);
	EXPECT_EQ(1, q.servers);
	EXPECT_EQ(0, q.server);
	EXPECT_EQ(0, q.pad3);
	/* uAPI 1.15: no cluster_addr at the default load. */
	EXPECT_EQ(0, q.cluster_addr);
	EXPECT_EQ(0, q.cluster_port);
	EXPECT_EQ(0, q.pad4);
	/* uAPI 1.16, 1.17: data between hosts wherever there are clusters. */
	EXPECT_EQ(!!(q.features & HCCLT_FEATURE_CLUSTER),
		  !!(q.features & HCCLT_FEATURE_CLUSTER_DATA));
	EXPECT_EQ(!!(q.features & HCCLT_FEATURE_CLUSTER),
		  !!(q.features & HCCLT_FEATURE_CLUSTER_MEMREG));
	EXPECT_EQ(0, q.features & ~(HCCLT_FEATURE_CLUSTER |
				    HCCLT_FEATURE_CLUSTER_DATA |
				    HCCLT_FEATURE_CLUSTER_MEMREG |
				    HCCLT_FEATURE_FENCE_OUT |
				    HCCLT_FEATURE_SIMULATED |
				    HCCLT_FEATURE_SUBMIT_STATUS |
				    HCCLT_FEATURE_MEMORY |
				    HCCLT_FEATURE_CHANNELS |
				    HCCLT_FEATURE_INFO_ARRAY |
				    HCCLT_FEATURE_COMM_BUFFER |
				    HCCLT_FEATURE_WAIT_DEADLINE |
				    HCCLT_FEATURE_DATA_TASKS |
				    HCCLT_FEATURE_KERNEL_LAUNCH |
				    HCCLT_FEATURE_REDUCE |
				    HCCLT_FEATURE_EVENTS |
				    HCCLT_FEATURE_SYNCOBJ |
				    HCCLT_FEATURE_PEER_REVOKE |
				    HCCLT_FEATURE_REDUCE_EXT |
				    HCCLT_FEATURE_FAILURE_MODES |
				    HCCLT_FEATURE_SATURATION |
				    HCCLT_FEATURE_EVENT_RESET |
				    HCCLT_FEATURE_AICPU_CORES |
				    HCCLT_FEATURE_QUOTA_RULES |
				    HCCLT_FEATURE_OP_INFO |
				    HCCLT_FEATURE_FILE_ATTACH |
				    HCCLT_FEATURE_MEMREG |
				    HCCLT_FEATURE_SERVERS));
}

TEST_F(core, query_flags_einval)
{
	struct drm_hcclt_query q;

	memset(&q, 0, sizeof(q));
	q.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
	memset(&q, 0, sizeof(q));
	q.flags = 0x80000000;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
}

TEST_F(core, query_pad_einval)
{
	struct drm_hcclt_query q;

	memset(&q, 0, sizeof(q));
	q.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
	/* uAPI 1.13: the reserved @pad3 too. */
	memset(&q, 0, sizeof(q));
	q.pad3 = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
	memset(&q, 0, sizeof(q));
	q.pad3 = 1ULL << 63;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
	/* uAPI 1.15: @pad4. */
	memset(&q, 0, sizeof(q));
	q.pad4 = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, &q));
}

TEST_F(core, query_efault)
{
	EXPECT_EQ(-EFAULT, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_QUERY, NULL));
}

TEST_F(core, query_counts_files_and_comms)
{
	struct drm_hcclt_query q, q2;
	__u64 c;
	int fd2;

	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, hcclt_query(self->fd, &q2));
	EXPECT_EQ(q.files + 1, q2.files);
	ASSERT_EQ(0, hcclt_comm_create(fd2, &c));
	ASSERT_EQ(0, hcclt_query(fd2, &q2));
	EXPECT_EQ(q.comms + 1, q2.comms);
	close(fd2);
	EXPECT_EQ(0, hcclt_wait_pools(self->fd, &q, &q2, 5000));
	EXPECT_EQ(q.files, q2.files);
	EXPECT_EQ(q.comms, q2.comms);
}

/* ------------------------------------------------------------------ */
/* COMM CREATE / DESTROY                                              */

TEST_F(core, comm_ids)
{
	__u64 ids[64];
	struct drm_hcclt_query q;
	int i, j;

	EXPECT_NE(0, self->comm);
	EXPECT_EQ(0, self->comm & HCCLT_ID_TAG_MASK);
	EXPECT_EQ(HCCLT_ID_KIND_COMM, HCCLT_ID_KIND(self->comm));
	for (i = 0; i < 64; i++) {
		ASSERT_EQ(0, hcclt_comm_create(self->fd, &ids[i]));
		EXPECT_EQ(HCCLT_ID_KIND_COMM, HCCLT_ID_KIND(ids[i]));
		EXPECT_EQ(0, ids[i] & HCCLT_ID_TAG_MASK);
		EXPECT_NE(self->comm, ids[i]);
		for (j = 0; j < i; j++)
			EXPECT_NE(ids[j], ids[i]);
	}
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.comms + 64, q.comms);
	for (i = 0; i < 64; i++)
		EXPECT_EQ(0, hcclt_comm_destroy(self->fd, ids[i]));
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.comms, q.comms);
}

TEST_F_TIMEOUT(core, many_comms, 60)
{
	enum { N = 1024 };
	static __u64 ids[N];
	struct drm_hcclt_query q;
	__u32 nc = 0;
	__u64 th;
	int i;

	for (i = 0; i < N; i++)
		ASSERT_EQ(0, hcclt_comm_create(self->fd, &ids[i]));
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.comms + N, q.comms);
	ASSERT_EQ(0, hcclt_info(self->fd, 0, NULL, &nc, NULL, NULL));
	EXPECT_EQ(N + 1, nc);
	/* each has its own quota */
	EXPECT_EQ(0, hcclt_acquire(self->fd, ids[N - 1], 0, 1, 64, &th));
	EXPECT_EQ(0, hcclt_acquire(self->fd, ids[0], 0, 1, 64, &th));
	for (i = 0; i < N; i++)
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, ids[i]));
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.comms, q.comms);
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F(core, stream_and_thread_ids_not_reused)
{
	__u64 s1, s2, t1, t2, c;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s1));
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, s1));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s2));
	EXPECT_NE(s1, s2);
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
	ASSERT_EQ(0, hcclt_acquire(self->fd, c, 0, 1, 0, &t1));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 0, &t2));
	EXPECT_NE(t1, t2);
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, t1, 0));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, s1, 0));
}

TEST_F(core, comm_id_not_reused)
{
	__u64 a, b;

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &a));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, a));
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &b));
	EXPECT_NE(a, b);
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd, a));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, b));
}

TEST_F(core, comm_create_flags_einval)
{
	struct drm_hcclt_comm_create a;
	struct drm_hcclt_query q;

	memset(&a, 0, sizeof(a));
	a.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_COMM_CREATE, &a));
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.comms, q.comms);
}

TEST_F(core, comm_create_pad_einval)
{
	struct drm_hcclt_comm_create a;
	struct drm_hcclt_query q;

	memset(&a, 0, sizeof(a));
	a.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_COMM_CREATE, &a));
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(self->q0.comms, q.comms);
}

TEST_F(core, comm_destroy_flags_einval)
{
	struct drm_hcclt_comm_destroy a;

	memset(&a, 0, sizeof(a));
	a.comm_id = self->comm;
	a.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_COMM_DESTROY, &a));
	/* still there */
	EXPECT_EQ(0, hcclt_comm_usage(self->fd, self->comm, NULL, NULL, NULL));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
}

TEST_F(core, comm_destroy_pad_einval)
{
	struct drm_hcclt_comm_destroy a;

	memset(&a, 0, sizeof(a));
	a.comm_id = self->comm;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_COMM_DESTROY, &a));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
}

TEST_F(core, comm_destroy_enoent)
{
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd,
					      HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM)));
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd, ~0ULL));
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd,
					      self->comm | (1ULL << 56)));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd, self->comm));
}

TEST_F(core, comm_destroy_frees_quota_objects)
{
	struct drm_hcclt_query q, want;
	__u64 th[40];

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU,
				   32, 2, th));
	EXPECT_POOLS(self->fd, self->q0, 32, 64);
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	want = self->q0;
	want.comms--;
	ASSERT_EQ(0, hcclt_wait_pools(self->fd, &want, &q, 5000)) {
		TH_LOG("streams_used %u (want %u) notifies_used %u (want %u) comms %u (want %u)",
		       q.streams_used, want.streams_used, q.notifies_used,
		       want.notifies_used, q.comms, want.comms);
	}
	/* the threads are gone with it */
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, th[0], 0));
}

/* ------------------------------------------------------------------ */
/* STREAM CREATE / DESTROY                                            */

TEST_F(core, stream_create_destroy)
{
	__u64 s, s2;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	EXPECT_NE(0, s);
	EXPECT_EQ(HCCLT_ID_KIND_STREAM, HCCLT_ID_KIND(s));
	EXPECT_EQ(0, s & HCCLT_ID_TAG_MASK);
	EXPECT_POOLS(self->fd, self->q0, 1, 0);
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s2));
	EXPECT_NE(s, s2);
	EXPECT_POOLS(self->fd, self->q0, 2, 0);
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 0));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s2));
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, s));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, s, 0));
}

TEST_F(core, stream_create_flags_einval)
{
	struct drm_hcclt_stream_create a;

	memset(&a, 0, sizeof(a));
	a.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_STREAM_CREATE, &a));
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F(core, stream_create_pad_einval)
{
	struct drm_hcclt_stream_create a;

	memset(&a, 0, sizeof(a));
	a.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_STREAM_CREATE, &a));
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F(core, stream_destroy_flags_pad_einval)
{
	struct drm_hcclt_stream_destroy a;
	__u64 s;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	memset(&a, 0, sizeof(a));
	a.stream_id = s;
	a.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_STREAM_DESTROY, &a));
	a.flags = 0;
	a.pad = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_STREAM_DESTROY, &a));
	EXPECT_POOLS(self->fd, self->q0, 1, 0);
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
}

TEST_F(core, stream_destroy_enoent)
{
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, 0));
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd,
					HCCLT_BOGUS_ID(HCCLT_ID_KIND_STREAM)));
	/* wrong kind: a communicator id */
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, self->comm));
}

/* ------------------------------------------------------------------ */
/* THREAD ACQUIRE                                                     */

TEST_F(core, acquire_basic)
{
	struct drm_hcclt_thread_info ti;
	__u64 th[5];
	__u32 tc = 0;
	int i, j;

	/* seed example 1: 5 AICPU_TS threads with 2 notifies each */
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm,
				   HCCLT_ENGINE_AICPU_TS, 5, 2, th));
	for (i = 0; i < 5; i++) {
		EXPECT_EQ(HCCLT_ID_KIND_THREAD, HCCLT_ID_KIND(th[i]));
		EXPECT_EQ(0, th[i] & HCCLT_ID_TAG_MASK);
		for (j = 0; j < i; j++)
			EXPECT_NE(th[j], th[i]);
		ASSERT_EQ(0, hcclt_thread_info(self->fd, th[i], &ti));
		EXPECT_EQ(self->comm, ti.comm_id);
		EXPECT_EQ(HCCLT_ENGINE_AICPU_TS, ti.engine);
		EXPECT_EQ(2, ti.notify_num);
		EXPECT_EQ(0, ti.queue_depth);
		EXPECT_EQ(HCCLT_STATE_IDLE, ti.state);
		EXPECT_EQ(0, ti.flags);
		EXPECT_EQ(HCCLT_ID_KIND_STREAM, HCCLT_ID_KIND(ti.stream_id));
		EXPECT_EQ(0, hcclt_sync(self->fd, th[i], 0));
	}
	EXPECT_USAGE(self->fd, self->comm, 5, 10);
	EXPECT_EQ(0, hcclt_comm_usage(self->fd, self->comm, NULL, NULL, &tc));
	EXPECT_EQ(5, tc);
	EXPECT_POOLS(self->fd, self->q0, 5, 10);
}

/* A thread's own stream answers to its stream id while the thread lives. */
TEST_F(core, acquire_stream_id)
{
	struct drm_hcclt_thread_info ti;
	__u64 th[2], sid[2], other;
	int i;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU,
				   2, 1, th));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, hcclt_thread_info(self->fd, th[i], &ti));
		sid[i] = ti.stream_id;
		EXPECT_EQ(HCCLT_ID_KIND_STREAM, HCCLT_ID_KIND(sid[i]));
		EXPECT_EQ(0, sid[i] & HCCLT_ID_TAG_MASK);
		EXPECT_EQ(0, hcclt_sync(self->fd, sid[i], 0));
		/* only created streams can be destroyed */
		EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, sid[i]));
		EXPECT_EQ(0, hcclt_sync(self->fd, sid[i], 0));
	}
	EXPECT_NE(sid[0], sid[1]);
	/* a created stream's id names neither */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &other));
	EXPECT_NE(sid[0], other);
	EXPECT_NE(sid[1], other);
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, other));
	EXPECT_EQ(0, hcclt_sync(self->fd, sid[0], 0));

	/* gone with the threads; a new thread's stream has a new id */
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, sid[i], 0));
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU,
				   1, 1, th));
	ASSERT_EQ(0, hcclt_thread_info(self->fd, th[0], &ti));
	EXPECT_NE(sid[0], ti.stream_id);
	EXPECT_NE(sid[1], ti.stream_id);
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, sid[0], 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, ti.stream_id, 0));
}

TEST_F(core, acquire_every_engine)
{
	static const __u32 eng[] = { HCCLT_ENGINE_CPU, HCCLT_ENGINE_CPU_TS,
		HCCLT_ENGINE_AICPU, HCCLT_ENGINE_AICPU_TS, HCCLT_ENGINE_CCU };
	struct drm_hcclt_thread_info ti;
	unsigned int i;
	__u64 th;

	for (i = 0; i < HCCLT_ARRAY_SIZE(eng); i++) {
		ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, eng[i], 1, 1,
					   &th));
		ASSERT_EQ(0, hcclt_thread_info(self->fd, th, &ti));
		EXPECT_EQ(eng[i], ti.engine);
	}
	EXPECT_USAGE(self->fd, self->comm, 5, 5);
}

TEST_F(core, acquire_zero_notifies)
{
	struct drm_hcclt_thread_info ti;
	__u64 th[40];

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU,
				   40, 0, th));
	ASSERT_EQ(0, hcclt_thread_info(self->fd, th[39], &ti));
	EXPECT_EQ(0, ti.notify_num);
	EXPECT_USAGE(self->fd, self->comm, 40, 0);
	EXPECT_POOLS(self->fd, self->q0, 40, 0);
}

static int acquire_raw(int fd, __u64 comm, __u32 engine, __u32 num,
		       __u32 nn, __u32 flags, __u64 *out)
{
	struct drm_hcclt_thread_acquire a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.engine = engine;
	a.thread_num = num;
	a.notify_num_per_thread = nn;
	a.flags = flags;
	a.threads_ptr = (__u64)(uintptr_t)out;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE, &a);
}

TEST_F(core, acquire_flags_einval)
{
	__u64 th[2];

	EXPECT_EQ(-EINVAL, acquire_raw(self->fd, self->comm, 0, 1, 1, 1, th));
	/* flags are checked before the communicator */
	EXPECT_EQ(-EINVAL, acquire_raw(self->fd,
				       HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
				       0, 1, 1, 1, th));
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
}

TEST_F(core, acquire_unknown_comm_enoent)
{
	__u64 th[2], c;

	EXPECT_EQ(-ENOENT, hcclt_acquire(self->fd, 0, 0, 1, 1, th));
	EXPECT_EQ(-ENOENT, hcclt_acquire(self->fd,
					 HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
					 0, 1, 1, th));
	/* comm before engine, thread_num and quota */
	EXPECT_EQ(-ENOENT, hcclt_acquire(self->fd,
					 HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
					 HCCLT_ENGINE_COUNT, 0, 65, th));
	/* stale */
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
	EXPECT_EQ(-ENOENT, hcclt_acquire(self->fd, c, 0, 1, 1, th));
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F(core, acquire_bad_engine_einval)
{
	__u64 th[41];

	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm,
					 HCCLT_ENGINE_COUNT, 1, 1, th));
	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm, ~0U, 1, 1, th));
	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm, 0x80000000U,
					 1, 1, th));
	/* engine before thread_num and quota */
	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm,
					 HCCLT_ENGINE_COUNT, 0, 1, th));
	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm,
					 HCCLT_ENGINE_COUNT, 41, 65, th));
	/* and before the copy-out */
	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm,
					 HCCLT_ENGINE_COUNT, 1, 1, NULL));
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F(core, acquire_zero_threads_einval)
{
	__u64 th[1];

	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm, 0, 0, 1, th));
	/* thread_num before quota */
	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm, 0, 0, 65, th));
	/* before the AIV check */
	EXPECT_EQ(-EINVAL, hcclt_acquire(self->fd, self->comm,
					 HCCLT_ENGINE_AIV, 0, 1, th));
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
}

TEST_F(core, acquire_quota_edquot)
{
	__u64 th[64];

	/* too many threads at once */
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 41, 0, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, ~0U, 0, th));
	/* too many notifies per thread */
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, 65, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, ~0U, th));
	/* product above 64, and products that overflow 32 bits */
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 40, 2, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 2, 0x80000000U,
					 th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 33, 2, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 40,
					 0x6666667U, th));
	/* quota before the copy-out */
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 41, 0, NULL));
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F(core, acquire_aiv)
{
	__u64 th[41];

	/* an argument check: before the quota (the library keeps HCCL's order) */
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 41, 1, th));
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 1, 65, th));
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 33, 2, th));
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 1, 1, th));
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 40, 0, th));
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 1, 1, NULL));
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
	/* also on a full communicator */
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 40, 0, th));
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 1, 0, th));
	EXPECT_USAGE(self->fd, self->comm, 40, 0);
}

TEST_F(core, acquire_efault_changes_nothing)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *map;
	__u64 *th;

	EXPECT_EQ(-EFAULT, hcclt_acquire(self->fd, self->comm, 0, 1, 1, NULL));
	EXPECT_EQ(-EFAULT, hcclt_acquire(self->fd, self->comm, 0, 3, 2,
					 (__u64 *)(uintptr_t)8));
	map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	/* read-only array */
	ASSERT_EQ(0, mprotect(map, 2 * pg, PROT_READ));
	EXPECT_EQ(-EFAULT, hcclt_acquire(self->fd, self->comm, 0, 2, 2,
					 (__u64 *)map));
	/* first two entries writable, the rest of the array is not */
	ASSERT_EQ(0, mprotect(map, pg, PROT_READ | PROT_WRITE));
	th = (__u64 *)(map + pg - 2 * sizeof(__u64));
	EXPECT_EQ(-EFAULT, hcclt_acquire(self->fd, self->comm, 0, 10, 3, th));
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
	/* and the quota is intact */
	th = (__u64 *)map;
	EXPECT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 32, 2, th));
	EXPECT_USAGE(self->fd, self->comm, 32, 64);
	munmap(map, 2 * pg);
}

TEST_F(core, exactly_40_threads)
{
	__u64 th[41];
	int i;

	for (i = 0; i < 40; i++)
		ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, i % 2 ?
					   HCCLT_ENGINE_CPU : HCCLT_ENGINE_AICPU,
					   1, 1, &th[i]));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, 0, &th[40]));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm,
					 HCCLT_ENGINE_CCU, 1, 0, &th[40]));
	EXPECT_USAGE(self->fd, self->comm, 40, 40);
	EXPECT_POOLS(self->fd, self->q0, 40, 40);
	for (i = 0; i < 40; i++)
		EXPECT_EQ(0, hcclt_sync(self->fd, th[i], 0));
}

TEST_F(core, exactly_40_threads_all_engines_share)
{
	static const __u32 eng[] = { HCCLT_ENGINE_CPU, HCCLT_ENGINE_CPU_TS,
		HCCLT_ENGINE_AICPU, HCCLT_ENGINE_AICPU_TS };
	__u64 th[41];
	unsigned int i;

	for (i = 0; i < HCCLT_ARRAY_SIZE(eng); i++)
		ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, eng[i], 10, 0,
					   &th[10 * i]));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm,
					 HCCLT_ENGINE_CCU, 1, 0, th));
	EXPECT_USAGE(self->fd, self->comm, 40, 0);
}

TEST_F(core, exactly_40_threads_one_call)
{
	__u64 th[41], c2;
	int i, j;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 40, 1, th));
	for (i = 0; i < 40; i++)
		for (j = 0; j < i; j++)
			EXPECT_NE(th[i], th[j]);
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, 0, th));
	/* the quota is per communicator */
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
	EXPECT_EQ(0, hcclt_acquire(self->fd, c2, 0, 40, 1, th));
	EXPECT_USAGE(self->fd, self->comm, 40, 40);
	EXPECT_USAGE(self->fd, c2, 40, 40);
	EXPECT_POOLS(self->fd, self->q0, 80, 80);
}

TEST_F(core, notifies_64_exact)
{
	__u64 th[40], c2, c3;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 32, 2, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, 1, th));
	/* zero notifies still fit */
	EXPECT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 0, th));
	EXPECT_USAGE(self->fd, self->comm, 33, 64);

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, c2, 0, 1, 65, th));
	EXPECT_EQ(0, hcclt_acquire(self->fd, c2, 0, 1, 64, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, c2, 0, 1, 1, th));
	EXPECT_USAGE(self->fd, c2, 1, 64);

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c3));
	EXPECT_EQ(0, hcclt_acquire(self->fd, c3, 0, 16, 3, th));  /* 48 */
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, c3, 0, 4, 5, th)); /* 68 */
	EXPECT_EQ(0, hcclt_acquire(self->fd, c3, 0, 4, 4, th));  /* 64 */
	EXPECT_USAGE(self->fd, c3, 20, 64);
	EXPECT_POOLS(self->fd, self->q0, 33 + 1 + 20, 64 * 3);
}

TEST_F(core, all_or_nothing_after_refusal)
{
	struct drm_hcclt_query qa, qb;
	__u64 th[40];

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 30, 2, th));
	ASSERT_EQ(0, hcclt_query(self->fd, &qa));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 3, 2, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 11, 0, th));
	EXPECT_EQ(-EOPNOTSUPP, hcclt_acquire(self->fd, self->comm,
					     HCCLT_ENGINE_AIV, 2, 2, th));
	EXPECT_EQ(-EFAULT, hcclt_acquire(self->fd, self->comm, 0, 2, 2, NULL));
	EXPECT_USAGE(self->fd, self->comm, 30, 60);
	ASSERT_EQ(0, hcclt_query(self->fd, &qb));
	EXPECT_EQ(qa.streams_used, qb.streams_used);
	EXPECT_EQ(qa.notifies_used, qb.notifies_used);
	/* exactly what is left still works */
	EXPECT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 2, 2, th));
	EXPECT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 8, 0, th));
	EXPECT_USAGE(self->fd, self->comm, 40, 64);
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, 0, th));
}

/* ------------------------------------------------------------------ */
/* Races                                                              */

struct race_arg {
	int fd;
	__u64 comm;
	__u32 notifies;
	int threads_got;
	int notifies_got;
	int bad_errno;
	__u64 ids[40];
	pthread_barrier_t *bar;
};

static void *race_acquire(void *p)
{
	struct race_arg *a = p;

	pthread_barrier_wait(a->bar);
	for (;;) {
		__u64 id;
		int ret = hcclt_acquire(a->fd, a->comm, HCCLT_ENGINE_CPU, 1,
					a->notifies, &id);

		if (ret == -EDQUOT)
			break;
		if (ret) {
			a->bad_errno = ret;
			break;
		}
		if (a->threads_got < 40)
			a->ids[a->threads_got] = id;
		a->threads_got++;
		a->notifies_got += a->notifies;
	}
	return NULL;
}

TEST_F_TIMEOUT(core, race_8_threads_shared_comm, 120)
{
	pthread_barrier_t bar;
	int round;

	ASSERT_EQ(0, pthread_barrier_init(&bar, NULL, 8));
	for (round = 0; round < 5; round++) {
		struct race_arg a[8];
		pthread_t pt[8];
		int i, j, k, n = 0, t = 0;
		__u64 all[40];
		__u64 c;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		for (i = 0; i < 8; i++) {
			memset(&a[i], 0, sizeof(a[i]));
			a[i].fd = self->fd;
			a[i].comm = c;
			a[i].notifies = i % 4;	/* 0, 1, 2, 3 */
			a[i].bar = &bar;
			ASSERT_EQ(0, pthread_create(&pt[i], NULL, race_acquire,
						    &a[i]));
		}
		for (i = 0; i < 8; i++)
			pthread_join(pt[i], NULL);
		for (i = 0; i < 8; i++) {
			EXPECT_EQ(0, a[i].bad_errno);
			t += a[i].threads_got;
			n += a[i].notifies_got;
			for (j = 0; j < a[i].threads_got && j < 40; j++) {
				for (k = 0; k < t - a[i].threads_got + j &&
				     k < 40; k++)
					EXPECT_NE(all[k], a[i].ids[j]);
				if (t - a[i].threads_got + j < 40)
					all[t - a[i].threads_got + j] =
						a[i].ids[j];
			}
		}
		/* threads with 0 notifies keep going until exactly 40 */
		EXPECT_EQ(40, t);
		EXPECT_LE(n, 64);
		EXPECT_USAGE(self->fd, c, t, n);
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
	}
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
	pthread_barrier_destroy(&bar);
}

TEST_F_TIMEOUT(core, race_8_threads_separate_comms, 120)
{
	pthread_barrier_t bar;
	struct race_arg a[8];
	pthread_t pt[8];
	int i;

	ASSERT_EQ(0, pthread_barrier_init(&bar, NULL, 8));
	for (i = 0; i < 8; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].fd = self->fd;
		ASSERT_EQ(0, hcclt_comm_create(self->fd, &a[i].comm));
		a[i].notifies = 1;
		a[i].bar = &bar;
		ASSERT_EQ(0, pthread_create(&pt[i], NULL, race_acquire, &a[i]));
	}
	for (i = 0; i < 8; i++)
		pthread_join(pt[i], NULL);
	for (i = 0; i < 8; i++) {
		EXPECT_EQ(0, a[i].bad_errno);
		EXPECT_EQ(40, a[i].threads_got);
		EXPECT_USAGE(self->fd, a[i].comm, 40, 40);
	}
	EXPECT_POOLS(self->fd, self->q0, 320, 320);
	pthread_barrier_destroy(&bar);
}

/* child of the process races: acquire 1 thread with @nn notifies until
 * -EDQUOT, write the count to @wfd; exit 0, or 1 on an unexpected errno.
 */
static void race_child(int fd, __u64 comm, __u32 nn, int go, int wfd)
{
	char c;
	int got = 0;

	if (read(go, &c, 1) != 1)
		_exit(2);
	for (;;) {
		__u64 id;
		int ret = hcclt_acquire(fd, comm, HCCLT_ENGINE_AICPU_TS, 1, nn,
					&id);

		if (ret == -EDQUOT)
			break;
		if (ret)
			_exit(1);
		got++;
	}
	if (write(wfd, &got, sizeof(got)) != sizeof(got))
		_exit(3);
	_exit(0);
}

TEST_F_TIMEOUT(core, race_4_procs_shared_comm, 120)
{
	int round;

	for (round = 0; round < 3; round++) {
		int gop[2], res[2], i, total = 0, st;
		pid_t pid[4];
		__u64 c;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		ASSERT_EQ(0, pipe(gop));
		ASSERT_EQ(0, pipe(res));
		for (i = 0; i < 4; i++) {
			pid[i] = fork();
			ASSERT_LE(0, pid[i]);
			if (!pid[i]) {
				close(gop[1]);
				race_child(self->fd, c, round, gop[0], res[1]);
			}
		}
		close(gop[0]);
		ASSERT_EQ(4, write(gop[1], "gggg", 4));
		close(gop[1]);
		for (i = 0; i < 4; i++) {
			ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
			EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		}
		close(res[1]);
		for (i = 0; i < 4; i++) {
			int got;

			ASSERT_EQ(sizeof(got), read(res[0], &got, sizeof(got)));
			total += got;
		}
		close(res[0]);
		/* nn 0: 40 threads; 1: 40 threads/40; 2: 32 threads/64 */
		EXPECT_EQ(round == 2 ? 32 : 40, total);
		EXPECT_USAGE(self->fd, c, total, total * round);
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
	}
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F_TIMEOUT(core, race_4_procs_separate_files, 120)
{
	struct drm_hcclt_query q;
	int i, st, gop[2], res[2];
	pid_t pid[4];

	ASSERT_EQ(0, pipe(gop));
	ASSERT_EQ(0, pipe(res));
	for (i = 0; i < 4; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			__u32 tu = 0, nu = 0;
			int fd = hcclt_open(), got;
			__u64 c;
			char ch;

			close(gop[1]);
			if (fd < 0 || hcclt_comm_create(fd, &c))
				_exit(5);
			if (read(gop[0], &ch, 1) != 1)
				_exit(2);
			for (got = 0;; got++) {
				__u64 id;
				int ret = hcclt_acquire(fd, c, HCCLT_ENGINE_CCU,
							1, 1, &id);

				if (ret == -EDQUOT)
					break;
				if (ret)
					_exit(1);
			}
			if (hcclt_comm_usage(fd, c, &tu, &nu, NULL) ||
			    tu != 40 || nu != 40 || got != 40)
				_exit(6);
			_exit(0);
		}
	}
	close(gop[0]);
	close(res[0]);
	close(res[1]);
	ASSERT_EQ(4, write(gop[1], "gggg", 4));
	close(gop[1]);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st));
		EXPECT_EQ(0, WEXITSTATUS(st));
	}
	EXPECT_EQ(0, hcclt_wait_pools(self->fd, &self->q0, &q, 5000));
}

static int count_threads(int fd);

struct ws_race_arg {
	int fd;
	__u64 comm, stream, thread;
	__u32 engine, nn;
	int ret;
	pthread_barrier_t *bar;
};

static void *ws_race(void *p)
{
	struct ws_race_arg *a = p;

	pthread_barrier_wait(a->bar);
	a->ret = hcclt_acquire_ws(a->fd, a->comm, a->stream, a->engine, a->nn,
				  &a->thread);
	return NULL;
}

TEST_F_TIMEOUT(core, race_ws_same_stream, 120)
{
	pthread_barrier_t bar;
	int round;

	ASSERT_EQ(0, pthread_barrier_init(&bar, NULL, 8));
	for (round = 0; round < 10; round++) {
		struct drm_hcclt_thread_info ti;
		struct ws_race_arg a[8];
		pthread_t pt[8];
		__u64 c, s;
		__u32 tc = 0;
		int i;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
		for (i = 0; i < 8; i++) {
			a[i] = (struct ws_race_arg){ self->fd, c, s, 0,
				HCCLT_ENGINE_CPU_TS, 1 + i, 1, &bar };
			ASSERT_EQ(0, pthread_create(&pt[i], NULL, ws_race, &a[i]));
		}
		for (i = 0; i < 8; i++)
			pthread_join(pt[i], NULL);
		for (i = 0; i < 8; i++) {
			EXPECT_EQ(0, a[i].ret);
			EXPECT_EQ(a[0].thread, a[i].thread);
		}
		/* one thread, grown to the largest request */
		EXPECT_USAGE(self->fd, c, 0, 8);
		EXPECT_EQ(0, hcclt_comm_usage(self->fd, c, NULL, NULL, &tc));
		EXPECT_EQ(1, tc);
		ASSERT_EQ(0, hcclt_thread_info(self->fd, a[0].thread, &ti));
		EXPECT_EQ(8, ti.notify_num);
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
		ASSERT_EQ(0, hcclt_stream_destroy(self->fd, s));
	}
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
	pthread_barrier_destroy(&bar);
}

TEST_F_TIMEOUT(core, race_ws_engines_same_stream, 120)
{
	static const __u32 eng[] = { HCCLT_ENGINE_CPU, HCCLT_ENGINE_CPU_TS,
		HCCLT_ENGINE_CCU };
	pthread_barrier_t bar;
	int round;

	ASSERT_EQ(0, pthread_barrier_init(&bar, NULL, 6));
	for (round = 0; round < 10; round++) {
		struct ws_race_arg a[6];
		pthread_t pt[6];
		int i, ok = 0, winner = -1;
		__u64 c, s;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
		for (i = 0; i < 6; i++) {
			a[i] = (struct ws_race_arg){ self->fd, c, s, 0,
				eng[i % 3], 2, 1, &bar };
			ASSERT_EQ(0, pthread_create(&pt[i], NULL, ws_race, &a[i]));
		}
		for (i = 0; i < 6; i++)
			pthread_join(pt[i], NULL);
		/* every engine gets the one thread (as hcomm) */
		for (i = 0; i < 6; i++) {
			EXPECT_EQ(0, a[i].ret);
			if (!a[i].ret) {
				ok++;
				if (winner < 0)
					winner = i;
				EXPECT_EQ(a[winner].thread, a[i].thread);
			}
		}
		EXPECT_EQ(6, ok);
		EXPECT_USAGE(self->fd, c, 0, 2);
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
		ASSERT_EQ(0, hcclt_stream_destroy(self->fd, s));
	}
	pthread_barrier_destroy(&bar);
}

struct ex_race_arg {
	int fd;
	__u64 comm, th[4], out[4];
	int ret;
	pthread_barrier_t *bar;
};

static void *export_race(void *p)
{
	struct ex_race_arg *a = p;

	pthread_barrier_wait(a->bar);
	a->ret = hcclt_export(a->fd, a->comm, HCCLT_ENGINE_CPU_TS, 4, a->th,
			      a->out);
	return NULL;
}

TEST_F_TIMEOUT(core, race_export_same_threads, 120)
{
	pthread_barrier_t bar;
	int round;

	ASSERT_EQ(0, pthread_barrier_init(&bar, NULL, 8));
	for (round = 0; round < 10; round++) {
		struct ex_race_arg a[8];
		pthread_t pt[8];
		__u64 c, th[4];
		int i, j;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		ASSERT_EQ(0, hcclt_acquire(self->fd, c, HCCLT_ENGINE_AICPU_TS,
					   4, 1, th));
		for (i = 0; i < 8; i++) {
			memset(&a[i], 0, sizeof(a[i]));
			a[i].fd = self->fd;
			a[i].comm = c;
			a[i].bar = &bar;
			for (j = 0; j < 4; j++)
				a[i].th[j] = th[(i + j) % 4];
			ASSERT_EQ(0, pthread_create(&pt[i], NULL, export_race,
						    &a[i]));
		}
		for (i = 0; i < 8; i++)
			pthread_join(pt[i], NULL);
		for (i = 0; i < 8; i++) {
			EXPECT_EQ(0, a[i].ret);
			for (j = 0; j < 4; j++)
				EXPECT_EQ(a[0].out[(i + j) % 4], a[i].out[j]);
		}
		/* one view per thread, no more */
		EXPECT_EQ(8, count_threads(self->fd));
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
	}
	pthread_barrier_destroy(&bar);
}

struct mix_arg {
	int fd;
	__u64 comm;
	int idx;
	int threads_got, notifies_got, bad;
	pthread_barrier_t *bar;
};

/* acquire (1, idx % 3) until -EDQUOT, or grow a wrapped stream by 1 */
static void *mix_race(void *p)
{
	struct mix_arg *a = p;
	__u64 s = 0, t;
	__u32 nn = 0;

	if (a->idx % 2 && hcclt_stream_create(a->fd, &s))
		a->bad = -1;
	pthread_barrier_wait(a->bar);
	while (!a->bad) {
		int ret;

		if (a->idx % 2) {
			ret = hcclt_acquire_ws(a->fd, a->comm, s,
					       HCCLT_ENGINE_CPU, nn + 1, &t);
			if (!ret) {
				nn++;
				a->notifies_got++;
			}
		} else {
			__u32 k = a->idx % 3;

			ret = hcclt_acquire(a->fd, a->comm, HCCLT_ENGINE_CPU,
					    1, k, &t);
			if (!ret) {
				a->threads_got++;
				a->notifies_got += k;
			}
		}
		if (ret == -EDQUOT)
			break;
		if (ret)
			a->bad = ret;
	}
	return NULL;
}

TEST_F_TIMEOUT(core, race_acquire_and_ws_growth_share_quota, 120)
{
	pthread_barrier_t bar;
	int round;

	ASSERT_EQ(0, pthread_barrier_init(&bar, NULL, 8));
	for (round = 0; round < 5; round++) {
		struct mix_arg a[8];
		pthread_t pt[8];
		int i, t = 0, n = 0;
		__u64 c;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		for (i = 0; i < 8; i++) {
			a[i] = (struct mix_arg){ self->fd, c, i, 0, 0, 0, &bar };
			ASSERT_EQ(0, pthread_create(&pt[i], NULL, mix_race,
						    &a[i]));
		}
		for (i = 0; i < 8; i++)
			pthread_join(pt[i], NULL);
		for (i = 0; i < 8; i++) {
			EXPECT_EQ(0, a[i].bad);
			t += a[i].threads_got;
			n += a[i].notifies_got;
		}
		EXPECT_LE(t, 40);
		EXPECT_LE(n, 64);
		/* growers stop only at -EDQUOT: the notify quota is full */
		EXPECT_EQ(64, n);
		EXPECT_USAGE(self->fd, c, t, n);
		ASSERT_EQ(0, hcclt_comm_destroy(self->fd, c));
	}
	pthread_barrier_destroy(&bar);
}

struct churn_arg {
	int fd;
	_Atomic unsigned long long *latest;
	int stop_after;
	int bad;
	char what[96];
};

static void *churn_user(void *p)
{
	struct churn_arg *a = p;
	int i;

	for (i = 0; i < a->stop_after && !a->bad; i++) {
		__u64 c = atomic_load(a->latest), th[2], v[2];
		struct drm_hcclt_task t[2];
		int r;

		r = hcclt_acquire(a->fd, c, HCCLT_ENGINE_CPU, 2, 1, th);
		if (r == -ENOENT || r == -EDQUOT)
			continue;
		if (r) {
			a->bad = r;
			snprintf(a->what, sizeof(a->what), "acquire %d", r);
			break;
		}
		t[0] = hcclt_rec(th[1], 0);
		t[1] = hcclt_wait(0, 0);
		r = hcclt_submit(a->fd, th[0], t, 2);
		if (r && r != -ENOENT) {
			a->bad = r;
			snprintf(a->what, sizeof(a->what), "submit %d", r);
		}
		r = hcclt_export(a->fd, c, HCCLT_ENGINE_CCU, 2, th, v);
		if (r && r != -ENOENT) {
			a->bad = r;
			snprintf(a->what, sizeof(a->what), "export %d", r);
		}
		r = hcclt_sync(a->fd, th[1], 1);
		if (r && r != -ENOENT && r != -ETIMEDOUT && r != -ECANCELED) {
			a->bad = r;
			snprintf(a->what, sizeof(a->what), "sync %d", r);
		}
	}
	return NULL;
}

TEST_F_TIMEOUT(core, race_destroy_while_in_use, 120)
{
	_Atomic unsigned long long latest;
	struct churn_arg a[3];
	struct drm_hcclt_query q;
	pthread_t pt[3];
	int i, fd2;
	__u64 c;

	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, hcclt_comm_create(fd2, &c));
	atomic_store(&latest, c);
	for (i = 0; i < 3; i++) {
		memset(&a[i], 0, sizeof(a[i]));
		a[i].fd = fd2;
		a[i].latest = &latest;
		a[i].stop_after = 300;
		ASSERT_EQ(0, pthread_create(&pt[i], NULL, churn_user, &a[i]));
	}
	/* destroy and replace the communicator under their feet */
	for (i = 0; i < 150; i++) {
		__u64 n, old = atomic_load(&latest);

		ASSERT_EQ(0, hcclt_comm_create(fd2, &n));
		atomic_store(&latest, n);
		ASSERT_EQ(0, hcclt_comm_destroy(fd2, old));
	}
	for (i = 0; i < 3; i++) {
		pthread_join(pt[i], NULL);
		EXPECT_EQ(0, a[i].bad) {
			TH_LOG("thread %d: %s", i, a[i].what);
		}
	}
	close(fd2);
	ASSERT_EQ(0, hcclt_wait_pools(self->fd, &self->q0, &q, 10000));
}

/* ------------------------------------------------------------------ */
/* ACQUIRE WITH STREAM                                                */

static int ws_raw(int fd, __u64 comm, __u64 stream, __u32 engine, __u32 nn,
		  __u32 flags, __u32 pad, __u64 *out)
{
	struct drm_hcclt_thread_acquire_with_stream a;
	int ret;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.stream_id = stream;
	a.engine = engine;
	a.notify_num = nn;
	a.flags = flags;
	a.pad = pad;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM, &a);
	if (out)
		*out = a.thread_id;
	return ret;
}

TEST_F(core, ws_basic)
{
	struct drm_hcclt_thread_info ti;
	__u64 s, t;
	__u32 tc = 0;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU_TS, 1, &t));
	EXPECT_EQ(HCCLT_ID_KIND_THREAD, HCCLT_ID_KIND(t));
	EXPECT_EQ(0, t & HCCLT_ID_TAG_MASK);
	ASSERT_EQ(0, hcclt_thread_info(self->fd, t, &ti));
	EXPECT_EQ(s, ti.stream_id);
	EXPECT_EQ(self->comm, ti.comm_id);
	EXPECT_EQ(HCCLT_ENGINE_CPU_TS, ti.engine);
	EXPECT_EQ(1, ti.notify_num);
	EXPECT_EQ(HCCLT_THREAD_WRAPPED, ti.flags);
	/* the stream is not counted, its notify is */
	EXPECT_USAGE(self->fd, self->comm, 0, 1);
	EXPECT_EQ(0, hcclt_comm_usage(self->fd, self->comm, NULL, NULL, &tc));
	EXPECT_EQ(1, tc);
	EXPECT_POOLS(self->fd, self->q0, 1, 1);
	EXPECT_EQ(0, hcclt_sync(self->fd, t, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 0));
}

TEST_F(core, ws_same_stream_same_id_and_growth)
{
	struct drm_hcclt_thread_info ti;
	__u64 s, t, t2;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 1, &t));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 1, &t2));
	EXPECT_EQ(t, t2);
	EXPECT_USAGE(self->fd, self->comm, 0, 1);
	/* larger grows */
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 5, &t2));
	EXPECT_EQ(t, t2);
	ASSERT_EQ(0, hcclt_thread_info(self->fd, t, &ti));
	EXPECT_EQ(5, ti.notify_num);
	EXPECT_USAGE(self->fd, self->comm, 0, 5);
	EXPECT_POOLS(self->fd, self->q0, 1, 5);
	/* smaller changes nothing */
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 2, &t2));
	EXPECT_EQ(t, t2);
	ASSERT_EQ(0, hcclt_thread_info(self->fd, t, &ti));
	EXPECT_EQ(5, ti.notify_num);
	EXPECT_USAGE(self->fd, self->comm, 0, 5);
	/* notify 4 (new after growth) is usable */
	EXPECT_EQ(0, hcclt_record(self->fd, t, t, 4));
	/* and notify 0, from before it moved out of the thread's inline room */
	EXPECT_EQ(0, hcclt_record(self->fd, t, t, 0));
	EXPECT_EQ(0, hcclt_waitq(self->fd, t, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, t, 5000));
	EXPECT_EQ(0, hcclt_waitq(self->fd, t, 4, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, t, 5000));
}

TEST_F(core, ws_stream_not_counted_toward_40)
{
	__u64 s[41], t[41], th[40];
	__u32 tc = 0;
	int i;

	for (i = 0; i < 41; i++) {
		ASSERT_EQ(0, hcclt_stream_create(self->fd, &s[i]));
		ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s[i],
					      HCCLT_ENGINE_CCU, 1, &t[i]));
	}
	EXPECT_USAGE(self->fd, self->comm, 0, 41);
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CCU,
				   40, 0, th));
	EXPECT_USAGE(self->fd, self->comm, 40, 41);
	EXPECT_EQ(0, hcclt_comm_usage(self->fd, self->comm, NULL, NULL, &tc));
	EXPECT_EQ(81, tc);
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, 0, th));
}

TEST_F(core, ws_notifies_count_against_64)
{
	__u64 s, s2, t, th[2], c2;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s2));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 60, th));
	EXPECT_EQ(-EDQUOT, hcclt_acquire_ws(self->fd, self->comm, s,
					    HCCLT_ENGINE_CPU, 5, &t));
	EXPECT_USAGE(self->fd, self->comm, 1, 60);
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 3, &t));
	EXPECT_USAGE(self->fd, self->comm, 1, 63);
	/* growth is counted: 3 -> 5 adds 2, one too many */
	EXPECT_EQ(-EDQUOT, hcclt_acquire_ws(self->fd, self->comm, s,
					    HCCLT_ENGINE_CPU, 5, &t));
	EXPECT_USAGE(self->fd, self->comm, 1, 63);
	EXPECT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 4, &t));
	EXPECT_USAGE(self->fd, self->comm, 1, 64);
	/* a new wrap with notifies no longer fits */
	EXPECT_EQ(-EDQUOT, hcclt_acquire_ws(self->fd, self->comm, s2,
					    HCCLT_ENGINE_CPU, 1, &t));
	/* and the wrap's notifies block acquire too */
	EXPECT_EQ(-EDQUOT, hcclt_acquire(self->fd, self->comm, 0, 1, 1, th));
	EXPECT_POOLS(self->fd, self->q0, 3, 64);
	/* notify_num above 64 on an empty communicator */
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
	EXPECT_EQ(-EDQUOT, hcclt_acquire_ws(self->fd, c2, s2,
					    HCCLT_ENGINE_CPU, 65, &t));
	EXPECT_EQ(-EDQUOT, hcclt_acquire_ws(self->fd, c2, s2,
					    HCCLT_ENGINE_CPU, ~0U, &t));
	EXPECT_USAGE(self->fd, c2, 0, 0);
	EXPECT_EQ(0, hcclt_acquire_ws(self->fd, c2, s2, HCCLT_ENGINE_CPU, 64,
				      &t));
	EXPECT_USAGE(self->fd, c2, 0, 64);
}

TEST_F(core, ws_flags_pad_einval)
{
	__u64 s, t;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	EXPECT_EQ(-EINVAL, ws_raw(self->fd, self->comm, s, HCCLT_ENGINE_CPU, 1,
				  1, 0, &t));
	EXPECT_EQ(-EINVAL, ws_raw(self->fd, self->comm, s, HCCLT_ENGINE_CPU, 1,
				  0, 1, &t));
	/* flags before ids */
	EXPECT_EQ(-EINVAL, ws_raw(self->fd, HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
				  s, HCCLT_ENGINE_CPU, 1, 1, 0, &t));
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
	EXPECT_POOLS(self->fd, self->q0, 1, 0);
}

TEST_F(core, ws_enoent)
{
	__u64 s, t, th;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd,
					    HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
					    s, HCCLT_ENGINE_CPU, 1, &t));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd, self->comm,
					    HCCLT_BOGUS_ID(HCCLT_ID_KIND_STREAM),
					    HCCLT_ENGINE_CPU, 1, &t));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd, self->comm, 0,
					    HCCLT_ENGINE_CPU, 1, &t));
	/* ids before the engine */
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd, self->comm,
					    HCCLT_BOGUS_ID(HCCLT_ID_KIND_STREAM),
					    HCCLT_ENGINE_AIV, 65, &t));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd,
					    HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
					    s, HCCLT_ENGINE_COUNT, 1, &t));
	/* wrong kinds: a thread id as stream, a stream id as comm */
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 0, &th));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd, self->comm, th,
					    HCCLT_ENGINE_CPU, 1, &t));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd, s, s,
					    HCCLT_ENGINE_CPU, 1, &t));
	/* stale stream */
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, s));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd, self->comm, s,
					    HCCLT_ENGINE_CPU, 1, &t));
	EXPECT_USAGE(self->fd, self->comm, 1, 0);
}

TEST_F(core, ws_engine_einval)
{
	static const __u32 bad[] = { HCCLT_ENGINE_AICPU, HCCLT_ENGINE_AICPU_TS,
		HCCLT_ENGINE_AIV, HCCLT_ENGINE_COUNT, ~0U };
	static const __u32 good[] = { HCCLT_ENGINE_CPU, HCCLT_ENGINE_CPU_TS,
		HCCLT_ENGINE_CCU };
	unsigned int i;
	__u64 s, t, c;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	for (i = 0; i < HCCLT_ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, hcclt_acquire_ws(self->fd, self->comm, s,
						    bad[i], 1, &t));
		/* engine before quota */
		EXPECT_EQ(-EINVAL, hcclt_acquire_ws(self->fd, self->comm, s,
						    bad[i], 65, &t));
	}
	EXPECT_USAGE(self->fd, self->comm, 0, 0);
	for (i = 0; i < HCCLT_ARRAY_SIZE(good); i++) {
		struct drm_hcclt_thread_info ti;

		ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
		ASSERT_EQ(0, hcclt_acquire_ws(self->fd, c, s, good[i], 1, &t));
		ASSERT_EQ(0, hcclt_thread_info(self->fd, t, &ti));
		EXPECT_EQ(good[i], ti.engine);
	}
}

/* As hcomm: the same stream with another engine is the same thread. */
TEST_F(core, ws_other_engine_same_comm_same_thread)
{
	struct drm_hcclt_thread_info ti;
	__u64 s, t, t2, c2;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 2, &t));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU_TS, 2, &t2));
	EXPECT_EQ(t, t2);
	ASSERT_EQ(0, hcclt_thread_info(self->fd, t, &ti));
	EXPECT_EQ(HCCLT_ENGINE_CPU, ti.engine);
	/* the quota still holds */
	EXPECT_EQ(-EDQUOT, hcclt_acquire_ws(self->fd, self->comm, s,
					    HCCLT_ENGINE_CCU, 65, &t2));
	EXPECT_USAGE(self->fd, self->comm, 0, 2);
	/* another communicator may wrap it with another engine */
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, c2, s, HCCLT_ENGINE_CPU_TS, 2,
				      &t2));
	EXPECT_NE(t, t2);
	EXPECT_POOLS(self->fd, self->q0, 1, 4);
	/* destroying one communicator leaves the other's thread alone */
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, t, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, t2, 0));
	EXPECT_POOLS(self->fd, self->q0, 1, 2);
}

TEST_F(core, ws_stream_destroy_keeps_slot)
{
	__u64 s, t;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 1, &t));
	ASSERT_EQ(0, hcclt_stream_destroy(self->fd, s));
	/* the id is gone at once */
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, s));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, s, 0));
	EXPECT_EQ(-ENOENT, hcclt_acquire_ws(self->fd, self->comm, s,
					    HCCLT_ENGINE_CPU, 1, NULL));
	/* the thread keeps the stream and its slot */
	EXPECT_POOLS(self->fd, self->q0, 1, 1);
	EXPECT_EQ(0, hcclt_record(self->fd, t, t, 0));
	EXPECT_EQ(0, hcclt_waitq(self->fd, t, 0, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, t, 5000));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

TEST_F(core, ws_stream_survives_comm_destroy)
{
	__u64 s, t;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU, 1, &t));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, t, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 0));
	EXPECT_POOLS(self->fd, self->q0, 1, 0);
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
	EXPECT_POOLS(self->fd, self->q0, 0, 0);
}

/* ------------------------------------------------------------------ */
/* EXPORT                                                             */

static int export_raw(int fd, __u64 comm, __u32 eng, __u32 num,
		      const __u64 *in, __u64 *out, __u32 flags, __u32 pad)
{
	struct drm_hcclt_thread_export a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.dst_engine = eng;
	a.thread_num = num;
	a.threads_ptr = (__u64)(uintptr_t)in;
	a.exported_ptr = (__u64)(uintptr_t)out;
	a.flags = flags;
	a.pad = pad;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_EXPORT, &a);
}

static int count_threads(int fd)
{
	__u32 n = 0;

	if (hcclt_info(fd, HCCLT_INFO_SCOPE_FILE, NULL, NULL, NULL, &n))
		return -1;
	return n;
}

TEST_F(core, export_basic_and_cached)
{
	struct drm_hcclt_thread_info ti, tv;
	__u64 a, v, v2, w, x;
	__u32 tc = 0;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm,
				   HCCLT_ENGINE_AICPU_TS, 1, 2, &a));
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU_TS, 1,
				  &a, &v));
	EXPECT_NE(a, v);
	EXPECT_EQ(HCCLT_ID_KIND_THREAD, HCCLT_ID_KIND(v));
	EXPECT_EQ(0, v & HCCLT_ID_TAG_MASK);
	ASSERT_EQ(0, hcclt_thread_info(self->fd, a, &ti));
	ASSERT_EQ(0, hcclt_thread_info(self->fd, v, &tv));
	EXPECT_EQ(HCCLT_THREAD_VIEW, tv.flags);
	EXPECT_EQ(HCCLT_ENGINE_CPU_TS, tv.engine);
	EXPECT_EQ(ti.stream_id, tv.stream_id);
	EXPECT_EQ(2, tv.notify_num);
	EXPECT_EQ(self->comm, tv.comm_id);
	/* no quota, no pool */
	EXPECT_USAGE(self->fd, self->comm, 1, 2);
	EXPECT_EQ(0, hcclt_comm_usage(self->fd, self->comm, NULL, NULL, &tc));
	EXPECT_EQ(1, tc);
	EXPECT_POOLS(self->fd, self->q0, 1, 2);
	/* cached per engine */
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU_TS, 1,
				  &a, &v2));
	EXPECT_EQ(v, v2);
	EXPECT_EQ(2, count_threads(self->fd));
	/* own engine: own id */
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_AICPU_TS,
				  1, &a, &w));
	EXPECT_EQ(a, w);
	/* a view exports the thread it views */
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_AICPU_TS,
				  1, &v, &w));
	EXPECT_EQ(a, w);
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 1,
				  &v, &w));
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 1,
				  &a, &x));
	EXPECT_EQ(w, x);
	EXPECT_NE(v, w);
	EXPECT_EQ(3, count_threads(self->fd));
	EXPECT_USAGE(self->fd, self->comm, 1, 2);
}

TEST_F(core, export_many_no_quota)
{
	__u64 th[40], ex[40], ex2[40];
	int i;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_AICPU,
				   40, 1, th));
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU, 40,
				  th, ex));
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU, 40,
				  th, ex2));
	for (i = 0; i < 40; i++) {
		EXPECT_EQ(ex[i], ex2[i]);
		EXPECT_NE(th[i], ex[i]);
	}
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU_TS, 40,
				  ex, ex2));
	EXPECT_USAGE(self->fd, self->comm, 40, 40);
	EXPECT_POOLS(self->fd, self->q0, 40, 40);
	EXPECT_EQ(120, count_threads(self->fd));
}

TEST_F(core, export_shares_notifies)
{
	__u64 s, cpu, aicpu, ex_cpu, ex_aicpu;

	/* seed example 3, the AICPU side played by this thread */
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, s,
				      HCCLT_ENGINE_CPU_TS, 1, &cpu));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm,
				   HCCLT_ENGINE_AICPU_TS, 1, 1, &aicpu));
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CPU_TS, 1,
				  &aicpu, &ex_cpu));
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_AICPU_TS,
				  1, &cpu, &ex_aicpu));
	/* host records on the AICPU thread's CPU_TS view ... */
	ASSERT_EQ(0, hcclt_record(self->fd, cpu, ex_cpu, 0));
	ASSERT_EQ(0, hcclt_waitq(self->fd, cpu, 0, 5));
	/* ... which releases the wait on the original */
	ASSERT_EQ(0, hcclt_waitq(self->fd, aicpu, 0, 5));
	EXPECT_EQ(0, hcclt_sync(self->fd, aicpu, 10000));
	ASSERT_EQ(0, hcclt_record(self->fd, aicpu, ex_aicpu, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, s, 10000));
	EXPECT_EQ(0, hcclt_sync(self->fd, cpu, 0));

	/* a record submitted on a view runs on the viewed stream */
	ASSERT_EQ(0, hcclt_waitq(self->fd, cpu, 0, 0));
	ASSERT_EQ(0, hcclt_record(self->fd, ex_cpu, cpu, 0));
	EXPECT_EQ(0, hcclt_sync(self->fd, aicpu, 10000));
	EXPECT_EQ(0, hcclt_sync(self->fd, cpu, 10000));
}

TEST_F(core, export_flags_pad_einval)
{
	__u64 a, v = 0;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 1, &a));
	EXPECT_EQ(-EINVAL, export_raw(self->fd, self->comm, HCCLT_ENGINE_CCU,
				      1, &a, &v, 1, 0));
	EXPECT_EQ(-EINVAL, export_raw(self->fd, self->comm, HCCLT_ENGINE_CCU,
				      1, &a, &v, 0, 1));
	/* before the comm */
	EXPECT_EQ(-EINVAL, export_raw(self->fd,
				      HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
				      HCCLT_ENGINE_CCU, 1, &a, &v, 1, 0));
	EXPECT_EQ(1, count_threads(self->fd));
}

TEST_F(core, export_unknown_comm_enoent)
{
	__u64 a, v, c;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 1, &a));
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd,
					HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
					HCCLT_ENGINE_CCU, 1, &a, &v));
	/* before engine and count */
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd,
					HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM),
					HCCLT_ENGINE_AIV, 0, &a, &v));
	/* the thread's id is not a communicator */
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd, a, HCCLT_ENGINE_CCU, 1, &a,
					&v));
	/* another communicator of the same file does not know the thread */
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c));
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd, c, HCCLT_ENGINE_CCU, 1, &a,
					&v));
	EXPECT_EQ(1, count_threads(self->fd));
}

TEST_F(core, export_engine_einval)
{
	__u64 a, v;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 1, &a));
	/* AIV: -EOPNOTSUPP, as from ACQUIRE */
	EXPECT_EQ(-EOPNOTSUPP, hcclt_export(self->fd, self->comm,
					    HCCLT_ENGINE_AIV, 1, &a, &v));
	EXPECT_EQ(-EINVAL, hcclt_export(self->fd, self->comm,
					HCCLT_ENGINE_COUNT, 1, &a, &v));
	EXPECT_EQ(-EINVAL, hcclt_export(self->fd, self->comm, ~0U, 1, &a, &v));
	/* before the pointers */
	EXPECT_EQ(-EOPNOTSUPP, hcclt_export(self->fd, self->comm,
					    HCCLT_ENGINE_AIV, 1, NULL, NULL));
	EXPECT_EQ(-EINVAL, hcclt_export(self->fd, self->comm,
					HCCLT_ENGINE_COUNT, 1, NULL, NULL));
	EXPECT_EQ(1, count_threads(self->fd));
}

TEST_F(core, export_count_einval)
{
	__u64 a[41], v[41];

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 40, 0, a));
	a[40] = a[0];
	EXPECT_EQ(-EINVAL, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					0, a, v));
	EXPECT_EQ(-EINVAL, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					41, a, v));
	EXPECT_EQ(-EINVAL, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					~0U, a, v));
	/* before the pointers */
	EXPECT_EQ(-EINVAL, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					41, NULL, NULL));
	EXPECT_EQ(40, count_threads(self->fd));
	EXPECT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 40,
				  a, v));
	EXPECT_EQ(80, count_threads(self->fd));
}

TEST_F(core, export_efault)
{
	long pg = sysconf(_SC_PAGESIZE);
	__u64 a[2], v[2];
	char *map;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 2, 1, a));
	EXPECT_EQ(-EFAULT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					1, NULL, v));
	/* unreadable threads_ptr comes before unknown ids */
	EXPECT_EQ(-EFAULT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					2, (__u64 *)(uintptr_t)16, v));
	EXPECT_EQ(-EFAULT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					2, a, NULL));
	map = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	EXPECT_EQ(-EFAULT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					2, a, (__u64 *)map));
	munmap(map, pg);
	/* the export itself is allowed to stay (ids are cached), but a
	 * later export must work and the quota is untouched
	 */
	EXPECT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 2,
				  a, v));
	EXPECT_USAGE(self->fd, self->comm, 2, 2);
}

/*
 * Stalled output page: ACQUIRE or EXPORT writes its ids into a page whose
 * fault userspace holds back (userfaultfd here; a FUSE mapping does the
 * same). Meanwhile the communicator's lock must be free: INFO and another
 * acquire on the same communicator return. Then the fault is resolved and
 * the call completes, once.
 */
struct stall {
	int fd;
	__u64 comm;
	__u64 src;		/* export: the thread to export */
	__u64 *out;		/* the stalled page */
	int ret;
	_Atomic int done;
};

static void *stall_call(void *arg)
{
	struct stall *st = arg;

	if (st->src)
		st->ret = hcclt_export(st->fd, st->comm, HCCLT_ENGINE_CCU, 1,
				       &st->src, st->out);
	else
		st->ret = hcclt_acquire(st->fd, st->comm, HCCLT_ENGINE_CPU_TS,
					1, 1, st->out);
	atomic_store(&st->done, 1);
	return NULL;
}

static void *stall_probe(void *arg)
{
	struct stall *st = arg;
	__u32 t, n;
	__u64 th;

	st->ret = hcclt_comm_usage(st->fd, st->comm, &t, &n, NULL);
	if (!st->ret)
		st->ret = hcclt_acquire(st->fd, st->comm, HCCLT_ENGINE_CPU_TS,
					1, 1, &th);
	atomic_store(&st->done, 1);
	return NULL;
}

/* Wait up to @ms for @flag; return whether it was set. */
static int stall_wait(_Atomic int *flag, int ms)
{
	for (; ms > 0 && !atomic_load(flag); ms -= 10)
		usleep(10000);
	return atomic_load(flag);
}

/*
 * One page whose first touch userfaultfd holds back, and the page that
 * serves it (zeroed; the test may fill it in first).
 */
struct uffd_page {
	int uffd;
	long size;
	char *map;		/* the held-back page */
	char *src;		/* what it gets */
};

static void uffd_page_setup(struct __test_metadata *_metadata,
			    struct uffd_page *up, int uffd)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	up->uffd = uffd;
	up->size = sysconf(_SC_PAGESIZE);
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_API, &api));
	up->map = mmap(NULL, up->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	up->src = mmap(NULL, up->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, up->map);
	ASSERT_NE(MAP_FAILED, up->src);
	memset(up->src, 0, up->size);
	reg.range.start = (uintptr_t)up->map;
	reg.range.len = up->size;
	ASSERT_EQ(0, ioctl(uffd, UFFDIO_REGISTER, &reg));
}

/* Wait until something touches the page (and waits for it). */
static void uffd_page_wait_fault(struct __test_metadata *_metadata,
				 struct uffd_page *up)
{
	struct pollfd pfd = { .fd = up->uffd, .events = POLLIN };
	struct uffd_msg msg;

	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	ASSERT_EQ((ssize_t)sizeof(msg), read(up->uffd, &msg, sizeof(msg)));
	ASSERT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
}

/* Give the page: whoever waits for it goes on. */
static void uffd_page_serve(struct __test_metadata *_metadata,
			    struct uffd_page *up)
{
	struct uffdio_copy cp = {
		.dst = (uintptr_t)up->map,
		.src = (uintptr_t)up->src,
		.len = up->size,
	};

	ASSERT_EQ(0, ioctl(up->uffd, UFFDIO_COPY, &cp));
}

static void uffd_page_fini(struct uffd_page *up)
{
	munmap(up->map, up->size);
	munmap(up->src, up->size);
}

static void stalled_output(struct __test_metadata *_metadata, int uffd,
			   int fd, __u64 comm, __u64 src, __u64 *got)
{
	struct stall call = { .fd = fd, .comm = comm, .src = src };
	struct stall probe = { .fd = fd, .comm = comm };
	struct uffd_page up;
	pthread_t tc, tp;
	int probed;

	uffd_page_setup(_metadata, &up, uffd);
	call.out = (__u64 *)up.map;
	ASSERT_EQ(0, pthread_create(&tc, NULL, stall_call, &call));
	/* The call now waits for the page. */
	uffd_page_wait_fault(_metadata, &up);
	EXPECT_FALSE(atomic_load(&call.done));

	/* The communicator is not locked meanwhile. */
	ASSERT_EQ(0, pthread_create(&tp, NULL, stall_probe, &probe));
	probed = stall_wait(&probe.done, HCCLT_SLOW_MS);
	EXPECT_TRUE(probed);
	EXPECT_FALSE(atomic_load(&call.done));

	/* Give the page: the call completes (the probe too, if it hung). */
	uffd_page_serve(_metadata, &up);
	pthread_join(tc, NULL);
	pthread_join(tp, NULL);
	EXPECT_EQ(0, probe.ret);
	EXPECT_EQ(0, call.ret);
	*got = ((__u64 *)up.map)[0];
	EXPECT_NE(0, *got);
	uffd_page_fini(&up);
}

/* userfaultfd, or skip the test. */
#define UFFD_OR_SKIP(uffd) do {						\
	(uffd) = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);	\
	if ((uffd) < 0)							\
		SKIP(return, "userfaultfd: %s", strerror(errno));	\
} while (0)

TEST_F(core, acquire_stalled_output_holds_no_lock)
{
	__u64 got;
	int uffd;

	UFFD_OR_SKIP(uffd);
	stalled_output(_metadata, uffd, self->fd, self->comm, 0, &got);
	close(uffd);
	/* Once: the call's thread and the probe's, no more. */
	EXPECT_USAGE(self->fd, self->comm, 2, 2);
	EXPECT_POOLS(self->fd, self->q0, 2, 2);
}

TEST_F(core, export_stalled_output_holds_no_lock)
{
	__u64 th, view, again;
	int uffd;

	UFFD_OR_SKIP(uffd);
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU_TS,
				   1, 1, &th));
	stalled_output(_metadata, uffd, self->fd, self->comm, th, &view);
	close(uffd);
	/* The exported thread and the probe's; a view is no thread. */
	EXPECT_USAGE(self->fd, self->comm, 2, 2);
	EXPECT_POOLS(self->fd, self->q0, 2, 2);
	/* One view was published: exporting again returns it. */
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 1,
				  &th, &again));
	EXPECT_EQ(view, again);
}

/*
 * Pages that keep losing each other: a user buffer that straddles two
 * pages, A and B, registered with userfaultfd. Whenever one of them is
 * touched while missing, a handler thread first drops the other one
 * (MADV_DONTNEED, as reclaim would) and then maps the touched one from its
 * source copy. Touching A then B works (an ordinary copy faults A in,
 * then B), but no moment ever has both pages present: a call that faults
 * the whole buffer in first and then touches it with page faults disabled
 * (as the driver did, four times, before it copied user memory with
 * ordinary faults) fails every attempt with -EFAULT. The buffer is valid
 * all along, so every call must succeed.
 */
struct pingpong {
	int uffd;
	long pg;
	char *map;		/* pages A and B */
	char *src;		/* what A and B hold when mapped */
	int faults;
	_Atomic int stop;
	pthread_t th;
};

static void *pingpong_handler(void *arg)
{
	struct pingpong *pp = arg;
	struct pollfd pfd = { .fd = pp->uffd, .events = POLLIN };
	struct uffdio_copy cp = { .len = pp->pg };
	struct uffd_msg msg;
	long page;

	while (!atomic_load(&pp->stop)) {
		if (poll(&pfd, 1, 50) != 1)
			continue;
		if (read(pp->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
		    msg.event != UFFD_EVENT_PAGEFAULT)
			continue;
		page = (msg.arg.pagefault.address - (uintptr_t)pp->map) /
		       pp->pg;
		/* Drop the other page, then give the touched one. */
		madvise(pp->map + (1 - page) * pp->pg, pp->pg, MADV_DONTNEED);
		cp.dst = (uintptr_t)pp->map + page * pp->pg;
		cp.src = (uintptr_t)pp->src + page * pp->pg;
		cp.mode = 0;
		ioctl(pp->uffd, UFFDIO_COPY, &cp);
		pp->faults++;
	}
	return NULL;
}

/* Set up @pp, the source filled in by the caller before pingpong_start(). */
static void pingpong_setup(struct __test_metadata *_metadata,
			   struct pingpong *pp, int uffd)
{
	pp->uffd = uffd;
	pp->pg = sysconf(_SC_PAGESIZE);
	pp->map = mmap(NULL, 2 * pp->pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pp->src = mmap(NULL, 2 * pp->pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, pp->map);
	ASSERT_NE(MAP_FAILED, pp->src);
	memset(pp->src, 0, 2 * pp->pg);
}

static void pingpong_start(struct __test_metadata *_metadata,
			   struct pingpong *pp)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };

	ASSERT_EQ(0, ioctl(pp->uffd, UFFDIO_API, &api));
	reg.range.start = (uintptr_t)pp->map;
	reg.range.len = 2 * pp->pg;
	ASSERT_EQ(0, ioctl(pp->uffd, UFFDIO_REGISTER, &reg));
	ASSERT_EQ(0, pthread_create(&pp->th, NULL, pingpong_handler, pp));
}

static void pingpong_fini(struct pingpong *pp)
{
	atomic_store(&pp->stop, 1);
	pthread_join(pp->th, NULL);
	munmap(pp->map, 2 * pp->pg);
	munmap(pp->src, 2 * pp->pg);
}

TEST_F(core, acquire_output_losing_pages_succeeds)
{
	struct pingpong pp = { 0 };
	__u32 threads, notifies, count;
	int uffd;

	UFFD_OR_SKIP(uffd);
	pingpong_setup(_metadata, &pp, uffd);
	pingpong_start(_metadata, &pp);
	/* Two ids: the first at the end of A, the second at the start of B. */
	EXPECT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU_TS,
				   2, 1, (__u64 *)(pp.map + pp.pg - 8)));
	pingpong_fini(&pp);
	close(uffd);
	EXPECT_USAGE(self->fd, self->comm, 2, 2);
	EXPECT_EQ(0, hcclt_comm_usage(self->fd, self->comm, &threads,
				      &notifies, &count));
	EXPECT_EQ(2, count);
}

TEST_F(core, export_output_losing_pages_succeeds)
{
	struct pingpong pp = { 0 };
	__u64 th[2], again[2];
	int uffd;

	UFFD_OR_SKIP(uffd);
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU_TS,
				   2, 1, th));
	pingpong_setup(_metadata, &pp, uffd);
	/* The input ids too lose their pages: the end of A, start of B. */
	memcpy(pp.src + pp.pg - 8, th, sizeof(th));
	pingpong_start(_metadata, &pp);
	EXPECT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 2,
				  (__u64 *)(pp.map + pp.pg - 8),
				  (__u64 *)(pp.map + pp.pg - 8)));
	pingpong_fini(&pp);
	close(uffd);
	/* Both views were made: exporting again returns two valid views. */
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 2,
				  th, again));
	EXPECT_NE(0, again[0]);
	EXPECT_NE(0, again[1]);
	EXPECT_USAGE(self->fd, self->comm, 2, 2);
}

TEST_F(core, submit_tasks_losing_pages_succeed)
{
	struct drm_hcclt_task *t;
	struct pingpong pp = { 0 };
	__u64 th;
	int uffd;

	UFFD_OR_SKIP(uffd);
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU_TS,
				   1, 1, &th));
	pingpong_setup(_metadata, &pp, uffd);
	/* Two records to itself: the first ends A, the second starts B. */
	t = (struct drm_hcclt_task *)(pp.src + pp.pg) - 1;
	t[0] = hcclt_rec(th, 0);
	t[1] = hcclt_rec(th, 0);
	pingpong_start(_metadata, &pp);
	t = (struct drm_hcclt_task *)(pp.map + pp.pg) - 1;
	EXPECT_EQ(0, hcclt_submit(self->fd, th, t, 2));
	pingpong_fini(&pp);
	close(uffd);
	EXPECT_EQ(0, hcclt_sync(self->fd, th, 5000));
}

TEST_F(core, export_bad_id_all_or_nothing)
{
	__u64 a[3], v[3], s, c2, b;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 2, 1, a));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c2));
	ASSERT_EQ(0, hcclt_acquire(self->fd, c2, 0, 1, 1, &b));
	a[2] = HCCLT_BOGUS_ID(HCCLT_ID_KIND_THREAD);
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					3, a, v));
	a[2] = s;	/* a stream id */
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					3, a, v));
	a[2] = b;	/* a thread of another communicator */
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					3, a, v));
	a[2] = 0;
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					3, a, v));
	/* unknown id before the unwritable output */
	EXPECT_EQ(-ENOENT, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU,
					3, a, NULL));
	/* nothing was created for the two good ids */
	EXPECT_EQ(3, count_threads(self->fd));
}

TEST_F(core, export_dies_with_thread)
{
	__u64 a, v;

	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 1, &a));
	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_CCU, 1,
				  &a, &v));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, v, 0));
	EXPECT_EQ(-ENOENT, hcclt_record(self->fd, v, v, 0));
	EXPECT_EQ(0, count_threads(self->fd));
}

/* ------------------------------------------------------------------ */
/* Ids: other files, wrong kinds                                      */

TEST_F(core, ids_of_another_file_enoent)
{
	__u64 c2, s2, t2, t1, v2;
	int fd2, fd3;

	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, hcclt_comm_create(fd2, &c2));
	ASSERT_EQ(0, hcclt_stream_create(fd2, &s2));
	ASSERT_EQ(0, hcclt_acquire(fd2, c2, HCCLT_ENGINE_CPU, 1, 1, &t2));
	ASSERT_EQ(0, hcclt_export(fd2, c2, HCCLT_ENGINE_CCU, 1, &t2, &v2));
	/* a file with no objects at all: every id of fd2 is unknown */
	fd3 = hcclt_open();
	ASSERT_LE(0, fd3);
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(fd3, c2));
	EXPECT_EQ(-ENOENT, hcclt_acquire(fd3, c2, 0, 1, 1, &t1));
	EXPECT_EQ(-ENOENT, hcclt_export(fd3, c2, HCCLT_ENGINE_CCU, 1, &t2,
					&t1));
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(fd3, s2));
	EXPECT_EQ(-ENOENT, hcclt_sync(fd3, s2, 0));
	EXPECT_EQ(-ENOENT, hcclt_sync(fd3, t2, 0));
	EXPECT_EQ(-ENOENT, hcclt_sync(fd3, v2, 0));
	EXPECT_EQ(-ENOENT, hcclt_record(fd3, t2, t2, 0));
	EXPECT_EQ(-ENOENT, hcclt_record(fd3, s2, t2, 0));
	/* in a file with its own objects: foreign ids in the wrappers */
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, HCCLT_ENGINE_CPU, 1,
				   1, &t1));
	if (t1 != t2)
		EXPECT_EQ(-ENOENT, hcclt_record(self->fd, t1, t2, 0));
	if (s2 != t1) {
		__u64 s1;

		ASSERT_EQ(0, hcclt_stream_create(self->fd, &s1));
		if (s1 != s2)
			EXPECT_EQ(-ENOENT, hcclt_acquire_ws(fd3, c2, s1,
							    HCCLT_ENGINE_CPU,
							    1, NULL));
	}
	close(fd3);
	/* fd2 is untouched */
	EXPECT_EQ(0, hcclt_comm_usage(fd2, c2, NULL, NULL, NULL));
	EXPECT_EQ(0, hcclt_sync(fd2, t2, 0));
	close(fd2);
}

TEST_F(core, wrong_kind_enoent)
{
	__u64 s, t;

	ASSERT_EQ(0, hcclt_stream_create(self->fd, &s));
	ASSERT_EQ(0, hcclt_acquire(self->fd, self->comm, 0, 1, 1, &t));
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd, s));
	EXPECT_EQ(-ENOENT, hcclt_comm_destroy(self->fd, t));
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, t));
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, self->comm));
	EXPECT_EQ(-ENOENT, hcclt_acquire(self->fd, s, 0, 1, 1, &t));
	EXPECT_EQ(-ENOENT, hcclt_acquire(self->fd, t, 0, 1, 1, &t));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, self->comm, 0));
	EXPECT_EQ(-ENOENT, hcclt_record(self->fd, self->comm, t, 0));
	/* a stream id is not a destination thread */
	EXPECT_EQ(-ENOENT, hcclt_record(self->fd, t, s, 0));
	EXPECT_EQ(-ENOENT, hcclt_record(self->fd, t, self->comm, 0));
	/* tagged ids (bits 63:56) are not ids of this file */
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, t | (0x5aULL << 56), 0));
	EXPECT_EQ(-ENOENT, hcclt_sync(self->fd, s | (1ULL << 63), 0));
	EXPECT_EQ(-ENOENT, hcclt_stream_destroy(self->fd, s | (1ULL << 56)));
	/* all still exist */
	EXPECT_EQ(0, hcclt_sync(self->fd, t, 0));
	EXPECT_EQ(0, hcclt_stream_destroy(self->fd, s));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
}

/* ------------------------------------------------------------------ */
/* INFO                                                               */

TEST_F(core, info_flags_scope_einval)
{
	struct drm_hcclt_info a;

	memset(&a, 0, sizeof(a));
	a.flags = 1;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_INFO, &a));
	memset(&a, 0, sizeof(a));
	a.scope = 2;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_INFO, &a));
	a.scope = ~0U;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_INFO, &a));
}

TEST_F(core, info_sizes_and_partial_fill)
{
	struct drm_hcclt_comm_info ci[4];
	struct drm_hcclt_thread_info ti[4];
	__u32 nc = 0, nt = 0;
	__u64 c[2], th[3];

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c[0]));
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &c[1]));
	ASSERT_EQ(0, hcclt_acquire(self->fd, c[1], 0, 3, 1, th));
	ASSERT_EQ(0, hcclt_info(self->fd, 0, NULL, &nc, NULL, &nt));
	EXPECT_EQ(3, nc);
	EXPECT_EQ(3, nt);
	memset(ci, 0xa5, sizeof(ci));
	memset(ti, 0xa5, sizeof(ti));
	nc = 1;
	nt = 2;
	ASSERT_EQ(0, hcclt_info(self->fd, 0, ci, &nc, ti, &nt));
	EXPECT_EQ(3, nc);
	EXPECT_EQ(3, nt);
	EXPECT_EQ((__u32)getpid(), ci[0].pid);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, ci[1].comm_id);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, ti[2].thread_id);
	EXPECT_EQ(c[1], ti[0].comm_id);
}

TEST_F(core, info_efault)
{
	__u32 nc = 1, nt = 0;

	EXPECT_EQ(-EFAULT, hcclt_info(self->fd, 0,
				      (struct drm_hcclt_comm_info *)(uintptr_t)8,
				      &nc, NULL, &nt));
	EXPECT_EQ(-EFAULT, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_INFO, NULL));
}

TEST_F(core, info_scope_user)
{
	struct drm_hcclt_comm_info ci[512];
	__u32 n = 512, i;
	int fd2, found = 0;
	__u64 c2, t2;

	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, hcclt_comm_create(fd2, &c2));
	ASSERT_EQ(0, hcclt_acquire(fd2, c2, 0, 1, 3, &t2));
	ASSERT_EQ(0, hcclt_info(self->fd, HCCLT_INFO_SCOPE_USER, ci, &n,
				NULL, NULL));
	EXPECT_LE(2, n);
	for (i = 0; i < n && i < 512; i++)
		if (ci[i].comm_id == c2 && ci[i].pid == (__u32)getpid())
			found++;
	EXPECT_LE(1, found);
	n = 512;
	ASSERT_EQ(0, hcclt_info(self->fd, HCCLT_INFO_SCOPE_FILE, ci, &n,
				NULL, NULL));
	EXPECT_EQ(1, n);
	EXPECT_EQ(self->comm, ci[0].comm_id);
	close(fd2);
}

/* ------------------------------------------------------------------ */
/* Device pools at their loaded size                                  */

TEST_F_TIMEOUT(core, stream_pool_exhaustion_enospc, 120)
{
	struct drm_hcclt_query q;
	__u32 left = self->q0.streams_total - self->q0.streams_used;
	__u64 th[40], c, s;
	int fd2;

	if (left > 8192)
		SKIP(return, "stream pool too large (%u)", left);
	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	while (left) {
		__u32 n = left < 40 ? left : 40;

		ASSERT_EQ(0, hcclt_comm_create(fd2, &c));
		ASSERT_EQ(0, hcclt_acquire(fd2, c, HCCLT_ENGINE_CPU, n, 0, th));
		left -= n;
	}
	ASSERT_EQ(0, hcclt_query(fd2, &q));
	EXPECT_EQ(q.streams_total, q.streams_used);
	ASSERT_EQ(0, hcclt_comm_create(fd2, &c));
	EXPECT_EQ(-ENOSPC, hcclt_acquire(fd2, c, HCCLT_ENGINE_CPU, 1, 0, th));
	EXPECT_EQ(-ENOSPC, hcclt_stream_create(fd2, &s));
	EXPECT_EQ(-ENOSPC, hcclt_stream_create(self->fd, &s));
	/* quota errors still win over the pool */
	EXPECT_EQ(-EDQUOT, hcclt_acquire(fd2, c, HCCLT_ENGINE_CPU, 41, 0, th));
	close(fd2);
	ASSERT_EQ(0, hcclt_wait_pools(self->fd, &self->q0, &q, 10000));
	EXPECT_EQ(0, hcclt_stream_create(self->fd, &s));
}

TEST_F_TIMEOUT(core, notify_pool_exhaustion_enospc, 120)
{
	struct drm_hcclt_query q;
	__u32 left = self->q0.notifies_total - self->q0.notifies_used;
	__u64 c, s, t;
	int fd2;

	if (left > 65536)
		SKIP(return, "notify pool too large (%u)", left);
	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	/* one stream, wrapped by many communicators with 64 notifies each */
	ASSERT_EQ(0, hcclt_stream_create(fd2, &s));
	while (left) {
		__u32 n = left < 64 ? left : 64;

		ASSERT_EQ(0, hcclt_comm_create(fd2, &c));
		ASSERT_EQ(0, hcclt_acquire_ws(fd2, c, s, HCCLT_ENGINE_CPU, n,
					      &t));
		left -= n;
	}
	ASSERT_EQ(0, hcclt_query(fd2, &q));
	EXPECT_EQ(q.notifies_total, q.notifies_used);
	ASSERT_EQ(0, hcclt_comm_create(fd2, &c));
	EXPECT_EQ(-ENOSPC, hcclt_acquire_ws(fd2, c, s, HCCLT_ENGINE_CPU, 1, &t));
	EXPECT_EQ(-ENOSPC, hcclt_acquire(fd2, c, HCCLT_ENGINE_CPU, 1, 1, &t));
	/* threads without notifies still fit */
	EXPECT_EQ(0, hcclt_acquire(fd2, c, HCCLT_ENGINE_CPU, 1, 0, &t));
	EXPECT_EQ(-EDQUOT, hcclt_acquire(fd2, c, HCCLT_ENGINE_CPU, 1, 65, &t));
	close(fd2);
	ASSERT_EQ(0, hcclt_wait_pools(self->fd, &self->q0, &q, 10000));
}

/* ------------------------------------------------------------------ */
/* Teardown                                                           */

TEST_F_TIMEOUT(core, close_with_resources_returns_pools, 60)
{
	struct drm_hcclt_query q0, q;
	__u64 c[3], th[40], s[4], t, v[40];
	struct drm_hcclt_task tk[2];
	int fd2, i, fence = -1;

	ASSERT_EQ(0, hcclt_query(self->fd, &q0));
	fd2 = hcclt_open();
	ASSERT_LE(0, fd2);
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, hcclt_comm_create(fd2, &c[i]));
	ASSERT_EQ(0, hcclt_acquire(fd2, c[0], HCCLT_ENGINE_AICPU, 32, 2, th));
	ASSERT_EQ(0, hcclt_export(fd2, c[0], HCCLT_ENGINE_CPU, 32, th, v));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, hcclt_stream_create(fd2, &s[i]));
	ASSERT_EQ(0, hcclt_acquire_ws(fd2, c[1], s[0], HCCLT_ENGINE_CPU, 7, &t));
	ASSERT_EQ(0, hcclt_acquire_ws(fd2, c[2], s[0], HCCLT_ENGINE_CCU, 1,
				      NULL));
	ASSERT_EQ(0, hcclt_acquire(fd2, c[2], HCCLT_ENGINE_CPU_TS, 8, 7, th));
	/* parked forever (no timeout) and queued work behind it */
	for (i = 0; i < 8; i++) {
		tk[0] = hcclt_wait(0, 0);
		tk[1] = hcclt_rec(th[(i + 1) % 8], 1);
		ASSERT_EQ(0, hcclt_submit(fd2, th[i], tk, 2));
	}
	ASSERT_EQ(0, hcclt_waitq(fd2, t, 3, 0));
	tk[0] = hcclt_wait(1, 0);
	if (q0.features & HCCLT_FEATURE_FENCE_OUT) {
		ASSERT_EQ(0, hcclt_submit_ex(fd2, th[0], tk, 1,
					     HCCLT_SUBMIT_FENCE_OUT, &fence,
					     NULL));
		ASSERT_LE(0, fence);
	}
	ASSERT_EQ(0, hcclt_query(self->fd, &q));
	EXPECT_EQ(q0.streams_used + 32 + 4 + 8, q.streams_used);
	EXPECT_EQ(q0.notifies_used + 64 + 7 + 1 + 56, q.notifies_used);
	EXPECT_EQ(q0.files + 1, q.files);
	EXPECT_EQ(q0.comms + 3, q.comms);
	close(fd2);
	ASSERT_EQ(0, hcclt_wait_pools(self->fd, &q0, &q, 5000)) {
		TH_LOG("after close: streams %u/%u notifies %u/%u comms %u/%u files %u/%u",
		       q.streams_used, q0.streams_used, q.notifies_used,
		       q0.notifies_used, q.comms, q0.comms, q.files, q0.files);
	}
	if (fence >= 0) {
		struct pollfd pfd = { .fd = fence, .events = POLLIN };

		/* the fence of cancelled work is signalled, never stuck */
		EXPECT_EQ(1, poll(&pfd, 1, 5000));
		close(fence);
	}
}

/*
 * Stalled task page vs unplug: SUBMIT reads its tasks from a page whose
 * fault userspace holds back (userfaultfd; a FUSE mapping does the same)
 * while the device is unbound. drm_dev_unplug() waits for every ioctl
 * inside drm_dev_enter(), so the stalled fault must not be inside one: the
 * unbind returns meanwhile, and the SUBMIT, once the page comes, answers
 * -ENODEV. The device is bound again at the end.
 */

struct unbind {
	char name[64];
	int ret;
	_Atomic int done;
};

static void *unbind_call(void *arg)
{
	struct unbind *u = arg;

	u->ret = hcclt_write_str(HCCLT_PDRV_DIR "/unbind", u->name);
	atomic_store(&u->done, 1);
	return NULL;
}

enum stall_kind { STALL_SUBMIT, STALL_ACQUIRE, STALL_EXPORT, STALL_INFO };

struct stall_unplug {
	enum stall_kind kind;
	int fd;
	__u64 comm, thread;
	void *page;		/* the stalled page */
	int ret;
	_Atomic int done;
};

static void *stall_unplug_call(void *arg)
{
	struct stall_unplug *st = arg;
	__u32 n = 4;

	switch (st->kind) {
	case STALL_SUBMIT:	/* reads its tasks there */
		st->ret = hcclt_submit(st->fd, st->thread, st->page, 1);
		break;
	case STALL_ACQUIRE:	/* writes its ids there */
		st->ret = hcclt_acquire(st->fd, st->comm, HCCLT_ENGINE_CPU, 1,
					1, st->page);
		break;
	case STALL_EXPORT:	/* writes its ids there */
		st->ret = hcclt_export(st->fd, st->comm, HCCLT_ENGINE_CCU, 1,
				       &st->thread, st->page);
		break;
	case STALL_INFO:	/* copies its records out there */
		st->ret = hcclt_info(st->fd, HCCLT_INFO_SCOPE_FILE, st->page,
				     &n, NULL, NULL);
		break;
	}
	atomic_store(&st->done, 1);
	return NULL;
}

/*
 * The call of @kind waits for a page userspace holds back while the device
 * is unbound: the unbind must return meanwhile, and the call, once the
 * page comes, answer @want. The device is bound again at the end.
 */
static void stalled_unplug(struct __test_metadata *_metadata,
			   enum stall_kind kind, int want)
{
	struct stall_unplug call = { .kind = kind };
	struct unbind u = { 0 };
	struct uffd_page up;
	int uffd, fd, unbound, i;
	pthread_t tc, tu;

	if (access(HCCLT_PDRV_DIR "/unbind", W_OK))
		SKIP(return, "%s/unbind: %s", HCCLT_PDRV_DIR, strerror(errno));
	UFFD_OR_SKIP(uffd);
	fd = hcclt_open();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, hcclt_platform_name(fd, u.name, sizeof(u.name)));
	ASSERT_EQ(0, hcclt_comm_create(fd, &call.comm));
	ASSERT_EQ(0, hcclt_acquire(fd, call.comm, HCCLT_ENGINE_CPU, 1, 1,
				   &call.thread));

	uffd_page_setup(_metadata, &up, uffd);
	/* SUBMIT's task, once the page comes: a record to itself. */
	*(struct drm_hcclt_task *)up.src = hcclt_rec(call.thread, 0);
	call.fd = fd;
	call.page = up.map;
	ASSERT_EQ(0, pthread_create(&tc, NULL, stall_unplug_call, &call));
	uffd_page_wait_fault(_metadata, &up);

	/* Unbind while the call waits for its page: it must not wait. */
	ASSERT_EQ(0, pthread_create(&tu, NULL, unbind_call, &u));
	unbound = stall_wait(&u.done, HCCLT_SLOW_MS);
	EXPECT_TRUE(unbound);
	EXPECT_FALSE(atomic_load(&call.done));

	uffd_page_serve(_metadata, &up);
	pthread_join(tc, NULL);
	pthread_join(tu, NULL);
	EXPECT_EQ(0, u.ret);
	EXPECT_EQ(want, call.ret);
	close(fd);
	close(uffd);
	uffd_page_fini(&up);

	ASSERT_EQ(0, hcclt_write_str(HCCLT_PDRV_DIR "/bind", u.name));
	for (i = 0; i < HCCLT_SLOW_MS / 10 && (fd = hcclt_open()) < 0; i++)
		usleep(10000);
	ASSERT_LE(0, fd);
	close(fd);
}

/* Runs again once the page is there, and finds the device gone. */
TEST(submit_stalled_tasks_do_not_hold_unplug)
{
	stalled_unplug(_metadata, STALL_SUBMIT, -ENODEV);
}

TEST(acquire_stalled_output_does_not_hold_unplug)
{
	stalled_unplug(_metadata, STALL_ACQUIRE, -ENODEV);
}

TEST(export_stalled_output_does_not_hold_unplug)
{
	stalled_unplug(_metadata, STALL_EXPORT, -ENODEV);
}

/* Walked the tables before the unplug; the copy out then completes. */
TEST(info_stalled_output_does_not_hold_unplug)
{
	stalled_unplug(_metadata, STALL_INFO, 0);
}

/* ---- kernel memory is charged to the caller's memory cgroup ---- */

/*
 * Wrapping threads cost no quota and no pool unit: only memcg bounds them.
 * Enough of them that the memcg charge batches (64 pages) blur the bytes
 * per thread by less than 20.
 */
#define KMEM_WRAPPERS	16000

/*
 * In cgroup @cg: open the device, make KMEM_WRAPPERS communicators, then
 * wrap one stream on each; write the bytes memory.current grew by per
 * wrapping thread to @out. Exit status 0, or the step that failed.
 */
static int kmem_child(const char *cg, int out)
{
	static __u64 comms[KMEM_WRAPPERS];
	long long m0, m1, per;
	__u64 s, t;
	int fd, i;

	if (hcclt_cg_write(cg, "cgroup.procs", "0"))
		return 10;
	fd = hcclt_open();
	if (fd < 0 || hcclt_stream_create(fd, &s))
		return 11;
	for (i = 0; i < KMEM_WRAPPERS; i++)
		if (hcclt_comm_create(fd, &comms[i]))
			return 12;
	m0 = hcclt_cg_read_ll(cg, "memory.current");
	for (i = 0; i < KMEM_WRAPPERS; i++)
		if (hcclt_acquire_ws(fd, comms[i], s, HCCLT_ENGINE_CPU, 0, &t))
			return 13;
	m1 = hcclt_cg_read_ll(cg, "memory.current");
	if (m0 < 0 || m1 < 0)
		return 14;
	per = (m1 - m0) / KMEM_WRAPPERS;
	if (write(out, &per, sizeof(per)) != sizeof(per))
		return 15;
	close(fd);
	return 0;
}

/*
 * A thread that wraps a stream takes no thread quota and no pool unit, so
 * a user can make one per communicator, without end: each costs a thread
 * object (about 200 bytes with no notify: no notify array is allocated for
 * it). That memory must be charged to the caller's memory cgroup;
 * uncharged, memory.current grows by the id table's share only (tens of
 * bytes per thread).
 */
FIXTURE(kmem) {
	int unused;
};

FIXTURE_SETUP(kmem)
{
}

FIXTURE_TEARDOWN(kmem)
{
}

/* 32,000 ioctls: minutes on a KASAN kernel under TCG on a busy host. */
TEST_F_TIMEOUT(kmem, charged_to_memory_cgroup, 900)
{
	long long per = -1;
	struct hcclt_cg cg;
	int status;

	if (hcclt_cg_make(&cg, "hcclt-kmem"))
		SKIP(return, "%s", cg.why);
	ASSERT_EQ(0, hcclt_cg_run(&cg, kmem_child, &per, &status));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	/* The cgroup is empty once the child is gone. */
	EXPECT_EQ(0, hcclt_cg_remove(&cg));
	TH_LOG("memory.current grew by %lld bytes per wrapping thread", per);
	/* The thread object; charge batching is far smaller. */
	EXPECT_LE(100, per);
	/* No 64-entry (512-byte) notify array for a thread with none. */
	EXPECT_GT(400, per);
}

/* DRM_IOCTL_HCCLT_FILE_ATTACH (uAPI 1.12): each refusal, then the use. */
static int attach(int fd, int target, __u32 flags, __u64 reserved)
{
	struct drm_hcclt_file_attach a;

	memset(&a, 0, sizeof(a));
	a.fd = target;
	a.flags = flags;
	a.reserved = reserved;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_FILE_ATTACH, &a);
}

TEST_F(core, attach_flags_einval)
{
	int b = hcclt_open();

	ASSERT_LE(0, b);
	EXPECT_EQ(-EINVAL, attach(b, self->fd, 1, 0));
	close(b);
}

TEST_F(core, attach_reserved_einval)
{
	int b = hcclt_open();

	ASSERT_LE(0, b);
	EXPECT_EQ(-EINVAL, attach(b, self->fd, 0, 1));
	close(b);
}

TEST_F(core, attach_ebadf)
{
	int b = hcclt_open();

	ASSERT_LE(0, b);
	EXPECT_EQ(-EBADF, attach(b, -1, 0, 0));
	close(b);
}

TEST_F(core, attach_not_a_device_file)
{
	int b = hcclt_open(), n = open("/dev/null", O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, b);
	ASSERT_LE(0, n);
	EXPECT_EQ(-EINVAL, attach(b, n, 0, 0));
	close(n);
	close(b);
}

TEST_F(core, attach_self_einval)
{
	int b = hcclt_open();

	ASSERT_LE(0, b);
	EXPECT_EQ(-EINVAL, attach(b, b, 0, 0));
	close(b);
}

/* The fixture's file has a communicator: it cannot act for another. */
TEST_F(core, attach_busy)
{
	int b = hcclt_open();

	ASSERT_LE(0, b);
	EXPECT_EQ(-EBUSY, attach(self->fd, b, 0, 0));
	close(b);
}

/* A file acted for cannot act for another: no chain, no cycle. */
TEST_F(core, attach_no_chain_no_cycle)
{
	int x = hcclt_open(), y = hcclt_open(), z = hcclt_open();

	ASSERT_LE(0, x);
	ASSERT_LE(0, y);
	ASSERT_LE(0, z);
	ASSERT_EQ(0, attach(x, y, 0, 0));
	/* y is acted for by x: it may not act for z; nor for x, which acts. */
	EXPECT_EQ(-EBUSY, attach(y, z, 0, 0));
	EXPECT_EQ(-EINVAL, attach(y, x, 0, 0));
	close(x);
	/* x gone, y is free again. */
	EXPECT_EQ(0, attach(y, z, 0, 0));
	close(y);
	close(z);
}

/*
 * Two files attaching to each other at once: one of them is refused, so
 * that closing both frees both (no cycle holds them open).
 */
static void *attach_thread(void *p)
{
	int *fds = p;

	fds[2] = attach(fds[0], fds[1], 0, 0);
	return NULL;
}

TEST_F(core, attach_concurrent_cycle)
{
	int i, a[3], b[3], both = 0;
	pthread_t t1, t2;

	for (i = 0; i < 200; i++) {
		a[0] = b[1] = hcclt_open();
		a[1] = b[0] = hcclt_open();
		ASSERT_LE(0, a[0]);
		ASSERT_LE(0, a[1]);
		ASSERT_EQ(0, pthread_create(&t1, NULL, attach_thread, a));
		ASSERT_EQ(0, pthread_create(&t2, NULL, attach_thread, b));
		pthread_join(t1, NULL);
		pthread_join(t2, NULL);
		both += !a[2] && !b[2];
		EXPECT_TRUE(!a[2] || !b[2]);
		close(a[0]);
		close(a[1]);
	}
	EXPECT_EQ(0, both);
}

TEST_F(core, attach_use)
{
	int b = hcclt_open(), c = hcclt_open();
	struct drm_hcclt_query q;
	__u64 th[2], comm;

	ASSERT_LE(0, b);
	ASSERT_LE(0, c);
	ASSERT_EQ(0, attach(b, self->fd, 0, 0));
	EXPECT_EQ(-EBUSY, attach(b, self->fd, 0, 0));
	/* No chains: c may not act for a file that acts for another. */
	EXPECT_EQ(-EINVAL, attach(c, b, 0, 0));
	/* b works on the fixture's communicator, charged to it. */
	ASSERT_EQ(0, hcclt_acquire(b, self->comm, HCCLT_ENGINE_AICPU_TS, 2, 1, th));
	EXPECT_USAGE(self->fd, self->comm, 2, 2);
	EXPECT_EQ(0, hcclt_record(b, th[0], th[1], 0));
	EXPECT_EQ(0, hcclt_waitq(self->fd, th[1], 0, 5));
	EXPECT_EQ(0, hcclt_sync(b, th[1], 5000));
	ASSERT_EQ(0, hcclt_query(b, &q));
	EXPECT_NE(0, q.features & HCCLT_FEATURE_FILE_ATTACH);
	/* A communicator b makes is the fixture file's. */
	ASSERT_EQ(0, hcclt_comm_create(b, &comm));
	EXPECT_EQ(0, hcclt_comm_destroy(self->fd, comm));
	/* The fixture's file, closed, lives on while b acts for it. */
	close(self->fd);
	self->fd = b;
	EXPECT_EQ(0, hcclt_record(b, th[0], th[1], 0));
	EXPECT_EQ(0, hcclt_waitq(b, th[1], 0, 5));
	EXPECT_EQ(0, hcclt_sync(b, th[1], 5000));
	close(c);
}

HCCLT_HARNESS_MAIN
