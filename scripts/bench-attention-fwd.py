#!/usr/bin/env python3
"""Times tutorial 06's attention forward on the GPU: Tile (tile-run), Triton
running the same kernel text (the .tile file is Python: its _attn_fwd goes
through triton.jit), and PyTorch's scaled_dot_product_attention with each
backend (flash, cuDNN, efficient), in one process, alternating, on each
shape. --kernel block-pointer times kernels/attn_fwd.tile (the block-pointer
version); --kernel descriptor times kernels/attn_fwd_descriptor.tile (Triton
3.6's text), which Triton runs as its tutorial does on Hopper: host
TensorDescriptors, warp_specialize False, TMA.
TFLOP/s counted as the tutorial counts them (4 Z H N^2 D, halved when
causal). Before timing a shape, Tile's kernel is checked against the
float64 references of O and M at the same HEAD_DIM and causality with
Z = 1, H = 2 and N_CTX up to --check-max-n (the reference is a plain CPU
loop; Z, H and N_CTX are runtime arguments, the compiled kernel is the
same), and Triton's output against SDPA's at the full shape.

    python3 scripts/bench-attention-fwd.py [--tile-run PATH] [--repeats N]
        [--kernel block-pointer|descriptor]
        [--shapes Z,H,N,D,causal;...|tutorial] [--block-m 128] [--block-n 64]
        [--warps 4] [--stages 3] [--tile-timeout 120] [--warp-specialize]
        [--autotune [--schedules] [--confirm N] [--tune-log FILE]]

--autotune (descriptor kernel only) times both compilers over the
tutorial's own @triton.autotune configurations (21 on Hopper, pruned per
shape by its prune_invalid_configs): Tile with `tile-run --autotune`
(the choice is cached, so the timed runs reuse it), Triton through the
tutorial's autotuner; each row names both choices. --schedules lets Tile
also try each configuration with the compiler's warp-specialized schedule
(tile-run --autotune-schedules); --confirm N times Tile's configurations
within 5% of its best N more times and chooses by median (tile-run
--autotune-confirm); --tune-log FILE appends each shape's tuning output
(every configuration's time, the confirm rounds) to FILE. Otherwise both
run the
--block-m/--block-n/--warps/--stages configuration.

Needs torch, triton and a CUDA GPU.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time
import types

import torch
import triton

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = {"block-pointer": os.path.join(ROOT, "kernels", "attn_fwd.tile"),
           "descriptor": os.path.join(ROOT, "kernels", "attn_fwd_descriptor.tile")}
KERNEL = KERNELS["block-pointer"]
TIME_RE = re.compile(r"^time: median ([0-9.]+) ms")
CHECK_RE = re.compile(r"^check .*: (PASS|FAIL)$")
CHOICE_RE = re.compile(r"^autotune: (?:best config|cached choice config) [0-9]+/[0-9]+: (.*?): [0-9.]+ ms", re.M)
DEFAULT_SHAPES = "4,32,1024,64,0;4,32,4096,64,0;4,32,1024,128,0;4,32,4096,128,0;4,32,4096,128,1"
# The tutorial's benchmark: Z 4, H 32, N_CTX 1024..16384, D 64 and 128,
# non-causal and causal (--shapes tutorial).
TUTORIAL_SHAPES = ";".join(f"4,32,{n},{d},{c}" for d in (64, 128) for c in (0, 1)
                           for n in (1024, 2048, 4096, 8192, 16384))


def load_triton_kernel():
    module = types.ModuleType("attn_fwd_tile")
    module.__file__ = KERNEL
    with open(KERNEL) as f:
        code = compile(f.read(), KERNEL, "exec")
    exec(code, module.__dict__)
    return module._attn_fwd


def jit_function(kernel):
    """The @triton.jit function under the tutorial's @triton.autotune (the
    block-pointer kernel has none: its JITFunction's own `fn` is the plain
    Python function, which cannot be launched)."""
    from triton.runtime.autotuner import Autotuner
    return kernel.fn if isinstance(kernel, Autotuner) else kernel


def tile_sets(z, h, n, d, causal, args):
    shape = ["--set", f"Z={z}", "--set", f"H={h}", "--set", f"N_CTX={n}", "--set", f"HEAD_DIM={d}",
             "--set", f"CAUSAL={'True' if causal else 'False'}"]
    config = (["--autotune"] + (["--autotune-schedules"] if args.schedules else [])
              + (["--autotune-confirm", str(args.confirm)] if args.confirm else []) if args.autotune else
              ["--set", f"BLOCK_M={args.block_m}", "--set", f"BLOCK_N={args.block_n}",
               "--set", f"num_warps={args.warps}", "--set", f"num_stages={args.stages}"])
    return shape + config + (["--set", "warp_specialize=True"] if args.warp_specialize else [])


def triton_autotuned_call(attn_fwd, q, m, sm_scale, causal, tensors):
    """The tutorial's own call: its autotuner picks the configuration and its
    pre_hook sets the descriptors' block shapes."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    z, h, n, d = q.shape
    y_dim = z * h * n
    dq, dk, dv, do = (TensorDescriptor(t, shape=[y_dim, d], strides=[d, 1], block_shape=[1, 1])
                      for t in tensors)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_M"]), z * h, 1)

    def call(stages=None):
        # As the tutorial calls it: its pruner reads N_CTX and STAGE from the
        # keyword arguments (Triton hands it only those as kwargs).
        attn_fwd[grid](sm_scale, m, z, h, dq, dk, dv, do, N_CTX=n, HEAD_DIM=d, FP8_OUTPUT=False,
                       STAGE=3 if causal else 1, warp_specialize=False, IS_HOPPER=True)
    return call


def sdpa_backends():
    """(name, context manager factory) for each SDPA backend torch has."""
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
    except ImportError:
        return []
    names = [("flash", "FLASH_ATTENTION"), ("cuDNN", "CUDNN_ATTENTION"), ("efficient", "EFFICIENT_ATTENTION")]
    return [(name, lambda b=getattr(SDPBackend, attr): sdpa_kernel(b))
            for name, attr in names if hasattr(SDPBackend, attr)]


def triton_descriptor_call(attn_fwd, q, k, v, o, m, sm_scale, causal, args):
    """The tutorial's Hopper path: host descriptors over (Z*H*N_CTX, D)."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    z, h, n, d = q.shape
    y_dim = z * h * n
    desc = lambda t, rows: TensorDescriptor(t, shape=[y_dim, d], strides=[d, 1], block_shape=[rows, d])
    dq, dk, dv, do = desc(q, args.block_m), desc(k, args.block_n), desc(v, args.block_n), desc(o, args.block_m)
    grid = (triton.cdiv(n, args.block_m), z * h, 1)

    def call(stages):
        attn_fwd[grid](sm_scale, m, z, h, dq, dk, dv, do, n, HEAD_DIM=d, BLOCK_M=args.block_m,
                       BLOCK_N=args.block_n, FP8_OUTPUT=False, STAGE=3 if causal else 1,
                       warp_specialize=False, IS_HOPPER=True, num_warps=args.warps, num_stages=stages)
    return call


START = time.monotonic()


def progress(shape, what):
    """A progress line with the seconds since the start: where a device
    call's time goes."""
    print(f"# {shape}: {what} ({time.monotonic() - START:.0f} s)", file=sys.stderr, flush=True)


def run_tile(args, sets, bench, log=None):
    cmd = [args.tile_run, KERNEL] + sets + ([] if bench else ["--no-bench"]) + (["--no-check"] if bench else [])
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.tile_timeout)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"FAIL: tile-run did not finish within {args.tile_timeout} s: {' '.join(cmd)}")
    out = proc.stdout + proc.stderr
    if log:
        with open(log, "a") as f:
            f.write(f"$ {' '.join(cmd)}\n{out}\n")
    ms, checks = None, []
    for line in out.splitlines():
        line = line.strip()
        m = TIME_RE.match(line)
        if m:
            ms = float(m[1])
        m = CHECK_RE.match(line)
        if m:
            checks.append(m[1])
    if proc.returncode not in (0,) or (not bench and (not checks or "FAIL" in checks)):
        sys.stdout.write(out)
        raise SystemExit(f"FAIL: {' '.join(cmd)}")
    choice = CHOICE_RE.search(out)
    return ms, checks, choice[1] if choice else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tile-run", default="tile-run")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tile-timeout", type=int, default=120,
                        help="seconds one tile-run may take before the run fails")
    parser.add_argument("--shapes", default=DEFAULT_SHAPES)
    parser.add_argument("--block-m", type=int, default=128)
    parser.add_argument("--block-n", type=int, default=64)
    parser.add_argument("--warps", type=int, default=4)
    parser.add_argument("--stages", type=int, default=3)
    parser.add_argument("--kernel", choices=sorted(KERNELS), default="block-pointer")
    # Tile only: the kernel's warp_specialize=True (a producer warpgroup
    # issues the TMA copies, tilegpu-warp-specialize); Triton keeps the
    # tutorial's Hopper path, warp_specialize=False.
    parser.add_argument("--warp-specialize", action="store_true")
    # The float64 reference is a plain loop on one core: long sequences are
    # checked at this N_CTX (the same compiled kernel; N_CTX is an argument).
    parser.add_argument("--check-max-n", type=int, default=2048)
    parser.add_argument("--autotune", action="store_true")
    # Tile only, with --autotune: also tune over the compiler's
    # warp-specialized schedule (tile-run --autotune-schedules).
    parser.add_argument("--schedules", action="store_true")
    # Tile only, with --autotune: time the configurations within 5% of the
    # best this many more times and choose by median (tile-run
    # --autotune-confirm).
    parser.add_argument("--confirm", type=int, default=0)
    parser.add_argument("--tune-log", help="append Tile's tuning output to this file")
    args = parser.parse_args()
    if args.warp_specialize and args.kernel != "descriptor":
        parser.error("--warp-specialize needs --kernel descriptor (Triton 3.6's text)")
    if args.autotune and args.kernel != "descriptor":
        parser.error("--autotune needs --kernel descriptor (its @triton.autotune)")
    if args.schedules and not args.autotune:
        parser.error("--schedules needs --autotune")
    if args.tune_log and not args.autotune:
        parser.error("--tune-log needs --autotune")
    if args.confirm and not args.autotune:
        parser.error("--confirm needs --autotune")
    global KERNEL
    KERNEL = KERNELS[args.kernel]
    autotuner = load_triton_kernel()
    attn_fwd = jit_function(autotuner)
    backends = sdpa_backends()
    print(f"# {torch.cuda.get_device_name()}, triton {triton.__version__}, torch {torch.__version__}; "
          + ("the tutorial's autotune configurations (both compilers tune); " if args.autotune else
             f"BLOCK_M {args.block_m}, BLOCK_N {args.block_n}, {args.warps} warps, {args.stages} stages; ")
          + f"kernel {os.path.relpath(KERNEL, ROOT)}"
          + ("; Tile with warp_specialize=True" if args.warp_specialize else "")
          + ("; Tile also tunes over the warp-specialized schedule" if args.schedules else ""))
    sdpa_names = ["SDPA (default)"] + [f"SDPA {name}" for name, _ in backends]
    print("| Z, H, N_CTX, HEAD_DIM, causal | Tile TFLOP/s | Triton TFLOP/s | "
          + " | ".join(f"{x} TFLOP/s" for x in sdpa_names) + " | Tile repeats (ms) | Triton repeats (ms) |")
    print("|---" * (5 + len(sdpa_names)) + "|")
    if args.shapes == "tutorial":
        args.shapes = TUTORIAL_SHAPES
    for shape in args.shapes.split(";"):
        z, h, n, d, causal = (int(x) for x in shape.split(","))
        causal = bool(causal)
        flops = 4.0 * z * h * n * n * d * (0.5 if causal else 1.0)
        sets = tile_sets(z, h, n, d, causal, args)
        check_sets = tile_sets(1, 2, min(n, args.check_max_n), d, causal, args)
        if args.autotune:
            # Tune at the full shape first; the check then runs that choice
            # (tuning at the check's shape could choose another).
            progress(shape, "tuning Tile")
            choice = run_tile(args, sets, bench=True, log=args.tune_log)[2]
            if not choice:
                raise SystemExit(f"FAIL: tile-run printed no autotune choice for {shape}")
            check_sets = [x for x in check_sets if x not in ("--autotune", "--autotune-schedules")]
            for assignment in choice.split():
                check_sets += ["--set", assignment]
        progress(shape, "checking Tile")
        run_tile(args, check_sets, bench=False)
        progress(shape, "compiling Triton")
        q, k, v = (torch.randn((z, h, n, d), dtype=torch.float16, device="cuda") for _ in range(3))
        o = torch.empty_like(q)
        m = torch.empty((z, h, n), dtype=torch.float32, device="cuda")
        sm_scale = 0.5
        grid = (triton.cdiv(n, args.block_m), z * h, 1)

        # Triton 3.6's pipeliner fails on this kernel at some stage counts
        # (TritonGPUPipeline); fewer stages are tried then, and reported.
        triton_stages = None
        if args.autotune:
            # The tutorial's key leaves out STAGE: without this, causal rows
            # would reuse a non-causal choice that its pruner forbids.
            autotuner.cache.clear()
        descriptor_call = (triton_autotuned_call(autotuner, q, m, sm_scale, causal, (q, k, v, o))
                           if args.autotune else
                           triton_descriptor_call(attn_fwd, q, k, v, o, m, sm_scale, causal, args)
                           if args.kernel == "descriptor" else None)
        for stages in dict.fromkeys([args.stages, 2, 1]):
            def triton_call(stages=stages):
                if descriptor_call:
                    return descriptor_call(stages)
                attn_fwd[grid](q, k, v, sm_scale, m, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(),
                               z, h, n, HEAD_DIM=d, BLOCK_M=args.block_m, BLOCK_N=args.block_n,
                               CAUSAL=causal, num_warps=args.warps, num_stages=stages)
            try:
                triton_call()
                triton_stages = stages
                break
            except Exception as e:  # noqa: BLE001 - Triton raises RuntimeError and others
                print(f"# Triton failed to compile with num_stages={stages}: {type(e).__name__}: {e}",
                      flush=True)
                if args.autotune:
                    break  # the autotuner picks the stages
        if triton_stages is None:
            raise SystemExit("Triton compiled the kernel with no stage count")
        ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)
        err = (o.float() - ref.float()).abs().max().item()
        tile_ms, triton_ms = [], []
        sdpa_ms = {name: [] for name in sdpa_names}
        sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)

        def time_backend(context):
            try:
                with context():
                    return triton.testing.do_bench(sdpa)
            except Exception:  # noqa: BLE001 - a backend that cannot run this shape
                return None
        progress(shape, "timing")
        tile_choice = None
        for _ in range(args.repeats):
            ms, _, tile_choice = run_tile(args, sets, bench=True)
            tile_ms.append(ms)
            triton_ms.append(triton.testing.do_bench(triton_call))
            sdpa_ms["SDPA (default)"].append(triton.testing.do_bench(sdpa))
            for name, context in backends:
                sdpa_ms[f"SDPA {name}"].append(time_backend(context))
        rate = lambda ms: flops / (statistics.median(ms) * 1e-3) / 1e12
        sdpa_rates = " | ".join("n/a" if None in ms else f"{rate(ms):.1f}" for ms in sdpa_ms.values())
        print(f"| {z}, {h}, {n}, {d}, {causal} | {rate(tile_ms):.1f} | {rate(triton_ms):.1f} | "
              f"{sdpa_rates} | {', '.join(f'{x:.3f}' for x in tile_ms)} | "
              f"{', '.join(f'{x:.3f}' for x in triton_ms)} |  "
              + (f"(Tile chose {tile_choice}; Triton chose {autotuner.best_config}, "
                 if args.autotune else f"(Triton num_stages={triton_stages}, ")
              + f"max err vs SDPA {err:.1e})", flush=True)


if __name__ == "__main__":
    main()
