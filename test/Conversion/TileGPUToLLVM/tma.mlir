// RUN: tile-opt %s -convert-tilegpu-to-llvm | FileCheck %s
// TMA copies and their mbarriers in inline PTX. Lane 0 of each warp in
// turn initializes a barrier (one arrival): barrier i by warp i mod 4,
// then the program synchronizes. A copy of a 64 x 128 f16 stage is
// two 64-column boxes (128-byte swizzle): thread 0, where the copy is
// wanted, announces the 16384 bytes on the stage's barrier and starts
// both, the second 64 x 128 bytes further into the stage at column + 64.
// Every thread polls the barrier for the phase; after a barrier, the warps
// invalidate them as they initialized them. Thread 0 prefetches a tensor
// map. Barriers that stages are released on count one arrival per warp:
// each warp's lane 0 arrives after bar.warp.sync, and thread 0 alone,
// where wanted, waits for the phase before refilling the stage.

module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 32800 : i32} {
// CHECK-LABEL: llvm.func @tma
func.func @tma(%map: !tile.ptr<i8>, %row: i32, %col: i32, %s: i32, %phase: i32, %go: i1) {
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 0 : i32} : !tilegpu.memdesc<2x64x128xf16>
  %bar = tilegpu.local_alloc {tilegpu.shared_offset = 32768 : i32} : !tilegpu.mbarriers<2>
  %released = tilegpu.local_alloc {tilegpu.shared_offset = 32784 : i32} : !tilegpu.mbarriers<2>
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[BASE:.*]] = llvm.ptrtoint
  // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK: %[[WARP0:.*]] = llvm.icmp "eq" %[[TID]], %[[ZERO]] : i32
  // CHECK: "@$1 mbarrier.init.shared::cta.b64 [$0 + 0], 1;", "r,b" %[[BASE]], %[[WARP0]]
  // CHECK: %[[LANE32:.*]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK: %[[WARP1:.*]] = llvm.icmp "eq" %[[TID]], %[[LANE32]] : i32
  // CHECK: "@$1 mbarrier.init.shared::cta.b64 [$0 + 8], 1;", "r,b" %[[BASE]], %[[WARP1]]
  // CHECK: "fence.mbarrier_init.release.cluster;"
  // CHECK: "bar.sync 0;"
  tilegpu.init_barriers %bar : !tilegpu.mbarriers<2>
  // CHECK: "@$1 prefetch.tensormap [$0];", "l,b"
  tilegpu.prefetch_tensormap %map : !tile.ptr<i8>
  // CHECK: %[[COL2:.*]] = llvm.add %{{.*}}, %{{.*}} : i32
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .b64 state;\0A@$0 mbarrier.arrive.expect_tx.shared::cta.b64 state, [$1], 16384;\0A@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$2 + 0], [$3, {$5, $4}], [$1];\0A@$0 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$2 + 8192], [$3, {$6, $4}], [$1];\0A}", "b,r,r,l,r,r,r" {{.*}}, %[[COL2]]
  tilegpu.tma_copy %map[%row, %col], %a[%s], %bar, %go : !tile.ptr<i8> -> !tilegpu.memdesc<2x64x128xf16>, !tilegpu.mbarriers<2>
  // CHECK: "{\0A.reg .pred done;\0ATMA_WAIT:\0Ambarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\0A@!done bra TMA_WAIT;\0A}", "r,r"
  tilegpu.tma_wait %bar[%s], %phase : !tilegpu.mbarriers<2>
  // CHECK: "@$1 mbarrier.init.shared::cta.b64 [$0 + 0], 4;", "r,b"
  // CHECK: "@$1 mbarrier.init.shared::cta.b64 [$0 + 8], 4;", "r,b"
  tilegpu.init_barriers %released {arrivals = 4 : i32} : !tilegpu.mbarriers<2>
  // CHECK: "{\0A.reg .b32 lane;\0A.reg .pred lead;\0A.reg .b64 state;\0Amov.u32 lane, %laneid;\0Asetp.eq.u32 lead, lane, 0;\0Abar.warp.sync -1;\0A@lead mbarrier.arrive.shared::cta.b64 state, [$0];\0A}", "r"
  tilegpu.release_stage %released[%s] : !tilegpu.mbarriers<2>
  // CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]]
  // CHECK: %[[WAITS:.*]] = llvm.and %[[FIRST]], %{{.*}} : i1
  // CHECK: "{\0A.reg .pred done;\0A@!$2 bra ACQUIRED;\0AACQUIRE_WAIT:\0Ambarrier.try_wait.parity.shared::cta.b64 done, [$0], $1;\0A@!done bra ACQUIRE_WAIT;\0AACQUIRED:\0A}", "r,r,b" %{{.*}}, %{{.*}}, %[[WAITS]]
  tilegpu.acquire_stage %released[%s], %phase, %go for %a : !tilegpu.mbarriers<2>, !tilegpu.memdesc<2x64x128xf16>
  // A TMA store of the same stage: thread 0 stores its two boxes (shared
  // to global, one bulk group), commits, and waits until they have read it.
  // CHECK: %[[SCOL2:.*]] = llvm.add %arg2, %{{.*}} : i32
  // CHECK: %[[STID:.*]] = nvvm.read.ptx.sreg.tid.x
  // CHECK: %[[STORER:.*]] = llvm.icmp "eq" %[[STID]]
  // CHECK: "{\0A@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$2, {$4, $3}], [$1 + 0];\0A@$0 cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$2, {$5, $3}], [$1 + 8192];\0A@$0 cp.async.bulk.commit_group;\0A@$0 cp.async.bulk.wait_group.read 0;\0A}", "b,r,l,r,r,r" %[[STORER]], {{.*}}, %[[SCOL2]]
  tilegpu.tma_store %a[%s], %map[%row, %col] : !tilegpu.memdesc<2x64x128xf16> -> !tile.ptr<i8>
  // CHECK: nvvm.barrier0
  // CHECK: "@$1 mbarrier.inval.shared::cta.b64 [$0 + 0];", "r,b"
  // CHECK: "@$1 mbarrier.inval.shared::cta.b64 [$0 + 8];", "r,b"
  tilegpu.inval_barriers %bar : !tilegpu.mbarriers<2>
  return
}

// Rings set up one after the other (a loop's A and B) share one fence and
// one bar.sync, after the last of them; invalidated one after the other,
// one barrier before the first.
// CHECK-LABEL: llvm.func @two_rings
// CHECK: "@$1 mbarrier.init.shared::cta.b64 [$0 + 8], 1;"
// CHECK-NOT: fence.mbarrier_init
// CHECK-NOT: bar.sync
// CHECK: "@$1 mbarrier.init.shared::cta.b64 [$0 + 8], 1;"
// CHECK-NEXT: "fence.mbarrier_init.release.cluster;"
// CHECK-NEXT: "bar.sync 0;"
// CHECK-NOT: fence.mbarrier_init
// CHECK: nvvm.barrier0
// CHECK-NOT: nvvm.barrier0
// CHECK: "@$1 mbarrier.inval.shared::cta.b64 [$0 + 8];"
// CHECK-NOT: nvvm.barrier0
// CHECK: "@$1 mbarrier.inval.shared::cta.b64 [$0 + 8];"
// CHECK-NOT: nvvm.barrier0
// CHECK: llvm.return
func.func @two_rings() {
  %a = tilegpu.local_alloc {tilegpu.shared_offset = 32768 : i32} : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %a : !tilegpu.mbarriers<2>
  %b = tilegpu.local_alloc {tilegpu.shared_offset = 32784 : i32} : !tilegpu.mbarriers<2>
  tilegpu.init_barriers %b : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %a : !tilegpu.mbarriers<2>
  tilegpu.inval_barriers %b : !tilegpu.mbarriers<2>
  return
}
}
