# The persistent softmax with the next row's load issued one iteration
# ahead (bench/experiments/softmax_prefetch.tile: a register pipeline
# written by hand) against the one-row-per-program kernel and Triton's
# softmax, one do_bench harness, alternating (bench/ptx_softmax_bench.py).
# Each config: N, then variants WARPS:PROGRAMS_PER_SM for the prefetching
# kernel; the one-row kernel runs at Tile's and Triton's num_warps.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
V=$OUT/softmax-prefetch; mkdir -p $V
sms=$(python3 -c "import torch; print(torch.cuda.get_device_properties(0).multi_processor_count)")
IFS=";" read -ra cfgs <<< "${CONFIGS:-8192 16:2 8:2 16:1 32:1;12288 16:1 32:1}"  # configs separated by ";"
for cfg in "${cfgs[@]}"; do
  set -- $cfg; n=$1; shift
  rm -f $V/*.ptx
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --emit=ptx -o $V/a-one-row.ptx
  tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n --set num_warps=16 --emit=ptx -o $V/a-one-row-w16.ptx
  for v in "$@"; do
    w=${v%:*}; p=${v#*:}
    tile-run bench/experiments/softmax_prefetch.tile --set n_rows=4096 --set n_cols=$n --set num_warps=$w \
      --emit=ptx -o $V/b-prefetch-w$w-g$((sms * p)).ptx
  done
  for f in $V/*.ptx; do echo "$(basename $f): $(ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | grep -E 'registers|spill|rror' | tr -s ' ' | tr '\n' ' ')"; done
  ROUNDS=${ROUNDS:-7} python3 bench/ptx_softmax_bench.py $n $V/*.ptx
done
