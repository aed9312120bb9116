//===- Memory.cpp - tl.load and tl.store ----------------------------------===//
//
// Memory builtins: tl.load and tl.store with masks, other values and cache
// hints.
//
//===----------------------------------------------------------------------===//

#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

mlir::LogicalResult KernelEmitter::checkMemoryHints(
    llvm::ArrayRef<const ast::Expr *> args, llvm::ArrayRef<BuiltinParam> params,
    llvm::StringRef displayName, llvm::ArrayRef<llvm::StringRef> cacheModifiers,
    MemoryHints &hints) {
  for (auto [arg, param] : llvm::zip(args, params)) {
    if (!arg)
      continue;
    llvm::StringRef name = param.name;
    if (name == "boundary_check") {
      // A tuple of compile-time dimensions; `()` or None for none.
      Result value = emitExpr(*arg);
      if (!value)
        return mlir::failure();
      if (value->kind == PyValue::Kind::None)
        continue;
      llvm::SmallVector<PyValue> dims;
      if (value->kind == PyValue::Kind::Tuple)
        dims.append(value->elements.begin(), value->elements.end());
      else
        dims.push_back(*value);
      for (const PyValue &dim : dims) {
        if (dim.kind != PyValue::Kind::Int)
          return fail(arg->getLoc(), displayName +
                                         "() 'boundary_check' must hold "
                                         "compile-time dimensions, got " +
                                         describe(dim));
        hints.boundaryCheck.push_back(dim.intValue);
      }
      hints.hasBoundaryCheck = !dims.empty();
      hints.boundaryCheckLoc = arg->getLoc();
      continue;
    }
    if (name != "padding_option" && name != "cache_modifier" &&
        name != "eviction_policy" && name != "volatile")
      continue;
    Result value = emitExpr(*arg);
    if (!value)
      return mlir::failure();
    if (name == "volatile") {
      if (value->kind != PyValue::Kind::Bool)
        return fail(arg->getLoc(), displayName +
                                       "() 'volatile' must be a constant "
                                       "bool, got " +
                                       describe(*value));
      hints.isVolatile = value->boolValue;
      continue;
    }
    if (value->kind == PyValue::Kind::None)
      continue;
    if (value->kind != PyValue::Kind::String)
      return fail(arg->getLoc(), displayName + "() '" + name +
                                     "' must be a constant string, got " +
                                     describe(*value));
    llvm::StringRef text = value->text;
    if (name == "padding_option") {
      if (text.empty())
        continue;
      if (text != "zero" && text != "nan")
        return fail(arg->getLoc(), displayName +
                                       "() 'padding_option' must be one of "
                                       "'', 'zero', 'nan'; got '" +
                                       text + "'");
      hints.padding = text == "zero" ? mlir::tile::PaddingOption::zero
                                     : mlir::tile::PaddingOption::nan;
      hints.hasPadding = true;
      hints.paddingLoc = arg->getLoc();
      continue;
    }
    llvm::ArrayRef<llvm::StringRef> allowed = cacheModifiers;
    static const llvm::StringRef evictionPolicies[] = {"", "evict_first",
                                                       "evict_last"};
    if (name == "eviction_policy")
      allowed = evictionPolicies;
    if (name == "eviction_policy" && !text.empty())
      hints.evict = *mlir::tile::symbolizeEvictionPolicy(text);
    if (name == "cache_modifier" && text.size() > 1 &&
        llvm::is_contained(allowed, text))
      hints.cache = *mlir::tile::symbolizeCacheModifier(text.drop_front());
    if (!llvm::is_contained(allowed, text)) {
      std::string choices;
      for (llvm::StringRef choice : allowed)
        choices += (choices.empty() ? "'" : ", '") + choice.str() + "'";
      return fail(arg->getLoc(), displayName + "() '" + name +
                                     "' must be one of " + choices + "; got '" +
                                     text + "'");
    }
  }
  return mlir::success();
}

bool isBlockPointer(const PyValue &value) {
  return value.isRuntime() &&
         isa<mlir::tile::BlockPointerType>(value.value.getType());
}

mlir::LogicalResult
KernelEmitter::checkNoBlockPointerHints(const MemoryHints &hints,
                                        llvm::StringRef displayName) {
  if (hints.hasBoundaryCheck)
    return fail(hints.boundaryCheckLoc,
                displayName + "() 'boundary_check' applies only to block "
                              "pointers (tl.make_block_ptr)");
  if (hints.hasPadding)
    return fail(hints.paddingLoc,
                displayName + "() 'padding_option' applies only to block "
                              "pointers (tl.make_block_ptr)");
  return mlir::success();
}

bool KernelEmitter::unifyOperandShape(OperandShape &common,
                                      const std::optional<PyValue> &operand,
                                      const char *name,
                                      const ast::Expr *argExpr,
                                      llvm::StringRef displayName) {
  if (!operand || !operand->isRuntime() || !isBlock(operand->value))
    return true;
  llvm::ArrayRef<int64_t> operandShape = getShape(operand->value);
  if (!common.asBlock) {
    common.asBlock = true;
    common.shape.assign(operandShape.begin(), operandShape.end());
    common.owner = name;
    return true;
  }
  if (auto merged = broadcastShapes(common.shape, operandShape)) {
    common.shape = std::move(*merged);
    return true;
  }
  diag.error(ast::getStartLoc(*argExpr),
             displayName + "(): '" + name + "' has shape " +
                 formatShape(operandShape) + " but '" + common.owner +
                 "' has shape " + formatShape(common.shape));
  return false;
}

KernelEmitter::Result KernelEmitter::emitLoad(const ast::CallExpr &call,
                                              llvm::StringRef displayName) {
  static const BuiltinParam params[] = {
      {"pointer", true},          {"mask", false},
      {"other", false},           {"boundary_check", false},
      {"padding_option", false},  {"cache_modifier", false},
      {"eviction_policy", false}, {"volatile", false}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  static const llvm::StringRef cacheModifiers[] = {"", ".ca", ".cg", ".cv"};
  MemoryHints hints;
  if (mlir::failed(
          checkMemoryHints(*args, params, displayName, cacheModifiers, hints)))
    return std::nullopt;

  const ast::Expr &pointerExpr = *(*args)[0];
  Result pointer = emitExpr(pointerExpr);
  if (!pointer)
    return std::nullopt;
  if (isBlockPointer(*pointer))
    return emitBlockPointerLoad(call, *pointer, {(*args)[1], (*args)[2]}, hints,
                                displayName);
  if (!pointer->isRuntime() || !isPointer(getElementType(pointer->value)))
    return error(pointerExpr.getLoc(),
                 displayName +
                     "() 'pointer' must be a pointer, a block of "
                     "pointers or a block pointer, got " +
                     describe(*pointer));
  if (failed(checkNoBlockPointerHints(hints, displayName)))
    return std::nullopt;

  std::optional<PyValue> mask, other;
  if (const ast::Expr *maskExpr = (*args)[1]) {
    mask = emitExpr(*maskExpr);
    if (!mask)
      return std::nullopt;
    if (mask->kind == PyValue::Kind::None)
      mask.reset();
    else if (!(mask->kind == PyValue::Kind::Bool ||
               (mask->isRuntime() && isBool(getElementType(mask->value)))))
      return error(maskExpr->getLoc(),
                   displayName +
                       "() 'mask' must be a boolean (i1) block or "
                       "scalar, got " +
                       describe(*mask));
  }
  if (const ast::Expr *otherExpr = (*args)[2]) {
    other = emitExpr(*otherExpr);
    if (!other)
      return std::nullopt;
    if (other->kind == PyValue::Kind::None)
      other.reset();
    else if (!other->isNumber() &&
             !(other->isRuntime() && !isPointer(getElementType(other->value))))
      return error(otherExpr->getLoc(),
                   displayName +
                       "() 'other' must be a number or a block of "
                       "numbers, got " +
                       describe(*other));
    if (other && !mask)
      return error(otherExpr->getLoc(),
                   displayName + "() 'other' requires a 'mask'");
  }
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;

  // The result takes the shape of the block operands, which must agree;
  // scalar operands are broadcast to it.
  OperandShape common;
  if (!unifyOperandShape(common, pointer, "pointer", (*args)[0], displayName) ||
      !unifyOperandShape(common, mask, "mask", (*args)[1], displayName) ||
      !unifyOperandShape(common, other, "other", (*args)[2], displayName))
    return std::nullopt;
  bool asBlock = common.asBlock;
  llvm::ArrayRef<int64_t> shape = common.shape;

  mlir::Location loc = getLoc(call.getLoc());
  mlir::Value ptr = broadcastPointer(pointer->value, common, loc);
  mlir::Type pointee =
      cast<mlir::tile::PointerType>(getElementType(ptr)).getPointeeType();
  mlir::Value maskValue, otherValue;
  if (mask)
    maskValue = prepareOperand(*mask, builder.getI1Type(), asBlock, shape, loc);
  if (other)
    otherValue = prepareOperand(*other, pointee, asBlock, shape, loc);
  mlir::Type resultType = mlir::tile::getPointeeShapedType(ptr.getType());
  return PyValue::runtime(mlir::tile::LoadOp::create(builder, loc, resultType,
                                                     ptr, maskValue, otherValue,
                                                     hints.cache, hints.evict,
                                                     hints.isVolatile),
                          pointer->isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitStore(const ast::CallExpr &call,
                                               llvm::StringRef displayName) {
  static const BuiltinParam params[] = {
      {"pointer", true},         {"value", true},
      {"mask", false},           {"boundary_check", false},
      {"cache_modifier", false}, {"eviction_policy", false}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  static const llvm::StringRef cacheModifiers[] = {"", ".wb", ".cg", ".cs",
                                                   ".wt"};
  MemoryHints hints;
  if (mlir::failed(
          checkMemoryHints(*args, params, displayName, cacheModifiers, hints)))
    return std::nullopt;

  const ast::Expr &pointerExpr = *(*args)[0];
  Result pointer = emitExpr(pointerExpr);
  if (!pointer)
    return std::nullopt;
  bool blockPointer = isBlockPointer(*pointer);
  if (!blockPointer &&
      (!pointer->isRuntime() || !isPointer(getElementType(pointer->value))))
    return error(pointerExpr.getLoc(),
                 displayName +
                     "() 'pointer' must be a pointer, a block of "
                     "pointers or a block pointer, got " +
                     describe(*pointer));
  const ast::Expr &valueExpr = *(*args)[1];
  std::optional<PyValue> value = emitExpr(valueExpr);
  if (!value)
    return std::nullopt;
  if (!value->isNumber() &&
      !(value->isRuntime() && !isPointer(getElementType(value->value)) &&
        !isBlockPointer(*value)))
    return error(valueExpr.getLoc(), displayName +
                                         "() 'value' must be a number or a "
                                         "block of numbers, got " +
                                         describe(*value));
  if (blockPointer)
    return emitBlockPointerStore(call, *pointer, *value, &valueExpr, (*args)[2],
                                 hints, displayName);
  if (failed(checkNoBlockPointerHints(hints, displayName)))
    return std::nullopt;
  std::optional<PyValue> mask;
  if (const ast::Expr *maskExpr = (*args)[2]) {
    mask = emitExpr(*maskExpr);
    if (!mask)
      return std::nullopt;
    if (mask->kind == PyValue::Kind::None)
      mask.reset();
    else if (!(mask->kind == PyValue::Kind::Bool ||
               (mask->isRuntime() && isBool(getElementType(mask->value)))))
      return error(maskExpr->getLoc(),
                   displayName +
                       "() 'mask' must be a boolean (i1) block or "
                       "scalar, got " +
                       describe(*mask));
  }
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;

  OperandShape common;
  if (!unifyOperandShape(common, pointer, "pointer", (*args)[0], displayName) ||
      !unifyOperandShape(common, value, "value", (*args)[1], displayName) ||
      !unifyOperandShape(common, mask, "mask", (*args)[2], displayName))
    return std::nullopt;
  bool asBlock = common.asBlock;
  llvm::ArrayRef<int64_t> shape = common.shape;

  mlir::Location loc = getLoc(call.getLoc());
  mlir::Value ptr = broadcastPointer(pointer->value, common, loc);
  mlir::Type pointee =
      cast<mlir::tile::PointerType>(getElementType(ptr)).getPointeeType();
  // Triton stores the value converted to the pointee type.
  mlir::Value storedValue =
      prepareOperand(*value, pointee, asBlock, shape, loc);
  mlir::Value maskValue;
  if (mask)
    maskValue = prepareOperand(*mask, builder.getI1Type(), asBlock, shape, loc);
  mlir::tile::StoreOp::create(builder, loc, ptr, storedValue, maskValue,
                              hints.cache, hints.evict);
  return PyValue::none();
}

namespace {
KernelEmitter::Result emitLoadCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitLoad(c.call, c.displayName);
}

KernelEmitter::Result emitStoreCall(KernelEmitter &e, const BuiltinCall &c) {
  return e.emitStore(c.call, c.displayName);
}
} // namespace

llvm::ArrayRef<Builtin> getMemoryBuiltins() {
  // Their parameters are bound by emitLoad and emitStore, which need the
  // argument expressions, not only their values.
  static const Builtin builtins[] = {
      {"load", {}, emitLoadCall, kRawArguments},
      {"store", {}, emitStoreCall, kRawArguments},
  };
  return builtins;
}

} // namespace tile::frontend::mlirgen
