// SPDX-License-Identifier: MIT
/*
 * The simulated AI CPU, application side: a dispatcher thread per device
 * of this process and up to QUERY's aicpu_cores core processes
 * (hcclt-aicpu, aicpu_core.c), started as launches need them.
 *
 * The dispatcher reads the driver's launch events from the device file
 * (poll() + read()), queues them, and hands each to an idle core over its
 * command pipe, with the kernel's shared object, symbol, argument block
 * and the device's memory mappings of this process (mem.c); a core runs
 * one launch at a time, answers KERNEL_DONE itself and replies. Launches
 * of one stream stay in order (the driver sends the next only when one is
 * done); launches of different streams run on different cores at once.
 *
 * What the application sees of a core's failure: a fatal signal in a
 * kernel (replied as FAULT by its handler), an exit() or a kill fail that
 * launch with an AICPU exception (KERNEL_DONE with a non-zero status, so
 * the peers parked on its records fail too), logged with the kernel's
 * name and, for a fault, the address and what it is in this process (its
 * heap, a stack, a file, nothing); the next launch starts a new core. A
 * launch that runs past its timeout has its core killed: the driver has
 * failed its stream with -ETIME, and nothing of the kernel runs after.
 *
 * Memory the application frees leaves the table (mem.c); the freeing
 * thread wakes the device's dispatcher (an eventfd), which sends its idle
 * cores the new list (a SYNC command), and waits until they confirm
 * (hcclt_aicpu_memory_gone(), at most 2 s): their mappings would hold
 * the object, and its capacity, otherwise. A busy core drops it after its
 * launch.
 *
 * Locks: aicpu_lock protects the start of dispatchers (devs[].gen1),
 * core starts (against fork()) and the shared page; a device's sync_lock
 * its @synced (taken under no other lock of the library but the caller's
 * of mem.c's table_take()); everything else of a device is its
 * dispatcher's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <dlfcn.h>

#include "internal.h"
#include "aicpu.h"

extern char **environ;

/* make install's place for hcclt-aicpu; the Makefile passes LIBDIR's. */
#ifndef HCCLT_AICPU_DEFAULT
#define HCCLT_AICPU_DEFAULT "/usr/local/lib/hcclthread/hcclt-aicpu"
#endif

#define MAX_CORES	64

struct core {
	pid_t pid;			/* 0: no process */
	int cmd, rep;			/* pipe ends of this process */
	struct hcclt_launch *l;		/* running, NULL when idle */
	int64_t deadline;		/* CLOCK_MONOTONIC ns; 0: none */
	int timed_out;			/* killed for its deadline */
	int faulted;
	struct aicpu_reply fault;	/* its FAULT reply */
	uint64_t state_sent;		/* state_gen it was last sent; 0: none */
	uint64_t state_inflight;	/* state_gen its running launch carried */
	uint64_t state_have;		/* state_gen it has confirmed taking */
};

struct aicpu_dev {
	_Atomic uint32_t gen1;		/* fork generation + 1 it runs in; 0 */
	int dev, fd;
	int maxcores;
	struct core cores[MAX_CORES];
	struct hcclt_launch *head, *tail;	/* waiting for a core */
	int wake_fd;			/* eventfd: memory left the table */
	/* protects @synced; @sync_cond signals its changes */
	pthread_mutex_t sync_lock;
	pthread_cond_t sync_cond;
	uint64_t synced;		/* every idle core has state_gen >= it */
};

/* protects adevs[].gen1, shared_fd, shared_page */
static pthread_mutex_t aicpu_lock = PTHREAD_MUTEX_INITIALIZER;
static struct aicpu_dev adevs[HCCLT_MAX_DEVICES];
static int shared_fd = -1;
static _Atomic uint64_t *shared_page;
/* Bumped when the mappings or the names change: what cores were sent. */
static _Atomic uint64_t state_gen = 1;

void hcclt_aicpu_state_changed(void)
{
	atomic_fetch_add_explicit(&state_gen, 1, memory_order_acq_rel);
}

void hcclt_aicpu_memory_gone(int dev)
{
	uint64_t g = atomic_fetch_add_explicit(&state_gen, 1, memory_order_acq_rel) + 1;
	struct aicpu_dev *a;
	struct timespec ts;
	uint64_t one = 1;

	if (dev < 0 || dev >= HCCLT_MAX_DEVICES)
		return;
	a = &adevs[dev];
	if (atomic_load_explicit(&a->gen1, memory_order_acquire) != hcclt_gen() + 1)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 2;
	pthread_mutex_lock(&a->sync_lock);
	if (write(a->wake_fd, &one, sizeof(one)) < 0)
		hcclt_debug("AI CPU: wake of device %d: %s", dev, strerror(errno));
	while (a->synced < g)
		if (pthread_cond_timedwait(&a->sync_cond, &a->sync_lock, &ts))
			break;
	pthread_mutex_unlock(&a->sync_lock);
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void aicpu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Exceptions are the application's business: always on stderr. */
static void aicpu_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("hcclthread: AI CPU: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

/* ---- the core program ---- */

/*
 * hcclt-aicpu: $HCCLT_AICPU, else hcclthread/hcclt-aicpu beside this
 * library, else where make install puts it.
 */
static const char *core_path(void)
{
	static char path[PATH_MAX];
	static const char *found;
	const char *e = getenv("HCCLT_AICPU");
	Dl_info di;
	char *slash;

	if (e && *e)
		return e;
	pthread_mutex_lock(&aicpu_lock);
	/* Beside this library; beside a program that has it built in. */
	if (!found && dladdr((void *)core_path, &di) && di.dli_fname) {
		static const char *const rel[] = { "hcclthread/hcclt-aicpu",
						   "../lib/hcclthread/hcclt-aicpu" };
		size_t i;

		for (i = 0; !found && i < sizeof(rel) / sizeof(rel[0]); i++) {
			snprintf(path, sizeof(path), "%s", di.dli_fname);
			slash = strrchr(path, '/');
			if (!slash)
				break;
			snprintf(slash + 1, sizeof(path) - (size_t)(slash + 1 - path), "%s",
				 rel[i]);
			if (!access(path, X_OK))
				found = path;
		}
	}
	if (!found) {
		snprintf(path, sizeof(path), "%s", HCCLT_AICPU_DEFAULT);
		found = path;
	}
	pthread_mutex_unlock(&aicpu_lock);
	return found;
}

/* The page this process and its cores count idle epochs in (idle.c). */
static int shared_ensure(void)
{
	int ret = 0;

	pthread_mutex_lock(&aicpu_lock);
	if (shared_fd < 0) {
		int fd = memfd_create("hcclt-aicpu-epoch", MFD_CLOEXEC);
		void *p = MAP_FAILED;

		if (fd >= 0 && !ftruncate(fd, 4096))
			p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED) {
			ret = -errno;
			if (fd >= 0)
				close(fd);
		} else {
			shared_fd = fd;
			shared_page = p;
			hcclt_idle_share(shared_page);
		}
	}
	pthread_mutex_unlock(&aicpu_lock);
	return ret;
}

static void core_close(struct core *c)
{
	if (c->cmd >= 0)
		close(c->cmd);
	if (c->rep >= 0)
		close(c->rep);
	c->cmd = c->rep = -1;
}

/* Start a core process in @c. 0 or -1. */
static int core_start(struct aicpu_dev *a, struct core *c)
{
	int cmd[2] = { -1, -1 }, rep[2] = { -1, -1 }, hi[4] = { -1, -1, -1, -1 };
	char sdev[16], sgen[16], sproto[16], spid[24];
	posix_spawn_file_actions_t fa;
	const char *path = core_path();
	posix_spawnattr_t sa;
	sigset_t ss;
	char *argv[7];
	int i, ret = -1;
	pid_t pid;

	/*
	 * Under aicpu_lock from the pipes to @c: a fork() meanwhile would
	 * inherit them (atfork_child closes those of started cores only).
	 */
	pthread_mutex_lock(&aicpu_lock);
	if (pipe2(cmd, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		goto out;
	/* Above 3..6 first, so that the dup2()s below never clobber one. */
	hi[0] = fcntl(a->fd, F_DUPFD_CLOEXEC, 16);
	hi[1] = fcntl(cmd[0], F_DUPFD_CLOEXEC, 16);
	hi[2] = fcntl(rep[1], F_DUPFD_CLOEXEC, 16);
	hi[3] = fcntl(shared_fd, F_DUPFD_CLOEXEC, 16);
	for (i = 0; i < 4; i++)
		if (hi[i] < 0)
			goto out;
	snprintf(sdev, sizeof(sdev), "%d", a->dev);
	snprintf(sgen, sizeof(sgen), "%u", hcclt_gen());
	snprintf(sproto, sizeof(sproto), "%d", AICPU_PROTO);
	snprintf(spid, sizeof(spid), "%ld", (long)getpid());
	argv[0] = (char *)"hcclt-aicpu";
	argv[1] = (char *)"--aicpu-core";
	argv[2] = sdev;
	argv[3] = sgen;
	argv[4] = sproto;
	argv[5] = spid;
	argv[6] = NULL;
	/* Default dispositions and no blocked signal: its fault handler runs. */
	posix_spawnattr_init(&sa);
	sigemptyset(&ss);
	posix_spawnattr_setsigmask(&sa, &ss);
	sigaddset(&ss, SIGSEGV);
	sigaddset(&ss, SIGBUS);
	sigaddset(&ss, SIGFPE);
	sigaddset(&ss, SIGILL);
	sigaddset(&ss, SIGABRT);
	sigaddset(&ss, SIGPIPE);
	posix_spawnattr_setsigdefault(&sa, &ss);
	posix_spawnattr_setflags(&sa, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, hi[0], AICPU_FD_DEV);
	posix_spawn_file_actions_adddup2(&fa, hi[1], AICPU_FD_CMD);
	posix_spawn_file_actions_adddup2(&fa, hi[2], AICPU_FD_REPLY);
	posix_spawn_file_actions_adddup2(&fa, hi[3], AICPU_FD_SHARED);
	i = posix_spawn(&pid, path, &fa, &sa, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&sa);
	if (i) {
		aicpu_log("cannot start %s: %s (set HCCLT_AICPU to hcclt-aicpu's path)",
			  path, strerror(i));
		goto out;
	}
	hcclt_debug("AI CPU core %ld of device %d started", (long)pid, a->dev);
	c->pid = pid;
	c->cmd = cmd[1];
	c->rep = rep[0];
	cmd[1] = rep[0] = -1;
	c->l = NULL;
	c->deadline = 0;
	c->timed_out = 0;
	c->faulted = 0;
	c->state_sent = 0;
	c->state_inflight = 0;
	c->state_have = 0;
	ret = 0;
out:
	for (i = 0; i < 4; i++)
		if (hi[i] >= 0)
			close(hi[i]);
	for (i = 0; i < 2; i++) {
		if (cmd[i] >= 0)
			close(cmd[i]);
		if (rep[i] >= 0)
			close(rep[i]);
	}
	pthread_mutex_unlock(&aicpu_lock);
	return ret;
}

/* ---- what a fault was ---- */

/* What @addr is in this process, from /proc/self/maps, into @buf. */
static void describe_addr(uint64_t addr, char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512], path[400];
	unsigned long lo, hi;

	snprintf(buf, len, "not mapped in the application either");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		path[0] = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %399[^\n]", &lo, &hi, path) < 2)
			continue;
		if (addr < lo || addr >= hi)
			continue;
		if (!strcmp(path, "[heap]"))
			snprintf(buf, len, "host memory: the application's heap");
		else if (!strncmp(path, "[stack", 6))
			snprintf(buf, len, "host memory: the application's stack");
		else if (!path[0])
			snprintf(buf, len,
				 "host memory: anonymous (malloc()ed, a thread's stack, mmap())");
		else if (!strncmp(path, "/dev/", 5) || strstr(path, "dmabuf"))
			snprintf(buf, len, "device memory of another device (%.160s)", path);
		else
			snprintf(buf, len, "host memory: %.160s", path);
		break;
	}
	fclose(f);
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT (abort())";
	case SIGTRAP: return "SIGTRAP";
	case SIGSYS: return "SIGSYS";
	case SIGKILL: return "SIGKILL";
	default: return "a signal";
	}
}

static void kernel_fail(struct aicpu_dev *a, struct hcclt_launch *l)
{
	struct drm_hcclt_kernel_done d;

	/* What the kernel queued before it died is not in the idle table. */
	hcclt_idle_forget();
	memset(&d, 0, sizeof(d));
	d.handle = l->handle;
	d.seqno = l->seqno;
	d.status = AICPU_STATUS_EXCEPTION;
	if (hcclt_ioctl(a->fd, DRM_IOCTL_HCCLT_KERNEL_DONE, &d))
		hcclt_debug("AI CPU: KERNEL_DONE of failed launch %llu: %s",
			    (unsigned long long)l->seqno, strerror(errno));
}

/* @c's process has gone (its reply pipe closed): account for it. */
static void core_gone(struct aicpu_dev *a, struct core *c)
{
	struct hcclt_launch *l = c->l;
	char what[512], where[200];
	int st = 0;

	core_close(c);
	/* Its reply pipe closed: it is dying, or a kernel closed the pipe. */
	kill(c->pid, SIGKILL);
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	hcclt_debug("AI CPU core %ld of device %d ended (status 0x%x)", (long)c->pid, a->dev,
		    st);
	c->pid = 0;
	c->l = NULL;
	if (!l)
		return;
	if (c->timed_out) {
		/* What it queued before it was stopped is not in the idle table. */
		hcclt_idle_forget();
		aicpu_log("kernel %s (launch %llu) on device %d ran past its %u s timeout: "
			  "its core was stopped", l->name, (unsigned long long)l->seqno, a->dev,
			  l->timeout_s);
		free(l);
		return;
	}
	if (c->faulted && c->fault.addr &&
	    (c->fault.status == SIGFPE || c->fault.status == SIGILL)) {
		snprintf(what, sizeof(what), "%s at instruction 0x%llx (code %d)",
			 signame(c->fault.status), (unsigned long long)c->fault.addr,
			 c->fault.code);
	} else if (c->faulted && c->fault.addr) {
		describe_addr(c->fault.addr, where, sizeof(where));
		snprintf(what, sizeof(what), "%s at 0x%llx (code %d): %s",
			 signame(c->fault.status), (unsigned long long)c->fault.addr,
			 c->fault.code, where);
	} else if (c->faulted) {
		snprintf(what, sizeof(what), "%s", signame(c->fault.status));
	} else if (WIFSIGNALED(st)) {
		snprintf(what, sizeof(what), "killed by %s (%d)", signame(WTERMSIG(st)),
			 WTERMSIG(st));
	} else {
		snprintf(what, sizeof(what), "exit(%d) in the kernel",
			 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	aicpu_log("AICPU exception: kernel %s (launch %llu, %s) on device %d: %s",
		  l->name, (unsigned long long)l->seqno, l->symbol, a->dev, what);
	kernel_fail(a, l);
	free(l);
}

/* ---- handing launches over ---- */

static int write_full(int fd, const void *buf, size_t n)
{
	const unsigned char *p = buf;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Send @l to idle core @c, in one write. 0, or -1 when the core has gone. */
static int core_send(struct aicpu_dev *a, struct core *c, struct hcclt_launch *l)
{
	uint64_t gen = atomic_load_explicit(&state_gen, memory_order_acquire);
	struct hcclt_aicpu_map *m = NULL;
	struct aicpu_cmd cmd;
	unsigned char *buf, *p;
	char *names = NULL;
	size_t len;
	long nl = 0;
	int n = 0, ret;

	/* The state read after gen: a change meanwhile is sent next time. */
	if (gen != c->state_sent) {
		n = hcclt_mem_snapshot(a->dev, &m);
		nl = hcclt_names_snapshot(a->dev, &names);
		if (n < 0 || nl < 0) {
			/* No memory for the state: fail this launch, not the next. */
			free(m);
			free(names);
			return -1;
		}
	}
	memset(&cmd, 0, sizeof(cmd));
	cmd.magic = AICPU_CMD_MAGIC;
	cmd.blocks = l->blocks;
	cmd.seqno = l->seqno;
	cmd.handle = l->handle;
	cmd.so_len = (uint32_t)strlen(l->path) + 1;
	cmd.sym_len = (uint32_t)strlen(l->symbol) + 1;
	cmd.args_len = (uint32_t)l->len;
	cmd.nmaps = (uint32_t)n;
	cmd.nholders = l->nholders;
	cmd.holders_len = (uint32_t)l->holders_len;
	cmd.names_len = (uint32_t)nl;
	cmd.flags = gen == c->state_sent ? AICPU_CMD_SAME_STATE : 0;
	len = sizeof(cmd) + cmd.so_len + cmd.sym_len + l->len + l->holders_len +
	      (size_t)n * sizeof(*m) + (size_t)nl;
	buf = malloc(len);
	c->l = l;
	c->deadline = l->deadline;
	ret = -1;
	if (buf) {
		p = buf;
		memcpy(p, &cmd, sizeof(cmd));
		p += sizeof(cmd);
		memcpy(p, l->path, cmd.so_len);
		p += cmd.so_len;
		memcpy(p, l->symbol, cmd.sym_len);
		p += cmd.sym_len;
		memcpy(p, l->args, l->len);
		p += l->len;
		memcpy(p, l->holders, l->holders_len);
		p += l->holders_len;
		if (n)
			memcpy(p, m, (size_t)n * sizeof(*m));
		p += (size_t)n * sizeof(*m);
		if (nl)
			memcpy(p, names, (size_t)nl);
		ret = write_full(c->cmd, buf, len);
		if (!ret) {
			c->state_sent = gen;
			c->state_inflight = gen;
		}
	}
	free(buf);
	free(m);
	free(names);
	return ret;
}

/* Idle, alive, and not being stopped. */
static int core_idle(const struct core *c)
{
	return c->pid && !c->l && !c->timed_out && !c->faulted;
}

/*
 * Bring every idle core's mappings in line with the table (a SYNC
 * command), and tell memory_gone() waiters once all idle cores have
 * confirmed: what the application freed is unmapped there too.
 */
static void sync_idle(struct aicpu_dev *a)
{
	uint64_t gen = atomic_load_explicit(&state_gen, memory_order_acquire);
	struct hcclt_aicpu_map *m = NULL;
	struct aicpu_cmd cmd;
	char *names = NULL;
	unsigned char *buf;
	int i, n, all = 1;
	long nl;
	size_t len;

	for (i = 0; i < a->maxcores; i++) {
		struct core *c = &a->cores[i];

		if (!core_idle(c))
			continue;
		if (c->state_sent != gen) {
			n = hcclt_mem_snapshot(a->dev, &m);
			nl = hcclt_names_snapshot(a->dev, &names);
			buf = NULL;
			if (n >= 0 && nl >= 0) {
				memset(&cmd, 0, sizeof(cmd));
				cmd.magic = AICPU_CMD_MAGIC;
				cmd.seqno = gen;
				cmd.so_len = 1;
				cmd.sym_len = 1;
				cmd.nmaps = (uint32_t)n;
				cmd.names_len = (uint32_t)nl;
				cmd.flags = AICPU_CMD_SYNC;
				len = sizeof(cmd) + 2 + (size_t)n * sizeof(*m) + (size_t)nl;
				buf = calloc(1, len);
			}
			if (buf) {
				memcpy(buf, &cmd, sizeof(cmd));
				if (n)
					memcpy(buf + sizeof(cmd) + 2, m, (size_t)n * sizeof(*m));
				if (nl)
					memcpy(buf + sizeof(cmd) + 2 + (size_t)n * sizeof(*m), names,
					       (size_t)nl);
				if (!write_full(c->cmd, buf, len))
					c->state_sent = gen;
			}
			free(buf);
			free(m);
			free(names);
			m = NULL;
			names = NULL;
		}
		all &= c->state_have >= gen;
	}
	if (!all)
		return;
	pthread_mutex_lock(&a->sync_lock);
	if (a->synced < gen) {
		a->synced = gen;
		pthread_cond_broadcast(&a->sync_cond);
	}
	pthread_mutex_unlock(&a->sync_lock);
}

/* Hand queued launches to idle cores, starting cores as needed. */
static void dispatch(struct aicpu_dev *a)
{
	struct hcclt_launch *l;
	struct core *c;
	int i, idle, spare, live, fresh;

	while (a->head) {
		idle = spare = -1;
		live = 0;
		for (i = 0; i < a->maxcores; i++) {
			live += !!a->cores[i].pid;
			if (idle < 0 && core_idle(&a->cores[i]))
				idle = i;
			if (!a->cores[i].pid && spare < 0)
				spare = i;
		}
		if (idle < 0 && spare >= 0 && !core_start(a, &a->cores[spare]))
			idle = spare;
		if (idle < 0) {
			if (!live) {
				/* No core at all and none starts: fail what waits. */
				l = a->head;
				a->head = l->next;
				if (!a->head)
					a->tail = NULL;
				aicpu_log("kernel %s (launch %llu) on device %d: no AI CPU core",
					  l->name, (unsigned long long)l->seqno, a->dev);
				kernel_fail(a, l);
				free(l);
				continue;
			}
			return;
		}
		c = &a->cores[idle];
		l = a->head;
		a->head = l->next;
		if (!a->head)
			a->tail = NULL;
		l->next = NULL;
		fresh = !c->state_sent;
		if (core_send(a, c, l)) {
			c->l = NULL;
			if (fresh) {
				/* A core that dies before its first launch does not start. */
				core_gone(a, c);
				aicpu_log("kernel %s (launch %llu) on device %d: the AI CPU core "
					  "ended before it took the launch", l->name,
					  (unsigned long long)l->seqno, a->dev);
				kernel_fail(a, l);
				free(l);
				continue;
			}
			/* It died idle: back to the head, and account for it. */
			l->next = a->head;
			a->head = l;
			if (!a->tail)
				a->tail = l;
			core_gone(a, c);
		}
	}
}

static void queue(struct aicpu_dev *a, const struct drm_hcclt_event_launch *ev)
{
	struct hcclt_launch *l = (struct hcclt_launch *)(uintptr_t)ev->cookie;

	hcclt_debug("AI CPU: launch %llu of handle 0x%llx%s", (unsigned long long)ev->seqno,
		    (unsigned long long)ev->handle,
		    ev->flags & HCCLT_LAUNCH_CANCELLED ? " was cancelled" : "");
	if (ev->flags & HCCLT_LAUNCH_CANCELLED) {
		free(l);
		return;
	}
	l->seqno = ev->seqno;
	l->handle = ev->handle;
	l->next = NULL;
	/*
	 * The driver armed the launch's timer when it sent the event: its
	 * core is stopped at the same deadline, however long it waited for
	 * one.
	 */
	l->deadline = l->timeout_s ? now_ns() + (int64_t)l->timeout_s * 1000000000 : 0;
	if (a->tail)
		a->tail->next = l;
	else
		a->head = l;
	a->tail = l;
}

/* Read what core @c replied; its process is gone when 1. */
static int core_read(struct aicpu_dev *a, struct core *c)
{
	struct aicpu_reply r;
	ssize_t n;

	n = read(c->rep, &r, sizeof(r));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n != (ssize_t)sizeof(r))
		return 1;
	switch (r.type) {
	case AICPU_REPLY_DONE:
		hcclt_debug("AI CPU: launch %llu returned %d", (unsigned long long)r.seqno,
			    r.status);
		free(c->l);
		c->l = NULL;
		c->deadline = 0;
		c->state_have = c->state_inflight;
		break;
	case AICPU_REPLY_SYNCED:
		c->state_have = r.seqno;
		break;
	case AICPU_REPLY_FAULT:
		c->faulted = 1;
		c->fault = r;
		break;
	case AICPU_REPLY_ERROR:
		r.msg[sizeof(r.msg) - 1] = 0;
		aicpu_log("kernel %s (launch %llu) on device %d: %s", c->l ? c->l->name : "?",
			  (unsigned long long)r.seqno, a->dev, r.msg);
		break;
	}
	return 0;
}

static void read_events(struct aicpu_dev *a)
{
	union {
		struct drm_event e;
		unsigned char b[4096];
	} buf;
	ssize_t n, off;

	n = read(a->fd, buf.b, sizeof(buf.b));
	for (off = 0; off + (ssize_t)sizeof(struct drm_event) <= n;) {
		struct drm_event *e = (struct drm_event *)(buf.b + off);

		if (e->length < sizeof(*e) || off + (ssize_t)e->length > n)
			break;
		if (e->type == DRM_HCCLT_EVENT_LAUNCH &&
		    e->length >= sizeof(struct drm_hcclt_event_launch)) {
			struct drm_hcclt_event_launch ev;

			memcpy(&ev, e, sizeof(ev));
			queue(a, &ev);
		}
		off += e->length;
	}
}

static void *dispatcher_main(void *p)
{
	struct aicpu_dev *a = p;
	struct pollfd pfd[MAX_CORES + 2];
	int who[MAX_CORES + 2];
	int i, n, timeout;
	int64_t now, next;
	sigset_t ss;

	/* Writes to a dead core's pipe fail with EPIPE, not a signal. */
	sigemptyset(&ss);
	sigaddset(&ss, SIGPIPE);
	pthread_sigmask(SIG_BLOCK, &ss, NULL);
	hcclt_debug("AI CPU of device %d: dispatcher starts (fd %d, %d cores)", a->dev, a->fd,
		    a->maxcores);
	for (;;) {
		pfd[0].fd = a->fd;
		pfd[0].events = POLLIN;
		pfd[1].fd = a->wake_fd;
		pfd[1].events = POLLIN;
		n = 2;
		next = 0;
		for (i = 0; i < a->maxcores; i++) {
			struct core *c = &a->cores[i];

			if (!c->pid)
				continue;
			pfd[n].fd = c->rep;
			pfd[n].events = POLLIN;
			who[n++] = i;
			if (c->l && c->deadline && !c->timed_out && (!next || c->deadline < next))
				next = c->deadline;
		}
		timeout = -1;
		if (next) {
			now = now_ns();
			timeout = next <= now ? 0 : (int)((next - now + 999999) / 1000000);
		}
		if (poll(pfd, (nfds_t)n, timeout) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (pfd[0].revents & (POLLNVAL | POLLERR))
			break;
		if (pfd[1].revents & POLLIN) {
			uint64_t v;

			if (read(a->wake_fd, &v, sizeof(v)) < 0)
				hcclt_debug("AI CPU: wake read: %s", strerror(errno));
		}
		for (i = 2; i < n; i++) {
			struct core *c = &a->cores[who[i]];

			if (pfd[i].revents & POLLIN) {
				if (core_read(a, c))
					core_gone(a, c);
			} else if (pfd[i].revents & (POLLHUP | POLLERR)) {
				core_gone(a, c);
			}
		}
		now = now_ns();
		for (i = 0; i < a->maxcores; i++) {
			struct core *c = &a->cores[i];

			if (c->pid && c->l && c->deadline && !c->timed_out && c->deadline <= now) {
				hcclt_debug("AI CPU: launch %llu past its timeout: killing core %ld",
					    (unsigned long long)c->l->seqno, (long)c->pid);
				c->timed_out = 1;
				kill(c->pid, SIGKILL);
			}
		}
		if (pfd[0].revents & POLLIN)
			read_events(a);
		dispatch(a);
		sync_idle(a);
	}
	hcclt_debug("AI CPU of device %d: dispatcher stops", a->dev);
	for (i = 0; i < a->maxcores; i++)
		if (a->cores[i].pid) {
			kill(a->cores[i].pid, SIGKILL);
			core_gone(a, &a->cores[i]);
		}
	return NULL;
}

int hcclt_aicpu_ensure(int dev, int fd)
{
	struct aicpu_dev *a = &adevs[dev];
	struct drm_hcclt_query q;
	pthread_attr_t attr;
	pthread_t t;
	int i, ret = 0;

	if (atomic_load_explicit(&a->gen1, memory_order_acquire) ==
	    hcclt_gen() + 1)
		return 0;
	if (shared_ensure())
		return -1;
	pthread_mutex_lock(&aicpu_lock);
	if (a->gen1 != hcclt_gen() + 1) {
		memset(a, 0, sizeof(*a));
		a->dev = dev;
		a->fd = fd;
		a->maxcores = 1;
		a->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (a->wake_fd < 0) {
			pthread_mutex_unlock(&aicpu_lock);
			return -1;
		}
		pthread_mutex_init(&a->sync_lock, NULL);
		pthread_cond_init(&a->sync_cond, NULL);
		memset(&q, 0, sizeof(q));
		if (!hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q) &&
		    (q.features & HCCLT_FEATURE_AICPU_CORES) && q.aicpu_cores)
			a->maxcores = q.aicpu_cores > MAX_CORES ? MAX_CORES : (int)q.aicpu_cores;
		for (i = 0; i < MAX_CORES; i++)
			a->cores[i].cmd = a->cores[i].rep = -1;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		ret = pthread_create(&t, &attr, dispatcher_main, a) ? -1 : 0;
		pthread_attr_destroy(&attr);
		if (!ret)
			atomic_store_explicit(&a->gen1, hcclt_gen() + 1, memory_order_release);
	}
	pthread_mutex_unlock(&aicpu_lock);
	return ret;
}

/*
 * At exit, the cores go with the application before it is gone: they hold
 * its device files, which a module unload right after must find closed.
 * (PR_SET_PDEATHSIG kills them too, a moment after the process is gone.)
 */
__attribute__((destructor)) static void aicpu_exit(void)
{
	int d, i;

	for (d = 0; d < HCCLT_MAX_DEVICES; d++) {
		if (atomic_load(&adevs[d].gen1) != hcclt_gen() + 1)
			continue;
		for (i = 0; i < MAX_CORES; i++)
			if (adevs[d].cores[i].pid > 0)
				kill(adevs[d].cores[i].pid, SIGKILL);
		for (i = 0; i < MAX_CORES; i++)
			if (adevs[d].cores[i].pid > 0)
				waitpid(adevs[d].cores[i].pid, NULL, 0);
	}
}

void hcclt_aicpu_atfork_prepare(void)
{
	pthread_mutex_lock(&aicpu_lock);
}

void hcclt_aicpu_atfork_parent(void)
{
	pthread_mutex_unlock(&aicpu_lock);
}

/*
 * The child has no dispatcher and no cores of its own: close what it
 * inherited of the parent's (pipes, the shared page), start afresh.
 */
void hcclt_aicpu_atfork_child(void)
{
	int d, i;

	for (d = 0; d < HCCLT_MAX_DEVICES; d++) {
		for (i = 0; adevs[d].gen1 && i < MAX_CORES; i++)
			if (adevs[d].cores[i].pid)
				core_close(&adevs[d].cores[i]);
		if (adevs[d].gen1)
			close(adevs[d].wake_fd);
		memset(&adevs[d], 0, sizeof(adevs[d]));
	}
	if (shared_fd >= 0) {
		close(shared_fd);
		munmap((void *)shared_page, 4096);
	}
	shared_fd = -1;
	shared_page = NULL;
	pthread_mutex_unlock(&aicpu_lock);
}
