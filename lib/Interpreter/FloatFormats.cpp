//===- FloatFormats.cpp - fp16, bf16, tf32 and fp8 on the host ------------===//

#include "tile/Interpreter/FloatFormats.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace mlir::tile::interp;

static uint64_t bitsOf(double x) {
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

static double fromBits(uint64_t bits) {
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

/// The exponent field of x: ilogb(x) + 1023 for a normal x.
static int biasedExponent(double x) { return int((bitsOf(x) >> 52) & 0x7ff); }

/// Rounds x to a binary format with `mantissaBits` stored bits, smallest
/// normal exponent `minExponent` (subnormals below) and largest finite
/// value `maxFinite`; overflow goes to infinity. Exact from a double for
/// formats of up to 52 bits, so there is no double rounding.
static double roundToFormat(double x, int mantissaBits, int minExponent,
                            double maxFinite, bool tiesAway) {
  if (!std::isfinite(x) || x == 0)
    return x;
  // To nearest even, the common case (every fp16 and bf16 result the
  // interpreter makes): adding c = 1.5 * 2^(e - mantissaBits + 52) puts the
  // sum in a binade whose ulp is the format's at x's exponent e, so the
  // hardware's rounding of the sum is the format's; subtracting c is exact.
  // Needs |x| < 2^(e + 1) <= c / 2, true for formats of up to 50 bits.
  // (A double subnormal's exponent field is 0: below any format's.)
  int exponent = std::max(biasedExponent(x) - 1023, minExponent);
  if (!tiesAway && mantissaBits <= 50 && exponent - mantissaBits + 52 <= 1023) {
    double c = fromBits(uint64_t(exponent - mantissaBits + 52 + 1023) << 52 |
                        uint64_t(1) << 51);
    double rounded = std::fabs((x + c) - c);
    if (rounded > maxFinite)
      rounded = INFINITY;
    return std::copysign(rounded, x);
  }
  double magnitude = std::fabs(x);
  double units = std::ldexp(magnitude, mantissaBits - exponent);
  units = tiesAway ? std::round(units) : std::nearbyint(units);
  double rounded = std::ldexp(units, exponent - mantissaBits);
  if (rounded > maxFinite)
    rounded = INFINITY;
  return std::copysign(rounded, x);
}

double mlir::tile::interp::roundToF16(double x) {
  return roundToFormat(x, 10, -14, 65504.0, /*tiesAway=*/false);
}

double mlir::tile::interp::roundToBF16(double x) {
  return roundToFormat(x, 7, -126, 0x1.fep127, /*tiesAway=*/false);
}

double mlir::tile::interp::roundToTF32(double x) {
  return roundToFormat(x, 10, -126, 0x1.ffep127, /*tiesAway=*/true);
}

uint16_t mlir::tile::interp::encodeF16(double x) {
  uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  if (std::isnan(x))
    return sign | 0x7e00;
  double magnitude = std::fabs(x);
  if (std::isinf(magnitude))
    return sign | 0x7c00;
  if (magnitude == 0)
    return sign;
  int exponent = biasedExponent(magnitude) - 1023;
  if (exponent < -14)
    return sign | uint16_t(magnitude * 0x1p24);
  // The top 10 of the double's 52 mantissa bits; the rest are zero.
  uint16_t mantissa = uint16_t((bitsOf(magnitude) >> 42) & 0x3ff);
  return sign | uint16_t((exponent + 15) << 10) | mantissa;
}

uint16_t mlir::tile::interp::encodeBF16(double x) {
  if (std::isnan(x))
    return std::signbit(x) ? 0xffc0 : 0x7fc0;
  float f = float(x);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return uint16_t(bits >> 16);
}

double mlir::tile::interp::decodeF16(uint16_t bits) {
  unsigned exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0)
    magnitude = double(mantissa) * 0x1p-24;
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = fromBits(uint64_t(exponent - 15 + 1023) << 52 |
                         uint64_t(mantissa) << 42);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

double mlir::tile::interp::decodeBF16(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}

//===----------------------------------------------------------------------===//
// Rounding toward zero and fp8
//===----------------------------------------------------------------------===//

/// Rounds x with `mantissaBits` stored bits, smallest normal exponent
/// `minExponent`: to nearest even, or toward zero. Beyond `maxFinite` a
/// saturating (satfinite) or toward-zero rounding gives +-maxFinite; an
/// infinity stays one unless saturating.
static double roundSaturating(double x, int mantissaBits, int minExponent,
                              double maxFinite, bool towardZero,
                              bool saturate) {
  if (std::isnan(x) || x == 0)
    return x;
  if (std::isinf(x))
    return saturate ? std::copysign(maxFinite, x) : x;
  double magnitude = std::fabs(x);
  int exponent = std::max(std::ilogb(magnitude), minExponent);
  double units = std::ldexp(magnitude, mantissaBits - exponent);
  units = towardZero ? std::trunc(units) : std::nearbyint(units);
  double rounded = std::ldexp(units, exponent - mantissaBits);
  if (rounded > maxFinite)
    rounded = (saturate || towardZero) ? maxFinite : INFINITY;
  return std::copysign(rounded, x);
}

double mlir::tile::interp::roundToF16TowardZero(double x) {
  return roundSaturating(x, 10, -14, 65504.0, /*towardZero=*/true,
                         /*saturate=*/false);
}

double mlir::tile::interp::roundToBF16TowardZero(double x) {
  return roundSaturating(x, 7, -126, 0x1.fep127, /*towardZero=*/true,
                         /*saturate=*/false);
}

double mlir::tile::interp::roundToFp8(double x, Fp8Format format,
                                      bool towardZero) {
  switch (format) {
  case Fp8Format::E4M3FN:
    return roundSaturating(x, 3, -6, 448.0, towardZero, /*saturate=*/true);
  case Fp8Format::E5M2:
    return roundSaturating(x, 2, -14, 57344.0, towardZero,
                           /*saturate=*/!towardZero);
  case Fp8Format::E4M3B15: {
    double half = roundToF16TowardZero(x);
    double magnitude =
        std::isnan(half) ? 1.75 : std::fmin(std::fabs(half), 1.75);
    if (magnitude != 0) {
      int exponent = std::max(std::ilogb(magnitude), -14);
      magnitude = std::ldexp(std::round(std::ldexp(magnitude, 3 - exponent)),
                             exponent - 3);
    }
    return std::copysign(magnitude, half);
  }
  }
  return x;
}

namespace {
struct Fp8Layout {
  int mantissaBits, bias;
};
Fp8Layout layoutOf(Fp8Format format) {
  switch (format) {
  case Fp8Format::E4M3FN:
    return {3, 7};
  case Fp8Format::E5M2:
    return {2, 15};
  case Fp8Format::E4M3B15:
    return {3, 15};
  }
  return {3, 7};
}
} // namespace

uint8_t mlir::tile::interp::encodeFp8(double x, Fp8Format format) {
  uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::isnan(x) || (std::isinf(x) && format != Fp8Format::E5M2))
    return sign | 0x7f;
  if (std::isinf(x))
    return sign | 0x7c;
  double magnitude = std::fabs(x);
  if (magnitude == 0)
    return sign;
  auto [mantissaBits, bias] = layoutOf(format);
  int exponent = std::ilogb(magnitude);
  if (exponent < 1 - bias) // subnormal
    return sign | uint8_t(std::ldexp(magnitude, bias - 1 + mantissaBits));
  unsigned mantissa = unsigned(std::ldexp(magnitude, mantissaBits - exponent)) -
                      (1u << mantissaBits);
  return sign | uint8_t(((exponent + bias) << mantissaBits) | mantissa);
}

double mlir::tile::interp::decodeFp8(uint8_t bits, Fp8Format format) {
  auto [mantissaBits, bias] = layoutOf(format);
  unsigned exponentMask = (1u << (7 - mantissaBits)) - 1;
  unsigned exponent = (bits >> mantissaBits) & exponentMask;
  unsigned mantissa = bits & ((1u << mantissaBits) - 1);
  double magnitude;
  if (format == Fp8Format::E4M3FN && (bits & 0x7f) == 0x7f)
    magnitude = NAN;
  else if (format == Fp8Format::E5M2 && exponent == exponentMask)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(double(mantissa), 1 - bias - mantissaBits);
  else
    magnitude = std::ldexp(double(mantissa | (1u << mantissaBits)),
                           int(exponent) - bias - mantissaBits);
  return (bits & 0x80) ? -magnitude : magnitude;
}
