//===- StageCopies.cpp - the stages of a pipelined loop and their copies --===//

#include "StageCopies.h"
#include "LoopIteration.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

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

uint64_t mlir::tilegpu::getStageBytes(ArrayRef<tile::LoadOp> loads,
                                      bool releaseBarriers) {
  uint64_t bytes = 0;
  for (tile::LoadOp load : loads) {
    auto type = cast<RankedTensorType>(load.getType());
    bytes += type.getNumElements() * (type.getElementTypeBitWidth() / 8) +
             (isTmaLoad(load) ? (releaseBarriers ? 16 : 8) : 0);
  }
  return bytes;
}

Value mlir::tilegpu::constantOf(OpBuilder &b, Location loc, Type type,
                                int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

namespace {
/// Starts fetching `tensormap` where the kernel begins, once per tensor map,
/// when it is a kernel argument (a host descriptor's): the fetch then
/// overlaps everything before the first copy instead of delaying it.
void prefetchAtEntry(Value tensormap) {
  auto argument = dyn_cast<BlockArgument>(tensormap);
  if (!argument || !argument.getOwner()->isEntryBlock() ||
      !isa<FunctionOpInterface>(argument.getOwner()->getParentOp()))
    return;
  Block *entry = argument.getOwner();
  for (auto prefetch : entry->getOps<PrefetchTensormapOp>())
    if (prefetch.getTensormap() == tensormap)
      return;
  OpBuilder b = OpBuilder::atBlockBegin(entry);
  PrefetchTensormapOp::create(b, argument.getLoc(), tensormap);
}

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

std::optional<StagedLoop> mlir::tilegpu::setUpStages(
    scf::ForOp loop, ArrayRef<tile::LoadOp> loads, ArrayRef<unsigned> aheadArgs,
    ArrayRef<unsigned> steppedArgs, unsigned stages, bool releaseStages) {
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
  auto wrapIncrement = [&](OpBuilder &yb, Location l, Value counter) {
    Value next = arith::AddIOp::create(yb, l, counter, one);
    Value wraps = arith::CmpIOp::create(yb, l, arith::CmpIPredicate::eq, next,
                                        stageCount);
    return arith::SelectOp::create(yb, l, wraps, zero, next).getResult();
  };
  SmallVector<Value> inits = {zero, constantOf(b, loc, i32, stages - 1)};
  if (anyTma)
    inits.push_back(zero);
  IRRewriter rewriter(b);
  rewriter.setInsertionPoint(loop);
  unsigned stageArgs = loop.getNumRegionIterArgs();
  FailureOr<LoopLikeOpInterface> counted = loop.replaceWithAdditionalYields(
      rewriter, inits,
      /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location l, ArrayRef<BlockArgument> args) {
        Value nextRead = wrapIncrement(yb, l, args[0]);
        SmallVector<Value> next = {nextRead, wrapIncrement(yb, l, args[1])};
        if (args.size() == 3) {
          Value wrapped = arith::CmpIOp::create(yb, l, arith::CmpIPredicate::eq,
                                                nextRead, zero);
          Value flipped = arith::XOrIOp::create(yb, l, args[2], one);
          next.push_back(
              arith::SelectOp::create(yb, l, wrapped, flipped, args[2]));
        }
        return next;
      });
  if (failed(counted))
    return std::nullopt; // nothing else has changed yet
  StagedLoop staged;
  staged.stages = stages;
  staged.loop = loop = cast<scf::ForOp>(counted->getOperation());
  b.setInsertionPoint(loop); // the old loop is gone
  staged.readStage = loop.getRegionIterArgs()[stageArgs];
  staged.writeStage = loop.getRegionIterArgs()[stageArgs + 1];
  if (anyTma)
    staged.phase = loop.getRegionIterArgs()[stageArgs + 2];

  for (tile::LoadOp load : loads) {
    auto type = cast<RankedTensorType>(load.getType());
    bool transposed = isTransposedLoad(load);
    SmallVector<int64_t> shape = {int64_t(stages)};
    if (type.getRank() == 1)
      shape.push_back(type.getDimSize(0)); // a plain stage
    else
      shape.append({type.getDimSize(transposed ? 1 : 0),
                    type.getDimSize(transposed ? 0 : 1)});
    auto memdesc =
        MemDescType::get(b.getContext(), shape, type.getElementType());
    staged.buffers.push_back(LocalAllocOp::create(b, loc, memdesc));
    Value barriers, releaseBarriers;
    if (isTmaLoad(load)) {
      prefetchAtEntry(load.getTensormap());
      auto type = BarriersType::get(b.getContext(), stages);
      barriers = LocalAllocOp::create(b, loc, type);
      InitBarriersOp::create(b, loc, barriers);
      if (releaseStages) {
        releaseBarriers = LocalAllocOp::create(b, loc, type);
        InitBarriersOp::create(b, loc, releaseBarriers,
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
    Value notFirst =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                              loop.getInductionVar(), loop.getLowerBound());
    Value wait = arith::AndIOp::create(b, loc, notFirst, inRange);
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
