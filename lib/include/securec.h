/* SPDX-License-Identifier: MIT */
/*
 * The few bounds-checked string and memory functions of CANN's libc_sec
 * ("securec.h") that CANN programs get through CANN's headers
 * (hccl/hccl_rank_graph.h includes it, and CommLinkInit() calls
 * memset_s()), as inline functions. Same contracts as libc_sec: 0 (EOK) or
 * a non-zero error for the *_s memory/string calls, the length written or
 * -1 for sprintf_s, and the destination emptied when it does not fit.
 */
#ifndef HCCLT_CANN_SECUREC_H
#define HCCLT_CANN_SECUREC_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#ifndef EOK
#define EOK 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

static inline int vsprintf_s(char *dest, size_t destMax, const char *format, va_list ap)
	__attribute__((format(printf, 3, 0)));

static inline int vsprintf_s(char *dest, size_t destMax, const char *format, va_list ap)
{
	int n;

	if (!dest || !destMax || !format)
		return -1;
	n = vsnprintf(dest, destMax, format, ap);
	if (n < 0 || (size_t)n >= destMax) {
		dest[0] = '\0';
		return -1;
	}
	return n;
}

static inline int sprintf_s(char *dest, size_t destMax, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

static inline int sprintf_s(char *dest, size_t destMax, const char *format, ...)
{
	va_list ap;
	int n;

	va_start(ap, format);
	n = vsprintf_s(dest, destMax, format, ap);
	va_end(ap);
	return n;
}

static inline int memcpy_s(void *dest, size_t destMax, const void *src, size_t count)
{
	if (!dest || !src)
		return EINVAL;
	if (count > destMax) {
		memset(dest, 0, destMax);
		return ERANGE;
	}
	memmove(dest, src, count);
	return EOK;
}

static inline int memset_s(void *dest, size_t destMax, int c, size_t count)
{
	if (!dest)
		return EINVAL;
	memset(dest, c, count > destMax ? destMax : count);
	return count > destMax ? ERANGE : EOK;
}

static inline int strcpy_s(char *dest, size_t destMax, const char *src)
{
	size_t n;

	if (!dest || !destMax || !src)
		return EINVAL;
	n = strlen(src);
	if (n >= destMax) {
		dest[0] = '\0';
		return ERANGE;
	}
	memcpy(dest, src, n + 1);
	return EOK;
}

#ifdef __cplusplus
}
#endif

#endif /* HCCLT_CANN_SECUREC_H */
