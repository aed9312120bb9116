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
#include "StageCopies.h"
#include "tile/Analysis/Allocation.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Dominance.h"
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
  /// B is a transposed load (N x K, K contiguous): wgmma reads it K-major.
  bool bKMajor = false;
  /// The ops from each dot operand back to its load, which go with the dot.
  SmallVector<Operation *> chains[2];
  unsigned accArg;
  /// Iter_args that only the loads need: carried S-1 iterations ahead.
  SmallVector<unsigned> aheadArgs;
};

/// The load behind a dot operand through layout conversions and, where
/// `transposed` is given, one 2-D tile.trans (which it then sets), whatever
/// else uses them; `chain` collects those ops, the dot's side first.
tile::LoadOp traceOperandLoad(Value operand,
                              SmallVectorImpl<Operation *> &chain,
                              bool *transposed) {
  while (Operation *def = operand.getDefiningOp()) {
    chain.push_back(def);
    if (auto load = dyn_cast<tile::LoadOp>(def))
      return load;
    if (auto convert = dyn_cast<ConvertLayoutOp>(def)) {
      operand = convert.getSrc();
    } else if (auto trans = dyn_cast<tile::TransOp>(def);
               trans && transposed && !*transposed &&
               trans.getOrder() == ArrayRef<int32_t>{1, 0}) {
      *transposed = true;
      operand = trans.getSrc();
    } else {
      break;
    }
  }
  return {};
}

/// The same, each op of the chain used once (the classic pipeline erases
/// the chain with the dot).
tile::LoadOp getOperandLoad(Value operand, SmallVectorImpl<Operation *> &chain,
                            bool *transposed = nullptr) {
  tile::LoadOp load = traceOperandLoad(operand, chain, transposed);
  if (!load ||
      !llvm::all_of(chain, [](Operation *op) { return op->hasOneUse(); }))
    return {};
  return load;
}

/// Whether a thread's runs of `load`'s elements along `axis` make cp.async
/// copies of 4, 8 or 16 bytes: the run the async_copy lowering plans
/// (planVectors: the layout's registers along the axis, the pointers'
/// contiguity and alignment, the mask's constancy).
bool hasCopyableRuns(tile::LoadOp load, DistributedLayoutInterface layout,
                     const tile::ModuleAxisInfo &axisInfo, unsigned axis) {
  unsigned width = std::min(layout.getLayoutSizePerThread()[axis],
                            axisInfo.getPtrVectorWidth(load.getPtr(), axis));
  if (Value mask = load.getMask())
    width = std::min(width, axisInfo.getMaskConstancy(mask, axis));
  unsigned bytes =
      std::max(1u, width) *
      cast<RankedTensorType>(load.getType()).getElementTypeBitWidth() / 8;
  return bytes == 4 || bytes == 8 || bytes == 16;
}

/// Whether `load` reads a block a copy into a swizzled wgmma tile can hold:
/// 2-D f16/bf16, not volatile, zeros (or nothing) where masked off.
bool hasCopyableBlock(tile::LoadOp load) {
  auto type = dyn_cast<RankedTensorType>(load.getType());
  if (!type || type.getRank() != 2 || load.getIsVolatile() ||
      !(type.getElementType().isF16() || type.getElementType().isBF16()))
    return false;
  Value other = load.getOther();
  return !other || matchPattern(other, m_AnyZeroFloat());
}

/// Whether `load` can become an async copy into a swizzled wgmma tile (also
/// a transposed one where `allowTransposed`).
bool isCopyable(tile::LoadOp load, const tile::ModuleAxisInfo &axisInfo,
                bool allowTransposed = false) {
  if (!hasCopyableBlock(load))
    return false;
  auto type = cast<RankedTensorType>(load.getType());
  auto layout = getDistributedLayout(type);
  if (!layout)
    return false;
  unsigned inner = layout.getLayoutOrder()[0];
  if (inner != 1 && !(allowTransposed && inner == 0))
    return false;
  // TMA copies whole boxes, bounded by the tensor map, whatever the
  // pointers' alignment.
  if (isTmaLoad(load))
    return true;
  // The swizzled stage tiles need rows of at least 32 bytes.
  if (type.getDimSize(inner) * 2 < 32)
    return false;
  return hasCopyableRuns(load, layout, axisInfo, inner);
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

/// Both pipelines count iterations: a positive constant step, an i32 or
/// index induction variable.
bool hasCountableSteps(scf::ForOp loop) {
  APInt step;
  if (!matchPattern(loop.getStep(), m_ConstantInt(&step)) ||
      !step.isStrictlyPositive())
    return false;
  Type ivType = loop.getInductionVar().getType();
  return ivType.isInteger(32) || ivType.isIndex();
}

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

/// Erases the replaced loads with the conversions between them and their
/// dots, then what computed their operands.
void eraseReplacedLoads(scf::ForOp loop,
                        ArrayRef<SmallVector<Operation *>> chains) {
  // A load two dots read is in two chains: erase each op once, users first.
  // (Erased ops become null here rather than leaving the vector while it is
  // walked.)
  llvm::SetVector<Operation *> unique;
  for (ArrayRef<Operation *> chain : chains)
    unique.insert(chain.begin(), chain.end());
  SmallVector<Operation *> ops = unique.takeVector();
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : ops)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(*loop.getBody())))
    if (isOpTriviallyDead(&op))
      op.erase();
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

//===----------------------------------------------------------------------===//
// Loops with several dots (attention): the loads of B operands staged
//===----------------------------------------------------------------------===//

/// A wgmma dot of a loop whose B operand (and A, where it is a load too)
/// the loop's stages hold; an A that is not a load goes through a buffer of
/// one stage (stored once before the loop when the loop does not change it).
struct StagedDot {
  tile::DotOp dot;
  int aLoad = -1, bLoad; // indices into StagedLoads::loads; -1: registers
  bool bKMajor = false;
  Value registerA; // A before its layout conversions, where not a load
  /// registerA is an earlier dot's accumulator layout that wgmma reads from
  /// registers as it is (attention's P): no buffer.
  bool aFromRegisters = false;
};

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

struct StagedLoads {
  scf::ForOp loop;
  /// The dots' staged loads, then the side loads (the last `sideLoads`).
  SmallVector<tile::LoadOp> loads;
  unsigned sideLoads = 0;
  SmallVector<unsigned> steppedArgs;
  SmallVector<SmallVector<Operation *>, 4> chains;
  SmallVector<StagedDot> dots;
  SmallVector<unsigned> aheadArgs;

  /// Bytes of the register A buffers.
  uint64_t registerBytes() const {
    uint64_t bytes = 0;
    for (const StagedDot &dot : dots)
      if (dot.aLoad < 0 && !dot.aFromRegisters)
        bytes +=
            cast<RankedTensorType>(dot.registerA.getType()).getNumElements() *
            2;
    return bytes;
  }
};

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

/// A loop whose dots all run on wgmma and whose dots' B operands (at least
/// one) are loads the pipeline can copy: each such load gets stages, each
/// such dot becomes a synchronous warpgroup_dot on them (the loop's
/// accumulators may be rescaled between dots, as attention's are).
std::optional<StagedLoads> matchStagedLoads(scf::ForOp loop,
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

/// Whether the warps release the loop's stages on barriers instead of
/// meeting at a barrier before each iteration's copies: when every staged
/// load is copied with TMA (cp.async copies need the program's barrier to
/// become visible to other threads) and the program has several
/// warpgroups. Thread 0 then starts a copy once every warp has released
/// the stage it overwrites, and the warpgroups need not keep in step: on
/// the H100 the attention forward at D 128 with two warpgroups ran 7-10%
/// faster. One warpgroup keeps in step anyway (its wgmma are collective);
/// there the releases cost up to 13% (D 64, 4 warps).
bool releasesStages(const StagedLoads &candidate) {
  return getNumWarps(scf::ForOp(candidate.loop).getOperation()) > 4 &&
         llvm::all_of(candidate.loads, isTmaLoad);
}

/// The one-stage buffers that hold loop-invariant A operands, by the value
/// stored, with the op after which the buffer holds it: a later loop that
/// reads the same value reads the same buffer (tutorial 06's causal forward
/// runs two loops on one q).
struct StoredOperand {
  Operation *ready;
  Value buffer;
};
using StoredOperands = DenseMap<Value, StoredOperand>;

void pipelineStagedLoads(StagedLoads candidate, unsigned stages,
                         StoredOperands &stored) {
  // A operands from registers that the loop does not change are stored once,
  // before it (or before an earlier loop that stored them already), after
  // the copies of its first stages: those then start while the operand's
  // own load (tutorial 06's q) is still on its way. An operand loaded
  // through a TMA tensor map is instead copied with TMA where it was
  // loaded, and waited for there.
  OpBuilder b(candidate.loop);
  Location loc = candidate.loop.getLoc();
  Value zero = constantOf(b, loc, b.getI32Type(), 0);
  SmallVector<Value> aBuffers;
  SmallVector<std::pair<Value, Value>> invariantStores; // operand, buffer
  SmallVector<LocalAllocOp> newBuffers;
  for (StagedDot &dot : candidate.dots) {
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

  std::optional<StagedLoop> staged =
      setUpStages(candidate.loop, candidate.loads, candidate.aheadArgs,
                  candidate.steppedArgs, stages, releasesStages(candidate));
  if (!staged) {
    for (LocalAllocOp buffer : newBuffers)
      buffer->erase();
    return;
  }
  scf::ForOp loop = staged->loop;
  OpBuilder beforeLoop(loop);
  for (auto [operand, buffer] : invariantStores)
    stored[operand] = {
        LocalStoreOp::create(beforeLoop, loc, operand, buffer, zero), buffer};
  SmallVector<Value> operandBarriers;
  for (auto [dot, aBuffer] : llvm::zip_equal(candidate.dots, aBuffers)) {
    if (aBuffer || dot.aLoad >= 0 || dot.aFromRegisters)
      continue;
    auto [buffer, barriers] =
        copyOperandWithTma(dot.registerA.getDefiningOp<tile::LoadOp>());
    aBuffer = buffer;
    operandBarriers.push_back(barriers);
    stored[dot.registerA] = {
        TmaWaitOp::create(beforeLoop, loc, barriers, zero, zero), buffer};
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
  for (auto [dot, aBuffer] : llvm::zip_equal(candidate.dots, aBuffers)) {
    OpBuilder body(dot.dot);
    Location dotLoc = dot.dot.getLoc();
    Value a = aBuffer, aStage = zero;
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
    for (StagedLoads &candidate : stagedLoops) {
      uint64_t fixed = candidate.registerBytes();
      if (fixed >= limit)
        continue;
      unsigned stages = unsigned(std::min<uint64_t>(
          getWantedStages(candidate.loop),
          (limit - fixed) /
              getStageBytes(candidate.loads, releasesStages(candidate))));
      if (stages >= 2)
        pipelineStagedLoads(candidate, stages, stored);
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
