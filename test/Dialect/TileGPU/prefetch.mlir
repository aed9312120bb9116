// RUN: tile-opt %s -convert-tile-to-tilegpu -tilegpu-prefetch -cse | FileCheck %s
// RUN: tile-opt %s -convert-tile-to-tilegpu -tilegpu-prefetch=num-stages=1 | FileCheck %s --check-prefix=ONE

// The load feeding the dot runs for iteration 0 before the loop (masked by
// 0 < n as well as its own mask), and in the body for iteration k + 1 from
// the pointer the body yields (recomputed before the load), masked off
// past the last iteration; the dot takes the carried value.
// CHECK-LABEL: func.func @prefetch
// CHECK: %[[ANY:.*]] = arith.cmpi slt, %[[C0:.*]], %[[N:.*]] : i32
// CHECK: %[[ANYS:.*]] = tile.splat %[[ANY]] : i1 -> tensor<16x16xi1
// CHECK: %[[M0:.*]] = arith.andi %{{.*}}, %[[ANYS]]
// CHECK: %[[FIRST:.*]] = tile.load %[[P0:.*]], %[[M0]], other
// CHECK: scf.for %[[K:.*]] = %[[C0]] to %[[N]] step %[[C1:.*]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[P:.*]] = %[[P0]], %[[CUR:.*]] = %[[FIRST]])
// CHECK:   %[[NEXTK:.*]] = arith.addi %[[K]], %[[C1]] : i32
// CHECK:   %[[MORE:.*]] = arith.cmpi slt, %[[NEXTK]], %[[N]] : i32
// CHECK:   %[[NEXTP:.*]] = tile.addptr %[[P]]
// CHECK:   %[[NEXT:.*]] = tile.load %[[NEXTP]], %{{.*}}, other
// CHECK:   %[[D:.*]] = tile.dot %[[CUR]], %{{.*}}, %[[ACC]]
// CHECK:   scf.yield %[[D]], %[[NEXTP]], %[[NEXT]]
// ONE-LABEL: func.func @prefetch
// ONE: scf.for {{.*}} iter_args(%{{[^,]*}} = %{{[^,]*}}, %{{[^,]*}} = %{{[^,]*}}) ->
// ONE: tile.load
// ONE: tile.dot
func.func @prefetch(%base: !tile.ptr<f16>, %b: tensor<16x16xf16>, %n: i32, %lim: i32) -> tensor<16x16xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<16x16xf32>
  %other = arith.constant dense<0.0> : tensor<16x16xf16>
  %step = arith.constant dense<16> : tensor<16x16xi32>
  %r = tile.make_range {start = 0 : i32, end = 256 : i32} : tensor<256xi32>
  %offs = tile.reshape %r : tensor<256xi32> -> tensor<16x16xi32>
  %ps = tile.splat %base : !tile.ptr<f16> -> tensor<16x16x!tile.ptr<f16>>
  %p0 = tile.addptr %ps, %offs : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
  %res:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %p = %p0) -> (tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>) : i32 {
    %left = arith.subi %lim, %k : i32
    %lefts = tile.splat %left : i32 -> tensor<16x16xi32>
    %mask = arith.cmpi slt, %offs, %lefts : tensor<16x16xi32>
    %a = tile.load %p, %mask, other %other : tensor<16x16x!tile.ptr<f16>>
    %d = tile.dot %a, %b, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
    %pn = tile.addptr %p, %step : tensor<16x16x!tile.ptr<f16>>, tensor<16x16xi32>
    scf.yield %d, %pn : tensor<16x16xf32>, tensor<16x16x!tile.ptr<f16>>
  }
  return %res#0 : tensor<16x16xf32>
}
