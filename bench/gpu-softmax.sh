#!/usr/bin/env bash
# The softmax checks for the device machine (see README): correctness
# against float64 for 1823 x 781 and every benchmarked shape, GB/s for
# M = 4096 and the N next to Triton's and PyTorch's from the same run,
# the interpreter-vs-GPU comparison for every kernel, and add's bandwidth.
#   bash .gpu/unpack.sh && export PATH=$PWD/.gpu/bin:$PATH && bash bench/gpu-softmax.sh
set -uo pipefail
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== softmax 1823 x 781 (one row per program, then persistent)"
tile-run kernels/softmax_simple.tile --seed $RANDOM$RANDOM --no-bench || echo "CHECK FAILED"
tile-run kernels/softmax.tile --seed $RANDOM$RANDOM --no-bench || echo "CHECK FAILED"
echo "== softmax M = 4096: check and GB/s"
for n in 256 512 781 1024 2048 4096 8192 12288 32768; do
  echo "-- N = $n"
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n \
    --seed $RANDOM$RANDOM --rep-ms 200 2>&1 | grep -E "check|GB/s|error|FAIL" | tee -a $out/tile_softmax.log
done
echo "== --compare: GPU against the interpreter"
for k in add softmax_simple softmax matmul; do tile-run kernels/$k.tile --compare 2>&1 | tail -4; done
echo "== matmul (CUDA-core FMA lowering, 512^3 and odd shapes): check"
tile-run kernels/matmul.tile --seed $RANDOM --no-bench || echo "CHECK FAILED"
tile-run kernels/matmul.tile --set M=513 --set N=257 --set K=129 --seed $RANDOM --no-bench || echo "CHECK FAILED"
echo "== add bandwidth"
for n in '2**20' '2**24' '2**27'; do tile-run kernels/add.tile --set "n=$n" --seed $RANDOM | grep -E "GB/s|check"; done
echo "== Triton and PyTorch, same run"
PYTHONUNBUFFERED=1 python3 .gpu/triton_ref.py softmax add 2>&1 | tee $out/triton_softmax.log
