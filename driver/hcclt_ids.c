// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: ids, the names of a file's communicators, threads and
 * streams (struct hcclt_ids; layout in hcclt_ids.h).
 */

#include <linux/error-injection.h>
#include <linux/xarray.h>

#include "hcclt_drv.h"

/**
 * hcclt_id_reserve - enter @obj into @ids under a new id of @kind.
 * @ids: the namespace.
 * @kind: HCCLT_ID_KIND_*.
 * @obj: the object (a struct hcclt_comm, hcclt_thread or hcclt_stream).
 * @id: the new id.
 *
 * The index is the lowest free one, so that the table stays dense and an
 * index is not paid for with xarray nodes allocated and freed on every
 * create/destroy; the sequence number (bumped for every id) in bits 47:20
 * keeps a stale id from naming the index's next owner until 2^28 more ids
 * were handed out (2^27 for streams: bit 47 marks a thread's own stream,
 * see HCCLT_ID_OWNED). The entry is the object from here on, but lookups and
 * walks skip the object until hcclt_obj_publish() marks it live: one
 * xarray store per object instead of a reservation and a second store,
 * which would make every acquire slower (Documentation/performance.rst).
 *
 * Return: 0, -ENOMEM, or -ENOSPC when the table is full (@ids->max).
 */
int hcclt_id_reserve(struct hcclt_ids *ids, u32 kind, void *obj, u64 *id)
{
	u32 idx, seq;
	int ret;

	xa_lock(&ids->xa);
	ret = __xa_alloc(&ids->xa, &idx, obj, XA_LIMIT(0, ids->max),
			 GFP_KERNEL_ACCOUNT);
	seq = ids->seq++ & HCCLT_ID_SEQ_MASK;
	if (kind == HCCLT_ID_KIND_STREAM)
		seq &= ~(u32)(HCCLT_ID_OWNED >> HCCLT_ID_SEQ_SHIFT);
	xa_unlock(&ids->xa);
	if (ret == -EBUSY)
		return -ENOSPC;
	if (ret < 0)
		return ret;
	/* Lookups may read it (hcclt_obj_is()). */
	WRITE_ONCE(*id, ((u64)kind << HCCLT_ID_KIND_SHIFT) |
			((u64)seq << HCCLT_ID_SEQ_SHIFT) | idx);
	return 0;
}

/* fail_function (selftests' hcclt_failfunc.sh) makes it fail: -ENOMEM. */
ALLOW_ERROR_INJECTION(hcclt_id_reserve, ERRNO);

/* Remove a reserved or published id. */
void hcclt_id_remove(struct hcclt_ids *ids, u64 id)
{
	xa_erase(&ids->xa, hcclt_id_index(id));
}

/*
 * The object stored for @id, or NULL. Caller holds rcu_read_lock() (or a
 * lock that keeps the entry in the table), and checks that the object is
 * live and that its own id equals @id, which rejects stale generations
 * (hcclt_obj_is()).
 */
void *hcclt_id_peek(struct hcclt_ids *ids, u32 kind, u64 id)
{
	if (hcclt_id_kind(id) != kind || (id >> 56))
		return NULL;
	return xa_load(&ids->xa, hcclt_id_index(id));
}

/* An empty table of up to @max + 1 indexes. */
void hcclt_ids_init(struct hcclt_ids *ids, u32 max)
{
	xa_init_flags(&ids->xa, XA_FLAGS_ALLOC);
	ids->seq = 0;
	ids->max = max;
}
