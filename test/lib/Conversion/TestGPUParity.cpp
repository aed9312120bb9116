//===- TestGPUParity.cpp - ops of the interpreter against the GPU's -------===//
//
// -test-print-gpu-parity prints, for the registered tile-dialect ops, those
// the interpreter runs but the GPU path does not lower ("interpreter only")
// and those the GPU path lowers but the interpreter does not run ("GPU
// only"; those it refuses with a diagnostic, such as inline PTX, are
// listed again as "refused by the interpreter").
// test/Conversion/gpu-parity.mlir holds the expected lists, so that
// the two cannot drift apart unnoticed: a new op, interpreter handler or GPU
// lowering changes the output.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/GPUSupport.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Interpreter/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;

namespace {
struct TestGPUParityPass
    : public PassWrapper<TestGPUParityPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestGPUParityPass)

  StringRef getArgument() const final { return "test-print-gpu-parity"; }
  StringRef getDescription() const final {
    return "Print the tile ops only the interpreter or only the GPU runs";
  }
  void getDependentDialects(DialectRegistry &registry) const override {
    registry.insert<tile::TileDialect>();
  }

  void runOnOperation() override {
    llvm::StringSet<> gpu, interpreter;
    for (const std::string &name : tile::getGPULoweredOpNames(&getContext()))
      gpu.insert(name);
    for (const std::string &name : tile::interp::getHandledOpNames())
      interpreter.insert(name);
    std::vector<std::string> tileOps;
    for (RegisteredOperationName name : getContext().getRegisteredOperations())
      if (name.getDialectNamespace() == "tile")
        tileOps.push_back(name.getStringRef().str());
    llvm::sort(tileOps);
    auto print = [&](StringRef label, const llvm::StringSet<> &has,
                     const llvm::StringSet<> &lacks) {
      llvm::outs() << label << ":";
      for (const std::string &name : tileOps)
        if (has.contains(name) && !lacks.contains(name))
          llvm::outs() << " " << name;
      llvm::outs() << "\n";
    };
    print("interpreter only", interpreter, gpu);
    print("GPU only", gpu, interpreter);
    // The GPU-only ops the interpreter refuses with a diagnostic at the op
    // (rather than failing on an op it does not know).
    llvm::StringSet<> refused;
    for (const std::string &name : tile::interp::getRefusedOpNames())
      refused.insert(name);
    print("refused by the interpreter", refused, interpreter);
  }
};
} // namespace

namespace mlir::tile::test {
void registerTestGPUParityPass() { PassRegistration<TestGPUParityPass>(); }
} // namespace mlir::tile::test
