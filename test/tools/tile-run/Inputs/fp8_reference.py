#!/usr/bin/env python3
"""Expected buffers of fp8-convert.tile, computed independently of Tile.

Python's standard library only: every fp8 and fp16 value is an exact
Fraction, enumerated from its bit fields, and rounding picks among the
enumerated values by comparing distances (ties by the even code, or away
from zero for fp8e4b15) instead of scaling and rounding as the interpreter
does. Prints the lines `tile-run --print-buffer decoded --print-buffer
encoded` prints; fp8-convert.expected is its output:

    python3 fp8_reference.py > fp8-convert.expected
"""

import bisect
import math
import struct
from fractions import Fraction

N = 8192


def fields_value(code, exp_bits, man_bits, bias):
    """The value of a sign/exponent/mantissa code (no special codes)."""
    sign = -1 if code >> (exp_bits + man_bits) & 1 else 1
    e = (code >> man_bits) & ((1 << exp_bits) - 1)
    m = code & ((1 << man_bits) - 1)
    if e == 0:
        v = Fraction(m, 1 << man_bits) * Fraction(2) ** (1 - bias)
    else:
        v = (1 + Fraction(m, 1 << man_bits)) * Fraction(2) ** (e - bias)
    if v == 0:
        return math.copysign(0.0, sign)  # the sign of zero shows as -0
    return sign * v


def decode(code, fmt):
    """fp8 code -> Fraction, or 'nan' / 'inf' / '-inf' / '-nan'."""
    neg = code & 0x80
    if fmt == "e4nv":
        if code & 0x7F == 0x7F:
            return "-nan" if neg else "nan"
        return fields_value(code, 4, 3, 7)
    if fmt == "e5":
        if (code >> 2) & 0x1F == 0x1F:
            if code & 3:
                return "-nan" if neg else "nan"
            return "-inf" if neg else "inf"
        return fields_value(code, 5, 2, 15)
    return fields_value(code, 4, 3, 15)  # e4b15: every code finite


def finite_codes(fmt):
    """(value, code) of the non-negative finite codes, ascending."""
    out = []
    for code in range(128):
        v = decode(code, fmt)
        if not isinstance(v, str):
            out.append((v, code))
    return sorted(out)


F16 = [(fields_value(c, 5, 10, 15), c) for c in range(0x7C00)]
F16_VALUES = [v for v, _ in F16]
TABLES = {f: finite_codes(f) for f in ("e4nv", "e5", "e4b15")}


def nearest(mag, table, ties):
    """Index in `table` of the value nearest to mag (< the largest)."""
    values = [v for v, _ in table] if len(table) < 256 else F16_VALUES
    lo = bisect.bisect_right(values, mag) - 1
    if table[lo][0] == mag or lo + 1 == len(table):
        return lo
    dlo, dhi = mag - table[lo][0], table[lo + 1][0] - mag
    if dlo != dhi:
        return lo if dlo < dhi else lo + 1
    if ties == "even":
        return lo if table[lo][1] % 2 == 0 else lo + 1
    return lo + 1  # away from zero


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]


def to_f16(x, toward_zero):
    """fp32 value (Python float) -> fp16 value (Fraction, or inf/nan)."""
    if math.isnan(x):
        return x
    neg = math.copysign(1, x) < 0
    if math.isinf(x):
        return x
    mag = Fraction(abs(x))
    largest = F16[-1][0]
    if toward_zero:
        if mag >= largest:
            v = largest
        else:
            v = F16_VALUES[bisect.bisect_right(F16_VALUES, mag) - 1]
    else:
        # 65504 + 16 rounds to the even code 0x7c00: infinity.
        if mag >= largest + 16:
            return -math.inf if neg else math.inf
        v = F16[nearest(mag, F16, "even")][0]
    return (-v if neg else v) if v else (-0.0 if neg else 0.0)


def to_bf16(x):
    if math.isnan(x):
        return x
    bits = struct.unpack("<I", struct.pack("<f", x))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return f32(bits)


def sign_of(x):
    return math.copysign(1, float(x)) < 0


def encode(x, fmt, toward_zero=False):
    """float (fp32 value or Fraction) -> fp8 code, NaN as 0x7f."""
    if isinstance(x, float) and math.isnan(x):
        return 0x7F
    neg = sign_of(x)
    sign = 0x80 if neg else 0
    table = TABLES[fmt]
    if fmt == "e4b15":
        # Triton: to fp16 toward zero, |h| clamped to 1.75, half away.
        h = to_f16(float(x), True) if isinstance(x, float) else x
        mag = Fraction(1.75) if math.isinf(float(h)) else min(
            abs(Fraction(h)), Fraction(1.75))
        return sign | table[nearest(mag, table, "away")][1]
    largest = table[-1]
    if isinstance(x, float) and math.isinf(x):
        if fmt == "e5" and toward_zero:
            return sign | 0x7C
        return sign | largest[1]  # satfinite
    mag = abs(Fraction(x))
    if mag >= largest[0]:
        return sign | largest[1]
    if toward_zero:
        return sign | max((v, c) for v, c in table if v <= mag)[1]
    return sign | table[nearest(mag, table, "even")][1]


def signed(code):
    return code - 256 if code >= 128 else code


def fmt_value(v):
    if isinstance(v, str):
        return v
    return "%.9g" % float(v)


def main():
    decoded = []
    for fmt in ("e4nv", "e5", "e4b15"):
        decoded += [decode(c, fmt) for c in range(256)]
    # Through bf16 / fp16 every fp8 value is exact.
    decoded += [decode(c, "e4nv") for c in range(256)]
    decoded += [decode(c, "e5") for c in range(256)]
    decoded += [decode(c, "e4b15") for c in range(256)]
    print("decoded = " + " ".join(fmt_value(v) for v in decoded))

    xs = []
    for i in range(N):
        bits = 0x30000000 + (i // 2) * 0x20000
        if i >= N - 2:
            bits = 0x7F800000
        elif i >= N - 4:
            bits = 0x7FC00000
        elif i >= N - 6:
            bits = 0
        elif i >= N - 8:
            bits = 0x7F7FFFFF
        elif i >= N - 10:
            bits = 1
        x = f32(bits)
        xs.append(-x if i % 2 == 1 else x)
    no_nan = [0.0 if math.isnan(x) else x for x in xs]

    def half_fraction(x):
        h = to_f16(x, False)
        return h if isinstance(h, float) and (math.isnan(h) or math.isinf(h)) \
            else (Fraction(h) if h != 0 else h)

    rows = [
        [encode(x, "e4nv") for x in xs],
        [encode(x, "e5") for x in xs],
        [encode(x, "e5", toward_zero=True) for x in xs],
        [encode(x, "e4b15") for x in no_nan],
        [encode(fp16_float(x), "e4nv") for x in xs],
        [encode(to_bf16(x), "e5") for x in xs],
        [encode_b15_from_f16(x) for x in no_nan],
    ]
    print("encoded = " + " ".join(str(signed(c)) for row in rows for c in row))


def fp16_float(x):
    """fp32 -> fp16 (to nearest even) as a Python float."""
    h = to_f16(x, False)
    return float(h)


def encode_b15_from_f16(x):
    h = fp16_float(x)
    neg = sign_of(h)
    mag = Fraction(1.75) if math.isinf(h) else min(abs(Fraction(h)),
                                                    Fraction(1.75))
    return (0x80 if neg else 0) | TABLES["e4b15"][nearest(
        mag, TABLES["e4b15"], "away")][1]


if __name__ == "__main__":
    main()
