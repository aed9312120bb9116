#!/usr/bin/env python3
"""Checks tutorial 06's backward kernels (kernels/attn_bwd_preprocess.tile and
kernels/attn_bwd.tile, the tutorial's text unchanged) on the GPU against
PyTorch, as the tutorial's own test_op does: fresh random q, k, v (normal,
std 0.5) and dO, the causal reference through PyTorch's autograd, and
torch.allclose(atol=1e-2, rtol=0) on dQ, dK and dV.

The kernels' other inputs are made as the tutorial's backward() makes them:
O is the reference forward's output, M its base-2 log-sum-exp of the scaled
scores (what _attn_fwd stores), K is arg_k = k * sm_scale / ln 2, and D is
Delta from Tile's own _attn_bwd_preprocess (itself checked against
rowsum(O * dO) in float64).

    python3 scripts/check-attention-bwd.py [--tile-run PATH] [--seed N]
        [--warps N]

--warps runs _attn_bwd at that many warps (the tutorial's 4 by default).

Prints one line per shape and kernel and exits non-zero on any failure.
Needs numpy, torch and a CUDA GPU.
"""
import argparse
import math
import os
import random
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = [(1, 2, 1024, 64), (2, 3, 512, 128)]  # the tutorial's test first


def run_tile(tile_run, kernel, sets, inputs, outputs, workdir, extra=()):
    cmd = [tile_run, os.path.join(ROOT, "kernels", kernel), *extra]
    for name, value in sets.items():
        cmd += ["--set", f"{name}={value}"]
    for name, array in inputs.items():
        path = os.path.join(workdir, name + ".npy")
        np.save(path, array)
        cmd += ["--input", f"{name}={path}"]
    for name in outputs:
        cmd += ["--save", f"{name}={os.path.join(workdir, name + '.out.npy')}"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stdout.write(proc.stdout + proc.stderr)
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {proc.returncode}")
    return {n: np.load(os.path.join(workdir, n + ".out.npy")) for n in outputs}


def check_shape(tile_run, shape, warps, workdir):
    Z, H, N_CTX, HEAD_DIM = shape
    sm_scale = 0.5
    dev = "cuda"
    dtype = torch.float16
    q = torch.empty((Z, H, N_CTX, HEAD_DIM), dtype=dtype, device=dev).normal_(mean=0.0, std=0.5).requires_grad_()
    k = torch.empty((Z, H, N_CTX, HEAD_DIM), dtype=dtype, device=dev).normal_(mean=0.0, std=0.5).requires_grad_()
    v = torch.empty((Z, H, N_CTX, HEAD_DIM), dtype=dtype, device=dev).normal_(mean=0.0, std=0.5).requires_grad_()
    dout = torch.randn_like(q)
    # The tutorial's reference: causal softmax in float32, fp16 matmuls.
    causal = torch.tril(torch.ones((N_CTX, N_CTX), device=dev))
    p = torch.matmul(q, k.transpose(2, 3)) * sm_scale
    p[:, :, causal == 0] = float("-inf")
    p = torch.softmax(p.float(), dim=-1).half()
    ref_out = torch.matmul(p, v)
    ref_out.backward(dout)
    ref = {"DQ": q.grad, "DK": k.grad, "DV": v.grad}

    with torch.no_grad():
        s = torch.matmul(q.double(), k.double().transpose(2, 3)) * sm_scale
        s[:, :, causal == 0] = float("-inf")
        lse2 = (torch.logsumexp(s, dim=-1) / math.log(2.0)).float()
        o = ref_out.detach()
        arg_k = k.detach() * (sm_scale * 1.4426950408889634)
        delta_ref = (o.double() * dout.double()).sum(dim=-1)

    sets = {"BATCH": Z, "N_HEAD": H, "N_CTX": N_CTX, "HEAD_DIM": HEAD_DIM}
    ok = True
    got = run_tile(tile_run, "attn_bwd_preprocess.tile", sets,
                   {"O": o.cpu().numpy(), "DO": dout.cpu().numpy()},
                   ["Delta"], workdir)
    delta = torch.from_numpy(got["Delta"]).double()
    err = (delta - delta_ref.cpu()).abs().max().item()
    scale = delta_ref.abs().max().item()
    good = err <= 1e-5 * max(scale, 1.0) * HEAD_DIM
    ok &= good
    print(f"{'PASS' if good else 'FAIL'} _attn_bwd_preprocess Z={Z} H={H} N_CTX={N_CTX} "
          f"HEAD_DIM={HEAD_DIM}: max |Delta - float64| {err:.2e}")

    sets["sm_scale"] = repr(sm_scale)
    sets["num_warps"] = warps
    got = run_tile(tile_run, "attn_bwd.tile", sets,
                   {"Q": q.detach().cpu().numpy(), "K": arg_k.cpu().numpy(),
                    "V": v.detach().cpu().numpy(), "DO": dout.cpu().numpy(),
                    "M": lse2.cpu().numpy(), "D": got["Delta"]},
                   ["DQ", "DK", "DV"], workdir)
    for name in ("DQ", "DK", "DV"):
        mine = torch.from_numpy(got[name]).to(dev)
        good = torch.allclose(ref[name], mine, atol=1e-2, rtol=0)
        err = (ref[name].float() - mine.float()).abs().max().item()
        ok &= good
        print(f"{'PASS' if good else 'FAIL'} _attn_bwd {name} Z={Z} H={H} N_CTX={N_CTX} "
              f"HEAD_DIM={HEAD_DIM} warps={warps}: max |err| vs PyTorch {err:.2e} (atol 1e-2)")
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tile-run", default="tile-run")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--warps", type=int, default=4)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"seed {seed}")
    torch.manual_seed(seed)
    ok = True
    with tempfile.TemporaryDirectory() as workdir:
        for shape in SHAPES:
            ok &= check_shape(args.tile_run, shape, args.warps, workdir)
    print("attention backward:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
