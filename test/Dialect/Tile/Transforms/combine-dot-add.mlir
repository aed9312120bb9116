// RUN: tile-opt %s -split-input-file -tile-combine-dot-add | FileCheck %s
// `acc += tl.dot(a, b)`: the addition becomes the dot's accumulator.

// CHECK-LABEL: func.func @float_add
// CHECK-SAME: (%[[A:.*]]: tensor<16x16xf16>, %[[B:.*]]: tensor<16x16xf16>, %[[ACC:.*]]: tensor<16x16xf32>)
// CHECK: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: return %[[D]]
func.func @float_add(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %acc: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %s = arith.addf %acc, %d : tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}

// -----

// The dot on the left of the addition, and integers.
// CHECK-LABEL: func.func @int_add
// CHECK-SAME: (%[[A:.*]]: tensor<16x32xi8>, %[[B:.*]]: tensor<32x16xi8>, %[[ACC:.*]]: tensor<16x16xi32>)
// CHECK: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[ACC]]
// CHECK-NEXT: return %[[D]]
func.func @int_add(%a: tensor<16x32xi8>, %b: tensor<32x16xi8>, %acc: tensor<16x16xi32>) -> tensor<16x16xi32> {
  %zero = arith.constant dense<0> : tensor<16x16xi32>
  %d = tile.dot %a, %b, %zero : tensor<16x32xi8> * tensor<32x16xi8> -> tensor<16x16xi32>
  %s = arith.addi %d, %acc : tensor<16x16xi32>
  return %s : tensor<16x16xi32>
}

// -----

// A dot with a nonzero accumulator, or with another user, stays.
// CHECK-LABEL: func.func @kept
// CHECK: %[[D1:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[C:.*]] :
// CHECK: arith.addf %{{.*}}, %[[D1]]
// CHECK: %[[D2:.*]] = tile.dot
// CHECK: arith.addf %{{.*}}, %[[D2]]
// CHECK: return %{{.*}}, %{{.*}}, %[[D2]]
func.func @kept(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>, %acc: tensor<16x16xf32>, %c: tensor<16x16xf32>) -> (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) {
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %d1 = tile.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %s1 = arith.addf %acc, %d1 : tensor<16x16xf32>
  %d2 = tile.dot %a, %b, %zero : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %s2 = arith.addf %acc, %d2 : tensor<16x16xf32>
  return %s1, %s2, %d2 : tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>
}
