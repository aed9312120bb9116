//===- LoopPointerBases.cpp - pointer blocks a loop advances as one base --===//
//
// tile-loop-pointer-bases: an scf.for iter_arg holding a block of pointers
// that starts as `splat(base) + offsets` (one or more tile.addptr: `Q +
// offs_m[None, :] * s + offs_k[:, None]`) and that each iteration advances
// by one scalar (`ptrs += step`, a splat or a splat constant) is carried as
// the scalar base alone. In the body and after the loop the block is
// rebuilt by the same chain of ops (addptr, broadcast, expand_dims) from
// `splat(carried base)`, the offsets computed once before the loop. The
// pointers are the same 64-bit values (integer addition is associative), but
// the loop carries one pointer instead of one per element a thread holds: in
// Triton's matmul the A and B pointer blocks take two 64-bit registers per
// element, as many as the accumulator's, and pushed the kernel into spills.
// Assumes the tile dialect after canonicalization (a splat of a constant is a
// dense constant).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILELOOPPOINTERBASES
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// A pointer-block iter_arg carried as a scalar base.
struct UniformPointers {
  unsigned index;
  /// The ops that build the initial block from a scalar base, the
  /// tile.splat first, then tile.addptr, tile.broadcast and tile.expand_dims
  /// ops; all before the loop.
  SmallVector<Operation *> chain;
  AddPtrOp advance; // the yielded `ptrs + splat(step)`
  Value step;       // the scalar step, or null where it is a constant
  Attribute constantStep;

  Value getInitialBase() const { return cast<SplatOp>(chain.front()).getSrc(); }
};

/// The scalar every element of `offset` equals, where it is a splat or a
/// splat constant.
bool matchUniformOffset(Value offset, UniformPointers &candidate) {
  if (auto splat = offset.getDefiningOp<SplatOp>()) {
    candidate.step = splat.getSrc();
    return true;
  }
  DenseIntElementsAttr dense;
  if (matchPattern(offset, m_Constant(&dense)) && dense.isSplat()) {
    candidate.constantStep = dense.getSplatValue<Attribute>();
    return true;
  }
  return false;
}

/// Walks from `block` back to the tile.splat of a scalar pointer through
/// addptr (its pointer operand), broadcast and expand_dims; fills `chain`
/// root first.
bool matchSplatChain(Value block, SmallVectorImpl<Operation *> &chain) {
  while (Operation *def = block.getDefiningOp()) {
    chain.push_back(def);
    if (isa<SplatOp>(def)) {
      std::reverse(chain.begin(), chain.end());
      return chain.size() > 1;
    }
    if (auto addptr = dyn_cast<AddPtrOp>(def))
      block = addptr.getPtr();
    else if (isa<BroadcastOp, ExpandDimsOp>(def))
      block = def->getOperand(0);
    else
      return false;
  }
  return false;
}

std::optional<UniformPointers> matchUniformPointers(scf::ForOp loop,
                                                    unsigned index) {
  BlockArgument arg = loop.getRegionIterArgs()[index];
  if (!isa<RankedTensorType>(arg.getType()) ||
      !isa<PointerType>(getElementTypeOrSelf(arg.getType())))
    return std::nullopt;
  UniformPointers candidate;
  candidate.index = index;
  if (!matchSplatChain(loop.getInitArgs()[index], candidate.chain))
    return std::nullopt;
  auto advance = loop.getYieldedValues()[index].getDefiningOp<AddPtrOp>();
  if (!advance || advance.getPtr() != arg ||
      !matchUniformOffset(advance.getOffset(), candidate))
    return std::nullopt;
  candidate.advance = advance;
  return candidate;
}

/// The initial block's chain again, from `base` instead of the initial base.
Value rebuildBlock(OpBuilder &builder, const UniformPointers &candidate,
                   Value base) {
  IRMapping mapping;
  mapping.map(candidate.getInitialBase(), base);
  Operation *last = nullptr;
  for (Operation *op : candidate.chain)
    last = builder.clone(*op, mapping);
  return last->getResult(0);
}

void carryBases(scf::ForOp loop, ArrayRef<UniformPointers> candidates) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits(loop.getInitArgs());
  for (const UniformPointers &candidate : candidates)
    inits[candidate.index] = candidate.getInitialBase();
  auto newLoop =
      scf::ForOp::create(builder, loc, loop.getLowerBound(),
                         loop.getUpperBound(), loop.getStep(), inits);
  newLoop->setAttrs(loop->getAttrs());
  Block *body = newLoop.getBody();
  if (!body->empty())
    body->getTerminator()->erase();
  Block *oldBody = loop.getBody();
  body->getOperations().splice(body->end(), oldBody->getOperations());

  // The loop variable and untouched iter_args map one to one; the rewritten
  // ones become blocks rebuilt from the carried base.
  oldBody->getArgument(0).replaceAllUsesWith(body->getArgument(0));
  builder.setInsertionPointToStart(body);
  DenseMap<unsigned, const UniformPointers *> byIndex;
  for (const UniformPointers &candidate : candidates)
    byIndex[candidate.index] = &candidate;
  for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i) {
    Value oldArg = loop.getRegionIterArgs()[i];
    Value newArg = newLoop.getRegionIterArgs()[i];
    auto it = byIndex.find(i);
    if (it == byIndex.end()) {
      oldArg.replaceAllUsesWith(newArg);
      continue;
    }
    oldArg.replaceAllUsesWith(rebuildBlock(builder, *it->second, newArg));
  }

  // Each rewritten iter_arg yields its base advanced by the scalar step.
  auto yield = cast<scf::YieldOp>(body->getTerminator());
  builder.setInsertionPoint(yield);
  for (const UniformPointers &candidate : candidates) {
    Value base = newLoop.getRegionIterArgs()[candidate.index];
    Value step = candidate.step;
    if (!step)
      step = arith::ConstantOp::create(builder, loc,
                                       cast<TypedAttr>(candidate.constantStep));
    AddPtrOp advance = candidate.advance;
    Value next =
        AddPtrOp::create(builder, advance.getLoc(), base.getType(), base, step);
    yield->setOperand(candidate.index, next);
    if (!isOpTriviallyDead(advance))
      continue;
    Operation *blockStep = advance.getOffset().getDefiningOp();
    advance->erase();
    if (blockStep && isOpTriviallyDead(blockStep))
      blockStep->erase();
  }

  // After the loop, the blocks are rebuilt from the final bases.
  builder.setInsertionPointAfter(newLoop);
  for (unsigned i = 0; i < loop.getNumResults(); ++i) {
    Value result = loop.getResult(i);
    auto it = byIndex.find(i);
    if (it == byIndex.end()) {
      result.replaceAllUsesWith(newLoop.getResult(i));
      continue;
    }
    if (!result.use_empty())
      result.replaceAllUsesWith(
          rebuildBlock(builder, *it->second, newLoop.getResult(i)));
  }
  loop->erase();
}

struct LoopPointerBases
    : public tile::impl::TileLoopPointerBasesBase<LoopPointerBases> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    // Inner loops first (post-order), so an outer loop's rewrite never
    // invalidates a loop still to visit.
    for (scf::ForOp loop : loops) {
      SmallVector<UniformPointers> candidates;
      for (unsigned i = 0; i < loop.getNumRegionIterArgs(); ++i)
        if (auto candidate = matchUniformPointers(loop, i))
          candidates.push_back(*candidate);
      if (!candidates.empty())
        carryBases(loop, candidates);
    }
  }
};
} // namespace
