// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// A plain buffer of 1-D stages (a loop's staged side load): element i of
// stage s at byte (s * 16 + i) * 4. The 16 f32 of the copy are replicated
// over the 128 threads, so only the thread holding an element's first copy
// copies it (predicate $3), 4 bytes with cp.async.ca, zero-filled where the
// mask is off (source size 0). local_load reads each register's element
// from the stage in the result's own layout.

#l = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#r = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 128 : i32} {
// CHECK-LABEL: llvm.func @plain_stage
func.func @plain_stage(%base: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %s: i32, %n: i32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %buf = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<2x16xf32>
  %r = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #l>
  %ps = tile.splat %base : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>, #l>
  %p = tile.addptr %ps, %r : tensor<16x!tile.ptr<f32>, #l>, tensor<16xi32, #l>
  %ns = tile.splat %n : i32 -> tensor<16xi32, #l>
  %mask = arith.cmpi slt, %r, %ns : tensor<16xi32, #l>
  // CHECK: llvm.mul %{{.*}}, %{{.*}} : i32
  // CHECK: "@$3 cp.async.ca.shared.global [$0 + 0], [$1], 4, $2;", "r,l,r,b"
  // CHECK-NOT: cp.async.ca
  tilegpu.async_copy %p, %buf[%s], %mask : tensor<16x!tile.ptr<f32>, #l> -> !tilegpu.memdesc<2x16xf32>, tensor<16xi1, #l>
  tilegpu.async_commit_group
  tilegpu.async_wait {pending = 0 : i32}
  // CHECK: llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  // CHECK: llvm.inttoptr %{{.*}} : i32 to !llvm.ptr<3>
  // CHECK-NEXT: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
  %v = tilegpu.local_load %buf[%s] : !tilegpu.memdesc<2x16xf32> -> tensor<16xf32, #r>
  %r2 = tile.make_range {start = 0 : i32, end = 16 : i32} : tensor<16xi32, #r>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>, #r>
  %o = tile.addptr %os, %r2 : tensor<16x!tile.ptr<f32>, #r>, tensor<16xi32, #r>
  tile.store %o, %v : tensor<16x!tile.ptr<f32>, #r>
  return
}
}
