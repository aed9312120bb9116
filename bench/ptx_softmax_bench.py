# Times Tile's compiled softmax (PTX files, loaded through the CUDA driver
# with ctypes) and the Triton softmax of triton_ref.py with the same harness
# (triton.testing.do_bench), alternating rounds, so that a difference between
# the kernels is not a difference between timing tools. Each PTX file is one
# variant (for instance the compiled kernel and a copy with a register cap,
# or Triton's own PTX, from bench/triton_dump.py);
# each is checked against torch's softmax before it is timed (a file named
# *copy* against x: bench/experiments/row_copy.tile).
# A persistent kernel (an n_rows parameter before n_cols) runs on the grid
# its file name gives: NAME-g<programs>.ptx.
# Usage: python3 ptx_softmax_bench.py N A.ptx [B.ptx ...]   (M = 4096)
import ctypes, os, re, sys
from ptx_harness import time_alternating, check, cuda, launcher, load_function, triton_ref
triton_ref_lib = triton_ref()
import torch, triton

N, files = int(sys.argv[1]), sys.argv[2:]
M = int(os.environ.get("M", "4096"))
rounds = int(os.environ.get("ROUNDS", "5"))

torch.cuda.init()
x = torch.randn(M, N, device="cuda")
ref = torch.softmax(x.double(), dim=1)
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

def load(path):
    ptx = open(path, "rb").read()
    threads = int(re.search(rb"\.(?:reqntid|maxntid) (\d+)", ptx).group(1))
    # Triton's kernels take extra pointer parameters (scratch) at the end.
    params_in_ptx = 1 + max(int(i) for i in re.findall(rb"softmax_kernel_param_(\d+)", ptx))
    # Triton's kernels address dynamic shared memory (its launcher passes
    # metadata.shared bytes); Tile's is static unless the PTX says how much
    # dynamic shared memory it needs.
    tile_shared = re.search(rb"tile_dynamic_shared_bytes = (\d+)", ptx)
    shared = int(tile_shared.group(1)) if tile_shared else \
        int(os.environ.get("TRITON_SHARED", "1024")) if b".extern .shared" in ptx else 0
    func = load_function(ptx, "softmax_kernel")
    if shared > 48 * 1024:  # CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
        check(cuda.cuFuncSetAttribute(func, 8, shared), "cuFuncSetAttribute")
    y = torch.empty_like(x)
    grid = re.search(r"-g(\d+)\.ptx$", path)
    scalars = (x.stride(0), y.stride(0)) + ((M,) if grid else ()) + (N,)
    values = [ctypes.c_uint64(y.data_ptr()), ctypes.c_uint64(x.data_ptr())] + \
             [ctypes.c_int32(v) for v in scalars]
    values += [ctypes.c_uint64(0) for _ in range(params_in_ptx - len(values))]
    run = launcher(func, int(grid.group(1)) if grid else M, threads, shared, values, stream)
    run(); torch.cuda.synchronize()
    # A row copy (bench/experiments/row_copy.tile) must give x back.
    err = (y.double() - (x.double() if "copy" in os.path.basename(path) else ref)).abs().max().item()
    regs = ctypes.c_int()
    check(cuda.cuFuncGetAttribute(ctypes.byref(regs), 4, func), "cuFuncGetAttribute")
    blocks = ctypes.c_int()
    check(cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(blocks), func, threads, shared), "occupancy")
    return run, err, y, f"{threads} threads, {regs.value} regs, {blocks.value} programs/SM"

variants = [("triton", lambda: triton_ref_lib.softmax(x))] if os.environ.get("TRITON", "1") != "0" else []
# COPY=1: the same bytes moved by a plain copy (torch's copy_ and
# cuMemcpyDtoDAsync), the floor for any kernel that reads x and writes y once.
if os.environ.get("COPY") == "1":
    y_copy = torch.empty_like(x)
    variants += [("torch copy_", lambda: y_copy.copy_(x)),
                 ("cuMemcpyDtoDAsync", lambda: check(cuda.cuMemcpyDtoDAsync_v2(
                     ctypes.c_uint64(y_copy.data_ptr()), ctypes.c_uint64(x.data_ptr()),
                     ctypes.c_size_t(x.numel() * 4), stream), "cuMemcpyDtoDAsync"))]
keep = []
for f in files:
    run, err, k, info = load(f)
    keep.append(k)
    print(f"{os.path.basename(f)}: {info}; max abs err {err:.2e} {'PASS' if err < 1e-5 else 'FAIL'}")
    variants.append((os.path.basename(f), run))
time_alternating(variants, rounds, lambda ms: 2 * 4 * M * N / ms * 1e-6, f"M={M} N={N} GB/s", 40)
