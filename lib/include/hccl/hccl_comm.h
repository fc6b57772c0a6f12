/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_comm.h - communicators: rendezvous of ranks on one host (root
 * info or rank table), their ids and names, destruction, memory
 * registration. Same include guard, names and signatures as
 * CANN's hccl_comm.h, for the calls libhcclthread implements (CANN declares
 * more; every function declared here is exported by libhcclthread, which
 * lib/Makefile check-symbols verifies).
 */
#ifndef HCCL_COMM_H_
#define HCCL_COMM_H_

#include <stddef.h>
#include <stdint.h>
#include "hccl/hccl_types.h"
#include "acl/acl.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * HcclGetRootInfo() - create a group for a new multi-rank communicator.
 * @rootInfo: out, the root info to give every rank (through memory, a
 *	file, a pipe, a socket). It carries the group's secret key: whoever
 *	has it can join the group.
 *
 * Needs a current device (aclrtSetDevice()). The group waits for its ranks
 * while this process keeps the device open (until it exits).
 *
 * Return: HCCL_SUCCESS; HCCL_E_RUNTIME (no current device); HCCL_E_PTR
 * (@rootInfo NULL); HCCL_E_UNAVAIL (256 groups of this process wait for
 * their ranks); HCCL_E_MEMORY; HCCL_E_DRV.
 */
HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);

/**
 * HcclCommInitRootInfo() - join a multi-rank communicator as rank @rank.
 * @nRanks: number of ranks, 1 to 16; the same on every rank.
 * @rootInfo: the root info of HcclGetRootInfo().
 * @rank: this rank, below @nRanks.
 * @comm: out, the communicator, on the calling thread's current device.
 *
 * Blocks until all @nRanks ranks have joined (threads of this process or
 * other processes), for at most HCCL_CONNECT_TIMEOUT seconds (environment,
 * default 120). One rank of a communicator per device.
 *
 * Return: HCCL_SUCCESS; HCCL_E_RUNTIME (no current device); HCCL_E_PARA
 * (@nRanks 0 or above 16, @rank >= @nRanks, HCCL_CONNECT_TIMEOUT not a
 * number of seconds, a root info that is not one or of a group that no
 * longer exists, a different @nRanks than the other ranks, @rank already
 * joined, another rank on this device, the group already complete);
 * HCCL_E_PTR (@comm or @rootInfo NULL); HCCL_E_TIMEOUT (not every rank
 * joined in time: the others fail too); HCCL_E_TCP_CONNECT (another rank
 * gave up or died while this one waited, or the process of
 * HcclGetRootInfo() exited first); HCCL_E_MEMORY; HCCL_E_DRV.
 */
HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo,
				uint32_t rank, HcclComm *comm);

/**
 * HcclCommInitRootInfoConfig() - HcclCommInitRootInfo() with options.
 * @nRanks: as HcclCommInitRootInfo().
 * @rootInfo: as HcclCommInitRootInfo().
 * @rank: as HcclCommInitRootInfo().
 * @config: options made by HcclCommConfigInit(): hcclBufferSize (MB, at
 *	least 1) and hcclCommName (the communicator's name instead of the
 *	group's) are used.
 * @comm: as HcclCommInitRootInfo().
 *
 * Return: as HcclCommInitRootInfo(), and HCCL_E_PARA for @config NULL, a
 * wrong magic word, hcclBufferSize 0, aclGraphZeroCopyEnable above 1.
 */
HcclResult HcclCommInitRootInfoConfig(uint32_t nRanks, const HcclRootInfo *rootInfo,
				      uint32_t rank, const HcclCommConfig *config,
				      HcclComm *comm);

/**
 * HcclCommInitClusterInfo() - join a multi-rank communicator described by
 * a rank table.
 * @clusterInfo: path of the rank table, a JSON file (CANN's format,
 *	"version" "1.0" or "1.2", "status" "completed"; the path at most
 *	4,095 bytes and ending in ".json"). Every rank reads the same file.
 * @rank: this rank: the "rank_id" of one "device" entry of the table.
 * @comm: out, the communicator, named "hccl_world_group".
 *
 * Needs a current device (aclrtSetDevice()): the "device_id" the table
 * gives @rank. Every rank (a thread of this process or another process)
 * calls it with its own rank; the ranks find each other through the
 * table's content (its SHA-256), no root info is passed around: rank 0
 * creates the group and hands its key, over an abstract unix socket named
 * after the content and the user, to the other ranks of the same user.
 * Blocks until every rank of the table has joined, for at most
 * HCCL_CONNECT_TIMEOUT seconds (also the limit for a table whose "status"
 * is not yet "completed", which is read again every second). One server
 * only: the table's ranks are cards of this machine. One such
 * communicator per device and process at a time (as CANN's world group).
 *
 * Return: HCCL_SUCCESS; HCCL_E_RUNTIME (no current device); HCCL_E_PTR
 * (@clusterInfo or @comm NULL); HCCL_E_PARA (HCCL_CONNECT_TIMEOUT or
 * HCCL_BUFFSIZE not a number; a communicator of that name on this device;
 * a malformed table: Documentation/channels.rst, "Rank tables"; @rank not
 * in it; ranks not 0..n-1; a "device_id" that is not a card here, or twice
 * on the server; the group's rank 0 already busy with the same table);
 * HCCL_E_INTERNAL (the file cannot be read, is not JSON or not a ".json"
 * path, or its "status" stayed other than "completed"); HCCL_E_NOT_FOUND
 * (a required key missing, as CANN); HCCL_E_NOT_SUPPORT (a "version" other
 * than "1.0" and "1.2", or more than one server: not yet); HCCL_E_UNAVAIL
 * (a communicator of a rank table already on this device in this process;
 * the table's "rank_id" at @rank's place is not @rank; the table gives
 * @rank another device than the current one); HCCL_E_TIMEOUT (not every
 * rank joined in time); HCCL_E_TCP_CONNECT (a rank gave up or died while
 * this one waited); HCCL_E_MEMORY; HCCL_E_DRV.
 */
HcclResult HcclCommInitClusterInfo(const char *clusterInfo, uint32_t rank, HcclComm *comm);

/**
 * HcclCommInitClusterInfoConfig() - HcclCommInitClusterInfo() with options.
 * @clusterInfo: as HcclCommInitClusterInfo().
 * @rank: as HcclCommInitClusterInfo().
 * @config: options made by HcclCommConfigInit(), as for
 *	HcclCommInitRootInfoConfig(): hcclBufferSize and hcclCommName (the
 *	name instead of "hccl_world_group") are used.
 * @comm: as HcclCommInitClusterInfo().
 *
 * Return: as HcclCommInitClusterInfo(), and HCCL_E_PTR for @config NULL
 * (after @comm), HCCL_E_PARA for a config CANN refuses (wrong magic word,
 * hcclBufferSize 0, hcclDeterministic above 2 or 2 on another SoC than an
 * A2's, aclGraphZeroCopyEnable above 1, a name of 128 bytes).
 */
HcclResult HcclCommInitClusterInfoConfig(const char *clusterInfo, uint32_t rank,
					 HcclCommConfig *config, HcclComm *comm);

/**
 * HcclGetCommConfigCapability() - which HcclCommConfig options this
 * library honours.
 *
 * Return: HCCL_COMM_CONFIG_OP_EXPANSION_MODE (3): hcclBufferSize,
 * hcclDeterministic and hcclCommName are supported (an option is when the
 * number is greater than its HcclCommConfigCapability value); the later
 * fields are accepted and kept but change nothing. CANN returns
 * HCCL_COMM_CONFIG_RESERVED.
 */
uint32_t HcclGetCommConfigCapability(void);

/**
 * HcclCommActivateCommMemory() - register device memory with a
 * communicator (CANN: for zero-copy collectives on it).
 * @comm: the communicator.
 * @virPtr: start of the range: device memory of @comm's device from
 *	aclrtMalloc() of this process (libhcclthread has no aclrtMapMem()).
 * @size: bytes, at least 1; the range lies inside one allocation.
 * @offset: 0 (CANN: "reserved, only 0").
 * @handle: not NULL (CANN's check); not otherwise used: libhcclthread
 *	has no aclrtMallocPhysical(), the memory is named by its address.
 * @flags: 0 (CANN: "reserved, only 0").
 *
 * Records the range with @comm (hccltCommListCommMemory() lists it) until
 * HcclCommDeactivateCommMemory(), HcclCommDestroy() of @comm or aclrtFree()
 * of the memory. That is all it does here: no peer maps it (there is no
 * zero-copy collective to use it; peers reach this rank's HCCL buffer
 * through channels), and no HcclCommSetMemoryRange() is needed first.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm, @virPtr or @handle NULL, @comm
 * not live); HCCL_E_PARA (@size 0, @offset or @flags not 0, the range is
 * not inside one aclrtMalloc() allocation of @comm's device, or overlaps a
 * range activated on @comm); HCCL_E_MEMORY.
 */
HcclResult HcclCommActivateCommMemory(HcclComm comm, void *virPtr, size_t size, size_t offset,
				      aclrtDrvMemHandle handle, uint64_t flags);

/**
 * HcclCommDeactivateCommMemory() - undo HcclCommActivateCommMemory().
 * @comm: the communicator.
 * @virPtr: the start of an activated range (a whole range only, as CANN).
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm or @virPtr NULL, @comm not
 * live); HCCL_E_PARA (@virPtr does not start a range activated on @comm).
 */
HcclResult HcclCommDeactivateCommMemory(HcclComm comm, void *virPtr);

/**
 * HcclGetCommName() - name of a communicator.
 * @comm: the communicator.
 * @commName: out, at least 128 bytes: the NUL-terminated name.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm not a live communicator, or
 * @commName NULL).
 */
HcclResult HcclGetCommName(HcclComm comm, char *commName);

/**
 * HcclGetRankSize() - number of ranks of a communicator.
 * @comm: the communicator.
 * @rankSize: out.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm not live, @rankSize NULL).
 */
HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize);

/**
 * HcclGetRankId() - this rank's number in a communicator.
 * @comm: the communicator.
 * @rank: out.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PTR (@comm not live, @rank NULL).
 */
HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank);

/**
 * HcclCommDestroy() - destroy a communicator (this rank of it).
 * @comm: the communicator; NULL does nothing (as CANN).
 *
 * Frees every thread, exported handle and notify of @comm, and returns
 * their slots to the device pools. Tasks still queued on its threads are
 * cancelled (their synchronize returns ACL_ERROR_RT_STREAM_ABORT). Streams
 * made by aclrtCreateStream() survive.
 *
 * Return: HCCL_SUCCESS (also for NULL); HCCL_E_PTR (not a live
 * communicator, or one of the parent process after fork()).
 */
HcclResult HcclCommDestroy(HcclComm comm);

/**
 * HcclCommInitAll() - one communicator of @ndev ranks in this process, rank
 * i on devices[i].
 * @ndev: number of devices, at least 1.
 * @devices: @ndev distinct device indexes.
 * @comms: out, @ndev communicators; comms[i] is rank i, on devices[i].
 *
 * All or nothing: on error no communicator exists and every comms[i] is
 * NULL.
 *
 * Return: HCCL_SUCCESS; HCCL_E_PARA (@ndev 0, a device index out of range
 * or listed twice); HCCL_E_PTR (@devices or @comms NULL); HCCL_E_DRV (no
 * hcclthread device on the machine, or it cannot be opened; set
 * HCCLT_DEBUG=1 for a hint on stderr); HCCL_E_INTERNAL (a rank failed to
 * join, as CANN); HCCL_E_MEMORY.
 */
HcclResult HcclCommInitAll(uint32_t ndev, int32_t *devices, HcclComm *comms);

/**
 * HcclGetErrorString() - text of an HcclResult.
 * @code: the result.
 *
 * Return: a static string, never NULL: hcomm's text ("no error",
 * "parameter error", ...; "unknow error", hcomm's spelling, for
 * HCCL_E_RESERVED and numbers that are not HcclResult values).
 */
const char *HcclGetErrorString(HcclResult code);

/**
 * HcclCommConfigInit() - fill @config with its header and "not set" values
 * (inline, as CANN's).
 * @config: the options; NULL does nothing.
 */
static inline void HcclCommConfigInit(HcclCommConfig *config)
{
	/* The header in the first 24 bytes (CANN's layout). */
	typedef struct {
		size_t size;
		uint32_t magicWord;
		uint32_t version;
		uint64_t reserved;
	} configInfo_t;
	configInfo_t *info;

	if (config == NULL)
		return;
	info = (configInfo_t *)(void *)config;
	info->size = sizeof(HcclCommConfig);
	info->magicWord = HCCL_COMM_CONFIG_MAGIC_WORD;
	info->version = HCCL_COMM_CONFIG_VERSION;
	info->reserved = 0;
	config->hcclBufferSize = HCCL_COMM_BUFFSIZE_CONFIG_NOT_SET;
	config->hcclDeterministic = HCCL_COMM_DETERMINISTIC_CONFIG_NOT_SET;
	config->hcclCommName[0] = '\0';
	config->hcclUdi[0] = '\0';
	config->hcclOpExpansionMode = HCCL_COMM_DEFAULT_OP_EXPANSION_MODE;
	config->hcclRdmaTrafficClass = HCCL_COMM_TRAFFIC_CLASS_CONFIG_NOT_SET;
	config->hcclRdmaServiceLevel = HCCL_COMM_SERVICE_LEVEL_CONFIG_NOT_SET;
	config->hcclWorldRankID = 0;
	config->hcclJobID = 0;
	config->aclGraphZeroCopyEnable = 0;
	config->hcclExecTimeOut = HCCL_COMM_EXECTIMEOUT_CONFIG_NOT_SET;
	config->hcclAlgo[0] = '\0';
	config->hcclRetryEnable[0] = '\0';
	config->hcclRetryParams[0] = '\0';
	config->hcclBufferName[0] = '\0';
	config->hcclQos = 0xffffffffU;	/* not set */
	config->hcclSymWinMaxMemSizePerRank =
		HCCL_COMM_DEFAULT_SYM_WIN_MAX_MEM_SIZE_PER_RANK;
}

#ifdef __cplusplus
}
#endif

#endif /* HCCL_COMM_H_ */
