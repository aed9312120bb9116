//===- Utility.h - helpers shared by the tilegpu-to-LLVM patterns -*- C++
//-*-===//
//
// A tensor with a distributed layout is lowered to an LLVM struct of the
// registers its layout gives one thread. These helpers pack and unpack those
// structs, reach the program's shared-memory scratch buffer, and emit the
// warp- and program-level primitives (shuffles, barriers) that patterns
// moving data between threads need.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILEGPUTOLLVM_UTILITY_H
#define TILE_CONVERSION_TILEGPUTOLLVM_UTILITY_H

#include "tile/Analysis/Allocation.h"
#include "tile/Analysis/ScratchBuffers.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tile {
class ModuleAxisInfo;
} // namespace mlir::tile

namespace mlir::tilegpu {

/// The registers of a converted tensor value.
SmallVector<Value> unpackStruct(OpBuilder &b, Location loc, Value packed);
/// A struct of type `structType` holding `values`.
Value packStruct(OpBuilder &b, Location loc, Type structType,
                 ValueRange values);

/// The address (addrspace 3) of byte `byteOffset` of the buffer at
/// `bufferOffset` (an op's tilegpu.shared_offset) in shared memory.
Value getScratchPointer(OpBuilder &b, Location loc, uint64_t bufferOffset,
                        Value byteOffset);
/// bar.sync 0: every thread of the program reaches it before any passes.
/// Lowerings use it only between their own write and read phases;
/// tilegpu-insert-barriers orders different ops' accesses.
/// In the consumer warps of a warp-specialized kernel (tilegpu.warp_roles)
/// it is named barrier 1 over those warps instead.
void emitBarrier(OpBuilder &b, Location loc);
/// Which warps run the code at `b`'s insertion point.
WarpRole getWarpRoleAt(OpBuilder &b);
/// i1: this thread issues the program's TMA copies and single-thread
/// operations: thread 0, or the producer warp's first thread in its region.
Value isIssuingThread(OpBuilder &b, Location loc);
/// The issuing thread's id (0, or the producer warpgroup's first thread in
/// its region) and how many warps the code at `b` runs on (the producer's,
/// or num-warps).
int32_t getIssuingThreadId(OpBuilder &b);
int64_t getWarpsAt(OpBuilder &b);
/// shfl.sync.bfly of `value` (any scalar type up to 64 bits) with lane
/// `lane ^ laneMask`.
Value shuffleXor(OpBuilder &b, Location loc, Value value, unsigned laneMask);
/// shfl.sync.up: `value` of lane `lane - delta` (lanes below `delta` get
/// their own value).
Value shuffleUp(OpBuilder &b, Location loc, Value value, unsigned delta);
/// shfl.sync.down: `value` of lane `lane + delta` (lanes past the warp's
/// end get their own value).
Value shuffleDown(OpBuilder &b, Location loc, Value value, unsigned delta);
/// shfl.sync.idx: `value` of lane `lane` (an i32, any per-thread value).
Value shuffleIdx(OpBuilder &b, Location loc, Value value, Value lane);
/// Inlines the single-block combine region of a reduce or scan at `b`'s
/// insertion point on (acc..., cur...) and returns what it yields.
SmallVector<Value> applyCombineRegion(OpBuilder &b, Region &combine,
                                      ValueRange acc, ValueRange cur);
/// Inline PTX `text` (operands `$0`, `$1`...; outputs first) with LLVM
/// inline-asm `constraints`; `result` is null for none. With side effects
/// it stays in place and in order with other side effects.
LLVM::InlineAsmOp createInlinePtx(OpBuilder &b, Location loc, Type result,
                                  ValueRange operands, StringRef text,
                                  StringRef constraints, bool hasSideEffects);
/// Inline PTX with side effects and no result.
void emitPtxStatement(OpBuilder &b, Location loc, StringRef text,
                      StringRef constraints = "", ValueRange operands = {});
/// The inline-asm constraint of a PTX register of `bits` bits (16, 32 or
/// 64): "h", "r" or "l".
StringRef constraintFor(unsigned bits);
/// `value` (a scalar of thread 0) in every thread of the program: thread 0
/// stores it to the scratch at `bufferOffset` (widened to 32 bits), a
/// barrier, every thread loads it.
Value broadcastFromThread0(OpBuilder &b, Location loc, uint64_t bufferOffset,
                           Value value);
/// An i32 constant.
Value i32Constant(OpBuilder &b, Location loc, int64_t value);

/// How many consecutive elements along `dim` a thread's registers of a
/// block of `shape` hold in a run under `layout` (a blocked layout with
/// `dim` fastest, or an mma layout's column pairs; 1 otherwise), at most
/// `limit`.
unsigned getThreadRunLength(Attribute layout, ArrayRef<int64_t> shape,
                            unsigned dim, unsigned limit);
/// Stores `values`, consecutive elements of `elementBytes` each, at `ptr`:
/// one scalar or vector store.
void storeRun(OpBuilder &b, Location loc, ValueRange values, Value ptr,
              unsigned elementBytes);

/// How one thread's registers of a block access group into vectors.
struct VectorPlan {
  unsigned width = 1; // elements per access
  unsigned words = 1; // PTX registers per access
  unsigned wordBits = 32;
};
/// The widest global access allowed through the block of pointers `ptr`
/// with `mask` (null for none): the layout's run of registers along the
/// fastest axis, the pointers' contiguity and alignment, the mask's
/// constancy (AxisInfo).
VectorPlan planVectors(const tile::ModuleAxisInfo &axisInfo, Value ptr,
                       Value mask, unsigned elementBits);

void populateLoadStoreOpToLLVMPatterns(LLVMTypeConverter &converter,
                                       const tile::ModuleAxisInfo &axisInfo,
                                       RewritePatternSet &patterns);
void populateDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateWgmmaDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);
/// Marks the warpgroup_dots whose A sub-tile offsets go into each wgmma's
/// asm (WgmmaDotOpToLLVM.cpp): run before the conversion, which reads it.
void markWgmmaOffsetsInAsm(ModuleOp module);
void populateMmaSyncDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                        RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateScanOpToLLVMPatterns(LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateShapeOpToLLVMPatterns(LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateIndexingOpToLLVMPatterns(LLVMTypeConverter &converter,
                                      RewritePatternSet &patterns);
/// With `libdeviceMath`, the math functions Triton takes from libdevice
/// (log, log2, exp2, sin, cos, sqrt, rsqrt; on fp64 also exp and erf) are
/// calls to it.
void populateMathOpToLLVMPatterns(LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns,
                                  bool libdeviceMath = false);
/// Without libdevice (`libdeviceMath` false) the GPU has no fp64 exp, exp2,
/// log, log2, sin, cos, erf or rsqrt (NVPTX cannot select them): reports
/// each at its line and fails.
LogicalResult checkMathLowerable(ModuleOp module, bool libdeviceMath);
void populateExternOpToLLVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populatePointerCastOpToLLVMPatterns(LLVMTypeConverter &converter,
                                         RewritePatternSet &patterns);
void populateFp8OpToLLVMPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateAtomicOpToLLVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateDebugOpToLLVMPatterns(LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateInlineAsmOpToLLVMPatterns(LLVMTypeConverter &converter,
                                       RewritePatternSet &patterns);
void populateAsyncCopyOpToLLVMPatterns(LLVMTypeConverter &converter,
                                       const tile::ModuleAxisInfo &axisInfo,
                                       RewritePatternSet &patterns);
void populateTmaOpToLLVMPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);

} // namespace mlir::tilegpu

#endif // TILE_CONVERSION_TILEGPUTOLLVM_UTILITY_H
