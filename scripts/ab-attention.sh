#!/usr/bin/env bash
# A/B of tile-run builds on tutorial 06's attention, on the GPU machine, in
# one call: what a compiler change to the attention path is measured with.
#
#   scripts/ab-attention.sh BASELINE_TILE_RUN CANDIDATE_TILE_RUN... [BLOCKS]
#
# 1. Each candidate's correctness: the forward (kernels/attn_fwd_descriptor
#    .tile) against its float64 references of O and M at D 64 (BLOCK_N 64,
#    4 warps) and D 128 (BLOCK_N 128, 8 warps), causal and not; the backward
#    against PyTorch (scripts/check-attention-bwd.py, where torch imports);
#    racecheck and synccheck on the D 128 causal forward at N_CTX 256 (where
#    compute-sanitizer is found).
# 2. Timing, Z = 4, H = 32: the builds taking turns, BLOCKS times (2 by
#    default), on the forward at N_CTX 1024 and 4096, causal and not, both
#    head dims, and the backward at N_CTX 1024, D 64 (4 warps) and 128
#    (8 warps). One line per
#    run: build (the file's name), kernel, shape, tile-run's median and
#    TFLOP/s.
# Any failed check makes the exit status non-zero; the timings still run.
#
# Make the baseline before rebuilding:
#   strip -o /tmp/pre build-static/bin/tile-run
#   xz -c /tmp/pre > .gpu/bin/tile-run-pre.xz
# (after ../shared/device/pack.sh, which empties .gpu/); .gpu/unpack.sh
# unpacks both.
set -uo pipefail
source "$(dirname "$0")/ab-common.sh"
ab_parse 2,24p "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
fwd=$root/kernels/attn_fwd_descriptor.tile
bwd=$root/kernels/attn_bwd.tile
d64="--set HEAD_DIM=64 --set BLOCK_N=64 --set num_warps=4"
d128="--set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8"
status=0

for cand in "${builds[@]:1}"; do
  echo "## checks ($cand)"
  for d in "$d64" "$d128"; do
    for causal in False True; do
      out=$("$cand" "$fwd" $d --set CAUSAL=$causal --set Z=1 --set H=2 \
        --set N_CTX=1024 --no-bench --no-cache 2>&1)
      checks=$(grep -cE '^check .*: PASS$' <<<"$out")
      dim=$(grep -o 'HEAD_DIM=[0-9]*' <<<"$d")
      echo "forward $dim CAUSAL=$causal: $checks checks passed"
      [ "$checks" -ge 2 ] && ! grep -qE '^check .*: FAIL$' <<<"$out" ||
        { echo "$out" | tail -5; status=1; }
    done
  done
  if python3 -c 'import torch' 2>/dev/null; then
    for warps in 4 8; do
      echo -n "backward, $warps warps: "
      python3 "$root/scripts/check-attention-bwd.py" --tile-run "$cand" \
        --warps $warps 2>/dev/null | tail -1 || status=1
    done
  fi
  if command -v compute-sanitizer >/dev/null; then
    for tool in racecheck synccheck; do
      echo -n "$tool: "
      sanitizer_summary $tool "$cand" "$fwd" $d128 --set CAUSAL=True \
        --set N_CTX=256 --no-bench --no-cache || status=1
    done
  fi
done

echo "## timing (Z=4, H=32; $blocks blocks, builds taking turns)"
time_one() { # build name shape kernel sets...
  local build=$1 name=$2 shape=$3 kernel=$4
  shift 4
  local line
  line=$("$build" "$kernel" "$@" --no-check --no-cache 2>&1 |
    grep -E '^time: ' | sed 's/^time: median //; s/ (p20.*flushed;//')
  echo "$name $shape: ${line:-FAILED}"
}
for ((b = 1; b <= blocks; b++)); do
  for dim in 64 128; do
    d=$d64
    [ $dim = 128 ] && d=$d128
    for n in 1024 4096; do
      for causal in False True; do
        for build in "${builds[@]}"; do
          time_one "$build" "$(basename "$build")" \
            "forward D $dim N_CTX $n causal $causal" "$fwd" $d --set Z=4 \
            --set H=32 --set N_CTX=$n --set CAUSAL=$causal
        done
      done
    done
  done
  # The backward at the warp counts it is benchmarked at (4 at D 64, 8 at
  # D 128, where 4 warps spill two 128 x 128 accumulators).
  for dim in 64 128; do
    warps=4
    [ $dim = 128 ] && warps=8
    for build in "${builds[@]}"; do
      time_one "$build" "$(basename "$build")" \
        "backward D $dim N_CTX 1024 $warps warps" "$bwd" --set BATCH=4 \
        --set N_HEAD=32 --set N_CTX=1024 --set HEAD_DIM=$dim \
        --set num_warps=$warps
    done
  done
done
exit $status
