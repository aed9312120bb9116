#!/usr/bin/env bash
# Call 10 (main a668d4d: maps only for descriptors TMA may use): float64 checks of every kernel with device descriptors, memcheck.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
D="kernels/matmul_descriptor_persistent.tile"; A="kernels/attn_fwd_descriptor.tile"; DEV="--set desc_q=q --set desc_k=k --set desc_v=v --set desc_o=o"
C=test/tools/tile-run/Inputs/descriptor-copy.tile; B=test/tools/tile-run/Inputs/descriptor-bf16.tile
for args in "$D --set M=1000 --set N=1024 --set K=512" "$D --set M=777 --set N=272 --set K=1040 --set BLOCK_SIZE_N=256 --set num_warps=8 --set EPILOGUE_SUBTILE=True" \
  "$A $DEV" "$A $DEV --set CAUSAL=True" "$A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True" \
  "$A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --set CAUSAL=True --set N_CTX=1024" \
  "$C" "$C --set N=64" "$C --set N=128 --set BLOCK_N=64" "$B" "$B --set M=300 --set N=200" "kernels/grouped_gemm_tma.tile"; do
  echo "$args: $(timeout 60 tile-run $args --no-bench 2>&1 | grep -E '^check|rror' | sed 's/: max .*(tol/ (tol/' | tr '\n' ' ')"
done
timeout 120 compute-sanitizer --tool memcheck tile-run $C --set N=64 --no-bench 2>&1 | grep -E 'ERROR SUMMARY'
timeout 120 compute-sanitizer --tool memcheck tile-run $D --set M=1000 --set N=1024 --set K=512 --no-bench 2>&1 | grep -E 'ERROR SUMMARY'
