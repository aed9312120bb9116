//===- TensorMapBox.h - the TMA box of a host tensor descriptor -*- C++ -*-===//
//
// A host tensor descriptor's block is copied by the Tensor Memory
// Accelerator into the swizzled tile wgmma reads (WgmmaOperands.h): one box
// per `swizzleBytes`-wide column block, each holding every row. The host
// encodes the tensor map with this box and swizzle, and tilegpu-pipeline
// copies with it only where the same rule gives one, so that both sides
// agree without passing anything else. Two-dimensional blocks only, rows
// at most 256 (TMA's box limit), rows of at least 32 bytes that are a whole
// number of swizzle blocks; fp16 and bf16 elements (TensorMapElement).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TENSORMAPBOX_H
#define TILE_DIALECT_TILEGPU_IR_TENSORMAPBOX_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <optional>

namespace mlir::tilegpu {

struct TensorMapBox {
  unsigned swizzleBytes; // 128, 64 or 32: the box's swizzle mode
  int64_t innerElements; // the box's extent along the contiguous dimension
  int64_t rows;          // its extent along the other
};

/// The element types a host encodes tensor maps for (getTensorMapBox's
/// 2-byte elements), and their numbers in cuda.h's CUtensorMapDataType.
enum class TensorMapElement { Float16, BFloat16 };
constexpr int getTensorMapDataType(TensorMapElement element) {
  return element == TensorMapElement::Float16 ? 6 : 9;
}

inline std::optional<TensorMapBox>
getTensorMapBox(llvm::ArrayRef<int64_t> block, unsigned elementBytes) {
  if (block.size() != 2 || elementBytes == 0 || block[0] < 1 || block[0] > 256)
    return std::nullopt;
  int64_t rowBytes = block[1] * int64_t(elementBytes);
  if (rowBytes < 32)
    return std::nullopt;
  unsigned swizzle = rowBytes >= 128 ? 128 : rowBytes >= 64 ? 64 : 32;
  if (rowBytes % swizzle != 0)
    return std::nullopt;
  return TensorMapBox{swizzle, swizzle / elementBytes, block[0]};
}

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_IR_TENSORMAPBOX_H
