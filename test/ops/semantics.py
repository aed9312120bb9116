#===- semantics.py - Triton's typing rules and reference arithmetic ------===#
#
# What the op suite expects of each op, written from Triton 3.x's
# python/triton/language/semantic.py and math.py: the computation type of
# two operands (computation_type_impl, integer_promote_impl), which
# operand dtypes an op accepts (the invalid ones are cases that expect a
# diagnostic), Triton's casts (cast()) and the per-element reference of each
# op, computed in Python on exact values and rounded to the result dtype.
#
#===----------------------------------------------------------------------===#

import math

from dtypes import D, round_to, wrap_int


class TypeErrorCase(Exception):
    """The op does not accept these operands (Triton raises)."""


def integer_promote(a, b):
    """integer_promote_impl: the wider type; with mixed signedness the
    unsigned one if it is at least as wide, else the signed one."""
    if a.signed == b.signed:
        return a if a.bits > b.bits else b
    if not a.signed:
        return a if a.bits >= b.bits else b
    return b if b.bits >= a.bits else a


def computation_type(a, b, div_or_mod=False):
    """computation_type_impl for two blocks."""
    if a.name == "fp64" or b.name == "fp64":
        return D("fp64")
    if a.name == "fp32" or b.name == "fp32":
        return D("fp32")
    if a.name == "fp16" or b.name == "fp16":
        return D("fp32") if div_or_mod else D("fp16")
    if a.name == "bf16" and b.name == "bf16":
        return D("fp32") if div_or_mod else D("bf16")
    if a.name == "bf16" or b.name == "bf16":
        return D("fp32")
    if div_or_mod and a.signed != b.signed:
        raise TypeErrorCase("/, // or % with different signedness")
    return integer_promote(a, b)


def cast(v, src, dst):
    """Triton's cast() of one value: float->int truncates toward zero,
    int->int wraps (sign-extending a signed source), to bool is v != 0,
    int->float and float->float round to nearest even."""
    if dst.kind == "bool":
        return 1 if v != 0 else 0
    if dst.is_int:
        if src.is_float:
            return wrap_int(int(v), dst)  # math.trunc; inputs stay in range
        return wrap_int(v, dst)
    return round_to(v, dst)


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def trunc_mod(a, b):
    return a - b * trunc_div(a, b)


# ===------------------------ binary operators ---------------------------=== #

# name -> (expression, kind): kind "arith" (+ - * and maximum/minimum),
# "div" (/, //, %), "bitwise", "shift", "cmp". Comparisons are stored as
# int32 (0 or 1): bool buffers do not run on the GPU yet, and the casts and
# loads/stores families test those.
BINARY_OPS = {
    "add": ("a + b", "arith"),
    "sub": ("a - b", "arith"),
    "mul": ("a * b", "arith"),
    "maximum": ("tl.maximum(a, b)", "arith"),
    "minimum": ("tl.minimum(a, b)", "arith"),
    "where": ("tl.where(c, a, b)", "arith"),
    "truediv": ("a / d", "div"),
    "floordiv": ("a // d", "div"),
    "mod": ("a % d", "div"),
    "and": ("a & b", "bitwise"),
    "or": ("a | b", "bitwise"),
    "xor": ("a ^ b", "bitwise"),
    "shl": ("a << s", "shift"),
    "shr": ("a >> s", "shift"),
    "lt": ("(a < b).to(tl.int32)", "cmp"),
    "le": ("(a <= b).to(tl.int32)", "cmp"),
    "gt": ("(a > b).to(tl.int32)", "cmp"),
    "ge": ("(a >= b).to(tl.int32)", "cmp"),
    "eq": ("(a == b).to(tl.int32)", "cmp"),
    "ne": ("(a != b).to(tl.int32)", "cmp"),
}

_CMP = {
    "lt": lambda x, y: x < y,
    "le": lambda x, y: x <= y,
    "gt": lambda x, y: x > y,
    "ge": lambda x, y: x >= y,
    "eq": lambda x, y: x == y,
    "ne": lambda x, y: x != y,
}


def binary_result(op, ta, tb):
    """The result dtype of `op` on blocks of ta and tb, or TypeErrorCase."""
    kind = BINARY_OPS[op][1]
    if kind in ("bitwise", "shift"):
        if not (ta.is_int and tb.is_int):
            raise TypeErrorCase("bitwise op on floats")
        return integer_promote(ta, tb)
    ct = computation_type(ta, tb, kind == "div")
    if op == "floordiv" and ct.is_float:
        raise TypeErrorCase("// on floats")
    if op == "truediv" and ct.is_int:
        return D("fp32")
    if kind == "cmp":
        return D("i32")
    return ct


def binary_ref(op, ta, tb):
    """A function (x, y[, c]) -> result value for op on ta, tb."""
    kind = BINARY_OPS[op][1]
    rt = binary_result(op, ta, tb)
    if kind in ("bitwise", "shift"):
        ct = rt
    else:
        ct = computation_type(ta, tb, kind == "div")

    def conv(x, y):
        return cast(x, ta, ct), cast(y, tb, ct)

    if op == "where":
        return lambda x, y, c: cast(x, ta, ct) if c else cast(y, tb, ct)
    if kind == "cmp":
        f = _CMP[op]
        return lambda x, y: 1 if f(*conv(x, y)) else 0
    if op == "truediv":
        if ct.is_int:
            return lambda x, y: round_to(
                cast(cast(x, ta, ct), ct, D("fp32")) /
                cast(cast(y, tb, ct), ct, D("fp32")), D("fp32"))
        return lambda x, y: round_to(conv(x, y)[0] / conv(x, y)[1], ct)
    if ct.is_float:
        fop = {
            "add": lambda x, y: x + y,
            "sub": lambda x, y: x - y,
            "mul": lambda x, y: x * y,
            "maximum": max,
            "minimum": min,
            "mod": math.fmod,
        }[op]
        return lambda x, y: round_to(fop(*conv(x, y)), ct)
    bits = ct.bits
    iop = {
        "add": lambda x, y: x + y,
        "sub": lambda x, y: x - y,
        "mul": lambda x, y: x * y,
        "maximum": max,
        "minimum": min,
        "floordiv": trunc_div,
        "mod": trunc_mod,
        "and": lambda x, y: x & y,
        "or": lambda x, y: x | y,
        "xor": lambda x, y: x ^ y,
        "shl": lambda x, y: x << y,
        # Arithmetic on signed, logical on unsigned: Python's >> on the
        # value as the type holds it does both.
        "shr": lambda x, y: x >> y,
    }[op]
    del bits
    return lambda x, y: wrap_int(iop(*conv(x, y)), ct)


# ===------------------------ unary operators ----------------------------=== #

# name -> (expression, accepted dtypes or None for every numeric one,
#          domain of the input: "any" or "pos", float function)
_FP = ("fp32", "fp64")
UNARY_OPS = {
    "neg": ("-a", None, "any", None),
    "abs": ("tl.abs(a)", None, "any", abs),
    "exp": ("tl.exp(a)", _FP, "any", math.exp),
    "log": ("tl.log(p)", _FP, "pos", math.log),
    "sqrt": ("tl.sqrt(p)", _FP, "pos", math.sqrt),
    "sin": ("tl.sin(a)", _FP, "any", math.sin),
    "cos": ("tl.cos(a)", _FP, "any", math.cos),
    "exp2": ("tl.exp2(a)", _FP, "any", lambda x: 2.0 ** x),
    "log2": ("tl.log2(p)", _FP, "pos", math.log2),
    "rsqrt": ("tl.rsqrt(p)", _FP, "pos", lambda x: 1 / math.sqrt(x)),
    "erf": ("tl.erf(a)", _FP, "any", math.erf),
    "sigmoid": ("tl.sigmoid(a)", _FP, "any", lambda x: 1 / (1 + math.exp(-x))),
    "floor": ("tl.floor(a)", ("fp16", "bf16") + _FP, "any", math.floor),
    "ceil": ("tl.ceil(a)", ("fp16", "bf16") + _FP, "any", math.ceil),
    "clamp": ("tl.clamp(a, -1.5, 2.5)", ("fp16", "bf16") + _FP, "any",
              lambda x: min(max(x, -1.5), 2.5)),
    "invert": ("~a", "int", "any", None),
    "not": ("not a", "bool", "any", None),
}


def unary_accepts(op, dt):
    accepted = UNARY_OPS[op][1]
    if accepted is None:
        return dt.kind != "bool"
    if accepted == "int":
        return dt.kind in ("int", "uint")
    if accepted == "bool":
        return dt.kind == "bool"
    return dt.name in accepted


def unary_ref(op, dt):
    """(result dtype, function x -> value, tolerance class)."""
    if op == "neg":
        if dt.is_float:
            return dt, lambda x: -x, "exact"
        return dt, lambda x: wrap_int(-x, dt), "exact"
    if op == "abs":
        if dt.is_float:
            return dt, abs, "exact"
        return dt, lambda x: wrap_int(abs(x), dt), "exact"
    if op == "invert":
        return dt, lambda x: wrap_int(~x, dt), "exact"
    if op == "not":
        return dt, lambda x: 0 if x else 1, "exact"
    f = UNARY_OPS[op][3]
    if op in ("floor", "ceil", "clamp"):
        return dt, lambda x: float(f(x)), "exact"
    if op == "sqrt":
        return dt, lambda x: round_to(f(x), dt), "sqrt"
    return dt, lambda x: f(x), "transcendental"


# ===------------------- operators with a Python number -------------------=== #

# name -> (expression, operator in BINARY_OPS, the number, number on the
# left). Triton's computation_type_impl: a number of a kind (bool < int <
# float) no higher than the block's takes the block's type; a float number
# with an integer block is fp32 (to_tensor_type).
SCALAR_OPS = {
    "add3": ("a + 3", "add", 3, False),
    "rsub3": ("3 - a", "sub", 3, True),
    "mul3": ("a * 3", "mul", 3, False),
    "add2.5": ("a + 2.5", "add", 2.5, False),
    "mul-0.5": ("a * -0.5", "mul", -0.5, False),
    "div2": ("a / 2", "truediv", 2, False),
    "floordiv3": ("a // 3", "floordiv", 3, False),
    "mod3": ("a % 3", "mod", 3, False),
    "rfloordiv": ("100 // d", "floordiv", 100, True),
    "lt3": ("(a < 3).to(tl.int32)", "lt", 3, False),
    "maximum3": ("tl.maximum(a, 3)", "maximum", 3, False),
    "and3": ("a & 3", "and", 3, False),
    "shl2": ("a << 2", "shl", 2, False),
    "shr1": ("a >> 1", "shr", 1, False),
    "addTrue": ("a + True", "add", True, False),
    "sub-3": ("a + -3", "add", -3, False),
    "add300": ("a + 300", "add", 300, False),
}


def scalar_number_type(number, dt):
    """The dtype a Python number takes against a block of dt."""
    kind = 0 if isinstance(number, bool) else \
        1 if isinstance(number, int) else 2
    block_kind = 2 if dt.is_float else 0 if dt.kind == "bool" else 1
    if kind <= block_kind:
        return dt
    return D("i32") if kind == 1 else D("fp32")


def scalar_result(name, dt):
    """(result dtype, function x -> value) of a SCALAR_OPS case on a block of
    dt, or TypeErrorCase where Triton raises."""
    _, op, number, left = SCALAR_OPS[name]
    nt = scalar_number_type(number, dt)
    if nt.is_int and not isinstance(number, bool):
        ct = integer_promote(dt, nt) if dt.is_int else nt
        if nt is dt and not (dt.int_min() <= number <= dt.int_max()):
            raise TypeErrorCase("scalar %d out of range for %s" % (number,
                                                                    dt.name))
        if number < 0 and not ct.signed:
            raise TypeErrorCase("negative scalar with an unsigned block")
    ta, tb = (nt, dt) if left else (dt, nt)
    rt = binary_result(op, ta, tb)
    f = binary_ref(op, ta, tb)
    value = cast(int(number) if isinstance(number, bool) else number,
                 D("i1") if isinstance(number, bool) else nt, nt) \
        if nt.is_float or isinstance(number, bool) else number
    if left:
        return rt, lambda x: f(value, x)
    return rt, lambda x: f(x, value)
