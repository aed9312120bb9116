#!/usr/bin/env bash
set -uo pipefail
export TILE_CACHE_DIR=$(mktemp -d)
echo "# $(date -u), main $(echo e368352)'s compiler, nvidia-h200"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,pstate --format=csv -lms 50 > $OUT/clocks.csv &
SMI=$!
python3 bench/results/matmul/2026-11-29/warm-up-fresh-process.py
kill $SMI
python3 - <<'PY'
import csv, os
rows = list(csv.reader(open(os.environ["OUT"] + "/clocks.csv")))[1:]
sm = [int(r[1].split()[0]) for r in rows if len(r) > 1 and r[1].strip().split()[0].isdigit()]
print("clock samples", len(sm), "min", min(sm), "max", max(sm), "below 1900:", sum(x < 1900 for x in sm), "below 1000:", sum(x < 1000 for x in sm))
PY
