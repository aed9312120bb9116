// RUN: not tile-run %s --interpret 2>&1 | FileCheck %s
// RUN: tile-run %s --interpret --set shift=0 --print-buffer out --print-buffer counts | FileCheck %s --check-prefix=VALUES
// tile.gather picks src[index] along the axis and reports an index out of
// range (undefined in Triton) at the op; tile.histogram counts the values
// in [0, num_bins) where the mask holds and ignores the others.

// tile-run: k
//   out = empty(i32, 8)
//   counts = empty(i32, 4)
//   shift = 5
//   args = (out, counts, shift)
//   grid = (1,)

// With shift = 5 the index 7 - r + 5 reaches 12 at r = 0.
// CHECK: gather-histogram.mlir:30:8: error: in program (0, 0, 0): tl.gather index 12 is out of range for dimension 0 of size 8
// src = 10 r, index = 7 - r: out = 70 60 ... 0.
// VALUES: out = 70 60 50 40 30 20 10 0{{$}}
// values r - 2 (-2 .. 5), mask r != 3: 0, 2 and 3 once each; 1 (r = 3)
// masked off; -2, -1, 4 and 5 outside the bins.
// VALUES: counts = 1 0 1 1{{$}}

func.func @k(%out: !tile.ptr<i32>, %counts: !tile.ptr<i32>, %shift: i32) {
  %r = tile.make_range {start = 0 : i32, end = 8 : i32} : tensor<8xi32>
  %c10 = arith.constant dense<10> : tensor<8xi32>
  %src = arith.muli %r, %c10 : tensor<8xi32>
  %c7 = arith.constant dense<7> : tensor<8xi32>
  %rev = arith.subi %c7, %r : tensor<8xi32>
  %s = tile.splat %shift : i32 -> tensor<8xi32>
  %index = arith.addi %rev, %s : tensor<8xi32>
  %g = tile.gather %src[%index] {axis = 0 : i32} : tensor<8xi32>, tensor<8xi32> -> tensor<8xi32>
  %po = tile.splat %out : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %pos = tile.addptr %po, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %pos, %g : tensor<8x!tile.ptr<i32>>
  %c2 = arith.constant dense<2> : tensor<8xi32>
  %vals = arith.subi %r, %c2 : tensor<8xi32>
  %c3 = arith.constant dense<3> : tensor<8xi32>
  %mask = arith.cmpi ne, %r, %c3 : tensor<8xi32>
  %h = tile.histogram %vals, %mask : tensor<8xi32>, tensor<8xi1> -> tensor<4xi32>
  %r4 = tile.make_range {start = 0 : i32, end = 4 : i32} : tensor<4xi32>
  %pc = tile.splat %counts : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %pcs = tile.addptr %pc, %r4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %pcs, %h : tensor<4x!tile.ptr<i32>>
  return
}
