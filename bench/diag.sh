# Diagnostic: softmax GB/s at other num_warps than the tutorial's.
set -uo pipefail
for n in 256 512 781 1024 2048; do for w in 1 2 4; do
  echo "N=$n w=$w $(tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --set num_warps=$w --rep-ms 200 --no-ceiling 2>&1 | grep -oE '[0-9.]+ GB/s|FAIL|error' | tr '\n' ' ')"
done; done
