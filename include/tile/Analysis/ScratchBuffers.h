//===- ScratchBuffers.h - shared-memory scratch of tilegpu ops --*- C++ -*-===//
//
// Some ops move data between threads through shared memory while they run:
// a reduction across warps, a layout conversion that changes which thread
// holds an element, the CUDA-core dot, a scalar atomic whose old value is
// used (thread 0 performs it and passes the value on), a scalar load that
// must be one value (isUniformScalarLoad). How many bytes each needs, and where
// each part of its scratch lies, is decided here, once, for both the
// shared-memory allocator (lib/Analysis/Allocation.cpp) and the lowerings
// (lib/Conversion/TileGPUToLLVM), so the two cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_SCRATCHBUFFERS_H
#define TILE_ANALYSIS_SCRATCHBUFFERS_H

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include <optional>

namespace mlir::tilegpu {

/// Bytes one element of `type` (an integer, float or tile pointer type)
/// takes in shared memory: i1 takes one, pointers eight.
unsigned getSharedElementBytes(Type type);

/// Whether the scalar load `op` is performed by thread 0 alone and its value
/// passed to every thread through shared memory. A scalar is one value per
/// program; read by every thread, a word another program is changing can
/// differ between them, and a branch on it can then split the program at a
/// barrier (tutorial 05's `count = tl.load(Count)` under its lock). So loads
/// marked volatile, and every scalar load of a kernel with atomics, are
/// read once.
bool isUniformScalarLoad(tile::LoadOp op);

/// Shared-memory scratch bytes `op` needs while it runs (0 for none). Every
/// op with scratch is lowered as: write the buffer, bar.sync, read it;
/// barrier insertion (Membar.cpp) relies on that.
unsigned getScratchBytes(Operation *op);

/// How a blocked or mma operand is reduced along one axis.
struct ReduceGeometry {
  /// Lanes (warps) holding different elements along the axis, and the lane
  /// (warp) id stride between them.
  unsigned distinctLanes, laneStride, distinctWarps, warpStride;
  /// Warps along the axis in the layout (including replicas).
  unsigned warpsAlong;
  /// Elements of the result.
  int64_t outputElements;
};
ReduceGeometry getReduceGeometry(BlockedEncodingAttr layout,
                                 ArrayRef<int64_t> shape, unsigned axis);
/// The same for an mma accumulator layout (lane l of warp w holds rows
/// l / 4 (+ 8) of warp row w % WM and column pairs l % 4 of warp column
/// w / WM % WN); nullopt unless `shape` is a whole number of its tiles
/// (replicated elements would count twice).
std::optional<ReduceGeometry> getMmaReduceGeometry(MmaEncodingAttr layout,
                                                   ArrayRef<int64_t> shape,
                                                   unsigned axis);
/// The geometry of a reduction's operand layout (blocked or mma); nullopt
/// for layouts the reduction lowering does not take.
std::optional<ReduceGeometry> getReduceGeometry(tile::ReduceOp op);

/// The scratch of a reduction across warps: operand i's partials lie at
/// byte `operandOffsets[i]`, `distinctWarps * outputElements` of them.
struct ReduceScratchLayout {
  SmallVector<unsigned> operandOffsets;
  unsigned totalBytes = 0;
};
/// Empty (no bytes) when the reduction stays within warps or its operand's
/// layout is neither blocked nor mma.
ReduceScratchLayout getReduceScratchLayout(tile::ReduceOp op);

/// The dot's scratch: A at 0 and B after it at this offset. The CUDA-core
/// dot stores both row-major (16-byte aligned); an mma.sync dot (mma
/// version 2) row-major with rows padded by 16 bytes; a wgmma dot (mma
/// version 3) in wgmma's swizzled tiles (1024-byte aligned).
int64_t getDotScratchBOffset(tile::DotOp op);
/// The bytes between consecutive rows of operand 0 (A) or 1 (B) in the
/// scratch of a row-major (CUDA-core or mma.sync) dot.
int64_t getDotScratchRowBytes(tile::DotOp op, unsigned operand);
/// Whether `op`'s result has an mma version 3 layout (its lowering is
/// wgmma), or version 2 (mma.sync).
bool isWgmmaDot(tile::DotOp op);
bool isMmaSyncDot(tile::DotOp op);
/// The alignment `op`'s scratch buffer needs.
unsigned getScratchAlignment(Operation *op);

/// The explicit buffer a value holds: (bytes, alignment) of a
/// !tilegpu.memdesc (1024-byte aligned, for wgmma's swizzle), else nullopt.
std::optional<std::pair<uint64_t, uint64_t>> getExplicitBufferSize(Value value);

/// The explicit buffers `op` reads and writes (memdesc operands; the
/// buffer's offset is on the op defining it). Async copies count as writes
/// at the copy, warpgroup_dot and shared_dot reads at the dot: the pipeliner
/// orders the asynchronous part itself (lib/Dialect/TileGPU/Transforms/
/// PipelineLoops.cpp).
void getExplicitBufferAccesses(Operation *op, SmallVectorImpl<Value> &reads,
                               SmallVectorImpl<Value> &writes);

/// Scan geometry of a blocked operand along one axis.
struct ScanGeometry {
  unsigned sizePerThread; // registers per chunk in the register numbering
  unsigned chunkSize;     // distinct elements per chunk: min(spt, size)
  unsigned chunks;        // chunks a thread holds along the axis
  unsigned distinctLanes; // lanes along the axis holding different elements
  unsigned laneStride;    // lane-id distance of neighbours along the axis
  unsigned lanesAlong;    // threadsPerWarp[axis]
  unsigned distinctWarps; // warps along the axis holding different elements
  unsigned warpStride;    // warp-id distance of neighbours along the axis
  unsigned warpsAlong;    // warpsPerCTA[axis]
  int64_t lines;          // independent scans: elements of the other axes
};
ScanGeometry getScanGeometry(BlockedEncodingAttr layout,
                             ArrayRef<int64_t> shape, unsigned axis);
/// Per operand of a scan across warps, the bytes of one scratch slot and the
/// offset of its area; an operand's area holds [chunk][warp][line] chunk
/// totals. `total`, when given, receives the bytes of all areas.
SmallVector<std::pair<unsigned, unsigned>>
getScanScratchAreas(tile::ScanOp op, const ScanGeometry &g,
                    unsigned *total = nullptr);

/// Scratch bytes of each op (0 when it needs none).
unsigned getScanScratchBytes(tile::ScanOp op);
unsigned getReduceScratchBytes(tile::ReduceOp op);
unsigned getDotScratchBytes(tile::DotOp op);
unsigned getConvertLayoutScratchBytes(ConvertLayoutOp op);
/// Whether `op` leaves every element in the same register of the same
/// thread: the same layout, or the row slices of two mma layouts that split
/// rows alike (same version and warps; their n may differ), as attention's
/// running statistics between its two dots. It lowers to nothing.
bool isRegisterIdentityConversion(ConvertLayoutOp op);
/// The same for a conversion from `src` to `dst` (the same layout included).
bool isRegisterIdentityConversion(RankedTensorType src, RankedTensorType dst);
/// A layout conversion goes through a row-major copy of the tensor in its
/// scratch, each row (innermost dimension) followed by this many unused
/// elements. Converting out of an mma layout pads rows by 16 bytes: a warp
/// writes 8 rows of 16 bytes at once, which would otherwise fall in the
/// same banks whenever a row is a multiple of 128 bytes long.
unsigned getConvertLayoutRowPadding(ConvertLayoutOp op);

} // namespace mlir::tilegpu

#endif // TILE_ANALYSIS_SCRATCHBUFFERS_H
