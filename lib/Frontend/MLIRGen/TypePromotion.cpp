//===- TypePromotion.cpp - Triton's type promotion ------------------------===//
//
// Triton's type promotion and the materialization of operands.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include <cmath>

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Types and IR helpers
//===----------------------------------------------------------------------===//

mlir::Type KernelEmitter::getDefaultType(const PyValue &value) {
  switch (value.kind) {
  case PyValue::Kind::Bool:
    return builder.getI1Type();
  case PyValue::Kind::Float: {
    // Triton's to_tensor: fp32 unless the magnitude is outside fp32's
    // normal range (then fp64: 1e50 stays 1e50).
    double magnitude = std::fabs(value.floatValue);
    bool fp32 = std::isinf(magnitude) || std::isnan(magnitude) ||
                magnitude == 0.0 ||
                (magnitude >= 0x1p-126 && magnitude <= 0x1.fffffep127);
    return fp32 ? mlir::Type(builder.getF32Type())
                : mlir::Type(builder.getF64Type());
  }
  default:
    return llvm::isInt<32>(value.intValue) ? builder.getI32Type()
                                           : builder.getI64Type();
  }
}

/// Triton's promotion of two runtime operand types.
mlir::Type KernelEmitter::promoteTypes(mlir::Type a, mlir::Type b,
                                       bool divOrMod) {
  if (isFloat(a) || isFloat(b)) {
    // Triton: an fp8 operand with a wider float computes in the wider type
    // (below); two fp8 operands of one format compute in it (which only the
    // interpreter runs), of two formats in fp16.
    if (isFloat8(a) && isFloat8(b))
      return a == b ? a : builder.getF16Type();
    if (a.isF64() || b.isF64())
      return builder.getF64Type();
    if (a.isF32() || b.isF32())
      return builder.getF32Type();
    // fp16 and bf16 have no division or remainder in hardware.
    if (a.isF16() || b.isF16())
      return divOrMod ? builder.getF32Type() : builder.getF16Type();
    if (divOrMod || !(a.isBF16() && b.isBF16()))
      return builder.getF32Type();
    return builder.getBF16Type();
  }
  return a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
}

bool KernelEmitter::isPromotedUnsigned(const PyValue &lhs, const PyValue &rhs) {
  auto isUnsignedInt = [&](const PyValue &v) {
    return v.isRuntime() && v.isUnsigned && isInteger(getElementType(v.value));
  };
  bool lhsUnsigned = isUnsignedInt(lhs), rhsUnsigned = isUnsignedInt(rhs);
  if (lhs.isRuntime() && rhs.isRuntime() && lhsUnsigned != rhsUnsigned &&
      isInteger(getElementType(lhs.value)) &&
      isInteger(getElementType(rhs.value))) {
    const PyValue &u = lhsUnsigned ? lhs : rhs;
    const PyValue &sgn = lhsUnsigned ? rhs : lhs;
    return getElementType(u.value).getIntOrFloatBitWidth() >=
           getElementType(sgn.value).getIntOrFloatBitWidth();
  }
  return lhsUnsigned || rhsUnsigned;
}

std::optional<mlir::Type>
KernelEmitter::getComputationType(ast::BinaryOp op, const PyValue &lhs,
                                  const PyValue &rhs) {
  bool divOrMod = op == ast::BinaryOp::Div || op == ast::BinaryOp::Mod;
  // Pointers have no computation type (callers handle pointer operands).
  for (const PyValue *operand : {&lhs, &rhs})
    if (operand->isRuntime() && !getElementType(operand->value).isIntOrFloat())
      return std::nullopt;
  if (lhs.isRuntime() != rhs.isRuntime()) {
    // A Python number of a kind no higher than the runtime operand's (bool <
    // int < float) takes the runtime operand's type, as in Triton; an
    // integer that does not fit that type promotes it instead.
    const PyValue &number = lhs.isRuntime() ? rhs : lhs;
    const PyValue &runtime = lhs.isRuntime() ? lhs : rhs;
    mlir::Type runtimeType = getElementType(runtime.value);
    bool fits = true;
    if (number.kind == PyValue::Kind::Int && isInteger(runtimeType)) {
      unsigned width = runtimeType.getIntOrFloatBitWidth();
      fits = fitsInWidth(number.intValue, width);
      // An unsigned operand also keeps its type for the literals of its
      // own range: Triton types 2^31..2^32-1 as uint32, and uint32 with
      // uint32 (or int32) computes in uint32.
      if (runtime.isUnsigned && width > 1 && width < 64)
        fits = fits || llvm::isUIntN(width, number.intValue);
    }
    if (getNumberKind(number) <= getNumberKind(runtimeType) && fits) {
      if (divOrMod && (runtimeType.isF16() || runtimeType.isBF16()))
        return builder.getF32Type();
      return runtimeType;
    }
    return promoteTypes(runtimeType, getDefaultType(number), divOrMod);
  }
  return promoteTypes(getElementType(lhs.value), getElementType(rhs.value),
                      divOrMod);
}

mlir::Value KernelEmitter::materialize(const PyValue &value,
                                       mlir::Type elementType, bool asBlock,
                                       llvm::ArrayRef<int64_t> shape,
                                       mlir::Location loc) {
  mlir::TypedAttr scalar;
  if (auto intType = dyn_cast<mlir::IntegerType>(elementType)) {
    int64_t intValue;
    if (value.kind == PyValue::Kind::Float)
      intValue = isBool(elementType) ? value.floatValue != 0.0
                                     : saturatingFloatToInt(value.floatValue);
    else if (value.kind == PyValue::Kind::Bool)
      intValue = value.boolValue;
    else
      intValue = isBool(elementType) ? value.intValue != 0 : value.intValue;
    scalar = builder.getIntegerAttr(
        elementType, llvm::APInt(intType.getWidth(), intValue,
                                 /*isSigned=*/true, /*implicitTrunc=*/true));
  } else {
    double floatValue = value.kind == PyValue::Kind::Float ? value.floatValue
                        : value.kind == PyValue::Kind::Bool
                            ? static_cast<double>(value.boolValue)
                            : static_cast<double>(value.intValue);
    scalar = builder.getFloatAttr(elementType, floatValue);
  }
  if (!asBlock)
    return arith::ConstantOp::create(builder, loc, scalar);
  auto type = mlir::RankedTensorType::get(shape, elementType);
  return arith::ConstantOp::create(
      builder, loc,
      cast<mlir::TypedAttr>(mlir::DenseElementsAttr::get(type, scalar)));
}

mlir::Value KernelEmitter::zeroLike(mlir::Type type, mlir::Location loc) {
  mlir::Type elementType = mlir::tile::getElementTypeOrSelf(type);
  auto tensor = dyn_cast<mlir::RankedTensorType>(type);
  return materialize(PyValue::integer(0), elementType, tensor != nullptr,
                     tensor ? tensor.getShape() : llvm::ArrayRef<int64_t>(),
                     loc);
}

mlir::Value KernelEmitter::splatTo(mlir::Value scalar,
                                   llvm::ArrayRef<int64_t> shape,
                                   mlir::Location loc) {
  auto type = mlir::RankedTensorType::get(shape, scalar.getType());
  return mlir::tile::SplatOp::create(builder, loc, type, scalar);
}

mlir::Value KernelEmitter::convertElementType(mlir::Value value,
                                              mlir::Type elementType,
                                              mlir::Location loc) {
  return castValue(value, /*fromUnsigned=*/false, elementType,
                   /*toUnsigned=*/false, loc);
}

mlir::Value KernelEmitter::prepareOperand(const PyValue &value,
                                          mlir::Type elementType, bool asBlock,
                                          llvm::ArrayRef<int64_t> shape,
                                          mlir::Location loc) {
  if (!value.isRuntime())
    return materialize(value, elementType, asBlock, shape, loc);
  mlir::Value converted = castValue(value.value, value.isUnsigned, elementType,
                                    /*toUnsigned=*/false, loc);
  if (asBlock)
    converted = broadcastTo(converted, shape, loc);
  return converted;
}

} // namespace tile::frontend::mlirgen
