# The floor for one row per program: Tile's softmax (the launch's kernel)
# beside the same program with the softmax taken out (a row copy,
# bench/experiments/row_copy.tile, same warps and grid), and Triton's
# softmax, in one do_bench harness, alternating (bench/ptx_softmax_bench.py).
# Each config: N, then extra num_warps for the copy.
source bench/softmax-variants-lib.sh
variants_setup softmax-floor "512 1;2048;8192 16;12288"
# COPY=1 adds torch copy_ and cuMemcpyDtoD of the same bytes (ptx_softmax_bench.py).
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; shift
  rm -f $V/*.ptx
  one_row_ptx $n $V/a-launch.ptx
  w=$(($(grep -oP '^\.reqntid \K\d+' $V/a-launch.ptx) / 32))
  for cw in $w "$@"; do
    tile-run bench/experiments/row_copy.tile --set n_rows=4096 --set n_cols=$n --set num_warps=$cw \
      --emit=ptx -o $V/b-copy-w$cw.ptx
  done
  time_variants $n
done
