#!/usr/bin/env python3
# Runs test/tools/tile-run/Inputs/triton-parity.tile twice on the GPU, with
# tile-run and as a Triton kernel (the file is Triton source), on the same
# inputs (NaNs, infinities, -0.0 and ties among random values; indices in
# range), and compares every output bit for bit: tl.sort, tl.topk, tl.flip,
# tl.gather, tl.histogram, tl.interleave. Needs torch, triton, numpy and
# tile-run on the PATH.
#
#   python3 scripts/triton-parity.py [--seed N]
#
# Prints one line per output and exits 1 if any differs.
import argparse
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.path.join(ROOT, "test/tools/tile-run/Inputs/triton-parity.tile")
OUTPUTS = {  # name: (dtype, shape)
    "asc": (np.float32, (8, 32)),
    "desc": (np.float32, (8, 32)),
    "top": (np.float32, (8, 8)),
    "flipped": (np.float32, (8, 32)),
    "gathered": (np.float32, (8, 32)),
    "hist": (np.int32, (32,)),
    "inter": (np.float32, (8, 64)),
}


def inputs(seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((8, 32)).astype(np.float32)
    # Ties, signed zeros, infinities and NaNs in most rows.
    x[0, :8] = 1.0
    x[1, ::4] = 0.0
    x[1, 1::4] = -0.0
    x[2, 3] = np.inf
    x[2, 7] = -np.inf
    x[3, 5] = np.nan
    x[4, ::3] = np.nan
    x[5, :] = np.round(x[5, :])
    idx = rng.integers(-100, 100, (8, 32)).astype(np.int32)
    return x, idx


def run_tile(x, idx, tmp):
    np.save(os.path.join(tmp, "x.npy"), x)
    np.save(os.path.join(tmp, "idx.npy"), idx)
    cmd = ["tile-run", KERNEL, "--no-bench",
           "--input", "x=" + os.path.join(tmp, "x.npy"),
           "--input", "idx=" + os.path.join(tmp, "idx.npy")]
    for name in OUTPUTS:
        cmd += ["--save", "%s=%s" % (name, os.path.join(tmp, name + ".npy"))]
    subprocess.run(cmd, check=True)
    return {name: np.load(os.path.join(tmp, name + ".npy")) for name in OUTPUTS}


def run_triton(x, idx):
    loader = importlib.machinery.SourceFileLoader("triton_parity", KERNEL)
    spec = importlib.util.spec_from_loader("triton_parity", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    dev = torch.device("cuda")
    outs = {name: torch.empty(shape, dtype=torch.float32 if dt == np.float32
                              else torch.int32, device=dev)
            for name, (dt, shape) in OUTPUTS.items()}
    module.k[(1,)](torch.from_numpy(x).to(dev), torch.from_numpy(idx).to(dev),
                   *outs.values(), num_warps=4)
    torch.cuda.synchronize()
    return {name: t.cpu().numpy() for name, t in outs.items()}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    x, idx = inputs(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        tile = run_tile(x, idx, tmp)
    triton = run_triton(x, idx)
    failed = 0
    for name, (dt, _) in OUTPUTS.items():
        a = tile[name].view(np.int32)
        b = triton[name].astype(dt).view(np.int32)
        same = a.shape == b.shape and np.array_equal(a, b)
        differ = int((a != b).sum()) if a.shape == b.shape else -1
        print("%s %s: %s" % ("PASS" if same else "FAIL", name,
                             "identical bits" if same else
                             "%d elements differ" % differ))
        failed += not same
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
