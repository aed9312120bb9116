# fp16 S^3 matmul TFLOP/s for S in 1024..8192: Tile (tile-run, autotuned
# once, then its cached choice) and Triton/cuBLAS (shared/device/
# triton_ref.py matmul) alternated R times in one call; every repeat and
# the medians. Each Tile run is checked against float64 first (fresh seed).
set -uo pipefail
out=${OUT:-/tmp}
R=${R:-5}
export TILE_CACHE_DIR=$(mktemp -d)
K=kernels/matmul.tile
for s in 1024 2048 4096 8192; do
  tile-run $K --set M=$s --set N=$s --set K=$s --autotune --no-bench --seed $RANDOM 2>&1 \
    | grep -E "autotune: best|check" | sed "s/^/S=$s /"
done
for r in $(seq 1 $R); do
  for s in 1024 2048 4096 8192; do
    echo "S=$s $(tile-run $K --set M=$s --set N=$s --set K=$s --autotune --no-check 2>&1 | grep -oE '[0-9.]+ TFLOP/s')"
  done > $out/matmul-tile-$r.log
  PYTHONUNBUFFERED=1 python3 .gpu/triton_ref.py matmul > $out/matmul-triton-$r.log 2>&1
  cp $out/triton_ref.json $out/matmul-triton-$r.json
done
python3 - $out $R <<'PY'
import json, re, statistics, sys
out, R = sys.argv[1], int(sys.argv[2])
tile, tri, cub = {}, {}, {}
for r in range(1, R + 1):
    for line in open(f"{out}/matmul-tile-{r}.log"):
        m = re.match(r"S=(\d+) ([0-9.]+) TFLOP/s", line)
        if m: tile.setdefault(int(m[1]), []).append(float(m[2]))
    for row in json.load(open(f"{out}/matmul-triton-{r}.json"))["matmul"]:
        tri.setdefault(row["S"], []).append(row["triton"]); cub.setdefault(row["S"], []).append(row["cublas"])
print(f"matmul fp16 TFLOP/s, {R} alternating repeats, medians")
print("| S | Tile | Triton | cuBLAS | Tile / Triton | Tile runs | Triton runs |")
print("|---|---|---|---|---|---|---|")
for s in sorted(tile):
    t, p, c = statistics.median(tile[s]), statistics.median(tri[s]), statistics.median(cub[s])
    print(f"| {s} | {t:.1f} | {p:.1f} | {c:.1f} | {t/p:.3f} | {' '.join(f'{x:.1f}' for x in tile[s])} | {' '.join(f'{x:.1f}' for x in tri[s])} |")
PY
