//===- LayoutIndexing.h - which elements a thread holds ---------*- C++ -*-===//
//
// The code-generation side of a distributed layout: for the thread running
// the code, the tensor coordinates of each of its registers, as LLVM-dialect
// values computed from the thread index.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
#define TILE_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::tilegpu {

/// Per-axis register coordinates of register `reg` of a thread: registers
/// are numbered along the layout's order, fastest axis first.
SmallVector<unsigned> getRegisterCoords(DistributedLayoutInterface layout,
                                        ArrayRef<int64_t> shape, unsigned reg);

/// For a blocked layout that `shape` does not replicate, the constant part
/// of register `reg`'s coordinates: emitIndices gives the thread's base plus
/// this. Nullopt for other layouts.
std::optional<SmallVector<int64_t>>
getRegisterOffsets(DistributedLayoutInterface layout, ArrayRef<int64_t> shape,
                   unsigned reg);

/// The constant part of register `reg`'s (row, column) under an mma layout:
/// emitIndices gives the thread's base (its warp's and lane's) plus this.
std::pair<int64_t, int64_t> getMmaRegisterOffset(MmaEncodingAttr mma,
                                                 ArrayRef<int64_t> shape,
                                                 unsigned reg);

/// For each register of the calling thread (in the order above), the i32
/// tensor coordinate along each axis.
SmallVector<SmallVector<Value>> emitIndices(OpBuilder &builder, Location loc,
                                            DistributedLayoutInterface layout,
                                            ArrayRef<int64_t> shape);

/// For each register of the calling thread under a blocked layout, whether
/// the thread holds the element's first copy (a tensor smaller than the
/// layout's tile is replicated across threads): an i1, or null where no
/// copy exists. Empty for other layouts. Ops with side effects per element
/// (atomics) run only where this is true.
SmallVector<Value> emitFirstCopyMasks(OpBuilder &builder, Location loc,
                                      DistributedLayoutInterface layout,
                                      ArrayRef<int64_t> shape);

} // namespace mlir::tilegpu

#endif // TILE_CONVERSION_TILEGPUTOLLVM_LAYOUTINDEXING_H
