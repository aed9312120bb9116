# Diagnostic: softmax GB/s at several num_warps, three rounds interleaved.
set -uo pipefail
for r in 1 2 3; do
for cfg in "512 1" "512 2" "512 4" "8192 4" "8192 8" "8192 16" "8192 32" "12288 8" "12288 16" "12288 32" "32768 16" "32768 32"; do
  set -- $cfg
  echo "r=$r N=$1 w=$2 $(tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$1 --set num_warps=$2 --rep-ms 100 --no-ceiling 2>&1 | grep -oE '[0-9.]+ GB/s|FAIL|error' | tr '\n' ' ')"
done; done
