//===- TestTensorMapRecipes.cpp - evaluate recipes as a launcher does -----===//
//
// test-tensor-map-recipes reads the module's tilegpu.tensor-maps
// (tilegpu-hoist-tensor-maps) as the launchers read the PTX global, and
// prints each map's extents and row stride for the argument values the
// `args` option gives (argument i's integer value; the launchers pass the
// launch's), as a remark on the module for -verify-diagnostics or
// FileCheck: what tile-run and the C++ API would encode.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/TileGPU/IR/TensorMapRecipe.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace {
struct TestTensorMapRecipesPass
    : public PassWrapper<TestTensorMapRecipesPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestTensorMapRecipesPass)

  TestTensorMapRecipesPass() = default;
  TestTensorMapRecipesPass(const TestTensorMapRecipesPass &other)
      : PassWrapper(other) {}

  StringRef getArgument() const final { return "test-tensor-map-recipes"; }
  StringRef getDescription() const final {
    return "Evaluate the module's tensor map recipes for given arguments";
  }

  ListOption<int64_t> args{*this, "args",
                           llvm::cl::desc("Each argument's integer value")};

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto flat =
        module->getAttrOfType<DenseI64ArrayAttr>(tilegpu::kTensorMapsAttr);
    if (!flat) {
      module.emitRemark() << "no tensor maps";
      return;
    }
    auto recipes = tilegpu::parseTensorMapRecipes(flat.asArrayRef());
    if (!recipes) {
      module.emitRemark() << "malformed recipes";
      return;
    }
    auto argument = [&](int64_t index) -> std::optional<int64_t> {
      if (index < 0 || size_t(index) >= args.size())
        return std::nullopt;
      return args[index];
    };
    auto show = [&](InFlightDiagnostic &remark, ArrayRef<int64_t> steps) {
      if (std::optional<int64_t> value =
              tilegpu::evaluateTensorMapSteps(steps, argument))
        remark << *value;
      else
        remark << "none";
    };
    for (const tilegpu::TensorMapRecipe &recipe : *recipes) {
      InFlightDiagnostic remark = module.emitRemark();
      remark << "map %arg" << recipe.argument << " of %arg" << recipe.base
             << ": " << recipe.blockRows << "x" << recipe.blockCols
             << (recipe.element == 0 ? " f16" : " bf16") << " boxes, shape (";
      show(remark, recipe.rows);
      remark << ", ";
      show(remark, recipe.cols);
      remark << "), row stride ";
      show(remark, recipe.rowStride);
    }
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestTensorMapRecipesPass() {
  PassRegistration<TestTensorMapRecipesPass>();
}
} // namespace mlir::tile::test
