// SPDX-License-Identifier: MIT
/*
 * ACL memory: aclrtMalloc/aclrtFree (device memory objects of the kernel,
 * mapped into this process), aclrtMallocHost/aclrtFreeHost, and the
 * synchronous aclrtMemcpy/aclrtMemset, which check every range against the
 * allocations of this process.
 *
 * The allocation table: every live allocation of this process (device and
 * host), sorted by address, under table_lock. A device address is a
 * pointer into the shared mapping of the object, so a copy is a memmove()
 * once its ranges have been checked. The mappings are MADV_DONTFORK: a
 * fork() child does not inherit them, and the table forgets the parent's
 * entries in the child (mem_atfork_child()).
 *
 * HCCL buffers (HcclGetHcclBuffer): the kernel makes a communicator's
 * buffer on first use (DRM_IOCTL_HCCLT_COMM_BUFFER) and frees it with the
 * communicator; the library maps it, enters it in the table (device
 * memory for aclrtMemcpy, but not aclrtFree's), and unmaps it and closes
 * its handle when the communicator is destroyed (hcclt_mem_comm_gone()).
 * A channel peer's buffer (HcclChannelGetHcclBuffer) is a dma-buf of the
 * peer's object (DRM_IOCTL_HCCLT_CHANNEL_BUFFER), mapped once per
 * (communicator, channel) and entered like the others, with no handle;
 * data tasks name it by the channel (hcclt_mem_segments()). The kernel
 * revokes it when the peer's communicator goes: the mapping then faults
 * SIGBUS and data tasks on it fail (-ECONNRESET); the entry stays until
 * this communicator is destroyed.
 *
 * A channel peer on another host (uAPI 1.16, Documentation/clusters.rst):
 * its buffer cannot be mapped here. DRM_IOCTL_HCCLT_CHANNEL_BUFFER with
 * HCCLT_CHANNEL_BUFFER_REMOTE tells its size, and the buffer gets
 * addresses as a registered range of the peer does (ALLOC_PEER_REG, with
 * id 0: the peer's HCCL buffer), which data tasks reach by RDMA.
 *
 * A range a channel's peer registered (HcclChannelGetRemoteMems,
 * memreg.c) is an entry too (ALLOC_PEER_REG): addresses reserved in the
 * device window (PROT_NONE, so loads and stores fault), whose data tasks
 * name the channel and the range's id (@handle) and whose ranges the
 * kernel checks against the peer's registration. The entry stays until
 * this communicator is destroyed, as a peer buffer's.
 *
 * Virtual memory (vmm.c): each mapping of physical memory at reserved
 * addresses is an entry too (ALLOC_VMAP), device memory that aclrtFree()
 * refuses. Mappings that follow each other in one reservation make one
 * device range for the range checks, and data tasks on such a range are
 * split at the mappings (hcclt_mem_segments()).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

struct alloc {
	uintptr_t base;
	size_t size;		/* bytes asked for: the range checks */
	size_t map_len;		/* bytes mapped (device memory) */
	int dev;		/* device index, -1 for host memory */
	uint32_t handle;	/* GEM handle in the device's file; 0 for a peer's */
	int hccl_buf;		/* ALLOC_* kind: HCCL buffers are not freed here */
	uint64_t comm;		/* ALLOC_PEER_BUF: kernel id of the communicator;
				 * ALLOC_VMAP: start of its reservation */
	uint64_t chan;		/* ALLOC_PEER_BUF: kernel id of the channel */
	uint64_t mmap_off;	/* mmap() offset of the object (not ALLOC_PEER_BUF) */
};

/* struct alloc's hccl_buf. */
#define ALLOC_OWN	0	/* aclrtMalloc / aclrtMallocHost */
#define ALLOC_HCCL_BUF	1	/* a communicator's HCCL buffer */
#define ALLOC_PEER_BUF	2	/* a channel peer's HCCL buffer, mapped here */
#define ALLOC_VMAP	3	/* physical memory mapped at reserved addresses */
#define ALLOC_PEER_REG	4	/* a range a channel's peer registered: reserved
				 * addresses, not mapped; @handle is its id */

/* protects table, nallocs, cap */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct alloc *table;
static size_t nallocs, cap;

/* Index of the first entry whose base is above @p. Caller holds the lock. */
static size_t upper(uintptr_t p)
{
	size_t lo = 0, hi = nallocs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (table[mid].base <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The entry containing address @p, or NULL. Caller holds the lock. */
static struct alloc *find(uintptr_t p)
{
	size_t i = upper(p);

	if (!i)
		return NULL;
	if (p - table[i - 1].base < table[i - 1].size)
		return &table[i - 1];
	return NULL;
}

/*
 * The entry that continues @a's addresses in the same reservation (both
 * mappings of physical memory of one device), or NULL. Caller holds the
 * lock.
 */
static struct alloc *next_vmap(struct alloc *a)
{
	struct alloc *b = a + 1;

	if (a->hccl_buf != ALLOC_VMAP || b >= table + nallocs ||
	    b->hccl_buf != ALLOC_VMAP || b->comm != a->comm ||
	    b->dev != a->dev || b->base != a->base + a->size)
		return NULL;
	return b;
}

static int table_add(const struct alloc *a)
{
	size_t i;

	pthread_mutex_lock(&table_lock);
	if (nallocs == cap) {
		size_t ncap = cap ? cap * 2 : 64;
		struct alloc *n = realloc(table, ncap * sizeof(*n));

		if (!n) {
			pthread_mutex_unlock(&table_lock);
			return -ENOMEM;
		}
		table = n;
		cap = ncap;
	}
	i = upper(a->base);
	memmove(&table[i + 1], &table[i], (nallocs - i) * sizeof(*table));
	table[i] = *a;
	nallocs++;
	pthread_mutex_unlock(&table_lock);
	hcclt_aicpu_state_changed();
	return 0;
}

/*
 * Remove the entry that starts exactly at @p and is device memory (@dev)
 * or host memory (!@dev), an HCCL buffer (@buf) or not; 0 and *@out, or
 * -ENOENT.
 */
static int table_take(uintptr_t p, int dev, int buf, struct alloc *out)
{
	struct alloc *a;
	size_t i;
	int ret = -ENOENT;

	pthread_mutex_lock(&table_lock);
	a = find(p);
	if (a && a->base == p && (a->dev >= 0) == dev && a->hccl_buf == buf) {
		*out = *a;
		i = (size_t)(a - table);
		memmove(&table[i], &table[i + 1],
			(nallocs - i - 1) * sizeof(*table));
		nallocs--;
		ret = 0;
	}
	pthread_mutex_unlock(&table_lock);
	/* The AI CPU's cores unmap it before the caller frees it. */
	if (!ret && out->dev >= 0)
		hcclt_aicpu_memory_gone(out->dev);
	else if (!ret)
		hcclt_aicpu_state_changed();
	return ret;
}

/*
 * protects the buf_* fields of every communicator; taken before
 * table_lock, here as in HcclGetHcclBuffer().
 */
static pthread_mutex_t buf_lock = PTHREAD_MUTEX_INITIALIZER;

void hcclt_mem_atfork_prepare(void)
{
	pthread_mutex_lock(&buf_lock);
	pthread_mutex_lock(&table_lock);
}

void hcclt_mem_atfork_parent(void)
{
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_unlock(&buf_lock);
}

/*
 * The child has none of the parent's device mappings (MADV_DONTFORK) and
 * its own device files; host allocations are its copies and stay.
 */
void hcclt_mem_atfork_child(void)
{
	size_t i, n = 0;

	for (i = 0; i < nallocs; i++)
		if (table[i].dev < 0)
			table[n++] = table[i];
	nallocs = n;
	pthread_mutex_unlock(&table_lock);
	pthread_mutex_unlock(&buf_lock);
}

static void gem_close(int dev, uint32_t handle)
{
	struct drm_gem_close c;
	int fd = hcclt_device_fd_fast(dev);

	if (fd < 0)
		return;
	memset(&c, 0, sizeof(c));
	c.handle = handle;
	hcclt_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &c);
}

/* CANN refuses a size whose 32-byte rounding plus padding would wrap. */
#define HCCLT_MEM_SIZE_MAX	(SIZE_MAX - 64)

/* Device memory of @size bytes on @dev, mapped here (aclrtMalloc()). */
aclError hcclt_dev_alloc(int32_t dev, size_t size, void **devPtr)
{
	struct drm_hcclt_mem_create mc;
	struct alloc a;
	void *p;
	int fd, ret;

	fd = hcclt_device_open(dev);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd);

	memset(&mc, 0, sizeof(mc));
	mc.size = size;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &mc);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_MEM_CREATE, ret);
	p = hcclt_vas_mmap(mc.size, 0, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   (off_t)mc.mmap_offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		gem_close(dev, mc.handle);
		return hcclt_map_errno(HCCLT_OP_MEM_CREATE, ret);
	}
	/* A fork() child gets none of it (see the top of the file). */
	madvise(p, mc.size, MADV_DONTFORK);
	a.base = (uintptr_t)p;
	a.size = size;
	a.map_len = mc.size;
	a.dev = dev;
	a.handle = mc.handle;
	a.hccl_buf = ALLOC_OWN;
	a.comm = 0;
	a.chan = 0;
	a.mmap_off = mc.mmap_offset;
	if (table_add(&a)) {
		hcclt_vas_munmap(p, mc.size);
		gem_close(dev, mc.handle);
		return ACL_ERROR_BAD_ALLOC;
	}
	*devPtr = p;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtMalloc(void **devPtr, size_t size,
				  aclrtMemMallocPolicy policy)
{
	int32_t dev = hcclt_current_device();

	(void)policy;
	if (!devPtr || !size || size > HCCLT_MEM_SIZE_MAX)
		return ACL_ERROR_INVALID_PARAM;
	if (dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	return hcclt_dev_alloc(dev, size, devPtr);
}

HCCLT_EXPORT aclError aclrtFree(void *devPtr)
{
	struct alloc a;

	if (!devPtr || table_take((uintptr_t)devPtr, 1, ALLOC_OWN, &a))
		return ACL_ERROR_INVALID_PARAM;
	/* After the take: an activation checked before it is undone here. */
	hcclt_commmem_forget(a.dev, a.base, a.size);
	hcclt_vas_munmap(devPtr, a.map_len);
	gem_close(a.dev, a.handle);
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtMallocHost(void **hostPtr, size_t size)
{
	struct alloc a;
	void *p;

	if (!hostPtr || !size || size > HCCLT_MEM_SIZE_MAX)
		return ACL_ERROR_INVALID_PARAM;
	if (posix_memalign(&p, 64, size))
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	a.base = (uintptr_t)p;
	a.size = size;
	a.map_len = 0;
	a.dev = -1;
	a.handle = 0;
	a.hccl_buf = ALLOC_OWN;
	a.comm = 0;
	a.chan = 0;
	a.mmap_off = 0;
	if (table_add(&a)) {
		free(p);
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	}
	*hostPtr = p;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtFreeHost(void *hostPtr)
{
	struct alloc a;

	if (!hostPtr || table_take((uintptr_t)hostPtr, 0, ALLOC_OWN, &a))
		return ACL_ERROR_INVALID_PARAM;
	free(hostPtr);
	return ACL_SUCCESS;
}

/*
 * Check [@p, @p + @n): with @device, inside one device allocation; else
 * inside the allocation it starts in, if any. Caller holds the lock.
 */
static int range_ok(const void *p, size_t n, int device)
{
	uintptr_t u = (uintptr_t)p;
	struct alloc *a;
	size_t have;

	if (n > UINTPTR_MAX - u)
		return 0;
	a = find(u);
	if (!a)
		return !device;
	if ((device && a->dev < 0) || a->hccl_buf == ALLOC_PEER_REG)
		return 0;	/* a peer's registered range is not mapped */
	have = a->size - (u - a->base);
	/* On into the mappings that follow in the same reservation. */
	while (n > have && (a = next_vmap(a)))
		have += a->size;
	return n <= have;
}

/* aclrtMemcpy()'s checks; ACL_SUCCESS or the code. */
static aclError memcpy_check(void *dst, size_t destMax, const void *src,
			     size_t count, aclrtMemcpyKind kind)
{
	int dst_dev, src_dev, ok;

	if (!dst || !src)
		return ACL_ERROR_INVALID_PARAM;
	switch (kind) {
	case ACL_MEMCPY_HOST_TO_HOST:
	case ACL_MEMCPY_DEFAULT:
		dst_dev = 0;
		src_dev = 0;
		break;
	case ACL_MEMCPY_HOST_TO_DEVICE:
	case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
		dst_dev = 1;
		src_dev = 0;
		break;
	case ACL_MEMCPY_DEVICE_TO_HOST:
		dst_dev = 0;
		src_dev = 1;
		break;
	case ACL_MEMCPY_DEVICE_TO_DEVICE:
		dst_dev = 1;
		src_dev = 1;
		break;
	default:
		return ACL_ERROR_INVALID_PARAM;
	}
	if (count > destMax)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&table_lock);
	ok = range_ok(dst, count, dst_dev) && range_ok(src, count, src_dev);
	pthread_mutex_unlock(&table_lock);
	return ok ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

HCCLT_EXPORT aclError aclrtMemcpy(void *dst, size_t destMax, const void *src,
				  size_t count, aclrtMemcpyKind kind)
{
	aclError ret = memcpy_check(dst, destMax, src, count, kind);

	if (ret == ACL_SUCCESS && count)
		memmove(dst, src, count);
	return ret;
}

HCCLT_EXPORT aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src,
				       size_t count, aclrtMemcpyKind kind,
				       aclrtStream stream)
{
	struct hcclt_seg dsegs[HCCLT_MAX_SEGS], ssegs[HCCLT_MAX_SEGS];
	struct drm_hcclt_task one, *tasks = &one;
	struct hcclt_stream *s;
	aclError ret;
	int fd, err, nd, ns, n, i;

	ret = memcpy_check(dst, destMax, src, count, kind);
	if (ret != ACL_SUCCESS)
		return ret;
	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	s = hcclt_stream_get(stream);
	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (!count)
		return ACL_SUCCESS;
	nd = hcclt_mem_segments(s->dev, dst, count, dsegs, HCCLT_MAX_SEGS);
	ns = hcclt_mem_segments(s->dev, src, count, ssegs, HCCLT_MAX_SEGS);
	n = nd > 0 && ns > 0 ? hcclt_seg_tasks(dsegs, nd, ssegs, ns, NULL) : -1;
	for (i = 0; n > 0 && i < nd; i++)
		if (!dsegs[i].handle)
			n = -1;
	for (i = 0; n > 0 && i < ns; i++)
		if (!ssegs[i].handle)
			n = -1;
	if (nd == -2 || ns == -2 || n == -2)
		return ACL_ERROR_INVALID_PARAM;	/* more pieces than a submit */
	if (n < 0) {
		/* Host memory (or a peer's): after the stream's work, now. */
		if (!hcclt_idle_check(s->dev, s->id)) {
			err = hcclt_stream_sync(fd, s->id, -1);
			if (err)
				return hcclt_map_errno(HCCLT_OP_STREAM_SYNC, err);
		}
		memmove(dst, src, count);
		return ACL_SUCCESS;
	}
	if (n > 1) {
		tasks = calloc((size_t)n, sizeof(*tasks));
		if (!tasks)
			return ACL_ERROR_BAD_ALLOC;
	}
	hcclt_seg_tasks(dsegs, nd, ssegs, ns, tasks);
	for (i = 0; i < n; i++)
		tasks[i].op = HCCLT_TASK_LOCAL_COPY;
	err = hcclt_submit_many(fd, s->dev, s->id, tasks, (uint32_t)n);
	if (tasks != &one)
		free(tasks);
	return hcclt_map_errno(HCCLT_OP_MEMCPY_ASYNC, err);
}

HCCLT_EXPORT aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value,
				  size_t count)
{
	int ok;

	if (!devPtr || count > maxCount)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&table_lock);
	ok = range_ok(devPtr, count, 1);
	pthread_mutex_unlock(&table_lock);
	if (!ok)
		return ACL_ERROR_INVALID_PARAM;
	if (count)
		memset(devPtr, (unsigned char)value, count);
	return ACL_SUCCESS;
}

/* Make, map and enter @c's HCCL buffer. Caller holds buf_lock. */
static HcclResult comm_buffer_make(struct hcclt_comm *c)
{
	struct drm_hcclt_comm_buffer cb;
	uint64_t len = 2 * c->buf_size;	/* CANN: the in and out halves */
	struct alloc a;
	void *p;
	int fd, ret;

	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	memset(&cb, 0, sizeof(cb));
	cb.comm_id = c->id;
	cb.size = len;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_COMM_BUFFER, &cb);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_COMM_BUFFER, ret);
	p = hcclt_vas_mmap(cb.size, 0, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   (off_t)cb.mmap_offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		gem_close(c->dev, cb.handle);
		return hcclt_map_errno(HCCLT_OP_COMM_BUFFER, ret);
	}
	madvise(p, cb.size, MADV_DONTFORK);
	/*
	 * A peer that asked for our buffer before we did made it with its
	 * own size (the uAPI's rule): never report more than is mapped.
	 */
	if (cb.size < len)
		len = cb.size;
	a.base = (uintptr_t)p;
	a.size = len;
	a.map_len = cb.size;
	a.dev = c->dev;
	a.handle = cb.handle;
	a.hccl_buf = ALLOC_HCCL_BUF;
	a.comm = c->id;
	a.chan = 0;
	a.mmap_off = cb.mmap_offset;
	if (table_add(&a)) {
		hcclt_vas_munmap(p, cb.size);
		gem_close(c->dev, cb.handle);
		return HCCL_E_MEMORY;
	}
	c->buf_addr = p;
	c->buf_len = len;
	c->buf_map_len = cb.size;
	c->buf_handle = cb.handle;
	return HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclGetHcclBuffer(HcclComm comm, void **buffer, uint64_t *size)
{
	struct hcclt_comm *c;
	HcclResult ret = HCCL_SUCCESS;

	/* CANN's order: buffer, comm, size. */
	if (!buffer || !comm || !size)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	pthread_mutex_lock(&buf_lock);
	/* Destroyed meanwhile (hcclt_mem_comm_gone() runs after the claim). */
	if (atomic_load(&c->magic) != HCCLT_COMM_MAGIC)
		ret = HCCL_E_PTR;
	else if (!c->buf_addr)
		ret = comm_buffer_make(c);
	if (ret == HCCL_SUCCESS) {
		*buffer = c->buf_addr;
		*size = c->buf_len;
	}
	pthread_mutex_unlock(&buf_lock);
	return ret;
}

/*
 * The table entry of @c's mapping of channel @chan's peer buffer, or NULL.
 * Caller holds table_lock.
 */
static struct alloc *peer_find(const struct hcclt_comm *c, uint64_t chan)
{
	size_t i;

	for (i = 0; i < nallocs; i++)
		if (table[i].hccl_buf == ALLOC_PEER_BUF && table[i].dev == c->dev &&
		    table[i].comm == c->id && (!chan || table[i].chan == chan))
			return &table[i];
	return NULL;
}

/* As peer_find(), for the ranges peers registered: any of @c's. */
static struct alloc *peer_reg_find(const struct hcclt_comm *c, uint64_t chan, uint32_t id)
{
	size_t i;

	for (i = 0; i < nallocs; i++)
		if (table[i].hccl_buf == ALLOC_PEER_REG && table[i].dev == c->dev &&
		    table[i].comm == c->id && (!chan || (table[i].chan == chan &&
							 table[i].handle == id)))
			return &table[i];
	return NULL;
}

void *hcclt_mem_peer_reg(const struct hcclt_comm *c, uint64_t chan, uint32_t id,
			 uint64_t size)
{
	struct alloc a, *e;
	void *p;

	if (!size || size > SIZE_MAX)
		return NULL;
	pthread_mutex_lock(&table_lock);
	e = peer_reg_find(c, chan, id);
	p = e && e->size == size ? (void *)e->base : NULL;
	pthread_mutex_unlock(&table_lock);
	if (p)
		return p;
	/* Reserved, never mapped: the AI CPU reserves it likewise. */
	p = hcclt_vas_mmap((size_t)size, 0, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			   MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, (size_t)size, MADV_DONTFORK);	/* as a peer's buffer */
	memset(&a, 0, sizeof(a));
	a.base = (uintptr_t)p;
	a.size = (size_t)size;
	a.map_len = (size_t)size;
	a.dev = c->dev;
	a.handle = id;
	a.hccl_buf = ALLOC_PEER_REG;
	a.comm = c->id;
	a.chan = chan;
	if (table_add(&a)) {
		hcclt_vas_munmap(p, (size_t)size);
		return NULL;
	}
	return p;
}

HCCLT_EXPORT HcclResult HcclChannelGetHcclBuffer(HcclComm comm, ChannelHandle channel,
						 void **buffer, uint64_t *size)
{
	struct drm_hcclt_channel_buffer cb;
	struct hcclt_comm *c;
	struct alloc a, *e;
	HcclResult ret = HCCL_SUCCESS;
	uint64_t cid;
	void *p;
	int fd, err;

	if (!comm || !channel || !buffer || !size)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	/* CANN: a channel handle the communicator does not know is E_PARA. */
	if (hcclt_channel_parse(channel, c->dev, &cid))
		return HCCL_E_PARA;
	fd = hcclt_device_fd_fast(c->dev);
	if (fd < 0)
		return HCCL_E_PTR;
	pthread_mutex_lock(&buf_lock);
	pthread_mutex_lock(&table_lock);
	e = peer_find(c, cid);
	if (!e)		/* on another host: reserved, id 0 */
		e = peer_reg_find(c, cid, 0);
	if (e) {
		*buffer = (void *)e->base;
		*size = e->size;
	}
	pthread_mutex_unlock(&table_lock);
	if (e)
		goto out;
	if (atomic_load(&c->magic) != HCCLT_COMM_MAGIC) {
		ret = HCCL_E_PTR;
		goto out;
	}
	memset(&cb, 0, sizeof(cb));
	cb.comm_id = c->id;
	cb.channel_id = cid;
	/* A peer without a buffer yet gets one of this communicator's size. */
	cb.size = 2 * c->buf_size;
	if (hcclt_device_features(c->dev) & HCCLT_FEATURE_CLUSTER_DATA)
		cb.flags = HCCLT_CHANNEL_BUFFER_REMOTE;
	err = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_CHANNEL_BUFFER, &cb);
	if (err) {
		ret = hcclt_map_errno(HCCLT_OP_CHANNEL_BUFFER, err);
		goto out;
	}
	if (cb.fd < 0) {	/* another host's: addresses, no mapping */
		p = hcclt_mem_peer_reg(c, cid, 0, cb.size);
		if (!p) {
			ret = HCCL_E_MEMORY;
			goto out;
		}
		*buffer = p;
		*size = cb.size;
		goto out;
	}
	p = hcclt_vas_mmap(cb.size, 0, PROT_READ | PROT_WRITE, MAP_SHARED, cb.fd, 0);
	err = p == MAP_FAILED ? -errno : 0;
	close(cb.fd);
	if (err) {
		ret = hcclt_map_errno(HCCLT_OP_CHANNEL_BUFFER, err);
		goto out;
	}
	madvise(p, cb.size, MADV_DONTFORK);
	memset(&a, 0, sizeof(a));
	a.base = (uintptr_t)p;
	a.size = cb.size;
	a.map_len = cb.size;
	a.dev = c->dev;
	a.hccl_buf = ALLOC_PEER_BUF;
	a.comm = c->id;
	a.chan = cid;
	if (table_add(&a)) {
		hcclt_vas_munmap(p, cb.size);
		ret = HCCL_E_MEMORY;
		goto out;
	}
	*buffer = p;
	*size = cb.size;
out:
	pthread_mutex_unlock(&buf_lock);
	return ret;
}

int hcclt_mem_segments(int dev, const void *p, uint64_t len, struct hcclt_seg *segs,
		       int max)
{
	uintptr_t u = (uintptr_t)p;
	struct alloc *a;
	uint64_t off, n;
	int nsegs = 0;

	if (len > UINTPTR_MAX - u)
		return -1;
	pthread_mutex_lock(&table_lock);
	a = find(u);
	if (!a || a->dev != dev)
		goto fail;
	off = u - a->base;
	for (;;) {
		if (nsegs == max) {
			nsegs = -2;
			goto out;
		}
		n = a->size - off;
		if (n > len)
			n = len;
		segs[nsegs].handle = a->handle;
		segs[nsegs].off = off;
		segs[nsegs].chan = a->hccl_buf == ALLOC_PEER_BUF ||
				   a->hccl_buf == ALLOC_PEER_REG ? a->chan : 0;
		segs[nsegs].len = n;
		nsegs++;
		len -= n;
		if (!len)
			break;
		a = next_vmap(a);
		if (!a)
			goto fail;
		off = 0;
	}
out:
	pthread_mutex_unlock(&table_lock);
	return nsegs;
fail:
	pthread_mutex_unlock(&table_lock);
	return -1;
}

int hcclt_seg_tasks(const struct hcclt_seg *d, int nd, const struct hcclt_seg *s, int ns,
		    struct drm_hcclt_task *tasks)
{
	uint64_t dused = 0, sused = 0, len;
	int i = 0, j = 0, n = 0;

	while (i < nd && j < ns) {
		len = d[i].len - dused;
		if (s[j].len - sused < len)
			len = s[j].len - sused;
		if (tasks) {
			memset(&tasks[n], 0, sizeof(tasks[n]));
			tasks[n].dst_handle = d[i].handle;
			tasks[n].dst_offset = d[i].off + dused;
			tasks[n].src_handle = s[j].handle;
			tasks[n].src_offset = s[j].off + sused;
			tasks[n].len = len;
		}
		n++;
		dused += len;
		sused += len;
		if (dused == d[i].len) {
			i++;
			dused = 0;
		}
		if (sused == s[j].len) {
			j++;
			sused = 0;
		}
	}
	return n;
}

int hcclt_mem_vmap_add(uintptr_t base, size_t size, int dev, uint32_t handle,
		       uint64_t mmap_off, uintptr_t resv)
{
	struct alloc a;

	memset(&a, 0, sizeof(a));
	a.base = base;
	a.size = size;
	a.map_len = size;
	a.dev = dev;
	a.handle = handle;
	a.hccl_buf = ALLOC_VMAP;
	a.comm = resv;
	a.mmap_off = mmap_off;
	return table_add(&a);
}

int hcclt_mem_vmap_del(uintptr_t base)
{
	struct alloc a;

	return table_take(base, 1, ALLOC_VMAP, &a);
}

/* aclrtMemAttr values the runtime knows; which of them are HBM. */
static int mem_attr_hbm(aclrtMemAttr attr)
{
	switch (attr) {
	case ACL_DDR_MEM:
	case ACL_DDR_MEM_HUGE:
	case ACL_DDR_MEM_NORMAL:
	case ACL_DDR_MEM_P2P_HUGE:
	case ACL_DDR_MEM_P2P_NORMAL:
		return 0;
	default:
		return 1;
	}
}

HCCLT_EXPORT aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)
{
	struct drm_hcclt_query q;
	int32_t dev = hcclt_current_device();
	int fd, ret;

	/* ACL's checks, then the runtime's (CANN's order). */
	if (!free || !total)
		return ACL_ERROR_INVALID_PARAM;
	if ((int)attr < ACL_DDR_MEM || (int)attr > ACL_MEM_P2P_HUGE1G)
		return ACL_ERROR_RT_INVALID_MEMORY_TYPE;
	if (dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	fd = hcclt_device_open(dev);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd);
	memset(&q, 0, sizeof(q));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, ret);
	if (!mem_attr_hbm(attr)) {
		*free = 0;
		*total = 0;
		return ACL_SUCCESS;
	}
	/* A driver without memory leaves both zero. */
	*total = (size_t)q.mem_total;
	*free = q.mem_total > q.mem_used ? (size_t)(q.mem_total - q.mem_used) : 0;
	return ACL_SUCCESS;
}

int hcclt_mem_is_own_device(int dev, const void *p, uint64_t len)
{
	uintptr_t u = (uintptr_t)p;
	struct alloc *a;
	int ret;

	pthread_mutex_lock(&table_lock);
	a = find(u);
	ret = a && a->dev == dev && a->hccl_buf == ALLOC_OWN &&
	      len <= a->size - (u - a->base);
	pthread_mutex_unlock(&table_lock);
	return ret;
}

/*
 * @c is being destroyed (claimed, no longer live): unmap its HCCL buffer
 * and close the handle, and unmap its peers' buffers; the kernel frees
 * the buffer with the communicator. A fork() child has neither the
 * mappings nor the table entries.
 */
void hcclt_mem_comm_gone(struct hcclt_comm *c)
{
	struct alloc a, *e;

	pthread_mutex_lock(&buf_lock);
	if (c->buf_addr && c->gen == hcclt_gen() &&
	    !table_take((uintptr_t)c->buf_addr, 1, ALLOC_HCCL_BUF, &a)) {
		hcclt_vas_munmap(c->buf_addr, a.map_len);
		gem_close(a.dev, a.handle);
	}
	for (;;) {
		pthread_mutex_lock(&table_lock);
		e = c->gen == hcclt_gen() ? peer_find(c, 0) : NULL;
		a.base = e ? e->base : 0;
		pthread_mutex_unlock(&table_lock);
		if (!e || table_take(a.base, 1, ALLOC_PEER_BUF, &a))
			break;
		hcclt_vas_munmap((void *)a.base, a.map_len);
	}
	for (;;) {
		pthread_mutex_lock(&table_lock);
		e = c->gen == hcclt_gen() ? peer_reg_find(c, 0, 0) : NULL;
		a.base = e ? e->base : 0;
		pthread_mutex_unlock(&table_lock);
		if (!e || table_take(a.base, 1, ALLOC_PEER_REG, &a))
			break;
		hcclt_vas_munmap((void *)a.base, a.map_len);
	}
	c->buf_addr = NULL;
	c->buf_len = 0;
	c->buf_map_len = 0;
	c->buf_handle = 0;
	pthread_mutex_unlock(&buf_lock);
}

/*
 * The device mappings of @dev (aclrtMalloc, HCCL buffers, peers' buffers,
 * mappings of physical memory), for the AI CPU (aicpu.c): their number,
 * in *@out (malloc()ed; NULL when none), or -ENOMEM.
 */
int hcclt_mem_snapshot(int dev, struct hcclt_aicpu_map **out)
{
	struct hcclt_aicpu_map *m = NULL;
	size_t i, n = 0;

	pthread_mutex_lock(&table_lock);
	for (i = 0; i < nallocs; i++)
		n += table[i].dev == dev;
	if (n) {
		m = calloc(n, sizeof(*m));
		if (!m) {
			pthread_mutex_unlock(&table_lock);
			return -ENOMEM;
		}
	}
	for (i = 0, n = 0; i < nallocs; i++) {
		const struct alloc *a = &table[i];

		if (a->dev != dev)
			continue;
		m[n].base = a->base;
		m[n].size = a->size;
		m[n].map_len = a->map_len;
		m[n].mmap_off = a->mmap_off;
		m[n].comm = a->comm;
		m[n].chan = a->chan;
		m[n].handle = a->handle;
		m[n].kind = a->hccl_buf;
		n++;
	}
	pthread_mutex_unlock(&table_lock);
	*out = m;
	return (int)n;
}

/*
 * In the AI CPU process: the table becomes @n entries of device @dev
 * (mapped by the caller at the same addresses), so that the data tasks
 * of a kernel find them as the application does.
 */
int hcclt_mem_adopt(int dev, const struct hcclt_aicpu_map *m, size_t n)
{
	struct alloc *t = NULL;
	size_t i;

	if (n) {
		t = calloc(n, sizeof(*t));
		if (!t)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		t[i].base = (uintptr_t)m[i].base;
		t[i].size = (size_t)m[i].size;
		t[i].map_len = (size_t)m[i].map_len;
		t[i].dev = dev;
		t[i].handle = m[i].handle;
		t[i].hccl_buf = m[i].kind;
		t[i].comm = m[i].comm;
		t[i].chan = m[i].chan;
		t[i].mmap_off = m[i].mmap_off;
	}
	pthread_mutex_lock(&table_lock);
	free(table);
	table = t;
	nallocs = n;
	cap = n;
	pthread_mutex_unlock(&table_lock);
	return 0;
}
