#===- gen_ops.py - the op suite's table: ops x dtypes x shapes -----------===#
#
# Generates the op suite's batches of cases from the tables below, in the
# manner of Triton's python/test/unit/language/test_core.py: elementwise
# unary and binary operators over every dtype (and pairs of dtypes), casts
# between every pair, reductions, scans, shape ops, masked loads and
# stores, atomics and dots. An op/dtype pair Triton rejects becomes a case
# that expects the diagnostic at its line. `python3 gen_ops.py` lists the
# cases.
#
# To add an op: a row in the family's table (semantics.py for elementwise
# operators: expression, accepted dtypes, reference) or a few lines in the
# family's function below; an fp8 dtype is one row in dtypes.py and one
# name in the families' dtype lists.
#
#===----------------------------------------------------------------------===#

import math
import random
import re
import zlib

from dtypes import (ALL_DTYPES, D, FLOAT_DTYPES, INT_DTYPES, UINT_DTYPES,
                    decode, encode, round_to, ulp, wrap_int)
from kernels import Batch, Case, Check
from semantics import (BINARY_OPS, SCALAR_OPS, UNARY_OPS, TypeErrorCase,
                       binary_ref, binary_result, cast, scalar_result,
                       unary_accepts, unary_ref)

# Logical shapes; blocks are the next powers of two and masks cut them.
SHAPES = {
    "128": (128,),
    "32x64": (32, 64),
    "100": (100,),  # masked: a block of 128
    "20x48": (20, 48),  # masked: a block of 32x64
}

# Which shapes each family runs on.
UNARY_SHAPES = ["32x64", "100"]
BINARY_SHAPES = ["128", "20x48"]  # same-dtype pairs
CROSS_SHAPE = "32x64"  # pairs of different dtypes
CAST_SHAPES = ["128", "20x48"]
SCALAR_SHAPES = ["32x64", "100"]

# Tolerances (units in the last place) of float results.
ULPS = {"exact": 0, "div": 2, "sqrt": 2}


def pow2(n):
    p = 1
    while p < n:
        p *= 2
    return p


def rng_for(name):
    return random.Random(zlib.crc32(name.encode()))


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


# ===------------------------------ inputs -------------------------------=== #


def rand_values(rng, dt, n, lo=None, hi=None, nonzero=False):
    """n random values of dt: integers uniform over [lo, hi] (default the
    whole range), floats uniform over [lo, hi] rounded to dt."""
    if dt.kind == "bool":
        return [rng.randint(0, 1) for _ in range(n)]
    if dt.is_int:
        lo = dt.int_min() if lo is None else max(lo, dt.int_min())
        hi = dt.int_max() if hi is None else min(hi, dt.int_max())
        out = []
        while len(out) < n:
            v = rng.randint(lo, hi)
            if not (nonzero and v == 0):
                out.append(v)
        return out
    lo = -4.0 if lo is None else lo
    hi = 4.0 if hi is None else hi
    out = []
    while len(out) < n:
        v = round_to(rng.uniform(lo, hi), dt)
        if not (nonzero and abs(v) < 0.25):
            out.append(v)
    return out


def elementwise_batch(name, family, shape_name):
    """A batch whose cases read and write blocks of one shape: `offs` and
    (for a masked shape) `mask` are defined by its prelude."""
    b = Batch(name, family)
    shape = SHAPES[shape_name]
    block = tuple(pow2(s) for s in shape)
    b.shape, b.block = shape, block
    b.masked = shape != block
    if len(shape) == 1:
        b.prelude = ["offs = tl.arange(0, %d)" % block[0]]
        if b.masked:
            b.prelude.append("m = offs < %d" % shape[0])
    else:
        b.prelude = ["r0 = tl.arange(0, %d)[:, None]" % block[0],
                     "r1 = tl.arange(0, %d)[None, :]" % block[1],
                     "offs = r0 * %d + r1" % shape[1]]
        if b.masked:
            b.prelude.append("m = (r0 < %d) & (r1 < %d)" % shape)
    return b


def add_block_input(b, var, dt, values):
    mask = ", mask=m" if b.masked else ""
    other = ", other=1" if b.masked and dt.kind != "bool" else ""
    b.add_input("x_" + var, dt, b.shape, values, var,
                "%s = tl.load(x_%s + offs%s%s)" % (var, var, mask, other))


def store_line(b, buf, expr):
    mask = ", mask=m" if b.masked else ""
    return "tl.store(%s + offs, %s%s)" % (buf, expr, mask)


def elementwise_case(b, name, expr, rt, expected, ulps=0, atol=0.0):
    buf = "o_" + re.sub(r"\W", "_", name.split("/")[1])
    return Case(name, [store_line(b, buf, expr)],
                [(buf, rt, b.shape, Check(rt, expected, ulps, atol))])


def error_case(b, name, expr, message=""):
    return Case(name, [store_line(b, "o_err", expr)],
                [("o_err", D("fp32"), b.shape, None)], error=message)


def float_tolerance(kind, dt):
    if kind == "transcendental":
        return (16, 1e-6) if dt.bits <= 32 else (64, 1e-14)
    return ULPS[kind], 0.0


# ===------------------------------ unary --------------------------------=== #


def unary_batches():
    batches = []
    for dname in ["i1"] + ALL_DTYPES:
        dt = D(dname)
        for si, shape_name in enumerate(UNARY_SHAPES):
            b = elementwise_batch("unary/%s/%s" % (dname, shape_name),
                                  "unary", shape_name)
            rng = rng_for(b.name)
            n = numel(b.shape)
            add_block_input(b, "a", dt, rand_values(rng, dt, n))
            if dt.kind != "bool":
                add_block_input(b, "p", dt, rand_values(
                    rng, dt, n, 1 if dt.is_int else 0.125, 100 if dt.is_int
                    else 8.0))
            for op, (expr, _, domain, _) in UNARY_OPS.items():
                name = "%s/%s/%s/%s" % ("unary", op, dname, shape_name)
                if dt.kind == "bool" and op not in ("not", "invert"):
                    continue
                if not unary_accepts(op, dt) and not (
                        op == "invert" and dt.kind == "bool"):
                    if op == "clamp":
                        # Float bounds would make it an fp32 clamp (valid).
                        expr = "tl.clamp(a, -3, 5)"
                    if si == 0 and (op != "not" or dname in ("i32", "fp32")):
                        b.cases.append(error_case(b, name, expr))
                    continue
                if op == "invert" and dt.kind == "bool":
                    rt, f, tol = dt, lambda x: 1 - x, "exact"
                else:
                    rt, f, tol = unary_ref(op, dt)
                src = b.inputs["x_p" if domain == "pos" else "x_a"][2]
                ulps, atol = float_tolerance(tol, dt) if dt.is_float else (0, 0)
                b.cases.append(elementwise_case(
                    b, name.replace("unary/", "unary/", 1), expr, rt,
                    [f(x) for x in src], ulps, atol))
            batches.append(b)
    return batches


# ===------------------------------ binary -------------------------------=== #


def binary_inputs(b, ta, tb):
    rng = rng_for(b.name)
    n = numel(b.shape)
    both_int = ta.is_int and tb.is_int

    def operand(dt):
        if both_int:
            return rand_values(rng, dt, n)
        if dt.is_int:  # meets a float: values every float type holds
            return rand_values(rng, dt, n, -100, 100)
        return rand_values(rng, dt, n, -8.0, 8.0)

    a = operand(ta)
    add_block_input(b, "b", tb, operand(tb))
    # where's condition: from an int32 buffer (bool buffers do not run on
    # the GPU yet).
    b.add_input("x_c", D("i32"), b.shape, rand_values(rng, D("i1"), n), "c",
                "c = tl.load(x_c + offs%s) != 0" % (
                    ", mask=m" if b.masked else ""))
    if tb.is_int:
        d = rand_values(rng, tb, n, -100, 200, nonzero=True)
    else:
        d = [v if rng.random() < 0.5 else -v
             for v in rand_values(rng, tb, n, 0.5, 8.0)]
    if ta.signed:  # no INT_MIN // -1
        a = [x + 1 if x == ta.int_min() and y == -1 else x
             for x, y in zip(a, d)]
    add_block_input(b, "a", ta, a)
    add_block_input(b, "d", tb, d)
    if ta.is_int and tb.is_int and tb.kind != "bool":
        width = max(ta.bits, tb.bits)
        add_block_input(b, "s", tb, rand_values(rng, tb, n, 0, width - 1))


def binary_batch(ta, tb, shape_name, with_errors):
    b = elementwise_batch("binary/%s,%s/%s" % (ta.name, tb.name, shape_name),
                          "binary", shape_name)
    binary_inputs(b, ta, tb)
    vals = {k[2:]: v[2] for k, v in b.inputs.items()}
    for op, (expr, kind) in BINARY_OPS.items():
        name = "binary/%s/%s,%s/%s" % (op, ta.name, tb.name, shape_name)
        try:
            rt = binary_result(op, ta, tb)
        except TypeErrorCase:
            if with_errors:
                b.cases.append(error_case(b, name, expr))
            continue
        if kind == "shift" and "s" not in vals:
            continue
        f = binary_ref(op, ta, tb)
        second = {"div": "d", "shift": "s"}.get(kind, "b")
        if op == "where":
            expected = [f(x, y, c) for x, y, c in
                        zip(vals["a"], vals["b"], vals["c"])]
        else:
            expected = [f(x, y) for x, y in zip(vals["a"], vals[second])]
        ulps = ULPS["div"] if op == "truediv" else 0
        atol = 0.0
        if op == "mod" and rt.is_float:
            # The GPU's frem is x - y * trunc(x / y): an ulp of x off.
            atol = [2 * ulp(cast(x, ta, rt), rt) for x in vals["a"]]
        b.cases.append(elementwise_case(b, name, expr, rt, expected, ulps,
                                        atol))
    return b


# Pairs of different dtypes (test_core's test_bin_op runs every pair; these
# cover each promotion rule: wider int, signed/unsigned of either width,
# int with each float, fp16 with bf16, each float with a wider one).
CROSS_PAIRS = [
    ("i8", "i16"), ("i16", "i64"), ("i32", "i64"), ("u8", "u32"),
    ("u16", "u64"), ("i8", "u8"), ("i32", "u32"), ("i64", "u64"),
    ("u8", "i32"), ("u32", "i16"), ("i8", "u64"), ("u64", "i32"),
    ("i32", "fp16"), ("i8", "bf16"), ("u16", "fp32"), ("i64", "fp64"),
    ("fp16", "bf16"), ("fp16", "fp32"), ("bf16", "fp32"), ("fp32", "fp64"),
    ("bf16", "fp64"), ("fp16", "i16"), ("bf16", "u8"), ("fp64", "i32"),
]


def binary_batches():
    batches = []
    for dname in ALL_DTYPES:
        for si, shape_name in enumerate(BINARY_SHAPES):
            batches.append(binary_batch(D(dname), D(dname), shape_name,
                                        si == 0))
    for ta, tb in CROSS_PAIRS:
        batches.append(binary_batch(D(ta), D(tb), CROSS_SHAPE, True))
    return batches


# ===----------------------- a block and a number ------------------------=== #


def scalar_batches():
    batches = []
    for dname in ALL_DTYPES:
        dt = D(dname)
        for si, shape_name in enumerate(SCALAR_SHAPES):
            b = elementwise_batch("scalar/%s/%s" % (dname, shape_name),
                                  "scalar", shape_name)
            rng = rng_for(b.name)
            n = numel(b.shape)
            a = rand_values(rng, dt, n, None if dt.is_int else -8.0,
                            None if dt.is_int else 8.0)
            d = rand_values(rng, dt, n, -100 if dt.is_int else 0.5,
                            100 if dt.is_int else 8.0, nonzero=True)
            add_block_input(b, "a", dt, a)
            add_block_input(b, "d", dt, d)
            for op, (expr, binop, _, _) in SCALAR_OPS.items():
                name = "scalar/%s/%s/%s" % (op, dname, shape_name)
                try:
                    rt, f = scalar_result(op, dt)
                except TypeErrorCase:
                    if si == 0:
                        b.cases.append(error_case(b, name, expr))
                    continue
                src = d if op == "rfloordiv" else a
                ulps = ULPS["div"] if binop == "truediv" else 0
                atol = 0.0
                if binop == "mod" and rt.is_float:
                    atol = [2 * ulp(cast(x, dt, rt), rt) for x in src]
                b.cases.append(elementwise_case(
                    b, "scalar/%s/%s/%s" % (op, dname, shape_name), expr, rt,
                    [f(x) for x in src], ulps, atol))
            batches.append(b)
    return batches


# ===------------------------------- casts -------------------------------=== #

BITCAST_GROUPS = [["i8", "u8"], ["i16", "u16", "fp16", "bf16"],
                  ["i32", "u32", "fp32"], ["i64", "u64", "fp64"]]


def cast_batches():
    batches = []
    for sname in ["i1"] + ALL_DTYPES:
        src = D(sname)
        for shape_name in CAST_SHAPES:
            b = elementwise_batch("cast/%s/%s" % (sname, shape_name), "cast",
                                  shape_name)
            rng = rng_for(b.name)
            n = numel(b.shape)
            if src.is_float:
                # Float to int is undefined out of the target's range.
                x = rand_values(rng, src, n, -120.0, 120.0)
                xu = rand_values(rng, src, n, 0.0, 250.0)
                big = rand_values(rng, src, n, -1e5, 1e5) \
                    if src.bits >= 32 else None
            else:
                x = xu = rand_values(rng, src, n)
                big = None
            add_block_input(b, "x", src, x)
            if src.is_float:
                add_block_input(b, "xu", src, xu)
            if big:
                add_block_input(b, "xb", src, big)
            for dname in ["i1"] + ALL_DTYPES:
                dst = D(dname)
                var = "xu" if src.is_float and dst.kind == "uint" else "x"
                vals = xu if var == "xu" else x
                name = "cast/%s-%s/%s" % (sname, dname, shape_name)
                b.cases.append(elementwise_case(
                    b, name, "%s.to(%s)" % (var, dst.tl), dst,
                    [cast(v, src, dst) for v in vals]))
                if big and dst.is_float and dst.bits < src.bits:
                    b.cases.append(elementwise_case(
                        b, "cast/%s-%s-big/%s" % (sname, dname, shape_name),
                        "xb.to(%s)" % dst.tl, dst,
                        [cast(v, src, dst) for v in big]))
            for group in BITCAST_GROUPS:
                if sname not in group:
                    continue
                for dname in group:
                    if dname == sname:
                        continue
                    dst = D(dname)
                    raw = encode(x, src)
                    b.cases.append(elementwise_case(
                        b, "cast/%s-%s-bitcast/%s" % (sname, dname,
                                                      shape_name),
                        "x.to(%s, bitcast=True)" % dst.tl, dst,
                        decode(raw, dst, len(x))))
            if shape_name == CAST_SHAPES[0] and sname not in ("i1",):
                other = "i16" if src.bits != 16 else "i32"
                b.cases.append(error_case(
                    b, "cast/%s-%s-bitcast-width/%s" % (sname, other,
                                                        shape_name),
                    "x.to(%s, bitcast=True)" % D(other).tl))
            batches.append(b)
    return batches


def all_batches():
    import families
    return (unary_batches() + binary_batches() + scalar_batches() +
            cast_batches() + families.other_batches())


if __name__ == "__main__":
    total = 0
    for b in all_batches():
        for c in b.cases:
            print(c.name + ("  (expects an error)" if c.error is not None
                            else ""))
            total += 1
    print("%d cases" % total)
