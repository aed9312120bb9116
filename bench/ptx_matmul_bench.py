# Times Tile's compiled matmul (PTX files, loaded through the CUDA driver
# with ctypes) and Triton's tutorial matmul with the same harness
# (triton.testing.do_bench), alternating, so that a difference between the
# kernels is not a difference between timing tools. Each PTX file is one
# variant (for instance the compiled kernel and a hand-edited copy);
# each is checked against torch's fp32 matmul before it is timed.
# Usage: python3 ptx_matmul_bench.py S SHARED_BYTES A.ptx [B.ptx ...]
# (BM, BN and WARPS in the environment give the PTX's block shape and
# threads, 128, 256 and 8 by default; SHARED_BYTES 0 reads each file's
# tile_dynamic_shared_bytes; TRITON=0 leaves Triton out.)
import ctypes, os, re, statistics, sys
from ptx_harness import check, cuda, launcher, load_function, triton_ref
triton_ref_lib = triton_ref()
import torch, triton

S, shared = int(sys.argv[1]), int(sys.argv[2])
BM, BN = int(os.environ.get("BM", "128")), int(os.environ.get("BN", "256"))
THREADS = 32 * int(os.environ.get("WARPS", "8"))
files = sys.argv[3:]
rounds = int(os.environ.get("ROUNDS", "5"))

torch.cuda.init()
a = torch.randn(S, S, device="cuda", dtype=torch.float16)
b = torch.randn(S, S, device="cuda", dtype=torch.float16)
ref = (a.float() @ b.float())
stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

def load(path, prefer_shared):
    ptx = open(path, "rb").read()
    m = re.search(rb"tile_dynamic_shared_bytes = (\d+)", ptx)
    shared = int(sys.argv[2]) or (int(m.group(1)) if m else 0)
    func = load_function(ptx, "matmul_kernel")
    check(cuda.cuFuncSetAttribute(func, 8, shared), "cuFuncSetAttribute")
    if prefer_shared:
        check(cuda.cuFuncSetCacheConfig(func, 1), "cuFuncSetCacheConfig")
    c = torch.empty(S, S, device="cuda", dtype=torch.float16)
    values = [ctypes.c_uint64(a.data_ptr()), ctypes.c_uint64(b.data_ptr()),
              ctypes.c_uint64(c.data_ptr())] + [ctypes.c_int32(v) for v in (S, S, S, S, S, S)]
    grid = triton.cdiv(S, BM) * triton.cdiv(S, BN)
    run = launcher(func, grid, THREADS, shared, values, stream)
    run(); torch.cuda.synchronize()
    err = ((c.float() - ref).norm() / ref.norm()).item()
    return run, err, c

kernel = triton_ref_lib.matmul_kernel.fn
ct = torch.empty(S, S, device="cuda", dtype=torch.float16)
def triton_run():
    kernel[(triton.cdiv(S, 128) * triton.cdiv(S, 256),)](
        a, b, ct, S, S, S, S, 1, S, 1, S, 1, BM=128, BN=256, BK=64, G=8,
        num_warps=8, num_stages=3)
triton_run(); torch.cuda.synchronize()
print(f"triton rel err {((ct.float() - ref).norm() / ref.norm()).item():.2e}")
variants = [("triton", triton_run)] if os.environ.get("TRITON", "1") != "0" else []
keep = []
for f in files:
    mode = os.environ.get("PREFER_SHARED", "")  # "", "1" (only), "both"
    for prefer in {"": (False,), "1": (True,), "both": (False, True)}[mode]:
        run, err, k = load(f, prefer)
        keep.append(k)
        name = os.path.basename(f) + (" +prefer-shared" if prefer else "")
        print(f"{name}: rel err {err:.2e} {'PASS' if err < 1e-2 else 'FAIL'}")
        variants.append((name, run))
times = {n: [] for n, _ in variants}
for r in range(rounds):
    for n, run in variants:
        times[n].append(triton.testing.do_bench(run, return_mode="median"))
flops = 2 * S**3
print(f"S={S}, do_bench median over {rounds} alternating rounds (TFLOP/s per round, then median):")
for n, t in times.items():
    tf = [flops / x * 1e-9 for x in t]
    print(f"  {n:40s} {' '.join(f'{x:6.1f}' for x in tf)}  median {statistics.median(tf):6.1f}")
