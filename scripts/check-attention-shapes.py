#!/usr/bin/env python3
"""Checks tutorial 06's attention kernels, unchanged, at every shape of its
benchmark (Z 4, H 32, N_CTX 1024 to 16384, HEAD_DIM 64 and 128; the forward
causal and not, the backward causal, as the tutorial benchmarks them) on
the GPU against a float32 PyTorch reference, with the tutorial's tolerance
(torch.allclose, atol 1e-2, rtol 0) on O and on dQ, dK, dV.

Each shape gets fresh random inputs made as the tutorial's test_op makes
them (q, k, v normal with std 0.5, dO normal), handed to tile-run with
--input and read back with --save. The reference runs per head in float32
(scores, softmax, both products and, for the backward, autograd), so it
is independent of Tile's fp16 dots. The configurations are the ones the
benchmarks time: the forward (kernels/attn_fwd_descriptor.tile) at
BLOCK_N 64 / 4 warps for HEAD_DIM 64 and 128 / 8 warps for 128; the
backward (kernels/attn_bwd_preprocess.tile, then kernels/attn_bwd.tile at
the tutorial's blocks) at 4 warps for 64 and 8 for 128. The forward's M
(base-2 log-sum-exp) is checked too; the backward's M and K inputs are made
as check-attention-bwd.py makes them, its D by Tile's preprocess kernel.

    python3 scripts/check-attention-shapes.py [--tile-run PATH] [--seed N]
        [--n-ctx 1024,2048,...] [--head-dims 64,128] [--batch 4] [--heads 32]
        [--direction both|forward|backward] [--forward-set KEY=VALUE ...]

--forward-set adds a launch setting to the forward's (warp_specialize=True
checks its warp-specialized, persistent schedule at HEAD_DIM 128).

Prints one line per kernel and shape with the largest error and exits
non-zero on any failure. Needs numpy, torch and a CUDA GPU.
"""
import argparse
import importlib.util
import math
import os
import random
import shutil
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
spec = importlib.util.spec_from_file_location(
    "check_attention_bwd", os.path.join(ROOT, "scripts", "check-attention-bwd.py"))
check_attention_bwd = importlib.util.module_from_spec(spec)
spec.loader.exec_module(check_attention_bwd)
run_tile = check_attention_bwd.run_tile

SM_SCALE = 0.5
LOG2E = 1.4426950408889634


def head_chunks(z, h, n):
    """(z, head slice) pieces whose N x N float32 scores stay near 1 GB."""
    per = max(1, (1 << 28) // (n * n))
    for zi in range(z):
        for h0 in range(0, h, per):
            yield zi, slice(h0, min(h, h0 + per))


def reference_forward(q, k, v, causal):
    """float32 O and base-2 log-sum-exp of the scaled scores, per chunk."""
    z, h, n, _ = q.shape
    out = torch.empty(q.shape, dtype=torch.float32, device=q.device)
    lse2 = torch.empty((z, h, n), dtype=torch.float32, device=q.device)
    mask = torch.tril(torch.ones((n, n), dtype=torch.bool, device=q.device)) if causal else None
    for zi, hs in head_chunks(z, h, n):
        s = torch.matmul(q[zi, hs].float(), k[zi, hs].float().transpose(-1, -2)) * SM_SCALE
        if causal:
            s.masked_fill_(~mask, float("-inf"))
        lse2[zi, hs] = torch.logsumexp(s, dim=-1) / math.log(2.0)
        out[zi, hs] = torch.matmul(torch.softmax(s, dim=-1), v[zi, hs].float())
        del s
    return out, lse2


def reference_backward(q, k, v, dout):
    """float32 O, base-2 log-sum-exp, dQ, dK, dV of causal attention,
    through autograd per chunk."""
    z, h, n, _ = q.shape
    grads = [torch.empty(q.shape, dtype=torch.float32, device=q.device) for _ in range(3)]
    out = torch.empty(q.shape, dtype=torch.float32, device=q.device)
    lse2 = torch.empty((z, h, n), dtype=torch.float32, device=q.device)
    mask = torch.tril(torch.ones((n, n), dtype=torch.bool, device=q.device))
    for zi, hs in head_chunks(z, h, n):
        qc, kc, vc = (t[zi, hs].float().requires_grad_() for t in (q, k, v))
        s = torch.matmul(qc, kc.transpose(-1, -2)) * SM_SCALE
        s = s.masked_fill(~mask, float("-inf"))
        lse2[zi, hs] = torch.logsumexp(s.detach(), dim=-1) / math.log(2.0)
        o = torch.matmul(torch.softmax(s, dim=-1), vc)
        o.backward(dout[zi, hs].float())
        out[zi, hs] = o.detach()
        for grad, t in zip(grads, (qc, kc, vc)):
            grad[zi, hs] = t.grad
        del s, o
    return out, lse2, grads


def compare(name, mine, ref, atol, label):
    mine = torch.from_numpy(mine).to(ref.device).float()
    err = (mine - ref).abs()
    bad = int((err > atol).sum().item())
    good = bad == 0 and not torch.isnan(mine).any().item()
    print(f"{'PASS' if good else 'FAIL'} {name} {label}: max |err| vs float32 {err.max().item():.2e}, "
          f"{bad} beyond atol {atol:g}", flush=True)
    return good


def normal(shape, std):
    return torch.empty(shape, dtype=torch.float16, device="cuda").normal_(mean=0.0, std=std)


def check_forward(args, z, h, n, d, causal, workdir):
    q, k, v = (normal((z, h, n, d), 0.5) for _ in range(3))
    sets = {"Z": z, "H": h, "N_CTX": n, "HEAD_DIM": d, "CAUSAL": causal, "sm_scale": repr(SM_SCALE),
            "BLOCK_N": 64 if d == 64 else 128, "num_warps": 4 if d == 64 else 8}
    sets.update(dict(setting.split("=", 1) for setting in args.forward_set))
    got = run_tile(args.tile_run, "attn_fwd_descriptor.tile", sets,
                   {"q": q.cpu().numpy(), "k": k.cpu().numpy(), "v": v.cpu().numpy()},
                   ["o", "m"], workdir, ["--no-check", "--no-bench"])
    ref_o, ref_m = reference_forward(q, k, v, causal)
    extra = "".join(f" {setting}" for setting in args.forward_set)
    label = f"Z={z} H={h} N_CTX={n} HEAD_DIM={d} causal={causal}{extra}"
    ok = compare("_attn_fwd O", got["o"], ref_o, 1e-2, label)
    ok &= compare("_attn_fwd M", got["m"], ref_m, 1e-2, label)
    return ok


def check_backward(args, z, h, n, d, workdir):
    q, k, v = (normal((z, h, n, d), 0.5) for _ in range(3))
    dout = torch.randn_like(q)
    ref_o, lse2, (ref_dq, ref_dk, ref_dv) = reference_backward(q, k, v, dout)
    o = ref_o.half()
    label = f"Z={z} H={h} N_CTX={n} HEAD_DIM={d} causal=True warps={4 if d == 64 else 8}"
    sets = {"BATCH": z, "N_HEAD": h, "N_CTX": n, "HEAD_DIM": d}
    got = run_tile(args.tile_run, "attn_bwd_preprocess.tile", sets,
                   {"O": o.cpu().numpy(), "DO": dout.cpu().numpy()}, ["Delta"], workdir,
                   ["--no-check", "--no-bench"])
    delta_ref = (o.float() * dout.float()).sum(dim=-1)
    ok = compare("_attn_bwd_preprocess Delta", got["Delta"], delta_ref, 1e-2, label)
    sets.update({"sm_scale": repr(SM_SCALE), "num_warps": 4 if d == 64 else 8})
    arg_k = (k.float() * (SM_SCALE * LOG2E)).half()
    got = run_tile(args.tile_run, "attn_bwd.tile", sets,
                   {"Q": q.cpu().numpy(), "K": arg_k.cpu().numpy(), "V": v.cpu().numpy(),
                    "DO": dout.cpu().numpy(), "M": lse2.cpu().numpy(), "D": got["Delta"]},
                   ["DQ", "DK", "DV"], workdir, ["--no-check", "--no-bench"])
    for name, ref in (("DQ", ref_dq), ("DK", ref_dk), ("DV", ref_dv)):
        ok &= compare(f"_attn_bwd {name}", got[name], ref, 1e-2, label)
    return ok


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tile-run", default="tile-run")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--n-ctx", default="1024,2048,4096,8192,16384")
    parser.add_argument("--head-dims", default="64,128")
    parser.add_argument("--batch", type=int, default=4)
    parser.add_argument("--heads", type=int, default=32)
    parser.add_argument("--direction", choices=["both", "forward", "backward"], default="both")
    parser.add_argument("--forward-set", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"seed {seed}")
    torch.manual_seed(seed)
    # The largest shape passes about 4 GB through .npy files: memory-backed
    # /dev/shm when it has room (containers often give it 64 MB), else TMPDIR.
    shm = "/dev/shm" if os.path.isdir("/dev/shm") and shutil.disk_usage("/dev/shm").free > 16 << 30 else None
    ok = True
    with tempfile.TemporaryDirectory(dir=shm) as workdir:
        for d in (int(x) for x in args.head_dims.split(",")):
            for n in (int(x) for x in args.n_ctx.split(",")):
                if args.direction in ("both", "forward"):
                    for causal in (False, True):
                        ok &= check_forward(args, args.batch, args.heads, n, d, causal, workdir)
                if args.direction in ("both", "backward"):
                    ok &= check_backward(args, args.batch, args.heads, n, d, workdir)
                torch.cuda.empty_cache()
    print("attention at every shape:", "PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
