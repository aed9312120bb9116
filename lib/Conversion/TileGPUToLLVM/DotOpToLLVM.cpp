//===- DotOpToLLVM.cpp - tile.dot on CUDA cores ---------------------------===//
//
// The portable lowering of tile.dot (FMA, as Triton's fallback for layouts
// without tensor cores): both operands go to the op's shared-memory scratch
// buffer in row-major order (at its tilegpu.shared_offset; earlier accesses
// are ordered by tilegpu-insert-barriers), and after a barrier each thread
// runs a loop
// over K that loads the A rows and B columns of the result elements it
// holds (one load per distinct row and column) and accumulates in fp32 (or
// the accumulator's type) with fused multiply-adds. Operands may have any
// distributed layout; the result keeps the accumulator's blocked layout.
// Tensor-core lowerings (mma.sync, wgmma) take precedence where they apply.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// `value` (an operand element) in the accumulator's type.
Value toAccumulatorType(OpBuilder &b, Location loc, Value value, Type acc) {
  Type type = value.getType();
  if (type == acc)
    return value;
  if (isa<FloatType>(acc)) {
    if (isa<FloatType>(type))
      return type.getIntOrFloatBitWidth() < acc.getIntOrFloatBitWidth()
                 ? LLVM::FPExtOp::create(b, loc, acc, value).getResult()
                 : LLVM::FPTruncOp::create(b, loc, acc, value).getResult();
    return LLVM::SIToFPOp::create(b, loc, acc, value);
  }
  return LLVM::SExtOp::create(b, loc, acc, value);
}

struct DotOpFMALowering : public ConvertOpToLLVMPattern<DotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto aType = op.getA().getType(), bType = op.getB().getType();
    auto dType = op.getType();
    auto aLayout = getDistributedLayout(aType);
    auto bLayout = getDistributedLayout(bType);
    auto dLayout = dyn_cast<BlockedEncodingAttr>(dType.getEncoding());
    if (!aLayout || !bLayout || !dLayout)
      return op.emitOpError("dot needs distributed operands and a blocked "
                            "result, got ")
             << aType << ", " << bType << " -> " << dType;
    int64_t K = aType.getDimSize(1), N = bType.getDimSize(1);
    Type aElem = getTypeConverter()->convertType(aType.getElementType());
    Type bElem = getTypeConverter()->convertType(bType.getElementType());
    Type accElem = getTypeConverter()->convertType(dType.getElementType());
    unsigned aBytes = getSharedElementBytes(aType.getElementType()),
             bBytes = getSharedElementBytes(bType.getElementType());
    int64_t bBase = getDotScratchBOffset(op);
    std::optional<uint64_t> bufferOffset = getSharedOffset(op);
    if (!bufferOffset)
      return rewriter.notifyMatchFailure(op, "no shared-memory offset");

    auto address = [&](int64_t base, Value row, Value col, int64_t cols,
                       unsigned bytes) {
      Value linear = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, row,
                              i32Constant(rewriter, loc, cols)),
          col);
      Value offset = LLVM::AddOp::create(
          rewriter, loc, i32Constant(rewriter, loc, base),
          LLVM::MulOp::create(rewriter, loc, linear,
                              i32Constant(rewriter, loc, bytes)));
      return getScratchPointer(rewriter, loc, *bufferOffset, offset);
    };

    // Operands to shared memory.
    auto aIndices = emitIndices(rewriter, loc, aLayout, aType.getShape());
    for (auto [value, index] :
         llvm::zip(unpackStruct(rewriter, loc, adaptor.getA()), aIndices))
      LLVM::StoreOp::create(rewriter, loc, value,
                            address(0, index[0], index[1], K, aBytes));
    auto bIndices = emitIndices(rewriter, loc, bLayout, bType.getShape());
    for (auto [value, index] :
         llvm::zip(unpackStruct(rewriter, loc, adaptor.getB()), bIndices))
      LLVM::StoreOp::create(rewriter, loc, value,
                            address(bBase, index[0], index[1], N, bBytes));
    emitBarrier(rewriter, loc);

    // The distinct rows and columns of this thread's result registers.
    auto dIndices = emitIndices(rewriter, loc, dLayout, dType.getShape());
    unsigned numRegs = dIndices.size();
    std::map<unsigned, unsigned> rowSlot, colSlot;
    SmallVector<Value> rows, cols;
    SmallVector<std::pair<unsigned, unsigned>> regSlots;
    for (unsigned r = 0; r < numRegs; ++r) {
      SmallVector<unsigned> coords =
          getRegisterCoords(dLayout, dType.getShape(), r);
      auto [ri, newRow] = rowSlot.try_emplace(coords[0], rows.size());
      if (newRow)
        rows.push_back(dIndices[r][0]);
      auto [ci, newCol] = colSlot.try_emplace(coords[1], cols.size());
      if (newCol)
        cols.push_back(dIndices[r][1]);
      regSlots.push_back({ri->second, ci->second});
    }

    SmallVector<Value> init = unpackStruct(rewriter, loc, adaptor.getC());
    Value lb = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value ub = arith::ConstantIndexOp::create(rewriter, loc, K);
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, lb, ub, step, init,
        [&](OpBuilder &b, Location loc, Value iv, ValueRange acc) {
          Value k = arith::IndexCastOp::create(b, loc, b.getI32Type(), iv);
          SmallVector<Value> aVals, bVals;
          for (Value row : rows)
            aVals.push_back(toAccumulatorType(
                b, loc,
                LLVM::LoadOp::create(b, loc, aElem,
                                     address(0, row, k, K, aBytes)),
                accElem));
          for (Value col : cols)
            bVals.push_back(toAccumulatorType(
                b, loc,
                LLVM::LoadOp::create(b, loc, bElem,
                                     address(bBase, k, col, N, bBytes)),
                accElem));
          SmallVector<Value> next;
          for (auto [r, slots] : llvm::enumerate(regSlots)) {
            Value x = aVals[slots.first], y = bVals[slots.second];
            if (isa<FloatType>(accElem))
              next.push_back(LLVM::FMAOp::create(b, loc, x, y, acc[r]));
            else
              next.push_back(LLVM::AddOp::create(
                  b, loc, acc[r], LLVM::MulOp::create(b, loc, x, y)));
          }
          scf::YieldOp::create(b, loc, next);
        });
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(dType),
                                      loop.getResults()));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateDotOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns.add<DotOpFMALowering>(converter);
}
