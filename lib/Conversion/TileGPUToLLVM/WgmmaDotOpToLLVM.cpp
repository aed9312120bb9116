//===- WgmmaDotOpToLLVM.cpp - tile.dot on Hopper tensor cores -------------===//
//
// The lowering of a tile.dot whose result has an #tilegpu.mma version 3
// layout (tilegpu-accelerate-matmul chose it) to wgmma.mma_async:
//   1. each thread stores its A and B registers into the op's scratch
//      buffer, as the swizzled tiles of WgmmaOperands.h (16-byte vector
//      stores where the layout gives a thread 16 consecutive bytes; fp32
//      operands, multiplied as tf32, have B stored transposed, K-major);
//   2. fence.proxy.async (the generic stores become visible to wgmma's
//      async proxy), bar.sync, wgmma.fence;
//   3. each warpgroup issues, per K step (16, or 8 for tf32) and per
//      repetition of the mma tile, one wgmma m64nNk16 (k8) on its
//      accumulator registers, A and B read through descriptors;
//   4. wgmma.commit_group and wgmma.wait_group 0, the accumulators passed
//      through the wait so that nothing reads them before it.
// Earlier shared-memory accesses are ordered by tilegpu-insert-barriers, as
// for every scratch user; the op's reads end at the wait.
//
// The pipelined form (tilegpu-pipeline) splits this: warpgroup_dot is steps
// 3 on a stage its copies filled, with wgmma.fence before and the commit
// after; warpgroup_dot_wait is the wait, with the pending count it names.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "WgmmaOperands.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// On a warpgroup_dot: its A sub-tile offsets go into each wgmma's asm.
constexpr llvm::StringLiteral kOffsetsInAsmAttr = "tilegpu.a_offsets_in_asm";

/// An inline-PTX statement with side effects (kept in place and order).
SmallVector<Value> emitPtx(OpBuilder &b, Location loc, StringRef text,
                           StringRef constraints, ValueRange operands,
                           unsigned numResults) {
  Type result;
  if (numResults == 1)
    result = b.getF32Type();
  else if (numResults > 1)
    result = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(numResults, b.getF32Type()));
  auto op = createInlinePtx(b, loc, result, operands, text, constraints,
                            /*hasSideEffects=*/true);
  if (numResults == 0)
    return {};
  if (numResults == 1)
    return {op.getResult(0)};
  return unpackStruct(b, loc, op.getResult(0));
}

/// "=f,...,=f,0,1,...": `count` f32 registers read and written.
std::string tiedF32Constraints(unsigned count) {
  std::string outs, ins;
  for (unsigned i = 0; i < count; ++i) {
    outs += "=f,";
    ins += (i ? "," : "") + std::to_string(i);
  }
  return outs + ins;
}

/// "{$first, ..., $first+count-1}".
std::string registerList(unsigned first, unsigned count) {
  std::string list = "{";
  for (unsigned i = 0; i < count; ++i)
    list += (i ? ", $" : "$") + std::to_string(first + i);
  return list + "}";
}

/// wgmma's name for the operands' element type, and the K of one
/// instruction (32 bytes of each operand row).
int64_t getWgmmaK(StringRef inputType) { return inputType == "tf32" ? 8 : 16; }

/// One wgmma m64nNk16 (k8 for tf32) with fp32 accumulators `acc` (N/2 of
/// them), A and B from shared memory. A 16-bit B is read transposed unless
/// `bKMajor` (MN-major, its transpose bit set); tf32 takes no transpose
/// operands (both K-major). Operands number outputs, then inputs (the tied
/// accumulators first). With `zeroAcc` the accumulators start from zero:
/// scale-d is 0 and they are no inputs (as Triton emits a dot whose
/// accumulator is a zero constant), so no registers are zeroed for it and
/// written just before the wgmma reads them. A nonzero `aOffset` is added
/// to A's descriptor inside the instruction's asm (see emitWgmmaGroup).
SmallVector<Value> emitWgmma(OpBuilder &b, Location loc, ValueRange acc,
                             ValueRange a, Value descB, unsigned n,
                             StringRef inputType, bool bKMajor,
                             bool zeroAcc = false, int64_t aOffset = 0) {
  unsigned count = acc.size();
  // A: one descriptor (shared memory, with its transpose operand), or four
  // b32 registers of 16-bit pairs (which take none).
  bool aInRegisters = a.size() == 4;
  unsigned aFirst = zeroAcc ? count : 2 * count, bIndex = aFirst + a.size();
  std::string aText = aInRegisters ? registerList(aFirst, 4)
                      : aOffset    ? std::string("da")
                                   : "$" + std::to_string(aFirst);
  std::string prelude =
      aOffset ? llvm::formatv(".reg .b64 da; add.s64 da, ${0}, {1}; ", aFirst,
                              aOffset)
                    .str()
              : std::string();
  std::string transpose = inputType == "tf32" ? ""
                          : aInRegisters      ? (bKMajor ? ", 0" : ", 1")
                          : bKMajor           ? ", 0, 0"
                                              : ", 0, 1";
  std::string instruction = llvm::formatv(
      "wgmma.mma_async.sync.aligned.m64n{0}k{1}.f32.{2}.{2} {3}, {4}, ${5}, ",
      n, getWgmmaK(inputType), inputType, registerList(0, count), aText,
      bIndex);
  std::string aConstraints = aInRegisters ? ",r,r,r,r" : ",l";
  SmallVector<Value> operands;
  if (zeroAcc) {
    std::string outs;
    for (unsigned i = 0; i < count; ++i)
      outs += (i ? ",=f" : "=f");
    operands.append(a.begin(), a.end());
    operands.push_back(descB);
    std::string zeroText = instruction + "0, 1, 1" + transpose + ";";
    if (!prelude.empty())
      zeroText = "{ " + prelude + zeroText + " }";
    return emitPtx(b, loc, zeroText, outs + aConstraints + ",l", operands,
                   count);
  }
  std::string text = llvm::formatv(
      "{ .reg .pred p; {3}setp.ne.b32 p, ${0}, 0; {1}p, 1, 1{2}; }", bIndex + 1,
      instruction, transpose, prelude);
  std::string constraints = tiedF32Constraints(count) + aConstraints + ",l,r";
  operands.append(acc.begin(), acc.end());
  operands.append(a.begin(), a.end());
  operands.push_back(descB);
  operands.push_back(i32Constant(b, loc, 1)); // scale-d: D = A*B + D
  return emitPtx(b, loc, text, constraints, operands, count);
}

/// For A in registers: the four b32 registers of rows repetition `rm` and
/// K step `k`.
using ARegisters = function_ref<SmallVector<Value>(int64_t rm, int64_t k)>;

/// wgmma.fence, then one wgmma per K step and repetition of the mma tile
/// on this warpgroup's accumulators `acc`, A and B read from the swizzled
/// tiles at shared addresses `aAddr` and `bAddr` (i32) or A from
/// `aRegisters` where given, then wgmma.commit_group. `accIsZero`: `acc`
/// is all zeros, which the first K step need not read. `aInAsm`: each
/// instruction adds its A sub-tile's offset to the tile's descriptor inside
/// its asm (markWgmmaOffsetsInAsm says where). Returns the accumulators,
/// valid only after a wgmma.wait_group that covers the group.
SmallVector<Value>
emitWgmmaGroup(OpBuilder &b, Location loc, MmaEncodingAttr mma,
               ArrayRef<int64_t> dShape, int64_t K, StringRef inputType,
               const WgmmaOperandTile &aTile, const WgmmaOperandTile &bTile,
               Value aAddr, Value bAddr, SmallVector<Value> acc, bool accIsZero,
               ARegisters aRegisters = nullptr, bool aInAsm = false) {
  emitPtx(b, loc, "wgmma.fence.sync.aligned;", "", {}, 0);

  // This warpgroup's rows of A and columns of B within the mma tile.
  Type i32 = b.getI32Type();
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  unsigned n = mma.getInstrN();
  SmallVector<int64_t> tileShape = mma.getShapePerCTATile();
  Value tid = NVVM::ThreadIdXOp::create(b, loc, i32);
  // Lane 0's warpgroup, broadcast: ptxas then knows it is warp-uniform and
  // keeps the descriptor arithmetic in uniform registers.
  Value group = shuffleIdx(
      b, loc, LLVM::UDivOp::create(b, loc, tid, i32Constant(b, loc, 128)),
      i32Constant(b, loc, 0));
  Value groupRow = LLVM::MulOp::create(
      b, loc, LLVM::URemOp::create(b, loc, group, i32Constant(b, loc, wm / 4)),
      i32Constant(b, loc, 64));
  Value groupCol = LLVM::MulOp::create(
      b, loc,
      LLVM::URemOp::create(
          b, loc,
          LLVM::UDivOp::create(b, loc, group, i32Constant(b, loc, wm / 4)),
          i32Constant(b, loc, wn)),
      i32Constant(b, loc, n));
  // The warpgroup's part of each tile: rows of A (s bytes apart), and
  // columns of B: rows too when B is K-major, else whole inner blocks (as
  // the pass chose n to make them).
  Value aBase;
  if (!aRegisters)
    aBase = LLVM::AddOp::create(
        b, loc, aAddr,
        LLVM::MulOp::create(b, loc, groupRow,
                            i32Constant(b, loc, aTile.swizzleBytes())));
  int64_t bytesPerColumn =
      bTile.innerIsK ? bTile.swizzleBytes() : bTile.elementBytes * K;
  Value bBase = LLVM::AddOp::create(
      b, loc, bAddr,
      LLVM::MulOp::create(b, loc, groupCol,
                          i32Constant(b, loc, bytesPerColumn)));

  SmallVector<int64_t> reps = mma.getReps(dShape);
  unsigned perInstr = n / 2;
  // Each instruction's descriptors are the warpgroup's tiles' plus a
  // constant, as Triton does: one 64-bit add each.
  Value aDescriptor =
      aRegisters ? Value() : aTile.emitDescriptor(b, loc, aBase);
  Value bDescriptor = bTile.emitDescriptor(b, loc, bBase);
  for (int64_t k = 0; k < K; k += getWgmmaK(inputType)) {
    for (int64_t rm = 0; rm < reps[0]; ++rm) {
      int64_t aOffset =
          aRegisters ? 0 : aTile.linearOffset(rm * tileShape[0], k);
      SmallVector<Value> a =
          aRegisters ? aRegisters(rm, k)
          : aInAsm   ? SmallVector<Value>{aDescriptor}
                     : SmallVector<Value>{WgmmaOperandTile::offsetDescriptor(
                           b, loc, aDescriptor, aOffset)};
      for (int64_t rn = 0; rn < reps[1]; ++rn) {
        int64_t column = rn * tileShape[1];
        Value descB = WgmmaOperandTile::offsetDescriptor(
            b, loc, bDescriptor,
            bTile.innerIsK ? bTile.linearOffset(column, k)
                           : bTile.linearOffset(k, column));
        unsigned first = unsigned((rm * reps[1] + rn) * perInstr);
        SmallVector<Value> next =
            emitWgmma(b, loc, ValueRange(acc).slice(first, perInstr), a, descB,
                      n, inputType, bTile.innerIsK, accIsZero && k == 0,
                      aInAsm ? WgmmaOperandTile::descriptorDelta(aOffset) : 0);
        std::copy(next.begin(), next.end(), acc.begin() + first);
      }
    }
  }
  emitPtx(b, loc, "wgmma.commit_group.sync.aligned;", "", {}, 0);
  return acc;
}

/// The accumulators once at most `pending` wgmma groups are in flight: they
/// pass through the wait, so nothing reads them earlier.
SmallVector<Value> emitWgmmaWait(OpBuilder &b, Location loc, ValueRange acc,
                                 unsigned pending) {
  return emitPtx(
      b, loc,
      llvm::formatv("wgmma.wait_group.sync.aligned {0};", pending).str(),
      tiedF32Constraints(acc.size()), acc, acc.size());
}

/// Stores a tensor's registers (`converted`, of `type`) into its swizzled
/// tile; `pointerAt` gives the shared pointer of a byte offset into the
/// tile. `transposed`: the tensor's dimension 1 is the tile's outer one (B
/// as a K-major N x K tile).
void storeTile(OpBuilder &b, Location loc, RankedTensorType type,
               Value converted, const WgmmaOperandTile &tile,
               function_ref<Value(Value)> pointerAt, bool transposed = false) {
  auto layout = getDistributedLayout(type);
  SmallVector<Value> values = unpackStruct(b, loc, converted);
  auto indices = emitIndices(b, loc, layout, type.getShape());
  unsigned outerDim = transposed ? 1 : 0, innerDim = 1 - outerDim;
  // Runs of consecutive inner elements a thread holds, up to 16 bytes.
  unsigned width = std::min<unsigned>(
      getThreadRunLength(layout, type.getShape(), innerDim,
                         16 / tile.elementBytes),
      tile.cols);
  for (unsigned r = 0; r < values.size(); r += width) {
    Value linear = tile.emitLinearOffset(b, loc, indices[r][outerDim],
                                         indices[r][innerDim]);
    storeRun(b, loc, ArrayRef<Value>(values).slice(r, width),
             pointerAt(tile.emitSwizzle(b, loc, linear)), tile.elementBytes);
  }
}

struct DotOpWgmmaLowering : public ConvertOpToLLVMPattern<DotOp> {
  DotOpWgmmaLowering(const LLVMTypeConverter &converter)
      : ConvertOpToLLVMPattern<DotOp>(converter, /*benefit=*/2) {}

  LogicalResult
  matchAndRewrite(DotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto mma = dyn_cast<MmaEncodingAttr>(op.getType().getEncoding());
    if (!mma || mma.getVersionMajor() != 3)
      return failure();
    Location loc = op.getLoc();
    auto aType = op.getA().getType(), bType = op.getB().getType();
    auto dType = op.getType();
    int64_t M = dType.getDimSize(0), N = dType.getDimSize(1),
            K = aType.getDimSize(1);
    SmallVector<int64_t> tileShape = mma.getShapePerCTATile();
    Type element = aType.getElementType();
    StringRef inputType = getMmaInputType(element);
    bool supported =
        element.isF16() || element.isBF16() ||
        (element.isF32() && op.getInputPrecision() == InputPrecision::tf32);
    if (!supported || bType.getElementType() != element ||
        !dType.getElementType().isF32() || M % tileShape[0] != 0 ||
        N % tileShape[1] != 0 || K % getWgmmaK(inputType) != 0 ||
        !getDistributedLayout(aType) || !getDistributedLayout(bType))
      return op.emitOpError("wgmma needs distributed fp16, bf16 or tf32 "
                            "operands of one type and an f32 result that is "
                            "a whole number of mma tiles, got ")
             << aType << ", " << bType << " -> " << dType;
    std::optional<uint64_t> bufferOffset = getSharedOffset(op);
    if (!bufferOffset)
      return rewriter.notifyMatchFailure(op, "no shared-memory offset");

    // tf32 operands must both be K-major, so B is stored transposed (N x K).
    bool tf32 = inputType == "tf32";
    unsigned elementBytes = tf32 ? 4 : 2;
    WgmmaOperandTile aTile{M, K, elementBytes, /*innerIsK=*/true};
    WgmmaOperandTile bTile = tf32 ? WgmmaOperandTile{N, K, 4, true}
                                  : WgmmaOperandTile{K, N, 2, false};
    int64_t bOffset = getDotScratchBOffset(op);
    auto scratchAt = [&](int64_t tileOffset) {
      return [&, tileOffset](Value offset) {
        return getScratchPointer(
            rewriter, loc, *bufferOffset,
            LLVM::AddOp::create(
                rewriter, loc, i32Constant(rewriter, loc, tileOffset), offset));
      };
    };
    storeTile(rewriter, loc, aType, adaptor.getA(), aTile, scratchAt(0));
    storeTile(rewriter, loc, bType, adaptor.getB(), bTile, scratchAt(bOffset),
              /*transposed=*/tf32);
    emitPtx(rewriter, loc, "fence.proxy.async.shared::cta;", "", {}, 0);
    emitBarrier(rewriter, loc);
    Value base = LLVM::PtrToIntOp::create(
        rewriter, loc, rewriter.getI32Type(),
        getScratchPointer(rewriter, loc, *bufferOffset,
                          i32Constant(rewriter, loc, 0)));
    Value bBase = LLVM::AddOp::create(rewriter, loc, base,
                                      i32Constant(rewriter, loc, bOffset));
    SmallVector<Value> acc = emitWgmmaGroup(
        rewriter, loc, mma, dType.getShape(), K, inputType, aTile, bTile, base,
        bBase, unpackStruct(rewriter, loc, adaptor.getC()),
        matchPattern(op.getC(), m_AnyZeroFloat()));
    acc = emitWgmmaWait(rewriter, loc, acc, 0);
    rewriter.replaceOp(
        op,
        packStruct(rewriter, loc, getTypeConverter()->convertType(dType), acc));
    return success();
  }
};
/// The b32 register of two 16-bit values.
Value packPair(OpBuilder &b, Location loc, Value low, Value high) {
  auto pair = VectorType::get({2}, low.getType());
  Value vector = LLVM::UndefOp::create(b, loc, pair);
  vector = LLVM::InsertElementOp::create(b, loc, vector, low,
                                         i32Constant(b, loc, 0));
  vector = LLVM::InsertElementOp::create(b, loc, vector, high,
                                         i32Constant(b, loc, 1));
  return LLVM::BitcastOp::create(b, loc, b.getI32Type(), vector);
}

/// warpgroup_dot: the wgmma group on one stage of each operand buffer; the
/// copies that filled them were waited for (async_wait) and a barrier
/// placed before this op (tilegpu-insert-barriers).
struct WarpGroupDotOpLowering : public ConvertOpToLLVMPattern<WarpGroupDotOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WarpGroupDotOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto mma = cast<MmaEncodingAttr>(op.getType().getEncoding());
    if (auto aType = dyn_cast<RankedTensorType>(op.getA().getType()))
      return lowerRegisterA(op, adaptor, rewriter, aType, mma);
    FailureOr<StagedOperands> staged = getStagedOperands(
        rewriter, op, mma, op.getA(), op.getB(), adaptor.getA(), adaptor.getB(),
        adaptor.getStage(), op.getBKMajor(), adaptor.getAStage());
    if (failed(staged))
      return failure();
    SmallVector<Value> acc = emitWgmmaGroup(
        rewriter, loc, mma, op.getType().getShape(), staged->K,
        getMmaInputType(
            cast<MemDescType>(op.getA().getType()).getElementType()),
        staged->a, staged->b, staged->aBase, staged->bBase,
        unpackStruct(rewriter, loc, adaptor.getAcc()),
        matchPattern(op.getAcc(), m_AnyZeroFloat()), /*aRegisters=*/nullptr,
        /*aInAsm=*/op->hasAttr(kOffsetsInAsmAttr));
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), acc));
    return success();
  }

  /// A in registers (an earlier dot's mma layout, whose fragment for a K
  /// step is wgmma's A fragment: rows l/4 and l/4 + 8 of the warp's 16,
  /// column pairs 2 (l % 4) and 2 (l % 4) + 8 of the step's 16), B from
  /// its stage.
  LogicalResult lowerRegisterA(WarpGroupDotOp op, OpAdaptor adaptor,
                               ConversionPatternRewriter &rewriter,
                               RankedTensorType aType,
                               MmaEncodingAttr mma) const {
    Location loc = op.getLoc();
    auto aMma = cast<MmaEncodingAttr>(aType.getEncoding());
    auto bType = cast<MemDescType>(op.getB().getType());
    int64_t K = aType.getDimSize(1), N = op.getType().getDimSize(1);
    SmallVector<int64_t> tile = mma.getShapePerCTATile();
    if (op.getType().getDimSize(0) % tile[0] != 0 || N % tile[1] != 0 ||
        K % 16 != 0 || K % aMma.getInstrN() != 0)
      return op.emitOpError("needs a result that is a whole number of mma "
                            "tiles and K a multiple of 16 and of A's n");
    unsigned elementBytes = bType.getElementType().getIntOrFloatBitWidth() / 8;
    WgmmaOperandTile bTile =
        op.getBKMajor()
            ? WgmmaOperandTile{N, K, elementBytes, /*innerIsK=*/true}
            : WgmmaOperandTile{K, N, elementBytes, /*innerIsK=*/false};
    Value bBase = emitStageAddress(rewriter, loc, adaptor.getB(),
                                   adaptor.getStage(), bType.getStageBytes());
    SmallVector<Value> aValues = unpackStruct(rewriter, loc, adaptor.getA());
    // A's register of row half h and column c (of the rows repetition rm):
    // reg = ((rm * repsN + rn) * n/8 + j) * 4 + h * 2 + e.
    unsigned aBlocks = aMma.getInstrN() / 8;
    int64_t aRepsN = aMma.getReps(aType.getShape())[1];
    auto aRegister = [&](int64_t rm, int64_t h, int64_t column) {
      int64_t rn = column / aMma.getInstrN(),
              j = (column % aMma.getInstrN()) / 8, e = column % 2;
      return aValues[((rm * aRepsN + rn) * aBlocks + j) * 4 + h * 2 + e];
    };
    auto aRegisters = [&](int64_t rm, int64_t k) {
      SmallVector<Value> regs;
      for (int64_t half : {0, 8})
        for (int64_t h : {0, 1})
          regs.push_back(packPair(rewriter, loc, aRegister(rm, h, k + half),
                                  aRegister(rm, h, k + half + 1)));
      return regs;
    };
    SmallVector<Value> acc = emitWgmmaGroup(
        rewriter, loc, mma, op.getType().getShape(), K,
        getMmaInputType(bType.getElementType()), WgmmaOperandTile{}, bTile,
        Value(), bBase, unpackStruct(rewriter, loc, adaptor.getAcc()),
        matchPattern(op.getAcc(), m_AnyZeroFloat()), aRegisters);
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), acc));
    return success();
  }
};

/// local_store: the block's registers into the stage's swizzled tile (A's
/// K-major layout: the block's last dimension contiguous), then
/// fence.proxy.async so that wgmma's async proxy sees them.
struct LocalStoreOpLowering : public ConvertOpToLLVMPattern<LocalStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(LocalStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getSrc().getType());
    auto buffer = cast<MemDescType>(op.getBuffer().getType());
    if (!getDistributedLayout(type))
      return op.emitOpError("needs a block with a distributed layout");
    unsigned elementBytes = buffer.getElementType().getIntOrFloatBitWidth() / 8;
    WgmmaOperandTile tile{type.getDimSize(0), type.getDimSize(1), elementBytes,
                          /*innerIsK=*/true};
    // Byte offsets from the buffer's shared pointer (local_alloc's).
    Value stageOffset =
        LLVM::MulOp::create(rewriter, loc, adaptor.getStage(),
                            i32Constant(rewriter, loc, buffer.getStageBytes()));
    Value bufferPtr = adaptor.getBuffer();
    storeTile(rewriter, loc, type, adaptor.getSrc(), tile, [&](Value offset) {
      return LLVM::GEPOp::create(
          rewriter, loc, bufferPtr.getType(), rewriter.getI8Type(), bufferPtr,
          ValueRange{LLVM::AddOp::create(rewriter, loc, stageOffset, offset)});
    });
    emitPtx(rewriter, loc, "fence.proxy.async.shared::cta;", "", {}, 0);
    rewriter.eraseOp(op);
    return success();
  }
};

struct WarpGroupDotWaitOpLowering
    : public ConvertOpToLLVMPattern<WarpGroupDotWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WarpGroupDotWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> acc = emitWgmmaWait(
        rewriter, loc, unpackStruct(rewriter, loc, adaptor.getAcc()),
        op.getPending());
    rewriter.replaceOp(
        op, packStruct(rewriter, loc,
                       getTypeConverter()->convertType(op.getType()), acc));
    return success();
  }
};
} // namespace

// An A buffer a loop does not change (one stage: q, k, v, dO of attention)
// has loop-invariant descriptors, one per K step and row repetition, which
// LLVM hoists out of the loop: 2 registers each for the whole loop. Where
// the loop's accumulators already take most registers, that pushes ptxas
// into spilling them and reloading every iteration (the attention
// backward's dQ loop at HEAD_DIM 128 kept 32 such descriptors), so there
// each wgmma adds its sub-tile's offset to the one descriptor in its own
// asm instead. Elsewhere the hoisted descriptors are free and the extra add
// per wgmma is not (the forward at HEAD_DIM 128 ran 3% slower with it).
void mlir::tilegpu::markWgmmaOffsetsInAsm(ModuleOp module) {
  module.walk([](scf::ForOp loop) {
    // Per thread: the accumulator registers of the loop's dots and the
    // descriptor registers their one-stage A buffers would hoist.
    int64_t registers = 0;
    SmallVector<WarpGroupDotOp> invariantA;
    for (auto dot : loop.getBody()->getOps<WarpGroupDotOp>()) {
      auto type = cast<RankedTensorType>(dot.getType());
      auto mma = cast<MmaEncodingAttr>(type.getEncoding());
      unsigned threads = mma.getWarpsPerCTA()[0] * mma.getWarpsPerCTA()[1] * 32;
      registers += type.getNumElements() / threads;
      auto a = dyn_cast<MemDescType>(dot.getA().getType());
      if (!a || a.getShape()[0] != 1)
        continue;
      invariantA.push_back(dot);
      registers += 2 * (a.getShape()[2] / 16) * mma.getReps(type.getShape())[0];
    }
    // Tutorial 06's forward loops come to 144 (D 64, 4 warps; D 128, 8
    // warps), its backward's to 160 and more (D 64's dQ loop: 128 of
    // accumulators and 32 of descriptors).
    if (registers <= 150)
      return;
    for (WarpGroupDotOp dot : invariantA)
      dot->setAttr(kOffsetsInAsmAttr, UnitAttr::get(dot.getContext()));
  });
}

void mlir::tilegpu::populateWgmmaDotOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<DotOpWgmmaLowering>(converter);
  patterns.add<WarpGroupDotOpLowering, WarpGroupDotWaitOpLowering,
               LocalStoreOpLowering>(converter);
}
