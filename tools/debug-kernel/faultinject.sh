#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# faultinject.sh - run a stress command with failslab failing a share of its
# slab allocations, then check the module left nothing for kmemleak.
# Runs INSIDE the debug-kernel guest as root; busybox sh is enough.
#
# usage: faultinject.sh [options] [--] CMD [ARG...]
#   -p PCT     failslab probability, percent (default 5)
#   -i N       fail only every Nth eligible call (interval, default 1)
#   -t N       at most N failures (failslab "times", default 1000000)
#   -m MODULE  module whose leaks fail the run (default hcclthread)
#   -u CMD     command that unloads MODULE after the run (default
#              "rmmod MODULE"); "none": no unload, no leak scan
#   -f FUNC    also fail FUNC via fail_function (needs
#              ALLOW_ERROR_INJECTION(FUNC, ERRNO) in the module); the same
#              probability/task filter apply; may be given more than once
#   -s         self-marking: do not mark CMD's tasks from outside; CMD
#              writes 1 to /proc/self/make-it-fail itself once set up
#              (HCCLT_FAULTINJECT=1 is exported to CMD in every mode,
#              HCCLT_FAULTINJECT_SELF=1 with -s; a short CMD without -s
#              should wait until its make-it-fail reads 1)
#   -v N       failslab verbose: 0 quiet (default), 1 one line, 2 stack
#   -Z         a run in which no fault was injected is not an error
# Env: FAULTINJECT_DEBUG=1 prints every task it marks.
#
# How: failslab with task-filter=Y fails only allocations made by tasks
# whose make-it-fail is 1 (inherited by every thread and child created
# later), ignore-gfp-wait=N so GFP_KERNEL allocations fail too. CMD starts
# unmarked; once it has exec'd, this script marks all of its tasks (and
# keeps marking new descendants every 0.2 s until it exits), so exec and the
# dynamic loader are not hit. Every allocation of CMD can fail, not only the
# module's: CMD must treat ENOMEM from any call as a clean error.
#
# Exit 0 only if: CMD exited 0, at least one fault was injected (unless
# -Z), MODULE unloaded, and kmemleak found nothing pointing into MODULE.
# Exit 1 otherwise, 4 when the kernel has no failslab (skip), 64 usage.

DBG=/sys/kernel/debug
FS=$DBG/failslab
FF=$DBG/fail_function
here=$(cd "$(dirname "$0")" && pwd)

pct=5
interval=1
times=1000000
mod=hcclthread
unload=
funcs=
self=0
verbose=0
allow_zero=0

usage() {
	sed -n '8,24p' "$0" >&2
	exit 64
}

while getopts p:i:t:m:u:f:sv:Zh opt; do
	case $opt in
	p) pct=$OPTARG ;;
	i) interval=$OPTARG ;;
	t) times=$OPTARG ;;
	m) mod=$OPTARG ;;
	u) unload=$OPTARG ;;
	f) funcs="$funcs $OPTARG" ;;
	s) self=1 ;;
	v) verbose=$OPTARG ;;
	Z) allow_zero=1 ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ "$1" = "--" ] && shift
[ $# -gt 0 ] || usage
[ -n "$unload" ] || unload="rmmod $mod"

say() { echo "faultinject: $*"; }

if ! grep -q " $DBG debugfs" /proc/mounts; then
	mount -t debugfs debugfs $DBG 2>/dev/null
fi
if [ ! -d $FS ]; then
	say "SKIP: no $FS (kernel without CONFIG_FAILSLAB/FAULT_INJECTION_DEBUG_FS)"
	exit 4
fi

kmemleak_check() {
	if [ -x "$here/kmemleak-check" ]; then
		"$here/kmemleak-check" "$@"
	else
		kmemleak-check "$@"
	fi
}

# set_attr DIR: the common fault_attr knobs
set_attr() {
	echo "$pct" >"$1/probability" &&
	echo "$interval" >"$1/interval" &&
	echo "$times" >"$1/times" &&
	echo 0 >"$1/space" &&
	echo "$verbose" >"$1/verbose" &&
	echo Y >"$1/task-filter"
}

off_attr() {
	echo 0 >"$1/probability"
	echo 0 >"$1/times"
	echo N >"$1/task-filter"
}

injected() {
	# failslab counts "times" down by one per injected failure
	left=$(cat "$1/times")
	echo $((times - left))
}

# Remember the module's address range for kmemleak (it may be reloaded
# by CMD; kmemleak-check also catches unresolved module addresses).
if grep -q "^$mod " /proc/modules; then
	kmemleak_check record "$mod" >/dev/null 2>&1
else
	say "note: $mod is not loaded now"
fi

set_attr $FS || { say "ERROR: cannot configure $FS"; exit 1; }
echo N >$FS/ignore-gfp-wait
echo N >$FS/cache-filter
if [ -n "$funcs" ]; then
	if [ ! -d $FF ]; then
		say "ERROR: -f needs CONFIG_FAIL_FUNCTION"
		off_attr $FS
		exit 1
	fi
	echo >$FF/inject
	for f in $funcs; do
		if ! echo "$f" >$FF/inject; then
			say "ERROR: cannot inject $f (not ALLOW_ERROR_INJECTION?)"
			off_attr $FS
			exit 1
		fi
	done
	set_attr $FF
fi
say "failslab: probability=$pct% interval=$interval times=$times task-filter=Y ignore-gfp-wait=N${funcs:+; fail_function:$funcs}"

# mark_tree PID: set make-it-fail on PID's tasks and all descendants' tasks
mark_tree() {
	pids=" $1 "
	changed=1
	while [ $changed = 1 ]; do
		changed=0
		for st in /proc/[0-9]*/stat; do
			read -r line 2>/dev/null <"$st" || continue
			p=${line%% *}
			rest=${line##*) }
			# shellcheck disable=SC2086 # split into fields on purpose
			set -- $rest
			case "$pids" in
			*" $p "*) ;;
			*" $2 "*) pids="$pids$p "; changed=1 ;;
			esac
		done
	done
	for p in $pids; do
		for t in "/proc/$p/task/"*; do
			[ -w "$t/make-it-fail" ] || continue
			read -r v 2>/dev/null <"$t/make-it-fail"
			if [ "$v" != 1 ]; then
				echo 1 2>/dev/null >"$t/make-it-fail"
				[ -z "$FAULTINJECT_DEBUG" ] || say "marked $t"
			fi
		done
	done
}

export HCCLT_FAULTINJECT=1
[ $self = 1 ] && export HCCLT_FAULTINJECT_SELF=1
start=$(date +%s)
"$@" &
pid=$!
if [ $self = 0 ]; then
	# wait for the exec: until then the child is still this shell
	me=$(readlink /proc/$$/exe)
	mycmd=$(tr '\0' ' ' 2>/dev/null </proc/$$/cmdline)
	n=0
	while [ -d /proc/$pid ] && [ $n -lt 100 ] &&
	      [ "$(readlink /proc/$pid/exe 2>/dev/null)" = "$me" ] &&
	      [ "$(tr '\0' ' ' 2>/dev/null </proc/$pid/cmdline)" = "$mycmd" ]; do
		sleep 0.05
		n=$((n + 1))
	done
	while [ -d /proc/$pid ]; do
		mark_tree $pid
		sleep 0.2
	done
fi
wait $pid
rc=$?
end=$(date +%s)

nfs=$(injected $FS)
off_attr $FS
nff=0
if [ -n "$funcs" ]; then
	nff=$(injected $FF)
	off_attr $FF
	echo >$FF/inject
fi
say "command exited $rc after $((end - start)) s; injected failures: failslab=$nfs fail_function=$nff"

fail=0
[ $rc = 0 ] || { say "FAIL: command exited $rc"; fail=1; }
if [ $((nfs + nff)) = 0 ] && [ $allow_zero = 0 ]; then
	say "FAIL: no fault was injected (command too short, or not marked?)"
	fail=1
fi

if [ "$unload" != none ]; then
	if grep -q "^$mod " /proc/modules; then
		kmemleak_check record "$mod" >/dev/null 2>&1
	fi
	if ! $unload; then
		say "FAIL: '$unload' failed"
		fail=1
	fi
	kmemleak_check scan "$mod"
	krc=$?
	case $krc in
	0) ;;
	4) say "note: no kmemleak in this kernel, leak check skipped" ;;
	*) say "FAIL: kmemleak-check exited $krc"; fail=1 ;;
	esac
fi

if [ $fail = 0 ]; then
	say "PASS"
	exit 0
fi
say "FAILED"
exit 1
