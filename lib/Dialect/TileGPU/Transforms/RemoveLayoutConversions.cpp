//===- RemoveLayoutConversions.cpp - rematerialize instead of convert -----===//
//
// tilegpu-remove-layout-conversions removes convert_layout ops by
// recomputing their source in the target layout when the source is cheap
// and free of side effects (splat, make_range, addptr, elementwise
// arithmetic; constants and chains of conversions fold). The recomputed op
// converts its own operands instead, so conversions move towards the values
// that cannot be recomputed (loads, arguments) where they usually meet the
// layout they already have and vanish. Ops left without users are erased.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
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
  return isa<tile::SplatOp, tile::MakeRangeOp, tile::AddPtrOp>(op) ||
         (op->hasTrait<OpTrait::Elementwise>() &&
          op->getDialect()->getNamespace() == "arith");
}

struct RematerializeSource : public OpRewritePattern<ConvertLayoutOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConvertLayoutOp convert,
                                PatternRewriter &rewriter) const override {
    Operation *source = convert.getSrc().getDefiningOp();
    if (!source || !isCheapToRematerialize(source))
      return failure();
    Attribute layout = convert.getType().getEncoding();
    IRMapping mapping;
    for (Value operand : source->getOperands()) {
      auto tensor = dyn_cast<RankedTensorType>(operand.getType());
      if (!tensor)
        continue; // scalars have no layout
      auto target = RankedTensorType::get(tensor.getShape(),
                                          tensor.getElementType(), layout);
      mapping.map(operand, ConvertLayoutOp::create(rewriter, convert.getLoc(),
                                                   target, operand));
    }
    Operation *copy = rewriter.clone(*source, mapping);
    copy->getResult(0).setType(convert.getType());
    rewriter.replaceOp(convert, copy->getResults());
    return success();
  }
};

struct RemoveLayoutConversions
    : public tilegpu::impl::TileGPURemoveLayoutConversionsBase<
          RemoveLayoutConversions> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<RematerializeSource>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
