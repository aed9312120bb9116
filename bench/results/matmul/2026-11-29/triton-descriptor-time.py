# Triton 3.6's tutorial 09 descriptor_persistent (its text from kernels/), 128x256x64 / 8 warps / 3 stages, do_bench medians in us.
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
for s in [int(v) for v in sys.argv[1:]]:
    a = torch.randn(s, s, device="cuda", dtype=torch.float16); b = torch.randn(s, s, device="cuda", dtype=torch.float16)
    c = torch.empty(s, s, device="cuda", dtype=torch.float16)
    for sub in (True, False):
        run = lambda: kernel[(min(132, triton.cdiv(s, 128) * triton.cdiv(s, 256)),)](a, b, c, s, s, s, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256, BLOCK_SIZE_K=64, GROUP_SIZE_M=8,
                 EPILOGUE_SUBTILE=sub, NUM_SMS=132, WARP_SPECIALIZE=False, FLATTEN=True, num_warps=8, num_stages=3)
        run()
        ms = [triton.testing.do_bench(run, return_mode="median") for _ in range(3)]
        print(f"Triton descriptor_persistent {s}^3 128x256x64 s3 w8 EPILOGUE_SUBTILE={sub}: " + ", ".join(f"{m*1000:.2f}" for m in ms) + f" us ({2*s**3/sorted(ms)[1]*1e-9:.1f} TFLOP/s)", flush=True)
