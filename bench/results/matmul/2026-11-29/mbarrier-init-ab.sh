#!/usr/bin/env bash
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -k -f OLD_TILE_RUN.xz && chmod +x OLD_TILE_RUN
NEW=$PWD/.gpu/bin/tile-run
echo "## checks (new)"
c() { echo "$*: $(timeout 120 $NEW "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | sed 's/: max .*(tol/ (tol/' | cut -c1-90 | tr '\n' ' ')"; }
c bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8 --set WARP_SPECIALIZE=False
c bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set BLOCK_SIZE_K=32 --set num_warps=4 --set num_stages=16 --set WARP_SPECIALIZE=False
c kernels/matmul_tma_persistent.tile
c kernels/matmul_tma_persistent.tile --set EPILOGUE_SUBTILE=True
c kernels/grouped_gemm_tma.tile
for cz in True False; do for d in 64 128; do
c kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=$d --set CAUSAL=$cz
done
c kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=$cz
done
c kernels/attn_bwd.tile
echo "## compute-sanitizer (new)"
for tool in memcheck racecheck synccheck; do
 echo "$tool tma 64x128 s8: $(timeout 200 compute-sanitizer --tool $tool $NEW bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --no-bench --no-check --set M=256 --set N=256 --set K=1024 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8 --set WARP_SPECIALIZE=False 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
 for cz in True False; do
 echo "$tool attention split causal=$cz: $(timeout 200 compute-sanitizer --tool $tool $NEW kernels/attn_fwd_descriptor.tile --no-bench --no-check --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=$cz 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
 done
 echo "$tool attention D64: $(timeout 200 compute-sanitizer --tool $tool $NEW kernels/attn_fwd_descriptor.tile --no-bench --no-check --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=64 --set CAUSAL=True 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
done
echo "## A/B"
python3 bench/results/matmul/2026-11-29/mbarrier-init-ab.py $PWD/OLD_TILE_RUN $NEW
