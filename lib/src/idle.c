// SPDX-License-Identifier: MIT
/*
 * Skipping STREAM_SYNC on streams known to be idle (uAPI 1.1).
 *
 * A SUBMIT reports the stream it queued on and, with
 * HCCLT_SUBMIT_STATUS_IDLE, that the stream had nothing left to run or to
 * report when the ioctl returned. Per stream the library remembers the
 * highest sequence number any submit returned and the highest one returned
 * with IDLE. Sequence numbers follow the order in which tasks were queued,
 * so when the second is not below the first, every task a submit has
 * returned for had completed by the time that IDLE was seen, and a sync
 * can return at once: a submit still in flight in another thread is not
 * ordered before the sync anyway.
 *
 * The table is direct-mapped and never evicts a stream within an epoch: a
 * stream that finds its slot taken is not tracked, and its syncs go to the
 * kernel, because a stream entry that came back after an eviction could
 * miss a submit noted meanwhile. Handles (thread ids) map to their stream
 * in a second table, which is only a cache. Destroying a communicator or a
 * stream starts a new epoch, which forgets everything (a sync on what was
 * destroyed must fail), and so does fork() (the generation: the child's
 * ids are its own). A submit that began before a destroy still counts in
 * the new epoch, but only as work queued, never as IDLE. It all assumes
 * that submits to the process's streams go through the library, which is
 * what it is for.
 *
 * After a device is unplugged, a skipped sync returns success where the
 * kernel would say -ENODEV: the tasks did complete.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "internal.h"

#define IDLE_SLOTS	256	/* power of two */

struct idle_stream {
	uint64_t id;		/* stream id; 0: free */
	uint64_t epoch;
	uint64_t max_seq;	/* highest seqno a submit returned */
	uint64_t idle_seq;	/* highest seqno returned with IDLE */
	uint32_t gen;
	int32_t dev;
};

struct idle_handle {
	uint64_t handle;	/* thread id; 0: free */
	uint64_t stream;
	uint64_t epoch;
	uint32_t gen;
	int32_t dev;
};

/* Protects streams[] and handles[]. */
static pthread_mutex_t idle_lock = PTHREAD_MUTEX_INITIALIZER;
static struct idle_stream streams[IDLE_SLOTS];
static struct idle_handle handles[IDLE_SLOTS];
/* Bumped by hcclt_idle_forget(); entries of older epochs are free. */
static _Atomic uint64_t idle_epoch = 1;
/*
 * The epoch in use: idle_epoch, or the word the application shares with
 * its AI CPU processes (hcclt_idle_share()), which bump it when a kernel
 * ends: the tasks a kernel queued there are not in this table. Changed
 * under idle_lock, read without it.
 */
static _Atomic(_Atomic uint64_t *) epoch_p = &idle_epoch;

static unsigned int slot_of(int dev, uint64_t id)
{
	uint64_t h = (id ^ ((uint64_t)dev << 56)) * UINT64_C(0x9e3779b97f4a7c15);

	return (unsigned int)(h >> 56) & (IDLE_SLOTS - 1);
}

uint64_t hcclt_idle_epoch(void)
{
	return atomic_load_explicit(atomic_load_explicit(&epoch_p, memory_order_acquire),
				    memory_order_acquire);
}

void hcclt_idle_forget(void)
{
	atomic_fetch_add_explicit(atomic_load_explicit(&epoch_p, memory_order_acquire), 1,
				  memory_order_acq_rel);
}

/* Set in an AI CPU core process (aicpu_core.c): no sync is skipped. */
static _Atomic int idle_off;

void hcclt_idle_disable(void)
{
	atomic_store(&idle_off, 1);
}

/*
 * Count epochs in @shared from now on (aicpu.c): from above the current
 * one, so that every note made so far is forgotten.
 */
void hcclt_idle_share(_Atomic uint64_t *shared)
{
	uint64_t e;

	pthread_mutex_lock(&idle_lock);
	e = hcclt_idle_epoch() + 1;
	if (atomic_load(shared) < e)
		atomic_store(shared, e);
	atomic_store_explicit(&epoch_p, shared, memory_order_release);
	pthread_mutex_unlock(&idle_lock);
}

void hcclt_idle_note(int dev, uint64_t handle,
		     const struct drm_hcclt_submit *sub, uint64_t epoch)
{
	uint32_t gen = hcclt_gen();
	int idle = !!(sub->status & HCCLT_SUBMIT_STATUS_IDLE);
	struct idle_handle *h;
	struct idle_stream *s;

	if (!sub->stream_id)	/* a uAPI 1.0 driver */
		return;
	pthread_mutex_lock(&idle_lock);
	if (epoch != hcclt_idle_epoch()) {
		/*
		 * The submit began before a destroy: what it says of idleness
		 * or of its handle may concern a destroyed object, but the
		 * tasks it queued count against the stream in the new epoch.
		 */
		epoch = hcclt_idle_epoch();
		idle = 0;
	} else if (handle != sub->stream_id) {
		h = &handles[slot_of(dev, handle)];
		h->handle = handle;
		h->stream = sub->stream_id;
		h->epoch = epoch;
		h->gen = gen;
		h->dev = dev;
	}
	s = &streams[slot_of(dev, sub->stream_id)];
	if (s->id && s->epoch == epoch && s->gen == gen) {
		if (s->id != sub->stream_id || s->dev != dev)
			goto out;	/* taken: not tracked */
		if (sub->seqno > s->max_seq)
			s->max_seq = sub->seqno;
		if (idle && sub->seqno > s->idle_seq)
			s->idle_seq = sub->seqno;
	} else {
		s->id = sub->stream_id;
		s->epoch = epoch;
		s->gen = gen;
		s->dev = dev;
		s->max_seq = sub->seqno;
		s->idle_seq = idle ? sub->seqno : 0;
	}
out:
	pthread_mutex_unlock(&idle_lock);
}

int hcclt_idle_check(int dev, uint64_t handle)
{
	uint64_t epoch = hcclt_idle_epoch(), stream = handle;
	uint32_t gen = hcclt_gen();
	struct idle_handle *h;
	struct idle_stream *s;
	int skip = 0;

	if (atomic_load_explicit(&idle_off, memory_order_relaxed))
		return 0;
	pthread_mutex_lock(&idle_lock);
	if (((handle >> HCCLT_ID_KIND_SHIFT) & 0xff) != HCCLT_ID_KIND_STREAM) {
		h = &handles[slot_of(dev, handle)];
		if (h->handle != handle || h->dev != dev || h->gen != gen ||
		    h->epoch != epoch)
			goto out;
		stream = h->stream;
	}
	s = &streams[slot_of(dev, stream)];
	if (s->id == stream && s->dev == dev && s->gen == gen &&
	    s->epoch == epoch && s->idle_seq && s->idle_seq >= s->max_seq)
		skip = 1;
out:
	pthread_mutex_unlock(&idle_lock);
	return skip;
}

/* fork(): keep the lock out of the child's way (device.c's handlers). */
void hcclt_idle_atfork_prepare(void)
{
	pthread_mutex_lock(&idle_lock);
}

void hcclt_idle_atfork_parent(void)
{
	pthread_mutex_unlock(&idle_lock);
}

/* The child's AI CPU is its own: back to a private epoch, a new one. */
void hcclt_idle_atfork_child(void)
{
	atomic_store(&idle_epoch, hcclt_idle_epoch() + 1);
	atomic_store(&epoch_p, &idle_epoch);
	pthread_mutex_unlock(&idle_lock);
}
