// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// extract_columns keeps the registers of the columns taken. A 64 x 16 mma
// block (one warp along N, 16-wide instructions) holds per thread, in
// order, rows r and r + 8 of columns c and c + 1 (c = 2 (lane % 4)), then
// the same of columns c + 8 and c + 9: the left 8 columns are registers
// 0-3, the right ones 4-7, each in the 8-wide layout's order.

#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 16]}>
#half = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @halves
// CHECK: %[[ACC:.*]] = llvm.insertvalue %{{.*}}[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: %[[R4:.*]] = llvm.extractvalue %[[ACC]][4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT: %[[R5:.*]] = llvm.extractvalue %[[ACC]][5]
// CHECK-NEXT: %[[R6:.*]] = llvm.extractvalue %[[ACC]][6]
// CHECK-NEXT: %[[R7:.*]] = llvm.extractvalue %[[ACC]][7]
// CHECK: llvm.insertvalue %[[R4]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT: llvm.insertvalue %[[R5]], %{{.*}}[1]
// CHECK-NEXT: llvm.insertvalue %[[R6]], %{{.*}}[2]
// CHECK-NEXT: llvm.insertvalue %[[R7]], %{{.*}}[3]
// CHECK-NOT: nvvm.barrier
func.func @halves(%p: tensor<64x16x!tile.ptr<f32>, #mma>, %q: tensor<64x8x!tile.ptr<f32>, #half>) {
  %acc = tile.load %p : tensor<64x16x!tile.ptr<f32>, #mma>
  %r = tilegpu.extract_columns %acc {offset = 8 : i32} : tensor<64x16xf32, #mma> -> tensor<64x8xf32, #half>
  tile.store %q, %r : tensor<64x8x!tile.ptr<f32>, #half>
  return
}
}
