#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/bench.sh (make bench): the benchmarks, inside a VM, with baselines
# measured in the same run. Writes build/bench.md. Never part of make check.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export BUILD=${BUILD:-$top/build}
# shellcheck source=tools/vm/kernels.sh
. tools/vm/kernels.sh
kernels=${BENCH_KERNELS:-$(hcclt_default_kernel)}
make -s lib tools
rm -f "$BUILD/bench.md"
for k in $kernels; do
	tools/build-module "$k" > /dev/null
	rm -rf "$BUILD/bench-$k"
	# 3 GB: the AllGather's 8 ranks map 8 x (64 MiB buffer + 72 MiB).
	VM_MEM=3072 VM_OUT=$BUILD/bench-$k tools/vm/run --kernel "$k" --timeout 1200 -- \
		sh -c 'hcclt-bench -o /out/bench.md && hcclt-bench-allgather -o /out/bench.md'
	cat "$BUILD/bench-$k/bench.md" >> "$BUILD/bench.md"
done
echo "bench: results in $BUILD/bench.md"
