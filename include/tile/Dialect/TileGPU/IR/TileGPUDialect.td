//===- TileGPUDialect.td - GPU-level tile IR ---------------*- tablegen -*-===//
//
// The tilegpu dialect is the GPU-level form of a tile program: the tile ops
// stay, but every block-valued tensor carries a layout attribute (its
// `encoding`) saying which thread of the program holds which element. It adds
// the layouts and the ops that move data between them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def TileGPU_Dialect : Dialect {
  let name = "tilegpu";
  let cppNamespace = "::mlir::tilegpu";
  let summary = "Tile programs with distributed layouts, for NVIDIA GPUs";
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let dependentDialects = ["::mlir::tile::TileDialect"];
  let extraClassDeclaration = [{
    // Module attributes written by convert-tile-to-tilegpu.
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return ::llvm::StringLiteral("tilegpu.num-warps");
    }
    static constexpr ::llvm::StringLiteral getThreadsPerWarpAttrName() {
      return ::llvm::StringLiteral("tilegpu.threads-per-warp");
    }
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("tilegpu.target");
    }
  }];
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUDIALECT_TD
