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

/// What both forms of async_copy share: the thread's pointers, masks and
/// element coordinates, the stage's address, and one cp.async per run.
struct CopyRuns {
  SmallVector<Value> ptrs, masks;
  SmallVector<SmallVector<Value>> indices;
  Value stageBase;
  unsigned bytes; // per run

  CopyRuns(ConversionPatternRewriter &rewriter, Location loc, AsyncCopyOp op,
           AsyncCopyOp::Adaptor adaptor, DistributedLayoutInterface layout,
           unsigned bytes)
      : bytes(bytes) {
    auto buffer = cast<MemDescType>(op.getBuffer().getType());
    ptrs = unpackStruct(rewriter, loc, adaptor.getPtr());
    if (adaptor.getMask())
      masks = unpackStruct(rewriter, loc, adaptor.getMask());
    indices =
        emitIndices(rewriter, loc, layout,
                    cast<RankedTensorType>(op.getPtr().getType()).getShape());
    stageBase = emitStageAddress(rewriter, loc, adaptor.getBuffer(),
                                 adaptor.getStage(), buffer.getStageBytes());
  }

  /// The copy of the run at register `r` to `dst` + `immediate`, masked-off
  /// runs with source size 0 (zeros written, nothing read); only where
  /// `predicate` holds, if given. .cg (L2 only) takes 16-byte copies;
  /// smaller ones go through L1 (.ca).
  void emit(ConversionPatternRewriter &rewriter, Location loc, unsigned r,
            Value dst, int64_t immediate = 0, Value predicate = {}) const {
    Value full = i32Constant(rewriter, loc, bytes);
    Value srcSize = masks.empty()
                        ? full
                        : LLVM::SelectOp::create(rewriter, loc, masks[r], full,
                                                 i32Constant(rewriter, loc, 0))
                              .getResult();
    std::string text = llvm::formatv(
        "{0}cp.async.{1}.shared.global [$0 + {2}], [$1], {3}, $2;",
        predicate ? "@$3 " : "", bytes == 16 ? "cg" : "ca", immediate, bytes);
    SmallVector<Value> operands = {dst, ptrs[r], srcSize};
    if (predicate)
      operands.push_back(predicate);
    emitPtxStatement(rewriter, loc, text, predicate ? "r,l,r,b" : "r,l,r",
                     operands);
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
    // The axis the runs go along: the stage's contiguous one.
    bool plain = ptrType.getRank() == 1;
    unsigned inner = plain || op.getTransposed() ? 0 : 1, outer = 1 - inner;
    if (!layout || layout.getLayoutOrder()[0] != inner ||
        (bytes != 4 && bytes != 8 && bytes != 16))
      return op.emitOpError("cp.async copies 4, 8 or 16 bytes along the "
                            "stage's contiguous axis; this block allows ")
             << bytes << " bytes";
    if (plain)
      return lowerPlainCopy(op, adaptor, rewriter, layout, plan.width,
                            elementBytes);

    WgmmaOperandTile tile{buffer.getShape()[1], buffer.getShape()[2],
                          elementBytes, /*innerIsK=*/false};
    CopyRuns runs(rewriter, loc, op, adaptor, layout, bytes);
    auto &indices = runs.indices;
    // A run whose tile offset differs from the first run's by a constant
    // multiple of 1024 bytes has the same swizzle: it is addressed from the
    // first run's address with an immediate offset.
    std::optional<SmallVector<int64_t>> first =
        getRegisterOffsets(layout, ptrType.getShape(), 0);
    Value firstDst;
    for (unsigned r = 0; r < runs.ptrs.size(); r += plan.width) {
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
        dst = LLVM::AddOp::create(rewriter, loc, runs.stageBase,
                                  tile.emitSwizzle(rewriter, loc, linear));
        if (r == 0)
          firstDst = dst;
      }
      runs.emit(rewriter, loc, r, dst, immediate);
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
    CopyRuns runs(rewriter, loc, op, adaptor, layout, width * elementBytes);
    SmallVector<Value> firsts =
        emitFirstCopyMasks(rewriter, loc, layout, ptrType.getShape());
    for (unsigned r = 0; r < runs.ptrs.size(); r += width) {
      if (!firsts.empty() && !firsts[r])
        continue; // no first copy of this element here
      Value dst = LLVM::AddOp::create(
          rewriter, loc, runs.stageBase,
          LLVM::MulOp::create(rewriter, loc, runs.indices[r][0],
                              i32Constant(rewriter, loc, elementBytes)));
      runs.emit(rewriter, loc, r, dst, /*immediate=*/0,
                firsts.empty() ? Value() : firsts[r]);
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
