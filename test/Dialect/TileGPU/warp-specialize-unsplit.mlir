// RUN: tile-opt %s -split-input-file -tilegpu-warp-specialize=all-kernels=1 | FileCheck %s
// Kernels tilegpu-warp-specialize leaves as they are, even when asked to
// split every kernel: each would have a stage refilled, or a barrier
// initialized, while the other side still uses it.

module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {

// The mbarriers are initialized in the loop (a persistent kernel's per-tile
// pipeline): the producer would run ahead of the consumers' inits.
// CHECK-LABEL: func.func @init_in_loop
// CHECK-NOT: tilegpu.warp_roles
// CHECK: return
func.func @init_in_loop(%map: !tile.ptr<i8>, %n: i32, %s: i32, %phase: i32, %go: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %rel = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  scf.for %i = %c0 to %n step %c1 : i32 {
    tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
    tilegpu.init_barriers %rel {arrivals = 8 : i32} : !tilegpu.mbarriers<2>
    tilegpu.acquire_stage %rel[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
    tilegpu.tma_copy %map[%i, %c0], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
    tilegpu.release_stage %rel[%s] : !tilegpu.mbarriers<2>
    tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
    tilegpu.inval_barriers %rel : !tilegpu.mbarriers<2>
  }
  return
}

// Buffer %b is filled twice and never acquired: only a program barrier
// orders its refill after the reads, which the producer does not join.
// CHECK-LABEL: func.func @refill_without_acquire
// CHECK-NOT: tilegpu.warp_roles
// CHECK: return
func.func @refill_without_acquire(%map: !tile.ptr<i8>, %n: i32, %s: i32, %phase: i32, %go: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %rel = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %rel {arrivals = 8 : i32} : !tilegpu.mbarriers<2>
  scf.for %i = %c0 to %n step %c1 : i32 {
    tilegpu.acquire_stage %rel[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
    tilegpu.tma_copy %map[%i, %c0], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    tilegpu.tma_copy %map[%i, %c1], %b[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    tilegpu.tma_copy %map[%c1, %i], %b[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
    tilegpu.release_stage %rel[%s] : !tilegpu.mbarriers<2>
  }
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %rel : !tilegpu.mbarriers<2>
  return
}

// Buffer %b has one stage and one copy, but the copy is in the loop: each
// iteration refills it without an acquire.
// CHECK-LABEL: func.func @one_stage_refilled_in_loop
// CHECK-NOT: tilegpu.warp_roles
// CHECK: return
func.func @one_stage_refilled_in_loop(%map: !tile.ptr<i8>, %n: i32, %s: i32, %phase: i32, %go: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<1x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %barb = tilegpu.local_alloc : !tilegpu.mbarriers<1>
  %rel = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %barb : !tilegpu.mbarriers<1>
  tilegpu.init_barriers %rel {arrivals = 8 : i32} : !tilegpu.mbarriers<2>
  scf.for %i = %c0 to %n step %c1 : i32 {
    tilegpu.acquire_stage %rel[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
    tilegpu.tma_copy %map[%i, %c0], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    tilegpu.tma_copy %map[%i, %c1], %b[%c0], %barb, %go : !tile.ptr<i8> -> !tilegpu.memdesc<1x64x64xf16>, !tilegpu.mbarriers<1>
    tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
    tilegpu.release_stage %rel[%s] : !tilegpu.mbarriers<2>
  }
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %barb : !tilegpu.mbarriers<1>
  tilegpu.inval_barriers %rel : !tilegpu.mbarriers<2>
  return
}

// Two pipelines one after the other: the second's barriers are initialized
// after the first's are invalidated.
// CHECK-LABEL: func.func @pipelines_in_sequence
// CHECK-NOT: tilegpu.warp_roles
// CHECK: return
func.func @pipelines_in_sequence(%map: !tile.ptr<i8>, %s: i32, %phase: i32, %go: i1) {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %rel = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %rel {arrivals = 8 : i32} : !tilegpu.mbarriers<2>
  tilegpu.acquire_stage %rel[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
  tilegpu.tma_copy %map[%c0, %c0], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  %bar2 = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar2 : !tilegpu.mbarriers<2>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  tilegpu.tma_copy %map[%s, %c0], %b[%s], %bar2, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  tilegpu.tma_wait %bar2[%s], %phase : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %bar2 : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %rel : !tilegpu.mbarriers<2>
  return
}

// A copy's coordinate comes from a loaded tensor (a gather's index): the
// producer warp cannot compute it, since tensors are laid out over the
// consumer warps, and the load may not stay before the split, which both
// sides run.
// CHECK-LABEL: func.func @coordinate_from_tensor
// CHECK-NOT: tilegpu.warp_roles
// CHECK: return
func.func @coordinate_from_tensor(%map: !tile.ptr<i8>, %idx: tensor<32x!tile.ptr<i32>>, %n: i32, %s: i32, %phase: i32, %go: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %rel = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %rel {arrivals = 8 : i32} : !tilegpu.mbarriers<2>
  %rows = tile.load %idx : tensor<32x!tile.ptr<i32>>
  %row = tile.reduce(%rows) {axis = 0 : i32} : (tensor<32xi32>) -> i32 {
  ^bb0(%x: i32, %y: i32):
    %m = arith.maxsi %x, %y : i32
    tile.reduce_return %m : i32
  }
  tilegpu.acquire_stage %rel[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
  tilegpu.tma_copy %map[%row, %c0], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
  tilegpu.release_stage %rel[%s] : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %rel : !tilegpu.mbarriers<2>
  return
}

// The same kernel with a scalar coordinate is split: the check above is
// what stopped it.
// CHECK-LABEL: func.func @coordinate_from_scalar
// CHECK: tilegpu.warp_roles
func.func @coordinate_from_scalar(%map: !tile.ptr<i8>, %row: i32, %s: i32, %phase: i32, %go: i1) {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %rel = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %rel {arrivals = 8 : i32} : !tilegpu.mbarriers<2>
  tilegpu.acquire_stage %rel[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
  tilegpu.tma_copy %map[%row, %c0], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
  tilegpu.release_stage %rel[%s] : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %rel : !tilegpu.mbarriers<2>
  return
}
}

// -----

// With 32 warps the producer's 4 would make a program of 1152 threads,
// more than the 1024 one may have.
module attributes {"tilegpu.num-warps" = 32 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
// CHECK-LABEL: func.func @too_many_warps
// CHECK-NOT: tilegpu.warp_roles
// CHECK: return
func.func @too_many_warps(%map: !tile.ptr<i8>, %row: i32, %s: i32, %phase: i32, %go: i1) {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %rel = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %rel {arrivals = 32 : i32} : !tilegpu.mbarriers<2>
  tilegpu.acquire_stage %rel[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
  tilegpu.tma_copy %map[%row, %c0], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
  tilegpu.release_stage %rel[%s] : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %rel : !tilegpu.mbarriers<2>
  return
}
}
