# Sourced by the softmax variant experiments (softmax-hints.sh,
# softmax-prefetch.sh, softmax-rows.sh, softmax-variants.sh): each writes
# PTX files for one N into $V, then times them all beside Triton's softmax
# in one do_bench harness (bench/ptx_softmax_bench.py).
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)

# variants_setup NAME DEFAULT: the folder $V=$OUT/NAME and the configs
# cfgs=(...) from $CONFIGS or DEFAULT, separated by ";".
variants_setup() {
  V=$OUT/$1; mkdir -p $V
  IFS=";" read -ra cfgs <<< "${CONFIGS:-$2}"
}

# one_row_ptx N FILE [NUM_WARPS]: Tile's one-row-per-program softmax for
# 4096 x N (at the launch's num_warps unless given) into FILE.
one_row_ptx() {
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$1 \
    ${3:+--set num_warps=$3} --emit=ptx -o $2
}

# time_variants N: ptxas's registers and spills for each $V/*.ptx, then
# ROUNDS alternating rounds of all of them and Triton; the files go after.
time_variants() {
  for f in $V/*.ptx; do
    echo "$(basename $f): $(ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | grep -E 'registers|spill|rror' | tr -s ' ' | tr '\n' ' ')"
  done
  ROUNDS=${ROUNDS:-7} python3 bench/ptx_softmax_bench.py $1 $V/*.ptx
}
