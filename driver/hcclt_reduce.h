/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread: the arithmetic of reducing copies (hcclt_reduce.c).
 */
#ifndef _HCCLT_REDUCE_H_
#define _HCCLT_REDUCE_H_

#include <linux/types.h>

u32 hcclt_reduce_size(u32 dtype);
bool hcclt_reduce_op_known(u32 op);
bool hcclt_reduce_supported(u32 dtype);
bool hcclt_op_reduces(u32 op);
void hcclt_reduce(u32 dtype, u32 op, void *dst, const void *src, size_t len);
void hcclt_saturate(u32 dtype, void *p, size_t len);

#endif /* _HCCLT_REDUCE_H_ */
