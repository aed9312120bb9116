//===- IndexingOpToLLVM.cpp - gather and histogram through shared memory --===//
//
// tile.gather and tile.histogram, each through its op's scratch buffer
// (written, bar.sync, read: getScratchBytes' contract):
//   - gather: every thread writes its source elements at their row-major
//     index; after a barrier it reads, for each result element, the source
//     element at the result's coordinates with the one along the axis
//     replaced by the index register (the result and the index share one
//     layout). The index is wrapped into the axis (its low bits: the axis is
//     a power of two), so an index out of range, undefined in Triton, reads
//     some element of the buffer rather than outside it.
//   - histogram: every thread zeroes the bins its result registers hold;
//     after a barrier each element is counted once (only the thread holding
//     its first copy, where the mask holds and the value is in
//     [0, num_bins)) with an atomic add on its bin in shared memory; after a
//     second barrier each thread reads its result registers' bins.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// The scratch address of element `coords` of a row-major `shape` whose
/// elements take `bytes` each.
Value rowMajorAddress(OpBuilder &b, Location loc, uint64_t bufferOffset,
                      ArrayRef<int64_t> shape, ArrayRef<Value> coords,
                      unsigned bytes) {
  Value linear = i32Constant(b, loc, 0);
  for (unsigned d = 0; d < shape.size(); ++d)
    linear = LLVM::AddOp::create(
        b, loc,
        LLVM::MulOp::create(b, loc, linear, i32Constant(b, loc, shape[d])),
        coords[d]);
  return getScratchPointer(
      b, loc, bufferOffset,
      LLVM::MulOp::create(b, loc, linear, i32Constant(b, loc, bytes)));
}

/// An integer register as i32 (sign-extended or truncated).
Value toI32(OpBuilder &b, Location loc, Value v) {
  unsigned width = cast<IntegerType>(v.getType()).getWidth();
  if (width == 32)
    return v;
  if (width < 32)
    return LLVM::SExtOp::create(b, loc, b.getI32Type(), v);
  return LLVM::TruncOp::create(b, loc, b.getI32Type(), v);
}

struct GatherOpLowering : public ConvertOpToLLVMPattern<GatherOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType dstType = op.getType();
    auto srcLayout = getDistributedLayout(srcType);
    auto dstLayout = getDistributedLayout(dstType);
    if (!srcLayout || !dstLayout ||
        op.getIndex().getType().getEncoding() != dstType.getEncoding())
      return op.emitOpError("needs distributed layouts, the index's the "
                            "result's");
    std::optional<uint64_t> bufferOffset = getSharedOffset(op);
    if (!bufferOffset)
      return rewriter.notifyMatchFailure(op, "no shared-memory offset");
    Type structType = getTypeConverter()->convertType(dstType);
    Type element = cast<LLVM::LLVMStructType>(structType).getBody()[0];
    unsigned bytes = getSharedElementBytes(srcType.getElementType());
    ArrayRef<int64_t> srcShape = srcType.getShape();

    SmallVector<Value> src = unpackStruct(rewriter, loc, adaptor.getSrc());
    auto srcIndices = emitIndices(rewriter, loc, srcLayout, srcShape);
    for (auto [value, coords] : llvm::zip(src, srcIndices))
      LLVM::StoreOp::create(rewriter, loc, value,
                            rowMajorAddress(rewriter, loc, *bufferOffset,
                                            srcShape, coords, bytes));
    emitBarrier(rewriter, loc);

    unsigned axis = op.getAxis();
    Value wrap = i32Constant(rewriter, loc, srcShape[axis] - 1);
    SmallVector<Value> index = unpackStruct(rewriter, loc, adaptor.getIndex());
    auto dstIndices = emitIndices(rewriter, loc, dstLayout, dstType.getShape());
    SmallVector<Value> values;
    for (auto [at, coords] : llvm::zip(index, dstIndices)) {
      SmallVector<Value> source(coords);
      source[axis] =
          LLVM::AndOp::create(rewriter, loc, toI32(rewriter, loc, at), wrap);
      values.push_back(
          LLVM::LoadOp::create(rewriter, loc, element,
                               rowMajorAddress(rewriter, loc, *bufferOffset,
                                               srcShape, source, bytes)));
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, values));
    return success();
  }
};

struct HistogramOpLowering : public ConvertOpToLLVMPattern<HistogramOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(HistogramOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType srcType = op.getSrc().getType();
    RankedTensorType dstType = op.getType();
    auto srcLayout = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
    auto dstLayout = getDistributedLayout(dstType);
    if (!srcLayout || !dstLayout ||
        (op.getMask() &&
         op.getMask().getType().getEncoding() != srcType.getEncoding()))
      return op.emitOpError("needs a blocked operand layout (the mask's too) "
                            "and a distributed result layout");
    std::optional<uint64_t> bufferOffset = getSharedOffset(op);
    if (!bufferOffset)
      return rewriter.notifyMatchFailure(op, "no shared-memory offset");
    Type structType = getTypeConverter()->convertType(dstType);
    Type i32 = rewriter.getI32Type();
    int64_t bins = dstType.getDimSize(0);
    auto binAddress = [&](Value bin) {
      return getScratchPointer(
          rewriter, loc, *bufferOffset,
          LLVM::MulOp::create(rewriter, loc, bin,
                              i32Constant(rewriter, loc, 4)));
    };

    auto dstIndices = emitIndices(rewriter, loc, dstLayout, dstType.getShape());
    for (auto &coords : dstIndices)
      LLVM::StoreOp::create(rewriter, loc, i32Constant(rewriter, loc, 0),
                            binAddress(coords[0]));
    emitBarrier(rewriter, loc);

    SmallVector<Value> src = unpackStruct(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> mask;
    if (adaptor.getMask())
      mask = unpackStruct(rewriter, loc, adaptor.getMask());
    SmallVector<Value> firstCopy =
        emitFirstCopyMasks(rewriter, loc, srcLayout, srcType.getShape());
    Type valueType = src.empty() ? i32 : src.front().getType();
    Value limit = LLVM::ConstantOp::create(
        rewriter, loc, valueType, rewriter.getIntegerAttr(valueType, bins));
    Value zero = i32Constant(rewriter, loc, 0);
    for (auto [r, value] : llvm::enumerate(src)) {
      // Unsigned: negative values are past the last bin too.
      Value counted = LLVM::ICmpOp::create(
          rewriter, loc, LLVM::ICmpPredicate::ult, value, limit);
      if (!mask.empty())
        counted = LLVM::AndOp::create(rewriter, loc, counted, mask[r]);
      if (r < firstCopy.size() && firstCopy[r])
        counted = LLVM::AndOp::create(rewriter, loc, counted, firstCopy[r]);
      Value bin = LLVM::SelectOp::create(rewriter, loc, counted,
                                         toI32(rewriter, loc, value), zero);
      Value one = LLVM::ZExtOp::create(rewriter, loc, i32, counted);
      LLVM::AtomicRMWOp::create(rewriter, loc, LLVM::AtomicBinOp::add,
                                binAddress(bin), one,
                                LLVM::AtomicOrdering::monotonic);
    }
    emitBarrier(rewriter, loc);

    SmallVector<Value> values;
    for (auto &coords : dstIndices)
      values.push_back(
          LLVM::LoadOp::create(rewriter, loc, i32, binAddress(coords[0])));
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, values));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateIndexingOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<GatherOpLowering, HistogramOpLowering>(converter);
}
