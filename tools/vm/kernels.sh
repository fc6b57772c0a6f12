# SPDX-License-Identifier: GPL-2.0
# Sourced by tools/vm/run and the Makefile: which kernels tests run on.
# Debian test kernels are resolved from what is installed (make deps installs
# the newest of each series), never from a hard-coded patch level.

# hcclt_debian_kernel SERIES: newest installed release of a series with both
# an image and headers (6.1 -> 6.1.0-N-amd64, 6.1-rt -> 6.1.0-N-rt-amd64,
# the PREEMPT_RT flavour, 6.12 -> 6.12.N+deb12-amd64).
hcclt_debian_kernel() {
	local re
	case "$1" in
	6.1) re='^6\.1\.0-[0-9]+-amd64$' ;;
	6.1-rt) re='^6\.1\.0-[0-9]+-rt-amd64$' ;;
	6.12) re='^6\.12\.[0-9]+\+deb12-amd64$' ;;
	*) return 1 ;;
	esac
	(cd /boot 2>/dev/null && ls -d vmlinuz-* 2>/dev/null) |
		sed 's/^vmlinuz-//' | grep -E "$re" | while read -r r; do
			[ -d "/usr/src/linux-headers-$r" ] && [ -d "/lib/modules/$r" ] && echo "$r"
		done | sort -V | tail -n 1
}

# Guest kernel log lines that fail a VM run (tools/vm/run; an extended
# regular expression): warnings, bugs, sanitizer and lockdep reports, hangs,
# and the reports after which a checker silently stops checking (lockdep on
# a non-static key or after a taint, kmemleak and debugobjects turning
# themselves off). tools/vm/test-reports checks it against sample lines.
HCCLT_KERNEL_REPORTS='WARNING:|BUG:|Oops|KASAN|UBSAN|possible recursive locking|circular locking|inconsistent lock state|blocked for more than|hung_task|Kernel panic|general protection fault|refcount_t:|list_(add|del) corruption|RCU stall|rcu_.* (self-)?detected stall|soft lockup|hard LOCKUP'
HCCLT_KERNEL_REPORTS+='|trying to register non-static key|turning off the locking correctness validator|Disabling lock debugging|lockdep is turned off|Kmemleak disabled|memory leak detector disabled|ODEBUG disabled'

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
