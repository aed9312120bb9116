// RUN: tile-opt %s -split-input-file -tilegpu-skip-unit-rescale | FileCheck %s
// RUN: tile-opt %s -split-input-file -tilegpu-skip-unit-rescale=persistent-only=true | FileCheck %s --check-prefix=PERSISTENT

// Attention's rescale before P V: acc * alpha[:, None] feeding the dot's
// accumulator becomes a branch on whether the warp's factors are all 1.0,
// keeping acc on one side and multiplying on the other; the dot reads the
// branch's result. persistent-only leaves a module without
// tilegpu.persistent-programs alone.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#slice = #tilegpu.slice<{dim = 1, parent = #mma}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "sm_90a", "tilegpu.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: func.func @rescale
// CHECK-SAME: %[[ACC:[a-z0-9]+]]: tensor<128x64xf32, #mma>, %[[ALPHA:[a-z0-9]+]]: tensor<128xf32, #slice>
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<128xf32, #slice>
// CHECK-NEXT: %[[UNIT:.*]] = arith.cmpf oeq, %[[ALPHA]], %[[ONE]] : tensor<128xf32, #slice>
// CHECK-NEXT: %[[KEEP:.*]] = tilegpu.warp_all %[[UNIT]] : tensor<128xi1, #slice>
// CHECK-NEXT: %[[SCALED:.*]] = scf.if %[[KEEP]] -> (tensor<128x64xf32, #mma>) {
// CHECK-NEXT: scf.yield %[[ACC]] : tensor<128x64xf32, #mma>
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[MUL:.*]] = arith.mulf %[[ACC]], %{{.*}} : tensor<128x64xf32, #mma>
// CHECK-NEXT: scf.yield %[[MUL]] : tensor<128x64xf32, #mma>
// CHECK-NEXT: }
// CHECK-NEXT: tilegpu.warpgroup_dot %{{.*}}, %{{.*}}[%{{.*}}], %[[SCALED]]
// PERSISTENT-LABEL: func.func @rescale
// PERSISTENT-NOT: tilegpu.warp_all
// PERSISTENT-NOT: scf.if
func.func @rescale(%acc: tensor<128x64xf32, #mma>, %alpha: tensor<128xf32, #slice>, %p: tensor<128x64xf16, #mma>, %v: !tilegpu.memdesc<2x64x64xf16>, %s: i32) -> tensor<128x64xf32, #mma> {
  %e = tile.expand_dims %alpha {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #mma>
  %b = tile.broadcast %e : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %scaled = arith.mulf %acc, %b : tensor<128x64xf32, #mma>
  %r = tilegpu.warpgroup_dot %p, %v[%s], %scaled : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
  return %r : tensor<128x64xf32, #mma>
}
}

// -----

// In a persistent module, with the factor on the left, too.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#slice = #tilegpu.slice<{dim = 1, parent = #mma}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "sm_90a", "tilegpu.threads-per-warp" = 32 : i32, "tilegpu.persistent-programs"} {
// The kept side is the accumulator (the right operand), not the factors.
// CHECK-LABEL: func.func @persistent
// CHECK-SAME: %[[ACC:[a-z0-9]+]]: tensor<128x64xf32, #mma>
// CHECK: %[[ROWS:.*]] = tile.broadcast
// CHECK: tilegpu.warp_all
// CHECK-NEXT: scf.if
// CHECK-NEXT: scf.yield %[[ACC]] : tensor<128x64xf32, #mma>
// CHECK-NEXT: } else {
// CHECK-NEXT: arith.mulf %[[ROWS]], %[[ACC]] : tensor<128x64xf32, #mma>
// PERSISTENT-LABEL: func.func @persistent
// PERSISTENT: tilegpu.warp_all
// PERSISTENT: scf.if
func.func @persistent(%acc: tensor<128x64xf32, #mma>, %alpha: tensor<128xf32, #slice>, %p: tensor<128x64xf16, #mma>, %v: !tilegpu.memdesc<2x64x64xf16>, %s: i32) -> tensor<128x64xf32, #mma> {
  %e = tile.expand_dims %alpha {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #mma>
  %b = tile.broadcast %e : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %scaled = arith.mulf %b, %acc : tensor<128x64xf32, #mma>
  %r = tilegpu.warpgroup_dot %p, %v[%s], %scaled : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
  return %r : tensor<128x64xf32, #mma>
}
}

// -----

// Left alone: a product that is also returned (its registers are read by
// more than wgmma), a column broadcast (expand_dims on axis 0), a splat
// scale, and a row scale of a blocked tensor.
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#slice = #tilegpu.slice<{dim = 1, parent = #mma}>
#slice0 = #tilegpu.slice<{dim = 0, parent = #mma}>
#blocked = #tilegpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bslice = #tilegpu.slice<{dim = 1, parent = #blocked}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "sm_90a", "tilegpu.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: tilegpu.warp_all
// CHECK-NOT: scf.if
// CHECK: return
func.func @left_alone(%acc: tensor<128x64xf32, #mma>, %alpha: tensor<128xf32, #slice>, %cols: tensor<64xf32, #slice0>, %k: f32, %x: tensor<128x64xf32, #blocked>, %rows: tensor<128xf32, #bslice>, %p: tensor<128x64xf16, #mma>, %v: !tilegpu.memdesc<2x64x64xf16>, %s: i32) -> (tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>, tensor<128x64xf32, #blocked>) {
  %e = tile.expand_dims %alpha {axis = 1 : i32} : tensor<128xf32, #slice> -> tensor<128x1xf32, #mma>
  %b = tile.broadcast %e : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %returned = arith.mulf %acc, %b : tensor<128x64xf32, #mma>
  %r1 = tilegpu.warpgroup_dot %p, %v[%s], %returned : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
  %ec = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xf32, #slice0> -> tensor<1x64xf32, #mma>
  %bc = tile.broadcast %ec : tensor<1x64xf32, #mma> -> tensor<128x64xf32, #mma>
  %colscaled = arith.mulf %acc, %bc : tensor<128x64xf32, #mma>
  %r2 = tilegpu.warpgroup_dot %p, %v[%s], %colscaled : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
  %ks = tile.splat %k : f32 -> tensor<128x64xf32, #mma>
  %splatscaled = arith.mulf %acc, %ks : tensor<128x64xf32, #mma>
  %r3 = tilegpu.warpgroup_dot %p, %v[%s], %splatscaled : tensor<128x64xf16, #mma>, !tilegpu.memdesc<2x64x64xf16>, tensor<128x64xf32, #mma>
  %eb = tile.expand_dims %rows {axis = 1 : i32} : tensor<128xf32, #bslice> -> tensor<128x1xf32, #blocked>
  %bb = tile.broadcast %eb : tensor<128x1xf32, #blocked> -> tensor<128x64xf32, #blocked>
  %blockedscaled = arith.mulf %x, %bb : tensor<128x64xf32, #blocked>
  return %returned, %r1, %r2, %r3, %blockedscaled : tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>, tensor<128x64xf32, #blocked>
}
}
