# SPDX-License-Identifier: GPL-2.0
#
# Sourced by hcclt_failslab.sh and hcclt_failfunc.sh, which set F (the
# fault attribute's debugfs directory) and KNOBS (its files to save and
# restore) first. POSIX sh (runs under busybox).

ksft_skip=4
DIR=$(cd "$(dirname "$0")" && pwd)
# Injections allowed; `times` counts down on each, which tells how many.
FAULT_TIMES=1000000

skip() { echo "1..0 # SKIP $*"; exit $ksft_skip; }

# Root, debugfs, the task filter's make-it-fail, the fuzzer, the module.
fault_require() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	[ -d "$F" ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null
	[ -d "$F" ] || skip "no $F ($1)"
	[ -w /proc/self/make-it-fail ] || skip "no /proc/self/make-it-fail"
	[ -x "$DIR/hcclt_fuzz" ] || skip "hcclt_fuzz missing"
	grep -q '^hcclthread ' /proc/modules || skip "hcclthread not loaded"
}

# Save KNOBS, restore them on exit (and run $FAULT_UNDO first, if set).
fault_save() {
	saved=""
	for k in $KNOBS; do
		[ -r "$F/$k" ] && saved="$saved $k=$(cat "$F/$k")"
	done
	trap fault_restore EXIT
	echo 0 > "$F/probability"
}

fault_restore() {
	echo 0 > "$F/probability"
	[ -n "${FAULT_UNDO:-}" ] && $FAULT_UNDO
	for kv in $saved; do
		echo "${kv#*=}" > "$F/${kv%%=*}" 2>/dev/null
	done
	trap - EXIT
}

# fault_run WHAT PERCENT CALLS: the fuzzer, its ioctl threads failing
# PERCENT % of the injectable calls; exits with the fuzzer's status, or 1
# when it passed but nothing was injected (the run proved nothing).
fault_run() {
	echo Y > "$F/task-filter"
	echo 1 > "$F/interval"
	echo $FAULT_TIMES > "$F/times"
	echo 0 > "$F/space"
	echo 0 > "$F/verbose"
	echo "$2" > "$F/probability"
	HCCLT_FUZZ_FAIL=1 HCCLT_FUZZ_CALLS=$3 "$DIR/hcclt_fuzz"
	rc=$?
	echo 0 > "$F/probability"
	injected=$((FAULT_TIMES - $(cat "$F/times")))
	echo "# $1: $injected failures injected"
	fault_restore
	if [ $rc = 0 ] && [ $injected = 0 ]; then
		echo "# no failure was injected: the test proved nothing"
		exit 1
	fi
	exit $rc
}
