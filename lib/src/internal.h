/* SPDX-License-Identifier: MIT */
/*
 * libhcclthread internals: devices, object structs, handle encoding and the
 * errno mapping. Not installed.
 */
#ifndef HCCLT_INTERNAL_H_
#define HCCLT_INTERNAL_H_

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "hcclthread_accel.h"
#include "hccl/hccl_types.h"
#include "acl/acl_rt.h"
#include "hcclthread.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"
#include "acl/acl.h"
#include "hccl/hccl_res.h"
#include "hccl/hcomm_primitives.h"

#define HCCLT_EXPORT __attribute__((visibility("default")))

struct json_object;

/* ThreadHandle layout: id 55:0, device 59:56, fork generation 63:60. */
#define HCCLT_HANDLE_ID_MASK	((UINT64_C(1) << 56) - 1)
#define HCCLT_HANDLE_DEV_SHIFT	56
#define HCCLT_HANDLE_GEN_SHIFT	60

#define HCCLT_COMM_MAGIC	0x4843434dU	/* "HCCM" */
#define HCCLT_STREAM_MAGIC	0x48435354U	/* "HCST" */
#define HCCLT_DEAD_MAGIC	0x44454144U	/* "DEAD" */
#define HCCLT_EVENT_MAGIC	0x48434556U	/* "HCEV" */
#define HCCLT_NOTIFY_MAGIC	0x48434e54U	/* "HCNT" */
#define HCCLT_CTX_MAGIC		0x48434358U	/* "HCCX" */

/*
 * What an HcclComm points to. Made by hcclt_obj_alloc(), given back by
 * hcclt_obj_free(); magic is stored last (release) when it is made, and
 * is HCCLT_DEAD_MAGIC while the struct waits for reuse.
 */
struct hcclt_comm {
	_Atomic uint32_t magic;	/* HCCLT_COMM_MAGIC while alive */
	uint32_t gen;		/* fork generation it was made in */
	int32_t dev;		/* device index */
	uint32_t pad;
	uint64_t id;		/* kernel communicator id */
	uint32_t rank;		/* its rank in its group */
	uint32_t nranks;	/* ranks of the group */
	uint64_t buf_size;	/* HCCL buffer size in bytes (config or default) */
	char name[128];		/* HcclGetCommName() */
	/* The HCCL buffer (mem.c), once made; under mem.c's buf_lock. */
	void *buf_addr;		/* its mapping, NULL before */
	uint64_t buf_len;	/* bytes HcclGetHcclBuffer() reports */
	uint64_t buf_map_len;	/* bytes mapped */
	uint32_t buf_handle;	/* its GEM handle in the device's file */
	uint32_t pad2;
};

/* What an aclrtStream points to; made and given back as a comm is. */
struct hcclt_stream {
	_Atomic uint32_t magic;	/* HCCLT_STREAM_MAGIC while alive */
	uint32_t gen;
	int32_t dev;
	uint32_t pad;
	uint64_t id;		/* kernel stream id */
	uint8_t unused[176];	/* a comm's group fields: one reuse queue */
};

/*
 * The per-communicator quota of a device, as its driver enforces it
 * (DRM_IOCTL_HCCLT_QUERY; the seed rules for a driver without
 * HCCLT_FEATURE_QUOTA_RULES).
 */
struct hcclt_quota {
	uint32_t rules;		/* HCCLT_QUOTA_RULES_* */
	uint32_t flags;		/* HCCLT_QUOTA_F_* */
	uint32_t max_threads;	/* threads of a communicator */
	uint32_t max_notifies;	/* notifies of a communicator */
	uint32_t max_per_call;	/* threads of one HcclThreadAcquire */
	uint32_t max_npt;	/* notifies per thread of one HcclThreadAcquire */
};

/* Devices (device.c). */
int hcclt_device_count(void);
int hcclt_device_open(int dev);
int hcclt_device_fd_fast(int dev);
int hcclt_device_adopt(int dev, int fd, uint32_t gen);
uint64_t hcclt_device_features(int dev);

/*
 * The simulated servers (QUERY, uAPI 1.14): card N of the driver is on
 * server N / server_devices; servers 1 and server_devices 0 on a driver
 * without them (everything on server 0).
 */
struct hcclt_servers {
	uint32_t servers;	/* servers of the driver */
	uint32_t server_devices;	/* cards per server */
	uint32_t server;	/* this card's server */
	uint32_t card;		/* this card's number (GROUP_INFO's device) */
	uint32_t cluster_addr;	/* QUERY's (uAPI 1.15), 0: in no cluster */
};

void hcclt_servers_from_query(const struct drm_hcclt_query *q, struct hcclt_servers *s);
const struct hcclt_servers *hcclt_device_servers(int dev);

/*
 * Where the ranks of a communicator are (rank_graph.c): each rank's host
 * and card, and from them its server and superpod. The hcclt_topo_*()
 * functions answer the rank graph's questions from it alone (the unit
 * tests call them with layouts of their own).
 */
#define HCCLT_TOPO_MAX_RANKS	(HCCLT_MAX_DEVICES * 4)

enum hcclt_topo_soc { HCCLT_TOPO_A2, HCCLT_TOPO_A3, HCCLT_TOPO_950 };

struct hcclt_topo {
	uint32_t nranks;
	uint32_t rank;			/* the asking rank */
	enum hcclt_topo_soc soc;
	uint32_t per_server;		/* cards per server; 0: a host is one server */
	uint32_t host_servers;		/* servers of a host (this host's) */
	uint32_t nservers;		/* distinct servers of the ranks */
	uint32_t npods;			/* distinct hosts of the ranks */
	uint32_t nlayers;		/* 1-3 */
	uint32_t card[HCCLT_TOPO_MAX_RANKS];	/* on its host; UINT32_MAX: unknown */
	uint64_t host[HCCLT_TOPO_MAX_RANKS];	/* address << 16 | port; 0: this host */
	uint32_t server[HCCLT_TOPO_MAX_RANKS];
	uint32_t pod[HCCLT_TOPO_MAX_RANKS];	/* its host, by lowest rank */
};

int hcclt_topo_place(struct hcclt_topo *t);
uint32_t hcclt_topo_inst(const struct hcclt_topo *t, uint32_t layer, uint32_t *ranks);
uint32_t hcclt_topo_sizes(const struct hcclt_topo *t, uint32_t layer, uint32_t *sizes);
int32_t hcclt_topo_link(const struct hcclt_topo *t, uint32_t layer, uint32_t src, uint32_t dst);
int32_t hcclt_topo_need(const struct hcclt_topo *t, uint32_t dst);
int hcclt_rank_graph_protocols(const struct hcclt_comm *c, int32_t *need);
void hcclt_rank_graph_learn(const struct hcclt_comm *c);
const struct hcclt_quota *hcclt_device_quota(int dev);
void hcclt_quota_from_query(const struct drm_hcclt_query *q,
			    struct hcclt_quota *qt);
const char *hcclt_device_node(int dev);
uint32_t hcclt_gen(void);
int hcclt_ioctl(int fd, unsigned long req, void *arg);
int64_t hcclt_deadline_ns(int32_t timeout_ms);
int hcclt_stream_sync(int fd, uint64_t handle, int32_t timeout_ms);
void hcclt_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* HCCL_CONNECT_TIMEOUT in ms, or -1 when it is not a number of seconds. */
int32_t hcclt_connect_timeout_ms(void);

/* Communicator names per device of this process (group.c). */
void hcclt_names_atfork_prepare(void);
void hcclt_names_atfork_release(void);

/* The calling thread's current device, -1 when none (acl.c). */
int32_t hcclt_current_device(void);

/* Handles and objects (objects.c). */
ThreadHandle hcclt_handle_make(int dev, uint64_t id);
int hcclt_handle_parse(ThreadHandle h, int *dev, uint64_t *id);
void *hcclt_obj_alloc(void);
void hcclt_obj_free(void *obj);
int hcclt_obj_claim(_Atomic uint32_t *magic, uint32_t live);
void hcclt_obj_atfork_prepare(void);
void hcclt_obj_atfork_release(void);
struct hcclt_comm *hcclt_comm_get(HcclComm comm);
struct hcclt_stream *hcclt_stream_get(aclrtStream stream);
#define HCCLT_INFO_PARTIAL_COMMS	1
#define HCCLT_INFO_PARTIAL_THREADS	2
int hcclt_info_fetch(int fd, struct drm_hcclt_comm_info **comms, uint32_t *ncomms,
		     struct drm_hcclt_thread_info **threads, uint32_t *nthreads,
		     int *partial);
int hcclt_info_find_thread(int fd, uint64_t id, struct drm_hcclt_thread_info *out);

/*
 * Streams known to be idle (idle.c): a sync of one returns without an
 * ioctl. Read the epoch before a SUBMIT and note the SUBMIT's result after;
 * forget after destroying a communicator or a stream.
 */
uint64_t hcclt_idle_epoch(void);
void hcclt_idle_note(int dev, uint64_t handle,
		     const struct drm_hcclt_submit *sub, uint64_t epoch);
int hcclt_idle_check(int dev, uint64_t handle);
void hcclt_idle_forget(void);
void hcclt_idle_share(_Atomic uint64_t *shared);
void hcclt_idle_disable(void);
void hcclt_idle_atfork_prepare(void);
void hcclt_idle_atfork_parent(void);
void hcclt_idle_atfork_child(void);

/* A ChannelHandle of device @dev: its kernel id (channel.c); 0 or -1. */
int hcclt_channel_parse(ChannelHandle h, int dev, uint64_t *id);

/*
 * A piece of a device range in one memory object (mem.c): its GEM handle
 * (0 for a channel peer's buffer, whose channel id is @chan, else 0), the
 * offset in it and the bytes.
 */
struct hcclt_seg {
	uint32_t handle;
	uint32_t pad;
	uint64_t off;
	uint64_t chan;
	uint64_t len;
};

/* Most pieces of one range: mappings it runs across (vmm.c). */
#define HCCLT_MAX_SEGS	64

/*
 * Device memory of @dev holding [@p, @p + @len) (mem.c), one piece per
 * memory object (one but across adjacent mappings of a reservation): the
 * number of pieces in @segs, -1 when no allocation holds it, -2 when it
 * has more than @max pieces.
 */
int hcclt_mem_segments(int dev, const void *p, uint64_t len, struct hcclt_seg *segs,
		       int max);

/*
 * The copy tasks of a destination and a source cut into pieces (equal
 * lengths in all): the number of tasks, at most @nd + @ns - 1, filled in
 * @tasks (handles, offsets and lengths; the rest zero) unless NULL.
 */
int hcclt_seg_tasks(const struct hcclt_seg *d, int nd, const struct hcclt_seg *s, int ns,
		    struct drm_hcclt_task *tasks);

/* A mapping of physical memory at reserved addresses (vmm.c, mem.c). */
int hcclt_mem_vmap_add(uintptr_t base, size_t size, int dev, uint32_t handle,
		       uint64_t mmap_off, uintptr_t resv);

/*
 * The device address window (vas.c): every mapping of device memory is
 * placed in [HCCLT_VAS_BASE, HCCLT_VAS_BASE + HCCLT_VAS_SIZE), 16 TiB
 * from 16 TiB, which no ordinary process uses, so that the AI CPU process
 * can map the same objects at the same addresses. hcclt_vas_mmap() is
 * mmap() at a free place of the window (MAP_FIXED_NOREPLACE added),
 * aligned to @align (0: a page); hcclt_vas_munmap() unmaps and frees it.
 */
#define HCCLT_VAS_BASE	((uintptr_t)1 << 44)
#define HCCLT_VAS_SIZE	((size_t)1 << 44)
void *hcclt_vas_mmap(size_t len, size_t align, int prot, int flags, int fd, off_t off);
void hcclt_vas_munmap(void *p, size_t len);
void hcclt_vas_atfork_prepare(void);
void hcclt_vas_atfork_parent(void);
void hcclt_vas_atfork_child(void);

/*
 * A device mapping as the AI CPU process gets it (mem.c, aicpu.c): where,
 * how long, which object (GEM handle and mmap() offset in the shared
 * device file; a peer's buffer by communicator and channel) and its
 * struct alloc kind.
 */
struct hcclt_aicpu_map {
	uint64_t base;
	uint64_t size;		/* bytes the range checks allow */
	uint64_t map_len;	/* bytes mapped */
	uint64_t mmap_off;
	uint64_t comm;
	uint64_t chan;
	uint32_t handle;
	int32_t kind;
};

/* The kind of a channel peer's buffer (mem.c's ALLOC_PEER_BUF). */
#define HCCLT_MAP_PEER_BUF	2
/* A range a channel's peer registered (ALLOC_PEER_REG): reserved only. */
#define HCCLT_MAP_PEER_REG	4

/*
 * The address of channel @chan's peer's registered range @id (@size
 * bytes) in this process, reserved in the device window on first use;
 * NULL when it cannot be (mem.c).
 */
void *hcclt_mem_peer_reg(const struct hcclt_comm *c, uint64_t chan, uint32_t id,
			 uint64_t size);

int hcclt_mem_snapshot(int dev, struct hcclt_aicpu_map **out);

/*
 * A kernel launch as the application keeps it (kernel.c, aicpu.c): the
 * DRM event's cookie. @path, @symbol and @name point into @args's tail.
 */
struct hcclt_launch {
	struct hcclt_launch *next;	/* aicpu.c's queue of launches */
	const char *path;		/* the kernel's shared object */
	const char *symbol;		/* its function */
	const char *name;		/* the descriptor's entry */
	uint32_t blocks;
	uint32_t timeout_s;		/* 0: none */
	uint64_t seqno;			/* the event's */
	uint64_t handle;		/* the event's */
	int64_t deadline;		/* CLOCK_MONOTONIC ns to stop it by; 0 */
	const unsigned char *holders;	/* placeholders (aicpu.h), in the tail */
	size_t holders_len;
	uint32_t nholders;
	uint32_t pad;
	size_t len;			/* bytes of the argument block */
	unsigned char args[];
};

/*
 * The AI CPU of @dev (aicpu.c): started for this process with the first
 * launch on it; 0 or -1.
 */
int hcclt_aicpu_ensure(int dev, int fd);
/*
 * What the AI CPU is told with a launch changed (aicpu.c): the device
 * mappings (mem.c) or the communicator names (group.c); a launch resends
 * them only then.
 */
void hcclt_aicpu_state_changed(void);
/*
 * Device memory of @dev left the table: as state_changed, and the idle
 * cores of @dev drop their mappings before it returns (up to 2 s), so
 * that freeing it returns its capacity; busy ones do after their launch.
 */
void hcclt_aicpu_memory_gone(int dev);
void hcclt_aicpu_atfork_prepare(void);
void hcclt_aicpu_atfork_parent(void);
void hcclt_aicpu_atfork_child(void);
int hcclt_mem_adopt(int dev, const struct hcclt_aicpu_map *m, size_t n);
int hcclt_mem_vmap_del(uintptr_t base);

/* Device memory on @dev (mem.c; aclrtFree() frees it). */
aclError hcclt_dev_alloc(int32_t dev, size_t size, void **devPtr);
/* Engine contexts of a communicator being destroyed (engine_ctx.c). */
void hcclt_ctx_comm_gone(struct hcclt_comm *c);

/* Communicator names (group.c). */
int hcclt_name_exists(int32_t dev, const char *name);
long hcclt_names_snapshot(int32_t dev, char **out);
void hcclt_names_adopt(int32_t dev, const char *blob, size_t len);
uint64_t hcclt_name_comm_id(int32_t dev, const char *name);

/*
 * Communicators (group.c): HCCL_BUFFSIZE in bytes (0: not a number);
 * CANN's CommConfig::Load; joining rank @rank of the group with @key
 * (HCCLT_GROUP_KEY_BYTES) on @dev, waiting until @deadline_ns at most.
 */
uint64_t hcclt_env_buf_size(void);
HcclResult hcclt_config_load(const HcclCommConfig *config, uint64_t *buf_size,
			     const char **name);
/* The host whose driver made a group (network order; addr 0: this one). */
struct hcclt_root_host {
	uint32_t addr;
	uint16_t port;
};

HcclResult hcclt_comm_join(int32_t dev, uint32_t nranks, const uint8_t *key,
			   const struct hcclt_root_host *root, uint32_t rank,
			   int64_t deadline_ns, uint64_t buf_size, const char *name,
			   struct hcclt_comm **out);

/* A communicator of a rank table being destroyed; fork() (cluster.c). */
void hcclt_cluster_comm_gone(const struct hcclt_comm *c);
/* A communicator being destroyed: its ranks' cards are forgotten (rank_graph.c). */
void hcclt_rank_graph_comm_gone(const struct hcclt_comm *c);
void hcclt_cluster_atfork_prepare(void);
void hcclt_cluster_atfork_parent(void);
void hcclt_cluster_atfork_child(void);

/*
 * Memory activated on communicators (commmem.c): a communicator being
 * destroyed; device memory of @dev at [@base, @base + @size) freed.
 */
void hcclt_commmem_comm_gone(const struct hcclt_comm *c);
void hcclt_memreg_comm_gone(const struct hcclt_comm *c);
void hcclt_commmem_forget(int dev, uintptr_t base, size_t size);

/*
 * Is [@p, @p + @len) inside one aclrtMalloc() allocation of @dev (not an
 * HCCL buffer, not host memory)? (mem.c)
 */
int hcclt_mem_is_own_device(int dev, const void *p, uint64_t len);

/*
 * A rank table (ranktable.c): the file's bytes hashed and parsed by
 * hcclt_ranktable_load(), its ranks checked by hcclt_ranktable_check().
 */
#define HCCLT_RANKTABLE_DIGEST_BYTES	32
struct hcclt_ranktable {
	struct json_object *root;	/* the file, parsed */
	uint8_t digest[HCCLT_RANKTABLE_DIGEST_BYTES];	/* SHA-256 of its bytes */
	uint32_t nranks;		/* after the check */
	int32_t *dev;			/* dev[r]: device of rank r, after the check */
};
HcclResult hcclt_ranktable_load(const char *path, int64_t deadline_ns,
				struct hcclt_ranktable *rt);
HcclResult hcclt_ranktable_check(struct hcclt_ranktable *rt, uint32_t rank, int32_t dev,
				 int ndev);
void hcclt_ranktable_free(struct hcclt_ranktable *rt);
void hcclt_sha256(const void *data, size_t len, uint8_t out[32]);

/*
 * Batch mode (devapi.c): while the calling OS thread is in one, tasks are
 * kept instead of submitted: 1 when @task was kept, 0 when not in batch
 * mode, a negative errno.
 */
int hcclt_batch_add(int fd, int dev, uint64_t id, const struct drm_hcclt_task *task);

/* Queue one task (primitives.c); 0 or a negative errno. */
int hcclt_submit_one(int fd, int dev, uint64_t id,
		     const struct drm_hcclt_task *task);
/* Queue @n tasks in one submit (all or none); 0 or a negative errno. */
int hcclt_submit_many(int fd, int dev, uint64_t id,
		      const struct drm_hcclt_task *tasks, uint32_t n);

/* ACL profiling (prof.c). */
void hcclt_prof_atfork_prepare(void);
void hcclt_prof_atfork_parent(void);
void hcclt_prof_atfork_child(void);

/* ACL virtual memory (vmm.c). */
void hcclt_vmm_atfork_prepare(void);
void hcclt_vmm_atfork_parent(void);
void hcclt_vmm_atfork_child(void);

/*
 * The process's float overflow mode (acl.c, aclrtSetDeviceSatMode()):
 * apply it to device @dev just opened through @fd (device.c, dev_lock
 * held).
 */
void hcclt_sat_device_opened(int dev, int fd);

/* ACL memory (mem.c). */
void hcclt_mem_atfork_prepare(void);
void hcclt_mem_atfork_parent(void);
void hcclt_mem_atfork_child(void);
void hcclt_mem_comm_gone(struct hcclt_comm *c);

/* Which call an errno comes from: selects the row of the mapping table. */
enum hcclt_op {
	HCCLT_OP_DEVICE_HCCL,	/* opening a device for an HCCL call */
	HCCLT_OP_DEVICE_ACL,	/* opening a device for an ACL call */
	HCCLT_OP_COMM_CREATE,
	HCCLT_OP_COMM_DESTROY,
	HCCLT_OP_ACQUIRE,
	HCCLT_OP_ACQUIRE_STREAM,
	HCCLT_OP_EXPORT,
	HCCLT_OP_RECORD,
	HCCLT_OP_WAIT,
	HCCLT_OP_INFO,		/* hccltCommGetUsage, hccltThreadGetInfo */
	HCCLT_OP_THREAD_FENCE,	/* hccltThreadGetCompletionFd */
	HCCLT_OP_STREAM_CREATE,
	HCCLT_OP_STREAM_DESTROY,
	HCCLT_OP_STREAM_SYNC,
	HCCLT_OP_STREAM_FENCE,	/* hccltStreamGetCompletionFd */
	HCCLT_OP_GROUP_CREATE,	/* HcclGetRootInfo */
	HCCLT_OP_GROUP_JOIN,	/* HcclCommInitRootInfo[Config] */
	HCCLT_OP_MEM_CREATE,	/* aclrtMalloc: MEM_CREATE and its mmap() */
	HCCLT_OP_CHANNEL_ACQUIRE,	/* HcclChannelAcquire */
	HCCLT_OP_CHANNEL_TASK,	/* HcommChannelNotify{Record,Wait}OnThread */
	HCCLT_OP_COMM_BUFFER,	/* HcclGetHcclBuffer: COMM_BUFFER and mmap() */
	HCCLT_OP_CHANNEL_BUFFER,	/* HcclChannelGetHcclBuffer */
	HCCLT_OP_DATA_TASK,	/* Hcomm{LocalCopy,Write,Read}OnThread */
	HCCLT_OP_MEMCPY_ASYNC,	/* aclrtMemcpyAsync */
	HCCLT_OP_LAUNCH,	/* aclrtLaunchKernelWithConfig */
	HCCLT_OP_BATCH,		/* HcommBatchModeEnd: the batch's SUBMITs */
	HCCLT_OP_EVENT_CREATE,	/* aclrtCreateEvent[WithFlag] */
	HCCLT_OP_EVENT,		/* the other event calls, ACL tasks on streams */
	HCCLT_OP_NOTIFY_CREATE,	/* aclrtCreateNotify */
	HCCLT_OP_ACL_NOTIFY_TASK,	/* HcommAclrtNotify{Record,Wait}OnThread */
	HCCLT_OP_EVENT_RESET,	/* aclrtResetEvent */
	HCCLT_OP_SET_PARAM,	/* aclrtSetStreamFailureMode, aclrtSetDeviceSatMode */
	HCCLT_OP_OP_INFO,	/* HcclDfxRegOpInfoByCommId, the profiling reports */
	HCCLT_OP_MEM_REG,	/* HcclCommMemReg, HcclCommDeregMem */
	HCCLT_OP_CHANNEL_MEMS,	/* HcclChannelGetRemoteMems */
	HCCLT_OP_COUNT
};

/* Maps -errno of @op to the HcclResult or aclError the call returns. */
int32_t hcclt_map_errno(enum hcclt_op op, int err);

#endif /* HCCLT_INTERNAL_H_ */
