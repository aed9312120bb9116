# Kernel durations of Tile's and Triton's matmul (same config) under Nsight
# Compute: 40 launches each, caches flushed before each, at locked base
# clocks and at free clocks; medians printed. Separates the kernels' own
# time from the timing harness.
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
S=${S:-2048}
for clocks in base none; do
  NCU="ncu --clock-control $clocks --metrics gpu__time_duration.sum -k regex:matmul_kernel -c 40 --csv"
  SIZES=$S REPEAT=1 $NCU python3 bench/triton_matmul_dump.py > $OUT/dur-triton-$clocks.csv 2>/dev/null
  $NCU tile-run kernels/matmul.tile --set M=$S --set N=$S --set K=$S --no-check --warmup-ms 1 --rep-ms 20 > $OUT/dur-tile-$clocks.csv 2>/dev/null
  $NCU tile-run kernels/matmul.tile --set M=$S --set N=$S --set K=$S --set num_stages=4 --no-check --warmup-ms 1 --rep-ms 20 > $OUT/dur-tile-s4-$clocks.csv 2>/dev/null
  python3 - $OUT/dur-triton-$clocks.csv $OUT/dur-tile-$clocks.csv $OUT/dur-tile-s4-$clocks.csv $clocks $S <<'PY'
import csv, statistics, sys
S = int(sys.argv[5])
for f in sys.argv[1:4]:
    rows = [r for r in csv.reader(open(f)) if len(r) > 5 and r[-3] == "gpu__time_duration.sum"]
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1, "ms": 1e3, "msecond": 1e3}
    us = [float(r[-1].replace(",", "")) * scale[r[-2]] for r in rows]
    print(f"{sys.argv[4]:4s} clocks {f.split('/')[-1]:22s} n={len(us)} median {statistics.median(us):.2f} us "
          f"({2*S**3/statistics.median(us)*1e-6:.1f} TFLOP/s) min {min(us):.2f} max {max(us):.2f}")
PY
done
