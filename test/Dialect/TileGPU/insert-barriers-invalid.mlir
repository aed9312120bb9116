// RUN: tile-opt %s -tilegpu-insert-barriers -verify-diagnostics
// The barrier analysis needs the allocator's offsets.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @unplaced(%x: tensor<256xf32, #a>) -> tensor<256xf32, #b> {
  // expected-error @below {{needs 1024 bytes of shared memory but has no tilegpu.shared_offset; run tilegpu-allocate-shared-memory first}}
  %0 = tilegpu.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %0 : tensor<256xf32, #b>
}
