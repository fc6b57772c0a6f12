#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Fault injection: run hcclt_fuzz with failslab failing a share of the
# kernel allocations made by its ioctl-issuing threads (task-filter plus
# /proc/thread-self/make-it-fail), so the driver's error paths run. The
# fuzzer then fails on any errno outside the documented set (-ENOMEM is
# documented for every ioctl) and on device pools not back at their initial
# values. Leaks are for kmemleak (the VM runner's post-unload scan).
#
# Needs root, debugfs and CONFIG_FAILSLAB + CONFIG_FAULT_INJECTION_DEBUG_FS
# (the debug kernel); skips otherwise.
# env: HCCLT_FAILSLAB_PROBABILITY (percent, default 10),
#      HCCLT_FAILSLAB_CALLS (default 10000), HCCLT_FUZZ_SEED.
#
# POSIX sh (runs under busybox).

ksft_skip=4
DIR=$(cd "$(dirname "$0")" && pwd)
F=/sys/kernel/debug/failslab
KNOBS="probability interval times space verbose task-filter ignore-gfp-wait cache-filter"

skip() { echo "1..0 # SKIP $*"; exit $ksft_skip; }

[ "$(id -u)" = 0 ] || skip "needs root"
[ -d /sys/kernel/debug/failslab ] ||
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
[ -d $F ] || skip "no failslab (CONFIG_FAILSLAB, CONFIG_FAULT_INJECTION_DEBUG_FS)"
[ -w /proc/self/make-it-fail ] || skip "no /proc/self/make-it-fail"
[ -x "$DIR/hcclt_fuzz" ] || skip "hcclt_fuzz missing"

saved=""
for k in $KNOBS; do
	[ -r "$F/$k" ] && saved="$saved $k=$(cat "$F/$k")"
done
restore() {
	echo 0 > $F/probability
	for kv in $saved; do
		echo "${kv#*=}" > "$F/${kv%%=*}" 2>/dev/null
	done
}
trap restore EXIT

echo 0 > $F/probability
echo Y > $F/task-filter
echo 1 > $F/interval
echo -1 > $F/times
echo 0 > $F/space
echo 0 > $F/verbose
[ -w $F/ignore-gfp-wait ] && echo N > $F/ignore-gfp-wait
[ -w $F/cache-filter ] && echo N > $F/cache-filter
echo "${HCCLT_FAILSLAB_PROBABILITY:-10}" > $F/probability

HCCLT_FUZZ_FAIL=1 HCCLT_FUZZ_CALLS=${HCCLT_FAILSLAB_CALLS:-10000} \
	"$DIR/hcclt_fuzz"
rc=$?
restore
trap - EXIT
exit $rc
