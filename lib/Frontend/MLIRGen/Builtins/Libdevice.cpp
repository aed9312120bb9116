//===- Libdevice.cpp - libdevice.X calls ----------------------------------===//
//
// Calls of Triton's libdevice module (`from triton.language.extra import
// libdevice`, `tl.extra.cuda.libdevice.X`): the operands' types pick the
// function's signature as Triton's extern_elementwise does (the exact types
// first, then the operands promoted to one type), and the call becomes a
// tile.extern_elementwise op naming the libdevice symbol.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/Libdevice.h"
#include "Builtins/Builtins.h"

namespace tile::frontend::mlirgen {

namespace ld = mlir::tile::libdevice;

namespace {
/// The libdevice type of an MLIR element type and signedness, if any.
std::optional<ld::Type> toLibdeviceType(mlir::Type type, bool isUnsigned) {
  if (type.isF32())
    return ld::Type::F32;
  if (type.isF64())
    return ld::Type::F64;
  if (type.isInteger(32))
    return isUnsigned ? ld::Type::U32 : ld::Type::I32;
  if (type.isInteger(64))
    return isUnsigned ? ld::Type::U64 : ld::Type::I64;
  return std::nullopt;
}

mlir::Type toMLIRType(mlir::Builder &b, ld::Type type) {
  switch (type) {
  case ld::Type::F32:
    return b.getF32Type();
  case ld::Type::F64:
    return b.getF64Type();
  default:
    return b.getIntegerType(ld::getWidth(type));
  }
}

const ld::Variant *findVariant(const ld::Function &function,
                               llvm::ArrayRef<std::optional<ld::Type>> types) {
  for (const ld::Variant &variant : function.variants) {
    if (variant.operands.size() != types.size())
      continue;
    if (llvm::all_of(llvm::zip(variant.operands, types), [](auto pair) {
          return std::get<1>(pair) && *std::get<1>(pair) == std::get<0>(pair);
        }))
      return &variant;
  }
  return nullptr;
}

std::string describeSignature(mlir::Builder &b,
                              llvm::ArrayRef<ld::Type> types) {
  std::string text = "(";
  for (auto [i, type] : llvm::enumerate(types))
    text += (i ? ", " : "") +
            getTypeName(toMLIRType(b, type), ld::isUnsigned(type));
  return text + ")";
}
} // namespace

KernelEmitter::Result
KernelEmitter::emitLibdeviceCall(const ast::CallExpr &call,
                                 llvm::StringRef name,
                                 llvm::StringRef displayName) {
  const ast::Location &callLoc = call.getLoc();
  const ld::Function *function = ld::lookupFunction(name);
  if (!function)
    return error(callLoc, displayName +
                              " is not supported yet (Triton's libdevice "
                              "module has no function '" +
                              name + "' Tile knows)");
  // Triton's parameter names: arg0, arg1, ...
  static const BuiltinParam kParams[] = {
      {"arg0", true}, {"arg1", true}, {"arg2", true}, {"arg3", true}};
  std::optional<CallArgs> args =
      evaluateArguments(call, displayName,
                        llvm::ArrayRef(kParams, function->getArity()), nullptr);
  if (!args)
    return std::nullopt;
  llvm::SmallVector<PyValue> operands;
  for (auto [value, loc] : llvm::zip(args->values, args->locs)) {
    if (!value.isRuntime() && value.kind != PyValue::Kind::Int &&
        value.kind != PyValue::Kind::Float)
      return error(loc, displayName + "() expects numbers or blocks, got " +
                            describe(value));
    if (value.isRuntime() && isPointer(getElementType(value.value)))
      return error(loc, displayName + "() does not take pointers");
    operands.push_back(value);
  }
  if (!requireIR(callLoc, displayName))
    return std::nullopt;

  // The exact operand types, as Triton's to_tensor makes them.
  llvm::SmallVector<std::optional<ld::Type>> types;
  llvm::SmallVector<std::string> typeNames;
  for (const PyValue &operand : operands) {
    mlir::Type type = operand.isRuntime() ? getElementType(operand.value)
                                          : getDefaultType(operand);
    bool isUnsigned = operand.isRuntime() && operand.isUnsigned;
    types.push_back(toLibdeviceType(type, isUnsigned));
    typeNames.push_back(getTypeName(type, isUnsigned));
  }
  const ld::Variant *variant = findVariant(*function, types);
  // Otherwise the operands promoted to one type, as Triton's arithmetic
  // check does.
  if (!variant && operands.size() > 1) {
    PyValue carrier = operands[0];
    std::optional<mlir::Type> common;
    bool isUnsigned = false;
    for (const PyValue &operand : llvm::ArrayRef(operands).drop_front()) {
      common = getComputationType(ast::BinaryOp::Add, carrier, operand);
      if (!common)
        break;
      isUnsigned |= (carrier.isRuntime() && carrier.isUnsigned) ||
                    (operand.isRuntime() && operand.isUnsigned);
      if (operand.isRuntime())
        carrier = operand;
    }
    if (common) {
      llvm::SmallVector<std::optional<ld::Type>> promoted(
          operands.size(), toLibdeviceType(*common, isUnsigned));
      variant = findVariant(*function, promoted);
    }
  }
  if (!variant) {
    std::string expected;
    for (auto [i, candidate] : llvm::enumerate(function->variants))
      expected +=
          (i ? ", " : "") + describeSignature(builder, candidate.operands);
    std::string got = "(";
    for (auto [i, typeName] : llvm::enumerate(typeNames))
      got += (i ? ", " : "") + typeName;
    got += ")";
    return error(callLoc, displayName + "() takes " + expected + ", got " +
                              got +
                              " (convert with .to(...) as Triton requires)");
  }

  llvm::SmallVector<const PyValue *> pointers;
  for (const PyValue &operand : operands)
    pointers.push_back(&operand);
  auto common = commonShape(pointers, (displayName + "()").str(), callLoc);
  if (!common)
    return std::nullopt;
  auto [asBlock, shape] = *common;
  mlir::Location loc = getLoc(callLoc);
  llvm::SmallVector<mlir::Value> values;
  for (auto [operand, type] : llvm::zip(operands, variant->operands)) {
    mlir::Type mlirType = toMLIRType(builder, type);
    // An integer operand keeps its bits; only its width may change.
    values.push_back(prepareOperand(operand, mlirType, asBlock, shape, loc));
  }
  mlir::Type resultElement = toMLIRType(builder, variant->result);
  mlir::Type resultType =
      asBlock ? mlir::Type(mlir::RankedTensorType::get(shape, resultElement))
              : resultElement;
  mlir::Value result = mlir::tile::ExternElementwiseOp::create(
      builder, loc, resultType, values, variant->symbol, /*pure=*/true);
  if (!function->resultToBool)
    return PyValue::runtime(result, ld::isUnsigned(variant->result));
  // isnan/isinf: Triton converts the int32 answer to int1.
  mlir::Value zero =
      materialize(PyValue::integer(0), resultElement, asBlock, shape, loc);
  return PyValue::runtime(mlir::arith::CmpIOp::create(
      builder, loc, mlir::arith::CmpIPredicate::ne, result, zero));
}

} // namespace tile::frontend::mlirgen
