// RUN: tile-run %s --interpret | FileCheck %s
// Shape ops keep Triton's element order: expand_dims + broadcast, reshape,
// trans, cat (lhs rows first), join (new minor dimension) and split.

// tile-run: shapes
//   grid = (1,)

// CHECK: pid (0, 0, 0) idx (0, 0) bcast: 0
// CHECK: pid (0, 0, 0) idx (0, 2) bcast: 0
// CHECK: pid (0, 0, 0) idx (1, 0) bcast: 1
// CHECK: pid (0, 0, 0) idx (1, 2) bcast: 1
// trans of [[0, 1, 2, 3], [4, 5, 6, 7]]:
// CHECK: pid (0, 0, 0) idx (0, 1) trans: 4
// CHECK: pid (0, 0, 0) idx (3, 0) trans: 3
// CHECK: pid (0, 0, 0) idx (3, 1) trans: 7
// CHECK: pid (0, 0, 0) idx (0) cat: 0
// CHECK: pid (0, 0, 0) idx (4) cat: 10
// CHECK: pid (0, 0, 0) idx (7) cat: 13
// CHECK: pid (0, 0, 0) idx (0, 1) join: 10
// CHECK: pid (0, 0, 0) idx (3, 0) join: 3
// CHECK: pid (0, 0, 0) idx (3) split: (operand 0) 3
// CHECK: pid (0, 0, 0) idx (3) split: (operand 1) 13
// A 3-D permutation: result dimension i is operand dimension order[i].
// CHECK: pid (0, 0, 0) idx (0, 0, 1) perm: 2
// CHECK: pid (0, 0, 0) idx (0, 1, 0) perm: 4
// CHECK: pid (0, 0, 0) idx (1, 0, 0) perm: 1

func.func @shapes() {
  %r = tile.make_range {end = 2 : i32, start = 0 : i32} : tensor<2xi32>
  %e = tile.expand_dims %r {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %b = tile.broadcast %e : tensor<2x1xi32> -> tensor<2x3xi32>
  tile.print " bcast: " {hex = false, isSigned = array<i32: 1>} : %b : tensor<2x3xi32>
  %r8 = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %r4 = tile.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %m = tile.reshape %r8 : tensor<8xi32> -> tensor<2x4xi32>
  %t = tile.trans %m {order = array<i32: 1, 0>} : tensor<2x4xi32> -> tensor<4x2xi32>
  tile.print " trans: " {hex = false, isSigned = array<i32: 1>} : %t : tensor<4x2xi32>
  %ten = arith.constant dense<10> : tensor<4xi32>
  %r4b = arith.addi %r4, %ten : tensor<4xi32>
  %c = tile.cat %r4, %r4b : tensor<4xi32> -> tensor<8xi32>
  tile.print " cat: " {hex = false, isSigned = array<i32: 1>} : %c : tensor<8xi32>
  %j = tile.join %r4, %r4b : tensor<4xi32> -> tensor<4x2xi32>
  tile.print " join: " {hex = false, isSigned = array<i32: 1>} : %j : tensor<4x2xi32>
  %s0, %s1 = tile.split %j : tensor<4x2xi32> -> tensor<4xi32>
  tile.print " split: " {hex = false, isSigned = array<i32: 1, 1>} : %s0, %s1 : tensor<4xi32>, tensor<4xi32>
  %cube = tile.reshape %r8 : tensor<8xi32> -> tensor<2x2x2xi32>
  %p = tile.trans %cube {order = array<i32: 2, 0, 1>} : tensor<2x2x2xi32> -> tensor<2x2x2xi32>
  tile.print " perm: " {hex = false, isSigned = array<i32: 1>} : %p : tensor<2x2x2xi32>
  return
}
