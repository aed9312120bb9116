# Is the K loop bound by the L2's aggregate bandwidth? 64x128 tiles (matmul.tile, 4 warps, 5 stages) at N = 1024 with
# M = 1024, 512, 256 (128, 64, 32 programs, one per SM) and K = 1024, 4096: if the per-iteration time falls with fewer
# programs, the programs compete for the L2. cuBLAS beside at the same shapes. Microseconds, alternating, 3 rounds.
import statistics, subprocess, tempfile, torch, triton
def tile(sets):
    f = tempfile.mktemp()
    out = subprocess.run(["tile-run", "kernels/matmul.tile", "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True)
    if out.returncode:
        print(out.stdout[-400:], out.stderr[-400:]); return float("nan")
    return statistics.median(float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#")) * 1000
def cublas(m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.float16); b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000
cfg = ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64", "num_warps=4", "num_stages=5"]
for m in [1024, 512, 256]:
    for k in [1024, 4096]:
        t, c = [], []
        for r in range(3):
            t.append(tile(cfg + [f"M={m}", "N=1024", f"K={k}"])); c.append(cublas(m, 1024, k))
        print(f"M={m} N=1024 K={k}: Tile 64x128 {', '.join(f'{x:.2f}' for x in t)}; cuBLAS {', '.join(f'{x:.2f}' for x in c)}", flush=True)
