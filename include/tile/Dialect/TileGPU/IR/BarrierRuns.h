//===- BarrierRuns.h - init_barriers and inval_barriers in runs -*- C++ -*-===//
//
// A loop's mbarrier rings are set up one after the other and torn down one
// after the other, with only allocations and ops without memory effects
// between. The lowering (TmaOpToLLVM.cpp) gives a run of init_barriers one
// fence and bar.sync, after its last, and a run of inval_barriers one
// bar.sync, before its first; the barrier analysis (Membar.cpp) counts the
// barriers where the lowering puts them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_BARRIERRUNS_H
#define TILE_DIALECT_TILEGPU_IR_BARRIERRUNS_H

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tilegpu {

/// The op of type `OpT` that continues `op`'s run after it (`forward`) or
/// before it: the nearest such op in its block with only allocations and
/// ops without memory effects between, or null.
template <typename OpT> OpT getRunNeighbour(Operation *op, bool forward) {
  for (Operation *other = forward ? op->getNextNode() : op->getPrevNode();
       other; other = forward ? other->getNextNode() : other->getPrevNode()) {
    if (auto found = dyn_cast<OpT>(other))
      return found;
    if (!isa<LocalAllocOp>(other) && !isMemoryEffectFree(other))
      return {};
  }
  return {};
}

} // namespace mlir::tilegpu

#endif // TILE_DIALECT_TILEGPU_IR_BARRIERRUNS_H
