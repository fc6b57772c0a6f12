// SPDX-License-Identifier: MIT
/*
 * Handle encoding, validation of library objects, and the INFO helper.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

ThreadHandle hcclt_handle_make(int dev, uint64_t id)
{
	uint64_t gen = hcclt_gen() & 0xf;

	return (id & HCCLT_HANDLE_ID_MASK) |
	       ((uint64_t)dev << HCCLT_HANDLE_DEV_SHIFT) |
	       (gen << HCCLT_HANDLE_GEN_SHIFT);
}

/*
 * Splits @h into device and kernel id. Returns 0, or -1 when @h cannot be a
 * thread handle of this process: 0, another fork generation, a device index
 * out of range or an id that is not of the thread kind.
 */
int hcclt_handle_parse(ThreadHandle h, int *dev, uint64_t *id)
{
	uint64_t kid = h & HCCLT_HANDLE_ID_MASK;
	int d = (int)((h >> HCCLT_HANDLE_DEV_SHIFT) & 0xf);

	if (!kid)
		return -1;
	if ((h >> HCCLT_HANDLE_GEN_SHIFT) != (hcclt_gen() & 0xf)) {
		hcclt_debug("thread handle 0x%llx is from another process "
			    "(used after fork?)", (unsigned long long)h);
		return -1;
	}
	if (((kid >> HCCLT_ID_KIND_SHIFT) & 0xff) != HCCLT_ID_KIND_THREAD)
		return -1;
	*dev = d;
	*id = kid;
	return 0;
}

/*
 * Communicator and stream structs are never given back to malloc. A
 * destroyed one is marked dead and queued, and the next create of either
 * kind takes the oldest queued one. A handle used after its destroy thus
 * reads the library's own memory and is refused (HCCL_E_PTR,
 * ACL_ERROR_RT_INVALID_HANDLE) instead of reading freed memory. It names an
 * object again only once its struct is reused for the same kind, as a
 * reused pointer does in CANN; oldest-first makes that as late as it can
 * be. The queue holds at most as many structs as were ever alive at once.
 */
_Static_assert(sizeof(struct hcclt_comm) == sizeof(struct hcclt_stream),
	       "comms and streams share one reuse queue");

static pthread_mutex_t reuse_lock = PTHREAD_MUTEX_INITIALIZER;
/* Ring of dead structs, oldest at reuse_head; reuse_lock. */
static void **reuse_ring;
static size_t reuse_cap, reuse_head, reuse_n;

/* A zeroed struct for a comm or a stream; the caller sets magic last. */
void *hcclt_obj_alloc(void)
{
	struct hcclt_comm *obj = NULL;

	pthread_mutex_lock(&reuse_lock);
	if (reuse_n) {
		obj = reuse_ring[reuse_head];
		reuse_head = (reuse_head + 1) % reuse_cap;
		reuse_n--;
	}
	pthread_mutex_unlock(&reuse_lock);
	if (!obj)
		return calloc(1, sizeof(*obj));
	/* Dead until the caller publishes it: only the other fields change. */
	obj->gen = 0;
	obj->dev = 0;
	obj->pad = 0;
	obj->id = 0;
	return obj;
}

/*
 * Claim a live comm or stream (magic @live) for its destroy: of two threads
 * destroying the same handle, only one wins (1); the other is refused (0)
 * and so cannot queue the struct for reuse a second time.
 */
int hcclt_obj_claim(_Atomic uint32_t *magic, uint32_t live)
{
	return atomic_compare_exchange_strong(magic, &live, HCCLT_DEAD_MAGIC);
}

/* fork(): reuse_lock is held across it (device.c's handlers). */
void hcclt_obj_atfork_prepare(void)
{
	pthread_mutex_lock(&reuse_lock);
}

void hcclt_obj_atfork_release(void)
{
	pthread_mutex_unlock(&reuse_lock);
}

/*
 * Give back a comm or stream struct (claimed, or never published); its
 * handle is refused from now on.
 */
void hcclt_obj_free(void *obj)
{
	struct hcclt_comm *c = obj;
	void **ring;
	size_t cap, i;

	atomic_store_explicit(&c->magic, HCCLT_DEAD_MAGIC, memory_order_relaxed);
	pthread_mutex_lock(&reuse_lock);
	if (reuse_n == reuse_cap) {
		cap = reuse_cap ? 2 * reuse_cap : 64;
		ring = malloc(cap * sizeof(*ring));
		if (!ring) {
			/* Kept dead, never reused: freeing it would undo the above. */
			pthread_mutex_unlock(&reuse_lock);
			return;
		}
		for (i = 0; i < reuse_n; i++)
			ring[i] = reuse_ring[(reuse_head + i) % reuse_cap];
		free(reuse_ring);
		reuse_ring = ring;
		reuse_cap = cap;
		reuse_head = 0;
	}
	reuse_ring[(reuse_head + reuse_n) % reuse_cap] = obj;
	reuse_n++;
	pthread_mutex_unlock(&reuse_lock);
}

struct hcclt_comm *hcclt_comm_get(HcclComm comm)
{
	struct hcclt_comm *c = comm;

	/* Pairs with the release store that made it (hccl.c). */
	if (!c || atomic_load_explicit(&c->magic, memory_order_acquire) !=
		  HCCLT_COMM_MAGIC)
		return NULL;
	if (c->gen != hcclt_gen()) {
		hcclt_debug("communicator %p belongs to the parent process "
			    "(used after fork)", comm);
		return NULL;
	}
	return c;
}

struct hcclt_stream *hcclt_stream_get(aclrtStream stream)
{
	struct hcclt_stream *s = stream;

	/* Pairs with the release store that made it (acl.c). */
	if (!s || atomic_load_explicit(&s->magic, memory_order_acquire) !=
		  HCCLT_STREAM_MAGIC)
		return NULL;
	if (s->gen != hcclt_gen()) {
		hcclt_debug("stream %p belongs to the parent process "
			    "(used after fork)", stream);
		return NULL;
	}
	return s;
}

/* INFO fills at most this many entries of each kind per call (uAPI). */
#define HCCLT_INFO_CAP	65536u
/* Entries asked for by one INFO_ARRAY call. */
#define HCCLT_INFO_PAGE	256u

/*
 * Every entry of @type of the file @fd with DRM_IOCTL_HCCLT_INFO_ARRAY,
 * page after page; *@out (malloc'd, @esize bytes an entry) holds *@n of
 * them. Returns 0 or -errno (-EINVAL or -ENOTTY from a driver without the
 * ioctl, on the first call).
 */
static int info_array(int fd, uint32_t type, size_t esize, void **out,
		      uint32_t *n)
{
	struct drm_hcclt_info_array a;
	unsigned char *buf = NULL, *nb;
	size_t cap = 0, cnt = 0;
	uint64_t cursor = 0;
	int ret;

	do {
		if (cap - cnt < HCCLT_INFO_PAGE) {
			cap = cap ? 2 * cap : HCCLT_INFO_PAGE;
			nb = realloc(buf, cap * esize);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		memset(&a, 0, sizeof(a));
		a.scope = HCCLT_INFO_SCOPE_FILE;
		a.type = type;
		a.element_size = (uint32_t)esize;
		a.num_element = HCCLT_INFO_PAGE;
		a.cursor = cursor;
		a.buffer = (uintptr_t)(buf + cnt * esize);
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO_ARRAY, &a);
		if (ret) {
			free(buf);
			return ret;
		}
		cnt += a.num_element;
		cursor = a.cursor;
	} while (cursor);
	*out = buf;
	*n = (uint32_t)cnt;
	return 0;
}

/* The same with DRM_IOCTL_HCCLT_INFO, for drivers before uAPI 1.3. */
static int info_fetch_v1(int fd, struct drm_hcclt_comm_info **comms,
			 uint32_t *ncomms, struct drm_hcclt_thread_info **threads,
			 uint32_t *nthreads, int *partial)
{
	struct drm_hcclt_comm_info *c = NULL;
	struct drm_hcclt_thread_info *t = NULL;
	struct drm_hcclt_info info;
	uint32_t cc = 0, tc = 0;
	int tries, ret;

	for (tries = 0; tries < 8; tries++) {
		memset(&info, 0, sizeof(info));
		info.scope = HCCLT_INFO_SCOPE_FILE;
		info.comm_count = cc;
		info.thread_count = tc;
		info.comms_ptr = (uintptr_t)c;
		info.threads_ptr = (uintptr_t)t;
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO, &info);
		if (ret)
			break;
		if (info.comm_count <= cc && info.thread_count <= tc) {
			*partial = (info.comm_count > HCCLT_INFO_CAP ?
				    HCCLT_INFO_PARTIAL_COMMS : 0) |
				   (info.thread_count > HCCLT_INFO_CAP ?
				    HCCLT_INFO_PARTIAL_THREADS : 0);
			*comms = c;
			*ncomms = info.comm_count < HCCLT_INFO_CAP ?
				  info.comm_count : HCCLT_INFO_CAP;
			*threads = t;
			*nthreads = info.thread_count < HCCLT_INFO_CAP ?
				    info.thread_count : HCCLT_INFO_CAP;
			return 0;
		}
		free(c);
		free(t);
		cc = info.comm_count + 8;
		tc = info.thread_count + 32;
		c = calloc(cc, sizeof(*c));
		t = calloc(tc, sizeof(*t));
		if (!c || !t) {
			ret = -ENOMEM;
			break;
		}
	}
	if (!ret)
		ret = -EAGAIN;
	free(c);
	free(t);
	return ret;
}

/*
 * Lists the communicators and threads of the file @fd. On success the
 * caller frees *@comms and *@threads, which hold *@ncomms and *@nthreads
 * filled entries; *@partial has HCCLT_INFO_PARTIAL_* bits for the kinds of
 * which the file has more than were listed (only with a driver before
 * uAPI 1.3, whose INFO fills at most 65,536: a lookup that misses there
 * cannot tell). Returns 0 or -errno.
 */
int hcclt_info_fetch(int fd, struct drm_hcclt_comm_info **comms, uint32_t *ncomms,
		     struct drm_hcclt_thread_info **threads, uint32_t *nthreads,
		     int *partial)
{
	struct drm_hcclt_info_comm *ce;
	struct drm_hcclt_info_thread *te;
	void *cv, *tv;
	uint32_t nc, nt, i;
	int ret;

	ret = info_array(fd, HCCLT_INFO_TYPE_COMMS, sizeof(*ce), &cv, &nc);
	if (ret == -EINVAL || ret == -ENOTTY)
		return info_fetch_v1(fd, comms, ncomms, threads, nthreads,
				     partial);
	if (ret)
		return ret;
	ret = info_array(fd, HCCLT_INFO_TYPE_THREADS, sizeof(*te), &tv, &nt);
	if (ret) {
		free(cv);
		return ret;
	}
	/* The entries start with the uAPI 1.0 ones: pack them in place. */
	ce = cv;
	te = tv;
	*comms = cv;
	*threads = tv;
	for (i = 0; i < nc; i++)
		memmove(&(*comms)[i], &ce[i].comm, sizeof(**comms));
	for (i = 0; i < nt; i++)
		memmove(&(*threads)[i], &te[i].thread, sizeof(**threads));
	*ncomms = nc;
	*nthreads = nt;
	*partial = 0;
	return 0;
}

/*
 * Info of thread @id of file @fd: 0, -ENOENT, -E2BIG (not among the
 * entries INFO fills, and the file has more) or another -errno.
 */
int hcclt_info_find_thread(int fd, uint64_t id, struct drm_hcclt_thread_info *out)
{
	struct drm_hcclt_comm_info *c;
	struct drm_hcclt_thread_info *t;
	uint32_t nc, nt, i;
	int ret, partial;

	ret = hcclt_info_fetch(fd, &c, &nc, &t, &nt, &partial);
	if (ret)
		return ret;
	ret = partial & HCCLT_INFO_PARTIAL_THREADS ? -E2BIG : -ENOENT;
	for (i = 0; i < nt; i++) {
		if (t[i].thread_id == id) {
			*out = t[i];
			ret = 0;
			break;
		}
	}
	free(c);
	free(t);
	return ret;
}
