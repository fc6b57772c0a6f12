// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of hcclthread's pure logic: id encoding, quota arithmetic,
 * device pool reservation, the batch validator, the notify state machine
 * and the stream state table. Included at the end of hcclt_submit.c (so
 * that it can reach the static helpers) when the module is built with
 * HCCLT_KUNIT=1 (Kbuild; it needs CONFIG_KUNIT=y); runs when the module
 * loads (suite "hcclthread").
 */

#include <kunit/test.h>
#include <linux/delay.h>

static const struct hcclt_hw_ops hcclt_test_ops = {
	.name = "kunit",
};

static struct hcclt_device *hcclt_test_dev(struct kunit *test)
{
	struct hcclt_device *hdev;

	hdev = kunit_kzalloc(test, sizeof(*hdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hdev);
	hdev->hw = &hcclt_test_ops;
	spin_lock_init(&hdev->pool_lock);
	hdev->streams_total = 4;
	hdev->notifies_total = 8;
	KUNIT_ASSERT_EQ(test, 0, hcclt_sched_init(hdev));
	return hdev;
}

static struct hcclt_stream *hcclt_test_stream(struct kunit *test,
					      struct hcclt_device *hdev)
{
	struct hcclt_stream *s;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	kref_init(&s->ref);
	s->hdev = hdev;
	s->busy_engine = HCCLT_USAGE_IDLE;
	hcclt_sched_stream_init(s);
	return s;
}

static struct hcclt_notify *hcclt_test_notify(struct kunit *test,
					      struct hcclt_device *hdev,
					      u32 idx)
{
	struct hcclt_notify *n = kzalloc(sizeof(*n), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, n);
	kref_init(&n->ref);
	INIT_LIST_HEAD(&n->waiters);
	n->hdev = hdev;
	n->idx = idx;
	return n;
}

/* Queue @count tasks @op on notify @n on @s. */
static int hcclt_test_queue(struct kunit *test, struct hcclt_stream *s,
			    u32 op, struct hcclt_notify *n, u32 count,
			    u32 timeout_s)
{
	struct drm_hcclt_submit args = {};
	struct hcclt_batch *batch;
	u32 i;
	int ret;

	batch = hcclt_batch_get(s, count);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, batch);
	for (i = 0; i < count; i++) {
		kref_get(&n->ref);
		batch->tasks[i].notify = n;
		batch->tasks[i].copy = NULL;
		batch->tasks[i].launch = NULL;
		batch->tasks[i].event = NULL;
		batch->tasks[i].gate = NULL;
		batch->tasks[i].op = op;
		batch->tasks[i].engine = HCCLT_ENGINE_CPU;
		batch->tasks[i].timeout_s = timeout_s;
		batch->tasks[i].started = false;
		batch->tasks[i].batch = batch;
		batch->tasks[i].last = i == count - 1;
	}
	ret = hcclt_batch_queue(s, NULL, batch, NULL, &args);
	if (ret) {
		for (i = 0; i < count; i++)
			hcclt_notify_put(n);
		hcclt_batch_put(s, batch);
	}
	return ret;
}

static int hcclt_test_rec(struct kunit *test, struct hcclt_stream *s,
			  struct hcclt_notify *n, u32 count)
{
	return hcclt_test_queue(test, s, HCCLT_TASK_NOTIFY_RECORD, n, count, 0);
}

static int hcclt_test_wait(struct kunit *test, struct hcclt_stream *s,
			   struct hcclt_notify *n, u32 count, u32 timeout_s)
{
	return hcclt_test_queue(test, s, HCCLT_TASK_NOTIFY_WAIT, n, count,
				timeout_s);
}

static u32 hcclt_test_state(struct hcclt_stream *s, u32 *depth)
{
	u32 wait_notify;

	return hcclt_sched_stream_state(s, &wait_notify, depth, NULL);
}

/* ---- ids ---- */

static void hcclt_test_ids(struct kunit *test)
{
	struct hcclt_ids ids;
	u64 id, id2, id3;
	unsigned long idx;
	int obj, obj2, n;
	void *e;

	hcclt_ids_init(&ids, HCCLT_ID_INDEX_MASK);

	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_THREAD,
						  &obj, &id));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_ID_KIND_THREAD, hcclt_id_kind(id));
	KUNIT_EXPECT_EQ(test, 0ULL, id >> 56);
	KUNIT_EXPECT_NE(test, 0ULL, id);
	KUNIT_EXPECT_EQ(test, 0U, hcclt_id_index(id));
	/* entered at once; lookups check liveness (hcclt_test_validator) */
	KUNIT_EXPECT_PTR_EQ(test, (void *)&obj,
			    hcclt_id_peek(&ids, HCCLT_ID_KIND_THREAD, id));
	/* wrong kind, tag bits */
	KUNIT_EXPECT_PTR_EQ(test, (void *)NULL,
			    hcclt_id_peek(&ids, HCCLT_ID_KIND_STREAM, id));
	KUNIT_EXPECT_PTR_EQ(test, (void *)NULL,
			    hcclt_id_peek(&ids, HCCLT_ID_KIND_THREAD,
					  id | (1ULL << 60)));
	/* the next id takes the next index; new sequence number */
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_THREAD,
						  &obj2, &id2));
	KUNIT_EXPECT_EQ(test, 1U, hcclt_id_index(id2));
	KUNIT_EXPECT_EQ(test, 1ULL, (id2 >> HCCLT_ID_SEQ_SHIFT) &
			HCCLT_ID_SEQ_MASK);
	n = 0;
	xa_for_each(&ids.xa, idx, e)
		n++;
	KUNIT_EXPECT_EQ(test, 2, n);

	hcclt_id_remove(&ids, id);
	KUNIT_EXPECT_PTR_EQ(test, (void *)NULL,
			    hcclt_id_peek(&ids, HCCLT_ID_KIND_THREAD, id));

	/* a freed index is reused under a new id; the stale one stays dead */
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_THREAD,
						  &obj, &id3));
	KUNIT_EXPECT_EQ(test, hcclt_id_index(id), hcclt_id_index(id3));
	KUNIT_EXPECT_NE(test, id, id3);
	KUNIT_EXPECT_PTR_EQ(test, (void *)&obj,
			    hcclt_id_peek(&ids, HCCLT_ID_KIND_THREAD, id3));
	/* the peek returns the slot's object; callers compare its id */
	KUNIT_EXPECT_PTR_EQ(test, (void *)&obj,
			    hcclt_id_peek(&ids, HCCLT_ID_KIND_THREAD, id));

	/* the sequence number wraps within its 28 bits */
	ids.seq = HCCLT_ID_SEQ_MASK;
	hcclt_id_remove(&ids, id3);
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_THREAD,
						  &obj, &id3));
	KUNIT_EXPECT_EQ(test, (u64)HCCLT_ID_SEQ_MASK,
			(id3 >> HCCLT_ID_SEQ_SHIFT) & HCCLT_ID_SEQ_MASK);
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_ID_KIND_THREAD, hcclt_id_kind(id3));
	hcclt_id_remove(&ids, id3);
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_THREAD,
						  &obj, &id3));
	KUNIT_EXPECT_EQ(test, 0ULL, (id3 >> HCCLT_ID_SEQ_SHIFT) &
			HCCLT_ID_SEQ_MASK);
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_ID_KIND_THREAD, hcclt_id_kind(id3));
	KUNIT_EXPECT_EQ(test, 0ULL, id3 >> 56);
	xa_destroy(&ids.xa);

	/* a full table: -ENOSPC, and room again once an id is removed */
	hcclt_ids_init(&ids, 2);
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_COMM,
						  &obj, &id));
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_COMM,
						  &obj, &id2));
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_COMM,
						  &obj, &id3));
	KUNIT_EXPECT_EQ(test, 2U, hcclt_id_index(id3));
	KUNIT_EXPECT_EQ(test, -ENOSPC,
			hcclt_id_reserve(&ids, HCCLT_ID_KIND_COMM, &obj, &id3));
	hcclt_id_remove(&ids, id2);
	KUNIT_EXPECT_EQ(test, 0, hcclt_id_reserve(&ids, HCCLT_ID_KIND_COMM,
						  &obj, &id2));
	KUNIT_EXPECT_EQ(test, 1U, hcclt_id_index(id2));
	xa_destroy(&ids.xa);
}

/* ---- quota and pools ---- */

/* The rule set named @name (hcclt_quota.c). */
static const struct hcclt_quota_rules *
hcclt_test_rules(struct kunit *test, const char *name)
{
	unsigned int i;

	for (i = 0; i < hcclt_quota_nsets; i++)
		if (!strcmp(hcclt_quota_sets[i].name, name))
			return &hcclt_quota_sets[i];
	KUNIT_FAIL(test, "no rule set %s", name);
	return &hcclt_quota_sets[0];
}

/* The seed rules: exactly the checks of uAPI 1.8 and before. */
static void hcclt_test_quota(struct kunit *test)
{
	const struct hcclt_quota_rules *r = hcclt_test_rules(test, "seed");
	u32 add = 0;

	KUNIT_EXPECT_EQ(test, HCCLT_QUOTA_RULES_SEED, r->id);
	/* no argument errors: every limit is the quota's */
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_args(r, U32_MAX, U32_MAX));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 40, 1));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 0, 41, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 39, 0, 1, 64));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 40, 0, 1, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 1, 64));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 0, 1, 65));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 8, 8));
	/* 1 wrapped-stream notify + 8 x 8 = 65: refused */
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 1, 8, 8));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 10, 60, 4, 1));
	/* no overflow of n * npt */
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 0, U32_MAX, 2));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 0, 2, U32_MAX));
	KUNIT_EXPECT_EQ(test, -EDQUOT,
			hcclt_quota_check(r, 0, 0, 0x10000, 0x10000));
	/* a wrapping thread's notifies are counted */
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_wrap(r, 0, 0, 1, &add));
	KUNIT_EXPECT_EQ(test, 1U, add);
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_wrap(r, 63, 2, 3, &add));
	KUNIT_EXPECT_EQ(test, 1U, add);
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_wrap(r, 64, 2, 3, &add));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_wrap(r, 0, 0, 65, &add));
	/* a smaller count changes nothing */
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_wrap(r, 64, 5, 3, &add));
	KUNIT_EXPECT_EQ(test, 0U, add);
}

/* hcomm 2026-04: 40 threads, 640 notifies, oversize arguments -EINVAL. */
static void hcclt_test_quota_2026_04(struct kunit *test)
{
	const struct hcclt_quota_rules *r = hcclt_test_rules(test, "2026-04");
	u32 add = 0;

	KUNIT_EXPECT_EQ(test, HCCLT_QUOTA_RULES_2026_04, r->id);
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_args(r, 40, 640));
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_quota_args(r, 41, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_quota_args(r, 1, 641));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 40, 16));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 0, 40, 17));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 40, 0, 1, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 1, 640));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 1, 8, 8));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 577, 8, 8));
	/* a wrapping thread's notifies are counted, against 640 */
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_wrap(r, 639, 0, 1, &add));
	KUNIT_EXPECT_EQ(test, 1U, add);
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_wrap(r, 640, 0, 1, &add));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_wrap(r, 0, 0, 641, &add));
}

/*
 * hcomm 2026-08: 200 threads, 65,536 notifies, notifyNumPerThread >= 65536
 * and thread counts above 200 -EINVAL, wrapping threads not counted.
 */
static void hcclt_test_quota_2026_08(struct kunit *test)
{
	const struct hcclt_quota_rules *r = hcclt_test_rules(test, "2026-08");
	u32 add = 0;

	KUNIT_EXPECT_EQ(test, HCCLT_QUOTA_RULES_2026_08, r->id);
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_args(r, 200, 65535));
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_quota_args(r, 1, 65536));
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_quota_args(r, 201, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_quota_args(r, U32_MAX, U32_MAX));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 200, 0));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 200, 0, 1, 0));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 100, 0, 101, 0));
	/* no per-thread cap below 65,535 for HcclThreadAcquire */
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 1, 65));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 1, 65535));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 1, 1, 65535));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 2, 1, 65535));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 8, 8));
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_check(r, 0, 0, 200, 327));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_check(r, 0, 0, 200, 328));
	KUNIT_EXPECT_EQ(test, -EDQUOT,
			hcclt_quota_check(r, 0, 0, U32_MAX, U32_MAX));
	/* a wrapping thread's notifies are not counted: 65536 used is fine */
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_wrap(r, 65536, 0, 1, &add));
	KUNIT_EXPECT_EQ(test, 1U, add);
	KUNIT_EXPECT_EQ(test, 0, hcclt_quota_wrap(r, 0, 0, 65536, &add));
	KUNIT_EXPECT_EQ(test, -EDQUOT, hcclt_quota_wrap(r, 0, 0, 65537, &add));
}

static void hcclt_test_pools(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_acct *acct = hcclt_acct_new(hdev);

	KUNIT_ASSERT_NOT_NULL(test, acct);
	KUNIT_EXPECT_EQ(test, 0, hcclt_pool_reserve(hdev, acct, 3, 7));
	KUNIT_EXPECT_EQ(test, -ENOSPC, hcclt_pool_reserve(hdev, acct, 1, 2));
	KUNIT_EXPECT_EQ(test, -ENOSPC, hcclt_pool_reserve(hdev, acct, 2, 0));
	/* a refused reservation changes nothing */
	KUNIT_EXPECT_EQ(test, 3U, hdev->streams_used);
	KUNIT_EXPECT_EQ(test, 7U, hdev->notifies_used);
	KUNIT_EXPECT_EQ(test, 0, hcclt_pool_reserve(hdev, acct, 1, 1));
	hcclt_pool_unreserve(hdev, acct, 4, 8);
	KUNIT_EXPECT_EQ(test, 0U, hdev->streams_used);
	KUNIT_EXPECT_EQ(test, 0U, hdev->notifies_used);
	/* every charge came back: the release would warn otherwise */
	hcclt_acct_put(acct);
	hcclt_sched_unplug(hdev);
}

/* ---- notify state machine ---- */

static void hcclt_test_record_then_wait(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 0);
	u32 depth;

	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, a, n, 1));
	KUNIT_EXPECT_TRUE(test, n->set);
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 0));
	KUNIT_EXPECT_FALSE(test, n->set);
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_IDLE,
			hcclt_test_state(a, &depth));
	KUNIT_EXPECT_EQ(test, 0U, depth);
	KUNIT_EXPECT_EQ(test, 2ULL, a->done_seqno);
	hcclt_sched_stream_fini(a);
	KUNIT_EXPECT_EQ(test, 1U, kref_read(&n->ref));
	hcclt_notify_put(n);
	hcclt_sched_unplug(hdev);
}

static void hcclt_test_wait_then_record(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_stream *b = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 3);
	u32 depth, wait_notify;

	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 0));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_PARKED,
			hcclt_sched_stream_state(a, &wait_notify, &depth, NULL));
	KUNIT_EXPECT_EQ(test, 3U, wait_notify);
	KUNIT_EXPECT_EQ(test, 1U, depth);
	KUNIT_EXPECT_PTR_EQ(test, a,
			    list_first_entry_or_null(&n->waiters,
						     struct hcclt_stream,
						     park_node));
	/* a record on another stream releases it */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, b, n, 1));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_IDLE,
			hcclt_test_state(a, &depth));
	KUNIT_EXPECT_EQ(test, 0U, depth);
	KUNIT_EXPECT_FALSE(test, n->set);
	KUNIT_EXPECT_TRUE(test, list_empty(&n->waiters));
	hcclt_sched_stream_fini(a);
	hcclt_sched_stream_fini(b);
	hcclt_notify_put(n);
	hcclt_sched_unplug(hdev);
}

/* A completed small batch is kept once per stream and reused if it fits. */
static void hcclt_test_spare(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 0);
	struct hcclt_batch *kept, *b;

	KUNIT_EXPECT_PTR_EQ(test, (void *)NULL, (void *)a->spare);
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, a, n, 2));
	kept = a->spare;
	KUNIT_ASSERT_NOT_NULL(test, kept);
	KUNIT_EXPECT_GE(test, kept->room, 2U);
	KUNIT_EXPECT_LE(test, kept->room, (u32)HCCLT_SPARE_MAX_TASKS);
	/* The allocation really holds @room tasks. */
	KUNIT_EXPECT_GE(test, ksize(kept), struct_size(kept, tasks, kept->room));
	/* Reused for fewer tasks than it held, and given back again. */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, a, n, 1));
	KUNIT_EXPECT_PTR_EQ(test, kept, a->spare);
	/* Taken: the stream has none meanwhile. */
	b = hcclt_batch_get(a, 1);
	KUNIT_EXPECT_PTR_EQ(test, kept, b);
	KUNIT_EXPECT_EQ(test, 1U, b->count);
	KUNIT_EXPECT_PTR_EQ(test, (void *)NULL, (void *)a->spare);
	/* One completing then is kept; b, given back later, is freed. */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, a, n, 1));
	KUNIT_ASSERT_NOT_NULL(test, a->spare);
	KUNIT_EXPECT_PTR_NE(test, kept, a->spare);
	hcclt_batch_put(a, b);
	kept = a->spare;
	KUNIT_EXPECT_GE(test, kept->room, 1U);
	/* A spare too small stays the spare; the batch is a new one. */
	if (kept->room < HCCLT_SPARE_MAX_TASKS) {
		b = hcclt_batch_get(a, kept->room + 1);
		KUNIT_ASSERT_NOT_NULL(test, b);
		KUNIT_EXPECT_PTR_NE(test, kept, b);
		KUNIT_EXPECT_GE(test, b->room, kept->room + 1);
		KUNIT_EXPECT_PTR_EQ(test, kept, a->spare);
		hcclt_batch_put(a, b);
		KUNIT_EXPECT_PTR_EQ(test, kept, a->spare);
	}
	/* Larger batches never take the spare and are never kept. */
	b = hcclt_batch_get(a, HCCLT_SPARE_MAX_TASKS + 1);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_GT(test, b->room, (u32)HCCLT_SPARE_MAX_TASKS);
	KUNIT_EXPECT_PTR_EQ(test, kept, a->spare);
	hcclt_batch_put(a, b);
	KUNIT_EXPECT_PTR_EQ(test, kept, a->spare);
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, a, n, 8));
	KUNIT_EXPECT_PTR_EQ(test, kept, a->spare);
	/* fini frees the spare (kmemleak would see it leak). */
	hcclt_sched_stream_fini(a);
	KUNIT_EXPECT_PTR_EQ(test, (void *)NULL, (void *)a->spare);
	KUNIT_EXPECT_EQ(test, 1U, kref_read(&n->ref));
	hcclt_notify_put(n);
	hcclt_sched_unplug(hdev);
}

/*
 * A record dropped because its stream failed fails the wait it would have
 * released: the one parked now, else the next one to run; one each.
 */
static void hcclt_test_lost_record(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_stream *b = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 0);
	struct hcclt_notify *never = hcclt_test_notify(test, hdev, 1);
	u32 depth;

	/* a waits on n; b would record n after a wait that never ends */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, b, never, 1, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, b, n, 1));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_PARKED,
			hcclt_test_state(a, &depth));
	hcclt_sched_stream_cancel(b, false);
	flush_work(&hdev->run_work);
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_ERROR,
			hcclt_test_state(a, &depth));
	KUNIT_EXPECT_EQ(test, -ECANCELED, a->error);
	KUNIT_EXPECT_EQ(test, 0U, n->lost);
	/* Nobody parked: the next wait fails, the one after parks. */
	a->error = 0;
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, b, never, 1, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, b, n, 1));
	hcclt_sched_stream_cancel(b, false);
	KUNIT_EXPECT_EQ(test, 1U, n->lost);
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 0));
	KUNIT_EXPECT_EQ(test, -ECANCELED, a->error);
	KUNIT_EXPECT_EQ(test, 0U, n->lost);
	a->error = 0;
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 0));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_PARKED,
			hcclt_test_state(a, &depth));
	/* Nothing lost is left: a real record releases it as before. */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, b, n, 1));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_IDLE,
			hcclt_test_state(a, &depth));
	hcclt_sched_stream_fini(a);
	hcclt_sched_stream_fini(b);
	hcclt_notify_put(n);
	hcclt_notify_put(never);
	hcclt_sched_unplug(hdev);
}

static void hcclt_test_binary(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_stream *b = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 0);
	u32 depth;

	/* two records before the waits release one wait */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, b, n, 2));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 2, 0));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_PARKED,
			hcclt_test_state(a, &depth));
	KUNIT_EXPECT_EQ(test, 1U, depth);
	KUNIT_EXPECT_EQ(test, 1ULL, a->done_seqno);
	/* cancel: the parked wait goes, the error is reported */
	hcclt_sched_stream_cancel(a, false);
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_ERROR,
			hcclt_test_state(a, &depth));
	KUNIT_EXPECT_EQ(test, 0U, depth);
	KUNIT_EXPECT_EQ(test, -ECANCELED, a->error);
	KUNIT_EXPECT_EQ(test, 2ULL, a->done_seqno);
	KUNIT_EXPECT_TRUE(test, list_empty(&n->waiters));
	hcclt_sched_stream_fini(a);
	hcclt_sched_stream_fini(b);
	KUNIT_EXPECT_EQ(test, 1U, kref_read(&n->ref));
	hcclt_notify_put(n);
	hcclt_sched_unplug(hdev);
}

static void hcclt_test_timeout(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 0);
	u32 depth;

	/* a timed wait, and tasks queued behind it */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 1));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, a, n, 3));
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_PARKED,
			hcclt_test_state(a, &depth));
	KUNIT_EXPECT_EQ(test, 4U, depth);
	msleep(1500);
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_ERROR,
			hcclt_test_state(a, &depth));
	KUNIT_EXPECT_EQ(test, 0U, depth);
	KUNIT_EXPECT_EQ(test, -ETIME, a->error);
	/* the dropped records did not run */
	KUNIT_EXPECT_FALSE(test, n->set);
	hcclt_sched_stream_fini(a);
	hcclt_notify_put(n);
	hcclt_sched_unplug(hdev);
}

/*
 * The failure modes: a wait on a notify that goes dead fails; the records
 * behind it are dropped (DROP, STOP) or run (CONTINUE); a STOP stream
 * takes no task afterwards, the others do.
 */
static void hcclt_test_failure_modes(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	u8 mode;

	for (mode = HCCLT_FAILURE_DROP; mode <= HCCLT_FAILURE_STOP; mode++) {
		struct hcclt_stream *a = hcclt_test_stream(test, hdev);
		struct hcclt_notify *gone = hcclt_test_notify(test, hdev, 0);
		struct hcclt_notify *m = hcclt_test_notify(test, hdev, 1);
		u32 depth;

		KUNIT_EXPECT_EQ(test, 0, hcclt_sched_set_fail_mode(a, mode));
		KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, gone, 1, 0));
		KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, a, m, 1));
		KUNIT_EXPECT_EQ(test, 2U, a->depth);
		hcclt_sched_notify_kill(gone, -ECANCELED);
		flush_work(&hdev->run_work);
		KUNIT_EXPECT_EQ(test, -ECANCELED, a->error);
		KUNIT_EXPECT_EQ(test, 0U, a->depth);
		KUNIT_EXPECT_EQ(test, mode == HCCLT_FAILURE_CONTINUE, m->set);
		KUNIT_EXPECT_EQ(test, mode == HCCLT_FAILURE_STOP, a->stopped);
		KUNIT_EXPECT_EQ(test, mode == HCCLT_FAILURE_STOP ? -ECANCELED : 0,
				hcclt_test_rec(test, a, m, 1));
		KUNIT_EXPECT_EQ(test, (u32)HCCLT_STATE_ERROR,
				hcclt_test_state(a, &depth));
		/* A stream never leaves STOP; the others change freely. */
		KUNIT_EXPECT_EQ(test, mode == HCCLT_FAILURE_STOP ? -EBUSY : 0,
				hcclt_sched_set_fail_mode(a,
							  HCCLT_FAILURE_DROP));
		hcclt_sched_stream_fini(a);
		hcclt_notify_put(gone);
		hcclt_notify_put(m);
	}
	hcclt_sched_unplug(hdev);
}

/* ---- the stream state machine ---- */

struct hcclt_test_move {
	enum hcclt_stream_state from, to;
};

#define HCCLT_MOVE(a, b)	{ HCCLT_STREAM_##a, HCCLT_STREAM_##b }

/* Every move the table allows, and no other: see hcclt_stream_next[]. */
static const struct hcclt_test_move hcclt_test_allowed[] = {
	HCCLT_MOVE(IDLE, READY), HCCLT_MOVE(IDLE, DEAD),
	HCCLT_MOVE(READY, RUNNING), HCCLT_MOVE(READY, IDLE),
	HCCLT_MOVE(READY, DEAD),
	HCCLT_MOVE(RUNNING, READY), HCCLT_MOVE(RUNNING, IDLE),
	HCCLT_MOVE(RUNNING, WAIT_NOTIFY), HCCLT_MOVE(RUNNING, WAIT_EVENT),
	HCCLT_MOVE(RUNNING, WAIT_GATE), HCCLT_MOVE(RUNNING, COPYING),
	HCCLT_MOVE(RUNNING, LAUNCHING),
	HCCLT_MOVE(WAIT_NOTIFY, READY), HCCLT_MOVE(WAIT_NOTIFY, IDLE),
	HCCLT_MOVE(WAIT_NOTIFY, DEAD),
	HCCLT_MOVE(WAIT_EVENT, READY), HCCLT_MOVE(WAIT_EVENT, IDLE),
	HCCLT_MOVE(WAIT_EVENT, DEAD),
	HCCLT_MOVE(WAIT_GATE, READY), HCCLT_MOVE(WAIT_GATE, IDLE),
	HCCLT_MOVE(WAIT_GATE, DEAD),
	HCCLT_MOVE(COPYING, READY), HCCLT_MOVE(COPYING, IDLE),
	HCCLT_MOVE(COPYING, DEAD),
	HCCLT_MOVE(LAUNCHING, READY), HCCLT_MOVE(LAUNCHING, IDLE),
	HCCLT_MOVE(LAUNCHING, DEAD),
};

/* Moves that would be executor bugs. */
static const struct hcclt_test_move hcclt_test_refused[] = {
	/* a stream runs only from the runlist */
	HCCLT_MOVE(IDLE, RUNNING), HCCLT_MOVE(IDLE, WAIT_NOTIFY),
	HCCLT_MOVE(IDLE, COPYING),
	/* only a running stream takes up a wait, a copy or a launch */
	HCCLT_MOVE(READY, WAIT_NOTIFY), HCCLT_MOVE(READY, LAUNCHING),
	HCCLT_MOVE(WAIT_NOTIFY, WAIT_EVENT), HCCLT_MOVE(WAIT_EVENT, RUNNING),
	HCCLT_MOVE(COPYING, LAUNCHING), HCCLT_MOVE(LAUNCHING, COPYING),
	HCCLT_MOVE(WAIT_GATE, WAIT_NOTIFY),
	/* nobody else sees a stream running, so nobody kills it then */
	HCCLT_MOVE(RUNNING, DEAD),
	/* dead is final */
	HCCLT_MOVE(DEAD, IDLE), HCCLT_MOVE(DEAD, READY),
	HCCLT_MOVE(DEAD, WAIT_NOTIFY),
	/* no state moves to itself */
	HCCLT_MOVE(IDLE, IDLE), HCCLT_MOVE(READY, READY),
	HCCLT_MOVE(RUNNING, RUNNING), HCCLT_MOVE(DEAD, DEAD),
	/* no such state */
	{ HCCLT_STREAM_IDLE, HCCLT_STREAM_STATES },
	{ HCCLT_STREAM_STATES, HCCLT_STREAM_IDLE },
};

static void hcclt_test_state_table(struct kunit *test)
{
	const struct hcclt_test_move *m;
	u32 from, to, count = 0, i;

	for (i = 0; i < ARRAY_SIZE(hcclt_test_allowed); i++) {
		m = &hcclt_test_allowed[i];
		KUNIT_EXPECT_TRUE_MSG(test,
				      hcclt_stream_state_allowed(m->from, m->to),
				      "%u -> %u", m->from, m->to);
	}
	for (i = 0; i < ARRAY_SIZE(hcclt_test_refused); i++) {
		m = &hcclt_test_refused[i];
		KUNIT_EXPECT_FALSE_MSG(test,
				       hcclt_stream_state_allowed(m->from, m->to),
				       "%u -> %u", m->from, m->to);
	}
	/* The table allows the moves listed above and nothing more. */
	for (from = 0; from < HCCLT_STREAM_STATES; from++)
		for (to = 0; to < HCCLT_STREAM_STATES; to++)
			count += hcclt_stream_state_allowed(from, to);
	KUNIT_EXPECT_EQ(test, (u32)ARRAY_SIZE(hcclt_test_allowed), count);
}

/* The states a stream goes through: a wait, its record, a destruction. */
static void hcclt_test_state_walk(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_stream *b = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 1);

	KUNIT_EXPECT_EQ(test, HCCLT_STREAM_IDLE, a->state);
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 0));
	KUNIT_EXPECT_EQ(test, HCCLT_STREAM_WAIT_NOTIFY, a->state);
	KUNIT_EXPECT_PTR_EQ(test, n, a->parked);
	/* b runs its record and is idle again; a's wait ends, a is idle */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_rec(test, b, n, 1));
	KUNIT_EXPECT_EQ(test, HCCLT_STREAM_IDLE, b->state);
	KUNIT_EXPECT_EQ(test, HCCLT_STREAM_IDLE, a->state);
	KUNIT_EXPECT_NULL(test, a->parked);
	/* parked again, then destroyed: dead, and nothing queues any more */
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_wait(test, a, n, 1, 0));
	KUNIT_EXPECT_EQ(test, HCCLT_STREAM_WAIT_NOTIFY, a->state);
	KUNIT_EXPECT_FALSE(test, hcclt_stream_is_dead(a));
	hcclt_sched_stream_cancel(a, true);
	KUNIT_EXPECT_TRUE(test, hcclt_stream_is_dead(a));
	KUNIT_EXPECT_TRUE(test, list_empty(&n->waiters));
	KUNIT_EXPECT_EQ(test, -ECANCELED, a->error);
	KUNIT_EXPECT_EQ(test, -ENOENT, hcclt_test_rec(test, a, n, 1));
	hcclt_sched_stream_fini(a);
	KUNIT_EXPECT_TRUE(test, hcclt_stream_is_dead(a));
	hcclt_sched_stream_fini(b);
	KUNIT_EXPECT_EQ(test, 1U, kref_read(&n->ref));
	hcclt_notify_put(n);
	hcclt_sched_unplug(hdev);
}

static void hcclt_test_queue_full(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_stream *a = hcclt_test_stream(test, hdev);
	struct hcclt_notify *n = hcclt_test_notify(test, hdev, 0);
	u32 i, depth;

	for (i = 0; i < HCCLT_MAX_QUEUE_DEPTH / HCCLT_MAX_BATCH; i++)
		KUNIT_ASSERT_EQ(test, 0,
				hcclt_test_queue(test, a, HCCLT_TASK_NOTIFY_WAIT,
						 n, HCCLT_MAX_BATCH, 0));
	KUNIT_EXPECT_EQ(test, -EBUSY, hcclt_test_wait(test, a, n, 1, 0));
	hcclt_test_state(a, &depth);
	KUNIT_EXPECT_EQ(test, (u32)HCCLT_MAX_QUEUE_DEPTH, depth);
	hcclt_sched_stream_cancel(a, true);
	KUNIT_EXPECT_EQ(test, -ENOENT, hcclt_test_wait(test, a, n, 1, 0));
	hcclt_sched_stream_fini(a);
	KUNIT_EXPECT_EQ(test, 1U, kref_read(&n->ref));
	hcclt_notify_put(n);
	hcclt_sched_unplug(hdev);
}

/* ---- batch validator ---- */

static struct hcclt_thread *hcclt_test_thread(struct kunit *test,
					      struct hcclt_file *file,
					      struct hcclt_device *hdev,
					      u32 engine, u32 notifies)
{
	struct hcclt_thread *t = hcclt_obj_alloc(HCCLT_OBJ_THREAD);
	u32 i;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t);
	KUNIT_ASSERT_LE(test, notifies, ARRAY_SIZE(t->notify_inline));
	t->notifies = t->notify_inline;
	t->notify_cap = notifies;
	t->file = file;
	t->engine = engine;
	for (i = 0; i < notifies; i++)
		t->notifies[i] = hcclt_test_notify(test, hdev, i);
	t->notify_num = notifies;
	KUNIT_ASSERT_EQ(test, 0, hcclt_id_reserve(&file->threads,
						  HCCLT_ID_KIND_THREAD, t,
						  &t->id));
	kref_init(&t->ref);
	hcclt_obj_publish(&t->live);
	return t;
}

static int hcclt_test_prepare(struct hcclt_prep *pp, u32 op, u32 idx,
			      u64 dst, u32 timeout_s, u32 pad)
{
	struct drm_hcclt_task ut = {
		.op = op, .notify_idx = idx, .dst_thread = dst,
		.timeout_s = timeout_s, .pad = pad,
	};
	struct hcclt_task task;
	int ret;

	ret = hcclt_task_prepare(pp, &ut, &task);
	if (!ret)
		hcclt_notify_put(task.notify);
	return ret;
}

static void hcclt_test_validator(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_file file = { .hdev = hdev };
	struct hcclt_thread *t1, *t2;
	struct hcclt_prep pp = { .file = &file };
	const u32 rec = HCCLT_TASK_NOTIFY_RECORD, wait = HCCLT_TASK_NOTIFY_WAIT;

	hcclt_ids_init(&file.threads, HCCLT_ID_INDEX_MASK);
	t1 = hcclt_test_thread(test, &file, hdev, HCCLT_ENGINE_CPU, 2);
	t2 = hcclt_test_thread(test, &file, hdev, HCCLT_ENGINE_AICPU, 1);

	pp.thread = t1;
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_test_prepare(&pp, 0, 0, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_test_prepare(&pp, 5, 0, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			hcclt_test_prepare(&pp, wait, 0, 0, 0, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			hcclt_test_prepare(&pp, rec, 0, t1->id, 1, 0));
	KUNIT_EXPECT_EQ(test, -ENOENT,
			hcclt_test_prepare(&pp, rec, 0, t1->id + 100, 0, 0));
	KUNIT_EXPECT_EQ(test, -ENOENT, hcclt_test_prepare(&pp, rec, 0, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			hcclt_test_prepare(&pp, rec, 0, t2->id, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			hcclt_test_prepare(&pp, rec, 2, t1->id, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_prepare(&pp, rec, 1, t1->id, 0, 0));
	/* a thread in the table but not yet live is not found */
	WRITE_ONCE(t2->live, false);
	hcclt_thread_put(pp.dst);
	pp.dst = NULL;
	KUNIT_EXPECT_EQ(test, -ENOENT,
			hcclt_test_prepare(&pp, rec, 0, t2->id, 0, 0));
	hcclt_obj_publish(&t2->live);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			hcclt_test_prepare(&pp, wait, 0, t1->id, 0, 0));
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_test_prepare(&pp, wait, 2, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_prepare(&pp, wait, 1, 0, 0, 0));

	/* a stream handle: records to any engine, no waits */
	pp.thread = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, hcclt_test_prepare(&pp, wait, 0, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_prepare(&pp, rec, 0, t2->id, 0, 0));
	KUNIT_EXPECT_EQ(test, 0, hcclt_test_prepare(&pp, rec, 1, t1->id, 0, 0));

	hcclt_thread_put(pp.dst);
	hcclt_id_remove(&file.threads, t1->id);
	hcclt_id_remove(&file.threads, t2->id);
	hcclt_thread_put(t1);
	hcclt_thread_put(t2);
	xa_destroy(&file.threads.xa);
	hcclt_sched_unplug(hdev);
}

/* ---- backend access ---- */

/* What the mock backend saw: calls, and whether the device was there. */
static int hcclt_mock_allocs, hcclt_mock_frees, hcclt_mock_absent;

static int hcclt_mock_slot_alloc(struct hcclt_device *hdev, u32 *slot)
{
	hcclt_mock_allocs++;
	*slot = 7;
	return 0;
}

static void hcclt_mock_slot_free(struct hcclt_device *hdev, u32 slot,
				 bool present)
{
	hcclt_mock_frees++;
	if (!present)
		hcclt_mock_absent++;
}

static bool hcclt_mock_submit(struct hcclt_device *hdev,
			      struct hcclt_stream *s)
{
	hcclt_mock_allocs++;
	return true;
}

static const struct hcclt_hw_ops hcclt_mock_ops = {
	.name = "mock",
	.stream_slot_alloc = hcclt_mock_slot_alloc,
	.stream_slot_free = hcclt_mock_slot_free,
	.notify_slot_alloc = hcclt_mock_slot_alloc,
	.notify_slot_free = hcclt_mock_slot_free,
	.submit = hcclt_mock_submit,
};

/*
 * Every backend call is inside drm_dev_enter(): once the DRM device is
 * unplugged, allocations and submits do not reach the backend, and frees
 * do, told that the device is gone.
 */
static void hcclt_test_backend_unplugged(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	u32 slot = 0;

	hdev->hw = &hcclt_mock_ops;
	hcclt_mock_allocs = 0;
	hcclt_mock_frees = 0;
	hcclt_mock_absent = 0;
	KUNIT_EXPECT_EQ(test, 0, hcclt_hw_stream_slot_alloc(hdev, &slot));
	KUNIT_EXPECT_EQ(test, 7U, slot);
	KUNIT_EXPECT_EQ(test, 0, hcclt_hw_notify_slot_alloc(hdev, &slot));
	KUNIT_EXPECT_TRUE(test, hcclt_hw_submit(hdev, NULL));
	hcclt_hw_stream_slot_free(hdev, slot);
	hcclt_hw_notify_slot_free(hdev, slot);
	KUNIT_EXPECT_EQ(test, 3, hcclt_mock_allocs);
	KUNIT_EXPECT_EQ(test, 2, hcclt_mock_frees);
	KUNIT_EXPECT_EQ(test, 0, hcclt_mock_absent);

	/* What drm_dev_unplug() sets, without a registered device. */
	hdev->drm.unplugged = true;
	KUNIT_EXPECT_EQ(test, -ENODEV, hcclt_hw_stream_slot_alloc(hdev, &slot));
	KUNIT_EXPECT_EQ(test, -ENODEV, hcclt_hw_notify_slot_alloc(hdev, &slot));
	KUNIT_EXPECT_FALSE(test, hcclt_hw_submit(hdev, NULL));
	hcclt_hw_stream_slot_free(hdev, slot);
	hcclt_hw_notify_slot_free(hdev, slot);
	KUNIT_EXPECT_EQ(test, 3, hcclt_mock_allocs);
	KUNIT_EXPECT_EQ(test, 4, hcclt_mock_frees);
	KUNIT_EXPECT_EQ(test, 2, hcclt_mock_absent);
	hcclt_sched_unplug(hdev);
}

/* ---- lookups ---- */

static void hcclt_test_lookup(struct kunit *test)
{
	struct hcclt_device *hdev = hcclt_test_dev(test);
	struct hcclt_file file = { .hdev = hdev };
	struct hcclt_thread *t, *found;
	u64 id;

	hcclt_ids_init(&file.threads, HCCLT_ID_INDEX_MASK);
	t = hcclt_test_thread(test, &file, hdev, HCCLT_ENGINE_CPU, 0);
	id = t->id;

	found = hcclt_thread_lookup(&file, id);
	KUNIT_EXPECT_PTR_EQ(test, t, found);
	KUNIT_EXPECT_EQ(test, 2U, kref_read(&t->ref));
	hcclt_thread_put(found);
	/* a stale id of the index (another sequence number): no reference */
	KUNIT_EXPECT_NULL(test, hcclt_thread_lookup(&file, id +
						    BIT_ULL(HCCLT_ID_SEQ_SHIFT)));
	KUNIT_EXPECT_EQ(test, 1U, kref_read(&t->ref));
	/* not published yet, or its last reference gone: not found */
	WRITE_ONCE(t->live, false);
	KUNIT_EXPECT_NULL(test, hcclt_thread_lookup(&file, id));
	hcclt_obj_publish(&t->live);
	refcount_set(&t->ref.refcount, 0);
	KUNIT_EXPECT_NULL(test, hcclt_thread_lookup(&file, id));
	refcount_set(&t->ref.refcount, 1);
	/* removed */
	hcclt_id_remove(&file.threads, t->id);
	KUNIT_EXPECT_NULL(test, hcclt_thread_lookup(&file, id));
	KUNIT_EXPECT_EQ(test, 1U, kref_read(&t->ref));
	hcclt_thread_put(t);
	xa_destroy(&file.threads.xa);
	hcclt_sched_unplug(hdev);
}

static struct kunit_case hcclt_test_cases[] = {
	KUNIT_CASE(hcclt_test_ids),
	KUNIT_CASE(hcclt_test_quota),
	KUNIT_CASE(hcclt_test_quota_2026_04),
	KUNIT_CASE(hcclt_test_quota_2026_08),
	KUNIT_CASE(hcclt_test_pools),
	KUNIT_CASE(hcclt_test_record_then_wait),
	KUNIT_CASE(hcclt_test_wait_then_record),
	KUNIT_CASE(hcclt_test_spare),
	KUNIT_CASE(hcclt_test_binary),
	KUNIT_CASE(hcclt_test_lost_record),
	KUNIT_CASE(hcclt_test_timeout),
	KUNIT_CASE(hcclt_test_failure_modes),
	KUNIT_CASE(hcclt_test_state_table),
	KUNIT_CASE(hcclt_test_state_walk),
	KUNIT_CASE(hcclt_test_queue_full),
	KUNIT_CASE(hcclt_test_validator),
	KUNIT_CASE(hcclt_test_lookup),
	KUNIT_CASE(hcclt_test_backend_unplugged),
	{}
};

/*
 * Kernels before 6.3 run a module's suites when it is coming, before its
 * init function: the object caches and the account tables do not exist
 * yet then.
 */
static bool hcclt_test_own_caches;
static bool hcclt_test_own_limits;

static void hcclt_test_suite_exit(struct kunit_suite *suite)
{
	if (hcclt_test_own_limits)
		hcclt_limits_fini();
	if (hcclt_test_own_caches) {
		rcu_barrier();
		hcclt_obj_caches_fini();
	}
	hcclt_test_own_caches = false;
	hcclt_test_own_limits = false;
}

static int hcclt_test_suite_init(struct kunit_suite *suite)
{
	int ret;

	if (!hcclt_obj_caches_ready()) {
		ret = hcclt_obj_caches_init();
		if (ret)
			return ret;
		hcclt_test_own_caches = true;
	}
	if (!hcclt_limits_ready()) {
		ret = hcclt_limits_init();
		if (ret) {
			hcclt_test_suite_exit(suite);
			return ret;
		}
		hcclt_test_own_limits = true;
	}
	return 0;
}

static struct kunit_suite hcclt_test_suite = {
	.name = "hcclthread",
	.suite_init = hcclt_test_suite_init,
	.suite_exit = hcclt_test_suite_exit,
	.test_cases = hcclt_test_cases,
};

kunit_test_suite(hcclt_test_suite);
