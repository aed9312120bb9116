# What the ctypes benchmarks share (ptx_matmul_bench.py, ptx_softmax_bench.py,
# triton_matmul_dump.py): the Triton reference kernels of triton_ref.py as a
# module, and compiled PTX loaded and launched through the CUDA driver.
import ctypes, os, sys

cuda = ctypes.CDLL("libcuda.so.1")


def check(result, what):
    if result != 0:
        raise RuntimeError(f"{what} failed with CUresult {result}")


def triton_ref():
    """triton_ref.py (packed in .gpu/) without its main(), as a module."""
    src = open(os.path.join(os.path.dirname(__file__), "../.gpu/triton_ref.py")).read()
    open("/tmp/triton_ref_lib.py", "w").write(src[: src.rindex("main()")])
    sys.path.insert(0, "/tmp")
    import triton_ref_lib
    return triton_ref_lib


def load_function(ptx, name):
    """The kernel `name` of the PTX text `ptx` (bytes), JIT-compiled."""
    module, func = ctypes.c_void_p(), ctypes.c_void_p()
    check(cuda.cuModuleLoadData(ctypes.byref(module), ptx + b"\0"), "cuModuleLoadData")
    check(cuda.cuModuleGetFunction(ctypes.byref(func), module, name.encode()), "cuModuleGetFunction")
    return func


def launcher(func, grid, threads, shared, values, stream):
    """A function that launches `func` with the ctypes `values` as its
    parameters; it keeps them alive."""
    params = (ctypes.c_void_p * len(values))(*[ctypes.cast(ctypes.byref(v), ctypes.c_void_p) for v in values])
    def run():
        check(cuda.cuLaunchKernel(func, grid, 1, 1, threads, 1, 1, shared, stream, params, None), "cuLaunchKernel")
    run.keep = (values, params)
    return run


def time_alternating(variants, rounds, rate, header, width=40):
    """Times each (name, run) of `variants` with do_bench, one after the
    other, `rounds` times; prints `rate`(ms) per round and the median."""
    import statistics, triton
    times = {n: [] for n, _ in variants}
    for _ in range(rounds):
        for n, run in variants:
            times[n].append(triton.testing.do_bench(run, return_mode="median"))
    print(f"{header}, do_bench median over {rounds} alternating rounds (per round, then median):")
    for n, t in times.items():
        g = [rate(v) for v in t]
        print(f"  {n[:width]:{width}s} {' '.join(f'{v:6.0f}' for v in g)}  median {statistics.median(g):6.0f}")
