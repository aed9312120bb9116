# fp32 matmul through wgmma tf32 (the synchronous path): correctness against
# float64 (fresh seeds, tol 1e-2 relative) for several configs and an odd
# shape, GPU against the interpreter, and TFLOP/s beside torch's tf32
# matmul at 2048^3 and 4096^3 in the same call.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=kernels/matmul.tile
f32() { echo --set "a=randn(fp32,$1,$3)" --set "b=randn(fp32,$3,$2)" --set M=$1 --set N=$2 --set K=$3; }
cfg() { echo --set BLOCK_SIZE_M=$1 --set BLOCK_SIZE_N=$2 --set BLOCK_SIZE_K=$3 --set num_warps=$4 --set num_stages=$5; }
for shape in "512 512 512" "1000 1000 1000" "513 257 129"; do
  for c in "128 256 64 8 3" "128 256 32 8 3" "64 256 32 4 4" "128 128 32 4 4" "128 64 64 4 4" "32 64 32 2 5"; do
    echo "$shape cfg $c: $(tile-run $K $(f32 $shape) $(cfg $c) --seed $RANDOM$RANDOM --no-bench 2>&1 | grep -E 'check|error' | head -2 | tr '\n' ' ')"
  done
done
echo "leaky_relu: $(tile-run $K $(f32 1000 1000 1000) --set ACTIVATION='"leaky_relu"' --seed $RANDOM --no-bench 2>&1 | grep -E 'check|error')"
tile-run $K $(f32 256 256 256) --compare 2>&1 | tail -2
tile-run $K $(f32 512 512 512) --emit=ptx -o /tmp/tf32.ptx && ptxas -arch=sm_90a /tmp/tf32.ptx -o /tmp/tf32.cubin && \
  echo "HGMMA: $(cuobjdump -sass /tmp/tf32.cubin | grep -m1 -oE 'HGMMA[^ ]*')"
for s in 2048 4096; do
  echo "tile fp32(tf32) S=$s: $(tile-run $K $(f32 $s $s $s) --no-check 2>&1 | grep -oE '[0-9.]+ TFLOP/s|error.*')"
  echo "tile fp32(tf32) S=$s tuned: $(tile-run $K $(f32 $s $s $s) --autotune --no-check 2>&1 | grep -E 'autotune: best|TFLOP' | tr '\n' ' ')"
done
python3 - <<'PY'
import torch, triton
torch.backends.cuda.matmul.allow_tf32 = True
for S in (2048, 4096):
    a = torch.randn(S, S, device="cuda"); b = torch.randn(S, S, device="cuda")
    ms = triton.testing.do_bench(lambda: a @ b, quantiles=[0.5])
    print(f"torch tf32 S={S}: {2*S**3/ms*1e-9:.1f} TFLOP/s")
PY
