#!/usr/bin/env bash
# Call 3: kernel durations at the GPU's own clocks (Nsight Compute --clock-control none, caches flushed before each launch) against the do_bench-style medians of tile-run and triton.testing.do_bench, Tile and cuBLAS, 1024^3 and 2048^3.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
M="--metrics gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second"
NCU="ncu --clock-control none --cache-control all $M"
T1="kernels/matmul_tma.tile --set M=1024 --set N=1024 --set K=1024 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set BLOCK_SIZE_K=64 --set num_warps=4 --set num_stages=8"
T2="kernels/matmul_tma_persistent.tile --set M=2048 --set N=2048 --set K=2048 --set BLOCK_SIZE_M=128 --set BLOCK_SIZE_N=256 --set BLOCK_SIZE_K=64 --set num_warps=8 --set num_stages=3"
tile-run $T1 --no-check --no-bench >/dev/null; tile-run $T2 --no-check --no-bench >/dev/null
for round in 1 2; do
  echo "## round $round"
  echo "# cuBLAS 1024 (launches 3-8)"; timeout 90 $NCU --launch-skip 2 --launch-count 6 python3 bench/results/matmul/2026-11-29/cublas-launches.py 1024 8 2>&1 | grep -E 'gpu__time|per_second' | awk '{print $1, $(NF-1), $NF}' | paste - - 
  echo "# Tile 1024 (6 processes)"; for i in 1 2 3 4 5 6; do timeout 60 $NCU tile-run $T1 --no-check --no-bench 2>&1 | grep -E 'gpu__time|per_second' | awk '{print $1, $(NF-1), $NF}' | paste - - ; done
  echo "# cuBLAS 2048"; timeout 90 $NCU --launch-skip 2 --launch-count 6 python3 bench/results/matmul/2026-11-29/cublas-launches.py 2048 8 2>&1 | grep -E 'gpu__time|per_second' | awk '{print $1, $(NF-1), $NF}' | paste - - 
  echo "# Tile 2048"; for i in 1 2 3 4 5 6; do timeout 60 $NCU tile-run $T2 --no-check --no-bench 2>&1 | grep -E 'gpu__time|per_second' | awk '{print $1, $(NF-1), $NF}' | paste - - ; done
  echo "# do_bench-style medians"
  python3 bench/results/matmul/2026-11-29/cublas-do-bench.py 1024 2048
  for T in "$T1" "$T2"; do echo "tile-run: $(for i in 1 2 3 4 5; do tile-run $T --no-check 2>&1 | grep -o 'median [0-9.]*' ; done | tr '\n' ' ')"; done
done
