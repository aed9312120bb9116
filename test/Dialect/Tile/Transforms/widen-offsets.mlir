// RUN: tile-opt %s -tile-widen-offsets | FileCheck %s
// The offsets of tile.addptr are computed again in i64 from their sources:
// tutorial 01's `pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)` (which wraps
// in int32 past 2^31 elements) becomes extsi(pid) * 1024 + extsi(range);
// the mask's comparison with the 64-bit size takes the 64-bit offsets.

// CHECK-LABEL: func.func @add_kernel
// CHECK-DAG: %[[PID:.*]] = tile.program_id 0 : i32
// CHECK-DAG: %[[PID64:.*]] = arith.extsi %[[PID]] : i32 to i64
// CHECK-DAG: %[[C1024:.*]] = arith.constant 1024 : i64
// CHECK-DAG: %[[START:.*]] = arith.muli %[[PID64]], %[[C1024]] : i64
// CHECK-DAG: %[[RANGE:.*]] = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
// CHECK-DAG: %[[RANGE64:.*]] = arith.extsi %[[RANGE]] : tensor<1024xi32> to tensor<1024xi64>
// CHECK-DAG: %[[SPLAT:.*]] = tile.splat %[[START]] : i64 -> tensor<1024xi64>
// CHECK-DAG: %[[OFFS:.*]] = arith.addi %[[SPLAT]], %[[RANGE64]] : tensor<1024xi64>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[OFFS]], %{{.*}} : tensor<1024xi64>
// CHECK: tile.addptr %{{.*}}, %[[OFFS]] : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
// CHECK: tile.load %{{.*}}, %[[MASK]]
// CHECK: tile.addptr %{{.*}}, %[[OFFS]] : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
// CHECK: tile.addptr %{{.*}}, %[[OFFS]] : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
func.func @add_kernel(%arg0: !tile.ptr<f32>, %arg1: !tile.ptr<f32>, %arg2: !tile.ptr<f32>, %arg3: i64) {
  %0 = tile.program_id 0 : i32
  %c1024_i32 = arith.constant 1024 : i32
  %1 = arith.muli %0, %c1024_i32 : i32
  %2 = tile.make_range {end = 1024 : i32, start = 0 : i32} : tensor<1024xi32>
  %3 = tile.splat %1 : i32 -> tensor<1024xi32>
  %4 = arith.addi %3, %2 : tensor<1024xi32>
  %5 = arith.extsi %4 : tensor<1024xi32> to tensor<1024xi64>
  %6 = tile.splat %arg3 : i64 -> tensor<1024xi64>
  %7 = arith.cmpi slt, %5, %6 : tensor<1024xi64>
  %8 = tile.splat %arg0 : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %9 = tile.addptr %8, %4 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %10 = tile.load %9, %7 : tensor<1024x!tile.ptr<f32>>
  %11 = tile.splat %arg1 : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %12 = tile.addptr %11, %4 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %13 = tile.load %12, %7 : tensor<1024x!tile.ptr<f32>>
  %14 = arith.addf %10, %13 : tensor<1024xf32>
  %15 = tile.splat %arg2 : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %16 = tile.addptr %15, %4 : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %16, %14, %7 : tensor<1024x!tile.ptr<f32>>
  return
}

// 2-D offsets through expand_dims and broadcast, a dense constant, a
// select, and a loaded index (a source: sign-extended, not recomputed).
// CHECK-LABEL: func.func @matrix
// CHECK: %[[ROWS:.*]] = tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xi64> -> tensor<16x1xi64>
// CHECK: arith.muli %[[ROWS]], %{{.*}} : tensor<16x1xi64>
// CHECK: tile.broadcast %{{.*}} : tensor<16x1xi64> -> tensor<16x16xi64>
// CHECK: arith.constant dense<3> : tensor<16x16xi64>
// CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xi1>, tensor<16x16xi64>
// CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi64>
// CHECK: %[[LOADED:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i32>>
// CHECK: %[[IDX:.*]] = arith.extsi %[[LOADED]] : tensor<16xi32> to tensor<16xi64>
// CHECK: tile.addptr %{{.*}}, %[[IDX]] : tensor<16x!tile.ptr<f32>>, tensor<16xi64>
func.func @matrix(%p: !tile.ptr<f32>, %idx: !tile.ptr<i32>, %stride: i32, %flag: tensor<16x16xi1>) {
  %r = tile.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %rows = tile.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %s = tile.splat %stride : i32 -> tensor<16x1xi32>
  %scaled = arith.muli %rows, %s : tensor<16x1xi32>
  %b = tile.broadcast %scaled : tensor<16x1xi32> -> tensor<16x16xi32>
  %three = arith.constant dense<3> : tensor<16x16xi32>
  %sel = arith.select %flag, %b, %three : tensor<16x16xi1>, tensor<16x16xi32>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  %ptrs = tile.addptr %ps, %sel : tensor<16x16x!tile.ptr<f32>>, tensor<16x16xi32>
  %v = tile.load %ptrs : tensor<16x16x!tile.ptr<f32>>
  %ip = tile.splat %idx : !tile.ptr<i32> -> tensor<16x!tile.ptr<i32>>
  %ips = tile.addptr %ip, %r : tensor<16x!tile.ptr<i32>>, tensor<16xi32>
  %i = tile.load %ips : tensor<16x!tile.ptr<i32>>
  %p1 = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %gathered = tile.addptr %p1, %i : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %w = tile.load %gathered : tensor<16x!tile.ptr<f32>>
  return
}
