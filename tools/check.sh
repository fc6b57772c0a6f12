#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tools/check.sh: everything that must pass (run by `make check`, after
# `make deps`). Each step is one or more TAP results; the run ends with
# "N passed, N failed[, N skipped]" and exits non-zero on any failure.
#
#   static:  module W=1 on every test kernel with no warnings, sparse (C=2),
#            checkpatch --strict, kernel-doc of the uAPI, library with gcc
#            and clang, exported symbols == version script
#   host:    library unit tests, trace converter test, runner host tests
#   debug:   the KASAN/lockdep/kmemleak/UBSAN/KUnit kernels, built once per
#            source version into a cache outside the clone
#            (tools/debug-kernel/build)
#   vm:      the test matrix below; every VM run also fails on kernel log
#            reports, a taint or a failed rmmod
#   fresh:   tools/fresh-clone-check: HEAD cloned into a temporary folder,
#            the README's commands run there (make demo, make, make install
#            DESTDIR=, the README's program built with its cc line)
#
# The matrix (Documentation/selftests.rst says why):
#
#   6.12, debug 6.12     everything: the kselftests, the library's device
#                        tests with its three module loads, the examples,
#                        the custom operators on 2, 4, 8 ranks and a 950
#                        SoC, the status tool and tracer; on 6.12 also the
#                        status tool without the module, and the
#                        kselftests through a kernel tree's make run_tests
#   6.1, 6.1 PREEMPT_RT, every kselftest, and the representative subset of
#   debug 6.1            the library's device tests ("subset" below)
#   pair 6.12, 6.1,      two guests linked by soft-RoCE (tools/vm/run-pair,
#   pair debug 6.12      one pair at a time: two 1-vCPU guests each):
#                        rxe0 up, then ibv_rc_pingpong and rping between
#                        them, our operators on 16 ranks of both, the caps
#                        of links, the cluster test with cluster_addr on
#                        both (tools/vm/guest/hcclt-pair-smoke), its last
#                        case on every pair kernel guest B's QEMU killed by
#                        the host mid-AllReduce (--kill-b-on; B checked at
#                        a checkpoint before, A's ranks must fail within
#                        5 s, 15 s on debug); 40-90 s; on the debug 6.12
#                        kernel the driver's cluster code runs under KASAN,
#                        lockdep, UBSAN, kmemleak, all but the operators
#                        (160 s there: they run on 6.12 and 6.1 only, for
#                        the two-guest part's 5 minutes), 4 cards a guest
#
# Two workers run the jobs (the list below) side by side, at most one
# guest or build each: the debug kernels build while the static checks
# run, and the guests of independent kernels boot in parallel. The results
# are printed in a fixed order when all jobs are done; progress lines
# ("# ...") come as they happen. Each suite has its own time limit and fails with
# a "TIMEOUT" line of its own, never CI's. The time of each phase goes to
# build/check/times.txt and is printed at the end.
#
# CHECK_KERNELS overrides the Debian kernel list (space separated releases;
# no debug kernels then); CHECK_NO_DEBUG=1 leaves the debug kernels out;
# CHECK_WORKERS=N runs N jobs at a time (default 2); CHECK_JOBS="NAME ..."
# runs only the jobs named (from the list below), their needs taken as met
# unless named too (e.g. CHECK_JOBS="pair-6.12 pair-6.1" once the module and
# tools are built; CHECK_JOBS="debug-6.12 pair-debug-6.12": the debug
# kernel, built or from the cache, and its module, then the pair on it).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
export BUILD=${BUILD:-$top/build}
logs=$BUILD/check
rm -rf "$logs"
mkdir -p "$logs"
# shellcheck source=tools/vm/kernels.sh
. "$top/tools/vm/kernels.sh"

start=$(date +%s)
times=$logs/times.txt
: > "$times"
# Results go to the current job's file: STATUS<TAB>NAME<TAB>LOG lines.
res=$logs/results.0-main

result() { # result ok|fail|skip NAME [LOG]
	printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$res"
	[ "$1" = fail ] && echo "# FAILED: $2"
	return 0
}

# phase NAME CMD...: run a function or command, record its duration.
phase() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	echo "# $(date -u +%H:%M:%S) start: $name"
	"$@"
	rc=$?
	printf '%s\t%d\n' "$name" $(( $(date +%s) - t0 )) >> "$times"
	echo "# $(date -u +%H:%M:%S) done: $name ($(( $(date +%s) - t0 )) s)"
	return $rc
}

# subphase NAME CMD...: a part of a phase, timed the same way (its line in
# the table is indented).
subphase() {
	local name=$1 t0 rc
	shift
	t0=$(date +%s)
	"$@"
	rc=$?
	printf '  %s\t%d\n' "$name" $(( $(date +%s) - t0 )) >> "$times"
	return $rc
}

# step [-t SECONDS] NAME CMD...: one result from a command's exit status,
# within a time limit (default 900 s) that fails the step with its own
# message.
step() {
	local limit=900 name log rc
	if [ "$1" = -t ]; then
		limit=$2
		shift 2
	fi
	name=$1
	shift
	log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9._-' '_' | cut -c1-120).log
	# Through bash -c, so that a function (no_warnings) runs under the
	# limit too.
	timeout -k 10 "$limit" bash -c '"$@"' step "$@" > "$log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		result ok "$name"
	else
		[ $rc = 124 ] && echo "TIMEOUT: '$name' ran past its limit of $limit s" >> "$log"
		result fail "$name" "$log"
	fi
}

no_warnings() { # no_warnings LOG CMD...: the command passes and prints no warning
	local log=$1
	shift
	"$@" > "$log.raw" 2>&1 || { cat "$log.raw"; return 1; }
	if grep -E 'warning:|error:|WARNING|^[^ ]*\.[ch]:[0-9]+:' "$log.raw"; then
		return 1
	fi
}
export -f no_warnings

# tap_tally NAME LOG: count the results of a TAP log (kselftest nesting
# included): a program's own results when it printed any, else its line.
tap_tally() {
	local name=$1 log=$2 line
	while IFS= read -r line; do
		case "$line" in
		ok\ *) result ok "$name: ${line#ok }" ;;
		skip\ *) result skip "$name: ${line#skip }" ;;
		fail\ *) result fail "$name: ${line#fail }" ;;
		esac
	done < <(awk '
		function flush() {
			if (prog != "" && nested == 0) print progres " " prog
			else if (prog != "" && progres == "fail" && nfail == 0)
				print "fail " prog " (program failed after its tests)"
		}
		/^# (not )?ok [0-9]+ / {
			l = $0; sub(/^# /, "", l)
			st = (l ~ /^not ok/) ? "fail" : (l ~ /# [Ss][Kk][Ii][Pp]/ ? "skip" : "ok")
			sub(/^(not )?ok [0-9]+ /, "", l)
			nested++; if (st == "fail") nfail++
			print st " " cur ": " l; next
		}
		/^# selftests: / { cur = $0; sub(/^# selftests: [^:]*: /, "", cur); next }
		/^(not )?ok [0-9]+ / {
			l = $0; st = (l ~ /^not ok/) ? "fail" : (l ~ /# [Ss][Kk][Ii][Pp]/ ? "skip" : "ok")
			sub(/^(not )?ok [0-9]+ /, "", l)
			prog = l; progres = st; flush(); prog = ""; nested = 0; nfail = 0
		}' "$log")
}

# vm_result NAME RC LOG: the VM run's own result (exit, rmmod, kernel log).
vm_result() {
	if [ "$2" = 0 ]; then
		result ok "$1 (exit, rmmod, kernel log)"
	else
		[ "$2" = 124 ] && echo "TIMEOUT: the VM run ran past its limit" >> "$3"
		result fail "$1 (exit $2, rmmod, kernel log)" "$3"
	fi
}

k61=$(hcclt_debian_kernel 6.1)
k612=$(hcclt_debian_kernel 6.12)
krt=$(hcclt_debian_kernel 6.1-rt)
kernels=${CHECK_KERNELS:-"$k61 $k612 $krt"}
debug=1
[ "${CHECK_NO_DEBUG:-0}" = 1 ] || [ -n "${CHECK_KERNELS:-}" ] && debug=0

# ---- static checks ---------------------------------------------------------
static_checks() {
	local k
	[ -n "${CHECK_KERNELS:-}" ] || [ -n "$krt" ] ||
		result fail "6.1 PREEMPT_RT kernel installed (make deps)"
	step "linux-source-6.1 extracted" make -s linux-source
	step "the 6.1 PREEMPT_RT test kernel ($krt) is installed and has CONFIG_PREEMPT_RT=y" \
		grep -qx 'CONFIG_PREEMPT_RT=y' "/boot/config-$krt"
	for k in $kernels; do
		step "module builds for $k with W=1 and no warnings" \
			no_warnings "$logs/w1-$k" tools/build-module "$k" W=1
	done
	step "sparse (C=2) clean on $k612" \
		no_warnings "$logs/sparse" tools/build-module "$k612" C=2
	step "checkpatch --strict clean on driver/ and uapi/" \
		"$BUILD/linux-source-6.1/scripts/checkpatch.pl" --no-tree --strict \
		--quiet -f driver/*.[ch] driver/tests/*.[ch] uapi/drm/*.h
	step "kernel-doc of the uAPI and driver has no warnings" tools/docs-check
	step "library builds with gcc, -Werror" make -s -C lib O="$BUILD" CC=gcc
	step "library builds with clang, -Werror" \
		make -s -C lib O="$BUILD/clang" CC=clang
	step "library exports exactly its version script" \
		make -s -C lib O="$BUILD" check-symbols
	step "CANN-style C++14 client builds against the installed headers" \
		make -s -C lib O="$BUILD" check-installed
	step "a CANN build line (-lhccl -lascendcl ...) against a CANN-style home" \
		make -s -C lib O="$BUILD" check-cann-home
	step "tools build" make -s tools
	step "kselftests build and install (kernel lib.mk)" make -s selftests
}

host_tests() {
	timeout -k 10 900 make -s -C lib O="$BUILD" test > "$logs/lib-host.log" 2>&1
	tap_tally "lib host" "$logs/lib-host.log"
	grep -q '^ok\|^not ok' "$logs/lib-host.log" ||
		result fail "library host tests produced results" "$logs/lib-host.log"
	step "trace converter host test" make -s -C tools/trace O="$BUILD" test
	step "kmemleak-check parses 6.1 and 6.12 reports (host test)" \
		tools/debug-kernel/kmemleak-check-test
	step "the VM runner fails on every kernel report, checkers turning off included (host test)" \
		tools/vm/test-reports
	step "hcclthread-smi host test (no device)" make -s -C tools/smi O="$BUILD" test
}

# ---- VM tests --------------------------------------------------------------
# vm_kernel RELEASE full|subset: the kernel's share of the matrix.
vm_kernel() {
	local k=$1 scope=$2 pre= post= log rc lt kt
	hcclt_kernel_paths "$k"
	# On a debug kernel: forget boot-time kmemleak reports before the
	# module is loaded; after the unload, scan and fail on any leak that
	# points into hcclthread.
	if [ "$KDEBUG" = 1 ]; then
		pre='kmemleak-check clear'
		post='kmemleak-check scan hcclthread || echo "BUG: kmemleak: leaks of hcclthread" > /dev/kmsg'
	fi
	# Limits: the debug kernels (KASAN under TCG) take several times as
	# long as the others.
	kt=1200
	lt=900
	if [ "$KDEBUG" = 1 ]; then
		kt=2400
		lt=1800
	fi
	log=$logs/vm-kselftest-$k.log
	if [ "$k" = "$k612" ]; then
		# The kselftests as a kernel tree runs them (make run_tests):
		# the same programs run_kselftest.sh runs, through lib.mk.
		HCCLT_PRE=$pre HCCLT_POST=$post VM_LOG=$logs/vm-kselftest-$k.dmesg \
			subphase "$k: kselftests" tools/vm/run --kernel "$k" --timeout "$kt" \
			--add "$BUILD/ksft-tree:/opt/hcclt/ksrc" \
			--add "$(command -v make):/usr/bin/make" -- \
			make -C /opt/hcclt/ksrc/tools/testing/selftests \
			TARGETS=drivers/hcclthread run_tests > "$log" 2>&1
		rc=$?
		tap_tally "$k kselftest" "$log"
		if grep -q '^ok [0-9]* selftests: drivers/hcclthread' "$log"; then
			result ok "$k: kselftests run under 'make -C tools/testing/selftests TARGETS=drivers/hcclthread run_tests'"
		else
			result fail "$k: kselftests run under 'make ... TARGETS=drivers/hcclthread run_tests'" "$log"
		fi
	else
		HCCLT_PRE=$pre HCCLT_POST=$post VM_LOG=$logs/vm-kselftest-$k.dmesg \
			subphase "$k: kselftests" tools/vm/run --kernel "$k" --timeout "$kt" -- \
			/opt/hcclt/kselftest/run_kselftest.sh > "$log" 2>&1
		rc=$?
		tap_tally "$k kselftest" "$log"
	fi
	# The driver's KUnit suite runs at every load of a module built with
	# HCCLT_KUNIT=1 (the debug kernels').
	if [ "$KDEBUG" = 1 ]; then
		sed -n 's/^\[ *[0-9.]*\]     \(\(not \)\{0,1\}ok [0-9]* hcclt_.*\)/\1/p' \
			"$logs/vm-kselftest-$k.dmesg" | sort -u > "$logs/kunit-$k.tap"
		tap_tally "$k KUnit" "$logs/kunit-$k.tap"
		grep -q '^ok' "$logs/kunit-$k.tap" ||
			result fail "$k: the driver's KUnit suite ran" "$logs/vm-kselftest-$k.dmesg"
	fi
	vm_result "$k: kselftest VM run clean" "$rc" "$log"
	# The status tool without the module, once.
	if [ "$k" = "$k612" ]; then
		log=$logs/vm-noload-$k.log
		subphase "$k: status tool without the module" \
			tools/vm/run --kernel "$k" --no-load --timeout 600 -- \
			sh /opt/hcclt/bin/hcclt-smi-test > "$log" 2>&1
		rc=$?
		tap_tally "$k no module" "$log"
		vm_result "$k: status tool without the module: VM run clean" "$rc" "$log"
	fi
	# The library through the real module, then the examples and smi.
	log=$logs/vm-lib-$k.log
	HCCLT_PRE=$pre HCCLT_POST=$post subphase "$k: library, examples, tools ($scope)" \
		tools/vm/run --kernel "$k" --timeout "$lt" -- \
		sh /opt/hcclt/bin/hcclt-vm-userspace-tests "$scope" > "$log" 2>&1
	rc=$?
	tap_tally "$k lib" "$log"
	vm_result "$k: library VM run clean ($scope)" "$rc" "$log"
}

# pair_kernel RELEASE: two guests of the kernel linked by a UNIX-socket
# netdev, soft-RoCE on each (tools/vm/run-pair), the smoke test on both:
# each guest's TAP results, then the pair's own (both runs clean). On a
# debug kernel, both guests also fail on a kmemleak report into
# hcclthread (as vm_kernel's runs), and have a longer limit.
pair_kernel() {
	local k=$1 dir=$logs/pair-$1 rc pre='' post='' t=300 mp='' lim=5 lat
	if [ -z "$k" ]; then
		result skip "two guests over soft-RoCE: kernel not installed (make deps)"
		return 0
	fi
	hcclt_kernel_paths "$k"
	if [ "$KDEBUG" = 1 ]; then
		pre='kmemleak-check clear'
		post='kmemleak-check scan hcclthread || echo "BUG: kmemleak: leaks of hcclthread" > /dev/kmsg'
		t=600
		# 4 cards a guest (8 ranks, not 16): the same paths, under KASAN
		# in half the time (the two-guest part's 5 minutes).
		mp=sim_devices=4
		lim=15
	fi
	rm -rf "$dir"
	HCCLT_MODPARAMS=$mp HCCLT_PRE=$pre HCCLT_POST=$post \
	HCCLT_MODPARAMS_A=cluster_addr=10.0.0.1 HCCLT_MODPARAMS_B=cluster_addr=10.0.0.2 \
		VM_LOG=$dir.dmesg tools/vm/run-pair --kernel "$k" --timeout "$t" --logs "$dir" \
		--kill-b-on 'hcclt-pair: kill this guest now' -- \
		sh /opt/hcclt/bin/hcclt-pair-smoke > "$dir.log" 2>&1
	rc=$?
	tap_tally "$k" "$dir/a.log"
	tap_tally "$k" "$dir/b.log"
	vm_result "$k: two guests over soft-RoCE (run-pair): both VM runs clean" "$rc" "$dir.log"
	# Case 7 on the host's clock (run-pair --kill-b-on): from just before
	# B's QEMU was killed to A's line that its ranks all failed.
	lat=$(sed -n "s/^run-pair: A: 'hcclt-pair: the root's ranks all failed' came \([0-9.]*\) s after B's QEMU was killed$/\1/p" "$dir.log")
	if [ -n "$lat" ] && awk -v l="$lat" -v m="$lim" 'BEGIN { exit !(l < m) }'; then
		result ok "$k: B's QEMU killed mid-AllReduce: A's ranks all failed $lat s after, on the host's clock (limit $lim s)"
	else
		result fail "$k: B's QEMU killed mid-AllReduce: A's ranks all failed within $lim s, on the host's clock (${lat:-no time}${lat:+ s})" "$dir.log"
	fi
}

# debug_kernel SERIES: build (or find in the cache) a debug kernel and the
# module for it; prints its release on success.
debug_kernel() {
	local series=$1 dlog=$logs/debug-kernel-$1.log kdbg
	if timeout -k 10 2400 tools/debug-kernel/build --series "$series" > "$dlog" 2>&1; then
		kdbg=$(tools/debug-kernel/build --series "$series" --print-release)
		result ok "debug kernel $kdbg built or cached (KASAN, lockdep, kmemleak, UBSAN, KUnit)"
		step "module builds for $kdbg with W=1 and no warnings" \
			no_warnings "$logs/w1-debug-$series" tools/build-module "$kdbg" W=1 HCCLT_KUNIT=1
		echo "$kdbg" > "$logs/.debug-$series"
	else
		[ $? = 124 ] && echo "TIMEOUT: the debug kernel build ran past 2400 s" >> "$dlog"
		result fail "debug kernel $series builds" "$dlog"
	fi
}

fresh_clone() {
	local log=$logs/fresh-clone.log rc
	timeout -k 10 1800 tools/fresh-clone-check > "$log" 2>&1
	rc=$?
	[ $rc = 124 ] && echo "TIMEOUT: the fresh-clone check ran past 1800 s" >> "$log"
	tap_tally "fresh clone" "$log"
	if [ $rc = 0 ]; then
		result ok "fresh clone: the README's commands pass"
	else
		result fail "fresh clone: the README's commands pass (exit $rc)" "$log"
	fi
}

# ---- the jobs -------------------------------------------------------------
# Each job: NAME, the jobs it needs, the function that runs it. Two workers
# take the first job in this list whose needs are done, so the long debug
# kernel builds and guests start as early as they can; each job's results
# go to a file of its own, printed in this order at the end.
jobs=(
	"static:-:static_checks"
	"debug-6.12:-:debug_kernel 6.12"
	"vm-debug-6.12:static,debug-6.12:vm_debug 6.12 full"
	"host:static:host_tests"
	"vm-6.12:static:vm_kernel $k612 full"
	"debug-6.1:-:debug_kernel 6.1"
	"vm-debug-6.1:static,debug-6.1:vm_debug 6.1 subset"
	"vm-6.1:static:vm_kernel $k61 subset"
	"vm-6.1-rt:static:vm_kernel $krt subset"
	"fresh:static:fresh_clone"
	"pair-6.12:static:pair_kernel $k612"
	"pair-6.1:static,pair-6.12:pair_kernel $k61"
	"pair-debug-6.12:static,debug-6.12,pair-6.1:pair_debug 6.12"
)
if [ -n "${CHECK_KERNELS:-}" ]; then
	jobs=("static:-:static_checks" "host:static:host_tests")
	i=0
	for k in $CHECK_KERNELS; do
		jobs+=("vm-$i:static:vm_kernel $k full")
		i=$((i + 1))
	done
	jobs+=("fresh:static:fresh_clone")
elif [ "$debug" = 0 ]; then
	jobs=("${jobs[0]}" "${jobs[@]:3:2}" "${jobs[@]:7:5}")
fi

if [ -n "${CHECK_JOBS:-}" ]; then
	sel=()
	for j in "${jobs[@]}"; do
		name=${j%%:*}
		fn=${j#*:}
		needs=${fn%%:*}
		fn=${fn#*:}
		# Needs that are selected too are kept (debug-6.12 before
		# vm-debug-6.12); the others are taken as met.
		kept=
		for n in ${needs//,/ }; do
			case " $CHECK_JOBS " in *" $n "*) kept=${kept:+$kept,}$n ;; esac
		done
		case " $CHECK_JOBS " in *" $name "*) sel+=("$name:${kept:--}:$fn") ;; esac
	done
	[ ${#sel[@]} -gt 0 ] || { echo "check: CHECK_JOBS matches no job" >&2; exit 1; }
	jobs=("${sel[@]}")
fi

# vm_debug SERIES SCOPE: vm_kernel on the debug kernel its job built.
vm_debug() {
	if [ -f "$logs/.debug-$1" ]; then
		vm_kernel "$(cat "$logs/.debug-$1")" "$2"
	else
		result skip "debug $1 tests: the debug kernel did not build (failed above)"
	fi
}

# pair_debug SERIES: pair_kernel on the debug kernel its job built.
pair_debug() {
	if [ -f "$logs/.debug-$1" ]; then
		pair_kernel "$(cat "$logs/.debug-$1")"
	else
		result skip "debug $1 pair: no debug kernel from this run's debug-$1 job (failed above, or not selected)"
	fi
}

# worker: run jobs until none is left to claim.
worker() {
	local i j name needs fn n left ready
	while :; do
		left=0
		for i in "${!jobs[@]}"; do
			j=${jobs[$i]}
			name=${j%%:*}
			needs=${j#*:}
			fn=${needs#*:}
			needs=${needs%%:*}
			[ -d "$logs/.claim-$name" ] && continue
			left=1
			ready=1
			for n in ${needs//,/ }; do
				[ "$n" = - ] || [ -f "$logs/.done-$n" ] || ready=0
			done
			[ $ready = 1 ] || continue
			mkdir "$logs/.claim-$name" 2>/dev/null || continue
			res=$logs/results.$(printf '%02d' "$i")-$name
			: > "$res"
			# shellcheck disable=SC2086
			phase "$name" $fn
			touch "$logs/.done-$name"
			continue 2
		done
		[ $left = 1 ] || return 0
		sleep 5
	done
}

echo "TAP version 13"
echo "# make check: logs in $logs, phase times in $times"
pids=()
for w in $(seq "${CHECK_WORKERS:-2}"); do
	worker &
	pids+=($!)
done
wait "${pids[@]}"

# ---- results, in a fixed order ---------------------------------------------
pass=0
fail=0
skip=0
n=0
failed=()
for f in "$logs"/results.*; do
	[ -f "$f" ] || continue
	while IFS=$'\t' read -r st name log; do
		n=$((n + 1))
		case "$st" in
		ok) pass=$((pass + 1)); echo "ok $n $name" ;;
		skip) skip=$((skip + 1)); echo "ok $n $name # SKIP" ;;
		*)
			fail=$((fail + 1))
			failed+=("$name${log:+ (log: $log)}")
			echo "not ok $n $name"
			if [ -n "$log" ] && [ -f "$log" ]; then
				echo "# --- last lines of $log"
				tail -n 40 "$log" | sed 's/^/# /'
			fi
			;;
		esac
	done < "$f"
done

secs=$(( $(date +%s) - start ))
printf 'total\t%d\n' "$secs" >> "$times"
echo "1..$n"
echo "# phase times (s), also in $times:"
awk -F'\t' '{ printf "#   %6d  %s\n", $2, $1 }' "$times"
echo "# make check took ${secs}s; logs in $logs"
# CI keeps the end of the output: name every failure again here.
for name in "${failed[@]}"; do
	echo "# FAILED: $name"
done
if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail = 0 ]
