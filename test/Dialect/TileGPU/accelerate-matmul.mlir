// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=8 target=sm_90a" -tilegpu-accelerate-matmul | FileCheck %s
// RUN: tile-opt %s -split-input-file -convert-tile-to-tilegpu="num-warps=8 target=sm_80" -tilegpu-accelerate-matmul | FileCheck %s --check-prefix=SM80

// A 128 x 256 accumulator carried through a loop: two warpgroups along M,
// one wgmma 256 wide each; the loop carries the mma layout, converted in
// before it and out after it.
// CHECK: #[[MMA:.*]] = #tilegpu.mma<{version = 3, warpsPerCTA = [8, 1], instrShape = [16, 256]}>
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = tilegpu.convert_layout %{{.*}} : tensor<128x256xf32, #blocked> -> tensor<128x256xf32, #[[MMA]]>
// CHECK: %[[LOOP:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128x256xf32, #[[MMA]]>)
// CHECK:   %[[D:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]] : tensor<128x64xf16, #blocked> * tensor<64x256xf16, #blocked> -> tensor<128x256xf32, #[[MMA]]>
// CHECK:   scf.yield %[[D]] : tensor<128x256xf32, #[[MMA]]>
// CHECK: %[[OUT:.*]] = tilegpu.convert_layout %[[LOOP]] : tensor<128x256xf32, #[[MMA]]> -> tensor<128x256xf32, #blocked>
// CHECK: return %[[OUT]]
// sm_80 has no wgmma: mma.sync, warps doubled along whichever of M (16-row
// slices) and N (8-column slices) has more left per warp: N, N, then M.
// SM80: #[[MMA2:.*]] = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 4], instrShape = [16, 64]}>
// SM80: tile.dot {{.*}} -> tensor<128x256xf32, #[[MMA2]]>
func.func @loop(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %n: index) -> tensor<128x256xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<128x256xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x256xf32>) {
    %d = tile.dot %a, %b, %acc : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
    scf.yield %d : tensor<128x256xf32>
  }
  return %r : tensor<128x256xf32>
}

// -----

// 64 rows are one warpgroup: the other four warps go along N (128 columns
// each, whole 128-byte swizzle blocks of B). Outside a loop, the
// accumulator and result are converted around the dot.
// CHECK: #[[MMA2:.*]] = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 128]}>
// CHECK-LABEL: func.func @straight
// CHECK: %[[C:.*]] = tilegpu.convert_layout %{{.*}} -> tensor<64x256xf32, #[[MMA2]]>
// CHECK: %[[D2:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[C]] {{.*}} -> tensor<64x256xf32, #[[MMA2]]>
// CHECK: tilegpu.convert_layout %[[D2]] : tensor<64x256xf32, #[[MMA2]]> -> tensor<64x256xf32, #blocked>
func.func @straight(%a: tensor<64x32xbf16>, %b: tensor<32x256xbf16>, %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %d = tile.dot %a, %b, %c : tensor<64x32xbf16> * tensor<32x256xbf16> -> tensor<64x256xf32>
  return %d : tensor<64x256xf32>
}

// -----

// 32 rows (less than a warpgroup) go to mma.sync on sm_90a too; fp32
// operands multiplied exactly (ieee; tf32x3 likewise) and an f16
// accumulator keep their layouts (the CUDA-core dot).
// CHECK: #[[SYNC:.*]] = #tilegpu.mma<{version = 2, warpsPerCTA = [2, 4], instrShape = [16, 16]}>
// CHECK-LABEL: func.func @unsuitable
// CHECK: tile.dot {{.*}} -> tensor<32x64xf32, #[[SYNC]]>
// CHECK-NOT: tilegpu.mma
// CHECK: tile.dot {{.*}} -> tensor<64x64xf32, #blocked{{[0-9]*}}>
// CHECK-NOT: tilegpu.mma
// CHECK: tile.dot {{.*}} -> tensor<64x64xf16, #blocked{{[0-9]*}}>
func.func @unsuitable(%a: tensor<32x32xf16>, %b: tensor<32x64xf16>, %c: tensor<32x64xf32>,
                      %x: tensor<64x32xf32>, %y: tensor<32x64xf32>, %z: tensor<64x64xf32>,
                      %p: tensor<64x32xf16>, %q: tensor<32x64xf16>, %h: tensor<64x64xf16>)
    -> (tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf16>) {
  %d0 = tile.dot %a, %b, %c : tensor<32x32xf16> * tensor<32x64xf16> -> tensor<32x64xf32>
  %d1 = tile.dot %x, %y, %z {inputPrecision = 2 : i32} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %d2 = tile.dot %p, %q, %h : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf16>
  return %d0, %d1, %d2 : tensor<32x64xf32>, tensor<64x64xf32>, tensor<64x64xf16>
}

// -----

// fp32 operands with input_precision tf32 (the default) run on wgmma as
// tf32, K a multiple of 8; warps side by side along N need no swizzle-block
// alignment (tf32's B is K-major): 8 warps over 64 rows are one warpgroup
// tall and two wide, 32 columns each.
// CHECK-DAG: #[[TF32:.*]] = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 32]}>
// CHECK-LABEL: func.func @tf32
// CHECK: tile.dot {{.*}} : tensor<64x8xf32, #blocked{{[0-9]*}}> * tensor<8x64xf32, #blocked{{[0-9]*}}> -> tensor<64x64xf32, #[[TF32]]>
func.func @tf32(%x: tensor<64x8xf32>, %y: tensor<8x64xf32>, %z: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %d = tile.dot %x, %y, %z : tensor<64x8xf32> * tensor<8x64xf32> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// B rows of 16 bytes (N = 8, fp16) are narrower than a swizzled tile's
// smallest row: no wgmma; mma.sync takes it (the 8 warps along M).
// CHECK: #[[NARROW:.*]] = #tilegpu.mma<{version = 2, warpsPerCTA = [8, 1], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @narrow
// CHECK: tile.dot {{.*}} -> tensor<128x8xf32, #[[NARROW]]>
func.func @narrow(%a: tensor<128x16xf16>, %b: tensor<16x8xf16>, %c: tensor<128x8xf32>) -> tensor<128x8xf32> {
  %d = tile.dot %a, %b, %c : tensor<128x16xf16> * tensor<16x8xf16> -> tensor<128x8xf32>
  return %d : tensor<128x8xf32>
}
