# Triton 3.6's tutorial 09 descriptor_persistent (its text from kernels/) at M N K given, 128x128x64 / 8 warps / 3 stages, do_bench medians in us, and a check against torch.
import importlib, os, re, sys, tempfile
import torch, triton
import triton.language as tl  # noqa
text = open("kernels/matmul_descriptor_persistent.tile").read()
text = re.sub(r"@triton\.autotune\(.*?\)\n(?=@triton\.jit)", "", text, flags=re.S)
d = tempfile.mkdtemp()
open(os.path.join(d, "dk.py"), "w").write("_matmul_launch_metadata = None\n" + text)
sys.path.insert(0, d)
kernel = importlib.import_module("dk").matmul_kernel_descriptor_persistent
triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
m, n, k = (int(v) for v in sys.argv[1:4])
a = torch.randn(m, k, device="cuda", dtype=torch.float16); b = torch.randn(n, k, device="cuda", dtype=torch.float16)
c = torch.empty(m, n, device="cuda", dtype=torch.float16)
run = lambda: kernel[(min(132, triton.cdiv(m, 128) * triton.cdiv(n, 128)),)](a, b, c, m, n, k, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
         EPILOGUE_SUBTILE=False, NUM_SMS=132, WARP_SPECIALIZE=False, FLATTEN=True, num_warps=8, num_stages=3)
run(); torch.cuda.synchronize()
err = (c.float() - a.float() @ b.float().T).abs().max().item()
ms = [triton.testing.do_bench(run, return_mode="median") for _ in range(3)]
print(f"Triton descriptor_persistent {m}x{n}x{k} 128x128x64 s3 w8: " + ", ".join(f"{x*1000:.2f}" for x in ms) + f" us ({2*m*n*k/sorted(ms)[1]*1e-9:.1f} TFLOP/s), max |err| vs torch {err:.3g}", flush=True)
