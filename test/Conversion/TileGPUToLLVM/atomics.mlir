// RUN: tile-opt %s -split-input-file -convert-tilegpu-to-llvm -verify-diagnostics | FileCheck %s
// Atomics become predicated PTX atom.global, one per register, with the op's
// ordering and scope; float max and min go through integer atomics on the
// bit patterns; a replicated tensor acts only through its first copies; a
// scalar atomic runs in thread 0.

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

module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @scalar_old_used(%p: !tile.ptr<i32>, %x: i32) {
  // expected-error @+2 {{on a scalar whose old value is used is not supported on the GPU yet}}
  // expected-error @+1 {{failed to legalize operation 'tile.atomic_rmw'}}
  %0 = tile.atomic_rmw add, %p, %x : !tile.ptr<i32>
  tile.store %p, %0 : !tile.ptr<i32>
  return
}
}

// -----

#b = #tilegpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"tilegpu.num-warps" = 4 : i32, "tilegpu.threads-per-warp" = 32 : i32, tilegpu.target = "sm_90a", tilegpu.shared = 0 : i32} {
func.func @bytes(%q: tensor<128x!tile.ptr<i8>, #b>, %i: tensor<128xi8, #b>) {
  // expected-error @+2 {{an atomic add of 'i8' elements is not supported on the GPU yet}}
  // expected-error @+1 {{failed to legalize operation 'tile.atomic_rmw'}}
  %0 = tile.atomic_rmw add, %q, %i : tensor<128x!tile.ptr<i8>, #b>
  return
}
}
