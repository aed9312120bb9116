#!/usr/bin/env bash
# cluster-pairs v2 diagnostics: where the time goes (timing only; NO_WAIT is unsafe).
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
K=kernels/matmul_tma.tile
S="--set BLOCK_SIZE_M=128 --set BLOCK_SIZE_N=256 --set BLOCK_SIZE_K=64 --set num_warps=8 --set num_stages=4"
t() { timeout 60 env "$@" 2>&1 | grep -oE 'median [0-9.]+ ms' | head -1; }
for r in 1 2 3; do
 for shape in 2048 4096; do
  a="tile-run $K --set M=$shape --set N=$shape --set K=$shape $S --no-check"
  echo "round $r $shape: plain $(t $a) | pairs $(t TILE_CLUSTER_PAIRS=1 $a) | pairs-no-wait $(t TILE_CLUSTER_PAIRS=1 TILE_PAIRS_NO_WAIT=1 $a) | pairs-no-multicast $(t TILE_CLUSTER_PAIRS=1 TILE_PAIRS_NO_MULTICAST=1 $a) | pairs-unclustered $(t TILE_CLUSTER_PAIRS=1 TILE_NO_CLUSTERS=1 $a)"
 done
done
echo "no-wait check (unsafe, for the record): $(TILE_CLUSTER_PAIRS=1 TILE_PAIRS_NO_WAIT=1 timeout 60 tile-run $K --set M=2048 --set N=2048 --set K=2048 $S --no-bench 2>&1 | grep -E '^check' | cut -c1-120)"
echo "no-multicast check: $(TILE_CLUSTER_PAIRS=1 TILE_PAIRS_NO_MULTICAST=1 timeout 60 tile-run $K --set M=2048 --set N=2048 --set K=2048 $S --no-bench 2>&1 | grep -E '^check' | cut -c1-120)"
