//===- AsyncCopyOpToLLVM.cpp - shared-memory stages and cp.async ----------===//
//
// The lowering of the shared-memory side of a pipelined dot
// (tilegpu-pipeline):
//   - local_alloc: the address of its buffer in the program's shared memory
//     (the offset tilegpu-allocate-shared-memory recorded on it);
//   - async_copy: per run of a thread's registers (4, 8 or 16 bytes, as for
//     a global load: planVectors), one cp.async from the element's global
//     address to its place in the stage's swizzled wgmma tile
//     (WgmmaOperands.h); a masked-off run has source size 0, so it reads
//     nothing and writes zeros;
//   - async_copy of a 1-D block: into a plain stage (element i at byte
//     i * size), by the threads holding each element's first copy;
//   - local_load: each register's element from a plain stage;
//   - async_commit_group and async_wait: cp.async.commit_group and
//     cp.async.wait_group, with no proxy fence after the wait. cp.async
//     into a stage that wgmma then reads is the pattern of CUTLASS's
//     MainloopSm90CpAsyncGmma and of Triton's Hopper matmul, neither of
//     which fences there; on the H100 the fence (MEMBAR.ALL.CTA plus
//     FENCE.VIEW.ASYNC.S per iteration) cost 1-3% at 2048^3
//     (docs/performance.md, "What was tried"). Stores from registers
//     (st.shared) before a wgmma still get the fence (WgmmaDotOpToLLVM.cpp).
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "WgmmaOperands.h"
#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct LocalAllocOpLowering : public ConvertOpToLLVMPattern<LocalAllocOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(LocalAllocOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<uint64_t> offset = getSharedOffset(op);
    if (!offset)
      return op.emitOpError("has no ")
             << kSharedOffsetAttr
             << "; run tilegpu-allocate-shared-memory first";
    rewriter.replaceOp(
        op, getScratchPointer(rewriter, op.getLoc(), *offset,
                              i32Constant(rewriter, op.getLoc(), 0)));
    return success();
  }
};

struct AsyncCopyOpLowering : public ConvertOpToLLVMPattern<AsyncCopyOp> {
  AsyncCopyOpLowering(const LLVMTypeConverter &converter,
                      const tile::ModuleAxisInfo &axisInfo)
      : ConvertOpToLLVMPattern(converter), axisInfo(axisInfo) {}

  LogicalResult
  matchAndRewrite(AsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    auto buffer = cast<MemDescType>(op.getBuffer().getType());
    unsigned elementBytes = buffer.getElementType().getIntOrFloatBitWidth() / 8;
    auto layout = getDistributedLayout(ptrType);
    VectorPlan plan =
        planVectors(axisInfo, op.getPtr(), op.getMask(), elementBytes * 8);
    unsigned bytes = plan.width * elementBytes;
    if (ptrType.getRank() == 1)
      return lowerPlainCopy(op, adaptor, rewriter, layout, plan.width,
                            elementBytes);
    // The axis the runs go along: the stage's contiguous one.
    unsigned inner = op.getTransposed() ? 0 : 1, outer = 1 - inner;
    if (!layout || layout.getLayoutOrder()[0] != inner ||
        (bytes != 4 && bytes != 8 && bytes != 16))
      return op.emitOpError("cp.async copies 4, 8 or 16 bytes along the "
                            "stage's contiguous axis; this block allows ")
             << bytes << " bytes";

    WgmmaOperandTile tile{buffer.getShape()[1], buffer.getShape()[2],
                          elementBytes, /*innerIsK=*/false};
    SmallVector<Value> ptrs = unpackStruct(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackStruct(rewriter, loc, adaptor.getMask());
    auto indices = emitIndices(rewriter, loc, layout, ptrType.getShape());

    Value stageBase =
        emitStageAddress(rewriter, loc, adaptor.getBuffer(), adaptor.getStage(),
                         buffer.getStageBytes());
    Value full = i32Constant(rewriter, loc, bytes);
    Value none = i32Constant(rewriter, loc, 0);
    // A run whose tile offset differs from the first run's by a constant
    // multiple of 1024 bytes has the same swizzle: it is addressed from the
    // first run's address with an immediate offset.
    std::optional<SmallVector<int64_t>> first =
        getRegisterOffsets(layout, ptrType.getShape(), 0);
    Value firstDst;
    for (unsigned r = 0; r < ptrs.size(); r += plan.width) {
      std::optional<SmallVector<int64_t>> here =
          getRegisterOffsets(layout, ptrType.getShape(), r);
      Value dst;
      int64_t immediate = 0;
      if (first && here && firstDst) {
        int64_t delta = tile.linearOffset((*here)[outer], (*here)[inner]) -
                        tile.linearOffset((*first)[outer], (*first)[inner]);
        bool sameBlockPhase = ((*here)[inner] - (*first)[inner]) *
                                  int64_t(elementBytes) % tile.swizzleBytes() ==
                              0;
        if (sameBlockPhase && delta % 1024 == 0) {
          dst = firstDst;
          immediate = delta;
        }
      }
      if (!dst) {
        Value linear = tile.emitLinearOffset(rewriter, loc, indices[r][outer],
                                             indices[r][inner]);
        dst = LLVM::AddOp::create(rewriter, loc, stageBase,
                                  tile.emitSwizzle(rewriter, loc, linear));
        if (r == 0)
          firstDst = dst;
      }
      // .cg (L2 only) takes 16-byte copies; smaller ones go through L1
      // (.ca).
      std::string text =
          llvm::formatv("cp.async.{0}.shared.global [$0 + {1}], [$1], {2}, $2;",
                        bytes == 16 ? "cg" : "ca", immediate, bytes);
      Value srcSize =
          masks.empty()
              ? full
              : LLVM::SelectOp::create(rewriter, loc, masks[r], full, none);
      emitPtxStatement(rewriter, loc, text, "r,l,r",
                       ValueRange{dst, ptrs[r], srcSize});
    }
    rewriter.eraseOp(op);
    return success();
  }

  /// A 1-D block into a plain stage: element i at byte i * elementBytes.
  /// Threads holding a replica of an element (a block smaller than its
  /// layout's tile) copy nothing for it.
  LogicalResult lowerPlainCopy(AsyncCopyOp op, OpAdaptor adaptor,
                               ConversionPatternRewriter &rewriter,
                               DistributedLayoutInterface layout,
                               unsigned width, unsigned elementBytes) const {
    Location loc = op.getLoc();
    auto ptrType = cast<RankedTensorType>(op.getPtr().getType());
    auto buffer = cast<MemDescType>(op.getBuffer().getType());
    unsigned bytes = width * elementBytes;
    if (!layout || (bytes != 4 && bytes != 8 && bytes != 16))
      return op.emitOpError("cp.async copies 4, 8 or 16 bytes; this block "
                            "allows ")
             << bytes << " bytes";
    SmallVector<Value> ptrs = unpackStruct(rewriter, loc, adaptor.getPtr());
    SmallVector<Value> masks;
    if (adaptor.getMask())
      masks = unpackStruct(rewriter, loc, adaptor.getMask());
    SmallVector<Value> firsts =
        emitFirstCopyMasks(rewriter, loc, layout, ptrType.getShape());
    auto indices = emitIndices(rewriter, loc, layout, ptrType.getShape());
    Value stageBase =
        emitStageAddress(rewriter, loc, adaptor.getBuffer(), adaptor.getStage(),
                         buffer.getStageBytes());
    Value full = i32Constant(rewriter, loc, bytes);
    Value none = i32Constant(rewriter, loc, 0);
    std::string text =
        llvm::formatv("cp.async.{0}.shared.global [$0], [$1], {1}, $2;",
                      bytes == 16 ? "cg" : "ca", bytes);
    for (unsigned r = 0; r < ptrs.size(); r += width) {
      Value dst = LLVM::AddOp::create(
          rewriter, loc, stageBase,
          LLVM::MulOp::create(rewriter, loc, indices[r][0],
                              i32Constant(rewriter, loc, elementBytes)));
      Value srcSize =
          masks.empty()
              ? full
              : LLVM::SelectOp::create(rewriter, loc, masks[r], full, none)
                    .getResult();
      std::string copyText = text;
      if (!firsts.empty() && firsts[r])
        copyText = "@$3 " + text;
      else if (!firsts.empty())
        continue; // no first copy of this element here
      SmallVector<Value> operands = {dst, ptrs[r], srcSize};
      std::string constraints = "r,l,r";
      if (!firsts.empty()) {
        operands.push_back(firsts[r]);
        constraints += ",b";
      }
      emitPtxStatement(rewriter, loc, copyText, constraints, operands);
    }
    rewriter.eraseOp(op);
    return success();
  }

  const tile::ModuleAxisInfo &axisInfo;
};

/// Each register of the result loads its element from the plain stage.
struct LocalLoadOpLowering : public ConvertOpToLLVMPattern<LocalLoadOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(LocalLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getType());
    auto buffer = cast<MemDescType>(op.getBuffer().getType());
    auto layout = getDistributedLayout(type);
    if (!layout)
      return op.emitOpError("needs a distributed layout, got ") << type;
    Type element = getTypeConverter()->convertType(type.getElementType());
    unsigned elementBytes = type.getElementTypeBitWidth() / 8;
    Value stageBase =
        emitStageAddress(rewriter, loc, adaptor.getBuffer(), adaptor.getStage(),
                         buffer.getStageBytes());
    auto sharedPtr = LLVM::LLVMPointerType::get(rewriter.getContext(), 3);
    SmallVector<Value> values;
    for (auto &index : emitIndices(rewriter, loc, layout, type.getShape())) {
      Value byte = LLVM::AddOp::create(
          rewriter, loc, stageBase,
          LLVM::MulOp::create(rewriter, loc, index[0],
                              i32Constant(rewriter, loc, elementBytes)));
      values.push_back(LLVM::LoadOp::create(
          rewriter, loc, element,
          LLVM::IntToPtrOp::create(rewriter, loc, sharedPtr, byte)));
    }
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), values));
    return success();
  }
};

struct AsyncCommitGroupOpLowering
    : public ConvertOpToLLVMPattern<AsyncCommitGroupOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(AsyncCommitGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    emitPtxStatement(rewriter, op.getLoc(), "cp.async.commit_group;");
    rewriter.eraseOp(op);
    return success();
  }
};

struct AsyncWaitOpLowering : public ConvertOpToLLVMPattern<AsyncWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(AsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitPtxStatement(
        rewriter, loc,
        llvm::formatv("cp.async.wait_group {0};", op.getPending()).str());
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateAsyncCopyOpToLLVMPatterns(
    LLVMTypeConverter &converter, const tile::ModuleAxisInfo &axisInfo,
    RewritePatternSet &patterns) {
  patterns.add<LocalAllocOpLowering, LocalLoadOpLowering,
               AsyncCommitGroupOpLowering, AsyncWaitOpLowering>(converter);
  patterns.add<AsyncCopyOpLowering>(converter, axisInfo);
}
