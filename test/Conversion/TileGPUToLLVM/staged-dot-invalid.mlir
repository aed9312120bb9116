// RUN: not tile-opt %s -convert-tilegpu-to-llvm 2>&1 | FileCheck %s

// A stage's rows (48) that the accumulator's mma tile (64 rows: 4 warps of
// 16) does not divide: an error at the op, not a crash.
// CHECK: staged-dot-invalid.mlir:13:10: error: 'tilegpu.shared_dot' op needs a result that is a whole number of mma tiles and K a multiple of 16
#mma = #tilegpu.mma<{version = 2, warpsPerCTA = [4, 1], instrShape = [16, 64]}>
module attributes {"tilegpu.num-warps" = 4 : i32, tilegpu.target = "sm_80", "tilegpu.threads-per-warp" = 32 : i32, tilegpu.shared = 16384 : i32} {
  func.func @f() {
    %s = arith.constant 0 : i32
    %acc = arith.constant dense<0.0> : tensor<48x64xf32, #mma>
    %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<2x48x32xf16>
    %b = tilegpu.local_alloc {tilegpu.shared_offset = 8192 : i32} : !tilegpu.memdesc<2x32x64xf16>
    %d = tilegpu.shared_dot %a, %b[%s], %acc : !tilegpu.memdesc<2x48x32xf16>, !tilegpu.memdesc<2x32x64xf16>, tensor<48x64xf32, #mma>
    return
  }
}
