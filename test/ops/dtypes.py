#===- dtypes.py - dtypes of the op suite, rounding, .npy files -----------===#
#
# The element types the op suite knows (one row each in DTYPES), exact
# rounding of Python numbers to them (round to nearest even, overflow to
# infinity, integer wraparound), and the .npy files tile-run reads and
# writes (format version 1, little-endian, C order). Python 3 standard
# library only.
#
#===----------------------------------------------------------------------===#

import math
import struct
from fractions import Fraction


class DType:
    """One element type: its names in tile-run's launch description, in
    triton.language and in .npy headers, and its kind and width."""

    def __init__(self, name, tl, kind, bits, descr, mant=None, emin=None,
                 emax=None, bias=None, largest=None):
        self.name = name  # tile-run's name: fp32, i8, ...
        self.tl = tl  # tl.float32, ...
        self.kind = kind  # "int", "uint", "float", "bool"
        self.bits = bits
        self.descr = descr  # numpy's descr
        self.mant = mant  # floats: precision in bits (with the implicit one)
        self.emin = emin  # floats: exponent of the smallest normal
        self.emax = emax  # floats: exponent of the largest finite
        # floats: the exponent bias (IEEE: emax); formats without infinities
        # (fp8e4nv) give their largest finite value, and encode NaN as all
        # ones.
        self.bias = emax if bias is None else bias
        self.largest = largest

    def __repr__(self):
        return self.name

    @property
    def is_float(self):
        return self.kind == "float"

    @property
    def is_int(self):  # integers, bool included (as Triton's is_int)
        return self.kind in ("int", "uint", "bool")

    @property
    def signed(self):
        return self.kind == "int"

    @property
    def nbytes(self):
        return max(1, self.bits // 8)

    def int_min(self):
        return -(1 << (self.bits - 1)) if self.signed else 0

    def int_max(self):
        if self.kind == "bool":
            return 1
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def max_finite(self):
        if self.largest is not None:
            return self.largest
        return math.ldexp(2 - 2.0 ** (1 - self.mant), self.emax)


_ROWS = [
    DType("i1", "tl.int1", "bool", 1, "|b1"),
    DType("i8", "tl.int8", "int", 8, "|i1"),
    DType("i16", "tl.int16", "int", 16, "<i2"),
    DType("i32", "tl.int32", "int", 32, "<i4"),
    DType("i64", "tl.int64", "int", 64, "<i8"),
    DType("u8", "tl.uint8", "uint", 8, "|u1"),
    DType("u16", "tl.uint16", "uint", 16, "<u2"),
    DType("u32", "tl.uint32", "uint", 32, "<u4"),
    DType("u64", "tl.uint64", "uint", 64, "<u8"),
    DType("fp16", "tl.float16", "float", 16, "<f2", 11, -14, 15),
    DType("bf16", "tl.bfloat16", "float", 16, "bfloat16", 8, -126, 127),
    DType("fp32", "tl.float32", "float", 32, "<f4", 24, -126, 127),
    DType("fp64", "tl.float64", "float", 64, "<f8", 53, -1022, 1023),
    # fp8 rows go here once tile-run and the interpreter take them (and
    # their names in ALL_DTYPES or a family's list):
    # DType("fp8e5", "tl.float8e5", "float", 8, "float8_e5m2", 3, -14, 15),
    # DType("fp8e4nv", "tl.float8e4nv", "float", 8, "float8_e4m3fn", 4, -6,
    #       8, bias=7, largest=448.0),
]
DTYPES = {d.name: d for d in _ROWS}

INT_DTYPES = ["i8", "i16", "i32", "i64"]
UINT_DTYPES = ["u8", "u16", "u32", "u64"]
FLOAT_DTYPES = ["fp16", "bf16", "fp32", "fp64"]
# The suite's dtypes, as test_core's dtypes_with_bfloat16.
ALL_DTYPES = INT_DTYPES + UINT_DTYPES + FLOAT_DTYPES


def D(name):
    return DTYPES[name]


# ===--------------------------- rounding --------------------------------=== #


def wrap_int(v, dt):
    """An integer reduced to dt's width (two's complement wraparound)."""
    if dt.kind == "bool":
        return 1 if v else 0
    v &= (1 << dt.bits) - 1
    if dt.signed and v >= 1 << (dt.bits - 1):
        v -= 1 << dt.bits
    return v


def _round_exact(v, dt):
    """Round an int or a float to dt's precision, to nearest even (overflow
    gives infinity)."""
    if v == 0:
        return 0.0 if isinstance(v, int) else v
    if isinstance(v, int):
        e = abs(v).bit_length() - 1
        quantum = max(e, dt.emin) - (dt.mant - 1)
        k = v if quantum <= 0 else round(Fraction(v, 1 << quantum))
    else:
        e = math.frexp(v)[1] - 1
        quantum = max(e, dt.emin) - (dt.mant - 1)
        k = round(math.ldexp(v, -quantum))  # exact scaling; ties to even
    if quantum <= 0 and isinstance(v, int):
        r = float(v) if abs(v) <= (1 << 53) else math.inf
    else:
        r = math.ldexp(k, quantum) if k.bit_length() < 1000 else math.inf
    if abs(r) > dt.max_finite():
        return math.copysign(math.inf, v)
    return r


def round_to(x, dt):
    """A Python number as the nearest value of dt: ints wrap, floats round to
    nearest even (overflow gives infinity), bool is x != 0."""
    if dt.kind == "bool":
        return 1 if x != 0 else 0
    if dt.is_int:
        return wrap_int(int(x), dt)
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    if dt.name == "fp64":
        return float(x)
    if isinstance(x, int) or dt.name not in _STRUCT:
        return _round_exact(x, dt)
    fmt = "<" + _STRUCT[dt.name]
    try:
        return struct.unpack(fmt, struct.pack(fmt, x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def ulp(x, dt):
    """The spacing of dt's values at |x| (its subnormal spacing near 0)."""
    x = abs(x)
    if x == 0 or math.isinf(x) or math.isnan(x):
        e = dt.emin
    else:
        e = max(math.frexp(x)[1] - 1, dt.emin)
    return math.ldexp(1.0, e - (dt.mant - 1))


# ===--------------------------- .npy files ------------------------------=== #


_STRUCT = {"fp16": "e", "fp32": "f", "fp64": "d"}


def _float_bits(x, dt):
    """The bits of a value of dt (already representable) in its format:
    sign, exponent biased by dt.bias, mantissa without the implicit one."""
    frac = dt.mant - 1
    ebits = dt.bits - 1 - frac
    top = (1 << ebits) - 1
    if math.isnan(x):
        if dt.largest is not None:
            return (1 << (dt.bits - 1)) - 1
        return (top << frac) | (1 << (frac - 1))
    sign = (1 << (dt.bits - 1)) if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if math.isinf(a):
        return sign | (top << frac)
    if a == 0:
        return sign
    e = math.frexp(a)[1] - 1
    if e < dt.emin:  # subnormal
        return sign | int(math.ldexp(a, frac - dt.emin))
    m = int(math.ldexp(a, frac - e)) - (1 << frac)
    return sign | ((e + dt.bias) << frac) | m


def _float_value(bits, dt):
    frac = dt.mant - 1
    ebits = dt.bits - 1 - frac
    top = (1 << ebits) - 1
    sign = -1.0 if bits >> (dt.bits - 1) else 1.0
    e = (bits >> frac) & top
    m = bits & ((1 << frac) - 1)
    if dt.largest is not None:
        if e == top and m == (1 << frac) - 1:
            return math.nan
    elif e == top:
        return sign * math.inf if m == 0 else math.nan
    if e == 0:
        return sign * math.ldexp(m, dt.emin - frac)
    return sign * math.ldexp(m + (1 << frac), e - dt.bias - frac)


def encode(values, dt):
    """The little-endian bytes of a flat list of values of dt."""
    if dt.kind == "bool":
        return bytes(1 if v else 0 for v in values)
    n = dt.nbytes
    if dt.is_int:
        mask = (1 << dt.bits) - 1
        return b"".join((int(v) & mask).to_bytes(n, "little") for v in values)
    if dt.name in _STRUCT:
        return struct.pack("<%d%s" % (len(values), _STRUCT[dt.name]), *values)
    return b"".join(_float_bits(round_to(v, dt) if not math.isnan(v) else v,
                                dt).to_bytes(n, "little") for v in values)


def decode(data, dt, count):
    """count values of dt from little-endian bytes."""
    if dt.kind == "bool":
        return [1 if b else 0 for b in data[:count]]
    n = dt.nbytes
    if dt.is_int:
        return [int.from_bytes(data[i * n:(i + 1) * n], "little",
                               signed=dt.signed) for i in range(count)]
    if dt.name in _STRUCT:
        fmt = _STRUCT[dt.name]
        return list(struct.unpack("<%d%s" % (count, fmt),
                                  data[:count * struct.calcsize(fmt)]))
    return [_float_value(int.from_bytes(data[i * n:(i + 1) * n], "little"), dt)
            for i in range(count)]


def write_npy(path, values, dt, shape):
    shape_text = "(%s)" % "".join("%d," % s for s in shape) if len(shape) == 1 \
        else "(%s)" % ", ".join(str(s) for s in shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        dt.descr, shape_text)
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00")
        f.write(struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(encode(values, dt))


def read_npy(path):
    """(descr, shape, raw data bytes) of a .npy file of version 1 to 3."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError("%s is not a .npy file" % path)
    major = data[6]
    if major == 1:
        hlen = struct.unpack("<H", data[8:10])[0]
        start = 10
    else:
        hlen = struct.unpack("<I", data[8:12])[0]
        start = 12
    header = data[start:start + hlen].decode("latin1")
    descr = header.split("'descr':")[1].split(",")[0].strip().strip("'\"")
    shape_text = header.split("'shape':")[1].split(")")[0].strip(" (")
    shape = tuple(int(s) for s in shape_text.split(",") if s.strip())
    return descr, shape, data[start + hlen:]


def read_values(path, dt):
    descr, shape, raw = read_npy(path)
    if descr != dt.descr:
        raise ValueError("%s holds %s, expected %s" % (path, descr, dt.descr))
    count = 1
    for s in shape:
        count *= s
    return decode(raw, dt, count), shape
