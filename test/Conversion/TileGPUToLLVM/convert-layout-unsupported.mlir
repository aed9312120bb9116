// RUN: tile-opt %s -convert-tilegpu-to-llvm -verify-diagnostics
// Layout changes that move data between threads need shared memory, which
// comes with the shared-memory allocator; until then they are a diagnostic,
// never a crash.


#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
func.func @needs_shared_memory(%p: tensor<256x!tile.ptr<f32>, #a>) {
  %v = tile.load %p : tensor<256x!tile.ptr<f32>, #a>
  // expected-error-re @+2 {{moving data between threads {{.*}} needs shared memory, which this compiler does not allocate yet}}
  // expected-error @+1 {{failed to legalize operation 'tilegpu.convert_layout'}}
  %c = tilegpu.convert_layout %v : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return
}
}
