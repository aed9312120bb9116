// RUN: tile-opt %s -tile-widen-bool-memory | FileCheck %s
// Bool blocks live in memory as bytes: loads through pointers to i1 read i8
// and compare with zero, stores write zext(value); other accesses stay.

// CHECK-LABEL: func.func @bools
func.func @bools(%p: tensor<64x!tile.ptr<i1>>, %q: tensor<64x!tile.ptr<f32>>,
                 %m: tensor<64xi1>, %other: tensor<64xi1>) -> tensor<64xi1> {
  // CHECK: %[[OTHER:.*]] = arith.extui %arg3 : tensor<64xi1> to tensor<64xi8>
  // CHECK: %[[BYTES:.*]] = tile.ptr_cast %arg0 : tensor<64x!tile.ptr<i1>> -> tensor<64x!tile.ptr<i8>>
  // CHECK: %[[LOADED:.*]] = tile.load %[[BYTES]], %arg2, other %[[OTHER]] : tensor<64x!tile.ptr<i8>>
  // CHECK: %[[ZERO:.*]] = arith.constant dense<0> : tensor<64xi8>
  // CHECK: %[[BOOL:.*]] = arith.cmpi ne, %[[LOADED]], %[[ZERO]] : tensor<64xi8>
  %b = tile.load %p, %m, other %other : tensor<64x!tile.ptr<i1>>
  // CHECK: tile.load %arg1 : tensor<64x!tile.ptr<f32>>
  %f = tile.load %q : tensor<64x!tile.ptr<f32>>
  // CHECK: %[[P2:.*]] = tile.ptr_cast %arg0
  // CHECK: %[[WIDE:.*]] = arith.extui %[[BOOL]] : tensor<64xi1> to tensor<64xi8>
  // CHECK: tile.store %[[P2]], %[[WIDE]], %arg2 : tensor<64x!tile.ptr<i8>>
  tile.store %p, %b, %m : tensor<64x!tile.ptr<i1>>
  // CHECK: return %[[BOOL]]
  return %b : tensor<64xi1>
}

// A scalar bool through a scalar pointer.
// CHECK-LABEL: func.func @scalar
func.func @scalar(%p: !tile.ptr<i1>) -> i1 {
  // CHECK: %[[B:.*]] = tile.ptr_cast %arg0 : !tile.ptr<i1> -> !tile.ptr<i8>
  // CHECK: %[[V:.*]] = tile.load %[[B]] : !tile.ptr<i8>
  // CHECK: arith.cmpi ne, %[[V]], %{{.*}} : i8
  %b = tile.load %p : !tile.ptr<i1>
  return %b : i1
}
