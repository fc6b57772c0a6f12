// SPDX-License-Identifier: MIT
/*
 * HCCL: communicators. A communicator is one rank of a kernel group
 * (DRM_IOCTL_HCCLT_GROUP_*): HcclGetRootInfo makes the group,
 * HcclCommInitRootInfo[Config] joins it and waits for the other ranks,
 * HcclCommInitAll runs every rank of one in threads of this process;
 * cluster.c's HcclCommInitClusterInfo[Config] joins one too (a rank table).
 * Check orders and codes: ../../../shared/reference/hcomm-contract.md 2.5,
 * 2.7 (documented in Documentation/errors.rst).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* HcclRootInfo layout of libhcclthread. */
#define ROOT_MAGIC		0x49524348U	/* "HCRI" */
#define ROOT_VERSION		1U
#define ROOT_OFF_MAGIC		0
#define ROOT_OFF_VERSION	4
#define ROOT_OFF_KEY		8
#define ROOT_OFF_NAME		(ROOT_OFF_KEY + HCCLT_GROUP_KEY_BYTES)
/* The root host (QUERY's cluster_addr and _port, network order); 0: none. */
#define ROOT_OFF_ADDR		(ROOT_OFF_NAME + HCCLT_GROUP_NAME_BYTES)
#define ROOT_OFF_PORT		(ROOT_OFF_ADDR + 4)

#define CONNECT_TIMEOUT_DEFAULT	120	/* seconds, as CANN */
#define CONNECT_TIMEOUT_MAX	(INT32_MAX / 1000)
#define BUFFER_SIZE_DEFAULT_MB	200	/* CANN's HCCL_BUFFSIZE default */

_Static_assert(ROOT_OFF_PORT + 2 <= sizeof(HcclRootInfo),
	       "root info fits");

/*
 * The names of this process's communicators per device: as in CANN, a
 * communicator cannot take a name another one of the process has on the
 * same device (HCCL_E_PARA). Entries of another fork generation are the
 * parent's and do not count. names_lock is taken across fork()
 * (device.c's handlers).
 */
struct name_ent {
	struct name_ent *next;
	int32_t dev;
	uint32_t gen;
	uint64_t id;	/* kernel communicator id once joined, else 0 */
	char name[128];
};

#define NAMES_BUCKETS	4096

static pthread_mutex_t names_lock = PTHREAD_MUTEX_INITIALIZER;
static struct name_ent *names[NAMES_BUCKETS];

/* FNV-1a of the device and the name. */
static struct name_ent **name_bucket(int32_t dev, const char *name)
{
	uint32_t h = 2166136261U ^ (uint32_t)dev;

	while (*name)
		h = (h ^ (uint8_t)*name++) * 16777619U;
	return &names[h % NAMES_BUCKETS];
}

void hcclt_names_atfork_prepare(void)
{
	pthread_mutex_lock(&names_lock);
}

void hcclt_names_atfork_release(void)
{
	pthread_mutex_unlock(&names_lock);
}

/* Take @name on @dev: HCCL_E_PARA when taken, HCCL_E_MEMORY. */
static HcclResult name_take(int32_t dev, const char *name)
{
	struct name_ent **b = name_bucket(dev, name), *e;
	uint32_t gen = hcclt_gen();

	pthread_mutex_lock(&names_lock);
	for (e = *b; e; e = e->next) {
		if (e->dev == dev && e->gen == gen && !strcmp(e->name, name)) {
			pthread_mutex_unlock(&names_lock);
			return HCCL_E_PARA;
		}
	}
	e = calloc(1, sizeof(*e));
	if (!e) {
		pthread_mutex_unlock(&names_lock);
		return HCCL_E_MEMORY;
	}
	e->dev = dev;
	e->gen = gen;
	strncpy(e->name, name, sizeof(e->name) - 1);
	e->next = *b;
	*b = e;
	pthread_mutex_unlock(&names_lock);
	hcclt_aicpu_state_changed();
	return HCCL_SUCCESS;
}

/* Give back @name on @dev (of this generation). */
static void name_drop(int32_t dev, const char *name)
{
	uint32_t gen = hcclt_gen();
	struct name_ent **p, *e;

	pthread_mutex_lock(&names_lock);
	for (p = name_bucket(dev, name); (e = *p); p = &e->next) {
		if (e->dev == dev && e->gen == gen && !strcmp(e->name, name)) {
			*p = e->next;
			free(e);
			break;
		}
	}
	pthread_mutex_unlock(&names_lock);
	hcclt_aicpu_state_changed();
}

/*
 * The names of this generation's communicators on @dev, each
 * NUL-terminated, back to back, for the AI CPU (aicpu.c): the blob's
 * length, in *@out (malloc()ed, NULL when empty), or -ENOMEM.
 */
long hcclt_names_snapshot(int32_t dev, char **out)
{
	uint32_t gen = hcclt_gen();
	struct name_ent *e;
	size_t len = 0, i;
	char *b = NULL, *p;

	pthread_mutex_lock(&names_lock);
	for (i = 0; i < NAMES_BUCKETS; i++)
		for (e = names[i]; e; e = e->next)
			if (e->dev == dev && e->gen == gen)
				len += strlen(e->name) + 1;
	if (len && !(b = malloc(len))) {
		pthread_mutex_unlock(&names_lock);
		return -ENOMEM;
	}
	for (i = 0, p = b; i < NAMES_BUCKETS; i++)
		for (e = names[i]; e; e = e->next)
			if (e->dev == dev && e->gen == gen)
				p = stpcpy(p, e->name) + 1;
	pthread_mutex_unlock(&names_lock);
	*out = b;
	return (long)len;
}

/*
 * In the AI CPU process: the names of @dev become those of @blob
 * (hcclt_names_snapshot()'s form), for HcommAcquireComm.
 */
void hcclt_names_adopt(int32_t dev, const char *blob, size_t len)
{
	struct name_ent **p, *e;
	size_t i, n;

	pthread_mutex_lock(&names_lock);
	for (i = 0; i < NAMES_BUCKETS; i++) {
		for (p = &names[i]; (e = *p);) {
			if (e->dev == dev) {
				*p = e->next;
				free(e);
			} else {
				p = &e->next;
			}
		}
	}
	pthread_mutex_unlock(&names_lock);
	for (i = 0; i < len; i += n + 1) {
		n = strnlen(blob + i, len - i);
		if (i + n < len)
			name_take(dev, blob + i);
	}
}

/* @name on @dev (taken by this generation) is communicator @id. */
static void name_set_id(int32_t dev, const char *name, uint64_t id)
{
	uint32_t gen = hcclt_gen();
	struct name_ent *e;

	pthread_mutex_lock(&names_lock);
	for (e = *name_bucket(dev, name); e; e = e->next)
		if (e->dev == dev && e->gen == gen && !strcmp(e->name, name))
			e->id = id;
	pthread_mutex_unlock(&names_lock);
}

/*
 * The kernel id of the communicator of this process named @name on @dev
 * (diag.c): 0 when none, or while it is being made.
 */
uint64_t hcclt_name_comm_id(int32_t dev, const char *name)
{
	uint32_t gen = hcclt_gen();
	struct name_ent *e;
	uint64_t id = 0;

	pthread_mutex_lock(&names_lock);
	for (e = *name_bucket(dev, name); e && !id; e = e->next)
		if (e->dev == dev && e->gen == gen && !strcmp(e->name, name))
			id = e->id;
	pthread_mutex_unlock(&names_lock);
	return id;
}

/* Does a communicator of this process on @dev have @name? (devapi.c) */
int hcclt_name_exists(int32_t dev, const char *name)
{
	uint32_t gen = hcclt_gen();
	struct name_ent *e;
	int found = 0;

	pthread_mutex_lock(&names_lock);
	for (e = *name_bucket(dev, name); e && !found; e = e->next)
		found = e->dev == dev && e->gen == gen && !strcmp(e->name, name);
	pthread_mutex_unlock(&names_lock);
	return found;
}

/* HCCL_CONNECT_TIMEOUT in ms, or -1 when it is not a number of seconds. */
int32_t hcclt_connect_timeout_ms(void)
{
	const char *e = getenv("HCCL_CONNECT_TIMEOUT");
	unsigned long v;
	char *end;

	if (!e || !*e)
		return CONNECT_TIMEOUT_DEFAULT * 1000;
	if (*e < '0' || *e > '9')
		return -1;
	errno = 0;
	v = strtoul(e, &end, 10);
	if (errno || *end || v < 1 || v > CONNECT_TIMEOUT_MAX)
		return -1;
	return (int32_t)v * 1000;
}

/*
 * The HCCL buffer size in bytes: HCCL_BUFFSIZE in MB (a decimal number
 * from 1 to 2^32 - 1, as the config field takes), default 200; 0 when the
 * variable is set to anything else.
 */
uint64_t hcclt_env_buf_size(void)
{
	const char *e = getenv("HCCL_BUFFSIZE");
	unsigned long long v;
	char *end;

	if (!e || !*e)
		return (uint64_t)BUFFER_SIZE_DEFAULT_MB << 20;
	if (*e < '0' || *e > '9')
		return 0;
	errno = 0;
	v = strtoull(e, &end, 10);
	if (errno || *end || v < 1 || v > UINT32_MAX)
		return 0;
	return (uint64_t)v << 20;
}

HCCLT_EXPORT HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo)
{
	struct drm_hcclt_group_create gc;
	struct drm_hcclt_query q;
	int32_t dev = hcclt_current_device();
	uint32_t magic = ROOT_MAGIC, version = ROOT_VERSION;
	int fd, ret;

	if (dev < 0)
		return HCCL_E_RUNTIME;
	if (!rootInfo)
		return HCCL_E_PTR;
	fd = hcclt_device_open(dev);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_HCCL, fd);
	memset(&gc, 0, sizeof(gc));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &gc);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_GROUP_CREATE, ret);
	memset(rootInfo, 0, sizeof(*rootInfo));
	memcpy(rootInfo->internal + ROOT_OFF_MAGIC, &magic, sizeof(magic));
	memcpy(rootInfo->internal + ROOT_OFF_VERSION, &version, sizeof(version));
	memcpy(rootInfo->internal + ROOT_OFF_KEY, gc.key, sizeof(gc.key));
	gc.name[sizeof(gc.name) - 1] = '\0';
	memcpy(rootInfo->internal + ROOT_OFF_NAME, gc.name, sizeof(gc.name));
	/* Where ranks of other hosts find the group, as CANN's root IP. */
	memset(&q, 0, sizeof(q));
	if (!hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q) && q.cluster_addr) {
		memcpy(rootInfo->internal + ROOT_OFF_ADDR, &q.cluster_addr,
		       sizeof(q.cluster_addr));
		memcpy(rootInfo->internal + ROOT_OFF_PORT, &q.cluster_port,
		       sizeof(q.cluster_port));
	}
	return HCCL_SUCCESS;
}

/*
 * Join rank @rank of the group whose key is @key on device @dev, waiting
 * until @deadline_ns at most (cluster.c too).
 */
HcclResult hcclt_comm_join(int32_t dev, uint32_t nranks, const uint8_t *key,
			   const struct hcclt_root_host *root, uint32_t rank,
			   int64_t deadline_ns, uint64_t buf_size, const char *name,
			   struct hcclt_comm **out)
{
	struct drm_hcclt_group_join gj;
	struct hcclt_comm *c;
	int fd, ret;

	fd = hcclt_device_open(dev);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_HCCL, fd);
	/* CANN: a name already on this device -> E_PARA, before the rendezvous. */
	ret = name_take(dev, name);
	if (ret != HCCL_SUCCESS)
		return ret;
	c = hcclt_obj_alloc();
	if (!c) {
		name_drop(dev, name);
		return HCCL_E_MEMORY;
	}
	memset(&gj, 0, sizeof(gj));
	memcpy(gj.key, key, sizeof(gj.key));
	gj.rank = rank;
	gj.nranks = nranks;
	/* drmIoctl() restarts after a signal; the deadline stays. */
	gj.flags = HCCLT_WAIT_DEADLINE;
	gj.deadline_ns = deadline_ns;
	if (root) {
		gj.root_addr = root->addr;
		gj.root_port = root->port;
	}
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_JOIN, &gj);
	if (ret) {
		hcclt_obj_free(c);
		name_drop(dev, name);
		return hcclt_map_errno(HCCLT_OP_GROUP_JOIN, ret);
	}
	c->gen = hcclt_gen();
	c->dev = dev;
	c->id = gj.comm_id;
	c->rank = rank;
	c->nranks = nranks;
	c->buf_size = buf_size;
	c->buf_addr = NULL;
	c->buf_len = 0;
	c->buf_map_len = 0;
	c->buf_handle = 0;
	memset(c->name, 0, sizeof(c->name));
	strncpy(c->name, name, sizeof(c->name) - 1);
	name_set_id(dev, name, gj.comm_id);
	hcclt_rank_graph_learn(c);
	atomic_store_explicit(&c->magic, HCCLT_COMM_MAGIC, memory_order_release);
	*out = c;
	return HCCL_SUCCESS;
}

/* The root info's group name, or NULL when it is not one of ours. */
static const char *root_name(const HcclRootInfo *root)
{
	uint32_t magic, version;

	memcpy(&magic, root->internal + ROOT_OFF_MAGIC, sizeof(magic));
	memcpy(&version, root->internal + ROOT_OFF_VERSION, sizeof(version));
	if (magic != ROOT_MAGIC || version != ROOT_VERSION)
		return NULL;
	/* CANN forces the identifier's last byte to NUL; so do we. */
	if (!memchr(root->internal + ROOT_OFF_NAME, '\0', HCCLT_GROUP_NAME_BYTES))
		return NULL;
	return root->internal + ROOT_OFF_NAME;
}

/* hcclDeterministic's values (CANN's DETERMINISTIC_*). */
#define DETERMINISTIC_STRICT	2

/*
 * CANN's CommConfig::Load: header magic, then the fields it checks. Fills
 * the buffer size (bytes) and the name (untouched when the config has
 * none). cluster.c too.
 */
HcclResult hcclt_config_load(const HcclCommConfig *config, uint64_t *buf_size,
			     const char **name)
{
	const char *soc;
	uint32_t magic;

	if (!config)
		return HCCL_E_PARA;	/* E_PTR of Load, reported as E_PARA */
	memcpy(&magic, config->reserved + sizeof(size_t), sizeof(magic));
	if (magic != HCCL_COMM_CONFIG_MAGIC_WORD)
		return HCCL_E_PARA;
	if (config->hcclBufferSize != HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET) {
		if (config->hcclBufferSize < 1)
			return HCCL_E_PARA;
		*buf_size = (uint64_t)config->hcclBufferSize << 20;
	}
	/* CANN: 0 off, 1 on, 2 strict, and strict on an A2 only. */
	if (config->hcclDeterministic != HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET) {
		if (config->hcclDeterministic > DETERMINISTIC_STRICT)
			return HCCL_E_PARA;
		soc = aclrtGetSocName();
		if (config->hcclDeterministic == DETERMINISTIC_STRICT &&
		    (!soc || strncmp(soc, "Ascend910B", 10)))
			return HCCL_E_PARA;
	}
	if (config->aclGraphZeroCopyEnable > 1)
		return HCCL_E_PARA;
	/* A name must fit COMM_NAME_MAX_LENGTH with its NUL (CANN: E_PARA). */
	if (!memchr(config->hcclCommName, '\0', sizeof(config->hcclCommName)))
		return HCCL_E_PARA;
	if (config->hcclCommName[0])
		*name = config->hcclCommName;
	return HCCL_SUCCESS;
}

static HcclResult init_root_info(uint32_t nRanks, const HcclRootInfo *rootInfo,
				 uint32_t rank, const HcclCommConfig *config,
				 int has_config, HcclComm *comm)
{
	uint64_t buf_size = hcclt_env_buf_size();
	int32_t dev = hcclt_current_device();
	struct hcclt_comm *c = NULL;
	const char *name = NULL, *gname;
	struct hcclt_root_host host;
	int32_t timeout_ms;
	HcclResult ret;

	if (dev < 0)
		return HCCL_E_RUNTIME;
	if (!nRanks || rank >= nRanks)
		return HCCL_E_PARA;
	if (!comm || !rootInfo)
		return HCCL_E_PTR;
	timeout_ms = hcclt_connect_timeout_ms();
	if (timeout_ms < 0 || !buf_size)
		return HCCL_E_PARA;
	if (has_config) {
		ret = hcclt_config_load(config, &buf_size, &name);
		if (ret != HCCL_SUCCESS)
			return ret;
	}
	gname = root_name(rootInfo);
	if (!gname || nRanks > HCCLT_MAX_GROUP_RANKS)
		return HCCL_E_PARA;
	memcpy(&host.addr, rootInfo->internal + ROOT_OFF_ADDR, sizeof(host.addr));
	memcpy(&host.port, rootInfo->internal + ROOT_OFF_PORT, sizeof(host.port));
	ret = hcclt_comm_join(dev, nRanks, (const uint8_t *)rootInfo->internal + ROOT_OFF_KEY,
			      &host, rank, hcclt_deadline_ns(timeout_ms), buf_size,
			      name ? name : gname, &c);
	if (ret == HCCL_SUCCESS)
		*comm = c;
	return ret;
}

/*
 * The options of HcclCommConfig honoured here: the buffer size, the
 * deterministic switch (checked; every reduction is deterministic) and
 * the name. CANN returns HCCL_COMM_CONFIG_RESERVED.
 */
HCCLT_EXPORT uint32_t HcclGetCommConfigCapability(void)
{
	return HCCL_COMM_CONFIG_OP_EXPANSION_MODE;
}

HCCLT_EXPORT HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo,
					     uint32_t rank, HcclComm *comm)
{
	return init_root_info(nRanks, rootInfo, rank, NULL, 0, comm);
}

HCCLT_EXPORT HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks,
						   const HcclRootInfo *rootInfo,
						   uint32_t rank,
						   const HcclCommConfig *config,
						   HcclComm *comm)
{
	return init_root_info(nRanks, rootInfo, rank, config, 1, comm);
}

static HcclResult comm_destroy(struct hcclt_comm *c)
{
	struct drm_hcclt_comm_destroy cd;
	int fd, ret;

	/* Another thread's destroy of the same handle won. */
	if (!hcclt_obj_claim(&c->magic, HCCLT_COMM_MAGIC))
		return HCCL_E_PTR;
	fd = hcclt_device_fd_fast(c->dev);
	memset(&cd, 0, sizeof(cd));
	cd.comm_id = c->id;
	hcclt_ctx_comm_gone(c);
	hcclt_commmem_comm_gone(c);
	hcclt_cluster_comm_gone(c);
	hcclt_rank_graph_comm_gone(c);
	hcclt_mem_comm_gone(c);
	ret = fd < 0 ? -ENOENT : hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_DESTROY, &cd);
	if (c->gen == hcclt_gen())
		name_drop(c->dev, c->name);
	hcclt_idle_forget();
	hcclt_obj_free(c);
	return hcclt_map_errno(HCCLT_OP_COMM_DESTROY, ret);
}

HCCLT_EXPORT HcclResult HcclCommDestroy(HcclComm comm)
{
	struct hcclt_comm *c;

	if (!comm)
		return HCCL_SUCCESS;	/* as CANN */
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	return comm_destroy(c);
}

struct init_all_rank {
	int32_t dev;
	uint32_t rank, nranks;
	const HcclRootInfo *root;
	const char *name;
	int32_t timeout_ms;
	uint64_t buf_size;
	struct hcclt_comm *comm;
	HcclResult ret;
};

static void *init_all_thread(void *p)
{
	struct init_all_rank *r = p;

	/* The root info was made here, by HcclCommInitAll: a group of this host. */
	r->ret = hcclt_comm_join(r->dev, r->nranks, (const uint8_t *)r->root->internal + ROOT_OFF_KEY,
				 NULL, r->rank, hcclt_deadline_ns(r->timeout_ms), r->buf_size,
				 r->name, &r->comm);
	return NULL;
}

HCCLT_EXPORT HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms)
{
	struct drm_hcclt_group_create gc;
	struct init_all_rank *r;
	HcclRootInfo *root;
	pthread_t *tids;
	HcclResult ret = HCCL_SUCCESS;
	uint32_t i, j, started = 0;
	uint64_t buf_size;
	int32_t timeout_ms;
	int n, fd;

	if (!ndev)
		return HCCL_E_PARA;
	if (!devices || !comms)
		return HCCL_E_PTR;
	for (i = 0; i < ndev; i++)
		comms[i] = NULL;
	n = hcclt_device_count();
	if (!n)
		return HCCL_E_DRV;
	for (i = 0; i < ndev; i++) {
		if (devices[i] < 0 || devices[i] >= n)
			return HCCL_E_PARA;
		for (j = 0; j < i; j++)
			if (devices[j] == devices[i])
				return HCCL_E_PARA;
	}
	/* Open every device first: a rank must not fail before it joins. */
	for (i = 0; i < ndev; i++) {
		fd = hcclt_device_open(devices[i]);
		if (fd < 0)
			return hcclt_map_errno(HCCLT_OP_DEVICE_HCCL, fd);
	}
	timeout_ms = hcclt_connect_timeout_ms();
	buf_size = hcclt_env_buf_size();
	if (timeout_ms < 0 || !buf_size)
		return HCCL_E_PARA;
	memset(&gc, 0, sizeof(gc));
	fd = hcclt_device_open(devices[0]);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_HCCL, fd);
	n = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_GROUP_CREATE, &gc);
	if (n)
		return hcclt_map_errno(HCCLT_OP_GROUP_CREATE, n);
	gc.name[sizeof(gc.name) - 1] = '\0';

	root = calloc(1, sizeof(*root));
	r = calloc(ndev, sizeof(*r));
	tids = calloc(ndev, sizeof(*tids));
	if (!root || !r || !tids) {
		ret = HCCL_E_MEMORY;
		goto out;
	}
	memcpy(root->internal + ROOT_OFF_KEY, gc.key, sizeof(gc.key));
	for (i = 0; i < ndev; i++) {
		r[i].dev = devices[i];
		r[i].rank = i;
		r[i].nranks = ndev;
		r[i].root = root;
		r[i].name = gc.name;
		r[i].timeout_ms = timeout_ms;
		r[i].buf_size = buf_size;
	}
	/* Rank 0 joins on this thread, the others on threads of their own. */
	for (i = 1; i < ndev; i++) {
		if (pthread_create(&tids[i], NULL, init_all_thread, &r[i]))
			break;
		started++;
	}
	if (started != ndev - 1) {
		/* Rank 0 fails the group (zero timeout): the others return. */
		r[0].timeout_ms = 0;
	}
	init_all_thread(&r[0]);
	for (i = 1; i <= started; i++)
		pthread_join(tids[i], NULL);
	for (i = 0; i <= started; i++)
		if (r[i].ret != HCCL_SUCCESS)
			ret = HCCL_E_INTERNAL;	/* as CANN */
	if (started != ndev - 1)
		ret = HCCL_E_INTERNAL;
	for (i = 0; i <= started; i++) {
		if (ret == HCCL_SUCCESS)
			comms[i] = r[i].comm;
		else if (r[i].ret == HCCL_SUCCESS)
			comm_destroy(r[i].comm);
	}
out:
	free(root);
	free(r);
	free(tids);
	return ret;
}

HCCLT_EXPORT HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize)
{
	struct hcclt_comm *c;

	if (!comm || !rankSize)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	*rankSize = c->nranks;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank)
{
	struct hcclt_comm *c;

	if (!comm || !rank)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	*rank = c->rank;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclGetCommName(HcclComm comm, char *commName)
{
	struct hcclt_comm *c;

	if (!comm || !commName)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	memcpy(commName, c->name, sizeof(c->name));
	return HCCL_SUCCESS;
}
