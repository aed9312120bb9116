# Tile's softmax PTX with cache hints on its global loads and stores
# (L2 prefetch size, streaming, no L1 allocation) and at other num_warps,
# timed beside Triton's softmax by one do_bench harness, alternating
# (bench/ptx_softmax_bench.py). Each variant is checked against torch.
source bench/softmax-variants-lib.sh
variants_setup softmax-hints "8192 8 16;12288 16 8"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; w=$2; shift 2
  rm -f $V/*.ptx
  base=$V/a-w$w.ptx
  one_row_ptx $n $base $w
  for ow in "$@"; do
    one_row_ptx $n $V/b-w$ow.ptx $ow
  done
  sed 's/ld\.global\.v4/ld.global.L2::256B.v4/' $base > $V/c-ld-L2-256B.ptx
  sed 's/ld\.global\.v4/ld.global.L2::128B.v4/' $base > $V/c-ld-L2-128B.ptx
  sed 's/ld\.global\.v4/ld.global.L1::no_allocate.v4/' $base > $V/d-ld-L1-noalloc.ptx
  sed 's/ld\.global\.v4/ld.global.cs.v4/' $base > $V/e-ld-cs.ptx
  sed 's/st\.global\.v4/st.global.cs.v4/' $base > $V/f-st-cs.ptx
  sed 's/ld\.global\.v4/ld.global.cs.v4/; s/st\.global\.v4/st.global.cs.v4/' $base > $V/g-ld-st-cs.ptx
  sed 's/ld\.global\.v4/ld.global.nc.L2::256B.v4/' $base > $V/h-ld-nc-256B.ptx
  time_variants $n
done
