#!/usr/bin/env bash
# The old tile-run is main 2f8c3bd's static build (OLD_TILE_RUN.xz); the new one main plus tilegpu-hoist-tensor-maps.
# Call 2: device-made tensor descriptors on TMA (tilegpu-hoist-tensor-maps): float64 checks, sanitizers, then old/new A/B beside cuBLAS, cuDNN and Triton.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
mkdir -p /tmp/old && xz -dc OLD_TILE_RUN.xz > /tmp/old/tile-run && chmod +x /tmp/old/tile-run
D="kernels/matmul_descriptor_persistent.tile"
A="kernels/attn_fwd_descriptor.tile"
DEV="--set desc_q=q --set desc_k=k --set desc_v=v --set desc_o=o"
chk() { echo "\$ tile-run $*"; timeout 120 tile-run "$@" 2>&1 | grep -E 'check|error|warning|persistent|time:' | head -8; echo "rc ${PIPESTATUS[0]}"; }
echo "## float64 checks"
chk $D --set M=1000 --set N=1024 --set K=512 --no-bench
chk $D --set M=1000 --set N=1024 --set K=512 --set BLOCK_SIZE_N=256 --set num_warps=8 --set EPILOGUE_SUBTILE=True --no-bench
chk $D --set M=777 --set N=272 --set K=1040 --set FLATTEN=False --no-bench
chk $D --set M=1000 --set N=1024 --set K=712 --no-bench
chk $A $DEV --no-bench
chk $A $DEV --set CAUSAL=True --no-bench
chk $A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --no-bench
chk $A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --set CAUSAL=True --set N_CTX=1024 --no-bench
chk kernels/grouped_gemm_tma.tile --no-bench
chk kernels/matmul_tma_persistent.tile --no-bench
echo "## --info of the device-descriptor attention with warp_specialize"
timeout 60 tile-run $A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --info 2>&1 | head -30
echo "## compute-sanitizer"
timeout 120 compute-sanitizer --tool memcheck tile-run $D --set M=1000 --set N=1024 --set K=512 --no-bench 2>&1 | grep -E 'ERROR SUMMARY|check c' 
for tool in racecheck synccheck memcheck; do
  timeout 150 compute-sanitizer --tool $tool tile-run $A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --set N_CTX=256 --set CAUSAL=True --no-bench 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|check o' | sed "s/^/$tool: /"
done
echo "## A/B old (main 2f8c3bd) / new, us"
timeout 300 python3 scripts/ab-tile-run.py /tmp/old/tile-run $(command -v tile-run) --rounds 3 --us \
  "desc 2048 128x256 s3|$D|M=2048,N=2048,K=2048,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,EPILOGUE_SUBTILE=True|cublas:2048,2048,2048" \
  "desc 4096 128x256 s3 sub|$D|M=4096,N=4096,K=4096,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,EPILOGUE_SUBTILE=True|cublas:4096,4096,4096" \
  "desc 8192 128x256 s3|$D|M=8192,N=8192,K=8192,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,EPILOGUE_SUBTILE=False|cublas:8192,8192,8192" \
  "attn device desc D128 4096 ws|$A|Z=4,H=32,N_CTX=4096,HEAD_DIM=128,CAUSAL=False,BLOCK_M=128,BLOCK_N=128,num_warps=8,num_stages=2,warp_specialize=True,desc_q=q,desc_k=k,desc_v=v,desc_o=o|cudnn:4,32,4096,128,false"
echo "## host descriptors, same attention (new)"
timeout 60 tile-run $A --set Z=4 --set H=32 --set N_CTX=4096 --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --no-check 2>&1 | grep -E 'time:|persistent'
echo "## Triton"
timeout 120 python3 bench/results/matmul/2026-11-29/triton-descriptor-time.py 2048 4096 8192
