//===- Operators.cpp - Operators on runtime values ------------------------===//
//
// Operators on runtime values: arithmetic, pointer arithmetic, unary, boolean,
// comparisons.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

std::nullopt_t KernelEmitter::unsupportedOperands(llvm::StringRef op,
                                                  const PyValue &lhs,
                                                  const PyValue &rhs,
                                                  const ast::Location &loc) {
  return error(loc, "unsupported operand types for " + op + ": '" +
                        describe(lhs) + "' and '" + describe(rhs) + "'");
}

KernelEmitter::Result KernelEmitter::emitBinary(ast::BinaryOp op,
                                                const PyValue &lhs,
                                                const PyValue &rhs,
                                                const ast::Location &loc) {
  llvm::StringRef opName = ast::spell(op);
  bool lhsRuntime = lhs.isRuntime(), rhsRuntime = rhs.isRuntime();
  if (!lhsRuntime && !rhsRuntime)
    return foldBinary(op, lhs, rhs, loc);
  // A runtime value meets something that is neither a runtime value nor a
  // number (a string, None, a module...).
  if ((!lhsRuntime && !lhs.isNumber()) || (!rhsRuntime && !rhs.isNumber()))
    return unsupportedOperands(opName, lhs, rhs, loc);

  if ((lhsRuntime && isPointer(getElementType(lhs.value))) ||
      (rhsRuntime && isPointer(getElementType(rhs.value))))
    return emitPointerArithmetic(op, lhs, rhs, loc);

  if (op == ast::BinaryOp::Pow)
    return error(loc, "'**' on runtime values is not supported (Triton has "
                      "no power operator on blocks)");
  if (op == ast::BinaryOp::MatMul) {
    // `a @ b` is tl.dot(a, b), as Triton's tensor.__matmul__.
    CallArgs args;
    args.values = {lhs, rhs};
    args.values.append(5, PyValue::none());
    args.present = {true, true, false, false, false, false, false};
    args.locs.assign(7, loc);
    ast::CallExpr fake(loc, nullptr, {}, {});
    return emitDot(args, fake, "'@'");
  }

  // Shapes broadcast as in Triton (a scalar meets any block).
  auto common = commonShape({&lhs, &rhs}, "'" + opName.str() + "'", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;

  std::optional<mlir::Type> computeType = getComputationType(op, lhs, rhs);
  if (!computeType)
    return unsupportedOperands(opName, lhs, rhs, loc);
  mlir::Type elementType = *computeType;
  bool isIntOp = isInteger(elementType);
  bool lhsUnsigned =
      lhsRuntime && lhs.isUnsigned && isInteger(getElementType(lhs.value));
  bool rhsUnsigned =
      rhsRuntime && rhs.isUnsigned && isInteger(getElementType(rhs.value));
  // Triton's integer promotion: an unsigned operand at least as wide as the
  // signed one makes the result unsigned.
  bool isUnsigned = false;
  if (isIntOp && !isBool(elementType)) {
    if (lhsRuntime && rhsRuntime && lhsUnsigned != rhsUnsigned) {
      const PyValue &u = lhsUnsigned ? lhs : rhs;
      const PyValue &sgn = lhsUnsigned ? rhs : lhs;
      isUnsigned = getElementType(u.value).getIntOrFloatBitWidth() >=
                   getElementType(sgn.value).getIntOrFloatBitWidth();
      if (op == ast::BinaryOp::Div || op == ast::BinaryOp::FloorDiv ||
          op == ast::BinaryOp::Mod)
        return error(loc, "cannot use '" + opName + "' with " + describe(lhs) +
                              " and " + describe(rhs) +
                              " because they have different signedness; "
                              "cast them to the same signedness");
    } else {
      isUnsigned = lhsUnsigned || rhsUnsigned;
    }
  }
  switch (op) {
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::BitAnd:
  case ast::BinaryOp::BitOr:
  case ast::BinaryOp::BitXor:
  case ast::BinaryOp::LShift:
  case ast::BinaryOp::RShift:
    // Triton defines these on integers (and bools) only.
    if (!isIntOp)
      return unsupportedOperands(opName, lhs, rhs, loc);
    break;
  case ast::BinaryOp::Div:
    // True division of integers happens in fp32, as in Triton.
    if (isIntOp) {
      elementType = builder.getF32Type();
      isIntOp = false;
    }
    break;
  default:
    break;
  }

  mlir::Location irLoc = getLoc(loc);
  mlir::Value a = prepareOperand(lhs, elementType, asBlock, shape, irLoc);
  mlir::Value b = prepareOperand(rhs, elementType, asBlock, shape, irLoc);
  mlir::Value result;
  switch (op) {
  case ast::BinaryOp::FloorDiv:
    if (isUnsigned)
      return PyValue::runtime(arith::DivUIOp::create(builder, irLoc, a, b),
                              true);
    break;
  case ast::BinaryOp::Mod:
    if (isUnsigned)
      return PyValue::runtime(arith::RemUIOp::create(builder, irLoc, a, b),
                              true);
    break;
  case ast::BinaryOp::RShift:
    if (isUnsigned)
      return PyValue::runtime(arith::ShRUIOp::create(builder, irLoc, a, b),
                              true);
    break;
  default:
    break;
  }
  switch (op) {
  case ast::BinaryOp::Add:
    result = isIntOp ? mlir::Value(arith::AddIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::AddFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::Sub:
    result = isIntOp ? mlir::Value(arith::SubIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::SubFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::Mul:
    result = isIntOp ? mlir::Value(arith::MulIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::MulFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::Div:
    result = arith::DivFOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::FloorDiv:
    // Triton lowers `//` on integers to a truncating signed division.
    result = arith::DivSIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::Mod:
    result = isIntOp ? mlir::Value(arith::RemSIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::RemFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::BitAnd:
    result = arith::AndIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::BitOr:
    result = arith::OrIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::BitXor:
    result = arith::XOrIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::LShift:
    result = arith::ShLIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::RShift:
    result = arith::ShRSIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::Pow:
  case ast::BinaryOp::MatMul:
    return std::nullopt; // Rejected above.
  }
  return PyValue::runtime(result, isUnsigned);
}

KernelEmitter::Result
KernelEmitter::emitPointerArithmetic(ast::BinaryOp op, const PyValue &lhs,
                                     const PyValue &rhs,
                                     const ast::Location &loc) {
  bool lhsIsPointer = lhs.isRuntime() && isPointer(getElementType(lhs.value));
  bool rhsIsPointer = rhs.isRuntime() && isPointer(getElementType(rhs.value));
  // Only pointer + integer, integer + pointer and pointer - integer.
  bool valid =
      lhsIsPointer != rhsIsPointer &&
      (op == ast::BinaryOp::Add || (op == ast::BinaryOp::Sub && lhsIsPointer));
  const PyValue &pointer = lhsIsPointer ? lhs : rhs;
  const PyValue &offset = lhsIsPointer ? rhs : lhs;
  if (valid) {
    if (offset.isRuntime())
      valid = isInteger(getElementType(offset.value));
    else
      valid = offset.kind == PyValue::Kind::Int ||
              offset.kind == PyValue::Kind::Bool;
  }
  if (!valid)
    return unsupportedOperands(ast::spell(op), lhs, rhs, loc);

  mlir::Location irLoc = getLoc(loc);
  mlir::Value ptr = pointer.value;
  mlir::Value off;
  if (offset.isRuntime()) {
    off = offset.value;
    if (isBool(getElementType(off)))
      off = convertElementType(off, builder.getI32Type(), irLoc);
    if (op == ast::BinaryOp::Sub)
      off = arith::SubIOp::create(builder, irLoc,
                                  zeroLike(off.getType(), irLoc), off);
  } else {
    int64_t value =
        offset.kind == PyValue::Kind::Bool ? offset.boolValue : offset.intValue;
    if (op == ast::BinaryOp::Sub) {
      if (value == std::numeric_limits<int64_t>::min())
        return error(loc, "pointer offset overflows int64");
      value = -value;
    }
    PyValue negated = PyValue::integer(value);
    off = materialize(negated, getDefaultType(negated), /*asBlock=*/false, {},
                      irLoc);
  }
  // Pointers and offsets broadcast as other operands do.
  if (isBlock(ptr) || isBlock(off)) {
    auto shape = broadcastShapes(getShape(ptr), getShape(off));
    if (!shape)
      return error(loc, "incompatible shapes " + formatShape(getShape(ptr)) +
                            " and " + formatShape(getShape(off)) +
                            " for pointer '" + ast::spell(op) + "'");
    ptr = broadcastTo(ptr, *shape, irLoc);
    off = broadcastTo(off, *shape, irLoc);
  }
  return PyValue::runtime(
      mlir::tile::AddPtrOp::create(builder, irLoc, ptr.getType(), ptr, off),
      pointer.isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitUnary(const ast::UnaryOpExpr &unary) {
  Result operandOr = emitExpr(unary.getOperand());
  if (!operandOr)
    return std::nullopt;
  const PyValue &operand = *operandOr;
  ast::UnaryOp op = unary.getOp();
  const ast::Location &loc = unary.getLoc();
  auto badOperand = [&] {
    return error(loc, "bad operand type for unary " + ast::spell(op) + ": '" +
                          describe(operand) + "'");
  };

  if (!operand.isRuntime()) {
    if (op == ast::UnaryOp::Not) {
      if (!operand.isConstexpr())
        return badOperand();
      return PyValue::boolean(!isTruthy(operand));
    }
    if (!operand.isNumber())
      return badOperand();
    int64_t intValue = operand.kind == PyValue::Kind::Bool ? operand.boolValue
                                                           : operand.intValue;
    bool isFloatValue = operand.kind == PyValue::Kind::Float;
    switch (op) {
    case ast::UnaryOp::Plus:
      return isFloatValue ? operand : PyValue::integer(intValue);
    case ast::UnaryOp::Minus:
      if (isFloatValue)
        return PyValue::floating(-operand.floatValue);
      if (intValue == std::numeric_limits<int64_t>::min())
        return error(loc, "integer overflow in constant expression");
      return PyValue::integer(-intValue);
    case ast::UnaryOp::Invert:
      if (isFloatValue)
        return badOperand();
      return PyValue::integer(~intValue);
    case ast::UnaryOp::Not:
      break;
    }
    return std::nullopt;
  }

  mlir::Value value = operand.value;
  mlir::Type elementType = getElementType(value);
  if (isPointer(elementType))
    return badOperand();
  mlir::Location irLoc = getLoc(loc);
  switch (op) {
  case ast::UnaryOp::Plus:
    return operand;
  case ast::UnaryOp::Minus:
    // Triton's -x is 0 - x, for floats too: -(+0.0) is +0.0 and a NaN
    // keeps the sign the subtraction gives it, not the flipped one.
    if (isFloat(elementType))
      return PyValue::runtime(arith::SubFOp::create(
          builder, irLoc, zeroLike(value.getType(), irLoc), value));
    return PyValue::runtime(arith::SubIOp::create(
        builder, irLoc, zeroLike(value.getType(), irLoc), value));
  case ast::UnaryOp::Invert: {
    if (!isInteger(elementType))
      return badOperand();
    mlir::Value allOnes = materialize(PyValue::integer(-1), elementType,
                                      isBlock(value), getShape(value), irLoc);
    return PyValue::runtime(
        arith::XOrIOp::create(builder, irLoc, value, allOnes));
  }
  case ast::UnaryOp::Not: {
    // Logical negation: x == 0.
    mlir::Value zero = zeroLike(value.getType(), irLoc);
    if (isFloat(elementType))
      return PyValue::runtime(arith::CmpFOp::create(
          builder, irLoc, arith::CmpFPredicate::OEQ, value, zero));
    return PyValue::runtime(arith::CmpIOp::create(
        builder, irLoc, arith::CmpIPredicate::eq, value, zero));
  }
  }
  return std::nullopt;
}

KernelEmitter::Result KernelEmitter::emitBoolOp(const ast::BoolOpExpr &boolOp) {
  // Python semantics on compile-time values: the first operand that decides
  // the result is the result, and the rest is not evaluated.
  bool isAnd = boolOp.getOp() == ast::BoolOp::And;
  const ast::ExprList &values = boolOp.getValues();
  llvm::SmallVector<PyValue> operands;
  size_t index = 0;
  for (; index < values.size(); ++index) {
    Result operand = emitExpr(*values[index]);
    if (!operand)
      return std::nullopt;
    if (operand->isRuntime()) {
      operands.push_back(*operand);
      ++index;
      break;
    }
    if (isTruthy(*operand) != isAnd || index + 1 == values.size())
      return operand;
  }
  // On runtime values Triton's `and`/`or` are tl.logical_and/logical_or:
  // the remaining operands are all evaluated and converted to bool.
  for (; index < values.size(); ++index) {
    Result operand = emitExpr(*values[index]);
    if (!operand)
      return std::nullopt;
    if (!operand->isRuntime() && !operand->isNumber())
      return error(values[index]->getLoc(),
                   "'" + ast::spell(boolOp.getOp()) +
                       "' needs numbers or blocks, got " + describe(*operand));
    operands.push_back(*operand);
  }
  llvm::SmallVector<const PyValue *> pointers;
  for (const PyValue &operand : operands)
    pointers.push_back(&operand);
  auto common = commonShape(
      pointers, "'" + ast::spell(boolOp.getOp()).str() + "'", boolOp.getLoc());
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Location loc = getLoc(boolOp.getLoc());
  mlir::Value combined;
  for (const PyValue &operand : operands) {
    mlir::Value value;
    if (operand.isRuntime())
      value = broadcastTo(castValue(operand.value, operand.isUnsigned,
                                    builder.getI1Type(), false, loc),
                          asBlock ? llvm::ArrayRef<int64_t>(shape)
                                  : llvm::ArrayRef<int64_t>(),
                          loc);
    else
      value = materialize(PyValue::boolean(isTruthy(operand)),
                          builder.getI1Type(), asBlock, shape, loc);
    if (!combined)
      combined = value;
    else if (isAnd)
      combined = arith::AndIOp::create(builder, loc, combined, value);
    else
      combined = arith::OrIOp::create(builder, loc, combined, value);
  }
  return PyValue::runtime(combined);
}

KernelEmitter::Result
KernelEmitter::emitCompare(const ast::CompareExpr &compare) {
  Result left = emitExpr(compare.getLeft());
  if (!left)
    return std::nullopt;
  llvm::ArrayRef<ast::CompareOp> ops = compare.getOps();
  if (ops.size() == 1) {
    Result right = emitExpr(*compare.getComparators().front());
    if (!right)
      return std::nullopt;
    if (!left->isRuntime() && !right->isRuntime())
      return foldCompare(ops.front(), *left, *right, compare.getLoc());
    return emitRuntimeCompare(ops.front(), *left, *right, compare.getLoc());
  }
  // Chained comparisons: a < b < c is (a < b) and (b < c).
  PyValue current = *left;
  for (auto [op, comparatorExpr] : llvm::zip(ops, compare.getComparators())) {
    Result next = emitExpr(*comparatorExpr);
    if (!next)
      return std::nullopt;
    if (current.isRuntime() || next->isRuntime())
      return error(compare.getLoc(), "chained comparisons of runtime values "
                                     "are not supported yet");
    Result holds = foldCompare(op, current, *next, compare.getLoc());
    if (!holds)
      return std::nullopt;
    if (!holds->boolValue)
      return PyValue::boolean(false);
    current = *next;
  }
  return PyValue::boolean(true);
}

KernelEmitter::Result
KernelEmitter::emitRuntimeCompare(ast::CompareOp op, const PyValue &lhs,
                                  const PyValue &rhs,
                                  const ast::Location &loc) {
  llvm::StringRef opName = ast::spell(op);
  switch (op) {
  case ast::CompareOp::Is:
  case ast::CompareOp::IsNot:
  case ast::CompareOp::In:
  case ast::CompareOp::NotIn:
    return error(loc, "'" + opName +
                          "' on runtime values is not supported "
                          "yet");
  default:
    break;
  }
  if ((!lhs.isRuntime() && !lhs.isNumber()) ||
      (!rhs.isRuntime() && !rhs.isNumber()))
    return unsupportedOperands(opName, lhs, rhs, loc);
  if ((lhs.isRuntime() && isPointer(getElementType(lhs.value))) ||
      (rhs.isRuntime() && isPointer(getElementType(rhs.value))))
    return error(loc, "comparison of pointers is not supported yet");

  auto common = commonShape({&lhs, &rhs}, "'" + opName.str() + "'", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;

  std::optional<mlir::Type> computeType =
      getComputationType(ast::BinaryOp::Add, lhs, rhs);
  if (!computeType)
    return unsupportedOperands(opName, lhs, rhs, loc);
  mlir::Location irLoc = getLoc(loc);
  mlir::Value a = prepareOperand(lhs, *computeType, asBlock, shape, irLoc);
  mlir::Value b = prepareOperand(rhs, *computeType, asBlock, shape, irLoc);

  if (isFloat(*computeType)) {
    // Ordered predicates, except != which must hold for NaN (as in Triton).
    arith::CmpFPredicate predicate;
    switch (op) {
    case ast::CompareOp::Lt:
      predicate = arith::CmpFPredicate::OLT;
      break;
    case ast::CompareOp::LtE:
      predicate = arith::CmpFPredicate::OLE;
      break;
    case ast::CompareOp::Gt:
      predicate = arith::CmpFPredicate::OGT;
      break;
    case ast::CompareOp::GtE:
      predicate = arith::CmpFPredicate::OGE;
      break;
    case ast::CompareOp::Eq:
      predicate = arith::CmpFPredicate::OEQ;
      break;
    default:
      predicate = arith::CmpFPredicate::UNE;
      break;
    }
    return PyValue::runtime(
        arith::CmpFOp::create(builder, irLoc, predicate, a, b));
  }
  // Bools and unsigned integers compare unsigned; others signed (uint8
  // with int32 compares in int32, signed).
  bool isUnsigned = isBool(*computeType) || isPromotedUnsigned(lhs, rhs);
  arith::CmpIPredicate predicate;
  switch (op) {
  case ast::CompareOp::Lt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case ast::CompareOp::LtE:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case ast::CompareOp::Gt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case ast::CompareOp::GtE:
    predicate =
        isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  case ast::CompareOp::Eq:
    predicate = arith::CmpIPredicate::eq;
    break;
  default:
    predicate = arith::CmpIPredicate::ne;
    break;
  }
  return PyValue::runtime(
      arith::CmpIOp::create(builder, irLoc, predicate, a, b));
}

} // namespace tile::frontend::mlirgen
