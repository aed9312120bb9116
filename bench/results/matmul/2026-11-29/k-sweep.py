# K sweep at M = N = 1024 (and 2048): Tile's matmul.tile at fixed configs, the B-reuse probe, cuBLAS; alternating.
import os, statistics, subprocess, sys, tempfile, torch, triton
R = 3
def tile(kernel, sets):
    f = tempfile.mktemp()
    out = subprocess.run(["tile-run", kernel, "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True)
    if out.returncode:
        print(out.stdout[-600:], out.stderr[-600:]); return float("nan")
    t = [float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#")]
    return statistics.median(t) * 1000
def cublas(m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.float16); b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000
cfgs = {
 "mm 64x128 w4 s5": ("kernels/matmul.tile", ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64", "num_warps=4", "num_stages=5"]),
 "mm 64x64 w4 s5": ("kernels/matmul.tile", ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=64", "BLOCK_SIZE_K=64", "num_warps=4", "num_stages=5"]),
 "probe load-both": ("bench/results/matmul/2026-11-29/mm-b-reuse-probe.tile", ["REUSE=0"]),
 "probe reuse-B": ("bench/results/matmul/2026-11-29/mm-b-reuse-probe.tile", ["REUSE=1"]),
}
big = {"mm 128x256 w8 s3": ("kernels/matmul.tile", ["BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64", "num_warps=8", "num_stages=3"])}
print("us, median of each tile-run (--times) / do_bench median; rounds alternate")
for (mn, ks, cs) in [(1024, [64, 128, 256, 512, 1024, 2048, 4096], cfgs), (2048, [64, 512, 2048, 4096], big)]:
    for k in ks:
        rows = {name: [] for name in cs}; rows["cuBLAS"] = []
        for r in range(R):
            for name, (kern, sets) in cs.items():
                rows[name].append(tile(kern, sets + [f"M={mn}", f"N={mn}", f"K={k}"]))
            rows["cuBLAS"].append(cublas(mn, mn, k))
        print(f"M=N={mn} K={k}: " + "; ".join(f"{n} {', '.join(f'{x:.2f}' for x in v)}" for n, v in rows.items()), flush=True)
