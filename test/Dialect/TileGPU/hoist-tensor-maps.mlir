// RUN: tile-opt %s -split-input-file -tilegpu-hoist-tensor-maps | FileCheck %s
// The recipes as the launchers evaluate them (test-tensor-map-recipes), for
// M = 1000, N = 2^20 and K = 4096; the second module has none.
// RUN: tile-opt %s -split-input-file -tilegpu-hoist-tensor-maps \
// RUN:   -test-tensor-map-recipes="args=0,0,0,1000,1048576,4096" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EVAL
// EVAL: remark: map %arg6 of %arg0: 128x64 f16 boxes, shape (1000, 4096), row stride 4096
// EVAL: remark: map %arg7 of %arg1: 256x64 f16 boxes, shape (1048576, 4096), row stride 4096
// EVAL: remark: map %arg8 of %arg2: 128x256 f16 boxes, shape (1000, 1048576), row stride 1048576
// EVAL: remark: no tensor maps

// Tutorial 09's device descriptors: the base and the shape are kernel
// arguments, the row stride one too. A's and B's loads feed the dot (B's
// transposed); the load through A's descriptor after the loop shares A's
// map, B's gets its own, and the store of C a third; the recipes say how the launch computes each (TensorMapRecipe.h:
// count 3, then per map its argument, base, element, block, and the steps
// of rows, columns and row stride: kArgument 2, index, kWrap32 6 for an
// i32 argument; kConstant 1; kMul 5).
// CHECK: module attributes {"tilegpu.tensor-maps" = array<i64: 3,
// CHECK-SAME: 6, 0, 0, 128, 64, 3, 2, 3, 6, 3, 2, 5, 6, 3, 2, 5, 6,
// CHECK-SAME: 7, 1, 0, 256, 64, 3, 2, 4, 6, 3, 2, 5, 6, 3, 2, 5, 6,
// CHECK-SAME: 8, 2, 0, 128, 256, 3, 2, 3, 6, 3, 2, 4, 6, 3, 2, 4, 6>}
// CHECK-LABEL: func.func @descriptors
// CHECK-SAME: %[[K:arg5]]: i32 {tile.divisibility = 16 : i32}, %[[AMAP:.*]]: !tile.ptr<i8> {tile.tensormap}, %[[BMAP:.*]]: !tile.ptr<i8> {tile.tensormap}, %[[CMAP:.*]]: !tile.ptr<i8> {tile.tensormap})
// CHECK: scf.for
// CHECK: tile.block_load %{{.*}} tensormap %[[AMAP]]
// CHECK: tile.block_load %{{.*}} tensormap %[[BMAP]]
// CHECK: tile.block_load %{{.*}} tensormap %[[AMAP]]
// CHECK: tile.block_store %{{.*}} tensormap %[[CMAP]]
module {
  func.func @descriptors(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %one = arith.constant 1 : i64
    %m64 = arith.extsi %m : i32 to i64
    %n64 = arith.extsi %n : i32 to i64
    %k64 = arith.extsi %k : i32 to i64
    %acc = arith.constant dense<0.0> : tensor<128x256xf32>
    %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %acc) -> (tensor<128x256xf32>) : i32 {
      %pa = tile.make_block_ptr %a, [%m64, %k64], [%k64, %one], [%c0, %i] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<128x64xf16>>
      %ta = tile.block_load %pa {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tile.block_ptr<tensor<128x64xf16>>
      %pb = tile.make_block_ptr %b, [%n64, %k64], [%k64, %one], [%c0, %i] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<256x64xf16>>
      %tb = tile.block_load %pb {boundaryCheck = array<i32: 0, 1>, padding = 1 : i32} : !tile.block_ptr<tensor<256x64xf16>>
      %bt = tile.trans %tb {order = array<i32: 1, 0>} : tensor<256x64xf16> -> tensor<64x256xf16>
      %d = tile.dot %ta, %bt, %x : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
      scf.yield %d : tensor<128x256xf32>
    }
    %pa2 = tile.make_block_ptr %a, [%m64, %k64], [%k64, %one], [%c4, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<128x64xf16>>
    %ta2 = tile.block_load %pa2 {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<128x64xf16>>
    %h = arith.truncf %r : tensor<128x256xf32> to tensor<128x256xf16>
    %pc = tile.make_block_ptr %c, [%m64, %n64], [%n64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<128x256xf16>>
    tile.block_store %pc, %h {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<128x256xf16>>
    return
  }
}

// -----

// Not hoisted: stores through a descriptor whose shape comes from the
// program id (each program's own), whose row stride need not be a
// multiple of 16 bytes (%s has no divisibility), whose base need not be
// 16-byte aligned, whose block is no TMA box (8 bytes a row) or
// column-major; a load for a dot with NaN padding; and a load that feeds
// no dot (no TMA copy would read its map).
// CHECK-NOT: tilegpu.tensor-maps
// CHECK-LABEL: func.func @stays
// CHECK-SAME: %{{[^,]*}}: i32) {
// CHECK-NOT: tensormap
module {
  func.func @stays(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %u: !tile.ptr<f16>, %n: i32 {tile.divisibility = 16 : i32}, %s: i32) {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i64
    %n64 = arith.extsi %n : i32 to i64
    %s64 = arith.extsi %s : i32 to i64
    %pid = tile.program_id 0 : i32
    %rows = arith.extsi %pid : i32 to i64
    %z = arith.constant dense<0.0> : tensor<64x64xf16>
    %z4 = arith.constant dense<0.0> : tensor<64x4xf16>
    %acc = arith.constant dense<0.0> : tensor<64x64xf32>
    %p0 = tile.make_block_ptr %a, [%rows, %n64], [%n64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %p0, %z {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
    %p1 = tile.make_block_ptr %a, [%n64, %n64], [%s64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %p1, %z {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
    %p2 = tile.make_block_ptr %u, [%n64, %n64], [%n64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %p2, %z {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
    %p4 = tile.make_block_ptr %a, [%n64, %n64], [%n64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x4xf16>>
    tile.block_store %p4, %z4 {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x4xf16>>
    %p5 = tile.make_block_ptr %a, [%n64, %n64], [%one, %n64], [%c0, %c0] {order = array<i32: 0, 1>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %p5, %z {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
    %p3 = tile.make_block_ptr %a, [%n64, %n64], [%n64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    %t3 = tile.block_load %p3 {boundaryCheck = array<i32: 0, 1>, padding = 2 : i32} : !tile.block_ptr<tensor<64x64xf16>>
    %d3 = tile.dot %t3, %t3, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %p6 = tile.make_block_ptr %a, [%n64, %n64], [%n64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    %t6 = tile.block_load %p6 {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
    return
  }
}

// -----

// A row stride the specialization found divisible by 8 (tile.multiple_of_8:
// K = 712, 1424 bytes) is a 16-byte one for f16: hoisted; one divisible by
// 4 at most is not.
// CHECK-LABEL: func.func @eight
// CHECK-SAME: %{{[^,]*}}: i32 {tile.multiple_of_8}, %{{[^,]*}}: i32, %{{[^,]*}}: !tile.ptr<i8> {tile.tensormap})
module {
  func.func @eight(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.multiple_of_8}, %j: i32) {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i64
    %n64 = arith.extsi %n : i32 to i64
    %k64 = arith.extsi %k : i32 to i64
    %j64 = arith.extsi %j : i32 to i64
    %z = arith.constant dense<0.0> : tensor<64x64xf16>
    %p0 = tile.make_block_ptr %a, [%n64, %k64], [%k64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %p0, %z {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
    %p1 = tile.make_block_ptr %a, [%n64, %j64], [%j64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    tile.block_store %p1, %z {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
    return
  }
}

// -----

// Tutorial 06's y_dim = Z * H * N_CTX in i32 (a store through it): the
// recipe wraps as the kernel's arithmetic does (2^16 * 2^8 * 2^8 = 2^32 is 0 in i32), so the
// launch describes the tensor the kernel addresses.
// CHECK-LABEL: func.func @wraps
// RUN: tile-opt %s -split-input-file -tilegpu-hoist-tensor-maps \
// RUN:   -test-tensor-map-recipes="args=0,3,8,1" 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: tile-opt %s -split-input-file -tilegpu-hoist-tensor-maps \
// RUN:   -test-tensor-map-recipes="args=0,65536,256,256" 2>&1 | FileCheck %s --check-prefix=WRAP
// SMALL: remark: map %arg4 of %arg0: 128x64 f16 boxes, shape (24, 64), row stride 64
// WRAP: remark: map %arg4 of %arg0: 128x64 f16 boxes, shape (0, 64), row stride 64
module {
  func.func @wraps(%q: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %z: i32, %h: i32, %n: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %one = arith.constant 1 : i64
    %d = arith.constant 64 : i64
    %zh = arith.muli %z, %h : i32
    %rows = arith.muli %zh, %n : i32
    %rows64 = arith.extsi %rows : i32 to i64
    %p = tile.make_block_ptr %q, [%rows64, %d], [%d, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<128x64xf16>>
    %zero = arith.constant dense<0.0> : tensor<128x64xf16>
    tile.block_store %p, %zero {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<128x64xf16>>
    return
  }
}

// -----

// A block pointer carried by the loop and moved by tile.advance each
// iteration is followed back to its tile.make_block_ptr: its load for the
// dot gets the map; one the loop replaces by another tensor's does not.
// CHECK-LABEL: func.func @carried
// CHECK-SAME: %[[MAP:arg4]]: !tile.ptr<i8> {tile.tensormap})
// CHECK: scf.for
// CHECK: tile.block_load %{{.*}} tensormap %[[MAP]]
// CHECK: tile.block_load %{{[^ ]*}} {
module {
  func.func @carried(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %m: i32 {tile.divisibility = 16 : i32}, %k: i32 {tile.divisibility = 16 : i32}) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c4 = arith.constant 4 : i32
    %c64 = arith.constant 64 : i32
    %one = arith.constant 1 : i64
    %m64 = arith.extsi %m : i32 to i64
    %k64 = arith.extsi %k : i32 to i64
    %acc = arith.constant dense<0.0> : tensor<64x64xf32>
    %pa = tile.make_block_ptr %a, [%m64, %k64], [%k64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    %pb = tile.make_block_ptr %b, [%m64, %k64], [%k64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
    %r:3 = scf.for %i = %c0 to %c4 step %c1 iter_args(%x = %acc, %p = %pa, %q = %pb) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x64xf16>>) : i32 {
      %ta = tile.block_load %p {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
      %tb = tile.block_load %q {boundaryCheck = array<i32: 0, 1>} : !tile.block_ptr<tensor<64x64xf16>>
      %d = tile.dot %ta, %tb, %x : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
      %pn = tile.advance %p, [%c0, %c64] : !tile.block_ptr<tensor<64x64xf16>>
      %other = tile.make_block_ptr %b, [%k64, %k64], [%k64, %one], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
      scf.yield %d, %pn, %other : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x64xf16>>
    }
    return
  }
}
