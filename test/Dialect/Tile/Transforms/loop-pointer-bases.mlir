// RUN: tile-opt %s -split-input-file -tile-loop-pointer-bases | FileCheck %s
// A pointer block that starts as splat(base) + offsets and advances by one
// scalar per iteration is carried as the scalar base; the body and the code
// after the loop rebuild the block from it and the offsets.

// CHECK-LABEL: func.func @matmul_pointers
// CHECK-SAME: (%[[A:.*]]: !tile.ptr<f16>, %[[OFFS:.*]]: tensor<16x32xi32>, %[[N:.*]]: i32, %[[STEP:.*]]: i32)
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[BASE:.*]] = %[[A]]) -> (tensor<16x32xf16>, !tile.ptr<f16>)
// CHECK:   %[[SPLAT:.*]] = tile.splat %[[BASE]] : !tile.ptr<f16> -> tensor<16x32x!tile.ptr<f16>>
// CHECK:   %[[PTRS:.*]] = tile.addptr %[[SPLAT]], %[[OFFS]]
// CHECK:   %[[X:.*]] = tile.load %[[PTRS]]
// CHECK:   %[[NEXT:.*]] = tile.addptr %[[BASE]], %[[STEP]] : !tile.ptr<f16>, i32
// CHECK:   scf.yield %{{.*}}, %[[NEXT]]
// CHECK: %[[FINAL:.*]] = tile.splat %[[R]]#1
// CHECK: %[[AFTER:.*]] = tile.addptr %[[FINAL]], %[[OFFS]]
// CHECK: tile.load %[[AFTER]]
func.func @matmul_pointers(%a: !tile.ptr<f16>, %offs: tensor<16x32xi32>, %n: i32, %step: i32) -> (tensor<16x32xf16>, tensor<16x32xf16>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16x32xf16>
  %splat = tile.splat %a : !tile.ptr<f16> -> tensor<16x32x!tile.ptr<f16>>
  %init = tile.addptr %splat, %offs : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %init) -> (tensor<16x32xf16>, tensor<16x32x!tile.ptr<f16>>) : i32 {
    %x = tile.load %p : tensor<16x32x!tile.ptr<f16>>
    %sum = arith.addf %acc, %x : tensor<16x32xf16>
    %d = tile.splat %step : i32 -> tensor<16x32xi32>
    %q = tile.addptr %p, %d : tensor<16x32x!tile.ptr<f16>>, tensor<16x32xi32>
    scf.yield %sum, %q : tensor<16x32xf16>, tensor<16x32x!tile.ptr<f16>>
  }
  %last = tile.load %r#1 : tensor<16x32x!tile.ptr<f16>>
  return %r#0, %last : tensor<16x32xf16>, tensor<16x32xf16>
}

// -----

// A splat constant step becomes a scalar constant.
// CHECK-LABEL: func.func @constant_step
// CHECK: scf.for {{.*}} -> (tensor<8xf32>, !tile.ptr<f32>)
// CHECK: %[[C8:.*]] = arith.constant 8 : i32
// CHECK: tile.addptr %{{.*}}, %[[C8]] : !tile.ptr<f32>, i32
func.func @constant_step(%a: !tile.ptr<f32>, %n: i32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %eight = arith.constant dense<8> : tensor<8xi32>
  %range = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %splat = tile.splat %a : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %init = tile.addptr %splat, %range : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %init) -> (tensor<8xf32>, tensor<8x!tile.ptr<f32>>) : i32 {
    %x = tile.load %p : tensor<8x!tile.ptr<f32>>
    %sum = arith.addf %acc, %x : tensor<8xf32>
    %q = tile.addptr %p, %eight : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
    scf.yield %sum, %q : tensor<8xf32>, tensor<8x!tile.ptr<f32>>
  }
  return %r#0 : tensor<8xf32>
}

// -----

// Pointers advanced by a block that is not uniform stay a block.
// CHECK-LABEL: func.func @non_uniform_step
// CHECK: scf.for {{.*}} -> (tensor<8xf32>, tensor<8x!tile.ptr<f32>>)
func.func @non_uniform_step(%a: !tile.ptr<f32>, %n: i32) -> tensor<8xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %range = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %splat = tile.splat %a : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %init = tile.addptr %splat, %range : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %init) -> (tensor<8xf32>, tensor<8x!tile.ptr<f32>>) : i32 {
    %x = tile.load %p : tensor<8x!tile.ptr<f32>>
    %sum = arith.addf %acc, %x : tensor<8xf32>
    %q = tile.addptr %p, %range : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
    scf.yield %sum, %q : tensor<8xf32>, tensor<8x!tile.ptr<f32>>
  }
  return %r#0 : tensor<8xf32>
}

// -----

// Tutorial 06's `Q + offs_m[None, :] * s + offs_k[:, None]`: the chain from
// the splat (addptr, broadcast, addptr) is rebuilt from the carried base.
// CHECK-LABEL: func.func @broadcast_chain
// CHECK-SAME: (%[[Q:.*]]: !tile.ptr<f16>, %[[ROW:.*]]: tensor<1x16xi32>, %[[COL:.*]]: tensor<8x16xi32>
// CHECK: scf.for {{.*}} iter_args(%[[BASE:.*]] = %[[Q]]) -> (!tile.ptr<f16>)
// CHECK:   %[[S:.*]] = tile.splat %[[BASE]] : !tile.ptr<f16> -> tensor<1x16x!tile.ptr<f16>>
// CHECK:   %[[P:.*]] = tile.addptr %[[S]], %[[ROW]]
// CHECK:   %[[B:.*]] = tile.broadcast %[[P]]
// CHECK:   %[[PTRS:.*]] = tile.addptr %[[B]], %[[COL]]
// CHECK:   tile.store %[[PTRS]]
func.func @broadcast_chain(%q: !tile.ptr<f16>, %row: tensor<1x16xi32>, %col: tensor<8x16xi32>, %n: i32, %step: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %v = arith.constant dense<1.0> : tensor<8x16xf16>
  %splat = tile.splat %q : !tile.ptr<f16> -> tensor<1x16x!tile.ptr<f16>>
  %p = tile.addptr %splat, %row : tensor<1x16x!tile.ptr<f16>>, tensor<1x16xi32>
  %b = tile.broadcast %p : tensor<1x16x!tile.ptr<f16>> -> tensor<8x16x!tile.ptr<f16>>
  %init = tile.addptr %b, %col : tensor<8x16x!tile.ptr<f16>>, tensor<8x16xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%ptrs = %init) -> (tensor<8x16x!tile.ptr<f16>>) : i32 {
    tile.store %ptrs, %v : tensor<8x16x!tile.ptr<f16>>
    %d = tile.splat %step : i32 -> tensor<8x16xi32>
    %next = tile.addptr %ptrs, %d : tensor<8x16x!tile.ptr<f16>>, tensor<8x16xi32>
    scf.yield %next : tensor<8x16x!tile.ptr<f16>>
  }
  return
}
