#!/usr/bin/env bash
# Sets up, builds and runs the main job: vector add from kernels/add.tile,
# compiled, launched on the GPU, checked against x + y and timed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
exec build/bin/tile-run kernels/add.tile "$@"
