# Triton 3.6's tutorial 09 matmul_kernel and matmul_kernel_persistent (their text from kernels/matmul_09.tile and kernels/matmul_persistent.tile) at M N K given, BLOCK_M BLOCK_N 64, GROUP 8, 8 warps, 3 stages: do_bench medians in us, three of them, and a check against torch.
import importlib, os, re, sys, tempfile
import torch, triton
import triton.language as tl  # noqa
which, m, n, k, bm, bn = sys.argv[1], *(int(v) for v in sys.argv[2:7])
path = {"mm09": "kernels/matmul_09.tile", "persistent": "kernels/matmul_persistent.tile"}[which]
text = open(path).read()
text = re.sub(r"@triton\.autotune\(.*?\)\n(?=@triton\.jit)", "", text, flags=re.S)
d = tempfile.mkdtemp()
open(os.path.join(d, f"k_{which}.py"), "w").write("_matmul_launch_metadata = None\n" + text)
sys.path.insert(0, d)
mod = importlib.import_module(f"k_{which}")
a = torch.randn(m, k, device="cuda", dtype=torch.float16); b = torch.randn(k, n, device="cuda", dtype=torch.float16)
c = torch.empty(m, n, device="cuda", dtype=torch.float16)
meta = dict(BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=8, num_stages=3)
tiles = triton.cdiv(m, bm) * triton.cdiv(n, bn)
if which == "mm09":
    run = lambda: mod.matmul_kernel[(tiles,)](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), **meta)
else:
    run = lambda: mod.matmul_kernel_persistent[(min(132, tiles),)](a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1), NUM_SMS=132, **meta)
run(); torch.cuda.synchronize()
err = (c.float() - a.float() @ b.float()).abs().max().item()
ms = [triton.testing.do_bench(run, return_mode="median") for _ in range(3)]
print(f"Triton {which} {m}x{n}x{k} {bm}x{bn}x64 s3 w8: " + ", ".join(f"{x*1000:.2f}" for x in ms) + f" us ({2*m*n*k/sorted(ms)[1]*1e-9:.1f} TFLOP/s), max |err| vs torch {err:.3g}", flush=True)
