//===- Dot.cpp - tl.dot ---------------------------------------------------===//
//
// tl.dot: operand types, accumulators and input precision.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

#include <functional>
#include <tuple>

namespace tile::frontend::mlirgen {

KernelEmitter::Result KernelEmitter::emitDot(const CallArgs &args,
                                             const ast::CallExpr &call,
                                             llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  const PyValue &a = args.values[0], &b = args.values[1];
  if (a.isRuntime() && b.isRuntime() && getShape(a.value).size() == 3 &&
      getShape(b.value).size() == 3)
    return emitBatchedDot(args, call, displayName);
  for (int i = 0; i < 2; ++i) {
    const PyValue &v = args.values[i];
    if (!v.isRuntime() || getShape(v.value).size() != 2)
      return error(args.locs[i], displayName +
                                     "() operands must be 2-D "
                                     "blocks, got " +
                                     describe(v));
  }
  llvm::ArrayRef<int64_t> aShape = getShape(a.value),
                          bShape = getShape(b.value);
  if (aShape[1] != bShape[0])
    return error(callLoc, displayName + "() inner dimensions differ: " +
                              formatShape(aShape) + " @ " +
                              formatShape(bShape));
  mlir::Type aType = getElementType(a.value), bType = getElementType(b.value);
  if (aType != bType)
    return error(callLoc, displayName +
                              "() operands must have one element type, got " +
                              describe(a) + " and " + describe(b));
  // Triton's operand types (fp8 aside): int8, fp16, bf16, fp32, fp64.
  if (!(aType.isInteger(8) && !a.isUnsigned) && !aType.isF16() &&
      !aType.isBF16() && !aType.isF32() && !aType.isF64() &&
      !isa<mlir::Float8E4M3FNType, mlir::Float8E5M2Type>(aType))
    return error(callLoc, displayName +
                              "() operands must be int8, fp16, bf16, fp32 "
                              "or fp64, got " +
                              describe(a));
  // The accumulator type: out_dtype (fp32 by default), i32 for integers.
  mlir::Type outType = builder.getF32Type();
  if (args.present[6] && args.values[6].kind != PyValue::Kind::None) {
    if (args.values[6].kind != PyValue::Kind::DType)
      return error(args.locs[6], displayName +
                                     "() out_dtype must be a dtype, "
                                     "got " +
                                     describe(args.values[6]));
    outType = args.values[6].type;
  }
  if (isInteger(aType))
    outType = builder.getI32Type();
  else if (aType.isF64())
    outType = builder.getF64Type(); // Triton: fp64 operands give fp64
  llvm::SmallVector<int64_t> resultShape = {aShape[0], bShape[1]};
  auto resultType = mlir::RankedTensorType::get(resultShape, outType);
  mlir::Value acc;
  if (args.present[2] && args.values[2].kind != PyValue::Kind::None) {
    const PyValue &accValue = args.values[2];
    if (!accValue.isRuntime() || accValue.value.getType() != resultType)
      return error(args.locs[2], displayName + "() acc must be " +
                                     describeType(resultType) + ", got " +
                                     describe(accValue));
    acc = accValue.value;
  } else {
    acc = materialize(PyValue::integer(0), outType, true, resultShape, loc);
  }
  mlir::tile::InputPrecision precision = mlir::tile::InputPrecision::tf32;
  if (args.present[4] && args.values[4].kind == PyValue::Kind::Bool &&
      !args.values[4].boolValue)
    precision = mlir::tile::InputPrecision::ieee;
  if (args.present[3] && args.values[3].kind != PyValue::Kind::None) {
    const PyValue &p = args.values[3];
    std::optional<mlir::tile::InputPrecision> parsed;
    if (p.kind == PyValue::Kind::String)
      parsed = mlir::tile::symbolizeInputPrecision(p.text);
    if (!parsed)
      return error(args.locs[3],
                   displayName +
                       "() input_precision must be one of "
                       "'tf32', 'tf32x3', 'ieee'; got " +
                       (p.kind == PyValue::Kind::String ? "'" + p.text + "'"
                                                        : describe(p)));
    precision = *parsed;
  }
  uint32_t maxImprecise = 0;
  if (args.present[5] && args.values[5].kind == PyValue::Kind::Int)
    maxImprecise = args.values[5].intValue;
  return PyValue::runtime(mlir::tile::DotOp::create(builder, loc, resultType,
                                                    a.value, b.value, acc,
                                                    precision, maxImprecise));
}

KernelEmitter::Result
KernelEmitter::emitBatchedDot(const CallArgs &args, const ast::CallExpr &call,
                              llvm::StringRef displayName) {
  // [B, M, K] @ [B, K, N]: B 2-D dots. The batch moves last
  // ([M, K, B]) and is halved by reshape and split until each dot is 2-D;
  // the results join back in the same order and the batch moves first
  // again. (Triton gives the batch a dimension of the mma layout; this
  // takes the shape ops, which run on the GPU through shared memory.)
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  llvm::ArrayRef<int64_t> aShape = getShape(args.values[0].value),
                          bShape = getShape(args.values[1].value);
  int64_t batch = aShape[0];
  if (bShape[0] != batch || aShape[2] != bShape[1])
    return error(callLoc, displayName +
                              "() of 3-D blocks needs [B, M, K] @ "
                              "[B, K, N], got " +
                              formatShape(aShape) + " @ " +
                              formatShape(bShape));
  if (!llvm::isPowerOf2_64(batch))
    return error(callLoc, displayName +
                              "() of 3-D blocks needs a batch that "
                              "is a power of 2, got " +
                              llvm::Twine(batch));
  auto moveBatch = [&](mlir::Value v, llvm::ArrayRef<int32_t> order) {
    llvm::ArrayRef<int64_t> shape = getShape(v);
    llvm::SmallVector<int64_t> moved;
    for (int32_t axis : order)
      moved.push_back(shape[axis]);
    return mlir::tile::TransOp::create(
               builder, loc,
               mlir::RankedTensorType::get(moved, getElementType(v)), v,
               builder.getDenseI32ArrayAttr(order))
        .getResult();
  };
  auto reshape = [&](mlir::Value v, llvm::ArrayRef<int64_t> shape) {
    return mlir::tile::ReshapeOp::create(
               builder, loc,
               mlir::RankedTensorType::get(shape, getElementType(v)), v,
               /*canReorder=*/false)
        .getResult();
  };
  // The two halves of [X, Y, b] by batch parity: [X, Y, b/2] each.
  auto halve = [&](mlir::Value v) {
    llvm::SmallVector<int64_t> shape(getShape(v));
    int64_t b = shape.back();
    shape.back() = b / 2;
    auto half = mlir::RankedTensorType::get(shape, getElementType(v));
    shape.push_back(2);
    auto split = mlir::tile::SplitOp::create(builder, loc, half, half,
                                             reshape(v, shape));
    return std::make_pair(split.getOutLHS(), split.getOutRHS());
  };
  bool hasAcc = args.present[2] && args.values[2].kind != PyValue::Kind::None;
  if (hasAcc && (!args.values[2].isRuntime() ||
                 getShape(args.values[2].value).size() != 3))
    return error(args.locs[2], displayName +
                                   "() acc of a 3-D dot must be a "
                                   "[B, M, N] block, got " +
                                   describe(args.values[2]));
  std::function<std::optional<mlir::Value>(mlir::Value, mlir::Value,
                                           mlir::Value)>
      dot = [&](mlir::Value a3, mlir::Value b3,
                mlir::Value acc3) -> std::optional<mlir::Value> {
    llvm::ArrayRef<int64_t> as = getShape(a3), bs = getShape(b3);
    if (as.back() == 1) {
      CallArgs flat = args;
      flat.values[0] = PyValue::runtime(reshape(a3, {as[0], as[1]}),
                                        args.values[0].isUnsigned);
      flat.values[1] = PyValue::runtime(reshape(b3, {bs[0], bs[1]}),
                                        args.values[1].isUnsigned);
      if (acc3) {
        llvm::ArrayRef<int64_t> cs = getShape(acc3);
        flat.values[2] = PyValue::runtime(reshape(acc3, {cs[0], cs[1]}),
                                          args.values[2].isUnsigned);
      }
      Result c = emitDot(flat, call, displayName);
      if (!c)
        return std::nullopt;
      llvm::SmallVector<int64_t> cs(getShape(c->value));
      cs.push_back(1);
      return reshape(c->value, cs);
    }
    auto [a0, a1] = halve(a3);
    auto [b0, b1] = halve(b3);
    mlir::Value acc0, acc1;
    if (acc3)
      std::tie(acc0, acc1) = halve(acc3);
    std::optional<mlir::Value> c0 = dot(a0, b0, acc0);
    std::optional<mlir::Value> c1 = c0 ? dot(a1, b1, acc1) : std::nullopt;
    if (!c1)
      return std::nullopt;
    llvm::SmallVector<int64_t> shape(getShape(*c0));
    shape.push_back(2);
    mlir::Value joined = mlir::tile::JoinOp::create(
        builder, loc, mlir::RankedTensorType::get(shape, getElementType(*c0)),
        *c0, *c1);
    shape.pop_back();
    shape.back() *= 2;
    return reshape(joined, shape);
  };
  mlir::Value acc3 =
      hasAcc ? moveBatch(args.values[2].value, {1, 2, 0}) : mlir::Value();
  std::optional<mlir::Value> c =
      dot(moveBatch(args.values[0].value, {1, 2, 0}),
          moveBatch(args.values[1].value, {1, 2, 0}), acc3);
  if (!c)
    return std::nullopt;
  return PyValue::runtime(moveBatch(*c, {2, 0, 1}));
}

namespace {
KernelEmitter::Result emitDotCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitDot(c.args, c.call, c.displayName);
}
} // namespace

llvm::ArrayRef<Builtin> getDotBuiltins() {
  static const Builtin builtins[] = {
      {"dot",
       {{"input", true},
        {"other", true},
        {"acc", false},
        {"input_precision", false},
        {"allow_tf32", false},
        {"max_num_imprecise_acc", false},
        {"out_dtype", false}},
       emitDotCall,
       kNeedsIR},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
