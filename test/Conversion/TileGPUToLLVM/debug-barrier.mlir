// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// tl.debug_barrier is bar.sync 0, as tilegpu.barrier.

module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @f
// CHECK: nvvm.barrier0
func.func @f() {
  tile.debug_barrier
  return
}
}
