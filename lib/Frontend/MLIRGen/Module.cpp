//===- Module.cpp - Imports, decorators, kernels --------------------------===//
//
// Imports, decorators, kernels and autotuning configurations of a module; the
// entry point.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

using namespace tile::frontend;
using namespace tile::frontend::mlirgen;

//===----------------------------------------------------------------------===//
// Module-level helpers: imports, decorators, kernels
//===----------------------------------------------------------------------===//

namespace tile::frontend::mlirgen {

ImportAliases collectImportAliases(const ast::Module &module) {
  ImportAliases aliases;
  for (const ast::Import &import : module.getImports()) {
    for (const ast::ImportAlias &alias : import.names) {
      if (alias.name == "*")
        continue;
      if (!import.isFrom) {
        if (!alias.asName.empty())
          aliases[alias.asName] = alias.name;
        else {
          llvm::StringRef root = llvm::StringRef(alias.name).split('.').first;
          aliases[root] = root.str();
        }
        continue;
      }
      // Relative imports name nothing Tile knows.
      if (import.level != 0)
        continue;
      llvm::StringRef bound = alias.asName.empty() ? alias.name : alias.asName;
      aliases[bound] = import.module + "." + alias.name;
    }
  }
  return aliases;
}

/// The dotted name that `expr` refers to when it is a chain of attribute
/// accesses on an imported name (`tl.load` -> "triton.language.load"), or
/// an empty string.
std::string resolveImportedName(const ast::Expr &expr,
                                const ImportAliases &aliases) {
  if (auto *name = dyn_cast<ast::NameExpr>(&expr)) {
    auto it = aliases.find(name->getName());
    return it == aliases.end() ? std::string() : it->second;
  }
  if (auto *attribute = dyn_cast<ast::AttributeExpr>(&expr)) {
    std::string base = resolveImportedName(attribute->getValue(), aliases);
    if (base.empty())
      return base;
    return base + "." + attribute->getAttr().str();
  }
  return std::string();
}

/// How the user spelled a (dotted) name, for messages: "tl.load".
std::string spellName(const ast::Expr &expr) {
  if (auto *name = dyn_cast<ast::NameExpr>(&expr))
    return name->getName().str();
  if (auto *attribute = dyn_cast<ast::AttributeExpr>(&expr)) {
    std::string base = spellName(attribute->getValue());
    if (base.empty())
      return base;
    return base + "." + attribute->getAttr().str();
  }
  return std::string();
}

DecoratorKind classifyDecorator(const ast::Expr &decorator,
                                const ImportAliases &aliases) {
  const ast::Expr *target = &decorator;
  if (auto *call = dyn_cast<ast::CallExpr>(target))
    target = &call->getCallee();
  std::string name = resolveImportedName(*target, aliases);
  if (name == "triton.jit" || name == "triton.runtime.jit")
    return DecoratorKind::Jit;
  if (name == "triton.autotune" || name == "triton.runtime.autotune")
    return DecoratorKind::Autotune;
  if (name == "triton.heuristics" || name == "triton.runtime.heuristics")
    return DecoratorKind::Heuristics;
  return DecoratorKind::Other;
}

bool isJitFunction(const ast::FunctionDef &function,
                   const ImportAliases &aliases) {
  return llvm::any_of(function.getDecorators(), [&](const ast::ExprPtr &d) {
    return classifyDecorator(*d, aliases) == DecoratorKind::Jit;
  });
}

bool isConstexprAnnotation(const ast::Expr *annotation,
                           const ImportAliases &aliases) {
  if (!annotation)
    return false;
  std::string name = resolveImportedName(*annotation, aliases);
  return name == "triton.language.constexpr" ||
         name == "triton.language.core.constexpr";
}

/// The @triton.jit function `kernelName`, or null after reporting why there
/// is none.
const ast::FunctionDef *findKernel(const ast::Module &module,
                                   llvm::StringRef kernelName,
                                   DiagEmitter &diag) {
  ImportAliases aliases = collectImportAliases(module);
  const ast::FunctionDef *function = module.findFunction(kernelName);
  if (function && isJitFunction(*function, aliases))
    return function;
  if (function) {
    diag.error(function->getLoc(),
               "function '" + kernelName +
                   "' is not a kernel: it is not decorated with @triton.jit");
    return nullptr;
  }
  std::vector<std::string> kernels = getKernelNames(module);
  std::string known = kernels.empty()
                          ? std::string("the file defines no @triton.jit "
                                        "function")
                          : "kernels: " + llvm::join(kernels, ", ");
  diag.error("no kernel named '" + kernelName + "' in " + module.getFilename() +
             "; " + known);
  return nullptr;
}

} // namespace tile::frontend::mlirgen

std::vector<std::string>
tile::frontend::getKernelNames(const ast::Module &module) {
  ImportAliases aliases = collectImportAliases(module);
  std::vector<std::string> names;
  // Each name once, as the last definition binds it.
  for (const auto &function : module.getFunctions())
    if (module.findFunction(function->getName()) == function.get() &&
        isJitFunction(*function, aliases))
      names.push_back(function->getName().str());
  return names;
}

std::optional<std::vector<KernelParam>>
tile::frontend::getKernelParams(const ast::Module &module,
                                llvm::StringRef kernelName, DiagEmitter &diag) {
  const ast::FunctionDef *kernel = findKernel(module, kernelName, diag);
  if (!kernel)
    return std::nullopt;
  ImportAliases aliases = collectImportAliases(module);
  std::vector<KernelParam> params;
  for (const ast::Param &param : kernel->getParams()) {
    if (param.kind != ast::Param::Kind::Plain) {
      diag.error(param.loc,
                 "'" +
                     std::string(
                         param.kind == ast::Param::Kind::VarArgs ? "*" : "**") +
                     param.name +
                     "' parameters are not supported in @triton.jit "
                     "functions");
      return std::nullopt;
    }
    KernelParam result;
    result.name = param.name;
    result.isConstexpr = isConstexprAnnotation(param.annotation.get(), aliases);
    result.defaultValue = param.defaultValue.get();
    result.loc = param.loc;
    params.push_back(std::move(result));
  }
  return params;
}

namespace {
/// A literal of a decorator argument: numbers (with a sign), bools and
/// strings.
std::optional<ConstexprValue> evaluateLiteral(const ast::Expr &expr) {
  if (auto *constant = dyn_cast<ast::ConstantExpr>(&expr)) {
    if (constant->isOversizedInt())
      return std::nullopt;
    if (constant->isInt())
      return ConstexprValue(constant->getInt());
    if (constant->isFloat())
      return ConstexprValue(constant->getFloat());
    if (constant->isBool())
      return ConstexprValue(constant->getBool());
    if (constant->isString() && !constant->isBytes())
      return ConstexprValue(constant->getString().str());
    return std::nullopt;
  }
  if (auto *unary = dyn_cast<ast::UnaryOpExpr>(&expr)) {
    std::optional<ConstexprValue> operand =
        evaluateLiteral(unary->getOperand());
    if (!operand || unary->getOp() != ast::UnaryOp::Minus)
      return std::nullopt;
    if (auto *i = std::get_if<int64_t>(&*operand))
      return ConstexprValue(-*i);
    if (auto *d = std::get_if<double>(&*operand))
      return ConstexprValue(-*d);
  }
  return std::nullopt;
}

const ast::ExprList *getSequenceElements(const ast::Expr &expr) {
  if (auto *list = dyn_cast<ast::ListExpr>(&expr))
    return &list->getElements();
  if (auto *tuple = dyn_cast<ast::TupleExpr>(&expr))
    return &tuple->getElements();
  return nullptr;
}

std::optional<AutotuneConfig> parseConfig(const ast::Expr &expr,
                                          const ImportAliases &aliases,
                                          DiagEmitter &diag) {
  auto *call = dyn_cast<ast::CallExpr>(&expr);
  std::string callee =
      call ? resolveImportedName(call->getCallee(), aliases) : "";
  if (callee != "triton.Config" && callee != "triton.runtime.Config") {
    diag.error(ast::getStartLoc(expr),
               "each autotuning configuration must be written as "
               "triton.Config({...}, num_warps=..., num_stages=...)");
    return std::nullopt;
  }
  AutotuneConfig config;
  config.loc = call->getLoc();
  const ast::Expr *kwargs =
      call->getArgs().empty() ? nullptr : call->getArgs().front().get();
  for (const ast::Keyword &keyword : call->getKeywords()) {
    if (keyword.name == "kwargs") {
      kwargs = keyword.value.get();
      continue;
    }
    int64_t *field = keyword.name == "num_warps"    ? &config.numWarps
                     : keyword.name == "num_stages" ? &config.numStages
                     : keyword.name == "num_ctas"   ? &config.numCtas
                                                    : nullptr;
    if (!field) {
      // maxnreg, pre_hook, ...: tuning details Tile does not use.
      continue;
    }
    std::optional<ConstexprValue> value = evaluateLiteral(*keyword.value);
    auto *i = value ? std::get_if<int64_t>(&*value) : nullptr;
    if (!i || *i <= 0) {
      diag.error(ast::getStartLoc(*keyword.value),
                 "triton.Config " + keyword.name +
                     " must be a positive integer literal");
      return std::nullopt;
    }
    *field = *i;
  }
  if (call->getArgs().size() > 1) {
    diag.error(call->getArgs()[1]->getLoc(),
               "triton.Config takes the parameter dict positionally and the "
               "rest by keyword (num_warps=, num_stages=, num_ctas=)");
    return std::nullopt;
  }
  auto *dict = kwargs ? dyn_cast<ast::DictExpr>(kwargs) : nullptr;
  if (!dict) {
    diag.error(kwargs ? ast::getStartLoc(*kwargs) : call->getLoc(),
               "triton.Config needs a dict of parameter values, e.g. "
               "{'BLOCK_SIZE': 128}");
    return std::nullopt;
  }
  for (auto [key, value] : llvm::zip(dict->getKeys(), dict->getValues())) {
    auto *name = dyn_cast<ast::ConstantExpr>(key.get());
    if (!name || !name->isString()) {
      diag.error(key->getLoc(), "triton.Config keys must be parameter names "
                                "written as strings");
      return std::nullopt;
    }
    std::optional<ConstexprValue> literal = evaluateLiteral(*value);
    if (!literal) {
      diag.error(ast::getStartLoc(*value),
                 "the value of '" + name->getString() +
                     "' must be a literal (number, bool or string)");
      return std::nullopt;
    }
    config.kwargs.push_back({name->getString().str(), std::move(*literal)});
  }
  return config;
}
} // namespace

llvm::FailureOr<std::optional<AutotuneInfo>>
tile::frontend::getAutotuneInfo(const ast::Module &module,
                                llvm::StringRef kernelName, DiagEmitter &diag) {
  const ast::FunctionDef *kernel = findKernel(module, kernelName, diag);
  if (!kernel)
    return llvm::failure();
  ImportAliases aliases = collectImportAliases(module);
  const ast::CallExpr *decorator = nullptr;
  for (const ast::ExprPtr &d : kernel->getDecorators())
    if (classifyDecorator(*d, aliases) == DecoratorKind::Autotune)
      decorator = dyn_cast<ast::CallExpr>(d.get());
  if (!decorator)
    return std::optional<AutotuneInfo>();

  AutotuneInfo info;
  info.loc = decorator->getLoc();
  const ast::Expr *configs =
      decorator->getArgs().size() > 0 ? decorator->getArgs()[0].get()
      : decorator->findKeyword("configs")
          ? decorator->findKeyword("configs")->value.get()
          : nullptr;
  const ast::Expr *key = decorator->getArgs().size() > 1
                             ? decorator->getArgs()[1].get()
                         : decorator->findKeyword("key")
                             ? decorator->findKeyword("key")->value.get()
                             : nullptr;
  const ast::ExprList *configList =
      configs ? getSequenceElements(*configs) : nullptr;
  if (!configList) {
    diag.error(configs ? ast::getStartLoc(*configs) : decorator->getLoc(),
               "@triton.autotune configs= must be a list of triton.Config "
               "written in the decorator");
    return llvm::failure();
  }
  for (const ast::ExprPtr &element : *configList) {
    std::optional<AutotuneConfig> config = parseConfig(*element, aliases, diag);
    if (!config)
      return llvm::failure();
    info.configs.push_back(std::move(*config));
  }
  const ast::ExprList *keyList = key ? getSequenceElements(*key) : nullptr;
  if (!keyList) {
    diag.error(key ? ast::getStartLoc(*key) : decorator->getLoc(),
               "@triton.autotune key= must be a list of parameter names");
    return llvm::failure();
  }
  for (const ast::ExprPtr &element : *keyList) {
    auto *name = dyn_cast<ast::ConstantExpr>(element.get());
    if (!name || !name->isString()) {
      diag.error(element->getLoc(),
                 "@triton.autotune key= entries must be parameter names "
                 "written as strings");
      return llvm::failure();
    }
    if (!llvm::any_of(kernel->getParams(), [&](const ast::Param &param) {
          return param.name == name->getString();
        })) {
      diag.error(element->getLoc(),
                 "@triton.autotune key '" + name->getString() +
                     "' is not a parameter of '" + kernelName + "'");
      return llvm::failure();
    }
    info.key.push_back(name->getString().str());
  }
  return std::optional<AutotuneInfo>(std::move(info));
}

//===----------------------------------------------------------------------===//
// Entry point
//===----------------------------------------------------------------------===//

mlir::OwningOpRef<mlir::ModuleOp> tile::frontend::emitKernel(
    mlir::MLIRContext &context, const ast::Module &module,
    llvm::StringRef kernelName, const KernelSpecialization &spec,
    DiagEmitter &diag) {
  context.loadDialect<mlir::func::FuncDialect, mlir::arith::ArithDialect,
                      mlir::math::MathDialect, mlir::scf::SCFDialect,
                      mlir::tile::TileDialect>();
  const ast::FunctionDef *kernel = findKernel(module, kernelName, diag);
  if (!kernel)
    return nullptr;
  KernelEmitter emitter(context, module, diag);
  return emitter.emit(*kernel, spec);
}
