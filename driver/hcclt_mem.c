// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: device memory of the (simulated) NPU.
 *
 * Device memory is shmem-backed DRM GEM objects (drm_gem_shmem_*). A file
 * creates one with DRM_IOCTL_HCCLT_MEM_CREATE, which returns a GEM handle
 * and the offset to mmap() on the device file; DRM_IOCTL_GEM_CLOSE drops
 * the handle. The GEM core keeps the object while a handle or a mapping
 * names it: the handles go when the file is closed, the mappings when the
 * process unmaps them or dies. Only a file holding a handle may map an
 * object (drm_vma_node_is_allowed()).
 *
 * Capacity: each device has hdev->mem_total bytes (module parameter
 * sim_memory_mb). An object takes its page-rounded size from the device's
 * capacity when it is created and gives it back when its last reference
 * goes (hcclt_mem_free()); hdev->pool_lock protects hdev->mem_used. The
 * size is charged to the account of the file it is made for, within that
 * file's, process's and user's shares (hcclt_limits.c): the creating file,
 * or the file of the communicator whose HCCL buffer it is.
 *
 * Pages: the shmem helper allocates every page of an object when it is
 * first mapped (drm_gem_shmem_mmap() pins them while any mapping exists);
 * they are charged to the memory cgroup of the process that maps it then.
 * A page the copy engine touches first (an object never mapped, or a
 * page of it swapped out) is allocated by a kworker, and is charged to
 * the memory cgroup of the object's creator, which the object holds from
 * its creation (hcclt_mem_memcg(), hcclt_copy.c). The object struct
 * itself is charged to the creator (GFP_KERNEL_ACCOUNT).
 *
 * HCCL buffers: DRM_IOCTL_HCCLT_COMM_BUFFER makes a communicator's buffer,
 * an object like the others, on first use; struct hcclt_comm holds it
 * (comm->buf) until the communicator is torn down.
 *
 * Revocation: a channel's peer reaches a communicator's buffer through
 * dma-bufs of hcclt_mem_export() (DRM_IOCTL_HCCLT_CHANNEL_BUFFER), which
 * it maps, and through its data tasks (HCCLT_TASK_WRITE, _READ and their
 * reduces, whose copies hold the object). When the communicator is torn
 * down (COMM_DESTROY, its file closed, its process dead),
 * hcclt_comm_buffer_drop() revokes that access (hcclt_mem_revoke()), as
 * device memory freed under a peer's mapping would on real hardware: the
 * PTEs of every mapping of those dma-bufs are zapped and their faults
 * answer VM_FAULT_SIGBUS from then on, a new mmap() of one fails with
 * -ECONNRESET, and the copy engine fails every copy that reaches the
 * object as a peer's buffer with -ECONNRESET (hcclt_mem_peer_begin()), the
 * error a wait on the gone peer gets. Only the peers lose access: the
 * owner's handles and its mappings through the device file are its own
 * memory, charged to it, and follow the object's ordinary lifetime (a rank
 * may read its results after it destroyed its communicator). The object's
 * @peer_lock orders revocation against every access of a peer: once
 * hcclt_mem_revoke() returns, no fault of a peer's mapping and no chunk of
 * a peer's copy touches the pages any more.
 *
 * fdinfo: hcclt_mem_show_fdinfo() prints drm-total-memory and
 * drm-resident-memory of the objects a file has handles to, on every
 * kernel (Documentation/uapi.rst says why those two and why "memory").
 */

#include <linux/dma-buf.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/math64.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/rwsem.h>
#include <linux/build_bug.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/stddef.h>
#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_prime.h>
#include <drm/drm_vma_manager.h>

#include "hcclt_drv.h"

/* Largest sim_memory_mb: 1 TiB per device. */
#define HCCLT_MAX_SIM_MEMORY_MB	1048576U

/*
 * 16 GiB: room for a communicator's HCCL buffer (400 MiB by default) and
 * user allocations on each device of an 8-device server. Only bookkeeping:
 * pages are allocated when an object is mapped (see above).
 */
static unsigned int sim_memory_mb = 16384;
module_param(sim_memory_mb, uint, 0444);
MODULE_PARM_DESC(sim_memory_mb,
		 "Device memory of each simulated NPU in MiB (0-1048576, default 16384)");

/**
 * struct hcclt_mem - one device memory object.
 * @shmem: the shmem GEM object; must stay first: drm_gem_shmem_free() and
 *	the error paths of drm_gem_shmem_create() kfree() it.
 * @charged: bytes taken from the device's capacity, given back on free;
 *	zero until the create ioctl has reserved them. Written once before
 *	the object is published through a handle. Non-zero also means the
 *	object holds a reference on its DRM device (drm_dev_get()), dropped
 *	when it is freed.
 * @acct: the account @charged is charged to (reference held); set with
 *	@charged.
 * @memcg: the memory cgroup of the process that created it (reference
 *	held; NULL without memory cgroups), which the copy engine charges
 *	the pages it allocates to; immutable once published.
 * @peer_lock: protects @revoked (written under it held for writing) and
 *	@peers. Held for reading by the faults of the peers' mappings and by
 *	the copy engine around each chunk of a peer's copy, for writing by
 *	hcclt_mem_revoke() and while a dma-buf enters or leaves @peers.
 *	Order: mmap_lock -> @peer_lock -> the shmem helper's lock (the
 *	object's dma_resv lock; its pages_lock before 6.2);
 *	file->lock -> @peer_lock -> i_mmap_rwsem (hcclt_drv.h). Memory
 *	reclaim never takes it (the driver has no shrinker).
 * @peers: the dma-bufs of hcclt_mem_export() of the object
 *	(struct hcclt_mem_peer), until each is released.
 * @revoked: the communicator whose HCCL buffer it is was torn down: its
 *	peers lose access (see above). Set once.
 */
struct hcclt_mem {
	struct drm_gem_shmem_object shmem;
	u64 charged;
	struct hcclt_acct *acct;
	struct mem_cgroup *memcg;
	struct rw_semaphore peer_lock;
	struct list_head peers;
	bool revoked;
};

/**
 * struct hcclt_mem_peer - a dma-buf of hcclt_mem_export(), its priv.
 * @node: entry in the object's @peers; its @peer_lock.
 * @inode: the dma-buf file's inode, whose address space holds the peers'
 *	mappings (reference held: the dma-buf core drops its own before it
 *	calls the release, which takes the entry off @peers).
 * @obj: the object (reference held until the dma-buf is released).
 */
struct hcclt_mem_peer {
	struct list_head node;
	struct inode *inode;
	struct drm_gem_object *obj;
};

/* drm_gem_shmem_free() and the helper's error paths kfree() the shmem. */
static_assert(offsetof(struct hcclt_mem, shmem) == 0);

static inline struct hcclt_mem *to_hcclt_mem(struct drm_gem_object *obj)
{
	return container_of(obj, struct hcclt_mem, shmem.base);
}

int hcclt_mem_check_params(void)
{
	if (sim_memory_mb > HCCLT_MAX_SIM_MEMORY_MB) {
		pr_err("hcclthread: sim_memory_mb=%u out of range 0-%u\n",
		       sim_memory_mb, HCCLT_MAX_SIM_MEMORY_MB);
		return -EINVAL;
	}
	return 0;
}

void hcclt_mem_dev_init(struct hcclt_device *hdev)
{
	hdev->mem_total = (u64)sim_memory_mb << 20;
	hdev->mem_used = 0;
}

static int hcclt_mem_reserve(struct hcclt_device *hdev,
			     struct hcclt_acct *acct, u64 size)
{
	int ret;

	ret = hcclt_charge(acct, HCCLT_RES_MEMORY, size);
	if (ret)
		return ret;
	ret = -ENOBUFS;
	spin_lock(&hdev->pool_lock);
	if (size <= hdev->mem_total - hdev->mem_used) {
		hdev->mem_used += size;
		ret = 0;
	}
	spin_unlock(&hdev->pool_lock);
	if (ret)
		hcclt_uncharge(acct, HCCLT_RES_MEMORY, size);
	return ret;
}

static void hcclt_mem_unreserve(struct hcclt_device *hdev,
				struct hcclt_acct *acct, u64 size)
{
	hcclt_uncharge(acct, HCCLT_RES_MEMORY, size);
	spin_lock(&hdev->pool_lock);
	if (WARN_ON(size > hdev->mem_used))
		size = hdev->mem_used;
	hdev->mem_used -= size;
	spin_unlock(&hdev->pool_lock);
}

/*
 * The last reference went: free the object, give back its capacity and
 * drop the reference on its device that hcclt_mem_new() took.
 */
static void hcclt_mem_free(struct drm_gem_object *obj)
{
	struct hcclt_device *hdev = to_hcclt_dev(obj->dev);
	struct hcclt_acct *acct = to_hcclt_mem(obj)->acct;
	u64 charged = to_hcclt_mem(obj)->charged;
	struct mem_cgroup *memcg = to_hcclt_mem(obj)->memcg;

	drm_gem_shmem_free(&to_hcclt_mem(obj)->shmem);
	mem_cgroup_put(memcg);
	if (charged) {
		hcclt_mem_unreserve(hdev, acct, charged);
		hcclt_acct_put(acct);
		drm_dev_put(&hdev->drm);
	}
}

/**
 * hcclt_mem_memcg - the memory cgroup to charge pages of @obj to that no
 * process faults in: its creator's.
 * @obj: a memory object, reference held.
 *
 * Return: the cgroup (valid while @obj is), or NULL.
 */
struct mem_cgroup *hcclt_mem_memcg(struct drm_gem_object *obj)
{
	return to_hcclt_mem(obj)->memcg;
}

/*
 * No pin, sg table or vmap: the simulated device reaches the objects
 * through the pages of the shmem file, and the only export,
 * hcclt_mem_export(), is for mmap() alone (the PRIME ioctls are refused).
 */
static const struct drm_gem_object_funcs hcclt_mem_funcs = {
	.free = hcclt_mem_free,
	.print_info = drm_gem_shmem_object_print_info,
	.mmap = drm_gem_shmem_object_mmap,
	.vm_ops = &drm_gem_shmem_vm_ops,
};

/*
 * The faults of a peer's mapping: SIGBUS once the object is revoked,
 * otherwise the shmem helper's. Under @peer_lock, so that no fault
 * inserts a PTE after hcclt_mem_revoke() zapped them.
 */
static vm_fault_t hcclt_peer_fault(struct vm_fault *vmf)
{
	struct hcclt_mem *mem = to_hcclt_mem(vmf->vma->vm_private_data);
	vm_fault_t ret;

	down_read(&mem->peer_lock);
	if (mem->revoked)
		ret = VM_FAULT_SIGBUS;
	else
		ret = drm_gem_shmem_vm_ops.fault(vmf);
	up_read(&mem->peer_lock);
	return ret;
}

/* The helper's: page pin and object reference of each copy of the VMA. */
static void hcclt_peer_vm_open(struct vm_area_struct *vma)
{
	drm_gem_shmem_vm_ops.open(vma);
}

static void hcclt_peer_vm_close(struct vm_area_struct *vma)
{
	drm_gem_shmem_vm_ops.close(vma);
}

/* The mappings of the dma-bufs of hcclt_mem_export(). */
static const struct vm_operations_struct hcclt_peer_vm_ops = {
	.fault = hcclt_peer_fault,
	.open = hcclt_peer_vm_open,
	.close = hcclt_peer_vm_close,
};

/*
 * The dma-bufs of hcclt_mem_export() may be mapped by a process and by
 * nothing else: a device driver importing one would need the pages pinned
 * and an sg table, which the simulated NPU never needs, so attaching is
 * refused and the mapping callbacks are never reached.
 */
static int hcclt_dmabuf_attach(struct dma_buf *buf,
			       struct dma_buf_attachment *attach)
{
	return -EOPNOTSUPP;
}

static struct sg_table *hcclt_dmabuf_map(struct dma_buf_attachment *attach,
					 enum dma_data_direction dir)
{
	return ERR_PTR(-EOPNOTSUPP);
}

/* Required by dma_buf_export(); unreachable without an attachment. */
static void hcclt_dmabuf_unmap(struct dma_buf_attachment *attach,
			       struct sg_table *sgt,
			       enum dma_data_direction dir)
{
	WARN_ON_ONCE(1);
}

/*
 * mmap() of a peer's dma-buf: the GEM PRIME path (the shmem helper's
 * mmap, which pins the pages), with the peers' vm_ops. The VMA is in the
 * dma-buf file's own mapping, which hcclt_mem_revoke() zaps. A revoked
 * object is not mapped any more; one revoked after this check faults
 * SIGBUS (hcclt_peer_fault()).
 */
static int hcclt_dmabuf_mmap(struct dma_buf *buf, struct vm_area_struct *vma)
{
	struct hcclt_mem_peer *peer = buf->priv;
	int ret;

	if (READ_ONCE(to_hcclt_mem(peer->obj)->revoked))
		return -ECONNRESET;
	ret = drm_gem_prime_mmap(peer->obj, vma);
	if (!ret)
		vma->vm_ops = &hcclt_peer_vm_ops;
	return ret;
}

/* The last reference of the dma-buf went (no mapping is left either). */
static void hcclt_dmabuf_release(struct dma_buf *buf)
{
	struct hcclt_mem_peer *peer = buf->priv;
	struct drm_gem_object *obj = peer->obj;
	struct hcclt_mem *mem = to_hcclt_mem(obj);
	struct drm_device *drm = obj->dev;

	down_write(&mem->peer_lock);
	list_del(&peer->node);
	up_write(&mem->peer_lock);
	iput(peer->inode);
	kfree(peer);
	drm_gem_object_put(obj);
	drm_dev_put(drm);
}

static const struct dma_buf_ops hcclt_dmabuf_ops = {
	.attach = hcclt_dmabuf_attach,
	.map_dma_buf = hcclt_dmabuf_map,
	.unmap_dma_buf = hcclt_dmabuf_unmap,
	.release = hcclt_dmabuf_release,
	.mmap = hcclt_dmabuf_mmap,
};

/**
 * hcclt_mem_export - a dma-buf of a communicator's HCCL buffer for a
 * channel's peer, for mmap() only.
 * @obj: the object; the dma-buf takes its own reference, and one of its
 *	DRM device.
 *
 * The dma-buf's owner is this module: the dma-buf core holds a module
 * reference until the buffer is released (after its last mapping goes),
 * so the module cannot be unloaded under it. Unlike
 * drm_gem_dmabuf_export(), the dma-buf file keeps its own address space
 * (the peers' mappings are not the device file's), which
 * hcclt_mem_revoke() zaps.
 *
 * Return: the dma-buf, ERR_PTR(-ECONNRESET) when @obj is revoked, or
 * another ERR_PTR().
 */
struct dma_buf *hcclt_mem_export(struct drm_gem_object *obj)
{
	DEFINE_DMA_BUF_EXPORT_INFO(info);
	struct hcclt_mem *mem = to_hcclt_mem(obj);
	struct hcclt_mem_peer *peer;
	struct dma_buf *buf;

	peer = kzalloc(sizeof(*peer), GFP_KERNEL_ACCOUNT);
	if (!peer)
		return ERR_PTR(-ENOMEM);
	info.ops = &hcclt_dmabuf_ops;
	info.size = obj->size;
	info.flags = O_RDWR;
	info.priv = peer;
	info.resv = obj->resv;

	down_write(&mem->peer_lock);
	if (mem->revoked) {
		buf = ERR_PTR(-ECONNRESET);
	} else {
		buf = dma_buf_export(&info);
		if (!IS_ERR(buf)) {
			drm_dev_get(obj->dev);
			drm_gem_object_get(obj);
			peer->obj = obj;
			peer->inode = file_inode(buf->file);
			ihold(peer->inode);
			list_add_tail(&peer->node, &mem->peers);
			peer = NULL;
		}
	}
	up_write(&mem->peer_lock);
	kfree(peer);
	return buf;
}

/**
 * hcclt_mem_revoke - the communicator whose HCCL buffer @obj is was torn
 * down: its channels' peers lose access to it.
 * @obj: the object, reference held.
 *
 * Zaps the PTEs of every mapping of its dma-bufs (their next access
 * faults SIGBUS), and waits for the faults and the copy engine's chunks
 * that reach it as a peer's buffer: none touches its pages after this
 * returns. The owner's handles and mappings are not affected.
 */
void hcclt_mem_revoke(struct drm_gem_object *obj)
{
	struct hcclt_mem *mem = to_hcclt_mem(obj);
	struct hcclt_mem_peer *peer;

	down_write(&mem->peer_lock);
	WRITE_ONCE(mem->revoked, true);
	list_for_each_entry(peer, &mem->peers, node)
		unmap_mapping_range(peer->inode->i_mapping, 0, 0, 1);
	up_write(&mem->peer_lock);
}

/**
 * hcclt_mem_flag_revoke - set a revocation flag of a part of @obj (a
 * registered range, hcclt_memreg.c) under its @peer_lock.
 * @obj: the object, reference held.
 * @flag: the flag; the copy engine reads it between hcclt_mem_peer_begin()
 *	and hcclt_mem_peer_end() of @obj.
 *
 * Waits for the chunks of the peers' copies running on @obj: none that
 * reads @flag clear touches @obj after this returns.
 */
void hcclt_mem_flag_revoke(struct drm_gem_object *obj, bool *flag)
{
	struct hcclt_mem *mem = to_hcclt_mem(obj);

	down_write(&mem->peer_lock);
	WRITE_ONCE(*flag, true);
	up_write(&mem->peer_lock);
}

/**
 * hcclt_mem_peer_begin - the copy engine is about to touch @obj as a
 * channel peer's HCCL buffer.
 * @obj: the object, reference held.
 *
 * On success, @obj cannot be revoked until hcclt_mem_peer_end(); the
 * caller may sleep and allocate meanwhile, but must take no lock of the
 * driver.
 *
 * Return: 0, or -ECONNRESET (revoked: its owner's communicator is gone).
 */
int hcclt_mem_peer_begin(struct drm_gem_object *obj)
{
	struct hcclt_mem *mem = to_hcclt_mem(obj);

	down_read(&mem->peer_lock);
	if (!mem->revoked)
		return 0;
	up_read(&mem->peer_lock);
	return -ECONNRESET;
}

/**
 * hcclt_mem_peer_end - end of a hcclt_mem_peer_begin() that succeeded.
 * @obj: the object.
 */
void hcclt_mem_peer_end(struct drm_gem_object *obj)
{
	up_read(&to_hcclt_mem(obj)->peer_lock);
}

/* drm_driver.gem_create_object: every GEM object of the driver is ours. */
struct drm_gem_object *hcclt_mem_create_object(struct drm_device *drm,
					       size_t size)
{
	struct hcclt_mem *mem;

	mem = kzalloc(sizeof(*mem), GFP_KERNEL_ACCOUNT);
	if (!mem)
		return ERR_PTR(-ENOMEM);
	mem->shmem.base.funcs = &hcclt_mem_funcs;
	init_rwsem(&mem->peer_lock);
	INIT_LIST_HEAD(&mem->peers);
	return &mem->shmem.base;
}

/* Another reference of @memcg (none without memory cgroups). */
static struct mem_cgroup *hcclt_memcg_get(struct mem_cgroup *memcg)
{
#ifdef CONFIG_MEMCG
	css_get(&memcg->css);
#endif
	return memcg;
}

/*
 * A new memory object of at least @want bytes on @hdev, its page-rounded
 * size charged to @acct and taken from the device's capacity (given back
 * when it is freed), the kernel memory of it and its pages to @memcg
 * (with a reference), or to the caller's memory cgroup when NULL.
 * Return: the object with one reference, or an ERR_PTR().
 */
static struct drm_gem_object *hcclt_mem_new(struct hcclt_device *hdev,
					    struct hcclt_acct *acct,
					    struct mem_cgroup *memcg,
					    u64 want)
{
	struct drm_gem_shmem_object *shmem;
	struct mem_cgroup *old;
	u64 size;
	int ret;

	/* Also keeps PAGE_ALIGN() below from wrapping. */
	if (want > hdev->mem_total)
		return ERR_PTR(-ENOBUFS);
	size = PAGE_ALIGN(want);
	ret = hcclt_mem_reserve(hdev, acct, size);
	if (ret)
		return ERR_PTR(ret);

	/* Its struct, shmem file and inode: the charged cgroup's too. */
	old = set_active_memcg(memcg);
	shmem = drm_gem_shmem_create(&hdev->drm, size);
	set_active_memcg(old);
	if (IS_ERR(shmem)) {
		hcclt_mem_unreserve(hdev, acct, size);
		/*
		 * 6.1's shmem_file_setup() answers a failed inode allocation
		 * with -ENOSPC (6.12 with -ENOMEM): it is the kernel's memory,
		 * not the device's, that ran out.
		 */
		if (PTR_ERR(shmem) == -ENOSPC)
			return ERR_PTR(-ENOMEM);
		return ERR_CAST(shmem);
	}
	/*
	 * From here on the object gives the capacity back when freed, and
	 * holds its device until then: other devices' copy engines and the
	 * dma-bufs of peers hold objects of this one with no file of it
	 * open, and devices are removed in any order (rmmod from the
	 * highest index), so the object's free must not find its device
	 * gone.
	 */
	drm_dev_get(&hdev->drm);
	to_hcclt_mem(&shmem->base)->charged = size;
	to_hcclt_mem(&shmem->base)->acct = hcclt_acct_get(acct);
	to_hcclt_mem(&shmem->base)->memcg = memcg ? hcclt_memcg_get(memcg) :
		get_mem_cgroup_from_mm(current->mm);
	return &shmem->base;
}

/*
 * A new handle of @obj in @df, and what the ioctls return of it. Takes
 * over the caller's reference of @obj.
 */
static int hcclt_mem_handle(struct drm_file *df, struct drm_gem_object *obj,
			    u64 *size, u32 *handle, u64 *mmap_offset)
{
	int ret;

	ret = drm_gem_handle_create(df, obj, handle);
	if (!ret) {
		*size = obj->size;
		*mmap_offset = drm_vma_node_offset_addr(&obj->vma_node);
	}
	/* The handle holds the object now, or nothing of the caller does. */
	drm_gem_object_put(obj);
	return ret;
}

/**
 * hcclt_mem_lookup - the memory object of a GEM handle of a file.
 * @df: the file.
 * @handle: the handle.
 *
 * Every GEM object of the driver is a memory object (gem_create_object).
 * Return: the object with a reference held, or NULL.
 */
struct drm_gem_object *hcclt_mem_lookup(struct drm_file *df, u32 handle)
{
	return handle ? drm_gem_object_lookup(df, handle) : NULL;
}

/* Shmem only: no backend access, so no drm_dev_enter() (hcclt_drv.c). */
int hcclt_mem_create_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df)
{
	struct drm_hcclt_mem_create *args = data;
	struct drm_gem_object *obj;
	u64 size;
	u32 handle;
	u64 offset;
	int ret;

	if (args->flags || args->pad)
		return -EINVAL;
	if (!args->size)
		return -EINVAL;
	obj = hcclt_mem_new(to_hcclt_dev(drm), hcclt_file_of(df)->acct, NULL,
			    args->size);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	ret = hcclt_mem_handle(hcclt_file_of(df)->df, obj, &size, &handle, &offset);
	if (ret)
		return ret;
	args->size = size;
	args->handle = handle;
	args->mmap_offset = offset;
	return 0;
}

/**
 * hcclt_comm_buffer_get - the HCCL buffer of a communicator.
 * @comm: the communicator (of any device: a channel's peer's too).
 * @size: bytes to make it with, on @comm's device, if it does not exist
 *	yet; 0 not to make it.
 *
 * The buffer is made under comm->lock, so that concurrent first calls
 * make one; comm->buf holds a reference of it until
 * hcclt_comm_buffer_drop().
 *
 * Return: the buffer with a reference held; ERR_PTR(-ENOENT) when @comm
 * is being destroyed, -ENOBUFS when it has none and @size is 0 or above
 * the capacity left, -EDQUOT when @size is above what the share of its
 * file's account has left, -ENOMEM.
 */
struct drm_gem_object *hcclt_comm_buffer_get(struct hcclt_comm *comm,
					     u64 size)
{
	struct drm_gem_object *obj;

	mutex_lock(&comm->lock);
	if (comm->dead) {
		obj = ERR_PTR(-ENOENT);
	} else if (comm->buf) {
		obj = comm->buf;
		drm_gem_object_get(obj);
	} else if (!size) {
		obj = ERR_PTR(-ENOBUFS);
	} else {
		/*
		 * Made by a peer's call or a peer host's message as well as
		 * by the owner's: charged to the owner, as its account is.
		 */
		obj = hcclt_mem_new(comm->file->hdev, comm->file->acct,
				    comm->file->memcg, size);
		if (!IS_ERR(obj)) {
			comm->buf = obj;
			drm_gem_object_get(obj);
		}
	}
	mutex_unlock(&comm->lock);
	return obj;
}

/**
 * hcclt_comm_buffer_ioctl - DRM_IOCTL_HCCLT_COMM_BUFFER.
 * @drm: the device.
 * @data: struct drm_hcclt_comm_buffer.
 * @df: the calling file.
 *
 * See hcclt_comm_buffer_get(). No backend access (hcclt_drv.c).
 *
 * Return: 0 or a negative errno (see the uAPI header).
 */
int hcclt_comm_buffer_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_comm_buffer *args = data;
	struct drm_gem_object *obj;
	struct hcclt_comm *comm;
	u64 size, offset;
	u32 handle;
	int ret;

	if (args->flags || args->pad || !args->size)
		return -EINVAL;
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	obj = hcclt_comm_buffer_get(comm, args->size);
	hcclt_comm_put(comm);
	if (IS_ERR(obj))
		return PTR_ERR(obj);

	ret = hcclt_mem_handle(file->df, obj, &size, &handle, &offset);
	if (ret)
		return ret;
	args->size = size;
	args->handle = handle;
	args->mmap_offset = offset;
	return 0;
}

/**
 * hcclt_comm_buffer_drop - a communicator is being destroyed: it no longer
 * holds its buffer, and its channels' peers lose access to it.
 * @comm: the communicator, already marked dead (no buffer is made after).
 *
 * The buffer is revoked (hcclt_mem_revoke()) and goes when its handles and
 * mappings, if any, have gone too.
 */
void hcclt_comm_buffer_drop(struct hcclt_comm *comm)
{
	struct drm_gem_object *obj;

	mutex_lock(&comm->lock);
	obj = comm->buf;
	comm->buf = NULL;
	mutex_unlock(&comm->lock);
	if (obj) {
		hcclt_mem_revoke(obj);
		drm_gem_object_put(obj);
	}
}

void hcclt_mem_query(struct hcclt_device *hdev, u64 *total, u64 *used)
{
	spin_lock(&hdev->pool_lock);
	*total = hdev->mem_total;
	*used = hdev->mem_used;
	spin_unlock(&hdev->pool_lock);
}

/*
 * One memory key in the unit drm_print_memory_stats() picks from 6.5 on:
 * KiB or MiB when the value is a whole number of them, else bytes.
 */
static void hcclt_mem_print_size(struct drm_printer *p, const char *stat,
				 u64 sz)
{
	static const char *const units[] = { "", " KiB", " MiB" };
	unsigned int u;

	for (u = 0; u < ARRAY_SIZE(units) - 1; u++) {
		if (!sz || !IS_ALIGNED(sz, SZ_1K))
			break;
		sz = div_u64(sz, SZ_1K);
	}
	drm_printf(p, "drm-%s-memory:\t%llu%s\n", stat, sz, units[u]);
}

/**
 * hcclt_mem_show_fdinfo - the memory keys of a file's fdinfo.
 * @p: the fdinfo printer.
 * @df: the file.
 *
 * Walks the file's GEM handles under its table_lock, as the DRM core's
 * drm_show_memory_stats() does from 6.5 on: every object with a handle in
 * @df counts its size in drm-total-memory, and in drm-resident-memory
 * while its pages are allocated (from its first mmap() until its last
 * mapping goes). The pages pointer is read without the shmem helper's
 * lock (a mutex, not to be taken under table_lock): a read racing with
 * the first mmap() or the last munmap() sees the object either way, which
 * is all a snapshot of the statistics promises.
 */
void hcclt_mem_show_fdinfo(struct drm_printer *p, struct drm_file *df)
{
	struct drm_gem_object *obj;
	u64 total = 0, resident = 0;
	int id;

	spin_lock(&df->table_lock);
	idr_for_each_entry(&df->object_idr, obj, id) {
		total += obj->size;
		if (READ_ONCE(to_hcclt_mem(obj)->shmem.pages))
			resident += obj->size;
	}
	spin_unlock(&df->table_lock);

	hcclt_mem_print_size(p, "total", total);
	hcclt_mem_print_size(p, "resident", resident);
}
