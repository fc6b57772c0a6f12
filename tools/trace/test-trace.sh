#!/bin/sh
# SPDX-License-Identifier: MIT
# Host test of the trace converter and the trace JSON validator (POSIX sh,
# runs under busybox sh too). BIN=<dir with hcclthread-trace and
# hcclt-trace-check>. Prints TAP; exits non-zero on any failure.
BIN=${BIN:-../../build/bin}
here=$(cd "$(dirname "$0")" && pwd)
td=$here/testdata
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hcclt-trace-test.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; }
t() { # t NAME CMD...: passes when CMD exits 0
	name=$1
	shift
	if "$@" > "$tmp/out" 2>&1; then ok "$name"; else
		notok "$name"; sed 's/^/# /' "$tmp/out"; fi
}
tfail() { # tfail NAME CMD...: passes when CMD exits exactly 1
	name=$1
	shift
	"$@" > "$tmp/out" 2>&1
	rc=$?
	if [ $rc = 1 ]; then ok "$name"; else
		notok "$name (exit $rc, want 1)"; sed 's/^/# /' "$tmp/out"; fi
}

echo "TAP version 13"
for s in handshake generic; do
	t "convert the sample $s.txt" \
		"$BIN/hcclthread-trace" -i "$td/$s.txt" -o "$tmp/$s.json"
	summary=$(sed -n 's/^hcclthread-trace: \(.*\) -> .*/\1/p' "$tmp/out")
	want=$(cat "$td/$s.expected")
	if [ "$summary" = "$want" ]; then ok "$s.txt counts: $want"; else
		notok "$s.txt counts"; echo "# got:  $summary"; echo "# want: $want"; fi
	if grep -q "lost 2 events" "$tmp/out"; then ok "$s.txt: lost events reported"; else
		notok "$s.txt: lost events reported"; fi
done
t "convert lost.txt (a lost task_complete, a dropped task)" \
	"$BIN/hcclthread-trace" -i "$td/lost.txt" -o "$tmp/lost.json"
summary=$(sed -n 's/^hcclthread-trace: \(.*\) -> .*/\1/p' "$tmp/out")
want=$(cat "$td/lost.expected")
if [ "$summary" = "$want" ] &&
   grep -q '"seqno":1,.*"end_status":"lost"' "$tmp/lost.json" &&
   grep -q '"seqno":2,.*"end_status":"-62"' "$tmp/lost.json" &&
   grep -q '"ts":5000301.000,"dur":0.002,"args":{.*"seqno":3' "$tmp/lost.json"; then
	ok "seqnos pair starts and completes: lost one closed, dropped one zero-length"
else
	notok "seqnos pair starts and completes"; echo "# got: $summary"; sed 's/^/# /' "$tmp/lost.json"
fi
t "convert channel.txt (a channel record on device 0, its wait on device 1)" \
	"$BIN/hcclthread-trace" -i "$td/channel.txt" -o "$tmp/channel.json"
summary=$(sed -n 's/^hcclthread-trace: \(.*\) -> .*/\1/p' "$tmp/out")
want=$(cat "$td/channel.expected")
if [ "$summary" = "$want" ] &&
   grep -q '"ph":"s","name":"channel","cat":"channel","id":1,"pid":1,"tid":3,' "$tmp/channel.json" &&
   grep -q '"ph":"f","bp":"e","name":"channel","cat":"channel","id":1,"pid":1,"tid":1,' "$tmp/channel.json" &&
   grep -q '"ph":"s","name":"notify","cat":"notify","id":2,"pid":1,"tid":4,' "$tmp/channel.json"; then
	ok "a channel record's arrow goes to the peer device's wait, not to a same-slot notify of its own device"
else
	notok "channel arrows across devices"; echo "# got: $summary"; echo "# want: $want"
	sed 's/^/# /' "$tmp/channel.json"
fi
t "convert copy.txt (a 64 MiB local copy, a 4 KiB write)" \
	"$BIN/hcclthread-trace" -i "$td/copy.txt" -o "$tmp/copy.json"
if grep -q '"name":"local_copy 64.0 MiB","cat":"task".*"bytes":67108864' "$tmp/copy.json" &&
   grep -q '"name":"write 4.0 KiB","cat":"task".*"bytes":4096' "$tmp/copy.json"; then
	ok "copy boxes are named by their op and size, with the bytes as an arg"
else
	notok "copy boxes are named by their op and size"; sed 's/^/# /' "$tmp/copy.json"
fi
t "convert op.txt (an operator registered, a kernel and its issue reported)" \
	"$BIN/hcclthread-trace" -i "$td/op.txt" -o "$tmp/op.json"
summary=$(sed -n 's/^hcclthread-trace: \(.*\) -> .*/\1/p' "$tmp/out")
want=$(cat "$td/op.expected")
if [ "$summary" = "$want" ] &&
   grep -q '"ph":"i","s":"t","name":"register #1 hccl_custom_allgather","cat":"call","pid":3,"tid":1,"ts":400000000.000' "$tmp/op.json" &&
   grep -q '"ph":"X","name":"kernel AllGatherKernel","cat":"op","pid":3,"tid":1,"ts":400001000.000,"dur":2000.000' "$tmp/op.json" &&
   grep -q '"ph":"X","name":"op #1 hccl_custom_allgather","cat":"op","pid":3,"tid":1,"ts":400000000.000,"dur":5000.000' "$tmp/op.json" &&
   grep -q '"name":"thread_name","pid":3,"tid":1,"args":{"name":"comm 0:0x1000000000001"}' "$tmp/op.json"; then
	ok "operator reports: an instant and two boxes on the communicator's row"
else
	notok "operator reports"; echo "# got: $summary"; sed 's/^/# /' "$tmp/op.json"
fi
t "op trace is valid" "$BIN/hcclt-trace-check" --min-tasks 1 "$tmp/op.json"
t "channel trace is valid: 4 tasks, 2 flows, 4 rows" \
	"$BIN/hcclt-trace-check" --min-tasks 4 --min-flows 2 --min-streams 4 "$tmp/channel.json"
t "driver-format trace is valid: 11 tasks, 4 flows, 5 rows (slots split equal stream ids)" \
	"$BIN/hcclt-trace-check" --min-tasks 11 --min-flows 4 --min-streams 5 "$tmp/handshake.json"
cp "$tmp/generic.json" "$tmp/hs.json"
t "converted trace is valid: 9 tasks, 3 flows, 3 rows" \
	"$BIN/hcclt-trace-check" --min-tasks 9 --min-flows 3 --min-streams 3 "$tmp/hs.json"
tfail "validator counts flows (4 required, 3 present)" \
	"$BIN/hcclt-trace-check" --min-flows 4 "$tmp/hs.json"
# Arrow ends: record stream 1 seq 1 -> wait stream 2 seq 1; the second of
# two records before a wait releases nothing (binary notify).
if grep -q '"ph":"s".*"tid":2,"ts":100000310.001' "$tmp/hs.json" &&
   grep -q '"ph":"f".*"tid":1,"ts":100000311.999' "$tmp/hs.json" &&
   grep -q '"ph":"s".*"tid":1,"ts":100000430.' "$tmp/hs.json" &&
   ! grep -q '"ph":"s".*"tid":1,"ts":100000432.' "$tmp/hs.json"; then
	ok "arrows go from the releasing record to the released wait"
else
	notok "arrows go from the releasing record to the released wait"
fi
if grep -q '"name":"wait timeout"' "$tmp/hs.json" &&
   grep -q '"end_status":"-62"' "$tmp/hs.json"; then
	ok "wait timeout marked"; else notok "wait timeout marked"; fi
if grep -q '"unfinished":1' "$tmp/hs.json"; then
	ok "unfinished task kept"; else notok "unfinished task kept"; fi

t "convert slot-reuse.txt (a notify slot reused after its thread died)" \
	"$BIN/hcclthread-trace" -i "$td/slot-reuse.txt" -o "$tmp/reuse.json"
# tids: stream 1 -> 1, stream 3 -> 2, stream 4 -> 3.
if grep -q '"ph":"s".*"tid":3,"ts":200000029.001' "$tmp/reuse.json" &&
   ! grep -q '"ph":"s".*"tid":1,' "$tmp/reuse.json"; then
	ok "a record into a dead notify releases no wait on its reused slot"
else
	notok "a record into a dead notify releases no wait on its reused slot"
fi

# odd.txt: values that only look like numbers, 20 fields of 60 bytes (more
# than an event's args hold), a comm cut inside a UTF-8 character, and a last
# line that is an event name alone, without a newline.
t "convert odd.txt" "$BIN/hcclthread-trace" -i "$td/odd.txt" -o "$tmp/odd.json"
t "odd.txt gives strict JSON (RFC 8259, UTF-8)" "$BIN/hcclt-trace-check" "$tmp/odd.json"
if grep -q '"x":"-01","y":".","z":"1.2.3","w":"01.5"' "$tmp/odd.json" &&
   grep -q '"seqno":"1\."' "$tmp/odd.json"; then
	ok "only RFC 8259 numbers are written bare"
else
	notok "only RFC 8259 numbers are written bare"
fi
if grep -q '"name":"进程-7"' "$tmp/odd.json"; then
	ok "valid UTF-8 in a comm is kept"; else notok "valid UTF-8 in a comm is kept"; fi
if grep -q '"ts":5000140.000,"args":{}' "$tmp/odd.json"; then
	ok "an event without fields takes none from the line before"
else
	notok "an event without fields takes none from the line before"
fi

: > "$tmp/empty.txt"
t "convert an empty trace" \
	"$BIN/hcclthread-trace" -i "$tmp/empty.txt" -o "$tmp/empty.json"
t "empty trace is valid JSON" "$BIN/hcclt-trace-check" "$tmp/empty.json"
tfail "empty trace has no task" "$BIN/hcclt-trace-check" --min-tasks 1 "$tmp/empty.json"

t "validator accepts good-minimal.json" "$BIN/hcclt-trace-check" "$td/good-minimal.json"
for f in "$td"/bad-*.json; do
	tfail "validator rejects $(basename "$f")" "$BIN/hcclt-trace-check" "$f"
done
"$BIN/hcclt-trace-check" > "$tmp/out" 2>&1
[ $? = 2 ] && ok "validator usage error exits 2" || notok "validator usage error exits 2"
"$BIN/hcclthread-trace" -i "$tmp/nonexistent" -o "$tmp/x.json" > "$tmp/out" 2>&1
[ $? = 1 ] && ok "converter: missing input exits 1" || notok "converter: missing input exits 1"

echo "1..$n"
echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
