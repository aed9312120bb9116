//===- Dispatch.cpp - Triton kernels to the tile dialect --------------------===
//
// triton.language calls dispatched to their builtin.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

KernelEmitter::Result
KernelEmitter::emitLanguageCall(const ast::CallExpr &call, llvm::StringRef name,
                                llvm::StringRef displayName,
                                const PyValue *self) {
  const ast::Location &callLoc = call.getLoc();
  auto evaluate = [&](llvm::ArrayRef<BuiltinParam> params,
                      int variadicFrom = -1) {
    return evaluateArguments(call, displayName, params, self, variadicFrom);
  };
  if (!self) {
    if (name == "program_id")
      return emitProgramIdLike(call, displayName, /*numPrograms=*/false);
    if (name == "num_programs")
      return emitProgramIdLike(call, displayName, /*numPrograms=*/true);
    if (name == "arange")
      return emitArange(call, displayName);
    if (name == "load")
      return emitLoad(call, displayName);
    if (name == "store")
      return emitStore(call, displayName);
  }
  if (name == "constexpr") {
    auto args = evaluate({{"value", true}});
    if (!args)
      return std::nullopt;
    if (args->values[0].isRuntime())
      return error(args->locs[0], displayName +
                                      "() needs a compile-time value, got " +
                                      describe(args->values[0]));
    return args->values[0];
  }
  if (name == "pointer_type") {
    auto args = evaluate({{"element_ty", true}, {"address_space", false}});
    if (!args)
      return std::nullopt;
    if (args->values[0].kind != PyValue::Kind::DType)
      return error(args->locs[0], displayName + "() needs a dtype, got " +
                                      describe(args->values[0]));
    return PyValue::dtype(
        mlir::tile::PointerType::get(&context, args->values[0].type),
        args->values[0].isUnsigned);
  }

  // Creation.
  if (name == "zeros" || name == "full") {
    bool isFull = name == "full";
    auto args =
        isFull ? evaluate({{"shape", true}, {"value", true}, {"dtype", true}})
               : evaluate({{"shape", true}, {"dtype", true}});
    if (!args)
      return std::nullopt;
    std::optional<llvm::SmallVector<int64_t>> shape =
        toShape(args->values[0], args->locs[0], displayName);
    if (!shape)
      return std::nullopt;
    const PyValue &dtype = args->values[isFull ? 2 : 1];
    if (dtype.kind != PyValue::Kind::DType)
      return error(args->locs[isFull ? 2 : 1],
                   displayName + "() 'dtype' must be a dtype (" + kDTypeNames +
                       "), got " + describe(dtype));
    PyValue value = isFull ? args->values[1] : PyValue::integer(0);
    if (!value.isRuntime() && !value.isNumber())
      return error(args->locs[1], displayName +
                                      "() 'value' must be a number, got " +
                                      describe(value));
    if (value.isRuntime() && isBlock(value.value))
      return error(args->locs[1], displayName +
                                      "() 'value' must be a scalar, got " +
                                      describe(value));
    if (!requireIR(callLoc, displayName))
      return std::nullopt;
    return PyValue::runtime(
        makeFull(*shape, dtype.type, value, getLoc(callLoc)), dtype.isUnsigned);
  }
  if (name == "zeros_like") {
    auto args = evaluate({{"input", true}});
    if (!args)
      return std::nullopt;
    const PyValue &input = args->values[0];
    if (!input.isRuntime())
      return error(args->locs[0],
                   displayName + "() needs a block, got " + describe(input));
    return PyValue::runtime(zeroLike(input.value.getType(), getLoc(callLoc)),
                            input.isUnsigned);
  }
  if (name == "cast" || name == "to") {
    auto args = evaluate({{"input", true},
                          {"dtype", true},
                          {"fp_downcast_rounding", false},
                          {"bitcast", false}});
    if (!args)
      return std::nullopt;
    bool bitcast = args->present[3] && isTruthy(args->values[3]);
    if (args->present[2] && args->values[2].kind != PyValue::Kind::None)
      return error(args->locs[2], displayName +
                                      "() fp_downcast_rounding is not "
                                      "supported (conversions round to "
                                      "nearest even)");
    return emitCast(args->values[0], args->values[1], bitcast, callLoc,
                    displayName);
  }

  // Elementwise math.
  if (name == "where") {
    auto args = evaluate({{"condition", true}, {"x", true}, {"y", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "maximum" || name == "minimum") {
    auto args = evaluate({{"x", true}, {"y", true}, {"propagate_nan", false}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "clamp") {
    auto args = evaluate(
        {{"x", true}, {"min", true}, {"max", true}, {"propagate_nan", false}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "fma") {
    auto args = evaluate({{"x", true}, {"y", true}, {"z", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "cdiv") {
    auto args = evaluate({{"x", true}, {"div", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "fdiv") {
    auto args = evaluate({{"x", true}, {"y", true}, {"ieee_rounding", false}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "div_rn" || name == "umulhi") {
    auto args = evaluate({{"x", true}, {"y", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  static const char *const unaryMath[] = {
      "exp", "exp2", "log", "log2", "sqrt",  "sqrt_rn", "rsqrt",
      "abs", "sin",  "cos", "erf",  "floor", "ceil",    "sigmoid"};
  if (llvm::is_contained(unaryMath, name)) {
    auto args = evaluate({{"x", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "softmax") {
    // Triton's standard library: exp(x - max) / sum, along the last axis.
    auto args = evaluate({{"x", true}, {"ieee_rounding", false}});
    if (!args)
      return std::nullopt;
    const PyValue &x = args->values[0];
    if (!x.isRuntime() || !isBlock(x.value))
      return error(args->locs[0],
                   displayName + "() needs a block, got " + describe(x));
    int64_t last = getShape(x.value).size() - 1;
    CallArgs reduceArgs;
    reduceArgs.values = {x, PyValue::integer(last), PyValue::none(),
                         PyValue::none(), PyValue::boolean(true)};
    reduceArgs.present = {true, true, false, false, true};
    reduceArgs.locs.assign(5, callLoc);
    Result maximum = emitReduction("max", reduceArgs, call, "tl.max");
    if (!maximum)
      return std::nullopt;
    Result shifted = emitBinary(ast::BinaryOp::Sub, x, *maximum, callLoc);
    if (!shifted)
      return std::nullopt;
    CallArgs expArgs;
    expArgs.values = {*shifted};
    expArgs.present = {true};
    expArgs.locs = {callLoc};
    Result numerator = emitMath("exp", expArgs, call, "tl.exp");
    if (!numerator)
      return std::nullopt;
    reduceArgs.values = {*numerator, PyValue::integer(last),
                         PyValue::boolean(true), PyValue::none()};
    reduceArgs.present = {true, true, true, false};
    reduceArgs.locs.assign(4, callLoc);
    Result denominator = emitReduction("sum", reduceArgs, call, "tl.sum");
    if (!denominator)
      return std::nullopt;
    return emitBinary(ast::BinaryOp::Div, *numerator, *denominator, callLoc);
  }

  // Shapes.
  if (name == "reshape") {
    auto args =
        evaluate({{"input", true}, {"shape", true}, {"can_reorder", false}},
                 /*variadicFrom=*/1);
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "view" || name == "broadcast_to") {
    auto args = evaluate({{"input", true}, {"shape", true}}, 1);
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "trans" || name == "permute") {
    auto args = evaluate({{"input", true}, {"dims", name == "permute"}}, 1);
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "expand_dims") {
    auto args = evaluate({{"input", true}, {"axis", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "ravel") {
    auto args = evaluate({{"x", true}, {"can_reorder", false}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "broadcast") {
    auto args = evaluate({{"input", true}, {"other", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "cat") {
    auto args =
        evaluate({{"input", true}, {"other", true}, {"can_reorder", false}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "join") {
    auto args = evaluate({{"a", true}, {"b", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "split") {
    auto args = evaluate({{"a", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }

  // Matrix multiplication.
  if (name == "dot") {
    auto args = evaluate({{"input", true},
                          {"other", true},
                          {"acc", false},
                          {"input_precision", false},
                          {"allow_tf32", false},
                          {"max_num_imprecise_acc", false},
                          {"out_dtype", false}});
    if (!args || !requireIR(callLoc, displayName))
      return std::nullopt;
    return emitDot(*args, call, displayName);
  }

  // Reductions: one signature per function, one emitter for all.
  static const llvm::StringMap<std::vector<BuiltinParam>> reductionParams = {
      {"sum",
       {{"input", true},
        {"axis", false},
        {"keep_dims", false},
        {"dtype", false}}},
      {"max",
       {{"input", true},
        {"axis", false},
        {"return_indices", false},
        {"return_indices_tie_break_left", false},
        {"keep_dims", false}}},
      {"min",
       {{"input", true},
        {"axis", false},
        {"return_indices", false},
        {"return_indices_tie_break_left", false},
        {"keep_dims", false}}},
      {"argmax",
       {{"input", true},
        {"axis", true},
        {"tie_break_left", false},
        {"keep_dims", false}}},
      {"argmin",
       {{"input", true},
        {"axis", true},
        {"tie_break_left", false},
        {"keep_dims", false}}},
      {"xor_sum", {{"input", true}, {"axis", false}, {"keep_dims", false}}},
      {"reduce",
       {{"input", true},
        {"axis", true},
        {"combine_fn", true},
        {"keep_dims", false}}}};
  if (auto it = reductionParams.find(name); it != reductionParams.end()) {
    auto args = evaluate(it->second);
    return args && requireIR(callLoc, displayName)
               ? emitReduction(name, *args, call, displayName)
               : std::nullopt;
  }

  // Scans.
  if (name == "cumsum" || name == "cumprod") {
    auto args = evaluate({{"input", true},
                          {"axis", false},
                          {"reverse", false},
                          {"dtype", false}});
    if (name == "cumprod" && args && args->present[3])
      return error(args->locs[3], displayName +
                                      "() got an unexpected keyword argument "
                                      "'dtype'; valid: input, axis, reverse");
    return args && requireIR(callLoc, displayName)
               ? emitScan(name, *args, call, displayName)
               : std::nullopt;
  }
  if (name == "associative_scan") {
    auto args = evaluate({{"input", true},
                          {"axis", true},
                          {"combine_fn", true},
                          {"reverse", false}});
    return args && requireIR(callLoc, displayName)
               ? emitScan(name, *args, call, displayName)
               : std::nullopt;
  }

  // Atomics.
  if (name == "atomic_cas") {
    auto args = evaluate({{"pointer", true},
                          {"cmp", true},
                          {"val", true},
                          {"sem", false},
                          {"scope", false}});
    return args && requireIR(callLoc, displayName)
               ? emitAtomic(name, *args, call, displayName)
               : std::nullopt;
  }
  if (name == "atomic_add" || name == "atomic_max" || name == "atomic_min" ||
      name == "atomic_and" || name == "atomic_or" || name == "atomic_xor" ||
      name == "atomic_xchg") {
    auto args = evaluate({{"pointer", true},
                          {"val", true},
                          {"mask", false},
                          {"sem", false},
                          {"scope", false}});
    return args && requireIR(callLoc, displayName)
               ? emitAtomic(name, *args, call, displayName)
               : std::nullopt;
  }

  // Compiler hints.
  if (name == "multiple_of" || name == "max_contiguous" ||
      name == "max_constancy") {
    auto args = evaluate({{"input", true}, {"values", true}});
    if (!args)
      return std::nullopt;
    const PyValue &input = args->values[0];
    if (!input.isRuntime())
      return error(args->locs[0], displayName +
                                      "() needs a runtime value, "
                                      "got " +
                                      describe(input));
    llvm::SmallVector<int32_t> values;
    llvm::SmallVector<PyValue> given;
    if (args->values[1].kind == PyValue::Kind::Tuple)
      given.append(args->values[1].elements.begin(),
                   args->values[1].elements.end());
    else
      given.push_back(args->values[1]);
    for (const PyValue &v : given) {
      if (v.kind != PyValue::Kind::Int || !llvm::isInt<32>(v.intValue) ||
          v.intValue <= 0)
        return error(args->locs[1], displayName +
                                        "() values must be positive "
                                        "compile-time integers, got " +
                                        describe(v));
      values.push_back(v.intValue);
    }
    size_t rank = std::max<size_t>(1, getShape(input.value).size());
    if (values.size() != rank)
      return error(args->locs[1],
                   displayName + "() needs " + llvm::Twine(rank) +
                       " value(s), one per dimension of " + describe(input) +
                       "; got " + llvm::Twine(values.size()));
    llvm::StringRef attrName =
        name == "multiple_of"      ? mlir::tile::kHintDivisibilityAttr
        : name == "max_contiguous" ? mlir::tile::kHintContiguityAttr
                                   : mlir::tile::kHintConstancyAttr;
    if (mlir::Operation *op = input.value.getDefiningOp()) {
      op->setAttr(attrName, builder.getDenseI32ArrayAttr(values));
    } else if (auto argument = dyn_cast<mlir::BlockArgument>(input.value)) {
      // A kernel argument: divisibility becomes the argument attribute the
      // contiguity analysis reads, as a launch specialization would.
      auto function =
          dyn_cast<mlir::func::FuncOp>(argument.getOwner()->getParentOp());
      if (function && name == "multiple_of")
        function.setArgAttr(argument.getArgNumber(),
                            mlir::tile::kDivisibilityAttr,
                            builder.getI32IntegerAttr(values[0]));
    }
    return input;
  }
  if (name == "assume") {
    auto args = evaluate({{"cond", true}});
    if (!args)
      return std::nullopt;
    // Only an optimization hint; Tile has no use for it yet.
    return PyValue::none();
  }

  // Debugging.
  if (name == "static_print") {
    std::string text;
    for (const ast::ExprPtr &arg : call.getArgs()) {
      Result value = emitExpr(*arg);
      if (!value)
        return std::nullopt;
      if (!text.empty())
        text += " ";
      if (value->kind == PyValue::Kind::String)
        text += value->text;
      else if (value->kind == PyValue::Kind::Int)
        text += std::to_string(value->intValue);
      else if (value->kind == PyValue::Kind::Bool)
        text += value->boolValue ? "True" : "False";
      else if (value->kind == PyValue::Kind::Float)
        text += std::to_string(value->floatValue);
      else
        text += describe(*value);
    }
    llvm::errs() << text << "\n";
    return PyValue::none();
  }
  if (name == "static_assert") {
    auto args = evaluate({{"cond", true}, {"msg", false}});
    if (!args)
      return std::nullopt;
    if (!args->values[0].isConstexpr())
      return error(args->locs[0], displayName +
                                      "() needs a compile-time condition, "
                                      "got " +
                                      describe(args->values[0]));
    if (!isTruthy(args->values[0]))
      return error(callLoc, "static_assert failed" +
                                (args->values[1].kind == PyValue::Kind::String
                                     ? ": " + args->values[1].text
                                     : std::string()));
    return PyValue::none();
  }
  if (name == "device_print") {
    if (!requireIR(callLoc, displayName))
      return std::nullopt;
    std::string prefix;
    llvm::SmallVector<mlir::Value> values;
    llvm::SmallVector<int32_t> isSigned;
    bool hex = false;
    for (const ast::Keyword &keyword : call.getKeywords()) {
      if (keyword.name != "hex")
        return error(keyword.loc, displayName +
                                      "() got an unexpected keyword argument "
                                      "'" +
                                      keyword.name + "'; valid: hex");
      Result value = emitExpr(*keyword.value);
      if (!value)
        return std::nullopt;
      hex = isTruthy(*value);
    }
    for (auto [index, arg] : llvm::enumerate(call.getArgs())) {
      Result value = emitExpr(*arg);
      if (!value)
        return std::nullopt;
      if (index == 0 && value->kind == PyValue::Kind::String) {
        prefix = value->text;
        continue;
      }
      std::optional<PyValue> runtimeValue = toRuntime(*value, arg->getLoc());
      if (!runtimeValue)
        return std::nullopt;
      values.push_back(runtimeValue->value);
      isSigned.push_back(!runtimeValue->isUnsigned);
    }
    mlir::tile::PrintOp::create(builder, getLoc(callLoc), prefix, hex, values,
                                isSigned);
    return PyValue::none();
  }
  if (name == "device_assert") {
    auto args = evaluate({{"cond", true}, {"msg", false}, {"mask", false}});
    if (!args)
      return std::nullopt;
    const PyValue &cond = args->values[0];
    std::string message = args->values[1].kind == PyValue::Kind::String
                              ? args->values[1].text
                              : std::string();
    if (!cond.isRuntime()) {
      if (!isTruthy(cond))
        return error(callLoc, "device_assert fails at compile time" +
                                  (message.empty() ? "" : ": " + message));
      return PyValue::none();
    }
    mlir::Location loc = getLoc(callLoc);
    mlir::Value condition =
        castValue(cond.value, cond.isUnsigned, builder.getI1Type(), false, loc);
    mlir::tile::AssertOp::create(builder, loc, condition,
                                 builder.getStringAttr(message));
    return PyValue::none();
  }
  if (name == "debug_barrier") {
    auto args = evaluate({});
    if (!args || !requireIR(callLoc, displayName))
      return std::nullopt;
    mlir::tile::DebugBarrierOp::create(builder, getLoc(callLoc));
    return PyValue::none();
  }
  if (name == "static_range" || name == "range")
    return error(callLoc, displayName + "() can only be used as the iterable "
                                        "of a 'for' loop");
  return error(callLoc, displayName + "() is not supported");
}

} // namespace tile::frontend::mlirgen
