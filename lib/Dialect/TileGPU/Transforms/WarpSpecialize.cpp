//===- WarpSpecialize.cpp - TMA copies from a producer warpgroup ----------===//
//
// tilegpu-warp-specialize: a kernel whose pipelined loop releases its stages
// (tilegpu-pipeline's release_stage / acquire_stage, every stage filled by
// TMA) gets one more warpgroup, whose first thread issues all of its TMA
// copies; the other warps only wait for stages, compute and release them.
// This is the producer / consumer split of FlashAttention-3 and of
// Triton's warp_specialize on Hopper, with the mbarriers tilegpu-pipeline
// already placed as the hand-off: the copies complete on a stage's barrier,
// the consumers' release_stage arrivals complete its release barrier, and
// the producer's acquire_stage waits for those before it refills the stage.
//
// The kernel from its first top-level op that is more than scalar
// arithmetic, an allocation or an mbarrier initialization on becomes
//   scf.if %producer { copies } else { the rest } {tilegpu.warp_roles}
// where %producer is tilegpu.in_producer_warp. The then region is a clone
// of that tail cut down to the copies, acquires and tensor-map prefetches
// and the ops their operands come from (loops keep only the iter_args
// those need); the else region is the tail without them. The mbarriers and
// the buffers the copies fill are allocated, and the mbarriers
// initialized, before the split, so that both sides see them. Shared
// memory placement numbers the producer's region first, so a buffer the
// copies fill stays alive until the consumers' last use of it, as before.
//
// Assumes what tilegpu-pipeline guarantees of released stages: a copy into
// a stage follows an acquire of that stage (or is the stage's first fill),
// and the consumers wait for every copy the producer issues. Kernels that
// initialize mbarriers inside a loop or a branch, or refill a one-stage
// buffer, or that run separate pipelines one after the other, are left
// alone (a loop that continues the pipeline before it, as tilegpu-pipeline
// chains a causal forward's two, runs in the same stages: it is split).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUWARPSPECIALIZE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// One warpgroup produces: setmaxnreg resizes whole warpgroups. Its first
/// thread issues the copies; it keeps 40 registers per thread, enough for
/// the copies' loop-carried coordinates, stages and phases.
constexpr unsigned kProducerWarps = 4;
constexpr unsigned kProducerRegisters = 40;
/// Registers per SM and threads per program (sm_90).
constexpr unsigned kRegisterFile = 65536;
constexpr unsigned kMaxThreads = 1024;

/// The ops the producer warps run: what starts or guards a TMA copy.
bool isProducerOp(Operation *op) {
  return isa<TmaCopyOp, AcquireStageOp, PrefetchTensormapOp>(op);
}

bool holdsProducerOp(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isProducerOp(nested) ? WalkResult::interrupt()
                                    : WalkResult::advance();
      })
      .wasInterrupted();
}

/// An op without side effects or regions on scalars only.
bool isScalarComputation(Operation *op) {
  auto isShaped = [](Type type) { return isa<ShapedType>(type); };
  return isMemoryEffectFree(op) && op->getNumRegions() == 0 &&
         !op->hasTrait<OpTrait::IsTerminator>() &&
         llvm::none_of(op->getResultTypes(), isShaped) &&
         llvm::none_of(op->getOperandTypes(), isShaped);
}

/// The buffer or barriers `value` names, if a top-level local_alloc of
/// `entry` defines it.
LocalAllocOp getTopLevelAlloc(Value value, Block &entry) {
  auto alloc = value.getDefiningOp<LocalAllocOp>();
  return alloc && alloc->getBlock() == &entry ? alloc : LocalAllocOp();
}

/// Where to split the kernel: its first top-level op that is not scalar
/// arithmetic, an allocation or an mbarrier initialization, if producer
/// ops follow and the kernel can be split: every TMA copy fills a
/// top-level buffer, refilled only after an acquire of it; every mbarrier
/// is a top-level buffer initialized at the top level. Also returns the
/// allocations and initializations to move before that op.
Operation *findSplitPoint(func::FuncOp func,
                          SmallVectorImpl<Operation *> &toHoist) {
  // Kernels return nothing: the split runs to the end of the kernel. The
  // added warps must fit in a program.
  if (func.getNumResults() != 0 ||
      (getNumWarps(func) + kProducerWarps) * 32 > kMaxThreads)
    return nullptr;
  // Both sides run what comes before the split, so it holds only scalar
  // arithmetic, allocations and mbarrier initializations: a tensor op's
  // layout spreads it over the consumer warps (the producer's threads would
  // index past it), and a side effect would happen twice.
  Block &entry = func.getBody().front();
  Operation *split = nullptr;
  for (Operation &op : entry)
    if (!isa<LocalAllocOp, InitBarriersOp>(op) && !isScalarComputation(&op)) {
      split = &op;
      break;
    }
  if (!split || split == entry.getTerminator() ||
      !llvm::any_of(llvm::make_range(split->getIterator(), entry.end()),
                    [](Operation &op) { return holdsProducerOp(&op); }))
    return nullptr;
  bool acquires = false, ok = true;
  DenseMap<Value, unsigned> fills;
  DenseSet<Value> acquired;
  llvm::SetVector<Operation *> hoist;
  func.walk([&](Operation *op) {
    if (auto init = dyn_cast<InitBarriersOp>(op)) {
      LocalAllocOp alloc = getTopLevelAlloc(init.getBarriers(), entry);
      if (op->getBlock() != &entry || !alloc) {
        ok = false;
        return;
      }
      if (op->isBeforeInBlock(split))
        return;
      hoist.insert(alloc);
      hoist.insert(op);
    } else if (auto copy = dyn_cast<TmaCopyOp>(op)) {
      LocalAllocOp buffer = getTopLevelAlloc(copy.getBuffer(), entry);
      LocalAllocOp barriers = getTopLevelAlloc(copy.getBarriers(), entry);
      if (!buffer || !barriers) {
        ok = false;
        return;
      }
      // A copy in a loop fills its buffer once per iteration.
      fills[copy.getBuffer()] +=
          op->getParentOfType<LoopLikeOpInterface>() ? 2 : 1;
      for (LocalAllocOp alloc : {buffer, barriers})
        if (split->isBeforeInBlock(alloc))
          hoist.insert(alloc);
    } else if (auto acquire = dyn_cast<AcquireStageOp>(op)) {
      acquires = true;
      acquired.insert(acquire.getBuffer());
      LocalAllocOp barriers = getTopLevelAlloc(acquire.getBarriers(), entry);
      if (!barriers) {
        ok = false;
        return;
      }
      if (split->isBeforeInBlock(barriers))
        hoist.insert(barriers);
    }
  });
  if (!ok || !acquires)
    return nullptr;
  // Separate pipelines one after the other may share shared memory; the
  // producer would fill the second's stages while the consumers still read
  // the first's. (Chained ones share their barriers and initialize none
  // after the first's loop.)
  bool invalidated = false;
  for (Operation &op : entry) {
    if (isa<InitBarriersOp>(op) && invalidated)
      return nullptr;
    if (isa<InvalBarriersOp>(op))
      invalidated = true;
  }
  // A buffer filled more than once is refilled after an acquire; a copy
  // into a one-stage buffer that is not acquired must be its only one.
  for (auto [buffer, count] : fills)
    if (count > 1 && !acquired.contains(buffer))
      return nullptr;
  // Allocations first, then initializations, in their order.
  SmallVector<Operation *> ordered(hoist.begin(), hoist.end());
  llvm::stable_sort(ordered, [](Operation *a, Operation *b) {
    bool aAlloc = isa<LocalAllocOp>(a), bAlloc = isa<LocalAllocOp>(b);
    if (aAlloc != bAlloc)
      return aAlloc;
    return a->isBeforeInBlock(b);
  });
  toHoist.assign(ordered.begin(), ordered.end());
  return split;
}

/// Cuts the ops of `region` (the producer's clone of the kernel's tail)
/// down to the producer ops and what they need: the ops that compute their
/// operands, the loops and branches around them, and of those loops and
/// branches only the results and iter_args that feed a kept op. (The
/// canonicalizer keeps an iter_arg whose only use is its own next value,
/// and the consumer ops cut here have side effects, so it cannot do this.)
class ProducerSlice {
public:
  explicit ProducerSlice(Region &region) : region(region) {}

  void run() {
    region.walk([&](Operation *op) {
      if (isProducerOp(op))
        markOp(op);
    });
    while (!worklist.empty())
      visit(worklist.pop_back_val());
    eraseDeadOps();
    for (auto &[op, live] : livePositions) {
      if (auto loop = dyn_cast<scf::ForOp>(op))
        shrinkLoop(loop, live);
      else
        shrinkBranch(cast<scf::IfOp>(op), live);
    }
  }

private:
  bool inSlice(Operation *op) {
    return op && region.isAncestor(op->getParentRegion());
  }

  void markOp(Operation *op) {
    if (!inSlice(op) || !live.insert(op).second)
      return;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      livePositions.try_emplace(op, loop.getNumResults(), false);
    else if (auto branch = dyn_cast<scf::IfOp>(op))
      livePositions.try_emplace(op, branch.getNumResults(), false);
    worklist.push_back(op);
  }

  void markPosition(Operation *op, unsigned index) {
    markOp(op);
    llvm::BitVector &positions = livePositions[op];
    if (positions.test(index))
      return;
    positions.set(index);
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      markValue(loop.getInitArgs()[index]);
      markValue(loop.getBody()->getTerminator()->getOperand(index));
      return;
    }
    auto branch = cast<scf::IfOp>(op);
    markValue(branch.thenYield().getOperand(index));
    if (!branch.getElseRegion().empty())
      markValue(branch.elseYield().getOperand(index));
  }

  void markValue(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (auto loop = dyn_cast<scf::ForOp>(owner)) {
        if (arg.getArgNumber() == 0)
          markOp(loop);
        else
          markPosition(loop, arg.getArgNumber() - 1);
      }
      return;
    }
    Operation *def = value.getDefiningOp();
    if (!inSlice(def))
      return;
    if (isa<scf::ForOp, scf::IfOp>(def))
      markPosition(def, cast<OpResult>(value).getResultNumber());
    else
      markOp(def);
  }

  void visit(Operation *op) {
    if (inSlice(op->getParentOp()))
      markOp(op->getParentOp());
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      markValue(loop.getLowerBound());
      markValue(loop.getUpperBound());
      markValue(loop.getStep());
      return;
    }
    if (auto branch = dyn_cast<scf::IfOp>(op)) {
      markValue(branch.getCondition());
      return;
    }
    for (Value operand : op->getOperands())
      markValue(operand);
    // Ops with regions other than loops and branches (a reduction's
    // combiner) are kept whole.
    for (Region &nested : op->getRegions())
      nested.walk([&](Operation *inner) {
        live.insert(inner);
        for (Value operand : inner->getOperands())
          markValue(operand);
      });
  }

  void eraseDeadOps() {
    SmallVector<Operation *> dead;
    region.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (live.contains(op) || op->hasTrait<OpTrait::IsTerminator>())
        return WalkResult::advance();
      dead.push_back(op);
      return WalkResult::skip();
    });
    // Uses left by erased ops are only in other dead ops and at the dead
    // positions of kept yields, which shrinkLoop and shrinkBranch drop.
    for (Operation *op : dead)
      op->dropAllUses();
    for (Operation *op : dead)
      op->erase();
  }

  static void dropYieldOperands(Operation *yield, const llvm::BitVector &live) {
    llvm::BitVector dead = live;
    dead.flip();
    yield->eraseOperands(dead);
  }

  /// The elements of `range` at the live `positions`.
  template <typename Range>
  static auto pickLive(Range range, const llvm::BitVector &positions) {
    SmallVector<llvm::detail::ValueOfRange<Range>> live;
    for (unsigned i : positions.set_bits())
      live.push_back(range[i]);
    return live;
  }

  /// Replaces `old`'s results at the live `positions` by `shrunk`'s, in
  /// order, and erases `old` (its other results have no live users).
  static void replaceByShrunk(Operation *old, Operation *shrunk,
                              const llvm::BitVector &positions) {
    unsigned next = 0;
    for (unsigned i : positions.set_bits())
      old->getResult(i).replaceAllUsesWith(shrunk->getResult(next++));
    old->dropAllUses();
    old->erase();
  }

  void shrinkLoop(scf::ForOp loop, const llvm::BitVector &positions) {
    if (positions.all())
      return;
    OpBuilder b(loop);
    auto shrunk = scf::ForOp::create(b, loop.getLoc(), loop.getLowerBound(),
                                     loop.getUpperBound(), loop.getStep(),
                                     pickLive(loop.getInitArgs(), positions));
    shrunk->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
    shrunk.setUnsignedCmp(loop.getUnsignedCmp());
    shrunk.getRegion().takeBody(loop.getRegion());
    Block *body = shrunk.getBody();
    dropYieldOperands(body->getTerminator(), positions);
    llvm::BitVector deadArgs(body->getNumArguments(), false);
    for (unsigned i = 0; i < positions.size(); ++i)
      deadArgs[i + 1] = !positions.test(i);
    body->eraseArguments(deadArgs);
    replaceByShrunk(loop, shrunk, positions);
  }

  void shrinkBranch(scf::IfOp branch, const llvm::BitVector &positions) {
    if (positions.all())
      return;
    OpBuilder b(branch);
    bool hasElse = !branch.getElseRegion().empty();
    auto shrunk = scf::IfOp::create(
        b, branch.getLoc(), pickLive(branch.getResultTypes(), positions),
        branch.getCondition(), hasElse);
    shrunk->setDiscardableAttrs(branch->getDiscardableAttrDictionary());
    shrunk.getThenRegion().takeBody(branch.getThenRegion());
    dropYieldOperands(shrunk.thenYield(), positions);
    if (hasElse) {
      shrunk.getElseRegion().takeBody(branch.getElseRegion());
      dropYieldOperands(shrunk.elseYield(), positions);
    }
    replaceByShrunk(branch, shrunk, positions);
  }

  Region &region;
  DenseSet<Operation *> live;
  SmallVector<Operation *> worklist;
  llvm::MapVector<Operation *, llvm::BitVector> livePositions;
};

/// Whether the producer warps can run `op`: a producer op, a loop or branch
/// around them, or a scalar computation (tensors are laid out over the
/// other warps).
bool runsOnProducer(Operation *op) {
  return isProducerOp(op) || isa<scf::ForOp, scf::IfOp, scf::YieldOp>(op) ||
         isScalarComputation(op);
}

/// Splits `func` at `split` (see the file comment). Fails, with `func`
/// changed, where the producer would need more than runsOnProducer allows.
LogicalResult specialize(func::FuncOp func, Operation *split,
                         ArrayRef<Operation *> toHoist) {
  for (Operation *op : toHoist)
    op->moveBefore(split);
  OpBuilder b(split);
  Location loc = split->getLoc();
  Value producer = InProducerWarpOp::create(b, loc, b.getI1Type());
  auto roles = scf::IfOp::create(b, loc, TypeRange{}, producer,
                                 /*withElseRegion=*/true);
  roles->setAttr(kWarpRolesAttr, b.getUnitAttr());

  // The consumers take the tail as it is, less the copies.
  Block &entry = func.getBody().front();
  Operation *consumerYield = roles.elseYield();
  for (Operation *op = split; op != entry.getTerminator();) {
    Operation *next = op->getNextNode();
    op->moveBefore(consumerYield);
    op = next;
  }
  // The producer takes a copy, then keeps only what the copies need.
  OpBuilder producerBuilder(roles.thenYield());
  IRMapping mapping;
  for (Operation &op : roles.getElseRegion().front().without_terminator())
    producerBuilder.clone(op, mapping);
  ProducerSlice(roles.getThenRegion()).run();
  bool runnable = !roles.getThenRegion()
                       .walk([](Operation *op) {
                         return runsOnProducer(op) ? WalkResult::advance()
                                                   : WalkResult::interrupt();
                       })
                       .wasInterrupted();

  SmallVector<Operation *> copies;
  roles.getElseRegion().walk([&](Operation *op) {
    if (isProducerOp(op))
      copies.push_back(op);
  });
  for (Operation *op : copies)
    op->erase();

  // The producer warpgroup gives registers back to the consumers'.
  unsigned consumerThreads = getNumWarps(func) * 32;
  unsigned producerThreads = kProducerWarps * 32;
  unsigned consumerRegisters = std::min<unsigned>(
      256, (kRegisterFile - producerThreads * kProducerRegisters) /
               consumerThreads / 8 * 8);
  OpBuilder producerFront =
      OpBuilder::atBlockBegin(&roles.getThenRegion().front());
  SetMaxRegistersOp::create(producerFront, loc, kProducerRegisters);
  OpBuilder consumerFront =
      OpBuilder::atBlockBegin(&roles.getElseRegion().front());
  SetMaxRegistersOp::create(consumerFront, loc, consumerRegisters);
  return success(runnable);
}

struct WarpSpecializePass
    : public tilegpu::impl::TileGPUWarpSpecializeBase<WarpSpecializePass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (getTargetComputeCapability(module) < 90)
      return;
    bool any = false;
    SmallVector<func::FuncOp> kernels(module.getOps<func::FuncOp>());
    for (func::FuncOp func : kernels) {
      if (func.isExternal() ||
          (!allKernels && !asksForWarpSpecialization(func)))
        continue;
      // The split works on a copy, which replaces the kernel if it holds.
      auto copy = cast<func::FuncOp>(func->clone());
      module.getBody()->push_back(copy);
      SmallVector<Operation *> toHoist;
      Operation *split = findSplitPoint(copy, toHoist);
      if (!split || failed(specialize(copy, split, toHoist))) {
        copy->erase();
        continue;
      }
      copy->moveBefore(func);
      func->erase();
      any = true;
    }
    if (any)
      module->setAttr(kProducerWarpsAttr,
                      OpBuilder(module).getI32IntegerAttr(kProducerWarps));
  }
};
} // namespace
