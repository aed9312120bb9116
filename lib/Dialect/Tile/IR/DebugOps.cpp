//===- DebugOps.cpp - tile.print formats and tile.inline_asm_elementwise --===//
//
// What the interpreter and the GPU lowering of tile.print share, so that
// both print the same lines: the printf conversion of each element type
// (Triton's), the width of the element indices and the operand tag. And the
// verifier and memory effects of tile.inline_asm_elementwise.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tile;

//===----------------------------------------------------------------------===//
// tile.print
//===----------------------------------------------------------------------===//

std::string PrintOp::getValueFormat(Type elementType, bool hex, bool isSigned) {
  if (isa<PointerType>(elementType))
    return "%p";
  unsigned bits = elementType.getIntOrFloatBitWidth();
  if (hex)
    return "0x%0" + std::to_string(bits / 4) + (bits > 32 ? "llx" : "x");
  if (isa<FloatType>(elementType))
    return "%f";
  if (bits == 64)
    return isSigned ? "%lli" : "%llu";
  return isSigned ? "%i" : "%u";
}

unsigned PrintOp::getIndexWidth(int64_t dim) {
  return dim > 0 ? unsigned(std::ceil(std::log10(double(dim)))) : 0;
}

std::string PrintOp::getOperandTag(unsigned operand) {
  if (getArgs().size() < 2)
    return "";
  return "(operand " + std::to_string(operand) + ") ";
}

bool PrintOp::isSignedArg(unsigned operand) {
  ArrayRef<int32_t> isSigned = getIsSigned();
  return operand < isSigned.size() && isSigned[operand] != 0;
}

//===----------------------------------------------------------------------===//
// tile.inline_asm_elementwise
//===----------------------------------------------------------------------===//

unsigned InlineAsmElementwiseOp::getElementsPerRegister(Type elementType,
                                                        unsigned pack) {
  unsigned bits =
      elementType.isIntOrFloat() ? elementType.getIntOrFloatBitWidth() : 64;
  return std::min(bits < 32 ? 32 / bits : 1u, pack);
}

LogicalResult InlineAsmElementwiseOp::verify() {
  if (getResults().empty())
    return emitOpError("needs at least one result (dtype)");
  auto shapeOf = [](Type type) -> std::optional<ArrayRef<int64_t>> {
    if (auto tensor = dyn_cast<RankedTensorType>(type))
      return tensor.getShape();
    return std::nullopt;
  };
  std::optional<ArrayRef<int64_t>> shape = shapeOf(getResult(0).getType());
  SmallVector<Type> types(getOperandTypes());
  llvm::append_range(types, getResultTypes());
  for (Type type : types)
    if (shapeOf(type) != shape)
      return emitOpError("arguments and results must all be scalars or all "
                         "blocks of one shape");

  // The registers the constraints must name: per argument and result,
  // pack elements in registers of 32 bits or more.
  unsigned pack = getPackedElement();
  auto registers = [&](TypeRange types, unsigned &count) -> LogicalResult {
    for (Type type : types) {
      Type element = getElementTypeOrSelf(type);
      if (element.isInteger(1))
        return emitOpError("cannot pass i1 elements through inline asm; "
                           "convert them to an 8- or 32-bit integer");
      unsigned perRegister = getElementsPerRegister(element, pack);
      if (perRegister > 1 && !llvm::isPowerOf2_32(pack))
        return emitOpError("pack must be a power of two for elements "
                           "narrower than 32 bits, got ")
               << pack;
      count += pack / perRegister;
    }
    return success();
  };
  unsigned wantOutputs = 0, wantInputs = 0;
  if (failed(registers(getResultTypes(), wantOutputs)) ||
      failed(registers(getOperandTypes(), wantInputs)))
    return failure();
  unsigned outputs = 0, inputs = 0;
  SmallVector<StringRef> entries;
  StringRef(getConstraints()).split(entries, ',');
  for (StringRef entry : entries) {
    entry = entry.trim();
    if (entry.empty() || entry.starts_with("~"))
      continue;
    ++(entry.starts_with("=") ? outputs : inputs);
  }
  if (outputs != wantOutputs || inputs != wantInputs)
    return emitOpError("the constraints \"")
           << getConstraints() << "\" name " << outputs << " outputs and "
           << inputs << " inputs; with pack = " << pack << " the "
           << getNumResults() << " result(s) need " << wantOutputs
           << " output registers and the " << getNumOperands()
           << " argument(s) " << wantInputs << " input registers";
  return success();
}

void InlineAsmElementwiseOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (getPure())
    return;
  effects.emplace_back(MemoryEffects::Read::get(),
                       SideEffects::DefaultResource::get());
  effects.emplace_back(MemoryEffects::Write::get(),
                       SideEffects::DefaultResource::get());
}
