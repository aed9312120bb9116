#!/usr/bin/env bash
# Host time per launch of the AOT launcher with made maps (encoded every launch) and without (M not a multiple of 16).
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
A=.jobs/aot
cc -std=gnu11 -O2 -I$A test/tools/tile-compile/Inputs/aot-made-maps-main.c $A/mm.c -ldl -lpthread -lm -o $A/mm-run || exit 1
for r in 1 2 3; do
 echo "round $r: maps: $($A/mm-run time 256 256 64 2000) | no maps: $($A/mm-run time 250 256 64 2000)"
 echo "round $r: maps: $($A/mm-run time 1024 1024 1024 1000) | no maps: $($A/mm-run time 1000 1024 1024 1000)"
done
