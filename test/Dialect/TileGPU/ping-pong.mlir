// RUN: tile-opt %s -split-input-file -tilegpu-ping-pong | FileCheck %s

// Two consumer warpgroups (num-warps 8) behind a producer: the loop that
// chains its dots (P V reads A from registers) issues them in turns; the
// second warpgroup passes first, the first takes last. A dot outside the
// loop (the q k^T a tile peels) takes a turn of its own.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]}>
// CHECK-LABEL: func.func @chained
// CHECK: tilegpu.set_max_registers 232
// CHECK-NEXT: tilegpu.pass_turn {group = 1 : i32}
// CHECK-NEXT: tilegpu.take_turn{{$}}
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.pass_turn{{$}}
// CHECK-NEXT: tilegpu.warpgroup_dot_wait
// CHECK-NEXT: scf.for
// CHECK-NEXT: tilegpu.take_turn{{$}}
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.pass_turn{{$}}
// CHECK-NEXT: tilegpu.warpgroup_dot_wait
// CHECK: tilegpu.take_turn {group = 0 : i32}
// CHECK-NEXT: }
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.producer-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @chained(%producer: i1, %s0: tensor<128x64xf32, #mma>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %k = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %v = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %q = tilegpu.local_alloc : !tilegpu.memdesc<1x128x64xf16>
  scf.if %producer {
    tilegpu.set_max_registers 40
  } else {
    tilegpu.set_max_registers 232
    %first = tilegpu.warpgroup_dot %q[%c0], %k[%c0], %s0 {b_k_major} : !tilegpu.memdesc<1x128x64xf16>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
    %f = tilegpu.warpgroup_dot_wait %first {pending = 0 : i32} : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f) -> (tensor<128x64xf32, #mma>) : i32 {
      %s = tilegpu.warpgroup_dot %q[%c0], %k[%c0], %s0 {b_k_major} : !tilegpu.memdesc<1x128x64xf16>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
      %p = arith.truncf %acc : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %o = tilegpu.warpgroup_dot %p, %v[%c0], %acc : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
      %w = tilegpu.warpgroup_dot_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %w : tensor<128x64xf32, #mma>
    }
  } {tilegpu.warp_roles}
  return
}
}

// -----

// A matmul's loop (A from shared memory) keeps its dots as they are: it has
// no softmax for the other warpgroup's dots to overlap.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]}>
// CHECK-LABEL: func.func @unchained
// CHECK-NOT: _turn
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.producer-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @unchained(%producer: i1, %s0: tensor<128x64xf32, #mma>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = tilegpu.local_alloc : !tilegpu.memdesc<2x128x64xf16>
  %b = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  scf.if %producer {
    tilegpu.set_max_registers 40
  } else {
    tilegpu.set_max_registers 232
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s0) -> (tensor<128x64xf32, #mma>) : i32 {
      %d = tilegpu.warpgroup_dot %a[%c0], %b[%c0], %acc : !tilegpu.memdesc<2x128x64xf16>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
      %w = tilegpu.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %w : tensor<128x64xf32, #mma>
    }
  } {tilegpu.warp_roles}
  return
}
}

// -----

// Four consumer warps are one warpgroup: there is no one to take turns with.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
// CHECK-LABEL: func.func @one_consumer_warpgroup
// CHECK-NOT: _turn
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.producer-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @one_consumer_warpgroup(%producer: i1, %s0: tensor<64x64xf32, #mma>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %v = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  scf.if %producer {
    tilegpu.set_max_registers 40
  } else {
    tilegpu.set_max_registers 232
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %s0) -> (tensor<64x64xf32, #mma>) : i32 {
      %p = arith.truncf %acc : tensor<64x64xf32, #mma> to tensor<64x64xf16, #mma>
      %o = tilegpu.warpgroup_dot %p, %v[%c0], %acc : tensor<64x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<64x64xf32, #mma>
      %w = tilegpu.warpgroup_dot_wait %o {pending = 0 : i32} : tensor<64x64xf32, #mma>
      scf.yield %w : tensor<64x64xf32, #mma>
    }
  } {tilegpu.warp_roles}
  return
}
}

// -----

// A loop around the chained one that issues dots of its own (a tile's
// peeled q k^T and last P V, without a branch between): a turn around its
// body would enclose the inner loop's turns, so only the inner loop takes
// turns and the outer dots take one each.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]}>
// CHECK-LABEL: func.func @nested
// CHECK: scf.for
// CHECK-NEXT: tilegpu.take_turn{{$}}
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.pass_turn{{$}}
// CHECK-NEXT: scf.for
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: tilegpu.take_turn{{$}}
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.pass_turn{{$}}
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: arith.truncf
// CHECK-NEXT: tilegpu.take_turn{{$}}
// CHECK-NEXT: tilegpu.warpgroup_dot
// CHECK-NEXT: tilegpu.pass_turn{{$}}
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.producer-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @nested(%producer: i1, %s0: tensor<128x64xf32, #mma>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %k = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %v = tilegpu.local_alloc : !tilegpu.memdesc<2x64x64xf16>
  %q = tilegpu.local_alloc : !tilegpu.memdesc<1x128x64xf16>
  scf.if %producer {
    tilegpu.set_max_registers 40
  } else {
    tilegpu.set_max_registers 232
    %t = scf.for %j = %c0 to %n step %c1 iter_args(%o = %s0) -> (tensor<128x64xf32, #mma>) : i32 {
      %first = tilegpu.warpgroup_dot %q[%c0], %k[%c0], %s0 {b_k_major} : !tilegpu.memdesc<1x128x64xf16>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %first) -> (tensor<128x64xf32, #mma>) : i32 {
        %p = arith.truncf %acc : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
        %d = tilegpu.warpgroup_dot %p, %v[%c0], %acc : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
        %w = tilegpu.warpgroup_dot_wait %d {pending = 0 : i32} : tensor<128x64xf32, #mma>
        scf.yield %w : tensor<128x64xf32, #mma>
      }
      %p = arith.truncf %r : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      %last = tilegpu.warpgroup_dot %p, %v[%c0], %r : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
      %l = tilegpu.warpgroup_dot_wait %last {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %l : tensor<128x64xf32, #mma>
    }
  } {tilegpu.warp_roles}
  return
}
}
