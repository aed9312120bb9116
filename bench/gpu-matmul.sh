#!/usr/bin/env bash
# GPU checks and timings of the wgmma matmul (issue 6). Correctness against
# the float64 reference (fresh seeds), with and without leaky_relu, then
# TFLOP/s with Triton's and cuBLAS's from triton_ref.py in the same call,
# and HGMMA in the SASS. MODE=quick skips Triton.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=kernels/matmul.tile
echo "== correctness (fp16 inputs, tol 1e-2 relative)"
for shape in "256 256 256" "512 512 512" "1024 1024 1024" "4096 4096 4096" \
             "1000 1000 1000" "513 257 129" "4096 1024 8192"; do
  set -- $shape
  for act in '""' '"leaky_relu"'; do
    out=$(tile-run $K --set M=$1 --set N=$2 --set K=$3 --set "ACTIVATION=$act" \
          --seed $RANDOM$RANDOM --no-bench 2>&1)
    echo "$1x$2x$3 act=$act: $(echo "$out" | grep -E 'check|error' | head -2 | tr '\n' ' ')"
  done
done
echo "== timings (config 0: 128x256x64, 8 warps)"
for s in 1024 2048 4096 8192; do
  echo "S=$s $(tile-run $K --set M=$s --set N=$s --set K=$s --seed 1 2>&1 | grep -E 'TFLOP|error' | head -2 | tr '\n' ' ')"
done
echo "== SASS"
tile-run $K --emit=ptx -o /tmp/mm.ptx && ptxas -arch=sm_90a /tmp/mm.ptx -o /tmp/mm.cubin \
  && cuobjdump -sass /tmp/mm.cubin | grep -c HGMMA | sed 's/^/HGMMA instructions: /'
cuobjdump -sass /tmp/mm.cubin | grep -m3 HGMMA
tile-run $K --info | grep -E "registers|spills|shared|occupancy"
if [ "${MODE:-}" != quick ]; then
  echo "== Triton"
  python3 .gpu/triton_ref.py matmul
fi
