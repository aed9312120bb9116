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
// Other loops with wgmma dots (attention's two, the backward's four) have
// their copyable loads staged instead: PipelineStagedLoads.cpp. The
// operand matching both schemes share is in PipelineOperands.h.
//
// A load that carries a host descriptor's TMA tensor map, whose block is a
// TMA box, is copied with TMA instead of cp.async in either scheme
// (StageCopies.h): thread 0 starts one copy per stage that completes on the
// stage's mbarrier, and the wait is a wait for the barrier's phase. In a
// staged-loads loop whose loads all go by TMA, in a program of several
// warpgroups, the warps release each stage on a second mbarrier after the
// dot that read it, and thread 0 waits for those releases before refilling
// it (releasesStages), so no barrier of the whole program is left in the
// loop.
//
//===----------------------------------------------------------------------===//

#include "LoopIteration.h"
#include "PipelineOperands.h"
#include "PipelineStagedLoads.h"
#include "StageCopies.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

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
  /// B is a transposed load (N x K, K contiguous): wgmma reads it K-major.
  bool bKMajor = false;
  /// The ops from each dot operand back to its load, which go with the dot.
  SmallVector<Operation *> chains[2];
  unsigned accArg;
  /// Iter_args that only the loads need: carried S-1 iterations ahead.
  SmallVector<unsigned> aheadArgs;
};

std::optional<PipelinedDot> match(scf::ForOp loop,
                                  const tile::ModuleAxisInfo &axisInfo) {
  if (!hasCountableSteps(loop))
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

  // wgmma reads a K-major B (a transposed block) from shared memory as it
  // is; mma.sync's ldmatrix path takes K x N stages only.
  bool wgmma = cast<MmaEncodingAttr>(result.dot.getType().getEncoding())
                   .getVersionMajor() == 3;
  result.loads[0] = getOperandLoad(result.dot.getA(), result.chains[0]);
  result.loads[1] = getOperandLoad(result.dot.getB(), result.chains[1],
                                   wgmma ? &result.bKMajor : nullptr);
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

void pipeline(PipelinedDot candidate, unsigned stages) {
  std::optional<StagedLoop> staged =
      setUpStages(candidate.loop, candidate.loads, candidate.aheadArgs,
                  /*steppedArgs=*/{}, stages);
  if (!staged)
    return;
  scf::ForOp loop = staged->loop;
  Location loc = loop.getLoc();

  // The body: wait for this iteration's stage, run its dot (start its wgmma
  // and let the previous one finish), then copy iteration i+S-1 into the
  // stage the previous dot read.
  tile::DotOp dot = candidate.dot;
  OpBuilder b(dot);
  emitStageWait(b, *staged);
  bool wgmma =
      cast<MmaEncodingAttr>(dot.getType().getEncoding()).getVersionMajor() == 3;
  Value waited;
  if (wgmma) {
    // The stage is free once the previous wgmma is, after this one starts.
    Value started = WarpGroupDotOp::create(
        b, dot.getLoc(), dot.getType(), staged->buffers[0], staged->buffers[1],
        staged->readStage, dot.getC(), /*a_stage=*/Value(), candidate.bKMajor);
    waited = WarpGroupDotWaitOp::create(b, dot.getLoc(), dot.getType(), started,
                                        /*pending=*/1);
  } else {
    // mma.sync: the copies after the dot, as for wgmma. Issuing them first
    // would need one barrier instead of two (the previous iteration's reads
    // are done by the barrier after the wait; membar allows it), but on the
    // H100 it made 128x256x64 with 8 warps 10% slower (its ldmatrix reads
    // then queue behind the copies) for 4% on 64x256x32 with 4.
    waited =
        SharedDotOp::create(b, dot.getLoc(), dot.getType(), staged->buffers[0],
                            staged->buffers[1], staged->readStage, dot.getC());
  }
  emitAheadCopies(b, *staged, candidate.loads);
  dot.getResult().replaceAllUsesWith(waited);
  dot->erase();
  eraseReplacedLoads(loop, candidate.chains);

  // After the loop: the last wgmma, and the copies past the end.
  b.setInsertionPointAfter(loop);
  if (wgmma) {
    Value result = loop.getResult(candidate.accArg);
    auto finished =
        WarpGroupDotWaitOp::create(b, loc, result.getType(), result, 0);
    result.replaceAllUsesExcept(finished.getResult(), finished);
  }
  emitAfterLoop(b, *staged);
}

struct Pipeline : public tilegpu::impl::TileGPUPipelineBase<Pipeline> {
  using TileGPUPipelineBase::TileGPUPipelineBase;

  /// tl.range(..., num_stages=) sets a loop's own depth.
  uint64_t getWantedStages(scf::ForOp loop) {
    if (auto attr = loop->getAttrOfType<IntegerAttr>("tile.num_stages"))
      return attr.getValue().getZExtValue();
    return numStages;
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    tile::ModuleAxisInfo axisInfo(module);
    std::vector<PipelinedDot> candidates;
    std::vector<StagedLoads> stagedLoops;
    module.walk([&](scf::ForOp loop) {
      if (auto candidate = match(loop, axisInfo))
        candidates.push_back(*candidate);
      else if (auto staged = matchStagedLoads(loop, axisInfo))
        stagedLoops.push_back(*staged);
    });
    uint64_t limit = getTargetSharedMemoryLimit(module);
    StoredOperands stored;
    PipelineChains chains;
    for (StagedLoads &candidate : stagedLoops) {
      uint64_t fixed = candidate.registerBytes();
      // Carried stages stay allocated through the carrier's epilogue, where
      // tilegpu-tma-stores' buffers could otherwise have reused them.
      if (scf::ForOp carrier =
              getPipelineCarrier(candidate.loop, releasesStages(candidate)))
        carrier.getBody()->walk([&](tile::StoreOp store) {
          auto type = dyn_cast<RankedTensorType>(store.getValue().getType());
          if (store.getTensormap() && type)
            fixed += getBlockBytes(type);
        });
      if (fixed >= limit)
        continue;
      uint64_t stageBytes =
          getStageBytes(candidate.loads, releasesStages(candidate));
      unsigned stages = unsigned(std::min<uint64_t>(
          getWantedStages(candidate.loop), (limit - fixed) / stageBytes));
      if (stages >= 2)
        pipelineStagedLoads(candidate, stages,
                            limit - fixed - stages * stageBytes, stored,
                            chains);
    }
    for (PipelinedDot &candidate : candidates) {
      // Stages of A and B must fit; the deepest that does, up to numStages.
      unsigned stages =
          unsigned(std::min<uint64_t>(getWantedStages(candidate.loop),
                                      limit / getStageBytes(candidate.loads)));
      if (stages >= 2)
        pipeline(candidate, stages);
    }
    // Loads whose every use now reads a TMA-filled buffer.
    module.walk([](tile::LoadOp load) {
      if (load.getTensormap() && load->use_empty())
        load->erase();
    });
  }
};
} // namespace
