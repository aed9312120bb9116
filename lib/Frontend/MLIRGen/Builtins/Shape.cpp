//===- Shape.cpp - Shape builtins -----------------------------------------===//
//
// Shape builtins: broadcast, reshape, expand_dims, trans, cat, join, split.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

KernelEmitter::Result KernelEmitter::emitShapeOp(llvm::StringRef name,
                                                 const CallArgs &args,
                                                 const ast::CallExpr &call,
                                                 llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  const PyValue &input = args.values[0];
  if (name == "broadcast") {
    const PyValue &other = args.values[1];
    auto common =
        commonShape({&input, &other}, (displayName + "()").str(), callLoc);
    if (!common)
      return std::nullopt;
    std::vector<PyValue> both;
    for (const PyValue *v : {&input, &other}) {
      std::optional<PyValue> runtimeValue = toRuntime(*v, callLoc);
      if (!runtimeValue)
        return std::nullopt;
      both.push_back(PyValue::runtime(
          broadcastTo(runtimeValue->value, common->second, loc),
          runtimeValue->isUnsigned));
    }
    return PyValue::tuple(std::move(both));
  }
  std::optional<PyValue> source = toRuntime(input, args.locs[0]);
  if (!source)
    return std::nullopt;
  mlir::Value value = source->value;
  bool isUnsigned = source->isUnsigned;
  mlir::Type elementType = getElementType(value);
  llvm::SmallVector<int64_t> shape(getShape(value));
  int64_t rank = shape.size();
  auto result = [&](mlir::Value v) { return PyValue::runtime(v, isUnsigned); };

  if (name == "broadcast_to") {
    std::optional<llvm::SmallVector<int64_t>> target =
        toShape(args.values[1], args.locs[1], displayName);
    if (!target)
      return std::nullopt;
    auto merged = broadcastShapes(shape, *target);
    if (!merged || *merged != *target)
      return error(callLoc, displayName + "() cannot broadcast shape " +
                                formatShape(shape) + " to " +
                                formatShape(*target));
    return result(broadcastTo(value, *target, loc));
  }
  if (name == "reshape" || name == "view" || name == "ravel") {
    llvm::SmallVector<int64_t> target;
    int64_t count = 1;
    for (int64_t dim : shape)
      count *= dim;
    if (name == "ravel") {
      target = {count};
    } else {
      std::optional<llvm::SmallVector<int64_t>> parsed =
          toShape(args.values[1], args.locs[1], displayName);
      if (!parsed)
        return std::nullopt;
      target = *parsed;
    }
    int64_t targetCount = 1;
    for (int64_t dim : target)
      targetCount *= dim;
    if (targetCount != count)
      return error(callLoc, displayName +
                                "() cannot reshape a block of shape " +
                                formatShape(shape) + " (" + llvm::Twine(count) +
                                " elements) to " + formatShape(target) + " (" +
                                llvm::Twine(targetCount) + " elements)");
    if (!isBlock(value))
      return result(broadcastTo(value, target, loc));
    bool canReorder =
        name != "reshape" || (args.present[2] && isTruthy(args.values[2]));
    return result(mlir::tile::ReshapeOp::create(
        builder, loc, mlir::RankedTensorType::get(target, elementType), value,
        canReorder));
  }
  if (name == "expand_dims") {
    llvm::SmallVector<int64_t> axes;
    const PyValue &axisValue = args.values[1];
    llvm::SmallVector<PyValue> axisValues;
    if (axisValue.kind == PyValue::Kind::Tuple)
      axisValues.append(axisValue.elements.begin(), axisValue.elements.end());
    else
      axisValues.push_back(axisValue);
    int64_t newRank = rank + axisValues.size();
    for (const PyValue &a : axisValues) {
      if (a.kind != PyValue::Kind::Int)
        return error(args.locs[1], displayName +
                                       "() axis must be a compile-time "
                                       "integer, got " +
                                       describe(a));
      int64_t normalized = a.intValue < 0 ? a.intValue + newRank : a.intValue;
      if (normalized < 0 || normalized >= newRank)
        return error(args.locs[1], displayName + "() axis " +
                                       llvm::Twine(a.intValue) +
                                       " is out of range for the result "
                                       "rank " +
                                       llvm::Twine(newRank));
      axes.push_back(normalized);
    }
    llvm::sort(axes);
    if (!isBlock(value)) {
      llvm::SmallVector<int64_t> ones(newRank, 1);
      return result(splatTo(value, ones, loc));
    }
    for (int64_t axis : axes) {
      llvm::SmallVector<int64_t> expanded(getShape(value));
      expanded.insert(expanded.begin() + axis, 1);
      value = mlir::tile::ExpandDimsOp::create(
          builder, loc, mlir::RankedTensorType::get(expanded, elementType),
          value, builder.getI32IntegerAttr(axis));
    }
    return result(value);
  }
  if (!isBlock(value))
    return error(args.locs[0],
                 displayName + "() needs a block, got " + describe(*source));
  if (name == "trans" || name == "permute") {
    llvm::SmallVector<int32_t> order;
    const PyValue &dims = args.values[1];
    if (args.present[1] && dims.kind != PyValue::Kind::None) {
      llvm::SmallVector<PyValue> dimValues;
      if (dims.kind == PyValue::Kind::Tuple)
        dimValues.append(dims.elements.begin(), dims.elements.end());
      else
        dimValues.push_back(dims);
      for (const PyValue &d : dimValues) {
        if (d.kind != PyValue::Kind::Int)
          return error(args.locs[1], displayName +
                                         "() dims must be compile-time "
                                         "integers, got " +
                                         describe(d));
        order.push_back(d.intValue);
      }
    } else if (name == "trans" && rank == 2) {
      order = {1, 0};
    } else {
      return error(callLoc, displayName + "() needs the permutation of the " +
                                llvm::Twine(rank) + " dimensions");
    }
    llvm::SmallVector<bool> seen(rank, false);
    llvm::SmallVector<int64_t> permuted;
    bool valid = int64_t(order.size()) == rank;
    for (int32_t d : order) {
      if (!valid || d < 0 || d >= rank || seen[d]) {
        valid = false;
        break;
      }
      seen[d] = true;
      permuted.push_back(shape[d]);
    }
    if (!valid) {
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::interleave(order, os, ", ");
      return error(callLoc, displayName + "() dims (" + text +
                                ") are not a permutation of the " +
                                llvm::Twine(rank) + " dimensions of " +
                                describe(*source));
    }
    return result(mlir::tile::TransOp::create(
        builder, loc, mlir::RankedTensorType::get(permuted, elementType), value,
        builder.getDenseI32ArrayAttr(order)));
  }
  if (name == "cat" || name == "join") {
    std::optional<PyValue> other = toRuntime(args.values[1], args.locs[1]);
    if (!other)
      return std::nullopt;
    mlir::Value rhs = other->value;
    if (rhs.getType() != value.getType())
      return error(callLoc, displayName +
                                "() operands must have one type and shape, "
                                "got " +
                                describe(*source) + " and " + describe(*other));
    llvm::SmallVector<int64_t> resultShape(shape);
    if (name == "cat")
      resultShape[0] *= 2;
    else
      resultShape.push_back(2);
    auto type = mlir::RankedTensorType::get(resultShape, elementType);
    if (name == "cat")
      return result(mlir::tile::CatOp::create(builder, loc, type, value, rhs));
    return result(mlir::tile::JoinOp::create(builder, loc, type, value, rhs));
  }
  if (name == "split") {
    if (shape.back() != 2)
      return error(callLoc, displayName +
                                "() needs a last dimension of size 2, got "
                                "shape " +
                                formatShape(shape));
    llvm::SmallVector<int64_t> half(shape.begin(), shape.end() - 1);
    mlir::Type halfType =
        half.empty()
            ? elementType
            : mlir::Type(mlir::RankedTensorType::get(half, elementType));
    if (half.empty())
      return error(callLoc, displayName + "() of a [2] block is not supported");
    auto split =
        mlir::tile::SplitOp::create(builder, loc, halfType, halfType, value);
    return PyValue::tuple(
        {result(split.getOutLHS()), result(split.getOutRHS())});
  }
  return error(callLoc, displayName + "() is not supported");
}

namespace {
KernelEmitter::Result emitShapeCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitShapeOp(c.name, c.args, c.call, c.displayName);
}
} // namespace

llvm::ArrayRef<Builtin> getShapeBuiltins() {
  static const Builtin builtins[] = {
      {"reshape",
       {{"input", true}, {"shape", true}, {"can_reorder", false}},
       emitShapeCall,
       kMethod,
       /*variadicFrom=*/1},
      {"view", {{"input", true}, {"shape", true}}, emitShapeCall, kMethod, 1},
      {"broadcast_to",
       {{"input", true}, {"shape", true}},
       emitShapeCall,
       kMethod,
       1},
      {"trans", {{"input", true}, {"dims", false}}, emitShapeCall, kMethod, 1},
      {"permute", {{"input", true}, {"dims", true}}, emitShapeCall, kMethod, 1},
      {"expand_dims",
       {{"input", true}, {"axis", true}},
       emitShapeCall,
       kMethod},
      {"ravel", {{"x", true}, {"can_reorder", false}}, emitShapeCall, kMethod},
      {"broadcast", {{"input", true}, {"other", true}}, emitShapeCall},
      {"cat",
       {{"input", true}, {"other", true}, {"can_reorder", false}},
       emitShapeCall},
      {"join", {{"a", true}, {"b", true}}, emitShapeCall, kMethod},
      {"split", {{"a", true}}, emitShapeCall, kMethod},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
