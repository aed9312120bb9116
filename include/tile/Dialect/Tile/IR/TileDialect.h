//===- TileDialect.h - the block-level tile dialect -------------*- C++ -*-===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_H
#define TILE_DIALECT_TILE_IR_TILEDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"

#include "tile/Dialect/Tile/IR/TileDialect.h.inc"
#include "tile/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.h.inc"

namespace mlir::tile {
/// What a load through pointers of `ptrType` yields: the pointee type with
/// the pointers' shape and layout. Null when `ptrType` holds no pointers.
Type getPointeeShapedType(Type ptrType);
/// i1 with the shape and layout of `type`.
Type getI1SameShape(Type type);
} // namespace mlir::tile

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

namespace mlir::tile {
/// The element type of a scalar or tensor type.
using ::mlir::getElementTypeOrSelf;
/// `type` with its element type replaced by `elementType`; shape and
/// encoding kept. For a scalar, `elementType` itself.
Type withElementType(Type type, Type elementType);
/// The argument attribute recording a divisibility specialization
/// (pointers: bytes; integers: value), as Triton's tt.divisibility.
inline constexpr llvm::StringLiteral kDivisibilityAttr = "tile.divisibility";
/// An integer argument the specialization found divisible by 8 (a unit
/// attribute; tilegpu-hoist-tensor-maps takes it for a 16-byte row stride
/// of 2-byte elements).
inline constexpr llvm::StringLiteral kMultipleOf8Attr = "tile.multiple_of_8";
/// The argument attribute of a host tensor descriptor's TMA tensor map: the
/// kernel takes the 128-byte map by value, as a grid constant (the launch
/// passes the bytes, not their address), so that the TMA unit reads it with
/// the kernel's parameters instead of from global memory.
inline constexpr llvm::StringLiteral kTensorMapArgAttr = "tile.tensormap";
/// Hints from tl.multiple_of / tl.max_contiguous / tl.max_constancy, set on
/// the op defining the value as a DenseI32ArrayAttr with one entry per
/// dimension (one entry for a scalar), as Triton's tt.divisibility,
/// tt.contiguity and tt.constancy.
inline constexpr llvm::StringLiteral kHintDivisibilityAttr =
    "tile.divisibility";
inline constexpr llvm::StringLiteral kHintContiguityAttr = "tile.contiguity";
inline constexpr llvm::StringLiteral kHintConstancyAttr = "tile.constancy";
} // namespace mlir::tile

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_H
