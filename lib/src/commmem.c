// SPDX-License-Identifier: MIT
/*
 * Memory activated on a communicator (HcclCommActivateCommMemory,
 * HcclCommDeactivateCommMemory, hccltCommListCommMemory).
 *
 * In CANN, activation maps a user's physical device memory (from
 * aclrtMallocPhysical, mapped with aclrtMapMem into a range reserved by
 * HcclCommSetMemoryRange) into every peer rank, so that collectives can
 * read and write it in place. libhcclthread has neither the virtual
 * memory calls nor collectives that could use it, and peers reach a rank's
 * memory only through its HCCL buffer. What it honours: the range must be
 * device memory of the communicator's device that this process allocated
 * (aclrtMalloc), it must not overlap another range activated on the same
 * communicator, and it is recorded with the communicator until it is
 * deactivated, the communicator is destroyed or the memory is freed.
 *
 * The records: one list, sorted by address, under cmem_lock. A record
 * names its communicator by struct, kernel id and fork generation, as
 * engine_ctx.c does, so a reused struct or a fork() child's new
 * communicator never sees another's records. Lock order: cmem_lock, then
 * mem.c's table_lock (the range check of an activation).
 */
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

struct cmem {
	struct cmem *next;
	const struct hcclt_comm *comm;
	uint64_t comm_id;
	uint32_t gen;
	int dev;
	uintptr_t base;
	size_t size;
};

/* protects cmems */
static pthread_mutex_t cmem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cmem *cmems;	/* by base address */

static int cmem_of(const struct cmem *m, const struct hcclt_comm *c)
{
	return m->comm == c && m->comm_id == c->id && m->gen == c->gen;
}

HCCLT_EXPORT HcclResult HcclCommActivateCommMemory(HcclComm comm, void *virPtr, size_t size,
						   size_t offset, aclrtDrvMemHandle handle,
						   uint64_t flags)
{
	uintptr_t base = (uintptr_t)virPtr;
	struct cmem *m, **pp, *x;
	struct hcclt_comm *c;

	/* CANN: comm, virPtr, handle NULL -> E_PTR, in that order. */
	if (!comm)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c || !virPtr || !handle)
		return HCCL_E_PTR;
	if (!size || offset || flags || size > UINTPTR_MAX - base)
		return HCCL_E_PARA;
	m = calloc(1, sizeof(*m));
	if (!m)
		return HCCL_E_MEMORY;
	m->comm = c;
	m->comm_id = c->id;
	m->gen = c->gen;
	m->dev = c->dev;
	m->base = base;
	m->size = size;
	pthread_mutex_lock(&cmem_lock);
	/* Checked under cmem_lock: aclrtFree() forgets after it took it. */
	if (!hcclt_mem_is_own_device(c->dev, virPtr, size))
		goto para;
	for (pp = &cmems; (x = *pp) && x->base < base + size; pp = &x->next)
		if (cmem_of(x, c) && x->base + x->size > base)
			goto para;	/* overlaps an activated range */
	for (pp = &cmems; *pp && (*pp)->base < base; pp = &(*pp)->next)
		;
	m->next = *pp;
	*pp = m;
	pthread_mutex_unlock(&cmem_lock);
	return HCCL_SUCCESS;
para:
	pthread_mutex_unlock(&cmem_lock);
	free(m);
	return HCCL_E_PARA;
}

HCCLT_EXPORT HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void *virPtr)
{
	struct cmem **pp, *x;
	struct hcclt_comm *c;

	if (!comm || !virPtr)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	pthread_mutex_lock(&cmem_lock);
	for (pp = &cmems; (x = *pp); pp = &x->next) {
		if (cmem_of(x, c) && x->base == (uintptr_t)virPtr) {
			*pp = x->next;
			pthread_mutex_unlock(&cmem_lock);
			free(x);
			return HCCL_SUCCESS;
		}
	}
	pthread_mutex_unlock(&cmem_lock);
	return HCCL_E_PARA;	/* CANN: "is not activate" */
}

HCCLT_EXPORT HcclResult hccltCommListCommMemory(HcclComm comm, void **ptrs, size_t *sizes,
						uint32_t max, uint32_t *count)
{
	struct hcclt_comm *c;
	struct cmem *x;
	uint32_t n = 0;

	if (!comm || !count || (max && (!ptrs || !sizes)))
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	pthread_mutex_lock(&cmem_lock);
	for (x = cmems; x; x = x->next) {
		if (!cmem_of(x, c))
			continue;
		if (n < max) {
			ptrs[n] = (void *)x->base;
			sizes[n] = x->size;
		}
		n++;
	}
	pthread_mutex_unlock(&cmem_lock);
	*count = n;
	return HCCL_SUCCESS;
}

/* Drop the records that match @match(@x, @arg). */
static void cmem_drop(int (*match)(const struct cmem *x, const void *arg), const void *arg)
{
	struct cmem **pp, *x, *gone = NULL;

	pthread_mutex_lock(&cmem_lock);
	for (pp = &cmems; (x = *pp);) {
		if (match(x, arg)) {
			*pp = x->next;
			x->next = gone;
			gone = x;
		} else {
			pp = &x->next;
		}
	}
	pthread_mutex_unlock(&cmem_lock);
	while ((x = gone)) {
		gone = x->next;
		free(x);
	}
}

static int match_comm(const struct cmem *x, const void *arg)
{
	return cmem_of(x, arg);
}

void hcclt_commmem_comm_gone(const struct hcclt_comm *c)
{
	cmem_drop(match_comm, c);
	hcclt_memreg_comm_gone(c);
}

struct range {
	int dev;
	uintptr_t base;
	size_t size;
};

static int match_range(const struct cmem *x, const void *arg)
{
	const struct range *r = arg;

	return x->dev == r->dev && x->gen == hcclt_gen() &&
	       x->base >= r->base && x->base - r->base < r->size;
}

void hcclt_commmem_forget(int dev, uintptr_t base, size_t size)
{
	struct range r = { .dev = dev, .base = base, .size = size };

	cmem_drop(match_range, &r);
}
