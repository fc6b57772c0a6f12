#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/deps.sh: install every Debian package hcclthread needs (idempotent).
# Test kernels: the newest 6.1 (bookworm), 6.1 PREEMPT_RT (bookworm's
# linux-image-rt-amd64) and 6.12 (+deb12) releases that apt offers with both
# an image and headers, resolved at run time. Open MPI (openmpi-bin,
# libopenmpi-dev) is make bench's baseline for the collectives and runs in
# the guest (tools/vm/run --with-mpi); gnuplot-nox draws the plot of
# Documentation/performance.rst. The two-guest runs (tools/vm/run-pair,
# soft-RoCE) pack iproute2's ip and rdma, libibverbs with its rxe provider
# (ibverbs-providers), librdmacm, and the test programs of ibverbs-utils
# (ibv_devinfo, ibv_rc_pingpong), rdmacm-utils (rping) and perftest
# (ib_write_lat, ib_write_bw).
set -euo pipefail

if [ "$(id -u)" != 0 ]; then
	echo "deps: must run as root (apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive

# bookworm-backports carries older 6.12 kernels; add it when missing.
if ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	echo "deps: adding bookworm-backports"
	cat > /etc/apt/sources.list.d/hcclthread-backports.sources <<'SRC'
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
	rm -f /var/lib/apt/periodic/hcclthread-updated
fi
stamp=/var/lib/apt/periodic/hcclthread-updated
mkdir -p /var/lib/apt/periodic
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +720)" ]; then
	apt-get update -qq || apt-get update -qq -o APT::Update::Error-Mode=any || true
	touch "$stamp"
fi

newest() { # newest package name matching an extended regex, by version order
	apt-cache search --names-only "$1" | awk '{print $1}' | sort -V | tail -n 1
}
h61=$(newest '^linux-headers-6\.1\.0-[0-9]+-amd64$')
h612=$(newest '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$')
hrt=$(newest '^linux-headers-6\.1\.0-[0-9]+-rt-amd64$')
[ -n "$h61" ] && [ -n "$h612" ] && [ -n "$hrt" ] || { echo "deps: cannot resolve test kernels from apt" >&2; exit 1; }
r61=${h61#linux-headers-}
r612=${h612#linux-headers-}
rrt=${hrt#linux-headers-}
imgrt=linux-image-$rrt
apt-cache show "$imgrt" >/dev/null 2>&1 || imgrt=linux-image-$rrt-unsigned
img61=linux-image-$r61
apt-cache show "$img61" >/dev/null 2>&1 || img61=linux-image-$r61-unsigned
img612=linux-image-$r612-unsigned
apt-cache show "$img612" >/dev/null 2>&1 || img612=linux-image-$r612

pkgs=(build-essential clang pkg-config libdrm-dev qemu-system-x86
	busybox-static cpio rsync sparse xz-utils kmod bc bison flex libelf-dev
	libssl-dev linux-source-6.1 linux-source-6.12
	"$img61" "$h61" "$img612" "$h612" "$imgrt" "$hrt"
	libtracefs-dev libtraceevent-dev libjson-c-dev
	openmpi-bin libopenmpi-dev gnuplot-nox
	iproute2 libibverbs1 ibverbs-providers librdmacm1 ibverbs-utils
	rdmacm-utils perftest)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "deps: installing ${missing[*]}"
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "deps: ok (kernels $r61, $r612, $rrt)"
