// SPDX-License-Identifier: MIT
/*
 * hcclt-aicpu: an AI CPU core of a simulated card. libhcclthread starts
 * it (lib/src/aicpu.c) and the core's work is the library's
 * (lib/src/aicpu_core.c), so that the kernels it loads call the same
 * library the application does, with this process's state.
 */
int hcclt_aicpu_main(int argc, char **argv);

int main(int argc, char **argv)
{
	return hcclt_aicpu_main(argc, argv);
}
