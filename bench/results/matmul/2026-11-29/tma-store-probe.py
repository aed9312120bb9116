# The TMA kernel's fixed cost: its epilogue through a TMA store (tutorial 09's c_desc.store) against a pointer store
# (probe), at K = 64 (one iteration) and the cube; microseconds, alternating, 3 rounds, cuBLAS beside.
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
T, P = "bench/results/matmul/2026-11-29/matmul-kernel-tma.tile", "bench/results/matmul/2026-11-29/matmul-kernel-tma-pointer-store.tile"
def cfg(bm, bn, w, s): return [f"BLOCK_SIZE_M={bm}", f"BLOCK_SIZE_N={bn}", f"num_warps={w}", f"num_stages={s}", "WARP_SPECIALIZE=False"]
small = {"tma-store s8": (T, cfg(64, 128, 4, 8)), "ptr-store s8": (P, cfg(64, 128, 4, 8)),
         "tma-store s4": (T, cfg(64, 128, 4, 4)), "ptr-store s4": (P, cfg(64, 128, 4, 4)),
         "cp.async s5": ("kernels/matmul.tile", ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "BLOCK_SIZE_K=64", "num_warps=4", "num_stages=5"])}
big = {"tma-store 128x256 s4": (T, cfg(128, 256, 8, 4)), "ptr-store 128x256 s4": (P, cfg(128, 256, 8, 4)),
       "cp.async 128x256 s3": ("kernels/matmul.tile", ["BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64", "num_warps=8", "num_stages=3"])}
for (m, k, variants) in [(1024, 64, small), (1024, 1024, small), (2048, 64, big), (2048, 2048, big)]:
    rows = {}
    for r in range(3):
        for name, (kern, sets) in variants.items():
            rows.setdefault(name, []).append(tile(kern, sets + [f"M={m}", f"N={m}", f"K={k}"]))
        rows.setdefault("cuBLAS", []).append(cublas(m, m, k))
    print(f"M=N={m} K={k} us: " + "; ".join(f"{n} {', '.join(f'{x:.2f}' for x in v)}" for n, v in rows.items()), flush=True)
