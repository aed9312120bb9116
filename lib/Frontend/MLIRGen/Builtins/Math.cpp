//===- Math.cpp - Elementwise math builtins -------------------------------===//
//
// Elementwise math builtins: where, minimum/maximum, casts, exp, sqrt, fdiv,
// ..., and tl.inline_asm_elementwise.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"
#include "tile/Dialect/Tile/IR/InlineAsm.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// triton.language
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::emitWhere(const PyValue &condition,
                                               const PyValue &x,
                                               const PyValue &y,
                                               const ast::Location &loc) {
  if (!x.isRuntime() && !x.isNumber())
    return error(loc, "tl.where() 'x' must be a number or a block, got " +
                          describe(x));
  if (!y.isRuntime() && !y.isNumber())
    return error(loc, "tl.where() 'y' must be a number or a block, got " +
                          describe(y));
  if (!condition.isRuntime() && !condition.isNumber())
    return error(loc, "tl.where() 'condition' must be a boolean block or "
                      "scalar, got " +
                          describe(condition));
  if (!condition.isRuntime() && !x.isRuntime() && !y.isRuntime())
    return isTruthy(condition) ? x : y;
  if (!requireIR(loc, "tl.where"))
    return std::nullopt;
  auto common = commonShape({&condition, &x, &y}, "tl.where()", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Location irLoc = getLoc(loc);
  mlir::Type type;
  bool isUnsigned = false;
  bool xPtr = x.isRuntime() && isPointer(getElementType(x.value));
  bool yPtr = y.isRuntime() && isPointer(getElementType(y.value));
  if (xPtr || yPtr) {
    if (!(xPtr && yPtr) || getElementType(x.value) != getElementType(y.value))
      return error(loc, "tl.where() cannot choose between " + describe(x) +
                            " and " + describe(y));
    type = getElementType(x.value);
  } else if (!x.isRuntime() && !y.isRuntime()) {
    // Two numbers: the kind of the wider one (bool < int < float).
    type = getNumberKind(x) >= getNumberKind(y) ? getDefaultType(x)
                                                : getDefaultType(y);
  } else {
    std::optional<mlir::Type> computed =
        getComputationType(ast::BinaryOp::Add, x, y);
    if (!computed)
      return unsupportedOperands("tl.where", x, y, loc);
    type = *computed;
    isUnsigned =
        (x.isRuntime() && x.isUnsigned) || (y.isRuntime() && y.isUnsigned);
  }
  mlir::Value cond;
  if (condition.isRuntime())
    cond = broadcastTo(castValue(condition.value, condition.isUnsigned,
                                 builder.getI1Type(), false, irLoc),
                       asBlock ? llvm::ArrayRef<int64_t>(shape)
                               : llvm::ArrayRef<int64_t>(),
                       irLoc);
  else
    cond = materialize(PyValue::boolean(isTruthy(condition)),
                       builder.getI1Type(), asBlock, shape, irLoc);
  mlir::Value a = prepareOperand(x, type, asBlock, shape, irLoc);
  mlir::Value b = prepareOperand(y, type, asBlock, shape, irLoc);
  return PyValue::runtime(arith::SelectOp::create(builder, irLoc, cond, a, b),
                          isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitMinMax(bool isMax, const PyValue &lhs,
                                                const PyValue &rhs,
                                                bool propagateNan,
                                                const ast::Location &loc) {
  if ((!lhs.isRuntime() && !lhs.isNumber()) ||
      (!rhs.isRuntime() && !rhs.isNumber()))
    return unsupportedOperands(isMax ? "maximum" : "minimum", lhs, rhs, loc);
  if (!requireIR(loc, isMax ? "tl.maximum" : "tl.minimum"))
    return std::nullopt;
  PyValue a = lhs, b = rhs;
  if (!a.isRuntime() && !b.isRuntime()) {
    std::optional<PyValue> runtimeA = toRuntime(a, loc);
    if (!runtimeA)
      return std::nullopt;
    a = *runtimeA;
  }
  auto common = commonShape({&a, &b}, isMax ? "maximum" : "minimum", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  std::optional<mlir::Type> type = getComputationType(ast::BinaryOp::Add, a, b);
  if (!type || isPointer(*type))
    return unsupportedOperands(isMax ? "maximum" : "minimum", lhs, rhs, loc);
  bool isUnsigned = isInteger(*type) && isPromotedUnsigned(a, b);
  mlir::Location irLoc = getLoc(loc);
  mlir::Value x = prepareOperand(a, *type, asBlock, shape, irLoc);
  mlir::Value y = prepareOperand(b, *type, asBlock, shape, irLoc);
  mlir::Value result;
  if (isFloat(*type)) {
    // Triton: maxnumf/minnumf unless propagate_nan=tl.PropagateNan.ALL.
    if (propagateNan)
      result =
          isMax ? mlir::Value(arith::MaximumFOp::create(builder, irLoc, x, y))
                : mlir::Value(arith::MinimumFOp::create(builder, irLoc, x, y));
    else
      result =
          isMax ? mlir::Value(arith::MaxNumFOp::create(builder, irLoc, x, y))
                : mlir::Value(arith::MinNumFOp::create(builder, irLoc, x, y));
  } else if (isUnsigned || isBool(*type)) {
    result = isMax ? mlir::Value(arith::MaxUIOp::create(builder, irLoc, x, y))
                   : mlir::Value(arith::MinUIOp::create(builder, irLoc, x, y));
  } else {
    result = isMax ? mlir::Value(arith::MaxSIOp::create(builder, irLoc, x, y))
                   : mlir::Value(arith::MinSIOp::create(builder, irLoc, x, y));
  }
  return PyValue::runtime(result, isUnsigned);
}

/// Why Triton's NVIDIA backend has no conversion from `from` to `to` with
/// `rounding` ("rtne", "rtz" or none), or nothing if it has one.
static std::optional<std::string>
checkFloatConversion(mlir::Type from, mlir::Type to,
                     const std::optional<std::string> &rounding) {
  std::string pair = getTypeName(from) + " to " + getTypeName(to);
  if (rounding && !(isFloat(from) && isFloat(to) &&
                    to.getIntOrFloatBitWidth() < from.getIntOrFloatBitWidth()))
    return "fp_downcast_rounding is only for narrowing float conversions, "
           "not " +
           pair;
  if (isFloat8(from) || isFloat8(to)) {
    if (!isFloat(from) || !isFloat(to))
      return "cannot convert " + pair +
             ": fp8 converts only to and from float types (bitcast=True "
             "reinterprets the bits)";
    if (isFloat8(from) && isFloat8(to))
      return "cannot convert " + pair +
             " directly (Triton has no fp8-to-fp8 conversion); convert "
             "through tl.float16 or tl.float32";
    if (from.isF64())
      return "cannot convert " + pair +
             " (Triton's NVIDIA backend has no fp64-to-fp8 conversion); "
             "convert to tl.float32 first";
    bool isB15 = isa<mlir::Float8E4M3B11FNUZType>(to);
    if (isB15 && !from.isF16() && !from.isF32())
      return "cannot convert " + pair +
             " (Triton converts to fp8e4b15 only from fp16 and fp32)";
    // fp8e4b15 always rounds as Triton's conversion does; other fp8
    // targets round toward zero only as fp8e5 from fp32.
    if (!isB15 && rounding && *rounding == "rtz" &&
        !(isa<mlir::Float8E5M2Type>(to) && from.isF32()))
      return "fp_downcast_rounding='rtz' is not supported from " + pair +
             " (Triton rounds toward zero to fp8 only from fp32 to fp8e5)";
    return std::nullopt;
  }
  if (rounding && *rounding == "rtz" &&
      !(from.isF32() && (to.isF16() || to.isBF16())))
    return "fp_downcast_rounding='rtz' is not supported from " + pair +
           " (Triton rounds toward zero from fp32 to fp16, bf16 and fp8e5)";
  return std::nullopt;
}

KernelEmitter::Result KernelEmitter::emitCast(
    const PyValue &value, const PyValue &dtype, bool bitcast,
    const ast::Location &loc, llvm::StringRef displayName,
    std::optional<std::string> rounding, const ast::Location *roundingLoc) {
  if (dtype.kind != PyValue::Kind::DType)
    return error(loc, displayName + "() 'dtype' must be a dtype (" +
                          kDTypeNames + "), got " + describe(dtype));
  std::optional<PyValue> source = toRuntime(value, loc);
  if (!source)
    return std::nullopt;
  mlir::Location irLoc = getLoc(loc);
  mlir::Type from = getElementType(source->value);
  if (bitcast) {
    if (isPointer(from) || isPointer(dtype.type) ||
        from.getIntOrFloatBitWidth() != dtype.type.getIntOrFloatBitWidth())
      return error(loc, displayName +
                            "() bitcast needs types of one width, "
                            "got " +
                            getTypeName(from, source->isUnsigned) + " and " +
                            getTypeName(dtype.type, dtype.isUnsigned));
    mlir::Type resultType =
        mlir::tile::withElementType(source->value.getType(), dtype.type);
    return PyValue::runtime(
        arith::BitcastOp::create(builder, irLoc, resultType, source->value),
        dtype.isUnsigned);
  }
  if (rounding || isFloat8(from) || isFloat8(dtype.type)) {
    std::optional<std::string> problem =
        checkFloatConversion(from, dtype.type, rounding);
    if (problem)
      return error(rounding && roundingLoc ? *roundingLoc : loc,
                   displayName + "() " + *problem);
  }
  if (isPointer(from) != isPointer(dtype.type) &&
      !(isPointer(from) ? dtype.type.isInteger(64)
                        : getElementType(source->value).isInteger(64)))
    return error(loc, displayName + "() cannot convert " + describe(*source) +
                          " to " + getTypeName(dtype.type, dtype.isUnsigned) +
                          " (pointers convert only to and from int64)");
  return PyValue::runtime(castValue(source->value, source->isUnsigned,
                                    dtype.type, dtype.isUnsigned, irLoc,
                                    rounding && *rounding == "rtz"),
                          dtype.isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitMath(llvm::StringRef name,
                                              const CallArgs &args,
                                              const ast::CallExpr &call,
                                              llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  if (name == "cdiv") {
    const PyValue &x = args.values[0], &div = args.values[1];
    if (!x.isRuntime() && !div.isRuntime()) {
      Result sum = foldBinary(ast::BinaryOp::Add, x, div, callLoc);
      if (!sum)
        return std::nullopt;
      Result minusOne =
          foldBinary(ast::BinaryOp::Sub, *sum, PyValue::integer(1), callLoc);
      if (!minusOne)
        return std::nullopt;
      return foldBinary(ast::BinaryOp::FloorDiv, *minusOne, div, callLoc);
    }
    Result sum = emitBinary(ast::BinaryOp::Add, x, div, callLoc);
    if (!sum)
      return std::nullopt;
    Result minusOne =
        emitBinary(ast::BinaryOp::Sub, *sum, PyValue::integer(1), callLoc);
    if (!minusOne)
      return std::nullopt;
    return emitBinary(ast::BinaryOp::FloorDiv, *minusOne, div, callLoc);
  }
  if (name == "maximum" || name == "minimum") {
    bool propagateNan = false;
    if (args.present[2]) {
      const PyValue &mode = args.values[2];
      // tl.PropagateNan.ALL / NONE.
      if (mode.kind == PyValue::Kind::Namespace)
        propagateNan = llvm::StringRef(mode.text).ends_with(".ALL");
      else if (mode.kind == PyValue::Kind::Int)
        propagateNan = mode.intValue != 0;
    }
    return emitMinMax(name == "maximum", args.values[0], args.values[1],
                      propagateNan, callLoc);
  }
  if (name == "where")
    return emitWhere(args.values[0], args.values[1], args.values[2], callLoc);

  // Multi-operand float functions broadcast their operands.
  size_t numOperands = llvm::StringSwitch<size_t>(name)
                           .Cases({"fma", "clamp"}, 3)
                           .Cases({"fdiv", "div_rn", "umulhi"}, 2)
                           .Default(1);
  llvm::SmallVector<PyValue> operands;
  for (size_t i = 0; i < numOperands; ++i) {
    const PyValue &operand = args.values[i];
    if (!operand.isRuntime() && !operand.isNumber())
      return error(args.locs[i], displayName +
                                     "() expects numbers or blocks, got " +
                                     describe(operand));
    operands.push_back(operand);
  }
  if (llvm::none_of(operands, [](const PyValue &v) { return v.isRuntime(); })) {
    std::optional<PyValue> first = toRuntime(operands[0], args.locs[0]);
    if (!first)
      return std::nullopt;
    operands[0] = *first;
  }
  if (!requireIR(callLoc, displayName))
    return std::nullopt;
  llvm::SmallVector<const PyValue *> pointers;
  for (const PyValue &operand : operands)
    pointers.push_back(&operand);
  auto common = commonShape(pointers, (displayName + "()").str(), callLoc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  // The computation type of all operands.
  std::optional<mlir::Type> type;
  PyValue typeCarrier = operands[0];
  for (const PyValue &operand : llvm::ArrayRef(operands).drop_front()) {
    type = getComputationType(ast::BinaryOp::Add, typeCarrier, operand);
    if (!type)
      return unsupportedOperands(displayName, typeCarrier, operand, callLoc);
    if (!typeCarrier.isRuntime() || operand.isRuntime()) {
      typeCarrier = operand;
      if (!typeCarrier.isRuntime())
        typeCarrier = operands[0];
    }
  }
  if (!type) {
    const PyValue &only = operands[0];
    type = getElementType(only.value);
  }
  bool isUnsigned = llvm::any_of(
      operands, [](const PyValue &v) { return v.isRuntime() && v.isUnsigned; });
  if (isPointer(*type))
    return error(callLoc, displayName + "() does not take pointers");
  llvm::SmallVector<mlir::Value> values;
  for (const PyValue &operand : operands)
    values.push_back(prepareOperand(operand, *type, asBlock, shape, loc));
  mlir::Value x = values[0];
  auto typeError = [&](llvm::StringRef expected) {
    return error(callLoc, displayName + "() expects " + expected + ", got " +
                              describe(operands[0]));
  };

  if (name == "abs") {
    if (isFloat8(*type)) {
      // As Triton: the sign bit cleared (no fp8 arithmetic on the GPU).
      mlir::Type bits = builder.getI8Type();
      if (auto shaped = mlir::dyn_cast<mlir::RankedTensorType>(x.getType()))
        bits = shaped.clone(bits);
      mlir::Value code = mlir::arith::BitcastOp::create(builder, loc, bits, x);
      mlir::TypedAttr mask = builder.getI8IntegerAttr(0x7f);
      if (auto shaped = mlir::dyn_cast<mlir::ShapedType>(bits))
        mask = mlir::DenseElementsAttr::get(shaped, mlir::Attribute(mask));
      mlir::Value magnitude =
          mlir::arith::ConstantOp::create(builder, loc, mask);
      code = mlir::arith::AndIOp::create(builder, loc, code, magnitude);
      return PyValue::runtime(
          mlir::arith::BitcastOp::create(builder, loc, x.getType(), code));
    }
    if (isFloat(*type))
      return PyValue::runtime(mlir::math::AbsFOp::create(builder, loc, x));
    if (isUnsigned || isBool(*type))
      return PyValue::runtime(x, isUnsigned);
    return PyValue::runtime(mlir::math::AbsIOp::create(builder, loc, x));
  }
  if (name == "umulhi") {
    if (!isInteger(*type) || isBool(*type))
      return typeError("integers");
    return PyValue::runtime(
        mlir::tile::UMulHiOp::create(builder, loc, x, values[1]), isUnsigned);
  }
  if (name == "clamp") {
    if (!isFloat(*type)) {
      Result lower =
          emitMinMax(true, PyValue::runtime(x, isUnsigned),
                     PyValue::runtime(values[1], isUnsigned), false, callLoc);
      if (!lower)
        return std::nullopt;
      return emitMinMax(false, *lower, PyValue::runtime(values[2], isUnsigned),
                        false, callLoc);
    }
    bool propagateNan = args.present[3] &&
                        args.values[3].kind == PyValue::Kind::Namespace &&
                        llvm::StringRef(args.values[3].text).ends_with(".ALL");
    return PyValue::runtime(mlir::tile::ClampFOp::create(
        builder, loc, x, values[1], values[2], propagateNan));
  }
  if (!isFloat(*type))
    return typeError("floating-point values");
  if (name == "fma")
    return PyValue::runtime(
        mlir::math::FmaOp::create(builder, loc, x, values[1], values[2]));
  if (name == "fdiv" || name == "div_rn") {
    bool precise =
        name == "div_rn" || (args.present[2] && isTruthy(args.values[2]));
    if (precise)
      return PyValue::runtime(
          mlir::tile::PreciseDivFOp::create(builder, loc, x, values[1]));
    return PyValue::runtime(arith::DivFOp::create(builder, loc, x, values[1]));
  }
  // Triton's math functions accept fp32 and fp64 only.
  mlir::Type element = *type;
  if (!element.isF32() && !element.isF64() && name != "floor" && name != "ceil")
    return typeError("fp32 or fp64 (as Triton; convert with .to(tl.float32))");
  if (name == "sigmoid") {
    // Triton's standard library: 1 / (1 + exp(-x)).
    mlir::Value negated = arith::NegFOp::create(builder, loc, x);
    mlir::Value exp = mlir::math::ExpOp::create(builder, loc, negated);
    mlir::Value one =
        materialize(PyValue::floating(1.0), element, asBlock, shape, loc);
    mlir::Value denominator = arith::AddFOp::create(builder, loc, one, exp);
    return PyValue::runtime(
        arith::DivFOp::create(builder, loc, one, denominator));
  }
  mlir::Value result =
      llvm::StringSwitch<std::function<mlir::Value()>>(name)
          .Case("exp",
                [&] { return mlir::math::ExpOp::create(builder, loc, x); })
          .Case("exp2",
                [&] { return mlir::math::Exp2Op::create(builder, loc, x); })
          .Case("log",
                [&] { return mlir::math::LogOp::create(builder, loc, x); })
          .Case("log2",
                [&] { return mlir::math::Log2Op::create(builder, loc, x); })
          .Case("sqrt",
                [&] { return mlir::math::SqrtOp::create(builder, loc, x); })
          .Case("sqrt_rn",
                [&] {
                  return mlir::tile::PreciseSqrtOp::create(builder, loc, x);
                })
          .Case("rsqrt",
                [&] { return mlir::math::RsqrtOp::create(builder, loc, x); })
          .Case("sin",
                [&] { return mlir::math::SinOp::create(builder, loc, x); })
          .Case("cos",
                [&] { return mlir::math::CosOp::create(builder, loc, x); })
          .Case("erf",
                [&] { return mlir::math::ErfOp::create(builder, loc, x); })
          .Case("floor",
                [&] { return mlir::math::FloorOp::create(builder, loc, x); })
          .Case("ceil",
                [&] { return mlir::math::CeilOp::create(builder, loc, x); })
          .Default([] { return mlir::Value(); })();
  if (!result)
    return error(callLoc, displayName + "() is not supported");
  return PyValue::runtime(result);
}

namespace {
using Result = KernelEmitter::Result;

Result emitMathCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitMath(c.name, c.args, c.call, c.displayName);
}

/// tl.cast(x, dtype) and x.to(dtype).
Result emitCastCall(KernelEmitter &e, const BuiltinCall &c) {
  const auto &args = c.args;
  bool bitcast = args.present[3] && isTruthy(args.values[3]);
  std::optional<std::string> rounding;
  if (args.present[2] && args.values[2].kind != PyValue::Kind::None) {
    const PyValue &mode = args.values[2];
    if (mode.kind != PyValue::Kind::String ||
        (mode.text != "rtne" && mode.text != "rtz"))
      return e.error(args.locs[2], c.displayName +
                                       "() fp_downcast_rounding must be 'rtne' "
                                       "or 'rtz', got " +
                                       (mode.kind == PyValue::Kind::String
                                            ? "'" + mode.text + "'"
                                            : describe(mode)));
    // Triton ignores the rounding of a bitcast.
    if (!bitcast)
      rounding = mode.text;
  }
  return e.emitCast(args.values[0], args.values[1], bitcast, c.getLoc(),
                    c.displayName, rounding, &args.locs[2]);
}

/// Triton's standard library: exp(x - max) / sum, along the last axis.
Result emitSoftmax(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue &x = c.args.values[0];
  const ast::Location &callLoc = c.getLoc();
  if (!x.isRuntime() || !isBlock(x.value))
    return e.error(c.args.locs[0],
                   c.displayName + "() needs a block, got " + describe(x));
  int64_t last = getShape(x.value).size() - 1;
  KernelEmitter::CallArgs reduceArgs;
  reduceArgs.values = {x, PyValue::integer(last), PyValue::none(),
                       PyValue::none(), PyValue::boolean(true)};
  reduceArgs.present = {true, true, false, false, true};
  reduceArgs.locs.assign(5, callLoc);
  Result maximum = e.emitReduction("max", reduceArgs, c.call, "tl.max");
  if (!maximum)
    return std::nullopt;
  Result shifted = e.emitBinary(ast::BinaryOp::Sub, x, *maximum, callLoc);
  if (!shifted)
    return std::nullopt;
  KernelEmitter::CallArgs expArgs;
  expArgs.values = {*shifted};
  expArgs.present = {true};
  expArgs.locs = {callLoc};
  Result numerator = e.emitMath("exp", expArgs, c.call, "tl.exp");
  if (!numerator)
    return std::nullopt;
  reduceArgs.values = {*numerator, PyValue::integer(last),
                       PyValue::boolean(true), PyValue::none()};
  reduceArgs.present = {true, true, true, false};
  reduceArgs.locs.assign(4, callLoc);
  Result denominator = e.emitReduction("sum", reduceArgs, c.call, "tl.sum");
  if (!denominator)
    return std::nullopt;
  return e.emitBinary(ast::BinaryOp::Div, *numerator, *denominator, callLoc);
}

/// tl.inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
/// the arguments broadcast to one shape (no type promotion), one result
/// per dtype (a tuple of dtypes gives a tuple of blocks).
Result emitInlineAsm(KernelEmitter &e, const BuiltinCall &c) {
  const auto &args = c.args;
  for (unsigned i : {0u, 1u})
    if (args.values[i].kind != PyValue::Kind::String)
      return e.error(args.locs[i],
                     c.displayName + "() '" + (i ? "constraints" : "asm") +
                         "' must be a string, got " + describe(args.values[i]));
  const PyValue &pure = args.values[4];
  if (!pure.isNumber())
    return e.error(args.locs[4], c.displayName +
                                     "() 'is_pure' must be a compile-time "
                                     "bool, got " +
                                     describe(pure));
  const PyValue &pack = args.values[5];
  if (pack.kind != PyValue::Kind::Int || pack.intValue < 1 ||
      pack.intValue > 64)
    return e.error(args.locs[5], c.displayName +
                                     "() 'pack' must be a compile-time "
                                     "integer from 1 to 64, got " +
                                     (pack.kind == PyValue::Kind::Int
                                          ? std::to_string(pack.intValue)
                                          : describe(pack)));
  if (args.values[2].kind != PyValue::Kind::Tuple)
    return e.error(args.locs[2], c.displayName +
                                     "() 'args' must be a list or tuple of "
                                     "values, got " +
                                     describe(args.values[2]));
  const PyValue &dtype = args.values[3];
  bool multiple = dtype.kind == PyValue::Kind::Tuple;
  std::vector<PyValue> dtypes =
      multiple ? dtype.elements : std::vector<PyValue>{dtype};
  if (dtypes.empty())
    return e.error(args.locs[3], c.displayName +
                                     "() needs at least one dtype: the asm "
                                     "must return a value");
  for (const PyValue &d : dtypes)
    if (d.kind != PyValue::Kind::DType)
      return e.error(args.locs[3], c.displayName +
                                       "() 'dtype' must be a dtype or a "
                                       "tuple of dtypes, got " +
                                       describe(d));

  std::vector<PyValue> operands;
  for (const PyValue &arg : args.values[2].elements) {
    std::optional<PyValue> value = e.toRuntime(arg, args.locs[2]);
    if (!value)
      return std::nullopt;
    operands.push_back(*value);
  }
  llvm::SmallVector<const PyValue *> pointers;
  for (const PyValue &operand : operands)
    pointers.push_back(&operand);
  auto common =
      e.commonShape(pointers, (c.displayName + "()").str(), c.getLoc());
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Location loc = e.getLoc(c.getLoc());
  llvm::SmallVector<mlir::Value> values;
  for (const PyValue &operand : operands)
    values.push_back(asBlock ? e.broadcastTo(operand.value, shape, loc)
                             : operand.value);
  llvm::SmallVector<mlir::Type> resultTypes;
  for (const PyValue &d : dtypes)
    resultTypes.push_back(
        asBlock ? mlir::Type(mlir::RankedTensorType::get(shape, d.type))
                : d.type);
  std::string problem = mlir::tile::checkInlineAsmConstraints(
      mlir::ValueRange(values).getTypes(), resultTypes, args.values[1].text,
      unsigned(pack.intValue));
  if (!problem.empty())
    return e.error(c.getLoc(), c.displayName + "(): " + problem);
  auto op = mlir::tile::InlineAsmElementwiseOp::create(
      e.builder, loc, resultTypes, args.values[0].text, args.values[1].text,
      isTruthy(pure), int32_t(pack.intValue), values);
  std::vector<PyValue> results;
  for (auto [result, d] : llvm::zip(op.getResults(), dtypes))
    results.push_back(PyValue::runtime(result, d.isUnsigned));
  if (!multiple)
    return results[0];
  return PyValue::tuple(std::move(results));
}
} // namespace

llvm::ArrayRef<Builtin> getMathBuiltins() {
  static const std::vector<BuiltinParam> castParams = {
      {"input", true},
      {"dtype", true},
      {"fp_downcast_rounding", false},
      {"bitcast", false}};
  static const std::vector<BuiltinParam> unary = {{"x", true}};
  static const std::vector<BuiltinParam> minMax = {
      {"x", true}, {"y", true}, {"propagate_nan", false}};
  static const Builtin builtins[] = {
      {"cast", castParams, emitCastCall, kMethod},
      {"to", castParams, emitCastCall, kMethod},
      {"where", {{"condition", true}, {"x", true}, {"y", true}}, emitMathCall},
      {"maximum", minMax, emitMathCall},
      {"minimum", minMax, emitMathCall},
      {"clamp",
       {{"x", true}, {"min", true}, {"max", true}, {"propagate_nan", false}},
       emitMathCall},
      {"fma", {{"x", true}, {"y", true}, {"z", true}}, emitMathCall, kMethod},
      {"cdiv", {{"x", true}, {"div", true}}, emitMathCall, kMethod},
      {"fdiv",
       {{"x", true}, {"y", true}, {"ieee_rounding", false}},
       emitMathCall},
      {"div_rn", {{"x", true}, {"y", true}}, emitMathCall},
      {"umulhi", {{"x", true}, {"y", true}}, emitMathCall},
      {"exp", unary, emitMathCall, kMethod},
      {"exp2", unary, emitMathCall, kMethod},
      {"log", unary, emitMathCall, kMethod},
      {"log2", unary, emitMathCall, kMethod},
      {"sqrt", unary, emitMathCall, kMethod},
      {"sqrt_rn", unary, emitMathCall, kMethod},
      {"rsqrt", unary, emitMathCall, kMethod},
      {"abs", unary, emitMathCall, kMethod},
      {"sin", unary, emitMathCall, kMethod},
      {"cos", unary, emitMathCall, kMethod},
      {"erf", unary, emitMathCall, kMethod},
      {"floor", unary, emitMathCall, kMethod},
      {"ceil", unary, emitMathCall, kMethod},
      {"sigmoid", unary, emitMathCall, kMethod},
      {"softmax",
       {{"x", true}, {"ieee_rounding", false}},
       emitSoftmax,
       kMethod},
      {"inline_asm_elementwise",
       {{"asm", true},
        {"constraints", true},
        {"args", true},
        {"dtype", true},
        {"is_pure", true},
        {"pack", true}},
       emitInlineAsm,
       kNeedsIR},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
