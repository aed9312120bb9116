// RUN: not tile-run %s --interpret 2>&1 | FileCheck %s
// RUN: not tile-run %s --interpret --set offset=-1 2>&1 | FileCheck %s --check-prefix=BEFORE
// RUN: tile-run %s --interpret --set offset=0 | FileCheck %s --check-prefix=FITS
// Every access is checked against the launch's buffers: an element outside
// them is an error naming the op, its location and the program, not a crash.
// Masked-off lanes are not checked.

// tile-run: oob
//   n = 100
//   x = rand(fp32, n)
//   offset = 40
//   args = (x, offset, n)
//   grid = (4,)

// Program 3 reads elements 96 to 127; the mask lets 100 to 127 through.
// CHECK: out-of-bounds.mlir:[[@LINE+24]]:8: error: in program (3, 0, 0): out-of-bounds tile.load by element 4 of the block: byte offset 400 of buffer 'x', which has 400 bytes
// CHECK-NEXT: %v = tile.load
// BEFORE: error: in program (0, 0, 0): out-of-bounds tile.load by element 0 of the block: 4 bytes before buffer 'x'
// FITS: oob in the interpreter
// FITS-NOT: error

func.func @oob(%x: !tile.ptr<f32>, %offset: i32, %n: i32) {
  %pid = tile.program_id 0 : i32
  %c32 = arith.constant 32 : i32
  %start = arith.muli %pid, %c32 : i32
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %s = tile.splat %start : i32 -> tensor<32xi32>
  %idx = arith.addi %s, %r : tensor<32xi32>
  // A mask that is off by `offset` from the right bound (n + offset).
  %lim = arith.addi %n, %offset : i32
  %lims = tile.splat %lim : i32 -> tensor<32xi32>
  %mask = arith.cmpi slt, %idx, %lims : tensor<32xi32>
  %offs = tile.splat %offset : i32 -> tensor<32xi32>
  %neg = arith.constant 0 : i32
  %low = arith.minsi %offset, %neg : i32
  %lows = tile.splat %low : i32 -> tensor<32xi32>
  %shifted = arith.addi %idx, %lows : tensor<32xi32>
  %base = tile.splat %x : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %ptrs = tile.addptr %base, %shifted : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %v = tile.load %ptrs, %mask : tensor<32x!tile.ptr<f32>>
  return
}
