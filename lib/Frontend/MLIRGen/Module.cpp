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
const ast::ExprList *getSequenceElements(const ast::Expr &expr) {
  if (auto *list = dyn_cast<ast::ListExpr>(&expr))
    return &list->getElements();
  if (auto *tuple = dyn_cast<ast::TupleExpr>(&expr))
    return &tuple->getElements();
  return nullptr;
}

/// prune_configs_by={'early_config_prune': f, ...}. f, a module-level
/// function, runs on each launch's values. A pruner Tile cannot run is an
/// error rather than ignored: the configurations it would drop may not
/// compile or may be wrong for the launch (tutorial 06 drops causal ones).
/// perf_model and top_k time only the configurations a model of their time
/// ranks first; Tile times every configuration the pruner keeps instead, and
/// says so.
llvm::LogicalResult readPruneConfigsBy(const ast::Module &module,
                                       const ast::Keyword &prune,
                                       AutotuneInfo &info, DiagEmitter &diag) {
  auto *dict = dyn_cast<ast::DictExpr>(prune.value.get());
  if (!dict) {
    diag.error(ast::getStartLoc(*prune.value),
               "prune_configs_by must be a dict written in the decorator, "
               "such as {'early_config_prune': f}");
    return llvm::failure();
  }
  for (auto [k, v] : llvm::zip(dict->getKeys(), dict->getValues())) {
    auto *keyName = dyn_cast<ast::ConstantExpr>(k.get());
    if (!keyName || !keyName->isString()) {
      diag.error(ast::getStartLoc(*k), "prune_configs_by keys must be strings");
      return llvm::failure();
    }
    llvm::StringRef name = keyName->getString();
    if (name == "early_config_prune") {
      auto *function = dyn_cast<ast::NameExpr>(v.get());
      if (!function || !module.findFunction(function->getName())) {
        diag.error(ast::getStartLoc(*v),
                   "early_config_prune must name a function defined at the "
                   "top level of this file");
        return llvm::failure();
      }
      info.earlyConfigPrune = function->getName().str();
    } else if (name == "perf_model") {
      // top_k only counts with a perf_model, as in Triton.
      auto *none = dyn_cast<ast::ConstantExpr>(v.get());
      if (!none || !none->isNone())
        diag.warning(ast::getStartLoc(*k),
                     "prune_configs_by's perf_model (and top_k) is not used: "
                     "Tile times every configuration, after "
                     "early_config_prune if there is one");
    } else if (name != "top_k") {
      diag.warning(ast::getStartLoc(*k),
                   "prune_configs_by key '" + name.str() +
                       "' is not one Triton reads (early_config_prune, "
                       "perf_model, top_k); it is ignored");
    }
  }
  return llvm::success();
}

} // namespace

llvm::FailureOr<std::optional<AutotuneInfo>>
tile::frontend::getAutotuneInfo(const ast::Module &module,
                                llvm::StringRef kernelName, DiagEmitter &diag,
                                unsigned computeCapability) {
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
  if (!configs) {
    diag.error(decorator->getLoc(), "@triton.autotune needs configs=");
    return llvm::failure();
  }
  std::optional<std::vector<AutotuneConfig>> configList =
      evaluateAutotuneConfigs(module, *configs, aliases, diag,
                              computeCapability);
  if (!configList)
    return llvm::failure();
  info.configs = std::move(*configList);
  if (const ast::Keyword *prune = decorator->findKeyword("prune_configs_by"))
    if (failed(readPruneConfigsBy(module, *prune, info, diag)))
      return llvm::failure();
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
    // Triton's autotuner skips key names that are not arguments (tutorial
    // 08 has one, 'gropup_c_ptrs'); so does Tile, with a warning.
    if (!llvm::any_of(kernel->getParams(), [&](const ast::Param &param) {
          return param.name == name->getString();
        })) {
      diag.warning(element->getLoc(),
                   "@triton.autotune key '" + name->getString() +
                       "' is not a parameter of '" + kernelName +
                       "'; it is ignored, as Triton ignores it");
      continue;
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
