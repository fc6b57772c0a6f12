#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Device pool exhaustion and module load/unload checks of hcclthread.
# Needs root and the module file: $HCCLT_MODULE, else
# /opt/hcclt/hcclthread.ko, else what modinfo finds. Reloads the module
# with small pools (sim_streams=8 sim_notifies=16), runs
# hcclt_pools_helper, checks that nonsense parameters are refused at load
# time with a log line, that unload/reload leaves nothing bad in the
# kernel log, and finally restores the module as it was.
#
# POSIX sh (runs under busybox).

ksft_skip=4
DIR=$(cd "$(dirname "$0")" && pwd)
HELPER="$DIR/hcclt_pools_helper"
MODNAME=hcclthread
PARAMS="sim_devices sim_streams sim_notifies sim_soc"
num=0
fails=0
MARK="hcclt_pools.sh-$$"

ok() { num=$((num + 1)); echo "ok $num - $*"; }
nok() { num=$((num + 1)); fails=$((fails + 1)); echo "not ok $num - $*"; }
skip() { echo "1..0 # SKIP $*"; exit $ksft_skip; }

loaded() { [ -d /sys/module/$MODNAME ]; }

find_module() {
	if [ -n "$HCCLT_MODULE" ] && [ -f "$HCCLT_MODULE" ]; then
		echo "$HCCLT_MODULE"; return 0
	fi
	if [ -f /opt/hcclt/hcclthread.ko ]; then
		echo /opt/hcclt/hcclthread.ko; return 0
	fi
	f=$(modinfo -n $MODNAME 2>/dev/null) ||
		f=$(modinfo -F filename $MODNAME 2>/dev/null) ||
		f=$(modinfo $MODNAME 2>/dev/null | sed -n 's/^filename:[ 	]*//p')
	[ -n "$f" ] && [ -f "$f" ] && { echo "$f"; return 0; }
	return 1
}

# Kernel log lines since the last mark.
mark() { echo "$MARK $1" > /dev/kmsg 2>/dev/null; LASTMARK="$MARK $1"; }
log_since_mark() { dmesg | sed -n "/$LASTMARK/,\$p" | sed 1d; }

# Reports that must never appear (same list as the VM runner).
BADLOG='WARNING:|BUG:|Oops|KASAN|UBSAN|kmemleak|possible recursive locking|circular locking|inconsistent lock state|hung task|Call Trace'

check_clean_log() {
	bad=$(dmesg | sed -n "/$MARK start/,\$p" | grep -E "$BADLOG")
	if [ -n "$bad" ]; then
		nok "kernel log clean after $1"
		echo "$bad" | sed 's/^/#   /'
	else
		ok "kernel log clean after $1"
	fi
}

unload() {
	loaded || return 0
	_tries=0
	while ! rmmod $MODNAME 2>/dev/null; do
		_tries=$((_tries + 1))
		[ $_tries -ge 300 ] && return 1
		sleep 0.1 2>/dev/null || sleep 1
	done
	return 0
}

[ "$(id -u)" = 0 ] || skip "needs root"
command -v insmod >/dev/null 2>&1 && command -v rmmod >/dev/null 2>&1 ||
	skip "insmod/rmmod not found"
MOD=$(find_module) || skip "no $MODNAME.ko found (set HCCLT_MODULE)"
[ -x "$HELPER" ] || skip "$HELPER missing"
[ -w /dev/kmsg ] || skip "/dev/kmsg not writable"

# Remember how the module was loaded, to restore it at the end.
was_loaded=0
orig=""
if loaded; then
	was_loaded=1
	for p in $PARAMS; do
		f=/sys/module/$MODNAME/parameters/$p
		[ -r "$f" ] && orig="$orig $p=$(cat "$f")"
	done
fi

mark start
echo "# module: $MOD (loaded: $was_loaded${orig:+, params:$orig})"
unload || skip "cannot unload $MODNAME (in use?)"

restore() {
	unload
	if [ $was_loaded = 1 ]; then
		# shellcheck disable=SC2086
		insmod "$MOD" $orig || insmod "$MOD"
	fi
}
trap restore EXIT

# 1. nonsense parameters are refused at load time, with a log line
# (sim_notifies=0 is a valid device: threads with no notifies only)
for args in "sim_streams=0" "sim_streams=4294967295" \
	    "sim_notifies=4294967295" "sim_streams=-1" "sim_devices=-1" \
	    "sim_soc=Ascend310P3" "sim_soc=" \
	    "sim_memory_mb=1048577" "sim_memory_mb=-1"; do
	pname=${args%%=*}
	mark "$args"
	if insmod "$MOD" "$args" 2>/dev/null; then
		nok "load with $args refused"
		unload
		continue
	fi
	if loaded; then
		nok "load with $args refused (module present)"
		unload
		continue
	fi
	if log_since_mark | grep -q -e "$pname" -e "$MODNAME"; then
		ok "load with $args refused with a log line"
	else
		nok "load with $args refused with a log line"
		log_since_mark | sed 's/^/#   /'
	fi
done

# 2. small pools: -ENOSPC, distinct from -EDQUOT
mark small
if insmod "$MOD" sim_streams=8 sim_notifies=16; then
	ok "load with sim_streams=8 sim_notifies=16"
	out=$("$HELPER" --streams 8 --notifies 16 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	if [ $rc = 0 ]; then
		ok "pool exhaustion is -ENOSPC, pools refill"
	else
		nok "pool exhaustion is -ENOSPC, pools refill"
	fi
	if unload; then ok "unload (small pools)"; else nok "unload (small pools)"; fi
else
	nok "load with sim_streams=8 sim_notifies=16"
	log_since_mark | sed 's/^/#   /'
fi

# 3. number of devices
for n in 2 0; do
	mark "devices $n"
	if insmod "$MOD" sim_devices=$n; then
		got=$("$HELPER" --count-devices)
		if [ "$got" = "$n" ]; then
			ok "sim_devices=$n gives $n device nodes"
		else
			nok "sim_devices=$n gives $n device nodes (got $got)"
		fi
		if unload; then ok "unload (sim_devices=$n)"; else nok "unload (sim_devices=$n)"; fi
	else
		nok "load with sim_devices=$n"
		log_since_mark | sed 's/^/#   /'
	fi
done

# 4. a fence fd keeps the module until it is closed
mark "fence outlives"
if insmod "$MOD"; then
	out=$("$HELPER" --fence-outlives 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	if [ $rc = 0 ]; then
		ok "a fence fd holds the module after its DRM file closed"
	else
		nok "a fence fd holds the module after its DRM file closed"
	fi
	loaded && unload
else
	nok "load for the fence test"
fi

# 4b. so does a dma-buf of a peer's HCCL buffer, and its mapping
mark "dma-buf outlives"
if insmod "$MOD" sim_devices=2; then
	out=$("$HELPER" --dmabuf-outlives 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	if [ $rc = 0 ]; then
		ok "a channel buffer's dma-buf holds the module after its DRM files closed"
	else
		nok "a channel buffer's dma-buf holds the module after its DRM files closed"
	fi
	loaded && unload
else
	nok "load for the dma-buf test"
fi

# 5. unload / reload with defaults, a few times
n=0
reload_ok=1
while [ $n -lt 3 ]; do
	insmod "$MOD" || reload_ok=0
	[ "$("$HELPER" --count-devices)" = 8 ] || reload_ok=0
	unload || reload_ok=0
	n=$((n + 1))
done
if [ $reload_ok = 1 ]; then ok "reload with defaults x3"; else nok "reload with defaults x3"; fi

# 6. sim_soc names the SoC; userspace reads it from sysfs
for soc in Ascend910B1 Ascend910_9391 Ascend950PR; do
	if [ "$soc" = Ascend910B1 ]; then insmod "$MOD"; else insmod "$MOD" "sim_soc=$soc"; fi ||
		{ nok "load with sim_soc=$soc"; continue; }
	got=$(cat /sys/module/$MODNAME/parameters/sim_soc)
	if [ "$got" = "$soc" ]; then
		ok "sim_soc $soc (default Ascend910B1) in sysfs"
	else
		nok "sim_soc $soc in sysfs (got $got)"
	fi
	unload
done

# 7. probing is not assumed synchronous: with the kernel's generic
# async_probe parameter the devices are probed after the load returned
mark "async probe"
if insmod "$MOD" async_probe=1; then
	ok "load with async_probe=1"
	got=0
	n=0
	while [ $n -lt 300 ]; do
		got=$("$HELPER" --count-devices)
		[ "$got" = 8 ] && break
		sleep 0.1 2>/dev/null || sleep 1
		n=$((n + 1))
	done
	if [ "$got" = 8 ]; then
		ok "async_probe=1 gives 8 device nodes"
	else
		nok "async_probe=1 gives 8 device nodes (got $got)"
	fi
	if unload; then ok "unload (async_probe=1)"; else nok "unload (async_probe=1)"; fi
else
	nok "load with async_probe=1"
	log_since_mark | sed 's/^/#   /'
fi

check_clean_log "load/unload"

restore
trap - EXIT
if [ $was_loaded = 1 ] && ! loaded; then
	nok "module restored"
fi
echo "1..$num"
[ $fails = 0 ] || exit 1
exit 0
