#!/usr/bin/env bash
# tile-compile's generated C with one cuTensorMapEncodeTiled helper shared by descriptor parameters and made maps: examples/ from an installed prefix (scripts/check-embedding-gpu.sh), and the AOT made-maps test programs.
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
P=$PWD/.gpu/prefix
xz -d -f .gpu/lib/libtile.so.0.xz && cp .gpu/lib/libtile.so.0 $P/lib/libtile.so.0.1 && ln -sf libtile.so.0.1 $P/lib/libtile.so.0 && ln -sf libtile.so.0 $P/lib/libtile.so
export PATH=/opt/torch/.venv/bin:$PATH
echo "## check-embedding-gpu.sh"
timeout 400 bash scripts/check-embedding-gpu.sh $P; echo "rc=$?"
echo "## AOT made maps (matmul, attention) with the prefix's tile-compile"
A=$(mktemp -d)
$P/bin/tile-compile kernels/matmul_descriptor_persistent.tile -o $A/mm \
  --signature '*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, 128, 256, 64, 8, True, 132, False, True | num_warps=8, num_stages=4' \
  --signature '*fp16, *fp16, *fp16, i32, i32, i32, 128, 256, 64, 8, True, 132, False, True | num_warps=8, num_stages=4' \
  --signature '*fp16:16, *fp16:16, *fp16:16, i32, i32:8, i32:8, 128, 256, 64, 8, True, 132, False, True | num_warps=8, num_stages=4' || exit 1
cc -std=gnu11 -O2 -I$A test/tools/tile-compile/Inputs/aot-made-maps-main.c $A/mm.c -ldl -lpthread -lm -o $A/run || exit 1
timeout 120 $A/run 1024 768 512 1000 904 712 1000 900 712; echo "rc=$?"
