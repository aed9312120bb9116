#!/usr/bin/env bash
# The C++ API keeps the last launch's made tensor maps (Kernel::Impl::getTensorMaps): checks at K, K again, K - 64; memcheck; host time per queued launch, maps kept against encoded every launch (K alternating), in one call.
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -f .gpu/lib/libtile.so.0.xz; export LD_LIBRARY_PATH=$PWD/.gpu/lib
tile-api-test descriptor-matmul-launch; echo "rc=$?"
tile-api-test descriptor-matmul-launch-k8; echo "rc=$?"
echo "memcheck: $(timeout 200 compute-sanitizer --tool memcheck tile-api-test descriptor-matmul-launch 2>&1 | grep -E 'SUMMARY|mismatches' | tr '\n' ' ')"
tile-api-test descriptor-matmul-host-time; echo "rc=$?"
for s in launch; do tile-api-test $s 2>&1 | tail -3; done
