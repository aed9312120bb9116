//===- PipelineStagedLoads.cpp - tilegpu-pipeline's staged loads ---------===//
//
// Loops with several wgmma dots (attention's two, the backward's four) have
// their copyable loads staged instead (matchStagedLoads): the body waits
// for iteration i's stages (S-2 groups pending), then starts iteration
// i+S-1's copies, so one barrier after the wait orders both; each dot is a
// warpgroup_dot that completes in its iteration. Its A comes from a stage,
// from registers (an mma-layout f16 block: P), or from a one-stage buffer
// stored once before the loop, after its first copies, when the loop does
// not change it (q; a later loop storing the same value reads the same
// buffer), else in each iteration. Such a loop's small side loads (1-D,
// 4-byte elements: the backward's rows of M and Delta) are staged with the
// dots' operands into plain 1-D stages and read back with local_load in the
// layout their use wants; the iter_args they need, which the body also
// reads, are stepped S-1 times for the copies instead of running ahead
// (addSideLoads).
//
// An invariant A loaded through a host descriptor's tensor map in the
// loop's own block (the forward's q) is not stored from registers: a TMA
// copy where it was loaded fills its buffer, on a barrier of its own that
// the program waits for in phase 0 after the loop's first copies.
//
// Where every staged load is copied with TMA (StageCopies.h), in a program
// of several warpgroups, the warps release each stage on a second mbarrier
// after the dot that read it, and thread 0 waits for those releases before
// refilling it (releasesStages), so no barrier of the whole program is left in
// the loop. Such a loop continues the pipeline of the loop staged before it
// in its block where the two copy the same tensor maps into the same
// stages (StageCopies.h: chainsAfter; a causal forward's two loops).
//
//===----------------------------------------------------------------------===//

#include "PipelineStagedLoads.h"
#include "LoopIteration.h"
#include "PipelineOperands.h"
#include "StageCopies.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {

/// Shared memory left unplanned beside a carried operand's second slot: the
/// mbarriers and the scratch of layout conversions.
constexpr uint64_t kCarriedSlotMargin = 1024;

/// Whether wgmma can read `a` (an operand of `dot`) from the registers it
/// is in: an mma version 3 layout with the dot's warps, all along M, whose
/// tiles split K into whole instructions.
bool isRegisterOperand(Value a, tile::DotOp dot) {
  auto type = cast<RankedTensorType>(a.getType());
  auto aMma = dyn_cast<MmaEncodingAttr>(type.getEncoding());
  auto dMma = cast<MmaEncodingAttr>(dot.getType().getEncoding());
  return aMma && aMma.getVersionMajor() == 3 &&
         aMma.getWarpsPerCTA() == dMma.getWarpsPerCTA() &&
         aMma.getWarpsPerCTA()[1] == 1 &&
         type.getDimSize(1) % aMma.getInstrN() == 0 &&
         (type.getElementType().isF16() || type.getElementType().isBF16());
}

/// Whether `load`, in a loop with staged dots, can be staged besides them:
/// a 1-D block of 4-byte elements (other than zero it has none) that
/// cp.async copies in runs of 4, 8 or 16 bytes.
bool isSideLoadCopyable(tile::LoadOp load, const tile::ModuleAxisInfo &info) {
  auto type = cast<RankedTensorType>(load.getType());
  auto layout = getDistributedLayout(type);
  if (type.getRank() != 1 || type.getElementTypeBitWidth() != 32 ||
      load.getIsVolatile() || load.getTensormap() || !layout)
    return false;
  if (Value other = load.getOther())
    if (!matchPattern(other, m_AnyZeroFloat()) &&
        !matchPattern(other, m_Zero()))
      return false;
  return hasCopyableRuns(load, layout, info, /*axis=*/0);
}

/// Adds to `staged` the loop's small side loads (the attention backward's
/// rows of M and Delta, which the body reads beside its dots): they are
/// copied with the dots' operands and read back from their stage, so their
/// latency hides behind the same S-1 iterations. The iter_args they need
/// stay with their iteration (the body reads them too) and are stepped for
/// the copies; they must not be among the dots' loads' `ahead` ones.
void addSideLoads(StagedLoads &staged, const llvm::SetVector<unsigned> &ahead,
                  const tile::ModuleAxisInfo &info) {
  scf::ForOp loop = staged.loop;
  SmallVector<tile::LoadOp> side;
  for (tile::LoadOp load : loop.getBody()->getOps<tile::LoadOp>()) {
    llvm::SmallPtrSet<Value, 16> visited;
    if (!llvm::is_contained(staged.loads, load) &&
        isSideLoadCopyable(load, info) &&
        llvm::all_of(load->getOperands(), [&](Value operand) {
          return isRecomputable(loop, operand, visited);
        }))
      side.push_back(load);
  }
  if (side.empty())
    return;
  llvm::SmallPtrSet<Operation *, 32> slice;
  llvm::SetVector<unsigned> stepped;
  collectLoadSlice(loop, side, slice, stepped);
  if (llvm::any_of(stepped, [&](unsigned i) { return ahead.contains(i); }))
    return;
  staged.loads.append(side.begin(), side.end());
  staged.sideLoads = side.size();
  staged.steppedArgs.assign(stepped.begin(), stepped.end());
}
} // namespace

std::optional<StagedLoads>
mlir::tilegpu::matchStagedLoads(scf::ForOp loop,
                                const tile::ModuleAxisInfo &info) {
  if (!hasCountableSteps(loop))
    return std::nullopt;
  bool nestedDot = false;
  loop.getBody()->walk(
      [&](tile::DotOp dot) { nestedDot |= dot->getBlock() != loop.getBody(); });
  if (nestedDot)
    return std::nullopt;
  StagedLoads result;
  result.loop = loop;
  auto stageable = [&](tile::LoadOp load) {
    llvm::SmallPtrSet<Value, 16> visited;
    return load && load->getBlock() == loop.getBody() &&
           isCopyable(load, info, /*allowTransposed=*/true) &&
           llvm::all_of(load->getOperands(), [&](Value operand) {
             return isRecomputable(loop, operand, visited);
           });
  };
  // A load's index among the staged ones (a load two dots read, as the
  // attention backward's dO and q^T, is staged once).
  auto indexOf = [&](tile::LoadOp load, ArrayRef<Operation *> chain) {
    result.chains.emplace_back(chain.begin(), chain.end());
    auto *it = llvm::find(result.loads, load);
    if (it != result.loads.end())
      return int(it - result.loads.begin());
    result.loads.push_back(load);
    return int(result.loads.size() - 1);
  };
  // The (dot, operand number) uses the staged loads feed.
  llvm::DenseSet<std::pair<Operation *, unsigned>> tracedUses;
  for (tile::DotOp dot : loop.getBody()->getOps<tile::DotOp>()) {
    auto mma = dyn_cast_or_null<MmaEncodingAttr>(dot.getType().getEncoding());
    if (!mma || mma.getVersionMajor() != 3)
      return std::nullopt;
    StagedDot staged;
    staged.dot = dot;
    SmallVector<Operation *> bChain, aChain;
    bool bTransposed = false;
    tile::LoadOp bLoad = traceOperandLoad(dot.getB(), bChain, &bTransposed);
    if (!stageable(bLoad))
      continue; // this dot keeps its synchronous lowering
    // B's stage is N x K (K-major) when the dot reads a transposed load, or
    // a transposed view of one, but not both.
    staged.bKMajor = bTransposed != isTransposedLoad(bLoad);
    tile::LoadOp aLoad = traceOperandLoad(dot.getA(), aChain, nullptr);
    if (stageable(aLoad) && !isTransposedLoad(aLoad)) {
      staged.aLoad = indexOf(aLoad, aChain);
      tracedUses.insert({dot, 0});
    } else {
      // A from registers: wgmma reads it from a one-stage buffer, stored
      // from its value before any layout conversion.
      Value a = dot.getA();
      while (auto convert = a.getDefiningOp<ConvertLayoutOp>())
        a = convert.getSrc();
      auto type = cast<RankedTensorType>(a.getType());
      staged.aFromRegisters = isRegisterOperand(a, dot);
      if (!staged.aFromRegisters &&
          (!getDistributedLayout(type) || type.getDimSize(1) * 2 < 32))
        continue;
      staged.registerA = a;
    }
    staged.bLoad = indexOf(bLoad, bChain);
    tracedUses.insert({dot, 1});
    result.dots.push_back(staged);
  }
  if (result.dots.empty())
    return std::nullopt;
  // The staged loads' values (and their conversions and transposes) may
  // feed only the dot operands traced to them: the loads go.
  llvm::SmallPtrSet<Operation *, 16> chainOps;
  for (ArrayRef<Operation *> chain : result.chains)
    chainOps.insert(chain.begin(), chain.end());
  for (Operation *op : chainOps)
    for (OpOperand &use : op->getUses())
      if (!chainOps.contains(use.getOwner()) &&
          !tracedUses.contains({use.getOwner(), use.getOperandNumber()}))
        return std::nullopt;

  // The iter_args the loads need run ahead: nothing else may see them.
  llvm::SmallPtrSet<Operation *, 32> slice;
  llvm::SetVector<unsigned> ahead;
  collectLoadSlice(loop, result.loads, slice, ahead);
  llvm::SmallPtrSet<Operation *, 8> loads;
  for (tile::LoadOp load : result.loads)
    loads.insert(load);
  for (unsigned index : ahead) {
    if (!loop.getResult(index).use_empty())
      return std::nullopt;
    for (Operation *user : loop.getRegionIterArgs()[index].getUsers())
      if (!slice.contains(user) && !loads.contains(user))
        return std::nullopt;
  }
  result.aheadArgs.assign(ahead.begin(), ahead.end());
  addSideLoads(result, ahead, info);
  return result;
}

bool mlir::tilegpu::releasesStages(const StagedLoads &candidate) {
  return getNumWarps(scf::ForOp(candidate.loop).getOperation()) > 4 &&
         llvm::all_of(candidate.loads, isTmaLoad);
}

void mlir::tilegpu::pipelineStagedLoads(StagedLoads candidate, unsigned stages,
                                        uint64_t spareBytes,
                                        StoredOperands &stored,
                                        PipelineChains &chains) {
  // Decided before anything is built between the two loops.
  const StagedLoop *predecessor = nullptr;
  auto last = chains.find(candidate.loop->getBlock());
  if (last != chains.end() && releasesStages(candidate) &&
      chainsAfter(last->second, candidate.loop, candidate.loads, stages))
    predecessor = &last->second;

  // A operands from registers that the loop does not change are stored once,
  // before it (or before an earlier loop that stored them already), after
  // the copies of its first stages: those then start while the operand's
  // own load (tutorial 06's q) is still on its way. An operand loaded
  // through a TMA tensor map is instead copied with TMA where it was
  // loaded, and waited for there.
  OpBuilder b(candidate.loop);
  Location loc = candidate.loop.getLoc();
  Value zero = constantOf(b, loc, b.getI32Type(), 0);
  SmallVector<Value> aBuffers, aSlots; // the buffer and slot each A reads
  SmallVector<std::pair<Value, Value>> invariantStores; // operand, buffer
  SmallVector<LocalAllocOp> newBuffers;
  for (StagedDot &dot : candidate.dots) {
    aSlots.push_back(zero);
    if (dot.aLoad >= 0 || dot.aFromRegisters) {
      aBuffers.push_back({});
      continue;
    }
    bool invariant = !candidate.loop->isAncestor(
        dot.registerA.getParentBlock()->getParentOp());
    if (invariant) {
      auto earlier = stored.find(dot.registerA);
      if (earlier != stored.end() &&
          DominanceInfo().properlyDominates(earlier->second.ready,
                                            candidate.loop)) {
        aBuffers.push_back(earlier->second.buffer);
        aSlots.back() = earlier->second.slot;
        continue;
      }
    }
    auto type = cast<RankedTensorType>(dot.registerA.getType());
    auto memdesc = MemDescType::get(b.getContext(),
                                    {1, type.getDimSize(0), type.getDimSize(1)},
                                    type.getElementType());
    // Loaded in the loop's own block: the copy then runs once for each run
    // of the loop, as its wait and its barrier's invalidation do.
    auto load = dot.registerA.getDefiningOp<tile::LoadOp>();
    if (invariant && load && load->getBlock() == candidate.loop->getBlock() &&
        hasCopyableBlock(load) && isTmaLoad(load)) {
      aBuffers.push_back({}); // copied once the loop is staged
      continue;
    }
    newBuffers.push_back(LocalAllocOp::create(b, loc, memdesc));
    aBuffers.push_back(newBuffers.back());
    if (invariant)
      invariantStores.push_back({dot.registerA, aBuffers.back()});
  }

  std::optional<StagedLoop> staged = setUpStages(
      candidate.loop, candidate.loads, candidate.aheadArgs,
      candidate.steppedArgs, stages, releasesStages(candidate), predecessor);
  if (!staged) {
    for (LocalAllocOp buffer : newBuffers)
      buffer->erase();
    return;
  }
  scf::ForOp loop = staged->loop;
  OpBuilder beforeLoop(loop);
  for (auto [operand, buffer] : invariantStores)
    stored[operand] = {
        LocalStoreOp::create(beforeLoop, loc, operand, buffer, zero), buffer,
        zero};
  SmallVector<Value> operandBarriers;
  for (auto [dot, aBuffer, aSlot] :
       llvm::zip_equal(candidate.dots, aBuffers, aSlots)) {
    if (aBuffer || dot.aLoad >= 0 || dot.aFromRegisters)
      continue;
    // In a carrier's body (a persistent kernel's q, loaded per tile) the
    // buffer is refilled once per carrier iteration: in two slots where
    // the spare shared memory holds another copy, so that a producer warp
    // fills the next tile's while the consumers read this one's.
    auto load = dot.registerA.getDefiningOp<tile::LoadOp>();
    Value buffer, barriers, phase = zero;
    if (staged->carrier) {
      uint64_t bytes = getBlockBytes(cast<RankedTensorType>(load.getType()));
      unsigned slots = spareBytes >= bytes + kCarriedSlotMargin ? 2 : 1;
      std::optional<CarriedOperand> copied =
          copyCarriedOperandWithTma(load, *staged, slots);
      if (!copied)
        return; // an scf.for always takes more iter_args: not reached
      if (slots == 2)
        spareBytes -= bytes;
      buffer = copied->buffer;
      barriers = copied->barriers;
      phase = copied->phase;
      aSlot = copied->slot;
    } else {
      std::tie(buffer, barriers) = copyOperandWithTma(load);
      operandBarriers.push_back(barriers);
    }
    aBuffer = buffer;
    OpBuilder waitBefore(loop); // the carrier's body may have moved
    stored[dot.registerA] = {
        TmaWaitOp::create(waitBefore, loc, barriers, aSlot, phase), buffer,
        aSlot};
  }

  // The body: first the wait for this iteration's stages (S-2 groups left
  // pending), then iteration i+S-1's copies into the stage the previous
  // iteration read, so that they are in flight during all of this one's
  // work. One barrier after the wait (tilegpu-insert-barriers puts it
  // before the copies) then orders both this iteration's reads after every
  // thread's copies and the copies after every warp's dots of the previous
  // iteration, which completed there: each dot is a warpgroup_dot that
  // completes at once (what follows it needs its result).
  OpBuilder start(loop.getBody(), loop.getBody()->begin());
  emitStageWait(start, *staged);
  emitAheadCopies(start, *staged, candidate.loads);
  // The side loads read their stage, in the layout of the conversion that
  // is their only use, if so (no conversion through shared memory then).
  unsigned firstSide = candidate.loads.size() - candidate.sideLoads;
  for (unsigned i = firstSide; i < candidate.loads.size(); ++i) {
    tile::LoadOp load = candidate.loads[i];
    Operation *replaced = load;
    if (load->hasOneUse())
      if (auto convert = dyn_cast<ConvertLayoutOp>(*load->user_begin()))
        replaced = convert;
    OpBuilder lb(load);
    Value read =
        LocalLoadOp::create(lb, load.getLoc(), replaced->getResult(0).getType(),
                            staged->buffers[i], staged->readStage);
    replaced->getResult(0).replaceAllUsesWith(read);
    if (replaced != load)
      replaced->erase();
    load->erase();
  }
  // The wait of the last dot that reads each load's stage, in body order.
  SmallVector<WarpGroupDotWaitOp> lastReads(candidate.loads.size());
  for (auto [dot, aBuffer, aSlot] :
       llvm::zip_equal(candidate.dots, aBuffers, aSlots)) {
    OpBuilder body(dot.dot);
    Location dotLoc = dot.dot.getLoc();
    Value a = aBuffer, aStage = aSlot;
    if (dot.aLoad >= 0) {
      a = staged->buffers[dot.aLoad];
      aStage = Value();
    } else if (dot.aFromRegisters) {
      a = dot.registerA;
      aStage = Value();
    } else if (loop->isAncestor(
                   dot.registerA.getParentBlock()->getParentOp())) {
      LocalStoreOp::create(body, dotLoc, dot.registerA, aBuffer, zero);
    }
    Value started = WarpGroupDotOp::create(
        body, dotLoc, dot.dot.getType(), a, staged->buffers[dot.bLoad],
        staged->readStage, dot.dot.getC(), aStage, dot.bKMajor);
    auto result = WarpGroupDotWaitOp::create(body, dotLoc, dot.dot.getType(),
                                             started, /*pending=*/0);
    lastReads[dot.bLoad] = result;
    if (dot.aLoad >= 0)
      lastReads[dot.aLoad] = result;
    dot.dot.getResult().replaceAllUsesWith(result.getResult());
    dot.dot->erase();
  }
  // Each warp releases a stage once its dots that read it are done.
  for (auto [index, wait] : llvm::enumerate(lastReads))
    if (wait && staged->releaseBarriers[index]) {
      OpBuilder after(wait->getContext());
      after.setInsertionPointAfter(wait);
      emitStageRelease(after, *staged, index);
    }
  eraseReplacedLoads(loop, candidate.chains);
  OpBuilder after(loop->getContext());
  after.setInsertionPointAfter(loop);
  emitAfterLoop(after, *staged);
  for (Value barriers : operandBarriers)
    InvalBarriersOp::create(after, loc, barriers);
  chains[loop->getBlock()] = *staged;
}
