// RUN: tile-opt %s | tile-opt | FileCheck %s
// Round trip of every tile op: printed IR parses back to the same IR.

// CHECK-LABEL: func.func @ops
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f16>, %[[N:.*]]: i32)
func.func @ops(%p: !tile.ptr<f16>, %n: i32) {
  // CHECK: tile.program_id 1 : i32
  %pid = tile.program_id 1 : i32
  // CHECK: tile.num_programs 0 : i32
  %np = tile.num_programs 0 : i32
  // CHECK: tile.make_range {end = 80 : i32, start = 16 : i32} : tensor<64xi32>
  %r = tile.make_range {start = 16 : i32, end = 80 : i32} : tensor<64xi32>
  // CHECK: tile.splat %[[N]] : i32 -> tensor<64xi32>
  %ns = tile.splat %n : i32 -> tensor<64xi32>
  // CHECK: arith.cmpi slt
  %m = arith.cmpi slt, %r, %ns : tensor<64xi32>
  // CHECK: tile.splat %[[P]] : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  %ps = tile.splat %p : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  // CHECK: tile.addptr %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  %pp = tile.addptr %ps, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  // CHECK: tile.addptr %[[P]], %[[N]] : !tile.ptr<f16>, i32
  %q = tile.addptr %p, %n : !tile.ptr<f16>, i32
  // CHECK: tile.load %{{.*}} : tensor<64x!tile.ptr<f16>>
  %a = tile.load %pp : tensor<64x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f16>>
  %b = tile.load %pp, %m : tensor<64x!tile.ptr<f16>>
  %zero = arith.constant dense<0.0> : tensor<64xf16>
  // CHECK: tile.load %{{.*}}, %{{.*}}, other %{{.*}} : tensor<64x!tile.ptr<f16>>
  %c = tile.load %pp, %m, other %zero : tensor<64x!tile.ptr<f16>>
  // CHECK: tile.load %{{.*}} : !tile.ptr<f16>
  %s = tile.load %q : !tile.ptr<f16>
  // CHECK: arith.addf
  %sum = arith.addf %b, %c : tensor<64xf16>
  // CHECK: tile.store %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x!tile.ptr<f16>>
  tile.store %pp, %sum, %m : tensor<64x!tile.ptr<f16>>
  // CHECK: tile.store %[[P]], %{{.*}} : !tile.ptr<f16>
  tile.store %p, %s : !tile.ptr<f16>
  return
}
