/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: notifies, the binary flags of threads, channels and
 * ACL notifies (hcclt_comm.c; their state machine is hcclt_sched.c's).
 */
#ifndef _HCCLT_NOTIFY_H_
#define _HCCLT_NOTIFY_H_

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>

struct hcclt_acct;
struct hcclt_device;
struct hcclt_resv;
struct pid;

/**
 * struct hcclt_notify - a binary notify flag.
 * @ref: held by the owning thread and by every queued task naming it.
 * @hdev: the device.
 * @owner_id: id of the thread owning it (for tracing).
 * @idx: index within the owning thread.
 * @slot: backend slot; valid until @dead.
 * @set: the flag; sched_lock.
 * @dead: its thread is gone; records are no-ops; sched_lock.
 * @waiters: the streams parked on this notify, oldest first (their
 *	park_node); sched_lock. A thread notify has at most its own stream
 *	here, a channel notify any stream of its side's communicator.
 * @err: what a wait on it fails with once @dead: 0 for -ECANCELED, or
 *	-ECONNRESET for a channel notify whose peer is gone; sched_lock.
 * @xnode: entry in the xrecs list of @hdev while @xcount is non-zero
 *	(records handed over from another device, hcclt_sched.c);
 *	hdev->xrec_lock.
 * @xcount: records handed over and not applied yet; hdev->xrec_lock.
 * @lost: records into it dropped because their stream failed, each of
 *	which fails one wait in its place; sched_lock.
 * @lost_err: the error those waits fail with; sched_lock.
 * @lost_by: id of the stream whose failure dropped the last of them (for
 *	the log); sched_lock.
 * @records: record tasks naming it queued on any stream and not done yet
 *	(INFO's HCCLT_WAIT_RECORD_QUEUED); atomic, changed under the
 *	recording stream's sched_lock.
 * @peer_dev: of a channel notify, the device index of the peer's side;
 *	set before the channel is published, then immutable.
 * @peer_pid: of a channel notify, the process of the peer's file
 *	(reference held); as @peer_dev.
 * @group: of a channel notify, the name of its group (for the log);
 *	as @peer_dev.
 * @rank: of a channel notify, the rank of its side; immutable.
 * @peer: of a channel notify, the peer's rank (who records it); immutable.
 * @chan: a channel notify (@owner_id is then the channel id, set when
 *	the channel is established); immutable.
 * @acl: an ACL notify (hcclt_event.c; @idx is its id); immutable.
 * @acct: the account its pool unit is charged to (reference held) until
 *	hcclt_notify_drop_slot().
 * @rlink: of a proxy, the peer's notify of a channel to another host,
 *	the link its records go over (reference held); a proxy has no slot
 *	and no pool unit, and is never waited on; immutable. Its @xnode and
 *	@xcount are on the link's queue (hcclt_link_record()).
 * @rtoken: of a proxy, the peer's channel token; set before the channel
 *	is published, immutable then.
 * @rcookie: of a proxy, the peer's channel cookie; as @rtoken.
 */
struct hcclt_notify {
	struct kref ref;
	struct hcclt_device *hdev;
	u64 owner_id;
	u32 idx;
	u32 slot;
	bool set;
	bool dead;
	struct list_head waiters;
	int err;
	struct list_head xnode;
	u32 xcount;
	u32 lost;
	int lost_err;
	u64 lost_by;
	atomic_t records;
	u32 peer_dev;
	struct pid *peer_pid;
	char *group;
	u32 rank;
	u32 peer;
	bool chan;
	bool acl;
	struct hcclt_acct *acct;
	struct hcclt_link *rlink;
	u32 rtoken;
	u32 rcookie;
};

/* hcclt_comm.c */
void hcclt_notify_release(struct kref *ref);

/* Drop a reference to @notify; the last one frees it. */
static inline void hcclt_notify_put(struct hcclt_notify *notify)
{
	kref_put(&notify->ref, hcclt_notify_release);
}

struct hcclt_notify *hcclt_notify_new(struct hcclt_device *hdev,
				      u64 owner_id, u32 idx,
				      struct hcclt_resv *resv);
void hcclt_notify_drop_slot(struct hcclt_notify *notify);
struct hcclt_notify *hcclt_notify_proxy_new(struct hcclt_device *hdev,
					    struct hcclt_link *link, u32 idx);

/* hcclt_sched.c */
void hcclt_sched_notify_kill(struct hcclt_notify *n, int err);
bool hcclt_sched_notify_pending(struct hcclt_notify *n);
void hcclt_xrec_remote(struct hcclt_notify *n, u32 count);

#endif /* _HCCLT_NOTIFY_H_ */
