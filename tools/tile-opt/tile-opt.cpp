//===- tile-opt.cpp - Tile's mlir-opt ------------------------------------===//
//
// Runs pass pipelines over tile, tilegpu and LLVM-dialect IR with MLIR's
// standard driver (pass-pipeline syntax, --mlir-print-ir-after-all,
// --verify-diagnostics, --split-input-file). A .tile file is accepted too:
// its kernel is first compiled to the tile dialect, specialized by the
// launch description the file carries.
//
//===----------------------------------------------------------------------===//

#include "tile/InitTile.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::tile::registerTilePasses();
  mlir::DialectRegistry registry;
  mlir::tile::registerTileDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tile optimizer driver\n", registry));
}
