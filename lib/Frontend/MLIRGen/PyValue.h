//===- PyValue.h - Python values during lowering ----------------*- C++ -*-===//
//
// Private to lib/Frontend/MLIRGen: the value model of the front end (a
// Python value is an SSA value or a value known at compile time, as Triton's
// constexpr) and the helpers every part of the walk shares.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_LIB_FRONTEND_MLIRGEN_PYVALUE_H
#define TILE_LIB_FRONTEND_MLIRGEN_PYVALUE_H

#include "tile/Frontend/MLIRGen.h"

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <string>
#include <vector>

namespace tile::frontend::mlirgen {

using llvm::cast;
using llvm::dyn_cast;
using llvm::isa;

//===----------------------------------------------------------------------===//
// Module-level names (Module.cpp)
//===----------------------------------------------------------------------===//

/// What each name bound by the module's imports refers to:
/// `import triton.language as tl` binds tl to "triton.language",
/// `import triton.language` binds triton to "triton",
/// `from triton import jit` binds jit to "triton.jit".
using ImportAliases = llvm::StringMap<std::string>;
ImportAliases collectImportAliases(const ast::Module &module);

/// The dotted name that `expr` refers to when it is a chain of attribute
/// accesses on an imported name (`tl.load` -> "triton.language.load"), or
/// an empty string.
std::string resolveImportedName(const ast::Expr &expr,
                                const ImportAliases &aliases);

/// How the user spelled a (dotted) name, for messages: "tl.load".
std::string spellName(const ast::Expr &expr);

enum class DecoratorKind { Jit, Autotune, Heuristics, Other };
DecoratorKind classifyDecorator(const ast::Expr &decorator,
                                const ImportAliases &aliases);
bool isJitFunction(const ast::FunctionDef &function,
                   const ImportAliases &aliases);
bool isConstexprAnnotation(const ast::Expr *annotation,
                           const ImportAliases &aliases);

/// The configurations `configs` (@triton.autotune's configs=) evaluates to
/// (AutotuneConfigs.cpp) for a GPU of `computeCapability`; std::nullopt
/// after a diagnostic.
std::optional<std::vector<AutotuneConfig>>
evaluateAutotuneConfigs(const ast::Module &module, const ast::Expr &configs,
                        const ImportAliases &aliases, DiagEmitter &diag,
                        unsigned computeCapability);

//===----------------------------------------------------------------------===//
// Values and types (Values.cpp)
//===----------------------------------------------------------------------===//

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
    /// A tensor descriptor (tl.make_tensor_descriptor, or a kernel
    /// argument made on the host): `elements` are the base pointer, then
    /// the shape (i32) and the strides (i64), one per dimension, and for a
    /// host descriptor its TMA tensor map (!tile.ptr<i8>); `type` is
    /// the block a load gives (block_shape x the element type); `text` the
    /// padding option ("zero" or "nan").
    TensorDescriptor,
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
  static PyValue tensorDescriptor(std::vector<PyValue> parts,
                                  mlir::RankedTensorType block, bool isUnsigned,
                                  std::string padding) {
    PyValue v;
    v.kind = Kind::TensorDescriptor;
    v.elements = std::move(parts);
    v.type = block;
    v.isUnsigned = isUnsigned;
    v.text = std::move(padding);
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

mlir::Type getElementType(mlir::Value value);
bool isBlock(mlir::Value value);
llvm::ArrayRef<int64_t> getShape(mlir::Value value);

inline bool isPointer(mlir::Type type) {
  return isa<mlir::tile::PointerType>(type);
}
inline bool isInteger(mlir::Type type) { return isa<mlir::IntegerType>(type); }
inline bool isFloat(mlir::Type type) { return isa<mlir::FloatType>(type); }
inline bool isBool(mlir::Type type) { return type.isInteger(1); }
/// tl.float8e4nv, tl.float8e5, tl.float8e4b15.
inline bool isFloat8(mlir::Type type) {
  return isFloat(type) && type.getIntOrFloatBitWidth() == 8;
}

/// Triton's name of a scalar type: i32, u8, fp16, bf16, *fp32.
std::string getTypeName(mlir::Type type, bool isUnsigned = false);
std::string formatShape(llvm::ArrayRef<int64_t> shape);
/// The type of a runtime value as messages show it: `i32`, `fp32[1024]`.
std::string describeType(mlir::Type type, bool isUnsigned = false);
/// A value as messages show it.
std::string describe(const PyValue &value);
/// Python's truth value of a compile-time value.
bool isTruthy(const PyValue &value);
/// Whether `value` is representable in a signless integer of `width` bits
/// (i1 holds 0 and 1, as Triton's bool).
bool fitsInWidth(int64_t value, unsigned width);

/// The kinds of Triton's scalar promotion, ordered.
enum class NumberKind { Bool = 0, Int = 1, Float = 2 };
NumberKind getNumberKind(mlir::Type type);
NumberKind getNumberKind(const PyValue &value);

/// The builtin functions of Python a kernel might name; calling them is not
/// supported yet, but they are not undefined either.
bool isPythonBuiltin(llvm::StringRef name);

/// One parameter of a builtin function, for binding call arguments.
struct BuiltinParam {
  llvm::StringLiteral name;
  bool required;
};

/// The dtypes of triton.language, as messages list them.
extern const char *const kDTypeNames;

//===----------------------------------------------------------------------===//
// Statements (Names.cpp, ControlFlow.cpp)
//===----------------------------------------------------------------------===//

/// Every name `body` assigns, nested blocks included, in first-assignment
/// order (so that loop-carried values come out in source order).
void collectAssigned(const ast::StmtList &body, llvm::StringSet<> &names,
                     std::vector<std::string> *ordered = nullptr);
/// `if cond: ... return` (a bare return ending the branch).
bool endsWithBareReturn(const ast::StmtList &body);

//===----------------------------------------------------------------------===//
// Compile-time arithmetic with Python semantics (Constexpr.cpp)
//===----------------------------------------------------------------------===//

int64_t floorDivide(int64_t a, int64_t b);
int64_t floorModulo(int64_t a, int64_t b);
double floorModulo(double a, double b);
/// Float to int64 truncating toward zero, saturating at the int64 range
/// (NaN becomes 0), so that no float converts with undefined behavior.
int64_t saturatingFloatToInt(double value);

} // namespace tile::frontend::mlirgen

#endif // TILE_LIB_FRONTEND_MLIRGEN_PYVALUE_H
