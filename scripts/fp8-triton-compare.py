#!/usr/bin/env python3
"""Runs fp8-convert.tile under Triton and compares with Tile's reference.

test/tools/tile-run/Inputs/fp8-convert.tile is a Triton kernel: this script
loads it as a Python module, launches it with Triton on the GPU (torch
buffers, the launch description's N, BLOCK, grid) and compares its two
buffers with fp8-convert.expected, the Python reference that the
interpreter matches (test/tools/tile-run/fp8-convert-interpret.test).
Prints, per row, how many elements differ and the first few; NaN equals
NaN. Known differences are listed in docs/language.md ("Where Tile
differs"): fp8e5 -> bf16 of the infinity and NaN codes (decoded row 4).

    python3 scripts/fp8-triton-compare.py      (needs triton, torch, a GPU)
"""

import importlib.machinery
import importlib.util
import math
import os
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INPUTS = os.path.join(ROOT, "test", "tools", "tile-run", "Inputs")
N, BLOCK = 8192, 1024


def load_kernel():
    path = os.path.join(INPUTS, "fp8-convert.tile")
    loader = importlib.machinery.SourceFileLoader("fp8_convert_tile", path)
    spec = importlib.util.spec_from_loader(loader.name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module.fp8_convert


def expected():
    rows = {}
    with open(os.path.join(INPUTS, "fp8-convert.expected")) as f:
        for line in f:
            name, _, values = line.partition(" = ")
            rows[name] = [float(v) for v in values.split()]
    return rows


def report(name, got, want, width):
    bad_total = 0
    for row in range(len(want) // width):
        bad = []
        for i in range(row * width, (row + 1) * width):
            g, w = got[i], want[i]
            if (math.isnan(g) and math.isnan(w)) or g == w:
                continue
            bad.append((i - row * width, g, w))
        bad_total += len(bad)
        word = "same" if not bad else f"{len(bad)} differ"
        print(f"{name} row {row}: {word}" +
              "".join(f"; [{i}] triton {g} tile {w}" for i, g, w in bad[:4]))
    return bad_total


def main():
    kernel = load_kernel()
    decoded = torch.full((6 * 256,), float("nan"), dtype=torch.float32,
                         device="cuda")
    encoded = torch.full((7 * N,), -1, dtype=torch.int8, device="cuda")
    kernel[(N // BLOCK,)](decoded, encoded, N=N, BLOCK=BLOCK, NATIVE=True)
    torch.cuda.synchronize()
    want = expected()
    bad = report("decoded", decoded.cpu().tolist(), want["decoded"], 256)
    bad += report("encoded", [float(v) for v in encoded.cpu().tolist()],
                  want["encoded"], N)
    print(f"{bad} elements differ from Tile's reference")
    return 0 if bad == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
