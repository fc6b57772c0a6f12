/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hcclthread tracepoints (events/hcclthread/).
 *
 * Streams are named by device and stream slot (unique on the device while
 * the stream lives) plus the stream id of their file; notifies by the id of
 * the thread owning them, their index, and their slot. A record and the
 * wait it releases name the same notify, which is what a timeline tool
 * needs to draw an arrow from one to the other.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hcclthread

#if !defined(_HCCLT_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _HCCLT_TRACE_H_

#include <linux/tracepoint.h>

#include "hcclthread_accel.h"
#include "hcclt_drv.h"

TRACE_EVENT(hcclt_acquire,
	    TP_PROTO(u32 dev, u64 comm, u64 thread, u64 stream, u32 engine,
		     u32 notifies, u32 wrapped),
	    TP_ARGS(dev, comm, thread, stream, engine, notifies, wrapped),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u64, comm)
			     __field(u64, thread)
			     __field(u64, stream)
			     __field(u32, engine)
			     __field(u32, notifies)
			     __field(u32, wrapped)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->comm = comm;
			   __entry->thread = thread;
			   __entry->stream = stream;
			   __entry->engine = engine;
			   __entry->notifies = notifies;
			   __entry->wrapped = wrapped;),
	    TP_printk("dev=%u comm=0x%llx thread=0x%llx stream=0x%llx engine=%u notifies=%u wrapped=%u",
		      __entry->dev, __entry->comm, __entry->thread,
		      __entry->stream, __entry->engine, __entry->notifies,
		      __entry->wrapped)
);

TRACE_EVENT(hcclt_submit,
	    TP_PROTO(u32 dev, u32 slot, u64 stream, u64 handle, u64 first,
		     u32 count),
	    TP_ARGS(dev, slot, stream, handle, first, count),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, slot)
			     __field(u64, stream)
			     __field(u64, handle)
			     __field(u64, first)
			     __field(u32, count)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->slot = slot;
			   __entry->stream = stream;
			   __entry->handle = handle;
			   __entry->first = first;
			   __entry->count = count;),
	    TP_printk("dev=%u slot=%u stream=0x%llx handle=0x%llx first=%llu count=%u",
		      __entry->dev, __entry->slot, __entry->stream,
		      __entry->handle, __entry->first, __entry->count)
);

/* The task ops by value in the format file, for parsers of raw records. */
TRACE_DEFINE_ENUM(HCCLT_TASK_NOTIFY_RECORD);
TRACE_DEFINE_ENUM(HCCLT_TASK_NOTIFY_WAIT);
TRACE_DEFINE_ENUM(HCCLT_TASK_CHANNEL_RECORD);
TRACE_DEFINE_ENUM(HCCLT_TASK_CHANNEL_WAIT);
TRACE_DEFINE_ENUM(HCCLT_TASK_LOCAL_COPY);
TRACE_DEFINE_ENUM(HCCLT_TASK_WRITE);
TRACE_DEFINE_ENUM(HCCLT_TASK_READ);
TRACE_DEFINE_ENUM(HCCLT_TASK_KERNEL_LAUNCH);

#define hcclt_show_op(op)						\
	__print_symbolic(op,						\
			 { HCCLT_TASK_NOTIFY_RECORD, "record" },	\
			 { HCCLT_TASK_NOTIFY_WAIT, "wait" },		\
			 { HCCLT_TASK_CHANNEL_RECORD, "channel_record" }, \
			 { HCCLT_TASK_CHANNEL_WAIT, "channel_wait" },	\
			 { HCCLT_TASK_LOCAL_COPY, "local_copy" },	\
			 { HCCLT_TASK_WRITE, "write" },			\
			 { HCCLT_TASK_READ, "read" },			\
			 { HCCLT_TASK_LOCAL_REDUCE, "local_reduce" },	\
			 { HCCLT_TASK_WRITE_REDUCE, "write_reduce" },	\
			 { HCCLT_TASK_READ_REDUCE, "read_reduce" },	\
			 { HCCLT_TASK_KERNEL_LAUNCH, "kernel_launch" },	\
			 { HCCLT_TASK_EVENT_RECORD, "event_record" },	\
			 { HCCLT_TASK_EVENT_WAIT, "event_wait" },	\
			 { HCCLT_TASK_ACL_NOTIFY_RECORD, "acl_notify_record" }, \
			 { HCCLT_TASK_ACL_NOTIFY_WAIT, "acl_notify_wait" }, \
			 { HCCLT_TASK_EVENT_RESET, "event_reset" },	\
			 { HCCLT_TASK_IN_FENCES, "in_fences" })

/*
 * A task of stream @stream on device @dev. Its notify (records and waits)
 * is notify @idx of @owner (a thread or, for channel tasks, the receiving
 * side's channel), backend slot @nslot of device @ndev: the recording
 * stream's device for thread notifies, the peer rank's for a channel
 * record. (@ndev, @nslot, @owner, @idx) is the same in a record and in
 * the wait it releases, on whichever devices they run.
 */
DECLARE_EVENT_CLASS(hcclt_task,
		    TP_PROTO(u32 dev, u32 slot, u64 stream, u64 seqno, u32 op,
			     u64 owner, u32 idx, u32 nslot, u32 ndev, int err),
		    TP_ARGS(dev, slot, stream, seqno, op, owner, idx, nslot,
			    ndev, err),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(u32, slot)
				     __field(u64, stream)
				     __field(u64, seqno)
				     __field(u32, op)
				     __field(u64, owner)
				     __field(u32, idx)
				     __field(u32, nslot)
				     __field(u32, ndev)
				     __field(int, err)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->slot = slot;
				   __entry->stream = stream;
				   __entry->seqno = seqno;
				   __entry->op = op;
				   __entry->owner = owner;
				   __entry->idx = idx;
				   __entry->nslot = nslot;
				   __entry->ndev = ndev;
				   __entry->err = err;),
		    TP_printk("dev=%u slot=%u stream=0x%llx seqno=%llu op=%s notify_owner=0x%llx notify_idx=%u notify_slot=%u notify_dev=%u err=%d",
			      __entry->dev, __entry->slot, __entry->stream,
			      __entry->seqno,
			      hcclt_show_op(__entry->op),
			      __entry->owner, __entry->idx, __entry->nslot,
			      __entry->ndev, __entry->err)
);

DEFINE_EVENT(hcclt_task, hcclt_task_start,
	     TP_PROTO(u32 dev, u32 slot, u64 stream, u64 seqno, u32 op,
		      u64 owner, u32 idx, u32 nslot, u32 ndev, int err),
	     TP_ARGS(dev, slot, stream, seqno, op, owner, idx, nslot, ndev,
		     err)
);

DEFINE_EVENT(hcclt_task, hcclt_task_complete,
	     TP_PROTO(u32 dev, u32 slot, u64 stream, u64 seqno, u32 op,
		      u64 owner, u32 idx, u32 nslot, u32 ndev, int err),
	     TP_ARGS(dev, slot, stream, seqno, op, owner, idx, nslot, ndev,
		     err)
);

DEFINE_EVENT(hcclt_task, hcclt_wait_timeout,
	     TP_PROTO(u32 dev, u32 slot, u64 stream, u64 seqno, u32 op,
		      u64 owner, u32 idx, u32 nslot, u32 ndev, int err),
	     TP_ARGS(dev, slot, stream, seqno, op, owner, idx, nslot, ndev,
		     err)
);

/*
 * A channel record lands on the peer's device: notify @idx of channel
 * @chan (the receiving side's id) of rank @rank on device @dev is set by
 * @count records of rank @peer (more than one: made before this device
 * applied the first). The record's own task_complete on the recording
 * rank's device and the wait's task_complete here bracket the hand-off.
 */
TRACE_EVENT(hcclt_channel_record,
	    TP_PROTO(u32 dev, u64 chan, u32 idx, u32 rank, u32 peer,
		     u32 count),
	    TP_ARGS(dev, chan, idx, rank, peer, count),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u64, chan)
			     __field(u32, idx)
			     __field(u32, rank)
			     __field(u32, peer)
			     __field(u32, count)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->chan = chan;
			   __entry->idx = idx;
			   __entry->rank = rank;
			   __entry->peer = peer;
			   __entry->count = count;),
	    TP_printk("dev=%u chan=0x%llx idx=%u rank=%u peer=%u count=%u",
		      __entry->dev, __entry->chan, __entry->idx,
		      __entry->rank, __entry->peer, __entry->count)
);

/*
 * The copy engine finished a data task: @bytes moved for task @seqno of
 * stream @stream (between its task_start and task_complete).
 */
TRACE_EVENT(hcclt_copy,
	    TP_PROTO(u32 dev, u32 slot, u64 stream, u64 seqno, u32 op,
		     u64 bytes, int err),
	    TP_ARGS(dev, slot, stream, seqno, op, bytes, err),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, slot)
			     __field(u64, stream)
			     __field(u64, seqno)
			     __field(u32, op)
			     __field(u64, bytes)
			     __field(int, err)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->slot = slot;
			   __entry->stream = stream;
			   __entry->seqno = seqno;
			   __entry->op = op;
			   __entry->bytes = bytes;
			   __entry->err = err;),
	    TP_printk("dev=%u slot=%u stream=0x%llx seqno=%llu op=%s bytes=%llu err=%d",
		      __entry->dev, __entry->slot, __entry->stream,
		      __entry->seqno, hcclt_show_op(__entry->op),
		      __entry->bytes, __entry->err)
);

/*
 * DRM_IOCTL_HCCLT_OP_INFO: communicator @comm of device @dev entered
 * @phase (HCCLT_OP_PHASE_*) of its operator number @index, of type
 * @op_type, whose host thread runs on stream @stream (slot @slot; 0: none
 * named). @dur_ns: for a kernel or an issue report, the time since the
 * begin the caller gave (0: none). @tag and @kernel: the first bytes of
 * the algorithm tag and of the kernel name.
 */
TRACE_EVENT(hcclt_op,
	    TP_PROTO(u32 dev, u32 slot, u64 comm, u64 stream, u64 index,
		     u32 phase, u32 op_type, u64 dur_ns, const char *tag,
		     const char *kernel),
	    TP_ARGS(dev, slot, comm, stream, index, phase, op_type, dur_ns,
		    tag, kernel),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u32, slot)
			     __field(u64, comm)
			     __field(u64, stream)
			     __field(u64, index)
			     __field(u32, phase)
			     __field(u32, op_type)
			     __field(u64, dur_ns)
			     __array(char, tag, 64)
			     __array(char, kernel, 32)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->slot = slot;
			   __entry->comm = comm;
			   __entry->stream = stream;
			   __entry->index = index;
			   __entry->phase = phase;
			   __entry->op_type = op_type;
			   __entry->dur_ns = dur_ns;
			   strscpy(__entry->tag, tag, sizeof(__entry->tag));
			   strscpy(__entry->kernel, kernel,
				   sizeof(__entry->kernel));),
	    TP_printk("dev=%u slot=%u comm=0x%llx stream=0x%llx index=%llu phase=%u op_type=%u dur_ns=%llu tag=%s kernel=%s",
		      __entry->dev, __entry->slot, __entry->comm,
		      __entry->stream, __entry->index, __entry->phase,
		      __entry->op_type, __entry->dur_ns, __entry->tag,
		      __entry->kernel)
);

#endif /* _HCCLT_TRACE_H_ */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE hcclt_trace
#include <trace/define_trace.h>
