// SPDX-License-Identifier: MIT
/*
 * The device address window: where this process maps device memory.
 *
 * Every mapping of device memory (aclrtMalloc, HCCL buffers, a channel
 * peer's buffer, the reservations of the virtual memory calls) is placed
 * in one range of addresses, [HCCLT_VAS_BASE, HCCLT_VAS_BASE +
 * HCCLT_VAS_SIZE), that an ordinary process never uses: the kernel puts
 * mmap() below the stack (near 128 TiB) and a PIE with its heap near
 * 85 TiB. The AI CPU (aicpu.c, aicpu_core.c) is a process of its own
 * that maps the same objects at the same addresses, so pointers in a
 * kernel's arguments and engine contexts stay valid there; its own
 * libraries, heap and stacks are elsewhere, which is what makes that
 * possible.
 *
 * Addresses are handed out first-fit from a sorted list of the ranges in
 * use; a range is placed with MAP_FIXED_NOREPLACE, and one that something
 * else of the process already holds (EEXIST) is noted as taken and the
 * search goes on. Freed ranges are reused. State under vas_lock, a leaf.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

struct vas_range {
	uintptr_t base;
	size_t len;
};

/* protects used[], nused, capused */
static pthread_mutex_t vas_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vas_range *used;	/* sorted by base, never overlapping */
static size_t nused, capused;

/* Note [@base, @base + @len) as used. Caller holds vas_lock. */
static int vas_insert(size_t i, uintptr_t base, size_t len)
{
	if (nused == capused) {
		size_t ncap = capused ? 2 * capused : 64;
		struct vas_range *n = realloc(used, ncap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		used = n;
		capused = ncap;
	}
	memmove(&used[i + 1], &used[i], (nused - i) * sizeof(*used));
	used[i].base = base;
	used[i].len = len;
	nused++;
	return 0;
}

/*
 * A free range of @len bytes aligned to @align (a power of two) in the
 * window, noted as used: its start and, in *@slot, its index; 0 when the
 * window is full. Caller holds vas_lock.
 */
static uintptr_t vas_find(size_t len, size_t align, size_t *slot)
{
	uintptr_t at = HCCLT_VAS_BASE, end = HCCLT_VAS_BASE + HCCLT_VAS_SIZE;
	size_t i;

	for (i = 0; i <= nused; i++) {
		uintptr_t next = i < nused ? used[i].base : end;

		at = (at + align - 1) & ~(uintptr_t)(align - 1);
		if (at <= next && next - at >= len) {
			if (vas_insert(i, at, len))
				return 0;
			*slot = i;
			return at;
		}
		if (i < nused && used[i].base + used[i].len > at)
			at = used[i].base + used[i].len;
	}
	return 0;
}

void *hcclt_vas_mmap(size_t len, size_t align, int prot, int flags, int fd, off_t off)
{
	size_t slot;
	uintptr_t at;
	void *p;

	if (!len || len > HCCLT_VAS_SIZE || align > HCCLT_VAS_SIZE) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	if (align < 4096)
		align = 4096;
	pthread_mutex_lock(&vas_lock);
	for (;;) {
		at = vas_find(len, align, &slot);
		if (!at) {
			pthread_mutex_unlock(&vas_lock);
			errno = ENOMEM;
			return MAP_FAILED;
		}
		p = mmap((void *)at, len, prot, flags | MAP_FIXED_NOREPLACE, fd, off);
		if (p == (void *)at)
			break;
		if (p != MAP_FAILED) {
			/* A kernel without MAP_FIXED_NOREPLACE took it as a hint. */
			munmap(p, len);
			errno = EEXIST;
		}
		if (errno != EEXIST) {
			int err = errno;

			memmove(&used[slot], &used[slot + 1], (nused - slot - 1) * sizeof(*used));
			nused--;
			pthread_mutex_unlock(&vas_lock);
			errno = err;
			return MAP_FAILED;
		}
		/* Someone else's: stays noted as used, look further. */
		hcclt_debug("device window: 0x%lx is taken, looking further", (unsigned long)at);
	}
	pthread_mutex_unlock(&vas_lock);
	return p;
}

void hcclt_vas_munmap(void *p, size_t len)
{
	uintptr_t u = (uintptr_t)p;
	size_t i;

	munmap(p, len);
	if (u < HCCLT_VAS_BASE || u - HCCLT_VAS_BASE >= HCCLT_VAS_SIZE)
		return;
	pthread_mutex_lock(&vas_lock);
	for (i = 0; i < nused; i++) {
		if (used[i].base == u) {
			memmove(&used[i], &used[i + 1], (nused - i - 1) * sizeof(*used));
			nused--;
			break;
		}
	}
	pthread_mutex_unlock(&vas_lock);
}

void hcclt_vas_atfork_prepare(void)
{
	pthread_mutex_lock(&vas_lock);
}

void hcclt_vas_atfork_parent(void)
{
	pthread_mutex_unlock(&vas_lock);
}

/* The child has none of the mappings (MADV_DONTFORK): all free again. */
void hcclt_vas_atfork_child(void)
{
	nused = 0;
	pthread_mutex_unlock(&vas_lock);
}
