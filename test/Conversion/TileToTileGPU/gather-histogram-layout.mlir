// RUN: tile-opt %s -convert-tile-to-tilegpu=num-warps=4 | FileCheck %s
// A gather's index is converted to its result's layout (here from a
// transpose's permuted layout), so that their registers line up; a
// histogram counts from a blocked operand, here the reduction's sliced
// result converted to one, with its mask alike.

// CHECK-LABEL: func.func @gather
// CHECK: %[[T:.*]] = tile.trans
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[T]] : tensor<8x4xi32, #[[P:blocked[0-9]*]]> -> tensor<8x4xi32, #[[L:blocked[0-9]*]]>
// CHECK: tile.gather %{{.*}}[%[[C]]] {axis = 0 : i32} : tensor<32x4xf32, #[[L]]>, tensor<8x4xi32, #[[L]]> -> tensor<8x4xf32, #[[L]]>
func.func @gather(%x: tensor<32x4xf32>, %i: tensor<4x8xi32>, %p: tensor<8x4x!tile.ptr<f32>>) {
  %t = tile.trans %i {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<8x4xi32>
  %g = tile.gather %x[%t] {axis = 0 : i32} : tensor<32x4xf32>, tensor<8x4xi32> -> tensor<8x4xf32>
  tile.store %p, %g : tensor<8x4x!tile.ptr<f32>>
  return
}

// CHECK-LABEL: func.func @histogram
// CHECK: %[[S:.*]] = tile.reduce
// CHECK: %[[C:.*]] = tilegpu.convert_layout %[[S]] : tensor<16xi32, #slice{{[0-9]*}}> -> tensor<16xi32, #[[B:blocked[0-9]*]]>
// CHECK: tile.histogram %[[C]], %{{.*}} : tensor<16xi32, #[[B]]>, tensor<16xi1, #[[B]]> -> tensor<32xi32, #[[B]]>
func.func @histogram(%x: tensor<16x8xi32>, %m: tensor<16xi1>, %p: tensor<32x!tile.ptr<i32>>) {
  %s = tile.reduce(%x) {axis = 1 : i32} : (tensor<16x8xi32>) -> tensor<16xi32> {
  ^bb0(%l: i32, %r: i32):
    %q = arith.addi %l, %r : i32
    tile.reduce_return %q : i32
  }
  %h = tile.histogram %s, %m : tensor<16xi32>, tensor<16xi1> -> tensor<32xi32>
  tile.store %p, %h : tensor<32x!tile.ptr<i32>>
  return
}
