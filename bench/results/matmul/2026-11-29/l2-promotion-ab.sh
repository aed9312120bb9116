#!/usr/bin/env bash
# Call 6: (a) main 76fe769 (the shared recipe encoder): the C++ API's descriptor launch and tile-run's device-descriptor checks;
# (b) TMA tensor maps with 256-byte L2 promotion (new) against 128-byte (old: 76fe769), alternating, references in the same rounds.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
mkdir -p /tmp/old && for f in tile-run tile-api-test libtile.so.0; do xz -dc OLD_BUILD/$f.xz > /tmp/old/$f; done; chmod +x /tmp/old/*
echo "## (a) 76fe769"
LD_LIBRARY_PATH=/tmp/old timeout 60 /tmp/old/tile-api-test descriptor-matmul-launch; echo "rc $?"
D="kernels/matmul_descriptor_persistent.tile"; A="kernels/attn_fwd_descriptor.tile"; DEV="--set desc_q=q --set desc_k=k --set desc_v=v --set desc_o=o"
for args in "$D --set M=1000 --set N=1024 --set K=512" "$D --set M=777 --set N=272 --set K=1040 --set BLOCK_SIZE_N=256 --set num_warps=8 --set EPILOGUE_SUBTILE=True" "$A $DEV --set HEAD_DIM=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --set CAUSAL=True --set N_CTX=1024"; do
  echo "$args: $(timeout 60 /tmp/old/tile-run $args --no-bench 2>&1 | grep -E '^check|rror' | sed 's/: max .*(tol/ (tol/' | tr '\n' ' ')"
done
echo "## (b) L2 promotion 128 B (old) / 256 B (new), us"
timeout 420 python3 scripts/ab-tile-run.py /tmp/old/tile-run $(command -v tile-run) --rounds 4 --us \
  "tma 1024 64x128 s8|kernels/matmul_tma.tile|M=1024,N=1024,K=1024,BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=8|cublas:1024,1024,1024" \
  "desc 2048 128x256 sub s4|$D|M=2048,N=2048,K=2048,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=4,EPILOGUE_SUBTILE=True|cublas:2048,2048,2048" \
  "tma_persistent 4096 128x256 sub s3|kernels/matmul_tma_persistent.tile|M=4096,N=4096,K=4096,BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3,EPILOGUE_SUBTILE=True|cublas:4096,4096,4096" \
  "attn D128 4096 split|$A|Z=4,H=32,N_CTX=4096,HEAD_DIM=128,CAUSAL=False,BLOCK_M=128,BLOCK_N=128,num_warps=8,num_stages=2,warp_specialize_all=True|cudnn:4,32,4096,128,false" \
  "attn D128 1024 causal split|$A|Z=4,H=32,N_CTX=1024,HEAD_DIM=128,CAUSAL=True,BLOCK_M=128,BLOCK_N=128,num_warps=8,num_stages=2,warp_specialize_all=True|cudnn:4,32,1024,128,true"
