// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: module, simulated devices, DRM driver, device and file
 * lifetime, the ioctl table and the QUERY ioctl (ids: hcclt_ids.c, device
 * pools: hcclt_pool.c, INFO: hcclt_info.c).
 */

#include <linux/capability.h>
#include <linux/compat.h>
#include <linux/cred.h>
#include <linux/file.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_prime.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "hcclt_compat.h"
#include "hcclt_drv.h"

#define HCCLT_DRV_NAME		"hcclthread"
#define HCCLT_DRV_DESC		"Kernel-enforced HCCL communication threads"
#define HCCLT_DRV_DATE		"20261202"

#define HCCLT_MAX_SIM_STREAMS	65536
#define HCCLT_MAX_SIM_NOTIFIES	1048576U

/* An 8-card server (Atlas 800T A2) by default. */
static unsigned int sim_devices = 8;
module_param(sim_devices, uint, 0444);
MODULE_PARM_DESC(sim_devices,
		 "Simulated NPUs per server (0-16, default 8; servers x this <= 16)");

/*
 * Servers the cards are split into: card N is on server N / sim_devices,
 * cards numbered server by server (2 x 8 = 16: the setup of CANN's 2026
 * operator competitions). Documentation/overview.rst, "Servers".
 */
static unsigned int sim_servers = 1;
module_param(sim_servers, uint, 0444);
MODULE_PARM_DESC(sim_servers,
		 "Simulated servers of sim_devices NPUs each (1-16, default 1)");

/*
 * The SoC the simulated NPUs are, as aclrtGetSocName() names it; userspace
 * reads it from /sys/module/hcclthread/parameters/sim_soc.
 */
static char *sim_soc = "Ascend910B1";
module_param(sim_soc, charp, 0444);
MODULE_PARM_DESC(sim_soc,
		 "SoC of the simulated NPUs: Ascend910B1 (A2, default), Ascend910_9391 (A3), Ascend950PR");

/*
 * AI CPU cores a card's kernels may use: 6 on Ascend 910B (A2), 910_93
 * (A3) and 950, what aclrtGetDeviceInfo(ACL_DEV_ATTR_AICPU_CORE_NUM)
 * reports there (Documentation/custom-operators.rst cites the source).
 * The library runs at most this many launches of one file at once.
 */
static unsigned int sim_aicpu_cores = 6;
module_param(sim_aicpu_cores, uint, 0444);
MODULE_PARM_DESC(sim_aicpu_cores,
		 "AI CPU cores of each simulated NPU (1-64, default 6)");

static const char * const hcclt_socs[] = {
	"Ascend910B1", "Ascend910_9391", "Ascend950PR",
};

unsigned int hcclt_sim_streams = 1984;
module_param_named(sim_streams, hcclt_sim_streams, uint, 0444);
MODULE_PARM_DESC(sim_streams,
		 "Stream pool of each simulated NPU (1-65536, default 1984)");

unsigned int hcclt_sim_notifies = 8192;
module_param_named(sim_notifies, hcclt_sim_notifies, uint, 0444);
MODULE_PARM_DESC(sim_notifies,
		 "Notify pool of each simulated NPU (0-1048576, default 8192)");

static struct platform_device *hcclt_pdevs[HCCLT_MAX_DEVICES];

/**
 * hcclt_device_server - the simulated server of a card.
 * @index: the card's number (struct hcclt_device's @index).
 *
 * Return: @index / sim_devices (module parameters, fixed while loaded).
 */
u32 hcclt_device_server(u32 index)
{
	return sim_devices ? index / sim_devices : 0;
}

/**
 * hcclt_cluster_protocol - the protocol of the cluster layer, between
 * cards of different servers of this host: RoCE on A2, HCCS on A3 (the
 * servers are one superpod), UB_CTP on a 950 (Documentation/overview.rst,
 * "Servers"). Between hosts it is RoCE on every SoC.
 *
 * Return: an HCCLT_PROTOCOL_* value.
 */
u32 hcclt_cluster_protocol(void)
{
	if (!strcmp(sim_soc, "Ascend910_9391"))
		return HCCLT_PROTOCOL_HCCS;
	if (!strcmp(sim_soc, "Ascend950PR"))
		return HCCLT_PROTOCOL_UB_CTP;
	return HCCLT_PROTOCOL_ROCE;
}

/* ---- QUERY ---- */

#define HCCLT_ENGINES_ACQUIRE	(BIT(HCCLT_ENGINE_CPU) | \
				 BIT(HCCLT_ENGINE_CPU_TS) | \
				 BIT(HCCLT_ENGINE_AICPU) | \
				 BIT(HCCLT_ENGINE_AICPU_TS) | \
				 BIT(HCCLT_ENGINE_CCU))

static int hcclt_query_ioctl(struct drm_device *drm, void *data,
			     struct drm_file *df)
{
	struct hcclt_device *hdev = to_hcclt_dev(drm);
	struct hcclt_file *file = hcclt_file_of(df);
	struct drm_hcclt_query *args = data;
	const struct hcclt_quota_rules *r = hcclt_quota();
	const struct hcclt_host *self = hcclt_cluster_self();

	if (args->flags || args->pad || args->pad3 || args->pad4) {
		drm_dbg_driver(drm, "QUERY: flags %#x pad %#x pad3 %#llx pad4 %#x\n",
			       args->flags, args->pad, args->pad3, args->pad4);
		return -EINVAL;
	}

	args->uapi_major = HCCLT_UAPI_MAJOR;
	args->uapi_minor = HCCLT_UAPI_MINOR;
	args->max_threads_per_comm = r->max_threads;
	args->max_notifies_per_comm = r->max_notifies;
	spin_lock(&hdev->pool_lock);
	args->streams_total = hdev->streams_total;
	args->streams_used = hdev->streams_used;
	args->notifies_total = hdev->notifies_total;
	args->notifies_used = hdev->notifies_used;
	spin_unlock(&hdev->pool_lock);
	args->engines = HCCLT_ENGINES_ACQUIRE;
	args->stream_engines = HCCLT_STREAM_ENGINES;
	args->max_batch = HCCLT_MAX_BATCH;
	args->max_queue_depth = HCCLT_MAX_QUEUE_DEPTH;
	/*
	 * How many files and communicators others have is theirs: the
	 * device's counts for CAP_SYS_ADMIN (not audited: QUERY is the
	 * cheapest call, made by everyone), the caller's own otherwise.
	 */
	if (ns_capable_noaudit(&init_user_ns, CAP_SYS_ADMIN)) {
		args->comms = atomic_read(&hdev->ncomms);
		args->files = atomic_read(&hdev->nfiles);
	} else {
		args->comms = atomic_read(&file->ncomms);
		args->files = 1;
	}
	args->features = HCCLT_FEATURE_FENCE_OUT | HCCLT_FEATURE_SUBMIT_STATUS |
			 HCCLT_FEATURE_MEMORY | HCCLT_FEATURE_CHANNELS |
			 HCCLT_FEATURE_INFO_ARRAY | HCCLT_FEATURE_COMM_BUFFER |
			 HCCLT_FEATURE_WAIT_DEADLINE | HCCLT_FEATURE_DATA_TASKS |
			 HCCLT_FEATURE_KERNEL_LAUNCH | HCCLT_FEATURE_REDUCE |
			 HCCLT_FEATURE_EVENTS | HCCLT_FEATURE_SYNCOBJ |
			 HCCLT_FEATURE_PEER_REVOKE | HCCLT_FEATURE_REDUCE_EXT |
			 HCCLT_FEATURE_FAILURE_MODES |
			 HCCLT_FEATURE_SATURATION | HCCLT_FEATURE_EVENT_RESET |
			 HCCLT_FEATURE_AICPU_CORES | HCCLT_FEATURE_QUOTA_RULES |
			 HCCLT_FEATURE_OP_INFO | HCCLT_FEATURE_FILE_ATTACH |
			 HCCLT_FEATURE_MEMREG | HCCLT_FEATURE_SERVERS |
			 hdev->hw->features;
	hcclt_mem_query(hdev, &args->mem_total, &args->mem_used);
	args->aicpu_cores = sim_aicpu_cores;
	args->pad2 = 0;
	args->quota_rules = r->id;
	args->quota_flags = r->flags;
	args->max_threads_per_call = r->max_threads_per_call;
	args->max_notifies_per_thread = r->max_npt;
	args->servers = sim_servers;
	args->server_devices = sim_devices;
	args->server = hcclt_device_server(hdev->index);
	args->device_index = hdev->index;
#ifdef HCCLT_HAS_CLUSTER
	args->features |= HCCLT_FEATURE_CLUSTER | HCCLT_FEATURE_CLUSTER_DATA |
			  HCCLT_FEATURE_CLUSTER_MEMREG;
#endif
	args->cluster_addr = self ? (__force __u32)self->addr : 0;
	args->cluster_port = self ? (__force __u16)self->port : 0;
	return 0;
}

/* ---- file lifetime ---- */

/* Free a file whose tables hold no object. */
static void hcclt_file_free(struct hcclt_file *file)
{
	xa_destroy(&file->comms.xa);
	xa_destroy(&file->streams.xa);
	xa_destroy(&file->threads.xa);
	mutex_destroy(&file->lock);
	put_pid(file->pid);
	hcclt_usage_put(file->usage);
	hcclt_acct_put(file->acct);
	mem_cgroup_put(file->memcg);
	kfree(file);
}

static void hcclt_file_release(struct kref *ref)
{
	hcclt_file_free(container_of(ref, struct hcclt_file, ref));
}

void hcclt_file_put(struct hcclt_file *file)
{
	kref_put(&file->ref, hcclt_file_release);
}

/**
 * hcclt_file_next - the open file of @hdev with the lowest serial at or
 * above @serial.
 * @hdev: the device.
 * @serial: where to start.
 *
 * Holds files_lock only for the lookup: the caller walks the file with
 * its own locks, and a closed file's tables are empty.
 *
 * Return: the file with a reference held (hcclt_file_put()), or NULL.
 */
struct hcclt_file *hcclt_file_next(struct hcclt_device *hdev, u64 serial)
{
	struct hcclt_file *file, *found = NULL;

	mutex_lock(&hdev->files_lock);
	list_for_each_entry(file, &hdev->files, node) {
		if (file->serial >= serial) {
			kref_get(&file->ref);
			found = file;
			break;
		}
	}
	mutex_unlock(&hdev->files_lock);
	return found;
}

static int hcclt_open(struct drm_device *drm, struct drm_file *df)
{
	struct hcclt_device *hdev = to_hcclt_dev(drm);
	struct hcclt_file *file;
	int idx;

	if (!drm_dev_enter(drm, &idx))
		return -ENODEV;

	file = kzalloc(sizeof(*file), GFP_KERNEL_ACCOUNT);
	if (!file) {
		drm_dev_exit(idx);
		return -ENOMEM;
	}
	file->hdev = hdev;
	file->df = df;
	file->pid = get_task_pid(current, PIDTYPE_TGID);
	file->euid = current_euid();
	file->memcg = get_mem_cgroup_from_mm(current->mm);
	kref_init(&file->ref);
	mutex_init(&file->lock);
	hcclt_ids_init(&file->comms, HCCLT_ID_INDEX_MASK);
	hcclt_ids_init(&file->streams, HCCLT_ID_INDEX_MASK);
	hcclt_ids_init(&file->threads, HCCLT_ID_INDEX_MASK);
	hcclt_event_file_init(file);
	INIT_LIST_HEAD(&file->groups);
	file->usage = hcclt_usage_new(hdev);
	file->acct = hcclt_acct_new(hdev);
	if (!file->usage || !file->acct) {
		hcclt_file_free(file);
		drm_dev_exit(idx);
		return -ENOMEM;
	}

	mutex_lock(&hdev->files_lock);
	file->serial = hdev->file_serial + 1;
	WRITE_ONCE(hdev->file_serial, file->serial);
	list_add_tail(&file->node, &hdev->files);
	atomic_inc(&hdev->nfiles);
	mutex_unlock(&hdev->files_lock);

	df->driver_priv = file;
	drm_dev_exit(idx);
	return 0;
}

/*
 * Serialises DRM_IOCTL_HCCLT_FILE_ATTACH and the end of an attachment:
 * protects every file's @alias (set) and @attached. Taken before a
 * file's lock.
 */
static DEFINE_MUTEX(hcclt_attach_lock);

/*
 * Destroys every communicator and stream of the file. Never waits for
 * tasks: queued work is cancelled, parked streams are released.
 */
static void hcclt_postclose(struct drm_device *drm, struct drm_file *df)
{
	struct hcclt_device *hdev = to_hcclt_dev(drm);
	struct hcclt_file *file = df->driver_priv;

	if (!file)
		return;

	mutex_lock(&hdev->files_lock);
	list_del(&file->node);
	atomic_dec(&hdev->nfiles);
	mutex_unlock(&hdev->files_lock);

	hcclt_group_file_close(file);
	hcclt_file_destroy_comms(file);
	hcclt_file_destroy_streams(file);
	hcclt_event_file_close(file);
	df->driver_priv = NULL;
	/* No ioctl of @df runs any more: nothing uses the alias after this. */
	if (file->alias) {
		struct file *owner = file->alias->df->filp;

		mutex_lock(&hcclt_attach_lock);
		file->alias->attached--;
		mutex_unlock(&hcclt_attach_lock);
		hcclt_file_put(file->alias);
		fput(owner);
	}
	/* An INFO or debugfs walk may still hold it; its tables are empty. */
	hcclt_file_put(file);
}

/* Has @file no object of its own? Caller holds file->lock. */
static bool hcclt_file_pristine(struct hcclt_file *file)
{
	return !atomic_read(&file->ncomms) && xa_empty(&file->comms.xa) &&
	       xa_empty(&file->streams.xa) && xa_empty(&file->threads.xa) &&
	       xa_empty(&file->events) && xa_empty(&file->acl_notifies) &&
	       list_empty(&file->groups);
}

/**
 * hcclt_file_attach_ioctl - DRM_IOCTL_HCCLT_FILE_ATTACH: @df acts for
 * another open file of the device from now on.
 * @drm: the device.
 * @data: struct drm_hcclt_file_attach.
 * @df: the calling file.
 *
 * Return: 0 or a negative errno (see the uAPI header).
 */
int hcclt_file_attach_ioctl(struct drm_device *drm, void *data,
			    struct drm_file *df)
{
	struct drm_hcclt_file_attach *args = data;
	struct hcclt_file *own = df->driver_priv, *target;
	struct drm_file *tdf;
	struct file *f;
	int ret = 0;

	if (args->flags || args->reserved)
		return -EINVAL;
	f = fget(args->fd);
	if (!f)
		return -EBADF;
	/* A DRM file of this device (same fops: ours), not this one. */
	tdf = f->f_op == df->filp->f_op ? f->private_data : NULL;
	if (!tdf || tdf == df || tdf->minor->dev != drm || !tdf->driver_priv) {
		fput(f);
		return -EINVAL;
	}
	target = tdf->driver_priv;
	/*
	 * One attach at a time on the device: two files attaching to each
	 * other at once would each hold the other open forever.
	 */
	mutex_lock(&hcclt_attach_lock);
	if (target->alias) {
		ret = -EINVAL;		/* no chains: it acts for another */
		goto out;
	}
	mutex_lock(&own->lock);
	if (own->alias || own->attached || !hcclt_file_pristine(own)) {
		ret = -EBUSY;
	} else {
		kref_get(&target->ref);
		target->attached++;
		/* Pairs with hcclt_file_of(); the reference of f is kept. */
		smp_store_release(&own->alias, target);
	}
	mutex_unlock(&own->lock);
out:
	mutex_unlock(&hcclt_attach_lock);
	if (ret)
		fput(f);
	return ret;
}

/* ---- ioctl table ---- */

/*
 * drm_dev_enter() guards what the device owns, not whole ioctls. The
 * backend is called only through the hcclt_hw_*() wrappers, which enter
 * by themselves (hcclt_drv.h). The scheduler, the simulated NPU's task
 * engine, refuses work on a removed device under its own lock
 * (hdev->unplugged, set by hcclt_sched_unplug()), but its workqueue goes
 * at unplug: the calls that add streams to it or queue tasks on it run
 * inside drm_dev_enter(), so that the unplug waits for them. Those are
 * STREAM_CREATE, THREAD_ACQUIRE_WITH_STREAM and KERNEL_DONE (guarded
 * below); THREAD_ACQUIRE, THREAD_EXPORT and SUBMIT around their work,
 * with user memory copied in before and out after; STREAM_SYNC around
 * its lookup (a sync may block for long); GROUP_JOIN and CHANNEL_ACQUIRE
 * around their setup, not their rendezvous. INFO, INFO_ARRAY and
 * GROUP_INFO enter around their walks. The other calls touch neither the
 * backend nor the scheduler's workqueue (communicators, groups, memory,
 * events, and frees, whose backend part the wrappers guard); after an
 * unplug the DRM core answers every ioctl with -ENODEV, and postclose
 * frees what a call made in the window before.
 */
#define HCCLT_GUARDED(fn)						\
static int fn##_guarded(struct drm_device *drm, void *data,		\
			struct drm_file *df)				\
{									\
	int idx, ret;							\
									\
	if (!drm_dev_enter(drm, &idx))					\
		return -ENODEV;						\
	ret = fn(drm, data, df);					\
	drm_dev_exit(idx);						\
	return ret;							\
}

HCCLT_GUARDED(hcclt_stream_create_ioctl)
HCCLT_GUARDED(hcclt_thread_acquire_with_stream_ioctl)
HCCLT_GUARDED(hcclt_kernel_done_ioctl)

#define HCCLT_IOCTL(n, fn) \
	DRM_IOCTL_DEF_DRV(HCCLT_##n, fn, DRM_RENDER_ALLOW)

static const struct drm_ioctl_desc hcclt_ioctls[] = {
	HCCLT_IOCTL(QUERY, hcclt_query_ioctl),
	HCCLT_IOCTL(COMM_CREATE, hcclt_comm_create_ioctl),
	HCCLT_IOCTL(COMM_DESTROY, hcclt_comm_destroy_ioctl),
	HCCLT_IOCTL(STREAM_CREATE, hcclt_stream_create_ioctl_guarded),
	HCCLT_IOCTL(STREAM_DESTROY, hcclt_stream_destroy_ioctl),
	HCCLT_IOCTL(THREAD_ACQUIRE, hcclt_thread_acquire_ioctl),
	HCCLT_IOCTL(THREAD_ACQUIRE_WITH_STREAM,
		    hcclt_thread_acquire_with_stream_ioctl_guarded),
	HCCLT_IOCTL(THREAD_EXPORT, hcclt_thread_export_ioctl),
	HCCLT_IOCTL(SUBMIT, hcclt_submit_ioctl),
	HCCLT_IOCTL(STREAM_SYNC, hcclt_stream_sync_ioctl),
	HCCLT_IOCTL(INFO, hcclt_info_ioctl),
	HCCLT_IOCTL(GROUP_CREATE, hcclt_group_create_ioctl),
	HCCLT_IOCTL(GROUP_JOIN, hcclt_group_join_ioctl),
	HCCLT_IOCTL(GROUP_INFO, hcclt_group_info_ioctl),
	HCCLT_IOCTL(MEM_CREATE, hcclt_mem_create_ioctl),
	HCCLT_IOCTL(CHANNEL_ACQUIRE, hcclt_channel_acquire_ioctl),
	HCCLT_IOCTL(INFO_ARRAY, hcclt_info_array_ioctl),
	HCCLT_IOCTL(COMM_BUFFER, hcclt_comm_buffer_ioctl),
	HCCLT_IOCTL(CHANNEL_BUFFER, hcclt_channel_buffer_ioctl),
	HCCLT_IOCTL(KERNEL_DONE, hcclt_kernel_done_ioctl_guarded),
	HCCLT_IOCTL(EVENT_CREATE, hcclt_event_create_ioctl),
	HCCLT_IOCTL(EVENT_DESTROY, hcclt_event_destroy_ioctl),
	HCCLT_IOCTL(EVENT_WAIT, hcclt_event_wait_ioctl),
	HCCLT_IOCTL(NOTIFY_CREATE, hcclt_notify_create_ioctl),
	HCCLT_IOCTL(NOTIFY_DESTROY, hcclt_notify_destroy_ioctl),
	HCCLT_IOCTL(SET_PARAM, hcclt_set_param_ioctl),
	HCCLT_IOCTL(OP_INFO, hcclt_op_info_ioctl),
	HCCLT_IOCTL(FILE_ATTACH, hcclt_file_attach_ioctl),
	HCCLT_IOCTL(MEM_REG, hcclt_mem_reg_ioctl),
	HCCLT_IOCTL(MEM_UNREG, hcclt_mem_unreg_ioctl),
	HCCLT_IOCTL(CHANNEL_MEMS, hcclt_channel_mems_ioctl),
};

/* The DRM core's syncobj ioctls. */
static bool hcclt_syncobj_ioctl_nr(unsigned int nr)
{
	static const unsigned int cmds[] = {
		DRM_IOCTL_SYNCOBJ_CREATE, DRM_IOCTL_SYNCOBJ_DESTROY,
		DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE,
		DRM_IOCTL_SYNCOBJ_WAIT, DRM_IOCTL_SYNCOBJ_RESET,
		DRM_IOCTL_SYNCOBJ_SIGNAL, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT,
		DRM_IOCTL_SYNCOBJ_QUERY, DRM_IOCTL_SYNCOBJ_TRANSFER,
		DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL,
#ifdef DRM_IOCTL_SYNCOBJ_EVENTFD
		DRM_IOCTL_SYNCOBJ_EVENTFD,
#endif
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++)
		if (nr == DRM_IOCTL_NR(cmds[i]))
			return true;
	return false;
}

/*
 * The DRM core ioctls (numbers outside DRM_COMMAND_BASE..DRM_COMMAND_END)
 * a client of this driver may call: the driver's name and version, its
 * capabilities, GEM_CLOSE, which frees device memory (hcclt_mem.c), and
 * the syncobj ones (SUBMIT's in- and out-fences, hcclt_syncobj.c); those
 * with a handle array the driver serves itself (hcclt_syncobj_ioctl.c),
 * as the core sizes allocations by their unbounded counts. The
 * others serve display, the rest of GEM (flink names, opening by name),
 * PRIME, leases and masters, none of which this driver offers, and on
 * an accel node some of them reach state an accel file does not have
 * (drm_getunique() dereferences a drm_master that only primary nodes
 * get).
 *
 * Return: 0 to pass @cmd on to the core; 1 for one the driver serves
 * (hcclt_sobj_ioctl()); -ENOTTY for a type other than DRM's, as
 * drm_ioctl() answers (drm_compat_ioctl() would dispatch on the number
 * alone); -EOPNOTSUPP for a core ioctl this driver does not serve.
 */
static int hcclt_ioctl_check(struct file *filp, unsigned int cmd)
{
	struct drm_file *df = filp->private_data;
	unsigned int nr = DRM_IOCTL_NR(cmd);

	if (DRM_IOCTL_TYPE(cmd) != DRM_IOCTL_BASE)
		return -ENOTTY;
	if ((nr >= DRM_COMMAND_BASE && nr < DRM_COMMAND_END) ||
	    nr == DRM_IOCTL_NR(DRM_IOCTL_VERSION) ||
	    nr == DRM_IOCTL_NR(DRM_IOCTL_GET_CAP) ||
	    nr == DRM_IOCTL_NR(DRM_IOCTL_GEM_CLOSE))
		return 0;
	if (hcclt_sobj_ioctl_nr(nr))
		return 1;
	if (hcclt_syncobj_ioctl_nr(nr))
		return 0;
	drm_dbg_driver(df->minor->dev, "core ioctl %#x refused\n", nr);
	return -EOPNOTSUPP;
}

/* The driver's own ioctls, the common case, go straight to drm_ioctl(). */
static inline bool hcclt_ioctl_ours(unsigned int cmd)
{
	return DRM_IOCTL_TYPE(cmd) == DRM_IOCTL_BASE &&
	       DRM_IOCTL_NR(cmd) >= DRM_COMMAND_BASE &&
	       DRM_IOCTL_NR(cmd) < DRM_COMMAND_END;
}

static long hcclt_ioctl(struct file *filp, unsigned int cmd,
			unsigned long arg)
{
	int ret = hcclt_ioctl_ours(cmd) ? 0 : hcclt_ioctl_check(filp, cmd);

	if (ret > 0)
		return hcclt_sobj_ioctl(filp->private_data, cmd,
					(void __user *)arg);
	return ret ?: drm_ioctl(filp, cmd, arg);
}

#ifdef CONFIG_COMPAT
static long hcclt_compat_ioctl(struct file *filp, unsigned int cmd,
			       unsigned long arg)
{
	int ret = hcclt_ioctl_check(filp, cmd);

	/* The six have the same layout for 32-bit callers. */
	if (ret > 0)
		return hcclt_sobj_ioctl(filp->private_data, cmd,
					compat_ptr(arg));
	return ret ?: drm_compat_ioctl(filp, cmd, arg);
}
#else
#define hcclt_compat_ioctl NULL
#endif

HCCLT_DEFINE_FOPS(hcclt_fops);

static const struct drm_driver hcclt_drm_driver = {
	.driver_features = HCCLT_DRIVER_FEATURES,
	.open = hcclt_open,
	.postclose = hcclt_postclose,
	.gem_create_object = hcclt_mem_create_object,
	HCCLT_DRM_GEM_PRIME_MMAP
	.ioctls = hcclt_ioctls,
	.num_ioctls = ARRAY_SIZE(hcclt_ioctls),
	.fops = &hcclt_fops,
	HCCLT_DRM_SHOW_FDINFO_CB(hcclt_show_fdinfo)
	.name = HCCLT_DRV_NAME,
	.desc = HCCLT_DRV_DESC,
	HCCLT_DRM_DATE(HCCLT_DRV_DATE)
	.major = HCCLT_UAPI_MAJOR,
	.minor = HCCLT_UAPI_MINOR,
};

/* ---- platform device ---- */

static void hcclt_hw_fini_action(struct drm_device *drm, void *arg)
{
	struct hcclt_device *hdev = arg;

	hdev->hw->dev_fini(hdev);
}

static int hcclt_probe(struct platform_device *pdev)
{
	struct hcclt_device *hdev;
	int ret;

	hdev = devm_drm_dev_alloc(&pdev->dev, &hcclt_drm_driver,
				  struct hcclt_device, drm);
	if (IS_ERR(hdev))
		return PTR_ERR(hdev);

	hdev->index = pdev->id;
	hdev->hw = &hcclt_sim_ops;
	hcclt_mem_dev_init(hdev);
	spin_lock_init(&hdev->pool_lock);
	mutex_init(&hdev->files_lock);
	INIT_LIST_HEAD(&hdev->files);
	atomic_set(&hdev->nfiles, 0);
	atomic_set(&hdev->ncomms, 0);

	ret = hdev->hw->dev_init(hdev);
	if (ret)
		return ret;
	ret = drmm_add_action_or_reset(&hdev->drm, hcclt_hw_fini_action, hdev);
	if (ret)
		return ret;

	ret = hcclt_sched_init(hdev);
	if (ret)
		return ret;

	platform_set_drvdata(pdev, hdev);
	ret = drm_dev_register(&hdev->drm, 0);
	if (ret) {
		hcclt_sched_unplug(hdev);
		return ret;
	}
	hcclt_debugfs_dev_init(hdev);

	drm_info(&hdev->drm,
		 "%s NPU %u: %s node, %u streams, %u notifies\n",
		 hdev->hw->name, hdev->index, HCCLT_NODE_KIND,
		 hdev->streams_total, hdev->notifies_total);
	return 0;
}

static hcclt_remove_ret hcclt_remove(struct platform_device *pdev)
{
	struct hcclt_device *hdev = platform_get_drvdata(pdev);

	hcclt_debugfs_dev_fini(hdev);
	drm_dev_unplug(&hdev->drm);
	hcclt_sched_unplug(hdev);
	return HCCLT_REMOVE_DONE;
}

static struct platform_driver hcclt_platform_driver = {
	.probe = hcclt_probe,
	.remove = hcclt_remove,
	.driver = {
		.name = HCCLT_DRV_NAME,
	},
};

/* ---- module ---- */

static int hcclt_check_params(void)
{
	if (!sim_soc || match_string(hcclt_socs, ARRAY_SIZE(hcclt_socs),
				     sim_soc) < 0) {
		pr_err("hcclthread: sim_soc=%s is not Ascend910B1, Ascend910_9391 or Ascend950PR\n",
		       sim_soc ? sim_soc : "(null)");
		return -EINVAL;
	}
	if (sim_aicpu_cores < 1 || sim_aicpu_cores > 64) {
		pr_err("hcclthread: sim_aicpu_cores=%u out of range 1-64\n",
		       sim_aicpu_cores);
		return -EINVAL;
	}
	if (sim_devices > HCCLT_MAX_DEVICES) {
		pr_err("hcclthread: sim_devices=%u out of range 0-%u\n",
		       sim_devices, HCCLT_MAX_DEVICES);
		return -EINVAL;
	}
	if (sim_servers < 1 || sim_servers > HCCLT_MAX_DEVICES ||
	    sim_servers * sim_devices > HCCLT_MAX_DEVICES) {
		pr_err("hcclthread: sim_servers=%u x sim_devices=%u: 1-%u servers, at most %u cards\n",
		       sim_servers, sim_devices, HCCLT_MAX_DEVICES,
		       HCCLT_MAX_DEVICES);
		return -EINVAL;
	}
	if (hcclt_sim_streams < 1 ||
	    hcclt_sim_streams > HCCLT_MAX_SIM_STREAMS) {
		pr_err("hcclthread: sim_streams=%u out of range 1-%u\n",
		       hcclt_sim_streams, HCCLT_MAX_SIM_STREAMS);
		return -EINVAL;
	}
	if (hcclt_sim_notifies > HCCLT_MAX_SIM_NOTIFIES) {
		pr_err("hcclthread: sim_notifies=%u out of range 0-%u\n",
		       hcclt_sim_notifies, HCCLT_MAX_SIM_NOTIFIES);
		return -EINVAL;
	}
	return hcclt_mem_check_params();
}

static void hcclt_unregister_devices(void)
{
	int i;

	for (i = HCCLT_MAX_DEVICES - 1; i >= 0; i--) {
		if (hcclt_pdevs[i]) {
			platform_device_unregister(hcclt_pdevs[i]);
			hcclt_pdevs[i] = NULL;
		}
	}
}

static int __init hcclt_init(void)
{
	struct platform_device *pdev;
	unsigned int i;
	int ret;

	ret = hcclt_check_params();
	if (ret)
		return ret;
	ret = hcclt_quota_init();
	if (ret)
		return ret;

	ret = hcclt_obj_caches_init();
	if (ret)
		return ret;
	ret = hcclt_limits_init();
	if (ret)
		goto err_caches;
	ret = hcclt_group_init();
	if (ret)
		goto err_limits;
	ret = hcclt_channel_init();
	if (ret)
		goto err_group;
	ret = hcclt_link_init();
	if (ret)
		goto err_channel;
	ret = hcclt_syncobj_init();
	if (ret)
		goto err_link;
	ret = platform_driver_register(&hcclt_platform_driver);
	if (ret)
		goto err_syncobj;

	for (i = 0; i < sim_servers * sim_devices; i++) {
		pdev = platform_device_register_simple(HCCLT_DRV_NAME, i,
						       NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			pr_err("hcclthread: cannot register device %u: %d\n",
			       i, ret);
			goto err_devices;
		}
		/*
		 * Its probe may run later (async_probe, driver_async_probe=)
		 * and may fail: that device is then not bound and says why
		 * in the log; the others work.
		 */
		hcclt_pdevs[i] = pdev;
	}
	return 0;

err_devices:
	hcclt_unregister_devices();
	platform_driver_unregister(&hcclt_platform_driver);
err_syncobj:
	hcclt_syncobj_fini();
err_link:
	hcclt_link_fini();
err_channel:
	hcclt_channel_fini();
err_group:
	hcclt_group_fini();
err_limits:
	hcclt_limits_fini();
err_caches:
	hcclt_obj_caches_fini();
	return ret;
}

static void __exit hcclt_exit(void)
{
	hcclt_unregister_devices();
	platform_driver_unregister(&hcclt_platform_driver);
	/*
	 * The last fences' RCU callbacks run module code after module_put(),
	 * and objects freed after a grace period go back to their caches.
	 */
	rcu_barrier();
	hcclt_syncobj_fini();
	hcclt_link_fini();
	hcclt_channel_fini();
	hcclt_group_fini();
	hcclt_limits_fini();
	hcclt_obj_caches_fini();
}

module_init(hcclt_init);
module_exit(hcclt_exit);

MODULE_DESCRIPTION(HCCLT_DRV_DESC);
MODULE_LICENSE("GPL");
/* dma_buf_fd() of DRM_IOCTL_HCCLT_CHANNEL_BUFFER. */
MODULE_IMPORT_NS(DMA_BUF);
MODULE_AUTHOR("hcclthread developers");
