set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
K=kernels/matmul.tile
t() { echo "S=$1 $2: $(tile-run $K --set M=$1 --set N=$1 --set K=$1 $2 --no-check 2>&1 | grep -E 'TFLOP|error' | head -1)"; }
for s in 2048; do
  t $s ""
  t $s "--set num_stages=4"
  t $s "--set num_stages=2"
  t $s "--set GROUP_SIZE_M=4"
  t $s "--set BLOCK_SIZE_K=32 --set num_stages=5"
  t $s "--set BLOCK_SIZE_M=128 --set BLOCK_SIZE_N=128 --set num_stages=4"
  t $s "--set BLOCK_SIZE_M=128 --set BLOCK_SIZE_N=128 --set num_stages=4 --set num_warps=4"
  t $s "--set BLOCK_SIZE_M=256 --set BLOCK_SIZE_N=128 --set num_stages=3"
done
t 4096 "--set num_stages=4"
t 8192 "--set num_stages=4"
python3 .gpu/triton_ref.py matmul
