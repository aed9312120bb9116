#!/usr/bin/env python3
"""Tutorial 03's matmul (kernels/matmul.tile, whose text is Triton's) at one
fixed configuration, on the GPU: Tile (tile-run) and Triton running the same
kernel text (the @triton.autotune decorator dropped, the configuration
passed instead), alternating, fp16, median ms of triton.testing.do_bench
for Triton and of tile-run's own timing for Tile, TFLOP/s as 2 M N K.
Triton's output is checked against torch.matmul (float32) first.

    python3 scripts/bench-matmul-fixed.py [--tile-run PATH] [--repeats N]
        [--activation leaky_relu] [--config BM,BN,BK,WARPS,STAGES]
        [--shapes M,N,K;...]

Needs torch, triton and a CUDA GPU.
"""
import argparse
import importlib
import os
import re
import statistics
import subprocess
import sys
import tempfile

import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.path.join(ROOT, "kernels", "matmul.tile")
TIME_RE = re.compile(r"^time: median ([0-9.]+) ms")


def load_triton_kernel():
    text = open(KERNEL).read()
    text = re.sub(r"@triton\.autotune\(.*?\)\n(?=@triton\.jit)", "", text, flags=re.S)
    # @triton.jit reads its function's source from a file: write one.
    module_dir = tempfile.mkdtemp()
    with open(os.path.join(module_dir, "matmul_tile_kernel.py"), "w") as f:
        f.write(text)
    sys.path.insert(0, module_dir)
    return importlib.import_module("matmul_tile_kernel").matmul_kernel


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tile-run", default="tile-run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--activation", default="leaky_relu")
    parser.add_argument("--config", default="128,128,32,4,4")
    parser.add_argument("--shapes", default="1000,1000,1000;513,257,129")
    args = parser.parse_args()
    bm, bn, bk, warps, stages = (int(x) for x in args.config.split(","))
    kernel = load_triton_kernel()
    print(f"# {torch.cuda.get_device_name()}, triton {triton.__version__}; tutorial 03 matmul, "
          f"activation '{args.activation}', {bm}x{bn}x{bk}, {warps} warps, {stages} stages")
    print("| M, N, K | Tile TFLOP/s | Triton TFLOP/s | Tile repeats (ms) | Triton repeats (ms) |")
    print("|---|---|---|---|---|")
    status = 0
    for shape in args.shapes.split(";"):
        m, n, k = (int(x) for x in shape.split(","))
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        grid = (triton.cdiv(m, bm) * triton.cdiv(n, bn),)

        def run():
            kernel[grid](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1), BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                         GROUP_SIZE_M=8, ACTIVATION=args.activation, num_warps=warps, num_stages=stages)
        run()
        ref = a.float() @ b.float()
        if args.activation == "leaky_relu":
            ref = torch.where(ref >= 0, ref, 0.01 * ref)
        err = ((c.float() - ref).norm() / ref.norm()).item()
        status |= err > 1e-2
        sets = ["--set", f"M={m}", "--set", f"N={n}", "--set", f"K={k}", "--set", f"BLOCK_SIZE_M={bm}",
                "--set", f"BLOCK_SIZE_N={bn}", "--set", f"BLOCK_SIZE_K={bk}", "--set", f"num_warps={warps}",
                "--set", f"num_stages={stages}", "--set", f'ACTIVATION="{args.activation}"']
        check = subprocess.run([args.tile_run, KERNEL, "--no-bench"] + sets, capture_output=True, text=True)
        tile_ok = check.returncode == 0 and ": PASS" in check.stdout
        status |= not tile_ok
        tile_ms, triton_ms = [], []
        for _ in range(args.repeats):
            out = subprocess.run([args.tile_run, KERNEL, "--no-check"] + sets, capture_output=True, text=True)
            times = [float(x[1]) for x in map(TIME_RE.match, out.stdout.splitlines()) if x]
            if not times:
                sys.stdout.write(out.stdout + out.stderr)
                raise SystemExit("tile-run printed no time")
            tile_ms.append(times[0])
            triton_ms.append(triton.testing.do_bench(run))
        rate = lambda ms: 2 * m * n * k / (statistics.median(ms) * 1e-3) / 1e12
        print(f"| {m}, {n}, {k} | {rate(tile_ms):.2f} | {rate(triton_ms):.2f} | "
              f"{', '.join(f'{x:.4f}' for x in tile_ms)} | {', '.join(f'{x:.4f}' for x in triton_ms)} |"
              f"  (Tile check {'PASS' if tile_ok else 'FAIL'}, Triton rel err {err:.1e})", flush=True)
    sys.exit(status)


if __name__ == "__main__":
    main()
