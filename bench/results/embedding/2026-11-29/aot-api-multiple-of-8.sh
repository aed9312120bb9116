#!/usr/bin/env bash
# ":8" hints in the C++ API's and tile-compile's signatures: descriptors the kernel makes with K = 712 get tensor maps there too. Checks, sanitizer, and AOT launches with and without the ":8" specialization in one call.
set -uo pipefail
# .jobs/aot8/mm.{h,c}: tile-compile with the three signatures of test/tools/tile-compile/gpu-aot-made-maps.test (":16", none, ":8"); .jobs/aot16: the first two only (the launcher before ":8").
export TILE_CACHE_DISABLE=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -f .gpu/lib/libtile.so.0.xz; export LD_LIBRARY_PATH=$PWD/.gpu/lib
echo "## C++ API"
tile-api-test descriptor-matmul-launch
tile-api-test descriptor-matmul-launch-k8
echo "memcheck k8: $(timeout 200 compute-sanitizer --tool memcheck tile-api-test descriptor-matmul-launch-k8 2>&1 | grep -E 'SUMMARY|mismatches' | tr '\n' ' ')"
echo "## tile-compile launchers: aot8 (:16, none, :8), aot16 (:16, none)"
for v in aot8 aot16; do cc -std=gnu11 -O2 -I.jobs/$v test/tools/tile-compile/Inputs/aot-made-maps-main.c .jobs/$v/mm.c -ldl -lpthread -lm -o .jobs/$v/run || exit 1; done
timeout 200 .jobs/aot8/run 1024 768 512 256 4096 64 1000 904 712 1000 900 712 2048 2048 1000; echo "rc=$?"
echo "memcheck aot8 1000x904x712: $(timeout 250 compute-sanitizer --tool memcheck .jobs/aot8/run 1000 904 712 2>&1 | grep -E 'SUMMARY|mismatches' | tr '\n' ' ')"
for tool in racecheck synccheck; do echo "$tool aot8 1000x904x712: $(timeout 250 compute-sanitizer --tool $tool .jobs/aot8/run 1000 904 712 2>&1 | grep -E 'SUMMARY|mismatches' | tr '\n' ' ')"; done
echo "## back-to-back launches (no L2 flush), us"
for mnk in "4096 4096 712" "1000 904 712" "2048 2048 1000" "4096 4096 1024"; do
 set -- $mnk
 for r in 1 2; do
  for v in aot8 aot16; do echo "$v round $r: $(timeout 100 .jobs/$v/run time $1 $2 $3 200)"; done
 done
done
echo "## tile-run, same kernel and constexprs (L2 flushed medians), and Triton 3.6's descriptor_persistent (128x128x64) in this call"
for mnk in "4096 4096 712" "1000 904 712"; do
 set -- $mnk
 echo "tile-run $1x$2x$3: $(timeout 120 tile-run kernels/matmul_descriptor_persistent.tile --set M=$1 --set N=$2 --set K=$3 --set BLOCK_SIZE_N=256 --set EPILOGUE_SUBTILE=True --set num_stages=4 2>&1 | grep -E '^time|^check' | cut -c1-120 | tr '\n' ' ')"
 timeout 120 python3 .jobs/triton-desc-mnk.py $1 $2 $3
done
