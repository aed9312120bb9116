#!/usr/bin/env python3
"""The fp32 error, in ulp, of libdevice.X on the GPU against float64.

For each function, 2^20 inputs spread over its domain (log-uniform where the
domain spans magnitudes) go through scripts/libdevice-ulp.tile with tile-run;
the results are compared with Python's float64 math, rounded to fp32. Prints
the largest error in ulp (and where) per function, for CUDA's libdevice and
for Tile's own implementations (TILE_LIBDEVICE=none), side by side.

    python3 scripts/libdevice-ulp.py [--interpret] [--n N] [FN...]

Needs only tile-run on the PATH and Python 3 (no numpy). --interpret runs
the interpreter (the C library, so close to 0 ulp: a check of this script).
"""
import argparse
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "libdevice-ulp.tile")


def f32(v):
    try:
        return struct.unpack("<f", struct.pack("<f", v))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


def uniform(lo, hi):
    return lambda r: r.uniform(lo, hi)


def loguniform(lo, hi, signed=False):
    def draw(r):
        v = math.exp(r.uniform(math.log(lo), math.log(hi)))
        return -v if signed and r.random() < 0.5 else v
    return draw


def pow10(v):
    return 10.0 ** v


# name: (reference, first input, second input or None)
FUNCTIONS = {
    "exp": (math.exp, uniform(-87, 88), None),
    "exp2": (lambda v: 2.0 ** v, uniform(-125, 127), None),
    "exp10": (pow10, uniform(-37, 38), None),
    "expm1": (math.expm1, uniform(-10, 10), None),
    "log": (math.log, loguniform(1e-30, 1e30), None),
    "log2": (math.log2, loguniform(1e-30, 1e30), None),
    "log10": (math.log10, loguniform(1e-30, 1e30), None),
    "log1p": (math.log1p, uniform(-0.99, 10), None),
    "sin": (math.sin, uniform(-100, 100), None),
    "cos": (math.cos, uniform(-100, 100), None),
    "tan": (math.tan, uniform(-1.5, 1.5), None),
    "sinh": (math.sinh, uniform(-88, 88), None),
    "cosh": (math.cosh, uniform(-88, 88), None),
    "tanh": (math.tanh, uniform(-10, 10), None),
    "asin": (math.asin, uniform(-1, 1), None),
    "acos": (math.acos, uniform(-1, 1), None),
    "atan": (math.atan, loguniform(1e-6, 1e6, signed=True), None),
    "atan2": (math.atan2, uniform(-10, 10), uniform(-10, 10)),
    "asinh": (math.asinh, loguniform(1e-6, 1e6, signed=True), None),
    "acosh": (math.acosh, uniform(1, 1000), None),
    "atanh": (math.atanh, uniform(-0.999, 0.999), None),
    "erf": (math.erf, uniform(-4, 4), None),
    "erfc": (math.erfc, uniform(-4, 9), None),
    "cbrt": (lambda v: math.copysign(abs(v) ** (1 / 3), v),
             loguniform(1e-30, 1e30, signed=True), None),
    "rsqrt": (lambda v: 1 / math.sqrt(v), loguniform(1e-30, 1e30), None),
    "sqrt": (math.sqrt, loguniform(1e-30, 1e30), None),
    "pow": (math.pow, uniform(0.01, 10), uniform(-8, 8)),
    "hypot": (math.hypot, uniform(-1000, 1000), uniform(-1000, 1000)),
}


def write_npy(path, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%df" % len(values), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    body = data[10 + length:]
    return struct.unpack("<%df" % (len(body) // 4), body)


def ulp(v):
    """The spacing of fp32 numbers at |v| (2^-149 below the normal range)."""
    v = abs(v)
    if v < 2.0 ** -126:
        return 2.0 ** -149
    return 2.0 ** (math.frexp(v)[1] - 24)


def measure(name, n, interpret, own, tmp, seed):
    reference, first, second = FUNCTIONS[name]
    r = random.Random(seed)
    xs = [f32(first(r)) for _ in range(n)]
    zs = [f32(second(r)) if second else 1.0 for _ in range(n)]
    write_npy(os.path.join(tmp, "x.npy"), xs)
    write_npy(os.path.join(tmp, "z.npy"), zs)
    out = os.path.join(tmp, "y.npy")
    env = dict(os.environ)
    if own:
        env["TILE_LIBDEVICE"] = "none"
    cmd = ["tile-run", KERNEL, "--set", "n=%d" % n, "--set", 'FN="%s"' % name,
           "--input", "x=" + os.path.join(tmp, "x.npy"),
           "--input", "z=" + os.path.join(tmp, "z.npy"),
           "--save", "y=" + out, "--no-bench"]
    if interpret:
        cmd.append("--interpret")
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode != 0:
        return None, run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "failed"
    ys = read_npy(out)
    worst, where = 0.0, None
    for x, z, y in zip(xs, zs, ys):
        try:
            want = reference(x, z) if second else reference(x)
        except (ValueError, OverflowError):
            continue
        want32 = f32(want)
        if math.isinf(want32) or math.isnan(want):
            continue
        if math.isnan(y) or math.isinf(y):
            err = math.inf
        else:
            err = abs(y - want) / ulp(want32)
        if err > worst:
            worst, where = err, (x, z) if second else x
    return worst, where


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("functions", nargs="*", help="default: all")
    parser.add_argument("--n", type=int, default=1 << 20)
    parser.add_argument("--interpret", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = args.functions or list(FUNCTIONS)
    for name in names:
        if name not in FUNCTIONS:
            sys.exit("unknown function %s; known: %s" % (name, ", ".join(FUNCTIONS)))
    modes = [("interpreter", False)] if args.interpret else [("libdevice", False), ("own", True)]
    print("%-8s" % "fp32" + "".join("%32s" % m for m, _ in modes))
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            cells = []
            for _, own in modes:
                worst, where = measure(name, args.n, args.interpret, own, tmp, args.seed)
                if worst is None:
                    cells.append("%32s" % ("error: " + where)[:32])
                elif where is None:
                    cells.append("%32s" % "0 ulp")
                else:
                    w = where if not isinstance(where, tuple) else where[0]
                    cells.append("%32s" % ("%.3g ulp at %.6g" % (worst, w)))
            print("%-8s" % name + "".join(cells), flush=True)


if __name__ == "__main__":
    main()
