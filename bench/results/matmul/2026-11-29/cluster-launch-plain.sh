#!/usr/bin/env bash
# Does a cluster launch alone slow the TMA matmul? plain kernel launched plain / in clusters of 2 (three scheduling policies), pairs kernel.
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
K=kernels/matmul_tma.tile
t() { timeout 60 env "$@" 2>&1 | grep -oE 'median [0-9.]+ ms' | head -1; }
for r in 1 2 3; do
 for cfg in "2048 --set BLOCK_SIZE_N=256 --set num_stages=4" "4096 --set BLOCK_SIZE_N=256 --set num_stages=4" "1024 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8"; do
  set -- $cfg; shape=$1; shift
  a="tile-run $K --set M=$shape --set N=$shape --set K=$shape $* --no-check"
  echo "round $r $shape: plain $(t $a) | plain-in-clusters $(t TILE_FORCE_CLUSTERS=1 $a) | spread $(t TILE_FORCE_CLUSTERS=1 TILE_CLUSTER_POLICY=1 $a) | balancing $(t TILE_FORCE_CLUSTERS=1 TILE_CLUSTER_POLICY=2 $a) | pairs $(t TILE_CLUSTER_PAIRS=1 $a) | pairs-balancing $(t TILE_CLUSTER_PAIRS=1 TILE_CLUSTER_POLICY=2 $a)"
 done
done
echo "plain in clusters, check: $(TILE_FORCE_CLUSTERS=1 timeout 60 tile-run $K --set M=2048 --set N=2048 --set K=2048 --set BLOCK_SIZE_N=256 --set num_stages=4 --no-bench 2>&1 | grep -E '^check|rror' | cut -c1-120)"
