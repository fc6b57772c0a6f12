// SPDX-License-Identifier: GPL-2.0-only
/*
 * hcclthread: the arithmetic of the copy engine's reduce tasks
 * (HCCLT_TASK_LOCAL_REDUCE, _WRITE_REDUCE, _READ_REDUCE): each element of
 * the destination becomes op(destination, source).
 *
 * Integers wrap around on SUM and PROD (computed unsigned: modulo 2^bits);
 * MAX and MIN compare signed for INT8 .. INT64 and unsigned for UINT8 ..
 * UINT64. Floats are computed with the CPU's SSE unit, inside
 * kernel_fpu_begin()/kernel_fpu_end(), which is why this file alone is
 * compiled with the FPU flags (Kbuild): FP32 in FP32, FP64 in FP64; FP16
 * and BF16 are widened exactly to FP32 and the result is rounded back to
 * nearest, ties to even. A NaN operand of MAX or MIN gives that NaN (the
 * destination's first), as of SUM and PROD. Element sizes, the checks and
 * the paging are the copy engine's (hcclt_copy.c): this only sees whole,
 * aligned elements of one page.
 */

#include <linux/types.h>
#ifdef CONFIG_X86
#include <asm/fpu/api.h>
#else
/* Integer types only (hcclt_reduce_supported()): no FPU state to save. */
static inline void kernel_fpu_begin(void) { }
static inline void kernel_fpu_end(void) { }
#endif

#include "hcclt_drv.h"

static inline float hcclt_f32(u32 u)
{
	union { u32 u; float f; } v = { .u = u };

	return v.f;
}

static inline u32 hcclt_u32(float f)
{
	union { float f; u32 u; } v = { .f = f };

	return v.u;
}

/* IEEE binary16 to binary32, exactly. */
static float hcclt_h2f(u16 h)
{
	u32 sign = (u32)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f;
	u32 man = h & 0x3ff;

	if (exp == 0x1f)		/* inf, NaN (payload kept) */
		return hcclt_f32(sign | 0x7f800000 | man << 13);
	if (exp)
		return hcclt_f32(sign | (exp + 112) << 23 | man << 13);
	if (!man)
		return hcclt_f32(sign);
	/* Subnormal: normalise into binary32's range. */
	exp = 113;
	while (!(man & 0x400)) {
		man <<= 1;
		exp--;
	}
	return hcclt_f32(sign | exp << 23 | (man & 0x3ff) << 13);
}

/* binary32 to binary16, rounding to nearest, ties to even. */
static u16 hcclt_f2h(float x)
{
	u32 f = hcclt_u32(x), sign = (f >> 16) & 0x8000, a = f & 0x7fffffff;
	u32 e, m, shift, rem, half, man;

	if (a > 0x7f800000)		/* NaN: quiet, top payload bits */
		return sign | 0x7e00 | ((a >> 13) & 0x3ff);
	if (a >= 0x477ff000)		/* 65520 and up, inf: inf */
		return sign | 0x7c00;
	if (a >= 0x38800000)		/* normal: round at bit 13, rebias */
		return sign | ((a + 0xfff + ((a >> 13) & 1) - 0x38000000) >> 13);
	e = a >> 23;
	if (e < 102)			/* below 2^-25: zero */
		return sign;
	m = (a & 0x7fffff) | 0x800000;
	shift = 126 - e;		/* 14..24 */
	man = m >> shift;
	rem = m & ((1U << shift) - 1);
	half = 1U << (shift - 1);
	if (rem > half || (rem == half && (man & 1)))
		man++;
	return sign | man;
}

static float hcclt_b2f(u16 b)
{
	return hcclt_f32((u32)b << 16);
}

/* binary32 to bfloat16, rounding to nearest, ties to even. */
static u16 hcclt_f2b(float x)
{
	u32 f = hcclt_u32(x);

	if ((f & 0x7fffffff) > 0x7f800000)
		return (f >> 16) | 0x40;	/* NaN: quiet */
	return (f + 0x7fff + ((f >> 16) & 1)) >> 16;
}

static float hcclt_fop(u32 op, float d, float s)
{
	if (op == HCCLT_REDUCE_SUM)
		return d + s;
	if (op == HCCLT_REDUCE_PROD)
		return d * s;
	if (d != d)			/* NaN */
		return d;
	if (s != s)
		return s;
	if (op == HCCLT_REDUCE_MAX)
		return s > d ? s : d;
	return s < d ? s : d;
}

static double hcclt_dop(u32 op, double d, double s)
{
	if (op == HCCLT_REDUCE_SUM)
		return d + s;
	if (op == HCCLT_REDUCE_PROD)
		return d * s;
	if (d != d)			/* NaN */
		return d;
	if (s != s)
		return s;
	if (op == HCCLT_REDUCE_MAX)
		return s > d ? s : d;
	return s < d ? s : d;
}

/* FP16 and BF16 elements, computed in FP32. */
static inline u16 hcclt_hop(u32 op, u16 d, u16 s)
{
	return hcclt_f2h(hcclt_fop(op, hcclt_h2f(d), hcclt_h2f(s)));
}

static inline u16 hcclt_bop(u32 op, u16 d, u16 s)
{
	return hcclt_f2b(hcclt_fop(op, hcclt_b2f(d), hcclt_b2f(s)));
}

/*
 * Integer elements: signed ones of up to 32 bits sign-extended, unsigned
 * ones zero-extended; the caller truncates the result to its type. Sums
 * and products are computed unsigned, where they wrap.
 */
static inline s32 hcclt_iop(u32 op, s32 d, s32 s)
{
	if (op == HCCLT_REDUCE_SUM)
		return (s32)((u32)d + (u32)s);
	if (op == HCCLT_REDUCE_PROD)
		return (s32)((u32)d * (u32)s);
	if (op == HCCLT_REDUCE_MAX)
		return s > d ? s : d;
	return s < d ? s : d;
}

static inline u32 hcclt_uop(u32 op, u32 d, u32 s)
{
	if (op == HCCLT_REDUCE_SUM)
		return d + s;
	if (op == HCCLT_REDUCE_PROD)
		return d * s;
	if (op == HCCLT_REDUCE_MAX)
		return s > d ? s : d;
	return s < d ? s : d;
}

static inline s64 hcclt_iop64(u32 op, s64 d, s64 s)
{
	if (op == HCCLT_REDUCE_SUM)
		return (s64)((u64)d + (u64)s);
	if (op == HCCLT_REDUCE_PROD)
		return (s64)((u64)d * (u64)s);
	if (op == HCCLT_REDUCE_MAX)
		return s > d ? s : d;
	return s < d ? s : d;
}

static inline u64 hcclt_uop64(u32 op, u64 d, u64 s)
{
	if (op == HCCLT_REDUCE_SUM)
		return d + s;
	if (op == HCCLT_REDUCE_PROD)
		return d * s;
	if (op == HCCLT_REDUCE_MAX)
		return s > d ? s : d;
	return s < d ? s : d;
}

/* Each element of type @type of @dst becomes @fn(op, itself, @src's). */
#define HCCLT_REDUCE_LOOP(type, fn)					\
	do {								\
		type *d = dst;						\
		const type *s = src;					\
		size_t i, n = len / sizeof(type);			\
									\
		for (i = 0; i < n; i++)					\
			d[i] = (type)fn(op, d[i], s[i]);		\
	} while (0)

/**
 * hcclt_reduce - reduce @len bytes of @src into @dst.
 * @dtype: HCCLT_DTYPE_* (checked by the caller).
 * @op: HCCLT_REDUCE_* (checked by the caller).
 * @dst: destination elements, aligned to their size.
 * @src: source elements, aligned to their size; not overlapping @dst.
 * @len: bytes, a multiple of the element size.
 *
 * May be called in process context only (kernel_fpu_begin() for floats).
 */
void hcclt_reduce(u32 dtype, u32 op, void *dst, const void *src, size_t len)
{
	/* Integer loops may be vectorised in this file: FPU state too. */
	kernel_fpu_begin();
	switch (dtype) {
	case HCCLT_DTYPE_INT8:
		HCCLT_REDUCE_LOOP(s8, hcclt_iop);
		break;
	case HCCLT_DTYPE_INT16:
		HCCLT_REDUCE_LOOP(s16, hcclt_iop);
		break;
	case HCCLT_DTYPE_INT32:
		HCCLT_REDUCE_LOOP(s32, hcclt_iop);
		break;
	case HCCLT_DTYPE_INT64:
		HCCLT_REDUCE_LOOP(s64, hcclt_iop64);
		break;
	case HCCLT_DTYPE_UINT8:
		HCCLT_REDUCE_LOOP(u8, hcclt_uop);
		break;
	case HCCLT_DTYPE_UINT16:
		HCCLT_REDUCE_LOOP(u16, hcclt_uop);
		break;
	case HCCLT_DTYPE_UINT32:
		HCCLT_REDUCE_LOOP(u32, hcclt_uop);
		break;
	case HCCLT_DTYPE_UINT64:
		HCCLT_REDUCE_LOOP(u64, hcclt_uop64);
		break;
	case HCCLT_DTYPE_FP16:
		HCCLT_REDUCE_LOOP(u16, hcclt_hop);
		break;
	case HCCLT_DTYPE_BF16:
		HCCLT_REDUCE_LOOP(u16, hcclt_bop);
		break;
	case HCCLT_DTYPE_FP32:
		HCCLT_REDUCE_LOOP(float, hcclt_fop);
		break;
	case HCCLT_DTYPE_FP64:
		HCCLT_REDUCE_LOOP(double, hcclt_dop);
		break;
	}
	kernel_fpu_end();
}
