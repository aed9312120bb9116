#!/usr/bin/env python3
"""Triton's random numbers (triton.language.random, Triton 3.4 and later)
computed with Python's standard library only: the independent source of the
expected values in test/Interpreter/random.test and test/Frontend/random.tile.

    scripts/philox-reference.py SEED OFFSET...   one line per offset:
        offset, randint4x's four words (uint32), rand and rand4x (fp32 bits
        and value), randn4x (value, each fp32 operation of Box-Muller
        rounded from float64 math: within a few fp32 ulp of a GPU's
        approximate log, cos and sin)
    scripts/philox-reference.py --rounds N ...   another n_rounds (default 10)
    scripts/philox-reference.py [--rounds N] --impl 32|64 C0 C1 C2 C3 K0 K1
        philox_impl's four words for a state and key (Philox-4x32 or 4x64)
    scripts/philox-reference.py --uniform 32|64 X...
        uint_to_uniform_float of 32- or 64-bit integers
    An offset outside the int32 range is taken as an int64 offset.

What it implements, from Triton's random.py: Philox-4x32 with Triton's
constants; a 64-bit seed splits into key (low word, high word); a 64-bit
offset fills counter words 0 (low) and 1 (high), an int32 offset word 0
(sign bits dropped: it is reinterpreted as uint32); uint_to_uniform_float
reinterprets the word as int32, maps x < 0 to -x - 1 and multiplies by the
fp32 scale 4.6566127342e-10 in fp32; Box-Muller with u1 clamped to 1e-7.
"""

import math
import struct
import sys

M32 = 0xFFFFFFFF
M64 = 0xFFFFFFFFFFFFFFFF
# (KEY_A, KEY_B, ROUND_A, ROUND_B) of Philox-4x32 and Philox-4x64.
CONSTANTS = {
    32: (0x9E3779B9, 0xBB67AE85, 0xD2511F53, 0xCD9E8D57),
    64: (0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B, 0xD2E7470EE14C6C93,
         0xCA5A826395121157),
}


def philox_impl(c, k0, k1, rounds=10, bits=32):
    key_a, key_b, round_a, round_b = CONSTANTS[bits]
    mask = (1 << bits) - 1
    c0, c1, c2, c3 = c
    for _ in range(rounds):
        hi_b = (round_b * c2) >> bits
        hi_a = (round_a * c0) >> bits
        c0, c1, c2, c3 = (hi_b ^ c1 ^ k0, (round_b * c2) & mask,
                          hi_a ^ c3 ^ k1, (round_a * c0) & mask)
        k0 = (k0 + key_a) & mask
        k1 = (k1 + key_b) & mask
    return c0, c1, c2, c3


def randint4x(seed, offset, rounds=10, offset_bits=32):
    """seed: a Python int (a negative one as its 64-bit two's complement, as
    Triton's seed.to(tl.uint64) sign-extends); offset: the offset's value in
    an integer of offset_bits bits."""
    seed &= M64
    lo = offset & M32
    hi = (offset >> 32) & M32 if offset_bits > 32 else 0
    return philox_impl((lo, hi, 0, 0), seed & M32, seed >> 32, rounds)


def f32(x):
    """x rounded to the nearest fp32 (ties to even)."""
    return struct.unpack('<f', struct.pack('<f', x))[0]


def f32_bits(x):
    return struct.unpack('<I', struct.pack('<f', x))[0]


SCALE32 = f32(4.6566127342e-10)


SCALE64 = f32(1.0842020432385337e-19)


def int_to_f32(x):
    """An integer rounded to the nearest fp32 once (ties to even)."""
    a = abs(x)
    if a >= 1 << 24:
        shift = a.bit_length() - 24
        q, rem = a >> shift, a & ((1 << shift) - 1)
        half = 1 << (shift - 1)
        if rem > half or (rem == half and q & 1):
            q += 1
        a = q << shift
    return f32(-float(a) if x < 0 else float(a))


def uniform(word, bits=32):
    """uint_to_uniform_float of a word of `bits` bits."""
    x = word - (1 << bits) if word >> (bits - 1) & 1 else word
    if x < 0:
        # -x - 1 in the word's width (INT_MIN wraps to INT_MAX).
        x = -x - 1
    # The int -> fp32 conversion rounds once; the product of two fp32 values
    # is exact in float64, so f32() of it is the fp32 multiplication's.
    return f32(int_to_f32(x) * (SCALE32 if bits == 32 else SCALE64))


def normal_pair(u1, u2):
    """Box-Muller with every fp32 operation rounded once from its float64
    value (what Tile's interpreter computes; a GPU's approximate lg2, sin and
    cos differ from it by a few ulp)."""
    u1 = max(f32(1.0e-7), u1)
    th = f32(f32(6.283185307179586) * u2)
    r = f32(math.sqrt(f32(-2.0 * f32(math.log(u1)))))
    return f32(r * f32(math.cos(th))), f32(r * f32(math.sin(th)))


def main(argv):
    rounds = 10
    if argv[:1] == ['--rounds']:
        rounds = int(argv[1])
        argv = argv[2:]
    if argv[:1] == ['--impl']:
        bits = int(argv[1])
        c0, c1, c2, c3, k0, k1 = (int(a, 0) for a in argv[2:8])
        words = philox_impl((c0, c1, c2, c3), k0, k1, rounds, bits)
        print('philox_impl', *('0x%x' % w for w in words))
        return
    if argv[:1] == ['--uniform']:
        bits = int(argv[1])
        for text in argv[2:]:
            v = uniform(int(text, 0) & ((1 << bits) - 1), bits)
            print('uniform', text, '0x%08x' % f32_bits(v), '%.9g' % v)
        return
    if len(argv) < 2:
        sys.exit(__doc__)
    seed = int(argv[0], 0)
    for text in argv[1:]:
        offset = int(text, 0)
        words = randint4x(seed, offset, rounds,
                          64 if not -2**31 <= offset < 2**31 else 32)
        u = [uniform(w) for w in words]
        n12 = normal_pair(u[0], u[1])
        n34 = normal_pair(u[2], u[3])
        print('offset', offset)
        print('  randint4x', *words)
        print('  rand4x bits', *('0x%08x' % f32_bits(v) for v in u))
        print('  rand4x', *('%.9g' % v for v in u))
        print('  randn4x', *('%.9g' % v for v in (*n12, *n34)))


if __name__ == '__main__':
    main(sys.argv[1:])
