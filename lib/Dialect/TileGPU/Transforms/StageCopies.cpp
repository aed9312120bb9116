//===- StageCopies.cpp - the stages of a pipelined loop and their copies --===//

#include "StageCopies.h"
#include "LoopIteration.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tilegpu;

bool mlir::tilegpu::isTransposedLoad(tile::LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  auto layout = getDistributedLayout(type);
  return type.getRank() == 2 && layout && layout.getLayoutOrder()[0] == 0;
}

bool mlir::tilegpu::isTmaLoad(tile::LoadOp load) {
  auto type = cast<RankedTensorType>(load.getType());
  // The Tensor Memory Accelerator came with sm_90.
  return load.getTensormap() && getTargetComputeCapability(load) >= 90 &&
         !isTransposedLoad(load) &&
         getTensorMapBox(type.getShape(),
                         type.getElementType().getIntOrFloatBitWidth() / 8);
}

uint64_t mlir::tilegpu::getBlockBytes(RankedTensorType type) {
  return type.getNumElements() * (type.getElementTypeBitWidth() / 8);
}

uint64_t mlir::tilegpu::getStageBytes(ArrayRef<tile::LoadOp> loads,
                                      bool releaseBarriers) {
  uint64_t bytes = 0;
  for (tile::LoadOp load : loads)
    bytes += getBlockBytes(cast<RankedTensorType>(load.getType())) +
             (isTmaLoad(load) ? (releaseBarriers ? 16 : 8) : 0);
  return bytes;
}

Value mlir::tilegpu::constantOf(OpBuilder &b, Location loc, Type type,
                                int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

namespace {
/// The ring position after `counter` (i32) in a ring of `size`: counter +
/// 1, back to 0 at `size`. Counters the loop carries step so rather than
/// taking a remainder per iteration, as in Triton. The constants come from
/// the caller, made once outside the loop.
Value stepRing(OpBuilder &b, Location loc, Value counter, Value size,
               Value zero, Value one) {
  Value next = arith::AddIOp::create(b, loc, counter, one);
  Value wraps =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next, size);
  return arith::SelectOp::create(b, loc, wraps, zero, next);
}

/// `phase` flipped where the ring position `next` (stepRing's) wrapped to
/// 0: a slot's barrier completes once per pass round the ring.
Value flipOnWrap(OpBuilder &b, Location loc, Value next, Value phase,
                 Value zero, Value one) {
  Value wrapped =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, next, zero);
  return arith::SelectOp::create(
      b, loc, wrapped, arith::XOrIOp::create(b, loc, phase, one), phase);
}
} // namespace

void mlir::tilegpu::prefetchAtEntry(Value tensormap, bool afterOthers) {
  auto argument = dyn_cast<BlockArgument>(tensormap);
  if (!argument || !argument.getOwner()->isEntryBlock() ||
      !isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
    return;
  Block *entry = argument.getOwner();
  PrefetchTensormapOp last;
  for (auto prefetch : entry->getOps<PrefetchTensormapOp>()) {
    if (prefetch.getTensormap() == tensormap)
      return;
    last = prefetch;
  }
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  if (afterOthers && last)
    b.setInsertionPointAfter(last);
  PrefetchTensormapOp::create(b, argument.getLoc(), tensormap);
}

namespace {
/// Copies `load`'s block for `values`' iteration into `stage` of its
/// buffer, only if `inRange` (cp.async copies are masked off, TMA copies
/// not issued).
void emitCopy(OpBuilder &b, tile::LoadOp load, IterationValues &values,
              Value buffer, Value barriers, Value stage, Value inRange) {
  Location loc = load.getLoc();
  if (barriers) {
    SmallVector<Value> coords;
    for (Value coord : load.getCoords())
      coords.push_back(values.get(coord));
    TmaCopyOp::create(b, loc, values.get(load.getTensormap()), coords, buffer,
                      stage, barriers, inRange);
    return;
  }
  Value mask = tile::SplatOp::create(
      b, loc, tile::getI1SameShape(load.getPtr().getType()), inRange);
  if (load.getMask())
    mask = arith::AndIOp::create(b, loc, values.get(load.getMask()), mask);
  AsyncCopyOp::create(b, loc, values.get(load.getPtr()), buffer, stage, mask,
                      isTransposedLoad(load));
}

/// `current` (a value per iter_arg, at the iteration `values` computes) one
/// iteration on for the iter_args in `indices`: their yields recomputed.
SmallVector<Value> stepIterArgs(scf::ForOp loop, IterationValues &values,
                                ArrayRef<Value> current,
                                ArrayRef<unsigned> indices) {
  SmallVector<Value> next(current);
  for (unsigned index : indices)
    next[index] = values.get(loop.getYieldedValues()[index]);
  return next;
}

void emitCopies(OpBuilder &b, const StagedLoop &staged,
                ArrayRef<tile::LoadOp> loads, IterationValues &values,
                Value stage, Value inRange) {
  for (auto [load, buffer, barriers] :
       llvm::zip_equal(loads, staged.buffers, staged.barriers))
    emitCopy(b, load, values, buffer, barriers, stage, inRange);
  if (staged.anyAsyncCopy())
    AsyncCommitGroupOp::create(b, scf::ForOp(staged.loop).getLoc());
}
} // namespace

scf::ForOp mlir::tilegpu::getPipelineCarrier(scf::ForOp loop,
                                             bool releaseStages) {
  auto carrier = dyn_cast<scf::ForOp>(loop->getParentOp());
  if (!releaseStages || !carrier)
    return {};
  // Another loop in the carrier would be another pipeline that could read
  // an operand this one's carrier refills.
  bool alone = true;
  carrier.getBody()->walk([&](scf::ForOp nested) { alone &= nested == loop; });
  return alone ? carrier : scf::ForOp();
}

namespace {
/// Adds iter_args to `carrier` starting at `inits` (built before it) whose
/// next values `next` gives, at the end of its body; returns the new loop.
scf::ForOp addCarriedValues(
    scf::ForOp carrier, ArrayRef<Value> inits,
    function_ref<SmallVector<Value>(OpBuilder &, ArrayRef<BlockArgument>)>
        next) {
  IRRewriter rewriter(carrier->getContext());
  rewriter.setInsertionPoint(carrier);
  FailureOr<LoopLikeOpInterface> extended = carrier.replaceWithAdditionalYields(
      rewriter, inits, /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &b, Location, ArrayRef<BlockArgument> args) {
        return next(b, args);
      });
  if (failed(extended))
    return {};
  return cast<scf::ForOp>(extended->getOperation());
}
} // namespace

namespace {
/// The stage buffer `load` gets: S stages of its block (transposed where
/// the load is), or of 1-D stages.
MemDescType getStageType(tile::LoadOp load, unsigned stages) {
  auto type = cast<RankedTensorType>(load.getType());
  bool transposed = isTransposedLoad(load);
  SmallVector<int64_t> shape = {int64_t(stages)};
  if (type.getRank() == 1)
    shape.push_back(type.getDimSize(0)); // a plain stage
  else
    shape.append({type.getDimSize(transposed ? 1 : 0),
                  type.getDimSize(transposed ? 0 : 1)});
  return MemDescType::get(load.getContext(), shape, type.getElementType());
}
} // namespace

bool mlir::tilegpu::chainsAfter(const StagedLoop &predecessor, scf::ForOp loop,
                                ArrayRef<tile::LoadOp> loads, unsigned stages) {
  scf::ForOp before = predecessor.loop;
  if (!before || before->getBlock() != loop->getBlock() ||
      !before->isBeforeInBlock(loop) || predecessor.carrier ||
      predecessor.stages != stages || !predecessor.anyReleasedStages() ||
      getPipelineCarrier(loop, /*releaseStages=*/true) ||
      loads.size() != predecessor.buffers.size())
    return false;
  for (auto [index, load] : llvm::enumerate(loads)) {
    tile::LoadOp copy = load;
    if (!isTmaLoad(copy) || !predecessor.releaseBarriers[index] ||
        copy.getTensormap() != predecessor.tensormaps[index] ||
        predecessor.buffers[index].getType() != getStageType(copy, stages))
      return false;
  }
  for (Operation *op = before->getNextNode(); op != loop.getOperation();
       op = op->getNextNode())
    if (!isa<InvalBarriersOp>(op) && !isMemoryEffectFree(op))
      return false;
  return true;
}

std::optional<StagedLoop>
mlir::tilegpu::setUpStages(scf::ForOp loop, ArrayRef<tile::LoadOp> loads,
                           ArrayRef<unsigned> aheadArgs,
                           ArrayRef<unsigned> steppedArgs, unsigned stages,
                           bool releaseStages, const StagedLoop *predecessor) {
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type ivType = loop.getInductionVar().getType();
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound(),
        step = loop.getStep();
  bool anyTma = llvm::any_of(loads, isTmaLoad);

  // The stages the body reads and writes are counters the loop carries
  // (0 and S-1 at first, each wrapping at S), as in Triton: no division by
  // S per iteration. With TMA copies, the parity of the read stage's phase
  // too (0 at first, flipped each time the read counter wraps).
  Type i32 = b.getI32Type();
  Value zero = constantOf(b, loc, i32, 0), one = constantOf(b, loc, i32, 1),
        stageCount = constantOf(b, loc, i32, stages);
  SmallVector<Value> inits = {zero, constantOf(b, loc, i32, stages - 1)};
  if (anyTma)
    inits.push_back(zero);
  // Chained: from where the predecessor's counters and phase stopped.
  if (predecessor)
    inits =
        SmallVector<Value>(scf::ForOp(predecessor->loop)
                               .getResults()
                               .slice(predecessor->counterIndex, inits.size()));
  IRRewriter rewriter(b);
  rewriter.setInsertionPoint(loop);
  unsigned stageArgs = loop.getNumRegionIterArgs();
  FailureOr<LoopLikeOpInterface> counted = loop.replaceWithAdditionalYields(
      rewriter, inits,
      /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location l, ArrayRef<BlockArgument> args) {
        Value nextRead = stepRing(yb, l, args[0], stageCount, zero, one);
        SmallVector<Value> next = {
            nextRead, stepRing(yb, l, args[1], stageCount, zero, one)};
        if (args.size() == 3)
          next.push_back(flipOnWrap(yb, l, nextRead, args[2], zero, one));
        return next;
      });
  if (failed(counted))
    return std::nullopt; // nothing else has changed yet
  StagedLoop staged;
  staged.stages = stages;
  staged.loop = loop = cast<scf::ForOp>(counted->getOperation());
  b.setInsertionPoint(loop); // the old loop is gone
  staged.counterIndex = stageArgs;
  staged.readStage = loop.getRegionIterArgs()[stageArgs];
  staged.writeStage = loop.getRegionIterArgs()[stageArgs + 1];
  if (anyTma)
    staged.phase = loop.getRegionIterArgs()[stageArgs + 2];
  // Carried: the carrier's iterations hand the counters on, from the same
  // first values, and the buffers and barriers are set up before it.
  staged.carrier = getPipelineCarrier(loop, releaseStages);
  Value firstRead = zero, firstPhase = zero;
  if (staged.carrier) {
    unsigned carried = staged.carrier.getNumRegionIterArgs();
    OpBuilder before(staged.carrier);
    SmallVector<Value> carrierInits = {constantOf(before, loc, i32, 0),
                                       constantOf(before, loc, i32, stages - 1),
                                       constantOf(before, loc, i32, 0)};
    staged.carrier =
        addCarriedValues(staged.carrier, carrierInits,
                         [&](OpBuilder &, ArrayRef<BlockArgument>) {
                           return SmallVector<Value>(loop.getResults().slice(
                               stageArgs, carrierInits.size()));
                         });
    if (!staged.carrier)
      return std::nullopt;
    for (unsigned i = 0; i < carrierInits.size(); ++i)
      loop.getInitArgsMutable()[stageArgs + i].assign(
          staged.carrier.getRegionIterArgs()[carried + i]);
    firstRead = staged.carrier.getRegionIterArgs()[carried];
    firstPhase = staged.carrier.getRegionIterArgs()[carried + 2];
    b.setInsertionPoint(loop); // the carrier's body moved to a new block
  }
  if (predecessor) {
    staged.chained = true;
    firstRead = inits[0];
    firstPhase = inits[2];
    staged.buffers = predecessor->buffers;
    staged.barriers = predecessor->barriers;
    staged.releaseBarriers = predecessor->releaseBarriers;
    staged.tensormaps = predecessor->tensormaps;
    // The predecessor's barriers stay valid through this loop: they are
    // invalidated after it instead.
    for (Operation *op = predecessor->loop->getNextNode();
         op != loop.getOperation();) {
      Operation *next = op->getNextNode();
      if (auto inval = dyn_cast<InvalBarriersOp>(op))
        if (llvm::is_contained(staged.barriers, inval.getBarriers()) ||
            llvm::is_contained(staged.releaseBarriers, inval.getBarriers()))
          op->erase();
      op = next;
    }
  }
  OpBuilder setUp(staged.carrier ? staged.carrier.getOperation()
                                 : loop.getOperation());

  for (tile::LoadOp load : predecessor ? ArrayRef<tile::LoadOp>() : loads) {
    staged.buffers.push_back(
        LocalAllocOp::create(setUp, loc, getStageType(load, stages)));
    staged.tensormaps.push_back(isTmaLoad(load) ? load.getTensormap()
                                                : Value());
    Value barriers, releaseBarriers;
    if (isTmaLoad(load)) {
      prefetchAtEntry(load.getTensormap());
      auto type = BarriersType::get(b.getContext(), stages);
      barriers = LocalAllocOp::create(setUp, loc, type);
      InitBarriersOp::create(setUp, loc, barriers);
      if (releaseStages) {
        releaseBarriers = LocalAllocOp::create(setUp, loc, type);
        InitBarriersOp::create(setUp, loc, releaseBarriers,
                               getNumWarps(loop.getOperation()));
      }
    }
    staged.barriers.push_back(barriers);
    staged.releaseBarriers.push_back(releaseBarriers);
  }

  SmallVector<Value> current(loop.getInitArgs());
  for (unsigned s = 0; s + 1 < stages; ++s) {
    Value iv = arith::AddIOp::create(
        b, loc, lower,
        arith::MulIOp::create(b, loc, step, constantOf(b, loc, ivType, s)));
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, upper);
    IterationValues values(loop, b, iv, [&](unsigned i) { return current[i]; });
    Value stage = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(s));
    if (staged.carrier || staged.chained) {
      // Stage firstRead + s, which an earlier run read in the phase before
      // the one this fill completes: the read phase's, or after the wrap
      // the one before it. On fresh barriers the wait for parity 1 passes.
      Value unwrapped = arith::AddIOp::create(b, loc, firstRead, stage);
      Value wraps = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                          unwrapped, stageCount);
      stage = arith::SelectOp::create(
          b, loc, wraps, arith::SubIOp::create(b, loc, unwrapped, stageCount),
          unwrapped);
      Value previousPhase = arith::SelectOp::create(
          b, loc, wraps, firstPhase,
          arith::XOrIOp::create(b, loc, firstPhase, one));
      for (auto [buffer, release] :
           llvm::zip_equal(staged.buffers, staged.releaseBarriers))
        AcquireStageOp::create(b, loc, release, stage, previousPhase, inRange,
                               buffer);
    }
    emitCopies(b, staged, loads, values, stage, inRange);
    SmallVector<unsigned> carried(aheadArgs);
    llvm::append_range(carried, steppedArgs);
    current = stepIterArgs(loop, values, current, carried);
  }
  for (unsigned index : aheadArgs)
    loop.getInitArgsMutable()[index].assign(current[index]);
  staged.steppedArgs.assign(steppedArgs.begin(), steppedArgs.end());
  return staged;
}

void mlir::tilegpu::emitStageWait(OpBuilder &b, const StagedLoop &staged) {
  Location loc = scf::ForOp(staged.loop).getLoc();
  if (staged.anyAsyncCopy())
    AsyncWaitOp::create(b, loc, staged.stages - 2);
  for (Value barriers : staged.barriers)
    if (barriers)
      TmaWaitOp::create(b, loc, barriers, staged.readStage, staged.phase);
}

void mlir::tilegpu::emitAheadCopies(OpBuilder &b, const StagedLoop &staged,
                                    ArrayRef<tile::LoadOp> loads) {
  scf::ForOp loop = staged.loop;
  Location loc = loop.getLoc();
  Value aheadSteps = arith::MulIOp::create(
      b, loc, loop.getStep(),
      constantOf(b, loc, loop.getInductionVar().getType(), staged.stages - 1));
  Value aheadIv =
      arith::AddIOp::create(b, loc, loop.getInductionVar(), aheadSteps);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                        aheadIv, loop.getUpperBound());
  // The stepped iter_args at iteration i+S-1: their yields applied S-1
  // times to this iteration's values.
  SmallVector<Value> current(loop.getRegionIterArgs());
  Value iv = loop.getInductionVar();
  for (unsigned s = 0; !staged.steppedArgs.empty() && s + 1 < staged.stages;
       ++s) {
    IterationValues values(loop, b, iv, [&](unsigned i) { return current[i]; });
    current = stepIterArgs(loop, values, current, staged.steppedArgs);
    iv = arith::AddIOp::create(b, loc, iv, loop.getStep());
  }
  IterationValues ahead(loop, b, aheadIv,
                        [&](unsigned i) -> Value { return current[i]; });
  // The stage written is the one iteration i-1 read: its phase then had
  // the read phase's parity of that iteration. The first iteration writes
  // a stage no iteration has read yet.
  if (staged.anyReleasedStages()) {
    Type i32 = b.getI32Type();
    Value zero = constantOf(b, loc, i32, 0), one = constantOf(b, loc, i32, 1);
    Value wrapped = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          staged.readStage, zero);
    Value previousPhase = arith::SelectOp::create(
        b, loc, wrapped, arith::XOrIOp::create(b, loc, staged.phase, one),
        staged.phase);
    // Carried or chained, the first iteration's stage was read in an
    // earlier run (or its barrier is fresh and the wait for parity 1
    // passes).
    Value wait = inRange;
    if (!staged.carrier && !staged.chained) {
      Value notFirst =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                loop.getInductionVar(), loop.getLowerBound());
      wait = arith::AndIOp::create(b, loc, notFirst, inRange);
    }
    for (auto [buffer, release] :
         llvm::zip_equal(staged.buffers, staged.releaseBarriers))
      if (release)
        AcquireStageOp::create(b, loc, release, staged.writeStage,
                               previousPhase, wait, buffer);
  }
  emitCopies(b, staged, loads, ahead, staged.writeStage, inRange);
}

void mlir::tilegpu::emitStageRelease(OpBuilder &b, const StagedLoop &staged,
                                     unsigned index) {
  ReleaseStageOp::create(b, scf::ForOp(staged.loop).getLoc(),
                         staged.releaseBarriers[index], staged.readStage);
}

void mlir::tilegpu::emitAfterLoop(OpBuilder &b, const StagedLoop &staged) {
  Location loc = scf::ForOp(staged.loop).getLoc();
  // cp.async copies past the end were masked off but still write zeros;
  // TMA copies past the end were never issued.
  if (staged.anyAsyncCopy())
    AsyncWaitOp::create(b, loc, 0);
  OpBuilder::InsertionGuard guard(b);
  if (staged.carrier)
    b.setInsertionPointAfter(staged.carrier);
  for (Value barriers :
       llvm::concat<const Value>(staged.barriers, staged.releaseBarriers))
    if (barriers)
      InvalBarriersOp::create(b, loc, barriers);
}

std::pair<Value, Value> mlir::tilegpu::copyOperandWithTma(tile::LoadOp load) {
  OpBuilder b(load->getContext());
  b.setInsertionPointAfter(load);
  Location loc = load.getLoc();
  auto type = cast<RankedTensorType>(load.getType());
  auto memdesc = MemDescType::get(b.getContext(),
                                  {1, type.getDimSize(0), type.getDimSize(1)},
                                  type.getElementType());
  Value buffer = LocalAllocOp::create(b, loc, memdesc);
  Value barriers =
      LocalAllocOp::create(b, loc, BarriersType::get(b.getContext(), 1));
  InitBarriersOp::create(b, loc, barriers);
  prefetchAtEntry(load.getTensormap());
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  TmaCopyOp::create(b, loc, load.getTensormap(), load.getCoords(), buffer,
                    constantOf(b, loc, b.getI32Type(), 0), barriers, always);
  return {buffer, barriers};
}

std::optional<CarriedOperand>
mlir::tilegpu::copyCarriedOperandWithTma(tile::LoadOp load, StagedLoop &staged,
                                         unsigned slots) {
  Location loc = load.getLoc();
  OpBuilder setUp(staged.carrier);
  auto type = cast<RankedTensorType>(load.getType());
  auto memdesc =
      MemDescType::get(setUp.getContext(),
                       {int64_t(slots), type.getDimSize(0), type.getDimSize(1)},
                       type.getElementType());
  auto barriersType = BarriersType::get(setUp.getContext(), slots);
  Value buffer = LocalAllocOp::create(setUp, loc, memdesc);
  Value barriers = LocalAllocOp::create(setUp, loc, barriersType);
  Value release = LocalAllocOp::create(setUp, loc, barriersType);
  InitBarriersOp::create(setUp, loc, barriers);
  InitBarriersOp::create(setUp, loc, release,
                         getNumWarps(staged.loop.getOperation()));
  prefetchAtEntry(load.getTensormap());
  Type i32 = setUp.getI32Type();
  Value zero = constantOf(setUp, loc, i32, 0);
  Value one = constantOf(setUp, loc, i32, 1);
  unsigned carried = staged.carrier.getNumRegionIterArgs();
  Value slot = zero, phase;
  if (slots == 1) {
    // One slot: the phase flips each iteration.
    staged.carrier =
        addCarriedValues(staged.carrier, {zero},
                         [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
                           return SmallVector<Value>{arith::XOrIOp::create(
                               b, loc, args.front(), one)};
                         });
    if (!staged.carrier)
      return std::nullopt;
    phase = staged.carrier.getRegionIterArgs()[carried];
  } else {
    // The slot steps round the ring, as the stages do; its phase flips
    // when the slot wraps.
    Value size = constantOf(setUp, loc, i32, slots);
    staged.carrier = addCarriedValues(
        staged.carrier, {zero, zero},
        [&](OpBuilder &b, ArrayRef<BlockArgument> args) {
          Value next = stepRing(b, loc, args[0], size, zero, one);
          return SmallVector<Value>{
              next, flipOnWrap(b, loc, next, args[1], zero, one)};
        });
    if (!staged.carrier)
      return std::nullopt;
    slot = staged.carrier.getRegionIterArgs()[carried];
    phase = staged.carrier.getRegionIterArgs()[carried + 1];
  }

  // The copy waits until every warp has released the slot's previous
  // operand, read in the other phase (fresh barriers pass parity 1).
  OpBuilder b(load);
  b.setInsertionPointAfter(load);
  Value previousPhase = arith::XOrIOp::create(b, loc, phase, one);
  Value always = arith::ConstantOp::create(b, loc, b.getBoolAttr(true));
  AcquireStageOp::create(b, loc, release, slot, previousPhase, always, buffer);
  TmaCopyOp::create(b, loc, load.getTensormap(), load.getCoords(), buffer, slot,
                    barriers, always);
  OpBuilder after(staged.loop->getContext());
  after.setInsertionPointAfter(staged.loop);
  ReleaseStageOp::create(after, loc, release, slot);
  OpBuilder end(staged.carrier->getContext());
  end.setInsertionPointAfter(staged.carrier);
  InvalBarriersOp::create(end, loc, barriers);
  InvalBarriersOp::create(end, loc, release);
  return CarriedOperand{buffer, slot, barriers, phase};
}
