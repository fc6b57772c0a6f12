// SPDX-License-Identifier: MIT
/*
 * Engine contexts (HcclEngineCtxCreate/Get/Copy/Destroy): per
 * (communicator, tag, engine) blocks that custom operators keep their
 * resources in between launches. CPU, CPU_TS and CCU contexts are host
 * memory; AICPU, AICPU_TS and AIV ones device memory of the
 * communicator's device (aclrtMalloc()), which kernels read. Both start
 * zeroed. A communicator's contexts go with HcclCommDestroy().
 *
 * Codes per SoC, as hcomm 8958adbf: on a 950 a context that does not
 * exist is HCCL_E_NOT_FOUND for Get and Copy and Copy checks that
 * offset + size fits (engine_ctxs/engine_ctxs.cc:50,59,76-78); on A2/A3
 * it is HCCL_E_PARA (independent_op_context_manager.cc:73,80). Copy checks
 * the bounds on every SoC (hcomm's A2/A3 copy does not): faq.rst.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define TAG_MAX	255	/* hcomm's HCCL_RES_TAG_MAX_LEN */

struct ctx {
	struct ctx *next;
	const struct hcclt_comm *comm;
	uint64_t comm_id;
	uint32_t gen;
	CommEngine engine;
	char tag[TAG_MAX + 1];
	void *p;
	uint64_t size;
	int device;
};

/* protects ctxs */
static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ctx *ctxs;

static int engine_device(CommEngine e)
{
	return e == COMM_ENGINE_AICPU || e == COMM_ENGINE_AICPU_TS || e == COMM_ENGINE_AIV;
}

static int engine_valid(CommEngine e)
{
	return e == COMM_ENGINE_CPU || e == COMM_ENGINE_CPU_TS || e == COMM_ENGINE_CCU ||
	       engine_device(e);
}

/* Caller holds ctx_lock. */
static struct ctx **ctx_find(const struct hcclt_comm *c, const char *tag, CommEngine e)
{
	struct ctx **pp, *x;

	for (pp = &ctxs; (x = *pp); pp = &x->next)
		if (x->comm == c && x->comm_id == c->id && x->gen == c->gen &&
		    x->engine == e && !strcmp(x->tag, tag))
			return pp;
	return NULL;
}

static void ctx_free(struct ctx *x)
{
	if (x->device)
		aclrtFree(x->p);
	else
		free(x->p);
	free(x);
}

/* A context that does not exist: hcomm's code of the SoC. */
static HcclResult not_found(void)
{
	const char *soc = aclrtGetSocName();

	return soc && !strncmp(soc, "Ascend950", 9) ? HCCL_E_NOT_FOUND : HCCL_E_PARA;
}

/* NULL is "", as hcomm; HCCL_E_PARA past 255 bytes. */
static HcclResult tag_check(const char **tag)
{
	if (!*tag)
		*tag = "";
	return strlen(*tag) > TAG_MAX ? HCCL_E_PARA : HCCL_SUCCESS;
}

HCCLT_EXPORT HcclResult HcclEngineCtxCreate(HcclComm comm, const char *ctxTag, CommEngine engine,
					    uint64_t size, void **ctx)
{
	struct hcclt_comm *c;
	struct ctx *x;
	HcclResult ret;

	if (!comm || !ctx)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (!size || tag_check(&ctxTag) || !engine_valid(engine))
		return HCCL_E_PARA;
	x = calloc(1, sizeof(*x));
	if (!x)
		return HCCL_E_MEMORY;
	x->comm = c;
	x->comm_id = c->id;
	x->gen = c->gen;
	x->engine = engine;
	strcpy(x->tag, ctxTag);
	x->size = size;
	x->device = engine_device(engine);
	pthread_mutex_lock(&ctx_lock);
	if (ctx_find(c, ctxTag, engine)) {
		pthread_mutex_unlock(&ctx_lock);
		free(x);
		return HCCL_E_PARA;
	}
	if (x->device)
		ret = hcclt_dev_alloc(c->dev, size, &x->p) == ACL_SUCCESS ?
		      HCCL_SUCCESS : HCCL_E_MEMORY;
	else
		ret = (x->p = calloc(1, size)) ? HCCL_SUCCESS : HCCL_E_MEMORY;
	if (ret == HCCL_SUCCESS) {
		x->next = ctxs;
		ctxs = x;
		*ctx = x->p;
	}
	pthread_mutex_unlock(&ctx_lock);
	if (ret != HCCL_SUCCESS)
		free(x);
	return ret;
}

HCCLT_EXPORT HcclResult HcclEngineCtxGet(HcclComm comm, const char *ctxTag, CommEngine engine,
					 void **ctx, uint64_t *size)
{
	struct hcclt_comm *c;
	struct ctx **pp;
	HcclResult ret = not_found();

	if (!comm || !ctx || !size)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (tag_check(&ctxTag))
		return HCCL_E_PARA;
	pthread_mutex_lock(&ctx_lock);
	pp = ctx_find(c, ctxTag, engine);
	if (pp) {
		*ctx = (*pp)->p;
		*size = (*pp)->size;
		ret = HCCL_SUCCESS;
	}
	pthread_mutex_unlock(&ctx_lock);
	return ret;
}

HCCLT_EXPORT HcclResult HcclEngineCtxCopy(HcclComm comm, CommEngine engine, const char *ctxTag,
					  const void *srcCtx, uint64_t size, uint64_t dstCtxOffset)
{
	struct hcclt_comm *c;
	struct ctx **pp;
	HcclResult ret = HCCL_E_PARA;

	if (!comm || !srcCtx)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (!size || tag_check(&ctxTag))
		return HCCL_E_PARA;
	ret = not_found();
	pthread_mutex_lock(&ctx_lock);
	pp = ctx_find(c, ctxTag, engine);
	/* hcomm's 950 check; its A2/A3 copy makes none. */
	if (pp && (dstCtxOffset > (*pp)->size || size > (*pp)->size - dstCtxOffset)) {
		ret = HCCL_E_PARA;
	} else if (pp) {
		/* Device memory is mapped here: a host-to-device copy is this. */
		memcpy((char *)(*pp)->p + dstCtxOffset, srcCtx, size);
		ret = HCCL_SUCCESS;
	}
	pthread_mutex_unlock(&ctx_lock);
	return ret;
}

HCCLT_EXPORT HcclResult HcclEngineCtxDestroy(HcclComm comm, const char *ctxTag, CommEngine engine)
{
	struct hcclt_comm *c;
	struct ctx **pp, *x = NULL;

	if (!comm)
		return HCCL_E_PTR;
	c = hcclt_comm_get(comm);
	if (!c)
		return HCCL_E_PTR;
	if (tag_check(&ctxTag))
		return HCCL_E_PARA;
	pthread_mutex_lock(&ctx_lock);
	pp = ctx_find(c, ctxTag, engine);
	if (pp) {
		x = *pp;
		*pp = x->next;
	}
	pthread_mutex_unlock(&ctx_lock);
	if (!x)
		return HCCL_E_PARA;
	ctx_free(x);
	return HCCL_SUCCESS;
}

void hcclt_ctx_comm_gone(struct hcclt_comm *c)
{
	struct ctx **pp, *x, *gone = NULL;

	pthread_mutex_lock(&ctx_lock);
	for (pp = &ctxs; (x = *pp);) {
		if (x->comm == c && x->comm_id == c->id && x->gen == c->gen) {
			*pp = x->next;
			x->next = gone;
			gone = x;
		} else {
			pp = &x->next;
		}
	}
	pthread_mutex_unlock(&ctx_lock);
	while ((x = gone)) {
		gone = x->next;
		/* A fork() child has no mapping of the parent's device memory. */
		if (x->device && x->gen != hcclt_gen())
			x->device = 0, x->p = NULL;
		ctx_free(x);
	}
}
