// SPDX-License-Identifier: GPL-2.0
/*
 * Issue 20, bug 1: with SLAB_TYPESAFE_BY_RCU object caches (until 12-05),
 * a stream lookup on one device could pin a stream object that was freed
 * and recycled for another device, because it took its reference before
 * it checked identity. If that other device was unbound and its last file
 * closed while the lookup held the reference, the lookup's put was the
 * stream's last and its release gave the slot back to that device. The
 * caches are plain now (objects freed after a grace period, identity
 * checked before the reference) and a stream pins its device; the test
 * stays as the scenario's guard.
 *
 * Needs two devices (sim_devices=2), the lookup_delay_ms test hook (built
 * on the debug kernels, see driver/Kbuild) and root for the unbind; skips
 * otherwise. The race is made deterministic with the hook, which holds
 * the lookup in two places and steps with the test: between its xarray
 * load and its reference (the stream is destroyed meanwhile and a stream
 * created on the other device, on the same CPU, so the slab hands out the
 * same object), then after its RCU unlock (the other device's file is
 * closed and the device unbound meanwhile). The test itself only expects -ENOENT and a rebind; the
 * kernel log (KASAN, checked by tools/vm/run) is what shows the bug.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "hcclt_common.h"
#include "../../kselftest_harness.h"

#define DELAY_PARAM	"/sys/module/hcclthread/parameters/lookup_delay_ms"
#define DELAY_MS	5000
#define STAGE_PARAM	"/sys/module/hcclthread/parameters/lookup_stage"

/* The held lookup's stage (see driver/hcclt_stream.c). */
static int read_stage(void)
{
	char buf[16] = "";
	int fd = open(STAGE_PARAM, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = 0;
	close(fd);
	return atoi(buf);
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

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

struct looker {
	int fd;
	__u64 stream;
	int ret;
};

/* The stale lookup: a fence-only SUBMIT on device B's stream. */
static void *look(void *arg)
{
	struct looker *l = arg;
	int fence = -1;

	pin_cpu(0);
	l->ret = hcclt_submit_ex(l->fd, l->stream, NULL, 0,
				 HCCLT_SUBMIT_FENCE_OUT, &fence, NULL);
	if (fence >= 0)
		close(fence);
	return NULL;
}

TEST(stale_stream_lookup_outlived_by_its_device)
{
	struct looker l = { .fd = -1 };
	struct unbind u = { 0 };
	char name[2][64], ms[16];
	int fd[2], i;
	__u64 sa;
	pthread_t t, tu;

	if (access(DELAY_PARAM, W_OK))
		SKIP(return, "no lookup_delay_ms test hook (a debug build)");
	if (access(HCCLT_PDRV_DIR "/unbind", W_OK))
		SKIP(return, "%s/unbind: %s", HCCLT_PDRV_DIR, strerror(errno));
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (hcclt_open_two(fd, name) < 2)
		SKIP(return, "needs two devices (sim_devices=2)");

	/* fd[0]: device A (unbound); fd[1]: device B (looked up in). */
	snprintf(u.name, sizeof(u.name), "%s", name[0]);
	pin_cpu(1);
	l.fd = fd[1];
	ASSERT_EQ(0, hcclt_stream_create(fd[1], &l.stream));
	snprintf(ms, sizeof(ms), "%d", DELAY_MS);
	ASSERT_EQ(0, hcclt_write_str(DELAY_PARAM, ms));
	ASSERT_EQ(0, pthread_create(&t, NULL, look, &l));

	/* The lookup loaded the stream and waits before its reference. */
	for (i = 0; i < HCCLT_SLOW_MS / 10 && read_stage() != 1; i++)
		usleep(10000);
	ASSERT_EQ(1, read_stage());
	/* Free it and have the slab hand it to device A (same CPU). */
	EXPECT_EQ(0, hcclt_stream_destroy(fd[1], l.stream));
	EXPECT_EQ(0, hcclt_stream_create(fd[0], &sa));
	ASSERT_EQ(0, hcclt_write_str(STAGE_PARAM, "2"));
	/* It holds a reference (on A's stream) and waits after its unlock. */
	for (i = 0; i < HCCLT_SLOW_MS / 10 && read_stage() != 3; i++)
		usleep(10000);
	EXPECT_EQ(3, read_stage());
	close(fd[0]);
	/*
	 * Unbind A meanwhile. drm_dev_unplug() waits for the DRM core's one
	 * SRCU, which the lookup holds (it runs in drm_dev_enter() of B), so
	 * the unbind cannot finish before the lookup has left: let it go on
	 * after a while, whether the unbind returned or not.
	 */
	ASSERT_EQ(0, pthread_create(&tu, NULL, unbind_call, &u));
	for (i = 0; i < 50 && !atomic_load(&u.done); i++)
		usleep(10000);
	ksft_print_msg("unbind %s before the lookup's put\n",
		       atomic_load(&u.done) ? "returned" : "waited");
	ASSERT_EQ(0, hcclt_write_str(STAGE_PARAM, "4"));

	pthread_join(t, NULL);
	pthread_join(tu, NULL);
	EXPECT_EQ(0, u.ret);
	ASSERT_EQ(0, hcclt_write_str(DELAY_PARAM, "0"));
	/* Whatever it pinned, the stream it looked for was destroyed. */
	EXPECT_EQ(-ENOENT, l.ret);
	close(fd[1]);

	ASSERT_EQ(0, hcclt_write_str(HCCLT_PDRV_DIR "/bind", name[0]));
	for (i = 0; i < HCCLT_SLOW_MS / 10 && (fd[0] = hcclt_open()) < 0; i++)
		usleep(10000);
	ASSERT_LE(0, fd[0]);
	close(fd[0]);
}

TEST_HARNESS_MAIN
