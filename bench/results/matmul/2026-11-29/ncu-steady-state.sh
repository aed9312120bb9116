#!/usr/bin/env bash
# Nsight Compute at M = N = 1024, K = 4096 (steady state): cuBLAS against Tile's kernels.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
cat > /tmp/cub.py <<'PY'
import torch
a = torch.randn(1024, 4096, device="cuda", dtype=torch.float16); b = torch.randn(4096, 1024, device="cuda", dtype=torch.float16)
for _ in range(3): c = a @ b
torch.cuda.synchronize()
PY
M="--metrics regex:smsp__warp_issue_stalled_.*_per_warp_active.pct,regex:sm__pipe_tensor.*cycles_active.avg.pct_of_peak_sustained_active,regex:sm__inst_executed_pipe_.*\.avg\.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed.sum,sm__warps_active.avg.per_cycle_active,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum,lts__t_sectors.avg.pct_of_peak_sustained_elapsed"
S="--section SpeedOfLight --section ComputeWorkloadAnalysis"
filt() { grep -v -E "^\s*(---|$)|OPT|INF|WRN|^          " | grep -v -E " 0(\.00)?$| 0$" ; }
echo "## cuBLAS"; timeout 120 ncu --launch-skip 2 --launch-count 1 $S $M python3 /tmp/cub.py 2>&1 | filt | head -80
T="bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --no-bench --no-check --set M=1024 --set N=1024 --set K=4096"
echo "## Tile matmul.tile 64x128 w4 s5"; timeout 120 ncu $S $M tile-run kernels/matmul.tile --no-bench --no-check --set M=1024 --set N=1024 --set K=4096 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set BLOCK_SIZE_K=64 --set num_warps=4 --set num_stages=5 2>&1 | filt | head -80
echo "## Tile TMA WS 128x64 w8 s8"; timeout 120 ncu $S $M tile-run $T --set BLOCK_SIZE_N=64 --set num_stages=8 2>&1 | filt | head -80
echo "## Tile TMA non-WS 128x64 w8 s8"; timeout 120 ncu $S $M tile-run $T --set BLOCK_SIZE_N=64 --set num_stages=8 --set WARP_SPECIALIZE=False 2>&1 | filt | head -80
