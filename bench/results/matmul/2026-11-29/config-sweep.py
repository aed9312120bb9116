# Configuration sweep of tutorial 09's matmul_kernel_tma (and tutorial 03's
# kernel) at S^3 fp16 against cuBLAS, alternating, rounds of every variant.
import statistics, subprocess, sys, tempfile, torch, triton
def tile(kernel, sets):
    f = tempfile.mktemp()
    out = subprocess.run(["tile-run", kernel, "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True)
    if out.returncode:
        print("#FAIL", kernel, sets, out.stdout[-300:], out.stderr[-300:], flush=True); return float("nan")
    return statistics.median(float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#")) * 1000
def cublas(s):
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000
T = "kernels/matmul_tma.tile"
def tma(bm, bn, bk, w, s):
    return (f"tma {bm}x{bn}x{bk} w{w} s{s}", T, [f"BLOCK_SIZE_M={bm}", f"BLOCK_SIZE_N={bn}", f"BLOCK_SIZE_K={bk}",
            f"num_warps={w}", f"num_stages={s}", "WARP_SPECIALIZE=False"])
def cp(bm, bn, bk, w, s):
    return (f"cp.async {bm}x{bn}x{bk} w{w} s{s}", "kernels/matmul.tile", [f"BLOCK_SIZE_M={bm}", f"BLOCK_SIZE_N={bn}",
            f"BLOCK_SIZE_K={bk}", f"num_warps={w}", f"num_stages={s}"])
sweeps = {
    512: [tma(64, 64, 64, 4, 4), tma(64, 64, 128, 4, 4), tma(64, 32, 64, 4, 4), tma(64, 128, 64, 4, 8),
          tma(64, 64, 64, 4, 8), cp(64, 64, 64, 4, 4)],
    1024: [tma(64, 128, 64, 4, 8), tma(64, 128, 64, 4, 6), tma(64, 128, 128, 4, 4), tma(64, 128, 128, 4, 3),
           tma(128, 64, 64, 4, 8), tma(128, 64, 64, 8, 8), tma(128, 64, 64, 8, 6), tma(64, 64, 64, 4, 4),
           tma(64, 64, 128, 4, 3), tma(128, 128, 64, 8, 4), tma(64, 256, 64, 4, 4), cp(64, 128, 64, 4, 5)],
    2048: [tma(128, 256, 64, 8, 3), tma(128, 256, 64, 8, 4), tma(128, 128, 64, 8, 4), tma(128, 128, 64, 8, 6),
           tma(128, 128, 64, 4, 4), tma(64, 128, 64, 4, 8), tma(128, 128, 128, 8, 3), tma(64, 256, 64, 4, 4),
           tma(256, 128, 64, 8, 3), cp(128, 256, 64, 8, 3)],
}
for s, variants in sweeps.items():
    rows = {}
    for r in range(3):
        for name, kern, sets in variants:
            rows.setdefault(name, []).append(tile(kern, sets + [f"M={s}", f"N={s}", f"K={s}"]))
        rows.setdefault("cuBLAS", []).append(cublas(s))
    print(f"== S={s} (us, 3 rounds; median TFLOP/s)")
    for n, v in sorted(rows.items(), key=lambda kv: statistics.median(kv[1])):
        print(f"  {n:28s} {', '.join(f'{x:.2f}' for x in v)}  ({2*s**3/statistics.median(v)/1e6:.1f})", flush=True)
