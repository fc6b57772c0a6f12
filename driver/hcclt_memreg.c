// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: memory registered with a communicator (uAPI 1.12,
 * DRM_IOCTL_HCCLT_MEM_REG, _MEM_UNREG, _CHANNEL_MEMS; CANN's
 * HcclCommMemReg, HcclCommDeregMem, HcclChannelGetRemoteMems).
 *
 * A registration is a range of one memory object of the communicator's
 * file, with a tag unique in the communicator. It is a kernel object of
 * the communicator (comm->memregs, ids from 1), so that the communicator's
 * channel peers can name it in WRITE and READ tasks (hcclt_submit.c) and
 * have every byte range checked against the range, not the object, as
 * their tasks into the peer's HCCL buffer are checked against the buffer.
 *
 * Revocation: a registration ends with MEM_UNREG or with its
 * communicator's teardown (hcclt_memreg_comm_gone(), the destroy, the
 * file's close, the process's death). Its @revoked flag is then set under
 * its object's peer_lock held for writing (hcclt_mem_flag_revoke()); the
 * copy engine runs each chunk of a peer's copy under that lock held for
 * reading and fails the copy with -ECONNRESET when it finds the flag set
 * (hcclt_copy.c). So once the unregistration or the teardown has
 * returned, no peer's task touches the range, queued or running: the
 * rules of a revoked HCCL buffer (hcclt_mem.c). A queued task holds a
 * reference on the registration (and so on the object) until it ends.
 *
 * Locks: comm->memregs' xa_lock makes a lookup and its reference one step
 * (hcclt_memreg_get(), which a peer's SUBMIT does without the owner's
 * comm->lock); registrations enter and leave the table under the owner's
 * comm->lock, which also orders them against its teardown (@dead) and
 * makes the tag check and the insertion one step. Order: file->lock ->
 * comm->lock -> xa_lock; file->lock -> peer_lock (the teardown's
 * revocation, outside comm->lock).
 */

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/xarray.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "hcclt_drv.h"

/**
 * hcclt_memreg_release - the last reference of a registration went.
 * @ref: its @ref.
 */
static void hcclt_memreg_release(struct kref *ref)
{
	struct hcclt_memreg *reg = container_of(ref, struct hcclt_memreg, ref);

	drm_gem_object_put(reg->obj);
	kfree(reg);
}

/**
 * hcclt_memreg_put - drop a reference of a registration (process context).
 * @reg: the registration, or NULL.
 */
void hcclt_memreg_put(struct hcclt_memreg *reg)
{
	if (reg)
		kref_put(&reg->ref, hcclt_memreg_release);
}

/**
 * hcclt_memreg_get - a communicator's registration by id.
 * @comm: the communicator (any file's: a channel peer's).
 * @id: the registration's id.
 *
 * Return: the registration with a reference held, or NULL.
 */
struct hcclt_memreg *hcclt_memreg_get(struct hcclt_comm *comm, u32 id)
{
	struct hcclt_memreg *reg;

	xa_lock(&comm->memregs);
	reg = xa_load(&comm->memregs, id);
	if (reg)
		kref_get(&reg->ref);
	xa_unlock(&comm->memregs);
	return reg;
}

/**
 * hcclt_memreg_next - a communicator's registration of the lowest id
 * above @after (a peer of another host lists them, hcclt_xfer.c).
 * @comm: the communicator.
 * @after: an id; 0 for the first.
 *
 * Return: the registration with a reference held, or NULL when there is
 * none above @after.
 */
struct hcclt_memreg *hcclt_memreg_next(struct hcclt_comm *comm, u32 after)
{
	unsigned long idx = after;
	struct hcclt_memreg *reg;

	xa_lock(&comm->memregs);
	reg = xa_find_after(&comm->memregs, &idx, U32_MAX, XA_PRESENT);
	if (reg)
		kref_get(&reg->ref);
	xa_unlock(&comm->memregs);
	return reg;
}

/* Revoke @reg from the peers and drop the table's reference. */
static void hcclt_memreg_revoke(struct hcclt_memreg *reg)
{
	hcclt_mem_flag_revoke(reg->obj, &reg->revoked);
	hcclt_memreg_put(reg);
}

/**
 * hcclt_memreg_comm_gone - a communicator is being torn down (comm->dead
 * is set): revoke and drop every registration of it.
 * @comm: the communicator.
 */
void hcclt_memreg_comm_gone(struct hcclt_comm *comm)
{
	struct hcclt_memreg *reg, *tmp;
	unsigned long idx;
	LIST_HEAD(gone);

	mutex_lock(&comm->lock);
	xa_for_each(&comm->memregs, idx, reg) {
		xa_erase(&comm->memregs, idx);
		list_add_tail(&reg->gone, &gone);
	}
	comm->memreg_count = 0;
	mutex_unlock(&comm->lock);
	/* Off the table: no new task reaches them; revoke the queued ones. */
	list_for_each_entry_safe(reg, tmp, &gone, gone)
		hcclt_memreg_revoke(reg);
}

/**
 * hcclt_mem_reg_ioctl - DRM_IOCTL_HCCLT_MEM_REG.
 * @drm: the device.
 * @data: struct drm_hcclt_mem_reg.
 * @df: the calling file.
 *
 * Return: 0 or a negative errno (see the uAPI header).
 */

int hcclt_mem_reg_ioctl(struct drm_device *drm, void *data,
			struct drm_file *df)
{
	struct drm_hcclt_mem_reg *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_memreg *reg, *x;
	struct drm_gem_object *obj;
	struct hcclt_comm *comm;
	unsigned long idx;
	size_t tlen;
	u32 id;
	int ret;

	tlen = strnlen(args->tag, HCCLT_MEMREG_TAG_LEN);
	if (args->flags || args->pad || !args->size || !tlen ||
	    tlen == HCCLT_MEMREG_TAG_LEN)
		return -EINVAL;
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	obj = hcclt_mem_lookup(file->df, args->handle);
	if (!obj) {
		ret = -ENOENT;
		goto out_comm;
	}
	if (args->offset > obj->size || args->size > obj->size - args->offset) {
		ret = -ERANGE;
		goto out_obj;
	}
	reg = kzalloc(sizeof(*reg), GFP_KERNEL_ACCOUNT);
	if (!reg) {
		ret = -ENOMEM;
		goto out_obj;
	}
	kref_init(&reg->ref);
	reg->obj = obj;
	reg->offset = args->offset;
	reg->size = args->size;
	memcpy(reg->tag, args->tag, tlen);

	mutex_lock(&comm->lock);
	ret = -ENOENT;
	if (comm->dead)
		goto unlock;
	ret = -EEXIST;
	xa_for_each(&comm->memregs, idx, x)
		if (!strcmp(x->tag, reg->tag))
			goto unlock;
	ret = xa_alloc_cyclic(&comm->memregs, &id, reg,
			      XA_LIMIT(1, U32_MAX), &comm->memreg_next,
			      GFP_KERNEL_ACCOUNT);
	if (ret >= 0 && comm->memreg_count >= HCCLT_MAX_MEMREGS) {
		xa_erase(&comm->memregs, id);
		ret = -ENOSPC;
	}
	if (ret == -EBUSY)
		ret = -ENOSPC;
	if (ret >= 0) {
		reg->id = id;
		comm->memreg_count++;
		ret = 0;
	}
unlock:
	mutex_unlock(&comm->lock);
	if (ret) {
		kfree(reg);
		goto out_obj;
	}
	args->reg_id = id;
	hcclt_comm_put(comm);
	return 0;
out_obj:
	drm_gem_object_put(obj);
out_comm:
	hcclt_comm_put(comm);
	return ret;
}

/**
 * hcclt_mem_unreg_ioctl - DRM_IOCTL_HCCLT_MEM_UNREG.
 * @drm: the device.
 * @data: struct drm_hcclt_mem_unreg.
 * @df: the calling file.
 *
 * Return: 0 or a negative errno (see the uAPI header).
 */
int hcclt_mem_unreg_ioctl(struct drm_device *drm, void *data,
			  struct drm_file *df)
{
	struct drm_hcclt_mem_unreg *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct hcclt_memreg *reg = NULL;
	struct hcclt_comm *comm;

	if (args->pad)
		return -EINVAL;
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	mutex_lock(&comm->lock);
	if (args->reg_id) {
		reg = xa_erase(&comm->memregs, args->reg_id);
		if (reg)
			comm->memreg_count--;
	}
	mutex_unlock(&comm->lock);
	hcclt_comm_put(comm);
	if (!reg)
		return -ENOENT;
	hcclt_memreg_revoke(reg);
	return 0;
}

/**
 * hcclt_channel_mems_ioctl - DRM_IOCTL_HCCLT_CHANNEL_MEMS.
 * @drm: the device.
 * @data: struct drm_hcclt_channel_mems.
 * @df: the calling file.
 *
 * Return: 0 or a negative errno (see the uAPI header).
 */
int hcclt_channel_mems_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df)
{
	struct drm_hcclt_channel_mems *args = data;
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_remote_mem *out = NULL;
	struct hcclt_comm *comm, *pc;
	struct hcclt_channel *chan;
	struct hcclt_memreg *reg;
	unsigned long idx;
	u32 n = 0;
	int ret = 0;

	if (args->flags || args->pad ||
	    args->mem_size != sizeof(struct drm_hcclt_remote_mem))
		return -EINVAL;
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	chan = hcclt_channel_lookup(comm, args->channel_id);
	hcclt_comm_put(comm);
	if (!chan)
		return -ENOENT;
	if (args->count) {
		out = kvcalloc(min_t(u32, args->count, HCCLT_MAX_MEMREGS),
			       sizeof(*out), GFP_KERNEL_ACCOUNT);
		if (!out) {
			hcclt_channel_put(chan);
			return -ENOMEM;
		}
	}
	/* uAPI 1.17: a peer on another host lists them over the link. */
	ret = hcclt_channel_remote_mems(chan, out,
					min_t(u32, args->count,
					      HCCLT_MAX_MEMREGS), &n);
	if (ret != -ENOLINK) {
		hcclt_channel_put(chan);
		goto copy;
	}
	ret = 0;
	n = 0;
	pc = hcclt_channel_peer_comm(chan);
	hcclt_channel_put(chan);
	if (!pc) {
		kvfree(out);
		return -ECONNRESET;
	}
	mutex_lock(&pc->lock);
	if (pc->dead) {
		ret = -ECONNRESET;
	} else {
		xa_for_each(&pc->memregs, idx, reg) {
			if (n < args->count && n < HCCLT_MAX_MEMREGS) {
				out[n].reg_id = reg->id;
				out[n].size = reg->size;
				memcpy(out[n].tag, reg->tag, sizeof(reg->tag));
			}
			n++;
		}
	}
	mutex_unlock(&pc->lock);
	hcclt_comm_put(pc);
copy:
	if (!ret && n && args->count &&
	    copy_to_user(u64_to_user_ptr(args->mems_ptr), out,
			 (size_t)min3(n, args->count, (u32)HCCLT_MAX_MEMREGS) *
			 sizeof(*out)))
		ret = -EFAULT;
	kvfree(out);
	if (!ret)
		args->count = n;
	return ret;
}
