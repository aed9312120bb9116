// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -verify-diagnostics | FileCheck %s
// A transpose between a blocked layout and its axis-permuted twin holds the
// same registers: it lowers to nothing (no shared memory, no barrier), and
// the values loaded are the values stored. Other layouts are refused.

#a = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#t = #tilegpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @same_registers
// CHECK-NOT: nvvm.barrier
// CHECK-NOT: !llvm.ptr<3>
// CHECK: llvm.return
func.func @same_registers(%p: tensor<16x16x!tile.ptr<f32>, #a>, %q: tensor<16x16x!tile.ptr<f32>, #t>) {
  %x = tile.load %p : tensor<16x16x!tile.ptr<f32>, #a>
  %y = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x16xf32, #a> -> tensor<16x16xf32, #t>
  tile.store %q, %y : tensor<16x16x!tile.ptr<f32>, #t>
  return
}
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [1, 2], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @other_layout(%p: tensor<16x16x!tile.ptr<f32>, #a>) {
  %x = tile.load %p : tensor<16x16x!tile.ptr<f32>, #a>
  // expected-error @+2 {{needs the operand's blocked layout with the axes permuted as its result layout}}
  // expected-error @+1 {{failed to legalize operation 'tile.trans'}}
  %y = tile.trans %x {order = array<i32: 1, 0>} : tensor<16x16xf32, #a> -> tensor<16x16xf32, #a>
  tile.store %p, %y : tensor<16x16x!tile.ptr<f32>, #a>
  return
}
}
