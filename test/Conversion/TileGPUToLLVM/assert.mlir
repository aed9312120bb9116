// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// tile.assert: a thread with any false element calls __assertfail with the
// message, the file, the line and the function, inside an scf.if (so that
// a loop's body stays one block until scf-to-cf).

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-DAG: llvm.func @__assertfail(!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64)
// CHECK-DAG: llvm.mlir.global internal constant @tile_assert_0("x is negative\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_assert_1("kernel.tile\00")
// CHECK-DAG: llvm.mlir.global internal constant @tile_assert_2("f\00")
// CHECK-LABEL: llvm.func @f
// CHECK: %[[ANY:.*]] = llvm.or
// CHECK: scf.if %[[ANY]] {
// CHECK: llvm.call @__assertfail(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr, i32, !llvm.ptr, i64) -> ()
func.func @f(%c: tensor<256xi1, #b>) {
  tile.assert %c, "x is negative" : tensor<256xi1, #b> loc("kernel.tile":7:5)
  return
}
}
