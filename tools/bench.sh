#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tools/bench.sh (make bench): the benchmarks, inside a VM, with baselines
# measured in the same run. Writes build/bench.md. Never part of make check.
# Per kernel (BENCH_KERNELS, default 6.12): hcclt-bench and friends in one
# guest; the two-guest baselines of the kernel's RDMA stack over soft-RoCE
# (tools/vm/run-pair, hcclt-pair-bench: WRITE and send/receive round trips,
# a 64 MiB WRITE; figures also in build/bench-KERNEL/pair/b/pair.env);
# the collectives under mpirun. BENCH_PARTS picks among "single pair coll"
# (default all three; BENCH_COLL=0 leaves out coll as before).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
export BUILD=${BUILD:-$top/build}
# shellcheck source=tools/vm/kernels.sh
. tools/vm/kernels.sh
kernels=${BENCH_KERNELS:-$(hcclt_default_kernel)}
make -s lib tools
rm -f "$BUILD/bench.md"
parts=" ${BENCH_PARTS:-single pair coll} "
[ "${BENCH_COLL:-1}" = 1 ] || parts=${parts/ coll / }
rc=0
for k in $kernels; do
	tools/build-module "$k" > /dev/null
	rm -rf "$BUILD/bench-$k"
	mkdir -p "$BUILD/bench-$k"
	if [[ $parts == *" single "* ]]; then
	# 3 GB: the AllGather's 8 ranks map 8 x (64 MiB buffer + 72 MiB).
	VM_MEM=3072 VM_OUT=$BUILD/bench-$k tools/vm/run --kernel "$k" --timeout 1200 -- \
		sh -c 'hcclt-bench -o /out/bench.md && hcclt-bench-launch -o /out/bench.md && hcclt-bench-allgather -o /out/bench.md'
	cat "$BUILD/bench-$k/bench.md" >> "$BUILD/bench.md"
	fi

	# Two guests (issue 33): the kernel's RDMA stack between them, in
	# one boot; the rows later work compares its own with.
	if [[ $parts == *" pair "* ]]; then
		pdir=$BUILD/bench-$k/pair
		prc=0
		# The host's load goes in the table: the guests' figures follow it.
		cut -d' ' -f1-3 /proc/loadavg > "$BUILD/bench-$k/host-load"
		VM_OUT=$pdir HCCLT_MODPARAMS_A=cluster_addr=10.0.0.1 \
			HCCLT_MODPARAMS_B=cluster_addr=10.0.0.2 \
			tools/vm/run-pair --kernel "$k" --timeout 900 \
			--add "$BUILD/bench-$k/host-load:/run/host-load" -- \
			sh /opt/hcclt/bin/hcclt-pair-bench || prc=$?
		if [ -f "$pdir/b/pair.md" ]; then
			cat "$pdir/b/pair.md" >> "$BUILD/bench.md"
		fi
		if [ "$prc" != 0 ]; then
			echo "bench: the two-guest run failed (exit $prc)" >&2
			rc=1
		fi
	fi
	[[ $parts == *" coll "* ]] || continue

	# The collectives (issue 30): hcclt-bench-coll under mpirun, one
	# process per card, HCCL against Open MPI in the same run, in a guest
	# with Open MPI. 64 MiB for the four collectives and the 8-byte
	# AllReduce latency, then AllReduce from 8 B to 256 MiB. A side's
	# buffers are freed before the other's are allocated, so the sweep's
	# peak is 8 ranks x (2 x 256 MiB + the HCCL buffer): 8 x 576 MiB with
	# HCCL_BUFFSIZE=64, plus the guest and Open MPI: in 7 GB, the run of
	# 12-07 left 0.35 GiB available at its lowest, hence 8 GB.
	# /out/mem.txt keeps the guest's lowest MemAvailable.
	cdir=$BUILD/bench-$k/coll
	rm -rf "$cdir"
	crc=0
	VM_MEM=${BENCH_COLL_MEM:-8192} VM_OUT=$cdir \
		tools/vm/run --with-mpi --kernel "$k" --timeout "${BENCH_COLL_TIMEOUT:-3600}" -- \
		sh /opt/hcclt/bin/hcclt-bench-coll-run "${BENCH_HCCL_BUFFSIZE:-64}" \
		"${BENCH_COLL_MAX:-256M}" || crc=$?
	for f in coll.md sweep.md; do
		if [ -f "$cdir/$f" ]; then
			cat "$cdir/$f" >> "$BUILD/bench.md"
		fi
	done
	if [ -f "$cdir/mem.txt" ]; then
		printf '\nGuest memory (VM_MEM=%s MB): %s\n' "${BENCH_COLL_MEM:-8192}" \
			"$(cat "$cdir/mem.txt")" >> "$BUILD/bench.md"
	fi
	if [ -f "$cdir/sweep.csv" ] && command -v gnuplot > /dev/null; then
		gnuplot -e "csv='$cdir/sweep.csv'; out='$BUILD/bench-allreduce-$k.svg'" \
			-e "title='AllReduce, 8 ranks in 8 processes: bus bandwidth ($k, QEMU TCG)'" \
			tools/bench/plot-coll.gp
		echo "bench: AllReduce plot in $BUILD/bench-allreduce-$k.svg"
	fi
	if [ "$crc" != 0 ]; then
		echo "bench: the collectives' run failed (exit $crc)" >&2
		rc=1
	fi
done
echo "bench: results in $BUILD/bench.md"
exit $rc
