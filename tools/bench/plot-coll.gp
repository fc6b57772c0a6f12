# SPDX-License-Identifier: MIT
# tools/bench/plot-coll.gp: the AllReduce sweep of hcclt-bench-coll (its
# -C CSV) as an SVG: busbw of HCCL (libhccl) and of Open MPI against the
# message size, and the memcpy limit of the simulated card.
#   gnuplot -e "csv='sweep.csv'; out='allreduce.svg'; title='...'" plot-coll.gp
if (!exists("csv")) csv = 'sweep.csv'
if (!exists("out")) out = 'allreduce.svg'
if (!exists("title")) title = 'AllReduce, 8 ranks: bus bandwidth'
set terminal svg size 800,480 dynamic font 'sans,12'
set output out
set datafile separator ','
set key bottom right
set title title
set logscale x 2
set logscale y 10
set format x '%.0b%B'
set format y '%g'
set xlabel 'message size (bytes; nccl-tests: the AllReduce buffer)'
set ylabel 'busbw (GB/s)'
set grid xtics ytics mytics
# Columns: 1 collective, 2 kind, 3 bytes, 11 hccl_busbw, 16 mpi_busbw, 18 memcpy_gbs.
ar(c) = (strcol(1) eq 'AllReduce' && strcol(2) eq 'bandwidth' && strcol(c) ne '') ? column(c) : NaN
plot csv every ::1 using 3:(ar(11)) with linespoints lw 2 pt 7 title 'HCCL (libhccl, hcclthread)', \
     csv every ::1 using 3:(ar(16)) with linespoints lw 2 pt 5 title 'Open MPI', \
     csv every ::1 using 3:(ar(18)) with lines dt 2 lw 1 title 'memcpy limit (aclrtMemcpy D2D)'
