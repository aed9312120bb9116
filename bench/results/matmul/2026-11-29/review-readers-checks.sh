#!/usr/bin/env bash
# Call 12 (main 72562e2, the review's shared global and recipe readers): the C++ API, the device-descriptor and block-pointer kernels, check-gpu.sh tutorials tools.
set -uo pipefail
xz -d -f .gpu/lib/libtile.so.0.xz && export LD_LIBRARY_PATH=$PWD/.gpu/lib
export TILE_CACHE_DIR=$(mktemp -d)
I=test/tools/tile-run/Inputs
timeout 60 tile-api-test descriptor-matmul-launch; timeout 60 tile-api-test launch | grep mismatches
for args in "kernels/matmul_descriptor_persistent.tile --set M=1000 --set N=1024 --set K=512" "$I/block-ptr-matmul-loop.tile --set N=256" "$I/block-ptr-matmul-loop.tile" "$I/descriptor-copy.tile --set N=64" "$I/descriptor-bf16.tile" \
  "kernels/attn_fwd_descriptor.tile --set desc_q=q --set desc_k=k --set desc_v=v --set desc_o=o --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True"; do
  echo "$args: $(timeout 60 tile-run $args --no-bench 2>&1 | grep -E '^check|rror|persistent' | sed 's/: max .*(tol/ (tol/' | tr '\n' ' ')"
done
echo "memcheck: $(timeout 120 compute-sanitizer --tool memcheck tile-run $I/block-ptr-matmul-loop.tile --set N=256 --no-bench 2>&1 | grep -E 'ERROR SUMMARY')"
timeout 300 scripts/check-gpu.sh tutorials tools 2>&1 | grep -E 'FAIL|== [0-9]'
