/* SPDX-License-Identifier: MIT */
/* Printing helpers shared by the seed examples (not part of the API). */
#ifndef HCCLT_EXAMPLE_UTIL_H_
#define HCCLT_EXAMPLE_UTIL_H_

#include <stdio.h>
#include <stdlib.h>

#include "hccl/hccl.h"
#include "hcclthread.h"

static inline const char *engine_name(CommEngine e)
{
	static const char *const n[] = { "CPU", "CPU_TS", "AICPU", "AICPU_TS", "AIV", "CCU" };

	return (int)e >= 0 && (int)e < 6 ? n[e] : "?";
}

/* Exits with a message when an HCCL call fails. */
static inline void hccl_check(HcclResult ret, const char *what)
{
	if (ret != HCCL_SUCCESS) {
		fprintf(stderr, "%s failed: %d (%s)\n", what, (int)ret, HcclGetErrorString(ret));
		exit(ret == HCCL_E_DRV ? 4 : 1);
	}
}

static inline void acl_check(aclError ret, const char *what)
{
	if (ret != ACL_SUCCESS) {
		fprintf(stderr, "%s failed: %d (%s)\n", what, ret, hccltAclErrorString(ret));
		exit(ret == ACL_ERROR_RT_NO_DEVICE ? 4 : 1);
	}
}

static inline void print_device(int32_t dev)
{
	hccltDeviceUsage u;

	if (hccltGetDeviceUsage(dev, &u) != ACL_SUCCESS) {
		printf("  device %d: cannot query\n", (int)dev);
		return;
	}
	printf("  device %d (%s): %u of %u streams and %u of %u notifies in use, "
	       "%u communicator(s), %u open file(s)\n", (int)dev, u.node,
	       u.streamsUsed, u.streamsTotal, u.notifiesUsed, u.notifiesTotal, u.comms, u.files);
}

static inline void print_comm(HcclComm comm)
{
	hccltCommUsage u;

	if (hccltCommGetUsage(comm, &u) != HCCL_SUCCESS) {
		printf("  communicator: cannot query\n");
		return;
	}
	printf("  communicator: %u of %u threads and %u of %u notifies used "
	       "(%u thread(s) incl. wrapped streams, %u exported handle(s))\n",
	       u.threadsUsed, u.threadsMax, u.notifiesUsed, u.notifiesMax,
	       u.threadCount, u.exportedCount);
}

static inline void print_thread(const char *name, ThreadHandle t)
{
	static const char *const st[] = { "idle", "running", "parked", "error" };
	hccltThreadInfo i;

	if (hccltThreadGetInfo(t, &i) != HCCL_SUCCESS) {
		printf("  %-20s 0x%016llx (cannot query)\n", name, (unsigned long long)t);
		return;
	}
	printf("  %-20s 0x%016llx  engine %-8s %u notify(ies), stream %s%s%s\n", name,
	       (unsigned long long)t, engine_name(i.engine), i.notifyNum,
	       (unsigned)i.state < 4 ? st[i.state] : "?",
	       i.wrapped ? ", wraps an aclrtStream" : "", i.exported ? ", exported view" : "");
}

#endif /* HCCLT_EXAMPLE_UTIL_H_ */
