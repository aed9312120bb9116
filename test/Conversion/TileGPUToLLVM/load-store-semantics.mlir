// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -tilegpu-insert-barriers -convert-tilegpu-to-llvm -reconcile-unrealized-casts | FileCheck %s
// What a load and a store mean beyond their data: the cache operator,
// eviction priority and volatility (as Triton writes them); every access a
// side effect, so that LLVM neither merges a load with an earlier one across
// a store nor moves it; and a scalar load that is one value for the whole
// program where another program may be changing the word.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
// CHECK-LABEL: llvm.func @qualifiers
func.func @qualifiers(%p: tensor<128x!tile.ptr<f32>, #b>) {
  // CHECK: has_side_effects {{.*}}"ld.global.cg.b32
  %0 = tile.load %p {cache = 2 : i32} : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: has_side_effects {{.*}}"ld.global.ca.b32
  %1 = tile.load %p {cache = 1 : i32} : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: has_side_effects {{.*}}"ld.global.cv.b32
  %2 = tile.load %p {cache = 6 : i32} : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: has_side_effects {{.*}}"ld.global.L1::evict_first.b32
  %3 = tile.load %p {evict = 1 : i32} : tensor<128x!tile.ptr<f32>, #b>
  // A cache operator and an eviction priority: PTX takes one, the operator.
  // CHECK: has_side_effects {{.*}}"ld.global.cs.b32
  %4 = tile.load %p {cache = 3 : i32, evict = 2 : i32} : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: has_side_effects {{.*}}"ld.volatile.global.b32
  %5 = tile.load %p {cache = 2 : i32, isVolatile} : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: has_side_effects {{.*}}"st.global.wt.b32
  tile.store %p, %0 {cache = 5 : i32} : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: has_side_effects {{.*}}"st.global.L1::evict_last.b32
  tile.store %p, %1 {evict = 2 : i32} : tensor<128x!tile.ptr<f32>, #b>
  // A load-only operator on a store is dropped, as in Triton.
  // CHECK: has_side_effects {{.*}}"st.global.b32
  tile.store %p, %2 {cache = 1 : i32} : tensor<128x!tile.ptr<f32>, #b>
  return
}
}

// -----

// Without atomics, every thread reads a scalar itself.
// CHECK-LABEL: llvm.func @scalar_plain
// CHECK-NOT: nvvm.read.ptx.sreg.tid.x
// CHECK: "ld.global.b32 $0, [ $1 + 0 ];", "=r,l"
// CHECK-NOT: bar.sync
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @scalar_plain(%p: !tile.ptr<i32>, %q: !tile.ptr<i32>) {
  %0 = tile.load %p : !tile.ptr<i32>
  tile.store %q, %0 : !tile.ptr<i32>
  return
}
}

// -----

// In a kernel with atomics, thread 0 reads the scalar and passes it on
// through shared memory: every thread branches on the same value.
// CHECK-LABEL: llvm.func @scalar_under_lock
// CHECK: atom.global.acq_rel.gpu.cas.b32
// CHECK: nvvm.barrier
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK: "mov.b32 $0, $3;\0A\09@$2 ld.global.b32 $0, [ $1 + 0 ];", "=r,l,b,r" %{{.*}}, %[[FIRST]]
// CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;"
// CHECK: nvvm.barrier
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> i32
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @scalar_under_lock(%lock: !tile.ptr<i32>, %count: !tile.ptr<i32>, %out: !tile.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %old = tile.atomic_cas %lock, %c0, %c1 : !tile.ptr<i32>
  %n = tile.load %count : !tile.ptr<i32>
  %sum = arith.addi %old, %n : i32
  tile.store %out, %sum : !tile.ptr<i32>
  return
}
}

// -----

// A volatile scalar load is read once for the program too.
// CHECK-LABEL: llvm.func @volatile_scalar
// CHECK: "mov.b32 $0, $3;\0A\09@$2 ld.volatile.global.b32 $0, [ $1 + 0 ];"
// CHECK: "@$2 st.shared.b32 [ $0 + 0 ], $1;"
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @volatile_scalar(%p: !tile.ptr<i32>, %q: !tile.ptr<i32>) {
  %0 = tile.load %p {isVolatile} : !tile.ptr<i32>
  tile.store %q, %0 : !tile.ptr<i32>
  return
}
}
