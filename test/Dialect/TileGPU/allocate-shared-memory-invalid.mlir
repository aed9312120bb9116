// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -verify-diagnostics
// More shared memory than the limit (by default 48 KiB, static shared
// memory) is an error at the op whose buffer reaches highest, with the
// numbers.

#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>
func.func @too_much(%x: tensor<64x256xf32, #a>) -> (tensor<64x256xf32, #b>, tensor<256xf32, #tilegpu.slice<{dim = 0, parent = #b}>>) {
  // expected-error @below {{the kernel needs 65536 bytes of shared memory; the limit is 49152}}
  // expected-note @below {{this op's buffer takes bytes 0 to 65536 (65536 bytes)}}
  %x1 = tilegpu.convert_layout %x : tensor<64x256xf32, #a> -> tensor<64x256xf32, #b>
  %0 = "tile.reduce"(%x1) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32} : (tensor<64x256xf32, #b>) -> tensor<256xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
  return %x1, %0 : tensor<64x256xf32, #b>, tensor<256xf32, #tilegpu.slice<{dim = 0, parent = #b}>>
}
