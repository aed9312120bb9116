// RUN: tile-run %s --interpret | FileCheck %s
// Elementwise ops, NaN handling of the float min/max flavours, select on a
// mask, scf.if / scf.while, and the tile ops arith lacks (umulhi,
// precise_sqrt, precise_divf, clampf, pointer casts, num_programs).

// tile-run: elementwise
//   buf = zeros(i32, 4)
//   args = (buf,)
//   grid = (3,)

// maxnumf ignores NaN, maximumf propagates it; -0 < +0 for both.
// CHECK: pid (0, 0, 0) idx (0) max: (operand 0) 1.000000
// CHECK-NEXT: pid (0, 0, 0) idx (1) max: (operand 0) 0.000000
// CHECK-NEXT: pid (0, 0, 0) idx (0) max: (operand 1) nan
// CHECK-NEXT: pid (0, 0, 0) idx (1) max: (operand 1) 0.000000
// NaN compares unordered: olt false, ult true.
// CHECK: pid (0, 0, 0) idx (0) cmp: (operand 0) 0
// CHECK: pid (0, 0, 0) idx (0) cmp: (operand 1) 1
// where(x > 2, x, -x) over 0..3:
// CHECK: pid (0, 0, 0) idx (0) where: -0.000000
// CHECK: pid (0, 0, 0) idx (1) where: -1.000000
// CHECK: pid (0, 0, 0) idx (3) where: 3.000000
// -7 / 2: divsi toward zero, floordivsi, remsi; ceildivsi(-7, -2).
// CHECK: pid (0, 0, 0) idx () div: (operand 0) -3
// CHECK-NEXT: pid (0, 0, 0) idx () div: (operand 1) -4
// CHECK-NEXT: pid (0, 0, 0) idx () div: (operand 2) -1
// CHECK-NEXT: pid (0, 0, 0) idx () div: (operand 3) 4
// Shifts by the width or more give 0 (or the sign), as PTX.
// CHECK: pid (0, 0, 0) idx () shifts: (operand 0) 0
// CHECK-NEXT: pid (0, 0, 0) idx () shifts: (operand 1) -1
// CHECK-NEXT: pid (0, 0, 0) idx () shifts: (operand 2) 0
// CHECK: pid (0, 0, 0) idx () umulhi: 2147483647
// CHECK: pid (0, 0, 0) idx () math: (operand 0) 2.000000
// CHECK-NEXT: pid (0, 0, 0) idx () math: (operand 1) 0.500000
// CHECK-NEXT: pid (0, 0, 0) idx () math: (operand 2) 1.414214
// CHECK-NEXT: pid (0, 0, 0) idx () math: (operand 3) 3.000000
// CHECK-NEXT: pid (0, 0, 0) idx () math: (operand 4) 1.000000
// clamp(NaN) with propagateNan is NaN.
// CHECK: pid (0, 0, 0) idx (0) clamp: (operand 0) 0.000000
// CHECK-NEXT: pid (0, 0, 0) idx (1) clamp: (operand 0) nan
// CHECK-NEXT: pid (0, 0, 0) idx (0) clamp: (operand 1) 2.000000
// CHECK-NEXT: pid (0, 0, 0) idx (1) clamp: (operand 1) 2.000000
// CHECK: pid (0, 0, 0) idx () ptr: 4
// scf.if picks a branch per program; scf.while counts Collatz steps of 6.
// CHECK: pid (0, 0, 0) idx () if: 100
// CHECK: pid (0, 0, 0) idx () grid: 3
// CHECK: pid (0, 0, 0) idx () while: 8
// CHECK: pid (1, 0, 0) idx () if: 200

func.func @elementwise(%buf: !tile.ptr<i32>) {
  %pid = tile.program_id 0 : i32
  %a = arith.constant dense<[1.0, -0.0]> : tensor<2xf32>
  %b = arith.constant dense<[0x7FC00000, 0.0]> : tensor<2xf32>
  %mx = arith.maxnumf %a, %b : tensor<2xf32>
  %mxp = arith.maximumf %a, %b : tensor<2xf32>
  tile.print " max: " {hex = false, isSigned = array<i32: 0, 0>} : %mx, %mxp : tensor<2xf32>, tensor<2xf32>
  %lt = arith.cmpf olt, %a, %b : tensor<2xf32>
  %ult = arith.cmpf ult, %a, %b : tensor<2xf32>
  tile.print " cmp: " {hex = false, isSigned = array<i32: 0, 0>} : %lt, %ult : tensor<2xi1>, tensor<2xi1>
  %r = tile.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %rf = arith.sitofp %r : tensor<4xi32> to tensor<4xf32>
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %gt = arith.cmpf ogt, %rf, %two : tensor<4xf32>
  %neg = arith.negf %rf : tensor<4xf32>
  %w = arith.select %gt, %rf, %neg : tensor<4xi1>, tensor<4xf32>
  tile.print " where: " {hex = false, isSigned = array<i32: 0>} : %w : tensor<4xf32>
  %m7 = arith.constant -7 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %d = arith.divsi %m7, %c2 : i32
  %fd = arith.floordivsi %m7, %c2 : i32
  %rm = arith.remsi %m7, %c2 : i32
  %m2 = arith.constant -2 : i32
  %cd = arith.ceildivsi %m7, %m2 : i32
  tile.print " div: " {hex = false, isSigned = array<i32: 1, 1, 1, 1>} : %d, %fd, %rm, %cd : i32, i32, i32, i32
  %c40 = arith.constant 40 : i32
  %one = arith.constant 1 : i32
  %shl = arith.shli %one, %c40 : i32
  %shr = arith.shrsi %m7, %c40 : i32
  %shru = arith.shrui %m7, %c40 : i32
  tile.print " shifts: " {hex = false, isSigned = array<i32: 1, 1, 1>} : %shl, %shr, %shru : i32, i32, i32
  %big = arith.constant -1 : i32
  %half = arith.constant 2147483648 : i32
  %hi = tile.umulhi %big, %half : i32
  tile.print " umulhi: " {hex = false, isSigned = array<i32: 0>} : %hi : i32
  %f4 = arith.constant 4.0 : f32
  %f8 = arith.constant 8.0 : f32
  %f2 = arith.constant 2.0 : f32
  %sq = tile.precise_sqrt %f4 : f32
  %dv = tile.precise_divf %f4, %f8 : f32
  %s2 = math.sqrt %f2 : f32
  %e = math.log2 %f8 : f32
  %zero = arith.constant 0.0 : f32
  %ex = math.exp %zero : f32
  tile.print " math: " {hex = false, isSigned = array<i32: 0, 0, 0, 0, 0>} : %sq, %dv, %s2, %e, %ex : f32, f32, f32, f32, f32
  %cx = arith.constant dense<[-1.0, 0x7FC00000]> : tensor<2xf32>
  %lo = arith.constant dense<0.0> : tensor<2xf32>
  %hi2 = arith.constant dense<2.0> : tensor<2xf32>
  %cl = tile.clampf %cx, %lo, %hi2 {propagateNan} : tensor<2xf32>
  %cy = arith.constant dense<[5.0, 9.0]> : tensor<2xf32>
  %cl2 = tile.clampf %cy, %lo, %hi2 : tensor<2xf32>
  tile.print " clamp: " {hex = false, isSigned = array<i32: 0, 0>} : %cl, %cl2 : tensor<2xf32>, tensor<2xf32>
  %p1 = tile.addptr %buf, %one : !tile.ptr<i32>, i32
  %i0 = tile.ptr_to_int %buf : !tile.ptr<i32> -> i64
  %i1 = tile.ptr_to_int %p1 : !tile.ptr<i32> -> i64
  %delta = arith.subi %i1, %i0 : i64
  tile.print " ptr: " {hex = false, isSigned = array<i32: 1>} : %delta : i64
  %back = tile.int_to_ptr %i1 : i64 -> !tile.ptr<i32>
  %asf = tile.ptr_cast %back : !tile.ptr<i32> -> !tile.ptr<f32>
  %fl = tile.load %asf : !tile.ptr<f32>
  %n = tile.num_programs 0 : i32
  %c0 = arith.constant 0 : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %sel = scf.if %first -> (i32) {
    %v = arith.constant 100 : i32
    scf.yield %v : i32
  } else {
    %v = arith.constant 200 : i32
    scf.yield %v : i32
  }
  tile.print " if: " {hex = false, isSigned = array<i32: 1>} : %sel : i32
  tile.print " grid: " {hex = false, isSigned = array<i32: 1>} : %n : i32
  %six = arith.constant 6 : i32
  %res:2 = scf.while (%x = %six, %steps = %c0) : (i32, i32) -> (i32, i32) {
    %done = arith.cmpi ne, %x, %one : i32
    scf.condition(%done) %x, %steps : i32, i32
  } do {
  ^bb0(%x: i32, %steps: i32):
    %odd = arith.andi %x, %one : i32
    %isodd = arith.cmpi ne, %odd, %c0 : i32
    %nx = scf.if %isodd -> (i32) {
      %t = arith.muli %x, %c3 : i32
      %t1 = arith.addi %t, %one : i32
      scf.yield %t1 : i32
    } else {
      %h = arith.divsi %x, %c2 : i32
      scf.yield %h : i32
    }
    %ns = arith.addi %steps, %one : i32
    scf.yield %nx, %ns : i32, i32
  }
  %p0 = arith.cmpi eq, %pid, %c0 : i32
  scf.if %p0 {
    tile.print " while: " {hex = false, isSigned = array<i32: 1>} : %res#1 : i32
  }
  return
}
