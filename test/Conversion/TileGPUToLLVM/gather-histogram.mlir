// RUN: tile-opt %s -tilegpu-allocate-shared-memory -tilegpu-insert-barriers -convert-tilegpu-to-llvm | FileCheck %s
// A gather writes its source to its scratch buffer in row-major order and,
// after a barrier, reads for each result element the source element whose
// coordinate along the axis is the index register, wrapped into the axis
// (& 63). A histogram zeroes its bins in its scratch buffer, adds each
// element once with a shared-memory atomic (the 16-element operand is
// replicated across the 128 threads: first copies only), and reads the
// bins back after a second barrier.

#a = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
// CHECK-LABEL: llvm.func @gather
// CHECK: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: %[[WRAP:.*]] = llvm.mlir.constant(63 : i32) : i32
// CHECK: llvm.and %{{.*}}, %[[WRAP]] : i32
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @gather(%p: tensor<16x64x!tile.ptr<f32>, #a>, %q: tensor<16x64x!tile.ptr<i32>, #a>) {
  %x = tile.load %p : tensor<16x64x!tile.ptr<f32>, #a>
  %i = tile.load %q : tensor<16x64x!tile.ptr<i32>, #a>
  %g = tile.gather %x[%i] {axis = 1 : i32} : tensor<16x64xf32, #a>, tensor<16x64xi32, #a> -> tensor<16x64xf32, #a>
  tile.store %p, %g : tensor<16x64x!tile.ptr<f32>, #a>
  return
}

// CHECK-LABEL: llvm.func @histogram
// CHECK: llvm.store %{{.*}}, %{{.*}} : i32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.icmp "ult"
// CHECK: llvm.atomicrmw add %{{.*}}, %{{.*}} monotonic : !llvm.ptr<3>, i32
// CHECK: nvvm.barrier0
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
func.func @histogram(%p: tensor<16x!tile.ptr<i32>, #l>, %q: tensor<64x!tile.ptr<i32>, #l>) {
  %x = tile.load %p : tensor<16x!tile.ptr<i32>, #l>
  %h = tile.histogram %x : tensor<16xi32, #l> -> tensor<64xi32, #l>
  tile.store %q, %h : tensor<64x!tile.ptr<i32>, #l>
  return
}
}
