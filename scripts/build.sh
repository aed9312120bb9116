#!/usr/bin/env bash
# Configures and builds Tile.
#   scripts/build.sh            development build in build/ (shared LLVM/MLIR)
#   scripts/build.sh static     tools for the GPU machine in build-static/
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = static ]; then
  dir=build-static; extra=(-DTILE_STATIC_LLVM=ON)
else
  dir=build; extra=()
fi
[ -f "$dir/build.ninja" ] || cmake -G Ninja -S . -B "$dir" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
  "${extra[@]}" >/dev/null
ninja -C "$dir" -j"$(nproc)" tile-opt tile-run tile-compile tile-api-test
