# Small rows (N <= 2048, M = 4096): one row per program at other num_warps
# and under a register cap (so that all 4096 programs fit in one wave), and
# ROWS rows per program (bench/experiments/softmax_rows.tile), against the
# launch's one-row kernel and Triton's softmax in one do_bench harness,
# alternating (bench/ptx_softmax_bench.py). Each config: N, then variants:
# wW (one row, W warps), wW-rR (one row, .maxnreg R), ROWS:WARPS.
source bench/softmax-variants-lib.sh
variants_setup softmax-small "256 w1 w4 2:2 4:4 8:8;512 w1 w4 2:2 4:4 8:8;781 w1 w2-r32 w4 2:4 4:8;1024 w1 w4 2:4;2048 w2-r32 w4 w8"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; shift
  rm -f $V/*.ptx
  one_row_ptx $n $V/a-launch.ptx
  for v in "$@"; do
    case $v in
    w*-r*)
      w=${v%-r*}; w=${w#w}; cap=${v#*-r}
      one_row_ptx $n $V/tmp.ptx $w
      sed "s/^\.reqntid \(.*\)$/.reqntid \1\n.maxnreg $cap/" $V/tmp.ptx > $V/b-$v.ptx; rm $V/tmp.ptx ;;
    w*) one_row_ptx $n $V/b-$v.ptx ${v#w} ;;
    *)
      r=${v%:*}; w=${v#*:}
      tile-run bench/experiments/softmax_rows.tile --set n_rows=4096 --set n_cols=$n --set ROWS=$r \
        --set num_warps=$w --emit=ptx -o $V/c-rows$r-w$w-g$((4096 / r)).ptx ;;
    esac
  done
  time_variants $n
done
