#!/usr/bin/env bash
# Call 1: matmul configurations beside cuBLAS, then Nsight Compute of the same kernel text compiled by Tile and Triton at 8192^3 and 2048^3.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv
python3 -c 'import triton, torch; print("triton", triton.__version__, "torch", torch.__version__)'
timeout 330 python3 bench/results/matmul/2026-11-29/config-probe.py 3
M="--metrics gpu__time_duration.sum,smsp__inst_executed.sum,sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes.sum,sm__cycles_elapsed.avg.per_second,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__shared_mem_per_block_dynamic,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_gmma_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed,sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_active"
filt() { grep -E '^\s+[a-z_]+__|Profiling|rel err|time:' ; }
export TILE_CACHE_DIR=$(mktemp -d)
for s in 8192 2048; do
  echo "## ncu ${s}^3: Triton descriptor_persistent 128x256x64 w8 s3"
  timeout 120 ncu --launch-skip 2 --launch-count 1 -k regex:matmul $M python3 bench/results/matmul/2026-11-29/triton-descriptor-ncu.py $s 2>&1 | filt
  echo "## ncu ${s}^3: Tile descriptor_persistent 128x256x64 w8 s3"
  timeout 120 ncu $M tile-run kernels/matmul_descriptor_persistent.tile --no-bench --no-check --set M=$s --set N=$s --set K=$s --set BLOCK_SIZE_M=128 --set BLOCK_SIZE_N=256 --set BLOCK_SIZE_K=64 --set num_warps=8 --set num_stages=3 --set EPILOGUE_SUBTILE=False 2>&1 | filt
done
echo "## ncu 2048^3: cuBLAS"
timeout 120 ncu --launch-skip 2 --launch-count 1 $M python3 bench/results/matmul/2026-11-29/cublas-ncu.py 2048 2>&1 | filt
echo "## ncu 2048^3: Tile tma_persistent 128x256x64 w8 s3"
timeout 120 ncu $M tile-run kernels/matmul_tma_persistent.tile --no-bench --no-check --set M=2048 --set N=2048 --set K=2048 --set BLOCK_SIZE_M=128 --set BLOCK_SIZE_N=256 --set BLOCK_SIZE_K=64 --set num_warps=8 --set num_stages=3 2>&1 | filt
