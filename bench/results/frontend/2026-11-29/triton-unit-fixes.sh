#!/usr/bin/env bash
# Front-end fixes from running Triton's unit-test kernels (fp8 abs, early return in a compile-time if, negative range steps, the contiguity analysis reading tl.multiple_of/max_contiguous) on the GPU; tutorial 09's matmul_kernel and matmul_persistent before/after the hints (old tile-run = main 2d90f62's), cuBLAS and Triton 3.6's same kernels in the same call.
set -uo pipefail
# .jobs/new/: the new tests of test/Frontend (fp8-abs, early-return-in-constexpr-if, range-negative-step, hints-vectorize) and two Triton unit-test ports (abs_fp8e4nv, if_return_dynamic); .jobs/old-tile-run.xz: the static tile-run of main 2d90f62.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -c .jobs/old-tile-run.xz > .jobs/old-tile-run && chmod +x .jobs/old-tile-run
export TILE_CACHE_DISABLE=1
echo "## the new tests' kernels on the GPU (float64/exact checks)"
for f in .jobs/new/*.tile; do echo "$(basename $f): $(timeout 60 tile-run $f --no-bench 2>&1 | grep -E '^check|rror' | tr '\n' ' ')"; done
echo "## memcheck on the hinted copy and fp8 abs"
for f in .jobs/new/hints-vectorize.tile .jobs/new/fp8-abs.tile; do echo "$(basename $f): $(timeout 120 compute-sanitizer --tool memcheck tile-run $f --no-bench 2>&1 | grep -E 'SUMMARY|^check' | tr '\n' ' ')"; done
echo "## matmul_09 / matmul_persistent checks (new), several shapes"
for k in matmul_09 matmul_persistent; do for mnk in "1100 900 700" "1024 1024 1024" "513 257 129" "4096 4096 4096"; do set -- $mnk
 echo "$k $1x$2x$3: $(timeout 60 tile-run kernels/$k.tile --no-bench --set M=$1 --set N=$2 --set K=$3 2>&1 | grep -E '^check|rror' | tr '\n' ' ')"; done; done
echo "memcheck matmul_09 1100x900x700: $(timeout 200 compute-sanitizer --tool memcheck tile-run kernels/matmul_09.tile --no-bench 2>&1 | grep -E 'SUMMARY|^check' | tr '\n' ' ')"
echo "## A/B old/new (us), cuBLAS beside"
python3 scripts/ab-tile-run.py .jobs/old-tile-run $(command -v tile-run) --rounds 3 --us \
  'mm09 1024|kernels/matmul_09.tile|M=1024,N=1024,K=1024|cublas:1024,1024,1024' \
  'mm09 4096 128x256|kernels/matmul_09.tile|M=4096,N=4096,K=4096,BLOCK_SIZE_N=256|cublas:4096,4096,4096' \
  'mm09 4096|kernels/matmul_09.tile|M=4096,N=4096,K=4096|cublas:4096,4096,4096' \
  'persistent 4096|kernels/matmul_persistent.tile|M=4096,N=4096,K=4096|cublas:4096,4096,4096' \
  'persistent 1100x900x700|kernels/matmul_persistent.tile|M=1100,N=900,K=700' 2>&1 | tail -40
echo "## Triton 3.6, the same kernels and configurations"
python3 bench/results/frontend/2026-11-29/triton-mm09.py mm09 1024 1024 1024 128 128
python3 bench/results/frontend/2026-11-29/triton-mm09.py mm09 4096 4096 4096 128 256
python3 bench/results/frontend/2026-11-29/triton-mm09.py mm09 4096 4096 4096 128 128
python3 bench/results/frontend/2026-11-29/triton-mm09.py persistent 4096 4096 4096 128 128
python3 bench/results/frontend/2026-11-29/triton-mm09.py persistent 1100 900 700 128 128
echo "## scripts/check-gpu.sh tutorials matmul"
time timeout 300 scripts/check-gpu.sh tutorials matmul 2>&1 | tail -15
