// SPDX-License-Identifier: MIT
/*
 * hcclt_trace_cli: the command line of hcclthread-trace and
 * "hcclthread-smi trace": record the hcclthread tracepoints while a
 * command runs (hcclt_trace_rec_*(), hcclt_trace.c), or convert ftrace
 * text (-i), and write Chrome/Perfetto trace JSON. See tools/trace/FORMAT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hcclt_trace.h"

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"usage: %s [-o OUT.json] [-r RAW.txt] [-b KB] -- CMD [ARGS...]\n"
		"       %s -i TRACE.txt [-o OUT.json]\n"
		"\n"
		"Records the hcclthread tracepoints (acquire, submit, task_start,\n"
		"task_complete, wait_timeout) while CMD runs, in a private tracefs\n"
		"instance, and writes Chrome/Perfetto trace JSON (open it in\n"
		"ui.perfetto.dev or chrome://tracing): one row per stream, one box\n"
		"per task, an arrow from each notify record to the wait it released.\n"
		"\n"
		"  -o FILE   output JSON (default hcclthread-trace.json)\n"
		"  -r FILE   also write the events as ftrace text (for -i)\n"
		"  -b KB     per-CPU trace buffer size (default 8192)\n"
		"  -i FILE   convert an existing ftrace text file, run nothing\n"
		"\n"
		"Needs root (tracefs). Exits with CMD's status.\n", prog, prog);
}

static void print_stats(const struct hcclt_trace_stats *stp,
			const char *outpath, const char *prog);

static int convert_file(const char *inpath, const char *outpath,
			const char *prog)
{
	struct hcclt_trace_stats st;
	FILE *in, *out;
	int ret;

	in = strcmp(inpath, "-") ? fopen(inpath, "r") : stdin;
	if (!in) {
		fprintf(stderr, "%s: %s: %s\n", prog, inpath, strerror(errno));
		return -1;
	}
	out = strcmp(outpath, "-") ? fopen(outpath, "w") : stdout;
	if (!out) {
		fprintf(stderr, "%s: %s: %s\n", prog, outpath, strerror(errno));
		if (in != stdin)
			fclose(in);
		return -1;
	}
	ret = hcclt_trace_convert(in, out, &st);
	if (in != stdin)
		fclose(in);
	if (out != stdout && fclose(out) && !ret)
		ret = -errno;
	if (ret) {
		fprintf(stderr, "%s: converting: %s\n", prog, strerror(-ret));
		return -1;
	}
	print_stats(&st, outpath, prog);
	return 0;
}

static void print_stats(const struct hcclt_trace_stats *stp,
			const char *outpath, const char *prog)
{
	struct hcclt_trace_stats st = *stp;
	char across[48] = "", ops[48] = "";

	if (st.chan_flows)
		snprintf(across, sizeof(across), " (%lu across ranks)",
			 st.chan_flows);
	if (st.ops)
		snprintf(ops, sizeof(ops), ", %lu operator reports", st.ops);
	fprintf(stderr, "%s: %lu events, %lu tasks (%lu unfinished) on %lu "
		"streams, %lu record->wait arrows%s, %lu wait timeouts%s -> %s\n",
		prog, st.lines, st.tasks, st.unfinished, st.streams, st.flows,
		across, st.timeouts, ops, outpath);
	if (st.lost)
		fprintf(stderr, "%s: warning: ftrace lost %lu events; raise -b\n",
			prog, st.lost);
	if (st.bad)
		fprintf(stderr, "%s: warning: %lu hcclthread lines without a "
			"stream field were skipped\n", prog, st.bad);
	if (!st.lines)
		fprintf(stderr, "%s: warning: no hcclthread events recorded\n",
			prog);
}

/* Record CMD's hcclthread events in @r and convert them. */
static int record(struct hcclt_trace_rec *r, char **cmd, const char *raw,
		  const char *outpath, const char *prog)
{
	struct hcclt_trace_stats st;
	int status = 0, rc_cmd, ret = 0;
	FILE *out, *rawf = NULL;
	pid_t pid;

	pid = fork();
	if (pid < 0) {
		perror("fork");
		hcclt_trace_rec_stop(r);
		return 1;
	}
	if (!pid) {
		execvp(cmd[0], cmd);
		fprintf(stderr, "%s: %s: %s\n", prog, cmd[0], strerror(errno));
		_exit(127);
	}
	signal(SIGINT, SIG_IGN);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	signal(SIGINT, SIG_DFL);
	rc_cmd = WIFEXITED(status) ? WEXITSTATUS(status) :
		 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	hcclt_trace_rec_stop(r);

	if (raw) {
		rawf = fopen(raw, "w");
		if (!rawf) {
			fprintf(stderr, "%s: %s: %s\n", prog, raw,
				strerror(errno));
			ret = -1;
		}
	}
	out = strcmp(outpath, "-") ? fopen(outpath, "w") : stdout;
	if (!out) {
		fprintf(stderr, "%s: %s: %s\n", prog, outpath, strerror(errno));
		ret = -1;
	}
	if (!ret) {
		ret = hcclt_trace_rec_write(r, out, rawf, 0, NULL, &st);
		if (ret == -EIO)
			fprintf(stderr, "%s: reading the trace buffer failed\n",
				prog);
		else if (ret)
			fprintf(stderr, "%s: converting: %s\n", prog,
				strerror(-ret));
	}
	if (rawf && fclose(rawf) && !ret)
		ret = -errno;
	if (out && out != stdout && fclose(out) && !ret)
		ret = -errno;
	if (!ret)
		print_stats(&st, outpath, prog);
	return rc_cmd ? rc_cmd : ret ? 1 : 0;
}

int hcclt_trace_main(int argc, char **argv, const char *prog)
{
	const char *outpath = "hcclthread-trace.json", *raw = NULL;
	const char *inpath = NULL;
	struct hcclt_trace_rec *r;
	char name[64];
	int c, rc;
	long kb = 8192;

	optind = 1;
	while ((c = getopt(argc, argv, "+o:r:b:i:h")) != -1) {
		switch (c) {
		case 'o':
			outpath = optarg;
			break;
		case 'r':
			raw = optarg;
			break;
		case 'b':
			kb = strtol(optarg, NULL, 10);
			if (kb <= 0) {
				usage(stderr, prog);
				return 2;
			}
			break;
		case 'i':
			inpath = optarg;
			break;
		case 'h':
			usage(stdout, prog);
			return 0;
		default:
			usage(stderr, prog);
			return 2;
		}
	}
	if (inpath)
		return convert_file(inpath, outpath, prog) ? 1 : 0;
	if (optind >= argc) {
		usage(stderr, prog);
		return 2;
	}
	snprintf(name, sizeof(name), "hcclthread-trace-%d", (int)getpid());
	r = hcclt_trace_rec_start(name, kb);
	if (!r) {
		if (errno == ENOENT)
			fprintf(stderr, "%s: tracefs not found or not mountable "
				"(are you root?)\n", prog);
		else if (errno == ENODEV)
			fprintf(stderr, "%s: no hcclthread tracepoints in "
				"tracefs: is the module loaded? (modprobe "
				"drm_shmem_helper && insmod hcclthread.ko)\n",
				prog);
		else
			fprintf(stderr, "%s: cannot make the trace instance "
				"instances/%s: %s\n", prog, name,
				errno == EEXIST ? "it exists" : strerror(errno));
		return 1;
	}
	rc = record(r, argv + optind, raw, outpath, prog);
	if (hcclt_trace_rec_free(r))
		fprintf(stderr, "%s: warning: removing the instance %s: %s\n",
			prog, name, strerror(errno));
	return rc;
}
