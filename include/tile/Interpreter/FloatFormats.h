//===- FloatFormats.h - fp16, bf16 and tf32 on the host ---------*- C++ -*-===//
//
// Rounding of doubles to the narrow float formats (to nearest even, as the
// GPU's cvt.rn; tf32 to nearest, ties away, as cvt.rna.tf32) and their bit
// encodings. Values travel through the interpreter as doubles that are
// exactly representable in their element type.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INTERPRETER_FLOATFORMATS_H
#define TILE_INTERPRETER_FLOATFORMATS_H

#include <cstdint>

namespace mlir::tile::interp {
double roundToF16(double x);
double roundToBF16(double x);
double roundToF32(double x);
double roundToTF32(double x);

/// Encodings of values already rounded to the format.
uint16_t encodeF16(double x);
uint16_t encodeBF16(double x);
double decodeF16(uint16_t bits);
double decodeBF16(uint16_t bits);
} // namespace mlir::tile::interp

#endif // TILE_INTERPRETER_FLOATFORMATS_H
