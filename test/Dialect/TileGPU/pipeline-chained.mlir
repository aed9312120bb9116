// RUN: tile-opt %s -convert-tile-to-tilegpu="num-warps=8 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s

// Two attention loops one after the other on one q, as tutorial 06's
// causal forward runs them (the blocks below the diagonal, then the
// diagonal's), with released TMA stages of the same K and V tensor maps:
// the second continues the first's pipeline. One set of buffers and
// barriers, set up before the first loop and invalidated after the
// second; the second starts from the first's read stage, write stage and
// phase; its prologue copies acquire their stages (the parity of the phase
// each was last read in), and its body's first acquire is not skipped (the
// first loop read that stage).
// CHECK-LABEL: func.func @chained_attention
// CHECK: %[[K:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK-NEXT: %[[KBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[KBAR]] :
// CHECK-NEXT: %[[KREL:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[KREL]] {arrivals = 8 : i32}
// CHECK: %[[V:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK-NEXT: %[[VBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK-NEXT: tilegpu.init_barriers %[[VBAR]] :
// CHECK-NEXT: %[[VREL:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK: %[[FIRST:.*]]:6 = scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %c0_i32, %{{.*}} = %c2_i32, %{{.*}} = %c0_i32)
// CHECK: arith.andi
// CHECK-NEXT: tilegpu.acquire_stage %[[KREL]]
// CHECK-NOT: tilegpu.local_alloc
// CHECK-NOT: tilegpu.init_barriers
// CHECK-NOT: tilegpu.inval_barriers %[[KBAR]]
// CHECK: %[[STAGE:.*]] = arith.addi %[[FIRST]]#3, %c0_i32
// CHECK-NEXT: %[[WRAPS:.*]] = arith.cmpi sge, %[[STAGE]], %c3_i32
// CHECK: %[[FLIP:.*]] = arith.xori %[[FIRST]]#5, %c1_i32
// CHECK-NEXT: %[[PREV:.*]] = arith.select %[[WRAPS]], %[[FIRST]]#5, %[[FLIP]]
// CHECK-NEXT: tilegpu.acquire_stage %[[KREL]][%{{.*}}], %[[PREV]], %{{.*}} for %[[K]]
// CHECK-NEXT: tilegpu.acquire_stage %[[VREL]][%{{.*}}], %[[PREV]], %{{.*}} for %[[V]]
// CHECK: tilegpu.tma_copy %{{.*}}, %[[K]]
// CHECK-NOT: tilegpu.local_alloc
// CHECK: scf.for {{.*}} iter_args({{.*}}, %{{.*}} = %[[FIRST]]#3, %{{.*}} = %[[FIRST]]#4, %{{.*}} = %[[FIRST]]#5)
// CHECK-NOT: arith.andi
// CHECK: tilegpu.acquire_stage %[[KREL]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.inval_barriers %[[KBAR]]
// CHECK-NOT: tilegpu.inval_barriers %[[KBAR]]
// CHECK: return
func.func @chained_attention(%out: !tile.ptr<f32>, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tq: !tile.ptr<i8>, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32, %m: i32) {
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
  %qb = tile.load %q0 tensormap %tq[%c0, %c0] : !tile.ptr<i8> : tensor<128x64x!tile.ptr<f16>>
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
  %res2:3 = scf.for %i = %n to %m step %c1 iter_args(%acc = %res#0, %pk = %k0, %pv = %v0) -> (tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>) : i32 {
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
  tile.store %o0, %res2#0 : tensor<128x64x!tile.ptr<f32>>
  return
}

// A second loop whose V blocks come through another tensor map is another
// pipeline, with buffers and barriers of its own.
// CHECK-LABEL: func.func @unchained_attention
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK: scf.for
// CHECK: tilegpu.inval_barriers
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
// CHECK: scf.for

func.func @unchained_attention(%out: !tile.ptr<f32>, %q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tq: !tile.ptr<i8>, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32, %m: i32, %tv2: !tile.ptr<i8>) {
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
  %qb = tile.load %q0 tensormap %tq[%c0, %c0] : !tile.ptr<i8> : tensor<128x64x!tile.ptr<f16>>
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
  %res2:3 = scf.for %i = %n to %m step %c1 iter_args(%acc = %res#0, %pk = %k0, %pv = %v0) -> (tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>) : i32 {
    %row = arith.muli %i, %c64i : i32
    %kb = tile.load %pk tensormap %tk[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
    %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x64xf16> -> tensor<64x64xf16>
    %s = tile.dot %qb, %kt, %zero : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %p = math.exp2 %s : tensor<128x64xf32>
    %p16 = arith.truncf %p : tensor<128x64xf32> to tensor<128x64xf16>
    %vb = tile.load %pv tensormap %tv2[%row, %c0] : !tile.ptr<i8> : tensor<64x64x!tile.ptr<f16>>
    %scaled = arith.mulf %acc, %half : tensor<128x64xf32>
    %o = tile.dot %p16, %vb, %scaled : tensor<128x64xf16> * tensor<64x64xf16> -> tensor<128x64xf32>
    %pkn = tile.addptr %pk, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    %pvn = tile.addptr %pv, %step : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
    scf.yield %o, %pkn, %pvn : tensor<128x64xf32>, tensor<64x64x!tile.ptr<f16>>, tensor<64x64x!tile.ptr<f16>>
  }
  tile.store %o0, %res2#0 : tensor<128x64x!tile.ptr<f32>>
  return
}
