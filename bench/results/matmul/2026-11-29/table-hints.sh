#!/usr/bin/env bash
# Issue 19's tables with the hint-reading contiguity analysis and tutorial 09's matmul_kernel in both sets: tutorial 03 at its fixed configuration, then the best of Tile's kernels after autotuning beside cuBLAS and Triton's tutorial 09 (order shuffled per repeat).
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
echo "# $(date -u)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
python3 scripts/bench-matmul-fixed.py --repeats 3
python3 scripts/bench-matmul-best.py --repeats 3
echo "# done $(date -u)"
