// RUN: tile-opt %s | tile-opt | FileCheck %s
// Round trip of the block, dot, reduction, atomic and debug ops.

// CHECK-LABEL: func.func @f
func.func @f(%p: !tile.ptr<f32>, %x: tensor<16xf32>, %a: tensor<16x8xf16>, %b: tensor<8x32xf16>, %c: tensor<16x32xf32>, %i: tensor<16xi32>, %ix: tensor<8xi32>, %hmask: tensor<16xi1>) {
  // CHECK: tile.expand_dims %{{.*}} {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %e = tile.expand_dims %x {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  // CHECK: tile.broadcast
  %bc = tile.broadcast %e : tensor<16x1xf32> -> tensor<16x4xf32>
  // CHECK: tile.reshape
  %r = tile.reshape %bc : tensor<16x4xf32> -> tensor<64xf32>
  // CHECK: tile.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<16x4xf32> -> tensor<4x16xf32>
  %t = tile.trans %bc {order = array<i32: 1, 0>} : tensor<16x4xf32> -> tensor<4x16xf32>
  // CHECK: tile.cat
  %cat = tile.cat %x, %x : tensor<16xf32> -> tensor<32xf32>
  // CHECK: tile.join
  %j = tile.join %x, %x : tensor<16xf32> -> tensor<16x2xf32>
  // CHECK: %{{.*}}, %{{.*}} = tile.split %{{.*}} : tensor<16x2xf32> -> tensor<16xf32>
  %s0, %s1 = tile.split %j : tensor<16x2xf32> -> tensor<16xf32>
  // CHECK: tile.gather %{{.*}}[%{{.*}}] {axis = 0 : i32} : tensor<16xf32>, tensor<8xi32> -> tensor<8xf32>
  %g = tile.gather %x[%ix] {axis = 0 : i32} : tensor<16xf32>, tensor<8xi32> -> tensor<8xf32>
  // CHECK: tile.histogram %{{.*}} : tensor<16xi32> -> tensor<32xi32>
  %h = tile.histogram %i : tensor<16xi32> -> tensor<32xi32>
  // CHECK: tile.histogram %{{.*}}, %{{.*}} : tensor<16xi32>, tensor<16xi1> -> tensor<8xi32>
  %hm = tile.histogram %i, %hmask : tensor<16xi32>, tensor<16xi1> -> tensor<8xi32>
  // CHECK: tile.dot %{{.*}}, %{{.*}}, %{{.*}} {inputPrecision = 2 : i32} : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  %d = tile.dot %a, %b, %c {inputPrecision = 2 : i32} : tensor<16x8xf16> * tensor<8x32xf16> -> tensor<16x32xf32>
  // CHECK: tile.reduce(
  %sum = tile.reduce(%x) {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %q = arith.addf %l, %rr : f32
    tile.reduce_return %q : f32
  }
  // CHECK: tile.reduce(
  %am:2 = tile.reduce(%x, %i) {axis = 0 : i32} : (tensor<16xf32>, tensor<16xi32>) -> (f32, i32) {
  ^bb0(%l: f32, %li: i32, %rr: f32, %ri: i32):
    tile.reduce_return %l, %li : f32, i32
  }
  // CHECK: tile.scan(%{{.*}}) {axis = 0 : i32, reverse}
  %cs = tile.scan(%x) {axis = 0 : i32, reverse} : (tensor<16xf32>) -> tensor<16xf32> {
  ^bb0(%l: f32, %rr: f32):
    %q = arith.addf %l, %rr : f32
    tile.scan_return %q : f32
  }
  // CHECK: tile.splat
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  // CHECK: tile.atomic_rmw fadd, %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<f32>>
  %old = tile.atomic_rmw fadd, %ps, %x : tensor<16x!tile.ptr<f32>>
  // CHECK: tile.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} {sem = 1 : i32}
  %old2 = tile.atomic_cas %ps, %x, %x {sem = 1 : i32} : tensor<16x!tile.ptr<f32>>
  // CHECK: tile.load %{{.*}} {cache = 2 : i32, evict = 1 : i32}
  %l = tile.load %ps {cache = 2 : i32, evict = 1 : i32} : tensor<16x!tile.ptr<f32>>
  // CHECK: tile.umulhi
  %u = tile.umulhi %i, %i : tensor<16xi32>
  // CHECK: tile.precise_sqrt
  %sq = tile.precise_sqrt %x : tensor<16xf32>
  // CHECK: tile.clampf %{{.*}}, %{{.*}}, %{{.*}} {propagateNan}
  %cl = tile.clampf %x, %x, %x {propagateNan} : tensor<16xf32>
  // CHECK: tile.print "x: " {hex = false, isSigned = array<i32: 0>} : %{{.*}} : tensor<16xf32>
  tile.print "x: " {hex = false, isSigned = array<i32: 0>} : %x : tensor<16xf32>
  %true = arith.constant dense<true> : tensor<16xi1>
  // CHECK: tile.assert
  tile.assert %true, "bad" : tensor<16xi1>
  // CHECK: tile.debug_barrier
  tile.debug_barrier
  return
}
