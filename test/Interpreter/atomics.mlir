// RUN: tile-run %s --interpret --print-buffer cnt --print-buffer fsum --print-buffer mx --print-buffer lock --print-buffer bits | FileCheck %s
// Atomics: lanes that hit one address see each other's updates, masks
// skip lanes, and the old values come back.

// tile-run: atomics
//   cnt = zeros(i32, 1)
//   fsum = zeros(fp32, 1)
//   mx = zeros(i32, 1)
//   lock = zeros(i32, 1)
//   bits = zeros(i32, 1)
//   args = (cnt, fsum, mx, lock, bits)
//   grid = (4,)

// CHECK: pid (0, 0, 0) idx (0) old: 0
// CHECK: pid (0, 0, 0) idx (7) old: 7
// CHECK: pid (0, 0, 0) idx () cas old: 0
// CHECK: pid (3, 0, 0) idx (7) old: 31
// CHECK: pid (3, 0, 0) idx () cas old: 3
// 4 programs x 8 lanes add 1; 2 unmasked lanes per program add 0.5; the
// largest of pid * 10 - 5; the CAS chain 0 -> 1 -> 2 -> 3 -> 4; or of 1 << pid.
// CHECK: cnt = 32
// CHECK: fsum = 4
// CHECK: mx = 25
// CHECK: lock = 4
// CHECK: bits = 15

func.func @atomics(%cnt: !tile.ptr<i32>, %fsum: !tile.ptr<f32>, %mx: !tile.ptr<i32>, %lock: !tile.ptr<i32>, %bits: !tile.ptr<i32>) {
  %pid = tile.program_id 0 : i32
  %cnts = tile.splat %cnt : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %ones = arith.constant dense<1> : tensor<8xi32>
  %old = tile.atomic_rmw add, %cnts, %ones : tensor<8x!tile.ptr<i32>>
  tile.print " old: " {hex = false, isSigned = array<i32: 1>} : %old : tensor<8xi32>
  %r = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %two = arith.constant dense<2> : tensor<8xi32>
  %m = arith.cmpi slt, %r, %two : tensor<8xi32>
  %fs = tile.splat %fsum : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %half = arith.constant dense<0.5> : tensor<8xf32>
  %fold = tile.atomic_rmw fadd, %fs, %half, %m : tensor<8x!tile.ptr<f32>>
  %c10 = arith.constant 10 : i32
  %c5 = arith.constant 5 : i32
  %p10 = arith.muli %pid, %c10 : i32
  %v = arith.subi %p10, %c5 : i32
  %mold = tile.atomic_rmw max, %mx, %v : !tile.ptr<i32>
  %c1 = arith.constant 1 : i32
  %next = arith.addi %pid, %c1 : i32
  %cas = tile.atomic_cas %lock, %pid, %next : !tile.ptr<i32>
  tile.print " cas old: " {hex = false, isSigned = array<i32: 1>} : %cas : i32
  %bit = arith.shli %c1, %pid : i32
  %bold = tile.atomic_rmw or, %bits, %bit : !tile.ptr<i32>
  return
}
