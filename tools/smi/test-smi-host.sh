#!/bin/sh
# SPDX-License-Identifier: MIT
# Host test of hcclthread-smi: the paths that need no device (usage, exit
# codes, messages, the trace converter through "smi trace -i").
# Usage: test-smi-host.sh BINDIR. Prints TAP; non-zero exit on failure.
BIN=${1:-../../build/bin}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hcclt-smi-host.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $1"; sed 's/^/# /' "$tmp/out"; }
rc_is() { # rc_is WANT NAME CMD...
	want=$1 name=$2
	shift 2
	"$@" > "$tmp/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$name"; else notok "$name (exit $rc, want $want)"; fi
}

echo "TAP version 13"
rc_is 3 "no device: exit 3" env HCCLT_DEVICE=/nonexistent "$BIN/hcclthread-smi"
rc_is 3 "not a DRM node: exit 3" env HCCLT_DEVICE=/dev/null "$BIN/hcclthread-smi"
grep -q 'not an hcclthread device' "$tmp/out" && ok "not a DRM node: says so" ||
	notok "not a DRM node: says so"
rc_is 3 "-d /dev/null: exit 3" "$BIN/hcclthread-smi" -d /dev/null
rc_is 3 "-d 7 (no such index): exit 3" env HCCLT_DEVICE=/nonexistent "$BIN/hcclthread-smi" -d 7
rc_is 3 "--json without device: exit 3" env HCCLT_DEVICE=/nonexistent "$BIN/hcclthread-smi" --json
rc_is 2 "unknown option: exit 2" "$BIN/hcclthread-smi" --bogus
rc_is 2 "extra argument: exit 2" "$BIN/hcclthread-smi" extra
rc_is 2 "--watch=0: exit 2" "$BIN/hcclthread-smi" --watch=0
rc_is 2 "--watch x: exit 2" "$BIN/hcclthread-smi" --watch=x
for w in nan inf 1e-12 0.05 1e300; do
	rc_is 2 "--watch=$w (not a number of seconds in 0.1..86400): exit 2" \
		"$BIN/hcclthread-smi" --watch=$w
done
rc_is 3 "HCCLT_DEVICE is a list: -d 1 is its second non-empty entry" \
	env HCCLT_DEVICE=/nonexistent::/dev/null "$BIN/hcclthread-smi" -d 1
grep -q '^/dev/null .*not an hcclthread device' "$tmp/out" &&
	ok "HCCLT_DEVICE entry 1 is /dev/null" || notok "HCCLT_DEVICE entry 1 is /dev/null"
# A path that is not UTF-8 (and holds a quote) still gives strict JSON.
rc_is 3 "--json with a non-UTF-8 node path: exit 3" \
	"$BIN/hcclthread-smi" --json -d "$(printf '/tmp/\377\376"x')"
cp "$tmp/out" "$tmp/bad-path.json"
rc_is 0 "its JSON is valid UTF-8 (U+FFFD for the bad bytes)" \
	"$BIN/hcclt-trace-check" --json-only "$tmp/bad-path.json"
rc_is 0 "--help: exit 0" "$BIN/hcclthread-smi" --help
grep -q 'hcclthread-smi trace' "$tmp/out" && ok "--help mentions trace" || notok "--help mentions trace"
rc_is 2 "trace without a command: exit 2" "$BIN/hcclthread-smi" trace
rc_is 0 "smi trace -i converts the sample" "$BIN/hcclthread-smi" trace \
	-i "$here/../trace/testdata/handshake.txt" -o "$tmp/hs.json"
rc_is 0 "its output is a valid trace with 3 arrows" \
	"$BIN/hcclt-trace-check" --min-flows 3 "$tmp/hs.json"
echo "1..$n"
echo "$((n - fails)) passed, $fails failed"
[ $fails = 0 ]
