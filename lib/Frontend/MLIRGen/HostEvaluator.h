//===- HostEvaluator.h - the host Python that builds autotune configs -----===//
//
// The evaluator AutotuneConfigs.cpp (expressions, comprehensions,
// triton.Config) and HostCalls.cpp (calls, attributes, subscripts, function
// bodies, module-level bindings, the host facts a tutorial asks about)
// share. Internal to MLIRGen.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_FRONTEND_MLIRGEN_HOSTEVALUATOR_H
#define TILE_FRONTEND_MLIRGEN_HOSTEVALUATOR_H

#include "PyValue.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <type_traits>
#include <variant>

namespace tile::frontend::mlirgen {
/// A value of the host Python that builds configurations.
struct HostValue {
  enum class Kind {
    None,
    Int,
    Float,
    Bool,
    String,
    List,
    Dict,
    Config,
    Opaque
  };
  Kind kind = Kind::None;
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  std::vector<HostValue> elements;                     // List
  std::vector<std::pair<std::string, HostValue>> dict; // Dict
  std::shared_ptr<AutotuneConfig> config;              // Config

  static HostValue getInt(int64_t value) {
    HostValue v;
    v.kind = Kind::Int;
    v.i = value;
    return v;
  }
  static HostValue getBool(bool value) {
    HostValue v;
    v.kind = Kind::Bool;
    v.b = value;
    return v;
  }
  static HostValue getFloat(double value) {
    HostValue v;
    v.kind = Kind::Float;
    v.f = value;
    return v;
  }
  static HostValue getString(llvm::StringRef value) {
    HostValue v;
    v.kind = Kind::String;
    v.s = value.str();
    return v;
  }
  static HostValue
  getDict(std::vector<std::pair<std::string, HostValue>> entries = {}) {
    HostValue v;
    v.kind = Kind::Dict;
    v.dict = std::move(entries);
    return v;
  }
  /// A configuration's constexpr as a host value (toConstexpr's inverse).
  static HostValue fromConstexpr(const ConstexprValue &value) {
    return std::visit(
        [](const auto &x) -> HostValue {
          using T = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<T, int64_t>)
            return getInt(x);
          else if constexpr (std::is_same_v<T, double>)
            return getFloat(x);
          else if constexpr (std::is_same_v<T, bool>)
            return getBool(x);
          else
            return getString(x);
        },
        value);
  }
  /// The value as a constexpr of a configuration, if it is one.
  std::optional<ConstexprValue> toConstexpr() const {
    switch (kind) {
    case Kind::Int:
      return ConstexprValue(i);
    case Kind::Float:
      return ConstexprValue(f);
    case Kind::Bool:
      return ConstexprValue(b);
    case Kind::String:
      return ConstexprValue(s);
    default:
      return std::nullopt;
    }
  }
};

using Scope = llvm::StringMap<HostValue>;

class ConfigEvaluator {
public:
  /// `computeCapability` (90 for sm_90a) answers the host's questions
  /// about the GPU (torch.cuda.get_device_capability()).
  ConfigEvaluator(const ast::Module &module, const ImportAliases &aliases,
                  DiagEmitter &diag, unsigned computeCapability = 90)
      : module(module), aliases(aliases), diag(diag),
        computeCapability(computeCapability) {}

  std::optional<HostValue> eval(const ast::Expr &expr, const Scope &scope);
  /// eval, failing at `expr` where the value is a name whose value is
  /// unknown (checkKnown).
  std::optional<HostValue> evalKnown(const ast::Expr &expr,
                                     const Scope &scope) {
    std::optional<HostValue> value = eval(expr, scope);
    if (value && !checkKnown(expr, *value))
      return std::nullopt;
    return value;
  }
  /// A call's positional arguments; with `known`, each through evalKnown
  /// (a builtin needs their values; a function of the file may be handed a
  /// name it never looks at, such as a pre_hook).
  std::optional<std::vector<HostValue>>
  evalArgs(const ast::CallExpr &call, const Scope &scope, bool known);
  /// Fails at `expr` where `value` is a name whose value is unknown.
  bool checkKnown(const ast::Expr &expr, const HostValue &value) {
    if (value.kind != HostValue::Kind::Opaque)
      return true;
    fail(expr, "'" + value.s +
                   "' is not known where the autotuning configurations are "
                   "read (literals, parameters and comprehension variables "
                   "are)");
    return false;
  }

  /// Calls the module-level function `function` with `args` (positional)
  /// and `keywords`; a `**kwargs` parameter receives `keywords` as a dict.
  std::optional<HostValue>
  callFunction(const ast::FunctionDef &function, const ast::Expr &at,
               std::vector<HostValue> args,
               std::vector<std::pair<std::string, HostValue>> keywords);

private:
  std::optional<HostValue> fail(const ast::Expr &expr,
                                const llvm::Twine &message) {
    diag.error(ast::getStartLoc(expr), message);
    return std::nullopt;
  }
  std::optional<bool> truth(const ast::Expr &expr, const Scope &scope);
  std::optional<HostValue> evalListComp(const ast::ListCompExpr &comp,
                                        const Scope &scope);
  bool generate(const ast::ListCompExpr &comp, unsigned generator, Scope &scope,
                std::vector<HostValue> &out);
  bool bindTarget(const ast::Expr &target, const HostValue &value,
                  Scope &scope);
  std::optional<HostValue> evalCall(const ast::CallExpr &call,
                                    const Scope &scope);
  std::optional<HostValue> evalConfig(const ast::CallExpr &call,
                                      const Scope &scope);
  std::optional<HostValue> evalCompare(const ast::CompareExpr &compare,
                                       const Scope &scope);
  // HostCalls.cpp:
  std::optional<HostValue> evalAttribute(const ast::AttributeExpr &attribute,
                                         const Scope &scope);
  std::optional<HostValue> evalSubscript(const ast::SubscriptExpr &subscript,
                                         const Scope &scope);
  /// list(), filter(), dict(), dict.get() and what the host knows of the
  /// GPU; std::nullopt inside where `call` is none of them.
  std::optional<std::optional<HostValue>>
  evalBuiltinCall(const ast::CallExpr &call, const Scope &scope);
  /// Runs a function body: assignments to names, `if`, `return`. Returns
  /// false after a diagnostic; `returned` is set by a `return`.
  bool execute(const ast::StmtList &body, Scope &scope,
               std::optional<HostValue> &returned);
  /// The value expression the module binds `name` to last, following the
  /// `if` statements the module runs (their tests evaluated); null where
  /// none; `failed` after a diagnostic.
  const ast::Expr *findGlobalBinding(const ast::StmtList &body,
                                     llvm::StringRef name, bool &failed);

  const ast::Module &module;
  const ImportAliases &aliases;
  DiagEmitter &diag;
  unsigned computeCapability;
  unsigned callDepth = 0;
  /// The module-level names evaluated so far.
  Scope globals;
};

} // namespace tile::frontend::mlirgen

#endif // TILE_FRONTEND_MLIRGEN_HOSTEVALUATOR_H
