//===- ControlFlow.cpp - scf.if, scf.for and scf.while --------------------===//
//
// Runtime control flow: scf.if, scf.for and scf.while with loop-carried values.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

namespace {
/// Whether two Python values are the same binding (the same SSA value, or
/// equal compile-time values), to tell which variables a region changed.
bool isSameValue(const PyValue &a, const PyValue &b) {
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case PyValue::Kind::Runtime:
    return a.value == b.value && a.isUnsigned == b.isUnsigned;
  case PyValue::Kind::Int:
    return a.intValue == b.intValue;
  case PyValue::Kind::Float:
    return a.floatValue == b.floatValue ||
           (std::isnan(a.floatValue) && std::isnan(b.floatValue));
  case PyValue::Kind::Bool:
    return a.boolValue == b.boolValue;
  case PyValue::Kind::None:
    return true;
  case PyValue::Kind::DType:
    return a.type == b.type && a.isUnsigned == b.isUnsigned;
  case PyValue::Kind::Tuple:
  case PyValue::Kind::BoundMethod:
  case PyValue::Kind::TensorDescriptor:
    if (a.text != b.text || a.type != b.type ||
        a.elements.size() != b.elements.size())
      return false;
    for (auto [x, y] : llvm::zip(a.elements, b.elements))
      if (!isSameValue(x, y))
        return false;
    return true;
  default:
    return a.text == b.text;
  }
}

} // namespace

bool endsWithBareReturn(const ast::StmtList &body) {
  if (body.empty())
    return false;
  auto *ret = dyn_cast<ast::ReturnStmt>(body.back().get());
  if (!ret)
    return false;
  auto *constant = llvm::dyn_cast_or_null<ast::ConstantExpr>(ret->getValue());
  return !ret->getValue() || (constant && constant->isNone());
}

std::optional<mlir::Value>
KernelEmitter::toCondition(const PyValue &value, const ast::Expr &expr,
                           llvm::StringRef construct) {
  mlir::Type type = getElementType(value.value);
  if (isBlock(value.value) || isPointer(type)) {
    diag.error(ast::getStartLoc(expr),
               "the condition of " + construct +
                   " must be a scalar (or a compile-time value), got " +
                   describe(value) +
                   (isBlock(value.value) ? "; use tl.where for blocks" : ""));
    return std::nullopt;
  }
  return castValue(value.value, value.isUnsigned, builder.getI1Type(),
                   /*toUnsigned=*/false, getLoc(ast::getStartLoc(expr)));
}

mlir::LogicalResult
KernelEmitter::checkNoReturnInRegion(const ast::Location &loc,
                                     llvm::StringRef construct) {
  if (!returned)
    return mlir::success();
  return fail(loc, "'return' inside " + construct + " is not supported");
}

mlir::LogicalResult KernelEmitter::emitBranches(
    const ast::Location &loc, mlir::Value condition,
    llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> thenParts,
    llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> elseParts) {
  mlir::Location irLoc = getLoc(loc);
  auto ifOp = mlir::scf::IfOp::create(builder, irLoc, mlir::TypeRange(),
                                      condition, /*withElseRegion=*/true);
  llvm::StringMap<PyValue> before = locals;
  llvm::StringMap<PyValue> branchLocals[2];
  ++regionDepth;
  for (int branch = 0; branch < 2; ++branch) {
    mlir::Block *block = branch == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
    builder.setInsertionPoint(block->getTerminator());
    locals = before;
    for (llvm::ArrayRef<ast::StmtPtr> part :
         branch == 0 ? thenParts : elseParts) {
      if (mlir::failed(emitBlock(part))) {
        --regionDepth;
        return mlir::failure();
      }
    }
    branchLocals[branch] = std::move(locals);
  }
  --regionDepth;
  locals = before;

  // Variables bound in both branches to different values become results,
  // as in Triton; those bound in one branch only go out of scope.
  llvm::SmallVector<std::string> names;
  for (const auto &entry : branchLocals[0])
    if (branchLocals[1].count(entry.getKey()))
      names.push_back(entry.getKey().str());
  llvm::sort(names);
  llvm::SmallVector<std::string> resultNames;
  llvm::SmallVector<mlir::Value> yields[2];
  llvm::SmallVector<bool> resultUnsigned;
  for (const std::string &name : names) {
    const PyValue &thenValue = branchLocals[0][name];
    const PyValue &elseValue = branchLocals[1][name];
    if (isSameValue(thenValue, elseValue)) {
      locals[name] = thenValue;
      continue;
    }
    auto carriable = [](const PyValue &v) {
      return v.isRuntime() || v.isNumber();
    };
    if (!carriable(thenValue) || !carriable(elseValue))
      return fail(loc, "variable '" + name +
                           "' is bound to different compile-time values (" +
                           describe(thenValue) + " and " + describe(elseValue) +
                           ") in the branches of an 'if' on a runtime "
                           "condition");
    mlir::Type type;
    if (thenValue.isRuntime())
      type = thenValue.value.getType();
    else if (elseValue.isRuntime())
      type = elseValue.value.getType();
    else
      type = getDefaultType(thenValue);
    mlir::Value branchValues[2];
    for (int branch = 0; branch < 2; ++branch) {
      const PyValue &v = branch == 0 ? thenValue : elseValue;
      mlir::Block *block = branch == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
      builder.setInsertionPoint(block->getTerminator());
      if (v.isRuntime()) {
        branchValues[branch] = v.value;
        continue;
      }
      auto tensor = dyn_cast<mlir::RankedTensorType>(type);
      branchValues[branch] = materialize(
          v, mlir::tile::getElementTypeOrSelf(type), tensor != nullptr,
          tensor ? tensor.getShape() : llvm::ArrayRef<int64_t>(), irLoc);
    }
    if (branchValues[0].getType() != branchValues[1].getType())
      return fail(loc, "variable '" + name + "' has type " +
                           describeType(branchValues[0].getType()) +
                           " in the 'then' branch but " +
                           describeType(branchValues[1].getType()) +
                           " in the 'else' branch; both branches must give "
                           "it the same type");
    resultNames.push_back(name);
    yields[0].push_back(branchValues[0]);
    yields[1].push_back(branchValues[1]);
    resultUnsigned.push_back(thenValue.isRuntime() ? thenValue.isUnsigned
                                                   : elseValue.isUnsigned);
  }

  if (resultNames.empty()) {
    builder.setInsertionPointAfter(ifOp);
    return mlir::success();
  }
  llvm::SmallVector<mlir::Type> types;
  for (mlir::Value v : yields[0])
    types.push_back(v.getType());
  builder.setInsertionPoint(ifOp);
  auto newIf = mlir::scf::IfOp::create(builder, irLoc, types, condition,
                                       /*addThenBlock=*/false,
                                       /*addElseBlock=*/false);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  for (int branch = 0; branch < 2; ++branch) {
    mlir::Block *block = branch == 0 ? newIf.thenBlock() : newIf.elseBlock();
    mlir::Operation *terminator = block->getTerminator();
    builder.setInsertionPoint(terminator);
    mlir::scf::YieldOp::create(builder, terminator->getLoc(), yields[branch]);
    terminator->erase();
  }
  ifOp.erase();
  builder.setInsertionPointAfter(newIf);
  for (auto [index, name] : llvm::enumerate(resultNames))
    locals[name] =
        PyValue::runtime(newIf.getResult(index), resultUnsigned[index]);
  return mlir::success();
}

mlir::LogicalResult KernelEmitter::emitRuntimeIf(const ast::IfStmt &stmt,
                                                 mlir::Value condition) {
  llvm::ArrayRef<ast::StmtPtr> thenParts[] = {stmt.getBody()};
  llvm::ArrayRef<ast::StmtPtr> elseParts[] = {stmt.getOrElse()};
  return emitBranches(stmt.getLoc(), condition, thenParts, elseParts);
}

mlir::LogicalResult KernelEmitter::collectCarried(
    const ast::StmtList &body, llvm::StringRef loopVariable,
    const ast::Location &loc, llvm::SmallVectorImpl<std::string> &names,
    llvm::SmallVectorImpl<mlir::Value> &initial,
    llvm::SmallVectorImpl<bool> &unsignedness) {
  llvm::StringSet<> assigned;
  std::vector<std::string> ordered;
  collectAssigned(body, assigned, &ordered);
  mlir::Location irLoc = getLoc(loc);
  for (const std::string &name : ordered) {
    if (name == loopVariable)
      continue;
    auto it = locals.find(name);
    if (it == locals.end())
      continue;
    const PyValue &value = it->second;
    if (value.isRuntime()) {
      initial.push_back(value.value);
    } else if (value.isNumber()) {
      // Triton turns a number carried by a loop into a scalar of its
      // default type (i32, fp32 or i1).
      initial.push_back(
          materialize(value, getDefaultType(value), false, {}, irLoc));
    } else {
      continue; // Compile-time objects cannot change at run time.
    }
    names.push_back(name);
    unsignedness.push_back(value.isRuntime() && value.isUnsigned);
  }
  return mlir::success();
}

std::optional<llvm::SmallVector<mlir::Value>> KernelEmitter::yieldCarried(
    llvm::ArrayRef<std::string> names, llvm::ArrayRef<mlir::Value> initial,
    const ast::Location &loc, llvm::StringRef construct) {
  llvm::SmallVector<mlir::Value> values;
  mlir::Location irLoc = getLoc(loc);
  for (auto [name, init] : llvm::zip(names, initial)) {
    mlir::Type type = init.getType();
    auto it = locals.find(name);
    PyValue value = it == locals.end() ? PyValue::none() : it->second;
    if (value.isNumber()) {
      auto tensor = dyn_cast<mlir::RankedTensorType>(type);
      values.push_back(materialize(
          value, mlir::tile::getElementTypeOrSelf(type), tensor != nullptr,
          tensor ? tensor.getShape() : llvm::ArrayRef<int64_t>(), irLoc));
      continue;
    }
    if (!value.isRuntime() || value.value.getType() != type) {
      diag.error(loc, "loop-carried variable '" + name + "' has type " +
                          describeType(type) + " before the " + construct +
                          " but " + describe(value) +
                          " at the end of its body; Triton requires a "
                          "loop-carried variable to keep its type (give it "
                          "that type before the loop, e.g. with tl.zeros(..., "
                          "dtype=...))");
      return std::nullopt;
    }
    values.push_back(value.value);
  }
  return values;
}

mlir::LogicalResult KernelEmitter::emitFor(const ast::ForStmt &stmt) {
  if (!stmt.getOrElse().empty())
    return fail(stmt.getLoc(), "'for ... else' is not supported");
  auto *call = dyn_cast<ast::CallExpr>(&stmt.getIter());
  Result callee = call ? emitExpr(call->getCallee()) : std::nullopt;
  if (call && !callee)
    return mlir::failure();
  std::string qualified =
      callee && callee->kind == PyValue::Kind::Namespace ? callee->text : "";
  bool isStatic = qualified == "triton.language.static_range";
  bool isTritonRange = qualified == "triton.language.range";
  if (!isStatic && !isTritonRange && qualified != "builtins.range")
    return fail(ast::getStartLoc(stmt.getIter()),
                "a 'for' loop must iterate over range(...), tl.range(...) or "
                "tl.static_range(...)");
  auto *target = dyn_cast<ast::NameExpr>(&stmt.getTarget());
  if (!target)
    return fail(stmt.getTarget().getLoc(),
                "the variable of a 'for' loop must be a single name");
  std::string displayName = spellName(call->getCallee());

  static const BuiltinParam rangeParams[] = {
      {"arg1", true},
      {"arg2", false},
      {"step", false},
      {"num_stages", false},
      {"loop_unroll_factor", false},
      {"disallow_acc_multi_buffer", false},
      {"flatten", false},
      {"warp_specialize", false}};
  llvm::ArrayRef<BuiltinParam> params = rangeParams;
  if (!isTritonRange)
    params = params.take_front(3);
  std::optional<CallArgs> args =
      evaluateArguments(*call, displayName, params, nullptr);
  if (!args)
    return mlir::failure();
  PyValue bounds[3] = {PyValue::integer(0), args->values[0],
                       PyValue::integer(1)};
  ast::Location boundLocs[3] = {args->locs[0], args->locs[0], args->locs[0]};
  if (args->present[1]) {
    bounds[0] = args->values[0];
    bounds[1] = args->values[1];
    boundLocs[1] = args->locs[1];
  }
  if (args->present[2]) {
    bounds[2] = args->values[2];
    boundLocs[2] = args->locs[2];
  }
  static const char *const boundNames[] = {"start", "end", "step"};
  for (int i = 0; i < 3; ++i) {
    const PyValue &bound = bounds[i];
    bool isInt = bound.kind == PyValue::Kind::Int ||
                 bound.kind == PyValue::Kind::Bool ||
                 (bound.isRuntime() && !isBlock(bound.value) &&
                  isInteger(getElementType(bound.value)));
    if (!isInt)
      return fail(boundLocs[i], displayName + "() " + boundNames[i] +
                                    " must be an integer scalar, got " +
                                    describe(bound));
    if (isStatic && bound.isRuntime())
      return fail(boundLocs[i], displayName + "() " + boundNames[i] +
                                    " must be a compile-time integer, got " +
                                    describe(bound));
  }
  if (!bounds[2].isRuntime() && bounds[2].intValue == 0)
    return fail(boundLocs[2], displayName + "() step must not be zero");
  // A negative compile-time step counts down, as in Python: Triton runs it
  // as the loop from end to start with the step negated, the variable
  // start + end - v (scf.for steps up only).
  bool countsDown = !bounds[2].isRuntime() && bounds[2].intValue < 0;

  llvm::StringRef variable = target->getName();
  if (isStatic) {
    // Unrolled at compile time: the variable is a constexpr in each copy.
    int64_t start = bounds[0].intValue, end = bounds[1].intValue,
            step = bounds[2].intValue;
    constexpr int64_t kMaxUnroll = 4096;
    if (end > start && (end - start + step - 1) / step > kMaxUnroll)
      return fail(call->getLoc(),
                  displayName + "() would unroll " +
                      llvm::Twine((end - start + step - 1) / step) +
                      " iterations; at most " + llvm::Twine(kMaxUnroll) +
                      " are allowed");
    if (countsDown && start > end &&
        (start - end - step - 1) / -step > kMaxUnroll)
      return fail(call->getLoc(),
                  displayName + "() would unroll " +
                      llvm::Twine((start - end - step - 1) / -step) +
                      " iterations; at most " + llvm::Twine(kMaxUnroll) +
                      " are allowed");
    for (int64_t i = start; countsDown ? i > end : i < end; i += step) {
      locals[variable] = PyValue::integer(i);
      if (mlir::failed(emitBlock(stmt.getBody())))
        return mlir::failure();
      if (returned)
        return checkNoReturnInRegion(returnLoc, "tl.static_range()");
    }
    return mlir::success();
  }

  if (countsDown) {
    std::swap(bounds[0], bounds[1]);
    bounds[2] = PyValue::integer(-bounds[2].intValue);
  }
  // The induction variable has Triton's promoted type of the bounds.
  mlir::Type ivType = builder.getI32Type();
  for (const PyValue &bound : bounds) {
    if (bound.isRuntime() && getElementType(bound.value).isInteger(64))
      ivType = builder.getI64Type();
    if (!bound.isRuntime() && !llvm::isInt<32>(bound.intValue))
      ivType = builder.getI64Type();
  }
  mlir::Location loc = getLoc(stmt.getLoc());
  mlir::Value boundValues[3];
  for (int i = 0; i < 3; ++i)
    boundValues[i] =
        prepareOperand(bounds[i], ivType, /*asBlock=*/false, {}, loc);

  llvm::SmallVector<std::string> names;
  llvm::SmallVector<mlir::Value> initial;
  llvm::SmallVector<bool> unsignedness;
  if (mlir::failed(collectCarried(stmt.getBody(), variable, stmt.getLoc(),
                                  names, initial, unsignedness)))
    return mlir::failure();
  auto forOp = mlir::scf::ForOp::create(
      builder, loc, boundValues[0], boundValues[1], boundValues[2], initial);
  // Pipelining and unrolling hints, as Triton's tt.num_stages etc.
  static const std::pair<int, llvm::StringLiteral> hintAttrs[] = {
      {3, "tile.num_stages"},
      {4, "tile.loop_unroll_factor"},
      {5, "tile.disallow_acc_multi_buffer"},
      {6, "tile.flatten"},
      {7, "tile.warp_specialize"}};
  if (isTritonRange) {
    for (auto [index, attrName] : hintAttrs) {
      if (!args->present[index] ||
          args->values[index].kind == PyValue::Kind::None)
        continue;
      const PyValue &hint = args->values[index];
      if (index <= 4) {
        if (hint.kind != PyValue::Kind::Int || hint.intValue < 0)
          return fail(args->locs[index],
                      displayName + "() " + rangeParams[index].name +
                          " must be a non-negative compile-time integer, "
                          "got " +
                          describe(hint));
        forOp->setAttr(attrName, builder.getI32IntegerAttr(hint.intValue));
      } else {
        if (hint.kind != PyValue::Kind::Bool)
          return fail(args->locs[index],
                      displayName + "() " + rangeParams[index].name +
                          " must be a compile-time bool, got " +
                          describe(hint));
        if (hint.boolValue)
          forOp->setAttr(attrName, builder.getUnitAttr());
      }
    }
  }

  mlir::Block *body = forOp.getBody();
  if (!body->empty())
    body->back().erase(); // The default scf.yield; ours comes last.
  llvm::StringMap<PyValue> saved = locals;
  builder.setInsertionPointToEnd(body);
  mlir::Value iv = forOp.getInductionVar();
  if (countsDown)
    iv = mlir::arith::AddIOp::create(
        builder, loc,
        mlir::arith::SubIOp::create(builder, loc, boundValues[1], iv),
        boundValues[0]);
  locals[variable] = PyValue::runtime(iv);
  for (auto [index, name] : llvm::enumerate(names))
    locals[name] =
        PyValue::runtime(forOp.getRegionIterArgs()[index], unsignedness[index]);
  ++regionDepth;
  mlir::LogicalResult emitted = emitBlock(stmt.getBody());
  --regionDepth;
  if (mlir::failed(emitted))
    return mlir::failure();
  std::optional<llvm::SmallVector<mlir::Value>> yields =
      yieldCarried(names, initial, stmt.getLoc(), "loop");
  if (!yields)
    return mlir::failure();
  mlir::scf::YieldOp::create(builder, loc, *yields);
  locals = std::move(saved);
  builder.setInsertionPointAfter(forOp);
  for (auto [index, name] : llvm::enumerate(names))
    locals[name] =
        PyValue::runtime(forOp.getResult(index), unsignedness[index]);
  return mlir::success();
}

mlir::LogicalResult KernelEmitter::emitWhile(const ast::WhileStmt &stmt) {
  if (!stmt.getOrElse().empty())
    return fail(stmt.getLoc(), "'while ... else' is not supported");
  llvm::SmallVector<std::string> names;
  llvm::SmallVector<mlir::Value> initial;
  llvm::SmallVector<bool> unsignedness;
  if (mlir::failed(collectCarried(stmt.getBody(), "", stmt.getLoc(), names,
                                  initial, unsignedness)))
    return mlir::failure();
  mlir::Location loc = getLoc(stmt.getLoc());
  llvm::SmallVector<mlir::Type> types;
  llvm::SmallVector<mlir::Location> locs;
  for (mlir::Value v : initial) {
    types.push_back(v.getType());
    locs.push_back(loc);
  }
  auto whileOp = mlir::scf::WhileOp::create(builder, loc, types, initial);
  llvm::StringMap<PyValue> saved = locals;
  auto bindArgs = [&](mlir::Block *block) {
    for (auto [index, name] : llvm::enumerate(names))
      locals[name] =
          PyValue::runtime(block->getArgument(index), unsignedness[index]);
  };
  ++regionDepth;
  llvm::scope_exit done([&] { --regionDepth; });

  mlir::Block *before =
      builder.createBlock(&whileOp.getBefore(), {}, types, locs);
  bindArgs(before);
  Result test = emitExpr(stmt.getTest());
  if (!test)
    return mlir::failure();
  mlir::Value condition;
  if (test->isRuntime()) {
    std::optional<mlir::Value> converted =
        toCondition(*test, stmt.getTest(), "'while'");
    if (!converted)
      return mlir::failure();
    condition = *converted;
  } else {
    condition = materialize(PyValue::boolean(isTruthy(*test)),
                            builder.getI1Type(), false, {}, loc);
  }
  mlir::scf::ConditionOp::create(builder, loc, condition,
                                 before->getArguments());

  mlir::Block *after =
      builder.createBlock(&whileOp.getAfter(), {}, types, locs);
  locals = saved;
  bindArgs(after);
  if (mlir::failed(emitBlock(stmt.getBody())))
    return mlir::failure();
  std::optional<llvm::SmallVector<mlir::Value>> yields =
      yieldCarried(names, initial, stmt.getLoc(), "loop");
  if (!yields)
    return mlir::failure();
  mlir::scf::YieldOp::create(builder, loc, *yields);
  locals = std::move(saved);
  builder.setInsertionPointAfter(whileOp);
  for (auto [index, name] : llvm::enumerate(names))
    locals[name] =
        PyValue::runtime(whileOp.getResult(index), unsignedness[index]);
  return mlir::success();
}

} // namespace tile::frontend::mlirgen
