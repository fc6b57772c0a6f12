// SPDX-License-Identifier: MIT
/*
 * ACL virtual memory: aclrtReserveMemAddress, aclrtReleaseMemAddress,
 * aclrtMallocPhysical, aclrtFreePhysical, aclrtMapMem, aclrtUnmapMem and
 * aclrtMemGetAllocationGranularity.
 *
 * Physical memory is a memory object of the device
 * (DRM_IOCTL_HCCLT_MEM_CREATE), not mapped anywhere when it is made; an
 * aclrtDrvMemHandle points to a struct hcclt_phys, made and given back as
 * a stream's struct is (objects.c), so that a stale handle is refused. A
 * reservation is an anonymous PROT_NONE mapping of this process; mapping
 * physical memory there is an mmap() of the object's offset on the
 * device file, MAP_FIXED over the reserved addresses, and unmapping puts
 * a PROT_NONE mapping back. Every mapping is an entry of mem.c's table
 * (device memory of the object's device, its GEM handle), so that the
 * addresses are device addresses for aclrtMemcpy() and the data tasks;
 * mappings that follow each other in one reservation make one range
 * there.
 *
 * aclrtFreePhysical() of mapped memory (CANN: freed at its last unmap)
 * kills the handle at once and keeps the object's GEM handle, which the
 * data tasks on its mappings name, until the last mapping goes.
 *
 * State: the reservations, the mappings and every struct hcclt_phys's
 * nmaps and freed are under vmm_lock, taken before mem.c's table lock.
 * Reservations and mappings are MADV_DONTFORK: a fork() child has none
 * of them (nor the parent's physical memory, whose handles carry the
 * parent's generation), and forgets the parent's lists.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"

#define HCCLT_PHYS_MAGIC	0x48435048U	/* "HCPH" */

#define SZ_2M	(UINT64_C(2) << 20)
#define SZ_1G	(UINT64_C(1) << 30)

/* What an aclrtDrvMemHandle points to: the layout of a stream. */
struct hcclt_phys {
	_Atomic uint32_t magic;	/* HCCLT_PHYS_MAGIC while its handle is live */
	uint32_t gen;		/* fork generation it was made in */
	int32_t dev;		/* device index */
	uint32_t handle;	/* GEM handle in the device's file */
	uint64_t mmap_off;	/* mmap() offset of the object */
	uint64_t size;		/* bytes, a multiple of @gran */
	uint64_t gran;		/* its granularity: where it may be mapped */
	uint32_t nmaps;		/* mappings of it; vmm_lock */
	uint32_t freed;		/* aclrtFreePhysical() was called; vmm_lock */
	uint8_t unused[sizeof(struct hcclt_stream) - 48];
};

_Static_assert(sizeof(struct hcclt_phys) == sizeof(struct hcclt_stream),
	       "physical memory shares the objects' reuse queue");

struct resv {
	uintptr_t base;
	size_t size;		/* bytes reserved (page-rounded) */
	int dev;		/* device of its mappings, while it has some */
	uint32_t nmaps;
};

struct vmap {
	uintptr_t base;
	size_t size;
	uintptr_t resv;		/* start of its reservation */
	struct hcclt_phys *phys;
};

/* protects resvs, vmaps and every hcclt_phys's nmaps and freed */
static pthread_mutex_t vmm_lock = PTHREAD_MUTEX_INITIALIZER;
static struct resv *resvs;
static size_t nresvs, capresvs;
static struct vmap *vmaps;
static size_t nvmaps, capvmaps;

void hcclt_vmm_atfork_prepare(void)
{
	pthread_mutex_lock(&vmm_lock);
}

void hcclt_vmm_atfork_parent(void)
{
	pthread_mutex_unlock(&vmm_lock);
}

/* The child has none of it (MADV_DONTFORK); its memory is the parent's. */
void hcclt_vmm_atfork_child(void)
{
	nresvs = 0;
	nvmaps = 0;
	pthread_mutex_unlock(&vmm_lock);
}

static int grow(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return 0;
	ncap = *cap ? 2 * *cap : 16;
	p = realloc(*arr, ncap * elem);
	if (!p)
		return -1;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* Does the SoC of the driver's sim_soc start with @prefix? */
static int soc_is(const char *prefix)
{
	const char *soc = aclrtGetSocName();

	return soc && !strncmp(soc, prefix, strlen(prefix));
}

/*
 * The checks of aclrtMallocPhysical() and aclrtMemGetAllocationGranularity()
 * that follow ACL's (the runtime's and the driver's): the memory's
 * granularity in *@gran, ACL_SUCCESS or the error.
 */
static aclError prop_check(const aclrtPhysicalMemProp *prop, uint64_t *gran)
{
	int n;

	switch (prop->memAttr) {
	case ACL_HBM_MEM_HUGE:
	case ACL_HBM_MEM_NORMAL:
		/* NORMAL is allocated as huge pages too (CANN). */
		*gran = SZ_2M;
		break;
	case ACL_HBM_MEM_HUGE1G:
		*gran = SZ_1G;
		break;
	default:
		return ACL_ERROR_INVALID_PARAM;
	}
	if (prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE)
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;	/* host memory */
	n = hcclt_device_count();
	if (!n)
		return ACL_ERROR_RT_NO_DEVICE;
	if (prop->location.id >= (uint32_t)n)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	/* 1 GiB pages: Ascend 910B and 910C only (CANN). */
	if (*gran == SZ_1G && soc_is("Ascend950"))
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
						       aclrtMemGranularityOptions option,
						       size_t *granularity)
{
	uint64_t gran;
	aclError ret;

	if (!prop || !granularity)
		return ACL_ERROR_INVALID_PARAM;
	ret = prop_check(prop, &gran);
	if (ret != ACL_SUCCESS)
		return ret;
	if (option != ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM &&
	    option != ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)
		return ACL_ERROR_RT_PARAM_INVALID;
	*granularity = (size_t)gran;
	return ACL_SUCCESS;
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

HCCLT_EXPORT aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size,
					  const aclrtPhysicalMemProp *prop, uint64_t flags)
{
	struct drm_hcclt_mem_create mc;
	struct hcclt_phys *p;
	uint64_t gran;
	aclError aret;
	int fd, ret;

	/* ACL's checks, in its order. */
	if (!handle || !prop || !size || flags ||
	    prop->handleType != ACL_MEM_HANDLE_TYPE_NONE ||
	    prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED ||
	    prop->location.type == ACL_MEM_LOCATION_TYPE_UNREGISTERED)
		return ACL_ERROR_INVALID_PARAM;
	aret = prop_check(prop, &gran);
	if (aret != ACL_SUCCESS)
		return aret;
	if (size > SIZE_MAX - (gran - 1))
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	fd = hcclt_device_open((int)prop->location.id);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd);
	memset(&mc, 0, sizeof(mc));
	mc.size = (size + gran - 1) / gran * gran;
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_MEM_CREATE, &mc);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_MEM_CREATE, ret);
	p = hcclt_obj_alloc();
	if (!p) {
		gem_close((int)prop->location.id, mc.handle);
		return ACL_ERROR_BAD_ALLOC;
	}
	p->gen = hcclt_gen();
	p->dev = (int32_t)prop->location.id;
	p->handle = mc.handle;
	p->mmap_off = mc.mmap_offset;
	p->size = mc.size;
	p->gran = gran;
	p->nmaps = 0;
	p->freed = 0;
	atomic_store_explicit(&p->magic, HCCLT_PHYS_MAGIC, memory_order_release);
	*handle = p;
	return ACL_SUCCESS;
}

/* @h as live physical memory of this process, or NULL. vmm_lock held. */
static struct hcclt_phys *phys_get(aclrtDrvMemHandle h)
{
	struct hcclt_phys *p = h;

	if (atomic_load_explicit(&p->magic, memory_order_acquire) != HCCLT_PHYS_MAGIC ||
	    p->gen != hcclt_gen())
		return NULL;
	return p;
}

/* @p's handle is dead and nothing maps it: close it. vmm_lock held. */
static void phys_release(struct hcclt_phys *p)
{
	gem_close(p->dev, p->handle);
	hcclt_obj_free(p);
}

HCCLT_EXPORT aclError aclrtFreePhysical(aclrtDrvMemHandle handle)
{
	struct hcclt_phys *p;

	if (!handle)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&vmm_lock);
	p = phys_get(handle);
	if (!p) {
		pthread_mutex_unlock(&vmm_lock);
		return ACL_ERROR_RT_INVALID_HANDLE;
	}
	/* Refused from now on; the object lives while mapped. */
	atomic_store_explicit(&p->magic, HCCLT_DEAD_MAGIC, memory_order_relaxed);
	p->freed = 1;
	if (!p->nmaps)
		phys_release(p);
	pthread_mutex_unlock(&vmm_lock);
	return ACL_SUCCESS;
}

/* An inaccessible anonymous mapping of @len bytes at @at (MAP_FIXED). */
static int reserve_at(uintptr_t at, size_t len)
{
	void *q = mmap((void *)at, len, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);

	if (q == MAP_FAILED)
		return -errno;
	madvise(q, len, MADV_DONTFORK);
	return 0;
}

HCCLT_EXPORT aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment,
					     void *expectPtr, uint64_t flags)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), align, len;
	uintptr_t base;
	struct resv *r;
	void *q;

	if (!virPtr || !size || (flags != 0 && flags != 1))
		return ACL_ERROR_INVALID_PARAM;
	align = alignment ? alignment : (size_t)SZ_2M;
	if ((align & (align - 1)) || align < page ||
	    ((uintptr_t)expectPtr % SZ_1G) || size > SIZE_MAX - page)
		return ACL_ERROR_RT_PARAM_INVALID;
	len = (size + page - 1) / page * page;
	if (expectPtr) {
		q = mmap(expectPtr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
			 MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
		if (q == MAP_FAILED)
			return ACL_ERROR_RT_MEMORY_ALLOCATION;
		/* A kernel without MAP_FIXED_NOREPLACE takes it as a hint. */
		if (q != expectPtr) {
			munmap(q, len);
			return ACL_ERROR_RT_MEMORY_ALLOCATION;
		}
		base = (uintptr_t)q;
	} else {
		/* In the device window (vas.c), where the AI CPU maps it too. */
		q = hcclt_vas_mmap(len, align, PROT_NONE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (q == MAP_FAILED)
			return ACL_ERROR_RT_MEMORY_ALLOCATION;
		base = (uintptr_t)q;
	}
	madvise((void *)base, len, MADV_DONTFORK);
	pthread_mutex_lock(&vmm_lock);
	if (grow((void **)&resvs, &capresvs, nresvs, sizeof(*resvs))) {
		pthread_mutex_unlock(&vmm_lock);
		hcclt_vas_munmap((void *)base, len);
		return ACL_ERROR_BAD_ALLOC;
	}
	r = &resvs[nresvs++];
	r->base = base;
	r->size = len;
	r->dev = -1;
	r->nmaps = 0;
	pthread_mutex_unlock(&vmm_lock);
	*virPtr = (void *)base;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtReleaseMemAddress(void *virPtr)
{
	aclError ret = ACL_ERROR_RT_PARAM_INVALID;
	size_t i;

	if (!virPtr)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&vmm_lock);
	for (i = 0; i < nresvs; i++) {
		if (resvs[i].base != (uintptr_t)virPtr)
			continue;
		/* Mapped memory must be unmapped first (CANN). */
		if (resvs[i].nmaps)
			break;
		hcclt_vas_munmap(virPtr, resvs[i].size);
		resvs[i] = resvs[--nresvs];
		ret = ACL_SUCCESS;
		break;
	}
	pthread_mutex_unlock(&vmm_lock);
	return ret;
}

/* The reservation holding [@u, @u + @len), or NULL. vmm_lock held. */
static struct resv *resv_of(uintptr_t u, size_t len)
{
	size_t i;

	for (i = 0; i < nresvs; i++)
		if (u >= resvs[i].base && u - resvs[i].base <= resvs[i].size &&
		    len <= resvs[i].size - (u - resvs[i].base))
			return &resvs[i];
	return NULL;
}

HCCLT_EXPORT aclError aclrtMapMem(void *virPtr, size_t size, size_t offset,
				  aclrtDrvMemHandle handle, uint64_t flags)
{
	uintptr_t u = (uintptr_t)virPtr;
	struct hcclt_phys *p;
	aclError ret = ACL_SUCCESS;
	struct resv *r;
	struct vmap *v;
	size_t i;
	void *q;
	int fd, err;

	if (!virPtr || !handle || !size || flags)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&vmm_lock);
	p = phys_get(handle);
	if (!p) {
		ret = ACL_ERROR_RT_INVALID_HANDLE;
		goto out;
	}
	r = resv_of(u, size);
	if (offset || size != p->size || u % p->gran || !r ||
	    (r->nmaps && r->dev != p->dev)) {
		ret = ACL_ERROR_RT_PARAM_INVALID;
		goto out;
	}
	for (i = 0; i < nvmaps; i++)
		if (u < vmaps[i].base + vmaps[i].size && vmaps[i].base < u + size) {
			ret = ACL_ERROR_RT_PARAM_INVALID;
			goto out;
		}
	fd = hcclt_device_fd_fast(p->dev);
	if (fd < 0) {
		ret = ACL_ERROR_RT_INVALID_HANDLE;
		goto out;
	}
	if (grow((void **)&vmaps, &capvmaps, nvmaps, sizeof(*vmaps))) {
		ret = ACL_ERROR_BAD_ALLOC;
		goto out;
	}
	q = mmap(virPtr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
		 (off_t)p->mmap_off);
	if (q == MAP_FAILED) {
		err = -errno;
		/* A failed MAP_FIXED may have unmapped the range: reserve it again. */
		reserve_at(u, size);
		ret = hcclt_map_errno(HCCLT_OP_MEM_CREATE, err);
		goto out;
	}
	madvise(q, size, MADV_DONTFORK);
	if (hcclt_mem_vmap_add(u, size, p->dev, p->handle, p->mmap_off, r->base)) {
		reserve_at(u, size);
		ret = ACL_ERROR_BAD_ALLOC;
		goto out;
	}
	v = &vmaps[nvmaps++];
	v->base = u;
	v->size = size;
	v->resv = r->base;
	v->phys = p;
	p->nmaps++;
	r->nmaps++;
	r->dev = p->dev;
out:
	pthread_mutex_unlock(&vmm_lock);
	return ret;
}

HCCLT_EXPORT aclError aclrtUnmapMem(void *virPtr)
{
	struct hcclt_phys *p;
	struct vmap v;
	struct resv *r;
	size_t i;

	if (!virPtr)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&vmm_lock);
	for (i = 0; i < nvmaps; i++)
		if (vmaps[i].base == (uintptr_t)virPtr)
			break;
	if (i == nvmaps) {
		pthread_mutex_unlock(&vmm_lock);
		return ACL_ERROR_RT_PARAM_INVALID;
	}
	v = vmaps[i];
	vmaps[i] = vmaps[--nvmaps];
	/* Out of the table first: no new copy finds the addresses. */
	hcclt_mem_vmap_del(v.base);
	/* Replaces the object's mapping in one step. */
	reserve_at(v.base, v.size);
	r = resv_of(v.base, v.size);
	if (r && !--r->nmaps)
		r->dev = -1;
	p = v.phys;
	if (!--p->nmaps && p->freed)
		phys_release(p);
	pthread_mutex_unlock(&vmm_lock);
	return ACL_SUCCESS;
}
