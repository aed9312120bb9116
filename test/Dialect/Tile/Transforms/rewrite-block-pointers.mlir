// RUN: tile-opt %s -tile-rewrite-block-pointers | FileCheck %s
// A block pointer becomes its parts: base, shape, strides, offsets. They
// travel through scf.for as separate iteration values; tl.advance adds to
// the offsets; a load is a masked tile.load of base + sum((offset + i) *
// stride) over the boundary-checked dimension, the padding as `other`.

// CHECK-LABEL: func.func @loop
// CHECK-NOT: block_ptr
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[BASE:.*]] = %arg0, %[[S0:.*]] = %{{.*}}, %[[S1:.*]] = %{{.*}}, %[[T0:.*]] = %{{.*}}, %[[T1:.*]] = %{{.*}}, %[[O0:.*]] = %{{.*}}, %[[O1:.*]] = %{{.*}}) -> (tensor<16x32xf32>, !tile.ptr<f32>, i64, i64, i64, i64, i32, i32)
// CHECK: tile.make_range {{.*}} : tensor<16xi32>
// CHECK: arith.extsi %[[O0]] : i32 to i64
// CHECK: tile.make_range {{.*}} : tensor<32xi32>
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi slt
// CHECK: tile.splat %[[BASE]] : !tile.ptr<f32> -> tensor<16x32x!tile.ptr<f32>>
// CHECK: %[[PAD:.*]] = arith.constant dense<0.000000e+00> : tensor<16x32xf32>
// CHECK: tile.load %{{.*}}, %{{.*}}, other %[[PAD]] : tensor<16x32x!tile.ptr<f32>>
// CHECK: %[[NEXT0:.*]] = arith.addi %[[O0]], %{{.*}} : i32
// CHECK: %[[NEXT:.*]] = arith.addi %[[O1]], %{{.*}} : i32
// CHECK: scf.yield %{{.*}}, %[[BASE]], %[[S0]], %[[S1]], %[[T0]], %[[T1]], %[[NEXT0]], %[[NEXT]]
func.func @loop(%a: !tile.ptr<f32>, %m: i64, %k: i64, %stride: i64, %n: i32) -> tensor<16x32xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i32
  %zero = arith.constant dense<0.0> : tensor<16x32xf32>
  %p = tile.make_block_ptr %a, [%m, %k], [%stride, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16x32xf32>>
  %lb = arith.constant 0 : i32
  %step = arith.constant 1 : i32
  %r:2 = scf.for %i = %lb to %n step %step iter_args(%acc = %zero, %q = %p) -> (tensor<16x32xf32>, !tile.block_ptr<tensor<16x32xf32>>) : i32 {
    %x = tile.block_load %q {boundaryCheck = array<i32: 1>, padding = 1 : i32} : !tile.block_ptr<tensor<16x32xf32>>
    %s = arith.addf %acc, %x : tensor<16x32xf32>
    %q2 = tile.advance %q, [%c0, %c32] : !tile.block_ptr<tensor<16x32xf32>>
    scf.yield %s, %q2 : tensor<16x32xf32>, !tile.block_ptr<tensor<16x32xf32>>
  }
  return %r#0 : tensor<16x32xf32>
}

// A store without boundary checks is an unmasked tile.store; NaN padding
// is the `other` of a float load.
// CHECK-LABEL: func.func @store_and_nan
// CHECK: %[[NAN:.*]] = arith.constant dense<0x7FC00000> : tensor<8xf32>
// CHECK: tile.load %{{.*}}, %{{.*}}, other %[[NAN]]
// CHECK: tile.store %{{.*}}, %{{.*}} : tensor<8x!tile.ptr<f32>>
func.func @store_and_nan(%a: !tile.ptr<f32>, %n: i64, %off: i32) {
  %c1 = arith.constant 1 : i64
  %p = tile.make_block_ptr %a, [%n], [%c1], [%off] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<8xf32>>
  %x = tile.block_load %p {boundaryCheck = array<i32: 0>, padding = 2 : i32} : !tile.block_ptr<tensor<8xf32>>
  tile.block_store %p, %x {boundaryCheck = array<i32>} : !tile.block_ptr<tensor<8xf32>>
  return
}
