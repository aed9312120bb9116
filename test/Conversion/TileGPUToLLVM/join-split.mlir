// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -verify-diagnostics | FileCheck %s
// join interleaves its operands' registers into a layout with a new last
// axis of 2 held per thread; split takes the even and the odd registers
// back. No data moves between threads.

#a = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#j = #tilegpu.blocked<{sizePerThread = [2, 2], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @join_split
// CHECK-NOT: nvvm.barrier
// CHECK: %[[A0:.*]] = llvm.extractvalue %[[A:.*]][0] : !llvm.struct<(f32, f32)>
// CHECK: %[[A1:.*]] = llvm.extractvalue %[[A]][1] : !llvm.struct<(f32, f32)>
// CHECK: %[[B0:.*]] = llvm.extractvalue %[[B:.*]][0] : !llvm.struct<(f32, f32)>
// CHECK: %[[B1:.*]] = llvm.extractvalue %[[B]][1] : !llvm.struct<(f32, f32)>
// CHECK: llvm.insertvalue %[[A0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK: llvm.insertvalue %[[B0]], %{{.*}}[1]
// CHECK: llvm.insertvalue %[[A1]], %{{.*}}[2]
// CHECK: llvm.insertvalue %[[B1]], %{{.*}}[3]
// CHECK-NOT: !llvm.ptr<3>
func.func @join_split(%p: tensor<256x!tile.ptr<f32>, #a>, %q: tensor<256x!tile.ptr<f32>, #a>) {
  %x = tile.load %p : tensor<256x!tile.ptr<f32>, #a>
  %y = tile.load %q : tensor<256x!tile.ptr<f32>, #a>
  %j = tile.join %x, %y : tensor<256xf32, #a> -> tensor<256x2xf32, #j>
  %l, %r = tile.split %j : tensor<256x2xf32, #j> -> tensor<256xf32, #a>
  tile.store %p, %r : tensor<256x!tile.ptr<f32>, #a>
  tile.store %q, %l : tensor<256x!tile.ptr<f32>, #a>
  return
}
}

// -----

#a = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#k = #tilegpu.blocked<{sizePerThread = [2, 1], threadsPerWarp = [16, 2], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @other_layout(%p: tensor<256x!tile.ptr<f32>, #a>) {
  %x = tile.load %p : tensor<256x!tile.ptr<f32>, #a>
  // expected-error @+2 {{needs its operands' blocked layout with a new last axis held per thread as its result layout}}
  // expected-error @+1 {{failed to legalize operation 'tile.join'}}
  %j = tile.join %x, %x : tensor<256xf32, #a> -> tensor<256x2xf32, #k>
  %l, %r = tile.split %j : tensor<256x2xf32, #k> -> tensor<256xf32, #a>
  tile.store %p, %l : tensor<256x!tile.ptr<f32>, #a>
  return
}
}
