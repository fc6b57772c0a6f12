/* SPDX-License-Identifier: MIT */
/*
 * hcclt_trace: record hcclthread tracepoints for a command and convert the
 * ftrace text to Chrome/Perfetto trace JSON. See tools/trace/FORMAT.
 */
#ifndef HCCLT_TRACE_H
#define HCCLT_TRACE_H

#include <stdint.h>
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
	unsigned long ops;	/* operator report boxes (op events, uAPI 1.11) */
};

/* Convert ftrace text from @in to trace JSON on @out. 0 or -errno. */
int hcclt_trace_convert(FILE *in, FILE *out, struct hcclt_trace_stats *st);

/* A recording of the hcclthread events in a private tracefs instance. */
struct hcclt_trace_rec;

/*
 * Make the tracefs instance @name (nobody else's: it must not exist) with
 * @kb KiB of buffer per CPU, and record the hcclthread events in it from
 * now on. Returns the recording, or NULL with errno: ENOENT (no tracefs,
 * or not mountable), ENODEV (no hcclthread tracepoints: the module is not
 * loaded), EEXIST (the instance exists), EACCES and the like (no right to
 * make it), ENOMEM.
 */
struct hcclt_trace_rec *hcclt_trace_rec_start(const char *name, long kb);

/* Stop recording; what was recorded stays for hcclt_trace_rec_write(). */
void hcclt_trace_rec_stop(struct hcclt_trace_rec *r);

/*
 * Convert what @r recorded to trace JSON on @out (otherData.tool @tool,
 * NULL: "hcclthread-trace"), and write the events as ftrace text on @raw
 * unless NULL. With @devmask non-zero, only the events whose dev= has its
 * bit set are kept. 0 or -errno (-EIO: the buffer could not be read); @st
 * is filled in.
 */
int hcclt_trace_rec_write(struct hcclt_trace_rec *r, FILE *out, FILE *raw,
			  uint64_t devmask, const char *tool,
			  struct hcclt_trace_stats *st);

/* Remove @r's instance and free @r (may be NULL). 0 or -errno. */
int hcclt_trace_rec_free(struct hcclt_trace_rec *r);

/*
 * Remove the instances named @prefix<pid> or @prefix<pid>-<anything>
 * whose process is gone (a recorder that died before removing its own).
 */
void hcclt_trace_rec_reap(const char *prefix);

/*
 * "hcclthread-trace" / "hcclthread-smi trace" command line
 * (hcclt_trace_cli.c):
 *   [-o OUT.json] [-r RAW.txt] [-b KB] -- CMD [ARGS...]
 *   -i TRACE.txt [-o OUT.json]          (convert only)
 * Returns the exit status of CMD (or of the conversion).
 */
int hcclt_trace_main(int argc, char **argv, const char *prog);

#endif
