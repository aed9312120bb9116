# mma.sync (issue 6; pipelined through cp.async stages in loops): correctness against float64 (fresh seeds, tol 1e-2
# relative) of kernels/matmul.tile compiled for sm_80 (run on the H100 by
# the driver's JIT) and of the two-warp configs on sm_90a; GPU against the
# interpreter; TFLOP/s at small sizes beside Triton's in the same call.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=kernels/matmul.tile
cfg() { echo --set BLOCK_SIZE_M=$1 --set BLOCK_SIZE_N=$2 --set BLOCK_SIZE_K=$3 --set num_warps=$4 --set num_stages=$5; }
run() { tile-run $K --seed $RANDOM$RANDOM --no-bench "$@" 2>&1 | grep -E 'check|error' | head -2 | tr '\n' ' '; }
for shape in "512 512 512" "1000 1000 1000" "513 257 129"; do
  set -- $shape; dims="--set M=$1 --set N=$2 --set K=$3"
  for c in "128 256 64 8 3" "64 256 32 4 4" "128 128 32 4 4" "64 32 32 2 5" "32 64 32 2 5"; do
    echo "sm_80 $shape cfg $c: $(run --target=sm_80 $dims $(cfg $c))"
  done
  for c in "64 32 32 2 5" "32 64 32 2 5"; do
    echo "sm_90a $shape cfg $c: $(run $dims $(cfg $c))"
  done
done
echo "sm_80 leaky_relu 1000^3: $(run --target=sm_80 --set M=1000 --set N=1000 --set K=1000 --set ACTIVATION='"leaky_relu"')"
echo "sm_80 bf16 512^3: $(run --target=sm_80 --set 'a=randn(bf16,512,512)' --set 'b=randn(bf16,512,512)')"
echo "sm_80 4096x1024x8192: $(run --target=sm_80 --set M=4096 --set N=1024 --set K=8192)"
tile-run $K --target=sm_80 --set M=256 --set N=256 --set K=256 --compare 2>&1 | tail -1
tile-run $K --target=sm_80 --emit=ptx -o /tmp/mm80.ptx && ptxas -arch=sm_80 /tmp/mm80.ptx -o /tmp/mm80.cubin && \
  echo "sm_80 SASS: $(cuobjdump -sass /tmp/mm80.cubin | grep -oE 'HMMA[.0-9A-Z]*' | sort | uniq -c | tr '\n' ' ') $(cuobjdump -sass /tmp/mm80.cubin | grep -oE 'LDSM[.0-9A-Z]*' | sort | uniq -c | tr '\n' ' ')"
echo "== timings (sm_90a autotuned; sm_80 code config 0 and autotuned)"
for s in 256 512 1024; do
  echo "sm_90a S=$s tuned: $(tile-run $K --set M=$s --set N=$s --set K=$s --autotune --no-check 2>&1 | grep -E 'autotune: best|TFLOP' | sed -E 's/.*best config ([0-9]+\/[0-9]+): (.*): .*/\1 \2/' | tr '\n' ' ' | grep -oE '^[0-9]+/[0-9]+ .*num_stages=[0-9]|[0-9.]+ TFLOP/s' | tr '\n' ' ')"
done
for s in 1024 2048 4096; do
  echo "sm_80 S=$s config0: $(tile-run $K --target=sm_80 --set M=$s --set N=$s --set K=$s --no-check 2>&1 | grep -oE '[0-9.]+ TFLOP/s')"
  echo "sm_80 S=$s tuned: $(tile-run $K --target=sm_80 --set M=$s --set N=$s --set K=$s --autotune --no-check 2>&1 | grep -E 'autotune: best|TFLOP' | tr '\n' ' ' | grep -oE 'BLOCK_SIZE_M.*num_stages=[0-9]|[0-9.]+ TFLOP/s' | tr '\n' ' ')"
done
python3 .gpu/triton_ref.py matmul 2>&1 | grep -A9 "matmul fp16"
