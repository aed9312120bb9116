#!/usr/bin/env bash
set -uo pipefail
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
xz -d -k -f .jobs/old1/tile-run.xz && chmod +x .jobs/old1/tile-run
python3 bench/results/matmul/2026-11-29/inval-ab-1024.py $PWD/.jobs/old1/tile-run $PWD/.gpu/bin/tile-run
