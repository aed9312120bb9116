//===- Calls.cpp - Calls and argument binding -----------------------------===//
//
// Calls: the callee resolved, arguments bound to parameters as Python binds
// them.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

//===----------------------------------------------------------------------===//
// Calls and builtins
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::emitCall(const ast::CallExpr &call) {
  Result callee = emitExpr(call.getCallee());
  if (!callee)
    return std::nullopt;
  std::string spelled = spellName(call.getCallee());
  if (callee->kind == PyValue::Kind::Function) {
    const ast::FunctionDef *function = module.findFunction(callee->text);
    if (!function)
      return error(call.getLoc(), "no function named '" + callee->text + "'");
    return emitFunctionCall(call, *function);
  }
  if (callee->kind == PyValue::Kind::BoundMethod) {
    llvm::StringRef qualified = callee->text;
    if (qualified.consume_front("dtype.")) {
      // dtype predicates: tl.float32.is_floating() and friends.
      if (!call.getArgs().empty() || !call.getKeywords().empty())
        return error(call.getLoc(), qualified + "() takes no arguments");
      mlir::Type type = callee->elements[0].type;
      bool isUnsigned = callee->elements[0].isUnsigned;
      std::optional<bool> answer =
          llvm::StringSwitch<std::optional<bool>>(qualified)
              .Case("is_floating", isFloat(type))
              .Case("is_int", isInteger(type))
              .Case("is_int_signed", isInteger(type) && !isUnsigned)
              .Case("is_int_unsigned", isInteger(type) && isUnsigned)
              .Case("is_bool", isBool(type))
              .Case("is_ptr", isPointer(type))
              .Case("is_fp16", type.isF16())
              .Case("is_bf16", type.isBF16())
              .Case("is_fp32", type.isF32())
              .Case("is_fp64", type.isF64())
              .Default(std::nullopt);
      if (!answer)
        return error(call.getLoc(), "dtype has no method '" + qualified + "'");
      return PyValue::boolean(*answer);
    }
    qualified.consume_front("triton.language.");
    std::string displayName =
        spelled.empty() ? ("." + qualified).str() : std::move(spelled);
    return emitLanguageCall(call, qualified, displayName, &callee->elements[0]);
  }
  if (callee->kind != PyValue::Kind::Namespace)
    return error(call.getLoc(), describe(*callee) + " is not callable");

  llvm::StringRef qualified = callee->text;
  std::string displayName =
      spelled.empty() ? qualified.str() : std::move(spelled);
  if (qualified.consume_front("builtins."))
    return emitPythonBuiltin(call, qualified);
  if (qualified.consume_front("triton.language.math.") ||
      qualified.consume_front("triton.language.standard.") ||
      qualified.consume_front("triton.language.core.") ||
      qualified.consume_front("triton.language.random.") ||
      qualified.consume_front("triton.language."))
    return emitLanguageCall(call, qualified, displayName);
  if (qualified == "triton.cdiv" || qualified == "triton.next_power_of_2") {
    std::optional<CallArgs> args = evaluateArguments(
        call, displayName,
        qualified == "triton.cdiv"
            ? llvm::ArrayRef<BuiltinParam>({{"x", true}, {"div", true}})
            : llvm::ArrayRef<BuiltinParam>({{"n", true}}),
        nullptr);
    if (!args)
      return std::nullopt;
    for (auto [value, loc] : llvm::zip(args->values, args->locs))
      if (value.kind != PyValue::Kind::Int)
        return error(loc, displayName + "() takes compile-time integers, got " +
                              describe(value));
    if (qualified == "triton.cdiv") {
      int64_t x = args->values[0].intValue, d = args->values[1].intValue;
      if (d == 0)
        return error(call.getLoc(), "division by zero");
      return PyValue::integer(floorDivide(x + d - 1, d));
    }
    int64_t n = args->values[0].intValue;
    if (n > (int64_t(1) << 62))
      return error(call.getLoc(), "integer overflow in constant expression");
    return PyValue::integer(n <= 1 ? 1 : int64_t(llvm::PowerOf2Ceil(n)));
  }
  return error(call.getLoc(), displayName + "() is not supported");
}

std::optional<KernelEmitter::CallArgs>
KernelEmitter::evaluateArguments(const ast::CallExpr &call,
                                 llvm::StringRef displayName,
                                 llvm::ArrayRef<BuiltinParam> params,
                                 const PyValue *self, int variadicFrom) {
  llvm::SmallVector<PyValue> positional;
  llvm::SmallVector<ast::Location> positionalLocs;
  if (self) {
    positional.push_back(*self);
    positionalLocs.push_back(call.getLoc());
  }
  for (const ast::ExprPtr &arg : call.getArgs()) {
    Result value = emitExpr(*arg);
    if (!value)
      return std::nullopt;
    positional.push_back(*value);
    positionalLocs.push_back(ast::getStartLoc(*arg));
  }
  // `reshape(x, 2, 4)` means `reshape(x, (2, 4))`.
  if (variadicFrom >= 0 && positional.size() > size_t(variadicFrom) + 1) {
    std::vector<PyValue> rest(positional.begin() + variadicFrom,
                              positional.end());
    positional.resize(variadicFrom);
    positional.push_back(PyValue::tuple(std::move(rest)));
    positionalLocs.resize(variadicFrom + 1);
  }

  CallArgs result;
  result.values.assign(params.size(), PyValue::none());
  result.present.assign(params.size(), false);
  result.locs.assign(params.size(), call.getLoc());
  for (size_t i = 0; i < positional.size() && i < params.size(); ++i) {
    result.values[i] = positional[i];
    result.present[i] = true;
    result.locs[i] = positionalLocs[i];
  }
  if (!matchParams(call, displayName, params, positional.size(),
                   [&](size_t index, const ast::Keyword &keyword) {
                     Result value = emitExpr(*keyword.value);
                     if (!value)
                       return false;
                     result.values[index] = *value;
                     result.present[index] = true;
                     result.locs[index] = ast::getStartLoc(*keyword.value);
                     return true;
                   }))
    return std::nullopt;
  return result;
}

bool KernelEmitter::matchParams(
    const ast::CallExpr &call, llvm::StringRef displayName,
    llvm::ArrayRef<BuiltinParam> params, size_t numPositional,
    llvm::function_ref<bool(size_t, const ast::Keyword &)> bindKeyword) {
  size_t numRequired = llvm::count_if(
      params, [](const BuiltinParam &param) { return param.required; });
  if (numPositional > params.size()) {
    std::string takes = numRequired == params.size()
                            ? std::to_string(params.size())
                            : "from " + std::to_string(numRequired) + " to " +
                                  std::to_string(params.size());
    diag.error(call.getLoc(),
               displayName + "() takes " + takes + " positional argument" +
                   (params.size() == 1 ? "" : "s") + " but " +
                   llvm::Twine(numPositional) +
                   (numPositional == 1 ? " was" : " were") + " given");
    return false;
  }
  llvm::SmallVector<bool> filled(params.size(), false);
  std::fill_n(filled.begin(), numPositional, true);
  for (const ast::Keyword &keyword : call.getKeywords()) {
    auto *param = llvm::find_if(params, [&](const BuiltinParam &candidate) {
      return candidate.name == keyword.name;
    });
    if (param == params.end()) {
      // List what could still be passed, so that a typo is easy to spot.
      llvm::SmallVector<llvm::StringRef> valid;
      for (auto [index, candidate] : llvm::enumerate(params))
        if (index >= numPositional)
          valid.push_back(candidate.name);
      diag.error(keyword.loc,
                 displayName + "() got an unexpected keyword argument '" +
                     keyword.name + "'; valid: " + llvm::join(valid, ", "));
      return false;
    }
    size_t index = param - params.begin();
    if (filled[index]) {
      diag.error(keyword.loc, displayName +
                                  "() got multiple values for argument '" +
                                  keyword.name + "'");
      return false;
    }
    if (!bindKeyword(index, keyword))
      return false;
    filled[index] = true;
  }
  for (auto [index, param] : llvm::enumerate(params)) {
    if (param.required && !filled[index]) {
      diag.error(call.getLoc(), displayName + "() missing required argument '" +
                                    param.name + "'");
      return false;
    }
  }
  return true;
}

std::optional<llvm::SmallVector<const ast::Expr *>>
KernelEmitter::bindArguments(const ast::CallExpr &call,
                             llvm::StringRef displayName,
                             llvm::ArrayRef<BuiltinParam> params) {
  llvm::SmallVector<const ast::Expr *> bound(params.size(), nullptr);
  const ast::ExprList &args = call.getArgs();
  for (size_t i = 0; i < args.size() && i < params.size(); ++i)
    bound[i] = args[i].get();
  if (!matchParams(call, displayName, params, args.size(),
                   [&](size_t index, const ast::Keyword &keyword) {
                     bound[index] = keyword.value.get();
                     return true;
                   }))
    return std::nullopt;
  return bound;
}

bool KernelEmitter::requireIR(const ast::Location &loc, llvm::StringRef what) {
  if (builder.getInsertionBlock())
    return true;
  diag.error(loc, what + "() cannot be used outside a kernel: module-level "
                         "values and defaults must be compile-time constants");
  return false;
}

std::optional<int64_t>
KernelEmitter::evaluateAxis(const ast::Expr &expr,
                            llvm::StringRef displayName) {
  Result axis = emitExpr(expr);
  if (!axis)
    return std::nullopt;
  if (axis->kind != PyValue::Kind::Int) {
    diag.error(expr.getLoc(), displayName +
                                  "() axis must be a constant integer (0, 1 "
                                  "or 2), got " +
                                  describe(*axis));
    return std::nullopt;
  }
  if (axis->intValue < 0 || axis->intValue > 2) {
    diag.error(expr.getLoc(), displayName + "() axis must be 0, 1 or 2, got " +
                                  llvm::Twine(axis->intValue));
    return std::nullopt;
  }
  return axis->intValue;
}

} // namespace tile::frontend::mlirgen
