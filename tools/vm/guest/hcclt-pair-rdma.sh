# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest scripts of tools/vm/run-pair (hcclt-pair-smoke,
# hcclt-pair-bench): who this guest is, and helpers for a verbs program
# whose server side (on A, the netdev server) must listen before the
# client side (on B) starts.
# shellcheck shell=sh
# shellcheck source=/dev/null
[ -n "${HCCLT_NET_ROLE:-}" ] || . /run/env
pair_sync() { sh /opt/hcclt/bin/hcclt-pair-sync "$@"; }

# pair_gid_index [ADDR]: the index of rxe0's RoCE v2 GID for the IPv4
# address (default this guest's), ::ffff:a.b.c.d in the GID table.
pair_gid_index() {
	want=$(echo "${1:-$HCCLT_NET_ADDR}" |
		awk -F. '{ printf "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x", $1, $2, $3, $4 }')
	d=/sys/class/infiniband/rxe0/ports/1
	for i in $(seq 0 15); do
		[ "$(cat "$d/gids/$i" 2>/dev/null)" = "$want" ] || continue
		[ "$(cat "$d/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] || continue
		echo "$i"
		return 0
	done
	return 1
}

# pair_wait_listen PORT [SEC]: until a TCP socket listens on PORT (the
# out-of-band exchange of ibv_rc_pingpong and perftest, 18515).
pair_wait_listen() {
	hex=$(printf ':%04X ' "$1")
	for _ in $(seq $((${2:-30} * 10))); do
		awk -v p="$hex" 'index($2 " ", p) && $4 == "0A" { f = 1 } END { exit !f }' \
			/proc/net/tcp && return 0
		sleep 0.1
	done
	return 1
}

# pair_verbs NAME CMD...: run a verbs program that takes the server's
# address as its last argument: on A, CMD as the server (in the
# background, until it listens on 18515, then the barrier NAME, then its
# end); on B, the barrier NAME, then CMD HCCLT_NET_PEER. The exit status
# is the program's (or 1 when the barrier failed).
pair_verbs() {
	pv_name=$1
	shift
	if [ "$HCCLT_NET_ROLE" = server ]; then
		"$@" &
		pv_pid=$!
		if ! pair_wait_listen 18515 60; then
			echo "pair_verbs: $1 is not listening on 18515 after 60 s"
			kill "$pv_pid" 2>/dev/null
		fi
		pair_sync "$pv_name" || { kill "$pv_pid" 2>/dev/null; wait "$pv_pid"; return 1; }
		wait "$pv_pid"
	else
		pair_sync "$pv_name" || return 1
		"$@" "$HCCLT_NET_PEER"
	fi
}
