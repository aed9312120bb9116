//===- CombineDotAdd.cpp - fold an addition into a dot's accumulator ------===//
//
// tile-combine-dot-add: `x + tl.dot(a, b)` (an arith.addf or arith.addi of a
// tile.dot whose accumulator is a zero constant and whose only user is the
// addition) becomes `tl.dot(a, b, x)`, as Triton's combine pass does. The
// tensor cores then accumulate into x's registers: tutorial 06's backward
// writes `dv += tl.dot(ppT, do)`, which otherwise holds a second
// accumulator, zeroed each iteration, beside dv. Assumes the tile dialect
// after canonicalization (zeros are dense splat constants).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tile {
#define GEN_PASS_DEF_TILECOMBINEDOTADD
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace mlir::tile

using namespace mlir;
using namespace mlir::tile;

namespace {
/// The dot behind `value` when its accumulator is zero and it has no other
/// user.
DotOp getZeroAccumulatorDot(Value value) {
  auto dot = value.getDefiningOp<DotOp>();
  if (!dot || !dot->hasOneUse())
    return {};
  if (!matchPattern(dot.getC(), m_AnyZeroFloat()) &&
      !matchPattern(dot.getC(), m_Zero()))
    return {};
  return dot;
}

struct CombineDotAdd : public tile::impl::TileCombineDotAddBase<CombineDotAdd> {
  void runOnOperation() override {
    SmallVector<Operation *> adds;
    getOperation().walk([&](Operation *op) {
      if (isa<arith::AddFOp, arith::AddIOp>(op))
        adds.push_back(op);
    });
    for (Operation *add : adds) {
      for (unsigned i = 0; i < 2; ++i) {
        DotOp dot = getZeroAccumulatorDot(add->getOperand(i));
        Value other = add->getOperand(1 - i);
        if (!dot || other.getType() != dot.getType())
          continue;
        OpBuilder builder(add);
        auto fused = DotOp::create(
            builder, dot.getLoc(), dot.getType(), dot.getA(), dot.getB(), other,
            dot.getInputPrecision(), dot.getMaxNumImpreciseAcc());
        add->getResult(0).replaceAllUsesWith(fused.getResult());
        add->erase();
        dot->erase();
        break;
      }
    }
  }
};
} // namespace
