# A/B of the matmul code: Tile's PTX from this build against an earlier
# PTX (BEFORE, a path) and Triton's kernel, timed by one do_bench harness,
# alternating (bench/ptx_matmul_bench.py), at each S in SIZES.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
V=$OUT/ab; mkdir -p $V
tile-run kernels/matmul.tile --set M=2048 --set N=2048 --set K=2048 --emit=ptx -o $V/after.ptx
cp ${BEFORE:?} $V/before.ptx
for f in $V/*.ptx; do ptxas -arch=sm_90a -v $f -o /tmp/v.cubin 2>&1 | grep -oE "Used [0-9]+ registers" | sed "s|^|$(basename $f): |"; echo "$(basename $f): $(cuobjdump -sass /tmp/v.cubin | grep -cE '^\s+/\*[0-9a-f]{4}\*/') SASS instructions"; done
for S in ${SIZES:-2048 4096}; do
  PREFER_SHARED=1 ROUNDS=${ROUNDS:-9} python3 bench/ptx_matmul_bench.py $S 0 $V/before.ptx $V/after.ptx
done
