//===- Reductions.cpp - Reductions and scans ------------------------------===//
//
// Reductions and scans: sum, max, argmax, reduce, cumsum, associative_scan.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

std::optional<llvm::SmallVector<mlir::Value>>
KernelEmitter::buildReduce(llvm::ArrayRef<mlir::Value> operands, int64_t axis,
                           CombineBuilder combine, mlir::Location loc) {
  llvm::SmallVector<int64_t> shape(getShape(operands[0]));
  shape.erase(shape.begin() + axis);
  llvm::SmallVector<mlir::Type> resultTypes, elementTypes;
  llvm::SmallVector<mlir::Location> locs;
  for (mlir::Value operand : operands) {
    mlir::Type element = getElementType(operand);
    elementTypes.push_back(element);
    resultTypes.push_back(
        shape.empty() ? element : mlir::RankedTensorType::get(shape, element));
  }
  for (int i = 0; i < 2; ++i)
    for (mlir::Type element : elementTypes) {
      (void)element;
      locs.push_back(loc);
    }
  auto reduce = mlir::tile::ReduceOp::create(
      builder, loc, resultTypes, operands, builder.getI32IntegerAttr(axis));
  llvm::SmallVector<mlir::Type> blockTypes(elementTypes);
  blockTypes.append(elementTypes);
  mlir::OpBuilder::InsertionGuard guard(builder);
  mlir::Block *block =
      builder.createBlock(&reduce.getCombineOp(), {}, blockTypes, locs);
  llvm::SmallVector<mlir::Value> blockArgs(block->getArguments().begin(),
                                           block->getArguments().end());
  auto results = combine(blockArgs);
  if (!results) {
    reduce.erase();
    return std::nullopt;
  }
  mlir::tile::ReduceReturnOp::create(builder, loc, *results);
  return llvm::to_vector(llvm::map_range(
      reduce.getResults(), [](mlir::OpResult r) { return mlir::Value(r); }));
}

std::optional<llvm::SmallVector<mlir::Value>>
KernelEmitter::buildScan(llvm::ArrayRef<mlir::Value> operands, int64_t axis,
                         bool reverse, CombineBuilder combine,
                         mlir::Location loc) {
  llvm::SmallVector<mlir::Type> resultTypes, blockTypes;
  llvm::SmallVector<mlir::Location> locs;
  for (mlir::Value operand : operands) {
    resultTypes.push_back(operand.getType());
    blockTypes.push_back(getElementType(operand));
  }
  blockTypes.append(llvm::SmallVector<mlir::Type>(blockTypes));
  locs.assign(blockTypes.size(), loc);
  auto scan = mlir::tile::ScanOp::create(
      builder, loc, resultTypes, operands, builder.getI32IntegerAttr(axis),
      reverse ? builder.getUnitAttr() : mlir::UnitAttr());
  mlir::OpBuilder::InsertionGuard guard(builder);
  mlir::Block *block =
      builder.createBlock(&scan.getCombineOp(), {}, blockTypes, locs);
  llvm::SmallVector<mlir::Value> blockArgs(block->getArguments().begin(),
                                           block->getArguments().end());
  auto results = combine(blockArgs);
  if (!results) {
    scan.erase();
    return std::nullopt;
  }
  mlir::tile::ScanReturnOp::create(builder, loc, *results);
  return llvm::to_vector(llvm::map_range(
      scan.getResults(), [](mlir::OpResult r) { return mlir::Value(r); }));
}

std::optional<llvm::SmallVector<mlir::Value>> KernelEmitter::inlineCombine(
    const PyValue &function, llvm::ArrayRef<mlir::Value> args,
    llvm::ArrayRef<bool> unsignedness, const ast::Location &loc) {
  const ast::FunctionDef *definition = function.kind == PyValue::Kind::Function
                                           ? module.findFunction(function.text)
                                           : nullptr;
  if (!definition) {
    diag.error(loc, "'combine_fn' must be a @triton.jit function, got " +
                        describe(function));
    return std::nullopt;
  }
  llvm::SmallVector<PyValue> pyArgs;
  for (auto [index, arg] : llvm::enumerate(args))
    pyArgs.push_back(
        PyValue::runtime(arg, unsignedness[index % unsignedness.size()]));
  Result result = callFunction(*definition, pyArgs, {}, loc);
  if (!result)
    return std::nullopt;
  llvm::SmallVector<PyValue> values;
  if (result->kind == PyValue::Kind::Tuple)
    values.append(result->elements.begin(), result->elements.end());
  else
    values.push_back(*result);
  size_t expected = args.size() / 2;
  if (values.size() != expected) {
    diag.error(loc, "the combine function '" + function.text +
                        "' must return " + llvm::Twine(expected) + " value" +
                        (expected == 1 ? "" : "s") + ", got " +
                        describe(*result));
    return std::nullopt;
  }
  llvm::SmallVector<mlir::Value> out;
  mlir::Location irLoc = getLoc(loc);
  for (auto [index, value] : llvm::enumerate(values)) {
    mlir::Type type = args[index].getType();
    if (value.isNumber()) {
      out.push_back(materialize(value, type, false, {}, irLoc));
      continue;
    }
    if (!value.isRuntime() || value.value.getType() != type) {
      diag.error(loc, "the combine function '" + function.text +
                          "' must return " + describeType(type) +
                          " for value " + llvm::Twine(index) + ", got " +
                          describe(value));
      return std::nullopt;
    }
    out.push_back(value.value);
  }
  return out;
}

namespace {
/// The axis argument of a reduction or scan, normalized; None stays
/// std::nullopt in `axis`.
struct AxisResult {
  bool ok = false;
  std::optional<int64_t> axis;
};
} // namespace

KernelEmitter::Result
KernelEmitter::emitReduction(llvm::StringRef name, const CallArgs &args,
                             const ast::CallExpr &call,
                             llvm::StringRef displayName) {
  // args: input, axis, then per function (see emitLanguageCall).
  const PyValue &input = args.values[0];
  llvm::SmallVector<PyValue> inputs;
  if (input.kind == PyValue::Kind::Tuple && name == "reduce")
    inputs.append(input.elements.begin(), input.elements.end());
  else
    inputs.push_back(input);
  for (const PyValue &operand : inputs)
    if (!operand.isRuntime() || !isBlock(operand.value))
      return error(args.locs[0],
                   displayName + "() needs a block, got " + describe(operand));
  llvm::SmallVector<int64_t> shape(getShape(inputs[0].value));
  for (const PyValue &operand : inputs)
    if (getShape(operand.value) != llvm::ArrayRef<int64_t>(shape))
      return error(args.locs[0], displayName +
                                     "() operands must have one shape, got " +
                                     formatShape(shape) + " and " +
                                     formatShape(getShape(operand.value)));
  mlir::Location loc = getLoc(call.getLoc());
  int64_t rank = shape.size();
  std::optional<int64_t> axis;
  const PyValue &axisValue = args.values[1];
  if (axisValue.kind != PyValue::Kind::None) {
    if (axisValue.kind != PyValue::Kind::Int)
      return error(args.locs[1], displayName +
                                     "() axis must be a compile-time integer "
                                     "or None, got " +
                                     describe(axisValue));
    int64_t a =
        axisValue.intValue < 0 ? axisValue.intValue + rank : axisValue.intValue;
    if (a < 0 || a >= rank)
      return error(args.locs[1], displayName + "() axis " +
                                     llvm::Twine(axisValue.intValue) +
                                     " is out of range for a block of shape " +
                                     formatShape(shape));
    axis = a;
  }
  bool keepDims = false;
  size_t keepIndex = name == "reduce"                       ? 3
                     : name == "sum"                        ? 2
                     : name == "xor_sum"                    ? 2
                     : name == "argmax" || name == "argmin" ? 3
                                                            : 4;
  if (keepIndex < args.values.size() && args.present[keepIndex]) {
    if (args.values[keepIndex].kind != PyValue::Kind::Bool)
      return error(args.locs[keepIndex],
                   displayName +
                       "() keep_dims must be a compile-time bool, "
                       "got " +
                       describe(args.values[keepIndex]));
    keepDims = args.values[keepIndex].boolValue;
  }

  llvm::SmallVector<mlir::Value> operands;
  for (const PyValue &operand : inputs)
    operands.push_back(operand.value);
  // axis=None reduces everything: flatten first, as Triton does.
  if (!axis) {
    if (rank != 1) {
      int64_t count = 1;
      for (int64_t dim : shape)
        count *= dim;
      for (mlir::Value &operand : operands)
        operand = mlir::tile::ReshapeOp::create(
            builder, loc,
            mlir::RankedTensorType::get({count}, getElementType(operand)),
            operand, /*allow_reorder=*/true);
    }
  }
  int64_t reduceAxis = axis.value_or(0);
  bool isUnsigned = inputs[0].isUnsigned;
  mlir::Type elementType = getElementType(operands[0]);
  bool isFloatType = isFloat(elementType);

  llvm::SmallVector<mlir::Value> results;
  llvm::SmallVector<bool> resultUnsigned;
  if (name == "sum" || name == "xor_sum") {
    if (name == "xor_sum" && !isInteger(elementType))
      return error(args.locs[0], displayName + "() needs integers, got " +
                                     describe(inputs[0]));
    if (name == "sum") {
      // Triton sums integers narrower than 32 bits in 32 bits (same sign);
      // dtype= picks the accumulation type.
      mlir::Type accType = elementType;
      bool accUnsigned = isUnsigned;
      if (args.present[3] && args.values[3].kind != PyValue::Kind::None) {
        if (args.values[3].kind != PyValue::Kind::DType)
          return error(args.locs[3], displayName +
                                         "() dtype must be a dtype, "
                                         "got " +
                                         describe(args.values[3]));
        accType = args.values[3].type;
        accUnsigned = args.values[3].isUnsigned;
      } else if (isInteger(elementType) &&
                 elementType.getIntOrFloatBitWidth() < 32) {
        accType = builder.getI32Type();
      }
      if (accType != elementType)
        operands[0] =
            castValue(operands[0], isUnsigned, accType, accUnsigned, loc);
      isUnsigned = accUnsigned;
      elementType = accType;
      isFloatType = isFloat(accType);
    }
    bool isXor = name == "xor_sum";
    auto reduced = buildReduce(
        operands, reduceAxis,
        [&](llvm::ArrayRef<mlir::Value> a)
            -> std::optional<llvm::SmallVector<mlir::Value>> {
          if (isXor)
            return llvm::SmallVector<mlir::Value>{
                arith::XOrIOp::create(builder, loc, a[0], a[1])};
          if (isFloatType)
            return llvm::SmallVector<mlir::Value>{
                arith::AddFOp::create(builder, loc, a[0], a[1])};
          return llvm::SmallVector<mlir::Value>{
              arith::AddIOp::create(builder, loc, a[0], a[1])};
        },
        loc);
    if (!reduced)
      return std::nullopt;
    results = *reduced;
    resultUnsigned.push_back(isUnsigned);
  } else if (name == "max" || name == "min" || name == "argmax" ||
             name == "argmin") {
    bool isMax = name == "max" || name == "argmax";
    bool withIndices = name == "argmax" || name == "argmin" ||
                       (args.present[2] && isTruthy(args.values[2]));
    if (!withIndices) {
      auto reduced = buildReduce(
          operands, reduceAxis,
          [&](llvm::ArrayRef<mlir::Value> a)
              -> std::optional<llvm::SmallVector<mlir::Value>> {
            mlir::Value r;
            // Triton's tl.max/tl.min combine with maxnumf/minnumf on floats.
            if (isFloatType)
              r = isMax ? mlir::Value(arith::MaxNumFOp::create(builder, loc,
                                                               a[0], a[1]))
                        : mlir::Value(arith::MinNumFOp::create(builder, loc,
                                                               a[0], a[1]));
            else if (isUnsigned || isBool(elementType))
              r = isMax ? mlir::Value(
                              arith::MaxUIOp::create(builder, loc, a[0], a[1]))
                        : mlir::Value(
                              arith::MinUIOp::create(builder, loc, a[0], a[1]));
            else
              r = isMax ? mlir::Value(
                              arith::MaxSIOp::create(builder, loc, a[0], a[1]))
                        : mlir::Value(
                              arith::MinSIOp::create(builder, loc, a[0], a[1]));
            return llvm::SmallVector<mlir::Value>{r};
          },
          loc);
      if (!reduced)
        return std::nullopt;
      results = *reduced;
      resultUnsigned.push_back(isUnsigned);
    } else {
      size_t tieIndex = name == "argmax" || name == "argmin" ? 2 : 3;
      bool tieBreakLeft = true;
      if (args.present[tieIndex]) {
        if (args.values[tieIndex].kind != PyValue::Kind::Bool)
          return error(args.locs[tieIndex], displayName +
                                                "() tie-break flag must be a "
                                                "compile-time bool");
        tieBreakLeft = args.values[tieIndex].boolValue;
      }
      // The index operand: positions along the axis, broadcast.
      llvm::ArrayRef<int64_t> operandShape = getShape(operands[0]);
      int64_t length = operandShape[reduceAxis];
      mlir::Value range = mlir::tile::MakeRangeOp::create(
          builder, loc,
          mlir::RankedTensorType::get({length}, builder.getI32Type()),
          builder.getI32IntegerAttr(0), builder.getI32IntegerAttr(length));
      for (int64_t d = 0; d < int64_t(operandShape.size()); ++d) {
        if (d == reduceAxis)
          continue;
        llvm::SmallVector<int64_t> expanded(getShape(range));
        int64_t position = d < reduceAxis ? d : d;
        expanded.insert(expanded.begin() + position, 1);
        range = mlir::tile::ExpandDimsOp::create(
            builder, loc,
            mlir::RankedTensorType::get(expanded, builder.getI32Type()), range,
            builder.getI32IntegerAttr(position));
      }
      range = broadcastTo(range, operandShape, loc);
      operands.push_back(range);
      auto reduced = buildReduce(
          operands, reduceAxis,
          [&](llvm::ArrayRef<mlir::Value> a)
              -> std::optional<llvm::SmallVector<mlir::Value>> {
            mlir::Value v1 = a[0], i1 = a[1], v2 = a[2], i2 = a[3];
            mlir::Value better, equal;
            if (isFloatType) {
              better = arith::CmpFOp::create(builder, loc,
                                             isMax ? arith::CmpFPredicate::OGT
                                                   : arith::CmpFPredicate::OLT,
                                             v1, v2);
              equal = arith::CmpFOp::create(builder, loc,
                                            arith::CmpFPredicate::OEQ, v1, v2);
            } else {
              bool u = isUnsigned || isBool(elementType);
              better =
                  arith::CmpIOp::create(builder, loc,
                                        isMax ? (u ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::sgt)
                                              : (u ? arith::CmpIPredicate::ult
                                                   : arith::CmpIPredicate::slt),
                                        v1, v2);
              equal = arith::CmpIOp::create(builder, loc,
                                            arith::CmpIPredicate::eq, v1, v2);
            }
            if (tieBreakLeft) {
              mlir::Value lower = arith::CmpIOp::create(
                  builder, loc, arith::CmpIPredicate::slt, i1, i2);
              mlir::Value tie =
                  arith::AndIOp::create(builder, loc, equal, lower);
              better = arith::OrIOp::create(builder, loc, better, tie);
            }
            return llvm::SmallVector<mlir::Value>{
                arith::SelectOp::create(builder, loc, better, v1, v2),
                arith::SelectOp::create(builder, loc, better, i1, i2)};
          },
          loc);
      if (!reduced)
        return std::nullopt;
      if (name == "argmax" || name == "argmin") {
        results = {(*reduced)[1]};
        resultUnsigned = {false};
      } else {
        results = *reduced;
        resultUnsigned = {isUnsigned, false};
      }
    }
  } else { // reduce with a user combine function
    llvm::SmallVector<bool> unsignedness;
    for (const PyValue &operand : inputs)
      unsignedness.push_back(operand.isUnsigned);
    PyValue combineFn = args.values[2];
    ast::Location combineLoc = args.locs[2];
    auto reduced = buildReduce(
        operands, reduceAxis,
        [&](llvm::ArrayRef<mlir::Value> a) {
          return inlineCombine(combineFn, a, unsignedness, combineLoc);
        },
        loc);
    if (!reduced)
      return std::nullopt;
    results = *reduced;
    resultUnsigned = unsignedness;
  }

  if (keepDims) {
    for (mlir::Value &result : results) {
      if (axis) {
        llvm::SmallVector<int64_t> kept(shape);
        kept[*axis] = 1;
        if (!isBlock(result))
          result = splatTo(result, kept, loc);
        else
          result = mlir::tile::ExpandDimsOp::create(
              builder, loc,
              mlir::RankedTensorType::get(kept, getElementType(result)), result,
              builder.getI32IntegerAttr(*axis));
      } else {
        llvm::SmallVector<int64_t> ones(rank, 1);
        result = splatTo(result, ones, loc);
      }
    }
  }
  if (results.size() == 1)
    return PyValue::runtime(results[0], resultUnsigned[0]);
  std::vector<PyValue> tuple;
  for (auto [index, result] : llvm::enumerate(results))
    tuple.push_back(PyValue::runtime(result, resultUnsigned[index]));
  return PyValue::tuple(std::move(tuple));
}

KernelEmitter::Result KernelEmitter::emitScan(llvm::StringRef name,
                                              const CallArgs &args,
                                              const ast::CallExpr &call,
                                              llvm::StringRef displayName) {
  // cumsum(input, axis=0, reverse=False, dtype=None),
  // cumprod(input, axis=0, reverse=False),
  // associative_scan(input, axis, combine_fn, reverse=False).
  const PyValue &input = args.values[0];
  llvm::SmallVector<PyValue> inputs;
  if (input.kind == PyValue::Kind::Tuple && name == "associative_scan")
    inputs.append(input.elements.begin(), input.elements.end());
  else
    inputs.push_back(input);
  for (const PyValue &operand : inputs)
    if (!operand.isRuntime() || !isBlock(operand.value))
      return error(args.locs[0],
                   displayName + "() needs a block, got " + describe(operand));
  llvm::ArrayRef<int64_t> shape = getShape(inputs[0].value);
  int64_t rank = shape.size();
  PyValue axisValue = args.present[1] ? args.values[1] : PyValue::integer(0);
  if (axisValue.kind != PyValue::Kind::Int)
    return error(args.locs[1], displayName +
                                   "() axis must be a compile-time integer, "
                                   "got " +
                                   describe(axisValue));
  int64_t axis =
      axisValue.intValue < 0 ? axisValue.intValue + rank : axisValue.intValue;
  if (axis < 0 || axis >= rank)
    return error(args.locs[1], displayName + "() axis " +
                                   llvm::Twine(axisValue.intValue) +
                                   " is out of range for a block of shape " +
                                   formatShape(shape));
  size_t reverseIndex = name == "associative_scan" ? 3 : 2;
  bool reverse = false;
  if (args.present[reverseIndex]) {
    if (args.values[reverseIndex].kind != PyValue::Kind::Bool)
      return error(args.locs[reverseIndex],
                   displayName + "() reverse must be a compile-time bool");
    reverse = args.values[reverseIndex].boolValue;
  }
  mlir::Location loc = getLoc(call.getLoc());
  llvm::SmallVector<mlir::Value> operands;
  llvm::SmallVector<bool> unsignedness;
  for (const PyValue &operand : inputs) {
    operands.push_back(operand.value);
    unsignedness.push_back(operand.isUnsigned);
  }
  std::optional<llvm::SmallVector<mlir::Value>> results;
  if (name == "associative_scan") {
    PyValue combineFn = args.values[2];
    ast::Location combineLoc = args.locs[2];
    results = buildScan(
        operands, axis, reverse,
        [&](llvm::ArrayRef<mlir::Value> a) {
          return inlineCombine(combineFn, a, unsignedness, combineLoc);
        },
        loc);
  } else {
    mlir::Type elementType = getElementType(operands[0]);
    if (name == "cumsum") {
      mlir::Type accType = elementType;
      if (args.present[3] && args.values[3].kind == PyValue::Kind::DType) {
        accType = args.values[3].type;
        unsignedness[0] = args.values[3].isUnsigned;
      } else if (isInteger(elementType) &&
                 elementType.getIntOrFloatBitWidth() < 32) {
        accType = builder.getI32Type();
      }
      operands[0] = castValue(operands[0], inputs[0].isUnsigned, accType,
                              unsignedness[0], loc);
      elementType = accType;
    }
    bool isProduct = name == "cumprod";
    bool isFloatType = isFloat(elementType);
    results = buildScan(
        operands, axis, reverse,
        [&](llvm::ArrayRef<mlir::Value> a)
            -> std::optional<llvm::SmallVector<mlir::Value>> {
          mlir::Value r;
          if (isProduct)
            r = isFloatType ? mlir::Value(arith::MulFOp::create(builder, loc,
                                                                a[0], a[1]))
                            : mlir::Value(arith::MulIOp::create(builder, loc,
                                                                a[0], a[1]));
          else
            r = isFloatType ? mlir::Value(arith::AddFOp::create(builder, loc,
                                                                a[0], a[1]))
                            : mlir::Value(arith::AddIOp::create(builder, loc,
                                                                a[0], a[1]));
          return llvm::SmallVector<mlir::Value>{r};
        },
        loc);
  }
  if (!results)
    return std::nullopt;
  if (results->size() == 1)
    return PyValue::runtime((*results)[0], unsignedness[0]);
  std::vector<PyValue> tuple;
  for (auto [index, result] : llvm::enumerate(*results))
    tuple.push_back(PyValue::runtime(result, unsignedness[index]));
  return PyValue::tuple(std::move(tuple));
}

namespace {
using Result = KernelEmitter::Result;

Result emitReductionCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitReduction(c.name, c.args, c.call, c.displayName);
}

Result emitScanCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitScan(c.name, c.args, c.call, c.displayName);
}

/// tl.cumsum and tl.cumprod; only cumsum takes a dtype.
Result emitCumulative(KernelEmitter &e, const BuiltinCall &c) {
  if (c.name == "cumprod" && c.args.present[3])
    return e.error(c.args.locs[3], c.displayName +
                                       "() got an unexpected keyword argument "
                                       "'dtype'; valid: input, axis, reverse");
  if (!e.requireIR(c.getLoc(), c.displayName))
    return std::nullopt;
  return emitScanCall(e, c);
}
} // namespace

llvm::ArrayRef<Builtin> getReductionBuiltins() {
  // emitReduction and emitScan read the arguments by these positions.
  static const std::vector<BuiltinParam> maxMin = {
      {"input", true},
      {"axis", false},
      {"return_indices", false},
      {"return_indices_tie_break_left", false},
      {"keep_dims", false}};
  static const std::vector<BuiltinParam> argMaxMin = {{"input", true},
                                                      {"axis", true},
                                                      {"tie_break_left", false},
                                                      {"keep_dims", false}};
  static const std::vector<BuiltinParam> cumulative = {
      {"input", true}, {"axis", false}, {"reverse", false}, {"dtype", false}};
  constexpr unsigned reduction = kNeedsIR | kMethod;
  static const Builtin builtins[] = {
      {"sum",
       {{"input", true},
        {"axis", false},
        {"keep_dims", false},
        {"dtype", false}},
       emitReductionCall,
       reduction},
      {"max", maxMin, emitReductionCall, reduction},
      {"min", maxMin, emitReductionCall, reduction},
      {"argmax", argMaxMin, emitReductionCall, reduction},
      {"argmin", argMaxMin, emitReductionCall, reduction},
      {"xor_sum",
       {{"input", true}, {"axis", false}, {"keep_dims", false}},
       emitReductionCall,
       reduction},
      {"reduce",
       {{"input", true},
        {"axis", true},
        {"combine_fn", true},
        {"keep_dims", false}},
       emitReductionCall,
       reduction},
      {"cumsum", cumulative, emitCumulative, kMethod},
      {"cumprod", cumulative, emitCumulative, kMethod},
      {"associative_scan",
       {{"input", true},
        {"axis", true},
        {"combine_fn", true},
        {"reverse", false}},
       emitScanCall,
       reduction},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
