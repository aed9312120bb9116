# Run-to-run spread at S = 2048, config 128x256x64 / 8 warps / 3 stages:
# Triton (do_bench) and Tile (tile-run) alternately, five times each.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
for round in 1 2 3; do
  SIZES=2048 REPEAT=5 python3 bench/triton_matmul_dump.py 2>&1 | grep TFLOP
  for i in 1 2 3 4 5; do
    echo "tile S=2048: $(tile-run kernels/matmul.tile --set M=2048 --set N=2048 --set K=2048 --no-check 2>&1 | grep -oE '[0-9.]+ TFLOP/s')"
  done
done
