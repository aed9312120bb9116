#!/usr/bin/env bash
# SASS with warp-stall samples (Nsight Compute, source page) of the one-warpgroup TMA kernel at K = 64, 4 and 8 stages.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
for s in 4 8; do
  timeout 200 ncu --section WarpStateStats --section SourceCounters --page source --print-source sass --csv tile-run bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --no-bench --no-check --set K=64 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=$s --set WARP_SPECIALIZE=False > $OUT/sass-s$s.csv 2>&1
  echo "s$s: $(wc -l < $OUT/sass-s$s.csv) lines"; head -3 $OUT/sass-s$s.csv | cut -c1-400
done
