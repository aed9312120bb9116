//===- DebugOps.cpp - tile.print formats and tile.inline_asm_elementwise --===//
//
// What the interpreter and the GPU lowering of tile.print share, so that
// both print the same lines: the printf conversion of each element type
// (Triton's), the width of the element indices and the operand tag. And the
// verifier and memory effects of tile.inline_asm_elementwise.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/InlineAsm.h"
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

  std::string problem =
      checkInlineAsmConstraints(getOperandTypes(), getResultTypes(),
                                getConstraints(), getPackedElement());
  if (!problem.empty())
    return emitOpError(problem);
  return success();
}

std::string mlir::tile::checkInlineAsmConstraints(TypeRange argTypes,
                                                  TypeRange resultTypes,
                                                  StringRef constraints,
                                                  unsigned pack) {
  // The registers the constraints must name: per argument and result,
  // pack elements in registers of 32 bits or more.
  std::string problem;
  auto registers = [&](TypeRange types, unsigned &count) {
    for (Type type : types) {
      Type element = getElementTypeOrSelf(type);
      if (element.isInteger(1)) {
        problem = "cannot pass i1 elements through inline asm; convert them "
                  "to an 8- or 32-bit integer";
        return;
      }
      unsigned perRegister =
          InlineAsmElementwiseOp::getElementsPerRegister(element, pack);
      if (perRegister > 1 && !llvm::isPowerOf2_32(pack)) {
        problem = "pack must be a power of two for elements narrower than "
                  "32 bits, got " +
                  std::to_string(pack);
        return;
      }
      count += pack / perRegister;
    }
  };
  unsigned wantOutputs = 0, wantInputs = 0;
  registers(resultTypes, wantOutputs);
  registers(argTypes, wantInputs);
  if (!problem.empty())
    return problem;
  unsigned outputs = 0, inputs = 0;
  SmallVector<StringRef> entries;
  constraints.split(entries, ',');
  for (StringRef entry : entries) {
    entry = entry.trim();
    if (entry.empty() || entry.starts_with("~"))
      continue;
    ++(entry.starts_with("=") ? outputs : inputs);
  }
  if (outputs == wantOutputs && inputs == wantInputs)
    return "";
  return "the constraints \"" + constraints.str() + "\" name " +
         std::to_string(outputs) + " outputs and " + std::to_string(inputs) +
         " inputs; with pack = " + std::to_string(pack) + " the " +
         std::to_string(resultTypes.size()) + " result(s) need " +
         std::to_string(wantOutputs) + " output registers and the " +
         std::to_string(argTypes.size()) + " argument(s) " +
         std::to_string(wantInputs) + " input registers";
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
