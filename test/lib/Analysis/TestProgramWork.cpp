//===- TestProgramWork.cpp - print how work varies with program ids -------===//
//
// test-print-program-work attaches to every scf.for the trend of its trip
// count along grid axes 0, 1 and 2 and the bytes one iteration loads, and
// to every function the trend of its work, as remarks for
// -verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ProgramWork.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct TestProgramWorkPass
    : public PassWrapper<TestProgramWorkPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestProgramWorkPass)

  StringRef getArgument() const final { return "test-print-program-work"; }
  StringRef getDescription() const final {
    return "Print how loop trip counts and work vary with program ids";
  }

  void runOnOperation() override {
    for (func::FuncOp func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      tile::ProgramWork work(func);
      func.walk([&](scf::ForOp loop) {
        auto remark = loop.emitRemark() << "trip count:";
        for (unsigned axis = 0; axis < 3; ++axis)
          remark << " " << stringifyTrend(work.getTripCountTrend(loop, axis));
        remark << "; loads "
               << tile::ProgramWork::getBytesLoadedPerIteration(loop)
               << " bytes per iteration";
      });
      auto remark = func.emitRemark() << "work:";
      for (unsigned axis = 0; axis < 3; ++axis)
        remark << " " << stringifyTrend(work.getWorkTrend(axis));
    }
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestProgramWorkPass() { PassRegistration<TestProgramWorkPass>(); }
} // namespace mlir::tile::test
