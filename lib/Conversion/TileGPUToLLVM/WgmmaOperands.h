//===- WgmmaOperands.h - wgmma's shared-memory operand tiles ----*- C++ -*-===//
//
// How a wgmma operand tile lies in shared memory, and the matrix
// descriptors that tell wgmma so. A tile has an outer dimension (rows) and
// a contiguous inner one: A is M x K with K inner ("K-major"), B is K x N
// with N inner ("MN-major", read with wgmma's transpose-B), except for
// tf32, which wgmma reads K-major only: then B is N x K. The inner
// dimension is cut into blocks of `swizzleBytes` (128 when a row has that
// many bytes, else 64 or 32); a block holds every row, `swizzleBytes`
// apart, so element (o, i) lies at the linear byte offset
//   (i*e / s) * rows * s + o * s + (i*e % s)           (e element bytes)
// and at the swizzled offset linear ^ (((linear >> 7) & (s/16 - 1)) << 4):
// 16-byte chunks permuted within each 8-row group, which makes both the
// row-wise stores and wgmma's reads free of bank conflicts. Tiles start
// 1024-byte aligned, so the swizzle of the offset is that of the address.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILEGPUTOLLVM_WGMMAOPERANDS_H
#define TILE_CONVERSION_TILEGPUTOLLVM_WGMMAOPERANDS_H

#include "mlir/IR/Builders.h"

#include <cstdint>

namespace mlir::tilegpu {

struct WgmmaOperandTile {
  int64_t rows;          // extent of the outer dimension
  int64_t cols;          // extent of the inner (contiguous) dimension
  unsigned elementBytes; // 2 for fp16 and bf16, 4 for tf32
  bool innerIsK;         // K-major (A, and tf32's B) rather than MN-major

  /// 128, 64 or 32: the widest swizzle a row's bytes fill.
  unsigned swizzleBytes() const;
  /// The linear (unswizzled) byte offset of element (outer, inner).
  int64_t linearOffset(int64_t outer, int64_t inner) const;
  /// The same for i32 values computed at run time.
  Value emitLinearOffset(OpBuilder &b, Location loc, Value outer,
                         Value inner) const;
  /// `linear` with the swizzle applied (LLVM i32 values).
  Value emitSwizzle(OpBuilder &b, Location loc, Value linear) const;
  /// The 64-bit wgmma descriptor of the tile whose shared address is
  /// `base` (i32): the swizzle mode, and the byte strides between 8-row
  /// groups and between inner blocks.
  Value emitDescriptor(OpBuilder &b, Location loc, Value base) const;
  /// `descriptor` moved to the sub-tile at byte `startLinearOffset` (a
  /// multiple of 16): one 64-bit add, as the start field is the low bits.
  /// What moving a descriptor to the sub-tile at byte `startLinearOffset`
  /// (a multiple of 16) adds to it: the start address field's units.
  static int64_t descriptorDelta(int64_t startLinearOffset) {
    return startLinearOffset >> 4;
  }
  static Value offsetDescriptor(OpBuilder &b, Location loc, Value descriptor,
                                int64_t startLinearOffset);
};

/// The i32 shared address of stage `stage` (an i32) of the buffer at
/// `buffer` (an LLVM shared pointer) whose stages are `stageBytes` long.
Value emitStageAddress(OpBuilder &b, Location loc, Value buffer, Value stage,
                       int64_t stageBytes);

/// The PTX name of a tensor-core input element type (wgmma and mma.sync):
/// bf16, tf32 for f32, else f16.
inline llvm::StringRef getMmaInputType(Type element) {
  return element.isBF16() ? "bf16" : element.isF32() ? "tf32" : "f16";
}

/// One stage of a pipelined dot's operand buffers (local_alloc's swizzled
/// tiles: A M x K, K-major; B K x N, MN-major, or N x K, K-major) and its
/// shared addresses.
struct StagedOperands {
  WgmmaOperandTile a, b;
  Value aBase, bBase; // i32 shared addresses of the stage
  int64_t K;
};
/// The operands of warpgroup_dot and shared_dot (`op`, with memdesc
/// operands `a` and `b` lowered to `aBuffer` and `bBuffer`) at `stage` (A
/// at `aStage` where given), B K-major when `bKMajor`; fails with an error on
/// `op` unless the accumulator `mma` tiles the result and K is a multiple
/// of 16.
FailureOr<StagedOperands>
getStagedOperands(OpBuilder &b, Operation *op, Attribute mma, Value a,
                  Value bValue, Value aBuffer, Value bBuffer, Value stage,
                  bool bKMajor = false, Value aStage = {});

} // namespace mlir::tilegpu

#endif // TILE_CONVERSION_TILEGPUTOLLVM_WGMMAOPERANDS_H
