//===- Names.cpp - Names with Python scoping ------------------------------===//
//
// Name lookup with Python scoping: locals, module globals, parameter defaults.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Names
//===----------------------------------------------------------------------===//

void KernelEmitter::collectGlobalAssignments() {
  for (const ast::StmtPtr &stmt : module.getBody()) {
    const ast::Expr *value = nullptr;
    llvm::SmallVector<const ast::Expr *> targets;
    if (auto *assign = dyn_cast<ast::AssignStmt>(stmt.get())) {
      value = &assign->getValue();
      for (const ast::ExprPtr &target : assign->getTargets())
        targets.push_back(target.get());
    } else if (auto *annotated = dyn_cast<ast::AnnAssignStmt>(stmt.get())) {
      value = annotated->getValue();
      targets.push_back(&annotated->getTarget());
    }
    if (!value)
      continue;
    for (const ast::Expr *target : targets) {
      auto *name = dyn_cast<ast::NameExpr>(target);
      if (!name)
        continue;
      if (!globalDefinitions.insert({name->getName(), value}).second)
        globalsAssignedTwice.insert(name->getName());
    }
  }
}

namespace {
void collectTargets(const ast::Expr &target, llvm::StringSet<> &names) {
  if (auto *name = dyn_cast<ast::NameExpr>(&target)) {
    names.insert(name->getName());
  } else if (auto *tuple = dyn_cast<ast::TupleExpr>(&target)) {
    for (const ast::ExprPtr &element : tuple->getElements())
      collectTargets(*element, names);
  } else if (auto *list = dyn_cast<ast::ListExpr>(&target)) {
    for (const ast::ExprPtr &element : list->getElements())
      collectTargets(*element, names);
  }
}

} // namespace

void collectAssigned(const ast::StmtList &body, llvm::StringSet<> &names,
                     std::vector<std::string> *ordered) {
  auto add = [&](const ast::Expr &target) {
    llvm::StringSet<> found;
    collectTargets(target, found);
    llvm::SmallVector<std::string> sorted;
    for (const auto &entry : found)
      sorted.push_back(entry.getKey().str());
    llvm::sort(sorted);
    for (const std::string &name : sorted)
      if (names.insert(name).second && ordered)
        ordered->push_back(name);
  };
  for (const ast::StmtPtr &stmt : body) {
    switch (stmt->getKind()) {
    case ast::Stmt::Kind::Assign:
      for (const ast::ExprPtr &target :
           cast<ast::AssignStmt>(*stmt).getTargets())
        add(*target);
      break;
    case ast::Stmt::Kind::AugAssign:
      add(cast<ast::AugAssignStmt>(*stmt).getTarget());
      break;
    case ast::Stmt::Kind::AnnAssign:
      add(cast<ast::AnnAssignStmt>(*stmt).getTarget());
      break;
    case ast::Stmt::Kind::If: {
      const auto &ifStmt = cast<ast::IfStmt>(*stmt);
      collectAssigned(ifStmt.getBody(), names, ordered);
      collectAssigned(ifStmt.getOrElse(), names, ordered);
      break;
    }
    case ast::Stmt::Kind::For: {
      const auto &forStmt = cast<ast::ForStmt>(*stmt);
      add(forStmt.getTarget());
      collectAssigned(forStmt.getBody(), names, ordered);
      collectAssigned(forStmt.getOrElse(), names, ordered);
      break;
    }
    case ast::Stmt::Kind::While: {
      const auto &whileStmt = cast<ast::WhileStmt>(*stmt);
      collectAssigned(whileStmt.getBody(), names, ordered);
      collectAssigned(whileStmt.getOrElse(), names, ordered);
      break;
    }
    default:
      break;
    }
  }
}

void KernelEmitter::collectAssignedNames(const ast::StmtList &body) {
  collectAssigned(body, assignedNames);
}

KernelEmitter::Result KernelEmitter::lookupName(const ast::NameExpr &name) {
  llvm::StringRef id = name.getName();
  auto local = locals.find(id);
  if (local != locals.end())
    return local->second;
  if (assignedNames.contains(id))
    return error(name.getLoc(),
                 "local variable '" + id + "' is used before it is assigned");
  if (globalDefinitions.count(id))
    return evaluateGlobal(id, name.getLoc());
  if (module.findFunction(id))
    return PyValue::named(PyValue::Kind::Function, id.str());
  auto alias = aliases.find(id);
  if (alias != aliases.end())
    return PyValue::named(PyValue::Kind::Namespace, alias->second);
  if (isPythonBuiltin(id))
    return PyValue::named(PyValue::Kind::Namespace, ("builtins." + id).str());
  if (id == "tl" || id == "triton")
    return error(name.getLoc(), "name '" + id + "' is not defined (missing '" +
                                    (id == "tl" ? "import triton.language as tl"
                                                : "import triton") +
                                    "'?)");
  return error(name.getLoc(), "name '" + id + "' is not defined");
}

KernelEmitter::Result
KernelEmitter::evaluateGlobal(llvm::StringRef name,
                              const ast::Location &useLoc) {
  auto known = globalValues.find(name);
  if (known != globalValues.end())
    return known->second;
  if (globalsAssignedTwice.contains(name))
    return error(useLoc, "global '" + name +
                             "' is assigned more than once at module level; "
                             "only globals assigned once are supported");
  // Globals defined through other globals recurse; keep that bounded.
  constexpr size_t kMaxGlobalNesting = 64;
  if (globalsBeingEvaluated.size() >= kMaxGlobalNesting)
    return error(useLoc, "global '" + name +
                             "' is defined through too many other globals");
  if (!globalsBeingEvaluated.insert(name).second)
    return error(useLoc, "global '" + name + "' is defined in terms of itself");
  llvm::scope_exit done([&] { globalsBeingEvaluated.erase(name); });

  Result value = evaluateInModuleScope(*globalDefinitions.lookup(name));
  if (!value)
    return std::nullopt;
  globalValues[name] = *value;
  return value;
}

KernelEmitter::Result
KernelEmitter::evaluateInModuleScope(const ast::Expr &expr) {
  // No IR may be emitted there: only compile-time values can be globals or
  // defaults of a kernel, and the kernel's own names are not visible.
  llvm::StringMap<PyValue> savedLocals = std::move(locals);
  llvm::StringSet<> savedAssigned = std::move(assignedNames);
  locals.clear();
  assignedNames.clear();
  mlir::OpBuilder::InsertionGuard insertionGuard(builder);
  builder.clearInsertionPoint();
  Result value = emitExpr(expr);
  locals = std::move(savedLocals);
  assignedNames = std::move(savedAssigned);
  return value;
}

} // namespace tile::frontend::mlirgen
