/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: object ids and the id tables of a file (hcclt_ids.c).
 */
#ifndef _HCCLT_IDS_H_
#define _HCCLT_IDS_H_

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "hcclthread_accel.h"

/*
 * Id layout: bits 63:56 zero, 55:48 kind (uAPI), 47:20 sequence number,
 * 19:0 index in the file's table of that kind.
 */
#define HCCLT_ID_KIND_MASK	0xffULL
#define HCCLT_ID_SEQ_SHIFT	20
#define HCCLT_ID_SEQ_MASK	0x0fffffffU
#define HCCLT_ID_INDEX_MASK	0x000fffffU
/*
 * A stream id with bit 47 set names the stream a thread owns: it has no
 * entry of its own in file->streams but is the id of its thread with kind
 * STREAM and the top sequence bit set (hcclt_owned_stream_id()). Streams in
 * file->streams (created ones) get 27-bit sequence numbers.
 */
#define HCCLT_ID_OWNED		BIT_ULL(47)

/**
 * struct hcclt_ids - one id namespace of a file.
 * @xa: index -> object (XA_FLAGS_ALLOC, lowest free index first). An
 *	object is entered when its id is made and is invisible to lookups
 *	and walks until it is live (hcclt_obj_publish()).
 * @seq: sequence number of the next id (its low 28 bits go into the id, 27
 *	for a stream);
 *	protected by the xa_lock of @xa.
 * @max: highest index; HCCLT_ID_INDEX_MASK (KUnit tests use less).
 */
struct hcclt_ids {
	struct xarray xa;
	u32 seq;
	u32 max;
};

static inline u32 hcclt_id_kind(u64 id)
{
	return (id >> HCCLT_ID_KIND_SHIFT) & HCCLT_ID_KIND_MASK;
}

/* The id of the stream owned by the thread @thread_id. */
static inline u64 hcclt_owned_stream_id(u64 thread_id)
{
	return ((u64)HCCLT_ID_KIND_STREAM << HCCLT_ID_KIND_SHIFT) |
	       HCCLT_ID_OWNED | (thread_id & (HCCLT_ID_OWNED - 1));
}

/* The index of an id in its table. */
static inline u32 hcclt_id_index(u64 id)
{
	return id & HCCLT_ID_INDEX_MASK;
}

/* hcclt_ids.c */
void hcclt_ids_init(struct hcclt_ids *ids, u32 max);
int hcclt_id_reserve(struct hcclt_ids *ids, u32 kind, void *obj, u64 *id);
void hcclt_id_remove(struct hcclt_ids *ids, u64 id);
void *hcclt_id_peek(struct hcclt_ids *ids, u32 kind, u64 id);

#endif /* _HCCLT_IDS_H_ */
