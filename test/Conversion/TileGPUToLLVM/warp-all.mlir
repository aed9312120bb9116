// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// tilegpu.warp_all: a thread's registers of the predicate (4 rows of a
// 128-row wgmma accumulator's slice on 4 warps) and-ed, then one
// vote.sync.all over the warp's 32 lanes.

#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
#slice = #tilegpu.slice<{dim = 1, parent = #mma}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "sm_90a", "tilegpu.threads-per-warp" = 32 : i32} {
// CHECK-LABEL: llvm.func @all_one
// CHECK: llvm.fcmp "oeq"
// CHECK-COUNT-3: llvm.and
// CHECK-NOT: llvm.and
// CHECK: %[[MASK:.*]] = llvm.mlir.constant(-1 : i32) : i32
// CHECK-NEXT: %[[ALL:.*]] = nvvm.vote.sync all %[[MASK]], %{{.*}} -> i1
// CHECK: llvm.select %[[ALL]]
func.func @all_one(%p: tensor<128x!tile.ptr<f32>, #slice>) {
  %alpha = tile.load %p : tensor<128x!tile.ptr<f32>, #slice>
  %one = arith.constant dense<1.0> : tensor<128xf32, #slice>
  %unit = arith.cmpf oeq, %alpha, %one : tensor<128xf32, #slice>
  %all = tilegpu.warp_all %unit : tensor<128xi1, #slice>
  %kept = arith.select %all, %one, %alpha : tensor<128xf32, #slice>
  tile.store %p, %kept : tensor<128x!tile.ptr<f32>, #slice>
  return
}
}
