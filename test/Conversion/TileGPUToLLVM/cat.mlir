// RUN: tile-opt %s -tilegpu-allocate-shared-memory -tilegpu-insert-barriers -convert-tilegpu-to-llvm | FileCheck %s
// A cat writes its first operand's elements, then its second's (offset by
// the first's 256 elements), to its scratch buffer in row-major order and
// reads them back in the result's layout.

#a = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
// CHECK: llvm.mlir.global internal @tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x i8>
// CHECK-LABEL: llvm.func @cat
// CHECK: llvm.mlir.constant(256 : i32)
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @cat(%p: tensor<256x!tile.ptr<f32>, #a>, %q: tensor<512x!tile.ptr<f32>, #a>) {
  %x = tile.load %p : tensor<256x!tile.ptr<f32>, #a>
  %y = tile.cat %x, %x : tensor<256xf32, #a> -> tensor<512xf32, #a>
  tile.store %q, %y : tensor<512x!tile.ptr<f32>, #a>
  return
}
}
