//===- Creation.cpp - Builtins that create values -------------------------===//
//
// Builtins that create values: program ids, ranges, blocks filled with a value,
// casts.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

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

namespace {
using Result = KernelEmitter::Result;

Result emitProgramId(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitProgramIdLike(c.call, c.displayName, /*numPrograms=*/false);
}

Result emitNumPrograms(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitProgramIdLike(c.call, c.displayName, /*numPrograms=*/true);
}

Result emitArangeCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitArange(c.call, c.displayName);
}

Result emitConstexpr(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue &value = c.args.values[0];
  if (value.isRuntime())
    return e.error(c.args.locs[0], c.displayName +
                                       "() needs a compile-time value, got " +
                                       describe(value));
  return value;
}

Result emitPointerType(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue &elementType = c.args.values[0];
  if (elementType.kind != PyValue::Kind::DType)
    return e.error(c.args.locs[0], c.displayName + "() needs a dtype, got " +
                                       describe(elementType));
  return PyValue::dtype(
      mlir::tile::PointerType::get(&e.context, elementType.type),
      elementType.isUnsigned);
}

/// tl.zeros(shape, dtype) and tl.full(shape, value, dtype).
Result emitFull(KernelEmitter &e, const BuiltinCall &c) {
  bool isFull = c.name == "full";
  const auto &args = c.args;
  std::optional<llvm::SmallVector<int64_t>> shape =
      e.toShape(args.values[0], args.locs[0], c.displayName);
  if (!shape)
    return std::nullopt;
  const PyValue &dtype = args.values[isFull ? 2 : 1];
  if (dtype.kind != PyValue::Kind::DType)
    return e.error(args.locs[isFull ? 2 : 1],
                   c.displayName + "() 'dtype' must be a dtype (" +
                       kDTypeNames + "), got " + describe(dtype));
  PyValue value = isFull ? args.values[1] : PyValue::integer(0);
  if (!value.isRuntime() && !value.isNumber())
    return e.error(args.locs[1], c.displayName +
                                     "() 'value' must be a number, got " +
                                     describe(value));
  if (value.isRuntime() && isBlock(value.value))
    return e.error(args.locs[1], c.displayName +
                                     "() 'value' must be a scalar, got " +
                                     describe(value));
  if (!e.requireIR(c.getLoc(), c.displayName))
    return std::nullopt;
  return PyValue::runtime(
      e.makeFull(*shape, dtype.type, value, e.getLoc(c.getLoc())),
      dtype.isUnsigned);
}

Result emitZerosLike(KernelEmitter &e, const BuiltinCall &c) {
  const PyValue &input = c.args.values[0];
  if (!input.isRuntime())
    return e.error(c.args.locs[0],
                   c.displayName + "() needs a block, got " + describe(input));
  return PyValue::runtime(
      e.zeroLike(input.value.getType(), e.getLoc(c.getLoc())),
      input.isUnsigned);
}
} // namespace

llvm::ArrayRef<Builtin> getCreationBuiltins() {
  static const Builtin builtins[] = {
      {"program_id", {}, emitProgramId, kRawArguments},
      {"num_programs", {}, emitNumPrograms, kRawArguments},
      {"arange", {}, emitArangeCall, kRawArguments},
      {"constexpr", {{"value", true}}, emitConstexpr},
      {"pointer_type",
       {{"element_ty", true}, {"address_space", false}},
       emitPointerType},
      {"zeros", {{"shape", true}, {"dtype", true}}, emitFull},
      {"full", {{"shape", true}, {"value", true}, {"dtype", true}}, emitFull},
      {"zeros_like", {{"input", true}}, emitZerosLike},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
