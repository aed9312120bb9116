#!/usr/bin/env bash
# tl.range(..., flatten=True) runs the single-dot TMA pipeline on across the tile loop (tutorial 09's tma_persistent and descriptor_persistent): float64 checks (one and several tiles per program, K below the stages, ragged shapes, subtiled epilogues, FLATTEN False), compute-sanitizer, and old/new A/B (old = main efbcbe3's static tile-run) with cuBLAS beside, in one call.
set -uo pipefail
# old: main efbcbe3's static tile-run; new: efbcbe3 + the hints' follow-ups + flatten-carry.patch (beside this log), not landed.
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -c .jobs/old-tile-run.xz > .jobs/old-tile-run && chmod +x .jobs/old-tile-run
export TILE_CACHE_DISABLE=1
chk() { echo "$*: $(timeout 90 tile-run "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | cut -c1-150 | tr '\n' ' ')"; }
for k in matmul_tma_persistent matmul_descriptor_persistent; do
 f=kernels/$k.tile
 chk $f
 chk $f --set NUM_SMS=7
 chk $f --set BLOCK_SIZE_N=256 --set num_stages=3 --set M=2048 --set N=4096 --set K=256
 chk $f --set BLOCK_SIZE_N=256 --set num_stages=3 --set M=2048 --set N=4096 --set K=64
 chk $f --set BLOCK_SIZE_N=256 --set num_stages=4 --set M=1024 --set N=2048 --set K=128 --set NUM_SMS=13
 chk $f --set BLOCK_SIZE_N=256 --set num_stages=4 --set EPILOGUE_SUBTILE=True --set M=2048 --set N=2048 --set K=520 --set NUM_SMS=5
 chk $f --set BLOCK_SIZE_K=128 --set BLOCK_SIZE_N=256 --set num_stages=3 --set M=1000 --set N=3000 --set K=1000 --set NUM_SMS=11
 chk $f --set num_warps=4 --set M=768 --set N=640 --set K=200 --set NUM_SMS=3
done
chk kernels/matmul_descriptor_persistent.tile --set FLATTEN=False --set NUM_SMS=7
echo "## compute-sanitizer (several tiles per program)"
for tool in memcheck racecheck synccheck; do for k in matmul_tma_persistent matmul_descriptor_persistent; do
 echo "$tool $k: $(timeout 200 compute-sanitizer --tool $tool tile-run kernels/$k.tile --no-bench --set M=512 --set N=768 --set K=192 --set NUM_SMS=5 2>&1 | grep -E 'SUMMARY|^check' | cut -c1-120 | tr '\n' ' ')"; done; done
echo "## A/B old/new (us), cuBLAS beside"
python3 scripts/ab-tile-run.py .jobs/old-tile-run $(command -v tile-run) --rounds 3 --us \
  'tma_persistent 2048 s3|kernels/matmul_tma_persistent.tile|M=2048,N=2048,K=2048,BLOCK_SIZE_N=256,num_stages=3|cublas:2048,2048,2048' \
  'tma_persistent 4096 s3|kernels/matmul_tma_persistent.tile|M=4096,N=4096,K=4096,BLOCK_SIZE_N=256,num_stages=3|cublas:4096,4096,4096' \
  'tma_persistent 4096 s4 sub|kernels/matmul_tma_persistent.tile|M=4096,N=4096,K=4096,BLOCK_SIZE_N=256,num_stages=4,EPILOGUE_SUBTILE=True|cublas:4096,4096,4096' \
  'descriptor 4096 s3|kernels/matmul_descriptor_persistent.tile|M=4096,N=4096,K=4096,BLOCK_SIZE_N=256,num_stages=3|cublas:4096,4096,4096' \
  'descriptor 8192 s4|kernels/matmul_descriptor_persistent.tile|M=8192,N=8192,K=8192,BLOCK_SIZE_N=256,num_stages=4|cublas:8192,8192,8192' \
  'tma_persistent 8192 s3|kernels/matmul_tma_persistent.tile|M=8192,N=8192,K=8192,BLOCK_SIZE_N=256,num_stages=3' 2>&1 | tail -20
