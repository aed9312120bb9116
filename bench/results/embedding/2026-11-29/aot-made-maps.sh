#!/usr/bin/env bash
# AOT launchers that encode made maps, on the GPU; tile-run's descriptor kernels after the recipe change.
# .jobs/aot/mm.{h,c} came from tile-compile here (the two --signature of test/tools/tile-compile/gpu-aot-made-maps.test).
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
A=.jobs/aot
cc -std=gnu11 -O2 -I$A test/tools/tile-compile/Inputs/aot-made-maps-main.c $A/mm.c -ldl -lpthread -o $A/run || exit 1
echo "## AOT launcher, checks"
timeout 120 $A/run 1024 768 512 256 4096 64 1000 904 712 2048 2048 512; echo "rc=$?"
echo "## AOT launcher, time per launch (back to back, maps encoded per launch)"
for i in 1 2 3; do timeout 60 $A/run time 2048 2048 2048 300; timeout 60 $A/run time 4096 4096 4096 100; done
echo "## tile-run, the same kernel and configuration"
for s in 2048 4096; do
timeout 120 tile-run kernels/matmul_descriptor_persistent.tile --set M=$s --set N=$s --set K=$s --set BLOCK_SIZE_N=256 --set EPILOGUE_SUBTILE=True --set num_stages=4 2>&1 | grep -E 'check|time|ms|rror' | head -4
done
echo "## compute-sanitizer on the AOT launcher"
for tool in memcheck racecheck synccheck; do
echo "$tool: $(timeout 200 compute-sanitizer --tool $tool $A/run 256 512 128 2>&1 | grep -E 'SUMMARY|mismatches' | tr '\n' ' ')"
done
echo "## tile-run float64 checks, device descriptors"
c() { echo "$*: $(timeout 120 tile-run "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | cut -c1-140 | tr '\n' ' ')"; }
c kernels/matmul_descriptor_persistent.tile --set M=1024 --set N=1024 --set K=512
c kernels/matmul_descriptor_persistent.tile --set M=2048 --set N=1024 --set K=1024 --set BLOCK_SIZE_N=256 --set EPILOGUE_SUBTILE=True --set num_stages=4
c kernels/matmul_descriptor_persistent.tile
c test/tools/tile-run/Inputs/descriptor-bf16.tile
c test/tools/tile-run/Inputs/descriptor-copy.tile --set N=64
c test/tools/tile-run/Inputs/block-ptr-matmul-loop.tile
for cz in True False; do
c kernels/attn_fwd_descriptor.tile --set desc_q=q --set desc_k=k --set desc_v=v --set desc_o=o --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize=True --set CAUSAL=$cz
done
