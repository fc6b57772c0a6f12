// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: debugfs, the state file in the DRM device's directory:
 * /sys/kernel/debug/accel/<unique>/state (6.12, accel node),
 * /sys/kernel/debug/dri/<render minor>/state (6.1).
 *
 * Device pools, then for every open file (pid) its communicators with
 * their quota use and threads (engine, stream, notifies, exported views,
 * queue depth, state), and its created streams: one seq_file record per
 * file, each under that file's lock only (files_lock is held only to find
 * the next file), so that reading it never holds up other files' open()
 * and close().
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include "hcclt_compat.h"
#include "hcclt_drv.h"

static const char *const hcclt_engine_names[HCCLT_ENGINE_COUNT] = {
	"cpu", "cpu_ts", "aicpu", "aicpu_ts", "aiv", "ccu",
};

static const char *const hcclt_state_names[] = {
	"idle", "running", "parked", "error",
};

static void hcclt_debugfs_stream(struct seq_file *m, struct hcclt_stream *s)
{
	u32 wait_notify, depth, state;

	state = hcclt_sched_stream_state(s, &wait_notify, &depth, NULL);
	seq_printf(m, "stream 0x%llx slot %u depth %u state %s", s->id,
		   s->slot, depth, hcclt_state_names[state]);
	if (state == HCCLT_STATE_PARKED)
		seq_printf(m, " (notify %u)", wait_notify);
	seq_puts(m, "\n");
}

static void hcclt_debugfs_comm(struct seq_file *m, struct hcclt_comm *comm)
{
	const struct hcclt_quota_rules *r = hcclt_quota();
	struct hcclt_thread *t;
	int e;

	mutex_lock(&comm->lock);
	seq_printf(m, "  comm 0x%llx threads %u/%u notifies %u/%u (%u threads incl. wrapping)\n",
		   comm->id, comm->threads_used, r->max_threads,
		   comm->notifies_used, r->max_notifies,
		   comm->thread_count);
	list_for_each_entry(t, &comm->threads, node) {
		/* comm->lock held: notify_num is stable. */
		seq_printf(m, "    thread 0x%llx engine %s%s notifies %u ",
			   t->id, hcclt_engine_names[t->engine],
			   t->flags & HCCLT_THREAD_WRAPPED ? " wrapped" : "",
			   t->notify_num);
		hcclt_debugfs_stream(m, t->stream);
		for (e = 0; e < HCCLT_ENGINE_COUNT; e++)
			if (t->views[e])
				seq_printf(m, "      view 0x%llx engine %s\n",
					   t->views[e]->id,
					   hcclt_engine_names[e]);
	}
	mutex_unlock(&comm->lock);
}

/* The device-wide lines, the first record. */
static void hcclt_state_device(struct seq_file *m, struct hcclt_device *hdev)
{
	u64 mem_total, mem_used, chunks;
	bool copying;

	seq_printf(m, "device %u backend %s\n", hdev->index, hdev->hw->name);
	spin_lock(&hdev->pool_lock);
	seq_printf(m, "streams %u/%u\nnotifies %u/%u\n", hdev->streams_used,
		   hdev->streams_total, hdev->notifies_used,
		   hdev->notifies_total);
	spin_unlock(&hdev->pool_lock);
	hcclt_mem_query(hdev, &mem_total, &mem_used);
	seq_printf(m, "memory %llu/%llu bytes\n", mem_used, mem_total);
	seq_printf(m, "files %d comms %d\n", atomic_read(&hdev->nfiles),
		   atomic_read(&hdev->ncomms));
	seq_printf(m, "syncs waited: %ld spun, %ld slept\n",
		   atomic_long_read(&hdev->sync_spun),
		   atomic_long_read(&hdev->sync_slept));
	spin_lock_bh(&hdev->sched_lock);
	chunks = hdev->copy_chunks;
	copying = hdev->copy_running || !list_empty(&hdev->copy_clients);
	spin_unlock_bh(&hdev->sched_lock);
	seq_printf(m, "copy engine: %llu chunks run, %s\n", chunks,
		   copying ? "busy" : "idle");
}

/* One open file, a record of its own, under its own lock only. */
static void hcclt_state_file(struct seq_file *m, struct hcclt_file *file)
{
	struct hcclt_stream *s;
	struct hcclt_comm *comm;
	unsigned long idx;

	mutex_lock(&file->lock);
	seq_printf(m, "file pid %d uid %u\n", pid_nr(file->pid),
		   from_kuid(&init_user_ns, file->euid));
	xa_for_each(&file->comms.xa, idx, comm)
		if (comm->live)
			hcclt_debugfs_comm(m, comm);
	/*
	 * Only created streams are in the table, and they leave it under
	 * file->lock: every entry is a stream of this file.
	 */
	xa_for_each(&file->streams.xa, idx, s) {
		if (!hcclt_obj_live(&s->live))
			continue;
		seq_puts(m, "  created ");
		hcclt_debugfs_stream(m, s);
	}
	mutex_unlock(&file->lock);
}

/**
 * struct hcclt_state_iter - where a read of the state file is.
 * @hdev: the device.
 * @serial: serial of the next file to show (hcclt_file_next()).
 * @file: the file of the current record (reference held), or NULL.
 *
 * Record 0 is the device, each next one a file. files_lock is held only to
 * find the next file; seq_file may show a record again (a larger buffer),
 * so only ->next() moves on.
 */
struct hcclt_state_iter {
	struct hcclt_device *hdev;
	u64 serial;
	struct hcclt_file *file;
};

static void *hcclt_state_start(struct seq_file *m, loff_t *pos)
{
	struct hcclt_state_iter *it = m->private;

	if (!*pos) {
		it->serial = 1;
		return SEQ_START_TOKEN;
	}
	it->file = hcclt_file_next(it->hdev, it->serial);
	return it->file;
}

static void *hcclt_state_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct hcclt_state_iter *it = m->private;

	++*pos;
	if (it->file) {
		it->serial = it->file->serial + 1;
		hcclt_file_put(it->file);
	}
	it->file = hcclt_file_next(it->hdev, it->serial);
	return it->file;
}

static void hcclt_state_stop(struct seq_file *m, void *v)
{
	struct hcclt_state_iter *it = m->private;

	if (it->file)
		hcclt_file_put(it->file);
	it->file = NULL;
}

static int hcclt_state_show(struct seq_file *m, void *v)
{
	struct hcclt_state_iter *it = m->private;

	if (v == SEQ_START_TOKEN)
		hcclt_state_device(m, it->hdev);
	else
		hcclt_state_file(m, v);
	return 0;
}

static const struct seq_operations hcclt_state_sops = {
	.start = hcclt_state_start,
	.next = hcclt_state_next,
	.stop = hcclt_state_stop,
	.show = hcclt_state_show,
};

static int hcclt_state_open(struct inode *inode, struct file *f)
{
	struct hcclt_state_iter *it;

	it = __seq_open_private(f, &hcclt_state_sops, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->hdev = inode->i_private;
	return 0;
}

static const struct file_operations hcclt_state_fops = {
	.owner = THIS_MODULE,
	.open = hcclt_state_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = seq_release_private,
};

/*
 * The state file goes into the DRM device's own debugfs directory
 * (hcclt_compat.h), after drm_dev_register(), and is removed before the
 * device is unplugged; nothing is created without that directory.
 */
void hcclt_debugfs_dev_init(struct hcclt_device *hdev)
{
	struct dentry *root = hcclt_drm_debugfs_root(&hdev->drm);

	if (IS_ERR_OR_NULL(root))
		return;
	hdev->debugfs = debugfs_create_file("state", 0400, root, hdev,
					    &hcclt_state_fops);
}

void hcclt_debugfs_dev_fini(struct hcclt_device *hdev)
{
	debugfs_remove(hdev->debugfs);
	hdev->debugfs = NULL;
}
