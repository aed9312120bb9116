# Tile's softmax PTX at several num_warps and register caps (.maxnreg, so
# that more programs fit on an SM), timed with Triton's softmax by one
# do_bench harness, alternating (bench/ptx_softmax_bench.py).
source bench/softmax-variants-lib.sh
variants_setup softmax-variants "8192 8 - 48 40;8192 16 -;12288 16 - 40"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; w=$2; shift 2
  rm -f $V/*.ptx
  base=$V/w$w.ptx
  one_row_ptx $n $base $w
  for cap in "$@"; do
    [ "$cap" = - ] && continue
    sed "s/^\.reqntid \(.*\)$/.reqntid \1\n.maxnreg $cap/" $base > $V/w$w-maxnreg$cap.ptx
  done
  time_variants $n
done
