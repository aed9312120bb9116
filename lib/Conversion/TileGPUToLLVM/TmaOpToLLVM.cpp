//===- TmaOpToLLVM.cpp - TMA copies and their mbarriers -------------------===//
//
// The lowering of the TMA side of a pipelined loop (tilegpu-pipeline), in
// inline PTX for sm_90:
// Thread 0 below is the producer warp's first thread in the producer region
// of a warp-specialized kernel (tilegpu-warp-specialize), whose consumer
// warps synchronize on named barrier 1 instead of bar.sync 0.
//   - init_barriers: lane 0 of warp i mod W runs mbarrier.init (the op's
//     arrival count) on barrier i (emitOnEachBarrier), then
//     fence.mbarrier_init and bar.sync, so that every thread and the TMA
//     unit see them initialized (once for inits that follow each other);
//   - tma_copy: thread 0, where the copy is wanted, runs
//     mbarrier.arrive.expect_tx with the stage's bytes, then one
//     cp.async.bulk.tensor.2d per swizzle-wide column block of the stage
//     (TensorMapBox.h): the box at column c + j * (swizzle / element bytes)
//     lands at byte j * rows * swizzle of the stage, which is where the
//     wgmma tile keeps that block (WgmmaOperands.h), swizzled by the TMA as
//     the tile is;
//   - tma_wait: every thread polls mbarrier.try_wait.parity;
//   - release_stage: each warp's lane 0, after bar.warp.sync, runs
//     mbarrier.arrive on the stage's barrier (one arrival per warp);
//   - acquire_stage: thread 0, where wanted, polls
//     mbarrier.try_wait.parity on it; the other threads go on;
//   - prefetch_tensormap: thread 0 runs prefetch.tensormap;
//   - inval_barriers: bar.sync, then mbarrier.inval, shared out as the
//     inits are (one bar.sync for invals that follow each other);
//   - take_turn / pass_turn: bar.sync / bar.arrive on the consumer
//     warpgroups' named barriers 2 and 3 (tilegpu-ping-pong).
// The tensor map is a host descriptor's: 128 bytes the kernel takes by
// value as a grid-constant parameter, whose generic address these ops use
// (TileGPUToLLVM.cpp's passTensorMapsByValue points the address here at
// the parameter).
//
//===----------------------------------------------------------------------===//

#include "Utility.h"
#include "WgmmaOperands.h"
#include "tile/Dialect/TileGPU/IR/BarrierRuns.h"
#include "tile/Dialect/TileGPU/IR/TensorMapBox.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The i32 shared address of the barriers `barriers` (an LLVM shared
/// pointer), plus 8 bytes per `index` (an i32) where given.
Value barrierAddress(OpBuilder &b, Location loc, Value barriers,
                     Value index = {}) {
  Value base = LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), barriers);
  if (!index)
    return base;
  return LLVM::AddOp::create(
      b, loc, base, LLVM::MulOp::create(b, loc, index, i32Constant(b, loc, 8)));
}

/// Runs `instruction [address]` followed by `operands` on each of the
/// `count` barriers at `barriers`, barrier i by lane 0 of the (i mod W)-th
/// of the W warps at `b` (the consumers, the producer warpgroup, or the
/// whole program): ptxas gives each mbarrier.init a proxy fence of its own,
/// so a ring of S barriers that one thread initialized cost S fences one
/// after the other, now S / W in each warp at once. Each barrier keeps its
/// own instruction: compute-sanitizer's synccheck counts them (one lane a
/// barrier in one instruction made it lose track of them).
void emitOnEachBarrier(OpBuilder &b, Location loc, Value barriers,
                       int64_t count, StringRef instruction,
                       StringRef operands = "") {
  int32_t first = getIssuingThreadId(b);
  int64_t warps = getWarpsAt(b);
  Value tid = NVVM::ThreadIdXOp::create(b, loc, b.getI32Type());
  Value base = barrierAddress(b, loc, barriers);
  for (int64_t i = 0; i < count; ++i) {
    Value issues = LLVM::ICmpOp::create(
        b, loc, LLVM::ICmpPredicate::eq, tid,
        i32Constant(b, loc, first + int32_t(i % warps) * 32));
    emitPtxStatement(b, loc,
                     ("@$1 " + instruction + " [$0 + " + std::to_string(i * 8) +
                      "]" + operands + ";")
                         .str(),
                     "r,b", ValueRange{base, issues});
  }
}

/// Polls mbarrier.try_wait.parity until the phase of parity `phase` of the
/// barrier at `barrier` has completed, looping at `label`; where `waits` is
/// given, only the threads where it holds poll (the others branch past).
/// Labels inside braces are local to them, so the block may appear any
/// number of times in a kernel.
void emitPhaseWait(OpBuilder &b, Location loc, Value barrier, Value phase,
                   Value waits, StringRef label) {
  std::string text = "{\n.reg .pred done;\n";
  if (waits)
    text += "@!$2 bra ACQUIRED;\n";
  text += (label +
           ":\nmbarrier.try_wait.parity.shared::cta.b64 done, "
           "[$0], $1;\n@!done bra " +
           label + ";\n")
              .str();
  if (waits)
    text += "ACQUIRED:\n";
  text += "}";
  SmallVector<Value> operands = {barrier, phase};
  if (waits)
    operands.push_back(waits);
  emitPtxStatement(b, loc, text, waits ? "r,r,b" : "r,r", operands);
}

struct InitBarriersOpLowering : public ConvertOpToLLVMPattern<InitBarriersOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(InitBarriersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (getWarpRoleAt(rewriter) != WarpRole::Whole)
      return op.emitOpError("initializes mbarriers after the warps split");
    emitOnEachBarrier(rewriter, loc, adaptor.getBarriers(),
                      op.getBarriers().getType().getCount(),
                      "mbarrier.init.shared::cta.b64",
                      ", " + std::to_string(op.getArrivals()));
    if (!getRunNeighbour<InitBarriersOp>(op, /*forward=*/true)) {
      emitPtxStatement(rewriter, loc, "fence.mbarrier_init.release.cluster;");
      emitPtxStatement(rewriter, loc, "bar.sync 0;");
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct InvalBarriersOpLowering
    : public ConvertOpToLLVMPattern<InvalBarriersOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(InvalBarriersOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    // The inval_barriers that continue the run (BarrierRuns.h) are lowered
    // here too, behind the same barrier: no thread waits on their rings in
    // between.
    SmallVector<InvalBarriersOp> following;
    Operation *last = op;
    while (auto next =
               getRunNeighbour<InvalBarriersOp>(last, /*forward=*/true)) {
      following.push_back(next);
      last = next;
    }
    emitBarrier(rewriter, loc);
    emitOnEachBarrier(rewriter, loc, adaptor.getBarriers(),
                      op.getBarriers().getType().getCount(),
                      "mbarrier.inval.shared::cta.b64");
    for (InvalBarriersOp inval : following) {
      Value barriers = rewriter.getRemappedValue(inval.getBarriers());
      if (!barriers)
        return failure();
      emitOnEachBarrier(rewriter, loc, barriers,
                        inval.getBarriers().getType().getCount(),
                        "mbarrier.inval.shared::cta.b64");
      rewriter.eraseOp(inval);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// What a TMA copy or store of one stage moves: the stage's shared address,
/// the tensor map as an i64, the box row, and one box per swizzle-wide
/// column block (TensorMapBox.h), each with its column coordinate (the
/// op's plus the blocks before it) and its byte offset in the stage.
struct StageTransfer {
  Value stageBase, tensormap, row;
  SmallVector<Value> columns;
  SmallVector<int64_t> offsets;
};

FailureOr<StageTransfer> getStageTransfer(Operation *op, MemDescType buffer,
                                          Value bufferBase, Value stage,
                                          Value tensormap, ValueRange coords,
                                          ConversionPatternRewriter &rewriter) {
  Location loc = op->getLoc();
  unsigned elementBytes = buffer.getElementType().getIntOrFloatBitWidth() / 8;
  std::optional<TensorMapBox> box =
      getTensorMapBox(buffer.getShape().drop_front(), elementBytes);
  if (!box)
    return op->emitOpError("has stages that are no TMA box");
  StageTransfer transfer;
  transfer.stageBase = emitStageAddress(rewriter, loc, bufferBase, stage,
                                        buffer.getStageBytes());
  transfer.tensormap =
      LLVM::PtrToIntOp::create(rewriter, loc, rewriter.getI64Type(), tensormap);
  transfer.row = coords[0];
  Value col = coords[1];
  int64_t rows = buffer.getShape()[1], cols = buffer.getShape()[2];
  for (int64_t j = 0; j < cols / box->innerElements; ++j) {
    transfer.columns.push_back(
        j == 0 ? col
               : LLVM::AddOp::create(
                     rewriter, loc, col,
                     i32Constant(rewriter, loc, j * box->innerElements)));
    transfer.offsets.push_back(j * rows * box->swizzleBytes);
  }
  return transfer;
}

struct TmaCopyOpLowering : public ConvertOpToLLVMPattern<TmaCopyOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmaCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto buffer = cast<MemDescType>(op.getBuffer().getType());
    FailureOr<StageTransfer> transfer =
        getStageTransfer(op, buffer, adaptor.getBuffer(), adaptor.getStage(),
                         adaptor.getTensormap(), adaptor.getCoords(), rewriter);
    if (failed(transfer))
      return failure();
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                   adaptor.getStage());
    Value issue = LLVM::AndOp::create(
        rewriter, loc, isIssuingThread(rewriter, loc), adaptor.getPred());

    // Operands: $0 predicate, $1 barrier, $2 stage, $3 tensor map, $4 row,
    // then one column coordinate per box.
    SmallVector<Value> operands = {issue, barrier, transfer->stageBase,
                                   transfer->tensormap, transfer->row};
    std::string constraints = "b,r,r,l,r";
    std::string text =
        "{\n.reg .b64 state;\n@$0 "
        "mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], " +
        std::to_string(buffer.getStageBytes()) + ";\n";
    for (auto [j, column] : llvm::enumerate(transfer->columns)) {
      operands.push_back(column);
      constraints += ",r";
      text += "@$0 cp.async.bulk.tensor.2d.shared::cluster.global."
              "mbarrier::complete_tx::bytes [$2 + " +
              std::to_string(transfer->offsets[j]) + "], [$3, {$" +
              std::to_string(5 + j) + ", $4}], [$1];\n";
    }
    text += "}";
    emitPtxStatement(rewriter, loc, text, constraints, operands);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Thread 0 stores the stage box by box, then waits until the bulk copies
/// have read it.
struct TmaStoreOpLowering : public ConvertOpToLLVMPattern<TmaStoreOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto buffer = cast<MemDescType>(op.getBuffer().getType());
    FailureOr<StageTransfer> transfer =
        getStageTransfer(op, buffer, adaptor.getBuffer(), adaptor.getStage(),
                         adaptor.getTensormap(), adaptor.getCoords(), rewriter);
    if (failed(transfer))
      return failure();

    // Operands: $0 thread 0, $1 stage, $2 tensor map, $3 row, then one
    // column coordinate per box.
    SmallVector<Value> operands = {isIssuingThread(rewriter, loc),
                                   transfer->stageBase, transfer->tensormap,
                                   transfer->row};
    std::string constraints = "b,r,l,r";
    std::string text = "{\n";
    for (auto [j, column] : llvm::enumerate(transfer->columns)) {
      operands.push_back(column);
      constraints += ",r";
      text += "@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
              "[$2, {$" +
              std::to_string(4 + j) + ", $3}], [$1 + " +
              std::to_string(transfer->offsets[j]) + "];\n";
    }
    text += "@$0 cp.async.bulk.commit_group;\n"
            "@$0 cp.async.bulk.wait_group.read 0;\n}";
    emitPtxStatement(rewriter, loc, text, constraints, operands);
    rewriter.eraseOp(op);
    return success();
  }
};

struct PrefetchTensormapOpLowering
    : public ConvertOpToLLVMPattern<PrefetchTensormapOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(PrefetchTensormapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value address = LLVM::PtrToIntOp::create(
        rewriter, loc, rewriter.getI64Type(), adaptor.getTensormap());
    emitPtxStatement(rewriter, loc, "@$1 prefetch.tensormap [$0];", "l,b",
                     ValueRange{address, isIssuingThread(rewriter, loc)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// tid.x >= num-warps * 32: the warps tilegpu-warp-specialize added.
struct InProducerWarpOpLowering
    : public ConvertOpToLLVMPattern<InProducerWarpOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(InProducerWarpOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
    rewriter.replaceOpWithNewOp<LLVM::ICmpOp>(
        op, LLVM::ICmpPredicate::uge, tid,
        i32Constant(rewriter, loc, int32_t(getNumWarps(op)) * 32));
    return success();
  }
};

/// setmaxnreg: down in the producer's region, up in the consumers'.
struct SetMaxRegistersOpLowering
    : public ConvertOpToLLVMPattern<SetMaxRegistersOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(SetMaxRegistersOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const char *direction =
        getWarpRole(op) == WarpRole::Producer ? "dec" : "inc";
    emitPtxStatement(rewriter, op.getLoc(),
                     llvm::formatv("setmaxnreg.{0}.sync.aligned.u32 {1};",
                                   direction, op.getRegisters())
                         .str());
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaWaitOpLowering : public ConvertOpToLLVMPattern<TmaWaitOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(TmaWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emitPhaseWait(rewriter, loc,
                  barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                 adaptor.getStage()),
                  adaptor.getPhase(), /*waits=*/Value(), "TMA_WAIT");
    rewriter.eraseOp(op);
    return success();
  }
};

struct ReleaseStageOpLowering : public ConvertOpToLLVMPattern<ReleaseStageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(ReleaseStageOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                   adaptor.getStage());
    // The warp's lanes are done with the stage before lane 0 speaks for
    // them (mbarrier.arrive releases what the thread did before it).
    emitPtxStatement(rewriter, loc,
                     "{\n.reg .b32 lane;\n.reg .pred lead;\n.reg .b64 state;\n"
                     "mov.u32 lane, %laneid;\n"
                     "setp.eq.u32 lead, lane, 0;\n"
                     "bar.warp.sync -1;\n"
                     "@lead mbarrier.arrive.shared::cta.b64 state, [$0];\n}",
                     "r", ValueRange{barrier});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AcquireStageOpLowering : public ConvertOpToLLVMPattern<AcquireStageOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(AcquireStageOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value barrier = barrierAddress(rewriter, loc, adaptor.getBarriers(),
                                   adaptor.getStage());
    Value waits = LLVM::AndOp::create(
        rewriter, loc, isIssuingThread(rewriter, loc), adaptor.getPred());
    emitPhaseWait(rewriter, loc, barrier, adaptor.getPhase(), waits,
                  "ACQUIRE_WAIT");
    rewriter.eraseOp(op);
    return success();
  }
};

/// take_turn and pass_turn (tilegpu-ping-pong): consumer warpgroup g
/// (thread id / 128) waits on named barrier 2 + g and arrives on the other's,
/// 3 - g; both count the two warpgroups' 256 threads. With `group`, the
/// other warpgroup skips it (a warp-uniform predicate).
template <typename OpTy>
struct TurnOpLowering : public ConvertOpToLLVMPattern<OpTy> {
  using ConvertOpToLLVMPattern<OpTy>::ConvertOpToLLVMPattern;
  using OpAdaptor = typename ConvertOpToLLVMPattern<OpTy>::OpAdaptor;
  LogicalResult
  matchAndRewrite(OpTy op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    constexpr bool take = std::is_same_v<OpTy, TakeTurnOp>;
    Location loc = op.getLoc();
    Type i32 = rewriter.getI32Type();
    Value tid = NVVM::ThreadIdXOp::create(rewriter, loc, i32);
    Value group = LLVM::UDivOp::create(rewriter, loc, tid,
                                       i32Constant(rewriter, loc, 128));
    Value barrier =
        take ? LLVM::AddOp::create(rewriter, loc, group,
                                   i32Constant(rewriter, loc, 2))
                   .getResult()
             : LLVM::SubOp::create(rewriter, loc, i32Constant(rewriter, loc, 3),
                                   group)
                   .getResult();
    int64_t threads = int64_t(getNumWarps(op)) * 32;
    std::string text =
        llvm::formatv("{0} $0, {1};", take ? "bar.sync" : "bar.arrive", threads)
            .str();
    SmallVector<Value> operands{barrier};
    std::string constraints = "r";
    if (std::optional<uint32_t> only = op.getGroup()) {
      operands.push_back(
          LLVM::ICmpOp::create(rewriter, loc, LLVM::ICmpPredicate::eq, group,
                               i32Constant(rewriter, loc, int32_t(*only))));
      constraints += ",b";
      text = "@$1 " + text;
    }
    createInlinePtx(rewriter, loc, Type(), operands, text, constraints,
                    /*hasSideEffects=*/true);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateTmaOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                RewritePatternSet &patterns) {
  patterns
      .add<InitBarriersOpLowering, InvalBarriersOpLowering,
           InProducerWarpOpLowering, SetMaxRegistersOpLowering,
           PrefetchTensormapOpLowering, TmaCopyOpLowering, TmaWaitOpLowering,
           TmaStoreOpLowering, ReleaseStageOpLowering, AcquireStageOpLowering,
           TurnOpLowering<TakeTurnOp>, TurnOpLowering<PassTurnOp>>(converter);
}
