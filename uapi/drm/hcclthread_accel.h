/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * hcclthread: kernel-enforced HCCL communication threads.
 */

/**
 * DOC: hcclthread uAPI rules
 *
 * Userspace API of the hcclthread DRM driver. The device node is
 * /dev/accel/accelN on kernels with CONFIG_DRM_ACCEL, /dev/dri/renderDN on
 * older ones; every ioctl below is allowed on that node.
 *
 * Rules that hold for every ioctl:
 *
 * - Every ``flags``, ``pad`` and reserved field must be zero on input,
 *   otherwise the ioctl fails with -EINVAL.
 * - Ids (communicator, stream, thread, channel) are opaque, non-zero
 *   64-bit values, unique within one open file among live objects and
 *   never kernel pointers. Two things about them are promised, no more:
 *   bits 55:48 tell the kind (HCCLT_ID_KIND_*; SUBMIT, STREAM_SYNC and
 *   others take a thread id or a stream id in one field), and bits 63:56
 *   are zero, so that userspace may tag ids (libhcclthread stores a device
 *   index there). How soon a destroyed object's id may come back is the
 *   driver's business (it makes that rare). An id that the file does not
 *   know, a stale id, an id of another file and an id of the wrong kind
 *   are -ENOENT.
 * - -ENODEV: the device was unplugged (module removal); the file is dead.
 * - -EFAULT: a user pointer given in the argument (an array) could not be
 *   read or written; nothing changed. (If the argument itself cannot be
 *   written back after a successful call, the DRM core returns -EFAULT
 *   with the call done: a created object belongs to the file like any
 *   other, submitted tasks are queued, and the fence fd of a SUBMIT with
 *   HCCLT_SUBMIT_FENCE_OUT is installed but cannot be learnt.)
 * - -ENOMEM: a kernel allocation failed; nothing changed.
 * - -ENOSPC: besides an exhausted device pool, a create, acquire or export
 *   that would give the file more communicators, streams or threads (views
 *   included) of one kind than its id table holds (a limit of the driver,
 *   above a million, that may change: not part of the uAPI).
 * - -EDQUOT: besides a communicator's quota (40 threads and 64 notifies
 *   under the default rules; module parameter quota_rules), a
 *   call that would take the calling file, its process or its user above
 *   its share of a device pool (module parameters share_file_pct,
 *   share_proc_pct, share_uid_pct): STREAM_CREATE, COMM_CREATE,
 *   THREAD_ACQUIRE[_WITH_STREAM], GROUP_CREATE, GROUP_JOIN (its
 *   communicator), MEM_CREATE, COMM_BUFFER and CHANNEL_BUFFER (the buffer's
 *   communicator's file), CHANNEL_ACQUIRE, EVENT_CREATE and NOTIFY_CREATE;
 *   nothing changed. A file opened with CAP_SYS_ADMIN never gets it for a
 *   share.
 * - The uAPI only grows: new ioctls, new fields at the end of a struct,
 *   new flags and feature bits (DRM_IOCTL_HCCLT_QUERY's @features and
 *   @uapi_minor tell which); @uapi_major stays 1 and is no gate.
 */

#ifndef _UAPI_DRM_HCCLTHREAD_ACCEL_H_
#define _UAPI_DRM_HCCLTHREAD_ACCEL_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/** @HCCLT_DRIVER_NAME: name reported by DRM_IOCTL_VERSION */
#define HCCLT_DRIVER_NAME		"hcclthread"

#define HCCLT_UAPI_MAJOR		1
/*
 * 11: DRM_IOCTL_HCCLT_OP_INFO (HCCLT_FEATURE_OP_INFO); 12:
 * DRM_IOCTL_HCCLT_FILE_ATTACH (HCCLT_FEATURE_FILE_ATTACH); 13: registered
 * memory, DRM_IOCTL_HCCLT_MEM_REG, _MEM_UNREG and _CHANNEL_MEMS, and data
 * tasks into a peer's registered range (HCCLT_FEATURE_MEMREG); 14:
 * servers in QUERY (HCCLT_FEATURE_SERVERS); 15: clusters, QUERY's
 * @cluster_addr and GROUP_JOIN's @root_addr (HCCLT_FEATURE_CLUSTER); 16:
 * data tasks on channels to other hosts, CHANNEL_BUFFER's
 * HCCLT_CHANNEL_BUFFER_REMOTE (HCCLT_FEATURE_CLUSTER_DATA); 17: registered
 * ranges of peers on other hosts, CHANNEL_MEMS and data tasks
 * (HCCLT_FEATURE_CLUSTER_MEMREG).
 */
#define HCCLT_UAPI_MINOR		17

/*
 * Per-communicator quota of the seed rule set (HcclThreadAcquire contract,
 * the default). The module parameter quota_rules may select a later rule
 * set of hcomm's: the active limits are in DRM_IOCTL_HCCLT_QUERY
 * (@max_threads_per_comm, @max_notifies_per_comm, @quota_rules and the
 * fields after it); userspace must not assume these two.
 */
#define HCCLT_MAX_THREADS_PER_COMM	40
#define HCCLT_MAX_NOTIFIES_PER_COMM	64
/*
 * Most threads of one DRM_IOCTL_HCCLT_THREAD_EXPORT (hcomm's
 * MAX_EXPORT_THREAD_NUM, 40 under every rule set).
 */
#define HCCLT_MAX_EXPORT_THREADS	40

/*
 * The batch and queue limits every driver of this uAPI allows at least:
 * the largest batch of one DRM_IOCTL_HCCLT_SUBMIT, and the most tasks
 * queued and not yet completed on one stream. A driver's own limits,
 * which may be larger, are in DRM_IOCTL_HCCLT_QUERY (@max_batch,
 * @max_queue_depth).
 */
#define HCCLT_MAX_BATCH			256
#define HCCLT_MAX_QUEUE_DEPTH		4096

/* Bits 55:48 of an id tell its kind; userspace must not rely on the rest. */
#define HCCLT_ID_KIND_SHIFT		48
#define HCCLT_ID_KIND_COMM		1
#define HCCLT_ID_KIND_STREAM		2
#define HCCLT_ID_KIND_THREAD		3
#define HCCLT_ID_KIND_CHANNEL		4 /* uAPI 1.3 */

/**
 * enum drm_hcclt_engine - communication engines (CommEngine of HCCL).
 * @HCCLT_ENGINE_CPU: host CPU, host-scheduled thread.
 * @HCCLT_ENGINE_CPU_TS: host CPU via the task scheduler, host-scheduled.
 * @HCCLT_ENGINE_AICPU: device AI CPU, device-scheduled thread.
 * @HCCLT_ENGINE_AICPU_TS: device AI CPU via the task scheduler.
 * @HCCLT_ENGINE_AIV: AI vector core; threads cannot be acquired on it.
 * @HCCLT_ENGINE_CCU: collective communication unit, host-scheduled.
 * @HCCLT_ENGINE_COUNT: number of engines; valid values are below it.
 */
enum drm_hcclt_engine {
	HCCLT_ENGINE_CPU = 0,
	HCCLT_ENGINE_CPU_TS = 1,
	HCCLT_ENGINE_AICPU = 2,
	HCCLT_ENGINE_AICPU_TS = 3,
	HCCLT_ENGINE_AIV = 4,
	HCCLT_ENGINE_CCU = 5,
	HCCLT_ENGINE_COUNT = 6,
};

#define DRM_HCCLT_QUERY			0x00
#define DRM_HCCLT_COMM_CREATE		0x01
#define DRM_HCCLT_COMM_DESTROY		0x02
#define DRM_HCCLT_STREAM_CREATE		0x03
#define DRM_HCCLT_STREAM_DESTROY	0x04
#define DRM_HCCLT_THREAD_ACQUIRE	0x05
#define DRM_HCCLT_THREAD_ACQUIRE_WITH_STREAM	0x06
#define DRM_HCCLT_THREAD_EXPORT		0x07
#define DRM_HCCLT_SUBMIT		0x08
#define DRM_HCCLT_STREAM_SYNC		0x09
#define DRM_HCCLT_INFO			0x0a
#define DRM_HCCLT_GROUP_CREATE		0x0b
#define DRM_HCCLT_GROUP_JOIN		0x0c
#define DRM_HCCLT_GROUP_INFO		0x0d
#define DRM_HCCLT_MEM_CREATE		0x0e
#define DRM_HCCLT_CHANNEL_ACQUIRE	0x0f
#define DRM_HCCLT_COMM_BUFFER		0x13

/**
 * struct drm_hcclt_query - driver, limits and device pools.
 *
 * The cheapest ioctl of the driver; userspace discovers every feature and
 * limit here, never by trial.
 *
 * Errors: -EINVAL non-zero @flags or @pad.
 */
struct drm_hcclt_query {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
	/**
	 * @uapi_major: out, HCCLT_UAPI_MAJOR of the driver, always 1 (the
	 * uAPI only grows); not a gate: test @features and @uapi_minor.
	 */
	__u32 uapi_major;
	/** @uapi_minor: out, HCCLT_UAPI_MINOR of the driver. */
	__u32 uapi_minor;
	/**
	 * @max_threads_per_comm: out, thread quota of a communicator under
	 * the active rule set (40 for the seed rules, see @quota_rules).
	 */
	__u32 max_threads_per_comm;
	/**
	 * @max_notifies_per_comm: out, notify quota of a communicator under
	 * the active rule set (64 for the seed rules, see @quota_rules).
	 */
	__u32 max_notifies_per_comm;
	/** @streams_total: out, size of the device's stream pool. */
	__u32 streams_total;
	/** @streams_used: out, streams of the pool in use, all files. */
	__u32 streams_used;
	/** @notifies_total: out, size of the device's notify pool. */
	__u32 notifies_total;
	/** @notifies_used: out, notifies of the pool in use, all files. */
	__u32 notifies_used;
	/**
	 * @engines: out, bit N set when threads can be acquired on engine N
	 * (enum drm_hcclt_engine).
	 */
	__u32 engines;
	/**
	 * @stream_engines: out, bit N set when an existing stream can be
	 * wrapped into a thread of engine N.
	 */
	__u32 stream_engines;
	/** @max_batch: out, largest task count of one submit. */
	__u32 max_batch;
	/** @max_queue_depth: out, most tasks pending on one stream. */
	__u32 max_queue_depth;
	/**
	 * @comms: out, communicators alive on the device, all files, for a
	 * caller with CAP_SYS_ADMIN; those of the calling file for others.
	 */
	__u32 comms;
	/**
	 * @files: out, open files of the device for a caller with
	 * CAP_SYS_ADMIN; 1 (the calling file) for others.
	 */
	__u32 files;
	/** @features: out, HCCLT_FEATURE_* bits. */
	__u64 features;
	/**
	 * @mem_total: out (uAPI 1.2, HCCLT_FEATURE_MEMORY), device memory
	 * capacity in bytes.
	 */
	__u64 mem_total;
	/**
	 * @mem_used: out (uAPI 1.2), bytes of it held by memory objects, all
	 * files.
	 */
	__u64 mem_used;
	/**
	 * @aicpu_cores: out (uAPI 1.9, HCCLT_FEATURE_AICPU_CORES), AI CPU
	 * cores of a simulated card: how many kernel launches of one file
	 * run at once (module parameter sim_aicpu_cores). An older driver
	 * leaves it as userspace set it (zero).
	 */
	__u32 aicpu_cores;
	/** @pad2: out, zero. */
	__u32 pad2;
	/**
	 * @quota_rules: out (uAPI 1.10, HCCLT_FEATURE_QUOTA_RULES), the rule
	 * set of the per-communicator quota, HCCLT_QUOTA_RULES_* (module
	 * parameter quota_rules, fixed while the module is loaded). On an
	 * older driver it stays as userspace set it: zero, the seed rules,
	 * which are the only ones an older driver has.
	 */
	__u32 quota_rules;
	/** @quota_flags: out (uAPI 1.10), HCCLT_QUOTA_F_* bits of the rule set. */
	__u32 quota_flags;
	/**
	 * @max_threads_per_call: out (uAPI 1.10), largest @thread_num of one
	 * DRM_IOCTL_HCCLT_THREAD_ACQUIRE; above it the call fails with
	 * -EINVAL under HCCLT_QUOTA_F_ARGS_EINVAL, with -EDQUOT otherwise.
	 */
	__u32 max_threads_per_call;
	/**
	 * @max_notifies_per_thread: out (uAPI 1.10), largest
	 * @notify_num_per_thread of DRM_IOCTL_HCCLT_THREAD_ACQUIRE; above it
	 * the call fails with -EINVAL under HCCLT_QUOTA_F_ARGS_EINVAL, with
	 * -EDQUOT otherwise.
	 */
	__u32 max_notifies_per_thread;
	/**
	 * @servers: out (uAPI 1.14, HCCLT_FEATURE_SERVERS), simulated servers
	 * the driver's cards are split into (module parameter sim_servers):
	 * card N is on server N / @server_devices. An older driver leaves it
	 * as userspace set it (zero): one server.
	 */
	__u32 servers;
	/**
	 * @server_devices: out (uAPI 1.14), cards per server (module
	 * parameter sim_devices).
	 */
	__u32 server_devices;
	/** @server: out (uAPI 1.14), the server of this card. */
	__u32 server;
	/**
	 * @device_index: out (uAPI 1.14), the number of this card, as
	 * DRM_IOCTL_HCCLT_GROUP_INFO's @device names it.
	 */
	__u32 device_index;
	/** @pad3: in, must be zero (uAPI 1.14; -EINVAL otherwise). */
	__u64 pad3;
	/**
	 * @cluster_addr: out (uAPI 1.15, HCCLT_FEATURE_CLUSTER), the IPv4
	 * address, in network byte order, at which this host's driver meets
	 * the drivers of other hosts (module parameter cluster_addr); zero
	 * when the host is in no cluster. An older driver leaves it as
	 * userspace set it (zero).
	 */
	__u32 cluster_addr;
	/** @cluster_port: out (uAPI 1.15), its port, in network byte order. */
	__u16 cluster_port;
	/** @pad4: in, must be zero (uAPI 1.15; -EINVAL otherwise). */
	__u16 pad4;
};

/*
 * Rule sets of the per-communicator quota (@quota_rules of
 * struct drm_hcclt_query; Documentation/uapi.rst, "Quota rule sets").
 */
/* 40 threads / 64 notifies, wrapped notifies counted: the default. */
#define HCCLT_QUOTA_RULES_SEED		0
/* hcomm of April 2026: 40 threads / 640 notifies. */
#define HCCLT_QUOTA_RULES_2026_04	1
/* hcomm of August 2026: 200 threads / 65,536 notifies. */
#define HCCLT_QUOTA_RULES_2026_08	2

/*
 * @quota_flags bits. WRAPPED_COUNTED: the notifies of a thread of
 * DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM count against
 * @max_notifies_per_comm. ARGS_EINVAL: THREAD_ACQUIRE's @thread_num above
 * @max_threads_per_call and @notify_num_per_thread above
 * @max_notifies_per_thread are argument errors (-EINVAL, checked before
 * the engine is), not quota errors (-EDQUOT). WRAP_CACHED_FIRST:
 * THREAD_ACQUIRE_WITH_STREAM returns the thread already wrapping the
 * stream before it checks that @engine is a host engine (only the range
 * of @engine is checked first).
 */
#define HCCLT_QUOTA_F_WRAPPED_COUNTED	0x1
#define HCCLT_QUOTA_F_ARGS_EINVAL	0x2
#define HCCLT_QUOTA_F_WRAP_CACHED_FIRST	0x4

/* DRM_IOCTL_HCCLT_SUBMIT can return a sync_file (HCCLT_SUBMIT_FENCE_OUT). */
#define HCCLT_FEATURE_FENCE_OUT		0x1ULL
/* The device is simulated in software (no hardware backend). */
#define HCCLT_FEATURE_SIMULATED		0x2ULL
/*
 * DRM_IOCTL_HCCLT_SUBMIT reports @stream_id and @status (uAPI 1.1). On an
 * older driver both stay as userspace set them (zero).
 */
#define HCCLT_FEATURE_SUBMIT_STATUS	0x4ULL
/*
 * Device memory (uAPI 1.2): DRM_IOCTL_HCCLT_MEM_CREATE, DRM_IOCTL_GEM_CLOSE,
 * mmap() of the device file, and @mem_total / @mem_used of QUERY. On an
 * older driver those two fields stay as userspace set them (zero).
 */
#define HCCLT_FEATURE_MEMORY		0x8ULL
/*
 * DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE and the channel tasks
 * HCCLT_TASK_CHANNEL_RECORD and HCCLT_TASK_CHANNEL_WAIT (uAPI 1.3).
 */
#define HCCLT_FEATURE_CHANNELS		0x10ULL
/* DRM_IOCTL_HCCLT_COMM_BUFFER: a communicator's HCCL buffer (uAPI 1.3). */
#define HCCLT_FEATURE_COMM_BUFFER	0x20ULL
/*
 * HCCLT_WAIT_DEADLINE (absolute deadlines) in DRM_IOCTL_HCCLT_STREAM_SYNC
 * and DRM_IOCTL_HCCLT_GROUP_JOIN (uAPI 1.3).
 */
#define HCCLT_FEATURE_WAIT_DEADLINE	0x40ULL
/*
 * DRM_IOCTL_HCCLT_INFO_ARRAY (uAPI 1.3): paged lists with an element size
 * and a cursor.
 */
#define HCCLT_FEATURE_INFO_ARRAY	0x80ULL
/*
 * uAPI 1.4: data tasks (HCCLT_TASK_LOCAL_COPY .. HCCLT_TASK_READ_REDUCE,
 * the 64-byte struct drm_hcclt_task) and DRM_IOCTL_HCCLT_CHANNEL_BUFFER.
 */
#define HCCLT_FEATURE_DATA_TASKS	0x100ULL
/*
 * uAPI 1.4: kernel launches (HCCLT_TASK_KERNEL_LAUNCH, the
 * DRM_HCCLT_EVENT_LAUNCH event, DRM_IOCTL_HCCLT_KERNEL_DONE).
 */
#define HCCLT_FEATURE_KERNEL_LAUNCH	0x200ULL
/*
 * uAPI 1.4: reduce tasks (HCCLT_TASK_LOCAL_REDUCE, _WRITE_REDUCE,
 * _READ_REDUCE); without it a SUBMIT of one is -EINVAL.
 */
#define HCCLT_FEATURE_REDUCE		0x400ULL
/*
 * uAPI 1.4: events and ACL notifies (DRM_IOCTL_HCCLT_EVENT_CREATE ..
 * DRM_IOCTL_HCCLT_NOTIFY_DESTROY, tasks HCCLT_TASK_EVENT_RECORD ..
 * HCCLT_TASK_ACL_NOTIFY_WAIT).
 */
#define HCCLT_FEATURE_EVENTS		0x800ULL
/*
 * (uAPI 1.5) DRM_IOCTL_HCCLT_SUBMIT waits for in-fences (a sync_file,
 * drm_syncobj binary and timeline points) before its tasks run and
 * signals drm_syncobjs with its out-fence; the DRM core's syncobj ioctls
 * are open on the node; out-fences have per-stream sequence numbers.
 */
#define HCCLT_FEATURE_SYNCOBJ		0x1000ULL
/*
 * (uAPI 1.6) A channel peer's HCCL buffer is revoked when the peer's
 * communicator is torn down: mappings of DRM_IOCTL_HCCLT_CHANNEL_BUFFER's
 * fd fault SIGBUS and data tasks on it fail with -ECONNRESET. Without it
 * they kept access to the buffer's pages.
 */
#define HCCLT_FEATURE_PEER_REVOKE	0x2000ULL
/*
 * (uAPI 1.7) Reduce tasks of every type and op HCCL's collectives reduce:
 * HCCLT_DTYPE_INT64, _UINT64, _UINT8, _UINT16, _UINT32 and _FP64 besides
 * the 1.4 types, HCCLT_REDUCE_PROD besides SUM, MAX and MIN (see "reduce
 * element types and operations"). Without it a reduce of one is -EINVAL.
 */
#define HCCLT_FEATURE_REDUCE_EXT	0x4000ULL
/*
 * (uAPI 1.8) DRM_IOCTL_HCCLT_SET_PARAM with HCCLT_PARAM_FAILURE_MODE: a
 * stream's failure mode (HCCLT_FAILURE_*); SUBMIT to a stream stopped in
 * HCCLT_FAILURE_STOP is -ECANCELED.
 */
#define HCCLT_FEATURE_FAILURE_MODES	0x8000ULL
/*
 * (uAPI 1.8) DRM_IOCTL_HCCLT_SET_PARAM with HCCLT_PARAM_SATURATION: float
 * reduces of streams made afterwards saturate (Inf to the largest finite
 * value, NaN to 0).
 */
#define HCCLT_FEATURE_SATURATION	0x10000ULL
/* (uAPI 1.8) The task HCCLT_TASK_EVENT_RESET. */
#define HCCLT_FEATURE_EVENT_RESET	0x20000ULL
/* (uAPI 1.9) QUERY reports @aicpu_cores. */
#define HCCLT_FEATURE_AICPU_CORES	0x40000ULL
/*
 * uAPI 1.10: the quota's rule set and its numbers in DRM_IOCTL_HCCLT_QUERY
 * (@quota_rules .. @max_notifies_per_thread). Without it: the seed rules.
 */
#define HCCLT_FEATURE_QUOTA_RULES	0x80000ULL
/*
 * (uAPI 1.11) DRM_IOCTL_HCCLT_OP_INFO and DRM_IOCTL_HCCLT_INFO_ARRAY's
 * HCCLT_INFO_TYPE_OPS: the operator a communicator is running (CANN's
 * HcclDfxRegOpInfoByCommId and profiling reports).
 */
#define HCCLT_FEATURE_OP_INFO		0x100000ULL
/* (uAPI 1.12) DRM_IOCTL_HCCLT_FILE_ATTACH. */
#define HCCLT_FEATURE_FILE_ATTACH	0x200000ULL
/*
 * (uAPI 1.13) Registered memory of a communicator (DRM_IOCTL_HCCLT_MEM_REG,
 * DRM_IOCTL_HCCLT_MEM_UNREG, DRM_IOCTL_HCCLT_CHANNEL_MEMS) and WRITE/READ
 * tasks whose peer side is a range a channel's peer registered (struct
 * drm_hcclt_task's @dst_handle/@src_handle).
 */
#define HCCLT_FEATURE_MEMREG		0x800000ULL
/*
 * (uAPI 1.14) A cluster of simulated servers: QUERY reports @servers,
 * @server_devices, @server and @device_index, and
 * DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE takes, between ranks on different
 * servers, only the cluster layer's protocol (RoCE on A2, HCCS on A3, the
 * two servers being one superpod, UB_CTP on a 950): -EXDEV otherwise.
 */
#define HCCLT_FEATURE_SERVERS		0x400000ULL
/*
 * (uAPI 1.15) Clusters: the driver was built with the kernel's RDMA stack,
 * QUERY reports @cluster_addr, and DRM_IOCTL_HCCLT_GROUP_JOIN takes
 * @root_addr, the host whose group a rank joins
 * (Documentation/clusters.rst).
 */
#define HCCLT_FEATURE_CLUSTER		0x1000000ULL
/*
 * (uAPI 1.16) Data between hosts: WRITE, READ and their reduce variants on
 * a channel to a rank of another host move data by RDMA into and out of
 * that rank's HCCL buffer (Documentation/clusters.rst, "Data"), and
 * DRM_IOCTL_HCCLT_CHANNEL_BUFFER with HCCLT_CHANNEL_BUFFER_REMOTE reports
 * that buffer's size.
 */
#define HCCLT_FEATURE_CLUSTER_DATA	0x2000000ULL
/*
 * (uAPI 1.17) Registered ranges between hosts: DRM_IOCTL_HCCLT_CHANNEL_MEMS
 * on a channel to a rank of another host lists the ranges that rank
 * registered, and data tasks on such a channel reach them by their id
 * (peer handle), checked against their bounds by that host.
 */
#define HCCLT_FEATURE_CLUSTER_MEMREG	0x4000000ULL

/**
 * struct drm_hcclt_comm_create - create a communicator in this file.
 *
 * A communicator holds threads and notifies under the per-communicator
 * quota. It lives until DRM_IOCTL_HCCLT_COMM_DESTROY or until the file is
 * closed.
 *
 * Errors: -EINVAL non-zero @flags or @pad; -ENOSPC the file's
 * communicator table is full; -ENOMEM.
 */
struct drm_hcclt_comm_create {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
	/** @comm_id: out, id of the new communicator. */
	__u64 comm_id;
};

/**
 * struct drm_hcclt_comm_destroy - destroy a communicator.
 *
 * Frees every thread, exported view and notify of the communicator and
 * returns their stream and notify slots to the device pools. Tasks still
 * queued on the streams of its threads, and on streams wrapped by them, are
 * cancelled: synchronize waiters of those streams wake with -ECANCELED.
 * Streams created with DRM_IOCTL_HCCLT_STREAM_CREATE survive; only the
 * threads wrapping them go.
 *
 * Errors: -EINVAL non-zero @flags or @pad; -ENOENT unknown @comm_id.
 */
struct drm_hcclt_comm_destroy {
	/** @comm_id: in, communicator to destroy. */
	__u64 comm_id;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
};

/**
 * struct drm_hcclt_stream_create - create a stream (aclrtCreateStream).
 *
 * Takes one slot from the device's stream pool. The stream belongs to the
 * file, not to a communicator.
 *
 * Errors: -EINVAL non-zero @flags or @pad; -ENOSPC device stream pool
 * exhausted; -ENOMEM.
 */
struct drm_hcclt_stream_create {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
	/** @stream_id: out, id of the new stream. */
	__u64 stream_id;
};

/**
 * struct drm_hcclt_stream_destroy - destroy a stream (aclrtDestroyStream).
 *
 * The id is gone at once. Tasks still queued on the stream are cancelled
 * (synchronize waiters wake with -ECANCELED). If threads of communicators
 * still wrap the stream, they keep it, and its pool slot, until their
 * communicator is destroyed.
 *
 * Errors: -EINVAL non-zero @flags or @pad; -ENOENT unknown @stream_id.
 */
struct drm_hcclt_stream_destroy {
	/** @stream_id: in, stream to destroy. */
	__u64 stream_id;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
};

/**
 * struct drm_hcclt_thread_acquire - acquire threads (HcclThreadAcquire).
 *
 * Creates @thread_num threads on @engine, each with a new stream and
 * @notify_num_per_thread notifies, and writes their ids to @threads_ptr.
 * All or nothing: on any error no thread is created and no counter moves,
 * also under concurrent calls on the same communicator.
 *
 * Checks, in this order:
 *
 * - -EINVAL: non-zero @flags.
 * - -ENOENT: unknown @comm_id.
 * - -EINVAL: @engine not below HCCLT_ENGINE_COUNT.
 * - -EINVAL: @thread_num is zero.
 * - -EINVAL (uAPI 1.10, rule sets with HCCLT_QUOTA_F_ARGS_EINVAL):
 *   @notify_num_per_thread above QUERY's @max_notifies_per_thread, or
 *   @thread_num above its @max_threads_per_call.
 * - -EOPNOTSUPP: @engine is HCCLT_ENGINE_AIV (an argument check, before
 *   the quota; HCCL checks the quota first, libhcclthread keeps that).
 * - -EDQUOT: @thread_num exceeds the threads the communicator has left,
 *   @notify_num_per_thread exceeds QUERY's @max_notifies_per_thread, or
 *   @thread_num * @notify_num_per_thread exceeds the notifies it has left
 *   (of QUERY's @max_threads_per_comm and @max_notifies_per_comm: 40 and
 *   64 under the default rules). Counted per communicator, over all
 *   earlier calls and all engines.
 * - -ENOSPC: the device's stream or notify pool is exhausted.
 * - -ENOMEM, -EFAULT (@threads_ptr not writable).
 */
struct drm_hcclt_thread_acquire {
	/** @comm_id: in, communicator. */
	__u64 comm_id;
	/** @engine: in, enum drm_hcclt_engine. */
	__u32 engine;
	/** @thread_num: in, number of threads. */
	__u32 thread_num;
	/** @notify_num_per_thread: in, notifies of each thread, may be 0. */
	__u32 notify_num_per_thread;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @threads_ptr: in, user pointer to @thread_num __u64 ids (out). */
	__u64 threads_ptr;
};

/**
 * struct drm_hcclt_thread_acquire_with_stream - wrap a stream into a thread
 * (HcclThreadAcquireWithStream).
 *
 * The thread runs its tasks on @stream_id, which it does not own. The
 * wrapped stream does not count against the thread quota; its notifies
 * count against the notify quota under HCCLT_QUOTA_F_WRAPPED_COUNTED (the
 * default rules), and are bounded by the rule set's notify quota (QUERY's
 * @max_notifies_per_comm) either way. The same stream given again on the same
 * communicator returns the same thread id, also with another @engine (the
 * thread keeps its first engine, as in hcomm); a larger @notify_num grows
 * that thread's notifies to @notify_num (a smaller one changes nothing).
 *
 * Checks, in this order:
 *
 * - -EINVAL: non-zero @flags or @pad.
 * - -ENOENT: unknown @comm_id or @stream_id.
 * - -EINVAL: @engine is not one of CPU, CPU_TS, CCU (under
 *   HCCLT_QUOTA_F_WRAP_CACHED_FIRST: @engine not below HCCLT_ENGINE_COUNT
 *   here; not a host engine only when no thread of the communicator wraps
 *   the stream yet, after its lookup).
 * - -EDQUOT: the added notifies exceed the notifies the communicator has
 *   left (counted ones only), or @notify_num exceeds the rule set's notify
 *   quota.
 * - -ENOSPC: the device's notify pool is exhausted, or the file's thread
 *   table is full (see the rules at the top).
 * - -ENOMEM.
 */
struct drm_hcclt_thread_acquire_with_stream {
	/** @comm_id: in, communicator. */
	__u64 comm_id;
	/** @stream_id: in, stream from DRM_IOCTL_HCCLT_STREAM_CREATE. */
	__u64 stream_id;
	/** @engine: in, enum drm_hcclt_engine: CPU, CPU_TS or CCU. */
	__u32 engine;
	/** @notify_num: in, notifies the thread must have at least. */
	__u32 notify_num;
	/** @thread_id: out, id of the thread wrapping the stream. */
	__u64 thread_id;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
};

/**
 * struct drm_hcclt_thread_export - export threads to another engine
 * (HcclThreadExportToCommEngine).
 *
 * For each thread of @threads_ptr, writes to @exported_ptr an id valid on
 * @dst_engine that shares the thread's stream and notifies. Exporting the
 * same thread to the same engine again returns the same id; exporting a
 * thread to its own engine returns its own id; exporting an exported view
 * exports the thread it views. Exports do not count against the quota and
 * live as long as the thread. All or nothing, but for one case: when
 * @exported_ptr cannot be written (-EFAULT, the last check), the views
 * made stay; exporting the same threads again returns them.
 *
 * Checks, in this order:
 *
 * - -EINVAL: non-zero @flags or @pad.
 * - -ENOENT: unknown @comm_id.
 * - -EINVAL: @dst_engine not below HCCLT_ENGINE_COUNT, @thread_num zero or
 *   above HCCLT_MAX_EXPORT_THREADS (40, under every quota rule set).
 * - -EOPNOTSUPP: @dst_engine is HCCLT_ENGINE_AIV (as THREAD_ACQUIRE).
 * - -EFAULT: @threads_ptr not readable.
 * - -ENOENT: an id of @threads_ptr is not a thread of this communicator.
 * - -ENOSPC: the file's thread table is full (views included).
 * - -ENOMEM, -EFAULT (@exported_ptr not writable).
 */
struct drm_hcclt_thread_export {
	/** @comm_id: in, communicator of the threads. */
	__u64 comm_id;
	/** @dst_engine: in, enum drm_hcclt_engine of the exported ids. */
	__u32 dst_engine;
	/** @thread_num: in, number of ids in both arrays. */
	__u32 thread_num;
	/** @threads_ptr: in, user pointer to @thread_num __u64 thread ids. */
	__u64 threads_ptr;
	/** @exported_ptr: in, user pointer to @thread_num __u64 ids (out). */
	__u64 exported_ptr;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
};

/**
 * enum drm_hcclt_task_op - operation of a stream task.
 * @HCCLT_TASK_NOTIFY_RECORD: set notify @notify_idx of @dst_thread.
 *	A notify is a binary flag: recording a set notify changes nothing.
 *	A record whose destination thread is destroyed before the record
 *	runs completes without effect. (uAPI 1.4) A record dropped because
 *	its stream failed (a wait timed out or lost its channel peer, a
 *	launch failed, the stream was cancelled) fails the wait it would
 *	have released in its place, with the same error: the wait parked on
 *	the notify longest, or else the next wait to run on it.
 * @HCCLT_TASK_NOTIFY_WAIT: wait until notify @notify_idx of the submitting
 *	thread is set, then reset it. With a non-zero @timeout_s, a wait not
 *	satisfied in time fails: the tasks queued after it on the stream are
 *	dropped and the next DRM_IOCTL_HCCLT_STREAM_SYNC of the stream returns
 *	-ETIME, once. A wait failed by a dropped record (above) fails the
 *	same way, with that record's error.
 * @HCCLT_TASK_CHANNEL_RECORD: (uAPI 1.3) set the peer's notify
 *	@notify_idx of the channel @dst_thread (a channel id of the
 *	submitting thread's communicator): the notify the peer's
 *	HCCLT_TASK_CHANNEL_WAIT of that index waits on. The peer may be on
 *	another device and in another process. A record whose peer is gone
 *	before it runs completes without effect.
 * @HCCLT_TASK_CHANNEL_WAIT: (uAPI 1.3) wait until this side's notify
 *	@notify_idx of the channel @dst_thread is set (by the peer's
 *	HCCLT_TASK_CHANNEL_RECORD), then reset it; @timeout_s as for
 *	HCCLT_TASK_NOTIFY_WAIT. When the peer's communicator is destroyed or
 *	its file closed (its process killed), a wait parked on the channel,
 *	or one that runs later on a notify not set, fails at once: the tasks
 *	queued after it are dropped and the next DRM_IOCTL_HCCLT_STREAM_SYNC
 *	returns -ECONNRESET, once. A record the peer made before it went is
 *	still consumed by one wait, also one submitted after the peer went.
 *	Streams of several threads may wait on
 *	the same notify: each record releases one of them, the one parked
 *	longest; the peer's going fails all of them.
 *
 * @HCCLT_TASK_LOCAL_COPY: (uAPI 1.4) copy @len bytes from @src_offset of
 *	the memory object @src_handle to @dst_offset of @dst_handle (GEM
 *	handles of this file: DRM_IOCTL_HCCLT_MEM_CREATE objects and HCCL
 *	buffers). The ranges may overlap (memmove).
 * @HCCLT_TASK_WRITE: (uAPI 1.4) copy @len bytes from @src_offset of
 *	@src_handle to @dst_offset of the HCCL buffer of the peer of the
 *	channel @dst_thread; @dst_handle must be zero.
 * @HCCLT_TASK_READ: (uAPI 1.4) copy @len bytes from @src_offset of the
 *	channel @dst_thread's peer's HCCL buffer to @dst_offset of
 *	@dst_handle; @src_handle must be zero. A write or read (or their
 *	reduces) that reaches the peer's buffer after the peer's
 *	communicator is torn down, queued or running, fails with
 *	-ECONNRESET: the tasks queued after it are dropped and the next
 *	DRM_IOCTL_HCCLT_STREAM_SYNC returns -ECONNRESET, once.
 * @HCCLT_TASK_KERNEL_LAUNCH: (uAPI 1.4) run a kernel on the simulated AI
 *	CPU: when the stream reaches the task, a struct
 *	drm_hcclt_event_launch with @dst_thread as its cookie (any value;
 *	the driver never uses it) is sent to the submitting file, to be
 *	read() from it; the stream waits until that file answers with
 *	DRM_IOCTL_HCCLT_KERNEL_DONE. A non-zero status fails the stream:
 *	the tasks queued after it are dropped and the next
 *	DRM_IOCTL_HCCLT_STREAM_SYNC returns -EIO, once. With a non-zero
 *	@timeout_s, a launch not done in time fails it likewise with -ETIME.
 *	A launch dropped before it ran still sends its event, flagged
 *	HCCLT_LAUNCH_CANCELLED. A launch whose event was sent can still fail
 *	(time out, be cancelled) before the worker runs it: the worker asks
 *	with HCCLT_KERNEL_DONE_START first and runs it only on success. The
 *	1.4 data fields must be zero.
 * @HCCLT_TASK_LOCAL_REDUCE: (uAPI 1.4) as HCCLT_TASK_LOCAL_COPY, but each
 *	element of the destination becomes @reduce_op of itself and the
 *	source element (@dtype; @len, @src_offset and @dst_offset multiples
 *	of its size; the two ranges must not overlap). The types, the ops
 *	and their arithmetic: "reduce element types and operations" below.
 *	HCCLT_FEATURE_REDUCE; the 1.7 types and HCCLT_REDUCE_PROD:
 *	HCCLT_FEATURE_REDUCE_EXT.
 * @HCCLT_TASK_WRITE_REDUCE: (uAPI 1.4) HCCLT_TASK_WRITE, reducing.
 * @HCCLT_TASK_READ_REDUCE: (uAPI 1.4) HCCLT_TASK_READ, reducing.
 * @HCCLT_TASK_EVENT_RECORD: (uAPI 1.4) record event @dst_thread (an id of
 *	DRM_IOCTL_HCCLT_EVENT_CREATE of this file): when the stream reaches
 *	it, the event completes this record and takes the time
 *	(CLOCK_MONOTONIC), unless a later record of it completed first.
 * @HCCLT_TASK_EVENT_WAIT: (uAPI 1.4) wait until event @dst_thread has
 *	completed every record queued before this task (none: at once).
 *	Any number of streams may wait on one event; a wait consumes nothing.
 *	(uAPI 1.5) A record dropped before it ran (its stream failed, was
 *	cancelled or its device removed) completes the event as failed: a
 *	wait released by it fails, with that stream's error, as a failed
 *	wait task does. A later record that runs completes it again.
 * @HCCLT_TASK_ACL_NOTIFY_RECORD: (uAPI 1.4) set ACL notify @notify_idx
 *	(an id of DRM_IOCTL_HCCLT_NOTIFY_CREATE of this file), as
 *	HCCLT_TASK_NOTIFY_RECORD sets a thread's notify.
 * @HCCLT_TASK_ACL_NOTIFY_WAIT: (uAPI 1.4) wait on ACL notify @notify_idx,
 *	then reset it, as HCCLT_TASK_NOTIFY_WAIT (@timeout_s likewise). A
 *	wait parked on a notify that is destroyed fails with -ECANCELED.
 * @HCCLT_TASK_EVENT_RESET: (uAPI 1.8, HCCLT_FEATURE_EVENT_RESET) reset
 *	event @dst_thread (an id of this file's DRM_IOCTL_HCCLT_EVENT_CREATE)
 *	when the stream reaches it: the event forgets its completed records,
 *	their time and a failed record's error, as if never recorded
 *	(DRM_IOCTL_HCCLT_EVENT_WAIT then reports @timestamp_ns 0 and, with no
 *	record queued, HCCLT_EVENT_COMPLETE). Records queued before the reset
 *	that complete after it count again; waits queued after it wait for
 *	the records queued before them, as always. @notify_idx and
 *	@timeout_s must be zero.
 *
 * Channel tasks need a thread @handle whose engine is of the channel's
 * engine family (CPU and CPU_TS, or AICPU and AICPU_TS); so do writes and
 * reads. Local copies and reduces may also be submitted through a stream
 * id. Data tasks are executed by the device's copy engine in stream order:
 * a task after a data task on the same stream sees the data (a channel
 * record after a write releases a peer wait that then sees it).
 *
 * Every byte range of a data task is checked when it is submitted: it must
 * lie inside its object (the peer's HCCL buffer for the channel side).
 * A queued data task holds its objects: closing their handles, unmapping
 * them or destroying the channel's peer communicator does not free them
 * before the task has completed.
 *
 * (uAPI 1.16, HCCLT_FEATURE_CLUSTER_DATA) On a channel to a rank of another
 * host, the peer side is that rank's HCCL buffer (peer handle 0) or, from
 * uAPI 1.17 (HCCLT_FEATURE_CLUSTER_MEMREG), a range it registered (peer
 * handle: the range's id from DRM_IOCTL_HCCLT_CHANNEL_MEMS), and its
 * range is checked by that host when the task runs: a range outside the
 * buffer or the registered range fails the task (-ERANGE), as do a
 * WRITE_REDUCE whose offset in the registered range's object is not whole
 * elements (-EINVAL, as on one host), a peer gone or its range
 * unregistered (-ECONNRESET), its
 * host's refusal for lack of memory (-ENOMEM, -ENOBUFS, -EDQUOT) or of
 * mapping room (-EBUSY), the link going down (-ECONNRESET) and a peer
 * host that does not answer in 30 s (-ETIMEDOUT). The local range is
 * checked at submission as above. A flush (the stream's process killed,
 * its thread released) stops such a task before its next chunk of at
 * most 1 MiB; the chunk in flight ends first.
 */
enum drm_hcclt_task_op {
	HCCLT_TASK_NOTIFY_RECORD = 1,
	HCCLT_TASK_NOTIFY_WAIT = 2,
	HCCLT_TASK_CHANNEL_RECORD = 3,
	HCCLT_TASK_CHANNEL_WAIT = 4,
	HCCLT_TASK_LOCAL_COPY = 5,
	HCCLT_TASK_WRITE = 6,
	HCCLT_TASK_READ = 7,
	HCCLT_TASK_KERNEL_LAUNCH = 11,
	HCCLT_TASK_LOCAL_REDUCE = 8,
	HCCLT_TASK_WRITE_REDUCE = 9,
	HCCLT_TASK_READ_REDUCE = 10,
	HCCLT_TASK_EVENT_RECORD = 12,
	HCCLT_TASK_EVENT_WAIT = 13,
	HCCLT_TASK_ACL_NOTIFY_RECORD = 14,
	HCCLT_TASK_ACL_NOTIFY_WAIT = 15,
	HCCLT_TASK_EVENT_RESET = 16,
};

/**
 * DOC: reduce element types and operations
 *
 * The @dtype of a reduce task (HCCLT_TASK_LOCAL_REDUCE, _WRITE_REDUCE,
 * _READ_REDUCE) is an HCCLT_DTYPE_* value and its @reduce_op an
 * HCCLT_REDUCE_* value, CANN's HcclDataType and HcclReduceOp numbers.
 * Each element of the destination becomes op(destination element, source
 * element). Elements are in the CPU's byte order.
 *
 * Types, their value and their size in bytes:
 *
 * - HCCLT_DTYPE_INT8 (0, 1), _INT16 (1, 2), _INT32 (2, 4) and, since
 *   uAPI 1.7, _INT64 (5, 8): two's complement signed integers.
 * - Since uAPI 1.7: HCCLT_DTYPE_UINT8 (7, 1), _UINT16 (8, 2), _UINT32
 *   (9, 4) and _UINT64 (6, 8): unsigned integers.
 * - HCCLT_DTYPE_FP16 (3, 2) and _FP32 (4, 4): IEEE 754 binary16 and
 *   binary32; _BF16 (11, 2): bfloat16, the upper half of a binary32;
 *   since uAPI 1.7, _FP64 (10, 8): IEEE 754 binary64.
 *
 * Any other value is -EINVAL, CANN's INT128 (12), HIF8 and FP8 types
 * (14 .. 17) included; so are the 1.7 types on a driver without
 * HCCLT_FEATURE_REDUCE_EXT.
 *
 * Operations: HCCLT_REDUCE_SUM (0), HCCLT_REDUCE_PROD (1, since uAPI 1.7,
 * HCCLT_FEATURE_REDUCE_EXT), HCCLT_REDUCE_MAX (2) and HCCLT_REDUCE_MIN (3);
 * any other value is -EINVAL.
 *
 * - Integers: SUM and PROD wrap around modulo 2^bits (the low bits of the
 *   exact result, the same for a signed and an unsigned type); MAX and MIN
 *   compare signed for the INT types and unsigned for the UINT types.
 * - FP32 is computed in binary32 and FP64 in binary64, rounding to
 *   nearest, ties to even, with subnormals kept; FP16 and BF16 are widened
 *   exactly to binary32, computed there (SUM, PROD, MAX, MIN alike) and
 *   the result is rounded back to nearest, ties to even. A result too
 *   large for its type is an infinity.
 * - A NaN operand of MAX or MIN gives that NaN (the destination's when
 *   both are); SUM and PROD of a NaN give a NaN. MAX and MIN of two equal
 *   values (+0 and -0) give the destination's.
 * - The floating point types need the CPU's FPU in the kernel: a reduce
 *   of FP16, FP32, FP64 or BF16 is -EOPNOTSUPP on architectures other
 *   than x86. The integer types reduce everywhere.
 */
#define HCCLT_DTYPE_INT8		0
#define HCCLT_DTYPE_INT16		1
#define HCCLT_DTYPE_INT32		2
#define HCCLT_DTYPE_FP16		3
#define HCCLT_DTYPE_FP32		4
#define HCCLT_DTYPE_INT64		5
#define HCCLT_DTYPE_UINT64		6
#define HCCLT_DTYPE_UINT8		7
#define HCCLT_DTYPE_UINT16		8
#define HCCLT_DTYPE_UINT32		9
#define HCCLT_DTYPE_FP64		10
#define HCCLT_DTYPE_BF16		11

#define HCCLT_REDUCE_SUM		0
#define HCCLT_REDUCE_PROD		1
#define HCCLT_REDUCE_MAX		2
#define HCCLT_REDUCE_MIN		3

/**
 * struct drm_hcclt_task - one task of a submitted batch.
 *
 * uAPI 1.4 appended @src_handle .. @reduce_op (64 bytes in all); a SUBMIT
 * with the 1.0 size (HCCLT_TASK_SIZE_V1, 24 bytes) still works, without
 * data tasks. Fields a task's op does not use must be zero.
 */
struct drm_hcclt_task {
	/** @op: enum drm_hcclt_task_op. */
	__u32 op;
	/** @notify_idx: index of the notify, below the thread's notify count. */
	__u32 notify_idx;
	/**
	 * @dst_thread: record: id of the destination thread, of the same
	 * engine as the submitting thread; wait: must be zero; channel
	 * record and channel wait: the channel id.
	 */
	__u64 dst_thread;
	/** @timeout_s: wait: timeout in seconds, 0 = none; record: zero. */
	__u32 timeout_s;
	/** @pad: must be zero. */
	__u32 pad;
	/**
	 * @src_handle: (1.4) data tasks: GEM handle of the source object in
	 * this file; zero for a read's source (the channel peer's buffer).
	 * (1.13, HCCLT_FEATURE_MEMREG) A read's source may instead be a range
	 * the peer registered: its id there (struct drm_hcclt_mem_reg's
	 * @reg_id), @src_offset then counts from the range's start and
	 * @src_offset + @len must be inside the range (-ERANGE); an id the
	 * peer has not registered (or unregistered) is -ECONNRESET, as a
	 * gone peer.
	 */
	__u32 src_handle;
	/**
	 * @dst_handle: (1.4) data tasks: GEM handle of the destination object
	 * in this file; zero for a write's destination (the channel peer's
	 * buffer). (1.13) Or the id of a range the peer registered, as
	 * @src_handle of a read.
	 */
	__u32 dst_handle;
	/** @src_offset: (1.4) data tasks: byte offset in the source. */
	__u64 src_offset;
	/** @dst_offset: (1.4) data tasks: byte offset in the destination. */
	__u64 dst_offset;
	/** @len: (1.4) data tasks: bytes to copy or reduce; may be zero. */
	__u64 len;
	/**
	 * @dtype: (1.4) reduce tasks: HCCLT_DTYPE_* (see "reduce element
	 * types and operations").
	 */
	__u32 dtype;
	/** @reduce_op: (1.4) reduce tasks: HCCLT_REDUCE_*. */
	__u32 reduce_op;
};

/* The size of struct drm_hcclt_task in uAPI 1.0-1.3. */
#define HCCLT_TASK_SIZE_V1		24

/*
 * Return a sync_file in @fence_fd (opened close-on-exec), signalled when the
 * batch completes, with an error when a task of it failed or was cancelled.
 * An out-fence signals in bounded time: see struct drm_hcclt_submit.
 */
#define HCCLT_SUBMIT_FENCE_OUT		0x1U
/*
 * (uAPI 1.5) Wait for the sync_file @in_fence_fd before the batch's first
 * task runs (the stream waits, not the caller).
 */
#define HCCLT_SUBMIT_FENCE_IN		0x2U

/* Largest @in_sync_count and @out_sync_count of one submit (uAPI 1.5). */
#define HCCLT_MAX_SYNCS			64

/*
 * Largest count_handles of the DRM core syncobj ioctls with a handle array
 * (DRM_IOCTL_SYNCOBJ_WAIT, _TIMELINE_WAIT, _RESET, _SIGNAL,
 * _TIMELINE_SIGNAL and _QUERY) on an hcclthread node, which the driver
 * serves itself from one copy of the argument: a larger count is -EINVAL.
 */
#define HCCLT_MAX_SYNCOBJ_HANDLES	1024

/**
 * struct drm_hcclt_sync - a drm_syncobj point a submit waits for or
 * signals (uAPI 1.5, HCCLT_FEATURE_SYNCOBJ).
 *
 * Waiting for it, the batch's first task runs once the syncobj's fence
 * at @point (its current fence if 0) has signalled; signalling it, the
 * batch's out-fence becomes the syncobj's fence (@point 0) or a new point
 * @point of its timeline.
 */
struct drm_hcclt_sync {
	/** @handle: in, a syncobj handle of this file (DRM_IOCTL_SYNCOBJ_*). */
	__u32 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @point: in, timeline point; 0 for a binary syncobj. */
	__u64 point;
};

/*
 * Out, in @status: when the ioctl returned, every task queued on the stream
 * had completed (the batch ran inline) and the stream had no error to
 * report: a DRM_IOCTL_HCCLT_STREAM_SYNC of it would have returned 0 at
 * once. It stays so until a task is queued on the stream again, through
 * any handle, or the stream or its thread is destroyed, or the device is
 * unplugged; until then userspace may skip that STREAM_SYNC (libhcclthread
 * does).
 */
#define HCCLT_SUBMIT_STATUS_IDLE	0x1U

/**
 * struct drm_hcclt_submit - queue a batch of tasks on one stream.
 *
 * @handle is a thread id (tasks run on the thread's stream, waits use the
 * thread's notifies) or a stream id (only records are allowed, to threads
 * of any engine). The whole batch is validated before any task is queued;
 * it is queued whole or not at all. The ioctl returns at once: a waiting
 * task blocks the stream, never the caller. Tasks of one stream run in
 * order; different streams run concurrently.
 *
 * @task_count may be zero only with HCCLT_SUBMIT_FENCE_OUT, in-fences or
 * out-syncobjs: the fence then signals when everything queued so far on
 * the stream (in-fences included) has completed, with the error of the
 * last task queued before it if that task failed.
 *
 * (uAPI 1.5, HCCLT_FEATURE_SYNCOBJ) In-fences: the sync_file
 * @in_fence_fd (with HCCLT_SUBMIT_FENCE_IN) and the @in_sync_count syncobj
 * points at @in_syncs_ptr. The stream runs the batch once all have
 * signalled (tasks queued before it run first, as always); one that
 * signals with an error fails the batch with that error, as a failed task
 * does (the next STREAM_SYNC reports it once). The fences are looked up at
 * the call: a syncobj point with no fence yet is -EINVAL. Out-syncobjs:
 * the @out_sync_count points at @out_syncs_ptr get the batch's out-fence
 * (made also without HCCLT_SUBMIT_FENCE_OUT), which signals when the
 * batch completed. Out-fences of one stream have one fence context and
 * sequence numbers that grow with every fence (a submit that fails after
 * taking one leaves a gap).
 *
 * An out-fence (sync_file or syncobj) always signals in bounded time, as
 * the DMA fence rules require: a batch may wait on userspace without
 * limit (a kernel launch until KERNEL_DONE, a wait of timeout 0), so each
 * out-fence has a deadline, the driver's fence_timeout_ms module parameter
 * (default 60 s) after the SUBMIT. A fence not signalled by then fails its
 * stream as a timed-out wait does: the stream's queued tasks are dropped
 * (a launch not started never starts), the fence and those after it
 * signal with -ETIME, and the next STREAM_SYNC returns -ETIME. A fence
 * thus signals at the latest by its own deadline or that of a fence
 * queued before it on the stream. Work queued without an out-fence waits
 * as long as its tasks say.
 *
 * Errors:
 *
 * - -EINVAL: unknown bit in @flags, @task_count above
 *   HCCLT_MAX_BATCH or zero without HCCLT_SUBMIT_FENCE_OUT, @task_size
 *   neither sizeof(struct drm_hcclt_task) nor HCCLT_TASK_SIZE_V1, non-zero
 *   @pad.
 * - -ENOENT: unknown @handle, unknown @dst_thread of a record.
 * - -EINVAL: a task with an unknown op, non-zero pad, a record with a
 *   non-zero timeout, a wait with a non-zero @dst_thread, a wait on a
 *   stream id, @notify_idx not below the notify count of the thread it
 *   names, a record whose @dst_thread is of another engine than @handle.
 * - -ENOENT: a channel task whose channel id is unknown, stale, or of
 *   another communicator than the thread @handle.
 * - -EINVAL: a channel task on a stream @handle, from a thread of another
 *   engine family than the channel's, with @notify_idx not below the
 *   channel's notify count, or a channel record with a non-zero timeout.
 * - -ECONNRESET: a channel task on a channel whose peer is gone; for a
 *   channel wait, only when no record the peer made before it went is
 *   left on the notify.
 * - -EINVAL (1.8): an HCCLT_TASK_EVENT_RESET with a non-zero
 *   @notify_idx or @timeout_s; -ENOENT: its event is not of this file.
 * - -EINVAL (1.4): a data task with a non-zero @notify_idx or @timeout_s, a
 *   local one with a non-zero @dst_thread, a write or read on a stream
 *   @handle, a zero handle where an object is needed or a non-zero one
 *   where the channel's peer buffer is meant, an unknown @dtype or
 *   @reduce_op of a reduce (non-zero ones for a copy), a reduce @len,
 *   @src_offset or @dst_offset not a multiple of the element size, a
 *   reduce whose two ranges overlap; non-zero 1.4 fields in another task.
 * - -EOPNOTSUPP (1.4): a floating point reduce (FP16, FP32, BF16; FP64
 *   since 1.7) on an architecture where the driver cannot use the FPU
 *   (all but x86).
 * - -ENOENT (1.4): a data task's handle that is not a memory object of
 *   this file.
 * - -EBUSY (1.4): a kernel launch while the file has too many launch
 *   events queued and not read (the DRM event space).
 * - -ERANGE (1.4): a data task's byte range that is not entirely inside
 *   its object (offset plus length past its end, or overflowing).
 * - -ENOBUFS (1.4): a write or read whose channel peer has no HCCL buffer
 *   (made by its DRM_IOCTL_HCCLT_COMM_BUFFER or by a
 *   DRM_IOCTL_HCCLT_CHANNEL_BUFFER of a channel to it).
 * - -EBUSY: the stream's queue would exceed HCCLT_MAX_QUEUE_DEPTH tasks,
 *   or, with HCCLT_SUBMIT_FENCE_OUT, the stream already has
 *   HCCLT_MAX_QUEUE_DEPTH out-fences waiting to signal.
 * - -EINVAL (1.5): @in_sync_count or @out_sync_count above
 *   HCCLT_MAX_SYNCS, non-zero @flags of a struct drm_hcclt_sync, non-zero
 *   @pad2, a non-zero @in_fence_fd without HCCLT_SUBMIT_FENCE_IN, an
 *   @in_fence_fd that is not a sync_file, an in-syncobj point that has no
 *   fence.
 * - -ENOENT (1.5): an unknown syncobj handle.
 * - -ECANCELED (1.8): the stream stopped at a failed task in
 *   HCCLT_FAILURE_STOP mode (struct drm_hcclt_set_param).
 * - -EFAULT, -ENOMEM; -EMFILE (no free fd for the fence).
 *
 * The struct grew in uAPI 1.1 (@stream_id, @status, @pad); callers built
 * against 1.0 keep working, without those fields.
 */
struct drm_hcclt_submit {
	/** @handle: in, thread id or stream id. */
	__u64 handle;
	/** @tasks_ptr: in, user pointer to @task_count struct drm_hcclt_task. */
	__u64 tasks_ptr;
	/** @task_count: in, number of tasks. */
	__u32 task_count;
	/** @task_size: in, sizeof(struct drm_hcclt_task). */
	__u32 task_size;
	/** @flags: in, HCCLT_SUBMIT_* bits. */
	__u32 flags;
	/** @fence_fd: out, sync_file fd with HCCLT_SUBMIT_FENCE_OUT, else -1. */
	__s32 fence_fd;
	/** @seqno: out, stream sequence number of the batch's last task. */
	__u64 seqno;
	/**
	 * @stream_id: out (uAPI 1.1), id of the stream the batch went to: a
	 * thread's own stream, or the created stream it wraps.
	 */
	__u64 stream_id;
	/** @status: out (uAPI 1.1), HCCLT_SUBMIT_STATUS_* bits. */
	__u32 status;
	/** @pad: in, must be zero. */
	__u32 pad;
	/**
	 * @in_syncs_ptr: in (uAPI 1.5), user pointer to @in_sync_count
	 * struct drm_hcclt_sync to wait for.
	 */
	__u64 in_syncs_ptr;
	/**
	 * @out_syncs_ptr: in (uAPI 1.5), user pointer to @out_sync_count
	 * struct drm_hcclt_sync to signal.
	 */
	__u64 out_syncs_ptr;
	/** @in_sync_count: in (uAPI 1.5), at most HCCLT_MAX_SYNCS. */
	__u32 in_sync_count;
	/** @out_sync_count: in (uAPI 1.5), at most HCCLT_MAX_SYNCS. */
	__u32 out_sync_count;
	/**
	 * @in_fence_fd: in (uAPI 1.5), a sync_file fd to wait for with
	 * HCCLT_SUBMIT_FENCE_IN, else zero.
	 */
	__s32 in_fence_fd;
	/** @pad2: in, must be zero. */
	__u32 pad2;
};

/*
 * In the @flags of DRM_IOCTL_HCCLT_STREAM_SYNC and DRM_IOCTL_HCCLT_GROUP_JOIN
 * (uAPI 1.3, HCCLT_FEATURE_WAIT_DEADLINE): wait until the absolute
 * CLOCK_MONOTONIC time @deadline_ns instead of for @timeout_ms.
 */
#define HCCLT_WAIT_DEADLINE		0x1U
/* A @deadline_ns that never passes: wait without limit. */
#define HCCLT_DEADLINE_NONE		0x7fffffffffffffffLL

/**
 * struct drm_hcclt_stream_sync - wait for a stream (aclrtSynchronizeStream).
 *
 * Waits until every task queued on the stream of @handle (a stream id or a
 * thread id) before the call has completed.
 *
 * Two forms. With HCCLT_WAIT_DEADLINE in @flags (uAPI 1.3), the wait ends
 * at the absolute CLOCK_MONOTONIC time @deadline_ns (HCCLT_DEADLINE_NONE:
 * never; a time already passed: only look), @timeout_ms must be zero, and
 * the errors follow DRM's convention (syncobj, i915): -ETIME is this call's
 * deadline, -ETIMEDOUT a wait task of the stream. Without it, the wait
 * lasts @timeout_ms, @deadline_ns must be zero (callers built before 1.3
 * do not have the field: the core zeroes it), and -ETIMEDOUT and -ETIME
 * swap their meanings as listed below.
 *
 * Interruptible: on a signal it returns -ERESTARTSYS (seen as -EINTR or
 * restarted); without HCCLT_WAIT_DEADLINE @timeout_ms is then updated to
 * the time left, with it nothing is written and a restarted call ends at
 * the same deadline. A restarted call is a new call: it also waits for
 * tasks queued while the signal was handled.
 *
 * Returns 0 when all completed, else:
 *
 * - -EINVAL: unknown bit in @flags, @timeout_ms below -1; with
 *   HCCLT_WAIT_DEADLINE a non-zero @timeout_ms or a negative
 *   @deadline_ns; without it a non-zero @deadline_ns.
 * - -ENOENT: unknown @handle.
 * - -ETIME with HCCLT_WAIT_DEADLINE, -ETIMEDOUT without: the wait asked
 *   for ran out first (the tasks stay queued).
 * - -ETIMEDOUT with HCCLT_WAIT_DEADLINE, -ETIME without: a wait task of
 *   the stream timed out since the last sync (its @timeout_s passed); the
 *   error is reported once and cleared.
 * - -ECANCELED: the stream's work was cancelled (its communicator or
 *   stream was destroyed); reported once.
 * - -EIO (1.4): a kernel launch of the stream returned a non-zero
 *   status (HCCLT_TASK_KERNEL_LAUNCH); reported once.
 * - -ECONNRESET: a channel wait of the stream failed because the peer of
 *   the channel is gone (uAPI 1.3); reported once.
 * - -ENODEV: the device was unplugged.
 */
struct drm_hcclt_stream_sync {
	/** @handle: in, stream id or thread id. */
	__u64 handle;
	/**
	 * @timeout_ms: in/out, milliseconds, -1 = no limit, 0 = poll; zero
	 * with HCCLT_WAIT_DEADLINE.
	 */
	__s32 timeout_ms;
	/** @flags: in, zero or HCCLT_WAIT_DEADLINE. */
	__u32 flags;
	/**
	 * @deadline_ns: in (uAPI 1.3), with HCCLT_WAIT_DEADLINE the absolute
	 * CLOCK_MONOTONIC time in ns at which the wait ends, else zero.
	 */
	__s64 deadline_ns;
};

/**
 * enum drm_hcclt_thread_state - what a thread's stream is doing.
 * @HCCLT_STATE_IDLE: no task pending.
 * @HCCLT_STATE_RUNNING: tasks pending and runnable.
 * @HCCLT_STATE_PARKED: parked on a wait for notify @wait_notify.
 * @HCCLT_STATE_ERROR: a task failed; the next sync reports it.
 */
enum drm_hcclt_thread_state {
	HCCLT_STATE_IDLE = 0,
	HCCLT_STATE_RUNNING = 1,
	HCCLT_STATE_PARKED = 2,
	HCCLT_STATE_ERROR = 3,
};

/**
 * struct drm_hcclt_comm_info - one communicator, as seen by
 * DRM_IOCTL_HCCLT_INFO.
 */
struct drm_hcclt_comm_info {
	/** @comm_id: id of the communicator in its own file. */
	__u64 comm_id;
	/** @pid: process that opened the file holding the communicator. */
	__u32 pid;
	/** @threads_used: threads counted against the quota. */
	__u32 threads_used;
	/** @notifies_used: notifies counted against the quota. */
	__u32 notifies_used;
	/** @thread_count: threads, wrapping ones included, not views. */
	__u32 thread_count;
};

/* drm_hcclt_thread_info.flags */
#define HCCLT_THREAD_WRAPPED		0x1U /* wraps a created stream */
#define HCCLT_THREAD_VIEW		0x2U /* exported view */

/**
 * struct drm_hcclt_thread_info - one thread or exported view, as seen by
 * DRM_IOCTL_HCCLT_INFO.
 */
struct drm_hcclt_thread_info {
	/** @thread_id: id of the thread in its own file. */
	__u64 thread_id;
	/** @comm_id: communicator of the thread. */
	__u64 comm_id;
	/** @stream_id: id of the stream (also for owned streams). */
	__u64 stream_id;
	/** @engine: enum drm_hcclt_engine. */
	__u32 engine;
	/** @notify_num: notifies of the thread. */
	__u32 notify_num;
	/** @queue_depth: tasks pending on its stream. */
	__u32 queue_depth;
	/** @state: enum drm_hcclt_thread_state of its stream. */
	__u32 state;
	/** @wait_notify: with HCCLT_STATE_PARKED, the notify waited for. */
	__u32 wait_notify;
	/** @flags: HCCLT_THREAD_* bits. */
	__u32 flags;
};

/* drm_hcclt_info.scope */
#define HCCLT_INFO_SCOPE_FILE		0 /* the calling file only */
#define HCCLT_INFO_SCOPE_USER		1 /* and the files the caller may inspect */

/**
 * struct drm_hcclt_info - list communicators and threads.
 *
 * Read-only. Fills at most @comm_count and @thread_count entries, and at
 * most 65536 of each per call, then writes back the numbers that exist (so
 * a first call with zero counts sizes the buffers; entries beyond the
 * smaller of the two numbers and 65536 are not written). Threads come
 * grouped by communicator, in the order of the communicator entries, each
 * exported view right after the thread it views. With
 * HCCLT_INFO_SCOPE_USER it lists the communicators of the files
 * DRM_IOCTL_HCCLT_INFO_ARRAY lists with that scope: the caller's, those of
 * its effective uid it may inspect, or all with CAP_SYS_ADMIN. New code
 * uses DRM_IOCTL_HCCLT_INFO_ARRAY, which lists any number of entries.
 *
 * Errors: -EINVAL unknown @scope, non-zero @flags; -EFAULT; -ENOMEM.
 */
struct drm_hcclt_info {
	/** @scope: in, HCCLT_INFO_SCOPE_*. */
	__u32 scope;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @comm_count: in, entries of @comms_ptr; out, entries that exist. */
	__u32 comm_count;
	/** @thread_count: in, entries of @threads_ptr; out, that exist. */
	__u32 thread_count;
	/** @comms_ptr: in, user pointer to struct drm_hcclt_comm_info[]. */
	__u64 comms_ptr;
	/** @threads_ptr: in, user pointer to struct drm_hcclt_thread_info[]. */
	__u64 threads_ptr;
};

#define DRM_IOCTL_HCCLT_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_QUERY, struct drm_hcclt_query)
#define DRM_IOCTL_HCCLT_COMM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_COMM_CREATE, \
		 struct drm_hcclt_comm_create)
#define DRM_IOCTL_HCCLT_COMM_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_COMM_DESTROY, \
		struct drm_hcclt_comm_destroy)
#define DRM_IOCTL_HCCLT_STREAM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_STREAM_CREATE, \
		 struct drm_hcclt_stream_create)
#define DRM_IOCTL_HCCLT_STREAM_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_STREAM_DESTROY, \
		struct drm_hcclt_stream_destroy)
#define DRM_IOCTL_HCCLT_THREAD_ACQUIRE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_THREAD_ACQUIRE, \
		struct drm_hcclt_thread_acquire)
#define DRM_IOCTL_HCCLT_THREAD_ACQUIRE_WITH_STREAM \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_THREAD_ACQUIRE_WITH_STREAM, \
		 struct drm_hcclt_thread_acquire_with_stream)
#define DRM_IOCTL_HCCLT_THREAD_EXPORT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_THREAD_EXPORT, \
		struct drm_hcclt_thread_export)
#define DRM_IOCTL_HCCLT_SUBMIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_SUBMIT, struct drm_hcclt_submit)
#define DRM_IOCTL_HCCLT_STREAM_SYNC \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_STREAM_SYNC, \
		 struct drm_hcclt_stream_sync)
#define DRM_IOCTL_HCCLT_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_INFO, struct drm_hcclt_info)

/* Bytes of a group key (struct drm_hcclt_group_create). */
#define HCCLT_GROUP_KEY_BYTES		16
/* Bytes of a group name, the terminating NUL included. */
#define HCCLT_GROUP_NAME_BYTES		128
/* Most ranks of one group: one rank per device. */
#define HCCLT_MAX_GROUP_RANKS		16
/* Most groups one file may have created that are not yet complete. */
#define HCCLT_MAX_PENDING_GROUPS	256

/**
 * struct drm_hcclt_group_create - create a group (HcclGetRootInfo).
 *
 * A group is one communicator across its ranks, which may live on any
 * device of the host and in any process. The driver returns a random
 * 128-bit @key (from the kernel's RNG) and a @name unique on the host while
 * the module is loaded. Security model: the key is a capability. Joining
 * needs the key; no ioctl lists or returns keys (DRM_IOCTL_HCCLT_GROUP_INFO
 * shows names only), so a process that was not given the key cannot join.
 *
 * The group stays joinable while the file that created it is open; if that
 * file is closed before every rank joined, the group fails (waiting ranks
 * return -ECONNRESET). Once complete it lives as long as a rank's
 * communicator does.
 *
 * Errors: -EINVAL non-zero @flags or @pad; -ENOSPC the file already created
 * HCCLT_MAX_PENDING_GROUPS groups that are not complete; -ENOMEM.
 */
struct drm_hcclt_group_create {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
	/** @key: out, the group's secret key. */
	__u8 key[HCCLT_GROUP_KEY_BYTES];
	/** @name: out, NUL-terminated name, at most 127 characters. */
	char name[HCCLT_GROUP_NAME_BYTES];
};

/**
 * struct drm_hcclt_group_join - join a group as one rank
 * (HcclCommInitRootInfo).
 *
 * Joins rank @rank of @nranks on the calling file's device and blocks until
 * all @nranks ranks have joined, then creates the rank's communicator in
 * the calling file and returns its id. The first rank to join fixes the
 * group's rank count. One rank of a group per device.
 *
 * The wait lasts @timeout_ms, or, with HCCLT_WAIT_DEADLINE in @flags (uAPI
 * 1.3), ends at the absolute CLOCK_MONOTONIC time @deadline_ns
 * (HCCLT_DEADLINE_NONE: never; a time already passed: only look).
 *
 * Interruptible: on a signal the rank withdraws (without failing the
 * others) and the call returns -ERESTARTSYS (seen as -EINTR or restarted),
 * without HCCLT_WAIT_DEADLINE with @timeout_ms updated to the time left;
 * a restarted call joins again (with HCCLT_WAIT_DEADLINE, until the same
 * deadline).
 * A rank whose wait times out, or whose process is killed while waiting,
 * fails the group: every waiting rank returns -ECONNRESET at once.
 *
 * Clusters (uAPI 1.15, HCCLT_FEATURE_CLUSTER): with @root_addr naming
 * another host, the rank joins the group that host's driver made. This
 * driver connects to that host's (Documentation/clusters.rst) and sends
 * it the key; the group's host refuses a key it has no group for before
 * it tells anything (-ENOENT here), and answers the complete group with
 * where each rank is. Ranks of one host that join the same remote group
 * share it here (one rank per device still). The link failing while the
 * group is pending fails it (-ECONNRESET).
 *
 * Checks, in this order:
 *
 * - -EINVAL: unknown bit in @flags, non-zero @pad, @timeout_ms below -1,
 *   @nranks zero
 *   or above HCCLT_MAX_GROUP_RANKS; with HCCLT_WAIT_DEADLINE a non-zero
 *   @timeout_ms or a negative @deadline_ns; without it a non-zero
 *   @deadline_ns.
 * - -ERANGE: @rank not below @nranks.
 * - -ENOENT: no group has @key (here, or on the root host).
 * - -ECONNRESET: the group failed (a rank left or died while others
 *   waited, or its creator's file was closed before it completed).
 * - -EISCONN: the group is already complete.
 * - -EPROTO: @nranks differs from the rank count of the group.
 * - -EADDRINUSE: rank @rank has already joined.
 * - -EBUSY: another rank of the group is on this device.
 * - -ETIMEDOUT (-ETIME with HCCLT_WAIT_DEADLINE, as DRM's waits): the
 *   wait ran out before every rank joined (the group fails).
 * - -ENOSPC, -ENOMEM: the communicator could not be created.
 * - -EOPNOTSUPP: @root_addr names another host and this one is in no
 *   cluster (module parameter cluster_addr unset, or a kernel without the
 *   RDMA stack).
 * - -EHOSTUNREACH, -ENETUNREACH, -ECONNREFUSED, -ECONNRESET, -ETIMEDOUT:
 *   the root host's driver could not be reached, or the link to it failed;
 *   -ENETDOWN: the RDMA device of this host's cluster address is gone.
 * - -EMFILE: no link to the root host could be made: the driver has
 *   module parameter max_links links, or 4 to that address, or the
 *   calling user has 4 connects in progress (clusters.rst, "Security
 *   model").
 * - -EINTR: a signal came while the link to the root host was being
 *   made.
 * - -EXDEV: @key is of a group this host waits for from another root.
 */
struct drm_hcclt_group_join {
	/** @key: in, the key DRM_IOCTL_HCCLT_GROUP_CREATE returned. */
	__u8 key[HCCLT_GROUP_KEY_BYTES];
	/** @rank: in, rank of the caller, below @nranks. */
	__u32 rank;
	/** @nranks: in, number of ranks of the group. */
	__u32 nranks;
	/**
	 * @timeout_ms: in/out, milliseconds, -1 = no limit; zero with
	 * HCCLT_WAIT_DEADLINE.
	 */
	__s32 timeout_ms;
	/** @flags: in, zero or HCCLT_WAIT_DEADLINE. */
	__u32 flags;
	/** @comm_id: out, id of the rank's communicator in this file. */
	__u64 comm_id;
	/**
	 * @deadline_ns: in (uAPI 1.3), with HCCLT_WAIT_DEADLINE the absolute
	 * CLOCK_MONOTONIC time in ns at which the wait ends, else zero.
	 */
	__s64 deadline_ns;
	/**
	 * @root_addr: in (uAPI 1.15, HCCLT_FEATURE_CLUSTER), the IPv4
	 * address (network byte order) of the host whose driver made the
	 * group (its QUERY @cluster_addr), or zero for this host.
	 */
	__u32 root_addr;
	/** @root_port: in (uAPI 1.15), that host's @cluster_port. */
	__u16 root_port;
	/** @pad: in, must be zero (uAPI 1.15). */
	__u16 pad;
};

/* drm_hcclt_group_rank_info.state */
#define HCCLT_GROUP_PENDING		0 /* waiting for ranks to join */
#define HCCLT_GROUP_COMPLETE		1 /* every rank joined */
#define HCCLT_GROUP_FAILED		2 /* a rank left or died while pending */

/**
 * struct drm_hcclt_group_rank_info - one rank of a group, as seen by
 * DRM_IOCTL_HCCLT_GROUP_INFO.
 */
struct drm_hcclt_group_rank_info {
	/** @name: the group's name. */
	char name[HCCLT_GROUP_NAME_BYTES];
	/** @rank: rank number. */
	__u32 rank;
	/** @nranks: ranks of the group. */
	__u32 nranks;
	/** @device: index of the device the rank is on. */
	__u32 device;
	/** @pid: process that joined the rank. */
	__u32 pid;
	/** @comm_id: the rank's communicator, an id of the rank's own file. */
	__u64 comm_id;
	/** @state: HCCLT_GROUP_* of the group. */
	__u32 state;
	/** @joined: ranks of the group that have joined. */
	__u32 joined;
};

/**
 * struct drm_hcclt_group_rank_host - one rank of a group with its host, as
 * DRM_IOCTL_HCCLT_GROUP_INFO fills it with HCCLT_GROUP_INFO_HOSTS (uAPI
 * 1.15).
 */
struct drm_hcclt_group_rank_host {
	/** @info: the rank, as without the flag; @device is on @host_addr. */
	struct drm_hcclt_group_rank_info info;
	/**
	 * @host_addr: the cluster address of the rank's host (network byte
	 * order; QUERY's @cluster_addr there), zero when the group has no
	 * rank on another host.
	 */
	__u32 host_addr;
	/** @host_port: that host's cluster port (network byte order). */
	__u16 host_port;
	/** @remote: 1 for a rank of another host (no @pid or @comm_id here). */
	__u16 remote;
};

/* @flags of struct drm_hcclt_group_info: entries are _rank_host (1.15). */
#define HCCLT_GROUP_INFO_HOSTS		0x1

/**
 * struct drm_hcclt_group_info - list the ranks of groups, host-wide.
 *
 * Read-only. Lists every joined rank of every group created, or joined
 * by a rank, from a process of the caller's effective uid (every group
 * for a caller with CAP_SYS_ADMIN, as INFO's every-file view; euid 0
 * alone is not enough), grouped by group. Fills at most @rank_count entries, then writes
 * back the number that exist. Keys are never shown. A group with ranks on
 * other hosts (Documentation/clusters.rst) lists them too, as the root
 * host's table said; with HCCLT_GROUP_INFO_HOSTS in @flags (uAPI 1.15) the
 * entries are struct drm_hcclt_group_rank_host, which say on which host.
 *
 * Errors: -EINVAL unknown bit in @flags; -EFAULT; -ENOMEM.
 */
struct drm_hcclt_group_info {
	/** @flags: in, zero or HCCLT_GROUP_INFO_HOSTS (uAPI 1.15). */
	__u32 flags;
	/** @rank_count: in, entries of @ranks_ptr; out, entries that exist. */
	__u32 rank_count;
	/** @ranks_ptr: in, user pointer to struct drm_hcclt_group_rank_info[]. */
	__u64 ranks_ptr;
};

#define DRM_IOCTL_HCCLT_GROUP_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_GROUP_CREATE, \
		 struct drm_hcclt_group_create)
#define DRM_IOCTL_HCCLT_GROUP_JOIN \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_GROUP_JOIN, \
		 struct drm_hcclt_group_join)
#define DRM_IOCTL_HCCLT_GROUP_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_GROUP_INFO, \
		 struct drm_hcclt_group_info)

/**
 * struct drm_hcclt_mem_create - allocate device memory (aclrtMalloc).
 *
 * Creates a memory object of at least @size bytes on the file's device and
 * returns a GEM handle for it in this file and the offset at which
 * mmap() of the device file maps it (MAP_SHARED only; a private writable
 * mapping is -EINVAL). Only a file that holds a handle of the object may
 * map it. The contents start zeroed.
 *
 * The size, rounded up to the page size, is taken from the device's
 * memory capacity (QUERY's @mem_total, module parameter sim_memory_mb) and
 * given back when the object is gone: when its handle is closed
 * (DRM_IOCTL_GEM_CLOSE, or the file is closed) and its last mapping is
 * unmapped (or the process exits). The pages are allocated when the object
 * is first mapped and charged to the memory cgroup of the process that
 * maps it; that mmap() fails with -ENOMEM past the cgroup's limit.
 *
 * Checks, in this order:
 *
 * - -EINVAL: non-zero @flags or @pad, @size zero.
 * - -ENOBUFS: @size exceeds the capacity the device has left (sizes above
 *   the whole capacity included).
 * - -ENOMEM.
 */
struct drm_hcclt_mem_create {
	/** @size: in, bytes wanted; out, bytes of the object (page-rounded). */
	__u64 size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @handle: out, GEM handle of the object in this file. */
	__u32 handle;
	/** @mmap_offset: out, offset to pass to mmap() on the device file. */
	__u64 mmap_offset;
	/** @pad: in, must be zero. */
	__u64 pad;
};

#define DRM_IOCTL_HCCLT_MEM_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_MEM_CREATE, \
		 struct drm_hcclt_mem_create)

/* Channel protocols (CommProtocol values). */
#define HCCLT_PROTOCOL_HCCS		0
#define HCCLT_PROTOCOL_ROCE		1
/* uAPI 1.4: UB_CTP (the protocol of a 950 SoC's links). */
#define HCCLT_PROTOCOL_UB_CTP		4

/* Notifies of one side of a channel, at most. */
#define HCCLT_MAX_NOTIFIES_PER_CHANNEL	64
/* Descriptors of one DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE, at most. */
#define HCCLT_MAX_CHANNEL_DESCS		64

/**
 * struct drm_hcclt_channel_desc - one channel wanted by
 * DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE.
 */
struct drm_hcclt_channel_desc {
	/** @remote_rank: in, rank of the peer in the communicator's group. */
	__u32 remote_rank;
	/** @protocol: in, HCCLT_PROTOCOL_*. */
	__u32 protocol;
	/** @notify_num: in, notifies per side, 0..HCCLT_MAX_NOTIFIES_PER_CHANNEL. */
	__u32 notify_num;
	/** @pad: in, must be zero. */
	__u32 pad;
	/**
	 * @channel_id: out, the channel's id, written on success only; its
	 * value in is ignored.
	 */
	__u64 channel_id;
};

/**
 * struct drm_hcclt_channel_acquire - acquire channels to other ranks
 * (HcclChannelAcquire).
 *
 * A channel links this rank's communicator (made by GROUP_JOIN) with the
 * communicator of @remote_rank in the same group, for one engine family:
 * CPU and CPU_TS are one family, AICPU and AICPU_TS the other. Each side
 * owns @notify_num notifies, taken from its own device's notify pool (they
 * do not count against the communicator's thread notifies); index i names
 * one notify per side: a record on one side sets the peer's notify i, a
 * wait on one side waits on its own notify i (see enum drm_hcclt_task_op).
 *
 * A channel is a pairwise rendezvous: it is established when both ranks
 * have acquired it, with the same engine family and protocol and the same
 * @notify_num. Every descriptor of one call is offered first, then the call
 * waits until every one is matched, so that ranks acquiring their left and
 * right neighbours in one call do not deadlock. Acquiring an established
 * (engine family, @remote_rank, @protocol) again returns the same id,
 * whatever @notify_num says, without a rendezvous.
 *
 * A pair that was established stays established on both sides even when
 * another descriptor of the same call fails; the call then returns the
 * error and no ids, and a retry returns the established pairs' ids at
 * once. Nothing else of a failed call is kept: its notifies are back in
 * the pool. The ids are owned by the communicator; they die with it. When
 * either side's communicator is destroyed or its file closed, the channel
 * breaks on the other side (see HCCLT_TASK_CHANNEL_WAIT).
 *
 * The wait is interruptible (-ERESTARTSYS; a restarted call is correct, as
 * @deadline_ns is absolute) and ends at @deadline_ns.
 *
 * Errors, in the order checked:
 *
 * - -EINVAL: non-zero @flags, @desc_count zero or above
 *   HCCLT_MAX_CHANNEL_DESCS, @desc_size not sizeof(struct
 *   drm_hcclt_channel_desc), negative @deadline_ns, @engine not CPU,
 *   CPU_TS, AICPU or AICPU_TS.
 * - -EFAULT.
 * - -ENOENT: unknown @comm_id (or destroyed meanwhile).
 * - -EINVAL: a descriptor with a non-zero pad, an unknown protocol,
 *   @notify_num above HCCLT_MAX_NOTIFIES_PER_CHANNEL, a (@remote_rank,
 *   @protocol) repeated in the call, @remote_rank the rank itself.
 * - -ERANGE: @remote_rank not below the group's rank count (a
 *   communicator of COMM_CREATE has one rank).
 * - -EXDEV: (uAPI 1.14, HCCLT_FEATURE_SERVERS) @remote_rank's card is on
 *   another server and @protocol is not the cluster layer's protocol
 *   (RoCE on A2, HCCS on A3, UB_CTP on a 950); (uAPI 1.15) @remote_rank
 *   is on another host and @protocol is not RoCE, on every SoC.
 * - -EBUSY: another call of the same communicator is acquiring the same
 *   channel now.
 * - -ENOSPC: the device's notify pool has too few notifies left.
 * - -ECONNRESET: the peer's communicator is gone (or goes while this call
 *   waits for it).
 * - -EPROTO: the peer acquires the channel with another @notify_num (both
 *   calls fail with it).
 * - -ETIME: @deadline_ns passed before every channel was established.
 * - (uAPI 1.15) -EHOSTUNREACH, -ENETUNREACH, -ECONNREFUSED, -ETIMEDOUT,
 *   -ENETDOWN, -EMFILE, -EINTR: @remote_rank is on another host and no
 *   link to that host could be made, as for DRM_IOCTL_HCCLT_GROUP_JOIN.
 * - -ERESTARTSYS, -ENOMEM.
 */
struct drm_hcclt_channel_acquire {
	/** @comm_id: in, the communicator. */
	__u64 comm_id;
	/** @engine: in, enum drm_hcclt_engine. */
	__u32 engine;
	/** @desc_count: in, number of descriptors. */
	__u32 desc_count;
	/** @desc_size: in, sizeof(struct drm_hcclt_channel_desc). */
	__u32 desc_size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/**
	 * @deadline_ns: in, absolute CLOCK_MONOTONIC time in ns after which
	 * the rendezvous fails with -ETIME; S64_MAX (or any time far away)
	 * for no limit.
	 */
	__s64 deadline_ns;
	/** @descs_ptr: in, user pointer to @desc_count descriptors. */
	__u64 descs_ptr;
};

#define DRM_IOCTL_HCCLT_CHANNEL_ACQUIRE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_CHANNEL_ACQUIRE, \
		 struct drm_hcclt_channel_acquire)
#define DRM_HCCLT_INFO_ARRAY		0x16

/* drm_hcclt_info_array.type */
#define HCCLT_INFO_TYPE_COMMS		1 /* struct drm_hcclt_info_comm */
#define HCCLT_INFO_TYPE_THREADS		2 /* struct drm_hcclt_info_thread */
#define HCCLT_INFO_TYPE_OPS		3 /* (1.11) struct drm_hcclt_info_op */

/*
 * Smallest @element_size of struct drm_hcclt_info_array: the size of the
 * first version of each entry. Entries may grow; they never shrink.
 */
#define HCCLT_INFO_COMM_SIZE_V1		32
#define HCCLT_INFO_THREAD_SIZE_V1	56
#define HCCLT_INFO_OP_SIZE_V1		432

/**
 * struct drm_hcclt_info_comm - one communicator, as
 * DRM_IOCTL_HCCLT_INFO_ARRAY lists it. May grow at its end.
 */
struct drm_hcclt_info_comm {
	/** @comm: what DRM_IOCTL_HCCLT_INFO says of it. */
	struct drm_hcclt_comm_info comm;
	/**
	 * @file_id: non-zero number of the open file holding it, the same in
	 * every entry of that file and in no entry of another file of the
	 * device open at the same time.
	 */
	__u64 file_id;
};

/* drm_hcclt_wait_info.kind */
#define HCCLT_WAIT_NONE			0 /* not parked */
#define HCCLT_WAIT_THREAD		1 /* on a notify of its own thread */
#define HCCLT_WAIT_CHANNEL		2 /* on this side's notify of a channel */
#define HCCLT_WAIT_EVENT		3 /* on an event (owner_id: the event) */
#define HCCLT_WAIT_ACL_NOTIFY		4 /* on an ACL notify (notify_idx: its id) */
#define HCCLT_WAIT_FENCES		5 /* (1.5) on a SUBMIT's in-fences */

/* drm_hcclt_wait_info.flags */
/*
 * A record task of the notify waited on is queued and not done yet: for a
 * channel notify on a stream of the peer rank, for a thread notify on any
 * stream of the device.
 */
#define HCCLT_WAIT_RECORD_QUEUED	0x1U

/**
 * struct drm_hcclt_wait_info - the wait a parked stream is parked on
 * (uAPI 1.4): since when, on what, and who should record it.
 */
struct drm_hcclt_wait_info {
	/** @since_ns: CLOCK_MONOTONIC time the wait parked. */
	__u64 since_ns;
	/**
	 * @owner_id: the thread whose notify it is (HCCLT_WAIT_THREAD), or
	 * the channel (HCCLT_WAIT_CHANNEL), in the waiting thread's file.
	 */
	__u64 owner_id;
	/** @kind: HCCLT_WAIT_*. */
	__u32 kind;
	/** @notify_idx: the notify's index in its thread or channel. */
	__u32 notify_idx;
	/** @timeout_s: the wait's timeout in seconds; 0: none. */
	__u32 timeout_s;
	/** @flags: HCCLT_WAIT_* flags. */
	__u32 flags;
	/** @rank: HCCLT_WAIT_CHANNEL: the waiting rank. */
	__u32 rank;
	/** @peer_rank: HCCLT_WAIT_CHANNEL: the rank that should record it. */
	__u32 peer_rank;
	/** @peer_device: HCCLT_WAIT_CHANNEL: that rank's device index. */
	__u32 peer_device;
	/**
	 * @peer_pid: HCCLT_WAIT_CHANNEL: the process that opened that rank's
	 * file, as the caller sees it (0 if outside its pid namespace).
	 */
	__u32 peer_pid;
};

/**
 * struct drm_hcclt_info_thread - one thread or exported view, as
 * DRM_IOCTL_HCCLT_INFO_ARRAY lists it. May grow at its end.
 */
struct drm_hcclt_info_thread {
	/** @thread: what DRM_IOCTL_HCCLT_INFO says of it. */
	struct drm_hcclt_thread_info thread;
	/** @file_id: the file holding it, as in struct drm_hcclt_info_comm. */
	__u64 file_id;
	/**
	 * @wait: (uAPI 1.4) with HCCLT_STATE_PARKED, the wait (a view
	 * shows its thread's); zero otherwise.
	 */
	struct drm_hcclt_wait_info wait;
};

/* Largest @element_size. */
#define HCCLT_INFO_MAX_ELEMENT_SIZE	4096

/**
 * struct drm_hcclt_info_array - list communicators or threads, a page at a
 * time (uAPI 1.3).
 *
 * Fills @buffer with up to @num_element entries of @type, each
 * @element_size bytes apart, and returns in @cursor where the next call
 * goes on; a list of any length is read by calling again with the cursor
 * returned until it is zero. A call may return fewer entries than fit, and
 * also none with a non-zero cursor (it bounds the work it does, whatever
 * the number of objects); only a zero cursor ends the list. Objects
 * created or destroyed between two calls may or may not be listed; an
 * object is never listed twice by one walk.
 *
 * An entry of @element_size bytes receives the first @element_size bytes
 * of the driver's entry, and zeros past its end: a larger entry of a
 * newer uAPI is zero where this driver has no field.
 *
 * Which files are listed: with HCCLT_INFO_SCOPE_FILE the calling file;
 * with HCCLT_INFO_SCOPE_USER also every other file of the device that was
 * opened by a process of the caller's effective uid and whose opening
 * process the caller may inspect as /proc/<pid>/fdinfo allows it (same
 * credentials and a dumpable process, or CAP_SYS_PTRACE), or, for a
 * caller with CAP_SYS_ADMIN, every file. DRM_IOCTL_HCCLT_INFO's
 * HCCLT_INFO_SCOPE_USER lists the same files.
 *
 * Entries come file after file, the same files in the same order for both
 * types; a thread's entry names its communicator (@comm_id and @file_id:
 * communicator ids are per file); exported views are entries of their
 * own (HCCLT_THREAD_VIEW).
 *
 * Errors: -EINVAL: unknown @scope or @type, non-zero @flags, @pad or
 * @reserved, @element_size below the first version's size of @type or
 * above HCCLT_INFO_MAX_ELEMENT_SIZE, @num_element zero, a @cursor this
 * device never returned for @scope; -EFAULT; -ENOMEM.
 */
struct drm_hcclt_info_array {
	/** @scope: in, HCCLT_INFO_SCOPE_*. */
	__u32 scope;
	/** @type: in, HCCLT_INFO_TYPE_*. */
	__u32 type;
	/** @element_size: in, bytes of one entry of @buffer. */
	__u32 element_size;
	/** @num_element: in, entries @buffer holds; out, entries written. */
	__u32 num_element;
	/** @cursor: in, 0 to start, else the last call's; out, 0 at the end. */
	__u64 cursor;
	/** @buffer: in, user pointer to @num_element entries. */
	__u64 buffer;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
	/** @reserved: in, must be zero. */
	__u64 reserved;
};

#define DRM_IOCTL_HCCLT_INFO_ARRAY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_INFO_ARRAY, \
		 struct drm_hcclt_info_array)
/**
 * struct drm_hcclt_comm_buffer - the HCCL buffer of a communicator
 * (HcclGetHcclBuffer).
 *
 * The first call for a communicator creates its HCCL buffer: a memory
 * object of @size bytes (rounded up to the page size) on the file's
 * device, taken from the device's capacity and charged like one of
 * DRM_IOCTL_HCCLT_MEM_CREATE. Every later call returns the same object
 * (the same @mmap_offset) and its size, whatever @size says. The driver
 * knows the object as the communicator's buffer and holds it until the
 * communicator is destroyed (DRM_IOCTL_HCCLT_COMM_DESTROY, or its file is
 * closed); the object is freed, and its capacity given back, once that
 * happened and no handle or mapping of it is left.
 *
 * Each call returns a new GEM handle of the object in this file (closed
 * with DRM_IOCTL_GEM_CLOSE, or with the file) and the offset at which
 * mmap() of the device file maps it, as for DRM_IOCTL_HCCLT_MEM_CREATE.
 * Closing the handles does not free the buffer while its communicator
 * lives.
 *
 * Checks, in this order:
 *
 * - -EINVAL: non-zero @flags or @pad, @size zero.
 * - -ENOENT: unknown @comm_id.
 * - -ENOBUFS: the buffer does not exist yet and @size exceeds the
 *   capacity the device has left (sizes above the whole capacity
 *   included).
 * - -ENOMEM.
 */
struct drm_hcclt_comm_buffer {
	/** @comm_id: in, the communicator. */
	__u64 comm_id;
	/**
	 * @size: in, bytes wanted if the buffer does not exist yet; out,
	 * bytes of the buffer (page-rounded).
	 */
	__u64 size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @handle: out, a new GEM handle of the buffer in this file. */
	__u32 handle;
	/** @mmap_offset: out, offset to pass to mmap() on the device file. */
	__u64 mmap_offset;
	/** @pad: in, must be zero. */
	__u64 pad;
};

#define DRM_IOCTL_HCCLT_COMM_BUFFER \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_COMM_BUFFER, \
		 struct drm_hcclt_comm_buffer)

#define DRM_HCCLT_CHANNEL_BUFFER	0x17

/**
 * struct drm_hcclt_channel_buffer - map the HCCL buffer of a channel's
 * peer (HcclChannelGetHcclBuffer; uAPI 1.4, HCCLT_FEATURE_DATA_TASKS).
 *
 * Returns a dma-buf fd (close-on-exec) of the HCCL buffer of the peer rank
 * of channel @channel_id of communicator @comm_id, and its size. If the
 * peer has no HCCL buffer yet, it is made with @size bytes (page-rounded)
 * on the peer's device, as the peer's DRM_IOCTL_HCCLT_COMM_BUFFER would
 * (which then returns it), charged to the peer's device. mmap() of
 * the fd (MAP_SHARED, offset 0, at most @size bytes) maps the buffer the
 * peer's process maps, so that stores through either mapping are seen
 * through the other. This is the only way to reach another rank's memory:
 * the channel's peer buffer, nothing else of the peer. The fd holds the
 * buffer object until the fd and its mappings are gone, but the access
 * ends with the peer (uAPI 1.6, HCCLT_FEATURE_PEER_REVOKE): once the
 * peer's communicator is torn down
 * (destroyed, its file closed, its process dead), every mapping of the fd
 * faults SIGBUS, as device memory freed under a mapping would, and mmap()
 * of it fails with -ECONNRESET. Whoever makes a rank's buffer first
 * decides its size: the peer's own DRM_IOCTL_HCCLT_COMM_BUFFER then
 * returns the existing buffer and its size, whatever it asks for. The fd
 * can only be mapped: another driver importing it is refused (-EOPNOTSUPP
 * when it attaches).
 *
 * A peer on another host (uAPI 1.16, HCCLT_FEATURE_CLUSTER_DATA): its
 * buffer cannot be mapped here. With HCCLT_CHANNEL_BUFFER_REMOTE in @flags
 * the call asks that host for the buffer (made there with @size if it has
 * none, as above) and returns its size in @size and -1 in @fd; data tasks
 * reach it by the channel (struct drm_hcclt_task, peer handle 0). Without
 * the flag such a channel is -EOPNOTSUPP. The flag changes nothing for a
 * peer on this host.
 *
 * Checks, in this order:
 *
 * - -EINVAL: @flags other than HCCLT_CHANNEL_BUFFER_REMOTE, or non-zero
 *   @pad.
 * - -ENOENT: unknown @comm_id, or @channel_id not a channel of it.
 * - -EOPNOTSUPP: a peer on another host, without
 *   HCCLT_CHANNEL_BUFFER_REMOTE.
 * - -ECONNRESET: the peer's communicator is gone (or, on another host,
 *   the link to it).
 * - -ENOBUFS: the peer has no HCCL buffer and @size is zero or exceeds the
 *   capacity the peer's device has left; -EDQUOT: beyond its account's
 *   memory share.
 * - -ETIMEDOUT: the peer's host did not answer in 30 s; -EINTR: the
 *   caller was killed meanwhile.
 * - -ENOMEM, -EMFILE.
 */
struct drm_hcclt_channel_buffer {
	/** @comm_id: in, the communicator. */
	__u64 comm_id;
	/** @channel_id: in, a channel of @comm_id. */
	__u64 channel_id;
	/**
	 * @size: in, bytes to make the peer's buffer with if it has none
	 * (0: do not make it); out, bytes of the peer's buffer.
	 */
	__u64 size;
	/** @fd: out, the dma-buf fd; -1 on error. */
	__s32 fd;
	/** @flags: in, zero or HCCLT_CHANNEL_BUFFER_REMOTE (uAPI 1.16). */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u64 pad;
};

/* @flags: a peer on another host is reported by size, with no fd. */
#define HCCLT_CHANNEL_BUFFER_REMOTE	0x1

#define DRM_IOCTL_HCCLT_CHANNEL_BUFFER \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_CHANNEL_BUFFER, \
		 struct drm_hcclt_channel_buffer)

/* Events of a device (aclrtCreateEvent); creating more is -ENOSPC. */
#define HCCLT_MAX_EVENTS		65536

#define DRM_HCCLT_EVENT_CREATE		0x19
#define DRM_HCCLT_EVENT_DESTROY		0x1a
#define DRM_HCCLT_EVENT_WAIT		0x1b
#define DRM_HCCLT_NOTIFY_CREATE		0x1c
#define DRM_HCCLT_NOTIFY_DESTROY	0x1d

/**
 * struct drm_hcclt_event_create - create an event of this file
 * (aclrtCreateEvent; uAPI 1.4, HCCLT_FEATURE_EVENTS).
 *
 * An event is recorded and waited for by stream tasks
 * (HCCLT_TASK_EVENT_RECORD, HCCLT_TASK_EVENT_WAIT) and by
 * DRM_IOCTL_HCCLT_EVENT_WAIT. It takes a unit of the device's event pool
 * (HCCLT_MAX_EVENTS) until it is destroyed or the file is closed.
 *
 * Errors: -EINVAL non-zero @flags or @pad; -ENOSPC the device's events are
 * all in use; -ENOMEM.
 */
struct drm_hcclt_event_create {
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
	/** @event_id: out, the event's id in this file (never 0). */
	__u64 event_id;
};

/**
 * struct drm_hcclt_event_destroy - destroy an event (aclrtDestroyEvent).
 *
 * Its id is refused from now on; tasks already queued with it still run.
 *
 * Errors: -EINVAL non-zero @flags or @pad; -ENOENT not an event of this
 * file.
 */
struct drm_hcclt_event_destroy {
	/** @event_id: in, the event. */
	__u64 event_id;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
};

/* drm_hcclt_event_wait.status */
#define HCCLT_EVENT_NOT_READY		0
#define HCCLT_EVENT_COMPLETE		1
/* (uAPI 1.5) The latest completed record was dropped, not run. */
#define HCCLT_EVENT_FAILED		2

/**
 * struct drm_hcclt_event_wait - wait for an event's records, or look at it
 * (aclrtSynchronizeEvent, aclrtQueryEventStatus, aclrtEventElapsedTime).
 *
 * Waits up to @timeout_ms until the event has completed every record
 * queued before the call (none: at once), then tells whether it did and
 * the time of its latest completed record. Interruptible. (uAPI 1.5) A
 * record that was dropped before it ran (its stream failed, was cancelled
 * or its device removed) completes the event as failed
 * (HCCLT_EVENT_FAILED), without a time of its own.
 *
 * Errors: -EINVAL non-zero @flags or @pad, @timeout_ms below -1; -ENOENT
 * not an event of this file; -EINTR (a signal).
 */
struct drm_hcclt_event_wait {
	/** @event_id: in, the event. */
	__u64 event_id;
	/** @timeout_ms: in, -1 no limit, 0 only look. */
	__s32 timeout_ms;
	/** @flags: in, must be zero. */
	__u32 flags;
	/**
	 * @timestamp_ns: out, CLOCK_MONOTONIC time the latest of its records
	 * that ran did; 0 if none did.
	 */
	__u64 timestamp_ns;
	/**
	 * @status: out, HCCLT_EVENT_COMPLETE, HCCLT_EVENT_NOT_READY or (uAPI
	 * 1.5) HCCLT_EVENT_FAILED.
	 */
	__u32 status;
	/** @pad: in, must be zero. */
	__u32 pad;
};

/**
 * struct drm_hcclt_notify_create - create an ACL notify of this file
 * (aclrtCreateNotify; uAPI 1.4, HCCLT_FEATURE_EVENTS).
 *
 * A binary flag like a thread's notify, recorded and waited for by
 * HCCLT_TASK_ACL_NOTIFY_RECORD and HCCLT_TASK_ACL_NOTIFY_WAIT on any
 * stream of the file. It takes a unit of the device's notify pool (the
 * same pool as threads' and channels' notifies) until destroyed or the
 * file is closed, and counts in the file's fdinfo hcclthread-notifies.
 *
 * Errors: -EINVAL non-zero @flags; -ENOSPC the device's notify pool is
 * empty; -ENOMEM.
 */
struct drm_hcclt_notify_create {
	/** @flags: in, must be zero. */
	__u32 flags;
	/**
	 * @notify_id: out, its id (aclrtGetNotifyId): a number below the
	 * device's notify pool size, unique on the device while it exists.
	 */
	__u32 notify_id;
};

/**
 * struct drm_hcclt_notify_destroy - destroy an ACL notify
 * (aclrtDestroyNotify).
 *
 * Waits parked on it fail with -ECANCELED; records queued into it do
 * nothing; its id is refused from now on (and may name a new notify
 * later).
 *
 * Errors: -EINVAL non-zero @flags; -ENOENT not an ACL notify of this file.
 */
struct drm_hcclt_notify_destroy {
	/** @notify_id: in, the notify. */
	__u32 notify_id;
	/** @flags: in, must be zero. */
	__u32 flags;
};

#define DRM_IOCTL_HCCLT_EVENT_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_EVENT_CREATE, \
		 struct drm_hcclt_event_create)
#define DRM_IOCTL_HCCLT_EVENT_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_EVENT_DESTROY, \
		struct drm_hcclt_event_destroy)
#define DRM_IOCTL_HCCLT_EVENT_WAIT \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_EVENT_WAIT, \
		 struct drm_hcclt_event_wait)
#define DRM_IOCTL_HCCLT_NOTIFY_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_NOTIFY_CREATE, \
		 struct drm_hcclt_notify_create)
#define DRM_IOCTL_HCCLT_NOTIFY_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_NOTIFY_DESTROY, \
		struct drm_hcclt_notify_destroy)

/* The type of struct drm_hcclt_event_launch (a driver-private event). */
#define DRM_HCCLT_EVENT_LAUNCH		0x80000000
/* In drm_hcclt_event_launch's @flags: the launch was dropped, not run. */
#define HCCLT_LAUNCH_CANCELLED		0x1U

/**
 * struct drm_hcclt_event_launch - a kernel launch reached the head of its
 * stream (uAPI 1.4, HCCLT_FEATURE_KERNEL_LAUNCH).
 *
 * Read from the DRM file that submitted the HCCLT_TASK_KERNEL_LAUNCH task
 * (read() of the device fd; poll() says when one is there).
 */
struct drm_hcclt_event_launch {
	/** @base: type DRM_HCCLT_EVENT_LAUNCH, length sizeof(this). */
	struct drm_event base;
	/** @cookie: the task's @dst_thread. */
	__u64 cookie;
	/** @handle: the SUBMIT's handle, for DRM_IOCTL_HCCLT_KERNEL_DONE. */
	__u64 handle;
	/** @seqno: the task's stream seqno, for DRM_IOCTL_HCCLT_KERNEL_DONE. */
	__u64 seqno;
	/** @flags: HCCLT_LAUNCH_CANCELLED: do not run it, nothing waits. */
	__u32 flags;
	/** @pad: zero. */
	__u32 pad;
};

#define DRM_HCCLT_KERNEL_DONE		0x18

/*
 * In the @flags of struct drm_hcclt_kernel_done: the worker is about to
 * run the launch. 0: it may (the launch is still the running task of its
 * stream); -ESRCH: it must not, the launch failed (timed out) or was
 * dropped since its event was sent, and a STREAM_SYNC reports or has
 * reported that. The launch is not completed; KERNEL_DONE without the
 * flag does that after the run. A launch that timed out after its START
 * was running when its failure was reported; the driver cannot stop it.
 * Drivers before this flag answer -EINVAL.
 */
#define HCCLT_KERNEL_DONE_START		0x1U

/**
 * struct drm_hcclt_kernel_done - a launched kernel returned (uAPI 1.4),
 * or is about to run (HCCLT_KERNEL_DONE_START).
 *
 * Completes the launch task @seqno of the stream of @handle (as the event
 * gave them), which then goes on; a non-zero @status fails the stream
 * (see HCCLT_TASK_KERNEL_LAUNCH). With HCCLT_KERNEL_DONE_START, only says
 * whether the launch may still run.
 *
 * Errors: -EINVAL unknown bit in @flags, non-zero @pad, non-zero @status
 * with HCCLT_KERNEL_DONE_START; -ENOENT unknown @handle; -ESRCH the launch
 * is not running: it timed out, was cancelled, or was reported done
 * already.
 */
struct drm_hcclt_kernel_done {
	/** @handle: in, the event's @handle. */
	__u64 handle;
	/** @seqno: in, the event's @seqno. */
	__u64 seqno;
	/** @status: in, the kernel's return value; 0 is success. */
	__s32 status;
	/** @flags: in, zero or HCCLT_KERNEL_DONE_START. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u64 pad;
};

#define DRM_IOCTL_HCCLT_KERNEL_DONE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_KERNEL_DONE, \
		struct drm_hcclt_kernel_done)

#define DRM_HCCLT_SET_PARAM		0x1e

/* drm_hcclt_set_param.param */
#define HCCLT_PARAM_FAILURE_MODE	1 /* HCCLT_FEATURE_FAILURE_MODES */
#define HCCLT_PARAM_SATURATION		2 /* HCCLT_FEATURE_SATURATION */

/* Values of HCCLT_PARAM_FAILURE_MODE. */
#define HCCLT_FAILURE_DROP		0
#define HCCLT_FAILURE_CONTINUE		1
#define HCCLT_FAILURE_STOP		2

/* Values of HCCLT_PARAM_SATURATION. */
#define HCCLT_SATURATION_OFF		0
#define HCCLT_SATURATION_ON		1

/**
 * struct drm_hcclt_set_param - set a parameter of a stream or of the file
 * (uAPI 1.8; aclrtSetStreamFailureMode, aclrtSetDeviceSatMode).
 *
 * HCCLT_PARAM_FAILURE_MODE (HCCLT_FEATURE_FAILURE_MODES): what the stream
 * of @handle (a stream id or a thread id) does when one of its tasks
 * fails: a wait times out or loses its notify, a launch fails or times
 * out, a data task fails, an in-fence signals an error. Every failure is
 * reported once by the next DRM_IOCTL_HCCLT_STREAM_SYNC, in every mode.
 *
 * - HCCLT_FAILURE_DROP (every stream's mode until set): the tasks queued
 *   behind the failed one are dropped with its error (the records among
 *   them fail the waits they would have released, see
 *   HCCLT_TASK_NOTIFY_RECORD); tasks submitted afterwards run. This is
 *   what every "dropped" in this header describes.
 * - HCCLT_FAILURE_CONTINUE: only the failed task completes with the error;
 *   the stream goes on with the next task.
 * - HCCLT_FAILURE_STOP: as HCCLT_FAILURE_DROP, and the stream is stopped:
 *   every later DRM_IOCTL_HCCLT_SUBMIT to it is -ECANCELED (its
 *   DRM_IOCTL_HCCLT_STREAM_SYNC still works). A stream never leaves
 *   HCCLT_FAILURE_STOP.
 *
 * With @handle 0 and HCCLT_FAILURE_STOP (the only value allowed then),
 * every stream of the file, those that exist and those made later, is in
 * HCCLT_FAILURE_STOP (the file's context, as Ascend A2 and A3 devices
 * have it). An out-fence that misses its deadline (fence_timeout_ms) fails
 * its stream as HCCLT_FAILURE_DROP does, in every mode: it is a watchdog,
 * not a task's failure. Cancelling a stream (STREAM_DESTROY, COMM_DESTROY,
 * close) drops its tasks in every mode.
 *
 * HCCLT_PARAM_SATURATION (HCCLT_FEATURE_SATURATION), @handle 0: the
 * float results of the reduce tasks (HCCLT_DTYPE_FP16, _FP32, _BF16 and,
 * with HCCLT_FEATURE_REDUCE_EXT, _FP64) of streams made by this file from
 * now on (STREAM_CREATE, THREAD_ACQUIRE)
 * are, with HCCLT_SATURATION_ON, saturated: an infinite result becomes
 * the type's largest finite value of its sign, a NaN result becomes +0;
 * with HCCLT_SATURATION_OFF (the default) they are IEEE 754's. Streams
 * made before keep their mode.
 *
 * Errors: -EINVAL: non-zero @flags, an unknown @param, a @value out of
 * range, a non-zero @handle for HCCLT_PARAM_SATURATION, @handle 0 for
 * HCCLT_PARAM_FAILURE_MODE with another value than HCCLT_FAILURE_STOP;
 * -ENOENT: @handle is not a stream or thread of this file; -EBUSY: the
 * stream is in HCCLT_FAILURE_STOP (its own or its file's) and @value is
 * another mode.
 */
struct drm_hcclt_set_param {
	/** @handle: in, a stream id, a thread id, or 0 for the file. */
	__u64 handle;
	/** @param: in, HCCLT_PARAM_*. */
	__u32 param;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @value: in, the parameter's new value. */
	__u64 value;
};

#define DRM_IOCTL_HCCLT_SET_PARAM \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_SET_PARAM, \
		struct drm_hcclt_set_param)

#define DRM_HCCLT_OP_INFO		0x1f

/* drm_hcclt_op_info.phase, drm_hcclt_op_label.phase */
#define HCCLT_OP_PHASE_NONE		0 /* no operator registered yet */
#define HCCLT_OP_PHASE_REGISTERED	1 /* registered, not launched */
#define HCCLT_OP_PHASE_KERNEL		2 /* a kernel of it was reported */
#define HCCLT_OP_PHASE_REPORTED		3 /* reported issued (profiling) */

/* Bytes of an algorithm tag (CANN's HCOMM_ALG_TAG_LENGTH), NUL included. */
#define HCCLT_OP_TAG_LEN		288
/* Bytes of a kernel name, NUL included. */
#define HCCLT_OP_KERNEL_LEN		64

/**
 * struct drm_hcclt_op_label - the operator a communicator runs or ran last
 * (uAPI 1.11), as DRM_IOCTL_HCCLT_OP_INFO set it.
 */
struct drm_hcclt_op_label {
	/**
	 * @stream_id: the stream of the thread the operator named as its
	 * host thread (CANN's cpuTsThread), in the communicator's file; 0
	 * when it named none.
	 */
	__u64 stream_id;
	/** @op_index: 1 for the first operator registered on it, and so on. */
	__u64 op_index;
	/** @data_count: elements, as registered. */
	__u64 data_count;
	/** @since_ns: CLOCK_MONOTONIC time @phase was entered. */
	__u64 since_ns;
	/** @phase: HCCLT_OP_PHASE_*. */
	__u32 phase;
	/** @op_type: as registered (CANN's HcclCMDType). */
	__u32 op_type;
	/** @reduce_op: as registered (CANN's HcclReduceOp). */
	__u32 reduce_op;
	/** @data_type: as registered (CANN's HcclDataType). */
	__u32 data_type;
	/** @engine: as registered (CANN's CommEngine). */
	__u32 engine;
	/** @root: as registered. */
	__u32 root;
	/** @alg_tag: the algorithm tag, NUL-terminated. */
	char alg_tag[HCCLT_OP_TAG_LEN];
	/** @kernel: the last kernel reported (HCCLT_OP_PHASE_KERNEL) or "". */
	char kernel[HCCLT_OP_KERNEL_LEN];
};

/**
 * struct drm_hcclt_info_op - the operator of one communicator, as
 * DRM_IOCTL_HCCLT_INFO_ARRAY lists it with HCCLT_INFO_TYPE_OPS (uAPI 1.11):
 * one entry per communicator, HCCLT_OP_PHASE_NONE when nothing was
 * registered on it. May grow at its end.
 */
struct drm_hcclt_info_op {
	/** @file_id: the file holding it, as in struct drm_hcclt_info_comm. */
	__u64 file_id;
	/** @comm_id: the communicator, in that file. */
	__u64 comm_id;
	/** @pid: as in struct drm_hcclt_comm_info. */
	__u32 pid;
	/** @pad: zero. */
	__u32 pad;
	/** @op: the operator. */
	struct drm_hcclt_op_label op;
};

/**
 * struct drm_hcclt_op_info - label a communicator with the operator it runs
 * (uAPI 1.11, HCCLT_FEATURE_OP_INFO; CANN's HcclDfxRegOpInfoByCommId,
 * HcclReportAicpuKernel, HcclReportAivKernel and HcclProfilingReportOp).
 *
 * The label is the communicator's, in the kernel, so that
 * DRM_IOCTL_HCCLT_INFO_ARRAY (HCCLT_INFO_TYPE_OPS) shows it to another
 * process (hcclthread-smi); every call also hits the tracepoint hcclt_op.
 *
 * - HCCLT_OP_PHASE_REGISTERED: a new operator: the label takes @op_type,
 *   @reduce_op, @data_type, @engine, @root, @data_count, @alg_tag, the
 *   stream of @thread_id (0, or a thread or exported view of @comm_id) and
 *   the next @op_index, which is returned; its kernel name is cleared.
 *   @begin_ns and @kernel must be zero.
 * - HCCLT_OP_PHASE_KERNEL: a kernel of the registered operator ran from
 *   @begin_ns until now; the label takes @kernel.
 * - HCCLT_OP_PHASE_REPORTED: the operator was issued, from @begin_ns
 *   until now.
 *
 * For the last two, @begin_ns is a CLOCK_MONOTONIC time not after the
 * call (0: now), and every other input but @comm_id, @phase and @kernel
 * must be zero; @op_index returns the operator's. Nothing is queued on a
 * stream: the label says what the calling process is doing, not what the
 * device has done.
 *
 * Errors: -EINVAL: non-zero @flags, @pad or @reserved, an unknown @phase,
 * @alg_tag or @kernel without a NUL, an input the phase does not take,
 * @begin_ns after now; -ENOENT: @comm_id is not a communicator of this
 * file, @thread_id not a thread of it, or no operator was registered on
 * it (HCCLT_OP_PHASE_KERNEL, _REPORTED).
 */
struct drm_hcclt_op_info {
	/** @comm_id: in, the communicator. */
	__u64 comm_id;
	/** @thread_id: in, REGISTERED: the operator's host thread, or 0. */
	__u64 thread_id;
	/** @begin_ns: in, KERNEL and REPORTED: CLOCK_MONOTONIC start, or 0. */
	__u64 begin_ns;
	/** @data_count: in, REGISTERED. */
	__u64 data_count;
	/** @op_index: out, the operator's index on the communicator. */
	__u64 op_index;
	/** @phase: in, HCCLT_OP_PHASE_REGISTERED, _KERNEL or _REPORTED. */
	__u32 phase;
	/** @op_type: in, REGISTERED. */
	__u32 op_type;
	/** @reduce_op: in, REGISTERED. */
	__u32 reduce_op;
	/** @data_type: in, REGISTERED. */
	__u32 data_type;
	/** @engine: in, REGISTERED. */
	__u32 engine;
	/** @root: in, REGISTERED. */
	__u32 root;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
	/** @reserved: in, must be zero. */
	__u64 reserved[2];
	/** @alg_tag: in, REGISTERED: NUL-terminated; else all zero. */
	char alg_tag[HCCLT_OP_TAG_LEN];
	/** @kernel: in, KERNEL: NUL-terminated; else all zero. */
	char kernel[HCCLT_OP_KERNEL_LEN];
};

#define DRM_IOCTL_HCCLT_OP_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_OP_INFO, \
		 struct drm_hcclt_op_info)

#define DRM_HCCLT_FILE_ATTACH		0x20

/**
 * struct drm_hcclt_file_attach - act for another open file of the device
 * (uAPI 1.12, HCCLT_FEATURE_FILE_ATTACH).
 *
 * After it, every hcclthread ioctl of the calling file works on the
 * communicators, streams, threads, events and notifies of the file @fd
 * names, and resolves GEM handles in data tasks among that file's: the
 * calling file acts for it, is charged as it is, and a launch it queues
 * sends its event to it. DRM core objects (GEM handles the calling file
 * makes, syncobjs) stay the calling file's. The calling file keeps @fd's
 * file open until it is closed itself.
 *
 * This is how libhcclthread's AI CPU core processes use the application's
 * objects through a file of their own: from Linux 6.8 the DRM core
 * re-owns a file to the last process that made an ioctl on it, waiting
 * for an RCU grace period each time the process changes, so two processes
 * alternating ioctls on one file pay a grace period per switch. Holding
 * @fd already gives every right this grants.
 *
 * Errors: -EINVAL non-zero @flags or @reserved, @fd not a file of this
 * device, @fd the calling file itself, or a file that acts for another
 * one itself; -EBADF @fd not open; -EBUSY the calling file acts for a
 * file already, another file acts for it, or it has communicators,
 * streams, threads, events or notifies of its own.
 */
struct drm_hcclt_file_attach {
	/** @fd: in, an open file of the same device. */
	__s32 fd;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @reserved: in, must be zero. */
	__u64 reserved;
};

#define DRM_IOCTL_HCCLT_FILE_ATTACH \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_FILE_ATTACH, \
		struct drm_hcclt_file_attach)

#define DRM_HCCLT_MEM_REG		0x21
#define DRM_HCCLT_MEM_UNREG		0x22
#define DRM_HCCLT_CHANNEL_MEMS		0x23

/* Bytes of a registered range's tag (CANN's HCCL_RES_TAG_MAX_LEN + NUL). */
#define HCCLT_MEMREG_TAG_LEN		256
/* Most ranges registered on one communicator at a time. */
#define HCCLT_MAX_MEMREGS		256

/**
 * struct drm_hcclt_mem_reg - register a range of device memory with a
 * communicator (uAPI 1.13, HCCLT_FEATURE_MEMREG; CANN's HcclCommMemReg).
 *
 * The range [@offset, @offset + @size) of the memory object @handle
 * becomes a kernel object of the communicator, named by @reg_id and
 * @tag. Every peer the communicator has a channel to sees it
 * (DRM_IOCTL_HCCLT_CHANNEL_MEMS) and may name it in WRITE and READ tasks
 * (struct drm_hcclt_task's @dst_handle, @src_handle), whose byte range is
 * checked against the registered range, not the object. The registration
 * ends with DRM_IOCTL_HCCLT_MEM_UNREG or the communicator's teardown (its
 * destroy, its file's close, its process's death): it is then revoked,
 * as a rank's HCCL buffer is (a peer's task reaching it, queued or
 * running, fails with -ECONNRESET at its next chunk; none touches it once
 * the unregistration or the teardown has returned). The object itself is
 * held until then and stays the caller's. (uAPI 1.17) A peer of another
 * host is the exception: a chunk of at most 1 MiB that its host had
 * mapped before may still land or be read until that host is done with it
 * (its XDONE) or the mapping's deadline (module parameter xfer_map_ms,
 * 30 s by default) takes the link down (Documentation/clusters.rst,
 * "Security model").
 *
 * Errors, in the order checked: -EINVAL (@flags or @pad not zero, @size
 * zero, @tag empty or not NUL-terminated within HCCLT_MEMREG_TAG_LEN),
 * -ENOENT (no such communicator or memory object), -ERANGE (the range is
 * not inside the object), -ENOENT (the communicator is being torn down),
 * -EEXIST
 * (@tag is registered on the communicator already), -ENOSPC
 * (HCCLT_MAX_MEMREGS ranges registered), -ENOMEM.
 */
struct drm_hcclt_mem_reg {
	/** @comm_id: in, the communicator. */
	__u64 comm_id;
	/** @offset: in, byte offset of the range in the object. */
	__u64 offset;
	/** @size: in, bytes of the range. */
	__u64 size;
	/** @handle: in, GEM handle of the object in this file. */
	__u32 handle;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @reg_id: out, the range's id in the communicator, never 0. */
	__u32 reg_id;
	/** @pad: in, must be zero. */
	__u32 pad;
	/** @tag: in, the range's name in the communicator, NUL-terminated. */
	char tag[HCCLT_MEMREG_TAG_LEN];
};

/**
 * struct drm_hcclt_mem_unreg - end a registration (uAPI 1.13;
 * CANN's HcclCommDeregMem).
 *
 * Revokes the range from the peers (see struct drm_hcclt_mem_reg) and
 * frees its id. Errors: -EINVAL (@pad not zero), -ENOENT (no such
 * communicator, or @reg_id not registered on it).
 */
struct drm_hcclt_mem_unreg {
	/** @comm_id: in, the communicator. */
	__u64 comm_id;
	/** @reg_id: in, the range's id. */
	__u32 reg_id;
	/** @pad: in, must be zero. */
	__u32 pad;
};

/**
 * struct drm_hcclt_remote_mem - one range a channel's peer registered.
 */
struct drm_hcclt_remote_mem {
	/** @reg_id: its id in the peer's communicator. */
	__u32 reg_id;
	/** @pad: zero. */
	__u32 pad;
	/** @size: bytes of the range. */
	__u64 size;
	/** @tag: its tag, NUL-terminated. */
	char tag[HCCLT_MEMREG_TAG_LEN];
};

/**
 * struct drm_hcclt_channel_mems - the ranges a channel's peer has
 * registered (uAPI 1.13; CANN's HcclChannelGetRemoteMems).
 *
 * Writes the first @count of them (by id) to @mems_ptr and sets @count to
 * how many there are. Errors, in the order checked: -EINVAL (@flags not
 * zero, @mem_size not sizeof(struct drm_hcclt_remote_mem)), -ENOENT (no
 * such communicator or channel), -ECONNRESET (the peer is gone), -EFAULT.
 *
 * (uAPI 1.17, HCCLT_FEATURE_CLUSTER_MEMREG) A peer on another host: its
 * host is asked over the link, one round trip per range (ranges
 * registered or unregistered meanwhile may or may not be listed), and
 * these may fail too: -ECONNRESET (the link went down), -ETIMEDOUT (no
 * answer in 30 s), -EINTR (the caller was killed), -EIO (the peer's host
 * broke the protocol), -EBUSY and -ENOMEM (no request id left for it).
 */
struct drm_hcclt_channel_mems {
	/** @comm_id: in, the communicator. */
	__u64 comm_id;
	/** @channel_id: in, a channel of @comm_id. */
	__u64 channel_id;
	/** @mems_ptr: in, user pointer to @count entries. */
	__u64 mems_ptr;
	/** @count: in, entries at @mems_ptr; out, ranges the peer has. */
	__u32 count;
	/** @mem_size: in, sizeof(struct drm_hcclt_remote_mem). */
	__u32 mem_size;
	/** @flags: in, must be zero. */
	__u32 flags;
	/** @pad: in, must be zero. */
	__u32 pad;
};

#define DRM_IOCTL_HCCLT_MEM_REG \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_MEM_REG, \
		 struct drm_hcclt_mem_reg)
#define DRM_IOCTL_HCCLT_MEM_UNREG \
	DRM_IOW(DRM_COMMAND_BASE + DRM_HCCLT_MEM_UNREG, \
		struct drm_hcclt_mem_unreg)
#define DRM_IOCTL_HCCLT_CHANNEL_MEMS \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_HCCLT_CHANNEL_MEMS, \
		 struct drm_hcclt_channel_mems)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_DRM_HCCLTHREAD_ACCEL_H_ */
