#!/usr/bin/env bash
# Device descriptors whose row stride K is a multiple of 8 (tile.multiple_of_8): checks, memcheck, Tile against Triton 3.6 in one call.
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
c() { echo "$*: $(timeout 120 tile-run "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | cut -c1-130 | tr '\n' ' ')"; }
K=kernels/matmul_descriptor_persistent.tile
echo "## float64 checks"
c $K
c $K --set M=1024 --set N=1024 --set K=712
c $K --set M=1000 --set N=904 --set K=1000 --set BLOCK_SIZE_N=256 --set EPILOGUE_SUBTILE=True --set num_stages=4
c $K --set M=1024 --set N=1024 --set K=716
c $K --set M=1024 --set N=1024 --set K=712 --set FLATTEN=False
c test/tools/tile-run/Inputs/descriptor-bf16.tile --set K=712
c test/tools/tile-run/Inputs/descriptor-copy.tile --set N=72
c kernels/attn_fwd_descriptor.tile --set desc_q=q --set desc_k=k --set desc_v=v --set desc_o=o --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --set CAUSAL=True
c kernels/matmul.tile --set M=1000 --set N=1000 --set K=1000
echo "memcheck K=712: $(timeout 200 compute-sanitizer --tool memcheck tile-run $K --set M=512 --set N=512 --set K=712 --no-bench 2>&1 | grep -E 'ERROR SUMMARY|^check' | tr '\n' ' ')"
echo "## Tile / Triton, ms"
for mnk in "1024 1024 712" "4096 4096 712" "4096 4096 1000" "4096 4096 1024"; do
 set -- $mnk
 for r in 1 2; do
  echo "Tile $1x$2x$3 round $r: $(timeout 120 tile-run $K --set M=$1 --set N=$2 --set K=$3 --no-check 2>&1 | grep -E '^time' | cut -c1-90)"
  timeout 120 python3 bench/results/matmul/2026-11-29/triton-desc-mnk.py $1 $2 $3
 done
done
