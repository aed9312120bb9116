# Several rows per program (bench/experiments/softmax_rows.tile) against
# one row per program and Triton's softmax, one do_bench harness,
# alternating (bench/ptx_softmax_bench.py). Each config: N, then variants
# ROWS:WARPS.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
V=$OUT/softmax-rows; mkdir -p $V
IFS=";" read -ra cfgs <<< "${CONFIGS:-8192 2:16 2:32 4:32 2:8;12288 2:32 2:16}"  # configs separated by ";"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; shift
  rm -f $V/*.ptx
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --emit=ptx -o $V/a-one-row.ptx
  for v in "$@"; do
    r=${v%:*}; w=${v#*:}
    tile-run bench/experiments/softmax_rows.tile --set n_rows=4096 --set n_cols=$n --set ROWS=$r --set num_warps=$w \
      --emit=ptx -o $V/b-rows$r-w$w-g$((4096 / r)).ptx
  done
  for f in $V/*.ptx; do echo "$(basename $f): $(ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | grep -E 'registers|spill|rror' | tr -s ' ' | tr '\n' ' ')"; done
  ROUNDS=${ROUNDS:-7} python3 bench/ptx_softmax_bench.py $n $V/*.ptx
done
