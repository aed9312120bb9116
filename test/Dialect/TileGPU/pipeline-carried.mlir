// RUN: tile-opt %s -convert-tile-to-tilegpu="num-warps=8 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s

// Attention's loop with released TMA stages inside a loop over tiles (a
// persistent kernel's), q loaded by TMA once per tile: the pipeline is
// carried across the tiles. The buffers and barriers are set up before
// the outer loop and invalidated after it; the outer loop carries the
// read stage, the write stage, the phase, q's slot and q's phase, which
// start at 0, 2 (S - 1), 0, 0 and 0; the first three come back from the
// inner loop, q's slot steps round its two (shared memory holds both) and
// its phase flips when the slot wraps. Each tile's q copy waits until
// every warp has released the q that slot held two tiles before (parity
// q's phase ^ 1: fresh barriers pass it) and the warps release the slot
// after the inner loop; the prologue's copy goes into the stage the tile starts at,
// acquired like every refill (the parity of the phase it was last read
// in); in the body, the first iteration's acquire is not skipped (its
// stage was read by the previous tile).
// CHECK-LABEL: func.func @persistent_attention
// CHECK: %[[K:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK-NEXT: %[[KBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[KBAR]] :
// CHECK-NEXT: %[[KREL:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[KREL]] {arrivals = 8 : i32}
// CHECK: %[[V:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK-NEXT: %[[VBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK: %[[VREL:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK: %[[Q:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<2x128x64xf16>
// CHECK-NEXT: %[[QBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<2>
// CHECK-NEXT: %[[QREL:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<2>
// CHECK-NEXT: tilegpu.init_barriers %[[QBAR]] :
// CHECK-NEXT: tilegpu.init_barriers %[[QREL]] {arrivals = 8 : i32}
// CHECK: %[[OUT:.*]]:5 = scf.for %{{.*}} = %{{.*}} iter_args(%[[READ0:[a-z0-9]+]] = %c0_i32, %[[WRITE0:[a-z0-9]+]] = %c2_i32, %[[PHASE0:[a-z0-9]+]] = %c0_i32, %[[QSLOT:[a-z0-9]+]] = %c0_i32, %[[QPHASE:[a-z0-9]+]] = %c0_i32) -> (i32, i32, i32, i32, i32)
// CHECK: %[[QPREV:.*]] = arith.xori %[[QPHASE]], %c1_i32
// CHECK: tilegpu.acquire_stage %[[QREL]][%[[QSLOT]]], %[[QPREV]], %true for %[[Q]]
// CHECK-NEXT: tilegpu.tma_copy %{{.*}}, %[[Q]][%[[QSLOT]]], %[[QBAR]], %true
// CHECK: %[[FIRST:.*]] = arith.addi %[[READ0]], %c0_i32
// CHECK-NEXT: %[[WRAPS:.*]] = arith.cmpi sge, %[[FIRST]], %c3_i32
// CHECK-NEXT: %[[BACK:.*]] = arith.subi %[[FIRST]], %c3_i32
// CHECK-NEXT: %[[STAGE:.*]] = arith.select %[[WRAPS]], %[[BACK]], %[[FIRST]]
// CHECK-NEXT: %[[FLIP:.*]] = arith.xori %[[PHASE0]], %c1_i32
// CHECK-NEXT: %[[PROLOGUEPREV:.*]] = arith.select %[[WRAPS]], %[[PHASE0]], %[[FLIP]]
// CHECK-NEXT: tilegpu.acquire_stage %[[KREL]][%[[STAGE]]], %[[PROLOGUEPREV]], %{{.*}} for %[[K]]
// CHECK-NEXT: tilegpu.acquire_stage %[[VREL]][%[[STAGE]]], %[[PROLOGUEPREV]], %{{.*}} for %[[V]]
// CHECK: tilegpu.tma_copy %{{.*}}, %[[K]][%[[STAGE]]]
// CHECK-NEXT: tilegpu.tma_copy %{{.*}}, %[[V]][%[[STAGE]]]
// CHECK: %[[SECOND:.*]] = arith.addi %[[READ0]], %c1_i32
// CHECK-NEXT: arith.cmpi sge, %[[SECOND]], %c3_i32
// CHECK: tilegpu.tma_copy %{{.*}}, %[[K]]
// CHECK: tilegpu.tma_wait %[[QBAR]][%[[QSLOT]]], %[[QPHASE]]
// CHECK-NEXT: %[[IN:.*]]:6 = scf.for %{{.*}} iter_args({{.*}}, %[[READ:[a-z0-9]+]] = %[[READ0]], %[[WRITE:[a-z0-9]+]] = %[[WRITE0]], %[[PHASE:[a-z0-9]+]] = %[[PHASE0]])
// CHECK: %[[INRANGE:.*]] = arith.cmpi slt
// CHECK: %[[PREV:.*]] = arith.select
// CHECK-NOT: arith.andi
// CHECK-NEXT: tilegpu.acquire_stage %[[KREL]][%[[WRITE]]], %[[PREV]], %[[INRANGE]] for %[[K]]
// CHECK: tilegpu.warpgroup_dot %[[Q]][%[[QSLOT]]]
// CHECK: tilegpu.release_stage %[[QREL]][%[[QSLOT]]]
// CHECK: %[[QNEXT:.*]] = arith.addi %[[QSLOT]], %c1_i32
// CHECK-NEXT: %[[QWRAPS:.*]] = arith.cmpi eq, %[[QNEXT]], %c2_i32
// CHECK-NEXT: %[[QSLOT1:.*]] = arith.select %[[QWRAPS]], %c0_i32, %[[QNEXT]]
// CHECK-NEXT: %[[QWRAPPED:.*]] = arith.cmpi eq, %[[QSLOT1]], %c0_i32
// CHECK-NEXT: %[[QPHASE1:.*]] = arith.select %[[QWRAPPED]], %[[QPREV]], %[[QPHASE]]
// CHECK: scf.yield %[[IN]]#3, %[[IN]]#4, %[[IN]]#5, %[[QSLOT1]], %[[QPHASE1]] : i32, i32, i32, i32, i32
// CHECK: tilegpu.inval_barriers %[[KBAR]]
// CHECK: tilegpu.inval_barriers %[[QBAR]]
// CHECK-NEXT: tilegpu.inval_barriers %[[QREL]]
// CHECK-NEXT: return
func.func @persistent_attention(%out: !tile.ptr<f32>, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tq: !tile.ptr<i8>, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32, %tiles: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %c128i = arith.constant 128 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %half = arith.constant dense<0.5> : tensor<128x64xf32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %r128 = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64 : tensor<64x1xi32>
  %cols = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %qrows = tile.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %c64q = arith.constant dense<64> : tensor<128x1xi32>
  %qrowOff = arith.muli %qrows, %c64q : tensor<128x1xi32>
  %qrowb = tile.broadcast %qrowOff : tensor<128x1xi32> -> tensor<128x64xi32>
  %qcolb = tile.broadcast %cols : tensor<1x64xi32> -> tensor<128x64xi32>
  %qoff = arith.addi %qrowb, %qcolb : tensor<128x64xi32>
  %qs = tile.splat %q : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>>
  %q0 = tile.addptr %qs, %qoff : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x64x!tile.ptr<f32>>
  %o0 = tile.addptr %os, %qoff : tensor<128x64x!tile.ptr<f32>>, tensor<128x64xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %k0 = tile.addptr %ks, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %v0 = tile.addptr %vs, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  scf.for %t = %c0 to %tiles step %c1 : i32 {
    %trow = arith.muli %t, %c128i : i32
    %qb = tile.load %q0 tensormap %tq[%trow, %c0] : !tile.ptr<i8> : tensor<128x64x!tile.ptr<f16>>
    %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %k0, %pv = %v0) -> (tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>) : i32 {
      %row = arith.muli %i, %c64i : i32
      %kb = tile.load %pk tensormap %tk[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
      %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
      %s = tile.dot %qb, %kt, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
      %p = math.exp2 %s : tensor<128x64xf32>
      %p16 = arith.truncf %p : tensor<128x64xf32> to tensor<128x64xf16>
      %vb = tile.load %pv tensormap %tv[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
      %scaled = arith.mulf %acc, %half : tensor<128x64xf32>
      %o = tile.dot %p16, %vb, %scaled : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
      %pkn = tile.addptr %pk, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      %pvn = tile.addptr %pv, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
      scf.yield %o, %pkn, %pvn : tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>
    }
    tile.store %o0, %res#0 : tensor<128x64x!tile.ptr<f32>>
  }
  return
}
