//===- OrderPrograms.cpp - start the heaviest programs first --------------===//
//
// tilegpu-order-programs: the GPU starts programs roughly in launch order
// (x fastest). In tutorial 06's causal forward the row block
// `program_id(0)` loops over `start_m` key blocks, so the launch ends with a
// head's heaviest programs running alone on a few SMs. Where ProgramWork
// finds that a kernel's loops grow along one grid axis (and none shrinks),
// the program ids are renumbered at the kernel's entry: the programs of
// the other axes are taken in sections of G, and within a section the
// heaviest row of all G programs starts first. Keeping a section small
// keeps the data its programs share (a head's K and V) in L2: G is how many
// programs' loop loads fit in section-bytes, from the growing loops' bytes
// per iteration times the heaviest program's trip count, computed at run
// time from the loop bounds. Assumes the kernel reads program ids only
// through tile.program_id in its own body (kernels with calls, inline
// assembly, prints or asserts are left alone) and that programs of one launch
// do not rely on their order, which Triton does not promise either.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ProgramWork.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"

#include <limits>

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUORDERPROGRAMS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Whether `op` is arithmetic the entry may recompute a loop bound with:
/// what ProgramWork follows, constants and grid queries.
bool isRecomputable(Operation *op) {
  return isa<tile::ProgramIdOp, tile::NumProgramsOp, arith::ConstantOp>(op) ||
         tile::isFollowedArithmetic(op);
}

/// Whether `value` is computed from kernel arguments, constants and program
/// ids by such arithmetic alone, so that the entry can compute it.
bool isComputableAtEntry(Value value, func::FuncOp kernel) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner()->getParentOp() == kernel.getOperation();
  Operation *op = value.getDefiningOp();
  return isRecomputable(op) &&
         llvm::all_of(op->getOperands(), [&](Value operand) {
           return isComputableAtEntry(operand, kernel);
         });
}

/// Integer arithmetic at the kernel's entry.
struct EntryBuilder {
  OpBuilder builder;
  Location loc;

  Value constant(Type type, int64_t value) {
    return arith::ConstantIntOp::create(builder, loc, type, value);
  }
  Value i32(int64_t value) { return constant(builder.getI32Type(), value); }
  Value i64(int64_t value) { return constant(builder.getI64Type(), value); }
  Value toI64(Value value) {
    Type i64 = builder.getI64Type();
    if (value.getType().isIndex())
      return arith::IndexCastOp::create(builder, loc, i64, value);
    if (value.getType().getIntOrFloatBitWidth() < 64)
      return arith::ExtSIOp::create(builder, loc, i64, value);
    return value;
  }
  Value add(Value a, Value b) {
    return arith::AddIOp::create(builder, loc, a, b);
  }
  Value sub(Value a, Value b) {
    return arith::SubIOp::create(builder, loc, a, b);
  }
  Value mul(Value a, Value b) {
    return arith::MulIOp::create(builder, loc, a, b);
  }
  Value divSigned(Value a, Value b) {
    return arith::DivSIOp::create(builder, loc, a, b);
  }
  Value div(Value a, Value b) {
    return arith::DivUIOp::create(builder, loc, a, b);
  }
  Value rem(Value a, Value b) {
    return arith::RemUIOp::create(builder, loc, a, b);
  }
  Value min(Value a, Value b) {
    return arith::MinSIOp::create(builder, loc, a, b);
  }
  Value max(Value a, Value b) {
    return arith::MaxSIOp::create(builder, loc, a, b);
  }
};

/// A value recomputed at the entry with program_id(axis) replaced by
/// `heaviestId`; the value must be isComputableAtEntry.
Value recomputeAtEntry(Value value, unsigned axis, Value heaviestId,
                       EntryBuilder &entry, IRMapping &mapping) {
  if (Value known = mapping.lookupOrNull(value))
    return known;
  if (isa<BlockArgument>(value))
    return value; // a kernel argument
  Operation *op = value.getDefiningOp();
  if (auto programId = dyn_cast<tile::ProgramIdOp>(op);
      programId && programId.getAxis() == axis) {
    mapping.map(value, heaviestId);
    return heaviestId;
  }
  for (Value operand : op->getOperands())
    recomputeAtEntry(operand, axis, heaviestId, entry, mapping);
  return entry.builder.clone(*op, mapping)->getResult(0);
}

/// The bytes the growing loops load in the program with the largest id
/// along `axis` (i64): their trip counts there times their loads per
/// iteration.
Value buildHeaviestLoopBytes(ArrayRef<scf::ForOp> loops, unsigned axis,
                             Value heaviestId, EntryBuilder &entry) {
  IRMapping mapping;
  auto bound = [&](Value value) {
    return entry.toI64(
        recomputeAtEntry(value, axis, heaviestId, entry, mapping));
  };
  Value bytes = entry.i64(0);
  for (scf::ForOp loop : loops) {
    Value lower = bound(loop.getLowerBound());
    Value upper = bound(loop.getUpperBound());
    Value step = bound(loop.getStep());
    // max(0, ceil((upper - lower) / step)) iterations. (At most one
    // builder call among a call's arguments: their order is unspecified
    // in C++, and the ops should come out in one order.)
    Value span = entry.sub(upper, lower);
    Value stepLess = entry.sub(step, entry.i64(1));
    Value trips = entry.divSigned(entry.add(span, stepLess), step);
    trips = entry.max(trips, entry.i64(0));
    int64_t perIteration = tile::ProgramWork::getBytesLoadedPerIteration(loop);
    bytes = entry.add(bytes, entry.mul(trips, entry.i64(perIteration)));
  }
  return bytes;
}

struct OrderPrograms
    : public tilegpu::impl::TileGPUOrderProgramsBase<OrderPrograms> {
  using Base::Base;

  void runOnOperation() override {
    for (func::FuncOp kernel : getOperation().getOps<func::FuncOp>())
      if (!kernel.isExternal())
        orderPrograms(kernel);
  }

  void orderPrograms(func::FuncOp kernel) {
    SmallVector<tile::ProgramIdOp> programIds;
    bool opaque = false;
    kernel.walk([&](Operation *op) {
      if (auto programId = dyn_cast<tile::ProgramIdOp>(op))
        programIds.push_back(programId);
      // Calls and inline assembly could read the hardware's block ids;
      // prints and asserts report them (as Triton's, which are its program
      // ids), so a kernel being debugged keeps its numbering.
      opaque |= isa<CallOpInterface, tile::InlineAsmElementwiseOp,
                    tile::PrintOp, tile::AssertOp>(op);
    });
    if (programIds.empty() || opaque)
      return;

    tile::ProgramWork work(kernel);
    std::optional<unsigned> heavyAxis;
    for (unsigned axis = 0; axis < 3 && !heavyAxis; ++axis)
      if (work.getWorkTrend(axis) == tile::Trend::Increasing)
        heavyAxis = axis;
    if (!heavyAxis)
      return;
    unsigned axis = *heavyAxis;
    SmallVector<scf::ForOp> loops = work.getGrowingLoops(axis);
    for (scf::ForOp loop : loops)
      for (Value bound :
           {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()})
        if (!isComputableAtEntry(bound, kernel))
          return;

    EntryBuilder entry{OpBuilder::atBlockBegin(&kernel.getBody().front()),
                       kernel.getLoc()};
    Type i32 = entry.builder.getI32Type();
    Value ids[3], counts[3];
    for (unsigned i = 0; i < 3; ++i) {
      ids[i] = tile::ProgramIdOp::create(entry.builder, entry.loc, i32, i);
      counts[i] = tile::NumProgramsOp::create(entry.builder, entry.loc, i32, i);
    }
    Value heaviestId = entry.sub(counts[axis], entry.i32(1));
    Value bytes = buildHeaviestLoopBytes(loops, axis, heaviestId, entry);
    // G = clamp(section-bytes / bytes, 1, max-section).
    Value budget = entry.i64(sectionBytes);
    Value section = entry.divSigned(budget, entry.max(bytes, entry.i64(1)));
    section = entry.max(section, entry.i64(1));
    section = entry.min(section, entry.i64(std::max<int64_t>(1, maxSection)));
    section = arith::TruncIOp::create(entry.builder, entry.loc, i32, section);

    SmallVector<Value, 3> renumbered =
        renumber(entry, axis, section, ids, counts);
    for (tile::ProgramIdOp programId : programIds) {
      programId.getResult().replaceAllUsesWith(renumbered[programId.getAxis()]);
      programId.erase();
    }
  }

  /// The new ids: the launch index L = x + nx * (y + ny * z) taken apart
  /// in sections of `section` programs of the other axes, the heaviest row
  /// of a section first; the old ids where the grid holds 2^31 programs or
  /// more (L would not fit in 32 bits).
  static SmallVector<Value, 3> renumber(EntryBuilder &entry, unsigned axis,
                                        Value section, Value (&ids)[3],
                                        Value (&counts)[3]) {
    Value total = entry.i64(1);
    for (Value count : counts)
      total = entry.mul(total, entry.toI64(count));
    Value fits = arith::CmpIOp::create(
        entry.builder, entry.loc, arith::CmpIPredicate::sle, total,
        entry.i64(std::numeric_limits<int32_t>::max()));
    auto ifFits = [&](Value value, Value otherwise) -> Value {
      return arith::SelectOp::create(entry.builder, entry.loc, fits, value,
                                     otherwise);
    };
    // Where the grid does not fit, every operand below is one or zero, so
    // no division is by zero.
    Value one = entry.i32(1);
    Value zero = entry.i32(0);
    Value launchIndex = ifFits(
        entry.add(ids[0],
                  entry.mul(counts[0],
                            entry.add(ids[1], entry.mul(counts[1], ids[2])))),
        zero);
    unsigned otherAxes[2] = {axis == 0 ? 1u : 0u, axis == 2 ? 1u : 2u};
    Value heavyCount = ifFits(counts[axis], one);
    Value firstOtherCount = ifFits(counts[otherAxes[0]], one);
    Value otherCount =
        ifFits(entry.mul(counts[otherAxes[0]], counts[otherAxes[1]]), one);
    section = entry.max(entry.min(section, otherCount), one);
    // A section holds the other axes' programs [first, first + size) (the
    // last may hold fewer); its size * heavyCount programs start heaviest
    // row first.
    Value first = entry.mul(
        entry.div(launchIndex, entry.mul(section, heavyCount)), section);
    Value size = entry.min(section, entry.sub(otherCount, first));
    Value inSection = entry.sub(launchIndex, entry.mul(first, heavyCount));
    Value otherId = entry.add(first, entry.rem(inSection, size));
    SmallVector<Value, 3> renumbered(3);
    Value lastHeavyId = entry.sub(heavyCount, one);
    renumbered[axis] = entry.sub(lastHeavyId, entry.div(inSection, size));
    renumbered[otherAxes[0]] = entry.rem(otherId, firstOtherCount);
    renumbered[otherAxes[1]] = entry.div(otherId, firstOtherCount);
    for (unsigned i = 0; i < 3; ++i)
      renumbered[i] = ifFits(renumbered[i], ids[i]);
    return renumbered;
  }
};
} // namespace
