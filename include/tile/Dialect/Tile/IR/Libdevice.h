//===- Libdevice.h - Triton's libdevice functions, by name ------*- C++ -*-===//
//
// The functions of Triton's triton.language.extra.cuda.libdevice: for each
// Triton name (`asin`), the operand types it accepts and the libdevice
// symbol (`__nv_asinf`) and result type each combination calls. The front
// end resolves `libdevice.X(...)` through it to a tile.extern_elementwise
// op naming the symbol; the interpreter and the GPU fallback find a symbol's
// function and operand types through it.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_LIBDEVICE_H
#define TILE_DIALECT_TILE_IR_LIBDEVICE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir::tile::libdevice {

/// An operand or result type of a libdevice function, as Triton's dtypes.
enum class Type : uint8_t { I32, I64, U32, U64, F32, F64 };

/// One signature of a function: its operand types, symbol and result type.
struct Variant {
  llvm::SmallVector<Type, 4> operands;
  std::string symbol;
  Type result;
};

/// A function of Triton's libdevice module.
struct Function {
  std::string name;
  llvm::SmallVector<Variant, 4> variants;
  /// isnan and isinf: Triton converts the int32 result to int1.
  bool resultToBool = false;
  unsigned getArity() const { return variants.front().operands.size(); }
};

/// The function Triton calls `name`, or null.
const Function *lookupFunction(llvm::StringRef name);

/// The function and variant of the libdevice symbol `symbol`, or nulls.
std::pair<const Function *, const Variant *>
lookupSymbol(llvm::StringRef symbol);

/// Every function, in Triton's order.
llvm::ArrayRef<Function> getFunctions();

/// Triton's spelling of `type`: "fp32", "int32", "uint64", ...
llvm::StringRef getTypeName(Type type);

/// Whether `type` is fp32 or fp64.
inline bool isFloat(Type type) {
  return type == Type::F32 || type == Type::F64;
}
/// Whether `type` is an unsigned integer.
inline bool isUnsigned(Type type) {
  return type == Type::U32 || type == Type::U64;
}
/// Bits of `type`.
inline unsigned getWidth(Type type) {
  return type == Type::I32 || type == Type::U32 || type == Type::F32 ? 32 : 64;
}

} // namespace mlir::tile::libdevice

#endif // TILE_DIALECT_TILE_IR_LIBDEVICE_H
