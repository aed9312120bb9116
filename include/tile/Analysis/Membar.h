//===- Membar.h - where shared-memory barriers are needed -------*- C++ -*-===//
//
// Finds the ops before which the threads of a program must synchronize
// (bar.sync) so that no shared-memory access races with another op's, in
// the manner of Triton's Membar analysis.
//
// Each function is walked in program order, tracking the byte intervals of
// shared memory read and written since the last barrier. An op whose own
// accesses conflict with those (read after write, write after read, write
// after write on overlapping bytes) needs a barrier before it; the barrier
// clears what is pending, then the op's accesses are added. Accesses come
// from the offsets tilegpu-allocate-shared-memory recorded: an op with a
// scratch buffer writes all of it, synchronizes the program itself, then
// reads it (every scratch lowering has that shape). So only its writes can
// race with what is pending, and after it only its reads are pending: its
// own barrier orders everything before. An op on an explicit buffer (a
// memdesc operand: async_copy writes it, warpgroup_dot and shared_dot read
// it) accesses the whole buffer, or one stage for a copy into a constant
// stage (ScratchBuffers.h, getExplicitBufferAccesses). A read is pending
// where the op is. A copy's write must not race with what is pending where
// the copy is issued, but it lands only at a later async_wait: until then
// it is in flight (no reader may rely on it, so none conflicts with it),
// and the wait makes it pending like any write. A barrier does not retire
// copies in flight. tilegpu.barrier and tile.debug_barrier clear what is
// pending.
//
// Control flow: nothing is pending at function entry; scf.if joins what its
// branches leave pending (an absent else leaves the entry's); loops
// (scf.for, scf.while, and any region op that does not describe its control
// flow) are iterated to a fixpoint, what is pending at the end of an
// iteration flowing to the start of the next and to the loop's exit, so
// accesses of one iteration are ordered against those of the next. A region
// op's own accesses count as happening before its regions run.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_ANALYSIS_MEMBAR_H
#define TILE_ANALYSIS_MEMBAR_H

#include "tile/Analysis/Allocation.h"

#include "mlir/Support/LogicalResult.h"

namespace mlir::tilegpu {

/// Shared memory read and written since the last barrier.
struct PendingAccesses {
  llvm::SmallVector<Interval> reads, writes;
  /// Writes of async copies issued but not yet waited for.
  llvm::SmallVector<Interval> inFlight;
  /// Writes of TMA copies issued but not yet waited for: the wait for a
  /// barrier's phase makes them visible to every thread that waited, so
  /// they need no barrier after it.
  llvm::SmallVector<Interval> tmaInFlight;

  /// Whether accessing `reads` and `writes` races with what is pending.
  bool conflicts(const PendingAccesses &next) const;
  void join(const PendingAccesses &other);
  /// A barrier: what is pending is ordered (copies in flight stay).
  void clear() {
    reads.clear();
    writes.clear();
  }
  bool operator==(const PendingAccesses &other) const {
    return reads == other.reads && writes == other.writes &&
           inFlight == other.inFlight && tmaInFlight == other.tmaInFlight;
  }
};

class MembarAnalysis {
public:
  /// Analyzes `func` (a function-like op). Fails, with an error at the op,
  /// when an op that needs shared memory has no offset.
  static FailureOr<MembarAnalysis> analyze(Operation *func);

  /// The ops before which a barrier is needed, in program order.
  llvm::ArrayRef<Operation *> getBarrierPoints() const { return barriers; }

private:
  MembarAnalysis() = default;
  LogicalResult visitOp(Operation *op, PendingAccesses &pending, bool record);
  LogicalResult visitRegion(Region &region, PendingAccesses &pending,
                            bool record);
  LogicalResult visitLoop(Operation *op, PendingAccesses &pending, bool record);

  llvm::SmallVector<Operation *> barriers;
};

} // namespace mlir::tilegpu

#endif // TILE_ANALYSIS_MEMBAR_H
