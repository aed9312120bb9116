// RUN: tile-opt %s -split-input-file -tilegpu-order-programs | FileCheck %s

// Causal attention's shape: the loop runs pid0 * 64 / 32 iterations, each
// loading 32 f32 (128 bytes). The ids are renumbered at the entry: the
// heaviest program's trip count from the bounds with pid0 = nx - 1, the
// section size clamp(16 MiB / bytes, 1, 16), and the launch index split
// into sections, heaviest row first; every program_id use takes the new id
// where the grid fits in 32 bits.
// CHECK-LABEL: func.func @growing
// CHECK-DAG: %[[X:.*]] = tile.program_id 0 : i32
// CHECK-DAG: %[[NX:.*]] = tile.num_programs 0 : i32
// CHECK-DAG: %[[LAST:.*]] = arith.subi %[[NX]], %c1
// CHECK-DAG: arith.muli %[[LAST]], %c64
// CHECK-DAG: %[[BYTES:.*]] = arith.constant 128 : i64
// CHECK-DAG: %[[BUDGET:.*]] = arith.constant 16777216 : i64
// CHECK: arith.divsi %[[BUDGET]]
// CHECK: %[[FITS:.*]] = arith.cmpi sle, %{{.*}}, %c2147483647
// CHECK: arith.divui
// CHECK: %[[NEW:.*]] = arith.select %[[FITS]], %{{.*}}, %[[X]] : i32
// CHECK-NOT: tile.program_id
// CHECK: arith.muli %[[NEW]], %c64
// CHECK: scf.for
func.func @growing(%p: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %hi = arith.muli %pid, %c64 : i32
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %r = tile.make_range {end = 32 : i32, start = 0 : i32} : tensor<32xi32>
  %ptrs = tile.addptr %ps, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  %zero = arith.constant dense<0.0> : tensor<32xf32>
  %sum = scf.for %i = %c0 to %hi step %c32 iter_args(%acc = %zero) -> (tensor<32xf32>) : i32 {
    %x = tile.load %ptrs : tensor<32x!tile.ptr<f32>>
    %next = arith.addf %acc, %x : tensor<32xf32>
    scf.yield %next : tensor<32xf32>
  }
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<32x!tile.ptr<f32>>
  %optrs = tile.addptr %os, %r : tensor<32x!tile.ptr<f32>>, tensor<32xi32>
  tile.store %optrs, %sum : tensor<32x!tile.ptr<f32>>
  return
}

// -----

// The diagonal block's loop, from pid0 * 64 to (pid0 + 1) * 64, runs as
// many iterations in every program, and a loop from pid1 fewer in larger
// pid1: the kernel is left as it is.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: tile.num_programs
// CHECK: tile.program_id 0
func.func @unchanged(%n: i32) {
  %pid = tile.program_id 0 : i32
  %pid1 = tile.program_id 1 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %lo = arith.muli %pid, %c64 : i32
  %next = arith.addi %pid, %c1 : i32
  %hi = arith.muli %next, %c64 : i32
  scf.for %i = %lo to %hi step %c64 : i32 {
  }
  scf.for %j = %pid1 to %n step %c1 : i32 {
  }
  return
}

// -----

// A loop that grows with pid0 beside a branch on pid0: the work of the
// branch is not known, so the kernel is left as it is.
// CHECK-LABEL: func.func @branch
// CHECK-NOT: tile.num_programs
func.func @branch(%p: !tile.ptr<i32>) {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %pid step %c1 : i32 {
  }
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    tile.store %p, %pid : !tile.ptr<i32>
  }
  return
}

// -----

// A loop bound that depends on a loaded value is not recomputed at the
// entry: the kernel is left as it is, with nothing added.
// CHECK-LABEL: func.func @loaded_bound
// CHECK-NEXT: tile.program_id 0
// CHECK-NOT: tile.num_programs
func.func @loaded_bound(%p: !tile.ptr<i32>) {
  %pid = tile.program_id 0 : i32
  %c1 = arith.constant 1 : i32
  %n = tile.load %p : !tile.ptr<i32>
  %hi = arith.addi %pid, %c1 : i32
  scf.for %i = %n to %hi step %c1 : i32 {
    scf.for %j = %i to %hi step %c1 : i32 {
    }
  }
  return
}

// -----

// 64-bit bounds (a loop over an i64 range) are used as they are.
// CHECK-LABEL: func.func @wide_bounds
// CHECK: tile.num_programs 0
// CHECK: %[[HI:.*]] = arith.extsi %{{.*}} : i32 to i64
// CHECK-NOT: arith.extsi
// CHECK: arith.subi %[[HI]], %c0_i64
func.func @wide_bounds() {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %hi = arith.extsi %pid : i32 to i64
  scf.for %i = %c0 to %hi step %c1 : i64 {
  }
  return
}

// -----

// A kernel that prints is left as it is: the GPU's prints name the
// hardware's block ids, which are then its program ids, as in Triton.
// CHECK-LABEL: func.func @prints
// CHECK-NOT: tile.num_programs
func.func @prints() {
  %pid = tile.program_id 0 : i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %pid step %c1 : i32 {
  }
  tile.print " pid: " {hex = false, isSigned = array<i32: 1>} : %pid : i32
  return
}
