//===- FloatFormats.h - fp16, bf16, tf32 and fp8 on the host ----*- C++ -*-===//
//
// Rounding of doubles to the narrow float formats (to nearest even, as the
// GPU's cvt.rn; tf32 to nearest, ties away, as cvt.rna.tf32) and their bit
// encodings. Values travel through the interpreter as doubles that are
// exactly representable in their element type. The fp8 formats round as
// the GPU's conversions do (see Fp8Format).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INTERPRETER_FLOATFORMATS_H
#define TILE_INTERPRETER_FLOATFORMATS_H

#include <cstdint>

namespace mlir::tile::interp {
double roundToF16(double x);
double roundToBF16(double x);
/// Inline: the interpreter rounds every fp32 result.
inline double roundToF32(double x) { return double(float(x)); }
double roundToTF32(double x);

/// Encodings of values already rounded to the format.
uint16_t encodeF16(double x);
uint16_t encodeBF16(double x);
double decodeF16(uint16_t bits);
double decodeBF16(uint16_t bits);

/// Rounding toward zero (fp_downcast_rounding="rtz", cvt.rz): a finite
/// value beyond the largest finite one becomes the largest, infinities stay.
double roundToF16TowardZero(double x);
double roundToBF16TowardZero(double x);

/// Triton's fp8 formats on NVIDIA GPUs.
/// - E4M3FN (tl.float8e4nv): bias 7, no infinities, 0x7f/0xff are NaN, the
///   largest finite value is 448. Rounding to nearest even saturates as
///   cvt.rn.satfinite does: beyond +-448, infinities included, is +-448;
///   NaN stays NaN.
/// - E5M2 (tl.float8e5): bias 15, IEEE-like (infinities, NaNs), largest
///   finite 57344; to nearest even saturates as E4M3FN does; toward zero
///   (only from fp32) a finite overflow is 57344 and infinities stay.
/// - E4M3B15 (tl.float8e4b15): bias 15, every code finite (the largest is
///   1.875). Triton converts to it by rounding to fp16 toward zero, clamping
///   the magnitude to 1.75 (infinities and NaN too, keeping the sign) and
///   rounding to nearest with ties away from zero.
enum class Fp8Format { E4M3FN, E5M2, E4M3B15 };
double roundToFp8(double x, Fp8Format format, bool towardZero = false);
/// The code of a value of the format (NaN: 0x7f, or 0xff if negative).
uint8_t encodeFp8(double x, Fp8Format format);
double decodeFp8(uint8_t bits, Fp8Format format);
} // namespace mlir::tile::interp

#endif // TILE_INTERPRETER_FLOATFORMATS_H
