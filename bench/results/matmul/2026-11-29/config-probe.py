#!/usr/bin/env python3
"""Matmul configurations Tile's kernels' lists lack (256-row tiles, 8-warp
128x64), beside the tuned ones and cuBLAS, in alternating rounds with the
order shuffled. Medians of tile-run's --times, us; cuBLAS do_bench medians."""
import os, random, statistics, subprocess, sys, tempfile
import torch, triton

CASES = {
 1024: [("tma 64x128x64 w4 s8", "matmul_tma.tile", "BLOCK_SIZE_M=64,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=4,num_stages=8"),
        ("tma 128x64x64 w8 s8", "matmul_tma.tile", "BLOCK_SIZE_M=128,BLOCK_SIZE_N=64,BLOCK_SIZE_K=64,num_warps=8,num_stages=8"),
        ("tma 128x128x64 w8 s4", "matmul_tma.tile", "BLOCK_SIZE_M=128,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=4")],
 2048: [("tma 128x256x64 w8 s3", "matmul_tma.tile", "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3"),
        ("tmap 128x256x64 w8 s3", "matmul_tma_persistent.tile", "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3"),
        ("tma 256x128x64 w8 s3", "matmul_tma.tile", "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=3"),
        ("tma 256x128x64 w8 s4", "matmul_tma.tile", "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=4"),
        ("tmap 256x128x64 w8 s4", "matmul_tma_persistent.tile", "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=4")],
 8192: [("tmap 128x256x64 w8 s3", "matmul_tma_persistent.tile", "BLOCK_SIZE_M=128,BLOCK_SIZE_N=256,BLOCK_SIZE_K=64,num_warps=8,num_stages=3"),
        ("tmap 256x128x64 w8 s3", "matmul_tma_persistent.tile", "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=3"),
        ("tmap 256x128x64 w8 s4", "matmul_tma_persistent.tile", "BLOCK_SIZE_M=256,BLOCK_SIZE_N=128,BLOCK_SIZE_K=64,num_warps=8,num_stages=4")],
}
ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 3
cache = tempfile.mkdtemp()

def tile_us(kernel, sets, s, check=False, extra=()):
    times = tempfile.mktemp(suffix=".times")
    args = ["tile-run", "kernels/" + kernel, "--times", times, *extra]
    if not check:
        args += ["--no-check", "--set", f"M={s}", "--set", f"N={s}", "--set", f"K={s}"]
    for v in sets.split(","):
        args += ["--set", v]
    out = subprocess.run(args, capture_output=True, text=True, env=dict(os.environ, TILE_CACHE_DIR=cache))
    if check:
        print("#   check: " + " | ".join(l for l in (out.stdout + out.stderr).splitlines() if "check" in l.lower() or "error" in l.lower())[:400], flush=True)
    if out.returncode or not os.path.exists(times):
        print(f"# {kernel} {sets} failed: " + " | ".join((out.stdout + out.stderr).splitlines()[-4:]), flush=True)
        return None
    vals = [float(l.split()[0]) for l in open(times) if l.strip() and not l.startswith("#")]
    return statistics.median(vals) * 1000

# float64 checks of the configurations no list had (the launch's own shapes)
for s, cases in CASES.items():
    for name, kernel, sets in cases:
        if "256x128" in name or "w8 s8" in name:
            print(f"# check {name} at the launch's M, N, K:", flush=True)
            tile_us(kernel, sets, s, check=True)

random.seed(1)
for s, cases in CASES.items():
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    rows = {c[0]: [] for c in cases}; rows["cuBLAS"] = []
    for r in range(ROUNDS):
        order = list(cases) + [None]; random.shuffle(order)
        for c in order:
            if c is None:
                rows["cuBLAS"].append(triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000)
            else:
                t = tile_us(c[1], c[2], s)
                if t is not None: rows[c[0]].append(t)
    print(f"## {s}^3 (us; TFLOP/s of the median)", flush=True)
    for name, vals in rows.items():
        if vals:
            med = statistics.median(vals)
            print(f"  {name:24s} {2*s**3/med*1e-6:6.1f}  " + ", ".join(f"{x:.2f}" for x in vals), flush=True)
