// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the reduce arithmetic (hcclt_reduce.c) and its tables
 * (hcclt_copy.c): the element size of every type, the known ops, and for
 * every type and op known answers at the edges (wrap-around, signed and
 * unsigned order, rounding ties, overflow to infinity, subnormals, NaN,
 * signed zeros), given as bit patterns so that this file, built without
 * the FPU flags, needs no floating point. The integer types are also
 * checked against a reference of their own over pseudo-random elements,
 * and the saturation of every float type (hcclt_saturate()).
 * Built into the module with HCCLT_KUNIT=1 (Kbuild); suite
 * "hcclthread_reduce", run when the module loads.
 */

#include <kunit/test.h>
#include <linux/prandom.h>
#include <linux/slab.h>

#include "hcclthread_accel.h"
#include "hcclt_reduce.h"

/* One element pair and the destination's value after the reduce. */
struct hcclt_rvec {
	u64 d;
	u64 s;
	u64 want;
};

/* A floating point result that must be a NaN, whatever its payload. */
#define HCCLT_RV_NAN	U64_MAX

static const struct hcclt_rvec hcclt_rv_s8_sum[] = {
	{ 0x7f, 0x01, 0x80 }, { 0xff, 0x01, 0x00 }, { 0x80, 0x80, 0x00 },
	{ 0x05, 0xfd, 0x02 },
};

static const struct hcclt_rvec hcclt_rv_s8_prod[] = {
	{ 0x10, 0x10, 0x00 }, { 0xff, 0xff, 0x01 }, { 0x7f, 0x02, 0xfe },
	{ 0x80, 0xff, 0x80 }, { 0x0b, 0xfd, 0xdf },
};

static const struct hcclt_rvec hcclt_rv_s8_max[] = {
	{ 0x80, 0x7f, 0x7f }, { 0xff, 0x01, 0x01 }, { 0xfe, 0xff, 0xff },
};

static const struct hcclt_rvec hcclt_rv_s8_min[] = {
	{ 0x80, 0x7f, 0x80 }, { 0xff, 0x01, 0xff }, { 0xfe, 0xff, 0xfe },
};

static const struct hcclt_rvec hcclt_rv_u8_sum[] = {
	{ 0xff, 0x01, 0x00 }, { 0x80, 0x80, 0x00 }, { 0x7f, 0x01, 0x80 },
};

static const struct hcclt_rvec hcclt_rv_u8_prod[] = {
	{ 0x10, 0x10, 0x00 }, { 0xff, 0xff, 0x01 }, { 0x0f, 0x11, 0xff },
	{ 0x80, 0x03, 0x80 },
};

static const struct hcclt_rvec hcclt_rv_u8_max[] = {
	{ 0xff, 0x01, 0xff }, { 0x80, 0x7f, 0x80 },
};

static const struct hcclt_rvec hcclt_rv_u8_min[] = {
	{ 0xff, 0x01, 0x01 }, { 0x80, 0x7f, 0x7f },
};

static const struct hcclt_rvec hcclt_rv_s16_sum[] = {
	{ 0x7fff, 0x0001, 0x8000 }, { 0xffff, 0x0001, 0x0000 },
	{ 0x8000, 0x8000, 0x0000 }, { 0x1234, 0xedcc, 0x0000 },
};

static const struct hcclt_rvec hcclt_rv_s16_prod[] = {
	{ 0x0100, 0x0100, 0x0000 }, { 0xffff, 0xffff, 0x0001 },
	{ 0x7fff, 0x0002, 0xfffe }, { 0x8000, 0xffff, 0x8000 },
	{ 0x0003, 0xfffd, 0xfff7 },
};

static const struct hcclt_rvec hcclt_rv_s16_max[] = {
	{ 0x8000, 0x7fff, 0x7fff }, { 0xffff, 0x0001, 0x0001 },
	{ 0xfffe, 0xffff, 0xffff },
};

static const struct hcclt_rvec hcclt_rv_s16_min[] = {
	{ 0x8000, 0x7fff, 0x8000 }, { 0xffff, 0x0001, 0xffff },
	{ 0xfffe, 0xffff, 0xfffe },
};

static const struct hcclt_rvec hcclt_rv_u16_sum[] = {
	{ 0xffff, 0x0001, 0x0000 }, { 0x8000, 0x8000, 0x0000 },
	{ 0x7fff, 0x0001, 0x8000 },
};

static const struct hcclt_rvec hcclt_rv_u16_prod[] = {
	{ 0x0100, 0x0100, 0x0000 }, { 0xffff, 0xffff, 0x0001 },
	{ 0x00ff, 0x0101, 0xffff }, { 0x8000, 0x0003, 0x8000 },
};

static const struct hcclt_rvec hcclt_rv_u16_max[] = {
	{ 0xffff, 0x0001, 0xffff }, { 0x8000, 0x7fff, 0x8000 },
};

static const struct hcclt_rvec hcclt_rv_u16_min[] = {
	{ 0xffff, 0x0001, 0x0001 }, { 0x8000, 0x7fff, 0x7fff },
};

static const struct hcclt_rvec hcclt_rv_s32_sum[] = {
	{ 0x7fffffff, 0x00000001, 0x80000000 },
	{ 0xffffffff, 0x00000001, 0x00000000 },
	{ 0x80000000, 0x80000000, 0x00000000 },
};

static const struct hcclt_rvec hcclt_rv_s32_prod[] = {
	{ 0x00010000, 0x00010000, 0x00000000 },
	{ 0xffffffff, 0xffffffff, 0x00000001 },
	{ 0x7fffffff, 0x00000002, 0xfffffffe },
	{ 0x80000000, 0xffffffff, 0x80000000 },
	{ 0x00000007, 0xfffffffa, 0xffffffd6 },
};

static const struct hcclt_rvec hcclt_rv_s32_max[] = {
	{ 0x80000000, 0x7fffffff, 0x7fffffff },
	{ 0xffffffff, 0x00000001, 0x00000001 },
	{ 0xfffffffe, 0xffffffff, 0xffffffff },
};

static const struct hcclt_rvec hcclt_rv_s32_min[] = {
	{ 0x80000000, 0x7fffffff, 0x80000000 },
	{ 0xffffffff, 0x00000001, 0xffffffff },
	{ 0xfffffffe, 0xffffffff, 0xfffffffe },
};

static const struct hcclt_rvec hcclt_rv_u32_sum[] = {
	{ 0xffffffff, 0x00000001, 0x00000000 },
	{ 0x80000000, 0x80000000, 0x00000000 },
	{ 0x7fffffff, 0x00000001, 0x80000000 },
};

static const struct hcclt_rvec hcclt_rv_u32_prod[] = {
	{ 0x00010000, 0x00010000, 0x00000000 },
	{ 0xffffffff, 0xffffffff, 0x00000001 },
	{ 0x0000ffff, 0x00010001, 0xffffffff },
	{ 0x80000000, 0x00000003, 0x80000000 },
};

static const struct hcclt_rvec hcclt_rv_u32_max[] = {
	{ 0xffffffff, 0x00000001, 0xffffffff },
	{ 0x80000000, 0x7fffffff, 0x80000000 },
};

static const struct hcclt_rvec hcclt_rv_u32_min[] = {
	{ 0xffffffff, 0x00000001, 0x00000001 },
	{ 0x80000000, 0x7fffffff, 0x7fffffff },
};

static const struct hcclt_rvec hcclt_rv_s64_sum[] = {
	{ 0x7fffffffffffffff, 1, 0x8000000000000000 },
	{ U64_MAX, 1, 0 },
	{ 0x8000000000000000, 0x8000000000000000, 0 },
	{ 0x00000000ffffffff, 1, 0x0000000100000000 },
};

static const struct hcclt_rvec hcclt_rv_s64_prod[] = {
	{ 0x0000000100000000, 0x0000000100000000, 0 },
	{ U64_MAX, U64_MAX, 1 },
	{ 0x7fffffffffffffff, 2, 0xfffffffffffffffe },
	{ 0x8000000000000000, U64_MAX, 0x8000000000000000 },
	{ 0x00000000ffffffff, 0x00000000ffffffff, 0xfffffffe00000001 },
	{ 7, 0xfffffffffffffffa, 0xffffffffffffffd6 },
};

static const struct hcclt_rvec hcclt_rv_s64_max[] = {
	{ 0x8000000000000000, 0x7fffffffffffffff, 0x7fffffffffffffff },
	{ U64_MAX, 1, 1 },
	{ 0x0000000100000000, 0x00000000ffffffff, 0x0000000100000000 },
	{ 0xfffffffffffffffe, U64_MAX, U64_MAX },
};

static const struct hcclt_rvec hcclt_rv_s64_min[] = {
	{ 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000 },
	{ U64_MAX, 1, U64_MAX },
	{ 0x0000000100000000, 0x00000000ffffffff, 0x00000000ffffffff },
};

static const struct hcclt_rvec hcclt_rv_u64_sum[] = {
	{ U64_MAX, 1, 0 },
	{ 0x8000000000000000, 0x8000000000000000, 0 },
	{ 0x00000000ffffffff, 1, 0x0000000100000000 },
};

static const struct hcclt_rvec hcclt_rv_u64_prod[] = {
	{ 0x0000000100000000, 0x0000000100000000, 0 },
	{ U64_MAX, U64_MAX, 1 },
	{ 0x00000000ffffffff, 0x0000000100000001, U64_MAX },
	{ 0x8000000000000000, 3, 0x8000000000000000 },
};

static const struct hcclt_rvec hcclt_rv_u64_max[] = {
	{ U64_MAX, 1, U64_MAX },
	{ 0x8000000000000000, 0x7fffffffffffffff, 0x8000000000000000 },
	{ 0x0000000100000000, 0x00000000ffffffff, 0x0000000100000000 },
};

static const struct hcclt_rvec hcclt_rv_u64_min[] = {
	{ U64_MAX, 1, 1 },
	{ 0x8000000000000000, 0x7fffffffffffffff, 0x7fffffffffffffff },
	{ 0x0000000100000000, 0x00000000ffffffff, 0x00000000ffffffff },
};

/*
 * FP16: 1.0 0x3c00, 2.0 0x4000, 0.5 0x3800, largest 0x7bff (65504), inf
 * 0x7c00, smallest subnormal 0x0001 (2^-24); 0x1000 is 2^-11, half of
 * 1.0's ulp; 0x1600 is 1.5 ulps of 1.0; 0x4c00 is 16, 0x4b80 15.
 */
static const struct hcclt_rvec hcclt_rv_f16_sum[] = {
	{ 0x3c00, 0x4000, 0x4200 },	/* 1 + 2 = 3 */
	{ 0x7bff, 0x7bff, 0x7c00 },	/* overflow: inf */
	{ 0x7c00, 0xfc00, HCCLT_RV_NAN },
	{ 0x8000, 0x0000, 0x0000 },	/* -0 + +0 = +0 */
	{ 0x0001, 0x0001, 0x0002 },	/* subnormals kept */
	{ 0x3c00, 0x1000, 0x3c00 },	/* tie: to even */
	{ 0x3c00, 0x1600, 0x3c02 },	/* tie: to even, up */
	{ 0x7bff, 0x4c00, 0x7c00 },	/* 65520 rounds to inf */
	{ 0x7bff, 0x4b80, 0x7bff },	/* 65519 does not */
};

static const struct hcclt_rvec hcclt_rv_f16_prod[] = {
	{ 0x3e00, 0x4400, 0x4600 },	/* 1.5 * 4 = 6 */
	{ 0xbc00, 0x0000, 0x8000 },	/* -1 * 0 = -0 */
	{ 0x7bff, 0x4000, 0x7c00 },	/* overflow: inf */
	{ 0x0001, 0x3800, 0x0000 },	/* 2^-25: tie to 0 */
	{ 0x0003, 0x3800, 0x0002 },	/* 1.5 * 2^-24: tie to 2 */
	{ 0x0400, 0x3800, 0x0200 },	/* normal to subnormal */
	{ 0x7c00, 0x0000, HCCLT_RV_NAN },	/* inf * 0 */
	{ 0x3c01, 0x3c01, 0x3c02 },	/* (1 + ulp)^2 */
};

static const struct hcclt_rvec hcclt_rv_f16_max[] = {
	{ 0x3c00, 0x4000, 0x4000 },
	{ 0x8000, 0x0000, 0x8000 },	/* equal: the destination */
	{ 0x7e01, 0x3c00, 0x7e01 },	/* NaN: that NaN */
	{ 0x3c00, 0xfe03, 0xfe03 },
	{ 0x7e01, 0x7e02, 0x7e01 },	/* two: the destination's */
	{ 0xfc00, 0x7bff, 0x7bff },
	{ 0x0001, 0x8001, 0x0001 },
};

static const struct hcclt_rvec hcclt_rv_f16_min[] = {
	{ 0x3c00, 0x4000, 0x3c00 },
	{ 0x0000, 0x8000, 0x0000 },
	{ 0x7e01, 0x3c00, 0x7e01 },
	{ 0x3c00, 0xfe03, 0xfe03 },
	{ 0xfc00, 0x7bff, 0xfc00 },
	{ 0x0001, 0x8001, 0x8001 },
};

/* BF16: 1.0 0x3f80, largest 0x7f7f; 0x3b80 is 2^-8, 0x3c40 3 * 2^-8. */
static const struct hcclt_rvec hcclt_rv_b16_sum[] = {
	{ 0x3f80, 0x4000, 0x4040 },
	{ 0x7f7f, 0x7f7f, 0x7f80 },
	{ 0x7f80, 0xff80, HCCLT_RV_NAN },
	{ 0x8000, 0x0000, 0x0000 },
	{ 0x0001, 0x0001, 0x0002 },
	{ 0x3f80, 0x3b80, 0x3f80 },
	{ 0x3f80, 0x3c40, 0x3f82 },
};

static const struct hcclt_rvec hcclt_rv_b16_prod[] = {
	{ 0x3fc0, 0x4080, 0x40c0 },
	{ 0xbf80, 0x0000, 0x8000 },
	{ 0x7f7f, 0x4000, 0x7f80 },
	{ 0x0001, 0x3f00, 0x0000 },
	{ 0x0003, 0x3f00, 0x0002 },
	{ 0x7f80, 0x0000, HCCLT_RV_NAN },
	{ 0x3f81, 0x3f81, 0x3f82 },
};

static const struct hcclt_rvec hcclt_rv_b16_max[] = {
	{ 0x3f80, 0x4000, 0x4000 },
	{ 0x8000, 0x0000, 0x8000 },
	{ 0x7fc1, 0x3f80, 0x7fc1 },
	{ 0x3f80, 0xffc3, 0xffc3 },
	{ 0x7fc1, 0x7fc2, 0x7fc1 },
	{ 0xff80, 0x7f7f, 0x7f7f },
	{ 0x0001, 0x8001, 0x0001 },
};

static const struct hcclt_rvec hcclt_rv_b16_min[] = {
	{ 0x3f80, 0x4000, 0x3f80 },
	{ 0x0000, 0x8000, 0x0000 },
	{ 0x7fc1, 0x3f80, 0x7fc1 },
	{ 0x3f80, 0xffc3, 0xffc3 },
	{ 0xff80, 0x7f7f, 0xff80 },
	{ 0x0001, 0x8001, 0x8001 },
};

/* FP32: 0x33800000 is 2^-24, half of 1.0's ulp; 0x34400000 1.5 ulps. */
static const struct hcclt_rvec hcclt_rv_f32_sum[] = {
	{ 0x3f800000, 0x40000000, 0x40400000 },
	{ 0x7f7fffff, 0x7f7fffff, 0x7f800000 },
	{ 0x7f800000, 0xff800000, HCCLT_RV_NAN },
	{ 0x80000000, 0x00000000, 0x00000000 },
	{ 0x00000001, 0x00000001, 0x00000002 },
	{ 0x3f800000, 0x33800000, 0x3f800000 },
	{ 0x3f800000, 0x34400000, 0x3f800002 },
	{ 0x7fc00000, 0x3f800000, HCCLT_RV_NAN },
};

static const struct hcclt_rvec hcclt_rv_f32_prod[] = {
	{ 0x3fc00000, 0x40800000, 0x40c00000 },
	{ 0xbf800000, 0x00000000, 0x80000000 },
	{ 0x7f7fffff, 0x40000000, 0x7f800000 },
	{ 0x00000001, 0x3f000000, 0x00000000 },
	{ 0x00000003, 0x3f000000, 0x00000002 },
	{ 0x7f800000, 0x00000000, HCCLT_RV_NAN },
	{ 0x3f800001, 0x3f800001, 0x3f800002 },
};

static const struct hcclt_rvec hcclt_rv_f32_max[] = {
	{ 0x3f800000, 0x40000000, 0x40000000 },
	{ 0x80000000, 0x00000000, 0x80000000 },
	{ 0x7fc00001, 0x3f800000, 0x7fc00001 },
	{ 0x3f800000, 0xffc00002, 0xffc00002 },
	{ 0x7fc00001, 0x7fc00002, 0x7fc00001 },
	{ 0xff800000, 0x7f7fffff, 0x7f7fffff },
	{ 0x00000001, 0x80000001, 0x00000001 },
};

static const struct hcclt_rvec hcclt_rv_f32_min[] = {
	{ 0x3f800000, 0x40000000, 0x3f800000 },
	{ 0x00000000, 0x80000000, 0x00000000 },
	{ 0x7fc00001, 0x3f800000, 0x7fc00001 },
	{ 0x3f800000, 0xffc00002, 0xffc00002 },
	{ 0xff800000, 0x7f7fffff, 0xff800000 },
	{ 0x00000001, 0x80000001, 0x80000001 },
};

/*
 * FP64: 1.0 0x3ff0000000000000; 0x3ca0000000000000 is 2^-53, half of
 * 1.0's ulp, 0x3cb8000000000000 1.5 ulps; 0x3e70000000000000 is 2^-24,
 * which FP32 would lose.
 */
static const struct hcclt_rvec hcclt_rv_f64_sum[] = {
	{ 0x3ff0000000000000, 0x4000000000000000, 0x4008000000000000 },
	{ 0x7fefffffffffffff, 0x7fefffffffffffff, 0x7ff0000000000000 },
	{ 0x7ff0000000000000, 0xfff0000000000000, HCCLT_RV_NAN },
	{ 0x8000000000000000, 0x0000000000000000, 0x0000000000000000 },
	{ 0x0000000000000001, 0x0000000000000001, 0x0000000000000002 },
	{ 0x3ff0000000000000, 0x3ca0000000000000, 0x3ff0000000000000 },
	{ 0x3ff0000000000000, 0x3cb8000000000000, 0x3ff0000000000002 },
	{ 0x3ff0000000000000, 0x3e70000000000000, 0x3ff0000010000000 },
};

static const struct hcclt_rvec hcclt_rv_f64_prod[] = {
	{ 0x3ff8000000000000, 0x4010000000000000, 0x4018000000000000 },
	{ 0xbff0000000000000, 0x0000000000000000, 0x8000000000000000 },
	{ 0x7fefffffffffffff, 0x4000000000000000, 0x7ff0000000000000 },
	{ 0x0000000000000001, 0x3fe0000000000000, 0x0000000000000000 },
	{ 0x0000000000000003, 0x3fe0000000000000, 0x0000000000000002 },
	{ 0x7ff0000000000000, 0x0000000000000000, HCCLT_RV_NAN },
	{ 0x3ff0000000000001, 0x3ff0000000000001, 0x3ff0000000000002 },
};

static const struct hcclt_rvec hcclt_rv_f64_max[] = {
	{ 0x3ff0000000000000, 0x4000000000000000, 0x4000000000000000 },
	{ 0x8000000000000000, 0x0000000000000000, 0x8000000000000000 },
	{ 0x7ff8000000000001, 0x3ff0000000000000, 0x7ff8000000000001 },
	{ 0x3ff0000000000000, 0xfff8000000000002, 0xfff8000000000002 },
	{ 0x7ff8000000000001, 0x7ff8000000000002, 0x7ff8000000000001 },
	{ 0xfff0000000000000, 0x7fefffffffffffff, 0x7fefffffffffffff },
	{ 0x0000000000000001, 0x8000000000000001, 0x0000000000000001 },
};

static const struct hcclt_rvec hcclt_rv_f64_min[] = {
	{ 0x3ff0000000000000, 0x4000000000000000, 0x3ff0000000000000 },
	{ 0x0000000000000000, 0x8000000000000000, 0x0000000000000000 },
	{ 0x7ff8000000000001, 0x3ff0000000000000, 0x7ff8000000000001 },
	{ 0x3ff0000000000000, 0xfff8000000000002, 0xfff8000000000002 },
	{ 0xfff0000000000000, 0x7fefffffffffffff, 0xfff0000000000000 },
	{ 0x0000000000000001, 0x8000000000000001, 0x8000000000000001 },
};

/* A type and op and their known answers. */
struct hcclt_rcase {
	const char *name;
	u32 dtype;
	u32 op;
	const struct hcclt_rvec *v;
	unsigned int n;
};

static const struct hcclt_rcase hcclt_rcases[] = {
	{ "INT8 SUM", HCCLT_DTYPE_INT8, HCCLT_REDUCE_SUM,
	  hcclt_rv_s8_sum, ARRAY_SIZE(hcclt_rv_s8_sum) },
	{ "INT8 PROD", HCCLT_DTYPE_INT8, HCCLT_REDUCE_PROD,
	  hcclt_rv_s8_prod, ARRAY_SIZE(hcclt_rv_s8_prod) },
	{ "INT8 MAX", HCCLT_DTYPE_INT8, HCCLT_REDUCE_MAX,
	  hcclt_rv_s8_max, ARRAY_SIZE(hcclt_rv_s8_max) },
	{ "INT8 MIN", HCCLT_DTYPE_INT8, HCCLT_REDUCE_MIN,
	  hcclt_rv_s8_min, ARRAY_SIZE(hcclt_rv_s8_min) },
	{ "INT16 SUM", HCCLT_DTYPE_INT16, HCCLT_REDUCE_SUM,
	  hcclt_rv_s16_sum, ARRAY_SIZE(hcclt_rv_s16_sum) },
	{ "INT16 PROD", HCCLT_DTYPE_INT16, HCCLT_REDUCE_PROD,
	  hcclt_rv_s16_prod, ARRAY_SIZE(hcclt_rv_s16_prod) },
	{ "INT16 MAX", HCCLT_DTYPE_INT16, HCCLT_REDUCE_MAX,
	  hcclt_rv_s16_max, ARRAY_SIZE(hcclt_rv_s16_max) },
	{ "INT16 MIN", HCCLT_DTYPE_INT16, HCCLT_REDUCE_MIN,
	  hcclt_rv_s16_min, ARRAY_SIZE(hcclt_rv_s16_min) },
	{ "INT32 SUM", HCCLT_DTYPE_INT32, HCCLT_REDUCE_SUM,
	  hcclt_rv_s32_sum, ARRAY_SIZE(hcclt_rv_s32_sum) },
	{ "INT32 PROD", HCCLT_DTYPE_INT32, HCCLT_REDUCE_PROD,
	  hcclt_rv_s32_prod, ARRAY_SIZE(hcclt_rv_s32_prod) },
	{ "INT32 MAX", HCCLT_DTYPE_INT32, HCCLT_REDUCE_MAX,
	  hcclt_rv_s32_max, ARRAY_SIZE(hcclt_rv_s32_max) },
	{ "INT32 MIN", HCCLT_DTYPE_INT32, HCCLT_REDUCE_MIN,
	  hcclt_rv_s32_min, ARRAY_SIZE(hcclt_rv_s32_min) },
	{ "INT64 SUM", HCCLT_DTYPE_INT64, HCCLT_REDUCE_SUM,
	  hcclt_rv_s64_sum, ARRAY_SIZE(hcclt_rv_s64_sum) },
	{ "INT64 PROD", HCCLT_DTYPE_INT64, HCCLT_REDUCE_PROD,
	  hcclt_rv_s64_prod, ARRAY_SIZE(hcclt_rv_s64_prod) },
	{ "INT64 MAX", HCCLT_DTYPE_INT64, HCCLT_REDUCE_MAX,
	  hcclt_rv_s64_max, ARRAY_SIZE(hcclt_rv_s64_max) },
	{ "INT64 MIN", HCCLT_DTYPE_INT64, HCCLT_REDUCE_MIN,
	  hcclt_rv_s64_min, ARRAY_SIZE(hcclt_rv_s64_min) },
	{ "UINT8 SUM", HCCLT_DTYPE_UINT8, HCCLT_REDUCE_SUM,
	  hcclt_rv_u8_sum, ARRAY_SIZE(hcclt_rv_u8_sum) },
	{ "UINT8 PROD", HCCLT_DTYPE_UINT8, HCCLT_REDUCE_PROD,
	  hcclt_rv_u8_prod, ARRAY_SIZE(hcclt_rv_u8_prod) },
	{ "UINT8 MAX", HCCLT_DTYPE_UINT8, HCCLT_REDUCE_MAX,
	  hcclt_rv_u8_max, ARRAY_SIZE(hcclt_rv_u8_max) },
	{ "UINT8 MIN", HCCLT_DTYPE_UINT8, HCCLT_REDUCE_MIN,
	  hcclt_rv_u8_min, ARRAY_SIZE(hcclt_rv_u8_min) },
	{ "UINT16 SUM", HCCLT_DTYPE_UINT16, HCCLT_REDUCE_SUM,
	  hcclt_rv_u16_sum, ARRAY_SIZE(hcclt_rv_u16_sum) },
	{ "UINT16 PROD", HCCLT_DTYPE_UINT16, HCCLT_REDUCE_PROD,
	  hcclt_rv_u16_prod, ARRAY_SIZE(hcclt_rv_u16_prod) },
	{ "UINT16 MAX", HCCLT_DTYPE_UINT16, HCCLT_REDUCE_MAX,
	  hcclt_rv_u16_max, ARRAY_SIZE(hcclt_rv_u16_max) },
	{ "UINT16 MIN", HCCLT_DTYPE_UINT16, HCCLT_REDUCE_MIN,
	  hcclt_rv_u16_min, ARRAY_SIZE(hcclt_rv_u16_min) },
	{ "UINT32 SUM", HCCLT_DTYPE_UINT32, HCCLT_REDUCE_SUM,
	  hcclt_rv_u32_sum, ARRAY_SIZE(hcclt_rv_u32_sum) },
	{ "UINT32 PROD", HCCLT_DTYPE_UINT32, HCCLT_REDUCE_PROD,
	  hcclt_rv_u32_prod, ARRAY_SIZE(hcclt_rv_u32_prod) },
	{ "UINT32 MAX", HCCLT_DTYPE_UINT32, HCCLT_REDUCE_MAX,
	  hcclt_rv_u32_max, ARRAY_SIZE(hcclt_rv_u32_max) },
	{ "UINT32 MIN", HCCLT_DTYPE_UINT32, HCCLT_REDUCE_MIN,
	  hcclt_rv_u32_min, ARRAY_SIZE(hcclt_rv_u32_min) },
	{ "UINT64 SUM", HCCLT_DTYPE_UINT64, HCCLT_REDUCE_SUM,
	  hcclt_rv_u64_sum, ARRAY_SIZE(hcclt_rv_u64_sum) },
	{ "UINT64 PROD", HCCLT_DTYPE_UINT64, HCCLT_REDUCE_PROD,
	  hcclt_rv_u64_prod, ARRAY_SIZE(hcclt_rv_u64_prod) },
	{ "UINT64 MAX", HCCLT_DTYPE_UINT64, HCCLT_REDUCE_MAX,
	  hcclt_rv_u64_max, ARRAY_SIZE(hcclt_rv_u64_max) },
	{ "UINT64 MIN", HCCLT_DTYPE_UINT64, HCCLT_REDUCE_MIN,
	  hcclt_rv_u64_min, ARRAY_SIZE(hcclt_rv_u64_min) },
	{ "FP16 SUM", HCCLT_DTYPE_FP16, HCCLT_REDUCE_SUM,
	  hcclt_rv_f16_sum, ARRAY_SIZE(hcclt_rv_f16_sum) },
	{ "FP16 PROD", HCCLT_DTYPE_FP16, HCCLT_REDUCE_PROD,
	  hcclt_rv_f16_prod, ARRAY_SIZE(hcclt_rv_f16_prod) },
	{ "FP16 MAX", HCCLT_DTYPE_FP16, HCCLT_REDUCE_MAX,
	  hcclt_rv_f16_max, ARRAY_SIZE(hcclt_rv_f16_max) },
	{ "FP16 MIN", HCCLT_DTYPE_FP16, HCCLT_REDUCE_MIN,
	  hcclt_rv_f16_min, ARRAY_SIZE(hcclt_rv_f16_min) },
	{ "BF16 SUM", HCCLT_DTYPE_BF16, HCCLT_REDUCE_SUM,
	  hcclt_rv_b16_sum, ARRAY_SIZE(hcclt_rv_b16_sum) },
	{ "BF16 PROD", HCCLT_DTYPE_BF16, HCCLT_REDUCE_PROD,
	  hcclt_rv_b16_prod, ARRAY_SIZE(hcclt_rv_b16_prod) },
	{ "BF16 MAX", HCCLT_DTYPE_BF16, HCCLT_REDUCE_MAX,
	  hcclt_rv_b16_max, ARRAY_SIZE(hcclt_rv_b16_max) },
	{ "BF16 MIN", HCCLT_DTYPE_BF16, HCCLT_REDUCE_MIN,
	  hcclt_rv_b16_min, ARRAY_SIZE(hcclt_rv_b16_min) },
	{ "FP32 SUM", HCCLT_DTYPE_FP32, HCCLT_REDUCE_SUM,
	  hcclt_rv_f32_sum, ARRAY_SIZE(hcclt_rv_f32_sum) },
	{ "FP32 PROD", HCCLT_DTYPE_FP32, HCCLT_REDUCE_PROD,
	  hcclt_rv_f32_prod, ARRAY_SIZE(hcclt_rv_f32_prod) },
	{ "FP32 MAX", HCCLT_DTYPE_FP32, HCCLT_REDUCE_MAX,
	  hcclt_rv_f32_max, ARRAY_SIZE(hcclt_rv_f32_max) },
	{ "FP32 MIN", HCCLT_DTYPE_FP32, HCCLT_REDUCE_MIN,
	  hcclt_rv_f32_min, ARRAY_SIZE(hcclt_rv_f32_min) },
	{ "FP64 SUM", HCCLT_DTYPE_FP64, HCCLT_REDUCE_SUM,
	  hcclt_rv_f64_sum, ARRAY_SIZE(hcclt_rv_f64_sum) },
	{ "FP64 PROD", HCCLT_DTYPE_FP64, HCCLT_REDUCE_PROD,
	  hcclt_rv_f64_prod, ARRAY_SIZE(hcclt_rv_f64_prod) },
	{ "FP64 MAX", HCCLT_DTYPE_FP64, HCCLT_REDUCE_MAX,
	  hcclt_rv_f64_max, ARRAY_SIZE(hcclt_rv_f64_max) },
	{ "FP64 MIN", HCCLT_DTYPE_FP64, HCCLT_REDUCE_MIN,
	  hcclt_rv_f64_min, ARRAY_SIZE(hcclt_rv_f64_min) },
};

static void hcclt_rcase_desc(const struct hcclt_rcase *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(hcclt_rcase, hcclt_rcases, hcclt_rcase_desc);

static bool hcclt_test_is_float(u32 dtype)
{
	return dtype == HCCLT_DTYPE_FP16 || dtype == HCCLT_DTYPE_FP32 ||
	       dtype == HCCLT_DTYPE_FP64 || dtype == HCCLT_DTYPE_BF16;
}

/* Element @i of @p, @size bytes each, zero-extended. */
static u64 hcclt_test_get(const void *p, u32 size, size_t i)
{
	switch (size) {
	case 1:
		return ((const u8 *)p)[i];
	case 2:
		return ((const u16 *)p)[i];
	case 4:
		return ((const u32 *)p)[i];
	default:
		return ((const u64 *)p)[i];
	}
}

static void hcclt_test_put(void *p, u32 size, size_t i, u64 v)
{
	switch (size) {
	case 1:
		((u8 *)p)[i] = v;
		break;
	case 2:
		((u16 *)p)[i] = v;
		break;
	case 4:
		((u32 *)p)[i] = v;
		break;
	default:
		((u64 *)p)[i] = v;
		break;
	}
}

/* Is @v a NaN of the floating point type @dtype? */
static bool hcclt_test_nan(u32 dtype, u64 v)
{
	switch (dtype) {
	case HCCLT_DTYPE_FP16:
		return (v & 0x7c00) == 0x7c00 && (v & 0x03ff);
	case HCCLT_DTYPE_BF16:
		return (v & 0x7f80) == 0x7f80 && (v & 0x007f);
	case HCCLT_DTYPE_FP32:
		return (v & 0x7f800000) == 0x7f800000 && (v & 0x007fffff);
	default:
		return (v & 0x7ff0000000000000) == 0x7ff0000000000000 &&
		       (v & 0x000fffffffffffff);
	}
}

static void hcclt_test_reduce_table(struct kunit *test)
{
	static const u32 sizes[] = { 1, 2, 4, 2, 4, 8, 8, 1, 2, 4, 8, 2 };
	u32 t;

	for (t = 0; t < ARRAY_SIZE(sizes); t++) {
		KUNIT_EXPECT_EQ_MSG(test, sizes[t], hcclt_reduce_size(t),
				    "dtype %u", t);
		KUNIT_EXPECT_EQ_MSG(test, IS_ENABLED(CONFIG_X86) ||
				    !hcclt_test_is_float(t),
				    hcclt_reduce_supported(t), "dtype %u", t);
	}
	/* INT128, 13, HIF8, the FP8 types and beyond: unknown. */
	for (t = 12; t < 64; t++)
		KUNIT_EXPECT_EQ_MSG(test, 0U, hcclt_reduce_size(t),
				    "dtype %u", t);
	KUNIT_EXPECT_EQ(test, 0U, hcclt_reduce_size(255));
	KUNIT_EXPECT_EQ(test, 0U, hcclt_reduce_size(U32_MAX));
	for (t = 0; t < 4; t++)
		KUNIT_EXPECT_TRUE(test, hcclt_reduce_op_known(t));
	KUNIT_EXPECT_FALSE(test, hcclt_reduce_op_known(4));
	KUNIT_EXPECT_FALSE(test, hcclt_reduce_op_known(255));
	KUNIT_EXPECT_FALSE(test, hcclt_reduce_op_known(U32_MAX));
}

/*
 * The known answers of one type and op, repeated over 67 elements (an odd
 * count: loops the compiler vectorises end in a scalar tail), each vector
 * in every position of the first few.
 */
static void hcclt_test_reduce_vectors(struct kunit *test)
{
	const struct hcclt_rcase *c = test->param_value;
	u32 size = hcclt_reduce_size(c->dtype);
	const size_t n = 67;
	u32 wrong = 0;
	void *d, *s;
	size_t i;

	if (!hcclt_reduce_supported(c->dtype))
		kunit_skip(test, "no floating point reduces on this architecture");
	KUNIT_ASSERT_NE(test, 0U, size);
	KUNIT_ASSERT_LE(test, c->n, 32U);
	d = kunit_kcalloc(test, n, size, GFP_KERNEL);
	s = kunit_kcalloc(test, n, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, d);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	for (i = 0; i < n; i++) {
		hcclt_test_put(d, size, i, c->v[i % c->n].d);
		hcclt_test_put(s, size, i, c->v[i % c->n].s);
	}
	hcclt_reduce(c->dtype, c->op, d, s, n * size);
	for (i = 0; i < n; i++) {
		const struct hcclt_rvec *v = &c->v[i % c->n];
		u64 got = hcclt_test_get(d, size, i);
		bool nan = hcclt_test_is_float(c->dtype) &&
			   v->want == HCCLT_RV_NAN;
		bool ok = nan ? hcclt_test_nan(c->dtype, got) : got == v->want;

		/* Each wrong answer once, where it is first seen. */
		if (!ok && !(wrong & BIT(i % c->n))) {
			wrong |= BIT(i % c->n);
			KUNIT_FAIL(test, "%s: %#llx, %#llx gave %#llx (element %zu), want %s%#llx",
				   c->name, v->d, v->s, got, i,
				   nan ? "a NaN, not " : "", nan ? got : v->want);
		}
		/* The source is left alone. */
		KUNIT_EXPECT_EQ(test, v->s, hcclt_test_get(s, size, i));
	}
}

/* The integer types against a reference of their own, in 64 bits. */
static u64 hcclt_test_iref(u32 dtype, u32 op, u64 d, u64 s)
{
	static const u32 signs = BIT(HCCLT_DTYPE_INT8) |
		BIT(HCCLT_DTYPE_INT16) | BIT(HCCLT_DTYPE_INT32) |
		BIT(HCCLT_DTYPE_INT64);
	u32 bits = hcclt_reduce_size(dtype) * 8;
	u64 mask = bits == 64 ? U64_MAX : BIT_ULL(bits) - 1;
	bool less;

	if (op == HCCLT_REDUCE_SUM)
		return (d + s) & mask;
	if (op == HCCLT_REDUCE_PROD)
		return (d * s) & mask;
	if (signs & BIT(dtype))
		less = (s64)(s << (64 - bits)) < (s64)(d << (64 - bits));
	else
		less = s < d;
	/* MAX keeps the destination unless the source is greater. */
	if (op == HCCLT_REDUCE_MAX)
		return !less && s != d ? s : d;
	return less ? s : d;
}

static void hcclt_test_reduce_ints(struct kunit *test)
{
	static const u32 types[] = {
		HCCLT_DTYPE_INT8, HCCLT_DTYPE_INT16, HCCLT_DTYPE_INT32,
		HCCLT_DTYPE_INT64, HCCLT_DTYPE_UINT8, HCCLT_DTYPE_UINT16,
		HCCLT_DTYPE_UINT32, HCCLT_DTYPE_UINT64,
	};
	const size_t n = 1001;
	struct rnd_state rnd;
	u64 *d, *s, *old;
	u32 ti, op;
	size_t i;

	d = kunit_kcalloc(test, n, 8, GFP_KERNEL);
	s = kunit_kcalloc(test, n, 8, GFP_KERNEL);
	old = kunit_kcalloc(test, n, 8, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, d);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, s);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, old);
	prandom_seed_state(&rnd, 0x4843434cULL);
	for (ti = 0; ti < ARRAY_SIZE(types); ti++) {
		u32 dt = types[ti], size = hcclt_reduce_size(dt);

		for (op = HCCLT_REDUCE_SUM; op <= HCCLT_REDUCE_MIN; op++) {
			size_t bad = 0, first = 0;

			prandom_bytes_state(&rnd, d, n * size);
			prandom_bytes_state(&rnd, s, n * size);
			memcpy(old, d, n * size);
			hcclt_reduce(dt, op, d, s, n * size);
			for (i = 0; i < n; i++) {
				u64 want = hcclt_test_iref(dt, op,
						hcclt_test_get(old, size, i),
						hcclt_test_get(s, size, i));

				if (hcclt_test_get(d, size, i) != want && !bad++)
					first = i;
			}
			KUNIT_EXPECT_EQ_MSG(test, 0UL, bad,
					    "dtype %u op %u: first wrong: %zu",
					    dt, op, first);
		}
	}
}

/*
 * Saturation (HCCLT_PARAM_SATURATION, uAPI 1.8) of every float type, the
 * 1.7 FP64 included: an infinity becomes the largest finite value of its
 * sign, every NaN (quiet, signalling, negative) +0, any other value stays;
 * the element past @len and the integer types are left alone.
 */
struct hcclt_satvec {
	u32 dtype;
	u64 in;
	u64 want;
};

static const struct hcclt_satvec hcclt_satvecs[] = {
	/* FP16: +-Inf, NaNs, the largest finite, a subnormal, -0, 1.0. */
	{ HCCLT_DTYPE_FP16, 0x7c00, 0x7bff },
	{ HCCLT_DTYPE_FP16, 0xfc00, 0xfbff },
	{ HCCLT_DTYPE_FP16, 0x7e00, 0x0000 },
	{ HCCLT_DTYPE_FP16, 0x7c01, 0x0000 },
	{ HCCLT_DTYPE_FP16, 0xfe00, 0x0000 },
	{ HCCLT_DTYPE_FP16, 0x7bff, 0x7bff },
	{ HCCLT_DTYPE_FP16, 0x0001, 0x0001 },
	{ HCCLT_DTYPE_FP16, 0x8000, 0x8000 },
	{ HCCLT_DTYPE_FP16, 0x3c00, 0x3c00 },
	/* BF16. */
	{ HCCLT_DTYPE_BF16, 0x7f80, 0x7f7f },
	{ HCCLT_DTYPE_BF16, 0xff80, 0xff7f },
	{ HCCLT_DTYPE_BF16, 0x7fc0, 0x0000 },
	{ HCCLT_DTYPE_BF16, 0xff81, 0x0000 },
	{ HCCLT_DTYPE_BF16, 0x7f7f, 0x7f7f },
	{ HCCLT_DTYPE_BF16, 0x3f80, 0x3f80 },
	/* FP32. */
	{ HCCLT_DTYPE_FP32, 0x7f800000, 0x7f7fffff },
	{ HCCLT_DTYPE_FP32, 0xff800000, 0xff7fffff },
	{ HCCLT_DTYPE_FP32, 0x7fc00000, 0x00000000 },
	{ HCCLT_DTYPE_FP32, 0x7f800001, 0x00000000 },
	{ HCCLT_DTYPE_FP32, 0xffc00000, 0x00000000 },
	{ HCCLT_DTYPE_FP32, 0x7f7fffff, 0x7f7fffff },
	{ HCCLT_DTYPE_FP32, 0x00000001, 0x00000001 },
	{ HCCLT_DTYPE_FP32, 0x80000000, 0x80000000 },
	/* FP64: +-Inf to +-DBL_MAX, NaNs to +0. */
	{ HCCLT_DTYPE_FP64, 0x7ff0000000000000, 0x7fefffffffffffff },
	{ HCCLT_DTYPE_FP64, 0xfff0000000000000, 0xffefffffffffffff },
	{ HCCLT_DTYPE_FP64, 0x7ff8000000000000, 0x0000000000000000 },
	{ HCCLT_DTYPE_FP64, 0x7ff0000000000001, 0x0000000000000000 },
	{ HCCLT_DTYPE_FP64, 0xfff8000000000000, 0x0000000000000000 },
	{ HCCLT_DTYPE_FP64, 0xffffffffffffffff, 0x0000000000000000 },
	{ HCCLT_DTYPE_FP64, 0x7fefffffffffffff, 0x7fefffffffffffff },
	{ HCCLT_DTYPE_FP64, 0xffefffffffffffff, 0xffefffffffffffff },
	{ HCCLT_DTYPE_FP64, 0x0000000000000001, 0x0000000000000001 },
	{ HCCLT_DTYPE_FP64, 0x8000000000000000, 0x8000000000000000 },
	{ HCCLT_DTYPE_FP64, 0x3ff0000000000000, 0x3ff0000000000000 },
	/* Integers: the same bits are values, never touched. */
	{ HCCLT_DTYPE_INT16, 0x7c00, 0x7c00 },
	{ HCCLT_DTYPE_UINT32, 0x7f800000, 0x7f800000 },
	{ HCCLT_DTYPE_INT64, 0x7ff0000000000000, 0x7ff0000000000000 },
	{ HCCLT_DTYPE_UINT64, 0xfff8000000000000, 0xfff8000000000000 },
};

static void hcclt_test_saturate(struct kunit *test)
{
	const size_t n = 5;
	u64 buf[6];
	size_t v, i;

	for (v = 0; v < ARRAY_SIZE(hcclt_satvecs); v++) {
		const struct hcclt_satvec *sv = &hcclt_satvecs[v];
		u32 size = hcclt_reduce_size(sv->dtype);

		KUNIT_ASSERT_NE(test, 0U, size);
		for (i = 0; i <= n; i++)
			hcclt_test_put(buf, size, i, sv->in);
		/* n elements; the (n + 1)th is past @len. */
		hcclt_saturate(sv->dtype, buf, n * size);
		for (i = 0; i < n; i++)
			KUNIT_EXPECT_EQ_MSG(test, sv->want,
					    hcclt_test_get(buf, size, i),
					    "dtype %u: %#llx (element %zu)",
					    sv->dtype, sv->in, i);
		KUNIT_EXPECT_EQ_MSG(test, sv->in, hcclt_test_get(buf, size, n),
				    "dtype %u: %#llx past the length",
				    sv->dtype, sv->in);
	}
}

static struct kunit_case hcclt_reduce_test_cases[] = {
	KUNIT_CASE(hcclt_test_reduce_table),
	KUNIT_CASE_PARAM(hcclt_test_reduce_vectors, hcclt_rcase_gen_params),
	KUNIT_CASE(hcclt_test_reduce_ints),
	KUNIT_CASE(hcclt_test_saturate),
	{}
};

static struct kunit_suite hcclt_reduce_test_suite = {
	.name = "hcclthread_reduce",
	.test_cases = hcclt_reduce_test_cases,
};

kunit_test_suite(hcclt_reduce_test_suite);
