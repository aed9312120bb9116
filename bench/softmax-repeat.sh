# Softmax GB/s at M = 4096, Tile (tile-run, its launch description) and
# Triton/PyTorch (shared/device/triton_ref.py) alternated R times in one
# call; prints every repeat and the medians per N. Each Tile run also
# checks its output against float64 (fresh seed). Every run's log, JSON and
# per-launch times (tile-run --times) go into one archive,
# $OUT/softmax-repeat.tgz (the device returns 8 files).
set -uo pipefail
top=${OUT:-/tmp}
out=$top/softmax-repeat; mkdir -p $out
R=${R:-4}
Ns="256 512 781 1024 2048 4096 8192 12288 32768"
for r in $(seq 1 $R); do
  for n in $Ns; do
    echo "N=$n $(tile-run kernels/softmax_simple.tile --set n_rows=4096 --set n_cols=$n \
      --seed $RANDOM$RANDOM --rep-ms 200 --no-ceiling --times $out/times-$n-$r.txt 2>&1 | grep -oE '[0-9.]+ GB/s|PASS|FAIL|error' | tr '\n' ' ')"
  done > $out/softmax-tile-$r.log
  OUT=$out PYTHONUNBUFFERED=1 python3 .gpu/triton_ref.py softmax > $out/softmax-triton-$r.log 2>&1
  cp $out/triton_ref.json $out/softmax-triton-$r.json
done
python3 - $out $R <<'PY'
import json, re, statistics, sys
out, R = sys.argv[1], int(sys.argv[2])
tile, tri, torch_ = {}, {}, {}
for r in range(1, R + 1):
    for line in open(f"{out}/softmax-tile-{r}.log"):
        m = re.match(r"N=(\d+) ([0-9.]+) GB/s (PASS)", line)
        if not m: print("tile run", r, "failed:", line.strip()); continue
        tile.setdefault(int(m[1]), []).append(float(m[2]))
    for row in json.load(open(f"{out}/softmax-triton-{r}.json"))["softmax"]:
        tri.setdefault(row["N"], []).append(row["triton"]); torch_.setdefault(row["N"], []).append(row["torch"])
print(f"softmax M=4096 GB/s, {R} alternating repeats (Tile r1..rR | Triton r1..rR), medians")
print("| N | Tile | Triton | PyTorch | Tile / Triton | Tile runs | Triton runs |")
print("|---|---|---|---|---|---|---|")
for n in sorted(tile):
    t, p, q = statistics.median(tile[n]), statistics.median(tri[n]), statistics.median(torch_[n])
    print(f"| {n} | {t:.1f} | {p:.1f} | {q:.0f} | {t/p:.4f} | {' '.join(f'{x:.0f}' for x in tile[n])} | {' '.join(f'{x:.0f}' for x in tri[n])} |")
PY
tar czf $top/softmax-repeat.tgz -C $top softmax-repeat && rm -r $out
