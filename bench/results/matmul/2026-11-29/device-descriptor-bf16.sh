#!/usr/bin/env bash
# Call 8 (main HEAD): bf16 through descriptors a kernel makes (hoisted maps of element bf16), float64 checks and memcheck.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=test/tools/tile-run/Inputs/descriptor-bf16.tile
for args in "" "--set M=300 --set N=200 --set K=512" "--set M=1024 --set N=1024 --set K=4096"; do
  echo "bf16 $args: $(timeout 60 tile-run $K $args 2>&1 | grep -E '^check|rror|time:' | sed 's/: max .*(tol/ (tol/' | tr '\n' ' ')"
done
timeout 120 compute-sanitizer --tool memcheck tile-run $K --set M=300 --set N=200 --set K=512 --no-bench 2>&1 | grep -E 'ERROR SUMMARY|^check'
timeout 60 tile-run $K --emit=gpu | grep -A3 'launch encodes'
