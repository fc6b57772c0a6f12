// SPDX-License-Identifier: GPL-2.0
/*
 * Operator labels (uAPI 1.11): DRM_IOCTL_HCCLT_OP_INFO sets the operator a
 * communicator runs, DRM_IOCTL_HCCLT_INFO_ARRAY (HCCLT_INFO_TYPE_OPS)
 * lists it, to another process too. One test per validation errno.
 */
#include <sys/wait.h>
#include <time.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

static struct drm_hcclt_op_info reg_args(__u64 comm, __u64 thread,
					 const char *tag)
{
	struct drm_hcclt_op_info a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.thread_id = thread;
	a.phase = HCCLT_OP_PHASE_REGISTERED;
	a.op_type = 6;		/* HCCL_CMD_ALLGATHER */
	a.reduce_op = 0;
	a.data_type = 4;
	a.data_count = 1000;
	a.engine = HCCLT_ENGINE_CPU_TS;
	a.root = ~0U;
	snprintf(a.alg_tag, sizeof(a.alg_tag), "%s", tag);
	return a;
}

static struct drm_hcclt_op_info rep_args(__u64 comm, __u32 phase,
					 __u64 begin, const char *kernel)
{
	struct drm_hcclt_op_info a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.phase = phase;
	a.begin_ns = begin;
	if (kernel)
		snprintf(a.kernel, sizeof(a.kernel), "%s", kernel);
	return a;
}

static int op_info(int fd, struct drm_hcclt_op_info *a)
{
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_OP_INFO, a);
}

/* The HCCLT_INFO_TYPE_OPS entry of @comm of a file of this user. */
static int find_op(int fd, __u32 pid, __u64 comm, struct drm_hcclt_info_op *out)
{
	struct drm_hcclt_info_op e[64];
	struct drm_hcclt_info_array a;
	__u32 i;
	int ret;

	memset(&a, 0, sizeof(a));
	do {
		a.scope = HCCLT_INFO_SCOPE_USER;
		a.type = HCCLT_INFO_TYPE_OPS;
		a.element_size = sizeof(e[0]);
		a.num_element = HCCLT_ARRAY_SIZE(e);
		a.buffer = (__u64)(uintptr_t)e;
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO_ARRAY, &a);
		if (ret)
			return ret;
		for (i = 0; i < a.num_element; i++) {
			if (e[i].pid == pid && e[i].comm_id == comm) {
				*out = e[i];
				return 0;
			}
		}
	} while (a.cursor);
	return -ENOENT;
}

FIXTURE(op) {
	int fd;
	__u64 comm, thread, stream;
	struct drm_hcclt_query q;
};

FIXTURE_SETUP(op)
{
	self->fd = hcclt_open();
	if (self->fd < 0)
		SKIP(return, "no hcclthread device");
	ASSERT_EQ(0, hcclt_query(self->fd, &self->q));
	if (!(self->q.features & HCCLT_FEATURE_OP_INFO))
		SKIP(return, "driver without operator labels");
	ASSERT_EQ(0, hcclt_comm_create(self->fd, &self->comm));
	ASSERT_EQ(0, hcclt_stream_create(self->fd, &self->stream));
	ASSERT_EQ(0, hcclt_acquire_ws(self->fd, self->comm, self->stream,
				      HCCLT_ENGINE_CPU_TS, 1, &self->thread));
}

FIXTURE_TEARDOWN(op)
{
	if (self->fd >= 0)
		close(self->fd);
}

TEST_F(op, query)
{
	EXPECT_GE(self->q.uapi_minor, 11);
}

TEST_F(op, register_kernel_report)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, self->thread,
					      "hccl_custom_allgather_ring");
	struct drm_hcclt_info_op e;
	__s64 t0 = hcclt_now_ns();

	/* Nothing registered yet: listed, phase NONE. */
	ASSERT_EQ(0, find_op(self->fd, getpid(), self->comm, &e));
	EXPECT_EQ(HCCLT_OP_PHASE_NONE, e.op.phase);
	EXPECT_EQ(0, e.op.op_index);

	ASSERT_EQ(0, op_info(self->fd, &a));
	EXPECT_EQ(1, a.op_index);
	ASSERT_EQ(0, find_op(self->fd, getpid(), self->comm, &e));
	EXPECT_EQ(HCCLT_OP_PHASE_REGISTERED, e.op.phase);
	EXPECT_EQ(1, e.op.op_index);
	EXPECT_EQ(self->stream, e.op.stream_id);
	EXPECT_EQ(6, e.op.op_type);
	EXPECT_EQ(4, e.op.data_type);
	EXPECT_EQ(1000, e.op.data_count);
	EXPECT_EQ(HCCLT_ENGINE_CPU_TS, e.op.engine);
	EXPECT_EQ(~0U, e.op.root);
	EXPECT_STREQ("hccl_custom_allgather_ring", e.op.alg_tag);
	EXPECT_STREQ("", e.op.kernel);
	EXPECT_GE((__s64)e.op.since_ns, t0);

	a = rep_args(self->comm, HCCLT_OP_PHASE_KERNEL, (__u64)t0, "Kern");
	ASSERT_EQ(0, op_info(self->fd, &a));
	EXPECT_EQ(1, a.op_index);
	ASSERT_EQ(0, find_op(self->fd, getpid(), self->comm, &e));
	EXPECT_EQ(HCCLT_OP_PHASE_KERNEL, e.op.phase);
	EXPECT_STREQ("Kern", e.op.kernel);
	EXPECT_STREQ("hccl_custom_allgather_ring", e.op.alg_tag);

	a = rep_args(self->comm, HCCLT_OP_PHASE_REPORTED, 0, NULL);
	ASSERT_EQ(0, op_info(self->fd, &a));
	ASSERT_EQ(0, find_op(self->fd, getpid(), self->comm, &e));
	EXPECT_EQ(HCCLT_OP_PHASE_REPORTED, e.op.phase);
	EXPECT_STREQ("Kern", e.op.kernel);

	/* The next operator: index 2, no host thread, kernel cleared. */
	a = reg_args(self->comm, 0, "second");
	ASSERT_EQ(0, op_info(self->fd, &a));
	EXPECT_EQ(2, a.op_index);
	ASSERT_EQ(0, find_op(self->fd, getpid(), self->comm, &e));
	EXPECT_EQ(0, e.op.stream_id);
	EXPECT_STREQ("", e.op.kernel);
	EXPECT_STREQ("second", e.op.alg_tag);
}

/* An exported view names its primary's stream. */
TEST_F(op, view_names_the_stream)
{
	struct drm_hcclt_op_info a;
	struct drm_hcclt_info_op e;
	__u64 view;

	ASSERT_EQ(0, hcclt_export(self->fd, self->comm, HCCLT_ENGINE_AICPU_TS,
				  1, &self->thread, &view));
	a = reg_args(self->comm, view, "v");
	ASSERT_EQ(0, op_info(self->fd, &a));
	ASSERT_EQ(0, find_op(self->fd, getpid(), self->comm, &e));
	EXPECT_EQ(self->stream, e.op.stream_id);
}

/* Another process of the user sees the label (hcclthread-smi does so). */
TEST_F(op, another_process_sees_it)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, self->thread, "seen");
	pid_t me = getpid(), pid;
	int st;

	ASSERT_EQ(0, op_info(self->fd, &a));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		struct drm_hcclt_info_op e;
		int fd = hcclt_open();

		if (fd < 0 || find_op(fd, me, self->comm, &e))
			_exit(2);
		_exit(strcmp(e.op.alg_tag, "seen") ||
		      e.op.phase != HCCLT_OP_PHASE_REGISTERED);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st));
}

/* A label goes with its communicator. */
TEST_F(op, destroyed_comm_enoent)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "x");
	struct drm_hcclt_info_op e;

	ASSERT_EQ(0, op_info(self->fd, &a));
	ASSERT_EQ(0, hcclt_comm_destroy(self->fd, self->comm));
	EXPECT_EQ(-ENOENT, find_op(self->fd, getpid(), self->comm, &e));
	a = reg_args(self->comm, 0, "x");
	EXPECT_EQ(-ENOENT, op_info(self->fd, &a));
}

/* One test per validation of the ioctl. */
TEST_F(op, einval_flags)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	a.flags = 1;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_pad)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	a.pad = 1;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_reserved)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	a.reserved[1] = 1;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_phase)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	a.phase = HCCLT_OP_PHASE_NONE;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
	a.phase = HCCLT_OP_PHASE_REPORTED + 1;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_tag_unterminated)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	memset(a.alg_tag, 'a', sizeof(a.alg_tag));
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_kernel_unterminated)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	ASSERT_EQ(0, op_info(self->fd, &a));
	a = rep_args(self->comm, HCCLT_OP_PHASE_KERNEL, 0, NULL);
	memset(a.kernel, 'k', sizeof(a.kernel));
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_register_with_begin_or_kernel)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	a.begin_ns = 1;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
	a = reg_args(self->comm, 0, "t");
	strcpy(a.kernel, "k");
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_report_with_register_fields)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	ASSERT_EQ(0, op_info(self->fd, &a));
	a = rep_args(self->comm, HCCLT_OP_PHASE_KERNEL, 0, "k");
	a.op_type = 1;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
	a = rep_args(self->comm, HCCLT_OP_PHASE_KERNEL, 0, "k");
	a.thread_id = self->thread;
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
	a = rep_args(self->comm, HCCLT_OP_PHASE_KERNEL, 0, "k");
	strcpy(a.alg_tag, "t");
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
	/* An issue report names no kernel. */
	a = rep_args(self->comm, HCCLT_OP_PHASE_REPORTED, 0, "k");
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, einval_begin_after_now)
{
	struct drm_hcclt_op_info a = reg_args(self->comm, 0, "t");

	ASSERT_EQ(0, op_info(self->fd, &a));
	a = rep_args(self->comm, HCCLT_OP_PHASE_REPORTED,
		     (__u64)hcclt_now_ns() + 3600ULL * 1000000000ULL, NULL);
	EXPECT_EQ(-EINVAL, op_info(self->fd, &a));
}

TEST_F(op, enoent_comm)
{
	struct drm_hcclt_op_info a = reg_args(self->comm + 1, 0, "t");

	EXPECT_EQ(-ENOENT, op_info(self->fd, &a));
	a = reg_args(HCCLT_BOGUS_ID(HCCLT_ID_KIND_COMM), 0, "t");
	EXPECT_EQ(-ENOENT, op_info(self->fd, &a));
}

TEST_F(op, enoent_thread_of_another_comm)
{
	struct drm_hcclt_op_info a;
	__u64 comm2, t2;

	ASSERT_EQ(0, hcclt_comm_create(self->fd, &comm2));
	ASSERT_EQ(0, hcclt_acquire(self->fd, comm2, HCCLT_ENGINE_CPU_TS, 1, 1,
				   &t2));
	a = reg_args(self->comm, t2, "t");
	EXPECT_EQ(-ENOENT, op_info(self->fd, &a));
	a = reg_args(self->comm, self->stream, "t");	/* a stream, no thread */
	EXPECT_EQ(-ENOENT, op_info(self->fd, &a));
}

TEST_F(op, enoent_report_before_register)
{
	struct drm_hcclt_op_info a = rep_args(self->comm,
					      HCCLT_OP_PHASE_KERNEL, 0, "k");

	EXPECT_EQ(-ENOENT, op_info(self->fd, &a));
	a = rep_args(self->comm, HCCLT_OP_PHASE_REPORTED, 0, NULL);
	EXPECT_EQ(-ENOENT, op_info(self->fd, &a));
}

TEST_F(op, info_array_op_size_v1)
{
	struct drm_hcclt_info_array a;
	char buf[HCCLT_INFO_OP_SIZE_V1 * 4];

	memset(&a, 0, sizeof(a));
	a.scope = HCCLT_INFO_SCOPE_FILE;
	a.type = HCCLT_INFO_TYPE_OPS;
	a.element_size = HCCLT_INFO_OP_SIZE_V1 - 1;
	a.num_element = 4;
	a.buffer = (__u64)(uintptr_t)buf;
	EXPECT_EQ(-EINVAL, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_INFO_ARRAY, &a));
	a.element_size = HCCLT_INFO_OP_SIZE_V1;
	EXPECT_EQ(0, hcclt_ioctl(self->fd, DRM_IOCTL_HCCLT_INFO_ARRAY, &a));
	EXPECT_EQ(1, a.num_element);
}

HCCLT_HARNESS_MAIN
