// RUN: tile-opt %s -convert-tile-to-tilegpu=num-warps=8 | FileCheck %s
// RUN: tile-opt %s -convert-tile-to-tilegpu=num-warps=2 | FileCheck %s --check-prefix=TWO
// RUN: not tile-opt %s -convert-tile-to-tilegpu=num-warps=3 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: #[[B1D:.*]] = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK: #[[B2D:.*]] = #tilegpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
// CHECK: module attributes {"tilegpu.num-warps" = 8 : i32, tilegpu.target = "sm_90a", "tilegpu.threads-per-warp" = 32 : i32}
// TWO: #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [2], order = [0]}>
// BAD: num-warps must be a power of two, got 3

// CHECK-LABEL: func.func @shapes
func.func @shapes(%n: i32) {
  // CHECK: tile.make_range {{.*}} : tensor<1024xi32, #[[B1D]]>
  %r = tile.make_range {start = 0 : i32, end = 1024 : i32} : tensor<1024xi32>
  // CHECK: arith.constant dense<1.000000e+00> : tensor<64x128xf32, #[[B2D]]>
  %c = arith.constant dense<1.0> : tensor<64x128xf32>
  // CHECK: arith.addf {{.*}} : tensor<64x128xf32, #[[B2D]]>
  %d = arith.addf %c, %c : tensor<64x128xf32>
  return
}
