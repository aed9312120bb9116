#!/usr/bin/env bash
# Call 4 (main 5177ff0): the C++ API on descriptors the kernel makes, then scripts/check-gpu.sh.
set -uo pipefail
xz -d -f .gpu/lib/libtile.so.0.xz && export LD_LIBRARY_PATH=$PWD/.gpu/lib
export TILE_CACHE_DIR=$(mktemp -d)
echo "## tile-api-test descriptor-matmul-launch"; timeout 60 tile-api-test descriptor-matmul-launch; echo "rc $?"
echo "## tile-api-test launch"; timeout 60 tile-api-test launch; echo "rc $?"
echo "## scripts/check-gpu.sh tutorials matmul tools"
time timeout 420 scripts/check-gpu.sh tutorials matmul tools 2>&1 | tail -80
