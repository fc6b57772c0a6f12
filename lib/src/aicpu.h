/* SPDX-License-Identifier: MIT */
/*
 * The simulated AI CPU: what the application's library (aicpu.c) and an
 * AI CPU core process (aicpu_core.c, run by hcclt-aicpu) say to each
 * other. Not installed; both ends are this library, of one build.
 *
 * A core is started with these descriptors: the application's device
 * file (the same open file: every id of the application is valid there),
 * a pipe it reads commands from, a pipe it writes replies to, and a memfd
 * page both map (the idle epoch, idle.c). Its arguments: "--aicpu-core",
 * the device index, the application's fork generation, this protocol's
 * version and the application's pid.
 */
#ifndef HCCLT_AICPU_H_
#define HCCLT_AICPU_H_

#include <stdint.h>

#define AICPU_PROTO		1
#define AICPU_FD_DEV		3
#define AICPU_FD_CMD		4
#define AICPU_FD_REPLY		5
#define AICPU_FD_SHARED		6

#define AICPU_CMD_MAGIC		0x41435055U	/* "ACPU" */

/* Longest kernel shared object path and symbol a command carries. */
#define AICPU_PATH_MAX		4096
#define AICPU_SYM_MAX		1024
/* Most device mappings one command carries. */
#define AICPU_MAPS_MAX		65536
/* Most bytes of placeholders (the argument block's limit, 64 KiB, each). */
#define AICPU_HOLDERS_MAX	(64u << 20)
/* Most bytes of communicator names. */
#define AICPU_NAMES_MAX		(16u << 20)

/*
 * Run a launch: followed by @so_len bytes of the kernel's shared object
 * path, @sym_len of its symbol (both NUL-terminated), @args_len of its
 * argument block, @holders_len of its placeholders (@nholders pairs of
 * uint64_t offset in the block and size, then their data, each at a
 * 16-byte boundary of the blob:
 * the core gives each a buffer of its own and puts its address at the
 * offset), @nmaps struct hcclt_aicpu_map, the device's mappings in
 * the application when the launch was handed over, and @names_len bytes
 * of its communicators' names on the device (NUL-terminated, back to
 * back), which HcommAcquireComm knows.
 */
struct aicpu_cmd {
	uint32_t magic;
	uint32_t blocks;
	uint64_t seqno;
	uint64_t handle;
	uint32_t so_len;
	uint32_t sym_len;
	uint32_t args_len;
	uint32_t nmaps;
	uint32_t nholders;
	uint32_t holders_len;
	uint32_t names_len;
	uint32_t flags;		/* AICPU_CMD_* */
};

/*
 * The mappings and names have not changed since the core's last command:
 * @nmaps and @names_len are zero and the core keeps what it has.
 */
#define AICPU_CMD_SAME_STATE	0x1
/*
 * No launch: only take the mappings and names that follow (@seqno is the
 * state's generation), and reply SYNCED with it.
 */
#define AICPU_CMD_SYNC		0x2

/* Reply types. */
#define AICPU_REPLY_DONE	1	/* the launch is answered (KERNEL_DONE) */
#define AICPU_REPLY_FAULT	2	/* a signal in the kernel: the core dies */
#define AICPU_REPLY_ERROR	3	/* the launch could not run: @msg */
#define AICPU_REPLY_SYNCED	4	/* took state @seqno (AICPU_CMD_SYNC) */

/* One write() each, below PIPE_BUF: never torn. */
struct aicpu_reply {
	uint32_t type;
	int32_t status;		/* DONE: the kernel's; FAULT: the signal */
	int32_t code;		/* FAULT: si_code */
	uint32_t pad;
	uint64_t seqno;
	uint64_t addr;		/* FAULT: si_addr */
	char msg[128];		/* ERROR: why, NUL-terminated */
};

/*
 * The status KERNEL_DONE gets for a launch that did not return (a fault,
 * an exit, a mapping the core could not make): any non-zero status fails
 * the stream as an AICPU exception.
 */
#define AICPU_STATUS_EXCEPTION	0x7fffffff

#endif /* HCCLT_AICPU_H_ */
