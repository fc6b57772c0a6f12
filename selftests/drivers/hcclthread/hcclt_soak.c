// SPDX-License-Identifier: GPL-2.0
/*
 * Soak test of hcclthread: for a fixed number of rounds, N processes x M
 * threads acquire threads, ping-pong notifies between streams, park
 * streams forever, export, destroy communicators, and get SIGKILLed at
 * random points. Afterwards every device pool and counter must be back at
 * its initial value.
 *
 *   hcclt_soak [SEED]
 *   env: HCCLT_SOAK_SEED, HCCLT_SOAK_PROCS (4), HCCLT_SOAK_THREADS (3),
 *        HCCLT_SOAK_ROUNDS (6), HCCLT_SOAK_ITERS (8, per thread)
 *
 * Even-numbered processes run HCCLT_SOAK_ITERS iterations per thread and
 * must exit cleanly; odd-numbered ones loop until the parent SIGKILLs them
 * 50-300 ms after the start, at a random point of their work.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

#include "hcclt_common.h"
#include "../../kselftest.h"

static unsigned int nprocs = 4, nthreads = 3, nrounds = 6, niters = 8;

struct tctx {
	int fd;
	int forever;		/* loop until SIGKILLed */
	unsigned int seed;
	int err;		/* first unexpected result */
	char what[160];
};

#define BAD(c, fmt, ...) do {						\
	if (!(c)->err) {						\
		(c)->err = 1;						\
		snprintf((c)->what, sizeof((c)->what), fmt, ##__VA_ARGS__); \
	}								\
} while (0)

static void pingpong(struct tctx *c, __u64 x, __u64 y, int rounds)
{
	struct drm_hcclt_task tx[2] = { hcclt_rec(y, 0), hcclt_wait(0, 5) };
	struct drm_hcclt_task ty[2] = { hcclt_wait(0, 5), hcclt_rec(x, 0) };
	int i, r;

	for (i = 0; i < rounds; i++) {
		r = hcclt_submit(c->fd, y, ty, 2);
		if (!r)
			r = hcclt_submit(c->fd, x, tx, 2);
		if (r) {
			BAD(c, "pingpong submit: %d", r);
			return;
		}
		r = hcclt_sync(c->fd, x, 20000);
		if (!r)
			r = hcclt_sync(c->fd, y, 20000);
		if (r) {
			BAD(c, "pingpong sync: %d", r);
			return;
		}
	}
}

static void *soak_thread(void *p)
{
	static const __u32 eng[] = { HCCLT_ENGINE_CPU, HCCLT_ENGINE_CPU_TS,
		HCCLT_ENGINE_AICPU, HCCLT_ENGINE_AICPU_TS, HCCLT_ENGINE_CCU };
	struct tctx *c = p;
	unsigned int it;

	for (it = 0; (c->forever || it < niters) && !c->err; it++) {
		__u32 e = eng[rand_r(&c->seed) % 5];
		__u32 n = 2 + rand_r(&c->seed) % 6;
		__u32 nn = 1 + rand_r(&c->seed) % 3;
		__u64 comm, th[8], v[8], more[41], s, t;
		int r, k;

		r = hcclt_comm_create(c->fd, &comm);
		if (r) {
			BAD(c, "comm create: %d", r);
			break;
		}
		r = hcclt_acquire(c->fd, comm, e, n, nn, th);
		if (r == -ENOSPC)	/* device pool shared with others */
			goto destroy;
		if (r) {
			BAD(c, "acquire %u x %u on %u: %d", n, nn, e, r);
			break;
		}
		/* fill the rest of the quota; the refusal must be exact */
		r = hcclt_acquire(c->fd, comm, e, 40 - n + 1, 0, more);
		if (r != -EDQUOT)
			BAD(c, "over-quota acquire: %d", r);
		pingpong(c, th[0], th[1], 5 + rand_r(&c->seed) % 10);
		if (rand_r(&c->seed) % 2 &&
		    hcclt_export(c->fd, comm, HCCLT_ENGINE_CPU, n, th, v))
			BAD(c, "export failed");
		/* park some streams forever */
		for (k = 2; k < (int)n; k++) {
			if (rand_r(&c->seed) % 2)
				continue;
			r = hcclt_waitq(c->fd, th[k], 0, 0);
			if (r)
				BAD(c, "park: %d", r);
		}
		if (rand_r(&c->seed) % 3 == 0 &&
		    !hcclt_stream_create(c->fd, &s)) {
			r = hcclt_acquire_ws(c->fd, comm, s, HCCLT_ENGINE_CCU,
					     1, &t);
			if (r && r != -EDQUOT && r != -ENOSPC)
				BAD(c, "acquire with stream: %d", r);
			if (!r) {
				r = hcclt_waitq(c->fd, t, 0, 0);
				if (r)
					BAD(c, "park wrapped: %d", r);
			}
			if (rand_r(&c->seed) % 2) {
				r = hcclt_stream_destroy(c->fd, s);
				if (r)
					BAD(c, "stream destroy: %d", r);
			}
		}
destroy:
		/* leave some communicators for close() or SIGKILL */
		if (rand_r(&c->seed) % 4) {
			r = hcclt_comm_destroy(c->fd, comm);
			if (r)
				BAD(c, "comm destroy: %d", r);
		}
	}
	return NULL;
}

static void child(unsigned int seed, int forever)
{
	struct tctx c[16];
	pthread_t pt[16];
	unsigned int i;
	int fd = hcclt_open(), bad = 0;

	if (fd < 0) {
		printf("# child %d: open: %s\n", getpid(), strerror(-fd));
		_exit(2);
	}
	for (i = 0; i < nthreads; i++) {
		c[i].fd = fd;
		c[i].seed = seed * 31 + i;
		c[i].err = 0;
		c[i].forever = forever;
		pthread_create(&pt[i], NULL, soak_thread, &c[i]);
	}
	for (i = 0; i < nthreads; i++) {
		pthread_join(pt[i], NULL);
		if (c[i].err) {
			printf("# child %d thread %u: %s\n", getpid(), i,
			       c[i].what);
			bad = 1;
		}
	}
	_exit(bad);
}

static unsigned int env_u(const char *name, unsigned int def, unsigned int max)
{
	const char *s = getenv(name);
	unsigned long v = s && *s ? strtoul(s, NULL, 0) : def;

	return v < 1 ? 1 : v > max ? max : (unsigned int)v;
}

int main(int argc, char **argv)
{
	struct drm_hcclt_query q0, q;
	unsigned int seed, round, killed = 0, exited = 0, failed = 0;
	const char *s;
	int fd;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	fd = hcclt_open();
	if (fd < 0)
		ksft_exit_skip("no hcclthread device (%s)\n", strerror(-fd));
	if (hcclt_query(fd, &q0))
		ksft_exit_fail_msg("QUERY: %s\n", strerror(errno));
	s = argc > 1 ? argv[1] : getenv("HCCLT_SOAK_SEED");
	seed = s && *s ? (unsigned int)strtoul(s, NULL, 0) :
			 (unsigned int)time(NULL) ^ (unsigned int)getpid();
	nprocs = env_u("HCCLT_SOAK_PROCS", nprocs, 64);
	nthreads = env_u("HCCLT_SOAK_THREADS", nthreads, 16);
	nrounds = env_u("HCCLT_SOAK_ROUNDS", nrounds, 1000);
	niters = env_u("HCCLT_SOAK_ITERS", niters, 100000);
	ksft_set_plan(2);
	ksft_print_msg("seed %u: %u rounds of %u processes x %u threads x %u iterations\n",
		       seed, nrounds, nprocs, nthreads, niters);
	srand(seed);

	for (round = 0; round < nrounds; round++) {
		pid_t pids[64];
		unsigned int i;

		/* odd children work until they are SIGKILLed mid-way */
		for (i = 0; i < nprocs; i++) {
			pids[i] = fork();
			if (pids[i] < 0)
				ksft_exit_fail_msg("fork: %s\n", strerror(errno));
			if (!pids[i]) {
				close(fd);
				child(seed + round * 1000 + i, i % 2);
			}
		}
		for (i = 1; i < nprocs; i += 2) {
			hcclt_msleep(50 + rand() % 250);
			kill(pids[i], SIGKILL);
		}
		for (i = 0; i < nprocs; i++) {
			int st;

			if (waitpid(pids[i], &st, 0) != pids[i])
				ksft_exit_fail_msg("waitpid: %s\n",
						   strerror(errno));
			if (i % 2 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) {
				killed++;
			} else if (!(i % 2) && WIFEXITED(st) &&
				   WEXITSTATUS(st) == 0) {
				exited++;
			} else {
				failed++;
				ksft_print_msg("round %u child %d: status %#x\n",
					       round, pids[i], st);
			}
		}
	}
	ksft_print_msg("%u processes killed, %u finished, %u failed\n",
		       killed, exited, failed);
	ksft_test_result(failed == 0, "soak: every surviving process saw only expected results\n");
	if (hcclt_wait_pools(fd, &q0, &q, 15000))
		ksft_print_msg("pools after: streams %u/%u notifies %u/%u comms %u/%u files %u/%u\n",
			       q.streams_used, q0.streams_used, q.notifies_used,
			       q0.notifies_used, q.comms, q0.comms, q.files,
			       q0.files);
	ksft_test_result(q.streams_used == q0.streams_used &&
			 q.notifies_used == q0.notifies_used &&
			 q.comms == q0.comms && q.files == q0.files,
			 "soak: device pools back at their initial values\n");
	close(fd);
	ksft_finished();
	return 0;
}
