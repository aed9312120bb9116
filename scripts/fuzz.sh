#!/usr/bin/env bash
# Builds the front-end fuzzer (tools/tile-frontend-fuzzer: libFuzzer, ASan,
# UBSan, clang) in build-fuzz/ and runs it from the seed corpus.
#   scripts/fuzz.sh            build, then fuzz for 10 minutes
#   scripts/fuzz.sh 60         build, then fuzz for 60 seconds
#   scripts/fuzz.sh build      build only (what scripts/test.sh does)
# Each run starts afresh in build-fuzz/fuzz-run/: corpus/ (seeds: fuzz/corpus,
# kernels/, test/Frontend, test/fuzz), artifacts/ (inputs that crashed,
# timed out or ran out of memory), fuzz-0.log and summary.txt. Exit status 0
# means no crash. Compiler: $TILE_FUZZ_CXX (default clang++-14); build jobs:
# $JOBS (default: all cores).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
what=${1:-600}
cxx=${TILE_FUZZ_CXX:-clang++-14}
cc=${TILE_FUZZ_CC:-${cxx/clang++/clang}}
dir=build-fuzz
[ -f "$dir/build.ninja" ] || cmake -G Ninja -S . -B "$dir" -DTILE_FUZZ=ON \
  -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" >/dev/null
ninja -C "$dir" -j"${JOBS:-$(nproc)}" tile-frontend-fuzzer
[ "$what" = build ] && exit 0

run=$dir/fuzz-run
rm -rf "$run" && mkdir -p "$run/corpus" "$run/artifacts"
cd "$run"
status=0
# -jobs=1: one worker process, its output in fuzz-0.log.
"$root/$dir/bin/tile-frontend-fuzzer" corpus "$root/fuzz/corpus" \
  "$root/kernels" "$root/test/Frontend" "$root/test/fuzz" \
  -dict="$root/fuzz/tile.dict" -max_total_time="$what" -timeout=10 \
  -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 -jobs=1 \
  -artifact_prefix=artifacts/ >fuzzer.log 2>&1 || status=$?
{
  echo "date: $(date -u +%Y-%m-%d) commit: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD || echo ' (with local changes)')"
  echo "seconds: $what exit status: $status"
  grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^Done [0-9]+ runs|^stat::' fuzz-0.log || true
  echo "corpus: $(ls corpus | wc -l) new inputs, $(du -sk corpus | cut -f1) KiB"
  echo "artifacts: $(ls artifacts | wc -l)"
  ls artifacts | sed "s|^|  $run/artifacts/|"
} | tee summary.txt
if [ "$status" != 0 ]; then
  echo "the fuzzer failed; the report is in $run/fuzz-0.log:" >&2
  grep -E 'ERROR:|runtime error|Assertion|SUMMARY' fuzz-0.log | head -5 >&2 || true
fi
exit "$status"
