//===- Half.h - IEEE half precision on the host ---------------------------===//
//
// fp16 values for the examples' inputs and outputs, without a compiler's
// _Float16: round to nearest even on the way in, exact on the way out.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_EXAMPLES_HALF_H
#define TILE_EXAMPLES_HALF_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace example {

/// IEEE half precision, rounded to nearest even.
inline uint16_t toHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exponent = int32_t((x >> 23) & 0xff) - 127 + 15;
  uint32_t mantissa = x & 0x7fffff;
  if (exponent >= 31)
    return uint16_t(sign | 0x7c00);
  if (exponent <= 0) {
    if (exponent < -10)
      return uint16_t(sign);
    mantissa |= 0x800000;
    uint32_t shift = uint32_t(14 - exponent);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1)))
      ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = sign | (uint32_t(exponent) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest == 0x1000 && (half & 1)))
    ++half;
  return uint16_t(half);
}

inline float fromHalf(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exponent = (h >> 10) & 0x1f;
  uint32_t mantissa = h & 0x3ff;
  float value;
  if (exponent == 0)
    value = std::ldexp(float(mantissa), -24);
  else if (exponent == 31)
    value = mantissa ? NAN : INFINITY;
  else
    value = std::ldexp(float(mantissa | 0x400), int(exponent) - 25);
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  bits |= sign;
  std::memcpy(&value, &bits, 4);
  return value;
}

} // namespace example

#endif // TILE_EXAMPLES_HALF_H
