#!/usr/bin/env bash
# cluster-pairs v2 with the remote arrive and the wait at CTA scope (CUTLASS's): timing beside plain and cuBLAS, checks, sanitizers.
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
K=kernels/matmul_tma.tile
t() { timeout 60 env "$@" 2>&1 | grep -oE 'median [0-9.]+ ms' | head -1; }
for r in 1 2 3; do
 for cfg in "2048 --set BLOCK_SIZE_N=256 --set num_stages=4" "4096 --set BLOCK_SIZE_N=256 --set num_stages=4" "1024 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8"; do
  set -- $cfg; shape=$1; shift
  a="tile-run $K --set M=$shape --set N=$shape --set K=$shape $* --no-check"
  echo "round $r $shape: plain $(t $a) | pairs $(t TILE_CLUSTER_PAIRS=1 $a) | pairs-no-wait $(t TILE_CLUSTER_PAIRS=1 TILE_PAIRS_NO_WAIT=1 $a) | pairs-no-multicast $(t TILE_CLUSTER_PAIRS=1 TILE_PAIRS_NO_MULTICAST=1 $a)"
 done
done
python3 - <<'PY'
import torch, triton
for s in (1024, 2048, 4096):
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    print(f"cuBLAS {s}: {triton.testing.do_bench(lambda: torch.matmul(a, b)):.5f} ms")
PY
P="env TILE_CLUSTER_PAIRS=1 tile-run"
c() { echo "$*: $(timeout 120 $P "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | cut -c1-130 | tr '\n' ' ')"; }
c $K
c $K --set M=2048 --set N=2048 --set K=2048 --set BLOCK_SIZE_N=256 --set num_stages=4
c $K --set M=1152 --set N=512 --set K=1024 --set BLOCK_SIZE_N=256 --set num_stages=4
c $K --set M=1024 --set N=1024 --set K=1024 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8
for tool in memcheck racecheck synccheck; do
 echo "$tool 1152x512x512 128x256: $(timeout 200 compute-sanitizer --tool $tool $P $K --set M=1152 --set N=512 --set K=512 --set BLOCK_SIZE_N=256 --set num_stages=4 --no-bench --no-check 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|rror' | head -3 | tr '\n' ' ')"
done
