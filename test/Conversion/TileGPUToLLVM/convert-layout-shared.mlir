// RUN: tile-opt %s -tilegpu-allocate-shared-memory=stagger=false -tilegpu-insert-barriers -convert-tilegpu-to-llvm | FileCheck %s
// RUN: tile-opt %s -tilegpu-allocate-shared-memory -tilegpu-insert-barriers -convert-tilegpu-to-llvm | FileCheck %s --check-prefix=STAGGER
// A layout change that moves data between threads goes through its buffer
// in shared memory: each thread's stores, a barrier, the loads the new
// layout needs. A barrier before the stores is tilegpu-insert-barriers'
// business: the first user needs none, the second, reusing the bytes, does
// (lowered to nvvm.barrier0). The module's shared memory is one global of
// the allocated size. Staggered (the default), the second conversion gets
// bytes of its own and needs no barrier before it.
// STAGGER: llvm.mlir.global internal @tile_smem() {{.*}} : !llvm.array<2048 x i8>
// STAGGER-COUNT-2: nvvm.barrier0
// STAGGER-NOT: nvvm.barrier0

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: module attributes {{{.*}}tilegpu.shared = 1024 : i32
// CHECK: llvm.mlir.global internal @tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<1024 x i8>
module attributes {"tilegpu.num-warps" = 4 : i32} {
// CHECK-LABEL: llvm.func @moves_data
func.func @moves_data(%p: tensor<256x!tile.ptr<f32>, #a>, %q: tensor<256x!tile.ptr<f32>, #b>) {
  %v = tile.load %p : tensor<256x!tile.ptr<f32>, #a>
  // CHECK-NOT: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store {{.*}} : f32, !llvm.ptr<3>
  // CHECK-NOT: llvm.load
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> f32
  %c = tilegpu.convert_layout %v : tensor<256xf32, #a> -> tensor<256xf32, #b>
  // CHECK-NOT: llvm.store {{.*}} !llvm.ptr<3>
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.store {{.*}} : f32, !llvm.ptr<3>
  // CHECK-NOT: llvm.load
  // CHECK: nvvm.barrier0
  // CHECK-COUNT-2: llvm.load {{.*}} : !llvm.ptr<3> -> f32
  %d = tilegpu.convert_layout %v : tensor<256xf32, #a> -> tensor<256xf32, #b>
  tile.store %q, %c : tensor<256x!tile.ptr<f32>, #b>
  tile.store %q, %d : tensor<256x!tile.ptr<f32>, #b>
  return
}
}
