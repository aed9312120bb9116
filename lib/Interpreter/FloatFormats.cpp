//===- FloatFormats.cpp - fp16, bf16 and tf32 on the host -----------------===//

#include "tile/Interpreter/FloatFormats.h"

#include <cmath>
#include <cstring>

using namespace mlir::tile::interp;

/// Rounds x to a binary format with `mantissaBits` stored bits, smallest
/// normal exponent `minExponent` (subnormals below) and largest finite
/// value `maxFinite`; overflow goes to infinity. Exact from a double for
/// formats of up to 52 bits, so there is no double rounding.
static double roundToFormat(double x, int mantissaBits, int minExponent,
                            double maxFinite, bool tiesAway) {
  if (!std::isfinite(x) || x == 0)
    return x;
  double magnitude = std::fabs(x);
  int exponent = std::max(std::ilogb(magnitude), minExponent);
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

double mlir::tile::interp::roundToF32(double x) { return double(float(x)); }

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
  int exponent = std::ilogb(magnitude);
  if (exponent < -14)
    return sign | uint16_t(std::ldexp(magnitude, 24));
  uint16_t mantissa = uint16_t(std::ldexp(magnitude, 10 - exponent)) - 0x400;
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
    magnitude = std::ldexp(double(mantissa), -24);
  else if (exponent == 31)
    magnitude = mantissa ? NAN : INFINITY;
  else
    magnitude = std::ldexp(double(mantissa | 0x400), int(exponent) - 25);
  return (bits & 0x8000) ? -magnitude : magnitude;
}

double mlir::tile::interp::decodeBF16(uint16_t bits) {
  uint32_t wide = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &wide, 4);
  return f;
}
