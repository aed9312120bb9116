# Does a softmax's GB/s depend on where its buffers lie? One compiled
# kernel (Tile's PTX) timed on several (x, y) pairs, each allocated after a
# different pad, alternating rounds with one do_bench harness; prints each
# pair's addresses (offset of y from x modulo 2 MiB and 64 MiB) and GB/s.
# Usage: python3 softmax_placement.py N tile.ptx   (M = 4096)
import ctypes, os, re, sys
from ptx_harness import time_alternating, cuda, launcher, load_function
import torch

N, path = int(sys.argv[1]), sys.argv[2]
M = int(os.environ.get("M", "4096"))
rounds = int(os.environ.get("ROUNDS", "5"))
pads = [int(p) for p in os.environ.get("PADS", "0 1 2 3 5 8 13").split()]
torch.cuda.init()
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
ptx = open(path, "rb").read()
threads = int(re.search(rb"\.(?:reqntid|maxntid) (\d+)", ptx).group(1))
func = load_function(ptx, "softmax_kernel")
keep, variants = [], []
for pad in pads:
    # pad MiB between x and y (the caching allocator rounds to 2 MiB).
    x = torch.randn(M, N, device="cuda")
    gap = torch.empty(pad << 18, device="cuda") if pad else None
    y = torch.empty_like(x)
    values = [ctypes.c_uint64(y.data_ptr()), ctypes.c_uint64(x.data_ptr())] + \
             [ctypes.c_int32(v) for v in (x.stride(0), y.stride(0), N)]
    run = launcher(func, M, threads, 0, values, stream)
    run(); torch.cuda.synchronize()
    err = (y.double() - torch.softmax(x.double(), dim=1)).abs().max().item()
    off = y.data_ptr() - x.data_ptr()
    name = f"pad {pad:2d} MiB: x {x.data_ptr():#x} y-x {off:#x} (mod 64 MiB {off % (64 << 20):#x})"
    print(f"{name} max abs err {err:.1e} {'PASS' if err < 1e-5 else 'FAIL'}")
    keep += [x, gap, y]
    variants.append((name, run))
time_alternating(variants, rounds, lambda ms: 2 * 4 * M * N / ms * 1e-6, f"M={M} N={N} GB/s", 11)
