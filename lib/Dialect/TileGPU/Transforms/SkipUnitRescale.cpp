//===- SkipUnitRescale.cpp - keep accumulator rows whose factor is 1 ------===//
//
// tilegpu-skip-unit-rescale: the online softmax of an attention forward
// rescales its accumulator before every P V dot,
//
//   acc = acc * alpha[:, None]      alpha = exp2(m_old - m_new)
//
// and alpha is exactly 1 on every row whose running maximum did not change,
// which, once a row has seen a few key blocks, is most of them. A multiply
// by 1.0 returns its operand unchanged (IEEE: NaN, infinities, signed zeros
// and subnormals too), so a warp whose rows all have alpha == 1 may keep
// its registers: the multiply becomes
//
//   %keep = tilegpu.warp_all (alpha == 1.0)
//   scf.if %keep { yield acc } else { yield acc * alpha[:, None] }
//
// saving one FMUL per accumulator register (as many as the softmax's
// exponentials) for one compare per row, a vote and a branch. The values
// are the same on either side, which is what lets the condition differ
// between warps (tilegpu.warp_all's contract).
//
// On the H200 the pass made tutorial 06's persistent forward (D 128,
// non-causal, the split) 3-4% faster at N_CTX 4096 and 16384, and other
// attention kernels up to 2% slower (the causal split at 8192, D 64's
// 4-warp kernel at 2048; docs/performance.md), so the compile pipeline
// runs it with persistent-only.
//
// Assumes tensor layouts are final (after tilegpu-remove-layout-conversions),
// that the multiply touches no shared memory (it is elementwise on an
// mma accumulator), so the branch holds no barrier, and that every lane of
// a warp reaches it (vote.sync's full mask): tile programs branch per warp
// at most (tilegpu.warp_roles splits whole warpgroups). Rewrites only a
// multiply whose every use is a dot's accumulator: its registers are then
// read by wgmma, not by code that could fold the multiply away.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUSKIPUNITRESCALE
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The row vector `value` broadcasts along the columns
/// (broadcast(expand_dims(v, 1))), or null.
Value getBroadcastRows(Value value) {
  auto broadcast = value.getDefiningOp<tile::BroadcastOp>();
  if (!broadcast)
    return {};
  auto expand = broadcast.getSrc().getDefiningOp<tile::ExpandDimsOp>();
  if (!expand || expand.getAxis() != 1)
    return {};
  return expand.getSrc();
}

/// Whether every use of `value` is the accumulator of a wgmma dot.
bool feedsOnlyAccumulators(Value value) {
  return !value.use_empty() &&
         llvm::all_of(value.getUses(), [](OpOperand &use) {
           auto dot = dyn_cast<WarpGroupDotOp>(use.getOwner());
           return dot && use.get() == dot.getAcc() && dot.getA() != use.get();
         });
}

void skipUnitRows(arith::MulFOp mul, Value acc, Value rows) {
  OpBuilder b(mul);
  Location loc = mul.getLoc();
  auto rowType = cast<RankedTensorType>(rows.getType());
  Value one = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(rowType,
                             b.getFloatAttr(rowType.getElementType(), 1.0)));
  Value unit =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, rows, one);
  Value keep = WarpAllOp::create(b, loc, b.getI1Type(), unit);
  auto branch = scf::IfOp::create(b, loc, TypeRange{mul.getType()}, keep,
                                  /*withElseRegion=*/true);
  mul.getResult().replaceAllUsesWith(branch.getResult(0));
  b.setInsertionPointToStart(branch.thenBlock());
  scf::YieldOp::create(b, loc, acc);
  b.setInsertionPointToStart(branch.elseBlock());
  auto yield = scf::YieldOp::create(b, loc, mul.getResult());
  mul->moveBefore(yield);
}

struct SkipUnitRescale
    : public tilegpu::impl::TileGPUSkipUnitRescaleBase<SkipUnitRescale> {
  using Base::Base;

  void runOnOperation() override {
    if (persistentOnly && !getOperation()->hasAttr(kPersistentProgramsAttr))
      return;
    SmallVector<std::tuple<arith::MulFOp, Value, Value>> rescales;
    getOperation().walk([&](arith::MulFOp mul) {
      auto type = dyn_cast<RankedTensorType>(mul.getType());
      if (!type || type.getRank() != 2 ||
          !isa_and_nonnull<MmaEncodingAttr>(type.getEncoding()) ||
          !feedsOnlyAccumulators(mul.getResult()))
        return;
      for (unsigned side = 0; side < 2; ++side)
        if (Value rows = getBroadcastRows(mul->getOperand(side))) {
          rescales.push_back({mul, mul->getOperand(1 - side), rows});
          return;
        }
    });
    for (auto [mul, acc, rows] : rescales)
      skipUnitRows(mul, acc, rows);
  }
};
} // namespace
