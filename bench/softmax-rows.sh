# Several rows per program (bench/experiments/softmax_rows.tile) against
# one row per program and Triton's softmax, one do_bench harness,
# alternating (bench/ptx_softmax_bench.py). Each config: N, then variants
# ROWS:WARPS.
source bench/softmax-variants-lib.sh
variants_setup softmax-rows "8192 2:16 2:32 4:32 2:8;12288 2:32 2:16"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; shift
  rm -f $V/*.ptx
  one_row_ptx $n $V/a-one-row.ptx
  for v in "$@"; do
    r=${v%:*}; w=${v#*:}
    tile-run bench/experiments/softmax_rows.tile --set n_rows=4096 --set n_cols=$n --set ROWS=$r --set num_warps=$w \
      --emit=ptx -o $V/b-rows$r-w$w-g$((4096 / r)).ptx
  done
  time_variants $n
done
