// RUN: tile-run %s --interpret | FileCheck %s
// tile.reduce and tile.scan run their combine regions: sums along either
// axis of a 2-D block, an argmax reducing two blocks at once, a cumulative
// sum forward and reversed, and a scan whose combine is not commutative.

// tile-run: reduce_scan
//   grid = (1,)

// x = [[0, 1, 2, 3], [4, 5, 6, 7]] as f32.
// CHECK: pid (0, 0, 0) idx (0) rows: 6.000000
// CHECK: pid (0, 0, 0) idx (1) rows: 22.000000
// CHECK: pid (0, 0, 0) idx (0) cols: 4.000000
// CHECK: pid (0, 0, 0) idx (3) cols: 10.000000
// CHECK: pid (0, 0, 0) idx () total: 28
// argmax of [3, 9, 2, 9, 1]-like data keeps the first maximum.
// CHECK: pid (0, 0, 0) idx () argmax: (operand 0) 9
// CHECK: pid (0, 0, 0) idx () argmax: (operand 1) 1
// CHECK: pid (0, 0, 0) idx (0) cumsum: 0.000000
// CHECK: pid (0, 0, 0) idx (1) cumsum: 1.000000
// CHECK: pid (0, 0, 0) idx (7) cumsum: 28.000000
// CHECK: pid (0, 0, 0) idx (0) revsum: 28.000000
// CHECK: pid (0, 0, 0) idx (6) revsum: 13.000000
// CHECK: pid (0, 0, 0) idx (7) revsum: 7.000000
// Cumulative sum along axis 1 of the 2-D block.
// CHECK: pid (0, 0, 0) idx (1, 3) rowscan: 22.000000
// "Last non-zero" scan: combine(a, b) = b != 0 ? b : a (associative, not
// commutative) over [5, 0, 0, 7, 0, 2, 0, 0].
// CHECK: pid (0, 0, 0) idx (0) last: 5
// CHECK: pid (0, 0, 0) idx (2) last: 5
// CHECK: pid (0, 0, 0) idx (4) last: 7
// CHECK: pid (0, 0, 0) idx (7) last: 2

func.func @reduce_scan() {
  %r = tile.make_range {end = 8 : i32, start = 0 : i32} : tensor<8xi32>
  %rf = arith.sitofp %r : tensor<8xi32> to tensor<8xf32>
  %x = tile.reshape %rf : tensor<8xf32> -> tensor<2x4xf32>
  %rows = tile.reduce(%x) {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce_return %s : f32
  }
  tile.print " rows: " {hex = false, isSigned = array<i32: 0>} : %rows : tensor<2xf32>
  %cols = tile.reduce(%x) {axis = 0 : i32} : (tensor<2x4xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.reduce_return %s : f32
  }
  tile.print " cols: " {hex = false, isSigned = array<i32: 0>} : %cols : tensor<4xf32>
  %total = tile.reduce(%r) {axis = 0 : i32} : (tensor<8xi32>) -> i32 {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.reduce_return %s : i32
  }
  tile.print " total: " {hex = false, isSigned = array<i32: 1>} : %total : i32
  %v = arith.constant dense<[3, 9, 2, 9, 1, 0, 4, 8]> : tensor<8xi32>
  %am:2 = tile.reduce(%v, %r) {axis = 0 : i32} : (tensor<8xi32>, tensor<8xi32>) -> (i32, i32) {
  ^bb0(%av: i32, %ai: i32, %bv: i32, %bi: i32):
    %gt = arith.cmpi sgt, %bv, %av : i32
    %eq = arith.cmpi eq, %bv, %av : i32
    %lt = arith.cmpi slt, %bi, %ai : i32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %mv = arith.select %take, %bv, %av : i32
    %mi = arith.select %take, %bi, %ai : i32
    tile.reduce_return %mv, %mi : i32, i32
  }
  tile.print " argmax: " {hex = false, isSigned = array<i32: 1, 1>} : %am#0, %am#1 : i32, i32
  %cs = tile.scan(%rf) {axis = 0 : i32} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan_return %s : f32
  }
  tile.print " cumsum: " {hex = false, isSigned = array<i32: 0>} : %cs : tensor<8xf32>
  %rs = tile.scan(%rf) {axis = 0 : i32, reverse} : (tensor<8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan_return %s : f32
  }
  tile.print " revsum: " {hex = false, isSigned = array<i32: 0>} : %rs : tensor<8xf32>
  %xs = tile.scan(%x) {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.scan_return %s : f32
  }
  tile.print " rowscan: " {hex = false, isSigned = array<i32: 0>} : %xs : tensor<2x4xf32>
  %w = arith.constant dense<[5, 0, 0, 7, 0, 2, 0, 0]> : tensor<8xi32>
  %last = tile.scan(%w) {axis = 0 : i32} : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    %zero = arith.constant 0 : i32
    %nz = arith.cmpi ne, %b, %zero : i32
    %s = arith.select %nz, %b, %a : i32
    tile.scan_return %s : i32
  }
  tile.print " last: " {hex = false, isSigned = array<i32: 1>} : %last : tensor<8xi32>
  return
}
