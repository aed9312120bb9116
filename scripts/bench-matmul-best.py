#!/usr/bin/env python3
"""The fp16 S^3 matmul table of issue "matmul ahead of cuBLAS": for each S,
the best of Tile's matmul kernels after autotuning, cuBLAS (torch.matmul)
and the best of Triton's tutorial 09 kernels after autotuning, in one
process on one GPU, alternating.

Tile: `tile-run KERNEL --autotune --set M=S --set N=S --set K=S` for
kernels/matmul.tile (tutorial 03, 16 configurations),
kernels/matmul_09.tile (tutorial 09's matmul_kernel, pointers, its 16),
kernels/matmul_descriptor_persistent.tile and
kernels/matmul_tma_persistent.tile (tutorial 09, 48 each),
kernels/matmul_tma.tile (tutorial 09's matmul_kernel_tma: its 24 and five of
Tile's), and up to
S = 2048 kernels/matmul_split_k.tile (Tile's own split-K kernel, 39
configurations, SPLIT_K 1, 2 or 4); the first run
tunes (and checks against float64), the timed runs reuse the choice the
kernel cache keeps; tile-run's median ms.
Triton: the same four tutorial 09 kernel texts (taken from the .tile files,
decorators and all) run by Triton with its autotuner over the same
configurations; triton.testing.do_bench's median ms of the tuned kernel.
cuBLAS: torch.matmul(a, b), do_bench.

Each repeat times every implementation once, in a shuffled order (seeded,
printed; --fixed-order runs Tile's, then Triton's, then cuBLAS).

    python3 scripts/bench-matmul-best.py [--tile-run PATH] [--repeats N]
        [--sizes 512,1024,...] [--seed N] [--fixed-order]

Needs torch, triton and a CUDA GPU. Exit status 1 if a check fails.
"""
import argparse
import importlib
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile

import torch
import triton
from triton.tools.tensor_descriptor import TensorDescriptor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TIME_RE = re.compile(r"^time: median ([0-9.]+) ms", re.M)
CHOICE_RE = re.compile(r"autotune: (?:best config|cached choice config) [0-9]+/[0-9]+: (.*?): [0-9.]+ ms")
TILE_KERNELS = ["matmul.tile", "matmul_09.tile", "matmul_descriptor_persistent.tile", "matmul_tma_persistent.tile",
                "matmul_tma.tile", "matmul_split_k.tile"]
# Split-K is for sizes with too few output tiles; its fp32 partials would
# take SPLIT_K x S^2 x 4 bytes at the large ones.
SPLIT_K_MAX_S = 2048


def tile_kernels(s):
    return [k for k in TILE_KERNELS if k != "matmul_split_k.tile" or s <= SPLIT_K_MAX_S]

# Host-side pieces the kernel files leave out: the descriptors' block shapes
# follow the configuration (what tutorial 09's pre_hook does), and the
# launch metadata hook is not needed for timing.
PRELUDE = '''
_matmul_launch_metadata = None


def matmul_tma_set_block_size_hook(nargs):
    bm, bn, bk = nargs["BLOCK_SIZE_M"], nargs["BLOCK_SIZE_N"], nargs["BLOCK_SIZE_K"]
    nargs["a_desc"].block_shape = [bm, bk]
    nargs["b_desc"].block_shape = [bn, bk]
    nargs["c_desc"].block_shape = [bm, bn // 2] if nargs.get("EPILOGUE_SUBTILE") else [bm, bn]
'''


def load_triton_kernels():
    module_dir = tempfile.mkdtemp()
    sys.path.insert(0, module_dir)
    kernels = {}
    for name, function in [("matmul_09", "matmul_kernel"),
                           ("matmul_descriptor_persistent", "matmul_kernel_descriptor_persistent"),
                           ("matmul_tma_persistent", "matmul_kernel_tma_persistent"),
                           ("matmul_tma", "matmul_kernel_tma")]:
        text = open(os.path.join(ROOT, "kernels", name + ".tile")).read()
        with open(os.path.join(module_dir, name + "_triton.py"), "w") as f:
            f.write("import triton\n" + PRELUDE + text)
        kernels[name] = getattr(importlib.import_module(name + "_triton"), function)
    return kernels


def tile_time(tile_run, kernel, s, check):
    args = [tile_run, os.path.join(ROOT, "kernels", kernel), "--autotune",
            "--set", f"M={s}", "--set", f"N={s}", "--set", f"K={s}"]
    if not check:
        args.append("--no-check")
    out = subprocess.run(args, capture_output=True, text=True)
    text = out.stdout + out.stderr
    times = TIME_RE.findall(text)
    choice = CHOICE_RE.search(text)
    ok = out.returncode == 0 and bool(times) and (not check or ": PASS" in text)
    if not ok:
        sys.stdout.write(f"# {kernel} at {s}: tile-run failed\n" + "".join(
            "#   " + line + "\n" for line in text.splitlines()[-15:]))
    return (float(times[0]) if times else None), (choice.group(1) if choice else "?"), ok


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tile-run", default="tile-run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", default="512,1024,2048,4096,8192")
    parser.add_argument("--seed", type=int, default=0, help="seed of each repeat's order")
    parser.add_argument("--fixed-order", action="store_true",
                        help="run Tile's kernels, then Triton's, then cuBLAS in every repeat")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    sizes = [int(x) for x in args.sizes.split(",")]
    triton.set_allocator(lambda size, alignment, stream: torch.empty(size, device="cuda", dtype=torch.int8))
    sms = torch.cuda.get_device_properties("cuda").multi_processor_count
    kernels = load_triton_kernels()
    print(f"# {torch.cuda.get_device_name()}, triton {triton.__version__}, torch {torch.__version__}; "
          f"fp16 S^3, TFLOP/s = 2 S^3 / median time")
    status = 0
    rows = []
    for s in sizes:
        torch.manual_seed(s)
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        bt = b.T.contiguous()  # N x K, as tutorial 09 passes B
        ref = a.float() @ b.float()

        # Triton: tune each kernel once (its first call), check, then time.
        def run_descriptor():
            c = torch.empty(s, s, device="cuda", dtype=torch.float16)
            grid = lambda meta: (min(sms, triton.cdiv(s, meta["BLOCK_SIZE_M"]) * triton.cdiv(s, meta["BLOCK_SIZE_N"])),)
            kernels["matmul_descriptor_persistent"][grid](a, bt, c, s, s, s, NUM_SMS=sms, WARP_SPECIALIZE=False,
                                                          FLATTEN=True)
            return c

        a_desc = TensorDescriptor.from_tensor(a, [1, 1])
        b_desc = TensorDescriptor.from_tensor(bt, [1, 1])
        c_out = torch.empty(s, s, device="cuda", dtype=torch.float16)
        c_desc = TensorDescriptor.from_tensor(c_out, [1, 1])

        def run_tma():
            grid = lambda meta: (min(sms, triton.cdiv(s, meta["BLOCK_SIZE_M"]) * triton.cdiv(s, meta["BLOCK_SIZE_N"])),)
            kernels["matmul_tma_persistent"][grid](a_desc, b_desc, c_desc, s, s, s, FP8_OUTPUT=False, NUM_SMS=sms,
                                                   WARP_SPECIALIZE=False)
            return c_out

        # matmul_kernel_tma: one program per C tile, descriptors of its own
        # (the pre_hook sets their blocks per configuration).
        a_desc1 = TensorDescriptor.from_tensor(a, [1, 1])
        b_desc1 = TensorDescriptor.from_tensor(bt, [1, 1])
        c_out1 = torch.empty(s, s, device="cuda", dtype=torch.float16)
        c_desc1 = TensorDescriptor.from_tensor(c_out1, [1, 1])

        def run_tma_tiles():
            grid = lambda meta: (triton.cdiv(s, meta["BLOCK_SIZE_M"]) * triton.cdiv(s, meta["BLOCK_SIZE_N"]),)
            kernels["matmul_tma"][grid](a_desc1, b_desc1, c_desc1, s, s, s, FP8_OUTPUT=False, WARP_SPECIALIZE=False)
            return c_out1

        # matmul_kernel: pointers, one program per C tile, B as K x N.
        c_out2 = torch.empty(s, s, device="cuda", dtype=torch.float16)

        def run_pointers():
            grid = lambda meta: (triton.cdiv(s, meta["BLOCK_SIZE_M"]) * triton.cdiv(s, meta["BLOCK_SIZE_N"]),)
            kernels["matmul_09"][grid](a, b, c_out2, s, s, s, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                       c_out2.stride(0), c_out2.stride(1))
            return c_out2

        triton_runs = {"descriptor_persistent": run_descriptor, "tma_persistent": run_tma, "tma": run_tma_tiles,
                       "09": run_pointers}
        for name, run in triton_runs.items():
            c = run()
            err = ((c.float() - ref).norm() / ref.norm()).item()
            if err > 1e-2:
                print(f"# FAIL Triton {name} at {s}: rel err {err:.2e}")
                status = 1
        cublas_ok = ((torch.matmul(a, b).float() - ref).norm() / ref.norm()).item() < 1e-2

        # Tile: tune and check once per kernel.
        for kernel in tile_kernels(s):
            # The float64 CPU reference of 4096^3 and up takes minutes.
            _, _, ok = tile_time(args.tile_run, kernel, s, check=s <= 2048)
            status |= not ok

        tile_ms = {k: [] for k in tile_kernels(s)}
        tile_choice = {}
        triton_ms = {k: [] for k in triton_runs}
        cublas_ms = []
        # Each repeat runs every implementation once, in an order of its own
        # (seeded): at the power-limited sizes a median depends on how long
        # the GPU ran before it, so no implementation always follows the
        # same others.
        entries = ([("tile", k) for k in tile_kernels(s)] + [("triton", n) for n in triton_runs] +
                   [("cublas", "cuBLAS")])
        for repeat in range(args.repeats):
            order = list(entries)
            if not args.fixed_order:
                rng.shuffle(order)
            print(f"# {s}: repeat {repeat + 1} order: {', '.join(name for _, name in order)}", flush=True)
            for kind, name in order:
                if kind == "tile":
                    ms, choice, ok = tile_time(args.tile_run, name, s, check=False)
                    if ms is not None:
                        tile_ms[name].append(ms)
                        tile_choice[name] = choice
                elif kind == "triton":
                    triton_ms[name].append(triton.testing.do_bench(triton_runs[name]))
                else:
                    cublas_ms.append(triton.testing.do_bench(lambda: torch.matmul(a, b)))
        tflops = lambda ms: 2 * s ** 3 / (statistics.median(ms) * 1e-3) / 1e12
        for kernel, ms in tile_ms.items():
            if ms:
                print(f"# {s}: Tile {kernel}: {tflops(ms):.1f} TFLOP/s, repeats {', '.join(f'{x:.4f}' for x in ms)} ms; "
                      f"config {tile_choice.get(kernel, '?')}")
        for name, ms in triton_ms.items():
            best = kernels["matmul_" + name].best_config
            print(f"# {s}: Triton {name}: {tflops(ms):.1f} TFLOP/s, repeats {', '.join(f'{x:.4f}' for x in ms)} ms; "
                  f"config {best}")
        print(f"# {s}: cuBLAS: {tflops(cublas_ms):.1f} TFLOP/s, repeats {', '.join(f'{x:.4f}' for x in cublas_ms)} ms"
              f"{'' if cublas_ok else ' (check FAIL)'}", flush=True)
        tile_best = max((k for k in tile_ms if tile_ms[k]), key=lambda k: tflops(tile_ms[k]))
        triton_best = max(triton_ms, key=lambda k: tflops(triton_ms[k]))
        rows.append((s, tflops(tile_ms[tile_best]), tile_best, tflops(cublas_ms), tflops(triton_ms[triton_best]),
                     triton_best))
    print("| S | Tile best | Tile kernel | cuBLAS | Triton best (tutorial 09) | Triton kernel |")
    print("|---|---|---|---|---|---|")
    for s, tile, tile_kernel, cublas, trit, trit_kernel in rows:
        print(f"| {s} | {tile:.1f} | {tile_kernel} | {cublas:.1f} | {trit:.1f} | {trit_kernel} |")
    sys.exit(status)


if __name__ == "__main__":
    main()
