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

#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tile {
class DotOp;
class ReduceOp;
class ScanOp;
} // namespace mlir::tile
namespace mlir::tilegpu {
class ConvertLayoutOp;
} // namespace mlir::tilegpu

namespace mlir::tilegpu {

/// The symbol of the shared-memory buffer every scratch user shares.
inline constexpr llvm::StringLiteral kSharedScratchSymbol = "tile_smem";
/// The module attribute recording the shared memory a kernel uses (bytes).
inline constexpr llvm::StringLiteral kSharedBytesAttr = "tilegpu.shared";
/// Static shared memory a program may use without opting in.
inline constexpr unsigned kMaxStaticSharedBytes = 48 * 1024;

/// The registers of a converted tensor value.
SmallVector<Value> unpackStruct(OpBuilder &b, Location loc, Value packed);
/// A struct of type `structType` holding `values`.
Value packStruct(OpBuilder &b, Location loc, Type structType,
                 ValueRange values);

/// The generic address (addrspace 3) of byte `offset` of the scratch buffer.
Value getScratchPointer(OpBuilder &b, Location loc, Value byteOffset);
/// bar.sync 0: every thread of the program reaches it before any passes.
void emitBarrier(OpBuilder &b, Location loc);
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
/// An i32 constant.
Value i32Constant(OpBuilder &b, Location loc, int64_t value);
/// Bytes one element of `type` (builtin, tile pointer or LLVM type) takes in
/// shared memory (i1 takes one, pointers eight).
unsigned getSharedElementBytes(Type type);

/// Shared-memory scratch bytes `op` needs while it runs (0 for none).
unsigned getScratchBytes(Operation *op);

/// Scratch bytes of each op's lowering (0 when it needs none).
unsigned getDotScratchBytes(tile::DotOp op);
unsigned getReduceScratchBytes(tile::ReduceOp op);
unsigned getScanScratchBytes(tile::ScanOp op);
unsigned getConvertLayoutScratchBytes(ConvertLayoutOp op);

void populateDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateReduceOpToLLVMPatterns(LLVMTypeConverter &converter,
                                    RewritePatternSet &patterns);
void populateScanOpToLLVMPatterns(LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);
void populateShapeOpToLLVMPatterns(LLVMTypeConverter &converter,
                                   RewritePatternSet &patterns);
void populateMathOpToLLVMPatterns(LLVMTypeConverter &converter,
                                  RewritePatternSet &patterns);

} // namespace mlir::tilegpu

#endif // TILE_CONVERSION_TILEGPUTOLLVM_UTILITY_H
