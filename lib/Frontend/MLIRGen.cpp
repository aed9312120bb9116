//===- MLIRGen.cpp - Triton kernels to the tile dialect -------------------===//
//
// Walks the AST of one @triton.jit function and emits a func.func in the
// tile and arith dialects, following Triton's semantics: Python values known
// at compile time (literals, tl.constexpr parameters, constant globals) stay
// compile-time values and fold with each other, while everything else is an
// SSA value; scalars meet blocks through tile.splat, pointers advance
// through tile.addptr, and mixed operand types are promoted with Triton's
// rules. What the front end cannot lower yet is reported as "... is not
// supported yet" at the construct's location.
//
//===----------------------------------------------------------------------===//

#include "tile/Frontend/MLIRGen.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace tile::frontend;
using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

namespace arith = mlir::arith;

//===----------------------------------------------------------------------===//
// Module-level helpers: imports, decorators, kernels
//===----------------------------------------------------------------------===//

namespace {

using ImportAliases = llvm::StringMap<std::string>;

/// What each name bound by the module's imports refers to:
/// `import triton.language as tl` binds tl to "triton.language",
/// `import triton.language` binds triton to "triton",
/// `from triton import jit` binds jit to "triton.jit".
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

enum class DecoratorKind { Jit, Autotune, Heuristics, Other };

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

} // namespace

std::vector<std::string>
tile::frontend::getKernelNames(const ast::Module &module) {
  ImportAliases aliases = collectImportAliases(module);
  std::vector<std::string> names;
  for (const auto &function : module.getFunctions())
    if (isJitFunction(*function, aliases))
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
// Values and types
//===----------------------------------------------------------------------===//

namespace {

/// A Python value during lowering: an SSA value (a scalar or a block), or a
/// value known at compile time, as Triton's constexpr, which gets IR only
/// when it meets an SSA value.
struct PyValue {
  enum class Kind {
    Runtime,
    Int,
    Float,
    Bool,
    None,
    String,
    /// A module, function or other object reached through an import
    /// (`tl`, `tl.load`, `tl.float32`) or a Python builtin (`range`);
    /// `text` is the qualified name.
    Namespace,
    /// A function of this file; `text` is its name.
    Function,
    /// A Python tuple or list (shapes, multiple return values); `elements`.
    Tuple,
    /// A triton.language dtype (`tl.float32`); `type` and `isUnsigned`.
    DType,
    /// A method of a block (`x.to`, `x.reshape`): `text` is the
    /// triton.language function it calls, `elements[0]` the block.
    BoundMethod,
  };

  Kind kind = Kind::None;
  mlir::Value value;
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool boolValue = false;
  std::string text;
  std::vector<PyValue> elements;
  mlir::Type type;
  /// For runtime integers and dtypes: Triton's unsigned types (uint8 ..
  /// uint64) share MLIR's signless integer types, so the signedness that
  /// picks divui/remui/shrui/cmpi u* travels here. For pointers it
  /// describes the pointee.
  bool isUnsigned = false;

  static PyValue runtime(mlir::Value value, bool isUnsigned = false) {
    PyValue v;
    v.kind = Kind::Runtime;
    v.value = value;
    v.isUnsigned = isUnsigned;
    return v;
  }
  static PyValue integer(int64_t value) {
    PyValue v;
    v.kind = Kind::Int;
    v.intValue = value;
    return v;
  }
  static PyValue floating(double value) {
    PyValue v;
    v.kind = Kind::Float;
    v.floatValue = value;
    return v;
  }
  static PyValue boolean(bool value) {
    PyValue v;
    v.kind = Kind::Bool;
    v.boolValue = value;
    return v;
  }
  static PyValue none() { return PyValue(); }
  static PyValue string(std::string value) {
    PyValue v;
    v.kind = Kind::String;
    v.text = std::move(value);
    return v;
  }
  static PyValue named(Kind kind, std::string name) {
    PyValue v;
    v.kind = kind;
    v.text = std::move(name);
    return v;
  }
  static PyValue tuple(std::vector<PyValue> elements) {
    PyValue v;
    v.kind = Kind::Tuple;
    v.elements = std::move(elements);
    return v;
  }
  static PyValue dtype(mlir::Type type, bool isUnsigned = false) {
    PyValue v;
    v.kind = Kind::DType;
    v.type = type;
    v.isUnsigned = isUnsigned;
    return v;
  }
  static PyValue boundMethod(PyValue self, std::string function) {
    PyValue v;
    v.kind = Kind::BoundMethod;
    v.text = std::move(function);
    v.elements.push_back(std::move(self));
    return v;
  }

  bool isRuntime() const { return kind == Kind::Runtime; }
  /// Int, Float or Bool: a compile-time number.
  bool isNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  bool isConstexpr() const {
    if (kind == Kind::Tuple)
      return llvm::all_of(elements,
                          [](const PyValue &e) { return e.isConstexpr(); });
    return isNumber() || kind == Kind::None || kind == Kind::String ||
           kind == Kind::DType;
  }
};

mlir::Type getElementType(mlir::Value value) {
  return mlir::tile::getElementTypeOrSelf(value.getType());
}

bool isBlock(mlir::Value value) {
  return isa<mlir::RankedTensorType>(value.getType());
}

llvm::ArrayRef<int64_t> getShape(mlir::Value value) {
  if (auto tensor = dyn_cast<mlir::RankedTensorType>(value.getType()))
    return tensor.getShape();
  return {};
}

bool isPointer(mlir::Type type) { return isa<mlir::tile::PointerType>(type); }
bool isInteger(mlir::Type type) { return isa<mlir::IntegerType>(type); }
bool isFloat(mlir::Type type) { return isa<mlir::FloatType>(type); }
bool isBool(mlir::Type type) { return type.isInteger(1); }

/// Triton's name of a scalar type: i32, u8, fp16, bf16, *fp32.
std::string getTypeName(mlir::Type type, bool isUnsigned = false) {
  if (auto pointer = dyn_cast<mlir::tile::PointerType>(type))
    return "*" + getTypeName(pointer.getPointeeType(), isUnsigned);
  if (isUnsigned && isa<mlir::IntegerType>(type) && !type.isInteger(1))
    return "u" + std::to_string(type.getIntOrFloatBitWidth());
  if (type.isF16())
    return "fp16";
  if (type.isBF16())
    return "bf16";
  if (type.isF32())
    return "fp32";
  if (type.isF64())
    return "fp64";
  if (auto integer = dyn_cast<mlir::IntegerType>(type))
    return "i" + std::to_string(integer.getWidth());
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

std::string formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string text = "[";
  llvm::raw_string_ostream os(text);
  llvm::interleave(shape, os, ", ");
  return text + "]";
}

/// The type of a runtime value as messages show it: `i32`, `fp32[1024]`.
std::string describeType(mlir::Type type, bool isUnsigned = false) {
  if (auto tensor = dyn_cast<mlir::RankedTensorType>(type))
    return getTypeName(tensor.getElementType(), isUnsigned) +
           formatShape(tensor.getShape());
  return getTypeName(type, isUnsigned);
}

/// A value as messages show it.
std::string describe(const PyValue &value);
std::string describe(const PyValue &value) {
  switch (value.kind) {
  case PyValue::Kind::Runtime:
    return describeType(value.value.getType(), value.isUnsigned);
  case PyValue::Kind::Tuple: {
    std::string text = "tuple(";
    for (auto [index, element] : llvm::enumerate(value.elements))
      text += (index ? ", " : "") + describe(element);
    return text + ")";
  }
  case PyValue::Kind::DType:
    return "dtype " + getTypeName(value.type, value.isUnsigned);
  case PyValue::Kind::BoundMethod:
    return "method '" + llvm::StringRef(value.text).rsplit('.').second.str() +
           "'";
  case PyValue::Kind::Int:
    return "int";
  case PyValue::Kind::Float:
    return "float";
  case PyValue::Kind::Bool:
    return "bool";
  case PyValue::Kind::None:
    return "None";
  case PyValue::Kind::String:
    return "str";
  case PyValue::Kind::Namespace:
  case PyValue::Kind::Function:
    return "'" + value.text + "'";
  }
  return "value";
}

/// Python's truth value of a compile-time value.
bool isTruthy(const PyValue &value) {
  switch (value.kind) {
  case PyValue::Kind::Int:
    return value.intValue != 0;
  case PyValue::Kind::Float:
    return value.floatValue != 0.0;
  case PyValue::Kind::Bool:
    return value.boolValue;
  case PyValue::Kind::String:
    return !value.text.empty();
  case PyValue::Kind::None:
    return false;
  case PyValue::Kind::Tuple:
    return !value.elements.empty();
  default:
    return true;
  }
}

/// Whether `value` is representable in a signless integer of `width` bits
/// (i1 holds 0 and 1, as Triton's bool).
bool fitsInWidth(int64_t value, unsigned width) {
  if (width >= 64)
    return true;
  if (width == 1)
    return value == 0 || value == 1;
  return llvm::isIntN(width, value);
}

/// The kinds of Triton's scalar promotion, ordered.
enum class NumberKind { Bool = 0, Int = 1, Float = 2 };

NumberKind getNumberKind(mlir::Type type) {
  if (isFloat(type))
    return NumberKind::Float;
  return isBool(type) ? NumberKind::Bool : NumberKind::Int;
}

NumberKind getNumberKind(const PyValue &value) {
  if (value.kind == PyValue::Kind::Float)
    return NumberKind::Float;
  return value.kind == PyValue::Kind::Bool ? NumberKind::Bool : NumberKind::Int;
}

/// The builtin functions of Python a kernel might name; calling them is not
/// supported yet, but they are not undefined either.
bool isPythonBuiltin(llvm::StringRef name) {
  static const char *const builtins[] = {
      "abs",     "all",     "any", "bool",       "divmod", "enumerate", "float",
      "getattr", "hasattr", "int", "isinstance", "len",    "list",      "map",
      "max",     "min",     "pow", "print",      "range",  "reversed",  "round",
      "sorted",  "str",     "sum", "tuple",      "type",   "zip"};
  return llvm::is_contained(builtins, name);
}

/// One parameter of a builtin function, for binding call arguments.
struct BuiltinParam {
  llvm::StringLiteral name;
  bool required;
};

//===----------------------------------------------------------------------===//
// Compile-time arithmetic with Python semantics
//===----------------------------------------------------------------------===//

int64_t floorDivide(int64_t a, int64_t b) {
  int64_t quotient = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --quotient;
  return quotient;
}

int64_t floorModulo(int64_t a, int64_t b) {
  int64_t remainder = a % b;
  if (remainder != 0 && ((remainder < 0) != (b < 0)))
    remainder += b;
  return remainder;
}

double floorModulo(double a, double b) {
  double remainder = std::fmod(a, b);
  if (remainder != 0.0 && ((remainder < 0) != (b < 0)))
    remainder += b;
  return remainder;
}

/// Float to int64 truncating toward zero, saturating at the int64 range
/// (NaN becomes 0), so that no float converts with undefined behavior.
int64_t saturatingFloatToInt(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 9223372036854775807.0)
    return std::numeric_limits<int64_t>::max();
  if (value <= -9223372036854775808.0)
    return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(value);
}

//===----------------------------------------------------------------------===//
// KernelEmitter
//===----------------------------------------------------------------------===//

class KernelEmitter {
public:
  KernelEmitter(mlir::MLIRContext &context, const ast::Module &module,
                DiagEmitter &diag)
      : context(context), module(module), diag(diag), builder(&context),
        aliases(collectImportAliases(module)) {
    filename = builder.getStringAttr(module.getFilename());
    collectGlobalAssignments();
  }

  mlir::OwningOpRef<mlir::ModuleOp> emit(const ast::FunctionDef &kernel,
                                         const KernelSpecialization &spec);

private:
  using Result = std::optional<PyValue>;

  //===--------------------------------------------------------------------===//
  // Diagnostics and locations
  //===--------------------------------------------------------------------===//

  std::nullopt_t error(const ast::Location &loc, const llvm::Twine &message) {
    diag.error(loc, message);
    return std::nullopt;
  }
  mlir::LogicalResult fail(const ast::Location &loc,
                           const llvm::Twine &message) {
    diag.error(loc, message);
    return mlir::failure();
  }
  mlir::Location getLoc(const ast::Location &loc) {
    return mlir::FileLineColLoc::get(filename, loc.line, loc.col);
  }

  //===--------------------------------------------------------------------===//
  // The kernel's signature
  //===--------------------------------------------------------------------===//

  mlir::LogicalResult checkDecorators(const ast::FunctionDef &kernel);
  std::optional<mlir::Type> parseSpecType(llvm::StringRef type,
                                          const ast::Param &param);

  //===--------------------------------------------------------------------===//
  // Names
  //===--------------------------------------------------------------------===//

  void collectGlobalAssignments();
  void collectAssignedNames(const ast::StmtList &body);
  Result lookupName(const ast::NameExpr &name);
  Result evaluateGlobal(llvm::StringRef name, const ast::Location &useLoc);
  /// Evaluates a global's value or a parameter default, which Python
  /// evaluates at module level.
  Result evaluateInModuleScope(const ast::Expr &expr);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  mlir::LogicalResult emitBlock(llvm::ArrayRef<ast::StmtPtr> body);
  mlir::LogicalResult emitStmt(const ast::Stmt &stmt);
  mlir::LogicalResult emitAssign(const ast::AssignStmt &assign);
  mlir::LogicalResult bindTarget(const ast::Expr &target, const PyValue &value);
  mlir::LogicalResult emitIf(const ast::IfStmt &stmt);
  mlir::LogicalResult emitRuntimeIf(const ast::IfStmt &stmt,
                                    mlir::Value condition);
  /// An scf.if whose branches are the given statement sequences; variables
  /// both branches bind become its results.
  mlir::LogicalResult
  emitBranches(const ast::Location &loc, mlir::Value condition,
               llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> thenParts,
               llvm::ArrayRef<llvm::ArrayRef<ast::StmtPtr>> elseParts);
  /// `if cond: ...; return` followed by `rest`.
  mlir::LogicalResult emitIfWithEarlyReturn(const ast::IfStmt &stmt,
                                            llvm::ArrayRef<ast::StmtPtr> rest);
  mlir::LogicalResult emitFor(const ast::ForStmt &stmt);
  mlir::LogicalResult emitWhile(const ast::WhileStmt &stmt);
  /// The names a loop body assigns that already have values: Triton's
  /// loop-carried variables, with their values before the loop turned into
  /// IR (numbers take their default type). Fails on a variable whose value
  /// cannot be carried.
  mlir::LogicalResult
  collectCarried(const ast::StmtList &body, llvm::StringRef loopVariable,
                 const ast::Location &loc,
                 llvm::SmallVectorImpl<std::string> &names,
                 llvm::SmallVectorImpl<mlir::Value> &initial,
                 llvm::SmallVectorImpl<bool> &unsignedness);
  /// The current values of `names` for a yield, each converted to the
  /// carried type when it is a number; reports a type change.
  std::optional<llvm::SmallVector<mlir::Value>>
  yieldCarried(llvm::ArrayRef<std::string> names,
               llvm::ArrayRef<mlir::Value> initial, const ast::Location &loc,
               llvm::StringRef construct);
  /// A scalar i1 from the condition of an `if` or `while`.
  std::optional<mlir::Value> toCondition(const PyValue &value,
                                         const ast::Expr &expr,
                                         llvm::StringRef construct);
  /// Fails when a `return` ran inside a region (Tile cannot leave one).
  mlir::LogicalResult checkNoReturnInRegion(const ast::Location &loc,
                                            llvm::StringRef construct);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Result emitExpr(const ast::Expr &expr);
  Result emitConstant(const ast::ConstantExpr &constant);
  Result emitAttribute(const ast::AttributeExpr &attribute);
  Result emitCall(const ast::CallExpr &call);
  Result emitSubscript(const ast::SubscriptExpr &subscript);
  Result emitSequence(const ast::ExprList &elements);
  Result emitRuntimeIfExp(const ast::IfExpExpr &ifExp, mlir::Value condition);
  /// Inlines the @triton.jit helper `function` with bound arguments.
  Result callFunction(const ast::FunctionDef &function,
                      llvm::ArrayRef<PyValue> args,
                      llvm::ArrayRef<std::pair<std::string, PyValue>> keywords,
                      const ast::Location &loc);
  Result emitFunctionCall(const ast::CallExpr &call,
                          const ast::FunctionDef &function);
  Result emitPythonBuiltin(const ast::CallExpr &call, llvm::StringRef name);
  Result emitLanguageCall(const ast::CallExpr &call, llvm::StringRef name,
                          llvm::StringRef displayName,
                          const PyValue *self = nullptr);
  Result emitUnary(const ast::UnaryOpExpr &unary);
  Result emitBoolOp(const ast::BoolOpExpr &boolOp);
  Result emitCompare(const ast::CompareExpr &compare);
  Result emitBinary(ast::BinaryOp op, const PyValue &lhs, const PyValue &rhs,
                    const ast::Location &loc);
  Result foldBinary(ast::BinaryOp op, const PyValue &lhs, const PyValue &rhs,
                    const ast::Location &loc);
  Result foldCompare(ast::CompareOp op, const PyValue &lhs, const PyValue &rhs,
                     const ast::Location &loc);
  Result emitPointerArithmetic(ast::BinaryOp op, const PyValue &lhs,
                               const PyValue &rhs, const ast::Location &loc);
  Result emitRuntimeCompare(ast::CompareOp op, const PyValue &lhs,
                            const PyValue &rhs, const ast::Location &loc);
  std::nullopt_t unsupportedOperands(llvm::StringRef op, const PyValue &lhs,
                                     const PyValue &rhs,
                                     const ast::Location &loc);

  //===--------------------------------------------------------------------===//
  // Builtins
  //===--------------------------------------------------------------------===//

  /// Python's matching of a call's arguments to `params`: `numPositional`
  /// positional ones fill the first slots, each keyword its slot, through
  /// `bindKeyword(slot, keyword)` (false: it reported an error). Reports
  /// too many positional arguments, unknown or repeated keywords and
  /// missing required arguments as Python words them.
  bool matchParams(
      const ast::CallExpr &call, llvm::StringRef displayName,
      llvm::ArrayRef<BuiltinParam> params, size_t numPositional,
      llvm::function_ref<bool(size_t, const ast::Keyword &)> bindKeyword);
  std::optional<llvm::SmallVector<const ast::Expr *>>
  bindArguments(const ast::CallExpr &call, llvm::StringRef displayName,
                llvm::ArrayRef<BuiltinParam> params);
  /// Binds and evaluates the arguments of a triton.language call; `self`
  /// (a method's block) comes first. Absent optional arguments are None and
  /// flagged in `present`. `variadicFrom` lets the positional arguments from
  /// that index on form one tuple (`reshape(x, 2, 4)`).
  struct CallArgs {
    llvm::SmallVector<PyValue> values;
    llvm::SmallVector<bool> present;
    llvm::SmallVector<ast::Location> locs;
  };
  std::optional<CallArgs> evaluateArguments(const ast::CallExpr &call,
                                            llvm::StringRef displayName,
                                            llvm::ArrayRef<BuiltinParam> params,
                                            const PyValue *self,
                                            int variadicFrom = -1);
  std::optional<int64_t> evaluateAxis(const ast::Expr &expr,
                                      llvm::StringRef displayName);
  Result emitProgramIdLike(const ast::CallExpr &call,
                           llvm::StringRef displayName, bool numPrograms);
  Result emitArange(const ast::CallExpr &call, llvm::StringRef displayName);
  /// The common shape of a memory op's block operands (scalars broadcast to
  /// it), and which operand set it.
  struct OperandShape {
    bool asBlock = false;
    llvm::SmallVector<int64_t> shape;
    const char *owner = nullptr;
  };
  /// Folds `operand` into `common`; reports a shape that disagrees.
  bool unifyOperandShape(OperandShape &common,
                         const std::optional<PyValue> &operand,
                         const char *name, const ast::Expr *argExpr,
                         llvm::StringRef displayName);
  /// `ptr` splatted to the common shape when the other operands are blocks.
  mlir::Value broadcastPointer(mlir::Value ptr, const OperandShape &common,
                               mlir::Location loc) {
    return common.asBlock ? broadcastTo(ptr, common.shape, loc) : ptr;
  }
  Result emitLoad(const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitStore(const ast::CallExpr &call, llvm::StringRef displayName);
  struct MemoryHints {
    mlir::tile::CacheModifier cache = mlir::tile::CacheModifier::none;
    mlir::tile::EvictionPolicy evict = mlir::tile::EvictionPolicy::normal;
    bool isVolatile = false;
  };
  mlir::LogicalResult checkMemoryHints(
      llvm::ArrayRef<const ast::Expr *> args,
      llvm::ArrayRef<BuiltinParam> params, llvm::StringRef displayName,
      llvm::ArrayRef<llvm::StringRef> cacheModifiers, MemoryHints &hints);
  bool requireIR(const ast::Location &loc, llvm::StringRef what);

  //===--------------------------------------------------------------------===//
  // IR helpers
  //===--------------------------------------------------------------------===//

  /// The operand type for a compile-time number used alone: Triton's i32 (or
  /// i64 when it does not fit), fp32, or i1.
  mlir::Type getDefaultType(const PyValue &value);
  std::optional<mlir::Type>
  getComputationType(ast::BinaryOp op, const PyValue &lhs, const PyValue &rhs);
  mlir::Type promoteTypes(mlir::Type a, mlir::Type b, bool divOrMod);
  /// An arith.constant holding `value` as `elementType`, splatted to `shape`
  /// when `asBlock`.
  mlir::Value materialize(const PyValue &value, mlir::Type elementType,
                          bool asBlock, llvm::ArrayRef<int64_t> shape,
                          mlir::Location loc);
  mlir::Value convertElementType(mlir::Value value, mlir::Type elementType,
                                 mlir::Location loc);
  mlir::Value splatTo(mlir::Value scalar, llvm::ArrayRef<int64_t> shape,
                      mlir::Location loc);
  /// `value` (runtime or compile-time) as an operand of `elementType`,
  /// broadcast to `shape` when `asBlock`.
  mlir::Value prepareOperand(const PyValue &value, mlir::Type elementType,
                             bool asBlock, llvm::ArrayRef<int64_t> shape,
                             mlir::Location loc);
  mlir::Value zeroLike(mlir::Type type, mlir::Location loc);

  //===--------------------------------------------------------------------===//
  // Blocks: shapes, broadcasting, types
  //===--------------------------------------------------------------------===//

  /// Triton's broadcasting of two shapes (ranks aligned on the right, 1
  /// stretches); std::nullopt when they are incompatible.
  static std::optional<llvm::SmallVector<int64_t>>
  broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);
  /// `value` (scalar or block) expanded and broadcast to `shape`, which must
  /// be compatible.
  mlir::Value broadcastTo(mlir::Value value, llvm::ArrayRef<int64_t> shape,
                          mlir::Location loc);
  /// The common shape of several operands (compile-time values have none);
  /// reports incompatible shapes naming `what`.
  std::optional<std::pair<bool, llvm::SmallVector<int64_t>>>
  commonShape(llvm::ArrayRef<const PyValue *> operands, llvm::StringRef what,
              const ast::Location &loc);
  /// `value` converted to `elementType` (Triton's tl.cast), keeping its
  /// shape; signedness picks ext/trunc and int/float conversions.
  mlir::Value castValue(mlir::Value value, bool fromUnsigned,
                        mlir::Type elementType, bool toUnsigned,
                        mlir::Location loc);
  /// A runtime value of `value`: numbers become constants of their default
  /// type.
  std::optional<PyValue> toRuntime(const PyValue &value,
                                   const ast::Location &loc);
  /// A compile-time integer or a tuple/list of them (a shape).
  std::optional<llvm::SmallVector<int64_t>>
  toShape(const PyValue &value, const ast::Location &loc,
          llvm::StringRef displayName);
  mlir::Value makeFull(llvm::ArrayRef<int64_t> shape, mlir::Type elementType,
                       const PyValue &value, mlir::Location loc);
  /// Reduces `operands` along `axis` with a combine region built by
  /// `combine` from the 2N scalar arguments.
  using CombineBuilder =
      llvm::function_ref<std::optional<llvm::SmallVector<mlir::Value>>(
          llvm::ArrayRef<mlir::Value>)>;
  std::optional<llvm::SmallVector<mlir::Value>>
  buildReduce(llvm::ArrayRef<mlir::Value> operands, int64_t axis,
              CombineBuilder combine, mlir::Location loc);
  std::optional<llvm::SmallVector<mlir::Value>>
  buildScan(llvm::ArrayRef<mlir::Value> operands, int64_t axis, bool reverse,
            CombineBuilder combine, mlir::Location loc);
  /// A combine function given by the user (a @triton.jit helper), inlined.
  std::optional<llvm::SmallVector<mlir::Value>>
  inlineCombine(const PyValue &function, llvm::ArrayRef<mlir::Value> args,
                llvm::ArrayRef<bool> unsignedness, const ast::Location &loc);
  Result emitReduction(llvm::StringRef name, const CallArgs &args,
                       const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitScan(llvm::StringRef name, const CallArgs &args,
                  const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitMath(llvm::StringRef name, const CallArgs &args,
                  const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitShapeOp(llvm::StringRef name, const CallArgs &args,
                     const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitAtomic(llvm::StringRef name, const CallArgs &args,
                    const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitDot(const CallArgs &args, const ast::CallExpr &call,
                 llvm::StringRef displayName);
  Result emitMinMax(bool isMax, const PyValue &lhs, const PyValue &rhs,
                    bool propagateNan, const ast::Location &loc);
  Result emitWhere(const PyValue &condition, const PyValue &x, const PyValue &y,
                   const ast::Location &loc);
  Result emitCast(const PyValue &value, const PyValue &dtype, bool bitcast,
                  const ast::Location &loc, llvm::StringRef displayName);

  mlir::MLIRContext &context;
  const ast::Module &module;
  DiagEmitter &diag;
  mlir::OpBuilder builder;
  mlir::StringAttr filename;
  ImportAliases aliases;

  /// Module-level `NAME = value` statements, evaluated on first use.
  llvm::StringMap<const ast::Expr *> globalDefinitions;
  llvm::StringSet<> globalsAssignedTwice;
  llvm::StringMap<PyValue> globalValues;
  llvm::StringSet<> globalsBeingEvaluated;

  /// Names bound in the kernel (Python scoping: one scope per function).
  llvm::StringMap<PyValue> locals;
  /// Every name the kernel assigns anywhere: these are local for the whole
  /// function, as in Python.
  llvm::StringSet<> assignedNames;
  /// Set once `return` has run; the rest of the body is dead.
  bool returned = false;
  ast::Location returnLoc;
  PyValue returnValue;
  /// Nonzero while inside an scf region (where `return` cannot be lowered).
  unsigned regionDepth = 0;
  /// How many statement blocks of the current function are being emitted
  /// (1: the function's own body).
  unsigned blockNesting = 0;
  /// The helpers being inlined, innermost last (recursion is an error).
  llvm::SmallVector<const ast::FunctionDef *> callStack;
};

} // namespace

//===----------------------------------------------------------------------===//
// The kernel's signature
//===----------------------------------------------------------------------===//

mlir::LogicalResult
KernelEmitter::checkDecorators(const ast::FunctionDef &kernel) {
  for (const ast::ExprPtr &decorator : kernel.getDecorators()) {
    // @triton.autotune and @triton.heuristics choose constexpr values; the
    // specialization already carries them.
    if (classifyDecorator(*decorator, aliases) == DecoratorKind::Other)
      return fail(decorator->getLoc(),
                  "unsupported decorator on kernel '" + kernel.getName() +
                      "'; kernels accept @triton.jit, @triton.autotune and "
                      "@triton.heuristics");
  }
  return mlir::success();
}

std::optional<mlir::Type>
KernelEmitter::parseSpecType(llvm::StringRef type, const ast::Param &param) {
  bool isPointerType = type.consume_front("*");
  mlir::Type scalar = llvm::StringSwitch<mlir::Type>(type)
                          .Cases({"i1", "u1", "B"}, builder.getI1Type())
                          .Cases({"i8", "u8"}, builder.getIntegerType(8))
                          .Cases({"i16", "u16"}, builder.getIntegerType(16))
                          .Cases({"i32", "u32"}, builder.getI32Type())
                          .Cases({"i64", "u64"}, builder.getI64Type())
                          .Cases({"fp16", "f16"}, builder.getF16Type())
                          .Case("bf16", builder.getBF16Type())
                          .Cases({"fp32", "f32"}, builder.getF32Type())
                          .Cases({"fp64", "f64"}, builder.getF64Type())
                          .Default(mlir::Type());
  if (!scalar) {
    diag.error(param.loc, llvm::Twine("unknown type '") +
                              (isPointerType ? "*" : "") + type +
                              "' for parameter '" + param.name +
                              "' in the specialization; expected e.g. "
                              "'*fp32', 'i32', 'fp32' or 'constexpr'");
    return std::nullopt;
  }
  if (isPointerType)
    return mlir::tile::PointerType::get(&context, scalar);
  return scalar;
}

mlir::OwningOpRef<mlir::ModuleOp>
KernelEmitter::emit(const ast::FunctionDef &kernel,
                    const KernelSpecialization &spec) {
  if (mlir::failed(checkDecorators(kernel)))
    return nullptr;

  // Match the specialization to the parameters by name.
  llvm::StringMap<const ParamSpec *> specByName;
  for (const ParamSpec &paramSpec : spec.params) {
    if (!specByName.insert({paramSpec.name, &paramSpec}).second) {
      diag.error("the specialization of '" + kernel.getName() +
                 "' gives parameter '" + paramSpec.name + "' twice");
      return nullptr;
    }
    if (!llvm::any_of(kernel.getParams(), [&](const ast::Param &param) {
          return param.name == paramSpec.name;
        })) {
      diag.error(kernel.getLoc(), "the specialization names '" +
                                      paramSpec.name +
                                      "', which is not a parameter of '" +
                                      kernel.getName() + "'");
      return nullptr;
    }
  }

  struct Argument {
    const ast::Param *param;
    mlir::Type type;
    bool divisibleBy16;
    bool isUnsigned;
  };
  llvm::SmallVector<Argument> arguments;
  for (const ast::Param &param : kernel.getParams()) {
    bool annotatedConstexpr =
        isConstexprAnnotation(param.annotation.get(), aliases);
    const ParamSpec *paramSpec = specByName.lookup(param.name);
    if (!paramSpec) {
      if (!annotatedConstexpr) {
        diag.error(param.loc, "the specialization gives no type for "
                              "parameter '" +
                                  param.name + "'");
        return nullptr;
      }
      if (!param.defaultValue) {
        diag.error(param.loc, "no value for constexpr parameter '" +
                                  param.name +
                                  "', which has no default either");
        return nullptr;
      }
      Result value = evaluateInModuleScope(*param.defaultValue);
      if (!value)
        return nullptr;
      locals[param.name] = *value;
      continue;
    }

    if (paramSpec->type == "constexpr") {
      PyValue value;
      if (auto *i = std::get_if<int64_t>(&paramSpec->value)) {
        value = PyValue::integer(*i);
      } else if (auto *d = std::get_if<double>(&paramSpec->value)) {
        value = PyValue::floating(*d);
      } else if (auto *b = std::get_if<bool>(&paramSpec->value)) {
        value = PyValue::boolean(*b);
      } else if (auto *s = std::get_if<std::string>(&paramSpec->value)) {
        value = PyValue::string(*s);
      } else if (param.defaultValue) {
        Result defaultValue = evaluateInModuleScope(*param.defaultValue);
        if (!defaultValue)
          return nullptr;
        value = *defaultValue;
      } else {
        diag.error(param.loc, "the specialization gives no value for "
                              "constexpr parameter '" +
                                  param.name + "'");
        return nullptr;
      }
      locals[param.name] = value;
      continue;
    }

    if (annotatedConstexpr) {
      diag.error(param.loc, "parameter '" + param.name +
                                "' is tl.constexpr, but the specialization "
                                "gives it type '" +
                                paramSpec->type + "'");
      return nullptr;
    }
    std::optional<mlir::Type> type = parseSpecType(paramSpec->type, param);
    if (!type)
      return nullptr;
    bool isUnsignedType =
        llvm::StringRef(paramSpec->type).ltrim('*').starts_with("u");
    if (paramSpec->equalsOne) {
      // Triton turns integer arguments equal to 1 into the constant 1.
      if (!isInteger(*type)) {
        diag.error(param.loc, "parameter '" + param.name + "' of type '" +
                                  paramSpec->type +
                                  "' cannot be specialized as equal to 1; "
                                  "only integers can");
        return nullptr;
      }
      locals[param.name] = PyValue::integer(1);
      continue;
    }
    bool divisible = paramSpec->divisibleBy16 &&
                     (isPointer(*type) || (isInteger(*type) && !isBool(*type)));
    arguments.push_back({&param, *type, divisible, isUnsignedType});
  }

  // The function and its entry block.
  mlir::Location kernelLoc = getLoc(kernel.getLoc());
  mlir::OwningOpRef<mlir::ModuleOp> moduleOp = mlir::ModuleOp::create(
      mlir::FileLineColLoc::get(filename, /*line=*/1, /*column=*/1));
  builder.setInsertionPointToEnd(moduleOp->getBody());
  llvm::SmallVector<mlir::Type> argumentTypes;
  for (const Argument &argument : arguments)
    argumentTypes.push_back(argument.type);
  auto function = mlir::func::FuncOp::create(
      builder, kernelLoc, kernel.getName(),
      builder.getFunctionType(argumentTypes, /*results=*/{}));
  mlir::Block *entry = function.addEntryBlock();
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    mlir::BlockArgument blockArgument = entry->getArgument(index);
    blockArgument.setLoc(getLoc(argument.param->loc));
    if (argument.divisibleBy16)
      function.setArgAttr(index, mlir::tile::kDivisibilityAttr,
                          builder.getI32IntegerAttr(16));
    locals[argument.param->name] =
        PyValue::runtime(blockArgument, argument.isUnsigned);
  }
  builder.setInsertionPointToStart(entry);

  for (const ast::Param &param : kernel.getParams())
    assignedNames.insert(param.name);
  collectAssignedNames(kernel.getBody());

  if (mlir::failed(emitBlock(kernel.getBody())))
    return nullptr;
  mlir::func::ReturnOp::create(builder,
                               returned ? getLoc(returnLoc) : kernelLoc);

  // Verification failures are bugs of this front end, but report them at
  // the user's line like any other error.
  unsigned bufferId = module.getBufferId();
  bool verified;
  {
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
      SourceLocation at;
      if (auto fileLoc =
              d.getLocation()->findInstanceOf<mlir::FileLineColLoc>())
        at = diag.getLocation(bufferId, fileLoc.getLine(), fileLoc.getColumn());
      llvm::SourceMgr::DiagKind kind =
          d.getSeverity() == mlir::DiagnosticSeverity::Error
              ? llvm::SourceMgr::DK_Error
          : d.getSeverity() == mlir::DiagnosticSeverity::Warning
              ? llvm::SourceMgr::DK_Warning
              : llvm::SourceMgr::DK_Note;
      diag.emit(at.ptr, kind,
                "internal error: the generated IR is invalid: " + d.str());
      return mlir::success();
    });
    verified = mlir::succeeded(mlir::verify(*moduleOp));
  }
  if (!verified)
    return nullptr;
  return moduleOp;
}

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

/// Every name `body` assigns, nested blocks included, in first-assignment
/// order (so that loop-carried values come out in source order).
void collectAssigned(const ast::StmtList &body, llvm::StringSet<> &names,
                     std::vector<std::string> *ordered = nullptr) {
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
} // namespace

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

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

namespace {
bool endsWithBareReturn(const ast::StmtList &body);
} // namespace

mlir::LogicalResult
KernelEmitter::emitBlock(llvm::ArrayRef<ast::StmtPtr> body) {
  ++blockNesting;
  llvm::scope_exit leave([&] { --blockNesting; });
  for (auto [index, stmt] : llvm::enumerate(body)) {
    if (returned)
      break;
    // `if cond: return` in a function's own body ends it early at run time:
    // the rest of the body becomes the else branch. (Deeper, the rest of the
    // function would not be inside that branch, so it is left to the
    // 'return inside a region' error.)
    auto *ifStmt = dyn_cast<ast::IfStmt>(stmt.get());
    if (ifStmt && blockNesting == 1 && regionDepth == 0 &&
        endsWithBareReturn(ifStmt->getBody()))
      return emitIfWithEarlyReturn(*ifStmt, body.drop_front(index + 1));
    if (mlir::failed(emitStmt(*stmt)))
      return mlir::failure();
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
    if (a.text != b.text || a.elements.size() != b.elements.size())
      return false;
    for (auto [x, y] : llvm::zip(a.elements, b.elements))
      if (!isSameValue(x, y))
        return false;
    return true;
  default:
    return a.text == b.text;
  }
}

/// `if cond: ... return` (a bare return ending the branch).
bool endsWithBareReturn(const ast::StmtList &body) {
  if (body.empty())
    return false;
  auto *ret = dyn_cast<ast::ReturnStmt>(body.back().get());
  if (!ret)
    return false;
  auto *constant = llvm::dyn_cast_or_null<ast::ConstantExpr>(ret->getValue());
  return !ret->getValue() || (constant && constant->isNone());
}
} // namespace

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

mlir::LogicalResult
KernelEmitter::emitIfWithEarlyReturn(const ast::IfStmt &stmt,
                                     llvm::ArrayRef<ast::StmtPtr> rest) {
  Result test = emitExpr(stmt.getTest());
  if (!test)
    return mlir::failure();
  if (!test->isRuntime()) {
    if (mlir::failed(
            emitBlock(isTruthy(*test) ? stmt.getBody() : stmt.getOrElse())))
      return mlir::failure();
    return returned ? mlir::success() : emitBlock(rest);
  }
  std::optional<mlir::Value> condition =
      toCondition(*test, stmt.getTest(), "'if'");
  if (!condition)
    return mlir::failure();
  // `if c: A; return` followed by B is `if c: A else: B`: the rest of the
  // block moves into the else branch, so no early exit is needed.
  llvm::ArrayRef<ast::StmtPtr> body = stmt.getBody();
  llvm::ArrayRef<ast::StmtPtr> thenParts[] = {body.drop_back()};
  llvm::ArrayRef<ast::StmtPtr> elseParts[] = {stmt.getOrElse(), rest};
  return emitBranches(stmt.getLoc(), *condition, thenParts, elseParts);
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
  if (!bounds[2].isRuntime() && bounds[2].intValue <= 0)
    return fail(boundLocs[2], displayName + "() step must be positive, got " +
                                  llvm::Twine(bounds[2].intValue));

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
    for (int64_t i = start; i < end; i += step) {
      locals[variable] = PyValue::integer(i);
      if (mlir::failed(emitBlock(stmt.getBody())))
        return mlir::failure();
      if (returned)
        return checkNoReturnInRegion(returnLoc, "tl.static_range()");
    }
    return mlir::success();
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
  locals[variable] = PyValue::runtime(forOp.getInductionVar());
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
    if (isConstexprAnnotation(param.annotation.get(), aliases) &&
        bound[index]->isRuntime())
      return error(loc, "argument '" + param.name + "' of " + name +
                            "() is tl.constexpr but got a runtime value (" +
                            describe(*bound[index]) + ")");
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

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::emitExpr(const ast::Expr &expr) {
  switch (expr.getKind()) {
  case ast::Expr::Kind::Name:
    return lookupName(cast<ast::NameExpr>(expr));
  case ast::Expr::Kind::Constant:
    return emitConstant(cast<ast::ConstantExpr>(expr));
  case ast::Expr::Kind::Attribute:
    return emitAttribute(cast<ast::AttributeExpr>(expr));
  case ast::Expr::Kind::Call:
    return emitCall(cast<ast::CallExpr>(expr));
  case ast::Expr::Kind::BinOp: {
    const auto &binary = cast<ast::BinOpExpr>(expr);
    Result lhs = emitExpr(binary.getLHS());
    if (!lhs)
      return std::nullopt;
    Result rhs = emitExpr(binary.getRHS());
    if (!rhs)
      return std::nullopt;
    return emitBinary(binary.getOp(), *lhs, *rhs, binary.getLoc());
  }
  case ast::Expr::Kind::UnaryOp:
    return emitUnary(cast<ast::UnaryOpExpr>(expr));
  case ast::Expr::Kind::BoolOp:
    return emitBoolOp(cast<ast::BoolOpExpr>(expr));
  case ast::Expr::Kind::Compare:
    return emitCompare(cast<ast::CompareExpr>(expr));
  case ast::Expr::Kind::IfExp: {
    const auto &ifExp = cast<ast::IfExpExpr>(expr);
    Result test = emitExpr(ifExp.getTest());
    if (!test)
      return std::nullopt;
    if (!test->isRuntime())
      return emitExpr(isTruthy(*test) ? ifExp.getBody() : ifExp.getOrElse());
    std::optional<mlir::Value> condition =
        toCondition(*test, ifExp.getTest(), "a conditional expression");
    if (!condition)
      return std::nullopt;
    return emitRuntimeIfExp(ifExp, *condition);
  }
  case ast::Expr::Kind::Subscript:
    return emitSubscript(cast<ast::SubscriptExpr>(expr));
  case ast::Expr::Kind::Slice:
    return error(expr.getLoc(), "a slice can only appear inside '[...]'");
  case ast::Expr::Kind::Tuple:
    return emitSequence(cast<ast::TupleExpr>(expr).getElements());
  case ast::Expr::Kind::List:
    return emitSequence(cast<ast::ListExpr>(expr).getElements());
  case ast::Expr::Kind::Dict:
    return error(expr.getLoc(), "dicts are not supported yet");
  case ast::Expr::Kind::ListComp:
    return error(expr.getLoc(), "list comprehensions are not supported yet");
  }
  return error(expr.getLoc(), "this expression is not supported yet");
}

KernelEmitter::Result
KernelEmitter::emitConstant(const ast::ConstantExpr &constant) {
  switch (constant.getValueKind()) {
  case ast::ConstantExpr::ValueKind::Int:
    return PyValue::integer(constant.getInt());
  case ast::ConstantExpr::ValueKind::Float:
    return PyValue::floating(constant.getFloat());
  case ast::ConstantExpr::ValueKind::Bool:
    return PyValue::boolean(constant.getBool());
  case ast::ConstantExpr::ValueKind::None:
    return PyValue::none();
  case ast::ConstantExpr::ValueKind::String:
    if (constant.isBytes())
      return error(constant.getLoc(), "bytes literals are not supported yet");
    return PyValue::string(constant.getString().str());
  case ast::ConstantExpr::ValueKind::Ellipsis:
    return error(constant.getLoc(), "'...' is not supported yet");
  }
  return std::nullopt;
}

namespace {
/// triton.language's dtypes by name, with their MLIR type and signedness.
std::optional<std::pair<mlir::Type, bool>>
lookupDType(mlir::MLIRContext &context, llvm::StringRef name) {
  mlir::Builder b(&context);
  using Entry = std::pair<mlir::Type, bool>;
  return llvm::StringSwitch<std::optional<Entry>>(name)
      .Case("int1", Entry{b.getI1Type(), false})
      .Case("int8", Entry{b.getIntegerType(8), false})
      .Case("int16", Entry{b.getIntegerType(16), false})
      .Case("int32", Entry{b.getI32Type(), false})
      .Case("int64", Entry{b.getI64Type(), false})
      .Case("uint8", Entry{b.getIntegerType(8), true})
      .Case("uint16", Entry{b.getIntegerType(16), true})
      .Case("uint32", Entry{b.getI32Type(), true})
      .Case("uint64", Entry{b.getI64Type(), true})
      .Case("float16", Entry{b.getF16Type(), false})
      .Case("bfloat16", Entry{b.getBF16Type(), false})
      .Case("float32", Entry{b.getF32Type(), false})
      .Case("float64", Entry{b.getF64Type(), false})
      .Case("float8e4nv", Entry{b.getType<mlir::Float8E4M3FNType>(), false})
      .Case("float8e5", Entry{b.getType<mlir::Float8E5M2Type>(), false})
      .Default(std::nullopt);
}

constexpr const char *kDTypeNames =
    "tl.int1, tl.int8, tl.int16, tl.int32, tl.int64, tl.uint8, tl.uint16, "
    "tl.uint32, tl.uint64, tl.float16, tl.bfloat16, tl.float32, tl.float64, "
    "tl.float8e4nv, tl.float8e5";

/// Methods of triton.language's tensor (`x.to(...)`, `x.sum(axis=0)`), each
/// the triton.language function of the same name with `x` first.
bool isBlockMethod(llvm::StringRef name) {
  static const char *const methods[] = {"to",
                                        "reshape",
                                        "view",
                                        "trans",
                                        "permute",
                                        "broadcast_to",
                                        "expand_dims",
                                        "split",
                                        "ravel",
                                        "sum",
                                        "max",
                                        "min",
                                        "argmax",
                                        "argmin",
                                        "xor_sum",
                                        "reduce",
                                        "cumsum",
                                        "cumprod",
                                        "associative_scan",
                                        "exp",
                                        "exp2",
                                        "log",
                                        "log2",
                                        "sqrt",
                                        "rsqrt",
                                        "abs",
                                        "sin",
                                        "cos",
                                        "erf",
                                        "floor",
                                        "ceil",
                                        "sigmoid",
                                        "softmax",
                                        "cast",
                                        "join",
                                        "flip",
                                        "sort",
                                        "histogram",
                                        "cdiv",
                                        "sqrt_rn",
                                        "fma",
                                        "logical_and",
                                        "logical_or"};
  return llvm::is_contained(methods, name);
}
} // namespace

KernelEmitter::Result
KernelEmitter::emitAttribute(const ast::AttributeExpr &attribute) {
  Result base = emitExpr(attribute.getValue());
  if (!base)
    return std::nullopt;
  llvm::StringRef attr = attribute.getAttr();
  if (base->kind == PyValue::Kind::Namespace) {
    std::string qualified = base->text + "." + attr.str();
    llvm::StringRef module = base->text;
    if (module == "triton.language" || module == "triton.language.core") {
      if (auto dtype = lookupDType(context, attr))
        return PyValue::dtype(dtype->first, dtype->second);
      // Triton's spellings of the same dtypes.
      if (attr == "bool")
        return PyValue::dtype(builder.getI1Type());
    }
    return PyValue::named(PyValue::Kind::Namespace, qualified);
  }
  if (base->isRuntime()) {
    mlir::Value value = base->value;
    if (attr == "shape") {
      std::vector<PyValue> dims;
      for (int64_t dim : getShape(value))
        dims.push_back(PyValue::integer(dim));
      return PyValue::tuple(std::move(dims));
    }
    if (attr == "dtype")
      return PyValue::dtype(getElementType(value), base->isUnsigned);
    if (attr == "numel") {
      int64_t count = 1;
      for (int64_t dim : getShape(value))
        count *= dim;
      return PyValue::integer(count);
    }
    if (attr == "T") {
      if (getShape(value).size() != 2)
        return error(attribute.getAttrLoc(),
                     "'.T' needs a 2-D block, got " + describe(*base));
      mlir::Location loc = getLoc(attribute.getAttrLoc());
      llvm::SmallVector<int64_t> shape = {getShape(value)[1],
                                          getShape(value)[0]};
      auto type = mlir::RankedTensorType::get(shape, getElementType(value));
      return PyValue::runtime(
          mlir::tile::TransOp::create(builder, loc, type, value,
                                      builder.getDenseI32ArrayAttr({1, 0})),
          base->isUnsigned);
    }
    if (isBlockMethod(attr))
      return PyValue::boundMethod(*base, ("triton.language." + attr).str());
    return error(attribute.getAttrLoc(),
                 "a block has no attribute '" + attr +
                     "'; blocks have .shape, .dtype, .T, .to(), .reshape(), "
                     ".trans(), .sum() and the other tl functions as "
                     "methods");
  }
  if (base->kind == PyValue::Kind::DType) {
    mlir::Type type = base->type;
    if (attr == "primitive_bitwidth" && type.isIntOrFloat())
      return PyValue::integer(type.getIntOrFloatBitWidth());
    if (attr == "element_ty")
      if (auto pointer = dyn_cast<mlir::tile::PointerType>(type))
        return PyValue::dtype(pointer.getPointeeType(), base->isUnsigned);
    if (attr.starts_with("is_"))
      return PyValue::boundMethod(*base, ("dtype." + attr).str());
  }
  if (base->kind == PyValue::Kind::Int && attr == "value")
    return base; // tl.constexpr's .value
  return error(attribute.getAttrLoc(), "attribute '" + attr + "' of " +
                                           describe(*base) +
                                           " is not supported");
}

KernelEmitter::Result
KernelEmitter::emitSequence(const ast::ExprList &elements) {
  std::vector<PyValue> values;
  for (const ast::ExprPtr &element : elements) {
    Result value = emitExpr(*element);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  return PyValue::tuple(std::move(values));
}

KernelEmitter::Result
KernelEmitter::emitSubscript(const ast::SubscriptExpr &subscript) {
  Result base = emitExpr(subscript.getValue());
  if (!base)
    return std::nullopt;
  const ast::Expr &indexExpr = subscript.getIndex();
  if (base->kind == PyValue::Kind::Tuple) {
    Result index = emitExpr(indexExpr);
    if (!index)
      return std::nullopt;
    if (index->kind != PyValue::Kind::Int)
      return error(indexExpr.getLoc(),
                   "a tuple index must be a compile-time integer, got " +
                       describe(*index));
    int64_t size = base->elements.size();
    int64_t position =
        index->intValue < 0 ? index->intValue + size : index->intValue;
    if (position < 0 || position >= size)
      return error(indexExpr.getLoc(),
                   "tuple index " + llvm::Twine(index->intValue) +
                       " out of range for a tuple of " + llvm::Twine(size));
    return base->elements[position];
  }
  if (!base->isRuntime() || !isBlock(base->value))
    return error(subscript.getLoc(), describe(*base) +
                                         " cannot be indexed; blocks take "
                                         "'x[:, None]' and 'x[None, :]'");
  // Triton's block indexing: None inserts a dimension of size 1, ':' keeps
  // one.
  llvm::SmallVector<const ast::Expr *> indices;
  if (auto *tuple = dyn_cast<ast::TupleExpr>(&indexExpr))
    for (const ast::ExprPtr &element : tuple->getElements())
      indices.push_back(element.get());
  else
    indices.push_back(&indexExpr);
  mlir::Value value = base->value;
  mlir::Location loc = getLoc(subscript.getLoc());
  size_t rank = getShape(value).size(), kept = 0;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    if (auto *slice = dyn_cast<ast::SliceExpr>(index)) {
      if (slice->getLower() || slice->getUpper() || slice->getStep())
        return error(index->getLoc(), "blocks cannot be sliced with bounds; "
                                      "only ':' and None are allowed");
      if (++kept > rank)
        return error(index->getLoc(), "too many ':' for a block of shape " +
                                          formatShape(getShape(base->value)));
      continue;
    }
    auto *constant = dyn_cast<ast::ConstantExpr>(index);
    if (!constant || !constant->isNone())
      return error(index->getLoc(),
                   "blocks are indexed only with None and ':' (as in "
                   "'x[:, None]'); integer indices and gathers are not "
                   "supported");
    llvm::SmallVector<int64_t> shape(getShape(value));
    shape.insert(shape.begin() + dim, 1);
    auto type = mlir::RankedTensorType::get(shape, getElementType(value));
    value = mlir::tile::ExpandDimsOp::create(builder, loc, type, value,
                                             builder.getI32IntegerAttr(dim));
  }
  return PyValue::runtime(value, base->isUnsigned);
}

KernelEmitter::Result
KernelEmitter::emitRuntimeIfExp(const ast::IfExpExpr &ifExp,
                                mlir::Value condition) {
  // Both arms are emitted in the branches of an scf.if yielding the value,
  // as Triton does.
  mlir::Location loc = getLoc(ifExp.getLoc());
  auto ifOp = mlir::scf::IfOp::create(builder, loc, mlir::TypeRange(),
                                      condition, /*withElseRegion=*/true);
  mlir::Value values[2];
  bool isUnsigned = false;
  ++regionDepth;
  llvm::scope_exit done([&] { --regionDepth; });
  for (int branch = 0; branch < 2; ++branch) {
    mlir::Block *block = branch == 0 ? ifOp.thenBlock() : ifOp.elseBlock();
    builder.setInsertionPoint(block->getTerminator());
    const ast::Expr &arm = branch == 0 ? ifExp.getBody() : ifExp.getOrElse();
    Result value = emitExpr(arm);
    if (!value)
      return std::nullopt;
    std::optional<PyValue> runtimeValue = toRuntime(*value, arm.getLoc());
    if (!runtimeValue)
      return std::nullopt;
    values[branch] = runtimeValue->value;
    isUnsigned |= runtimeValue->isUnsigned;
  }
  if (values[0].getType() != values[1].getType())
    return error(ifExp.getLoc(),
                 "the two arms of a conditional expression have types " +
                     describeType(values[0].getType()) + " and " +
                     describeType(values[1].getType()) +
                     "; they must have the same type");
  builder.setInsertionPoint(ifOp);
  auto newIf = mlir::scf::IfOp::create(builder, loc, values[0].getType(),
                                       condition, false, false);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  for (int branch = 0; branch < 2; ++branch) {
    mlir::Block *block = branch == 0 ? newIf.thenBlock() : newIf.elseBlock();
    mlir::Operation *terminator = block->getTerminator();
    builder.setInsertionPoint(terminator);
    mlir::scf::YieldOp::create(builder, loc, values[branch]);
    terminator->erase();
  }
  ifOp.erase();
  builder.setInsertionPointAfter(newIf);
  return PyValue::runtime(newIf.getResult(0), isUnsigned);
}

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

KernelEmitter::Result KernelEmitter::emitProgramIdLike(
    const ast::CallExpr &call, llvm::StringRef displayName, bool numPrograms) {
  static const BuiltinParam params[] = {{"axis", true}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  std::optional<int64_t> axis = evaluateAxis(*(*args)[0], displayName);
  if (!axis || !requireIR(call.getLoc(), displayName))
    return std::nullopt;
  mlir::Location loc = getLoc(call.getLoc());
  auto axisAttr = builder.getI32IntegerAttr(*axis);
  if (numPrograms)
    return PyValue::runtime(mlir::tile::NumProgramsOp::create(
        builder, loc, builder.getI32Type(), axisAttr));
  return PyValue::runtime(mlir::tile::ProgramIdOp::create(
      builder, loc, builder.getI32Type(), axisAttr));
}

KernelEmitter::Result KernelEmitter::emitArange(const ast::CallExpr &call,
                                                llvm::StringRef displayName) {
  static const BuiltinParam params[] = {{"start", true}, {"end", true}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  int64_t bounds[2];
  for (int i = 0; i < 2; ++i) {
    Result bound = emitExpr(*(*args)[i]);
    if (!bound)
      return std::nullopt;
    if (bound->kind != PyValue::Kind::Int)
      return error((*args)[i]->getLoc(),
                   displayName + "() '" + params[i].name +
                       "' must be a constexpr integer, got " +
                       describe(*bound));
    bounds[i] = bound->intValue;
  }
  auto [start, end] = bounds;
  std::string range =
      (displayName + "(" + llvm::Twine(start) + ", " + llvm::Twine(end) + ")")
          .str();
  if (!llvm::isInt<32>(start) || !llvm::isInt<32>(end))
    return error(call.getLoc(), range + ": the bounds must fit in int32");
  if (end <= start)
    return error(call.getLoc(), range + ": 'end' must be greater than 'start'");
  int64_t length = end - start;
  if (!llvm::isPowerOf2_64(length))
    return error(call.getLoc(), range + ": the length " + llvm::Twine(length) +
                                    " (end - start) must be a power of two");
  // Triton's limit on the number of elements of a block.
  constexpr int64_t kMaxBlockElements = 1 << 20;
  if (length > kMaxBlockElements)
    return error(call.getLoc(), range + ": " + llvm::Twine(length) +
                                    " elements exceed the largest block of " +
                                    llvm::Twine(kMaxBlockElements));
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;
  auto type = mlir::RankedTensorType::get({length}, builder.getI32Type());
  return PyValue::runtime(mlir::tile::MakeRangeOp::create(
      builder, getLoc(call.getLoc()), type, builder.getI32IntegerAttr(start),
      builder.getI32IntegerAttr(end)));
}

mlir::LogicalResult KernelEmitter::checkMemoryHints(
    llvm::ArrayRef<const ast::Expr *> args, llvm::ArrayRef<BuiltinParam> params,
    llvm::StringRef displayName, llvm::ArrayRef<llvm::StringRef> cacheModifiers,
    MemoryHints &hints) {
  for (auto [arg, param] : llvm::zip(args, params)) {
    if (!arg)
      continue;
    llvm::StringRef name = param.name;
    if (name == "boundary_check") {
      // Only `()` (the default) or None; anything else needs block pointers.
      bool isEmpty = false;
      if (auto *tuple = dyn_cast<ast::TupleExpr>(arg))
        isEmpty = tuple->getElements().empty();
      else if (auto *list = dyn_cast<ast::ListExpr>(arg))
        isEmpty = list->getElements().empty();
      else if (auto *constant = dyn_cast<ast::ConstantExpr>(arg))
        isEmpty = constant->isNone();
      if (!isEmpty)
        return fail(arg->getLoc(), displayName +
                                       "() 'boundary_check' applies to block "
                                       "pointers, which are not supported "
                                       "yet");
      continue;
    }
    if (name != "padding_option" && name != "cache_modifier" &&
        name != "eviction_policy" && name != "volatile")
      continue;
    Result value = emitExpr(*arg);
    if (!value)
      return mlir::failure();
    if (name == "volatile") {
      if (value->kind != PyValue::Kind::Bool)
        return fail(arg->getLoc(), displayName +
                                       "() 'volatile' must be a constant "
                                       "bool, got " +
                                       describe(*value));
      hints.isVolatile = value->boolValue;
      continue;
    }
    if (value->kind == PyValue::Kind::None)
      continue;
    if (value->kind != PyValue::Kind::String)
      return fail(arg->getLoc(), displayName + "() '" + name +
                                     "' must be a constant string, got " +
                                     describe(*value));
    llvm::StringRef text = value->text;
    if (name == "padding_option") {
      if (!text.empty())
        return fail(arg->getLoc(), displayName +
                                       "() 'padding_option' applies to block "
                                       "pointers, which are not supported "
                                       "yet");
      continue;
    }
    llvm::ArrayRef<llvm::StringRef> allowed = cacheModifiers;
    static const llvm::StringRef evictionPolicies[] = {"", "evict_first",
                                                       "evict_last"};
    if (name == "eviction_policy")
      allowed = evictionPolicies;
    if (name == "eviction_policy" && !text.empty())
      hints.evict = *mlir::tile::symbolizeEvictionPolicy(text);
    if (name == "cache_modifier" && text.size() > 1 &&
        llvm::is_contained(allowed, text))
      hints.cache = *mlir::tile::symbolizeCacheModifier(text.drop_front());
    if (!llvm::is_contained(allowed, text)) {
      std::string choices;
      for (llvm::StringRef choice : allowed)
        choices += (choices.empty() ? "'" : ", '") + choice.str() + "'";
      return fail(arg->getLoc(), displayName + "() '" + name +
                                     "' must be one of " + choices + "; got '" +
                                     text + "'");
    }
  }
  return mlir::success();
}

bool KernelEmitter::unifyOperandShape(OperandShape &common,
                                      const std::optional<PyValue> &operand,
                                      const char *name,
                                      const ast::Expr *argExpr,
                                      llvm::StringRef displayName) {
  if (!operand || !operand->isRuntime() || !isBlock(operand->value))
    return true;
  llvm::ArrayRef<int64_t> operandShape = getShape(operand->value);
  if (!common.asBlock) {
    common.asBlock = true;
    common.shape.assign(operandShape.begin(), operandShape.end());
    common.owner = name;
    return true;
  }
  if (auto merged = broadcastShapes(common.shape, operandShape)) {
    common.shape = std::move(*merged);
    return true;
  }
  diag.error(ast::getStartLoc(*argExpr),
             displayName + "(): '" + name + "' has shape " +
                 formatShape(operandShape) + " but '" + common.owner +
                 "' has shape " + formatShape(common.shape));
  return false;
}

KernelEmitter::Result KernelEmitter::emitLoad(const ast::CallExpr &call,
                                              llvm::StringRef displayName) {
  static const BuiltinParam params[] = {
      {"pointer", true},          {"mask", false},
      {"other", false},           {"boundary_check", false},
      {"padding_option", false},  {"cache_modifier", false},
      {"eviction_policy", false}, {"volatile", false}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  static const llvm::StringRef cacheModifiers[] = {"", ".ca", ".cg", ".cv"};
  MemoryHints hints;
  if (mlir::failed(
          checkMemoryHints(*args, params, displayName, cacheModifiers, hints)))
    return std::nullopt;

  const ast::Expr &pointerExpr = *(*args)[0];
  Result pointer = emitExpr(pointerExpr);
  if (!pointer)
    return std::nullopt;
  if (!pointer->isRuntime() || !isPointer(getElementType(pointer->value)))
    return error(pointerExpr.getLoc(),
                 displayName +
                     "() 'pointer' must be a pointer or a block of "
                     "pointers, got " +
                     describe(*pointer));

  std::optional<PyValue> mask, other;
  if (const ast::Expr *maskExpr = (*args)[1]) {
    mask = emitExpr(*maskExpr);
    if (!mask)
      return std::nullopt;
    if (mask->kind == PyValue::Kind::None)
      mask.reset();
    else if (!(mask->kind == PyValue::Kind::Bool ||
               (mask->isRuntime() && isBool(getElementType(mask->value)))))
      return error(maskExpr->getLoc(),
                   displayName +
                       "() 'mask' must be a boolean (i1) block or "
                       "scalar, got " +
                       describe(*mask));
  }
  if (const ast::Expr *otherExpr = (*args)[2]) {
    other = emitExpr(*otherExpr);
    if (!other)
      return std::nullopt;
    if (other->kind == PyValue::Kind::None)
      other.reset();
    else if (!other->isNumber() &&
             !(other->isRuntime() && !isPointer(getElementType(other->value))))
      return error(otherExpr->getLoc(),
                   displayName +
                       "() 'other' must be a number or a block of "
                       "numbers, got " +
                       describe(*other));
    if (other && !mask)
      return error(otherExpr->getLoc(),
                   displayName + "() 'other' requires a 'mask'");
  }
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;

  // The result takes the shape of the block operands, which must agree;
  // scalar operands are broadcast to it.
  OperandShape common;
  if (!unifyOperandShape(common, pointer, "pointer", (*args)[0], displayName) ||
      !unifyOperandShape(common, mask, "mask", (*args)[1], displayName) ||
      !unifyOperandShape(common, other, "other", (*args)[2], displayName))
    return std::nullopt;
  bool asBlock = common.asBlock;
  llvm::ArrayRef<int64_t> shape = common.shape;

  mlir::Location loc = getLoc(call.getLoc());
  mlir::Value ptr = broadcastPointer(pointer->value, common, loc);
  mlir::Type pointee =
      cast<mlir::tile::PointerType>(getElementType(ptr)).getPointeeType();
  mlir::Value maskValue, otherValue;
  if (mask)
    maskValue = prepareOperand(*mask, builder.getI1Type(), asBlock, shape, loc);
  if (other)
    otherValue = prepareOperand(*other, pointee, asBlock, shape, loc);
  mlir::Type resultType = mlir::tile::getPointeeShapedType(ptr.getType());
  return PyValue::runtime(mlir::tile::LoadOp::create(builder, loc, resultType,
                                                     ptr, maskValue, otherValue,
                                                     hints.cache, hints.evict,
                                                     hints.isVolatile),
                          pointer->isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitStore(const ast::CallExpr &call,
                                               llvm::StringRef displayName) {
  static const BuiltinParam params[] = {
      {"pointer", true},         {"value", true},
      {"mask", false},           {"boundary_check", false},
      {"cache_modifier", false}, {"eviction_policy", false}};
  auto args = bindArguments(call, displayName, params);
  if (!args)
    return std::nullopt;
  static const llvm::StringRef cacheModifiers[] = {"", ".wb", ".cg", ".cs",
                                                   ".wt"};
  MemoryHints hints;
  if (mlir::failed(
          checkMemoryHints(*args, params, displayName, cacheModifiers, hints)))
    return std::nullopt;

  const ast::Expr &pointerExpr = *(*args)[0];
  Result pointer = emitExpr(pointerExpr);
  if (!pointer)
    return std::nullopt;
  if (!pointer->isRuntime() || !isPointer(getElementType(pointer->value)))
    return error(pointerExpr.getLoc(),
                 displayName +
                     "() 'pointer' must be a pointer or a block of "
                     "pointers, got " +
                     describe(*pointer));
  const ast::Expr &valueExpr = *(*args)[1];
  std::optional<PyValue> value = emitExpr(valueExpr);
  if (!value)
    return std::nullopt;
  if (!value->isNumber() &&
      !(value->isRuntime() && !isPointer(getElementType(value->value))))
    return error(valueExpr.getLoc(), displayName +
                                         "() 'value' must be a number or a "
                                         "block of numbers, got " +
                                         describe(*value));
  std::optional<PyValue> mask;
  if (const ast::Expr *maskExpr = (*args)[2]) {
    mask = emitExpr(*maskExpr);
    if (!mask)
      return std::nullopt;
    if (mask->kind == PyValue::Kind::None)
      mask.reset();
    else if (!(mask->kind == PyValue::Kind::Bool ||
               (mask->isRuntime() && isBool(getElementType(mask->value)))))
      return error(maskExpr->getLoc(),
                   displayName +
                       "() 'mask' must be a boolean (i1) block or "
                       "scalar, got " +
                       describe(*mask));
  }
  if (!requireIR(call.getLoc(), displayName))
    return std::nullopt;

  OperandShape common;
  if (!unifyOperandShape(common, pointer, "pointer", (*args)[0], displayName) ||
      !unifyOperandShape(common, value, "value", (*args)[1], displayName) ||
      !unifyOperandShape(common, mask, "mask", (*args)[2], displayName))
    return std::nullopt;
  bool asBlock = common.asBlock;
  llvm::ArrayRef<int64_t> shape = common.shape;

  mlir::Location loc = getLoc(call.getLoc());
  mlir::Value ptr = broadcastPointer(pointer->value, common, loc);
  mlir::Type pointee =
      cast<mlir::tile::PointerType>(getElementType(ptr)).getPointeeType();
  // Triton stores the value converted to the pointee type.
  mlir::Value storedValue =
      prepareOperand(*value, pointee, asBlock, shape, loc);
  mlir::Value maskValue;
  if (mask)
    maskValue = prepareOperand(*mask, builder.getI1Type(), asBlock, shape, loc);
  mlir::tile::StoreOp::create(builder, loc, ptr, storedValue, maskValue,
                              hints.cache, hints.evict);
  return PyValue::none();
}

//===----------------------------------------------------------------------===//
// Blocks: shapes, broadcasting, conversions
//===----------------------------------------------------------------------===//

std::optional<llvm::SmallVector<int64_t>>
KernelEmitter::broadcastShapes(llvm::ArrayRef<int64_t> a,
                               llvm::ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  llvm::SmallVector<int64_t> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da == db || db == 1)
      result[i] = da;
    else if (da == 1)
      result[i] = db;
    else
      return std::nullopt;
  }
  return result;
}

mlir::Value KernelEmitter::broadcastTo(mlir::Value value,
                                       llvm::ArrayRef<int64_t> shape,
                                       mlir::Location loc) {
  if (!isBlock(value))
    return shape.empty() ? value : splatTo(value, shape, loc);
  mlir::Type elementType = getElementType(value);
  // Lower ranks gain leading dimensions of size 1, as in Triton.
  while (getShape(value).size() < shape.size()) {
    llvm::SmallVector<int64_t> expanded(getShape(value));
    expanded.insert(expanded.begin(), 1);
    value = mlir::tile::ExpandDimsOp::create(
        builder, loc, mlir::RankedTensorType::get(expanded, elementType), value,
        builder.getI32IntegerAttr(0));
  }
  if (getShape(value) == shape)
    return value;
  return mlir::tile::BroadcastOp::create(
      builder, loc, mlir::RankedTensorType::get(shape, elementType), value);
}

std::optional<std::pair<bool, llvm::SmallVector<int64_t>>>
KernelEmitter::commonShape(llvm::ArrayRef<const PyValue *> operands,
                           llvm::StringRef what, const ast::Location &loc) {
  bool asBlock = false;
  llvm::SmallVector<int64_t> shape;
  for (const PyValue *operand : operands) {
    if (!operand || !operand->isRuntime() || !isBlock(operand->value))
      continue;
    llvm::ArrayRef<int64_t> operandShape = getShape(operand->value);
    if (!asBlock) {
      asBlock = true;
      shape.assign(operandShape.begin(), operandShape.end());
      continue;
    }
    auto merged = broadcastShapes(shape, operandShape);
    if (!merged) {
      diag.error(loc, "incompatible shapes " + formatShape(shape) + " and " +
                          formatShape(operandShape) + " for " + what +
                          " (dimensions must be equal or 1)");
      return std::nullopt;
    }
    shape = std::move(*merged);
  }
  return std::make_pair(asBlock, shape);
}

mlir::Value KernelEmitter::castValue(mlir::Value value, bool fromUnsigned,
                                     mlir::Type elementType, bool toUnsigned,
                                     mlir::Location loc) {
  mlir::Type source = getElementType(value);
  if (source == elementType)
    return value;
  mlir::Type resultType =
      mlir::tile::withElementType(value.getType(), elementType);
  if (isPointer(source) || isPointer(elementType)) {
    if (isPointer(source) && isPointer(elementType))
      return mlir::tile::PtrCastOp::create(builder, loc, resultType, value);
    if (isPointer(source)) {
      mlir::Value asInt = mlir::tile::PtrToIntOp::create(
          builder, loc,
          mlir::tile::withElementType(value.getType(), builder.getI64Type()),
          value);
      return castValue(asInt, false, elementType, toUnsigned, loc);
    }
    mlir::Value wide =
        castValue(value, fromUnsigned, builder.getI64Type(), false, loc);
    return mlir::tile::IntToPtrOp::create(builder, loc, resultType, wide);
  }
  unsigned sourceWidth = source.getIntOrFloatBitWidth();
  unsigned targetWidth = elementType.getIntOrFloatBitWidth();

  if (isInteger(source) && isInteger(elementType)) {
    if (isBool(elementType)) // Triton's cast to bool is x != 0.
      return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                   value, zeroLike(value.getType(), loc));
    if (sourceWidth < targetWidth)
      return isBool(source) || fromUnsigned
                 ? mlir::Value(
                       arith::ExtUIOp::create(builder, loc, resultType, value))
                 : mlir::Value(
                       arith::ExtSIOp::create(builder, loc, resultType, value));
    return arith::TruncIOp::create(builder, loc, resultType, value);
  }
  if (isInteger(source)) // integer -> float
    return isBool(source) || fromUnsigned
               ? mlir::Value(
                     arith::UIToFPOp::create(builder, loc, resultType, value))
               : mlir::Value(
                     arith::SIToFPOp::create(builder, loc, resultType, value));
  if (isInteger(elementType)) { // float -> integer
    if (isBool(elementType))
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE,
                                   value, zeroLike(value.getType(), loc));
    if (toUnsigned)
      return arith::FPToUIOp::create(builder, loc, resultType, value);
    return arith::FPToSIOp::create(builder, loc, resultType, value);
  }
  if (sourceWidth == targetWidth || sourceWidth < 16 || targetWidth < 16) {
    // fp16 <-> bf16 and fp8 go through fp32.
    if (!source.isF32() && !elementType.isF32()) {
      mlir::Type wide =
          mlir::tile::withElementType(value.getType(), builder.getF32Type());
      mlir::Value widened =
          sourceWidth < 32
              ? mlir::Value(arith::ExtFOp::create(builder, loc, wide, value))
              : mlir::Value(arith::TruncFOp::create(builder, loc, wide, value));
      return castValue(widened, false, elementType, toUnsigned, loc);
    }
  }
  if (sourceWidth < targetWidth)
    return arith::ExtFOp::create(builder, loc, resultType, value);
  return arith::TruncFOp::create(builder, loc, resultType, value);
}

std::optional<PyValue> KernelEmitter::toRuntime(const PyValue &value,
                                                const ast::Location &loc) {
  if (value.isRuntime())
    return value;
  if (!value.isNumber()) {
    diag.error(loc, "expected a number or a block, got " + describe(value));
    return std::nullopt;
  }
  if (!requireIR(loc, "this"))
    return std::nullopt;
  return PyValue::runtime(
      materialize(value, getDefaultType(value), false, {}, getLoc(loc)));
}

std::optional<llvm::SmallVector<int64_t>>
KernelEmitter::toShape(const PyValue &value, const ast::Location &loc,
                       llvm::StringRef displayName) {
  llvm::SmallVector<int64_t> shape;
  auto addDim = [&](const PyValue &dim) {
    if (dim.kind != PyValue::Kind::Int) {
      diag.error(loc, displayName +
                          "() shape dimensions must be compile-time "
                          "integers, got " +
                          describe(dim));
      return false;
    }
    shape.push_back(dim.intValue);
    return true;
  };
  if (value.kind == PyValue::Kind::Tuple) {
    for (const PyValue &dim : value.elements)
      if (!addDim(dim))
        return std::nullopt;
  } else if (!addDim(value)) {
    return std::nullopt;
  }
  // Triton's block shape rules.
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim <= 0 || !llvm::isPowerOf2_64(dim)) {
      diag.error(loc, displayName + "() shape " + formatShape(shape) +
                          ": every dimension must be a power of two, got " +
                          llvm::Twine(dim));
      return std::nullopt;
    }
    count *= dim;
    if (count > (1 << 20)) {
      diag.error(loc, displayName + "() shape " + formatShape(shape) +
                          " has more than 1048576 elements");
      return std::nullopt;
    }
  }
  return shape;
}

mlir::Value KernelEmitter::makeFull(llvm::ArrayRef<int64_t> shape,
                                    mlir::Type elementType,
                                    const PyValue &value, mlir::Location loc) {
  if (value.isRuntime()) {
    mlir::Value scalar =
        castValue(value.value, value.isUnsigned, elementType, false, loc);
    return broadcastTo(scalar, shape, loc);
  }
  return materialize(value, elementType, !shape.empty(), shape, loc);
}

//===----------------------------------------------------------------------===//
// Python builtins
//===----------------------------------------------------------------------===//

KernelEmitter::Result
KernelEmitter::emitPythonBuiltin(const ast::CallExpr &call,
                                 llvm::StringRef name) {
  if (name == "min" || name == "max") {
    if (!call.getKeywords().empty())
      return error(call.getKeywords().front().loc,
                   name + "() takes no keyword arguments in kernels");
    llvm::SmallVector<PyValue> values;
    for (const ast::ExprPtr &arg : call.getArgs()) {
      Result value = emitExpr(*arg);
      if (!value)
        return std::nullopt;
      values.push_back(*value);
    }
    if (values.size() == 1 && values[0].kind == PyValue::Kind::Tuple) {
      std::vector<PyValue> elements = values[0].elements;
      values.assign(elements.begin(), elements.end());
    }
    if (values.empty())
      return error(call.getLoc(), name + "() expected at least 1 argument");
    // Compile-time values compare as in Python; runtime ones become
    // tl.minimum/tl.maximum, as Triton maps these builtins.
    PyValue result = values[0];
    for (const PyValue &next : llvm::ArrayRef(values).drop_front()) {
      if (!result.isRuntime() && !next.isRuntime()) {
        Result less =
            foldCompare(ast::CompareOp::Lt, next, result, call.getLoc());
        if (!less)
          return std::nullopt;
        if (less->boolValue == (name == "min"))
          result = next;
        continue;
      }
      Result combined = emitMinMax(name == "max", result, next,
                                   /*propagateNan=*/false, call.getLoc());
      if (!combined)
        return std::nullopt;
      result = *combined;
    }
    return result;
  }
  llvm::SmallVector<PyValue> values;
  for (const ast::ExprPtr &arg : call.getArgs()) {
    Result value = emitExpr(*arg);
    if (!value)
      return std::nullopt;
    values.push_back(*value);
  }
  if (name == "float" || name == "int" || name == "bool") {
    if (values.size() != 1)
      return error(call.getLoc(), name + "() takes one argument here");
    const PyValue &v = values[0];
    if (v.kind == PyValue::Kind::String && name == "float") {
      std::string text = llvm::StringRef(v.text).trim().lower();
      if (text == "inf" || text == "+inf" || text == "infinity")
        return PyValue::floating(std::numeric_limits<double>::infinity());
      if (text == "-inf" || text == "-infinity")
        return PyValue::floating(-std::numeric_limits<double>::infinity());
      if (text == "nan")
        return PyValue::floating(std::numeric_limits<double>::quiet_NaN());
      double parsed;
      if (!llvm::StringRef(text).getAsDouble(parsed))
        return PyValue::floating(parsed);
      return error(call.getLoc(),
                   "could not convert string to float: '" + v.text + "'");
    }
    if (!v.isNumber())
      return error(call.getLoc(), name + "() of " + describe(v) +
                                      " is not supported in kernels (only "
                                      "compile-time numbers)");
    double asDouble = v.kind == PyValue::Kind::Float  ? v.floatValue
                      : v.kind == PyValue::Kind::Bool ? double(v.boolValue)
                                                      : double(v.intValue);
    int64_t asInt = v.kind == PyValue::Kind::Float
                        ? saturatingFloatToInt(v.floatValue)
                    : v.kind == PyValue::Kind::Bool ? v.boolValue
                                                    : v.intValue;
    if (name == "float")
      return PyValue::floating(asDouble);
    if (name == "int")
      return PyValue::integer(asInt);
    return PyValue::boolean(isTruthy(v));
  }
  if (name == "abs" && values.size() == 1) {
    const PyValue &v = values[0];
    if (v.kind == PyValue::Kind::Float)
      return PyValue::floating(std::fabs(v.floatValue));
    if (v.kind == PyValue::Kind::Int) {
      if (v.intValue == std::numeric_limits<int64_t>::min())
        return error(call.getLoc(), "integer overflow in constant expression");
      return PyValue::integer(v.intValue < 0 ? -v.intValue : v.intValue);
    }
    CallArgs args;
    args.values.push_back(v);
    args.present.push_back(true);
    args.locs.push_back(call.getLoc());
    return emitMath("abs", args, call, "abs");
  }
  if (name == "len" && values.size() == 1 &&
      values[0].kind == PyValue::Kind::Tuple)
    return PyValue::integer(values[0].elements.size());
  if (name == "print")
    return emitLanguageCall(call, "device_print", "print");
  if (name == "range")
    return error(call.getLoc(), "range() can only be used as the iterable of "
                                "a 'for' loop");
  return error(call.getLoc(), "'" + name + "()' is not supported in kernels");
}

//===----------------------------------------------------------------------===//
// triton.language
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::emitWhere(const PyValue &condition,
                                               const PyValue &x,
                                               const PyValue &y,
                                               const ast::Location &loc) {
  if (!x.isRuntime() && !x.isNumber())
    return error(loc, "tl.where() 'x' must be a number or a block, got " +
                          describe(x));
  if (!y.isRuntime() && !y.isNumber())
    return error(loc, "tl.where() 'y' must be a number or a block, got " +
                          describe(y));
  if (!condition.isRuntime() && !condition.isNumber())
    return error(loc, "tl.where() 'condition' must be a boolean block or "
                      "scalar, got " +
                          describe(condition));
  if (!condition.isRuntime() && !x.isRuntime() && !y.isRuntime())
    return isTruthy(condition) ? x : y;
  if (!requireIR(loc, "tl.where"))
    return std::nullopt;
  auto common = commonShape({&condition, &x, &y}, "tl.where()", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Location irLoc = getLoc(loc);
  mlir::Type type;
  bool isUnsigned = false;
  bool xPtr = x.isRuntime() && isPointer(getElementType(x.value));
  bool yPtr = y.isRuntime() && isPointer(getElementType(y.value));
  if (xPtr || yPtr) {
    if (!(xPtr && yPtr) || getElementType(x.value) != getElementType(y.value))
      return error(loc, "tl.where() cannot choose between " + describe(x) +
                            " and " + describe(y));
    type = getElementType(x.value);
  } else if (!x.isRuntime() && !y.isRuntime()) {
    // Two numbers: the kind of the wider one (bool < int < float).
    type = getNumberKind(x) >= getNumberKind(y) ? getDefaultType(x)
                                                : getDefaultType(y);
  } else {
    std::optional<mlir::Type> computed =
        getComputationType(ast::BinaryOp::Add, x, y);
    if (!computed)
      return unsupportedOperands("tl.where", x, y, loc);
    type = *computed;
    isUnsigned =
        (x.isRuntime() && x.isUnsigned) || (y.isRuntime() && y.isUnsigned);
  }
  mlir::Value cond;
  if (condition.isRuntime())
    cond = broadcastTo(castValue(condition.value, condition.isUnsigned,
                                 builder.getI1Type(), false, irLoc),
                       asBlock ? llvm::ArrayRef<int64_t>(shape)
                               : llvm::ArrayRef<int64_t>(),
                       irLoc);
  else
    cond = materialize(PyValue::boolean(isTruthy(condition)),
                       builder.getI1Type(), asBlock, shape, irLoc);
  mlir::Value a = prepareOperand(x, type, asBlock, shape, irLoc);
  mlir::Value b = prepareOperand(y, type, asBlock, shape, irLoc);
  return PyValue::runtime(arith::SelectOp::create(builder, irLoc, cond, a, b),
                          isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitMinMax(bool isMax, const PyValue &lhs,
                                                const PyValue &rhs,
                                                bool propagateNan,
                                                const ast::Location &loc) {
  if ((!lhs.isRuntime() && !lhs.isNumber()) ||
      (!rhs.isRuntime() && !rhs.isNumber()))
    return unsupportedOperands(isMax ? "maximum" : "minimum", lhs, rhs, loc);
  if (!requireIR(loc, isMax ? "tl.maximum" : "tl.minimum"))
    return std::nullopt;
  PyValue a = lhs, b = rhs;
  if (!a.isRuntime() && !b.isRuntime()) {
    std::optional<PyValue> runtimeA = toRuntime(a, loc);
    if (!runtimeA)
      return std::nullopt;
    a = *runtimeA;
  }
  auto common = commonShape({&a, &b}, isMax ? "maximum" : "minimum", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  std::optional<mlir::Type> type = getComputationType(ast::BinaryOp::Add, a, b);
  if (!type || isPointer(*type))
    return unsupportedOperands(isMax ? "maximum" : "minimum", lhs, rhs, loc);
  bool isUnsigned =
      (a.isRuntime() && a.isUnsigned) || (b.isRuntime() && b.isUnsigned);
  mlir::Location irLoc = getLoc(loc);
  mlir::Value x = prepareOperand(a, *type, asBlock, shape, irLoc);
  mlir::Value y = prepareOperand(b, *type, asBlock, shape, irLoc);
  mlir::Value result;
  if (isFloat(*type)) {
    // Triton: maxnumf/minnumf unless propagate_nan=tl.PropagateNan.ALL.
    if (propagateNan)
      result =
          isMax ? mlir::Value(arith::MaximumFOp::create(builder, irLoc, x, y))
                : mlir::Value(arith::MinimumFOp::create(builder, irLoc, x, y));
    else
      result =
          isMax ? mlir::Value(arith::MaxNumFOp::create(builder, irLoc, x, y))
                : mlir::Value(arith::MinNumFOp::create(builder, irLoc, x, y));
  } else if (isUnsigned || isBool(*type)) {
    result = isMax ? mlir::Value(arith::MaxUIOp::create(builder, irLoc, x, y))
                   : mlir::Value(arith::MinUIOp::create(builder, irLoc, x, y));
  } else {
    result = isMax ? mlir::Value(arith::MaxSIOp::create(builder, irLoc, x, y))
                   : mlir::Value(arith::MinSIOp::create(builder, irLoc, x, y));
  }
  return PyValue::runtime(result, isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitCast(const PyValue &value,
                                              const PyValue &dtype,
                                              bool bitcast,
                                              const ast::Location &loc,
                                              llvm::StringRef displayName) {
  if (dtype.kind != PyValue::Kind::DType)
    return error(loc, displayName + "() 'dtype' must be a dtype (" +
                          kDTypeNames + "), got " + describe(dtype));
  std::optional<PyValue> source = toRuntime(value, loc);
  if (!source)
    return std::nullopt;
  mlir::Location irLoc = getLoc(loc);
  mlir::Type from = getElementType(source->value);
  if (bitcast) {
    if (isPointer(from) || isPointer(dtype.type) ||
        from.getIntOrFloatBitWidth() != dtype.type.getIntOrFloatBitWidth())
      return error(loc, displayName +
                            "() bitcast needs types of one width, "
                            "got " +
                            getTypeName(from, source->isUnsigned) + " and " +
                            getTypeName(dtype.type, dtype.isUnsigned));
    mlir::Type resultType =
        mlir::tile::withElementType(source->value.getType(), dtype.type);
    return PyValue::runtime(
        arith::BitcastOp::create(builder, irLoc, resultType, source->value),
        dtype.isUnsigned);
  }
  if (isPointer(from) != isPointer(dtype.type) &&
      !(isPointer(from) ? dtype.type.isInteger(64)
                        : getElementType(source->value).isInteger(64)))
    return error(loc, displayName + "() cannot convert " + describe(*source) +
                          " to " + getTypeName(dtype.type, dtype.isUnsigned) +
                          " (pointers convert only to and from int64)");
  return PyValue::runtime(castValue(source->value, source->isUnsigned,
                                    dtype.type, dtype.isUnsigned, irLoc),
                          dtype.isUnsigned);
}

std::optional<llvm::SmallVector<mlir::Value>>
KernelEmitter::buildReduce(llvm::ArrayRef<mlir::Value> operands, int64_t axis,
                           CombineBuilder combine, mlir::Location loc) {
  llvm::SmallVector<int64_t> shape(getShape(operands[0]));
  shape.erase(shape.begin() + axis);
  llvm::SmallVector<mlir::Type> resultTypes, elementTypes;
  llvm::SmallVector<mlir::Location> locs;
  for (mlir::Value operand : operands) {
    mlir::Type element = getElementType(operand);
    elementTypes.push_back(element);
    resultTypes.push_back(
        shape.empty() ? element : mlir::RankedTensorType::get(shape, element));
  }
  for (int i = 0; i < 2; ++i)
    for (mlir::Type element : elementTypes) {
      (void)element;
      locs.push_back(loc);
    }
  auto reduce = mlir::tile::ReduceOp::create(
      builder, loc, resultTypes, operands, builder.getI32IntegerAttr(axis));
  llvm::SmallVector<mlir::Type> blockTypes(elementTypes);
  blockTypes.append(elementTypes);
  mlir::OpBuilder::InsertionGuard guard(builder);
  mlir::Block *block =
      builder.createBlock(&reduce.getCombineOp(), {}, blockTypes, locs);
  llvm::SmallVector<mlir::Value> blockArgs(block->getArguments().begin(),
                                           block->getArguments().end());
  auto results = combine(blockArgs);
  if (!results) {
    reduce.erase();
    return std::nullopt;
  }
  mlir::tile::ReduceReturnOp::create(builder, loc, *results);
  return llvm::to_vector(llvm::map_range(
      reduce.getResults(), [](mlir::OpResult r) { return mlir::Value(r); }));
}

std::optional<llvm::SmallVector<mlir::Value>>
KernelEmitter::buildScan(llvm::ArrayRef<mlir::Value> operands, int64_t axis,
                         bool reverse, CombineBuilder combine,
                         mlir::Location loc) {
  llvm::SmallVector<mlir::Type> resultTypes, blockTypes;
  llvm::SmallVector<mlir::Location> locs;
  for (mlir::Value operand : operands) {
    resultTypes.push_back(operand.getType());
    blockTypes.push_back(getElementType(operand));
  }
  blockTypes.append(llvm::SmallVector<mlir::Type>(blockTypes));
  locs.assign(blockTypes.size(), loc);
  auto scan = mlir::tile::ScanOp::create(
      builder, loc, resultTypes, operands, builder.getI32IntegerAttr(axis),
      reverse ? builder.getUnitAttr() : mlir::UnitAttr());
  mlir::OpBuilder::InsertionGuard guard(builder);
  mlir::Block *block =
      builder.createBlock(&scan.getCombineOp(), {}, blockTypes, locs);
  llvm::SmallVector<mlir::Value> blockArgs(block->getArguments().begin(),
                                           block->getArguments().end());
  auto results = combine(blockArgs);
  if (!results) {
    scan.erase();
    return std::nullopt;
  }
  mlir::tile::ScanReturnOp::create(builder, loc, *results);
  return llvm::to_vector(llvm::map_range(
      scan.getResults(), [](mlir::OpResult r) { return mlir::Value(r); }));
}

std::optional<llvm::SmallVector<mlir::Value>> KernelEmitter::inlineCombine(
    const PyValue &function, llvm::ArrayRef<mlir::Value> args,
    llvm::ArrayRef<bool> unsignedness, const ast::Location &loc) {
  const ast::FunctionDef *definition = function.kind == PyValue::Kind::Function
                                           ? module.findFunction(function.text)
                                           : nullptr;
  if (!definition) {
    diag.error(loc, "'combine_fn' must be a @triton.jit function, got " +
                        describe(function));
    return std::nullopt;
  }
  llvm::SmallVector<PyValue> pyArgs;
  for (auto [index, arg] : llvm::enumerate(args))
    pyArgs.push_back(
        PyValue::runtime(arg, unsignedness[index % unsignedness.size()]));
  Result result = callFunction(*definition, pyArgs, {}, loc);
  if (!result)
    return std::nullopt;
  llvm::SmallVector<PyValue> values;
  if (result->kind == PyValue::Kind::Tuple)
    values.append(result->elements.begin(), result->elements.end());
  else
    values.push_back(*result);
  size_t expected = args.size() / 2;
  if (values.size() != expected) {
    diag.error(loc, "the combine function '" + function.text +
                        "' must return " + llvm::Twine(expected) + " value" +
                        (expected == 1 ? "" : "s") + ", got " +
                        describe(*result));
    return std::nullopt;
  }
  llvm::SmallVector<mlir::Value> out;
  mlir::Location irLoc = getLoc(loc);
  for (auto [index, value] : llvm::enumerate(values)) {
    mlir::Type type = args[index].getType();
    if (value.isNumber()) {
      out.push_back(materialize(value, type, false, {}, irLoc));
      continue;
    }
    if (!value.isRuntime() || value.value.getType() != type) {
      diag.error(loc, "the combine function '" + function.text +
                          "' must return " + describeType(type) +
                          " for value " + llvm::Twine(index) + ", got " +
                          describe(value));
      return std::nullopt;
    }
    out.push_back(value.value);
  }
  return out;
}

namespace {
/// The axis argument of a reduction or scan, normalized; None stays
/// std::nullopt in `axis`.
struct AxisResult {
  bool ok = false;
  std::optional<int64_t> axis;
};
} // namespace

KernelEmitter::Result
KernelEmitter::emitReduction(llvm::StringRef name, const CallArgs &args,
                             const ast::CallExpr &call,
                             llvm::StringRef displayName) {
  // args: input, axis, then per function (see emitLanguageCall).
  const PyValue &input = args.values[0];
  llvm::SmallVector<PyValue> inputs;
  if (input.kind == PyValue::Kind::Tuple && name == "reduce")
    inputs.append(input.elements.begin(), input.elements.end());
  else
    inputs.push_back(input);
  for (const PyValue &operand : inputs)
    if (!operand.isRuntime() || !isBlock(operand.value))
      return error(args.locs[0],
                   displayName + "() needs a block, got " + describe(operand));
  llvm::SmallVector<int64_t> shape(getShape(inputs[0].value));
  for (const PyValue &operand : inputs)
    if (getShape(operand.value) != llvm::ArrayRef<int64_t>(shape))
      return error(args.locs[0], displayName +
                                     "() operands must have one shape, got " +
                                     formatShape(shape) + " and " +
                                     formatShape(getShape(operand.value)));
  mlir::Location loc = getLoc(call.getLoc());
  int64_t rank = shape.size();
  std::optional<int64_t> axis;
  const PyValue &axisValue = args.values[1];
  if (axisValue.kind != PyValue::Kind::None) {
    if (axisValue.kind != PyValue::Kind::Int)
      return error(args.locs[1], displayName +
                                     "() axis must be a compile-time integer "
                                     "or None, got " +
                                     describe(axisValue));
    int64_t a =
        axisValue.intValue < 0 ? axisValue.intValue + rank : axisValue.intValue;
    if (a < 0 || a >= rank)
      return error(args.locs[1], displayName + "() axis " +
                                     llvm::Twine(axisValue.intValue) +
                                     " is out of range for a block of shape " +
                                     formatShape(shape));
    axis = a;
  }
  bool keepDims = false;
  size_t keepIndex = name == "reduce"                       ? 3
                     : name == "sum"                        ? 2
                     : name == "xor_sum"                    ? 2
                     : name == "argmax" || name == "argmin" ? 3
                                                            : 4;
  if (keepIndex < args.values.size() && args.present[keepIndex]) {
    if (args.values[keepIndex].kind != PyValue::Kind::Bool)
      return error(args.locs[keepIndex],
                   displayName +
                       "() keep_dims must be a compile-time bool, "
                       "got " +
                       describe(args.values[keepIndex]));
    keepDims = args.values[keepIndex].boolValue;
  }

  llvm::SmallVector<mlir::Value> operands;
  for (const PyValue &operand : inputs)
    operands.push_back(operand.value);
  // axis=None reduces everything: flatten first, as Triton does.
  if (!axis) {
    if (rank != 1) {
      int64_t count = 1;
      for (int64_t dim : shape)
        count *= dim;
      for (mlir::Value &operand : operands)
        operand = mlir::tile::ReshapeOp::create(
            builder, loc,
            mlir::RankedTensorType::get({count}, getElementType(operand)),
            operand, /*allow_reorder=*/true);
    }
  }
  int64_t reduceAxis = axis.value_or(0);
  bool isUnsigned = inputs[0].isUnsigned;
  mlir::Type elementType = getElementType(operands[0]);
  bool isFloatType = isFloat(elementType);

  llvm::SmallVector<mlir::Value> results;
  llvm::SmallVector<bool> resultUnsigned;
  if (name == "sum" || name == "xor_sum") {
    if (name == "xor_sum" && !isInteger(elementType))
      return error(args.locs[0], displayName + "() needs integers, got " +
                                     describe(inputs[0]));
    if (name == "sum") {
      // Triton sums integers narrower than 32 bits in 32 bits (same sign);
      // dtype= picks the accumulation type.
      mlir::Type accType = elementType;
      bool accUnsigned = isUnsigned;
      if (args.present[3] && args.values[3].kind != PyValue::Kind::None) {
        if (args.values[3].kind != PyValue::Kind::DType)
          return error(args.locs[3], displayName +
                                         "() dtype must be a dtype, "
                                         "got " +
                                         describe(args.values[3]));
        accType = args.values[3].type;
        accUnsigned = args.values[3].isUnsigned;
      } else if (isInteger(elementType) &&
                 elementType.getIntOrFloatBitWidth() < 32) {
        accType = builder.getI32Type();
      }
      if (accType != elementType)
        operands[0] =
            castValue(operands[0], isUnsigned, accType, accUnsigned, loc);
      isUnsigned = accUnsigned;
      elementType = accType;
      isFloatType = isFloat(accType);
    }
    bool isXor = name == "xor_sum";
    auto reduced = buildReduce(
        operands, reduceAxis,
        [&](llvm::ArrayRef<mlir::Value> a)
            -> std::optional<llvm::SmallVector<mlir::Value>> {
          if (isXor)
            return llvm::SmallVector<mlir::Value>{
                arith::XOrIOp::create(builder, loc, a[0], a[1])};
          if (isFloatType)
            return llvm::SmallVector<mlir::Value>{
                arith::AddFOp::create(builder, loc, a[0], a[1])};
          return llvm::SmallVector<mlir::Value>{
              arith::AddIOp::create(builder, loc, a[0], a[1])};
        },
        loc);
    if (!reduced)
      return std::nullopt;
    results = *reduced;
    resultUnsigned.push_back(isUnsigned);
  } else if (name == "max" || name == "min" || name == "argmax" ||
             name == "argmin") {
    bool isMax = name == "max" || name == "argmax";
    bool withIndices = name == "argmax" || name == "argmin" ||
                       (args.present[2] && isTruthy(args.values[2]));
    if (!withIndices) {
      auto reduced = buildReduce(
          operands, reduceAxis,
          [&](llvm::ArrayRef<mlir::Value> a)
              -> std::optional<llvm::SmallVector<mlir::Value>> {
            mlir::Value r;
            // Triton's tl.max/tl.min combine with maxnumf/minnumf on floats.
            if (isFloatType)
              r = isMax ? mlir::Value(arith::MaxNumFOp::create(builder, loc,
                                                               a[0], a[1]))
                        : mlir::Value(arith::MinNumFOp::create(builder, loc,
                                                               a[0], a[1]));
            else if (isUnsigned || isBool(elementType))
              r = isMax ? mlir::Value(
                              arith::MaxUIOp::create(builder, loc, a[0], a[1]))
                        : mlir::Value(
                              arith::MinUIOp::create(builder, loc, a[0], a[1]));
            else
              r = isMax ? mlir::Value(
                              arith::MaxSIOp::create(builder, loc, a[0], a[1]))
                        : mlir::Value(
                              arith::MinSIOp::create(builder, loc, a[0], a[1]));
            return llvm::SmallVector<mlir::Value>{r};
          },
          loc);
      if (!reduced)
        return std::nullopt;
      results = *reduced;
      resultUnsigned.push_back(isUnsigned);
    } else {
      size_t tieIndex = name == "argmax" || name == "argmin" ? 2 : 3;
      bool tieBreakLeft = true;
      if (args.present[tieIndex]) {
        if (args.values[tieIndex].kind != PyValue::Kind::Bool)
          return error(args.locs[tieIndex], displayName +
                                                "() tie-break flag must be a "
                                                "compile-time bool");
        tieBreakLeft = args.values[tieIndex].boolValue;
      }
      // The index operand: positions along the axis, broadcast.
      llvm::ArrayRef<int64_t> operandShape = getShape(operands[0]);
      int64_t length = operandShape[reduceAxis];
      mlir::Value range = mlir::tile::MakeRangeOp::create(
          builder, loc,
          mlir::RankedTensorType::get({length}, builder.getI32Type()),
          builder.getI32IntegerAttr(0), builder.getI32IntegerAttr(length));
      for (int64_t d = 0; d < int64_t(operandShape.size()); ++d) {
        if (d == reduceAxis)
          continue;
        llvm::SmallVector<int64_t> expanded(getShape(range));
        int64_t position = d < reduceAxis ? d : d;
        expanded.insert(expanded.begin() + position, 1);
        range = mlir::tile::ExpandDimsOp::create(
            builder, loc,
            mlir::RankedTensorType::get(expanded, builder.getI32Type()), range,
            builder.getI32IntegerAttr(position));
      }
      range = broadcastTo(range, operandShape, loc);
      operands.push_back(range);
      auto reduced = buildReduce(
          operands, reduceAxis,
          [&](llvm::ArrayRef<mlir::Value> a)
              -> std::optional<llvm::SmallVector<mlir::Value>> {
            mlir::Value v1 = a[0], i1 = a[1], v2 = a[2], i2 = a[3];
            mlir::Value better, equal;
            if (isFloatType) {
              better = arith::CmpFOp::create(builder, loc,
                                             isMax ? arith::CmpFPredicate::OGT
                                                   : arith::CmpFPredicate::OLT,
                                             v1, v2);
              equal = arith::CmpFOp::create(builder, loc,
                                            arith::CmpFPredicate::OEQ, v1, v2);
            } else {
              bool u = isUnsigned || isBool(elementType);
              better =
                  arith::CmpIOp::create(builder, loc,
                                        isMax ? (u ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::sgt)
                                              : (u ? arith::CmpIPredicate::ult
                                                   : arith::CmpIPredicate::slt),
                                        v1, v2);
              equal = arith::CmpIOp::create(builder, loc,
                                            arith::CmpIPredicate::eq, v1, v2);
            }
            if (tieBreakLeft) {
              mlir::Value lower = arith::CmpIOp::create(
                  builder, loc, arith::CmpIPredicate::slt, i1, i2);
              mlir::Value tie =
                  arith::AndIOp::create(builder, loc, equal, lower);
              better = arith::OrIOp::create(builder, loc, better, tie);
            }
            return llvm::SmallVector<mlir::Value>{
                arith::SelectOp::create(builder, loc, better, v1, v2),
                arith::SelectOp::create(builder, loc, better, i1, i2)};
          },
          loc);
      if (!reduced)
        return std::nullopt;
      if (name == "argmax" || name == "argmin") {
        results = {(*reduced)[1]};
        resultUnsigned = {false};
      } else {
        results = *reduced;
        resultUnsigned = {isUnsigned, false};
      }
    }
  } else { // reduce with a user combine function
    llvm::SmallVector<bool> unsignedness;
    for (const PyValue &operand : inputs)
      unsignedness.push_back(operand.isUnsigned);
    PyValue combineFn = args.values[2];
    ast::Location combineLoc = args.locs[2];
    auto reduced = buildReduce(
        operands, reduceAxis,
        [&](llvm::ArrayRef<mlir::Value> a) {
          return inlineCombine(combineFn, a, unsignedness, combineLoc);
        },
        loc);
    if (!reduced)
      return std::nullopt;
    results = *reduced;
    resultUnsigned = unsignedness;
  }

  if (keepDims) {
    for (mlir::Value &result : results) {
      if (axis) {
        llvm::SmallVector<int64_t> kept(shape);
        kept[*axis] = 1;
        if (!isBlock(result))
          result = splatTo(result, kept, loc);
        else
          result = mlir::tile::ExpandDimsOp::create(
              builder, loc,
              mlir::RankedTensorType::get(kept, getElementType(result)), result,
              builder.getI32IntegerAttr(*axis));
      } else {
        llvm::SmallVector<int64_t> ones(rank, 1);
        result = splatTo(result, ones, loc);
      }
    }
  }
  if (results.size() == 1)
    return PyValue::runtime(results[0], resultUnsigned[0]);
  std::vector<PyValue> tuple;
  for (auto [index, result] : llvm::enumerate(results))
    tuple.push_back(PyValue::runtime(result, resultUnsigned[index]));
  return PyValue::tuple(std::move(tuple));
}

KernelEmitter::Result KernelEmitter::emitScan(llvm::StringRef name,
                                              const CallArgs &args,
                                              const ast::CallExpr &call,
                                              llvm::StringRef displayName) {
  // cumsum(input, axis=0, reverse=False, dtype=None),
  // cumprod(input, axis=0, reverse=False),
  // associative_scan(input, axis, combine_fn, reverse=False).
  const PyValue &input = args.values[0];
  llvm::SmallVector<PyValue> inputs;
  if (input.kind == PyValue::Kind::Tuple && name == "associative_scan")
    inputs.append(input.elements.begin(), input.elements.end());
  else
    inputs.push_back(input);
  for (const PyValue &operand : inputs)
    if (!operand.isRuntime() || !isBlock(operand.value))
      return error(args.locs[0],
                   displayName + "() needs a block, got " + describe(operand));
  llvm::ArrayRef<int64_t> shape = getShape(inputs[0].value);
  int64_t rank = shape.size();
  PyValue axisValue = args.present[1] ? args.values[1] : PyValue::integer(0);
  if (axisValue.kind != PyValue::Kind::Int)
    return error(args.locs[1], displayName +
                                   "() axis must be a compile-time integer, "
                                   "got " +
                                   describe(axisValue));
  int64_t axis =
      axisValue.intValue < 0 ? axisValue.intValue + rank : axisValue.intValue;
  if (axis < 0 || axis >= rank)
    return error(args.locs[1], displayName + "() axis " +
                                   llvm::Twine(axisValue.intValue) +
                                   " is out of range for a block of shape " +
                                   formatShape(shape));
  size_t reverseIndex = name == "associative_scan" ? 3 : 2;
  bool reverse = false;
  if (args.present[reverseIndex]) {
    if (args.values[reverseIndex].kind != PyValue::Kind::Bool)
      return error(args.locs[reverseIndex],
                   displayName + "() reverse must be a compile-time bool");
    reverse = args.values[reverseIndex].boolValue;
  }
  mlir::Location loc = getLoc(call.getLoc());
  llvm::SmallVector<mlir::Value> operands;
  llvm::SmallVector<bool> unsignedness;
  for (const PyValue &operand : inputs) {
    operands.push_back(operand.value);
    unsignedness.push_back(operand.isUnsigned);
  }
  std::optional<llvm::SmallVector<mlir::Value>> results;
  if (name == "associative_scan") {
    PyValue combineFn = args.values[2];
    ast::Location combineLoc = args.locs[2];
    results = buildScan(
        operands, axis, reverse,
        [&](llvm::ArrayRef<mlir::Value> a) {
          return inlineCombine(combineFn, a, unsignedness, combineLoc);
        },
        loc);
  } else {
    mlir::Type elementType = getElementType(operands[0]);
    if (name == "cumsum") {
      mlir::Type accType = elementType;
      if (args.present[3] && args.values[3].kind == PyValue::Kind::DType) {
        accType = args.values[3].type;
        unsignedness[0] = args.values[3].isUnsigned;
      } else if (isInteger(elementType) &&
                 elementType.getIntOrFloatBitWidth() < 32) {
        accType = builder.getI32Type();
      }
      operands[0] = castValue(operands[0], inputs[0].isUnsigned, accType,
                              unsignedness[0], loc);
      elementType = accType;
    }
    bool isProduct = name == "cumprod";
    bool isFloatType = isFloat(elementType);
    results = buildScan(
        operands, axis, reverse,
        [&](llvm::ArrayRef<mlir::Value> a)
            -> std::optional<llvm::SmallVector<mlir::Value>> {
          mlir::Value r;
          if (isProduct)
            r = isFloatType ? mlir::Value(arith::MulFOp::create(builder, loc,
                                                                a[0], a[1]))
                            : mlir::Value(arith::MulIOp::create(builder, loc,
                                                                a[0], a[1]));
          else
            r = isFloatType ? mlir::Value(arith::AddFOp::create(builder, loc,
                                                                a[0], a[1]))
                            : mlir::Value(arith::AddIOp::create(builder, loc,
                                                                a[0], a[1]));
          return llvm::SmallVector<mlir::Value>{r};
        },
        loc);
  }
  if (!results)
    return std::nullopt;
  if (results->size() == 1)
    return PyValue::runtime((*results)[0], unsignedness[0]);
  std::vector<PyValue> tuple;
  for (auto [index, result] : llvm::enumerate(*results))
    tuple.push_back(PyValue::runtime(result, unsignedness[index]));
  return PyValue::tuple(std::move(tuple));
}

KernelEmitter::Result KernelEmitter::emitMath(llvm::StringRef name,
                                              const CallArgs &args,
                                              const ast::CallExpr &call,
                                              llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  if (name == "cdiv") {
    const PyValue &x = args.values[0], &div = args.values[1];
    if (!x.isRuntime() && !div.isRuntime()) {
      Result sum = foldBinary(ast::BinaryOp::Add, x, div, callLoc);
      if (!sum)
        return std::nullopt;
      Result minusOne =
          foldBinary(ast::BinaryOp::Sub, *sum, PyValue::integer(1), callLoc);
      if (!minusOne)
        return std::nullopt;
      return foldBinary(ast::BinaryOp::FloorDiv, *minusOne, div, callLoc);
    }
    Result sum = emitBinary(ast::BinaryOp::Add, x, div, callLoc);
    if (!sum)
      return std::nullopt;
    Result minusOne =
        emitBinary(ast::BinaryOp::Sub, *sum, PyValue::integer(1), callLoc);
    if (!minusOne)
      return std::nullopt;
    return emitBinary(ast::BinaryOp::FloorDiv, *minusOne, div, callLoc);
  }
  if (name == "maximum" || name == "minimum") {
    bool propagateNan = false;
    if (args.present[2]) {
      const PyValue &mode = args.values[2];
      // tl.PropagateNan.ALL / NONE.
      if (mode.kind == PyValue::Kind::Namespace)
        propagateNan = llvm::StringRef(mode.text).ends_with(".ALL");
      else if (mode.kind == PyValue::Kind::Int)
        propagateNan = mode.intValue != 0;
    }
    return emitMinMax(name == "maximum", args.values[0], args.values[1],
                      propagateNan, callLoc);
  }
  if (name == "where")
    return emitWhere(args.values[0], args.values[1], args.values[2], callLoc);

  // Multi-operand float functions broadcast their operands.
  size_t numOperands = llvm::StringSwitch<size_t>(name)
                           .Cases({"fma", "clamp"}, 3)
                           .Cases({"fdiv", "div_rn", "umulhi"}, 2)
                           .Default(1);
  llvm::SmallVector<PyValue> operands;
  for (size_t i = 0; i < numOperands; ++i) {
    const PyValue &operand = args.values[i];
    if (!operand.isRuntime() && !operand.isNumber())
      return error(args.locs[i], displayName +
                                     "() expects numbers or blocks, got " +
                                     describe(operand));
    operands.push_back(operand);
  }
  if (llvm::none_of(operands, [](const PyValue &v) { return v.isRuntime(); })) {
    std::optional<PyValue> first = toRuntime(operands[0], args.locs[0]);
    if (!first)
      return std::nullopt;
    operands[0] = *first;
  }
  if (!requireIR(callLoc, displayName))
    return std::nullopt;
  llvm::SmallVector<const PyValue *> pointers;
  for (const PyValue &operand : operands)
    pointers.push_back(&operand);
  auto common = commonShape(pointers, (displayName + "()").str(), callLoc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  // The computation type of all operands.
  std::optional<mlir::Type> type;
  PyValue typeCarrier = operands[0];
  for (const PyValue &operand : llvm::ArrayRef(operands).drop_front()) {
    type = getComputationType(ast::BinaryOp::Add, typeCarrier, operand);
    if (!type)
      return unsupportedOperands(displayName, typeCarrier, operand, callLoc);
    if (!typeCarrier.isRuntime() || operand.isRuntime()) {
      typeCarrier = operand;
      if (!typeCarrier.isRuntime())
        typeCarrier = operands[0];
    }
  }
  if (!type) {
    const PyValue &only = operands[0];
    type = getElementType(only.value);
  }
  bool isUnsigned = llvm::any_of(
      operands, [](const PyValue &v) { return v.isRuntime() && v.isUnsigned; });
  if (isPointer(*type))
    return error(callLoc, displayName + "() does not take pointers");
  llvm::SmallVector<mlir::Value> values;
  for (const PyValue &operand : operands)
    values.push_back(prepareOperand(operand, *type, asBlock, shape, loc));
  mlir::Value x = values[0];
  auto typeError = [&](llvm::StringRef expected) {
    return error(callLoc, displayName + "() expects " + expected + ", got " +
                              describe(operands[0]));
  };

  if (name == "abs") {
    if (isFloat(*type))
      return PyValue::runtime(mlir::math::AbsFOp::create(builder, loc, x));
    if (isUnsigned || isBool(*type))
      return PyValue::runtime(x, isUnsigned);
    return PyValue::runtime(mlir::math::AbsIOp::create(builder, loc, x));
  }
  if (name == "umulhi") {
    if (!isInteger(*type) || isBool(*type))
      return typeError("integers");
    return PyValue::runtime(
        mlir::tile::UMulHiOp::create(builder, loc, x, values[1]), isUnsigned);
  }
  if (name == "clamp") {
    if (!isFloat(*type)) {
      Result lower =
          emitMinMax(true, PyValue::runtime(x, isUnsigned),
                     PyValue::runtime(values[1], isUnsigned), false, callLoc);
      if (!lower)
        return std::nullopt;
      return emitMinMax(false, *lower, PyValue::runtime(values[2], isUnsigned),
                        false, callLoc);
    }
    bool propagateNan = args.present[3] &&
                        args.values[3].kind == PyValue::Kind::Namespace &&
                        llvm::StringRef(args.values[3].text).ends_with(".ALL");
    return PyValue::runtime(mlir::tile::ClampFOp::create(
        builder, loc, x, values[1], values[2], propagateNan));
  }
  if (!isFloat(*type))
    return typeError("floating-point values");
  if (name == "fma")
    return PyValue::runtime(
        mlir::math::FmaOp::create(builder, loc, x, values[1], values[2]));
  if (name == "fdiv" || name == "div_rn") {
    bool precise =
        name == "div_rn" || (args.present[2] && isTruthy(args.values[2]));
    if (precise)
      return PyValue::runtime(
          mlir::tile::PreciseDivFOp::create(builder, loc, x, values[1]));
    return PyValue::runtime(arith::DivFOp::create(builder, loc, x, values[1]));
  }
  // Triton's math functions accept fp32 and fp64 only.
  mlir::Type element = *type;
  if (!element.isF32() && !element.isF64() && name != "floor" && name != "ceil")
    return typeError("fp32 or fp64 (as Triton; convert with .to(tl.float32))");
  if (name == "sigmoid") {
    // Triton's standard library: 1 / (1 + exp(-x)).
    mlir::Value negated = arith::NegFOp::create(builder, loc, x);
    mlir::Value exp = mlir::math::ExpOp::create(builder, loc, negated);
    mlir::Value one =
        materialize(PyValue::floating(1.0), element, asBlock, shape, loc);
    mlir::Value denominator = arith::AddFOp::create(builder, loc, one, exp);
    return PyValue::runtime(
        arith::DivFOp::create(builder, loc, one, denominator));
  }
  mlir::Value result =
      llvm::StringSwitch<std::function<mlir::Value()>>(name)
          .Case("exp",
                [&] { return mlir::math::ExpOp::create(builder, loc, x); })
          .Case("exp2",
                [&] { return mlir::math::Exp2Op::create(builder, loc, x); })
          .Case("log",
                [&] { return mlir::math::LogOp::create(builder, loc, x); })
          .Case("log2",
                [&] { return mlir::math::Log2Op::create(builder, loc, x); })
          .Case("sqrt",
                [&] { return mlir::math::SqrtOp::create(builder, loc, x); })
          .Case("sqrt_rn",
                [&] {
                  return mlir::tile::PreciseSqrtOp::create(builder, loc, x);
                })
          .Case("rsqrt",
                [&] { return mlir::math::RsqrtOp::create(builder, loc, x); })
          .Case("sin",
                [&] { return mlir::math::SinOp::create(builder, loc, x); })
          .Case("cos",
                [&] { return mlir::math::CosOp::create(builder, loc, x); })
          .Case("erf",
                [&] { return mlir::math::ErfOp::create(builder, loc, x); })
          .Case("floor",
                [&] { return mlir::math::FloorOp::create(builder, loc, x); })
          .Case("ceil",
                [&] { return mlir::math::CeilOp::create(builder, loc, x); })
          .Default([] { return mlir::Value(); })();
  if (!result)
    return error(callLoc, displayName + "() is not supported");
  return PyValue::runtime(result);
}

KernelEmitter::Result KernelEmitter::emitShapeOp(llvm::StringRef name,
                                                 const CallArgs &args,
                                                 const ast::CallExpr &call,
                                                 llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  const PyValue &input = args.values[0];
  if (name == "broadcast") {
    const PyValue &other = args.values[1];
    auto common =
        commonShape({&input, &other}, (displayName + "()").str(), callLoc);
    if (!common)
      return std::nullopt;
    std::vector<PyValue> both;
    for (const PyValue *v : {&input, &other}) {
      std::optional<PyValue> runtimeValue = toRuntime(*v, callLoc);
      if (!runtimeValue)
        return std::nullopt;
      both.push_back(PyValue::runtime(
          broadcastTo(runtimeValue->value, common->second, loc),
          runtimeValue->isUnsigned));
    }
    return PyValue::tuple(std::move(both));
  }
  std::optional<PyValue> source = toRuntime(input, args.locs[0]);
  if (!source)
    return std::nullopt;
  mlir::Value value = source->value;
  bool isUnsigned = source->isUnsigned;
  mlir::Type elementType = getElementType(value);
  llvm::SmallVector<int64_t> shape(getShape(value));
  int64_t rank = shape.size();
  auto result = [&](mlir::Value v) { return PyValue::runtime(v, isUnsigned); };

  if (name == "broadcast_to") {
    std::optional<llvm::SmallVector<int64_t>> target =
        toShape(args.values[1], args.locs[1], displayName);
    if (!target)
      return std::nullopt;
    auto merged = broadcastShapes(shape, *target);
    if (!merged || *merged != *target)
      return error(callLoc, displayName + "() cannot broadcast shape " +
                                formatShape(shape) + " to " +
                                formatShape(*target));
    return result(broadcastTo(value, *target, loc));
  }
  if (name == "reshape" || name == "view" || name == "ravel") {
    llvm::SmallVector<int64_t> target;
    int64_t count = 1;
    for (int64_t dim : shape)
      count *= dim;
    if (name == "ravel") {
      target = {count};
    } else {
      std::optional<llvm::SmallVector<int64_t>> parsed =
          toShape(args.values[1], args.locs[1], displayName);
      if (!parsed)
        return std::nullopt;
      target = *parsed;
    }
    int64_t targetCount = 1;
    for (int64_t dim : target)
      targetCount *= dim;
    if (targetCount != count)
      return error(callLoc, displayName +
                                "() cannot reshape a block of shape " +
                                formatShape(shape) + " (" + llvm::Twine(count) +
                                " elements) to " + formatShape(target) + " (" +
                                llvm::Twine(targetCount) + " elements)");
    if (!isBlock(value))
      return result(broadcastTo(value, target, loc));
    bool canReorder =
        name != "reshape" || (args.present[2] && isTruthy(args.values[2]));
    return result(mlir::tile::ReshapeOp::create(
        builder, loc, mlir::RankedTensorType::get(target, elementType), value,
        canReorder));
  }
  if (name == "expand_dims") {
    llvm::SmallVector<int64_t> axes;
    const PyValue &axisValue = args.values[1];
    llvm::SmallVector<PyValue> axisValues;
    if (axisValue.kind == PyValue::Kind::Tuple)
      axisValues.append(axisValue.elements.begin(), axisValue.elements.end());
    else
      axisValues.push_back(axisValue);
    int64_t newRank = rank + axisValues.size();
    for (const PyValue &a : axisValues) {
      if (a.kind != PyValue::Kind::Int)
        return error(args.locs[1], displayName +
                                       "() axis must be a compile-time "
                                       "integer, got " +
                                       describe(a));
      int64_t normalized = a.intValue < 0 ? a.intValue + newRank : a.intValue;
      if (normalized < 0 || normalized >= newRank)
        return error(args.locs[1], displayName + "() axis " +
                                       llvm::Twine(a.intValue) +
                                       " is out of range for the result "
                                       "rank " +
                                       llvm::Twine(newRank));
      axes.push_back(normalized);
    }
    llvm::sort(axes);
    if (!isBlock(value)) {
      llvm::SmallVector<int64_t> ones(newRank, 1);
      return result(splatTo(value, ones, loc));
    }
    for (int64_t axis : axes) {
      llvm::SmallVector<int64_t> expanded(getShape(value));
      expanded.insert(expanded.begin() + axis, 1);
      value = mlir::tile::ExpandDimsOp::create(
          builder, loc, mlir::RankedTensorType::get(expanded, elementType),
          value, builder.getI32IntegerAttr(axis));
    }
    return result(value);
  }
  if (!isBlock(value))
    return error(args.locs[0],
                 displayName + "() needs a block, got " + describe(*source));
  if (name == "trans" || name == "permute") {
    llvm::SmallVector<int32_t> order;
    const PyValue &dims = args.values[1];
    if (args.present[1] && dims.kind != PyValue::Kind::None) {
      llvm::SmallVector<PyValue> dimValues;
      if (dims.kind == PyValue::Kind::Tuple)
        dimValues.append(dims.elements.begin(), dims.elements.end());
      else
        dimValues.push_back(dims);
      for (const PyValue &d : dimValues) {
        if (d.kind != PyValue::Kind::Int)
          return error(args.locs[1], displayName +
                                         "() dims must be compile-time "
                                         "integers, got " +
                                         describe(d));
        order.push_back(d.intValue);
      }
    } else if (name == "trans" && rank == 2) {
      order = {1, 0};
    } else {
      return error(callLoc, displayName + "() needs the permutation of the " +
                                llvm::Twine(rank) + " dimensions");
    }
    llvm::SmallVector<bool> seen(rank, false);
    llvm::SmallVector<int64_t> permuted;
    bool valid = int64_t(order.size()) == rank;
    for (int32_t d : order) {
      if (!valid || d < 0 || d >= rank || seen[d]) {
        valid = false;
        break;
      }
      seen[d] = true;
      permuted.push_back(shape[d]);
    }
    if (!valid) {
      std::string text;
      llvm::raw_string_ostream os(text);
      llvm::interleave(order, os, ", ");
      return error(callLoc, displayName + "() dims (" + text +
                                ") are not a permutation of the " +
                                llvm::Twine(rank) + " dimensions of " +
                                describe(*source));
    }
    return result(mlir::tile::TransOp::create(
        builder, loc, mlir::RankedTensorType::get(permuted, elementType), value,
        builder.getDenseI32ArrayAttr(order)));
  }
  if (name == "cat" || name == "join") {
    std::optional<PyValue> other = toRuntime(args.values[1], args.locs[1]);
    if (!other)
      return std::nullopt;
    mlir::Value rhs = other->value;
    if (rhs.getType() != value.getType())
      return error(callLoc, displayName +
                                "() operands must have one type and shape, "
                                "got " +
                                describe(*source) + " and " + describe(*other));
    llvm::SmallVector<int64_t> resultShape(shape);
    if (name == "cat")
      resultShape[0] *= 2;
    else
      resultShape.push_back(2);
    auto type = mlir::RankedTensorType::get(resultShape, elementType);
    if (name == "cat")
      return result(mlir::tile::CatOp::create(builder, loc, type, value, rhs));
    return result(mlir::tile::JoinOp::create(builder, loc, type, value, rhs));
  }
  if (name == "split") {
    if (shape.back() != 2)
      return error(callLoc, displayName +
                                "() needs a last dimension of size 2, got "
                                "shape " +
                                formatShape(shape));
    llvm::SmallVector<int64_t> half(shape.begin(), shape.end() - 1);
    mlir::Type halfType =
        half.empty()
            ? elementType
            : mlir::Type(mlir::RankedTensorType::get(half, elementType));
    if (half.empty())
      return error(callLoc, displayName + "() of a [2] block is not supported");
    auto split =
        mlir::tile::SplitOp::create(builder, loc, halfType, halfType, value);
    return PyValue::tuple(
        {result(split.getOutLHS()), result(split.getOutRHS())});
  }
  return error(callLoc, displayName + "() is not supported");
}

KernelEmitter::Result KernelEmitter::emitDot(const CallArgs &args,
                                             const ast::CallExpr &call,
                                             llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  const PyValue &a = args.values[0], &b = args.values[1];
  for (int i = 0; i < 2; ++i) {
    const PyValue &v = args.values[i];
    if (!v.isRuntime() || getShape(v.value).size() != 2)
      return error(args.locs[i], displayName +
                                     "() operands must be 2-D "
                                     "blocks, got " +
                                     describe(v));
  }
  llvm::ArrayRef<int64_t> aShape = getShape(a.value),
                          bShape = getShape(b.value);
  if (aShape[1] != bShape[0])
    return error(callLoc, displayName + "() inner dimensions differ: " +
                              formatShape(aShape) + " @ " +
                              formatShape(bShape));
  mlir::Type aType = getElementType(a.value), bType = getElementType(b.value);
  if (aType != bType)
    return error(callLoc, displayName +
                              "() operands must have one element type, got " +
                              describe(a) + " and " + describe(b));
  // The accumulator type: out_dtype (fp32 by default), i32 for integers.
  mlir::Type outType = builder.getF32Type();
  if (args.present[6] && args.values[6].kind != PyValue::Kind::None) {
    if (args.values[6].kind != PyValue::Kind::DType)
      return error(args.locs[6], displayName +
                                     "() out_dtype must be a dtype, "
                                     "got " +
                                     describe(args.values[6]));
    outType = args.values[6].type;
  }
  if (isInteger(aType))
    outType = builder.getI32Type();
  llvm::SmallVector<int64_t> resultShape = {aShape[0], bShape[1]};
  auto resultType = mlir::RankedTensorType::get(resultShape, outType);
  mlir::Value acc;
  if (args.present[2] && args.values[2].kind != PyValue::Kind::None) {
    const PyValue &accValue = args.values[2];
    if (!accValue.isRuntime() || accValue.value.getType() != resultType)
      return error(args.locs[2], displayName + "() acc must be " +
                                     describeType(resultType) + ", got " +
                                     describe(accValue));
    acc = accValue.value;
  } else {
    acc = materialize(PyValue::integer(0), outType, true, resultShape, loc);
  }
  mlir::tile::InputPrecision precision = mlir::tile::InputPrecision::tf32;
  if (args.present[4] && args.values[4].kind == PyValue::Kind::Bool &&
      !args.values[4].boolValue)
    precision = mlir::tile::InputPrecision::ieee;
  if (args.present[3] && args.values[3].kind != PyValue::Kind::None) {
    const PyValue &p = args.values[3];
    std::optional<mlir::tile::InputPrecision> parsed;
    if (p.kind == PyValue::Kind::String)
      parsed = mlir::tile::symbolizeInputPrecision(p.text);
    if (!parsed)
      return error(args.locs[3],
                   displayName +
                       "() input_precision must be one of "
                       "'tf32', 'tf32x3', 'ieee'; got " +
                       (p.kind == PyValue::Kind::String ? "'" + p.text + "'"
                                                        : describe(p)));
    precision = *parsed;
  }
  uint32_t maxImprecise = 0;
  if (args.present[5] && args.values[5].kind == PyValue::Kind::Int)
    maxImprecise = args.values[5].intValue;
  return PyValue::runtime(mlir::tile::DotOp::create(builder, loc, resultType,
                                                    a.value, b.value, acc,
                                                    precision, maxImprecise));
}

KernelEmitter::Result KernelEmitter::emitAtomic(llvm::StringRef name,
                                                const CallArgs &args,
                                                const ast::CallExpr &call,
                                                llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  mlir::Location loc = getLoc(callLoc);
  bool isCas = name == "atomic_cas";
  const PyValue &pointer = args.values[0];
  if (!pointer.isRuntime() || !isPointer(getElementType(pointer.value)))
    return error(args.locs[0], displayName +
                                   "() 'pointer' must be a pointer or a block "
                                   "of pointers, got " +
                                   describe(pointer));
  // atomic_cas(pointer, cmp, val, sem, scope);
  // atomic_*(pointer, val, mask, sem, scope).
  size_t semIndex = 3, scopeIndex = 4;
  llvm::SmallVector<const PyValue *> operands = {&pointer, &args.values[1]};
  if (isCas)
    operands.push_back(&args.values[2]);
  const PyValue *mask = nullptr;
  if (!isCas && args.present[2] && args.values[2].kind != PyValue::Kind::None) {
    mask = &args.values[2];
    operands.push_back(mask);
  }
  for (const PyValue *operand : llvm::ArrayRef(operands).drop_front())
    if (!operand->isRuntime() && !operand->isNumber())
      return error(callLoc, displayName +
                                "() operands must be numbers or "
                                "blocks, got " +
                                describe(*operand));
  auto common = commonShape(operands, (displayName + "()").str(), callLoc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Value ptr =
      asBlock ? broadcastTo(pointer.value, shape, loc) : pointer.value;
  mlir::Type pointee =
      cast<mlir::tile::PointerType>(getElementType(ptr)).getPointeeType();
  bool isUnsigned = pointer.isUnsigned;

  mlir::tile::MemSemantic sem = mlir::tile::MemSemantic::acq_rel;
  mlir::tile::MemScope scope = mlir::tile::MemScope::gpu;
  for (size_t index : {semIndex, scopeIndex}) {
    if (!args.present[index] || args.values[index].kind == PyValue::Kind::None)
      continue;
    const PyValue &v = args.values[index];
    bool ok = v.kind == PyValue::Kind::String;
    if (ok && index == semIndex) {
      auto parsed = mlir::tile::symbolizeMemSemantic(v.text);
      ok = parsed.has_value();
      if (ok)
        sem = *parsed;
    } else if (ok) {
      auto parsed = mlir::tile::symbolizeMemScope(v.text);
      ok = parsed.has_value();
      if (ok)
        scope = *parsed;
    }
    if (!ok)
      return error(args.locs[index],
                   displayName + "() " + (index == semIndex ? "sem" : "scope") +
                       " must be one of " +
                       (index == semIndex
                            ? "'relaxed', 'acquire', 'release', 'acq_rel'"
                            : "'gpu', 'cta', 'sys'") +
                       "; got " +
                       (v.kind == PyValue::Kind::String ? "'" + v.text + "'"
                                                        : describe(v)));
  }
  mlir::Value val =
      prepareOperand(args.values[isCas ? 2 : 1], pointee, asBlock, shape, loc);
  mlir::Type resultType = mlir::tile::getPointeeShapedType(ptr.getType());
  if (isCas) {
    mlir::Value cmp =
        prepareOperand(args.values[1], pointee, asBlock, shape, loc);
    return PyValue::runtime(
        mlir::tile::AtomicCASOp::create(builder, loc, resultType, ptr, cmp, val,
                                        sem, scope),
        isUnsigned);
  }
  mlir::Value maskValue;
  if (mask)
    maskValue = prepareOperand(*mask, builder.getI1Type(), asBlock, shape, loc);
  bool floatPointee = isFloat(pointee);
  std::optional<mlir::tile::RMWKind> kind;
  if (name == "atomic_add")
    kind = floatPointee ? mlir::tile::RMWKind::fadd : mlir::tile::RMWKind::add;
  else if (name == "atomic_max")
    kind = floatPointee ? mlir::tile::RMWKind::fmax
           : isUnsigned ? mlir::tile::RMWKind::umax
                        : mlir::tile::RMWKind::max;
  else if (name == "atomic_min")
    kind = floatPointee ? mlir::tile::RMWKind::fmin
           : isUnsigned ? mlir::tile::RMWKind::umin
                        : mlir::tile::RMWKind::min;
  else if (name == "atomic_xchg")
    kind = mlir::tile::RMWKind::xchg;
  else if (!floatPointee)
    kind = name == "atomic_and"  ? mlir::tile::RMWKind::and_
           : name == "atomic_or" ? mlir::tile::RMWKind::or_
                                 : mlir::tile::RMWKind::xor_;
  if (!kind)
    return error(callLoc, displayName + "() needs integer pointees, got " +
                              describe(pointer));
  return PyValue::runtime(
      mlir::tile::AtomicRMWOp::create(builder, loc, resultType, *kind, ptr, val,
                                      maskValue, sem, scope),
      isUnsigned);
}

KernelEmitter::Result
KernelEmitter::emitLanguageCall(const ast::CallExpr &call, llvm::StringRef name,
                                llvm::StringRef displayName,
                                const PyValue *self) {
  const ast::Location &callLoc = call.getLoc();
  auto evaluate = [&](llvm::ArrayRef<BuiltinParam> params,
                      int variadicFrom = -1) {
    return evaluateArguments(call, displayName, params, self, variadicFrom);
  };
  if (!self) {
    if (name == "program_id")
      return emitProgramIdLike(call, displayName, /*numPrograms=*/false);
    if (name == "num_programs")
      return emitProgramIdLike(call, displayName, /*numPrograms=*/true);
    if (name == "arange")
      return emitArange(call, displayName);
    if (name == "load")
      return emitLoad(call, displayName);
    if (name == "store")
      return emitStore(call, displayName);
  }
  if (name == "constexpr") {
    auto args = evaluate({{"value", true}});
    if (!args)
      return std::nullopt;
    if (args->values[0].isRuntime())
      return error(args->locs[0], displayName +
                                      "() needs a compile-time value, got " +
                                      describe(args->values[0]));
    return args->values[0];
  }
  if (name == "pointer_type") {
    auto args = evaluate({{"element_ty", true}, {"address_space", false}});
    if (!args)
      return std::nullopt;
    if (args->values[0].kind != PyValue::Kind::DType)
      return error(args->locs[0], displayName + "() needs a dtype, got " +
                                      describe(args->values[0]));
    return PyValue::dtype(
        mlir::tile::PointerType::get(&context, args->values[0].type),
        args->values[0].isUnsigned);
  }

  // Creation.
  if (name == "zeros" || name == "full") {
    bool isFull = name == "full";
    auto args =
        isFull ? evaluate({{"shape", true}, {"value", true}, {"dtype", true}})
               : evaluate({{"shape", true}, {"dtype", true}});
    if (!args)
      return std::nullopt;
    std::optional<llvm::SmallVector<int64_t>> shape =
        toShape(args->values[0], args->locs[0], displayName);
    if (!shape)
      return std::nullopt;
    const PyValue &dtype = args->values[isFull ? 2 : 1];
    if (dtype.kind != PyValue::Kind::DType)
      return error(args->locs[isFull ? 2 : 1],
                   displayName + "() 'dtype' must be a dtype (" + kDTypeNames +
                       "), got " + describe(dtype));
    PyValue value = isFull ? args->values[1] : PyValue::integer(0);
    if (!value.isRuntime() && !value.isNumber())
      return error(args->locs[1], displayName +
                                      "() 'value' must be a number, got " +
                                      describe(value));
    if (value.isRuntime() && isBlock(value.value))
      return error(args->locs[1], displayName +
                                      "() 'value' must be a scalar, got " +
                                      describe(value));
    if (!requireIR(callLoc, displayName))
      return std::nullopt;
    return PyValue::runtime(
        makeFull(*shape, dtype.type, value, getLoc(callLoc)), dtype.isUnsigned);
  }
  if (name == "zeros_like") {
    auto args = evaluate({{"input", true}});
    if (!args)
      return std::nullopt;
    const PyValue &input = args->values[0];
    if (!input.isRuntime())
      return error(args->locs[0],
                   displayName + "() needs a block, got " + describe(input));
    return PyValue::runtime(zeroLike(input.value.getType(), getLoc(callLoc)),
                            input.isUnsigned);
  }
  if (name == "cast" || name == "to") {
    auto args = evaluate({{"input", true},
                          {"dtype", true},
                          {"fp_downcast_rounding", false},
                          {"bitcast", false}});
    if (!args)
      return std::nullopt;
    bool bitcast = args->present[3] && isTruthy(args->values[3]);
    if (args->present[2] && args->values[2].kind != PyValue::Kind::None)
      return error(args->locs[2], displayName +
                                      "() fp_downcast_rounding is not "
                                      "supported (conversions round to "
                                      "nearest even)");
    return emitCast(args->values[0], args->values[1], bitcast, callLoc,
                    displayName);
  }

  // Elementwise math.
  if (name == "where") {
    auto args = evaluate({{"condition", true}, {"x", true}, {"y", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "maximum" || name == "minimum") {
    auto args = evaluate({{"x", true}, {"y", true}, {"propagate_nan", false}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "clamp") {
    auto args = evaluate(
        {{"x", true}, {"min", true}, {"max", true}, {"propagate_nan", false}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "fma") {
    auto args = evaluate({{"x", true}, {"y", true}, {"z", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "cdiv") {
    auto args = evaluate({{"x", true}, {"div", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "fdiv") {
    auto args = evaluate({{"x", true}, {"y", true}, {"ieee_rounding", false}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "div_rn" || name == "umulhi") {
    auto args = evaluate({{"x", true}, {"y", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  static const char *const unaryMath[] = {
      "exp", "exp2", "log", "log2", "sqrt",  "sqrt_rn", "rsqrt",
      "abs", "sin",  "cos", "erf",  "floor", "ceil",    "sigmoid"};
  if (llvm::is_contained(unaryMath, name)) {
    auto args = evaluate({{"x", true}});
    return args ? emitMath(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "softmax") {
    // Triton's standard library: exp(x - max) / sum, along the last axis.
    auto args = evaluate({{"x", true}, {"ieee_rounding", false}});
    if (!args)
      return std::nullopt;
    const PyValue &x = args->values[0];
    if (!x.isRuntime() || !isBlock(x.value))
      return error(args->locs[0],
                   displayName + "() needs a block, got " + describe(x));
    int64_t last = getShape(x.value).size() - 1;
    CallArgs reduceArgs;
    reduceArgs.values = {x, PyValue::integer(last), PyValue::none(),
                         PyValue::none(), PyValue::boolean(true)};
    reduceArgs.present = {true, true, false, false, true};
    reduceArgs.locs.assign(5, callLoc);
    Result maximum = emitReduction("max", reduceArgs, call, "tl.max");
    if (!maximum)
      return std::nullopt;
    Result shifted = emitBinary(ast::BinaryOp::Sub, x, *maximum, callLoc);
    if (!shifted)
      return std::nullopt;
    CallArgs expArgs;
    expArgs.values = {*shifted};
    expArgs.present = {true};
    expArgs.locs = {callLoc};
    Result numerator = emitMath("exp", expArgs, call, "tl.exp");
    if (!numerator)
      return std::nullopt;
    reduceArgs.values = {*numerator, PyValue::integer(last),
                         PyValue::boolean(true), PyValue::none()};
    reduceArgs.present = {true, true, true, false};
    reduceArgs.locs.assign(4, callLoc);
    Result denominator = emitReduction("sum", reduceArgs, call, "tl.sum");
    if (!denominator)
      return std::nullopt;
    return emitBinary(ast::BinaryOp::Div, *numerator, *denominator, callLoc);
  }

  // Shapes.
  if (name == "reshape") {
    auto args =
        evaluate({{"input", true}, {"shape", true}, {"can_reorder", false}},
                 /*variadicFrom=*/1);
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "view" || name == "broadcast_to") {
    auto args = evaluate({{"input", true}, {"shape", true}}, 1);
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "trans" || name == "permute") {
    auto args = evaluate({{"input", true}, {"dims", name == "permute"}}, 1);
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "expand_dims") {
    auto args = evaluate({{"input", true}, {"axis", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "ravel") {
    auto args = evaluate({{"x", true}, {"can_reorder", false}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "broadcast") {
    auto args = evaluate({{"input", true}, {"other", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "cat") {
    auto args =
        evaluate({{"input", true}, {"other", true}, {"can_reorder", false}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "join") {
    auto args = evaluate({{"a", true}, {"b", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }
  if (name == "split") {
    auto args = evaluate({{"a", true}});
    return args ? emitShapeOp(name, *args, call, displayName) : std::nullopt;
  }

  // Matrix multiplication.
  if (name == "dot") {
    auto args = evaluate({{"input", true},
                          {"other", true},
                          {"acc", false},
                          {"input_precision", false},
                          {"allow_tf32", false},
                          {"max_num_imprecise_acc", false},
                          {"out_dtype", false}});
    if (!args || !requireIR(callLoc, displayName))
      return std::nullopt;
    return emitDot(*args, call, displayName);
  }

  // Reductions: one signature per function, one emitter for all.
  static const llvm::StringMap<std::vector<BuiltinParam>> reductionParams = {
      {"sum",
       {{"input", true},
        {"axis", false},
        {"keep_dims", false},
        {"dtype", false}}},
      {"max",
       {{"input", true},
        {"axis", false},
        {"return_indices", false},
        {"return_indices_tie_break_left", false},
        {"keep_dims", false}}},
      {"min",
       {{"input", true},
        {"axis", false},
        {"return_indices", false},
        {"return_indices_tie_break_left", false},
        {"keep_dims", false}}},
      {"argmax",
       {{"input", true},
        {"axis", true},
        {"tie_break_left", false},
        {"keep_dims", false}}},
      {"argmin",
       {{"input", true},
        {"axis", true},
        {"tie_break_left", false},
        {"keep_dims", false}}},
      {"xor_sum", {{"input", true}, {"axis", false}, {"keep_dims", false}}},
      {"reduce",
       {{"input", true},
        {"axis", true},
        {"combine_fn", true},
        {"keep_dims", false}}}};
  if (auto it = reductionParams.find(name); it != reductionParams.end()) {
    auto args = evaluate(it->second);
    return args && requireIR(callLoc, displayName)
               ? emitReduction(name, *args, call, displayName)
               : std::nullopt;
  }

  // Scans.
  if (name == "cumsum" || name == "cumprod") {
    auto args = evaluate({{"input", true},
                          {"axis", false},
                          {"reverse", false},
                          {"dtype", false}});
    if (name == "cumprod" && args && args->present[3])
      return error(args->locs[3], displayName +
                                      "() got an unexpected keyword argument "
                                      "'dtype'; valid: input, axis, reverse");
    return args && requireIR(callLoc, displayName)
               ? emitScan(name, *args, call, displayName)
               : std::nullopt;
  }
  if (name == "associative_scan") {
    auto args = evaluate({{"input", true},
                          {"axis", true},
                          {"combine_fn", true},
                          {"reverse", false}});
    return args && requireIR(callLoc, displayName)
               ? emitScan(name, *args, call, displayName)
               : std::nullopt;
  }

  // Atomics.
  if (name == "atomic_cas") {
    auto args = evaluate({{"pointer", true},
                          {"cmp", true},
                          {"val", true},
                          {"sem", false},
                          {"scope", false}});
    return args && requireIR(callLoc, displayName)
               ? emitAtomic(name, *args, call, displayName)
               : std::nullopt;
  }
  if (name == "atomic_add" || name == "atomic_max" || name == "atomic_min" ||
      name == "atomic_and" || name == "atomic_or" || name == "atomic_xor" ||
      name == "atomic_xchg") {
    auto args = evaluate({{"pointer", true},
                          {"val", true},
                          {"mask", false},
                          {"sem", false},
                          {"scope", false}});
    return args && requireIR(callLoc, displayName)
               ? emitAtomic(name, *args, call, displayName)
               : std::nullopt;
  }

  // Compiler hints.
  if (name == "multiple_of" || name == "max_contiguous" ||
      name == "max_constancy") {
    auto args = evaluate({{"input", true}, {"values", true}});
    if (!args)
      return std::nullopt;
    const PyValue &input = args->values[0];
    if (!input.isRuntime())
      return error(args->locs[0], displayName +
                                      "() needs a runtime value, "
                                      "got " +
                                      describe(input));
    llvm::SmallVector<int32_t> values;
    llvm::SmallVector<PyValue> given;
    if (args->values[1].kind == PyValue::Kind::Tuple)
      given.append(args->values[1].elements.begin(),
                   args->values[1].elements.end());
    else
      given.push_back(args->values[1]);
    for (const PyValue &v : given) {
      if (v.kind != PyValue::Kind::Int || !llvm::isInt<32>(v.intValue) ||
          v.intValue <= 0)
        return error(args->locs[1], displayName +
                                        "() values must be positive "
                                        "compile-time integers, got " +
                                        describe(v));
      values.push_back(v.intValue);
    }
    size_t rank = std::max<size_t>(1, getShape(input.value).size());
    if (values.size() != rank)
      return error(args->locs[1],
                   displayName + "() needs " + llvm::Twine(rank) +
                       " value(s), one per dimension of " + describe(input) +
                       "; got " + llvm::Twine(values.size()));
    llvm::StringRef attrName =
        name == "multiple_of"      ? mlir::tile::kHintDivisibilityAttr
        : name == "max_contiguous" ? mlir::tile::kHintContiguityAttr
                                   : mlir::tile::kHintConstancyAttr;
    if (mlir::Operation *op = input.value.getDefiningOp()) {
      op->setAttr(attrName, builder.getDenseI32ArrayAttr(values));
    } else if (auto argument = dyn_cast<mlir::BlockArgument>(input.value)) {
      // A kernel argument: divisibility becomes the argument attribute the
      // contiguity analysis reads, as a launch specialization would.
      auto function =
          dyn_cast<mlir::func::FuncOp>(argument.getOwner()->getParentOp());
      if (function && name == "multiple_of")
        function.setArgAttr(argument.getArgNumber(),
                            mlir::tile::kDivisibilityAttr,
                            builder.getI32IntegerAttr(values[0]));
    }
    return input;
  }
  if (name == "assume") {
    auto args = evaluate({{"cond", true}});
    if (!args)
      return std::nullopt;
    // Only an optimization hint; Tile has no use for it yet.
    return PyValue::none();
  }

  // Debugging.
  if (name == "static_print") {
    std::string text;
    for (const ast::ExprPtr &arg : call.getArgs()) {
      Result value = emitExpr(*arg);
      if (!value)
        return std::nullopt;
      if (!text.empty())
        text += " ";
      if (value->kind == PyValue::Kind::String)
        text += value->text;
      else if (value->kind == PyValue::Kind::Int)
        text += std::to_string(value->intValue);
      else if (value->kind == PyValue::Kind::Bool)
        text += value->boolValue ? "True" : "False";
      else if (value->kind == PyValue::Kind::Float)
        text += std::to_string(value->floatValue);
      else
        text += describe(*value);
    }
    llvm::errs() << text << "\n";
    return PyValue::none();
  }
  if (name == "static_assert") {
    auto args = evaluate({{"cond", true}, {"msg", false}});
    if (!args)
      return std::nullopt;
    if (!args->values[0].isConstexpr())
      return error(args->locs[0], displayName +
                                      "() needs a compile-time condition, "
                                      "got " +
                                      describe(args->values[0]));
    if (!isTruthy(args->values[0]))
      return error(callLoc, "static_assert failed" +
                                (args->values[1].kind == PyValue::Kind::String
                                     ? ": " + args->values[1].text
                                     : std::string()));
    return PyValue::none();
  }
  if (name == "device_print") {
    if (!requireIR(callLoc, displayName))
      return std::nullopt;
    std::string prefix;
    llvm::SmallVector<mlir::Value> values;
    llvm::SmallVector<int32_t> isSigned;
    bool hex = false;
    for (const ast::Keyword &keyword : call.getKeywords()) {
      if (keyword.name != "hex")
        return error(keyword.loc, displayName +
                                      "() got an unexpected keyword argument "
                                      "'" +
                                      keyword.name + "'; valid: hex");
      Result value = emitExpr(*keyword.value);
      if (!value)
        return std::nullopt;
      hex = isTruthy(*value);
    }
    for (auto [index, arg] : llvm::enumerate(call.getArgs())) {
      Result value = emitExpr(*arg);
      if (!value)
        return std::nullopt;
      if (index == 0 && value->kind == PyValue::Kind::String) {
        prefix = value->text;
        continue;
      }
      std::optional<PyValue> runtimeValue = toRuntime(*value, arg->getLoc());
      if (!runtimeValue)
        return std::nullopt;
      values.push_back(runtimeValue->value);
      isSigned.push_back(!runtimeValue->isUnsigned);
    }
    mlir::tile::PrintOp::create(builder, getLoc(callLoc), prefix, hex, values,
                                isSigned);
    return PyValue::none();
  }
  if (name == "device_assert") {
    auto args = evaluate({{"cond", true}, {"msg", false}, {"mask", false}});
    if (!args)
      return std::nullopt;
    const PyValue &cond = args->values[0];
    std::string message = args->values[1].kind == PyValue::Kind::String
                              ? args->values[1].text
                              : std::string();
    if (!cond.isRuntime()) {
      if (!isTruthy(cond))
        return error(callLoc, "device_assert fails at compile time" +
                                  (message.empty() ? "" : ": " + message));
      return PyValue::none();
    }
    mlir::Location loc = getLoc(callLoc);
    mlir::Value condition =
        castValue(cond.value, cond.isUnsigned, builder.getI1Type(), false, loc);
    mlir::tile::AssertOp::create(builder, loc, condition,
                                 builder.getStringAttr(message));
    return PyValue::none();
  }
  if (name == "debug_barrier") {
    auto args = evaluate({});
    if (!args || !requireIR(callLoc, displayName))
      return std::nullopt;
    mlir::tile::DebugBarrierOp::create(builder, getLoc(callLoc));
    return PyValue::none();
  }
  if (name == "static_range" || name == "range")
    return error(callLoc, displayName + "() can only be used as the iterable "
                                        "of a 'for' loop");
  return error(callLoc, displayName + "() is not supported");
}

//===----------------------------------------------------------------------===//
// Operators
//===----------------------------------------------------------------------===//

std::nullopt_t KernelEmitter::unsupportedOperands(llvm::StringRef op,
                                                  const PyValue &lhs,
                                                  const PyValue &rhs,
                                                  const ast::Location &loc) {
  return error(loc, "unsupported operand types for " + op + ": '" +
                        describe(lhs) + "' and '" + describe(rhs) + "'");
}

KernelEmitter::Result KernelEmitter::emitBinary(ast::BinaryOp op,
                                                const PyValue &lhs,
                                                const PyValue &rhs,
                                                const ast::Location &loc) {
  llvm::StringRef opName = ast::spell(op);
  bool lhsRuntime = lhs.isRuntime(), rhsRuntime = rhs.isRuntime();
  if (!lhsRuntime && !rhsRuntime)
    return foldBinary(op, lhs, rhs, loc);
  // A runtime value meets something that is neither a runtime value nor a
  // number (a string, None, a module...).
  if ((!lhsRuntime && !lhs.isNumber()) || (!rhsRuntime && !rhs.isNumber()))
    return unsupportedOperands(opName, lhs, rhs, loc);

  if ((lhsRuntime && isPointer(getElementType(lhs.value))) ||
      (rhsRuntime && isPointer(getElementType(rhs.value))))
    return emitPointerArithmetic(op, lhs, rhs, loc);

  if (op == ast::BinaryOp::Pow)
    return error(loc, "'**' on runtime values is not supported (Triton has "
                      "no power operator on blocks)");
  if (op == ast::BinaryOp::MatMul) {
    // `a @ b` is tl.dot(a, b), as Triton's tensor.__matmul__.
    CallArgs args;
    args.values = {lhs, rhs};
    args.values.append(5, PyValue::none());
    args.present = {true, true, false, false, false, false, false};
    args.locs.assign(7, loc);
    ast::CallExpr fake(loc, nullptr, {}, {});
    return emitDot(args, fake, "'@'");
  }

  // Shapes broadcast as in Triton (a scalar meets any block).
  auto common = commonShape({&lhs, &rhs}, "'" + opName.str() + "'", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;

  std::optional<mlir::Type> computeType = getComputationType(op, lhs, rhs);
  if (!computeType)
    return unsupportedOperands(opName, lhs, rhs, loc);
  mlir::Type elementType = *computeType;
  bool isIntOp = isInteger(elementType);
  bool lhsUnsigned =
      lhsRuntime && lhs.isUnsigned && isInteger(getElementType(lhs.value));
  bool rhsUnsigned =
      rhsRuntime && rhs.isUnsigned && isInteger(getElementType(rhs.value));
  // Triton's integer promotion: an unsigned operand at least as wide as the
  // signed one makes the result unsigned.
  bool isUnsigned = false;
  if (isIntOp && !isBool(elementType)) {
    if (lhsRuntime && rhsRuntime && lhsUnsigned != rhsUnsigned) {
      const PyValue &u = lhsUnsigned ? lhs : rhs;
      const PyValue &sgn = lhsUnsigned ? rhs : lhs;
      isUnsigned = getElementType(u.value).getIntOrFloatBitWidth() >=
                   getElementType(sgn.value).getIntOrFloatBitWidth();
      if (op == ast::BinaryOp::Div || op == ast::BinaryOp::FloorDiv ||
          op == ast::BinaryOp::Mod)
        return error(loc, "cannot use '" + opName + "' with " + describe(lhs) +
                              " and " + describe(rhs) +
                              " because they have different signedness; "
                              "cast them to the same signedness");
    } else {
      isUnsigned = lhsUnsigned || rhsUnsigned;
    }
  }
  switch (op) {
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::BitAnd:
  case ast::BinaryOp::BitOr:
  case ast::BinaryOp::BitXor:
  case ast::BinaryOp::LShift:
  case ast::BinaryOp::RShift:
    // Triton defines these on integers (and bools) only.
    if (!isIntOp)
      return unsupportedOperands(opName, lhs, rhs, loc);
    break;
  case ast::BinaryOp::Div:
    // True division of integers happens in fp32, as in Triton.
    if (isIntOp) {
      elementType = builder.getF32Type();
      isIntOp = false;
    }
    break;
  default:
    break;
  }

  mlir::Location irLoc = getLoc(loc);
  mlir::Value a = prepareOperand(lhs, elementType, asBlock, shape, irLoc);
  mlir::Value b = prepareOperand(rhs, elementType, asBlock, shape, irLoc);
  mlir::Value result;
  switch (op) {
  case ast::BinaryOp::FloorDiv:
    if (isUnsigned)
      return PyValue::runtime(arith::DivUIOp::create(builder, irLoc, a, b),
                              true);
    break;
  case ast::BinaryOp::Mod:
    if (isUnsigned)
      return PyValue::runtime(arith::RemUIOp::create(builder, irLoc, a, b),
                              true);
    break;
  case ast::BinaryOp::RShift:
    if (isUnsigned)
      return PyValue::runtime(arith::ShRUIOp::create(builder, irLoc, a, b),
                              true);
    break;
  default:
    break;
  }
  switch (op) {
  case ast::BinaryOp::Add:
    result = isIntOp ? mlir::Value(arith::AddIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::AddFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::Sub:
    result = isIntOp ? mlir::Value(arith::SubIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::SubFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::Mul:
    result = isIntOp ? mlir::Value(arith::MulIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::MulFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::Div:
    result = arith::DivFOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::FloorDiv:
    // Triton lowers `//` on integers to a truncating signed division.
    result = arith::DivSIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::Mod:
    result = isIntOp ? mlir::Value(arith::RemSIOp::create(builder, irLoc, a, b))
                     : mlir::Value(arith::RemFOp::create(builder, irLoc, a, b));
    break;
  case ast::BinaryOp::BitAnd:
    result = arith::AndIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::BitOr:
    result = arith::OrIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::BitXor:
    result = arith::XOrIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::LShift:
    result = arith::ShLIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::RShift:
    result = arith::ShRSIOp::create(builder, irLoc, a, b);
    break;
  case ast::BinaryOp::Pow:
  case ast::BinaryOp::MatMul:
    return std::nullopt; // Rejected above.
  }
  return PyValue::runtime(result, isUnsigned);
}

KernelEmitter::Result
KernelEmitter::emitPointerArithmetic(ast::BinaryOp op, const PyValue &lhs,
                                     const PyValue &rhs,
                                     const ast::Location &loc) {
  bool lhsIsPointer = lhs.isRuntime() && isPointer(getElementType(lhs.value));
  bool rhsIsPointer = rhs.isRuntime() && isPointer(getElementType(rhs.value));
  // Only pointer + integer, integer + pointer and pointer - integer.
  bool valid =
      lhsIsPointer != rhsIsPointer &&
      (op == ast::BinaryOp::Add || (op == ast::BinaryOp::Sub && lhsIsPointer));
  const PyValue &pointer = lhsIsPointer ? lhs : rhs;
  const PyValue &offset = lhsIsPointer ? rhs : lhs;
  if (valid) {
    if (offset.isRuntime())
      valid = isInteger(getElementType(offset.value));
    else
      valid = offset.kind == PyValue::Kind::Int ||
              offset.kind == PyValue::Kind::Bool;
  }
  if (!valid)
    return unsupportedOperands(ast::spell(op), lhs, rhs, loc);

  mlir::Location irLoc = getLoc(loc);
  mlir::Value ptr = pointer.value;
  mlir::Value off;
  if (offset.isRuntime()) {
    off = offset.value;
    if (isBool(getElementType(off)))
      off = convertElementType(off, builder.getI32Type(), irLoc);
    if (op == ast::BinaryOp::Sub)
      off = arith::SubIOp::create(builder, irLoc,
                                  zeroLike(off.getType(), irLoc), off);
  } else {
    int64_t value =
        offset.kind == PyValue::Kind::Bool ? offset.boolValue : offset.intValue;
    if (op == ast::BinaryOp::Sub) {
      if (value == std::numeric_limits<int64_t>::min())
        return error(loc, "pointer offset overflows int64");
      value = -value;
    }
    PyValue negated = PyValue::integer(value);
    off = materialize(negated, getDefaultType(negated), /*asBlock=*/false, {},
                      irLoc);
  }
  // Pointers and offsets broadcast as other operands do.
  if (isBlock(ptr) || isBlock(off)) {
    auto shape = broadcastShapes(getShape(ptr), getShape(off));
    if (!shape)
      return error(loc, "incompatible shapes " + formatShape(getShape(ptr)) +
                            " and " + formatShape(getShape(off)) +
                            " for pointer '" + ast::spell(op) + "'");
    ptr = broadcastTo(ptr, *shape, irLoc);
    off = broadcastTo(off, *shape, irLoc);
  }
  return PyValue::runtime(
      mlir::tile::AddPtrOp::create(builder, irLoc, ptr.getType(), ptr, off),
      pointer.isUnsigned);
}

KernelEmitter::Result KernelEmitter::emitUnary(const ast::UnaryOpExpr &unary) {
  Result operandOr = emitExpr(unary.getOperand());
  if (!operandOr)
    return std::nullopt;
  const PyValue &operand = *operandOr;
  ast::UnaryOp op = unary.getOp();
  const ast::Location &loc = unary.getLoc();
  auto badOperand = [&] {
    return error(loc, "bad operand type for unary " + ast::spell(op) + ": '" +
                          describe(operand) + "'");
  };

  if (!operand.isRuntime()) {
    if (op == ast::UnaryOp::Not) {
      if (!operand.isConstexpr())
        return badOperand();
      return PyValue::boolean(!isTruthy(operand));
    }
    if (!operand.isNumber())
      return badOperand();
    int64_t intValue = operand.kind == PyValue::Kind::Bool ? operand.boolValue
                                                           : operand.intValue;
    bool isFloatValue = operand.kind == PyValue::Kind::Float;
    switch (op) {
    case ast::UnaryOp::Plus:
      return isFloatValue ? operand : PyValue::integer(intValue);
    case ast::UnaryOp::Minus:
      if (isFloatValue)
        return PyValue::floating(-operand.floatValue);
      if (intValue == std::numeric_limits<int64_t>::min())
        return error(loc, "integer overflow in constant expression");
      return PyValue::integer(-intValue);
    case ast::UnaryOp::Invert:
      if (isFloatValue)
        return badOperand();
      return PyValue::integer(~intValue);
    case ast::UnaryOp::Not:
      break;
    }
    return std::nullopt;
  }

  mlir::Value value = operand.value;
  mlir::Type elementType = getElementType(value);
  if (isPointer(elementType))
    return badOperand();
  mlir::Location irLoc = getLoc(loc);
  switch (op) {
  case ast::UnaryOp::Plus:
    return operand;
  case ast::UnaryOp::Minus:
    if (isFloat(elementType))
      return PyValue::runtime(arith::NegFOp::create(builder, irLoc, value));
    return PyValue::runtime(arith::SubIOp::create(
        builder, irLoc, zeroLike(value.getType(), irLoc), value));
  case ast::UnaryOp::Invert: {
    if (!isInteger(elementType))
      return badOperand();
    mlir::Value allOnes = materialize(PyValue::integer(-1), elementType,
                                      isBlock(value), getShape(value), irLoc);
    return PyValue::runtime(
        arith::XOrIOp::create(builder, irLoc, value, allOnes));
  }
  case ast::UnaryOp::Not: {
    // Logical negation: x == 0.
    mlir::Value zero = zeroLike(value.getType(), irLoc);
    if (isFloat(elementType))
      return PyValue::runtime(arith::CmpFOp::create(
          builder, irLoc, arith::CmpFPredicate::OEQ, value, zero));
    return PyValue::runtime(arith::CmpIOp::create(
        builder, irLoc, arith::CmpIPredicate::eq, value, zero));
  }
  }
  return std::nullopt;
}

KernelEmitter::Result KernelEmitter::emitBoolOp(const ast::BoolOpExpr &boolOp) {
  // Python semantics on compile-time values: the first operand that decides
  // the result is the result, and the rest is not evaluated.
  bool isAnd = boolOp.getOp() == ast::BoolOp::And;
  const ast::ExprList &values = boolOp.getValues();
  llvm::SmallVector<PyValue> operands;
  size_t index = 0;
  for (; index < values.size(); ++index) {
    Result operand = emitExpr(*values[index]);
    if (!operand)
      return std::nullopt;
    if (operand->isRuntime()) {
      operands.push_back(*operand);
      ++index;
      break;
    }
    if (isTruthy(*operand) != isAnd || index + 1 == values.size())
      return operand;
  }
  // On runtime values Triton's `and`/`or` are tl.logical_and/logical_or:
  // the remaining operands are all evaluated and converted to bool.
  for (; index < values.size(); ++index) {
    Result operand = emitExpr(*values[index]);
    if (!operand)
      return std::nullopt;
    if (!operand->isRuntime() && !operand->isNumber())
      return error(values[index]->getLoc(),
                   "'" + ast::spell(boolOp.getOp()) +
                       "' needs numbers or blocks, got " + describe(*operand));
    operands.push_back(*operand);
  }
  llvm::SmallVector<const PyValue *> pointers;
  for (const PyValue &operand : operands)
    pointers.push_back(&operand);
  auto common = commonShape(
      pointers, "'" + ast::spell(boolOp.getOp()).str() + "'", boolOp.getLoc());
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Location loc = getLoc(boolOp.getLoc());
  mlir::Value combined;
  for (const PyValue &operand : operands) {
    mlir::Value value;
    if (operand.isRuntime())
      value = broadcastTo(castValue(operand.value, operand.isUnsigned,
                                    builder.getI1Type(), false, loc),
                          asBlock ? llvm::ArrayRef<int64_t>(shape)
                                  : llvm::ArrayRef<int64_t>(),
                          loc);
    else
      value = materialize(PyValue::boolean(isTruthy(operand)),
                          builder.getI1Type(), asBlock, shape, loc);
    if (!combined)
      combined = value;
    else if (isAnd)
      combined = arith::AndIOp::create(builder, loc, combined, value);
    else
      combined = arith::OrIOp::create(builder, loc, combined, value);
  }
  return PyValue::runtime(combined);
}

KernelEmitter::Result
KernelEmitter::emitCompare(const ast::CompareExpr &compare) {
  Result left = emitExpr(compare.getLeft());
  if (!left)
    return std::nullopt;
  llvm::ArrayRef<ast::CompareOp> ops = compare.getOps();
  if (ops.size() == 1) {
    Result right = emitExpr(*compare.getComparators().front());
    if (!right)
      return std::nullopt;
    if (!left->isRuntime() && !right->isRuntime())
      return foldCompare(ops.front(), *left, *right, compare.getLoc());
    return emitRuntimeCompare(ops.front(), *left, *right, compare.getLoc());
  }
  // Chained comparisons: a < b < c is (a < b) and (b < c).
  PyValue current = *left;
  for (auto [op, comparatorExpr] : llvm::zip(ops, compare.getComparators())) {
    Result next = emitExpr(*comparatorExpr);
    if (!next)
      return std::nullopt;
    if (current.isRuntime() || next->isRuntime())
      return error(compare.getLoc(), "chained comparisons of runtime values "
                                     "are not supported yet");
    Result holds = foldCompare(op, current, *next, compare.getLoc());
    if (!holds)
      return std::nullopt;
    if (!holds->boolValue)
      return PyValue::boolean(false);
    current = *next;
  }
  return PyValue::boolean(true);
}

KernelEmitter::Result
KernelEmitter::emitRuntimeCompare(ast::CompareOp op, const PyValue &lhs,
                                  const PyValue &rhs,
                                  const ast::Location &loc) {
  llvm::StringRef opName = ast::spell(op);
  switch (op) {
  case ast::CompareOp::Is:
  case ast::CompareOp::IsNot:
  case ast::CompareOp::In:
  case ast::CompareOp::NotIn:
    return error(loc, "'" + opName +
                          "' on runtime values is not supported "
                          "yet");
  default:
    break;
  }
  if ((!lhs.isRuntime() && !lhs.isNumber()) ||
      (!rhs.isRuntime() && !rhs.isNumber()))
    return unsupportedOperands(opName, lhs, rhs, loc);
  if ((lhs.isRuntime() && isPointer(getElementType(lhs.value))) ||
      (rhs.isRuntime() && isPointer(getElementType(rhs.value))))
    return error(loc, "comparison of pointers is not supported yet");

  auto common = commonShape({&lhs, &rhs}, "'" + opName.str() + "'", loc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  bool anyUnsigned = (lhs.isRuntime() && lhs.isUnsigned) ||
                     (rhs.isRuntime() && rhs.isUnsigned);

  std::optional<mlir::Type> computeType =
      getComputationType(ast::BinaryOp::Add, lhs, rhs);
  if (!computeType)
    return unsupportedOperands(opName, lhs, rhs, loc);
  mlir::Location irLoc = getLoc(loc);
  mlir::Value a = prepareOperand(lhs, *computeType, asBlock, shape, irLoc);
  mlir::Value b = prepareOperand(rhs, *computeType, asBlock, shape, irLoc);

  if (isFloat(*computeType)) {
    // Ordered predicates, except != which must hold for NaN (as in Triton).
    arith::CmpFPredicate predicate;
    switch (op) {
    case ast::CompareOp::Lt:
      predicate = arith::CmpFPredicate::OLT;
      break;
    case ast::CompareOp::LtE:
      predicate = arith::CmpFPredicate::OLE;
      break;
    case ast::CompareOp::Gt:
      predicate = arith::CmpFPredicate::OGT;
      break;
    case ast::CompareOp::GtE:
      predicate = arith::CmpFPredicate::OGE;
      break;
    case ast::CompareOp::Eq:
      predicate = arith::CmpFPredicate::OEQ;
      break;
    default:
      predicate = arith::CmpFPredicate::UNE;
      break;
    }
    return PyValue::runtime(
        arith::CmpFOp::create(builder, irLoc, predicate, a, b));
  }
  // Bools and unsigned integers compare unsigned; others signed.
  bool isUnsigned = isBool(*computeType) || anyUnsigned;
  arith::CmpIPredicate predicate;
  switch (op) {
  case ast::CompareOp::Lt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    break;
  case ast::CompareOp::LtE:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ule : arith::CmpIPredicate::sle;
    break;
  case ast::CompareOp::Gt:
    predicate =
        isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
    break;
  case ast::CompareOp::GtE:
    predicate =
        isUnsigned ? arith::CmpIPredicate::uge : arith::CmpIPredicate::sge;
    break;
  case ast::CompareOp::Eq:
    predicate = arith::CmpIPredicate::eq;
    break;
  default:
    predicate = arith::CmpIPredicate::ne;
    break;
  }
  return PyValue::runtime(
      arith::CmpIOp::create(builder, irLoc, predicate, a, b));
}

//===----------------------------------------------------------------------===//
// Compile-time folding
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::foldBinary(ast::BinaryOp op,
                                                const PyValue &lhs,
                                                const PyValue &rhs,
                                                const ast::Location &loc) {
  llvm::StringRef opName = ast::spell(op);
  using Kind = PyValue::Kind;

  if (lhs.kind == Kind::String || rhs.kind == Kind::String) {
    if (op == ast::BinaryOp::Add && lhs.kind == Kind::String &&
        rhs.kind == Kind::String)
      return PyValue::string(lhs.text + rhs.text);
    return unsupportedOperands(opName, lhs, rhs, loc);
  }
  if (!lhs.isNumber() || !rhs.isNumber())
    return unsupportedOperands(opName, lhs, rhs, loc);

  // bool op bool stays bool for the bitwise operators, as in Python.
  if (lhs.kind == Kind::Bool && rhs.kind == Kind::Bool) {
    if (op == ast::BinaryOp::BitAnd)
      return PyValue::boolean(lhs.boolValue && rhs.boolValue);
    if (op == ast::BinaryOp::BitOr)
      return PyValue::boolean(lhs.boolValue || rhs.boolValue);
    if (op == ast::BinaryOp::BitXor)
      return PyValue::boolean(lhs.boolValue != rhs.boolValue);
  }
  auto asInt = [](const PyValue &v) -> int64_t {
    return v.kind == Kind::Bool ? v.boolValue : v.intValue;
  };
  auto asDouble = [&](const PyValue &v) -> double {
    return v.kind == Kind::Float ? v.floatValue : static_cast<double>(asInt(v));
  };
  auto overflow = [&] {
    return error(loc, "integer overflow in constant expression");
  };
  auto divisionByZero = [&] { return error(loc, "division by zero"); };

  bool anyFloat = lhs.kind == Kind::Float || rhs.kind == Kind::Float;
  if (op == ast::BinaryOp::MatMul)
    return unsupportedOperands(opName, lhs, rhs, loc);
  if (op == ast::BinaryOp::Div) {
    if (asDouble(rhs) == 0.0)
      return divisionByZero();
    return PyValue::floating(asDouble(lhs) / asDouble(rhs));
  }
  if (anyFloat) {
    double a = asDouble(lhs), b = asDouble(rhs);
    switch (op) {
    case ast::BinaryOp::Add:
      return PyValue::floating(a + b);
    case ast::BinaryOp::Sub:
      return PyValue::floating(a - b);
    case ast::BinaryOp::Mul:
      return PyValue::floating(a * b);
    case ast::BinaryOp::FloorDiv:
      if (b == 0.0)
        return divisionByZero();
      return PyValue::floating(std::floor(a / b));
    case ast::BinaryOp::Mod:
      if (b == 0.0)
        return divisionByZero();
      return PyValue::floating(floorModulo(a, b));
    case ast::BinaryOp::Pow:
      return PyValue::floating(std::pow(a, b));
    default:
      return unsupportedOperands(opName, lhs, rhs, loc);
    }
  }

  int64_t a = asInt(lhs), b = asInt(rhs), result = 0;
  switch (op) {
  case ast::BinaryOp::Add:
    if (llvm::AddOverflow(a, b, result))
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::Sub:
    if (llvm::SubOverflow(a, b, result))
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::Mul:
    if (llvm::MulOverflow(a, b, result))
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::FloorDiv:
  case ast::BinaryOp::Mod:
    if (b == 0)
      return divisionByZero();
    if (a == std::numeric_limits<int64_t>::min() && b == -1)
      return op == ast::BinaryOp::Mod ? Result(PyValue::integer(0))
                                      : Result(overflow());
    return PyValue::integer(op == ast::BinaryOp::FloorDiv ? floorDivide(a, b)
                                                          : floorModulo(a, b));
  case ast::BinaryOp::Pow: {
    if (b < 0)
      return PyValue::floating(
          std::pow(static_cast<double>(a), static_cast<double>(b)));
    int64_t power = 1;
    for (int64_t i = 0; i < b; ++i) {
      if (llvm::MulOverflow(power, a, power))
        return overflow();
      // 0, 1 and -1 never overflow; stop early so huge exponents end fast.
      if (a == 0 || a == 1)
        break;
      if (a == -1) {
        power = (b % 2 == 0) ? 1 : -1;
        break;
      }
    }
    return PyValue::integer(b == 0 ? 1 : power);
  }
  case ast::BinaryOp::LShift:
    if (b < 0)
      return error(loc, "negative shift count");
    if (a == 0)
      return PyValue::integer(0);
    if (b >= 63)
      return overflow();
    // Shift as unsigned (shifting a negative value is undefined in C++17)
    // and check that shifting back recovers the value.
    result = static_cast<int64_t>(static_cast<uint64_t>(a) << b);
    if ((result >> b) != a)
      return overflow();
    return PyValue::integer(result);
  case ast::BinaryOp::RShift:
    if (b < 0)
      return error(loc, "negative shift count");
    return PyValue::integer(b >= 63 ? (a < 0 ? -1 : 0) : a >> b);
  case ast::BinaryOp::BitAnd:
    return PyValue::integer(a & b);
  case ast::BinaryOp::BitOr:
    return PyValue::integer(a | b);
  case ast::BinaryOp::BitXor:
    return PyValue::integer(a ^ b);
  case ast::BinaryOp::Div:
  case ast::BinaryOp::MatMul:
    break;
  }
  return unsupportedOperands(opName, lhs, rhs, loc);
}

KernelEmitter::Result KernelEmitter::foldCompare(ast::CompareOp op,
                                                 const PyValue &lhs,
                                                 const PyValue &rhs,
                                                 const ast::Location &loc) {
  using Kind = PyValue::Kind;
  llvm::StringRef opName = ast::spell(op);
  if (op == ast::CompareOp::In || op == ast::CompareOp::NotIn)
    return error(loc, "'" + opName + "' is not supported yet");

  // Equality and identity are defined between any two values.
  auto equal = [&]() -> bool {
    if (lhs.isNumber() && rhs.isNumber()) {
      if (lhs.kind == Kind::Float || rhs.kind == Kind::Float) {
        auto asDouble = [](const PyValue &v) {
          return v.kind == Kind::Float  ? v.floatValue
                 : v.kind == Kind::Bool ? static_cast<double>(v.boolValue)
                                        : static_cast<double>(v.intValue);
        };
        return asDouble(lhs) == asDouble(rhs);
      }
      auto asInt = [](const PyValue &v) -> int64_t {
        return v.kind == Kind::Bool ? v.boolValue : v.intValue;
      };
      return asInt(lhs) == asInt(rhs);
    }
    if (lhs.kind != rhs.kind)
      return false;
    if (lhs.kind == Kind::None)
      return true;
    return lhs.text == rhs.text;
  };
  switch (op) {
  case ast::CompareOp::Eq:
    return PyValue::boolean(equal());
  case ast::CompareOp::NotEq:
    return PyValue::boolean(!equal());
  case ast::CompareOp::Is:
  case ast::CompareOp::IsNot: {
    bool same = lhs.kind == rhs.kind && equal();
    return PyValue::boolean(op == ast::CompareOp::Is ? same : !same);
  }
  default:
    break;
  }

  int order;
  if (lhs.isNumber() && rhs.isNumber()) {
    auto asDouble = [](const PyValue &v) {
      return v.kind == Kind::Float  ? v.floatValue
             : v.kind == Kind::Bool ? static_cast<double>(v.boolValue)
                                    : static_cast<double>(v.intValue);
    };
    if (lhs.kind == Kind::Float || rhs.kind == Kind::Float) {
      double a = asDouble(lhs), b = asDouble(rhs);
      if (std::isnan(a) || std::isnan(b))
        return PyValue::boolean(false);
      order = a < b ? -1 : a > b ? 1 : 0;
    } else {
      int64_t a = lhs.kind == Kind::Bool ? lhs.boolValue : lhs.intValue;
      int64_t b = rhs.kind == Kind::Bool ? rhs.boolValue : rhs.intValue;
      order = a < b ? -1 : a > b ? 1 : 0;
    }
  } else if (lhs.kind == Kind::String && rhs.kind == Kind::String) {
    order = llvm::StringRef(lhs.text).compare(rhs.text);
  } else {
    return error(loc, "'" + opName + "' not supported between '" +
                          describe(lhs) + "' and '" + describe(rhs) + "'");
  }
  switch (op) {
  case ast::CompareOp::Lt:
    return PyValue::boolean(order < 0);
  case ast::CompareOp::LtE:
    return PyValue::boolean(order <= 0);
  case ast::CompareOp::Gt:
    return PyValue::boolean(order > 0);
  case ast::CompareOp::GtE:
    return PyValue::boolean(order >= 0);
  default:
    return std::nullopt;
  }
}

//===----------------------------------------------------------------------===//
// Types and IR helpers
//===----------------------------------------------------------------------===//

mlir::Type KernelEmitter::getDefaultType(const PyValue &value) {
  switch (value.kind) {
  case PyValue::Kind::Bool:
    return builder.getI1Type();
  case PyValue::Kind::Float:
    return builder.getF32Type();
  default:
    return llvm::isInt<32>(value.intValue) ? builder.getI32Type()
                                           : builder.getI64Type();
  }
}

/// Triton's promotion of two runtime operand types.
mlir::Type KernelEmitter::promoteTypes(mlir::Type a, mlir::Type b,
                                       bool divOrMod) {
  if (isFloat(a) || isFloat(b)) {
    if (a.isF64() || b.isF64())
      return builder.getF64Type();
    if (a.isF32() || b.isF32())
      return builder.getF32Type();
    // fp16 and bf16 have no division or remainder in hardware.
    if (a.isF16() || b.isF16())
      return divOrMod ? builder.getF32Type() : builder.getF16Type();
    if (divOrMod || !(a.isBF16() && b.isBF16()))
      return builder.getF32Type();
    return builder.getBF16Type();
  }
  return a.getIntOrFloatBitWidth() >= b.getIntOrFloatBitWidth() ? a : b;
}

std::optional<mlir::Type>
KernelEmitter::getComputationType(ast::BinaryOp op, const PyValue &lhs,
                                  const PyValue &rhs) {
  bool divOrMod = op == ast::BinaryOp::Div || op == ast::BinaryOp::Mod;
  // Pointers have no computation type (callers handle pointer operands).
  for (const PyValue *operand : {&lhs, &rhs})
    if (operand->isRuntime() && !getElementType(operand->value).isIntOrFloat())
      return std::nullopt;
  if (lhs.isRuntime() != rhs.isRuntime()) {
    // A Python number of a kind no higher than the runtime operand's (bool <
    // int < float) takes the runtime operand's type, as in Triton; an
    // integer that does not fit that type promotes it instead.
    const PyValue &number = lhs.isRuntime() ? rhs : lhs;
    mlir::Type runtimeType =
        getElementType((lhs.isRuntime() ? lhs : rhs).value);
    bool fits = true;
    if (number.kind == PyValue::Kind::Int && isInteger(runtimeType))
      fits = fitsInWidth(number.intValue, runtimeType.getIntOrFloatBitWidth());
    if (getNumberKind(number) <= getNumberKind(runtimeType) && fits) {
      if (divOrMod && (runtimeType.isF16() || runtimeType.isBF16()))
        return builder.getF32Type();
      return runtimeType;
    }
    return promoteTypes(runtimeType, getDefaultType(number), divOrMod);
  }
  return promoteTypes(getElementType(lhs.value), getElementType(rhs.value),
                      divOrMod);
}

mlir::Value KernelEmitter::materialize(const PyValue &value,
                                       mlir::Type elementType, bool asBlock,
                                       llvm::ArrayRef<int64_t> shape,
                                       mlir::Location loc) {
  mlir::TypedAttr scalar;
  if (auto intType = dyn_cast<mlir::IntegerType>(elementType)) {
    int64_t intValue;
    if (value.kind == PyValue::Kind::Float)
      intValue = isBool(elementType) ? value.floatValue != 0.0
                                     : saturatingFloatToInt(value.floatValue);
    else if (value.kind == PyValue::Kind::Bool)
      intValue = value.boolValue;
    else
      intValue = isBool(elementType) ? value.intValue != 0 : value.intValue;
    scalar = builder.getIntegerAttr(
        elementType, llvm::APInt(intType.getWidth(), intValue,
                                 /*isSigned=*/true, /*implicitTrunc=*/true));
  } else {
    double floatValue = value.kind == PyValue::Kind::Float ? value.floatValue
                        : value.kind == PyValue::Kind::Bool
                            ? static_cast<double>(value.boolValue)
                            : static_cast<double>(value.intValue);
    scalar = builder.getFloatAttr(elementType, floatValue);
  }
  if (!asBlock)
    return arith::ConstantOp::create(builder, loc, scalar);
  auto type = mlir::RankedTensorType::get(shape, elementType);
  return arith::ConstantOp::create(
      builder, loc,
      cast<mlir::TypedAttr>(mlir::DenseElementsAttr::get(type, scalar)));
}

mlir::Value KernelEmitter::zeroLike(mlir::Type type, mlir::Location loc) {
  mlir::Type elementType = mlir::tile::getElementTypeOrSelf(type);
  auto tensor = dyn_cast<mlir::RankedTensorType>(type);
  return materialize(PyValue::integer(0), elementType, tensor != nullptr,
                     tensor ? tensor.getShape() : llvm::ArrayRef<int64_t>(),
                     loc);
}

mlir::Value KernelEmitter::splatTo(mlir::Value scalar,
                                   llvm::ArrayRef<int64_t> shape,
                                   mlir::Location loc) {
  auto type = mlir::RankedTensorType::get(shape, scalar.getType());
  return mlir::tile::SplatOp::create(builder, loc, type, scalar);
}

mlir::Value KernelEmitter::convertElementType(mlir::Value value,
                                              mlir::Type elementType,
                                              mlir::Location loc) {
  return castValue(value, /*fromUnsigned=*/false, elementType,
                   /*toUnsigned=*/false, loc);
}

mlir::Value KernelEmitter::prepareOperand(const PyValue &value,
                                          mlir::Type elementType, bool asBlock,
                                          llvm::ArrayRef<int64_t> shape,
                                          mlir::Location loc) {
  if (!value.isRuntime())
    return materialize(value, elementType, asBlock, shape, loc);
  mlir::Value converted = castValue(value.value, value.isUnsigned, elementType,
                                    /*toUnsigned=*/false, loc);
  if (asBlock)
    converted = broadcastTo(converted, shape, loc);
  return converted;
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
