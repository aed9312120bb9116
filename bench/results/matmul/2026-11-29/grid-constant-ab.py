# Grid-constant tensor maps, A/B: the same kernels with tile-run OLD (maps in global memory) and NEW (maps passed by value),
# alternating, cuBLAS / cuDNN beside. Microseconds (matmul) and ms (attention), medians of tile-run's --times.
import os, statistics, subprocess, sys, tempfile, torch, triton
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
OLD, NEW = sys.argv[1], sys.argv[2]
def tile(exe, kernel, sets, cache):
    f = tempfile.mktemp()
    out = subprocess.run([exe, kernel, "--no-check", "--times", f] + sum((["--set", s] for s in sets), []),
                         capture_output=True, text=True, env=dict(os.environ, TILE_CACHE_DIR=cache))
    if out.returncode:
        print(out.stdout[-400:], out.stderr[-400:]); return float("nan")
    return statistics.median(float(l.split()[0]) for l in open(f) if l.strip() and not l.startswith("#")) * 1000
caches = {OLD: tempfile.mkdtemp(), NEW: tempfile.mkdtemp()}
def cublas(m, n, k):
    a = torch.randn(m, k, device="cuda", dtype=torch.float16); b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    return triton.testing.do_bench(lambda: a @ b, return_mode="median") * 1000
def cudnn(n, d, causal):
    q, k, v = (torch.randn(4, 32, n, d, device="cuda", dtype=torch.float16) for _ in range(3))
    with sdpa_kernel(SDPBackend.CUDNN_ATTENTION):
        return triton.testing.do_bench(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5), return_mode="median") * 1000
T = "bench/results/matmul/2026-11-29/matmul-kernel-tma.tile"
mm = {"tma 64x128 w4 s8": (T, ["BLOCK_SIZE_M=64", "BLOCK_SIZE_N=128", "num_warps=4", "num_stages=8", "WARP_SPECIALIZE=False"]),
      "tma_persistent 128x128 w8 s4": ("kernels/matmul_tma_persistent.tile", ["BLOCK_SIZE_M=128", "BLOCK_SIZE_N=128", "num_warps=8", "num_stages=4"])}
for shape in [(1024, 1024, 64), (1024, 1024, 1024), (2048, 2048, 2048)]:
    m, n, k = shape
    rows = {}
    for r in range(3):
        for name, (kern, sets) in mm.items():
            for label, exe in [("old", OLD), ("new", NEW)]:
                rows.setdefault(f"{name} {label}", []).append(tile(exe, kern, sets + [f"M={m}", f"N={n}", f"K={k}"], caches[exe]))
        rows.setdefault("cuBLAS", []).append(cublas(m, n, k))
    print(f"{m}x{n}x{k} us: " + "; ".join(f"{a} {', '.join(f'{x:.2f}' for x in v)}" for a, v in rows.items()), flush=True)
A = "kernels/attn_fwd_descriptor.tile"
split = ["HEAD_DIM=128", "BLOCK_M=128", "BLOCK_N=128", "num_warps=8", "num_stages=2", "warp_specialize_all=True", "Z=4", "H=32"]
for causal in ["True", "False"]:
    for n in [1024, 4096]:
        rows = {}
        for r in range(2):
            for label, exe in [("old", OLD), ("new", NEW)]:
                rows.setdefault(label, []).append(tile(exe, A, split + [f"N_CTX={n}", f"CAUSAL={causal}"], caches[exe]) / 1000)
            rows.setdefault("cuDNN", []).append(cudnn(n, 128, causal == "True") / 1000)
        print(f"attention D128 split causal={causal} N_CTX={n} ms: " + "; ".join(f"{a} {', '.join(f'{x:.4f}' for x in v)}" for a, v in rows.items()), flush=True)
