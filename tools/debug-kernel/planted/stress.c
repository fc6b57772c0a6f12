// SPDX-License-Identifier: GPL-2.0
/*
 * stress - write N times to <debugfs>/hcclt_planted/alloc, the stress
 * target of the checker self-test's fault-injection cases. Every call may
 * fail with ENOMEM under failslab (open included): that is counted, not
 * fatal. Any other errno fails. Built static: the guest has no libc.
 *
 *   stress [N]   (default 400)
 *
 * Under faultinject.sh (HCCLT_FAULTINJECT=1) it first makes sure it is a
 * target: with HCCLT_FAULTINJECT_SELF=1 it marks itself, else it waits
 * (up to 10 s) until faultinject.sh has marked it, so that a short run
 * cannot finish before injection starts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALLOC_FILE "/sys/kernel/debug/hcclt_planted/alloc"

static int make_it_fail(int set)
{
	char c = '0';
	int fd = open("/proc/self/make-it-fail", set ? O_WRONLY : O_RDONLY);

	if (fd < 0)
		return -1;
	if (set) {
		if (write(fd, "1", 1) != 1)
			c = '0';
		else
			c = '1';
	} else if (read(fd, &c, 1) != 1) {
		c = '0';
	}
	close(fd);
	return c == '1';
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 400;
	long ok = 0, enomem = 0, i;
	int fd = -1;

	if (getenv("HCCLT_FAULTINJECT_SELF")) {
		if (make_it_fail(1) != 1) {
			fprintf(stderr, "stress: cannot mark myself\n");
			return 1;
		}
	} else if (getenv("HCCLT_FAULTINJECT")) {
		for (i = 0; i < 1000 && make_it_fail(0) != 1; i++)
			usleep(10000);
	}

	for (i = 0; i < n; i++) {
		if (fd < 0) {
			fd = open(ALLOC_FILE, O_WRONLY | O_CLOEXEC);
			if (fd < 0) {
				if (errno == ENOMEM) {
					enomem++;
					continue;
				}
				fprintf(stderr, "stress: open: %s\n", strerror(errno));
				return 1;
			}
		}
		if (write(fd, "1", 1) == 1) {
			ok++;
		} else if (errno == ENOMEM) {
			enomem++;
		} else {
			fprintf(stderr, "stress: write: %s\n", strerror(errno));
			return 1;
		}
	}
	if (fd >= 0)
		close(fd);
	printf("stress: %ld calls, %ld ok, %ld ENOMEM\n", n, ok, enomem);
	return 0;
}
