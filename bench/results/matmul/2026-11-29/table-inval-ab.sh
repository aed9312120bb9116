#!/usr/bin/env bash
# Main 1952674: checks and sanitizers, the matmul tables, then the inval A/B against 24c9861.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
echo "# $(date -u)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -k -f .jobs/old1/tile-run.xz && chmod +x .jobs/old1/tile-run
NEW=$PWD/.gpu/bin/tile-run
echo "## checks (new)"
c() { echo "$*: $(timeout 120 $NEW "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | sed 's/: max .*(tol/ (tol/' | cut -c1-90 | tr '\n' ' ')"; }
c kernels/matmul_tma.tile
c kernels/matmul_tma.tile --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8
c kernels/matmul_tma.tile --set WARP_SPECIALIZE=True
c kernels/matmul_tma_persistent.tile --set EPILOGUE_SUBTILE=True
c kernels/matmul_descriptor_persistent.tile
c kernels/grouped_gemm_tma.tile
for cz in True False; do for d in 64 128; do
c kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=$d --set CAUSAL=$cz
done
c kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=$cz
done
echo "## compute-sanitizer (new)"
for tool in memcheck racecheck synccheck; do
 echo "$tool tma 64x128 s8: $(timeout 200 compute-sanitizer --tool $tool $NEW kernels/matmul_tma.tile --no-bench --no-check --set M=256 --set N=256 --set K=1024 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
 echo "$tool attention split causal: $(timeout 200 compute-sanitizer --tool $tool $NEW kernels/attn_fwd_descriptor.tile --no-bench --no-check --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=True 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
done
echo "## tables (new)"
python3 scripts/bench-matmul-fixed.py --repeats 3
python3 scripts/bench-matmul-best.py --repeats 3
echo "## A/B"
python3 bench/results/matmul/2026-11-29/inval-ab.py $PWD/.jobs/old1/tile-run $NEW
echo "# done $(date -u)"
