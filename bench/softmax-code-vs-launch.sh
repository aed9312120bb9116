# Is a softmax difference in the code or in the launch and timing? Tile's
# PTX and Triton's PTX (bench/triton_dump.py) loaded by one ctypes harness,
# next to Triton's own launch, alternating (bench/ptx_softmax_bench.py).
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
V=$OUT/code-vs-launch; mkdir -p $V
OUT=$V python3 bench/triton_dump.py ${NS:-8192 12288} | tee $V/dump.log
for n in ${NS:-8192 12288}; do
  rm -f $V/run-*.ptx
  cp $V/triton_softmax_$n.ptx $V/run-triton-code.ptx
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --emit=ptx -o $V/run-tile-code.ptx
  for f in $V/run-*.ptx; do echo "$(basename $f): $(ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | grep -oE 'Used [0-9]+ registers')"; done
  TRITON_SHARED=$(grep -oE "N=$n .*shared=[0-9]+" $V/dump.log | grep -oE '[0-9]+$') \
    ROUNDS=${ROUNDS:-7} python3 bench/ptx_softmax_bench.py $n $V/run-*.ptx
  for i in 1 2 3; do
    echo "tile-run N=$n: $(tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --no-check --no-ceiling 2>&1 | grep -oE '[0-9.]+ GB/s')"
  done
done
