// RUN: tile-opt %s -convert-tile-to-tilegpu="num-warps=2 target=sm_80" -tilegpu-accelerate-matmul | FileCheck %s

// mma.sync layouts are at most 256 columns per warp and repetition: two
// warps along N over 1024 columns take 512 each, as two repetitions of 256.
// CHECK: #tilegpu.mma<{version = 2, warpsPerCTA = [1, 2], instrShape = [16, 256]}>
func.func @wide(%a: tensor<16x16xf16>, %b: tensor<16x1024xf16>, %c: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %d = tile.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x1024xf16> -> tensor<16x1024xf32>
  return %d : tensor<16x1024xf32>
}
