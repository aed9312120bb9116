#!/usr/bin/env bash
# (after the harnesses shared aot-driver.h) AOT launcher of tutorial 06's forward with descriptors the kernel makes (warp_specialize=True), on the GPU; the descriptor matmul's again.
# .jobs/aot/{attn,mm}.{h,c} came from tile-compile here (the --signature of test/tools/tile-compile/gpu-aot-made-maps.test).
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
A=.jobs/aot
cc -std=gnu11 -O2 -I$A test/tools/tile-compile/Inputs/aot-attention-main.c $A/attn.c -ldl -lpthread -lm -o $A/attn-run || exit 1
cc -std=gnu11 -O2 -I$A test/tools/tile-compile/Inputs/aot-made-maps-main.c $A/mm.c -ldl -lpthread -lm -o $A/mm-run || exit 1
echo "## attention (algo 0 non-causal persistent, algo 1 causal)"
timeout 200 $A/attn-run 1 2 512; echo "rc=$?"
timeout 300 $A/attn-run 2 3 1024; echo "rc=$?"
echo "## matmul"
timeout 120 $A/mm-run 1024 768 512 1000 904 712; echo "rc=$?"
echo "## compute-sanitizer, attention Z 1 H 2 N_CTX 256"
for tool in memcheck racecheck synccheck; do
 echo "$tool: $(timeout 250 compute-sanitizer --tool $tool $A/attn-run 1 2 256 2>&1 | grep -E 'SUMMARY|over 1e-2' | tr '\n' ' ')"
done
