#!/usr/bin/env bash
# tilegpu-cluster-pairs (experiment, TILE_CLUSTER_PAIRS=1): checks, sanitizers, A/B against the same build without it.
set -uo pipefail
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
P=$PWD/.jobs/tr-pairs
c() { echo "$*: $(timeout 120 $P "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | cut -c1-150 | tr '\n' ' ')"; }
K=kernels/matmul_tma.tile
echo "## float64 checks with pairs"
c $K
c $K --set M=2048 --set N=2048 --set K=2048 --set BLOCK_SIZE_N=256 --set num_stages=4
c $K --set M=2048 --set N=2048 --set K=2048 --set BLOCK_SIZE_N=256 --set num_stages=3
c $K --set M=1152 --set N=512 --set K=1024 --set BLOCK_SIZE_N=256 --set num_stages=4
c $K --set M=1024 --set N=1024 --set K=1024 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8
c $K --set M=512 --set N=512 --set K=512 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=64 --set BLOCK_SIZE_K=128 --set num_warps=4 --set num_stages=4
c $K --set M=384 --set N=256 --set K=256
c $K --set M=2048 --set N=768 --set K=4096 --set BLOCK_SIZE_K=128 --set num_stages=3
echo "launched alone: $(TILE_NO_CLUSTERS=1 timeout 120 $P $K --set M=2048 --set N=2048 --set K=2048 --set BLOCK_SIZE_N=256 --set num_stages=4 --no-bench 2>&1 | grep -E '^check|rror' | cut -c1-150)"
c kernels/matmul_tma_persistent.tile
c kernels/matmul_descriptor_persistent.tile
c kernels/matmul.tile
c kernels/attn_fwd_descriptor.tile
c kernels/grouped_gemm_tma.tile
echo "## compute-sanitizer with pairs"
for tool in memcheck racecheck synccheck; do
 echo "$tool 512^3 128x128: $(timeout 200 compute-sanitizer --tool $tool $P $K --set M=512 --set N=512 --set K=512 --no-bench --no-check 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|rror' | head -3 | tr '\n' ' ')"
 echo "$tool 1152x512x256 128x256: $(timeout 200 compute-sanitizer --tool $tool $P $K --set M=1152 --set N=512 --set K=256 --set BLOCK_SIZE_N=256 --set num_stages=4 --no-bench --no-check 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|rror' | head -3 | tr '\n' ' ')"
done
echo "## A/B: plain / pairs (us)"
S=BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8
timeout 300 python3 scripts/ab-tile-run.py $PWD/.jobs/tr-plain $P --rounds 4 --us \
  "2048 128x256 s4|$K|M=2048,N=2048,K=2048,$S,num_stages=4|cublas:2048,2048,2048" \
  "2048 128x256 s3|$K|M=2048,N=2048,K=2048,$S,num_stages=3" \
  "4096 128x256 s3|$K|M=4096,N=4096,K=4096,$S,num_stages=3|cublas:4096,4096,4096" \
  "1024 64x128 s8|$K|M=1024,N=1024,K=1024,BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,num_warps=4,num_stages=8|cublas:1024,1024,1024" \
  "512 64x64x128 s4|$K|M=512,N=512,K=512,BLOCK_SIZE_M=64,BLOCK_SIZE_N=64,BLOCK_SIZE_K=128,num_warps=4,num_stages=4|cublas:512,512,512"
