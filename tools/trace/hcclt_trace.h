/* SPDX-License-Identifier: MIT */
/*
 * hcclt_trace: record hcclthread tracepoints for a command and convert the
 * ftrace text to Chrome/Perfetto trace JSON. See tools/trace/FORMAT.
 */
#ifndef HCCLT_TRACE_H
#define HCCLT_TRACE_H

#include <stdio.h>

struct hcclt_trace_stats {
	unsigned long lines;	/* hcclthread event lines parsed */
	unsigned long tasks;	/* complete ("X") events written */
	unsigned long unfinished; /* tasks started, never completed */
	unsigned long flows;	/* record -> wait arrows */
	unsigned long chan_flows; /* of them, channel ones (across ranks) */
	unsigned long streams;	/* rows */
	unsigned long timeouts;	/* wait_timeout events */
	unsigned long lost;	/* events ftrace reported as lost */
	unsigned long bad;	/* hcclthread lines that did not parse */
};

/* Convert ftrace text from @in to trace JSON on @out. 0 or -errno. */
int hcclt_trace_convert(FILE *in, FILE *out, struct hcclt_trace_stats *st);

/*
 * "hcclthread-trace" / "hcclthread-smi trace" command line:
 *   [-o OUT.json] [-r RAW.txt] [-b KB] -- CMD [ARGS...]
 *   -i TRACE.txt [-o OUT.json]          (convert only)
 * Returns the exit status of CMD (or of the conversion).
 */
int hcclt_trace_main(int argc, char **argv, const char *prog);

#endif
