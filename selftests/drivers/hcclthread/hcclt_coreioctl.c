// SPDX-License-Identifier: GPL-2.0
/*
 * The DRM core ioctls on every hcclthread node.
 *
 *   hcclt_coreioctl [SEED]
 *
 * Walks every core ioctl number (those outside DRM_COMMAND_BASE ..
 * DRM_COMMAND_END) on every node whose driver is hcclthread: the accel
 * nodes, and where there are none (Linux 6.1) the render and card nodes.
 * Each number is tried with the DRM type byte and with another one, with
 * every direction and several argument sizes, once with a zeroed argument
 * and once with random bytes.
 *
 * Only DRM_IOCTL_VERSION, DRM_IOCTL_GET_CAP, DRM_IOCTL_GEM_CLOSE (which
 * frees device memory) and, with HCCLT_FEATURE_SYNCOBJ, the syncobj ioctls
 * (SUBMIT's in- and out-fences) may reach the DRM core, with any argument;
 * every other core number must be refused with EOPNOTSUPP by the driver
 * before the core sees it, and every number with another type byte with
 * ENOTTY (the 32-bit compat path of the core dispatches on the number
 * alone; this test is 64-bit and checks the answer the driver shares). Without that, DRM_IOCTL_GET_UNIQUE with a zeroed
 * argument oopses an accel node (an accel file has no drm_master). The
 * syncobj ioctls with a handle array are also called with the counts 0, 1,
 * HCCLT_MAX_SYNCOBJ_HANDLES, one more and 2^32 - 1 (syncobj_counts()),
 * and, on the first node, while a second thread flips the counts between
 * 1 and 2^32 - 1 (syncobj_race(): every node of the module shares the
 * code that reads the count, and the race is most of this program's time
 * under KASAN).
 * Kernel log reports are caught by the caller (the VM runner fails on
 * them).
 * Afterwards each node must still answer QUERY.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include "hcclt_common.h"
#include "../../kselftest.h"

#define ARG_SIZE	256

static __u64 rng_state;

static __u64 rnd(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static int syncobj;	/* the driver has HCCLT_FEATURE_SYNCOBJ */

static int allowed(unsigned int nr)
{
	static const unsigned long sync_cmds[] = {
		DRM_IOCTL_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_DESTROY,
		DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE,
		DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_RESET,
		DRM_IOCTL_SYNCOBJ_SIGNAL, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
		DRM_IOCTL_SYNCOBJ_QUERY, DRM_IOCTL_SYNCOBJ_TRANSFER,
		DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
	};
	unsigned int i;

	for (i = 0; syncobj && i < HCCLT_ARRAY_SIZE(sync_cmds); i++)
		if (nr == _IOC_NR(sync_cmds[i]))
			return 1;
	/* DRM_IOCTL_SYNCOBJ_EVENTFD (Linux 6.6), not in older headers. */
	if (syncobj && nr == 0xcf)
		return 1;
	return nr == _IOC_NR(DRM_IOCTL_VERSION) ||
	       nr == _IOC_NR(DRM_IOCTL_GET_CAP) ||
	       nr == _IOC_NR(DRM_IOCTL_GEM_CLOSE);
}

/*
 * The syncobj ioctls with a handle array, each with the counts 0, 1,
 * HCCLT_MAX_SYNCOBJ_HANDLES, one more and 2^32 - 1 over arrays of
 * HCCLT_MAX_SYNCOBJ_HANDLES entries (a live syncobj's handle in each):
 * the counts above the limit must be -EINVAL, from the driver, before the
 * DRM core sizes an allocation by them (2^32 - 1 handles are a 16 GiB
 * kmalloc_array(), a page allocator WARNING, which the VM runner catches);
 * the others may succeed or fail as the core decides. 0 when all did.
 */
static int syncobj_counts(const char *path, int fd)
{
	static const __u32 counts[] = {
		0, 1, HCCLT_MAX_SYNCOBJ_HANDLES, HCCLT_MAX_SYNCOBJ_HANDLES + 1,
		0xffffffffU
	};
	static const char *const names[] = {
		"WAIT", "TIMELINE_WAIT", "RESET", "SIGNAL", "TIMELINE_SIGNAL",
		"QUERY"
	};
	static __u32 handles[HCCLT_MAX_SYNCOBJ_HANDLES];
	static __u64 points[HCCLT_MAX_SYNCOBJ_HANDLES];
	struct drm_syncobj_create create = {
		.flags = DRM_SYNCOBJ_CREATE_SIGNALED
	};
	struct drm_syncobj_destroy destroy = { 0 };
	unsigned int c, k, i, bad = 0;

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &create)) {
		ksft_print_msg("%s: SYNCOBJ_CREATE: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < HCCLT_ARRAY_SIZE(handles); i++)
		handles[i] = create.handle;
	for (k = 0; k < HCCLT_ARRAY_SIZE(names); k++)
	for (c = 0; c < HCCLT_ARRAY_SIZE(counts); c++) {
		struct drm_syncobj_wait wait = {
			.handles = (uintptr_t)handles,
			.count_handles = counts[c],
		};
		struct drm_syncobj_timeline_wait twait = {
			.handles = (uintptr_t)handles,
			.points = (uintptr_t)points,
			.count_handles = counts[c],
		};
		struct drm_syncobj_array array = {
			.handles = (uintptr_t)handles,
			.count_handles = counts[c],
		};
		struct drm_syncobj_timeline_array tarray = {
			.handles = (uintptr_t)handles,
			.points = (uintptr_t)points,
			.count_handles = counts[c],
		};
		int ret;

		memset(points, 0, sizeof(points));
		switch (k) {
		case 0:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &wait);
			break;
		case 1:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &twait);
			break;
		case 2:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_RESET, &array);
			break;
		case 3:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &array);
			break;
		case 4:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
				    &tarray);
			break;
		default:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &tarray);
			break;
		}
		if (counts[c] <= HCCLT_MAX_SYNCOBJ_HANDLES ||
		    (ret == -1 && errno == EINVAL))
			continue;
		bad++;
		ksft_print_msg("%s: SYNCOBJ_%s with %u handles: %d, %s; want EINVAL\n",
			       path, names[k], counts[c], ret,
			       ret ? strerror(errno) : "success");
	}
	destroy.handle = create.handle;
	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &destroy))
		bad++;
	return bad ? -1 : 0;
}

/*
 * The six syncobj ioctls with a handle array, each called RACE_CALLS times
 * while a second thread rewrites count_handles of every argument between
 * 1 and 2^32 - 1 as fast as it can. The driver must read the count once:
 * a call sees 1 (and succeeds on a signalled syncobj) or 2^32 - 1 (and
 * fails with EINVAL); a second read that saw the other value would let
 * the DRM core size a 16 GiB allocation by it, a page allocator WARNING
 * the VM runner catches. 0 when every call answered one of the two.
 */
#define RACE_CALLS	4000

struct race_args {
	struct drm_syncobj_wait wait;
	struct drm_syncobj_timeline_wait twait;
	struct drm_syncobj_array array;
	struct drm_syncobj_timeline_array tarray;
	int stop;
};

static void *race_flip(void *p)
{
	struct race_args *a = p;
	__u32 v = 1;

	while (!__atomic_load_n(&a->stop, __ATOMIC_RELAXED)) {
		v = v == 1 ? 0xffffffffU : 1;
		__atomic_store_n(&a->wait.count_handles, v, __ATOMIC_RELAXED);
		__atomic_store_n(&a->twait.count_handles, v, __ATOMIC_RELAXED);
		__atomic_store_n(&a->array.count_handles, v, __ATOMIC_RELAXED);
		__atomic_store_n(&a->tarray.count_handles, v,
				 __ATOMIC_RELAXED);
	}
	return NULL;
}

static int syncobj_race(const char *path, int fd)
{
	static const char *const names[] = {
		"WAIT", "TIMELINE_WAIT", "RESET", "SIGNAL", "TIMELINE_SIGNAL",
		"QUERY"
	};
	static __u32 handles[HCCLT_MAX_SYNCOBJ_HANDLES];
	static __u64 points[HCCLT_MAX_SYNCOBJ_HANDLES];
	static struct race_args a;
	struct drm_syncobj_create create = {
		.flags = DRM_SYNCOBJ_CREATE_SIGNALED
	};
	struct drm_syncobj_destroy destroy = { 0 };
	unsigned long ok = 0, einval = 0, bad = 0;
	unsigned int k, n, i;
	pthread_t th;

	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &create)) {
		ksft_print_msg("%s: SYNCOBJ_CREATE: %s\n", path, strerror(errno));
		return -1;
	}
	for (i = 0; i < HCCLT_ARRAY_SIZE(handles); i++)
		handles[i] = create.handle;
	memset(points, 0, sizeof(points));
	memset(&a, 0, sizeof(a));
	a.wait.handles = (uintptr_t)handles;
	a.twait.handles = (uintptr_t)handles;
	a.twait.points = (uintptr_t)points;
	a.array.handles = (uintptr_t)handles;
	a.tarray.handles = (uintptr_t)handles;
	a.tarray.points = (uintptr_t)points;
	a.wait.count_handles = 1;
	a.twait.count_handles = 1;
	a.array.count_handles = 1;
	a.tarray.count_handles = 1;
	if (pthread_create(&th, NULL, race_flip, &a)) {
		ksft_print_msg("%s: pthread_create failed\n", path);
		return -1;
	}
	for (k = 0; k < HCCLT_ARRAY_SIZE(names); k++)
	for (n = 0; n < RACE_CALLS; n++) {
		int ret;

		/* SIGNAL keeps the syncobj signalled for the waits. */
		switch (k) {
		case 0:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &a.wait);
			break;
		case 1:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
				    &a.twait);
			break;
		case 2:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_RESET, &a.array);
			break;
		case 3:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_SIGNAL, &a.array);
			break;
		case 4:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
				    &a.tarray);
			break;
		default:
			ret = ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &a.tarray);
			break;
		}
		if (!ret) {
			ok++;
		} else if (errno == EINVAL) {
			einval++;
		} else if (bad++ < 8) {
			ksft_print_msg("%s: racing SYNCOBJ_%s: %s\n", path,
				       names[k], strerror(errno));
		}
	}
	__atomic_store_n(&a.stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	destroy.handle = create.handle;
	if (ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &destroy))
		bad++;
	ksft_print_msg("%s: count race: %lu calls succeeded, %lu EINVAL, %lu other\n",
		       path, ok, einval, bad);
	return bad ? -1 : 0;
}

/*
 * One node: 0 when every refused number was refused as it should be;
 * @race: run syncobj_race() on it too.
 */
static int walk(const char *path, int race)
{
	static const unsigned int dirs[] = {
		_IOC_NONE, _IOC_READ, _IOC_WRITE, _IOC_READ | _IOC_WRITE
	};
	static const unsigned int sizes[] = { 0, 4, 16, 64, ARG_SIZE };
	static const unsigned int types[] = { DRM_IOCTL_BASE, 'x' };
	unsigned long calls = 0, bad = 0;
	union {
		__u64 q[ARG_SIZE / 8];
		unsigned char b[ARG_SIZE];
	} arg;
	struct drm_hcclt_query q;
	unsigned int nr, t, d, s, r;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		ksft_print_msg("%s: open: %s\n", path, strerror(errno));
		return -1;
	}
	if (hcclt_query(fd, &q)) {
		ksft_print_msg("%s: QUERY: %s\n", path, strerror(errno));
		close(fd);
		return -1;
	}
	syncobj = !!(q.features & HCCLT_FEATURE_SYNCOBJ);
	if (syncobj && syncobj_counts(path, fd))
		bad++;
	if (race && syncobj && syncobj_race(path, fd))
		bad++;
	for (nr = 0; nr < 256; nr++) {
		if (nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END)
			continue;
		for (t = 0; t < HCCLT_ARRAY_SIZE(types); t++)
		for (d = 0; d < HCCLT_ARRAY_SIZE(dirs); d++)
		for (s = 0; s < HCCLT_ARRAY_SIZE(sizes); s++)
		for (r = 0; r < 2; r++) {
			unsigned long cmd = _IOC(dirs[d], types[t], nr,
						 sizes[s]);
			unsigned int i;
			int ret, want;

			for (i = 0; i < HCCLT_ARRAY_SIZE(arg.q); i++)
				arg.q[i] = r ? rnd() : 0;
			ret = ioctl(fd, cmd, &arg);
			calls++;
			if (types[t] != DRM_IOCTL_BASE)
				want = ENOTTY;
			else if (allowed(nr))
				continue;
			else
				want = EOPNOTSUPP;
			if (ret == -1 && errno == want)
				continue;
			if (bad++ < 8)
				ksft_print_msg("%s: ioctl %#lx (nr %#x, %s argument): %d, %s; want %s\n",
					       path, cmd, nr,
					       r ? "random" : "zeroed", ret,
					       ret ? strerror(errno) : "success",
					       strerror(want));
		}
	}
	if (hcclt_query(fd, &q)) {
		ksft_print_msg("%s: QUERY after the walk: %s\n", path,
			       strerror(errno));
		bad++;
	}
	close(fd);
	ksft_print_msg("%s: %lu calls, %lu not refused\n", path, calls, bad);
	return bad ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const char *const dirs[] = { "/dev/accel", "/dev/dri" };
	static const char *const pfx[][2] = {
		{ "accel", NULL }, { "renderD", "card" }
	};
	char paths[64][300];
	unsigned int npaths = 0, d, i, p;

	rng_state = argc > 1 ? strtoull(argv[1], NULL, 0) : (__u64)time(NULL);
	if (!rng_state)
		rng_state = 1;
	ksft_print_header();
	ksft_print_msg("seed %llu\n", (unsigned long long)rng_state);

	/* The accel nodes, or else (6.1) the render and card nodes. */
	for (d = 0; d < HCCLT_ARRAY_SIZE(dirs) && !npaths; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		if (!dir)
			continue;
		while ((de = readdir(dir)) && npaths < HCCLT_ARRAY_SIZE(paths)) {
			int fd, ours = 0;

			for (p = 0; p < 2 && !ours; p++)
				ours = pfx[d][p] &&
				       !strncmp(de->d_name, pfx[d][p],
						strlen(pfx[d][p]));
			if (!ours)
				continue;
			snprintf(paths[npaths], sizeof(paths[npaths]), "%s/%s",
				 dirs[d], de->d_name);
			fd = open(paths[npaths], O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (hcclt_is_ours(fd))
				npaths++;
			close(fd);
		}
		closedir(dir);
	}
	if (!npaths)
		ksft_exit_skip("no hcclthread node\n");

	ksft_set_plan(npaths);
	for (i = 0; i < npaths; i++)
		ksft_test_result(walk(paths[i], i == 0) == 0,
				 "core ioctls on %s: only VERSION, GET_CAP, GEM_CLOSE and syncobj reach the DRM core\n",
				 paths[i]);
	ksft_finished();
	return 0;
}
