#!/usr/bin/env bash
# Nsight Compute profile of one launch of a Tile kernel on the device machine:
# the full section set with the clocks left free and the caches flushed,
# saved as text (details, raw metrics CSV, per-instruction SASS samples)
# and summarized (duration, throughputs, IPC, issue slots, occupancy).
#
#   scripts/profile-gpu.sh FILE.tile [tile-run options...]    (OUT=DIR, default /tmp/tile-profile)
#   e.g. scripts/profile-gpu.sh kernels/matmul.tile --set M=2048 --set N=2048 --set K=2048
#
# To profile Triton's kernel beside it, run the same ncu command line on a
# Python script that launches it once (ncu -k regex:NAME -c 1 python3 ...).
set -uo pipefail
case "${1:-}" in ""|-h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
command -v ncu >/dev/null || { echo "scripts/profile-gpu.sh: ncu (Nsight Compute) is not on the PATH" >&2; exit 1; }
command -v tile-run >/dev/null || { echo "scripts/profile-gpu.sh: tile-run is not on the PATH" >&2; exit 1; }
out=${OUT:-/tmp/tile-profile}; mkdir -p "$out"
file=$1; shift
name=$(basename "$file" .tile)
kernel=$(grep -m1 -oE '^(#|//) *tile-run: *[A-Za-z_0-9]+' "$file" | awk '{print $NF}')
export TILE_CACHE_DIR=$(mktemp -d)
ncu --clock-control none --set full --import-source no -k "regex:${kernel:-.}" -c 1 \
  --export "$out/$name" --force-overwrite \
  tile-run "$file" "$@" --no-check --warmup-ms 1 --rep-ms 1 > "$out/$name-run.log" 2>&1 \
  || { echo "scripts/profile-gpu.sh: ncu failed; see $out/$name-run.log" >&2; exit 1; }
ncu --import "$out/$name.ncu-rep" --page details > "$out/$name-details.txt" 2>&1
ncu --import "$out/$name.ncu-rep" --page raw --csv > "$out/$name-raw.csv" 2>&1
ncu --import "$out/$name.ncu-rep" --page source --csv --print-source sass > "$out/$name-source.csv" 2>&1
grep -E "^\s+(Duration|Registers Per|Memory Throughput|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Executed Ipc A|Issue Slots Busy|Achieved Occupancy|Warp Cycles Per Issued|Dynamic Shared)" "$out/$name-details.txt"
echo "scripts/profile-gpu.sh: $out/$name.ncu-rep and $out/$name-{details.txt,raw.csv,source.csv}"
rm -rf "$TILE_CACHE_DIR"
