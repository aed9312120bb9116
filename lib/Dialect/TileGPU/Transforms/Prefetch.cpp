//===- Prefetch.cpp - load the next iteration's dot operands early --------===//
//
// tilegpu-prefetch software-pipelines the loads that feed a tile.dot in an
// scf.for: each such load is issued one iteration ahead, into registers the
// loop carries, so that its global-memory latency overlaps the current
// iteration's dot. Before the loop the load runs for the first iteration;
// in the body, where the load was, it runs for the next one (its pointer,
// mask and other operands recomputed for iteration i + 1), masked off when
// there is none; the old load's users take the carried value.
//
// A load qualifies when it sits directly in the loop body, its result
// reaches a tile.dot of the body (through layout conversions), and its
// operands are computed in the body only by side-effect-free ops without
// regions from the induction variable, the iter_args (whose yielded values
// are computed likewise) and values defined outside the loop. The loop's
// step must be a positive constant. Runs when num-stages is at least 2
// (Triton's num_stages; deeper pipelines through shared memory are not
// done: every depth above 1 prefetches one iteration ahead).
//
//===----------------------------------------------------------------------===//

#include "LoopIteration.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPREFETCH
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// `load` from `values`' iteration, masked off unless `inRange` (an i1).
Value emitLoad(OpBuilder &builder, tile::LoadOp load, IterationValues &values,
               Value inRange) {
  Location loc = load.getLoc();
  Value ptr = values.get(load.getPtr());
  Value mask = tile::SplatOp::create(
      builder, loc, tile::getI1SameShape(load.getPtr().getType()), inRange);
  if (load.getMask())
    mask =
        arith::AndIOp::create(builder, loc, values.get(load.getMask()), mask);
  Value other = load.getOther() ? values.get(load.getOther()) : Value();
  auto copy = tile::LoadOp::create(builder, loc, load.getType(), ptr, mask,
                                   other, load.getCache(), load.getEvict(),
                                   load.getIsVolatile());
  return copy.getResult();
}

void prefetch(scf::ForOp loop, ArrayRef<tile::LoadOp> loads) {
  Location loc = loop.getLoc();
  IRRewriter rewriter(loop.getContext());
  Value step = loop.getStep(), lower = loop.getLowerBound(),
        upper = loop.getUpperBound();

  // The first iteration's loads, before the loop.
  rewriter.setInsertionPoint(loop);
  IterationValues first(loop, rewriter, lower,
                        [&](unsigned i) { return loop.getInitArgs()[i]; });
  Value anyIteration = arith::CmpIOp::create(
      rewriter, loc, arith::CmpIPredicate::slt, lower, upper);
  SmallVector<Value> inits;
  for (tile::LoadOp load : loads)
    inits.push_back(emitLoad(rewriter, load, first, anyIteration));

  // The loop carries them; in the body, each load is replaced by the next
  // iteration's.
  unsigned oldArgs = loop.getNumRegionIterArgs();
  auto grown = loop.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &, Location, ArrayRef<BlockArgument>) {
        SmallVector<Value> next;
        for (tile::LoadOp load : loads) {
          OpBuilder at(load);
          scf::ForOp body = cast<scf::ForOp>(load->getParentOp());
          Value nextIv =
              arith::AddIOp::create(at, loc, body.getInductionVar(), step);
          Value inRange = arith::CmpIOp::create(
              at, loc, arith::CmpIPredicate::slt, nextIv, upper);
          // This iteration's values the body computes only after the load
          // (the yielded pointer updates), recomputed here once each.
          IterationValues current(
              body, at, body.getInductionVar(),
              [&](unsigned j) { return Value(body.getRegionIterArgs()[j]); });
          IterationValues following(body, at, nextIv, [&](unsigned i) {
            // The next iteration's iter_arg: this one's yielded value.
            Value yielded = body.getYieldedValues()[i];
            Operation *def = yielded.getDefiningOp();
            if (!def || !body->isProperAncestor(def) ||
                def->isBeforeInBlock(load))
              return yielded;
            return current.get(yielded);
          });
          next.push_back(emitLoad(at, load, following, inRange));
        }
        return next;
      });
  if (failed(grown))
    return;
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  for (unsigned i = 0; i < loads.size(); ++i) {
    tile::LoadOp load = loads[i];
    load.getResult().replaceAllUsesWith(
        newLoop.getRegionIterArgs()[oldArgs + i]);
    load->erase();
  }
}

struct Prefetch : public tilegpu::impl::TileGPUPrefetchBase<Prefetch> {
  using TileGPUPrefetchBase::TileGPUPrefetchBase;

  void runOnOperation() override {
    if (numStages < 2)
      return;
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      APInt stepValue;
      if (!matchPattern(loop.getStep(), m_ConstantInt(&stepValue)) ||
          !stepValue.isStrictlyPositive())
        continue;
      SmallVector<tile::LoadOp> loads;
      for (auto load : loop.getBody()->getOps<tile::LoadOp>()) {
        llvm::SmallPtrSet<Value, 16> visited;
        if (feedsDot(load) &&
            llvm::all_of(load->getOperands(), [&](Value operand) {
              return isRecomputable(loop, operand, visited);
            }))
          loads.push_back(load);
      }
      if (!loads.empty())
        prefetch(loop, loads);
    }
  }
};
} // namespace
