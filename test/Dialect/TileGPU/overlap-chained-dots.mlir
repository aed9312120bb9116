// RUN: tile-opt %s -split-input-file -tilegpu-overlap-chained-dots | FileCheck %s

// Attention's forward loop as tilegpu-pipeline stages it with TMA (one
// warpgroup): s = q k^T, the softmax, acc = p v + acc * alpha, each dot
// waited for at once. The loop is guarded by lb < ub; the first
// iteration's first part (K's wait and copy, q k^T waited for, the
// softmax) is peeled. The loop then runs from lb + step and carries what
// the second part needs from the iteration before: the read stage and its
// phase, V's write stage, copy predicate and coordinate, alpha and p. Each
// iteration starts q k^T, then waits for the previous iteration's V stage,
// acquires and copies V into the stage written one iteration late,
// rescales and starts p v, and waits for q k^T with p v still in flight
// (pending 1) before releasing K's stage and the softmax; p v is waited
// for last, then V's stage released. After the loop, the last iteration's
// second part runs.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#slice = #tilegpu.slice<{dim = 1, parent = #mma}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "sm_90a", "tilegpu.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: func.func @attention
// CHECK-SAME: %[[LB:[a-z0-9]+]]: i32, %[[UB:[a-z0-9]+]]: i32
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[LB]], %[[UB]] : i32
// CHECK: %[[RES:.*]]:8 = scf.if %[[RUNS]]
// CHECK-NEXT: tilegpu.tma_wait %[[KBAR:[a-z0-9]+]][%{{.*}}], %{{.*}}
// CHECK-NOT: tilegpu.tma_wait
// CHECK: tilegpu.tma_copy %{{.*}}, %[[KBUF:[a-z0-9]+]][%{{.*}}], %[[KBAR]]
// CHECK-NOT: tilegpu.tma_copy
// CHECK: %[[S0:.*]] = tilegpu.warpgroup_dot %{{.*}}, %[[KBUF]]
// CHECK-NEXT: tilegpu.warpgroup_dot_wait %[[S0]] {pending = 0 : i32}
// CHECK: %[[P0:.*]] = arith.truncf
// CHECK-NOT: tilegpu.warpgroup_dot
// CHECK: %[[START:.*]] = arith.addi %[[LB]], %[[STEP:.*]] : i32
// CHECK: %[[LOOP:.*]]:15 = scf.for %[[IV:.*]] = %[[START]] to %[[UB]] step %[[STEP]] iter_args(%[[ACC:[a-z0-9]+]] = %[[ZERO:[a-z0-9_]+]], {{.*}}, %[[PREAD:[a-z0-9]+]] = %{{.*}}, %[[PPHASE:[a-z0-9]+]] = %{{.*}}, %[[PWRITE:[a-z0-9]+]] = %{{.*}}, %[[PIN:[a-z0-9]+]] = %{{.*}}, %[[PVOFF:[a-z0-9]+]] = %{{.*}}, %[[PALPHA:[a-z0-9]+]] = %{{.*}}, %[[PP:[a-z0-9]+]] = %[[P0]])
// CHECK-NEXT: tilegpu.tma_wait %[[KBAR]]
// CHECK: tilegpu.acquire_stage %[[KREL:[a-z0-9]+]][%{{.*}}], %{{.*}}, %{{.*}} for %[[KBUF]]
// CHECK-NEXT: tilegpu.tma_copy %{{.*}}, %[[KBUF]]
// CHECK-NEXT: %[[S:.*]] = tilegpu.warpgroup_dot %{{.*}}, %[[KBUF]]
// CHECK-NEXT: tilegpu.tma_wait %[[VBAR:[a-z0-9]+]][%[[PREAD]]], %[[PPHASE]]
// CHECK-NEXT: tilegpu.acquire_stage %[[VREL:[a-z0-9]+]][%[[PWRITE]]], %[[PPHASE]], %[[PIN]] for %[[VBUF:[a-z0-9]+]]
// CHECK-NEXT: tilegpu.tma_copy %{{.*}}[%[[PVOFF]], %{{.*}}], %[[VBUF]][%[[PWRITE]]], %[[VBAR]], %[[PIN]]
// CHECK-NEXT: tile.expand_dims %[[PALPHA]]
// CHECK-NEXT: tile.broadcast
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[ACC]]
// CHECK-NEXT: %[[PV:.*]] = tilegpu.warpgroup_dot %[[PP]], %[[VBUF]][%[[PREAD]]], %[[SCALED]]
// CHECK-NEXT: tilegpu.warpgroup_dot_wait %[[S]] {pending = 1 : i32}
// CHECK-NEXT: tilegpu.release_stage %[[KREL]]
// CHECK: math.exp2
// CHECK: %[[PVDONE:.*]] = tilegpu.warpgroup_dot_wait %[[PV]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.release_stage %[[VREL]][%[[PREAD]]]
// CHECK-NEXT: scf.yield %[[PVDONE]],
// CHECK: tilegpu.tma_wait %[[VBAR]][%[[LOOP]]#8], %[[LOOP]]#9
// CHECK: %[[LAST:.*]] = tilegpu.warpgroup_dot %[[LOOP]]#14, %[[VBUF]][%[[LOOP]]#8]
// CHECK-NEXT: %[[LASTDONE:.*]] = tilegpu.warpgroup_dot_wait %[[LAST]] {pending = 0 : i32}
// CHECK-NEXT: tilegpu.release_stage %[[VREL]][%[[LOOP]]#8]
// CHECK-NEXT: scf.yield %[[LASTDONE]], %[[LOOP]]#1, %[[LOOP]]#2, %[[LOOP]]#3, %[[LOOP]]#4, %[[LOOP]]#5, %[[LOOP]]#6, %[[LOOP]]#7
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.yield %[[ZERO]],
// CHECK: return %[[RES]]#0, %[[RES]]#1
func.func @attention(%lb: i32, %ub: i32, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %scale: f32) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #slice>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #slice>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32, #slice>
  %q = tilegpu.local_alloc : !tilegpu.memdesc<1x128x64xf16>
  %kbuf = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
  %kbar = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %vbuf = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
  %vbar = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %krel = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %vrel = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %r:8 = scf.for %iv = %lb to %ub step %c64 iter_args(%acc = %zero, %l = %one, %m = %ninf, %koff = %c128, %voff = %c128, %read = %c0, %write = %c2, %phase = %c0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #slice>, tensor<128xf32, #slice>, i32, i32, i32, i32, i32) : i32 {
    tilegpu.tma_wait %kbar[%read], %phase : !tilegpu.mbarriers<3>
    tilegpu.tma_wait %vbar[%read], %phase : !tilegpu.mbarriers<3>
    %ahead = arith.addi %iv, %c128 : i32
    %in = arith.cmpi slt, %ahead, %ub : i32
    tilegpu.acquire_stage %krel[%write], %phase, %in for %kbuf : !tilegpu.mbarriers<3>, !tilegpu.memdesc<3x64x64xf16>
    tilegpu.acquire_stage %vrel[%write], %phase, %in for %vbuf : !tilegpu.mbarriers<3>, !tilegpu.memdesc<3x64x64xf16>
    tilegpu.tma_copy %tk[%koff, %c0], %kbuf[%write], %kbar, %in : <i8> -> !tilegpu.memdesc<3x64x64xf16>, !tilegpu.mbarriers<3>
    tilegpu.tma_copy %tv[%voff, %c0], %vbuf[%write], %vbar, %in : <i8> -> !tilegpu.memdesc<3x64x64xf16>, !tilegpu.mbarriers<3>
    %s = tilegpu.warpgroup_dot %q[%c0], %kbuf[%read], %zero {b_k_major} : !tilegpu.memdesc<1x128x64xf16>, !tilegpu.memdesc<3x64x64xf16>, tensor<128x64xf32, #mma>
    %sw = tilegpu.warpgroup_dot_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
    tilegpu.release_stage %krel[%read] : !tilegpu.mbarriers<3>
    %rowmax = tile.reduce(%sw) {axis = 1 : i32} : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #slice> {
    ^bb0(%x: f32, %y: f32):
      %mx = arith.maxnumf %x, %y : f32
      tile.reduce_return %mx : f32
    }
    %mnew = arith.maxnumf %m, %rowmax : tensor<128xf32, #slice>
    %mb = tile.expand_dims %mnew {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #mma>
    %mbb = tile.broadcast %mb : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %sub = arith.subf %sw, %mbb : tensor<128x64xf32, #mma>
    %p = math.exp2 %sub : tensor<128x64xf32, #mma>
    %dm = arith.subf %m, %mnew : tensor<128xf32, #slice>
    %alpha = math.exp2 %dm : tensor<128xf32, #slice>
    %ae = tile.expand_dims %alpha {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #mma>
    %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %scaled = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
    %p16 = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %pv = tilegpu.warpgroup_dot %p16, %vbuf[%read], %scaled : tensor<128x64xf16, #mma>, !tilegpu.memdesc<3x64x64xf16>, tensor<128x64xf32, #mma>
    %pvw = tilegpu.warpgroup_dot_wait %pv {pending = 0 : i32} : tensor<128x64xf32, #mma>
    tilegpu.release_stage %vrel[%read] : !tilegpu.mbarriers<3>
    %lnew = arith.mulf %l, %alpha : tensor<128xf32, #slice>
    %koff1 = arith.addi %koff, %c64 : i32
    %voff1 = arith.addi %voff, %c64 : i32
    %read1 = arith.addi %read, %c1 : i32
    %rw = arith.cmpi eq, %read1, %c3 : i32
    %read2 = arith.select %rw, %c0, %read1 : i32
    %write1 = arith.addi %write, %c1 : i32
    %ww = arith.cmpi eq, %write1, %c3 : i32
    %write2 = arith.select %ww, %c0, %write1 : i32
    %wrapped = arith.cmpi eq, %read2, %c0 : i32
    %flip = arith.xori %phase, %c1 : i32
    %phase1 = arith.select %wrapped, %flip, %phase : i32
    scf.yield %pvw, %lnew, %mnew, %koff1, %voff1, %read2, %write2, %phase1 : tensor<128x64xf32, #mma>, tensor<128xf32, #slice>, tensor<128xf32, #slice>, i32, i32, i32, i32, i32
  }
  return %r#0, %r#1 : tensor<128x64xf32, #mma>, tensor<128xf32, #slice>
}
}

// -----

// The accumulator's iteration value is also read before the second dot
// (by part 0): delaying part 1 would change what that read sees, so the
// loop stays as it is.
// CHECK-LABEL: func.func @accumulator_read_early
// CHECK-NOT: scf.if
// CHECK: scf.for
// CHECK-NOT: pending = 1
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#slice = #tilegpu.slice<{dim = 1, parent = #mma}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "sm_90a", "tilegpu.threads-per-warp" = 32 : i32} {
func.func @accumulator_read_early(%lb: i32, %ub: i32, %tk: !tile.ptr<i8>, %tv: !tile.ptr<i8>, %scale: f32) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #slice>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #mma>
  %one = arith.constant dense<1.000000e+00> : tensor<128xf32, #slice>
  %ninf = arith.constant dense<0xFF800000> : tensor<128xf32, #slice>
  %q = tilegpu.local_alloc : !tilegpu.memdesc<1x128x64xf16>
  %kbuf = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
  %kbar = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %vbuf = tilegpu.local_alloc : !tilegpu.memdesc<3x64x64xf16>
  %vbar = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %krel = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %vrel = tilegpu.local_alloc : !tilegpu.mbarriers<3>
  %r:8 = scf.for %iv = %lb to %ub step %c64 iter_args(%acc = %zero, %l = %one, %m = %ninf, %koff = %c128, %voff = %c128, %read = %c0, %write = %c2, %phase = %c0) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #slice>, tensor<128xf32, #slice>, i32, i32, i32, i32, i32) : i32 {
    tilegpu.tma_wait %kbar[%read], %phase : !tilegpu.mbarriers<3>
    tilegpu.tma_wait %vbar[%read], %phase : !tilegpu.mbarriers<3>
    %ahead = arith.addi %iv, %c128 : i32
    %in = arith.cmpi slt, %ahead, %ub : i32
    tilegpu.acquire_stage %krel[%write], %phase, %in for %kbuf : !tilegpu.mbarriers<3>, !tilegpu.memdesc<3x64x64xf16>
    tilegpu.acquire_stage %vrel[%write], %phase, %in for %vbuf : !tilegpu.mbarriers<3>, !tilegpu.memdesc<3x64x64xf16>
    tilegpu.tma_copy %tk[%koff, %c0], %kbuf[%write], %kbar, %in : <i8> -> !tilegpu.memdesc<3x64x64xf16>, !tilegpu.mbarriers<3>
    tilegpu.tma_copy %tv[%voff, %c0], %vbuf[%write], %vbar, %in : <i8> -> !tilegpu.memdesc<3x64x64xf16>, !tilegpu.mbarriers<3>
    %s = tilegpu.warpgroup_dot %q[%c0], %kbuf[%read], %zero {b_k_major} : !tilegpu.memdesc<1x128x64xf16>, !tilegpu.memdesc<3x64x64xf16>, tensor<128x64xf32, #mma>
    %sw = tilegpu.warpgroup_dot_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
    tilegpu.release_stage %krel[%read] : !tilegpu.mbarriers<3>
    %early = arith.addf %acc, %sw : tensor<128x64xf32, #mma>
    %rowmax = tile.reduce(%sw) {axis = 1 : i32} : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #slice> {
    ^bb0(%x: f32, %y: f32):
      %mx = arith.maxnumf %x, %y : f32
      tile.reduce_return %mx : f32
    }
    %mnew = arith.maxnumf %m, %rowmax : tensor<128xf32, #slice>
    %mb = tile.expand_dims %mnew {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #mma>
    %mbb = tile.broadcast %mb : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %sub = arith.subf %sw, %mbb : tensor<128x64xf32, #mma>
    %p = math.exp2 %sub : tensor<128x64xf32, #mma>
    %dm = arith.subf %m, %mnew : tensor<128xf32, #slice>
    %alpha = math.exp2 %dm : tensor<128xf32, #slice>
    %ae = tile.expand_dims %alpha {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #mma>
    %ab = tile.broadcast %ae : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %scaled = arith.mulf %acc, %ab : tensor<128x64xf32, #mma>
    %p16 = arith.truncf %p : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %pv = tilegpu.warpgroup_dot %p16, %vbuf[%read], %scaled : tensor<128x64xf16, #mma>, !tilegpu.memdesc<3x64x64xf16>, tensor<128x64xf32, #mma>
    %pvw = tilegpu.warpgroup_dot_wait %pv {pending = 0 : i32} : tensor<128x64xf32, #mma>
    tilegpu.release_stage %vrel[%read] : !tilegpu.mbarriers<3>
    %lnew = arith.mulf %l, %alpha : tensor<128xf32, #slice>
    %koff1 = arith.addi %koff, %c64 : i32
    %voff1 = arith.addi %voff, %c64 : i32
    %read1 = arith.addi %read, %c1 : i32
    %rw = arith.cmpi eq, %read1, %c3 : i32
    %read2 = arith.select %rw, %c0, %read1 : i32
    %write1 = arith.addi %write, %c1 : i32
    %ww = arith.cmpi eq, %write1, %c3 : i32
    %write2 = arith.select %ww, %c0, %write1 : i32
    %wrapped = arith.cmpi eq, %read2, %c0 : i32
    %flip = arith.xori %phase, %c1 : i32
    %phase1 = arith.select %wrapped, %flip, %phase : i32
    scf.yield %pvw, %lnew, %mnew, %koff1, %voff1, %read2, %write2, %phase1 : tensor<128x64xf32, #mma>, tensor<128xf32, #slice>, tensor<128xf32, #slice>, i32, i32, i32, i32, i32
  }
  return %r#0, %r#1 : tensor<128x64xf32, #mma>, tensor<128xf32, #slice>
}
}
