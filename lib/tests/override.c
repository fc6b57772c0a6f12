// SPDX-License-Identifier: MIT
/*
 * A custom operator replaces one of libhccl.so's collectives by defining
 * it (as a CANN custom operator library does): the program's
 * HcclAllGather is the one called, every other collective is still
 * libhccl's. Host test, no device needed: where each symbol was bound is
 * asked of the dynamic linker.
 */
#include <dlfcn.h>
#include <string.h>

#include "hccl/hccl.h"
#include "tap.h"

static int called;

HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType,
			 HcclComm comm, aclrtStream stream)
{
	(void)sendBuf;
	(void)recvBuf;
	(void)sendCount;
	(void)dataType;
	(void)comm;
	(void)stream;
	called++;
	return HCCL_E_AGAIN;
}

/* The object that holds @fn, by its file name's last component. */
static const char *home(void *fn)
{
	Dl_info info;
	const char *slash;

	if (!dladdr(fn, &info) || !info.dli_fname)
		return "?";
	slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

int main(void)
{
	char b[8];

	tap_ok(HcclAllGather(b, b, 1, HCCL_DATA_TYPE_INT8, NULL, NULL) == HCCL_E_AGAIN &&
	       called == 1, "the program's own HcclAllGather is called");
	tap_ok(strcmp(home((void *)HcclAllGather), "libhccl.so") != 0,
	       "HcclAllGather is bound to the program, not libhccl.so (%s)",
	       home((void *)HcclAllGather));
	tap_ok(!strcmp(home((void *)HcclAllReduce), "libhccl.so"),
	       "HcclAllReduce is still libhccl.so's (%s)", home((void *)HcclAllReduce));
	tap_ok(!strcmp(home((void *)HcclBroadcast), "libhccl.so"),
	       "HcclBroadcast is still libhccl.so's (%s)", home((void *)HcclBroadcast));
	tap_ok(HcclAllReduce(b, b, 1, HCCL_DATA_TYPE_INT8, HCCL_REDUCE_SUM, NULL, NULL) ==
	       HCCL_E_PTR, "libhccl's HcclAllReduce answers (NULL communicator -> HCCL_E_PTR)");
	tap_ok(!strcmp(home((void *)HcclGetRankId), "libhcclthread.so.1"),
	       "the communicator calls stay libhcclthread's (%s)", home((void *)HcclGetRankId));
	return tap_done();
}
