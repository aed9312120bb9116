#!/usr/bin/env python3
"""Times tutorial 06's backward main kernel (kernels/attn_bwd.tile, _attn_bwd
with _attn_bwd_dkdv and _attn_bwd_dq, causal) on the GPU: Tile (tile-run)
and Triton running the same kernel text (the .tile file is Python), at the
tutorial's backward() configuration (BLOCK_M1 32, BLOCK_N1 128, BLOCK_M2
128, BLOCK_N2 32, BLK_SLICE_FACTOR 2) at each of --warps (the tutorial's
4 by default) and --stages (its 5), both compilers at the same counts,
alternating,
fp16, on random inputs (the kernel's work does not depend on their values;
scripts/check-attention-bwd.py checks its results against PyTorch).
TFLOP/s as the tutorial counts the backward: 2.5 x the forward's
4 Z H N^2 D, halved for causal.

    python3 scripts/bench-attention-bwd.py [--tile-run PATH] [--repeats N]
        [--shapes Z,H,N,D;...] [--warps 4,8] [--stages 3,5] [--tile-timeout 120]

Needs torch, triton and a CUDA GPU.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import types

import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.path.join(ROOT, "kernels", "attn_bwd.tile")
TIME_RE = re.compile(r"^time: median ([0-9.]+) ms")
CONFIG = dict(BLOCK_M1=32, BLOCK_N1=128, BLOCK_M2=128, BLOCK_N2=32, BLK_SLICE_FACTOR=2)


def load_triton_kernel():
    module = types.ModuleType("attn_bwd_tile")
    module.__file__ = KERNEL
    with open(KERNEL) as f:
        exec(compile(f.read(), KERNEL, "exec"), module.__dict__)
    return module._attn_bwd


def tile_ms(args, z, h, n, d, warps, stages):
    cmd = [args.tile_run, KERNEL, "--no-check", "--set", f"BATCH={z}", "--set", f"N_HEAD={h}",
           "--set", f"N_CTX={n}", "--set", f"HEAD_DIM={d}", "--set", f"num_warps={warps}", "--set", f"num_stages={stages}"]
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=args.tile_timeout)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"FAIL: tile-run did not finish within {args.tile_timeout} s: {' '.join(cmd)}")
    times = [float(m[1]) for m in map(TIME_RE.match, out.stdout.splitlines()) if m]
    if out.returncode != 0 or not times:
        sys.stdout.write(out.stdout + out.stderr)
        raise SystemExit(f"FAIL: {' '.join(cmd)}")
    return times[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tile-run", default="tile-run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tile-timeout", type=int, default=120,
                        help="seconds one tile-run may take before the run fails")
    parser.add_argument("--shapes", default="4,32,1024,64;4,32,4096,64")
    parser.add_argument("--warps", default="4",
                        help="comma-separated warp counts; each shape runs at each, Tile and Triton alike")
    parser.add_argument("--stages", default="5",
                        help="comma-separated stage counts, as --warps")
    args = parser.parse_args()
    attn_bwd = load_triton_kernel()
    print(f"# {torch.cuda.get_device_name()}, triton {triton.__version__}; tutorial 06 _attn_bwd, "
          f"{CONFIG}, causal")
    print("| Z, H, N_CTX, HEAD_DIM | warps | stages | Tile TFLOP/s | Triton TFLOP/s | Tile repeats (ms) | "
          "Triton repeats (ms) |")
    print("|---|---|---|---|---|---|---|")
    shapes = [tuple(int(x) for x in shape.split(",")) for shape in args.shapes.split(";")]
    warp_counts = [int(w) for w in args.warps.split(",")]
    stage_counts = [int(s) for s in args.stages.split(",")]
    for (z, h, n, d), warps, stages in ((shape, w, s) for shape in shapes for w in warp_counts
                                        for s in stage_counts):
        flops = 2.5 * 4.0 * z * h * n * n * d * 0.5
        q, k, v, do = (torch.randn((z, h, n, d), dtype=torch.float16, device="cuda") for _ in range(4))
        dq, dk, dv = (torch.empty_like(q) for _ in range(3))
        m = torch.rand((z, h, n), dtype=torch.float32, device="cuda")
        delta = torch.rand((z, h, n), dtype=torch.float32, device="cuda")
        grid = (n // CONFIG["BLOCK_N1"], 1, z * h)

        def triton_call():
            attn_bwd[grid](q, k, v, 0.5, do, dq, dk, dv, m, delta, q.stride(0), q.stride(1), q.stride(2),
                           q.stride(3), h, n, HEAD_DIM=d, num_warps=warps, num_stages=stages, **CONFIG)
        triton_call()
        tile_runs, triton_runs = [], []
        for _ in range(args.repeats):
            tile_runs.append(tile_ms(args, z, h, n, d, warps, stages))
            triton_runs.append(triton.testing.do_bench(triton_call))
        rate = lambda ms: flops / (statistics.median(ms) * 1e-3) / 1e12
        print(f"| {z}, {h}, {n}, {d} | {warps} | {stages} | {rate(tile_runs):.1f} | {rate(triton_runs):.1f} | "
              f"{', '.join(f'{x:.3f}' for x in tile_runs)} | {', '.join(f'{x:.3f}' for x in triton_runs)} |",
              flush=True)


if __name__ == "__main__":
    main()
