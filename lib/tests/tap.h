/* SPDX-License-Identifier: MIT */
/*
 * Minimal TAP output for the library tests (single-threaded use). A result
 * that comes TAP_SLOW_S or more after the one before it is preceded by a
 * "# N.N s since the previous result" comment, so that make check's logs
 * show where a slow kernel spends its time.
 */
#ifndef HCCLT_TAP_H_
#define HCCLT_TAP_H_

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#define TAP_SLOW_S	2.0

static int tap_n, tap_failed, tap_skipped;
static double tap_last;

static void tap_time(void)
{
	struct timespec ts;
	double now;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec + ts.tv_nsec / 1e9;
	if (tap_last > 0 && now - tap_last >= TAP_SLOW_S)
		printf("# %.1f s since the previous result\n", now - tap_last);
	tap_last = now;
}

__attribute__((format(printf, 2, 3)))
static int tap_ok(int ok, const char *fmt, ...)
{
	va_list ap;

	tap_time();
	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		tap_failed++;
	return ok;
}

__attribute__((format(printf, 1, 2), unused))
static void tap_skip(const char *fmt, ...)
{
	va_list ap;

	tap_time();
	printf("ok %d - # SKIP ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	tap_skipped++;
}

/* Compares two integers, prints both on failure. */
#define TAP_EQ(got, want, ...) do {					\
	long long got_ = (long long)(got), want_ = (long long)(want);	\
	if (!tap_ok(got_ == want_, __VA_ARGS__))			\
		printf("#   got %lld, want %lld (%s)\n", got_, want_, #got); \
} while (0)

__attribute__((unused))
static int tap_done(void)
{
	printf("1..%d\n", tap_n);
	if (tap_failed)
		printf("# %d of %d failed\n", tap_failed, tap_n);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* HCCLT_TAP_H_ */
