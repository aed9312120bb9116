# Nsight Compute profiles of Tile's and Triton's matmul at S = 2048, same
# config (128x256x64, 8 warps, 3 stages): duration, throughputs, stall
# reasons and per-instruction samples, as text in $OUT.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
S=${S:-2048}
NCU="ncu --clock-control none --set full --import-source no -k regex:matmul_kernel -c 1"
SIZES=$S REPEAT=1 $NCU --export /tmp/triton python3 bench/triton_matmul_dump.py > $OUT/ncu-triton-run.log 2>&1
$NCU --export /tmp/tile tile-run kernels/matmul.tile --set M=$S --set N=$S --set K=$S --no-check --warmup-ms 1 --rep-ms 1 > $OUT/ncu-tile-run.log 2>&1
for k in triton tile; do
  ncu --import /tmp/$k.ncu-rep --page details > $OUT/ncu-$k-details.txt 2>&1
  ncu --import /tmp/$k.ncu-rep --page raw --csv > $OUT/ncu-$k-raw.csv 2>&1
  ncu --import /tmp/$k.ncu-rep --page source --csv --print-source sass > $OUT/ncu-$k-source.csv 2>&1
  echo "== $k"; grep -E "^\s+(Duration|Registers Per|Memory Throughput|DRAM Throughput|L2 Cache Throughput|Compute \(SM\) Throughput|Executed Ipc A|Issue Slots Busy|Achieved Occupancy|Warp Cycles Per Issued|Dynamic Shared)" $OUT/ncu-$k-details.txt
done
ls -la $OUT
