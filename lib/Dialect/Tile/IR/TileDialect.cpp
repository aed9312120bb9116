//===- TileDialect.cpp - the block-level tile dialect ---------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"

void TileDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tile/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
      >();
}

Type mlir::tile::withElementType(Type type, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

Type mlir::tile::getPointeeShapedType(Type ptrType) {
  auto ptr = dyn_cast<PointerType>(getElementTypeOrSelf(ptrType));
  if (!ptr)
    return {};
  return withElementType(ptrType, ptr.getPointeeType());
}

Type mlir::tile::getI1SameShape(Type type) {
  return withElementType(type, IntegerType::get(type.getContext(), 1));
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult MakeRangeOp::verify() {
  int64_t start = getStart(), end = getEnd();
  if (end <= start)
    return emitOpError("needs start < end, got [")
           << start << ", " << end << ")";
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return emitOpError("length ") << length << " (end - start) is not a "
                                  << "power of two";
  auto type = getType();
  if (type.getRank() != 1 || type.getDimSize(0) != length)
    return emitOpError("result must be a 1-D tensor of ")
           << length << " elements, got " << type;
  return success();
}

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  // splat of a constant is a dense constant, which later passes understand.
  auto value = adaptor.getSrc();
  if (!value || !isa<IntegerAttr, FloatAttr>(value))
    return {};
  return SplatElementsAttr::get(getType(), value);
}

/// Same shape for two types that are both scalars or both tensors.
static LogicalResult verifySameShape(Operation *op, Type a, StringRef aName,
                                     Type b, StringRef bName) {
  auto ta = dyn_cast<RankedTensorType>(a);
  auto tb = dyn_cast<RankedTensorType>(b);
  if (!ta && !tb)
    return success();
  if (!ta || !tb || ta.getShape() != tb.getShape())
    return op->emitOpError()
           << aName << " and " << bName << " must have the same shape, got "
           << a << " and " << b;
  return success();
}

LogicalResult AddPtrOp::verify() {
  return verifySameShape(*this, getPtr().getType(), "pointer",
                         getOffset().getType(), "offset");
}

void LoadOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
}

void StoreOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
