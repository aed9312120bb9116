// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s
// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_80" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s --check-prefix=SM80

// Both loads carry the TMA tensor map of a host descriptor, and each block
// is a TMA box: the stages are filled by TMA copies that complete on a
// buffer of three mbarriers per load, initialized before the prologue and
// invalidated after the loop. The prologue copies iterations 0 and 1 (each
// only if in range); the loop also carries the parity of the read stage's
// phase (0 at first, flipped whenever the read counter wraps to stage 0);
// each iteration waits for both barriers of its stage at that parity (no
// cp.async groups), starts the dot, then copies iteration k + 2 at its
// coordinates (k + 2) * 32.
// sm_80 has no TMA: the same loads are copied with cp.async.
// SM80-LABEL: func.func @matmul_tma
// SM80-NOT: tma_copy
// SM80: tilegpu.async_copy
// SM80-NOT: tma_copy
// The kernel starts by prefetching both tensor maps.
// CHECK-LABEL: func.func @matmul_tma
// CHECK-SAME: %[[TA:[a-z0-9]+]]: !tile.ptr<i8>, %[[TB:[a-z0-9]+]]: !tile.ptr<i8>
// CHECK-NEXT: tilegpu.prefetch_tensormap %[[TB]]
// CHECK-NEXT: tilegpu.prefetch_tensormap %[[TA]]
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// CHECK: %[[BUFA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// CHECK: %[[BARA:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK: tilegpu.init_barriers %[[BARA]]
// CHECK: %[[BUFB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x32x64xf16>
// CHECK: %[[BARB:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<3>
// CHECK: tilegpu.init_barriers %[[BARB]]
// CHECK-NOT: async_copy
// CHECK: %[[IN0:.*]] = arith.cmpi slt
// CHECK: tilegpu.tma_copy %[[TA]][%[[C0]], %{{.*}}], %[[BUFA]][%[[C0]]], %[[BARA]], %[[IN0]]
// CHECK: tilegpu.tma_copy %[[TB]][%{{.*}}, %[[C0]]], %[[BUFB]][%[[C0]]], %[[BARB]], %[[IN0]]
// CHECK-NOT: async_commit_group
// CHECK: tilegpu.tma_copy %[[TA]][%[[C0]], %{{.*}}], %[[BUFA]][%[[C1]]], %[[BARA]]
// CHECK: tilegpu.tma_copy %[[TB]][%{{.*}}, %[[C0]]], %[[BUFB]][%[[C1]]], %[[BARB]]
// CHECK: scf.for %[[K:[a-z0-9]+]] = {{.*}} iter_args(%[[ACC:[a-z0-9]+]] = %{{[a-z0-9_]+}}, {{.*}}, %[[READ:[a-z0-9]+]] = %[[C0]], %[[WRITE:[a-z0-9]+]] = %{{[a-z0-9_]+}}, %[[PHASE:[a-z0-9]+]] = %[[C0]])
// CHECK-NEXT: tilegpu.tma_wait %[[BARA]][%[[READ]]], %[[PHASE]]
// CHECK-NEXT: tilegpu.tma_wait %[[BARB]][%[[READ]]], %[[PHASE]]
// CHECK-NEXT: tilegpu.warpgroup_dot %[[BUFA]], %[[BUFB]][%[[READ]]], %[[ACC]]
// CHECK: %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}} : i32
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[AHEAD]]
// CHECK: %[[COL:.*]] = arith.muli %[[AHEAD]], %{{.*}} : i32
// CHECK: tilegpu.tma_copy %[[TA]][%[[C0]], %[[COL]]], %[[BUFA]][%[[WRITE]]], %[[BARA]], %[[IN]]
// CHECK: tilegpu.tma_copy %[[TB]][%[[COL]], %[[C0]]], %[[BUFB]][%[[WRITE]]], %[[BARB]], %[[IN]]
// CHECK-NOT: tile.load
// CHECK: %[[R1:.*]] = arith.addi %[[READ]], %[[C1]] : i32
// CHECK: %[[NREAD:.*]] = arith.select %{{.*}}, %[[C0]], %[[R1]] : i32
// CHECK: %[[WRAPPED:.*]] = arith.cmpi eq, %[[NREAD]], %[[C0]] : i32
// CHECK: %[[FLIP:.*]] = arith.xori %[[PHASE]], %[[C1]] : i32
// CHECK: %[[NPHASE:.*]] = arith.select %[[WRAPPED]], %[[FLIP]], %[[PHASE]] : i32
// CHECK: scf.yield %{{.*}}, %[[NREAD]], %{{.*}}, %[[NPHASE]]
// CHECK: tilegpu.warpgroup_dot_wait %{{.*}} {pending = 0 : i32}
// CHECK-NOT: async_wait
// CHECK-NEXT: tilegpu.inval_barriers %[[BARA]]
// CHECK-NEXT: tilegpu.inval_barriers %[[BARB]]
func.func @matmul_tma(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %ta: !tile.ptr<i8>, %tb: !tile.ptr<i8>, %kTiles: i32, %kLeft: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32i = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %zeroA = arith.constant dense<0.0> : tensor<64x32xf16>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %am = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %amr = arith.muli %am, %c32 : tensor<64x1xi32>
  %ak = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %amb = tile.broadcast %amr : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a0 = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %bk = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64 = arith.constant dense<64> : tensor<32x1xi32>
  %bkr = arith.muli %bk, %c64 : tensor<32x1xi32>
  %bn = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bkb = tile.broadcast %bkr : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %b0 = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %bstep = arith.constant dense<2048> : tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %kTiles step %c1 iter_args(%acc = %zero, %pa = %a0, %pb = %b0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %k32 = arith.muli %k, %c32i : i32
    %left = arith.subi %kLeft, %k32 : i32
    %lefts = tile.splat %left : i32 -> tensor<1x32xi32>
    %m1 = arith.cmpi slt, %ak, %lefts : tensor<1x32xi32>
    %mask = tile.broadcast %m1 : tensor<1x32xi1> -> tensor<64x32xi1>
    %va = tile.load %pa, %mask, other %zeroA tensormap %ta[%c0, %k32] : !tile.ptr<i8> : tensor<64x32x!tile.ptr<f16>>
    %vb = tile.load %pb tensormap %tb[%k32, %c0] : !tile.ptr<i8> : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pan = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pbn = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}


// -----

// Only A carries a tensor map: A is copied with TMA, B with cp.async, and
// the loop waits for both kinds (the cp.async groups first).
// CHECK-LABEL: func.func @matmul_tma_a_only
// CHECK-NEXT: tilegpu.prefetch_tensormap
// CHECK-NOT: tilegpu.prefetch_tensormap
// CHECK: scf.for
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK-NEXT: tilegpu.tma_wait
// CHECK: tilegpu.tma_copy
// CHECK: tilegpu.async_copy
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: scf.yield
// CHECK: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: tilegpu.inval_barriers
func.func @matmul_tma_a_only(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %ta: !tile.ptr<i8>, %tb: !tile.ptr<i8>, %kTiles: i32, %kLeft: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32i = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %zeroA = arith.constant dense<0.0> : tensor<64x32xf16>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %am = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %amr = arith.muli %am, %c32 : tensor<64x1xi32>
  %ak = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %amb = tile.broadcast %amr : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %aoff = arith.addi %amb, %akb : tensor<64x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a0 = tile.addptr %as, %aoff : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %bk = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64 = arith.constant dense<64> : tensor<32x1xi32>
  %bkr = arith.muli %bk, %c64 : tensor<32x1xi32>
  %bn = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bkb = tile.broadcast %bkr : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %boff = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %b0 = tile.addptr %bs, %boff : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %astep = arith.constant dense<32> : tensor<64x32xi32>
  %bstep = arith.constant dense<2048> : tensor<32x64xi32>
  %res:3 = scf.for %k = %c0 to %kTiles step %c1 iter_args(%acc = %zero, %pa = %a0, %pb = %b0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %k32 = arith.muli %k, %c32i : i32
    %left = arith.subi %kLeft, %k32 : i32
    %lefts = tile.splat %left : i32 -> tensor<1x32xi32>
    %m1 = arith.cmpi slt, %ak, %lefts : tensor<1x32xi32>
    %mask = tile.broadcast %m1 : tensor<1x32xi1> -> tensor<64x32xi1>
    %va = tile.load %pa, %mask, other %zeroA tensormap %ta[%c0, %k32] : !tile.ptr<i8> : tensor<64x32x!tile.ptr<f16>>
    %vb = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pan = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pbn = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}


// -----

// Attention's q, loaded through a tensor map before the loop and read only
// as the first dot's A operand: copied with TMA into its one-stage buffer
// where it was loaded (its own barrier, phase 0), waited for after the
// loop's first copies, the barrier invalidated after the loop; the load
// itself is gone. k and v stage as before.
// CHECK-LABEL: func.func @attention_tma_q
// CHECK-NOT: tile.load
// CHECK: %[[Q:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<1x128x64xf16>
// CHECK-NEXT: %[[QBAR:.*]] = tilegpu.local_alloc : !tilegpu.mbarriers<1>
// CHECK-NEXT: tilegpu.init_barriers %[[QBAR]]
// CHECK: tilegpu.tma_copy %{{.*}}[%{{.*}}, %{{.*}}], %[[Q]][%{{.*}}], %[[QBAR]], %true
// CHECK: tilegpu.tma_copy
// CHECK: tilegpu.tma_wait %[[QBAR]][%[[ZERO:.*]]], %[[ZERO]]
// CHECK-NEXT: scf.for
// CHECK: tilegpu.warpgroup_dot %[[Q]][%{{.*}}]
// CHECK: scf.yield
// CHECK: tilegpu.inval_barriers %[[QBAR]]
// SM80-LABEL: func.func @attention_tma_q
// SM80: tile.load
// SM80-NOT: tma_copy
func.func @attention_tma_q(%qp: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tq: !tile.ptr<i8>, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32) -> tensor<128x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %half = arith.constant dense<0.5> : tensor<128x64xf32>
  %r128 = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<128x1xi32>
  %qrows = tile.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %qrowOff = arith.muli %qrows, %c64 : tensor<128x1xi32>
  %qcols = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %qrowb = tile.broadcast %qrowOff : tensor<128x1xi32> -> tensor<128x64xi32>
  %qcolb = tile.broadcast %qcols : tensor<1x64xi32> -> tensor<128x64xi32>
  %qoff = arith.addi %qrowb, %qcolb : tensor<128x64xi32>
  %qs = tile.splat %qp : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>>
  %qptr = tile.addptr %qs, %qoff : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %q = tile.load %qptr tensormap %tq[%c0, %c0] : !tile.ptr<i8> : tensor<128x64x!tile.ptr<f16>>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64b = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64b : tensor<64x1xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %qcols : tensor<1x64xi32> -> tensor<64x64xi32>
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

// -----

// The same q loaded outside an enclosing loop: the staged loop runs once per
// outer iteration, so q is stored into its buffer (after the first copies)
// as before, not copied with TMA once.
// CHECK-LABEL: func.func @attention_tma_q_outer_loop
// CHECK: tile.load %{{.*}} tensormap
// CHECK-NOT: tilegpu.mbarriers<1>
// CHECK: scf.for
// CHECK: tilegpu.local_store %{{.*}}, %[[QO:.*]][%{{.*}}] : tensor<128x64xf16
// CHECK-NEXT: scf.for
// SM80-LABEL: func.func @attention_tma_q_outer_loop
func.func @attention_tma_q_outer_loop(%qp: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %tq: !tile.ptr<i8>, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %n: i32) -> tensor<128x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64i = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32>
  %half = arith.constant dense<0.5> : tensor<128x64xf32>
  %r128 = tile.make_range {start = 0 : i32, end = 128 : i32} : tensor<128xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<128x1xi32>
  %qrows = tile.expand_dims %r128 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %qrowOff = arith.muli %qrows, %c64 : tensor<128x1xi32>
  %qcols = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %qrowb = tile.broadcast %qrowOff : tensor<128x1xi32> -> tensor<128x64xi32>
  %qcolb = tile.broadcast %qcols : tensor<1x64xi32> -> tensor<128x64xi32>
  %qoff = arith.addi %qrowb, %qcolb : tensor<128x64xi32>
  %qs = tile.splat %qp : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>>
  %qptr = tile.addptr %qs, %qoff : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %q = tile.load %qptr tensormap %tq[%c0, %c0] : !tile.ptr<i8> : tensor<128x64x!tile.ptr<f16>>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c64b = arith.constant dense<64> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c64b : tensor<64x1xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x64xi32>
  %colb = tile.broadcast %qcols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rowb, %colb : tensor<64x64xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %k0 = tile.addptr %ks, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>>
  %v0 = tile.addptr %vs, %off : tensor<64x64x!tile.ptr<f16>>, tensor<64x64xi32>
  %step = arith.constant dense<4096> : tensor<64x64xi32>
  %outer = scf.for %t = %c0 to %n step %c1 iter_args(%carried = %zero) -> (tensor<128x64xf32>) : i32 {
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
    %sum = arith.addf %carried, %res#0 : tensor<128x64xf32>
    scf.yield %sum : tensor<128x64xf32>
  }
  return %outer : tensor<128x64xf32>
}
