// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s
// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_90a" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline=num-stages=1 | FileCheck %s --check-prefix=ONE
// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=4 target=sm_80" -tilegpu-coalesce -tilegpu-accelerate-matmul -tilegpu-remove-layout-conversions -cse -tilegpu-pipeline -cse | FileCheck %s --check-prefix=SYNC

// A wgmma dot fed by two loads (A masked on the K tail, B not): three
// stages each. The prologue copies iterations 0 and 1 into stages 0 and 1
// (each masked by the iteration being in range) and advances the pointers
// twice; the loop carries the pointers of iteration k + 2. Each iteration
// waits for its stage (one group left pending), starts the dot on stage
// k % 3 and waits for the previous one, then copies iteration k + 2 into
// stage (k + 2) % 3. After the loop: the last dot, then the copies past the
// end.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[C0:.*]] = arith.constant 0 : i32
// CHECK-DAG: %[[C1:.*]] = arith.constant 1 : i32
// The stages read and written are counters the loop carries, from 0 and 2.
// CHECK: %[[C3:.*]] = arith.constant 3 : i32
// CHECK: %[[C2:.*]] = arith.constant 2 : i32
// CHECK: %[[BUFA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// CHECK: %[[BUFB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x32x64xf16>
// CHECK: %[[IN0:.*]] = arith.cmpi slt, %{{.*}}, %[[N:.*]] : i32
// CHECK: %[[IN0A:.*]] = tile.splat %[[IN0]] : i1 -> tensor<64x32xi1
// CHECK: %[[MA0:.*]] = arith.andi %{{.*}}, %[[IN0A]]
// CHECK: tilegpu.async_copy %[[A0:.*]], %[[BUFA]][%[[C0]]], %[[MA0]]
// CHECK: %[[IN0B:.*]] = tile.splat %[[IN0]] : i1 -> tensor<32x64xi1
// CHECK: tilegpu.async_copy %[[B0:.*]], %[[BUFB]][%[[C0]]], %[[IN0B]]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: %[[B1:.*]] = tile.addptr %[[B0]]
// CHECK: %[[A1:.*]] = tile.addptr %[[A0]]
// CHECK: tilegpu.async_copy %[[A1]], %[[BUFA]][%[[C1]]]
// CHECK: tilegpu.async_copy %[[B1]], %[[BUFB]][%[[C1]]]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: %[[B2:.*]] = tile.addptr %[[B1]]
// CHECK: %[[A2:.*]] = tile.addptr %[[A1]]
// CHECK: %[[LOOP:.*]]:5 = scf.for %[[K:.*]] = %[[C0]] to %[[N]] step %[[C1]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[PA:.*]] = %[[A2]], %[[PB:.*]] = %[[B2]], %[[READ:.*]] = %[[C0]], %[[WRITE:.*]] = %[[C2]])
// CHECK-NEXT:   tilegpu.async_wait {pending = 1 : i32}
// CHECK:   %[[D:.*]] = tilegpu.warpgroup_dot %[[BUFA]], %[[BUFB]][%[[READ]]], %[[ACC]]
// CHECK:   %[[W:.*]] = tilegpu.warpgroup_dot_wait %[[D]] {pending = 1 : i32}
// CHECK:   %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}} : i32
// CHECK:   arith.cmpi slt, %[[AHEAD]], %[[N]] : i32
// CHECK:   tilegpu.async_copy %[[PA]], %[[BUFA]][%[[WRITE]]]
// CHECK:   tilegpu.async_copy %[[PB]], %[[BUFB]][%[[WRITE]]]
// CHECK:   tilegpu.async_commit_group
// CHECK-NOT: tile.load
// CHECK-NOT: tile.dot
// CHECK:   %[[NA:.*]] = tile.addptr %[[PA]]
// CHECK:   %[[NB:.*]] = tile.addptr %[[PB]]
// CHECK:   %[[R1:.*]] = arith.addi %[[READ]], %[[C1]] : i32
// CHECK:   %[[RW:.*]] = arith.cmpi eq, %[[R1]], %[[C3]] : i32
// CHECK:   %[[NREAD:.*]] = arith.select %[[RW]], %[[C0]], %[[R1]] : i32
// CHECK:   %[[W1:.*]] = arith.addi %[[WRITE]], %[[C1]] : i32
// CHECK:   %[[WW:.*]] = arith.cmpi eq, %[[W1]], %[[C3]] : i32
// CHECK:   %[[NWRITE:.*]] = arith.select %[[WW]], %[[C0]], %[[W1]] : i32
// CHECK:   scf.yield %[[W]], %[[NA]], %[[NB]], %[[NREAD]], %[[NWRITE]]
// CHECK: %[[FINAL:.*]] = tilegpu.warpgroup_dot_wait %[[LOOP]]#0 {pending = 0 : i32}
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: tilegpu.convert_layout %[[FINAL]]
// ONE-LABEL: func.func @matmul
// ONE-NOT: tilegpu.local_alloc
// ONE: tile.dot
// On sm_80 the dot is mma.sync: the same stages and copies, and the
// synchronous shared_dot on the stage, with no waits for it.
// SYNC-LABEL: func.func @matmul
// SYNC: tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// SYNC: scf.for
// SYNC:   tilegpu.async_wait {pending = 1 : i32}
// SYNC-NEXT: %[[D:.*]] = tilegpu.shared_dot {{.*}}, tensor<64x64xf32, #mma>
// SYNC-NOT: warpgroup_dot
// SYNC:   tilegpu.async_copy
// SYNC:   tilegpu.async_copy
// SYNC:   tilegpu.async_commit_group
// SYNC:   scf.yield %[[D]]
// SYNC-NEXT: }
// SYNC-NEXT: tilegpu.async_wait {pending = 0 : i32}
func.func @matmul(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %kTiles: i32, %kLeft: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32> {
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
    %va = tile.load %pa, %mask, other %zeroA : tensor<64x32x!tile.ptr<f16>>
    %vb = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pan = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pbn = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}

// -----

// The K tail's bound has no known divisibility: the mask changes every
// element, so A could only be copied 2 bytes at a time, which cp.async
// cannot do. A stays a load into registers, stored each iteration into a
// buffer of one stage for wgmma; B alone is staged: the body first waits
// for iteration k's stage (one group left pending), then starts iteration
// k + 2's copy, and the dot completes in its iteration.
// CHECK-LABEL: func.func @matmul_unaligned_tail
// CHECK: %[[BUFA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<1x64x32xf16>
// CHECK: %[[BUFB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x32x64xf16>
// CHECK: scf.for
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK: tilegpu.async_copy %{{.*}}, %[[BUFB]]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: %[[A:.*]] = tile.load
// CHECK-NEXT: tilegpu.local_store %[[A]], %[[BUFA]][%{{.*}}]
// CHECK-NEXT: %[[D:.*]] = tilegpu.warpgroup_dot %[[BUFA]][%{{.*}}], %[[BUFB]][%{{.*}}]
// CHECK-NEXT: tilegpu.warpgroup_dot_wait %[[D]] {pending = 0 : i32}
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.async_wait {pending = 0 : i32}
func.func @matmul_unaligned_tail(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %kTiles: i32, %kLeft: i32) -> tensor<64x64xf32> {
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
    %va = tile.load %pa, %mask, other %zeroA : tensor<64x32x!tile.ptr<f16>>
    %vb = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pan = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pbn = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}

// -----

// tl.range(..., num_stages=2) on the loop overrides the pass option.
// CHECK-LABEL: func.func @matmul_two_stages
// CHECK: tilegpu.local_alloc : !tilegpu.memdesc<2x64x32xf16>
// CHECK: tilegpu.async_wait {pending = 0 : i32}
func.func @matmul_two_stages(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %kTiles: i32, %kLeft: i32 {tile.divisibility = 16 : i32}) -> tensor<64x64xf32> {
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
    %va = tile.load %pa, %mask, other %zeroA : tensor<64x32x!tile.ptr<f16>>
    %vb = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %va, %vb, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pan = tile.addptr %pa, %astep : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pbn = tile.addptr %pb, %bstep : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  } {tile.num_stages = 2 : i32}
  return %res#0 : tensor<64x64xf32>
}

// -----

// B loaded as an N x K block (K contiguous) and transposed for the dot, as
// tutorial 09's descriptor kernel and tutorial 06's k.T do: with wgmma its
// stages hold the N x K tiles and the dot reads them K-major (b_k_major);
// the transpose goes with the load. mma.sync's stages are K x N only, so
// on sm_80 the loop is left alone.
// CHECK-LABEL: func.func @matmul_b_transposed
// CHECK: %[[BUFA:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// CHECK: %[[BUFB:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// CHECK: scf.for
// CHECK-NOT: tile.trans
// CHECK: tilegpu.warpgroup_dot %[[BUFA]], %[[BUFB]][%{{.*}}], %{{.*}} {b_k_major} : !tilegpu.memdesc<3x64x32xf16>, !tilegpu.memdesc<3x64x32xf16>
// CHECK-NOT: tile.trans
// CHECK: scf.yield
// SYNC-LABEL: func.func @matmul_b_transposed
// SYNC-NOT: tilegpu.local_alloc
// SYNC: tile.trans
// SYNC: tile.dot
func.func @matmul_b_transposed(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %kTiles: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c32 : tensor<64x1xi32>
  %cols = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x32xi32>
  %colb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %rowb, %colb : tensor<64x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %a0 = tile.addptr %as, %off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %b0 = tile.addptr %bs, %off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %step = arith.constant dense<32> : tensor<64x32xi32>
  %res:3 = scf.for %k = %c0 to %kTiles step %c1 iter_args(%acc = %zero, %pa = %a0, %pb = %b0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>) : i32 {
    %va = tile.load %pa : tensor<64x32x!tile.ptr<f16>>
    %vb = tile.load %pb : tensor<64x32x!tile.ptr<f16>>
    %vbt = tile.trans %vb {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %d = tile.dot %va, %vbt, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %pan = tile.addptr %pa, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pbn = tile.addptr %pb, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %d, %pan, %pbn : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x64xf32>
}

// -----

// Attention's loop: S = q k^T with q from before the loop and k loaded N x K,
// then the rescaled accumulator plus p v, p computed in the loop. The loads
// of k and v get three stages each; q is stored once, before the loop, into
// a buffer of one stage, after the copies of the first two stages have
// started; p, computed in the first dot's mma layout, goes to the second
// wgmma from its registers. The body first waits for iteration i's stages,
// then starts iteration i + 2's copies; each dot completes in its
// iteration (what follows needs its result).
// CHECK-LABEL: func.func @attention_like
// CHECK: %[[Q:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<1x64x32xf16>
// CHECK-NOT: tilegpu.local_store
// CHECK: %[[K:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// CHECK: %[[V:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// CHECK-NOT: tilegpu.local_alloc
// CHECK: tilegpu.async_copy %{{.*}}, %[[V]][%{{.*}}]
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.local_store %{{.*}}, %[[Q]][%{{.*}}]
// CHECK-NEXT: scf.for
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK: tilegpu.async_copy %{{.*}}, %[[K]]
// CHECK-NEXT: tilegpu.async_copy %{{.*}}, %[[V]]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK-NEXT: %[[S:.*]] = tilegpu.warpgroup_dot %[[Q]][%{{.*}}], %[[K]][%[[READ:.*]]], %{{.*}} {b_k_major}
// CHECK-NEXT: tilegpu.warpgroup_dot_wait %[[S]] {pending = 0 : i32}
// CHECK: %[[P16:.*]] = arith.truncf %{{.*}} to tensor<64x64xf16, #[[MMA:mma[0-9]*]]>
// CHECK-NOT: local_store
// CHECK: %[[O:.*]] = tilegpu.warpgroup_dot %[[P16]], %[[V]][%[[READ]]], %{{.*}} : tensor<64x64xf16, #[[MMA]]>, !tilegpu.memdesc<3x64x32xf16>
// CHECK-NEXT: tilegpu.warpgroup_dot_wait %[[O]] {pending = 0 : i32}
// CHECK-NOT: tile.dot
// CHECK: tilegpu.async_wait {pending = 0 : i32}
// SYNC-LABEL: func.func @attention_like
// SYNC-NOT: tilegpu.local_alloc
// SYNC: tile.dot
// SYNC: tile.dot
func.func @attention_like(%q: tensor<64x32xf16>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %zeroS = arith.constant dense<0.0> : tensor<64x64xf32>
  %half = arith.constant dense<0.5> : tensor<64x32xf32>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c32 : tensor<64x1xi32>
  %cols = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x32xi32>
  %colb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %rowb, %colb : tensor<64x32xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %k0 = tile.addptr %ks, %off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %v0 = tile.addptr %vs, %off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %step = arith.constant dense<2048> : tensor<64x32xi32>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %k0, %pv = %v0) -> (tensor<64x32xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>) : i32 {
    %kb = tile.load %pk : tensor<64x32x!tile.ptr<f16>>
    %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %s = tile.dot %q, %kt, %zeroS : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %p = math.exp2 %s : tensor<64x64xf32>
    %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
    %vb = tile.load %pv : tensor<64x32x!tile.ptr<f16>>
    %scaled = arith.mulf %acc, %half : tensor<64x32xf32>
    %o = tile.dot %p16, %vb, %scaled : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
    %pkn = tile.addptr %pk, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pvn = tile.addptr %pv, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %o, %pkn, %pvn : tensor<64x32xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>
  }
  return %res#0 : tensor<64x32xf32>
}

// -----

// Tutorial 06's causal forward: two loops over the same q. q is stored
// once, before the first (after its first copies); the second reads the
// same buffer.
// CHECK-LABEL: func.func @two_loops_one_q
// CHECK: %[[Q:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<1x64x32xf16>
// CHECK: tilegpu.async_commit_group
// CHECK: tilegpu.local_store %{{.*}}, %[[Q]][%{{.*}}]
// CHECK-NEXT: scf.for
// CHECK: tilegpu.warpgroup_dot %[[Q]][%{{.*}}]
// CHECK-NOT: tilegpu.local_alloc : !tilegpu.memdesc<1x64x32xf16>
// CHECK-NOT: tilegpu.local_store
// CHECK: scf.for
// CHECK: tilegpu.warpgroup_dot %[[Q]][%{{.*}}]
// ONE-LABEL: func.func @two_loops_one_q
// SYNC-LABEL: func.func @two_loops_one_q
func.func @two_loops_one_q(%q: tensor<64x32xf16>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %v: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf32>
  %zeroS = arith.constant dense<0.0> : tensor<64x64xf32>
  %half = arith.constant dense<0.5> : tensor<64x32xf32>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c32 : tensor<64x1xi32>
  %cols = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x32xi32>
  %colb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %rowb, %colb : tensor<64x32xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %k0 = tile.addptr %ks, %off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %vs = tile.splat %v : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %v0 = tile.addptr %vs, %off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %step = arith.constant dense<2048> : tensor<64x32xi32>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %k0, %pv = %v0) -> (tensor<64x32xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>) : i32 {
    %kb = tile.load %pk : tensor<64x32x!tile.ptr<f16>>
    %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %s = tile.dot %q, %kt, %zeroS : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %p = math.exp2 %s : tensor<64x64xf32>
    %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
    %vb = tile.load %pv : tensor<64x32x!tile.ptr<f16>>
    %scaled = arith.mulf %acc, %half : tensor<64x32xf32>
    %o = tile.dot %p16, %vb, %scaled : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
    %pkn = tile.addptr %pk, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pvn = tile.addptr %pv, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %o, %pkn, %pvn : tensor<64x32xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>
  }
  %res2:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %res#0, %pk = %k0, %pv = %v0) -> (tensor<64x32xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>) : i32 {
    %kb = tile.load %pk : tensor<64x32x!tile.ptr<f16>>
    %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %s = tile.dot %q, %kt, %zeroS : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %p = math.exp2 %s : tensor<64x64xf32>
    %p16 = arith.truncf %p : tensor<64x64xf32> to tensor<64x64xf16>
    %vb = tile.load %pv : tensor<64x32x!tile.ptr<f16>>
    %scaled = arith.mulf %acc, %half : tensor<64x32xf32>
    %o = tile.dot %p16, %vb, %scaled : tensor<64x64xf16> * tensor<64x32xf16> -> tensor<64x32xf32>
    %pkn = tile.addptr %pk, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %pvn = tile.addptr %pv, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    scf.yield %o, %pkn, %pvn : tensor<64x32xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<64x32x!tile.ptr<f16>>
  }
  return %res2#0 : tensor<64x32xf32>
}

// -----

// A loop with staged dots also stages its small side loads: the row of m
// (1-D, f32) gets a plain buffer of three 1-D stages, copied with k's
// stages and read back with local_load in the layout its use wants (a
// slice of the dot's mma layout: no conversion through shared memory).
// Its iter_arg %start feeds the body too, so it stays with its iteration:
// the copies of iteration i + 2 step it twice (start + 64 + 64).
// CHECK-LABEL: func.func @side_load
// CHECK: %[[K:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64x32xf16>
// CHECK-NEXT: %[[M:.*]] = tilegpu.local_alloc : !tilegpu.memdesc<3x64xf32>
// CHECK: tilegpu.async_copy %{{.*}}, %[[M]][%c0_i32]
// CHECK: tilegpu.async_copy %{{.*}}, %[[M]][%c1_i32]
// CHECK: scf.for %{{.*}} iter_args(%{{.*}}, %{{.*}}, %[[START:[a-z0-9_]+]] = %c0_i32, %[[READ:[a-z0-9_]+]] = %c0_i32, %[[WRITE:[a-z0-9_]+]] = %c2_i32)
// CHECK-NEXT: tilegpu.async_wait {pending = 1 : i32}
// CHECK: %[[NEXT:.*]] = arith.addi %[[START]], %c64_i32 : i32
// CHECK-NEXT: %[[AHEAD:.*]] = arith.addi %[[NEXT]], %c64_i32 : i32
// CHECK: tilegpu.async_copy %{{.*}}, %[[K]][%[[WRITE]]]
// CHECK: tile.splat %[[AHEAD]]
// CHECK: tilegpu.async_copy %{{.*}}, %[[M]][%[[WRITE]]]
// CHECK-NEXT: tilegpu.async_commit_group
// CHECK: tilegpu.warpgroup_dot
// CHECK: tilegpu.local_load %[[M]][%[[READ]]] : !tilegpu.memdesc<3x64xf32> -> tensor<64xf32, #{{.*}}>
// CHECK-NOT: tile.load
// CHECK-NOT: tilegpu.convert_layout
// CHECK: scf.yield %{{.*}}, %{{.*}}, %[[NEXT]],
func.func @side_load(%q: tensor<64x32xf16>, %k: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %zeroS = arith.constant dense<0.0> : tensor<64x64xf32>
  %r32 = tile.make_range {start = 0 : i32, end = 32 : i32} : tensor<32xi32>
  %r64 = tile.make_range {start = 0 : i32, end = 64 : i32} : tensor<64xi32>
  %rows = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %rowOff = arith.muli %rows, %c32 : tensor<64x1xi32>
  %cols = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %rowb = tile.broadcast %rowOff : tensor<64x1xi32> -> tensor<64x32xi32>
  %colb = tile.broadcast %cols : tensor<1x32xi32> -> tensor<64x32xi32>
  %off = arith.addi %rowb, %colb : tensor<64x32xi32>
  %ks = tile.splat %k : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %k0 = tile.addptr %ks, %off : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  %step = arith.constant dense<2048> : tensor<64x32xi32>
  %res:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zeroS, %pk = %k0, %start = %c0) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, i32) : i32 {
    %kb = tile.load %pk : tensor<64x32x!tile.ptr<f16>>
    %kt = tile.trans %kb {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
    %s = tile.dot %q, %kt, %zeroS : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %starts = tile.splat %start : i32 -> tensor<64xi32>
    %offs = arith.addi %starts, %r64 : tensor<64xi32>
    %mp = tile.splat %m : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %mptr = tile.addptr %mp, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %mv = tile.load %mptr : tensor<64x!tile.ptr<f32>>
    %me = tile.expand_dims %mv {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
    %mb = tile.broadcast %me : tensor<1x64xf32> -> tensor<64x64xf32>
    %p = arith.subf %s, %mb : tensor<64x64xf32>
    %sf = arith.sitofp %start : i32 to f32
    %sfs = tile.splat %sf : f32 -> tensor<64x64xf32>
    %p2 = arith.addf %p, %sfs : tensor<64x64xf32>
    %acc2 = arith.addf %acc, %p2 : tensor<64x64xf32>
    %pkn = tile.addptr %pk, %step : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %next = arith.addi %start, %c64 : i32
    scf.yield %acc2, %pkn, %next : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, i32
  }
  return %res#0 : tensor<64x64xf32>
}
