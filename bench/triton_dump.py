"""Dumps what Triton compiles for the softmax tutorial kernel at each N
(PTX, registers, spills, shared memory), to compare code with Tile's.
Diagnostic only: run on the GPU machine, OUT set.
    python3 bench/triton_dump.py [N ...]
"""
import os, sys
import torch, triton, triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * in_stride + cols, mask=cols < n_cols, other=-float("inf"))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    y = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, y, mask=cols < n_cols)


out = os.environ.get("OUT", "/tmp")
Ns = [int(a) for a in sys.argv[1:]] or [256, 512, 781, 1024, 2048, 4096, 8192, 12288, 32768]
for N in Ns:
    x = torch.randn(4096, N, device="cuda")
    y = torch.empty_like(x)
    B = triton.next_power_of_2(N)
    w = 4 if B < 2048 else (8 if B < 4096 else 16)
    k = softmax_kernel[(4096,)](y, x, x.stride(0), y.stride(0), N, BLOCK=B, num_warps=w)
    open(os.path.join(out, f"triton_softmax_{N}.ptx"), "w").write(k.asm["ptx"])
    print(f"triton N={N} warps={w} regs={k.n_regs} spills={k.n_spills} shared={k.metadata.shared}")
