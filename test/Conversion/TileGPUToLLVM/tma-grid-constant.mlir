// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -verify-diagnostics | FileCheck %s
// A host descriptor's tensor map (the argument marked tile.tensormap) is
// passed by value: a byval parameter of 128 bytes aligned to 64 that
// NVPTX lowers as a grid constant, whose generic address the TMA
// instructions take (no addrspacecast to global memory is left). Another
// pointer argument stays a global pointer.

module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 32784 : i32} {
// CHECK-LABEL: llvm.func @grid_constant(
// CHECK-SAME: %[[MAP:.*]]: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{.*}}: !llvm.ptr<1>,
// CHECK-NOT: llvm.addrspacecast
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[MAP]] : !llvm.ptr to i64
// CHECK: "@$1 prefetch.tensormap [$0];", "l,b" %[[ADDR]]
// CHECK: %[[ADDR2:.*]] = llvm.ptrtoint %[[MAP]] : !llvm.ptr to i64
// CHECK: cp.async.bulk.tensor.2d{{.*}} %[[ADDR2]],
func.func @grid_constant(%map: !tile.ptr<i8> {tile.tensormap}, %other: !tile.ptr<i8>, %row: i32, %col: i32, %s: i32, %go: i1) {
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<2x64x128xf16>
  %bar = tilegpu.local_alloc {tilegpu.shared_offset = 32768 : i32} : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.prefetch_tensormap %map : !tile.ptr<i8>
  tilegpu.tma_copy %map[%row, %col], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x128xf16>, !tilegpu.mbarriers<2>
  return
}
}

// -----

// Anything else that reads the map's pointer would read param space through
// a global address: an error (the front end marks only descriptors' maps,
// which only TMA instructions use).
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a"} {
// expected-error @+1 {{tensor map argument #0 has a use other than a TMA instruction's address}}
func.func @other_use(%map: !tile.ptr<i8> {tile.tensormap}) {
  %v = tile.load %map : !tile.ptr<i8>
  return
}
}
