// RUN: tile-opt %s -split-input-file -tilegpu-split-accumulator-columns | FileCheck %s

// Tutorial 09's EPILOGUE_SUBTILE on a 128 x 128 accumulator of one warp
// along N and one repetition: each column half is half of the
// instruction's columns, in the registers of the threads that hold it. The
// conversions through blocked layouts, the reshape, the permute and the
// split go; each half is converted to the split's result layout.
// CHECK-DAG: #[[MMA:.*]] = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128]}>
// CHECK-DAG: #[[HALF:.*]] = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 64]}>
// CHECK-LABEL: func.func @subtile
// CHECK-NEXT: %[[LHS:.*]] = tilegpu.extract_columns %arg0 {offset = 0 : i32} : tensor<128x128xf32, #[[MMA]]> -> tensor<128x64xf32, #[[HALF]]>
// CHECK-NEXT: %[[L:.*]] = tilegpu.convert_layout %[[LHS]] : tensor<128x64xf32, #[[HALF]]> -> tensor<128x64xf32, #blocked>
// CHECK-NEXT: %[[RHS:.*]] = tilegpu.extract_columns %arg0 {offset = 64 : i32}
// CHECK-NEXT: %[[R:.*]] = tilegpu.convert_layout %[[RHS]]
// CHECK-NEXT: return %[[L]], %[[R]]
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [2, 2, 2], order = [2, 1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 2, 2], order = [1, 2, 0]}>
#blocked3 = #tilegpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [2, 4, 1], order = [2, 1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @subtile(%acc: tensor<128x128xf32, #mma>) -> (tensor<128x64xf32, #blocked>, tensor<128x64xf32, #blocked>) {
  %0 = tilegpu.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
  %1 = tile.reshape %0 : tensor<128x128xf32, #blocked> -> tensor<128x2x64xf32, #blocked1>
  %2 = tile.trans %1 {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #blocked1> -> tensor<128x64x2xf32, #blocked2>
  %3 = tilegpu.convert_layout %2 : tensor<128x64x2xf32, #blocked2> -> tensor<128x64x2xf32, #blocked3>
  %l, %r = tile.split %3 : tensor<128x64x2xf32, #blocked3> -> tensor<128x64xf32, #blocked>
  return %l, %r : tensor<128x64xf32, #blocked>, tensor<128x64xf32, #blocked>
}
}

// -----

// Two repetitions of the warps' tile along N: each half is one of them, in
// the same layout.
// CHECK-LABEL: func.func @repetitions
// CHECK-NEXT: tilegpu.extract_columns %arg0 {offset = 0 : i32} : tensor<64x128xf32, #[[MMA2:.*]]> -> tensor<64x64xf32, #[[MMA2]]>
// CHECK-NEXT: tilegpu.convert_layout
// CHECK-NEXT: tilegpu.extract_columns %arg0 {offset = 64 : i32} : tensor<64x128xf32, #[[MMA2]]> -> tensor<64x64xf32, #[[MMA2]]>
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @repetitions(%acc: tensor<64x128xf32, #mma>) -> (tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>) {
  %0 = tilegpu.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #blocked>
  %1 = tile.reshape %0 : tensor<64x128xf32, #blocked> -> tensor<64x2x64xf32, #blocked1>
  %2 = tile.trans %1 {order = array<i32: 0, 2, 1>} : tensor<64x2x64xf32, #blocked1> -> tensor<64x64x2xf32, #blocked2>
  %l, %r = tile.split %2 : tensor<64x64x2xf32, #blocked2> -> tensor<64x64xf32, #blocked>
  return %l, %r : tensor<64x64xf32, #blocked>, tensor<64x64xf32, #blocked>
}
}

// -----

// Two warps along N in one repetition: the left half is the first warp's
// columns only, so it is not in every thread's registers. A reshape that
// may reorder elements, or a split of other axes, is not a column split
// either. Nothing changes.
// CHECK-LABEL: func.func @not_in_registers
// CHECK-NOT: extract_columns
// CHECK: tile.split
// CHECK: tile.split
// CHECK-NOT: extract_columns
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 64]}>
#mma1 = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 128]}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#blocked1 = #tilegpu.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 2, 1], order = [2, 1, 0]}>
#blocked2 = #tilegpu.blocked<{sizePerThread = [1, 1, 2], threadsPerWarp = [1, 32, 1], warpsPerCTA = [4, 2, 1], order = [2, 1, 0]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
func.func @not_in_registers(%acc: tensor<128x128xf32, #mma>, %acc1: tensor<128x128xf32, #mma1>) -> (tensor<128x64xf32, #blocked>, tensor<128x64xf32, #blocked>) {
  %0 = tilegpu.convert_layout %acc : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #blocked>
  %1 = tile.reshape %0 : tensor<128x128xf32, #blocked> -> tensor<128x2x64xf32, #blocked1>
  %2 = tile.trans %1 {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #blocked1> -> tensor<128x64x2xf32, #blocked2>
  %l, %r = tile.split %2 : tensor<128x64x2xf32, #blocked2> -> tensor<128x64xf32, #blocked>
  %3 = tilegpu.convert_layout %acc1 : tensor<128x128xf32, #mma1> -> tensor<128x128xf32, #blocked>
  %4 = tile.reshape %3 {allow_reorder} : tensor<128x128xf32, #blocked> -> tensor<128x2x64xf32, #blocked1>
  %5 = tile.trans %4 {order = array<i32: 0, 2, 1>} : tensor<128x2x64xf32, #blocked1> -> tensor<128x64x2xf32, #blocked2>
  %l2, %r2 = tile.split %5 : tensor<128x64x2xf32, #blocked2> -> tensor<128x64xf32, #blocked>
  %s = arith.addf %l, %l2 : tensor<128x64xf32, #blocked>
  return %s, %r2 : tensor<128x64xf32, #blocked>, tensor<128x64xf32, #blocked>
}
}
