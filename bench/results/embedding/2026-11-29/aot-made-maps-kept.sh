#!/usr/bin/env bash
# AOT launchers that keep each thread's last made maps (encoded again only where their inputs change): checks, sanitizers, host time per launch old / new.
# .jobs/aot/{mm,attn}.{h,c}: tile-compile with the change; .jobs/aot-old/mm.{h,c}: main 3f970e9 (a map encoded at every launch).
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
A=.jobs/aot; O=.jobs/aot-old
cc -std=gnu11 -O2 -I$A test/tools/tile-compile/Inputs/aot-attention-main.c $A/attn.c -ldl -lpthread -lm -o $A/attn-run || exit 1
cc -std=gnu11 -O2 -I$A test/tools/tile-compile/Inputs/aot-made-maps-main.c $A/mm.c -ldl -lpthread -lm -o $A/mm-run || exit 1
cc -std=gnu11 -O2 -I$O test/tools/tile-compile/Inputs/aot-made-maps-main.c $O/mm.c -ldl -lpthread -lm -o $O/mm-run || exit 1
echo "## checks"
timeout 200 $A/attn-run 1 2 512; echo "rc=$?"
timeout 120 $A/mm-run 1024 768 512 256 4096 64 1000 904 712 2048 2048 512; echo "rc=$?"
echo "## memcheck"
echo "attention: $(timeout 250 compute-sanitizer --tool memcheck $A/attn-run 1 2 256 2>&1 | grep -E 'SUMMARY|over 1e-2' | tr '\n' ' ')"
echo "matmul: $(timeout 250 compute-sanitizer --tool memcheck $A/mm-run 256 512 128 512 256 64 2>&1 | grep -E 'SUMMARY|mismatches' | tr '\n' ' ')"
echo "## host time per launch, old (encoded every launch) / new"
for r in 1 2 3; do
 for s in "256 256 64 2000" "1024 1024 1024 1000" "2048 2048 2048 300"; do
  echo "round $r $s: old $($O/mm-run time $s | sed 's/.*status/status/') | new $($A/mm-run time $s | sed 's/.*status/status/')"
 done
done
