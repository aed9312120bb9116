//===- BlockPointers.cpp - tl.make_block_ptr and tl.advance ---------------===//
//
// Block pointers: tl.make_block_ptr, tl.advance, and the block-pointer forms
// of tl.load and tl.store (boundary_check, padding_option), as Triton's
// semantic.py types them: shape and strides i64, offsets i32, block shape
// and order compile-time.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

/// The elements of a tuple argument (a single value counts as one).
llvm::SmallVector<PyValue> tupleElements(const PyValue &value) {
  if (value.kind == PyValue::Kind::Tuple)
    return {value.elements.begin(), value.elements.end()};
  return {value};
}

/// `values` (integers, compile-time or runtime scalars) as scalars of
/// `type`; an error at `loc` naming `what` otherwise.
std::optional<llvm::SmallVector<mlir::Value>>
toIntegers(KernelEmitter &e, const PyValue &tuple, mlir::Type type, size_t rank,
           const ast::Location &loc, llvm::StringRef displayName,
           llvm::StringRef what) {
  llvm::SmallVector<PyValue> values = tupleElements(tuple);
  if (values.size() != rank) {
    e.error(loc, displayName + "() '" + what + "' has " +
                     llvm::Twine(values.size()) + " entries, the block " +
                     llvm::Twine(rank) + " dimensions");
    return std::nullopt;
  }
  llvm::SmallVector<mlir::Value> result;
  mlir::Location irLoc = e.getLoc(loc);
  for (const PyValue &value : values) {
    bool isInt = value.kind == PyValue::Kind::Int ||
                 (value.isRuntime() && !isBlock(value.value) &&
                  isa<mlir::IntegerType>(value.value.getType()));
    if (!isInt) {
      e.error(loc, displayName + "() '" + what + "' must hold integers, got " +
                       describe(value));
      return std::nullopt;
    }
    result.push_back(e.prepareOperand(value, type, false, {}, irLoc));
  }
  return result;
}

/// A tuple of compile-time integers.
std::optional<llvm::SmallVector<int64_t>>
toConstants(KernelEmitter &e, const PyValue &tuple, const ast::Location &loc,
            llvm::StringRef displayName, llvm::StringRef what) {
  llvm::SmallVector<int64_t> result;
  for (const PyValue &value : tupleElements(tuple)) {
    if (value.kind != PyValue::Kind::Int) {
      e.error(loc, displayName + "() '" + what +
                       "' must hold compile-time integers, got " +
                       describe(value));
      return std::nullopt;
    }
    result.push_back(value.intValue);
  }
  return result;
}

bool checkScalarPointer(KernelEmitter &e, const BuiltinCall &c,
                        unsigned index) {
  const PyValue &base = c.args.values[index];
  if (base.isRuntime() && !isBlock(base.value) &&
      isa<mlir::tile::PointerType>(base.value.getType()))
    return true;
  e.error(c.args.locs[index], c.displayName +
                                  "() 'base' must be a scalar pointer, got " +
                                  describe(base));
  return false;
}

std::optional<llvm::SmallVector<int64_t>>
toBlockShape(KernelEmitter &e, const BuiltinCall &c, unsigned index) {
  auto shape = toConstants(e, c.args.values[index], c.args.locs[index],
                           c.displayName, "block_shape");
  if (!shape)
    return std::nullopt;
  for (int64_t size : *shape)
    if (size <= 0 || !llvm::isPowerOf2_64(size)) {
      e.error(c.args.locs[index], c.displayName +
                                      "() 'block_shape' must hold powers "
                                      "of 2, got " +
                                      llvm::Twine(size));
      return std::nullopt;
    }
  return shape;
}

namespace {
using Result = KernelEmitter::Result;

Result emitMakeBlockPtr(KernelEmitter &e, const BuiltinCall &c) {
  const KernelEmitter::CallArgs &args = c.args;
  const PyValue &base = args.values[0];
  if (!checkScalarPointer(e, c, 0))
    return std::nullopt;
  auto blockShape = toBlockShape(e, c, 4);
  if (!blockShape)
    return std::nullopt;
  size_t rank = blockShape->size();
  auto order =
      toConstants(e, args.values[5], args.locs[5], c.displayName, "order");
  if (!order)
    return std::nullopt;
  llvm::SmallVector<bool> seen(rank, false);
  bool permutation = order->size() == rank;
  for (int64_t d : *order) {
    permutation = permutation && d >= 0 && d < int64_t(rank) && !seen[d];
    if (permutation)
      seen[d] = true;
  }
  if (!permutation)
    return e.error(args.locs[5], c.displayName +
                                     "() 'order' must be a permutation of "
                                     "the block's " +
                                     llvm::Twine(rank) + " dimensions");
  if (!e.requireIR(c.getLoc(), c.displayName))
    return std::nullopt;
  mlir::Type i64 = e.builder.getI64Type(), i32 = e.builder.getI32Type();
  auto shape = toIntegers(e, args.values[1], i64, rank, args.locs[1],
                          c.displayName, "shape");
  if (!shape)
    return std::nullopt;
  auto strides = toIntegers(e, args.values[2], i64, rank, args.locs[2],
                            c.displayName, "strides");
  if (!strides)
    return std::nullopt;
  auto offsets = toIntegers(e, args.values[3], i32, rank, args.locs[3],
                            c.displayName, "offsets");
  if (!offsets)
    return std::nullopt;
  auto pointer = cast<mlir::tile::PointerType>(base.value.getType());
  auto type = mlir::tile::BlockPointerType::get(
      &e.context,
      mlir::RankedTensorType::get(*blockShape, pointer.getPointeeType()));
  llvm::SmallVector<int32_t> order32(order->begin(), order->end());
  return PyValue::runtime(mlir::tile::MakeBlockPtrOp::create(
                              e.builder, e.getLoc(c.getLoc()), type, base.value,
                              *shape, *strides, *offsets,
                              e.builder.getDenseI32ArrayAttr(order32)),
                          base.isUnsigned);
}

Result emitAdvance(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue &base = c.args.values[0];
  auto type = base.isRuntime()
                  ? dyn_cast<mlir::tile::BlockPointerType>(base.value.getType())
                  : nullptr;
  if (!type)
    return e.error(c.args.locs[0], c.displayName +
                                       "() 'base' must be a block pointer, "
                                       "got " +
                                       describe(base));
  auto offsets = toIntegers(e, c.args.values[1], e.builder.getI32Type(),
                            type.getBlockType().getRank(), c.args.locs[1],
                            c.displayName, "offsets");
  if (!offsets)
    return std::nullopt;
  return PyValue::runtime(mlir::tile::AdvanceOp::create(e.builder,
                                                        e.getLoc(c.getLoc()),
                                                        base.value, *offsets),
                          base.isUnsigned);
}
} // namespace

KernelEmitter::Result KernelEmitter::emitBlockPointerLoad(
    const ast::CallExpr &call, const PyValue &pointer,
    llvm::ArrayRef<const ast::Expr *> maskAndOther, const MemoryHints &hints,
    llvm::StringRef displayName) {
  for (const ast::Expr *expr : maskAndOther)
    if (expr)
      return error(expr->getLoc(), displayName +
                                       "() of a block pointer takes no "
                                       "'mask' or 'other': use "
                                       "boundary_check and padding_option");
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;
  auto type = cast<mlir::tile::BlockPointerType>(pointer.value.getType());
  if (hints.padding == mlir::tile::PaddingOption::nan &&
      !isa<mlir::FloatType>(type.getBlockType().getElementType()))
    return error(hints.paddingLoc,
                 displayName +
                     "() padding_option 'nan' needs a "
                     "floating-point block, got " +
                     describeType(type.getBlockType(), pointer.isUnsigned));
  return PyValue::runtime(
      mlir::tile::BlockLoadOp::create(
          builder, getLoc(call.getLoc()), type.getBlockType(), pointer.value,
          builder.getDenseI32ArrayAttr(hints.boundaryCheck), hints.padding,
          hints.cache, hints.evict, hints.isVolatile,
          /*tensormap=*/mlir::Value()),
      pointer.isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitBlockPointerStore(
    const ast::CallExpr &call, const PyValue &pointer, const PyValue &value,
    const ast::Expr *valueExpr, const ast::Expr *maskExpr,
    const MemoryHints &hints, llvm::StringRef displayName) {
  if (maskExpr)
    return error(maskExpr->getLoc(), displayName +
                                         "() of a block pointer takes no "
                                         "'mask': use boundary_check");
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;
  auto type = cast<mlir::tile::BlockPointerType>(pointer.value.getType());
  mlir::RankedTensorType block = type.getBlockType();
  if (value.isRuntime() && isBlock(value.value)) {
    llvm::ArrayRef<int64_t> shape = getShape(value.value);
    if (!broadcastShapes(shape, block.getShape()) ||
        *broadcastShapes(shape, block.getShape()) != block.getShape())
      return error(valueExpr->getLoc(), displayName + "(): 'value' has shape " +
                                            formatShape(shape) +
                                            ", the block pointer's block " +
                                            formatShape(block.getShape()));
  }
  // Triton stores the value converted to the element type, broadcast to
  // the block.
  mlir::Value stored = prepareOperand(value, block.getElementType(), true,
                                      block.getShape(), getLoc(call.getLoc()));
  mlir::tile::BlockStoreOp::create(
      builder, getLoc(call.getLoc()), pointer.value, stored,
      builder.getDenseI32ArrayAttr(hints.boundaryCheck), hints.cache,
      hints.evict, /*tensormap=*/mlir::Value());
  return PyValue::none();
}

llvm::ArrayRef<Builtin> getBlockPointerBuiltins() {
  static const Builtin builtins[] = {
      {"make_block_ptr",
       {{"base", true},
        {"shape", true},
        {"strides", true},
        {"offsets", true},
        {"block_shape", true},
        {"order", true}},
       emitMakeBlockPtr},
      {"advance", {{"base", true}, {"offsets", true}}, emitAdvance, kNeedsIR},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
