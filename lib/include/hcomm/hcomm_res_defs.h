/* SPDX-License-Identifier: MIT */
/*
 * hcomm/hcomm_res_defs.h - the types of channels and endpoints, as CANN
 * defines them (names, values, sizes: 496-byte HcclChannelDesc). Types only:
 * the channel calls come with their implementation in a later libhcclthread.
 * Included by hccl/hccl_res.h (CANN's March 2026 layout kept these types
 * there) and by the top-level hcomm_res_defs.h (CANN's current layout).
 */
#ifndef HCOMM_RES_DEFS_H
#define HCOMM_RES_DEFS_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef CHANNEL_HANDLE_DEFINED
#define CHANNEL_HANDLE_DEFINED
/** ChannelHandle - a channel between two ranks (opaque 64-bit value). */
typedef uint64_t ChannelHandle;
#endif

/** HcclMemHandle - registered memory (opaque pointer). */
typedef void *HcclMemHandle;

/** CommProtocol - link protocol of a channel (both CANN generations). */
typedef enum {
	COMM_PROTOCOL_RESERVED = -1,
	COMM_PROTOCOL_HCCS = 0,
	COMM_PROTOCOL_ROCE = 1,
	COMM_PROTOCOL_PCIE = 2,
	COMM_PROTOCOL_SIO = 3,
	COMM_PROTOCOL_UBC_CTP = 4,
	COMM_PROTOCOL_UB_CTP = 4,	/* later name of UBC_CTP */
	COMM_PROTOCOL_UBC_TP = 5,
	COMM_PROTOCOL_UB_MEM = 6,
	COMM_PROTOCOL_UBOE = 7,
	COMM_PROTOCOL_HCCS_ONLY = 8,
	COMM_PROTOCOL_UB_RTP = 9,
	COMM_PROTOCOL_UBG = 9		/* alias of UB_RTP */
} CommProtocol;

/** CommAbiHeader - versioned header of CANN's ABI structs (16 bytes). */
typedef struct {
	uint32_t version;
	uint32_t magicWord;
	uint32_t size;
	uint32_t reserved;
} CommAbiHeader;

/** CommAddrType - kind of a CommAddr. */
typedef enum {
	COMM_ADDR_TYPE_RESERVED = -1,
	COMM_ADDR_TYPE_IP_V4 = 0,
	COMM_ADDR_TYPE_IP_V6 = 1,
	COMM_ADDR_TYPE_ID = 2,
	COMM_ADDR_TYPE_EID = 3
} CommAddrType;

#define COMM_ADDR_EID_LEN 16

/** CommAddr - an address (40 bytes). */
typedef struct {
	CommAddrType type;
	union {
		uint8_t raws[36];
		struct in_addr addr;
		struct in6_addr addr6;
		uint32_t id;
		uint8_t eid[COMM_ADDR_EID_LEN];
	};
} CommAddr;

/** EndpointLocType - where an endpoint is. */
typedef enum {
	ENDPOINT_LOC_TYPE_RESERVED = -1,
	ENDPOINT_LOC_TYPE_DEVICE = 0,
	ENDPOINT_LOC_TYPE_HOST = 1
} EndpointLocType;

/** EndpointLoc - location of an endpoint (64 bytes). */
typedef struct {
	EndpointLocType locType;
	union {
		uint8_t raws[60];
		struct {
			uint32_t devPhyId;
			uint32_t superDevId;
			uint32_t serverIdx;
			uint32_t superPodIdx;
		} device;
		struct {
			uint32_t id;
		} host;
	};
} EndpointLoc;

/** EndpointDesc - one end of a link (160 bytes). */
typedef struct {
	CommProtocol protocol;
	CommAddr commAddr;
	EndpointLoc loc;
	uint8_t raws[52];
} EndpointDesc;

/*
 * CommMemType - where registered memory is (hcomm 8958adbf,
 * include/hcomm_res_defs.h:202-210).
 */
typedef enum {
	COMM_MEM_TYPE_INVALID = -1,
	COMM_MEM_TYPE_DEVICE = 0,
	COMM_MEM_TYPE_HOST = 1,
} CommMemType;

/** CommMem - a range of memory to register (hcomm :212-219; 24 bytes). */
typedef struct {
	CommMemType type;
	void *addr;
	uint64_t size;
} CommMem;

#define HCCL_CHANNEL_DESC_VERSION	1
#define HCCL_CHANNEL_DESC_MAGIC_WORD	0x0f0f0f0fU

/** HcclChannelDesc - what a channel is asked for (496 bytes). */
typedef struct {
	CommAbiHeader header;
	uint32_t remoteRank;
	CommProtocol channelProtocol;
	EndpointDesc localEndpoint;
	EndpointDesc remoteEndpoint;
	uint32_t notifyNum;
	HcclMemHandle *memHandles;
	uint32_t memHandleNum;
	union {
		uint8_t raws[128];
		struct {
			uint32_t queueNum;
			uint32_t retryCnt;
			uint32_t retryInterval;
			uint8_t tc;
			uint8_t sl;
		} roceAttr;
	};
} HcclChannelDesc;

#if defined(__cplusplus) && __cplusplus >= 201103L
#define HCOMM_RES_DEFS_ASSERT(c, m) static_assert(c, m)
#elif !defined(__cplusplus)
#define HCOMM_RES_DEFS_ASSERT(c, m) _Static_assert(c, m)
#endif
#ifdef HCOMM_RES_DEFS_ASSERT
HCOMM_RES_DEFS_ASSERT(sizeof(CommAddr) == 40, "CommAddr is CANN's size");
HCOMM_RES_DEFS_ASSERT(sizeof(CommMem) == 24, "CommMem is CANN's size");
HCOMM_RES_DEFS_ASSERT(sizeof(EndpointLoc) == 64, "EndpointLoc is CANN's size");
HCOMM_RES_DEFS_ASSERT(sizeof(EndpointDesc) == 160, "EndpointDesc is CANN's size");
HCOMM_RES_DEFS_ASSERT(sizeof(HcclChannelDesc) == 496, "HcclChannelDesc is CANN's size");
HCOMM_RES_DEFS_ASSERT(offsetof(HcclChannelDesc, notifyNum) == 344, "CANN's layout");
HCOMM_RES_DEFS_ASSERT(offsetof(HcclChannelDesc, memHandles) == 352, "CANN's layout");
HCOMM_RES_DEFS_ASSERT(offsetof(HcclChannelDesc, memHandleNum) == 360, "CANN's layout");
HCOMM_RES_DEFS_ASSERT(offsetof(HcclChannelDesc, roceAttr) == 364, "CANN's layout");
#undef HCOMM_RES_DEFS_ASSERT
#endif

#ifdef __cplusplus
}
#endif

#endif /* HCOMM_RES_DEFS_H */
