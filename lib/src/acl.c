// SPDX-License-Identifier: MIT
/*
 * ACL runtime: current device (per OS thread) and streams.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The calling thread's current device, -1 when none. */
static _Thread_local int32_t cur_dev = -1;
/*
 * The calling thread's current context of aclrtCreateContext() or
 * aclrtSetCurrentContext(); NULL for the default context of cur_dev.
 */
static _Thread_local void *cur_ctx;

/*
 * Contexts: a created one is a struct laid out as a stream's (objects.c,
 * reused the same way, so a stale handle is refused), whose dev is its
 * device; a device's default context is its entry of def_ctx, the same
 * address in every thread (and in a child after fork()).
 */
typedef struct hcclt_stream hcclt_ctx;
static const char def_ctx[HCCLT_MAX_DEVICES];

static int ctx_default_dev(const void *h)
{
	uintptr_t p = (uintptr_t)h, b = (uintptr_t)def_ctx;

	return p >= b && p < b + HCCLT_MAX_DEVICES ? (int)(p - b) : -1;
}

static hcclt_ctx *ctx_get(void *h)
{
	hcclt_ctx *c = h;

	if (!c || ctx_default_dev(h) >= 0 ||
	    atomic_load_explicit(&c->magic, memory_order_acquire) != HCCLT_CTX_MAGIC ||
	    c->gen != hcclt_gen())
		return NULL;
	return c;
}

int32_t hcclt_current_device(void)
{
	return cur_dev;
}

/* ACL_SUCCESS when @dev exists and is open, else the ACL error. */
static aclError acl_open(int32_t dev)
{
	int fd = hcclt_device_open(dev);

	return fd < 0 ? hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd) : ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtSetDevice(int32_t deviceId)
{
	aclError ret = acl_open(deviceId);

	if (ret == ACL_SUCCESS) {
		cur_dev = deviceId;
		cur_ctx = NULL;
	}
	return ret;
}

HCCLT_EXPORT aclError aclrtResetDevice(int32_t deviceId)
{
	int n = hcclt_device_count();

	if (!n)
		return ACL_ERROR_RT_NO_DEVICE;
	if (deviceId < 0 || deviceId >= n)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	if (cur_dev == deviceId) {
		cur_dev = -1;
		cur_ctx = NULL;
	}
	return ACL_SUCCESS;
}

/* aclrtSetDevice() is not counted: nothing more to force. */
HCCLT_EXPORT aclError aclrtResetDeviceForce(int32_t deviceId)
{
	return aclrtResetDevice(deviceId);
}

HCCLT_EXPORT aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)
{
	aclError ret;
	hcclt_ctx *c;

	if (!context)
		return ACL_ERROR_INVALID_PARAM;
	ret = acl_open(deviceId);
	if (ret != ACL_SUCCESS)
		return ret;
	c = hcclt_obj_alloc();
	if (!c)
		return ACL_ERROR_BAD_ALLOC;
	c->gen = hcclt_gen();
	c->dev = deviceId;
	atomic_store_explicit(&c->magic, HCCLT_CTX_MAGIC, memory_order_release);
	cur_dev = deviceId;
	cur_ctx = c;
	*context = c;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtDestroyContext(aclrtContext context)
{
	hcclt_ctx *c;

	if (!context)
		return ACL_ERROR_INVALID_PARAM;
	c = ctx_get(context);
	/* Of two destroys of one handle, only one goes on. */
	if (!c || !hcclt_obj_claim(&c->magic, HCCLT_CTX_MAGIC))
		return ACL_ERROR_RT_CONTEXT_NULL;
	if (cur_ctx == context) {
		cur_ctx = NULL;
		cur_dev = -1;
	}
	hcclt_obj_free(c);
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtSetCurrentContext(aclrtContext context)
{
	int dev = ctx_default_dev(context);
	hcclt_ctx *c;
	aclError ret;

	if (!context)
		return ACL_ERROR_INVALID_PARAM;
	if (dev >= 0) {
		ret = acl_open(dev);
		if (ret != ACL_SUCCESS)
			return ACL_ERROR_RT_PARAM_INVALID;
		cur_dev = dev;
		cur_ctx = NULL;
		return ACL_SUCCESS;
	}
	c = ctx_get(context);
	if (!c)
		return ACL_ERROR_RT_PARAM_INVALID;
	cur_dev = c->dev;
	cur_ctx = c;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtGetCurrentContext(aclrtContext *context)
{
	if (!context)
		return ACL_ERROR_INVALID_PARAM;
	/* A context destroyed by another thread is no longer current. */
	if (cur_ctx && ctx_get(cur_ctx)) {
		*context = cur_ctx;
		return ACL_SUCCESS;
	}
	if (cur_dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*context = (aclrtContext)(def_ctx + cur_dev);
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtGetDevice(int32_t *deviceId)
{
	if (!deviceId)
		return ACL_ERROR_INVALID_PARAM;
	if (cur_dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*deviceId = cur_dev;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtCreateStream(aclrtStream *stream)
{
	struct drm_hcclt_stream_create sc;
	struct hcclt_stream *s;
	int32_t dev = cur_dev;
	aclError aret;
	int fd, ret;

	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	if (dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	aret = acl_open(dev);
	if (aret != ACL_SUCCESS)
		return aret;
	fd = hcclt_device_fd_fast(dev);
	s = hcclt_obj_alloc();
	if (!s)
		return ACL_ERROR_BAD_ALLOC;
	memset(&sc, 0, sizeof(sc));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_CREATE, &sc);
	if (ret) {
		hcclt_obj_free(s);
		return hcclt_map_errno(HCCLT_OP_STREAM_CREATE, ret);
	}
	s->gen = hcclt_gen();
	s->dev = dev;
	s->id = sc.stream_id;
	atomic_store_explicit(&s->magic, HCCLT_STREAM_MAGIC, memory_order_release);
	*stream = s;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtDestroyStream(aclrtStream stream)
{
	struct drm_hcclt_stream_destroy sd;
	struct hcclt_stream *s;
	int fd, ret;

	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	s = hcclt_stream_get(stream);
	/* Of two destroys of one handle, only one goes on. */
	if (!s || !hcclt_obj_claim(&s->magic, HCCLT_STREAM_MAGIC))
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(s->dev);
	memset(&sd, 0, sizeof(sd));
	sd.stream_id = s->id;
	ret = fd < 0 ? -ENOENT : hcclt_ioctl(fd, DRM_IOCTL_HCCLT_STREAM_DESTROY, &sd);
	hcclt_idle_forget();
	hcclt_obj_free(s);
	return hcclt_map_errno(HCCLT_OP_STREAM_DESTROY, ret);
}

HCCLT_EXPORT aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	/* aclrtDestroyStream() already cancels what is queued. */
	return aclrtDestroyStream(stream);
}

HCCLT_EXPORT aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)
{
	struct hcclt_stream *s;
	int fd, ret;

	if (!status || !stream)
		return ACL_ERROR_INVALID_PARAM;
	s = hcclt_stream_get(stream);
	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (hcclt_idle_check(s->dev, s->id)) {
		*status = ACL_STREAM_STATUS_COMPLETE;
		return ACL_SUCCESS;
	}
	/* A synchronize that does not wait: -ETIME while tasks are queued. */
	ret = hcclt_stream_sync(fd, s->id, 0);
	if (ret == -ETIME) {
		*status = ACL_STREAM_STATUS_NOT_READY;
		return ACL_SUCCESS;
	}
	if (ret)
		return hcclt_map_errno(HCCLT_OP_STREAM_SYNC, ret);
	*status = ACL_STREAM_STATUS_COMPLETE;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
	struct hcclt_stream *s;
	int fd, ret;

	/* The runtime's check (CANN: ACL_ERROR_RT_PARAM_INVALID), then ACL's. */
	if (timeout < -1)
		return ACL_ERROR_RT_PARAM_INVALID;
	if (!stream)
		return ACL_ERROR_INVALID_PARAM;
	s = hcclt_stream_get(stream);
	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (hcclt_idle_check(s->dev, s->id))
		return ACL_SUCCESS;
	ret = hcclt_stream_sync(fd, s->id, timeout);
	return hcclt_map_errno(HCCLT_OP_STREAM_SYNC, ret);
}

HCCLT_EXPORT aclError aclrtSynchronizeStream(aclrtStream stream)
{
	return aclrtSynchronizeStreamWithTimeout(stream, -1);
}

/* DRM_IOCTL_HCCLT_SET_PARAM on @fd; 0 or a negative errno. */
static int set_param(int fd, uint64_t handle, uint32_t param, uint64_t value)
{
	struct drm_hcclt_set_param sp;

	memset(&sp, 0, sizeof(sp));
	sp.handle = handle;
	sp.param = param;
	sp.value = value;
	return hcclt_ioctl(fd, DRM_IOCTL_HCCLT_SET_PARAM, &sp);
}

/* Does the SoC of the driver's sim_soc start with @prefix? */
static int soc_is(const char *prefix)
{
	const char *soc = aclrtGetSocName();

	return soc && !strncmp(soc, prefix, strlen(prefix));
}

HCCLT_EXPORT aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode)
{
	struct hcclt_stream *s;
	int32_t dev = cur_dev;
	uint64_t value;
	int fd, ret;

	/* CANN's default stream (NULL) cannot be set; then the context. */
	if (!stream)
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	if (dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	s = hcclt_stream_get(stream);
	if (!s)
		return ACL_ERROR_RT_INVALID_HANDLE;
	if (s->dev != dev)
		return ACL_ERROR_RT_STREAM_CONTEXT;
	fd = hcclt_device_fd_fast(s->dev);
	if (fd < 0)
		return ACL_ERROR_RT_INVALID_HANDLE;
	/* Only bit 0 counts, as in CANN's runtime. */
	value = (mode & ACL_STOP_ON_FAILURE) ? HCCLT_FAILURE_STOP : HCCLT_FAILURE_CONTINUE;
	ret = set_param(fd, s->id, HCCLT_PARAM_FAILURE_MODE, value);
	/* A2 and A3 stop every stream of the context with it (CANN). */
	if (!ret && value == HCCLT_FAILURE_STOP && soc_is("Ascend910"))
		ret = set_param(fd, 0, HCCLT_PARAM_FAILURE_MODE, HCCLT_FAILURE_STOP);
	return hcclt_map_errno(HCCLT_OP_SET_PARAM, ret);
}

/*
 * The process's aclrtFloatOverflowMode (ACL_RT_OVERFLOW_MODE_INFNAN by
 * default, as on A2, A3 and 950), which devices opened later take.
 */
static _Atomic int sat_mode = ACL_RT_OVERFLOW_MODE_INFNAN;

void hcclt_sat_device_opened(int dev, int fd)
{
	(void)dev;
	if (atomic_load(&sat_mode) == ACL_RT_OVERFLOW_MODE_SATURATION)
		set_param(fd, 0, HCCLT_PARAM_SATURATION, HCCLT_SATURATION_ON);
}

HCCLT_EXPORT aclError aclrtSetDeviceSatMode(aclrtFloatOverflowMode mode)
{
	int32_t dev = cur_dev;
	int fd, ret;

	if ((int)mode < ACL_RT_OVERFLOW_MODE_SATURATION ||
	    (int)mode >= ACL_RT_OVERFLOW_MODE_UNDEF)
		return ACL_ERROR_RT_PARAM_INVALID;
	/* Ascend 950 has only the Inf/NaN mode (CANN). */
	if (mode == ACL_RT_OVERFLOW_MODE_SATURATION && soc_is("Ascend950"))
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	/* The current device's, if any, then the process's. */
	if (dev >= 0) {
		fd = hcclt_device_open(dev);
		if (fd < 0)
			return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd);
		ret = set_param(fd, 0, HCCLT_PARAM_SATURATION,
				mode == ACL_RT_OVERFLOW_MODE_SATURATION ?
				HCCLT_SATURATION_ON : HCCLT_SATURATION_OFF);
		/* A driver before 1.8 has only IEEE results. */
		if (ret && mode == ACL_RT_OVERFLOW_MODE_SATURATION)
			return hcclt_map_errno(HCCLT_OP_SET_PARAM, ret);
	}
	atomic_store(&sat_mode, (int)mode);
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclrtGetDeviceSatMode(aclrtFloatOverflowMode *mode)
{
	if (!mode)
		return ACL_ERROR_INVALID_PARAM;
	*mode = (aclrtFloatOverflowMode)atomic_load(&sat_mode);
	return ACL_SUCCESS;
}

/* aclInit() calls not undone by aclFinalize() (CANN: a refcount). */
static pthread_mutex_t init_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int init_count;

HCCLT_EXPORT aclError aclInit(const char *configPath)
{
	aclError ret = ACL_SUCCESS;
	FILE *f;

	if (configPath) {
		f = fopen(configPath, "re");
		if (!f)
			return ACL_ERROR_INVALID_FILE;
		fclose(f);
	}
	pthread_mutex_lock(&init_lock);
	if (init_count++)
		ret = ACL_ERROR_REPEAT_INITIALIZE;
	pthread_mutex_unlock(&init_lock);
	return ret;
}

HCCLT_EXPORT aclError aclFinalize(void)
{
	aclError ret = ACL_SUCCESS;

	pthread_mutex_lock(&init_lock);
	if (!init_count)
		ret = ACL_ERROR_REPEAT_FINALIZE;
	init_count = 0;
	pthread_mutex_unlock(&init_lock);
	return ret;
}

HCCLT_EXPORT aclError aclrtGetDeviceCount(uint32_t *count)
{
	int n;

	if (!count)
		return ACL_ERROR_INVALID_PARAM;
	n = hcclt_device_count();
	if (!n)
		return ACL_ERROR_RT_NO_DEVICE;
	*count = (uint32_t)n;
	return ACL_SUCCESS;
}

/* The driver's sim_soc parameter, read once. */
static pthread_once_t soc_once = PTHREAD_ONCE_INIT;
static char soc_name[64];

static void soc_read(void)
{
	const char *path = getenv("HCCLT_SOC_PARAM");
	FILE *f;
	size_t n;

	if (!path || !*path)
		path = "/sys/module/hcclthread/parameters/sim_soc";
	f = fopen(path, "re");
	if (!f)
		return;
	n = fread(soc_name, 1, sizeof(soc_name) - 1, f);
	fclose(f);
	soc_name[n] = '\0';
	soc_name[strcspn(soc_name, "\n")] = '\0';
}

HCCLT_EXPORT const char *aclrtGetSocName(void)
{
	pthread_once(&soc_once, soc_read);
	return soc_name[0] ? soc_name : NULL;
}

HCCLT_EXPORT aclError aclrtGetStreamAvailableNum(uint32_t *streamCount)
{
	struct drm_hcclt_query q;
	int32_t dev = cur_dev;
	int fd, ret;

	if (!streamCount)
		return ACL_ERROR_INVALID_PARAM;
	if (dev < 0)
		return ACL_ERROR_RT_CONTEXT_NULL;
	fd = hcclt_device_open(dev);
	if (fd < 0)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, fd);
	memset(&q, 0, sizeof(q));
	ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_QUERY, &q);
	if (ret)
		return hcclt_map_errno(HCCLT_OP_DEVICE_ACL, ret);
	*streamCount = q.streams_total > q.streams_used ?
		       q.streams_total - q.streams_used : 0;
	return ACL_SUCCESS;
}
