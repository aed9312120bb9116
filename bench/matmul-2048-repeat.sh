# Run-to-run spread at S = 2048, config 128x256x64 / 8 warps / 3 stages:
# Triton (do_bench) and Tile (tile-run) alternately, five times each, three
# rounds; then a correctness spot check of the build measured.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
for round in 1 2 3; do
  SIZES=2048 REPEAT=5 python3 bench/triton_matmul_dump.py 2>&1 | grep TFLOP
  for i in 1 2 3 4 5; do
    echo "tile S=2048: $(tile-run kernels/matmul.tile --set M=2048 --set N=2048 --set K=2048 --no-check 2>&1 | grep -oE '[0-9.]+ TFLOP/s')"
  done
done
for shape in "2048 2048 2048" "1000 1000 1000" "4096 1024 8192"; do
  set -- $shape
  echo "$shape: $(tile-run kernels/matmul.tile --set M=$1 --set N=$2 --set K=$3 --seed $RANDOM --no-bench 2>&1 | grep -E 'check|error')"
done
