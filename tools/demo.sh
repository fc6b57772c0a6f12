#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/demo.sh (make demo): build, boot a VM with the module, run the three
# examples of the HCCL documentation, the multi-rank example (ranks as
# threads, then as processes), the example ring AllGather custom operator
# on every card, HCCL's AllReduce on every card (with its bus bandwidth),
# the status tool, and the hierarchical AllGather on two servers of 8
# cards (16 ranks), and say what happened. The handshake example's
# timeline lands in build/demo/.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export BUILD=${BUILD:-$top/build}
# shellcheck source=tools/vm/kernels.sh
. tools/vm/kernels.sh
k=${DEMO_KERNEL:-$(hcclt_default_kernel)}
[ -n "$k" ] || { echo "demo: no test kernel installed (make deps installs it)" >&2; exit 1; }

echo "== building the library, the tools and the module for Linux $k"
mkdir -p "$BUILD"
make -s lib tools > "$BUILD/demo-build.log" 2>&1 ||
	{ cat "$BUILD/demo-build.log"; exit 1; }
tools/build-module "$k" >> "$BUILD/demo-build.log" 2>&1 ||
	{ cat "$BUILD/demo-build.log"; exit 1; }
rm -rf "$BUILD/demo"
mkdir -p "$BUILD/demo"
echo "== booting a QEMU guest (Linux $k, TCG), loading drm and hcclthread"
VM_MEM=${VM_MEM:-2048} VM_OUT=$BUILD/demo tools/vm/run --kernel "$k" -- sh /opt/hcclt/bin/hcclt-demo
echo
if [ -f "$BUILD/demo/handshake.json" ]; then
	echo "== the handshake's timeline: $BUILD/demo/handshake.json"
	echo "   open it in https://ui.perfetto.dev or chrome://tracing: one row per"
	echo "   stream, one box per task, arrows from each record to the wait it released."
fi
echo "== the module unloaded cleanly and the guest kernel log shows no warning."
