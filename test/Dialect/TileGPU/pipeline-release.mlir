// RUN: tile-opt %s -convert-tile-to-tilegpu="num-warps=8 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s
// RUN: tile-opt %s -convert-tile-to-tilegpu="num-warps=4 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s --check-prefix=ONE

// Attention's loop with k and v copied by TMA, in a program of two
// warpgroups: besides the barriers the copies complete on, each load gets
// barriers its stages are released on, one arrival per warp. The body
// waits for iteration i's stages; thread 0 acquires the stages iteration
// i-1 read (the parity of that iteration's phase; not in the first
// iteration, nor where no copy follows) before copying iteration i + 2
// into them; each warp releases a stage after the wait of the dot that
// read it. After the loop all four sets of barriers are invalidated.
// CHECK-LABEL: func.func @attention_tma
// CHECK: %[[K:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK-NEXT: %[[KBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[KBAR]] :
// CHECK-NEXT: %[[KREL:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[KREL]] {arrivals = 8 : i32}
// CHECK: %[[V:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK-NEXT: %[[VBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[VBAR]] :
// CHECK-NEXT: %[[VREL:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[VREL]] {arrivals = 8 : i32}
// CHECK-NOT: acquire_stage
// CHECK: scf.for %[[I:[a-z0-9]+]] = %[[LB:[a-z0-9_]+]] to %[[UB:[a-z0-9_]+]] step {{.*}}, %[[READ:[a-z0-9]+]] = %{{.*}}, %[[WRITE:[a-z0-9]+]] = %{{.*}}, %[[PHASE:[a-z0-9]+]] = %{{.*}})
// CHECK-NEXT: tilegpu.tma_wait %[[KBAR]][%[[READ]]], %[[PHASE]]
// CHECK-NEXT: tilegpu.tma_wait %[[VBAR]][%[[READ]]], %[[PHASE]]
// CHECK: %[[IN:.*]] = arith.cmpi slt, %{{.*}}, %[[UB]]
// CHECK: %[[WRAPPED:.*]] = arith.cmpi eq, %[[READ]], %{{.*}}
// CHECK-NEXT: %[[FLIPPED:.*]] = arith.xori %[[PHASE]]
// CHECK-NEXT: %[[PREV:.*]] = arith.select %[[WRAPPED]], %[[FLIPPED]], %[[PHASE]]
// CHECK-NEXT: %[[LATER:.*]] = arith.cmpi ne, %[[I]], %[[LB]]
// CHECK-NEXT: %[[WAIT:.*]] = arith.andi %[[LATER]], %[[IN]]
// CHECK-NEXT: tilegpu.acquire_stage %[[KREL]][%[[WRITE]]], %[[PREV]], %[[WAIT]] for %[[K]]
// CHECK-NEXT: tilegpu.acquire_stage %[[VREL]][%[[WRITE]]], %[[PREV]], %[[WAIT]] for %[[V]]
// CHECK-NOT: tilegpu.barrier
// CHECK: tilegpu.tma_copy %{{.*}}, %[[K]][%[[WRITE]]], %[[KBAR]], %[[IN]]
// CHECK-NEXT: tilegpu.tma_copy %{{.*}}, %[[V]][%[[WRITE]]], %[[VBAR]], %[[IN]]
// CHECK-NEXT: %[[S:.*]] = tilegpu.warpgroup_dot %{{.*}}, %[[K]][%[[READ]]]
// CHECK-NEXT: tilegpu.warpgroup_dot_wait %[[S]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.release_stage %[[KREL]][%[[READ]]]
// CHECK: %[[O:.*]] = tilegpu.warpgroup_dot %{{.*}}, %[[V]][%[[READ]]]
// CHECK-NEXT: tilegpu.warpgroup_dot_wait %[[O]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.release_stage %[[VREL]][%[[READ]]]
// CHECK: tilegpu.inval_barriers %[[KBAR]]
// CHECK-NEXT: tilegpu.inval_barriers %[[VBAR]]
// CHECK-NEXT: tilegpu.inval_barriers %[[KREL]]
// CHECK-NEXT: tilegpu.inval_barriers %[[VREL]]
// One warpgroup keeps in step anyway: the loop keeps its barrier.
// ONE-LABEL: func.func @attention_tma
// ONE-NOT: release_stage
// ONE-NOT: acquire_stage
// ONE: tilegpu.tma_copy
func.func @attention_tma(%q: tensor<128x64xf16>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32) -> tensor<128x64xf32> {
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
  return %res#0 : tensor<128x64xf32>
}
