#!/usr/bin/env bash
# A/B of tile-run builds on tutorial 09's persistent TMA matmul
# (kernels/matmul_tma_persistent.tile), on the GPU machine, in one call:
# what a compiler change to the TMA matmul's path is measured with.
#
#   scripts/ab-matmul.sh BASELINE_TILE_RUN CANDIDATE_TILE_RUN... [BLOCKS]
#
# 1. Each candidate's correctness: the kernel against its float64
#    reference at the launch's own 1100 x 904 x 712 and at 2048^3, with
#    EPILOGUE_SUBTILE off and on; memcheck, racecheck and synccheck at the
#    launch's size, both epilogues (where compute-sanitizer is found).
# 2. Timing, fp16 S^3: the builds taking turns, BLOCKS times (2 by default),
#    at the configurations of the kernel's autotune list that lead at each
#    size (docs/performance.md): 1024^3 at 128x128x64 / 8 warps / 3 stages
#    and 64x128x64 / 4 / 4; 4096^3 and 8192^3 at 128x256x64 / 8 / 3,
#    4096^3 with EPILOGUE_SUBTILE too. One line per run: build (the file's
#    name), size, configuration, tile-run's median and TFLOP/s.
# Any failed check makes the exit status non-zero; the timings still run.
set -uo pipefail
source "$(dirname "$0")/ab-common.sh"
ab_parse 2,18p "$@"
root=$(cd "$(dirname "$0")/.." && pwd)
kernel=$root/kernels/matmul_tma_persistent.tile
status=0

for cand in "${builds[@]:1}"; do
  echo "## checks ($cand)"
  for size in launch 2048; do
    sets=()
    [ $size = launch ] || sets=(--set M=$size --set N=$size --set K=$size)
    for subtile in False True; do
      out=$("$cand" "$kernel" "${sets[@]}" --set EPILOGUE_SUBTILE=$subtile \
        --no-bench --no-cache 2>&1)
      line=$(grep -E '^check ' <<<"$out" | head -1)
      echo "size $size EPILOGUE_SUBTILE=$subtile: $line"
      grep -qE '^check .*: PASS$' <<<"$out" &&
        ! grep -qE '^check .*: FAIL$' <<<"$out" ||
        { echo "$out" | tail -5; status=1; }
    done
  done
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck synccheck; do
      for subtile in False True; do
        echo -n "$tool EPILOGUE_SUBTILE=$subtile: "
        sanitizer_summary $tool "$cand" "$kernel" \
          --set EPILOGUE_SUBTILE=$subtile --no-bench --no-cache || status=1
      done
    done
  fi
done

echo "## timing ($blocks blocks, builds taking turns)"
configs=("1024 128 128 64 8 3 False" "1024 64 128 64 4 4 False"
  "4096 128 256 64 8 3 False" "4096 128 256 64 8 3 True"
  "8192 128 256 64 8 3 False")
for ((b = 1; b <= blocks; b++)); do
  for config in "${configs[@]}"; do
    read -r s bm bn bk warps stages subtile <<<"$config"
    for build in "${builds[@]}"; do
      line=$("$build" "$kernel" --set M=$s --set N=$s --set K=$s \
        --set BLOCK_SIZE_M=$bm --set BLOCK_SIZE_N=$bn --set BLOCK_SIZE_K=$bk \
        --set num_warps=$warps --set num_stages=$stages \
        --set EPILOGUE_SUBTILE=$subtile --no-check --no-cache 2>&1 |
        grep -E '^time: ' | sed 's/^time: median //; s/ (p20.*flushed;//')
      echo "$(basename "$build") S=$s ${bm}x${bn}x${bk} w$warps" \
        "s$stages EPILOGUE_SUBTILE=$subtile: ${line:-FAILED}"
    done
  done
done
exit $status
