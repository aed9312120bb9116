//===- PipelineLoops.cpp - software-pipeline a loop's tensor-core dot ----===//
//
// tilegpu-pipeline rewrites an scf.for whose body computes
//   acc = tile.dot(load(a_ptrs, mask), load(b_ptrs, mask), acc)
// (the accumulator in an #tilegpu.mma layout) into Triton's
// num_stages-deep pipeline through shared memory:
//
//   a, b = local_alloc (S stages each)
//   prologue: for s < S-1: async_copy iteration s into stage s; commit
//   loop i:   async_wait (S-2 groups pending: iteration i has landed)
//             acc = warpgroup_dot a, b [i % S], acc       (async wgmma)
//             acc = warpgroup_dot_wait acc {pending = 1}  (i-1 has finished)
//             async_copy iteration i+S-1 into stage (i-1) % S; commit
//   after:    warpgroup_dot_wait {pending = 0}; async_wait {pending = 0}
//
// so that each iteration's tensor-core work overlaps the global loads of the
// next S-1 iterations and the wgmma of the previous one. The stages read and
// written are two i32 counters the loop carries (i % S and (i-1) % S). With
// an mma version 2 accumulator (mma.sync) the dot is the synchronous
// shared_dot on the stage, with no waits for it. The iter_args that only
// feed the loads (the pointer blocks) run S-1 iterations ahead: the
// prologue advances them, and the body's copies use them with the induction
// variable shifted by S-1 steps. Copies past the last iteration are masked
// off (cp.async reads nothing and writes zeros), so every iteration commits
// one group and the wait counts stay uniform. tilegpu-insert-barriers then
// places the barriers: before the dot (copies of all threads landed) and
// before the next copies (every warp's dot of i-1 done with the stage they
// overwrite).
//
// A loop qualifies when: its step is a positive constant; its body holds
// one such dot, whose operands are loads (possibly through convert_layout)
// used only by it, with f16/bf16 elements, no `other` but zero, a layout
// whose registers run along the last (contiguous) axis in 4-, 8- or 16-byte
// pieces; the load operands are recomputable for another iteration
// (LoopIteration.h); the accumulator iter_arg is used only by the dot and
// the dot only by the yield; and the iter_args the loads need are used by
// nothing else, nor are their loop results. S is the loop's tile.num_stages
// (tl.range's num_stages) or else num-stages, lowered to what fits in the
// target's shared memory; below 2 nothing changes.
//
//===----------------------------------------------------------------------===//

#include "LoopIteration.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPIPELINE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct PipelinedDot {
  scf::ForOp loop;
  tile::DotOp dot;
  tile::LoadOp loads[2]; // A, B
  unsigned accArg;
  /// Iter_args that only the loads need: carried S-1 iterations ahead.
  SmallVector<unsigned> aheadArgs;
};

/// The load behind a dot operand (through layout conversions used once).
tile::LoadOp getOperandLoad(Value operand) {
  while (auto convert = operand.getDefiningOp<ConvertLayoutOp>()) {
    if (!convert->hasOneUse())
      return {};
    operand = convert.getSrc();
  }
  auto load = operand.getDefiningOp<tile::LoadOp>();
  if (!load || !load->hasOneUse())
    return {};
  return load;
}

/// Whether `load` can become an async copy into a swizzled wgmma tile.
bool isCopyable(tile::LoadOp load, const tile::ModuleAxisInfo &axisInfo) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || load.getIsVolatile() ||
      !(type.getElementType().isF16() || type.getElementType().isBF16()))
    return false;
  if (Value other = load.getOther())
    if (!matchPattern(other, m_AnyZeroFloat()))
      return false;
  auto layout = getDistributedLayout(type);
  if (!layout || layout.getLayoutOrder()[0] != 1)
    return false;
  unsigned width = std::min(layout.getLayoutSizePerThread()[1],
                            axisInfo.getPtrVectorWidth(load.getPtr(), 1));
  if (Value mask = load.getMask())
    width = std::min(width, axisInfo.getMaskConstancy(mask, 1));
  unsigned bytes = width * 2;
  // The swizzled stage tiles need rows of at least 32 bytes.
  if (type.getDimSize(1) * 2 < 32)
    return false;
  return bytes == 4 || bytes == 8 || bytes == 16;
}

/// Ops of `loop`'s body that compute the loads' operands and the next values
/// of the iter_args they use; those iter_args in `aheadArgs`.
void collectLoadSlice(scf::ForOp loop, ArrayRef<tile::LoadOp> loads,
                      llvm::SmallPtrSetImpl<Operation *> &slice,
                      llvm::SetVector<unsigned> &aheadArgs) {
  SmallVector<Value> worklist;
  for (tile::LoadOp load : loads)
    worklist.append(load->operand_begin(), load->operand_end());
  llvm::SmallPtrSet<Value, 32> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      if (arg.getOwner() == loop.getBody() && arg != loop.getInductionVar()) {
        unsigned index = arg.getArgNumber() - 1;
        aheadArgs.insert(index);
        worklist.push_back(loop.getYieldedValues()[index]);
      }
      continue;
    }
    Operation *def = value.getDefiningOp();
    if (def->getBlock() != loop.getBody() || !slice.insert(def).second)
      continue;
    worklist.append(def->operand_begin(), def->operand_end());
  }
}

std::optional<PipelinedDot> match(scf::ForOp loop,
                                  const tile::ModuleAxisInfo &axisInfo) {
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return std::nullopt;
  Type ivType = loop.getInductionVar().getType();
  if (!ivType.isInteger(32) && !ivType.isIndex())
    return std::nullopt;
  SmallVector<tile::DotOp> dots(loop.getBody()->getOps<tile::DotOp>());
  if (dots.size() != 1)
    return std::nullopt;
  PipelinedDot result;
  result.loop = loop;
  result.dot = dots.front();
  if (!isa_and_nonnull<MmaEncodingAttr>(result.dot.getType().getEncoding()))
    return std::nullopt;

  // The accumulator goes iter_arg -> dot -> yield and nowhere else.
  auto acc = dyn_cast<BlockArgument>(result.dot.getC());
  if (!acc || acc.getOwner() != loop.getBody() ||
      acc == loop.getInductionVar() || !acc.hasOneUse() ||
      !result.dot->hasOneUse())
    return std::nullopt;
  result.accArg = acc.getArgNumber() - 1;
  if (loop.getYieldedValues()[result.accArg] != result.dot.getResult())
    return std::nullopt;

  result.loads[0] = getOperandLoad(result.dot.getA());
  result.loads[1] = getOperandLoad(result.dot.getB());
  for (tile::LoadOp load : result.loads) {
    if (!load || load->getBlock() != loop.getBody() ||
        !isCopyable(load, axisInfo))
      return std::nullopt;
    llvm::SmallPtrSet<Value, 16> visited;
    if (!llvm::all_of(load->getOperands(), [&](Value operand) {
          return isRecomputable(loop, operand, visited);
        }))
      return std::nullopt;
  }

  // The iter_args the loads need run ahead: nothing else may see them.
  llvm::SmallPtrSet<Operation *, 32> slice;
  llvm::SetVector<unsigned> ahead;
  collectLoadSlice(loop, result.loads, slice, ahead);
  for (unsigned index : ahead) {
    if (index == result.accArg || !loop.getResult(index).use_empty())
      return std::nullopt;
    for (Operation *user : loop.getRegionIterArgs()[index].getUsers())
      if (!slice.contains(user) && user != result.loads[0] &&
          user != result.loads[1])
        return std::nullopt;
  }
  result.aheadArgs.assign(ahead.begin(), ahead.end());
  return result;
}

/// An integer constant of `type` (i32 or index).
Value constantOf(OpBuilder &b, Location loc, Type type, int64_t value) {
  return arith::ConstantOp::create(b, loc, type, b.getIntegerAttr(type, value));
}

/// Copies `load`'s block for `values`' iteration into `stage` of `buffer`,
/// masked off unless `inRange`.
void emitCopy(OpBuilder &b, tile::LoadOp load, IterationValues &values,
              Value buffer, Value stage, Value inRange) {
  Location loc = load.getLoc();
  Value mask = tile::SplatOp::create(
      b, loc, tile::getI1SameShape(load.getPtr().getType()), inRange);
  if (load.getMask())
    mask = arith::AndIOp::create(b, loc, values.get(load.getMask()), mask);
  AsyncCopyOp::create(b, loc, values.get(load.getPtr()), buffer, stage, mask);
}

void pipeline(PipelinedDot candidate, unsigned stages) {
  scf::ForOp loop = candidate.loop;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Type ivType = loop.getInductionVar().getType();
  Value lower = loop.getLowerBound(), upper = loop.getUpperBound(),
        step = loop.getStep();

  // The stages the body reads and writes are counters the loop carries
  // (0 and S-1 at first, each wrapping at S), as in Triton: no division by
  // S per iteration.
  Type i32 = b.getI32Type();
  Value zero = constantOf(b, loc, i32, 0), one = constantOf(b, loc, i32, 1),
        stageCount = constantOf(b, loc, i32, stages);
  auto wrapIncrement = [&](OpBuilder &yb, Location l, Value counter) {
    Value next = arith::AddIOp::create(yb, l, counter, one);
    Value wraps = arith::CmpIOp::create(yb, l, arith::CmpIPredicate::eq, next,
                                        stageCount);
    return arith::SelectOp::create(yb, l, wraps, zero, next).getResult();
  };
  IRRewriter rewriter(b);
  rewriter.setInsertionPoint(loop);
  unsigned stageArgs = loop.getNumRegionIterArgs();
  FailureOr<LoopLikeOpInterface> counted = loop.replaceWithAdditionalYields(
      rewriter, {zero, constantOf(b, loc, i32, stages - 1)},
      /*replaceInitOperandUsesInLoop=*/false,
      [&](OpBuilder &yb, Location l, ArrayRef<BlockArgument> args) {
        return SmallVector<Value>{wrapIncrement(yb, l, args[0]),
                                  wrapIncrement(yb, l, args[1])};
      });
  if (failed(counted))
    return; // nothing else has changed yet
  loop = cast<scf::ForOp>(counted->getOperation());
  b.setInsertionPoint(loop); // the old loop is gone
  Value readStage = loop.getRegionIterArgs()[stageArgs];
  Value writeStage = loop.getRegionIterArgs()[stageArgs + 1];

  Value buffers[2];
  for (unsigned i = 0; i < 2; ++i) {
    auto type = cast<RankedTensorType>(candidate.loads[i].getType());
    auto memdesc = MemDescType::get(
        b.getContext(),
        {int64_t(stages), type.getDimSize(0), type.getDimSize(1)},
        type.getElementType());
    buffers[i] = LocalAllocOp::create(b, loc, memdesc);
  }

  // Prologue: iterations 0 .. S-2 into stages 0 .. S-2; the ahead iter_args
  // advance with them.
  SmallVector<Value> current(loop.getInitArgs());
  for (unsigned s = 0; s + 1 < stages; ++s) {
    Value iv = arith::AddIOp::create(
        b, loc, lower,
        arith::MulIOp::create(b, loc, step, constantOf(b, loc, ivType, s)));
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iv, upper);
    IterationValues values(loop, b, iv, [&](unsigned i) { return current[i]; });
    Value stage = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(s));
    for (unsigned i = 0; i < 2; ++i)
      emitCopy(b, candidate.loads[i], values, buffers[i], stage, inRange);
    AsyncCommitGroupOp::create(b, loc);
    SmallVector<Value> next = current;
    for (unsigned index : candidate.aheadArgs)
      next[index] = values.get(loop.getYieldedValues()[index]);
    current = next;
  }
  for (unsigned index : candidate.aheadArgs)
    loop.getInitArgsMutable()[index].assign(current[index]);

  // The body: wait for this iteration's stage, run its dot (start its wgmma
  // and let the previous one finish), then copy iteration i+S-1 into the
  // stage the previous dot read.
  Value aheadSteps = arith::MulIOp::create(
      b, loc, step, constantOf(b, loc, ivType, stages - 1));
  tile::DotOp dot = candidate.dot;
  b.setInsertionPoint(dot);
  Value iv = loop.getInductionVar();
  AsyncWaitOp::create(b, loc, stages - 2);
  bool wgmma =
      cast<MmaEncodingAttr>(dot.getType().getEncoding()).getVersionMajor() == 3;
  // Copies of iteration i+S-1 into the stage iteration i-1 read.
  auto emitCopies = [&] {
    Value aheadIv = arith::AddIOp::create(b, loc, iv, aheadSteps);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          aheadIv, upper);
    IterationValues ahead(loop, b, aheadIv, [&](unsigned i) -> Value {
      return loop.getRegionIterArgs()[i];
    });
    for (unsigned i = 0; i < 2; ++i)
      emitCopy(b, candidate.loads[i], ahead, buffers[i], writeStage, inRange);
    AsyncCommitGroupOp::create(b, loc);
  };
  Value waited;
  if (wgmma) {
    // The stage is free once the previous wgmma is, after this one starts.
    Value started =
        WarpGroupDotOp::create(b, dot.getLoc(), dot.getType(), buffers[0],
                               buffers[1], readStage, dot.getC());
    waited = WarpGroupDotWaitOp::create(b, dot.getLoc(), dot.getType(), started,
                                        /*pending=*/1);
    emitCopies();
  } else {
    // mma.sync: the copies after the dot, as for wgmma. Issuing them first
    // would need one barrier instead of two (the previous iteration's reads
    // are done by the barrier after the wait; membar allows it), but on the
    // H100 it made 128x256x64 with 8 warps 10% slower (its ldmatrix reads
    // then queue behind the copies) for 4% on 64x256x32 with 4.
    waited = SharedDotOp::create(b, dot.getLoc(), dot.getType(), buffers[0],
                                 buffers[1], readStage, dot.getC());
    emitCopies();
  }
  dot.getResult().replaceAllUsesWith(waited);
  dot->erase();
  for (tile::LoadOp load : candidate.loads) {
    // The conversions between load and dot went with the dot.
    SmallVector<Operation *> dead{load};
    for (Operation *user : load->getUsers())
      dead.push_back(user);
    for (Operation *op : llvm::reverse(dead))
      if (op->use_empty())
        op->erase();
  }
  // What computed the old loads' operands is now unused.
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(*loop.getBody())))
    if (isOpTriviallyDead(&op))
      op.erase();

  // After the loop: the last wgmma, and the copies past the end.
  b.setInsertionPointAfter(loop);
  if (wgmma) {
    Value result = loop.getResult(candidate.accArg);
    auto finished =
        WarpGroupDotWaitOp::create(b, loc, result.getType(), result, 0);
    result.replaceAllUsesExcept(finished.getResult(), finished);
  }
  AsyncWaitOp::create(b, loc, 0);
}

struct Pipeline : public tilegpu::impl::TileGPUPipelineBase<Pipeline> {
  using TileGPUPipelineBase::TileGPUPipelineBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    tile::ModuleAxisInfo axisInfo(module);
    SmallVector<PipelinedDot> candidates;
    module.walk([&](scf::ForOp loop) {
      if (auto candidate = match(loop, axisInfo))
        candidates.push_back(*candidate);
    });
    uint64_t limit = getTargetSharedMemoryLimit(module);
    for (PipelinedDot &candidate : candidates) {
      // Stages of A and B must fit; the deepest that does, up to numStages.
      uint64_t stageBytes = 0;
      for (tile::LoadOp load : candidate.loads)
        stageBytes +=
            cast<RankedTensorType>(load.getType()).getNumElements() * 2;
      // tl.range(..., num_stages=) sets the loop's own depth.
      uint64_t wanted = numStages;
      if (auto attr =
              candidate.loop->getAttrOfType<IntegerAttr>("tile.num_stages"))
        wanted = attr.getValue().getZExtValue();
      unsigned stages =
          unsigned(std::min<uint64_t>(wanted, limit / stageBytes));
      if (stages >= 2)
        pipeline(candidate, stages);
    }
  }
};
} // namespace
