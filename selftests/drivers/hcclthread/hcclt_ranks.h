/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ranks and channels for the multi-rank selftests (hcclt_group.c,
 * hcclt_channel.c, hcclt_data.c): the simulated devices of this driver, N ranks of one
 * group joined by threads (one file per device), channel acquisition
 * between them, and channel record/wait tasks. Every helper returns 0 or
 * -errno.
 */
#ifndef HCCLT_RANKS_H
#define HCCLT_RANKS_H

#include <pthread.h>

#include "hcclt_common.h"

#define MAX_DEVS	HCCLT_MAX_GROUP_RANKS
#define FAR		INT64_MAX

static char dev_paths[MAX_DEVS][300];
static int ndevs = -1;

static inline int cmp_num(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static inline int find_devices(void)
{
	static const char *const dirs[] = { "/dev/accel", "/dev/dri" };
	static const char *const pfx[] = { "accel", "renderD" };
	unsigned int d;

	if (ndevs >= 0)
		return ndevs;
	ndevs = 0;
	for (d = 0; d < HCCLT_ARRAY_SIZE(dirs) && !ndevs; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;
		int nums[64], n = 0, i;

		if (!dir)
			continue;
		while ((de = readdir(dir)) && n < 64) {
			char p[300];
			int fd;

			if (strncmp(de->d_name, pfx[d], strlen(pfx[d])))
				continue;
			snprintf(p, sizeof(p), "%s/%s", dirs[d], de->d_name);
			fd = open(p, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			if (hcclt_is_ours(fd))
				nums[n++] = atoi(de->d_name + strlen(pfx[d]));
			close(fd);
		}
		closedir(dir);
		qsort(nums, n, sizeof(nums[0]), cmp_num);
		for (i = 0; i < n && i < MAX_DEVS; i++)
			snprintf(dev_paths[i], sizeof(dev_paths[i]), "%s/%s%d",
				 dirs[d], pfx[d], nums[i]);
		ndevs = n < MAX_DEVS ? n : MAX_DEVS;
	}
	return ndevs;
}

static inline int open_dev(int i)
{
	return open(dev_paths[i], O_RDWR | O_CLOEXEC);
}

static inline __s64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static inline __u32 notifies_used(int dev)
{
	struct drm_hcclt_query q;
	int fd = open_dev(dev);
	__u32 ret = ~0U;

	if (fd >= 0 && !hcclt_query(fd, &q))
		ret = q.notifies_used;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Until device @dev's notify pool is at @want (teardown is synchronous). */
static inline int wait_notifies(int dev, __u32 want)
{
	long long end = hcclt_wait_end(HCCLT_SLOW_MS);

	while (notifies_used(dev) != want) {
		if (hcclt_now_ms() > end)
			return -1;
		hcclt_msleep(5);
	}
	return 0;
}

static inline struct drm_hcclt_channel_desc desc(__u32 remote, __u32 proto,
					  __u32 notify_num)
{
	struct drm_hcclt_channel_desc d;

	memset(&d, 0, sizeof(d));
	d.remote_rank = remote;
	d.protocol = proto;
	d.notify_num = notify_num;
	return d;
}

static inline int chan_acquire_ex(int fd, __u64 comm, __u32 engine,
			   struct drm_hcclt_channel_desc *d, __u32 n,
			   __s64 deadline)
{
	struct drm_hcclt_channel_acquire a;

	memset(&a, 0, sizeof(a));
	a.comm_id = comm;
	a.engine = engine;
	a.desc_count = n;
	a.desc_size = sizeof(*d);
	a.deadline_ns = deadline;
	a.descs_ptr = (__u64)(uintptr_t)d;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE, &a);
}

/* Acquire one channel; its id in *@id. */
static inline int chan_acquire1(int fd, __u64 comm, __u32 engine, __u32 remote,
			 __u32 notify_num, __s64 deadline, __u64 *id)
{
	struct drm_hcclt_channel_desc d = desc(remote, HCCLT_PROTOCOL_HCCS,
					       notify_num);
	int ret = chan_acquire_ex(fd, comm, engine, &d, 1, deadline);

	if (!ret && id)
		*id = d.channel_id;
	return ret;
}

static inline struct drm_hcclt_task ctask(__u32 op, __u64 chan, __u32 idx,
				   __u32 timeout_s)
{
	struct drm_hcclt_task t;

	memset(&t, 0, sizeof(t));
	t.op = op;
	t.dst_thread = chan;
	t.notify_idx = idx;
	t.timeout_s = timeout_s;
	return t;
}

static inline int crecord(int fd, __u64 thread, __u64 chan, __u32 idx)
{
	struct drm_hcclt_task t = ctask(HCCLT_TASK_CHANNEL_RECORD, chan, idx, 0);

	return hcclt_submit(fd, thread, &t, 1);
}

static inline int cwait(int fd, __u64 thread, __u64 chan, __u32 idx, __u32 tmo)
{
	struct drm_hcclt_task t = ctask(HCCLT_TASK_CHANNEL_WAIT, chan, idx, tmo);

	return hcclt_submit(fd, thread, &t, 1);
}

/* One rank: its file, communicator and a CPU thread. */
struct rank {
	const __u8 *key;
	int dev, fd;
	__u32 rank, nranks;
	__u64 comm, thread;
	int ret;
	pthread_t tid;
};

static inline int rank_join(struct rank *r)
{
	struct drm_hcclt_group_join j;
	int ret;

	r->fd = open_dev(r->dev);
	if (r->fd < 0)
		return -errno;
	memset(&j, 0, sizeof(j));
	memcpy(j.key, r->key, sizeof(j.key));
	j.rank = r->rank;
	j.nranks = r->nranks;
	j.timeout_ms = 2 * HCCLT_SLOW_MS;
	ret = hcclt_ioctl(r->fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j);
	if (ret)
		return ret;
	r->comm = j.comm_id;
	return hcclt_acquire(r->fd, r->comm, HCCLT_ENGINE_CPU, 1, 0,
			     &r->thread);
}

static inline void *join_thread(void *p)
{
	struct rank *r = p;

	r->ret = rank_join(r);
	return NULL;
}

/* Join @n ranks on devices 0..n-1 (threads of this process). */
static inline int join_all(int fd0, struct rank *r, __u32 n,
		    struct drm_hcclt_group_create *g)
{
	__u32 i;
	int ret = 0;

	memset(g, 0, sizeof(*g));
	if (hcclt_ioctl(fd0, DRM_IOCTL_HCCLT_GROUP_CREATE, g))
		return -1;
	for (i = 0; i < n; i++) {
		memset(&r[i], 0, sizeof(r[i]));
		r[i].key = g->key;
		r[i].dev = i;
		r[i].rank = i;
		r[i].nranks = n;
		r[i].fd = -1;
		pthread_create(&r[i].tid, NULL, join_thread, &r[i]);
	}
	for (i = 0; i < n; i++) {
		pthread_join(r[i].tid, NULL);
		if (r[i].ret)
			ret = r[i].ret;
	}
	return ret;
}

static inline void close_all(struct rank *r, __u32 n)
{
	__u32 i;

	for (i = 0; i < n; i++)
		if (r[i].fd >= 0) {
			close(r[i].fd);
			r[i].fd = -1;
		}
}

/* A two-rank pair with channels, acquired concurrently. */
struct acq {
	struct rank *r;
	__u32 engine;
	struct drm_hcclt_channel_desc d[4];
	__u32 n;
	__s64 deadline;
	int ret;
	pthread_t tid;
};

static inline void *acq_thread(void *p)
{
	struct acq *a = p;

	a->ret = chan_acquire_ex(a->r->fd, a->r->comm, a->engine, a->d, a->n,
				 a->deadline);
	return NULL;
}

static inline void acq_start_p(struct acq *a, struct rank *r, __u32 engine,
			__u32 remote, __u32 proto, __u32 notify_num)
{
	memset(a, 0, sizeof(*a));
	a->r = r;
	a->engine = engine;
	a->d[0] = desc(remote, proto, notify_num);
	a->n = 1;
	a->deadline = now_ns() + 2000000LL * HCCLT_SLOW_MS;
	pthread_create(&a->tid, NULL, acq_thread, a);
}

static inline void acq_start(struct acq *a, struct rank *r, __u32 engine,
		      __u32 remote, __u32 notify_num)
{
	acq_start_p(a, r, engine, remote, HCCLT_PROTOCOL_HCCS, notify_num);
}

/* Acquire the channel between ranks 0 and 1 with @n0 and @n1 notifies. */
static inline int pair_proto(struct rank *r, __u32 proto, __u32 n0, __u32 n1,
		      __u64 *c0, __u64 *c1, int *e1)
{
	struct acq a0, a1;

	acq_start_p(&a0, &r[0], HCCLT_ENGINE_CPU, 1, proto, n0);
	acq_start_p(&a1, &r[1], HCCLT_ENGINE_CPU_TS, 0, proto, n1);
	pthread_join(a0.tid, NULL);
	pthread_join(a1.tid, NULL);
	*c0 = a0.d[0].channel_id;
	*c1 = a1.d[0].channel_id;
	*e1 = a1.ret;
	return a0.ret;
}

static inline int pair(struct rank *r, __u32 n0, __u32 n1, __u64 *c0, __u64 *c1,
		int *e1)
{
	return pair_proto(r, HCCLT_PROTOCOL_HCCS, n0, n1, c0, c1, e1);
}

#endif /* HCCLT_RANKS_H */
