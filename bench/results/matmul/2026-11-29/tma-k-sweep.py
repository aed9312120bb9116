# Where does the one-warpgroup TMA kernel (tutorial 09's matmul_kernel_tma, 64x128, deep pipelines) lose to cuBLAS at
# 1024^3? K sweep at M = N = 1024; microseconds, alternating, 3 rounds.
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
def tma(bk, s): return (T, ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", f"BLOCK_SIZE_K={bk}", "num_warps=4", f"num_stages={s}", "WARP_SPECIALIZE=False"])
variants = {"tma bk64 s8": tma(64, 8), "tma bk64 s6": tma(64, 6), "tma bk32 s12": tma(32, 12), "tma bk32 s16": tma(32, 16),
            "cp.async bk64 s5": ("kernels/matmul.tile", ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64", "num_warps=4", "num_stages=5"])}
for k in [64, 256, 512, 1024, 2048]:
    rows = {}
    for r in range(3):
        for name, (kern, sets) in variants.items():
            rows.setdefault(name, []).append(tile(kern, sets + ["M=1024", "N=1024", f"K={k}"]))
        rows.setdefault("cuBLAS", []).append(cublas(1024, 1024, k))
    print(f"M=N=1024 K={k} us: " + "; ".join(f"{n} {', '.join(f'{x:.2f}' for x in v)}" for n, v in rows.items()), flush=True)
