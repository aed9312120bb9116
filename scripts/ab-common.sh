# What scripts/ab-attention.sh and scripts/ab-matmul.sh share (sourced, not
# run): their arguments, the GPU line, and reading compute-sanitizer.

# ab_parse USAGE_LINES "$@": BASELINE CANDIDATE... [BLOCKS] into the arrays
# `builds` (baseline first) and the number `blocks` (2 by default); prints
# the caller's usage (its header lines USAGE_LINES, sed's range) and exits 2
# when there are fewer than two builds or one is not an executable.
ab_parse() {
  local usage=$1
  shift
  [ $# -ge 2 ] || { sed -n "$usage" "$0" >&2; exit 2; }
  blocks=2
  if [ $# -ge 3 ] && [[ ${!#} =~ ^[0-9]+$ ]]; then
    blocks=${!#}
    set -- "${@:1:$#-1}"
  fi
  builds=("$@")
  local build
  for build in "${builds[@]}"; do
    [ -x "$build" ] ||
      { echo "$(basename "$0"): $build is not an executable" >&2; exit 2; }
  done
  command -v nvidia-smi >/dev/null &&
    nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
  return 0
}

# sanitizer_summary TOOL COMMAND...: prints compute-sanitizer's summary line
# for COMMAND; returns non-zero unless it reports nothing (racecheck sums up
# as "0 hazards displayed (0 errors, 0 warnings)").
sanitizer_summary() {
  local tool=$1 line
  shift
  line=$(compute-sanitizer --tool "$tool" "$@" 2>&1 |
    grep -E '(ERROR|RACECHECK) SUMMARY')
  echo "$line"
  grep -qE 'SUMMARY: 0 (errors|hazards)' <<<"$line"
}
