# Tile's softmax PTX at several num_warps and register caps (.maxnreg, so
# that more programs fit on an SM), timed with Triton's softmax by one
# do_bench harness, alternating (bench/ptx_softmax_bench.py).
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
V=$OUT/softmax-variants; mkdir -p $V
IFS=";" read -ra cfgs <<< "${CONFIGS:-8192 8 - 48 40;8192 16 -;12288 16 - 40}"  # configs separated by ";"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; w=$2; shift 2
  rm -f $V/*.ptx
  base=$V/w$w.ptx
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --set num_warps=$w --emit=ptx -o $base
  for cap in "$@"; do
    [ "$cap" = - ] && continue
    sed "s/^\.reqntid \(.*\)$/.reqntid \1\n.maxnreg $cap/" $base > $V/w$w-maxnreg$cap.ptx
  done
  for f in $V/*.ptx; do echo "$(basename $f): $(ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | grep -E 'registers|spill' | tr -s ' ' | tr '\n' ' ')"; done
  ROUNDS=${ROUNDS:-5} python3 bench/ptx_softmax_bench.py $n $V/*.ptx
done
