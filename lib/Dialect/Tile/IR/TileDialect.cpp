//===- TileDialect.cpp - the block-level tile dialect ---------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/Libdevice.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::tile;

#include "tile/Dialect/Tile/IR/TileDialect.cpp.inc"
#include "tile/Dialect/Tile/IR/TileEnums.cpp.inc"

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

LogicalResult ExternElementwiseOp::verify() {
  if (getSymbol().empty())
    return emitOpError("needs a symbol");
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  // A libdevice symbol takes the types its table row says.
  auto [function, variant] = libdevice::lookupSymbol(getSymbol());
  if (!variant)
    return success();
  auto matches = [](Type type, libdevice::Type expected) {
    type = getElementTypeOrSelf(type);
    switch (expected) {
    case libdevice::Type::F32:
      return type.isF32();
    case libdevice::Type::F64:
      return type.isF64();
    default:
      return type.isInteger(libdevice::getWidth(expected));
    }
  };
  if (variant->operands.size() != getSrcs().size())
    return emitOpError() << getSymbol() << " takes " << variant->operands.size()
                         << " operands, got " << getSrcs().size();
  for (auto [value, expected] : llvm::zip(getSrcs(), variant->operands))
    if (!matches(value.getType(), expected))
      return emitOpError() << getSymbol() << " takes "
                           << libdevice::getTypeName(expected)
                           << " operands where it got " << value.getType();
  if (!matches(getType(), variant->result))
    return emitOpError() << getSymbol() << " returns "
                         << libdevice::getTypeName(variant->result) << ", not "
                         << getType();
  return success();
}

void ExternElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get());
  effects.emplace_back(MemoryEffects::Write::get());
}

LogicalResult MakeBlockPtrOp::verify() {
  RankedTensorType block = getType().getBlockType();
  size_t rank = block.getRank();
  if (getShape().size() != rank || getStrides().size() != rank ||
      getOffsets().size() != rank || getOrder().size() != rank)
    return emitOpError("needs one shape, stride, offset and order entry per "
                       "dimension of the ")
           << rank << "-d block";
  if (getBase().getType().getPointeeType() != block.getElementType())
    return emitOpError("base points at ")
           << getBase().getType().getPointeeType() << ", the block holds "
           << block.getElementType();
  SmallVector<int32_t> sorted(getOrder());
  llvm::sort(sorted);
  for (auto [i, dim] : llvm::enumerate(sorted))
    if (dim != int32_t(i))
      return emitOpError("order must be a permutation of the dimensions");
  return success();
}

LogicalResult AdvanceOp::verify() {
  if (getOffsets().size() != size_t(getType().getBlockType().getRank()))
    return emitOpError("needs one offset per dimension of the block");
  return success();
}

/// Each dimension in `dims` exists in `block`, once.
static LogicalResult verifyBoundaryCheck(Operation *op, ArrayRef<int32_t> dims,
                                         RankedTensorType block) {
  llvm::SmallDenseSet<int32_t> seen;
  for (int32_t dim : dims)
    if (dim < 0 || dim >= block.getRank() || !seen.insert(dim).second)
      return op->emitOpError("boundary check of dimension ")
             << dim << " of a " << block.getRank() << "-d block";
  return success();
}

LogicalResult BlockLoadOp::verify() {
  RankedTensorType block = getPtr().getType().getBlockType();
  if (getPadding() == PaddingOption::nan &&
      !isa<FloatType>(block.getElementType()))
    return emitOpError("NaN padding needs a floating-point block");
  return verifyBoundaryCheck(*this, getBoundaryCheck(), block);
}

/// A load's or store's TMA box: coordinates only with a tensor map, one per
/// dimension of the block.
static LogicalResult verifyTensorMapBox(Operation *op, Value tensormap,
                                        ValueRange coords, Type pointers) {
  if (!tensormap) {
    if (!coords.empty())
      return op->emitOpError("has TMA coordinates but no tensor map");
    return success();
  }
  auto block = dyn_cast<RankedTensorType>(pointers);
  if (!block || int64_t(coords.size()) != block.getRank())
    return op->emitOpError(
        "needs one TMA coordinate per dimension of its block");
  return success();
}

LogicalResult LoadOp::verify() {
  return verifyTensorMapBox(*this, getTensormap(), getCoords(),
                            getPtr().getType());
}

LogicalResult StoreOp::verify() {
  return verifyTensorMapBox(*this, getTensormap(), getCoords(),
                            getPtr().getType());
}

LogicalResult BlockStoreOp::verify() {
  RankedTensorType block = getPtr().getType().getBlockType();
  return verifyBoundaryCheck(*this, getBoundaryCheck(), block);
}

LogicalResult AddPtrOp::verify() {
  return verifySameShape(*this, getPtr().getType(), "pointer",
                         getOffset().getType(), "offset");
}

LogicalResult AtomicRMWOp::verify() {
  Type elem = getElementTypeOrSelf(getVal().getType());
  bool isFloat = isa<FloatType>(elem);
  switch (getKind()) {
  case RMWKind::fadd:
  case RMWKind::fmax:
  case RMWKind::fmin:
    if (!isFloat)
      return emitOpError("'") << stringifyRMWKind(getKind())
                              << "' needs floating-point values, got " << elem;
    break;
  case RMWKind::xchg:
    break;
  default:
    if (isFloat)
      return emitOpError("'") << stringifyRMWKind(getKind())
                              << "' needs integer values, got " << elem;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

static std::string shapeStr(ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(shape))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (auto splat = dyn_cast_or_null<SplatElementsAttr>(adaptor.getSrc()))
    return SplatElementsAttr::get(getType(), splat.getSplatValue<Attribute>());
  return {};
}

LogicalResult BroadcastOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getRank() != dst.getRank())
    return emitOpError("needs operand and result of the same rank, got ")
           << shapeStr(src.getShape()) << " and " << shapeStr(dst.getShape());
  for (auto [s, d] : llvm::zip(src.getShape(), dst.getShape()))
    if (s != 1 && s != d)
      return emitOpError("cannot broadcast ")
             << shapeStr(src.getShape()) << " to " << shapeStr(dst.getShape());
  return success();
}

LogicalResult ExpandDimsOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  int64_t axis = getAxis();
  if (axis < 0 || axis > src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << src.getRank();
  SmallVector<int64_t> expected(src.getShape());
  expected.insert(expected.begin() + axis, 1);
  if (ArrayRef<int64_t>(expected) != dst.getShape())
    return emitOpError("result shape must be ")
           << shapeStr(expected) << ", got " << shapeStr(dst.getShape());
  return success();
}

LogicalResult ReshapeOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  if (src.getNumElements() != dst.getNumElements())
    return emitOpError("cannot reshape ")
           << shapeStr(src.getShape()) << " (" << src.getNumElements()
           << " elements) to " << shapeStr(dst.getShape()) << " ("
           << dst.getNumElements() << " elements)";
  return success();
}

LogicalResult TransOp::verify() {
  auto src = getSrc().getType(), dst = getType();
  ArrayRef<int32_t> order = getOrder();
  if ((int64_t)order.size() != src.getRank())
    return emitOpError("order has ") << order.size() << " entries for a rank-"
                                     << src.getRank() << " operand";
  SmallVector<bool> seen(order.size(), false);
  SmallVector<int64_t> expected;
  for (int32_t d : order) {
    if (d < 0 || d >= (int32_t)order.size() || seen[d])
      return emitOpError("order must be a permutation of 0..")
             << order.size() - 1;
    seen[d] = true;
    expected.push_back(src.getDimSize(d));
  }
  if (ArrayRef<int64_t>(expected) != dst.getShape())
    return emitOpError("result shape must be ")
           << shapeStr(expected) << ", got " << shapeStr(dst.getShape());
  return success();
}

LogicalResult CatOp::verify() {
  auto src = getLhs().getType(), dst = getType();
  SmallVector<int64_t> expected(src.getShape());
  if (expected.empty())
    return emitOpError("needs blocks of rank 1 or more");
  expected[0] *= 2;
  if (ArrayRef<int64_t>(expected) != dst.getShape())
    return emitOpError("result shape must be ")
           << shapeStr(expected) << ", got " << shapeStr(dst.getShape());
  return success();
}

LogicalResult GatherOp::verify() {
  auto src = getSrc().getType(), index = getIndex().getType();
  int64_t rank = src.getRank(), axis = getAxis();
  if (index.getRank() != rank)
    return emitOpError("needs src and index of one rank, got ")
           << shapeStr(src.getShape()) << " and " << shapeStr(index.getShape());
  if (axis < 0 || axis >= rank)
    return emitOpError("axis ") << axis << " is out of range for rank " << rank;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && src.getDimSize(d) != index.getDimSize(d))
      return emitOpError("src and index must agree on dimension ")
             << d << ", got " << shapeStr(src.getShape()) << " and "
             << shapeStr(index.getShape());
  if (getType().getShape() != index.getShape() ||
      getType().getElementType() != src.getElementType())
    return emitOpError("result must have index's shape and src's element "
                       "type");
  return success();
}

LogicalResult HistogramOp::verify() {
  if (getSrc().getType().getRank() != 1 || getType().getRank() != 1)
    return emitOpError("needs a 1-D operand and a 1-D result");
  if (getMask() &&
      getMask().getType().getShape() != getSrc().getType().getShape())
    return emitOpError("mask must have the operand's shape");
  return success();
}

LogicalResult JoinOp::verify() {
  SmallVector<int64_t> expected(getLhs().getType().getShape());
  expected.push_back(2);
  if (ArrayRef<int64_t>(expected) != getType().getShape())
    return emitOpError("result shape must be ")
           << shapeStr(expected) << ", got " << shapeStr(getType().getShape());
  return success();
}

LogicalResult SplitOp::verify() {
  auto src = getSrc().getType();
  if (src.getRank() == 0 || src.getShape().back() != 2)
    return emitOpError("needs a last dimension of size 2, got ")
           << shapeStr(src.getShape());
  ArrayRef<int64_t> expected = src.getShape().drop_back();
  for (Value out : {getOutLHS(), getOutRHS()})
    if (cast<RankedTensorType>(out.getType()).getShape() != expected)
      return emitOpError("results must have shape ")
             << shapeStr(expected) << ", got " << out.getType();
  if (getOutLHS().getType() != getOutRHS().getType())
    return emitOpError("results must have the same type");
  return success();
}

//===----------------------------------------------------------------------===//
// Dot
//===----------------------------------------------------------------------===//

LogicalResult DotOp::verify() {
  auto a = getA().getType(), b = getB().getType(), d = getType();
  if (a.getRank() != 2 || b.getRank() != 2 || d.getRank() != 2)
    return emitOpError("needs 2-D operands, got ")
           << shapeStr(a.getShape()) << " and " << shapeStr(b.getShape());
  if (a.getDimSize(1) != b.getDimSize(0))
    return emitOpError("inner dimensions differ: ")
           << shapeStr(a.getShape()) << " @ " << shapeStr(b.getShape());
  if (d.getDimSize(0) != a.getDimSize(0) || d.getDimSize(1) != b.getDimSize(1))
    return emitOpError("result must be ")
           << shapeStr({a.getDimSize(0), b.getDimSize(1)}) << ", got "
           << shapeStr(d.getShape());
  if (a.getElementType() != b.getElementType())
    return emitOpError("operands must have one element type, got ")
           << a.getElementType() << " and " << b.getElementType();
  return success();
}

//===----------------------------------------------------------------------===//
// Reduce and scan
//===----------------------------------------------------------------------===//

/// The combine region takes 2N scalars of the operands' element types and
/// returns N of them.
static LogicalResult verifyCombineRegion(Operation *op, Region &region,
                                         ValueRange srcs) {
  Block &block = region.front();
  unsigned n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError("combine region must take ")
           << 2 * n << " arguments, got " << block.getNumArguments();
  for (unsigned i = 0; i < 2 * n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError("combine region argument ")
             << i << " must be " << expected << ", got "
             << block.getArgument(i).getType();
  }
  Operation *term = block.getTerminator();
  if (term->getNumOperands() != n)
    return op->emitOpError("combine region must yield ")
           << n << " values, got " << term->getNumOperands();
  for (unsigned i = 0; i < n; ++i)
    if (term->getOperand(i).getType() !=
        getElementTypeOrSelf(srcs[i].getType()))
      return op->emitOpError("combine region yields ")
             << term->getOperand(i).getType() << " for operand " << i
             << " of element type " << getElementTypeOrSelf(srcs[i].getType());
  return success();
}

LogicalResult ReduceOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto src = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << src.getRank();
  if (getNumResults() != getSrcs().size())
    return emitOpError("needs one result per operand");
  SmallVector<int64_t> expected(src.getShape());
  expected.erase(expected.begin() + axis);
  for (auto [s, r] : llvm::zip(getSrcs(), getResults())) {
    Type elem = getElementTypeOrSelf(s.getType());
    if (getElementTypeOrSelf(r.getType()) != elem)
      return emitOpError("result element type must be ") << elem;
    auto rt = dyn_cast<RankedTensorType>(r.getType());
    if (expected.empty() ? bool(rt)
                         : (!rt || rt.getShape() != ArrayRef(expected)))
      return emitOpError("result must have shape ")
             << shapeStr(expected) << " (a scalar when it is [])";
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

LogicalResult ScanOp::verify() {
  if (getSrcs().empty())
    return emitOpError("needs at least one operand");
  auto src = cast<RankedTensorType>(getSrcs()[0].getType());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= src.getRank())
    return emitOpError("axis ")
           << axis << " is out of range for rank " << src.getRank();
  for (auto [s, r] : llvm::zip(getSrcs(), getResults()))
    if (getElementTypeOrSelf(r.getType()) != getElementTypeOrSelf(s.getType()))
      return emitOpError("results must have the operands' element types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  return verifyCombineRegion(*this, getCombineOp(), getSrcs());
}

/// Folded constants (splats of constants, converted constants) become
/// arith constants.
Operation *TileDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  return arith::ConstantOp::materialize(builder, value, type, loc);
}

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.cpp.inc"
