# Compiles Triton's tutorial matmul (from triton_ref.py) with one fixed
# configuration, times it with do_bench, and writes its TTGIR, PTX and SASS
# to $OUT, for comparing the code with Tile's (run on the GPU machine).
import os, subprocess, sys
sys.path.insert(0, os.path.dirname(__file__))
from ptx_harness import triton_ref
triton_ref_lib = triton_ref()
ns = vars(triton_ref_lib)
import torch, triton
out = os.environ.get("OUT", "/tmp")
kernel = ns["matmul_kernel"].fn
for S in [int(x) for x in os.environ.get("SIZES", "2048 4096").split()]:
    a = torch.randn(S, S, device="cuda", dtype=torch.float16)
    b = torch.randn(S, S, device="cuda", dtype=torch.float16)
    c = torch.empty(S, S, device="cuda", dtype=torch.float16)
    grid = (triton.cdiv(S, 128) * triton.cdiv(S, 256),)
    run = lambda: kernel[grid](a, b, c, S, S, S, a.stride(0), a.stride(1), b.stride(0),
                               b.stride(1), c.stride(0), c.stride(1), BM=128, BN=256,
                               BK=64, G=8, num_warps=8, num_stages=3)
    compiled = run()
    for rep in range(int(os.environ.get("REPEAT", "1"))):
      ms = triton.testing.do_bench(run, quantiles=[0.5, 0.2, 0.8])
      print(f"triton 128x256x64 w8 s3 S={S}: {2*S**3/ms[0]*1e-9:.1f} TFLOP/s (median {ms[0]*1e3:.1f} us)")
for kind in ("ttgir", "ptx"):
    open(os.path.join(out, f"triton.{kind}"), "w").write(compiled.asm[kind])
open(os.path.join(out, "triton.cubin"), "wb").write(compiled.asm["cubin"])
print("registers", compiled.n_regs, "spills", compiled.n_spills, "shared", compiled.metadata.shared)
subprocess.run(f"cuobjdump -sass {out}/triton.cubin > {out}/triton.sass; rm {out}/triton.cubin", shell=True)
