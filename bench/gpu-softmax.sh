#!/usr/bin/env bash
# The softmax checks for the device machine (see README): correctness
# against float64 for 1823 x 781 and every benchmarked shape, GB/s for
# M = 4096 and the issue's N next to Triton's and PyTorch's from the same run
# (Tile and Triton alternated, twice each, since run-to-run noise at small N
# is several percent), Tile again at the tutorial's num_warps, the sweep's
# CSV, the interpreter-vs-GPU comparison for every kernel, and add.
#   bash .gpu/unpack.sh && export PATH=$PWD/.gpu/bin:$PATH && bash bench/gpu-softmax.sh
set -uo pipefail
out=${OUT:-/tmp}
Ns="256 512 781 1024 2048 4096 8192 12288 32768"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== softmax 1823 x 781 (one row per program, then persistent)"
tile-run kernels/softmax_simple.tile --seed $RANDOM$RANDOM --no-bench || echo "CHECK FAILED"
tile-run kernels/softmax.tile --seed $RANDOM$RANDOM --no-bench || echo "CHECK FAILED"
tile_pass() { # $1: log name; $2: "tutorial" to use the tutorial's num_warps
  for n in $Ns; do
    extra=()
    if [ "${2:-}" = tutorial ]; then
      w=4; [ $n -gt 1024 ] && w=8; [ $n -gt 2048 ] && w=16
      extra=(--set num_warps=$w)
    fi
    echo "N=$n $(tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n "${extra[@]}" \
      --seed $RANDOM$RANDOM --rep-ms 200 --no-ceiling 2>&1 | grep -oE '[0-9.]+ GB/s|PASS|FAIL|error' | tr '\n' ' ')"
  done | tee $out/$1.log
}
echo "== softmax M = 4096: Tile (pass 1), check and GB/s"; tile_pass tile1
echo "== Triton and PyTorch (run 1)"
PYTHONUNBUFFERED=1 python3 .gpu/triton_ref.py softmax add 2>&1 | tee $out/triton1.log
cp $out/triton_ref.json $out/triton1.json 2>/dev/null
echo "== Tile (pass 2)"; tile_pass tile2
echo "== Triton and PyTorch (run 2)"
PYTHONUNBUFFERED=1 python3 .gpu/triton_ref.py softmax 2>&1 | tee $out/triton2.log
cp $out/triton_ref.json $out/triton2.json 2>/dev/null
echo "== Tile at the tutorial's num_warps"; tile_pass tile_tutorial tutorial
echo "== sweep (CSV for the plot)"
tile-run kernels/softmax_simple.tile --set n_rows=4096 --sweep n_cols=256,512,781,1024,1536,2048,3072,4096,6144,8192,12288,16384,32768 \
  --csv $out/tile-softmax.csv --rep-ms 100 2>&1 | tail -16
echo "== --compare: GPU against the interpreter"
for k in add softmax_simple softmax matmul cumsum argmax; do tile-run kernels/$k.tile --compare 2>&1 | tail -2; done
echo "== matmul (CUDA-core FMA lowering, 512^3 and odd shapes): check"
tile-run kernels/matmul.tile --seed $RANDOM --no-bench || echo "CHECK FAILED"
tile-run kernels/matmul.tile --set M=513 --set N=257 --set K=129 --seed $RANDOM --no-bench || echo "CHECK FAILED"
echo "== add bandwidth"
for n in '2**20' '2**24' '2**27'; do tile-run kernels/add.tile --set "n=$n" --seed $RANDOM | grep -E "GB/s|check"; done
