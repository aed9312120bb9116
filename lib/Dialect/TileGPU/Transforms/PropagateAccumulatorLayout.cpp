//===- PropagateAccumulatorLayout.cpp - keep loop math in mma layout
//-------===//
//
// tilegpu-propagate-accumulator-layout gives the values a loop computes from
// its tensor-core results the accumulator's own #tilegpu.mma layout, as
// FlashAttention keeps attention's softmax in the registers the dot left it
// in: from each mma-layout value in a loop body, the layout flows forward
// through layout conversions (which become identities), elementwise ops,
// row or column reductions (to the slice of the layout; only where the
// reduction lowering takes that mma shape), expand_dims and broadcast, and
// through scf.yield into the iter_arg (and from there on in the body). A
// value reached with two different layouts keeps its own. Every other use
// of a changed value gets a conversion back to its old type, operands the
// changed ops need in the new layout get conversions to it (constants and
// splats, which tilegpu-remove-layout-conversions then recomputes in
// place), and loop results convert back after the loop.
//
// Applies only to loops whose body reduces a value so derived (the softmax
// signature) or feeds one to a dot's A operand (the attention backward's
// P^T and dS^T); elsewhere the greedy patterns of
// tilegpu-remove-layout-conversions decide. Assumes tilegpu-accelerate-
// matmul has run (dots have mma results).
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ScratchBuffers.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPROPAGATEACCUMULATORLAYOUT
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
Attribute layoutOf(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor ? tensor.getEncoding() : Attribute();
}
Attribute layoutOf(Value value) { return layoutOf(value.getType()); }

bool isPlainElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() && op->getNumResults() == 1 &&
         op->getNumRegions() == 0 && isMemoryEffectFree(op) &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

/// The layout `user` gives its result when its operand has `layout`, or
/// null where the layout stops there.
Attribute resultLayoutFor(Operation *user, Attribute layout) {
  if (isa<ConvertLayoutOp>(user) || isPlainElementwise(user))
    return layout;
  if (isa<tile::BroadcastOp>(user))
    return isa<MmaEncodingAttr>(layout) ? layout : Attribute();
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(user)) {
    auto slice = dyn_cast<SliceEncodingAttr>(layout);
    if (slice && slice.getDim() == unsigned(expand.getAxis()) &&
        isa<MmaEncodingAttr>(slice.getParent()))
      return slice.getParent();
    return {};
  }
  if (auto reduce = dyn_cast<tile::ReduceOp>(user)) {
    auto mma = dyn_cast<MmaEncodingAttr>(layout);
    auto type = cast<RankedTensorType>(reduce.getSrcs()[0].getType());
    if (!mma || reduce.getSrcs().size() != 1 ||
        !isa<RankedTensorType>(reduce.getResult(0).getType()) ||
        !getMmaReduceGeometry(mma, type.getShape(), reduce.getAxis()))
      return {};
    return SliceEncodingAttr::get(user->getContext(), reduce.getAxis(), mma);
  }
  return {};
}

/// The values of `loop`'s body (results of ops directly in it, and its
/// iter_args) that take an mma layout or a slice of one.
llvm::MapVector<Value, Attribute> propagate(scf::ForOp loop) {
  Block *body = loop.getBody();
  llvm::MapVector<Value, Attribute> layouts;
  SmallVector<Value> worklist;
  for (Operation &op : *body)
    for (Value result : op.getResults())
      if (isa_and_nonnull<MmaEncodingAttr>(layoutOf(result)))
        worklist.push_back(result);
  auto assign = [&](Value value, Attribute layout) {
    if (layoutOf(value) == layout)
      return;
    auto [it, inserted] = layouts.try_emplace(value, layout);
    if (inserted)
      worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Attribute layout = layouts.lookup(value);
    if (!layout)
      layout = layoutOf(value);
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user->getBlock() != body)
        continue;
      if (isa<scf::YieldOp>(user)) {
        unsigned index = use.getOperandNumber();
        assign(loop.getRegionIterArgs()[index], layout);
        continue;
      }
      if (Attribute result = resultLayoutFor(user, layout))
        assign(user->getResult(0), result);
    }
  }
  return layouts;
}

/// Whether the loop reduces a value the propagation reaches (the softmax
/// signature), or feeds one to a dot's A operand (the attention backward's
/// P^T and dS^T, which wgmma then reads from registers).
bool reducesAccumulator(scf::ForOp loop,
                        const llvm::MapVector<Value, Attribute> &layouts) {
  for (auto [value, layout] : layouts)
    if (value.getDefiningOp<tile::ReduceOp>())
      if (isa<SliceEncodingAttr>(layout))
        return true;
  for (tile::DotOp dot : loop.getBody()->getOps<tile::DotOp>()) {
    Value a = dot.getA();
    while (auto convert = a.getDefiningOp<ConvertLayoutOp>())
      a = convert.getSrc();
    auto it = layouts.find(a);
    if (it != layouts.end() && isa<MmaEncodingAttr>(it->second))
      return true;
  }
  return false;
}

/// The layout `operand` of `op` must have once `op` produces `layout`.
Attribute operandLayoutFor(Operation *op, Attribute resultLayout) {
  if (isa<tile::ExpandDimsOp>(op))
    return SliceEncodingAttr::get(
        op->getContext(), cast<tile::ExpandDimsOp>(op).getAxis(),
        cast<DistributedLayoutInterface>(resultLayout));
  if (isa<tile::ReduceOp>(op))
    return cast<SliceEncodingAttr>(resultLayout).getParent();
  return resultLayout;
}

void rewrite(scf::ForOp loop,
             const llvm::MapVector<Value, Attribute> &layouts) {
  OpBuilder b(loop);
  // Old types, and the new ones set.
  DenseMap<Value, Type> oldTypes;
  for (auto [value, layout] : layouts) {
    oldTypes[value] = value.getType();
    value.setType(withLayout(value.getType(), layout));
  }
  // Iter_args: the loop result likewise, the initial value converted on the
  // way in, the result converted back for its users.
  for (auto [index, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    if (!layouts.count(arg))
      continue;
    OpOperand &init = loop.getInitArgsMutable()[index];
    b.setInsertionPoint(loop);
    init.set(
        convertToLayout(b, loop.getLoc(), init.get(), layouts.lookup(arg)));
    Value result = loop.getResult(index);
    Type oldType = result.getType();
    result.setType(arg.getType());
    b.setInsertionPointAfter(loop);
    auto back = ConvertLayoutOp::create(b, loop.getLoc(), oldType, result);
    result.replaceAllUsesExcept(back, back);
  }
  // Operands: what a changed op needs in its new layout; what an unchanged
  // user needs in the old type of a changed value.
  for (Operation &op : llvm::make_early_inc_range(*loop.getBody())) {
    bool changed = op.getNumResults() == 1 && layouts.count(op.getResult(0));
    for (OpOperand &operand : op.getOpOperands()) {
      Value value = operand.get();
      if (!isa<RankedTensorType>(value.getType()))
        continue;
      Attribute wanted;
      if (isa<scf::YieldOp>(op)) {
        wanted = layoutOf(loop.getRegionIterArgs()[operand.getOperandNumber()]);
      } else if (changed && !isa<ConvertLayoutOp>(op)) {
        wanted = operandLayoutFor(&op, layouts.lookup(op.getResult(0)));
      } else if (isa<ConvertLayoutOp>(op)) {
        continue; // takes any layout
      } else if (auto it = oldTypes.find(value); it != oldTypes.end()) {
        wanted = layoutOf(it->second);
      } else {
        continue;
      }
      if (!wanted || layoutOf(value) == wanted)
        continue;
      b.setInsertionPoint(&op);
      operand.set(convertToLayout(b, op.getLoc(), value, wanted));
    }
  }
  // Uses in nested regions see the old types.
  for (auto [value, layout] : layouts) {
    for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
      if (use.getOwner()->getBlock() == loop.getBody())
        continue;
      b.setInsertionPoint(use.getOwner());
      use.set(ConvertLayoutOp::create(b, use.getOwner()->getLoc(),
                                      oldTypes.lookup(value), value));
    }
  }
  // Conversions that became identities.
  for (Operation &op : llvm::make_early_inc_range(*loop.getBody()))
    if (auto convert = dyn_cast<ConvertLayoutOp>(op);
        convert && convert.getSrc().getType() == convert.getType()) {
      convert.getResult().replaceAllUsesWith(convert.getSrc());
      convert->erase();
    }
}

struct PropagateAccumulatorLayout
    : public tilegpu::impl::TileGPUPropagateAccumulatorLayoutBase<
          PropagateAccumulatorLayout> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) { loops.push_back(loop); });
    for (scf::ForOp loop : loops) {
      llvm::MapVector<Value, Attribute> layouts = propagate(loop);
      if (reducesAccumulator(loop, layouts))
        rewrite(loop, layouts);
    }
  }
};
} // namespace
