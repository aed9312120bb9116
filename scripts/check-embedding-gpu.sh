#!/usr/bin/env bash
# On the GPU machine: Tile inside a C++ program, from an installed package.
# Builds examples/ against PREFIX alone (find_package(Tile)), runs
# tile-example (add, softmax, matmul through the C++ API and through their
# AOT launchers, against float64 references), tile-attention (tutorial
# 06's forward with host tensor descriptors, both ways, checked against
# float64, and timed with and without persistent programs), tile-aot-only
# (a C program that links no Tile library: ldd shows it) and
# tile-launch-overhead (host time per launch: API, AOT launcher,
# cuLaunchKernel; cold compile times), then Triton's launch overhead and
# cold compiles of the same kernels (scripts/launch-overhead-triton.py).
#
#   scripts/check-embedding-gpu.sh PREFIX      (cmake --install ... --prefix PREFIX)
#
# Exits 1 if a check failed.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 1 ] || { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 1; }
prefix=$(realpath "$1")
build=$(mktemp -d)
status=0
# ptxas for the matmul launcher's cubin: the toolkit's, else Triton's.
ptxas=$(command -v ptxas || ls /usr/local/cuda/bin/ptxas 2>/dev/null ||
  python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))' 2>/dev/null)
[ -x "$ptxas" ] && echo "ptxas: $ptxas" || ptxas=
cmake -S examples -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  ${ptxas:+-DTILE_PTXAS="$ptxas"} -DCMAKE_PREFIX_PATH="$prefix" > "$build/configure.log" 2>&1 &&
  cmake --build "$build" > "$build/build.log" 2>&1 ||
  { cat "$build/configure.log" "$build/build.log"; echo "FAIL: the example did not build"; exit 1; }
echo "== tile-example (find_package(Tile) from $prefix)"
"$build/tile-example" || status=1
echo "== tile-attention"
"$build/tile-attention" || status=1
echo "== tile-aot-only"
"$build/tile-aot-only" || status=1
echo "== ldd tile-aot-only"
ldd "$build/tile-aot-only"
if ldd "$build/tile-aot-only" | grep -q libtile; then
  echo "FAIL: tile-aot-only links a Tile library"; status=1
fi
echo "== launch overhead and compile times"
TILE_CACHE_DISABLE=1 "$build/tile-launch-overhead" || status=1
if python3 -c 'import triton' 2>/dev/null; then
  python3 scripts/launch-overhead-triton.py || status=1
fi
exit $status
