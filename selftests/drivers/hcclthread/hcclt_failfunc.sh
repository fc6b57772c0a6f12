#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection into the driver's own failure points: fail_function makes
# the functions below return their real failure errno for a share of the
# calls of hcclt_fuzz's ioctl-issuing threads (task-filter plus
# /proc/thread-self/make-it-fail), so that the error paths behind a full id
# table, an exhausted pool and a backend out of slots run, not only those
# behind a failed allocation (hcclt_failslab.sh). The fuzzer fails on an
# errno outside the documented set and on device pools not back at their
# initial values; this script fails when nothing was injected. Leaks are
# for kmemleak (the VM runner's post-unload scan).
#
# Needs root, debugfs, CONFIG_FAIL_FUNCTION and CONFIG_KPROBES_ON_FTRACE
# (the debug kernels); skips otherwise.
# env: HCCLT_FAILFUNC_PROBABILITY (percent, default 5),
#      HCCLT_FAILFUNC_CALLS (default 20000), HCCLT_FUZZ_SEED.
#
# POSIX sh (runs under busybox).

F=/sys/kernel/debug/fail_function
KNOBS="probability interval times space verbose task-filter"
. "$(dirname "$0")/hcclt_fault_lib.sh"
# function:errno it returns when it really fails, as the 64-bit hex that
# the retval file takes (-ENOMEM, -ENOSPC)
ENOMEM=0xfffffffffffffff4
ENOSPC=0xffffffffffffffe4
FUNCS="hcclt_id_reserve:$ENOMEM hcclt_pool_reserve:$ENOSPC
hcclt_sim_stream_slot_alloc:$ENOSPC hcclt_sim_notify_slot_alloc:$ENOSPC"

clear_inject() { echo > $F/inject; }

fault_require "CONFIG_FAIL_FUNCTION"
FAULT_UNDO=clear_inject
fault_save
for fr in $FUNCS; do
	fn=${fr%%:*}
	if ! echo "$fn" > $F/inject 2>/dev/null; then
		echo "# $fn cannot be injected (not in the module's error-injection list?)"
		exit 1
	fi
	echo "${fr#*:}" > "$F/$fn/retval"
	got=$(cat "$F/$fn/retval")
	case $got in 0x*) ;; *) got=0x$got ;; esac
	if [ "$((got))" != "$((${fr#*:}))" ]; then
		echo "# $fn: retval reads back $got, not ${fr#*:}"
		exit 1
	fi
done
# The task filter needs the kprobe handler to run in the task's context,
# which it does when the kprobe sits on ftrace (CONFIG_KPROBES_ON_FTRACE);
# an int3-based kprobe runs it in NMI context, where no task matches.
for fr in $FUNCS; do
	fn=${fr%%:*}
	grep -q " $fn+0x0.*\[FTRACE\]" /sys/kernel/debug/kprobes/list ||
		skip "kprobe on $fn is not ftrace-based (CONFIG_KPROBES_ON_FTRACE)"
done
echo "# injecting into: $(tr '\n' ' ' < $F/inject)"
fault_run fail_function "${HCCLT_FAILFUNC_PROBABILITY:-5}" \
	"${HCCLT_FAILFUNC_CALLS:-20000}"
