#!/usr/bin/env bash
# Nsight Compute kernel durations at 512^3 (its clock control, caches flushed): cuBLAS against Tile's configurations.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
M="--metrics gpu__time_duration.sum,sm__cycles_active.avg,smsp__inst_executed.sum,launch__registers_per_thread,launch__shared_mem_per_block_dynamic"
cat > /tmp/cub.py <<'PY'
import sys, torch
s = int(sys.argv[1])
a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
for _ in range(3): c = a @ b
torch.cuda.synchronize()
PY
for s in 512; do
  echo "## S=$s cuBLAS"; timeout 100 ncu --launch-skip 2 --launch-count 1 $M python3 /tmp/cub.py $s 2>&1 | grep -E "^  [a-z_]+.*\(|duration|cycles_active|inst_exec|registers|shared"
  for c in "64 64 128 4 4" "64 64 64 4 8" "64 64 256 4 2" "128 64 64 4 4"; do set -- $c
    echo "## S=$s tma $c"; timeout 100 ncu $M tile-run kernels/matmul_tma.tile --no-bench --no-check --set M=$s --set N=$s --set K=$s --set BLOCK_SIZE_M=$1 --set BLOCK_SIZE_N=$2 --set BLOCK_SIZE_K=$3 --set num_warps=$4 --set num_stages=$5 --set WARP_SPECIALIZE=False 2>&1 | grep -E "duration|cycles_active|inst_exec|registers|shared"
  done
  for c in "64 64 64 4 4" "64 64 128 4 3"; do set -- $c
    echo "## S=$s cp.async $c"; timeout 100 ncu $M tile-run kernels/matmul.tile --no-bench --no-check --set M=$s --set N=$s --set K=$s --set BLOCK_SIZE_M=$1 --set BLOCK_SIZE_N=$2 --set BLOCK_SIZE_K=$3 --set num_warps=$4 --set num_stages=$5 2>&1 | grep -E "duration|cycles_active|inst_exec|registers|shared"
  done
done
