#!/usr/bin/env bash
# GPU checks of the tools and the newer lowerings (see README):
# --info, the occupancy grid, the copy ceiling, a sweep CSV, scans, argmax,
# and lit's GPU tests.
#   bash .gpu/unpack.sh && export PATH=$PWD/.gpu/bin:$PATH && bash bench/gpu-features.sh
set -uo pipefail
out=${OUT:-/tmp}
echo "== --info"
tile-run kernels/softmax.tile --info
tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=32768 --info
tile-run kernels/matmul.tile --info=json
echo "== persistent softmax, occupancy grid"
tile-run kernels/softmax.tile --seed $RANDOM$RANDOM || echo "CHECK FAILED"
tile-run kernels/softmax.tile --compare | tail -2
echo "== scans and argmax"
for k in "cumsum.tile" "cumsum.tile --set n_rows=1000" "associative_scan.tile" \
         "associative_scan.tile --set REVERSE=True" "argmax.tile" "argmax.tile --set n_rows=999"; do
  echo "-- $k"; tile-run kernels/$k --seed $RANDOM --no-bench 2>&1 | grep -E "check|error|FAIL" || echo "CHECK FAILED"
done
tile-run kernels/cumsum.tile --set n_rows=1000 --compare 2>&1 | tail -1
tile-run kernels/argmax.tile --set n_rows=999 --compare 2>&1 | tail -1
echo "== sweep"
tile-run kernels/softmax_simple.tile --set n_rows=4096 --sweep n_cols=256..8192*2 --csv $out/sweep-test.csv --rep-ms 50 2>&1 | tail -12
