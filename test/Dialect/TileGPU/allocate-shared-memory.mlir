// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory | FileCheck %s
// RUN: not tile-opt %s -tilegpu-allocate-shared-memory=shared-memory-limit=1000 2>&1 | FileCheck %s --check-prefix=SMALL
// Every op with a scratch buffer gets its offset; the module gets the bytes
// of its most demanding function.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {tilegpu.shared = 1024 : i32}
module {
// CHECK-LABEL: func.func @one
func.func @one(%x: tensor<256xf32, #a>) -> (f32, tensor<256xf32, #b>) {
  // CHECK: tile.reduce{{.*}}tilegpu.shared_offset = 0 : i32
  %0 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32} : (tensor<256xf32, #a>) -> f32
  // CHECK: tilegpu.convert_layout {{.*}}{tilegpu.shared_offset = 0 : i32}
  %1 = tilegpu.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  // A conversion that moves nothing needs no buffer; a stale offset goes.
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<256xf32, #{{.*}}> -> tensor<256xf32, #{{.*}}>{{$}}
  %2 = tilegpu.convert_layout %x {tilegpu.shared_offset = 7 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #a>
  return %0, %1 : f32, tensor<256xf32, #b>
}
// CHECK-LABEL: func.func @two
func.func @two(%x: tensor<256xf32, #a>) -> f32 {
  // CHECK: tilegpu.shared_offset = 0 : i32
  %0 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.maxnumf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32} : (tensor<256xf32, #a>) -> f32
  return %0 : f32
}
}
// SMALL: error: the kernel needs 1024 bytes of shared memory; the limit is 1000
