//===- OverlapChainedDots.cpp - start a loop's first dot a step ahead -----===//
//
// tilegpu-overlap-chained-dots rewrites a loop that tilegpu-pipeline staged
// with TMA copies and whose body runs two chained wgmma dots, each waited
// for at once (attention's forward):
//
//   loop j:  s = dot1(q, k[j]); wait {pending 0}
//            p, alpha = softmax(s), ...                         (part 0)
//            acc = dot2(p, v[j], acc * alpha); wait {pending 0} (part 1)
//
// into FlashAttention-3's intra-warpgroup overlap:
//
//   if lb < ub:
//     part 0 of iteration lb
//     loop j = lb + step ..:
//       s = dot1(q, k[j])                                   (started)
//       acc = dot2(p[j-1], v[j-1], acc * alpha[j-1])        (started)
//       s = wait s {pending 1}
//       the rest of part 0 of iteration j (the softmax, while dot2 runs)
//       acc = wait acc {pending 0}
//     part 1 of the last iteration
//
// Part 1 is the second dot, its wait, the ops only its accumulator operand
// needs (the rescale) and the TMA waits, copies, acquires and releases of
// the buffer it reads; everything else is part 0. The values part 1 takes from
// part 0 and from the iter_args (p, alpha, the read stage and its phase, the
// copies' coordinates and predicate) are carried one iteration further. The
// copies of the second dot's buffer move one iteration later with it: iteration
// j's copy fills the stage iteration j-2's dot read (after every warp has
// released it, or after the barrier before the first dot's copies), never
// the stage iteration j-1's dot reads during iteration j. The copy of
// iteration j is still issued S-1 iterations before the dot that reads it.
//
// mlir::scf::pipelineForLoop is not used: with bounds known only at run
// time it predicates every op of the peeled iterations through a callback,
// and warpgroup_dot and the TMA ops have no predicated form; one scf.if
// around the prologue, loop and epilogue is what this needs.
//
// Assumes the staged form: each warpgroup_dot's only user is a
// warpgroup_dot_wait with pending 0. A loop qualifies when it has exactly
// two warpgroup_dots, the second's A in registers (a buffer stored in each
// iteration would be overwritten while the dot reads it) and its B a buffer
// the first does not read, its result only yielded and its accumulator
// iter_arg used only by part 1, and no cp.async copies (their commit
// groups count whole iterations).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUOVERLAPCHAINEDDOTS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct ChainedDots {
  scf::ForOp loop;
  WarpGroupDotWaitOp firstWait, secondWait;
  unsigned accIndex;
  /// Part 1's ops.
  llvm::SmallPtrSet<Operation *, 16> late;
  /// What part 1 reads from part 0 and the iter_args (but the accumulator).
  llvm::SetVector<Value> crossing;
};

/// The wait that is `dot`'s only user, in its block, with pending 0.
WarpGroupDotWaitOp getImmediateWait(WarpGroupDotOp dot) {
  if (!dot->hasOneUse())
    return {};
  auto wait = dyn_cast<WarpGroupDotWaitOp>(*dot->user_begin());
  if (!wait || wait->getBlock() != dot->getBlock() || wait.getPending() != 0)
    return {};
  return wait;
}

/// Part 1 of `chain`'s loop into chain.late: the second dot and its wait,
/// the TMA copies into its buffer `late`, the acquires of that buffer, the
/// waits and releases on their barriers (returned), and the ops of the
/// accumulator operand that nothing else uses.
llvm::SmallPtrSet<Value, 4> collectPartOne(ChainedDots &chain,
                                           WarpGroupDotOp second, Value late) {
  Block *body = chain.loop.getBody();
  chain.late.insert(second);
  chain.late.insert(chain.secondWait);
  llvm::SmallPtrSet<Value, 4> lateBarriers;
  for (auto copy : body->getOps<TmaCopyOp>())
    if (copy.getBuffer() == late) {
      chain.late.insert(copy);
      lateBarriers.insert(copy.getBarriers());
    }
  for (auto acquire : body->getOps<AcquireStageOp>())
    if (acquire.getBuffer() == late) {
      chain.late.insert(acquire);
      lateBarriers.insert(acquire.getBarriers());
    }
  for (Operation &op : *body)
    if (isa<TmaWaitOp, ReleaseStageOp>(op) &&
        lateBarriers.contains(op.getOperand(0)))
      chain.late.insert(&op);
  llvm::SmallPtrSet<Operation *, 16> accSlice;
  SmallVector<Value> worklist = {second.getAcc()};
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || def->getBlock() != body || !accSlice.insert(def).second)
      continue;
    worklist.append(def->operand_begin(), def->operand_end());
  }
  for (Operation &op : llvm::reverse(body->without_terminator()))
    if (accSlice.contains(&op) && op.getNumResults() != 0 &&
        op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
        llvm::all_of(op.getUsers(), [&](Operation *user) {
          return chain.late.contains(user);
        }))
      chain.late.insert(&op);
  return lateBarriers;
}

std::optional<ChainedDots> match(scf::ForOp loop) {
  Block *body = loop.getBody();
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return std::nullopt;
  SmallVector<WarpGroupDotOp> dots;
  bool asyncCopies = false;
  loop.getBody()->walk([&](Operation *op) {
    if (auto dot = dyn_cast<WarpGroupDotOp>(op))
      dots.push_back(dot);
    asyncCopies |= isa<AsyncCopyOp, AsyncWaitOp, AsyncCommitGroupOp>(op);
  });
  if (dots.size() != 2 || asyncCopies || dots[0]->getBlock() != body ||
      dots[1]->getBlock() != body)
    return std::nullopt;
  WarpGroupDotOp first = dots[0], second = dots[1];
  ChainedDots chain;
  chain.loop = loop;
  chain.firstWait = getImmediateWait(first);
  chain.secondWait = getImmediateWait(second);
  if (!chain.firstWait || !chain.secondWait ||
      !chain.firstWait->isBeforeInBlock(second) ||
      isa<MemDescType>(second.getA().getType()))
    return std::nullopt;
  Value late = second.getB();
  if (first.getA() == late || first.getB() == late)
    return std::nullopt;
  if (!chain.secondWait->hasOneUse() ||
      chain.secondWait->use_begin()->getOwner() != body->getTerminator())
    return std::nullopt;
  chain.accIndex = chain.secondWait->use_begin()->getOperandNumber();

  llvm::SmallPtrSet<Value, 4> lateBarriers =
      collectPartOne(chain, second, late);

  // The accumulator's iteration value is part 1's alone, and part 0 does
  // not touch part 1's buffer or barriers.
  Value acc = loop.getRegionIterArgs()[chain.accIndex];
  if (!llvm::all_of(acc.getUsers(),
                    [&](Operation *user) { return chain.late.contains(user); }))
    return std::nullopt;
  for (Operation &op : body->without_terminator()) {
    if (chain.late.contains(&op)) {
      if (op.getNumRegions() != 0)
        return std::nullopt;
      for (Value operand : op.getOperands()) {
        if (operand == acc)
          continue;
        auto arg = dyn_cast<BlockArgument>(operand);
        Operation *def = operand.getDefiningOp();
        if ((arg && arg.getOwner() == body) ||
            (def && def->getBlock() == body && !chain.late.contains(def)))
          chain.crossing.insert(operand);
      }
      continue;
    }
    WalkResult touches = op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (operand == late || lateBarriers.contains(operand))
          return WalkResult::interrupt();
      return WalkResult::advance();
    });
    if (touches.wasInterrupted())
      return std::nullopt;
  }
  return chain;
}

void overlap(ChainedDots &chain) {
  scf::ForOp loop = chain.loop;
  Block *body = loop.getBody();
  Location loc = loop.getLoc();
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  unsigned numArgs = loop.getNumRegionIterArgs();
  Value acc = loop.getRegionIterArgs()[chain.accIndex];
  // Part 1's ops in body order, split at the second dot's wait: what
  // follows it (the release of its stage) follows it in the new loop too.
  SmallVector<Operation *> lateOps, afterSecondWait;
  for (Operation &op : body->without_terminator())
    if (chain.late.contains(&op))
      (chain.secondWait->isBeforeInBlock(&op) ? afterSecondWait : lateOps)
          .push_back(&op);

  // Nothing runs when the loop does not (a causal forward's first loop for
  // its first row block).
  OpBuilder b(loop);
  Value runs =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                            loop.getLowerBound(), loop.getUpperBound());
  auto guard = scf::IfOp::create(b, loc, loop.getResultTypes(), runs,
                                 /*withElseRegion=*/true);
  b.setInsertionPointToStart(guard.elseBlock());
  scf::YieldOp::create(b, loc, loop.getInitArgs());

  // Part 0 of the first iteration.
  b.setInsertionPointToStart(guard.thenBlock());
  IRMapping prologue;
  prologue.map(loop.getInductionVar(), loop.getLowerBound());
  prologue.map(loop.getRegionIterArgs(), loop.getInitArgs());
  for (Operation &op : body->without_terminator())
    if (!chain.late.contains(&op))
      b.clone(op, prologue);

  // The loop from the second iteration, carrying what part 1 needs.
  SmallVector<Value> inits;
  for (unsigned i = 0; i < numArgs; ++i)
    inits.push_back(i == chain.accIndex
                        ? loop.getInitArgs()[i]
                        : prologue.lookupOrDefault(yield.getOperand(i)));
  for (Value value : chain.crossing)
    inits.push_back(prologue.lookupOrDefault(value));
  Value second =
      arith::AddIOp::create(b, loc, loop.getLowerBound(), loop.getStep());
  auto rotated = scf::ForOp::create(b, loc, second, loop.getUpperBound(),
                                    loop.getStep(), inits);
  rotated->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  Block *newBody = rotated.getBody();
  if (!newBody->empty())
    newBody->getTerminator()->erase();
  IRMapping early, delayed;
  early.map(loop.getInductionVar(), rotated.getInductionVar());
  early.map(loop.getRegionIterArgs(),
            rotated.getRegionIterArgs().take_front(numArgs));
  delayed.map(acc, rotated.getRegionIterArgs()[chain.accIndex]);
  for (auto [i, value] : llvm::enumerate(chain.crossing))
    delayed.map(value, rotated.getRegionIterArgs()[numArgs + i]);
  OpBuilder kb = OpBuilder::atBlockEnd(newBody);
  for (Operation &op : body->without_terminator()) {
    if (chain.late.contains(&op))
      continue;
    if (&op == chain.firstWait.getOperation()) {
      // The previous iteration's part 1 starts its dot behind the first
      // dot; the first dot's wait then leaves that one in flight.
      for (Operation *lateOp : lateOps)
        if (lateOp != chain.secondWait.getOperation())
          kb.clone(*lateOp, delayed);
      auto wait = cast<WarpGroupDotWaitOp>(kb.clone(op, early));
      wait.setPending(1);
      continue;
    }
    kb.clone(op, early);
  }
  kb.clone(*chain.secondWait, delayed);
  for (Operation *lateOp : afterSecondWait)
    kb.clone(*lateOp, delayed);
  SmallVector<Value> yielded;
  for (unsigned i = 0; i < numArgs; ++i)
    yielded.push_back(i == chain.accIndex
                          ? delayed.lookup(chain.secondWait.getResult())
                          : early.lookupOrDefault(yield.getOperand(i)));
  for (Value value : chain.crossing)
    yielded.push_back(early.lookupOrDefault(value));
  scf::YieldOp::create(kb, loc, yielded);

  // Part 1 of the last iteration.
  b.setInsertionPointAfter(rotated);
  IRMapping epilogue;
  epilogue.map(acc, rotated.getResult(chain.accIndex));
  for (auto [i, value] : llvm::enumerate(chain.crossing))
    epilogue.map(value, rotated.getResult(numArgs + i));
  for (Operation *lateOp : llvm::concat<Operation *>(lateOps, afterSecondWait))
    b.clone(*lateOp, epilogue);
  SmallVector<Value> results(rotated.getResults().take_front(numArgs));
  results[chain.accIndex] = epilogue.lookup(chain.secondWait.getResult());
  scf::YieldOp::create(b, loc, results);

  loop.replaceAllUsesWith(guard.getResults());
  loop.erase();
}

struct OverlapChainedDots
    : public tilegpu::impl::TileGPUOverlapChainedDotsBase<OverlapChainedDots> {
  void runOnOperation() override {
    std::vector<ChainedDots> chains;
    getOperation().walk([&](scf::ForOp loop) {
      if (auto chain = match(loop))
        chains.push_back(std::move(*chain));
    });
    for (ChainedDots &chain : chains)
      overlap(chain);
  }
};
} // namespace
