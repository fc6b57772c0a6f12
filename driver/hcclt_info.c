// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the INFO and INFO_ARRAY ioctls, which list communicators and
 * threads of the calling file or of the files the caller may inspect.
 *
 * No walk holds hdev->files_lock: files are taken one at a time, with a
 * reference, by hcclt_file_next(), and each is walked under its own
 * file->lock (and comm->lock for a communicator's counters), which only
 * that file's destroys and its close wait for. INFO_ARRAY bounds what one
 * call does (HCCLT_INFO_PAGE entries, HCCLT_INFO_VISITS table entries,
 * HCCLT_INFO_FILES files) and returns a cursor to go on from; entries are
 * gathered in a buffer of at most one page of entries and copied out with
 * no lock held and outside drm_dev_enter().
 */

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>

#include "hcclt_drv.h"

/* INFO never allocates more entries than this per call. */
#define HCCLT_INFO_MAX_ENTRIES	65536
/* INFO_ARRAY: entries filled by one call at most. */
#define HCCLT_INFO_PAGE		256
/* INFO_ARRAY: table entries (listed or skipped) one call looks at. */
#define HCCLT_INFO_VISITS	(4 * HCCLT_INFO_PAGE)
/* INFO_ARRAY: files one call looks at. */
#define HCCLT_INFO_FILES	64
/* A cursor: file serial in bits 63:20, next table index in 19:0. */
#define HCCLT_CURSOR_SHIFT	20
#define HCCLT_CURSOR_END	(HCCLT_ID_INDEX_MASK + 1UL)

static_assert(BIT(HCCLT_CURSOR_SHIFT) - 1 == HCCLT_ID_INDEX_MASK);
static_assert(sizeof(struct drm_hcclt_info_comm) >= HCCLT_INFO_COMM_SIZE_V1);
static_assert(sizeof(struct drm_hcclt_info_thread) >=
	      HCCLT_INFO_THREAD_SIZE_V1);
static_assert(sizeof(struct drm_hcclt_info_op) >= HCCLT_INFO_OP_SIZE_V1);

#ifdef HCCLT_TEST_HOOKS
/*
 * Test hook (debug builds only), for selftests' hcclt_info: when
 * info_delay_ms is set, the next INFO or INFO_ARRAY that lists an entry
 * of a file clears it, sets info_stage to 1 and waits, holding that
 * file's lock, until the test sets another stage or info_delay_ms
 * passed; then it sets 0 and goes on. Meanwhile the test checks that
 * other files open and close.
 */
static unsigned int hcclt_info_delay_ms;
module_param_named(info_delay_ms, hcclt_info_delay_ms, uint, 0644);
MODULE_PARM_DESC(info_delay_ms,
		 "test hook: hold the next INFO walk up to this many ms (debug)");
static unsigned int hcclt_info_stage;
module_param_named(info_stage, hcclt_info_stage, uint, 0644);
MODULE_PARM_DESC(info_stage, "test hook: 1 while an INFO walk is held (debug)");

static void hcclt_info_hold(void)
{
	unsigned int ms = xchg(&hcclt_info_delay_ms, 0);
	unsigned long end = jiffies + msecs_to_jiffies(ms);

	if (!ms)
		return;
	WRITE_ONCE(hcclt_info_stage, 1);
	while (time_before(jiffies, end) &&
	       READ_ONCE(hcclt_info_stage) == 1)
		usleep_range(1000, 2000);
	WRITE_ONCE(hcclt_info_stage, 0);
}
#else
static inline void hcclt_info_hold(void) {}
#endif

/* ---- who sees what ---- */

/*
 * May the caller read the files of the process @pid, as /proc/<pid>/fdinfo
 * allows it (ptrace_may_access(PTRACE_MODE_READ_FSCREDS))? That function
 * is not exported to modules; this is its credential and dumpability
 * check, without the LSM hook (Yama and the like are not consulted) and
 * without auditing the capability checks: the caller's fsuid and fsgid
 * equal the target's real, effective and saved ids, or it has
 * CAP_SYS_PTRACE in the target's user namespace; and the target is
 * dumpable, or the caller has CAP_SYS_PTRACE over its mm.
 */
static bool hcclt_may_inspect(struct pid *pid)
{
	const struct cred *cred = current_cred(), *tcred;
	struct task_struct *task;
	struct mm_struct *mm;
	bool ok;

	task = get_pid_task(pid, PIDTYPE_TGID);
	if (!task)
		return false;
	if (same_thread_group(task, current)) {
		put_task_struct(task);
		return true;
	}
	task_lock(task);
	rcu_read_lock();
	tcred = __task_cred(task);
	ok = (uid_eq(cred->fsuid, tcred->euid) &&
	      uid_eq(cred->fsuid, tcred->suid) &&
	      uid_eq(cred->fsuid, tcred->uid) &&
	      gid_eq(cred->fsgid, tcred->egid) &&
	      gid_eq(cred->fsgid, tcred->sgid) &&
	      gid_eq(cred->fsgid, tcred->gid)) ||
	     ns_capable_noaudit(tcred->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	if (ok) {
		/* Credentials before dumpability, as ptrace_may_access(). */
		smp_rmb();
		mm = task->mm;
		if (!mm)
			ok = ns_capable_noaudit(&init_user_ns, CAP_SYS_PTRACE);
		else if (get_dumpable(mm) != SUID_DUMP_USER)
			ok = ns_capable_noaudit(mm->user_ns, CAP_SYS_PTRACE);
	}
	task_unlock(task);
	put_task_struct(task);
	return ok;
}

/**
 * hcclt_file_visible - may the caller, with @self open, list @file?
 * @self: the calling file.
 * @file: a file of the same device.
 * @admin: the caller has CAP_SYS_ADMIN (capable(), asked once per call).
 *
 * Its own file always; every file with CAP_SYS_ADMIN; otherwise a file
 * opened by a process of the caller's effective uid that the caller may
 * inspect (hcclt_may_inspect()).
 *
 * Return: true if it may.
 */
bool hcclt_file_visible(const struct hcclt_file *self,
			struct hcclt_file *file, bool admin)
{
	if (file == self || admin)
		return true;
	if (!uid_eq(file->euid, current_euid()))
		return false;
	return hcclt_may_inspect(file->pid);
}

/* ---- entries ---- */

/* The entry of @comm; caller holds its file's lock and comm->lock. */
void hcclt_info_comm(struct drm_hcclt_comm_info *ci, struct hcclt_comm *comm)
{
	memset(ci, 0, sizeof(*ci));
	ci->comm_id = comm->id;
	ci->pid = pid_vnr(comm->file->pid);
	ci->threads_used = comm->threads_used;
	ci->notifies_used = comm->notifies_used;
	ci->thread_count = comm->thread_count;
}

/*
 * The entry of a published thread or view, and its parked wait if @wi is
 * not NULL; caller holds its file's lock.
 */
void hcclt_info_thread(struct drm_hcclt_thread_info *ti,
		       struct drm_hcclt_wait_info *wi, struct hcclt_thread *t)
{
	struct hcclt_thread *p = t->primary ?: t;
	u32 wait_notify, depth, state;

	state = hcclt_sched_stream_state(p->stream, &wait_notify, &depth, wi);
	memset(ti, 0, sizeof(*ti));
	ti->thread_id = t->id;
	ti->comm_id = t->comm->id;
	ti->stream_id = p->stream->id;
	ti->engine = t->engine;
	/* Pairs with smp_store_release() in hcclt_thread_grow(). */
	ti->notify_num = smp_load_acquire(&p->notify_num);
	ti->queue_depth = depth;
	ti->state = state;
	ti->wait_notify = wait_notify;
	ti->flags = t->flags;
}

/* ---- DRM_IOCTL_HCCLT_INFO (uAPI 1.0) ---- */

struct hcclt_info_buf {
	struct drm_hcclt_comm_info *comms;
	struct drm_hcclt_thread_info *threads;
	u32 comm_cap;
	u32 thread_cap;
	u32 comm_n;
	u32 thread_n;
};

static void hcclt_info_buf_thread(struct hcclt_info_buf *b,
				  struct hcclt_thread *t)
{
	if (b->thread_n < b->thread_cap)
		hcclt_info_thread(&b->threads[b->thread_n], NULL, t);
	b->thread_n++;
}

/* Every communicator of @file, threads grouped by communicator. */
static void hcclt_info_file(struct hcclt_info_buf *b, struct hcclt_file *file)
{
	struct hcclt_comm *comm;
	struct hcclt_thread *t;
	unsigned long idx;
	int e;

	mutex_lock(&file->lock);
	xa_for_each(&file->comms.xa, idx, comm) {
		/* Published under file->lock. */
		if (!comm->live)
			continue;
		mutex_lock(&comm->lock);
		if (b->comm_n < b->comm_cap)
			hcclt_info_comm(&b->comms[b->comm_n], comm);
		b->comm_n++;
		list_for_each_entry(t, &comm->threads, node) {
			hcclt_info_buf_thread(b, t);
			for (e = 0; e < HCCLT_ENGINE_COUNT; e++)
				if (t->views[e])
					hcclt_info_buf_thread(b, t->views[e]);
		}
		mutex_unlock(&comm->lock);
		hcclt_info_hold();
	}
	mutex_unlock(&file->lock);
}

int hcclt_info_ioctl(struct drm_device *drm, void *data, struct drm_file *df)
{
	struct hcclt_device *hdev = to_hcclt_dev(drm);
	struct hcclt_file *self = hcclt_file_of(df);
	struct drm_hcclt_info *args = data;
	struct hcclt_info_buf b = {};
	struct hcclt_file *file;
	u64 serial = 1;
	bool admin;
	int idx, ret = 0;

	if (args->flags) {
		drm_dbg_driver(drm, "INFO: flags %#x\n", args->flags);
		return -EINVAL;
	}
	if (args->scope != HCCLT_INFO_SCOPE_FILE &&
	    args->scope != HCCLT_INFO_SCOPE_USER) {
		drm_dbg_driver(drm, "INFO: scope %u\n", args->scope);
		return -EINVAL;
	}

	b.comm_cap = min_t(u32, args->comm_count, HCCLT_INFO_MAX_ENTRIES);
	b.thread_cap = min_t(u32, args->thread_count, HCCLT_INFO_MAX_ENTRIES);
	if (b.comm_cap) {
		b.comms = kvcalloc(b.comm_cap, sizeof(*b.comms),
				   GFP_KERNEL_ACCOUNT);
		if (!b.comms)
			return -ENOMEM;
	}
	if (b.thread_cap) {
		b.threads = kvcalloc(b.thread_cap, sizeof(*b.threads),
				     GFP_KERNEL_ACCOUNT);
		if (!b.threads) {
			ret = -ENOMEM;
			goto out;
		}
	}
	admin = args->scope == HCCLT_INFO_SCOPE_USER && capable(CAP_SYS_ADMIN);

	/* Entered around the walk only: the copy out may wait for userspace. */
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out;
	}
	if (args->scope == HCCLT_INFO_SCOPE_FILE) {
		hcclt_info_file(&b, self);
	} else {
		/* One file at a time, files_lock only to find the next. */
		while ((file = hcclt_file_next(hdev, serial))) {
			serial = file->serial + 1;
			if (hcclt_file_visible(self, file, admin))
				hcclt_info_file(&b, file);
			hcclt_file_put(file);
			if (fatal_signal_pending(current))
				break;
		}
	}
	drm_dev_exit(idx);

	if (b.comm_cap &&
	    copy_to_user(u64_to_user_ptr(args->comms_ptr), b.comms,
			 min(b.comm_n, b.comm_cap) * sizeof(*b.comms))) {
		ret = -EFAULT;
		goto out;
	}
	if (b.thread_cap &&
	    copy_to_user(u64_to_user_ptr(args->threads_ptr), b.threads,
			 min(b.thread_n, b.thread_cap) * sizeof(*b.threads))) {
		ret = -EFAULT;
		goto out;
	}
	args->comm_count = b.comm_n;
	args->thread_count = b.thread_n;
out:
	kvfree(b.comms);
	kvfree(b.threads);
	return ret;
}

/* ---- DRM_IOCTL_HCCLT_INFO_ARRAY ---- */

/**
 * struct hcclt_page - what one INFO_ARRAY call gathers.
 * @type: HCCLT_INFO_TYPE_*.
 * @comms: @entries as communicator entries (HCCLT_INFO_TYPE_COMMS).
 * @threads: @entries as thread entries (HCCLT_INFO_TYPE_THREADS).
 * @ops: @entries as operator entries (HCCLT_INFO_TYPE_OPS).
 * @entries: room for @room entries of @type.
 * @room: entries @entries holds.
 * @n: entries filled.
 * @visits: table entries looked at, listed or not.
 */
struct hcclt_page {
	u32 type;
	union {
		struct drm_hcclt_info_comm *comms;
		struct drm_hcclt_info_thread *threads;
		struct drm_hcclt_info_op *ops;
		void *entries;
	};
	u32 room;
	u32 n;
	u32 visits;
};

/* Bytes of one driver entry of @type. */
static size_t hcclt_page_esize(u32 type)
{
	if (type == HCCLT_INFO_TYPE_COMMS)
		return sizeof(struct drm_hcclt_info_comm);
	if (type == HCCLT_INFO_TYPE_OPS)
		return sizeof(struct drm_hcclt_info_op);
	return sizeof(struct drm_hcclt_info_thread);
}

static bool hcclt_page_full(const struct hcclt_page *pg)
{
	return pg->n == pg->room || pg->visits >= HCCLT_INFO_VISITS;
}

/*
 * Gather entries of @file from table index *@at on, into @pg, until it is
 * full. Sets *@at to the index to go on from, HCCLT_CURSOR_END when the
 * file's table was walked to its end.
 */
static void hcclt_page_file(struct hcclt_page *pg, struct hcclt_file *file,
			    unsigned long *at)
{
	struct xarray *xa = pg->type != HCCLT_INFO_TYPE_THREADS ?
			    &file->comms.xa : &file->threads.xa;
	struct hcclt_comm *comm;
	struct hcclt_thread *t;
	unsigned long idx;
	void *entry;

	mutex_lock(&file->lock);
	xa_for_each_start(xa, idx, entry, *at) {
		if (hcclt_page_full(pg)) {
			*at = idx;
			goto out;
		}
		pg->visits++;
		if (pg->type != HCCLT_INFO_TYPE_THREADS) {
			comm = entry;
			/*
			 * Published, discarded and destroyed under
			 * file->lock: @entry stays valid while it is held.
			 */
			if (!comm->live)
				continue;
			mutex_lock(&comm->lock);
			if (pg->type == HCCLT_INFO_TYPE_OPS) {
				hcclt_info_op(&pg->ops[pg->n], comm);
				pg->ops[pg->n].file_id = file->serial;
			} else {
				hcclt_info_comm(&pg->comms[pg->n].comm, comm);
				pg->comms[pg->n].file_id = file->serial;
			}
			mutex_unlock(&comm->lock);
			pg->n++;
		} else {
			/*
			 * A published thread leaves the table only with its
			 * communicator, under file->lock, which this walk
			 * holds. An unpublished one is skipped, but a failed
			 * THREAD_ACQUIRE discards it under comm->lock only
			 * and frees it after a grace period: @entry, found
			 * under the RCU lock of xa_find(), is no longer safe
			 * to read, so look again under RCU and read only the
			 * live flag there. Once seen live, the thread stays
			 * until file->lock is dropped.
			 */
			rcu_read_lock();
			t = xa_load(xa, idx);
			if (t && !hcclt_obj_live(&t->live))
				t = NULL;
			rcu_read_unlock();
			if (!t)
				continue;
			hcclt_info_thread(&pg->threads[pg->n].thread,
					  &pg->threads[pg->n].wait, t);
			pg->threads[pg->n++].file_id = file->serial;
		}
		hcclt_info_hold();
	}
	*at = HCCLT_CURSOR_END;
out:
	mutex_unlock(&file->lock);
}

/* Copy @pg's entries out, @esize bytes apart; no lock held. */
static int hcclt_page_copy_out(const struct hcclt_page *pg, u64 ptr,
			       u32 esize)
{
	size_t size = hcclt_page_esize(pg->type);
	size_t len = min_t(size_t, size, esize);
	void __user *dst;
	u32 i;

	for (i = 0; i < pg->n; i++) {
		dst = u64_to_user_ptr(ptr + (u64)i * esize);
		if (copy_to_user(dst, pg->entries + i * size, len))
			return -EFAULT;
		if (esize > len && clear_user(dst + len, esize - len))
			return -EFAULT;
	}
	return 0;
}

static int hcclt_info_array_check(struct drm_device *drm,
				  const struct drm_hcclt_info_array *args)
{
	u32 min_size;

	if (args->flags || args->pad || args->reserved) {
		drm_dbg_driver(drm, "INFO_ARRAY: flags %#x pad %#x reserved %#llx\n",
			       args->flags, args->pad, args->reserved);
		return -EINVAL;
	}
	if (args->scope != HCCLT_INFO_SCOPE_FILE &&
	    args->scope != HCCLT_INFO_SCOPE_USER) {
		drm_dbg_driver(drm, "INFO_ARRAY: scope %u\n", args->scope);
		return -EINVAL;
	}
	if (args->type == HCCLT_INFO_TYPE_COMMS) {
		min_size = HCCLT_INFO_COMM_SIZE_V1;
	} else if (args->type == HCCLT_INFO_TYPE_THREADS) {
		min_size = HCCLT_INFO_THREAD_SIZE_V1;
	} else if (args->type == HCCLT_INFO_TYPE_OPS) {
		min_size = HCCLT_INFO_OP_SIZE_V1;
	} else {
		drm_dbg_driver(drm, "INFO_ARRAY: type %u\n", args->type);
		return -EINVAL;
	}
	if (args->element_size < min_size ||
	    args->element_size > HCCLT_INFO_MAX_ELEMENT_SIZE ||
	    !args->num_element) {
		drm_dbg_driver(drm, "INFO_ARRAY: element_size %u num_element %u\n",
			       args->element_size, args->num_element);
		return -EINVAL;
	}
	return 0;
}

int hcclt_info_array_ioctl(struct drm_device *drm, void *data,
			   struct drm_file *df)
{
	struct hcclt_device *hdev = to_hcclt_dev(drm);
	struct hcclt_file *self = hcclt_file_of(df);
	struct drm_hcclt_info_array *args = data;
	struct hcclt_page pg = { .type = args->type };
	bool user = args->scope == HCCLT_INFO_SCOPE_USER, done = false;
	u64 serial = args->cursor >> HCCLT_CURSOR_SHIFT;
	unsigned long at = args->cursor & HCCLT_ID_INDEX_MASK;
	struct hcclt_file *file;
	u32 files = 0;
	bool admin;
	size_t size;
	int idx, ret;

	ret = hcclt_info_array_check(drm, args);
	if (ret)
		return ret;
	/* One past the last file: where a walk that ended a call stands. */
	if (args->cursor && (!serial ||
			     serial > READ_ONCE(hdev->file_serial) + 1 ||
			     (!user && serial != self->serial))) {
		drm_dbg_driver(drm, "INFO_ARRAY: cursor %#llx\n", args->cursor);
		return -EINVAL;
	}
	if (!args->cursor)
		serial = user ? 1 : self->serial;

	size = hcclt_page_esize(pg.type);
	pg.room = min_t(u32, args->num_element, HCCLT_INFO_PAGE);
	pg.entries = kvmalloc_array(pg.room, size, GFP_KERNEL_ACCOUNT);
	if (!pg.entries)
		return -ENOMEM;
	admin = user && capable(CAP_SYS_ADMIN);

	/* Entered around the walk only: the copy out may wait for userspace. */
	if (!drm_dev_enter(drm, &idx)) {
		ret = -ENODEV;
		goto out;
	}
	while (!hcclt_page_full(&pg) && files < HCCLT_INFO_FILES) {
		if (!user) {
			kref_get(&self->ref);
			file = self;
		} else {
			file = hcclt_file_next(hdev, serial);
			if (!file) {
				done = true;
				break;
			}
		}
		if (file->serial != serial) {
			serial = file->serial;
			at = 0;
		}
		files++;
		if (hcclt_file_visible(self, file, admin))
			hcclt_page_file(&pg, file, &at);
		else
			at = HCCLT_CURSOR_END;
		hcclt_file_put(file);
		if (at == HCCLT_CURSOR_END) {
			serial++;
			at = 0;
			if (!user) {
				done = true;
				break;
			}
		}
	}
	drm_dev_exit(idx);

	ret = hcclt_page_copy_out(&pg, args->buffer, args->element_size);
	if (ret)
		goto out;
	args->num_element = pg.n;
	args->cursor = done ? 0 : serial << HCCLT_CURSOR_SHIFT | at;
out:
	kvfree(pg.entries);
	return ret;
}
