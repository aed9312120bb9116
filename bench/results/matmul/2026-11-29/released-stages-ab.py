# Single-dot TMA loops of 8 warps releasing their stages on mbarriers, A and B sharing rings (NEW), against a barrier of
# the whole program before each iteration's copies (OLD, main 24c9861):
# the same kernels alternating, each binary with its own kernel cache; cuBLAS / cuDNN beside. Medians of tile-run's --times.
import os, statistics, subprocess, sys, tempfile, torch, triton
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
OLD, NEW = sys.argv[1], sys.argv[2]
caches = {OLD: tempfile.mkdtemp(), NEW: tempfile.mkdtemp()}
def tile(exe, kernel, sets):
    f = tempfile.mktemp()
    out = subprocess.run([exe, kernel, "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True, env=dict(os.environ, TILE_CACHE_DIR=caches[exe]))
    if out.returncode:
        print(out.stdout[-300:], out.stderr[-300:]); return float("nan")
    return statistics.median(float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#"))
def cublas(m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.float16); b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median")
def cudnn(n, d, causal):
    q, k, v = (torch.randn(4, 32, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return triton.testing.do_bench(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5), return_mode="median")
T = "kernels/matmul_tma.tile"
def mm(bm, bn, bk, w, s): return (T, [f"BLOCK_SIZE_M={bm}", f"BLOCK_SIZE_N={bn}", f"BLOCK_SIZE_K={bk}", f"num_warps={w}", f"num_stages={s}", "WARP_SPECIALIZE=False"])
def pers(kernel, s, sub): return (f"kernels/{kernel}.tile", ["BLOCK_SIZE_M=128", "BLOCK_SIZE_N=256", "BLOCK_SIZE_K=64", "num_warps=8", f"num_stages={s}", f"EPILOGUE_SUBTILE={sub}"])
def sq(s): return [f"M={s}", f"N={s}", f"K={s}"]
cases = [("tma 64x128x64 w4 s8 1024 (shared full ring only)", mm(64, 128, 64, 4, 8), sq(1024), lambda: cublas(1024, 1024, 1024), 1000, 4),
         ("tma 128x256x64 w8 s3 2048", mm(128, 256, 64, 8, 3), sq(2048), lambda: cublas(2048, 2048, 2048), 1000, 4),
         ("tma 128x256x64 w8 s4 2048", mm(128, 256, 64, 8, 4), sq(2048), None, 1000, 4),
         ("tma_persistent 128x256x64 s3 subtile 4096", pers("matmul_tma_persistent", 3, True), sq(4096), lambda: cublas(4096, 4096, 4096), 1000, 4),
         ("descriptor_persistent 128x256x64 s3 4096", pers("matmul_descriptor_persistent", 3, False), sq(4096), None, 1000, 4),
         ("tma 128x256x64 w8 s3 4096", mm(128, 256, 64, 8, 3), sq(4096), None, 1000, 4),
         ("tma_persistent 128x256x64 s3 subtile 8192", pers("matmul_tma_persistent", 3, True), sq(8192), lambda: cublas(8192, 8192, 8192), 1000, 3)]
for name, (kern, sets), extra, ref, scale, rounds in cases:
    rows = {"old": [], "new": [], "ref": []}
    for r in range(rounds):
        order = [("old", OLD), ("new", NEW)] if r % 2 == 0 else [("new", NEW), ("old", OLD)]
        for label, exe in order:
            rows[label].append(tile(exe, kern, sets + extra) * scale)
        if ref:
            rows["ref"].append(ref() * scale)
    print(f"{name} (us): " + "; ".join(f"{a} {', '.join(f'{x:.4g}' for x in v)} (median {statistics.median(v):.4g})" for a, v in rows.items() if v), flush=True)
