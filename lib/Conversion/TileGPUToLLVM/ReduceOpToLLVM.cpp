//===- ReduceOpToLLVM.cpp - tile.reduce on registers, lanes and warps -----===//
//
// A reduction along `axis` of a blocked operand, or of an mma accumulator
// (attention's row max and row sum, with no conversion), runs in three
// steps, each applying the op's combine region:
//   1. within a thread, over its registers that differ only along `axis`;
//   2. within a warp, by butterfly shuffles over the lanes that hold
//      different elements along `axis` (lanes holding replicas are skipped,
//      so a sum never counts an element twice);
//   3. across warps, when several warps hold different elements along
//      `axis`: each writes its partial result to the op's shared-memory
//      scratch buffer (laid out by getReduceScratchLayout, placed at its
//      tilegpu.shared_offset), and after a barrier every thread combines the
//      partials of its output elements in warp order. tilegpu-insert-barriers
//      has already ordered the writes after earlier ops' accesses.
// Every thread ends with the reduced values of the output elements its
// slice layout gives it (a 1-D reduction gives every thread the scalar).
// The combine region must be commutative and associative, as Triton's.
// tilegpu.warp_all, a warp's vote over a predicate's registers, is here too.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
struct ReduceOpLowering : public ConvertOpToLLVMPattern<ReduceOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  /// Applies the combine region to (acc, cur).
  SmallVector<Value> combine(ConversionPatternRewriter &rewriter, ReduceOp op,
                             ValueRange acc, ValueRange cur) const {
    return applyCombineRegion(rewriter, op.getCombineOp(), acc, cur);
  }

  LogicalResult
  matchAndRewrite(ReduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    auto layout = dyn_cast<DistributedLayoutInterface>(srcType.getEncoding());
    std::optional<ReduceGeometry> geometry = getReduceGeometry(op);
    if (!layout || !geometry)
      return op.emitOpError("reducing a tensor of layout ")
             << srcType.getEncoding() << " is not supported";
    unsigned axis = op.getAxis();
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned n = op.getSrcs().size();

    SmallVector<SmallVector<Value>> regs;
    for (Value src : adaptor.getSrcs())
      regs.push_back(unpackStruct(rewriter, loc, src));

    // Registers that differ only along the axis, keyed by the others.
    SmallVector<unsigned> elems = layout.getElemsPerThread(shape);
    std::map<SmallVector<unsigned>, unsigned> groupOf;
    SmallVector<SmallVector<unsigned>> groups;
    unsigned numRegs = layout.getTotalElemsPerThread(shape);
    for (unsigned r = 0; r < numRegs; ++r) {
      SmallVector<unsigned> coords = getRegisterCoords(layout, shape, r);
      // A thread holding more than the axis has repeats its elements.
      if (isa<BlockedEncodingAttr>(layout) &&
          shape[axis] < int64_t(elems[axis]) && coords[axis] >= shape[axis])
        continue;
      coords.erase(coords.begin() + axis);
      auto [it, inserted] = groupOf.try_emplace(coords, groups.size());
      if (inserted)
        groups.emplace_back();
      groups[it->second].push_back(r);
    }

    // 1. Within the thread.
    SmallVector<SmallVector<Value>> acc;
    for (auto &group : groups) {
      SmallVector<Value> value;
      for (unsigned i = 0; i < n; ++i)
        value.push_back(regs[i][group[0]]);
      for (unsigned r : ArrayRef(group).drop_front()) {
        SmallVector<Value> cur;
        for (unsigned i = 0; i < n; ++i)
          cur.push_back(regs[i][r]);
        value = combine(rewriter, op, value, cur);
      }
      acc.push_back(value);
    }

    // 2. Across the lanes of a warp.
    ReduceGeometry g = *geometry;
    for (unsigned k = 1; k < g.distinctLanes; k *= 2)
      for (auto &value : acc) {
        SmallVector<Value> other;
        for (Value v : value)
          other.push_back(shuffleXor(rewriter, loc, v, k * g.laneStride));
        value = combine(rewriter, op, value, other);
      }

    // 3. Across warps, through shared memory.
    if (g.distinctWarps > 1) {
      auto indices = emitIndices(rewriter, loc, layout, shape);
      Value tid =
          NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
      Value warp = LLVM::UDivOp::create(rewriter, loc, tid,
                                        i32Constant(rewriter, loc, 32));
      Value warpAlong = LLVM::URemOp::create(
          rewriter, loc,
          LLVM::UDivOp::create(rewriter, loc, warp,
                               i32Constant(rewriter, loc, g.warpStride)),
          i32Constant(rewriter, loc, g.warpsAlong));
      // Linear index of each group's output element.
      SmallVector<Value> outIndex;
      for (auto &group : groups) {
        Value linear = i32Constant(rewriter, loc, 0);
        for (unsigned d = 0; d < shape.size(); ++d) {
          if (d == axis)
            continue;
          linear = LLVM::AddOp::create(
              rewriter, loc,
              LLVM::MulOp::create(rewriter, loc, linear,
                                  i32Constant(rewriter, loc, shape[d])),
              indices[group[0]][d]);
        }
        outIndex.push_back(linear);
      }
      // Partials of operand i live at [base_i + (warp * outputs + out)].
      std::optional<uint64_t> bufferOffset = getSharedOffset(op);
      if (!bufferOffset)
        return rewriter.notifyMatchFailure(op, "no shared-memory offset");
      SmallVector<unsigned> base = getReduceScratchLayout(op).operandOffsets,
                            bytes;
      for (unsigned i = 0; i < n; ++i)
        bytes.push_back(getSharedElementBytes(
            getElementTypeOrSelf(op.getSrcs()[i].getType())));
      auto slot = [&](unsigned i, Value warpIndex, Value out) {
        Value index = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc, warpIndex,
                                i32Constant(rewriter, loc, g.outputElements)),
            out);
        Value byteOffset = LLVM::AddOp::create(
            rewriter, loc, i32Constant(rewriter, loc, base[i]),
            LLVM::MulOp::create(rewriter, loc, index,
                                i32Constant(rewriter, loc, bytes[i])));
        return getScratchPointer(rewriter, loc, *bufferOffset, byteOffset);
      };
      for (auto [value, out] : llvm::zip(acc, outIndex))
        for (unsigned i = 0; i < n; ++i)
          LLVM::StoreOp::create(rewriter, loc, value[i],
                                slot(i, warpAlong, out));
      emitBarrier(rewriter, loc);
      for (auto [value, out] : llvm::zip(acc, outIndex)) {
        SmallVector<Value> total;
        for (unsigned w = 0; w < g.distinctWarps; ++w) {
          SmallVector<Value> partial;
          for (unsigned i = 0; i < n; ++i)
            partial.push_back(LLVM::LoadOp::create(
                rewriter, loc, value[i].getType(),
                slot(i, i32Constant(rewriter, loc, w), out)));
          total = w == 0 ? partial : combine(rewriter, op, total, partial);
        }
        value = total;
      }
    }

    // Results: scalars, or the slice layout's registers.
    if (!isa<RankedTensorType>(op.getResult(0).getType())) {
      rewriter.replaceOp(op, acc.front());
      return success();
    }
    SmallVector<int64_t> parentShape(shape);
    parentShape[axis] = 1;
    unsigned outRegs = layout.getTotalElemsPerThread(parentShape);
    SmallVector<Value> results;
    for (unsigned i = 0; i < n; ++i) {
      SmallVector<Value> values;
      for (unsigned r = 0; r < outRegs; ++r) {
        SmallVector<unsigned> coords =
            getRegisterCoords(layout, parentShape, r);
        coords.erase(coords.begin() + axis);
        auto it = groupOf.find(coords);
        if (it == groupOf.end())
          return op.emitOpError("internal error: no partial for a register");
        values.push_back(acc[it->second][i]);
      }
      Type structType =
          getTypeConverter()->convertType(op.getResult(i).getType());
      if (!structType)
        return failure();
      results.push_back(packStruct(rewriter, loc, structType, values));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// tilegpu.warp_all: each thread's registers and-ed, then vote.sync.all
/// over the warp's 32 lanes.
struct WarpAllOpLowering : public ConvertOpToLLVMPattern<WarpAllOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;
  LogicalResult
  matchAndRewrite(WarpAllOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    SmallVector<Value> regs = unpackStruct(rewriter, loc, adaptor.getPred());
    if (regs.empty())
      return failure();
    Value all = regs.front();
    for (Value reg : llvm::drop_begin(regs))
      all = LLVM::AndOp::create(rewriter, loc, all, reg);
    rewriter.replaceOpWithNewOp<NVVM::VoteSyncOp>(
        op, rewriter.getI1Type(), i32Constant(rewriter, loc, -1), all,
        NVVM::VoteSyncKind::all);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateReduceOpToLLVMPatterns(
    LLVMTypeConverter &converter, RewritePatternSet &patterns) {
  patterns.add<ReduceOpLowering, WarpAllOpLowering>(converter);
}
