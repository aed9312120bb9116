//===- tile-opt.cpp - Tile's mlir-opt ------------------------------------===//
//
// Runs pass pipelines over tile, tilegpu and LLVM-dialect IR with MLIR's
// standard driver (pass-pipeline syntax, --mlir-print-ir-after-all,
// --verify-diagnostics, --split-input-file). A .tile file is accepted too:
// its kernel is first compiled to the tile dialect, specialized by the
// launch description the file carries, keeping the .tile source locations.
//
//===----------------------------------------------------------------------===//

#include "tile/Driver/Compile.h"
#include "tile/InitTile.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

/// The tile-dialect IR of a .tile file's kernel, with locations, as text.
static std::unique_ptr<llvm::MemoryBuffer>
translateTileFile(llvm::StringRef path, DialectRegistry &registry) {
  std::unique_ptr<::tile::TileSource> source =
      ::tile::loadTileSource(path, {}, llvm::errs());
  if (!source)
    return nullptr;
  auto specialization = ::tile::specialize(*source);
  if (!specialization)
    return nullptr;
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  OwningOpRef<ModuleOp> module =
      ::tile::buildTileModule(context, *source, *specialization);
  if (!module)
    return nullptr;
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, OpPrintingFlags().enableDebugInfo());
  return llvm::MemoryBuffer::getMemBufferCopy(text, path);
}

// The test passes of test/lib, which print analyses and the ops the
// interpreter and the GPU path run.
namespace mlir::tile::test {
void registerTestAxisInfoPass();
void registerTestAllocationPass();
void registerTestMembarPass();
void registerTestProgramWorkPass();
void registerTestGPUParityPass();
void registerTestTensorMapRecipesPass();
} // namespace mlir::tile::test

int main(int argc, char **argv) {
  mlir::tile::registerTilePasses();
  mlir::tile::test::registerTestAxisInfoPass();
  mlir::tile::test::registerTestAllocationPass();
  mlir::tile::test::registerTestMembarPass();
  mlir::tile::test::registerTestProgramWorkPass();
  mlir::tile::test::registerTestGPUParityPass();
  mlir::tile::test::registerTestTensorMapRecipesPass();
  DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);

  bool tileInput = false;
  for (int i = 1; i < argc; ++i)
    tileInput |= llvm::StringRef(argv[i]).ends_with(".tile") &&
                 !llvm::StringRef(argv[i]).starts_with("-");
  if (!tileInput)
    return asMainReturnCode(
        MlirOptMain(argc, argv, "Tile optimizer driver\n", registry));

  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "Tile optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  std::unique_ptr<llvm::MemoryBuffer> input =
      translateTileFile(inputFilename, registry);
  if (!input)
    return 1;
  std::string error;
  auto output = openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return 1;
  output->keep();
  return 0;
}
