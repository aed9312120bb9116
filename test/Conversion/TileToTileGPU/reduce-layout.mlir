// RUN: tile-opt %s -convert-tile-to-tilegpu=num-warps=4 | FileCheck %s
// A reduction of a reduction's (sliced) result: the operand is converted to
// a blocked layout, and the result is the slice of that blocked layout, not
// of the operand's slice.

// CHECK-DAG: #[[B2:blocked[0-9]*]] = #tilegpu.blocked<{{.*}}order = [1, 0]}>
// CHECK-DAG: #[[S2:slice[0-9]*]] = #tilegpu.slice<{dim = 1, parent = #[[B2]]}>
// CHECK-LABEL: func.func @twice
// CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} : tensor<8x4xf32, #slice{{[0-9]*}}> -> tensor<8x4xf32, #[[B2]]>
// CHECK: tile.reduce(%[[C]]) {axis = 1 : i32} : (tensor<8x4xf32, #[[B2]]>) -> tensor<8xf32, #[[S2]]>
func.func @twice(%x: tensor<8x4x16xf32>, %p: tensor<8x!tile.ptr<f32>>) {
  %a = tile.reduce(%x) {axis = 2 : i32} : (tensor<8x4x16xf32>) -> tensor<8x4xf32> {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tile.reduce_return %s : f32
  }
  %b = tile.reduce(%a) {axis = 1 : i32} : (tensor<8x4xf32>) -> tensor<8xf32> {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    tile.reduce_return %s : f32
  }
  tile.store %p, %b : tensor<8x!tile.ptr<f32>>
  return
}
