# kernels/matmul_tma.tile (tutorial 09's matmul_kernel_tma, autotuned over its 26 configurations) and kernels/matmul.tile
# (tutorial 03, autotuned) beside cuBLAS at 1024^3 and 2048^3: tune and check once, then three alternating rounds of
# tile-run medians (ms) and do_bench medians.
import re, statistics, subprocess, torch, triton
TIME = re.compile(r"^time: median ([0-9.]+) ms", re.M)
CHOICE = re.compile(r"autotune: (?:best config|cached choice config) [0-9]+/[0-9]+: (.*?): [0-9.]+ ms")
def tile(kernel, s, check):
    out = subprocess.run(["tile-run", kernel, "--autotune", "--set", f"M={s}", "--set", f"N={s}", "--set", f"K={s}"] +
                         ([] if check else ["--no-check"]), capture_output=True, text=True)
    t = out.stdout + out.stderr
    if check:
        print(f"# {kernel} {s}: {CHOICE.search(t).group(1) if CHOICE.search(t) else '?'}; " +
              " ".join(l for l in t.splitlines() if l.startswith("check")))
    m = TIME.search(t)
    return float(m.group(1)) if m else float("nan")
for s in [1024, 2048]:
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    for k in ["kernels/matmul_tma.tile", "kernels/matmul.tile"]:
        tile(k, s, True)
    rows = {"matmul_tma.tile": [], "matmul.tile": [], "cuBLAS": []}
    for r in range(3):
        rows["matmul_tma.tile"].append(tile("kernels/matmul_tma.tile", s, False))
        rows["matmul.tile"].append(tile("kernels/matmul.tile", s, False))
        rows["cuBLAS"].append(triton.testing.do_bench(lambda: a @ b, return_mode="median"))
    tf = lambda v: 2 * s ** 3 / (statistics.median(v) * 1e-3) / 1e12
    print(f"S={s}: " + "; ".join(f"{n} {', '.join(f'{x:.4f}' for x in v)} ms ({tf(v):.1f} TFLOP/s)" for n, v in rows.items()), flush=True)
