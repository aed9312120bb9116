// RUN: tile-opt %s -convert-tile-to-tilegpu=num-warps=4 | FileCheck %s
// A transpose's result takes its operand's blocked layout with the axes
// permuted (same registers, no data moved); the store converts it to the
// layout of its pointers.

// CHECK-DAG: #[[SRC:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[DST:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @trans
// CHECK: tile.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x64xf32, #[[SRC]]> -> tensor<64x16xf32, #[[DST]]>
// CHECK: tilegpu.convert_layout %{{.*}} : tensor<64x16xf32, #[[DST]]> -> tensor<64x16xf32, #[[SRC]]>
// CHECK: tile.store
func.func @trans(%x: tensor<16x64xf32>, %p: tensor<64x16x!tile.ptr<f32>>) {
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x64xf32> -> tensor<64x16xf32>
  tile.store %p, %t : tensor<64x16x!tile.ptr<f32>>
  return
}
