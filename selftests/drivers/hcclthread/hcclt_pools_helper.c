// SPDX-License-Identifier: GPL-2.0
/*
 * Helper of hcclt_pools.sh, run with the module loaded with small device
 * pools (sim_streams=S sim_notifies=N, nothing else using the device):
 * checks that running out of the device pool is -ENOSPC, distinct from the
 * per-communicator quota (-EDQUOT), that a refused call changes nothing and
 * that the pools refill.
 *
 *   hcclt_pools_helper --streams S --notifies N   run the checks (S >= 8,
 *                                                  N >= 16), exit 0 or 1
 *   hcclt_pools_helper --count-devices            print the number of
 *                                                  hcclthread nodes
 *   hcclt_pools_helper --fence-outlives           see fence_outlives()
 *   hcclt_pools_helper --dmabuf-outlives          see dmabuf_outlives()
 */
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/sync_file.h>

#include "hcclt_ranks.h"

static int failures, checks;

#define CHECK(cond, fmt, ...) do {					\
	checks++;							\
	if (cond) {							\
		printf("ok %d - " fmt "\n", checks, ##__VA_ARGS__);	\
	} else {							\
		failures++;						\
		printf("not ok %d - " fmt " (%s:%d)\n", checks,		\
		       ##__VA_ARGS__, __FILE__, __LINE__);		\
	}								\
} while (0)

#define CHECK_RET(expr, want) do {					\
	int _r = (expr);						\
	CHECK(_r == (want), "%s == %d (got %d %s)", #expr, (want), _r,	\
	      _r ? strerror(-_r) : "");					\
} while (0)

static void pools(int fd, __u32 *s, __u32 *n)
{
	struct drm_hcclt_query q;

	if (hcclt_query(fd, &q)) {
		*s = *n = ~0U;
		return;
	}
	*s = q.streams_used;
	*n = q.notifies_used;
}

#define CHECK_POOLS(fd, ws, wn) do {					\
	__u32 _s, _n;							\
	pools(fd, &_s, &_n);						\
	CHECK(_s == (ws) && _n == (wn),					\
	      "pools used streams %u (want %u) notifies %u (want %u)",	\
	      _s, (__u32)(ws), _n, (__u32)(wn));			\
} while (0)

static int run(__u32 S, __u32 N)
{
	struct drm_hcclt_query q, q0;
	__u64 th[64], c1, c2, s1, t;
	__u32 tu = ~0U, nu = ~0U, i;
	int fd, fd2;

	fd = hcclt_open();
	if (fd < 0) {
		printf("not ok 1 - open device: %s\n", strerror(-fd));
		return 1;
	}
	CHECK_RET(hcclt_query(fd, &q0), 0);
	CHECK(q0.streams_total == S, "streams_total %u == sim_streams %u",
	      q0.streams_total, S);
	CHECK(q0.notifies_total == N, "notifies_total %u == sim_notifies %u",
	      q0.notifies_total, N);
	CHECK(q0.streams_used == 0 && q0.notifies_used == 0,
	      "fresh device: pools unused (%u, %u)", q0.streams_used,
	      q0.notifies_used);

	/* stream pool: take every stream with one communicator */
	CHECK_RET(hcclt_comm_create(fd, &c1), 0);
	CHECK_RET(hcclt_comm_create(fd, &c2), 0);
	CHECK_RET(hcclt_acquire(fd, c1, HCCLT_ENGINE_CPU, S, 0, th), 0);
	CHECK_POOLS(fd, S, 0);
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_CPU, 1, 0, th), -ENOSPC);
	CHECK_RET(hcclt_stream_create(fd, &s1), -ENOSPC);
	/* quota before pool */
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_CPU, 41, 0, th), -EDQUOT);
	CHECK_RET(hcclt_acquire(fd, c1, HCCLT_ENGINE_CPU, 40 - S + 1, 0, th),
		  -EDQUOT);
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_CPU, 1, 65, th), -EDQUOT);
	/* and AIV is refused before the pool is looked at */
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_AIV, 1, 0, th),
		  -EOPNOTSUPP);
	CHECK_RET(hcclt_comm_usage(fd, c2, &tu, &nu, NULL), 0);
	CHECK(tu == 0 && nu == 0, "refused acquire left comm2 at 0/0 (%u/%u)",
	      tu, nu);
	CHECK_POOLS(fd, S, 0);
	CHECK_RET(hcclt_comm_destroy(fd, c1), 0);
	CHECK_POOLS(fd, 0, 0);

	/* partial fit is refused whole */
	CHECK_RET(hcclt_comm_create(fd, &c1), 0);
	CHECK_RET(hcclt_acquire(fd, c1, HCCLT_ENGINE_AICPU, S - 3, 0, th), 0);
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_AICPU, 4, 0, th), -ENOSPC);
	CHECK_POOLS(fd, S - 3, 0);
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_AICPU, 3, 0, th), 0);
	CHECK_POOLS(fd, S, 0);
	CHECK_RET(hcclt_comm_destroy(fd, c1), 0);
	CHECK_RET(hcclt_comm_destroy(fd, c2), 0);
	CHECK_POOLS(fd, 0, 0);

	/* notify pool: N notifies over N/4 threads */
	CHECK_RET(hcclt_comm_create(fd, &c1), 0);
	CHECK_RET(hcclt_comm_create(fd, &c2), 0);
	CHECK_RET(hcclt_acquire(fd, c1, HCCLT_ENGINE_CPU, 4, N / 4, th), 0);
	CHECK_POOLS(fd, 4, N);
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_CPU, 1, 1, th), -ENOSPC);
	CHECK_POOLS(fd, 4, N);
	CHECK_RET(hcclt_acquire(fd, c2, HCCLT_ENGINE_CPU, 1, 0, th), 0);
	CHECK_POOLS(fd, 5, N);
	CHECK_RET(hcclt_stream_create(fd, &s1), 0);
	CHECK_RET(hcclt_acquire_ws(fd, c2, s1, HCCLT_ENGINE_CPU, 1, &t),
		  -ENOSPC);
	CHECK_RET(hcclt_acquire_ws(fd, c2, s1, HCCLT_ENGINE_CPU, 65, &t),
		  -EDQUOT);
	CHECK_RET(hcclt_comm_usage(fd, c2, &tu, &nu, NULL), 0);
	CHECK(tu == 1 && nu == 0, "refused wrap left comm2 at 1/0 (%u/%u)",
	      tu, nu);
	CHECK_POOLS(fd, 6, N);
	CHECK_RET(hcclt_comm_destroy(fd, c1), 0);
	CHECK_POOLS(fd, 2, 0);
	/* growth of a wrapped thread takes from the pool too */
	CHECK_RET(hcclt_acquire_ws(fd, c2, s1, HCCLT_ENGINE_CPU, N, &t), 0);
	CHECK_POOLS(fd, 2, N);
	CHECK_RET(hcclt_acquire_ws(fd, c2, s1, HCCLT_ENGINE_CPU, N + 1, &t),
		  -ENOSPC);
	CHECK_RET(hcclt_comm_usage(fd, c2, &tu, &nu, NULL), 0);
	CHECK(nu == N, "refused growth left comm2 notifies at %u (%u)", N, nu);
	CHECK_POOLS(fd, 2, N);
	CHECK_RET(hcclt_comm_destroy(fd, c2), 0);
	CHECK_RET(hcclt_stream_destroy(fd, s1), 0);
	CHECK_POOLS(fd, 0, 0);

	/* the pool is shared by all files */
	fd2 = hcclt_open();
	CHECK(fd2 >= 0, "second open");
	if (fd2 >= 0) {
		for (i = 0; i < S; i++)
			CHECK_RET(hcclt_stream_create(fd2, &s1), 0);
		CHECK_RET(hcclt_stream_create(fd, &s1), -ENOSPC);
		CHECK_RET(hcclt_comm_create(fd, &c1), 0);
		CHECK_RET(hcclt_acquire(fd, c1, HCCLT_ENGINE_CPU, 1, 0, th),
			  -ENOSPC);
		close(fd2);
		q0.comms = 1;	/* c1 of this file */
		CHECK(hcclt_wait_pools(fd, &q0, &q, 5000) == 0,
		      "close of the other file refilled the pools (%u, %u)",
		      q.streams_used, q.notifies_used);
		CHECK_RET(hcclt_acquire(fd, c1, HCCLT_ENGINE_CPU, S, 0, th), 0);
	}
	close(fd);
	printf("# %d checks, %d failed\n", checks, failures);
	return failures ? 1 : 0;
}

/*
 * --fence-outlives: a fence fd must keep the module loaded after every DRM
 * file is closed (its ops are module code). Closes the DRM file, then
 * checks that rmmod is refused while the fence fd is open, that the fence
 * still answers SYNC_IOC_FILE_INFO, and that rmmod works once it is closed.
 */
static int fence_outlives(void)
{
	struct sync_file_info info;
	__u64 comm, th;
	int fd, fence = -1, ret;

	fd = hcclt_open();
	if (fd < 0 || hcclt_comm_create(fd, &comm) ||
	    hcclt_acquire(fd, comm, HCCLT_ENGINE_CPU, 1, 1, &th) ||
	    hcclt_submit_ex(fd, th, NULL, 0, HCCLT_SUBMIT_FENCE_OUT, &fence,
			    NULL) || fence < 0) {
		printf("not ok 1 - set up a fence (fd %d fence %d)\n", fd, fence);
		return 1;
	}
	close(fd);
	ret = system("rmmod hcclthread 2>/dev/null");
	printf("%sok 1 - rmmod refused while a fence fd is open\n",
	       ret ? "" : "not ");
	if (!ret)
		return 1;
	memset(&info, 0, sizeof(info));
	ret = ioctl(fence, SYNC_IOC_FILE_INFO, &info);
	printf("%sok 2 - the fence answers after its DRM file closed (%s)\n",
	       ret || strncmp(info.name, "hcclthread", 10) ? "not " : "", info.name);
	close(fence);
	/* The fence drops its module reference after an RCU grace period. */
	for (int i = 0; i < HCCLT_SLOW_MS / 100; i++) {
		ret = system("rmmod hcclthread 2>/dev/null");
		if (!ret)
			break;
		hcclt_msleep(100);
	}
	printf("%sok 3 - rmmod works once the fence fd is closed\n",
	       ret ? "not " : "");
	return ret ? 1 : 0;
}

/*
 * --dmabuf-outlives: the same for a mapped dma-buf of CHANNEL_BUFFER (its
 * release runs module code): with every DRM file closed, rmmod is refused
 * while the dma-buf fd or its mapping exists, the mapping (revoked: the
 * peer's communicator went with its file) faults SIGBUS, and rmmod works
 * once both are gone.
 */
static int dmabuf_outlives(void)
{
	struct drm_hcclt_channel_buffer cb;
	struct drm_hcclt_group_create g;
	struct rank r[2];
	__u64 c0, c1;
	int fd, e1, ret, i, st;
	pid_t pid;
	__u8 *m;

	fd = find_devices() >= 2 ? open_dev(0) : -1;
	if (fd < 0 || join_all(fd, r, 2, &g) || pair(r, 1, 1, &c0, &c1, &e1) ||
	    e1) {
		printf("not ok 1 - set up a channel (%d devices)\n", ndevs);
		return 1;
	}
	memset(&cb, 0, sizeof(cb));
	cb.comm_id = r[0].comm;
	cb.channel_id = c0;
	cb.size = 1 << 20;
	ret = hcclt_ioctl(r[0].fd, DRM_IOCTL_HCCLT_CHANNEL_BUFFER, &cb);
	m = ret ? MAP_FAILED : mmap(NULL, cb.size, PROT_READ | PROT_WRITE,
				    MAP_SHARED, cb.fd, 0);
	if (m == MAP_FAILED) {
		printf("not ok 1 - map the peer's buffer (%d)\n", ret);
		return 1;
	}
	m[100] = 0x31;
	close_all(r, 2);
	close(fd);
	ret = system("rmmod hcclthread 2>/dev/null");
	printf("%sok 1 - rmmod refused while a dma-buf fd is open\n",
	       ret ? "" : "not ");
	if (!ret)
		return 1;
	close(cb.fd);
	ret = system("rmmod hcclthread 2>/dev/null");
	printf("%sok 2 - rmmod refused while the dma-buf is mapped\n",
	       ret ? "" : "not ");
	if (!ret)
		return 1;
	/* A child touches it: the fault runs module code too. */
	fflush(stdout);
	pid = fork();
	if (!pid)
		_exit(m[100] == 0x31 ? 0 : 1);
	ret = pid > 0 && waitpid(pid, &st, 0) == pid && WIFSIGNALED(st) &&
	      WTERMSIG(st) == SIGBUS;
	printf("%sok 3 - the revoked mapping faults SIGBUS\n",
	       ret ? "" : "not ");
	munmap(m, cb.size);
	for (i = 0; i < HCCLT_SLOW_MS / 100; i++) {
		ret = system("rmmod hcclthread 2>/dev/null");
		if (!ret)
			break;
		hcclt_msleep(100);
	}
	printf("%sok 4 - rmmod works once the mapping is gone\n",
	       ret ? "not " : "");
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long s = 0, n = 0;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--fence-outlives"))
			return fence_outlives();
		if (!strcmp(argv[i], "--dmabuf-outlives"))
			return dmabuf_outlives();
		if (!strcmp(argv[i], "--count-devices")) {
			printf("%d\n", hcclt_count_devices());
			return 0;
		}
		if (!strcmp(argv[i], "--streams") && i + 1 < argc)
			s = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--notifies") && i + 1 < argc)
			n = strtoul(argv[++i], NULL, 0);
	}
	if (s < 8 || s > 40 || n < 16 || n > 64 || n % 4) {
		fprintf(stderr,
			"usage: %s --streams S(8..40) --notifies N(16..64, 4k) | --count-devices\n",
			argv[0]);
		return 2;
	}
	return run(s, n);
}
