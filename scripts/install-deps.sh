#!/usr/bin/env bash
# Installs what Tile needs on Debian 12 (as root): a compiler, CMake, Ninja,
# and LLVM/MLIR 22 with lit and FileCheck, all from Debian's packages; clang
# 14 with its runtime libraries (libFuzzer, ASan, UBSan) for the front-end
# fuzzer (scripts/fuzz.sh); gnuplot for tile-run --plot.
set -euo pipefail
packages=(g++ cmake ninja-build ccache python3 llvm-22-dev libmlir-22-dev
          mlir-22-tools llvm-22-tools libzstd-dev zlib1g-dev
          clang-14 libclang-rt-14-dev gnuplot-nox)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
