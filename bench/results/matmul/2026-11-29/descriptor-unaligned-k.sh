#!/usr/bin/env bash
# tutorial 09's descriptor_persistent where K's row stride is 16-byte aligned but not a multiple of 16 elements (K = 712, 1000): Tile (no maps: block pointers) against Triton 3.6 (TMA) in one call.
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for mnk in "1024 1024 712" "4096 4096 712" "4096 4096 1000" "4096 4096 1024"; do
 set -- $mnk
 for r in 1 2; do
  echo "Tile $1x$2x$3 round $r: $(timeout 120 tile-run kernels/matmul_descriptor_persistent.tile --set M=$1 --set N=$2 --set K=$3 2>&1 | grep -E '^time|^check' | cut -c1-110 | tr '\n' ' ')"
  timeout 120 python3 .jobs/triton-desc-mnk.py $1 $2 $3
 done
done
