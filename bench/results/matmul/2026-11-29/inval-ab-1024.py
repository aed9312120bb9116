# Consecutive inval_barriers sharing one bar.sync (NEW, main 1952674) against one bar.sync each (OLD, main 24c9861),
# ten rounds at 1024^3:
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
def sq(s): return [f"M={s}", f"N={s}", f"K={s}"]
A = "kernels/attn_fwd_descriptor.tile"
split = ["HEAD_DIM=128", "BLOCK_M=128", "BLOCK_N=128", "num_warps=8", "num_stages=2", "warp_specialize_all=True", "Z=4", "H=32"]
d64 = ["HEAD_DIM=64", "BLOCK_M=128", "BLOCK_N=64", "num_warps=4", "num_stages=3", "Z=4", "H=32"]
cases = [("tma 64x128x64 s8 1024", mm(64, 128, 64, 4, 8), sq(1024), lambda: cublas(1024, 1024, 1024), 1000),
         ("tma 128x64x64 s8 1024", mm(128, 64, 64, 4, 8), sq(1024), None, 1000)]
for name, (kern, sets), extra, ref, scale in cases:
    rows = {"old": [], "new": [], "ref": []}
    for r in range(10):
        order = [("old", OLD), ("new", NEW)] if r % 2 == 0 else [("new", NEW), ("old", OLD)]
        for label, exe in order:
            rows[label].append(tile(exe, kern, sets + extra) * scale)
        if ref:
            rows["ref"].append(ref() * scale)
    unit = "us" if scale == 1000 else "ms"
    print(f"{name} ({unit}): " + "; ".join(f"{a} {', '.join(f'{x:.4g}' for x in v)} (median {statistics.median(v):.4g})" for a, v in rows.items() if v), flush=True)
