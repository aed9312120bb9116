# Compare Tile's and Triton's code for the 128x256x64 matmul (SASS in $OUT).
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=kernels/matmul.tile
python3 bench/triton_matmul_dump.py
for s in 2048 4096; do
  echo "tile S=$s: $(tile-run $K --set M=$s --set N=$s --set K=$s --no-check 2>&1 | grep -E 'TFLOP|error' | head -1)"
done
tile-run $K --emit=ptx -o $OUT/tile.ptx && ptxas -arch=sm_90a $OUT/tile.ptx -o /tmp/tile.cubin && cuobjdump -sass /tmp/tile.cubin > $OUT/tile.sass
wc -l $OUT/*.sass
