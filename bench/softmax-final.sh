# Issue 5's checks in one device call: softmax correctness at 1823 x 781
# (one row per program and the persistent kernel), R alternating repeats of
# Tile (tile-run, float64 check at every N) and Triton/PyTorch
# (triton_ref.py softmax) with medians (bench/softmax-repeat.sh), the
# sweep's CSV for the plot, the interpreter-vs-GPU comparison of the
# reduction kernels, and add's checks and figures (bench/gpu-add.sh).
#   bash .gpu/unpack.sh && export PATH=$PWD/.gpu/bin:$PATH && bash bench/softmax-final.sh
set -uo pipefail
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== softmax 1823 x 781 (one row per program, then persistent)"
tile-run kernels/softmax_simple.tile --seed $RANDOM$RANDOM --no-bench | tail -1
tile-run kernels/softmax.tile --seed $RANDOM$RANDOM --no-bench | tail -1
echo "== --compare: GPU against the interpreter"
for k in softmax_simple argmax cumsum associative_scan; do tile-run kernels/$k.tile --compare 2>&1 | tail -1; done
echo "== softmax M = 4096, R=${R:-7} alternating repeats"
R=${R:-7} bash bench/softmax-repeat.sh
echo "== sweep (CSV for the plot)"
tile-run kernels/softmax_simple.tile --set n_rows=4096 \
  --sweep n_cols=256,512,781,1024,1536,2048,3072,4096,6144,8192,12288,16384,32768 \
  --csv $out/tile-softmax.csv --rep-ms 100 2>&1 | tail -16
echo "== add"
bash bench/gpu-add.sh
