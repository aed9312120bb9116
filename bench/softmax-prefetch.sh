# The persistent softmax with the next row's load issued one iteration
# ahead (bench/experiments/softmax_prefetch.tile: a register pipeline
# written by hand) against the one-row-per-program kernel and Triton's
# softmax, one do_bench harness, alternating (bench/ptx_softmax_bench.py).
# Each config: N, then variants WARPS:PROGRAMS_PER_SM for the prefetching
# kernel; the one-row kernel runs at Tile's and Triton's num_warps.
source bench/softmax-variants-lib.sh
sms=$(python3 -c "import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)")
variants_setup softmax-prefetch "8192 16:2 8:2 16:1 32:1;12288 16:1 32:1"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; shift
  rm -f $V/*.ptx
  one_row_ptx $n $V/a-one-row.ptx
  one_row_ptx $n $V/a-one-row-w16.ptx 16
  for v in "$@"; do
    w=${v%:*}; p=${v#*:}
    tile-run bench/experiments/softmax_prefetch.tile --set n_rows=4096 --set n_cols=$n --set num_warps=$w \
      --emit=ptx -o $V/b-prefetch-w$w-g$((sms * p)).ptx
  done
  time_variants $n
done
