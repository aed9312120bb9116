//===- Statements.cpp - Statements ----------------------------------------===//
//
// Statements: blocks, assignments, if/else at compile time.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

mlir::LogicalResult
KernelEmitter::emitBlock(llvm::ArrayRef<ast::StmtPtr> body) {
  ++blockNesting;
  llvm::scope_exit leave([&] { --blockNesting; });
  llvm::ArrayRef<ast::StmtPtr> parts[] = {body};
  return emitParts(parts);
}

mlir::LogicalResult
KernelEmitter::emitParts(llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> parts) {
  for (auto [partIndex, part] : llvm::enumerate(parts)) {
    for (auto [index, stmt] : llvm::enumerate(part)) {
      if (returned)
        return mlir::success();
      auto *ifStmt = dyn_cast<ast::IfStmt>(stmt.get());
      // In a function's own body (not in a loop or a runtime branch), an
      // 'if' reaches the rest of the body: a compile-time one puts its
      // taken branch in its place, so that the branch's statements are in
      // the body too, and `if cond: ...; return` on a runtime condition
      // ends the function early, the rest of the body becoming its else
      // branch. (Deeper, the rest of the function would not be inside that
      // branch, so it is left to the 'return inside a region' error.)
      if (!ifStmt || blockNesting != 1 || regionDepth != 0) {
        if (mlir::failed(emitStmt(*stmt)))
          return mlir::failure();
        continue;
      }
      Result test = emitExpr(ifStmt->getTest());
      if (!test)
        return mlir::failure();
      llvm::SmallVector<llvm::ArrayRef<ast::StmtPtr>> rest = {
          part.drop_front(index + 1)};
      llvm::append_range(rest, parts.drop_front(partIndex + 1));
      if (!test->isRuntime()) {
        rest.insert(rest.begin(),
                    isTruthy(*test) ? ifStmt->getBody() : ifStmt->getOrElse());
        return emitParts(rest);
      }
      std::optional<mlir::Value> condition =
          toCondition(*test, ifStmt->getTest(), "'if'");
      if (!condition)
        return mlir::failure();
      if (endsWithBareReturn(ifStmt->getBody())) {
        // `if c: A; return` followed by B is `if c: A else: B`.
        llvm::ArrayRef<ast::StmtPtr> thenParts[] = {
            llvm::ArrayRef<ast::StmtPtr>(ifStmt->getBody()).drop_back()};
        rest.insert(rest.begin(), ifStmt->getOrElse());
        return emitBranches(ifStmt->getLoc(), *condition, thenParts, rest);
      }
      if (mlir::failed(emitRuntimeIf(*ifStmt, *condition)))
        return mlir::failure();
    }
  }
  return mlir::success();
}

mlir::LogicalResult KernelEmitter::emitStmt(const ast::Stmt &stmt) {
  switch (stmt.getKind()) {
  case ast::Stmt::Kind::Expr: {
    const ast::Expr &value = cast<ast::ExprStmt>(stmt).getValue();
    // Docstrings and other bare strings do nothing.
    if (auto *constant = dyn_cast<ast::ConstantExpr>(&value))
      if (constant->isString())
        return mlir::success();
    return mlir::success(emitExpr(value).has_value());
  }
  case ast::Stmt::Kind::Assign:
    return emitAssign(cast<ast::AssignStmt>(stmt));
  case ast::Stmt::Kind::AugAssign: {
    const auto &aug = cast<ast::AugAssignStmt>(stmt);
    auto *target = dyn_cast<ast::NameExpr>(&aug.getTarget());
    if (!target)
      return fail(aug.getTarget().getLoc(),
                  "augmented assignment to an attribute or subscript is not "
                  "supported yet");
    Result current = lookupName(*target);
    if (!current)
      return mlir::failure();
    Result rhs = emitExpr(aug.getValue());
    if (!rhs)
      return mlir::failure();
    Result result = emitBinary(aug.getOp(), *current, *rhs, stmt.getLoc());
    if (!result)
      return mlir::failure();
    return bindTarget(*target, *result);
  }
  case ast::Stmt::Kind::AnnAssign: {
    const auto &ann = cast<ast::AnnAssignStmt>(stmt);
    if (!ann.getValue())
      return mlir::success();
    Result value = emitExpr(*ann.getValue());
    if (!value)
      return mlir::failure();
    if (isConstexprAnnotation(&ann.getAnnotation(), aliases) &&
        !value->isConstexpr())
      return fail(ann.getValue()->getLoc(),
                  "a value annotated tl.constexpr must be known at compile "
                  "time; got " +
                      describe(*value));
    return bindTarget(ann.getTarget(), *value);
  }
  case ast::Stmt::Kind::If:
    return emitIf(cast<ast::IfStmt>(stmt));
  case ast::Stmt::Kind::For:
    return emitFor(cast<ast::ForStmt>(stmt));
  case ast::Stmt::Kind::While:
    return emitWhile(cast<ast::WhileStmt>(stmt));
  case ast::Stmt::Kind::Break:
  case ast::Stmt::Kind::Continue:
    // Triton rejects them too: scf loops have no early exit.
    return fail(
        stmt.getLoc(),
        llvm::Twine("'") +
            (stmt.getKind() == ast::Stmt::Kind::Break ? "break" : "continue") +
            "' is not supported in Triton kernels; loops run "
            "their whole range (use a mask or a 'while' condition)");
  case ast::Stmt::Kind::Pass:
    return mlir::success();
  case ast::Stmt::Kind::Return: {
    const auto &ret = cast<ast::ReturnStmt>(stmt);
    PyValue value = PyValue::none();
    if (const ast::Expr *valueExpr = ret.getValue()) {
      auto *constant = dyn_cast<ast::ConstantExpr>(valueExpr);
      if (callStack.empty() && (!constant || !constant->isNone()))
        return fail(valueExpr->getLoc(), "a kernel cannot return a value");
      Result result = emitExpr(*valueExpr);
      if (!result)
        return mlir::failure();
      value = *result;
    }
    if (regionDepth != 0)
      return fail(stmt.getLoc(),
                  "'return' inside a loop or an 'if' on a runtime condition "
                  "is not supported (the only early exit Tile supports is "
                  "'if cond: return' at the top level of a kernel)");
    returned = true;
    returnLoc = stmt.getLoc();
    returnValue = value;
    return mlir::success();
  }
  case ast::Stmt::Kind::Assert: {
    const auto &assertStmt = cast<ast::AssertStmt>(stmt);
    Result test = emitExpr(assertStmt.getTest());
    if (!test)
      return mlir::failure();
    if (test->isRuntime()) {
      // As Triton: a runtime assert is tl.device_assert.
      std::string message = "assertion failed";
      if (const ast::Expr *messageExpr = assertStmt.getMessage()) {
        Result text = emitExpr(*messageExpr);
        if (!text)
          return mlir::failure();
        if (text->kind == PyValue::Kind::String)
          message = text->text;
      }
      mlir::Location loc = getLoc(stmt.getLoc());
      mlir::Value condition =
          castValue(test->value, test->isUnsigned, builder.getI1Type(),
                    /*toUnsigned=*/false, loc);
      mlir::tile::AssertOp::create(builder, loc, condition,
                                   builder.getStringAttr(message));
      return mlir::success();
    }
    if (!test->isConstexpr())
      return fail(stmt.getLoc(),
                  "'assert' needs a condition, got " + describe(*test));
    if (isTruthy(*test))
      return mlir::success();
    std::string message = "assertion failed";
    if (const ast::Expr *messageExpr = assertStmt.getMessage()) {
      Result text = emitExpr(*messageExpr);
      if (text && text->kind == PyValue::Kind::String)
        message += ": " + text->text;
    }
    return fail(stmt.getLoc(), message);
  }
  }
  return fail(stmt.getLoc(), "this statement is not supported yet");
}

mlir::LogicalResult KernelEmitter::emitAssign(const ast::AssignStmt &assign) {
  const ast::Expr &valueExpr = assign.getValue();
  // `a, b = x, y`: pair the elements up (values first, as Python does).
  auto *valueTuple = dyn_cast<ast::TupleExpr>(&valueExpr);
  if (valueTuple && assign.getTargets().size() == 1) {
    const ast::Expr &target = *assign.getTargets().front();
    const ast::ExprList *targetElements = nullptr;
    if (auto *tuple = dyn_cast<ast::TupleExpr>(&target))
      targetElements = &tuple->getElements();
    else if (auto *list = dyn_cast<ast::ListExpr>(&target))
      targetElements = &list->getElements();
    if (targetElements) {
      if (targetElements->size() != valueTuple->getElements().size())
        return fail(target.getLoc(),
                    "cannot unpack " +
                        llvm::Twine(valueTuple->getElements().size()) +
                        " values into " + llvm::Twine(targetElements->size()) +
                        " targets");
      llvm::SmallVector<PyValue> values;
      for (const ast::ExprPtr &element : valueTuple->getElements()) {
        Result value = emitExpr(*element);
        if (!value)
          return mlir::failure();
        values.push_back(*value);
      }
      for (auto [element, value] : llvm::zip(*targetElements, values))
        if (mlir::failed(bindTarget(*element, value)))
          return mlir::failure();
      return mlir::success();
    }
  }

  Result value = emitExpr(valueExpr);
  if (!value)
    return mlir::failure();
  for (const ast::ExprPtr &target : assign.getTargets())
    if (mlir::failed(bindTarget(*target, *value)))
      return mlir::failure();
  return mlir::success();
}

mlir::LogicalResult KernelEmitter::bindTarget(const ast::Expr &target,
                                              const PyValue &value) {
  if (auto *name = dyn_cast<ast::NameExpr>(&target)) {
    locals[name->getName()] = value;
    return mlir::success();
  }
  if (isa<ast::TupleExpr, ast::ListExpr>(&target)) {
    const ast::ExprList &targets =
        isa<ast::TupleExpr>(&target)
            ? cast<ast::TupleExpr>(target).getElements()
            : cast<ast::ListExpr>(target).getElements();
    if (value.kind != PyValue::Kind::Tuple)
      return fail(target.getLoc(), "cannot unpack " + describe(value) +
                                       " into " + llvm::Twine(targets.size()) +
                                       " targets");
    if (value.elements.size() != targets.size())
      return fail(target.getLoc(),
                  "cannot unpack " + llvm::Twine(value.elements.size()) +
                      " values into " + llvm::Twine(targets.size()) +
                      " targets");
    for (auto [element, elementValue] : llvm::zip(targets, value.elements))
      if (mlir::failed(bindTarget(*element, elementValue)))
        return mlir::failure();
    return mlir::success();
  }
  if (isa<ast::AttributeExpr>(&target))
    return fail(target.getLoc(),
                "assignment to an attribute is not supported yet");
  // Python's error for a tuple (Triton's test_tuple expects one); blocks
  // cannot be assigned into in Triton either.
  if (auto *subscript = dyn_cast<ast::SubscriptExpr>(&target)) {
    auto *base = dyn_cast<ast::NameExpr>(&subscript->getValue());
    auto it = base ? locals.find(base->getName()) : locals.end();
    if (it != locals.end() && it->second.kind == PyValue::Kind::Tuple)
      return fail(target.getLoc(),
                  "'tuple' object does not support item assignment");
  }
  return fail(target.getLoc(),
              "assignment to a subscript is not supported yet");
}

mlir::LogicalResult KernelEmitter::emitIf(const ast::IfStmt &stmt) {
  Result test = emitExpr(stmt.getTest());
  if (!test)
    return mlir::failure();
  // A compile-time condition selects a branch, as in Triton; only the taken
  // branch is lowered.
  if (!test->isRuntime())
    return emitBlock(isTruthy(*test) ? stmt.getBody() : stmt.getOrElse());
  std::optional<mlir::Value> condition =
      toCondition(*test, stmt.getTest(), "'if'");
  if (!condition)
    return mlir::failure();
  return emitRuntimeIf(stmt, *condition);
}

} // namespace tile::frontend::mlirgen
