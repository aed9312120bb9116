//===- DescriptorType.h - tensordesc<...> signature types -------*- C++ -*-===//
//
// Signatures (the C++ API's, so tile-compile's) spell a tensor descriptor
// parameter as Triton's AOT compiler does, "tensordesc<fp16[128, 64]>": its
// element type and block shape. The compile reads it (and gives each
// descriptor parameter the TensorMapLayout its launches encode), and
// Device::makeTensorDescriptor needs the element's width and the same
// layout; these helpers keep them on one reading.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_API_DESCRIPTORTYPE_H
#define TILE_LIB_API_DESCRIPTORTYPE_H

#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Tile.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tile {

struct DescriptorType {
  std::string element;
  std::vector<int64_t> block;
};

/// The bytes of one element of the signature's scalar type `element`
/// ("fp16", "bf16", "fp32", "i8", ...); 0 for a name it does not know.
inline unsigned getElementBytes(llvm::StringRef element) {
  return llvm::StringSwitch<unsigned>(element)
      .Cases({"i8", "u8", "fp8e4nv", "fp8e5", "fp8e4b15"}, 1)
      .Cases({"i16", "u16", "fp16", "f16", "bf16"}, 2)
      .Cases({"i32", "u32", "fp32", "f32"}, 4)
      .Cases({"i64", "u64", "fp64", "f64"}, 8)
      .Default(0);
}

/// Triton's name of an element type that has two spellings: "fp16" for
/// "f16", and so on.
inline std::string normalizeElementType(llvm::StringRef element) {
  return llvm::StringSwitch<std::string>(element)
      .Case("f16", "fp16")
      .Case("f32", "fp32")
      .Case("f64", "fp64")
      .Default(element.str());
}

/// "tensordesc<fp16[128, 64]>" as its element type and block; nullopt
/// where the text is not one (a known element, positive extents).
inline std::optional<DescriptorType> parseDescriptorType(llvm::StringRef text) {
  text = text.trim();
  if (!text.consume_front("tensordesc<") || !text.consume_back(">"))
    return std::nullopt;
  auto [element, dims] = text.split('[');
  DescriptorType type;
  type.element = normalizeElementType(element.trim());
  if (!getElementBytes(type.element) || !dims.consume_back("]"))
    return std::nullopt;
  llvm::SmallVector<llvm::StringRef> pieces;
  dims.split(pieces, ',');
  for (llvm::StringRef piece : pieces) {
    int64_t extent = 0;
    if (piece.trim().getAsInteger(10, extent) || extent <= 0)
      return std::nullopt;
    type.block.push_back(extent);
  }
  return type;
}

inline std::string formatDescriptorType(const std::string &element,
                                        const std::vector<int64_t> &block) {
  std::string text = "tensordesc<" + element + "[";
  for (size_t d = 0; d < block.size(); ++d)
    text += (d ? ", " : "") + std::to_string(block[d]);
  return text + "]>";
}

/// How a descriptor of `element`s in blocks of `block` is copied with TMA:
/// where the compiler copies it so (TensorMapBox.h's rule, 2-D fp16 and
/// bf16 blocks), the tensor map to encode for it.
inline TensorMapLayout getTensorMapLayout(const std::string &element,
                                          const std::vector<int64_t> &block) {
  TensorMapLayout layout;
  layout.elementBytes = getElementBytes(element);
  using mlir::tilegpu::TensorMapElement;
  int dataType =
      element == "fp16"   ? getTensorMapDataType(TensorMapElement::Float16)
      : element == "bf16" ? getTensorMapDataType(TensorMapElement::BFloat16)
                          : -1;
  std::optional<mlir::tilegpu::TensorMapBox> box =
      mlir::tilegpu::getTensorMapBox(block, layout.elementBytes);
  if (dataType < 0 || !box)
    return layout;
  layout.dataType = dataType;
  layout.swizzleBytes = box->swizzleBytes;
  layout.boxRows = unsigned(box->rows);
  layout.boxInnerElements = unsigned(box->innerElements);
  return layout;
}

} // namespace tile

#endif // TILE_LIB_API_DESCRIPTORTYPE_H
