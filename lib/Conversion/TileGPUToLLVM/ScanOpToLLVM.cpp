//===- ScanOpToLLVM.cpp - tile.scan on registers, lanes and warps ---------===//
//
// An inclusive scan along `axis` of a blocked operand, in place: every
// result register is the scan at the element its operand register holds.
// Along the axis, a thread's register coordinate c holds element
//   (c / spt) * tile + warp * spt * tpw + lane * spt + c % spt   (mod size)
// so the elements run in chunks of spt registers, a chunk's elements over
// all lanes, then all warps, before the next chunk. The scan runs in steps,
// each applying the op's combine region as (earlier, later):
//   1. within a thread, sequentially over each chunk's registers;
//   2. within a warp, a Hillis-Steele scan of the chunk totals over the
//      lanes that hold different elements along `axis` (shfl.sync.up); each
//      thread then takes the prefix of the lanes before it (one more
//      shuffle). Lanes holding replicas compute what their originals do;
//   3. across chunks and warps: each warp's chunk totals (taken from its
//      last lane) go through the shared-memory scratch buffer when several
//      warps hold different elements along `axis`, and every thread combines
//      those of earlier chunks and earlier warps; with one warp along the
//      axis the totals are carried from chunk to chunk in registers.
// A reverse scan is the same algorithm mirrored: registers, chunks, lanes
// (shfl.sync.down) and warps are taken in reverse order.
// The combine region must be associative (as Triton's); it need not be
// commutative, and since it has no known identity, prefixes a thread may
// lack (lane 0, warp 0) are combined anyway and dropped by a select.
//
//===----------------------------------------------------------------------===//

#include "LayoutIndexing.h"
#include "Utility.h"
#include "tile/Analysis/ScratchBuffers.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <map>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tilegpu;

namespace {
/// A scan prefix a thread may or may not have: no values means none; a null
/// `valid` means always, otherwise the i1 says whether this thread has it.
struct Prefix {
  SmallVector<Value> values;
  Value valid;
  bool exists() const { return !values.empty(); }
};

struct ScanOpLowering : public ConvertOpToLLVMPattern<ScanOp> {
  using ConvertOpToLLVMPattern::ConvertOpToLLVMPattern;

  LogicalResult
  matchAndRewrite(ScanOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto srcType = cast<RankedTensorType>(op.getSrcs()[0].getType());
    auto layout = dyn_cast<BlockedEncodingAttr>(srcType.getEncoding());
    if (!layout)
      return op.emitOpError("scanning a tensor of layout ")
             << srcType.getEncoding() << " is not supported";
    SmallVector<Type> types(op.getSrcs().getTypes());
    llvm::append_range(types, op.getResultTypes());
    for (Type type : types)
      if (cast<RankedTensorType>(type).getEncoding() != layout)
        return op.emitOpError(
            "operands and results must share one blocked layout");
    unsigned axis = op.getAxis();
    bool reverse = op.getReverse();
    ArrayRef<int64_t> shape = srcType.getShape();
    unsigned n = op.getSrcs().size();
    ScanGeometry g = getScanGeometry(layout, shape, axis);

    // regs[r] = the operands' values in register r.
    unsigned numRegs = layout.getTotalElemsPerThread(shape);
    SmallVector<SmallVector<Value>> regs(numRegs);
    for (Value src : adaptor.getSrcs())
      for (auto [r, v] : llvm::enumerate(unpackStruct(rewriter, loc, src)))
        regs[r].push_back(v);

    // The registers of each scan line (same coordinates off the axis), by
    // their coordinate along the axis.
    unsigned alongAxis = layout.getElemsPerThread(shape)[axis];
    std::map<SmallVector<unsigned>, unsigned> lineOf;
    SmallVector<SmallVector<unsigned>> lines;
    for (unsigned r = 0; r < numRegs; ++r) {
      SmallVector<unsigned> coords = getRegisterCoords(layout, shape, r);
      unsigned c = coords[axis];
      coords[axis] = 0;
      auto [it, inserted] = lineOf.try_emplace(coords, lines.size());
      if (inserted)
        lines.emplace_back(alongAxis, 0u);
      lines[it->second][c] = r;
    }
    // Register s of chunk k of a line, in scan order.
    auto regAt = [&](unsigned line, unsigned k, unsigned s) {
      if (reverse) {
        k = g.chunks - 1 - k;
        s = g.chunkSize - 1 - s;
      }
      return lines[line][k * g.sizePerThread + s];
    };

    auto combine = [&](ValueRange earlier, ValueRange later) {
      return applyCombineRegion(rewriter, op.getCombineOp(), earlier, later);
    };
    auto select = [&](Value cond, ValueRange a, ValueRange b) {
      SmallVector<Value> out;
      for (auto [x, y] : llvm::zip(a, b))
        out.push_back(LLVM::SelectOp::create(rewriter, loc, cond, x, y));
      return out;
    };
    // The prefix of `earlier` followed by `later`.
    auto concat = [&](const Prefix &earlier, const Prefix &later) -> Prefix {
      if (!earlier.exists())
        return later;
      if (!later.exists())
        return earlier;
      SmallVector<Value> both = combine(earlier.values, later.values);
      if (later.valid)
        both = select(later.valid, both, earlier.values);
      if (earlier.valid)
        both = select(earlier.valid, both, later.values);
      Value valid;
      if (earlier.valid && later.valid)
        valid = LLVM::OrOp::create(rewriter, loc, earlier.valid, later.valid);
      return {both, valid};
    };
    auto applyPrefix = [&](const Prefix &prefix, SmallVector<Value> &values) {
      if (!prefix.exists())
        return;
      SmallVector<Value> combined = combine(prefix.values, values);
      values = prefix.valid ? select(prefix.valid, combined, values) : combined;
    };

    // 1. Within the thread: each chunk's running values.
    SmallVector<SmallVector<Value>> result(numRegs);
    for (unsigned l = 0; l < lines.size(); ++l)
      for (unsigned k = 0; k < g.chunks; ++k) {
        SmallVector<Value> acc = regs[regAt(l, k, 0)];
        result[regAt(l, k, 0)] = acc;
        for (unsigned s = 1; s < g.chunkSize; ++s) {
          acc = combine(acc, regs[regAt(l, k, s)]);
          result[regAt(l, k, s)] = acc;
        }
      }

    // Thread coordinates, when lanes or warps take part.
    unsigned threadsPerWarp = 1;
    for (unsigned t : layout.getThreadsPerWarp())
      threadsPerWarp *= t;
    auto constant = [&](int64_t v) { return i32Constant(rewriter, loc, v); };
    auto icmp = [&](LLVM::ICmpPredicate pred, Value a, Value b) -> Value {
      return LLVM::ICmpOp::create(rewriter, loc, pred, a, b);
    };
    // Coordinate along the axis of `id` (a lane or warp id), modulo the
    // distinct ones (replicas act as their originals), in scan order.
    auto logicalIndex = [&](Value id, unsigned stride, unsigned along,
                            unsigned distinct) -> std::pair<Value, Value> {
      Value index = LLVM::URemOp::create(
          rewriter, loc,
          LLVM::UDivOp::create(rewriter, loc, id, constant(stride)),
          constant(along));
      index = LLVM::URemOp::create(rewriter, loc, index, constant(distinct));
      Value logical =
          reverse ? Value(LLVM::SubOp::create(rewriter, loc,
                                              constant(distinct - 1), index))
                  : index;
      return {index, logical};
    };
    Value tid, lane, warp;
    if (g.distinctLanes > 1 || g.distinctWarps > 1) {
      tid = NVVM::ThreadIdXOp::create(rewriter, loc, rewriter.getI32Type());
      lane = LLVM::URemOp::create(rewriter, loc, tid, constant(threadsPerWarp));
      warp = LLVM::UDivOp::create(rewriter, loc, tid, constant(threadsPerWarp));
    }

    // 2. Across the lanes of a warp: per line and chunk, the prefix of the
    // lanes before this one, and the warp's chunk total.
    SmallVector<SmallVector<Prefix>> lanePrefix(lines.size(),
                                                SmallVector<Prefix>(g.chunks));
    SmallVector<SmallVector<SmallVector<Value>>> totals(
        lines.size(), SmallVector<SmallVector<Value>>(g.chunks));
    bool needTotals = g.chunks > 1 || g.distinctWarps > 1;
    if (g.distinctLanes > 1) {
      unsigned L = g.distinctLanes;
      auto [laneIndex, laneLogical] =
          logicalIndex(lane, g.laneStride, g.lanesAlong, L);
      // The lane holding the last elements in scan order, same other coords.
      Value lastLane = LLVM::AddOp::create(
          rewriter, loc,
          LLVM::SubOp::create(rewriter, loc, lane,
                              LLVM::MulOp::create(rewriter, loc, laneIndex,
                                                  constant(g.laneStride))),
          constant(int64_t(reverse ? 0 : L - 1) * g.laneStride));
      auto shiftBy = [&](ValueRange values, unsigned distance) {
        SmallVector<Value> out;
        for (Value v : values)
          out.push_back(reverse ? shuffleDown(rewriter, loc, v, distance)
                                : shuffleUp(rewriter, loc, v, distance));
        return out;
      };
      Value notFirst = icmp(LLVM::ICmpPredicate::ne, laneLogical, constant(0));
      for (unsigned l = 0; l < lines.size(); ++l)
        for (unsigned k = 0; k < g.chunks; ++k) {
          SmallVector<Value> v = result[regAt(l, k, g.chunkSize - 1)];
          for (unsigned i = 1; i < L; i *= 2) {
            SmallVector<Value> earlier = shiftBy(v, i * g.laneStride);
            Value has =
                icmp(LLVM::ICmpPredicate::uge, laneLogical, constant(i));
            v = select(has, combine(earlier, v), v);
          }
          lanePrefix[l][k] = {shiftBy(v, g.laneStride), notFirst};
          if (needTotals)
            for (Value x : v)
              totals[l][k].push_back(shuffleIdx(rewriter, loc, x, lastLane));
        }
    } else {
      for (unsigned l = 0; l < lines.size(); ++l)
        for (unsigned k = 0; k < g.chunks; ++k)
          totals[l][k] = result[regAt(l, k, g.chunkSize - 1)];
    }

    // 3. Across chunks and warps: the prefix of earlier chunks and warps.
    SmallVector<SmallVector<Prefix>> outerPrefix(lines.size(),
                                                 SmallVector<Prefix>(g.chunks));
    if (g.distinctWarps == 1) {
      for (unsigned l = 0; l < lines.size(); ++l) {
        Prefix carry;
        for (unsigned k = 0; k < g.chunks; ++k) {
          outerPrefix[l][k] = carry;
          carry = concat(carry, Prefix{totals[l][k], Value()});
        }
      }
    } else {
      unsigned W = g.distinctWarps;
      auto [warpIndex, warpLogical] =
          logicalIndex(warp, g.warpStride, g.warpsAlong, W);
      // Linear index of each line among the lines.
      auto indices = emitIndices(rewriter, loc, layout, shape);
      SmallVector<Value> lineIndex;
      for (auto &line : lines) {
        Value linear = constant(0);
        for (unsigned d = 0; d < shape.size(); ++d) {
          if (d == axis)
            continue;
          linear = LLVM::AddOp::create(
              rewriter, loc,
              LLVM::MulOp::create(rewriter, loc, linear, constant(shape[d])),
              indices[line[0]][d]);
        }
        lineIndex.push_back(linear);
      }
      auto areas = getScanScratchAreas(op, g);
      std::optional<uint64_t> bufferOffset = getSharedOffset(op);
      if (!bufferOffset)
        return rewriter.notifyMatchFailure(op, "no shared-memory offset");
      auto slot = [&](unsigned i, unsigned k, Value warpSlot, Value line) {
        // [chunk][warp][line] within operand i's area.
        Value index = LLVM::AddOp::create(
            rewriter, loc,
            LLVM::MulOp::create(rewriter, loc,
                                LLVM::AddOp::create(rewriter, loc,
                                                    constant(int64_t(k) * W),
                                                    warpSlot),
                                constant(g.lines)),
            line);
        Value byteOffset =
            LLVM::AddOp::create(rewriter, loc, constant(areas[i].second),
                                LLVM::MulOp::create(rewriter, loc, index,
                                                    constant(areas[i].first)));
        return getScratchPointer(rewriter, loc, *bufferOffset, byteOffset);
      };
      for (unsigned l = 0; l < lines.size(); ++l)
        for (unsigned k = 0; k < g.chunks; ++k)
          for (unsigned i = 0; i < n; ++i)
            LLVM::StoreOp::create(rewriter, loc, totals[l][k][i],
                                  slot(i, k, warpIndex, lineIndex[l]));
      emitBarrier(rewriter, loc);
      Value notFirstWarp =
          icmp(LLVM::ICmpPredicate::ne, warpLogical, constant(0));
      for (unsigned l = 0; l < lines.size(); ++l) {
        Prefix carry;
        for (unsigned k = 0; k < g.chunks; ++k) {
          // Chunk k's totals of the warps, in scan order.
          SmallVector<SmallVector<Value>> warpTotals;
          for (unsigned j = 0; j < W; ++j) {
            unsigned w = reverse ? W - 1 - j : j;
            SmallVector<Value> t;
            for (unsigned i = 0; i < n; ++i)
              t.push_back(
                  LLVM::LoadOp::create(rewriter, loc, totals[l][k][i].getType(),
                                       slot(i, k, constant(w), lineIndex[l])));
            warpTotals.push_back(t);
          }
          // before[j]: the prefix a thread of the j-th warp needs.
          SmallVector<Prefix> before{carry};
          for (unsigned j = 1; j < W; ++j)
            before.push_back(
                concat(before.back(), Prefix{warpTotals[j - 1], Value()}));
          carry = concat(before.back(), Prefix{warpTotals[W - 1], Value()});
          // before[j] always exists for j > 0; before[0] iff k > 0.
          unsigned first = k == 0 ? 1 : 0;
          SmallVector<Value> chosen = before[W - 1].values;
          for (unsigned j = W - 1; j-- > first;)
            chosen =
                select(icmp(LLVM::ICmpPredicate::eq, warpLogical, constant(j)),
                       before[j].values, chosen);
          outerPrefix[l][k] = {chosen, k == 0 ? notFirstWarp : Value()};
        }
      }
    }

    // Each chunk's registers take the prefix of everything before them.
    for (unsigned l = 0; l < lines.size(); ++l)
      for (unsigned k = 0; k < g.chunks; ++k) {
        Prefix prefix = concat(outerPrefix[l][k], lanePrefix[l][k]);
        for (unsigned s = 0; s < g.chunkSize; ++s)
          applyPrefix(prefix, result[regAt(l, k, s)]);
      }
    // Registers repeating elements (the axis is shorter than a thread's
    // registers along it) copy their originals.
    for (auto &line : lines)
      for (unsigned c = shape[axis]; c < alongAxis; ++c)
        result[line[c]] = result[line[c % shape[axis]]];

    SmallVector<Value> packed;
    for (unsigned i = 0; i < n; ++i) {
      SmallVector<Value> values;
      for (unsigned r = 0; r < numRegs; ++r)
        values.push_back(result[r][i]);
      Type structType =
          getTypeConverter()->convertType(op.getResult(i).getType());
      if (!structType)
        return failure();
      packed.push_back(packStruct(rewriter, loc, structType, values));
    }
    rewriter.replaceOp(op, packed);
    return success();
  }
};
} // namespace

void mlir::tilegpu::populateScanOpToLLVMPatterns(LLVMTypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<ScanOpLowering>(converter);
}
