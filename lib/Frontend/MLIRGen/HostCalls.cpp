//===- HostCalls.cpp - calls and statements of the config-building host ---===//
//
// The part of the autotune-configuration evaluator that runs host Python
// beyond expressions, as Triton's tutorial 06 writes it: calls of
// module-level functions whose bodies assign names, branch and return
// (`keep(conf)`); list(), filter(), dict() and dict.get(); a config's
// kwargs and num_warps; subscripts; module-level names bound inside `if`
// statements (`if is_hip(): NUM_STAGES_OPTIONS = [1] elif ...`); and the
// facts the host asks about the GPU Tile compiles for: the CUDA backend
// (triton.runtime.driver.active.get_current_target()), its compute
// capability (torch.cuda.get_device_capability()) and an empty os.environ
// (no PYTEST_VERSION).
//
//===----------------------------------------------------------------------===//

#include "HostEvaluator.h"
#include "KernelEmitter.h"

using namespace tile::frontend;
using namespace tile::frontend::mlirgen;

namespace {
const HostValue *findEntry(const HostValue &dict, llvm::StringRef key) {
  for (const auto &[name, value] : dict.dict)
    if (name == key)
      return &value;
  return nullptr;
}

/// Whether `assign` binds `name` itself (not an element or attribute).
bool bindsName(const ast::AssignStmt &assign, llvm::StringRef name) {
  return llvm::any_of(assign.getTargets(), [&](const ast::ExprPtr &target) {
    auto *targetName = dyn_cast<ast::NameExpr>(target.get());
    return targetName && targetName->getName() == name;
  });
}

/// Whether `stmt` assigns `name`, in any branch of an `if`.
bool assigns(const ast::Stmt &stmt, llvm::StringRef name) {
  if (auto *assign = dyn_cast<ast::AssignStmt>(&stmt))
    return bindsName(*assign, name);
  auto *ifStmt = dyn_cast<ast::IfStmt>(&stmt);
  auto inBranch = [&](const ast::StmtList &branch) {
    return llvm::any_of(branch, [&](const ast::StmtPtr &inner) {
      return assigns(*inner, name);
    });
  };
  return ifStmt &&
         (inBranch(ifStmt->getBody()) || inBranch(ifStmt->getOrElse()));
}
} // namespace

const ast::Expr *ConfigEvaluator::findGlobalBinding(const ast::StmtList &body,
                                                    llvm::StringRef name,
                                                    bool &failed) {
  const ast::Expr *binding = nullptr;
  for (const ast::StmtPtr &stmt : body) {
    if (!assigns(*stmt, name))
      continue;
    if (auto *assign = dyn_cast<ast::AssignStmt>(stmt.get())) {
      binding = &assign->getValue();
      continue;
    }
    auto *ifStmt = cast<ast::IfStmt>(stmt.get());
    // Only the branch the module runs binds the name.
    std::optional<bool> taken = truth(ifStmt->getTest(), Scope());
    if (!taken) {
      failed = true;
      return nullptr;
    }
    const ast::Expr *inner = findGlobalBinding(
        *taken ? ifStmt->getBody() : ifStmt->getOrElse(), name, failed);
    if (failed)
      return nullptr;
    if (inner)
      binding = inner;
  }
  return binding;
}

std::optional<HostValue>
ConfigEvaluator::evalAttribute(const ast::AttributeExpr &attribute,
                               const Scope &scope) {
  llvm::StringRef attr = attribute.getAttr();
  std::string dotted = resolveImportedName(attribute, aliases);
  if (dotted == "os.environ")
    return HostValue::getDict();
  std::optional<HostValue> base = eval(attribute.getValue(), scope);
  if (!base)
    return std::nullopt;
  if (base->kind == HostValue::Kind::Config) {
    const AutotuneConfig &config = *base->config;
    if (attr == "kwargs") {
      HostValue kwargs = HostValue::getDict();
      for (const auto &[name, value] : config.kwargs)
        kwargs.dict.push_back({name, HostValue::fromConstexpr(value)});
      return kwargs;
    }
    if (attr == "num_warps")
      return HostValue::getInt(config.numWarps);
    if (attr == "num_stages")
      return HostValue::getInt(config.numStages);
    if (attr == "num_ctas")
      return HostValue::getInt(config.numCtas);
    return fail(attribute, "a configuration has kwargs, num_warps, "
                           "num_stages and num_ctas here, not '" +
                               attr + "'");
  }
  // The objects the host's queries return are dicts of their attributes.
  if (base->kind == HostValue::Kind::Dict)
    if (const HostValue *entry = findEntry(*base, attr))
      return *entry;
  // A dotted name passed along, like a bare unknown name (a callee, say).
  if (base->kind == HostValue::Kind::Opaque) {
    HostValue v;
    v.kind = HostValue::Kind::Opaque;
    v.s = base->s + "." + attr.str();
    return v;
  }
  return fail(attribute, "'" + attr +
                             "' is not known where the autotuning "
                             "configurations are read");
}

std::optional<HostValue>
ConfigEvaluator::evalSubscript(const ast::SubscriptExpr &subscript,
                               const Scope &scope) {
  std::optional<HostValue> base = evalKnown(subscript.getValue(), scope);
  if (!base)
    return std::nullopt;
  std::optional<HostValue> index = evalKnown(subscript.getIndex(), scope);
  if (!index)
    return std::nullopt;
  if (base->kind == HostValue::Kind::List &&
      index->kind == HostValue::Kind::Int) {
    int64_t size = base->elements.size();
    int64_t i = index->i < 0 ? index->i + size : index->i;
    if (i < 0 || i >= size)
      return fail(subscript, "index out of range");
    return base->elements[i];
  }
  if (base->kind == HostValue::Kind::Dict &&
      index->kind == HostValue::Kind::String) {
    if (const HostValue *entry = findEntry(*base, index->s))
      return *entry;
    return fail(subscript, "no key '" + index->s + "' here");
  }
  return fail(subscript, "only a list by an integer and a dict by a string "
                         "can be subscripted here");
}

std::optional<std::vector<HostValue>>
ConfigEvaluator::evalArgs(const ast::CallExpr &call, const Scope &scope,
                          bool known) {
  std::vector<HostValue> values;
  for (const ast::ExprPtr &arg : call.getArgs()) {
    std::optional<HostValue> value =
        known ? evalKnown(*arg, scope) : eval(*arg, scope);
    if (!value)
      return std::nullopt;
    values.push_back(std::move(*value));
  }
  return values;
}

std::optional<std::optional<HostValue>>
ConfigEvaluator::evalBuiltinCall(const ast::CallExpr &call,
                                 const Scope &scope) {
  // Result(std::in_place): a builtin that failed after a diagnostic;
  // std::nullopt: not a builtin.
  using Result = std::optional<std::optional<HostValue>>;
  auto args = [&] { return evalArgs(call, scope, /*known=*/true); };
  std::string callee = resolveImportedName(call.getCallee(), aliases);
  // What the host asks about the GPU.
  if (callee == "triton.runtime.driver.active.get_current_target")
    return Result(
        HostValue::getDict({{"backend", HostValue::getString("cuda")},
                            {"arch", HostValue::getInt(computeCapability)},
                            {"warp_size", HostValue::getInt(32)}}));
  if (callee == "torch.cuda.get_device_capability") {
    HostValue capability;
    capability.kind = HostValue::Kind::List;
    capability.elements = {HostValue::getInt(computeCapability / 10),
                           HostValue::getInt(computeCapability % 10)};
    return Result(capability);
  }
  // dict.get(key, default)
  if (auto *method = dyn_cast<ast::AttributeExpr>(&call.getCallee());
      method && method->getAttr() == "get") {
    std::optional<HostValue> base = eval(method->getValue(), scope);
    if (!base)
      return Result(std::in_place);
    if (base->kind == HostValue::Kind::Dict) {
      std::optional<std::vector<HostValue>> values = args();
      if (!values)
        return Result(std::in_place);
      if (values->empty() || values->size() > 2 ||
          values->front().kind != HostValue::Kind::String)
        return Result(fail(call, "dict.get takes a string key and an "
                                 "optional default here"));
      if (const HostValue *entry = findEntry(*base, values->front().s))
        return Result(*entry);
      return Result(values->size() == 2 ? (*values)[1] : HostValue());
    }
  }
  auto *name = dyn_cast<ast::NameExpr>(&call.getCallee());
  if (!name || module.findFunction(name->getName()) ||
      scope.count(name->getName()))
    return std::nullopt;
  llvm::StringRef builtin = name->getName();
  if (builtin == "dict") {
    if (!call.getArgs().empty())
      return Result(fail(call, "dict() takes keywords here"));
    HostValue dict = HostValue::getDict();
    for (const ast::Keyword &keyword : call.getKeywords()) {
      std::optional<HostValue> v = evalKnown(*keyword.value, scope);
      if (!v)
        return Result(std::in_place);
      dict.dict.push_back({keyword.name, std::move(*v)});
    }
    return Result(dict);
  }
  if (builtin == "list") {
    std::optional<std::vector<HostValue>> values = args();
    if (!values)
      return Result(std::in_place);
    if (values->size() != 1 || values->front().kind != HostValue::Kind::List)
      return Result(fail(call, "list() takes one list here"));
    return Result(values->front());
  }
  if (builtin == "filter") {
    // filter(function, list): the function is one of this file's.
    const ast::FunctionDef *predicate = nullptr;
    if (call.getArgs().size() == 2)
      if (auto *f = dyn_cast<ast::NameExpr>(call.getArgs()[0].get()))
        predicate = module.findFunction(f->getName());
    if (!predicate || isJitFunction(*predicate, aliases))
      return Result(fail(call, "filter() takes a function of this file and a "
                               "list here"));
    std::optional<HostValue> list = evalKnown(*call.getArgs()[1], scope);
    if (!list)
      return Result(std::in_place);
    if (list->kind != HostValue::Kind::List)
      return Result(fail(*call.getArgs()[1], "filter() takes a list here"));
    HostValue kept;
    kept.kind = HostValue::Kind::List;
    for (const HostValue &element : list->elements) {
      std::optional<HostValue> verdict =
          callFunction(*predicate, call, {element}, {});
      if (!verdict)
        return Result(std::in_place);
      bool keep = verdict->kind == HostValue::Kind::Bool ? verdict->b
                  : verdict->kind == HostValue::Kind::Int
                      ? verdict->i != 0
                      : verdict->kind != HostValue::Kind::None;
      if (keep)
        kept.elements.push_back(element);
    }
    return Result(kept);
  }
  return std::nullopt;
}

bool ConfigEvaluator::execute(const ast::StmtList &body, Scope &scope,
                              std::optional<HostValue> &returned) {
  for (const ast::StmtPtr &stmt : body) {
    if (auto *ret = dyn_cast<ast::ReturnStmt>(stmt.get())) {
      if (!ret->getValue()) {
        returned = HostValue();
        return true;
      }
      returned = eval(*ret->getValue(), scope);
      return returned.has_value();
    }
    if (auto *assign = dyn_cast<ast::AssignStmt>(stmt.get())) {
      std::optional<HostValue> value = eval(assign->getValue(), scope);
      if (!value)
        return false;
      for (const ast::ExprPtr &target : assign->getTargets())
        if (!bindTarget(*target, *value, scope))
          return false;
      continue;
    }
    if (auto *ifStmt = dyn_cast<ast::IfStmt>(stmt.get())) {
      std::optional<bool> taken = truth(ifStmt->getTest(), scope);
      if (!taken || !execute(*taken ? ifStmt->getBody() : ifStmt->getOrElse(),
                             scope, returned))
        return false;
      if (returned)
        return true;
      continue;
    }
    // A docstring or a bare string.
    if (auto *expr = dyn_cast<ast::ExprStmt>(stmt.get()))
      if (auto *constant = dyn_cast<ast::ConstantExpr>(&expr->getValue());
          constant && constant->isString())
        continue;
    diag.error(stmt->getLoc(),
               "only assignments, `if` and `return` can run where autotuning "
               "configurations are read");
    return false;
  }
  return true;
}

std::optional<HostValue> ConfigEvaluator::callFunction(
    const ast::FunctionDef &function, const ast::Expr &at,
    std::vector<HostValue> args,
    std::vector<std::pair<std::string, HostValue>> keywords) {
  if (++callDepth > 16) {
    --callDepth;
    return fail(at, "calls nest too deeply here");
  }
  // Parameters: positional arguments, then keywords, then defaults; a
  // **kwargs parameter takes the keywords no parameter names.
  Scope inner;
  const std::vector<ast::Param> &params = function.getParams();
  std::optional<HostValue> result;
  bool ok = true;
  size_t positional = 0;
  for (const ast::Param &param : params) {
    if (param.kind == ast::Param::Kind::KwArgs) {
      HostValue rest = HostValue::getDict();
      for (const auto &keyword : keywords)
        if (!llvm::any_of(params, [&](const ast::Param &p) {
              return p.name == keyword.first &&
                     p.kind == ast::Param::Kind::Plain;
            }))
          rest.dict.push_back(keyword);
      inner[param.name] = std::move(rest);
      continue;
    }
    if (param.kind == ast::Param::Kind::VarArgs) {
      HostValue rest;
      rest.kind = HostValue::Kind::List;
      while (positional < args.size())
        rest.elements.push_back(args[positional++]);
      inner[param.name] = std::move(rest);
      continue;
    }
    auto keyword = llvm::find_if(
        keywords, [&](const auto &entry) { return entry.first == param.name; });
    if (positional < args.size()) {
      inner[param.name] = args[positional++];
    } else if (keyword != keywords.end()) {
      inner[param.name] = keyword->second;
    } else if (param.defaultValue) {
      std::optional<HostValue> value = eval(*param.defaultValue, Scope());
      if (!value) {
        ok = false;
        break;
      }
      inner[param.name] = std::move(*value);
    } else {
      ok = !!fail(at, "missing argument '" + param.name + "' of '" +
                          function.getName() + "'");
      break;
    }
  }
  if (ok && positional < args.size())
    ok = !!fail(at, "too many arguments for '" + function.getName() + "'");
  if (ok && execute(function.getBody(), inner, result) && !result)
    result = HostValue(); // fell off the end: None
  --callDepth;
  return ok ? result : std::nullopt;
}

std::optional<HostValue> ConfigEvaluator::evalCall(const ast::CallExpr &call,
                                                   const Scope &scope) {
  std::string callee = resolveImportedName(call.getCallee(), aliases);
  if (callee == "triton.Config" || callee == "triton.runtime.Config")
    return evalConfig(call, scope);
  if (std::optional<std::optional<HostValue>> builtin =
          evalBuiltinCall(call, scope))
    return *builtin;
  auto *name = dyn_cast<ast::NameExpr>(&call.getCallee());
  const ast::FunctionDef *function =
      name ? module.findFunction(name->getName()) : nullptr;
  if (!function || isJitFunction(*function, aliases))
    return fail(call, "only triton.Config, list(), filter(), dict() and "
                      "functions of this file can be called where autotuning "
                      "configurations are read");
  std::optional<std::vector<HostValue>> evaluated =
      evalArgs(call, scope, /*known=*/false);
  if (!evaluated)
    return std::nullopt;
  std::vector<HostValue> &args = *evaluated;
  std::vector<std::pair<std::string, HostValue>> keywords;
  for (const ast::Keyword &keyword : call.getKeywords()) {
    std::optional<HostValue> value = eval(*keyword.value, scope);
    if (!value)
      return std::nullopt;
    keywords.push_back({keyword.name, std::move(*value)});
  }
  return callFunction(*function, call, std::move(args), std::move(keywords));
}

llvm::FailureOr<std::vector<size_t>> tile::frontend::pruneAutotuneConfigs(
    const ast::Module &module, const AutotuneInfo &info,
    llvm::ArrayRef<std::pair<std::string, ConstexprValue>> arguments,
    DiagEmitter &diag, unsigned computeCapability) {
  std::vector<size_t> kept;
  if (info.earlyConfigPrune.empty()) {
    for (size_t i = 0; i < info.configs.size(); ++i)
      kept.push_back(i);
    return kept;
  }
  const ast::FunctionDef *pruner = module.findFunction(info.earlyConfigPrune);
  if (!pruner)
    return llvm::failure();
  ImportAliases aliases = collectImportAliases(module);
  ConfigEvaluator evaluator(module, aliases, diag, computeCapability);
  // The configurations as values whose identity says which ones come back.
  HostValue configs;
  configs.kind = HostValue::Kind::List;
  for (const AutotuneConfig &config : info.configs) {
    HostValue v;
    v.kind = HostValue::Kind::Config;
    v.config = std::make_shared<AutotuneConfig>(config);
    configs.elements.push_back(std::move(v));
  }
  HostValue namedArgs = HostValue::getDict();
  std::vector<std::pair<std::string, HostValue>> keywords;
  for (const auto &[name, value] : arguments) {
    namedArgs.dict.push_back({name, HostValue::fromConstexpr(value)});
    keywords.push_back({name, HostValue::fromConstexpr(value)});
  }
  // Diagnostics point at the decorator's pruner function.
  ast::NameExpr at(pruner->getLoc(), pruner->getName().str());
  std::optional<HostValue> result =
      evaluator.callFunction(*pruner, at, {configs, namedArgs}, keywords);
  if (!result)
    return llvm::failure();
  if (result->kind != HostValue::Kind::List) {
    diag.error(pruner->getLoc(), "'" + info.earlyConfigPrune +
                                     "' must return a list of the "
                                     "configurations it keeps");
    return llvm::failure();
  }
  for (const HostValue &element : result->elements) {
    auto it = llvm::find_if(configs.elements, [&](const HostValue &config) {
      return element.kind == HostValue::Kind::Config &&
             element.config == config.config;
    });
    if (it == configs.elements.end()) {
      diag.error(pruner->getLoc(), "'" + info.earlyConfigPrune +
                                       "' must return configurations it was "
                                       "given");
      return llvm::failure();
    }
    kept.push_back(it - configs.elements.begin());
  }
  return kept;
}
