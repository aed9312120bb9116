# Tile's compiled matmul and hand-edited variants of its PTX, timed by the
# same do_bench harness as Triton's kernel, alternating (bench/ptx_matmul_bench.py);
# tile-run's own figure for the same kernel alongside.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
S=${S:-2048}
V=$OUT/variants; mkdir -p $V
tile-run kernels/matmul.tile --set M=$S --set N=$S --set K=$S --emit=ptx -o $V/tile.ptx
sed '/fence.proxy.async/d' $V/tile.ptx > $V/tile-nofence.ptx
sed -e 's/^\.version 8.0/.version 8.6/' -e 's/fence.proxy.async.shared::cta;/fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;/' $V/tile.ptx > $V/tile-relfence.ptx
for f in $V/*.ptx; do ptxas -arch=sm_90a $f -o /tmp/v.cubin && echo "$(basename $f): $(cuobjdump -sass /tmp/v.cubin | grep -cE 'MEMBAR|FENCE') fence/membar instructions: $(cuobjdump -sass /tmp/v.cubin | grep -oE '(MEMBAR|FENCE)[A-Z.]*' | sort | uniq -c | tr '\n' ' ')"; done
for extra in ${EXTRA_VARIANTS:-}; do cp $extra $V/; done
PREFER_SHARED=${PREFER_SHARED-1} ROUNDS=${ROUNDS:-5} python3 bench/ptx_matmul_bench.py $S 147456 $V/*.ptx
for i in 1 2 3; do
  echo "tile-run S=$S: $(tile-run kernels/matmul.tile --set M=$S --set N=$S --set K=$S --no-check 2>&1 | grep -oE '[0-9.]+ TFLOP/s')"
done
