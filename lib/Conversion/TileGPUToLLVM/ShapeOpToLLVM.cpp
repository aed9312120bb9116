//===- ShapeOpToLLVM.cpp - broadcast, expand_dims and layout conversion ---===//
//
//   - broadcast within one blocked layout: each result register copies the
//     operand register at the same coordinates, with 0 along the stretched
//     axes (which the operand holds once per thread);
//   - expand_dims from slice(dim, L) to L: the same registers (a slice holds
//     what its parent holds at coordinate 0 along dim);
//   - trans from a blocked layout to the same layout with the axes permuted:
//     the same registers;
//   - join and split between a blocked layout and the same with a new last
//     axis of 2 held per thread: registers interleaved and de-interleaved;
//   - reshape and cat (along axis 0) through the op's scratch buffer, in
//     row-major order;
//   - convert_layout between layouts that give threads different elements:
//     every thread writes its elements to the op's shared-memory scratch
//     buffer (at its tilegpu.shared_offset) at their row-major index, and
//     after a barrier reads the elements the new layout gives it. Replicated
//     elements are written by several threads with the same value. Barriers
//     against other ops' accesses come from tilegpu-insert-barriers.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
struct BroadcastOpLowering : public ConvertOpToLLVMPattern<BroadcastOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto srcType = op.getSrc().getType();
    auto layout = dyn_cast<DistributedLayoutInterface>(srcType.getEncoding());
    if (!layout || !isa<BlockedEncodingAttr, MmaEncodingAttr>(layout) ||
        layout != op.getType().getEncoding())
      return op.emitOpError("broadcast needs one blocked or mma layout, got ")
             << srcType << " to " << op.getType();
    Location loc = op.getLoc();
    SmallVector<Value> src = unpackStruct(rewriter, loc, adaptor.getSrc());
    ArrayRef<int64_t> shape = op.getType().getShape();
    SmallVector<unsigned> srcElems =
        layout.getElemsPerThread(srcType.getShape());
    // The operand's registers by their per-axis register coordinates.
    std::map<SmallVector<unsigned>, unsigned> srcRegister;
    for (unsigned r = 0; r < src.size(); ++r)
      srcRegister.try_emplace(getRegisterCoords(layout, srcType.getShape(), r),
                              r);
    SmallVector<Value> values;
    unsigned count = layout.getTotalElemsPerThread(shape);
    for (unsigned r = 0; r < count; ++r) {
      SmallVector<unsigned> coords = getRegisterCoords(layout, shape, r);
      for (unsigned d = 0; d < coords.size(); ++d)
        if (srcType.getDimSize(d) == 1 || coords[d] >= srcElems[d])
          coords[d] %= srcElems[d];
      auto it = srcRegister.find(coords);
      if (it == srcRegister.end())
        return op.emitOpError("internal error: no operand register for a "
                              "broadcast register");
      values.push_back(src[it->second]);
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

/// A transpose whose result layout permutes its operand's blocked layout
/// (convert-tile-to-tilegpu gives it that one) holds the same registers.
struct TransOpLowering : public ConvertOpToLLVMPattern<TransOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TransOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src = dyn_cast<BlockedEncodingAttr>(
        cast<RankedTensorType>(op.getSrc().getType()).getEncoding());
    auto dst = dyn_cast<BlockedEncodingAttr>(op.getType().getEncoding());
    if (!src || !dst || permuteBlockedLayout(src, op.getOrder()) != dst)
      return op.emitOpError("needs the operand's blocked layout with the axes "
                            "permuted as its result layout");
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

/// A join whose result layout is its operands' with a new last axis held
/// per thread (convert-tile-to-tilegpu gives it that one) interleaves the
/// operands' registers.
struct JoinOpLowering : public ConvertOpToLLVMPattern<JoinOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(JoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src =
        dyn_cast<BlockedEncodingAttr>(op.getLhs().getType().getEncoding());
    auto dst = dyn_cast<BlockedEncodingAttr>(op.getType().getEncoding());
    if (!src || !dst || joinBlockedLayout(src) != dst)
      return op.emitOpError("needs its operands' blocked layout with a new "
                            "last axis held per thread as its result layout");
    Location loc = op.getLoc();
    SmallVector<Value> lhs = unpackStruct(rewriter, loc, adaptor.getLhs());
    SmallVector<Value> rhs = unpackStruct(rewriter, loc, adaptor.getRhs());
    SmallVector<Value> joined;
    for (auto [a, b] : llvm::zip(lhs, rhs)) {
      joined.push_back(a);
      joined.push_back(b);
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), joined));
    return success();
  }
};

/// The inverse of a join: the even registers, then the odd ones.
struct SplitOpLowering : public ConvertOpToLLVMPattern<SplitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(SplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto src =
        dyn_cast<BlockedEncodingAttr>(op.getSrc().getType().getEncoding());
    auto dst =
        dyn_cast<BlockedEncodingAttr>(op.getOutLHS().getType().getEncoding());
    if (!src || !dst || splitBlockedLayout(src) != dst)
      return op.emitOpError("needs its results' blocked layout with a new "
                            "last axis held per thread as its operand layout");
    Location loc = op.getLoc();
    SmallVector<Value> registers =
        unpackStruct(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> halves[2];
    for (auto [i, value] : llvm::enumerate(registers))
      halves[i % 2].push_back(value);
    Type half = getTypeConverter()->convertType(op.getOutLHS().getType());
    rewriter.replaceOp(op, {packStruct(rewriter, loc, half, halves[0]),
                            packStruct(rewriter, loc, half, halves[1])});
    return success();
  }
};

/// The registers of the columns taken: each thread keeps what it holds.
struct ExtractColumnsOpLowering
    : public ConvertOpToLLVMPattern<ExtractColumnsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ExtractColumnsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType srcType = op.getSrc().getType(), dstType = op.getType();
    auto src = cast<MmaEncodingAttr>(srcType.getEncoding());
    auto dst = cast<MmaEncodingAttr>(dstType.getEncoding());
    // A thread's base column is its warp's along N times the instruction
    // width: the same in both layouts unless that width changes.
    if (src.getInstrN() != dst.getInstrN() && src.getWarpsPerCTA()[1] != 1)
      return op.emitOpError("needs the same instruction width, or one warp "
                            "along N");
    // Each source register by the constant part of its coordinates.
    DenseMap<std::pair<int64_t, int64_t>, unsigned> byOffset;
    for (unsigned reg = 0, e = src.getTotalElemsPerThread(srcType.getShape());
         reg < e; ++reg)
      byOffset[getMmaRegisterOffset(src, srcType.getShape(), reg)] = reg;
    Location loc = op.getLoc();
    SmallVector<Value> registers =
        unpackStruct(rewriter, loc, adaptor.getSrc());
    SmallVector<Value> taken;
    for (unsigned reg = 0, e = dst.getTotalElemsPerThread(dstType.getShape());
         reg < e; ++reg) {
      auto [row, col] = getMmaRegisterOffset(dst, dstType.getShape(), reg);
      auto it = byOffset.find({row, col + op.getOffset()});
      if (it == byOffset.end())
        return op.emitOpError("takes columns its threads do not hold");
      taken.push_back(registers[it->second]);
    }
    rewriter.replaceOp(op, packStruct(rewriter, loc,
                                      getTypeConverter()->convertType(dstType),
                                      taken));
    return success();
  }
};

struct ExpandDimsOpLowering : public ConvertOpToLLVMPattern<ExpandDimsOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ExpandDimsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto slice =
        dyn_cast<SliceEncodingAttr>(op.getSrc().getType().getEncoding());
    if (!slice || slice.getDim() != unsigned(op.getAxis()) ||
        slice.getParent() != op.getType().getEncoding())
      return op.emitOpError("expand_dims needs its operand in the slice of "
                            "its result's layout, got ")
             << op.getSrc().getType();
    rewriter.replaceOp(op, adaptor.getSrc());
    return success();
  }
};

struct ConvertLayoutOpLowering
    : public ConvertOpToLLVMPattern<ConvertLayoutOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ConvertLayoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = op.getSrc().getType();
    auto dstType = op.getType();
    // The same layout (or one that places every element alike) keeps every
    // element in the same register.
    if (isRegisterIdentityConversion(op)) {
      rewriter.replaceOp(op, adaptor.getSrc());
      return success();
    }
    auto srcLayout = getDistributedLayout(srcType);
    auto dstLayout = getDistributedLayout(dstType);
    if (!srcLayout || !dstLayout)
      return op.emitOpError("converting ")
             << srcType << " to " << dstType << " is not supported";
    ArrayRef<int64_t> shape = dstType.getShape();
    Type structType = getTypeConverter()->convertType(dstType);
    Type element = cast<LLVM::LLVMStructType>(structType).getBody()[0];
    unsigned bytes = getSharedElementBytes(dstType.getElementType());
    std::optional<uint64_t> bufferOffset = getSharedOffset(op);
    if (!bufferOffset)
      return rewriter.notifyMatchFailure(op, "no shared-memory offset");
    // Row-major, rows padded (getConvertLayoutRowPadding).
    int64_t padding = getConvertLayoutRowPadding(op);
    auto address = [&](ArrayRef<Value> index) {
      Value linear = i32Constant(rewriter, loc, 0);
      for (unsigned d = 0; d < shape.size(); ++d) {
        int64_t extent = shape[d] + (d + 1 == shape.size() ? padding : 0);
        linear = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, linear,
                                i32Constant(rewriter, loc, extent)),
            index[d]);
      }
      return getScratchPointer(
          rewriter, loc, *bufferOffset,
          LLVM::MulOp::create(rewriter, loc, linear,
                              i32Constant(rewriter, loc, bytes)));
    };
    SmallVector<Value> src = unpackStruct(rewriter, loc, adaptor.getSrc());
    auto srcIndices = emitIndices(rewriter, loc, srcLayout, shape);
    for (auto [value, index] : llvm::zip(src, srcIndices))
      LLVM::StoreOp::create(rewriter, loc, value, address(index));
    emitBarrier(rewriter, loc);
    SmallVector<Value> values;
    for (auto &index : emitIndices(rewriter, loc, dstLayout, shape))
      values.push_back(
          LLVM::LoadOp::create(rewriter, loc, element, address(index)));
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, values));
    return success();
  }
};
/// Ops that only move elements in row-major order pass them through their
/// scratch buffer: each thread writes its operands' elements at their
/// row-major index (operands one after the other) and, after a barrier,
/// reads the ones the result's layout gives it at their row-major index in
/// the result's shape. A reshape keeps the order of the elements; a cat
/// along axis 0 (the outermost) puts the second operand's after the first's.
template <typename OpTy>
struct RowMajorCopyLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename ConvertOpToLLVMPattern<OpTy>::OpAdaptor;

  /// The operands in order: their original values and converted registers.
  virtual SmallVector<std::pair<Value, Value>>
  getSources(OpTy op, OpAdaptor adaptor) const = 0;

  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dstType = cast<RankedTensorType>(op.getType());
    auto dstLayout = getDistributedLayout(dstType);
    std::optional<uint64_t> bufferOffset = getSharedOffset(op);
    if (!bufferOffset)
      return rewriter.notifyMatchFailure(op, "no shared-memory offset");
    Type structType = this->getTypeConverter()->convertType(dstType);
    if (!dstLayout || !structType)
      return op.emitOpError("needs a distributed layout");
    Type element = cast<LLVM::LLVMStructType>(structType).getBody()[0];
    unsigned bytes = getSharedElementBytes(dstType.getElementType());
    // Element `first` + the row-major index of `index` in `shape`.
    auto address = [&](ArrayRef<int64_t> shape, ArrayRef<Value> index,
                       int64_t first) {
      Value linear = i32Constant(rewriter, loc, 0);
      for (unsigned d = 0; d < shape.size(); ++d)
        linear = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, linear,
                                i32Constant(rewriter, loc, shape[d])),
            index[d]);
      linear = LLVM::AddOp::create(rewriter, loc, linear,
                                   i32Constant(rewriter, loc, first));
      return getScratchPointer(
          rewriter, loc, *bufferOffset,
          LLVM::MulOp::create(rewriter, loc, linear,
                              i32Constant(rewriter, loc, bytes)));
    };
    int64_t first = 0;
    for (auto [value, registers] : getSources(op, adaptor)) {
      auto type = cast<RankedTensorType>(value.getType());
      auto layout = getDistributedLayout(type);
      if (!layout)
        return op.emitOpError("needs distributed layouts");
      SmallVector<Value> elements = unpackStruct(rewriter, loc, registers);
      auto indices = emitIndices(rewriter, loc, layout, type.getShape());
      for (auto [element, index] : llvm::zip(elements, indices))
        LLVM::StoreOp::create(rewriter, loc, element,
                              address(type.getShape(), index, first));
      first += type.getNumElements();
    }
    emitBarrier(rewriter, loc);
    SmallVector<Value> values;
    for (auto &index :
         emitIndices(rewriter, loc, dstLayout, dstType.getShape()))
      values.push_back(LLVM::LoadOp::create(
          rewriter, loc, element, address(dstType.getShape(), index, 0)));
    rewriter.replaceOp(op, packStruct(rewriter, loc, structType, values));
    return success();
  }
};

struct ReshapeOpLowering : public RowMajorCopyLowering<ReshapeOp> {
  using RowMajorCopyLowering::RowMajorCopyLowering;
  SmallVector<std::pair<Value, Value>>
  getSources(ReshapeOp op, OpAdaptor adaptor) const override {
    return {{op.getSrc(), adaptor.getSrc()}};
  }
};

struct CatOpLowering : public RowMajorCopyLowering<CatOp> {
  using RowMajorCopyLowering::RowMajorCopyLowering;
  SmallVector<std::pair<Value, Value>>
  getSources(CatOp op, OpAdaptor adaptor) const override {
    return {{op.getLhs(), adaptor.getLhs()}, {op.getRhs(), adaptor.getRhs()}};
  }
};
} // namespace

void mlir::tilegpu::populateShapeOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                  RewritePatternSet &patterns) {
  patterns
      .add<BroadcastOpLowering, ExpandDimsOpLowering, ConvertLayoutOpLowering,
           TransOpLowering, JoinOpLowering, SplitOpLowering,
           ExtractColumnsOpLowering, ReshapeOpLowering, CatOpLowering>(
          converter);
}
