//===- WgmmaOperands.cpp - wgmma's shared-memory operand tiles ------------===//
//
// The descriptor (PTX ISA, "Matrix Descriptor Format"): bits 0-13 the start
// address >> 4, 16-29 the leading-dimension byte offset >> 4, 32-45 the
// stride-dimension byte offset >> 4, 62-63 the swizzle mode (1: 128 B,
// 2: 64 B, 3: 32 B). For a K-major tile the stride offset steps between
// 8-row groups and the leading offset is unused (a k16 slice lies within a
// swizzle row); for an MN-major tile the stride offset still steps between
// 8-row (K) groups and the leading offset between inner blocks of the MN
// dimension.
//
//===----------------------------------------------------------------------===//

#include "WgmmaOperands.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tilegpu;

unsigned WgmmaOperandTile::swizzleBytes() const {
  int64_t rowBytes = cols * elementBytes;
  return rowBytes >= 128 ? 128 : rowBytes >= 64 ? 64 : 32;
}

int64_t WgmmaOperandTile::linearOffset(int64_t outer, int64_t inner) const {
  int64_t s = swizzleBytes();
  int64_t byte = inner * elementBytes;
  return (byte / s) * rows * s + outer * s + byte % s;
}

Value WgmmaOperandTile::emitLinearOffset(OpBuilder &b, Location loc,
                                         Value outer, Value inner) const {
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i32, v);
  };
  int64_t s = swizzleBytes();
  Value byte = LLVM::MulOp::create(b, loc, inner, constant(elementBytes));
  Value block = LLVM::UDivOp::create(b, loc, byte, constant(s));
  return LLVM::AddOp::create(
      b, loc, LLVM::MulOp::create(b, loc, block, constant(rows * s)),
      LLVM::AddOp::create(b, loc,
                          LLVM::MulOp::create(b, loc, outer, constant(s)),
                          LLVM::URemOp::create(b, loc, byte, constant(s))));
}

Value WgmmaOperandTile::emitSwizzle(OpBuilder &b, Location loc,
                                    Value linear) const {
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) -> Value {
    return LLVM::ConstantOp::create(b, loc, i32, v);
  };
  Value group = LLVM::AndOp::create(
      b, loc, LLVM::LShrOp::create(b, loc, linear, constant(7)),
      constant(swizzleBytes() / 16 - 1));
  return LLVM::XOrOp::create(b, loc, linear,
                             LLVM::ShlOp::create(b, loc, group, constant(4)));
}

Value WgmmaOperandTile::emitDescriptor(OpBuilder &b, Location loc,
                                       Value base) const {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  int64_t s = swizzleBytes();
  uint64_t mode = s == 128 ? 1 : s == 64 ? 2 : 3;
  uint64_t strideBytes = 8 * s;
  uint64_t leadingBytes = innerIsK ? 16 : uint64_t(rows) * s;
  uint64_t fixed = ((leadingBytes >> 4) & 0x3FFF) << 16 |
                   ((strideBytes >> 4) & 0x3FFF) << 32 | mode << 62;
  Value field = LLVM::AndOp::create(
      b, loc,
      LLVM::LShrOp::create(b, loc, base,
                           LLVM::ConstantOp::create(b, loc, i32, 4)),
      LLVM::ConstantOp::create(b, loc, i32, 0x3FFF));
  return LLVM::OrOp::create(
      b, loc, LLVM::ZExtOp::create(b, loc, i64, field),
      LLVM::ConstantOp::create(b, loc, i64, int64_t(fixed)));
}

Value WgmmaOperandTile::offsetDescriptor(OpBuilder &b, Location loc,
                                         Value descriptor,
                                         int64_t startLinearOffset) {
  // Shared addresses stay below 256 KiB, so the 14-bit start field cannot
  // carry into the next one.
  if (startLinearOffset == 0)
    return descriptor;
  return LLVM::AddOp::create(
      b, loc, descriptor,
      LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                               descriptorDelta(startLinearOffset)));
}

Value mlir::tilegpu::emitStageAddress(OpBuilder &b, Location loc, Value buffer,
                                      Value stage, int64_t stageBytes) {
  Type i32 = b.getI32Type();
  return LLVM::AddOp::create(
      b, loc, LLVM::PtrToIntOp::create(b, loc, i32, buffer),
      LLVM::MulOp::create(b, loc, stage,
                          LLVM::ConstantOp::create(
                              b, loc, i32, b.getI32IntegerAttr(stageBytes))));
}

FailureOr<StagedOperands> mlir::tilegpu::getStagedOperands(
    OpBuilder &b, Operation *op, Attribute mma, Value a, Value bValue,
    Value aBuffer, Value bBuffer, Value stage, bool bKMajor, Value aStage) {
  auto aType = cast<MemDescType>(a.getType());
  auto bType = cast<MemDescType>(bValue.getType());
  int64_t M = aType.getShape()[1], K = aType.getShape()[2],
          N = bType.getShape()[bKMajor ? 1 : 2];
  SmallVector<int64_t> tile = cast<MmaEncodingAttr>(mma).getShapePerCTATile();
  if (M % tile[0] != 0 || N % tile[1] != 0 || K % 16 != 0)
    return op->emitOpError("needs a result that is a whole number of mma "
                           "tiles and K a multiple of 16");
  unsigned elementBytes = aType.getElementType().getIntOrFloatBitWidth() / 8;
  Location loc = op->getLoc();
  return StagedOperands{
      {M, K, elementBytes, /*innerIsK=*/true},
      bKMajor ? WgmmaOperandTile{N, K, elementBytes, /*innerIsK=*/true}
              : WgmmaOperandTile{K, N, elementBytes, /*innerIsK=*/false},
      emitStageAddress(b, loc, aBuffer, aStage ? aStage : stage,
                       aType.getStageBytes()),
      emitStageAddress(b, loc, bBuffer, stage, bType.getStageBytes()),
      K};
}
