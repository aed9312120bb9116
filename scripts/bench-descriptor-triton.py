#!/usr/bin/env python3
"""Triton's side of the tensor-descriptor matmul on the GPU machine: tutorial
09's matmul_kernel_descriptor_persistent, its text taken from
kernels/matmul_descriptor_persistent.tile (the autotune decorator dropped,
the launch's fixed configuration passed instead: 128x128x64, GROUP_SIZE_M 8,
8 warps, 3 stages, EPILOGUE_SUBTILE False, FLATTEN True), fp16 S^3 with B given as N x K,
checked against torch.matmul and timed with triton.testing.do_bench
(median ms, TFLOP/s).

    python3 scripts/bench-descriptor-triton.py [S ...]     (default 4096)
"""
import importlib
import os
import re
import sys
import tempfile

import torch
import triton
import triton.language as tl  # noqa: F401 (the kernel's module names it)

here = os.path.dirname(os.path.abspath(__file__))
text = open(os.path.join(here, "..", "kernels",
                         "matmul_descriptor_persistent.tile")).read()
# The decorator's configs come from a function of the tutorial this file
# does not hold; the launch below passes one configuration instead.
text = re.sub(r"@triton\.autotune\(.*?\)\n(?=@triton\.jit)", "", text,
              flags=re.S)
# @triton.jit reads its function's source from a file: write one.
module_dir = tempfile.mkdtemp()
with open(os.path.join(module_dir, "descriptor_kernel.py"), "w") as f:
    f.write("_matmul_launch_metadata = None\n" + text)
sys.path.insert(0, module_dir)
kernel = importlib.import_module(
    "descriptor_kernel").matmul_kernel_descriptor_persistent
triton.set_allocator(
    lambda size, alignment, stream: torch.empty(size, device="cuda",
                                                dtype=torch.int8))
sms = torch.cuda.get_device_properties("cuda").multi_processor_count
status = 0
for s in [int(v) for v in sys.argv[1:]] or [4096]:
    a = torch.randn(s, s, device="cuda", dtype=torch.float16)
    b = torch.randn(s, s, device="cuda", dtype=torch.float16)  # N x K
    c = torch.empty(s, s, device="cuda", dtype=torch.float16)
    grid = (min(sms, triton.cdiv(s, 128) * triton.cdiv(s, 128)),)

    def run():
        kernel[grid](a, b, c, s, s, s, BLOCK_SIZE_M=128, BLOCK_SIZE_N=128,
                     BLOCK_SIZE_K=64, GROUP_SIZE_M=8, EPILOGUE_SUBTILE=False,
                     NUM_SMS=sms, WARP_SPECIALIZE=False, FLATTEN=True, num_warps=8,
                     num_stages=3)

    run()
    ref = torch.matmul(a.float(), b.float().T)
    err = ((c.float() - ref).norm() / ref.norm()).item()
    ok = err < 1e-3
    status |= not ok
    ms = triton.testing.do_bench(run)
    print(f"{'PASS' if ok else 'FAIL'} Triton {triton.__version__} "
          f"matmul_kernel_descriptor_persistent {s}^3: rel err {err:.2e}, "
          f"{ms:.4f} ms, {2 * s ** 3 / ms / 1e9:.1f} TFLOP/s")
sys.exit(status)
