//===- Passes.td - tilegpu transformations -----------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileGPUCoalesce : Pass<"tilegpu-coalesce", "mlir::ModuleOp"> {
  let summary = "Give each global load and store its widest coalesced layout";
  let description = [{
    From the contiguity and divisibility analysis, picks for each tile.load
    and tile.store a blocked layout whose fastest axis is the pointers' most
    contiguous one and whose per-thread run is as long as contiguity,
    alignment and a 128-bit access allow. Operands and results are wrapped
    in tilegpu.convert_layout; tilegpu-remove-layout-conversions removes what
    it can.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

def TileGPURemoveLayoutConversions
    : Pass<"tilegpu-remove-layout-conversions", "mlir::ModuleOp"> {
  let summary = "Remove layout conversions by rematerializing cheap values";
  let description = [{
    A conversion whose source is computed by a cheap op without side effects
    (a constant, splat, make_range, addptr or elementwise op) is replaced by
    that op recomputed in the target layout, its operands converted instead.
    Conversions of conversions fold, identity conversions vanish.
  }];
  let dependentDialects = ["::mlir::tilegpu::TileGPUDialect"];
}

#endif // TILE_DIALECT_TILEGPU_TRANSFORMS_PASSES_TD
