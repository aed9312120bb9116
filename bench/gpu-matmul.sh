#!/usr/bin/env bash
# GPU checks and timings of the wgmma matmul (issue 6). Correctness against
# the float64 reference (fresh seeds), with and without leaky_relu; TFLOP/s
# with Triton's and cuBLAS's from triton_ref.py in the same call; HGMMA in
# the SASS. MODE=quick skips Triton. Output goes to stdout as it comes.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=kernels/matmul.tile
check() { # M N K activation [more tile-run options]
  local m=$1 n=$2 k=$3 act=$4; shift 4
  out=$(tile-run $K --set M=$m --set N=$n --set K=$k --set "ACTIVATION=$act" \
        --seed $RANDOM$RANDOM --no-bench "$@" 2>&1)
  echo "${m}x${n}x${k} act=$act $*: $(echo "$out" | grep -E 'check|error' | head -2 | tr '\n' ' ')"
}
echo "== correctness, small (fp16 inputs, tol 1e-2 relative)"
for shape in "256 256 256" "512 512 512" "513 257 129" "1000 1000 1000"; do
  for act in '""' '"leaky_relu"'; do check $shape "$act"; done
done
echo "== correctness of other configurations and stage counts (1000^3)"
cfg() { # BM BN BK warps stages
  echo --set BLOCK_SIZE_M=$1 --set BLOCK_SIZE_N=$2 --set BLOCK_SIZE_K=$3 \
    --set num_warps=$4 --set num_stages=$5
}
for c in "128 256 64 8 2" "128 256 64 8 4" "64 256 32 4 4" "128 128 32 4 4" \
         "128 64 64 4 4" "128 256 128 8 3" "256 128 128 8 3" "64 128 64 4 4"; do
  check 1000 1000 1000 '""' $(cfg $c)
done
echo "== SASS"
tile-run $K --emit=ptx -o /tmp/mm.ptx && ptxas -v -arch=sm_90a /tmp/mm.ptx -o /tmp/mm.cubin \
  && echo "HGMMA instructions: $(cuobjdump -sass /tmp/mm.cubin | grep -c HGMMA)"
cuobjdump -sass /tmp/mm.cubin | grep -m2 HGMMA
tile-run $K --info 2>&1 | grep -E "registers|spills|shared|occupancy"
echo "== timings: config 0 (128x256x64, 8 warps), then autotuned"
for s in 1024 2048 4096 8192; do
  echo "S=$s config0 $(tile-run $K --set M=$s --set N=$s --set K=$s --no-check 2>&1 | grep -E 'TFLOP|error' | head -2 | tr '\n' ' ')"
  tile-run $K --set M=$s --set N=$s --set K=$s --autotune --no-check 2>&1 \
    | grep -E 'autotune: (best|every)|TFLOP|error' | sed "s/^/S=$s tuned: /"
done
if [ "${MODE:-}" != quick ]; then
  echo "== Triton"
  python3 .gpu/triton_ref.py matmul
fi
echo "== correctness, large"
for shape in "1024 1024 1024" "4096 4096 4096" "4096 1024 8192"; do
  for act in '""' '"leaky_relu"'; do check $shape "$act"; done
done
