// SPDX-License-Identifier: MIT
/*
 * hcclt-smi-fixture: put a known state on the device, run a command while
 * it holds, and exit with the command's status. Used by hcclt-smi-test.
 *
 *   hcclt-smi-fixture [--pingpong N] [--channel] [-- CMD [ARGS...]]
 *
 * State: one communicator with 3 AICPU_TS threads of 2 notifies each
 * (threads 3/40), one created stream wrapped by a CPU_TS thread with 1
 * notify (notifies 7/64), thread 0 exported to CPU_TS (a view); thread 1
 * parked on a wait for its notify 1 with a record queued behind it (queue
 * depth 2); 3 MiB of device memory, mapped. With --pingpong N it first runs N record/wait handshakes
 * between threads 0 and 1 (for the trace test: N arrows). With --channel
 * (needs 2 devices) also a group of 2 ranks on devices 0 and 1 with a
 * channel between them, rank 1's thread parked on the channel's notify 0,
 * which rank 0 never records (for smi --hangs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hcclt_dev.h"

static int fd;

static void die(const char *what, int err)
{
	fprintf(stderr, "hcclt-smi-fixture: %s: %s\n", what, strerror(-err));
	exit(1);
}

static void submit1(uint64_t handle, uint32_t op, uint32_t idx, uint64_t dst)
{
	struct drm_hcclt_task t = {
		.op = op, .notify_idx = idx, .dst_thread = dst,
	};
	struct drm_hcclt_submit s = {
		.handle = handle, .tasks_ptr = (uintptr_t)&t, .task_count = 1,
		.task_size = sizeof(t),
	};
	int ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SUBMIT, &s);

	if (ret)
		die("DRM_IOCTL_HCCLT_SUBMIT", ret);
}

static void sync1(uint64_t handle)
{
	struct drm_hcclt_stream_sync s = { .handle = handle,
					   .timeout_ms = 10000 };
	int ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_SYNC, &s);

	if (ret)
		die("DRM_IOCTL_HCCLT_STREAM_SYNC", ret);
}

/* One rank of the --channel group: its file, comm, thread and channel. */
struct rank {
	const char *path;
	const uint8_t *key;
	uint32_t rank;
	struct hcclt_dev d;
	uint64_t comm, thread, chan;
	int ret;
	const char *what;
};

static void *rank_run(void *p)
{
	struct rank *r = p;
	struct drm_hcclt_group_join j = { .rank = r->rank, .nranks = 2,
					  .timeout_ms = 20000 };
	struct drm_hcclt_channel_desc desc = {
		.remote_rank = 1 - r->rank, .protocol = HCCLT_PROTOCOL_HCCS,
		.notify_num = 1,
	};

	r->what = "open";
	r->ret = hcclt_dev_open(r->path, &r->d);
	if (r->ret)
		return NULL;
	memcpy(j.key, r->key, sizeof(j.key));
	r->what = "DRM_IOCTL_HCCLT_GROUP_JOIN";
	r->ret = hcclt_ioctl(r->d.fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &j);
	if (r->ret)
		return NULL;
	r->comm = j.comm_id;
	{
		struct drm_hcclt_thread_acquire a = {
			.comm_id = r->comm, .engine = HCCLT_ENGINE_CPU,
			.thread_num = 1, .threads_ptr = (uintptr_t)&r->thread,
		};

		r->what = "DRM_IOCTL_HCCLT_THREAD_ACQUIRE";
		r->ret = hcclt_ioctl(r->d.fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE, &a);
		if (r->ret)
			return NULL;
	}
	{
		struct drm_hcclt_channel_acquire a = {
			.comm_id = r->comm, .engine = HCCLT_ENGINE_CPU,
			.desc_count = 1, .desc_size = sizeof(desc),
			.descs_ptr = (uintptr_t)&desc,
		};
		struct timespec now;

		/* An absolute CLOCK_MONOTONIC deadline: 20 s from now. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		a.deadline_ns = (int64_t)now.tv_sec * 1000000000LL +
				now.tv_nsec + 20000000000LL;

		r->what = "DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE";
		r->ret = hcclt_ioctl(r->d.fd, DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE, &a);
		r->chan = desc.channel_id;
	}
	return NULL;
}

/* Rank 0 records what rank 1 waits on: the wait ends; both files go. */
static void release_channel(struct rank *r)
{
	int main_fd = fd;

	fd = r[0].d.fd;
	submit1(r[0].thread, HCCLT_TASK_CHANNEL_RECORD, 0, r[0].chan);
	fd = r[1].d.fd;
	sync1(r[1].thread);
	fd = main_fd;
	hcclt_dev_close(&r[0].d);
	hcclt_dev_close(&r[1].d);
}

/* Wait until INFO shows a parked thread (the submit is asynchronous). */
static void wait_parked(void)
{
	struct drm_hcclt_thread_info ti[16];
	struct drm_hcclt_comm_info ci[4];
	struct timespec now, end;

	/* The worker parks it soon; how soon depends on the host. */
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += 120;
	for (;;) {
		struct drm_hcclt_info info = {
			.scope = HCCLT_INFO_SCOPE_FILE,
			.comm_count = 4, .thread_count = 16,
			.comms_ptr = (uintptr_t)ci,
			.threads_ptr = (uintptr_t)ti,
		};
		uint32_t i;

		if (hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO, &info))
			break;
		for (i = 0; i < info.thread_count && i < 16; i++)
			if (ti[i].state == HCCLT_STATE_PARKED)
				return;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec)
			break;
		usleep(10000);
	}
	fprintf(stderr, "hcclt-smi-fixture: warning: no parked thread seen\n");
}

int main(int argc, char **argv)
{
	static char paths[HCCLT_DEV_MAX][PATH_MAX];
	uint64_t comm, th[3], wrapped, stream, view;
	struct hcclt_dev d;
	int i, pingpong = 0, channel = 0, argi = 1, status, ret, ndev;
	struct rank r[2];
	pid_t pid;

	if (argi + 1 < argc && !strcmp(argv[argi], "--pingpong")) {
		pingpong = atoi(argv[argi + 1]);
		argi += 2;
	}
	if (argi < argc && !strcmp(argv[argi], "--channel")) {
		channel = 1;
		argi++;
	}
	if (argi < argc && !strcmp(argv[argi], "--"))
		argi++;
	ndev = hcclt_dev_list(paths, HCCLT_DEV_MAX);
	if (channel && ndev < 2) {
		fprintf(stderr, "hcclt-smi-fixture: --channel needs 2 devices\n");
		return 3;
	}
	if (ndev < 1) {
		fprintf(stderr, "hcclt-smi-fixture: " HCCLT_NO_DEVICE_MSG "\n");
		return 3;
	}
	ret = hcclt_dev_open(paths[0], &d);
	if (ret)
		die(paths[0], ret);
	fd = d.fd;
	{
		struct drm_hcclt_comm_create c = { 0 };

		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_CREATE, &c);
		if (ret)
			die("DRM_IOCTL_HCCLT_COMM_CREATE", ret);
		comm = c.comm_id;
	}
	{
		struct drm_hcclt_thread_acquire a = {
			.comm_id = comm, .engine = HCCLT_ENGINE_AICPU_TS,
			.thread_num = 3, .notify_num_per_thread = 2,
			.threads_ptr = (uintptr_t)th,
		};

		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE, &a);
		if (ret)
			die("DRM_IOCTL_HCCLT_THREAD_ACQUIRE", ret);
	}
	{
		struct drm_hcclt_stream_create s = { 0 };

		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_CREATE, &s);
		if (ret)
			die("DRM_IOCTL_HCCLT_STREAM_CREATE", ret);
		stream = s.stream_id;
	}
	{
		struct drm_hcclt_thread_acquire_with_stream a = {
			.comm_id = comm, .stream_id = stream,
			.engine = HCCLT_ENGINE_CPU_TS, .notify_num = 1,
		};

		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM,
				  &a);
		if (ret)
			die("DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM", ret);
		wrapped = a.thread_id;
	}
	{
		struct drm_hcclt_thread_export e = {
			.comm_id = comm, .dst_engine = HCCLT_ENGINE_CPU_TS,
			.thread_num = 1, .threads_ptr = (uintptr_t)&th[0],
			.exported_ptr = (uintptr_t)&view,
		};

		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_THREAD_EXPORT, &e);
		if (ret)
			die("DRM_IOCTL_HCCLT_THREAD_EXPORT", ret);
	}
	{
		/*
		 * 3 MiB of device memory, mapped (resident): smi's MEMORY
		 * column and its memory by process.
		 */
		struct drm_hcclt_mem_create m = { .size = 3 << 20 };

		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &m);
		if (ret)
			die("DRM_IOCTL_HCCLT_MEM_CREATE", ret);
		if (mmap(NULL, m.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)m.mmap_offset) == MAP_FAILED)
			die("mmap", -errno);
	}
	(void)wrapped;
	(void)view;
	for (i = 0; i < pingpong; i++) {
		/* th0 waits for notify 0, th1 records it; then the reverse. */
		submit1(th[0], HCCLT_TASK_NOTIFY_WAIT, 0, 0);
		submit1(th[1], HCCLT_TASK_NOTIFY_RECORD, 0, th[0]);
		sync1(th[0]);
		submit1(th[0], HCCLT_TASK_NOTIFY_RECORD, 1, th[1]);
		submit1(th[1], HCCLT_TASK_NOTIFY_WAIT, 1, 0);
		sync1(th[1]);
	}
	/* Park thread 1 on notify 1, with a record queued behind. */
	submit1(th[1], HCCLT_TASK_NOTIFY_WAIT, 1, 0);
	submit1(th[1], HCCLT_TASK_NOTIFY_RECORD, 0, th[2]);
	wait_parked();
	if (channel) {
		struct drm_hcclt_group_create g = { 0 };
		pthread_t tid[2];
		int k, main_fd = fd;

		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &g);
		if (ret)
			die("DRM_IOCTL_HCCLT_GROUP_CREATE", ret);
		memset(r, 0, sizeof(r));
		for (k = 0; k < 2; k++) {
			r[k].path = paths[k];
			r[k].key = g.key;
			r[k].rank = (uint32_t)k;
			pthread_create(&tid[k], NULL, rank_run, &r[k]);
		}
		for (k = 0; k < 2; k++)
			pthread_join(tid[k], NULL);
		for (k = 0; k < 2; k++)
			if (r[k].ret)
				die(r[k].what, r[k].ret);
		/* Rank 1 waits for a record rank 0 never makes. */
		fd = r[1].d.fd;
		submit1(r[1].thread, HCCLT_TASK_CHANNEL_WAIT, 0, r[1].chan);
		wait_parked();
		fd = main_fd;
		printf("group %s: rank 0 pid %d device 0, rank 1 device 1 waits "
		       "on channel 0x%llx\n", g.name, (int)getpid(),
		       (unsigned long long)r[1].chan);
	}
	if (argi >= argc) {
		printf("comm 0x%llx: threads 0x%llx 0x%llx 0x%llx, wrapped "
		       "0x%llx, view 0x%llx\n", (unsigned long long)comm,
		       (unsigned long long)th[0], (unsigned long long)th[1],
		       (unsigned long long)th[2], (unsigned long long)wrapped,
		       (unsigned long long)view);
		if (channel)
			release_channel(r);
		return 0;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork", -errno);
	if (!pid) {
		close(fd);
		execvp(argv[argi], argv + argi);
		fprintf(stderr, "hcclt-smi-fixture: %s: %s\n", argv[argi],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	/* Release the parked wait so that teardown has nothing to cancel. */
	submit1(th[2], HCCLT_TASK_NOTIFY_RECORD, 1, th[1]);
	sync1(th[1]);
	if (channel)
		release_channel(r);
	hcclt_dev_close(&d);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
