//===- TestProgramWork.cpp - print how loop work varies with program ids --===//
//
// -test-print-program-work remarks at every scf.for with its trip count's
// trend along each grid axis, and at every function with the kernel's, so
// lit tests check the analysis with -verify-diagnostics. It changes nothing.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/ProgramWork.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tile;

namespace {
struct TestProgramWorkPass
    : public PassWrapper<TestProgramWorkPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestProgramWorkPass)

  StringRef getArgument() const final { return "test-print-program-work"; }
  StringRef getDescription() const final {
    return "Print how each loop's trip count varies with the program ids";
  }

  void runOnOperation() override {
    auto describe = [](auto trendOf) {
      std::string text;
      for (unsigned axis = 0; axis < 3; ++axis)
        text += (axis ? ", " : "") + std::to_string(axis) + ": " +
                stringifyWorkTrend(trendOf(axis)).str();
      return text;
    };
    getOperation().walk([&](Operation *op) {
      if (auto loop = dyn_cast<scf::ForOp>(op))
        loop.emitRemark() << "loop trip count by axis: "
                          << describe([&](unsigned axis) {
                               return getLoopWorkTrend(loop, axis);
                             });
      else if (isa<FunctionOpInterface>(op))
        op->emitRemark() << "kernel work by axis: "
                         << describe([&](unsigned axis) {
                              return getKernelWorkTrend(op, axis);
                            });
    });
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestProgramWorkPass() { PassRegistration<TestProgramWorkPass>(); }
} // namespace mlir::tile::test
