// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -verify-diagnostics | FileCheck %s
// Atomics become predicated PTX atom.global, one per register, with the op's
// ordering and scope; float max and min go through integer atomics on the
// bit patterns; a replicated tensor acts only through its first copies; a
// scalar atomic runs in thread 0 (and passes a used old value on through
// shared memory); 8- and 16-bit ones are compare-and-swap loops.

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @forms
func.func @forms(%p: tensor<128x!tile.ptr<f32>, #b>, %x: tensor<128xf32, #b>, %q: tensor<128x!tile.ptr<i32>, #b>, %i: tensor<128xi32, #b>, %m: tensor<128xi1, #b>) {
  // CHECK: "mov.b32 $0, 0;\0A\09@$3 atom.global.acq_rel.gpu.add.f32 $0, [ $1 + 0 ], $2;", "=r,l,r,b"
  %0 = tile.atomic_rmw fadd, %p, %x, %m : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: atom.global.relaxed.cta.max.s32
  %1 = tile.atomic_rmw max, %q, %i {sem = 0 : i32, scope = 1 : i32} : tensor<128x!tile.ptr<i32>, #b>
  // CHECK: atom.global.release.sys.max.u32
  %2 = tile.atomic_rmw umax, %q, %i {sem = 2 : i32, scope = 2 : i32} : tensor<128x!tile.ptr<i32>, #b>
  // CHECK: atom.global.acq_rel.gpu.max.s32
  // CHECK: atom.global.acq_rel.gpu.min.u32
  %3 = tile.atomic_rmw fmax, %p, %x : tensor<128x!tile.ptr<f32>, #b>
  // CHECK: atom.global.acq_rel.gpu.exch.b32
  %4 = tile.atomic_rmw xchg, %q, %i : tensor<128x!tile.ptr<i32>, #b>
  // CHECK: atom.global.acquire.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;
  %5 = tile.atomic_cas %q, %i, %i {sem = 1 : i32} : tensor<128x!tile.ptr<i32>, #b>
  return
}

// The layout's tile (128 lanes) is larger than the 64 elements: lanes
// 64..127 hold copies and must not act.
// CHECK-LABEL: llvm.func @replicated
// CHECK: nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK: atom.global.acq_rel.gpu.add.u32
func.func @replicated(%q: tensor<64x!tile.ptr<i32>, #b>, %i: tensor<64xi32, #b>) {
  %0 = tile.atomic_rmw add, %q, %i : tensor<64x!tile.ptr<i32>, #b>
  return
}

// CHECK-LABEL: llvm.func @scalar
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: llvm.icmp "eq" %[[TID]]
// CHECK: atom.global.acq_rel.gpu.add.f32
func.func @scalar(%p: !tile.ptr<f32>, %x: f32) {
  %0 = tile.atomic_rmw fadd, %p, %x : !tile.ptr<f32>
  return
}
}

// -----

// A scalar atomic whose old value is used: thread 0 performs it, stores the
// old value to the op's scratch word, a barrier, every thread loads it.
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 16 : i32} {
// CHECK-LABEL: llvm.func @scalar_old_used
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]]
// CHECK: %[[OLD:.*]] = llvm.inline_asm {{.*}}"mov.b32 $0, 0;\0A\09@$4 atom.global.acq_rel.gpu.cas.b32 $0, [ $1 + 0 ], $2, $3;"
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @tile_smem
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(8 : i32)
// CHECK: %[[SLOT:.*]] = llvm.getelementptr %[[BASE]]
// CHECK: %[[ADDR:.*]] = llvm.ptrtoint %[[SLOT]] : !llvm.ptr<3> to i32
// CHECK: %[[TID0:.*]] = nvvm.read.ptx.sreg.tid.x
// CHECK: %[[IS0:.*]] = llvm.icmp "eq" %[[TID0]]
// CHECK: llvm.inline_asm has_side_effects {{.*}}"@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b" %[[ADDR]], %[[OLD]], %[[IS0]]
// CHECK: nvvm.barrier0
// CHECK: %[[SEEN:.*]] = llvm.load %[[SLOT]] : !llvm.ptr<3> -> i32
// CHECK: atom.global.acq_rel.gpu.add.u32 $0, [ $1 + 0 ], $2;", "=r,l,r,b" %{{.*}}, %[[SEEN]]
func.func @scalar_old_used(%p: !tile.ptr<i32>, %x: i32) {
  %0 = tile.atomic_cas %p, %x, %x {tilegpu.shared_offset = 8 : i32} : !tile.ptr<i32>
  %1 = tile.atomic_rmw add, %p, %0 : !tile.ptr<i32>
  return
}

// An 8-bit result goes through the word widened, and back.
// CHECK-LABEL: llvm.func @scalar_byte
// CHECK: sw_loop_${:uid}:
// CHECK: llvm.zext %{{.*}} : i8 to i32
// CHECK: st.shared.b32
// CHECK: nvvm.barrier0
// CHECK: %[[W:.*]] = llvm.load %{{.*}} : !llvm.ptr<3> -> i32
// CHECK: llvm.trunc %[[W]] : i32 to i8
func.func @scalar_byte(%p: !tile.ptr<i8>, %x: i8, %q: !tile.ptr<i32>) {
  %0 = tile.atomic_rmw add, %p, %x {tilegpu.shared_offset = 0 : i32} : !tile.ptr<i8>
  %1 = arith.extsi %0 : i8 to i32
  tile.store %q, %1 : !tile.ptr<i32>
  return
}
}

// -----

// Without its scratch (tilegpu-allocate-shared-memory did not run), a
// scalar atomic whose old value is used cannot pass it on: ScratchBuffers
// counts its 4 bytes.
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @scalar_no_scratch(%p: !tile.ptr<i32>, %x: i32) {
  // expected-error @+1 {{needs 4 bytes of shared memory but has no tilegpu.shared_offset}}
  %0 = tile.atomic_rmw add, %p, %x : !tile.ptr<i32>
  tile.store %p, %0 : !tile.ptr<i32>
  return
}
}

// -----

// 8- and 16-bit read-modify-writes: a compare-and-swap loop on the aligned
// word (address & -4), the element at bit 8 * (address & 3), extracted
// sign-extended for signed max and min, inserted back with bfi; the loop's
// atom.cas has the op's ordering and scope, its first read is relaxed at
// that scope. An 8-bit cas leaves the loop where the element differs.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @subword
func.func @subword(%q: tensor<128x!tile.ptr<i8>, #b>, %i: tensor<128xi8, #b>, %h: tensor<128x!tile.ptr<i16>, #b>, %j: tensor<128xi16, #b>, %m: tensor<128xi1, #b>, %f: tensor<128x!tile.ptr<f16>, #b>, %g: tensor<128xf16, #b>) {
  // CHECK: llvm.zext %{{.*}} : i8 to i32
  // CHECK: "{\0A\09.reg .pred %sw_p;{{.*}}mov.b32 $0, 0;\0A\09@!$3 bra sw_done_${:uid};\0A\09mov.b32 %sw_v, $2;\0A\09and.b64 %sw_a, $1, -4;{{.*}}shl.b32 %sw_sh, %sw_sh, 3;\0A\09ld.relaxed.gpu.global.b32 %sw_old, [%sw_a];\0Asw_loop_${:uid}:\0A\09bfe.u32 %sw_e, %sw_old, %sw_sh, 8;\0A\09add.u32 %sw_r, %sw_e, %sw_v;\0A\09bfi.b32 %sw_new, %sw_r, %sw_old, %sw_sh, 8;\0A\09atom.global.acq_rel.gpu.cas.b32 %sw_cur, [%sw_a], %sw_old, %sw_new;{{.*}}@%sw_p bra sw_loop_${:uid};{{.*}}mov.b32 $0, %sw_e;\0Asw_done_${:uid}:\0A\09}", "=r,l,r,b"
  // CHECK: llvm.trunc %{{.*}} : i32 to i8
  %0 = tile.atomic_rmw add, %q, %i, %m : tensor<128x!tile.ptr<i8>, #b>
  // CHECK: llvm.sext %{{.*}} : i16 to i32
  // CHECK: ld.relaxed.cta.global.b32{{.*}}bfe.s32 %sw_e, %sw_old, %sw_sh, 16;\0A\09max.s32 %sw_r, %sw_e, %sw_v;{{.*}}atom.global.relaxed.cta.cas.b32
  %1 = tile.atomic_rmw max, %h, %j {sem = 0 : i32, scope = 1 : i32} : tensor<128x!tile.ptr<i16>, #b>
  // CHECK: bfe.u32 %sw_e, %sw_old, %sw_sh, 16;\0A\09min.u32 %sw_r, %sw_e, %sw_v;{{.*}}atom.global.release.sys.cas.b32
  %2 = tile.atomic_rmw umin, %h, %j {sem = 2 : i32, scope = 2 : i32} : tensor<128x!tile.ptr<i16>, #b>
  // CHECK: mov.b32 %sw_r, %sw_v;
  %3 = tile.atomic_rmw xchg, %q, %i : tensor<128x!tile.ptr<i8>, #b>
  // 16-bit float exchange: the bit patterns.
  // CHECK: llvm.bitcast %{{.*}} : f16 to i16
  // CHECK: mov.b32 %sw_r, %sw_v;
  // CHECK: llvm.bitcast %{{.*}} : i16 to f16
  %4 = tile.atomic_rmw xchg, %f, %g : tensor<128x!tile.ptr<f16>, #b>
  // fp16 add has its atom.
  // CHECK: atom.global.acq_rel.gpu.add.noftz.f16
  %5 = tile.atomic_rmw fadd, %f, %g : tensor<128x!tile.ptr<f16>, #b>
  // CHECK: "{{.*}}mov.b32 %sw_c, $2;\0A\09mov.b32 %sw_v, $3;{{.*}}setp.ne.b32 %sw_p, %sw_e, %sw_c;\0A\09@%sw_p bra sw_exit_${:uid};\0A\09mov.b32 %sw_r, %sw_v;{{.*}}atom.global.acquire.gpu.cas.b32 {{.*}}sw_exit_${:uid}:\0A\09mov.b32 $0, %sw_e;{{.*}}", "=r,l,r,r"
  %6 = tile.atomic_cas %q, %i, %i {sem = 1 : i32} : tensor<128x!tile.ptr<i8>, #b>
  return
}
}

// -----

// bf16 add before sm_90: the loop adds with fma.rn.bf16 (x * 1.0 + y, one
// rounding); on sm_90 it is atom.add.noftz.bf16.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_80", tilegpu.shared = 0 : i32} {
// CHECK-LABEL: llvm.func @bf16_sm80
// CHECK: .reg .b16 %sw_h, %sw_hv, %sw_one;{{.*}}mov.b16 %sw_one, 0x3F80;\0A\09fma.rn.bf16 %sw_h, %sw_h, %sw_one, %sw_hv;
func.func @bf16_sm80(%p: tensor<128x!tile.ptr<bf16>, #b>, %x: tensor<128xbf16, #b>) {
  %0 = tile.atomic_rmw fadd, %p, %x : tensor<128x!tile.ptr<bf16>, #b>
  return
}
}

// -----

// What PTX has no form for: fp16 and bf16 max and min (Triton refuses them
// too), an 8-bit float, a 1-bit integer.
#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @half_max(%q: tensor<128x!tile.ptr<f16>, #b>, %i: tensor<128xf16, #b>) {
  // expected-error @+2 {{an atomic fmax of 'f16' elements is not supported on the GPU yet}}
  // expected-error @+1 {{failed to legalize operation 'tile.atomic_rmw'}}
  %0 = tile.atomic_rmw fmax, %q, %i : tensor<128x!tile.ptr<f16>, #b>
  return
}
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @bits(%q: tensor<128x!tile.ptr<i1>, #b>, %i: tensor<128xi1, #b>) {
  // expected-error @+2 {{an atomic or of 'i1' elements is not supported on the GPU yet}}
  // expected-error @+1 {{failed to legalize operation 'tile.atomic_rmw'}}
  %0 = tile.atomic_rmw or, %q, %i : tensor<128x!tile.ptr<i1>, #b>
  return
}
}
