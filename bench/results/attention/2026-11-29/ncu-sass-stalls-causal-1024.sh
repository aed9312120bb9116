#!/usr/bin/env bash
# SASS with warp-stall samples (Nsight Compute, source page) of tutorial 06's split forward, D 128, causal, N_CTX 1024.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
timeout 200 ncu --section WarpStateStats --section SourceCounters --page source --print-source sass --csv tile-run kernels/attn_fwd_descriptor.tile --no-bench --no-check --set Z=4 --set H=32 --set N_CTX=1024 --set HEAD_DIM=128 --set BLOCK_M=128 --set BLOCK_N=128 --set num_warps=8 --set num_stages=2 --set warp_specialize_all=True --set CAUSAL=True > $OUT/sass-attn-causal-1024.csv 2>&1
echo "$(wc -l < $OUT/sass-attn-causal-1024.csv) lines"
