// SPDX-License-Identifier: MIT
/*
 * libhcclt_count_ioctl.so: hcclt-bench-allgather preloads it into the AI
 * CPU core processes (LD_PRELOAD, which they inherit) so that the ioctls
 * its kernels make count with the application's. Every ioctl() of the
 * process adds one to the 64-bit word at the start of the file
 * $HCCLT_COUNT_IOCTL, which the benchmark maps too.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static _Atomic unsigned long *counter;

__attribute__((constructor)) static void count_init(void)
{
	const char *path = getenv("HCCLT_COUNT_IOCTL");
	void *p;
	int fd;

	if (!path)
		return;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p != MAP_FAILED)
		counter = p;
}

int ioctl(int fd, unsigned long req, ...);
int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (counter)
		atomic_fetch_add(counter, 1);
	return (int)syscall(SYS_ioctl, fd, req, arg);
}
