// RUN: tile-opt %s -convert-tilegpu-to-llvm -verify-diagnostics
// A lone 8-bit element needs packing into a 16-bit PTX register; until that
// exists it is a diagnostic, not bad PTX.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
func.func @bytes(%p: tensor<128x!tile.ptr<i8>, #a>) {
  // expected-error @+2 {{a 8-bit global access (one 8-bit element) is not supported yet}}
  // expected-error @+1 {{failed to legalize operation 'tile.load'}}
  %v = tile.load %p : tensor<128x!tile.ptr<i8>, #a>
  return
}
}
