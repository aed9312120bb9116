#!/usr/bin/env bash
# GPU checks of the compiled-kernel cache and autotuning (see README).
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
echo "== kernel cache: cold, then warm"
tile-run kernels/add.tile --no-bench --verbose-cache 2>&1 | grep -E "compile|cache|check"
tile-run kernels/add.tile --no-bench --verbose-cache 2>&1 | grep -E "compile|cache|check"
f=$(ls $TILE_CACHE_DIR/kernels/*.cubin 2>/dev/null | head -1); echo "corrupting $f"
[ -n "$f" ] && printf 'X' | dd of=$f bs=1 seek=200 conv=notrunc 2>/dev/null
tile-run kernels/add.tile --no-bench --verbose-cache 2>&1 | grep -E "compile|cache|check|corrupt"
tile-run kernels/softmax.tile --info | grep -E "registers|spills"
tile-run kernels/softmax.tile --info | grep -E "registers|spills"
echo "== autotune"
tile-run kernels/matmul.tile --autotune --no-bench 2>&1 | grep -E "autotune|check|error"
tile-run kernels/matmul.tile --autotune 2>&1 | grep -E "autotune|check|TFLOP|error"
tile-run test/tools/tile-run/Inputs/autotune-add.tile --no-bench 2>&1 | grep -E "autotune|check|error"
