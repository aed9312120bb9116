#!/usr/bin/env bash
# The foundation's GPU checks, for the device machine (see README):
# correctness of add at two sizes with fresh random inputs, bandwidth at
# 2^20, 2^24, 2^27 next to Triton's and PyTorch's from the same run, and the
# cold compile time from .tile to a loaded module (--no-cache: every run compiles).
#   bash .gpu/unpack.sh && export PATH=$PWD/.gpu/bin:$PATH && bash bench/gpu-add.sh
set -uo pipefail
out=${OUT:-/tmp}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
echo "== correctness (fresh random inputs, exact match against x + y)"
for n in 98432 '2**27'; do
  tile-run kernels/add.tile --set "n=$n" --seed $RANDOM$RANDOM --no-bench || echo "CHECK FAILED for n=$n"
done
echo "== ptxas accepts the PTX for sm_90a"
tile-run kernels/add.tile --emit=ptx -o $out/add.ptx && ptxas -arch=sm_90a $out/add.ptx -o /tmp/add.cubin && echo "ptxas: ok"
grep -c 'ld.global.v4' $out/add.ptx
echo "== bandwidth"
for n in '2**20' '2**24' '2**27'; do
  tile-run kernels/add.tile --set "n=$n" --seed $RANDOM | tee -a $out/tile_add.log
done
echo "== cold compile (fresh process each, driver JIT cache disabled), 5 runs"
for i in 1 2 3 4 5; do CUDA_CACHE_DISABLE=1 tile-run kernels/add.tile --set n=4096 --no-bench --no-cache | grep "cold compile"; done
echo "== Triton and PyTorch, same run"
PYTHONUNBUFFERED=1 python3 .gpu/triton_ref.py add 2>&1 | tee $out/triton_add.log
