#!/usr/bin/env bash
# Call 9: the device-descriptor copy (its y stored by TMA through a map the launch encodes when N is a multiple of 16), blocks partly and wholly outside the data; memcheck.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=test/tools/tile-run/Inputs/descriptor-copy.tile
for args in "--set N=64" "--set N=128 --set BLOCK_N=64" "--set M=7 --set N=16" "--set M=1000 --set N=4096 --set BLOCK_M=64 --set BLOCK_N=128" ""; do
  echo "copy $args: $(timeout 60 tile-run $K $args --no-bench 2>&1 | grep -E '^check|rror' | sed 's/: max .*(tol/ (tol/' | tr '\n' ' ')"
done
timeout 120 compute-sanitizer --tool memcheck tile-run $K --set N=64 --no-bench 2>&1 | grep -E 'ERROR SUMMARY|^check'
timeout 120 compute-sanitizer --tool racecheck tile-run $K --set N=128 --set BLOCK_N=64 --no-bench 2>&1 | grep -E 'RACECHECK SUMMARY|^check'
