//===- HelperCalls.cpp - Inlining @triton.jit helpers ---------------------===//
//
// Calls of @triton.jit helpers, inlined at the call site.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Calls of @triton.jit helpers
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::callFunction(
    const ast::FunctionDef &function, llvm::ArrayRef<PyValue> args,
    llvm::ArrayRef<std::pair<std::string, PyValue>> keywords,
    const ast::Location &loc) {
  llvm::StringRef name = function.getName();
  if (!isJitFunction(function, aliases))
    return error(loc, "'" + name +
                          "' is not a @triton.jit function; kernels can call "
                          "only @triton.jit helpers");
  if (llvm::is_contained(callStack, &function)) {
    std::string chain;
    for (const ast::FunctionDef *caller : callStack)
      chain += caller->getName().str() + " -> ";
    return error(loc, "recursive call of '" + name + "' (" + chain + name +
                          "); @triton.jit helpers are inlined, so they "
                          "cannot recurse");
  }
  if (mlir::failed(checkPlainParams(function)))
    return std::nullopt;
  constexpr size_t kMaxCallDepth = 64;
  if (callStack.size() >= kMaxCallDepth)
    return error(loc, "helper calls are nested more than " +
                          llvm::Twine(kMaxCallDepth) + " deep");

  const std::vector<ast::Param> &params = function.getParams();
  if (args.size() > params.size())
    return error(loc, name + "() takes " + llvm::Twine(params.size()) +
                          " positional argument" +
                          (params.size() == 1 ? "" : "s") + " but " +
                          llvm::Twine(args.size()) +
                          (args.size() == 1 ? " was" : " were") + " given");
  llvm::SmallVector<std::optional<PyValue>> bound(params.size());
  for (auto [index, arg] : llvm::enumerate(args))
    bound[index] = arg;
  for (const auto &[keywordBinding, value] : keywords) {
    // (A named copy: clang 14 cannot capture a structured binding.)
    const auto &keyword = keywordBinding;
    auto param = llvm::find_if(
        params, [&](const ast::Param &p) { return p.name == keyword; });
    if (param == params.end()) {
      llvm::SmallVector<llvm::StringRef> valid;
      for (const ast::Param &p : params)
        valid.push_back(p.name);
      return error(loc, name + "() got an unexpected keyword argument '" +
                            keyword +
                            "'; parameters: " + llvm::join(valid, ", "));
    }
    size_t index = param - params.begin();
    if (bound[index])
      return error(loc, name + "() got multiple values for argument '" +
                            keyword + "'");
    bound[index] = value;
  }
  for (auto [index, param] : llvm::enumerate(params)) {
    if (!bound[index]) {
      if (!param.defaultValue)
        return error(loc, name + "() missing required argument '" + param.name +
                              "'");
      Result value = evaluateInModuleScope(*param.defaultValue);
      if (!value)
        return std::nullopt;
      bound[index] = *value;
    }
    // A tl.constexpr annotation does not constrain the argument: as in
    // Triton, an argument is compile-time by what it is (a Python value),
    // and a runtime value binds as one.
  }

  // A fresh Python scope for the helper; the caller's comes back after.
  llvm::StringMap<PyValue> savedLocals = std::move(locals);
  llvm::StringSet<> savedAssigned = std::move(assignedNames);
  bool savedReturned = returned;
  ast::Location savedReturnLoc = returnLoc;
  PyValue savedReturnValue = returnValue;
  unsigned savedRegionDepth = regionDepth;
  unsigned savedBlockNesting = blockNesting;
  blockNesting = 0;
  locals.clear();
  assignedNames.clear();
  for (auto [param, value] : llvm::zip(params, bound)) {
    locals[param.name] = *value;
    assignedNames.insert(param.name);
  }
  collectAssignedNames(function.getBody());
  returned = false;
  returnValue = PyValue::none();
  regionDepth = 0;
  callStack.push_back(&function);
  mlir::LogicalResult emitted = emitBlock(function.getBody());
  callStack.pop_back();
  PyValue result = returnValue;
  locals = std::move(savedLocals);
  assignedNames = std::move(savedAssigned);
  returned = savedReturned;
  returnLoc = savedReturnLoc;
  returnValue = savedReturnValue;
  regionDepth = savedRegionDepth;
  blockNesting = savedBlockNesting;
  if (mlir::failed(emitted))
    return std::nullopt;
  return result;
}

KernelEmitter::Result
KernelEmitter::emitFunctionCall(const ast::CallExpr &call,
                                const ast::FunctionDef &function) {
  llvm::SmallVector<PyValue> args;
  for (const ast::ExprPtr &arg : call.getArgs()) {
    Result value = emitExpr(*arg);
    if (!value)
      return std::nullopt;
    args.push_back(*value);
  }
  llvm::SmallVector<std::pair<std::string, PyValue>> keywords;
  for (const ast::Keyword &keyword : call.getKeywords()) {
    Result value = emitExpr(*keyword.value);
    if (!value)
      return std::nullopt;
    keywords.push_back({keyword.name, *value});
  }
  if (!requireIR(call.getLoc(), function.getName()))
    return std::nullopt;
  return callFunction(function, args, keywords, call.getLoc());
}

} // namespace tile::frontend::mlirgen
