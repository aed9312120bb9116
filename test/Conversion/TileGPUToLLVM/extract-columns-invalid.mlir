// RUN: not tile-opt %s -convert-tilegpu-to-llvm 2>&1 | FileCheck %s

// With two warps along N, a half as wide an instruction moves each
// thread's base column: the columns are not where the registers are. An
// error at the op, not wrong code.
// CHECK: extract-columns-invalid.mlir:13:8: error: 'tilegpu.extract_columns' op needs the same instruction width, or one warp along N
#mma = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 16]}>
#half = #tilegpu.mma<{version = 3, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
module attributes {"tilegpu.num-warps" = 8 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @other_warps(%p: tensor<64x32x!tile.ptr<f32>, #mma>, %q: tensor<64x16x!tile.ptr<f32>, #half>) {
  %acc = tile.load %p : tensor<64x32x!tile.ptr<f32>, #mma>
  // The op:
  %r = tilegpu.extract_columns %acc {offset = 0 : i32} : tensor<64x32xf32, #mma> -> tensor<64x16xf32, #half>
  tile.store %q, %r : tensor<64x16x!tile.ptr<f32>, #half>
  return
}
}
