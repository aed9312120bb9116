//===- TestAxisInfo.cpp - print the contiguity analysis -------------------===//
//
// test-print-axis-info attaches the AxisInfo of every integer or pointer
// result (and of every kernel argument) to its op as a remark, so lit tests
// check the analysis with -verify-diagnostics.
//
//===----------------------------------------------------------------------===//

#include "tile/Analysis/AxisInfo.h"
#include "tile/Dialect/TileGPU/IR/TileGPUDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct TestAxisInfoPass
    : public PassWrapper<TestAxisInfoPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAxisInfoPass)

  StringRef getArgument() const final { return "test-print-axis-info"; }
  StringRef getDescription() const final {
    return "Print the contiguity/divisibility/constancy analysis as remarks";
  }

  void runOnOperation() override {
    tile::ModuleAxisInfo axisInfo(getOperation());
    auto describe = [&](Value value) -> std::string {
      std::string text;
      llvm::raw_string_ostream os(text);
      if (const tile::AxisInfo *info = axisInfo.lookup(value))
        info->print(os);
      return text;
    };
    getOperation().walk([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        for (BlockArgument arg : func.getArguments())
          if (!describe(arg).empty())
            func.emitRemark()
                << "arg " << arg.getArgNumber() << ": " << describe(arg);
        return;
      }
      for (Value result : op->getResults()) {
        Type element = tile::getElementTypeOrSelf(result.getType());
        if (element.isIntOrIndex() || isa<tile::PointerType>(element))
          op->emitRemark() << describe(result);
      }
    });
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestAxisInfoPass() { PassRegistration<TestAxisInfoPass>(); }
} // namespace mlir::tile::test
