// SPDX-License-Identifier: MIT
/*
 * Device discovery, the per-process device files and fork() handling.
 *
 * Discovery runs once (pthread_once). Each device file is opened on first
 * use under dev_lock and published with a release store, so the hot paths
 * (record, wait) read it with one acquire load and no lock.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <xf86drm.h>

#include "internal.h"

struct hcclt_dev {
	char node[64];		/* path of the device node, set by discovery */
	_Atomic int fd1;	/* fd + 1; 0 until opened (stored under dev_lock) */
	uint64_t features;	/* QUERY's, set before fd1 (under dev_lock) */
	struct hcclt_quota quota;	/* QUERY's, likewise */
	struct hcclt_servers servers;	/* QUERY's, likewise */
};

static pthread_once_t disc_once = PTHREAD_ONCE_INIT;
/* Protects the opening of device files (stores to hcclt_dev.fd). */
static pthread_mutex_t dev_lock = PTHREAD_MUTEX_INITIALIZER;
static struct hcclt_dev devs[HCCLT_MAX_DEVICES];
static int ndevs;		/* written by discover() only */
static _Atomic uint32_t fork_gen;	/* bumped in every fork() child */

void hcclt_debug(const char *fmt, ...)
{
	const char *d = getenv("HCCLT_DEBUG");
	struct timespec ts;
	va_list ap;

	if (!d || !*d || !strcmp(d, "0"))
		return;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	va_start(ap, fmt);
	/* Monotonic time and pid: the AI CPU's lines interleave with ours. */
	fprintf(stderr, "hcclthread: [%ld.%06ld %ld] ", (long)ts.tv_sec, ts.tv_nsec / 1000,
		(long)getpid());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

uint32_t hcclt_gen(void)
{
	return atomic_load_explicit(&fork_gen, memory_order_relaxed);
}

int hcclt_ioctl(int fd, unsigned long req, void *arg)
{
	if (drmIoctl(fd, req, arg))
		return errno ? -errno : -EIO;
	return 0;
}

/* The absolute CLOCK_MONOTONIC deadline @timeout_ms (-1: none) from now. */
int64_t hcclt_deadline_ns(int32_t timeout_ms)
{
	struct timespec ts;

	if (timeout_ms < 0)
		return HCCLT_DEADLINE_NONE;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec +
	       (int64_t)timeout_ms * 1000000;
}

/*
 * DRM_IOCTL_HCCLT_STREAM_SYNC of @handle with an absolute deadline: a
 * restart after a signal (drmIoctl) ends at the same time, no bookkeeping.
 * -ETIME: the deadline passed; -ETIMEDOUT: a wait task timed out.
 */
int hcclt_stream_sync(int fd, uint64_t handle, int32_t timeout_ms)
{
	struct drm_hcclt_stream_sync ss;

	memset(&ss, 0, sizeof(ss));
	ss.handle = handle;
	ss.flags = HCCLT_WAIT_DEADLINE;
	ss.deadline_ns = hcclt_deadline_ns(timeout_ms);
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_SYNC, &ss);
}

/* 1 when @path is a DRM node of the hcclthread driver. */
static int node_is_ours(const char *path)
{
	drmVersionPtr v;
	int fd, ok = 0;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		hcclt_debug("cannot open %s: %s", path, strerror(errno));
		return 0;
	}
	v = drmGetVersion(fd);
	if (v) {
		ok = v->name && !strcmp(v->name, HCCLT_DRIVER_NAME);
		drmFreeVersion(v);
	}
	close(fd);
	return ok;
}

struct cand {
	char path[64];
	unsigned int minor;
};

static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	return (x->minor > y->minor) - (x->minor < y->minor);
}

static void cand_add(struct cand *c, int *n, int max, const char *path)
{
	struct stat st;
	int i;

	size_t len = strlen(path);

	if (*n >= max || len >= sizeof(c[0].path) || stat(path, &st) ||
	    !S_ISCHR(st.st_mode))
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(c[i].path, path))
			return;
	memcpy(c[*n].path, path, len + 1);
	c[*n].minor = minor(st.st_rdev);
	(*n)++;
}

static void scan_dir(struct cand *c, int *n, int max, const char *dir,
		     const char *prefix, const char *devdir)
{
	struct dirent *de;
	size_t dl, nl;
	char path[320];
	DIR *d;

	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, prefix, strlen(prefix)))
			continue;
		dl = strlen(devdir);
		nl = strlen(de->d_name);
		if (dl + 1 + nl + 1 > sizeof(path))
			continue;
		memcpy(path, devdir, dl);
		path[dl] = '/';
		memcpy(path + dl + 1, de->d_name, nl + 1);
		cand_add(c, n, max, path);
	}
	closedir(d);
}

static void take(struct cand *c, int n)
{
	int i;

	qsort(c, n, sizeof(*c), cand_cmp);
	for (i = 0; i < n && ndevs < HCCLT_MAX_DEVICES; i++)
		if (node_is_ours(c[i].path))
			memcpy(devs[ndevs++].node, c[i].path, sizeof(c[i].path));
}

/*
 * Lock order: dev_lock, aicpu_lock (aicpu.c), the idle table's lock,
 * vmm_lock (vmm.c),
 * reuse_lock (objects.c), the name table's lock (group.c), the memory
 * table's lock (mem.c), vas_lock (vas.c), srv_lock (cluster.c) and
 * prof_lock (prof.c), two leaves: neither is held with another lock of
 * the library.
 */
static void atfork_prepare(void)
{
	pthread_mutex_lock(&dev_lock);
	hcclt_aicpu_atfork_prepare();
	hcclt_idle_atfork_prepare();
	hcclt_vmm_atfork_prepare();
	hcclt_obj_atfork_prepare();
	hcclt_names_atfork_prepare();
	hcclt_mem_atfork_prepare();
	hcclt_vas_atfork_prepare();
	hcclt_cluster_atfork_prepare();
	hcclt_prof_atfork_prepare();
}

static void atfork_parent(void)
{
	hcclt_prof_atfork_parent();
	hcclt_cluster_atfork_parent();
	hcclt_vas_atfork_parent();
	hcclt_mem_atfork_parent();
	hcclt_names_atfork_release();
	hcclt_obj_atfork_release();
	hcclt_vmm_atfork_parent();
	hcclt_idle_atfork_parent();
	hcclt_aicpu_atfork_parent();
	pthread_mutex_unlock(&dev_lock);
}

/*
 * The child shares the parent's device files (same struct file). Close
 * them so that the child can never reach the parent's objects and does not
 * keep them alive; bump the generation so that the parent's handles and
 * objects are refused. The child reopens devices on first use.
 */
static void atfork_child(void)
{
	int i, fd;

	for (i = 0; i < HCCLT_MAX_DEVICES; i++) {
		fd = atomic_exchange(&devs[i].fd1, 0) - 1;
		if (fd >= 0)
			close(fd);
	}
	atomic_fetch_add(&fork_gen, 1);
	hcclt_prof_atfork_child();
	hcclt_cluster_atfork_child();
	hcclt_vas_atfork_child();
	hcclt_mem_atfork_child();
	hcclt_names_atfork_release();
	hcclt_obj_atfork_release();
	hcclt_vmm_atfork_child();
	hcclt_idle_atfork_child();
	hcclt_aicpu_atfork_child();
	pthread_mutex_unlock(&dev_lock);
}

/*
 * The fork handlers are registered when the library is loaded, not by
 * discover(): a fork() while another thread runs discover() makes the child
 * run it again (pthread_once restarts an unfinished once in the child), and
 * a second registration there would lock dev_lock twice in the child's next
 * fork(). The library is linked -z nodelete: it is never unloaded, and the
 * device files stay open until the process exits.
 */
__attribute__((constructor)) static void hcclt_device_init(void)
{
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
}

static void discover(void)
{
	struct cand c[64];
	drmDevicePtr dd[32];
	const char *env;
	int i, n;

	/* A run cut short by fork() in the parent left entries: start over. */
	ndevs = 0;

	env = getenv("HCCLT_DEVICE");
	if (env && *env) {
		const char *p = env;

		/*
		 * Empty entries are skipped; one too long for node[] keeps its
		 * number (hcclthread-smi counts it too) but cannot be opened.
		 */
		while (*p && ndevs < HCCLT_MAX_DEVICES) {
			size_t len = strcspn(p, ":");

			if (len >= sizeof(devs[0].node)) {
				hcclt_debug("HCCLT_DEVICE entry %d: path longer "
					    "than %zu bytes", ndevs,
					    sizeof(devs[0].node) - 1);
				devs[ndevs++].node[0] = 0;
			} else if (len) {
				memcpy(devs[ndevs].node, p, len);
				devs[ndevs].node[len] = 0;
				ndevs++;
			}
			p += len;
			if (*p == ':')
				p++;
		}
		return;
	}

	/* Accel nodes first. */
	n = 0;
	scan_dir(c, &n, 64, "/sys/class/accel", "accel", "/dev/accel");
	scan_dir(c, &n, 64, "/dev/accel", "accel", "/dev/accel");
	take(c, n);

	/* Then render nodes: libdrm's list plus /dev/dri itself. */
	n = 0;
	i = drmGetDevices2(0, dd, 32);
	if (i > 0) {
		int j;

		for (j = 0; j < i; j++)
			if (dd[j]->available_nodes & (1 << DRM_NODE_RENDER))
				cand_add(c, &n, 64, dd[j]->nodes[DRM_NODE_RENDER]);
		drmFreeDevices(dd, i);
	}
	scan_dir(c, &n, 64, "/dev/dri", "renderD", "/dev/dri");
	take(c, n);

	if (!ndevs)
		hcclt_debug("no hcclthread device found (is the module loaded? "
			    "modprobe drm_shmem_helper && insmod hcclthread.ko; or set HCCLT_DEVICE)");
}

int hcclt_device_count(void)
{
	pthread_once(&disc_once, discover);
	return ndevs;
}

const char *hcclt_device_node(int dev)
{
	if (dev < 0 || dev >= hcclt_device_count())
		return NULL;
	return devs[dev].node;
}

/* Fd of an opened device, -1 if @dev is not open in this process. */
int hcclt_device_fd_fast(int dev)
{
	if ((unsigned int)dev >= HCCLT_MAX_DEVICES)
		return -1;
	return atomic_load_explicit(&devs[dev].fd1, memory_order_acquire) - 1;
}

static int device_open_locked(int dev)
{
	struct drm_hcclt_query q;
	drmVersionPtr v;
	int fd, ret, ours;

	fd = open(devs[dev].node, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		/* ENXIO (a node with no driver) is not a bad device index. */
		ret = errno == ENXIO ? -ENODEV : -errno;
		hcclt_debug("cannot open %s: %s", devs[dev].node, strerror(errno));
		return ret;
	}
	v = drmGetVersion(fd);
	ours = v && v->name && !strcmp(v->name, HCCLT_DRIVER_NAME);
	if (v)
		drmFreeVersion(v);
	if (!ours) {
		hcclt_debug("%s is not an hcclthread device", devs[dev].node);
		close(fd);
		return -ENODEV;
	}
	memset(&q, 0, sizeof(q));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q);
	/* The uAPI only grows: features, not uapi_major, tell what is there. */
	if (ret) {
		hcclt_debug("%s: DRM_IOCTL_HCCLT_QUERY failed (%d)",
			    devs[dev].node, ret);
		close(fd);
		/* ENODEV: unplugged meanwhile; anything else: not our uAPI. */
		return ret == -ENOMEM || ret == -ENODEV ? ret : -EPROTO;
	}
	devs[dev].features = q.features;
	hcclt_quota_from_query(&q, &devs[dev].quota);
	hcclt_servers_from_query(&q, &devs[dev].servers);
	atomic_store_explicit(&devs[dev].fd1, fd + 1, memory_order_release);
	return fd;
}

/*
 * In the AI CPU process (aicpu_core.c): @fd, the application's device
 * file of @dev, is this process's, and handles carry the application's
 * fork generation @gen. Before anything opens a device.
 */
int hcclt_device_adopt(int dev, int fd, uint32_t gen)
{
	struct drm_hcclt_query q;
	int ret;

	if (dev < 0 || dev >= hcclt_device_count())
		return -ENXIO;
	memset(&q, 0, sizeof(q));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q);
	if (ret)
		return ret;
	pthread_mutex_lock(&dev_lock);
	devs[dev].features = q.features;
	hcclt_servers_from_query(&q, &devs[dev].servers);
	atomic_store_explicit(&devs[dev].fd1, fd + 1, memory_order_release);
	atomic_store(&fork_gen, gen);
	pthread_mutex_unlock(&dev_lock);
	return 0;
}

/*
 * HCCLT_FEATURE_* bits of device @dev, which the caller has seen open
 * (hcclt_device_fd_fast() or hcclt_device_open() returned its fd: their
 * load of fd1 orders this read after the store).
 */
uint64_t hcclt_device_features(int dev)
{
	return devs[dev].features;
}

/*
 * The server layout QUERY's answer @q tells (uAPI 1.14), or one server of
 * which the card is card 0 (an older driver: no HCCLT_FEATURE_SERVERS).
 */
void hcclt_servers_from_query(const struct drm_hcclt_query *q, struct hcclt_servers *s)
{
	if (!(q->features & HCCLT_FEATURE_SERVERS) || !q->servers || !q->server_devices) {
		memset(s, 0, sizeof(*s));
		s->servers = 1;
		return;
	}
	s->servers = q->servers;
	s->server_devices = q->server_devices;
	s->server = q->server;
	s->card = q->device_index;
	s->cluster_addr = q->features & HCCLT_FEATURE_CLUSTER ? q->cluster_addr : 0;
}

/* The server layout of device @dev, seen open as for hcclt_device_features(). */
const struct hcclt_servers *hcclt_device_servers(int dev)
{
	return &devs[dev].servers;
}

/*
 * The quota rules of QUERY's answer @q: the driver's, or the seed rules
 * (40 threads, 64 notifies, every limit a quota error, wrapped notifies
 * counted) when it predates HCCLT_FEATURE_QUOTA_RULES.
 */
static const struct hcclt_quota seed_quota = {
	.rules = HCCLT_QUOTA_RULES_SEED,
	.flags = HCCLT_QUOTA_F_WRAPPED_COUNTED,
	.max_threads = HCCLT_MAX_THREADS_PER_COMM,
	.max_notifies = HCCLT_MAX_NOTIFIES_PER_COMM,
	.max_per_call = HCCLT_MAX_THREADS_PER_COMM,
	.max_npt = HCCLT_MAX_NOTIFIES_PER_COMM,
};

void hcclt_quota_from_query(const struct drm_hcclt_query *q,
			    struct hcclt_quota *qt)
{
	if (!(q->features & HCCLT_FEATURE_QUOTA_RULES)) {
		*qt = seed_quota;
		return;
	}
	qt->rules = q->quota_rules;
	qt->flags = q->quota_flags;
	qt->max_threads = q->max_threads_per_comm;
	qt->max_notifies = q->max_notifies_per_comm;
	qt->max_per_call = q->max_threads_per_call;
	qt->max_npt = q->max_notifies_per_thread;
}

/*
 * The quota of device @dev: the driver's once the device is open (its load
 * of fd1 orders the read after the store), the seed rules before (a
 * communicator of the device implies it was opened).
 */
const struct hcclt_quota *hcclt_device_quota(int dev)
{
	if (dev < 0 || dev >= HCCLT_MAX_DEVICES ||
	    !atomic_load_explicit(&devs[dev].fd1, memory_order_acquire))
		return &seed_quota;
	return &devs[dev].quota;
}

/*
 * Fd of device @dev, opened on first use. Returns -ENODEV when there is no
 * device at all, -ENXIO when @dev is out of range, else the open error.
 */
int hcclt_device_open(int dev)
{
	int fd;

	if (!hcclt_device_count())
		return -ENODEV;
	if (dev < 0 || dev >= ndevs)
		return -ENXIO;
	fd = hcclt_device_fd_fast(dev);
	if (fd >= 0)
		return fd;
	pthread_mutex_lock(&dev_lock);
	fd = atomic_load_explicit(&devs[dev].fd1, memory_order_relaxed) - 1;
	if (fd < 0) {
		fd = device_open_locked(dev);
		if (fd >= 0)
			hcclt_sat_device_opened(dev, fd);
	}
	pthread_mutex_unlock(&dev_lock);
	return fd;
}
