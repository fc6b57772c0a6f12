// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: DRM_IOCTL_HCCLT_OP_INFO, the operator a communicator runs
 * (CANN's DFX op info, HcclDfxRegOpInfoByCommId, and its profiling
 * reports). The label is a field of the communicator, under comm->lock;
 * INFO_ARRAY lists it (HCCLT_INFO_TYPE_OPS, hcclt_info.c) and every call
 * hits the tracepoint hcclt_op.
 */

#include <linux/pid.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "hcclt_drv.h"
#include "hcclt_trace.h"

/* The inputs a phase does not take are zero; strings are terminated. */
static int hcclt_op_info_check(struct drm_device *drm,
			       const struct drm_hcclt_op_info *a, u64 now)
{
	bool reg = a->phase == HCCLT_OP_PHASE_REGISTERED;

	if (a->flags || a->pad || a->reserved[0] || a->reserved[1]) {
		drm_dbg_driver(drm, "OP_INFO: flags %#x pad %#x reserved\n",
			       a->flags, a->pad);
		return -EINVAL;
	}
	if (a->phase != HCCLT_OP_PHASE_REGISTERED &&
	    a->phase != HCCLT_OP_PHASE_KERNEL &&
	    a->phase != HCCLT_OP_PHASE_REPORTED) {
		drm_dbg_driver(drm, "OP_INFO: phase %u\n", a->phase);
		return -EINVAL;
	}
	if (!memchr(a->alg_tag, 0, sizeof(a->alg_tag)) ||
	    !memchr(a->kernel, 0, sizeof(a->kernel))) {
		drm_dbg_driver(drm, "OP_INFO: unterminated string\n");
		return -EINVAL;
	}
	if (reg) {
		if (a->begin_ns || memchr_inv(a->kernel, 0, sizeof(a->kernel))) {
			drm_dbg_driver(drm, "OP_INFO: begin_ns or kernel\n");
			return -EINVAL;
		}
		return 0;
	}
	if (a->thread_id || a->data_count || a->op_type || a->reduce_op ||
	    a->data_type || a->engine || a->root ||
	    memchr_inv(a->alg_tag, 0, sizeof(a->alg_tag)) ||
	    (a->phase == HCCLT_OP_PHASE_REPORTED &&
	     memchr_inv(a->kernel, 0, sizeof(a->kernel)))) {
		drm_dbg_driver(drm, "OP_INFO: input phase %u does not take\n",
			       a->phase);
		return -EINVAL;
	}
	if (a->begin_ns > now) {
		drm_dbg_driver(drm, "OP_INFO: begin_ns %llu after now %llu\n",
			       a->begin_ns, now);
		return -EINVAL;
	}
	return 0;
}

/*
 * The stream of thread or view @id of @comm, and its device slot: 0 when
 * @id is not one.
 */
static u64 hcclt_op_stream(struct hcclt_file *file, struct hcclt_comm *comm,
			   u64 id, u32 *slot)
{
	struct hcclt_thread *t = hcclt_thread_lookup(file, id), *p;
	u64 sid = 0;

	if (!t)
		return 0;
	p = t->primary ? t->primary : t;
	if (t->comm == comm && p->stream) {
		sid = p->stream->id;
		*slot = p->stream->slot;
	}
	hcclt_thread_put(t);
	return sid;
}

int hcclt_op_info_ioctl(struct drm_device *drm, void *data,
			struct drm_file *df)
{
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_op_info *args = data;
	struct drm_hcclt_op_label op;
	struct hcclt_comm *comm;
	u64 now = ktime_get_ns(), sid = 0;
	u32 slot = 0;
	int ret;

	ret = hcclt_op_info_check(drm, args, now);
	if (ret)
		return ret;
	comm = hcclt_comm_lookup(file, args->comm_id);
	if (!comm)
		return -ENOENT;
	if (args->thread_id) {
		sid = hcclt_op_stream(file, comm, args->thread_id, &slot);
		if (!sid) {
			ret = -ENOENT;
			goto out;
		}
	}

	mutex_lock(&comm->lock);
	if (comm->dead) {
		ret = -ENOENT;
	} else if (args->phase == HCCLT_OP_PHASE_REGISTERED) {
		memset(&comm->op, 0, sizeof(comm->op));
		comm->op.stream_id = sid;
		comm->op.op_index = ++comm->op_seq;
		comm->op.data_count = args->data_count;
		comm->op.op_type = args->op_type;
		comm->op.reduce_op = args->reduce_op;
		comm->op.data_type = args->data_type;
		comm->op.engine = args->engine;
		comm->op.root = args->root;
		strscpy(comm->op.alg_tag, args->alg_tag,
			sizeof(comm->op.alg_tag));
	} else if (comm->op.phase == HCCLT_OP_PHASE_NONE) {
		ret = -ENOENT;
	} else if (args->phase == HCCLT_OP_PHASE_KERNEL) {
		strscpy(comm->op.kernel, args->kernel, sizeof(comm->op.kernel));
	}
	if (!ret) {
		comm->op.phase = args->phase;
		comm->op.since_ns = now;
		op = comm->op;
	}
	mutex_unlock(&comm->lock);
	if (ret)
		goto out;

	args->op_index = op.op_index;
	trace_hcclt_op(file->hdev->index, slot, comm->id, op.stream_id,
		       op.op_index, op.phase, op.op_type,
		       args->begin_ns ? now - args->begin_ns : 0,
		       op.alg_tag, op.kernel);
out:
	hcclt_comm_put(comm);
	return ret;
}

/* The INFO_ARRAY entry of @comm's operator; caller holds comm->lock. */
void hcclt_info_op(struct drm_hcclt_info_op *oi, struct hcclt_comm *comm)
{
	memset(oi, 0, sizeof(*oi));
	oi->comm_id = comm->id;
	oi->pid = pid_vnr(comm->file->pid);
	oi->op = comm->op;
}
