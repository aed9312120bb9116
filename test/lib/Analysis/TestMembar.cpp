//===- TestMembar.cpp - print where barriers are needed -------------------===//
//
// -test-print-membar runs the membar analysis on every function and remarks
// at each op before which a barrier is needed, and the count per function.
// It changes nothing; tilegpu-insert-barriers acts on the same answer.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/Membar.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Pass/Pass.h"

using namespace mlir;
using namespace mlir::tilegpu;

namespace {
struct TestMembarPass
    : public PassWrapper<TestMembarPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestMembarPass)

  StringRef getArgument() const final { return "test-print-membar"; }
  StringRef getDescription() const final {
    return "Print the ops that need a shared-memory barrier before them";
  }

  void runOnOperation() override {
    for (auto func : getOperation().getOps<FunctionOpInterface>()) {
      FailureOr<MembarAnalysis> analysis = MembarAnalysis::analyze(func);
      if (failed(analysis))
        return signalPassFailure();
      for (Operation *op : analysis->getBarrierPoints())
        op->emitRemark("barrier needed before this op");
      func->emitRemark() << analysis->getBarrierPoints().size()
                         << " barriers inserted";
    }
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestMembarPass() { PassRegistration<TestMembarPass>(); }
} // namespace mlir::tile::test
