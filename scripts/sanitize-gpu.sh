#!/usr/bin/env bash
# compute-sanitizer over every kernel in kernels/: memcheck, racecheck,
# synccheck and initcheck, each kernel at its launch description's own
# sizes with its check (a run whose check fails counts as a failure too).
# Runs on the GPU machine:
#
#   bash .gpu/unpack.sh && export PATH=$PWD/.gpu/bin:$PATH && scripts/sanitize-gpu.sh [KERNEL.tile...]
#
# Prints one line per kernel and tool (errors reported, the check's verdict)
# and a count; exits 1 if any run reported an error or failed.
set -uo pipefail
cd "$(dirname "$0")/.."
command -v tile-run >/dev/null || { echo "scripts/sanitize-gpu.sh: tile-run is not on the PATH" >&2; exit 1; }
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[ -x "$sanitizer" ] || { echo "scripts/sanitize-gpu.sh: compute-sanitizer not found" >&2; exit 1; }
export TILE_CACHE_DIR=$(mktemp -d)
tmp=$(mktemp -d)
kernels=("$@"); [ ${#kernels[@]} -gt 0 ] || kernels=(kernels/*.tile)
# Compile every kernel once outside the sanitizer, so that the sanitized
# runs load it from the cache (and a compile error is reported as one).
for k in "${kernels[@]}"; do tile-run "$k" --emit=ptx -o /dev/null || echo "FAIL compile $k" >> "$tmp/compile.log"; done
# One run: the tool's error summary and the kernel's check. Driver API
# errors count too (tile-run makes none: it asks a module only for the
# globals its image holds).
one() {
  local tool=$1 kernel=$2 out rc errors word
  out=$("$sanitizer" --tool "$tool" --error-exitcode 99 \
        tile-run "$kernel" --no-bench 2>&1); rc=$?
  # "ERROR SUMMARY: N errors"; racecheck: "RACECHECK SUMMARY: N hazards ...".
  errors=$(grep -oE 'SUMMARY: [0-9]+' <<<"$out" | grep -oE '[0-9]+' | tail -1)
  errors=${errors:-?}
  word=PASS
  { [ $rc -ne 0 ] || [ "$errors" != 0 ] || grep -q '^check.*FAIL' <<<"$out"; } && word=FAIL
  printf '%s %-10s %-40s %s errors, %s\n' "$word" "$tool" "$kernel" "$errors" \
    "$(grep -E '^check' <<<"$out" | grep -oE '(PASS|FAIL)$' | sort | uniq -c | tr -s ' ' | tr '\n' ' ')"
  [ $word = PASS ] || grep -vE '^(check|=========  *$)' <<<"$out" | head -12 | sed 's/^/    /'
}
export -f one; export sanitizer
for tool in memcheck racecheck synccheck initcheck; do
  for k in "${kernels[@]}"; do echo "$tool $k"; done
done | xargs -P 4 -L 1 bash -c 'one "$0" "$1"' | tee "$tmp/runs.log"
cat "$tmp/compile.log" 2>/dev/null
pass=$(grep -c '^PASS' "$tmp/runs.log"); fail=$(( $(grep -c '^FAIL' "$tmp/runs.log") + $(cat "$tmp/compile.log" 2>/dev/null | wc -l) ))
echo "== compute-sanitizer: $pass PASS, $fail FAIL (${#kernels[@]} kernels x memcheck racecheck synccheck initcheck)"
rm -rf "$tmp" "$TILE_CACHE_DIR"
[ "$fail" -eq 0 ]
