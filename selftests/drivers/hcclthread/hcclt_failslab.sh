#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection: run hcclt_fuzz with failslab failing a share of the
# kernel allocations made by its ioctl-issuing threads (task-filter plus
# /proc/thread-self/make-it-fail), so the driver's error paths run. The
# fuzzer then fails on any errno outside the documented set (-ENOMEM is
# documented for every ioctl) and on device pools not back at their initial
# values; this script fails when nothing was injected. 20,000 calls: a
# successful THREAD_EXPORT (which the fuzzer requires once) is rare under
# injection. Leaks are for
# kmemleak (the VM runner's post-unload scan).
#
# Needs root, debugfs and CONFIG_FAILSLAB + CONFIG_FAULT_INJECTION_DEBUG_FS
# (the debug kernels); skips otherwise.
# env: HCCLT_FAILSLAB_PROBABILITY (percent, default 10),
#      HCCLT_FAILSLAB_CALLS (default 20000), HCCLT_FUZZ_SEED.
#
# POSIX sh (runs under busybox).

F=/sys/kernel/debug/failslab
KNOBS="probability interval times space verbose task-filter ignore-gfp-wait cache-filter"
. "$(dirname "$0")/hcclt_fault_lib.sh"

fault_require "CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS"
fault_save
# GFP_KERNEL allocations (nearly all of the driver's) must be candidates.
[ -w $F/ignore-gfp-wait ] && echo N > $F/ignore-gfp-wait
[ -w $F/cache-filter ] && echo N > $F/cache-filter
fault_run failslab "${HCCLT_FAILSLAB_PROBABILITY:-10}" \
	"${HCCLT_FAILSLAB_CALLS:-20000}"
