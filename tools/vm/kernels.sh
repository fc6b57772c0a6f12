# SPDX-License-Identifier: GPL-2.0
# Sourced by tools/vm/run and the Makefile: which kernels tests run on.
# Debian test kernels are resolved from what is installed (make deps installs
# the newest of each series), never from a hard-coded patch level.

# hcclt_debian_kernel SERIES: newest installed release of a series with both
# an image and headers (6.1 -> 6.1.0-N-amd64, 6.12 -> 6.12.N+deb12-amd64,
# 6.1-rt -> 6.1.0-N-rt-amd64, Debian's PREEMPT_RT build of 6.1).
hcclt_debian_kernel() {
	local pat not='^$'
	case "$1" in
	6.1) pat='6.1.0-[0-9]*-amd64' not='-rt-' ;;
	6.12) pat='6.12.[0-9]*+deb12-amd64' ;;
	6.1-rt) pat='6.1.0-[0-9]*-rt-amd64' ;;
	*) return 1 ;;
	esac
	# shellcheck disable=SC2086
	(cd /boot 2>/dev/null && ls -d vmlinuz-$pat 2>/dev/null) |
		sed 's/^vmlinuz-//' | grep -v -e "$not" | while read -r r; do
			[ -d "/usr/src/linux-headers-$r" ] && [ -d "/lib/modules/$r" ] && echo "$r"
		done | sort -V | tail -n 1
}

hcclt_default_kernel() {
	hcclt_debian_kernel 6.12
}

# hcclt_kernel_paths RELEASE: sets KIMAGE, KMODDIR (root holding
# lib/modules/RELEASE), KBUILD (tree for out-of-tree modules), KDEBUG, KAPPEND.
hcclt_kernel_paths() {
	local r=$1 top d
	top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	KAPPEND=
	if [ -f "/boot/vmlinuz-$r" ] && [ -d "/lib/modules/$r" ]; then
		KIMAGE=/boot/vmlinuz-$r
		KMODDIR=/
		KBUILD=/lib/modules/$r/build
		KDEBUG=0
		return 0
	fi
	for d in "${BUILD:-$top/build}"/debug-kernel/*/; do
		[ -f "$d/release" ] && [ "$(cat "$d/release")" = "$r" ] || continue
		KIMAGE=$d/bzImage
		KMODDIR=$d/modroot
		KBUILD=$d/obj
		KDEBUG=1
		KAPPEND="kasan.fault=report"
		return 0
	done
	return 1
}
