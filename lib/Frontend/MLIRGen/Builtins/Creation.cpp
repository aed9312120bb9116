//===- Creation.cpp - Triton kernels to the tile dialect --------------------===
//
// Builtins that create values: program ids, ranges, blocks filled with a value, casts.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

KernelEmitter::Result KernelEmitter::emitProgramIdLike(
    const ast::CallExpr &call, llvm::StringRef displayName, bool numPrograms) {
  static const BuiltinParam params[] = {{"axis", true}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  std::optional<int64_t> axis = evaluateAxis(*(*args)[0], displayName);
  if (!axis || !requireIR(call.getLoc(), displayName))
    return std::nullopt;
  mlir::Location loc = getLoc(call.getLoc());
  auto axisAttr = builder.getI32IntegerAttr(*axis);
  if (numPrograms)
    return PyValue::runtime(mlir::tile::NumProgramsOp::create(
        builder, loc, builder.getI32Type(), axisAttr));
  return PyValue::runtime(mlir::tile::ProgramIdOp::create(
      builder, loc, builder.getI32Type(), axisAttr));
}

KernelEmitter::Result KernelEmitter::emitArange(const ast::CallExpr &call,
                                                llvm::StringRef displayName) {
  static const BuiltinParam params[] = {{"start", true}, {"end", true}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  int64_t bounds[2];
  for (int i = 0; i < 2; ++i) {
    Result bound = emitExpr(*(*args)[i]);
    if (!bound)
      return std::nullopt;
    if (bound->kind != PyValue::Kind::Int)
      return error((*args)[i]->getLoc(),
                   displayName + "() '" + params[i].name +
                       "' must be a constexpr integer, got " +
                       describe(*bound));
    bounds[i] = bound->intValue;
  }
  auto [start, end] = bounds;
  std::string range =
      (displayName + "(" + llvm::Twine(start) + ", " + llvm::Twine(end) + ")")
          .str();
  if (!llvm::isInt<32>(start) || !llvm::isInt<32>(end))
    return error(call.getLoc(), range + ": the bounds must fit in int32");
  if (end <= start)
    return error(call.getLoc(), range + ": 'end' must be greater than 'start'");
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return error(call.getLoc(), range + ": the length " + llvm::Twine(length) +
                                    " (end - start) must be a power of two");
  // Triton's limit on the number of elements of a block.
  constexpr int64_t kMaxBlockElements = 1 << 20;
  if (length > kMaxBlockElements)
    return error(call.getLoc(), range + ": " + llvm::Twine(length) +
                                    " elements exceed the largest block of " +
                                    llvm::Twine(kMaxBlockElements));
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;
  auto type = mlir::RankedTensorType::get({length}, builder.getI32Type());
  return PyValue::runtime(mlir::tile::MakeRangeOp::create(
      builder, getLoc(call.getLoc()), type, builder.getI32IntegerAttr(start),
      builder.getI32IntegerAttr(end)));
}

} // namespace tile::frontend::mlirgen
