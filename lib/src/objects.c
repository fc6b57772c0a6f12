// SPDX-License-Identifier: MIT
/*
 * Handle encoding, validation of library objects, and the INFO helper.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

ThreadHandle hcclt_handle_make(int dev, uint64_t id)
{
	uint64_t gen = hcclt_gen() & 0xf;

	return (id & HCCLT_HANDLE_ID_MASK) |
	       ((uint64_t)dev << HCCLT_HANDLE_DEV_SHIFT) |
	       (gen << HCCLT_HANDLE_GEN_SHIFT);
}

/*
 * Splits @h into device and kernel id. Returns 0, or -1 when @h cannot be a
 * thread handle of this process: 0, another fork generation, a device index
 * out of range or an id that is not of the thread kind.
 */
int hcclt_handle_parse(ThreadHandle h, int *dev, uint64_t *id)
{
	uint64_t kid = h & HCCLT_HANDLE_ID_MASK;
	int d = (int)((h >> HCCLT_HANDLE_DEV_SHIFT) & 0xf);

	if (!kid)
		return -1;
	if ((h >> HCCLT_HANDLE_GEN_SHIFT) != (hcclt_gen() & 0xf)) {
		hcclt_debug("thread handle 0x%llx is from another process "
			    "(used after fork?)", (unsigned long long)h);
		return -1;
	}
	if (((kid >> HCCLT_ID_KIND_SHIFT) & 0xff) != HCCLT_ID_KIND_THREAD)
		return -1;
	*dev = d;
	*id = kid;
	return 0;
}

struct hcclt_comm *hcclt_comm_get(HcclComm comm)
{
	struct hcclt_comm *c = comm;

	if (!c || c->magic != HCCLT_COMM_MAGIC)
		return NULL;
	if (c->gen != hcclt_gen()) {
		hcclt_debug("communicator %p belongs to the parent process "
			    "(used after fork)", comm);
		return NULL;
	}
	return c;
}

struct hcclt_stream *hcclt_stream_get(aclrtStream stream)
{
	struct hcclt_stream *s = stream;

	if (!s || s->magic != HCCLT_STREAM_MAGIC)
		return NULL;
	if (s->gen != hcclt_gen()) {
		hcclt_debug("stream %p belongs to the parent process "
			    "(used after fork)", stream);
		return NULL;
	}
	return s;
}

/*
 * Lists the communicators and threads of the file @fd. On success the
 * caller frees *@comms and *@threads. Returns 0 or -errno.
 */
int hcclt_info_fetch(int fd, struct drm_hcclt_comm_info **comms, uint32_t *ncomms,
		     struct drm_hcclt_thread_info **threads, uint32_t *nthreads)
{
	struct drm_hcclt_comm_info *c = NULL;
	struct drm_hcclt_thread_info *t = NULL;
	struct drm_hcclt_info info;
	uint32_t cc = 0, tc = 0;
	int tries, ret;

	for (tries = 0; tries < 8; tries++) {
		memset(&info, 0, sizeof(info));
		info.scope = HCCLT_INFO_SCOPE_FILE;
		info.comm_count = cc;
		info.thread_count = tc;
		info.comms_ptr = (uintptr_t)c;
		info.threads_ptr = (uintptr_t)t;
		ret = hcclt_ioctl(fd, DRM_IOCTL_HCCLT_INFO, &info);
		if (ret)
			break;
		if (info.comm_count <= cc && info.thread_count <= tc) {
			*comms = c;
			*ncomms = info.comm_count;
			*threads = t;
			*nthreads = info.thread_count;
			return 0;
		}
		free(c);
		free(t);
		cc = info.comm_count + 8;
		tc = info.thread_count + 32;
		c = calloc(cc, sizeof(*c));
		t = calloc(tc, sizeof(*t));
		if (!c || !t) {
			ret = -ENOMEM;
			break;
		}
	}
	if (!ret)
		ret = -EAGAIN;
	free(c);
	free(t);
	return ret;
}

/* Info of thread @id of file @fd: 0, -ENOENT or another -errno. */
int hcclt_info_find_thread(int fd, uint64_t id, struct drm_hcclt_thread_info *out)
{
	struct drm_hcclt_comm_info *c;
	struct drm_hcclt_thread_info *t;
	uint32_t nc, nt, i;
	int ret;

	ret = hcclt_info_fetch(fd, &c, &nc, &t, &nt);
	if (ret)
		return ret;
	ret = -ENOENT;
	for (i = 0; i < nt; i++) {
		if (t[i].thread_id == id) {
			*out = t[i];
			ret = 0;
			break;
		}
	}
	free(c);
	free(t);
	return ret;
}
