// SPDX-License-Identifier: GPL-2.0
/*
 * Links to other hosts' drivers (clusters, uAPI 1.15): their caps
 * (GROUP_JOIN's -EMFILE, clusters.rst, "Security model"). Needs
 * a host in a cluster (module parameter cluster_addr), else it skips;
 * make check's two-guest jobs run it (tools/vm/guest/hcclt-pair-smoke).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>

#include "hcclt_ranks.h"
#include "../../kselftest_harness.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Only where this host is in a cluster, as root. Hosts .200 to .204 of the
 * cluster address's /24 must not exist: their connects wait out the
 * address resolution (2 s). Of CAPS_USER + 1 joins of one user towards
 * them at once, one fails at once with -EMFILE (CAPS_USER connects in
 * progress per user); with module parameter max_links 0, any join
 * towards another host does.
 */
#define CAPS_USER	4

static int caps_join(__be32 addr)
{
	struct drm_hcclt_group_join j;
	int fd = open_dev(0), ret;

	if (fd < 0)
		return -ENODEV;
	memset(&j, 0, sizeof(j));
	memset(j.key, 0x5a, sizeof(j.key));
	j.rank = 1;
	j.nranks = 2;
	j.timeout_ms = 10000;
	j.root_addr = addr;
	j.root_port = htons(60000);
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j);
	close(fd);
	return ret;
}

TEST(join_link_caps)
{
	const char *param = "/sys/module/hcclthread/parameters/max_links";
	struct drm_hcclt_query q;
	pid_t pid[CAPS_USER + 1];
	int go[2], i, st, fast = 0, slow = 0, fd;
	__u32 comms0;
	char old[32] = "";
	__be32 net;
	double t0;
	FILE *f;

	/* A guest of tools/vm/run-pair (HCCLT_NET_ROLE) must not skip. */
	if (find_devices() < 1) {
		ASSERT_EQ(NULL, getenv("HCCLT_NET_ROLE"));
		SKIP(return, "no hcclthread device");
	}
	fd = open_dev(0);
	ASSERT_GE(fd, 0);
	memset(&q, 0, sizeof(q));
	ASSERT_EQ(0, hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q));
	comms0 = q.comms;
	close(fd);
	if (!q.cluster_addr) {
		ASSERT_EQ(NULL, getenv("HCCLT_NET_ROLE"));
		SKIP(return, "this host is in no cluster (module parameter cluster_addr)");
	}
	net = q.cluster_addr & htonl(0xffffff00);
	ASSERT_EQ(0, pipe(go));
	for (i = 0; i <= CAPS_USER; i++) {
		pid[i] = fork();
		ASSERT_GE(pid[i], 0);
		if (!pid[i]) {
			char c;
			int ret;

			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(3);
			t0 = now_s();
			ret = caps_join(net | htonl(200 + i));
			/* 1: refused at once by the cap; 0: it waited. */
			_exit(ret == -EMFILE ? (now_s() - t0 < 1.0 ? 1 : 2) : 0);
		}
	}
	close(go[0]);
	ASSERT_EQ(CAPS_USER + 1, write(go[1], "xxxxx", CAPS_USER + 1));
	close(go[1]);
	for (i = 0; i <= CAPS_USER; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		ASSERT_TRUE(WIFEXITED(st));
		fast += WEXITSTATUS(st) == 1;
		slow += WEXITSTATUS(st) != 0 && WEXITSTATUS(st) != 1;
	}
	EXPECT_EQ(1, fast);
	EXPECT_EQ(0, slow);

	/* max_links 0: no link at all, at once. */
	f = fopen(param, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(old, sizeof(old), f));
	fclose(f);
	f = fopen(param, "w");
	ASSERT_NE(NULL, f);
	ASSERT_GT(fprintf(f, "0\n"), 0);
	ASSERT_EQ(0, fclose(f));
	t0 = now_s();
	EXPECT_EQ(-EMFILE, caps_join(net | htonl(205)));
	EXPECT_LT(now_s() - t0, 1.0);
	f = fopen(param, "w");
	ASSERT_NE(NULL, f);
	fputs(old, f);
	ASSERT_EQ(0, fclose(f));
	/* Nothing left behind: no communicator, no mirror group. */
	fd = open_dev(0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q));
	EXPECT_EQ(comms0, q.comms);
	close(fd);
}

TEST_HARNESS_MAIN
