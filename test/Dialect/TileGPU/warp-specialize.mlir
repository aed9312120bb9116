// RUN: tile-opt %s -convert-tile-to-tilegpu="num-warps=8 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse -tilegpu-warp-specialize | FileCheck %s
// RUN: tile-opt %s -convert-tile-to-tilegpu="num-warps=8 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse -tilegpu-warp-specialize=all-kernels=1 | FileCheck %s --check-prefix=ALL

// Attention's loop with k and v copied by TMA in two warpgroups, whose
// stages tilegpu-pipeline releases on mbarriers. A loop that asks for warp
// specialization (tl.range's warp_specialize) splits its kernel: the
// mbarriers are allocated and initialized first; then a producer
// warpgroup (its 40 registers) runs a copy of the rest cut down to the
// tensor-map prefetches, the copies of the first stages, and a loop of
// acquires and copies that carries only its stage indices and phase;
// the consumers (232 registers) run the rest without them: they wait for
// stages, compute, release stages, invalidate the mbarriers and store.
// The module records the 4 added warps.
// CHECK: module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.producer-warps" = 4 : i32
// CHECK-LABEL: func.func @requested
// CHECK-COUNT-6: tilegpu.local_alloc
// CHECK-COUNT-4: tilegpu.init_barriers
// CHECK-NEXT: %[[PRODUCER:.*]] = tilegpu.in_producer_warp
// CHECK-NEXT: scf.if %[[PRODUCER]] {
// CHECK-NEXT: tilegpu.set_max_registers 40
// CHECK-NEXT: tilegpu.prefetch_tensormap
// CHECK-NEXT: tilegpu.prefetch_tensormap
// CHECK-NOT: tensor<
// CHECK: tilegpu.tma_copy
// CHECK: tilegpu.tma_copy
// CHECK: tilegpu.tma_copy
// CHECK: tilegpu.tma_copy
// CHECK: scf.for {{.*}} -> (i32, i32, i32)
// CHECK-NOT: tensor<
// CHECK: tilegpu.acquire_stage
// CHECK-NEXT: tilegpu.acquire_stage
// CHECK-NOT: tensor<
// CHECK: tilegpu.tma_copy
// CHECK-NEXT: tilegpu.tma_copy
// CHECK-NOT: tensor<
// CHECK: } {tile.warp_specialize}
// CHECK-NEXT: } else {
// CHECK-NEXT: tilegpu.set_max_registers 232
// CHECK-NOT: tilegpu.tma_copy
// CHECK-NOT: tilegpu.acquire_stage
// CHECK-NOT: tilegpu.prefetch_tensormap
// CHECK: scf.for
// CHECK-NEXT: tilegpu.tma_wait
// CHECK-NEXT: tilegpu.tma_wait
// CHECK-NOT: tilegpu.tma_copy
// CHECK: tilegpu.warpgroup_dot
// CHECK: tilegpu.release_stage
// CHECK: tilegpu.warpgroup_dot
// CHECK: tilegpu.release_stage
// CHECK: tilegpu.inval_barriers
// CHECK: tile.store
// CHECK-NEXT: } {tilegpu.warp_roles}
// A kernel that does not ask is split only with all-kernels.
// CHECK-LABEL: func.func @not_requested
// CHECK-NOT: tilegpu.warp_roles
// CHECK: tilegpu.tma_copy
// CHECK-NOT: tilegpu.warp_roles
// CHECK: return
// ALL-LABEL: func.func @requested
// ALL: tilegpu.warp_roles
// ALL-LABEL: func.func @not_requested
// ALL: tilegpu.in_producer_warp
// ALL: tilegpu.warp_roles
func.func @requested(%q: tensor<128x64xf16>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %half = arith.constant dense<0.5> : tensor<128x64xf32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %cols = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %k0 = tile.addptr %ks, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %v0 = tile.addptr %vs, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %k0, %pv = %v0) -> (tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>) : i32 {
    %row = arith.muli %i, %c64i : i32
    %kb = tile.load %pk tensormap %tk[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
    %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tile.dot %q, %kt, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %p = math.exp2 %s : tensor<128x64xf32>
    %p16 = arith.truncf %p : tensor<128x64xf32> to tensor<128x64xf16>
    %vb = tile.load %pv tensormap %tv[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
    %scaled = arith.mulf %acc, %half : tensor<128x64xf32>
    %o = tile.dot %p16, %vb, %scaled : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %pkn = tile.addptr %pk, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %pvn = tile.addptr %pv, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    scf.yield %o, %pkn, %pvn : tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>
  } {tile.warp_specialize}
  %r128 = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %orow = tile.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %c64o = arith.constant dense<64> : tensor<128x1xi32>
  %orowOff = arith.muli %orow, %c64o : tensor<128x1xi32>
  %orowb = tile.broadcast %orowOff : tensor<128x1xi32> -> tensor<128x64xi32>
  %ocolb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<128x64xi32>
  %ooff = arith.addi %orowb, %ocolb : tensor<128x64xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x64x!tile.ptr<f32>>
  %op = tile.addptr %os, %ooff : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
  tile.store %op, %res#0 : tensor<128x64x!tile.ptr<f32>>
  return
}

func.func @not_requested(%q: tensor<128x64xf16>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32, %out: !tile.ptr<f32> {tile.divisibility = 16 : i32}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %half = arith.constant dense<0.5> : tensor<128x64xf32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %cols = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %k0 = tile.addptr %ks, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %v0 = tile.addptr %vs, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %k0, %pv = %v0) -> (tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>) : i32 {
    %row = arith.muli %i, %c64i : i32
    %kb = tile.load %pk tensormap %tk[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
    %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tile.dot %q, %kt, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %p = math.exp2 %s : tensor<128x64xf32>
    %p16 = arith.truncf %p : tensor<128x64xf32> to tensor<128x64xf16>
    %vb = tile.load %pv tensormap %tv[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
    %scaled = arith.mulf %acc, %half : tensor<128x64xf32>
    %o = tile.dot %p16, %vb, %scaled : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %pkn = tile.addptr %pk, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %pvn = tile.addptr %pv, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    scf.yield %o, %pkn, %pvn : tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>
  }
  %r128 = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %orow = tile.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %c64o = arith.constant dense<64> : tensor<128x1xi32>
  %orowOff = arith.muli %orow, %c64o : tensor<128x1xi32>
  %orowb = tile.broadcast %orowOff : tensor<128x1xi32> -> tensor<128x64xi32>
  %ocolb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<128x64xi32>
  %ooff = arith.addi %orowb, %ocolb : tensor<128x64xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x64x!tile.ptr<f32>>
  %op = tile.addptr %os, %ooff : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
  tile.store %op, %res#0 : tensor<128x64x!tile.ptr<f32>>
  return
}
