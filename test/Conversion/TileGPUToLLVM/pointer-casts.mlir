// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// Pointer casts, register by register: int_to_ptr and ptr_to_int are LLVM's
// casts to and from the global pointer, ptr_cast nothing.

#b = #tilegpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @blocks
func.func @blocks(%a: tensor<256xi64, #b>, %o: tensor<256x!tile.ptr<i64>, #b>) {
  // CHECK-COUNT-2: llvm.inttoptr %{{.*}} : i64 to !llvm.ptr<1>
  %p = tile.int_to_ptr %a : tensor<256xi64, #b> -> tensor<256x!tile.ptr<f32>, #b>
  %q = tile.ptr_cast %p : tensor<256x!tile.ptr<f32>, #b> -> tensor<256x!tile.ptr<i32>, #b>
  // CHECK-COUNT-2: llvm.ptrtoint %{{.*}} : !llvm.ptr<1> to i64
  %i = tile.ptr_to_int %q : tensor<256x!tile.ptr<i32>, #b> -> tensor<256xi64, #b>
  tile.store %o, %i : tensor<256x!tile.ptr<i64>, #b>
  return
}

// CHECK-LABEL: llvm.func @scalars
// CHECK-SAME: (%[[A:.*]]: i64, %[[P:.*]]: !llvm.ptr<1>)
func.func @scalars(%a: i64, %p: !tile.ptr<f32>) {
  // CHECK: %[[Q:.*]] = llvm.inttoptr %[[A]] : i64 to !llvm.ptr<1>
  %q = tile.int_to_ptr %a : i64 -> !tile.ptr<i64>
  // CHECK-NOT: llvm.bitcast
  %r = tile.ptr_cast %p : !tile.ptr<f32> -> !tile.ptr<i64>
  // CHECK: llvm.ptrtoint %[[P]] : !llvm.ptr<1> to i64
  %i = tile.ptr_to_int %r : !tile.ptr<i64> -> i64
  tile.store %q, %i : !tile.ptr<i64>
  return
}
}
