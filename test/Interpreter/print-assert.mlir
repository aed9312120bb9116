// RUN: tile-run %s --interpret | FileCheck %s
// RUN: not tile-run %s --interpret --set limit=5 2>&1 | FileCheck %s --check-prefix=ASSERT
// device_print prints each element of each argument with the program id
// and index, in Triton's format (hex when asked, signed as isSigned says); a failing device_assert reports its
// location, the program and the message, and tile-run exits non-zero.

// tile-run: print_assert
//   limit = 100
//   args = (limit,)
//   grid = (2, 2)

// CHECK: pid (0, 0, 0) idx (0) vals: (operand 0) 0
// CHECK-NEXT: pid (0, 0, 0) idx (1) vals: (operand 0) 1
// CHECK-NEXT: pid (0, 0, 0) idx (0) vals: (operand 1) -1
// CHECK-NEXT: pid (0, 0, 0) idx (1) vals: (operand 1) -2
// CHECK-NEXT: pid (0, 0, 0) idx () hex: 0xfffffffe
// CHECK-NEXT: pid (0, 0, 0) idx () unsigned: 4294967294
// CHECK: pid (1, 0, 0) idx (0) vals: (operand 0) 2
// CHECK: pid (1, 1, 0) idx (1) vals: (operand 0) 3
// CHECK: interpreter time: {{.*}} ms for 4 programs

// Program (1, 1) computes 2 * 1 + 1 * 4 = 6 > 5.
// ASSERT: print-assert.mlir:[[@LINE+22]]:3: error: in program (1, 1, 0): device_assert failed at element 0: value too large
// ASSERT-NEXT: tile.assert

func.func @print_assert(%limit: i32) {
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  %two = arith.constant 2 : i32
  %x2 = arith.muli %x, %two : i32
  %r = tile.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %s = tile.splat %x2 : i32 -> tensor<2xi32>
  %v = arith.addi %s, %r : tensor<2xi32>
  %m = arith.constant dense<[-1, -2]> : tensor<2xi32>
  tile.print " vals: " {hex = false, isSigned = array<i32: 1, 1>} : %v, %m : tensor<2xi32>, tensor<2xi32>
  %m2 = arith.constant -2 : i32
  tile.print " hex: " {hex = true, isSigned = array<i32: 1>} : %m2 : i32
  tile.print " unsigned: " {hex = false, isSigned = array<i32: 0>} : %m2 : i32
  %four = arith.constant 4 : i32
  %y4 = arith.muli %y, %four : i32
  %t = arith.addi %x2, %y4 : i32
  %ts = tile.splat %t : i32 -> tensor<2xi32>
  %ls = tile.splat %limit : i32 -> tensor<2xi32>
  %ok = arith.cmpi sle, %ts, %ls : tensor<2xi32>
  tile.assert %ok, "value too large" : tensor<2xi1>
  tile.debug_barrier
  return
}
