//===- InsertBarriers.cpp - barriers between racing shared accesses -------===//
//
// tilegpu-insert-barriers inserts a tilegpu.barrier wherever the membar
// analysis (tile/Analysis/Membar.h) finds that an op's shared-memory
// accesses would race with those of earlier ops. Assumes
// tilegpu-allocate-shared-memory has run (it reads the offsets) and that no
// pass moves or re-creates shared-memory users afterwards.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/Membar.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"
#include "tile/Dialect/TileGPU/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::tilegpu {
#define GEN_PASS_DEF_TILEGPUINSERTBARRIERS
#include "tile/Dialect/TileGPU/Transforms/Passes.h.inc"
} // namespace mlir::tilegpu

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct InsertBarriers
    : public tilegpu::impl::TileGPUInsertBarriersBase<InsertBarriers> {
  void runOnOperation() override {
    bool failedAny = false;
    for (auto func : getOperation().getOps<FunctionOpInterface>()) {
      FailureOr<MembarAnalysis> membar = MembarAnalysis::analyze(func);
      if (failed(membar)) {
        failedAny = true;
        continue;
      }
      OpBuilder builder(func.getContext());
      for (Operation *op : membar->getBarrierPoints()) {
        builder.setInsertionPoint(op);
        BarrierOp::create(builder, op->getLoc());
      }
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
