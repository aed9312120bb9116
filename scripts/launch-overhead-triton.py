#!/usr/bin/env python3
"""Triton's side of examples/launch_overhead.cpp, on the GPU machine: the
host time of one launch of tutorial 01's add (one program of 1024
elements) from Python, measured as the C++ program measures Tile's (batches
of 100 launches, synchronize after each, median over 300 batches of the
time to issue a batch / 100); then the cold compile time (an empty
TRITON_CACHE_DIR, first call, synchronized) of tutorial 01's add, 02's
softmax and 03's matmul (128x256x64, 8 warps, 3 stages, fp16 512^3), each
in a fresh process."""

import os
import statistics
import subprocess
import sys
import tempfile
import time

KERNELS = r'''
import torch, triton, triton.language as tl

@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)

@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    row_start_ptr = input_ptr + row_idx * input_row_stride
    col_offsets = tl.arange(0, BLOCK_SIZE)
    row = tl.load(row_start_ptr + col_offsets, mask=col_offsets < n_cols, other=-float('inf'))
    row_minus_max = row - tl.max(row, axis=0)
    numerator = tl.exp(row_minus_max)
    out = numerator / tl.sum(numerator, axis=0)
    tl.store(output_ptr + row_idx * output_row_stride + col_offsets, out, mask=col_offsets < n_cols)

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr, BLOCK_SIZE_K: tl.constexpr,
                  GROUP_SIZE_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk
    c = accumulator.to(tl.float16)
    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    tl.store(c_ptrs, c, mask=(offs_cm[:, None] < M) & (offs_cn[None, :] < N))

def run(which):
    if which == "add":
        x = torch.rand(1024, device="cuda"); y = torch.rand_like(x); o = torch.empty_like(x)
        add_kernel[(1,)](x, y, o, 1024, BLOCK_SIZE=1024)
    elif which == "softmax":
        x = torch.randn(1823, 781, device="cuda"); y = torch.empty_like(x)
        softmax_kernel[(1823,)](y, x, x.stride(0), y.stride(0), 781, BLOCK_SIZE=1024, num_warps=2)
    else:
        a = torch.randn(512, 512, device="cuda", dtype=torch.float16); b = torch.randn_like(a); c = torch.empty_like(a)
        matmul_kernel[(8,)](a, b, c, 512, 512, 512, 512, 1, 512, 1, 512, 1, BLOCK_SIZE_M=128, BLOCK_SIZE_N=256,
                            BLOCK_SIZE_K=64, GROUP_SIZE_M=8, num_warps=8, num_stages=3)
    torch.cuda.synchronize()
'''


def cold_compile(which):
    """Seconds of the first call, in a fresh process with an empty cache."""
    code = KERNELS + f'''
import time
torch.zeros(1, device="cuda"); torch.cuda.synchronize()
t0 = time.perf_counter(); run("{which}"); print(time.perf_counter() - t0)
'''
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, TRITON_CACHE_DIR=cache)
        with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
            f.write(code)
        out = subprocess.run([sys.executable, f.name], env=env, capture_output=True, text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])


def main():
    namespace = {}
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(KERNELS)
    exec(compile(KERNELS, f.name, "exec"), namespace)
    torch = namespace["torch"]
    add_kernel = namespace["add_kernel"]
    x = torch.rand(1024, device="cuda"); y = torch.rand_like(x); o = torch.empty_like(x)
    add_kernel[(1,)](x, y, o, 1024, BLOCK_SIZE=1024)
    torch.cuda.synchronize()
    per_launch = []
    for b in range(310):
        t0 = time.perf_counter()
        for _ in range(100):
            add_kernel[(1,)](x, y, o, 1024, BLOCK_SIZE=1024)
        elapsed = time.perf_counter() - t0
        torch.cuda.synchronize()
        if b >= 10:
            per_launch.append(elapsed / 100 * 1e6)
    print(f"| Triton {namespace['triton'].__version__} add_kernel[grid](...) from Python | "
          f"{statistics.median(per_launch):.3f} |")
    print()
    print("| kernel | Triton cold compile ms (first call, empty cache; 3 processes) |\n|---|---|")
    for which in ("add", "softmax", "matmul"):
        times = [cold_compile(which) * 1e3 for _ in range(3)]
        print(f"| {which} | {', '.join(f'{t:.0f}' for t in times)} |")


if __name__ == "__main__":
    main()
