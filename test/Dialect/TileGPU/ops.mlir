// RUN: tile-opt %s | tile-opt | FileCheck %s

// CHECK: #[[B:.*]] = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#b = #tilegpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
#c = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [0, 1]}>

// CHECK-LABEL: func.func @convert
func.func @convert(%x: tensor<32x32xf32, #b>) -> tensor<32x32xf32, #c> {
  // CHECK: tilegpu.convert_layout %{{.*}} : tensor<32x32xf32, #[[B]]> -> tensor<32x32xf32, #{{.*}}>
  %y = tilegpu.convert_layout %x : tensor<32x32xf32, #b> -> tensor<32x32xf32, #c>
  return %y : tensor<32x32xf32, #c>
}

// CHECK-LABEL: func.func @barrier
func.func @barrier() {
  // CHECK-NEXT: tilegpu.barrier{{$}}
  tilegpu.barrier
  return
}

#p = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
// CHECK-LABEL: func.func @pipelined_dot
// CHECK: %[[A:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
// CHECK: %[[B:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xbf16>
// CHECK: tilegpu.async_copy %{{.*}}, %[[A]][%{{.*}}], %{{.*}} : tensor<64x32x!tile.ptr<f16>, #{{.*}}> -> !tilegpu.memdesc<2x64x32xf16>, tensor<64x32xi1, #{{.*}}>
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.async_wait {pending = 0 : i32}
// CHECK: %[[D:.*]] = tilegpu.warpgroup_dot %[[A2:.*]], %[[B2:.*]][%{{.*}}], %{{.*}} : !tilegpu.memdesc<2x64x32xbf16>, !tilegpu.memdesc<2x32x64xbf16>, tensor<64x64xf32, #{{.*}}>
// CHECK: tilegpu.warpgroup_dot_wait %[[D]] {pending = 0 : i32}
func.func @pipelined_dot(%pa: tensor<64x32x!tile.ptr<f16>, #p>, %m: tensor<64x32xi1, #p>, %acc: tensor<64x64xf32, #mma>, %s: i32) -> tensor<64x64xf32, #mma> {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x32x64xbf16>
  tilegpu.async_copy %pa, %a[%s], %m : tensor<64x32x!tile.ptr<f16>, #p> -> !tilegpu.memdesc<2x64x32xf16>, tensor<64x32xi1, #p>
  tilegpu.async_commit_group
  tilegpu.async_wait {pending = 0 : i32}
  %a2 = tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xbf16>
  %d = tilegpu.warpgroup_dot %a2, %b[%s], %acc : !tilegpu.memdesc<2x64x32xbf16>, !tilegpu.memdesc<2x32x64xbf16>, tensor<64x64xf32, #mma>
  %w = tilegpu.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<64x64xf32, #mma>
  return %w : tensor<64x64xf32, #mma>
}

// -----

#sync = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 2], instrShape = [16, 32]}>
// CHECK-LABEL: func.func @shared_dot
// CHECK: tilegpu.shared_dot %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : !tilegpu.memdesc<3x64x32xf16>, !tilegpu.memdesc<3x32x64xf16>, tensor<64x64xf32, #{{.*}}>
func.func @shared_dot(%acc: tensor<64x64xf32, #sync>, %s: i32) -> tensor<64x64xf32, #sync> {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<3x32x64xf16>
  %d = tilegpu.shared_dot %a, %b[%s], %acc : !tilegpu.memdesc<3x64x32xf16>, !tilegpu.memdesc<3x32x64xf16>, tensor<64x64xf32, #sync>
  return %d : tensor<64x64xf32, #sync>
}

// -----

// A block stored into a stage for wgmma, and a warpgroup_dot that reads A
// at its own stage (a buffer of one stage) and B K-major.
// CHECK-LABEL: func.func @stored_operand
// CHECK: tilegpu.local_store %{{.*}}, %[[A:.*]][%[[C0:.*]]] : tensor<64x32xf16, #{{.*}}> -> !tilegpu.memdesc<1x64x32xf16>
// CHECK: tilegpu.warpgroup_dot %[[A]][%[[C0]]], %{{.*}}[%{{.*}}], %{{.*}} {b_k_major} : !tilegpu.memdesc<1x64x32xf16>, !tilegpu.memdesc<3x64x32xf16>, tensor<64x64xf32, #{{.*}}>
func.func @stored_operand(%x: tensor<64x32xf16, #p>, %acc: tensor<64x64xf32, #mma>, %s: i32) -> tensor<64x64xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<1x64x32xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
  tilegpu.local_store %x, %a[%c0] : tensor<64x32xf16, #p> -> !tilegpu.memdesc<1x64x32xf16>
  %d = tilegpu.warpgroup_dot %a[%c0], %b[%s], %acc {b_k_major} : !tilegpu.memdesc<1x64x32xf16>, !tilegpu.memdesc<3x64x32xf16>, tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// A warpgroup_dot whose A is an earlier dot's mma block in registers.
// CHECK-LABEL: func.func @register_operand
// CHECK: tilegpu.warpgroup_dot %{{.*}}, %{{.*}}[%{{.*}}], %{{.*}} : tensor<64x64xf16, #{{.*}}>, !tilegpu.memdesc<3x64x32xf16>, tensor<64x32xf32, #{{.*}}>
#mma64 = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#mma32 = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 32]}>
func.func @register_operand(%p: tensor<64x64xf16, #mma64>, %acc: tensor<64x32xf32, #mma32>, %s: i32) -> tensor<64x32xf32, #mma32> {
  %b = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
  %d = tilegpu.warpgroup_dot %p, %b[%s], %acc : tensor<64x64xf16, #mma64>, !tilegpu.memdesc<3x64x32xf16>, tensor<64x32xf32, #mma32>
  return %d : tensor<64x32xf32, #mma32>
}

// TMA copies into stages, completing on a buffer of mbarriers.
// CHECK-LABEL: func.func @tma_stages
// CHECK: %[[BAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<2>
// CHECK: tilegpu.init_barriers %[[BAR]] : !tilegpu.mbarriers<2>
// CHECK: tilegpu.tma_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}], %[[BAR]], %{{.*}} : <i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
// CHECK: tilegpu.tma_wait %[[BAR]][%{{.*}}], %{{.*}} : !tilegpu.mbarriers<2>
// CHECK: tilegpu.prefetch_tensormap %{{.*}} : <i8>
// CHECK: tilegpu.inval_barriers %[[BAR]] : !tilegpu.mbarriers<2>
func.func @tma_stages(%map: !tile.ptr<i8>, %row: i32, %col: i32, %s: i32, %phase: i32, %go: i1) {
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %bar = tilegpu.local_alloc : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.tma_copy %map[%row, %col], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x64xf16>, !tilegpu.mbarriers<2>
  tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
  tilegpu.prefetch_tensormap %map : !tile.ptr<i8>
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  return
}

// CHECK-LABEL: func.func @warp_all
// CHECK: %{{.*}} = tilegpu.warp_all %{{.*}} : tensor<64x64xi1, #{{.*}}>
func.func @warp_all(%x: tensor<64x64xi1, #mma>) -> i1 {
  %all = tilegpu.warp_all %x : tensor<64x64xi1, #mma>
  return %all : i1
}
