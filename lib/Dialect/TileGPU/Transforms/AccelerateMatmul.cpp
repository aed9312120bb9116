//===- AccelerateMatmul.cpp - tensor-core layouts for dots ----------------===//
//
// tilegpu-accelerate-matmul gives each tile.dot that wgmma can run (sm_90a;
// fp16 or bf16 operands, or fp32 ones with input_precision tf32; fp32
// accumulator; M a multiple of 64, N of 8, K of 16 (8 for tf32); num-warps
// a multiple of 4) an #tilegpu.mma version 3 result. Warps
// are stacked along M as far as M has 16-row slices for them (a warpgroup
// needs 64 rows), the rest go along N; each warp's wgmma is as wide in N as
// its share of the tile, up to 256. The accumulator is converted into the
// mma layout and the result out of it; when the accumulator is an scf.for
// iter_arg used only by the dot, and the dot's result is used only by the
// loop's yield at the same position, the loop carries the mma layout and
// the conversions sit before and after the loop. The operands keep their
// layouts: the dot's lowering stages them through shared memory.
//
// On sm_80 and later, a dot wgmma cannot run (other targets, fewer than
// four warps, fewer than 64 rows) with fp16 or bf16 operands, an fp32
// accumulator, M a multiple of 16, N of 8 and K of 16 gets an
// #tilegpu.mma version 2 result instead (mma.sync m16n8k16): warps are
// doubled along whichever of M (16-row slices) and N (8-column slices) has
// more slices per warp left, as Triton's warpsPerTile does.
// Assumes convert-tile-to-tilegpu ran (every tensor has a layout).
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUACCELERATEMATMUL
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// A warp's columns per tile repetition for `perWarpN` columns: the widest
/// multiple of 8 up to 256 that divides them (repetitions cover the rest),
/// or 0 if there is none.
int64_t getInstrN(int64_t perWarpN) {
  for (int64_t n = std::min<int64_t>(256, perWarpN / 8 * 8); n >= 8; n -= 8)
    if (perWarpN % n == 0)
      return n;
  return 0;
}

/// The wgmma layout for `dot`, or null when wgmma cannot run it.
MmaEncodingAttr chooseWgmmaLayout(tile::DotOp dot, unsigned numWarps) {
  auto a = dot.getA().getType(), b = dot.getB().getType();
  auto d = dot.getType();
  if (a.getRank() != 2 || !d.getElementType().isF32())
    return {};
  Type element = a.getElementType();
  bool tf32 =
      element.isF32() && dot.getInputPrecision() == tile::InputPrecision::tf32;
  if (!(element.isF16() || element.isBF16() || tf32) ||
      b.getElementType() != element)
    return {};
  int64_t m = d.getDimSize(0), n = d.getDimSize(1), k = a.getDimSize(1);
  if (numWarps % 4 != 0 || m % 64 != 0 || n % 8 != 0 || k % (tf32 ? 8 : 16))
    return {};
  // The swizzled tiles need rows of at least 32 bytes (B's are n wide for
  // 16-bit types).
  if (!tf32 && n < 16)
    return {};
  // Warps along M while each gets 16 rows of its own, in whole warpgroups.
  unsigned warpsM = 4;
  while (warpsM * 2 <= numWarps && int64_t(warpsM * 2) * 16 <= m)
    warpsM *= 2;
  unsigned warpsN = numWarps / warpsM;
  if (n % warpsN != 0)
    return {};
  int64_t instrN = getInstrN(n / warpsN);
  if (!instrN)
    return {};
  // Warps side by side along N must start at whole swizzle blocks of an
  // MN-major B (16-bit types); a K-major B (tf32) has them in rows.
  if (!tf32 && warpsN > 1 && (instrN * 2) % std::min<int64_t>(128, n * 2) != 0)
    return {};
  // The warps' tile must fit in the result (no replication).
  if (m % (16 * warpsM) != 0)
    return {};
  return MmaEncodingAttr::get(dot.getContext(), 3, {warpsM, warpsN},
                              {16, unsigned(instrN)});
}

/// The mma.sync layout for `dot`, or null when mma.sync cannot run it.
MmaEncodingAttr chooseMmaSyncLayout(tile::DotOp dot, unsigned numWarps) {
  auto a = dot.getA().getType(), b = dot.getB().getType();
  auto d = dot.getType();
  if (a.getRank() != 2 || !d.getElementType().isF32())
    return {};
  Type element = a.getElementType();
  if (!(element.isF16() || element.isBF16()) || b.getElementType() != element)
    return {};
  int64_t m = d.getDimSize(0), n = d.getDimSize(1), k = a.getDimSize(1);
  if (m % 16 != 0 || n % 8 != 0 || k % 16 != 0)
    return {};
  unsigned warpsM = 1, warpsN = 1;
  while (warpsM * warpsN < numWarps) {
    int64_t leftM = m / (16 * warpsM), leftN = n / (8 * warpsN);
    bool splitM = leftM % 2 == 0, splitN = leftN % 2 == 0;
    if (splitM && (leftM >= leftN || !splitN))
      warpsM *= 2;
    else if (splitN)
      warpsN *= 2;
    else
      return {}; // the slices do not divide among the warps
  }
  return MmaEncodingAttr::get(dot.getContext(), 2, {warpsM, warpsN},
                              {16, unsigned(getInstrN(n / warpsN))});
}

/// If `dot`'s accumulator is carried by an enclosing scf.for (see the file
/// comment), the loop and the iter_arg's index.
std::optional<std::pair<scf::ForOp, unsigned>>
getCarryingLoop(tile::DotOp dot) {
  auto arg = dyn_cast<BlockArgument>(dot.getC());
  if (!arg)
    return std::nullopt;
  auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
  if (!loop || arg.getArgNumber() == 0 || !arg.hasOneUse() || !dot->hasOneUse())
    return std::nullopt;
  unsigned index = arg.getArgNumber() - 1;
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  OpOperand &use = *dot->getUses().begin();
  if (use.getOwner() != yield || use.getOperandNumber() != index)
    return std::nullopt;
  return std::make_pair(loop, index);
}

void accelerate(tile::DotOp dot, MmaEncodingAttr mma) {
  OpBuilder builder(dot);
  Location loc = dot.getLoc();
  RankedTensorType oldType = dot.getType();
  RankedTensorType newType = withLayout(oldType, mma);
  Attribute oldLayout = oldType.getEncoding();

  if (auto carried = getCarryingLoop(dot)) {
    auto [loop, index] = *carried;
    // The loop carries the mma layout: convert the init before it and the
    // result after it.
    OpOperand &init = loop.getInitArgsMutable()[index];
    builder.setInsertionPoint(loop);
    init.set(convertToLayout(builder, loc, init.get(), mma));
    BlockArgument arg = loop.getRegionIterArgs()[index];
    arg.setType(newType);
    dot.getResult().setType(newType);
    Value result = loop.getResult(index);
    result.setType(newType);
    builder.setInsertionPointAfter(loop);
    auto back = ConvertLayoutOp::create(builder, loc, oldType, result);
    result.replaceAllUsesExcept(back.getResult(), back);
    return;
  }
  dot.getCMutable().set(convertToLayout(builder, loc, dot.getC(), mma));
  dot.getResult().setType(newType);
  builder.setInsertionPointAfter(dot);
  auto back = ConvertLayoutOp::create(builder, loc,
                                      withLayout(newType, oldLayout), dot);
  dot.getResult().replaceAllUsesExcept(back.getResult(), back);
}

struct AccelerateMatmul
    : public tilegpu::impl::TileGPUAccelerateMatmulBase<AccelerateMatmul> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto target =
        module->getAttrOfType<StringAttr>(TileGPUDialect::getTargetAttrName());
    if (!target || getComputeCapability(target.getValue()) < 80)
      return;
    // wgmma exists only in the architecture-specific sm_90a.
    bool wgmma = target.getValue() == "sm_90a";
    unsigned numWarps = getNumWarps(module);
    SmallVector<tile::DotOp> dots;
    module.walk([&](tile::DotOp dot) { dots.push_back(dot); });
    for (tile::DotOp dot : dots) {
      MmaEncodingAttr mma;
      if (wgmma)
        mma = chooseWgmmaLayout(dot, numWarps);
      if (!mma)
        mma = chooseMmaSyncLayout(dot, numWarps);
      if (mma)
        accelerate(dot, mma);
    }
  }
};
} // namespace
