# Is Tile's spread between tile-run processes a warm-up effect? tile-run with its default 25 ms warm-up and with 500 ms,
# cuBLAS timed in this process and in a fresh process each round (the conditions a tile-run process meets).
import statistics, subprocess, sys, tempfile, torch, triton
def tile(kernel, sets, extra=()):
    f = tempfile.mktemp()
    out = subprocess.run(["tile-run", kernel, "--no-check", "--times", f, *extra] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True)
    if out.returncode:
        print("#FAIL", out.stderr[-300:], flush=True); return float("nan")
    return statistics.median(float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#")) * 1000
FRESH = """
import sys, torch, triton
s = int(sys.argv[1]); w = int(sys.argv[2])
a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
print(triton.testing.do_bench(lambda: a @ b, warmup=w, return_mode="median") * 1000)
"""
def cublas_fresh(s, w=25):
    out = subprocess.run([sys.executable, "-c", FRESH, str(s), str(w)], capture_output=True, text=True)
    return float(out.stdout.split()[-1])
def cublas_here(s):
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000
cases = {
    1024: ("kernels/matmul_tma.tile", ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64", "num_warps=4", "num_stages=8"], 6),
    8192: ("kernels/matmul_tma_persistent.tile", ["BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64", "num_warps=8",
            "num_stages=3", "EPILOGUE_SUBTILE=True"], 3),
}
for s, (kern, sets, rounds) in cases.items():
    sets = sets + [f"M={s}", f"N={s}", f"K={s}"]
    rows = {}
    for r in range(rounds):
        rows.setdefault("tile-run, 25 ms warm-up", []).append(tile(kern, sets))
        rows.setdefault("tile-run, 500 ms warm-up", []).append(tile(kern, sets, ["--warmup-ms", "500"]))
        rows.setdefault("cuBLAS, fresh process, 25 ms", []).append(cublas_fresh(s))
        rows.setdefault("cuBLAS, fresh process, 500 ms", []).append(cublas_fresh(s, 500))
        rows.setdefault("cuBLAS, this process", []).append(cublas_here(s))
    print(f"== S={s}, us, {rounds} rounds alternating")
    for n, v in rows.items():
        print(f"  {n:32s} {', '.join(f'{x:.2f}' for x in v)}  median {statistics.median(v):.2f}", flush=True)
