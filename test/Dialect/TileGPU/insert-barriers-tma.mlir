// RUN: tile-opt %s -split-input-file -tilegpu-allocate-shared-memory -tilegpu-insert-barriers | FileCheck %s

// A loop reading TMA-filled stages. The wait for a stage's phase makes the
// TMA's writes visible to every thread that waited, so the dot after it
// needs no barrier; the next copy into a stage the dot read does (the
// other warps may still be reading it). init_barriers ends with a barrier
// of its own and inval_barriers starts with one, so neither needs another.
// CHECK-LABEL: func.func @tma_loop
// CHECK: tilegpu.init_barriers
// CHECK-NOT: tilegpu.barrier
// CHECK: scf.for
// CHECK-NEXT: tilegpu.tma_wait
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.warpgroup_dot_wait
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.tma_copy
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.inval_barriers
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @tma_loop(%map: !tile.ptr<i8>, %acc0: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.tma_copy %map[%c0, %c0], %a[%c0], %bar, %true : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  tilegpu.tma_copy %map[%c0, %c0], %b[%c0], %bar, %true : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.tma_wait %bar[%c0], %c0 : !tilegpu.mbarriers<2>
    %d = tilegpu.warpgroup_dot %a, %b[%c0], %acc : !tilegpu.memdesc<2x64x64xf16>, !tilegpu.memdesc<2x64x64xf16>, tensor<64x64xf32, #mma>
    %w = tilegpu.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    tilegpu.tma_copy %map[%i, %c0], %a[%c1], %bar, %true : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  return %r : tensor<64x64xf32, #mma>
}
}

// -----

// The same loop with released stages: every warp releases the stage after
// its dot, and thread 0 acquires it before the copy, which orders the
// dot's reads of %a before the copy without a barrier. %b's reads stay
// pending: a copy into %b still gets one.
// CHECK-LABEL: func.func @released_stages
// CHECK: scf.for
// CHECK-NEXT: tilegpu.tma_wait
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.warpgroup_dot_wait
// CHECK-NEXT: tilegpu.release_stage
// CHECK-NEXT: tilegpu.acquire_stage {{.*}} for %[[A:[a-z0-9]+]]
// CHECK-NEXT: tilegpu.tma_copy %{{.*}}, %[[A]][
// CHECK-NEXT: tilegpu.barrier
// CHECK-NEXT: tilegpu.tma_copy
// CHECK-NEXT: scf.yield
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @released_stages(%map: !tile.ptr<i8>, %acc0: tensor<64x64xf32, #mma>, %n: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %true = arith.constant true
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  %released = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %released {arrivals = 4 : i32} : !tilegpu.mbarriers<2>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> (tensor<64x64xf32, #mma>) : i32 {
    tilegpu.tma_wait %bar[%c0], %c0 : !tilegpu.mbarriers<2>
    %d = tilegpu.warpgroup_dot %a, %b[%c0], %acc : !tilegpu.memdesc<2x64x64xf16>, !tilegpu.memdesc<2x64x64xf16>, tensor<64x64xf32, #mma>
    %w = tilegpu.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
    tilegpu.release_stage %released[%c0] : !tilegpu.mbarriers<2>
    tilegpu.acquire_stage %released[%c1], %c0, %true for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x64xf16>
    tilegpu.tma_copy %map[%i, %c0], %a[%c1], %bar, %true : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    tilegpu.tma_copy %map[%i, %c0], %b[%c1], %bar, %true : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
    scf.yield %w : tensor<64x64xf32, #mma>
  }
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %released : !tilegpu.mbarriers<2>
  return %r : tensor<64x64xf32, #mma>
}
}
