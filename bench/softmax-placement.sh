# Softmax GB/s against buffer placement (bench/softmax_placement.py), and
# tile-run's own figure a few times, at the N where Tile and Triton tie.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
V=$OUT/placement; mkdir -p $V
for n in ${NS:-8192 12288}; do
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --emit=ptx -o $V/tile-$n.ptx
  python3 bench/softmax_placement.py $n $V/tile-$n.ptx
  for i in 1 2 3 4; do
    echo "tile-run N=$n: $(tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --no-check --no-ceiling --rep-ms 200 2>&1 | grep -oE '[0-9.]+ GB/s')"
  done
done
