#!/usr/bin/env bash
# Front-end and layout fixes from Triton's unit tests on the GPU (main's static tile-run): each new test kernel's checks, memcheck on the transposed store, then the tutorials and the op suite.
set -uo pipefail
# .jobs/new/: test/Frontend permute-store, runtime-default, tuple-ops, constexpr-dtype, if-exp-void, early-return-in-constexpr-if, constexpr-if-return (main 93203c1).
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export TILE_CACHE_DISABLE=1
for f in .jobs/new/*.tile; do echo "$(basename $f): $(timeout 60 tile-run $f --no-bench 2>&1 | grep -E '^check|rror' | cut -c1-140 | tr '\n' ' ')"; done
echo "permute-store ptx: $(tile-run .jobs/new/permute-store.tile --emit=ptx | grep -oE 'st.global[.a-z0-9]*' | sort | uniq -c | tr '\n' ' ')"
echo "memcheck permute-store: $(timeout 120 compute-sanitizer --tool memcheck tile-run .jobs/new/permute-store.tile --no-bench 2>&1 | grep -E 'SUMMARY|^check' | tr '\n' ' ')"
echo "racecheck permute-store: $(timeout 120 compute-sanitizer --tool racecheck tile-run .jobs/new/permute-store.tile --no-bench 2>&1 | grep -E 'SUMMARY|^check' | tr '\n' ' ')"
echo "## scripts/check-gpu.sh tutorials ops"
time timeout 420 scripts/check-gpu.sh tutorials ops 2>&1 | tail -8
