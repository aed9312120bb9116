#===- families.py - op suite families beyond elementwise operators -------===#
#
# Reductions and scans over axes, shape ops (trans, permute, reshape,
# broadcast_to, expand_dims, join, split, cat), masked loads and stores,
# atomics on blocks and dots: each function returns the batches of one
# family over its dtypes, with Python references (see gen_ops.py).
#
#===----------------------------------------------------------------------===#

import math

from dtypes import ALL_DTYPES, D, INT_DTYPES, UINT_DTYPES, round_to, wrap_int
from gen_ops import numel, rand_values, rng_for
from kernels import Batch, Case, Check
from semantics import cast


def _grid_batch(name, family, rows, cols):
    """A batch over one unmasked 2-D block (rows x cols) or 1-D (rows)."""
    b = Batch(name, family)
    if cols is None:
        b.prelude = ["offs = tl.arange(0, %d)" % rows]
    else:
        b.prelude = ["r0 = tl.arange(0, %d)[:, None]" % rows,
                     "r1 = tl.arange(0, %d)[None, :]" % cols,
                     "offs = r0 * %d + r1" % cols]
    return b


def _load(b, var, dt, shape, values):
    b.add_input("x_" + var, dt, shape, values, var,
                "%s = tl.load(x_%s + offs)" % (var, var))


def _out(b, case_name, buf, dt, shape, expected, ulps=0, atol=0.0,
         lines=None):
    return Case(case_name, lines, [(buf, dt, shape,
                                    Check(dt, expected, ulps, atol))])


def eps(dt):
    return 2.0 ** (1 - dt.mant)


# ===----------------------- reductions and scans ------------------------=== #


def sum_dtype(dt):
    """tl.sum's accumulator: integers narrower than 32 bits in (u)int32."""
    if dt.is_int and dt.bits < 32:
        return D("i32") if dt.signed else D("u32")
    return dt


def _axis_lists(vals, shape, axis):
    """The lists an axis reduction combines, in output order."""
    if len(shape) == 1 or axis is None:
        return [vals]
    rows, cols = shape
    if axis == 0:
        return [[vals[i * cols + j] for i in range(rows)] for j in range(cols)]
    return [vals[i * cols:(i + 1) * cols] for i in range(rows)]


def reduce_batches():
    batches = []
    for dname in ALL_DTYPES:
        dt = D(dname)
        for shape in [(128,), (32, 64)]:
            sname = "x".join(str(s) for s in shape)
            b = _grid_batch("reduce/%s/%s" % (dname, sname), "reduce",
                            shape[0], shape[1] if len(shape) == 2 else None)
            rng = rng_for(b.name)
            vals = rand_values(rng, dt, numel(shape), -1.0, 1.0) \
                if dt.is_float else rand_values(rng, dt, numel(shape))
            _load(b, "a", dt, shape, vals)
            axes = [None] if len(shape) == 1 else [0, 1, None]
            for axis in axes:
                groups = _axis_lists(vals, shape, axis)
                if axis is None:
                    oshape, store = (1,), "tl.store(%s, %s)"
                else:
                    n = shape[1 - axis]
                    oshape = (n,)
                    store = "tl.store(%%s + tl.arange(0, %d), %%s)" % n
                ax = "" if axis is None else ", axis=%d" % axis
                tag = "all" if axis is None else "axis%d" % axis
                acc = sum_dtype(dt)
                red = []
                if dt.is_float:
                    out = D("fp32") if dt.bits < 32 else dt
                    red.append(("sum", "tl.sum(a%s)" % ax, out,
                                [math.fsum(g) for g in groups], 0,
                                [len(g) * eps(dt) * math.fsum(map(abs, g))
                                 for g in groups]))
                else:
                    red.append(("sum", "tl.sum(a%s)" % ax, acc,
                                [wrap_int(sum(cast(v, dt, acc) for v in g),
                                          acc) for g in groups], 0, 0.0))
                    red.append(("xor_sum", "tl.xor_sum(a%s)" % ax, dt,
                                [_xor(g, dt) for g in groups], 0, 0.0))
                red.append(("max", "tl.max(a%s)" % ax, dt,
                            [max(g) for g in groups], 0, 0.0))
                red.append(("min", "tl.min(a%s)" % ax, dt,
                            [min(g) for g in groups], 0, 0.0))
                if axis is not None or len(shape) == 1:
                    arg_ax = ", axis=%d" % (axis or 0)
                    red.append(("argmax", "tl.argmax(a%s)" % arg_ax, D("i32"),
                                [g.index(max(g)) for g in groups], 0, 0.0))
                    red.append(("argmin", "tl.argmin(a%s)" % arg_ax, D("i32"),
                                [g.index(min(g)) for g in groups], 0, 0.0))
                if axis is not None and len(shape) == 2:
                    # keep_dims: the reduced axis stays as 1.
                    for op, expr, odt, expected, ulps, atol in list(red[:1]) \
                            + [r for r in red if r[0] == "max"]:
                        kshape = (1, shape[1]) if axis == 0 else (shape[0], 1)
                        koffs = "tl.arange(0, %d)[%s]" % (
                            kshape[1 - axis],
                            "None, :" if axis == 0 else ":, None")
                        red.append((op + "_keep", expr[:-1] +
                                    ", keep_dims=True)", odt, expected, ulps,
                                    atol, kshape, "tl.store(%%s + %s, %%s)" %
                                    koffs))
                for op, expr, odt, expected, ulps, atol, *rest in red:
                    buf = "o_%s_%s" % (op, tag)
                    b.cases.append(_out(
                        b, "reduce/%s-%s/%s/%s" % (op, tag, dname, sname), buf,
                        odt, rest[0] if rest else oshape, expected, ulps, atol,
                        [(rest[1] if rest else store) % (buf, expr)]))
            batches.append(b)
    return batches


def _xor(values, dt):
    r = 0
    for v in values:
        r ^= v
    return wrap_int(r, dt)


def _scan(vals, shape, axis, f, init):
    out = list(vals)
    if len(shape) == 1:
        lines = [list(range(shape[0]))]
    elif axis == 0:
        lines = [[i * shape[1] + j for i in range(shape[0])]
                 for j in range(shape[1])]
    else:
        lines = [[i * shape[1] + j for j in range(shape[1])]
                 for i in range(shape[0])]
    for idx in lines:
        acc = init
        for k in idx:
            acc = f(acc, vals[k])
            out[k] = acc
    return out


def _reverse_cumsum(a, shape, axis, dt, acc):
    """tl.cumsum(..., reverse=True): sums from the end of the axis."""
    rows, cols = (1, shape[0]) if len(shape) == 1 else shape
    grid = [a[i * cols:(i + 1) * cols] for i in range(rows)]
    if len(shape) == 2 and axis == 0:
        grid = [list(col) for col in zip(*grid)]
    out = []
    bound = []
    for line in grid:
        sums, absums, total, abstotal = [], [], 0, 0.0
        for v in reversed(line):
            if dt.is_float:
                total += v
                abstotal += abs(v)
            else:
                total = wrap_int(total + cast(v, dt, acc), acc)
            sums.append(total)
            absums.append(abstotal)
        out.append(sums[::-1])
        bound.append(absums[::-1])
    if len(shape) == 2 and axis == 0:
        out = [list(r) for r in zip(*out)]
        bound = [list(r) for r in zip(*bound)]
    flat = [v for line in out for v in line]
    if not dt.is_float:
        return acc, flat, 0, 0.0
    steps = shape[axis]
    odt = D("fp32") if dt.name == "bf16" else dt
    return odt, flat, 0, [steps * eps(dt) * v for line in bound for v in line]


def scan_batches():
    batches = []
    for dname in ALL_DTYPES:
        dt = D(dname)
        for shape in [(128,), (32, 64)]:
            sname = "x".join(str(s) for s in shape)
            b = _grid_batch("scan/%s/%s" % (dname, sname), "scan",
                            shape[0], shape[1] if len(shape) == 2 else None)
            rng = rng_for(b.name)
            n = numel(shape)
            if dt.is_float:
                a = rand_values(rng, dt, n, -1.0, 1.0)
                q = rand_values(rng, dt, n, 0.95, 1.05)
            else:
                a = rand_values(rng, dt, n)
                q = rand_values(rng, dt, n, -3, 3, nonzero=True)
            _load(b, "a", dt, shape, a)
            _load(b, "q", dt, shape, q)
            for axis in ([0] if len(shape) == 1 else [0, 1]):
                tag = "axis%d" % axis
                acc = sum_dtype(dt)
                if dt.is_float:
                    out = D("fp32") if dt.name == "bf16" else dt
                    sums = _scan(a, shape, axis, lambda s, v: s + v, 0.0)
                    abssums = _scan([abs(v) for v in a], shape, axis,
                                    lambda s, v: s + v, 0.0)
                    steps = shape[axis] if len(shape) == 2 else shape[0]
                    cs = (out, sums, 0, [steps * eps(dt) * s for s in abssums])
                    prods = _scan(q, shape, axis, lambda s, v: s * v, 1.0)
                    cp = (out, prods, 2 * steps * 2 ** (out.mant - dt.mant),
                          0.0)
                else:
                    cs = (acc, _scan([cast(v, dt, acc) for v in a], shape,
                                     axis, lambda s, v: wrap_int(s + v, acc),
                                     0), 0, 0.0)
                    cp = (dt, _scan(q, shape, axis,
                                    lambda s, v: wrap_int(s * v, dt), 1),
                          0, 0.0)
                rev = _reverse_cumsum(a, shape, axis, dt, acc)
                for op, var, (odt, expected, ulps, atol), extra in [
                        ("cumsum", "a", cs, ""), ("cumprod", "q", cp, ""),
                        ("cumsum_reverse", "a", rev, ", reverse=True")]:
                    buf = "o_%s_%s" % (op, tag)
                    b.cases.append(_out(
                        b, "scan/%s-%s/%s/%s" % (op, tag, dname, sname), buf,
                        odt, shape, expected, ulps, atol,
                        ["tl.store(%s + offs, tl.%s(%s, axis=%d%s))" %
                         (buf, op.split("_")[0], var, axis, extra)]))
            batches.append(b)
    return batches


# ===---------------------------- shape ops ------------------------------=== #


def shape_batches():
    batches = []
    R, C = 32, 64
    for dname in ["i1"] + ALL_DTYPES:
        dt = D(dname)
        b = _grid_batch("shape/%s/%dx%d" % (dname, R, C), "shape", R, C)
        rng = rng_for(b.name)
        a = rand_values(rng, dt, R * C)
        v = rand_values(rng, dt, C)
        w = rand_values(rng, dt, C)
        _load(b, "a", dt, (R, C), a)
        b.add_input("x_v", dt, (C,), v, "v",
                    "v = tl.load(x_v + tl.arange(0, %d))" % C)
        b.add_input("x_w", dt, (C,), w, "w",
                    "w = tl.load(x_w + tl.arange(0, %d))" % C)
        t_offs = "tl.arange(0, %d)[:, None] * %d + tl.arange(0, %d)[None, :]"
        transposed = [a[i * C + j] for j in range(C) for i in range(R)]
        specs = [
            ("trans", "tl.trans(a)", (C, R), t_offs % (C, R, R), transposed),
            ("permute", "tl.permute(a, (1, 0))", (C, R), t_offs % (C, R, R),
             transposed),
            ("T", "a.T", (C, R), t_offs % (C, R, R), transposed),
            ("reshape", "tl.reshape(a, (%d, %d))" % (C, R), (C, R),
             t_offs % (C, R, R), a),
            ("reshape_1d", "tl.reshape(a, (%d,))" % (R * C), (R * C,),
             "tl.arange(0, %d)" % (R * C), a),
            ("ravel", "tl.ravel(a)", (R * C,), "tl.arange(0, %d)" % (R * C),
             a),
            ("broadcast_to", "tl.broadcast_to(v[None, :], (%d, %d))" % (R, C),
             (R, C), "offs", [v[j] for i in range(R) for j in range(C)]),
            ("expand_dims", "tl.expand_dims(v, 0)", (1, C),
             t_offs % (1, C, C), v),
            ("expand_dims1", "tl.expand_dims(v, 1)", (C, 1),
             t_offs % (C, 1, 1), v),
            ("join", "tl.join(v, w)", (C, 2), t_offs % (C, 2, 2),
             [x for pair in zip(v, w) for x in pair]),
            ("cat", "tl.cat(v, w, can_reorder=True)", (2 * C,),
             "tl.arange(0, %d)" % (2 * C), v + w),
        ]
        for op, expr, oshape, offs, expected in specs:
            buf = "o_" + op
            b.cases.append(_out(b, "shape/%s/%s/%dx%d" % (op, dname, R, C),
                                buf, dt, oshape, expected,
                                lines=["tl.store(%s + %s, %s)" %
                                       (buf, offs, expr)]))
        half = R * C // 2
        for k, part in enumerate(["lo", "hi"]):
            buf = "o_split_" + part
            b.cases.append(_out(
                b, "shape/split-%s/%s/%dx%d" % (part, dname, R, C), buf, dt,
                (half,), a[k::2],
                lines=["tl.store(%s + tl.arange(0, %d), tl.split("
                       "tl.reshape(a, (%d, 2)))[%d])" % (buf, half, half, k)]))
        batches.append(b)
    return batches


# ===------------------------- loads and stores --------------------------=== #


def memory_batches():
    from gen_ops import add_block_input, elementwise_batch, store_line
    batches = []
    for dname in ["i1"] + ALL_DTYPES:
        dt = D(dname)
        for shape_name in ["128", "20x48"]:
            b = elementwise_batch("memory/%s/%s" % (dname, shape_name),
                                  "memory", shape_name)
            rng = rng_for(b.name)
            n = numel(b.shape)
            vals = rand_values(rng, dt, n)
            add_block_input(b, "a", dt, vals)
            b.add_input("x_m", dt, b.shape, vals)
            shape_mask = "m & " if b.masked else ""
            other = {"bool": "1", "float": "-2.5"}.get(dt.kind, "7")
            other_v = {"bool": 1, "float": -2.5}.get(dt.kind, 7)
            keep = [i % 3 != 0 for i in range(n)]
            if len(b.shape) == 2:
                # offs % 3 on the logical index: offs is r0 * cols + r1.
                keep = [(i // b.shape[1] * b.shape[1] + i % b.shape[1]) % 3
                        != 0 for i in range(n)]
            b.cases.append(Case(
                "memory/load-other/%s/%s" % (dname, shape_name),
                [store_line(b, "o_other", "tl.load(x_m + offs, mask=%s"
                            "(offs %% 3 != 0), other=%s)" % (shape_mask,
                                                             other))],
                [("o_other", dt, b.shape,
                  Check(dt, [v if k else other_v
                             for v, k in zip(vals, keep)]))]))
            b.cases.append(Case(
                "memory/load-masked-zero/%s/%s" % (dname, shape_name),
                [store_line(b, "o_zero", "tl.load(x_m + offs, mask=%s"
                            "(offs %% 3 != 0))" % shape_mask)],
                [("o_zero", dt, b.shape,
                  Check(dt, [v if k else 0 for v, k in zip(vals, keep)]))]))
            keep4 = [i % 4 != 1 for i in range(n)]
            b.cases.append(Case(
                "memory/store-masked/%s/%s" % (dname, shape_name),
                ["tl.store(o_store + offs, a, mask=%s(offs %% 4 != 1))" %
                 shape_mask],
                [("o_store", dt, b.shape,
                  Check(dt, [v if k else 0 for v, k in zip(vals, keep4)]))]))
            if shape_name == "128":
                b.cases.append(Case(
                    "memory/load-other-without-mask/%s/%s" % (dname,
                                                              shape_name),
                    [store_line(b, "o_err", "tl.load(x_m + offs, other=%s)"
                                % other)],
                    [("o_err", dt, b.shape, None)], error=""))
            batches.append(b)
    return batches


# ===------------------------------ atomics ------------------------------=== #

ATOMIC_DTYPES = {
    "add": ["i32", "u32", "i64", "u64", "fp16", "bf16", "fp32", "fp64"],
    "max": ["i32", "u32", "i64", "u64", "fp32", "fp64"],
    "min": ["i32", "u32", "i64", "u64", "fp32", "fp64"],
    "and": ["i32", "u32", "i64", "u64"],
    "or": ["i32", "u32", "i64", "u64"],
    "xor": ["i32", "u32", "i64", "u64"],
    "xchg": ["i32", "u32", "i64", "u64", "fp32", "fp64"],
    "cas": ["i16", "u16", "i32", "u32", "i64", "u64", "fp32", "fp64"],
}

_COMBINE = {
    "add": lambda x, y: x + y, "max": max, "min": min,
    "and": lambda x, y: x & y, "or": lambda x, y: x | y,
    "xor": lambda x, y: x ^ y,
}


def atomic_batches():
    batches = []
    lanes, slots = 128, 16
    dtypes = []
    for op, names in ATOMIC_DTYPES.items():
        dtypes += [n for n in names if n not in dtypes]
    for dname in dtypes:
        dt = D(dname)
        b = _grid_batch("atomic/%s/%d" % (dname, lanes), "atomic", lanes,
                        None)
        rng = rng_for(b.name)
        if dt.is_float:
            v = rand_values(rng, dt, lanes, -4.0, 4.0)
            init = rand_values(rng, dt, lanes, -4.0, 4.0)
        else:
            v = rand_values(rng, dt, lanes)
            init = rand_values(rng, dt, lanes)
        _load(b, "v", dt, (lanes,), v)
        for op, names in ATOMIC_DTYPES.items():
            if dname not in names:
                continue
            if op == "cas":
                match = [i % 2 == 0 for i in range(lanes)]
                cmpv = [x if m else (x + 1 if dt.is_float
                                     else wrap_int(x + 1, dt))
                        for x, m in zip(init, match)]
                b.add_input("acc_cas", dt, (lanes,), init)
                b.add_input("x_cmp", dt, (lanes,), cmpv, "cmpv",
                            "cmpv = tl.load(x_cmp + offs)")
                b.cases.append(Case(
                    "atomic/cas/%s/%d" % (dname, lanes),
                    ["tl.store(o_cas_old + offs, "
                     "tl.atomic_cas(acc_cas + offs, cmpv, v))"],
                    [("o_cas_old", dt, (lanes,), Check(dt, init)),
                     ("acc_cas", dt, (lanes,),
                      Check(dt, [y if m else x for x, y, m in
                                 zip(init, v, match)]))]))
                continue
            # Distinct addresses: the old values and the results.
            acc = "acc_%s" % op
            b.add_input(acc, dt, (lanes,), init)
            if op == "xchg":
                final = list(v)
            else:
                final = [_combine(op, x, y, dt) for x, y in zip(init, v)]
            b.cases.append(Case(
                "atomic/%s/%s/%d" % (op, dname, lanes),
                ["tl.store(o_%s_old + offs, tl.atomic_%s(%s + offs, v))" %
                 (op, op, acc)],
                [("o_%s_old" % op, dt, (lanes,), Check(dt, init)),
                 (acc, dt, (lanes,), Check(dt, final))]))
            if op == "xchg":
                continue
            # Colliding addresses: lane i updates slot i % slots.
            hit = "hit_%s" % op
            hinit = init[:slots]
            b.add_input(hit, dt, (slots,), hinit)
            groups = [[v[i] for i in range(s, lanes, slots)]
                      for s in range(slots)]
            final = []
            for s, g in enumerate(groups):
                r = hinit[s]
                for y in g:
                    r = _combine(op, r, y, dt, exact=True)
                final.append(round_to(r, dt) if dt.is_float else r)
            b.cases.append(Case(
                "atomic/%s-collide/%s/%d" % (op, dname, lanes),
                ["tl.atomic_%s(%s + offs %% %d, v)" % (op, hit, slots)],
                [(hit, dt, (slots,),
                  Check(dt, final, 0, _atomic_atol(op, dt, groups, hinit)))]))
        batches.append(b)
    return batches


def _combine(op, x, y, dt, exact=False):
    r = _COMBINE[op](x, y)
    if dt.is_float:
        return r if exact else round_to(r, dt)
    return wrap_int(r, dt)


def _atomic_atol(op, dt, groups, init):
    """Float adds in any order: each of the rounding errors is at most half
    an ulp of a partial sum, bounded by the sum of magnitudes."""
    if not dt.is_float or op != "add":
        return 0.0
    return [(len(g) + 1) * eps(dt) * (sum(abs(x) for x in g) + abs(init[s]))
            for s, g in enumerate(groups)]


# ===-------------------------------- dot --------------------------------=== #

DOTS = [
    # name, dtype, kwargs, output dtype, relative error per term
    ("fp16", "fp16", "", "fp32", 2.0 ** -20),
    ("bf16", "bf16", "", "fp32", 2.0 ** -20),
    ("fp32-ieee", "fp32", ", input_precision=\"ieee\"", "fp32", 2.0 ** -20),
    ("fp32-tf32", "fp32", "", "fp32", 2.0 ** -9),
    ("fp64", "fp64", "", "fp64", 2.0 ** -49),
    ("int8", "i8", "", "i32", 0),
]


def dot_batches():
    batches = []
    for M, N, K in [(16, 16, 16), (32, 64, 32)]:
        shape = "%dx%dx%d" % (M, N, K)
        for name, dname, kwargs, oname, rel in DOTS:
            dt, odt = D(dname), D(oname)
            b = Batch("dot/%s/%s" % (name, shape), "dot")
            rng = rng_for(b.name)
            if dt.is_float:
                a = rand_values(rng, dt, M * K, -1.0, 1.0)
                w = rand_values(rng, dt, K * N, -1.0, 1.0)
            else:
                a = rand_values(rng, dt, M * K)
                w = rand_values(rng, dt, K * N)
            b.prelude = [
                "rm = tl.arange(0, %d)[:, None]" % M,
                "rn = tl.arange(0, %d)[None, :]" % N,
                "rk_col = tl.arange(0, %d)[None, :]" % K,
                "rk_row = tl.arange(0, %d)[:, None]" % K]
            b.add_input("x_a", dt, (M, K), a, "a",
                        "a = tl.load(x_a + rm * %d + rk_col)" % K)
            b.add_input("x_b", dt, (K, N), w, "bm",
                        "bm = tl.load(x_b + rk_row * %d + rn)" % N)
            ref, atol = [], []
            for i in range(M):
                for j in range(N):
                    terms = [a[i * K + k] * w[k * N + j] for k in range(K)]
                    if dt.is_float:
                        ref.append(math.fsum(terms))
                        atol.append(rel * K * math.fsum(map(abs, terms)))
                    else:
                        ref.append(wrap_int(sum(terms), odt))
            b.cases.append(Case(
                "dot/%s/%s" % (name, shape),
                ["tl.store(o_dot + rm * %d + rn, tl.dot(a, bm%s))" % (N,
                                                                     kwargs)],
                [("o_dot", odt, (M, N),
                  Check(odt, ref, 0, atol if dt.is_float else 0.0))]))
            if name == "fp32-ieee":
                b.cases.append(Case(
                    "dot/%s-acc/%s" % (name, shape),
                    ["tl.store(o_dot_acc + rm * %d + rn, tl.dot(a, bm, "
                     "tl.full((%d, %d), 1.5, tl.float32)%s))" % (N, M, N,
                                                                 kwargs)],
                    [("o_dot_acc", odt, (M, N),
                      Check(odt, [r + 1.5 for r in ref], 0,
                            [x + 1e-6 for x in atol]))]))
            batches.append(b)
    # Dtypes tl.dot does not take (Triton: int8 only among integers).
    for dname in ["i16", "i32", "u8"]:
        dt = D(dname)
        b = Batch("dot/%s/16x16x16" % dname, "dot")
        b.prelude = ["rm = tl.arange(0, 16)[:, None]",
                     "rn = tl.arange(0, 16)[None, :]"]
        b.add_input("x_a", dt, (16, 16), [0] * 256, "a",
                    "a = tl.load(x_a + rm * 16 + rn)")
        b.cases.append(Case("dot/%s/16x16x16" % dname,
                            ["tl.store(o_err + rm * 16 + rn, tl.dot(a, a))"],
                            [("o_err", D("i32"), (16, 16), None)], error=""))
        batches.append(b)
    b = Batch("dot/fp16,fp32/16x16x16", "dot")
    b.prelude = ["rm = tl.arange(0, 16)[:, None]",
                 "rn = tl.arange(0, 16)[None, :]"]
    b.add_input("x_a", D("fp16"), (16, 16), [0.0] * 256, "a",
                "a = tl.load(x_a + rm * 16 + rn)")
    b.add_input("x_b", D("fp32"), (16, 16), [0.0] * 256, "bm",
                "bm = tl.load(x_b + rm * 16 + rn)")
    b.cases.append(Case("dot/fp16,fp32/16x16x16",
                        ["tl.store(o_err + rm * 16 + rn, tl.dot(a, bm))"],
                        [("o_err", D("fp32"), (16, 16), None)], error=""))
    batches.append(b)
    return batches


def atomic_error_batches():
    """Triton's atom_red_typechecking_impl: no read-modify-write atomics on
    8- and 16-bit integers; fp16 and bf16 only add; float max and min only
    fp32 and fp64; atomic_cas only 16-, 32- and 64-bit elements."""
    batches = []
    for op, dname in [("add", "i8"), ("add", "i16"), ("add", "u16"),
                      ("max", "u8"), ("xchg", "i16"), ("max", "fp16"),
                      ("min", "bf16"), ("xchg", "fp16"), ("cas", "i8")]:
        dt = D(dname)
        b = _grid_batch("atomic/%s/%s/128" % (op, dname), "atomic", 128, None)
        b.add_input("acc", dt, (128,), [0] * 128)
        # Triton casts the value to the pointee type: a literal will do (and
        # keeps 8-bit loads, which the GPU does not take yet, out of it).
        args = "0, 1" if op == "cas" else "1"
        b.cases.append(Case("atomic/%s/%s/128" % (op, dname),
                            ["tl.atomic_%s(acc + offs, %s)" % (op, args)],
                            [], error=""))
        batches.append(b)
    return batches


def other_batches():
    return (reduce_batches() + scan_batches() + shape_batches() +
            memory_batches() + atomic_batches() + atomic_error_batches() +
            dot_batches())
