#!/usr/bin/env bash
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -k -f OLD_TILE_RUN.xz && chmod +x OLD_TILE_RUN
OLD=$PWD/OLD_TILE_RUN; NEW=$PWD/.gpu/bin/tile-run
echo "## checks (new)"
c() { echo "$*: $(timeout 120 $NEW "$@" --no-bench 2>&1 | grep -E '^check|rror|FAIL' | cut -c1-140 | tr '\n' ' ')"; }
c bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8 --set WARP_SPECIALIZE=False
c bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --set BLOCK_SIZE_M=128 --set BLOCK_SIZE_N=64 --set num_stages=4 --set WARP_SPECIALIZE=False
c kernels/matmul_tma_persistent.tile
c kernels/matmul_tma_persistent.tile --set EPILOGUE_SUBTILE=True
c kernels/matmul_descriptor_persistent.tile
c kernels/grouped_gemm_tma.tile
for cz in True False; do for d in 64 128; do
c kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=$d --set CAUSAL=$cz
done; done
c kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=False
c kernels/attn_fwd_descriptor.tile --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=True
echo "## compute-sanitizer (new)"
for tool in memcheck racecheck synccheck; do
 echo "$tool tma 64x128: $(timeout 200 compute-sanitizer --tool $tool $NEW bench/results/matmul/2026-11-29/matmul-kernel-tma.tile --no-bench --no-check --set M=256 --set N=256 --set K=512 --set BLOCK_SIZE_M=64 --set BLOCK_SIZE_N=128 --set num_warps=4 --set num_stages=8 --set WARP_SPECIALIZE=False 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
 echo "$tool attention split: $(timeout 200 compute-sanitizer --tool $tool $NEW kernels/attn_fwd_descriptor.tile --no-bench --no-check --set Z=1 --set H=2 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=True 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | tr '\n' ' ')"
done
echo "## A/B"
python3 bench/results/matmul/2026-11-29/grid-constant-ab.py $OLD $NEW
echo "## C++ API and AOT launchers (examples/ against the installed package), new"
for f in .gpu/prefix/bin/*.xz .gpu/prefix/lib/*.xz; do [ -e "$f" ] && xz -d -f "$f"; done
chmod +x .gpu/prefix/bin/* 2>/dev/null; cp .gpu/bin/tile-run .gpu/prefix/bin/
ln -sf libtile.so.0.1 .gpu/prefix/lib/libtile.so.0; ln -sf libtile.so.0 .gpu/prefix/lib/libtile.so
build=$(mktemp -d)
ptxas=$(python3 -c 'import os, triton; print(os.path.join(os.path.dirname(triton.__file__), "backends/nvidia/bin/ptxas"))' 2>/dev/null)
cmake -S examples -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${ptxas:+-DTILE_PTXAS="$ptxas"} -DCMAKE_PREFIX_PATH=$PWD/.gpu/prefix > $build/configure.log 2>&1 &&
  cmake --build "$build" > "$build/build.log" 2>&1 || { cat $build/*.log | tail -30; }
echo "== tile-example"; timeout 120 "$build/tile-example" 2>&1 | tail -15; echo "rc=$?"
echo "== tile-attention"; timeout 200 "$build/tile-attention" 2>&1 | tail -25; echo "rc=$?"
echo "== tile-aot-only"; timeout 60 "$build/tile-aot-only" 2>&1 | tail -8; echo "rc=$?"
echo "== memcheck tile-attention --checks-only"; timeout 300 compute-sanitizer --tool memcheck --report-api-errors no "$build/tile-attention" --checks-only 2>&1 | tail -6
