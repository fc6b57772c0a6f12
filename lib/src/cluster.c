// SPDX-License-Identifier: MIT
/*
 * HcclCommInitClusterInfo[Config]: a communicator from a rank table.
 *
 * Every rank reads the same table (ranktable.c) and joins the same kernel
 * group (DRM_IOCTL_HCCLT_GROUP_*, as HcclCommInitRootInfo), without a root
 * info passed around: the ranks meet by the table's content. Rank 0 opens
 * an abstract unix socket named after the effective uid and the SHA-256
 * of the file's bytes, creates the group and, while it waits in
 * GROUP_JOIN, hands the group's key to each other rank that connects from
 * a process of the same effective uid (SO_PEERCRED) and names the same
 * table; the others connect (again and again until rank 0 listens, within
 * HCCL_CONNECT_TIMEOUT), get the key and join. The key never leaves the
 * user's processes; the socket goes with rank 0's call (an abstract
 * socket leaves nothing behind, not even when its process dies), once
 * every other rank has fetched the key or rank 0's join has returned.
 *
 * As CANN's world group: one such communicator per device and process at
 * a time (HCCL_E_UNAVAIL), named "hccl_world_group" unless the config
 * names it. Check order and codes: CANN's op_base.cc
 * HcclCommInitClusterInfo[Config] (Documentation/channels.rst, "Rank
 * tables").
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define WORLD_NAME	"hccl_world_group"	/* CANN's HCCL_WORLD_GROUP */

#define RDV_MAGIC	0x52544b48U	/* "HKTR" */
#define RDV_VERSION	1U
#define RDV_OK		0U
#define RDV_MISMATCH	1U	/* another table, rank count or rank */
#define RDV_READ_MS	1000	/* a client's request, at most */

struct rdv_req {
	uint32_t magic, version;
	uint32_t rank, nranks;
	uint8_t digest[HCCLT_RANKTABLE_DIGEST_BYTES];
};

struct rdv_resp {
	uint32_t magic, status;
	uint8_t key[HCCLT_GROUP_KEY_BYTES];
};

/*
 * The rank-table communicator of each device (CANN's per-device world
 * communicator): claimed before the table is checked, set once joined,
 * freed on failure or by HcclCommDestroy(). Entries of another fork
 * generation are free.
 */
struct world {
	uint32_t gen;
	int busy;
	const struct hcclt_comm *comm;	/* NULL while it is being made */
	uint64_t id;
};

static pthread_mutex_t world_lock = PTHREAD_MUTEX_INITIALIZER;
static struct world worlds[HCCLT_MAX_DEVICES];

static int world_claim(int32_t dev)
{
	struct world *w = &worlds[dev];
	int ok;

	pthread_mutex_lock(&world_lock);
	ok = !w->busy || w->gen != hcclt_gen();
	if (ok) {
		w->busy = 1;
		w->gen = hcclt_gen();
		w->comm = NULL;
		w->id = 0;
	}
	pthread_mutex_unlock(&world_lock);
	return ok;
}

static void world_set(int32_t dev, const struct hcclt_comm *c)
{
	pthread_mutex_lock(&world_lock);
	worlds[dev].comm = c;
	worlds[dev].id = c ? c->id : 0;
	if (!c)
		worlds[dev].busy = 0;
	pthread_mutex_unlock(&world_lock);
}

void hcclt_cluster_comm_gone(const struct hcclt_comm *c)
{
	struct world *w;

	if (c->dev < 0 || c->dev >= HCCLT_MAX_DEVICES)
		return;
	w = &worlds[c->dev];
	pthread_mutex_lock(&world_lock);
	if (w->busy && w->comm == c && w->id == c->id && w->gen == c->gen)
		w->busy = 0;
	pthread_mutex_unlock(&world_lock);
}

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Milliseconds to @deadline_ns for poll(): -1 for none, 0 when passed. */
static int ms_left(int64_t deadline_ns)
{
	int64_t left;

	if (deadline_ns == HCCLT_DEADLINE_NONE)
		return -1;
	left = deadline_ns - mono_ns();
	if (left <= 0)
		return 0;
	left = (left + 999999) / 1000000;
	return left > INT32_MAX ? INT32_MAX : (int)left;
}

/* The abstract socket's address for @rt; its length in *@len. */
static void rdv_addr(const struct hcclt_ranktable *rt, struct sockaddr_un *a, socklen_t *len)
{
	char hex[2 * HCCLT_RANKTABLE_DIGEST_BYTES + 1];
	int i, n;

	for (i = 0; i < HCCLT_RANKTABLE_DIGEST_BYTES; i++)
		snprintf(hex + 2 * i, 3, "%02x", rt->digest[i]);
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	/* sun_path[0] stays NUL: the abstract namespace. */
	n = snprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, "hcclthread/ranktable/%u/%s",
		     (unsigned int)geteuid(), hex);
	*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)n);
}

/* ---- rank 0: the key's server -------------------------------------------- */

struct rdv_server {
	struct rdv_server *next;	/* in servers */
	int lfd, stopfd;
	uint32_t nranks;
	uint8_t digest[HCCLT_RANKTABLE_DIGEST_BYTES];
	uint8_t key[HCCLT_GROUP_KEY_BYTES];
	uint8_t served[HCCLT_MAX_GROUP_RANKS];
	pthread_t tid;
};

/*
 * The servers running in this process: a fork() child closes its copies
 * of their sockets (an inherited listener would outlive rank 0's call).
 * srv_lock protects the list and each server's lfd once listed.
 */
static pthread_mutex_t srv_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rdv_server *servers;

void hcclt_cluster_atfork_prepare(void)
{
	pthread_mutex_lock(&srv_lock);
}

void hcclt_cluster_atfork_parent(void)
{
	pthread_mutex_unlock(&srv_lock);
}

void hcclt_cluster_atfork_child(void)
{
	struct rdv_server *s;

	for (s = servers; s; s = s->next) {
		if (s->lfd >= 0)
			close(s->lfd);
		if (s->stopfd >= 0)
			close(s->stopfd);
	}
	servers = NULL;
	pthread_mutex_unlock(&srv_lock);
}

/* Answer one connected client; 1 when it fetched the key for a new rank. */
static int rdv_answer(struct rdv_server *s, int fd)
{
	struct rdv_resp resp;
	struct rdv_req req;
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int fresh = 0;

	/* The key goes to processes of this user only. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) || cred.uid != geteuid())
		return 0;
	if (poll(&p, 1, RDV_READ_MS) != 1 ||
	    recv(fd, &req, sizeof(req), 0) != (ssize_t)sizeof(req) ||
	    req.magic != RDV_MAGIC || req.version != RDV_VERSION)
		return 0;
	memset(&resp, 0, sizeof(resp));
	resp.magic = RDV_MAGIC;
	resp.status = RDV_MISMATCH;
	if (req.nranks == s->nranks && req.rank < s->nranks && req.rank &&
	    !memcmp(req.digest, s->digest, sizeof(s->digest))) {
		resp.status = RDV_OK;
		memcpy(resp.key, s->key, sizeof(resp.key));
		fresh = !s->served[req.rank];
	}
	if (send(fd, &resp, sizeof(resp), MSG_NOSIGNAL) != (ssize_t)sizeof(resp))
		fresh = 0;
	if (fresh)
		s->served[req.rank] = 1;
	memset(&resp, 0, sizeof(resp));
	return fresh;
}

/* Serve the key until every other rank has it or rank 0's join returned. */
static void *rdv_serve(void *arg)
{
	struct rdv_server *s = arg;
	struct pollfd p[2] = {
		{ .fd = s->lfd, .events = POLLIN },
		{ .fd = s->stopfd, .events = POLLIN },
	};
	uint32_t left = s->nranks - 1;
	int fd;

	while (left) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (p[1].revents)
			break;
		while (left && (fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC)) >= 0) {
			left -= (uint32_t)rdv_answer(s, fd);
			close(fd);
		}
	}
	/* Nobody gets this group's key from here on. */
	pthread_mutex_lock(&srv_lock);
	close(s->lfd);
	s->lfd = -1;
	pthread_mutex_unlock(&srv_lock);
	return NULL;
}

/* Unlist @s and close its sockets. */
static void rdv_server_release(struct rdv_server *s)
{
	struct rdv_server **pp;

	pthread_mutex_lock(&srv_lock);
	for (pp = &servers; *pp; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	if (s->lfd >= 0)
		close(s->lfd);
	if (s->stopfd >= 0)
		close(s->stopfd);
	s->lfd = -1;
	s->stopfd = -1;
	pthread_mutex_unlock(&srv_lock);
}

/*
 * Rank 0: listen, then create the group (on @fd, its device's file); the
 * key in *@s and the server thread running. A listener of the same table
 * already there is another rank 0 of it: HCCL_E_PARA.
 */
static HcclResult rdv_server_start(struct rdv_server *s, const struct hcclt_ranktable *rt,
				   int fd)
{
	struct drm_hcclt_group_create gc;
	struct sockaddr_un a;
	sigset_t all, old;
	socklen_t len;
	int ret;

	memset(s, 0, sizeof(*s));
	s->lfd = -1;
	s->stopfd = -1;
	s->nranks = rt->nranks;
	memcpy(s->digest, rt->digest, sizeof(s->digest));
	if (rt->nranks > 1) {
		rdv_addr(rt, &a, &len);
		/* Listed from its birth: a fork() child closes its copy. */
		pthread_mutex_lock(&srv_lock);
		s->lfd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		ret = errno;
		if (s->lfd >= 0) {
			s->next = servers;
			servers = s;
		}
		pthread_mutex_unlock(&srv_lock);
		if (s->lfd < 0)
			return ret == ENOMEM || ret == ENOBUFS ? HCCL_E_MEMORY : HCCL_E_SYSCALL;
		if (bind(s->lfd, (struct sockaddr *)&a, len) || listen(s->lfd, 64)) {
			ret = errno;
			rdv_server_release(s);
			if (ret == EADDRINUSE) {
				hcclt_debug("rank table: rank 0 of this table is already waiting "
					    "(another call, process or job with the same file)");
				return HCCL_E_PARA;
			}
			return HCCL_E_SYSCALL;
		}
		s->stopfd = eventfd(0, EFD_CLOEXEC);
		if (s->stopfd < 0) {
			rdv_server_release(s);
			return HCCL_E_SYSCALL;
		}
	}
	memset(&gc, 0, sizeof(gc));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &gc);
	if (ret) {
		rdv_server_release(s);
		return hcclt_map_errno(HCCLT_OP_GROUP_CREATE, ret);
	}
	memcpy(s->key, gc.key, sizeof(s->key));
	memset(&gc, 0, sizeof(gc));
	if (rt->nranks == 1)
		return HCCL_SUCCESS;
	/* Signals are for the application's threads, not this one. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ret = pthread_create(&s->tid, NULL, rdv_serve, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		rdv_server_release(s);
		return HCCL_E_MEMORY;
	}
	return HCCL_SUCCESS;
}

static void rdv_server_stop(struct rdv_server *s)
{
	uint64_t one = 1;

	if (s->stopfd >= 0) {
		if (write(s->stopfd, &one, sizeof(one)) != (ssize_t)sizeof(one))
			hcclt_debug("rank table: cannot stop the key's server: %s",
				    strerror(errno));
		pthread_join(s->tid, NULL);
	}
	rdv_server_release(s);
	memset(s->key, 0, sizeof(s->key));
}

/* ---- the other ranks: fetch the key ---------------------------------------- */

/* One try: 0 and the key, 1 to try again, or a HcclResult error (negated). */
static int rdv_try(const struct sockaddr_un *a, socklen_t len, const struct rdv_req *req,
		   int64_t deadline_ns, uint8_t *key)
{
	struct rdv_resp resp;
	struct pollfd p;
	int fd, ret = 1, ms;

	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -(int)HCCL_E_SYSCALL;
	if (connect(fd, (const struct sockaddr *)a, len)) {
		/* Nobody listens yet (ECONNREFUSED), or the backlog is full. */
		ret = errno == ECONNREFUSED || errno == EAGAIN || errno == ENOENT ?
		      1 : -(int)HCCL_E_SYSCALL;
		goto out;
	}
	if (send(fd, req, sizeof(*req), MSG_NOSIGNAL) != (ssize_t)sizeof(*req))
		goto out;	/* rank 0 closed meanwhile: again */
	p.fd = fd;
	p.events = POLLIN;
	ms = ms_left(deadline_ns);
	if (poll(&p, 1, ms) != 1 || recv(fd, &resp, sizeof(resp), 0) != (ssize_t)sizeof(resp))
		goto out;
	if (resp.magic != RDV_MAGIC)
		goto out;
	if (resp.status != RDV_OK) {
		hcclt_debug("rank table: rank 0 serves another table or rank count");
		ret = -(int)HCCL_E_PARA;
		goto out;
	}
	memcpy(key, resp.key, HCCLT_GROUP_KEY_BYTES);
	memset(&resp, 0, sizeof(resp));
	ret = 0;
out:
	close(fd);
	return ret;
}

static HcclResult rdv_fetch(const struct hcclt_ranktable *rt, uint32_t rank,
			    int64_t deadline_ns, uint8_t *key)
{
	struct timespec pause = { 0, 0 };
	struct sockaddr_un a;
	struct rdv_req req;
	long wait_ns = 1000000;	/* 1 ms, doubled up to 64 ms */
	socklen_t len;
	int ret;

	rdv_addr(rt, &a, &len);
	memset(&req, 0, sizeof(req));
	req.magic = RDV_MAGIC;
	req.version = RDV_VERSION;
	req.rank = rank;
	req.nranks = rt->nranks;
	memcpy(req.digest, rt->digest, sizeof(req.digest));
	for (;;) {
		ret = rdv_try(&a, len, &req, deadline_ns, key);
		if (ret <= 0)
			return (HcclResult)-ret;
		if (!ms_left(deadline_ns)) {
			hcclt_debug("rank table: rank 0 did not hand out the group in time "
				    "(HCCL_CONNECT_TIMEOUT)");
			return HCCL_E_TIMEOUT;
		}
		pause.tv_nsec = wait_ns;
		nanosleep(&pause, NULL);
		if (wait_ns < 64000000)
			wait_ns *= 2;
	}
}

/* ---- the calls -------------------------------------------------------------- */

static HcclResult init_cluster(const char *clusterInfo, uint32_t rank, HcclCommConfig *config,
			       int has_config, HcclComm *comm)
{
	uint64_t buf_size = hcclt_env_buf_size();
	int32_t dev = hcclt_current_device();
	const char *name = WORLD_NAME;
	uint8_t key[HCCLT_GROUP_KEY_BYTES];
	struct hcclt_ranktable rt;
	struct rdv_server srv;
	struct hcclt_comm *c = NULL;
	int64_t deadline_ns;
	int32_t timeout_ms;
	HcclResult ret;
	int fd;

	/* CANN: the device, clusterInfo, comm, config, the environment. */
	if (dev < 0)
		return HCCL_E_RUNTIME;
	if (!clusterInfo || !comm)
		return HCCL_E_PTR;
	if (has_config && !config)
		return HCCL_E_PTR;
	timeout_ms = hcclt_connect_timeout_ms();
	if (timeout_ms < 0 || !buf_size)
		return HCCL_E_PARA;
	/* Then the config, then the file. */
	if (has_config) {
		ret = hcclt_config_load(config, &buf_size, &name);
		if (ret != HCCL_SUCCESS)
			return ret;
	}
	deadline_ns = hcclt_deadline_ns(timeout_ms);
	ret = hcclt_ranktable_load(clusterInfo, deadline_ns, &rt);
	if (ret != HCCL_SUCCESS)
		return ret;
	fd = hcclt_device_open(dev);
	if (fd < 0) {
		hcclt_ranktable_free(&rt);
		return hcclt_map_errno(HCCLT_OP_DEVICE_HCCL, fd);
	}
	/* CANN's CheckOpBasedHcom: a world communicator, then the name. */
	if (!world_claim(dev)) {
		hcclt_ranktable_free(&rt);
		return HCCL_E_UNAVAIL;
	}
	ret = hcclt_name_exists(dev, name) ? HCCL_E_PARA : HCCL_SUCCESS;
	if (ret == HCCL_SUCCESS)
		ret = hcclt_ranktable_check(&rt, rank, dev, hcclt_device_count());
	if (ret == HCCL_SUCCESS && rank == 0) {
		ret = rdv_server_start(&srv, &rt, fd);
		if (ret == HCCL_SUCCESS) {
			ret = hcclt_comm_join(dev, rt.nranks, srv.key, NULL, 0, deadline_ns, buf_size,
					      name, &c);
			rdv_server_stop(&srv);
		}
	} else if (ret == HCCL_SUCCESS) {
		ret = rdv_fetch(&rt, rank, deadline_ns, key);
		if (ret == HCCL_SUCCESS)
			ret = hcclt_comm_join(dev, rt.nranks, key, NULL, rank, deadline_ns, buf_size,
					      name, &c);
		memset(key, 0, sizeof(key));
	}
	hcclt_ranktable_free(&rt);
	world_set(dev, ret == HCCL_SUCCESS ? c : NULL);
	if (ret == HCCL_SUCCESS)
		*comm = c;
	return ret;
}

HCCLT_EXPORT HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank,
						HcclComm *comm)
{
	return init_cluster(clusterInfo, rank, NULL, 0, comm);
}

HCCLT_EXPORT HcclResult HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank,
						      HcclCommConfig *config, HcclComm *comm)
{
	return init_cluster(clusterInfo, rank, config, 1, comm);
}
