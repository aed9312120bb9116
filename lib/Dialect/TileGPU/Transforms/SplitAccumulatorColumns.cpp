//===- SplitAccumulatorColumns.cpp - column halves in registers ----------===//
//
// tilegpu-split-accumulator-columns: tutorial 09's EPILOGUE_SUBTILE writes
//   acc0, acc1 = tl.split(tl.permute(tl.reshape(acc, (M, 2, N // 2)),
//                                    (0, 2, 1)))
// which is acc[:, :N // 2] and acc[:, N // 2:]. Lowered as written, the
// reshape and the permute take blocked layouts, so the accumulator goes
// through shared memory to one and on to another, with every register of
// both live (the kernel spills). When `acc` is in a #tilegpu.mma layout
// whose column halves are in the registers of the threads that hold them,
// each half becomes a tilegpu.extract_columns of `acc` (no data moves),
// converted to the split's result layout; tilegpu-remove-layout-
// conversions then carries the mma layout on to the halves' users where it
// can (a TMA store takes it as it is).
//
// A half stays in its threads when the layout repeats its warps' tile along
// N an even number of times (each half is half of the repetitions), or
// when one warp spans N in one repetition (each half is half of the
// instruction's columns). Assumes layouts are assigned
// (convert-tile-to-tilegpu) and runs before tilegpu-remove-layout-
// conversions.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUSPLITACCUMULATORCOLUMNS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// `value` before any layout conversions.
Value skipConversions(Value value) {
  while (auto convert = value.getDefiningOp<ConvertLayoutOp>())
    value = convert.getSrc();
  return value;
}

/// The 2-D block whose column halves `split` takes, where its operand is
/// permute((0, 2, 1)) of reshape(block, (M, 2, N / 2)); null otherwise.
Value getSplitBlock(tile::SplitOp split) {
  auto trans = skipConversions(split.getSrc()).getDefiningOp<tile::TransOp>();
  if (!trans || trans.getOrder() != ArrayRef<int32_t>{0, 2, 1})
    return {};
  auto reshape =
      skipConversions(trans.getSrc()).getDefiningOp<tile::ReshapeOp>();
  if (!reshape || reshape.getAllowReorder())
    return {};
  auto from = cast<RankedTensorType>(reshape.getSrc().getType());
  auto to = cast<RankedTensorType>(reshape.getType());
  if (from.getRank() != 2 || to.getRank() != 3 ||
      to.getShape() !=
          ArrayRef<int64_t>{from.getDimSize(0), 2, from.getDimSize(1) / 2} ||
      from.getDimSize(1) % 2 != 0)
    return {};
  return skipConversions(reshape.getSrc());
}

/// The mma layout of a half of a block of `shape` in `mma` that keeps each
/// column in the thread holding it, if there is one.
MmaEncodingAttr getHalfLayout(MmaEncodingAttr mma, ArrayRef<int64_t> shape) {
  int64_t n = mma.getInstrN(), warpsN = mma.getWarpsPerCTA()[1];
  int64_t columns = shape[1], half = columns / 2;
  if (columns % (n * warpsN) != 0)
    return {};
  if (half % (n * warpsN) == 0)
    return mma; // half of the repetitions
  if (warpsN == 1 && columns == n && half % 8 == 0)
    return MmaEncodingAttr::get(mma.getContext(), mma.getVersionMajor(),
                                mma.getWarpsPerCTA(),
                                {mma.getInstrShape()[0], unsigned(half)});
  return {};
}

void splitInRegisters(tile::SplitOp split) {
  Value block = getSplitBlock(split);
  if (!block)
    return;
  auto type = cast<RankedTensorType>(block.getType());
  auto mma = dyn_cast<MmaEncodingAttr>(type.getEncoding());
  MmaEncodingAttr half = mma ? getHalfLayout(mma, type.getShape()) : nullptr;
  if (!half)
    return;
  int64_t columns = type.getDimSize(1) / 2;
  auto halfType = RankedTensorType::get({type.getDimSize(0), columns},
                                        type.getElementType(), half);
  OpBuilder b(split);
  Location loc = split.getLoc();
  for (auto [index, result] : llvm::enumerate(split.getResults())) {
    Value taken = ExtractColumnsOp::create(
        b, loc, halfType, block, b.getI32IntegerAttr(int32_t(index * columns)));
    if (taken.getType() != result.getType())
      taken = ConvertLayoutOp::create(b, loc, result.getType(), taken);
    result.replaceAllUsesWith(taken);
  }
  // The split, then the permute, reshape and conversions that fed it.
  Value operand = split.getSrc();
  split.erase();
  while (Operation *def = operand.getDefiningOp()) {
    if (!def->use_empty() ||
        !isa<ConvertLayoutOp, tile::TransOp, tile::ReshapeOp>(def))
      break;
    operand = def->getOperand(0);
    def->erase();
  }
}

struct SplitAccumulatorColumns
    : public tilegpu::impl::TileGPUSplitAccumulatorColumnsBase<
          SplitAccumulatorColumns> {
  void runOnOperation() override {
    SmallVector<tile::SplitOp> splits;
    getOperation().walk([&](tile::SplitOp split) { splits.push_back(split); });
    for (tile::SplitOp split : splits)
      splitInRegisters(split);
  }
};
} // namespace
