//===- Passes.td - tile-dialect transformations ------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileRewriteBlockPointers
    : Pass<"tile-rewrite-block-pointers", "mlir::ModuleOp"> {
  let summary = "Block pointers as blocks of pointers and masks";
  let description = [{
    Replaces each block pointer (tile.make_block_ptr, tile.advance) by its
    parts, the base pointer and the shape, strides and offsets of every
    dimension, carried as separate values through scf.for, scf.while and
    scf.if; tile.block_load and tile.block_store become tile.load and
    tile.store of `base + sum((offset_d + arange(B_d)) * stride_d)` (i64),
    masked by `0 <= offset_d + i < shape_d` on the boundary-checked
    dimensions, with the padding as `other`. Runs on the tile dialect, for
    the interpreter and before convert-tile-to-tilegpu: AxisInfo then sees
    the contiguity of the stride-1 dimension as it sees any pointer
    arithmetic.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
