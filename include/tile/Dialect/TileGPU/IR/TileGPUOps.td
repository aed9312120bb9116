//===- TileGPUOps.td - tilegpu operations ------------------*- tablegen -*-===//

#ifndef TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
#define TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD

include "tile/Dialect/TileGPU/IR/TileGPUAttrs.td"
include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class TileGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileGPU_Dialect, mnemonic, traits>;

def TileGPU_ConvertLayoutOp : TileGPU_Op<"convert_layout", [Pure,
    SameOperandsAndResultShape, SameOperandsAndResultElementType]> {
  let summary = "Redistribute a tensor to another layout";
  let description = [{
    Same values, another layout. Passes remove the ones they can; the rest
    move data between threads.
  }];
  let arguments = (ins Tile_Tensor:$src);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasFolder = 1;
}

def TileGPU_BarrierOp : TileGPU_Op<"barrier",
    [MemoryEffects<[MemRead<DefaultResource>, MemWrite<DefaultResource>]>]> {
  let summary = "Synchronize the threads of a program (bar.sync 0)";
  let description = [{
    Every thread of the program reaches it before any passes, and shared
    memory accesses before it are visible to every thread after it.
    tilegpu-insert-barriers places it where shared-memory accesses of
    different ops would otherwise race.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TILE_DIALECT_TILEGPU_IR_TILEGPUOPS_TD
