// SPDX-License-Identifier: MIT
/*
 * AICPU kernels: loading CANN kernel descriptors (aclrtBinaryLoadFromFile,
 * json-c for the JSON, dlopen for the shared objects), argument blocks,
 * and launches (aclrtLaunchKernelWithConfig), which are kernel-launch
 * tasks on the stream (HCCLT_TASK_KERNEL_LAUNCH).
 *
 * A launch is a task on the stream: its cookie names a struct
 * hcclt_launch this file allocates with a copy of the argument block and
 * the kernel's shared object path and symbol. The simulated AI CPU
 * (aicpu.c) gets it from the driver's launch event when the stream
 * reaches it, runs it in an AI CPU core process, which has only the
 * device's memory, and frees it. The shared object is also loaded here,
 * when the descriptor is: its errors are aclrtBinaryLoadFromFile()'s and
 * aclrtBinaryGetFunction()'s, as CANN's; its code never runs here.
 *
 * Handles are pointers to structs with a magic word; a binary's functions
 * live as long as the binary; an argument block is consumed (marked dead
 * and kept on its function's list for reuse) by a successful launch.
 */
#include <dlfcn.h>
#include <link.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json.h>

#include "internal.h"

#define BIN_MAGIC	0x4842494eU	/* "HBIN" */
#define FUNC_MAGIC	0x4846554eU	/* "HFUN" */
#define ARGS_MAGIC	0x48415247U	/* "HARG" */
#define ARGS_DONE	0x44415247U	/* launched, not reusable as is */
#define DEAD_MAGIC	0x44454144U

/* Largest argument block: CANN's argument area is of this order. */
#define ARGS_MAX	65536

typedef unsigned int (*kernel_fn)(void *args);

struct kfunc {
	_Atomic uint32_t magic;
	struct kbin *bin;
	char *name;		/* the descriptor entry's key */
	char *symbol;		/* functionName */
	void *so;		/* dlopen handle (shared with other entries) */
	char *path;		/* where the loader found it, for the AI CPU */
	kernel_fn fn;		/* NULL until first looked up */
	struct kfunc *next;
};

struct kbin {
	_Atomic uint32_t magic;
	struct kfunc *funcs;
	void **sos;		/* every dlopen handle, once each */
	size_t nsos;
};

struct holder {
	void *buf;
	uint64_t off;
	uint64_t size;
};

struct kargs {
	_Atomic uint32_t magic;
	struct kfunc *func;
	unsigned char *buf;
	size_t len, cap;
	int finalized;
	/* Placeholder buffers: where their pointer is in @buf, their size. */
	struct holder *holders;
	size_t nholders;
};

static int magic_ok(_Atomic uint32_t *m, uint32_t want)
{
	return atomic_load_explicit(m, memory_order_acquire) == want;
}

/* ---- loading ---- */

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 1;
	char *d = malloc(n + 1);

	if (!d)
		return NULL;
	if (slash)
		memcpy(d, path, n);
	else
		d[0] = '.';
	d[n] = 0;
	return d;
}

/*
 * dlopen @so: beside the JSON, in ../kernel/ of it, on the loader's path.
 * Lazily: its code never runs here (the AI CPU process runs it), and its
 * references to the Hcomm calls are resolved there.
 */
static void *load_so(const char *jsondir, const char *so)
{
	char path[PATH_MAX];
	void *h;

	if (strchr(so, '/')) {
		h = dlopen(so, RTLD_LAZY | RTLD_LOCAL);
		if (!h)
			hcclt_debug("kernel %s: %s", so, dlerror());
		return h;
	}
	snprintf(path, sizeof(path), "%s/%s", jsondir, so);
	h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
	if (h)
		return h;
	hcclt_debug("kernel: not loaded from %s: %s", path, dlerror());
	snprintf(path, sizeof(path), "%s/../kernel/%s", jsondir, so);
	h = dlopen(path, RTLD_LAZY | RTLD_LOCAL);
	if (h)
		return h;
	hcclt_debug("kernel: not loaded from %s: %s", path, dlerror());
	h = dlopen(so, RTLD_LAZY | RTLD_LOCAL);
	if (!h)
		hcclt_debug("kernel: %s not on the loader's path either: %s", so, dlerror());
	return h;
}

static void bin_free(struct kbin *b)
{
	struct kfunc *f, *next;
	size_t i;

	for (f = b->funcs; f; f = next) {
		next = f->next;
		atomic_store(&f->magic, DEAD_MAGIC);
		free(f->name);
		free(f->symbol);
		free(f->path);
		/* Kept: a stale function handle reads dead memory, not freed. */
		f->so = NULL;
		f->fn = NULL;
	}
	for (i = 0; i < b->nsos; i++)
		dlclose(b->sos[i]);
	free(b->sos);
	atomic_store(&b->magic, DEAD_MAGIC);
}

/* Add the descriptor entry @name (its "opInfo" object @info) to @b. */
static aclError bin_add(struct kbin *b, const char *jsondir, const char *name,
			struct json_object *info)
{
	struct json_object *so_j, *fn_j;
	const char *so_name;
	struct kfunc *f;
	void *so = NULL;
	size_t i;

	if (!json_object_object_get_ex(info, "kernelSo", &so_j) ||
	    !json_object_object_get_ex(info, "functionName", &fn_j) ||
	    !json_object_is_type(so_j, json_type_string) ||
	    !json_object_is_type(fn_j, json_type_string)) {
		hcclt_debug("kernel %s: opInfo without kernelSo and functionName strings", name);
		return ACL_ERROR_INVALID_FILE;
	}
	so_name = json_object_get_string(so_j);
	so = load_so(jsondir, so_name);
	if (!so)
		return ACL_ERROR_INVALID_FILE;
	/* Entries often share a shared object: keep one reference of it. */
	for (i = 0; i < b->nsos && b->sos[i] != so; i++)
		;
	if (i == b->nsos) {
		void **n = realloc(b->sos, (b->nsos + 1) * sizeof(*n));

		if (!n) {
			dlclose(so);
			return ACL_ERROR_BAD_ALLOC;
		}
		b->sos = n;
		b->sos[b->nsos++] = so;
	} else {
		/* dlopen() counted it again. */
		dlclose(so);
	}
	f = calloc(1, sizeof(*f));
	if (!f)
		return ACL_ERROR_BAD_ALLOC;
	f->bin = b;
	f->so = so;
	f->name = strdup(name);
	f->symbol = strdup(json_object_get_string(fn_j));
	{
		struct link_map *lm = NULL;

		if (!dlinfo(so, RTLD_DI_LINKMAP, &lm) && lm && lm->l_name && *lm->l_name)
			f->path = realpath(lm->l_name, NULL);
	}
	if (!f->name || !f->symbol || !f->path) {
		free(f->name);
		free(f->symbol);
		free(f->path);
		free(f);
		return ACL_ERROR_BAD_ALLOC;
	}
	atomic_store(&f->magic, FUNC_MAGIC);
	f->next = b->funcs;
	b->funcs = f;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtBinaryLoadFromFile(const char *binPath, aclrtBinaryLoadOptions *options,
					      aclrtBinHandle *binHandle)
{
	struct json_object *root, *info;
	struct kbin *b;
	aclError ret = ACL_SUCCESS;
	char *dir;
	size_t i;

	if (!binPath || !binHandle)
		return ACL_ERROR_INVALID_PARAM;
	if (options) {
		if (options->numOpt && !options->options)
			return ACL_ERROR_INVALID_PARAM;
		for (i = 0; i < options->numOpt; i++)
			if (options->options[i].type < ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD ||
			    options->options[i].type > ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE)
				return ACL_ERROR_INVALID_PARAM;
	}
	root = json_object_from_file(binPath);
	if (!root || !json_object_is_type(root, json_type_object)) {
		hcclt_debug("kernel descriptor %s: %s", binPath,
			    root ? "not a JSON object" : json_util_get_last_err());
		json_object_put(root);
		return ACL_ERROR_INVALID_FILE;
	}
	dir = dir_of(binPath);
	b = calloc(1, sizeof(*b));
	if (!dir || !b) {
		free(dir);
		free(b);
		json_object_put(root);
		return ACL_ERROR_BAD_ALLOC;
	}
	{
		json_object_object_foreach(root, key, val) {
			if (!json_object_is_type(val, json_type_object) ||
			    !json_object_object_get_ex(val, "opInfo", &info) ||
			    !json_object_is_type(info, json_type_object)) {
				hcclt_debug("kernel descriptor %s: entry %s has no opInfo object",
					    binPath, key);
				ret = ACL_ERROR_INVALID_FILE;
				break;
			}
			ret = bin_add(b, dir, key, info);
			if (ret != ACL_SUCCESS)
				break;
		}
	}
	if (ret == ACL_SUCCESS && !b->funcs) {
		hcclt_debug("kernel descriptor %s: no kernel in it", binPath);
		ret = ACL_ERROR_INVALID_FILE;
	}
	free(dir);
	json_object_put(root);
	if (ret != ACL_SUCCESS) {
		bin_free(b);
		return ret;
	}
	atomic_store_explicit(&b->magic, BIN_MAGIC, memory_order_release);
	*binHandle = b;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char *kernelName,
					     aclrtFuncHandle *funcHandle)
{
	struct kbin *b = binHandle;
	struct kfunc *f;

	if (!b || !kernelName || !funcHandle || !magic_ok(&b->magic, BIN_MAGIC))
		return ACL_ERROR_INVALID_PARAM;
	for (f = b->funcs; f; f = f->next)
		if (!strcmp(f->name, kernelName))
			break;
	if (!f)
		for (f = b->funcs; f; f = f->next)
			if (!strcmp(f->symbol, kernelName))
				break;
	if (!f) {
		hcclt_debug("kernel %s: not in the descriptor", kernelName);
		return ACL_ERROR_INVALID_PARAM;
	}
	if (!f->fn) {
		f->fn = (kernel_fn)dlsym(f->so, f->symbol);
		if (!f->fn) {
			hcclt_debug("kernel %s: no symbol %s: %s", kernelName, f->symbol, dlerror());
			return ACL_ERROR_INVALID_PARAM;
		}
	}
	*funcHandle = f;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle)
{
	struct kbin *b = binHandle;
	uint32_t want = BIN_MAGIC;

	if (!b || !atomic_compare_exchange_strong(&b->magic, &want, DEAD_MAGIC))
		return ACL_ERROR_INVALID_PARAM;
	bin_free(b);
	return ACL_SUCCESS;
}

/* ---- argument blocks ---- */

static struct kargs *args_live(aclrtArgsHandle h)
{
	struct kargs *a = h;

	return a && magic_ok(&a->magic, ARGS_MAGIC) ? a : NULL;
}

HCCLT_EXPORT aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle *argsHandle)
{
	struct kfunc *f = funcHandle;
	struct kargs *a;

	if (!f || !argsHandle || !magic_ok(&f->magic, FUNC_MAGIC))
		return ACL_ERROR_INVALID_PARAM;
	a = calloc(1, sizeof(*a));
	if (!a)
		return ACL_ERROR_BAD_ALLOC;
	a->func = f;
	atomic_store_explicit(&a->magic, ARGS_MAGIC, memory_order_release);
	*argsHandle = a;
	return ACL_SUCCESS;
}

/* Room for @n more bytes, 8-byte aligned start; the offset, or -1. */
static long args_reserve(struct kargs *a, size_t n)
{
	size_t off = (a->len + 7) & ~(size_t)7;
	unsigned char *nb;

	if (a->finalized || n > ARGS_MAX || off + n > ARGS_MAX)
		return -1;
	if (off + n > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 256;

		while (cap < off + n)
			cap *= 2;
		nb = realloc(a->buf, cap);
		if (!nb)
			return -2;
		memset(nb + a->cap, 0, cap - a->cap);
		a->buf = nb;
		a->cap = cap;
	}
	a->len = off + n;
	return (long)off;
}

HCCLT_EXPORT aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void *param, size_t paramSize,
					    aclrtParamHandle *paramHandle)
{
	struct kargs *a = args_live(argsHandle);
	long off;

	if (!a || !param || !paramSize || !paramHandle)
		return ACL_ERROR_INVALID_PARAM;
	off = args_reserve(a, paramSize);
	if (off < 0)
		return off == -2 ? ACL_ERROR_BAD_ALLOC : ACL_ERROR_INVALID_PARAM;
	memcpy(a->buf + off, param, paramSize);
	/* The handle is the offset, plus one: never NULL. */
	*paramHandle = (aclrtParamHandle)(uintptr_t)(off + 1);
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtKernelArgsAppendPlaceHolder(aclrtArgsHandle argsHandle,
						       aclrtParamHandle *paramHandle)
{
	struct kargs *a = args_live(argsHandle);
	long off;

	if (!a || !paramHandle)
		return ACL_ERROR_INVALID_PARAM;
	off = args_reserve(a, sizeof(void *));
	if (off < 0)
		return off == -2 ? ACL_ERROR_BAD_ALLOC : ACL_ERROR_INVALID_PARAM;
	*paramHandle = (aclrtParamHandle)(uintptr_t)(off + 1);
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtKernelArgsGetPlaceHolderBuffer(aclrtArgsHandle argsHandle,
							  aclrtParamHandle paramHandle,
							  size_t dataSize, void **bufferAddr)
{
	struct kargs *a = args_live(argsHandle);
	uintptr_t off = (uintptr_t)paramHandle;
	struct holder *n;
	void *buf;

	if (!a || !off || !dataSize || !bufferAddr || dataSize > ARGS_MAX ||
	    off - 1 + sizeof(void *) > a->len)
		return ACL_ERROR_INVALID_PARAM;
	buf = calloc(1, dataSize);
	n = realloc(a->holders, (a->nholders + 1) * sizeof(*n));
	if (!buf || !n) {
		free(buf);
		if (n)
			a->holders = n;
		return ACL_ERROR_BAD_ALLOC;
	}
	a->holders = n;
	n[a->nholders].buf = buf;
	n[a->nholders].off = off - 1;
	n[a->nholders].size = dataSize;
	a->nholders++;
	memcpy(a->buf + off - 1, &buf, sizeof(buf));
	*bufferAddr = buf;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle)
{
	struct kargs *a = args_live(argsHandle);

	if (!a || a->finalized)
		return ACL_ERROR_INVALID_PARAM;
	a->finalized = 1;
	return ACL_SUCCESS;
}

/*
 * A launched block: dead to the API (the struct stays, so that using the
 * handle again is refused). The block and its placeholders' data were
 * copied into the launch: the AI CPU gives the kernel its own copies, as
 * the device does.
 */
static void args_consume(struct kargs *a)
{
	size_t i;

	atomic_store(&a->magic, ARGS_DONE);
	free(a->buf);
	a->buf = NULL;
	a->len = a->cap = 0;
	for (i = 0; i < a->nholders; i++)
		free(a->holders[i].buf);
	free(a->holders);
	a->holders = NULL;
	a->nholders = 0;
}

/*
 * The placeholders of @a as a launch carries them (aicpu.h): @n
 * descriptors (offset, size) and then their data. Its length, and the
 * blob in @out unless NULL.
 */
static size_t holders_pack(const struct kargs *a, unsigned char *out)
{
	size_t i, len = a->nholders * 2 * sizeof(uint64_t);

	for (i = 0; i < a->nholders; i++) {
		/* Each one's data 16-byte aligned, as an allocation is. */
		len = (len + 15) & ~(size_t)15;
		if (out) {
			memcpy(out + i * 16, &a->holders[i].off, 8);
			memcpy(out + i * 16 + 8, &a->holders[i].size, 8);
			memcpy(out + len, a->holders[i].buf, a->holders[i].size);
		}
		len += a->holders[i].size;
	}
	return len;
}

/* ---- launching ---- */

/* The launch timeout of @cfg in seconds (0: none), or -1 if invalid. */
static long cfg_timeout(const aclrtLaunchKernelCfg *cfg)
{
	long t = 0;
	int seen = 0;
	size_t i;

	if (!cfg)
		return 0;
	if (cfg->numAttrs && !cfg->attrs)
		return -1;
	for (i = 0; i < cfg->numAttrs; i++) {
		const aclrtLaunchKernelAttr *a = &cfg->attrs[i];

		if (a->id == ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT) {
			t = a->value.timeout;
			seen++;
		} else if (a->id == ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US) {
			uint64_t us = ((uint64_t)a->value.timeoutUs.timeoutHigh << 32) |
				      a->value.timeoutUs.timeoutLow;

			t = (long)((us + 999999) / 1000000);
			if (t > UINT32_MAX)
				t = UINT32_MAX;
			seen++;
		} else if (a->id < ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE ||
			   a->id > ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING) {
			return -1;
		}
	}
	/* CANN: the two timeouts cannot be given together. */
	return seen > 1 ? -1 : t;
}

HCCLT_EXPORT aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
						  aclrtStream stream, aclrtLaunchKernelCfg *cfg,
						  aclrtArgsHandle argsHandle, void *reserve)
{
	struct kfunc *f = funcHandle;
	struct kargs *a = args_live(argsHandle);
	struct drm_hcclt_task task;
	struct hcclt_stream *s;
	struct hcclt_launch *l;
	size_t plen, slen, nlen, hlen;
	long tmo;
	int fd, ret;

	if (!f || !magic_ok(&f->magic, FUNC_MAGIC) || !f->fn || !a || a->func != f ||
	    !a->finalized || !numBlocks || reserve)
		return ACL_ERROR_INVALID_PARAM;
	tmo = cfg_timeout(cfg);
	if (tmo < 0)
		return ACL_ERROR_INVALID_PARAM;
	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	s = hcclt_stream_get(stream);
	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (hcclt_aicpu_ensure(s->dev, fd))
		return ACL_ERROR_BAD_ALLOC;
	plen = strlen(f->path) + 1;
	slen = strlen(f->symbol) + 1;
	nlen = strlen(f->name) + 1;
	hlen = holders_pack(a, NULL);
	l = malloc(sizeof(*l) + a->len + plen + slen + nlen + hlen);
	if (!l)
		return ACL_ERROR_BAD_ALLOC;
	memset(l, 0, sizeof(*l));
	l->blocks = numBlocks;
	l->timeout_s = (uint32_t)tmo;
	l->len = a->len;
	if (a->len)
		memcpy(l->args, a->buf, a->len);
	l->path = memcpy(l->args + a->len, f->path, plen);
	l->symbol = memcpy(l->args + a->len + plen, f->symbol, slen);
	l->name = memcpy(l->args + a->len + plen + slen, f->name, nlen);
	l->holders = l->args + a->len + plen + slen + nlen;
	l->holders_len = hlen;
	l->nholders = (uint32_t)a->nholders;
	holders_pack(a, l->args + a->len + plen + slen + nlen);
	memset(&task, 0, sizeof(task));
	task.op = HCCLT_TASK_KERNEL_LAUNCH;
	task.dst_thread = (uintptr_t)l;
	task.timeout_s = (uint32_t)tmo;
	ret = hcclt_submit_one(fd, s->dev, s->id, &task);
	if (ret) {
		free(l);
		return hcclt_map_errno(HCCLT_OP_LAUNCH, ret);
	}
	args_consume(a);
	return ACL_SUCCESS;
}
