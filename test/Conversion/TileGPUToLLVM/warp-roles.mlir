// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// A kernel split by tilegpu-warp-specialize: 4 consumer warps and the 4
// producer warps the module records. The kernel's block is all 8 warps,
// with .minnctapersm 1 (ptxas may drop setmaxnreg without it); the launch
// reads the added warps from tile_producer_warps. The split's condition is
// tid.x >= 128. The producer warpgroup shrinks its registers and its first
// thread (128) issues the copies and the acquires; the consumers grow
// theirs, and their barriers (a program barrier, the one before
// invalidating mbarriers) are named barrier 1 over their 128 threads.

module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.producer-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 32800 : i32} {
// CHECK: llvm.mlir.global external constant @tile_producer_warps(4 : i32) {addr_space = 1 : i32, alignment = 4 : i64} : i32
// CHECK-LABEL: llvm.func @roles
// CHECK-SAME: nvvm.minctasm = 1 : i32
// CHECK-SAME: nvvm.reqntid = array<i32: 256, 1, 1>
func.func @roles(%map: !tile.ptr<i8>, %row: i32, %col: i32, %s: i32, %phase: i32, %go: i1) {
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<2x64x128xf16>
  %bar = tilegpu.local_alloc {tilegpu.shared_offset = 32768 : i32} : !tilegpu.mbarriers<2>
  %released = tilegpu.local_alloc {tilegpu.shared_offset = 32784 : i32} : !tilegpu.mbarriers<2>
  // CHECK: "bar.sync 0;"
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %released {arrivals = 4 : i32} : !tilegpu.mbarriers<2>
  // CHECK: llvm.mlir.constant(128 : i32)
  // CHECK-NEXT: %[[PRODUCER:.*]] = llvm.icmp "uge"
  // CHECK: scf.if %[[PRODUCER]]
  %producer = tilegpu.in_producer_warp
  scf.if %producer {
    // CHECK: "setmaxnreg.dec.sync.aligned.u32 40;"
    tilegpu.set_max_registers 40
    // CHECK: llvm.mlir.constant(128 : i32)
    // CHECK-NEXT: %[[PFIRST:.*]] = llvm.icmp "eq"
    // CHECK-NEXT: %[[PWAITS:.*]] = llvm.and %[[PFIRST]], %{{.*}} : i1
    // CHECK: ACQUIRE_WAIT{{.*}}%[[PWAITS]]
    tilegpu.acquire_stage %released[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x128xf16>
    // CHECK: llvm.mlir.constant(128 : i32)
    // CHECK-NEXT: %[[CFIRST:.*]] = llvm.icmp "eq"
    // CHECK-NEXT: %[[ISSUE:.*]] = llvm.and %[[CFIRST]], %{{.*}} : i1
    // CHECK: cp.async.bulk.tensor.2d{{.*}}%[[ISSUE]]
    tilegpu.tma_copy %map[%row, %col], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x128xf16>, !tilegpu.mbarriers<2>
  } else {
    // CHECK: "setmaxnreg.inc.sync.aligned.u32 240;"
    tilegpu.set_max_registers 240
    // CHECK: TMA_WAIT
    tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
    // CHECK: %[[ID:.*]] = llvm.mlir.constant(1 : i32)
    // CHECK: %[[COUNT:.*]] = llvm.mlir.constant(128 : i32)
    // CHECK: nvvm.barrier id = %[[ID]] number_of_threads = %[[COUNT]]
    tilegpu.barrier
    // CHECK: mbarrier.arrive.shared::cta.b64
    tilegpu.release_stage %released[%s] : !tilegpu.mbarriers<2>
    // CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
    // CHECK-NOT: nvvm.barrier0
    // CHECK: mbarrier.inval
    tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  } {tilegpu.warp_roles}
  return
}
}
