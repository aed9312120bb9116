//===- Dot.cpp - tl.dot ---------------------------------------------------===//
//
// tl.dot: operand types, accumulators and input precision.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

KernelEmitter::Result KernelEmitter::emitDot(const CallArgs &args,
                                             const ast::CallExpr &call,
                                             llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  const PyValue &a = args.values[0], &b = args.values[1];
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
