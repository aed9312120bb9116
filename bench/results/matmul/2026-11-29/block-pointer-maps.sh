#!/usr/bin/env bash
# Call 11 (block pointers made from arguments by TMA; unused maps marked): float64 checks, sanitizers, scripts/check-gpu.sh tutorials tools.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
I=test/tools/tile-run/Inputs
D="kernels/matmul_descriptor_persistent.tile"; A="kernels/attn_fwd_descriptor.tile"; DEV="--set desc_q=q --set desc_k=k --set desc_v=v --set desc_o=o"
for args in "$I/block-ptr-matmul-loop.tile --set N=256" "$I/block-ptr-matmul-loop.tile --set M=1000 --set N=512 --set K=1024" "$I/block-ptr-matmul-loop.tile" \
  "$I/block-ptr-matmul-loop.tile --set M=4096 --set N=4096 --set K=4096 --set num_stages=4" \
  "$I/block-ptr-matmul-no-scf.tile" "$I/block-copy.tile" "$I/block-ptr-dtype.tile" "$I/block-copy-3d.tile" \
  "$D --set M=1000 --set N=1024 --set K=512" "$A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --set CAUSAL=True --set N_CTX=1024" \
  "$I/descriptor-copy.tile --set N=64" "$I/descriptor-bf16.tile" "kernels/attn_fwd.tile" "kernels/attn_fwd.tile --set CAUSAL=True" "kernels/grouped_gemm_tma.tile"; do
  echo "$args: $(timeout 60 tile-run $args --no-bench 2>&1 | grep -E '^check|rror' | sed 's/: max .*(tol/ (tol/' | tr '\n' ' ')"
done
echo "## timing: block-pointer matmul 4096^3 (TMA) beside the host-descriptor TMA kernel"
timeout 60 tile-run $I/block-ptr-matmul-loop.tile --no-check --set M=4096 --set N=4096 --set K=4096 --set num_stages=4 2>&1 | grep 'time:'
timeout 60 tile-run kernels/matmul_tma.tile --no-check --set M=4096 --set N=4096 --set K=4096 --set BLOCK_SIZE_N=128 --set num_stages=4 2>&1 | grep 'time:'
for tool in memcheck racecheck synccheck; do
  echo "$tool: $(timeout 120 compute-sanitizer --tool $tool tile-run $I/block-ptr-matmul-loop.tile --set N=256 --no-bench 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
done
echo "memcheck (unused map): $(timeout 120 compute-sanitizer --tool memcheck tile-run $I/block-ptr-matmul-loop.tile --no-bench 2>&1 | grep -E 'ERROR SUMMARY|^check' | tr '\n' ' ')"
echo "## check-gpu.sh tutorials tools"
timeout 300 scripts/check-gpu.sh tutorials tools 2>&1 | grep -E 'FAIL|PASS,|== [0-9]'
