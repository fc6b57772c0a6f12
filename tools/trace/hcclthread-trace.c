// SPDX-License-Identifier: MIT
/* hcclthread-trace: see hcclt_trace.h and tools/trace/FORMAT. */
#include "hcclt_trace.h"

int main(int argc, char **argv)
{
	return hcclt_trace_main(argc, argv, "hcclthread-trace");
}
