/* SPDX-License-Identifier: MIT */
/*
 * hcclt_utf8.h - UTF-8 validation shared by the tools that write or check
 * JSON (RFC 8259 text must be valid UTF-8).
 */
#ifndef HCCLT_UTF8_H
#define HCCLT_UTF8_H

#include <stddef.h>

/*
 * Length of the well-formed UTF-8 sequence at @s (at most @n bytes
 * readable), or 0 when the bytes there are not one: a stray continuation
 * byte, a truncated sequence, an overlong form, a surrogate or a code point
 * above U+10FFFF (the table of Unicode 15, section 3.9, table 3-7).
 */
static inline size_t hcclt_utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if (s[i] < lo || s[i] > hi)
			return 0;
		lo = 0x80;
		hi = 0xbf;
	}
	return len;
}

#endif /* HCCLT_UTF8_H */
