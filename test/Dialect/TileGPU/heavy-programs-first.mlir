// RUN: tile-opt %s -split-input-file -tilegpu-heavy-programs-first | FileCheck %s

// A causal forward's row block, program_id(0), bounds its first loop: the
// programs are renumbered so the highest row block of each group of heads
// starts first. Every program_id now reads the new numbering; the loops and
// the rest of the kernel do not change.
// CHECK-LABEL: func.func @causal
// CHECK-SAME: attributes {tilegpu.heavy_programs_first = 0 : i32}
// CHECK: %[[X:.*]] = tile.program_id 0 : i32
// CHECK-NEXT: %[[XW:.*]] = arith.extui %[[X]] : i32 to i64
// CHECK-NEXT: %[[GX:.*]] = tile.num_programs 0 : i32
// CHECK-NEXT: %[[GXW:.*]] = arith.extui %[[GX]] : i32 to i64
// CHECK-NEXT: %[[Y:.*]] = tile.program_id 1 : i32
// CHECK-NEXT: %[[YW:.*]] = arith.extui %[[Y]] : i32 to i64
// CHECK-NEXT: %[[GY:.*]] = tile.num_programs 1 : i32
// CHECK-NEXT: %[[GYW:.*]] = arith.extui %[[GY]] : i32 to i64
// CHECK-NEXT: %[[Z:.*]] = tile.program_id 2 : i32
// CHECK-NEXT: %[[ZW:.*]] = arith.extui %[[Z]] : i32 to i64
// CHECK-NEXT: %[[GZ:.*]] = tile.num_programs 2 : i32
// CHECK-NEXT: %[[GZW:.*]] = arith.extui %[[GZ]] : i32 to i64
// The block index, x fastest.
// CHECK-NEXT: %[[YZ:.*]] = arith.muli %[[GYW]], %[[ZW]]
// CHECK-NEXT: %[[Y2:.*]] = arith.addi %[[YW]], %[[YZ]]
// CHECK-NEXT: %[[XYZ:.*]] = arith.muli %[[GXW]], %[[Y2]]
// CHECK-NEXT: %[[L:.*]] = arith.addi %[[XW]], %[[XYZ]]
// Groups of whole (y, z) ranges of at least twice the SM count of programs.
// CHECK-NEXT: %[[OTHERS:.*]] = arith.muli %[[GYW]], %[[GZW]]
// CHECK-NEXT: %[[SMS:.*]] = tilegpu.sm_count : i32
// CHECK-NEXT: %[[SMSW:.*]] = arith.extui %[[SMS]] : i32 to i64
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[FLIGHT:.*]] = arith.muli %[[TWO]], %[[SMSW]]
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT: %[[S1:.*]] = arith.addi %[[FLIGHT]], %[[GXW]]
// CHECK-NEXT: %[[S2:.*]] = arith.subi %[[S1]], %[[ONE]]
// CHECK-NEXT: %[[WANTED:.*]] = arith.divui %[[S2]], %[[GXW]]
// CHECK-NEXT: %[[CLAMPED:.*]] = arith.minui %[[WANTED]], %[[OTHERS]]
// CHECK-NEXT: %[[GS:.*]] = arith.maxui %[[ONE]], %[[CLAMPED]]
// CHECK-NEXT: %[[GP:.*]] = arith.muli %[[GS]], %[[GXW]]
// CHECK-NEXT: %[[GROUP:.*]] = arith.divui %[[L]], %[[GP]]
// CHECK-NEXT: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[GS]]
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[OTHERS]], %[[FIRST]]
// CHECK-NEXT: %[[SIZE:.*]] = arith.minui %[[GS]], %[[LEFT]]
// CHECK-NEXT: %[[DONE:.*]] = arith.muli %[[GROUP]], %[[GP]]
// CHECK-NEXT: %[[I:.*]] = arith.subi %[[L]], %[[DONE]]
// Heaviest first: x counts down within the group, (y, z) fastest.
// CHECK-NEXT: %[[LAST:.*]] = arith.subi %[[GXW]], %[[ONE]]
// CHECK-NEXT: %[[STEP:.*]] = arith.divui %[[I]], %[[SIZE]]
// CHECK-NEXT: %[[NX:.*]] = arith.subi %[[LAST]], %[[STEP]]
// CHECK-NEXT: %[[R:.*]] = arith.remui %[[I]], %[[SIZE]]
// CHECK-NEXT: %[[O:.*]] = arith.addi %[[FIRST]], %[[R]]
// CHECK-NEXT: %[[NY:.*]] = arith.remui %[[O]], %[[GYW]]
// CHECK-NEXT: %[[NZ:.*]] = arith.divui %[[O]], %[[GYW]]
// CHECK-NEXT: %[[M:.*]] = arith.trunci %[[NX]] : i64 to i32
// CHECK-NEXT: %[[HZ:.*]] = arith.trunci %[[NY]] : i64 to i32
// CHECK-NOT: tile.program_id
// CHECK: %[[HI:.*]] = arith.muli %[[M]], %{{.*}} : i32
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[HI]]
// CHECK: tile.store %{{.*}}, %[[HZ]]
func.func @causal(%out: !tile.ptr<i32>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %m = tile.program_id 0 : i32
  %hz = tile.program_id 1 : i32
  %hi = arith.muli %m, %c128 : i32
  %sum = scf.for %i = %c0 to %hi step %c64 iter_args(%s = %c0) -> (i32) : i32 {
    %t = arith.addi %s, %i : i32
    scf.yield %t : i32
  }
  %p = tile.addptr %out, %sum : !tile.ptr<i32>, i32
  tile.store %p, %hz : !tile.ptr<i32>
  return
}

// -----

// Work that grows along axis 1 and shrinks along axis 0: with two axes,
// no order is the heaviest first, and nothing changes.
// CHECK-LABEL: func.func @heavy_y
// CHECK-NOT: heavy_programs_first
// CHECK: return
func.func @heavy_y(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %x = tile.program_id 0 : i32
  %y = tile.program_id 1 : i32
  scf.for %i = %c0 to %y step %c1 : i32 {
  }
  scf.for %i = %x to %n step %c1 : i32 {
  }
  return
}

// -----

// Along axis 1 only.
// CHECK-LABEL: func.func @only_y
// CHECK-SAME: attributes {tilegpu.heavy_programs_first = 1 : i32}
// CHECK: %[[GX0:.*]] = tile.num_programs 0
// CHECK-NEXT: %[[GX:.*]] = arith.extui %[[GX0]] : i32 to i64
// CHECK: %[[NX:.*]] = arith.remui %[[O:.*]], %[[GX]] : i64
// CHECK-NEXT: %[[NZ:.*]] = arith.divui %[[O]], %[[GX]] : i64
// CHECK-NEXT: arith.trunci %[[NX]] : i64 to i32
// CHECK-NEXT: %[[Y:.*]] = arith.trunci
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[Y]]
func.func @only_y(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %y = tile.program_id 1 : i32
  scf.for %i = %c0 to %y step %c1 : i32 {
  }
  return
}

// -----

// The same work in every program (a matmul's K loop), a persistent loop
// (the first programs already have the most), work the analysis cannot
// read: nothing changes.
// CHECK-LABEL: func.func @uniform
// CHECK-NOT: tilegpu.sm_count
// CHECK: tile.program_id 0
// CHECK-LABEL: func.func @persistent
// CHECK-NOT: tilegpu.sm_count
// CHECK-LABEL: func.func @unreadable
// CHECK-NOT: tilegpu.sm_count
// CHECK: return
func.func @uniform(%out: !tile.ptr<i32>, %k: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %pid = tile.program_id 0 : i32
  scf.for %i = %c0 to %k step %c1 : i32 {
  }
  tile.store %out, %pid : !tile.ptr<i32>
  return
}
func.func @persistent(%tiles: i32) {
  %c1 = arith.constant 1 : i32
  %pid = tile.program_id 0 : i32
  %grid = tile.num_programs 0 : i32
  scf.for %t = %pid to %tiles step %grid : i32 {
  }
  return
}
func.func @unreadable(%n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %pid = tile.program_id 0 : i32
  %top = arith.muli %pid, %n : i32
  scf.for %i = %c0 to %top step %c1 : i32 {
  }
  return
}
