//===- MmaSyncDotOpToLLVM.cpp - tile.dot on mma.sync tensor cores ---------===//
//
// The lowering of a tile.dot whose result has an #tilegpu.mma version 2
// layout (tilegpu-accelerate-matmul chose it; sm_80 and later) to
// mma.sync.aligned.m16n8k16 with fp16 or bf16 operands and fp32
// accumulators:
//   1. each thread stores its A and B registers into the op's scratch
//      buffer, row-major with rows padded by 16 bytes (ScratchBuffers.h:
//      then ldmatrix's eight row reads fall in different banks), in runs of
//      up to 16 bytes; earlier accesses are ordered by
//      tilegpu-insert-barriers, and a barrier follows the stores;
//   2. per 16 of K, each warp loads its A fragment of each 16-row slice
//      with ldmatrix.x4 and its B fragment of each pair of 8-column slices
//      with ldmatrix.x4.trans (x2 for a lone slice): lane l reads the row
//      at (l % 8) + 8 * ((l / 8) % 2) and the 8 columns at 8 * (l / 16) of
//      the 16 x 16 block (for B, k rows and n columns);
//   3. one mma.sync per 16 x 8 block of the warp's accumulator, whose
//      registers are the layout's (c0, c1 at row l/4, c2, c3 at row l/4 + 8,
//      columns 2 * (l % 4) + {0, 1}).
// shared_dot, the pipelined form (tilegpu-pipeline), does 2 and 3 on one
// stage of local_alloc buffers, whose swizzled tiles (WgmmaOperands.h)
// keep each 16-byte chunk whole and put a chunk column's 8 rows in
// different banks; the copies were waited for and a barrier placed before
// it (tilegpu-insert-barriers).
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "WgmmaOperands.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// The registers an inline-PTX statement writes, of type `type` each.
/// `readsMemory`: the statement reads shared memory, so it keeps its place
/// among barriers and stores (LLVM sees no memory operand of an asm).
SmallVector<Value> emitPtxResults(OpBuilder &b, Location loc, StringRef text,
                                  StringRef constraints, ValueRange operands,
                                  unsigned numResults, Type type,
                                  bool readsMemory) {
  Type result = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(numResults, type));
  auto op = createInlinePtx(b, loc, result, operands, text, constraints,
                            /*hasSideEffects=*/readsMemory);
  return unpackStruct(b, loc, op.getResult(0));
}

/// ldmatrix of `count` 8x8 b16 matrices (transposed if `trans`) from the
/// shared address `address` (i32) this lane supplies.
SmallVector<Value> emitLdmatrix(OpBuilder &b, Location loc, Value address,
                                unsigned count, bool trans) {
  std::string outs, regs;
  for (unsigned i = 0; i < count; ++i) {
    outs += "=r,";
    regs += (i ? ", $" : "$") + std::to_string(i);
  }
  std::string text = llvm::formatv(
      "ldmatrix.sync.aligned.m8n8.x{0}{1}.shared.b16 {{{2}}, [${3}];", count,
      trans ? ".trans" : "", regs, count);
  return emitPtxResults(b, loc, text, outs + "r", {address}, count,
                        b.getI32Type(), /*readsMemory=*/true);
}

/// One mma.sync m16n8k16 with fp32 accumulators `acc` (4), A fragment `a`
/// (4 registers of two 16-bit values) and B fragment `b` (2).
SmallVector<Value> emitMmaSync(OpBuilder &builder, Location loc, ValueRange acc,
                               ValueRange a, ValueRange b,
                               StringRef inputType) {
  std::string text = llvm::formatv(
      "mma.sync.aligned.m16n8k16.row.col.f32.{0}.{0}.f32 {{$0, $1, $2, $3}, "
      "{{$4, $5, $6, $7}, {{$8, $9}, {{$10, $11, $12, $13};",
      inputType);
  SmallVector<Value> operands(a.begin(), a.end());
  operands.append(b.begin(), b.end());
  operands.append(acc.begin(), acc.end());
  return emitPtxResults(builder, loc, text, "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3",
                        operands, 4, builder.getF32Type(),
                        /*readsMemory=*/false);
}

/// The shared address (i32) of the 16 bytes of an operand tile at (row,
/// col .. col + 7): rows of A are M, of B are K.
using ChunkAddress = llvm::function_ref<Value(OpBuilder &, Value, Value)>;

/// Per 16 of K, this warp's ldmatrix fragments of A and B and one mma.sync
/// per 16 x 8 block of its accumulators `acc` (the layout's registers).
SmallVector<Value> emitMmaSyncTiles(OpBuilder &b, Location loc,
                                    MmaEncodingAttr mma,
                                    ArrayRef<int64_t> dShape, int64_t K,
                                    StringRef inputType, ChunkAddress aChunk,
                                    ChunkAddress bChunk,
                                    SmallVector<Value> acc) {
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) { return i32Constant(b, loc, v); };
  auto add = [&](Value x, Value y) {
    return LLVM::AddOp::create(b, loc, x, y).getResult();
  };
  auto mul = [&](Value x, int64_t y) {
    return LLVM::MulOp::create(b, loc, x, constant(y)).getResult();
  };
  auto udiv = [&](Value x, int64_t y) {
    return LLVM::UDivOp::create(b, loc, x, constant(y)).getResult();
  };
  auto urem = [&](Value x, int64_t y) {
    return LLVM::URemOp::create(b, loc, x, constant(y)).getResult();
  };
  // This warp's 16-row and n-column slice of each tile repetition, and the
  // row and 8-column block this lane supplies to ldmatrix.
  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  Value warp = shuffleIdx(b, loc, udiv(tid, 32), constant(0));
  Value lane = urem(tid, 32);
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  unsigned n = mma.getInstrN();
  SmallVector<int64_t> tileShape = mma.getShapePerCTATile();
  Value warpRow = mul(urem(warp, wm), 16);
  Value warpCol = mul(urem(udiv(warp, wm), wn), n);
  Value laneRow = add(urem(lane, 8), mul(urem(udiv(lane, 8), 2), 8));
  Value laneBlock = mul(udiv(lane, 16), 8);
  // A: lane rows of each 16-row slice, from this warp's first row.
  Value aRow = add(warpRow, laneRow);
  // B: lane's column block from this warp's first column.
  Value bCol = add(warpCol, laneBlock);

  SmallVector<int64_t> reps = mma.getReps(dShape);
  unsigned blocksN = n / 8;
  for (int64_t k = 0; k < K; k += 16) {
    // B fragments of every 8-column block of every repetition.
    SmallVector<SmallVector<Value>> bFrags(reps[1] * blocksN);
    Value bRow = add(laneRow, constant(k));
    for (int64_t rn = 0; rn < reps[1]; ++rn)
      for (unsigned j = 0; j < blocksN; j += 2) {
        int64_t col = rn * tileShape[1] + 8 * j;
        bool pair = j + 1 < blocksN;
        SmallVector<Value> regs = emitLdmatrix(
            b, loc, bChunk(b, bRow, add(pair ? bCol : warpCol, constant(col))),
            pair ? 4 : 2, /*trans=*/true);
        bFrags[rn * blocksN + j] = {regs[0], regs[1]};
        if (pair)
          bFrags[rn * blocksN + j + 1] = {regs[2], regs[3]};
      }
    for (int64_t rm = 0; rm < reps[0]; ++rm) {
      SmallVector<Value> aFrag =
          emitLdmatrix(b, loc,
                       aChunk(b, add(aRow, constant(rm * tileShape[0])),
                              add(laneBlock, constant(k))),
                       4, /*trans=*/false);
      for (int64_t rn = 0; rn < reps[1]; ++rn)
        for (unsigned j = 0; j < blocksN; ++j) {
          unsigned first = unsigned(((rm * reps[1] + rn) * blocksN + j) * 4);
          SmallVector<Value> next =
              emitMmaSync(b, loc, ValueRange(acc).slice(first, 4), aFrag,
                          bFrags[rn * blocksN + j], inputType);
          std::copy(next.begin(), next.end(), acc.begin() + first);
        }
    }
  }
  return acc;
}

struct DotOpMmaSyncLowering : public ConvertOpToLLVMPattern<DotOp> {
  DotOpMmaSyncLowering(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<DotOp>(converter, /*benefit=*/2) {}

  /// Stores a tensor's registers row-major into the scratch buffer at byte
  /// `base`, rows `rowBytes` apart, in runs of up to 16 bytes along the
  /// rows.
  void storeOperand(ConversionPatternRewriter &rewriter, Location loc,
                    RankedTensorType type, Value converted,
                    uint64_t bufferOffset, int64_t base,
                    int64_t rowBytes) const {
    auto layout = getDistributedLayout(type);
    SmallVector<Value> values = unpackStruct(rewriter, loc, converted);
    auto indices = emitIndices(rewriter, loc, layout, type.getShape());
    unsigned elementBytes = getSharedElementBytes(type.getElementType());
    unsigned width = std::min<unsigned>(
        getThreadRunLength(layout, type.getShape(), 1, 16 / elementBytes),
        type.getDimSize(1));
    for (unsigned r = 0; r < values.size(); r += width) {
      Value offset = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::MulOp::create(rewriter, loc, indices[r][0],
                              i32Constant(rewriter, loc, rowBytes)),
          LLVM::MulOp::create(rewriter, loc, indices[r][1],
                              i32Constant(rewriter, loc, elementBytes)));
      offset = LLVM::AddOp::create(rewriter, loc, offset,
                                   i32Constant(rewriter, loc, base));
      storeRun(rewriter, loc, ArrayRef<Value>(values).slice(r, width),
               getScratchPointer(rewriter, loc, bufferOffset, offset),
               elementBytes);
    }
  }

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mma = dyn_cast<MmaEncodingAttr>(op.getType().getEncoding());
    if (!mma || mma.getVersionMajor() != 2)
      return failure();
    Location loc = op.getLoc();
    auto aType = op.getA().getType(), bType = op.getB().getType();
    auto dType = op.getType();
    int64_t M = dType.getDimSize(0), N = dType.getDimSize(1),
            K = aType.getDimSize(1);
    SmallVector<int64_t> tileShape = mma.getShapePerCTATile();
    Type element = aType.getElementType();
    if (M % tileShape[0] != 0 || N % tileShape[1] != 0 || K % 16 != 0 ||
        !(element.isF16() || element.isBF16()) ||
        bType.getElementType() != element || !dType.getElementType().isF32() ||
        !getDistributedLayout(aType) || !getDistributedLayout(bType))
      return op.emitOpError("mma.sync needs fp16 or bf16 distributed "
                            "operands of one type and an f32 result that "
                            "is a whole number of mma tiles, got ")
             << aType << ", " << bType << " -> " << dType;
    std::optional<uint64_t> bufferOffset = getSharedOffset(op);
    if (!bufferOffset)
      return rewriter.notifyMatchFailure(op, "no shared-memory offset");
    StringRef inputType = getMmaInputType(element);

    int64_t aRowBytes = getDotScratchRowBytes(op, 0);
    int64_t bRowBytes = getDotScratchRowBytes(op, 1);
    int64_t bBase = getDotScratchBOffset(op);
    storeOperand(rewriter, loc, aType, adaptor.getA(), *bufferOffset, 0,
                 aRowBytes);
    storeOperand(rewriter, loc, bType, adaptor.getB(), *bufferOffset, bBase,
                 bRowBytes);
    emitBarrier(rewriter, loc);

    Value scratch = LLVM::PtrToIntOp::create(
        rewriter, loc, rewriter.getI32Type(),
        getScratchPointer(rewriter, loc, *bufferOffset,
                          i32Constant(rewriter, loc, 0)));
    // The 16 bytes at (row, col) of A (at 0) or B (at bBase), row-major.
    auto rowMajor = [&](int64_t base, int64_t rowBytes) {
      return [&, base, rowBytes](OpBuilder &b, Value row, Value col) -> Value {
        Value offset = LLVM::AddOp::create(
            b, loc,
            LLVM::MulOp::create(b, loc, row, i32Constant(b, loc, rowBytes)),
            LLVM::MulOp::create(b, loc, col, i32Constant(b, loc, 2)));
        return LLVM::AddOp::create(
            b, loc, scratch,
            LLVM::AddOp::create(b, loc, offset, i32Constant(b, loc, base)));
      };
    };
    SmallVector<Value> acc =
        emitMmaSyncTiles(rewriter, loc, mma, dType.getShape(), K, inputType,
                         rowMajor(0, aRowBytes), rowMajor(bBase, bRowBytes),
                         unpackStruct(rewriter, loc, adaptor.getC()));
    rewriter.replaceOp(
        op,
        packStruct(rewriter, loc, getTypeConverter()->convertType(dType), acc));
    return success();
  }
};

/// shared_dot: the same fragments and mma.sync, read from one stage of the
/// pipelined buffers, which hold local_alloc's swizzled tiles (A K-major,
/// B MN-major; WgmmaOperands.h): each 16-byte chunk stays whole there.
struct SharedDotOpLowering : public ConvertOpToLLVMPattern<SharedDotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(SharedDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto mma = cast<MmaEncodingAttr>(op.getType().getEncoding());
    FailureOr<StagedOperands> staged =
        getStagedOperands(rewriter, op, mma, op.getA(), op.getB(),
                          adaptor.getA(), adaptor.getB(), adaptor.getStage());
    if (failed(staged))
      return failure();
    auto swizzled = [&](const WgmmaOperandTile &tile, Value base) {
      return [&tile, base, loc](OpBuilder &b, Value row, Value col) -> Value {
        Value linear = tile.emitLinearOffset(b, loc, row, col);
        return LLVM::AddOp::create(b, loc, base,
                                   tile.emitSwizzle(b, loc, linear));
      };
    };
    SmallVector<Value> acc = emitMmaSyncTiles(
        rewriter, loc, mma, op.getType().getShape(), staged->K,
        getMmaInputType(
            cast<MemDescType>(op.getA().getType()).getElementType()),
        swizzled(staged->a, staged->aBase), swizzled(staged->b, staged->bBase),
        unpackStruct(rewriter, loc, adaptor.getAcc()));
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), acc));
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateMmaSyncDotOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotOpMmaSyncLowering, SharedDotOpLowering>(converter);
}
