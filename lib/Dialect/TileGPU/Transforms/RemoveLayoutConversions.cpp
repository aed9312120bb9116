//===- RemoveLayoutConversions.cpp - rematerialize instead of convert -----===//
//
// tilegpu-remove-layout-conversions removes convert_layout ops:
//   - backwards, by recomputing their source in the target layout when the
//     whole chain back to values already in that layout is cheap and free of
//     side effects (splat, make_range, addptr, broadcast, expand_dims,
//     elementwise arith and math; constants and chains of conversions fold);
//   - forwards, when the source cannot be recomputed (a load, a dot's
//     accumulator, a reduction's rows): elementwise users move into the
//     source's layout, so the conversion travels to stores and reductions,
//     which take a blocked source's layout and absorb it (an mma source
//     stays converted: its stores would not coalesce; so does a store
//     coalesced along another axis than the source's layout runs);
//   - through branches: an scf.if whose branches both yield conversions
//     from one layout yields in that layout;
//   - through loops: a tensor an scf.for carries takes the layout its
//     yielded value is converted from, so the conversion leaves the loop
//     body. A running value (`acc += tl.load(...)`, also under an `if` in
//     the loop; attention's row maximum and sum, `l_i * alpha + l_ij`)
//     first moves into the layout of what it accumulates. A conversion of
//     a value from outside the loop moves before it (each one goes through
//     shared memory with barriers, which LLVM cannot hoist: the attention
//     backward's dQ loop converted M and Delta every iteration).
// Ops left without users are erased.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ScratchBuffers.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUREMOVELAYOUTCONVERSIONS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Ops worth recomputing in another layout rather than moving data.
bool isCheapToRematerialize(Operation *op) {
  if (!isMemoryEffectFree(op) || op->getNumRegions() != 0 ||
      op->getNumResults() != 1)
    return false;
  return isa<tile::SplatOp, tile::MakeRangeOp, tile::AddPtrOp,
             tile::BroadcastOp, tile::ExpandDimsOp>(op) ||
         (op->hasTrait<OpTrait::Elementwise>() &&
          isa<arith::ArithDialect>(op->getDialect())) ||
         (op->hasTrait<OpTrait::Elementwise>() &&
          op->getDialect()->getNamespace() == "math");
}

/// The layout operand `operand` of `op` needs for `op` to produce
/// `resultLayout`; null if `op` cannot produce it.
Attribute operandLayoutFor(Operation *op, Attribute resultLayout) {
  if (auto expand = dyn_cast<tile::ExpandDimsOp>(op)) {
    auto parent = dyn_cast<DistributedLayoutInterface>(resultLayout);
    if (!parent)
      return {};
    return SliceEncodingAttr::get(op->getContext(), expand.getAxis(), parent);
  }
  if (isa<tile::BroadcastOp>(op) &&
      !isa<BlockedEncodingAttr, MmaEncodingAttr>(resultLayout))
    return {};
  return resultLayout;
}

/// A blocked or mma layout, or a slice of one.
bool isBlockedOrMmaOrSlice(Attribute layout) {
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(layout))
    layout = slice.getParent();
  return isa_and_nonnull<BlockedEncodingAttr, MmaEncodingAttr>(layout);
}

Attribute layoutOf(Value value) {
  auto tensor = dyn_cast<RankedTensorType>(value.getType());
  return tensor ? tensor.getEncoding() : Attribute();
}

/// After `value` took another layout: its users get it converted back to
/// `oldType` at the rewriter's insertion point, for the patterns above to
/// push on.
void convertUsesBack(PatternRewriter &rewriter, Value value,
                     RankedTensorType oldType) {
  auto back = ConvertLayoutOp::create(rewriter, value.getLoc(), oldType, value);
  rewriter.replaceAllUsesExcept(value, back, back);
}

/// Whether `value` can be had in `layout` by recomputation alone, without
/// moving data between threads (a conversion that keeps every element in
/// its register, as between the row slices of two mma layouts, is free).
bool canRematerialize(Value value, Attribute layout, unsigned depth = 0) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || isRegisterIdentityConversion(type, withLayout(type, layout)))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16)
    return false;
  if (auto convert = dyn_cast<ConvertLayoutOp>(def))
    return canRematerialize(convert.getSrc(), layout, depth + 1);
  if (matchPattern(value, m_Constant()))
    return true;
  if (!isCheapToRematerialize(def))
    return false;
  Attribute operandLayout = operandLayoutFor(def, layout);
  if (!operandLayout)
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return canRematerialize(operand, operandLayout, depth + 1);
  });
}

/// convert(op(x...)) -> op(convert(x)...) where that removes conversions.
struct RematerializeSource : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Operation *source = convert.getSrc().getDefiningOp();
    Attribute layout = convert.getType().getEncoding();
    // A conversion that lowers to nothing is cheaper than recomputing.
    if (isRegisterIdentityConversion(convert))
      return failure();
    if (!source || !isCheapToRematerialize(source) ||
        !canRematerialize(convert.getSrc(), layout))
      return failure();
    Attribute operandLayout = operandLayoutFor(source, layout);
    IRMapping mapping;
    for (Value operand : source->getOperands()) {
      if (isa<RankedTensorType>(operand.getType())) // scalars have no layout
        mapping.map(operand, convertToLayout(rewriter, convert.getLoc(),
                                             operand, operandLayout));
    }
    Operation *copy = rewriter.clone(*source, mapping);
    copy->getResult(0).setType(convert.getType());
    rewriter.replaceOp(convert, copy->getResults());
    return success();
  }
};

/// Whether the loop's next value for its iter_arg `index` is computed from
/// `result`: `result` itself, or what elementwise ops and the branches of
/// scf.ifs in the loop make of it (`l_i = l_i * alpha + l_ij`; `m_ij`,
/// computed in either branch of a causal mask's `if`, is also used for the
/// scores). Other uses are converted back, where their conversions fold.
bool feedsNextValue(Value result, scf::ForOp loop, unsigned index,
                    unsigned depth = 0) {
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  if (result == yield.getOperand(index))
    return true;
  if (depth > 8)
    return false;
  return llvm::any_of(result.getUses(), [&](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto branchYield = dyn_cast<scf::YieldOp>(user)) {
      auto branch = dyn_cast<scf::IfOp>(branchYield->getParentOp());
      return branch && loop->isProperAncestor(branch) &&
             feedsNextValue(branch->getResult(use.getOperandNumber()), loop,
                            index, depth + 1);
    }
    return user->hasTrait<OpTrait::Elementwise>() &&
           user->getNumResults() == 1 && user->getNumRegions() == 0 &&
           isMemoryEffectFree(user) &&
           feedsNextValue(user->getResult(0), loop, index, depth + 1);
  });
}

/// Whether `value` is a tensor a loop around `user` carries whose next value
/// `user` computes (an accumulation: `acc += tl.load(...)`, also under an
/// `if`), or a single-use elementwise function of one (`l_i * alpha` in
/// `l_i * alpha + l_ij`). Converting it costs nothing in the end: once the
/// yielded value is a conversion, ForIterArgOfConversion carries the tensor
/// in the new layout, and the conversions on the way fold.
bool isAccumulatedBy(Value value, Operation *user, unsigned depth = 0) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
    if (!loop || arg.getArgNumber() < loop.getNumInductionVars() ||
        !loop->isProperAncestor(user) || user->getNumResults() != 1)
      return false;
    return feedsNextValue(user->getResult(0), loop,
                          arg.getArgNumber() - loop.getNumInductionVars());
  }
  Operation *def = value.getDefiningOp();
  if (!def || depth > 4 || !value.hasOneUse() ||
      def->getBlock() != user->getBlock() ||
      !def->hasTrait<OpTrait::Elementwise>() || def->getNumResults() != 1 ||
      def->getNumRegions() != 0 || !isMemoryEffectFree(def))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return isAccumulatedBy(operand, user, depth + 1);
  });
}

/// op(convert(x), y...) -> convert(op(x, convert(y)...)) when x cannot be
/// recomputed in the converted layout (it comes from a load, say): the
/// conversion moves towards the users, where stores and reductions that
/// accept x's layout absorb it.
struct PushConversionForward : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Value source = convert.getSrc();
    Attribute sourceLayout = layoutOf(source);
    // From an mma accumulator too: the epilogue then runs on the
    // accumulator's registers and converts only its (narrower) result. And
    // from a slice of either (a reduction's rows: attention's row maxima
    // and sums then stay in the accumulator's row layout).
    if (!isBlockedOrMmaOrSlice(sourceLayout) ||
        canRematerialize(source, convert.getType().getEncoding()))
      return failure();
    for (OpOperand &use : convert->getUses()) {
      Operation *user = use.getOwner();
      if (!user->hasTrait<OpTrait::Elementwise>() ||
          user->getNumResults() != 1 || user->getNumRegions() != 0 ||
          !isMemoryEffectFree(user) ||
          !isa<RankedTensorType>(user->getResult(0).getType()))
        continue;
      bool othersCheap = llvm::all_of(user->getOperands(), [&](Value v) {
        return v == convert.getResult() || canRematerialize(v, sourceLayout) ||
               isAccumulatedBy(v, user);
      });
      if (!othersCheap)
        continue;
      rewriter.setInsertionPoint(user);
      IRMapping mapping;
      for (Value operand : user->getOperands()) {
        if (operand == convert.getResult()) {
          mapping.map(operand, source);
          continue;
        }
        if (isa<RankedTensorType>(operand.getType()))
          mapping.map(operand, convertToLayout(rewriter, user->getLoc(),
                                               operand, sourceLayout));
      }
      Operation *copy = rewriter.clone(*user, mapping);
      auto resultType = cast<RankedTensorType>(user->getResult(0).getType());
      copy->getResult(0).setType(withLayout(resultType, sourceLayout));
      rewriter.replaceOpWithNewOp<ConvertLayoutOp>(user, resultType,
                                                   copy->getResult(0));
      return success();
    }
    return failure();
  }
};

/// convert(broadcast(expand_dims(x))) -> broadcast(expand_dims(convert(x))):
/// the conversion moves to the smaller tensor (a row's statistic rather than
/// the whole block), whatever computed x.
struct ConversionOfBroadcast : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    auto broadcast = convert.getSrc().getDefiningOp<tile::BroadcastOp>();
    if (!broadcast)
      return failure();
    auto expand = broadcast.getSrc().getDefiningOp<tile::ExpandDimsOp>();
    auto target =
        dyn_cast<DistributedLayoutInterface>(convert.getType().getEncoding());
    if (!expand || !target || !operandLayoutFor(broadcast, target))
      return failure();
    Location loc = convert.getLoc();
    auto slice = SliceEncodingAttr::get(getContext(), expand.getAxis(), target);
    Value row = convertToLayout(rewriter, loc, expand.getSrc(), slice);
    Value expanded = tile::ExpandDimsOp::create(
        rewriter, loc, withLayout(expand.getType(), target), row,
        expand.getAxis());
    rewriter.replaceOpWithNewOp<tile::BroadcastOp>(convert, convert.getType(),
                                                   expanded);
    return success();
  }
};

/// Puts every tensor operand of `op` in `layout`: the source of its own
/// conversion where that has the layout, a new conversion otherwise.
void moveOperandsToLayout(PatternRewriter &rewriter, Operation *op,
                          Attribute layout) {
  rewriter.modifyOpInPlace(op, [&] {
    rewriter.setInsertionPoint(op);
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isa<RankedTensorType>(operand.get().getType()))
        continue;
      auto convert = operand.get().getDefiningOp<ConvertLayoutOp>();
      if (convert && layoutOf(convert.getSrc()) == layout)
        operand.set(convert.getSrc());
      else
        operand.set(
            convertToLayout(rewriter, op->getLoc(), operand.get(), layout));
    }
  });
}

/// Whether `value` is computed elementwise from an mma accumulator: its
/// conversion will move forward to the accumulator, and the store should
/// keep its coalesced layout rather than take the intermediate one.
bool derivesFromMma(Value value, unsigned depth = 0) {
  if (isa_and_nonnull<MmaEncodingAttr>(layoutOf(value)))
    return true;
  Operation *def = value.getDefiningOp();
  if (!def || depth > 16 ||
      !(isa<ConvertLayoutOp>(def) || def->hasTrait<OpTrait::Elementwise>()))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value operand) {
    return derivesFromMma(operand, depth + 1);
  });
}

/// store(ptr, convert(x)) -> store(ptr', x) when the pointers (and mask) can
/// be recomputed in x's layout: a store in any layout beats moving the data
/// through shared memory first, unless x's layout runs along another axis
/// than the one the store's coalesced layout vectorizes (a transposed
/// store: Triton's test_permute, whose 2-byte stores would become one per
/// element instead of 16 bytes). (Not for values from an mma accumulator,
/// which are converted once, straight to the coalesced layout.)
struct StoreOfConversion : public OpRewritePattern<tile::StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::StoreOp store,
                                PatternRewriter &rewriter) const override {
    auto convert = store.getValue().getDefiningOp<ConvertLayoutOp>();
    if (!convert)
      return failure();
    Attribute layout = layoutOf(convert.getSrc());
    auto coalesced =
        dyn_cast<BlockedEncodingAttr>(convert.getType().getEncoding());
    auto source = dyn_cast<BlockedEncodingAttr>(layout);
    if (coalesced && source &&
        coalesced.getOrder()[0] != source.getOrder()[0] &&
        coalesced.getSizePerThread()[coalesced.getOrder()[0]] > 1)
      return failure();
    if (!isa<BlockedEncodingAttr>(layout) || derivesFromMma(convert.getSrc()) ||
        !canRematerialize(store.getPtr(), layout) ||
        (store.getMask() && !canRematerialize(store.getMask(), layout)))
      return failure();
    moveOperandsToLayout(rewriter, store, layout);
    return success();
  }
};

/// tile.dot reads its A and B operands in any distributed layout.
struct DotOfConversion : public OpRewritePattern<tile::DotOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::DotOp dot,
                                PatternRewriter &rewriter) const override {
    SmallVector<OpOperand *> absorbed;
    for (OpOperand *operand : {&dot.getAMutable(), &dot.getBMutable()})
      if (auto convert = operand->get().getDefiningOp<ConvertLayoutOp>())
        if (getDistributedLayout(convert.getSrc().getType()))
          absorbed.push_back(operand);
    // Modify only when something changes: a modification re-queues the op.
    if (absorbed.empty())
      return failure();
    rewriter.modifyOpInPlace(dot, [&] {
      for (OpOperand *operand : absorbed)
        operand->set(operand->get().getDefiningOp<ConvertLayoutOp>().getSrc());
    });
    return success();
  }
};

/// A reduction reads its operands in any blocked layout: the first
/// operand's conversion goes, the others follow its source's layout. A
/// reduction to tensors then yields them in the slice of that layout,
/// converted back for the users (where the patterns above take the
/// conversion on: `x - max(x, 1)[:, None]` runs in x's layout).
struct ReduceOfConversion : public OpRewritePattern<tile::ReduceOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tile::ReduceOp reduce,
                                PatternRewriter &rewriter) const override {
    auto first = reduce.getSrcs()[0].getDefiningOp<ConvertLayoutOp>();
    if (!first)
      return failure();
    Attribute layout = layoutOf(first.getSrc());
    // An mma accumulator is reduced in place where the lowering can (a whole
    // number of its tiles): softmax rows of attention stay in registers.
    auto mma = dyn_cast<MmaEncodingAttr>(layout);
    if (!isa<BlockedEncodingAttr>(layout) &&
        !(mma && getMmaReduceGeometry(
                     mma, cast<RankedTensorType>(first.getType()).getShape(),
                     reduce.getAxis())))
      return failure();
    moveOperandsToLayout(rewriter, reduce, layout);
    auto slice =
        SliceEncodingAttr::get(getContext(), reduce.getAxis(),
                               cast<DistributedLayoutInterface>(layout));
    rewriter.setInsertionPointAfter(reduce);
    for (Value result : reduce.getResults()) {
      auto oldType = dyn_cast<RankedTensorType>(result.getType());
      if (!oldType || oldType.getEncoding() == slice)
        continue;
      rewriter.modifyOpInPlace(
          reduce, [&] { result.setType(withLayout(oldType, slice)); });
      convertUsesBack(rewriter, result, oldType);
    }
    return success();
  }
};

/// A loop-carried tensor whose yielded value is a conversion from a blocked
/// or mma layout (or a slice of one: attention's row maxima and sums) is
/// carried in that layout instead: the conversion at the end of
/// every iteration becomes one on the way in (folded where the initial value
/// has the layout already) and conversions of the block argument and the
/// loop result, which the patterns above push on to the users.
struct ForIterArgOfConversion : public OpRewritePattern<scf::ForOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::ForOp loop,
                                PatternRewriter &rewriter) const override {
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
      auto convert = yield.getOperand(i).getDefiningOp<ConvertLayoutOp>();
      if (!convert ||
          !isa<BlockedEncodingAttr, MmaEncodingAttr, SliceEncodingAttr>(
              layoutOf(convert.getSrc())) ||
          layoutOf(convert.getSrc()) == layoutOf(arg))
        continue;
      auto oldType = cast<RankedTensorType>(arg.getType());
      Type newType = convert.getSrc().getType();
      Value result = loop.getResult(i);
      rewriter.setInsertionPoint(loop);
      Value init =
          convertToLayout(rewriter, loop.getLoc(), loop.getInitArgs()[i],
                          layoutOf(convert.getSrc()));
      rewriter.modifyOpInPlace(loop, [&] {
        loop.getInitArgsMutable()[i].set(init);
        arg.setType(newType);
        result.setType(newType);
      });
      rewriter.modifyOpInPlace(yield,
                               [&] { yield->setOperand(i, convert.getSrc()); });
      rewriter.setInsertionPointToStart(loop.getBody());
      convertUsesBack(rewriter, arg, oldType);
      rewriter.setInsertionPointAfter(loop);
      convertUsesBack(rewriter, result, oldType);
      return success();
    }
    return failure();
  }
};

/// Whether `value` is the tensor the loop around `branch` carries and
/// yields `result` (of `branch`) for: an accumulator the other branch
/// leaves unchanged.
bool isCarriedInto(Value value, scf::IfOp branch, OpResult result) {
  auto loop = dyn_cast<scf::ForOp>(branch->getParentOp());
  auto arg = dyn_cast<BlockArgument>(value);
  if (!loop || !arg || arg.getOwner() != loop.getBody() ||
      arg.getArgNumber() < loop.getNumInductionVars())
    return false;
  auto loopYield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  return loopYield.getOperand(arg.getArgNumber() -
                              loop.getNumInductionVars()) == result;
}

/// An scf.if result that one branch yields as a conversion from a blocked
/// or mma layout (or a slice of one) takes that layout, where the other
/// branch yields either a conversion from the same type (attention's `if`
/// for the causal mask, whose branches both compute the row maxima and the
/// scores from the dot) or the accumulator of the loop around the scf.if,
/// which it then converts (`if s != k: acc += tl.load(...)`). The result is
/// converted back after the scf.if: one conversion where there were two,
/// which the patterns above push on to the users, and ForIterArgOfConversion
/// carries an accumulator in the new layout.
struct IfResultOfConversion : public OpRewritePattern<scf::IfOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(scf::IfOp branch,
                                PatternRewriter &rewriter) const override {
    if (branch.getElseRegion().empty())
      return failure();
    for (OpResult result : branch->getResults()) {
      unsigned at = result.getResultNumber();
      for (bool convertedInThen : {true, false}) {
        scf::YieldOp converted =
            convertedInThen ? branch.thenYield() : branch.elseYield();
        scf::YieldOp other =
            convertedInThen ? branch.elseYield() : branch.thenYield();
        auto convert =
            converted.getOperand(at).getDefiningOp<ConvertLayoutOp>();
        if (!convert || !isBlockedOrMmaOrSlice(layoutOf(convert.getSrc())))
          continue;
        Value otherValue = other.getOperand(at);
        auto otherConvert = otherValue.getDefiningOp<ConvertLayoutOp>();
        bool bothConverted = otherConvert && otherConvert.getSrc().getType() ==
                                                 convert.getSrc().getType();
        if (!bothConverted && !isCarriedInto(otherValue, branch, result))
          continue;
        auto oldType = cast<RankedTensorType>(result.getType());
        rewriter.modifyOpInPlace(
            converted, [&] { converted->setOperand(at, convert.getSrc()); });
        rewriter.setInsertionPoint(other);
        Value otherInLayout =
            bothConverted
                ? otherConvert.getSrc()
                : convertToLayout(rewriter, other.getLoc(), otherValue,
                                  layoutOf(convert.getSrc()));
        rewriter.modifyOpInPlace(other,
                                 [&] { other->setOperand(at, otherInLayout); });
        rewriter.modifyOpInPlace(
            branch, [&] { result.setType(convert.getSrc().getType()); });
        rewriter.setInsertionPointAfter(branch);
        convertUsesBack(rewriter, result, oldType);
        return success();
      }
    }
    return failure();
  }
};

/// A conversion of a value the loop does not change moves before the loop.
struct HoistInvariantConversion : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ConvertLayoutOp op,
                                PatternRewriter &rewriter) const override {
    auto loop = dyn_cast<scf::ForOp>(op->getParentOp());
    if (!loop || !loop.isDefinedOutsideOfLoop(op.getSrc()))
      return failure();
    rewriter.moveOpBefore(op, loop);
    return success();
  }
};

struct RemoveLayoutConversions
    : public tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          RemoveLayoutConversions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeSource, PushConversionForward, ReduceOfConversion,
                 ConversionOfBroadcast, DotOfConversion, StoreOfConversion,
                 ForIterArgOfConversion, IfResultOfConversion,
                 HoistInvariantConversion>(&getContext());
    // Every pattern leaves valid IR (it moves, merges or drops conversions),
    // so a rewrite that has not settled when the iterations run out is no
    // error: a loaded value feeding many elementwise chains needs more than
    // the driver's default 10 rounds, and failing there stopped the compile
    // without a word. What is left are conversions the lowering handles.
    GreedyRewriteConfig config;
    config.setMaxIterations(64);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns), config);
  }
};
} // namespace
