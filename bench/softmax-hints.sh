# Tile's softmax PTX with cache hints on its global loads and stores
# (L2 prefetch size, streaming, no L1 allocation) and at other num_warps,
# timed beside Triton's softmax by one do_bench harness, alternating
# (bench/ptx_softmax_bench.py). Each variant is checked against torch.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
V=$OUT/softmax-hints; mkdir -p $V
IFS=";" read -ra cfgs <<< "${CONFIGS:-8192 8 16;12288 16 8}"  # configs separated by ";"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; w=$2; shift 2
  rm -f $V/*.ptx
  base=$V/a-w$w.ptx
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --set num_warps=$w --emit=ptx -o $base
  for ow in "$@"; do
    tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --set num_warps=$ow --emit=ptx -o $V/b-w$ow.ptx
  done
  sed 's/ld\.global\.v4/ld.global.L2::256B.v4/' $base > $V/c-ld-L2-256B.ptx
  sed 's/ld\.global\.v4/ld.global.L2::128B.v4/' $base > $V/c-ld-L2-128B.ptx
  sed 's/ld\.global\.v4/ld.global.L1::no_allocate.v4/' $base > $V/d-ld-L1-noalloc.ptx
  sed 's/ld\.global\.v4/ld.global.cs.v4/' $base > $V/e-ld-cs.ptx
  sed 's/st\.global\.v4/st.global.cs.v4/' $base > $V/f-st-cs.ptx
  sed 's/ld\.global\.v4/ld.global.cs.v4/; s/st\.global\.v4/st.global.cs.v4/' $base > $V/g-ld-st-cs.ptx
  sed 's/ld\.global\.v4/ld.global.nc.L2::256B.v4/' $base > $V/h-ld-nc-256B.ptx
  for f in $V/*.ptx; do echo "$(basename $f): $(ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | grep -E 'registers|spill|rror' | tr -s ' ' | tr '\n' ' ')"; done
  ROUNDS=${ROUNDS:-7} python3 bench/ptx_softmax_bench.py $n $V/*.ptx
done
