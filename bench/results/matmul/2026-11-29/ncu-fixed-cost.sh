#!/usr/bin/env bash
# Nsight Compute's kernel durations (its clock control, caches flushed) at M = N = 1024, K = 64 and 1024: where is the
# one-warpgroup TMA kernel's extra microsecond at 8 stages?
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
M="--metrics gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"
cat > /tmp/cub.py <<'PY'
import sys, torch
k = int(sys.argv[1])
a = torch.randn(1024, k, device="cuda", dtype=torch.float16); b = torch.randn(k, 1024, device="cuda", dtype=torch.float16)
for _ in range(3): c = a @ b
torch.cuda.synchronize()
PY
for k in 64 1024; do
  echo "## K=$k cuBLAS"; timeout 100 ncu --launch-skip 2 --launch-count 1 $M python3 /tmp/cub.py $k 2>&1 | grep -E "^  [a-z_]+.*\(|duration|cycles_active|inst_exec|tensor"
  for s in 4 8; do
    echo "## K=$k tma s$s"; timeout 100 ncu $M tile-run bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --no-bench --no-check --set K=$k --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=$s --set WARP_SPECIALIZE=False 2>&1 | grep -E "duration|cycles_active|inst_exec|tensor"
  done
  echo "## K=$k cp.async s5"; timeout 100 ncu $M tile-run kernels/matmul.tile --no-bench --no-check --set M=1024 --set N=1024 --set K=$k --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set BLOCK_SIZE_K=64 --set num_warps=4 --set num_stages=5 2>&1 | grep -E "duration|cycles_active|inst_exec|tensor"
done
