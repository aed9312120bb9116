#!/usr/bin/env bash
# gpu-block-pointer-maps.test's runs at 2130f6f (N = 196: one unused map; N = 200 now with maps).
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
B=test/tools/tile-run/Inputs/block-ptr-matmul-loop.tile
for s in "--set N=256" "--set M=1000 --set N=512 --set K=1024" "--set N=196" ""; do
 echo "$B $s: $(timeout 120 tile-run $B --no-bench $s 2>&1 | grep -E '^check|rror' | cut -c1-130)"
done
echo "N=200 --info maps: $(timeout 60 tile-run $B --info --no-bench 2>&1 | grep -ciE 'tensor map')"
echo "memcheck N=200: $(timeout 200 compute-sanitizer --tool memcheck tile-run $B --no-bench 2>&1 | grep -E 'ERROR SUMMARY|^check' | tr '\n' ' ')"
