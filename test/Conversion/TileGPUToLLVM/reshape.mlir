// RUN: tile-opt %s -tilegpu-allocate-shared-memory -tilegpu-insert-barriers -convert-tilegpu-to-llvm | FileCheck %s
// A reshape passes its elements through its scratch buffer in row-major
// order: each thread writes its elements, a barrier, each thread reads the
// ones the result's layout gives it.

#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #tilegpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
// CHECK: llvm.mlir.global internal @tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<2048 x i8>
// CHECK-LABEL: llvm.func @reshape
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @reshape(%p: tensor<16x32x!tile.ptr<f32>, #a>, %q: tensor<512x!tile.ptr<f32>, #l>) {
  %x = tile.load %p : tensor<16x32x!tile.ptr<f32>, #a>
  %y = tile.reshape %x : tensor<16x32xf32, #a> -> tensor<512xf32, #l>
  tile.store %q, %y : tensor<512x!tile.ptr<f32>, #l>
  return
}
}
