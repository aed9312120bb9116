// RUN: tile-opt %s -convert-tile-to-tilegpu=num-warps=4 | FileCheck %s
// A scan keeps its operand's blocked layout; an operand in a slice layout
// (a reduction's result) is converted to the default blocked layout of its
// rank first, since scans are lowered from blocked layouts.

// CHECK-DAG: #[[B1:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[B2:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 0]}>
// CHECK-DAG: #[[S:.*]] = #tilegpu.slice<{dim = 1, parent = #[[B2]]}>
// CHECK-LABEL: func.func @scans
func.func @scans() {
  %m = arith.constant dense<1.0> : tensor<64x128xf32>
  // CHECK: tile.scan(%{{.*}}) {axis = 1 : i32} : (tensor<64x128xf32, #[[B2]]>) -> tensor<64x128xf32, #[[B2]]>
  %s = tile.scan(%m) {axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<64x128xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.scan_return %z : f32
  }
  // CHECK: %[[R:.*]] = tile.reduce{{.*}} -> tensor<64xf32, #[[S]]>
  %r = tile.reduce(%s) {axis = 1 : i32} : (tensor<64x128xf32>) -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maxnumf %x, %y : f32
    tile.reduce_return %z : f32
  }
  // CHECK: %[[C:.*]] = tilegpu.convert_layout %[[R]] : tensor<64xf32, #[[S]]> -> tensor<64xf32, #[[B1]]>
  // CHECK: tile.scan(%[[C]]) {axis = 0 : i32, reverse} : (tensor<64xf32, #[[B1]]>) -> tensor<64xf32, #[[B1]]>
  %c = tile.scan(%r) {axis = 0 : i32, reverse} : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.scan_return %z : f32
  }
  return
}
