/* SPDX-License-Identifier: MIT */
/*
 * Which ranks of a communicator a launcher runs, and how (not part of the
 * API): shared by the operator examples' launchers (custom_ops/main.c,
 * custom_ops/regmem_main.c, compop/main.c). CANN's calls and POSIX only,
 * so that compop's launcher still builds against a CANN-style home.
 *
 *   [--threads|--processes] [--ranks N]
 *   [--root-info FILE [--first-rank F] [--local-ranks L] [--first-device D]]
 *
 * Without --root-info, this process runs every rank of an N-rank
 * communicator (N: every card by default), rank r on card r, as threads
 * or as processes (fork), the root info made here.
 *
 * With --root-info FILE, it runs ranks F .. F + L - 1 of an N-rank
 * communicator whose other ranks run elsewhere (other processes, other
 * hosts: N must be given), rank r on card D + r - F (D: 0 by default;
 * another process of this host runs other ranks on other cards); L
 * defaults to N - F, at most the cards from D. The process that holds rank 0 (F = 0) makes the
 * root info (HcclGetRootInfo on card 0) and writes it to FILE (FILE.tmp,
 * renamed); the others wait for FILE to appear, at most
 * LAUNCH_ROOT_WAIT_S, and read it. FILE is the root info's bytes,
 * sizeof(HcclRootInfo); a stale FILE from an earlier run must be removed
 * first (a reader would take it). Between hosts, copy FILE from the rank-0
 * host to the others (tools/vm/guest/hcclt-pair-file does so between the
 * two test guests).
 */
#ifndef HCCLT_EXAMPLE_LAUNCH_H_
#define HCCLT_EXAMPLE_LAUNCH_H_

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "acl/acl.h"
#include "hccl/hccl.h"
#include "hccl/hccl_comm.h"

#define LAUNCH_ROOT_WAIT_S 120
#define LAUNCH_USAGE "[--threads|--processes] [--ranks N] " \
	"[--root-info FILE [--first-rank F] [--local-ranks L] [--first-device D]]"

struct launch {
	int processes;
	uint32_t nranks;	/* the communicator's; 0: every card */
	uint32_t first, nlocal;	/* the ranks run here */
	uint32_t first_dev;	/* rank first's card */
	const char *root_file;
	int bad;		/* an option without its value */
};

/*
 * One of the options above at argv[*i]: 1 when it was (*i then at its
 * last word; without its value, bad is set), 0 when it is not one of them.
 */
static inline int launch_opt(struct launch *l, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	int has_val = *i + 1 < argc;

	if (!strcmp(a, "--processes") || !strcmp(a, "--threads")) {
		l->processes = !strcmp(a, "--processes");
		return 1;
	}
	if (strcmp(a, "--ranks") && strcmp(a, "--first-rank") && strcmp(a, "--local-ranks") &&
	    strcmp(a, "--first-device") && strcmp(a, "--root-info"))
		return 0;
	if (!has_val) {
		l->bad = 1;
		return 1;
	}
	++*i;
	if (!strcmp(a, "--root-info"))
		l->root_file = argv[*i];
	else if (!strcmp(a, "--ranks"))
		l->nranks = (uint32_t)strtoul(argv[*i], NULL, 0);
	else if (!strcmp(a, "--first-rank"))
		l->first = (uint32_t)strtoul(argv[*i], NULL, 0);
	else if (!strcmp(a, "--first-device"))
		l->first_dev = (uint32_t)strtoul(argv[*i], NULL, 0);
	else
		l->nlocal = (uint32_t)strtoul(argv[*i], NULL, 0);
	return 1;
}

/*
 * Completes @l for @ndev cards and at most @max ranks in a communicator;
 * says why and returns non-zero when the options do not fit.
 */
static inline int launch_setup(struct launch *l, uint32_t ndev, uint32_t max)
{
	if (!l->root_file) {
		if (l->first || l->nlocal || l->first_dev) {
			fprintf(stderr, "--first-rank, --local-ranks and --first-device need "
				"--root-info\n");
			return 1;
		}
		if (!l->nranks || l->nranks > ndev)
			l->nranks = ndev;
		if (l->nranks > max)
			l->nranks = max;
		l->nlocal = l->nranks;
		return 0;
	}
	if (!l->nranks || l->nranks > max || l->first >= l->nranks || l->first_dev >= ndev) {
		fprintf(stderr, "--root-info: --ranks N (1 to %u), --first-rank F < N and "
			"--first-device D < %u\n", max, ndev);
		return 1;
	}
	ndev -= l->first_dev;
	if (!l->nlocal)
		l->nlocal = l->nranks - l->first < ndev ? l->nranks - l->first : ndev;
	if (l->nlocal > ndev || l->nlocal > l->nranks - l->first) {
		fprintf(stderr, "--local-ranks %u: more than the %u card(s) from %u or the ranks "
			"from %u\n", l->nlocal, ndev, l->first_dev, l->first);
		return 1;
	}
	return 0;
}

/* The card of rank @rank run here. */
static inline int32_t launch_device(const struct launch *l, uint32_t rank)
{
	return (int32_t)(l->first_dev + rank - l->first);
}

/* ", ranks F-G here" when this process runs part of the communicator. */
static inline const char *launch_part(const struct launch *l)
{
	static char s[64];

	if (l->nlocal == l->nranks)
		return "";
	snprintf(s, sizeof(s), ", ranks %u-%u here", l->first, l->first + l->nlocal - 1);
	return s;
}

static inline int launch_root_write(const char *file, const HcclRootInfo *root)
{
	char tmp[4096];
	FILE *f;
	int bad;

	snprintf(tmp, sizeof(tmp), "%s.tmp", file);
	f = fopen(tmp, "wb");
	if (!f)
		return 1;
	bad = fwrite(root, sizeof(*root), 1, f) != 1;
	bad |= fclose(f) != 0;
	return bad || rename(tmp, file) != 0;
}

static inline int launch_root_read(const char *file, HcclRootInfo *root)
{
	struct timespec nap = { 0, 100 * 1000 * 1000 };
	struct stat st;
	FILE *f;
	int i, bad;

	for (i = 0; stat(file, &st) != 0; i++) {
		if (i == LAUNCH_ROOT_WAIT_S * 10) {
			fprintf(stderr, "%s: no root info after %d s\n", file, LAUNCH_ROOT_WAIT_S);
			return 1;
		}
		nanosleep(&nap, NULL);
	}
	if ((size_t)st.st_size != sizeof(*root)) {
		fprintf(stderr, "%s: %lld bytes, not a root info (%zu)\n", file,
			(long long)st.st_size, sizeof(*root));
		return 1;
	}
	f = fopen(file, "rb");
	if (!f)
		return 1;
	bad = fread(root, sizeof(*root), 1, f) != 1;
	fclose(f);
	return bad;
}

/*
 * The root info: made here (on rank 0's card) when this process holds rank 0,
 * and written to the root info file if there is one; else read from it.
 */
static inline int launch_root_info(const struct launch *l, HcclRootInfo *root)
{
	if (l->first) {
		if (!launch_root_read(l->root_file, root))
			return 0;
	} else if (aclrtSetDevice(launch_device(l, 0)) == ACL_SUCCESS &&
		   HcclGetRootInfo(root) == HCCL_SUCCESS) {
		if (!l->root_file || !launch_root_write(l->root_file, root))
			return 0;
		fprintf(stderr, "cannot write the root info to %s\n", l->root_file);
		return 1;
	}
	fprintf(stderr, "cannot %s the root info\n", l->first ? "read" : "create");
	return 1;
}

typedef int (*launch_fn)(const void *arg, const HcclRootInfo *root, uint32_t rank);

struct launch_thread {
	launch_fn fn;
	const void *arg;
	const HcclRootInfo *root;
	uint32_t rank;
	int ret;
};

static inline void *launch_thread_main(void *p)
{
	struct launch_thread *t = p;

	t->ret = t->fn(t->arg, t->root, t->rank);
	return NULL;
}

/*
 * fn(arg, root, rank) for each rank run here, as threads or processes;
 * non-zero when one failed.
 */
static inline int launch_ranks(const struct launch *l, launch_fn fn, const void *arg,
			       const HcclRootInfo *root)
{
	struct launch_thread *t = calloc(l->nlocal, sizeof(*t));
	pthread_t *tid = calloc(l->nlocal, sizeof(*tid));
	pid_t *pid = calloc(l->nlocal, sizeof(*pid));
	int fail = 0, st;
	uint32_t i;

	if (!t || !tid || !pid) {
		free(t);
		free(tid);
		free(pid);
		return 1;
	}
	fflush(stdout);
	for (i = 0; i < l->nlocal; i++) {
		t[i] = (struct launch_thread){ fn, arg, root, l->first + i, 1 };
		if (!l->processes) {
			if (pthread_create(&tid[i], NULL, launch_thread_main, &t[i]))
				return 1;	/* the started ranks would wait for it */
			continue;
		}
		pid[i] = fork();
		if (!pid[i])
			_exit(fn(arg, root, l->first + i));
		if (pid[i] < 0)
			return 1;
	}
	for (i = 0; i < l->nlocal; i++) {
		if (!l->processes) {
			pthread_join(tid[i], NULL);
			fail |= t[i].ret;
		} else {
			waitpid(pid[i], &st, 0);
			fail |= !WIFEXITED(st) || WEXITSTATUS(st);
		}
	}
	free(t);
	free(tid);
	free(pid);
	return fail;
}

#endif /* HCCLT_EXAMPLE_LAUNCH_H_ */
