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
