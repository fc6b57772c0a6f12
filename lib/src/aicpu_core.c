// SPDX-License-Identifier: MIT
/*
 * An AI CPU core: the process hcclt-aicpu runs (hcclt_aicpu_main()). It
 * has none of the application's memory; it shares the application's
 * device file (so every thread, channel and memory object id of the
 * application is valid here) and maps the device's memory objects at the
 * application's addresses (the device window, vas.c), so the pointers in
 * a kernel's arguments and engine contexts mean what they mean there.
 * Anything else a kernel dereferences is not mapped here, or is this
 * process's own: it faults, as on the device.
 *
 * For each command (aicpu.h) it brings its mappings in line with the
 * application's list, loads the kernel's shared object (once), asks the
 * driver whether the launch may still start (KERNEL_DONE with
 * HCCLT_KERNEL_DONE_START), runs it, starts a new idle epoch (the tasks
 * the kernel queued are not in the application's idle table), answers
 * KERNEL_DONE with the kernel's status and replies DONE. A fatal signal in
 * a kernel is replied as FAULT (signal, code, address) from the handler,
 * which then lets the signal kill the process: the application fails the
 * launch and starts another core for the next one. The process dies with
 * the application (PR_SET_PDEATHSIG) and when its command pipe closes.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "internal.h"
#include "aicpu.h"

typedef unsigned int (*kernel_fn)(void *args);

/* A loaded shared object, by path. */
struct core_so {
	char *path;
	void *h;
	struct core_so *next;
};

static struct core_so *sos;
/* What is mapped here: the last list the application sent. */
static struct hcclt_aicpu_map *maps;
static size_t nmaps;
/* The launch running, for the signal handler. */
static volatile uint64_t running_seqno;
/*
 * The file this process makes its ioctls on: its own, acting for the
 * application's (DRM_IOCTL_HCCLT_FILE_ATTACH), or on an older driver the
 * application's itself. Mappings are always made through the
 * application's (AICPU_FD_DEV), whose objects they are.
 */
static int ioctl_fd = AICPU_FD_DEV;

/*
 * A file of our own that acts for the application's: from Linux 6.8 a
 * DRM file that two processes take turns on costs an RCU grace period at
 * each turn (drm_file_update_pid()). Its fd, or AICPU_FD_DEV.
 */
static int attach(int dev)
{
	struct drm_hcclt_file_attach at;
	const char *node = hcclt_device_node(dev);
	int fd, ret;

	if (!node)
		return AICPU_FD_DEV;
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return AICPU_FD_DEV;
	memset(&at, 0, sizeof(at));
	at.fd = AICPU_FD_DEV;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_FILE_ATTACH, &at);
	if (ret) {
		hcclt_debug("AI CPU: no FILE_ATTACH (%s): the application's file it is",
			    strerror(-ret));
		close(fd);
		return AICPU_FD_DEV;
	}
	return fd;
}

static int read_full(int fd, void *buf, size_t n)
{
	unsigned char *p = buf;

	while (n) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static void reply(const struct aicpu_reply *r)
{
	ssize_t n;

	do
		n = write(AICPU_FD_REPLY, r, sizeof(*r));
	while (n < 0 && errno == EINTR);
}

static void reply_error(uint64_t seqno, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reply_error(uint64_t seqno, const char *fmt, ...)
{
	struct aicpu_reply r;
	va_list ap;

	memset(&r, 0, sizeof(r));
	r.type = AICPU_REPLY_ERROR;
	r.seqno = seqno;
	va_start(ap, fmt);
	vsnprintf(r.msg, sizeof(r.msg), fmt, ap);
	va_end(ap);
	reply(&r);
}

/* Async-signal-safe: write() and the default action. */
static void on_fault(int sig, siginfo_t *si, void *uc)
{
	struct aicpu_reply r;

	(void)uc;
	memset(&r, 0, sizeof(r));
	r.type = AICPU_REPLY_FAULT;
	r.status = sig;
	r.code = si->si_code;
	r.seqno = running_seqno;
	if (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL)
		r.addr = (uint64_t)(uintptr_t)si->si_addr;
	reply(&r);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Same object at the same place (@map_len 0 in ours: not mapped). */
static int same_map(const struct hcclt_aicpu_map *a, const struct hcclt_aicpu_map *b)
{
	return a->base == b->base && a->size == b->size && a->kind == b->kind &&
	       a->handle == b->handle && a->mmap_off == b->mmap_off &&
	       a->comm == b->comm && a->chan == b->chan;
}

static int map_one(const struct hcclt_aicpu_map *m)
{
	void *want = (void *)(uintptr_t)m->base, *p;
	int fd = AICPU_FD_DEV, err;
	off_t off = (off_t)m->mmap_off;

	if (m->kind == HCCLT_MAP_PEER_REG) {	/* reserved, as the application's */
		p = mmap(want, m->map_len, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
			 -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		if (p != want) {
			munmap(p, m->map_len);
			return -EEXIST;
		}
		return 0;
	}

	if (m->kind == HCCLT_MAP_PEER_BUF) {	/* its dma-buf */
		struct drm_hcclt_channel_buffer cb;

		memset(&cb, 0, sizeof(cb));
		cb.comm_id = m->comm;
		cb.channel_id = m->chan;
		cb.size = m->map_len;
		err = hcclt_ioctl(ioctl_fd, DRM_IOCTL_HCCLT_CHANNEL_BUFFER, &cb);
		if (err)
			return err;
		fd = cb.fd;
		off = 0;
	}
	p = mmap(want, m->map_len, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_FIXED_NOREPLACE, fd, off);
	err = p == MAP_FAILED ? -errno : 0;
	if (fd != AICPU_FD_DEV)
		close(fd);
	if (!err && p != want) {
		munmap(p, m->map_len);
		err = -EEXIST;
	}
	return err;
}

/*
 * Make this process's mappings @m[@n] and adopt them as the device's
 * memory table. 0, or -EEXIST when something of this process's own is
 * where an object must go (the launch fails: the kernel would reach the
 * wrong memory). Any other failure leaves that entry unmapped: an object
 * the application freed after it sent the list, or a revoked peer; the
 * kernel faults if it touches it, and its data tasks go to the driver.
 */
static int maps_sync(struct hcclt_aicpu_map *m, size_t n, uint64_t seqno)
{
	size_t i, j;
	int ret = 0, err;

	for (i = 0; i < nmaps; i++) {
		for (j = 0; j < n && !same_map(&maps[i], &m[j]); j++)
			;
		if (j == n && maps[i].map_len)
			munmap((void *)(uintptr_t)maps[i].base, maps[i].map_len);
	}
	for (j = 0; j < n; j++) {
		for (i = 0; i < nmaps && !same_map(&maps[i], &m[j]); i++)
			;
		if (i < nmaps && maps[i].map_len)
			continue;
		err = map_one(&m[j]);
		if (!err)
			continue;
		hcclt_debug("AI CPU: device memory at 0x%llx (%llu bytes) not mapped: %s",
			    (unsigned long long)m[j].base, (unsigned long long)m[j].map_len,
			    strerror(-err));
		if (err == -EEXIST && !ret) {
			reply_error(seqno, "device memory at 0x%llx (%llu bytes) overlaps the AI CPU's own",
				    (unsigned long long)m[j].base,
				    (unsigned long long)m[j].map_len);
			ret = err;
		}
		m[j].map_len = 0;	/* not mapped: retried with the next list */
	}
	free(maps);
	maps = m;
	nmaps = n;
	hcclt_mem_adopt(hcclt_current_device(), m, n);
	return ret;
}

static kernel_fn lookup(const char *path, const char *sym, uint64_t seqno)
{
	struct core_so *s;
	void *fn;

	for (s = sos; s && strcmp(s->path, path); s = s->next)
		;
	if (!s) {
		s = calloc(1, sizeof(*s));
		if (!s)
			return NULL;
		s->path = strdup(path);
		s->h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
		if (!s->path || !s->h) {
			reply_error(seqno, "cannot load %s: %s", path, dlerror());
			free(s->path);
			free(s);
			return NULL;
		}
		s->next = sos;
		sos = s;
	}
	fn = dlsym(s->h, sym);
	if (!fn)
		reply_error(seqno, "no symbol %s in %s", sym, path);
	return (kernel_fn)fn;
}

static int kernel_done(uint64_t handle, uint64_t seqno, uint32_t flags, int32_t status)
{
	struct drm_hcclt_kernel_done d;

	memset(&d, 0, sizeof(d));
	d.handle = handle;
	d.seqno = seqno;
	d.flags = flags;
	d.status = status;
	return hcclt_ioctl(ioctl_fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d);
}

/*
 * Point each placeholder of @args at its data in @hold (which outlives
 * the launch's run). -1 if the application sent nonsense.
 */
static int holders_place(unsigned char *args, uint32_t args_len, unsigned char *hold,
			 uint32_t hold_len, uint32_t n)
{
	uint64_t data = (uint64_t)n * 16, off, size;
	uint32_t i;
	void *p;

	for (i = 0; i < n; i++) {
		memcpy(&off, hold + i * 16, 8);
		memcpy(&size, hold + i * 16 + 8, 8);
		data = (data + 15) & ~(uint64_t)15;	/* kernel.c's holders_pack() */
		if (off > args_len || args_len - off < sizeof(void *) || data > hold_len ||
		    size > hold_len - data)
			return -1;
		p = hold + data;
		memcpy(args + off, &p, sizeof(p));
		data += size;
	}
	return 0;
}

/* Read and run one command; -1 when the application has gone. */
static int run_one(void)
{
	struct aicpu_cmd c;
	struct aicpu_reply r;
	struct hcclt_aicpu_map *m = NULL;
	char *path = NULL, *sym = NULL;
	unsigned char *args = NULL, *hold = NULL;
	char *names = NULL;
	unsigned int st = 0;
	kernel_fn fn = NULL;
	uint32_t i;
	int ok;

	if (read_full(AICPU_FD_CMD, &c, sizeof(c)))
		return -1;
	if (c.magic != AICPU_CMD_MAGIC || !c.so_len || c.so_len > AICPU_PATH_MAX ||
	    !c.sym_len || c.sym_len > AICPU_SYM_MAX || c.nmaps > AICPU_MAPS_MAX ||
	    c.holders_len > AICPU_HOLDERS_MAX || c.args_len > 65536 ||
	    c.names_len > AICPU_NAMES_MAX ||
	    (uint64_t)c.nholders * 16 > c.holders_len)
		return -1;
	path = malloc(c.so_len);
	sym = malloc(c.sym_len);
	args = malloc(c.args_len ? c.args_len : 1);
	hold = malloc(c.holders_len ? c.holders_len : 1);
	m = c.nmaps ? calloc(c.nmaps, sizeof(*m)) : NULL;
	names = malloc(c.names_len ? c.names_len : 1);
	if (!path || !sym || !args || !hold || (c.nmaps && !m) || !names)
		return -1;
	if (read_full(AICPU_FD_CMD, path, c.so_len) || read_full(AICPU_FD_CMD, sym, c.sym_len) ||
	    (c.args_len && read_full(AICPU_FD_CMD, args, c.args_len)) ||
	    (c.holders_len && read_full(AICPU_FD_CMD, hold, c.holders_len)) ||
	    (c.nmaps && read_full(AICPU_FD_CMD, m, c.nmaps * sizeof(*m))) ||
	    (c.names_len && read_full(AICPU_FD_CMD, names, c.names_len)))
		return -1;
	if (!(c.flags & AICPU_CMD_SAME_STATE))
		hcclt_names_adopt(hcclt_current_device(), names, c.names_len);
	free(names);
	path[c.so_len - 1] = 0;
	sym[c.sym_len - 1] = 0;
	if (holders_place(args, c.args_len, hold, c.holders_len, c.nholders))
		return -1;
	if (c.flags & AICPU_CMD_SAME_STATE) {
		free(m);
		ok = 1;
	} else {
		ok = !maps_sync(m, c.nmaps, c.seqno);
	}
	if (c.flags & AICPU_CMD_SYNC) {
		memset(&r, 0, sizeof(r));
		r.type = AICPU_REPLY_SYNCED;
		r.seqno = c.seqno;
		reply(&r);
		free(path);
		free(sym);
		free(args);
		free(hold);
		return 0;
	}
	if (ok)
		fn = lookup(path, sym, c.seqno);
	memset(&r, 0, sizeof(r));
	r.type = AICPU_REPLY_DONE;
	r.seqno = c.seqno;
	/* A launch that failed while it waited for a core never starts. */
	if (kernel_done(c.handle, c.seqno, HCCLT_KERNEL_DONE_START, 0)) {
		hcclt_debug("AI CPU: launch %llu not run: it failed meanwhile",
			    (unsigned long long)c.seqno);
		r.status = -1;
		goto out;
	}
	if (!fn) {
		kernel_done(c.handle, c.seqno, 0, AICPU_STATUS_EXCEPTION);
		r.status = AICPU_STATUS_EXCEPTION;
		goto out;
	}
	running_seqno = c.seqno;
	hcclt_debug("AI CPU: launch %llu starts", (unsigned long long)c.seqno);
	for (i = 0; i < c.blocks && !st; i++)
		st = fn(args);
	running_seqno = 0;
	hcclt_idle_forget();
	/* -ESRCH: it timed out meanwhile; the stream knows. */
	kernel_done(c.handle, c.seqno, 0, (int32_t)st);
	r.status = (int32_t)st;
out:
	reply(&r);
	free(path);
	free(sym);
	free(args);
	free(hold);
	return 0;
}

static void on_signals(void)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS };
	struct sigaction sa;
	stack_t ss;
	size_t i;

	ss.ss_sp = malloc(65536);
	ss.ss_size = 65536;
	ss.ss_flags = 0;
	if (ss.ss_sp)
		sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* The application may be gone: its EOF ends us, not SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
}

HCCLT_EXPORT int hcclt_aicpu_main(int argc, char **argv);

/*
 * hcclt-aicpu --aicpu-core DEV GEN PROTO PID: the entry of a core
 * process, started by the application's library (aicpu.c) only.
 */
HCCLT_EXPORT int hcclt_aicpu_main(int argc, char **argv)
{
	unsigned long gen, proto;
	_Atomic uint64_t *shared;
	long pid;
	int dev, fd;

	if (argc != 6 || strcmp(argv[1], "--aicpu-core")) {
		fprintf(stderr, "hcclt-aicpu: the AI CPU of libhcclthread; the library starts it\n");
		return 2;
	}
	dev = atoi(argv[2]);
	gen = strtoul(argv[3], NULL, 0);
	proto = strtoul(argv[4], NULL, 0);
	pid = strtol(argv[5], NULL, 0);
	if (proto != AICPU_PROTO) {
		fprintf(stderr, "hcclt-aicpu: protocol %lu, this build speaks %d\n", proto,
			AICPU_PROTO);
		return 2;
	}
	/* Die with the application, even if it is gone already. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != (pid_t)pid)
		return 0;
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	if (syscall(SYS_close_range, AICPU_FD_SHARED + 1, ~0U, 0))
		for (fd = AICPU_FD_SHARED + 1; fd < 1024; fd++)
			close(fd);
	/* Kernels that run programs do not hand them our pipes and files. */
	for (fd = AICPU_FD_DEV; fd <= AICPU_FD_REPLY; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
	/* Finds the device nodes, which attach() opens another file of. */
	hcclt_device_count();
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, AICPU_FD_SHARED, 0);
	close(AICPU_FD_SHARED);
	if (shared == MAP_FAILED)
		return 1;
	hcclt_idle_share(shared);
	/*
	 * Others submit to the streams a kernel syncs (the application, the
	 * other cores): this process's idle table cannot know, so it skips
	 * no sync.
	 */
	hcclt_idle_disable();
	ioctl_fd = attach(dev);
	if (hcclt_device_adopt(dev, ioctl_fd, (uint32_t)gen)) {
		fprintf(stderr, "hcclt-aicpu: device %d: not an hcclthread device file\n", dev);
		return 1;
	}
	/* The kernels' HCCL and ACL calls see the device as current. */
	if (aclrtSetDevice(dev) != ACL_SUCCESS)
		return 1;
	on_signals();
	hcclt_debug("AI CPU core of device %d starts (pid %ld)", dev, (long)getpid());
	while (!run_one())
		;
	return 0;
}
