//===- HeavyProgramsFirst.cpp - the longest programs start first ----------===//
//
// tilegpu-heavy-programs-first renumbers the programs of a kernel whose loop
// work grows with its program id along one axis (ProgramWork.h), so that
// the programs the GPU starts first, by linear block index, are the
// heaviest. Greedy dispatch then ends on the lightest programs, and the last
// wave is short. A causal attention forward at N_CTX 1024 has row blocks of
// 1 to 8 key blocks; launched lightest first, its last programs are each
// head's longest.
//
// With the heavy axis h and the other two axes folded into one index o
// (lowest axis fastest), block index L = p_x + g_x (p_y + g_y p_z) maps to
//   groupSize = clamp(ceil(2 * sm_count / g_h), 1, |o|)   (whole o ranges)
//   group = L / (groupSize g_h),  i = L mod (groupSize g_h)
//   size  = min(groupSize, |o| - group * groupSize)        (the last group)
//   p_h   = g_h - 1 - i / size,   o = group * groupSize + i mod size
// a bijection of the grid, heaviest first within each group. The groups
// keep programs that run together on few values of o (a causal forward's
// heads), whose K and V they share in L2; one group holds about two
// programs per SM.
//
// Assumes the tile ops' grid queries (tile.program_id, tile.num_programs)
// are the only way a kernel learns its place in the grid.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ProgramWork.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUHEAVYPROGRAMSFIRST
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// The one axis whose programs do more loop work the higher their id, when
/// the work depends on no other axis.
std::optional<unsigned> findHeavyAxis(func::FuncOp kernel) {
  std::optional<unsigned> heavy;
  for (unsigned axis = 0; axis < 3; ++axis) {
    tile::WorkTrend trend = tile::getKernelWorkTrend(kernel, axis);
    if (trend == tile::WorkTrend::Independent)
      continue;
    if (trend != tile::WorkTrend::Increasing || heavy)
      return std::nullopt;
    heavy = axis;
  }
  return heavy;
}

void renumberPrograms(func::FuncOp kernel, unsigned heavy) {
  SmallVector<tile::ProgramIdOp> oldIds;
  kernel.walk([&](tile::ProgramIdOp op) { oldIds.push_back(op); });

  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&kernel.getBody().front());
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  // In 64 bits: a grid may hold more than 2^31 programs.
  auto wide = [&](Value value) -> Value {
    return arith::ExtUIOp::create(b, loc, i64, value);
  };
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantIntOp::create(b, loc, i64, value);
  };
  Value id[3], count[3];
  for (unsigned axis = 0; axis < 3; ++axis) {
    id[axis] = wide(tile::ProgramIdOp::create(b, loc, i32, axis));
    count[axis] = wide(tile::NumProgramsOp::create(b, loc, i32, axis));
  }
  auto add = [&](Value x, Value y) -> Value {
    return arith::AddIOp::create(b, loc, x, y);
  };
  auto sub = [&](Value x, Value y) -> Value {
    return arith::SubIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, Value y) -> Value {
    return arith::MulIOp::create(b, loc, x, y);
  };
  auto div = [&](Value x, Value y) -> Value {
    return arith::DivUIOp::create(b, loc, x, y);
  };
  auto rem = [&](Value x, Value y) -> Value {
    return arith::RemUIOp::create(b, loc, x, y);
  };
  auto min = [&](Value x, Value y) -> Value {
    return arith::MinUIOp::create(b, loc, x, y);
  };

  Value linear = add(id[0], mul(count[0], add(id[1], mul(count[1], id[2]))));
  unsigned low = heavy == 0 ? 1 : 0, high = heavy == 2 ? 1 : 2;
  Value others = mul(count[low], count[high]);
  // Each op is built in its own statement: the IR's order is then fixed.
  Value smCount = wide(SmCountOp::create(b, loc, i32));
  Value inFlight = mul(constant(2), smCount);
  Value one = constant(1);
  Value wanted = div(sub(add(inFlight, count[heavy]), one), count[heavy]);
  Value groupSize = arith::MaxUIOp::create(b, loc, one, min(wanted, others));
  Value groupPrograms = mul(groupSize, count[heavy]);
  Value group = div(linear, groupPrograms);
  Value first = mul(group, groupSize);
  Value size = min(groupSize, sub(others, first));
  Value inGroup = sub(linear, mul(group, groupPrograms));
  Value newId[3];
  Value lastId = sub(count[heavy], one);
  newId[heavy] = sub(lastId, div(inGroup, size));
  Value other = add(first, rem(inGroup, size));
  newId[low] = rem(other, count[low]);
  newId[high] = div(other, count[low]);

  Value narrow[3];
  for (unsigned axis = 0; axis < 3; ++axis)
    narrow[axis] = arith::TruncIOp::create(b, loc, i32, newId[axis]);
  for (tile::ProgramIdOp old : oldIds) {
    old.replaceAllUsesWith(narrow[old.getAxis()]);
    old.erase();
  }
  kernel->setAttr("tilegpu.heavy_programs_first", b.getI32IntegerAttr(heavy));
}

struct HeavyProgramsFirst
    : public tilegpu::impl::TileGPUHeavyProgramsFirstBase<HeavyProgramsFirst> {
  void runOnOperation() override {
    getOperation().walk([](func::FuncOp kernel) {
      if (kernel.isExternal())
        return;
      if (std::optional<unsigned> heavy = findHeavyAxis(kernel))
        renumberPrograms(kernel, *heavy);
    });
  }
};
} // namespace
