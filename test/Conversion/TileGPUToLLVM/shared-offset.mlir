// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -verify-diagnostics | FileCheck %s
// Each scratch user addresses its buffer at its tilegpu.shared_offset in the
// module's shared memory; tilegpu.barrier is bar.sync 0.

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK: llvm.mlir.global internal @tile_smem() {{.*}} : !llvm.array<64 x i8>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.shared = 64 : i32} {
// CHECK-LABEL: llvm.func @at_offset
func.func @at_offset(%x: tensor<256xf32, #a>) {
  // CHECK: nvvm.barrier0
  tilegpu.barrier
  // The partial of warp w goes to byte 48 + 4 w.
  // CHECK: %[[BASE:.*]] = llvm.mlir.addressof @tile_smem
  // CHECK: %[[OFF:.*]] = llvm.mlir.constant(48 : i32)
  // CHECK: %[[SUM:.*]] = llvm.add %[[OFF]], %{{.*}} : i32
  // CHECK: llvm.getelementptr %[[BASE]][%[[SUM]]]
  // CHECK: llvm.store {{.*}} : f32, !llvm.ptr<3>
  %0 = "tile.reduce"(%x) ({
  ^bb0(%l: f32, %r: f32):
    %m = arith.addf %l, %r : f32
    tile.reduce_return %m : f32
  }) {axis = 0 : i32, tilegpu.shared_offset = 48 : i32} : (tensor<256xf32, #a>) -> f32
  return
}
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32} {
func.func @unplaced(%x: tensor<256xf32, #a>) -> tensor<256xf32, #b> {
  // expected-error @below {{needs 1024 bytes of shared memory but has no tilegpu.shared_offset; run tilegpu-allocate-shared-memory and tilegpu-insert-barriers first}}
  %0 = tilegpu.convert_layout %x : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %0 : tensor<256xf32, #b>
}
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.shared = 1024 : i32} {
func.func @outside(%x: tensor<256xf32, #a>) -> tensor<256xf32, #b> {
  // expected-error @below {{its shared-memory buffer (bytes 16 to 1040) lies outside the module's tilegpu.shared = 1024 bytes}}
  %0 = tilegpu.convert_layout %x {tilegpu.shared_offset = 16 : i32} : tensor<256xf32, #a> -> tensor<256xf32, #b>
  return %0 : tensor<256xf32, #b>
}
}

// -----

// Over 48 KiB, shared memory is dynamic: an extern array, and its size in a
// global the launch reads.
// CHECK-LABEL: module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.shared = 65536 : i32}
// CHECK-DAG: llvm.mlir.global external @tile_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-DAG: llvm.mlir.global external constant @tile_dynamic_shared_bytes(65536 : i32) {addr_space = 1 : i32, alignment = 4 : i64} : i32
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.shared = 65536 : i32} {
}
