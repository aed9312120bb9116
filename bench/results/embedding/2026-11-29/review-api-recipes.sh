#!/usr/bin/env bash
# Review: the C++ API takes the tensor map recipes from CompiledKernel (no module global read); tile-api-test on the GPU.
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -f .gpu/lib/libtile.so.0.xz; export LD_LIBRARY_PATH=$PWD/.gpu/lib
tile-api-test descriptor-matmul-launch
echo "memcheck: $(timeout 200 compute-sanitizer --tool memcheck tile-api-test descriptor-matmul-launch 2>&1 | grep -E 'SUMMARY|mismatches' | tr '\n' ' ')"
for s in launch; do tile-api-test $s 2>&1 | tail -3; done
