/* SPDX-License-Identifier: MIT */
/*
 * hccl/hccl_comm.h - communicators: rendezvous of ranks on one host, their
 * ids and names, destruction. Same include guard, names and signatures as
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
