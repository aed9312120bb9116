//===- Broadcast.cpp - Shapes, broadcasting, conversions ------------------===//
//
// Blocks: Triton's broadcasting, shapes, conversions between element types.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Blocks: shapes, broadcasting, conversions
//===----------------------------------------------------------------------===//

std::optional<llvm::SmallVector<int64_t>>
KernelEmitter::broadcastShapes(llvm::ArrayRef<int64_t> a,
                               llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1)
      result[i] = da;
    else if (da == 1)
      result[i] = db;
    else
      return std::nullopt;
  }
  return result;
}

mlir::Value KernelEmitter::broadcastTo(mlir::Value value,
                                       llvm::ArrayRef<int64_t> shape,
                                       mlir::Location loc) {
  if (!isBlock(value))
    return shape.empty() ? value : splatTo(value, shape, loc);
  mlir::Type elementType = getElementType(value);
  // Lower ranks gain leading dimensions of size 1, as in Triton.
  while (getShape(value).size() < shape.size()) {
    llvm::SmallVector<int64_t> expanded(getShape(value));
    expanded.insert(expanded.begin(), 1);
    value = mlir::tile::ExpandDimsOp::create(
        builder, loc, mlir::RankedTensorType::get(expanded, elementType), value,
        builder.getI32IntegerAttr(0));
  }
  if (getShape(value) == shape)
    return value;
  return mlir::tile::BroadcastOp::create(
      builder, loc, mlir::RankedTensorType::get(shape, elementType), value);
}

std::optional<std::pair<bool, llvm::SmallVector<int64_t>>>
KernelEmitter::commonShape(llvm::ArrayRef<const PyValue *> operands,
                           llvm::StringRef what, const ast::Location &loc) {
  bool asBlock = false;
  llvm::SmallVector<int64_t> shape;
  for (const PyValue *operand : operands) {
    if (!operand || !operand->isRuntime() || !isBlock(operand->value))
      continue;
    llvm::ArrayRef<int64_t> operandShape = getShape(operand->value);
    if (!asBlock) {
      asBlock = true;
      shape.assign(operandShape.begin(), operandShape.end());
      continue;
    }
    auto merged = broadcastShapes(shape, operandShape);
    if (!merged) {
      diag.error(loc, "incompatible shapes " + formatShape(shape) + " and " +
                          formatShape(operandShape) + " for " + what +
                          " (dimensions must be equal or 1)");
      return std::nullopt;
    }
    shape = std::move(*merged);
  }
  return std::make_pair(asBlock, shape);
}

mlir::Value KernelEmitter::castValue(mlir::Value value, bool fromUnsigned,
                                     mlir::Type elementType, bool toUnsigned,
                                     mlir::Location loc, bool towardZero) {
  mlir::Type source = getElementType(value);
  if (source == elementType)
    return value;
  if (isFloat8(source) || isFloat8(elementType)) {
    // Triton converts fp8 only to and from fp16, bf16 and fp32, in one
    // conversion; integers, fp64 and the other fp8 format go through fp32
    // (exact for every fp8 value, so only a narrowing from fp64 rounds
    // twice; tl.cast rejects that one, as Triton has no such conversion).
    mlir::Type f32 = builder.getF32Type();
    auto isDirect = [](mlir::Type t) {
      return t.isF16() || t.isBF16() || t.isF32();
    };
    bool direct = isFloat8(source) ? isDirect(elementType) : isDirect(source);
    if (!direct) {
      mlir::Value wide = castValue(value, fromUnsigned, f32, false, loc);
      return castValue(wide, false, elementType, toUnsigned, loc, towardZero);
    }
    mlir::Type resultType =
        mlir::tile::withElementType(value.getType(), elementType);
    if (isFloat8(source))
      return arith::ExtFOp::create(builder, loc, resultType, value);
    auto trunc = arith::TruncFOp::create(builder, loc, resultType, value);
    if (towardZero)
      trunc.setRoundingmodeAttr(arith::RoundingModeAttr::get(
          builder.getContext(), arith::RoundingMode::toward_zero));
    return trunc;
  }
  mlir::Type resultType =
      mlir::tile::withElementType(value.getType(), elementType);
  if (isPointer(source) || isPointer(elementType)) {
    if (isPointer(source) && isPointer(elementType))
      return mlir::tile::PtrCastOp::create(builder, loc, resultType, value);
    if (isPointer(source)) {
      mlir::Value asInt = mlir::tile::PtrToIntOp::create(
          builder, loc,
          mlir::tile::withElementType(value.getType(), builder.getI64Type()),
          value);
      return castValue(asInt, false, elementType, toUnsigned, loc);
    }
    mlir::Value wide =
        castValue(value, fromUnsigned, builder.getI64Type(), false, loc);
    return mlir::tile::IntToPtrOp::create(builder, loc, resultType, wide);
  }
  unsigned sourceWidth = source.getIntOrFloatBitWidth();
  unsigned targetWidth = elementType.getIntOrFloatBitWidth();

  if (isInteger(source) && isInteger(elementType)) {
    if (isBool(elementType)) // Triton's cast to bool is x != 0.
      return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                   value, zeroLike(value.getType(), loc));
    if (sourceWidth < targetWidth)
      return isBool(source) || fromUnsigned
                 ? mlir::Value(
                       arith::ExtUIOp::create(builder, loc, resultType, value))
                 : mlir::Value(
                       arith::ExtSIOp::create(builder, loc, resultType, value));
    return arith::TruncIOp::create(builder, loc, resultType, value);
  }
  if (isInteger(source)) // integer -> float
    return isBool(source) || fromUnsigned
               ? mlir::Value(
                     arith::UIToFPOp::create(builder, loc, resultType, value))
               : mlir::Value(
                     arith::SIToFPOp::create(builder, loc, resultType, value));
  if (isInteger(elementType)) { // float -> integer
    if (isBool(elementType))
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE,
                                   value, zeroLike(value.getType(), loc));
    if (toUnsigned)
      return arith::FPToUIOp::create(builder, loc, resultType, value);
    return arith::FPToSIOp::create(builder, loc, resultType, value);
  }
  if (sourceWidth == targetWidth || sourceWidth < 16 || targetWidth < 16) {
    // fp16 <-> bf16 and fp8 go through fp32.
    if (!source.isF32() && !elementType.isF32()) {
      mlir::Type wide =
          mlir::tile::withElementType(value.getType(), builder.getF32Type());
      mlir::Value widened =
          sourceWidth < 32
              ? mlir::Value(arith::ExtFOp::create(builder, loc, wide, value))
              : mlir::Value(arith::TruncFOp::create(builder, loc, wide, value));
      return castValue(widened, false, elementType, toUnsigned, loc);
    }
  }
  if (sourceWidth < targetWidth)
    return arith::ExtFOp::create(builder, loc, resultType, value);
  auto trunc = arith::TruncFOp::create(builder, loc, resultType, value);
  if (towardZero)
    trunc.setRoundingmodeAttr(arith::RoundingModeAttr::get(
        builder.getContext(), arith::RoundingMode::toward_zero));
  return trunc;
}

std::optional<PyValue> KernelEmitter::toRuntime(const PyValue &value,
                                                const ast::Location &loc) {
  if (value.isRuntime())
    return value;
  if (!value.isNumber()) {
    diag.error(loc, "expected a number or a block, got " + describe(value));
    return std::nullopt;
  }
  if (!requireIR(loc, "this"))
    return std::nullopt;
  return PyValue::runtime(
      materialize(value, getDefaultType(value), false, {}, getLoc(loc)));
}

std::optional<llvm::SmallVector<int64_t>>
KernelEmitter::toShape(const PyValue &value, const ast::Location &loc,
                       llvm::StringRef displayName) {
  llvm::SmallVector<int64_t> shape;
  auto addDim = [&](const PyValue &dim) {
    if (dim.kind != PyValue::Kind::Int) {
      diag.error(loc, displayName +
                          "() shape dimensions must be compile-time "
                          "integers, got " +
                          describe(dim));
      return false;
    }
    shape.push_back(dim.intValue);
    return true;
  };
  if (value.kind == PyValue::Kind::Tuple) {
    for (const PyValue &dim : value.elements)
      if (!addDim(dim))
        return std::nullopt;
  } else if (!addDim(value)) {
    return std::nullopt;
  }
  // Triton's block shape rules.
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim <= 0 || !llvm::isPowerOf2_64(dim)) {
      diag.error(loc, displayName + "() shape " + formatShape(shape) +
                          ": every dimension must be a power of two, got " +
                          llvm::Twine(dim));
      return std::nullopt;
    }
    count *= dim;
    if (count > (1 << 20)) {
      diag.error(loc, displayName + "() shape " + formatShape(shape) +
                          " has more than 1048576 elements");
      return std::nullopt;
    }
  }
  return shape;
}

mlir::Value KernelEmitter::makeFull(llvm::ArrayRef<int64_t> shape,
                                    mlir::Type elementType,
                                    const PyValue &value, mlir::Location loc) {
  if (value.isRuntime()) {
    mlir::Value scalar =
        castValue(value.value, value.isUnsigned, elementType, false, loc);
    return broadcastTo(scalar, shape, loc);
  }
  return materialize(value, elementType, !shape.empty(), shape, loc);
}

} // namespace tile::frontend::mlirgen
