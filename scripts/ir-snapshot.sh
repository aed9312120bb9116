#!/usr/bin/env bash
# Writes what a tile-run binary makes of every kernel in the tree, so that two
# builds can be compared byte for byte (a refactoring must not change them):
#   - PTX of every kernel in kernels/ on sm_90a and sm_80, and of matmul.tile
#     under each of its @triton.autotune configurations, fp32 (tf32) and
#     leaky_relu;
#   - the tile dialect (--emit=tile) of every .tile file under test/ and
#     fuzz/corpus/ that the front end accepts, and the diagnostics of those
#     it rejects.
#
#   scripts/ir-snapshot.sh TILE_RUN OUT_DIR      write the snapshot
#   scripts/ir-snapshot.sh --compare OLD NEW     diff two snapshot folders;
#                                                exit 1 if any file differs
#
# Usage for a change: snapshot the old build's tile-run, rebuild, snapshot
# the new one, compare. No GPU needed.
set -uo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --compare ]; then
  old=$2 new=$3
  if diff -r -q "$old" "$new"; then
    echo "identical: $(find "$old" -type f | wc -l) files"
    exit 0
  fi
  echo "the snapshots differ"
  exit 1
fi

tile_run=$(realpath "$1")
out=$2
mkdir -p "$out"

# One snapshot file per case: NAME, then tile-run's arguments. stderr is kept
# with stdout (a diagnostic is output too), with the tree's path stripped so
# that two checkouts compare equal.
emit() {
  local name=$1
  shift
  "$tile_run" "$@" >"$out/$name" 2>&1
  echo "exit $?" >>"$out/$name"
  sed -i "s|$PWD/||g" "$out/$name"
}

for kernel in kernels/*.tile; do
  base=$(basename "$kernel" .tile)
  for target in sm_90a sm_80; do
    emit "$base.$target.ptx" "$kernel" --emit=ptx --target=$target
  done
  emit "$base.gpu.mlir" "$kernel" --emit=gpu
done

# matmul.tile under each autotuning configuration of the tutorial's list.
configs=(
  "128 256 64 8 3" "64 256 32 4 4" "128 128 32 4 4" "128 64 32 4 4"
  "64 128 32 4 4" "128 32 32 4 4" "64 32 32 2 5" "32 64 32 2 5"
)
for config in "${configs[@]}"; do
  read -r bm bn bk warps stages <<<"$config"
  emit "matmul.$bm-$bn-$bk-w$warps-s$stages.ptx" kernels/matmul.tile \
    --emit=ptx --set BLOCK_SIZE_M=$bm --set BLOCK_SIZE_N=$bn \
    --set BLOCK_SIZE_K=$bk --set num_warps=$warps --set num_stages=$stages
done
emit matmul.leaky.ptx kernels/matmul.tile --emit=ptx \
  --set 'ACTIVATION="leaky_relu"'
emit matmul.fp32.ptx kernels/matmul.tile --emit=ptx \
  --set 'a=randn(fp32, M, K)' --set 'b=randn(fp32, K, N)' \
  --set 'c=empty(fp32, M, N)'
emit matmul.small-sm80.ptx kernels/matmul.tile --emit=ptx --target=sm_80 \
  --set BLOCK_SIZE_M=32 --set BLOCK_SIZE_N=32 --set BLOCK_SIZE_K=32 \
  --set num_warps=2

while IFS= read -r file; do
  name=$(echo "$file" | tr '/' '_')
  emit "$name.tile.mlir" "$file" --emit=tile
done < <(find test fuzz/corpus -name '*.tile' | sort)

echo "$(find "$out" -type f | wc -l) files in $out"
