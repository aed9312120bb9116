//===- PersistentPrograms.cpp - run a grid's programs in a loop ----------===//
//
// tilegpu-persistent-programs: a kernel that will be warp-specialized, whose
// one loop does the same work in every program, becomes persistent: the
// launch starts as many programs as fit on the GPU at once (the runtime
// decides: SMs times occupancy), and each runs the kernel's body in a loop
// over the programs of the grid the launch asked for,
//
//   for v = hardware id; v < gx * gy * gz; v += hardware programs:
//     body, with program_id = (v % gx, v / gx % gy, v / (gx * gy))
//
// so that tilegpu-pipeline carries the loop's stages from one program to
// the next (StageCopies.h: getPipelineCarrier) and the producer warpgroup
// starts the next program's copies while the consumers finish this one's
// epilogue, as FlashAttention-3's persistent kernels do. The grid's sizes
// (gx, gy, gz) become three i32 arguments after the kernel's own, which
// the runtime passes (tile.num_programs reads them); the module's
// tilegpu.persistent-programs attribute tells the runtime to.
//
// Programs are taken in launch order, round robin over the resident ones:
// with equal work each takes its share. Kernels left alone: those whose
// loops' trip counts depend on a program id (causal attention: a static
// share would be uneven); with other than one loop (a second pipeline
// would not be carried), a loop without dots or with loads that TMA does
// not copy, or 4 warps (the pipeline then keeps the program in step and
// is not carried; a persistent kernel without a carried pipeline ran no
// faster on the H200); with calls, inline assembly, prints, asserts
// (they name hardware block ids), atomics or volatile loads (programs that
// wait for each other could wait for one queued behind them in the same
// loop). Like Triton, Tile promises programs no order or concurrency.
//
//===----------------------------------------------------------------------===//

#include "StageCopies.h"
#include "tile/Analysis/ProgramWork.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/CallInterfaces.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUPERSISTENTPROGRAMS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
/// Whether the kernel's programs may share one hardware program: nothing
/// reads the hardware's ids or waits for another program.
bool runsAnywhere(func::FuncOp kernel) {
  return !kernel
              ->walk([](Operation *op) {
                bool volatileLoad = false;
                if (auto load = dyn_cast<tile::LoadOp>(op))
                  volatileLoad = load.getIsVolatile();
                return volatileLoad ||
                               isa<CallOpInterface,
                                   tile::InlineAsmElementwiseOp, tile::PrintOp,
                                   tile::AssertOp, tile::AtomicRMWOp,
                                   tile::AtomicCASOp, scf::WhileOp>(op)
                           ? WalkResult::interrupt()
                           : WalkResult::advance();
              })
              .wasInterrupted();
}

/// The kernel's one loop, where it has one, every program runs it the same
/// number of times, and its pipeline will be carried: it has dots and all
/// its loads come through tensor maps (TMA copies) in a program of several
/// warpgroups, whose warps then release the stages (releasesStages).
/// Without `carriedOnly` (tests of the rewrite), any one uniform loop.
scf::ForOp getCarriedLoop(func::FuncOp kernel, bool carriedOnly) {
  SmallVector<scf::ForOp> loops;
  kernel.walk([&](scf::ForOp loop) { loops.push_back(loop); });
  if (loops.size() != 1)
    return {};
  scf::ForOp loop = loops.front();
  bool dots = false, tmaLoads = true;
  loop.getBody()->walk([&](Operation *op) {
    dots |= isa<tile::DotOp>(op);
    if (auto load = dyn_cast<tile::LoadOp>(op))
      tmaLoads &= isTmaLoad(load); // what tilegpu-pipeline copies with TMA
  });
  if (carriedOnly && (getNumWarps(kernel) <= 4 || !dots || !tmaLoads))
    return {};
  tile::ProgramWork work(kernel);
  for (unsigned axis = 0; axis < 3; ++axis)
    if (work.getTripCountTrend(loop, axis) != tile::Trend::Independent)
      return {};
  return loop;
}

struct PersistentPrograms
    : public tilegpu::impl::TileGPUPersistentProgramsBase<PersistentPrograms> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    bool any = false;
    for (func::FuncOp kernel : module.getOps<func::FuncOp>())
      if (!kernel.isExternal() && kernel.getNumResults() == 0 &&
          kernel.getBody().hasOneBlock() &&
          (allKernels || asksForWarpSpecialization(kernel)) &&
          runsAnywhere(kernel) && getCarriedLoop(kernel, carriedOnly))
        any |= makePersistent(kernel);
    if (any)
      module->setAttr(kPersistentProgramsAttr, UnitAttr::get(&getContext()));
  }

  /// Whether `kernel` changed (it does unless it takes no more arguments).
  static bool makePersistent(func::FuncOp kernel) {
    MLIRContext *ctx = kernel.getContext();
    Location loc = kernel.getLoc();
    Type i32 = IntegerType::get(ctx, 32), i64 = IntegerType::get(ctx, 64);
    Block &entry = kernel.getBody().front();
    unsigned first = kernel.getNumArguments();
    if (failed(kernel.insertArguments({first, first, first}, {i32, i32, i32},
                                      {}, {loc, loc, loc})))
      return false;
    Value sizes[3] = {entry.getArgument(first), entry.getArgument(first + 1),
                      entry.getArgument(first + 2)};

    // The programs of the grid, in launch order (x fastest), shared out
    // round robin over the hardware's: 64-bit, as gx * gy * gz may not fit
    // in 32 bits.
    OpBuilder b = OpBuilder::atBlockBegin(&entry);
    auto wide = [&](Value value) -> Value {
      return arith::ExtUIOp::create(b, loc, i64, value);
    };
    Value hardwareId = wide(tile::ProgramIdOp::create(b, loc, i32, 0));
    Value hardwarePrograms = wide(tile::NumProgramsOp::create(b, loc, i32, 0));
    Value sizeX = wide(sizes[0]);
    Value sizeY = wide(sizes[1]);
    Value plane = arith::MulIOp::create(b, loc, sizeX, sizeY);
    Value programs = arith::MulIOp::create(b, loc, plane, wide(sizes[2]));
    auto loop =
        scf::ForOp::create(b, loc, hardwareId, programs, hardwarePrograms);
    Block *body = loop.getBody();
    SmallVector<Operation *> kernelOps;
    for (Operation &op : llvm::make_range(std::next(loop->getIterator()),
                                          entry.getTerminator()->getIterator()))
      kernelOps.push_back(&op);
    for (Operation *op : kernelOps)
      op->moveBefore(body->getTerminator());

    b.setInsertionPointToStart(body);
    Value program = loop.getInductionVar();
    auto narrow = [&](Value value) -> Value {
      return arith::TruncIOp::create(b, loc, i32, value);
    };
    Value ids[3] = {
        narrow(arith::RemUIOp::create(b, loc, program, sizeX)),
        narrow(arith::RemUIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, program, sizeX), sizeY)),
        narrow(arith::DivUIOp::create(b, loc, program, plane))};
    SmallVector<Operation *> gridQueries;
    body->walk([&](Operation *op) {
      if (isa<tile::ProgramIdOp, tile::NumProgramsOp>(op))
        gridQueries.push_back(op);
    });
    for (Operation *op : gridQueries) {
      if (auto id = dyn_cast<tile::ProgramIdOp>(op))
        id.getResult().replaceAllUsesWith(ids[id.getAxis()]);
      else
        op->getResult(0).replaceAllUsesWith(
            sizes[cast<tile::NumProgramsOp>(op).getAxis()]);
      op->erase();
    }
    return true;
  }
};
} // namespace
