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
  };

  Kind kind = Kind::None;
  mlir::Value value;
  int64_t intValue = 0;
  double floatValue = 0.0;
  bool boolValue = false;
  std::string text;

  static PyValue runtime(mlir::Value value) {
    PyValue v;
    v.kind = Kind::Runtime;
    v.value = value;
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

  bool isRuntime() const { return kind == Kind::Runtime; }
  /// Int, Float or Bool: a compile-time number.
  bool isNumber() const {
    return kind == Kind::Int || kind == Kind::Float || kind == Kind::Bool;
  }
  bool isConstexpr() const {
    return isNumber() || kind == Kind::None || kind == Kind::String;
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

/// Triton's name of a scalar type: i32, fp16, bf16, *fp32.
std::string getTypeName(mlir::Type type) {
  if (auto pointer = dyn_cast<mlir::tile::PointerType>(type))
    return "*" + getTypeName(pointer.getPointeeType());
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
std::string describeType(mlir::Type type) {
  if (auto tensor = dyn_cast<mlir::RankedTensorType>(type))
    return getTypeName(tensor.getElementType()) +
           formatShape(tensor.getShape());
  return getTypeName(type);
}

/// A value as messages show it.
std::string describe(const PyValue &value) {
  switch (value.kind) {
  case PyValue::Kind::Runtime:
    return describeType(value.value.getType());
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
  void collectTargetNames(const ast::Expr &target);
  Result lookupName(const ast::NameExpr &name);
  Result evaluateGlobal(llvm::StringRef name, const ast::Location &useLoc);
  /// Evaluates a global's value or a parameter default, which Python
  /// evaluates at module level.
  Result evaluateInModuleScope(const ast::Expr &expr);

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  mlir::LogicalResult emitBlock(const ast::StmtList &body);
  mlir::LogicalResult emitStmt(const ast::Stmt &stmt);
  mlir::LogicalResult emitAssign(const ast::AssignStmt &assign);
  mlir::LogicalResult bindTarget(const ast::Expr &target, const PyValue &value);
  mlir::LogicalResult emitIf(const ast::IfStmt &stmt);

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  Result emitExpr(const ast::Expr &expr);
  Result emitConstant(const ast::ConstantExpr &constant);
  Result emitAttribute(const ast::AttributeExpr &attribute);
  Result emitCall(const ast::CallExpr &call);
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

  std::optional<llvm::SmallVector<const ast::Expr *>>
  bindArguments(const ast::CallExpr &call, llvm::StringRef displayName,
                llvm::ArrayRef<BuiltinParam> params);
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
    return common.asBlock && !isBlock(ptr) ? splatTo(ptr, common.shape, loc)
                                           : ptr;
  }
  Result emitLoad(const ast::CallExpr &call, llvm::StringRef displayName);
  Result emitStore(const ast::CallExpr &call, llvm::StringRef displayName);
  mlir::LogicalResult
  checkMemoryHints(llvm::ArrayRef<const ast::Expr *> args,
                   llvm::ArrayRef<BuiltinParam> params,
                   llvm::StringRef displayName,
                   llvm::ArrayRef<llvm::StringRef> cacheModifiers);
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
    arguments.push_back({&param, *type, divisible});
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
    locals[argument.param->name] = PyValue::runtime(blockArgument);
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

void KernelEmitter::collectTargetNames(const ast::Expr &target) {
  if (auto *name = dyn_cast<ast::NameExpr>(&target)) {
    assignedNames.insert(name->getName());
  } else if (auto *tuple = dyn_cast<ast::TupleExpr>(&target)) {
    for (const ast::ExprPtr &element : tuple->getElements())
      collectTargetNames(*element);
  } else if (auto *list = dyn_cast<ast::ListExpr>(&target)) {
    for (const ast::ExprPtr &element : list->getElements())
      collectTargetNames(*element);
  }
}

void KernelEmitter::collectAssignedNames(const ast::StmtList &body) {
  for (const ast::StmtPtr &stmt : body) {
    switch (stmt->getKind()) {
    case ast::Stmt::Kind::Assign:
      for (const ast::ExprPtr &target :
           cast<ast::AssignStmt>(*stmt).getTargets())
        collectTargetNames(*target);
      break;
    case ast::Stmt::Kind::AugAssign:
      collectTargetNames(cast<ast::AugAssignStmt>(*stmt).getTarget());
      break;
    case ast::Stmt::Kind::AnnAssign:
      collectTargetNames(cast<ast::AnnAssignStmt>(*stmt).getTarget());
      break;
    case ast::Stmt::Kind::If: {
      const auto &ifStmt = cast<ast::IfStmt>(*stmt);
      collectAssignedNames(ifStmt.getBody());
      collectAssignedNames(ifStmt.getOrElse());
      break;
    }
    case ast::Stmt::Kind::For: {
      const auto &forStmt = cast<ast::ForStmt>(*stmt);
      collectTargetNames(forStmt.getTarget());
      collectAssignedNames(forStmt.getBody());
      collectAssignedNames(forStmt.getOrElse());
      break;
    }
    case ast::Stmt::Kind::While: {
      const auto &whileStmt = cast<ast::WhileStmt>(*stmt);
      collectAssignedNames(whileStmt.getBody());
      collectAssignedNames(whileStmt.getOrElse());
      break;
    }
    default:
      break;
    }
  }
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

mlir::LogicalResult KernelEmitter::emitBlock(const ast::StmtList &body) {
  for (const ast::StmtPtr &stmt : body) {
    if (returned)
      break;
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
    return fail(stmt.getLoc(), "'for' loops are not supported yet");
  case ast::Stmt::Kind::While:
    return fail(stmt.getLoc(), "'while' loops are not supported yet");
  case ast::Stmt::Kind::Break:
    return fail(stmt.getLoc(), "'break' outside loop");
  case ast::Stmt::Kind::Continue:
    return fail(stmt.getLoc(), "'continue' not properly in loop");
  case ast::Stmt::Kind::Pass:
    return mlir::success();
  case ast::Stmt::Kind::Return: {
    const auto &ret = cast<ast::ReturnStmt>(stmt);
    if (const ast::Expr *value = ret.getValue()) {
      auto *constant = dyn_cast<ast::ConstantExpr>(value);
      if (!constant || !constant->isNone())
        return fail(value->getLoc(), "a kernel cannot return a value");
    }
    returned = true;
    returnLoc = stmt.getLoc();
    return mlir::success();
  }
  case ast::Stmt::Kind::Assert: {
    const auto &assertStmt = cast<ast::AssertStmt>(stmt);
    Result test = emitExpr(assertStmt.getTest());
    if (!test)
      return mlir::failure();
    if (!test->isConstexpr())
      return fail(stmt.getLoc(),
                  "'assert' on a runtime value is not supported yet");
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
  if (isa<ast::TupleExpr, ast::ListExpr>(&target))
    return fail(target.getLoc(), "unpacking a value that is not a tuple "
                                 "written out is not supported yet");
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
  if (!test->isConstexpr() && test->kind != PyValue::Kind::Namespace &&
      test->kind != PyValue::Kind::Function)
    return fail(ast::getStartLoc(stmt.getTest()),
                "'if' with a runtime condition is not supported yet (the "
                "condition must be a compile-time constant)");
  return emitBlock(isTruthy(*test) ? stmt.getBody() : stmt.getOrElse());
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
    if (!test->isConstexpr())
      return error(ast::getStartLoc(ifExp.getTest()),
                   "a conditional expression with a runtime condition is not "
                   "supported yet (tl.where is the block form)");
    return emitExpr(isTruthy(*test) ? ifExp.getBody() : ifExp.getOrElse());
  }
  case ast::Expr::Kind::Subscript:
    return error(expr.getLoc(), "indexing and slicing ('x[...]') is not "
                                "supported yet");
  case ast::Expr::Kind::Slice:
    return error(expr.getLoc(), "slices are not supported yet");
  case ast::Expr::Kind::Tuple:
    return error(expr.getLoc(), "tuples are not supported yet");
  case ast::Expr::Kind::List:
    return error(expr.getLoc(), "lists are not supported yet");
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

KernelEmitter::Result
KernelEmitter::emitAttribute(const ast::AttributeExpr &attribute) {
  Result base = emitExpr(attribute.getValue());
  if (!base)
    return std::nullopt;
  if (base->kind == PyValue::Kind::Namespace)
    return PyValue::named(PyValue::Kind::Namespace,
                          base->text + "." + attribute.getAttr().str());
  if (base->isRuntime())
    return error(attribute.getAttrLoc(),
                 "attribute '" + attribute.getAttr() + "' of " +
                     (isBlock(base->value) ? "a block" : "a scalar") +
                     " is not supported yet");
  return error(attribute.getAttrLoc(), "attribute '" + attribute.getAttr() +
                                           "' of " + describe(*base) +
                                           " is not supported yet");
}

//===----------------------------------------------------------------------===//
// Calls and builtins
//===----------------------------------------------------------------------===//

KernelEmitter::Result KernelEmitter::emitCall(const ast::CallExpr &call) {
  Result callee = emitExpr(call.getCallee());
  if (!callee)
    return std::nullopt;
  std::string spelled = spellName(call.getCallee());
  if (callee->kind == PyValue::Kind::Function)
    return error(call.getLoc(), "calling @triton.jit function '" +
                                    callee->text + "' is not supported yet");
  if (callee->kind != PyValue::Kind::Namespace)
    return error(call.getLoc(), describe(*callee) + " is not callable");

  llvm::StringRef qualified = callee->text;
  std::string displayName =
      spelled.empty() ? qualified.str() : std::move(spelled);
  if (qualified.consume_front("builtins."))
    return error(call.getLoc(),
                 "'" + qualified + "()' is not supported yet in kernels");
  if (!qualified.consume_front("triton.language."))
    return error(call.getLoc(), displayName + "() is not supported yet");

  if (qualified == "program_id")
    return emitProgramIdLike(call, displayName, /*numPrograms=*/false);
  if (qualified == "num_programs")
    return emitProgramIdLike(call, displayName, /*numPrograms=*/true);
  if (qualified == "arange")
    return emitArange(call, displayName);
  if (qualified == "load")
    return emitLoad(call, displayName);
  if (qualified == "store")
    return emitStore(call, displayName);
  if (qualified == "constexpr") {
    static const BuiltinParam params[] = {{"value", true}};
    auto args = bindArguments(call, displayName, params);
    if (!args)
      return std::nullopt;
    Result value = emitExpr(*(*args)[0]);
    if (!value)
      return std::nullopt;
    if (value->isRuntime())
      return error((*args)[0]->getLoc(),
                   displayName + "() needs a compile-time value, got " +
                       describe(*value));
    return value;
  }
  return error(call.getLoc(), displayName + "() is not supported yet");
}

std::optional<llvm::SmallVector<const ast::Expr *>>
KernelEmitter::bindArguments(const ast::CallExpr &call,
                             llvm::StringRef displayName,
                             llvm::ArrayRef<BuiltinParam> params) {
  llvm::SmallVector<const ast::Expr *> bound(params.size(), nullptr);
  size_t numRequired = llvm::count_if(
      params, [](const BuiltinParam &param) { return param.required; });
  const ast::ExprList &args = call.getArgs();
  if (args.size() > params.size()) {
    std::string takes = numRequired == params.size()
                            ? std::to_string(params.size())
                            : "from " + std::to_string(numRequired) + " to " +
                                  std::to_string(params.size());
    diag.error(call.getLoc(),
               displayName + "() takes " + takes + " positional argument" +
                   (params.size() == 1 ? "" : "s") + " but " +
                   llvm::Twine(args.size()) +
                   (args.size() == 1 ? " was" : " were") + " given");
    return std::nullopt;
  }
  for (auto [index, arg] : llvm::enumerate(args))
    bound[index] = arg.get();

  for (const ast::Keyword &keyword : call.getKeywords()) {
    auto *param = llvm::find_if(params, [&](const BuiltinParam &candidate) {
      return candidate.name == keyword.name;
    });
    if (param == params.end()) {
      // List what could still be passed, so that a typo is easy to spot.
      llvm::SmallVector<llvm::StringRef> valid;
      for (auto [index, candidate] : llvm::enumerate(params))
        if (index >= args.size())
          valid.push_back(candidate.name);
      diag.error(keyword.loc,
                 displayName + "() got an unexpected keyword argument '" +
                     keyword.name + "'; valid: " + llvm::join(valid, ", "));
      return std::nullopt;
    }
    size_t index = param - params.begin();
    if (bound[index]) {
      diag.error(keyword.loc, displayName +
                                  "() got multiple values for argument '" +
                                  keyword.name + "'");
      return std::nullopt;
    }
    bound[index] = keyword.value.get();
  }

  for (auto [index, param] : llvm::enumerate(params)) {
    if (param.required && !bound[index]) {
      diag.error(call.getLoc(), displayName + "() missing required argument '" +
                                    param.name + "'");
      return std::nullopt;
    }
  }
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
    llvm::StringRef displayName,
    llvm::ArrayRef<llvm::StringRef> cacheModifiers) {
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
      if (value->boolValue)
        return fail(arg->getLoc(), displayName +
                                       "() volatile=True is not supported "
                                       "yet");
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
    // Valid hints are accepted and dropped: the tile dialect has no cache
    // or eviction control yet, and they do not change results.
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
  if (operandShape == llvm::ArrayRef<int64_t>(common.shape))
    return true;
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
  if (mlir::failed(
          checkMemoryHints(*args, params, displayName, cacheModifiers)))
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
  return PyValue::runtime(mlir::tile::LoadOp::create(
      builder, loc, resultType, ptr, maskValue, otherValue));
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
  if (mlir::failed(
          checkMemoryHints(*args, params, displayName, cacheModifiers)))
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
  mlir::tile::StoreOp::create(builder, loc, ptr, storedValue, maskValue);
  return PyValue::none();
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
    return error(loc, "'**' on runtime values is not supported yet");
  if (op == ast::BinaryOp::MatMul)
    return error(loc, "'@' (matrix multiplication) is not supported yet");

  // Shapes: a scalar meets a block by broadcasting; two blocks must agree.
  bool asBlock = false;
  llvm::SmallVector<int64_t> shape;
  if (lhsRuntime && isBlock(lhs.value)) {
    asBlock = true;
    llvm::append_range(shape, getShape(lhs.value));
  }
  if (rhsRuntime && isBlock(rhs.value)) {
    llvm::ArrayRef<int64_t> rhsShape = getShape(rhs.value);
    if (asBlock && rhsShape != llvm::ArrayRef<int64_t>(shape))
      return error(loc, "incompatible shapes " + formatShape(shape) + " and " +
                            formatShape(rhsShape) + " for '" + opName +
                            "'; broadcasting blocks of different shapes is "
                            "not supported yet");
    asBlock = true;
    shape.assign(rhsShape.begin(), rhsShape.end());
  }

  std::optional<mlir::Type> computeType = getComputationType(op, lhs, rhs);
  if (!computeType)
    return unsupportedOperands(opName, lhs, rhs, loc);
  mlir::Type elementType = *computeType;
  bool isIntOp = isInteger(elementType);
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
  return PyValue::runtime(result);
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
  // A scalar side follows the other side's shape.
  if (isBlock(ptr) && isBlock(off)) {
    if (getShape(ptr) != getShape(off))
      return error(loc, "incompatible shapes " + formatShape(getShape(ptr)) +
                            " and " + formatShape(getShape(off)) +
                            " for pointer '" + ast::spell(op) + "'");
  } else if (isBlock(off)) {
    ptr = splatTo(ptr, getShape(off), irLoc);
  } else if (isBlock(ptr)) {
    off = splatTo(off, getShape(ptr), irLoc);
  }
  return PyValue::runtime(
      mlir::tile::AddPtrOp::create(builder, irLoc, ptr.getType(), ptr, off));
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
  std::optional<PyValue> result;
  for (const ast::ExprPtr &operandExpr : boolOp.getValues()) {
    result = emitExpr(*operandExpr);
    if (!result)
      return std::nullopt;
    if (result->isRuntime())
      return error(operandExpr->getLoc(),
                   "'" + ast::spell(boolOp.getOp()) +
                       "' on a runtime value is not supported yet (use '" +
                       (isAnd ? "&" : "|") + "' for blocks)");
    if (isTruthy(*result) != isAnd)
      return result;
  }
  return result;
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

  bool asBlock = false;
  llvm::SmallVector<int64_t> shape;
  for (const PyValue *operand : {&lhs, &rhs}) {
    if (!operand->isRuntime() || !isBlock(operand->value))
      continue;
    llvm::ArrayRef<int64_t> operandShape = getShape(operand->value);
    if (asBlock && operandShape != llvm::ArrayRef<int64_t>(shape))
      return error(loc, "incompatible shapes " + formatShape(shape) + " and " +
                            formatShape(operandShape) + " for '" + opName +
                            "'; broadcasting blocks of different shapes is "
                            "not supported yet");
    asBlock = true;
    shape.assign(operandShape.begin(), operandShape.end());
  }

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
  // Bools compare as unsigned (false < true); other integers are signed.
  bool isUnsigned = isBool(*computeType);
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
  mlir::Type source = getElementType(value);
  if (source == elementType)
    return value;
  mlir::Type resultType =
      mlir::tile::withElementType(value.getType(), elementType);
  unsigned sourceWidth = source.getIntOrFloatBitWidth();
  unsigned targetWidth = elementType.getIntOrFloatBitWidth();

  if (isInteger(source) && isInteger(elementType)) {
    if (isBool(elementType)) // Triton's cast to bool is x != 0.
      return arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                   value, zeroLike(value.getType(), loc));
    if (sourceWidth < targetWidth)
      return isBool(source)
                 ? mlir::Value(
                       arith::ExtUIOp::create(builder, loc, resultType, value))
                 : mlir::Value(
                       arith::ExtSIOp::create(builder, loc, resultType, value));
    return arith::TruncIOp::create(builder, loc, resultType, value);
  }
  if (isInteger(source)) // integer -> float
    return isBool(source)
               ? mlir::Value(
                     arith::UIToFPOp::create(builder, loc, resultType, value))
               : mlir::Value(
                     arith::SIToFPOp::create(builder, loc, resultType, value));
  if (isInteger(elementType)) { // float -> integer
    if (isBool(elementType))
      return arith::CmpFOp::create(builder, loc, arith::CmpFPredicate::UNE,
                                   value, zeroLike(value.getType(), loc));
    return arith::FPToSIOp::create(builder, loc, resultType, value);
  }
  if (sourceWidth == targetWidth) {
    // fp16 <-> bf16 goes through fp32.
    mlir::Type wide =
        mlir::tile::withElementType(value.getType(), builder.getF32Type());
    mlir::Value widened = arith::ExtFOp::create(builder, loc, wide, value);
    return arith::TruncFOp::create(builder, loc, resultType, widened);
  }
  if (sourceWidth < targetWidth)
    return arith::ExtFOp::create(builder, loc, resultType, value);
  return arith::TruncFOp::create(builder, loc, resultType, value);
}

mlir::Value KernelEmitter::prepareOperand(const PyValue &value,
                                          mlir::Type elementType, bool asBlock,
                                          llvm::ArrayRef<int64_t> shape,
                                          mlir::Location loc) {
  if (!value.isRuntime())
    return materialize(value, elementType, asBlock, shape, loc);
  mlir::Value converted = convertElementType(value.value, elementType, loc);
  if (asBlock && !isBlock(converted))
    converted = splatTo(converted, shape, loc);
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
                      mlir::tile::TileDialect>();
  const ast::FunctionDef *kernel = findKernel(module, kernelName, diag);
  if (!kernel)
    return nullptr;
  KernelEmitter emitter(context, module, diag);
  return emitter.emit(*kernel, spec);
}
