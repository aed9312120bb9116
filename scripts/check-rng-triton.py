#!/usr/bin/env python3
"""Tile's random numbers against Triton's, bit for bit, on the GPU.

Runs the kernel of test/tools/tile-run/Inputs/random.tile (tl.randint4x,
tl.randint with int32 and int64 offsets and n_rounds=7, tl.rand, tl.rand4x,
tl.randn, tl.randn4x) in Triton (the .tile file is Triton's Python: it is
imported as is) and in Tile (tile-run --save), for several seeds (int32,
negative, beyond int32), offset bases and sizes, and compares every output.
Then tutorial 04's seeded dropout (kernels/seeded_dropout.tile) on one input.

    scripts/check-rng-triton.py [--tile-run PATH] [--keep DIR]

Verdicts: the integer words (randint, randint4x) and the uniforms (rand,
rand4x) must be identical bit for bit. The normals (randn, randn4x) are
reported as the share of identical values and the largest difference; they
pass within 1e-5 absolute: Triton's Box-Muller uses tl.log, tl.cos, tl.sin
and tl.sqrt, and where Triton lowers one of them to another instruction than
Tile does (Tile: lg2.approx.f32 * ln 2, cos.approx.f32, sin.approx.f32,
sqrt.rn.f32), the approximate instructions' documented error (about 2^-21
absolute for cos/sin on the 0..2 pi range, r <= 5.7) bounds the difference
by a few 1e-6. Seeded dropout passes when the keep decisions agree
everywhere and the kept values are within 1 ulp (both divide by 1 - p).

Needs numpy, torch and triton (3.x) and a CUDA GPU. Exit status 0 when
every check passes, 1 otherwise.
"""

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RANDOM_TILE = os.path.join(ROOT, "test", "tools", "tile-run", "Inputs",
                           "random.tile")
DROPOUT_TILE = os.path.join(ROOT, "kernels", "seeded_dropout.tile")

# The buffers of random.tile: name -> (dtype, rows of n, kind).
OUTPUTS = {
    "words": (np.int32, 4, "bits"),
    "ints": (np.int32, 1, "bits"),
    "ints64": (np.int32, 1, "bits"),
    "ints7": (np.int32, 1, "bits"),
    "unif": (np.float32, 1, "bits"),
    "unif4": (np.float32, 4, "bits"),
    "norm": (np.float32, 1, "normal"),
    "norm4": (np.float32, 4, "normal"),
}
NORMAL_TOLERANCE = 1e-5

# (seed, offset_base, n): int32 seeds, a negative one (sign-extended into
# the key's high word), int64 seeds, int64 offset bases on both sides of 0,
# a size that is not a multiple of the block.
CASES = [
    (0, 3 * 2**32 + 17, 4096),
    (1234, 3 * 2**32 + 17, 4096),
    (-7, 2**31, 4096),
    (2**31 + 5, -(2**33) + 5, 1000),
    (2**40 + 123, 2**45 + 2**31 - 3, 4096),
    (12345678901234, 2**32 - 2, 65536),
]


def import_tile_file(path, name):
    """A .tile file is Triton's Python with a launch description in
    comments: import it as a module (from a .py copy, for inspect)."""
    directory = tempfile.mkdtemp(prefix="rng-triton-")
    copy = os.path.join(directory, name + ".py")
    shutil.copy(path, copy)
    spec = importlib.util.spec_from_file_location(name, copy)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_triton(module, seed, offset_base, n):
    out = {
        name: torch.empty((rows, n) if rows > 1 else (n, ), dtype={
            np.int32: torch.int32,
            np.float32: torch.float32
        }[dtype], device="cuda")
        for name, (dtype, rows, _) in OUTPUTS.items()
    }
    block = 256
    grid = ((n + block - 1) // block, )
    module.rng_kernel[grid](seed, offset_base, out["words"], out["ints"],
                            out["ints64"], out["ints7"], out["unif"],
                            out["unif4"], out["norm"], out["norm4"], n,
                            BLOCK=block)
    torch.cuda.synchronize()
    return {name: t.cpu().numpy() for name, t in out.items()}


def run_tile(tile_run, path, sets, saves, workdir, inputs=()):
    command = [tile_run, path, "--no-bench", "--no-cache"]
    for name, value in sets:
        command += ["--set", "%s=%s" % (name, value)]
    for name, file in inputs:
        command += ["--input", "%s=%s" % (name, file)]
    files = {}
    for name in saves:
        files[name] = os.path.join(workdir, name + ".npy")
        command += ["--save", "%s=%s" % (name, files[name])]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError("%s failed (exit %d):\n%s%s" %
                           (" ".join(command), result.returncode,
                            result.stdout, result.stderr))
    return {name: np.load(file) for name, file in files.items()}


def ulp_distance(a, b):
    """|a - b| in fp32 ulps (both finite)."""
    ia = a.view(np.int32).astype(np.int64)
    ib = b.view(np.int32).astype(np.int64)
    ia = np.where(ia < 0, -(2**31) - ia, ia)
    ib = np.where(ib < 0, -(2**31) - ib, ib)
    return np.abs(ia - ib)


def compare(name, kind, triton, tile):
    """One output: (passed, line)."""
    if triton.shape != tile.shape:
        return False, "%s: shapes differ, Triton %s, Tile %s" % (
            name, triton.shape, tile.shape)
    same = triton.view(np.uint32) == tile.view(np.uint32)
    n = same.size
    if kind == "bits":
        bad = np.flatnonzero(~same.ravel())
        line = "%s: %d of %d identical" % (name, n - bad.size, n)
        if bad.size:
            i = bad[0]
            line += " (first difference at %d: Triton %r, Tile %r)" % (
                i, triton.ravel()[i], tile.ravel()[i])
        return bad.size == 0, line
    # A NaN (sqrt of a negative approximate log near u1 = 1) must be where
    # Triton has one too.
    nan_triton, nan_tile = np.isnan(triton), np.isnan(tile)
    nan_mismatches = int((nan_triton != nan_tile).sum())
    finite = ~nan_triton & ~nan_tile
    diff = np.abs(triton[finite].astype(np.float64) -
                  tile[finite].astype(np.float64))
    ulps = ulp_distance(triton[finite], tile[finite])
    worst = diff.max() if diff.size else 0.0
    line = ("%s: %d of %d identical, max |Triton - Tile| %.3g, max %d ulp, "
            "%d NaN in Triton, %d NaN mismatches (tolerance %.0e)" %
            (name, same.sum(), n, worst, ulps.max() if ulps.size else 0,
             nan_triton.sum(), nan_mismatches, NORMAL_TOLERANCE))
    return bool(worst <= NORMAL_TOLERANCE and nan_mismatches == 0), line


def check_dropout(tile_run, workdir, failures):
    module = import_tile_file(DROPOUT_TILE, "seeded_dropout_tile")
    n, block = 98432, 1024
    torch.manual_seed(0)
    x = torch.randn(n, device="cuda", dtype=torch.float32)
    for seed, p in ((123, 0.5), (-7, 0.3), (2**40 + 5, 0.9)):
        out = torch.empty_like(x)
        grid = ((n + block - 1) // block, )
        module._seeded_dropout[grid](x, out, n, p, seed, BLOCK_SIZE=block)
        torch.cuda.synchronize()
        x_file = os.path.join(workdir, "x.npy")
        np.save(x_file, x.cpu().numpy())
        tile = run_tile(tile_run, DROPOUT_TILE, [("n", n), ("p", p),
                                                 ("seed", seed)],
                        ["output_ptr"], workdir,
                        inputs=[("x_ptr", x_file)])["output_ptr"]
        triton = out.cpu().numpy()
        kept_triton, kept_tile = triton != 0, tile != 0
        decisions = int((kept_triton != kept_tile).sum())
        ulps = ulp_distance(triton, tile).max()
        ok = decisions == 0 and ulps <= 1
        line = ("seeded_dropout seed=%d p=%g: %d keep decisions differ, "
                "%d of %d values identical, max %d ulp" %
                (seed, p, decisions, (triton.view(np.uint32) == tile.view(
                    np.uint32)).sum(), n, ulps))
        print(("PASS " if ok else "FAIL ") + line)
        if not ok:
            failures.append(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tile-run", default=shutil.which("tile-run"),
                        help="tile-run to use (default: the one on PATH)")
    parser.add_argument("--keep", help="keep the .npy files in this folder")
    args = parser.parse_args()
    if not args.tile_run:
        sys.exit("check-rng-triton.py: tile-run is not on the PATH "
                 "(or pass --tile-run)")
    if not torch.cuda.is_available():
        sys.exit("check-rng-triton.py: no CUDA GPU")
    import triton
    print("Triton %s, torch %s, %s" %
          (triton.__version__, torch.__version__,
           torch.cuda.get_device_name()))
    workdir = args.keep or tempfile.mkdtemp(prefix="rng-triton-")
    os.makedirs(workdir, exist_ok=True)
    module = import_tile_file(RANDOM_TILE, "random_tile")
    failures = []
    for seed, offset_base, n in CASES:
        triton_out = run_triton(module, seed, offset_base, n)
        tile_out = run_tile(args.tile_run, RANDOM_TILE,
                            [("seed", seed), ("offset_base", offset_base),
                             ("n", n)], list(OUTPUTS), workdir)
        for name, (_, _, kind) in OUTPUTS.items():
            if args.keep:
                np.save(os.path.join(workdir, "triton_%s_%d.npy" % (name, seed)),
                        triton_out[name])
            ok, line = compare(name, kind, triton_out[name], tile_out[name])
            line = "seed=%d offset_base=%d n=%d %s" % (seed, offset_base, n,
                                                       line)
            print(("PASS " if ok else "FAIL ") + line)
            if not ok:
                failures.append(line)
    check_dropout(args.tile_run, workdir, failures)
    print("== %d FAIL" % len(failures))
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
