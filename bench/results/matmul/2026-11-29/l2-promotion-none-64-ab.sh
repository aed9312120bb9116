#!/usr/bin/env bash
# Call 7: TMA tensor maps with no L2 promotion and with 64-byte promotion (experimental builds) against 128-byte (main 76fe769), alternating, references in the same rounds.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
mkdir -p /tmp/old /tmp/none && xz -dc OLD_BUILD/tile-run.xz > /tmp/old/tile-run && xz -dc NONE_BUILD/tile-run.xz > /tmp/none/tile-run && chmod +x /tmp/old/tile-run /tmp/none/tile-run
D="kernels/matmul_descriptor_persistent.tile"; A="kernels/attn_fwd_descriptor.tile"
CASES=("tma 1024 64x128 s8|kernels/matmul_tma.tile|M=1024,N=1024,K=1024,BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=8|cublas:1024,1024,1024"
  "desc 2048 128x256 sub s4|$D|M=2048,N=2048,K=2048,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,EPILOGUE_SUBTILE=True|cublas:2048,2048,2048"
  "tma_persistent 4096 128x256 sub s3|kernels/matmul_tma_persistent.tile|M=4096,N=4096,K=4096,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,EPILOGUE_SUBTILE=True|cublas:4096,4096,4096"
  "attn D128 1024 causal split|$A|Z=4,H=32,N_CTX=1024,HEAD_DIM=128,CAUSAL=True,BLOCK_M=128,BLOCK_N=128,num_warps=8,num_stages=2,warp_specialize_all=True|cudnn:4,32,1024,128,true")
echo "## 128 B (old) / none (new), us"
timeout 250 python3 scripts/ab-tile-run.py /tmp/old/tile-run /tmp/none/tile-run --rounds 4 --us "${CASES[@]}"
echo "## 128 B (old) / 64 B (new), us"
timeout 250 python3 scripts/ab-tile-run.py /tmp/old/tile-run $(command -v tile-run) --rounds 4 --us "${CASES[@]}"
