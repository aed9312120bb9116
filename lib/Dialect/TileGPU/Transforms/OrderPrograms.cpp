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
// through tile.program_id in its own body (kernels with calls or inline
// assembly are left alone) and that programs of one launch do not rely on
// their order, which Triton does not promise either.
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
/// Builds, at the kernel's entry, the values a loop bound takes in the
/// program with the largest id along `axis`.
class HeaviestProgramBuilder {
public:
  HeaviestProgramBuilder(OpBuilder &builder, func::FuncOp kernel,
                         unsigned axis, Value heaviestId)
      : builder(builder), kernel(kernel), axis(axis), heaviestId(heaviestId) {}

  /// `value` recomputed at the builder's point, or null where it depends on
  /// anything but kernel arguments, constants, program ids and the integer
  /// arithmetic ProgramWork follows.
  Value materialize(Value value) {
    if (Value known = mapping.lookupOrNull(value))
      return known;
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner()->getParentOp() == kernel.getOperation() ? value
                                                                    : Value();
    Operation *op = value.getDefiningOp();
    if (auto programId = dyn_cast<tile::ProgramIdOp>(op);
        programId && programId.getAxis() == axis) {
      mapping.map(value, heaviestId);
      return heaviestId;
    }
    if (!isa<tile::ProgramIdOp, tile::NumProgramsOp, arith::ConstantOp,
             arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivSIOp,
             arith::DivUIOp, arith::FloorDivSIOp, arith::CeilDivSIOp,
             arith::CeilDivUIOp, arith::ExtSIOp, arith::ExtUIOp,
             arith::IndexCastOp, arith::IndexCastUIOp, arith::MinSIOp,
             arith::MaxSIOp, arith::MinUIOp, arith::MaxUIOp>(op))
      return {};
    for (Value operand : op->getOperands())
      if (!materialize(operand))
        return {};
    Operation *copy = builder.clone(*op, mapping);
    return copy->getResult(0);
  }

private:
  OpBuilder &builder;
  func::FuncOp kernel;
  unsigned axis;
  Value heaviestId;
  IRMapping mapping;
};

Value toI64(OpBuilder &builder, Location loc, Value value) {
  Type i64 = builder.getI64Type();
  if (value.getType().isIndex())
    return arith::IndexCastOp::create(builder, loc, i64, value);
  if (value.getType().getIntOrFloatBitWidth() < 64)
    return arith::ExtSIOp::create(builder, loc, i64, value);
  return value;
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
      opaque |= isa<CallOpInterface, tile::InlineAsmElementwiseOp>(op);
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

    Location loc = kernel.getLoc();
    OpBuilder builder = OpBuilder::atBlockBegin(&kernel.getBody().front());
    Type i32 = builder.getI32Type();
    auto constI32 = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, i32, value);
    };
    auto constI64 = [&](int64_t value) -> Value {
      return arith::ConstantIntOp::create(builder, loc, builder.getI64Type(),
                                          value);
    };
    Value ids[3], counts[3];
    for (unsigned i = 0; i < 3; ++i) {
      ids[i] = tile::ProgramIdOp::create(builder, loc, i32, i);
      counts[i] = tile::NumProgramsOp::create(builder, loc, i32, i);
    }

    // Bytes the heaviest program's growing loops load.
    Value heaviestId =
        arith::SubIOp::create(builder, loc, counts[axis], constI32(1));
    HeaviestProgramBuilder heaviest(builder, kernel, axis, heaviestId);
    Value bytes = constI64(0);
    for (scf::ForOp loop : work.getGrowingLoops(axis)) {
      Value lower = heaviest.materialize(loop.getLowerBound());
      Value upper = heaviest.materialize(loop.getUpperBound());
      Value step = heaviest.materialize(loop.getStep());
      if (!lower || !upper || !step) {
        // Leave the kernel as it was.
        eraseUnused(kernel, builder);
        return;
      }
      lower = toI64(builder, loc, lower);
      upper = toI64(builder, loc, upper);
      step = toI64(builder, loc, step);
      // max(0, ceil((upper - lower) / step)) iterations.
      Value span = arith::SubIOp::create(builder, loc, upper, lower);
      Value rounded = arith::AddIOp::create(
          builder, loc, span,
          arith::SubIOp::create(builder, loc, step, constI64(1)));
      Value trips = arith::MaxSIOp::create(
          builder, loc, arith::DivSIOp::create(builder, loc, rounded, step),
          constI64(0));
      Value loopBytes = arith::MulIOp::create(
          builder, loc, trips,
          constI64(tile::ProgramWork::getBytesLoadedPerIteration(loop)));
      bytes = arith::AddIOp::create(builder, loc, bytes, loopBytes);
    }

    // G = clamp(section-bytes / bytes, 1, max-section).
    Value section = arith::DivSIOp::create(
        builder, loc, constI64(sectionBytes),
        arith::MaxSIOp::create(builder, loc, bytes, constI64(1)));
    section = arith::MinSIOp::create(
        builder, loc,
        arith::MaxSIOp::create(builder, loc, section, constI64(1)),
        constI64(std::max<int64_t>(1, maxSection)));
    section = arith::TruncIOp::create(builder, loc, i32, section);

    // Launch-order index L = x + nx * (y + ny * z); renumbered only where
    // the grid's program count fits in 32 bits.
    Value total = constI64(1);
    for (Value count : counts)
      total = arith::MulIOp::create(builder, loc, total,
                                    toI64(builder, loc, count));
    Value fits = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sle, total,
        constI64(std::numeric_limits<int32_t>::max()));
    auto select = [&](Value ifFits, Value otherwise) -> Value {
      return arith::SelectOp::create(builder, loc, fits, ifFits, otherwise);
    };
    auto add = [&](Value a, Value b) -> Value {
      return arith::AddIOp::create(builder, loc, a, b);
    };
    auto sub = [&](Value a, Value b) -> Value {
      return arith::SubIOp::create(builder, loc, a, b);
    };
    auto mul = [&](Value a, Value b) -> Value {
      return arith::MulIOp::create(builder, loc, a, b);
    };
    auto div = [&](Value a, Value b) -> Value {
      return arith::DivUIOp::create(builder, loc, a, b);
    };
    auto rem = [&](Value a, Value b) -> Value {
      return arith::RemUIOp::create(builder, loc, a, b);
    };
    Value one = constI32(1);
    Value launchIndex = select(
        add(ids[0], mul(counts[0], add(ids[1], mul(counts[1], ids[2])))),
        constI32(0));
    unsigned otherAxes[2] = {axis == 0 ? 1u : 0u, axis == 2 ? 1u : 2u};
    Value heavyCount = select(counts[axis], one);
    Value otherCount =
        select(mul(counts[otherAxes[0]], counts[otherAxes[1]]), one);
    section = arith::MaxSIOp::create(
        builder, loc, arith::MinSIOp::create(builder, loc, section, otherCount),
        one);
    // Section s holds the other-axes programs [first, first + size); its
    // size * heavyCount programs start heaviest row first.
    Value first = mul(div(launchIndex, mul(section, heavyCount)), section);
    Value size = arith::MinSIOp::create(builder, loc, section,
                                        sub(otherCount, first));
    Value inSection = sub(launchIndex, mul(first, heavyCount));
    Value heavyId = sub(sub(heavyCount, one), div(inSection, size));
    Value otherId = add(first, rem(inSection, size));
    Value renumbered[3];
    renumbered[axis] = heavyId;
    renumbered[otherAxes[0]] = rem(otherId, select(counts[otherAxes[0]], one));
    renumbered[otherAxes[1]] = div(otherId, select(counts[otherAxes[0]], one));
    for (unsigned i = 0; i < 3; ++i)
      renumbered[i] = select(renumbered[i], ids[i]);

    for (tile::ProgramIdOp programId : programIds) {
      programId.getResult().replaceAllUsesWith(
          renumbered[programId.getAxis()]);
      programId.erase();
    }
  }

  /// Erases the unused ops this pass put at the kernel's entry.
  static void eraseUnused(func::FuncOp kernel, OpBuilder &builder) {
    Block &entry = kernel.getBody().front();
    SmallVector<Operation *> added;
    for (Operation &op : entry) {
      if (&op == &*builder.getInsertionPoint())
        break;
      added.push_back(&op);
    }
    for (Operation *op : llvm::reverse(added))
      if (op->use_empty())
        op->erase();
  }
};
} // namespace
