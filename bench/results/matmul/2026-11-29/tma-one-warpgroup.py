# One warpgroup, 64x128 tiles: tutorial 09's matmul_kernel_tma (TMA copies, non-split) against tutorial 03's kernel
# (cp.async) at M = N = 1024, K = 1024 and 4096; cuBLAS beside. Microseconds, alternating, 3 rounds.
import statistics, subprocess, tempfile, torch, triton
def tile(kernel, sets):
    f = tempfile.mktemp()
    out = subprocess.run(["tile-run", kernel, "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True)
    if out.returncode:
        print(out.stdout[-400:], out.stderr[-400:]); return float("nan")
    return statistics.median(float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#")) * 1000
def cublas(m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.float16); b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000
T = "bench/results/matmul/2026-11-29/matmul-kernel-tma.tile"
variants = {f"tma 64x128 w4 s{s}": (T, ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "num_warps=4", f"num_stages={s}", "WARP_SPECIALIZE=False"]) for s in [4, 5, 6, 8]}
variants["tma 128x128 w8 s4"] = (T, ["BLOCK_SIZE_M=128", "BLOCK_SIZE_N=128", "num_warps=8", "num_stages=4", "WARP_SPECIALIZE=False"])
variants["cp.async 64x128 w4 s5"] = ("kernels/matmul.tile", ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64", "num_warps=4", "num_stages=5"])
for k in [1024, 4096]:
    rows = {}
    for r in range(3):
        for name, (kern, sets) in variants.items():
            rows.setdefault(name, []).append(tile(kern, sets + ["M=1024", "N=1024", f"K={k}"]))
        rows.setdefault("cuBLAS", []).append(cublas(1024, 1024, k))
    print(f"M=N=1024 K={k} us: " + "; ".join(f"{n} {', '.join(f'{x:.2f}' for x in v)}" for n, v in rows.items()), flush=True)
