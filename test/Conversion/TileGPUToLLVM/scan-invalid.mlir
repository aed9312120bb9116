// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -tilegpu-insert-barriers -convert-tilegpu-to-llvm -verify-diagnostics
// Scans are lowered from blocked layouts, one for the operands and results
// (convert-tile-to-tilegpu gives them that); anything else is a diagnostic.

#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#s = #tilegpu.slice<{dim = 1, parent = #b}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
func.func @slice_operand(%v: tensor<64xf32, #s>) {
  // expected-error @+2 {{scanning a tensor of layout}}
  // expected-error @+1 {{failed to legalize operation 'tile.scan'}}
  %s = tile.scan(%v) {axis = 0 : i32} : (tensor<64xf32, #s>) -> tensor<64xf32, #s> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.scan_return %z : f32
  }
  return
}
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
func.func @mixed_layouts(%v: tensor<256xf32, #a>) {
  // expected-error @+2 {{operands and results must share one blocked layout}}
  // expected-error @+1 {{failed to legalize operation 'tile.scan'}}
  %s = tile.scan(%v) {axis = 0 : i32} : (tensor<256xf32, #a>) -> tensor<256xf32, #c> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.scan_return %z : f32
  }
  return
}
}
