//===- Values.cpp - Python values during lowering -------------------------===//
//
// Python values during lowering: how they print, their truth, their kinds.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

namespace tile::frontend::mlirgen {

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

/// Triton's name of a scalar type: i32, u8, fp16, bf16, *fp32.
std::string getTypeName(mlir::Type type, bool isUnsigned) {
  if (auto pointer = dyn_cast<mlir::tile::PointerType>(type))
    return "*" + getTypeName(pointer.getPointeeType(), isUnsigned);
  if (auto block = dyn_cast<mlir::tile::BlockPointerType>(type))
    return "block pointer to " + describeType(block.getBlockType(), isUnsigned);
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
  if (isa<mlir::Float8E4M3FNType>(type))
    return "fp8e4nv";
  if (isa<mlir::Float8E5M2Type>(type))
    return "fp8e5";
  if (isa<mlir::Float8E4M3B11FNUZType>(type))
    return "fp8e4b15";
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
std::string describeType(mlir::Type type, bool isUnsigned) {
  if (auto tensor = dyn_cast<mlir::RankedTensorType>(type))
    return getTypeName(tensor.getElementType(), isUnsigned) +
           formatShape(tensor.getShape());
  return getTypeName(type, isUnsigned);
}

/// A value as messages show it.
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
  case PyValue::Kind::TensorDescriptor:
    return "tensor_descriptor<" + describeType(value.type, value.isUnsigned) +
           ">";
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

} // namespace tile::frontend::mlirgen
