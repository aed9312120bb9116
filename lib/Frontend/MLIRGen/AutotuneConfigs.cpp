//===- AutotuneConfigs.cpp - @triton.autotune's configurations ------------===//
//
// Reads the configs= of @triton.autotune without running Python: a list of
// triton.Config calls written out, or the host Python that builds one as
// Triton's tutorials write it (tutorial 09's `matmul_get_configs()`, tutorial
// 06's `list(filter(keep, configs))`). This file evaluates expressions:
// literals, lists, tuples, dicts, names bound by comprehensions, parameters
// and module-level assignments, triton.Config, integer arithmetic,
// comparisons and `in`; HostCalls.cpp runs calls, attributes, subscripts
// and function bodies. Anything else is an error at the expression.
//
//===----------------------------------------------------------------------===//

#include "HostEvaluator.h"
#include "KernelEmitter.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace tile::frontend;
using namespace tile::frontend::mlirgen;

std::optional<HostValue> ConfigEvaluator::eval(const ast::Expr &expr,
                                               const Scope &scope) {
  switch (expr.getKind()) {
  case ast::Expr::Kind::Constant: {
    const auto &constant = cast<ast::ConstantExpr>(expr);
    if (constant.isInt() && !constant.isOversizedInt())
      return HostValue::getInt(constant.getInt());
    if (constant.isBool())
      return HostValue::getBool(constant.getBool());
    if (constant.isNone())
      return HostValue();
    if (constant.isFloat())
      return HostValue::getFloat(constant.getFloat());
    if (constant.isString() && !constant.isBytes())
      return HostValue::getString(constant.getString());
    return fail(expr, "this constant cannot be part of an autotuning "
                      "configuration");
  }
  case ast::Expr::Kind::Name: {
    llvm::StringRef name = cast<ast::NameExpr>(expr).getName();
    auto it = scope.find(name);
    if (it != scope.end())
      return it->second;
    // A module-level `name = value` (the last one the module runs, as
    // Python binds it), evaluated once however often a comprehension names
    // it.
    auto known = globals.find(name);
    if (known != globals.end())
      return known->second;
    // Finding the binding may evaluate `if` tests that name it again.
    if (++callDepth > 16) {
      --callDepth;
      return fail(expr, "names refer to each other too deeply here");
    }
    bool failed = false;
    const ast::Expr *global = findGlobalBinding(module.getBody(), name, failed);
    std::optional<HostValue> value;
    if (!failed && global)
      value = eval(*global, Scope());
    --callDepth;
    if (failed || (global && !value))
      return std::nullopt;
    if (global) {
      globals[name] = *value;
      return value;
    }
    // Anything else (a pre_hook function) is passed along and may go to a
    // triton.Config argument Tile does not use; using its value is an error.
    HostValue v;
    v.kind = HostValue::Kind::Opaque;
    v.s = name.str();
    return v;
  }
  case ast::Expr::Kind::List:
  case ast::Expr::Kind::Tuple: {
    const ast::ExprList &elements =
        isa<ast::ListExpr>(expr) ? cast<ast::ListExpr>(expr).getElements()
                                 : cast<ast::TupleExpr>(expr).getElements();
    HostValue list;
    list.kind = HostValue::Kind::List;
    for (const ast::ExprPtr &element : elements) {
      std::optional<HostValue> v = eval(*element, scope);
      if (!v)
        return std::nullopt;
      list.elements.push_back(std::move(*v));
    }
    return list;
  }
  case ast::Expr::Kind::Dict: {
    const auto &dict = cast<ast::DictExpr>(expr);
    HostValue v = HostValue::getDict();
    for (auto [key, value] : llvm::zip(dict.getKeys(), dict.getValues())) {
      std::optional<HostValue> k = evalKnown(*key, scope);
      if (!k)
        return std::nullopt;
      if (k->kind != HostValue::Kind::String)
        return fail(*key, "triton.Config keys must be parameter names "
                          "written as strings");
      std::optional<HostValue> x = evalKnown(*value, scope);
      if (!x)
        return std::nullopt;
      v.dict.push_back({k->s, std::move(*x)});
    }
    return v;
  }
  case ast::Expr::Kind::ListComp:
    return evalListComp(cast<ast::ListCompExpr>(expr), scope);
  case ast::Expr::Kind::Call:
    return evalCall(cast<ast::CallExpr>(expr), scope);
  case ast::Expr::Kind::Compare:
    return evalCompare(cast<ast::CompareExpr>(expr), scope);
  case ast::Expr::Kind::Attribute:
    return evalAttribute(cast<ast::AttributeExpr>(expr), scope);
  case ast::Expr::Kind::Subscript:
    return evalSubscript(cast<ast::SubscriptExpr>(expr), scope);
  case ast::Expr::Kind::UnaryOp: {
    const auto &unary = cast<ast::UnaryOpExpr>(expr);
    if (unary.getOp() == ast::UnaryOp::Not) {
      std::optional<bool> t = truth(unary.getOperand(), scope);
      if (!t)
        return std::nullopt;
      return HostValue::getBool(!*t);
    }
    std::optional<HostValue> v = evalKnown(unary.getOperand(), scope);
    if (!v)
      return std::nullopt;
    if (unary.getOp() == ast::UnaryOp::Minus &&
        v->kind == HostValue::Kind::Int && v->i != INT64_MIN)
      return HostValue::getInt(-v->i);
    if (unary.getOp() == ast::UnaryOp::Minus &&
        v->kind == HostValue::Kind::Float) {
      v->f = -v->f;
      return v;
    }
    if (unary.getOp() == ast::UnaryOp::Plus)
      return v;
    return fail(expr, "only integer and float negation is supported here");
  }
  case ast::Expr::Kind::BoolOp: {
    const auto &op = cast<ast::BoolOpExpr>(expr);
    bool isAnd = op.getOp() == ast::BoolOp::And;
    for (const ast::ExprPtr &value : op.getValues()) {
      std::optional<bool> t = truth(*value, scope);
      if (!t)
        return std::nullopt;
      if (*t != isAnd)
        return HostValue::getBool(!isAnd);
    }
    return HostValue::getBool(isAnd);
  }
  case ast::Expr::Kind::IfExp: {
    const auto &ifExp = cast<ast::IfExpExpr>(expr);
    std::optional<bool> t = truth(ifExp.getTest(), scope);
    if (!t)
      return std::nullopt;
    return eval(*t ? ifExp.getBody() : ifExp.getOrElse(), scope);
  }
  case ast::Expr::Kind::BinOp: {
    const auto &bin = cast<ast::BinOpExpr>(expr);
    std::optional<HostValue> lhs = evalKnown(bin.getLHS(), scope);
    if (!lhs)
      return std::nullopt;
    std::optional<HostValue> rhs = evalKnown(bin.getRHS(), scope);
    if (!rhs)
      return std::nullopt;
    if (bin.getOp() == ast::BinaryOp::Add &&
        lhs->kind == HostValue::Kind::List &&
        rhs->kind == HostValue::Kind::List) {
      llvm::append_range(lhs->elements, rhs->elements);
      return lhs;
    }
    if (lhs->kind != HostValue::Kind::Int || rhs->kind != HostValue::Kind::Int)
      return fail(expr, "only integer arithmetic and list concatenation are "
                        "supported where autotuning configurations are read");
    std::optional<int64_t> result;
    switch (bin.getOp()) {
    case ast::BinaryOp::Add:
      result = llvm::checkedAdd(lhs->i, rhs->i);
      break;
    case ast::BinaryOp::Sub:
      result = llvm::checkedSub(lhs->i, rhs->i);
      break;
    case ast::BinaryOp::Mul:
      result = llvm::checkedMul(lhs->i, rhs->i);
      break;
    case ast::BinaryOp::FloorDiv:
      if (rhs->i > 0)
        result =
            lhs->i >= 0 ? lhs->i / rhs->i : -((-lhs->i + rhs->i - 1) / rhs->i);
      break;
    default:
      break;
    }
    if (!result)
      return fail(expr, "this integer operation is not supported where "
                        "autotuning configurations are read (+, -, *, // by "
                        "a positive number, without overflow)");
    return HostValue::getInt(*result);
  }
  default:
    return fail(expr, "this expression is not supported where autotuning "
                      "configurations are read");
  }
}

std::optional<bool> ConfigEvaluator::truth(const ast::Expr &expr,
                                           const Scope &scope) {
  std::optional<HostValue> v = evalKnown(expr, scope);
  if (!v)
    return std::nullopt;
  switch (v->kind) {
  case HostValue::Kind::Bool:
    return v->b;
  case HostValue::Kind::Int:
    return v->i != 0;
  case HostValue::Kind::None:
    return false;
  case HostValue::Kind::List:
    return !v->elements.empty();
  default:
    fail(expr, "this value has no truth value here");
    return std::nullopt;
  }
}

namespace {
/// The most elements a comprehension may build here: far more than any
/// configuration list, far fewer than would exhaust memory or time.
constexpr size_t kMaxListElements = 1 << 16;

/// Python's == on the values configurations are made of (a bool is the
/// integer 0 or 1).
bool equals(const HostValue &a, const HostValue &b) {
  auto asInt = [](const HostValue &v) -> std::optional<int64_t> {
    if (v.kind == HostValue::Kind::Int)
      return v.i;
    if (v.kind == HostValue::Kind::Bool)
      return v.b;
    return std::nullopt;
  };
  if (asInt(a) && asInt(b))
    return *asInt(a) == *asInt(b);
  if (a.kind != b.kind)
    return false;
  switch (a.kind) {
  case HostValue::Kind::None:
    return true;
  case HostValue::Kind::Float:
    return a.f == b.f;
  case HostValue::Kind::String:
    return a.s == b.s;
  case HostValue::Kind::List:
    return a.elements.size() == b.elements.size() &&
           llvm::all_of(llvm::zip(a.elements, b.elements), [](auto pair) {
             return equals(std::get<0>(pair), std::get<1>(pair));
           });
  default:
    return false;
  }
}

} // namespace

std::optional<HostValue>
ConfigEvaluator::evalCompare(const ast::CompareExpr &compare,
                             const Scope &scope) {
  std::optional<HostValue> left = evalKnown(compare.getLeft(), scope);
  if (!left)
    return std::nullopt;
  for (auto [op, comparator] :
       llvm::zip(compare.getOps(), compare.getComparators())) {
    std::optional<HostValue> right = evalKnown(*comparator, scope);
    if (!right)
      return std::nullopt;
    bool holds;
    if (op == ast::CompareOp::Eq || op == ast::CompareOp::NotEq) {
      holds = equals(*left, *right) == (op == ast::CompareOp::Eq);
    } else if (op == ast::CompareOp::Is || op == ast::CompareOp::IsNot) {
      // Identity as CPython has it for these values: None, True and False
      // are singletons; a configuration is itself.
      holds = left->kind == right->kind &&
              (left->kind == HostValue::Kind::None ||
               (left->kind == HostValue::Kind::Bool && left->b == right->b) ||
               (left->kind == HostValue::Kind::Config &&
                left->config == right->config));
      holds = holds == (op == ast::CompareOp::Is);
    } else if (op == ast::CompareOp::In || op == ast::CompareOp::NotIn) {
      // A key of a dict (os.environ), an element of a list.
      if (right->kind == HostValue::Kind::Dict)
        holds = left->kind == HostValue::Kind::String &&
                llvm::any_of(right->dict, [&](const auto &entry) {
                  return entry.first == left->s;
                });
      else if (right->kind == HostValue::Kind::List)
        holds = llvm::any_of(right->elements, [&](const HostValue &element) {
          return equals(*left, element);
        });
      else
        return fail(compare, "'in' needs a list or a dict here");
      holds = holds == (op == ast::CompareOp::In);
    } else {
      if (left->kind != HostValue::Kind::Int ||
          right->kind != HostValue::Kind::Int)
        return fail(compare, "only ==, !=, is, in and integer comparisons "
                             "are supported where autotuning configurations "
                             "are read");
      switch (op) {
      case ast::CompareOp::Lt:
        holds = left->i < right->i;
        break;
      case ast::CompareOp::LtE:
        holds = left->i <= right->i;
        break;
      case ast::CompareOp::Gt:
        holds = left->i > right->i;
        break;
      case ast::CompareOp::GtE:
        holds = left->i >= right->i;
        break;
      default:
        return fail(compare, "only ==, !=, is, in and integer comparisons "
                             "are supported where autotuning configurations "
                             "are read");
      }
    }
    if (!holds)
      return HostValue::getBool(false);
    left = std::move(right);
  }
  return HostValue::getBool(true);
}

bool ConfigEvaluator::bindTarget(const ast::Expr &target,
                                 const HostValue &value, Scope &scope) {
  if (auto *name = dyn_cast<ast::NameExpr>(&target)) {
    scope[name->getName()] = value;
    return true;
  }
  const ast::ExprList *names = nullptr;
  if (auto *tuple = dyn_cast<ast::TupleExpr>(&target))
    names = &tuple->getElements();
  else if (auto *list = dyn_cast<ast::ListExpr>(&target))
    names = &list->getElements();
  if (!names) {
    fail(target, "a comprehension target must be a name or a tuple of names");
    return false;
  }
  if (value.kind != HostValue::Kind::List ||
      value.elements.size() != names->size()) {
    fail(target, "cannot unpack this value into " + llvm::Twine(names->size()) +
                     " names");
    return false;
  }
  for (auto [element, v] : llvm::zip(*names, value.elements))
    if (!bindTarget(*element, v, scope))
      return false;
  return true;
}

bool ConfigEvaluator::generate(const ast::ListCompExpr &comp,
                               unsigned generator, Scope &scope,
                               std::vector<HostValue> &out) {
  if (generator == comp.getGenerators().size()) {
    // Nested comprehensions multiply: bound what one may build.
    if (out.size() >= kMaxListElements) {
      fail(comp, "this comprehension builds more than " +
                     llvm::Twine(kMaxListElements) + " elements");
      return false;
    }
    std::optional<HostValue> element = eval(comp.getElement(), scope);
    if (!element)
      return false;
    out.push_back(std::move(*element));
    return true;
  }
  const ast::Comprehension &clause = comp.getGenerators()[generator];
  std::optional<HostValue> iter = evalKnown(*clause.iter, scope);
  if (!iter)
    return false;
  if (iter->kind != HostValue::Kind::List) {
    fail(*clause.iter, "a comprehension here must iterate over a list or "
                       "tuple");
    return false;
  }
  for (const HostValue &item : iter->elements) {
    if (!bindTarget(*clause.target, item, scope))
      return false;
    bool keep = true;
    for (const ast::ExprPtr &condition : clause.conditions) {
      std::optional<bool> t = truth(*condition, scope);
      if (!t)
        return false;
      keep = keep && *t;
    }
    if (keep && !generate(comp, generator + 1, scope, out))
      return false;
  }
  return true;
}

std::optional<HostValue>
ConfigEvaluator::evalListComp(const ast::ListCompExpr &comp,
                              const Scope &scope) {
  Scope inner = scope; // comprehension variables do not leak
  HostValue list;
  list.kind = HostValue::Kind::List;
  if (!generate(comp, 0, inner, list.elements))
    return std::nullopt;
  return list;
}

std::optional<HostValue> ConfigEvaluator::evalConfig(const ast::CallExpr &call,
                                                     const Scope &scope) {
  auto config = std::make_shared<AutotuneConfig>();
  config->loc = call.getLoc();
  const ast::Expr *kwargs =
      call.getArgs().empty() ? nullptr : call.getArgs().front().get();
  if (call.getArgs().size() > 1)
    return fail(*call.getArgs()[1],
                "triton.Config takes the parameter dict positionally and the "
                "rest by keyword (num_warps=, num_stages=, num_ctas=)");
  for (const ast::Keyword &keyword : call.getKeywords()) {
    if (keyword.name == "kwargs") {
      kwargs = keyword.value.get();
      continue;
    }
    int64_t *field = keyword.name == "num_warps"    ? &config->numWarps
                     : keyword.name == "num_stages" ? &config->numStages
                     : keyword.name == "num_ctas"   ? &config->numCtas
                                                    : nullptr;
    // maxnreg, pre_hook, ...: tuning details Tile does not use.
    if (!field)
      continue;
    std::optional<HostValue> value = evalKnown(*keyword.value, scope);
    if (!value)
      return std::nullopt;
    if (value->kind != HostValue::Kind::Int || value->i <= 0)
      return fail(*keyword.value, "triton.Config " + keyword.name +
                                      " must be a positive integer");
    *field = value->i;
  }
  if (!kwargs) {
    diag.error(call.getLoc(), "triton.Config needs a dict of parameter "
                              "values, e.g. {'BLOCK_SIZE': 128}");
    return std::nullopt;
  }
  std::optional<HostValue> dict = evalKnown(*kwargs, scope);
  if (!dict)
    return std::nullopt;
  if (dict->kind != HostValue::Kind::Dict)
    return fail(*kwargs, "triton.Config needs a dict of parameter values, "
                         "e.g. {'BLOCK_SIZE': 128}");
  for (auto &[name, value] : dict->dict) {
    std::optional<ConstexprValue> constexprValue = value.toConstexpr();
    if (!constexprValue)
      return fail(*kwargs, "the value of '" + name +
                               "' must be a number, bool or string");
    config->kwargs.push_back({name, std::move(*constexprValue)});
  }
  HostValue v;
  v.kind = HostValue::Kind::Config;
  v.config = std::move(config);
  return v;
}

std::optional<std::vector<AutotuneConfig>>
tile::frontend::mlirgen::evaluateAutotuneConfigs(const ast::Module &module,
                                                 const ast::Expr &configs,
                                                 const ImportAliases &aliases,
                                                 DiagEmitter &diag,
                                                 unsigned computeCapability) {
  ConfigEvaluator evaluator(module, aliases, diag, computeCapability);
  std::optional<HostValue> value = evaluator.evalKnown(configs, Scope());
  if (!value)
    return std::nullopt;
  if (value->kind != HostValue::Kind::List) {
    diag.error(ast::getStartLoc(configs),
               "@triton.autotune configs= must be a list of triton.Config");
    return std::nullopt;
  }
  std::vector<AutotuneConfig> result;
  for (const HostValue &element : value->elements) {
    if (element.kind != HostValue::Kind::Config) {
      diag.error(ast::getStartLoc(configs),
                 "@triton.autotune configs= must be a list of triton.Config; "
                 "an element is something else");
      return std::nullopt;
    }
    result.push_back(*element.config);
  }
  return result;
}
