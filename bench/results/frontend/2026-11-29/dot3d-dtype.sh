#!/usr/bin/env bash
# tl.dot of 3-D blocks (Triton's test_dot3d: six variants, B 2 to 8, fp16/fp32/tf32, small and large blocks) and dtype constexprs on the GPU, float64 checks, memcheck and racecheck on one 3-D dot.
set -uo pipefail
# main 5f6efc1 (the 3-D dot, reverted after this call: dot3d_b4_large and dot-3d timed out in the driver JIT; their PTX is 69142 lines, which ptxas takes 110 s to assemble here). .jobs/new: the triage ports of test_dot3d, test/Frontend dot-3d, dtype-constexpr, tuple-ops.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export TILE_CACHE_DISABLE=1
for f in .jobs/new/*.tile; do echo "$(basename $f): $(timeout 60 tile-run $f --no-bench 2>&1 | grep -E '^check|rror' | cut -c1-150 | tr '\n' ' ')"; done
echo "dtype-constexpr fp16: $(timeout 60 tile-run .jobs/new/dtype-constexpr.tile --no-bench --set TO_TYPE=fp16 --set 'y=zeros(fp16, 64)' --set 'ref=x.to(fp16)' 2>&1 | grep -E '^check|rror' | tr '\n' ' ')"
for tool in memcheck racecheck; do echo "$tool dot-3d: $(timeout 200 compute-sanitizer --tool $tool tile-run .jobs/new/dot-3d.tile --no-bench 2>&1 | grep -E 'SUMMARY|^check' | cut -c1-120 | tr '\n' ' ')"; done
