#!/bin/sh
# SPDX-License-Identifier: MIT
# hcclt-smi-test (run as: sh hcclt-smi-test): in-VM test of hcclthread-smi and hcclthread-trace (busybox
# sh). Needs hcclthread-smi, hcclt-smi-fixture, hcclthread-trace and
# hcclt-trace-check in PATH. If the module is not loaded (tools/vm/run
# --no-load), the "no device" path is tested first, then the module is
# loaded from $HCCLT_KO (default /opt/hcclt/hcclthread.ko) and unloaded at
# the end. Prints TAP; exits non-zero on any failure.
KO=${HCCLT_KO:-/opt/hcclt/hcclthread.ko}
tmp=$(mktemp -d /tmp/hcclt-smi-test.XXXXXX) || exit 1
n=0
fails=0
loaded_here=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; }
skip() { n=$((n + 1)); echo "ok $n $1 # SKIP $2"; }
show() { sed 's/^/# /' "$1"; }
has() { # has NAME FILE PATTERN: grep -E
	if grep -Eq -- "$3" "$2"; then ok "$1"; else
		notok "$1"; echo "# pattern: $3"; show "$2"; fi
}

echo "TAP version 13"
if grep -q '^hcclthread ' /proc/modules; then
	skip "no module: clear message, exit 3" "module already loaded"
else
	hcclthread-smi > "$tmp/out" 2>&1
	rc=$?
	if [ $rc = 3 ] && grep -q 'no hcclthread device found: is the module loaded? (modprobe drm_shmem_helper && insmod hcclthread.ko)' "$tmp/out"; then
		ok "no module: clear message, exit 3"
	else
		notok "no module: clear message, exit 3 (got $rc)"; show "$tmp/out"
	fi
	if insmod "$KO"; then loaded_here=1; else
		notok "insmod $KO"; echo "1..$n"; exit 1; fi
fi

HCCLT_DEVICE=/nonexistent hcclthread-smi > "$tmp/out" 2>&1
rc=$?
[ $rc = 3 ] && ok "HCCLT_DEVICE=/nonexistent: exit 3" ||
	{ notok "HCCLT_DEVICE=/nonexistent: exit 3 (got $rc)"; show "$tmp/out"; }
hcclthread-smi --bogus > "$tmp/out" 2>&1
rc=$?
[ $rc = 2 ] && ok "bad option: exit 2" || notok "bad option: exit 2 (got $rc)"

hcclthread-smi > "$tmp/idle" 2>&1
rc=$?
[ $rc = 0 ] && ok "idle device: exit 0" ||
	{ notok "idle device: exit 0 (got $rc)"; show "$tmp/idle"; }
has "idle device: node, driver, pools shown" "$tmp/idle" \
	'^/dev/(accel/accel|dri/renderD)[0-9]+ +hcclthread [0-9]+\.[0-9]+\.[0-9]+ +1\.[0-9]+ +0/[0-9]+ +0/[0-9]+'
has "idle device: no communicator" "$tmp/idle" ': 0 communicators of'

hcclt-smi-fixture -- hcclthread-smi > "$tmp/busy" 2>&1
rc=$?
[ $rc = 0 ] && ok "with a fixture: exit 0" ||
	{ notok "with a fixture: exit 0 (got $rc)"; show "$tmp/busy"; }
has "comm: threads 3/40, notifies 7/64" "$tmp/busy" \
	'COMM 0x[0-9a-f]+ +pid [0-9]+ +threads 3/40 +notifies 7/64'
has "3 AICPU_TS threads with 2 notifies" "$tmp/busy" \
	'^ +0x[0-9a-f]+ +AICPU_TS +0x[0-9a-f]+ +2 +[0-9]+ '
has "parked on notify 1 with queue depth 2" "$tmp/busy" \
	'AICPU_TS +0x[0-9a-f]+ +2 +2 +parked on notify 1 '
has "wrapped CPU_TS thread" "$tmp/busy" 'CPU_TS +0x[0-9a-f]+ +1 +[0-9]+ +[a-z]+.* wrapped$'
has "exported view" "$tmp/busy" 'CPU_TS +0x[0-9a-f]+ +2 +[0-9]+ .* view$'
has "device pool counts the fixture's streams" "$tmp/busy" \
	'^/dev/[a-zA-Z0-9/]+ +hcclthread [0-9.]+ +1\.[0-9]+ +4/[0-9]+ +7/[0-9]+ +1 '
has "device memory: the fixture's 3 MiB" "$tmp/busy" \
	'^/dev/[a-zA-Z0-9/]+ +hcclthread .* +[0-9]+ +[0-9]+  3\.0/[1-9][0-9]*M '
# Memory by process (fdinfo): the fixture's pid, its 3 MiB, all resident.
fpid=$(sed -n 's/.*COMM 0x[0-9a-f]* *pid \([0-9]*\) .*/\1/p' "$tmp/busy" | head -n 1)
has "memory by process: a section per device" "$tmp/busy" \
	'^/dev/[a-zA-Z0-9/]+: device memory by process '
has "memory by process: the fixture's pid, 3 MiB, 3 MiB resident, 1 file" "$tmp/busy" \
	"^  ${fpid:-nopid} +hcclt-smi-fixtu +3\.0M +3\.0M +1\$"

# Two processes: equal communicator ids in two files, threads kept apart.
hcclt-smi-fixture -- hcclt-smi-fixture -- hcclthread-smi > "$tmp/two" 2>&1
rc=$?
# Both files' first communicator has the same id, whatever it is.
cid=$(grep -o -m 1 'COMM 0x[0-9a-f]*' "$tmp/two")
n2=$(grep -c "${cid:-COMM none} .*threads 3/40  notifies 7/64" "$tmp/two")
nt=$(awk '/COMM 0x/ { if (c) printf "%d ", c; c = 0; next }
	/^ +0x[0-9a-f]+ +(AICPU_TS|CPU_TS) / { c++ } END { print c }' "$tmp/two")
if [ $rc = 0 ] && [ "$n2" = 2 ] && [ "$nt" = "5 5" ] && ! grep -q 'not matched' "$tmp/two"; then
	ok "two processes: 2 communicators with 5 thread rows each"
else
	notok "two processes: 2 communicators with 5 thread rows each (exit $rc, $n2 comms, $nt rows)"
	show "$tmp/two"
fi
np=$(grep -Ec '^  [0-9]+ +hcclt-smi-fixtu +3\.0M +3\.0M +1$' "$tmp/two")
if [ "$np" = 2 ]; then
	ok "two processes: memory by process shows each"
else
	notok "two processes: memory by process shows each ($np rows)"; show "$tmp/two"
fi

hcclt-smi-fixture -- hcclthread-smi --json > "$tmp/json" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && ok "--json: exit 0" || { notok "--json: exit 0 (got $rc)"; show "$tmp/err"; }
if hcclt-trace-check --json-only "$tmp/json" > "$tmp/out" 2>&1; then
	ok "--json output is valid JSON"; else
	notok "--json output is valid JSON"; show "$tmp/out"; show "$tmp/json"; fi
has "--json: quota numbers" "$tmp/json" \
	'"threads_used":3,"threads_max":40,"notifies_used":7,"notifies_max":64'
has "--json: parked thread" "$tmp/json" '"state":"parked","wait_notify":1'
has "--json: wrapped and view flags" "$tmp/json" '"wrapped":true,"view":false'
has "--json: device memory" "$tmp/json" '"memory":\{"used":3145728,"total":[1-9][0-9]*\}'
has "--json: memory by process" "$tmp/json" \
	'"processes":\[\{"pid":[0-9]+,"command":"hcclt-smi-fixtu","total":3145728,"resident":3145728,"files":1\}\]'

# --hangs: every parked wait, since when, on what and who should record it.
hcclthread-smi --hangs > "$tmp/out" 2>&1
has "--hangs, idle: no parked waits" "$tmp/out" '^no parked waits'
if [ "$(ls /dev/accel/accel* /dev/dri/renderD* 2>/dev/null | wc -l)" -ge 2 ]; then
	hcclt-smi-fixture --channel -- sh -c 'sleep 1; hcclthread-smi --hangs; hcclthread-smi --hangs --json > '"$tmp/hj" > "$tmp/hangs" 2>&1
	rc=$?
	[ $rc = 0 ] && ok "--hangs with a channel fixture: exit 0" ||
		{ notok "--hangs with a channel fixture: exit 0 (got $rc)"; show "$tmp/hangs"; }
	pid=$(sed -n 's/^group [^ ]*: rank 0 pid \([0-9]*\) .*/\1/p' "$tmp/hangs")
	chan=$(sed -n 's/.* waits on channel \(0x[0-9a-f]*\)$/\1/p' "$tmp/hangs")
	has "--hangs: the channel wait names the peer rank, its pid and device" "$tmp/hangs" \
		": rank 1 stream 0x[0-9a-f]+ \(pid $pid\) waits [1-9][0-9]*\.[0-9] s on channel $chan notify 0 from rank 0, pid $pid, device 0: no record queued\$"
	has "--hangs: the thread wait (fixture's thread 1)" "$tmp/hangs" \
		": stream 0x[0-9a-f]+ \(pid $pid\) waits [0-9]+\.[0-9] s on notify 1 of thread 0x[0-9a-f]+: no record queued\$"
	if hcclt-trace-check --json-only "$tmp/hj" > "$tmp/out" 2>&1; then
		ok "--hangs --json is valid JSON"; else
		notok "--hangs --json is valid JSON"; show "$tmp/out"; show "$tmp/hj"; fi
	has "--hangs --json: the channel wait" "$tmp/hj" \
		"\"wait\":\\{\"kind\":\"channel\",\"since_ns\":[0-9]+,\"waited_s\":[0-9.]+,\"owner_id\":\"$chan\",\"notify\":0,\"timeout_s\":0,\"record_queued\":false,\"rank\":1,\"peer_rank\":0,\"peer_device\":0,\"peer_pid\":$pid\\}"
else
	skip "--hangs with a channel" "needs 2 devices"
fi

# Another user: no access to a 0600 node, then only its own communicators.
if command -v su > /dev/null && grep -q '^nobody:' /etc/passwd; then
	node=$(ls /dev/accel/accel* /dev/dri/renderD* 2>/dev/null | head -n 1)
	mode=$(stat -c %a "$node" 2>/dev/null)
	chmod 600 "$node"
	su nobody -s /bin/sh -c 'hcclthread-smi' > "$tmp/out" 2>&1
	rc=$?
	if [ $rc = 3 ] && grep -q 'permission denied): is your user in group render' "$tmp/out"; then
		ok "unprivileged user, 0600 node: says permission denied, exit 3"
	else
		notok "unprivileged user, 0600 node (exit $rc)"; show "$tmp/out"
	fi
	chmod 666 "$node"
	hcclt-smi-fixture -- su nobody -s /bin/sh -c 'hcclthread-smi' > "$tmp/out" 2>&1
	rc=$?
	# The pools are the device's; communicators and files only its own
	# (QUERY's counts are for CAP_SYS_ADMIN): 0 communicators, 1 file.
	if [ $rc = 0 ] && grep -q ': 0 communicators of this user' "$tmp/out" &&
	   grep -Eq ' 4/[0-9]+ +7/[0-9]+ +0 +1 ' "$tmp/out" &&
	   ! grep -q 'hcclt-smi-fixtu' "$tmp/out"; then
		ok "unprivileged user sees the pools but not root's communicator, its count or memory"
	else
		notok "unprivileged user sees the pools but not root's communicator, its count or memory (exit $rc)"
		show "$tmp/out"
	fi
	[ -n "$mode" ] && chmod "$mode" "$node"
else
	skip "unprivileged user" "no su or no user nobody"
fi

# --watch refreshes: count the headers until there are 3 (the first frame
# and two refreshes). How fast they come depends on the host, so wait up to
# 120 s for them and fail only if they never come.
hcclthread-smi --watch 0.2 > "$tmp/watch" 2>&1 &
wpid=$!
i=0
c=0
while [ $i -lt 240 ]; do
	c=$(grep -c 'hcclthread-smi (uAPI' "$tmp/watch")
	[ "$c" -ge 3 ] && break
	kill -0 $wpid 2>/dev/null || break
	sleep 0.5 2>/dev/null || sleep 1
	i=$((i + 1))
done
kill $wpid 2>/dev/null
wait $wpid 2>/dev/null
c=$(grep -c 'hcclthread-smi (uAPI' "$tmp/watch")
[ "$c" -ge 3 ] && ok "--watch 0.2 refreshes ($c frames)" ||
	{ notok "--watch 0.2 refreshes (got $c frames)"; show "$tmp/watch"; }

# Timeline: 10 handshakes -> at least 10 arrows on 2 stream rows.
if [ -d /sys/kernel/tracing/events/hcclthread ] ||
   [ -d /sys/kernel/debug/tracing/events/hcclthread ]; then
	hcclthread-trace -o "$tmp/t.json" -r "$tmp/t.txt" -- \
		hcclt-smi-fixture --pingpong 10 > "$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && ok "hcclthread-trace records the fixture" ||
		{ notok "hcclthread-trace records the fixture (exit $rc)"; show "$tmp/out"; }
	if hcclt-trace-check --min-tasks 40 --min-flows 10 --min-streams 2 \
		"$tmp/t.json" > "$tmp/out2" 2>&1; then
		ok "trace JSON valid: >= 40 tasks, >= 10 arrows, >= 2 rows"
	else
		notok "trace JSON valid: >= 40 tasks, >= 10 arrows, >= 2 rows"
		show "$tmp/out"; show "$tmp/out2"; head -n 40 "$tmp/t.txt" | sed "s/^/# /"
	fi
	# Across ranks: the channel fixture's release (rank 0 records the
	# channel notify rank 1 waits on) is an arrow between two devices.
	hcclthread-trace -o "$tmp/c.json" -- hcclt-smi-fixture --channel > "$tmp/outc" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q ' (1 across ranks)' "$tmp/outc" &&
	   grep -q '"ph":"f","bp":"e","name":"channel","cat":"channel"' "$tmp/c.json" &&
	   hcclt-trace-check --min-flows 1 "$tmp/c.json" > /dev/null 2>&1; then
		ok "hcclthread-trace: a channel record's arrow to the peer rank's wait"
	else
		notok "hcclthread-trace: a channel record's arrow to the peer rank's wait (exit $rc)"
		show "$tmp/outc"
	fi
	# -r writes the records as ftrace text (libtraceevent); -i reads it
	# back to the same timeline.
	want=$(sed -n 's/^hcclthread-trace: \(.*\) -> .*/\1/p' "$tmp/out")
	hcclthread-trace -i "$tmp/t.txt" -o "$tmp/t5.json" > "$tmp/out5" 2>&1
	got=$(sed -n 's/^hcclthread-trace: \(.*\) -> .*/\1/p' "$tmp/out5")
	[ -n "$want" ] && [ "$got" = "$want" ] &&
		hcclt-trace-check --min-flows 10 "$tmp/t5.json" > /dev/null 2>&1 &&
		ok "-r text converts with -i to the same timeline" ||
		{ notok "-r text converts with -i to the same timeline"
		  echo "# recorded: $want"; echo "# from text: $got"; }
	hcclthread-smi trace -o "$tmp/t2.json" -- true > "$tmp/out" 2>&1
	rc=$?
	[ $rc = 0 ] && hcclt-trace-check "$tmp/t2.json" > /dev/null 2>&1 &&
		ok "hcclthread-smi trace -- true: valid, empty timeline" ||
		{ notok "hcclthread-smi trace -- true"; show "$tmp/out"; }
	hcclthread-smi trace -o "$tmp/t3.json" -- sh -c 'exit 7' > "$tmp/out" 2>&1
	rc=$?
	[ $rc = 7 ] && ok "trace exits with the command's status" ||
		notok "trace exits with the command's status (got $rc)"
	if ls -d /sys/kernel/tracing/instances/hcclthread-trace-* \
		/sys/kernel/debug/tracing/instances/hcclthread-trace-* > /dev/null 2>&1; then
		notok "trace leaves no tracefs instance behind"
	else
		ok "trace leaves no tracefs instance behind"
	fi
	# No fallback: when its own instance cannot be made (here "instances"
	# is a file in a stand-in tracefs), the recorder stops. It neither
	# runs CMD nor writes the global buffer's files.
	fake=$tmp/fake-tracefs
	mkdir -p "$fake/events/hcclthread" && : > "$fake/instances" &&
		echo 0 > "$fake/tracing_on" && echo sentinel > "$fake/trace" &&
		echo 0 > "$fake/events/hcclthread/enable"
	# In a mount namespace of its own: nobody else sees the stand-in.
	unshare -m sh -c 'mount -o bind "$1" /sys/kernel/tracing || exit 99
		exec hcclthread-trace -o "$2" -- touch "$3"' \
		sh "$fake" "$tmp/t4.json" "$tmp/ran" > "$tmp/out" 2>&1
	rc=$?
	if [ $rc != 99 ]; then
		if [ $rc = 1 ] && [ ! -e "$tmp/ran" ] && [ ! -e "$tmp/t4.json" ] &&
		   grep -q 'cannot make the trace instance' "$tmp/out" &&
		   [ "$(cat "$fake/tracing_on")" = 0 ] &&
		   [ "$(cat "$fake/trace")" = sentinel ] &&
		   [ "$(cat "$fake/events/hcclthread/enable")" = 0 ]; then
			ok "no trace instance: exit 1, CMD not run, global buffer untouched"
		else
			notok "no trace instance: exit 1, CMD not run, global buffer untouched (exit $rc)"
			show "$tmp/out"
		fi
	else
		skip "no trace instance: no fallback" "cannot bind-mount over /sys/kernel/tracing in a mount namespace"
	fi
else
	skip "hcclthread-trace" "no hcclthread tracepoints in tracefs"
fi

if [ $loaded_here = 1 ]; then
	rmmod hcclthread && ok "rmmod after the tests" || notok "rmmod after the tests"
fi
rm -rf "$tmp"
echo "1..$n"
echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
