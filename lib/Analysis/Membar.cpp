//===- Membar.cpp - where shared-memory barriers are needed ---------------===//

#include "tile/Analysis/Membar.h"
#include "tile/Analysis/ScratchBuffers.h"
#include "tile/Dialect/TileGPU/IR/BarrierRuns.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tilegpu;

static bool anyIntersect(ArrayRef<Interval> a, ArrayRef<Interval> b) {
  for (const Interval &x : a)
    for (const Interval &y : b)
      if (x.intersects(y))
        return true;
  return false;
}

/// Adds the intervals of `from` to the sorted, duplicate-free `into`.
static void unite(SmallVector<Interval> &into, ArrayRef<Interval> from) {
  into.append(from.begin(), from.end());
  llvm::sort(into);
  into.erase(std::unique(into.begin(), into.end()), into.end());
}

bool PendingAccesses::conflicts(const PendingAccesses &next) const {
  return anyIntersect(writes, next.reads) || // read after write
         anyIntersect(reads, next.writes) || // write after read
         anyIntersect(writes, next.writes);  // write after write
}

void PendingAccesses::join(const PendingAccesses &other) {
  unite(reads, other.reads);
  unite(writes, other.writes);
  unite(inFlight, other.inFlight);
  unite(tmaInFlight, other.tmaInFlight);
}

/// The bytes of an explicit buffer (a local_alloc with its offset).
static std::optional<Interval> getBufferInterval(Value buffer) {
  Operation *def = buffer.getDefiningOp();
  std::optional<uint64_t> offset = def ? getSharedOffset(def) : std::nullopt;
  if (!offset)
    return std::nullopt;
  return Interval{*offset, *offset + getExplicitBufferSize(buffer)->first};
}

FailureOr<MembarAnalysis> MembarAnalysis::analyze(Operation *func) {
  MembarAnalysis analysis;
  PendingAccesses pending;
  for (Region &region : func->getRegions())
    if (failed(analysis.visitRegion(region, pending, /*record=*/true)))
      return failure();
  return analysis;
}

LogicalResult MembarAnalysis::visitRegion(Region &region,
                                          PendingAccesses &pending,
                                          bool record) {
  if (region.empty())
    return success();
  auto visitBlock = [&](Block &block, PendingAccesses &state,
                        bool recordBlock) -> LogicalResult {
    for (Operation &op : block)
      if (failed(visitOp(&op, state, recordBlock)))
        return failure();
    return success();
  };
  if (region.hasOneBlock())
    return visitBlock(region.front(), pending, record);
  // Unstructured control flow: any block may follow any other, so iterate
  // every block from the join of the entry and all their exits.
  PendingAccesses in = pending;
  while (true) {
    PendingAccesses merged = in;
    for (Block &block : region) {
      PendingAccesses out = in;
      if (failed(visitBlock(block, out, /*recordBlock=*/false)))
        return failure();
      merged.join(out);
    }
    if (merged == in)
      break;
    in = merged;
  }
  for (Block &block : region) {
    PendingAccesses out = in;
    if (failed(visitBlock(block, out, record)))
      return failure();
  }
  pending = in;
  return success();
}

LogicalResult MembarAnalysis::visitLoop(Operation *op, PendingAccesses &pending,
                                        bool record) {
  // The loop may run its regions any number of times, in any order: each
  // starts from the join of the entry and what every region leaves.
  PendingAccesses in = pending;
  while (true) {
    PendingAccesses merged = in;
    for (Region &region : op->getRegions()) {
      PendingAccesses out = in;
      if (failed(visitRegion(region, out, /*record=*/false)))
        return failure();
      merged.join(out);
    }
    if (merged == in)
      break;
    in = merged;
  }
  for (Region &region : op->getRegions()) {
    PendingAccesses out = in;
    if (failed(visitRegion(region, out, record)))
      return failure();
  }
  // Zero or more iterations: the fixpoint covers both.
  pending = in;
  return success();
}

LogicalResult MembarAnalysis::visitOp(Operation *op, PendingAccesses &pending,
                                      bool record) {
  if (isa<BarrierOp, tile::DebugBarrierOp>(op)) {
    pending.clear();
    return success();
  }
  // A run of init_barriers ends with a barrier, a run of inval_barriers
  // starts with one (BarrierRuns.h, TmaOpToLLVM.cpp): after the last init,
  // before the first inval. The inits' writes still need one before them
  // where they overlap pending accesses (memory a buffer used before).
  bool endsInitRun = isa<InitBarriersOp>(op) &&
                     !getRunNeighbour<InitBarriersOp>(op, /*forward=*/true);
  if (isa<InvalBarriersOp>(op) &&
      !getRunNeighbour<InvalBarriersOp>(op, /*forward=*/false))
    pending.clear();
  // Every warp released the stages of the buffer it guards after its reads:
  // they are ordered before thread 0's next copy into it, which is the
  // only write the pipeline makes there (PipelineLoops.cpp).
  if (auto acquire = dyn_cast<AcquireStageOp>(op)) {
    std::optional<Interval> guarded = getBufferInterval(acquire.getBuffer());
    if (!guarded)
      return op->emitError("guards a shared-memory buffer with no ")
             << kSharedOffsetAttr
             << "; run tilegpu-allocate-shared-memory first";
    llvm::erase_if(pending.reads, [&](const Interval &read) {
      return read.intersects(*guarded);
    });
    return success();
  }
  // TMA copies land visible to every thread that waits for them, and every
  // thread does: nothing is left to order.
  if (isa<TmaWaitOp>(op)) {
    pending.tmaInFlight.clear();
    return success();
  }
  // The copies in flight land: other threads read them after a barrier.
  if (isa<AsyncWaitOp>(op)) {
    unite(pending.writes, pending.inFlight);
    pending.inFlight.clear();
    return success();
  }

  // Explicit buffers (memdesc operands): accesses where the op is.
  SmallVector<Value> bufferReads, bufferWrites;
  getExplicitBufferAccesses(op, bufferReads, bufferWrites);
  if (!bufferReads.empty() || !bufferWrites.empty()) {
    PendingAccesses accesses;
    auto addInterval = [&](Value buffer,
                           SmallVector<Interval> &into) -> LogicalResult {
      std::optional<Interval> whole = getBufferInterval(buffer);
      if (!whole)
        return op->emitError("reads or writes a shared-memory buffer with no ")
               << kSharedOffsetAttr
               << "; run tilegpu-allocate-shared-memory first";
      uint64_t start = whole->start, end = whole->end;
      // A copy into a constant stage touches only that stage.
      APInt stage;
      Value copyStage;
      if (auto copy = dyn_cast<AsyncCopyOp>(op))
        copyStage = copy.getStage();
      if (auto copy = dyn_cast<TmaCopyOp>(op))
        copyStage = copy.getStage();
      if (copyStage && matchPattern(copyStage, m_ConstantInt(&stage))) {
        uint64_t stageBytes =
            cast<MemDescType>(buffer.getType()).getStageBytes();
        start += stage.getZExtValue() * stageBytes;
        end = start + stageBytes;
      }
      into.push_back({start, end});
      return success();
    };
    for (Value buffer : bufferReads)
      if (failed(addInterval(buffer, accesses.reads)))
        return failure();
    for (Value buffer : bufferWrites)
      if (failed(addInterval(buffer, accesses.writes)))
        return failure();
    if (pending.conflicts(accesses)) {
      if (record)
        barriers.push_back(op);
      pending.clear();
    }
    if (isa<AsyncCopyOp>(op))
      std::swap(accesses.writes, accesses.inFlight);
    if (isa<TmaCopyOp>(op))
      std::swap(accesses.writes, accesses.tmaInFlight);
    pending.join(accesses);
  }
  if (endsInitRun) {
    pending.clear();
    return success();
  }

  if (unsigned bytes = getScratchBytes(op)) {
    std::optional<uint64_t> offset = getSharedOffset(op);
    if (!offset)
      return op->emitError("needs ")
             << bytes << " bytes of shared memory but has no "
             << kSharedOffsetAttr
             << "; run tilegpu-allocate-shared-memory first";
    // Every scratch lowering writes its buffer, synchronizes, then reads
    // it (getScratchBytes' contract). Only the writes can race with what is
    // pending; the op's own barrier then orders everything before it, so
    // what it leaves pending is its reads.
    Interval interval{*offset, *offset + bytes};
    PendingAccesses writes;
    writes.writes.push_back(interval);
    if (pending.conflicts(writes) && record)
      barriers.push_back(op);
    pending.clear();
    pending.reads.push_back(interval);
  }

  if (op->getNumRegions() == 0)
    return success();

  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    PendingAccesses elseOut = pending;
    if (failed(visitRegion(ifOp.getThenRegion(), pending, record)) ||
        failed(visitRegion(ifOp.getElseRegion(), elseOut, record)))
      return failure();
    pending.join(elseOut);
    return success();
  }

  if (auto whileOp = dyn_cast<scf::WhileOp>(op)) {
    // before -> (exit | after -> before).
    PendingAccesses in = pending;
    while (true) {
      PendingAccesses out = in;
      if (failed(visitRegion(whileOp.getBefore(), out, /*record=*/false)) ||
          failed(visitRegion(whileOp.getAfter(), out, /*record=*/false)))
        return failure();
      PendingAccesses merged = in;
      merged.join(out);
      if (merged == in)
        break;
      in = merged;
    }
    pending = in;
    if (failed(visitRegion(whileOp.getBefore(), pending, record)))
      return failure();
    PendingAccesses afterOut = pending;
    return visitRegion(whileOp.getAfter(), afterOut, record);
  }

  return visitLoop(op, pending, record);
}
